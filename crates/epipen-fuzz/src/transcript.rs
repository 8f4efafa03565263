//! What the agreement tests and the fuzzer share: running a program on a backend or on
//! the brute-force evaluator, and writing down what happened in one comparable form.

use std::rc::Rc;
use std::time::Duration;

use epipen::engine::{Amount, Engine, Failure, Options, PlanStates, Report, Shown, Strategy};
use epipen::ir::{Program, Stmt, StmtKind};
use epipen::syntax::Span;
use epipen::worlds::{Model, World, WorldCount, WorldSet};
use epipen_bruteforce::{self as bruteforce, Domain, ErrorKind};

/// The engine's worlds at the end of the story, or why it gave none.
pub fn solve(
    program: &Program,
    strategy: Strategy,
    timeout: Duration,
) -> Result<WorldSet, Failure> {
    let options = Options {
        deadline: std::time::Instant::now().checked_add(timeout),
        strategy,
        skip_worlds_statements: true,
        ..Options::default()
    };
    let mut engine = Engine::new(Rc::new(program.clone()), &options);
    engine.run(&mut |_| {}).map_err(|e| e.error)?;
    engine.worlds(1_000_000)
}

/// Whether the backend of `strategy` takes the story (BDDs take bools, enums and ints the
/// first announcements bound to at most 16 bits each, so the differential fuzzer runs
/// the generated int stories on BDDs too; the explicit backend what its first
/// announcements bound); one that does not fails
/// every statement with [`Failure::Story`], saying why.
pub fn takes(strategy: Strategy, program: &Program) -> bool {
    let options = Options {
        strategy,
        ..Options::default()
    };
    Engine::new(Rc::new(program.clone()), &options).backend() != "none"
}

pub fn show(worlds: &[World]) -> String {
    let items: Vec<String> = worlds
        .iter()
        .map(|w| {
            let vals: Vec<String> = w.0.iter().map(|v| v.to_string()).collect();
            format!("({})", vals.join(", "))
        })
        .collect();
    format!("{} worlds: [{}]", worlds.len(), items.join(", "))
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Every world possible at the end (`show`n).
    Worlds(String),
    /// Some worlds, and the engine could not say there are no others.
    Incomplete(String),
    /// A story error (exit code 2) at the statement starting at this line:column.
    Story(String),
    /// A refuted `assert_adds_ck` (exit code 1) at this line:column.
    Refuted(String),
    /// A failed `check` (exit code 1) at this line:column, and the first world (in the
    /// canonical order, its values now) where it fails.
    CheckFailed(String),
    /// The run's time ran out.
    Timeout,
    /// Another solver failure (exit code 1): unknown, a resource limit, unsupported.
    Solver(String),
    /// Something that should not happen (a bug either way), with its message.
    Internal(String),
}

impl End {
    /// The exit code `epipen` gives this ending.
    pub fn exit_code(&self) -> i32 {
        match self {
            End::Worlds(_) | End::Incomplete(_) => 0,
            End::Story(_) | End::Internal(_) => 2,
            End::Refuted(_) | End::CheckFailed(_) | End::Timeout | End::Solver(_) => 1,
        }
    }
}

/// What a run reported, in order (worlds statements, reveals, finished repeats,
/// verified hints, one per line), and how it ended. Two transcripts are equal when
/// their events and endings are: `message` (the error's wording) is left out.
#[derive(Debug, Clone)]
pub struct Transcript {
    pub events: Vec<String>,
    pub end: End,
    /// The error's message, when the run stopped early.
    pub message: String,
    /// What only the engine reports, compared between backends: how many worlds it
    /// counts at the end, and the epistemic model (`epipen graph`) as which worlds each
    /// character tells apart.
    pub engine: Vec<String>,
}

impl PartialEq for Transcript {
    fn eq(&self, other: &Transcript) -> bool {
        self.events == other.events && self.end == other.end
    }
}

impl std::fmt::Display for Transcript {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for e in &self.events {
            writeln!(f, "  {e}")?;
        }
        writeln!(f, "  end: {:?}", self.end)?;
        if !self.message.is_empty() {
            writeln!(f, "  ({})", self.message)?;
        }
        for fact in &self.engine {
            writeln!(f, "  {fact}")?;
        }
        Ok(())
    }
}

/// `line:column` of a byte offset of `text` (lines end with `\n`, as generated stories'
/// do).
pub fn position(text: &str, offset: usize) -> String {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("{line}:{column}")
}

