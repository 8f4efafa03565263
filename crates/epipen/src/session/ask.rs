//! Ask the model, the way Hintikka's World teaches: where do formulas hold among the
//! worlds of the model at a step of the trace, at a checkpoint or at the end? Each
//! formula is a `where φ` line written into the story ([`Session::asking`]: after its
//! last line, or after the checkpoint's), compiled with it, so that it means what it
//! would mean there (names, types, knowledge operators), and run by the engine at the
//! place asked, where it changes nothing ([`Session::answers`]).

use super::{Session, Unwatched};
use crate::engine::{Engine, EngineError, Options, Report};
use crate::explore::graph::GRAPH_CAP;
use crate::explore::trace::Tracer;
use crate::failure::Failure;
use crate::ir::{CheckpointId, Stmt, StmtKind};
use crate::syntax::Located;
use crate::worlds::{Model, World, WorldSet};

/// The most formulas asked at once.
pub const ASKED_CAP: usize = 20;

/// The model asked about, its title, its actual world, and for each formula whether it
/// holds in each of its worlds.
pub type Answers = (Model, String, Option<usize>, Vec<Vec<bool>>);

/// The story to ask: its text with a `where φ` line for each formula, after the story's
/// last line, or right after a checkpoint's line (with its indentation, so that a
/// checkpoint inside a `repeat` asks at each round, the last one's answers kept, as the
/// model at such a checkpoint is its last round's); what [`Session::answers`] runs once
/// compiled.
#[derive(Debug, Clone)]
pub struct Asked {
    pub source: String,
    /// The lines the formulas were written on.
    lines: std::ops::Range<usize>,
    /// Where they are asked: at this checkpoint (None: at the end or at a step).
    checkpoint: Option<CheckpointId>,
}

impl Session {
    /// The story that asks `formulas` at checkpoint `at` (None: at the end, or at a step
    /// of the trace); or why they cannot be asked (none, more than [`ASKED_CAP`], one
    /// empty or of several lines; no such checkpoint), an error of the story's.
    pub fn asking(&self, formulas: &[String], at: Option<&str>) -> Result<Asked, Failure> {
        let refuse = |message: String, hint: &str| {
            Err(Failure::story(
                Located::nowhere(&self.path, message).with_hint(hint),
            ))
        };
        if formulas.is_empty() || formulas.len() > ASKED_CAP {
            return refuse(
                format!("ask 1 to {ASKED_CAP} formulas, not {}", formulas.len()),
                "type a formula such as `knows(A, x == 1)`",
            );
        }
        let mut lines: Vec<String> = self.source.lines().map(String::from).collect();
        let checkpoint = self.checkpoint(at)?;
        // The line after which the formulas are written, and their indentation.
        let (after, indent) = match checkpoint {
            None => (lines.len(), String::new()),
            Some(c) => {
                let line = self.line(self.program.checkpoints[c.0].span);
                let text = lines.get(line - 1).map_or("", String::as_str);
                let indent: String = text.chars().take_while(|c| c.is_whitespace()).collect();
                (line, indent)
            }
        };
        let mut asked = Vec::new();
        for f in formulas {
            let f = f.trim();
            if f.is_empty() || f.contains(['\n', '\r']) {
                return refuse(
                    format!("a formula asked is one line of text, not {f:?}"),
                    "type a formula such as `knows(A, x == 1)` on one line",
                );
            }
            asked.push(format!("{indent}where {f}"));
        }
        let count = asked.len();
        lines.splice(after..after, asked);
        let mut source = lines.join("\n");
        source.push('\n');
        Ok(Asked {
            source,
            lines: after + 1..after + 1 + count,
            checkpoint,
        })
    }
}

impl Session {
    /// The model after step `step` of the trace a `tracer()` makes (None: at the end;
    /// at the checkpoint `asked` names, if any), as [`Session::model_after`] and
    /// [`Session::model`] draw it, and where each formula `asked` holds in its worlds.
    /// `self` is the story [`Session::asking`] wrote, compiled.
    pub fn answers(
        &self,
        options: &Options,
        tracer: &dyn Fn() -> Tracer,
        step: Option<usize>,
        asked: &Asked,
    ) -> Result<Answers, Failure> {
        if let Some(checkpoint) = asked.checkpoint {
            return self.answers_at(options, checkpoint, asked);
        }
        let asked = asked.lines.len();
        let statements = &self.program.statements;
        let wheres: Vec<Stmt> = (statements[statements.len().saturating_sub(asked)..].iter())
            .filter(|s| matches!(s.kind, StmtKind::Where { .. }))
            .map(|s| {
                let mut s = s.clone();
                if let StmtKind::Where { limit, .. } = &mut s.kind {
                    *limit = GRAPH_CAP as u64 + 1;
                }
                s
            })
            .collect();
        if wheres.len() != asked {
            return Err(Failure::story(Located::nowhere(
                &self.path,
                format!("{}: the formulas asked are not its last lines", self.path),
            )));
        }
        let options = Options {
            skip_worlds_statements: false,
            ..options.clone()
        };
        let last = statements.len() - asked;
        // What the formulas asked find at the step (or the end), and there the model
        // when it is the end's.
        type AtEnd = (Model, String, Option<usize>);
        let mut found: Option<(Vec<WorldSet>, Option<AtEnd>)> = None;
        self.at_step(&options, tracer, step, last, &mut |engine| {
            let mut sets = Vec::new();
            for stmt in &wheres {
                let mut sink = |report: Report| {
                    if let Report::Worlds { set, .. } = report {
                        sets.push(set);
                    }
                };
                (engine.step(stmt, &mut sink)).map_err(|e: EngineError| self.failure(&e))?;
            }
            let end = match step {
                Some(_) => None,
                None => {
                    let (model, title) = self.model(engine, None)?;
                    let actual = self.actual_in(engine, &model);
                    Some((model, title, actual))
                }
            };
            found = Some((sets, end));
            Ok(())
        })?;
        let (sets, end) = found.ok_or_else(|| {
            let step = step.map_or("its end".to_string(), |s| format!("step {s}"));
            Failure::story(Located::nowhere(
                &self.path,
                format!("the trace of {} has no {step}", self.path),
            ))
        })?;
        let (model, title, actual) = match (end, step) {
            (Some(end), _) => end,
            (None, Some(step)) => self.model_after(&options, tracer(), step)?,
            (None, None) => unreachable!("the end's model is read at the end"),
        };
        let holds = (sets.iter()).map(|set| where_holds(&model, set)).collect();
        Ok((model, title, actual, holds))
    }

