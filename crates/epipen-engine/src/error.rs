//! What can go wrong while a run's statements execute, in one type: [`Failure`] (a
//! question a backend — Z3, BDDs or the explicit worlds — could not answer, a story
//! error only running shows, a refuted hint, a failing check), located at its statement
//! as an [`EngineError`]. A new kind of failure is one variant here and its wording in
//! the kit (`epipen::session`, `Session::failure`).

use super::Counterexample;
use crate::ir::Program;
use crate::syntax::Span;
use crate::worlds::{self, Value, World};

/// Why a statement failed. The first six variants are a backend that could not answer
/// (exit code 1), never to be read as "no worlds".
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The run's `--timeout` ran out.
    Timeout,
    /// The run's `--timeout` ran out while Z3 eliminated the quantifiers of a knowledge
    /// operator: whose knowledge, and over which divisions (the usual cause).
    QeTimeout(String),
    /// The run was cancelled ([`Options::cancel`](crate::Options::cancel)).
    Interrupted,
    /// Z3 hit a resource or memory limit.
    ResourceLimit(String),
    /// Z3 answered `unknown`, with its reason.
    Unknown(String),
    /// A formula the engine cannot decide (e.g. non-linear arithmetic over infinitely
    /// many worlds, where quantifier elimination leaves quantifiers behind).
    Unsupported(String),
    /// The story is wrong in a way only running it shows, e.g. an `actual` that allows
    /// two worlds, a probability over worlds that all weigh 0 (exit code 2): at `at`
    /// when a part of the statement is to blame (a case's weight), else at the statement.
    Story {
        message: String,
        hints: Vec<String>,
        at: Option<Span>,
    },
    /// An `assert_adds_ck` hint is wrong (exit code 1).
    Refuted(Counterexample),
    /// A `check φ` fails in this world of κ (exit code 1), where the terms compared
    /// with probabilities have these values.
    CheckFailed(World, Vec<crate::Found>),
}

impl Failure {
    /// Whether the run's `--timeout` ran out (anywhere, or in quantifier elimination).
    pub fn is_timeout(&self) -> bool {
        matches!(self, Failure::Timeout | Failure::QeTimeout(_))
    }

    /// What a backend answers for an event's name, which the driver replaces by the
    /// occurrence of its latest execution before any backend sees it (a bug otherwise).
    pub(crate) fn unresolved_event() -> Failure {
        Failure::Unsupported(
            "internal error: an event's name reached a backend unresolved (a bug in epipen: \
             please report it with the story)"
                .into(),
        )
    }

    /// What a backend could not answer, without the "solver failure" before it (None
    /// for the other failures).
    pub fn solver_detail(&self) -> Option<String> {
        Some(match self {
            Failure::Timeout => "the solver ran out of time (timeout)".into(),
            Failure::QeTimeout(m) => {
                format!("the solver ran out of time (timeout) eliminating the quantifiers of {m}")
            }
            Failure::Interrupted => "the run was interrupted".into(),
            Failure::ResourceLimit(r) => format!("the solver hit a resource limit ({r})"),
            Failure::Unknown(r) => format!("the solver answered unknown ({r})"),
            Failure::Unsupported(m) => m.clone(),
            _ => return None,
        })
    }
}

/// The story errors that only running a story shows, worded once for every backend.
impl Failure {
    fn story(message: impl Into<String>, hints: &[String]) -> Failure {
        Failure::Story {
            message: message.into(),
            hints: hints.to_vec(),
            at: None,
        }
    }

    /// A question about a checkpoint the run has not passed.
    pub(crate) fn checkpoint_not_reached(name: &str) -> Failure {
        Failure::story(format!("the story never reaches `checkpoint {name}`"), &[])
    }

    /// A `repeat` whose `until` still does not hold after `max` rounds.
    pub(crate) fn repeat_exhausted(max: u64) -> Failure {
        Failure::story(
            format!("`repeat` ran its maximum of {max} rounds and `until` still does not hold"),
            &["raise the number after `max`, or check the `until` condition".into()],
        )
    }

    /// `what` (e.g. "`reveals`") needs the actual world before `actual` declared it.
    pub(crate) fn no_actual_world(what: &str) -> Failure {
        Failure::story(
            format!("{what} needs the actual world, and none is declared yet"),
            &["declare it first with `actual …`, giving every constant its value".into()],
        )
    }

    /// An announcement that does not hold in the actual world.
    pub(crate) fn false_in_actual() -> Failure {
        Failure::story(
            "this announcement is false in the actual world",
            &["announcements are truthful: check it against `actual`".into()],
        )
    }

    /// `who reveals φ` where, in the actual world, `who` does not know whether φ.
    pub(crate) fn reveals_unknown(who: &str, holds: bool) -> Failure {
        let (truth, other) = if holds {
            ("true", "false")
        } else {
            ("false", "true")
        };
        Failure::story(
            format!(
                "{who} cannot reveal this: it is {truth} in the actual world, but {who} does not know it"
            ),
            &[format!(
                "`reveals` says what the speaker knows; in the actual world {who} still considers a world possible where it is {other}"
            )],
        )
    }

