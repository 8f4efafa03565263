//! `Story.event` and changes (`Story.assign_all`, a case's `then`) from Python: an
//! event block as Python sends it ([`EventSpec`]), built into the Rust API's
//! [`EventBlock`](epipen::EventBlock) on the story's thread, and what happened, sent back.
//!
//! Python's case handles arrive as names (a handle of the block being run) or as a
//! handle of another block, which the Rust API refuses with its own words.

use epipen::{Change, Character, EventBlock, Formula, Happened, Int};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::{Actor, Answer, Handles, Tree, Value, failed, invalid, tree};

/// A case as a `sees` group, an `expects` group or `actual` names it.
#[derive(Debug, Clone)]
pub(super) enum CaseItem {
    /// A case's name (a family's, in a group), or a handle of this block.
    Name(String),
    /// A handle of another event block: its event, its name.
    Foreign(String, String),
}

/// Groups of cases, in order.
type Groups = Vec<Vec<CaseItem>>;

/// A case: its name, its precondition, its changes (constant, value).
#[derive(Debug, Clone)]
pub(super) struct CaseSpec {
    name: String,
    when: Option<Tree>,
    then: Vec<(usize, Tree)>,
    /// `weight e` (None: 1).
    weight: Option<Tree>,
}

/// An event block as Python states it.
#[derive(Debug, Clone)]
pub(super) struct EventSpec {
    pub(super) name: String,
    cases: Vec<CaseSpec>,
    /// Who, and its groups (None: `sees_each`).
    sees: Vec<(usize, Option<Groups>)>,
    expects: Vec<(usize, Groups)>,
    actual: Vec<CaseItem>,
}

/// What happened, for Python.
#[derive(Debug, Clone)]
pub(super) struct Reported {
    /// The event's index among the story's events (as expressions name it).
    event: usize,
    name: String,
    cases: Vec<String>,
    /// The occurrence's index among the story's constants.
    occurrence: usize,
    case: Option<String>,
    case_index: Option<usize>,
    /// For each character so far, the cases it could not tell from the one that happened.
    saw: Vec<Vec<String>>,
    /// `move: moved (Anne saw moved; Sally saw moved or stayed)`
    text: String,
}

impl<'py> IntoPyObject<'py> for Reported {
    type Target = PyTuple;
    type Output = Bound<'py, PyTuple>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        (
            self.event,
            self.name,
            self.cases,
            self.occurrence,
            self.case,
            self.case_index,
            self.saw,
            self.text,
        )
            .into_pyobject(py)
    }
}

/// `("name", case)` or `("foreign", event, case)`.
fn case_item(obj: &Bound<'_, PyAny>) -> PyResult<CaseItem> {
    let t = obj
        .cast::<PyTuple>()
        .map_err(|_| PyTypeError::new_err("not a case"))?;
    let tag: String = t.get_item(0)?.extract()?;
    match tag.as_str() {
        "name" => Ok(CaseItem::Name(t.get_item(1)?.extract()?)),
        "foreign" => Ok(CaseItem::Foreign(
            t.get_item(1)?.extract()?,
            t.get_item(2)?.extract()?,
        )),
        other => Err(PyTypeError::new_err(format!("not a case: {other}"))),
    }
}

fn groups(obj: &Bound<'_, PyAny>) -> PyResult<Groups> {
    obj.try_iter()?
        .map(|g| g?.try_iter()?.map(|c| case_item(&c?)).collect())
        .collect()
}

/// `[(constant, value tree), …]`
pub(super) fn changes_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(usize, Tree)>> {
    obj.try_iter()?
        .map(|pair| {
            let pair = pair?;
            let t = pair.cast::<PyTuple>()?;
            Ok((t.get_item(0)?.extract()?, tree(&t.get_item(1)?)?))
        })
        .collect()
}

impl EventSpec {
    /// The block from Python: `name`, `[(case, when or None, [(constant, value)],
    /// weight or None)]`,
    /// `[(who, groups or None)]`, `[(who, groups)]`, `[case]`.
    pub(super) fn from_py(
        name: String,
        cases: &Bound<'_, PyAny>,
        sees: &Bound<'_, PyAny>,
        expects: &Bound<'_, PyAny>,
        actual: &Bound<'_, PyAny>,
    ) -> PyResult<EventSpec> {
        let cases = cases
            .try_iter()?
            .map(|c| {
                let c = c?;
                let t = c.cast::<PyTuple>()?;
                let when = t.get_item(1)?;
                Ok(CaseSpec {
                    name: t.get_item(0)?.extract()?,
                    when: if when.is_none() {
                        None
                    } else {
                        Some(tree(&when)?)
                    },
                    then: changes_of(&t.get_item(2)?)?,
                    weight: match t.len() > 3 && !t.get_item(3)?.is_none() {
                        true => Some(tree(&t.get_item(3)?)?),
                        false => None,
                    },
                })
            })
            .collect::<PyResult<_>>()?;
        let sees = sees
            .try_iter()?
            .map(|line| {
                let line = line?;
                let t = line.cast::<PyTuple>()?;
                let g = t.get_item(1)?;
                let g = if g.is_none() { None } else { Some(groups(&g)?) };
                Ok((t.get_item(0)?.extract()?, g))
            })
            .collect::<PyResult<_>>()?;
        let expects = expects
            .try_iter()?
            .map(|line| {
                let line = line?;
                let t = line.cast::<PyTuple>()?;
                Ok((t.get_item(0)?.extract()?, groups(&t.get_item(1)?)?))
            })
            .collect::<PyResult<_>>()?;
        let actual = actual
            .try_iter()?
            .map(|c| case_item(&c?))
            .collect::<PyResult<_>>()?;
        Ok(EventSpec {
            name,
            cases,
            sees,
            expects,
            actual,
        })
    }
}

/// The changes `target := value`, typed as the Rust API types them (`op` names the
/// method in messages).
pub(super) fn changes(
    h: &Handles,
    pairs: &[(usize, Tree)],
    op: &str,
) -> Result<Vec<Change>, String> {
    pairs
        .iter()
        .map(|(k, t)| {
            let target = h
                .constants
                .get(*k)
                .cloned()
                .ok_or_else(|| "a constant of another story".to_string())?;
            Ok(match (target, h.value(t, None)?) {
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
        for c in &spec.cases {
            let pre = match &c.when {
                Some(t) => Some(h.formula(t, None)?),
                None => None,
            };
            let weight = match &c.weight {
                Some(t) => Some(h.int(t, None)?),
                None => None,
            };
            cases.push((c.name.clone(), pre, changes(h, &c.then, "then")?, weight));
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
        let handles = &mut self.handles;
        let event = happened.event();
        let index = match (handles.events.iter()).position(|e| e.id() == event.id()) {
            Some(k) => k,
            None => {
                handles.events.push(event.clone());
                handles.events.len() - 1
            }
        };
        handles
            .constants
            .push(Value::Enum(happened.occurrence().clone()));
        let saw = (handles.characters.iter())
            .map(|&who| happened.saw(who).into_iter().map(String::from).collect())
            .collect();
        Reported {
            event: index,
            name: event.name().to_string(),
            cases: event.cases().to_vec(),
            occurrence: handles.constants.len() - 1,
            case: happened.case().map(String::from),
            case_index: happened.case_index(),
            saw,
            text: happened.to_string(),
        }
    }
}
