//! Expressions from Python: the native handles `epipen.Int`, `Bool`, `EnumValue` and
//! `Probability` (one [`Expr`] each, of its [`Type`]), `Character` and `Checkpoint`, with
//! Python's operators, the knowledge operators and the connectives.
//!
//! A handle holds its expression as the story language's AST, its names as a story
//! file writes them (`knows(φ)` without a character is the speaker's, `at(c, φ)` names
//! its checkpoint), and shows it as the AST prints. A statement hands it to the Rust
//! API (`Formula::from_syntax`, …), whose lowering checks it as a story file's: the
//! handles check only what Python's types say (an int is not a formula) and which story
//! their handles come from.

use epipen::syntax::ast::{self, BinOp, ExprKind, UnOp};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyFloat, PyInt, PyRange, PyString, PyTuple};
use pyo3::{PyTraverseError, PyVisit};

use crate::convert::{Kind, Located};

type Obj<'py> = Bound<'py, PyAny>;
/// A handle (or `NotImplemented`) for Python.
type Made = PyResult<Py<PyAny>>;

/// What a handle is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Type {
    Int,
    Bool,
    Enum,
    Probability,
}

/// The enum an enum value belongs to: one the story declared, or an event's cases (by
/// their index among the story's enums and events).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum EnumOf {
    Declared(usize),
    Event(usize),
}

/// What a statement reads of a handle: its type and its AST.
#[derive(Debug, Clone)]
pub(super) struct Term {
    pub(super) ty: Type,
    pub(super) ast: ast::Expr,
    pub(super) enum_of: Option<EnumOf>,
}

/// An expression of a story (`epipen.Expr`): `Int`, `Bool`, `EnumValue` and
/// `Probability` are its kinds.
#[pyclass(module = "epipen._native", subclass, frozen)]
pub(crate) struct Expr {
    ty: Type,
    ast: ast::Expr,
    /// The Python story of its handles (None: literals only).
    owner: Option<Py<PyAny>>,
    /// An enum value's type (`epipen.EnumType`), and which enum it is.
    enum_type: Option<Py<PyAny>>,
    enum_of: Option<EnumOf>,
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
}

