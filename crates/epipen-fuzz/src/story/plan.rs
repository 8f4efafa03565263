//! Actions and plans (issue 41) in the story AST, and their strategies: `action NAME [by
//! A] [if φ] { … }` (an event's body without `actual`: cases with preconditions and
//! changes, `sees` and `expects` lines; sometimes a family `for i in 0..m { action
//! NAME[i] … }`), `do a, b: CASE` and `plan [all] φ [max D] [keeping ψ] [coordinated]`.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use super::event::{ActualLine, Case, CaseLine, FamilySees, Partition, actual_line, partition};
use super::{
    ArOp, BoolE, CmpOp, EnumE, GroupOp, IntE, LOp, Stmt, Term, agent, chance, epistemic_bool,
    new_value, plain_bool,
};

/// `action NAME [by A] [if φ] { … }`.
#[derive(Debug, Clone)]
pub struct Action {
    /// `by A` (a character by index).
    pub owner: Option<u8>,
    /// `if φ`: when it can be done (knowledge operators allowed).
    pub guard: Option<BoolE>,
    /// The case lines (1 to 3), each one case or a family of them.
    pub cases: Vec<CaseLine>,
    /// `A sees …` lines (characters by index).
    pub sees: Vec<(u8, Partition)>,
    /// `for k in 0..n { P[k] sees … }`, when there is a family of characters.
    pub family: Option<FamilySees>,
    /// `A expects …` lines (issue 20).
    pub expects: Vec<(u8, Partition)>,
    /// Declared as a family of this many members, `for i in 0..m { action NAME[i] … }`
    /// (the loop's variable in scope in the owner, the guard and the body).
    pub members: Option<u8>,
    /// The first two cases' preconditions become `φ` and `not φ`: which happens is a fact
    /// of the world (`took if key`, `found_nothing if not key`), as in planning stories
    /// (where cases possible at once make every plan have to work in each).
    pub split: Option<BoolE>,
}

/// One action of a `do` line.
#[derive(Debug, Clone)]
pub struct DoItem {
    /// The action (by index among those declared where the `do` stands).
    pub action: u8,
    /// `: CASE`, steered by the evaluator as an event's `actual` line: a case possible
    /// at the actual world, one that is not (a story error), or none (an error unless one
    /// case only can happen there).
    pub case: ActualLine,
    /// Kept when the action cannot be done there (a story error at the item); otherwise
    /// such an item is left out.
    pub stuck: bool,
}

/// `plan [all] φ [max D] [keeping ψ] [coordinated]`.
#[derive(Debug, Clone)]
pub struct Plan {
    pub all: bool,
    pub goal: BoolE,
    /// 1 to 3 (lowered by the printer while the search's worlds would be too many).
    pub max: u8,
    pub keeping: Option<BoolE>,
    /// Printed only when every action declared before has an owner.
    pub coordinated: bool,
    /// When the goal holds already or no plan reaches it, the printer tries its negation,
    /// then each of `alternatives` and its negation, and keeps the first that has a plan
    /// of at least one action.
    pub steer: bool,
    /// Goals about the constants the actions change (`p0`, `knows(A, p0)`,
    /// `knows_value(B, x0)`, …), which plans reach more often than arbitrary formulas.
    pub alternatives: Vec<Goal>,
}

/// A goal about one constant the actions change (by index among those the printer saw
/// in the actions' changes; any constant when there are none): its value (`p0`, `not
/// p0`, `c0 == red`, `x0 == 2`, `x0 > 1`, by `value`) or what a character knows of it.
#[derive(Debug, Clone)]
pub struct Goal {
    pub target: u8,
    pub value: u8,
    /// 0–2: the value; 3: `knows(A, …)` of it; 4: `knows_value(A, t)`; 5: `not
    /// knows_value(A, t)`; 6: `everyone_knows(…)`; 7: the value and `knows_value(A, t)`.
    pub form: u8,
    pub agent: u8,
}

