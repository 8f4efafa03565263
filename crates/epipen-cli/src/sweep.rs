//! `epipen sweep`: the table, the distributions and their JSON.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use epipen::engine::Options;
use epipen::explore::sweep;

use crate::output::{err, errln, out, outln};
use crate::story::Failure;
use epipen::views::{Count, World};

/// `epipen sweep` on a story: its text, for the lines of errors and the items drawn.
pub(crate) struct Sweep<'a> {
    pub(crate) source: &'a str,
}

impl Sweep<'_> {
    fn line(&self, span: epipen::syntax::Span) -> usize {
        epipen::syntax::diagnostic::line_col(self.source, span.start).0
    }

    /// Runs every job in parallel and prints a table (one row per run, or with
    /// `samples` one distribution per combination of values).
    pub(crate) fn run(
        &self,
        jobs: Vec<sweep::Job>,
        options: &Options,
        per_run: Option<Duration>,
        samples: bool,
        json: bool,
    ) -> Result<(), Failure> {
        let start = Instant::now();
        let terminal = std::io::stderr().is_terminal();
        let outcomes = sweep::run_all(self.source, jobs, options, per_run, &|done, total| {
            if terminal && start.elapsed() > Duration::from_millis(500) {
                err!(
                    "\r\x1b[2Ksweep: {done}/{total} runs ({:.1} s)",
                    start.elapsed().as_secs_f64()
                );
            }
        });
        if terminal && start.elapsed() > Duration::from_millis(500) {
            err!("\r\x1b[2K");
        }
        if samples {
            for group in outcomes.chunk_by(|a, b| a.job.sets == b.job.sets) {
                if json {
                    outln!("{}", self.distribution_json(group));
                } else {
                    out!("{}", self.distribution_text(group));
                }
            }
        } else if json {
            for o in &outcomes {
                outln!("{}", self.outcome_json(o));
            }
        } else {
            out!("{}", self.sweep_table(&outcomes));
        }
        // The worst failure decides the exit code: a story error (2) over a solver one (1).
        let failed = outcomes.iter().filter(|o| o.result.is_err()).count();
        let code = outcomes
            .iter()
            .filter_map(|o| o.result.as_ref().err().map(Self::run_error_code))
            .max();
        match code {
            None => Ok(()),
            Some(code) => {
                let first = outcomes
                    .iter()
                    .find_map(|o| Some((&o.job, o.result.as_ref().err()?)))
                    .map(|(job, e)| {
                        // Which run: its values, and its seed when the seeds vary.
                        let mut which = Self::sets_text(&job.sets);
                        if samples {
                            if !which.is_empty() {
                                which.push_str(", ");
                            }
                            which.push_str(&format!("seed {}", job.seed));
                        }
                        if !which.is_empty() {
                            which = format!(" ({which})");
                        }
                        format!("{which}: {}", self.run_error_text(e))
                    })
                    .unwrap_or_default();
                errln!(
                    "error: {failed} of {} runs failed; the first{first}",
                    outcomes.len(),
                );
                Err(Failure::Quiet(code))
            }
        }
    }

    fn run_error_code(e: &sweep::RunError) -> u8 {
        match e {
            sweep::RunError::Compile(_) => 2,
            sweep::RunError::Timeout(_) => 1,
            sweep::RunError::Engine(e) => match e.error {
                epipen::engine::Failure::Story { .. } => 2,
                _ => 1,
            },
        }
    }

    /// A failed run on one line: `line 26: …`.
    fn run_error_text(&self, e: &sweep::RunError) -> String {
        match e {
            sweep::RunError::Compile(ds) => ds
                .first()
                .map(|d| format!("line {}: {}", self.line(d.span), d.message))
                .unwrap_or_default(),
            sweep::RunError::Engine(e) => format!("line {}: {}", self.line(e.span), e.error),
            sweep::RunError::Timeout(span) => {
                format!(
                    "line {}: {}",
                    self.line(*span),
                    epipen::lower::TIMEOUT_MESSAGE
                )
            }
        }
    }

    fn sweep_table(&self, outcomes: &[sweep::Outcome]) -> String {
        let names: Vec<&str> = outcomes
            .first()
            .map(|o| o.job.sets.iter().map(|s| s.0.as_str()).collect())
            .unwrap_or_default();
        let mut rows: Vec<Vec<String>> = Vec::new();
        let mut header: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        header.extend(["worlds", "time", "the world, when one"].map(String::from));
        rows.push(header);
        for o in outcomes {
            let mut row: Vec<String> = o.job.sets.iter().map(|s| s.1.to_string()).collect();
            match &o.result {
                Ok(summary) => {
                    row.push(summary.count.to_string());
                    row.push(format!("{:.1} ms", o.elapsed.as_secs_f64() * 1000.0));
                    row.push(
                        summary
                            .world
                            .as_ref()
                            .map(|w| epipen::text::world(&World::of(&summary.program, &w.0)))
                            .unwrap_or_default(),
                    );
                }
                Err(e) => {
                    row.push("error".into());
                    row.push(format!("{:.1} ms", o.elapsed.as_secs_f64() * 1000.0));
                    row.push(self.run_error_text(e));
                }
            }
            rows.push(row);
        }
        let columns = rows[0].len();
        let widths: Vec<usize> = (0..columns)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for row in &rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (cell, w))| {
                    if c + 1 == columns {
                        cell.clone()
                    } else if c + 2 == columns {
                        format!("{cell:>w$}")
                    } else {
                        format!("{cell:<w$}")
                    }
                })
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        out
    }

    /// `{(5, 15), (6, 17), …}`: the items a sample drew, as written in the story.
    fn draw_text(&self, draw: &epipen::ir::SampleDraw) -> String {
        let items: Vec<&str> = draw
            .items
            .iter()
            .map(|s| &self.source[s.start..s.end])
            .collect();
        format!("{{{}}}", items.join(", "))
    }

    fn sets_text(sets: &[(String, i64)]) -> String {
        sets.iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn distribution_text(&self, group: &[sweep::Outcome]) -> String {
        let d = sweep::distribution(group);
        let mut out = String::new();
        if let Some(first) = group.first()
            && !first.job.sets.is_empty()
        {
            out.push_str(&format!("{}:\n", Self::sets_text(&first.job.sets)));
        }
        let (lo, hi) = (
            group.first().map_or(0, |o| o.job.seed),
            group.last().map_or(0, |o| o.job.seed),
        );
        let n = group.len();
        out.push_str(&format!("{n} samples (seeds {lo} to {hi}):\n"));
        out.push_str("  worlds  samples   share\n");
        let share = |k: usize| 100.0 * k as f64 / n as f64;
        for (worlds, k) in &d.counts {
            let label = count_label(*worlds);
            out.push_str(&format!("  {label:>6}  {k:>7}  {:>5.1}%\n", share(*k)));
        }
        if d.failed > 0 {
            out.push_str(&format!(
                "  failed  {:>7}  {:>5.1}%\n",
                d.failed,
                share(d.failed)
            ));
        }
        match d.first_unique.map(|k| &group[k]) {
            None => out.push_str("no sample leaves exactly one world\n"),
            Some(o) => {
                out.push_str(&format!(
                    "first sample with exactly one world: --seed {}\n",
                    o.job.seed
                ));
                if let Ok(summary) = &o.result {
                    for draw in &summary.draws {
                        out.push_str(&format!(
                            "  line {}: drew {}\n",
                            self.line(draw.span),
                            self.draw_text(draw)
                        ));
                    }
                    if let Some(w) = &summary.world {
                        out.push_str(&format!(
                            "  the world: {}\n",
                            epipen::text::world(&World::of(&summary.program, &w.0))
                        ));
                    }
                }
            }
        }
        out
    }

    fn sets_json(sets: &[(String, i64)]) -> serde_json::Value {
        sets.iter()
            .map(|(n, v)| (n.clone(), serde_json::Value::from(*v)))
            .collect::<serde_json::Map<_, _>>()
            .into()
    }

    fn outcome_json(&self, o: &sweep::Outcome) -> serde_json::Value {
        let mut object = serde_json::Map::new();
        object.insert("sets".into(), Self::sets_json(&o.job.sets));
        object.insert("seed".into(), o.job.seed.into());
        match &o.result {
            Ok(s) => {
                object.insert("worlds".into(), json(&Count(s.count)));
                if let Some(w) = &s.world {
                    object.insert("world".into(), json(&World::of(&s.program, &w.0)));
                }
            }
            Err(e) => {
                object.insert("error".into(), self.run_error_text(e).into());
            }
        }
        object.insert(
            "ms".into(),
            ((o.elapsed.as_secs_f64() * 10_000.0).round() / 10.0).into(),
        );
        object.into()
    }

    fn distribution_json(&self, group: &[sweep::Outcome]) -> serde_json::Value {
        let d = sweep::distribution(group);
        let counts: serde_json::Map<String, serde_json::Value> = d
            .counts
            .iter()
            .map(|(w, k)| {
                let key = count_label(*w);
                (key, serde_json::Value::from(*k))
            })
            .collect();
        let first_unique = d.first_unique.map(|k| {
            let o = &group[k];
            let (world, drew) = match &o.result {
                Ok(s) => (
                    s.world.as_ref().map(|w| json(&World::of(&s.program, &w.0))),
                    s.draws
                        .iter()
                        .map(|d| self.draw_text(d))
                        .collect::<Vec<_>>(),
                ),
                Err(_) => (None, Vec::new()),
            };
            serde_json::json!({"seed": o.job.seed, "world": world, "drew": drew})
        });
        serde_json::json!({
            "sets": Self::sets_json(group.first().map_or(&[][..], |o| &o.job.sets)),
            "samples": group.len(),
            "seeds": [group.first().map(|o| o.job.seed), group.last().map(|o| o.job.seed)],
            "counts": counts,
            "failed": d.failed,
            "first_unique": first_unique,
        })
    }
}

/// A key of a distribution: the number of worlds, or `>1000` past what was counted.
fn count_label(worlds: Option<u64>) -> String {
    worlds.map_or(format!(">{}", sweep::COUNT_CAP), |w| w.to_string())
}

/// A view as JSON.
fn json(view: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(view).expect("views serialise")
}
