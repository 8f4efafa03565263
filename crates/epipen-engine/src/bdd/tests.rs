use std::rc::Rc;

use super::space::Kind;
use super::value::{Partition, Val};
use super::*;
use crate::driver::Backend;
use crate::ir::arith::Integer;
use crate::ir::{ArithOp, CmpOp, StmtKind};
use crate::{Counterexample, Engine, Report, Strategy};

fn compile(source: &str) -> Rc<Program> {
    Rc::new(epipen_lower::compile(source, &[]).expect("the story compiles"))
}

fn bdd_engine(program: &Rc<Program>, options: Options) -> Engine {
    let options = Options {
        strategy: Strategy::Bdd,
        ..options
    };
    let engine = Engine::new(program.clone(), &options);
    assert_eq!(engine.backend(), "bdd", "the BDD backend takes the story");
    engine
}

/// Every world Z3 keeps at the program's end, in canonical order: another backend to
/// cross-check against (the brute-force evaluator, which stays independent of the
/// engine, does so from tests/agreement.rs and tests/fuzz.rs).
fn by_z3(program: &Program) -> Vec<World> {
    let options = Options {
        strategy: Strategy::Z3,
        skip_worlds_statements: true,
        ..Options::default()
    };
    let mut engine = Engine::new(Rc::new(program.clone()), &options);
    engine.run(&mut |_| {}).expect("Z3 runs the story");
    let set = engine.worlds(u64::MAX).expect("Z3's worlds");
    assert!(set.complete);
    set.worlds
}

const MIXED: &str = "enum Colour { red, green, blue }
enum Size { xs, s, m, l, xl }
bool p
Colour c
Size z
bool q
Colour d
";

#[test]
fn worlds_come_in_canonical_order_with_bools_and_enums() {
    // 2 · 3 · 5 · 2 · 3 = 180 worlds, in magnitude layers 0..=4.
    for extra in [
        "",
        "announce c != d or (p and z != l)\n",
        "announce z == xl\n",
    ] {
        let program = compile(&format!("{MIXED}{extra}"));
        let expected = by_z3(&program);
        let mut engine = bdd_engine(&program, Options::default());
        engine.run(&mut |_| {}).expect("the story runs");
        for limit in [0, 1, 2, 7, 40, expected.len() - 1, expected.len(), 1000] {
            let set = engine.worlds(limit as u64).expect("worlds");
            let n = limit.min(expected.len());
            assert_eq!(set.worlds, expected[..n], "limit {limit}, story:\n{extra}");
            assert_eq!(set.complete, limit >= expected.len(), "limit {limit}");
        }
    }
}

/// Families interleaved by index put the bits in another order than the declarations;
/// the worlds still come in canonical order.
#[test]
fn worlds_come_in_canonical_order_when_families_are_interleaved() {
    let story = "enum Colour { red, green, blue }
bool p[3]
Colour c[3]
bool q
Colour d[2]
announce p[0] or c[0] != d[0]
announce p[2] != p[1] or c[2] != c[1]
announce c[1] != d[1] or q
";
    let program = compile(story);
    let order = crate::bdd::order::order(&program);
    assert_ne!(
        order,
        (0..order.len()).collect::<Vec<_>>(),
        "the order is not the declarations'"
    );
    let expected = by_z3(&program);
    let mut engine = bdd_engine(&program, Options::default());
    engine.run(&mut |_| {}).expect("the story runs");
    for limit in [
        1,
        2,
        5,
        30,
        200,
        expected.len() - 1,
        expected.len(),
        expected.len() + 1,
    ] {
        let set = engine.worlds(limit as u64).expect("worlds");
        let n = limit.min(expected.len());
        assert_eq!(set.worlds, expected[..n], "limit {limit}");
        assert_eq!(set.complete, limit >= expected.len(), "limit {limit}");
    }
}

#[test]
fn worlds_of_bools_only_and_of_no_constant() {
    let program = compile("bool a, b, c\n");
    let mut engine = bdd_engine(&program, Options::default());
    let set = engine.worlds(3).expect("worlds");
    let b = |v: [bool; 3]| World(v.iter().map(|x| Value::Bool(*x)).collect());
    assert_eq!(
        set.worlds,
        vec![
            b([false, false, false]),
            b([false, false, true]),
            b([false, true, false])
        ]
    );
    assert!(!set.complete);
    let program = compile("characters A\n");
    let mut engine = bdd_engine(&program, Options::default());
    let set = engine.worlds(5).expect("worlds");
    assert_eq!(set.worlds, vec![World(vec![])]);
    assert!(set.complete);
}

/// The value a partition gives in `world` (None: no cell holds there).
fn value_at(space: &Space, p: &Partition, world: &World) -> Option<i128> {
    let valuation = space.valuation(&world.0);
    p.cells()
        .find(|(_, cell)| cell.eval_in(&valuation))
        .map(|(v, _)| match v {
            Integer::Small(v) => *v,
            Integer::Big(_) => panic!("a small value"),
        })
}

/// Every arithmetic operator.
const ARITH_OPS: [ArithOp; 5] = [
    ArithOp::Add,
    ArithOp::Sub,
    ArithOp::Mul,
    ArithOp::Div,
    ArithOp::Mod,
];

