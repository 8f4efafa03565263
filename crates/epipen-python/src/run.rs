//! Story files run from Python: `run` (the worlds at the end, the checks' verdicts, what
//! the story printed), `trace` (the worlds after each statement) and `model` (the
//! epistemic model at a checkpoint), each compiled and run on a worker as
//! [`CompiledStory`] runs it for the command line, with the same messages.

use std::time::{Duration, Instant};

use epipen::compiled::{CompiledStory, Traced, Watch};
use epipen::engine::{Cancel, EngineError, Options, Report, Strategy};
use epipen::explore::graph::{arrows, edges};
use epipen::explore::negated;
use epipen::explore::svg::svg;
use epipen::explore::trace::{TraceStep, Tracer};
use epipen::syntax::{Diagnostic, Span};
use epipen::worlds::WorldSet;
use epipen::{CompileError, worlds};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::convert::{self, Count, Located, Out, any, dict, py_worlds};
use crate::worker::solve;

/// A story and how to run it, as the Python call gave them.
#[derive(Clone)]
pub(crate) struct Request {
    /// The name messages give the story (its path, or `<story>`).
    pub name: String,
    pub source: String,
    pub sets: Vec<(String, i64)>,
    pub seed: u64,
    pub strategy: Strategy,
    pub timeout: Option<Duration>,
}

impl Request {
    pub(crate) fn new(
        name: String,
        source: String,
        sets: Vec<(String, i64)>,
        seed: u64,
        backend: &str,
        timeout: Option<f64>,
    ) -> PyResult<Request> {
        Ok(Request {
            name,
            source,
            sets,
            seed,
            strategy: strategy(backend)?,
            timeout: timeout_of(timeout)?,
        })
    }

    /// The options of a run, with `cancel`.
    pub(crate) fn options(&self, cancel: &Cancel) -> Options {
        Options {
            strategy: self.strategy,
            timeout: self.timeout,
            cancel: cancel.clone(),
            ..Options::default()
        }
    }

    /// When the run's time is up, counted from now.
    fn deadline(&self) -> Option<Instant> {
        self.timeout.and_then(|t| Instant::now().checked_add(t))
    }

    /// The story compiled, or its errors located.
    fn compile(&self, deadline: Option<Instant>) -> Result<CompiledStory, Located> {
        let (name, source) = (&self.name, &self.source);
        CompiledStory::compile(
            name.clone(),
            source.clone(),
            &self.sets,
            self.seed,
            deadline,
        )
        .map_err(|failure| {
            // Where the errors are: compiling again gives them as data.
            let diagnostics = match epipen::compile_until(source, &self.sets, self.seed, deadline) {
                Err(CompileError::Story(d)) => d,
                Err(CompileError::Timeout { span }) => vec![Diagnostic::error(span, "")],
                _ => Vec::new(),
            };
            Located::new(failure, name, source, diagnostics.first().map(|d| d.span))
                .with_diagnostics(source, &diagnostics)
        })
    }
}

/// `--backend`'s names.
pub(crate) fn strategy(backend: &str) -> PyResult<Strategy> {
    match backend {
        "auto" => Ok(Strategy::Auto),
        "z3" => Ok(Strategy::Z3),
        "bdd" => Ok(Strategy::Bdd),
        "explicit" => Ok(Strategy::Explicit),
        other => Err(PyValueError::new_err(format!(
            "backend={other:?}: the backends are \"auto\" (the default), \"z3\", \"bdd\" and \"explicit\""
        ))),
    }
}

/// A timeout in seconds.
pub(crate) fn timeout_of(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    timeout
        .map(|t| {
            Duration::try_from_secs_f64(t).map_err(|_| {
                PyValueError::new_err(format!(
                    "timeout={t}: a timeout is a number of seconds, 0 or more"
                ))
            })
        })
        .transpose()
}

/// Remembers where a run failed.
#[derive(Default)]
struct Locator {
    error: Option<EngineError>,
}

