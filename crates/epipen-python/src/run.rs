//! Story files run from Python: `run` (the worlds at the end, what the run reported,
//! the checks' verdicts), `trace` (the worlds after each statement) and `model` (the
//! epistemic model at a checkpoint), each compiled and run on a worker by
//! [`Session`], as the command line runs them. Each answers with the views (as Python
//! dicts and lists, [`convert::view`], which the package's classes wrap) and their text
//! as `epipen::text` renders it: the package's `str()` of a result is exactly what the
//! command line prints.

use std::time::{Duration, Instant};

use epipen::Session;
use epipen::engine::{Cancel, Options, Strategy};
use epipen::explore::svg::svg;
use epipen::explore::trace::Tracer;
use epipen::session::{Traced, Unwatched};
use epipen::syntax::ast::Backend;
use epipen::text::{self, with_text};
use epipen::views::Report;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value, json};

use crate::convert::{self, Located};
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
            deadline: self.deadline(),
            cancel: cancel.clone(),
            ..Options::default()
        }
    }

    /// When the run's time is up, counted from now.
    fn deadline(&self) -> Option<Instant> {
        self.timeout.and_then(|t| Instant::now().checked_add(t))
    }

    /// The story compiled, or its errors.
    fn compile(&self, deadline: Option<Instant>) -> Result<Session, Located> {
        Session::compile(
            self.name.clone(),
            self.source.clone(),
            &self.sets,
            self.seed,
            deadline,
        )
        .map_err(Located::new)
    }
}

/// `--backend`'s names.
pub(crate) fn strategy(backend: &str) -> PyResult<Strategy> {
    Backend::named(backend).map(Strategy::of).ok_or_else(|| {
        PyValueError::new_err(format!(
            "backend={backend:?}: the backends are \"auto\" (the default), \"z3\", \"bdd\" and \"explicit\""
        ))
    })
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

/// A report as serde data, with what `epipen run` prints of it (`text`) and, for a check or a
/// hint, `epipen check`'s line (`verdict`).
pub(crate) fn report_json(report: &Report) -> Value {
    let mut value = with_text(report, text::report(report));
    if let Some(v) = report.verdict() {
        value["verdict"] = text::verdict(v).into();
        value["vacuous_reason"] = v
            .vacuous
            .then(|| text::vacuous_reason(v.left_none.as_ref()))
            .into();
        value["detail"] = match (&v.world, &v.counterexample) {
            (Some(w), _) => Some(format!(
                "it is false in the possible world {}",
                text::failing_world(w, &v.found)
            )),
            (_, Some(c)) => Some(format!("counterexample: {c}")),
            _ => None,
        }
        .into();
    }
    value
}

/// The story's constants and checkpoints.
fn story_json(story: &Session) -> Value {
    let program = &story.program;
    json!({
        "constants": convert::constants(program),
        "checkpoints": program.checkpoints.iter().map(|c| c.name.clone()).collect::<Vec<_>>(),
    })
}

fn run_story(request: &Request, limit: u64, cancel: &Cancel) -> Result<Value, Located> {
    let story = request.compile(request.deadline())?;
    let options = Options {
        keep_refuted_hints: true,
        ..request.options(cancel)
    };
    let mut reports = Vec::new();
    let mut engine = story
        .run(&options, &mut |report| reports.push(report))
        .map_err(Located::new)?;
    let set = story
        .final_worlds(&mut engine, limit)
        .map_err(Located::new)?;
    let worlds = story.worlds(&mut engine, &set).map_err(Located::new)?;
    let printed: String = (reports.iter())
        .filter(|r| r.printed_by_run())
        .map(text::report)
        .collect();
    let mut answer = story_json(&story);
    answer["backend"] = engine.backend().into();
    answer["worlds"] = with_text(&worlds, text::worlds(&worlds, "raise limit= to see more"));
    answer["reports"] = reports.iter().map(report_json).collect();
    answer["text"] = printed.into();
    Ok(answer)
}

/// Runs a story and returns  the worlds at its end (up to `limit`), what it
/// reported (its printed output and its checks' and hints' verdicts), with their text.
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
) -> PyResult<Bound<'py, PyAny>> {
    let request = Request::new(name, source, sets, seed, backend, timeout)?;
    solve(py, move |cancel| run_story(&request, limit, cancel))?
        .map_err(|e| e.into_pyerr(py))
        .and_then(|answer| convert::view(py, &answer))
}

