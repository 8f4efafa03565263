//! What can go wrong while the engine asks Z3 questions.

use crate::syntax::Span;

/// A question Z3 could not answer. Never to be read as "no worlds".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolverError {
    /// The run's `--timeout` ran out.
    Timeout,
    /// Z3 hit a resource or memory limit.
    ResourceLimit(String),
    /// Z3 answered `unknown`, with its reason.
    Unknown(String),
    /// A formula the engine cannot decide (e.g. non-linear arithmetic over infinitely
    /// many worlds, where quantifier elimination leaves quantifiers behind).
    Unsupported(String),
}

impl std::fmt::Display for SolverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolverError::Timeout => write!(f, "the solver ran out of time (timeout)"),
            SolverError::ResourceLimit(r) => write!(f, "the solver hit a resource limit ({r})"),
            SolverError::Unknown(r) => write!(f, "the solver answered unknown ({r})"),
            SolverError::Unsupported(m) => write!(f, "{m}"),
        }
    }
}

/// A solver failure at a statement of the story.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineError {
    pub span: Span,
    pub error: SolverError,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for EngineError {}
