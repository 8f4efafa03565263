//! Typed expressions of the Rust API: [`Int`], [`Formula`], [`Enum`], with Rust's
//! operators, built as the story language's AST (which lowering resolves and checks when
//! a statement uses them), remembering which story their handles belong to.

use std::ops;

use crate::ir::{CharId, CheckpointId, GroupOp};
use crate::syntax::ast;

use super::{Character, Checkpoint, EnumType};

mod sealed {
    use super::*;

    /// An expression as the language's AST (characters and checkpoints as placeholder
    /// names, [`super::character_name`]), or the mistake that stopped it. It remembers
    /// which story its handles belong to (`None`: only literals).
    #[derive(Debug, Clone)]
    pub struct Node {
        pub(crate) story: Option<u64>,
        pub(crate) ast: Result<ast::Expr, super::super::Error>,
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

pub(super) use sealed::{IntoEnumNode, IntoNodes, Node, Typed};

/// The placeholder name of a character in a handle's AST, which the story replaces by
/// the character's name when it lowers a statement (`#` starts a comment in a story
/// file: no name of the story's has one).
pub(super) fn character_name(id: CharId) -> String {
    format!("#character{}", id.0)
}

/// The placeholder name of a checkpoint, as [`character_name`].
pub(super) fn checkpoint_name(id: CheckpointId) -> String {
    format!("#checkpoint{}", id.0)
}

/// The characters `agents` (as placeholder names), then `rest`: a modal operator's
/// arguments.
fn agent_args(agents: &[CharId], rest: Vec<ast::Expr>) -> Vec<ast::Expr> {
    let names = agents.iter().map(|&a| ast::Expr::name(&character_name(a)));
    names.chain(rest).collect()
}

impl Node {
    pub(super) fn lit(ast: ast::Expr) -> Node {
        Node {
            story: None,
            ast: Ok(ast),
        }
    }

    pub(super) fn of(story: u64, ast: ast::Expr) -> Node {
        Node {
            story: Some(story),
            ast: Ok(ast),
        }
    }

    pub(super) fn invalid(message: impl Into<String>) -> Node {
        Node::failed(super::Error::invalid(message))
    }

    /// The node of a handle that cannot be used: using it fails with `error`.
    pub(super) fn failed(error: super::Error) -> Node {
        Node {
            story: None,
            ast: Err(error),
        }
    }

    /// Combines nodes into one with `build`: the first mistake wins, and handles of two
    /// different stories are a mistake.
    pub(super) fn combine(
        nodes: Vec<Node>,
        extra: Option<u64>,
        build: impl FnOnce(Vec<ast::Expr>) -> ast::Expr,
    ) -> Node {
        let mut story = extra;
        let mut asts = Vec::with_capacity(nodes.len());
        for n in nodes {
            match (story, n.story) {
                (Some(a), Some(b)) if a != b => {
                    return Node::invalid("an expression mixes handles of two different stories");
                }
                (None, s) => story = s,
                _ => {}
            }
            match n.ast {
                Ok(e) => asts.push(e),
                Err(m) => return Node { story, ast: Err(m) },
            }
        }
        Node {
            story,
            ast: Ok(build(asts)),
        }
    }
}

/// The sealed trait of the expression types [`Int`], [`Formula`] and [`Enum`]: it
/// lets generic functions such as [`Formula::ite`] take any of them.
pub trait Expression: Typed {
    /// Why a statement using this expression will fail before it runs (a declaration
    /// lowering refused, a handle of another story, …), or None. The statement reports
    /// the same [`Error`](crate::story::Error); this lets a builder report it where
    /// the expression is made.
    fn refused(&self) -> Option<&crate::story::Error> {
        self.node().ast.as_ref().err()
    }

