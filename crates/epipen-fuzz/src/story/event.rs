//! Events (issue 19) in the story AST, and their strategies: `event NAME { … }` with its
//! cases (preconditions with knowledge operators, simultaneous changes, families of
//! cases written with `for`), `sees` lines (groups, `others`, families named whole,
//! `each(…)`/`all(…)`, a `for` over the family of characters) and its `actual` line;
//! also `x, y := e, f` and `A learns φ` with knowledge operators.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use super::{BoolE, Check, Stmt, Term, epistemic_bool, new_value, plain_bool};

/// `event e { … }`.
#[derive(Debug, Clone)]
pub struct Event {
    /// Another statement of an earlier event (by index among those printed before),
    /// with its name and cases, when there is one.
    pub again: Option<u8>,
    /// The case lines (1 to 3), each one case or a family of them.
    pub cases: Vec<CaseLine>,
    /// `A sees …` lines (characters by index; a character named twice has one line).
    pub sees: Vec<(u8, Partition)>,
    /// `for k in 0..n { P[k] sees … }`, when there is a family of characters.
    pub family: Option<FamilySees>,
    /// `A expects G1 > G2 > …` lines (issue 20; characters by index, a character named
    /// twice has one line): the partition's groups in order, most plausible first.
    pub expects: Vec<(u8, Partition)>,
    /// `for k in 0..n { P[k] expects … }`, when there is a family of characters.
    pub family_expects: Option<Partition>,
    /// The `actual CASE` line, steered by the evaluator.
    pub actual: ActualLine,
}

/// A case line of an event block.
#[derive(Debug, Clone)]
pub enum CaseLine {
    /// `s0 if φ then x := e, …`
    One(Case),
    /// `for i in 0..m { f1[i] if φ then … }` (m: 1 to 3, or `n` when None).
    Family(Option<u8>, Case),
    /// `for i in 0..m { for j in i + 1..m { g2[i, j] … } }` (m: 2 or 3).
    Pairs(u8, Case),
}

impl CaseLine {
    pub fn case(&self) -> &Case {
        match self {
            CaseLine::One(c) | CaseLine::Family(_, c) | CaseLine::Pairs(_, c) => c,
        }
    }
}

/// A case's precondition (None: always possible) and its simultaneous changes (a
/// constant of each value's type, by index; a constant named twice is changed once), or
/// a swap `x := y, y := x` of two constants of one type (as `Stmt::Swap`).
#[derive(Debug, Clone)]
pub struct Case {
    pub pre: Option<BoolE>,
    pub changes: Vec<(u8, Term)>,
    pub swap: Option<(u8, u8)>,
    /// `weight e` (issue 29; printed in probabilistic stories only).
    pub weight: Option<super::IntE>,
}

/// How a `sees` line splits the cases: the group of each case (by position, cycling),
/// and how the line is written (`others`, families named whole, `all(…)`, `each(…)`).
#[derive(Debug, Clone)]
pub struct Partition {
    pub groups: Vec<u8>,
    pub style: u8,
}

/// The `sees` line of every member `P[k]` of the family of characters.
#[derive(Debug, Clone)]
pub enum FamilySees {
    /// The same partition for every member.
    Same(Partition),
    /// `each(… if i == k or j == k: g[i, j]) | others` (the gossip's calls: whether it
    /// calls and whom), or for a family `f[i]`, `each(i … if i == k: f[i]) | others`.
    Own,
}

/// The `actual CASE` line: a case possible in the actual world (the evaluator says which),
/// one that is not, or none.
#[derive(Debug, Clone, Copy)]
pub enum ActualLine {
    Right(u32),
    Wrong(u32),
    Missing,
}

pub(super) fn case(knowledge: bool) -> impl Strategy<Value = Case> {
    let pre = if knowledge {
        prop_oneof![
            3 => Just(None),
            2 => plain_bool().prop_map(Some),
            3 => epistemic_bool().prop_map(Some),
        ]
        .boxed()
    } else {
        prop_oneof![2 => Just(None), 1 => plain_bool().prop_map(Some)].boxed()
    };
    let changes = prop_oneof![
        4 => Just(Vec::new()),
        4 => vec((0u8..8, new_value()), 1..=1),
        2 => vec((0u8..8, new_value()), 2..=3),
    ];
    let swap = option::weighted(0.15, (0u8..3, 0u8..8));
    let weight = option::weighted(0.6, super::chance::weight());
    (pre, changes, swap, weight).prop_map(|(pre, changes, swap, weight)| Case {
        pre,
        changes,
        swap,
        weight,
    })
}