#[test]
fn partitions_follow_the_evaluators_arithmetic() {
    let program = compile("enum Five { a, b, c, d, e }\nenum Three { x, y, z }\nFive f\nThree t\n");
    let space = Space::new(&program, super::space::Observations::None).expect("bits");
    let (f, t) = (space.enum_partition(0), space.enum_partition(1));
    let minus_two = Partition::constant(-2, space.mk_true());
    let worlds = by_z3(&program);
    assert_eq!(worlds.len(), 15);
    let int = |w: &World, i: usize| match w.0[i] {
        Value::Int(n) => i128::from(n),
        Value::Bool(_) => unreachable!("enum constants are ints"),
    };
    for op in ARITH_OPS {
        // (f - 2) op t, so that negative values and division by zero both occur.
        let shifted = f
            .arith(ArithOp::Sub, &Partition::constant(2, space.mk_true()))
            .unwrap();
        let p = shifted.arith(op, &t).unwrap();
        for w in &worlds {
            let expected = crate::ir::arith::checked(op, int(w, 0) - 2, int(w, 1)).unwrap();
            assert_eq!(value_at(&space, &p, w), Some(expected), "{op:?} at {w:?}");
        }
        // Values are distinct and their conditions disjoint.
        let cells: Vec<_> = p.cells().collect();
        for (i, (v, a)) in cells.iter().enumerate() {
            for (u, b) in &cells[i + 1..] {
                assert!(v < u);
                assert!(a.and(b).is_false());
            }
        }
    }
    let nowhere = space.mk_false();
    for op in [
        CmpOp::Eq,
        CmpOp::Ne,
        CmpOp::Lt,
        CmpOp::Le,
        CmpOp::Gt,
        CmpOp::Ge,
    ] {
        let holds = f.neg().unwrap().compare(op, &minus_two, &nowhere);
        for w in &worlds {
            let (x, y) = (-int(w, 0), -2);
            let expected = match op {
                CmpOp::Eq => x == y,
                CmpOp::Ne => x != y,
                CmpOp::Lt => x < y,
                CmpOp::Le => x <= y,
                CmpOp::Gt => x > y,
                CmpOp::Ge => x >= y,
            };
            assert_eq!(holds.eval_in(&space.valuation(&w.0)), expected, "{op:?}");
        }
    }
    // if f == c then t else 7
    let c = f.compare(
        CmpOp::Eq,
        &Partition::constant(2, space.mk_true()),
        &nowhere,
    );
    let p = Partition::ite(&c, &t, &Partition::constant(7, space.mk_true()));
    for w in &worlds {
        let expected = if int(w, 0) == 2 { int(w, 1) } else { 7 };
        assert_eq!(value_at(&space, &p, w), Some(expected));
    }
    // A tuple's distinct values: (f, t) takes 15, a bool 2.
    let tuple = value::tuple_cells(&[Val::Int(f), Val::Int(t)], &space.mk_true());
    assert_eq!(
        tuple
            .iter()
            .filter(|c| !c.and(space.domain()).is_false())
            .count(),
        15
    );
    assert_eq!(Val::Bool(space.mk_true()).cells().len(), 2);
}

/// Beyond 128 bits the backend computes exactly (it failed there once).
#[test]
fn values_beyond_128_bits_are_exact() {
    let program = compile("bool p\n");
    let mut backend = BddBackend::new(program.clone(), &Options::default()).expect("bools");
    let state = backend.initial().expect("the initial state");
    let story = compile(
        "bool p\nannounce (if p then 9223372036854775807 else 0) * 9223372036854775807 * 4 == 0\n",
    );
    let expr = match &story.statements[0].kind {
        StmtKind::Announce { formula, .. } => formula.clone(),
        _ => unreachable!("an announcement"),
    };
    let p = backend.space.bool_constant(0).expect("p");
    assert_eq!(backend.bool(&expr, &state).expect("exact"), p.not());
}

const HINT: &str = "characters A, B
bool a, b, c
A learns a
B learns b
announce a or b or c
assert_adds_ck HINT {
  A: not knows(a)
}
";

#[test]
fn a_wrong_hint_is_refuted_with_the_first_counterexample() {
    // `A: not knows(a)`: A, who learned a, says she does not know a: so a is false.
    let right = compile(&HINT.replace("HINT", "not a"));
    let mut engine = bdd_engine(&right, Options::default());
    let mut events = Vec::new();
    engine.run(&mut |e| events.push(e)).expect("a right hint");
    assert!(matches!(events.as_slice(), [Report::HintVerified { .. }]));
    assert_eq!(engine.worlds(10).unwrap().worlds, by_z3(&right));

    // `c`: the block keeps (false, true, false), where c is false; that comes before
    // (true, ...) worlds, which the hint allows and the block rules out.
    let wrong = compile(&HINT.replace("HINT", "c"));
    let mut engine = bdd_engine(&wrong, Options::default());
    let err = engine.run(&mut |_| {}).expect_err("a wrong hint");
    let b = |v: [bool; 3]| World(v.iter().map(|x| Value::Bool(*x)).collect());
    let expected = Counterexample {
        world: b([false, true, false]),
        kept_by_block: true,
    };
    assert_eq!(err.error, Failure::Refuted(expected.clone()));
    assert_eq!(err.span, wrong.statements[3].span);

    // Kept going: the block's true effect, and the refutation as an event.
    let options = Options {
        keep_refuted_hints: true,
        ..Options::default()
    };
    let mut engine = bdd_engine(&wrong, options);
    let mut refuted = Vec::new();
    engine
        .run(&mut |e| {
            if let Report::HintRefuted { counterexample, .. } = e {
                refuted.push(counterexample);
            }
        })
        .expect("kept going");
    assert_eq!(refuted, vec![expected]);
    assert_eq!(engine.worlds(10).unwrap().worlds, by_z3(&right));
}

