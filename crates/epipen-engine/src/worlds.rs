//! Possible worlds: values, their canonical order, how a world is named in messages.

use crate::ir::{CmpOp, ConstId, Constant, Expr, ExprKind, LogicOp, Program, Ty, arith};
use num_rational::BigRational;

pub use crate::ir::{Value, World};

/// The worlds found, sorted, and whether the solver proved there are no others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldSet {
    pub worlds: Vec<World>,
    pub complete: bool,
    /// When the story changed constants (`x := e`): each world's values at its start
    /// (two worlds may have the same values now and differ in their past).
    pub before: Option<Vec<World>>,
    /// When the story speaks of chances: each world's probability among the worlds
    /// still possible (the storyteller's).
    pub chances: Option<Vec<BigRational>>,
}

/// How many worlds are possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WorldCount {
    Exactly(u64),
    /// The solver proved some int constant unbounded.
    Infinite,
    /// More than this many, and the solver could not say whether finitely many.
    MoreThan(u64),
}

impl std::fmt::Display for WorldCount {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WorldCount::Exactly(1) => write!(f, "1 world"),
            WorldCount::Exactly(n) => write!(f, "{n} worlds"),
            WorldCount::Infinite => write!(f, "infinitely many worlds"),
            WorldCount::MoreThan(1) => write!(f, "more than one world"),
            WorldCount::MoreThan(n) => write!(f, "more than {n} worlds"),
        }
    }
}

/// The epistemic model of a finite knowledge state: its worlds in canonical order and,
/// for each character, what it observes in each world (the values of what it learned,
/// see [`observations`]). A character cannot tell two worlds apart when its
/// observations there are equal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Model {
    pub worlds: Vec<World>,
    /// As in [`WorldSet::before`].
    pub before: Option<Vec<World>>,
    /// `views[c][w]`: what character `c` observes in `worlds[w]`.
    pub views: Vec<Vec<Vec<Value>>>,
    /// `ranks[c][w]`: the plausibility rank of `worlds[w]` for character `c`, a tuple
    /// compared lexicographically, lower more plausible (empty: every world equally
    /// plausible).
    pub ranks: Vec<Vec<Vec<i64>>>,
    /// As in [`WorldSet::chances`].
    pub chances: Option<Vec<BigRational>>,
}

/// One thing a character learned, as observed in each world of a [`Model`]: the values
/// themselves when they all fit in 64 bits, else their ranks among the values observed
/// (views are only compared for equality, and `x * x` may go beyond 64 bits).
pub fn observations<T: Ord + Clone>(column: &[T], small: impl Fn(&T) -> Option<i64>) -> Vec<Value> {
    if let Some(values) = column.iter().map(&small).collect::<Option<Vec<i64>>>() {
        return values.into_iter().map(Value::Int).collect();
    }
    let mut distinct = column.to_vec();
    distinct.sort();
    distinct.dedup();
    column
        .iter()
        .map(|x| Value::Int(distinct.binary_search(x).map_or(-1, |k| k as i64)))
        .collect()
}

/// A value as stories write it: enum values by their variant's name.
pub fn show_value(program: &Program, ty: Ty, value: Value) -> String {
    match (ty, value) {
        (Ty::Enum(e), Value::Int(i)) => usize::try_from(i)
            .ok()
            .and_then(|i| program.enums[e.0].variants.get(i))
            .cloned()
            .unwrap_or_else(|| i.to_string()),
        _ => value.to_string(),
    }
}

/// `month = 7, day = 16`
/// (Events that have not happened are not shown.)
pub fn world_line(program: &Program, values: &[Value]) -> String {
    world_line_since(program, values, values)
}

/// `x = 4 (was 3), y = 2`: a world of a story that changed constants, with the values
/// at its start of those that changed (two worlds may be alike now and differ in their
/// past).
pub fn world_line_since(program: &Program, now: &[Value], before: &[Value]) -> String {
    let shown: Vec<String> = (program.constants.iter().zip(now).zip(before).enumerate())
        .filter(|(k, ((_, v), _))| program.shows(ConstId(*k), **v))
        .map(|(_, ((c, v), was))| match v == was {
            true => format!("{} = {}", c.name, show_value(program, c.ty, *v)),
            false => format!(
                "{} = {} (was {})",
                c.name,
                show_value(program, c.ty, *v),
                show_value(program, c.ty, *was)
            ),
        })
        .collect();
    match shown.is_empty() {
        // No constant, or only those a world does not show (a plan's steps, events
        // that have not happened), as views say it.
        true => "(no constants)".into(),
        false => shown.join(", "),
    }
}

/// The constants a world shows, with their values: every constant but the occurrences
/// of events that have not happened.
pub fn shown<'a>(
    program: &'a Program,
    values: &'a [Value],
) -> impl Iterator<Item = (&'a Constant, &'a Value)> + 'a {
    (program.constants.iter().zip(values).enumerate())
        .filter(|(k, (_, v))| program.shows(ConstId(*k), **v))
        .map(|(_, cv)| cv)
}

/// Evaluates an expression without knowledge operators in a world, with the engine's
/// semantics (mathematical integers, exact however large on the way; `None` when the
/// value itself leaves 64 bits).
pub fn value_of(e: &Expr, world: &[Value]) -> Option<Value> {
    Some(match exact_value(e, world, &mut Met::default())? {
        Exact::Int(n) => Value::Int(n.to_i64()?),
        Exact::Bool(b) => Value::Bool(b),
    })
}

