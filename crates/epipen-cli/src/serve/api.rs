//! The playground's JSON API. The page posts a story and its settings; a solve answers
//! with status 200 and `exit_code` 0, 1 or 2 as `epipen` would exit, the CLI's own text
//! for an error (`error.message`, with `error.locations` parsed from it for the editor),
//! and the data the CLI prints (`run --trace --json`'s steps and events, the worlds, the
//! graph). A request the API cannot take gets a 4xx or 5xx status and `{"error": …}`.
//!
//! - `GET /api/stories`: `[{"file", "title", "source"}]`, the stories of `stories/`.
//! - `GET /api/version`: `{"epipen", "z3"}`.
//! - `POST /api/run` ([`Request`]): `consts`, `checkpoints`, `samples`, `trace`, `hints`,
//!   then `backend`, `worlds` (`{"list", "complete"}`) and `fates` (as `run --trace
//!   --json`'s last line, or null).
//! - `POST /api/graph` ([`Request`] with `at`): `title`, `characters`, `worlds`, `edges`
//!   (`{"a", "b", "who"}`: indices into `worlds`, names of characters).

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
use epipen::compiled::{Traced, Unwatched};
use epipen::engine::{Options, Report};
use epipen::explore::graph::{arrows, edges};
use epipen::explore::trace::Tracer;
use epipen::syntax::ast::StmtKind;

use crate::backend::Backend;
use crate::story::{Failure, Story};

/// `stories/*.story` by file name, compiled in (listed by build.rs).
const STORIES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/stories.rs"));

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
        Ok(request)
    }

    /// The time the solve may take: the request's, within the server's.
    fn time_limit(&self, state: &State) -> Duration {
        self.timeout.map_or(state.timeout, |t| {
            Duration::from_secs_f64(t).min(state.timeout)
        })
    }

    /// The story compiled with the request's settings; its runs stop at `limit`.
    fn compile(&self, limit: Duration) -> Result<Story, Failure> {
        let sets: Vec<(String, i64)> = self.sets.clone().into_iter().collect();
        let deadline = Instant::now() + limit;
        let mut story = Story::compile(
            self.name.clone(),
            self.source.clone(),
            &sets,
            self.seed,
            Some(deadline),
        )?;
        story.progress = false;
        Ok(story)
    }
}

/// `GET /api/stories`
pub(super) async fn stories() -> Json<Value> {
    let stories: Vec<Value> = STORIES
        .iter()
        .map(|(file, source)| json!({ "file": file, "title": title(source), "source": source }))
        .collect();
    Json(stories.into())
}

/// A story's title: its first comment line up to a parenthesis or a full stop.
fn title(source: &str) -> String {
    let first = source
        .lines()
        .find_map(|l| l.strip_prefix('#'))
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
    let mut answer = json!({ "consts": consts(&request.source) });
    let story = match request.compile(limit) {
        Ok(story) => story,
        Err(failure) => return failed(answer, &request.name, failure),
    };
    let program = &story.program;
    answer["checkpoints"] = program.checkpoints.iter().map(|c| c.name.clone()).collect();
    answer["samples"] = (!program.samples.is_empty()).into();
    let options = Options {
        strategy: request.backend.strategy(),
        keep_refuted_hints: true,
        ..Options::default()
    };
    let (mut trace, mut hints) = (Vec::new(), Vec::new());
    let outcome = story
        .trace_run(
            &options,
            &mut Unwatched,
            Tracer::following(request.limit, FOLLOWED),
            &mut |item| match item {
                Traced::Step(step) => trace.push(story.step_json(step)),
                Traced::Report(event) => {
                    if let Some(line) = story.event_json(event) {
                        trace.push(line);
                    } else if let Some(verdict) = verdict_json(&story, event) {
                        hints.push(verdict);
                    }
                }
            },
        )
        .and_then(|(mut engine, fates)| {
            let set = story.final_worlds(&mut engine, request.limit as u64)?;
            // With no world: the line `epipen worlds` prints, naming the statement that
            // left none.
            let none = match set.worlds.is_empty() && set.complete {
                true => story
                    .worlds_text(&mut engine, &set, "")?
                    .lines()
                    .next()
                    .map(String::from),
                false => None,
            };
            Ok((engine.backend(), set, fates, none))
        });
    answer["trace"] = trace.into();
    answer["hints"] = hints.into();
    match outcome {
        Ok((backend, set, fates, none)) => {
            answer["exit_code"] = 0.into();
            answer["backend"] = backend.into();
            answer["worlds"] = json!({
                "list": story.worlds_value(&set.worlds),
                "complete": set.complete,
            });
            if let Some(none) = none {
                answer["worlds"]["none"] = none.into();
            }
            answer["fates"] = fates.map_or(Value::Null, |f| story.fates_json(&f));
            answer
        }
        Err(failure) => failed(answer, &story.path, failure.into()),
    }
}

