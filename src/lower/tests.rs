//! Lowering tests, through the parser.

use super::expr::FUNCTIONS;
use super::*;
use crate::ir::CheckpointId;

/// Compiles a story without `--set`s, giving its diagnostics on failure.
fn compile(src: &str) -> Result<ir::Program, Vec<Diagnostic>> {
    match crate::compile(src, &[]) {
        Ok(program) => Ok(program),
        Err(crate::CompileError::Story(diagnostics)) => Err(diagnostics),
        Err(other) => panic!("{other:?}"),
    }
}

#[test]
fn edit_distance_and_closest() {
    assert_eq!(edit_distance("dya", "day"), 1);
    assert_eq!(edit_distance("abc", "abc"), 0);
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(closest("dya", ["day", "month"]), Some("day"));
    assert_eq!(closest("dxx", ["day", "month"]), None);
    assert_eq!(closest("dy", ["day", "month"]), Some("day"));
    assert_eq!(closest("mnth", ["day", "month"]), Some("month"));
    assert_eq!(closest("know", FUNCTIONS), Some("knows"));
    assert_eq!(closest("knows_val", FUNCTIONS), Some("knows_value"));
}

// ----- stories through the parser -----

/// (message, text under the span) for every diagnostic of a story that must fail.
fn errors(src: &str) -> Vec<(String, String)> {
    let diagnostics = compile(src).expect_err(src);
    diagnostics
        .iter()
        .map(|d| (d.message.clone(), src[d.span.start..d.span.end].to_string()))
        .collect()
}

/// The hints of the one diagnostic of a story.
fn hints(src: &str) -> Vec<String> {
    let diagnostics = compile(src).expect_err(src);
    assert_eq!(diagnostics.len(), 1, "{src}: {diagnostics:?}");
    diagnostics[0].hints.clone()
}

fn ok(src: &str) -> ir::Program {
    match compile(src) {
        Ok(program) => program,
        Err(diagnostics) => panic!("{src}\n{diagnostics:#?}"),
    }
}

