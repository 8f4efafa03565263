//! Stories told in parts: a generated story run as a file ([`Session`], as `epipen run`
//! runs it) and told to an [`epipen::Story`] statement by statement ([`Story::tell`],
//! the API's path: lowering one statement at a time, the live engine, its replays and
//! `auto`'s choice made again as statements come) must print the same on each backend:
//! the same reports, then the same worlds, or the same failure.
//!
//! The parts are the file's text cut at the lines where its statements start, so that
//! the text told is the file's and both name the same lines and columns.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::Instant;

use epipen::engine::Options;
use epipen::failure::FailureKind;
use epipen::session::Session;
use epipen::story::TOLD;
use epipen::views::Report;
use epipen::{Failure, Story, text, worlds};

use crate::diff::{BACKENDS, timeout};
use crate::print::Printed;

/// The most worlds compared at the end.
const LIMIT: u64 = 64;

/// What a campaign of stories told in parts found.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub stories: u64,
    /// Runs compared, by how both ended (`worlds`, `story error`, `solver failure`).
    pub endings: BTreeMap<&'static str, u64>,
    /// Runs not compared, and why (a timeout on either side).
    pub skipped: BTreeMap<&'static str, u64>,
    pub disagreements: u64,
}

thread_local! {
    static TALLY: RefCell<Tally> = RefCell::new(Tally::default());
}

/// This thread's tally so far, reset.
pub fn take_tally() -> Tally {
    TALLY.with(|t| std::mem::take(&mut *t.borrow_mut()))
}

fn tally(f: impl FnOnce(&mut Tally)) {
    TALLY.with(|t| f(&mut t.borrow_mut()));
}

/// How a run ended, as text to compare.
#[derive(Debug)]
enum End {
    /// The worlds at the end, one line each (with its probability, if any), and
    /// whether that is all.
    Worlds(Vec<String>, bool),
    /// A failure: its kind and its first error's message and hints.
    Failed(FailureKind, String),
}

impl PartialEq for End {
    fn eq(&self, other: &End) -> bool {
        match (self, other) {
            // Which come first when not all are listed: see [`report`].
            (End::Worlds(a, false), End::Worlds(b, false)) => a.len() == b.len(),
            (End::Worlds(a, x), End::Worlds(b, y)) => {
                let sorted = |w: &[String]| {
                    let mut w = w.to_vec();
                    w.sort_unstable();
                    w
                };
                (sorted(a), x) == (sorted(b), y)
            }
            (End::Failed(k, m), End::Failed(l, n)) => (k, m) == (l, n),
            _ => false,
        }
    }
}

/// Where a run's failure points: its first error's line and column (None: the run
/// did not fail, or points nowhere).
fn place(run: &Run) -> Option<(usize, usize)> {
    run.at
}

/// A run: what it reported (as `epipen run` prints each report), and how it ended.
#[derive(Debug)]
struct Run {
    reports: Vec<String>,
    end: End,
    /// Whether the story compiled (as a file; each part told does).
    compiled: bool,
    /// Where its failure points (line, column).
    at: Option<(usize, usize)>,
    /// Told in parts, every part taking effect: the story's text ([`Story::text`]).
    text: Option<Result<String, String>>,
}

impl PartialEq for Run {
    fn eq(&self, other: &Run) -> bool {
        (&self.reports, &self.end) == (&other.reports, &other.end)
    }
}