    /// The model at `checkpoint` and where the formulas of `asked` (written after the
    /// checkpoint's line) hold in its worlds: their last answers.
    fn answers_at(
        &self,
        options: &Options,
        checkpoint: CheckpointId,
        asked: &Asked,
    ) -> Result<Answers, Failure> {
        let options = Options {
            skip_worlds_statements: false,
            ..options.clone()
        };
        let mut sets: Vec<WorldSet> = Vec::new();
        let mut sink = |report: Report| {
            if let Report::Worlds { span, set, .. } = report
                && asked.lines.contains(&self.line(span))
            {
                // A round's answers replace the round's before.
                if sets.len() == asked.lines.len() {
                    sets.clear();
                }
                sets.push(set);
            }
        };
        // The lines asked list every world where they hold (a model has at most
        // GRAPH_CAP), not the 10 a `where` lists.
        let mut program = (*self.program).clone();
        let line = |span| self.line(span);
        unlimited(&mut program.statements, &|span| {
            asked.lines.contains(&line(span))
        });
        let session = Session {
            program: std::rc::Rc::new(program),
            ..self.clone()
        };
        let mut engine = session.run_steps(
            &options,
            &mut Unwatched,
            &mut sink,
            &mut |_, _, _| Ok(()),
            false,
        )?;
        let (model, title) = session.model(&mut engine, Some(checkpoint))?;
        let actual = session.actual_in(&engine, &model);
        let holds = (sets.iter()).map(|set| where_holds(&model, set)).collect();
        Ok((model, title, actual, holds))
    }

    /// Runs the story to step `step` of its trace (None: through its first `last`
    /// statements) and calls `then` with the engine there.
    fn at_step(
        &self,
        options: &Options,
        tracer: &dyn Fn() -> Tracer,
        step: Option<usize>,
        last: usize,
        then: &mut dyn FnMut(&mut Engine) -> Result<(), Failure>,
    ) -> Result<(), Failure> {
        match step {
            Some(step) => {
                self.traced(
                    options,
                    &mut Unwatched,
                    tracer(),
                    &mut |_| {},
                    &mut |engine, k, _| {
                        if k > step {
                            return Ok(true);
                        }
                        if k == step {
                            then(engine)?;
                        }
                        Ok(false)
                    },
                )?;
            }
            None => {
                let end = last.checked_sub(1).map(|k| &self.program.statements[k]);
                self.run_watched(options, &mut Unwatched, &mut |_| {}, &mut |engine, stmt| {
                    let here = match (stmt, end) {
                        (Some(s), Some(e)) => std::ptr::eq(s, e),
                        (None, None) => true,
                        _ => false,
                    };
                    if here { then(engine) } else { Ok(()) }
                })?;
            }
        }
        Ok(())
    }
}

/// Lets the `where` statements at the spans `asked` says list up to [`GRAPH_CAP`] + 1
/// worlds (every world of a model drawn), in `stmts` and the blocks in them.
fn unlimited(stmts: &mut [Stmt], asked: &dyn Fn(crate::syntax::Span) -> bool) {
    for s in stmts {
        let span = s.span;
        match &mut s.kind {
            StmtKind::Where { limit, .. } if asked(span) => *limit = GRAPH_CAP as u64 + 1,
            StmtKind::Repeat { body, .. } | StmtKind::AssertAddsCk { body, .. } => {
                unlimited(body, asked)
            }
            StmtKind::Simultaneously(body) => unlimited(body, asked),
            _ => {}
        }
    }
}

/// Whether each world of `model` is among `set`'s (by its values now, and before when a
/// story changed them).
fn where_holds(model: &Model, set: &WorldSet) -> Vec<bool> {
    let key = |worlds: &[World], before: Option<&Vec<World>>, k: usize| {
        (worlds[k].clone(), before.and_then(|b| b.get(k).cloned()))
    };
    let found: std::collections::HashSet<(World, Option<World>)> = (0..set.worlds.len())
        .map(|k| key(&set.worlds, set.before.as_ref(), k))
        .collect();
    (0..model.worlds.len())
        .map(|k| found.contains(&key(&model.worlds, model.before.as_ref(), k)))
        .collect()
}