#[test]
fn the_strategy_picks_the_backend() {
    let bools = compile("characters A\nbool p\nA learns p\n");
    let many_bools = compile("characters A\nbool p[17]\nA learns p[0]\n");
    let bounded = compile("characters A\nint x\nannounce x >= 1 and x <= 3\n");
    let unbounded = compile("characters A\nint x\nannounce x >= 1\n");
    let engine = |p: &Rc<Program>, strategy| {
        let options = Options {
            strategy,
            ..Options::default()
        };
        Engine::new(p.clone(), &options)
    };
    assert_eq!(engine(&bools, Strategy::Auto).backend(), "explicit");
    assert_eq!(engine(&many_bools, Strategy::Auto).backend(), "bdd");
    assert_eq!(engine(&bounded, Strategy::Auto).backend(), "explicit");
    assert_eq!(engine(&unbounded, Strategy::Auto).backend(), "z3");
    // Measured, not guessed from how the bounds are written: bools the first
    // announcements leave few worlds of go to the explicit backend, many to BDDs; bounds
    // inside an `if` or a disjunction bound the story.
    let few = compile("characters A\nbool p[20]\nannounce count(i in 0..20: p[i]) == 1\n");
    let many = compile("characters A\nbool p[20]\nannounce count(i in 0..20: p[i]) <= 10\n");
    let inside_if = compile(
        "characters A\nint x\nbool v\nannounce if v then x >= 0 and x <= 3 else x >= 5 and x <= 6\n",
    );
    let disjunction = compile(
        "characters A\nint x, y\nannounce (x == 1 or x == 5) and (y, 2) in {(3, 2), (4, 2)}\n",
    );
    assert_eq!(engine(&few, Strategy::Auto).backend(), "explicit");
    assert_eq!(engine(&many, Strategy::Auto).backend(), "bdd");
    assert_eq!(engine(&inside_if, Strategy::Auto).backend(), "explicit");
    assert_eq!(engine(&disjunction, Strategy::Auto).backend(), "explicit");
    // Ints: the explicit backend when the first announcements leave few worlds (Cheryl's
    // age, Sum and Product: 2,352), BDDs when they leave many and bound every int (the
    // battleship's 200,704, What Sum at B = 200), Z3 when they leave an int unbounded.
    let story = |name: &str, sets: &[(&str, i64)]| {
        let path = format!("{}/../../stories/{name}.story", env!("CARGO_MANIFEST_DIR"));
        let source = std::fs::read_to_string(&path).expect("the story is there");
        let sets: Vec<(String, i64)> = sets.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        Rc::new(epipen_lower::compile(&source, &sets).expect("the story compiles"))
    };
    let picks =
        |name: &str, sets: &[(&str, i64)]| engine(&story(name, sets), Strategy::Auto).backend();
    assert_eq!(picks("cheryls-age", &[]), "explicit");
    assert_eq!(picks("sum-and-product", &[]), "explicit");
    assert_eq!(picks("what-sum", &[]), "explicit");
    assert_eq!(picks("what-sum", &[("B", 200)]), "bdd");
    assert_eq!(picks("battleship", &[]), "bdd");
    assert_eq!(picks("consecutive-numbers", &[]), "z3");
    // κ's size is the BDD's nodes on one backend, the formula's DAG nodes on another,
    // the worlds on the third.
    let mut on_bdd = engine(&bools, Strategy::Bdd);
    on_bdd.run(&mut |_| {}).expect("the story runs");
    assert_eq!(on_bdd.kappa_size(), 1, "the true BDD: the terminal alone");
    let mut on_z3 = engine(&bools, Strategy::Finite);
    on_z3.run(&mut |_| {}).expect("the story runs");
    assert_eq!(on_z3.kappa_size(), 1, "the formula `true`");
    let mut on_explicit = engine(&bools, Strategy::Explicit);
    on_explicit.run(&mut |_| {}).expect("the story runs");
    assert_eq!(on_explicit.kappa_size(), 2, "two worlds");
    assert_eq!(engine(&bools, Strategy::Bdd).backend(), "bdd");
    assert_eq!(engine(&bools, Strategy::Z3).backend(), "z3");
    assert_eq!(engine(&bools, Strategy::Finite).backend(), "z3");
    assert_eq!(engine(&bools, Strategy::Symbolic).backend(), "z3");
    assert_eq!(engine(&bounded, Strategy::Explicit).backend(), "explicit");
    assert_eq!(engine(&bounded, Strategy::Bdd).backend(), "bdd");
    // A backend asked for by name that does not fit the story refuses it, saying why:
    // a story error, at the first statement or at what it cannot take.
    let refusals = [
        (
            &unbounded,
            Strategy::Bdd,
            "the BDD backend needs every int bounded by the story's first announcements, and \
             they leave `x` unbounded",
        ),
        (&unbounded, Strategy::Explicit, "leave `x` unbounded"),
    ];
    for (program, strategy, why) in refusals {
        let mut refused = engine(program, strategy);
        assert_eq!(refused.backend(), "none");
        let err = refused.run(&mut |_| {}).expect_err("refused");
        assert_eq!(err.span, program.statements[0].span);
        let Failure::Story { message, .. } = err.error else {
            panic!("not a story error: {:?}", err.error);
        };
        assert!(message.contains(why), "{message}");
    }
}

