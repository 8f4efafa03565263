//! Expressions from Python: the native handles `epipen.Int`, `Bool`, `EnumValue` and
//! `Probability` (one [`Expr`] each, of its [`Type`]), `Character` and `Checkpoint`, with
//! Python's operators, the knowledge operators and the connectives, and their text as a
//! story writes it. A handle holds its story (the Python `Story`) and its [`Term`]: the
//! Rust API's value, built at once by the Rust API's operators, or where it cannot be
//! yet (a `knows(φ)` whose agent is the speaker of the `says` it ends up in, `at` a
//! checkpoint by name, an event's cases before it happened) built by the story's thread
//! when a statement uses it; the Rust API's own checks give the messages of mistakes.

use std::sync::Arc;

use epipen::{Chance, Formula, Int as Integer};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};

use super::{Handles, NativeStory, Value, compare, invalid};
use crate::convert::{Kind, Located};

type Obj<'py> = Bound<'py, PyAny>;
/// A handle (or `NotImplemented`) for Python.
type Made = PyResult<Py<PyAny>>;
type Agent = epipen::Character;

/// Where the story's thread finishes a value: its declarations, the speaker of the
/// `says` it is in, and the knowledge operator naming another character than the
/// speaker it is inside (an operator there must name its agent, as in a story file).
#[derive(Clone, Copy)]
pub(super) struct Ctx<'a> {
    pub(super) h: &'a Handles,
    pub(super) speaker: Option<Agent>,
    inside: Option<(Agent, &'static str)>,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(h: &'a Handles, speaker: Option<Agent>) -> Ctx<'a> {
        let inside = None;
        Ctx { h, speaker, inside }
    }

    /// Inside the operator `op` whose agent is `who`.
    fn within(self, (who, op): (Agent, &'static str)) -> Ctx<'a> {
        let inside = (self.speaker != Some(who)).then_some((who, op));
        Ctx { inside, ..self }
    }

    /// The agent of `op(φ)`, its character left out: the speaker.
    fn agent(self, op: &str) -> Result<Agent, String> {
        let Some(speaker) = self.speaker else {
            return Err(format!(
                "`{op}` needs a character here: it may be left out only in what a character says"
            ));
        };
        let Some((other, outer)) = self.inside else {
            return Ok(speaker);
        };
        let h = self.h;
        let name = |c: Agent| {
            (h.characters.iter().position(|d| *d == c))
                .and_then(|k| h.names.get(k).cloned())
                .unwrap_or_default()
        };
        let (speaker, other) = (name(speaker), name(other));
        let what = match op.starts_with("believes") {
            true => "belief",
            false => "knowledge",
        };
        Err(format!(
            "`{op}` inside `{outer}({other}, …)` needs its character: write `{op}({other}, …)` \
             for {other}'s {what}, or `{op}({speaker}, …)` for {speaker}'s"
        ))
    }
}

type Later = dyn Fn(Ctx<'_>) -> Result<Value, String> + Send + Sync;

/// A handle's value of the Rust API's, built at once; or, where it depends on the
/// story's state or on where it is used (the speaker of a `knows(φ)`, a checkpoint by
/// name, an event before it happened), built by the story's thread when a statement
/// uses it.
#[derive(Clone)]
pub(super) enum Term {
    Now(Value),
    Later(Arc<Later>),
}

impl Term {
    pub(super) fn value(&self, c: Ctx<'_>) -> Result<Value, String> {
        match self {
            Term::Now(v) => Ok(v.clone()),
            Term::Later(f) => f(c),
        }
    }
}

fn later(f: impl Fn(Ctx<'_>) -> Result<Value, String> + Send + Sync + 'static) -> Term {
    Term::Later(Arc::new(f))
}

/// `f` of the values of `parts`: at once when they are built, else when a statement
/// uses it (inside the knowledge operator `within`, when given). A mistake is the
/// statement's.
fn combine(
    parts: Vec<Term>,
    within: Option<(Agent, &'static str)>,
    f: impl Fn(Vec<Value>) -> Result<Value, String> + Send + Sync + 'static,
) -> Term {
    let now: Option<Vec<Value>> = (parts.iter())
        .map(|p| match p {
            Term::Now(v) => Some(v.clone()),
            Term::Later(_) => None,
        })
        .collect();
    match now.map(&f) {
        Some(Ok(v)) => Term::Now(v),
        Some(Err(e)) => later(move |_| Err(e.clone())),
        None => later(move |c| {
            let c = within.map_or(c, |w| c.within(w));
            f((parts.iter())
                .map(|p| p.value(c))
                .collect::<Result<_, _>>()?)
        }),
    }
}

/// What a handle is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Type {
    Int,
    Bool,
    Enum,
    Probability,
}

/// An expression of a story (`epipen.Expr`): `Int`, `Bool`, `EnumValue` and
/// `Probability` are its kinds.
#[pyclass(module = "epipen._native", subclass, frozen)]
pub(crate) struct Expr {
    ty: Type,
    pub(super) term: Term,
    /// The Python story of its handles (None: literals only).
    owner: Option<Py<PyAny>>,
    text: String,
    /// How tightly its text binds (for parentheses).
    prec: u8,
    /// An enum value's type (`epipen.EnumType`).
    enum_type: Option<Py<PyAny>>,
    /// A constant's index among the story's.
    constant: Option<usize>,
}

#[pyclass(module = "epipen._native", extends = Expr, frozen)]
pub(crate) struct Int;
#[pyclass(module = "epipen._native", extends = Expr, frozen)]
pub(crate) struct Bool;
#[pyclass(module = "epipen._native", extends = Expr, subclass, frozen)]
pub(crate) struct EnumValue;
#[pyclass(module = "epipen._native", extends = Expr, frozen)]
pub(crate) struct Probability;

/// A character of a story (`epipen.Character`).
#[pyclass(module = "epipen._native", frozen)]
pub(crate) struct Character {
    #[pyo3(get, name = "_story")]
    story: Py<PyAny>,
    #[pyo3(get, name = "_index")]
    index: usize,
    #[pyo3(get)]
    name: String,
    value: Agent,
}

#[pymethods]
impl Character {
    #[new]
    fn new(story: Bound<'_, PyAny>, index: usize, name: String) -> PyResult<Character> {
        let value = declared(&story, move |h| h.characters.get(index).copied())?;
        let story = story.unbind();
        Ok(Character {
            story,
            index,
            name,
            value,
        })
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.story)
    }

    fn __repr__(&self) -> &str {
        &self.name
    }
}

/// A saved knowledge state (`epipen.Checkpoint`), for `at`.
#[pyclass(module = "epipen._native", frozen)]
pub(crate) struct Checkpoint {
    #[pyo3(get, name = "_story")]
    story: Py<PyAny>,
    #[pyo3(get)]
    name: String,
}

#[pymethods]
impl Checkpoint {
    #[new]
    fn new(story: Py<PyAny>, name: String) -> Checkpoint {
        Checkpoint { story, name }
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.story)
    }

    fn __repr__(&self) -> &str {
        &self.name
    }
}

/// A declaration of the story `owner` (a Python `Story`), from its thread.
fn declared<T: Send + 'static>(
    owner: &Obj<'_>,
    get: impl FnOnce(&Handles) -> Option<T> + Send + 'static,
) -> PyResult<T> {
    let native = owner.getattr("_native")?;
    let native = native.cast::<NativeStory>()?.borrow();
    let get = move |a: &mut super::Actor| {
        get(&a.handles).ok_or_else(|| invalid("a declaration of another story".into()))
    };
    native.ask(owner.py(), get)
}

