//! Formulas normalised before they are evaluated, so that equivalent phrasings cost the
//! same: knowing that φ or knowing that not φ is knowing whether φ (one knowledge
//! operator, not two), and a count of conditions compared with none, one or all of them
//! is `any` or `all` of them (connectives a backend can take world by world, where a
//! count is a sum it must build). Each rewrite is an identity of the language's
//! semantics; the brute-force evaluator reads the formulas as written, so the fuzzer
//! compares the two.

use crate::ir::{ArithOp, CmpOp, Expr, ExprKind, LogicOp, Ty};

/// `e` normalised, or None when nothing changes.
pub(crate) fn normal(e: &Expr) -> Option<Expr> {
    let kind = match &e.kind {
        ExprKind::Not(a) => ExprKind::Not(Box::new(normal(a)?)),
        ExprKind::Logic(op, a, b) => {
            let (na, nb) = (normal(a), normal(b));
            let (a2, b2) = (na.as_ref().unwrap_or(a), nb.as_ref().unwrap_or(b));
            if *op == LogicOp::Or
                && let Some(whether) = knows_whether(a2, b2)
            {
                return Some(Expr {
                    kind: whether,
                    ty: e.ty,
                    span: e.span,
                });
            }
            if na.is_none() && nb.is_none() {
                return None;
            }
            ExprKind::Logic(*op, Box::new(a2.clone()), Box::new(b2.clone()))
        }
        ExprKind::Ite(c, a, b) if e.ty == Ty::Bool => {
            let (nc, na, nb) = (normal(c), normal(a), normal(b));
            if nc.is_none() && na.is_none() && nb.is_none() {
                return None;
            }
            ExprKind::Ite(
                Box::new(nc.unwrap_or_else(|| (**c).clone())),
                Box::new(na.unwrap_or_else(|| (**a).clone())),
                Box::new(nb.unwrap_or_else(|| (**b).clone())),
            )
        }
        ExprKind::Cmp(op, a, b) => return counted(*op, a, b, e),
        ExprKind::Knows { agent, formula } => ExprKind::Knows {
            agent: *agent,
            formula: Box::new(normal(formula)?),
        },
        ExprKind::Believes { agent, formula } => ExprKind::Believes {
            agent: *agent,
            formula: Box::new(normal(formula)?),
        },
        ExprKind::At { checkpoint, body } => ExprKind::At {
            checkpoint: *checkpoint,
            body: Box::new(normal(body)?),
        },
        ExprKind::Group {
            op,
            agents,
            formula,
        } => ExprKind::Group {
            op: *op,
            agents: agents.clone(),
            formula: Box::new(normal(formula)?),
        },
        _ => return None,
    };
    Some(Expr {
        kind,
        ty: e.ty,
        span: e.span,
    })
}

/// `knows(A, φ) or knows(A, not φ)` (either order): `knows_value(A, φ)`.
fn knows_whether(a: &Expr, b: &Expr) -> Option<ExprKind> {
    let (
        ExprKind::Knows {
            agent: x,
            formula: f,
        },
        ExprKind::Knows {
            agent: y,
            formula: g,
        },
    ) = (&a.kind, &b.kind)
    else {
        return None;
    };
    if x != y {
        return None;
    }
    let negation = |p: &Expr, q: &Expr| matches!(&q.kind, ExprKind::Not(inner) if same(p, inner));
    if !negation(f, g) && !negation(g, f) {
        return None;
    }
    // The positive one: φ (when g is not φ, f is; and the other way).
    let phi = match &g.kind {
        ExprKind::Not(inner) if same(f, inner) => f,
        _ => g,
    };
    Some(ExprKind::KnowsValue {
        agent: *x,
        exprs: vec![(**phi).clone()],
    })
}

/// Whether two expressions are the same but for where they are written.
fn same(a: &Expr, b: &Expr) -> bool {
    a.ty == b.ty && unplaced(a) == unplaced(b)
}