#[test]
fn a_timeout_is_reported_not_waited_out() {
    let program = compile(include_str!("../../../../stories/muddy-children.story"));
    let options = Options {
        deadline: Some(std::time::Instant::now()),
        ..Options::default()
    };
    let mut engine = bdd_engine(&program, options);
    let err = engine.run(&mut |_| {}).expect_err("no time at all");
    assert_eq!(err.error, Failure::Timeout);
}

/// `a op b` of two constants made value by value from their pairs' bits
/// ([`Space::grid`]) is the partition the constants' cells give when conjoined pair by
/// pair: ints next to each other (bits interleaved by place), negative values, division
/// and remainder by zero, an enum beside an int (bits apart); one constant twice is left
/// to the cells.
#[test]
fn a_grid_of_two_constants_gives_the_cells_arithmetic_gives() {
    let program = compile(
        "enum Five { a, b, c, d, e }\nint x, y\nFive f\n\
         announce -3 <= x and x <= 4 and -2 <= y and y <= 6\n",
    );
    let space = Space::new(&program, super::space::Observations::None).expect("bits");
    let (x, y, f) = (0, 1, 2);
    assert!(matches!(
        space.kind(x),
        Some(Kind::Int { lo: -3, count: 8 })
    ));
    for op in ARITH_OPS {
        for (a, b) in [(x, y), (y, x), (f, x), (y, f)] {
            let expected = space
                .enum_partition(a)
                .exact_arith(op, &space.enum_partition(b))
                .expect("arith");
            assert_eq!(
                space.grid(op, a, b),
                Some(expected),
                "{op:?} of #{a} and #{b}"
            );
        }
        assert_eq!(space.grid(op, x, x), None, "one constant twice");
    }
}

/// Values are exact integers: products beyond 128 bits neither wrap nor fail.
#[test]
fn partitions_compute_beyond_128_bits() {
    let program = compile("enum Two { a, b }\nTwo t\n");
    let space = Space::new(&program, super::space::Observations::None).expect("bits");
    let big = Partition::constant(i128::MAX, space.mk_true());
    let t = space.enum_partition(0); // 0 or 1
    let square = big.arith(ArithOp::Mul, &big).unwrap();
    let cells: Vec<_> = square.cells().map(|(v, _)| v.clone()).collect();
    assert_eq!(
        cells,
        [Integer::Small(i128::MAX).arith(ArithOp::Mul, &Integer::Small(i128::MAX))]
    );
    assert!(matches!(cells[0], Integer::Big(_)));
    // t * MAX² > MAX² - 1 holds where t is 1 (b), and the difference is exact.
    let nowhere = space.mk_false();
    let scaled = t.arith(ArithOp::Mul, &square).unwrap();
    let minus_one = square
        .arith(ArithOp::Sub, &Partition::constant(1, space.mk_true()))
        .unwrap();
    let holds = scaled.compare(CmpOp::Gt, &minus_one, &nowhere);
    assert_eq!(
        holds,
        t.compare(
            CmpOp::Eq,
            &Partition::constant(1, space.mk_true()),
            &nowhere
        )
    );
    assert_eq!(scaled.neg().unwrap().neg().unwrap(), scaled);
}

