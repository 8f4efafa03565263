//! `Story.event` and changes (`Story.assign_all`, a case's `then`) from Python: an
//! event block as Python sends it ([`EventSpec`]), built into the Rust API's
//! [`EventBlock`] on the story's thread, and what happened, sent back.
//!
//! Python's case handles arrive as names (a handle of the block being run) or as a
//! handle of another block (its event, its name), which the Rust API refuses with its
//! own words.

use epipen::{Change, Character, EventBlock, Formula, Happened, Int};
use pyo3::prelude::*;

use super::{Actor, Answer, Handles, Term, Value, failed, invalid};

/// A case as a `sees` group, an `expects` group or `actual` names it.
#[derive(Debug, Clone, FromPyObject)]
pub(super) enum CaseItem {
    /// A case's name (a family's, in a group), or a handle of this block.
    Name(String),
    /// A handle of another event block: its event, its name.
    Foreign(String, String),
}

/// Groups of cases, in order.
pub(super) type Groups = Vec<Vec<CaseItem>>;

/// A case: its name, its precondition, its changes (constant, value), its weight.
#[derive(Clone, FromPyObject)]
pub(super) struct CaseSpec(String, Option<Term>, Vec<(Term, Term)>, Option<Term>);

/// An event block as Python states it.
#[derive(Clone)]
pub(super) struct EventSpec {
    pub(super) name: String,
    pub(super) cases: Vec<CaseSpec>,
    /// Who, and its groups (None: `sees_each`).
    pub(super) sees: Vec<(usize, Option<Groups>)>,
    pub(super) expects: Vec<(usize, Groups)>,
    pub(super) actual: Vec<CaseItem>,
}

/// What happened, for Python: the event's index among the story's events (as
/// expressions name it), which execution of it this was (from 1), its name, its cases,
/// the case and its index, for each character so far the cases it could not tell from
/// the one that happened, and the text (`move: moved (Anne saw moved; Sally saw moved
/// or stayed)`).
pub(super) type Reported = (
    usize,
    usize,
    String,
    Vec<String>,
    Option<String>,
    Option<usize>,
    Vec<Vec<String>>,
    String,
);

/// The changes `target := value`, typed as the Rust API types them (`op` names the
/// method in messages).
pub(super) fn changes(
    h: &Handles,
    pairs: &[(Term, Term)],
    op: &str,
) -> Result<Vec<Change>, String> {
    pairs
        .iter()
        .map(|(target, t)| {
            Ok(match (h.value(target)?, h.value(t)?) {
                (Value::Int(x), Value::Int(v)) => Change::new(&x, v),
                (Value::Bool(x), Value::Bool(v)) => Change::new(&x, v),
                (Value::Enum(x), Value::Enum(v)) => Change::new(&x, v),
                (x, v) => {
                    return Err(format!(
                        "`{op}` needs a value of the constant's type: the constant is {}, the value {}",
                        x.kind(),
                        v.kind()
                    ));
                }
            })
        })
        .collect()
}

/// A case's name, or the Rust API's refusal of a handle of another block.
fn named(event: &str, item: &CaseItem) -> Result<String, String> {
    match item {
        CaseItem::Name(name) => Ok(name.clone()),
        CaseItem::Foreign(other, name) => Err(format!(
            "the case `{name}` is a case of another event block (`{other}`), not of this \
             `{event}`"
        )),
    }
}

fn names(event: &str, groups: &Groups) -> Result<Vec<Vec<String>>, String> {
    groups
        .iter()
        .map(|g| g.iter().map(|c| named(event, c)).collect())
        .collect()
}

/// A case built: its name, precondition, changes and weight.
type BuiltCase = (String, Option<Formula>, Vec<Change>, Option<Int>);

/// An event block's lines built from Python's (every expression first, so that a
/// mistake runs nothing): its cases, `sees` lines (None: `sees_each`), `expects` lines
/// and `actual` cases.
pub(super) struct Built {
    cases: Vec<BuiltCase>,
    sees: Vec<(Character, Option<Vec<Vec<String>>>)>,
    expects: Vec<(Character, Vec<Vec<String>>)>,
    actual: Vec<String>,
}

impl Built {
    /// The lines of `spec`, built with the story's handles.
    pub(super) fn of(h: &Handles, spec: &EventSpec) -> Result<Built, String> {
        let event = spec.name.as_str();
        let mut cases = Vec::with_capacity(spec.cases.len());
        for CaseSpec(name, when, then, weight) in &spec.cases {
            let pre = when.as_ref().map(|t| h.formula(t)).transpose()?;
            let weight = weight.as_ref().map(|t| h.int(t)).transpose()?;
            cases.push((name.clone(), pre, changes(h, then, "then")?, weight));
        }
        let mut sees = Vec::with_capacity(spec.sees.len());
        for (who, groups) in &spec.sees {
            let groups = match groups {
                Some(g) => Some(names(event, g)?),
                None => None,
            };
            sees.push((h.character(*who)?, groups));
        }
        let mut expects = Vec::with_capacity(spec.expects.len());
        for (who, groups) in &spec.expects {
            expects.push((h.character(*who)?, names(event, groups)?));
        }
        let actual: Vec<String> = (spec.actual.iter())
            .map(|c| named(event, c))
            .collect::<Result<_, _>>()?;
        Ok(Built {
            cases,
            sees,
            expects,
            actual,
        })
    }

    /// States the lines in the Rust API's event block.
    pub(super) fn state(self, e: &mut EventBlock) {
        for (name, pre, changes, weight) in self.cases {
            let case = e.case(&name);
            if let Some(pre) = pre {
                case.when(pre);
            }
            if let Some(weight) = weight {
                case.weight(weight);
            }
            case.then_all(changes);
        }
        for (who, groups) in self.sees {
            match groups {
                Some(groups) => e.sees(who, groups),
                None => e.sees_each(who),
            }
        }
        for (who, groups) in self.expects {
            e.expects(who, groups);
        }
        for case in self.actual {
            e.actual(case);
        }
    }
}

impl Actor {
    /// `event NAME { … }`: the block built (every expression first, so that a mistake
    /// runs nothing), run, and what happened.
    pub(super) fn event(&mut self, spec: EventSpec) -> Answer<Reported> {
        let built = Built::of(&self.handles, &spec).map_err(invalid)?;
        let happened = self
            .story
            .event(&spec.name, |e| built.state(e))
            .map_err(failed)?;
        Ok(self.report(&happened))
    }

    /// What happened, with the event and the occurrence among the handles.
    pub(super) fn report(&mut self, happened: &Happened) -> Reported {
        let event = happened.event();
        let index = self.handles.event_index(event);
        let handles = &self.handles;
        let saw = (handles.characters.iter())
            .map(|&who| happened.saw(who).into_iter().map(String::from).collect())
            .collect();
        (
            index,
            happened.execution(),
            event.name().to_string(),
            event.cases().to_vec(),
            happened.case().map(String::from),
            happened.case_index(),
            saw,
            happened.to_string(),
        )
    }
}
