//! What crosses from a worker to Python: values, worlds and errors as plain data (the
//! engine's own types hold `Rc`s and Z3 terms bound to the worker's thread), and their
//! Python forms (ints, bools and strings in lists, dicts and tuples; the package's
//! Python classes wrap them).

use epipen::ir::{Program, Ty};
use epipen::worlds::{Value, World, WorldCount, show_value};
use epipen::{About, Failure, FailureKind, Wording};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A constant's value: an int, a bool, or an enum's variant by name.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Out {
    Int(i64),
    Bool(bool),
    Str(String),
}

impl<'py> IntoPyObject<'py> for &Out {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Out::Int(n) => n.into_bound_py_any(py),
            Out::Bool(b) => b.into_bound_py_any(py),
            Out::Str(s) => s.into_bound_py_any(py),
        }
    }
}

/// A view (as serde data) in its Python form: dicts (in the view's field order), lists,
/// strings, ints, floats, bools and None — what the package's `Raw…` types describe, with
/// no JSON text between.
pub(crate) fn view<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use serde_json::Value as J;
    match v {
        J::Null => Ok(py.None().into_bound(py)),
        J::Bool(b) => b.into_bound_py_any(py),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_bound_py_any(py),
            (None, Some(u)) => u.into_bound_py_any(py),
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py),
        },
        J::String(s) => s.into_bound_py_any(py),
        J::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(view(py, item)?)?;
            }
            Ok(list.into_any())
        }
        J::Object(fields) => {
            let dict = PyDict::new(py);
            for (k, item) in fields {
                dict.set_item(k, view(py, item)?)?;
            }
            Ok(dict.into_any())
        }
    }
}

/// A world's values, in declaration order.
pub(crate) fn world(program: &Program, w: &World) -> Vec<Out> {
    (program.constants.iter().zip(&w.0))
        .map(|(c, v)| value(program, c.ty, *v))
        .collect()
}

/// A value of type `ty`: an enum's by its variant's name.
pub(crate) fn value(program: &Program, ty: Ty, v: Value) -> Out {
    match (ty, v) {
        (Ty::Enum(_), _) => Out::Str(show_value(program, ty, v)),
        (_, Value::Int(n)) => Out::Int(n),
        (_, Value::Bool(b)) => Out::Bool(b),
    }
}

/// The story's constants: (name, type as stories write it: `int`, `bool` or the enum's
/// name).
pub(crate) fn constants(program: &Program) -> Vec<(String, String)> {
    program
        .constants
        .iter()
        .map(|c| {
            let ty = match c.ty {
                Ty::Int => "int".to_string(),
                Ty::Bool => "bool".to_string(),
                Ty::Enum(e) => program.enums[e.0].name.clone(),
            };
            (c.name.clone(), ty)
        })
        .collect()
}

/// A world count: an int, `"infinite"`, or `">N"` (as `--json` writes it).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Count {
    Exactly(u64),
    Label(String),
}

impl From<WorldCount> for Count {
    fn from(count: WorldCount) -> Count {
        match count {
            WorldCount::Exactly(n) => Count::Exactly(n),
            WorldCount::Infinite => Count::Label("infinite".into()),
            WorldCount::MoreThan(n) => Count::Label(format!(">{n}")),
        }
    }
}

impl<'py> IntoPyObject<'py> for &Count {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Count::Exactly(n) => n.into_bound_py_any(py),
            Count::Label(s) => s.into_bound_py_any(py),
        }
    }
}

/// Which exception a failure raises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `epipen.StoryError`: the story is wrong (the command line's exit code 2).
    Story,
    /// `epipen.SolverError`: a timeout, `unknown`, a resource limit (exit code 1).
    Solver,
    /// `epipen.RefutedError`: an `assert_adds_ck` hint is wrong (the Story builder).
    Refuted,
}

