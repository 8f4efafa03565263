//! The answers to an SMCDEL file's jobs (`epipen smcdel FILE`), in the file's order.

use serde::Serialize;

/// Every job's answer (`--json` prints `{"jobs": [...]}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Smcdel {
    pub jobs: Vec<SmcdelJob>,
}

/// Which question a job asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SmcdelKind {
    /// `TRUE? {…} φ`: does φ hold at the state?
    True,
    /// `VALID? φ`: does φ hold at every state of the LAW?
    Valid,
    /// `WHERE? φ`: at which states of the LAW does φ hold?
    Where,
}

/// A job and its answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SmcdelJob {
    pub kind: SmcdelKind,
    /// The line of the job's keyword in the file.
    pub line: usize,
    pub answer: SmcdelAnswer,
    /// The formula as the file writes it (comments left out, whitespace runs as one
    /// space).
    #[serde(skip)]
    pub formula: String,
    /// `TRUE?`'s state as the file writes it.
    #[serde(skip)]
    pub state: Vec<u64>,
}

/// `true`/`false`, or the states (each its true atoms, sorted) where the formula holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum SmcdelAnswer {
    Holds(bool),
    States(Vec<Vec<u64>>),
}