#[test]
fn every_check_has_its_message_and_span() {
    let table: &[(&str, &[(&str, &str)])] = &[
        // names
        (
            "int day\nannounce dya == 1",
            &[("unknown name `dya`", "dya")],
        ),
        (
            "announce day == 1\nint day",
            &[("unknown name `day`", "day")],
        ),
        ("int day\nbool day", &[("`day` is already declared", "day")]),
        (
            "characters Albert\nint Albert",
            &[("`Albert` is already declared", "Albert")],
        ),
        (
            "characters Albert, Albert",
            &[("`Albert` is already declared", "Albert")],
        ),
        (
            "checkpoint start\ncheckpoint start",
            &[("checkpoint `start` is already defined", "start")],
        ),
        (
            "characters Albert\nannounce Albert == 1",
            &[("`Albert` is a character, not a value", "Albert")],
        ),
        (
            "checkpoint c\nannounce c",
            &[("`c` is a checkpoint, not a value", "c")],
        ),
        // characters
        (
            "int month\nmonth learns month",
            &[("`month` is not a character", "month")],
        ),
        (
            "int month\nmonth: month == 1",
            &[("`month` is not a character", "month")],
        ),
        (
            "characters Albert\nAlbrt: true",
            &[("unknown name `Albrt`", "Albrt")],
        ),
        (
            "characters Albert\nint m\nannounce knows(m, true)",
            &[("`m` is not a character", "m")],
        ),
        // types
        (
            "int x\nannounce x + 1",
            &[("expected bool, found int", "x + 1")],
        ),
        (
            "bool r\nannounce r + 1 == 2",
            &[("expected int, found bool", "r")],
        ),
        (
            "bool r\nannounce 1 < r",
            &[("expected int, found bool", "r")],
        ),
        (
            "int x\nannounce x and true",
            &[("expected bool, found int", "x")],
        ),
        (
            "int x\nannounce (x) and true",
            &[("expected bool, found int", "(x)")],
        ),
        (
            "int x\nannounce not x",
            &[("expected bool, found int", "x")],
        ),
        (
            "bool r\nannounce -r == 1",
            &[("expected int, found bool", "r")],
        ),
        (
            "int x\nbool r\nannounce x == r",
            &[("cannot compare int with bool", "x == r")],
        ),
        (
            "int x\nbool r\nannounce r != x",
            &[("cannot compare bool with int", "r != x")],
        ),
        (
            "int x\nannounce if x then true else false",
            &[("expected bool, found int", "x")],
        ),
        (
            "int x\nannounce (if x > 1 then x else true) == 1",
            &[(
                "the branches of `if` have different types: int and bool",
                "(if x > 1 then x else true)",
            )],
        ),
        // `in` and tuples
        (
            "int m, d\nannounce (m, d) in {(5, 15), (5, 15, 1)}",
            &[(
                "this set item has 3 values, the element has 2",
                "(5, 15, 1)",
            )],
        ),
        (
            "int m, d\nannounce (m, d) in {(5, 15), 5}",
            &[("this set item has 1 value, the element has 2", "5")],
        ),
        (
            "int m\nannounce m in {1, (2, 3)}",
            &[("this set item has 2 values, the element has 1", "(2, 3)")],
        ),
        (
            "int m\nannounce m in {1, true}",
            &[("expected int, found bool", "true")],
        ),
        (
            "int m\nbool r\nannounce (m, r) in {(1, 2)}",
            &[("expected bool, found int", "2")],
        ),
        (
            "int m, d\nannounce (m, d) == (1, 2)",
            &[
                ("a tuple can only be used with `in`", "(m, d)"),
                ("a tuple can only be used with `in`", "(1, 2)"),
            ],
        ),
        (
            "int m, d\nannounce ((m, d), 1) in {(1, 2)}",
            &[("a tuple can only be used with `in`", "(m, d)")],
        ),
        // knowledge operators
        (
            "characters Albert\nint m\nannounce knows(m == 1)",
            &[("`knows` needs a character here", "knows(m == 1)")],
        ),
        (
            "characters Bernard\nint m\nannounce knows_value(m)",
            &[("`knows_value` needs a character here", "knows_value(m)")],
        ),
        (
            "characters A\nannounce knows(A)",
            &[("`knows` takes a character and a formula", "knows(A)")],
        ),
        (
            "characters A\nannounce knows()",
            &[("`knows` takes a character and a formula", "knows()")],
        ),
        (
            "characters A\nannounce knows(A, true, true)",
            &[(
                "`knows` takes a character and a formula",
                "knows(A, true, true)",
            )],
        ),
        (
            "characters A\nannounce knows_value(A)",
            &[(
                "`knows_value` needs at least one expression",
                "knows_value(A)",
            )],
        ),
        (
            "characters A\nA: knows_value()",
            &[(
                "`knows_value` needs at least one expression",
                "knows_value()",
            )],
        ),
        (
            "characters A\nint m\nannounce knows(A, m)",
            &[("expected bool, found int", "m")],
        ),
        (
            "characters A\nint m\nA: knows(m + 1)",
            &[("expected bool, found int", "m + 1")],
        ),
        (
            "characters A\nint m\nA: knows_value(A, B)",
            &[("unknown name `B`", "B")],
        ),
        (
            "announce know(true)",
            &[("unknown function `know`", "know")],
        ),
        ("announce foo(true)", &[("unknown function `foo`", "foo")]),
        (
            "int m\nannounce foo(m, zz)",
            &[
                ("unknown function `foo`", "foo"),
                ("unknown name `zz`", "zz"),
            ],
        ),
        (
            "characters A\nint m\nA learns knows_value(A, m)",
            &[(
                "`A learns` takes a constant or an expression of constants, not a knowledge operator",
                "knows_value(A, m)",
            )],
        ),
        (
            "characters A\nint m\ncheckpoint c\nA learns m + (if at(c, true) then 1 else 0)",
            &[(
                "`A learns` takes a constant or an expression of constants, not a knowledge operator",
                "at(c, true)",
            )],
        ),
        // checkpoints
        (
            "int x\ncheckpoint start\nannounce at(strat, x == 1)",
            &[("unknown checkpoint `strat`", "strat")],
        ),
        (
            "int x\nannounce at(later, x == 1)\ncheckpoint later",
            &[(
                "checkpoint `later` is defined after this statement",
                "later",
            )],
        ),
        (
            "announce at(true)",
            &[("`at` takes a checkpoint and a formula", "at(true)")],
        ),
        (
            "checkpoint c\nannounce at(1, true)",
            &[("`at` takes a checkpoint and a formula", "1")],
        ),
        (
            "int x\ncheckpoint c\nannounce at(c, x)",
            &[("expected bool, found int", "x")],
        ),
        // worlds
        ("worlds 0", &[("a limit must be at least 1", "0")]),
    ];
    for (src, expected) in table {
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(m, t)| (m.to_string(), t.to_string()))
            .collect();
        assert_eq!(errors(src), expected, "\n{src}");
    }
}