/// The statements of `program` (blocks included), in order.
fn all_statements(statements: &[Stmt], out: &mut Vec<(Span, u64)>) {
    for s in statements {
        match &s.kind {
            StmtKind::Worlds { limit } | StmtKind::Where { limit, .. } => {
                out.push((s.span, *limit))
            }
            StmtKind::Simultaneously(body)
            | StmtKind::Repeat { body, .. }
            | StmtKind::AssertAddsCk { body, .. } => all_statements(body, out),
            _ => {}
        }
    }
}

/// The limit of the `worlds` statement at `span`.
fn worlds_limit(program: &Program, span: Span) -> u64 {
    let mut found = Vec::new();
    all_statements(&program.statements, &mut found);
    found
        .into_iter()
        .find(|(s, _)| *s == span)
        .map_or(u64::MAX, |(_, limit)| limit)
}

/// A `worlds` statement's worlds (`what`: "worlds"), or a `where` statement's ("where").
fn worlds_line(text: &str, span: Span, what: &str, worlds: &[World], complete: bool) -> String {
    format!(
        "{}: {what} {}{}",
        position(text, span.start),
        show(worlds),
        if complete { "" } else { " and more" }
    )
}

fn reveal_line(text: &str, span: Span, round: Option<u64>, who: usize, holds: bool) -> String {
    format!(
        "{}: round {round:?}: character #{who} reveals: {holds}",
        position(text, span.start)
    )
}

/// What a backend reports of a run of `program` (compiled from `text`). Z3 and BDDs
/// recognise a plan's states as over unbounded ints or beyond the listed models' cap
/// ([`PlanStates::Fixed`]: κ compared by the solver, canonical diagrams), the explicit
/// backend and `auto` by their listed models, so that both routes meet the evaluator.
pub fn engine_transcript(
    program: &Program,
    text: &str,
    strategy: Strategy,
    timeout: Duration,
) -> Transcript {
    let options = Options {
        deadline: std::time::Instant::now().checked_add(timeout),
        strategy,
        plan_states: match strategy {
            Strategy::Z3 | Strategy::Bdd => PlanStates::Fixed,
            _ => PlanStates::Listed,
        },
        ..Options::default()
    };
    engine_transcript_with(program, text, &options)
}

/// The most worlds whose epistemic model a transcript records.
const MODEL_CAP: usize = 64;

/// What a backend reports of a run of `program` (compiled from `text`) with `options`
/// (`keep_refuted_hints`: as `epipen check` runs it).
pub fn engine_transcript_with(program: &Program, text: &str, options: &Options) -> Transcript {
    let mut engine = Engine::new(Rc::new(program.clone()), options);
    let mut events = Vec::new();
    let mut message = String::new();
    let run = engine.run(&mut |event| match event {
        Report::Worlds {
            span, set, filter, ..
        } => {
            let what = if filter.is_some() { "where" } else { "worlds" };
            let line = worlds_line(text, span, what, &set.worlds, set.complete);
            events.push(line + &chances_note(set.chances.as_deref()));
        }
        Report::Show { span, shown, .. } => {
            let (actual, values) = match shown {
                Shown::Actual(a) => (true, vec![(amount(&a), 1)]),
                Shown::Worlds(v) => (false, v.iter().map(|(a, n)| (amount(a), *n)).collect()),
            };
            events.push(show_line(text, span, actual, values));
        }
        Report::Reveal {
            span,
            round,
            who,
            holds,
            ..
        } => events.push(reveal_line(text, span, round, who.0, holds)),
        Report::Happened {
            span,
            round,
            case,
            saw,
            ..
        } => events.push(happened_line(text, span, round, case, &saw)),
        Report::RepeatDone { span, rounds } => {
            events.push(format!("{}: {rounds} rounds", position(text, span.start)));
        }
        Report::HintVerified { span, .. } => {
            events.push(format!("{}: hint verified", position(text, span.start)));
        }
        Report::CheckHolds { span } => {
            events.push(format!("{}: check holds", position(text, span.start)));
        }
        Report::Vacuous { span, left_none } => events.push(vacuous_line(text, span, left_none)),
        Report::HintRefuted { span, .. } => {
            events.push(format!("{}: hint refuted", position(text, span.start)));
        }
        Report::CheckFailed { span, world, .. } => {
            events.push(format!(
                "{}: check fails in {:?}",
                position(text, span.start),
                world.0
            ));
        }
        Report::Plan { span, plans, .. } => {
            let plans: Vec<Vec<usize>> = plans
                .iter()
                .map(|p| p.iter().map(|a| a.0).collect())
                .collect();
            events.push(format!("{}: plans {plans:?}", position(text, span.start)));
        }
        Report::HintTrusted { .. } | Report::Step { .. } => {}
    });
    let mut facts = Vec::new();
    let end = match run {
        Ok(()) => match engine.worlds(1_000_000) {
            Ok(set) if set.complete => {
                facts = engine_facts(&mut engine, set.worlds.len());
                End::Worlds(show(&set.worlds))
            }
            Ok(set) => End::Incomplete(show(&set.worlds)),
            Err(e) => solver_end(e),
        },
        Err(e) => {
            let at = position(text, e.span.start);
            message = e.error.to_string();
            match e.error {
                Failure::Story { message, .. } if message.starts_with("internal error") => {
                    End::Internal(format!("{at}: {message}"))
                }
                Failure::Story { .. } => End::Story(at),
                Failure::Refuted(_) => End::Refuted(at),
                Failure::CheckFailed(world, found) => {
                    // With the values of the terms compared with probabilities there, as
                    // the evaluator says them (" where 0, 1/4").
                    let values: Vec<String> = found.iter().map(|f| f.value.to_string()).collect();
                    let found = match values.is_empty() {
                        true => String::new(),
                        false => format!(" where {}", values.join(", ")),
                    };
                    End::CheckFailed(format!("{at} in {:?}{found}", world.0))
                }
                e => solver_end(e),
            }
        }
    };
    Transcript {
        events,
        end,
        message,
        engine: facts,
    }
}

