//! What a run reports, in story order, as front ends show it: the worlds of a `worlds`
//! or `where` statement, what a character revealed, the case of an event that happened,
//! a `repeat` done, the verdicts of checks and hints, and the answers of plans.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::world::{Shown, Statement, World, Worlds};

/// Something a run reports (serialised with its `kind`: `worlds`, `where`, `reveal`,
/// `event`, `repeat`, `show`, `check`, `hint` or `plan`; `epipen run --trace --json`
/// prints these).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Report {
    /// A `worlds` statement's worlds.
    Worlds {
        line: usize,
        #[serde(flatten)]
        worlds: Worlds,
    },
    /// A `where φ` statement: the worlds possible there where φ holds.
    Where {
        line: usize,
        /// φ as written.
        formula: String,
        #[serde(flatten)]
        worlds: Worlds,
    },
    /// `A reveals φ`: what A said (φ, or its negation when φ was false).
    Reveal {
        line: usize,
        /// The round of the innermost `repeat`.
        round: Option<u64>,
        who: String,
        said: String,
        /// Whether φ held (A said φ rather than its negation).
        holds: bool,
    },
    /// An event happened: its case in the actual world, and the cases each character
    /// could not tell from it.
    Event {
        line: usize,
        round: Option<u64>,
        event: String,
        case: String,
        saw: Saw,
    },
    /// A `repeat` stopped after `rounds` rounds.
    Repeat { line: usize, rounds: u64 },
    /// `show e`: e's value in the actual world (`value`), or in each world still
    /// possible (`values`, grouped by value).
    Show {
        line: usize,
        /// e as written.
        expression: String,
        /// e is a probability (its values are exact fractions as strings: `"2/3"`).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        probability: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        value: Option<Shown>,
        #[serde(skip_serializing_if = "Option::is_none")]
        values: Option<Vec<Counted>>,
    },
    /// A `check φ` or `check actual φ`.
    Check(Verdict),
    /// An `assert_adds_ck` hint.
    Hint(Verdict),
    /// A `plan` or `plan all` statement's answer.
    Plan(Plan),
}

/// A `plan` statement's answer (serialised as `{"kind": "plan", "line": 9,
/// "solvable": true, "length": 1, "plans": [["tell"]]}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Plan {
    pub line: usize,
    /// Whether some plan of at most `max` actions reaches the goal.
    pub solvable: bool,
    /// How many actions each plan found has (they all have as many; 0: the goal holds
    /// already); None when there is none.
    pub length: Option<usize>,
    /// The plans found, each as its actions' names in order (`call[0, 1]` for a member
    /// of a family): the first, or with `plan all` every plan of the shortest length;
    /// none when no plan of at most `max` actions reaches the goal.
    pub plans: Vec<Vec<String>>,
    /// `plan all`: every plan of the shortest length was asked for.
    #[serde(skip)]
    pub all: bool,
    /// D of `max D`: the longest plan looked for.
    #[serde(skip)]
    pub max: usize,
}

impl Plan {
    /// The answer of the `plan` (with `all`: `plan all`) statement on `line`, looking
    /// for plans of at most `max` actions, that found `plans`.
    pub fn found(line: usize, max: usize, all: bool, plans: Vec<Vec<String>>) -> Plan {
        Plan {
            line,
            solvable: !plans.is_empty(),
            length: plans.first().map(Vec::len),
            plans,
            all,
            max,
        }
    }
}

/// A value and how many worlds have it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Counted {
    pub value: Shown,
    pub worlds: u64,
}

/// For each character, the cases of an event it could not tell from the one that
/// happened (serialised as an object: `{"Anne": ["moved"], "Sally": ["moved",
/// "stayed"]}`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Saw(pub Vec<(String, Vec<String>)>);

impl Serialize for Saw {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (who, cases) in &self.0 {
            map.serialize_entry(who, cases)?;
        }
        map.end()
    }
}

/// A term compared with probabilities in a failing check, and its value where it fails:
/// `{"term": "probability(A, x > 1)", "value": "1/4"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Found {
    /// As written in the check (on one line), or as the story names it when it is
    /// written elsewhere (in a definition).
    pub term: String,
    /// Exactly: `1/4`, `0`, `3`.
    pub value: String,
}

/// Which statement a [`Verdict`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    Check,
    CheckActual,
    Hint,
}

/// The verdict of a `check` or an `assert_adds_ck` hint.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub line: usize,
    #[serde(skip)]
    pub kind: VerdictKind,
    /// The formula (or the hint) as written, on one line.
    pub formula: String,
    /// Whether it holds (a hint: verified); None for a hint taken on trust.
    pub holds: Option<bool>,
    /// A hint taken on trust (`--trust-hints`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub trusted: bool,
    /// It holds only because no world is possible (`left_none` says since which
    /// statement): it proves nothing.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub vacuous: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_none: Option<Statement>,
    /// A check that fails: a world where it is false (the actual world, for `check
    /// actual`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub world: Option<World>,
    /// A failing check that compares probabilities: the value in `world` of each term
    /// compared (a side of a comparison outside knowledge operators), in the order
    /// written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub found: Vec<Found>,
    /// A refuted hint: a world on which the hint and its block disagree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<String>,
    /// How long verifying the hint took.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
}

impl Verdict {
    /// How `epipen check` names it: ``check `φ` ``, ``check actual `φ` `` or
    /// ``hint `φ` ``.
    pub fn label(&self) -> String {
        let kind = match self.kind {
            VerdictKind::Check => "check",
            VerdictKind::CheckActual => "check actual",
            VerdictKind::Hint => "hint",
        };
        format!("{kind} `{}`", self.formula)
    }
}

impl Report {
    /// The line of the statement reported.
    pub fn line(&self) -> usize {
        match self {
            Report::Worlds { line, .. }
            | Report::Where { line, .. }
            | Report::Reveal { line, .. }
            | Report::Event { line, .. }
            | Report::Show { line, .. }
            | Report::Repeat { line, .. } => *line,
            Report::Check(v) | Report::Hint(v) => v.line,
            Report::Plan(p) => p.line,
        }
    }

    /// The verdict of a check or a hint.
    pub fn verdict(&self) -> Option<&Verdict> {
        match self {
            Report::Check(v) | Report::Hint(v) => Some(v),
            _ => None,
        }
    }

    /// Whether `epipen run` prints it: everything but the verdicts of hints verified
    /// (those are `epipen check`'s); a hint refuted, trusted or vacuous is printed.
    pub fn printed_by_run(&self) -> bool {
        match self {
            Report::Hint(v) => v.trusted || v.vacuous || v.holds == Some(false),
            _ => true,
        }
    }

    /// A check or hint that holds only because no world is possible.
    pub fn vacuous(&self) -> bool {
        self.verdict().is_some_and(|v| v.vacuous)
    }

    /// The answer of a plan.
    pub fn plan(&self) -> Option<&Plan> {
        match self {
            Report::Plan(p) => Some(p),
            _ => None,
        }
    }

    /// A plan that found none: the run goes on, and exits with 1 at its end.
    pub fn unsolvable(&self) -> bool {
        self.plan().is_some_and(|p| !p.solvable)
    }

    /// Whether the run exits with 1 because of it, though it goes on past it: a check
    /// that fails, a hint refuted, a verdict that holds only because no world is left
    /// (it proves nothing), a plan that found none.
    pub fn fails_run(&self) -> bool {
        super::Tally::of([self]).failed()
    }
}