fn story_error(message: String) -> PyErr {
    Python::attach(|py| Located::plain(Kind::Story, message).into_pyerr(py))
}

fn type_error(message: String) -> PyErr {
    PyTypeError::new_err(message)
}

/// `expected …, found type(x).__name__ x!r`.
fn found(expected: &str, x: &Obj<'_>) -> PyErr {
    match (x.get_type().name(), x.repr()) {
        (Ok(ty), Ok(r)) => type_error(format!("{expected}, found {ty} {r}")),
        (Err(e), _) | (_, Err(e)) => e,
    }
}

/// `expected …, found <kind> `e``, for a handle of another kind.
fn wrong(expected: &str, e: &Expr) -> PyErr {
    type_error(format!(
        "{expected}, found {} `{}`",
        e.ty.describe(),
        e.text
    ))
}

impl Type {
    fn describe(self) -> &'static str {
        match self {
            Type::Int => "an int",
            Type::Bool => "a formula",
            Type::Enum => "an enum value",
            Type::Probability => "a probability",
        }
    }
}

impl Expr {
    fn new(ty: Type, term: Term, owner: Option<Py<PyAny>>, text: String, prec: u8) -> Expr {
        Expr {
            ty,
            term,
            owner,
            text,
            prec,
            enum_type: None,
            constant: None,
        }
    }

    fn dup(&self, py: Python<'_>) -> Expr {
        Expr {
            ty: self.ty,
            term: self.term.clone(),
            owner: self.owner.as_ref().map(|o| o.clone_ref(py)),
            text: self.text.clone(),
            prec: self.prec,
            enum_type: self.enum_type.as_ref().map(|e| e.clone_ref(py)),
            constant: self.constant,
        }
    }

    fn paren(&self, prec: u8) -> String {
        match self.prec < prec {
            true => format!("({})", self.text),
            false => self.text.clone(),
        }
    }
}

fn bool_expr(term: Term, owner: Option<Py<PyAny>>, text: String, prec: u8) -> Expr {
    Expr::new(Type::Bool, term, owner, text, prec)
}

fn number(n: impl Into<Integer>) -> Term {
    Term::Now(Value::Int(n.into()))
}

fn int_arith(op: &str, a: Integer, b: Integer) -> Integer {
    match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" => a / b,
        _ => a % b,
    }
}

/// Makes the handle `e` (of its kind) for Python.
fn made(py: Python<'_>, e: Expr) -> Made {
    let ty = e.ty;
    let init = PyClassInitializer::from(e);
    Ok(match ty {
        Type::Int => Bound::new(py, init.add_subclass(Int))?.into_any(),
        Type::Bool => Bound::new(py, init.add_subclass(Bool))?.into_any(),
        Type::Enum => Bound::new(py, init.add_subclass(EnumValue))?.into_any(),
        Type::Probability => Bound::new(py, init.add_subclass(Probability))?.into_any(),
    }
    .unbind())
}

/// The story of a combination of handles (None: literals only).
fn mix(
    py: Python<'_>,
    owners: impl IntoIterator<Item = Option<Py<PyAny>>>,
) -> PyResult<Option<Py<PyAny>>> {
    let mut found: Option<Py<PyAny>> = None;
    for o in owners.into_iter().flatten() {
        match &found {
            Some(f) if !f.is(&o) => {
                return Err(story_error(
                    "an expression mixes handles of two different stories".into(),
                ));
            }
            Some(_) => {}
            None => found = Some(o.clone_ref(py)),
        }
    }
    Ok(found)
}

fn owner(py: Python<'_>, e: &Expr) -> Option<Py<PyAny>> {
    e.owner.as_ref().map(|o| o.clone_ref(py))
}

fn handle(x: &Obj<'_>) -> Option<Expr> {
    x.cast::<Expr>().ok().map(|b| b.get().dup(x.py()))
}

/// An int literal of any size: a 64-bit literal, or exact arithmetic on them.
fn literal(n: &Obj<'_>) -> PyResult<Integer> {
    if let Ok(k) = n.extract::<i64>() {
        return Ok(Integer::from(k));
    }
    // n == (n >> 62) * 2^62 + (n & (2^62 - 1)), with |n >> 62| smaller than |n|.
    let high = n.call_method1("__rshift__", (62,))?;
    let low: i64 = n.call_method1("__and__", ((1i64 << 62) - 1,))?.extract()?;
    Ok(literal(&high)? * (1i64 << 62) + low)
}

/// `x` as an int expression (`what` names it in the message).
pub(super) fn int_of(x: &Obj<'_>, what: &str) -> PyResult<Expr> {
    if let Some(e) = handle(x) {
        return if e.ty == Type::Int {
            Ok(e)
        } else {
            Err(wrong("expected an int expression", &e))
        };
    }
    if x.is_instance_of::<PyBool>() || !x.is_instance_of::<PyInt>() {
        return Err(found(
            &format!("expected {what} (an epipen Int or a Python int)"),
            x,
        ));
    }
    Ok(Expr::new(
        Type::Int,
        number(literal(x)?),
        None,
        x.str()?.to_string(),
        100,
    ))
}

fn bool_literal(b: bool) -> Expr {
    let text = if b { "true" } else { "false" };
    bool_expr(
        Term::Now(Value::Bool(Formula::from(b))),
        None,
        text.into(),
        100,
    )
}

/// `x` as a formula.
pub(super) fn bool_of(x: &Obj<'_>) -> PyResult<Expr> {
    if let Some(e) = handle(x) {
        return if e.ty == Type::Bool {
            Ok(e)
        } else {
            Err(wrong("expected a formula (a Bool)", &e))
        };
    }
    match x.cast::<PyBool>() {
        Ok(b) => Ok(bool_literal(b.is_true())),
        Err(_) => Err(found(
            "expected a formula (an epipen Bool or a Python bool)",
            x,
        )),
    }
}

