//! The Rust API: state a puzzle in Rust instead of a story file.
//!
//! A [`Story`] declares characters and hidden constants, then tells what happens, one
//! call per statement. Every statement runs at once against a live engine, so a Rust
//! program can look at results (what [`Story::reveals`] found, the [`Story::worlds`]
//! still possible) and decide what happens next, which is how loops like the muddy
//! children's rounds are written (see `examples/muddy_children.rs`).
//!
//! Expressions are typed in Rust: [`Int`] (with `+ - * / %`), [`Formula`] (with
//! `& | !`, [`Formula::and`], [`Formula::knows`], …) and [`Enum`]. Constants are
//! expressions: `story.int("month")` returns an [`Int`].
//!
//! # Cheryl's birthday
//!
//! ```
//! use epipen::{Formula as F, Story};
//!
//! # fn main() -> Result<(), epipen::Error> {
//! let mut story = Story::new();
//! let albert = story.character("Albert");
//! let bernard = story.character("Bernard");
//! let month = story.int("month");
//! let day = story.int("day");
//!
//! // Cheryl wrote down ten dates: "My birthday is one of these."
//! story.announce(F::tuple_in(
//!     (&month, &day),
//!     [[5, 15], [5, 16], [5, 19], [6, 17], [6, 18],
//!      [7, 14], [7, 16], [8, 14], [8, 15], [8, 17]],
//! ))?;
//! story.learns(albert, &month)?;
//! story.learns(bernard, &day)?;
//! let whispered = story.checkpoint("whispered")?;
//!
//! // Albert: "I don't know when your birthday is, but I know Bernard doesn't know."
//! story.says(
//!     albert,
//!     !F::knows_value(albert, (&month, &day))
//!         & F::knows(albert, !F::knows_value(bernard, (&month, &day))),
//! )?;
//! // Bernard: "I didn't know originally, but now I do."
//! story.says(
//!     bernard,
//!     !F::at(whispered, F::knows_value(bernard, (&month, &day)))
//!         & F::knows_value(bernard, (&month, &day)),
//! )?;
//! // Albert: "Well, now I know too!"
//! story.says(albert, F::knows_value(albert, (&month, &day)))?;
//!
//! let worlds = story.worlds(10)?;
//! assert_eq!(worlds.len(), 1);
//! assert!(worlds.is_complete());
//! assert_eq!(worlds[0].int(&month), Some(7));
//! assert_eq!(worlds[0].int(&day), Some(16));
//! assert_eq!(worlds[0].to_string(), "month = 7, day = 16");
//! # Ok(())
//! # }
//! ```
//!
//! # Consecutive numbers
//!
//! Infinitely many worlds are fine: [`Story::worlds`] returns the first ones in the
//! canonical order and says more exist.
//!
//! ```
//! use epipen::{Formula as F, Story};
//!
//! # fn main() -> Result<(), epipen::Error> {
//! let mut story = Story::new();
//! let anne = story.character("Anne");
//! let bill = story.character("Bill");
//! let a = story.int("A");
//! let b = story.int("B");
//!
//! story.announce(a.ge(0) & b.ge(0) & (a.eq(&b + 1) | b.eq(&a + 1)))?;
//! story.learns(anne, &a)?;
//! story.learns(bill, &b)?;
//! story.says(anne, !F::knows_value(anne, &b))?;
//! story.says(bill, !F::knows_value(bill, &a))?;
//!
//! let middle = story.worlds(3)?;
//! assert!(!middle.is_complete());
//! assert_eq!(middle.len(), 3);
//!
//! story.says(anne, F::knows_value(anne, &b))?;
//! story.says(bill, F::knows_value(bill, &a))?;
//!
//! let worlds = story.worlds(10)?;
//! let pairs: Vec<(i64, i64)> = worlds
//!     .iter()
//!     .map(|w| (w.int(&a).unwrap(), w.int(&b).unwrap()))
//!     .collect();
//! assert_eq!(pairs, [(1, 2), (2, 3)]);
//! assert!(worlds.is_complete());
//! # Ok(())
//! # }
//! ```
//!
//! # Errors
//!
//! Mistakes Rust's types cannot catch (a constant of another story, comparing values
//! of two different enums, an unknown enum variant, a knowledge operator where none is
//! allowed, …) are carried inside the expression and reported as [`Error::Invalid`] by
//! the statement that uses it, before anything reaches the engine. A statement that
//! fails, for whatever reason, has no effect: the story is as it was before the call.

#![warn(missing_docs)]

use std::fmt;
use std::ops;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::engine::{Counterexample, Engine, EngineError, Event, Failure, Options, SolverError};
use crate::ir::{
    self, ArithOp, CharId, CheckpointId, CmpOp, ConstId, EnumId, ExprKind, GroupOp, LogicOp,
    Program, Stmt, StmtKind, Ty,
};
use crate::syntax::Span;
use crate::worlds::{self, Value, World, WorldSet};

/// Tells stories apart, so a handle of one story is never used in another.
static NEXT_STORY: AtomicU64 = AtomicU64::new(1);

// ---------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------

mod sealed {
    use super::*;

    /// A typed IR expression under construction, or the mistake that stopped it. It
    /// remembers which story its handles belong to (`None`: only literals).
    #[derive(Debug, Clone)]
    pub struct Node {
        pub(crate) story: Option<u64>,
        pub(crate) expr: Result<ir::Expr, String>,
    }

    /// What the expression types share; not implementable outside this crate.
    pub trait Typed: Clone {
        fn node(&self) -> &Node;
        fn into_node(self) -> Node;
        /// A node of the same type as `self` (for enums: the same enum).
        fn rewrap(&self, node: Node) -> Self;
    }

    /// Anything that gives a list of expressions: see [`super::Values`].
    pub trait IntoNodes {
        fn into_nodes(self) -> Vec<Node>;
    }

    /// Anything an enum value can be compared with: see [`super::EnumOperand`].
    pub trait IntoEnumNode {
        fn into_enum_node(self, ty: &super::EnumType) -> Node;
    }
}

use sealed::{IntoEnumNode, IntoNodes, Node, Typed};

fn mk(kind: ExprKind, ty: Ty) -> ir::Expr {
    ir::Expr {
        kind,
        ty,
        span: Span::default(),
    }
}

impl Node {
    fn lit(expr: ir::Expr) -> Node {
        Node {
            story: None,
            expr: Ok(expr),
        }
    }

    fn of(story: u64, expr: ir::Expr) -> Node {
        Node {
            story: Some(story),
            expr: Ok(expr),
        }
    }

    fn invalid(message: impl Into<String>) -> Node {
        Node {
            story: None,
            expr: Err(message.into()),
        }
    }

    /// Combines nodes into one with `build`: the first mistake wins, and handles of two
    /// different stories are a mistake.
    fn combine(
        nodes: Vec<Node>,
        extra: Option<u64>,
        build: impl FnOnce(Vec<ir::Expr>) -> Result<ir::Expr, String>,
    ) -> Node {
        let mut story = extra;
        let mut exprs = Vec::with_capacity(nodes.len());
        for n in nodes {
            match (story, n.story) {
                (Some(a), Some(b)) if a != b => {
                    return Node::invalid("an expression mixes handles of two different stories");
                }
                (None, s) => story = s,
                _ => {}
            }
            match n.expr {
                Ok(e) => exprs.push(e),
                Err(m) => {
                    return Node {
                        story,
                        expr: Err(m),
                    };
                }
            }
        }
        Node {
            story,
            expr: build(exprs),
        }
    }
}

/// The sealed trait of the expression types [`Int`], [`Formula`] and [`Enum`]: it
/// lets generic functions such as [`Formula::ite`] take any of them.
pub trait Expression: Typed {}

/// An integer expression: an `int` constant, a literal, or arithmetic over them.
///
/// Arithmetic uses operators, on owned values or references, with integers on either
/// side: `&month * 100 + &day`, `2 * x - 1`. `/` and `%` are SMT-LIB's (Euclidean)
/// integer division and modulo, with `x / 0 == 0` and `x % 0 == x`. Comparisons are
/// methods returning a [`Formula`]: [`Int::eq`], [`Int::lt`], …
///
/// Plain integers convert with `Int::from(5)` (or implicitly wherever an
/// `impl Into<Int>` is taken).
#[derive(Debug, Clone)]
pub struct Int(Node);

