//! The fuzzer's stories as a structured AST, and proptest strategies that generate them.
//!
//! A story is declarations (characters, a family of characters, consts `n` and `k`,
//! bounded ints, bools, an enum and its constants, families of each kind sized `n`),
//! statements before the actual world, the actual world itself, statements after it,
//! `--set` values and a `--seed`. Every reference in the AST (a constant, an agent, a
//! checkpoint, a loop variable) is an index that [`crate::print`] resolves against what
//! is declared and in scope where it is printed, so every value proptest generates, and
//! every value it shrinks to, prints as a valid story.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

mod belief;
mod chance;
mod event;
mod forgetful;
mod plan;

pub use chance::{Chance, ProbCmp, RatE, ShowE};
pub use event::{ActualLine, Case, CaseLine, Event, FamilySees, Partition};
pub use forgetful::forgetful_story;
pub use plan::{Action, DoItem, Goal, Plan};

/// Everything declared before the first statement.
#[derive(Debug, Clone)]
pub struct Decls {
    /// Characters `A`, `B`, `C` (1 to 3 of them).
    pub chars: u8,
    /// `characters P[n]` too.
    pub char_family: bool,
    /// `const n = …`: the size of every family (0 to 3).
    pub n: i64,
    /// `const k = …`: a value used in expressions, ranges and conditions.
    pub k: i64,
    /// `int x0, x1`, each bounded by the first announcements.
    pub ints: Vec<IntBound>,
    /// `bool p0, p1, …`
    pub bools: u8,
    /// `enum Colour { red, green, blue }` with this many variants (0: no enum).
    pub colours: u8,
    /// `Colour c0, c1` (when there is an enum).
    pub enum_consts: u8,
    /// `bool b[n]`
    pub fam_bool: bool,
    /// `int a[n]`, every member bounded alike.
    pub fam_int: Option<IntBound>,
    /// `Colour h[n]` (when there is an enum).
    pub fam_enum: bool,
    /// How the bounds are written (a set, comparisons, one announcement or several, a
    /// loop or an `all` over the family).
    pub bound_style: u8,
    /// A knowledge-free announcement among the first ones (part of the bounding
    /// prefix the explicit backend lists worlds from).
    pub extra: Option<BoolE>,
}

/// An int constant's values: `lo..=lo + width`.
#[derive(Debug, Clone, Copy)]
pub struct IntBound {
    pub lo: i64,
    pub width: u8,
}

impl IntBound {
    pub fn hi(self) -> i64 {
        self.lo.saturating_add(i64::from(self.width))
    }
}

/// A story: declarations, what happens before the actual world is declared, the actual
/// world (which of the worlds the evaluator leaves there), what happens after.
#[derive(Debug, Clone)]
pub struct Story {
    pub decls: Decls,
    pub pre: Vec<Stmt>,
    pub actual: Option<u32>,
    pub post: Vec<Stmt>,
    /// Before the actual world, an announcement that would leave no world is printed
    /// negated (most stories: so that they do not all end with no world).
    pub steer: bool,
    /// `--set n=…`
    pub set_n: Option<i64>,
    /// `--set k=…`
    pub set_k: Option<i64>,
    /// `--seed` (for `sample`).
    pub seed: u64,
    /// Print the `:=` of a `simultaneously` block or of a hint's block (a story error
    /// every backend shares, at the `:=`); otherwise they are left out.
    pub refuse: bool,
    /// A probabilistic story (issue 29): its prior, and its probabilities, weights and
    /// `show`s of probabilities printed (otherwise left out or printed as a formula).
    pub chance: Option<Chance>,
}

#[derive(Debug, Clone)]
pub enum Stmt {
    Worlds(u8),
    Checkpoint,
    Announce(BoolE),
    Says(u8, BoolE),
    Learns(u8, Term),
    Reveals(u8, BoolE),
    For(Range, Vec<Stmt>),
    If(CtCond, Vec<Stmt>, Option<Vec<Stmt>>),
    Simultaneously(Vec<Stmt>),
    Repeat(u8, Vec<Stmt>, BoolE),
    Assert(Hint, Vec<Stmt>),
    /// `actual` inside a `repeat` (declared again each round), when none came before:
    /// which of the worlds the evaluator leaves there.
    Actual(u32),
    /// `check φ`.
    Check(Check),
    /// `x := e` / `b[i] := e`: a constant of the value's type (by index), and its new
    /// value.
    Assign(u8, Term),
    /// `x, y := e, f`: constants of the values' types (by index; one named twice is
    /// changed once).
    AssignMany(Vec<(u8, Term)>),
    /// `x, y := y, x` (or `x, y, z := y, z, x` when the count is 3): constants of one type
    /// (0 int, 1 bool, 2 colour), from the one at this index on.
    Swap(u8, u8, u8),
    /// `event e { … }`.
    Event(Box<Event>),
    /// `A learns φ`, φ with knowledge operators: whether it holds now.
    LearnsWhether(u8, BoolE),
    /// `A expects φ` (issue 20): soft information, a radical upgrade.
    Expects(u8, BoolE),
    /// `where φ` (issue 27): the worlds possible here where φ holds; with `true`, φ is
    /// written as a definition `def wN = φ` first (at the top level) and used by name.
    Where(BoolE, bool),
    /// `def dN(v) = (φ) == v` (at the top level), then `announce dN(true)` (steered as an
    /// announcement): a definition with a parameter, expanded where it is used.
    Defined(BoolE),
    /// `simultaneously { … }` of changes (issue 27): `x, y := e, f` written one per line,
    /// the first inside a one-round `for`, and (by the second value) a `for` over the
    /// family `b[n]` that negates every member.
    SimChanges(Vec<(u8, Term)>, u8),
    /// `show e` (issue 29).
    Show(ShowE),
    /// `action NAME [by A] [if φ] { … }` (issue 41).
    Action(Box<Action>),
    /// `do a, b: CASE` (issue 41).
    Do(Vec<DoItem>),
    /// `plan [all] φ [max D] [keeping ψ] [coordinated]` (issue 41).
    Plan(Box<Plan>),
}