/// `x` as a value: an int, a formula or an enum value.
pub(super) fn any_of(x: &Obj<'_>) -> PyResult<Expr> {
    if let Some(e) = handle(x) {
        return match e.ty {
            Type::Probability => Err(type_error(format!(
                "expected an int, a formula or an enum value, found a probability `{}` \
                 (compare a probability, == < …, to get a formula)",
                e.text
            ))),
            _ => Ok(e),
        };
    }
    if x.is_instance_of::<PyBool>() {
        return bool_of(x);
    }
    if x.is_instance_of::<PyInt>() {
        return int_of(x, "an int");
    }
    Err(found("expected an epipen expression, an int or a bool", x))
}

/// `x` as a probability term: a probability, an int (or Int), or a Fraction.
fn term_of(x: &Obj<'_>) -> PyResult<Expr> {
    let py = x.py();
    if let Some(e) = handle(x) {
        return match e.ty {
            Type::Probability => Ok(e),
            Type::Int => Ok(Expr {
                ty: Type::Probability,
                ..e
            }),
            _ => Err(wrong("a probability is compared with numbers", &e)),
        };
    }
    let fraction = py.import("fractions")?.getattr("Fraction")?;
    if x.is_instance(&fraction)? {
        let (n, d) = (x.getattr("numerator")?, x.getattr("denominator")?);
        let (Ok(n), Ok(d)) = (n.extract::<i64>(), d.extract::<i64>()) else {
            return Err(PyValueError::new_err(format!(
                "the fraction {} does not fit in 64 bits",
                x.str()?
            )));
        };
        let (text, prec) = match d {
            1 => (n.to_string(), 100),
            _ => (format!("{n}/{d}"), 9),
        };
        let term = Term::Now(Value::Chance(Chance::ratio(n, d)));
        return Ok(Expr::new(Type::Probability, term, None, text, prec));
    }
    if x.is_instance_of::<PyInt>() && !x.is_instance_of::<PyBool>() {
        return term_of(&made(py, int_of(x, "an int")?)?.into_bound(py));
    }
    if x.is_instance_of::<PyFloat>() {
        return Err(type_error(format!(
            "probabilities are exact: compare them with fractions.Fraction or ints, not the \
             float {}",
            x.repr()?
        )));
    }
    Err(found(
        "expected a probability, an int or a fractions.Fraction",
        x,
    ))
}

fn arith(py: Python<'_>, op: &'static str, a: Expr, b: Expr) -> PyResult<Expr> {
    let prec = if matches!(op, "+" | "-") { 8 } else { 9 };
    let text = format!("{} {op} {}", a.paren(prec), b.paren(prec + 1));
    let owner = mix(py, [owner(py, &a), owner(py, &b)])?;
    let ty = match (a.ty, b.ty) {
        (Type::Int, Type::Int) => Type::Int,
        _ => Type::Probability,
    };
    let term = combine(vec![a.term, b.term], None, move |v| {
        let [a, b] = <[Value; 2]>::try_from(v).expect("two operands");
        if ty == Type::Int {
            return Ok(Value::Int(int_arith(op, a.int()?, b.int()?)));
        }
        let (a, b) = (a.chance()?, b.chance()?);
        Ok(Value::Chance(match op {
            "+" => a + b,
            "-" => a - b,
            "*" => a * b,
            _ => a / b,
        }))
    });
    Ok(Expr::new(ty, term, owner, text, prec))
}

fn cmp(py: Python<'_>, op: &'static str, a: Expr, b: Expr) -> PyResult<Expr> {
    let text = format!("{} {op} {}", a.paren(8), b.paren(8));
    let owner = mix(py, [owner(py, &a), owner(py, &b)])?;
    let chances = a.ty == Type::Probability;
    let term = combine(vec![a.term, b.term], None, move |v| {
        let [a, b] = <[Value; 2]>::try_from(v).expect("two operands");
        let (a, b) = match chances {
            true => (Value::Chance(a.chance()?), Value::Chance(b.chance()?)),
            false => (a, b),
        };
        compare(op, a, b).map(Value::Bool)
    });
    Ok(bool_expr(term, owner, text, 7))
}

fn logic(py: Python<'_>, op: &'static str, a: Expr, b: Expr) -> PyResult<Expr> {
    let (prec, word) = match op {
        "and" => (5, "and"),
        "or" => (4, "or"),
        "implies" => (3, "->"),
        _ => (2, "<->"),
    };
    let text = format!("{} {word} {}", a.paren(prec + 1), b.paren(prec + 1));
    let owner = mix(py, [owner(py, &a), owner(py, &b)])?;
    let term = combine(vec![a.term, b.term], None, move |v| {
        let [a, b] = <[Value; 2]>::try_from(v).expect("two operands");
        let (a, b) = (a.formula()?, b.formula()?);
        Ok(Value::Bool(match op {
            "and" => a.and(b),
            "or" => a.or(b),
            "implies" => a.implies(b),
            _ => a.iff(b),
        }))
    });
    Ok(bool_expr(term, owner, text, prec))
}

fn op_name(op: CompareOp) -> &'static str {
    match op {
        CompareOp::Eq => "==",
        CompareOp::Ne => "!=",
        CompareOp::Lt => "<",
        CompareOp::Le => "<=",
        CompareOp::Gt => ">",
        CompareOp::Ge => ">=",
    }
}

/// The operands of a binary operator, `reflected` when Python calls `o op self`.
fn pair(e: Expr, o: Expr, reflected: bool) -> (Expr, Expr) {
    if reflected { (o, e) } else { (e, o) }
}

impl Expr {
    /// `self op o`, or `o op self` when `reflected`; `NotImplemented` where Python's
    /// class has no such operator, or gives way (an int to a probability, whose
    /// reflected operator answers).
    fn binary(&self, py: Python<'_>, op: &'static str, o: &Obj<'_>, reflected: bool) -> Made {
        let rational = handle(o).is_some_and(|h| h.ty == Type::Probability);
        let e = self.dup(py);
        let (a, b) = match (self.ty, op) {
            (Type::Int, "/") => {
                return Err(type_error(
                    "epipen ints divide with // (integer division), not /".into(),
                ));
            }
            (Type::Int, _) if rational => return Ok(py.NotImplemented()),
            (Type::Int, "+" | "-" | "*" | "//" | "%") => pair(e, int_of(o, "an int")?, reflected),
            (Type::Probability, "+" | "-" | "*" | "/") => pair(e, term_of(o)?, reflected),
            // `^` is `!=`, its operands in their order either way.
            (Type::Bool, "xor") => return made(py, cmp(py, "!=", e, bool_of(o)?)?),
            (Type::Bool, "and" | "or") => {
                let (a, b) = pair(e, bool_of(o)?, reflected);
                return made(py, logic(py, op, a, b)?);
            }
            _ => return Ok(py.NotImplemented()),
        };
        made(py, arith(py, if op == "//" { "/" } else { op }, a, b)?)
    }