/// A boolean expression: a `bool` constant, a comparison, a logical combination, or a
/// knowledge operator ([`Formula::knows`], [`Formula::knows_value`], [`Formula::at`]).
///
/// Combine with methods ([`Formula::and`], [`Formula::or`], [`Formula::implies`],
/// [`Formula::iff`]) or operators: `a & b`, `a | b`, `!a`.
#[derive(Debug, Clone)]
pub struct Formula(Node);

/// A value of an enum type declared with [`Story::enumeration`]: a constant of that
/// type ([`Story::enum_constant`]) or one of its variants ([`EnumType::value`]).
///
/// Compare with [`Enum::eq`], [`Enum::ne`] and [`Enum::is_in`], against other values of
/// the same enum or variant names: `cloe.eq("rose")`, `cloe.is_in(["rose", "violet"])`.
#[derive(Debug, Clone)]
pub struct Enum {
    node: Node,
    ty: EnumType,
}

impl Typed for Int {
    fn node(&self) -> &Node {
        &self.0
    }
    fn into_node(self) -> Node {
        self.0
    }
    fn rewrap(&self, node: Node) -> Int {
        Int(node)
    }
}
impl Expression for Int {}

impl Typed for Formula {
    fn node(&self) -> &Node {
        &self.0
    }
    fn into_node(self) -> Node {
        self.0
    }
    fn rewrap(&self, node: Node) -> Formula {
        Formula(node)
    }
}
impl Expression for Formula {}

impl Typed for Enum {
    fn node(&self) -> &Node {
        &self.node
    }
    fn into_node(self) -> Node {
        self.node
    }
    fn rewrap(&self, node: Node) -> Enum {
        Enum {
            node,
            ty: self.ty.clone(),
        }
    }
}
impl Expression for Enum {}

fn unary(node: Node, build: impl FnOnce(ir::Expr) -> ir::Expr) -> Node {
    Node::combine(vec![node], None, |mut es| Ok(build(es.remove(0))))
}

fn binary(a: Node, b: Node, build: impl FnOnce(ir::Expr, ir::Expr) -> ir::Expr) -> Node {
    Node::combine(vec![a, b], None, |mut es| {
        let b = es.remove(1);
        let a = es.remove(0);
        Ok(build(a, b))
    })
}

fn cmp(op: CmpOp, a: Node, b: Node) -> Formula {
    Formula(binary(a, b, |a, b| {
        mk(ExprKind::Cmp(op, Box::new(a), Box::new(b)), Ty::Bool)
    }))
}

/// `(e1, …, en) in {rows}`: every row must have n values of the tuple's types.
fn membership(tuple: Vec<Node>, rows: Vec<Vec<Node>>) -> Node {
    let arity = tuple.len();
    if arity == 0 {
        return Node::invalid("a membership test needs at least one expression");
    }
    if let Some(row) = rows.iter().find(|r| r.len() != arity) {
        return Node::invalid(format!(
            "a set item has {} values, the tuple has {arity}",
            row.len()
        ));
    }
    let widths: Vec<usize> = rows.iter().map(Vec::len).collect();
    let all: Vec<Node> = tuple
        .into_iter()
        .chain(rows.into_iter().flatten())
        .collect();
    Node::combine(all, None, |mut es| {
        let rest = es.split_off(arity);
        let tuple = es;
        let mut set = Vec::with_capacity(widths.len());
        let mut it = rest.into_iter();
        for w in widths {
            let row: Vec<ir::Expr> = it.by_ref().take(w).collect();
            for (v, t) in row.iter().zip(&tuple) {
                if v.ty != t.ty {
                    return Err(format!(
                        "a set item has a value of type {} where the tuple has {}",
                        ty_name(v.ty),
                        ty_name(t.ty)
                    ));
                }
            }
            set.push(row);
        }
        Ok(mk(ExprKind::In { tuple, set }, Ty::Bool))
    })
}

/// `int`, `bool` or `enum`, for messages.
fn ty_name(ty: Ty) -> &'static str {
    match ty {
        Ty::Int => "int",
        Ty::Bool => "bool",
        Ty::Enum(_) => "enum",
    }
}

impl Int {
    fn arith(op: ArithOp, a: Int, b: Int) -> Int {
        Int(binary(a.0, b.0, |a, b| {
            mk(ExprKind::Arith(op, Box::new(a), Box::new(b)), Ty::Int)
        }))
    }

    /// `self == other`.
    pub fn eq(&self, other: impl Into<Int>) -> Formula {
        cmp(CmpOp::Eq, self.0.clone(), other.into().0)
    }

    /// `self != other`.
    pub fn ne(&self, other: impl Into<Int>) -> Formula {
        cmp(CmpOp::Ne, self.0.clone(), other.into().0)
    }

    /// `self < other`.
    pub fn lt(&self, other: impl Into<Int>) -> Formula {
        cmp(CmpOp::Lt, self.0.clone(), other.into().0)
    }

    /// `self <= other`.
    pub fn le(&self, other: impl Into<Int>) -> Formula {
        cmp(CmpOp::Le, self.0.clone(), other.into().0)
    }

    /// `self > other`.
    pub fn gt(&self, other: impl Into<Int>) -> Formula {
        cmp(CmpOp::Gt, self.0.clone(), other.into().0)
    }

    /// `self >= other`.
    pub fn ge(&self, other: impl Into<Int>) -> Formula {
        cmp(CmpOp::Ge, self.0.clone(), other.into().0)
    }

    /// `self in {values}`: equal to one of the values (false for none).
    ///
    /// ```
    /// # let mut story = epipen::Story::new();
    /// let x = story.int("x");
    /// let small_prime = x.is_in([2, 3, 5, 7]);
    /// ```
    pub fn is_in<T: Into<Int>>(&self, values: impl IntoIterator<Item = T>) -> Formula {
        let rows = values.into_iter().map(|v| vec![v.into().0]).collect();
        Formula(membership(vec![self.0.clone()], rows))
    }

    /// The sum of the terms (0 for none).
    pub fn sum<T: Into<Int>>(terms: impl IntoIterator<Item = T>) -> Int {
        terms
            .into_iter()
            .map(Into::into)
            .reduce(|a, b| a + b)
            .unwrap_or_else(|| Int::from(0))
    }

    /// How many of the formulas hold: the sum of `if f then 1 else 0`.
    pub fn count<T: Into<Formula>>(formulas: impl IntoIterator<Item = T>) -> Int {
        Int::sum(formulas.into_iter().map(|f| f.into().ite(Int::from(1), 0)))
    }
}

impl From<&Int> for Int {
    fn from(x: &Int) -> Int {
        x.clone()
    }
}

impl From<i64> for Int {
    fn from(n: i64) -> Int {
        Int(Node::lit(mk(ExprKind::Int(n), Ty::Int)))
    }
}

macro_rules! int_from {
    (lossless: $($t:ty),*; checked: $($u:ty),*) => {
        $(impl From<$t> for Int {
            fn from(n: $t) -> Int {
                Int::from(i64::from(n))
            }
        })*
        $(impl From<$u> for Int {
            fn from(n: $u) -> Int {
                match i64::try_from(n) {
                    Ok(n) => Int::from(n),
                    Err(_) => Int(Node::invalid(format!("the integer {n} does not fit in 64 bits"))),
                }
            }
        })*
    };
}
int_from!(lossless: i8, i16, i32, u8, u16, u32; checked: u64, usize, i128, u128, isize);

macro_rules! int_ops {
    ($($trait:ident $method:ident $op:ident;)*) => {$(
        impl<R: Into<Int>> ops::$trait<R> for Int {
            type Output = Int;
            fn $method(self, rhs: R) -> Int {
                Int::arith(ArithOp::$op, self, rhs.into())
            }
        }
        impl<R: Into<Int>> ops::$trait<R> for &Int {
            type Output = Int;
            fn $method(self, rhs: R) -> Int {
                Int::arith(ArithOp::$op, self.clone(), rhs.into())
            }
        }
        int_ops!(@lhs $trait $method $op: i64, i32);
    )*};
    (@lhs $trait:ident $method:ident $op:ident: $($t:ty),*) => {$(
        impl ops::$trait<Int> for $t {
            type Output = Int;
            fn $method(self, rhs: Int) -> Int {
                Int::arith(ArithOp::$op, Int::from(self), rhs)
            }
        }
        impl ops::$trait<&Int> for $t {
            type Output = Int;
            fn $method(self, rhs: &Int) -> Int {
                Int::arith(ArithOp::$op, Int::from(self), rhs.clone())
            }
        }
    )*};
}
int_ops! {
    Add add Add;
    Sub sub Sub;
    Mul mul Mul;
    Div div Div;
    Rem rem Mod;
}

