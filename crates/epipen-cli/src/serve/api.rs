//! The playground's JSON API. The page posts a story and its settings; a solve answers
//! with status 200 and `exit_code` 0, 1 or 2 as `epipen` would exit, the CLI's own text
//! for an error (`error.message`, with `error.locations` parsed from it for the editor),
//! and the data the CLI prints (`run --trace --json`'s steps and events, the worlds, the
//! graph). A request the API cannot take gets a 4xx or 5xx status and `{"error": …}`.
//!
//! - `GET /api/stories`: `[{"file", "title", "group", "source"}]`, the stories of
//!   `stories/` (`group` `Stories`), then the example files of `examples/smcdel/`
//!   (`SMCDEL files`) and of `examples/mastar/` (`mA* files`).
//! - `GET /api/version`: `{"epipen", "z3"}`.
//! - `POST /api/run` ([`Request`]): `consts`, `checkpoints`, `events` (the names of the
//!   story's events and actions, whose event models `/api/event` draws), `samples`, `trace`, `hints`,
//!   then `backend`, `worlds` (`{"list", "complete"}`) and `fates` (as `run --trace
//!   --json`'s last line, or null). A check that fails (a trace item of `kind` `check`
//!   with `holds` false, and the `world` where it fails) or a hint refuted makes
//!   `exit_code` 1, as `epipen run` and `epipen check` exit; the run goes on past it,
//!   so that every verdict shows. In a story with chances each listed world (of
//!   `worlds` and of the steps) carries its `"probability": "1/3"`; a `show` is a trace
//!   item of `kind` `show` (`expression`, `probability`, `value` or `values`, `text`).
//!   A `plan` is a trace item of `kind` `plan` (`solvable`, `length`, `plans`: each
//!   plan's actions by name, `text`); one that found none makes `exit_code` 1 too.
//!   A file in SMCDEL's format (its first word `VARS`) is answered as `epipen smcdel`
//!   answers it: `smcdel` (`{"jobs", "text"}`), and a trace item of `kind` `smcdel`
//!   per job. A file in mA* (its first word `fluent`, `action` or `agent`, its
//!   statements ended by `;`) is answered as `epipen plan` answers it, its story run as
//!   a story is: `mastar` (`{"solvable", "length", "plan", "text"}`, the text the CLI
//!   prints), and one trace item, the plan's (`kind` `plan`, on the line of the file's
//!   first `goal`, its actions named as the file names them, and `step`: the trace step
//!   to ask `/api/graph` for its steps' models with); exit code 1 when there is no
//!   plan, 2 with the file's mistakes located in it.
//! - `POST /api/graph` ([`Request`] with `at`, or `step`, or `step` and `plan_step`):
//!   `title`, `characters`, `worlds`, `actual` (the actual world: an index into
//!   `worlds`, or null), `edges` (`{"a", "b", "who"}`: indices into `worlds`, names of
//!   characters), `beliefs` (`{"from", "to", "who"}`), `plausible` (`{"who",
//!   "worlds"}`: for each character whose plausibility is not flat, the worlds it finds
//!   most plausible among those it cannot tell from them; left out when there is none)
//!   and, in a story with chances, `probabilities` (each world's, `"1/3"`). With
//!   `step`, the model after that step of the trace `/api/run` answers with the same
//!   request (its `limit` too): the index among the trace's items of `kind` `step` (0:
//!   the start; each round of a `repeat` is one). With `plan_step` too, `step` is a
//!   top-level `plan` statement's (the trace's item of `kind` `plan` comes just before
//!   it), and the model is the one after step `plan_step` of the first plan it found
//!   (1: after its first action, each action at the first of its cases that can happen
//!   at the actual world; 0: before it), titled `door-mat.story after line 29's plan,
//!   step 2 (try_take): 1 world`. A step that is not a `plan`'s, or a plan that found
//!   none or has fewer steps, is an error (`exit_code` 2); `plan_step` without `step`
//!   is refused (400). For an mA* file: without `step`, the initial state (`…txt at
//!   the start: 3 worlds`); with `step` and `plan_step`, the model after that step of
//!   its plan (`coin-in-the-box.txt after step 2 of the plan (unlock): 9 worlds`).
//!   Each edge of `edges` and each world is drawn where `layout` says (the one layout
//!   of every front end, `epipen graph --svg`'s too): `{"radius", "width", "height",
//!   "points", "labels", "parts", "sep"}`, each world's centre (`points`) and each
//!   edge's label's (`labels`) in pixels from the top left corner, the values drawn in
//!   each world (`parts`, joined by `sep`).
//! - `POST /api/event` ([`Request`] with `event`): the event model of the story's event
//!   named `event`, as `epipen graph --event NAME` draws it: `/api/graph`'s fields, its
//!   worlds being the event's cases (`{"case": name}`) and its edges the cases each
//!   character cannot tell apart. Without `event`: refused (400).
//! - `POST /api/ask` ([`Request`] with `formulas`, and `at` or `step` or none for the
//!   end; `plan_step` is refused, 400):
//!   `/api/graph`'s model there, and `answers`: `[{"formula", "holds"}]`, for each
//!   formula whether it holds in each world of `worlds` (each a `where φ` line after the
//!   story's last line, run at that step; at a checkpoint, after its line). A formula
//!   that does not compile is an error of the story's (`exit_code` 2), at the line it
//!   was written on.
//! - `/api/ask` and `/api/event` take stories only: an SMCDEL or mA* file is an error
//!   (`exit_code` 2) that says so; `/api/graph` draws no SMCDEL file, and says so.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State as Extract;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{State, error, solve};
use epipen::engine::{Options, Strategy};
use epipen::explore::trace::Tracer;
use epipen::mastar::{MastarFile, MastarPlan};
use epipen::session::{Traced, Unwatched};
use epipen::syntax::ast::StmtKind;
use epipen::text::{step_with_text, with_text};
use epipen::worlds::Model;

