//! Which statement left no world: the driver keeps the states of the statements run
//! since κ was last known to have a world, and finds the first without one when a check,
//! a hint or an empty list of worlds asks (κ never regains a world once it has none).

use super::{Backend, Driver};
use crate::Failure;
use crate::syntax::Span;

/// The most states the driver keeps to find the statement that left no world.
const TRAIL_CAP: usize = 64;

impl<B: Backend> Driver<B> {
    /// Keeps track of the statement at `span`, just finished, in case it left no world.
    /// The trail is searched once it holds [`TRAIL_CAP`] states (a solver call), so that
    /// it keeps few states alive.
    pub(super) fn note_emptied(&mut self, span: Span) -> Result<(), Failure> {
        if self.emptied.is_some() {
            return Ok(());
        }
        match self.backend.known_empty(&self.state) {
            // The first statement without a world may be an earlier one of the trail
            // (whose emptiness the backend did not know without a solver call).
            Some(true) if !self.trail.is_empty() => {
                self.trail.push((span, self.state.clone()));
                self.find_emptied()?;
            }
            Some(true) => self.emptied = Some(span),
            Some(false) => self.trail.clear(),
            None => {
                self.trail.push((span, self.state.clone()));
                if self.trail.len() >= TRAIL_CAP {
                    self.find_emptied()?;
                }
            }
        }
        Ok(())
    }

    /// The first statement after which κ had no world (None: κ has a world now): the
    /// first state of the trail without one, found by bisection.
    pub(super) fn find_emptied(&mut self) -> Result<Option<Span>, Failure> {
        if self.emptied.is_some() {
            return Ok(self.emptied);
        }
        let Some((_, last)) = self.trail.last().cloned() else {
            return Ok(None);
        };
        if !self.is_empty_of(&last)? {
            self.trail.clear();
            return Ok(None);
        }
        // trail[hi] has no world; every state before trail[lo] has one.
        let (mut lo, mut hi) = (0, self.trail.len() - 1);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let state = self.trail[mid].1.clone();
            if self.is_empty_of(&state)? {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        self.emptied = Some(self.trail[hi].0);
        self.trail.clear();
        Ok(self.emptied)
    }
}
