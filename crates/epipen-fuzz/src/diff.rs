//! Runs a printed story on every backend that takes it and on the evaluator, and says
//! whether they agree: the same events (worlds statements, reveals and whether they
//! held, event executions, finished repeats, verified hints, shows, plans), then the
//! same worlds, or the same kind of error at the same statement; and the backends with
//! each other on the world count, the epistemic model and `epipen check`'s verdicts.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use epipen::engine::{History, Options, Strategy};

use crate::print::Printed;
use crate::transcript::{
    End, Transcript, engine_transcript, engine_transcript_with, evaluator_transcript, takes,
};

/// The backends every story is offered to.
pub const BACKENDS: [Strategy; 4] = [
    Strategy::Z3,
    Strategy::Bdd,
    Strategy::Explicit,
    Strategy::Auto,
];

/// Time allowed to a backend per story: generated stories take milliseconds, so a
/// timeout is a finding (counted, and reported as a failure). 60 s, or `FUZZ_TIMEOUT`
/// seconds (to find runaways quickly).
pub fn timeout() -> Duration {
    let secs = std::env::var("FUZZ_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok());
    Duration::from_secs(secs.unwrap_or(60))
}

/// What a campaign found, for its report and docs/testing.md.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub stories: u64,
    /// Stories that do not compile, as expected (`--set n` below 0 with families).
    pub compile_errors: u64,
    /// Stories with a `:=` where none can stand, refused at its place, as expected.
    pub refused: u64,
    /// Per backend (in [`BACKENDS`] order): stories it took.
    pub taken: [u64; 4],
    /// How the evaluator's runs ended: worlds (by count), story errors, refuted hints.
    pub endings: BTreeMap<String, u64>,
    /// Why a backend did not take a story (its refusal, numbers left out).
    pub refusals: BTreeMap<String, u64>,
    /// Stories with an `actual`, a reveal, a `repeat`, a hint, ...
    pub features: BTreeMap<&'static str, u64>,
    pub disagreements: u64,
    pub elapsed: Duration,
}

impl Tally {
    pub fn report(&self) -> String {
        let names = ["z3", "bdd", "explicit", "auto"];
        let taken: Vec<String> = names
            .iter()
            .zip(self.taken)
            .map(|(n, t)| format!("{n} {t}"))
            .collect();
        format!(
            "{} stories in {:.1} s ({} do not compile, as expected; {} with a change refused \
             at its place, as expected); taken: {}; evaluator endings: {:?}; refusals: {:?}; \
             features: {:?}; disagreements: {}",
            self.stories,
            self.elapsed.as_secs_f64(),
            self.compile_errors,
            self.refused,
            taken.join(", "),
            self.endings,
            self.refusals,
            self.features,
            self.disagreements
        )
    }
}

thread_local! {
    /// What this thread's stories gave (each test runs on its own thread).
    static TALLY: RefCell<Tally> = RefCell::new(Tally::default());
}

fn tally(f: impl FnOnce(&mut Tally)) {
    TALLY.with(|t| f(&mut t.borrow_mut()));
}

/// This thread's tally so far, reset.
pub fn take_tally() -> Tally {
    TALLY.with(|t| std::mem::take(&mut *t.borrow_mut()))
}

fn ending(t: &Transcript) -> String {
    match &t.end {
        End::Worlds(s) => {
            let count: usize = s
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            match count {
                0 => "0 worlds".into(),
                1 => "1 world".into(),
                2..=5 => "2-5 worlds".into(),
                _ => "6+ worlds".into(),
            }
        }
        End::Story(_) => format!("story error: {}", without_numbers(&t.message)),
        End::Refuted(_) => "refuted hint".into(),
        End::CheckFailed(_) => "failed check".into(),
        other => format!("{other:?}"),
    }
}

/// A message without its numbers and names in backquotes: "`repeat` ran its 3
/// rounds" and "… ran its 4 rounds" count as one.
fn without_numbers(message: &str) -> String {
    let words: Vec<&str> = message
        .split(' ')
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()) && !w.starts_with("`x"))
        .collect();
    words.join(" ")
}

const FEATURES: [(&str, &str); 30] = [
    ("actual", "actual "),
    ("reveals", " reveals "),
    ("repeat", "repeat max"),
    ("simultaneously", "simultaneously {"),
    ("assert_adds_ck", "assert_adds_ck"),
    ("at(", "at(c"),
    ("for", "for i"),
    ("if", "\nif "),
    ("sample", "sample("),
    ("family", "[n]"),
    ("enum", "enum Colour"),
    ("learns", " learns "),
    ("knows_value", "knows_value("),
    ("everyone_knows", "everyone_knows("),
    ("common_knowledge", "common_knowledge("),
    ("distributed_knowledge", "distributed_knowledge("),
    ("check", "check "),
    (":=", " := "),
    ("member :=", "] := "),
    ("event", "event e"),
    ("believes", "believes("),
    ("believes_value", "believes_value("),
    ("expects", " expects "),
    ("prior", "\nprior "),
    ("weight", " weight "),
    ("probability(", "probability("),
    ("show", "show "),
    ("action statement", "action act"),
    ("do statement", "do act"),
    ("plan statement", "plan "),
];