impl Watch for Locator {
    fn failed(&mut self, _story: &CompiledStory, error: &EngineError) {
        self.error = Some(error.clone());
    }
}

impl Locator {
    fn locate(&self, story: &CompiledStory, failure: epipen::compiled::Failure) -> Located {
        let span = self.error.as_ref().map(|e| e.span);
        Located::new(failure, &story.path, &story.source, span)
    }
}

/// An `assert_adds_ck` hint's or a `check`'s verdict.
pub(crate) struct CheckOut {
    kind: &'static str,
    line: usize,
    text: String,
    /// None: taken on trust.
    holds: Option<bool>,
    /// Why it failed: the counterexample, or the world where the check is false.
    detail: Option<String>,
    /// Why it holds only vacuously: no world is possible (which statement left none).
    vacuous: Option<String>,
}

/// Something the story printed (as `epipen run` prints it).
pub(crate) enum EventOut {
    /// A `worlds` statement's worlds, or a `where φ` statement's (`filter`: φ).
    Worlds {
        line: usize,
        worlds: Vec<Vec<Out>>,
        complete: bool,
        /// With no world: the line `epipen run` prints, naming the statement that left
        /// none.
        no_worlds: Option<String>,
        /// A `where φ` statement's φ as written (None: a `worlds` statement).
        filter: Option<String>,
    },
    Reveal {
        line: usize,
        round: Option<u64>,
        who: String,
        said: String,
        holds: bool,
    },
    Repeat {
        line: usize,
        rounds: u64,
    },
    /// An event happened: its case in the actual world, and the cases each character
    /// could not tell from it.
    Happened {
        line: usize,
        round: Option<u64>,
        event: String,
        case: String,
        saw: Vec<(String, Vec<String>)>,
    },
}

/// What the checks and the printed events of a run say, from its events.
#[derive(Default)]
struct Events {
    checks: Vec<CheckOut>,
    printed: Vec<EventOut>,
}

impl Events {
    fn take(&mut self, story: &CompiledStory, event: &Report) {
        let program = &story.program;
        let check = |kind, span: &Span, holds, detail| CheckOut {
            kind,
            line: story.line(*span),
            text: story.hint_text(*span),
            holds,
            detail,
            vacuous: None,
        };
        match event {
            Report::Worlds {
                span,
                set,
                left_none,
                filter,
            } => self.printed.push(EventOut::Worlds {
                line: story.line(*span),
                worlds: convert::worlds(program, &set.worlds),
                complete: set.complete,
                no_worlds: (set.worlds.is_empty() && set.complete)
                    .then(|| story.no_worlds_text(*left_none)),
                filter: filter.clone(),
            }),
            Report::Reveal {
                span,
                round,
                who,
                text,
                holds,
            } => self.printed.push(EventOut::Reveal {
                line: story.line(*span),
                round: *round,
                who: program.characters[who.0].name.clone(),
                said: if *holds { text.clone() } else { negated(text) },
                holds: *holds,
            }),
            Report::Happened {
                span,
                round,
                event,
                case: Some(case),
                saw,
            } => {
                let def = &program.events[event.0];
                self.printed.push(EventOut::Happened {
                    line: story.line(*span),
                    round: *round,
                    event: def.name.clone(),
                    case: def.cases[*case].clone(),
                    saw: (program.characters.iter().zip(saw))
                        .map(|(who, cases)| {
                            (
                                who.name.clone(),
                                cases.iter().map(|&k| def.cases[k].clone()).collect(),
                            )
                        })
                        .collect(),
                });
            }
            Report::Happened { case: None, .. } => {}
            Report::RepeatDone { span, rounds } => self.printed.push(EventOut::Repeat {
                line: story.line(*span),
                rounds: *rounds,
            }),
            Report::HintVerified { span, .. } => {
                self.checks.push(check("hint", span, Some(true), None))
            }
            Report::HintTrusted { span } => self.checks.push(check("hint", span, None, None)),
            Report::HintRefuted {
                span,
                counterexample,
                ..
            } => self.checks.push(check(
                "hint",
                span,
                Some(false),
                Some(format!(
                    "counterexample: {}",
                    counterexample.describe(program)
                )),
            )),
            Report::CheckHolds { span } => self.checks.push(check("check", span, Some(true), None)),
            Report::Vacuous { span, left_none } => {
                let kind = match story.verdict_label(*span).starts_with("hint") {
                    true => "hint",
                    false => "check",
                };
                self.checks.push(CheckOut {
                    vacuous: Some(story.vacuous_reason(*left_none)),
                    ..check(kind, span, Some(true), None)
                })
            }
            Report::CheckFailed { span, world } => self.checks.push(check(
                "check",
                span,
                Some(false),
                Some(format!(
                    "it is false in the possible world {}",
                    worlds::world_line(program, &world.0)
                )),
            )),
            Report::Step { .. } => {}
        }
    }
}

