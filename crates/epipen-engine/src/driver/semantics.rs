//! [`Semantics`]: what a formula means in a backend's knowledge state.

use super::{Said, World};
use crate::Failure;
use crate::ir::{CharId, Expr};
use crate::worlds::Value;

/// What formulas mean: the worlds where one holds (a `Set`) in a knowledge state (a
/// `State`: κ and what each character learned), and whether it holds at a world (a
/// `Point`). Sets and states are values, cheap to clone, and never change once made.
pub(crate) trait Semantics {
    type Set: Clone;
    type State: Clone;
    /// The actual world in the backend's own form.
    type Point: Clone;

    /// The worlds where `e` holds, its knowledge operators evaluated in `state` and an
    /// `at(c, …)` in `saved[c]` (always a state the run has passed).
    fn formula(
        &mut self,
        e: &Expr,
        state: &Self::State,
        saved: &[Option<Self::State>],
    ) -> Result<Self::Set, Failure>;

    /// The worlds of κ where the announced `e` holds (the storyteller's announcement:
    /// only κ ∧ e is used, so outside κ the set may be anything): by default
    /// [`Semantics::formula`]. The BDD backend conjoins a conjunction's members into κ
    /// one by one, where the conjunction alone can be exponentially larger than κ ∧ it.
    fn announced_formula(
        &mut self,
        e: &Expr,
        state: &Self::State,
        saved: &[Option<Self::State>],
    ) -> Result<Self::Set, Failure> {
        self.formula(e, state, saved)
    }

    /// What `agent`'s truthful announcement of ψ adds in `state`: K_A ψ, or a set equal
    /// to it on κ.
    fn said(
        &mut self,
        agent: CharId,
        psi: Self::Set,
        state: &Self::State,
    ) -> Result<Said<Self::Set>, Failure>;

    fn not(&mut self, set: &Self::Set) -> Self::Set;

    /// The intersection of `first` and the sets of `rest`.
    fn and(&mut self, first: Self::Set, rest: Vec<Self::Set>) -> Self::Set;

    /// The first two worlds (canonical order) of the constants' types where the
    /// knowledge-free `phi` holds: when `actual φ` allows one, it is the actual world if
    /// possible; when several, the worlds still possible decide. None: the backend
    /// cannot list them, and the driver asks another ([`super::Standby`]).
    fn pin(&mut self, phi: &Expr, state: &Self::State) -> Result<Option<Vec<World>>, Failure>;

    /// A world in the backend's own form.
    fn point(&mut self, world: &[Value]) -> Result<Self::Point, Failure>;

    /// The world of κ in `state` with these values (None: none), when several of the
    /// backend's worlds may have the same values (a plan's search runs the same steps on
    /// other states): by default [`Semantics::point`].
    fn point_in(
        &mut self,
        _state: &Self::State,
        world: &[Value],
    ) -> Result<Option<Self::Point>, Failure> {
        self.point(world).map(Some)
    }

    /// Whether `set` holds at `point`.
    fn holds(&mut self, set: &Self::Set, point: &Self::Point) -> Result<bool, Failure>;

    /// Whether `e` holds at `point` (a statement about the actual world: `check actual`,
    /// `until`, `show`), its knowledge operators evaluated in `state` (as
    /// [`Semantics::formula`]): by default the set `e` denotes, tested at the point. A
    /// backend may instead take the connectives by their operands' truth values there,
    /// without building their sets (BDDs: an `until` asks about one world only); one
    /// that computes probabilities asks them at the point alone (a probability undefined
    /// in another world is no error here).
    fn formula_holds(
        &mut self,
        e: &Expr,
        state: &Self::State,
        saved: &[Option<Self::State>],
        point: &Self::Point,
    ) -> Result<bool, Failure> {
        let set = self.formula(e, state, saved)?;
        self.holds(&set, point)
    }

    /// Whether `point` is a world of κ in `state`.
    fn contains(&mut self, state: &Self::State, point: &Self::Point) -> Result<bool, Failure>;
}
