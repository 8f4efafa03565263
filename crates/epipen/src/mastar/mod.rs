//! mA*, the action language of the epistemic planners EFP 2.0 and deep (`fluent`,
//! `action`, `agent`, laws, `initially`, `goal`), read as deep's parser reads it and
//! planned by epipen's engine: the file becomes an epipen story ([`Translation`]: bools
//! for the fluents, an `action` per action, `plan` of the goal), which runs as any story
//! does. See docs/mastar.md.

mod check;
mod lex;
mod parse;
#[cfg(test)]
mod tests;
mod translate;

use serde::Serialize;

pub use parse::{Form, FormKind, Input, Law, LawKind, Lit, Name, Sign};
pub use translate::{Beliefs, COMMON_DEPTH, MAX_FRAMES, Translation};

use crate::Options;
use crate::failure::{Failure, FailureKind};
use crate::session::Session;
use crate::syntax::Diagnostic;
use crate::views::Report;

/// The longest plan looked for unless asked otherwise.
pub const DEFAULT_MAX: usize = 20;

/// An mA* file read and checked, with its story.
#[derive(Debug, Clone)]
pub struct MastarFile {
    pub path: String,
    pub source: String,
    pub input: Input,
    pub translation: Translation,
    /// The longest plan looked for.
    pub max: usize,
}

/// A plan found for an mA* file, or none (serialised as `{"solvable": true, "length":
/// 2, "plan": ["open_a", "peek_a"]}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MastarPlan {
    pub solvable: bool,
    /// How many actions the plan has; None when there is none.
    pub length: Option<usize>,
    /// The actions, as the file names them.
    pub plan: Vec<String>,
    /// The longest plan looked for.
    #[serde(skip)]
    pub max: usize,
}

impl std::fmt::Display for MastarPlan {
    /// `plan of 2 actions: open_a, peek_a`, `plan of 0 actions: (none needed)`, `no plan
    /// of at most 20 actions`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let actions = |n: usize| format!("{n} action{}", if n == 1 { "" } else { "s" });
        match self.length {
            None => write!(f, "no plan of at most {}", actions(self.max)),
            Some(0) => write!(f, "plan of 0 actions: (none needed)"),
            Some(k) => write!(f, "plan of {}: {}", actions(k), self.plan.join(", ")),
        }
    }
}

/// Whether `text` looks like an mA* file: its first word (after `%` comments) declares
/// fluents, actions or agents, and its statements end with `;`.
pub fn recognised(text: &str) -> bool {
    let first = text
        .lines()
        .map(|line| match line.find('%') {
            Some(k) => &line[..k],
            None => line,
        })
        .flat_map(str::split_whitespace)
        .next();
    matches!(first, Some("fluent" | "action" | "agent")) && text.contains(';')
}

/// Reads `source` (the file at `path`) and writes its story, planning for at most `max`
/// actions: a syntax error, an undeclared fluent, action or agent, or what epipen does
/// not translate is a story failure (exit code 2) at its place.
pub fn read(path: &str, source: &str, max: usize) -> Result<MastarFile, Failure> {
    let tokens = lex::lex(source).map_err(|d| Failure::story_errors(path, source, &[d]))?;
    let input = parse::parse(&tokens).map_err(|d| Failure::story_errors(path, source, &[d]))?;
    let domain = check::check(&input).map_err(|ds| Failure::story_errors(path, source, &ds))?;
    let mut too_many = Vec::new();
    for action in &domain.actions {
        let n = translate::frame_count(&domain, action);
        if n > MAX_FRAMES {
            too_many.push(
                Diagnostic::error(
                    action.name.span,
                    format!(
                        "the action `{}` has {n} frames of reference (who observes it \
                         depends on the state in more than {MAX_FRAMES} ways)",
                        action.name.text
                    ),
                )
                .with_hint("epipen writes one action per frame; make fewer observers conditional"),
            );
        }
    }
    if !too_many.is_empty() {
        return Err(Failure::story_errors(path, source, &too_many));
    }
    let translation = translate::story(path, source, &domain, max);
    tracing::debug!(
        "{path}: {} actions, beliefs: {:?}",
        domain.actions.len(),
        translation.beliefs
    );
    Ok(MastarFile {
        path: path.to_string(),
        source: source.to_string(),
        input,
        translation,
        max,
    })
}

/// The epipen story of the mA* file `source`.
pub fn story(path: &str, source: &str, max: usize) -> Result<String, Failure> {
    Ok(read(path, source, max)?.translation.story)
}

/// Plans for the mA* file `source` on epipen's engine.
pub fn plan(
    path: &str,
    source: &str,
    max: usize,
    options: &Options,
) -> Result<MastarPlan, Failure> {
    read(path, source, max)?.plan(options)
}

impl MastarFile {
    /// Runs the story and reads the plan off its `plan` statement's report.
    pub fn plan(&self, options: &Options) -> Result<MastarPlan, Failure> {
        let story_path = format!("{} (as a story)", self.path);
        let session = Session::compile(
            story_path.clone(),
            self.translation.story.clone(),
            &[],
            0,
            options.deadline,
        )?;
        // The states as the mA* planners keep them: the worlds believed from the actual.
        let options = Options {
            plan_believed: true,
            ..options.clone()
        };
        let mut found = None;
        session.run(&options, &mut |r| {
            if let Report::Plan(p) = r {
                found = Some(p);
            }
        })?;
        let Some(found) = found else {
            return Err(Failure::one(
                FailureKind::Solver,
                crate::syntax::Located::nowhere(
                    &story_path,
                    "internal error: the story's `plan` reported nothing (please report it)",
                ),
            ));
        };
        let plan: Vec<String> = match found.plans.first() {
            Some(steps) => steps.iter().map(|s| self.written(s)).collect(),
            None => Vec::new(),
        };
        Ok(MastarPlan {
            solvable: found.solvable,
            length: found.length,
            plan,
            max: self.max,
        })
    }

    /// The line (from 1) of the file's first `goal`, where its plan is reported; None
    /// when it has no goal.
    pub fn goal_line(&self) -> Option<usize> {
        let goal = self.input.goals.first()?;
        Some(crate::syntax::line_col(&self.source, goal.span.start).0)
    }

    /// The mA* name of the story's action `step` (`open_a[2]`: a frame of `open_a`).
    pub fn written(&self, step: &str) -> String {
        let base = step.split('[').next().unwrap_or(step);
        (self.translation.actions.iter())
            .find(|(epipen, _)| epipen == base)
            .map_or_else(|| step.to_string(), |(_, written)| written.clone())
    }
}
