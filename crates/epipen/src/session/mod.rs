//! A story as a front end holds it: read from a file (or typed into the playground, or
//! given to Python), compiled with its `--set`s and seed, and run with a deadline. What
//! it gives is data: the run's reports as [`views`], and why it failed as a
//! [`Failure`] with its diagnostics located; [`crate::text`] renders both. The command
//! line, the web playground and the Python package all run stories through
//! [`Session`].

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineError, Failure as EngineFailure, Options, Report};
use crate::explore::graph::GRAPH_CAP;
use crate::explore::trace::{Fates, TraceStep, Tracer, asked_beliefs};
use crate::failure::{About, Failure, FailureKind, compile_failure, set_failure};
use crate::ir::{CheckpointId, ConstId, Program, Stmt, StmtKind};
use crate::syntax::diagnostic::line_col;
use crate::syntax::{Diagnostic, Located, Span};
use crate::views::{self, VerdictKind};
use crate::worlds::{Model, WorldCount, WorldSet};
use crate::{CompileError, explore};

mod ask;
mod event;
mod plan;
mod shown;
mod written;

pub use ask::{ASKED_CAP, Answers, Asked};
pub(crate) use written::as_written;

/// A story compiled, with its text and the name messages give it.
#[derive(Debug, Clone)]
pub struct Session {
    /// The file's path as messages name it.
    pub path: String,
    pub source: String,
    pub program: Rc<Program>,
    /// When the run's time is up (counted from before compiling).
    pub deadline: Option<Instant>,
}

/// What a front end watches while a story runs (every method does nothing unless
/// overridden): the command line shows progress and prints `--stats` with it.
pub trait Watch {
    /// The engine is made, before the first statement.
    fn begun(&mut self, _story: &Session, _engine: &Engine) {}
    /// The top-level statement at `span` starts.
    fn starting(&mut self, _story: &Session, _span: Span) {}
    /// Something is about to be reported (an event, or a statement's figures).
    fn reporting(&mut self) {}
    /// With [`Options::stats`]: the statement at `span` took `elapsed`, and κ has
    /// `kappa_size` `unit`s after it.
    fn stats(
        &mut self,
        _story: &Session,
        _span: Span,
        _elapsed: Duration,
        _kappa_size: usize,
        _unit: &'static str,
    ) {
    }
    /// The last statement finished.
    fn finished(&mut self) {}
}

/// A [`Watch`] that watches nothing.
pub struct Unwatched;

impl Watch for Unwatched {}

/// Called with the engine at the start (None) and after each top-level statement.
pub type AfterStep<'a> = dyn FnMut(&mut Engine, Option<&Stmt>) -> Result<(), Failure> + 'a;

/// Called with the engine at the start (None) and after each top-level statement, or
/// after each round of a top-level `repeat` (with its number).
type AfterRound<'a> =
    dyn FnMut(&mut Engine, Option<&Stmt>, Option<u64>) -> Result<(), Failure> + 'a;

/// Called with the engine after each statement of a traced run (each round of a
/// top-level `repeat`), the number of the step it belongs to, and that step so far; true
/// stops the run.
type AtStep<'a> = dyn FnMut(&mut Engine, usize, &TraceStep) -> Result<bool, Failure> + 'a;

/// What a traced run reports, in order: the worlds after a statement (or at the start),
/// or an event of the run.
pub enum Traced {
    Step(views::Step),
    Report(views::Report),
}

