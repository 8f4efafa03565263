//! `epipen run --trace`: the trace's text and JSON lines.

use std::cell::RefCell;

use super::output::{out, outln};
use super::{Failure, Story, count_json, negate, print_event, printed_by_run};
use crate::engine::{Engine, EngineError, Event, Failure as EngineFailure, Options};
use crate::explore::{
    self,
    trace::{Fates, TraceStep, Tracer},
};
use crate::syntax::Span;
use crate::worlds::{self, World};

/// `run --trace` says which statement eliminated each world when there are at most
/// this many.
const FATES_SHOWN: usize = 100;

/// What a traced run reports, in order: the worlds after a statement (or at the start),
/// or an event of the run.
pub(crate) enum Traced<'a> {
    Step(&'a TraceStep),
    Event(&'a Event),
}

impl Story {
    /// `epipen run --trace`: the run's own output, and after each statement the worlds
    /// possible; at the end, which statement eliminated each world.
    pub(super) fn trace(&self, options: &Options, limit: usize, json: bool) -> Result<(), Failure> {
        let (_, fates) = self.trace_run(options, Tracer::new(limit), &mut |item| match item {
            Traced::Step(step) if json => outln!("{}", self.step_json(step)),
            Traced::Step(step) => out!("{}", self.step_text(step)),
            Traced::Event(event) if json => {
                if let Some(line) = self.event_json(event) {
                    outln!("{line}");
                }
            }
            Traced::Event(event) => {
                print_event(self, event);
            }
        })?;
        if let Some(fates) = fates {
            if json {
                outln!("{}", self.fates_json(&fates));
            } else {
                out!("{}", self.fates_text(&fates));
            }
        }
        Ok(())
    }

    /// Runs the story, reporting each event and, after each statement, the worlds
    /// possible as `tracer` sees them, the steps of one statement unrolled by
    /// `for` folded into one. Returns the engine at the end and which statement
    /// eliminated each world, when the worlds were ever few enough to follow.
    pub(crate) fn trace_run(
        &self,
        options: &Options,
        mut tracer: Tracer,
        emit: &mut dyn FnMut(Traced),
    ) -> Result<(Engine, Option<Fates>), Failure> {
        // The step not reported yet: the next may come from the same (unrolled)
        // statement. It is reported before anything the next statement prints.
        let pending: RefCell<Option<TraceStep>> = RefCell::new(None);
        let emit = RefCell::new(emit);
        let flush = || {
            if let Some(step) = pending.borrow_mut().take() {
                (emit.borrow_mut())(Traced::Step(&step));
            }
        };
        let engine = self.run_observed(
            options,
            &mut |event| {
                if printed_by_run(&event) {
                    flush();
                }
                (emit.borrow_mut())(Traced::Event(&event));
            },
            &mut |engine, span| {
                let step = tracer
                    .observe(engine, span)
                    .map_err(|e| self.failure(&self.located(span, e)))?;
                let same = matches!(&*pending.borrow(), Some(p) if p.span.is_some() && p.span == step.span);
                if same {
                    if let Some(p) = pending.borrow_mut().as_mut() {
                        p.absorb(step);
                    }
                } else {
                    flush();
                    *pending.borrow_mut() = Some(step);
                }
                Ok(())
            },
        )?;
        flush();
        Ok((engine, tracer.fates().cloned()))
    }

    /// A failure outside any statement's run, at `span` (None: the story's end).
    fn located(&self, span: Option<Span>, error: EngineFailure) -> EngineError {
        EngineError {
            span: span.unwrap_or_else(|| self.end()),
            error,
        }
    }

    /// `line 8: announce …` (or `start`), cut to fit a line.
    fn step_title(&self, span: Option<Span>) -> String {
        match span {
            None => "start".to_string(),
            Some(span) => format!("line {}: {}", self.line(span), self.statement_line(span)),
        }
    }

    /// The statement at `span` on one line.
    fn statement(&self, span: Span) -> String {
        explore::statement_text(&self.source[span.start..span.end])
    }

    fn step_text(&self, step: &TraceStep) -> String {
        let mut out = format!("{}  =>  {}", self.step_title(step.span), step.count);
        match step.removed {
            Some(n) if n > 0 => out.push_str(&format!(" ({n} eliminated)")),
            _ if step.changed == Some(false) => out.push_str(" (unchanged)"),
            _ => {}
        }
        out.push('\n');
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
        out
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
                Some(span) => self.step_title(Some(*span)),
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
        object.into()
    }

    pub(crate) fn fates_json(&self, fates: &Fates) -> serde_json::Value {
        let worlds: Vec<serde_json::Value> = fates
            .worlds
            .iter()
            .map(|(w, fate)| {
                serde_json::json!({
                    "world": worlds::world_json(&self.program, w),
                    "eliminated_by": fate.map(|s| self.line(s)),
                })
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

    /// A run's own event (a reveal, a `worlds` statement, …) as one JSON line.
    pub(crate) fn event_json(&self, event: &Event) -> Option<serde_json::Value> {
        Some(match event {
            Event::Worlds { span, set } => serde_json::json!({
                "kind": "worlds",
                "line": self.line(*span),
                "worlds": self.worlds_value(&set.worlds),
                "complete": set.complete,
            }),
            Event::Reveal {
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
                "said": if *holds { text.clone() } else { negate(text) },
            }),
            Event::RepeatDone { span, rounds } => serde_json::json!({
                "kind": "repeat",
                "line": self.line(*span),
                "rounds": rounds,
            }),
            Event::HintTrusted { span } => serde_json::json!({
                "kind": "hint",
                "line": self.line(*span),
                "trusted": true,
            }),
            Event::CheckHolds { span } => serde_json::json!({
                "kind": "check",
                "line": self.line(*span),
                "holds": true,
            }),
            Event::CheckFailed { span, world } => serde_json::json!({
                "kind": "check",
                "line": self.line(*span),
                "holds": false,
                "world": worlds::world_json(&self.program, world),
            }),
            Event::HintVerified { .. } | Event::HintRefuted { .. } | Event::Step { .. } => {
                return None;
            }
        })
    }
}
