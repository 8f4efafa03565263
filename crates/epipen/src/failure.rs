//! Why a story could not be compiled or run, as data: its kind (the story is wrong, or
//! the solver failed) and its diagnostics, located in the story. [`crate::text::failure`]
//! renders it as the command line prints it; the playground marks its lines, Python
//! raises it with them.

use serde::Serialize;

use std::time::Instant;

use crate::CompileError;
use crate::syntax::{Diagnostic, Located, line_col};

/// Whose fault a [`Failure`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The story is wrong (exit code 2).
    Story,
    /// The solver failed or gave up: a timeout, `unknown`, a refuted hint or a failed
    /// check (exit code 1).
    Solver,
}

/// Why a story could not be compiled or run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Failure {
    pub kind: FailureKind,
    /// Every error found (a story that does not compile may have several).
    pub diagnostics: Vec<Located>,
    /// A last line after them (`x.story: 2 errors found`).
    pub summary: Option<String>,
    /// What the failure is about that each front end words its own way: the command
    /// line names its flags (`--at`, `--set`, `--timeout`), Python its arguments.
    pub about: Option<About>,
}

/// What a [`Failure`] is about, beyond the story: something a front end asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum About {
    /// The run's time ran out: the front end says how to give it more.
    Timeout,
    /// A checkpoint the story does not have (`--at NAME`, `model(at=NAME)`).
    Checkpoint(String),
    /// Values given to consts (`--set`, `sets=`) that the story does not compile with;
    /// a value None: a const the story does not declare.
    Sets(Vec<(String, Option<i64>)>),
    /// A sweep of this many samples (`--samples N`, `samples=N`) of a story that draws
    /// nothing: the front end names the argument, and says to sweep consts instead.
    Samples(u64),
    /// A model too big to draw: the front end says how to ask for a smaller one (a
    /// checkpoint, smaller consts).
    TooBig,
}

/// How a front end words what a failure is about ([`Failure::worded`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wording {
    /// What it is about, as the front end names it (`--at nowhere`, `at="nowhere"`).
    pub named: Option<String>,
    /// What to do about it (`raise --timeout, or simplify the story`).
    pub hint: Option<String>,
}

impl Failure {
    /// A failure of `kind` with one diagnostic.
    pub fn one(kind: FailureKind, diagnostic: Located) -> Failure {
        Failure {
            kind,
            diagnostics: vec![diagnostic],
            summary: None,
            about: None,
        }
    }

    /// The story is wrong: `diagnostic`.
    pub fn story(diagnostic: Located) -> Failure {
        Failure::one(FailureKind::Story, diagnostic)
    }

    /// A story's errors (`diagnostics`, in `source`, the file at `path`), with the count
    /// of them as the summary.
    pub(crate) fn story_errors(path: &str, source: &str, diagnostics: &[Diagnostic]) -> Failure {
        let n = diagnostics.len();
        Failure {
            kind: FailureKind::Story,
            diagnostics: diagnostics.iter().map(|d| d.locate(path, source)).collect(),
            summary: Some(format!(
                "{path}: {n} error{} found",
                if n == 1 { "" } else { "s" }
            )),
            about: None,
        }
    }

    /// The solver failed: `diagnostic`.
    pub fn solver(diagnostic: Located) -> Failure {
        Failure::one(FailureKind::Solver, diagnostic)
    }

    /// The failure, about `about`.
    pub fn about(self, about: About) -> Failure {
        Failure {
            about: Some(about),
            ..self
        }
    }

    /// The failure in a front end's words: `words` names what it is about (a flag, an
    /// argument) before the first diagnostic's message and adds a hint after its hints.
    pub fn worded(mut self, words: impl Fn(&About) -> Wording) -> Failure {
        let (Some(about), Some(first)) = (self.about.take(), self.diagnostics.first_mut()) else {
            return self;
        };
        let Wording { named, hint } = words(&about);
        if let Some(named) = named {
            first.message = format!("{named}: {}", first.message);
        }
        first.hints.extend(hint);
        self
    }

    /// The exit code the command line gives it: 2 for a story error, 1 for a solver
    /// failure.
    pub fn exit_code(&self) -> u8 {
        match self.kind {
            FailureKind::Story => 2,
            FailureKind::Solver => 1,
        }
    }
}

/// Why a story does not compile, its diagnostics located.
pub fn compile_failure(path: &str, source: &str, e: CompileError) -> Failure {
    match e {
        CompileError::Timeout { span } => {
            let d = Diagnostic::error(span, crate::lower::TIMEOUT_MESSAGE);
            Failure::solver(d.locate(path, source)).about(About::Timeout)
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
            let message = format!("{path} has no `const {name}`");
            Failure::story(Located::nowhere(path, message).with_hint(hint))
                .about(About::Sets(vec![(name, None)]))
        }
        CompileError::Story(diagnostics) => Failure::story_errors(path, source, &diagnostics),
    }
}

/// A story that does not compile with its `--set` values (`diagnostics`). When it does
/// with its own values, the values are at fault: one error against the flags that break
/// it (each alone, or all of them together), with the story's first complaint as a hint,
/// instead of every consequence (a family of -1 members, then each use of it).
pub(crate) fn set_failure(
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
    let mut located = Located::nowhere(
        path,
        format!(
            "{path} does not compile with {}",
            if blamed.len() == 1 {
                "this value"
            } else {
                "these values"
            }
        ),
    );
    if let Some(first) = diagnostics.first() {
        let line = line_col(source, first.span.start).0;
        located = located.with_hint(format!("line {line}: {}", first.message));
    }
    let sets = blamed
        .iter()
        .map(|(name, value)| (name.clone(), Some(*value)));
    Failure::story(located).about(About::Sets(sets.collect()))
}
