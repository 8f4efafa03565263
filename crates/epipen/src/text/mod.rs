//! The one text renderer: views and failures as the command line prints them. The
//! command line prints these strings, the playground shows them, and Python's `str()`
//! of a result is one of them, so the three never drift apart.

mod json;
mod report;
mod smcdel;
mod trace;
mod worlds;

pub use json::{json, step_with_text, with_text};
pub use report::{plan, plan_found, report, tally, verdict};
pub use smcdel::smcdel;
pub use trace::{FATES_SHOWN, belief, fates, fates_listed, step};
pub use worlds::{
    failing_world, no_worlds, vacuous_reason, where_worlds, world, world_set, world_since, worlds,
};

use crate::failure::Failure;

/// A failure: each diagnostic (`file:line:column: error: …`, the line with carets
/// under the place, notes and hints), then its summary line.
pub fn failure(failure: &Failure) -> String {
    let mut out: String = failure.diagnostics.iter().map(|d| d.render()).collect();
    if let Some(summary) = &failure.summary {
        out.push_str(&format!("error: {summary}\n"));
    }
    out
}

/// As the command line prints it ([`failure`]), so that `?` takes a failure into a
/// `Box<dyn Error>`.
impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(failure(self).trim_end())
    }
}

impl std::error::Error for Failure {}