/// What a `check` says.
#[derive(Debug, Clone)]
pub enum Check {
    /// `check φ`; steered (true): printed negated when φ fails where its negation holds.
    Plain(bool, BoolE),
    /// A law of the logic instantiated with a character (by index), the other members of
    /// a group that has it, and φ: it holds in every world.
    Law(u8, u8, Vec<u8>, BoolE),
    /// The worlds possible here as a set of tuples of their values now: holds.
    Kept,
    /// `check actual φ`: steered as `Plain` when the mode is below 7; with no actual world
    /// yet, a story error when the mode is 9, else printed as `check φ`.
    Actual(u8, BoolE),
    /// A law of knowledge and belief (plausibility models) instantiated with a character
    /// (by index) and φ: it holds in every world.
    BeliefLaw(u8, u8, BoolE),
}

/// The group operators: the IR's (`name` is how stories write them).
pub use epipen::ir::GroupOp;

/// The hint of an `assert_adds_ck`.
#[derive(Debug, Clone)]
pub enum Hint {
    /// Exactly the worlds the block keeps (the evaluator says which), as a set of tuples:
    /// right.
    Exact,
    /// What the block's first announcement says (`φ`, or `knows(A, φ)` for `A: φ`):
    /// right when the block is that announcement alone.
    First,
    /// The exact hint with one world of those before the block added or taken out:
    /// wrong.
    Flip(u32),
    /// Any formula: wrong, or right by chance.
    Any(BoolE),
}

/// `lo..hi` of a loop or an aggregate, or a list of values `{2, 0, 3}`.
#[derive(Debug, Clone)]
pub struct Range {
    pub lo: RBound,
    pub hi: RBound,
    /// When set, the range is written as this list of distinct values (in this order)
    /// instead of `lo..hi`.
    pub list: Option<Vec<i8>>,
}

#[derive(Debug, Clone, Copy)]
pub enum RBound {
    Lit(i8),
    N,
    NMinus1,
    K,
    /// The innermost variable in scope, plus this.
    Var(i8),
}

/// A compile-time condition: `lhs op rhs`.
#[derive(Debug, Clone)]
pub struct CtCond {
    pub lhs: RBound,
    pub op: CmpOp,
    pub rhs: RBound,
}

#[derive(Debug, Clone, Copy)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, Copy)]
pub enum ArOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Debug, Clone, Copy)]
pub enum LOp {
    And,
    Or,
    Implies,
    Iff,
}

#[derive(Debug, Clone)]
pub enum IntE {
    Lit(i64),
    /// An int constant in scope (a scalar or a family member).
    Var(u8),
    N,
    K,
    /// A loop or aggregate variable in scope.
    LoopVar(u8),
    Neg(Box<IntE>),
    Bin(ArOp, Box<IntE>, Box<IntE>),
    Ite(Box<BoolE>, Box<IntE>, Box<IntE>),
    Abs(Box<IntE>),
    /// `min(…)` (false) or `max(…)` (true) of 1 to 3 values.
    MinMax(bool, Vec<IntE>),
    Sum(Range, Box<IntE>),
    Count(Range, Box<BoolE>),
}

#[derive(Debug, Clone)]
pub enum EnumE {
    Lit(u8),
    Var(u8),
    Ite(Box<BoolE>, Box<EnumE>, Box<EnumE>),
}

