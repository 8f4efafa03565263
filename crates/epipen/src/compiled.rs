//! A story as a front end holds it: read from a file (or typed into the playground),
//! compiled with its `--set`s and seed, and run with a deadline; every failure rendered
//! once, as the CLI prints it (`file:line:column`, a caret excerpt, a hint). The
//! command line, the web playground and the Python package all run stories through
//! [`CompiledStory`], and print or send what it gives them.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use crate::engine::{Engine, EngineError, Failure as EngineFailure, Options, Report};
use crate::explore::graph::GRAPH_CAP;
use crate::explore::trace::{Fates, Place, TraceStep, Tracer, asked_beliefs};
use crate::ir::{CheckpointId, Program, Stmt, StmtKind};
use crate::syntax::diagnostic::line_col;
use crate::syntax::{Diagnostic, Span};
use crate::worlds::{Model, WorldCount, WorldSet};
use crate::{CompileError, explore};

/// A story compiled, with its text and the name messages give it.
#[derive(Debug, Clone)]
pub struct CompiledStory {
    /// The file's path as messages name it.
    pub path: String,
    pub source: String,
    pub program: Rc<Program>,
    /// When the run's time is up (counted from before compiling).
    pub deadline: Option<Instant>,
}

/// Why a story could not be compiled or run, rendered as the CLI prints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The story is wrong (exit code 2).
    Story(String),
    /// The solver failed or gave up: a timeout, `unknown`, a refuted hint or a failed
    /// check (exit code 1).
    Solver(String),
}

impl Failure {
    /// The rendered message.
    pub fn text(&self) -> &str {
        match self {
            Failure::Story(text) | Failure::Solver(text) => text,
        }
    }

    /// The exit code the CLI gives it: 2 for a story error, 1 for a solver failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            Failure::Story(_) => 2,
            Failure::Solver(_) => 1,
        }
    }
}