/// What the engine says of the `n` worlds possible at the end: whether it counts them
/// right (Z3 may only say "more than" beyond what it lists), and, for a few, the
/// epistemic model.
fn engine_facts(engine: &mut Engine, n: usize) -> Vec<String> {
    let n = n as u64;
    let count = match engine.count_worlds(None, 1_000_000) {
        Ok(WorldCount::Exactly(k)) if k == n => "right".to_string(),
        Ok(WorldCount::MoreThan(k)) if k < n => "right".to_string(),
        other => format!("{other:?} for {n} worlds"),
    };
    let mut facts = vec![format!("count: {count}")];
    if n <= MODEL_CAP as u64 {
        facts.push(match engine.model(None, MODEL_CAP) {
            Ok(Some(model)) => format!(
                "model: {}, believed: {:?}",
                partitions(&model),
                epipen::explore::graph::arrows(&model)
                    .iter()
                    .map(|a| (a.from, a.to, a.who.iter().map(|c| c.0).collect::<Vec<_>>()))
                    .collect::<Vec<_>>()
            ),
            other => format!("model: {other:?}"),
        });
    }
    facts
}

/// The worlds of an epistemic model and, per character, which of them it cannot tell
/// apart: each world's number is that of the first world with the same view.
fn partitions(model: &Model) -> String {
    let worlds = show(&model.worlds);
    let classes: Vec<Vec<usize>> = model
        .views
        .iter()
        .map(|views| {
            views
                .iter()
                .map(|v| views.iter().position(|u| u == v).unwrap_or(usize::MAX))
                .collect()
        })
        .collect();
    format!("{worlds}, classes {classes:?}")
}

fn solver_end(e: Failure) -> End {
    match e {
        Failure::Timeout | Failure::QeTimeout(_) => End::Timeout,
        e => End::Solver(e.solver_detail().unwrap_or_else(|| e.to_string())),
    }
}

/// What the brute-force evaluator reports of a run of `program` over `domain`, in the
/// engine's terms.
/// An event's line: where, in which round, the actual case and what each saw.
fn happened_line(
    text: &str,
    span: Span,
    round: Option<u64>,
    case: Option<usize>,
    saw: &[Vec<usize>],
) -> String {
    format!(
        "{}: round {round:?}: case {case:?}, saw {saw:?}",
        position(text, span.start)
    )
}