#[test]
fn hints_say_what_to_do() {
    let table: &[(&str, &[&str])] = &[
        ("int day\nannounce dya == 1", &["did you mean `day`?"]),
        (
            "int day\nannounce zzz == 1",
            &["declare it first, e.g. `int zzz`"],
        ),
        (
            "announce day == 1\nint day",
            &["`day` is declared later in the story"],
        ),
        (
            "int day\nbool day",
            &["names of characters and constants must be unique"],
        ),
        (
            "characters Albert\nannounce Albert == 1",
            &[
                "to talk about what Albert knows, use `knows(Albert, …)` or `knows_value(Albert, …)`",
            ],
        ),
        (
            "characters Albert\nAlbrt: true",
            &["did you mean `Albert`?"],
        ),
        (
            "characters Albert\nZed: true",
            &["declare it first, e.g. `characters Zed`"],
        ),
        (
            "characters Albert, Bernard\nint m\nm: true",
            &["the characters are `Albert` and `Bernard`"],
        ),
        // A character is a likely meaning of the first argument of `knows_value`.
        (
            "characters Bernard\nint month\nBernard: knows_value(Bernrd, month)",
            &["did you mean `Bernard`?"],
        ),
        (
            "characters Albert\nint m\nannounce knows(m == 1)",
            &["outside `Albert: …` name the character first, e.g. `knows(Albert, …)`"],
        ),
        (
            "characters Bernard\nint m\nannounce knows_value(m)",
            &["outside `Bernard: …` name the character first, e.g. `knows_value(Bernard, …)`"],
        ),
        (
            "bool r\nannounce knows(r)",
            &["outside `Albert: …` name the character first, e.g. `knows(Albert, …)`"],
        ),
        ("announce know(true)", &["did you mean `knows`?"]),
        ("announce knows_val(true)", &["did you mean `knows_value`?"]),
        (
            "announce foo(true)",
            &[
                "the functions are `knows`, `knows_value`, `at`, `all`, `any`, `sum`, `count`, \
             `distinct`, `abs`, `min` and `max`",
            ],
        ),
        (
            "int x\ncheckpoint start\nannounce at(strat, x == 1)",
            &["did you mean `start`?"],
        ),
        (
            "int x\nannounce at(nowhere, x == 1)",
            &["define it first with `checkpoint nowhere`"],
        ),
    ];
    for (src, expected) in table {
        assert_eq!(hints(src), *expected, "\n{src}");
    }
}

