//! Stories that do not read their past (issue 42): events, announcements, reveals and
//! checks only, so that `epipen check` may forget the events' histories
//! (`epipen::engine::history`, docs/encoding.md "Forgetting histories"). A story of
//! [`super::story`] with everything that reads the past taken out: no `worlds`,
//! `where`, `show`, checkpoint or `at(c, …)`, no `learns`, `:=` or `expects`, no
//! `simultaneously`, `repeat`, hint, action or plan, no chances, no event's name used,
//! events only after the actual world and changing no int. The differential fuzzer
//! compares their verdicts with the histories forgotten and kept, on BDDs and on
//! explicit worlds ([`crate::diff`]).

use proptest::prelude::*;

use super::{BoolE, Case, CaseLine, Check, EnumE, Event, IntE, Stmt, Story, Term};

/// A story of [`super::story`] that reads none of its past, with an event after the
/// actual world (most of them: some have no event left).
pub fn forgetful_story() -> impl Strategy<Value = Story> {
    (
        super::story(),
        proptest::collection::vec((super::event::event(), super::check()), 1..=3),
    )
        .prop_map(|(mut s, events)| {
            s.chance = None;
            s.refuse = false;
            s.decls.extra = s.decls.extra.take().map(bool_e);
            // Before the actual world: no event (`actual` after an event reads it).
            s.pre = stmts(std::mem::take(&mut s.pre), false);
            let mut post = stmts(std::mem::take(&mut s.post), true);
            // Events between the other statements, each followed by a check (the
            // verdicts are what the comparison reads).
            for (k, (e, c)) in events.into_iter().enumerate() {
                if let Some(e) = stmt(e, true) {
                    let at = (k * 3).min(post.len());
                    post.insert(at, Stmt::Check(check(c)));
                    post.insert(at, e);
                }
            }
            s.post = post;
            s
        })
}

/// `list` without what reads the past, events only when `events`.
fn stmts(list: Vec<Stmt>, events: bool) -> Vec<Stmt> {
    list.into_iter().filter_map(|s| stmt(s, events)).collect()
}

fn stmt(s: Stmt, events: bool) -> Option<Stmt> {
    Some(match s {
        Stmt::Announce(f) => Stmt::Announce(bool_e(f)),
        Stmt::Says(a, f) => Stmt::Says(a, bool_e(f)),
        Stmt::Reveals(a, f) => Stmt::Reveals(a, bool_e(f)),
        Stmt::Defined(f) => Stmt::Defined(bool_e(f)),
        Stmt::Check(c) => Stmt::Check(check(c)),
        Stmt::For(r, body) => Stmt::For(r, stmts(body, events)),
        Stmt::If(c, t, e) => Stmt::If(c, stmts(t, events), e.map(|e| stmts(e, events))),
        Stmt::Event(e) if events => Stmt::Event(Box::new(event(*e))),
        _ => return None,
    })
}

fn check(c: Check) -> Check {
    match c {
        Check::Plain(s, f) => Check::Plain(s, bool_e(f)),
        Check::Law(l, a, o, f) => Check::Law(l, a, o, bool_e(f)),
        Check::Kept => Check::Kept,
        Check::Actual(m, f) => Check::Actual(m, bool_e(f)),
        Check::BeliefLaw(l, a, f) => Check::BeliefLaw(l, a, bool_e(f)),
    }
}

/// The event without `expects` lines and without changes of ints.
fn event(mut e: Event) -> Event {
    e.expects.clear();
    e.family_expects = None;
    e.cases = (e.cases.into_iter())
        .map(|line| match line {
            CaseLine::One(c) => CaseLine::One(case(c)),
            CaseLine::Family(m, c) => CaseLine::Family(m, case(c)),
            CaseLine::Pairs(m, c) => CaseLine::Pairs(m, case(c)),
        })
        .collect();
    e
}

fn case(c: Case) -> Case {
    Case {
        pre: c.pre.map(bool_e),
        changes: (c.changes.into_iter())
            .filter_map(|(target, value)| match value {
                Term::Int(_) | Term::Event(_) => None,
                Term::Bool(b) => Some((target, Term::Bool(bool_e(b)))),
                Term::Enum(e) => Some((target, Term::Enum(enum_e(e)))),
            })
            .collect(),
        // A swap of ints (type 0) changes ints.
        swap: c.swap.filter(|(ty, _)| *ty != 0),
        weight: None,
    }
}