    /// An enum value's operand: a value, or a variant's name (its type says).
    fn other(&self, o: &Obj<'_>) -> PyResult<Expr> {
        if let Some(e) = handle(o).filter(|e| e.ty == Type::Enum) {
            return Ok(e);
        }
        let ty = self.enum_type.as_ref().expect("an enum value has its type");
        let v = ty.bind(o.py()).call_method1("_operand", (o,))?;
        any_of(&v)
    }

    fn unary(&self, what: &str, slf: &Obj<'_>) -> PyErr {
        let name = slf
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        type_error(format!("bad operand type for {what}: '{name}'"))
    }
}

#[pymethods]
impl Expr {
    // Python's binary operators and their reflections: `Expr::binary`.
    fn __add__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "+", o, false)
    }
    fn __radd__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "+", o, true)
    }
    fn __sub__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "-", o, false)
    }
    fn __rsub__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "-", o, true)
    }
    fn __mul__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "*", o, false)
    }
    fn __rmul__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "*", o, true)
    }
    fn __floordiv__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "//", o, false)
    }
    fn __rfloordiv__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "//", o, true)
    }
    fn __mod__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "%", o, false)
    }
    fn __rmod__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "%", o, true)
    }
    fn __truediv__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "/", o, false)
    }
    fn __rtruediv__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "/", o, true)
    }
    fn __and__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "and", o, false)
    }
    fn __rand__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "and", o, true)
    }
    fn __or__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "or", o, false)
    }
    fn __ror__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "or", o, true)
    }
    fn __xor__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "xor", o, false)
    }
    fn __rxor__(&self, py: Python<'_>, o: &Obj<'_>) -> Made {
        self.binary(py, "xor", o, true)
    }

    fn __repr__(&self) -> &str {
        &self.text
    }

    /// Its story and enum type, for Python's collector (a story's handles refer to it,
    /// and it to some of them: without this, neither would be collected).
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.owner)?;
        visit.call(&self.enum_type)
    }

    fn __bool__(&self) -> PyResult<bool> {
        Err(type_error(format!(
            "`{}` is an epipen expression, which has no truth value in Python: combine \
             formulas with & | ~ (or And, Or, Not), not and/or/not",
            self.text
        )))
    }

    fn __hash__(slf: &Bound<'_, Self>) -> isize {
        slf.as_ptr() as isize >> 4
    }

    #[getter]
    fn _type(&self) -> &'static str {
        self.ty.describe()
    }

    #[getter]
    fn _owner(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        owner(py, self)
    }

    #[getter]
    fn _text(&self) -> &str {
        &self.text
    }

    /// A constant's index (None: no constant).
    #[getter]
    fn _constant(&self) -> Option<usize> {
        self.constant
    }

    #[getter]
    fn _enum(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.enum_type.as_ref().map(|e| e.clone_ref(py))
    }

    fn __neg__(slf: &Bound<'_, Self>) -> Made {
        let (py, e) = (slf.py(), slf.get());
        if !matches!(e.ty, Type::Int | Type::Probability) {
            return Err(e.unary("unary -", slf.as_any()));
        }
        let term = combine(vec![e.term.clone()], None, |v| {
            Ok(match v.into_iter().next().expect("an operand") {
                Value::Int(i) => Value::Int(-i),
                v => Value::Chance(-v.chance()?),
            })
        });
        let text = format!("-{}", e.paren(10));
        made(py, Expr::new(e.ty, term, owner(py, e), text, 10))
    }

    fn __pos__(slf: &Bound<'_, Self>) -> Made {
        match slf.get().ty {
            Type::Int | Type::Probability => Ok(slf.clone().into_any().unbind()),
            _ => Err(slf.get().unary("unary +", slf.as_any())),
        }
    }

    fn __abs__(slf: &Bound<'_, Self>) -> Made {
        let py = slf.py();
        if slf.get().ty != Type::Int {
            return Err(slf.get().unary("abs()", slf.as_any()));
        }
        let zero = 0i64.into_pyobject(py)?.into_any();
        let positive = slf.call_method1("__ge__", (&zero,))?;
        let negative = slf.call_method0("__neg__")?;
        if_(py, &positive, slf.as_any(), &negative)
    }

    fn __invert__(slf: &Bound<'_, Self>) -> Made {
        let (py, e) = (slf.py(), slf.get());
        if e.ty != Type::Bool {
            return Err(e.unary("unary ~", slf.as_any()));
        }
        let text = format!("not {}", e.paren(6));
        let term = combine(vec![e.term.clone()], None, |v| {
            Ok(Value::Bool(
                !v.into_iter().next().expect("an operand").formula()?,
            ))
        });
        made(py, bool_expr(term, owner(py, e), text, 6))
    }

    fn __richcmp__(&self, py: Python<'_>, o: &Obj<'_>, op: CompareOp) -> Made {
        let name = op_name(op);
        let eq = matches!(op, CompareOp::Eq | CompareOp::Ne);
        let rational = handle(o).is_some_and(|h| h.ty == Type::Probability);
        let other = match self.ty {
            Type::Int if rational => return Ok(py.NotImplemented()),
            Type::Int => int_of(o, "an int")?,
            Type::Probability => term_of(o)?,
            Type::Bool if eq => bool_of(o)?,
            Type::Enum if eq => self.other(o)?,
            _ => return Ok(py.NotImplemented()),
        };
        made(py, cmp(py, name, self.dup(py), other)?)
    }
}

#[pymethods]
impl Int {
    /// `self in {values}`: equal to one of them (false for none).
    fn is_in(slf: &Bound<'_, Self>, values: &Obj<'_>) -> Made {
        let py = slf.py();
        let rows = values
            .try_iter()?
            .map(|v| Ok(vec![v?]))
            .collect::<PyResult<Vec<_>>>()?;
        made(py, membership(py, &[slf.clone().into_any()], rows)?)
    }
}

#[pymethods]
impl Bool {
    /// `self -> o`.
    fn implies(slf: &Bound<'_, Self>, o: &Obj<'_>) -> Made {
        implies(slf.py(), slf.as_any(), o)
    }

    /// `self <-> o`.
    fn iff(slf: &Bound<'_, Self>, o: &Obj<'_>) -> Made {
        iff(slf.py(), slf.as_any(), o)
    }
}

