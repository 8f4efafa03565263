//! Bounded beside unbounded (issue 32): the conjuncts of a formula that multiply,
//! divide or take the modulus of constants (non-linear arithmetic), together with the
//! conjuncts over the same constants, listed by the explicit search when they bound
//! those constants to a few values, so that the Z3 route can read them as the finite
//! disjunction of their solutions (`(a, b, c) in {…}`), which is linear.

use super::bound::Interval;
use super::search::{self, Limits, constants_of, split};
use super::universe::{exact, type_box};
use crate::ir::{ArithOp, Expr, ExprKind, Program, Ty};

/// The conjuncts of a formula over a few constants, as the list of their solutions: the
/// formula is equivalent to `rest ∧ (consts) in assignments`, in every world.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cases {
    /// The constants the listed conjuncts mention (indices, ascending).
    pub consts: Vec<usize>,
    /// Every assignment of `consts` that satisfies the listed conjuncts (bools 0 and 1),
    /// in lexicographic order.
    pub assignments: Vec<Vec<i64>>,
    /// The other conjuncts.
    pub rest: Vec<Expr>,
}

/// The most search steps the listing may take (the explicit backend's small budget's
/// order of magnitude: the listing runs for every non-linear announcement on Z3).
const MAX_WORK: usize = 2_000_000;

/// `e`'s non-linear conjuncts and the conjuncts over their constants alone, listed when
/// they have at most `cap` solutions (and the search bounds every one of those
/// constants). None when `e` has no non-linear conjunct, mentions knowledge, events or
/// quantifiers, or the conjuncts over those constants are not so bounded.
pub(crate) fn cases_of(
    program: &Program,
    e: &Expr,
    cap: usize,
    deadline: Option<std::time::Instant>,
    cancel: &crate::Cancel,
) -> Option<Cases> {
    if !plain(e) {
        return None;
    }
    let mut conjuncts = Vec::new();
    split(e, &mut conjuncts);
    let nonlinear: Vec<&Expr> = conjuncts.iter().filter(|c| is_nonlinear(c)).collect();
    if nonlinear.is_empty() {
        return None;
    }
    let mut consts: Vec<usize> = nonlinear.iter().flat_map(|c| constants_of(c)).collect();
    consts.sort_unstable();
    consts.dedup();
    let (listed, rest): (Vec<Expr>, Vec<Expr>) = conjuncts
        .into_iter()
        .partition(|c| constants_of(c).iter().all(|k| consts.contains(k)));
    // The other constants are fixed at 0: the listed conjuncts do not mention them.
    let mut start = type_box(program);
    for (k, d) in start.iter_mut().enumerate() {
        if !consts.contains(&k) {
            *d = Interval::point(0);
        }
    }
    let types: Vec<Ty> = program.constants.iter().map(|c| c.ty).collect();
    let limits = Limits {
        max_worlds: cap,
        max_nodes: MAX_WORK,
        max_work: MAX_WORK,
        deadline,
        cancel: cancel.clone(),
    };
    let refs: Vec<&Expr> = listed.iter().collect();
    let mut overflow = false;
    let found = search::solve(&refs, start, &types, &limits, &mut |x, point| {
        let v = exact(x, point);
        overflow |= v.is_none();
        v
    });
    let (columns, n, _) = match found {
        Ok(found) if !overflow => found,
        Ok(_) => return None,
        Err(stop) => {
            tracing::debug!(?stop, "the non-linear conjuncts are not listed as cases");
            return None;
        }
    };
    let assignments = (0..n)
        .map(|w| consts.iter().map(|&k| columns[k].get(w)).collect())
        .collect();
    Some(Cases {
        consts,
        assignments,
        rest,
    })
}

/// Made of constants, literals, arithmetic, comparisons and connectives only.
fn plain(e: &Expr) -> bool {
    e.walk(&mut |x| match x.kind {
        ExprKind::Int(_)
        | ExprKind::Bool(_)
        | ExprKind::Const(_)
        | ExprKind::Neg(_)
        | ExprKind::Not(_)
        | ExprKind::Arith(..)
        | ExprKind::Cmp(..)
        | ExprKind::Logic(..)
        | ExprKind::Ite(..)
        | ExprKind::In { .. } => Ok(()),
        _ => Err(()),
    })
    .is_ok()
}

/// Whether `e` multiplies two non-literals or divides by one.
pub(crate) fn is_nonlinear(e: &Expr) -> bool {
    let literal = |x: &Expr| matches!(x.kind, ExprKind::Int(_));
    e.walk(&mut |x| match &x.kind {
        ExprKind::Arith(ArithOp::Mul, a, b) if !literal(a) && !literal(b) => Err(()),
        ExprKind::Arith(ArithOp::Div | ArithOp::Mod, _, b) if !literal(b) => Err(()),
        _ => Ok(()),
    })
    .is_err()
}