fn term(t: Term) -> Term {
    match t {
        Term::Int(e) => Term::Int(int_e(e)),
        Term::Bool(b) => Term::Bool(bool_e(b)),
        Term::Enum(e) => Term::Enum(enum_e(e)),
        // An event's name reads its latest case.
        Term::Event(_) => Term::Bool(BoolE::Lit(true)),
    }
}

fn boxed(f: BoolE) -> Box<BoolE> {
    Box::new(bool_e(f))
}

/// The formula without `at(c, …)` (its body), an event's name (true) or a probability
/// (true).
fn bool_e(f: BoolE) -> BoolE {
    match f {
        BoolE::Lit(_) | BoolE::Var(_) => f,
        BoolE::Not(a) => BoolE::Not(boxed(*a)),
        BoolE::Logic(op, a, b) => BoolE::Logic(op, boxed(*a), boxed(*b)),
        BoolE::Cmp(op, a, b) => BoolE::Cmp(op, int_e(a), int_e(b)),
        BoolE::BoolEq(eq, a, b) => BoolE::BoolEq(eq, boxed(*a), boxed(*b)),
        BoolE::EnumEq(eq, a, b) => BoolE::EnumEq(eq, enum_e(a), enum_e(b)),
        BoolE::In(e, set) => BoolE::In(int_e(e), set),
        BoolE::InRange(e, lo, hi) => BoolE::InRange(int_e(e), int_e(lo), int_e(hi)),
        BoolE::InEnum(e, set) => BoolE::InEnum(enum_e(e), set),
        BoolE::Sample(e, k, set) => BoolE::Sample(int_e(e), k, set),
        BoolE::Ite(c, a, b) => BoolE::Ite(boxed(*c), boxed(*a), boxed(*b)),
        BoolE::Quant(all, r, guard, body) => BoolE::Quant(all, r, guard, boxed(*body)),
        BoolE::Distinct(v) => BoolE::Distinct(v.into_iter().map(int_e).collect()),
        BoolE::DistinctOver(r, e) => BoolE::DistinctOver(r, int_e(e)),
        BoolE::Knows(a, f) => BoolE::Knows(a, boxed(*f)),
        BoolE::KnowsValue(a, t) => BoolE::KnowsValue(a, t.into_iter().map(term).collect()),
        BoolE::Believes(a, f) => BoolE::Believes(a, boxed(*f)),
        BoolE::BelievesValue(a, t) => BoolE::BelievesValue(a, t.into_iter().map(term).collect()),
        BoolE::At(_, f) => bool_e(*f),
        BoolE::Group(op, g, f) => BoolE::Group(op, g, boxed(*f)),
        BoolE::EventIs(..) | BoolE::Prob(_) => BoolE::Lit(true),
        BoolE::Announced {
            group,
            whether,
            diamond,
            formula,
            body,
        } => BoolE::Announced {
            group,
            whether,
            diamond,
            formula: boxed(*formula),
            body: boxed(*body),
        },
        BoolE::BoolQuant(all, vars, body) => BoolE::BoolQuant(all, vars, boxed(*body)),
    }
}

fn int_e(e: IntE) -> IntE {
    let b = |e: IntE| Box::new(int_e(e));
    match e {
        IntE::Lit(_) | IntE::Var(_) | IntE::N | IntE::K | IntE::LoopVar(_) => e,
        IntE::Neg(a) => IntE::Neg(b(*a)),
        IntE::Bin(op, x, y) => IntE::Bin(op, b(*x), b(*y)),
        IntE::Ite(c, x, y) => IntE::Ite(boxed(*c), b(*x), b(*y)),
        IntE::Abs(a) => IntE::Abs(b(*a)),
        IntE::MinMax(max, v) => IntE::MinMax(max, v.into_iter().map(int_e).collect()),
        IntE::Sum(r, a) => IntE::Sum(r, b(*a)),
        IntE::Count(r, f) => IntE::Count(r, boxed(*f)),
    }
}

fn enum_e(e: EnumE) -> EnumE {
    match e {
        EnumE::Lit(_) | EnumE::Var(_) => e,
        EnumE::Ite(c, x, y) => EnumE::Ite(boxed(*c), Box::new(enum_e(*x)), Box::new(enum_e(*y))),
    }
}