#[derive(Debug, Clone)]
pub enum BoolE {
    Lit(bool),
    Var(u8),
    Not(Box<BoolE>),
    Logic(LOp, Box<BoolE>, Box<BoolE>),
    Cmp(CmpOp, IntE, IntE),
    /// `a == b` (true) or `a != b` on bools.
    BoolEq(bool, Box<BoolE>, Box<BoolE>),
    EnumEq(bool, EnumE, EnumE),
    In(IntE, Vec<i64>),
    /// `e in lo..hi`.
    InRange(IntE, IntE, IntE),
    InEnum(EnumE, Vec<u8>),
    /// `e in sample(k, {…})`.
    Sample(IntE, u8, Vec<i64>),
    Ite(Box<BoolE>, Box<BoolE>, Box<BoolE>),
    /// `all` (true) or `any` over one or two ranges, with a guard `i != j` when two.
    Quant(bool, Vec<Range>, bool, Box<BoolE>),
    Distinct(Vec<IntE>),
    DistinctOver(Range, IntE),
    /// `knows(agent, φ)`; no agent: the speaker's (or the first character's).
    Knows(Option<u8>, Box<BoolE>),
    KnowsValue(Option<u8>, Vec<Term>),
    /// `believes(agent, φ)` (issue 20); no agent as for `knows`.
    Believes(Option<u8>, Box<BoolE>),
    BelievesValue(Option<u8>, Vec<Term>),
    At(u8, Box<BoolE>),
    /// `everyone_knows`, `common_knowledge`, `distributed_knowledge`: over every
    /// character (None), or over the group listed first (members by index among the
    /// characters, family members in scope and the family `P` named whole).
    Group(GroupOp, Option<Vec<u8>>, Box<BoolE>),
    /// An event that happened (by index among those printed) compared with its cases
    /// (by index): `e == s` (form 0), `e != s` (1), `e in {…}` (2), `s == e` (3).
    EventIs(u8, u8, Vec<u8>),
    /// `[! φ] ψ`, `[?! φ] ψ`, `<! φ> ψ`, … (issue 30): to every character (None) or to
    /// the group listed (as for group knowledge).
    Announced {
        group: Option<Vec<u8>>,
        whether: bool,
        diamond: bool,
        formula: Box<BoolE>,
        body: Box<BoolE>,
    },
    /// `forall p: φ` (true) or `exists p, q: φ` over bool constants (by index).
    BoolQuant(bool, Vec<u8>, Box<BoolE>),
    /// A comparison with probabilities (issue 29), in exact arithmetic.
    Prob(Box<ProbCmp>),
}

#[derive(Debug, Clone)]
pub enum Term {
    Int(IntE),
    Bool(BoolE),
    Enum(EnumE),
    /// The name of an event that happened (by index): the case of its latest execution.
    Event(u8),
}

// ---------------------------------------------------------------------------------
// Strategies.

fn cmp_op() -> impl Strategy<Value = CmpOp> {
    prop_oneof![
        Just(CmpOp::Eq),
        Just(CmpOp::Ne),
        Just(CmpOp::Lt),
        Just(CmpOp::Le),
        Just(CmpOp::Gt),
        Just(CmpOp::Ge),
    ]
}

fn ar_op() -> impl Strategy<Value = ArOp> {
    prop_oneof![
        3 => Just(ArOp::Add),
        2 => Just(ArOp::Sub),
        2 => Just(ArOp::Mul),
        1 => Just(ArOp::Div),
        1 => Just(ArOp::Mod),
    ]
}

fn l_op() -> impl Strategy<Value = LOp> {
    prop_oneof![
        3 => Just(LOp::And),
        2 => Just(LOp::Or),
        1 => Just(LOp::Implies),
        1 => Just(LOp::Iff),
    ]
}

/// Small values, and now and then one beyond ±10^7 or at the 64-bit edge.
pub fn literal() -> impl Strategy<Value = i64> {
    prop_oneof![
        12 => -3i64..=5,
        1 => big(),
    ]
}

fn big() -> impl Strategy<Value = i64> {
    prop_oneof![
        Just(10_000_000),
        Just(-10_000_001),
        Just(1_000_000_000_000),
        Just(-4_294_967_296),
        Just(i64::MAX),
        Just(i64::MIN),
        Just(i64::MAX - 2),
        Just(i64::MIN + 1),
        Just(3_037_000_500),
    ]
}

fn int_bound() -> impl Strategy<Value = IntBound> {
    let lo = prop_oneof![
        8 => -3i64..=3,
        1 => Just(10_000_000i64),
        1 => Just(-10_000_003i64),
        1 => Just(1_000_000_000_000i64),
        1 => Just(i64::MAX - 3),
        1 => Just(i64::MIN),
        1 => Just(3_037_000_498),
    ];
    (lo, 0u8..=4).prop_map(|(lo, width)| IntBound { lo, width })
}

fn rbound() -> impl Strategy<Value = RBound> {
    prop_oneof![
        3 => (0i8..=3).prop_map(RBound::Lit),
        3 => Just(RBound::N),
        1 => Just(RBound::NMinus1),
        1 => Just(RBound::K),
        1 => (0i8..=1).prop_map(RBound::Var),
        1 => Just(RBound::Lit(-1)),
    ]
}

fn range() -> impl Strategy<Value = Range> {
    let lo = prop_oneof![
        4 => Just(RBound::Lit(0)),
        1 => Just(RBound::Lit(1)),
        1 => (0i8..=1).prop_map(RBound::Var),
        1 => Just(RBound::K),
        1 => Just(RBound::N),
    ];
    let list = proptest::sample::subsequence(vec![-1i8, 0, 1, 2, 3], 1..=3).prop_shuffle();
    prop_oneof![
        5 => (lo, rbound()).prop_map(|(lo, hi)| Range { lo, hi, list: None }),
        1 => list.prop_map(|list| Range {
            lo: RBound::Lit(0),
            hi: RBound::Lit(0),
            list: Some(list),
        }),
    ]
}

