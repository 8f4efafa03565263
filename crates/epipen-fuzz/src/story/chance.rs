//! Probabilities (issue 29) in the story AST, and their strategies: `prior e`, a case's
//! `weight e`, `probability(A, φ)` and `probability(φ)` compared with fractions in exact
//! arithmetic, and `show e`. Only the stories that draw a [`Chance`] print them (a
//! quarter of them); in the others a comparison of probabilities prints as its first
//! argument formula and a case's weight is left out, so that the rest of the fuzzer's
//! coverage stays.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use super::{
    ArOp, BoolE, Check, CmpOp, IntE, Range, Stmt, Term, agent, cmp_op, epistemic_bool, int_leaf,
    plain_bool, range, simple_bool, value,
};

/// What a probabilistic story has besides the probabilities in its formulas.
#[derive(Debug, Clone)]
pub struct Chance {
    /// `prior e`.
    pub prior: Option<IntE>,
    /// Where the prior goes: right before the first announcements, which bound the ints
    /// (0), right after them (1 to 5), twice (6: a
    /// compile error at the second), or late, where the story's other statements may
    /// already let a character learn something (7: a compile error when they did).
    pub prior_at: u8,
}

/// A comparison with probabilities: `probability(A, φ) > 1/2`,
/// `2 * probability(φ) <= probability(A, ψ) + 1/3`.
#[derive(Debug, Clone)]
pub struct ProbCmp {
    pub op: CmpOp,
    pub left: RatE,
    pub right: RatE,
}

/// A term of exact arithmetic.
#[derive(Debug, Clone)]
pub enum RatE {
    /// `probability(agent, φ)`; no agent: the speaker's in `A: …`, else the storyteller's.
    P(Option<u8>, Box<BoolE>),
    /// `num/den` (den 1: the int alone).
    Frac(i8, u8),
    /// An int leaf (a constant, a literal, `n`, `k`).
    Int(IntE),
    Add(Box<RatE>, Box<RatE>),
    Sub(Box<RatE>, Box<RatE>),
    /// `2 * r`.
    Scale(i8, Box<RatE>),
    Mul(Box<RatE>, Box<RatE>),
    /// Exact division (by 0: a story error).
    Div(Box<RatE>, Box<RatE>),
    Neg(Box<RatE>),
    /// `sum(i in r: body)`, the body a term with `i` in scope: an expected value
    /// `sum(i in 0..n: i * probability(A, x0 == i))`, or any term.
    Sum(Range, Box<RatE>),
}

/// What `show` shows.
#[derive(Debug, Clone)]
pub enum ShowE {
    /// A probability term (printed only in probabilistic stories).
    Rat(RatE),
    /// A value: an int, a bool, a colour, an event's name.
    Term(Term),
    /// A formula with knowledge operators (true or false in each world).
    Formula(BoolE),
}

/// A weight (of a prior or a case): an int expression of the constants, small, now and
/// then 0 or negative in some world.
pub fn weight() -> impl Strategy<Value = IntE> {
    let ite = |c: BoolE, a: i64, b: i64| {
        IntE::Ite(Box::new(c), Box::new(IntE::Lit(a)), Box::new(IntE::Lit(b)))
    };
    prop_oneof![
        3 => (0i64..=4).prop_map(IntE::Lit),
        1 => Just(IntE::Lit(-1)),
        4 => (simple_bool(), 0i64..=4, prop_oneof![6 => 0i64..=4, 1 => Just(-1i64)])
            .prop_map(move |(c, a, b)| ite(c, a, b)),
        2 => (0u8..6, -1i64..=3).prop_map(|(x, c)| {
            IntE::Bin(ArOp::Add, Box::new(IntE::Abs(Box::new(IntE::Var(x)))), Box::new(IntE::Lit(c)))
        }),
        1 => (0u8..6, 1i64..=3).prop_map(|(x, m)| {
            IntE::Bin(ArOp::Mod, Box::new(IntE::Abs(Box::new(IntE::Var(x)))), Box::new(IntE::Lit(m)))
        }),
        2 => (range(), simple_bool(), 0i64..=2).prop_map(|(r, b, c): (Range, BoolE, i64)| {
            IntE::Bin(ArOp::Add, Box::new(IntE::Count(r, Box::new(b))), Box::new(IntE::Lit(c)))
        }),
    ]
}

fn frac() -> impl Strategy<Value = RatE> {
    prop_oneof![
        4 => (1i8..=2, 2u8..=3).prop_map(|(a, b)| RatE::Frac(a, b)),
        2 => (0i8..=5, 1u8..=6).prop_map(|(a, b)| RatE::Frac(a, b)),
        1 => Just(RatE::Frac(0, 1)),
        1 => Just(RatE::Frac(1, 1)),
        1 => Just(RatE::Frac(-1, 3)),
    ]
}

/// `probability(agent, φ)`, φ from `formula`.
fn p(formula: BoxedStrategy<BoolE>) -> impl Strategy<Value = RatE> {
    (agent(), formula).prop_map(|(a, f)| RatE::P(a, Box::new(f)))
}