impl ops::Neg for Int {
    type Output = Int;
    fn neg(self) -> Int {
        Int(unary(self.0, |a| match a.kind {
            ExprKind::Int(n) if n.checked_neg().is_some() => mk(ExprKind::Int(-n), Ty::Int),
            _ => mk(ExprKind::Neg(Box::new(a)), Ty::Int),
        }))
    }
}

impl ops::Neg for &Int {
    type Output = Int;
    fn neg(self) -> Int {
        -self.clone()
    }
}

impl Formula {
    fn logic(op: LogicOp, a: Formula, b: Formula) -> Formula {
        Formula(binary(a.0, b.0, |a, b| {
            mk(ExprKind::Logic(op, Box::new(a), Box::new(b)), Ty::Bool)
        }))
    }

    /// `self and other` (also `self & other`).
    pub fn and(self, other: impl Into<Formula>) -> Formula {
        Formula::logic(LogicOp::And, self, other.into())
    }

    /// `self or other` (also `self | other`).
    pub fn or(self, other: impl Into<Formula>) -> Formula {
        Formula::logic(LogicOp::Or, self, other.into())
    }

    /// `self -> other`.
    pub fn implies(self, other: impl Into<Formula>) -> Formula {
        Formula::logic(LogicOp::Implies, self, other.into())
    }

    /// `self <-> other`.
    pub fn iff(self, other: impl Into<Formula>) -> Formula {
        Formula::logic(LogicOp::Iff, self, other.into())
    }

    /// `self == other`, for two formulas (the same as [`Formula::iff`]).
    pub fn eq(&self, other: impl Into<Formula>) -> Formula {
        cmp(CmpOp::Eq, self.0.clone(), other.into().0)
    }

    /// `self != other`, for two formulas.
    pub fn ne(&self, other: impl Into<Formula>) -> Formula {
        cmp(CmpOp::Ne, self.0.clone(), other.into().0)
    }

    /// `not f` (also `!f`).
    pub fn not(f: impl Into<Formula>) -> Formula {
        Formula(unary(f.into().0, |a| {
            mk(ExprKind::Not(Box::new(a)), Ty::Bool)
        }))
    }

    /// `if self then a else b`, for two values of the same type.
    ///
    /// ```
    /// # let mut story = epipen::Story::new();
    /// let p = story.bool("p");
    /// let x = story.int("x");
    /// let y = p.ite(x + 1, 0);
    /// ```
    pub fn ite<T: Expression>(&self, then: T, otherwise: impl Into<T>) -> T {
        let otherwise = otherwise.into();
        let node = Node::combine(
            vec![
                self.0.clone(),
                then.clone().into_node(),
                otherwise.into_node(),
            ],
            None,
            |mut es| {
                let b = es.remove(2);
                let a = es.remove(1);
                let c = es.remove(0);
                if a.ty != b.ty {
                    return Err("the branches of `ite` have values of two different enums".into());
                }
                let ty = a.ty;
                Ok(mk(ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)), ty))
            },
        );
        then.rewrap(node)
    }

    /// Every formula holds (true for none).
    pub fn all<T: Into<Formula>>(formulas: impl IntoIterator<Item = T>) -> Formula {
        formulas
            .into_iter()
            .map(Into::into)
            .reduce(Formula::and)
            .unwrap_or_else(|| Formula::from(true))
    }

    /// At least one formula holds (false for none).
    pub fn any<T: Into<Formula>>(formulas: impl IntoIterator<Item = T>) -> Formula {
        formulas
            .into_iter()
            .map(Into::into)
            .reduce(Formula::or)
            .unwrap_or_else(|| Formula::from(false))
    }

    /// `(e1, …, en) in {(a1, …, an), …}`: the tuple of int expressions equals one of the
    /// rows. A row of the wrong length is an [`Error::Invalid`] when used.
    ///
    /// ```
    /// # let mut story = epipen::Story::new();
    /// let month = story.int("month");
    /// let day = story.int("day");
    /// let dates = epipen::Formula::tuple_in((&month, &day), [[5, 15], [5, 16], [6, 17]]);
    /// ```
    pub fn tuple_in<R: AsRef<[i64]>>(
        tuple: impl Values,
        rows: impl IntoIterator<Item = R>,
    ) -> Formula {
        let rows = rows
            .into_iter()
            .map(|r| r.as_ref().iter().map(|&n| Int::from(n).0).collect())
            .collect();
        Formula(membership(tuple.into_nodes(), rows))
    }

    /// `knows(A, φ)`: `who` knows that φ holds.
    pub fn knows(who: Character, formula: impl Into<Formula>) -> Formula {
        Formula(Node::combine(
            vec![formula.into().0],
            Some(who.story),
            |mut es| {
                Ok(mk(
                    ExprKind::Knows {
                        agent: who.id,
                        formula: Box::new(es.remove(0)),
                    },
                    Ty::Bool,
                ))
            },
        ))
    }

    /// `knows_value(A, e1, …, en)`: `who` knows the value of the tuple. `values` is one
    /// expression (`&month`) or several (`(&month, &day)`, `[&x, &y]`, a `Vec`).
    pub fn knows_value(who: Character, values: impl Values) -> Formula {
        let nodes = values.into_nodes();
        if nodes.is_empty() {
            return Formula(Node::invalid("`knows_value` needs at least one expression"));
        }
        Formula(Node::combine(nodes, Some(who.story), |exprs| {
            Ok(mk(
                ExprKind::KnowsValue {
                    agent: who.id,
                    exprs,
                },
                Ty::Bool,
            ))
        }))
    }

    /// `everyone_knows(G, φ)`: every character of `group` knows φ (E_G φ).
    pub fn everyone_knows(group: &[Character], formula: impl Into<Formula>) -> Formula {
        Formula::group(GroupOp::Everyone, group, formula.into())
    }

    /// `common_knowledge(G, φ)`: φ holds in every world reachable by any chain of
    /// indistinguishability steps of `group`'s characters (C_G φ). Pass every character
    /// for the whole story's common knowledge.
    pub fn common_knowledge(group: &[Character], formula: impl Into<Formula>) -> Formula {
        Formula::group(GroupOp::Common, group, formula.into())
    }

    /// `distributed_knowledge(G, φ)`: φ holds in every world that agrees with this one on
    /// everything `group`'s characters learned, together (D_G φ).
    pub fn distributed_knowledge(group: &[Character], formula: impl Into<Formula>) -> Formula {
        Formula::group(GroupOp::Distributed, group, formula.into())
    }

    fn group(op: GroupOp, group: &[Character], formula: Formula) -> Formula {
        let Some(first) = group.first() else {
            return Formula(Node::invalid(format!(
                "`{}` needs at least one character",
                op.name()
            )));
        };
        if group.iter().any(|c| c.story != first.story) {
            return Formula(Node::invalid(
                "an expression mixes handles of two different stories",
            ));
        }
        let mut agents: Vec<CharId> = group.iter().map(|c| c.id).collect();
        agents.sort();
        agents.dedup();
        Formula(Node::combine(
            vec![formula.0],
            Some(first.story),
            |mut es| {
                Ok(mk(
                    ExprKind::Group {
                        op,
                        agents,
                        formula: Box::new(es.remove(0)),
                    },
                    Ty::Bool,
                ))
            },
        ))
    }

    /// `at(c, φ)`: φ with its knowledge operators evaluated in the state saved at
    /// checkpoint `c`.
    pub fn at(checkpoint: Checkpoint, formula: impl Into<Formula>) -> Formula {
        Formula(Node::combine(
            vec![formula.into().0],
            Some(checkpoint.story),
            |mut es| {
                Ok(mk(
                    ExprKind::At {
                        checkpoint: checkpoint.id,
                        body: Box::new(es.remove(0)),
                    },
                    Ty::Bool,
                ))
            },
        ))
    }
}

impl From<bool> for Formula {
    fn from(b: bool) -> Formula {
        Formula(Node::lit(mk(ExprKind::Bool(b), Ty::Bool)))
    }
}

impl From<&Formula> for Formula {
    fn from(f: &Formula) -> Formula {
        f.clone()
    }
}

impl ops::Not for Formula {
    type Output = Formula;
    fn not(self) -> Formula {
        Formula::not(self)
    }
}

impl ops::Not for &Formula {
    type Output = Formula;
    fn not(self) -> Formula {
        Formula::not(self.clone())
    }
}