    /// The expression as the story language's AST, as `from_syntax` takes it (for a
    /// builder in another language: a [`Story::handle`](crate::story::Story::handle)'s
    /// constant is its name); None when it is [`Expression::refused`].
    fn syntax(&self) -> Option<&ast::Expr> {
        self.node().ast.as_ref().ok()
    }
}

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
pub struct Int(pub(super) Node);

/// A boolean expression: a `bool` constant, a comparison, a logical combination, or a
/// knowledge operator ([`Formula::knows`], [`Formula::knows_value`], [`Formula::believes`],
/// [`Formula::believes_value`], [`Formula::at`]).
///
/// Combine with methods ([`Formula::and`], [`Formula::or`], [`Formula::implies`],
/// [`Formula::iff`]) or operators: `a & b`, `a | b`, `!a`.
#[derive(Debug, Clone)]
pub struct Formula(pub(super) Node);

/// A value of an enum type declared with [`Story::enumeration`](crate::story::Story::enumeration): a constant of that
/// type ([`Story::enum_constant`](crate::story::Story::enum_constant)) or one of its variants ([`EnumType::value`]).
///
/// Compare with [`Enum::eq`], [`Enum::ne`] and [`Enum::is_in`], against other values of
/// the same enum or variant names: `cloe.eq("rose")`, `cloe.is_in(["rose", "violet"])`.
#[derive(Debug, Clone)]
pub struct Enum {
    pub(super) node: Node,
    pub(super) ty: EnumType,
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

fn unary(node: Node, op: ast::UnOp) -> Node {
    Node::combine(vec![node], None, |mut es| {
        ast::Expr::nowhere(ast::ExprKind::Unary {
            op,
            operand: Box::new(es.remove(0)),
        })
    })
}

pub(super) fn binary(a: Node, b: Node, op: ast::BinOp) -> Node {
    Node::combine(vec![a, b], None, |mut es| {
        let b = es.remove(1);
        ast::Expr::binary(op, es.remove(0), b)
    })
}

fn cmp(op: ast::BinOp, a: Node, b: Node) -> Formula {
    Formula(binary(a, b, op))
}

/// `(e1, …, en) in {rows}` (every row must have n values: lowering checks).
fn membership(tuple: Vec<Node>, rows: Vec<Vec<Node>>) -> Node {
    let arity = tuple.len();
    if arity == 0 {
        return Node::invalid("a membership test needs at least one expression");
    }
    let widths: Vec<usize> = rows.iter().map(Vec::len).collect();
    let all: Vec<Node> = tuple
        .into_iter()
        .chain(rows.into_iter().flatten())
        .collect();
    Node::combine(all, None, move |mut es| {
        let mut rest = es.split_off(arity).into_iter();
        let set = (widths.into_iter())
            .map(|w| ast::Expr::tuple(rest.by_ref().take(w).collect()))
            .collect();
        ast::Expr::nowhere(ast::ExprKind::In {
            element: Box::new(ast::Expr::tuple(es)),
            set,
            sample: None,
        })
    })
}

impl Int {
    fn arith(op: ast::BinOp, a: Int, b: Int) -> Int {
        Int(binary(a.0, b.0, op))
    }

    /// `self == other`.
    pub fn eq(&self, other: impl Into<Int>) -> Formula {
        cmp(ast::BinOp::Eq, self.0.clone(), other.into().0)
    }

    /// `self != other`.
    pub fn ne(&self, other: impl Into<Int>) -> Formula {
        cmp(ast::BinOp::Ne, self.0.clone(), other.into().0)
    }

    /// `self < other`.
    pub fn lt(&self, other: impl Into<Int>) -> Formula {
        cmp(ast::BinOp::Lt, self.0.clone(), other.into().0)
    }

    /// `self <= other`.
    pub fn le(&self, other: impl Into<Int>) -> Formula {
        cmp(ast::BinOp::Le, self.0.clone(), other.into().0)
    }

    /// `self > other`.
    pub fn gt(&self, other: impl Into<Int>) -> Formula {
        cmp(ast::BinOp::Gt, self.0.clone(), other.into().0)
    }

