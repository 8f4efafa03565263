//! `epipen run --trace`: the trace's steps and the run's reports, as text or as JSON
//! lines (the views, serialised).

use epipen::engine::Options;
use epipen::explore::trace::Tracer;
use epipen::session::Traced;

use crate::output::{out, outln};
use crate::story::{Failure, Story, print_report};

impl Story {
    /// `epipen run --trace`: the run's own output, and after each statement the worlds
    /// possible; at the end, which statement eliminated each world.
    pub(crate) fn trace(&self, options: &Options, limit: usize, json: bool) -> Result<(), Failure> {
        let mut terminal = self.terminal(options);
        let mut failed = false;
        let (_, fates) = self.trace_run(
            options,
            &mut terminal,
            Tracer::new(limit),
            &mut |item| match item {
                Traced::Step(step) if json => outln!("{}", json_line(&step)),
                Traced::Step(step) => out!("{}", epipen::text::step(&step)),
                Traced::Report(report) => {
                    failed |= report.fails_run();
                    match (report.printed_by_run(), json) {
                        (false, _) => {}
                        (true, true) => outln!("{}", json_line(&report)),
                        (true, false) => {
                            print_report(&report);
                        }
                    }
                }
            },
        )?;
        if let Some(fates) = fates {
            let fates = self.fates(&fates);
            if json {
                outln!("{}", json_line(&fates));
            } else {
                out!(
                    "{}",
                    epipen::text::fates_listed(&fates, "--json lists them")
                );
            }
        }
        if failed {
            // As `epipen run`: a vacuous check proves nothing, a plan may find none.
            return Err(Failure::Quiet(1));
        }
        Ok(())
    }
}

/// A view as one line of JSON.
fn json_line(view: &impl serde::Serialize) -> String {
    serde_json::to_string(view).expect("views serialise")
}