/// What a run gives Python.
pub(crate) struct RunOut {
    constants: Vec<(String, String)>,
    checkpoints: Vec<String>,
    backend: &'static str,
    worlds: Vec<Vec<Out>>,
    before: Option<Vec<Vec<Out>>>,
    complete: bool,
    /// With no world at the end: the line `epipen worlds` prints first, naming the
    /// statement that left none.
    no_worlds: Option<String>,
    events: Events,
}

fn run_story(request: &Request, limit: u64, cancel: &Cancel) -> Result<RunOut, Located> {
    let deadline = request.deadline();
    let story = request.compile(deadline)?;
    let options = Options {
        keep_refuted_hints: true,
        ..request.options(cancel)
    };
    let mut locator = Locator::default();
    let mut events = Events::default();
    let mut engine = story
        .run_watched(
            &options,
            &mut locator,
            &mut |event| events.take(&story, &event),
            &mut |_, _| Ok(()),
        )
        .map_err(|f| locator.locate(&story, f))?;
    let end = story.end();
    let set: WorldSet = engine.worlds(limit).map_err(|error| {
        let e = EngineError {
            span: end,
            error: error.into(),
        };
        Located::new(story.failure(&e), &story.path, &story.source, Some(end))
    })?;
    let no_worlds = match set.worlds.is_empty() && set.complete {
        true => Some(
            story
                .worlds_text(&mut engine, &set, "")
                .map_err(|f| Located::new(f, &story.path, &story.source, Some(end)))?
                .lines()
                .next()
                .unwrap_or_default()
                .to_string(),
        ),
        false => None,
    };
    let program = &story.program;
    Ok(RunOut {
        constants: convert::constants(program),
        checkpoints: program.checkpoints.iter().map(|c| c.name.clone()).collect(),
        backend: engine.backend(),
        worlds: convert::worlds(program, &set.worlds),
        before: set.before.as_ref().map(|b| convert::worlds(program, b)),
        complete: set.complete,
        no_worlds,
        events,
    })
}

fn py_events<'py>(py: Python<'py>, events: &[EventOut]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for e in events {
        let d = match e {
            EventOut::Worlds {
                line,
                worlds,
                complete,
                no_worlds,
                filter,
            } => {
                let mut items = vec![
                    (
                        "kind",
                        any(py, if filter.is_some() { "where" } else { "worlds" })?,
                    ),
                    ("line", any(py, line)?),
                ];
                if let Some(formula) = filter {
                    items.push(("formula", any(py, formula)?));
                }
                items.push(("worlds", py_worlds(py, worlds)?.into_any()));
                items.push(("complete", any(py, complete)?));
                items.push(("no_worlds", any(py, no_worlds)?));
                dict(py, items)?
            }
            EventOut::Reveal {
                line,
                round,
                who,
                said,
                holds,
            } => dict(
                py,
                vec![
                    ("kind", any(py, "reveal")?),
                    ("line", any(py, line)?),
                    ("round", any(py, round)?),
                    ("who", any(py, who)?),
                    ("said", any(py, said)?),
                    ("holds", any(py, holds)?),
                ],
            )?,
            EventOut::Repeat { line, rounds } => dict(
                py,
                vec![
                    ("kind", any(py, "repeat")?),
                    ("line", any(py, line)?),
                    ("rounds", any(py, rounds)?),
                ],
            )?,
            EventOut::Happened {
                line,
                round,
                event,
                case,
                saw,
            } => dict(
                py,
                vec![
                    ("kind", any(py, "happened")?),
                    ("line", any(py, line)?),
                    ("round", any(py, round)?),
                    ("event", any(py, event)?),
                    ("case", any(py, case)?),
                    ("saw", any(py, saw)?),
                ],
            )?,
        };
        list.append(d)?;
    }
    Ok(list)
}