fn unplaced(e: &Expr) -> String {
    // The debug form without spans: the IR prints spans as `span: Span { … }`.
    let text = format!("{:?}", e.kind);
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(k) = rest.find("span: Span {") {
        out.push_str(&rest[..k]);
        let tail = &rest[k..];
        let end = tail.find('}').map_or(tail.len(), |j| j + 1);
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// A comparison of a count of conditions (`count(…)`, lowered to a sum of `if c then 1
/// else 0`, constants folded in) with a number that makes it `any` or `all` of them, or
/// their negation; None for any other comparison.
fn counted(op: CmpOp, a: &Expr, b: &Expr, e: &Expr) -> Option<Expr> {
    let (op, sum, k) = match (&a.kind, &b.kind) {
        (_, ExprKind::Int(k)) => (op, a, *k),
        (ExprKind::Int(k), _) => (flip(op), b, *k),
        _ => return None,
    };
    let mut conditions = Vec::new();
    let mut base: i64 = 0;
    if !terms(sum, &mut conditions, &mut base) || conditions.is_empty() {
        return None;
    }
    let m = conditions.len() as i64;
    let t = k.checked_sub(base)?;
    enum Is {
        Any,
        All,
        NotAny,
        NotAll,
    }
    let is = match op {
        CmpOp::Eq if t == m => Is::All,
        CmpOp::Eq if t == 0 => Is::NotAny,
        CmpOp::Ne if t == m => Is::NotAll,
        CmpOp::Ne if t == 0 => Is::Any,
        CmpOp::Ge if t == m => Is::All,
        CmpOp::Ge if t == 1 => Is::Any,
        CmpOp::Gt if t == m - 1 => Is::All,
        CmpOp::Gt if t == 0 => Is::Any,
        CmpOp::Le if t == m - 1 => Is::NotAll,
        CmpOp::Le if t == 0 => Is::NotAny,
        CmpOp::Lt if t == m => Is::NotAll,
        CmpOp::Lt if t == 1 => Is::NotAny,
        _ => return None,
    };
    let conditions: Vec<Expr> = (conditions.into_iter())
        .map(|c| normal(c).unwrap_or_else(|| c.clone()))
        .collect();
    let (joined, negated) = match is {
        Is::Any => (chain(LogicOp::Or, conditions, e), false),
        Is::All => (chain(LogicOp::And, conditions, e), false),
        Is::NotAny => (chain(LogicOp::Or, conditions, e), true),
        Is::NotAll => (chain(LogicOp::And, conditions, e), true),
    };
    Some(match negated {
        false => joined,
        true => Expr {
            kind: ExprKind::Not(Box::new(joined)),
            ty: Ty::Bool,
            span: e.span,
        },
    })
}

/// The conditions of a sum of `if c then 1 else 0` (and int literals, added to `base`);
/// false when it is not one.
fn terms<'e>(e: &'e Expr, conditions: &mut Vec<&'e Expr>, base: &mut i64) -> bool {
    match &e.kind {
        ExprKind::Arith(ArithOp::Add, a, b) => {
            terms(a, conditions, base) && terms(b, conditions, base)
        }
        ExprKind::Int(n) => match base.checked_add(*n) {
            Some(sum) => {
                *base = sum;
                true
            }
            None => false,
        },
        ExprKind::Ite(c, one, zero)
            if matches!(one.kind, ExprKind::Int(1)) && matches!(zero.kind, ExprKind::Int(0)) =>
        {
            conditions.push(c);
            true
        }
        _ => false,
    }
}

/// `k op s` as `s op' k`.
fn flip(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        same => same,
    }
}

/// The conjunction or disjunction of `items` (at least one), as a balanced tree so that a
/// long one is not too deep to walk.
fn chain(op: LogicOp, mut items: Vec<Expr>, e: &Expr) -> Expr {
    if items.len() == 1 {
        return items.pop().expect("an item");
    }
    let right = items.split_off(items.len() / 2);
    Expr {
        kind: ExprKind::Logic(
            op,
            Box::new(chain(op, items, e)),
            Box::new(chain(op, right, e)),
        ),
        ty: Ty::Bool,
        span: e.span,
    }
}

#[cfg(test)]
mod tests {
    use super::normal;

    fn normalised(story: &str, what: &str) -> String {
        let program = epipen_lower::compile(story, &[]).expect("the story compiles");
        let e = (program.statements.iter())
            .find_map(|s| match &s.kind {
                crate::ir::StmtKind::Check(e) => Some(e.clone()),
                _ => None,
            })
            .expect("a check");
        match normal(&e) {
            Some(n) => format!("{what}: {}", program.show(&n, None)),
            None => format!("{what}: unchanged"),
        }
    }

    #[test]
    fn equivalent_phrasings_become_one() {
        let head = "characters A, B\nbool p[3]\n";
        let cases = [
            (
                "knows(A, p[0]) or knows(A, not p[0])",
                "knows_value(A, p[0])",
            ),
            (
                "knows(A, not p[1]) or knows(A, p[1])",
                "knows_value(A, p[1])",
            ),
            ("knows(A, p[0]) or knows(B, not p[0])", "unchanged"),
            ("count(i in 0..3: p[i]) >= 1", "p[0] or (p[1] or p[2])"),
            ("count(i in 0..3: p[i]) == 3", "p[0] and (p[1] and p[2])"),
            ("3 == count(i in 0..3: p[i])", "p[0] and (p[1] and p[2])"),
            (
                "count(i in 0..3: p[i]) == 0",
                "not (p[0] or (p[1] or p[2]))",
            ),
            (
                "count(i in 0..3: p[i]) < 3",
                "not (p[0] and (p[1] and p[2]))",
            ),
            ("count(i in 0..3: p[i]) == 2", "unchanged"),
            (
                "count(i in 0..3: knows(A, p[i]) or knows(A, not p[i])) == 3",
                "knows_value(A, p[0]) and (knows_value(A, p[1]) and knows_value(A, p[2]))",
            ),
        ];
        for (written, expected) in cases {
            let got = normalised(&format!("{head}check {written}\n"), written);
            assert_eq!(got, format!("{written}: {expected}"));
        }
    }
}
