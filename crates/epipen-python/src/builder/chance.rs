//! Probabilities from Python (`epipen.probability`, `Story.prior`, a case's `weight=`,
//! `Story.show`): the probability terms Python sends, as the Rust API's [`Chance`].

use epipen::story::{Shown, ShownValue};
use epipen::{Chance, Character, Formula};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::{Actor, Answer, Handles, Term, Tree, Value, failed, invalid};

/// A probability term (an `epipen.Probability`'s).
#[derive(Debug, Clone)]
pub(super) enum Rat {
    /// `probability(A, φ)`; None: the speaker's in what a character says, else the
    /// storyteller's.
    Probability(Option<usize>, Box<Tree>),
    /// An exact fraction (numerator, denominator).
    Ratio(i64, i64),
    /// An int expression.
    Int(Box<Tree>),
    Arith(String, Box<Rat>, Box<Rat>),
    Neg(Box<Rat>),
}

impl Handles {
    /// The Rust API's probability term for `r`.
    fn chance(&self, r: &Rat, speaker: Option<Character>) -> Result<Chance, String> {
        let sub = |r: &Rat| self.chance(r, speaker);
        Ok(match r {
            Rat::Probability(who, f) => {
                // Left out: the speaker's in what a character says (as `knows`, and
                // refused inside another character's knowledge), else the storyteller's.
                let agent = match (who, speaker) {
                    (None, None) => None,
                    _ => Some(self.agent(*who, speaker, "probability")?),
                };
                let f = self.within(*who, speaker, "probability", || self.formula(f, speaker))?;
                match agent {
                    Some(a) => Formula::probability(a, f),
                    None => Formula::probability_of(f),
                }
            }
            Rat::Ratio(n, d) => Chance::ratio(*n, *d),
            Rat::Int(t) => Chance::from(self.int(t, speaker)?),
            Rat::Neg(a) => -sub(a)?,
            Rat::Arith(op, a, b) => {
                let (a, b) = (sub(a)?, sub(b)?);
                match op.as_str() {
                    "+" => a + b,
                    "-" => a - b,
                    "*" => a * b,
                    "/" => a / b,
                    other => return Err(format!("unknown operator {other} on probabilities")),
                }
            }
        })
    }

    /// A comparison of probability terms.
    pub(super) fn chance_cmp(
        &self,
        op: &str,
        a: &Rat,
        b: &Rat,
        speaker: Option<Character>,
    ) -> Result<Value, String> {
        let (a, b) = (self.chance(a, speaker)?, self.chance(b, speaker)?);
        Ok(Value::Bool(match op {
            "==" => a.eq(b),
            "!=" => a.ne(b),
            "<" => a.lt(b),
            "<=" => a.le(b),
            ">" => a.gt(b),
            ">=" => a.ge(b),
            other => return Err(format!("unknown comparison {other}")),
        }))
    }
}

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
    pub(super) fn prior(&mut self, t: &Tree) -> Answer<()> {
        let weight = self.handles.int(t, None).map_err(invalid)?;
        self.story.prior(weight).map_err(failed)
    }

    /// `show e`.
    pub(super) fn show(&mut self, s: &Term) -> Answer<ShownReply> {
        let h = &self.handles;
        let shown = match s {
            Term::Rat(r) => {
                let c = h.chance(r, None).map_err(invalid)?;
                self.story.show(c)
            }
            Term::Value(t) => match h.value(t, None).map_err(invalid)? {
                Value::Int(i) => self.story.show(i),
                Value::Bool(f) => self.story.show(f),
                Value::Enum(e) => self.story.show(e),
            },
        };
        Ok(ShownReply::of(shown.map_err(failed)?))
    }
}