fn ct_cond() -> impl Strategy<Value = CtCond> {
    (rbound(), cmp_op(), rbound()).prop_map(|(lhs, op, rhs)| CtCond { lhs, op, rhs })
}

fn int_leaf() -> impl Strategy<Value = IntE> {
    prop_oneof![
        8 => (0u8..6).prop_map(IntE::Var),
        3 => literal().prop_map(IntE::Lit),
        1 => Just(IntE::N),
        1 => Just(IntE::K),
        2 => (0u8..2).prop_map(IntE::LoopVar),
    ]
}

fn enum_leaf() -> impl Strategy<Value = EnumE> {
    prop_oneof![
        2 => (0u8..4).prop_map(EnumE::Var),
        1 => (0u8..3).prop_map(EnumE::Lit),
    ]
}

fn enum_expr() -> impl Strategy<Value = EnumE> {
    enum_leaf().prop_recursive(1, 3, 2, |inner| {
        (simple_bool(), inner.clone(), inner)
            .prop_map(|(c, a, b)| EnumE::Ite(Box::new(c), Box::new(a), Box::new(b)))
    })
}

/// Booleans without recursion through ints: leaves and comparisons of leaves.
fn simple_bool() -> impl Strategy<Value = BoolE> {
    prop_oneof![
        3 => (0u8..6).prop_map(BoolE::Var),
        1 => any::<bool>().prop_map(BoolE::Lit),
        3 => (cmp_op(), int_leaf(), int_leaf()).prop_map(|(op, a, b)| BoolE::Cmp(op, a, b)),
        1 => (any::<bool>(), enum_leaf(), enum_leaf()).prop_map(|(eq, a, b)| BoolE::EnumEq(eq, a, b)),
    ]
}

pub fn int_expr() -> BoxedStrategy<IntE> {
    int_leaf()
        .prop_recursive(2, 5, 2, |inner| {
            prop_oneof![
                4 => (ar_op(), inner.clone(), inner.clone())
                    .prop_map(|(op, a, b)| IntE::Bin(op, Box::new(a), Box::new(b))),
                // Divisions by constants (issue 32): `e / k` and `e % k`, k in 2..=64.
                2 => (prop_oneof![Just(ArOp::Div), Just(ArOp::Mod)], inner.clone(), 2i64..=64)
                    .prop_map(|(op, a, k)| IntE::Bin(op, Box::new(a), Box::new(IntE::Lit(k)))),
                1 => inner.clone().prop_map(|a| IntE::Neg(Box::new(a))),
                1 => (simple_bool(), inner.clone(), inner.clone())
                    .prop_map(|(c, a, b)| IntE::Ite(Box::new(c), Box::new(a), Box::new(b))),
                1 => inner.clone().prop_map(|a| IntE::Abs(Box::new(a))),
                1 => (any::<bool>(), vec(inner.clone(), 1..=3)).prop_map(|(max, v)| IntE::MinMax(max, v)),
                1 => (range(), inner).prop_map(|(r, e)| IntE::Sum(r, Box::new(e))),
                1 => (range(), simple_bool()).prop_map(|(r, e)| IntE::Count(r, Box::new(e))),
            ]
        })
        .boxed()
}

/// A value of any type (an event's name too, the case of its latest execution).
fn term(knowledge_free_bool: BoxedStrategy<BoolE>) -> impl Strategy<Value = Term> {
    prop_oneof![
        6 => value(knowledge_free_bool),
        1 => any::<u8>().prop_map(Term::Event),
    ]
}

/// A value of a constant's type: an int, a bool or a colour.
fn value(knowledge_free_bool: BoxedStrategy<BoolE>) -> impl Strategy<Value = Term> {
    prop_oneof![
        3 => int_expr().prop_map(Term::Int),
        2 => knowledge_free_bool.prop_map(Term::Bool),
        1 => enum_expr().prop_map(Term::Enum),
    ]
}

/// A sum of bools (issue 21): `count(…)`, `if φ then w else v` with literal weights,
/// `sum(… : if φ then w else 0)`, and sums, differences and literal multiples of them;
/// `body` gives the φs.
fn bool_sum(body: BoxedStrategy<BoolE>) -> BoxedStrategy<IntE> {
    let weighted = |b: BoolE, w: i64, v: i64| {
        IntE::Ite(Box::new(b), Box::new(IntE::Lit(w)), Box::new(IntE::Lit(v)))
    };
    let leaf = prop_oneof![
        3 => (range(), body.clone()).prop_map(|(r, b)| IntE::Count(r, Box::new(b))),
        2 => (body.clone(), -3i64..=3, -2i64..=2).prop_map(move |(b, w, v)| weighted(b, w, v)),
        1 => (range(), body, 0i64..=3)
            .prop_map(move |(r, b, w)| IntE::Sum(r, Box::new(weighted(b, w, 0)))),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            3 => (inner.clone(), inner.clone())
                .prop_map(|(a, b)| IntE::Bin(ArOp::Add, Box::new(a), Box::new(b))),
            1 => (inner.clone(), inner.clone())
                .prop_map(|(a, b)| IntE::Bin(ArOp::Sub, Box::new(a), Box::new(b))),
            1 => (-2i64..=3, inner)
                .prop_map(|(k, e)| IntE::Bin(ArOp::Mul, Box::new(IntE::Lit(k)), Box::new(e))),
        ]
    })
    .boxed()
}