fn case_line() -> impl Strategy<Value = CaseLine> {
    prop_oneof![
        6 => case(true).prop_map(CaseLine::One),
        2 => (option::weighted(0.7, 1u8..=3), case(true)).prop_map(|(m, c)| CaseLine::Family(m, c)),
        1 => (2u8..=3, case(true)).prop_map(|(m, c)| CaseLine::Pairs(m, c)),
    ]
}

pub(super) fn partition() -> impl Strategy<Value = Partition> {
    (vec(0u8..4, 1..=4), any::<u8>()).prop_map(|(groups, style)| Partition { groups, style })
}

pub(super) fn actual_line() -> impl Strategy<Value = ActualLine> {
    prop_oneof![
        8 => any::<u32>().prop_map(ActualLine::Right),
        1 => any::<u32>().prop_map(ActualLine::Wrong),
        1 => Just(ActualLine::Missing),
    ]
}

/// An event statement.
pub fn event() -> impl Strategy<Value = Stmt> {
    event_with(0)
}

/// An event statement with at least `expects` lines of `expects` (as many as there are
/// characters to write them).
pub fn event_with(expects: usize) -> impl Strategy<Value = Stmt> {
    let lines = prop_oneof![
        2 => vec((0u8..5, partition()), expects..=expects),
        3 => vec((0u8..5, partition()), expects.max(1)..=3),
    ];
    (
        option::weighted(0.2, any::<u8>()),
        vec(case_line(), 1..=3),
        vec((0u8..5, partition()), 0..=3),
        option::weighted(
            0.5,
            prop_oneof![
                1 => partition().prop_map(FamilySees::Same),
                1 => Just(FamilySees::Own),
            ],
        ),
        actual_line(),
        (lines, option::weighted(0.4, partition())),
    )
        .prop_map(
            |(again, cases, sees, family, actual, (expects, family_expects))| {
                Stmt::Event(Box::new(Event {
                    again,
                    cases,
                    sees,
                    family,
                    actual,
                    expects,
                    family_expects,
                }))
            },
        )
}

/// `x, y := e, f` (values of any type: the printer picks constants of their types), or
/// a swap or rotation of two or three constants of one type.
pub fn assign_many() -> impl Strategy<Value = Stmt> {
    prop_oneof![
        2 => vec((0u8..8, new_value()), 2..=3).prop_map(Stmt::AssignMany),
        1 => (0u8..3, 0u8..8, 2u8..=3).prop_map(|(ty, first, count)| Stmt::Swap(ty, first, count)),
    ]
}

/// `A learns φ`, φ with knowledge operators.
pub fn learns_whether() -> impl Strategy<Value = Stmt> {
    (0u8..5, epistemic_bool()).prop_map(|(a, f)| Stmt::LearnsWhether(a, f))
}

/// The name of an event that happened, compared with its cases: `e0 == s1`,
/// `e0 != f1[2]`, `e0 in {s0, g2[0, 1]}`, `s1 == e0`.
pub fn event_is() -> impl Strategy<Value = BoolE> {
    (any::<u8>(), 0u8..4, vec(any::<u8>(), 1..=2))
        .prop_map(|(event, form, cases)| BoolE::EventIs(event, form, cases))
}

/// What happened at a checkpoint: `at(c, e0 == s1)`, `at(c, knows(A, e0 != s0))`.
pub fn event_at() -> impl Strategy<Value = BoolE> {
    (0u8..3, option::of(0u8..5), event_is()).prop_map(|(c, knower, is)| {
        let f = match knower {
            Some(a) => BoolE::Knows(Some(a), Box::new(is)),
            None => is,
        };
        BoolE::At(c, Box::new(f))
    })
}

/// `check actual φ`.
pub fn check_actual() -> impl Strategy<Value = Stmt> {
    (0u8..10, epistemic_bool()).prop_map(|(mode, f)| Stmt::Check(Check::Actual(mode, f)))
}