#[pymethods]
impl Character {
    #[new]
    fn new(story: Py<PyAny>, index: usize, name: String) -> Character {
        Character { story, index, name }
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

// --- the AST ---

// --- mistakes ---

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
    type_error(format!("{expected}, found {} `{}`", e.ty.describe(), e.ast))
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

// --- handles ---

impl Expr {
    fn new(ty: Type, ast: ast::Expr, owner: Option<Py<PyAny>>) -> Expr {
        Expr {
            ty,
            ast,
            owner,
            enum_type: None,
            enum_of: None,
            constant: None,
        }
    }

    fn dup(&self, py: Python<'_>) -> Expr {
        Expr {
            ty: self.ty,
            ast: self.ast.clone(),
            owner: self.owner.as_ref().map(|o| o.clone_ref(py)),
            enum_type: self.enum_type.as_ref().map(|e| e.clone_ref(py)),
            enum_of: self.enum_of,
            constant: self.constant,
        }
    }

    /// The same value's type (an enum's) on `ast`, of the story `owner`.
    fn like(&self, py: Python<'_>, ast: ast::Expr, owner: Option<Py<PyAny>>) -> Expr {
        Expr {
            enum_type: self.enum_type.as_ref().map(|e| e.clone_ref(py)),
            enum_of: self.enum_of,
            ..Expr::new(self.ty, ast, owner)
        }
    }

    pub(super) fn term(&self) -> Term {
        Term {
            ty: self.ty,
            ast: self.ast.clone(),
            enum_of: self.enum_of,
        }
    }
}

fn bool_expr(ast: ast::Expr, owner: Option<Py<PyAny>>) -> Expr {
    Expr::new(Type::Bool, ast, owner)
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

/// The story of the handles `es` and, when given, a character's or checkpoint's.
fn owners(py: Python<'_>, es: &[&Expr], extra: Option<&Py<PyAny>>) -> PyResult<Option<Py<PyAny>>> {
    let extra = extra.map(|s| s.clone_ref(py));
    mix(py, es.iter().map(|e| owner(py, e)).chain([extra]))
}

fn handle(x: &Obj<'_>) -> Option<Expr> {
    x.cast::<Expr>().ok().map(|b| b.get().dup(x.py()))
}

/// An int literal of any size: a 64-bit literal, or exact arithmetic on them.
fn literal(n: &Obj<'_>) -> PyResult<ast::Expr> {
    if let Ok(k) = n.extract::<i64>() {
        return Ok(ast::Expr::int(k));
    }
    // n == (n >> 62) * 2^62 + (n & (2^62 - 1)), with |n >> 62| smaller than |n|.
    let high = n.call_method1("__rshift__", (62,))?;
    let low: i64 = n.call_method1("__and__", ((1i64 << 62) - 1,))?.extract()?;
    let scaled = ast::Expr::binary(BinOp::Mul, literal(&high)?, ast::Expr::int(1 << 62));
    Ok(match low {
        0 => scaled,
        _ => ast::Expr::binary(BinOp::Add, scaled, ast::Expr::int(low)),
    })
}

/// `x` as an int expression (`what` names it in the message).
pub(super) fn int_of(x: &Obj<'_>, what: &str) -> PyResult<Expr> {
    if let Some(e) = handle(x) {
        return match e.ty {
            Type::Int => Ok(e),
            _ => Err(wrong("expected an int expression", &e)),
        };
    }
    if x.is_instance_of::<PyBool>() || !x.is_instance_of::<PyInt>() {
        return Err(found(
            &format!("expected {what} (an epipen Int or a Python int)"),
            x,
        ));
    }
    Ok(Expr::new(Type::Int, literal(x)?, None))
}

fn bool_literal(b: bool) -> Expr {
    bool_expr(ast::Expr::nowhere(ExprKind::Bool(b)), None)
}

/// `x` as a formula.
pub(super) fn bool_of(x: &Obj<'_>) -> PyResult<Expr> {
    if let Some(e) = handle(x) {
        return match e.ty {
            Type::Bool => Ok(e),
            _ => Err(wrong("expected a formula (a Bool)", &e)),
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
                e.ast
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
    let fraction = x.py().import("fractions")?.getattr("Fraction")?;
    if x.is_instance(&fraction)? {
        let (n, d) = (x.getattr("numerator")?, x.getattr("denominator")?);
        let (Ok(n), Ok(d)) = (n.extract::<i64>(), d.extract::<i64>()) else {
            return Err(PyValueError::new_err(format!(
                "the fraction {} does not fit in 64 bits",
                x.str()?
            )));
        };
        let ast = match d {
            1 => ast::Expr::int(n),
            _ => ast::Expr::binary(BinOp::Div, ast::Expr::int(n), ast::Expr::int(d)),
        };
        return Ok(Expr::new(Type::Probability, ast, None));
    }
    if x.is_instance_of::<PyInt>() && !x.is_instance_of::<PyBool>() {
        let e = int_of(x, "an int")?;
        return Ok(Expr {
            ty: Type::Probability,
            ..e
        });
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

/// `a op b`: arithmetic (of ints, or of probability terms), a comparison or a
/// connective, typed `ty`.
fn binary(py: Python<'_>, ty: Type, op: BinOp, a: Expr, b: Expr) -> PyResult<Expr> {
    let owner = owners(py, &[&a, &b], None)?;
    Ok(Expr::new(ty, ast::Expr::binary(op, a.ast, b.ast), owner))
}

fn compare(py: Python<'_>, op: BinOp, a: Expr, b: Expr) -> PyResult<Expr> {
    binary(py, Type::Bool, op, a, b)
}

fn compare_op(op: CompareOp) -> BinOp {
    match op {
        CompareOp::Eq => BinOp::Eq,
        CompareOp::Ne => BinOp::Ne,
        CompareOp::Lt => BinOp::Lt,
        CompareOp::Le => BinOp::Le,
        CompareOp::Gt => BinOp::Gt,
        CompareOp::Ge => BinOp::Ge,
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
        let arith = match op {
            "+" => BinOp::Add,
            "-" => BinOp::Sub,
            "*" => BinOp::Mul,
            "%" => BinOp::Mod,
            "and" => BinOp::And,
            "or" => BinOp::Or,
            _ => BinOp::Div,
        };
        let (ty, (a, b)) = match (self.ty, op) {
            (Type::Int, "/") => {
                return Err(type_error(
                    "epipen ints divide with // (integer division), not /".into(),
                ));
            }
            (Type::Int, _) if rational => return Ok(py.NotImplemented()),
            (Type::Int, "+" | "-" | "*" | "//" | "%") => {
                (Type::Int, pair(e, int_of(o, "an int")?, reflected))
            }
            (Type::Probability, "+" | "-" | "*" | "/") => {
                (Type::Probability, pair(e, term_of(o)?, reflected))
            }
            // `^` is `!=`, its operands in their order either way.
            (Type::Bool, "xor") => (Type::Bool, pair(e, bool_of(o)?, false)),
            (Type::Bool, "and" | "or") => (Type::Bool, pair(e, bool_of(o)?, reflected)),
            _ => return Ok(py.NotImplemented()),
        };
        let op = if op == "xor" { BinOp::Ne } else { arith };
        made(py, binary(py, ty, op, a, b)?)
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

    fn __repr__(&self) -> String {
        self.ast.to_string()
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
             formulas with & | ~ (or And, Or, Not), not and/or/not; write `a < x < b` as \
             `(a < x) & (x < b)` and `x in [1, 2]` as `x.is_in([1, 2])`",
            self.ast
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
    fn _text(&self) -> String {
        self.ast.to_string()
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
        let ast = ast::Expr::unary(UnOp::Neg, e.ast.clone());
        made(py, Expr::new(e.ty, ast, owner(py, e)))
    }

    fn __pos__(slf: &Bound<'_, Self>) -> Made {
        match slf.get().ty {
            Type::Int | Type::Probability => Ok(slf.clone().into_any().unbind()),
            _ => Err(slf.get().unary("unary +", slf.as_any())),
        }
    }

    fn __abs__(slf: &Bound<'_, Self>) -> Made {
        let (py, e) = (slf.py(), slf.get());
        if e.ty != Type::Int {
            return Err(e.unary("abs()", slf.as_any()));
        }
        let ast = ast::Expr::call("abs", vec![e.ast.clone()]);
        made(py, Expr::new(Type::Int, ast, owner(py, e)))
    }

    fn __invert__(slf: &Bound<'_, Self>) -> Made {
        let (py, e) = (slf.py(), slf.get());
        if e.ty != Type::Bool {
            return Err(e.unary("unary ~", slf.as_any()));
        }
        made(
            py,
            bool_expr(ast::Expr::unary(UnOp::Not, e.ast.clone()), owner(py, e)),
        )
    }

    fn __richcmp__(&self, py: Python<'_>, o: &Obj<'_>, op: CompareOp) -> Made {
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
        made(py, compare(py, compare_op(op), self.dup(py), other)?)
    }
}

#[pymethods]
impl Int {
    /// `self in {values}`: equal to one of them (false for none); for a Python
    /// `range(a, b)`, `self in a..b` (however long the range).
    fn is_in(slf: &Bound<'_, Self>, values: &Obj<'_>) -> Made {
        let py = slf.py();
        if let Ok(range) = values.cast::<PyRange>()
            && range.getattr("step")?.extract::<i64>().ok() == Some(1)
        {
            let e = slf.as_super().get();
            let bound = |end: &str| int_of(&range.getattr(end)?, "a range's bound");
            let (lo, hi) = (bound("start")?, bound("stop")?);
            let ast = ast::Expr::nowhere(ExprKind::InRange {
                element: Box::new(e.ast.clone()),
                lo: Box::new(lo.ast),
                hi: Box::new(hi.ast),
            });
            return made(py, bool_expr(ast, owner(py, e)));
        }
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
                e.ast
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
/// it), an event's latest case ("latest") or its `k`-th execution's ("occurrence"). An
/// enum value's `enum_type` is its type.
#[pyfunction]
#[pyo3(signature = (owner, kind, index, name, enum_type=None, of=None, k=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn leaf(
    py: Python<'_>,
    owner: Py<PyAny>,
    kind: &str,
    index: usize,
    name: String,
    enum_type: Option<Py<PyAny>>,
    of: Option<String>,
    k: Option<usize>,
) -> Made {
    let declared = |ty: &Option<Py<PyAny>>| -> PyResult<Option<EnumOf>> {
        match ty {
            Some(t) => Ok(Some(EnumOf::Declared(
                t.getattr(py, "_index")?.extract(py)?,
            ))),
            None => Ok(None),
        }
    };
    let (ty, ast, enum_of) = match kind {
        "int" => (Type::Int, ast::Expr::named(&name), None),
        "bool" => (Type::Bool, ast::Expr::named(&name), None),
        "enum" => (Type::Enum, ast::Expr::named(&name), declared(&enum_type)?),
        "variant" => (
            Type::Enum,
            ast::Expr::name(&name),
            Some(EnumOf::Declared(index)),
        ),
        "case" => {
            let event: String = match &enum_type {
                Some(t) => t.getattr(py, "name")?.extract(py)?,
                None => String::new(),
            };
            // The Rust API's words for a handle of another event.
            if let Some(other) = of.filter(|other| *other != event) {
                return Err(story_error(format!(
                    "the case `{name}` is a case of the event `{other}`, not of `{event}`"
                )));
            }
            (
                Type::Enum,
                ast::Expr::case(&name),
                Some(EnumOf::Event(index)),
            )
        }
        "latest" => (
            Type::Enum,
            ast::Expr::name(&name),
            Some(EnumOf::Event(index)),
        ),
        "occurrence" => {
            let k = k.unwrap_or(1);
            let event = ast::Ident::nowhere(&name);
            let ast = ast::Expr::nowhere(ExprKind::Execution { event, k });
            (Type::Enum, ast, Some(EnumOf::Event(index)))
        }
        other => return Err(PyValueError::new_err(format!("no handle of kind {other}"))),
    };
    let mut e = Expr::new(ty, ast, Some(owner));
    e.enum_type = enum_type;
    e.enum_of = enum_of;
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

/// `op(A, φ)` for `knows`, `believes`, `knows_whether` and `probability`; A left out
/// when `formula` is None (the speaker's, or for a probability outside what a
/// character says, the storyteller's: lowering reads it as a story file's).
fn of_formula(py: Python<'_>, op: &'static str, who: &Obj<'_>, formula: Option<&Obj<'_>>) -> Made {
    let (who, formula) = match formula {
        None if !who.is_instance_of::<Character>() => (None, who),
        None => (Some(who), &py.None().into_bound(py)),
        Some(f) => (Some(who), f),
    };
    if let (Some(who), Ok(c)) = (who, formula.cast::<Character>())
        && !who.is_instance_of::<Character>()
    {
        return Err(type_error(format!(
            "the character comes first: `{op}({}, …)`, not after the formula",
            c.get().name
        )));
    }
    let f = bool_of(formula)?;
    let who = who.map(character).transpose()?;
    let who = who.as_ref().map(|c| c.get());
    let owner = owners(py, &[&f], who.map(|c| &c.story))?;
    let agent = who.map(|c| ast::Expr::named(&c.name));
    let ast = ast::Expr::call(op, agent.into_iter().chain([f.ast]).collect());
    let ty = match op {
        "probability" => Type::Probability,
        _ => Type::Bool,
    };
    made(py, Expr::new(ty, ast, owner))
}

/// `op(A, e1, …, en)` for `knows_value` and `believes_value`, A optional.
fn of_values(py: Python<'_>, op: &'static str, args: &Bound<'_, PyTuple>) -> Made {
    let first = args.get_item(0).ok();
    let who = (first.as_ref())
        .and_then(|a| a.cast::<Character>().ok())
        .map(|c| c.get());
    let exprs = (args.iter().skip(who.is_some() as usize))
        .map(|e| any_of(&e))
        .collect::<PyResult<Vec<_>>>()?;
    if exprs.is_empty() {
        return Err(type_error(format!("{op} needs at least one expression")));
    }
    let refs: Vec<&Expr> = exprs.iter().collect();
    let owner = owners(py, &refs, who.map(|c| &c.story))?;
    let agent = who.map(|c| ast::Expr::named(&c.name));
    let args = agent.into_iter().chain(exprs.into_iter().map(|e| e.ast));
    made(py, bool_expr(ast::Expr::call(op, args.collect()), owner))
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

/// `at(c, φ)`: φ with its knowledge operators evaluated at checkpoint `c` (which may be
/// saved after the handle is made: in a block that saves it).
#[pyfunction]
pub(crate) fn at(py: Python<'_>, checkpoint: &Obj<'_>, formula: &Obj<'_>) -> Made {
    let Ok(c) = checkpoint.cast::<Checkpoint>() else {
        return Err(type_error(format!(
            "expected a checkpoint, found {}",
            checkpoint.repr()?
        )));
    };
    let (c, f) = (c.get(), bool_of(formula)?);
    let owner = owners(py, &[&f], Some(&c.story))?;
    let ast = ast::Expr::call("at", vec![ast::Expr::name(&c.name), f.ast]);
    made(py, bool_expr(ast, owner))
}

/// `op(G, φ)`: `everyone_knows`, `common_knowledge`, `distributed_knowledge`.
fn group(py: Python<'_>, op: &'static str, group: &Obj<'_>, formula: &Obj<'_>) -> Made {
    let members = (group.try_iter()?)
        .map(|c| character(&c?))
        .collect::<PyResult<Vec<_>>>()?;
    if members.is_empty() {
        return Err(story_error(format!("`{op}` needs at least one character")));
    }
    let f = bool_of(formula)?;
    let stories = members.iter().map(|c| Some(c.get().story.clone_ref(py)));
    let owner = mix(py, stories.chain([owner(py, &f)]))?;
    let names = members.iter().map(|c| ast::Expr::named(&c.get().name));
    let ast = ast::Expr::call(op, names.chain([f.ast]).collect());
    made(py, bool_expr(ast, owner))
}

/// `everyone_knows(G, φ)`: every character of `group` knows φ.
#[pyfunction]
pub(crate) fn everyone_knows(py: Python<'_>, group: &Obj<'_>, formula: &Obj<'_>) -> Made {
    self::group(py, "everyone_knows", group, formula)
}

/// `common_knowledge(G, φ)`: φ is common knowledge among `group`.
#[pyfunction]
pub(crate) fn common_knowledge(py: Python<'_>, group: &Obj<'_>, formula: &Obj<'_>) -> Made {
    self::group(py, "common_knowledge", group, formula)
}

/// `distributed_knowledge(G, φ)`: φ follows from what `group` knows together.
#[pyfunction]
pub(crate) fn distributed_knowledge(py: Python<'_>, group: &Obj<'_>, formula: &Obj<'_>) -> Made {
    self::group(py, "distributed_knowledge", group, formula)
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

/// `items` joined by `op` (typed `ty`), or `empty` for none.
fn fold(py: Python<'_>, ty: Type, op: BinOp, items: Vec<Expr>, empty: Expr) -> Made {
    let mut items = items.into_iter();
    let Some(mut out) = items.next() else {
        return made(py, empty);
    };
    for x in items {
        out = binary(py, ty, op, out, x)?;
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
    let items = self::formulas(formulas)?;
    fold(py, Type::Bool, BinOp::And, items, bool_literal(true))
}

/// At least one formula holds (false for none).
#[pyfunction(name = "Or")]
#[pyo3(signature = (*formulas))]
pub(crate) fn or(py: Python<'_>, formulas: &Bound<'_, PyTuple>) -> Made {
    let items = self::formulas(formulas)?;
    fold(py, Type::Bool, BinOp::Or, items, bool_literal(false))
}

/// `not φ` (also `~φ`).
#[pyfunction(name = "Not")]
pub(crate) fn not(py: Python<'_>, formula: &Obj<'_>) -> Made {
    made(py, bool_of(formula)?)?.call_method0(py, "__invert__")
}

/// `a -> b`.
#[pyfunction(name = "Implies")]
pub(crate) fn implies(py: Python<'_>, a: &Obj<'_>, b: &Obj<'_>) -> Made {
    let (a, b) = (bool_of(a)?, bool_of(b)?);
    made(py, binary(py, Type::Bool, BinOp::Implies, a, b)?)
}

/// `a <-> b`.
#[pyfunction(name = "Iff")]
pub(crate) fn iff(py: Python<'_>, a: &Obj<'_>, b: &Obj<'_>) -> Made {
    let (a, b) = (bool_of(a)?, bool_of(b)?);
    made(py, binary(py, Type::Bool, BinOp::Iff, a, b)?)
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
    let owner = owners(py, &[&c, &a, &b], None)?;
    let ast = ast::Expr::nowhere(ExprKind::Ite {
        cond: Box::new(c.ast),
        then: Box::new(a.ast.clone()),
        otherwise: Box::new(b.ast),
    });
    made(py, a.like(py, ast, owner))
}

/// The sum of the terms (0 for none).
#[pyfunction(name = "Sum")]
#[pyo3(signature = (*terms))]
pub(crate) fn sum(py: Python<'_>, terms: &Bound<'_, PyTuple>) -> Made {
    let terms = (flat(terms)?.iter())
        .map(|t| int_of(t, "an int"))
        .collect::<PyResult<Vec<_>>>()?;
    let zero = Expr::new(Type::Int, ast::Expr::int(0), None);
    fold(py, Type::Int, BinOp::Add, terms, zero)
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
    if tuple.is_empty() {
        return Err(story_error(
            "a membership test needs at least one expression".into(),
        ));
    }
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
    let all: Vec<&Expr> = tuple.iter().chain(built.iter().flatten()).collect();
    let owner = owners(py, &all, None)?;
    let asts = |row: Vec<Expr>| ast::Expr::tuple(row.into_iter().map(|e| e.ast).collect());
    let ast = ast::Expr::nowhere(ExprKind::In {
        element: Box::new(asts(tuple)),
        set: built.into_iter().map(asts).collect(),
        sample: None,
    });
    Ok(bool_expr(ast, owner))
}

/// The expression a statement reads, from its handle.
impl<'a, 'py> FromPyObject<'a, 'py> for Term {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Term> {
        match obj.cast::<Expr>() {
            Ok(e) if e.get().ty != Type::Probability => Ok(e.get().term()),
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
        match obj.cast::<Expr>() {
            Ok(e) => Ok(Shown(e.get().term())),
            Err(_) => Err(type_error(format!(
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