/// A comparison of a sum of bools with a small value, `k` or another such sum (a
/// count law, a minesweeper click, "more said yes than no").
fn bool_sum_cmp(body: BoxedStrategy<BoolE>) -> impl Strategy<Value = BoolE> {
    let other = prop_oneof![
        2 => (-1i64..=4).prop_map(IntE::Lit),
        1 => Just(IntE::K),
        2 => bool_sum(body.clone()),
    ];
    (cmp_op(), bool_sum(body), other).prop_map(|(op, a, b)| BoolE::Cmp(op, a, b))
}

fn bool_leaf() -> impl Strategy<Value = BoolE> {
    prop_oneof![
        2 => bool_sum_cmp(simple_bool().boxed()),
        4 => (0u8..6).prop_map(BoolE::Var),
        1 => any::<bool>().prop_map(BoolE::Lit),
        5 => (cmp_op(), int_expr(), int_expr()).prop_map(|(op, a, b)| BoolE::Cmp(op, a, b)),
        2 => (any::<bool>(), enum_expr(), enum_expr()).prop_map(|(eq, a, b)| BoolE::EnumEq(eq, a, b)),
        1 => prop_oneof![
            (int_expr(), vec(literal(), 0..4)).prop_map(|(e, set)| BoolE::In(e, set)),
            (int_expr(), int_expr(), int_expr()).prop_map(|(e, lo, hi)| BoolE::InRange(e, lo, hi)),
        ],
        1 => (enum_expr(), vec(0u8..3, 0..3)).prop_map(|(e, set)| BoolE::InEnum(e, set)),
        1 => (int_expr(), 0u8..4, vec(-3i64..=5, 0..5)).prop_map(|(e, k, set)| BoolE::Sample(e, k, set)),
        1 => vec(int_expr(), 0..4).prop_map(BoolE::Distinct),
        1 => (range(), int_expr()).prop_map(|(r, e)| BoolE::DistinctOver(r, e)),
        1 => event::event_is(),
    ]
}

/// Knowledge-free formulas (what characters learn, what `actual` and the first
/// announcements say).
pub fn plain_bool() -> BoxedStrategy<BoolE> {
    bool_leaf()
        .prop_recursive(2, 5, 2, |inner| {
            prop_oneof![
                2 => inner.clone().prop_map(|a| BoolE::Not(Box::new(a))),
                4 => (l_op(), inner.clone(), inner.clone())
                    .prop_map(|(op, a, b)| BoolE::Logic(op, Box::new(a), Box::new(b))),
                1 => (any::<bool>(), inner.clone(), inner.clone())
                    .prop_map(|(eq, a, b)| BoolE::BoolEq(eq, Box::new(a), Box::new(b))),
                1 => (inner.clone(), inner.clone(), inner.clone())
                    .prop_map(|(c, a, b)| BoolE::Ite(Box::new(c), Box::new(a), Box::new(b))),
                2 => (any::<bool>(), vec(range(), 1..=2), any::<bool>(), inner)
                    .prop_map(|(all, r, guard, body)| BoolE::Quant(all, r, guard, Box::new(body))),
            ]
        })
        .boxed()
}

fn agent() -> impl Strategy<Value = Option<u8>> {
    option::weighted(0.6, 0u8..5)
}

fn group_op() -> impl Strategy<Value = GroupOp> {
    prop_oneof![
        Just(GroupOp::Everyone),
        Just(GroupOp::Common),
        Just(GroupOp::Distributed),
    ]
}

fn group() -> impl Strategy<Value = Option<Vec<u8>>> {
    option::weighted(0.6, vec(0u8..8, 1..=3))
}

