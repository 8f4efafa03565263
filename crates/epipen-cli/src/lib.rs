//! The `epipen` command: the only place that prints results and picks exit codes
//! (0 success; 1 a solver failure, a failing check, a refuted hint or a plan that finds
//! none; 2 a usage or story error), over the epipen library.
//!
//! - [`args`]: the command line (clap);
//! - `commands.rs`: each command run, its output printed;
//! - `story.rs`: a story file read, compiled and run with progress and `--stats`;
//! - `trace.rs` (`run --trace`), `graph.rs` (`graph`, `worlds --dot`), `sweep.rs`
//!   (`sweep`): the explorer's output;
//! - `repl.rs`: `epipen repl`, a story told a statement at a time;
//! - [`serve`]: the web playground (`epipen serve`);
//! - [`bench`](mod@bench): `epipen bench`, stories timed as child processes;
//! - `watchdog.rs`: `--timeout` kept when a single solver call runs long;
//!   `output.rs`: stdout and stderr that fail cleanly.

pub mod args;
pub mod bench;
mod commands;
mod graph;
pub(crate) mod output;
mod repl;
pub mod serve;
mod story;
mod sweep;
mod trace;
mod watchdog;

pub use commands::{main, main_with_args};