impl<R: Into<Formula>> ops::BitAnd<R> for Formula {
    type Output = Formula;
    fn bitand(self, rhs: R) -> Formula {
        self.and(rhs)
    }
}

impl<R: Into<Formula>> ops::BitOr<R> for Formula {
    type Output = Formula;
    fn bitor(self, rhs: R) -> Formula {
        self.or(rhs)
    }
}

impl<R: Into<Formula>> ops::BitAnd<R> for &Formula {
    type Output = Formula;
    fn bitand(self, rhs: R) -> Formula {
        self.clone().and(rhs)
    }
}

impl<R: Into<Formula>> ops::BitOr<R> for &Formula {
    type Output = Formula;
    fn bitor(self, rhs: R) -> Formula {
        self.clone().or(rhs)
    }
}

/// What an [`Enum`] value can be compared with: another value of the same enum, or a
/// variant's name (`"red"`). Implemented for `&str`, `String`, [`Enum`] and `&Enum`.
pub trait EnumOperand: IntoEnumNode {}
impl<T: IntoEnumNode> EnumOperand for T {}

impl IntoEnumNode for &str {
    fn into_enum_node(self, ty: &EnumType) -> Node {
        ty.value(self).node
    }
}
impl IntoEnumNode for String {
    fn into_enum_node(self, ty: &EnumType) -> Node {
        ty.value(&self).node
    }
}
impl IntoEnumNode for &String {
    fn into_enum_node(self, ty: &EnumType) -> Node {
        ty.value(self).node
    }
}
impl IntoEnumNode for Enum {
    fn into_enum_node(self, ty: &EnumType) -> Node {
        if self.ty.same(ty) {
            self.node
        } else {
            Node::invalid(format!(
                "cannot compare a value of enum `{}` with one of enum `{}`",
                ty.0.name, self.ty.0.name
            ))
        }
    }
}
impl IntoEnumNode for &Enum {
    fn into_enum_node(self, ty: &EnumType) -> Node {
        self.clone().into_enum_node(ty)
    }
}

impl From<&Enum> for Enum {
    fn from(e: &Enum) -> Enum {
        e.clone()
    }
}

impl Enum {
    /// `self == other`: `other` is a value of the same enum or a variant's name.
    pub fn eq(&self, other: impl EnumOperand) -> Formula {
        cmp(CmpOp::Eq, self.node.clone(), other.into_enum_node(&self.ty))
    }

    /// `self != other`.
    pub fn ne(&self, other: impl EnumOperand) -> Formula {
        cmp(CmpOp::Ne, self.node.clone(), other.into_enum_node(&self.ty))
    }

    /// `self in {values}`: equal to one of them (variant names or values).
    ///
    /// ```
    /// # let mut story = epipen::Story::new();
    /// let colour = story.enumeration("Colour", &["red", "green", "blue"]);
    /// let cloe = story.enum_constant(&colour, "Cloe");
    /// let warm = cloe.is_in(["red"]);
    /// ```
    pub fn is_in<T: EnumOperand>(&self, values: impl IntoIterator<Item = T>) -> Formula {
        let rows = values
            .into_iter()
            .map(|v| vec![v.into_enum_node(&self.ty)])
            .collect();
        Formula(membership(vec![self.node.clone()], rows))
    }

    /// The enum type of this value.
    pub fn enum_type(&self) -> &EnumType {
        &self.ty
    }
}

/// A list of expressions, for [`Formula::knows_value`], [`Formula::tuple_in`] and
/// [`Story::learns`]: one expression (`&x`, `x`), a tuple of them (`(&x, &y)`, up to
/// four), an array, a slice or a `Vec`.
pub trait Values: IntoNodes {}
impl<T: IntoNodes> Values for T {}

macro_rules! values_of_expr {
    ($($t:ty),*) => {$(
        impl IntoNodes for $t {
            fn into_nodes(self) -> Vec<Node> {
                vec![self.into_node()]
            }
        }
        impl IntoNodes for &$t {
            fn into_nodes(self) -> Vec<Node> {
                vec![self.clone().into_node()]
            }
        }
    )*};
}
values_of_expr!(Int, Formula, Enum);

impl<T: IntoNodes, const N: usize> IntoNodes for [T; N] {
    fn into_nodes(self) -> Vec<Node> {
        self.into_iter().flat_map(IntoNodes::into_nodes).collect()
    }
}

impl<T: IntoNodes> IntoNodes for Vec<T> {
    fn into_nodes(self) -> Vec<Node> {
        self.into_iter().flat_map(IntoNodes::into_nodes).collect()
    }
}

impl<T: IntoNodes + Clone> IntoNodes for &[T] {
    fn into_nodes(self) -> Vec<Node> {
        self.iter()
            .cloned()
            .flat_map(IntoNodes::into_nodes)
            .collect()
    }
}

impl<T: IntoNodes + Clone, const N: usize> IntoNodes for &[T; N] {
    fn into_nodes(self) -> Vec<Node> {
        self.as_slice().into_nodes()
    }
}

impl<T: IntoNodes + Clone> IntoNodes for &Vec<T> {
    fn into_nodes(self) -> Vec<Node> {
        self.as_slice().into_nodes()
    }
}

macro_rules! values_of_tuple {
    ($($name:ident),*) => {
        impl<$($name: IntoNodes),*> IntoNodes for ($($name,)*) {
            #[allow(non_snake_case)]
            fn into_nodes(self) -> Vec<Node> {
                let ($($name,)*) = self;
                let mut nodes = Vec::new();
                $(nodes.extend($name.into_nodes());)*
                nodes
            }
        }
    };
}
values_of_tuple!(A, B);
values_of_tuple!(A, B, C);
values_of_tuple!(A, B, C, D);

// ---------------------------------------------------------------------------------------
// Handles
// ---------------------------------------------------------------------------------------

/// A character (agent) of a [`Story`], from [`Story::character`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Character {
    story: u64,
    id: CharId,
}

impl Character {
    /// The character's id in the story's [`Program`].
    pub fn id(self) -> CharId {
        self.id
    }
}

/// A saved knowledge state, from [`Story::checkpoint`], for [`Formula::at`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Checkpoint {
    story: u64,
    id: CheckpointId,
}

#[derive(Debug)]
struct EnumInfo {
    story: u64,
    id: EnumId,
    name: String,
    variants: Vec<String>,
}

/// An enum type of a [`Story`], from [`Story::enumeration`]. Its values are the
/// variants, in declaration order.
#[derive(Debug, Clone)]
pub struct EnumType(Rc<EnumInfo>);

impl EnumType {
    fn same(&self, other: &EnumType) -> bool {
        self.0.story == other.0.story && self.0.id == other.0.id
    }

    /// The enum's name.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The variants' names, in declaration order.
    pub fn variants(&self) -> &[String] {
        &self.0.variants
    }

    /// The variant called `name`. An unknown name gives a value that fails with
    /// [`Error::Invalid`] when a statement uses it.
    pub fn value(&self, name: &str) -> Enum {
        let node = match self.0.variants.iter().position(|v| v == name) {
            Some(i) => Node::of(
                self.0.story,
                mk(ExprKind::Int(i as i64), Ty::Enum(self.0.id)),
            ),
            None => Node::invalid(format!(
                "enum `{}` has no variant `{name}` (its variants: {})",
                self.0.name,
                self.0.variants.join(", ")
            )),
        };
        Enum {
            node,
            ty: self.clone(),
        }
    }

    /// Every variant as a value, in declaration order.
    pub fn values(&self) -> Vec<Enum> {
        self.0.variants.iter().map(|v| self.value(v)).collect()
    }
}

// ---------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------

/// Why a statement of a [`Story`] failed. A failed statement has no effect.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A mistake caught before running: a handle of another story, values of two
    /// different enums compared, an unknown enum variant, a duplicate constant name, a
    /// knowledge operator in [`Story::learns`] or [`Story::actual`], a checkpoint used
    /// by [`Formula::at`] before it was saved, …
    Invalid(String),
    /// The story is wrong in a way only running it shows: an `actual` formula that
    /// allows several worlds, an announcement false in the actual world, `reveals`
    /// without an actual world, …
    Story {
        /// What is wrong.
        message: String,
        /// How to fix it, when known.
        hints: Vec<String>,
    },
    /// An [`Story::assert_adds_ck`] hint is wrong.
    Refuted(Refutation),
    /// Z3 could not answer (timeout, resource limit, `unknown`, or a formula outside
    /// what the engine can decide). Never to be read as "no worlds".
    Solver(SolverError),
}