impl Session {
    /// Compiles the story `source` (read from `path`, as messages name it) with its
    /// `--set`s and seed; unrolling stops at `deadline`, and the story keeps it for
    /// its runs.
    pub fn compile(
        path: String,
        source: String,
        sets: &[(String, i64)],
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<Session, Failure> {
        match crate::compile_until(&source, sets, seed, deadline) {
            Ok(mut program) => Ok(Session {
                program: {
                    as_written(&source, &mut program.statements);
                    Rc::new(program)
                },
                path,
                source,
                deadline,
            }),
            Err(CompileError::Story(diagnostics)) if !sets.is_empty() => Err(set_failure(
                &path,
                &source,
                sets,
                seed,
                deadline,
                &diagnostics,
            )),
            Err(e) => Err(compile_failure(&path, &source, e)),
        }
    }

    /// The line of `span`'s start, from 1.
    pub fn line(&self, span: Span) -> usize {
        line_col(&self.source, span.start).0
    }

    /// The span of the story's last statement (where failures at its end are reported).
    pub fn end(&self) -> Span {
        self.program
            .statements
            .last()
            .map(|s| s.span)
            .unwrap_or_default()
    }

    /// The statement at `span` on one line, cut to fit (`--stats`, the trace).
    pub fn statement_line(&self, span: Span) -> String {
        explore::truncate(&self.statement(span), 72)
    }

    /// The statement at `span` on one line.
    pub fn statement(&self, span: Span) -> String {
        explore::statement_text(&self.source[span.start..span.end])
    }

    /// The hint of the `assert_adds_ck` statement, or the formula of the `check` (or
    /// `check actual`), at `span`, as written (on one line: its spaces collapsed).
    pub fn hint_text(&self, span: Span) -> String {
        let at = self.formula_at(span).map_or(span, |(at, _)| at);
        let text = &self.source[at.start..at.end];
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The statement at `span`, in a block or not.
    fn statement_at(&self, span: Span) -> Option<&Stmt> {
        fn find(stmts: &[Stmt], span: Span) -> Option<&Stmt> {
            stmts.iter().find_map(|stmt| {
                if stmt.span == span {
                    return Some(stmt);
                }
                match &stmt.kind {
                    StmtKind::Simultaneously(body)
                    | StmtKind::Repeat { body, .. }
                    | StmtKind::AssertAddsCk { body, .. } => find(body, span),
                    _ => None,
                }
            })
        }
        find(&self.program.statements, span)
    }

    /// The span of the hint or checked formula of the statement at `span`, and whether
    /// it is a `check actual`.
    fn formula_at(&self, span: Span) -> Option<(Span, bool)> {
        fn formula(stmts: &[Stmt], span: Span) -> Option<(Span, bool)> {
            stmts.iter().find_map(|stmt| match &stmt.kind {
                StmtKind::AssertAddsCk { hint, .. } if stmt.span == span => {
                    Some((hint.span, false))
                }
                StmtKind::Check(e) if stmt.span == span => Some((e.span, false)),
                StmtKind::CheckActual(e) if stmt.span == span => Some((e.span, true)),
                StmtKind::AssertAddsCk { body, .. }
                | StmtKind::Simultaneously(body)
                | StmtKind::Repeat { body, .. } => formula(body, span),
                _ => None,
            })
        }
        formula(&self.program.statements, span)
    }

    /// Runs the story's statements, giving `sink` what they report.
    pub fn run(
        &self,
        options: &Options,
        sink: &mut dyn FnMut(views::Report),
    ) -> Result<Engine, Failure> {
        self.run_watched(options, &mut Unwatched, sink, &mut |_, _| Ok(()))
    }

    /// Runs the story's statements like [`Session::run`], telling `watch` where
    /// the run is, and calling `after` with the engine at the start (None) and after
    /// each statement.
    pub fn run_watched(
        &self,
        options: &Options,
        watch: &mut dyn Watch,
        sink: &mut dyn FnMut(views::Report),
        after: &mut AfterStep<'_>,
    ) -> Result<Engine, Failure> {
        self.run_steps(
            options,
            watch,
            &mut |report| {
                if let Some(view) = self.report(&report) {
                    sink(view)
                }
            },
            &mut |engine, stmt, _| after(engine, stmt),
            false,
        )
    }

    /// [`Session::run_watched`], calling `after` with the round too; with
    /// `by_round`, after each round of a top-level `repeat` (with its number) rather
    /// than once after the whole statement.
    fn run_steps(
        &self,
        options: &Options,
        watch: &mut dyn Watch,
        sink: &mut dyn FnMut(Report),
        after: &mut AfterRound<'_>,
        by_round: bool,
    ) -> Result<Engine, Failure> {
        // The deadline counts from the start of the command, reading and compiling
        // included. Each statement's time and κ size come as `Step` events for
        // `--stats` and for the debug log.
        let logged = tracing::enabled!(tracing::Level::DEBUG);
        let printed = options.stats;
        let options = Options {
            deadline: self.deadline,
            stats: options.stats || logged,
            ..options.clone()
        };
        let mut engine = Engine::new(self.program.clone(), &options);
        watch.begun(self, &engine);
        after(&mut engine, None, None)?;
        for stmt in &self.program.statements {
            watch.starting(self, stmt.span);
            let rounds = by_round && matches!(stmt.kind, StmtKind::Repeat { .. });
            let mut round = 0;
            loop {
                round += 1;
                let mut on_event = |event| {
                    watch.reporting();
                    match event {
                        Report::Step {
                            span,
                            elapsed,
                            kappa_size,
                            unit,
                        } => {
                            if logged {
                                let (line, column) = line_col(&self.source, span.start);
                                let ms = elapsed.as_secs_f64() * 1000.0;
                                tracing::debug!(
                                    "line {line}:{column}: done in {ms:.3} ms, κ {kappa_size} {unit}: {}",
                                    self.statement_line(span)
                                );
                            }
                            if printed {
                                watch.stats(self, span, elapsed, kappa_size, unit);
                            }
                        }
                        event => sink(event),
                    }
                };
                let done = if rounds {
                    engine.step_round(stmt, round, &mut on_event)
                } else {
                    engine.step(stmt, &mut on_event).map(|()| true)
                };
                let done = done.map_err(|e| self.failure(&e))?;
                after(&mut engine, Some(stmt), rounds.then_some(round))?;
                if done {
                    break;
                }
            }
        }
        watch.finished();
        Ok(engine)
    }

    /// Runs the story, reporting each event and, after each statement (each round of a
    /// top-level `repeat`), the worlds possible as `tracer` sees them; consecutive steps
    /// of unrolled loops that change nothing are folded into one. Returns the engine at
    /// the end and which step eliminated each world, when the worlds were ever few
    /// enough to follow.
    pub fn trace_run(
        &self,
        options: &Options,
        watch: &mut dyn Watch,
        tracer: Tracer,
        emit: &mut dyn FnMut(Traced),
    ) -> Result<(Engine, Option<Fates>), Failure> {
        let traced = self.traced(options, watch, tracer, emit, &mut |_, _, _| Ok(false))?;
        Ok(traced.expect("a trace that is never stopped runs to the end"))
    }

    /// [`Session::trace_run`], calling `at` with the engine after each statement (each
    /// round) with the number of the step it belongs to (from 0, the start: the index of
    /// the [`Traced::Step`]s emitted) and that step so far (folded steps come one
    /// statement at a time). When `at` answers true, the run stops there: None.
    fn traced(
        &self,
        options: &Options,
        watch: &mut dyn Watch,
        mut tracer: Tracer,
        emit: &mut dyn FnMut(Traced),
        at: &mut AtStep<'_>,
    ) -> Result<Option<(Engine, Option<Fates>)>, Failure> {
        // The step not reported yet: the next may fold into it. It is reported before
        // anything the next statement prints.
        let pending: RefCell<Option<TraceStep>> = RefCell::new(None);
        // How many steps have begun, and whether `at` stopped the run.
        let (begun, stopped) = (Cell::new(0usize), Cell::new(false));
        let emit = RefCell::new(emit);
        let flush = || {
            if let Some(step) = pending.borrow_mut().take() {
                (emit.borrow_mut())(Traced::Step(self.step(&step)));
            }
        };
        let run = self.run_steps(
            options,
            watch,
            &mut |report| {
                if reported_by_run(&report) {
                    flush();
                }
                if let Some(view) = self.report(&report) {
                    (emit.borrow_mut())(Traced::Report(view));
                }
            },
            &mut |engine, stmt, round| {
                // The characters whose belief the statement asks about.
                let asked = stmt.map(asked_beliefs).unwrap_or_default();
                let step = tracer
                    .observe(engine, stmt, round, &asked)
                    .map_err(|e| self.failure(&self.located(stmt.map(|s| s.span), e)))?;
                let folds = matches!(&*pending.borrow(), Some(p) if p.folds(&step));
                if folds {
                    if let Some(p) = pending.borrow_mut().as_mut() {
                        p.fold(step);
                    }
                } else {
                    flush();
                    *pending.borrow_mut() = Some(step);
                    begun.set(begun.get() + 1);
                }
                let now = pending.borrow();
                let now = now.as_ref().expect("a step is pending");
                if at(engine, begun.get() - 1, now)? {
                    stopped.set(true);
                    // Not a failure: unwinds the run, and is dropped below.
                    return Err(Failure::story(Located::nowhere(&self.path, "stopped")));
                }
                Ok(())
            },
            true,
        );
        if stopped.get() {
            return Ok(None);
        }
        // The last step is shown even when the next statement failed.
        flush();
        let engine = run?;
        Ok(Some((engine, tracer.fates().cloned())))
    }

    /// The epistemic model after step `step` of the trace `tracer` makes (numbered as
    /// `Session::traced` numbers them: the start is 0; a round of a top-level
    /// `repeat` is a step), with its title (`muddy-children.story after line 26, round
    /// 2: 32 worlds`) and the index of the actual world among its worlds; or the error
    /// that says why it cannot be drawn (more than [`GRAPH_CAP`] worlds, no such step).
    pub fn model_after(
        &self,
        options: &Options,
        tracer: Tracer,
        step: usize,
    ) -> Result<(Model, String, Option<usize>), Failure> {
        // The model after the last statement of the step so far, or its span, where
        // and how many worlds when there are too many.
        type Seen = Result<(Model, Option<usize>), (Span, WorldCount)>;
        let mut seen: Option<(Seen, String)> = None;
        self.traced(
            options,
            &mut Unwatched,
            tracer,
            &mut |_| {},
            &mut |engine, k, now| {
                if k > step {
                    return Ok(true);
                }
                if k == step {
                    let span = now.last.unwrap_or_else(|| self.end());
                    let at = |error| self.failure(&EngineError { span, error });
                    let model = match engine.model(None, GRAPH_CAP).map_err(at)? {
                        Some(model) => Ok((self.actual_in(engine, &model), model)),
                        None => Err((span, engine.count_worlds(None, GRAPH_CAP).map_err(at)?)),
                    };
                    seen = Some((model.map(|(a, m)| (m, a)), self.step_place(now)));
                }
                Ok(false)
            },
        )?;
        let Some((seen, place)) = seen else {
            return Err(Failure::story(Located::nowhere(
                &self.path,
                format!("the trace of {} has no step {step}", self.path),
            )));
        };
        match seen {
            Ok((model, actual)) => {
                let title = self.model_title(&place, &model);
                Ok((model, title, actual))
            }
            Err((span, count)) => Err(self.too_many(span, &place, count)),
        }
    }

    /// Where a step of a trace is, as a model's title says it: `at the start`, `after
    /// line 8`, `after line 26, round 3`, `after lines 12-14`.
    fn step_place(&self, step: &TraceStep) -> String {
        let Some(span) = step.span else {
            return "at the start".to_string();
        };
        let (first, last) = (self.line(span), step.last.map_or(0, |l| self.line(l)));
        let round = step.round.map_or(String::new(), |r| format!(", round {r}"));
        if last > first {
            format!("after lines {first}-{last}")
        } else {
            format!("after line {first}{round}")
        }
    }

    /// A failure outside any statement's run, at `span` (None: the story's end).
    fn located(&self, span: Option<Span>, error: EngineFailure) -> EngineError {
        EngineError {
            span: span.unwrap_or_else(|| self.end()),
            error,
        }
    }

    /// Up to `limit` of the worlds possible at the end of the run of `engine`.
    pub fn final_worlds(&self, engine: &mut Engine, limit: u64) -> Result<WorldSet, Failure> {
        engine
            .worlds(limit)
            .map_err(|error| self.failure(&self.located(None, error)))
    }

    /// The checkpoint named `name` (None: the end of the story).
    pub fn checkpoint(&self, name: Option<&str>) -> Result<Option<CheckpointId>, Failure> {
        let Some(name) = name else { return Ok(None) };
        match self.program.checkpoints.iter().position(|c| c.name == name) {
            Some(k) => Ok(Some(CheckpointId(k))),
            None => {
                let names: Vec<String> = self
                    .program
                    .checkpoints
                    .iter()
                    .map(|c| format!("`{}`", c.name))
                    .collect();
                let hint = if names.is_empty() {
                    "the story has no checkpoints; add `checkpoint NAME` where you want the graph"
                        .to_string()
                } else {
                    format!("its checkpoints are {}", names.join(", "))
                };
                Err(Failure::story(
                    Located::nowhere(
                        &self.path,
                        format!("{} has no checkpoint `{name}`", self.path),
                    )
                    .with_hint(hint),
                )
                .about(About::Checkpoint(name.to_string())))
            }
        }
    }

    /// The epistemic model at `checkpoint` (None: now) and its title (`cheryl.story at
    /// checkpoint whispered: 10 worlds`), or the error that says why it cannot be drawn
    /// (more than [`GRAPH_CAP`] worlds).
    pub fn model(
        &self,
        engine: &mut Engine,
        checkpoint: Option<CheckpointId>,
    ) -> Result<(Model, String), Failure> {
        let (span, place) = match checkpoint {
            None => (self.end(), "at the end".to_string()),
            Some(c) => (
                self.program.checkpoints[c.0].span,
                format!("at checkpoint {}", self.program.checkpoints[c.0].name),
            ),
        };
        let at = |error: EngineFailure| self.failure(&EngineError { span, error });
        let Some(model) = engine.model(checkpoint, GRAPH_CAP).map_err(at)? else {
            let count = engine.count_worlds(checkpoint, GRAPH_CAP).map_err(at)?;
            return Err(self.too_many(span, &place, count));
        };
        let title = self.model_title(&place, &model);
        Ok((model, title))
    }

    /// Why the model `place` (with `count` worlds) cannot be drawn.
    fn too_many(&self, span: Span, place: &str, count: WorldCount) -> Failure {
        let d = Diagnostic::error(
            span,
            format!("the model {place} has {count}; a graph shows at most {GRAPH_CAP}"),
        );
        // The front end says how to ask for a smaller model.
        Failure::story(d.locate(&self.path, &self.source)).about(About::TooBig)
    }

    /// A model's title: `cheryl.story at checkpoint whispered: 10 worlds`.
    fn model_title(&self, place: &str, model: &Model) -> String {
        let file = std::path::Path::new(&self.path)
            .file_name()
            .map_or(self.path.clone(), |f| f.to_string_lossy().into_owned());
        format!(
            "{file} {place}: {}",
            WorldCount::Exactly(model.worlds.len() as u64)
        )
    }

    /// The index of the actual world among the worlds of `model` (a model of
    /// `engine`'s, now or at a checkpoint), once an `actual` statement has declared it:
    /// the world whose values at the start are the actual world's, and whose events
    /// that have happened had the cases that happened in the actual world.
    pub fn actual_in(&self, engine: &Engine, model: &Model) -> Option<usize> {
        let actual = engine.actual_world()?;
        let identities = model.before.as_ref().unwrap_or(&model.worlds);
        let program = &self.program;
        identities.iter().position(|w| {
            w.0.len() == actual.0.len()
                && (w.0.iter().zip(&actual.0).enumerate())
                    .all(|(c, (v, a))| v == a || !program.shows(ConstId(c), *v))
        })
    }

    /// An engine's failure, located in the story.
    pub fn failure(&self, e: &EngineError) -> Failure {
        let d = Diagnostic::error(e.span, e.error.to_string());
        let (kind, d) = match &e.error {
            s if s.is_timeout() => {
                let located = d.locate(&self.path, &self.source);
                return Failure::solver(located).about(About::Timeout);
            }
            EngineFailure::Story { hints, .. } => (
                FailureKind::Story,
                hints.iter().fold(d, |d, h| d.with_hint(h.clone())),
            ),
            EngineFailure::CheckFailed(world, found) => {
                let verdict = self.verdict(e.span);
                let found = self.found(e.span, found);
                let actual = verdict.kind == VerdictKind::CheckActual;
                (
                    FailureKind::Solver,
                    Diagnostic::error(e.span, format!("the {} fails", verdict.label())).with_hint(
                        format!(
                            "it is false in the {} world {}",
                            if actual { "actual" } else { "possible" },
                            crate::text::failing_world(&self.world(world), &found)
                        ),
                    ),
                )
            }
            EngineFailure::Refuted(c) => (
                FailureKind::Solver,
                Diagnostic::error(
                    e.span,
                    format!("the hint `{}` is wrong", self.hint_text(e.span)),
                )
                .with_hint(format!("counterexample: {}", c.describe(&self.program))),
            ),
            _ => (FailureKind::Solver, d),
        };
        Failure::one(kind, d.locate(&self.path, &self.source))
    }
}

/// Whether `epipen run` prints the event (a `worlds` statement, a reveal, a `repeat`
/// done, a trusted hint, a check), as opposed to the figures and verdicts of other
/// commands.
fn reported_by_run(event: &Report) -> bool {
    // A vacuous hint is reported, unlike a verified one: the run exits with 1.
    !matches!(
        event,
        Report::HintVerified { .. } | Report::HintRefuted { .. } | Report::Step { .. }
    )
}