/// A value a change gives a constant, mostly simple (`true`, `not p0`, `x0 + 1`, `red`),
/// so that actions move the story's state where plans can go.
fn simple_value() -> impl Strategy<Value = Term> {
    prop_oneof![
        3 => any::<bool>().prop_map(|b| Term::Bool(BoolE::Lit(b))),
        3 => (0u8..6).prop_map(|i| Term::Bool(BoolE::Not(Box::new(BoolE::Var(i))))),
        1 => (0u8..6).prop_map(|i| Term::Bool(BoolE::Var(i))),
        2 => (-1i64..=3).prop_map(|v| Term::Int(IntE::Lit(v))),
        2 => (0u8..6, -1i64..=2).prop_map(|(i, d)| {
            Term::Int(IntE::Bin(ArOp::Add, Box::new(IntE::Var(i)), Box::new(IntE::Lit(d))))
        }),
        2 => (0u8..3).prop_map(|v| Term::Enum(EnumE::Lit(v))),
        1 => (0u8..4).prop_map(|i| Term::Enum(EnumE::Var(i))),
    ]
}

/// A case of an action: no precondition, a small one (a constant's value, what a
/// character knows of it) or any formula; simple changes most often.
fn action_case() -> impl Strategy<Value = Case> {
    let pre = prop_oneof![
        8 => Just(None),
        2 => goal_atom().prop_map(Some),
        1 => plain_bool().prop_map(Some),
        1 => epistemic_bool().prop_map(Some),
    ];
    let change = (0u8..8, simple_value()).boxed();
    let changes = prop_oneof![
        2 => Just(Vec::new()),
        5 => vec(change.clone(), 1..=1),
        2 => vec(change, 2..=2),
        1 => vec((0u8..8, new_value()), 1..=2),
    ];
    let swap = option::weighted(0.1, (0u8..3, 0u8..8));
    let weight = option::weighted(0.5, chance::weight());
    (pre, changes, swap, weight).prop_map(|(pre, changes, swap, weight)| Case {
        pre,
        changes,
        swap,
        weight,
    })
}

fn action_case_line() -> impl Strategy<Value = CaseLine> {
    prop_oneof![
        8 => action_case().prop_map(CaseLine::One),
        1 => (option::weighted(0.8, 1u8..=2), action_case()).prop_map(|(m, c)| CaseLine::Family(m, c)),
    ]
}

/// A guard, goal or invariant: small most often, else any formula.
fn formula() -> BoxedStrategy<BoolE> {
    prop_oneof![
        3 => goal_atom(),
        1 => plain_bool(),
        2 => epistemic_bool(),
    ]
    .boxed()
}

/// An action statement.
pub fn action() -> impl Strategy<Value = Stmt> {
    (
        option::weighted(0.75, 0u8..5),
        option::weighted(0.3, formula()),
        vec(action_case_line(), 1..=3),
        vec((0u8..5, partition()), 0..=3),
        option::weighted(
            0.4,
            prop_oneof![
                1 => partition().prop_map(FamilySees::Same),
                1 => Just(FamilySees::Own),
            ],
        ),
        prop_oneof![4 => Just(Vec::new()), 1 => vec((0u8..5, partition()), 1..=2)],
        (
            option::weighted(0.2, 1u8..=2),
            option::weighted(0.6, goal_atom()),
        ),
    )
        .prop_map(
            |(owner, guard, cases, sees, family, expects, (members, split))| {
                Stmt::Action(Box::new(Action {
                    owner,
                    guard,
                    cases,
                    sees,
                    family,
                    expects,
                    members,
                    split,
                }))
            },
        )
}

/// `do a, b: CASE` of 1 or 2 actions.
pub fn do_stmt() -> impl Strategy<Value = Stmt> {
    let item = (any::<u8>(), actual_line(), prop::bool::weighted(0.15))
        .prop_map(|(action, case, stuck)| DoItem {
            action,
            case,
            stuck,
        })
        .boxed();
    prop_oneof![
        3 => vec(item.clone(), 1..=1),
        1 => vec(item, 2..=2),
    ]
    .prop_map(Stmt::Do)
}

