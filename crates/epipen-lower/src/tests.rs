//! Lowering tests, through the parser.

use super::expr::FUNCTIONS;
use super::names::edit_distance_within;
use super::*;
use epipen_ir::{CheckpointId, Ty, Value};

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
    let within = |a: &str, b: &str, limit| {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        edit_distance_within(&a, &b, limit)
    };
    assert_eq!(within("dya", "day", 2), Some(1));
    assert_eq!(within("abc", "abc", 0), Some(0));
    assert_eq!(within("", "abc", 3), Some(3));
    assert_eq!(within("", "abc", 2), None);
    assert_eq!(within("kitten", "sitting", 3), Some(3));
    assert_eq!(within("kitten", "sitting", 2), None);
    assert_eq!(closest("dya", ["day", "month"]), Some("day"));
    assert_eq!(closest("dxx", ["day", "month"]), None);
    assert_eq!(closest("dy", ["day", "month"]), Some("day"));
    assert_eq!(closest("mnth", ["day", "month"]), Some("month"));
    assert_eq!(closest("know", FUNCTIONS), Some("knows"));
    assert_eq!(closest("knows_val", FUNCTIONS), Some("knows_value"));
    assert_eq!(closest("dau", ["day", "dax", "dau"]), Some("dau"));
    assert_eq!(closest("dau", ["day", "dax"]), Some("day"));
}