/// Formulas with knowledge operators.
pub fn epistemic_bool() -> BoxedStrategy<BoolE> {
    let atom = prop_oneof![
        2 => bool_leaf(),
        3 => (agent(), plain_bool()).prop_map(|(a, f)| BoolE::Knows(a, Box::new(f))),
        4 => (agent(), vec(term(plain_bool()), 1..=2)).prop_map(|(a, t)| BoolE::KnowsValue(a, t)),
        2 => (group_op(), group(), plain_bool()).prop_map(|(op, g, f)| BoolE::Group(op, g, Box::new(f))),
        // How many know: counts and sums of knowledge (muddy children's "all stepped
        // forward" as a count, the BDD backend's sums of knowledge formulas).
        1 => bool_sum_cmp(prop_oneof![
            2 => (agent(), plain_bool()).prop_map(|(a, f)| BoolE::Knows(a, Box::new(f))),
            2 => (agent(), vec(term(plain_bool()), 1..=1)).prop_map(|(a, t)| BoolE::KnowsValue(a, t)),
            1 => simple_bool(),
        ].boxed()),
        1 => event::event_at(),
        6 => belief::believes(plain_bool()),
        3 => belief::believes_value(),
        3 => chance::prob_cmp(plain_bool()),
    ];
    atom.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            3 => inner.clone().prop_map(|a| BoolE::Not(Box::new(a))),
            4 => (l_op(), inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| BoolE::Logic(op, Box::new(a), Box::new(b))),
            2 => (agent(), inner.clone()).prop_map(|(a, f)| BoolE::Knows(a, Box::new(f))),
            2 => belief::believes(inner.clone()),
            2 => (0u8..3, inner.clone()).prop_map(|(c, f)| BoolE::At(c, Box::new(f))),
            1 => (group_op(), group(), inner.clone())
                .prop_map(|(op, g, f)| BoolE::Group(op, g, Box::new(f))),
            1 => chance::prob_cmp(inner.clone()),
            1 => (any::<bool>(), vec(range(), 1..=2), any::<bool>(), inner.clone())
                .prop_map(|(all, r, guard, body)| BoolE::Quant(all, r, guard, Box::new(body))),
            1 => (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| BoolE::Ite(Box::new(c), Box::new(a), Box::new(b))),
            2 => (option::weighted(0.5, vec(0u8..8, 1..=2)), any::<bool>(), any::<bool>(), inner.clone(), inner.clone())
                .prop_map(|(group, whether, diamond, f, b)| BoolE::Announced {
                    group,
                    whether,
                    diamond,
                    formula: Box::new(f),
                    body: Box::new(b),
                }),
            1 => (any::<bool>(), vec(0u8..4, 1..=2), inner)
                .prop_map(|(all, vars, body)| BoolE::BoolQuant(all, vars, Box::new(body))),
        ]
    })
    .boxed()
}

/// What a speaker can always reveal: its own knowledge (the speaker is left implicit),
/// now or at a checkpoint, and combinations of it; now and then anything (which the
/// speaker may not know: a story error).
fn revealable() -> BoxedStrategy<BoolE> {
    let own = prop_oneof![
        2 => plain_bool().prop_map(|f| BoolE::Knows(None, Box::new(f))),
        3 => vec(term(plain_bool()), 1..=2).prop_map(|t| BoolE::KnowsValue(None, t)),
        1 => (group_op(), group(), plain_bool()).prop_map(|(op, g, f)| {
            BoolE::Knows(None, Box::new(BoolE::Group(op, g, Box::new(f))))
        }),
        2 => belief::own_belief(),
        1 => chance::own_prob(),
    ];
    let own = own.prop_recursive(1, 3, 2, |inner| {
        prop_oneof![
            2 => inner.clone().prop_map(|a| BoolE::Not(Box::new(a))),
            2 => (l_op(), inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| BoolE::Logic(op, Box::new(a), Box::new(b))),
            1 => (0u8..3, inner).prop_map(|(c, f)| BoolE::At(c, Box::new(f))),
        ]
    });
    prop_oneof![
        12 => own,
        1 => epistemic_bool(),
    ]
    .boxed()
}

fn learnable() -> impl Strategy<Value = Term> {
    term(plain_bool())
}

/// What `:=` and an event's changes give a constant.
fn new_value() -> impl Strategy<Value = Term> {
    value(plain_bool())
}

/// Where a statement goes: before the actual world (no reveals, no `repeat`), or after.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Pre,
    Post,
}

/// A statement of `part`, with blocks nested at most `depth` deep.
fn stmt(part: Part, depth: u32) -> BoxedStrategy<Stmt> {
    let simple = prop_oneof![
        1 => (0u8..4).prop_map(Stmt::Worlds),
        2 => Just(Stmt::Checkpoint),
        4 => epistemic_bool().prop_map(Stmt::Announce),
        6 => (0u8..5, epistemic_bool()).prop_map(|(a, f)| Stmt::Says(a, f)),
        4 => (0u8..5, learnable()).prop_map(|(a, t)| Stmt::Learns(a, t)),
        2 => plain_bool().prop_map(Stmt::Announce),
        2 => check().prop_map(Stmt::Check),
        3 => assign(),
        4 => event::event(),
        2 => event::learns_whether(),
        1 => event::assign_many(),
        1 => event::check_actual(),
        3 => belief::expects(),
        2 => (epistemic_bool(), any::<bool>()).prop_map(|(f, d)| Stmt::Where(f, d)),
        1 => epistemic_bool().prop_map(Stmt::Defined),
        1 => (vec((0u8..8, new_value()), 0..=2), any::<u8>())
            .prop_map(|(c, flip)| Stmt::SimChanges(c, flip)),
        1 => chance::show(),
        1 => plan::action(),
        1 => plan::use_of_actions(),
    ];
    let simple = if part == Part::Post {
        prop_oneof![4 => simple, 3 => (0u8..5, revealable()).prop_map(|(a, f)| Stmt::Reveals(a, f))]
            .boxed()
    } else {
        simple.boxed()
    };
    if depth == 0 {
        return simple;
    }
    let inner = stmt(part, depth - 1);
    let block = vec(inner.clone(), 0..3);
    let sim = vec(sim_item(part), 0..3).prop_map(Stmt::Simultaneously);
    let mut blocks = vec![
        (8, simple),
        (
            2,
            (range(), block.clone())
                .prop_map(|(r, b)| Stmt::For(r, b))
                .boxed(),
        ),
        (
            1,
            (ct_cond(), block.clone(), option::of(block.clone()))
                .prop_map(|(c, t, e)| Stmt::If(c, t, e))
                .boxed(),
        ),
        (2, sim.boxed()),
        (
            1,
            (hint(), vec(inner, 1..3))
                .prop_map(|(h, b)| Stmt::Assert(h, b))
                .boxed(),
        ),
    ];
    if part == Part::Post {
        blocks.push((2, repeat(false).boxed()));
    } else {
        blocks.push((1, repeat(true).boxed()));
    }
    proptest::strategy::Union::new_weighted(blocks).boxed()
}