/// Runs `printed` everywhere; Err(report) when two runs disagree.
pub fn check(printed: &Printed) -> Result<(), String> {
    let start = Instant::now();
    let result = compare(printed);
    let elapsed = start.elapsed();
    if let Some(slow) = std::env::var("FUZZ_SLOW")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        && elapsed.as_secs_f64() > slow
    {
        // Tuning the generator: the stories that take longer than this.
        eprintln!(
            "=== slow: {:.1} s ===\n{}{}",
            elapsed.as_secs_f64(),
            printed.command(),
            printed.text
        );
    }
    tally(|t| {
        t.stories += 1;
        t.elapsed += elapsed;
        for (name, needle) in FEATURES {
            if printed.text.contains(needle) {
                *t.features.entry(name).or_default() += 1;
            }
        }
        for name in &printed.constructs {
            *t.features.entry(name).or_default() += 1;
        }
        if result.is_err() {
            t.disagreements += 1;
        }
    });
    result
}

fn compare(printed: &Printed) -> Result<(), String> {
    let text = &printed.text;
    let program = match printed.compile() {
        Ok(p) => p,
        Err(_) if printed.negative_size => {
            tally(|t| t.compile_errors += 1);
            return Ok(());
        }
        // Every backend compiles alike: the error, at the `:=`, is theirs and the
        // evaluator's.
        Err(epipen::CompileError::Story(errors))
            if !printed.refused.is_empty()
                && errors
                    .iter()
                    .all(|e| printed.refused.contains(&e.span.start)) =>
        {
            tally(|t| t.refused += 1);
            return Ok(());
        }
        Err(e) => {
            return Err(report(
                printed,
                &format!("a generated story does not compile: {e:?}"),
                &[],
            ));
        }
    };
    if printed.negative_size {
        return Err(report(
            printed,
            "a family of fewer than 0 members compiles",
            &[],
        ));
    }
    if !printed.refused.is_empty() {
        return Err(report(
            printed,
            "a change in `simultaneously` or in a hint's block compiles",
            &[],
        ));
    }
    crate::dump(text);
    let expected = evaluator_transcript(&program, text, &printed.domain(&program));
    let held = expected
        .events
        .iter()
        .filter(|e| e.ends_with("check holds"));
    let held = held.count() as u64;
    // Stories that ran everywhere (compiled) with events and belief (issues 19 and 20).
    let happened = expected.events.iter().any(|e| e.contains(": case "));
    // What the `plan`s answered (`[]`, `[[]]`, `[[0, 1]]`, …).
    let plans = (expected.events.iter()).filter_map(|e| e.split_once(": plans ").map(|(_, p)| p));
    let ran = [
        ("ran: an event", text.contains("event e")),
        ("ran: an event happened", happened),
        (
            "ran: belief",
            text.contains("believes") || text.contains(" expects "),
        ),
        ("ran: believes or believes_value", text.contains("believes")),
        ("ran: expects line or statement", text.contains(" expects ")),
        (
            "ran: events and believes",
            text.contains("event e") && text.contains("believes"),
        ),
        ("ran: probabilistic", program.probabilistic()),
        ("ran: prior", text.contains("\nprior ")),
        ("ran: weight", text.contains(" weight ")),
        ("ran: probability", text.contains("probability(")),
        ("ran: show", text.contains("show ")),
        (
            "ran: show of a probability",
            printed.constructs.contains("show of a probability"),
        ),
        (
            "ran: worlds with chances",
            expected.events.iter().any(|e| e.contains(" chances [")),
        ),
        ("ran: a plan", plans.clone().next().is_some()),
        (
            "ran: a plan of 1+ actions",
            plans
                .clone()
                .any(|p| p.starts_with("[[") && !p.starts_with("[[]")),
        ),
        ("ran: no plan", plans.clone().any(|p| p == "[]")),
        (
            "ran: a plan of 0 actions",
            plans.clone().any(|p| p == "[[]]"),
        ),
        (
            "ran: several plans (all)",
            plans.clone().any(|p| p.contains("], [")),
        ),
        (
            "ran: a coordinated plan of 1+ actions",
            expected.events.iter().any(|e| {
                let line = e.split(':').next().and_then(|l| l.parse::<usize>().ok());
                let coordinated = line
                    .and_then(|l| text.lines().nth(l.saturating_sub(1)))
                    .is_some_and(|l| l.trim_end().ends_with(" coordinated"));
                coordinated && e.contains(": plans [[") && !e.contains(": plans [[]")
            }),
        ),
        (
            "ran: do",
            expected.events.iter().any(|e| {
                let line = e.split(':').next().and_then(|l| l.parse::<usize>().ok());
                e.contains(": case ")
                    && line
                        .and_then(|l| text.lines().nth(l.saturating_sub(1)))
                        .is_some_and(|l| l.trim_start().starts_with("do "))
            }),
        ),
    ];
    tally(|t| {
        *t.endings.entry(ending(&expected)).or_default() += 1;
        *t.features.entry("checks held (events)").or_default() += held;
        for (name, yes) in ran {
            if yes {
                *t.features.entry(name).or_default() += 1;
            }
        }
    });
    if let Some(needle) = std::env::var_os("FUZZ_SHOW") {
        // Tuning the generator: the stories whose evaluator run says this.
        if expected
            .message
            .contains(needle.to_str().unwrap_or_default())
        {
            eprintln!("=== {} ===\n{}{expected}", printed.command(), printed.text);
        }
    }
    if let End::Internal(why) = &expected.end {
        return Err(report(
            printed,
            &format!("the evaluator cannot run the story: {why}"),
            &[],
        ));
    }
    let mut runs = vec![("evaluator".to_string(), expected.clone())];
    let mut checks = Vec::new();
    let mut disagree = false;
    let hints = text.contains("assert_adds_ck") || text.contains("check ");
    let chances = program.probabilistic();
    for (i, strategy) in BACKENDS.into_iter().enumerate() {
        let exact = matches!(strategy, Strategy::Explicit | Strategy::Auto);
        if chances && !exact && takes(strategy, &program) {
            // Z3 and BDDs compute no probabilities: a refusal by name, never an answer.
            return Err(report(
                printed,
                &format!("{strategy:?} takes a story with probabilities"),
                &[],
            ));
        }
        if !takes(strategy, &program) {
            let why = engine_transcript(&program, text, strategy, timeout()).message;
            if chances && !exact && !why.contains("does not compute probabilities") {
                return Err(report(
                    printed,
                    &format!(
                        "{strategy:?} refuses a story with probabilities without naming them: {why}"
                    ),
                    &[],
                ));
            }
            let why = format!("{strategy:?}: {}", without_numbers(&why));
            tally(|t| *t.refusals.entry(why).or_default() += 1);
            continue;
        }
        let got = engine_transcript(&program, text, strategy, timeout());
        tally(|t| t.taken[i] += 1);
        if let Some(limit) = known_limit(&got) {
            // Left to the backend's work (docs/testing.md), counted, not compared.
            let why = format!("{strategy:?} at run time: {limit}");
            tally(|t| *t.refusals.entry(why).or_default() += 1);
            continue;
        }
        // What only engines report (counts, models) agrees between them.
        disagree |= got != expected
            || runs
                .get(1)
                .is_some_and(|(_, first)| first.engine != got.engine);
        runs.push((format!("{strategy:?}"), got));
        if hints {
            // As `epipen check` runs it: every hint's and check's verdict, refuted and
            // failed ones included.
            let options = Options {
                deadline: std::time::Instant::now().checked_add(timeout()),
                strategy,
                keep_refuted_hints: true,
                ..Options::default()
            };
            let got = engine_transcript_with(&program, text, &options);
            if known_limit(&got).is_some() {
                continue;
            }
            disagree |= checks.first().is_some_and(|(_, first)| *first != got);
            if matches!(strategy, Strategy::Bdd | Strategy::Explicit) && text.contains("event ") {
                // As `epipen check` runs it on BDDs and on explicit worlds: the events'
                // histories forgotten where the story reads none. The verdicts must be
                // the same (a failing check's world is named by its values now, the
                // worlds at the end are not compared).
                let forgetting = Options {
                    history: History::ForgottenWhereUnread,
                    ..options.clone()
                };
                let allowed = epipen::engine::history(&program, &forgetting);
                let forgot = match allowed {
                    History::ForgottenWhereUnread => {
                        Some(engine_transcript_with(&program, text, &forgetting))
                    }
                    History::Kept => None,
                };
                if let Some(forgot) = forgot.filter(|f| known_limit(f).is_none()) {
                    let feature = match strategy {
                        Strategy::Bdd => "checked with histories forgotten (bdd)",
                        _ => "checked with histories forgotten (explicit)",
                    };
                    tally(|t| *t.features.entry(feature).or_default() += 1);
                    if verdicts(&forgot) != verdicts(&got) {
                        disagree = true;
                        checks.push((format!("{strategy:?} (check, histories forgotten)"), forgot));
                    }
                } else if let Some(report) = forgetting_variant(printed, &options) {
                    return Err(report);
                }
            }
            checks.push((format!("{strategy:?} (check)"), got));
        }
    }
    if !disagree {
        return Ok(());
    }
    runs.extend(checks);
    let report = report(printed, "the runs disagree", &runs);
    if std::env::var_os("FUZZ_EXPLORE").is_some() {
        // Triage: every disagreement on stderr, none stops the run (the tally counts
        // it).
        eprintln!("=== disagreement ===\n{report}");
        tally(|t| t.disagreements += 1);
        return Ok(());
    }
    Err(report)
}