    /// `self >= other`.
    pub fn ge(&self, other: impl Into<Int>) -> Formula {
        cmp(ast::BinOp::Ge, self.0.clone(), other.into().0)
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

    /// `self in lo..hi`: `lo <= self and self < hi`, a range of any length (where
    /// [`Int::is_in`] lists the values).
    ///
    /// ```
    /// # let mut story = epipen::Story::new();
    /// let (age, n) = (story.int("age"), story.int("n"));
    /// let adult = age.in_range(18, 1_000_000_000);
    /// let below_n = age.in_range(0, &n);
    /// ```
    pub fn in_range(&self, lo: impl Into<Int>, hi: impl Into<Int>) -> Formula {
        let parts = vec![self.0.clone(), lo.into().0, hi.into().0];
        Formula(Node::combine(parts, None, |mut es| {
            let element = Box::new(es.remove(0));
            let lo = Box::new(es.remove(0));
            let hi = Box::new(es.remove(0));
            ast::Expr::nowhere(ast::ExprKind::InRange { element, lo, hi })
        }))
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
        Int(Node::lit(ast::Expr::int(n)))
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
                Int::arith(ast::BinOp::$op, self, rhs.into())
            }
        }
        impl<R: Into<Int>> ops::$trait<R> for &Int {
            type Output = Int;
            fn $method(self, rhs: R) -> Int {
                Int::arith(ast::BinOp::$op, self.clone(), rhs.into())
            }
        }
        int_ops!(@lhs $trait $method $op: i64, i32);
    )*};
    (@lhs $trait:ident $method:ident $op:ident: $($t:ty),*) => {$(
        impl ops::$trait<Int> for $t {
            type Output = Int;
            fn $method(self, rhs: Int) -> Int {
                Int::arith(ast::BinOp::$op, Int::from(self), rhs)
            }
        }
        impl ops::$trait<&Int> for $t {
            type Output = Int;
            fn $method(self, rhs: &Int) -> Int {
                Int::arith(ast::BinOp::$op, Int::from(self), rhs.clone())
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
        Int(unary(self.0, ast::UnOp::Neg))
    }
}

impl ops::Neg for &Int {
    type Output = Int;
    fn neg(self) -> Int {
        -self.clone()
    }
}

impl Formula {
    fn logic(op: ast::BinOp, a: Formula, b: Formula) -> Formula {
        Formula(binary(a.0, b.0, op))
    }

    /// `self and other` (also `self & other`).
    pub fn and(self, other: impl Into<Formula>) -> Formula {
        Formula::logic(ast::BinOp::And, self, other.into())
    }

    /// `self or other` (also `self | other`).
    pub fn or(self, other: impl Into<Formula>) -> Formula {
        Formula::logic(ast::BinOp::Or, self, other.into())
    }

    /// `self -> other`.
    pub fn implies(self, other: impl Into<Formula>) -> Formula {
        Formula::logic(ast::BinOp::Implies, self, other.into())
    }

    /// `self <-> other`.
    pub fn iff(self, other: impl Into<Formula>) -> Formula {
        Formula::logic(ast::BinOp::Iff, self, other.into())
    }

    /// `self == other`, for two formulas (the same as [`Formula::iff`]).
    pub fn eq(&self, other: impl Into<Formula>) -> Formula {
        cmp(ast::BinOp::Eq, self.0.clone(), other.into().0)
    }

    /// `self != other`, for two formulas.
    pub fn ne(&self, other: impl Into<Formula>) -> Formula {
        cmp(ast::BinOp::Ne, self.0.clone(), other.into().0)
    }

    /// `not f` (also `!f`).
    pub fn not(f: impl Into<Formula>) -> Formula {
        Formula(unary(f.into().0, ast::UnOp::Not))
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
                let otherwise = Box::new(es.remove(2));
                let then = Box::new(es.remove(1));
                let cond = Box::new(es.remove(0));
                ast::Expr::nowhere(ast::ExprKind::Ite {
                    cond,
                    then,
                    otherwise,
                })
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
    /// rows. A row of the wrong length is an [`Error::Invalid`](crate::story::Error::Invalid) when used.
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
            |es| ast::Expr::call("knows", agent_args(&[who.id], es)),
        ))
    }

    /// `knows_value(A, e1, …, en)`: `who` knows the value of the tuple. `values` is one
    /// expression (`&month`) or several (`(&month, &day)`, `[&x, &y]`, a `Vec`).
    pub fn knows_value(who: Character, values: impl Values) -> Formula {
        let nodes = values.into_nodes();
        if nodes.is_empty() {
            return Formula(Node::invalid("`knows_value` needs at least one expression"));
        }
        Formula(Node::combine(nodes, Some(who.story), |es| {
            ast::Expr::call("knows_value", agent_args(&[who.id], es))
        }))
    }

    /// `knows_whether(A, φ)`: `who` knows whether φ holds (`knows_value` of a formula:
    /// K_A φ ∨ K_A ¬φ).
    pub fn knows_whether(who: Character, formula: impl Into<Formula>) -> Formula {
        Formula::knows_value(who, formula.into())
    }

    /// `believes(A, φ)`: φ holds in every world `who` finds most plausible among those it
    /// cannot tell from this one (docs/language.md, "Belief"). Belief can be wrong, where
    /// knowledge cannot; worlds become more plausible by [`Story::expects`] and by an
    /// event's [`EventBlock::expects`] lines.
    ///
    /// [`Story::expects`]: crate::story::Story::expects
    /// [`EventBlock::expects`]: crate::story::EventBlock::expects
    pub fn believes(who: Character, formula: impl Into<Formula>) -> Formula {
        Formula(Node::combine(
            vec![formula.into().0],
            Some(who.story),
            |es| ast::Expr::call("believes", agent_args(&[who.id], es)),
        ))
    }

    /// `believes_value(A, e1, …, en)`: the worlds `who` finds most plausible among those
    /// it cannot tell from this one agree on the tuple. `values` as in
    /// [`Formula::knows_value`].
    pub fn believes_value(who: Character, values: impl Values) -> Formula {
        let nodes = values.into_nodes();
        if nodes.is_empty() {
            return Formula(Node::invalid(
                "`believes_value` needs at least one expression",
            ));
        }
        Formula(Node::combine(nodes, Some(who.story), |es| {
            ast::Expr::call("believes_value", agent_args(&[who.id], es))
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
        let mut ids: Vec<CharId> = group.iter().map(|c| c.id).collect();
        ids.sort();
        ids.dedup();
        Formula(Node::combine(vec![formula.0], Some(first.story), |es| {
            ast::Expr::call(op.name(), agent_args(&ids, es))
        }))
    }

    /// `at(c, φ)`: φ with its knowledge operators evaluated in the state saved at
    /// checkpoint `c`.
    pub fn at(checkpoint: Checkpoint, formula: impl Into<Formula>) -> Formula {
        Formula(Node::combine(
            vec![formula.into().0],
            Some(checkpoint.story),
            |mut es| {
                let at = ast::Expr::name(&checkpoint_name(checkpoint.id));
                ast::Expr::call("at", vec![at, es.remove(0)])
            },
        ))
    }
}

impl From<bool> for Formula {
    fn from(b: bool) -> Formula {
        Formula(Node::lit(ast::Expr::nowhere(ast::ExprKind::Bool(b))))
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
    fn into_enum_node(self, _: &EnumType) -> Node {
        self.node
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
        cmp(
            ast::BinOp::Eq,
            self.node.clone(),
            other.into_enum_node(&self.ty),
        )
    }

    /// `self != other`.
    pub fn ne(&self, other: impl EnumOperand) -> Formula {
        cmp(
            ast::BinOp::Ne,
            self.node.clone(),
            other.into_enum_node(&self.ty),
        )
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
/// [`Story::learns`](crate::story::Story::learns): one expression (`&x`, `x`), a tuple of them (`(&x, &y)`, up to
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
