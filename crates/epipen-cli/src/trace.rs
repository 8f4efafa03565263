//! `epipen run --trace`: the trace's text and JSON lines.

use epipen::compiled::Traced;
use epipen::engine::{Options, Report};
use epipen::explore::negated;
use epipen::explore::trace::{Belief, Fates, TraceStep, Tracer};
use epipen::syntax::Span;
use epipen::worlds::{self, World};

use crate::output::{out, outln};
use crate::story::{Failure, Story, count_json, print_event};

/// `run --trace` says which statement eliminated each world when there are at most
/// this many.
const FATES_SHOWN: usize = 100;

impl Story {
    /// `epipen run --trace`: the run's own output, and after each statement the worlds
    /// possible; at the end, which statement eliminated each world.
    pub(crate) fn trace(&self, options: &Options, limit: usize, json: bool) -> Result<(), Failure> {
        let mut terminal = self.terminal(options);
        let mut vacuous = false;
        let (_, fates) = self.trace_run(
            options,
            &mut terminal,
            Tracer::new(limit),
            &mut |item| match item {
                Traced::Step(step) if json => outln!("{}", self.step_json(step)),
                Traced::Step(step) => out!("{}", self.step_text(step)),
                Traced::Report(event) if json => {
                    vacuous |= matches!(event, Report::Vacuous { .. });
                    if let Some(line) = self.event_json(event) {
                        outln!("{line}");
                    }
                }
                Traced::Report(event) => {
                    vacuous |= matches!(event, Report::Vacuous { .. });
                    print_event(self, event);
                }
            },
        )?;
        if let Some(fates) = fates {
            if json {
                outln!("{}", self.fates_json(&fates));
            } else {
                out!("{}", self.fates_text(&fates));
            }
        }
        if vacuous {
            // As `epipen run`: a vacuous check proves nothing.
            return Err(Failure::Quiet(1));
        }
        Ok(())
    }

    fn step_text(&self, step: &TraceStep) -> String {
        let mut out = format!("{}  =>  {}", self.step_label(step), step.count);
        match step.removed {
            Some(n) if n > 0 => out.push_str(&format!(" ({n} eliminated)")),
            _ if step.changed == Some(false) => out.push_str(" (unchanged)"),
            _ => {}
        }
        out.push('\n');
        if !step.sees.is_empty() {
            out.push_str(&format!("    {}\n", step.sees.join("; ")));
        }
        if step.changed == Some(true)
            && let Some(worlds) = &step.worlds
        {
            for w in worlds {
                out.push_str(&format!(
                    "    {}\n",
                    worlds::world_line(&self.program, &w.0)
                ));
            }
        }
        for belief in &step.beliefs {
            out.push_str(&self.belief_text(belief));
        }
        out
    }

    /// `    in the actual world, Sally believes: marble = basket  (the most plausible of
    /// the 2 worlds Sally cannot tell apart)`.
    fn belief_text(&self, belief: &Belief) -> String {
        let who = &self.program.characters[belief.who.0].name;
        let list = |ws: &[World]| {
            ws.iter()
                .map(|w| worlds::world_line(&self.program, &w.0))
                .collect::<Vec<_>>()
                .join("; ")
        };
        let believed = list(&belief.believed);
        match (belief.actual, belief.class.len()) {
            (true, 1) => format!("    in the actual world, {who} knows: {believed}\n"),
            (true, n) => format!(
                "    in the actual world, {who} believes: {believed}  (the most plausible of the {n} worlds {who} cannot tell apart)\n"
            ),
            (false, 1) => format!("    where {believed}, {who} knows it\n"),
            (false, _) if belief.believed == belief.class => format!(
                "    {who} cannot tell apart {believed}, and finds them equally plausible\n"
            ),
            (false, _) => format!(
                "    where {who} cannot tell apart {}, {who} believes: {believed}\n",
                list(&belief.class)
            ),
        }
    }

    fn fates_text(&self, fates: &Fates) -> String {
        let since = match fates.since {
            None => "at the start".to_string(),
            Some(span) => format!("after line {}", self.line(span)),
        };
        let n = fates.worlds.len();
        if n > FATES_SHOWN {
            return format!(
                "({n} worlds {since}: too many to say which statement eliminated each; --json lists them)\n"
            );
        }
        let mut out = format!(
            "-- which statement eliminated each of the {n} world{} possible {since} --\n",
            if n == 1 { "" } else { "s" }
        );
        let lines: Vec<String> = fates
            .worlds
            .iter()
            .map(|(w, _)| worlds::world_line(&self.program, &w.0))
            .collect();
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        for (line, (_, fate)) in lines.iter().zip(&fates.worlds) {
            let fate = match fate {
                None => "still possible".to_string(),
                Some(place) => self.place_label(place),
            };
            out.push_str(&format!("  {line:<width$}  {fate}\n"));
        }
        out
    }