/// A world on which an [`Story::assert_adds_ck`] hint and its block disagree.
#[derive(Debug, Clone, PartialEq)]
pub struct Refutation {
    /// The world, and which side keeps it.
    pub counterexample: Counterexample,
    /// The world as text, e.g. `A = 0, B = 1 (the hint allows this world but the block
    /// rules it out)`.
    pub description: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid(m) => write!(f, "{m}"),
            Error::Story { message, hints } => {
                write!(f, "{message}")?;
                for h in hints {
                    write!(f, "; hint: {h}")?;
                }
                Ok(())
            }
            Error::Refuted(r) => write!(f, "the hint is wrong: {}", r.description),
            Error::Solver(e) => write!(f, "solver failure: {e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<SolverError> for Error {
    fn from(e: SolverError) -> Error {
        Error::Solver(e)
    }
}

// ---------------------------------------------------------------------------------------
// The story
// ---------------------------------------------------------------------------------------

/// How an [`Story::assert_adds_ck`] hint was handled.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Hint {
    /// Proven right; κ became κ_before ∧ hint.
    Verified {
        /// How long the block and the proof took.
        elapsed: Duration,
    },
    /// Taken on trust ([`Options::trust_hints`]).
    Trusted,
    /// Refuted, and the story went on with the block's true effect (only with
    /// [`Options::keep_refuted_hints`]; otherwise a refuted hint is
    /// [`Error::Refuted`]).
    Refuted(Refutation),
}

/// An engine running over a snapshot of the story's declarations.
struct Live {
    engine: Engine,
    /// The declarations the snapshot holds: (characters, constants, enums).
    declared: (usize, usize, usize),
    /// How many checkpoints the engine has room for.
    checkpoint_slots: usize,
}

impl Live {
    fn new(decls: &Program, options: &Options) -> Live {
        let checkpoint_slots = (decls.checkpoints.len() * 2).max(16);
        let mut checkpoints = decls.checkpoints.clone();
        checkpoints.resize(
            checkpoint_slots,
            ir::Checkpoint {
                name: String::new(),
                span: Span::default(),
            },
        );
        let snapshot = Program {
            characters: decls.characters.clone(),
            constants: decls.constants.clone(),
            enums: decls.enums.clone(),
            checkpoints,
            statements: Vec::new(),
            samples: Vec::new(),
        };
        Live {
            engine: Engine::new(Rc::new(snapshot), options),
            declared: (
                decls.characters.len(),
                decls.constants.len(),
                decls.enums.len(),
            ),
            checkpoint_slots,
        }
    }

    fn fits(&self, decls: &Program) -> bool {
        self.declared
            == (
                decls.characters.len(),
                decls.constants.len(),
                decls.enums.len(),
            )
            && decls.checkpoints.len() <= self.checkpoint_slots
    }
}

/// An epistemic puzzle, told statement by statement.
///
/// Declarations ([`Story::character`], [`Story::int`], [`Story::bool`],
/// [`Story::enumeration`], [`Story::enum_constant`]) return handles; statements
/// ([`Story::announce`], [`Story::learns`], [`Story::says`], …) run at once and return a
/// [`Result`]. Declarations may come at any time; one after the first statement makes
/// the next statement replay the story so far on a fresh engine (correct, but slower).
///
/// A story uses Z3, whose contexts are thread-local: it stays on the thread that made it.
/// See the [module documentation](self) for complete examples.
pub struct Story {
    id: u64,
    options: Options,
    /// The declarations, and every statement that ran successfully.
    program: Program,
    /// Which checkpoints the statements so far have saved.
    saved: Vec<bool>,
    live: Option<Live>,
}

impl Default for Story {
    fn default() -> Story {
        Story::new()
    }
}

impl fmt::Debug for Story {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Story")
            .field("characters", &self.program.characters.len())
            .field("constants", &self.program.constants.len())
            .field("statements", &self.program.statements.len())
            .finish()
    }
}

impl Story {
    /// An empty story with default options.
    pub fn new() -> Story {
        Story::with_options(Options::default())
    }

    /// An empty story. Of the [`Options`]: `timeout` is a deadline counted from when
    /// the engine starts (at the first statement, and again when the story is replayed
    /// after a late declaration or a failed statement); `trust_hints` and
    /// `keep_refuted_hints` change [`Story::assert_adds_ck`]; `skip_worlds_statements`
    /// does not matter here.
    pub fn with_options(options: Options) -> Story {
        Story {
            id: NEXT_STORY.fetch_add(1, Ordering::Relaxed),
            options,
            program: Program {
                characters: Vec::new(),
                constants: Vec::new(),
                checkpoints: Vec::new(),
                enums: Vec::new(),
                statements: Vec::new(),
                samples: Vec::new(),
            },
            saved: Vec::new(),
            live: None,
        }
    }

    /// The story as a lowered [`Program`]: its declarations and the statements that ran
    /// so far (e.g. for [`crate::worlds::world_line`] or to run it again elsewhere).
    pub fn program(&self) -> &Program {
        &self.program
    }

    // --- declarations ---

    /// Declares a character. Names are labels: two characters may share one.
    pub fn character(&mut self, name: &str) -> Character {
        let id = CharId(self.program.characters.len());
        self.program.characters.push(ir::Character {
            name: name.into(),
            span: Span::default(),
        });
        Character { story: self.id, id }
    }

    /// Declares `n` characters named `name[0]`, …, `name[n-1]`.
    pub fn characters(&mut self, name: &str, n: usize) -> Vec<Character> {
        (0..n)
            .map(|i| self.character(&format!("{name}[{i}]")))
            .collect()
    }

    fn constant(&mut self, name: &str, ty: Ty) -> Node {
        if self.program.constants.iter().any(|c| c.name == name) {
            return Node::invalid(format!("the constant `{name}` is already declared"));
        }
        let id = ConstId(self.program.constants.len());
        self.program.constants.push(ir::Constant {
            name: name.into(),
            ty,
            span: Span::default(),
        });
        Node::of(self.id, mk(ExprKind::Const(id), ty))
    }

    /// Declares a hidden integer constant (any integer: bound it with an announcement
    /// if needed). Constant names are unique: a second `month` gives an expression that
    /// fails with [`Error::Invalid`] when used.
    pub fn int(&mut self, name: &str) -> Int {
        Int(self.constant(name, Ty::Int))
    }

    /// Declares `n` int constants named `name[0]`, …, `name[n-1]`.
    pub fn ints(&mut self, name: &str, n: usize) -> Vec<Int> {
        (0..n).map(|i| self.int(&format!("{name}[{i}]"))).collect()
    }

    /// Declares a hidden boolean constant, which is a [`Formula`].
    pub fn bool(&mut self, name: &str) -> Formula {
        Formula(self.constant(name, Ty::Bool))
    }

    /// Declares `n` bool constants named `name[0]`, …, `name[n-1]`.
    pub fn bools(&mut self, name: &str, n: usize) -> Vec<Formula> {
        (0..n).map(|i| self.bool(&format!("{name}[{i}]"))).collect()
    }

    /// Declares an enum type with the given variants: `enum Colour { red, green }`.
    ///
    /// ```
    /// use epipen::Story;
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let colour = story.enumeration("Colour", &["red", "green", "blue"]);
    /// let cloe = story.enum_constant(&colour, "Cloe");
    /// let anya = story.enum_constant(&colour, "Anya");
    /// story.announce(cloe.ne("red") & anya.eq(&cloe) & anya.is_in(["red", "blue"]))?;
    /// let worlds = story.worlds(10)?;
    /// assert_eq!(worlds.len(), 1);
    /// assert_eq!(worlds[0].variant(&cloe), Some("blue"));
    /// assert_eq!(worlds[0].to_string(), "Cloe = blue, Anya = blue");
    /// # Ok(())
    /// # }
    /// ```
    pub fn enumeration(&mut self, name: &str, variants: &[&str]) -> EnumType {
        let id = EnumId(self.program.enums.len());
        self.program.enums.push(ir::EnumDef {
            name: name.into(),
            variants: variants.iter().map(|v| v.to_string()).collect(),
            span: Span::default(),
        });
        EnumType(Rc::new(EnumInfo {
            story: self.id,
            id,
            name: name.into(),
            variants: variants.iter().map(|v| v.to_string()).collect(),
        }))
    }

    /// Declares a hidden constant of an enum type: one of its variants.
    pub fn enum_constant(&mut self, ty: &EnumType, name: &str) -> Enum {
        let node = if ty.0.story == self.id {
            self.constant(name, Ty::Enum(ty.0.id))
        } else {
            Node::invalid("the enum type belongs to another story")
        };
        Enum {
            node,
            ty: ty.clone(),
        }
    }