fn trace_story(request: &Request, limit: usize, cancel: &Cancel) -> Result<Value, Located> {
    let story = request.compile(request.deadline())?;
    let options = Options {
        keep_refuted_hints: true,
        ..request.options(cancel)
    };
    let (mut steps, mut reports, mut printed) = (Vec::new(), Vec::new(), String::new());
    let (_, fates) = story
        .trace_run(
            &options,
            &mut Unwatched,
            Tracer::new(limit),
            &mut |traced| match traced {
                Traced::Step(step) => {
                    let value = text::step_with_text(&step);
                    printed.push_str(value["text"].as_str().unwrap_or_default());
                    steps.push(value);
                }
                Traced::Report(report) => {
                    if report.printed_by_run() {
                        printed.push_str(&text::report(&report));
                    }
                    reports.push(report_json(&report));
                }
            },
        )
        .map_err(Located::new)?;
    let fates = fates.map(|f| {
        let fates = story.fates(&f);
        let shown = text::fates_listed(&fates, "the trace's `fates` lists them");
        printed.push_str(&shown);
        with_text(&fates, shown)
    });
    let mut answer = story_json(&story);
    answer["steps"] = steps.into();
    answer["reports"] = reports.into();
    answer["fates"] = fates.into();
    answer["text"] = printed.into();
    Ok(answer)
}

/// Runs a story statement by statement and returns  the worlds after each
/// statement (listed when at most `limit`), what it reported, which statement
/// eliminated each world, and the whole trace's text as `epipen run --trace` prints it.
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
) -> PyResult<Bound<'py, PyAny>> {
    let request = Request::new(name, source, sets, seed, backend, timeout)?;
    solve(py, move |cancel| trace_story(&request, limit, cancel))?
        .map_err(|e| e.into_pyerr(py))
        .and_then(|answer| convert::view(py, &answer))
}

fn model_story(request: &Request, at: Option<&str>, cancel: &Cancel) -> Result<Value, Located> {
    let story = request.compile(request.deadline())?;
    let options = Options {
        skip_worlds_statements: true,
        keep_refuted_hints: true,
        ..request.options(cancel)
    };
    let checkpoint = story.checkpoint(at).map_err(Located::new)?;
    let mut engine = story.run(&options, &mut |_| {}).map_err(Located::new)?;
    let (model, title) = story.model(&mut engine, checkpoint).map_err(Located::new)?;
    let actual = story.actual_in(&engine, &model);
    let picture = svg(
        &story.program,
        &model,
        actual,
        &title,
        epipen::explore::svg::WIDTH,
    );
    let mut answer =
        serde_json::to_value(story.model_view(&model, title, actual)).expect("views serialise");
    answer["constants"] = json!(convert::constants(&story.program));
    answer["svg"] = picture.into();
    Ok(answer)
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
) -> PyResult<Bound<'py, PyAny>> {
    let request = Request::new(name, source, sets, seed, backend, timeout)?;
    solve(py, move |cancel| {
        model_story(&request, at.as_deref(), cancel)
    })?
    .map_err(|e| e.into_pyerr(py))
    .and_then(|answer| convert::view(py, &answer))
}

fn smcdel_file(request: &Request, cancel: &Cancel) -> Result<Value, Located> {
    let file = epipen::smcdel::read(&request.name, &request.source).map_err(Located::new)?;
    let answers = file
        .answer(&request.options(cancel))
        .map_err(Located::new)?;
    let mut value = with_text(&answers, text::smcdel(&answers));
    // What the view leaves out (it is the text's): each job's formula as written and
    // `TRUE?`'s state.
    for (json, job) in (value["jobs"].as_array_mut().into_iter().flatten()).zip(&answers.jobs) {
        json["formula"] = job.formula.clone().into();
        if job.kind == epipen::views::SmcdelKind::True {
            json["state"] = job.state.clone().into();
        }
    }
    value["story"] = file.translation.story.into();
    Ok(value)
}

/// Answers the jobs of a file in SMCDEL's text format (`epipen smcdel`) and returns  `{"jobs": [...], "text": ..., "story": ...}`.
#[pyfunction]
#[pyo3(signature = (name, source, backend, timeout))]
pub(crate) fn smcdel<'py>(
    py: Python<'py>,
    name: String,
    source: String,
    backend: &str,
    timeout: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = Request::new(name, source, Vec::new(), 0, backend, timeout)?;
    solve(py, move |cancel| smcdel_file(&request, cancel))?
        .map_err(|e| e.into_pyerr(py))
        .and_then(|answer| convert::view(py, &answer))
}

fn mastar_file(request: &Request, max: usize, cancel: &Cancel) -> Result<Value, Located> {
    let file = epipen::mastar::read(&request.name, &request.source, max).map_err(Located::new)?;
    let found = file.plan(&request.options(cancel)).map_err(Located::new)?;
    let mut value = serde_json::to_value(&found).expect("views serialise");
    value["text"] = found.to_string().into();
    value["story"] = file.translation.story.into();
    Ok(value)
}

/// Plans for an mA* file (`epipen plan`) and returns  `{"solvable": …,
/// "length": …, "plan": [...], "text": ..., "story": ...}`.
#[pyfunction]
#[pyo3(signature = (name, source, max, backend, timeout))]
pub(crate) fn mastar_plan<'py>(
    py: Python<'py>,
    name: String,
    source: String,
    max: usize,
    backend: &str,
    timeout: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let request = Request::new(name, source, Vec::new(), 0, backend, timeout)?;
    solve(py, move |cancel| mastar_file(&request, max, cancel))?
        .map_err(|e| e.into_pyerr(py))
        .and_then(|answer| convert::view(py, &answer))
}