/// The values of `terms` in `world`, their shared subexpressions computed once for all
/// (a changed constant's term reads the others' earlier terms); None when one of them
/// leaves 64 bits, as [`value_of`].
pub fn values_of(terms: &[Expr], world: &[Value]) -> Option<Vec<Value>> {
    let mut met = Met::default();
    let mut out = Vec::with_capacity(terms.len());
    for t in terms {
        out.push(match t.kind {
            // A constant not changed: most of them.
            ExprKind::Const(c) => *world.get(c.0)?,
            _ => match exact_value(t, world, &mut met)? {
                Exact::Int(n) => Value::Int(n.to_i64()?),
                Exact::Bool(b) => Value::Bool(b),
            },
        });
    }
    Some(out)
}

/// A value on the way: ints exact.
#[derive(Clone, PartialEq, Eq)]
enum Exact {
    Int(arith::Integer),
    Bool(bool),
}

/// The values of the shared subexpressions met so far in one world.
type Met = crate::FastMap<*const Expr, Option<Exact>>;

fn exact_int(e: &Expr, world: &[Value], met: &mut Met) -> Option<arith::Integer> {
    match exact_value(e, world, met)? {
        Exact::Int(n) => Some(n),
        Exact::Bool(_) => None,
    }
}

fn exact_bool(e: &Expr, world: &[Value], met: &mut Met) -> Option<bool> {
    match exact_value(e, world, met)? {
        Exact::Bool(b) => Some(b),
        Exact::Int(_) => None,
    }
}

fn exact_value(e: &Expr, world: &[Value], met: &mut Met) -> Option<Exact> {
    Some(match &e.kind {
        ExprKind::Int(n) => Exact::Int((*n).into()),
        ExprKind::Bool(b) => Exact::Bool(*b),
        ExprKind::Const(c) => match *world.get(c.0)? {
            Value::Int(n) => Exact::Int(n.into()),
            Value::Bool(b) => Exact::Bool(b),
        },
        ExprKind::Latest(_) => return None,
        ExprKind::Shared(inner) => {
            let key = std::sync::Arc::as_ptr(inner);
            if let Some(v) = met.get(&key) {
                return v.clone();
            }
            let v = exact_value(inner, world, met);
            met.insert(key, v.clone());
            v?
        }
        ExprKind::Neg(a) => Exact::Int(exact_int(a, world, met)?.neg()),
        ExprKind::Not(a) => Exact::Bool(!exact_bool(a, world, met)?),
        ExprKind::Arith(op, a, b) => {
            Exact::Int(exact_int(a, world, met)?.arith(*op, &exact_int(b, world, met)?))
        }
        ExprKind::Cmp(op, a, b) => {
            let (a, b) = (exact_value(a, world, met)?, exact_value(b, world, met)?);
            Exact::Bool(match (op, a, b) {
                (CmpOp::Eq, a, b) => a == b,
                (CmpOp::Ne, a, b) => a != b,
                (op, Exact::Int(a), Exact::Int(b)) => match op {
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Gt => a > b,
                    _ => a >= b,
                },
                _ => return None,
            })
        }
        ExprKind::Logic(op, a, b) => {
            let (a, b) = (exact_bool(a, world, met)?, exact_bool(b, world, met)?);
            Exact::Bool(match op {
                LogicOp::And => a && b,
                LogicOp::Or => a || b,
                LogicOp::Implies => !a || b,
                LogicOp::Iff => a == b,
            })
        }
        ExprKind::Ite(c, a, b) => {
            if exact_bool(c, world, met)? {
                exact_value(a, world, met)?
            } else {
                exact_value(b, world, met)?
            }
        }
        ExprKind::In { tuple, set } => {
            let t: Vec<Exact> = tuple
                .iter()
                .map(|x| exact_value(x, world, met))
                .collect::<Option<_>>()?;
            let mut found = false;
            for row in set {
                let r: Vec<Exact> = row
                    .iter()
                    .map(|x| exact_value(x, world, met))
                    .collect::<Option<_>>()?;
                found |= r == t;
            }
            Exact::Bool(found)
        }
        ExprKind::Knows { .. }
        | ExprKind::KnowsValue { .. }
        | ExprKind::Believes { .. }
        | ExprKind::BelievesValue { .. }
        | ExprKind::At { .. }
        | ExprKind::Group { .. }
        | ExprKind::Chance { .. }
        | ExprKind::Announced { .. } => return None,
        ExprKind::Quantified {
            forall,
            consts,
            body,
        } => {
            let mut changed = world.to_vec();
            let mut all = *forall;
            for bits in 0..1u64.checked_shl(u32::try_from(consts.len()).ok()?)? {
                for (k, c) in consts.iter().enumerate() {
                    *changed.get_mut(c.0)? = Value::Bool((bits >> k) & 1 == 1);
                }
                if exact_bool(body, &changed, &mut Met::default())? != *forall {
                    all = !*forall;
                    break;
                }
            }
            Exact::Bool(all)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(values: &[i64]) -> World {
        World(values.iter().map(|&n| Value::Int(n)).collect())
    }

    #[test]
    fn canonical_order_is_magnitude_then_values() {
        let mut ws = vec![w(&[3, 0]), w(&[-1, 1]), w(&[1, -1]), w(&[0, 0]), w(&[2, 2])];
        ws.sort();
        assert_eq!(
            ws,
            vec![w(&[0, 0]), w(&[-1, 1]), w(&[1, -1]), w(&[2, 2]), w(&[3, 0])]
        );
    }
}