/// A failure as the package raises it: the command line's text, and where it points.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Located {
    pub kind: Kind,
    /// Exactly what the command line prints.
    pub text: String,
    /// Every error found (a story that does not compile may have several): line, column
    /// (None when it points at no place of the story) and message (without its
    /// `file:line:column: error: `). The exception's own line, column and message are
    /// the first's.
    pub errors: Vec<(Option<usize>, Option<usize>, String)>,
    /// The first error's first hint.
    pub hint: Option<String>,
}

impl Located {
    /// `failure`, with its diagnostics as data and its text as the command line prints
    /// it (the one renderer, `epipen::text`).
    pub(crate) fn new(failure: Failure) -> Located {
        let failure = worded(failure);
        let kind = match failure.kind {
            FailureKind::Story => Kind::Story,
            FailureKind::Solver => Kind::Solver,
        };
        let mut errors: Vec<_> = (failure.diagnostics.iter())
            .map(|d| {
                let at = d.at.as_ref();
                (at.map(|a| a.line), at.map(|a| a.column), d.message.clone())
            })
            .collect();
        if errors.is_empty() {
            errors.push((None, None, failure.summary.clone().unwrap_or_default()));
        }
        Located {
            kind,
            text: epipen::text::failure(&failure),
            errors,
            hint: (failure.diagnostics.first()).and_then(|d| d.hints.first().cloned()),
        }
    }

    /// A failure that is no story's (the Story builder's): its message.
    pub(crate) fn plain(kind: Kind, message: String) -> Located {
        Located {
            kind,
            text: message.clone(),
            errors: vec![(None, None, message)],
            hint: None,
        }
    }

    /// The exception: `epipen.StoryError`, `SolverError` or `RefutedError`.
    pub(crate) fn into_pyerr(self, py: Python<'_>) -> PyErr {
        let class = match self.kind {
            Kind::Story => "StoryError",
            Kind::Solver => "SolverError",
            Kind::Refuted => "RefutedError",
        };
        let made = (|| -> PyResult<PyErr> {
            let class = py.import("epipen._errors")?.getattr(class)?;
            let errors = PyList::empty(py);
            for (line, column, message) in &self.errors {
                errors.append((line, column, message))?;
            }
            let (line, column, message) = &self.errors[0];
            let value = class.call1((&self.text, line, column, message, errors, &self.hint))?;
            Ok(PyErr::from_value(value))
        })();
        made.unwrap_or_else(|e| e)
    }
}

/// A dict from pairs.
pub(crate) fn dict<'py>(
    py: Python<'py>,
    items: Vec<(&str, Bound<'py, PyAny>)>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in items {
        d.set_item(k, v)?;
    }
    Ok(d)
}

/// Anything as a Python object.
pub(crate) fn any<'py>(py: Python<'py>, v: impl IntoPyObject<'py>) -> PyResult<Bound<'py, PyAny>> {
    v.into_bound_py_any(py)
}

/// `failure` in Python's words: the argument it is about named (`at="nowhere": `,
/// `sets["n"] = 3: `, `samples=10: `), how to give a run more time (`timeout=`), and how
/// to ask for a smaller model or sweep values instead of samples (`at=`, `sets=`).
fn worded(failure: Failure) -> Failure {
    failure.worded(|about| match about {
        About::Timeout => Wording {
            named: None,
            hint: Some("raise timeout=, or simplify the story".into()),
        },
        About::Checkpoint(name) => Wording {
            named: Some(format!("at={name:?}")),
            hint: None,
        },
        About::Sets(sets) => Wording {
            named: Some(
                (sets.iter())
                    .map(|(name, value)| match value {
                        Some(value) => format!("sets[{name:?}] = {value}"),
                        None => format!("sets[{name:?}]"),
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            hint: None,
        },
        About::Samples(n) => Wording {
            named: Some(format!("samples={n}")),
            hint: Some(
                "draw the story's values with `(…) in sample(k, {…})`, or sweep values of its consts (sets=) instead"
                    .into(),
            ),
        },
        About::TooBig => Wording {
            named: None,
            hint: Some(
                "draw a checkpoint where fewer worlds are left (model(at=NAME)), or use smaller parameters (sets=)"
                    .into(),
            ),
        },
    })
}
