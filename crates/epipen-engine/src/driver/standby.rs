//! The questions a backend hands over ([`HandsOver`](super::HandsOver): the explicit
//! backend's states before the announcements that bound its worlds; and an `actual`
//! whose worlds [`Semantics::pin`](crate::driver::Semantics::pin) cannot list) and the [`Standby`] that answers them,
//! which `choice` makes (the one place that chooses backends).

use super::{Backend, Driver, Views};
use crate::Failure;
use crate::ir::{CharId, Expr};
use crate::worlds::{Model, World, WorldCount, WorldSet};

/// What κ is made of in a state a backend hands over: the announcements so far and
/// what each character learned, in order.
pub(crate) struct Handover {
    pub constraints: Vec<Expr>,
    /// What each character learned, in order, for the model (the worlds do not depend
    /// on it); an error when the backend cannot say it as expressions.
    pub learned: Result<Vec<(CharId, Expr)>, String>,
}

/// Answers the questions a backend hands over ([`HandsOver`](super::HandsOver)), on
/// another backend that `choice` (the one place that chooses backends) picks.
pub(crate) trait Standby {
    /// Up to `limit` of κ's worlds.
    fn worlds(&mut self, h: &Handover, limit: usize) -> Result<WorldSet, Failure>;
    /// How many worlds κ has.
    fn count(&mut self, h: &Handover, cap: usize) -> Result<WorldCount, Failure>;
    /// κ's model when it has at most `cap` worlds.
    fn model(&mut self, h: &Handover, cap: usize) -> Result<Option<Model>, Failure>;
    /// Whether κ has no world.
    fn is_empty(&mut self, h: &Handover) -> Result<bool, Failure>;
    /// [`Semantics::pin`](crate::driver::Semantics::pin) for a backend that cannot list φ's worlds.
    fn pin(&mut self, phi: &Expr) -> Result<Vec<World>, Failure>;
}

impl<B: Backend> Driver<B> {
    /// What κ is made of in `state` when the backend hands questions about it over.
    pub(super) fn handover(&self, state: &B::State) -> Option<Handover> {
        self.backend.hands_over()?.handed_over(state)
    }

    /// Up to `limit` of κ's worlds in `state` (see [`Listing::worlds`](crate::driver::Listing::worlds)), from the
    /// standby when the backend hands the question over.
    pub(super) fn worlds_of(
        &mut self,
        state: &B::State,
        limit: usize,
    ) -> Result<WorldSet, Failure> {
        match self.handover(state) {
            None => self.backend.worlds(state, limit),
            Some(h) => self.standby.worlds(&h, limit),
        }
    }

    /// How many worlds κ has in `state` (see [`Listing::count`](crate::driver::Listing::count)).
    pub(super) fn count_of(&mut self, state: &B::State, cap: usize) -> Result<WorldCount, Failure> {
        match self.handover(state) {
            None => self.backend.count(state, cap),
            Some(h) => self.standby.count(&h, cap),
        }
    }

    /// κ's model in `state` (see [`Listing::model`](crate::driver::Listing::model)).
    pub(super) fn model_of(
        &mut self,
        state: &B::State,
        cap: usize,
        views: Views,
    ) -> Result<Option<Model>, Failure> {
        match self.handover(state) {
            None => self.backend.model(state, cap, views),
            Some(h) => self.standby.model(&h, cap),
        }
    }

    /// Whether κ has no world in `state` (see [`Listing::is_empty`](crate::driver::Listing::is_empty)).
    pub(super) fn is_empty_of(&mut self, state: &B::State) -> Result<bool, Failure> {
        match self.handover(state) {
            None => self.backend.is_empty(state),
            Some(h) => self.standby.is_empty(&h),
        }
    }
}
