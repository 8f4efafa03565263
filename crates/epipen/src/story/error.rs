//! Why a statement of a [`Story`](super::Story) failed.

use std::fmt;

use crate::engine::{Counterexample, Failure};
use crate::syntax::{Diagnostic, Span};

/// Why a statement of a [`Story`](crate::story::Story) failed. A failed statement has no effect.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A mistake caught before running: a handle of another story, values of two
    /// different enums compared, an unknown enum variant, a name already declared, a
    /// knowledge operator in [`Story::actual`](crate::story::Story::actual) or in a change, a checkpoint used
    /// by [`Formula::at`](crate::story::Formula::at) before it was saved, a mistake in an
    /// [`EventBlock`](crate::story::EventBlock) (an unknown case, a case missing from a
    /// `sees` line, …): lowering's diagnostics, as it words a story file's mistakes (a
    /// builder's statement is written nowhere: their spans are empty).
    Invalid(Vec<Diagnostic>),
    /// The story is wrong in a way only running it shows: an `actual` formula that
    /// allows several worlds, an announcement false in the actual world, `reveals`
    /// without an actual world, …
    Story {
        /// What is wrong.
        message: String,
        /// How to fix it, when known.
        hints: Vec<String>,
    },
    /// An [`Story::assert_adds_ck`](crate::story::Story::assert_adds_ck) hint is wrong.
    Refuted(Refutation),
    /// A backend could not answer (timeout, resource limit, `unknown`, or a formula
    /// outside what the engine can decide): one of the engine's six solver failures, the
    /// ones with a [`solver_detail`](crate::engine::Failure::solver_detail). Never to be
    /// read as "no worlds".
    Solver(Failure),
}

/// A world on which an [`Story::assert_adds_ck`](crate::story::Story::assert_adds_ck) hint and its block disagree.
#[derive(Debug, Clone, PartialEq)]
pub struct Refutation {
    /// The world, and which side keeps it.
    pub counterexample: Counterexample,
    /// The world as text, e.g. `A = 0, B = 1 (the hint allows this world but the block
    /// rules it out)`.
    pub description: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(diagnostics) => {
                for (k, d) in diagnostics.iter().enumerate() {
                    let sep = if k == 0 { "" } else { "; " };
                    match d.hints.is_empty() {
                        true => write!(f, "{sep}{}", d.message)?,
                        false => write!(f, "{sep}{} ({})", d.message, d.hints.join("; "))?,
                    }
                }
                Ok(())
            }
            Error::Story { message, hints } => {
                write!(f, "{message}")?;
                for h in hints {
                    write!(f, "; hint: {h}")?;
                }
                Ok(())
            }
            Error::Refuted(r) => write!(f, "the hint is wrong: {}", r.description),
            Error::Solver(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// A mistake the builder finds itself, worded as lowering words one.
    pub(crate) fn invalid(message: impl Into<String>) -> Error {
        Error::Invalid(vec![Diagnostic::error(Span::default(), message)])
    }
}

/// A backend's failure outside a statement (no refuted hint or failing check there).
impl From<Failure> for Error {
    fn from(e: Failure) -> Error {
        match e {
            Failure::Story { message, hints, .. } => Error::Story { message, hints },
            e => Error::Solver(e),
        }
    }
}