    pub(crate) fn step_json(&self, step: &TraceStep) -> serde_json::Value {
        let mut object = serde_json::Map::new();
        object.insert("kind".into(), "step".into());
        object.insert("line".into(), step.span.map(|s| self.line(s)).into());
        object.insert(
            "event".into(),
            step.span
                .map_or("start".to_string(), |s| self.statement(s))
                .into(),
        );
        object.insert("label".into(), self.step_label(step).into());
        if let Some(round) = step.round {
            object.insert("round".into(), round.into());
        }
        if !step.loops.is_empty() {
            let loops: serde_json::Map<String, serde_json::Value> = (step.loops.iter())
                .map(|(name, values)| (name.clone(), values.clone().into()))
                .collect();
            object.insert("loops".into(), loops.into());
        }
        if step.steps > 1 {
            object.insert("steps".into(), step.steps.into());
            object.insert("last_line".into(), step.last.map(|s| self.line(s)).into());
        }
        if !step.sees.is_empty() {
            object.insert("sees".into(), step.sees.clone().into());
        }
        object.insert("worlds".into(), count_json(step.count));
        object.insert("changed".into(), step.changed.into());
        if let Some(worlds) = &step.worlds {
            object.insert("list".into(), self.worlds_value(worlds));
        }
        if let Some(n) = step.removed {
            object.insert("removed".into(), n.into());
        }
        if let Some(gone) = &step.eliminated {
            object.insert("eliminated".into(), self.worlds_value(gone));
        }
        if !step.beliefs.is_empty() {
            let beliefs: Vec<serde_json::Value> = step
                .beliefs
                .iter()
                .map(|b| {
                    serde_json::json!({
                        "who": self.program.characters[b.who.0].name,
                        "actual": b.actual,
                        "worlds": self.worlds_value(&b.class),
                        "believed": self.worlds_value(&b.believed),
                    })
                })
                .collect();
            object.insert("beliefs".into(), beliefs.into());
        }
        object.into()
    }

    pub(crate) fn fates_json(&self, fates: &Fates) -> serde_json::Value {
        let worlds: Vec<serde_json::Value> = fates
            .worlds
            .iter()
            .map(|(w, fate)| {
                let mut object = serde_json::json!({
                    "world": worlds::world_json(&self.program, w),
                    "eliminated_by": fate.as_ref().map(|p| self.line(p.span)),
                });
                if let Some(place) = fate {
                    object["label"] = self.place_label(place).into();
                    if let Some(round) = place.round {
                        object["round"] = round.into();
                    }
                }
                object
            })
            .collect();
        serde_json::json!({
            "kind": "fates",
            "since": fates.since.map(|s| self.line(s)),
            "fates": worlds,
        })
    }

    pub(crate) fn worlds_value(&self, worlds: &[World]) -> serde_json::Value {
        worlds
            .iter()
            .map(|w| serde_json::Value::Object(worlds::world_json(&self.program, w)))
            .collect()
    }

    /// The statement after which no world was possible, as JSON: its line and text.
    pub(crate) fn left_none_json(&self, span: Span) -> serde_json::Value {
        serde_json::json!({
            "line": self.line(span),
            "statement": self.statement_line(span),
        })
    }

    /// A run's own event (a reveal, a `worlds` statement, …) as one JSON line.
    pub(crate) fn event_json(&self, event: &Report) -> Option<serde_json::Value> {
        Some(match event {
            Report::Worlds {
                span,
                set,
                left_none,
                filter,
            } => {
                let mut line = match filter {
                    None => serde_json::json!({
                        "kind": "worlds",
                        "line": self.line(*span),
                        "worlds": self.worlds_value(&set.worlds),
                        "complete": set.complete,
                    }),
                    Some(formula) => serde_json::json!({
                        "kind": "where",
                        "line": self.line(*span),
                        "formula": formula,
                        "worlds": self.worlds_value(&set.worlds),
                        "complete": set.complete,
                    }),
                };
                if let Some(left_none) = left_none {
                    line["left_none"] = self.left_none_json(*left_none);
                }
                line
            }
            Report::Reveal {
                span,
                round,
                who,
                text,
                holds,
            } => serde_json::json!({
                "kind": "reveal",
                "line": self.line(*span),
                "round": round,
                "who": self.program.characters[who.0].name,
                "said": if *holds { text.clone() } else { negated(text) },
            }),
            Report::Happened {
                span,
                round,
                event,
                case: Some(case),
                saw,
            } => {
                let def = &self.program.events[event.0];
                let seen: serde_json::Map<String, serde_json::Value> =
                    (self.program.characters.iter())
                        .zip(saw)
                        .map(|(who, cases)| {
                            let names: Vec<&str> =
                                cases.iter().map(|&k| def.cases[k].as_str()).collect();
                            (who.name.clone(), names.into())
                        })
                        .collect();
                serde_json::json!({
                    "kind": "event",
                    "line": self.line(*span),
                    "round": round,
                    "event": def.name,
                    "case": def.cases[*case],
                    "saw": seen,
                })
            }
            Report::Happened { case: None, .. } => return None,
            Report::RepeatDone { span, rounds } => serde_json::json!({
                "kind": "repeat",
                "line": self.line(*span),
                "rounds": rounds,
            }),
            Report::HintTrusted { span } => serde_json::json!({
                "kind": "hint",
                "line": self.line(*span),
                "trusted": true,
            }),
            Report::CheckHolds { span } => serde_json::json!({
                "kind": "check",
                "line": self.line(*span),
                "holds": true,
            }),
            Report::Vacuous { span, left_none } => {
                let hint = self.verdict_label(*span).starts_with("hint");
                let mut line = serde_json::json!({
                    "kind": if hint { "hint" } else { "check" },
                    "line": self.line(*span),
                    "vacuous": true,
                    "left_none": self.left_none_json(*left_none),
                });
                if !hint {
                    // Vacuously: there is no world where it fails.
                    line["holds"] = true.into();
                }
                line
            }
            Report::CheckFailed { span, world } => serde_json::json!({
                "kind": "check",
                "line": self.line(*span),
                "holds": false,
                "world": worlds::world_json(&self.program, world),
            }),
            Report::HintVerified { .. } | Report::HintRefuted { .. } | Report::Step { .. } => {
                return None;
            }
        })
    }
}