    /// The name a character was declared with.
    pub fn name(&self, who: Character) -> Option<&str> {
        (who.story == self.id).then(|| self.program.characters[who.id.0].name.as_str())
    }

    // --- statements ---

    /// `announce φ`: the storyteller announces φ, which becomes common knowledge.
    pub fn announce(&mut self, formula: impl Into<Formula>) -> Result<(), Error> {
        let stmt = self.announcement(None, formula.into())?;
        self.run(stmt).map(drop)
    }

    /// `A: φ`: `who` truthfully announces φ (κ := κ ∧ K_A φ).
    pub fn says(&mut self, who: Character, formula: impl Into<Formula>) -> Result<(), Error> {
        let stmt = self.announcement(Some(who), formula.into())?;
        self.run(stmt).map(drop)
    }

    /// `A learns e`: `who` gets access to the value of each expression (a constant, or
    /// any expression of constants without knowledge operators): `learns(a, &month)`,
    /// `learns(a, (&x, &y))`, `learns(a, &x + &y)`.
    pub fn learns(&mut self, who: Character, values: impl Values) -> Result<(), Error> {
        let stmts = self.learn_stmts(who, values)?;
        // One statement per value, run as a unit so that a failure leaves no trace.
        self.run_all(stmts).map(drop)
    }

    /// `checkpoint c`: saves the knowledge state (κ and who learned what) under `name`,
    /// for [`Formula::at`]. Saving under a name used before overwrites that checkpoint
    /// and returns the same handle.
    pub fn checkpoint(&mut self, name: &str) -> Result<Checkpoint, Error> {
        let cp = self.declare_checkpoint(name);
        self.run(stmt(StmtKind::Checkpoint(cp.id)))?;
        Ok(cp)
    }

    /// `actual φ`: declares the actual world, which φ (without knowledge operators)
    /// must pin down exactly. It is not announced. Needed by [`Story::reveals`]; later
    /// announcements must be true in it. It is declared once: a second `actual` is an
    /// [`Error::Invalid`].
    pub fn actual(&mut self, formula: impl Into<Formula>) -> Result<(), Error> {
        let e = self.expr(formula.into().0)?;
        no_knowledge(&e, "`actual`")?;
        if (self.program.statements.iter()).any(|s| matches!(s.kind, StmtKind::Actual(_))) {
            return Err(Error::Invalid(
                "the actual world is already declared; declare it once, e.g. `actual(φ & ψ)`"
                    .into(),
            ));
        }
        self.run(stmt(StmtKind::Actual(e))).map(drop)
    }

    /// `A reveals φ`: `who` announces φ if it holds in the actual world, else `not φ`.
    /// Returns whether φ held.
    pub fn reveals(&mut self, who: Character, formula: impl Into<Formula>) -> Result<bool, Error> {
        let stmt = self.reveal_stmt(who, formula.into())?;
        let events = self.run(stmt)?;
        Ok(reveal_outcomes(&events).first().copied().unwrap_or(false))
    }