/// `epipen graph --at CHECKPOINT`, as data for the page to draw.
fn graph_story(request: &Request, limit: Duration) -> Value {
    let drawn = request.compile(limit).and_then(|story| {
        let options = Options {
            strategy: request.backend.strategy(),
            keep_refuted_hints: true,
            skip_worlds_statements: true,
            ..Options::default()
        };
        let checkpoint = story.checkpoint(request.at.as_deref())?;
        let mut engine = story.run(&options, &mut |_| {})?;
        let (model, title) = story.model(&mut engine, checkpoint)?;
        let program = &story.program;
        let names = |who: &[epipen::ir::CharId]| -> Vec<String> {
            who.iter()
                .map(|c| program.characters[c.0].name.clone())
                .collect()
        };
        let all: Vec<_> = (0..program.characters.len())
            .map(epipen::ir::CharId)
            .collect();
        Ok(json!({
            "exit_code": 0,
            "title": title,
            "characters": names(&all),
            "worlds": story.worlds_value(&model.worlds),
            "edges": edges(&model)
                .iter()
                .map(|e| json!({ "a": e.a, "b": e.b, "who": names(&e.who) }))
                .collect::<Vec<_>>(),
            "beliefs": arrows(&model)
                .iter()
                .map(|a| json!({ "from": a.from, "to": a.to, "who": names(&a.who) }))
                .collect::<Vec<_>>(),
        }))
    });
    drawn.unwrap_or_else(|failure| failed(json!({}), &request.name, failure))
}

/// `answer` with the failure's exit code and its text as the CLI prints it.
fn failed(mut answer: Value, path: &str, failure: Failure) -> Value {
    let (code, message) = match failure {
        Failure::Story(text) => (2, text),
        Failure::Solver(text) => (1, text),
        Failure::Quiet(code) => (code, String::new()),
    };
    answer["exit_code"] = code.into();
    answer["error"] = json!({ "message": message, "locations": locations(path, &message) });
    answer
}

/// What a solve still running after its limit is told.
fn timed_out(path: &str, limit: Duration) -> Value {
    let message = format!(
        "error: {path}: ran out of time (timeout) after {:.1} s, and did not stop\n  \
         = hint: simplify the story, or run it with `epipen` and a longer --timeout\n",
        limit.as_secs_f64()
    );
    failed(json!({}), path, Failure::Solver(message))
}

/// The places an error text points at: its `path:line:column: error: message` lines.
fn locations(path: &str, text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|line| {
            let rest = line.strip_prefix(path)?.strip_prefix(':')?;
            let (at, message) = rest.split_once(": error: ")?;
            let (line, column) = at.split_once(':')?;
            Some(json!({
                "line": line.parse::<usize>().ok()?,
                "column": column.parse::<usize>().ok()?,
                "message": message,
            }))
        })
        .collect()
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

/// A hint's verdict (`epipen check`'s line) as JSON.
fn verdict_json(story: &Story, event: &Report) -> Option<Value> {
    let (span, elapsed, counterexample) = match event {
        Report::HintVerified { span, elapsed } => (span, elapsed, None),
        Report::HintRefuted {
            span,
            elapsed,
            counterexample,
        } => (span, elapsed, Some(counterexample.describe(&story.program))),
        _ => return None,
    };
    Some(json!({
        "line": story.line(*span),
        "hint": story.hint_text(*span),
        "verdict": if counterexample.is_some() { "refuted" } else { "verified" },
        "seconds": elapsed.as_secs_f64(),
        "counterexample": counterexample,
    }))
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

    #[test]
    fn locations_come_from_the_error_lines() {
        let text = "x.story:7:10: error: unknown name `dya`\n  |\n7 | announce dya\n\
                    x.story:9:1: error: expected a statement\nerror: x.story: 2 errors found\n";
        assert_eq!(
            locations("x.story", text),
            vec![
                json!({"line": 7, "column": 10, "message": "unknown name `dya`"}),
                json!({"line": 9, "column": 1, "message": "expected a statement"}),
            ]
        );
    }
}