/// What `simultaneously` holds: announcements, sometimes under `for` or `if`.
fn sim_item(part: Part) -> BoxedStrategy<Stmt> {
    let mut items = vec![
        (2, epistemic_bool().prop_map(Stmt::Announce).boxed()),
        (
            3,
            (0u8..5, epistemic_bool())
                .prop_map(|(a, f)| Stmt::Says(a, f))
                .boxed(),
        ),
    ];
    if part == Part::Post {
        items.push((
            5,
            (0u8..5, revealable())
                .prop_map(|(a, f)| Stmt::Reveals(a, f))
                .boxed(),
        ));
    }
    let item = proptest::strategy::Union::new_weighted(items).boxed();
    prop_oneof![
        6 => item.clone(),
        1 => (range(), vec(item.clone(), 1..3)).prop_map(|(r, b)| Stmt::For(r, b)),
        1 => (ct_cond(), vec(item, 1..3)).prop_map(|(c, b)| Stmt::If(c, b, None)),
        // Refused (printed only in stories that print refused changes and events).
        1 => assign(),
        1 => prop_oneof![event::assign_many(), event::event(), belief::expects()],
        1 => prop_oneof![plan::action(), plan::do_stmt(), plan::plan()],
    ]
    .boxed()
}

/// `x := e`, of an int (most often), a bool or a colour.
fn assign() -> impl Strategy<Value = Stmt> {
    (0u8..8, new_value()).prop_map(|(target, value)| Stmt::Assign(target, value))
}

fn check() -> impl Strategy<Value = Check> {
    prop_oneof![
        4 => (prop::bool::weighted(0.7), epistemic_bool()).prop_map(|(s, f)| Check::Plain(s, f)),
        3 => (0u8..12, 0u8..5, vec(0u8..8, 0..=2), epistemic_bool())
            .prop_map(|(law, a, others, f)| Check::Law(law, a, others, f)),
        1 => Just(Check::Kept),
        2 => (0u8..10, epistemic_bool()).prop_map(|(mode, f)| Check::Actual(mode, f)),
        2 => (any::<u8>(), 0u8..5, epistemic_bool()).prop_map(|(law, a, f)| Check::BeliefLaw(law, a, f)),
    ]
}

/// `repeat max N { … } until φ`: rounds of reveals, as in the muddy children; with
/// `actual`, the body declares the actual world first.
fn repeat(actual: bool) -> impl Strategy<Value = Stmt> {
    let reveal = (0u8..5, revealable()).prop_map(|(a, f)| Stmt::Reveals(a, f));
    let item = prop_oneof![
        4 => reveal.clone(),
        2 => vec(reveal.clone(), 1..4).prop_map(Stmt::Simultaneously),
        1 => (range(), vec(reveal, 1..3))
            .prop_map(|(r, b)| Stmt::Simultaneously(vec![Stmt::For(r, b)])),
        1 => Just(Stmt::Checkpoint),
        1 => (0u8..5, learnable()).prop_map(|(a, t)| Stmt::Learns(a, t)),
        1 => (0u8..4).prop_map(Stmt::Worlds),
        1 => (epistemic_bool(), Just(false)).prop_map(|(f, d)| Stmt::Where(f, d)),
        2 => assign(),
        1 => check().prop_map(Stmt::Check),
        3 => event::event(),
        1 => event::learns_whether(),
        1 => event::assign_many(),
        1 => event::check_actual(),
        1 => belief::expects(),
        1 => plan::use_of_actions(),
        // Refused (printed only in stories that print refused changes and events).
        1 => plan::action(),
    ];
    // Until: anything, or what a reveal is about, or at once.
    let until = prop_oneof![
        3 => epistemic_bool(),
        2 => (0u8..5, vec(term(plain_bool()), 1..=2)).prop_map(|(a, t)| BoolE::KnowsValue(Some(a), t)),
        1 => Just(BoolE::Lit(true)),
    ];
    let pick = if actual {
        any::<u32>().prop_map(Some).boxed()
    } else {
        Just(None).boxed()
    };
    (1u8..=4, vec(item, 1..3), until, pick).prop_map(|(max, body, until, pick)| {
        // A checkpoint first, so that the `until` can look back at the round's start.
        let mut b = vec![Stmt::Checkpoint];
        b.extend(pick.map(Stmt::Actual));
        b.extend(body);
        Stmt::Repeat(max, b, until)
    })
}

