//! The EpiPEn engine: knowledge state, K/KV encodings, quantifier elimination.

pub mod solver;

use crate::ir::Program;
use crate::worlds::WorldSet;

/// Runs the whole program and returns up to `limit` of the worlds possible at its end.
pub fn solve(_program: &Program, _limit: u64) -> Result<WorldSet, String> {
    todo!("engine")
}
