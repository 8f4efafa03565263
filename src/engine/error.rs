//! What can go wrong while the engine asks Z3 questions.

use super::Counterexample;
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

/// Why a statement failed.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// Z3 could not answer (exit code 1).
    Solver(SolverError),
    /// The story is wrong in a way only running it shows, e.g. an `actual` that allows
    /// two worlds (exit code 2).
    Story { message: String, hints: Vec<String> },
    /// An `assert_adds_ck` hint is wrong (exit code 1).
    Refuted(Counterexample),
}

impl From<SolverError> for Failure {
    fn from(e: SolverError) -> Failure {
        Failure::Solver(e)
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Solver(e) => write!(f, "solver failure: {e}"),
            Failure::Story { message, .. } => write!(f, "{message}"),
            Failure::Refuted(_) => write!(f, "the hint is wrong"),
        }
    }
}

/// A failure at a statement of the story.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineError {
    pub span: Span,
    pub error: Failure,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for EngineError {}