/// Most generated stories read their past (an `expects` line in every event, `worlds`,
/// `learns`, …), so their histories are kept: the story without those lines, when it
/// compiles and may forget, runs on the backend of `options` (BDDs or explicit worlds)
/// with and without forgetting, and the verdicts must agree. The report of a
/// disagreement, if any.
fn forgetting_variant(printed: &Printed, options: &Options) -> Option<String> {
    let reads_the_past = |line: &str| {
        let t = line.trim_start();
        ["worlds", "where ", "show ", "prior ", "checkpoint "]
            .iter()
            .any(|s| t.starts_with(s))
            || t.contains(" expects ")
            || t.contains(" learns ")
    };
    let text: String = (printed.text.lines())
        .filter(|l| !reads_the_past(l))
        .map(|l| format!("{l}\n"))
        .collect();
    if text == printed.text {
        return None;
    }
    let program = epipen::compile_seeded(&text, &printed.sets, printed.seed).ok()?;
    let forgetting = Options {
        history: History::ForgottenWhereUnread,
        ..options.clone()
    };
    if epipen::engine::history(&program, &forgetting) != History::ForgottenWhereUnread {
        return None;
    }
    let kept = engine_transcript_with(&program, &text, options);
    let forgot = engine_transcript_with(&program, &text, &forgetting);
    if known_limit(&kept).is_some() || known_limit(&forgot).is_some() {
        return None;
    }
    let feature = match options.strategy {
        Strategy::Bdd => "checked with histories forgotten (bdd, lines reading the past left out)",
        _ => "checked with histories forgotten (explicit, lines reading the past left out)",
    };
    tally(|t| *(t.features).entry(feature).or_default() += 1);
    if verdicts(&kept) == verdicts(&forgot) {
        return None;
    }
    let variant = Printed {
        text,
        ..printed.clone()
    };
    Some(report(
        &variant,
        "the verdicts differ with the histories forgotten",
        &[
            (format!("{:?} (check)", options.strategy), kept),
            (
                format!("{:?} (check, histories forgotten)", options.strategy),
                forgot,
            ),
        ],
    ))
}