#[pymethods]
impl EnumValue {
    /// A copy of an enum value (for `epipen.EventHandle`).
    #[new]
    fn new(value: &Bound<'_, Expr>) -> PyResult<PyClassInitializer<EnumValue>> {
        let e = value.get();
        if e.ty != Type::Enum {
            return Err(type_error(format!(
                "expected an enum value, found {}",
                e.text
            )));
        }
        Ok(PyClassInitializer::from(e.dup(value.py())).add_subclass(EnumValue))
    }

    /// `self in {values}` (variants' names or values).
    fn is_in(slf: &Bound<'_, Self>, values: &Obj<'_>) -> Made {
        let py = slf.py();
        let e = slf.as_super().get();
        let rows = values
            .try_iter()?
            .map(|v| Ok(vec![made(py, e.other(&v?)?)?.into_bound(py)]))
            .collect::<PyResult<Vec<_>>>()?;
        made(py, membership(py, &[slf.clone().into_any()], rows)?)
    }
}

/// A handle of the story `owner` named `name`: a constant (`kind` "int", "bool" or
/// "enum", `index` its index), a variant of an enum ("variant", the enum's index), a
/// case of an event ("case", the event's index; `of` the event of the block that named
/// it) or an event's latest case ("latest"). An enum value's `enum_type` is its type.
#[pyfunction]
#[pyo3(signature = (owner, kind, index, name, enum_type=None, of=None))]
pub(crate) fn leaf(
    py: Python<'_>,
    owner: Py<PyAny>,
    kind: &str,
    index: usize,
    name: String,
    enum_type: Option<Py<PyAny>>,
    of: Option<String>,
) -> Made {
    let k = index;
    let term = match kind {
        "int" | "bool" | "enum" => declared(owner.bind(py), move |h| h.constants.get(k).cloned()),
        "variant" => {
            let variant = name.clone();
            declared(owner.bind(py), move |h| {
                Some(Value::Enum(h.enums.get(k)?.value(&variant)))
            })
        }
        _ => Ok(Value::Bool(Formula::from(true))),
    };
    let term = match kind {
        "int" | "bool" | "enum" | "variant" => Term::Now(term?),
        // An event is named before it happens (its block's expressions name its cases).
        "case" => {
            let case = name.clone();
            later(move |c| {
                let event = c.h.event(k)?;
                match &of {
                    // The Rust API's words for a handle of another event.
                    Some(other) if other != event.name() => Err(format!(
                        "the case `{case}` is a case of the event `{other}`, not of `{}`",
                        event.name()
                    )),
                    _ => Ok(Value::Enum(event.case(&case))),
                }
            })
        }
        "latest" => later(move |c| Ok(Value::Enum(c.h.event(k)?.latest()))),
        other => return Err(PyValueError::new_err(format!("no handle of kind {other}"))),
    };
    let ty = match kind {
        "int" => Type::Int,
        "bool" => Type::Bool,
        _ => Type::Enum,
    };
    let mut e = Expr::new(ty, term, Some(owner), name, 100);
    e.enum_type = enum_type;
    e.constant = matches!(kind, "int" | "bool" | "enum").then_some(index);
    made(py, e)
}

/// `_int(x, what)`, `_bool(x)`, `_any(x)`: Python values as handles.
#[pyfunction]
#[pyo3(signature = (x, what="an int"))]
pub(crate) fn as_int(py: Python<'_>, x: &Obj<'_>, what: &str) -> Made {
    made(py, int_of(x, what)?)
}

#[pyfunction]
pub(crate) fn as_bool(py: Python<'_>, x: &Obj<'_>) -> Made {
    made(py, bool_of(x)?)
}

#[pyfunction]
pub(crate) fn as_value(py: Python<'_>, x: &Obj<'_>) -> Made {
    made(py, any_of(x)?)
}

fn character<'py>(c: &Obj<'py>) -> PyResult<Bound<'py, Character>> {
    c.cast::<Character>().cloned().map_err(|_| match c.repr() {
        Ok(r) => type_error(format!("expected a character, found {r}")),
        Err(e) => e,
    })
}

/// `op(A, φ)`'s character and formula, A left out when `formula` is None.
fn speaker<'py>(
    who: &Obj<'py>,
    formula: Option<&Obj<'py>>,
) -> PyResult<(Option<Bound<'py, Character>>, Expr)> {
    let (who, formula) = match formula {
        None if !who.is_instance_of::<Character>() => (None, who),
        None => (Some(who), &who.py().None().into_bound(who.py())),
        Some(f) => (Some(who), f),
    };
    let f = bool_of(formula)?;
    Ok((who.map(character).transpose()?, f))
}

/// `op(A, φ)` for `knows`, `believes`, `knows_whether` and `probability`.
fn of_formula(py: Python<'_>, op: &'static str, who: &Obj<'_>, formula: Option<&Obj<'_>>) -> Made {
    let (a, f) = speaker(who, formula)?;
    let a = a.as_ref().map(|a| a.get());
    let owner = mix(py, [owner(py, &f), a.map(|a| a.story.clone_ref(py))])?;
    let name = a.map(|a| format!("{}, ", a.name)).unwrap_or_default();
    let text = format!("{op}({name}{})", f.text);
    let within = if op == "knows_whether" {
        "knows_value"
    } else {
        op
    };
    let build = move |who: Agent, f: Formula| match op {
        "knows_whether" => value_known(within, who, vec![Value::Bool(f)]),
        "probability" => Ok(Value::Chance(Formula::probability(who, f))),
        "knows" => Ok(Value::Bool(Formula::knows(who, f))),
        _ => Ok(Value::Bool(Formula::believes(who, f))),
    };
    let term = match a {
        Some(a) => {
            let who = a.value;
            combine(vec![f.term], Some((who, within)), move |v| {
                build(who, v.into_iter().next().expect("a formula").formula()?)
            })
        }
        // Left out: the speaker's in what a character says (and refused inside another
        // character's knowledge); a probability's elsewhere the storyteller's.
        None => later(move |c| {
            if op == "probability" && c.speaker.is_none() {
                return Ok(Value::Chance(Formula::probability_of(
                    f.term.value(c)?.formula()?,
                )));
            }
            let who = c.agent(within)?;
            build(who, f.term.value(c)?.formula()?)
        }),
    };
    let ty = if op == "probability" {
        Type::Probability
    } else {
        Type::Bool
    };
    made(py, Expr::new(ty, term, owner, text, 100))
}