#[test]
fn duplicates_point_at_the_second_declaration() {
    for src in [
        "int day\nbool day",
        "characters A, A",
        "checkpoint s\ncheckpoint s",
    ] {
        let diagnostics = compile(src).unwrap_err();
        let last = src.rfind(|c: char| c.is_alphabetic()).unwrap();
        assert_eq!(diagnostics[0].span.end, last + 1, "{src}");
    }
}

#[test]
fn a_story_with_many_errors_reports_all_of_them() {
    let src = "\
characters Albert, Bernard
int month, day
int day
announce (month, day) in {(5, 15), (5, 16, 1)}
Albert learns mnth
Bernrd learns day
Albert: knows(Bernard, month)
announce knows(month == 5) and Albert
checkpoint start
announce at(strat, true) or at(end, true)
checkpoint end
worlds 0
";
    let expected = [
        ("`day` is already declared", "day"),
        (
            "this set item has 3 values, the element has 2",
            "(5, 16, 1)",
        ),
        ("unknown name `mnth`", "mnth"),
        ("unknown name `Bernrd`", "Bernrd"),
        ("expected bool, found int", "month"),
        ("`knows` needs a character here", "knows(month == 5)"),
        ("`Albert` is a character, not a value", "Albert"),
        ("unknown checkpoint `strat`", "strat"),
        ("checkpoint `end` is defined after this statement", "end"),
        ("a limit must be at least 1", "0"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(m, t)| (m.to_string(), t.to_string()))
        .collect();
    assert_eq!(errors(src), expected);
}

const CHERYL: &str = "\
characters Albert, Bernard
int month, day
announce (month, day) in {(5, 15), (5, 16), (5, 19), (6, 17), (6, 18),
                      (7, 14), (7, 16), (8, 14), (8, 15), (8, 17)}
Albert learns month
Bernard learns day
checkpoint start
Albert: not knows_value(month, day) and not knows_value(Bernard, month, day)
Bernard: at(start, not knows_value(month, day)) and knows_value(month, day)
Albert: knows_value(month, day)
worlds
";

#[test]
fn cheryls_birthday_lowers_to_ids_and_types() {
    use ir::ExprKind as E;
    let program = ok(CHERYL);
    let names: Vec<&str> = program.characters.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Albert", "Bernard"]);
    let constants: Vec<(&str, Ty)> = program
        .constants
        .iter()
        .map(|c| (c.name.as_str(), c.ty))
        .collect();
    assert_eq!(constants, [("month", Ty::Int), ("day", Ty::Int)]);
    assert_eq!(program.checkpoints.len(), 1);
    assert_eq!(program.checkpoints[0].name, "start");
    assert_eq!(
        &CHERYL[program.characters[1].span.start..program.characters[1].span.end],
        "Bernard"
    );

    let kinds: Vec<&ir::StmtKind> = program.statements.iter().map(|s| &s.kind).collect();
    assert_eq!(kinds.len(), 8);
    let ir::StmtKind::Announce {
        speaker: None,
        formula,
    } = kinds[0]
    else {
        panic!("{:?}", kinds[0])
    };
    let E::In { tuple, set } = &formula.kind else {
        panic!("{formula:?}")
    };
    assert_eq!(
        tuple.iter().map(|e| &e.kind).collect::<Vec<_>>(),
        [&E::Const(ConstId(0)), &E::Const(ConstId(1))]
    );
    assert_eq!(set.len(), 10);
    assert_eq!(
        set[9].iter().map(|e| &e.kind).collect::<Vec<_>>(),
        [&E::Int(8), &E::Int(17)]
    );
    assert_eq!(formula.ty, Ty::Bool);

    let learn = |k: &ir::StmtKind| match k {
        ir::StmtKind::Learn {
            who,
            what:
                ir::Expr {
                    kind: E::Const(c),
                    ty: Ty::Int,
                    ..
                },
        } => (*who, *c),
        other => panic!("{other:?}"),
    };
    assert_eq!(learn(kinds[1]), (CharId(0), ConstId(0)));
    assert_eq!(learn(kinds[2]), (CharId(1), ConstId(1)));
    assert_eq!(kinds[3], &ir::StmtKind::Checkpoint(CheckpointId(0)));

    // Albert: not knows_value(month, day) and not knows_value(Bernard, month, day)
    let ir::StmtKind::Announce {
        speaker: Some(CharId(0)),
        formula,
    } = kinds[4]
    else {
        panic!("{:?}", kinds[4])
    };
    let E::Logic(ir::LogicOp::And, l, r) = &formula.kind else {
        panic!("{formula:?}")
    };
    let agent_of = |e: &ir::Expr| match &e.kind {
        E::Not(inner) => match &inner.kind {
            E::KnowsValue { agent, exprs } => (*agent, exprs.len()),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    assert_eq!(agent_of(l), (CharId(0), 2));
    assert_eq!(agent_of(r), (CharId(1), 2));

    // Bernard: at(start, not knows_value(month, day)) and knows_value(month, day)
    let ir::StmtKind::Announce {
        speaker: Some(CharId(1)),
        formula,
    } = kinds[5]
    else {
        panic!("{:?}", kinds[5])
    };
    let E::Logic(ir::LogicOp::And, l, r) = &formula.kind else {
        panic!("{formula:?}")
    };
    let E::At {
        checkpoint: CheckpointId(0),
        body,
    } = &l.kind
    else {
        panic!("{l:?}")
    };
    assert_eq!(agent_of(body), (CharId(1), 2));
    assert!(matches!(
        &r.kind,
        E::KnowsValue {
            agent: CharId(1),
            ..
        }
    ));

    assert!(matches!(
        kinds[6],
        ir::StmtKind::Announce {
            speaker: Some(CharId(0)),
            ..
        }
    ));
    assert_eq!(kinds[7], &ir::StmtKind::Worlds { limit: 10 });
}

#[test]
fn implicit_agents_and_disambiguation() {
    use ir::ExprKind as E;
    let src = "\
characters Albert, Bernard
int month
bool rain
Bernard: knows_value(month) and knows_value(Albert, month) and knows(rain) and knows(Albert, rain)
Bernard: knows(Albert, knows(rain))
worlds 25
";
    let program = ok(src);
    let ir::StmtKind::Announce {
        speaker: Some(CharId(1)),
        formula,
    } = &program.statements[0].kind
    else {
        panic!()
    };
    // ((a and b) and c) and d
    let mut agents = Vec::new();
    let mut rest = formula;
    while let E::Logic(ir::LogicOp::And, l, r) = &rest.kind {
        agents.push(&r.kind);
        rest = l;
    }
    agents.push(&rest.kind);
    agents.reverse();
    let month = || ir::Expr {
        kind: E::Const(ConstId(0)),
        ty: Ty::Int,
        span: Span::default(),
    };
    let agent = |k: &E| match k {
        E::KnowsValue { agent, exprs } => {
            assert_eq!(exprs.len(), 1);
            assert_eq!(exprs[0].kind, month().kind);
            *agent
        }
        E::Knows { agent, formula } => {
            assert_eq!(formula.kind, E::Const(ConstId(1)));
            *agent
        }
        other => panic!("{other:?}"),
    };
    let agents: Vec<CharId> = agents.into_iter().map(agent).collect();
    assert_eq!(agents, [CharId(1), CharId(0), CharId(1), CharId(0)]);

    // The speaker stays the implicit agent inside another character's `knows`.
    let ir::StmtKind::Announce { formula, .. } = &program.statements[1].kind else {
        panic!()
    };
    let E::Knows {
        agent: CharId(0),
        formula,
    } = &formula.kind
    else {
        panic!("{formula:?}")
    };
    assert!(matches!(
        formula.kind,
        E::Knows {
            agent: CharId(1),
            ..
        }
    ));
    assert_eq!(
        program.statements[2].kind,
        ir::StmtKind::Worlds { limit: 25 }
    );
}

#[test]
fn at_with_an_earlier_checkpoint_and_literals() {
    use ir::ExprKind as E;
    let program =
        ok("characters A\nint x\ncheckpoint one\ncheckpoint two\nA: at(two, knows(x == -5))");
    let ir::StmtKind::Announce { formula, .. } = &program.statements[2].kind else {
        panic!()
    };
    let E::At {
        checkpoint: CheckpointId(1),
        body,
    } = &formula.kind
    else {
        panic!("{formula:?}")
    };
    let E::Knows {
        agent: CharId(0),
        formula,
    } = &body.kind
    else {
        panic!("{body:?}")
    };
    let E::Cmp(ir::CmpOp::Eq, l, r) = &formula.kind else {
        panic!("{formula:?}")
    };
    assert_eq!((&l.kind, &r.kind), (&E::Const(ConstId(0)), &E::Int(-5)));
    assert_eq!(r.ty, Ty::Int);
}

#[test]
fn every_operator_types_its_result() {
    use ir::ExprKind as E;
    let src = "int x, y\nbool p, q\nannounce \
        (x + y * 2 - x / y % 3 == -(x) and x != y and x < y and x <= y and x > y and x >= y) \
        -> (p or q) <-> (if p then q else not q) and (p == q) and (p != q) and (x, p) in {(1, true)}";
    let program = ok(src);
    let ir::StmtKind::Announce { formula, .. } = &program.statements[0].kind else {
        panic!()
    };
    fn walk(e: &ir::Expr, seen: &mut Vec<&'static str>) {
        let (name, ty, children): (&'static str, Ty, Vec<&ir::Expr>) = match &e.kind {
            E::Int(_) => ("int", Ty::Int, vec![]),
            E::Bool(_) => ("bool", Ty::Bool, vec![]),
            E::Const(_) => ("const", e.ty, vec![]),
            E::Neg(a) => ("neg", Ty::Int, vec![a]),
            E::Not(a) => ("not", Ty::Bool, vec![a]),
            E::Arith(_, a, b) => ("arith", Ty::Int, vec![a, b]),
            E::Cmp(_, a, b) => ("cmp", Ty::Bool, vec![a, b]),
            E::Logic(_, a, b) => ("logic", Ty::Bool, vec![a, b]),
            E::Ite(c, a, b) => ("ite", a.ty, vec![c, a, b]),
            E::In { tuple, set } => (
                "in",
                Ty::Bool,
                tuple.iter().chain(set.iter().flatten()).collect(),
            ),
            other => panic!("{other:?}"),
        };
        assert_eq!(e.ty, ty, "{e:?}");
        seen.push(name);
        for child in children {
            walk(child, seen);
        }
    }
    let mut seen = Vec::new();
    walk(formula, &mut seen);
    for name in [
        "int", "bool", "const", "neg", "not", "arith", "cmp", "logic", "ite", "in",
    ] {
        assert!(seen.contains(&name), "{name} missing from {seen:?}");
    }
}

/// Mangled stories (characters deleted, doubled, swapped, truncated) never panic.
#[test]
fn mangled_stories_do_not_panic() {
    let stories = [
        CHERYL,
        "characters A, B\nint x, y\nbool r\nannounce (x, y) in {(1, 2), (3, 4)} and (r -> x < y)\n\
         A learns x + y\ncheckpoint c\nB: at(c, knows(A, r) or knows_value(x, y))\nworlds 3\n",
    ];
    let replacements = [
        "(", ")", ",", "knows", "at", "A", "x", "{", "}", "in", "-", "if", "0", ":", "\n",
    ];
    let mut count = 0;
    for story in stories {
        let chars: Vec<(usize, char)> = story.char_indices().collect();
        for &(at, c) in &chars {
            let after = at + c.len_utf8();
            let mut variants = vec![
                format!("{}{}", &story[..at], &story[after..]),
                format!("{}{c}{}", &story[..after], &story[after..]),
            ];
            variants.push(story[..at].to_string());
            for r in replacements {
                variants.push(format!("{}{r}{}", &story[..at], &story[after..]));
            }
            for variant in variants {
                let _ = compile(&variant);
                count += 1;
            }
        }
    }
    assert!(count > 1000);
}

// ----- the full story language -----

/// The statements of a program, one line each, expressions shown by `Program::show`.
fn render(program: &ir::Program) -> Vec<String> {
    fn go(program: &ir::Program, stmts: &[ir::Stmt], indent: &str, out: &mut Vec<String>) {
        let name = |c: CharId| program.characters[c.0].name.clone();
        for stmt in stmts {
            let line = match &stmt.kind {
                ir::StmtKind::Announce {
                    speaker: None,
                    formula,
                } => format!("announce {}", program.show(formula, None)),
                ir::StmtKind::Announce {
                    speaker: Some(who),
                    formula,
                } => format!("{}: {}", name(*who), program.show(formula, Some(*who))),
                ir::StmtKind::Learn { who, what } => {
                    format!("{} learns {}", name(*who), program.show(what, None))
                }
                ir::StmtKind::Checkpoint(c) => {
                    format!("checkpoint {}", program.checkpoints[c.0].name)
                }
                ir::StmtKind::Worlds { limit } => format!("worlds {limit}"),
                ir::StmtKind::Simultaneously(body) => {
                    out.push(format!("{indent}simultaneously"));
                    go(program, body, &format!("{indent}  "), out);
                    continue;
                }
                ir::StmtKind::Actual(e) => format!("actual {}", program.show(e, None)),
                ir::StmtKind::Reveal { who, formula, text } => {
                    assert_eq!(text, &program.show(formula, Some(*who)));
                    format!("{} reveals {text}", name(*who))
                }
                ir::StmtKind::Repeat { max, body, until } => {
                    out.push(format!("{indent}repeat max {max}"));
                    go(program, body, &format!("{indent}  "), out);
                    format!("until {}", program.show(until, None))
                }
                ir::StmtKind::AssertAddsCk { hint, body } => {
                    out.push(format!(
                        "{indent}assert_adds_ck {}",
                        program.show(hint, None)
                    ));
                    go(program, body, &format!("{indent}  "), out);
                    continue;
                }
            };
            out.push(format!("{indent}{line}"));
        }
    }
    let mut out = Vec::new();
    go(program, &program.statements, "", &mut out);
    out
}

fn rendered(src: &str) -> Vec<String> {
    render(&ok(src))
}

#[test]
fn smoke() {
    let src = "\
const n = 3
enum Colour { red, green, blue }
characters child[n], Nobody
bool muddy[n]
int age[3]
Colour wall[2], door
announce any(i in 0..n: muddy[i])
for i in 0..n {
  for j in 0..n {
    if i != j { child[i] learns muddy[j] }
  }
}
announce sum(i in 0..3: age[i]) == 10 and count(i in 0..n: muddy[i]) >= 1
announce distinct(wall[0], wall[1], door) and door != red
announce all(i in 0..n, j in 0..n if i < j: age[i] <= age[j])
announce abs(age[0] - 3) == min(age[1], age[2], 4) + max(1, 2)
simultaneously {
  for i in 0..n { child[i] reveals knows_value(muddy[i]) }
}
actual muddy[0] and not muddy[1]
repeat max n {
  checkpoint r
  simultaneously { for i in 0..n { child[i] reveals not knows_value(muddy[i]) } }
} until all(i in 0..n: knows_value(child[i], muddy[i])) or at(r, true)
assert_adds_ck muddy[0] {
  announce muddy[0]
}
worlds
";
    for line in rendered(src) {
        eprintln!("{line}");
    }
}