use crate::story::{Failure, Story};
use epipen::syntax::ast::Backend;

/// `stories/*.story` by file name, compiled in (listed by build.rs).
const STORIES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/stories.rs"));

/// `examples/smcdel/*.smcdel.txt` by file name, compiled in (listed by build.rs).
const SMCDEL_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/smcdel_files.rs"));

/// `examples/mastar/*.txt` by file name, compiled in (listed by build.rs).
const MASTAR_FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/mastar_files.rs"));

/// The menu's groups, in its order: each group's name and its files.
const MENU: &[(&str, &[(&str, &str)])] = &[
    ("Stories", STORIES),
    ("SMCDEL files", SMCDEL_FILES),
    ("mA* files", MASTAR_FILES),
];

/// The most worlds a request may ask to see listed.
const MAX_LIMIT: usize = 1000;

/// The trace follows the worlds (says what eliminated each) from when there are at most
/// this many, as many as a graph shows: a table the page can show, and few enough for Z3
/// to list quickly (`run --trace` follows up to [`epipen::explore::trace::TRACK_CAP`]).
const FOLLOWED: usize = epipen::explore::graph::GRAPH_CAP;

/// What `/api/run` and `/api/graph` take.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Request {
    /// The story's text.
    source: String,
    /// The file name messages give the story (`cheryl.story`).
    #[serde(default = "default_name")]
    name: String,
    /// `--set NAME=VALUE`s.
    #[serde(default)]
    sets: BTreeMap<String, i64>,
    /// `--seed`.
    #[serde(default)]
    seed: u64,
    /// `--backend`.
    #[serde(default)]
    backend: Backend,
    /// How many worlds to list, after each statement and at the end.
    #[serde(default = "default_limit")]
    limit: usize,
    /// Seconds the solve may take, at most the server's `--timeout`.
    timeout: Option<f64>,
    /// `/api/graph`: the checkpoint whose model to draw (none: the end).
    at: Option<String>,
    /// `/api/graph`: the step of the trace after which to draw the model (its index
    /// among the trace's steps; 0: the start), instead of a checkpoint.
    step: Option<usize>,
    /// `/api/graph`: with `step` (a `plan` statement's), the step of the first plan it
    /// found after which to draw the model (0: before its first action).
    plan_step: Option<usize>,
    /// `/api/ask`: the formulas asked.
    #[serde(default)]
    formulas: Vec<String>,
    /// `/api/event`: the event whose model to draw.
    event: Option<String>,
}