/// `op(A, e1, …, en)` for `knows_value` and `believes_value`, A optional.
fn of_values(py: Python<'_>, op: &'static str, args: &Bound<'_, PyTuple>) -> Made {
    let first = args.get_item(0).ok();
    let who = first
        .as_ref()
        .and_then(|a| a.cast::<Character>().ok())
        .map(|c| c.get());
    let exprs = (args.iter().skip(who.is_some() as usize))
        .map(|e| any_of(&e))
        .collect::<PyResult<Vec<_>>>()?;
    if exprs.is_empty() {
        return Err(type_error(format!("{op} needs at least one expression")));
    }
    let owners = exprs.iter().map(|e| owner(py, e));
    let owner = mix(py, owners.chain([who.map(|w| w.story.clone_ref(py))]))?;
    let names: Vec<&str> = (who.map(|w| w.name.as_str()).into_iter())
        .chain(exprs.iter().map(|e| e.text.as_str()))
        .collect();
    let text = format!("{op}({})", names.join(", "));
    let parts = exprs.into_iter().map(|e| e.term).collect::<Vec<_>>();
    let term = match who.map(|w| w.value) {
        Some(who) => combine(parts, Some((who, op)), move |v| value_known(op, who, v)),
        None => later(move |c| {
            let who = c.agent(op)?;
            value_known(
                op,
                who,
                (parts.iter())
                    .map(|p| p.value(c))
                    .collect::<Result<_, _>>()?,
            )
        }),
    };
    made(py, bool_expr(term, owner, text, 100))
}

/// `op(who, values…)` for `knows_value` and `believes_value`. Knowing (or believing) a
/// tuple's value is knowing each member's: the tuple of each type as one operator.
fn value_known(op: &str, who: Agent, values: Vec<Value>) -> Result<Value, String> {
    let (mut ints, mut bools, mut enums) = (Vec::new(), Vec::new(), Vec::new());
    for v in values {
        match v {
            Value::Int(i) => ints.push(i),
            Value::Bool(b) => bools.push(b),
            Value::Enum(e) => enums.push(e),
            v => return Err(format!("`{op}` of {}", v.kind())),
        }
    }
    fn of<V: epipen::story::Values>(op: &str, who: Agent, values: V) -> Formula {
        match op {
            "knows_value" => Formula::knows_value(who, values),
            _ => Formula::believes_value(who, values),
        }
    }
    let mut parts = Vec::new();
    if !ints.is_empty() {
        parts.push(of(op, who, ints));
    }
    if !bools.is_empty() {
        parts.push(of(op, who, bools));
    }
    if !enums.is_empty() {
        parts.push(of(op, who, enums));
    }
    Ok(Value::Bool(Formula::all(parts)))
}

/// `knows(A, φ)`: A knows that φ. In what a character says, the speaker may be left
/// out: `knows(φ)`.
#[pyfunction]
#[pyo3(signature = (who, formula=None))]
pub(crate) fn knows(py: Python<'_>, who: &Obj<'_>, formula: Option<&Obj<'_>>) -> Made {
    of_formula(py, "knows", who, formula)
}

/// `knows_whether(A, φ)`: A knows whether φ holds (`knows_value` of a formula).
#[pyfunction]
#[pyo3(signature = (who, formula=None))]
pub(crate) fn knows_whether(py: Python<'_>, who: &Obj<'_>, formula: Option<&Obj<'_>>) -> Made {
    of_formula(py, "knows_whether", who, formula)
}

/// `believes(A, φ)`: φ holds in every world A finds most plausible among those it
/// cannot tell from this one.
#[pyfunction]
#[pyo3(signature = (who, formula=None))]
pub(crate) fn believes(py: Python<'_>, who: &Obj<'_>, formula: Option<&Obj<'_>>) -> Made {
    of_formula(py, "believes", who, formula)
}

/// `probability(A, φ)`: A's probability of φ in this world; `probability(φ)`: the
/// speaker's in what a character says, elsewhere the storyteller's.
#[pyfunction]
#[pyo3(signature = (who, formula=None))]
pub(crate) fn probability(py: Python<'_>, who: &Obj<'_>, formula: Option<&Obj<'_>>) -> Made {
    of_formula(py, "probability", who, formula)
}

/// `knows_value(A, e1, …, en)`: A knows the value of the tuple.
#[pyfunction]
#[pyo3(signature = (*args))]
pub(crate) fn knows_value(py: Python<'_>, args: &Bound<'_, PyTuple>) -> Made {
    of_values(py, "knows_value", args)
}

/// `believes_value(A, e1, …, en)`: the worlds A finds most plausible agree on the tuple.
#[pyfunction]
#[pyo3(signature = (*args))]
pub(crate) fn believes_value(py: Python<'_>, args: &Bound<'_, PyTuple>) -> Made {
    of_values(py, "believes_value", args)
}

/// `at(c, φ)`: φ with its knowledge operators evaluated at checkpoint `c`.
#[pyfunction]
pub(crate) fn at(py: Python<'_>, checkpoint: &Obj<'_>, formula: &Obj<'_>) -> Made {
    let Ok(c) = checkpoint.cast::<Checkpoint>() else {
        return Err(type_error(format!(
            "expected a checkpoint, found {}",
            checkpoint.repr()?
        )));
    };
    let (c, f) = (c.get(), bool_of(formula)?);
    let owner = mix(py, [owner(py, &f), Some(c.story.clone_ref(py))])?;
    let text = format!("at({}, {})", c.name, f.text);
    // A checkpoint may be named before it is saved (in a block that saves it).
    let (name, f) = (c.name.clone(), f.term);
    let term = later(move |c| {
        let cp = c.h.checkpoints.get(&name).ok_or_else(|| {
            format!("`at` names the checkpoint `{name}`, which is not saved before it")
        })?;
        Ok(Value::Bool(Formula::at(*cp, f.value(c)?.formula()?)))
    });
    made(py, bool_expr(term, owner, text, 100))
}

/// `everyone_knows`, `common_knowledge`, `distributed_knowledge` (`op`: the first word).
fn group(py: Python<'_>, op: &'static str, word: &str, group: &Obj<'_>, formula: &Obj<'_>) -> Made {
    let members = (group.try_iter()?)
        .map(|c| character(&c?))
        .collect::<PyResult<Vec<_>>>()?;
    let f = bool_of(formula)?;
    let owners = members.iter().map(|c| Some(c.get().story.clone_ref(py)));
    let owner = mix(py, owners.chain([owner(py, &f)]))?;
    let names: Vec<&str> = members.iter().map(|c| c.get().name.as_str()).collect();
    let text = format!("{word}({}, {})", names.join(", "), f.text);
    let group: Vec<Agent> = members.iter().map(|c| c.get().value).collect();
    let term = combine(vec![f.term], None, move |v| {
        let f = v.into_iter().next().expect("a formula").formula()?;
        Ok(Value::Bool(match op {
            "everyone" => Formula::everyone_knows(&group, f),
            "common" => Formula::common_knowledge(&group, f),
            _ => Formula::distributed_knowledge(&group, f),
        }))
    });
    made(py, bool_expr(term, owner, text, 100))
}