fn py_checks<'py>(py: Python<'py>, checks: &[CheckOut]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for c in checks {
        list.append(dict(
            py,
            vec![
                ("kind", any(py, c.kind)?),
                ("line", any(py, c.line)?),
                ("text", any(py, &c.text)?),
                ("holds", any(py, c.holds)?),
                ("detail", any(py, &c.detail)?),
                ("vacuous", any(py, &c.vacuous)?),
            ],
        )?)?;
    }
    Ok(list)
}

/// Runs a story and returns the worlds at its end (up to `limit`), whether that is all
/// of them, the verdicts of its checks and hints, and what it printed.
#[pyfunction]
#[pyo3(signature = (name, source, sets, seed, backend, timeout, limit))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn run<'py>(
    py: Python<'py>,
    name: String,
    source: String,
    sets: Vec<(String, i64)>,
    seed: u64,
    backend: &str,
    timeout: Option<f64>,
    limit: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let request = Request::new(name, source, sets, seed, backend, timeout)?;
    let out = solve(py, move |cancel| run_story(&request, limit, cancel))?
        .map_err(|e| e.into_pyerr(py))?;
    let before = match &out.before {
        Some(b) => py_worlds(py, b)?.into_any(),
        None => py.None().into_bound(py),
    };
    dict(
        py,
        vec![
            ("constants", any(py, &out.constants)?),
            ("checkpoints", any(py, &out.checkpoints)?),
            ("backend", any(py, out.backend)?),
            ("worlds", py_worlds(py, &out.worlds)?.into_any()),
            ("before", before),
            ("complete", any(py, out.complete)?),
            ("no_worlds", any(py, &out.no_worlds)?),
            ("checks", py_checks(py, &out.events.checks)?.into_any()),
            ("events", py_events(py, &out.events.printed)?.into_any()),
        ],
    )
}

/// One step of a trace.
struct StepOut {
    line: Option<usize>,
    statement: String,
    /// How the trace names the step (`line 26, round 3: repeat …`).
    label: String,
    round: Option<u64>,
    /// An event without an actual world: which cases each character tells apart.
    sees: Vec<String>,
    count: Count,
    worlds: Option<Vec<Vec<Out>>>,
    changed: Option<bool>,
    removed: Option<u64>,
    eliminated: Option<Vec<Vec<Out>>>,
    /// What the characters the statement asks about believe: who, whether in the actual
    /// world, the worlds they cannot tell apart, those they find most plausible.
    beliefs: Vec<BeliefOut>,
}

type BeliefOut = (String, bool, Vec<Vec<Out>>, Vec<Vec<Out>>);

/// After which line the worlds were followed, and each world with the line of the step
/// that eliminated it and the trace's name of that step.
type Fates = (
    Option<usize>,
    Vec<(Vec<Out>, Option<usize>, Option<String>)>,
);

struct TraceOut {
    constants: Vec<(String, String)>,
    steps: Vec<StepOut>,
    events: Events,
    /// After which line the worlds were followed (None: the start), and each world with
    /// the line of the statement that eliminated it.
    fates: Option<Fates>,
}

