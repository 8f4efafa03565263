//! `repeat max N { … } until φ`, whole or round by round (`epipen run --trace` shows a
//! step per round).

use super::{Backend, Driver};
use crate::ir::{Expr, Stmt};
use crate::syntax::Span;
use crate::{At, EngineError, Failure, Report};

impl<B: Backend> Driver<B> {
    /// `repeat max N { … } until φ`: runs the body until φ holds in the actual world.
    pub(super) fn repeat(
        &mut self,
        span: Span,
        max: u64,
        body: &[Stmt],
        until: &Expr,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        let mut round = 1;
        while !self.repeat_round(span, max, body, until, round, sink)? {
            round += 1;
        }
        Ok(())
    }

    /// Round `round` (from 1) of `repeat max N { … } until φ`: the body, then φ in the
    /// actual world. True when the `repeat` stopped after it (reported to `sink`); a
    /// failure when `round` is past the last.
    pub(super) fn repeat_round(
        &mut self,
        span: Span,
        max: u64,
        body: &[Stmt],
        until: &Expr,
        round: u64,
        sink: &mut dyn FnMut(Report),
    ) -> Result<bool, EngineError> {
        if round > max {
            return Err(Failure::repeat_exhausted(max)).at(span);
        }
        let outer = self.round;
        self.round = Some(round);
        self.block(body, sink)?;
        if self.actual.is_none() {
            return Err(Failure::no_actual_world("`until`")).at(span);
        }
        let state = self.state.clone();
        let done = self.actual_holds(until, &state, "`until`").at(span)?;
        self.round = outer;
        if done {
            sink(Report::RepeatDone {
                span,
                rounds: round,
            });
        }
        Ok(done)
    }
}