fn default_name() -> String {
    "story".into()
}

fn default_limit() -> usize {
    20
}

impl Request {
    /// The request, or why the API refuses it: the status and the reason.
    fn checked(
        body: Result<Json<Request>, JsonRejection>,
    ) -> Result<Request, (StatusCode, String)> {
        let Json(request) = body.map_err(|e| (e.status(), e.body_text()))?;
        let bad = |why: String| Err((StatusCode::BAD_REQUEST, why));
        if request.name.is_empty()
            || request.name.chars().count() > 200
            || request.name.contains(char::is_control)
        {
            return bad("`name` must be a file name of 1 to 200 characters".into());
        }
        if !(1..=MAX_LIMIT).contains(&request.limit) {
            return bad(format!("`limit` must be from 1 to {MAX_LIMIT}"));
        }
        if let Some(t) = request.timeout
            && !(t > 0.0 && t.is_finite())
        {
            return bad("`timeout` must be a positive number of seconds".into());
        }
        if request.at.is_some() && request.step.is_some() {
            return bad("`at` and `step` name two models: give one of them".into());
        }
        if request.plan_step.is_some() && request.step.is_none() {
            return bad("`plan_step` needs `step`: the trace step of the `plan` statement".into());
        }
        Ok(request)
    }

    /// The time the solve may take: the request's, within the server's (a request's
    /// beyond what a `Duration` holds is the server's).
    fn time_limit(&self, state: &State) -> Duration {
        let asked = self
            .timeout
            .and_then(|t| Duration::try_from_secs_f64(t).ok());
        asked.map_or(state.timeout, |t| t.min(state.timeout))
    }

    /// The story compiled with the request's settings; its runs stop at `limit`.
    fn compile(&self, limit: Duration) -> Result<Story, Failure> {
        self.compile_source(self.source.clone(), limit)
    }

    /// `source` compiled with the request's settings; its runs stop at `limit`.
    fn compile_source(&self, source: String, limit: Duration) -> Result<Story, Failure> {
        let sets: Vec<(String, i64)> = self.sets.clone().into_iter().collect();
        let deadline = Instant::now() + limit;
        let mut story =
            Story::compile(self.name.clone(), source, &sets, self.seed, Some(deadline))?;
        story.progress = false;
        Ok(story)
    }

    /// The mA* file of the request read (its mistakes located in it, as `epipen plan`
    /// locates them), and its story compiled as `{name} (as a story)`; its runs stop at
    /// `limit`.
    fn compile_mastar(&self, limit: Duration) -> Result<(MastarFile, Story), Failure> {
        let deadline = Instant::now() + limit;
        let file = epipen::mastar::read(&self.name, &self.source, epipen::mastar::DEFAULT_MAX)?;
        let path = format!("{} (as a story)", self.name);
        let story = file.translation.story.clone();
        let mut story = Story::compile(path, story, &[], self.seed, Some(deadline))?;
        story.progress = false;
        Ok((file, story))
    }

    /// How the request's story runs: its backend, every hint kept.
    fn options(&self) -> Options {
        Options {
            strategy: Strategy::of(self.backend),
            keep_refuted_hints: true,
            ..Options::default()
        }
    }

    /// How an mA* file's story runs: as [`Request::options`], its plan's states kept as
    /// the mA* planners keep them (as `epipen plan` runs it).
    fn mastar_options(&self) -> Options {
        Options {
            plan_believed: true,
            ..self.options()
        }
    }
}

/// `GET /api/stories`
pub(super) async fn stories() -> Json<Value> {
    let stories: Vec<Value> = (MENU.iter())
        .flat_map(|(group, files)| {
            files.iter().map(move |(file, source)| {
                json!({ "file": file, "title": title(source), "group": group, "source": source })
            })
        })
        .collect();
    Json(stories.into())
}

