//! [`Listing`]: a knowledge state's worlds, their number and their model.

use super::Semantics;
use crate::Failure;
use crate::worlds::{Model, WorldCount, WorldSet};

/// What a model gives as each character's view of a world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Views {
    /// What the character observed, item by item (what `graph` and the playground draw).
    Observed,
    /// Anything equal exactly where the observations are: a plan's search compares
    /// views for equality only, so a backend that groups the worlds by each character's
    /// view may give the number of its group; and it reads the model up to bisimulation,
    /// so the worlds may come in any order.
    Grouped,
}

/// κ's worlds listed, counted and drawn, and its size.
pub(crate) trait Listing: Semantics {
    /// What [`Listing::size`] counts, e.g. "nodes".
    const SIZE_UNIT: &'static str = "nodes";
    /// The most worlds a plan's search lists of a state to recognise it by its model
    /// (up to bisimulation); a larger one is recognised as
    /// [`super::Recognition::fixed`] makes it.
    const LISTING_CAP: usize = 1 << 14;

    /// κ's size in the backend's own unit (DAG nodes, BDD nodes, worlds), for `--stats`.
    fn size(&self, state: &Self::State) -> usize;

    /// Up to `limit` of κ's worlds in canonical order.
    fn worlds(&mut self, state: &Self::State, limit: usize) -> Result<WorldSet, Failure>;

    /// How many worlds κ has (see [`crate::Engine::count_worlds`]).
    fn count(&mut self, state: &Self::State, cap: usize) -> Result<WorldCount, Failure>;

    /// The epistemic model of κ when it has at most `cap` worlds, each character's view
    /// given as `views` asks.
    fn model(
        &mut self,
        state: &Self::State,
        cap: usize,
        views: Views,
    ) -> Result<Option<Model>, Failure>;

    /// Whether κ has no world, when the backend knows without a solver call (BDDs and
    /// listed worlds do); None when finding out costs one.
    fn known_empty(&self, _state: &Self::State) -> Option<bool> {
        None
    }

    /// Whether κ has no world in `state`: [`Listing::known_empty`], else a solver call
    /// (by default, listing its first world).
    fn is_empty(&mut self, state: &Self::State) -> Result<bool, Failure> {
        if let Some(known) = self.known_empty(state) {
            return Ok(known);
        }
        let found = self.worlds(state, 1)?;
        Ok(found.worlds.is_empty() && found.complete)
    }
}