fn trace_story(request: &Request, limit: usize, cancel: &Cancel) -> Result<TraceOut, Located> {
    let story = request.compile(request.deadline())?;
    let options = Options {
        keep_refuted_hints: true,
        ..request.options(cancel)
    };
    let mut locator = Locator::default();
    let mut steps = Vec::new();
    let mut events = Events::default();
    let program = story.program.clone();
    let step_out = |s: &TraceStep| StepOut {
        line: s.span.map(|span| story.line(span)),
        statement: s
            .span
            .map_or_else(|| "start".to_string(), |span| story.statement(span)),
        label: story.step_label(s),
        round: s.round,
        sees: s.sees.clone(),
        count: s.count.into(),
        worlds: s.worlds.as_ref().map(|w| convert::worlds(&program, w)),
        changed: s.changed,
        removed: s.removed,
        eliminated: s.eliminated.as_ref().map(|w| convert::worlds(&program, w)),
        beliefs: s
            .beliefs
            .iter()
            .map(|b| {
                (
                    program.characters[b.who.0].name.clone(),
                    b.actual,
                    convert::worlds(&program, &b.class),
                    convert::worlds(&program, &b.believed),
                )
            })
            .collect(),
    };
    let (_, fates) = story
        .trace_run(
            &options,
            &mut locator,
            Tracer::new(limit),
            &mut |traced| match traced {
                Traced::Step(step) => steps.push(step_out(step)),
                Traced::Report(event) => events.take(&story, event),
            },
        )
        .map_err(|f| locator.locate(&story, f))?;
    let fates = fates.map(|f| {
        (
            f.since.map(|s| story.line(s)),
            f.worlds
                .iter()
                .map(|(w, by)| {
                    (
                        convert::world(&program, w),
                        by.as_ref().map(|p| story.line(p.span)),
                        by.as_ref().map(|p| story.place_label(p)),
                    )
                })
                .collect(),
        )
    });
    Ok(TraceOut {
        constants: convert::constants(&program),
        steps,
        events,
        fates,
    })
}

/// Runs a story statement by statement: the worlds after each statement (listed when at
/// most `limit`), what it printed, and which statement eliminated each world.
#[pyfunction]
#[pyo3(signature = (name, source, sets, seed, backend, timeout, limit))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn trace<'py>(
    py: Python<'py>,
    name: String,
    source: String,
    sets: Vec<(String, i64)>,
    seed: u64,
    backend: &str,
    timeout: Option<f64>,
    limit: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let request = Request::new(name, source, sets, seed, backend, timeout)?;
    let out = solve(py, move |cancel| trace_story(&request, limit, cancel))?
        .map_err(|e| e.into_pyerr(py))?;
    let optional = |ws: &Option<Vec<Vec<Out>>>| -> PyResult<Bound<'py, PyAny>> {
        Ok(match ws {
            Some(ws) => py_worlds(py, ws)?.into_any(),
            None => py.None().into_bound(py),
        })
    };
    let steps = PyList::empty(py);
    for s in &out.steps {
        let beliefs = PyList::empty(py);
        for (who, actual, class, believed) in &s.beliefs {
            beliefs.append(dict(
                py,
                vec![
                    ("who", any(py, who)?),
                    ("actual", any(py, actual)?),
                    ("worlds", py_worlds(py, class)?.into_any()),
                    ("believed", py_worlds(py, believed)?.into_any()),
                ],
            )?)?;
        }
        steps.append(dict(
            py,
            vec![
                ("line", any(py, s.line)?),
                ("statement", any(py, &s.statement)?),
                ("label", any(py, &s.label)?),
                ("round", any(py, s.round)?),
                ("sees", any(py, &s.sees)?),
                ("count", any(py, &s.count)?),
                ("worlds", optional(&s.worlds)?),
                ("changed", any(py, s.changed)?),
                ("removed", any(py, s.removed)?),
                ("eliminated", optional(&s.eliminated)?),
                ("beliefs", beliefs.into_any()),
            ],
        )?)?;
    }
    let fates = match &out.fates {
        None => py.None().into_bound(py),
        Some((since, worlds)) => {
            let list = PyList::empty(py);
            for (w, by, label) in worlds {
                list.append((pyo3::types::PyTuple::new(py, w)?, by, label))?;
            }
            dict(
                py,
                vec![("since", any(py, since)?), ("worlds", list.into_any())],
            )?
            .into_any()
        }
    };
    dict(
        py,
        vec![
            ("constants", any(py, &out.constants)?),
            ("steps", steps.into_any()),
            ("checks", py_checks(py, &out.events.checks)?.into_any()),
            ("events", py_events(py, &out.events.printed)?.into_any()),
            ("fates", fates),
        ],
    )
}