/// A file's title: its first comment line (`#` in a story, `--` in SMCDEL's format, `%`
/// in mA*) up to a parenthesis or a full stop.
fn title(source: &str) -> String {
    let first = source
        .lines()
        .find_map(|l| {
            (l.strip_prefix('#'))
                .or_else(|| l.strip_prefix("--"))
                .or_else(|| l.strip_prefix('%'))
        })
        .unwrap_or("")
        .trim();
    let cut = [" (", ". "]
        .iter()
        .filter_map(|sep| first.find(sep))
        .min()
        .unwrap_or(first.len());
    first[..cut].trim_end_matches(['.', ',']).to_string()
}

/// `GET /api/version`
pub(super) async fn version() -> Json<Value> {
    Json(json!({ "epipen": env!("CARGO_PKG_VERSION"), "z3": epipen::z3_version() }))
}

/// `POST /api/run`
pub(super) async fn run(
    Extract(state): Extract<Arc<State>>,
    body: Result<Json<Request>, JsonRejection>,
) -> Response {
    answer(&state, body, run_story).await
}

/// `POST /api/graph`
pub(super) async fn graph(
    Extract(state): Extract<Arc<State>>,
    body: Result<Json<Request>, JsonRejection>,
) -> Response {
    answer(&state, body, graph_story).await
}

/// `POST /api/ask`
pub(super) async fn ask(
    Extract(state): Extract<Arc<State>>,
    body: Result<Json<Request>, JsonRejection>,
) -> Response {
    if let Ok(Json(request)) = &body
        && request.plan_step.is_some()
    {
        let why = "`/api/ask` takes `step` or `at` (none: the end), not `plan_step`";
        return error(StatusCode::BAD_REQUEST, why.into());
    }
    answer(&state, body, ask_story).await
}

/// `POST /api/event`
pub(super) async fn event(
    Extract(state): Extract<Arc<State>>,
    body: Result<Json<Request>, JsonRejection>,
) -> Response {
    if let Ok(Json(request)) = &body
        && request.event.is_none()
    {
        let why = "`/api/event` needs `event`: the name of the event to draw";
        return error(StatusCode::BAD_REQUEST, why.into());
    }
    answer(&state, body, event_story).await
}

/// Checks the request and answers it with `work`, a solve within its time limit.
async fn answer(
    state: &State,
    body: Result<Json<Request>, JsonRejection>,
    work: fn(&Request, Duration) -> Value,
) -> Response {
    let request = match Request::checked(body) {
        Ok(request) => request,
        Err((status, why)) => return error(status, why),
    };
    let limit = request.time_limit(state);
    let name = request.name.clone();
    solve(
        state,
        limit,
        move || work(&request, limit),
        move || timed_out(&name, limit),
    )
    .await
}

/// `epipen run --trace` with every hint checked (`epipen check`), and the worlds at the
/// end (`epipen worlds`).
fn run_story(request: &Request, limit: Duration) -> Value {
    if epipen::smcdel::recognised(&request.source) {
        return smcdel_file(request, limit);
    }
    if epipen::mastar::recognised(&request.source) {
        return mastar_file(request, limit);
    }
    let answer = json!({ "consts": consts(&request.source) });
    match request.compile(limit) {
        Ok(story) => run_compiled(request, &story, &request.options(), answer),
        Err(failure) => failed(answer, failure),
    }
}

