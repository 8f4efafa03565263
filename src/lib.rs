//! epipen: solve epistemic logic puzzles with the Z3 SMT solver.
//!
//! A story flows through the stages once: [`syntax`] (lexer, parser, diagnostics) →
//! [`lower`] (names resolved, types checked, giving an [`ir::Program`]) → [`engine`]
//! (knowledge state, K/KV encodings, quantifier elimination; the only place that talks
//! to Z3, and the home of the BDD backend that runs stories of bools and enums) →
//! [`worlds`] (the possible worlds). [`explore`] builds traces, model graphs and
//! sweeps on the engine; [`cli`] prints, and [`serve`] is the web playground.
//! [`bruteforce`] is an independent
//! explicit-state evaluator used to cross-check the engine on finite stories.
//!
//! # Rust API
//!
//! Besides story files, a Rust program can tell a puzzle with [`Story`] ([`story`]):
//! declare characters and constants, then run statements one by one against a live
//! engine, with typed expressions ([`Int`], [`Formula`], [`Enum`]) and typed errors
//! ([`Error`]).
//!
//! ```
//! use epipen::{Formula as F, Story};
//! # fn main() -> Result<(), epipen::Error> {
//! let mut story = Story::new();
//! let anne = story.character("Anne");
//! let x = story.int("x");
//! story.announce(x.ge(1) & x.le(3))?;
//! story.learns(anne, &x % 2)?; // Anne learns whether x is odd
//! story.says(anne, F::knows_value(anne, &x))?; // "I know x": x is even, so 2
//! let worlds = story.worlds(10)?;
//! assert_eq!(worlds.len(), 1);
//! assert_eq!(worlds[0].int(&x), Some(2));
//! # Ok(())
//! # }
//! ```

pub mod bdd_order;
pub mod bench;
pub mod bruteforce;
pub mod cli;
pub mod engine;
pub mod explore;
pub mod ir;
pub mod lower;
pub mod serve;
pub mod story;
pub mod syntax;
pub mod worlds;

pub use engine::Options;
pub use story::{
    Block, Character, Checkpoint, Enum, EnumType, Error, Formula, Hint, Int, PossibleWorld,
    Refutation, Simultaneous, Story, Worlds,
};
pub use syntax::{Diagnostic, Span};

/// The README's Rust example is compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

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
    /// `span` ([`lower::TIMEOUT_MESSAGE`]).
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
    story: &syntax::ast::Story,
    sets: &[(String, i64)],
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Result<ir::Program, CompileError> {
    lower::lower(story, sets, seed, deadline)
}

/// Parses a story and checks that each of `names` (of `--set`s) names one of its
/// `const`s: what compiling checks before any value is used.
pub fn parse_with_sets<'a>(
    source: &str,
    names: impl IntoIterator<Item = &'a str>,
) -> Result<syntax::ast::Story, CompileError> {
    let story = syntax::parse(source).map_err(CompileError::Story)?;
    let consts = lower::const_names(&story);
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

/// The version of the Z3 library loaded at run time, e.g. "5.4.0.0".
pub fn z3_version() -> String {
    engine::solver::z3_version()
}