/// Runs `printed` as a file and told in parts, on every backend; Err(report) when they
/// print differently.
pub fn check(printed: &Printed) -> Result<(), String> {
    tally(|t| t.stories += 1);
    for strategy in BACKENDS {
        let options = || Options {
            strategy,
            deadline: Instant::now().checked_add(timeout()),
            ..Options::default()
        };
        let file = as_file(printed, &options());
        let told = told(printed, options());
        let timed_out =
            |r: &Run| matches!(&r.end, End::Failed(FailureKind::Solver, m) if m.contains("time"));
        if timed_out(&file) || timed_out(&told) {
            tally(|t| *t.skipped.entry("a timeout").or_default() += 1);
            continue;
        }
        let compiled = file.compiled;
        let refused = matches!(&file.end, End::Failed(_, m) if m.contains("backend"));
        let agree = match (&file.end, &told.end) {
            // A file that does not compile stops before its first statement; told in
            // parts, the statements before the mistake run, and may fail first (a file
            // whose `--set` values do not compile fails at no place).
            (End::Failed(..), End::Failed(..)) if !compiled => {
                file.at.is_none() || place(&told) <= place(&file)
            }
            // A backend that refuses the story refuses a file before its first
            // statement; told in parts, the statements before the one it cannot run run
            // first and may fail first, and what it cannot evaluate is refused where it
            // is evaluated (a plan that needs no step does not evaluate its `keeping`):
            // nothing to compare.
            _ if refused && compiled => true,
            // A statement that fails reports nothing told (it has no effect), where a
            // file prints what it reported before it failed (a `repeat`'s rounds).
            (End::Failed(..), End::Failed(..)) => {
                file.end == told.end
                    && place(&file) == place(&told)
                    && file.reports.starts_with(&told.reports)
            }
            _ => file == told && place(&file) == place(&told),
        };
        if let (true, Some(Err(why))) = (agree, &told.text) {
            tally(|t| t.disagreements += 1);
            return Err(format!(
                "=== disagreement: told in parts on {strategy:?}, the story has no text ===\n{}\n{}--- why: {why}\n",
                printed.command(),
                printed.text,
            ));
        }
        if let (true, Some(Ok(text))) = (agree, &told.text)
            && let Some(expected) = text_mismatch(printed, text)
        {
            tally(|t| t.disagreements += 1);
            return Err(format!(
                "=== disagreement: told in parts on {strategy:?}, the story's text ===\n{}\n{}--- the file printed:\n{expected}--- the story's text:\n{text}",
                printed.command(),
                printed.text,
            ));
        }
        if !agree {
            tally(|t| t.disagreements += 1);
            return Err(format!(
                "=== disagreement: told in parts on {strategy:?} ===\n{}\n{}--- as a file:\n{}--- told in parts:\n{}",
                printed.command(),
                printed.text,
                shown(&file),
                shown(&told),
            ));
        }
        let ending = match &file.end {
            _ if !compiled => "a file that does not compile",
            _ if refused => "refused by the backend",
            End::Worlds(..) => "worlds",
            End::Failed(FailureKind::Story, _) => "story error",
            End::Failed(FailureKind::Solver, _) => "solver failure",
        };
        tally(|t| *t.endings.entry(ending).or_default() += 1);
    }
    Ok(())
}

/// What the text of a story told statement by statement should have been, when it is
/// not: the file's statements printed ([`epipen::Story::text`] keeps each as lowering
/// was given it), the same again when the text is read back.
fn text_mismatch(printed: &Printed, text: &str) -> Option<String> {
    let expected = epipen::syntax::parse(&printed.text).ok()?.to_string();
    let again = epipen::syntax::parse(text).map(|s| s.to_string());
    match (text == expected, again) {
        (true, Ok(again)) if again == text => None,
        (_, Ok(again)) if text == expected => {
            Some(format!("{expected}--- read back and printed:\n{again}"))
        }
        (_, Err(e)) => Some(format!("{expected}--- which does not parse: {e:?}\n")),
        _ => Some(expected),
    }
}

fn shown(run: &Run) -> String {
    let mut out = String::new();
    for r in &run.reports {
        out += &format!("  {}\n", r.trim_end().replace('\n', "\n  "));
    }
    out + &format!("  end: {:?} at {:?}\n", run.end, run.at)
}

/// `text` without the numbers of events' executions (`e0#1 = s0`: `e0 = s0`): a file
/// numbers an event's first execution when it declares a second, later in the story; a
/// story told in parts when it happens.
fn unnumbered(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut after_name = false;
    while let Some(c) = chars.next() {
        if c == '#' && after_name && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
            continue;
        }
        after_name = c.is_alphanumeric() || c == '_' || c == ']';
        out.push(c);
    }
    out
}

/// A report as `epipen run` prints it, without the seconds a hint took, and a listing
/// of worlds with its worlds sorted, or left out when it is not all of them: the
/// canonical order counts the constants of what has not happened yet (an event's
/// execution, a value changed), which a file declares before it happens and a story
/// told in parts when it does.
fn report(mut view: Report) -> String {
    if let Report::Hint(v) | Report::Check(v) = &mut view {
        v.seconds = None;
    }
    let text = unnumbered(&text::report(&view));
    if let Report::Check(v) = &view
        && v.holds == Some(false)
    {
        // The failing world shown: see above.
        return text
            .split(" in the world")
            .next()
            .unwrap_or_default()
            .to_string();
    }
    if let Report::Show { .. } = &view
        && let Some((shown, values)) = text.trim_end().rsplit_once(": ")
    {
        // A value in each world, in the order of the worlds: see above.
        let mut values: Vec<&str> = values.split(", ").collect();
        values.sort_unstable();
        return format!("{shown}: {}\n", values.join(", "));
    }
    if !matches!(view, Report::Worlds { .. } | Report::Where { .. }) {
        return text;
    }
    let partial = text.contains("; the first");
    let (worlds, rest): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with("  "));
    // A file that speaks of chances later lists its worlds' probabilities from the
    // start (`x = 1   [1/2]`); told in parts, from when it does.
    fn unweighed(l: &str) -> &str {
        match l.rsplit_once("   [") {
            Some((world, _)) if l.ends_with(']') => world,
            _ => l,
        }
    }
    let worlds = worlds.into_iter().map(unweighed);
    let mut worlds: Vec<&str> = if partial {
        Vec::new()
    } else {
        worlds.collect()
    };
    worlds.sort_unstable();
    (rest.iter().chain(&worlds))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A failure's kind and its first error's message and hints, and where it points.