/// [`run_story`]'s answer for `story`, compiled from the request, run with `options`:
/// `answer` with the rest of the fields.
fn run_compiled(request: &Request, story: &Story, options: &Options, mut answer: Value) -> Value {
    let program = &story.program;
    answer["checkpoints"] = program.checkpoints.iter().map(|c| c.name.clone()).collect();
    answer["samples"] = (!program.samples.is_empty()).into();
    answer["events"] = epipen::explore::event::names(program).into();
    let (mut trace, mut hints) = (Vec::new(), Vec::new());
    let outcome = story
        .trace_run(
            options,
            &mut Unwatched,
            Tracer::following(request.limit, FOLLOWED),
            &mut |item| match item {
                Traced::Step(step) => trace.push(step_with_text(&step)),
                Traced::Report(report) => match report.verdict() {
                    Some(v)
                        if matches!(report, epipen::views::Report::Hint(_))
                            && !v.trusted
                            && !v.vacuous =>
                    {
                        hints.push(with_text(v, epipen::text::verdict(v)));
                    }
                    _ => trace.push(with_text(&report, epipen::text::report(&report))),
                },
            },
        )
        .and_then(|(mut engine, fates)| {
            let set = story.final_worlds(&mut engine, request.limit as u64)?;
            let worlds = story.worlds(&mut engine, &set)?;
            Ok((engine.backend(), worlds, fates))
        });
    // A check that fails, a hint refuted or a plan that found none: exit code 1, as
    // `epipen run` and `epipen check` exit (the page goes on past it, and shows every
    // verdict and every plan).
    let refuted = (trace.iter())
        .filter(|t| t["kind"] == "check")
        .chain(&hints)
        .any(|t| t["holds"] == false)
        || (trace.iter()).any(|t| t["kind"] == "plan" && t["solvable"] == false);
    answer["trace"] = trace.into();
    answer["hints"] = hints.into();
    match outcome {
        Ok((backend, worlds, fates)) => {
            answer["exit_code"] = u8::from(refuted).into();
            answer["backend"] = backend.into();
            answer["worlds"] = with_text(
                &worlds,
                epipen::text::worlds(&worlds, "raise “list up to” to see more"),
            );
            answer["fates"] = fates.map_or(Value::Null, |f| {
                let fates = story.fates(&f);
                with_text(&fates, epipen::text::fates(&fates))
            });
            answer
        }
        Err(failure) => failed(answer, failure.into()),
    }
}

/// A pasted SMCDEL file (its first word is `VARS`): `epipen smcdel`'s answers, as
/// `smcdel` (the view with its text) and one trace item per job (`kind` `smcdel`, its
/// `line` and `text`); no worlds.
fn smcdel_file(request: &Request, limit: Duration) -> Value {
    let mut answer = json!({ "consts": [], "checkpoints": [], "samples": false, "hints": [] });
    let options = Options {
        strategy: Strategy::of(request.backend),
        deadline: Instant::now().checked_add(limit),
        ..Options::default()
    };
    let answered =
        epipen::smcdel::read(&request.name, &request.source).and_then(|file| file.answer(&options));
    match answered {
        Ok(answers) => {
            answer["exit_code"] = 0.into();
            answer["backend"] = request.backend.name().into();
            answer["trace"] = (answers.jobs.iter())
                .map(|job| {
                    let one = epipen::views::Smcdel {
                        jobs: vec![job.clone()],
                    };
                    json!({ "kind": "smcdel", "line": job.line, "text": epipen::text::smcdel(&one) })
                })
                .collect();
            answer["smcdel"] = with_text(&answers, epipen::text::smcdel(&answers));
            answer["worlds"] = json!({ "worlds": [], "complete": true, "text": "" });
            answer["fates"] = Value::Null;
            answer
        }
        Err(failure) => failed(answer, Failure::Run(failure)),
    }
}

