//! Random stories for epipen's tests, and the comparison of the engines with the
//! reference evaluator ([`epipen_bruteforce`]). docs/testing.md says what is generated.
//!
//! - [`story`]: the story AST and its proptest strategies (every reference an index
//!   the printer resolves, so every story generated or shrunk is valid);
//! - [`print`](mod@print): the AST as story text, with its `--set`s and the box of values the
//!   evaluator enumerates;
//! - [`transcript`]: a run on an engine or on the evaluator as comparable text;
//! - [`diff`]: one story on every backend that takes it and on the evaluator;
//! - [`told`]: one story run as a file and told to the Rust API in parts, on every
//!   backend;
//! - [`mutate`]: inputs for the parser and CLI fuzzers (bytes, token soup, the stories
//!   of `stories/` mutated);
//! - [`mastar`]: mA* files mutated, for the mA* reader's fuzzer;
//! - [`runner`]: proptest as every fuzz test runs it;
//! - [`smcdel`] and [`structure`]: random files in SMCDEL's format, and their meaning
//!   from the definitions of knowledge structures.
//!
//! The tests are `tests/fuzz.rs` (the differential and parser fuzzers, and each finding
//! as a named test) and `tests/agreement.rs` (families of finite stories on every
//! backend); epipen-cli's tests fuzz the executable with [`mutate`]'s inputs.

pub mod diff;
pub mod mastar;
pub mod mutate;
pub mod print;
pub mod runner;
pub mod smcdel;
pub mod story;
pub mod structure;
pub mod told;
pub mod transcript;

use std::path::{Path, PathBuf};

/// With `FUZZ_DUMP=path`, writes `text` there: the story about to run, for a run that
/// does not end with a report (a stack overflow aborts the process).
pub fn dump(text: &str) {
    if let Some(path) = std::env::var_os("FUZZ_DUMP") {
        let _ = std::fs::write(path, text);
    }
}

/// The workspace's root, where `stories/` is.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