struct ModelOut {
    title: String,
    characters: Vec<String>,
    constants: Vec<(String, String)>,
    worlds: Vec<Vec<Out>>,
    edges: Vec<(usize, usize, Vec<String>)>,
    /// Belief: (from, to, who) for each world a character finds most plausible among
    /// those it cannot tell from `from`.
    beliefs: Vec<(usize, usize, Vec<String>)>,
    svg: String,
}

fn model_story(request: &Request, at: Option<&str>, cancel: &Cancel) -> Result<ModelOut, Located> {
    let story = request.compile(request.deadline())?;
    let options = Options {
        skip_worlds_statements: true,
        keep_refuted_hints: true,
        ..request.options(cancel)
    };
    let checkpoint = story
        .checkpoint(at)
        .map_err(|f| Located::new(f, &story.path, &story.source, None))?;
    let mut locator = Locator::default();
    let mut engine = story
        .run_watched(&options, &mut locator, &mut |_| {}, &mut |_, _| Ok(()))
        .map_err(|f| locator.locate(&story, f))?;
    let span = match checkpoint {
        Some(c) => story.program.checkpoints[c.0].span,
        None => story.end(),
    };
    let (model, title) = story
        .model(&mut engine, checkpoint)
        .map_err(|f| Located::new(f, &story.path, &story.source, Some(span)))?;
    let program = &story.program;
    let name = |c: &epipen::ir::CharId| program.characters[c.0].name.clone();
    Ok(ModelOut {
        svg: svg(program, &model, &title, epipen::explore::svg::WIDTH),
        characters: program.characters.iter().map(|c| c.name.clone()).collect(),
        constants: convert::constants(program),
        worlds: convert::worlds(program, &model.worlds),
        edges: edges(&model)
            .iter()
            .map(|e| (e.a, e.b, e.who.iter().map(name).collect()))
            .collect(),
        beliefs: arrows(&model)
            .iter()
            .map(|a| (a.from, a.to, a.who.iter().map(name).collect()))
            .collect(),
        title,
    })
}

/// The epistemic model at checkpoint `at` (None: the end): its worlds, which
/// characters cannot tell which apart, and its picture.
#[pyfunction]
#[pyo3(signature = (name, source, sets, seed, backend, timeout, at))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn model<'py>(
    py: Python<'py>,
    name: String,
    source: String,
    sets: Vec<(String, i64)>,
    seed: u64,
    backend: &str,
    timeout: Option<f64>,
    at: Option<String>,
) -> PyResult<Bound<'py, PyDict>> {
    let request = Request::new(name, source, sets, seed, backend, timeout)?;
    let out = solve(py, move |cancel| {
        model_story(&request, at.as_deref(), cancel)
    })?
    .map_err(|e| e.into_pyerr(py))?;
    dict(
        py,
        vec![
            ("title", any(py, &out.title)?),
            ("characters", any(py, &out.characters)?),
            ("constants", any(py, &out.constants)?),
            ("worlds", py_worlds(py, &out.worlds)?.into_any()),
            ("edges", any(py, &out.edges)?),
            ("beliefs", any(py, &out.beliefs)?),
            ("svg", any(py, &out.svg)?),
        ],
    )
}