/// `e` by value partitions alone (`value.rs`'s arithmetic, term by term as written):
/// the reference for the linear forms and the ordered sums of `linear.rs`.
fn by_partitions(b: &BddBackend, e: &Expr, state: &Rc<knowledge::State>) -> Val {
    use crate::ir::ExprKind;
    let int = |x: &Expr| match by_partitions(b, x, state) {
        Val::Int(p) => p,
        Val::Bool(_) => panic!("an int"),
    };
    let bool = |x: &Expr| match by_partitions(b, x, state) {
        Val::Bool(p) => p,
        Val::Int(_) => panic!("a bool"),
    };
    match &e.kind {
        ExprKind::Int(n) => Val::Int(Partition::constant(i128::from(*n), b.space.mk_true())),
        ExprKind::Neg(a) => Val::Int(int(a).neg().expect("neg")),
        ExprKind::Arith(op, x, y) => Val::Int(int(x).exact_arith(*op, &int(y)).expect("arith")),
        ExprKind::Ite(c, x, y) => Val::Int(Partition::ite(&bool(c), &int(x), &int(y))),
        ExprKind::Cmp(op, x, y) if x.ty != crate::ir::Ty::Bool => {
            Val::Bool(int(x).compare(*op, &int(y), &b.space.mk_false()))
        }
        ExprKind::Not(x) => Val::Bool(bool(x).not()),
        ExprKind::Logic(op, x, y) => {
            let (x, y) = (bool(x), bool(y));
            Val::Bool(match op {
                crate::ir::LogicOp::And => x.and(&y),
                crate::ir::LogicOp::Or => x.or(&y),
                crate::ir::LogicOp::Implies => x.imp(&y),
                crate::ir::LogicOp::Iff => x.iff(&y),
            })
        }
        _ => b.eval(e, state).expect("evaluates"),
    }
}

/// A random term of a sum for [`linear_forms_and_ordered_sums_equal_the_partitions`].
fn random_term(next: &mut dyn FnMut(u64) -> u64) -> String {
    let i = next(8);
    match next(11) {
        0 => format!("(if b[{i}] then 1 else 0)"),
        1 => format!("(if b[{i}] then {} else {})", next(7) as i64 - 3, next(5)),
        2 => format!(
            "{} * (if b[{i}] and b[{}] then 1 else 0)",
            next(5) as i64 - 2,
            next(8)
        ),
        3 => format!("count(j in 0..{}: b[j])", next(9)),
        4 => format!("(if c[{}] == red then 2 else 0)", next(2)),
        5 => format!("-(if b[{i}] then 3 else 1)"),
        6 => format!("(count(j in 0..{}: b[j]) % 3)", next(9)),
        7 => format!("(if b[{i}] then count(j in 2..5: b[j]) else 4)"),
        8 => format!("v[{}]", next(2)),
        9 => format!("{} * v[{}]", next(5) as i64 - 2, next(2)),
        _ => format!("{}", next(9) as i64 - 4),
    }
}

fn random_sum(next: &mut dyn FnMut(u64) -> u64) -> String {
    let k = 1 + next(5);
    let mut sum = random_term(next);
    for _ in 1..k {
        let sign = if next(3) == 0 { " - " } else { " + " };
        sum = format!("{sum}{sign}{}", random_term(next));
    }
    sum
}

/// Comparisons of sums of bools, counts, weighted and nested terms, enums' tests, int
/// constants (as their bits) and opaque terms (`%`, `if` with int branches): the
/// threshold construction gives the very BDD the exact partitions give, and so do the
/// sums added from the last variable up (an int constant's bits among them).
#[test]
fn linear_forms_and_ordered_sums_equal_the_partitions() {
    let mut next = crate::tests::xorshift(0x2545_f491_4f6c_dd1d);
    for round in 0..300 {
        let left = random_sum(&mut next);
        let right = if next(2) == 0 {
            random_sum(&mut next)
        } else {
            format!("{}", next(12) as i64 - 3)
        };
        let op = ["==", "!=", "<", "<=", ">", ">="][next(6) as usize];
        let source = format!(
            "enum Colour {{ red, green, blue }}\nbool b[8]\nColour c[2]\nint v[2]\n\
             announce v[0] >= -2 and v[0] <= 5 and v[1] >= 3 and v[1] <= 12\n\
             announce {left} {op} {right}\n\
             announce ({left}) % 5 == 2 or ({left}) == {}\n",
            next(6)
        );
        let program = compile(&source);
        let mut backend = BddBackend::new(program.clone(), &Options::default()).expect("bits");
        let state = backend.initial().expect("a state");
        for s in &program.statements {
            let StmtKind::Announce { formula, .. } = &s.kind else {
                continue;
            };
            let fast = backend.bool(formula, &state).expect("evaluates");
            let Val::Bool(slow) = by_partitions(&backend, formula, &state) else {
                panic!("a bool");
            };
            assert_eq!(fast, slow, "round {round}: {source}");
        }
    }
}