pub fn evaluator_transcript(program: &Program, text: &str, domain: &Domain) -> Transcript {
    let trace = bruteforce::trace(program, domain);
    let events = trace
        .events
        .iter()
        .map(|e| match e {
            bruteforce::Report::Worlds {
                span,
                worlds,
                chances,
            }
            | bruteforce::Report::Where {
                span,
                worlds,
                chances,
            } => {
                let what = match e {
                    bruteforce::Report::Where { .. } => "where",
                    _ => "worlds",
                };
                let limit = usize::try_from(worlds_limit(program, *span)).unwrap_or(usize::MAX);
                let shown = &worlds[..worlds.len().min(limit)];
                let chances = chances.as_ref().map(|c| &c[..c.len().min(limit)]);
                worlds_line(text, *span, what, shown, worlds.len() <= limit)
                    + &chances_note(chances)
            }
            bruteforce::Report::Show {
                span,
                actual,
                values,
            } => {
                let values = values
                    .iter()
                    .map(|(a, n)| {
                        let a = match a {
                            bruteforce::Amount::Int(i) => i.to_string(),
                            bruteforce::Amount::Bool(b) => b.to_string(),
                            bruteforce::Amount::Ratio(q) => q.to_string(),
                        };
                        (a, *n)
                    })
                    .collect();
                show_line(text, *span, *actual, values)
            }
            bruteforce::Report::Reveal {
                span,
                round,
                who,
                holds,
            } => reveal_line(text, *span, *round, who.0, *holds),
            bruteforce::Report::Happened {
                span,
                round,
                case,
                saw,
            } => happened_line(text, *span, *round, *case, saw),
            bruteforce::Report::RepeatDone { span, rounds } => {
                format!("{}: {rounds} rounds", position(text, span.start))
            }
            bruteforce::Report::HintVerified { span } => {
                format!("{}: hint verified", position(text, span.start))
            }
            bruteforce::Report::CheckHolds { span } => {
                format!("{}: check holds", position(text, span.start))
            }
            bruteforce::Report::Vacuous { span, left_none } => {
                vacuous_line(text, *span, *left_none)
            }
            bruteforce::Report::Plan { span, plans, .. } => {
                let plans: Vec<Vec<usize>> = plans
                    .iter()
                    .map(|p| p.iter().map(|a| a.0).collect())
                    .collect();
                format!("{}: plans {plans:?}", position(text, span.start))
            }
        })
        .collect();
    let mut message = String::new();
    let end = match trace.end {
        Ok(worlds) => End::Worlds(show(&worlds)),
        Err(e) => {
            let at = position(text, e.span.start);
            message = e.message.clone();
            match e.kind {
                ErrorKind::Story => End::Story(at),
                ErrorKind::Refuted => End::Refuted(at),
                ErrorKind::CheckFailed => {
                    // "the check fails in the world [Int(1), …]", with " where 0, 1/4"
                    // after a check that compares probabilities.
                    let world = e.message.rsplit(" world ").next().unwrap_or_default();
                    End::CheckFailed(format!("{at} in {world}"))
                }
                ErrorKind::Domain | ErrorKind::Internal => {
                    End::Internal(format!("{at}: evaluator: {}", e.message))
                }
            }
        }
    };
    Transcript {
        events,
        end,
        message,
        engine: Vec::new(),
    }
}

/// Each listed world's probability (the storyteller's), when the run gives them.
fn chances_note(chances: Option<&[num_rational::BigRational]>) -> String {
    match chances {
        Some(c) => {
            let c: Vec<String> = c.iter().map(|q| q.to_string()).collect();
            format!(" chances [{}]", c.join(", "))
        }
        None => String::new(),
    }
}

/// A `show` value as the engine reports it: an int, a bool, an enum value by its index,
/// a probability exactly (`2/3`).
fn amount(a: &Amount) -> String {
    match a {
        Amount::Value(v, _) => v.to_string(),
        Amount::Ratio(q) => q.to_string(),
    }
}

/// `9:1: show actual 2/3`, or `9:1: show [1/3 in 2, 2/3 in 2]` without an actual world:
/// the groups of worlds by value as a sorted multiset (the engine lists them in the
/// order of their first world among the worlds in the canonical order of their values
/// now, the evaluator among its worlds sorted by their values at the start: after a
/// change the two orders differ).
fn show_line(text: &str, span: Span, actual: bool, mut values: Vec<(String, u64)>) -> String {
    let at = position(text, span.start);
    match (actual, values.as_slice()) {
        (true, [(one, 1)]) => format!("{at}: show actual {one}"),
        _ => {
            values.sort();
            let groups: Vec<String> = values.iter().map(|(v, n)| format!("{v} in {n}")).collect();
            format!("{at}: show [{}]", groups.join(", "))
        }
    }
}

/// `9:1: vacuous, no world left by 4:1`: a check or hint that met no world.
fn vacuous_line(text: &str, span: Span, left_none: Span) -> String {
    format!(
        "{}: vacuous, no world left by {}",
        position(text, span.start),
        position(text, left_none.start)
    )
}