/// An mA* file (recognised by [`epipen::mastar::recognised`]): its story run as
/// [`run_story`] runs a story, as `epipen plan` runs it, the answer then about the file:
/// `mastar` (`epipen plan --json`'s `{"solvable", "length", "plan"}` with the CLI's
/// `text`), and one trace item, the plan's (`kind` `plan`, on the line of the file's
/// first `goal`, the actions named as the file names them, with `step`: the trace step
/// of the story's `plan` statement, for `/api/graph`'s `step`); no worlds, checkpoints
/// or events. A mistake of the file is located in it; one of its story, in the story.
fn mastar_file(request: &Request, limit: Duration) -> Value {
    let answer = json!({ "consts": [] });
    let (file, story) = match request.compile_mastar(limit) {
        Ok(compiled) => compiled,
        Err(failure) => return in_the_file(failed(answer, failure), &request.name),
    };
    let mut answer = run_compiled(request, &story, &request.mastar_options(), answer);
    let trace = answer["trace"].take();
    let trace = trace.as_array().map_or(&[][..], Vec::as_slice);
    // The plan's item, and the number of the trace step its statement begins (the
    // plan's answer comes just before it).
    let steps_before = |k: usize| trace[..k].iter().filter(|t| t["kind"] == "step").count();
    let planned = (trace.iter().enumerate())
        .find(|(_, t)| t["kind"] == "plan")
        .map(|(k, t)| (steps_before(k), t));
    answer["trace"] = json!([]);
    if let Some((step, item)) = planned {
        let plans: Vec<Vec<String>> = (item["plans"].as_array().into_iter().flatten())
            .map(|plan| {
                (plan.as_array().into_iter().flatten())
                    .filter_map(Value::as_str)
                    .map(|action| file.written(action))
                    .collect()
            })
            .collect();
        let found = MastarPlan {
            solvable: item["solvable"] == true,
            length: item["length"].as_u64().map(|k| k as usize),
            plan: plans.first().cloned().unwrap_or_default(),
            max: file.max,
        };
        let text = found.to_string();
        answer["trace"] = json!([{
            "kind": "plan",
            "line": file.goal_line(),
            "solvable": found.solvable,
            "length": found.length,
            "plans": plans,
            "step": step,
            "text": text,
        }]);
        answer["mastar"] = with_text(&found, text);
    }
    let mut answer = in_the_file(answer, &request.name);
    answer["checkpoints"] = json!([]);
    answer["events"] = json!([]);
    answer["samples"] = false.into();
    answer["fates"] = Value::Null;
    if answer.get("worlds").is_some() {
        let text =
            "an mA* file: its plan is in the trace, the model after each of its steps beside";
        answer["worlds"] = json!({ "worlds": [], "complete": true, "text": text });
    }
    answer
}

/// `epipen graph --at CHECKPOINT`, as data for the page to draw; or the model after a
/// step of the trace, or after a step of a plan found.
fn graph_story(request: &Request, limit: Duration) -> Value {
    if epipen::smcdel::recognised(&request.source) {
        let why = "an SMCDEL file has no model to draw: its answers are in the trace";
        return failed(json!({}), no_story(request, why));
    }
    if epipen::mastar::recognised(&request.source) {
        return mastar_graph(request, limit);
    }
    let drawn = request.compile(limit).and_then(|story| {
        let (model, title, actual) = draw(request, &story, &request.options())?;
        let mut value =
            serde_json::to_value(story.model_view(&model, title, actual)).expect("views serialise");
        value["exit_code"] = 0.into();
        Ok(value)
    });
    drawn.unwrap_or_else(|failure| failed(json!({}), failure))
}

/// The model `/api/graph` draws of `story` run with `options`: at the checkpoint `at`
/// (none: the end), after a step of the trace, or after a step of a plan found; its
/// title and the index of the actual world.
fn draw(
    request: &Request,
    story: &Story,
    options: &Options,
) -> Result<(Model, String, Option<usize>), Failure> {
    // The trace as `/api/run` makes it, its steps numbered alike.
    let tracer = || Tracer::following(request.limit, FOLLOWED);
    Ok(match (request.step, request.plan_step) {
        (Some(step), Some(plan_step)) => {
            story.model_after_plan(options, tracer(), step, plan_step)?
        }
        (Some(step), None) => story.model_after(options, tracer(), step)?,
        (None, _) => {
            let options = Options {
                skip_worlds_statements: true,
                ..options.clone()
            };
            let checkpoint = story.checkpoint(request.at.as_deref())?;
            let mut engine = story.run(&options, &mut |_| {})?;
            let (model, title) = story.model(&mut engine, checkpoint)?;
            let actual = story.actual_in(&engine, &model);
            (model, title, actual)
        }
    })
}

