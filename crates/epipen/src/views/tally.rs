//! How a run's verdicts came out, counted: `epipen check`'s last line and its JSON.

use serde::Serialize;

use super::report::{Report, VerdictKind};

/// The verdicts and plan answers of a run, counted by outcome (serialised as
/// `{"checks_hold": 2, "checks_fail": 1, …}`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// `check` and `check actual` statements that hold.
    pub checks_hold: usize,
    /// … that fail.
    pub checks_fail: usize,
    /// `assert_adds_ck` hints verified.
    pub hints_verified: usize,
    /// … refuted.
    pub hints_refuted: usize,
    /// … taken on trust (`--trust-hints`).
    pub hints_trusted: usize,
    /// Checks and hints that hold only because no world is left: they prove nothing.
    pub vacuous: usize,
    /// `plan` statements that found a plan.
    pub plans_found: usize,
    /// … that found none.
    pub plans_not_found: usize,
}

impl Tally {
    /// The tally of `reports`.
    pub fn of<'a>(reports: impl IntoIterator<Item = &'a Report>) -> Tally {
        let mut tally = Tally::default();
        for report in reports {
            tally.add(report);
        }
        tally
    }

    /// Counts `report` (nothing when it is no verdict and no plan).
    pub fn add(&mut self, report: &Report) {
        if let Some(plan) = report.plan() {
            match plan.solvable {
                true => self.plans_found += 1,
                false => self.plans_not_found += 1,
            }
        }
        let Some(v) = report.verdict() else {
            return;
        };
        let count = match (v.kind, v.vacuous, v.trusted, v.holds) {
            (_, true, _, _) => &mut self.vacuous,
            (VerdictKind::Hint, _, true, _) => &mut self.hints_trusted,
            (VerdictKind::Hint, _, _, Some(false)) => &mut self.hints_refuted,
            (VerdictKind::Hint, _, _, _) => &mut self.hints_verified,
            (_, _, _, Some(false)) => &mut self.checks_fail,
            _ => &mut self.checks_hold,
        };
        *count += 1;
    }

    /// Whether the run exits with 1 because of them: a check fails, a hint is refuted,
    /// a verdict is vacuous or a plan found none.
    pub fn failed(&self) -> bool {
        self.checks_fail + self.hints_refuted + self.vacuous + self.plans_not_found > 0
    }
}
