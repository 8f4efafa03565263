//! Actions: `do` (declared actions executed as events) and `plan` (a breadth-first
//! search for a shortest sequence of executable actions after which a goal holds).

use super::{Backend, Driver};
use crate::ir::{DoStep, PlanStmt};
use crate::syntax::Span;
use crate::{At, EngineError, Failure, Report};

impl<B: Backend> Driver<B> {
    /// `do a, b: CASE, …`: each action in turn, as an `event` statement.
    pub(super) fn do_actions(
        &mut self,
        steps: &[DoStep],
        _sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        let span = steps.first().map(|s| s.span).unwrap_or_default();
        Err(Failure::internal("`do` is not built yet")).at(span)
    }

    /// `plan …`: a question; κ does not change.
    pub(super) fn plan(
        &mut self,
        span: Span,
        _plan: &PlanStmt,
        _sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        Err(Failure::internal("`plan` is not built yet")).at(span)
    }
}