/// Knowledge answered by the classes of an agent's view (literal goals from the values
/// the class's worlds take, other goals by a search per class) equals the quantification:
/// random κ, agents seeing 1 to 3 bits, many goals asked of one state.
#[test]
fn knowledge_by_view_classes_equals_quantification() {
    let mut next = crate::tests::xorshift(0x9e37_79b9_7f4a_7c15);
    for round in 0..60 {
        let mut story = String::from(
            "characters A, B\nenum Colour { red, green, blue }\nbool b[6]\nColour c\n",
        );
        for _ in 0..1 + next(3) {
            story += &format!("A learns b[{}]\n", next(6));
        }
        if next(2) == 0 {
            story += "A learns c\n";
        }
        let clause = |next: &mut dyn FnMut(u64) -> u64| {
            let lit = |next: &mut dyn FnMut(u64) -> u64| {
                let not = if next(2) == 0 { "not " } else { "" };
                format!("{not}b[{}]", next(6))
            };
            format!("({} or {} or c == green)", lit(next), lit(next))
        };
        for _ in 0..next(5) {
            story += &format!("announce {}\n", clause(&mut next));
        }
        let goals = [
            "b[0]",
            "not b[1]",
            "b[2] and not b[3]",
            "b[4] and b[5] and not b[0]",
            "c == red",
            "c != blue",
            "b[1] or b[2]",
            "b[3] -> c == green",
            "true",
            "false",
            "b[5]",
            "not b[4]",
        ];
        for g in goals {
            story += &format!("check {g}\n");
        }
        let program = compile(&story);
        let mut backend = BddBackend::new(program.clone(), &Options::default()).expect("bits");
        let mut state = backend.initial().expect("a state");
        let mut questions = Vec::new();
        for s in &program.statements {
            match &s.kind {
                StmtKind::Learn { who, what } => {
                    state = backend
                        .learn(&state, *who, crate::driver::Learning::Value(what))
                        .expect("learns")
                }
                StmtKind::Announce { formula, .. } => {
                    let phi = backend.formula(formula, &state, &[]).expect("a formula");
                    state = backend
                        .restrict(&state, phi, crate::driver::Origin::Written)
                        .expect("restricts");
                }
                StmtKind::Check(goal) => {
                    let goal = backend.formula(goal, &state, &[]).expect("a goal");
                    questions.push(backend.force(goal))
                }
                _ => {}
            }
        }
        for agent in [CharId(0), CharId(1)] {
            for (k, goal) in questions.iter().enumerate() {
                // A fresh state answers its first questions by quantifying.
                let fresh = knowledge::State::new(
                    state.kappa.clone(),
                    state.learned.clone(),
                    state.ranks.clone(),
                );
                let expected = backend.knows(agent, &fresh, goal).expect("knows");
                let batched = backend.knows(agent, &state, goal).expect("knows");
                assert_eq!(
                    batched, expected,
                    "round {round}, agent {agent:?}, goal {}: {story}",
                    goals[k]
                );
            }
        }
    }
}

/// An event's occurrence sits right after the last constant its cases use: n private
/// announcements of `s[i]` keep κ linear in n (with the occurrences first, κ had to
/// remember every `s[i]` until the occurrences: 147 611 nodes at n = 10).
#[test]
fn occurrences_sit_beside_the_constants_their_cases_use() {
    let story = "const n = 4
characters P[n]
bool s[n], t
for i in 0..n {
  event tell {
    yes if s[i]
    no if not s[i]
    nothing
    P[i] sees yes | no | nothing
  }
}
event flip {
  up
  down
}
";
    let program = compile(story);
    let order = crate::bdd::order::order(&program);
    let names: Vec<&str> = order
        .iter()
        .map(|c| program.constants[*c].name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "t", "flip", "s[0]", "tell#1", "s[1]", "tell#2", "s[2]", "tell#3", "s[3]", "tell#4"
        ]
    );
}

/// Occurrences that land after the same constant keep the order in which they happen:
/// the prisoners' history reversed made κ ten times larger (122 224 nodes at n = 8
/// instead of 12 233).
#[test]
fn occurrences_beside_the_same_constants_stay_in_order() {
    let story = "const n = 3
characters counter
bool light
bool counted[n]
for k in 1..n {
  event interview {
    lit if light then light := false, counted[0] := true
    for p in 1..n {
      on[p] if not light and not counted[p] then light := true, counted[p] := true
      left[p] if light or counted[p]
    }
    counter sees lit | others
    actual on[k]
  }
}
";
    let program = compile(story);
    let order = crate::bdd::order::order(&program);
    let names: Vec<&str> = order
        .iter()
        .map(|c| program.constants[*c].name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "light",
            "counted[0]",
            "counted[1]",
            "counted[2]",
            "interview#1",
            "interview#2"
        ]
    );
}

/// An int the first announcements bound to lo..=hi is ⌈log₂(hi − lo + 1)⌉ bits holding
/// its value minus lo; the patterns beyond hi are no world; its partition gives each
/// world its value; worlds come in canonical order (magnitude first, negative values
/// included) at every limit, as Z3 lists them.
#[test]
fn bounded_ints_are_offset_bit_patterns() {
    let story = "characters A\nint x, y\nbool p\nenum C { r, g, b }\nC c\n\
                 announce -3 <= x and x <= 2 and y >= 5 and y <= 9\n\
                 announce p or x != y - 7 or c == g\n";
    let program = compile(story);
    let space = Space::new(&program, super::space::Observations::None).expect("bits");
    assert_eq!(space.kind(0), Some(space::Kind::Int { lo: -3, count: 6 }));
    assert_eq!(space.kind(1), Some(space::Kind::Int { lo: 5, count: 5 }));
    assert_eq!(space.bits_of(&[0]).len(), 3);
    assert_eq!(space.bits_of(&[1]).len(), 3);
    // 6 · 5 · 2 · 3 worlds by the bounds: the domain excludes the other patterns.
    assert_eq!(space.count(space.domain()), Some(6 * 5 * 2 * 3));
    let x = space.enum_partition(0);
    let values: Vec<i128> = x
        .cells()
        .map(|(v, _)| match v {
            Integer::Small(v) => *v,
            Integer::Big(_) => panic!("a small value"),
        })
        .collect();
    assert_eq!(values, vec![-3, -2, -1, 0, 1, 2]);
    let expected = by_z3(&program);
    for w in &expected {
        let Value::Int(v) = w.0[0] else {
            panic!("an int")
        };
        assert_eq!(value_at(&space, &x, w), Some(i128::from(v)));
    }
    let mut engine = bdd_engine(&program, Options::default());
    engine.run(&mut |_| {}).expect("the story runs");
    for limit in [1, 2, 7, 40, expected.len() - 1, expected.len(), 1000] {
        let set = engine.worlds(limit as u64).expect("worlds");
        let n = limit.min(expected.len());
        assert_eq!(set.worlds, expected[..n], "limit {limit}");
    }
}