/// The model of an mA* file's story that `/api/graph` draws: at the end of its story
/// (which its `plan` statement leaves as it was: the initial state), titled
/// `coin-in-the-box.txt at the start: 3 worlds`; or after step `plan_step` of its plan,
/// titled `coin-in-the-box.txt after step 2 of the plan (unlock): 9 worlds`.
fn mastar_graph(request: &Request, limit: Duration) -> Value {
    let drawn = request.compile_mastar(limit).and_then(|(file, story)| {
        let (model, title, actual) = draw(request, &story, &request.mastar_options())?;
        let worlds = epipen::worlds::WorldCount::Exactly(model.worlds.len() as u64);
        let name = std::path::Path::new(&request.name)
            .file_name()
            .map_or(request.name.clone(), |f| f.to_string_lossy().into_owned());
        let title = match (request.step, request.plan_step, request.at.as_deref()) {
            (None, _, None) | (Some(_), Some(0), _) => format!("{name} at the start: {worlds}"),
            (Some(_), Some(k), _) => {
                // The action as the file names it: the story's, in the title's
                // parentheses (`… step 2 (unlock[1]): 9 worlds`).
                let action = (title.rsplit_once("): "))
                    .and_then(|(head, _)| head.rsplit_once(" ("))
                    .map(|(_, action)| format!(" ({})", file.written(action)))
                    .unwrap_or_default();
                format!("{name} after step {k} of the plan{action}: {worlds}")
            }
            _ => title,
        };
        let mut value =
            serde_json::to_value(story.model_view(&model, title, actual)).expect("views serialise");
        value["exit_code"] = 0.into();
        Ok(value)
    });
    drawn.unwrap_or_else(|failure| in_the_file(failed(json!({}), failure), &request.name))
}

/// `answer`, the places its failure points at kept for the editor when they are in the
/// file `name` (an mA* file's mistakes), dropped when they are in its story.
fn in_the_file(mut answer: Value, name: &str) -> Value {
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    if answer.get("error").is_some() && !message.starts_with(&format!("{name}:")) {
        answer["error"]["locations"] = json!([]);
    }
    answer
}

/// The failure of a request that `/api/ask` or `/api/event` takes for a story only (or
/// `/api/graph` for a file with models): the file in it is another's (SMCDEL's, mA*).
fn no_story(request: &Request, why: &str) -> Failure {
    let located = epipen::syntax::Located::nowhere(&request.name, why);
    Failure::Run(epipen::Failure::story(located))
}

/// Why `/api/ask` and `/api/event` answer no file but a story: None for a story.
fn not_a_story(request: &Request) -> Option<Value> {
    let why = if epipen::smcdel::recognised(&request.source) {
        "an SMCDEL file has no model to ask: its answers are in the trace"
    } else if epipen::mastar::recognised(&request.source) {
        "formulas are asked of stories, and events drawn of them: an mA* file's models \
         are drawn only (`epipen plan --story` prints its story)"
    } else {
        return None;
    };
    Some(failed(json!({}), no_story(request, why)))
}

/// The model after a step of the trace (or at the end), and where each formula asked
/// holds in its worlds.
fn ask_story(request: &Request, limit: Duration) -> Value {
    if let Some(refused) = not_a_story(request) {
        return refused;
    }
    let asked = request
        .compile(limit)
        .and_then(|story| Ok(story.asking(&request.formulas, request.at.as_deref())?))
        .and_then(|asked| {
            let story = request.compile_source(asked.source.clone(), limit)?;
            // The trace as `/api/run` makes it, its steps numbered alike.
            let tracer = || Tracer::following(request.limit, FOLLOWED);
            let (model, title, actual, holds) =
                story.answers(&request.options(), &tracer, request.step, &asked)?;
            let mut value = serde_json::to_value(story.model_view(&model, title, actual))
                .expect("views serialise");
            value["answers"] = (request.formulas.iter().zip(holds))
                .map(|(formula, holds)| json!({ "formula": formula.trim(), "holds": holds }))
                .collect();
            value["exit_code"] = 0.into();
            Ok(value)
        });
    asked.unwrap_or_else(|failure| failed(json!({}), failure))
}