/// An expected value: `sum(i in r: i * probability(A, φ))`, φ often about `i`
/// (`x0 == i`), or `sum(i in r: probability(A, φ))`.
fn expectation(formula: BoxedStrategy<BoolE>) -> impl Strategy<Value = RatE> {
    let about_i = (0u8..6).prop_map(|x| BoolE::Cmp(CmpOp::Eq, IntE::Var(x), IntE::LoopVar(0)));
    let phi = prop_oneof![2 => about_i, 1 => formula].boxed();
    (range(), any::<bool>(), p(phi)).prop_map(|(r, scaled, p)| {
        let body = match scaled {
            true => RatE::Mul(Box::new(RatE::Int(IntE::LoopVar(0))), Box::new(p)),
            false => p,
        };
        RatE::Sum(r, Box::new(body))
    })
}

/// A term: probabilities, fractions and int leaves, added, scaled, multiplied, divided,
/// summed over a range.
fn rat(formula: BoxedStrategy<BoolE>) -> BoxedStrategy<RatE> {
    let leaf = prop_oneof![
        4 => p(formula.clone()),
        3 => frac(),
        1 => int_leaf().prop_map(RatE::Int),
        1 => expectation(formula),
    ];
    leaf.prop_recursive(2, 4, 2, |inner| {
        prop_oneof![
            3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| RatE::Add(Box::new(a), Box::new(b))),
            2 => (inner.clone(), inner.clone()).prop_map(|(a, b)| RatE::Sub(Box::new(a), Box::new(b))),
            2 => (-2i8..=3, inner.clone()).prop_map(|(k, a)| RatE::Scale(k, Box::new(a))),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| RatE::Mul(Box::new(a), Box::new(b))),
            1 => (inner.clone(), inner.clone()).prop_map(|(a, b)| RatE::Div(Box::new(a), Box::new(b))),
            1 => inner.clone().prop_map(|a| RatE::Neg(Box::new(a))),
            1 => (range(), inner).prop_map(|(r, a)| RatE::Sum(r, Box::new(a))),
        ]
    })
    .boxed()
}

/// The argument formulas: knowledge-free most often, sometimes with knowledge.
fn argument() -> BoxedStrategy<BoolE> {
    prop_oneof![4 => plain_bool(), 1 => epistemic_bool()].boxed()
}

/// A comparison with a probability on its left: `probability(A, p0) > 1/2`,
/// `2 * probability(φ) <= probability(A, ψ) + 1/3`, `probability(φ) == 1/3`.
pub fn prob_cmp(formula: BoxedStrategy<BoolE>) -> impl Strategy<Value = BoolE> {
    let left = prop_oneof![
        4 => p(formula.clone()),
        2 => (-1i8..=3, p(formula.clone())).prop_map(|(k, a)| RatE::Scale(k, Box::new(a))),
        3 => rat(formula.clone()),
    ];
    let right = prop_oneof![
        4 => frac(),
        1 => p(formula.clone()),
        2 => rat(formula),
    ];
    (cmp_op(), left, right)
        .prop_map(|(op, left, right)| BoolE::Prob(Box::new(ProbCmp { op, left, right })))
}

/// An atom of formulas with knowledge operators: a comparison of probabilities.
pub fn prob_atom() -> BoxedStrategy<BoolE> {
    prob_cmp(argument()).boxed()
}

/// What a speaker can always reveal: its own probability compared with a fraction.
pub fn own_prob() -> impl Strategy<Value = BoolE> {
    (cmp_op(), plain_bool(), frac()).prop_map(|(op, f, right)| {
        BoolE::Prob(Box::new(ProbCmp {
            op,
            left: RatE::P(None, Box::new(f)),
            right,
        }))
    })
}

/// `show e`.
pub fn show() -> impl Strategy<Value = Stmt> {
    let what = prop_oneof![
        4 => rat(argument()).prop_map(ShowE::Rat),
        3 => value(plain_bool()).prop_map(ShowE::Term),
        1 => any::<u8>().prop_map(|e| ShowE::Term(Term::Event(e))),
        2 => epistemic_bool().prop_map(ShowE::Formula),
    ];
    what.prop_map(Stmt::Show)
}

/// A probabilistic story's prior and the statements it features (at random places):
/// a `show` of a probability, a `check` and a `check actual` of one.
pub fn chance() -> impl Strategy<Value = (Chance, Vec<(Stmt, u8, bool)>)> {
    let featured = prop_oneof![
        3 => show(),
        2 => (prop::bool::weighted(0.7), prob_atom()).prop_map(|(s, f)| Stmt::Check(Check::Plain(s, f))),
        2 => (0u8..9, prob_atom()).prop_map(|(m, f)| Stmt::Check(Check::Actual(m, f))),
        1 => prob_atom().prop_map(Stmt::Announce),
        1 => (0u8..5, prob_atom()).prop_map(|(a, f)| Stmt::Says(a, f)),
    ];
    (
        option::weighted(0.7, weight()),
        0u8..8,
        vec((featured, any::<u8>(), any::<bool>()), 1..=2),
    )
        .prop_map(|(prior, prior_at, featured)| (Chance { prior, prior_at }, featured))
}