/// Knowledge of bounded ints on BDDs equals Z3's: `learns` of an int and of an int
/// expression, `knows_value`, arithmetic, `count`/`sum`, and a change.
#[test]
fn knowledge_of_bounded_ints_equals_z3s() {
    let story = "characters A, B\nint x, y, z\n\
                 announce 1 <= x and x <= 6 and 1 <= y and y <= 6 and z == x + y\n\
                 A learns z\nB learns x * y\n\
                 A: not knows_value(x)\nB: not knows_value(x, y)\n\
                 announce count(i in 1..4: x == i or y == i) >= 1\n\
                 x := x + sum(i in 0..2: if y > i then 1 else 0)\n\
                 B: not knows_value(x - y)\n";
    let program = compile(story);
    let expected = by_z3(&program);
    assert!(!expected.is_empty());
    let mut engine = bdd_engine(&program, Options::default());
    engine.run(&mut |_| {}).expect("the story runs");
    let set = engine.worlds(u64::MAX).expect("worlds");
    assert!(set.complete);
    assert_eq!(set.worlds, expected);
}

/// An int bound to more values than one int's bits hold is refused, naming it.
#[test]
fn a_loosely_bounded_int_is_refused_by_name() {
    let program = compile("int x, y\nannounce 0 <= x and x <= 3 and 0 <= y and y <= 70000\n");
    let Err(why) = Space::new(&program, super::space::Observations::None) else {
        panic!("refused")
    };
    assert_eq!(
        why,
        "the story's first announcements bound the int `y` to 0..=70000, 70001 values, more \
         than the BDD backend encodes in one int's 16 bits"
    );
}

/// Ints far from zero (the fuzzer's 10^12 and i64::MIN) are few bits and few magnitude
/// layers: listing their worlds walks only the magnitudes they hold, in canonical order.
#[test]
fn ints_far_from_zero_list_their_worlds_at_once() {
    let story = "int x, y\nbool p\nannounce x >= 1000000000000 and x <= 1000000000003\n\
                 announce y >= -9223372036854775807 - 1 and y <= -9223372036854775806\n\
                 announce p or x != 1000000000001\n";
    let program = compile(story);
    let expected = by_z3(&program);
    assert_eq!(expected.len(), 4 * 3 * 2 - 3);
    let mut engine = bdd_engine(&program, Options::default());
    engine.run(&mut |_| {}).expect("the story runs");
    for limit in [1, 5, expected.len(), 100] {
        let set = engine.worlds(limit as u64).expect("worlds");
        assert_eq!(
            set.worlds,
            expected[..limit.min(expected.len())],
            "limit {limit}"
        );
    }
}

/// A product equal to a literal near 2^63: the factors' cells are kept to the divisors
/// of the literal by testing each value, never by factoring the literal (trial division
/// up to its square root took 10 s in release on a fuzzer's story, `0 * … ==
/// 9223372036854775805`, while every other backend answered at once; under a deadline,
/// the statement after it ends in a timeout).
#[test]
fn a_product_equal_to_a_literal_near_2_to_the_63_is_not_factored() {
    let story = "int x, y\nannounce x >= 3037000498 and x <= 3037000500\n\
                 announce y >= 3037000498 and y <= 3037000500\n\
                 announce x * y == 9223372030926249001\nannounce x == y\n";
    let program = compile(story);
    let options = Options {
        deadline: std::time::Instant::now().checked_add(std::time::Duration::from_secs(20)),
        ..Options::default()
    };
    let mut engine = bdd_engine(&program, options);
    engine.run(&mut |_| {}).expect("the story runs");
    let set = engine.worlds(10).expect("worlds");
    let x = Value::Int(3_037_000_499);
    assert_eq!(set.worlds, [World(vec![x, x])]);
    assert!(set.complete);
}