/// A `plan` statement.
pub fn plan() -> impl Strategy<Value = Stmt> {
    (
        prop::bool::weighted(0.3),
        formula(),
        1u8..=3,
        option::weighted(0.3, formula()),
        prop::bool::weighted(0.5),
        prop::bool::weighted(0.85),
        vec(goal(), 1..=4),
    )
        .prop_map(
            |(all, goal, max, keeping, coordinated, steer, alternatives)| {
                Stmt::Plan(Box::new(Plan {
                    all,
                    goal,
                    max,
                    keeping,
                    coordinated,
                    steer,
                    alternatives,
                }))
            },
        )
}

/// A goal about one or two constants: its value, or what a character (or everyone) knows
/// of it.
fn goal_atom() -> BoxedStrategy<BoolE> {
    let leaf = prop_oneof![
        4 => (0u8..6).prop_map(BoolE::Var),
        2 => (0u8..6).prop_map(|i| BoolE::Not(Box::new(BoolE::Var(i)))),
        1 => (0u8..6, -1i64..=3)
            .prop_map(|(i, v)| BoolE::Cmp(CmpOp::Eq, IntE::Var(i), IntE::Lit(v))),
        1 => (0u8..4, 0u8..3).prop_map(|(i, v)| BoolE::EnumEq(true, EnumE::Var(i), EnumE::Lit(v))),
    ]
    .boxed();
    let value = prop_oneof![
        2 => (0u8..6).prop_map(|i| Term::Bool(BoolE::Var(i))),
        1 => (0u8..6).prop_map(|i| Term::Int(IntE::Var(i))),
        1 => (0u8..4).prop_map(|i| Term::Enum(EnumE::Var(i))),
    ];
    prop_oneof![
        3 => leaf.clone(),
        3 => (agent(), leaf.clone()).prop_map(|(a, f)| BoolE::Knows(a, Box::new(f))),
        3 => (agent(), value).prop_map(|(a, t)| BoolE::KnowsValue(a, vec![t])),
        1 => (agent(), leaf.clone())
            .prop_map(|(a, f)| BoolE::Not(Box::new(BoolE::Knows(a, Box::new(f))))),
        1 => leaf.clone().prop_map(|f| BoolE::Group(GroupOp::Everyone, None, Box::new(f))),
        1 => (leaf.clone(), leaf)
            .prop_map(|(a, b)| BoolE::Logic(LOp::And, Box::new(a), Box::new(b))),
    ]
    .boxed()
}

fn goal() -> impl Strategy<Value = Goal> {
    (any::<u8>(), any::<u8>(), 0u8..8, 0u8..5).prop_map(|(target, value, form, agent)| Goal {
        target,
        value,
        form,
        agent,
    })
}

/// A plan or (one in three) a `do`.
pub fn use_of_actions() -> impl Strategy<Value = Stmt> {
    prop_oneof![
        2 => plan(),
        1 => do_stmt(),
    ]
}

/// What most stories get (`story::story`): 1 to 3 actions, then 1 to 3 plans and `do`s,
/// each at a place (by index) after them, and whether it goes after the actual world.
pub type Planning = (Vec<Stmt>, Vec<(Stmt, u8, bool)>);

pub fn planning() -> impl Strategy<Value = Planning> {
    (
        vec(action(), 1..=3),
        vec(
            (use_of_actions(), any::<u8>(), prop::bool::weighted(0.8)),
            1..=3,
        ),
    )
}

/// Inserts `actions` into the statements before the actual world (`before`) or after
/// it, and each of `uses` after them: in the same part, or after the actual world. Both
/// go near the part's start (`at` and each use's place pick among the first few places):
/// statements after them that end a story early (a story error, a failed check) then
/// leave them run.
pub(super) fn insert(
    pre: &mut Vec<Stmt>,
    post: &mut Vec<Stmt>,
    actions: Vec<Stmt>,
    uses: Vec<(Stmt, u8, bool)>,
    at: u8,
    before: bool,
) {
    let into = if before { &mut *pre } else { &mut *post };
    let at = usize::from(at % 3).min(into.len());
    let end = at + actions.len();
    into.splice(at..at, actions);
    for (stmt, place, later) in uses {
        let (into, from) = match (before, later) {
            (true, false) => (&mut *pre, end),
            (true, true) => (&mut *post, 0),
            (false, _) => (&mut *post, end),
        };
        let k = from + usize::from(place % 3).min(into.len() - from);
        into.insert(k, stmt);
    }
}