/// The full table of optimal string alignment, to check the banded one against.
fn full_edit_distance(a: &[char], b: &[char]) -> usize {
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let mut best = (d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]))
                .min(d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[test]
fn the_banded_edit_distance_is_the_full_one_within_its_limit() {
    // Every pair of words of up to 4 letters over {a, b, c}, for every limit up to 4.
    let mut words: Vec<Vec<char>> = vec![Vec::new()];
    for len in 1..=4 {
        for n in 0..3usize.pow(len) {
            let digits = (0..len).scan(n, |k, _| {
                let c = ['a', 'b', 'c'][*k % 3];
                *k /= 3;
                Some(c)
            });
            words.push(digits.collect());
        }
    }
    for a in &words {
        for b in &words {
            let full = full_edit_distance(a, b);
            for limit in 0..=4 {
                let want = (full <= limit).then_some(full);
                assert_eq!(
                    edit_distance_within(a, b, limit),
                    want,
                    "{a:?} {b:?} {limit}"
                );
            }
        }
    }
    // Two 40 000-char names: a band, not a 12 GB table.
    let long: Vec<char> = "x".repeat(40_000).chars().collect();
    let mut other = long.clone();
    other[20_000] = 'y';
    assert_eq!(edit_distance_within(&long, &other, 2), Some(1));
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
            &[("`+` needs int operands, found bool", "r")],
        ),
        (
            "bool r\nannounce 1 < r",
            &[("`<` needs int operands, found bool", "r")],
        ),
        (
            "int x\nannounce x and true",
            &[("`and` needs bool operands, found int", "x")],
        ),
        (
            "int x\nannounce (x) and true",
            &[("`and` needs bool operands, found int", "(x)")],
        ),
        (
            "int x\nannounce not x",
            &[("`not` needs a bool operand, found int", "x")],
        ),
        (
            "bool r\nannounce -r == 1",
            &[("`-` needs an int operand, found bool", "r")],
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
            "int m\nbool r\nannounce r in 1..m",
            &[("`in a..b` is a range of ints, and this is bool", "r")],
        ),
        (
            "int m\nbool r\nannounce m in r..true",
            &[
                ("`in a..b` is a range of ints, and this is bool", "r"),
                ("`in a..b` is a range of ints, and this is bool", "true"),
            ],
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
                "`knows_value` took `A` as the character, and has no expression left",
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
            "characters A\nint m\ncheckpoint c\nA learns m + (if at(c, true) then 1 else 0)",
            &[(
                "a value learned with knowledge operators must be a formula",
                "m + (if at(c, true) then 1 else 0)",
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

/// What a newcomer wrote and the one message that leads to the fix (issue 44): a comma
/// for `|` in a `sees` line, a `for` over an enum's values, `knows` of an int.
#[test]
fn a_newcomers_mistakes_get_one_message_that_leads_to_the_fix() {
    let event = "characters A, C\nenum Obj { o1, o2, o3 }\nObj x\n\
                 event pick {\n  o1 then x := o1\n  o2 then x := o2\n  o3 then x := o3\n  \
                 C sees o1, o2, o3\n  actual o1\n}";
    assert_eq!(
        errors(event),
        [(
            "C's `sees` line has one group: C would tell no case apart".to_string(),
            "C sees o1, o2, o3".to_string()
        )]
    );
    assert_eq!(
        hints(event),
        [
            "separate the groups with `|`: `C sees o1 | o2 | o3` (a comma puts cases in one \
          group); a character with no `sees` line tells no case apart"
        ]
    );
    // One group named by `all(…)` or `others` is meant: no error.
    ok("characters A, C\nenum Obj { o1, o2 }\nObj x\n\
        event pick {\n  o1 then x := o1\n  o2 then x := o2\n  C sees o1 | others\n}");
    let looped = "characters A\nenum Door { one, two, three }\nDoor car\n\
                  for d in {one, two, three} {\n  announce car != d\n}";
    assert_eq!(
        errors(looped),
        [(
            "a `for` loop runs over ints, and these are values of the enum `Door`".to_string(),
            "one, two, three".to_string()
        )]
    );
    assert_eq!(
        hints(looped),
        [
            "write the block once for each of `one`, `two`, `three`, or say it in one formula \
          joined by `and`/`or`"
        ]
    );
    let knows = "characters Anne, Bob\nint A, B\nannounce A >= 0 and B >= 0\nAnne: not knows(B)";
    assert_eq!(
        errors(knows),
        [("expected bool, found int".to_string(), "B".to_string())]
    );
    assert_eq!(
        hints(knows),
        [
            "`knows` takes a formula; to say whether the value is known, write \
          `knows_value(…)` with the same arguments"
        ]
    );
}

/// `knows_whether(A, φ)` is `knows_value(A, φ)` of a formula (K_A φ ∨ K_A ¬φ), the
/// speaker's when A is left out; `believes_whether` likewise.
#[test]
fn knows_whether_is_the_value_of_a_formula_known() {
    let story = "characters Anne, Bob\nbool p\nint x\nannounce knows_whether(Anne, p or x > 1)\n\
                 Bob: not knows_whether(p)\nannounce believes_whether(Anne, p)";
    assert_eq!(
        rendered(story),
        [
            "announce knows_value(Anne, p or x > 1)",
            "Bob: not knows_value(p)",
            "announce believes_value(Anne, p)",
        ]
    );
    assert_eq!(
        errors("characters A\nint x\nannounce knows_whether(A, x)"),
        [("expected bool, found int".to_string(), "x".to_string())]
    );
    assert_eq!(
        errors("characters A\nbool p, q\nannounce knows_whether(A, p, q)"),
        [(
            "`knows_whether` takes a character and a formula".to_string(),
            "knows_whether(A, p, q)".to_string()
        )]
    );
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
                "the functions are `knows`, `knows_value`, `knows_whether`, `believes_whether`, \
                 `believes`, `believes_value`, `at`, `everyone_knows`, \
                 `common_knowledge`, `distributed_knowledge`, `all`, `any`, `sum`, `count`, \
             `distinct`, `abs`, `min`, `max` and `probability`",
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
Bernard: knows(Albert, knows(Bernard, rain)) and knows(Bernard, knows(rain))
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

    // Inside the speaker's own `knows`, the agent may be left out: the speaker.
    let ir::StmtKind::Announce { formula, .. } = &program.statements[1].kind else {
        panic!()
    };
    let E::Logic(ir::LogicOp::And, _, own) = &formula.kind else {
        panic!("{formula:?}")
    };
    let E::Knows {
        agent: CharId(1),
        formula,
    } = &own.kind
    else {
        panic!("{own:?}")
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
        "const n = 2\nenum C { r, g }\ncharacters c[n]\nC w[n]\nbool p[3]\nfor i in 0..n {\n  \
         if i != 0 { c[i] learns w[i] } else { worlds }\n}\nsimultaneously { c[0] reveals \
         knows_value(w[1]) }\nrepeat max 2 {\n  checkpoint k\n  actual w[0] == r\n} until \
         all(i in 0..n: w[i] != g) and at(k, true)\nassert_adds_ck sum(i in 0..3: abs(i)) > 1 \
         { announce count(i in 0..3 if i > 0: p[i]) == min(1, 2) }\n",
        "characters P[2]\nbool s[2]\nfor i in 0..2 { if i != 1 { action c[i] by P[i] if s[i] {\n  \
         x then s[i] := true\n  P[i] sees x\n} } }\ndo c[0]: x, c[0]\n\
         plan all s[0] max 2 keeping true coordinated\n",
    ];
    let replacements = [
        "(",
        ")",
        ",",
        "knows",
        "at",
        "A",
        "x",
        "{",
        "}",
        "in",
        "-",
        "if",
        "0",
        ":",
        "\n",
        "[",
        "]",
        "..",
        "i",
        "n",
        "9",
        "for i in 0..2 {",
        "else",
    ];
    let mut count = 0;
    for story in stories {
        ok(story);
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
                ir::StmtKind::Prior(e) => format!("prior {}", program.show(e, None)),
                ir::StmtKind::Show { value, text } => match value {
                    ir::Shown::Expr(e) => format!("show {} ({text})", program.show(e, None)),
                    ir::Shown::Rational(r) => {
                        format!("show {} ({text})", program.show_rat(r, None))
                    }
                },
                ir::StmtKind::Check(e) => format!("check {}", program.show(e, None)),
                ir::StmtKind::Where {
                    formula,
                    text,
                    limit,
                } => format!("where {} ({text}; {limit})", program.show(formula, None)),
                ir::StmtKind::Assign { changes } => format!(
                    "{} := {}",
                    changes
                        .iter()
                        .map(|(c, _)| program.constants[c.0].name.clone())
                        .collect::<Vec<_>>()
                        .join(", "),
                    changes
                        .iter()
                        .map(|(_, v)| program.show(v, None))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                ir::StmtKind::CheckActual(e) => format!("check actual {}", program.show(e, None)),
                ir::StmtKind::Expects { who, formula } => {
                    format!("{} expects {}", name(*who), program.show(formula, None))
                }
                ir::StmtKind::Do(steps) => format!(
                    "do {}",
                    steps
                        .iter()
                        .map(|s| {
                            let mut item = program.actions[s.action.0].name.clone();
                            if let Some(k) = s.event.actual {
                                item.push_str(&format!(": {}", s.event.cases[k].name));
                            }
                            let occurrences: Vec<&str> = (s.event.occurrences.iter())
                                .map(|o| program.constants[o.0].name.as_str())
                                .collect();
                            format!("{item} ({})", occurrences.join(" "))
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                ir::StmtKind::Plan(plan) => format!(
                    "plan{} {} max {}{}{} (actions {})",
                    if plan.all { " all" } else { "" },
                    program.show(&plan.goal, None),
                    plan.max,
                    plan.keeping
                        .as_ref()
                        .map(|k| format!(" keeping {}", program.show(k, None)))
                        .unwrap_or_default(),
                    if plan.coordinated { " coordinated" } else { "" },
                    plan.actions
                        .iter()
                        .map(|a| program.actions[a.0].name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
                ir::StmtKind::Event(ev) => {
                    let def = &program.events[ev.event.0];
                    out.push(format!(
                        "{indent}event {} ({})",
                        def.name,
                        ev.occurrences
                            .iter()
                            .map(|o| program.constants[o.0].name.clone())
                            .collect::<Vec<_>>()
                            .join(" ")
                    ));
                    for case in &ev.cases {
                        let mut line = format!("{indent}  {}", case.name);
                        if let Some(pre) = &case.pre {
                            line.push_str(&format!(" if {}", program.show(pre, None)));
                        }
                        if !case.changes.is_empty() {
                            let cs: Vec<String> = case
                                .changes
                                .iter()
                                .map(|(c, v)| {
                                    format!(
                                        "{} := {}",
                                        program.constants[c.0].name,
                                        program.show(v, None)
                                    )
                                })
                                .collect();
                            line.push_str(&format!(" then {}", cs.join(", ")));
                        }
                        out.push(line);
                    }
                    for (who, groups) in ev.sees.iter().enumerate() {
                        if let Some(groups) = groups {
                            out.push(format!(
                                "{indent}  {} sees {groups:?}",
                                program.characters[who].name
                            ));
                        }
                    }
                    for (who, ranks) in ev.expects.iter().enumerate() {
                        if let Some(ranks) = ranks {
                            out.push(format!(
                                "{indent}  {} expects {ranks:?}",
                                program.characters[who].name
                            ));
                        }
                    }
                    if let Some(k) = ev.actual {
                        out.push(format!("{indent}  actual {}", ev.cases[k].name));
                    }
                    continue;
                }
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

/// An expression with every span zeroed, to compare trees.
fn strip(e: &ir::Expr) -> ir::Expr {
    use ir::ExprKind as E;
    let b = |e: &ir::Expr| Box::new(strip(e));
    let kind = match &e.kind {
        E::Int(_) | E::Bool(_) | E::Const(_) | E::Latest(_) => e.kind.clone(),
        E::Shared(a) => E::Shared(std::sync::Arc::new(strip(a))),
        E::Neg(a) => E::Neg(b(a)),
        E::Not(a) => E::Not(b(a)),
        E::Arith(op, x, y) => E::Arith(*op, b(x), b(y)),
        E::Cmp(op, x, y) => E::Cmp(*op, b(x), b(y)),
        E::Logic(op, x, y) => E::Logic(*op, b(x), b(y)),
        E::Ite(c, x, y) => E::Ite(b(c), b(x), b(y)),
        E::In { tuple, set } => E::In {
            tuple: tuple.iter().map(strip).collect(),
            set: set.iter().map(|i| i.iter().map(strip).collect()).collect(),
        },
        E::Knows { agent, formula } => E::Knows {
            agent: *agent,
            formula: b(formula),
        },
        E::KnowsValue { agent, exprs } => E::KnowsValue {
            agent: *agent,
            exprs: exprs.iter().map(strip).collect(),
        },
        E::Believes { agent, formula } => E::Believes {
            agent: *agent,
            formula: b(formula),
        },
        E::BelievesValue { agent, exprs } => E::BelievesValue {
            agent: *agent,
            exprs: exprs.iter().map(strip).collect(),
        },
        E::At { checkpoint, body } => E::At {
            checkpoint: *checkpoint,
            body: b(body),
        },
        E::Group {
            op,
            agents,
            formula,
        } => E::Group {
            op: *op,
            agents: agents.clone(),
            formula: b(formula),
        },
        E::Chance { .. } => e.kind.clone(),
        E::Announced {
            agents,
            whether,
            formula,
            body,
        } => E::Announced {
            agents: agents.clone(),
            whether: *whether,
            formula: b(formula),
            body: b(body),
        },
        E::Quantified {
            forall,
            consts,
            body,
        } => E::Quantified {
            forall: *forall,
            consts: consts.clone(),
            body: b(body),
        },
    };
    ir::Expr {
        kind,
        ty: e.ty,
        span: Span::default(),
    }
}

/// The formula of the last statement, an `announce`.
fn last_formula(program: &ir::Program) -> &ir::Expr {
    match &program.statements.last().expect("a statement").kind {
        ir::StmtKind::Announce { formula, .. } => formula,
        other => panic!("{other:?}"),
    }
}

/// Helpers to write expected trees.
mod build {
    use epipen_ir::{self as ir, ConstId, ExprKind as E, Ty};
    use epipen_syntax::Span;

    pub fn e(kind: E, ty: Ty) -> ir::Expr {
        ir::Expr {
            kind,
            ty,
            span: Span::default(),
        }
    }
    pub fn int(n: i64) -> ir::Expr {
        e(E::Int(n), Ty::Int)
    }
    pub fn bool(b: bool) -> ir::Expr {
        e(E::Bool(b), Ty::Bool)
    }
    pub fn c(id: usize, ty: Ty) -> ir::Expr {
        e(E::Const(ConstId(id)), ty)
    }
    pub fn add(a: ir::Expr, b: ir::Expr) -> ir::Expr {
        e(
            E::Arith(ir::ArithOp::Add, Box::new(a), Box::new(b)),
            Ty::Int,
        )
    }
    pub fn cmp(op: ir::CmpOp, a: ir::Expr, b: ir::Expr) -> ir::Expr {
        e(E::Cmp(op, Box::new(a), Box::new(b)), Ty::Bool)
    }
    pub fn logic(op: ir::LogicOp, a: ir::Expr, b: ir::Expr) -> ir::Expr {
        e(E::Logic(op, Box::new(a), Box::new(b)), Ty::Bool)
    }
    /// `x in lo..hi`, lowered.
    pub fn in_range(x: ir::Expr, lo: i64, hi: i64) -> ir::Expr {
        let from = cmp(ir::CmpOp::Le, int(lo), x.clone());
        logic(ir::LogicOp::And, from, cmp(ir::CmpOp::Lt, x, int(hi)))
    }
    pub fn ite(c: ir::Expr, a: ir::Expr, b: ir::Expr) -> ir::Expr {
        let ty = a.ty;
        e(E::Ite(Box::new(c), Box::new(a), Box::new(b)), ty)
    }
}

#[test]
fn for_and_if_unroll_into_plain_statements() {
    let program = ok("\
characters child[3]
bool muddy[3]
for i in 0..3 { if i != 1 { child[i] learns muddy[i] } }
");
    let learns: Vec<(CharId, &ir::ExprKind)> = program
        .statements
        .iter()
        .map(|s| match &s.kind {
            ir::StmtKind::Learn { who, what } => (*who, &what.kind),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        learns,
        [
            (CharId(0), &ir::ExprKind::Const(ConstId(0))),
            (CharId(2), &ir::ExprKind::Const(ConstId(2))),
        ]
    );
    // The unrolled statements keep the span of the statement they come from.
    let src = "characters A\nfor i in 0..2 {\n  worlds\n}";
    let program = ok(src);
    assert_eq!(program.statements.len(), 2);
    for stmt in &program.statements {
        assert_eq!(&src[stmt.span.start..stmt.span.end], "worlds");
    }
    // A checkpoint in a loop is one checkpoint, saved again in each round (as in a
    // `repeat`): `at` names the latest save.
    let program = ok("bool p\nfor i in 0..2 {\n  checkpoint c\n  announce at(c, p)\n}");
    assert_eq!(program.checkpoints.len(), 1);
    let kinds: Vec<String> = program
        .statements
        .iter()
        .map(|s| match &s.kind {
            ir::StmtKind::Checkpoint(c) => format!("checkpoint {}", c.0),
            ir::StmtKind::Announce { .. } => "announce".to_string(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        ["checkpoint 0", "announce", "checkpoint 0", "announce"]
    );
}

#[test]
fn families_are_consecutive_members() {
    let program = ok("\
const n = 2
characters Alice, child[n + 1], Nobody
int age[n], x
bool muddy[0]
");
    let chars: Vec<&str> = program.characters.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        chars,
        ["Alice", "child[0]", "child[1]", "child[2]", "Nobody"]
    );
    let consts: Vec<(&str, Ty)> = program
        .constants
        .iter()
        .map(|c| (c.name.as_str(), c.ty))
        .collect();
    assert_eq!(
        consts,
        [("age[0]", Ty::Int), ("age[1]", Ty::Int), ("x", Ty::Int)]
    );
}

#[test]
fn sum_count_and_friends_expand() {
    use build::*;
    use ir::{CmpOp, LogicOp};
    let prelude = "characters A\nint age[3]\nbool p[3]\n";
    let table: Vec<(&str, ir::Expr)> = vec![
        (
            "sum(i in 0..3: age[i]) == 10",
            cmp(
                CmpOp::Eq,
                add(add(c(0, Ty::Int), c(1, Ty::Int)), c(2, Ty::Int)),
                int(10),
            ),
        ),
        (
            "count(i in 1..3: p[i]) == 1",
            cmp(
                CmpOp::Eq,
                add(
                    ite(c(4, Ty::Bool), int(1), int(0)),
                    ite(c(5, Ty::Bool), int(1), int(0)),
                ),
                int(1),
            ),
        ),
        (
            "all(i in 0..2: p[i])",
            logic(LogicOp::And, c(3, Ty::Bool), c(4, Ty::Bool)),
        ),
        ("any(i in 2..3: p[i])", c(5, Ty::Bool)),
        (
            "all(i in 0..3, j in 0..3 if i < j: age[i] != age[j])",
            logic(
                LogicOp::And,
                logic(
                    LogicOp::And,
                    cmp(CmpOp::Ne, c(0, Ty::Int), c(1, Ty::Int)),
                    cmp(CmpOp::Ne, c(0, Ty::Int), c(2, Ty::Int)),
                ),
                cmp(CmpOp::Ne, c(1, Ty::Int), c(2, Ty::Int)),
            ),
        ),
        // A later range may use an earlier variable.
        (
            "distinct(i in 0..3: age[i]) <-> all(i in 0..3, j in i + 1..3: age[i] != age[j])",
            {
                let d = logic(
                    LogicOp::And,
                    logic(
                        LogicOp::And,
                        cmp(CmpOp::Ne, c(0, Ty::Int), c(1, Ty::Int)),
                        cmp(CmpOp::Ne, c(0, Ty::Int), c(2, Ty::Int)),
                    ),
                    cmp(CmpOp::Ne, c(1, Ty::Int), c(2, Ty::Int)),
                );
                logic(LogicOp::Iff, d.clone(), d)
            },
        ),
        (
            "distinct(age[0], age[1])",
            cmp(CmpOp::Ne, c(0, Ty::Int), c(1, Ty::Int)),
        ),
        (
            "age[0] in 1..age[1] + 1",
            logic(
                LogicOp::And,
                cmp(CmpOp::Le, int(1), c(0, Ty::Int)),
                cmp(CmpOp::Lt, c(0, Ty::Int), add(c(1, Ty::Int), int(1))),
            ),
        ),
        (
            "count(i in 0..3: age[i] in i..3) == 0",
            cmp(
                CmpOp::Eq,
                add(
                    add(
                        ite(in_range(c(0, Ty::Int), 0, 3), int(1), int(0)),
                        ite(in_range(c(1, Ty::Int), 1, 3), int(1), int(0)),
                    ),
                    ite(in_range(c(2, Ty::Int), 2, 3), int(1), int(0)),
                ),
                int(0),
            ),
        ),
        ("3 in 0..3", bool(false)),
        ("distinct(age[0])", bool(true)),
        ("distinct()", bool(true)),
        // Empty aggregates.
        ("all(i in 0..0: p[i])", bool(true)),
        ("any(i in 3..1: p[i])", bool(false)),
        ("sum(i in 0..0: age[i]) == 0", bool(true)),
        ("count(i in 0..3 if false: p[i]) == 0", bool(true)),
        (
            "abs(age[0]) == 1",
            cmp(
                CmpOp::Eq,
                ite(
                    cmp(CmpOp::Lt, c(0, Ty::Int), int(0)),
                    e(ir::ExprKind::Neg(Box::new(c(0, Ty::Int))), Ty::Int),
                    c(0, Ty::Int),
                ),
                int(1),
            ),
        ),
        (
            "min(age[0], age[1], age[2]) == 1",
            cmp(
                CmpOp::Eq,
                ite(
                    logic(
                        LogicOp::And,
                        cmp(CmpOp::Le, c(0, Ty::Int), c(1, Ty::Int)),
                        cmp(CmpOp::Le, c(0, Ty::Int), c(2, Ty::Int)),
                    ),
                    c(0, Ty::Int),
                    ite(
                        cmp(CmpOp::Le, c(1, Ty::Int), c(2, Ty::Int)),
                        c(1, Ty::Int),
                        c(2, Ty::Int),
                    ),
                ),
                int(1),
            ),
        ),
        (
            "max(age[0], 4) == 1",
            cmp(
                CmpOp::Eq,
                ite(cmp(CmpOp::Ge, c(0, Ty::Int), int(4)), c(0, Ty::Int), int(4)),
                int(1),
            ),
        ),
        (
            "max(age[2]) == age[2]",
            cmp(CmpOp::Eq, c(2, Ty::Int), c(2, Ty::Int)),
        ),
        // Compile-time parts fold away.
        ("abs(-3) + min(2, 1) + max(2, 5) == 9", bool(true)),
        (
            "age[7 % 3] == sum(i in 0..4: i)",
            cmp(CmpOp::Eq, c(1, Ty::Int), int(6)),
        ),
        (
            "age[-1 + 1] == -(2 * 3) / 4",
            cmp(CmpOp::Eq, c(0, Ty::Int), int(-2)),
        ),
    ];
    for (src, want) in table {
        let program = ok(&format!("{prelude}announce {src}"));
        assert_eq!(strip(last_formula(&program)), want, "{src}");
    }
}

#[test]
fn consts_and_loop_variables_become_literals() {
    use build::*;
    let program = ok("\
const n = 4
const half = n / 2
int x
for i in half..n { announce x != i + n * 10 }
");
    let formulas: Vec<ir::Expr> = program
        .statements
        .iter()
        .map(|s| match &s.kind {
            ir::StmtKind::Announce { formula, .. } => strip(formula),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        formulas,
        [
            cmp(ir::CmpOp::Ne, c(0, Ty::Int), int(42)),
            cmp(ir::CmpOp::Ne, c(0, Ty::Int), int(43)),
        ]
    );
}

#[test]
fn statement_if_chooses_a_branch() {
    let src = "\
const n = 2
for i in 0..4 {
  if i == 0 { worlds 1 } else if i < n { worlds 2 } else if i == 2 { worlds 3 } else { worlds 4 }
}
if n > 5 { worlds 9 }
";
    assert_eq!(
        rendered(src),
        ["worlds 1", "worlds 2", "worlds 3", "worlds 4"]
    );
}

#[test]
fn enums_type_constants_and_values() {
    use build::*;
    let program = ok("\
enum Colour {
  red,
  green,
  blue,
}
enum Size { small, large }
Colour wall[2], door
Size s
announce door == blue and wall[1] in {red, green} and s != large
");
    assert_eq!(
        program.enums,
        [
            ir::EnumDef {
                name: "Colour".to_string(),
                variants: vec!["red".into(), "green".into(), "blue".into()],
                span: program.enums[0].span,
            },
            ir::EnumDef {
                name: "Size".to_string(),
                variants: vec!["small".into(), "large".into()],
                span: program.enums[1].span,
            },
        ]
    );
    let colour = Ty::Enum(ir::EnumId(0));
    let size = Ty::Enum(ir::EnumId(1));
    let tys: Vec<Ty> = program.constants.iter().map(|c| c.ty).collect();
    assert_eq!(tys, [colour, colour, colour, size]);
    assert_eq!(program.ty_name(colour), "Colour");
    let value = |n, ty| e(ir::ExprKind::Int(n), ty);
    let want = logic(
        ir::LogicOp::And,
        logic(
            ir::LogicOp::And,
            cmp(ir::CmpOp::Eq, c(2, colour), value(2, colour)),
            e(
                ir::ExprKind::In {
                    tuple: vec![c(1, colour)],
                    set: vec![vec![value(0, colour)], vec![value(1, colour)]],
                },
                Ty::Bool,
            ),
        ),
        cmp(ir::CmpOp::Ne, c(3, size), value(1, size)),
    );
    assert_eq!(strip(last_formula(&program)), want);
    // Enum values compare at compile time too.
    let program = ok("enum C { a, b }\nif a != b { worlds 3 }");
    assert_eq!(render(&program), ["worlds 3"]);
}

#[test]
fn the_full_story_language_lowers() {
    let src = "\
const n = 3
characters child[n], Nobody
bool muddy[n]
actual muddy[0] and not muddy[1] and muddy[2]
announce any(i in 0..n: muddy[i])
for i in 0..n {
  for j in 0..n {
    if i != j { child[i] learns muddy[j] }
  }
}
checkpoint start
simultaneously {
  for i in 0..n { child[i] reveals knows_value(muddy[i]) }
  announce true
}
repeat max n {
  checkpoint round
  simultaneously { for i in 0..n { child[i] reveals not knows_value(muddy[i]) } }
} until all(i in 0..n: knows_value(child[i], muddy[i])) or at(round, true)
assert_adds_ck count(i in 0..n: muddy[i]) >= 1 {
  announce any(i in 0..n: muddy[i])
}
Nobody: at(start, not knows_value(muddy[0]))
worlds
";
    assert_eq!(
        rendered(src),
        [
            "actual muddy[0] and not muddy[1] and muddy[2]",
            "announce muddy[0] or muddy[1] or muddy[2]",
            "child[0] learns muddy[1]",
            "child[0] learns muddy[2]",
            "child[1] learns muddy[0]",
            "child[1] learns muddy[2]",
            "child[2] learns muddy[0]",
            "child[2] learns muddy[1]",
            "checkpoint start",
            "simultaneously",
            "  child[0] reveals knows_value(muddy[0])",
            "  child[1] reveals knows_value(muddy[1])",
            "  child[2] reveals knows_value(muddy[2])",
            "  announce true",
            "repeat max 3",
            "  checkpoint round",
            "  simultaneously",
            "    child[0] reveals not knows_value(muddy[0])",
            "    child[1] reveals not knows_value(muddy[1])",
            "    child[2] reveals not knows_value(muddy[2])",
            "until knows_value(child[0], muddy[0]) and knows_value(child[1], muddy[1]) and \
             knows_value(child[2], muddy[2]) or at(round, true)",
            "assert_adds_ck (if muddy[0] then 1 else 0) + (if muddy[1] then 1 else 0) + \
             (if muddy[2] then 1 else 0) >= 1",
            "  announce muddy[0] or muddy[1] or muddy[2]",
            "Nobody: at(start, not knows_value(muddy[0]))",
            "worlds 10",
        ]
    );
}

#[test]
fn reveals_keep_the_implicit_agent_implicit() {
    let program = ok("\
characters Alice, Bob
int x
bool muddy[2]
Alice reveals knows(not knows_value(Bob, x))
Bob reveals knows_value(Bob, muddy[1]) and knows(Alice, knows_value(Alice, x))
");
    let texts: Vec<(&CharId, &str)> = program
        .statements
        .iter()
        .map(|s| match &s.kind {
            ir::StmtKind::Reveal { who, text, .. } => (who, text.as_str()),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        texts,
        [
            (&CharId(0), "knows(not knows_value(Bob, x))"),
            (
                &CharId(1),
                "knows_value(muddy[1]) and knows(Alice, knows_value(Alice, x))"
            ),
        ]
    );
}

#[test]
fn show_prints_minimal_parentheses() {
    let prelude = "\
enum Colour { red, green }
characters A, B
int x, y, z
bool p, q, r
Colour c
checkpoint s
";
    // (expression as written, as shown)
    let table = [
        ("p and q or r", "p and q or r"),
        ("p and (q or r)", "p and (q or r)"),
        ("(p and q) and r", "p and q and r"),
        ("p and (q and r)", "p and (q and r)"),
        ("p -> q -> r", "p -> q -> r"),
        ("(p -> q) -> r", "(p -> q) -> r"),
        ("p <-> q <-> r", "p <-> q <-> r"),
        ("p <-> (q <-> r)", "p <-> (q <-> r)"),
        ("not (p and q)", "not (p and q)"),
        ("not not p", "not not p"),
        ("not x == 1", "not x == 1"),
        ("(p == q) == r", "(p == q) == r"),
        ("x - (y - z) == x - y - z", "x - (y - z) == x - y - z"),
        ("x * (y + z) == x * y + z", "x * (y + z) == x * y + z"),
        ("x / (y * z) == x % y * z", "x / (y * z) == x % y * z"),
        ("-(x + 1) == -x", "-(x + 1) == -x"),
        ("x == -5 and x - -5 == 0", "x == -5 and x - -5 == 0"),
        ("-(-x) == x", "- -x == x"),
        (
            "(if p then 1 else 2) + 1 == x",
            "(if p then 1 else 2) + 1 == x",
        ),
        ("x == (if p then 1 else 2)", "x == (if p then 1 else 2)"),
        (
            "if p then q else if q then r else p",
            "if p then q else if q then r else p",
        ),
        (
            "if (if p then q else r) then q else r",
            "if (if p then q else r) then q else r",
        ),
        ("x in {1, 2}", "x in {1, 2}"),
        ("x + 1 in {}", "x + 1 in {}"),
        (
            "(x, p) in {(1, true), (2, false)}",
            "(x, p) in {(1, true), (2, false)}",
        ),
        ("c == red or c in {green}", "c == red or c in {green}"),
        (
            "knows(A, p) and knows_value(B, x, y)",
            "knows(A, p) and knows_value(B, x, y)",
        ),
        ("at(s, knows(A, not p))", "at(s, knows(A, not p))"),
        (
            "(p or q) and not knows(A, p or q)",
            "(p or q) and not knows(A, p or q)",
        ),
        ("x == 2 + 3", "x == 5"),
    ];
    for (written, shown) in table {
        let program = ok(&format!("{prelude}announce {written}"));
        let formula = last_formula(&program);
        assert_eq!(program.show(formula, None), shown, "{written}");
        // What is shown reads back as the same formula.
        let again = ok(&format!("{prelude}announce {shown}"));
        assert_eq!(strip(last_formula(&again)), strip(formula), "{shown}");
    }
    // The speaker's own agent is left out, except inside another character's knowledge
    // (where a story may not leave it out).
    let program = ok(&format!(
        "{prelude}A: knows(p) and knows(B, knows_value(A, x)) and knows(A, knows(p))"
    ));
    let formula = last_formula(&program);
    let shown = program.show(formula, Some(CharId(0)));
    assert_eq!(
        shown,
        "knows(p) and knows(B, knows_value(A, x)) and knows(knows(p))"
    );
    assert_eq!(
        strip(last_formula(&ok(&format!("{prelude}A: {shown}")))),
        strip(formula)
    );
    assert_eq!(
        program.show(formula, None),
        "knows(A, p) and knows(B, knows_value(A, x)) and knows(A, knows(A, p))"
    );
}

fn compile_with(src: &str, sets: &[(&str, i64)]) -> Result<ir::Program, crate::CompileError> {
    let sets: Vec<(String, i64)> = sets.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    crate::compile(src, &sets)
}

#[test]
fn sets_override_consts() {
    let src = "const n = 2\nconst m = n * 10\ncharacters child[n]\nint x\nannounce x == m\n";
    let program = compile_with(src, &[("n", 4)]).unwrap();
    assert_eq!(program.characters.len(), 4);
    assert_eq!(program.show(last_formula(&program), None), "x == 40");
    let program = compile_with(src, &[("n", 4), ("m", 7), ("n", 1)]).unwrap();
    assert_eq!(program.characters.len(), 1);
    assert_eq!(program.show(last_formula(&program), None), "x == 7");
    assert_eq!(
        compile_with(src, &[("x", 3)]),
        Err(crate::CompileError::UnknownSet {
            name: "x".to_string(),
            consts: vec!["n".to_string(), "m".to_string()],
        })
    );
    // A set value is checked like the declared one.
    let Err(crate::CompileError::Story(diagnostics)) = compile_with(src, &[("n", -1)]) else {
        panic!()
    };
    assert_eq!(diagnostics[0].message, "a family cannot have -1 members");
    // A syntax error comes first.
    assert!(matches!(
        compile_with("announce )", &[("x", 1)]),
        Err(crate::CompileError::Story(_))
    ));
}

#[test]
fn repeat_checkpoints_are_visible_to_until() {
    let program = ok("\
characters A
bool p
repeat max 5 {
  A: p
  checkpoint c
} until at(c, knows(A, p))
announce at(c, true)
");
    assert_eq!(program.checkpoints.len(), 1);
    let ir::StmtKind::Repeat {
        max: 5,
        body,
        until,
    } = &program.statements[0].kind
    else {
        panic!("{:?}", program.statements[0])
    };
    assert_eq!(body.len(), 2);
    assert!(matches!(
        until.kind,
        ir::ExprKind::At {
            checkpoint: CheckpointId(0),
            ..
        }
    ));
}

#[test]
fn code_that_does_not_run_is_still_checked() {
    // Names and types are checked in an empty loop and in an untaken branch…
    assert_eq!(
        errors(
            "bool p\nfor i in 0..0 { announce zz }\nif false { announce 1 } else { announce p }"
        ),
        [
            ("unknown name `zz`".to_string(), "zz".to_string()),
            ("expected bool, found int".to_string(), "1".to_string()),
        ]
    );
    assert_eq!(
        errors("bool p[2]\nannounce all(i in 0..0: p[i] + 1)"),
        [(
            "`+` needs int operands, found bool".to_string(),
            "p[i]".to_string()
        )]
    );
    // …but values there are placeholders: no range errors, nothing emitted.
    let program = ok("\
const n = 1
bool muddy[n]
for i in 0..n {
  if i + 1 < n { announce muddy[i + 1] }
}
announce all(i in 0..n, j in 0..n if i != j: muddy[j])
");
    assert_eq!(rendered_program(&program), ["announce true"]);
}

fn rendered_program(program: &ir::Program) -> Vec<String> {
    render(program)
}

#[test]
fn new_constructs_report_located_errors() {
    let table: &[(&str, &[(&str, &str)])] = &[
        // consts
        ("for i in 0..n { worlds }", &[("unknown name `n`", "n")]),
        (
            "int x\nconst n = x + 1",
            &[(
                "the value of a `const` must be computable before the story runs (from consts and loop variables)",
                "x + 1",
            )],
        ),
        ("const n = true", &[("expected int, found bool", "true")]),
        (
            "const n = 1\nconst n = 2",
            &[("`n` is already declared", "n")],
        ),
        (
            "const big = 9223372036854775807 + 1",
            &[(
                "the value of a `const` overflows 64-bit integers",
                "9223372036854775807 + 1",
            )],
        ),
        // families and indices
        (
            "bool muddy[6]\nannounce muddy[6]",
            &[("index 6 is out of range: `muddy` has 6 members (0..5)", "6")],
        ),
        (
            "bool muddy[3]\nfor i in 0..4 { announce muddy[i] }",
            &[("index 3 is out of range: `muddy` has 3 members (0..2)", "i")],
        ),
        (
            "bool muddy[1]\nannounce muddy[-1 + 0]",
            &[(
                "index -1 is out of range: `muddy` has 1 member (0)",
                "-1 + 0",
            )],
        ),
        (
            "bool muddy[0]\nannounce muddy[0]",
            &[("index 0 is out of range: `muddy` has no members", "0")],
        ),
        (
            "bool muddy[6]\nint x\nannounce muddy[x]",
            &[(
                "an index must be computable before the story runs (from consts and loop variables)",
                "x",
            )],
        ),
        (
            "characters A\nbool muddy[6]\nannounce muddy[if knows(A, true) then 1 else 0]",
            &[(
                "an index must be computable before the story runs (from consts and loop variables)",
                "if knows(A, true) then 1 else 0",
            )],
        ),
        (
            "bool muddy[6]\nannounce muddy",
            &[(
                "`muddy` is a family; pick a member, e.g. `muddy[0]`",
                "muddy",
            )],
        ),
        (
            "characters child[2]\nchild: true",
            &[(
                "`child` is a family; pick a member, e.g. `child[0]`",
                "child",
            )],
        ),
        (
            "characters child[2]\nannounce knows(child, true)",
            &[(
                "`child` is a family; pick a member, e.g. `child[0]`",
                "child",
            )],
        ),
        (
            "characters child[2]\nannounce child[1]",
            &[("`child[1]` is a character, not a value", "child[1]")],
        ),
        (
            "bool muddy[2]\nmuddy[0] learns true",
            &[("`muddy[0]` is not a character", "muddy[0]")],
        ),
        ("int x\nannounce x[0]", &[("`x` is not a family", "x")]),
        (
            "for i in 0..2 { announce i[0] }",
            &[("`i` is not a family", "i")],
        ),
        ("announce zz[0]", &[("unknown name `zz`", "zz")]),
        (
            "bool muddy[2]\nannounce muddy[true]",
            &[("expected int, found bool", "true")],
        ),
        (
            "int size\nbool muddy[size]",
            &[(
                "the size of a family must be computable before the story runs (from consts and loop variables)",
                "size",
            )],
        ),
        (
            "bool muddy[-1]",
            &[("a family cannot have -1 members", "-1")],
        ),
        (
            "bool muddy[100001]",
            &[(
                "a family may have at most 100000 members, found 100001",
                "100001",
            )],
        ),
        // enums
        (
            "enum Colour { red, green }\nColour c\nannounce c == 1",
            &[("cannot compare Colour with int", "c == 1")],
        ),
        (
            "enum Colour { red, green }\nColour c\nannounce c < green",
            &[
                ("`<` needs int operands, found Colour", "c"),
                ("`<` needs int operands, found Colour", "green"),
            ],
        ),
        (
            "enum Colour { red }\nColour c\nannounce c + 1 == 2",
            &[("`+` needs int operands, found Colour", "c")],
        ),
        (
            "enum Colour { red }\nColour c\nannounce -c == 2",
            &[("`-` needs an int operand, found Colour", "c")],
        ),
        (
            "enum Colour { red }\nint x\nannounce x in {1, red}",
            &[("expected int, found Colour", "red")],
        ),
        (
            "enum Colour { red, green }\nColour c\nannounce c == gren",
            &[("unknown name `gren`", "gren")],
        ),
        (
            "enum Colour { red }\nannounce Colour == red",
            &[("`Colour` is an enum, not a value", "Colour")],
        ),
        (
            "enum Colour { red, red }",
            &[("`red` is already declared", "red")],
        ),
        (
            "characters red\nenum Colour { red }",
            &[("`red` is already declared", "red")],
        ),
        (
            "enum Colour { red }\nconst red = 1",
            &[("`red` is already declared", "red")],
        ),
        (
            "Colour c\nenum Colour { red }",
            &[("unknown enum `Colour`", "Colour")],
        ),
        (
            "enum C { r }\nC c\nannounce min(c, 1) == 1",
            &[("`min` needs ints, found C", "c")],
        ),
        (
            "enum C { r }\nC c\nannounce distinct(c, 1)",
            &[("cannot compare C with int", "1")],
        ),
        (
            "enum C { r }\nC c\nannounce sum(i in 0..2: c) == 1",
            &[("`sum` needs ints, found C", "c")],
        ),
        // loops and conditions
        (
            "const n = 3\nfor n in 0..3 { worlds }",
            &[("`n` is already declared", "n")],
        ),
        (
            "for i in 0..3 { for i in 0..2 { worlds } }",
            &[("`i` is a loop variable here", "i")],
        ),
        (
            "bool p\nannounce all(p in 0..2: true)",
            &[("`p` is already declared", "p")],
        ),
        (
            "int x\nfor i in 0..x { worlds }",
            &[(
                "a range bound must be computable before the story runs (from consts and loop variables)",
                "x",
            )],
        ),
        (
            "int x\nif x > 1 { worlds }",
            &[(
                "the condition of `if` must be computable before the story runs (from consts and loop variables)",
                "x > 1",
            )],
        ),
        ("if 1 { worlds }", &[("expected bool, found int", "1")]),
        (
            "bool p[2]\nannounce all(i in 0..2 if p[i]: true)",
            &[(
                "the condition of an aggregate must be computable before the story runs (from consts and loop variables)",
                "p[i]",
            )],
        ),
        (
            "for i in 0..3 { int x }",
            &[(
                "declarations must be at the top level of the story",
                "int x",
            )],
        ),
        (
            "if true { const n = 1 }",
            &[(
                "declarations must be at the top level of the story",
                "const n = 1",
            )],
        ),
        (
            "repeat max 2 { enum E { a } } until true",
            &[(
                "declarations must be at the top level of the story",
                "enum E { a }",
            )],
        ),
        // aggregates and functions
        (
            "announce sum(i in 0..3: true) == 1",
            &[("`sum` needs ints, found bool", "true")],
        ),
        (
            "announce all(i in 0..3: 1)",
            &[("expected bool, found int", "1")],
        ),
        (
            "announce count(i in 0..3) == 1",
            &[("`count` needs a body after its range", "count(i in 0..3)")],
        ),
        (
            "announce any(i in {1, 2})",
            &[("`any` needs a body after its range", "any(i in {1, 2})")],
        ),
        (
            "announce count(i in 0..3: i) == 1",
            &[("expected bool, found int", "i")],
        ),
        (
            "bool p\nannounce all(p)",
            &[("`all` needs a range", "all(p)")],
        ),
        (
            "announce min() == 1",
            &[("`min` needs at least one value", "min()")],
        ),
        (
            "announce abs(1, 2) == 1",
            &[("`abs` takes one integer", "abs(1, 2)")],
        ),
        (
            "announce abs(true) == 1",
            &[("`abs` needs ints, found bool", "true")],
        ),
        (
            "announce abs(i in 0..3: true)",
            &[("`abs` does not take a range", "abs")],
        ),
        (
            "announce foo(i in 0..3: true)",
            &[("unknown function `foo`", "foo")],
        ),
        // simultaneously, actual, reveals, repeat, assert_adds_ck
        (
            "characters A\nsimultaneously { A learns true }",
            &[(
                "only announcements can be made simultaneously",
                "A learns true",
            )],
        ),
        (
            "characters A\nsimultaneously {\n  A: true\n  checkpoint c\n  worlds\n}",
            &[
                (
                    "only announcements can be made simultaneously",
                    "checkpoint c",
                ),
                ("only announcements can be made simultaneously", "worlds"),
            ],
        ),
        (
            "characters A\nsimultaneously { for i in 0..2 { if i == 1 { actual true } } }",
            &[(
                "only announcements can be made simultaneously",
                "actual true",
            )],
        ),
        (
            "characters A\nsimultaneously { simultaneously { A: true } }",
            &[(
                "only announcements can be made simultaneously",
                "simultaneously { A: true }",
            )],
        ),
        (
            "characters A\nbool p\nactual knows(A, p)",
            &[(
                "`actual` describes the world itself, without knowledge operators",
                "knows(A, p)",
            )],
        ),
        ("int x\nactual x", &[("expected bool, found int", "x")]),
        (
            "characters A\nint x\nA reveals x",
            &[("expected bool, found int", "x")],
        ),
        ("int x\nx reveals true", &[("`x` is not a character", "x")]),
        (
            "characters A\nbool p\nannounce knows(p)\nA reveals knows(p)",
            &[("`knows` needs a character here", "knows(p)")],
        ),
        (
            "bool p\nrepeat max 0 { announce p } until p",
            &[("`repeat` needs at least 1 round, found 0", "0")],
        ),
        (
            "int x\nrepeat max x { worlds } until true",
            &[(
                "the number of rounds must be computable before the story runs (from consts and loop variables)",
                "x",
            )],
        ),
        (
            "characters A\nbool p\nrepeat max 3 { A: p } until knows_value(p)",
            &[("`knows_value` needs a character here", "knows_value(p)")],
        ),
        (
            "int x\nrepeat max 3 { worlds } until x",
            &[("expected bool, found int", "x")],
        ),
        (
            "bool p\nrepeat max 3 { worlds } until at(c, p)\ncheckpoint c",
            &[("checkpoint `c` is defined after this statement", "c")],
        ),
        (
            "int x\nassert_adds_ck x { worlds }",
            &[("expected bool, found int", "x")],
        ),
        (
            "bool p\nassert_adds_ck knows(p) { worlds }",
            &[("`knows` needs a character here", "knows(p)")],
        ),
        // checkpoints in blocks
        (
            "bool p\nfor i in 0..3 { announce at(c, p)\n checkpoint c }",
            &[("checkpoint `c` is defined after this statement", "c")],
        ),
        (
            "bool p\ncheckpoint c\nfor i in 0..3 { checkpoint c }",
            &[("checkpoint `c` is already defined", "c")],
        ),
        (
            "bool p\nif false { checkpoint c }\nannounce at(c, p)",
            &[("checkpoint `c` is never reached", "c")],
        ),
        (
            "bool p\nannounce at(c, p)\nrepeat max 2 { checkpoint c } until true",
            &[("checkpoint `c` is defined after this statement", "c")],
        ),
        (
            "bool p\nrepeat max 2 { announce at(c, p)\n checkpoint c } until true",
            &[("checkpoint `c` is defined after this statement", "c")],
        ),
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
fn new_constructs_hint_what_to_do() {
    let table: &[(&str, &[&str])] = &[
        (
            "for i in 0..n { worlds }",
            &["declare it first, e.g. `const n = 3`"],
        ),
        (
            "const num = 3\nfor i in 0..nu { worlds }",
            &["did you mean `num`?"],
        ),
        (
            "for i in 0..n { worlds }\nconst n = 3",
            &["`n` is declared later in the story"],
        ),
        (
            "enum Colour { red, green }\nColour c\nannounce c == gren",
            &["did you mean `green`?"],
        ),
        (
            "bool muddy[3]\nannounce mudy[0]",
            &["did you mean `muddy`?"],
        ),
        (
            "bool muddy[6]\nint x\nannounce muddy[x]",
            &["`x` is a hidden constant: its value is known only as the story runs"],
        ),
        (
            "characters A\nbool muddy[6]\nannounce muddy[if knows(A, true) then 1 else 0]",
            &["knowledge operators are evaluated as the story runs"],
        ),
        (
            "characters child[2], Nobody\nbool p\np: true",
            &["the characters are `child[…]` and `Nobody`"],
        ),
        (
            "characters child[2]\nannounce child[1]",
            &[
                "to talk about what child[1] knows, use `knows(child[1], …)` or `knows_value(child[1], …)`",
            ],
        ),
        (
            "enum Colour { red, green }\nannounce Colour == red",
            &["its values are `red` and `green`"],
        ),
        (
            "enum Colour { red, red }",
            &["names of characters, constants, consts, enums and enum values must be unique"],
        ),
        (
            "Colour c\nenum Colour { red }",
            &["`Colour` is declared later in the story"],
        ),
        (
            "const n = 3\nfor n in 0..3 { worlds }",
            &["a loop variable needs a name of its own"],
        ),
        (
            "for i in 0..3 { int x }",
            &["move it before the block; a loop can use a family, e.g. `bool muddy[n]`"],
        ),
        (
            "characters A\nsimultaneously { A learns true }",
            &["inside `simultaneously { … }` write `announce …`, `A: …` or `A reveals …`"],
        ),
        (
            "bool p\nrepeat max 0 { worlds } until p",
            &["write e.g. `repeat max 10 { … } until …`"],
        ),
        (
            "bool p\nannounce all(p)",
            &["write e.g. `all(i in 0..n: …)`"],
        ),
        (
            "announce abs(i in 0..3: true)",
            &["the functions over a range are `all`, `any`, `sum`, `count` and `distinct`"],
        ),
        ("announce summ(i in 0..3: 1) == 1", &["did you mean `sum`?"]),
        ("announce mx(1) == 1", &["did you mean `max`?"]),
        (
            "bool p\ncheckpoint c\nfor i in 0..3 { checkpoint c }",
            &["checkpoint names must be unique"],
        ),
        (
            "bool p\nif false { checkpoint c }\nannounce at(c, p)",
            &[
                "it is defined only in a part of the story that does not run (an `if` branch not taken or an empty loop)",
            ],
        ),
    ];
    for (src, expected) in table {
        assert_eq!(hints(src), *expected, "\n{src}");
    }
}

#[test]
fn errors_inside_blocks_are_all_reported_once() {
    let src = "\
characters child[3]
bool muddy[3]
for i in 0..3 {
  child[i] learns mudy[i]
  announce muddy[i] + 1
  for j in 0..4 {
    child[i] learns muddy[j]
  }
}
worlds 0
";
    assert_eq!(
        errors(src),
        [
            ("unknown name `mudy`".to_string(), "mudy".to_string()),
            (
                "`+` needs int operands, found bool".to_string(),
                "muddy[i]".to_string()
            ),
            (
                "index 3 is out of range: `muddy` has 3 members (0..2)".to_string(),
                "j".to_string()
            ),
            ("a limit must be at least 1".to_string(), "0".to_string()),
        ]
    );
}

#[test]
fn unrolling_has_a_budget() {
    let diagnostics = compile("for i in 0..6000000 { worlds }").unwrap_err();
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(
        diagnostics[0].message,
        "the story unrolls into too many rounds"
    );
    let diagnostics = compile("int x[4000]\nannounce distinct(i in 0..4000: x[i])").unwrap_err();
    assert_eq!(
        diagnostics[0].message,
        "the story unrolls into too many rounds"
    );
    let many = vec!["1"; 65].join(", ");
    assert_eq!(
        errors(&format!("announce min({many}) == 1"))[0].0,
        "`min` takes at most 64 values"
    );
    // Large aggregates stay shallow trees.
    let program = ok("bool p[1000]\nannounce all(i in 0..1000: p[i])");
    fn height(e: &ir::Expr) -> usize {
        match &e.kind {
            ir::ExprKind::Logic(_, a, b) => 1 + height(a).max(height(b)),
            _ => 1,
        }
    }
    assert!(height(last_formula(&program)) < 80);
}

/// The budget admits what runs in seconds (issue 42): muddy children at n = 1000 from
/// the story as it is, about a million rounds (its n² `learns` lines).
#[test]
fn muddy_children_at_n_1000_unrolls_within_the_budget() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let story = std::fs::read_to_string(root.join("stories/muddy-children.story")).unwrap();
    let story = story.replace("const n = 6", "const n = 1000");
    let program = ok(&story);
    let learns = (program.statements.iter())
        .filter(|s| matches!(s.kind, ir::StmtKind::Learn { .. }))
        .count();
    assert_eq!(learns, 1000 * 999);
}

/// Code that does not run is checked once per place: an `if` that prunes nested loops
/// costs its branch not taken once, not once per round of the loops around it.
#[test]
fn code_that_does_not_run_is_checked_once_per_place() {
    ok("bool p\nif 1 == 0 {\n  for i in 0..2000 { for j in 0..2000 { announce p } }\n}");
    // Live in one round, not taken in 999 others: 2 000 rounds, not 2 000 000.
    let program = ok("bool p\nfor i in 0..1000 { if i == 3 { for j in 0..2000 { announce p } } }");
    assert_eq!(program.statements.len(), 2000);
    // Its mistakes are still found, and reported once.
    assert_eq!(
        errors("bool p\nfor i in 0..3 { if i == 5 { for j in 0..2 { announce q } } }"),
        [("unknown name `q`".to_string(), "q".to_string())]
    );
    // An action declared only there is still named in the hint of a `do` of it.
    assert_eq!(
        hints("bool p\nfor j in 0..3 { if j > 5 { action a[j] { x } } }\ndo a[2]"),
        [
            "it is declared only in a part of the story that does not run (an `if` branch not taken or an empty loop)"
        ]
    );
}

/// A definition used again with the same literal arguments is lowered once, when its
/// value is a literal; a `sample` in it draws at each use.
#[test]
fn literal_uses_of_a_definition_are_lowered_once() {
    // 1 000 uses of a definition of 10 000 rounds: within the budget of 1 000 000.
    let program = ok(
        "int x\ndef slow(i) = count(a in 0..100, b in 0..100: a * b == i)\n\
                      for k in 0..1000 { announce x == slow(12) + k % 2 }",
    );
    assert_eq!(program.statements.len(), 1000);
    let program = ok("int x\ndef twice(i) = 2 * i\nfor k in 0..3 { announce x != twice(k) }");
    assert_eq!(program.statements.len(), 3);
    let program = compile_seed(
        "int x\ndef picked(i) = i in sample(1, {1, 2, 3})\n\
         for k in 0..40 { if picked(2) { announce x == k } }",
        7,
    );
    assert_eq!(program.samples.len(), 40);
    // Not where it names a hidden constant.
    let program = ok("int x\ndef big(i) = x > i\nfor k in 0..3 { announce big(1) }");
    assert_eq!(program.statements.len(), 3);
}

/// The examples of docs/language.md compile: the top one alone, and those of the full
/// language's sections after the declarations they rely on.
#[test]
fn the_documented_examples_compile() {
    let doc = include_str!("../../../docs/language.md");
    let blocks = |text: &str| -> Vec<String> {
        text.split("```")
            .skip(1)
            .step_by(2)
            .filter(|b| !b.starts_with("text\n"))
            .map(|b| b.strip_prefix('\n').unwrap_or(b).to_string())
            .collect()
    };
    let head = &doc[..doc.find("## Lexical structure").unwrap()];
    for story in blocks(head) {
        ok(&story);
    }
    // The example of line continuation, lists and `learns e1, e2`.
    let lexical =
        &doc[doc.find("## Lexical structure").unwrap()..doc.find("## Statements").unwrap()];
    let lexical = blocks(lexical);
    assert_eq!(lexical.len(), 1);
    assert_eq!(
        rendered(&lexical[0]),
        [
            "event move (move)",
            "  moved if marble == basket then marble := box",
            "  stayed",
            "  Anne sees [0, 1]",
            "announce a == 1 and b == 2",
            "announce a != 0",
            "announce a != 7",
            "announce a != 35",
            "Bob learns a",
            "Bob learns b"
        ]
    );
    let start = doc.find("## Parameters").unwrap();
    let end = doc.find("## Events").unwrap();
    // Each example of the events section declares what it uses.
    let events = &doc[end..doc.find("## Worlds").unwrap()];
    assert!(events.contains("## Belief"));
    for story in blocks(events) {
        ok(&story);
    }
    let examples = blocks(&doc[start..end]);
    assert!(examples.len() >= 8, "{examples:?}");
    // Parameters, enums and families declare what they use.
    for story in &examples[..3] {
        ok(story);
    }
    let prelude = "const n = 3\ncharacters child[n]\nbool muddy[n]\nint age[3]\n\
                   enum Colour { red, green, blue }\nColour wall[5], door\n";
    ok(&format!("{prelude}{}", examples[3..].join("\n")));
}

fn compile_seed(src: &str, seed: u64) -> ir::Program {
    let story = epipen_syntax::parse(src).expect("parses");
    lower(&story, &[], seed, None).expect("lowers")
}

/// The values of the set a story's first announcement keeps, for `x in …`.
fn announced_set(program: &ir::Program) -> Vec<i64> {
    let ir::StmtKind::Announce { formula, .. } = &program.statements[0].kind else {
        panic!("an announcement first")
    };
    let mut values = Vec::new();
    formula
        .walk(&mut |e| {
            if let ir::ExprKind::In { set, .. } = &e.kind {
                for item in set {
                    if let ir::ExprKind::Int(n) = item[0].kind {
                        values.push(n);
                    }
                }
            }
            Ok::<(), ()>(())
        })
        .unwrap();
    values
}

#[test]
fn sample_draws_k_items_by_seed_and_records_them() {
    let src = "int x\nannounce x in sample(3, {10, 20, 30, 40, 50, 60})\n";
    let a = compile_seed(src, 1);
    let drawn = announced_set(&a);
    assert_eq!(drawn.len(), 3, "{drawn:?}");
    assert!(
        drawn.windows(2).all(|w| w[0] < w[1]),
        "kept in the set's order"
    );
    assert_eq!(a.samples.len(), 1);
    let items: Vec<&str> = a.samples[0]
        .items
        .iter()
        .map(|s| &src[s.start..s.end])
        .collect();
    let expected: Vec<String> = drawn.iter().map(|n| n.to_string()).collect();
    assert_eq!(items, expected);
    assert_eq!(
        &src[a.samples[0].span.start..a.samples[0].span.end],
        "sample(3, {10, 20, 30, 40, 50, 60})"
    );
    // The same seed draws the same items; some other seed draws others.
    assert_eq!(announced_set(&compile_seed(src, 1)), drawn);
    assert!((2..20).any(|seed| announced_set(&compile_seed(src, seed)) != drawn));
    // `compile` draws with seed 0.
    assert_eq!(
        announced_set(&ok(src)),
        announced_set(&compile_seed(src, 0))
    );
}

#[test]
fn sample_of_tuples_across_lines() {
    let src = "int m, d\nannounce (m, d) in sample(2, {\n  (1, 2), (3, 4),\n  (5, 6),\n})\n";
    let program = compile_seed(src, 5);
    assert_eq!(program.samples[0].items.len(), 2);
    assert!(
        program.samples[0]
            .items
            .iter()
            .all(|s| ["(1, 2)", "(3, 4)", "(5, 6)"].contains(&&src[s.start..s.end]))
    );
    // The drawn items' values, with their types, item by item.
    let draw = &program.samples[0];
    let values: Vec<Vec<(Ty, Value)>> = draw.values.iter().map(|v| v.clone().unwrap()).collect();
    let written: Vec<String> = (values.iter())
        .map(|v| format!("({}, {})", v[0].1, v[1].1))
        .collect();
    let items: Vec<&str> = draw.items.iter().map(|s| &src[s.start..s.end]).collect();
    assert_eq!(written, items);
    assert!(values.iter().flatten().all(|(ty, _)| *ty == Ty::Int));
}

#[test]
fn sample_values_are_literals_enums_bools_or_unknown() {
    let src = "const n = 4
enum E { a, b }
int x
E e
bool p
\
               announce (x, e, p) in sample(1, {(n - 1, b, true)})
\
               announce x in sample(1, {x})
";
    let program = compile_seed(src, 0);
    let Ty::Enum(e) = program.constants[1].ty else {
        panic!("an enum")
    };
    assert_eq!(
        program.samples[0].values,
        [Some(vec![
            (Ty::Int, Value::Int(3)),
            (Ty::Enum(e), Value::Int(1)),
            (Ty::Bool, Value::Bool(true))
        ])]
    );
    // An item naming a constant has no value before the story runs.
    assert_eq!(program.samples[1].values, [None]);
}

#[test]
fn sample_errors_are_located() {
    assert_eq!(
        errors("int x\nannounce x in sample(4, {1, 2, 3})"),
        [(
            "cannot sample 4 items from a set of 3".to_string(),
            "4".to_string()
        )]
    );
    assert_eq!(
        hints("int x\nannounce x in sample(-1, {1, 2, 3})"),
        ["sample between 0 and 3 items"]
    );
    assert_eq!(
        errors("int x, y\nannounce x in sample(y, {1, 2, 3})"),
        [(
            "the number of items to sample must be computable before the story runs (from consts and loop variables)".to_string(),
            "y".to_string()
        )]
    );
    let d = epipen_syntax::parse("int x\nannounce x in sample(2 {1, 2})").expect_err("no comma");
    assert_eq!(
        d[0].message,
        "expected `,` after the number of items to sample, found `{`"
    );
    assert_eq!(d[0].hints, ["write `x in sample(3, {1, 2, 3, 4, 5})`"]);
    let d = epipen_syntax::parse("int x\nannounce x in sample(2, {1, 2}").expect_err("no paren");
    assert_eq!(
        d[0].message,
        "expected `)` after the set of `sample(…)`, found end of input"
    );
}

#[test]
fn sample_in_code_that_does_not_run_draws_nothing() {
    let src =
        "int x\nif false { announce x in sample(1, {1, 2}) }\nannounce x in sample(1, {7, 8, 9})\n";
    let program = compile_seed(src, 3);
    assert_eq!(program.samples.len(), 1);
}

#[test]
fn empty_aggregates_are_their_identity_and_never_vanish() {
    let with = |src: &str, sets: &[(&str, i64)]| render(&compile_with(src, sets).unwrap());
    // The body indexes past the family; over an empty range it is never built, and the
    // statement stays, with the aggregate's identity.
    let src = "const n = 3\nbool b[n]\nannounce any(i in 0..n - 1: b[i] != b[i + 1])\n";
    assert_eq!(with(src, &[("n", 1)]), ["announce false"]);
    assert_eq!(
        rendered("bool p\nbool m[0]\nannounce p and any(i in 0..0: m[i])"),
        ["announce p and false"]
    );
    assert_eq!(
        rendered(
            "characters A\nint x[0]\nannounce all(i in 0..0: x[i] > 0)\n\
             A: sum(i in 0..0: x[i]) == count(i in 0..0: x[i] == 1)\n\
             announce distinct(i in 0..0: x[i])"
        ),
        ["announce true", "A: true", "announce true"]
    );
    // Muddy children with no child: the actual world is the empty one, the father's
    // "at least one of you is muddy" is false, the `until` holds at once.
    let muddy = include_str!("../../../stories/muddy-children.story").to_string();
    assert_eq!(
        with(&muddy, &[("n", 0)]),
        [
            "actual true",
            "announce false",
            "repeat max 1",
            "  checkpoint round_start",
            "  simultaneously",
            "until true",
            "worlds 10"
        ]
    );
    // Mistakes in a body that never runs are still reported.
    assert_eq!(
        errors("bool m[0]\nannounce any(i in 0..0: mm[i])"),
        [("unknown name `mm`".to_string(), "mm".to_string())]
    );
}

#[test]
fn a_statement_that_lowers_to_nothing_is_an_internal_error() {
    let story = epipen_syntax::parse("bool p\nannounce p\n").unwrap();
    let statement = story.statements[1].span;
    let mut lowerer = Lowerer::new(&[], 0);
    lowerer.note_names(&story.statements);
    lowerer.vanished = Some(statement);
    let Err(CompileError::Story(diagnostics)) = lowerer.finish(Vec::new()) else {
        panic!("an internal error")
    };
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].span, statement);
    assert_eq!(
        diagnostics[0].message,
        "internal error: this statement lowered to nothing, without an error"
    );
    assert_eq!(
        diagnostics[0].hints,
        ["this is a bug in epipen; please report it with the story"]
    );
    // Lowering a story records none.
    let mut lowerer = Lowerer::new(&[], 0);
    lowerer.note_names(&story.statements);
    let mut out = Vec::new();
    for stmt in &story.statements {
        lowerer.stmt(stmt, &mut out);
    }
    assert_eq!(lowerer.vanished, None);
    assert_eq!(out.len(), 1);
}

#[test]
fn each_error_is_reported_once_with_a_count_of_its_rounds() {
    let diagnostics = compile("int a[2]\nfor i in 0..5 {\n  announce a[i] == 0\n}\n").unwrap_err();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(
        diagnostics[0].message,
        "index 2 is out of range: `a` has 2 members (0..1)"
    );
    assert_eq!(
        diagnostics[0].hints,
        ["and 2 more errors here, in other rounds of the unrolling"]
    );
    // The same message again in another round is not counted again.
    let src = "int a[2]\nfor j in 0..3 {\n  for i in 0..4 {\n    announce a[i] == 0\n  }\n}\n";
    let diagnostics = compile(src).unwrap_err();
    assert_eq!(
        diagnostics[0].hints,
        ["and 1 more error here, in other rounds of the unrolling"]
    );
}

#[test]
fn unrolling_stops_at_the_deadline() {
    let src = "int x\nannounce sum(i in 0..999999: x * i) == 1\n";
    let story = epipen_syntax::parse(src).unwrap();
    let Err(CompileError::Timeout { span }) =
        lower(&story, &[], 0, Some(std::time::Instant::now()))
    else {
        panic!("a timeout")
    };
    assert_eq!(&src[span.start..span.end], "0..999999");
}

#[test]
fn a_failed_declaration_is_reported_once_not_at_each_use() {
    let src = "characters A, c[-1]\nbool m[-1]\nA: knows_value(c[0], m[0])\n\
               announce knows(c[1], m[2])\nA: knows_value(m[0])\nc[0] learns m[0]\nannounce m\n";
    assert_eq!(
        errors(src),
        [
            (
                "a family cannot have -1 members".to_string(),
                "-1".to_string()
            ),
            (
                "a family cannot have -1 members".to_string(),
                "-1".to_string()
            ),
        ]
    );
    // Its index is still checked.
    assert_eq!(
        errors("bool m[-1]\nannounce m[zz]"),
        [
            (
                "a family cannot have -1 members".to_string(),
                "-1".to_string()
            ),
            ("unknown name `zz`".to_string(), "zz".to_string()),
        ]
    );
}

#[test]
fn the_actual_world_is_declared_once() {
    let src = "characters A\nbool p, q\nactual p and q\nA reveals p\nactual p and not q\n";
    let diagnostics = compile(src).unwrap_err();
    assert_eq!(diagnostics.len(), 1);
    let d = &diagnostics[0];
    assert_eq!(d.message, "the actual world is already declared");
    assert_eq!(&src[d.span.start..d.span.end], "actual p and not q");
    assert_eq!(
        d.notes
            .iter()
            .map(|(span, note)| (&src[span.start..span.end], note.as_str()))
            .collect::<Vec<_>>(),
        [("actual p and q", "the first `actual`")]
    );
    assert_eq!(
        d.render("x.story", src),
        "x.story:5:1: error: the actual world is already declared\n  |\n5 | actual p and not q\n  \
         | ^^^^^^^^^^^^^^^^^^\n  = note: line 3: the first `actual`\n  \
         = hint: declare it once: join the two in one `actual`, e.g. `actual φ and ψ`\n"
    );
    assert_eq!(
        errors("bool p[2]\nfor i in 0..2 { actual p[i] }"),
        [(
            "`actual` is declared again in the next round of this loop".to_string(),
            "actual p[i]".to_string()
        )]
    );
    // One in code that does not run, or run once per round of a `repeat`, is fine.
    ok("bool p\nif false { actual not p }\nactual p");
    ok("characters A\nbool p\nrepeat max 2 { actual p\nA reveals p } until true");
}

#[test]
fn events_lower_with_their_cases_groups_and_occurrences() {
    let story = "characters Anne, Bob, Sally\nenum Place { basket, box }\nPlace marble\n\
                 announce marble == basket\nactual marble == basket\n\
                 event move {\n  moved if marble == basket then marble := box\n  stayed\n  \
                 Anne sees moved | stayed\n  Bob sees all(x in 0..1: moved), stayed\n  actual moved\n}\n\
                 announce move == moved and marble == box\n\
                 check actual move in {moved}";
    assert_eq!(
        rendered(story),
        [
            "announce marble == basket",
            "actual marble == basket",
            "event move (move)",
            "  moved if marble == basket then marble := box",
            "  stayed",
            "  Anne sees [0, 1]",
            "  Bob sees [0, 0]",
            "  actual moved",
            "announce move == moved and marble == box",
            "check actual move in {moved}",
        ]
    );
    let program = ok(story);
    let occ = &program.constants[1];
    assert_eq!(occ.name, "move");
    assert_eq!(program.events[0].cases, ["moved", "stayed"]);
    assert_eq!(
        program.enums[1].variants,
        ["moved", "stayed", "(no move yet)"]
    );

    // Families of cases, loops and `each`/`all`/`others`; an event in a loop happens
    // once per round, in a `repeat` once per round of it.
    let gossip = "const n = 3\ncharacters P[n]\nbool s[n]\n\
                  for t in 0..2 {\n  event call {\n    for i in 0..n { for j in i + 1..n { c[i, j] } }\n    \
                  for k in 0..n { P[k] sees each(i in 0..n, j in i + 1..n if i == k or j == k: c[i, j]) | others }\n  }\n}\n\
                  announce call == c[0, 2]\n\
                  repeat max 3 {\n  event flip {\n    heads\n    tails\n    P[0] sees all(x in 0..1: heads) | tails\n  }\n} until true";
    assert_eq!(
        rendered(gossip),
        [
            "event call (call#1)",
            "  c[0, 1]",
            "  c[0, 2]",
            "  c[1, 2]",
            "  P[0] sees [0, 1, 2]",
            "  P[1] sees [0, 1, 2]",
            "  P[2] sees [0, 1, 2]",
            "event call (call#2)",
            "  c[0, 1]",
            "  c[0, 2]",
            "  c[1, 2]",
            "  P[0] sees [0, 1, 2]",
            "  P[1] sees [0, 1, 2]",
            "  P[2] sees [0, 1, 2]",
            "announce call == c[0, 2]",
            "repeat max 3",
            "  event flip (flip#1 flip#2 flip#3)",
            "    heads",
            "    tails",
            "    P[0] sees [0, 1]",
            "until true",
        ]
    );
}

#[test]
fn event_mistakes_are_located_with_a_hint() {
    let head = "characters A, B\nbool p\nint x\n";
    let table: &[(&str, &str, &str, &[&str])] = &[
        (
            "event e {\n  a\n  b\n  A sees a | cc\n}",
            "the event `e` has no case `cc`",
            "cc",
            &["its cases are `a` and `b`"],
        ),
        (
            "event flip {\n  heads\n  tails\n  A sees each\n}",
            "the event `flip` has no case `each`",
            "each",
            &[
                "its cases are `heads` and `tails`; `each` takes a binder, `each(i in 0..n: c[i])`, and a line that tells every case apart lists them: `heads | tails`",
            ],
        ),
        (
            "event e {\n  moved\n  stayed\n  A sees mooved | stayed\n}",
            "the event `e` has no case `mooved`",
            "mooved",
            &["did you mean `moved`?"],
        ),
        (
            "event e {\n  a\n  b\n  A sees a | a, b\n}",
            "the case `a` is in two groups of A's `sees` line",
            "a",
            &["every case is in exactly one group of the line"],
        ),
        (
            "event e {\n  a\n  b\n  c\n  A sees a\n}",
            "the cases `b` and `c` are in no group of A's `sees` line",
            "A sees a",
            &["every case is in exactly one group: add it, or end the line with `| others`"],
        ),
        (
            "event e {\n  a\n  a then x := 1\n}",
            "the case `a` is written twice",
            "a",
            &["every case of an event needs a name of its own"],
        ),
        (
            "event e {\n  a\n  b\n  actual a\n  actual b\n}",
            "the event has two `actual` lines",
            "b",
            &["one case happened: keep one `actual` line"],
        ),
        (
            "event e {\n  a\n  actual zz\n}",
            "the event `e` has no case `zz`",
            "zz",
            &["its cases are `a`"],
        ),
        (
            "event e {\n  a\n  A sees a\n  A sees a\n}",
            "A has two `sees` lines",
            "A sees a",
            &["one line says every group of cases a character tells apart"],
        ),
        (
            "event e {\n  a\n}\nevent e {\n  a\n  b\n}",
            "the event `e` has other cases here",
            "e",
            &["every `event e` has the same cases, in the same order: `a`"],
        ),
        (
            "event e {\n  a then x := 1, x := 2\n}",
            "`x` is changed twice",
            "x",
            &["a constant gets one new value per change"],
        ),
        (
            "event e {\n  a then x := knows(A, p)\n}",
            "`:=` gives a constant a value of the world, without knowledge operators",
            "knows(A, p)",
            &[],
        ),
        (
            "event e {\n  a then p := 1\n}",
            "expected bool, found int",
            "1",
            &[],
        ),
        (
            "simultaneously {\n  event e {\n    a\n  }\n}",
            "only announcements can be made simultaneously",
            "event e {\n    a\n  }",
            &["inside `simultaneously { … }` write `announce …`, `A: …` or `A reveals …`"],
        ),
        (
            "assert_adds_ck true {\n  event e {\n    a\n  }\n}",
            "a hint's block cannot hold an event",
            "event e {\n    a\n  }",
            &[
                "the hint describes the worlds before and after the block, which an event changes: move the event out of it",
            ],
        ),
        (
            "announce e == a\nevent e {\n  a\n}",
            "unknown name `e`",
            "e",
            &["`e` is declared later in the story"],
        ),
        (
            "event e {\n  a\n  b\n}\nannounce e == cc",
            "the event `e` has no case `cc`",
            "cc",
            &["its cases are `a` and `b`"],
        ),
        (
            "event e {\n  a\n  A sees each(i in 0..1: a), b\n}",
            "`each(…)` is a whole group of its own",
            "each(i in 0..1: a)",
            &["separate it with `|`; `all(…)` puts cases in this group"],
        ),
        (
            "event e {\n}",
            "the event `e` has no cases",
            "event e {\n}",
            &["write its cases in the block, e.g. `moved if … then …`"],
        ),
        (
            "A learns x + (if knows(B, p) then 1 else 0)",
            "a value learned with knowledge operators must be a formula",
            "x + (if knows(B, p) then 1 else 0)",
            &[
                "`A learns φ` with knowledge operators learns whether φ holds now; write the formula, e.g. `A learns knows(B, x == 1)`",
            ],
        ),
        (
            "x, x := 1, 2",
            "`x` is changed twice",
            "x",
            &["a constant gets one new value per change"],
        ),
        (
            "bool q[3]\nannounce q[0, 1]",
            "only one index is allowed",
            "0, 1",
            &["families have a single index: `q[0]`"],
        ),
    ];
    for (body, message, under, hints) in table {
        let src = format!("{head}{body}");
        let diagnostics = compile(&src).expect_err(&src);
        let d = &diagnostics[0];
        assert_eq!(d.message, *message, "{src}");
        assert_eq!(&src[d.span.start..d.span.end], *under, "{src}");
        let got: Vec<&str> = d.hints.iter().map(String::as_str).collect();
        assert_eq!(&got, hints, "{src}");
    }
    // Learning a formula with knowledge operators is fine.
    assert_eq!(
        rendered(&format!("{head}A learns knows(B, p)")),
        ["A learns knows(B, p)"]
    );
    // A case index past the family in code that does not run is no mistake, as for a
    // family of constants; where it runs it is one, and so is a name that is no case.
    let calls =
        "characters P[3]\nevent call {\n  for i in 0..3 { for j in i + 1..3 { c[i, j] } }\n}\n";
    assert_eq!(
        rendered(&format!(
            "{calls}for i in 0..3 {{ for j in 0..3 {{ if i < j {{ announce call != c[i, j] }} }} }}"
        ))[4..],
        [
            "announce call != c[0, 1]",
            "announce call != c[0, 2]",
            "announce call != c[1, 2]"
        ]
    );
    assert_eq!(
        errors(&format!(
            "{calls}for i in 0..2 {{ announce call != c[i, 2 - i] }}"
        )),
        [(
            "the event `call` has no case `c[1, 1]`".to_string(),
            "c[i, 2 - i]".to_string()
        )]
    );
    assert_eq!(
        errors(&format!("{calls}if false {{ announce call != cc[0, 1] }}")),
        [(
            "the event `call` has no case `cc[0, 1]`".to_string(),
            "cc[0, 1]".to_string()
        )]
    );
}

#[test]
fn belief_lowers_beside_knowledge() {
    let story = "characters Anne, Sally\nenum Place { basket, box }\nPlace marble\n\
                 event move {\n  moved then marble := box\n  stayed\n  spied\n  \
                 Anne sees moved | stayed, spied\n  Sally expects stayed > spied\n}\n\
                 Sally expects marble == basket\n\
                 announce believes(Sally, marble == basket) and not believes_value(Anne, marble)\n\
                 Anne: believes(marble == box) or knows_value(marble)";
    assert_eq!(
        rendered(story),
        [
            "event move (move)",
            "  moved then marble := box",
            "  stayed",
            "  spied",
            "  Anne sees [0, 1, 1]",
            "  Sally expects [2, 0, 1]",
            "Sally expects marble == basket",
            "announce believes(Sally, marble == basket) and not believes_value(Anne, marble)",
            "Anne: believes(marble == box) or knows_value(marble)",
        ]
    );
    let head = "characters A, B\nbool p\n";
    let table: &[(&str, &str, &str, &[&str])] = &[
        (
            "event e {\n  a\n  b\n  A expects a > zz\n}",
            "the event `e` has no case `zz`",
            "zz",
            &["its cases are `a` and `b`"],
        ),
        (
            "event e {\n  a\n  b\n  A expects a > a\n}",
            "the case `a` is in two groups of A's `expects` line",
            "a",
            &["every case is in exactly one group of the line"],
        ),
        (
            "event e {\n  a\n  A expects a\n  A expects a\n}",
            "A has two `expects` lines",
            "A expects a",
            &["one line orders the cases, most plausible first: `a > b, c`"],
        ),
        (
            "announce believes(p, p)",
            "`p` is not a character",
            "p",
            &["the characters are `A` and `B`"],
        ),
        (
            "announce believes(p)",
            "`believes` needs a character here",
            "believes(p)",
            &["outside `A: …` name the character first, e.g. `believes(A, …)`"],
        ),
        (
            "p expects p",
            "`p` is not a character",
            "p",
            &["the characters are `A` and `B`"],
        ),
    ];
    for (body, message, under, hints) in table {
        let src = format!("{head}{body}");
        let diagnostics = compile(&src).expect_err(&src);
        let d = &diagnostics[0];
        assert_eq!(d.message, *message, "{src}");
        assert_eq!(&src[d.span.start..d.span.end], *under, "{src}");
        let got: Vec<&str> = d.hints.iter().map(String::as_str).collect();
        assert_eq!(&got, hints, "{src}");
    }
}

#[test]
fn an_agent_left_out_inside_another_characters_knowledge_is_an_error() {
    // Bob's `knows_value` or Anne's? It was Bob's, silently (issue 27).
    let head = "characters Anne, Bob\nint A\nbool p\n";
    for (said, function, outer, what) in [
        (
            "Bob: knows(Anne, knows_value(A))",
            "knows_value",
            "knows",
            "knowledge",
        ),
        ("Bob: knows(Anne, knows(p))", "knows", "knows", "knowledge"),
        (
            "Bob: believes(Anne, believes(p))",
            "believes",
            "believes",
            "belief",
        ),
        (
            "Bob: knows_value(Anne, believes_value(A))",
            "believes_value",
            "knows_value",
            "belief",
        ),
        (
            "Bob: knows(Anne, at(c, not knows(p)))",
            "knows",
            "knows",
            "knowledge",
        ),
    ] {
        let src = format!("{head}checkpoint c\n{said}\n");
        let errors = errors(&src);
        assert_eq!(errors.len(), 1, "{said}: {errors:?}");
        assert_eq!(
            errors[0].0,
            format!("`{function}` inside `{outer}(Anne, …)` needs its character"),
            "{said}"
        );
        assert!(errors[0].1.starts_with(function), "{said}: {errors:?}");
        assert_eq!(
            hints(&src),
            [format!(
                "write `{function}(Anne, …)` for Anne's {what}, or `{function}(Bob, …)` for Bob's"
            )],
            "{said}"
        );
    }
    // Left out at the top, or inside the speaker's own knowledge: the speaker's.
    ok(&format!(
        "{head}Bob: knows_value(A) or knows(Bob, knows_value(A)) or knows(Anne, knows_value(Bob, A))\n"
    ));
    // Named again inside another's: the speaker's own, left out below it.
    ok(&format!("{head}Bob: knows(Anne, knows(Bob, knows(p)))\n"));
}

#[test]
fn learning_several_values_is_one_learn_after_another() {
    let src = "characters A\nint x, y\nbool p\nA learns x, p,\n  y + 1\nA learns x";
    let program = ok(src);
    assert_eq!(
        render(&program),
        ["A learns x", "A learns p", "A learns y + 1", "A learns x"]
    );
    // Each learn keeps the span of the whole statement.
    for stmt in &program.statements[..3] {
        assert_eq!(
            &src[stmt.span.start..stmt.span.end],
            "A learns x, p,\n  y + 1"
        );
    }
    // Each value is checked on its own.
    assert_eq!(
        errors("characters A\nint x\nA learns x, zz, true + 1"),
        [
            ("unknown name `zz`".to_string(), "zz".to_string()),
            (
                "`+` needs int operands, found bool".to_string(),
                "true".to_string()
            ),
        ]
    );
}

#[test]
fn lists_of_values_unroll_in_order() {
    assert_eq!(
        rendered(
            "const n = 30\nint x\nfor c in {0, 7, n + 5} { announce x != c }\n\
             announce sum(i in {2, 1}: i * x) == count(i in {3}, j in {1, 4} if i != j: x > i + j)"
        ),
        [
            "announce x != 0",
            "announce x != 7",
            "announce x != 35",
            "announce 2 * x + 1 * x == (if x > 4 then 1 else 0) + (if x > 7 then 1 else 0)",
        ]
    );
    assert_eq!(
        errors("int x\nconst k = 2\nfor c in {1, k - 1, true, y} { announce x != c }"),
        [
            ("1 is listed twice".to_string(), "k - 1".to_string()),
            ("expected int, found bool".to_string(), "true".to_string()),
            ("unknown name `y`".to_string(), "y".to_string()),
        ]
    );
    assert_eq!(
        hints("int x\nfor c in {1, 1} { announce x != c }"),
        ["list each value once"]
    );
    // Events loop over lists too.
    let program = ok(
        "characters A\nint x\nevent e {\n  for c in {5, 2} { k[c] if x == c }\n  \
                      A sees each(i in {2, 5}: k[i])\n}",
    );
    assert_eq!(program.statements.len(), 1);
}

#[test]
fn messages_name_the_operator_and_the_reading() {
    let table: &[(&str, &[(&str, &str)])] = &[
        (
            "bool sunny\nannounce sunny + 1 == 2",
            &[("`+` needs int operands, found bool", "sunny")],
        ),
        (
            "bool sunny\nint x\nannounce x * 2 >= sunny % 3",
            &[("`%` needs int operands, found bool", "sunny")],
        ),
        (
            "int x\nannounce x -> true",
            &[("`->` needs bool operands, found int", "x")],
        ),
        (
            "characters Anne, Bill\nint x\nBill: knows_value(Anne)",
            &[(
                "`knows_value` took `Anne` as the character, and has no expression left",
                "knows_value(Anne)",
            )],
        ),
    ];
    for (src, want) in table {
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(m, s)| (m.to_string(), s.to_string()))
            .collect();
        assert_eq!(errors(src), want, "{src}");
    }
    assert_eq!(
        hints("characters Anne, Bill\nint x\nBill: knows_value(Anne)"),
        ["add the values: `knows_value(Anne, x)`; `knows_value(x)` is about the speaker"]
    );
}

// ----- loops in changes, definitions, `where`, case names by context -----

#[test]
fn loops_in_a_cases_then_list_unroll_into_one_simultaneous_change() {
    let story = "const n = 3\ncharacters A\nbool s[n], t[n], done\n\
                 event call {\n  c01 then for i in 0..n { s[i] := s[i] or t[i] }, done := true\n  \
                 c02 then for i in 0..0 { s[i] := true }\n}";
    assert_eq!(
        rendered(story),
        [
            "event call (call)",
            "  c01 then s[0] := s[0] or t[0], s[1] := s[1] or t[1], s[2] := s[2] or t[2], done := true",
            "  c02",
        ]
    );
    assert_eq!(
        errors("bool s[2]\nevent e {\n  a then for i in 0..2 { s[0] := true }\n}"),
        [("`s[0]` is changed twice".to_string(), "s[0]".to_string())]
    );
    assert_eq!(
        errors("bool s[2]\nevent e {\n  a then for i in 0..3 { s[i] := true }\n}"),
        [(
            "index 2 is out of range: `s` has 2 members (0..1)".to_string(),
            "i".to_string()
        )]
    );
}

#[test]
fn a_simultaneously_block_of_changes_is_one_change() {
    assert_eq!(
        rendered(
            "const n = 3\nbool s[n], t[n]\nint x\n\
             simultaneously {\n  for i in 0..n { s[i] := t[i]\n  t[i] := s[i] }\n  \
             if n > 2 { x := x + 1 } else { x := 0 }\n}"
        ),
        ["s[0], t[0], s[1], t[1], s[2], t[2], x := t[0], s[0], t[1], s[1], t[2], s[2], x + 1"]
    );
    // With an announcement, the block is one of announcements: the change is refused.
    assert_eq!(
        errors("bool p\nint x\nsimultaneously {\n  x := 1\n  announce p\n}"),
        [(
            "only announcements can be made simultaneously".to_string(),
            "x := 1".to_string()
        )]
    );
    assert_eq!(
        errors("characters A\nbool p\nint x\nsimultaneously {\n  x := 1\n  A learns p\n}"),
        [(
            "a `simultaneously` block of changes holds only changes".to_string(),
            "A learns p".to_string()
        )]
    );
    assert_eq!(
        errors("bool s[2]\nsimultaneously {\n  for i in 0..2 { s[1] := true }\n}"),
        [("`s[1]` is changed twice".to_string(), "s[1]".to_string())]
    );
}

#[test]
fn definitions_expand_where_they_are_used() {
    let story = "const n = 3\ncharacters P[n]\nbool s[n]\n\
                 def known(a, k) = knows(a, s[k]) or knows(a, not s[k])\n\
                 def all_known(a) = all(k in 0..n: known(a, k))\n\
                 def some = any(i in 0..n: s[i])\n\
                 for i in 0..2 { announce all_known(P[i]) or some() }\n\
                 announce some";
    assert_eq!(
        rendered(story)[0],
        "announce (knows(P[0], s[0]) or knows(P[0], not s[0])) and (knows(P[0], s[1]) or knows(P[0], not s[1])) \
         and (knows(P[0], s[2]) or knows(P[0], not s[2])) or (s[0] or s[1] or s[2])"
    );
    assert_eq!(rendered(story)[2], "announce s[0] or s[1] or s[2]");
    // Hygiene: the body's `i` is its own, not the loop's; an argument's `i` is the loop's.
    assert_eq!(
        rendered("bool s[3]\ndef f(k) = any(i in 0..2: s[i + k])\nfor i in 0..2 { announce f(i) }"),
        ["announce s[0] or s[1]", "announce s[1] or s[2]"]
    );
    // A loop variable of the use is not seen by the body.
    assert_eq!(
        errors("bool s[3]\ndef f = s[i]\nfor i in 0..2 { announce f }"),
        [("in `f`: unknown name `i`".to_string(), "f".to_string())]
    );
    // Compile-time uses.
    assert_eq!(
        rendered("bool s[4]\ndef half(m) = m / 2\nfor i in 0..half(4) { announce s[i] }"),
        ["announce s[0]", "announce s[1]"]
    );
}

#[test]
fn definition_errors_are_located_at_the_use_and_the_definition() {
    let src = "bool p\nint x\ndef f(i) = p and x\nannounce f(1)";
    let diagnostics = compile(src).expect_err(src);
    assert_eq!(diagnostics.len(), 1);
    let d = &diagnostics[0];
    assert_eq!(d.message, "in `f`: `and` needs bool operands, found int");
    assert_eq!(&src[d.span.start..d.span.end], "f(1)");
    assert_eq!(d.notes.len(), 1);
    assert_eq!(&src[d.notes[0].0.start..d.notes[0].0.end], "x");
    assert_eq!(d.notes[0].1, "in the definition of `f`");
    assert_eq!(
        errors("bool p\ndef f(i) = p\nannounce f\nannounce f(1, 2)"),
        [
            ("`f` takes 1 argument, found 0".to_string(), "f".to_string()),
            (
                "`f` takes 1 argument, found 2".to_string(),
                "f(1, 2)".to_string()
            ),
        ]
    );
    assert_eq!(
        errors("bool p\ndef f(i) = f(i)\nannounce f(1)"),
        [(
            "in `f`: `f` is used inside its own definition".to_string(),
            "f(1)".to_string()
        )]
    );
    assert_eq!(
        errors("bool p\ndef f(i, i) = p"),
        [("parameter `i` is listed twice".to_string(), "i".to_string())]
    );
    // Definitions that double at each level run into the unrolling budget.
    let mut doubling = "bool p\ndef f0 = p".to_string();
    for level in 1..=24 {
        let prev = level - 1;
        doubling += &format!("\ndef f{level} = f{prev} and f{prev}");
    }
    doubling += "\nannounce f24";
    assert_eq!(
        errors(&doubling),
        [(
            "in `f1`: the story unrolls into too many rounds".to_string(),
            "f24".to_string()
        )]
    );
    assert_eq!(
        errors("bool p\ndef abs(i) = p"),
        [(
            "`abs` is a built-in function".to_string(),
            "abs".to_string()
        )]
    );
    assert_eq!(
        errors("bool p\ndef p = true"),
        [("`p` is already declared".to_string(), "p".to_string())]
    );
    assert_eq!(
        errors("bool p\nif true { def f = p }"),
        [(
            "declarations must be at the top level of the story".to_string(),
            "def f = p".to_string()
        )]
    );
}

#[test]
fn where_lowers_with_its_text_and_limit() {
    assert_eq!(
        rendered(
            "const n = 2\nbool s[n]\ndef any_s = any(i in 0..n: s[i])\nwhere any_s and not s[0]"
        ),
        ["where (s[0] or s[1]) and not s[0] ((s[0] or s[1]) and not s[0]; 10)"]
    );
    assert_eq!(
        errors("int x\nwhere x + 1"),
        [("expected bool, found int".to_string(), "x + 1".to_string())]
    );
}

#[test]
fn unrolled_statements_keep_their_loop_values() {
    let program = ok("characters A
bool x[3]
announce x[0]
for i in 0..2 {
  for j in 0..3 {
    if i != j { A learns x[j] }
  }
}
");
    let loops: Vec<Vec<(String, i64)>> =
        program.statements.iter().map(|s| s.loops.clone()).collect();
    let at = |i: i64, j: i64| vec![("i".to_string(), i), ("j".to_string(), j)];
    assert_eq!(
        loops,
        [vec![], at(0, 1), at(0, 2), at(1, 0), at(1, 2)],
        "outside a loop no values; inside, the outermost first"
    );
}

#[test]
fn case_names_are_understood_wherever_their_event_is_expected() {
    let story = "const n = 5\ncharacters A\nbool p\nint t\n\
                 event call {\n  for i in 0..n { for j in i + 1..n { c[i, j] } }\n}\n";
    let mut src = format!("{story}announce call == (if t == 0 then c[0, 4] else c[1, 2])");
    assert_eq!(
        rendered(&src).last().unwrap(),
        "announce call == (if t == 0 then c[0, 4] else c[1, 2])"
    );
    src = format!("{story}announce (if p then c[0, 1] else call) == c[2, 3]");
    assert_eq!(
        rendered(&src).last().unwrap(),
        "announce (if p then c[0, 1] else call) == c[2, 3]"
    );
    src = format!("{story}announce (if p then c[0, 1] else c[0, 2]) != c[2, 3]");
    assert_eq!(
        rendered(&src).last().unwrap(),
        "announce (if p then c[0, 1] else c[0, 2]) != c[2, 3]"
    );
    assert_eq!(
        errors(
            "bool p\nevent e {\n  a\n  b\n}\nevent f {\n  a\n}\nannounce (if p then a else a) == a"
        ),
        [(
            "these cases are ambiguous: cases of the events `e` and `f`".to_string(),
            "(if p then a else a) == a".to_string()
        )]
    );
    assert_eq!(
        hints("bool p\nevent e {\n  a\n  b\n}\nannounce a"),
        ["`a` is a case of the event `e`: compare it with the event, e.g. `e == a`"]
    );
    assert_eq!(
        hints(&format!("{story}announce c[0, 1]")),
        ["`c[…]` are cases of the event `call`: compare one with the event, e.g. `call == c[…]`"]
    );
}

/// Probabilities (issue 29): what lowers to an exact comparison, where `prior` may stand,
/// and whose probability an implicit agent is.
#[test]
fn probabilities_lower_to_exact_comparisons() {
    let head = "characters A, B\nint x\nannounce 0 <= x and x <= 3\n";
    assert_eq!(
        rendered(&format!(
            "{head}prior x + 1\nA: probability(x > 1) > 1/2\ncheck 2 * probability(B, x == 1) <= probability(x < 3) + 1/3\n\
             check 1/2 == 0\nshow probability(A, x == 2)\nshow x / 2\n"
        )),
        [
            "announce 0 <= x and x <= 3",
            "prior x + 1",
            "A: probability(x > 1) > 1 / 2",
            "check 2 * probability(B, x == 1) <= probability(x < 3) + 1 / 3",
            "check true",
            "show probability(A, x == 2) (probability(A, x == 2))",
            "show x / 2 (x / 2)",
        ]
    );
    // Inside `A: …` the agent left out is A; inside `knows(B, …)` said by A it must be named.
    let program = ok(&format!("{head}A: probability(x > 1) > 1/2\n"));
    let ir::StmtKind::Announce { formula, .. } = &program.statements[1].kind else {
        panic!("an announcement")
    };
    let ir::ExprKind::Chance { left, .. } = &formula.kind else {
        panic!("{formula:?}")
    };
    assert!(matches!(
        left.kind,
        ir::RatKind::Probability {
            agent: Some(CharId(0)),
            ..
        }
    ));
    assert_eq!(
        errors(&format!("{head}A: knows(B, probability(x > 1) > 1/2)\n")),
        [(
            "`probability` inside `knows(B, …)` needs its character".to_string(),
            "probability(x > 1)".to_string()
        )]
    );
    // Where `prior` may stand.
    let cases: &[(&str, &str, &str)] = &[
        (
            "check probability(x > 1) > 0\nprior x",
            "`prior` comes after a probability",
            "prior x",
        ),
        (
            "event e { a }\nprior x",
            "`prior` comes after an event",
            "prior x",
        ),
        (
            "A: x > 0\nprior x",
            "`prior` comes after a character's statement",
            "prior x",
        ),
        (
            "for i in 0..2 { prior x }",
            "`prior` must be at the top level of the story",
            "prior x",
        ),
        ("prior x > 1", "`prior` needs an int, found bool", "x > 1"),
        (
            "prior knows(A, x > 1)",
            "`prior` gives each world a weight from its values, without knowledge operators or probabilities",
            "knows(A, x > 1)",
        ),
        (
            "event e { a weight x > 1 }",
            "`weight` needs an int, found bool",
            "x > 1",
        ),
        (
            "check probability(A) > 0",
            "`probability` takes a character and a formula, or a formula",
            "probability(A)",
        ),
        (
            "check probability(A, x) > 0",
            "expected bool, found int",
            "x",
        ),
        (
            "check probability(A, x > 1) > true",
            "a probability is compared with numbers, found bool",
            "true",
        ),
        (
            "actual probability(x > 1) > 0",
            "`actual` describes the world itself, without probabilities",
            "probability(x > 1)",
        ),
    ];
    for (rest, message, at) in cases {
        let found = errors(&format!("{head}{rest}\n"));
        assert_eq!(found, [(message.to_string(), at.to_string())], "{rest}");
    }
}

/// Probability terms (issue 44): a sum over a range of probability terms (an expected
/// value) is a term, unrolled and added exactly, with its guard, and 0 over an empty
/// range; `abs`, `min`, `max` and `if … then … else` of one are refused by name.
#[test]
fn sums_of_probabilities_are_terms_and_other_functions_of_them_are_refused() {
    let head = "characters A, B\nint x\nannounce 0 <= x and x <= 3\n";
    assert_eq!(
        rendered(&format!(
            "{head}check sum(v in 1..3: v * probability(A, x == v)) >= 1\n\
             check sum(v in 0..3 if v != 1: probability(x == v)) + probability(x == 1) == 1\n\
             show sum(v in 0..2: probability(B, x > v)) - 1/2\n\
             check sum(v in 1..0: probability(x == v)) == 0\n"
        )),
        [
            "announce 0 <= x and x <= 3",
            "check 1 * probability(A, x == 1) + 2 * probability(A, x == 2) >= 1",
            "check probability(x == 0) + probability(x == 2) + probability(x == 1) == 1",
            "show probability(B, x > 0) + probability(B, x > 1) - 1 / 2 (probability(B, x > 0) + probability(B, x > 1) - 1 / 2)",
            "check 0 == 0",
        ]
    );
    let hint = "a probability term is built of probabilities, numbers, `+`, `-`, `*`, `/` and \
                `sum(…)`: compare the probabilities themselves, e.g. \
                `probability(A, φ) > probability(A, ψ)`";
    let cases: &[(&str, &str, &str)] = &[
        (
            "check abs(probability(x > 1) - 1/2) < 1/4",
            "`abs` of a probability term",
            "abs(probability(x > 1) - 1/2)",
        ),
        (
            "check max(probability(A, x > 1), probability(B, x > 1)) > 1/2",
            "`max` of a probability term",
            "max(probability(A, x > 1), probability(B, x > 1))",
        ),
        (
            "show if x > 1 then probability(x > 2) else 0",
            "`if … then … else` of a probability term",
            "if x > 1 then probability(x > 2) else 0",
        ),
        (
            "check sum(v in 1..2: v * probability(A, y == v)) > 1",
            "unknown name `y`",
            "y",
        ),
        (
            "prior sum(v in 1..2: probability(x == v))",
            "`prior` gives each world a weight from its values, without knowledge operators or probabilities",
            "sum(v in 1..2: probability(x == v))",
        ),
        (
            "announce sum(v in 1..2: probability(x == v))",
            "a probability can only be compared or shown",
            "probability(x == v)",
        ),
    ];
    for (rest, message, at) in cases {
        let found = errors(&format!("{head}{rest}\n"));
        assert_eq!(found, [(message.to_string(), at.to_string())], "{rest}");
    }
    assert_eq!(
        hints(&format!("{head}check abs(probability(x > 1)) > 0\n")),
        [hint]
    );
}

#[test]
fn announcements_lower_with_their_group_and_diamonds_as_boxes() {
    // A diamond is lowered to `not [! φ] not ψ`, and shown as written.
    assert_eq!(
        rendered(
            "characters A, child[2]\nbool p, q\ncheck [child, A ?! p] <! q> knows(A, p)\n\
             check [! p and q] q"
        ),
        [
            "check [A, child[0], child[1] ?! p] <! q> knows(A, p)",
            "check [! p and q] q"
        ]
    );
    let program = ok("bool p, q\ncheck <! p or q> q");
    let ir::StmtKind::Check(e) = &program.statements[0].kind else {
        panic!("a check")
    };
    assert!(matches!(&e.kind, ir::ExprKind::Not(inner)
        if matches!(&inner.kind, ir::ExprKind::Announced { body, .. }
            if matches!(body.kind, ir::ExprKind::Not(_)))));
    assert_eq!(
        rendered("bool p, q\ncheck <! p or q> q"),
        ["check <! (p or q)> q"]
    );
    assert_eq!(
        errors("characters A\nbool p\nint x\ncheck [B ! p] p\ncheck [! x] p\nactual [! p] p"),
        [
            ("unknown name `B`".to_string(), "B".to_string()),
            ("expected bool, found int".to_string(), "x".to_string()),
            (
                "`actual` describes the world itself, without knowledge operators or announcements"
                    .to_string(),
                "[! p] p".to_string()
            ),
        ]
    );
}

#[test]
fn quantifiers_take_bool_constants() {
    assert_eq!(
        rendered("bool p[2], q\ncheck forall q, p[1]: exists p[0]: p[0] or q"),
        ["check forall p[1], q: exists p[0]: p[0] or q"]
    );
    let errs = errors("int x\nbool p\ncheck forall x: p\ncheck exists y: p");
    assert_eq!(
        errs[0].0,
        "`forall` quantifies bool constants, not an int value"
    );
    assert_eq!(
        errs[1].0,
        "`exists` quantifies the story's bool constants, and `y` is not one"
    );
}

// ----- actions, `do` and `plan` (issue 41) -----

/// Each action on a line: `NAME by OWNER if GUARD @OFFSET: cases; sees and expects`,
/// after checking that its body is an event of its own, named like it.
fn render_actions(program: &ir::Program) -> Vec<String> {
    let show_case = |c: &ir::Case| {
        let mut s = c.name.clone();
        if let Some(pre) = &c.pre {
            s.push_str(&format!(" if {}", program.show(pre, None)));
        }
        if !c.changes.is_empty() {
            let cs: Vec<String> = (c.changes.iter())
                .map(|(k, v)| {
                    format!(
                        "{} := {}",
                        program.constants[k.0].name,
                        program.show(v, None)
                    )
                })
                .collect();
            s.push_str(&format!(" then {}", cs.join(", ")));
        }
        s
    };
    program
        .actions
        .iter()
        .map(|a| {
            let def = &program.events[a.body.event.0];
            assert_eq!(def.name, a.name);
            let names: Vec<&str> = a.body.cases.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(def.cases, names);
            let variants = &program.enums[def.sort.0].variants;
            assert_eq!(variants.last().unwrap(), &format!("(no {} yet)", a.name));
            assert_eq!(variants.len(), names.len() + 1);
            assert_eq!((a.body.actual, a.body.actual_at), (None, None));
            assert!(a.body.occurrences.is_empty());
            let mut line = a.name.clone();
            if let Some(owner) = a.owner {
                line.push_str(&format!(" by {}", program.characters[owner.0].name));
            }
            if let Some(guard) = &a.guard {
                line.push_str(&format!(" if {}", program.show(guard, None)));
            }
            let cases: Vec<String> = a.body.cases.iter().map(show_case).collect();
            line.push_str(&format!(" @{}: {}", a.offset, cases.join("; ")));
            for (who, groups) in a.body.sees.iter().enumerate() {
                if let Some(groups) = groups {
                    line.push_str(&format!(
                        "; {} sees {groups:?}",
                        program.characters[who].name
                    ));
                }
            }
            for (who, ranks) in a.body.expects.iter().enumerate() {
                if let Some(ranks) = ranks {
                    line.push_str(&format!(
                        "; {} expects {ranks:?}",
                        program.characters[who].name
                    ));
                }
            }
            line
        })
        .collect()
}

/// A story with a plain action and a family declared in nested `for` and `if`.
const ACTIONS: &str = "const n = 3\ncharacters Anne, Bob, P[n]\nbool p, q, s[n]\n\
    action flip by Anne if not knows(Bob, p) {\n  heads if p then q := true\n  tails\n  \
    Anne sees heads | tails\n  Bob expects tails\n}\n\
    for i in 0..n {\n  for j in 0..n {\n    if i != j {\n      \
    action call[i, j] by P[i] if s[i] {\n        c then s[j] := true\n        P[i] sees c\n      }\n    }\n  }\n}\n";

#[test]
fn actions_lower_to_definitions_with_events_of_their_own() {
    let program = ok(ACTIONS);
    assert_eq!(
        render_actions(&program),
        [
            "flip by Anne if not knows(Bob, p) @0: heads if p then q := true; tails; \
             Anne sees [0, 1]; Bob expects [1, 0]",
            "call[0, 1] by P[0] if s[0] @2: c then s[1] := true; P[0] sees [0]",
            "call[0, 2] by P[0] if s[0] @3: c then s[2] := true; P[0] sees [0]",
            "call[1, 0] by P[1] if s[1] @4: c then s[0] := true; P[1] sees [0]",
            "call[1, 2] by P[1] if s[1] @5: c then s[2] := true; P[1] sees [0]",
            "call[2, 0] by P[2] if s[2] @6: c then s[0] := true; P[2] sees [0]",
            "call[2, 1] by P[2] if s[2] @7: c then s[1] := true; P[2] sees [0]",
        ]
    );
    // Nothing happens where an action is declared; without a `plan` there is no step
    // event.
    assert!(program.statements.is_empty());
    assert_eq!(program.events.len(), 7);
    assert!(program.plan_steps.is_none());
    assert_eq!(program.occurrences().count(), 0);
    // The name span is the action's name as written.
    let span = program.actions[1].span;
    assert_eq!(&ACTIONS[span.start..span.end], "call[i, j]");
    // An action without owner or guard; a body with loops and `if`s.
    let program = ok(
        "bool b[2]\naction set {\n  for k in 0..2 { on[k] then b[k] := true }\n  \
         if true { off } else { never }\n}",
    );
    assert_eq!(
        render_actions(&program),
        ["set @0: on[0] then b[0] := true; on[1] then b[1] := true; off"]
    );
}

#[test]
fn do_executes_actions_with_their_own_occurrences() {
    let story = format!(
        "{ACTIONS}actual p and s[0]\ndo flip: heads, call[0, 1]\n\
         repeat max 3 {{\n  do call[1, 2]: c\n}} until true\n\
         for i in 0..2 {{ do call[i, i + 1] }}"
    );
    assert_eq!(
        rendered(&story),
        [
            "actual p and s[0]",
            "do flip: heads (flip), call[0, 1] (call[0, 1]#1)",
            "repeat max 3",
            "  do call[1, 2]: c (call[1, 2]#1 call[1, 2]#2 call[1, 2]#3)",
            "until true",
            "do call[0, 1] (call[0, 1]#2)",
            "do call[1, 2] (call[1, 2]#4)",
        ]
    );
    let program = ok(&story);
    let ir::StmtKind::Do(steps) = &program.statements[1].kind else {
        panic!("{:?}", program.statements[1])
    };
    // Each step: the action, its body with the `: CASE` as `actual` (located at the
    // case), a fresh occurrence of the action's own event.
    let flip = &program.actions[0];
    assert_eq!(steps[0].action, ir::ActionId(0));
    assert_eq!(steps[0].event.event, flip.body.event);
    assert_eq!(steps[0].event.cases, flip.body.cases);
    assert_eq!(steps[0].event.sees, flip.body.sees);
    assert_eq!(steps[0].event.actual, Some(0));
    let at = steps[0].event.actual_at.unwrap();
    assert_eq!(&story[at.start..at.end], "heads");
    assert_eq!(&story[steps[0].span.start..steps[0].span.end], "flip");
    let [occurrence] = steps[0].event.occurrences[..] else {
        panic!()
    };
    assert_eq!(
        program.constants[occurrence.0].occurrence,
        Some(ir::Occurrence {
            event: flip.body.event
        })
    );
    assert_eq!(steps[1].action, ir::ActionId(1));
    assert_eq!(
        (steps[1].event.actual, steps[1].event.actual_at),
        (None, None)
    );
    assert_eq!(&story[steps[1].span.start..steps[1].span.end], "call[0, 1]");
    // The actions' bodies stay without occurrences.
    assert!(
        program
            .actions
            .iter()
            .all(|a| a.body.occurrences.is_empty())
    );
}

#[test]
fn plan_lowers_with_the_actions_declared_before_it_and_the_step_event() {
    let story = "const n = 4\ncharacters Anne, Bob\nbool p, q\n\
                 action a by Anne {\n  x\n  y if p\n}\n\
                 plan p\n\
                 action b by Bob if q {\n  z then q := false\n}\n\
                 plan all all(i in 0..1: p and q) max n keeping not q coordinated\n\
                 repeat max 2 {\n  plan q max 12\n} until true\n\
                 for i in 0..1 { plan p max 1 }";
    assert_eq!(
        rendered(story),
        [
            "plan p max 10 (actions a)",
            "plan all p and q max 4 keeping not q coordinated (actions a, b)",
            "repeat max 2",
            "  plan q max 12 (actions a, b)",
            "until true",
            "plan p max 1 (actions a, b)",
        ]
    );
    let program = ok(story);
    let ir::StmtKind::Plan(plan) = &program.statements[1].kind else {
        panic!()
    };
    assert_eq!(plan.actions, [ir::ActionId(0), ir::ActionId(1)]);
    assert!(plan.all && plan.coordinated && plan.keeping.is_some());
    assert_eq!(plan.max, 4);
    let ir::StmtKind::Plan(plan) = &program.statements[0].kind else {
        panic!()
    };
    assert!(!plan.all && !plan.coordinated && plan.keeping.is_none());
    // The step event: every action's cases in declaration order, its sort, and as many
    // occurrences as the deepest plan asks.
    let steps = program.plan_steps.as_ref().unwrap();
    let def = &program.events[steps.event.0];
    assert_eq!(def.cases, ["a.x", "a.y", "b.z"]);
    assert_eq!(
        program.enums[def.sort.0].variants,
        ["a.x", "a.y", "b.z", "(no plan step yet)"]
    );
    assert_eq!(
        [program.actions[0].offset, program.actions[1].offset],
        [0, 2]
    );
    assert_eq!(steps.occurrences.len(), 12);
    for c in &steps.occurrences {
        let constant = &program.constants[c.0];
        assert_eq!(constant.ty, Ty::Enum(def.sort));
        assert_eq!(
            constant.occurrence,
            Some(ir::Occurrence { event: steps.event })
        );
    }
    // Plan steps do not count against the executions of events: 10 000 of each.
    ok("action a {\n  x\n}\nplan true max 10000\nrepeat max 10000 {\n  do a\n} until true");
    // A plan in code that does not run makes no steps.
    assert!(
        ok("action a {\n  x\n}\nif false { plan true max 3 }")
            .plan_steps
            .is_none()
    );
}

#[test]
fn action_do_and_plan_mistakes_are_located_with_a_hint() {
    let head = "characters Anne, Bob\nbool p\nint x\n";
    let flip = "action flip {\n  heads\n  tails\n}\n";
    let calls =
        "for i in 0..2 { for j in 0..2 { if i != j { action call[i, j] by Anne { c } } } }\n";
    let table: Vec<(String, &str, &str, Vec<&str>)> = vec![
        // `do` of an action not declared.
        (
            "do zz".into(),
            "unknown action `zz`",
            "zz",
            vec!["declare it first, e.g. `action zz { … }`"],
        ),
        (
            format!("{flip}do flp"),
            "unknown action `flp`",
            "flp",
            vec!["did you mean `flip`?"],
        ),
        (
            format!("{flip}{calls}do zzzzz"),
            "unknown action `zzzzz`",
            "zzzzz",
            vec!["the actions are `flip` and `call[…]`"],
        ),
        (
            format!("{calls}do call[0, 0]"),
            "unknown action `call[0, 0]`",
            "call[0, 0]",
            vec![
                "it is declared only in a part of the story that does not run (an `if` branch not taken or an empty loop)",
            ],
        ),
        (
            format!("{calls}do call[0, 2]"),
            "unknown action `call[0, 2]`",
            "call[0, 2]",
            vec!["did you mean `call[0, 1]`?"],
        ),
        (
            format!("do flip\n{flip}"),
            "unknown action `flip`",
            "flip",
            vec!["`flip` is declared later in the story: declare an action before doing it"],
        ),
        (
            "if false { action a { y } }\ndo a".into(),
            "unknown action `a`",
            "a",
            vec![
                "it is declared only in a part of the story that does not run (an `if` branch not taken or an empty loop)",
            ],
        ),
        (
            format!("{flip}if false {{ do zz }}"),
            "unknown action `zz`",
            "zz",
            vec!["the actions are `flip`"],
        ),
        // `do x: CASE` with an unknown case.
        (
            format!("{flip}do flip: hedas"),
            "the action `flip` has no case `hedas`",
            "hedas",
            vec!["did you mean `heads`?"],
        ),
        (
            format!("{flip}do flip: zz"),
            "the action `flip` has no case `zz`",
            "zz",
            vec!["its cases are `heads` and `tails`"],
        ),
        // An action declared twice.
        (
            format!("{flip}action flip {{\n  y\n}}"),
            "the action `flip` is declared twice",
            "flip",
            vec![
                "every action needs a name of its own (members of a family, indices of their own)",
            ],
        ),
        (
            format!("action call[1, 0] {{ c }}\n{calls}"),
            "the action `call[1, 0]` is declared twice",
            "call[i, j]",
            vec![
                "every action needs a name of its own (members of a family, indices of their own)",
            ],
        ),
        (
            "for i in 0..2 { action a { y } }".into(),
            "the action `a` is declared again in the next round of this loop",
            "a",
            vec!["give its name the loop's variable as an index: `action NAME[i] { … }`"],
        ),
        // `actual` in an action's body.
        (
            "action a {\n  y\n  actual y\n}".into(),
            "an action's block has no `actual` line",
            "actual y",
            vec!["the case that happens is said where the action is done: `do NAME: CASE`"],
        ),
        // `max` not a positive compile-time int.
        (
            format!("{flip}plan p max 0"),
            "a plan's `max` must be at least 1, found 0",
            "0",
            vec!["`max D` is the most actions a plan may take: write e.g. `plan φ max 5`"],
        ),
        (
            format!("{flip}plan p max -1"),
            "a plan's `max` must be at least 1, found -1",
            "-1",
            vec!["`max D` is the most actions a plan may take: write e.g. `plan φ max 5`"],
        ),
        (
            format!("{flip}plan p max x"),
            "a plan's `max` must be computable before the story runs (from consts and loop variables)",
            "x",
            vec!["`x` is a hidden constant: its value is known only as the story runs"],
        ),
        (
            format!("{flip}plan p max depth"),
            "unknown name `depth`",
            "depth",
            vec!["declare it first, e.g. `const depth = 3`"],
        ),
        (
            format!("{flip}plan p max 10001"),
            "a plan's `max` may be at most 10000, found 10001",
            "10001",
            vec!["`max D` is the most actions a plan may take: lower it"],
        ),
        // `coordinated` with an action that has no owner.
        (
            format!("{calls}{flip}plan p coordinated"),
            "the action `flip` has no owner, and a `coordinated` plan needs the owner of each action",
            "coordinated",
            vec!["write `action flip by A { … }`, A the character who does it"],
        ),
        (
            format!("{flip}action g {{ y }}\nplan p coordinated"),
            "the actions `flip` and `g` have no owner, and a `coordinated` plan needs the owner of each action",
            "coordinated",
            vec!["write `action flip by A { … }`, A the character who does it"],
        ),
        (
            "for i in 0..5 { action a[i] { y } }\nplan p coordinated".into(),
            "the action `a[0]` and 4 others have no owner, and a `coordinated` plan needs the owner of each action",
            "coordinated",
            vec!["write `action a[0] by A { … }`, A the character who does it"],
        ),
        // `by` naming no character.
        (
            "action a by Ann { y }".into(),
            "unknown name `Ann`",
            "Ann",
            vec!["did you mean `Anne`?"],
        ),
        (
            "action a by p { y }".into(),
            "`p` is not a character",
            "p",
            vec!["the characters are `Anne` and `Bob`"],
        ),
        // Where they may not stand.
        (
            "repeat max 2 {\n  action a { y }\n} until true".into(),
            "an action cannot be declared inside `repeat`",
            "action a { y }",
            vec!["declare it at the top level of the story, or inside `for` and `if`"],
        ),
        (
            "assert_adds_ck true {\n  action a { y }\n}".into(),
            "an action cannot be declared inside `assert_adds_ck`",
            "action a { y }",
            vec!["declare it at the top level of the story, or inside `for` and `if`"],
        ),
        (
            format!("{flip}assert_adds_ck true {{\n  plan p\n}}"),
            "a `plan` cannot stand inside `assert_adds_ck`",
            "plan p",
            vec!["ask it before or after the hint's block"],
        ),
        (
            format!("{flip}assert_adds_ck true {{\n  do flip\n}}"),
            "a hint's block cannot hold a `do`",
            "do flip",
            vec![
                "the hint describes the worlds before and after the block, which an action changes: move the `do` out of it",
            ],
        ),
        (
            format!("{flip}simultaneously {{\n  plan p\n}}"),
            "only announcements can be made simultaneously",
            "plan p",
            vec!["inside `simultaneously { … }` write `announce …`, `A: …` or `A reveals …`"],
        ),
        (
            "simultaneously {\n  action a { y }\n}".into(),
            "only announcements can be made simultaneously",
            "action a { y }",
            vec!["inside `simultaneously { … }` write `announce …`, `A: …` or `A reveals …`"],
        ),
        (
            format!("{flip}simultaneously {{\n  do flip\n}}"),
            "only announcements can be made simultaneously",
            "do flip",
            vec!["inside `simultaneously { … }` write `announce …`, `A: …` or `A reveals …`"],
        ),
        // A plan with nothing to choose from.
        (
            "plan p".into(),
            "no action is declared before this `plan`",
            "plan p",
            vec![
                "a plan chooses among the actions declared before it: declare them first, e.g. `action flip { … }`",
            ],
        ),
        // Types.
        (
            "action a if x { y }".into(),
            "expected bool, found int",
            "x",
            vec![],
        ),
        (
            format!("{flip}plan x"),
            "expected bool, found int",
            "x",
            vec![],
        ),
        (
            format!("{flip}plan p keeping x + 1"),
            "expected bool, found int",
            "x + 1",
            vec![],
        ),
        // Every check of an event's block, with the same messages.
        (
            "action a {\n  y\n  y\n}".into(),
            "the case `y` is written twice",
            "y",
            vec!["every case of an action needs a name of its own"],
        ),
        (
            "action a {\n  y\n  Anne sees zzz\n}".into(),
            "the action `a` has no case `zzz`",
            "zzz",
            vec!["its cases are `y`"],
        ),
        (
            "action a {\n  y\n  w\n  Anne sees y\n}".into(),
            "the case `w` is in no group of Anne's `sees` line",
            "Anne sees y",
            vec!["every case is in exactly one group: add it, or end the line with `| others`"],
        ),
        (
            "action a {\n}".into(),
            "the action `a` has no cases",
            "action a {\n}",
            vec!["write its cases in the block, e.g. `moved if … then …`"],
        ),
        (
            "action a {\n  y then p := 1\n}".into(),
            "expected bool, found int",
            "1",
            vec![],
        ),
        (
            "action a {\n  y then x := knows(Anne, p)\n}".into(),
            "`:=` gives a constant a value of the world, without knowledge operators",
            "knows(Anne, p)",
            vec![],
        ),
        // The budget of executions counts `do`s as events.
        (
            format!("{flip}repeat max 10001 {{\n  do flip\n}} until true"),
            "this action can happen too many times (the rounds of the `repeat`s around it)",
            "flip",
            vec!["a story runs at most 10000 events; lower the `repeat`'s max"],
        ),
        (
            format!(
                "{flip}event e {{\n  y\n}}\nrepeat max 5000 {{\n  do flip\n  event e {{\n    y\n  }}\n}} until true"
            ),
            "this event can happen too many times (the rounds of the `repeat`s around it)",
            "event e {\n    y\n  }",
            vec!["a story runs at most 10000 events; lower the `repeat`'s max"],
        ),
    ];
    for (body, message, under, hints) in &table {
        let src = format!("{head}{body}");
        let diagnostics = compile(&src).expect_err(&src);
        assert_eq!(diagnostics.len(), 1, "{src}: {diagnostics:#?}");
        let d = &diagnostics[0];
        assert_eq!(d.message, *message, "{src}");
        assert_eq!(&src[d.span.start..d.span.end], *under, "{src}");
        assert_eq!(&d.hints, hints, "{src}");
    }
    // The notes: at the first declaration, at the action without owner.
    let src = format!("{head}{flip}action flip {{ y }}");
    let d = &compile(&src).unwrap_err()[0];
    let (at, text) = &d.notes[0];
    assert_eq!(
        (&src[at.start..at.end], text.as_str()),
        ("flip", "its first declaration")
    );
    let src = format!("{head}action flip by Anne {{ y }}\naction g {{ y }}\nplan p coordinated");
    let d = &compile(&src).unwrap_err()[0];
    let (at, text) = &d.notes[0];
    assert_eq!(
        (&src[at.start..at.end], text.as_str()),
        ("g", "declared here")
    );
    // In code that does not run, a member of a declared family with placeholder indices
    // is no mistake, nor is a case of a family; where it runs, it is one.
    ok(&format!("{head}{calls}for i in 0..0 {{ do call[i, i] }}"));
    ok(&format!(
        "{head}action roll {{ for f in 1..3 {{ face[f] }} }}\nfor f in 0..0 {{ do roll: face[f] }}"
    ));
    assert_eq!(
        errors(&format!(
            "{head}{calls}for i in 0..2 {{ do call[i, 1 - i], call[i, i] }}"
        )),
        [(
            "unknown action `call[0, 0]`".to_string(),
            "call[i, i]".to_string()
        ),]
    );
    // An action whose declaration failed is not reported again where it is done.
    assert_eq!(
        errors(&format!("{head}action a by Zed {{ y }}\ndo a")),
        [("unknown name `Zed`".to_string(), "Zed".to_string())]
    );
}

/// A statement's IR statements, or its diagnostics' messages.
type Lowered = Result<Vec<ir::Stmt>, Vec<String>>;

/// Lowers the statements of `src` one at a time through [`Incremental`].
fn incrementally(src: &str) -> (Incremental, Vec<Lowered>) {
    let story = epipen_syntax::parse(src).unwrap();
    let mut lowering = Incremental::new(&[], 0);
    let results = (story.statements.iter())
        .map(|s| (lowering.stmt(s)).map_err(|ds| ds.into_iter().map(|d| d.message).collect()))
        .collect();
    (lowering, results)
}

#[test]
fn incremental_lowering_gives_what_whole_file_lowering_gives() {
    let src = "\
characters Albert, Bernard
int month, day
announce (month, day) in {(5, 15), (5, 16), (6, 17)}
Albert learns month
Bernard learns day
checkpoint whispered
Albert: not knows_value(month, day)
Bernard: not at(whispered, knows_value(month, day)) and knows_value(month, day)
enum Colour { red, blue }
Colour cloe
event flip {
  paint if cloe == blue then cloe := red
  same
  Albert sees paint | same
}
";
    let whole = compile(src).unwrap();
    let (lowering, results) = incrementally(src);
    let statements: Vec<ir::Stmt> = (results.into_iter())
        .flat_map(|r| r.expect("no error"))
        .collect();
    assert_eq!(statements, whole.statements);
    let program = lowering.program();
    assert_eq!(program.characters, whole.characters);
    assert_eq!(program.constants, whole.constants);
    assert_eq!(program.enums, whole.enums);
    assert_eq!(program.events, whole.events);
    assert_eq!(program.checkpoints, whole.checkpoints);
    assert!(program.statements.is_empty());
}

/// What a front end keeps of the declarations, extended after each statement, is what
/// the lowering declares: new names join it, and a second execution of an event renames
/// the first's occurrence.
#[test]
fn declarations_extended_statement_by_statement_are_the_lowerings() {
    let src = "\
characters A, B[2]
int x
int x
bool p
enum Colour { red, blue }
Colour c
checkpoint start
event roll { one\n two\n actual one }
announce x > 0
event roll { one\n two\n actual two }
event flip { heads\n tails\n actual tails }
action tell by A { told if p }
do tell
do tell
characters C
";
    let story = epipen_syntax::parse(src).unwrap();
    let mut lowering = Incremental::new(&[], 0);
    let mut kept = lowering.program();
    for stmt in &story.statements {
        let lowered = lowering.stmt(stmt);
        if lowered.is_ok() && lowering.declared() {
            lowering.extend(&mut kept);
        }
        let now = lowering.program();
        assert_eq!(kept.characters, now.characters);
        assert_eq!(kept.constants, now.constants);
        assert_eq!(kept.checkpoints, now.checkpoints);
        assert_eq!(kept.enums, now.enums);
        assert_eq!(kept.events, now.events);
        assert_eq!(kept.actions, now.actions);
    }
    let names: Vec<&str> = kept.constants.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "x", "p", "c", "roll#1", "roll#2", "flip", "tell#1", "tell#2"
        ]
    );
    assert_eq!(kept.characters.len(), 4);
    // A statement undone after it lowered (the story's engine failed on it): the kept
    // declarations go back with the lowering, the second execution's renaming too.
    let undone = epipen_syntax::parse("event flip { heads\n tails\n actual heads }\nint z\n")
        .unwrap()
        .statements;
    for stmt in &undone {
        let before = lowering.clone();
        lowering.stmt(stmt).unwrap();
        lowering.extend(&mut kept);
        assert_ne!(kept.constants, before.program().constants);
        lowering = before;
        lowering.extend(&mut kept);
        assert_eq!(kept.constants, lowering.program().constants);
    }
    assert_eq!(
        kept.constants.last().map(|c| c.name.as_str()),
        Some("tell#2")
    );
    assert_eq!(kept.constants[5].name, "flip");
}

#[test]
fn an_incremental_statement_with_errors_changes_nothing() {
    let src = "\
characters A
int x
announce y == 1
int y, x
announce y == x
actual x == 1
actual x == 2
A learns knows(A, x == 1) + 1
checkpoint c
checkpoint c
announce at(d, x == 1)
";
    let (lowering, results) = incrementally(src);
    let errors: Vec<Vec<String>> = (results.iter())
        .map(|r| r.clone().err().unwrap_or_default())
        .collect();
    assert_eq!(
        errors,
        [
            vec![],
            vec![],
            // Nothing is "declared later" when the story arrives one statement at a time.
            vec!["unknown name `y`".to_string()],
            // The statement fails as a whole: `y` is not declared either.
            vec!["`x` is already declared".to_string()],
            vec!["unknown name `y`".to_string()],
            vec![],
            vec!["the actual world is already declared".to_string()],
            vec!["`+` needs int operands, found bool".to_string()],
            vec![],
            vec!["checkpoint `c` is already defined".to_string()],
            vec!["unknown checkpoint `d`".to_string()],
        ]
    );
    let program = lowering.program();
    assert_eq!(program.constants.len(), 1);
    assert_eq!(program.checkpoints.len(), 1);
}

#[test]
fn an_incremental_lowering_lowers_expressions_against_its_declarations() {
    let (lowering, _) = incrementally("characters A\nint x\nenum Colour { red, blue }\nColour c\n");
    let parsed = |src: &str| match epipen_syntax::parse(&format!("announce {src}"))
        .unwrap()
        .statements
        .remove(0)
        .kind
    {
        StmtKind::Announce(e) => e,
        other => panic!("{other:?}"),
    };
    let e = lowering.expr(&parsed("x + 1")).unwrap();
    assert_eq!(e.ty, Ty::Int);
    let e = lowering.expr(&parsed("knows(A, c == red)")).unwrap();
    assert_eq!(e.ty, Ty::Bool);
    let messages = |src: &str| -> Vec<String> {
        (lowering.expr(&parsed(src)).unwrap_err().into_iter())
            .map(|d| d.message)
            .collect()
    };
    assert_eq!(messages("y"), ["unknown name `y`"]);
    assert_eq!(messages("x + c"), ["`+` needs int operands, found Colour"]);
    // The storyteller must name the agent.
    assert_eq!(messages("knows_value(x)").len(), 1);
}

/// A front end's handles may hold a lowering (Python's classes are Send + Sync).
#[test]
fn an_incremental_lowering_can_be_shared_between_threads() {
    fn shareable<T: Clone + Send + Sync>() {}
    shareable::<Incremental>();
}

#[test]
fn an_actions_name_names_its_last_do() {
    // docs/language.md, "Plans": `tell == told` names the last `do` of `tell`.
    let program = ok("characters Anne, Bob\nbool k\nactual k\n\
        action tell by Anne { told if k }\n\
        plan tell == told\ndo tell\ncheck tell == told\n");
    let tell = program.actions[0].body.event;
    let latest = |stmt: &ir::Stmt| match &stmt.kind {
        ir::StmtKind::Check(f) => matches!(
            &f.kind,
            ir::ExprKind::Cmp(_, lhs, _) if lhs.kind == ir::ExprKind::Latest(tell)
        ),
        _ => false,
    };
    assert!(
        program.statements.iter().any(latest),
        "{:#?}",
        program.statements
    );
    // One namespace: an action's plain name is unique among the story's names; a
    // family's members are not names of the story's.
    assert_eq!(
        errors("characters Anne\nbool tell\naction tell { told }\n"),
        [("`tell` is already declared".to_string(), "tell".to_string())]
    );
    assert_eq!(
        errors("characters P[2]\nfor i in 0..2 { action call[i] { c } }\ncheck call == c\n")[0].1,
        "call"
    );
}

/// `ExprKind::Execution` (the builders', never parsed): the k-th execution's occurrence,
/// whatever ran after it; of an event or of an action's `do`.
#[test]
fn an_execution_names_its_occurrence_after_later_ones() {
    let (lowering, results) = incrementally(
        "characters A\nevent roll { a\n b\n actual a }\nevent roll { a\n b\n actual b }\n\
         action tell { told }\ndo tell\n",
    );
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let program = lowering.program();
    let occurrences: Vec<ConstId> = (0..program.constants.len())
        .map(ConstId)
        .filter(|c| program.constants[c.0].occurrence.is_some())
        .collect();
    assert_eq!(occurrences.len(), 3);
    let execution = |name: &str, k: usize| ast::Expr {
        kind: ast::ExprKind::Execution {
            event: Ident {
                name: name.into(),
                span: Span::default(),
            },
            k,
        },
        span: Span::default(),
    };
    let lowered = |name: &str, k: usize| lowering.expr(&execution(name, k)).map(|e| e.kind);
    assert_eq!(lowered("roll", 1), Ok(ir::ExprKind::Const(occurrences[0])));
    assert_eq!(lowered("roll", 2), Ok(ir::ExprKind::Const(occurrences[1])));
    assert_eq!(lowered("tell", 1), Ok(ir::ExprKind::Const(occurrences[2])));
    let message = |name: &str, k: usize| lowered(name, k).unwrap_err()[0].message.clone();
    assert_eq!(
        message("roll", 3),
        "`roll` has no execution #3: it has run 2 times so far"
    );
    assert_eq!(
        message("roll", 0),
        "`roll` has no execution #0: it has run 2 times so far"
    );
    assert_eq!(message("A", 1), "`A` is no event or action of the story");
}

/// An event needs a name of its own: not an action's (whose name names its last `do`).
#[test]
fn an_event_named_like_an_action_is_refused() {
    assert_eq!(
        errors("action tell { told }\nevent tell { told }"),
        [("`tell` is an action".to_string(), "tell".to_string())]
    );
}

/// A builder's statements are written nowhere (every span the default): one place
/// twice is then no loop's next round.
#[test]
fn a_builders_second_declaration_is_no_loops_next_round() {
    let spanless = |src: &str| {
        let mut story = epipen_syntax::parse(src).unwrap();
        fn clear(e: &mut ast::Stmt) {
            e.span = Span::default();
            if let ast::StmtKind::Action(a) = &mut e.kind {
                a.name.span = Span::default();
            }
        }
        story.statements.iter_mut().for_each(clear);
        let mut lowering = Incremental::new(&[], 0);
        (story.statements.iter())
            .map(|s| lowering.stmt(s).err().map(|ds| ds[0].message.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        spanless("action tell { told }\naction tell { said }"),
        [
            None,
            Some("the action `tell` is declared twice".to_string())
        ]
    );
    assert_eq!(
        spanless("int x\nactual x == 1\nactual x == 2"),
        [
            None,
            None,
            Some("the actual world is already declared".to_string())
        ]
    );
}

/// `:=` does not change what records an execution's case (a builder's
/// `ExprKind::Execution`); its value is read next to its target, as `==` reads it.
#[test]
fn an_executions_case_is_not_changed_by_assignment() {
    let (mut lowering, results) = incrementally("characters A\nevent roll { a\n b }\n");
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let name = |n: &str| ast::Expr {
        kind: ast::ExprKind::Name(Ident {
            name: n.into(),
            span: Span::default(),
        }),
        span: Span::default(),
    };
    let execution = ast::Expr {
        kind: ast::ExprKind::Execution {
            event: Ident {
                name: "roll".into(),
                span: Span::default(),
            },
            k: 1,
        },
        span: Span::default(),
    };
    let assign = ast::Stmt {
        kind: ast::StmtKind::Assign {
            targets: vec![execution],
            values: vec![name("a")],
        },
        span: Span::default(),
    };
    let messages: Vec<String> = (lowering.stmt(&assign).unwrap_err().into_iter())
        .map(|d| d.message)
        .collect();
    assert_eq!(
        messages,
        ["an execution's case records what happened: `:=` cannot change it"]
    );
}