fn hint() -> impl Strategy<Value = Hint> {
    prop_oneof![
        4 => Just(Hint::Exact),
        2 => Just(Hint::First),
        2 => any::<u32>().prop_map(Hint::Flip),
        1 => epistemic_bool().prop_map(Hint::Any),
    ]
}

fn decls() -> impl Strategy<Value = Decls> {
    let chars = (1u8..=3, prop::bool::weighted(0.3));
    let consts = (0i64..=3, prop_oneof![4 => -3i64..=3, 1 => big()]);
    let ints = vec(int_bound(), 0..=2);
    let finite = (0u8..=3, 0u8..=3, 0u8..=2);
    let families = (
        prop::bool::weighted(0.4),
        option::weighted(0.3, int_bound()),
        prop::bool::weighted(0.3),
    );
    let extra = option::weighted(0.3, plain_bool());
    (chars, consts, ints, finite, families, any::<u8>(), extra).prop_map(
        |(
            (chars, char_family),
            (n, k),
            ints,
            (bools, colours, enum_consts),
            fams,
            style,
            extra,
        )| {
            Decls {
                chars,
                char_family,
                n,
                k,
                ints,
                bools,
                colours,
                enum_consts: if colours == 0 { 0 } else { enum_consts },
                fam_bool: fams.0,
                fam_int: fams.1,
                fam_enum: fams.2 && colours > 0,
                bound_style: style,
                extra,
            }
        },
    )
}

fn set_n() -> impl Strategy<Value = Option<i64>> {
    option::weighted(
        0.25,
        prop_oneof![Just(0i64), Just(1), Just(2), Just(3), Just(-1)],
    )
}

fn set_k() -> impl Strategy<Value = Option<i64>> {
    option::weighted(
        0.2,
        prop_oneof![Just(0i64), Just(1), Just(-1), Just(-3), big()],
    )
}

/// How many worlds the declarations allow with `n` members per family.
pub fn world_count(d: &Decls, n: i64) -> u128 {
    let n = n.max(0) as u32;
    let width = |b: IntBound| u128::from(b.width) + 1;
    let mut total: u128 = 1;
    for b in &d.ints {
        total *= width(*b);
    }
    total *= 1 << d.bools;
    total *= u128::from(d.colours.max(1)).pow(u32::from(d.enum_consts));
    if d.fam_bool {
        total *= 1 << n;
    }
    if let Some(b) = d.fam_int {
        total *= width(b).pow(n);
    }
    if d.fam_enum {
        total *= u128::from(d.colours).pow(n);
    }
    total
}

/// The most worlds a generated story's declarations allow: every story runs in
/// milliseconds on every backend and on the evaluator.
pub const MAX_WORLDS: u128 = 512;

pub fn story() -> impl Strategy<Value = Story> {
    // Most stories have an event with `expects` lines at the top level, before or after
    // the actual world (events and belief in most stories of a campaign).
    let featured = option::weighted(0.97, (event::event_with(1), any::<u8>(), any::<bool>()));
    // Half the stories declare actions and then plan with them or do them (issue 41).
    let planning = option::weighted(0.5, (plan::planning(), any::<u8>(), any::<bool>()));
    (
        decls(),
        vec(stmt(Part::Pre, 2), 0..4),
        option::weighted(0.9, any::<u32>()),
        vec(stmt(Part::Post, 2), 0..4),
        prop::bool::weighted(0.8),
        set_n(),
        set_k(),
        0u64..4,
        prop::bool::weighted(0.3),
        (featured, planning),
        option::weighted(0.25, chance::chance()),
    )
        .prop_map(
            |(
                decls,
                mut pre,
                actual,
                mut post,
                steer,
                set_n,
                set_k,
                seed,
                refuse,
                (featured, planning),
                chance,
            )| {
                if let Some((event, at, before)) = featured {
                    let into = if before { &mut pre } else { &mut post };
                    let at = usize::from(at) % (into.len() + 1);
                    into.insert(at, event);
                }
                if let Some(((actions, uses), at, before)) = planning {
                    plan::insert(&mut pre, &mut post, actions, uses, at, before);
                }
                let chance = chance.map(|(chance, featured)| {
                    for (stmt, at, before) in featured {
                        let into = if before { &mut pre } else { &mut post };
                        let at = usize::from(at) % (into.len() + 1);
                        into.insert(at, stmt);
                    }
                    chance
                });
                Story {
                    decls,
                    pre,
                    actual,
                    post,
                    steer,
                    set_n,
                    set_k,
                    seed,
                    refuse,
                    chance,
                }
            },
        )
        .prop_filter("too many worlds", |s| {
            world_count(&s.decls, s.set_n.unwrap_or(s.decls.n)) <= MAX_WORLDS
        })
}

/// The stories of a campaign: [`story`]'s, and as many that read none of their past
/// ([`forgetful_story`]), whose verdicts are compared with the events' histories
/// forgotten too (issue 42).
pub fn campaign_story() -> impl Strategy<Value = Story> {
    prop_oneof![
        1 => story(),
        1 => forgetful_story(),
    ]
}