    /// `simultaneously { … }`: every announcement made in `block` is evaluated in the
    /// state at the block's start, and they take effect together. Returns what each
    /// [`Simultaneous::reveals`] in the block found, in order.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let kids = story.characters("child", 2);
    /// let muddy = story.bools("muddy", 2);
    /// story.actual(muddy[0].clone() & muddy[1].clone())?;
    /// story.learns(kids[0], &muddy[1])?;
    /// story.learns(kids[1], &muddy[0])?;
    /// story.announce(F::any(&muddy))?;
    /// let round = |story: &mut Story| {
    ///     story.simultaneously(|s| {
    ///         for (kid, m) in kids.iter().zip(&muddy) {
    ///             s.reveals(*kid, F::knows_value(*kid, m));
    ///         }
    ///     })
    /// };
    /// assert_eq!(round(&mut story)?, [false, false]);
    /// assert_eq!(round(&mut story)?, [true, true]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn simultaneously(
        &mut self,
        block: impl FnOnce(&mut Simultaneous),
    ) -> Result<Vec<bool>, Error> {
        let mut s = Simultaneous {
            story: self,
            stmts: Vec::new(),
            error: None,
        };
        block(&mut s);
        let Simultaneous { stmts, error, .. } = s;
        if let Some(e) = error {
            return Err(e);
        }
        let events = self.run(stmt(StmtKind::Simultaneously(stmts)))?;
        Ok(reveal_outcomes(&events))
    }

    /// `assert_adds_ck φ { … }`: runs `block`, then proves that it added exactly `hint`
    /// to the common knowledge (κ_after ≡ κ_before ∧ hint under κ_before), and keeps
    /// the small form κ_before ∧ hint. A wrong hint is [`Error::Refuted`], with a world
    /// where the two disagree.
    ///
    /// ```
    /// use epipen::{Error, Formula as F, Story};
    /// # fn main() -> Result<(), Error> {
    /// let mut story = Story::new();
    /// let anne = story.character("Anne");
    /// let a = story.int("A");
    /// let b = story.int("B");
    /// story.announce(a.ge(0) & b.ge(0) & (a.eq(&b + 1) | b.eq(&a + 1)))?;
    /// story.learns(anne, &a)?;
    /// // Right: Anne does not know B exactly when A > 0.
    /// story.assert_adds_ck(a.gt(0), |s| {
    ///     s.says(anne, !F::knows_value(anne, &b));
    /// })?;
    /// // Wrong: "B > 5" is not what "Anne knows B" adds.
    /// let err = story
    ///     .assert_adds_ck(b.gt(5), |s| {
    ///         s.says(anne, F::knows_value(anne, &b));
    ///     })
    ///     .unwrap_err();
    /// assert!(matches!(err, Error::Refuted(_)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn assert_adds_ck(
        &mut self,
        hint: impl Into<Formula>,
        block: impl FnOnce(&mut Block),
    ) -> Result<Hint, Error> {
        let hint = self.expr(hint.into().0)?;
        let mut b = Block {
            story: self,
            stmts: Vec::new(),
            error: None,
        };
        block(&mut b);
        let Block { stmts, error, .. } = b;
        if let Some(e) = error {
            return Err(e);
        }
        let events = self.run(stmt(StmtKind::AssertAddsCk { hint, body: stmts }))?;
        let description = |c: &Counterexample| c.describe(&self.program);
        Ok(events
            .into_iter()
            .rev()
            .find_map(|e| match e {
                Event::HintVerified { elapsed, .. } => Some(Hint::Verified { elapsed }),
                Event::HintTrusted { .. } => Some(Hint::Trusted),
                Event::HintRefuted { counterexample, .. } => Some(Hint::Refuted(Refutation {
                    description: description(&counterexample),
                    counterexample,
                })),
                _ => None,
            })
            .unwrap_or(Hint::Trusted))
    }

    /// `check φ`: φ must hold in every world possible now; nothing changes. A check
    /// that fails is an [`Error::Story`] naming a world where φ is false.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let kids = story.characters("child", 2);
    /// let muddy = story.bools("muddy", 2);
    /// story.learns(kids[0], &muddy[1])?;
    /// story.learns(kids[1], &muddy[0])?;
    /// // Where both are muddy, each sees a muddy child: everyone knows someone is...
    /// let someone = F::any(&muddy);
    /// let both = muddy[0].clone() & muddy[1].clone();
    /// story.check(both.implies(F::everyone_knows(&kids, someone.clone())))?;
    /// // ...but nowhere is it common knowledge until the father says it.
    /// assert!(story.check(F::common_knowledge(&kids, someone.clone())).is_err());
    /// story.announce(someone.clone())?;
    /// story.check(F::common_knowledge(&kids, someone))?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn check(&mut self, formula: impl Into<Formula>) -> Result<(), Error> {
        let e = self.expr(formula.into().0)?;
        self.run(stmt(StmtKind::Check(e))).map(drop)
    }

    /// `x := e`: from now on the constant `target` has the value `value` had, in each
    /// world, just before: a public change (everyone knows it happened and how). What
    /// characters learned before keeps meaning the old values; `at` sees the values of
    /// its checkpoint's time.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let anne = story.character("Anne");
    /// let x = story.int("x");
    /// story.announce(x.is_in([1, 2]))?;
    /// story.actual(x.eq(1))?;
    /// story.assign(&x, &x + 10)?;
    /// story.learns(anne, &x)?;
    /// story.check(F::knows_value(anne, &x) & x.is_in([11, 12]))?;
    /// let worlds = story.worlds(10)?;
    /// assert_eq!(worlds.len(), 2);
    /// assert_eq!(worlds[0].int(&x), Some(11));
    /// # Ok(())
    /// # }
    /// ```
    pub fn assign<T: Expression>(&mut self, target: &T, value: impl Into<T>) -> Result<(), Error> {
        let target = self.expr(target.node().clone())?;
        let ExprKind::Const(c) = target.kind else {
            return Err(Error::Invalid(
                "`:=` changes a constant: its target must be one (a handle from \
                 `Story::int`, `Story::bool` or `Story::enum_constant`)"
                    .into(),
            ));
        };
        let value = self.expr(value.into().into_node())?;
        no_knowledge(&value, "`:=`")?;
        if value.ty != target.ty {
            return Err(Error::Invalid(
                "`:=` needs a value of the constant's type (the same enum)".into(),
            ));
        }
        self.run(stmt(StmtKind::Assign { target: c, value }))
            .map(drop)
    }

    /// Up to `limit` of the worlds possible now, in the canonical order (smaller
    /// magnitude first, then value by value in declaration order).
    pub fn worlds(&mut self, limit: u64) -> Result<Worlds, Error> {
        self.ensure_live()?;
        let live = self.live.as_mut().expect("ensure_live made the engine");
        let set = live.engine.worlds(limit)?;
        let decls = Rc::new(Program {
            characters: self.program.characters.clone(),
            constants: self.program.constants.clone(),
            checkpoints: self.program.checkpoints.clone(),
            enums: self.program.enums.clone(),
            statements: Vec::new(),
            samples: Vec::new(),
        });
        Ok(Worlds {
            worlds: set
                .worlds
                .into_iter()
                .map(|world| PossibleWorld {
                    story: self.id,
                    world,
                    decls: decls.clone(),
                })
                .collect(),
            complete: set.complete,
            decls,
        })
    }

    // --- internals ---

    /// The IR of an expression of this story.
    fn expr(&self, node: Node) -> Result<ir::Expr, Error> {
        if node.story.is_some_and(|s| s != self.id) {
            return Err(Error::Invalid(
                "an expression uses handles of another story".into(),
            ));
        }
        node.expr.map_err(Error::Invalid)
    }

    fn check_character(&self, who: Character) -> Result<(), Error> {
        if who.story == self.id {
            Ok(())
        } else {
            Err(Error::Invalid(
                "the character belongs to another story".into(),
            ))
        }
    }

    fn announcement(&self, who: Option<Character>, formula: Formula) -> Result<Stmt, Error> {
        if let Some(who) = who {
            self.check_character(who)?;
        }
        let formula = self.expr(formula.0)?;
        Ok(stmt(StmtKind::Announce {
            speaker: who.map(|w| w.id),
            formula,
        }))
    }

    fn reveal_stmt(&self, who: Character, formula: Formula) -> Result<Stmt, Error> {
        self.check_character(who)?;
        let formula = self.expr(formula.0)?;
        Ok(stmt(StmtKind::Reveal {
            who: who.id,
            formula,
            text: String::new(),
        }))
    }

    fn learn_stmts(&self, who: Character, values: impl Values) -> Result<Vec<Stmt>, Error> {
        self.check_character(who)?;
        let nodes = values.into_nodes();
        if nodes.is_empty() {
            return Err(Error::Invalid(
                "`learns` needs at least one expression".into(),
            ));
        }
        nodes
            .into_iter()
            .map(|n| {
                let what = self.expr(n)?;
                no_knowledge(&what, "`learns`")?;
                Ok(stmt(StmtKind::Learn { who: who.id, what }))
            })
            .collect()
    }

    fn declare_checkpoint(&mut self, name: &str) -> Checkpoint {
        let id = match self.program.checkpoints.iter().position(|c| c.name == name) {
            Some(i) => CheckpointId(i),
            None => {
                self.program.checkpoints.push(ir::Checkpoint {
                    name: name.into(),
                    span: Span::default(),
                });
                CheckpointId(self.program.checkpoints.len() - 1)
            }
        };
        Checkpoint { story: self.id, id }
    }

    /// Makes sure a live engine matches the declarations, replaying the statements so
    /// far on a new one when needed.
    fn ensure_live(&mut self) -> Result<(), Error> {
        if self.live.as_ref().is_some_and(|l| l.fits(&self.program)) {
            return Ok(());
        }
        self.live = None;
        let mut live = Live::new(&self.program, &self.options);
        for s in &self.program.statements {
            live.engine
                .step(s, &mut |_| {})
                .map_err(from_engine(&self.program))?;
        }
        self.live = Some(live);
        Ok(())
    }

    /// Runs one statement; on success it becomes part of the story.
    fn run(&mut self, stmt: Stmt) -> Result<Vec<Event>, Error> {
        self.run_all(vec![stmt])
    }

    /// Runs statements as a unit: all succeed and join the story, or the story stays
    /// as it was.
    fn run_all(&mut self, stmts: Vec<Stmt>) -> Result<Vec<Event>, Error> {
        let mut saved = self.saved.clone();
        saved.resize(self.program.checkpoints.len(), false);
        for s in &stmts {
            check_checkpoints(s, &mut saved)?;
        }
        self.ensure_live()?;
        let live = self.live.as_mut().expect("ensure_live made the engine");
        let mut events = Vec::new();
        let mut result = Ok(());
        for s in &stmts {
            result = live.engine.step(s, &mut |e| events.push(e));
            if result.is_err() {
                break;
            }
        }
        match result {
            Ok(()) => {
                self.saved = saved;
                self.program.statements.extend(stmts);
                Ok(events)
            }
            Err(e) => {
                // The engine may hold part of the failed statement's effect: start
                // afresh (replaying the story) at the next statement.
                self.live = None;
                Err(from_engine(&self.program)(e))
            }
        }
    }
}

fn stmt(kind: StmtKind) -> Stmt {
    Stmt {
        kind,
        span: Span::default(),
    }
}

fn from_engine(program: &Program) -> impl Fn(EngineError) -> Error + '_ {
    move |e| match e.error {
        Failure::Solver(s) => Error::Solver(s),
        Failure::Story { message, hints } => Error::Story { message, hints },
        Failure::Refuted(c) => Error::Refuted(Refutation {
            description: c.describe(program),
            counterexample: c,
        }),
        Failure::CheckFailed(world) => Error::Story {
            message: format!(
                "the check fails in the world {}",
                worlds::world_line(program, &world.0)
            ),
            hints: Vec::new(),
        },
    }
}

fn reveal_outcomes(events: &[Event]) -> Vec<bool> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Reveal { holds, .. } => Some(*holds),
            _ => None,
        })
        .collect()
}

/// Calls `f` on every subexpression of `e`, `e` first.
fn walk(e: &ir::Expr, f: &mut dyn FnMut(&ir::Expr) -> Result<(), Error>) -> Result<(), Error> {
    e.walk(f)
}

fn no_knowledge(e: &ir::Expr, what: &str) -> Result<(), Error> {
    walk(e, &mut |x| {
        if x.is_knowledge() {
            Err(Error::Invalid(format!(
                "{what} takes no knowledge operators (knows, knows_value, at, group knowledge)"
            )))
        } else {
            Ok(())
        }
    })
}

/// Checks that every `at` names a checkpoint saved before it, in story order, and
/// records the checkpoints `s` saves.
fn check_checkpoints(s: &Stmt, saved: &mut Vec<bool>) -> Result<(), Error> {
    let check = |e: &ir::Expr, saved: &Vec<bool>| {
        walk(e, &mut |x| match x.kind {
            ExprKind::At { checkpoint, .. }
                if !saved.get(checkpoint.0).copied().unwrap_or(false) =>
            {
                Err(Error::Invalid(
                    "`at` names a checkpoint that is not saved at this point of the story".into(),
                ))
            }
            _ => Ok(()),
        })
    };
    match &s.kind {
        StmtKind::Announce { formula: e, .. }
        | StmtKind::Learn { what: e, .. }
        | StmtKind::Actual(e)
        | StmtKind::Check(e)
        | StmtKind::Assign { value: e, .. }
        | StmtKind::Reveal { formula: e, .. } => check(e, saved),
        StmtKind::Checkpoint(c) => {
            if saved.len() <= c.0 {
                saved.resize(c.0 + 1, false);
            }
            saved[c.0] = true;
            Ok(())
        }
        StmtKind::Worlds { .. } => Ok(()),
        StmtKind::Simultaneously(body) => body.iter().try_for_each(|b| check_checkpoints(b, saved)),
        StmtKind::Repeat { body, until, .. } => {
            body.iter().try_for_each(|b| check_checkpoints(b, saved))?;
            check(until, saved)
        }
        StmtKind::AssertAddsCk { hint, body } => {
            check(hint, saved)?;
            body.iter().try_for_each(|b| check_checkpoints(b, saved))
        }
    }
}