/// A storyteller's announcement defining bits from bits κ fixes (issue 33: `bool
/// h[2 * n * n]` defined from a call's outcome, n = 5, took over 30 s and 1.4 GB): the
/// conjunction alone remembers each h[i * n + k] until the last bits (the call's) are
/// read, 2^(n * n) paths, while κ ∧ it is small. Conjoined into κ member by member, the
/// node table stays small whatever n; each member's value is its own.
#[test]
fn a_definition_from_fixed_bits_is_conjoined_into_kappa() {
    let source = |n: usize| {
        format!(
            "const n = {n}\nbool h[2 * n * n], x[n]\n\
             announce all(i in 0..n, k in 0..n: h[i * n + k] == (i == k))\n\
             announce all(i in 0..n, k in 0..n: h[n * n + i * n + k] == (h[i * n + k] or \
             any(j in 0..n if j != i: x[i] and x[j] and h[j * n + k])))\n"
        )
    };
    let mut made = Vec::new();
    for n in [3, 4, 6] {
        let program = compile(&source(n));
        let mut backend = BddBackend::new(program.clone(), &Options::default()).expect("bools");
        let mut state = backend.initial().expect("the initial state");
        for stmt in &program.statements {
            let StmtKind::Announce { formula, .. } = &stmt.kind else {
                unreachable!("announcements")
            };
            let added = backend
                .announced_formula(formula, &state, &[])
                .expect("the definition");
            state = backend
                .restrict(&state, added, crate::driver::Origin::Written)
                .expect("κ");
        }
        // One world per value of x: h[0..n * n] fixed, the rest defined.
        assert_eq!(backend.space.count(&state.kappa), Some(1 << n));
        made.push(backend.space.nodes_made());
    }
    // Polynomial in n: the whole conjunction took 228 MB at n = 4 (1.6 s of CPU, release)
    // and did not finish within 30 s at n = 5.
    // Now 475, 1,996 and 30,242 nodes (debug and release alike: no clock involved).
    assert!(
        made[1] < 5_000 && made[2] < 100_000,
        "nodes made at n = 3, 4, 6: {made:?}"
    );
}

/// `knows` and `knows_value` asked at one world by an agent who learned expressions
/// (its class there: κ ∧ the point's value of each thing learned) give what the whole
/// set gives at that world (the primed copies' relation), in every world of the types.
#[test]
fn knowledge_at_a_point_equals_the_set_at_it() {
    let mut next = crate::tests::xorshift(0x2545_f491_4f6c_dd1d);
    for round in 0..40 {
        let mut story = String::from(
            "characters A, B\nenum Colour { red, green, blue }\nbool b[5]\nColour c\n",
        );
        let lit = |next: &mut dyn FnMut(u64) -> u64| {
            let not = if next(2) == 0 { "not " } else { "" };
            format!("{not}b[{}]", next(5))
        };
        for _ in 0..1 + next(3) {
            story += &match next(4) {
                0 => format!("A learns b[{}]\n", next(5)),
                1 => "A learns c\n".to_string(),
                2 => format!("A learns ({}) != ({})\n", lit(&mut next), lit(&mut next)),
                _ => format!("A learns if {} then c else red\n", lit(&mut next)),
            };
        }
        if next(2) == 0 {
            story += &format!("B learns {} or c == red\n", lit(&mut next));
        }
        for _ in 0..next(4) {
            story += &format!(
                "announce {} or {} or c == green\n",
                lit(&mut next),
                lit(&mut next)
            );
        }
        let goals = [
            "knows(A, b[0])",
            "knows(A, not b[1] or c == blue)",
            "knows(A, b[2] and not b[3])",
            "knows(A, knows(B, b[4]))",
            "knows_value(A, c)",
            "knows_value(A, b[1], b[3])",
            "knows_value(A, count(i in 0..5: b[i]))",
            "knows(B, b[4]) and knows_value(B, c)",
        ];
        for g in goals {
            story += &format!("check {g}\n");
        }
        let program = compile(&story);
        let mut backend = BddBackend::new(program.clone(), &Options::default()).expect("bits");
        let mut state = backend.initial().expect("a state");
        let mut questions = Vec::new();
        for s in &program.statements {
            match &s.kind {
                StmtKind::Learn { who, what } => {
                    state = backend
                        .learn(&state, *who, crate::driver::Learning::Value(what))
                        .expect("learns")
                }
                StmtKind::Announce { formula, .. } => {
                    let phi = backend.formula(formula, &state, &[]).expect("a formula");
                    state = backend
                        .restrict(&state, phi, crate::driver::Origin::Written)
                        .expect("restricts");
                }
                StmtKind::Check(goal) => questions.push(goal.clone()),
                _ => {}
            }
        }
        for w in 0..(1 << 5) * 3 {
            let mut world: Vec<Value> = (0..5).map(|i| Value::Bool(w >> i & 1 == 1)).collect();
            world.push(Value::Int(w >> 5));
            let point = backend.point(&world).expect("a point");
            for (k, goal) in questions.iter().enumerate() {
                // A fresh state each time: neither side reads what the other kept.
                let fresh = || {
                    knowledge::State::new(
                        state.kappa.clone(),
                        state.learned.clone(),
                        state.ranks.clone(),
                    )
                };
                let whole = backend.formula(goal, &fresh(), &[]).expect("a set");
                let expected = backend.force(whole).eval_in(&point);
                let at = (backend.formula_holds(goal, &fresh(), &[], &point)).expect("holds");
                assert_eq!(
                    at, expected,
                    "round {round}, world {world:?}, goal {}: {story}",
                    goals[k]
                );
            }
        }
    }
}
