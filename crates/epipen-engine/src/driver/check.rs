//! `check φ` and `check actual φ`: φ must hold in every world of κ, or in the actual
//! world; a failing one names a world where φ is false and, when φ compares
//! probabilities, the value each compared term has there.

use super::{Backend, Driver, Origin};
use crate::ir::{Expr, Rat};
use crate::syntax::Span;
use crate::worlds::World;
use crate::{At, EngineError, Failure, Found, Report};

impl<B: Backend> Driver<B> {
    /// `check φ`: φ must hold in every world of κ.
    pub(super) fn check(
        &mut self,
        span: Span,
        phi: &Expr,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        let state = self.state.clone();
        let set = self.formula(phi, &state).at(span)?;
        // The first world, in the canonical order, of κ where φ is false.
        let not = self.backend.not(&set);
        let failing = (self.backend)
            .restrict(&state, not, Origin::Written)
            .at(span)?;
        let found = self.worlds_of(&failing, 1).at(span)?;
        match found.worlds.first() {
            None if found.complete => match self.find_emptied().at(span)? {
                Some(left_none) => sink(Report::Vacuous { span, left_none }),
                None => sink(Report::CheckHolds { span }),
            },
            None => {
                return Err(Failure::internal(
                    "the solver listed no world and did not say there is none",
                ))
                .at(span);
            }
            Some(world) => {
                let values = match self.backend.point_in(&state, &world.0) {
                    Ok(Some(point)) => self.found(phi, &state, &point),
                    _ => Vec::new(),
                };
                let world = self.shown(world).at(span)?;
                self.failed(span, world, values, sink)?;
            }
        }
        Ok(())
    }

    /// `check actual φ`: φ must hold in the actual world.
    pub(super) fn check_actual(
        &mut self,
        span: Span,
        phi: &Expr,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        // Never vacuous: the actual world is possible (announcements hold there, and the
        // events' cases that happened there), and without one this is an error.
        let state = self.state.clone();
        if self.actual_holds(phi, &state, "`check actual`").at(span)? {
            sink(Report::CheckHolds { span });
            return Ok(());
        }
        let (actual, values) = match self.actual.clone() {
            Some((world, point)) => (World(world), self.found(phi, &state, &point)),
            None => (World(Vec::new()), Vec::new()),
        };
        let world = self.shown(&actual).at(span)?;
        self.failed(span, world, values, sink)
    }

    /// A check failed in `world`: reported, or the run stops.
    fn failed(
        &mut self,
        span: Span,
        world: World,
        found: Vec<Found>,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        if self.options.keep_refuted_hints {
            sink(Report::CheckFailed { span, world, found });
            Ok(())
        } else {
            Err(Failure::CheckFailed(world, found)).at(span)
        }
    }

    /// The value at `point` of each term compared with probabilities in φ, outside
    /// knowledge operators (those are evaluated at other worlds or states): the sides
    /// of its comparisons that hold a probability, in the order written. A value that
    /// cannot be computed is left out (the verdict stands without it).
    fn found(&mut self, phi: &Expr, state: &B::State, point: &B::Point) -> Vec<Found> {
        let sides = phi.compared_probabilities();
        let now: Vec<Rat> = sides.iter().map(|side| self.now_rat(side)).collect();
        let mut out = Vec::new();
        for (side, r) in sides.into_iter().zip(&now) {
            let value = (self.backend.probabilities())
                .and_then(|p| p.amounts(r, state, &self.checkpoints, Some(point)).ok())
                .and_then(|mut v| (!v.is_empty()).then(|| v.swap_remove(0).0));
            if let Some(value) = value {
                out.push(Found {
                    span: side.span,
                    text: self.program.show_rat(side, None),
                    value,
                });
            }
        }
        out
    }
}