/// The statements of a [`Story::simultaneously`] block: announcements only, all
/// evaluated in the state at the block's start. Mistakes are reported by
/// [`Story::simultaneously`], which then runs nothing.
pub struct Simultaneous<'s> {
    story: &'s Story,
    stmts: Vec<Stmt>,
    error: Option<Error>,
}

impl Simultaneous<'_> {
    fn push(&mut self, s: Result<Stmt, Error>) -> &mut Self {
        match s {
            Ok(s) => self.stmts.push(s),
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// `announce φ`, evaluated at the block's start.
    pub fn announce(&mut self, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.announcement(None, formula.into());
        self.push(s)
    }

    /// `A: φ`, evaluated at the block's start.
    pub fn says(&mut self, who: Character, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.announcement(Some(who), formula.into());
        self.push(s)
    }

    /// `A reveals φ`, evaluated at the block's start; its outcome is in the vector
    /// [`Story::simultaneously`] returns.
    pub fn reveals(&mut self, who: Character, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.reveal_stmt(who, formula.into());
        self.push(s)
    }
}

/// The statements of an [`Story::assert_adds_ck`] block, run in order once the block
/// is complete. Mistakes are reported by [`Story::assert_adds_ck`], which then runs
/// nothing.
pub struct Block<'s> {
    story: &'s mut Story,
    stmts: Vec<Stmt>,
    error: Option<Error>,
}

impl Block<'_> {
    fn push(&mut self, s: Result<Vec<Stmt>, Error>) -> &mut Self {
        match s {
            Ok(s) => self.stmts.extend(s),
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// `announce φ`.
    pub fn announce(&mut self, formula: impl Into<Formula>) -> &mut Self {
        let s = self
            .story
            .announcement(None, formula.into())
            .map(|s| vec![s]);
        self.push(s)
    }

    /// `A: φ`.
    pub fn says(&mut self, who: Character, formula: impl Into<Formula>) -> &mut Self {
        let s = self
            .story
            .announcement(Some(who), formula.into())
            .map(|s| vec![s]);
        self.push(s)
    }

    /// `A learns e`, as [`Story::learns`].
    pub fn learns(&mut self, who: Character, values: impl Values) -> &mut Self {
        let s = self.story.learn_stmts(who, values);
        self.push(s)
    }

    /// `A reveals φ`. (Its outcome is not returned; use [`Story::reveals`] outside a
    /// block to get it.)
    pub fn reveals(&mut self, who: Character, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.reveal_stmt(who, formula.into()).map(|s| vec![s]);
        self.push(s)
    }

    /// `checkpoint c`, saved when the block runs there.
    pub fn checkpoint(&mut self, name: &str) -> Checkpoint {
        let cp = self.story.declare_checkpoint(name);
        self.stmts.push(stmt(StmtKind::Checkpoint(cp.id)));
        cp
    }

    /// `simultaneously { … }` inside the block.
    pub fn simultaneously(&mut self, block: impl FnOnce(&mut Simultaneous)) -> &mut Self {
        let mut s = Simultaneous {
            story: self.story,
            stmts: Vec::new(),
            error: None,
        };
        block(&mut s);
        let Simultaneous { stmts, error, .. } = s;
        match error {
            Some(e) => self.push(Err(e)),
            None => self.push(Ok(vec![stmt(StmtKind::Simultaneously(stmts))])),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Worlds
// ---------------------------------------------------------------------------------------

/// The worlds [`Story::worlds`] found, in canonical order, and whether they are all.
///
/// Index it (`worlds[0]`) or iterate it to get each [`PossibleWorld`], which reads
/// values by constant handle or by name. `Display` prints them as `epipen worlds` does.
#[derive(Debug, Clone)]
pub struct Worlds {
    worlds: Vec<PossibleWorld>,
    complete: bool,
    decls: Rc<Program>,
}

impl Worlds {
    /// How many worlds were found (at most the limit).
    pub fn len(&self) -> usize {
        self.worlds.len()
    }

    /// No worlds found: when [`Worlds::is_complete`], the announcements contradict
    /// each other.
    pub fn is_empty(&self) -> bool {
        self.worlds.is_empty()
    }

    /// True when the solver proved there are no other worlds; false when more exist
    /// beyond the limit.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The worlds, in canonical order.
    pub fn iter(&self) -> std::slice::Iter<'_, PossibleWorld> {
        self.worlds.iter()
    }

    /// The worlds as the engine reports them.
    pub fn to_set(&self) -> WorldSet {
        WorldSet {
            before: None,
            worlds: self.worlds.iter().map(|w| w.world.clone()).collect(),
            complete: self.complete,
        }
    }
}

impl ops::Index<usize> for Worlds {
    type Output = PossibleWorld;
    fn index(&self, i: usize) -> &PossibleWorld {
        &self.worlds[i]
    }
}

impl<'a> IntoIterator for &'a Worlds {
    type Item = &'a PossibleWorld;
    type IntoIter = std::slice::Iter<'a, PossibleWorld>;
    fn into_iter(self) -> Self::IntoIter {
        self.worlds.iter()
    }
}

impl IntoIterator for Worlds {
    type Item = PossibleWorld;
    type IntoIter = std::vec::IntoIter<PossibleWorld>;
    fn into_iter(self) -> Self::IntoIter {
        self.worlds.into_iter()
    }
}

impl fmt::Display for Worlds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let more = "raise the limit to see more";
        write!(
            f,
            "{}",
            worlds::worlds_text(&self.decls, &self.to_set(), more)
        )
    }
}

/// One possible world: a value for every constant of the story.
#[derive(Debug, Clone)]
pub struct PossibleWorld {
    story: u64,
    world: World,
    decls: Rc<Program>,
}

impl PossibleWorld {
    /// The value of an int expression here, e.g. of a constant: `w.int(&month)`. `None`
    /// when the expression is not one of this story's, holds a mistake or a knowledge
    /// operator, or overflows 64 bits.
    pub fn int(&self, e: &Int) -> Option<i64> {
        match self.eval(&e.0)? {
            Value::Int(n) => Some(n),
            Value::Bool(_) => None,
        }
    }

    /// The value of a formula without knowledge operators here, e.g. of a bool
    /// constant (`None` as for [`PossibleWorld::int`]).
    pub fn bool(&self, e: &Formula) -> Option<bool> {
        match self.eval(&e.0)? {
            Value::Bool(b) => Some(b),
            Value::Int(_) => None,
        }
    }

    /// The variant an enum expression takes here, e.g. of an enum constant (`None` as
    /// for [`PossibleWorld::int`]).
    pub fn variant(&self, e: &Enum) -> Option<&str> {
        let Value::Int(i) = self.eval(&e.node)? else {
            return None;
        };
        let Ty::Enum(id) = e.node.expr.as_ref().ok()?.ty else {
            return None;
        };
        self.decls
            .enums
            .get(id.0)?
            .variants
            .get(usize::try_from(i).ok()?)
            .map(String::as_str)
    }

    /// The value of the constant called `name` (enum values are their variant's index).
    pub fn get(&self, name: &str) -> Option<Value> {
        let i = self.decls.constants.iter().position(|c| c.name == name)?;
        self.world.0.get(i).copied()
    }

    /// Every constant's name with its value as stories write it (enum values by their
    /// variant's name), in declaration order.
    pub fn values(&self) -> impl Iterator<Item = (&str, String)> + '_ {
        self.decls
            .constants
            .iter()
            .zip(&self.world.0)
            .map(|(c, v)| (c.name.as_str(), worlds::show_value(&self.decls, c.ty, *v)))
    }

    /// The raw world: values in declaration order.
    pub fn world(&self) -> &World {
        &self.world
    }

    fn eval(&self, node: &Node) -> Option<Value> {
        if node.story.is_some_and(|s| s != self.story) {
            return None;
        }
        worlds::value_of(node.expr.as_ref().ok()?, &self.world.0)
    }
}

/// `month = 7, day = 16`
impl fmt::Display for PossibleWorld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", worlds::world_line(&self.decls, &self.world.0))
    }
}
