//! epipen: solve epistemic logic puzzles with the Z3 SMT solver.
//!
//! A story flows through the stages once: [`syntax`] (lexer, parser, diagnostics) →
//! [`lower`] (names resolved, types checked, giving an [`ir::Program`]) → [`engine`]
//! (knowledge state, K/KV encodings, quantifier elimination; the only place that talks
//! to Z3) → [`worlds`] (the possible worlds). [`bruteforce`] is an independent
//! explicit-state evaluator used to cross-check the engine on finite stories.

pub mod bruteforce;
pub mod cli;
pub mod engine;
pub mod ir;
pub mod lower;
pub mod syntax;
pub mod worlds;

pub use syntax::{Diagnostic, Span};

/// Parses and lowers a story, returning every error found.
pub fn compile(source: &str) -> Result<ir::Program, Vec<Diagnostic>> {
    let story = syntax::parse(source)?;
    lower::lower(&story)
}

/// The version of the Z3 library loaded at run time, e.g. "5.4.0.0".
pub fn z3_version() -> String {
    engine::solver::z3_version()
}
