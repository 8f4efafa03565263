//! The front of the pipeline in one call: a story's text parsed ([`epipen_syntax`]),
//! its `--set`s checked against its `const`s, and lowered to an [`ir::Program`].

use epipen_ir as ir;
use epipen_syntax::{Diagnostic, Span};

use crate::{const_names, lower};

/// Why a story did not compile.
#[derive(Debug, Clone, PartialEq)]
pub enum CompileError {
    /// Every error found in the story.
    Story(Vec<Diagnostic>),
    /// `--set name=…` where the story has no `const name`.
    UnknownSet {
        name: String,
        /// The story's consts, in order.
        consts: Vec<String>,
    },
    /// The deadline passed while unrolling the loop or aggregate whose range is at
    /// `span` ([`TIMEOUT_MESSAGE`](crate::TIMEOUT_MESSAGE)).
    Timeout { span: Span },
}

/// Parses and lowers a story, returning every error found. `sets` override the values of
/// the story's `const`s (`--set n=8`); each must name one. `sample(k, {…})` draws with
/// seed 0 (see [`compile_seeded`]).
pub fn compile(source: &str, sets: &[(String, i64)]) -> Result<ir::Program, CompileError> {
    compile_seeded(source, sets, 0)
}

/// [`compile`], with `sample(k, {…})` drawing from `seed` (`--seed`).
pub fn compile_seeded(
    source: &str,
    sets: &[(String, i64)],
    seed: u64,
) -> Result<ir::Program, CompileError> {
    compile_until(source, sets, seed, None)
}

/// [`compile_seeded`], giving up with [`CompileError::Timeout`] when `deadline` passes
/// while loops and aggregates are unrolled.
pub fn compile_until(
    source: &str,
    sets: &[(String, i64)],
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Result<ir::Program, CompileError> {
    let story = parse_with_sets(source, sets.iter().map(|(name, _)| name.as_str()))?;
    compile_parsed(&story, sets, seed, deadline)
}

/// [`compile_until`] on a story already parsed by [`parse_with_sets`] with the names of
/// `sets`: what a sweep does once per run, having parsed the story once.
pub fn compile_parsed(
    story: &epipen_syntax::ast::Story,
    sets: &[(String, i64)],
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Result<ir::Program, CompileError> {
    lower(story, sets, seed, deadline)
}

/// Parses a story and checks that each of `names` (of `--set`s) names one of its
/// `const`s: what compiling checks before any value is used.
pub fn parse_with_sets<'a>(
    source: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<epipen_syntax::ast::Story, CompileError> {
    let story = epipen_syntax::parse(source).map_err(CompileError::Story)?;
    let consts = const_names(&story);
    if let Some(name) = names
        .into_iter()
        .find(|name| !consts.iter().any(|c| c == name))
    {
        return Err(CompileError::UnknownSet {
            name: name.to_string(),
            consts,
        });
    }
    Ok(story)
}
