use super::*;
use crate::ir::*;
use crate::syntax::Span;
use crate::worlds::Value;

/// A small deterministic random source for the randomised tests (xorshift64): `next(n)`
/// is a number below `n`.
pub(crate) fn xorshift(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}

fn e(kind: ExprKind, ty: Ty) -> Expr {
    Expr {
        kind,
        ty,
        span: Span::default(),
    }
}
fn c(i: usize) -> Expr {
    e(ExprKind::Const(ConstId(i)), Ty::Int)
}
fn n(v: i64) -> Expr {
    e(ExprKind::Int(v), Ty::Int)
}
fn not(x: Expr) -> Expr {
    e(ExprKind::Not(Box::new(x)), Ty::Bool)
}
fn kv(a: usize, xs: Vec<Expr>) -> Expr {
    e(
        ExprKind::KnowsValue {
            agent: CharId(a),
            exprs: xs,
        },
        Ty::Bool,
    )
}
fn stmt(kind: StmtKind) -> Stmt {
    Stmt {
        kind,
        span: Span::default(),
        loops: Vec::new(),
    }
}
fn says(a: Option<usize>, f: Expr) -> Stmt {
    stmt(StmtKind::Announce {
        speaker: a.map(CharId),
        formula: f,
    })
}
fn ints(values: &[(i64, i64)]) -> Vec<World> {
    values
        .iter()
        .map(|&(a, b)| World(vec![Value::Int(a), Value::Int(b)]))
        .collect()
}

fn two_chars_two_ints(first: Expr, mul: bool, dialogue: Vec<Stmt>) -> Program {
    let ch = |n: &str| Character {
        name: n.into(),
        span: Span::default(),
    };
    let k = |n: &str| Constant {
        name: n.into(),
        ty: Ty::Int,
        span: Span::default(),
        occurrence: None,
    };
    let learn1 = if mul {
        e(
            ExprKind::Arith(ArithOp::Mul, Box::new(c(0)), Box::new(c(1))),
            Ty::Int,
        )
    } else {
        c(0)
    };
    let learn2 = if mul {
        e(
            ExprKind::Arith(ArithOp::Add, Box::new(c(0)), Box::new(c(1))),
            Ty::Int,
        )
    } else {
        c(1)
    };
    let mut statements = vec![
        says(None, first),
        stmt(StmtKind::Learn {
            who: CharId(0),
            what: learn1,
        }),
        stmt(StmtKind::Learn {
            who: CharId(1),
            what: learn2,
        }),
    ];
    statements.extend(dialogue);
    Program {
        characters: vec![ch("A"), ch("B")],
        constants: vec![k("x"), k("y")],
        checkpoints: vec![],
        enums: vec![],
        events: vec![],
        actions: vec![],
        plan_steps: None,
        statements,
        samples: Vec::new(),
        backend: None,
    }
}

fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
    e(ExprKind::Cmp(op, Box::new(a), Box::new(b)), Ty::Bool)
}
fn and(a: Expr, b: Expr) -> Expr {
    e(
        ExprKind::Logic(LogicOp::And, Box::new(a), Box::new(b)),
        Ty::Bool,
    )
}
fn or(a: Expr, b: Expr) -> Expr {
    e(
        ExprKind::Logic(LogicOp::Or, Box::new(a), Box::new(b)),
        Ty::Bool,
    )
}
fn plus1(x: Expr) -> Expr {
    e(
        ExprKind::Arith(ArithOp::Add, Box::new(x), Box::new(n(1))),
        Ty::Int,
    )
}

/// Consecutive numbers (linear: the quantifier-elimination route, infinite worlds).
#[test]
fn consecutive_numbers() {
    let first = and(
        and(cmp(CmpOp::Ge, c(0), n(0)), cmp(CmpOp::Ge, c(1), n(0))),
        or(
            cmp(CmpOp::Eq, c(0), plus1(c(1))),
            cmp(CmpOp::Eq, c(1), plus1(c(0))),
        ),
    );
    let dialogue = vec![
        says(Some(0), not(kv(0, vec![c(1)]))),
        says(Some(1), not(kv(1, vec![c(0)]))),
        says(Some(0), kv(0, vec![c(1)])),
        says(Some(1), kv(1, vec![c(0)])),
    ];
    let program = two_chars_two_ints(first.clone(), false, dialogue.clone());
    let set = solve(&program, 10).unwrap();
    assert_eq!(
        set,
        WorldSet {
            chances: None,
            before: None,
            worlds: ints(&[(1, 2), (2, 3)]),
            complete: true
        }
    );
    // After two announcements the worlds are still infinitely many.
    let program = two_chars_two_ints(first, false, dialogue[..2].to_vec());
    let set = solve(&program, 3).unwrap();
    // Gone: (0, 1), (1, 0) (Anne or Bill would know) and (2, 1) (Bill would know, as A = 0 is gone).
    assert_eq!(
        set,
        WorldSet {
            chances: None,
            before: None,
            worlds: ints(&[(1, 2), (2, 3), (3, 2)]),
            complete: false
        }
    );
}

/// A small sum-and-product (non-linear: the finite-domain route).
#[test]
fn sum_and_product_small() {
    // 1 <= x <= y <= 6; A learns x*y, B learns x+y; A: "I don't know"; B: "I knew".
    let first = and(
        and(cmp(CmpOp::Ge, c(0), n(1)), cmp(CmpOp::Le, c(0), c(1))),
        cmp(CmpOp::Le, c(1), n(6)),
    );
    let dialogue = vec![
        says(Some(0), not(kv(0, vec![c(0), c(1)]))),
        says(Some(0), kv(0, vec![c(0), c(1)])),
    ];
    let program = two_chars_two_ints(first, true, dialogue);
    // Products with two factorisations in range: 4 = 1*4 = 2*2, 6 = 1*6 = 2*3, 12 = 2*6 = 3*4.
    // After "I don't know", A can't know: contradiction, no worlds.
    let set = solve(&program, 10).unwrap();
    assert_eq!(
        set,
        WorldSet {
            chances: None,
            before: None,
            worlds: vec![],
            complete: true
        }
    );
}