/// `everyone_knows(G, φ)`: every character of `group` knows φ.
#[pyfunction]
pub(crate) fn everyone_knows(py: Python<'_>, group: &Obj<'_>, formula: &Obj<'_>) -> Made {
    self::group(py, "everyone", "everyone_knows", group, formula)
}

/// `common_knowledge(G, φ)`: φ is common knowledge among `group`.
#[pyfunction]
pub(crate) fn common_knowledge(py: Python<'_>, group: &Obj<'_>, formula: &Obj<'_>) -> Made {
    self::group(py, "common", "common_knowledge", group, formula)
}

/// `distributed_knowledge(G, φ)`: φ follows from what `group` knows together.
#[pyfunction]
pub(crate) fn distributed_knowledge(py: Python<'_>, group: &Obj<'_>, formula: &Obj<'_>) -> Made {
    self::group(py, "distributed", "distributed_knowledge", group, formula)
}

/// `f(a, b, c)` or `f([a, b, c])`: the items.
fn flat<'py>(args: &Bound<'py, PyTuple>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if args.len() == 1 {
        let one = args.get_item(0)?;
        if !one.is_instance_of::<Expr>() && one.try_iter().is_ok() {
            return one.try_iter()?.collect();
        }
    }
    Ok(args.iter().collect())
}

fn fold(
    py: Python<'_>,
    op: &'static str,
    items: Vec<Expr>,
    empty: Expr,
    with: fn(Python<'_>, &'static str, Expr, Expr) -> PyResult<Expr>,
) -> Made {
    let mut items = items.into_iter();
    let Some(mut out) = items.next() else {
        return made(py, empty);
    };
    for x in items {
        out = with(py, op, out, x)?;
    }
    made(py, out)
}

fn formulas(args: &Bound<'_, PyTuple>) -> PyResult<Vec<Expr>> {
    flat(args)?.iter().map(bool_of).collect()
}

/// Every formula holds (true for none): `And(a, b, c)` or `And([a, b, c])`.
#[pyfunction(name = "And")]
#[pyo3(signature = (*formulas))]
pub(crate) fn and(py: Python<'_>, formulas: &Bound<'_, PyTuple>) -> Made {
    fold(
        py,
        "and",
        self::formulas(formulas)?,
        bool_literal(true),
        logic,
    )
}

/// At least one formula holds (false for none).
#[pyfunction(name = "Or")]
#[pyo3(signature = (*formulas))]
pub(crate) fn or(py: Python<'_>, formulas: &Bound<'_, PyTuple>) -> Made {
    fold(
        py,
        "or",
        self::formulas(formulas)?,
        bool_literal(false),
        logic,
    )
}

/// `not φ` (also `~φ`).
#[pyfunction(name = "Not")]
pub(crate) fn not(py: Python<'_>, formula: &Obj<'_>) -> Made {
    made(py, bool_of(formula)?)?.call_method0(py, "__invert__")
}

/// `a -> b`.
#[pyfunction(name = "Implies")]
pub(crate) fn implies(py: Python<'_>, a: &Obj<'_>, b: &Obj<'_>) -> Made {
    made(py, logic(py, "implies", bool_of(a)?, bool_of(b)?)?)
}

/// `a <-> b`.
#[pyfunction(name = "Iff")]
pub(crate) fn iff(py: Python<'_>, a: &Obj<'_>, b: &Obj<'_>) -> Made {
    made(py, logic(py, "iff", bool_of(a)?, bool_of(b)?)?)
}

/// `if c then a else b`, for two values of the same type.
#[pyfunction(name = "If")]
pub(crate) fn if_(
    py: Python<'_>,
    condition: &Obj<'_>,
    then: &Obj<'_>,
    otherwise: &Obj<'_>,
) -> Made {
    let c = bool_of(condition)?;
    let (a, b) = (any_of(then)?, any_of(otherwise)?);
    if a.ty != b.ty {
        return Err(type_error(format!(
            "the branches of If have {} and {}: they need the same type",
            a.ty.describe(),
            b.ty.describe()
        )));
    }
    let text = format!("if {} then {} else {}", c.text, a.text, b.text);
    let owner = mix(py, [owner(py, &c), owner(py, &a), owner(py, &b)])?;
    let prec = if a.ty == Type::Enum { 100 } else { 1 };
    let ty = a.ty;
    let enum_type = a.enum_type.as_ref().map(|t| t.clone_ref(py));
    let term = combine(vec![c.term, a.term, b.term], None, |v| {
        let [c, a, b] = <[Value; 3]>::try_from(v).expect("three operands");
        let c = c.formula()?;
        Ok(match (a, b) {
            (Value::Int(a), Value::Int(b)) => Value::Int(c.ite(a, b)),
            (Value::Bool(a), Value::Bool(b)) => Value::Bool(c.ite(a, b)),
            (Value::Enum(a), Value::Enum(b)) => Value::Enum(c.ite(a, b)),
            (a, b) => {
                return Err(format!(
                    "the branches of `If` have {} and {}: they need the same type",
                    a.kind(),
                    b.kind()
                ));
            }
        })
    });
    let mut e = Expr::new(ty, term, owner, text, prec);
    e.enum_type = enum_type;
    made(py, e)
}
/// The sum of the terms (0 for none).
#[pyfunction(name = "Sum")]
#[pyo3(signature = (*terms))]
pub(crate) fn sum(py: Python<'_>, terms: &Bound<'_, PyTuple>) -> Made {
    let terms = (flat(terms)?.iter())
        .map(|t| int_of(t, "an int"))
        .collect::<PyResult<Vec<_>>>()?;
    let zero = Expr::new(Type::Int, number(0i64), None, "0".into(), 100);
    fold(py, "+", terms, zero, arith)
}

/// How many of the formulas hold.
#[pyfunction(name = "Count")]
#[pyo3(signature = (*formulas))]
pub(crate) fn count(py: Python<'_>, formulas: &Bound<'_, PyTuple>) -> Made {
    let (one, zero) = (
        1i64.into_pyobject(py)?.into_any(),
        0i64.into_pyobject(py)?.into_any(),
    );
    let terms = (flat(formulas)?.iter())
        .map(|f| if_(py, &made(py, bool_of(f)?)?.into_bound(py), &one, &zero))
        .collect::<PyResult<Vec<_>>>()?;
    sum(py, &PyTuple::new(py, [PyTuple::new(py, terms)?])?)
}

