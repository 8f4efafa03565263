//! A story as a front end holds it: read from a file (or typed into the playground, or
//! given to Python), compiled with its `--set`s and seed, and run with a deadline. What
//! it gives is data: the run's reports as [`views`](crate::views), and why it failed as a
//! [`Failure`] with its diagnostics located; [`crate::text`] renders both. The command
//! line, the web playground and the Python package all run stories through
//! [`Session`].

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineError, Failure as EngineFailure, Options, Report};
use crate::explore::graph::{GRAPH_CAP, arrows, edges};
use crate::explore::trace::{Fates, Place, TraceStep, Tracer, asked_beliefs};
use crate::failure::{Failure, FailureKind, TIMEOUT_HINT, compile_failure, set_failure};
use crate::ir::{CharId, CheckpointId, Program, Stmt, StmtKind};
use crate::syntax::diagnostic::line_col;
use crate::syntax::{Diagnostic, Located, Span};
use crate::views::{self, Statement, Verdict, VerdictKind, World, Worlds};
use crate::worlds::{Model, WorldCount, WorldSet};
use crate::{CompileError, explore};

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
                    reveals_as_written(&source, &mut program.statements);
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

    /// The statement at `span` as messages name it: its line and its text on one line.
    pub fn statement_view(&self, span: Span) -> Statement {
        Statement {
            line: self.line(span),
            statement: self.statement_line(span),
            why: None,
        }
    }

    /// The statement at `span`, after which no world was possible, and why when its
    /// kind says it.
    pub fn left_none(&self, span: Span) -> Statement {
        let why = match self.statement_at(span).map(|s| &s.kind) {
            Some(StmtKind::Announce { speaker: None, .. }) => {
                Some("the announcements contradict each other")
            }
            Some(StmtKind::Announce {
                speaker: Some(_), ..
            }) => Some("it was false in every world still possible"),
            _ => None,
        };
        Statement {
            why: why.map(String::from),
            ..self.statement_view(span)
        }
    }

    /// One world of the story, its constants named.
    pub fn world(&self, world: &crate::worlds::World) -> World {
        World::of(&self.program, &world.0)
    }

    fn worlds_of(&self, worlds: &[crate::worlds::World]) -> Vec<World> {
        worlds.iter().map(|w| self.world(w)).collect()
    }

    /// The worlds of `set`; when none is possible, with the statement that left none
    /// (asked of `engine`).
    pub fn worlds(&self, engine: &mut Engine, set: &WorldSet) -> Result<Worlds, Failure> {
        let left_none = match set.worlds.is_empty() && set.complete {
            true => engine
                .left_none()
                .map_err(|error| self.failure(&self.located(None, error.into())))?,
            false => None,
        };
        Ok(Worlds::of(
            &self.program,
            set,
            left_none.map(|span| self.left_none(span)),
        ))
    }

    /// Which statement the verdict at `span` is about.
    fn verdict_kind(&self, span: Span) -> VerdictKind {
        match self.statement_at(span).map(|s| &s.kind) {
            Some(StmtKind::AssertAddsCk { .. }) => VerdictKind::Hint,
            _ if matches!(self.formula_at(span), Some((_, true))) => VerdictKind::CheckActual,
            _ => VerdictKind::Check,
        }
    }

    /// The verdict at `span`, holding unless said otherwise.
    fn verdict(&self, span: Span) -> Verdict {
        Verdict {
            line: self.line(span),
            kind: self.verdict_kind(span),
            formula: self.hint_text(span),
            holds: Some(true),
            trusted: false,
            vacuous: false,
            left_none: None,
            world: None,
            counterexample: None,
            seconds: None,
        }
    }

    /// What the engine reported, as front ends show it (None: a statement's figures, or
    /// an event in a story without an actual world).
    pub fn report(&self, report: &Report) -> Option<views::Report> {
        let program = &self.program;
        let name = |who: CharId| program.characters[who.0].name.clone();
        let hint_or_check = |v: Verdict| match v.kind {
            VerdictKind::Hint => views::Report::Hint(v),
            _ => views::Report::Check(v),
        };
        Some(match report {
            Report::Worlds {
                span,
                set,
                left_none,
                filter,
            } => {
                let line = self.line(*span);
                let worlds = Worlds::of(program, set, left_none.map(|s| self.left_none(s)));
                match filter {
                    None => views::Report::Worlds { line, worlds },
                    Some(formula) => views::Report::Where {
                        line,
                        formula: formula.clone(),
                        worlds,
                    },
                }
            }
            Report::Reveal {
                span,
                round,
                who,
                text,
                holds,
            } => views::Report::Reveal {
                line: self.line(*span),
                round: *round,
                who: name(*who),
                said: if *holds {
                    text.clone()
                } else {
                    explore::negated(text)
                },
                holds: *holds,
            },
            Report::Happened {
                span,
                round,
                event,
                case: Some(case),
                saw,
            } => {
                let def = &program.events[event.0];
                views::Report::Event {
                    line: self.line(*span),
                    round: *round,
                    event: def.name.clone(),
                    case: def.cases[*case].clone(),
                    saw: views::Saw(
                        (program.characters.iter().zip(saw))
                            .map(|(who, cases)| {
                                let cases = cases.iter().map(|&k| def.cases[k].clone());
                                (who.name.clone(), cases.collect())
                            })
                            .collect(),
                    ),
                }
            }
            Report::Happened { case: None, .. } | Report::Step { .. } => return None,
            Report::RepeatDone { span, rounds } => views::Report::Repeat {
                line: self.line(*span),
                rounds: *rounds,
            },
            Report::HintVerified { span, elapsed } => views::Report::Hint(Verdict {
                seconds: Some(elapsed.as_secs_f64()),
                ..self.verdict(*span)
            }),
            Report::HintTrusted { span } => views::Report::Hint(Verdict {
                holds: None,
                trusted: true,
                ..self.verdict(*span)
            }),
            Report::HintRefuted {
                span,
                elapsed,
                counterexample,
            } => views::Report::Hint(Verdict {
                holds: Some(false),
                counterexample: Some(counterexample.describe(program)),
                seconds: Some(elapsed.as_secs_f64()),
                ..self.verdict(*span)
            }),
            Report::CheckHolds { span } => hint_or_check(self.verdict(*span)),
            Report::Vacuous { span, left_none } => hint_or_check(Verdict {
                vacuous: true,
                left_none: Some(self.statement_view(*left_none)),
                ..self.verdict(*span)
            }),
            Report::CheckFailed { span, world } => hint_or_check(Verdict {
                holds: Some(false),
                world: Some(self.world(world)),
                ..self.verdict(*span)
            }),
        })
    }

    /// A step of a trace, as front ends show it.
    pub fn step(&self, step: &TraceStep) -> views::Step {
        let program = &self.program;
        views::Step {
            line: step.span.map(|span| self.line(span)),
            statement: step
                .span
                .map_or_else(|| "start".to_string(), |span| self.statement(span)),
            label: self.step_label(step),
            round: step.round,
            loops: step.loops.clone(),
            steps: step.steps,
            last_line: step.last.map(|span| self.line(span)),
            sees: step.sees.clone(),
            count: views::Count(step.count),
            changed: step.changed,
            worlds: step.worlds.as_deref().map(|w| self.worlds_of(w)),
            removed: step.removed,
            eliminated: step.eliminated.as_deref().map(|w| self.worlds_of(w)),
            beliefs: (step.beliefs.iter())
                .map(|b| views::Belief {
                    who: program.characters[b.who.0].name.clone(),
                    actual: b.actual,
                    worlds: self.worlds_of(&b.class),
                    believed: self.worlds_of(&b.believed),
                })
                .collect(),
        }
    }

    /// Which step eliminated each world followed, as front ends show it.
    pub fn fates(&self, fates: &Fates) -> views::Fates {
        views::Fates {
            since: fates.since.map(|span| self.line(span)),
            fates: (fates.worlds.iter())
                .map(|(world, by)| views::Fate {
                    world: self.world(world),
                    eliminated_by: by.as_ref().map(|p| self.line(p.span)),
                    label: by.as_ref().map(|p| self.place_label(p)),
                    round: by.as_ref().and_then(|p| p.round),
                })
                .collect(),
        }
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
        mut tracer: Tracer,
        emit: &mut dyn FnMut(Traced),
    ) -> Result<(Engine, Option<Fates>), Failure> {
        // The step not reported yet: the next may fold into it. It is reported before
        // anything the next statement prints.
        let pending: RefCell<Option<TraceStep>> = RefCell::new(None);
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
                }
                Ok(())
            },
            true,
        );
        // The last step is shown even when the next statement failed.
        flush();
        let engine = run?;
        Ok((engine, tracer.fates().cloned()))
    }

    /// How a trace names a step: `start`, `line 8: announce …`, `line 26, round 3:
    /// repeat …`, `line 12 (i = 2): Anne learns x[i]`, `line 20: event move: moved |
    /// stayed`; folded steps `line 12 (i in 0..7): Anne learns x[i] (7 steps)` or
    /// `lines 12-14 (i in 0..7): 21 steps`.
    pub fn step_label(&self, step: &TraceStep) -> String {
        let Some(span) = step.span else {
            return "start".to_string();
        };
        let loops = if step.loops.is_empty() {
            String::new()
        } else {
            format!(" ({})", explore::trace::loops_text(&step.loops))
        };
        let round = step.round.map_or(String::new(), |r| format!(", round {r}"));
        let text = match &step.event {
            Some(heading) => explore::truncate(heading, 72),
            None => self.statement_line(span),
        };
        let (first, last) = (self.line(span), step.last.map_or(0, |l| self.line(l)));
        match step.steps {
            1 => format!("line {first}{round}{loops}: {text}"),
            n if step.last == Some(span) => format!("line {first}{loops}: {text} ({n} steps)"),
            n if first == last => format!("line {first}{loops}: {n} steps"),
            n => format!("lines {first}-{last}{loops}: {n} steps"),
        }
    }

    /// How a trace names the step that eliminated a world: as [`Session::step_label`]
    /// names a step of one statement.
    pub fn place_label(&self, place: &Place) -> String {
        let mut label = format!("line {}", self.line(place.span));
        if let Some(r) = place.round {
            label.push_str(&format!(", round {r}"));
        }
        if !place.loops.is_empty() {
            let loops: Vec<(String, Vec<i64>)> = (place.loops.iter())
                .map(|(name, value)| (name.clone(), vec![*value]))
                .collect();
            label.push_str(&format!(" ({})", explore::trace::loops_text(&loops)));
        }
        let text = match &place.event {
            Some(heading) => explore::truncate(heading, 72),
            None => self.statement_line(place.span),
        };
        format!("{label}: {text}")
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
            .map_err(|error| self.failure(&self.located(None, error.into())))
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
                        format!("--at {name}: {} has no checkpoint `{name}`", self.path),
                    )
                    .with_hint(hint),
                ))
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
            let d = Diagnostic::error(
                span,
                format!("the model {place} has {count}; a graph shows at most {GRAPH_CAP}"),
            )
            .with_hint("graph a checkpoint where fewer worlds are left (--at NAME), or use smaller parameters (--set)");
            return Err(Failure::story(d.locate(&self.path, &self.source)));
        };
        let file = std::path::Path::new(&self.path)
            .file_name()
            .map_or(self.path.clone(), |f| f.to_string_lossy().into_owned());
        let title = format!(
            "{file} {place}: {}",
            WorldCount::Exactly(model.worlds.len() as u64)
        );
        Ok((model, title))
    }

    /// The model with its title as front ends show it.
    pub fn model_view(&self, model: &Model, title: String) -> views::Model {
        let program = &self.program;
        let names = |who: &[CharId]| -> Vec<String> {
            (who.iter())
                .map(|c| program.characters[c.0].name.clone())
                .collect()
        };
        views::Model {
            title,
            characters: program.characters.iter().map(|c| c.name.clone()).collect(),
            worlds: self.worlds_of(&model.worlds),
            edges: (edges(model).iter())
                .map(|e| views::ModelEdge {
                    a: e.a,
                    b: e.b,
                    who: names(&e.who),
                })
                .collect(),
            beliefs: (arrows(model).iter())
                .map(|a| views::ModelArrow {
                    from: a.from,
                    to: a.to,
                    who: names(&a.who),
                })
                .collect(),
        }
    }

    /// An engine's failure, located in the story.
    pub fn failure(&self, e: &EngineError) -> Failure {
        let d = Diagnostic::error(e.span, e.error.to_string());
        let (kind, d) = match &e.error {
            EngineFailure::Solver(s) if s.is_timeout() => {
                (FailureKind::Solver, d.with_hint(TIMEOUT_HINT))
            }
            EngineFailure::Solver(_) => (FailureKind::Solver, d),
            EngineFailure::Story { hints, .. } => (
                FailureKind::Story,
                hints.iter().fold(d, |d, h| d.with_hint(h.clone())),
            ),
            EngineFailure::CheckFailed(world) => {
                let verdict = self.verdict(e.span);
                let actual = verdict.kind == VerdictKind::CheckActual;
                (
                    FailureKind::Solver,
                    Diagnostic::error(e.span, format!("the {} fails", verdict.label())).with_hint(
                        format!(
                            "it is false in the {} world {}",
                            if actual { "actual" } else { "possible" },
                            crate::text::world(&self.world(world))
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
        };
        Failure::one(kind, d.locate(&self.path, &self.source))
    }
}

/// Gives each `A reveals φ` of `stmts` (in blocks too) the text the run prints: φ as
/// written in `source` (on one line), the loop variables around it replaced by their
/// values (`knows_value(muddy[i])` with `i = 0`: `knows_value(muddy[0])`), rather than
/// the lowered formula (an aggregate unrolled).
fn reveals_as_written(source: &str, stmts: &mut [Stmt]) {
    for stmt in stmts {
        let Stmt { kind, span, loops } = stmt;
        match kind {
            StmtKind::Reveal { text, .. } => {
                if let Some(written) = source
                    .get(span.start..span.end)
                    .and_then(|s| reveal_text(s, loops))
                {
                    *text = written;
                }
            }
            StmtKind::Simultaneously(body)
            | StmtKind::Repeat { body, .. }
            | StmtKind::AssertAddsCk { body, .. } => reveals_as_written(source, body),
            _ => {}
        }
    }
}

/// What follows `reveals` in the statement `statement`, on one line, each identifier
/// named in `loops` replaced by its value.
fn reveal_text(statement: &str, loops: &[(String, i64)]) -> Option<String> {
    let text = explore::statement_text(statement);
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut word = String::new();
    let mut after = false;
    for c in text.chars().chain(std::iter::once(' ')) {
        if ident(c) {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            if !after {
                after = word == "reveals";
            } else if let Some((_, value)) = loops.iter().rev().find(|(n, _)| *n == word) {
                out.push_str(&value.to_string());
            } else {
                out.push_str(&word);
            }
            word.clear();
        }
        if after {
            out.push(c);
        }
    }
    let out = out.trim();
    (after && !out.is_empty()).then(|| out.to_string())
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

#[cfg(test)]
mod tests {
    use super::reveal_text;

    #[test]
    fn a_reveal_is_shown_as_written_with_its_loop_values() {
        let loops = [("i".to_string(), 2), ("j".to_string(), -1)];
        assert_eq!(
            reveal_text(
                "child[i] reveals knows_value(muddy[i]) and # a comment\n  ij == j",
                &loops
            )
            .as_deref(),
            Some("knows_value(muddy[2]) and ij == -1")
        );
        // An aggregate's own variable is not a loop's.
        assert_eq!(
            reveal_text("A reveals any(c in 0..5: ship[c])", &loops).as_deref(),
            Some("any(c in 0..5: ship[c])")
        );
        assert_eq!(reveal_text("announce x", &loops), None);
    }
}