/// The event model of the event `event` names.
fn event_story(request: &Request, limit: Duration) -> Value {
    if let Some(refused) = not_a_story(request) {
        return refused;
    }
    let drawn = request.compile(limit).and_then(|story| {
        let name = request.event.as_deref().unwrap_or_default();
        let model = story.event_view(name)?;
        let mut value = serde_json::to_value(model).expect("views serialise");
        value["exit_code"] = 0.into();
        Ok(value)
    });
    drawn.unwrap_or_else(|failure| failed(json!({}), failure))
}

/// `answer` with the failure's exit code, its text as the CLI prints it, and the places
/// it points at (`{"line", "column", "message"}`) for the editor.
fn failed(mut answer: Value, failure: Failure) -> Value {
    let failure = match failure {
        Failure::Run(failure) => crate::story::worded(failure),
        Failure::Quiet(code) => {
            answer["exit_code"] = code.into();
            answer["error"] = json!({ "message": "", "locations": [] });
            return answer;
        }
    };
    let locations: Vec<Value> = (failure.diagnostics.iter())
        .filter_map(|d| {
            let at = d.at.as_ref()?;
            Some(json!({ "line": at.line, "column": at.column, "message": d.message }))
        })
        .collect();
    answer["exit_code"] = failure.exit_code().into();
    answer["error"] = json!({ "message": epipen::text::failure(&failure), "locations": locations });
    answer
}

/// What a solve still running after its limit is told.
fn timed_out(path: &str, limit: Duration) -> Value {
    let message = format!(
        "{path}: ran out of time (timeout) after {:.1} s, and did not stop",
        limit.as_secs_f64()
    );
    let hint = "simplify the story, or run it with `epipen` and a longer --timeout";
    let located = epipen::syntax::Located::nowhere(path, message).with_hint(hint);
    failed(json!({}), epipen::Failure::solver(located).into())
}

/// The story's `const`s and the values it gives them, as written (none when it does not
/// parse).
fn consts(source: &str) -> Vec<Value> {
    let Ok(story) = epipen::syntax::parse(source) else {
        return Vec::new();
    };
    story
        .statements
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Const { name, value } => Some(json!({
                "name": name.name,
                "value": source[value.span.start..value.span.end],
            })),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_the_first_comment_up_to_a_parenthesis() {
        assert_eq!(
            title("# Cheryl's Birthday (the EpiPEn paper, §4.1).\n"),
            "Cheryl's Birthday"
        );
        assert_eq!(
            title("# Three logicians walk into a bar. The bartender asks\n"),
            "Three logicians walk into a bar"
        );
        assert_eq!(title("characters A\n"), "");
        assert_eq!(
            title("-- Public announcements ([! φ], <! φ>), of whether\nVARS 1\n"),
            "Public announcements"
        );
        assert_eq!(
            title("% A coin lies in a locked box; Anne holds the key. Bob\nfluent p;\n"),
            "A coin lies in a locked box; Anne holds the key"
        );
    }

    #[test]
    fn every_example_file_is_compiled_in_and_recognised() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for (dir, suffix, files) in [
            ("examples/smcdel", ".smcdel.txt", SMCDEL_FILES),
            ("examples/mastar", ".txt", MASTAR_FILES),
        ] {
            let mut on_disk: Vec<String> = std::fs::read_dir(root.join(dir))
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|f| f.ends_with(suffix))
                .collect();
            on_disk.sort();
            let listed: Vec<&str> = files.iter().map(|(f, _)| *f).collect();
            assert_eq!(listed, on_disk);
            assert!(!files.is_empty());
            for (file, source) in files {
                assert!(!title(source).is_empty(), "{file}");
                let smcdel = epipen::smcdel::recognised(source);
                let mastar = epipen::mastar::recognised(source);
                assert_eq!(
                    (smcdel, mastar),
                    (dir.ends_with("smcdel"), dir.ends_with("mastar")),
                    "{file}"
                );
            }
        }
    }

    #[test]
    fn every_story_is_compiled_in() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../stories");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(".story"))
            .collect();
        files.sort();
        let listed: Vec<&str> = STORIES.iter().map(|(f, _)| *f).collect();
        assert_eq!(listed, files);
        assert!(STORIES.iter().all(|(_, s)| !title(s).is_empty()));
    }
}