/// A run's verdicts and how it ended, without the worlds it names: what a run with the
/// histories forgotten must say as a run that keeps them does.
fn verdicts(t: &Transcript) -> (Vec<String>, i32) {
    let events = (t.events.iter())
        .map(|e| match e.find(" check fails in ") {
            Some(at) => format!("{} check fails", &e[..at]),
            None => e.clone(),
        })
        .filter(|e| !e.contains(": worlds") && !e.contains(": where"))
        .collect();
    (events, t.end.exit_code())
}

/// Limits of a backend known and left to its own work (docs/testing.md says which): a run
/// that stops at one (or whose model does) is counted as a refusal, not compared.
const KNOWN_LIMITS: [&str; 2] = [
    // The explicit backend evaluates a changed constant as a term over the start values,
    // in 128 bits: `x := min(max(x * x * k, -m), m)` twice goes beyond 128 bits on the
    // way, where the value itself fits (src/engine/explicit/eval.rs, `arith`).
    "a value goes beyond the 128-bit integers of the explicit-worlds backend",
    // Issue 41's campaign: a quantifier over constants in an action (its guard or a
    // case's precondition) is not seen by the refusals, which read the statements only;
    // the explicit backend takes the story and fails there (tests/agreement/plans.rs,
    // `a_quantifier_in_an_action_is_refused_by_name`, ignored until it is fixed).
    "the explicit-worlds backend cannot evaluate a quantifier over constants",
];

/// The known limit `t` ran into, if any.
fn known_limit(t: &Transcript) -> Option<&'static str> {
    let end = match &t.end {
        End::Solver(why) => why.as_str(),
        _ => "",
    };
    KNOWN_LIMITS
        .into_iter()
        .find(|limit| end.contains(limit) || t.engine.iter().any(|f| f.contains(limit)))
}

pub fn report(printed: &Printed, what: &str, runs: &[(String, Transcript)]) -> String {
    let mut s = format!(
        "{what}\n--- story ({}) ---\n{}---\n",
        printed.command(),
        printed.text
    );
    for (name, t) in runs {
        s += &format!("{name}:\n{t}");
    }
    s
}