fn failed(failure: &Failure) -> (End, Option<(usize, usize)>) {
    let Some(first) = failure.diagnostics.first() else {
        return (End::Failed(failure.kind, String::new()), None);
    };
    // Which two worlds an `actual` that allows several shows, which a failing check
    // and which a refuted hint show, depend on the canonical order (see [`report`]).
    let worlds = ["for example", "it is false in", "counterexample:"];
    let shown = |h: &&String| !worlds.iter().any(|w| h.starts_with(w));
    let hints = first
        .hints
        .iter()
        .filter(shown)
        .map(|h| format!("; hint: {h}"));
    // (And the world a message names, which is the first in that order.)
    let said = first
        .message
        .split(" in the world ")
        .next()
        .unwrap_or_default();
    let message = unnumbered(&(said.to_string() + &hints.collect::<String>()));
    let at = first.at.as_ref().map(|a| (a.line, a.column));
    (End::Failed(failure.kind, message), at)
}

/// The story run as a file.
fn as_file(printed: &Printed, options: &Options) -> Run {
    let compiled = Session::compile(
        TOLD.into(),
        printed.text.clone(),
        &printed.sets,
        printed.seed,
        options.deadline,
    );
    let session = match compiled {
        Ok(session) => session,
        Err(failure) => {
            let (end, at) = failed(&failure);
            return Run {
                reports: Vec::new(),
                end,
                compiled: false,
                text: None,
                at,
            };
        }
    };
    let mut reports = Vec::new();
    let ran = session.run(options, &mut |view| reports.push(report(view)));
    let listed = ran.and_then(|mut engine| session.final_worlds(&mut engine, LIMIT));
    let (end, at) = match listed {
        Ok(set) => {
            let chances = set.chances.as_ref();
            let lines = (set.worlds.iter().enumerate())
                .map(|(i, w)| {
                    let chance = chances.and_then(|c| c.get(i));
                    let line = worlds::world_line(&session.program, &w.0);
                    world_line(unnumbered(&line), chance)
                })
                .collect();
            (End::Worlds(lines, set.complete), None)
        }
        Err(failure) => failed(&failure),
    };
    Run {
        reports,
        end,
        compiled: true,
        at,
        text: None,
    }
}

fn world_line(line: String, chance: Option<&num_rational::BigRational>) -> String {
    match chance {
        Some(p) => format!("{line} (probability {p})"),
        None => line,
    }
}

/// The story told in parts, each starting at the line of a statement.
fn told(printed: &Printed, options: Options) -> Run {
    let mut story = Story::with_sets(options, &printed.sets, printed.seed);
    let mut reports = Vec::new();
    for part in parts(&printed.text) {
        match story.tell(part) {
            Ok(views) => reports.extend(views.into_iter().map(report)),
            Err(failure) => {
                let (end, at) = failed(&failure);
                return Run {
                    reports,
                    end,
                    compiled: true,
                    at,
                    text: None,
                };
            }
        }
    }
    let end = match story.worlds(LIMIT) {
        Ok(worlds) => End::Worlds(
            (worlds.iter())
                .map(|w| world_line(unnumbered(&w.to_string()), w.probability()))
                .collect(),
            worlds.is_complete(),
        ),
        Err(e) => End::Failed(FailureKind::Solver, e.to_string()),
    };
    Run {
        reports,
        end,
        compiled: true,
        at: None,
        text: Some(story.text().map_err(|e| e.to_string())),
    }
}

/// `text` cut at the starts of the lines where its top-level statements start (the
/// whole text when it does not parse): the parts, told one after the other, are the
/// text.
pub fn parts(text: &str) -> Vec<&str> {
    let Ok(story) = epipen::syntax::parse(text) else {
        return vec![text];
    };
    let mut cuts: Vec<usize> = (story.statements.iter().skip(1))
        .map(|s| text[..s.span.start].rfind('\n').map_or(0, |k| k + 1))
        .collect();
    cuts.dedup();
    let mut parts = Vec::new();
    let mut from = 0;
    for cut in cuts {
        if cut > from {
            parts.push(&text[from..cut]);
            from = cut;
        }
    }
    parts.push(&text[from..]);
    parts
}
