//! A backend that refused the story (or ran out of time being made): the driver's
//! stand-in, which answers every question with why.

use super::Run;
use crate::ir::{CheckpointId, Stmt};
use crate::syntax::Span;
use crate::worlds::{Model, World, WorldCount, WorldSet};
use crate::{EngineError, Failure, Report};

/// A backend that refused the story: every question is answered with why.
pub(crate) struct Refused {
    pub why: String,
    /// Where `run` reports it: the program's first statement.
    pub first: Span,
    /// The run stopped while the backend was being made (its time ran out, or it was
    /// cancelled): every question is answered with that failure (exit 1), not with a
    /// refusal of the story (exit 2).
    pub stopped: Option<Failure>,
    /// The backend was pinned by the story (`#! backend bdd`), not by the options.
    pub pinned: Option<&'static str>,
    /// What to do instead, when the refusal knows better than "pick another backend".
    pub hint: Option<String>,
}

impl Refused {
    fn error(&self, span: Span) -> EngineError {
        EngineError {
            span,
            error: self.failure(),
        }
    }

    fn failure(&self) -> Failure {
        if let Some(stopped) = &self.stopped {
            stopped.clone()
        } else if let Some(hint) = &self.hint {
            Failure::Story {
                message: self.why.clone(),
                hints: vec![hint.clone()],
                at: None,
            }
        } else {
            Failure::refused(&self.why, self.pinned)
        }
    }
}

impl Run for Refused {
    fn run(&mut self, _: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        Err(self.error(self.first))
    }

    fn step(&mut self, stmt: &Stmt, _: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        Err(self.error(stmt.span))
    }

    fn step_round(
        &mut self,
        stmt: &Stmt,
        _: u64,
        _: &mut dyn FnMut(Report),
    ) -> Result<bool, EngineError> {
        Err(self.error(stmt.span))
    }

    fn worlds(&mut self, _: u64) -> Result<WorldSet, Failure> {
        Err(if let Some(stopped) = &self.stopped {
            stopped.clone()
        } else {
            Failure::Unsupported(self.why.clone())
        })
    }

    fn kappa_size(&self) -> usize {
        0
    }

    fn count_worlds(&mut self, _: Option<CheckpointId>, _: usize) -> Result<WorldCount, Failure> {
        Err(self.failure())
    }

    fn model(&mut self, _: Option<CheckpointId>, _: usize) -> Result<Option<Model>, Failure> {
        Err(self.failure())
    }

    fn backend(&self) -> &'static str {
        "none"
    }

    fn follow_plan(
        &mut self,
        _: &[crate::ir::ActionId],
        _: usize,
    ) -> Result<Vec<super::Followed>, EngineError> {
        Err(self.error(self.first))
    }

    fn actual(&self) -> Option<World> {
        None
    }

    fn left_none(&mut self) -> Result<Option<Span>, Failure> {
        Ok(None)
    }
}
