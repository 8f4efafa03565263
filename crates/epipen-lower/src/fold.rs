//! Building IR expressions, folding operators whose operands are all literals.
//!
//! Loop variables and consts lower to literals, so folding is what makes an index like
//! `i + 1` or a condition like `i != j` a literal that lowering can use. Arithmetic
//! follows the IR's semantics exactly (SMT-LIB division, `x / 0 == 0`, `x % 0 == x`);
//! an operation that would overflow 64 bits is left unfolded.

use epipen_ir::{ArithOp, CmpOp, Expr, ExprKind, LogicOp, Ty};
use epipen_syntax::Span;

pub(super) fn int_lit(value: i64, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Int(value),
        ty: Ty::Int,
        span,
    }
}

pub(super) fn bool_lit(value: bool, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Bool(value),
        ty: Ty::Bool,
        span,
    }
}

fn int_of(e: &Expr) -> Option<i64> {
    match e.kind {
        ExprKind::Int(n) => Some(n),
        _ => None,
    }
}

fn bool_of(e: &Expr) -> Option<bool> {
    match e.kind {
        ExprKind::Bool(b) => Some(b),
        _ => None,
    }
}

/// `-a`
pub(super) fn neg(a: Expr, span: Span) -> Expr {
    if let Some(n) = int_of(&a).and_then(i64::checked_neg) {
        return int_lit(n, span);
    }
    Expr {
        kind: ExprKind::Neg(Box::new(a)),
        ty: Ty::Int,
        span,
    }
}

/// `not a`
pub(super) fn not(a: Expr, span: Span) -> Expr {
    if let Some(b) = bool_of(&a) {
        return bool_lit(!b, span);
    }
    Expr {
        kind: ExprKind::Not(Box::new(a)),
        ty: Ty::Bool,
        span,
    }
}

/// The value of `a op b` as the IR defines it ([`epipen_ir::arith`]); `None` when it
/// does not fit in an i64 (it then stays an operation, exact at run time).
pub(super) fn eval_arith(op: ArithOp, a: i64, b: i64) -> Option<i64> {
    epipen_ir::arith::checked(op, a.into(), b.into()).and_then(|v| i64::try_from(v).ok())
}

/// `a op b` on ints.
pub(super) fn arith(op: ArithOp, a: Expr, b: Expr, span: Span) -> Expr {
    if let (Some(x), Some(y)) = (int_of(&a), int_of(&b))
        && let Some(v) = eval_arith(op, x, y)
    {
        return int_lit(v, span);
    }
    Expr {
        kind: ExprKind::Arith(op, Box::new(a), Box::new(b)),
        ty: Ty::Int,
        span,
    }
}

/// `a op b` on two values of one type (ints or enums for every op, bools for `==`/`!=`).
pub(super) fn cmp(op: CmpOp, a: Expr, b: Expr, span: Span) -> Expr {
    if let (Some(x), Some(y)) = (int_of(&a), int_of(&b)) {
        return bool_lit(op.holds(&x, &y), span);
    }
    if let (Some(x), Some(y)) = (bool_of(&a), bool_of(&b)) {
        return bool_lit(op.holds(&x, &y), span);
    }
    Expr {
        kind: ExprKind::Cmp(op, Box::new(a), Box::new(b)),
        ty: Ty::Bool,
        span,
    }
}

/// `a op b` on bools.
pub(super) fn logic(op: LogicOp, a: Expr, b: Expr, span: Span) -> Expr {
    if let (Some(x), Some(y)) = (bool_of(&a), bool_of(&b)) {
        let v = match op {
            LogicOp::And => x && y,
            LogicOp::Or => x || y,
            LogicOp::Implies => !x || y,
            LogicOp::Iff => x == y,
        };
        return bool_lit(v, span);
    }
    Expr {
        kind: ExprKind::Logic(op, Box::new(a), Box::new(b)),
        ty: Ty::Bool,
        span,
    }
}

/// `if c then a else b` (a and b of one type).
pub(super) fn ite(c: Expr, a: Expr, b: Expr, span: Span) -> Expr {
    if let Some(c) = bool_of(&c) {
        let mut chosen = if c { a } else { b };
        chosen.span = span;
        return chosen;
    }
    let ty = a.ty;
    Expr {
        kind: ExprKind::Ite(Box::new(c), Box::new(a), Box::new(b)),
        ty,
        span,
    }
}

/// `(t1, …, tn) in {(…), …}`
pub(super) fn membership(tuple: Vec<Expr>, set: Vec<Vec<Expr>>, span: Span) -> Expr {
    let literal = |e: &Expr| matches!(e.kind, ExprKind::Int(_) | ExprKind::Bool(_));
    if tuple.iter().chain(set.iter().flatten()).all(literal) {
        let found = set
            .iter()
            .any(|item| item.iter().zip(&tuple).all(|(a, b)| a.kind == b.kind));
        return bool_lit(found, span);
    }
    Expr {
        kind: ExprKind::In { tuple, set },
        ty: Ty::Bool,
        span,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_stops_at_64_bits() {
        use ArithOp::*;
        assert_eq!(eval_arith(Div, -7, 2), Some(-4));
        assert_eq!(eval_arith(Mod, 5, 0), Some(5));
        assert_eq!(eval_arith(Add, i64::MAX, 1), None);
        assert_eq!(eval_arith(Div, i64::MIN, -1), None);
        assert_eq!(eval_arith(Mul, i64::MIN, i64::MIN), None);
    }

    #[test]
    fn folds_only_literals() {
        let s = Span::default();
        let x = Expr {
            kind: ExprKind::Const(epipen_ir::ConstId(0)),
            ty: Ty::Int,
            span: s,
        };
        assert_eq!(
            arith(ArithOp::Add, int_lit(2, s), int_lit(3, s), s).kind,
            ExprKind::Int(5)
        );
        assert!(matches!(
            arith(ArithOp::Add, x.clone(), int_lit(3, s), s).kind,
            ExprKind::Arith(..)
        ));
        assert_eq!(
            neg(int_lit(i64::MIN, s), s).kind,
            ExprKind::Neg(Box::new(int_lit(i64::MIN, s)))
        );
        assert_eq!(
            cmp(CmpOp::Le, int_lit(2, s), int_lit(2, s), s).kind,
            ExprKind::Bool(true)
        );
        assert_eq!(
            logic(LogicOp::Implies, bool_lit(false, s), bool_lit(false, s), s).kind,
            ExprKind::Bool(true)
        );
        assert_eq!(
            ite(bool_lit(false, s), x.clone(), int_lit(1, s), s).kind,
            ExprKind::Int(1)
        );
        assert_eq!(
            membership(
                vec![int_lit(2, s)],
                vec![vec![int_lit(1, s)], vec![int_lit(2, s)]],
                s
            )
            .kind,
            ExprKind::Bool(true)
        );
        assert!(matches!(
            membership(vec![x], vec![vec![int_lit(1, s)]], s).kind,
            ExprKind::In { .. }
        ));
    }
}