/// `(e1, …, en) in {(a1, …, an), …}`: the tuple equals one of the rows.
#[pyfunction]
pub(crate) fn tuple_in(py: Python<'_>, values: &Obj<'_>, rows: &Obj<'_>) -> Made {
    let values = values.try_iter()?.collect::<PyResult<Vec<_>>>()?;
    let rows = (rows.try_iter()?)
        .map(|row| row?.try_iter()?.collect::<PyResult<Vec<_>>>())
        .collect::<PyResult<Vec<_>>>()?;
    made(py, membership(py, &values, rows)?)
}

fn membership(
    py: Python<'_>,
    values: &[Bound<'_, PyAny>],
    rows: Vec<Vec<Bound<'_, PyAny>>>,
) -> PyResult<Expr> {
    let tuple = values.iter().map(any_of).collect::<PyResult<Vec<_>>>()?;
    let mut built: Vec<Vec<Expr>> = Vec::with_capacity(rows.len());
    for row in &rows {
        if row.len() != tuple.len() {
            return Err(story_error(format!(
                "a set item has {} values, the tuple has {}",
                row.len(),
                tuple.len()
            )));
        }
        let items = tuple.iter().zip(row).map(|(v, x)| match v.ty {
            Type::Enum if x.is_instance_of::<PyString>() => v.other(x),
            _ => any_of(x),
        });
        built.push(items.collect::<PyResult<_>>()?);
    }
    let owners = tuple
        .iter()
        .chain(built.iter().flatten())
        .map(|e| owner(py, e));
    let owner = mix(py, owners.collect::<Vec<_>>())?;
    let texts = |row: &[Expr]| {
        row.iter()
            .map(|x| x.text.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let listed: Vec<String> = (built.iter())
        .map(|row| match row.len() {
            1 => row[0].text.clone(),
            _ => format!("({})", texts(row)),
        })
        .collect();
    let lhs = match tuple.len() {
        1 => tuple[0].text.clone(),
        _ => format!("({})", texts(&tuple)),
    };
    let text = format!("{lhs} in {{{}}}", listed.join(", "));
    // Rows of numbers: the story language's own membership test, for ints.
    let numbers: Option<Vec<Vec<i64>>> = (rows.iter())
        .map(|r| {
            r.iter()
                .map(|x| {
                    x.extract::<i64>()
                        .ok()
                        .filter(|_| !x.is_instance_of::<PyBool>())
                })
                .collect()
        })
        .collect();
    let width = tuple.len();
    let parts = (tuple.into_iter().chain(built.into_iter().flatten()))
        .map(|e| e.term)
        .collect();
    let term = combine(parts, None, move |v| {
        if width == 0 {
            return Err("a membership test needs at least one expression".into());
        }
        let (tuple, rows) = v.split_at(width);
        membership_of(tuple, rows.chunks(width), numbers.as_deref()).map(Value::Bool)
    });
    Ok(bool_expr(term, owner, text, 7))
}

/// `(e1, …, en) in {rows}`; `numbers`: the rows, when they are all numbers.
fn membership_of<'a>(
    tuple: &[Value],
    rows: impl Iterator<Item = &'a [Value]>,
    numbers: Option<&[Vec<i64>]>,
) -> Result<Formula, String> {
    // Ints against rows of numbers: the story language's own membership test.
    let ints: Option<Vec<Integer>> = (tuple.iter())
        .map(|v| match v {
            Value::Int(i) => Some(i.clone()),
            _ => None,
        })
        .collect();
    if let (Some(numbers), Some(ints)) = (numbers, ints) {
        return Ok(Formula::tuple_in(ints, numbers));
    }
    if let [Value::Enum(e)] = tuple {
        let options: Vec<epipen::Enum> = rows
            .map(|r| match &r[0] {
                Value::Enum(o) => Ok(o.clone()),
                o => Err(format!(
                    "a set item is {} where the tuple has an enum value",
                    o.kind()
                )),
            })
            .collect::<Result<_, String>>()?;
        return Ok(e.is_in(options));
    }
    // Otherwise: one of the rows, member by member.
    let mut any = Vec::new();
    for row in rows {
        let mut all = Vec::with_capacity(row.len());
        for (v, r) in tuple.iter().zip(row) {
            all.push(compare("==", v.clone(), r.clone())?);
        }
        any.push(Formula::all(all));
    }
    Ok(Formula::any(any))
}

/// The expression a statement reads, from its handle.
impl<'a, 'py> FromPyObject<'a, 'py> for Term {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Term> {
        match handle(&obj) {
            Some(e) if e.ty != Type::Probability => Ok(e.term),
            _ => Err(type_error(format!(
                "not an epipen expression: {}",
                obj.repr()?
            ))),
        }
    }
}

/// What `Story.show` shows: a probability term, or an expression.
pub(super) struct Shown(pub(super) Term);

impl<'a, 'py> FromPyObject<'a, 'py> for Shown {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Shown> {
        match handle(&obj) {
            Some(e) => Ok(Shown(e.term)),
            None => Err(type_error(format!(
                "not an epipen expression: {}",
                obj.repr()?
            ))),
        }
    }
}

/// Adds the handles and their functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Expr>()?;
    m.add_class::<Int>()?;
    m.add_class::<Bool>()?;
    m.add_class::<EnumValue>()?;
    m.add_class::<Probability>()?;
    m.add_class::<Character>()?;
    m.add_class::<Checkpoint>()?;
    for f in [
        wrap_pyfunction!(leaf, m)?,
        wrap_pyfunction!(as_int, m)?,
        wrap_pyfunction!(as_bool, m)?,
        wrap_pyfunction!(as_value, m)?,
        wrap_pyfunction!(knows, m)?,
        wrap_pyfunction!(knows_whether, m)?,
        wrap_pyfunction!(knows_value, m)?,
        wrap_pyfunction!(believes, m)?,
        wrap_pyfunction!(believes_value, m)?,
        wrap_pyfunction!(probability, m)?,
        wrap_pyfunction!(at, m)?,
        wrap_pyfunction!(everyone_knows, m)?,
        wrap_pyfunction!(common_knowledge, m)?,
        wrap_pyfunction!(distributed_knowledge, m)?,
        wrap_pyfunction!(and, m)?,
        wrap_pyfunction!(or, m)?,
        wrap_pyfunction!(not, m)?,
        wrap_pyfunction!(implies, m)?,
        wrap_pyfunction!(iff, m)?,
        wrap_pyfunction!(if_, m)?,
        wrap_pyfunction!(sum, m)?,
        wrap_pyfunction!(count, m)?,
        wrap_pyfunction!(tuple_in, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
