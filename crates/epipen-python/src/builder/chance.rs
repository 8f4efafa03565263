//! `Story.prior` and `Story.show` from Python (probability terms are handles:
//! `expr.rs`), and what `show` found, for Python.

use epipen::story::{Shown, ShownValue};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::{Actor, Answer, Term, Value, failed, invalid};

/// A value `Story.show` found, for Python: an int, a bool, a name, or a probability as
/// its exact text (`"2/3"`, which Python makes a `Fraction`).
#[derive(Debug, Clone)]
pub(super) enum Out {
    Int(i64),
    Bool(bool),
    Name(String),
    Probability(String),
}

fn out(v: ShownValue) -> Out {
    match v {
        ShownValue::Int(n) => Out::Int(n),
        ShownValue::Bool(b) => Out::Bool(b),
        ShownValue::Probability(q) => Out::Probability(q.to_string()),
        other => Out::Name(other.to_string()),
    }
}

/// What `Story.show` found: its expression, the value in the actual world (or None),
/// the values by world, and its text.
#[derive(Debug, Clone)]
pub(super) struct ShownReply {
    expression: String,
    actual: Option<Out>,
    by_world: Vec<(Out, u64)>,
    text: String,
}

impl ShownReply {
    fn of(shown: Shown) -> ShownReply {
        ShownReply {
            text: shown.to_string(),
            expression: shown.expression,
            actual: shown.actual.map(out),
            by_world: shown
                .by_world
                .into_iter()
                .map(|(v, n)| (out(v), n))
                .collect(),
        }
    }

    /// `(expression, actual or None, [(value, worlds)], text)`, each value a pair
    /// `(kind, value)`: kind "probability" (value its text), "int", "bool" or "name".
    pub(super) fn into_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let one = |v: &Out| -> PyResult<Bound<'py, PyTuple>> {
            match v {
                Out::Int(n) => ("int", *n).into_pyobject(py),
                Out::Bool(b) => ("bool", *b).into_pyobject(py),
                Out::Name(s) => ("name", s.as_str()).into_pyobject(py),
                Out::Probability(s) => ("probability", s.as_str()).into_pyobject(py),
            }
        };
        let actual = self.actual.as_ref().map(one).transpose()?;
        let list = PyList::empty(py);
        for (v, n) in &self.by_world {
            list.append((one(v)?, *n))?;
        }
        (self.expression, actual, list, self.text).into_pyobject(py)
    }
}

impl Actor {
    /// `prior e`.
    pub(super) fn prior(&mut self, t: &Term) -> Answer<()> {
        let weight = self.handles.int(t).map_err(invalid)?;
        self.story.prior(weight).map_err(failed)
    }

    /// `show e`.
    pub(super) fn show(&mut self, s: &Term) -> Answer<ShownReply> {
        let h = &self.handles;
        let shown = match h.value(s).map_err(invalid)? {
            Value::Int(i) => self.story.show(i),
            Value::Bool(f) => self.story.show(f),
            Value::Enum(e) => self.story.show(e),
            Value::Chance(c) => self.story.show(c),
        };
        Ok(ShownReply::of(shown.map_err(failed)?))
    }
}
