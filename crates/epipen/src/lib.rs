//! epipen: solve epistemic logic puzzles, on the Z3 SMT solver, on BDDs or over explicit
//! worlds.
//!
//! A story flows through the stages once, each a crate of the workspace:
//! [`syntax`] (epipen-syntax: lexer, parser, diagnostics) → [`lower`] (epipen-lower:
//! names resolved, types checked, loops unrolled, giving an [`ir::Program`], the
//! epipen-ir crate) → [`engine`] (one statement driver over three backends: Z3, the only
//! place that talks to it, BDDs for stories of bools, enums and bounded ints, and
//! explicit worlds for finite ones) → [`worlds`] (the possible worlds). [`story`] is the
//! Rust API that tells a puzzle statement by statement, [`explore`] builds traces, model
//! graphs and sweeps on the engine, [`smcdel`] and [`mastar`] read SMCDEL's and mA*'s
//! files as stories. [`Session`] is a story file compiled and run as every front end (the
//! `epipen` command of epipen-cli, the playground, the Python package) runs it: it gives
//! [`views`] (results as data) and [`Failure`]s (diagnostics as data), and [`text`] is
//! the one renderer of both.
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

pub mod explore;
pub mod failure;
pub mod mastar;
pub mod session;
pub mod smcdel;
pub mod story;
pub mod text;
pub mod views;

pub use epipen_engine as engine;
pub use epipen_engine::worlds;
pub use epipen_ir as ir;
pub use epipen_lower as lower;
pub use epipen_syntax as syntax;

pub use engine::Options;
pub use failure::{About, Failure, FailureKind, Wording};
pub use lower::{
    CompileError, compile, compile_parsed, compile_seeded, compile_until, parse_with_sets,
};
pub use session::Session;
pub use story::{
    Action, Block, Case, Chance, Change, Character, Checkpoint, Enum, EnumType, Error, Event,
    EventBlock, Formula, Handle, Happened, Hint, Int, PlanOptions, Planned, PossibleWorld,
    Refutation, Simultaneous, Story, Worlds,
};
pub use syntax::{Diagnostic, Span};

/// The README's Rust example is compiled and run as a doctest.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The version of the Z3 library loaded at run time, e.g. "5.4.0.0".
pub fn z3_version() -> String {
    engine::z3_version()
}

/// Where the Z3 library linked at build time came from: `system`, the `pinned z3-solver
/// wheel`, or `EPIPEN_Z3_DIR` (docs/z3.md).
pub fn z3_source() -> &'static str {
    engine::z3_source()
}