    /// The backend asked for by name (by the options, or by the story's `#! backend
    /// NAME`: `pinned`) cannot run the story.
    pub(crate) fn refused(why: &str, pinned: Option<&str>) -> Failure {
        let hint = match pinned {
            Some(name) => format!(
                "the story pins this backend with `#! backend {name}`: write `#! backend auto` \
                 there, or name another backend"
            ),
            None => "the `auto` backend (the default) picks one that takes the story".into(),
        };
        Failure::story(why, &[hint])
    }

    /// A second `actual`: the actual world is declared once.
    pub(crate) fn second_actual() -> Failure {
        Failure::story(
            "the actual world is already declared",
            &["a story has one `actual`: merge the two into one".into()],
        )
    }

    /// A state the engine should never reach (a bug: please report it).
    pub(crate) fn internal(what: &str) -> Failure {
        Failure::story(
            format!("internal error: {what}"),
            &["this is a bug in epipen: please report it with the story".into()],
        )
    }

    /// `actual CASE` in an event, where the story has no actual world.
    pub(crate) fn case_without_actual_world(case: &str) -> Failure {
        Failure::story(
            format!("`actual {case}` needs the story's actual world, and none is declared yet"),
            &["declare it first with `actual …`, or remove this line".into()],
        )
    }

    /// `actual CASE` where the case's precondition is false in the actual world.
    pub(crate) fn not_executable(action: &str, why: &str) -> Failure {
        Failure::story(
            format!("the action `{action}` cannot be done here: {why}"),
            &[
                "an action is done only where its `if` holds and one of its cases can happen"
                    .into(),
            ],
        )
    }

    /// A coordinated plan over a state whose worlds are too many to list (its owners'
    /// knowledge is asked world by world).
    pub(crate) fn coordinated_too_large(cap: usize) -> Failure {
        Failure::story(
            format!(
                "a coordinated plan asks what each owner knows world by world, and this \
                 state has more than {cap} worlds"
            ),
            &["bound the constants further, or drop `coordinated`".into()],
        )
    }

    pub(crate) fn case_impossible(event: &str, case: &str) -> Failure {
        Failure::story(
            format!("the case `{case}` of `{event}` cannot happen in the actual world"),
            &["its precondition is false there: name a case that can happen".into()],
        )
    }

    /// An event without `actual` in a story with an actual world, where not exactly one
    /// case can happen there (`possible`: those that can).
    pub(crate) fn case_unknown(event: &str, possible: &[&str]) -> Failure {
        match possible {
            [] => Failure::story(
                format!("no case of `{event}` can happen in the actual world"),
                &["every case's precondition is false there".into()],
            ),
            _ => Failure::story(
                format!(
                    "which case of `{event}` happened? {} can happen in the actual world",
                    possible
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                &[format!(
                    "say which in the event's block, e.g. `actual {}`",
                    possible[0]
                )],
            ),
        }
    }

    /// A name of an event before any execution of it (an expression reached in an order
    /// the story's text does not show, e.g. in an earlier round of a `repeat`).
    pub(crate) fn event_not_happened(event: &str) -> Failure {
        Failure::story(
            format!("the event `{event}` has not happened yet here"),
            &["talk about an event's case after the event".into()],
        )
    }

    /// `actual φ` where φ holds in no world.
    pub(crate) fn actual_allows_none() -> Failure {
        Failure::story("`actual` allows no world at all", &[])
    }

    /// `actual φ` whose one world was ruled out by earlier announcements.
    pub(crate) fn actual_contradicts() -> Failure {
        Failure::story(
            "the actual world contradicts what was announced before",
            &[],
        )
    }

    /// `actual φ` where φ holds in several of the worlds still possible, `a` and `b` the
    /// first two, each as it is now with its values at the story's start when the story
    /// changed constants (two worlds alike now may differ in their past).
    pub(crate) fn actual_allows_several(
        program: &Program,
        a: (&[Value], Option<&[Value]>),
        b: (&[Value], Option<&[Value]>),
    ) -> Failure {
        let line = |(now, before): (&[Value], Option<&[Value]>)| match before {
            Some(before) => worlds::world_line_since(program, now, before),
            None => worlds::world_line(program, now),
        };
        Failure::story(
            "`actual` must pin down exactly one of the worlds still possible, but it allows several",
            &[format!(
                "for example {} and {}, both still possible; give the constants that tell them apart a value",
                line(a),
                line(b)
            )],
        )
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Story { message, .. } => write!(f, "{message}"),
            Failure::Refuted(_) => write!(f, "the hint is wrong"),
            Failure::CheckFailed(..) => write!(f, "the check fails"),
            other => write!(
                f,
                "solver failure: {}",
                other.solver_detail().unwrap_or_default()
            ),
        }
    }
}

/// A failure at a statement of the story.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineError {
    pub span: Span,
    pub error: Failure,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for EngineError {}
