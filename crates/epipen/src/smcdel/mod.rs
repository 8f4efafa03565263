//! SMCDEL's text format (`VARS`, `LAW`, `OBS`, then `TRUE?`, `VALID?` and `WHERE?`
//! jobs), read as SMCDEL 1.3.0 reads it and answered by epipen's engine: the file
//! becomes an epipen story ([`story`]: bools for the atoms, `announce` of the LAW,
//! `learns` of the observed atoms, a `check` or `where` per job), which runs as any
//! story does. See docs/smcdel.md.

mod lex;
mod parse;
#[cfg(test)]
mod tests;
mod translate;

use std::rc::Rc;

pub use parse::{Agent, Atom, Form, FormKind, Input, Job, JobKind};
pub use translate::Translation;

use crate::Options;
use crate::failure::{Failure, FailureKind};
use crate::ir::StmtKind;
use crate::session::Session;
use crate::syntax::line_col;
use crate::views::{Report, Shown, Smcdel, SmcdelAnswer, SmcdelJob, SmcdelKind};

/// The most states a `WHERE?` lists.
pub const MAX_STATES: u64 = 1 << 20;

/// An SMCDEL file read and checked, with its story.
#[derive(Debug, Clone)]
pub struct SmcdelFile {
    pub path: String,
    pub source: String,
    pub input: Input,
    pub translation: Translation,
}

/// Whether `text` looks like an SMCDEL file: its first word (after comments) is `VARS`.
pub fn recognised(text: &str) -> bool {
    text.lines()
        .map(|line| match line.find("--") {
            Some(k) => &line[..k],
            None => line,
        })
        .flat_map(str::split_whitespace)
        .next()
        == Some("VARS")
}

/// Reads `source` (the file at `path`): a syntax error, an atom outside `VARS`, an
/// agent of a job that no `OBS` line declares, or knowledge in the `LAW` is a story
/// failure (exit code 2) at its place.
pub fn read(path: &str, source: &str) -> Result<SmcdelFile, Failure> {
    let fail =
        |diagnostics: Vec<crate::Diagnostic>| Failure::story_errors(path, source, &diagnostics);
    let tokens = lex::lex(source).map_err(|d| fail(vec![d]))?;
    let input = parse::parse(&tokens).map_err(|d| fail(vec![d]))?;
    let problems = translate::check(&input);
    if !problems.is_empty() {
        return Err(fail(problems));
    }
    let law_has_states = law_has_states(path, &input)?;
    let translation = translate::story(path, source, &input, law_has_states);
    Ok(SmcdelFile {
        path: path.to_string(),
        source: source.to_string(),
        input,
        translation,
    })
}

/// Whether the LAW of `input` holds in some state, asked of the engine.
fn law_has_states(path: &str, input: &Input) -> Result<bool, Failure> {
    let question = translate::law_question(input);
    let session = Session::compile(format!("{path} (its LAW)"), question, &[], 0, None)?;
    let mut some = false;
    session.run(&Options::default(), &mut |r| {
        if let Report::Where { worlds, .. } = r {
            some = !worlds.worlds.is_empty();
        }
    })?;
    Ok(some)
}

/// The epipen story of the SMCDEL file `source`.
pub fn story(path: &str, source: &str) -> Result<String, Failure> {
    Ok(read(path, source)?.translation.story)
}

/// Answers every job of the SMCDEL file `source` on epipen's engine (`options` choose
/// the backend and the deadline).
pub fn run(path: &str, source: &str, options: &Options) -> Result<Smcdel, Failure> {
    let file = read(path, source)?;
    file.answer(options)
}

impl SmcdelFile {
    /// Runs the story and reads each job's answer off its statement's report.
    pub fn answer(&self, options: &Options) -> Result<Smcdel, Failure> {
        let story_path = format!("{} (as a story)", self.path);
        let mut session = Session::compile(
            story_path,
            self.translation.story.clone(),
            &[],
            0,
            options.deadline,
        )?;
        let mut program = (*session.program).clone();
        for stmt in &mut program.statements {
            if let StmtKind::Where { limit, .. } = &mut stmt.kind {
                *limit = MAX_STATES;
            }
        }
        session.program = Rc::new(program);
        let options = Options {
            keep_refuted_hints: true,
            ..options.clone()
        };
        let mut reports = Vec::new();
        session.run(&options, &mut |r| reports.push(r))?;
        let atom = |name: &str| {
            (self.translation.atoms.iter())
                .find(|(n, _)| n == name)
                .map(|(_, k)| *k)
        };
        let mut jobs = Vec::with_capacity(self.input.jobs.len());
        for (job, &story_line) in self.input.jobs.iter().zip(&self.translation.lines) {
            let line = line_col(&self.source, job.keyword.start).0;
            let report = reports.iter().find(|r| r.line() == story_line);
            let at = |message: String| {
                let d = crate::Diagnostic::error(job.keyword, message);
                Failure::one(FailureKind::Solver, d.locate(&self.path, &self.source))
            };
            let (kind, state) = match &job.kind {
                JobKind::True(state) => (SmcdelKind::True, state.iter().map(|a| a.n).collect()),
                JobKind::Valid => (SmcdelKind::Valid, Vec::new()),
                JobKind::Where => (SmcdelKind::Where, Vec::new()),
            };
            let answer = match report {
                Some(Report::Check(verdict)) => SmcdelAnswer::Holds(verdict.holds.unwrap_or(false)),
                Some(Report::Where { worlds, .. }) => {
                    if !worlds.complete {
                        return Err(at(format!(
                            "more than {MAX_STATES} states: epipen lists at most that many"
                        )));
                    }
                    let mut states: Vec<Vec<u64>> = (worlds.worlds.iter())
                        .map(|w| {
                            let mut atoms: Vec<u64> = (w.0.iter())
                                .filter(|(_, v)| *v == Shown::Bool(true))
                                .filter_map(|(name, _)| atom(name))
                                .collect();
                            atoms.sort_unstable();
                            atoms
                        })
                        .collect();
                    states.sort();
                    states.dedup();
                    SmcdelAnswer::States(states)
                }
                _ => {
                    return Err(at(format!(
                        "internal error: the story's line {story_line} reported nothing \
                         (please report it)"
                    )));
                }
            };
            jobs.push(SmcdelJob {
                kind,
                line,
                answer,
                formula: translate::written(&self.source, &job.form),
                state,
            });
        }
        Ok(Smcdel { jobs })
    }
}