/// What a front end watches while a story runs (every method does nothing unless
/// overridden): the command line shows progress and prints `--stats` with it.
pub trait Watch {
    /// The engine is made, before the first statement.
    fn begun(&mut self, _story: &CompiledStory, _engine: &Engine) {}
    /// The top-level statement at `span` starts.
    fn starting(&mut self, _story: &CompiledStory, _span: Span) {}
    /// Something is about to be reported (an event, or a statement's figures).
    fn reporting(&mut self) {}
    /// With [`Options::stats`]: the statement at `span` took `elapsed`, and κ has
    /// `kappa_size` `unit`s after it.
    fn stats(
        &mut self,
        _story: &CompiledStory,
        _span: Span,
        _elapsed: Duration,
        _kappa_size: usize,
        _unit: &'static str,
    ) {
    }
    /// The last statement finished.
    fn finished(&mut self) {}
    /// The run failed with `error` (at its span), which the run returns rendered as a
    /// [`Failure`]: front ends that show a failure their own way (the Python package's
    /// exceptions, with a line and a column) take it here.
    fn failed(&mut self, _story: &CompiledStory, _error: &EngineError) {}
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
pub enum Traced<'a> {
    Step(&'a TraceStep),
    Report(&'a Report),
}

/// The hint given with a timeout.
const TIMEOUT_HINT: &str = "raise --timeout, or simplify the story";

impl CompiledStory {
    /// Compiles the story `source` (read from `path`, as messages name it) with its
    /// `--set`s and seed; unrolling stops at `deadline`, and the story keeps it for
    /// its runs.
    pub fn compile(
        path: String,
        source: String,
        sets: &[(String, i64)],
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<CompiledStory, Failure> {
        match crate::compile_until(&source, sets, seed, deadline) {
            Ok(mut program) => Ok(CompiledStory {
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

    /// Why the check or hint at some line is vacuous: ``vacuous: no world is possible
    /// (line 4, `Bob: knows_value(x)`, left none)``, `left_none` the first statement
    /// after which no world was possible.
    pub fn vacuous_text(&self, left_none: Span) -> String {
        format!("vacuous: {}", self.vacuous_reason(left_none))
    }

    /// ``no world is possible (line 4, `Bob: knows_value(x)`, left none)``.
    pub fn vacuous_reason(&self, left_none: Span) -> String {
        format!(
            "no world is possible (line {}, `{}`, left none)",
            self.line(left_none),
            self.statement_line(left_none)
        )
    }

    /// The first line of an empty list of worlds: which statement left none
    /// (`left_none`), and why when its kind says it: ``no possible worlds: line 4,
    /// `announce x > 9`, left none: the announcements contradict each other``.
    pub fn no_worlds_text(&self, left_none: Option<Span>) -> String {
        let Some(span) = left_none else {
            return "no possible worlds".into();
        };
        let why = match self.statement_at(span).map(|s| &s.kind) {
            Some(StmtKind::Announce { speaker: None, .. }) => {
                ": the announcements contradict each other"
            }
            Some(StmtKind::Announce {
                speaker: Some(_), ..
            }) => ": it was false in every world still possible",
            _ => "",
        };
        format!(
            "no possible worlds: line {}, `{}`, left none{why}",
            self.line(span),
            self.statement_line(span)
        )
    }

    /// How `epipen check` names the check or hint at `span`: ``check `φ` ``,
    /// ``check actual `φ` `` or ``hint `φ` ``.
    pub fn verdict_label(&self, span: Span) -> String {
        match self.statement_at(span).map(|s| &s.kind) {
            Some(StmtKind::AssertAddsCk { .. }) => format!("hint `{}`", self.hint_text(span)),
            _ => self.check_label(span),
        }
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

    /// The worlds of `set` as `epipen worlds` prints them (`more_hint`: how to see more
    /// when they are not all listed), an empty list naming the statement that left none
    /// (asked of `engine`).
    pub fn worlds_text(
        &self,
        engine: &mut Engine,
        set: &WorldSet,
        more_hint: &str,
    ) -> Result<String, Failure> {
        let left_none = match set.worlds.is_empty() && set.complete {
            true => engine
                .left_none()
                .map_err(|error| self.failure(&self.located(None, error.into())))?,
            false => None,
        };
        Ok(self.listed_text(set, left_none, more_hint))
    }

    /// The worlds of `set`, `left_none` the statement that left none when there are none.
    pub fn listed_text(&self, set: &WorldSet, left_none: Option<Span>, more_hint: &str) -> String {
        let text = crate::worlds::worlds_text(&self.program, set, more_hint);
        if !(set.worlds.is_empty() && set.complete) {
            return text;
        }
        let rest = text.split_once('\n').map_or("", |(_, rest)| rest);
        format!("{}\n{rest}", self.no_worlds_text(left_none))
    }

    /// How `epipen check` and errors name the check at `span`: ``check `φ` `` or
    /// ``check actual `φ` ``.
    pub fn check_label(&self, span: Span) -> String {
        let actual = matches!(self.formula_at(span), Some((_, true)));
        let kind = if actual { "check actual" } else { "check" };
        format!("{kind} `{}`", self.hint_text(span))
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

    /// Runs the story's statements.
    pub fn run(&self, options: &Options, sink: &mut dyn FnMut(Report)) -> Result<Engine, Failure> {
        self.run_watched(options, &mut Unwatched, sink, &mut |_, _| Ok(()))
    }

    /// Runs the story's statements like [`CompiledStory::run`], telling `watch` where
    /// the run is, and calling `after` with the engine at the start (None) and after
    /// each statement.
    pub fn run_watched(
        &self,
        options: &Options,
        watch: &mut dyn Watch,
        sink: &mut dyn FnMut(Report),
        after: &mut AfterStep<'_>,
    ) -> Result<Engine, Failure> {
        self.run_steps(
            options,
            watch,
            sink,
            &mut |engine, stmt, _| after(engine, stmt),
            false,
        )
    }

    /// [`CompiledStory::run_watched`], calling `after` with the round too; with
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
            timeout: self
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
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
                let done = done.map_err(|e| {
                    watch.failed(self, &e);
                    self.failure(&e)
                })?;
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
        // A failure of the tracer, for `watch` once the run has returned.
        let failed: RefCell<Option<EngineError>> = RefCell::new(None);
        let emit = RefCell::new(emit);
        let flush = || {
            if let Some(step) = pending.borrow_mut().take() {
                (emit.borrow_mut())(Traced::Step(&step));
            }
        };
        let run = self.run_steps(
            options,
            watch,
            &mut |event| {
                if reported_by_run(&event) {
                    flush();
                }
                (emit.borrow_mut())(Traced::Report(&event));
            },
            &mut |engine, stmt, round| {
                // The characters whose belief the statement asks about.
                let asked = stmt.map(asked_beliefs).unwrap_or_default();
                let step = tracer.observe(engine, stmt, round, &asked).map_err(|e| {
                    let e = self.located(stmt.map(|s| s.span), e);
                    let failure = self.failure(&e);
                    *failed.borrow_mut() = Some(e);
                    failure
                })?;
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
        if let Some(e) = failed.borrow_mut().take() {
            watch.failed(self, &e);
        }
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

    /// How a trace names the step that eliminated a world: as [`CompiledStory::step_label`]
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
                Err(Failure::Story(format!(
                    "error: --at {name}: {} has no checkpoint `{name}`\n  = hint: {hint}\n",
                    self.path
                )))
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
            return Err(Failure::Story(d.render(&self.path, &self.source)));
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

    /// An engine's failure, rendered.
    pub fn failure(&self, e: &EngineError) -> Failure {
        let d = Diagnostic::error(e.span, e.error.to_string());
        let render = |d: Diagnostic| d.render(&self.path, &self.source);
        match &e.error {
            EngineFailure::Solver(s) if s.is_timeout() => {
                Failure::Solver(render(d.with_hint(TIMEOUT_HINT)))
            }
            EngineFailure::Solver(_) => Failure::Solver(render(d)),
            EngineFailure::Story { hints, .. } => {
                Failure::Story(render(hints.iter().fold(d, |d, h| d.with_hint(h.clone()))))
            }
            EngineFailure::CheckFailed(world) => {
                let actual = matches!(self.formula_at(e.span), Some((_, true)));
                Failure::Solver(render(
                    Diagnostic::error(e.span, format!("the {} fails", self.check_label(e.span)))
                        .with_hint(format!(
                            "it is false in the {} world {}",
                            if actual { "actual" } else { "possible" },
                            crate::worlds::world_line(&self.program, &world.0)
                        )),
                ))
            }
            EngineFailure::Refuted(c) => Failure::Solver(render(
                Diagnostic::error(
                    e.span,
                    format!("the hint `{}` is wrong", self.hint_text(e.span)),
                )
                .with_hint(format!("counterexample: {}", c.describe(&self.program))),
            )),
        }
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
pub fn reported_by_run(event: &Report) -> bool {
    // A vacuous hint is reported, unlike a verified one: the run exits with 1.
    !matches!(
        event,
        Report::HintVerified { .. } | Report::HintRefuted { .. } | Report::Step { .. }
    )
}

/// Why a story does not compile, rendered.
pub fn compile_failure(path: &str, source: &str, e: CompileError) -> Failure {
    match e {
        CompileError::Timeout { span } => {
            let d = Diagnostic::error(span, crate::lower::TIMEOUT_MESSAGE).with_hint(TIMEOUT_HINT);
            Failure::Solver(d.render(path, source))
        }
        CompileError::UnknownSet { name, consts } => {
            let hint = match consts.as_slice() {
                [] => "the story declares no consts".to_string(),
                _ => format!(
                    "its consts are {}",
                    consts
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            Failure::Story(format!(
                "error: --set {name}=…: {path} has no `const {name}`\n  = hint: {hint}\n"
            ))
        }
        CompileError::Story(diagnostics) => {
            let mut text: String = diagnostics.iter().map(|d| d.render(path, source)).collect();
            let n = diagnostics.len();
            text.push_str(&format!(
                "error: {path}: {n} error{} found\n",
                if n == 1 { "" } else { "s" }
            ));
            Failure::Story(text)
        }
    }
}

/// A story that does not compile with its `--set` values (`diagnostics`). When it does
/// with its own values, the values are at fault: one error against the flags that break
/// it (each alone, or all of them together), with the story's first complaint as a hint,
/// instead of every consequence (a family of -1 members, then each use of it).
fn set_failure(
    path: &str,
    source: &str,
    sets: &[(String, i64)],
    seed: u64,
    deadline: Option<Instant>,
    diagnostics: &[Diagnostic],
) -> Failure {
    let compiles = |sets: &[(String, i64)]| crate::compile_until(source, sets, seed, deadline);
    if compiles(&[]).is_err() {
        return compile_failure(path, source, CompileError::Story(diagnostics.to_vec()));
    }
    let mut blamed: Vec<&(String, i64)> = sets
        .iter()
        .filter(|set| compiles(std::slice::from_ref(*set)).is_err())
        .collect();
    if blamed.is_empty() {
        blamed = sets.iter().collect();
    }
    let flags: Vec<String> = blamed
        .iter()
        .map(|(name, value)| format!("--set {name}={value}"))
        .collect();
    let mut text = format!(
        "error: {}: {path} does not compile with {}\n",
        flags.join(" "),
        if blamed.len() == 1 {
            "this value"
        } else {
            "these values"
        }
    );
    if let Some(first) = diagnostics.first() {
        let line = line_col(source, first.span.start).0;
        text.push_str(&format!("  = hint: line {line}: {}\n", first.message));
    }
    Failure::Story(text)
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
