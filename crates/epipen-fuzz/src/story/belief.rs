//! Belief (issue 20) in the story AST, and its strategies: `believes(A, φ)` and
//! `believes_value(A, e, …)` beside `knows`, `A expects φ` statements (φ with and
//! without knowledge and belief), laws of knowledge and belief in checks. The events'
//! `expects` lines are in `event.rs` (`Event::expects`).

use proptest::collection::vec;
use proptest::prelude::*;

use super::{BoolE, Stmt, agent, epistemic_bool, group, group_op, plain_bool, term};

/// `believes(agent, φ)`, φ from `inner`.
pub fn believes(inner: BoxedStrategy<BoolE>) -> impl Strategy<Value = BoolE> {
    (agent(), inner).prop_map(|(a, f)| BoolE::Believes(a, Box::new(f)))
}

/// `believes_value(agent, e, …)` of 1 or 2 values (an event's name too).
pub fn believes_value() -> impl Strategy<Value = BoolE> {
    (agent(), vec(term(plain_bool()), 1..=2)).prop_map(|(a, t)| BoolE::BelievesValue(a, t))
}

/// What a speaker can always reveal about its own beliefs (it knows what it believes):
/// `believes(φ)`, `believes_value(e)`, `believes(knows(φ))`, `believes(E_G φ)`.
pub fn own_belief() -> impl Strategy<Value = BoolE> {
    prop_oneof![
        3 => plain_bool().prop_map(|f| BoolE::Believes(None, Box::new(f))),
        2 => vec(term(plain_bool()), 1..=2).prop_map(|t| BoolE::BelievesValue(None, t)),
        1 => plain_bool().prop_map(|f| {
            BoolE::Believes(None, Box::new(BoolE::Knows(None, Box::new(f))))
        }),
        1 => (group_op(), group(), plain_bool()).prop_map(|(op, g, f)| {
            BoolE::Believes(None, Box::new(BoolE::Group(op, g, Box::new(f))))
        }),
    ]
}

/// `A expects φ`: φ knowledge-free (most often), or with knowledge and belief.
pub fn expects() -> impl Strategy<Value = Stmt> {
    let what = prop_oneof![
        3 => plain_bool(),
        2 => epistemic_bool(),
    ];
    (0u8..5, what).prop_map(|(a, f)| Stmt::Expects(a, f))
}
