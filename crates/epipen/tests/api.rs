//! The Rust API (`epipen::Story`): the stories of `stories/` told in Rust, and the
//! errors a Rust program can get back.

use epipen::engine::Strategy;
use epipen::story::Expression;
use epipen::{Change, Error, Formula as F, Hint, Int, Options, Story};

#[path = "api/belief.rs"]
mod belief;
#[path = "api/chance.rs"]
mod chance;
#[path = "api/plan.rs"]
mod plan;
#[path = "api/tell.rs"]
mod tell;

/// The muddy children with n children, the first k muddy: who steps forward in each
/// round, until everyone has (at most n + 1 rounds).
fn muddy_rounds(n: usize, k: usize) -> Vec<Vec<bool>> {
    let mut story = Story::new();
    let child = story.characters("child", n);
    let muddy = story.bools("muddy", n);
    story
        .actual(F::all(
            (0..n).map(|i| if i < k { muddy[i].clone() } else { !&muddy[i] }),
        ))
        .unwrap();
    for (i, &c) in child.iter().enumerate() {
        for (_, m) in muddy.iter().enumerate().filter(|&(j, _)| j != i) {
            story.learns(c, m).unwrap();
        }
    }
    story.announce(F::any(&muddy)).unwrap();
    let mut rounds = Vec::new();
    while rounds.len() <= n {
        let forward = story
            .simultaneously(|s| {
                for (&c, m) in child.iter().zip(&muddy) {
                    s.reveals(c, F::knows_value(c, m));
                }
            })
            .unwrap();
        let done = forward.iter().all(|f| *f);
        rounds.push(forward);
        if done {
            break;
        }
    }
    // One world is left: the actual one.
    let worlds = story.worlds(10).unwrap();
    assert_eq!(worlds.len(), 1);
    for (i, m) in muddy.iter().enumerate() {
        assert_eq!(worlds[0].bool(m), Some(i < k));
    }
    rounds
}

#[test]
fn muddy_children_step_forward_in_round_k_then_all_in_round_k_plus_1() {
    for (n, k) in [(1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (4, 3), (6, 3)] {
        let rounds = muddy_rounds(n, k);
        let mut expected = vec![vec![false; n]; k - 1];
        expected.push((0..n).map(|i| i < k).collect());
        if k < n {
            expected.push(vec![true; n]);
        }
        assert_eq!(rounds, expected, "n = {n}, k = {k}");
    }
}

/// Cheryl's birthday up to Albert's first statement, with the checkpoint after the
/// whispers.
fn cheryl() -> (
    Story,
    epipen::Character,
    epipen::Character,
    epipen::Int,
    epipen::Int,
) {
    cheryl_with(Options::default())
}

/// [`cheryl`] told with `options`.
fn cheryl_with(
    options: Options,
) -> (
    Story,
    epipen::Character,
    epipen::Character,
    epipen::Int,
    epipen::Int,
) {
    let mut story = Story::with_options(options);
    let albert = story.character("Albert");
    let bernard = story.character("Bernard");
    let month = story.int("month");
    let day = story.int("day");
    story
        .announce(F::tuple_in(
            [&month, &day],
            [
                [5, 15],
                [5, 16],
                [5, 19],
                [6, 17],
                [6, 18],
                [7, 14],
                [7, 16],
                [8, 14],
                [8, 15],
                [8, 17],
            ],
        ))
        .unwrap();
    story.learns(albert, &month).unwrap();
    story.learns(bernard, &day).unwrap();
    (story, albert, bernard, month, day)
}

#[test]
fn cheryls_birthday_is_july_16() {
    let (mut story, albert, bernard, month, day) = cheryl();
    let md = (&month, &day);
    let whispered = story.checkpoint("whispered").unwrap();
    story
        .says(
            albert,
            F::not(F::knows_value(albert, md))
                .and(F::knows(albert, F::not(F::knows_value(bernard, md)))),
        )
        .unwrap();
    assert_eq!(story.worlds(100).unwrap().len(), 5);
    story
        .says(
            bernard,
            !F::at(whispered, F::knows_value(bernard, md)) & F::knows_value(bernard, md),
        )
        .unwrap();
    // Any list of expressions will do: a tuple, an array, a slice, a Vec.
    let both = [month.clone(), day.clone()];
    story.says(albert, F::knows_value(albert, &both)).unwrap();
    let worlds = story.worlds(10).unwrap();
    assert!(worlds.is_complete());
    assert_eq!(worlds.len(), 1);
    let w = &worlds[0];
    assert_eq!((w.int(&month), w.int(&day)), (Some(7), Some(16)));
    assert_eq!(w.get("day"), Some(epipen::worlds::Value::Int(16)));
    assert_eq!(w.int(&(&month * 100 + &day)), Some(716));
    assert_eq!(w.to_string(), "month = 7, day = 16");
    assert_eq!(
        worlds.to_string(),
        "1 possible world:\n  month = 7, day = 16\n(and that's all)\n"
    );
}

/// Consecutive numbers up to the two "I don't know"s.
fn consecutive() -> (
    Story,
    epipen::Character,
    epipen::Character,
    epipen::Int,
    epipen::Int,
) {
    let mut story = Story::new();
    let anne = story.character("Anne");
    let bill = story.character("Bill");
    let a = story.int("A");
    let b = story.int("B");
    story
        .announce(a.ge(0) & b.ge(0) & (a.eq(&b + 1) | b.eq(&a + 1)))
        .unwrap();
    story.learns(anne, &a).unwrap();
    story.learns(bill, &b).unwrap();
    (story, anne, bill, a, b)
}

#[test]
fn a_right_hint_is_verified() {
    let (mut story, anne, bill, a, b) = consecutive();
    let hint = story
        .assert_adds_ck(a.gt(0) & b.gt(1), |s| {
            s.says(anne, !F::knows_value(anne, &b));
            s.says(bill, !F::knows_value(bill, &a));
        })
        .unwrap();
    assert!(matches!(hint, Hint::Verified { .. }), "{hint:?}");
    story.says(anne, F::knows_value(anne, &b)).unwrap();
    story.says(bill, F::knows_value(bill, &a)).unwrap();
    let w = story.worlds(10).unwrap();
    let pairs: Vec<_> = w.iter().map(|w| (w.int(&a), w.int(&b))).collect();
    assert_eq!(pairs, [(Some(1), Some(2)), (Some(2), Some(3))]);
}

/// A hint over no world is vacuous, not verified (nor taken on trust): nothing is left.
#[test]
fn a_hint_over_no_world_is_vacuous() {
    let mut story = Story::new();
    let x = story.int("x");
    story.announce(x.gt(1) & x.lt(1)).unwrap();
    let hint = story
        .assert_adds_ck(x.eq(3), |s| {
            s.announce(x.eq(3));
        })
        .unwrap();
    assert_eq!(hint, Hint::Vacuous);
    // A check there proves nothing either.
    assert_eq!(
        story.check(x.eq(3)).unwrap_err().to_string(),
        "the check is vacuous: no world is possible; hint: an earlier statement left no \
         world: see the story's worlds"
    );
    // Over some world, the same hint is verified.
    let mut story = Story::new();
    let x = story.int("x");
    let hint = story
        .assert_adds_ck(x.eq(3), |s| {
            s.announce(x.eq(3));
        })
        .unwrap();
    assert!(matches!(hint, Hint::Verified { .. }), "{hint:?}");
}

#[test]
fn a_wrong_hint_is_refuted_with_a_counterexample_and_has_no_effect() {
    let (mut story, anne, _bill, a, b) = consecutive();
    let before = story.worlds(5).unwrap().to_set();
    // Anne not knowing B rules out A = 0 only; "A > 1" also rules out A = 1.
    let err = story
        .assert_adds_ck(a.gt(1), |s| {
            s.says(anne, !F::knows_value(anne, &b));
        })
        .unwrap_err();
    let Error::Refuted(r) = &err else {
        panic!("expected a refutation, got {err:?}")
    };
    let w = &r.counterexample.world.0;
    assert_eq!(w[0], epipen::worlds::Value::Int(1), "{}", r.description);
    assert!(r.counterexample.kept_by_block);
    assert!(
        r.description
            .ends_with("(the block keeps this world but the hint rules it out)"),
        "{}",
        r.description
    );
    assert!(
        r.description.starts_with("A = 1, B = "),
        "{}",
        r.description
    );
    assert!(
        err.to_string().starts_with("the hint is wrong: A = 1"),
        "{err}"
    );
    // The failed statement left no trace.
    assert_eq!(story.worlds(5).unwrap().to_set(), before);
    assert_eq!(story.program().statements.len(), 3);
}

#[test]
fn refuted_and_trusted_hints_with_options() {
    let options = Options {
        keep_refuted_hints: true,
        ..Options::default()
    };
    let mut story = Story::with_options(options);
    let anne = story.character("Anne");
    let a = story.int("A");
    let b = story.int("B");
    story
        .announce(a.ge(0) & b.ge(0) & (a.eq(&b + 1) | b.eq(&a + 1)))
        .unwrap();
    story.learns(anne, &a).unwrap();
    let hint = story
        .assert_adds_ck(a.gt(1), |s| {
            s.says(anne, !F::knows_value(anne, &b));
        })
        .unwrap();
    let Hint::Refuted(r) = hint else {
        panic!("expected a refutation, got {hint:?}")
    };
    assert!(r.description.starts_with("A = 1"), "{}", r.description);
    // The story went on with the block's true effect: A = 0 is gone, A = 1 is not.
    let first = story.worlds(1).unwrap();
    assert_eq!(first[0].int(&a), Some(1));

    let options = Options {
        trust_hints: true,
        ..Options::default()
    };
    let mut story = Story::with_options(options);
    let x = story.int("x");
    let hint = story
        .assert_adds_ck(x.eq(3), |s| {
            s.announce(x.eq(4));
        })
        .unwrap();
    assert_eq!(hint, Hint::Trusted);
    assert_eq!(story.worlds(5).unwrap()[0].int(&x), Some(3));
}

#[test]
fn enums_compare_by_variant() {
    let mut story = Story::new();
    let colour = story.enumeration("Colour", &["silver", "rose", "turquoise", "earth"]);
    let fairies: Vec<_> = ["Cloe", "Ariana"]
        .iter()
        .map(|n| story.enum_constant(&colour, n))
        .collect();
    story
        .announce(fairies[0].is_in(["rose", "turquoise"]))
        .unwrap();
    story
        .announce(epipen::Int::count(fairies.iter().map(|f| f.eq("earth"))).eq(1))
        .unwrap();
    story.announce(fairies[0].ne(colour.value("rose"))).unwrap();
    let w = story.worlds(10).unwrap();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].variant(&fairies[0]), Some("turquoise"));
    assert_eq!(w[0].variant(&fairies[1]), Some("earth"));
    assert_eq!(w[0].to_string(), "Cloe = turquoise, Ariana = earth");
}

/// `in_range`: a range of any length, written and run as a story's `x in a..b`.
#[test]
fn a_range_of_any_length_is_one_membership() {
    let mut story = Story::new();
    let (x, n) = (story.int("x"), story.int("n"));
    story.announce(n.in_range(2, 4)).unwrap();
    story
        .announce(x.in_range(1, i64::MAX) & (&x * &x).in_range(0, &n))
        .unwrap();
    let worlds = story.worlds(10).unwrap();
    let lines: Vec<String> = worlds.iter().map(ToString::to_string).collect();
    assert_eq!(lines, ["x = 1, n = 2", "x = 1, n = 3"]);
    assert_eq!(
        story.text().unwrap(),
        "int x\nint n\nannounce n in 2..4\nannounce x in 1..9223372036854775807 and x * x in 0..n\n"
    );
}

#[track_caller]
fn invalid(result: Result<impl std::fmt::Debug, Error>, needle: &str) {
    match result {
        Err(e @ Error::Invalid(_)) => {
            let m = e.to_string();
            assert!(m.contains(needle), "{m:?} lacks {needle:?}")
        }
        other => panic!("expected Error::Invalid({needle:?}), got {other:?}"),
    }
}

/// A name the API declares is a name a story file could write (or a family member's,
/// `p[1]`), and a family is no larger than a file's may be: refused before its members
/// are named.
#[test]
fn names_are_names_and_families_have_a_size() {
    let mut story = Story::new();
    for (name, message) in [
        ("", "`` is not a name"),
        ("x y", "`x y` is not a name"),
        ("if", "`if` is a keyword, not a name"),
    ] {
        let refused = story.int(name).refused().map(ToString::to_string);
        let hint = "a name is a letter or `_` followed by letters, digits and `_`, and no keyword";
        assert_eq!(refused, Some(format!("{message} ({hint})")));
    }
    // A family's member is declared with its family.
    let member = story.bool("p[1]").refused().map(ToString::to_string);
    let whole = "`p[1]` is not a name (a family's members are declared with it, as a family)";
    assert_eq!(member.as_deref(), Some(whole));
    let huge = story.bools("h", 1 << 40);
    let too_many = "a family may have at most 100000 members, found 1099511627776";
    let refusals: Vec<_> = huge
        .iter()
        .map(|h| h.refused().map(ToString::to_string))
        .collect();
    assert_eq!(refusals, [Some(too_many.to_string())]);
    story.announce(true).unwrap();
    // A builder's statement is written nowhere: each of its mistakes is its own, not
    // one place's errors "in other rounds of the unrolling".
    let mut twice = Story::new();
    twice.characters("child", 2);
    twice.characters("child", 2);
    let Some(Error::Invalid(diagnostics)) = twice.refusal() else {
        panic!("the second family is refused");
    };
    let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["`child` is already declared"]);
    assert_eq!(diagnostics[0].hints.len(), 1, "{:?}", diagnostics[0].hints);
    use epipen::syntax::ast::{BinOp, Expr, ExprKind};
    let both = ExprKind::Binary {
        op: BinOp::And,
        lhs: Box::new(Expr::named("y")),
        rhs: Box::new(Expr::named("z")),
    };
    let both = Expr {
        kind: both,
        span: Default::default(),
    };
    let Err(Error::Invalid(diagnostics)) = Story::new().announce(F::from_syntax(both)) else {
        panic!("unknown names are refused");
    };
    let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(messages, ["unknown name `y`", "unknown name `z`"]);
    // A character refused breaks the story, and says so.
    assert!(story.characters("child", 1 << 40).is_empty());
    assert_eq!(
        story.refusal().map(ToString::to_string).as_deref(),
        Some(too_many)
    );
    invalid(story.announce(true), too_many);
}

/// A story's names are one namespace, as a story file's: characters, constants, enums
/// and enum values; lowering refuses a name declared twice, in its words.
#[test]
fn names_are_one_namespace_as_in_a_story_file() {
    // A second character of a name breaks the story: every later statement fails.
    let mut story = Story::new();
    let albert = story.character("Albert");
    story.character("Albert");
    let taken = "`Albert` is already declared (names of characters and constants must be unique)";
    invalid(story.announce(F::knows(albert, true)), taken);
    invalid(story.worlds(1), taken);
    // The error is lowering's diagnostic: its message and hint as data.
    let Err(Error::Invalid(diagnostics)) = story.announce(true) else {
        panic!("a broken story refuses every statement");
    };
    let [d] = diagnostics.as_slice() else {
        panic!("one diagnostic, found {diagnostics:?}");
    };
    assert_eq!(d.message, "`Albert` is already declared");
    assert_eq!(
        d.hints,
        ["names of characters and constants must be unique"]
    );
    // A constant of a character's name.
    let mut story = Story::new();
    story.character("x");
    let x = story.int("x");
    invalid(story.announce(x.eq(1)), "`x` is already declared");
    // The handle says so where it is made, as the statement does.
    let refused = x.refused().map(ToString::to_string);
    assert_eq!(
        refused.as_deref(),
        Some("`x` is already declared (names of characters and constants must be unique)")
    );
    assert!(story.int("y").refused().is_none());
    // A family is one declaration, and its name one of the story's names.
    story.bool("p");
    let family = story.bools("p", 3);
    let refusals: Vec<_> = (family.iter())
        .map(|p| p.refused().map(ToString::to_string))
        .collect();
    let taken = "`p` is already declared (names of characters and constants must be unique)";
    assert_eq!(refusals, vec![Some(taken.to_string()); 3]);
    assert_eq!(
        story
            .ints("q", 2)
            .iter()
            .filter(|q| q.refused().is_none())
            .count(),
        2
    );
    // Two enums sharing a value name: the second enum fails where it is used.
    let colour = story.enumeration("Colour", &["red", "green"]);
    let fruit = story.enumeration("Fruit", &["apple", "red"]);
    let wall = story.enum_constant(&colour, "wall");
    story.announce(wall.eq("red")).unwrap();
    let shared = "`red` is already declared (names of characters, constants, consts, enums and \
                  enum values must be unique)";
    invalid(story.announce(fruit.value("apple").eq("apple")), shared);
    let pick = story.enum_constant(&fruit, "pick");
    invalid(story.announce(pick.eq("apple")), shared);
    // A constant named like an enum's value.
    let green = story.bool("green");
    invalid(story.announce(green), "`green` is already declared");
}

#[test]
fn mistakes_are_typed_errors_before_the_engine() {
    let mut story = Story::new();
    let albert = story.character("Albert");
    let x = story.int("x");
    let p = story.bool("p");
    let colour = story.enumeration("Colour", &["red", "green"]);
    let shape = story.enumeration("Shape", &["round", "square"]);
    let c = story.enum_constant(&colour, "c");
    let s = story.enum_constant(&shape, "s");

    let mut other = Story::new();
    let bob = other.character("Bob");
    let y = other.int("y");

    invalid(story.announce(x.eq(&y)), "two different stories");
    invalid(
        story.announce(F::knows(bob, p.clone())),
        "two different stories",
    );
    invalid(story.says(bob, p.clone()), "another story");
    invalid(story.announce(c.eq(&s)), "cannot compare Colour with Shape");
    invalid(story.announce(c.eq("blue")), "no variant `blue`");
    invalid(
        story.learns(albert, F::knows(albert, x.gt(0)).ite(Int::from(1), 0)),
        "a value learned with knowledge operators must be a formula",
    );
    invalid(
        story.actual(F::knows_value(albert, &x)),
        "`actual` describes the world itself, without knowledge operators",
    );
    invalid(
        story.announce(F::knows_value(albert, Vec::<epipen::Int>::new())),
        "at least one",
    );
    invalid(
        story.announce(F::tuple_in((&x, &x), [vec![1, 2], vec![3]])),
        "this set item has 1 value, the element has 2",
    );
    invalid(
        story.announce(F::tuple_in((&x, &p), [[1, 2]])),
        "expected bool, found int",
    );
    let dup = story.int("x");
    invalid(story.announce(dup.eq(1)), "`x` is already declared");
    invalid(story.announce(x.eq(u64::MAX)), "does not fit");
    // `at` a checkpoint saved only inside a block that never ran.
    let mut inner = None;
    let err = story.assert_adds_ck(true, |b| {
        let cp = b.checkpoint("inside");
        inner = Some(cp);
        b.announce(F::knows(bob, true));
    });
    invalid(err, "another story");
    invalid(
        story.announce(F::at(inner.unwrap(), F::knows(albert, p.clone()))),
        "unknown checkpoint `inside`",
    );
    // Nothing above ran.
    assert!(story.program().statements.is_empty());
    story
        .announce(x.eq(1) & p.clone() & c.eq("green") & s.eq("round"))
        .unwrap();
    assert_eq!(story.worlds(10).unwrap().len(), 1);
}

#[test]
fn story_errors_come_from_running_and_leave_no_trace() {
    let mut story = Story::new();
    let a = story.character("A");
    let x = story.int("x");
    story.learns(a, &x).unwrap();
    let err = story.reveals(a, F::knows_value(a, &x)).unwrap_err();
    assert!(
        matches!(&err, Error::Story { message, .. } if message.contains("actual world")),
        "{err:?}"
    );
    let err = story.actual(x.ge(0) & x.le(1)).unwrap_err();
    assert!(matches!(&err, Error::Story { message, .. } if message.contains("several")));
    story.announce(x.ge(0) & x.le(3)).unwrap();
    story.actual(x.eq(2)).unwrap();
    let err = story.announce(x.eq(3)).unwrap_err();
    assert!(
        matches!(&err, Error::Story { message, .. } if message.contains("false in the actual world"))
    );
    // The false announcement had no effect.
    assert_eq!(story.worlds(10).unwrap().len(), 4);
    assert!(!story.reveals(a, x.eq(1)).unwrap());
    assert!(story.reveals(a, x.lt(3)).unwrap());
    let w = story.worlds(10).unwrap();
    let xs: Vec<_> = w.iter().map(|w| w.int(&x).unwrap()).collect();
    assert_eq!(xs, [0, 2]);
    // A second `actual` does not replace the first.
    invalid(
        story.actual(x.eq(0)),
        "the actual world is already declared",
    );
    assert!(!story.reveals(a, x.eq(0)).unwrap());
}

#[test]
fn declarations_after_statements_replay_the_story() {
    let mut story = Story::new();
    let x = story.int("x");
    story.announce(x.ge(1) & x.le(3)).unwrap();
    assert_eq!(story.worlds(10).unwrap().len(), 3);
    // A new constant and character after statements ran.
    let y = story.int("y");
    let a = story.character("A");
    story.announce(y.eq(&x * 2)).unwrap();
    story.learns(a, &y).unwrap();
    story.says(a, F::knows_value(a, &x)).unwrap();
    let w = story.worlds(10).unwrap();
    assert_eq!(w.len(), 3);
    assert_eq!(w[2].to_string(), "x = 3, y = 6");
    // Many checkpoints (more than the engine is first given room for), all usable.
    let cps: Vec<_> = (0..40)
        .map(|i| story.checkpoint(&format!("c{i}")).unwrap())
        .collect();
    story
        .announce(F::at(cps[39], F::knows_value(a, &x)))
        .unwrap();
    story.announce(F::at(cps[0], x.ne(2))).unwrap();
    assert_eq!(story.worlds(10).unwrap().len(), 2);
}

#[test]
fn arithmetic_follows_the_engine() {
    let mut story = Story::new();
    let x = story.int("x");
    let y = story.int("y");
    story.announce(x.eq(-7) & y.eq(3)).unwrap();
    let w = &story.worlds(1).unwrap()[0];
    assert_eq!(w.int(&(&x / &y)), Some(-3));
    assert_eq!(w.int(&(&x % &y)), Some(2));
    assert_eq!(w.int(&(&x / 0)), Some(0));
    assert_eq!(w.int(&(&x % 0)), Some(-7));
    assert_eq!(w.int(&(2 * -&x - 1)), Some(13));
    // The solver agrees.
    story
        .announce((&x / &y).eq(-3) & (&x % &y).eq(2) & (&x % 0).eq(-7))
        .unwrap();
    assert_eq!(story.worlds(1).unwrap().len(), 1);
}

/// stories/muddy-children-common.story told in Rust: group knowledge and `check`; a
/// failing check is a story error naming a world where it is false.
#[test]
fn group_knowledge_and_checks() {
    let mut story = Story::new();
    let child = story.characters("child", 3);
    let muddy = story.bools("muddy", 3);
    story
        .actual(muddy[0].clone() & muddy[1].clone() & !&muddy[2])
        .unwrap();
    for (i, &c) in child.iter().enumerate() {
        for (_, m) in muddy.iter().enumerate().filter(|&(j, _)| j != i) {
            story.learns(c, m).unwrap();
        }
    }
    let someone = F::any(&muddy);
    let two = Int::count(&muddy).ge(2);
    story
        .check(two.implies(F::everyone_knows(&child, someone.clone())))
        .unwrap();
    story
        .check(!F::common_knowledge(&child, someone.clone()))
        .unwrap();
    match story.check(F::common_knowledge(&child, someone.clone())) {
        Err(Error::Story { message, .. }) => assert_eq!(
            message,
            "the check fails in the world muddy[0] = false, muddy[1] = false, muddy[2] = false"
        ),
        other => panic!("{other:?}"),
    }
    story.announce(someone.clone()).unwrap();
    story.check(F::common_knowledge(&child, someone)).unwrap();
    let each_known = F::all(muddy.iter().map(|m| {
        F::distributed_knowledge(&child, m.clone()) | F::distributed_knowledge(&child, !m)
    }));
    story.check(each_known).unwrap();
    // A group of two: children 1 and 2 both see child 0.
    story
        .check(F::everyone_knows(&child[1..], muddy[0].clone()) | !&muddy[0])
        .unwrap();
    assert_eq!(story.worlds(100).unwrap().len(), 7);
    invalid(
        story.check(F::common_knowledge(&[], true)),
        "`common_knowledge` needs at least one character",
    );
}

/// `x := e` in Rust: a public change, and the mistakes it refuses.
#[test]
fn public_change() {
    let mut story = Story::new();
    let anne = story.character("Anne");
    let x = story.int("x");
    let y = story.int("y");
    story.announce(x.is_in([1, 2, 3]) & y.eq(0)).unwrap();
    story.learns(anne, x.clone() % 2).unwrap();
    let before = story.checkpoint("before").unwrap();
    story.assign(&x, &x * 10).unwrap();
    story.assign(&y, 5).unwrap();
    // Anne learned the parity of the old x: the new x is its multiple by ten.
    story
        .check(F::knows(anne, (&x % 20).eq(10)) | F::knows(anne, (&x % 20).eq(0)))
        .unwrap();
    // At `before`, x has its old value, which Anne knew when it was 2 (now 20).
    story
        .check(F::at(before, F::knows_value(anne, &x)).iff(x.eq(20)))
        .unwrap();
    let worlds = story.worlds(10).unwrap();
    let values: Vec<(i64, i64)> = (worlds.iter())
        .map(|w| (w.int(&x).unwrap(), w.int(&y).unwrap()))
        .collect();
    assert_eq!(values, [(10, 5), (20, 5), (30, 5)]);
    invalid(
        story.assign(&(&x + 1), 3),
        "only a constant can be given a new value",
    );
    invalid(
        story.assign(&x, F::knows_value(anne, &x).ite(Int::from(1), 2)),
        "`:=` gives a constant a value of the world, without knowledge operators",
    );
    let colour = story.enumeration("Colour", &["red", "green"]);
    let size = story.enumeration("Size", &["s", "m"]);
    let c = story.enum_constant(&colour, "c");
    invalid(
        story.assign(&c, size.value("s")),
        "expected Colour, found Size",
    );
}

/// The engine keys caches by the address of a statement's expressions: after a change
/// (or an event) a statement must not be taken for an earlier one whose expressions
/// lived at the same address (a `check` then answered for the one before).
#[test]
fn each_statement_is_read_afresh_after_a_change() {
    let mut story = Story::new();
    let anne = story.character("Anne");
    let x = story.int("x");
    story.announce(x.is_in([1, 2])).unwrap();
    story.actual(x.eq(1)).unwrap();
    story.assign(&x, &x + 10).unwrap();
    for _ in 0..3 {
        story.check_actual(!F::knows_value(anne, &x)).unwrap();
        story.check(x.ge(11)).unwrap();
        assert!(story.check(x.eq(11)).is_err());
        story.check_actual(x.eq(11)).unwrap();
        story.check(x.le(12)).unwrap();
        assert!(story.check(F::knows(anne, x.eq(12))).is_err());
        assert!(story.check_actual(x.eq(12)).is_err());
    }
}

// --- events ---

/// Sally and Anne, the knowledge part: Anne moves the marble while Sally is out (or
/// does not); Anne sees which, Sally does not.
#[test]
fn sally_anne() {
    let mut story = Story::new();
    let (anne, sally) = (story.character("Anne"), story.character("Sally"));
    let place = story.enumeration("Place", &["basket", "box"]);
    let marble = story.enum_constant(&place, "marble");
    story.announce(marble.eq("basket")).unwrap();
    story.actual(marble.eq("basket")).unwrap();
    let moving = story
        .event("move", |e| {
            let moved = e
                .case("moved")
                .when(marble.eq("basket"))
                .then(&marble, "box");
            let stayed = e.case("stayed");
            e.sees(anne, [[moved], [stayed]]);
            e.actual(moved);
        })
        .unwrap();
    // What the engine reported.
    assert_eq!(moving.case(), Some("moved"));
    assert_eq!(moving.case_index(), Some(0));
    assert_eq!(moving.saw(anne), ["moved"]);
    assert_eq!(moving.saw(sally), ["moved", "stayed"]);
    assert_eq!(
        moving.to_string(),
        "move: moved (Anne saw moved; Sally saw moved or stayed)"
    );
    let event = moving.event();
    assert_eq!(event.name(), "move");
    assert_eq!(event.cases(), ["moved", "stayed"]);
    // docs/language.md's checks.
    story
        .check_actual(F::knows(anne, marble.eq("box")))
        .unwrap();
    story.check_actual(!F::knows_value(sally, &marble)).unwrap();
    story
        .check(F::knows(sally, marble.eq("box") | event.is("stayed")))
        .unwrap();
    story
        .check(
            event.is_in(["moved", "stayed"])
                & event
                    .latest()
                    .ne(event.case("moved"))
                    .iff(marble.eq("basket")),
        )
        .unwrap();
    // Sally thinks the marble may still be in the basket; it is not.
    match story.check_actual(F::knows(sally, marble.eq("box"))) {
        Err(Error::Story { message, .. }) => assert_eq!(
            message,
            "the check fails in the world marble = box, move = moved"
        ),
        other => panic!("{other:?}"),
    }
    let worlds = story.worlds(10).unwrap();
    let lines: Vec<String> = worlds.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        lines,
        [
            "marble = box, move = moved",
            "marble = basket, move = stayed"
        ]
    );
    assert_eq!(worlds[0].variant(moving.occurrence()), Some("moved"));
    assert_eq!(worlds[1].variant(&marble), Some("basket"));
    // Sally comes back and looks into the box.
    story.learns(sally, marble.eq("box")).unwrap();
    story
        .check_actual(F::knows(sally, event.is("moved")))
        .unwrap();
}

/// The pairs of agents `(i, j)`, `i < j`, in order: the cases `c[i, j]` of a call.
fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

/// Knowing-whether gossip told in Rust: n agents, each knowing its own secret (all
/// true); in each call, of which the callers see who called and the others only that
/// someone did, each caller learns which secrets the other knew. One event execution
/// per call, in a Rust loop.
struct Gossip {
    story: Story,
    agent: Vec<epipen::Character>,
    /// What each call reported.
    reports: Vec<epipen::Happened>,
    /// Whether each agent knows every secret at the end.
    experts: Vec<bool>,
}

fn gossip(n: usize, calls: &[(usize, usize)]) -> Gossip {
    gossip_with(Options::default(), n, calls)
}

fn gossip_with(options: Options, n: usize, calls: &[(usize, usize)]) -> Gossip {
    let mut story = Story::with_options(options);
    let agent = story.characters("P", n);
    let secret = story.bools("s", n);
    for (&p, s) in agent.iter().zip(&secret) {
        story.learns(p, s).unwrap();
    }
    story.actual(F::all(&secret)).unwrap();
    let pairs = pairs(n);
    let mut reports = Vec::new();
    for &(a, b) in calls {
        let happened = story
            .event("call", |e| {
                let cases: Vec<epipen::Case> = (pairs.iter())
                    .map(|(i, j)| e.case(&format!("c[{i}, {j}]")))
                    .collect();
                // Each agent tells apart the calls it is in, and knows when it is in none.
                for (k, &p) in agent.iter().enumerate() {
                    let (mine, others): (Vec<_>, Vec<_>) =
                        (pairs.iter().zip(&cases)).partition(|((i, j), _)| *i == k || *j == k);
                    let mut groups: Vec<Vec<epipen::Case>> =
                        mine.iter().map(|(_, c)| vec![**c]).collect();
                    groups.push(others.iter().map(|(_, c)| **c).collect());
                    e.sees(p, groups);
                }
                e.actual(format!("c[{a}, {b}]"));
            })
            .unwrap();
        let call = happened.event().clone();
        for &(i, j) in &pairs {
            for s in &secret {
                let this = call.is(format!("c[{i}, {j}]"));
                story
                    .learns(agent[i], this.clone() & F::knows(agent[j], s))
                    .unwrap();
                story
                    .learns(agent[j], this & F::knows(agent[i], s))
                    .unwrap();
            }
        }
        reports.push(happened);
    }
    let experts = (agent.iter())
        .map(|&p| {
            story
                .check_actual(F::all(secret.iter().map(|s| F::knows(p, s))))
                .is_ok()
        })
        .collect();
    Gossip {
        story,
        agent,
        reports,
        experts,
    }
}

/// The same gossip as a story file.
fn gossip_text(n: usize, calls: &[(usize, usize)]) -> String {
    let mut text = format!(
        "characters P[{n}]\nbool s[{n}]\nfor i in 0..{n} {{ P[i] learns s[i] }}\n\
         actual all(k in 0..{n}: s[k])\n"
    );
    for (a, b) in calls {
        text += &format!(
            "event call {{\n  for i in 0..{n} {{ for j in i + 1..{n} {{ c[i, j] }} }}\n  \
             for k in 0..{n} {{ P[k] sees each(i in 0..{n}, j in i + 1..{n} if i == k or j == k: c[i, j]) | others }}\n  \
             actual c[{a}, {b}]\n}}\n\
             for i in 0..{n} {{ for j in i + 1..{n} {{ for k in 0..{n} {{\n  \
             P[i] learns call == c[i, j] and knows(P[j], s[k])\n  \
             P[j] learns call == c[i, j] and knows(P[i], s[k])\n}} }} }}\n"
        );
    }
    text
}

/// Three agents: 01;12;02 makes everyone an expert (the shortest sequence for three),
/// 01;12 leaves agent 0 without secret 2. Four agents, 01;23: those who do not call
/// cannot tell which call of the others' it was.
#[test]
fn gossip_calls_in_a_rust_loop() {
    assert_eq!(gossip(3, &[(0, 1), (1, 2), (0, 2)]).experts, [true; 3]);
    assert_eq!(gossip(3, &[(0, 1), (1, 2)]).experts, [false, true, true]);
    let Gossip {
        mut story,
        agent,
        reports,
        experts,
    } = gossip(4, &[(0, 1), (2, 3)]);
    assert_eq!(experts, [false; 4]);
    // What each call reported: the callers saw the call, the others that it was one of
    // the calls they are not in.
    assert_eq!(reports[0].case(), Some("c[0, 1]"));
    assert_eq!(reports[0].saw(agent[0]), ["c[0, 1]"]);
    assert_eq!(reports[0].saw(agent[3]), ["c[0, 1]", "c[0, 2]", "c[1, 2]"]);
    assert_eq!(
        reports[1].to_string(),
        "call: c[2, 3] (P[0] saw c[1, 2], c[1, 3] or c[2, 3]; P[1] saw c[0, 2], c[0, 3] or \
         c[2, 3]; P[2] saw c[2, 3]; P[3] saw c[2, 3])"
    );
    // Each execution is an occurrence of its own, named as stories name them.
    let names: Vec<&str> = (story.program().constants.iter())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["s[0]", "s[1]", "s[2]", "s[3]", "call#1", "call#2"]);
    // The event names its latest execution: agent 2 knows it was its call with agent 3;
    // agent 0 does not know which it was, only that it was none of its own.
    let call = reports[1].event();
    story.check_actual(call.is("c[2, 3]")).unwrap();
    story
        .check_actual(F::knows(agent[2], call.is("c[2, 3]")))
        .unwrap();
    story
        .check_actual(!F::knows_value(agent[0], call.latest()))
        .unwrap();
    story
        .check_actual(F::knows(
            agent[0],
            !call.is_in(["c[0, 1]", "c[0, 2]", "c[0, 3]"]),
        ))
        .unwrap();
    // Each execution's case stays readable after the next: agent 1 knows the first
    // call was its own.
    let first = reports[0].occurrence();
    story
        .check_actual(F::knows(agent[1], first.eq("c[0, 1]")))
        .unwrap();
    story
        .check_actual(!F::knows(agent[2], first.eq("c[0, 1]")))
        .unwrap();
}

/// A story told through the API gives the worlds the same story gives as a file: the
/// same constants (occurrences included, named alike), the same worlds in the same
/// order, with each backend `strategies` names.
#[track_caller]
fn same_as_text(tell: impl Fn(Options) -> Story, text: &str, strategies: &[Strategy]) {
    let program = epipen::compile(text, &[]).expect("the story compiles");
    let expected = epipen::engine::solve(&program, 10_000).expect("the story runs");
    let lines = |worlds: &[epipen::worlds::World]| -> Vec<String> {
        (worlds.iter())
            .map(|w| epipen::worlds::world_line(&program, &w.0))
            .collect()
    };
    for &strategy in strategies {
        let mut story = tell(Options {
            strategy,
            ..Options::default()
        });
        let names = |p: &epipen::ir::Program| -> Vec<String> {
            (p.constants.iter()).map(|c| c.name.clone()).collect()
        };
        assert_eq!(names(story.program()), names(&program), "{strategy:?}");
        let events = |p: &epipen::ir::Program| -> Vec<(String, Vec<String>)> {
            (p.events.iter())
                .map(|e| (e.name.clone(), e.cases.clone()))
                .collect()
        };
        assert_eq!(events(story.program()), events(&program), "{strategy:?}");
        let got = story.worlds(10_000).unwrap().to_set();
        assert_eq!(lines(&got.worlds), lines(&expected.worlds), "{strategy:?}");
        assert_eq!(got.worlds, expected.worlds, "{strategy:?}");
        assert_eq!(got.complete, expected.complete, "{strategy:?}");
        // The story's own text (`Story::text`) is the same story again.
        let own = story.text().expect("the story has a text");
        let own = epipen::compile(&own, &[]).expect("its text compiles");
        assert_eq!(names(&own), names(&program), "{strategy:?}");
        let again = epipen::engine::solve(&own, 10_000).expect("its text runs");
        assert_eq!(again.worlds, expected.worlds, "{strategy:?}");
    }
}

const FINITE: &[Strategy] = &[
    Strategy::Auto,
    Strategy::Z3,
    Strategy::Bdd,
    Strategy::Explicit,
];

/// Ints bounded by the story's first announcement run on the backends that bound them
/// so (explicit worlds, BDDs), as the story file does: the engine is made knowing the
/// statements so far (it took `month` for unbounded, refusing both).
#[test]
fn bounded_ints_give_the_worlds_of_the_same_story_file() {
    let cheryl = |options| {
        let (mut story, albert, bernard, month, day) = cheryl_with(options);
        let both = (&month, &day);
        story.says(albert, !F::knows_value(albert, both)).unwrap();
        story.says(bernard, F::knows_value(bernard, both)).unwrap();
        story
    };
    same_as_text(
        cheryl,
        "characters Albert, Bernard\nint month, day\n\
         announce (month, day) in {(5, 15), (5, 16), (5, 19), (6, 17), (6, 18), (7, 14), \
         (7, 16), (8, 14), (8, 15), (8, 17)}\n\
         Albert learns month\nBernard learns day\n\
         Albert: not knows_value(month, day)\nBernard: knows_value(month, day)\n",
        FINITE,
    );
}

/// Under `auto`, the backend chosen for the statements so far (explicit worlds, for two
/// bools) gives way to one chosen knowing a statement it cannot run (`forall p`), as a
/// story file's choice would have; a backend named in the options does not.
#[test]
fn auto_changes_backend_for_a_statement_its_choice_cannot_run() {
    let forall = || F::from_syntax(epipen::syntax::parse_expr("forall p: p or q").unwrap());
    for strategy in FINITE {
        let mut story = Story::with_options(Options {
            strategy: *strategy,
            ..Options::default()
        });
        let (p, q) = (story.bool("p"), story.bool("q"));
        story.announce(p | q).unwrap();
        let outcome = story.announce(forall());
        let worlds = story.worlds(10).unwrap().len();
        match strategy {
            Strategy::Explicit => {
                let Err(Error::Solver(e)) = outcome else {
                    panic!("explicit worlds refuse a quantifier: {outcome:?}");
                };
                assert!(
                    e.to_string().contains("cannot evaluate a quantifier"),
                    "{e}"
                );
                assert_eq!(worlds, 3);
            }
            _ => {
                outcome.unwrap();
                assert_eq!(worlds, 2, "{strategy:?}");
            }
        }
    }
}

/// `forall p: knows(…)` on Z3 is refused, through the API as in a file (Z3's knowledge
/// is exact only at possible worlds): a statement that arrives after Z3 was chosen was
/// answered. Under `auto` a story of bools replays on BDDs, which take it: the worlds
/// where q holds (A, who learned q, knows it there), as the story file gives them.
#[test]
fn a_quantifier_around_knowledge_is_refused_by_z3_through_the_api() {
    let formula =
        || F::from_syntax(epipen::syntax::parse_expr("forall p: knows(A, q) or p").unwrap());
    for (strategy, takes) in [
        (Strategy::Z3, false),
        (Strategy::Auto, true),
        (Strategy::Bdd, true),
    ] {
        let mut story = Story::with_options(Options {
            strategy,
            ..Options::default()
        });
        let anne = story.character("A");
        let (p, q) = (story.bool("p"), story.bool("q"));
        story.learns(anne, &q).unwrap();
        story.announce(p | q).unwrap();
        match (story.announce(formula()), takes) {
            (Ok(()), true) => assert_eq!(story.worlds(10).unwrap().len(), 2, "{strategy:?}"),
            (Err(Error::Solver(e)), false) => {
                assert!(
                    e.to_string()
                        .contains("cannot quantify over constants around knowledge"),
                    "{e}"
                )
            }
            (outcome, _) => panic!("{strategy:?}: {outcome:?}"),
        }
    }
}

#[test]
fn events_give_the_worlds_of_the_same_story_file() {
    // Sally and Anne.
    let sally_anne = |options| {
        let mut story = Story::with_options(options);
        let anne = story.character("Anne");
        story.character("Sally");
        let place = story.enumeration("Place", &["basket", "box"]);
        let marble = story.enum_constant(&place, "marble");
        story.announce(marble.eq("basket")).unwrap();
        story.actual(marble.eq("basket")).unwrap();
        story
            .event("move", |e| {
                let moved = e
                    .case("moved")
                    .when(marble.eq("basket"))
                    .then(&marble, "box");
                let stayed = e.case("stayed");
                e.sees(anne, [[moved], [stayed]]);
                e.actual(moved);
            })
            .unwrap();
        story
    };
    same_as_text(
        sally_anne,
        "characters Anne, Sally\nenum Place { basket, box }\nPlace marble\n\
         announce marble == basket\nactual marble == basket\nevent move {\n  \
         moved if marble == basket then marble := box\n  stayed\n  Anne sees moved | stayed\n  \
         actual moved\n}\n",
        FINITE,
    );
    // Gossip: four agents, two calls, each caller learning formulas with knowledge (Z3
    // takes a minute in a debug build).
    let calls = [(0, 1), (2, 3)];
    same_as_text(
        |options| gossip_with(options, 4, &calls).story,
        &gossip_text(4, &calls),
        &[Strategy::Auto, Strategy::Bdd, Strategy::Explicit],
    );
    // Changes: a simultaneous public change, then an event whose cases change two
    // constants at once, under a precondition with knowledge; no actual world.
    let changes = |options| {
        let mut story = Story::with_options(options);
        let a = story.character("A");
        let b = story.character("B");
        let (x, y) = (story.int("x"), story.int("y"));
        story
            .announce(x.ge(0) & x.le(2) & y.ge(0) & y.le(2))
            .unwrap();
        story.learns(a, &x).unwrap();
        let c = story.checkpoint("c").unwrap();
        story
            .assign_all([Change::new(&x, &y), Change::new(&y, &x)])
            .unwrap();
        let happened = story
            .event("e", |e| {
                let bump = (e.case("bump"))
                    .when(F::knows_value(a, &y))
                    .then(&x, &x + 1)
                    .then(&y, 0);
                let keep = e.case("keep").when(x.ne(&y));
                e.sees(a, [[bump], [keep]]);
            })
            .unwrap();
        assert_eq!(happened.case(), None);
        assert!(happened.saw(a).is_empty());
        assert_eq!(happened.to_string(), "e happened (no actual world)");
        let e = happened.event();
        story.announce(F::at(c, x.eq(1)) | e.is("bump")).unwrap();
        story.learns(b, e.is("keep")).unwrap();
        story.announce(F::knows(b, x.le(2))).unwrap();
        story
    };
    same_as_text(
        changes,
        "characters A, B\nint x, y\nannounce x >= 0 and x <= 2 and y >= 0 and y <= 2\nA learns x\n\
         checkpoint c\nx, y := y, x\nevent e {\n  bump if knows_value(A, y) then x := x + 1, y := 0\n  \
         keep if x != y\n  A sees bump | keep\n}\nannounce at(c, x == 1) or e == bump\n\
         B learns e == keep\nannounce knows(B, x <= 2)\n",
        &[Strategy::Auto, Strategy::Z3],
    );
    // An event in rounds until A knows: a Rust loop where the story has `repeat`.
    let rounds = |options| {
        let mut story = Story::with_options(options);
        let a = story.character("A");
        story.character("B");
        let x = story.int("x");
        story.announce(x.ge(0) & x.le(3)).unwrap();
        story.actual(x.eq(0)).unwrap();
        let mut steps = 0;
        while story.check_actual(F::knows(a, x.eq(3))).is_err() {
            let step = story
                .event("step", |e| {
                    let up = e.case("up").when(x.lt(3)).then(&x, &x + 1);
                    let stay = e.case("stay");
                    e.sees(a, [[up], [stay]]);
                    e.actual(up);
                })
                .unwrap();
            assert_eq!(step.case(), Some("up"));
            steps += 1;
        }
        assert_eq!(steps, 3);
        story
    };
    same_as_text(
        rounds,
        "characters A, B\nint x\nannounce x >= 0 and x <= 3\nactual x == 0\nrepeat max 3 {\n  \
         event step {\n    up if x < 3 then x := x + 1\n    stay\n    A sees up | stay\n    actual up\n  }\n} \
         until knows(A, x == 3)\n",
        &[Strategy::Auto, Strategy::Z3],
    );
}

/// Changes: `x, y := e, f` read every value before writing any, in a public change and
/// in an event's case; the cases of one event may change different constants.
#[test]
fn simultaneous_changes() {
    let mut story = Story::new();
    let anne = story.character("Anne");
    let (x, y) = (story.int("x"), story.int("y"));
    let light = story.bool("light");
    story.announce(x.eq(1) & y.eq(2) & !light.clone()).unwrap();
    story.actual(x.eq(1) & y.eq(2) & !light.clone()).unwrap();
    story
        .assign_all([Change::new(&x, &y), Change::new(&y, &x)])
        .unwrap();
    story.check(x.eq(2) & y.eq(1)).unwrap();
    let happened = story
        .event("turn", |e| {
            let swap = e.case("swap").then_all([
                Change::new(&x, &y),
                Change::new(&y, &x),
                Change::new(&light, true),
            ]);
            let add = e.case("add").then(&x, &x + &y).then(&y, &x - &y);
            e.sees(anne, [[swap], [add]]);
            e.actual("add");
        })
        .unwrap();
    assert_eq!(happened.case(), Some("add"));
    let turn = happened.event();
    story
        .check(turn.is("swap").iff(x.eq(1) & y.eq(2) & light.clone()))
        .unwrap();
    story
        .check(turn.is("add").iff(x.eq(3) & y.eq(1) & !light.clone()))
        .unwrap();
    story.check_actual(x.eq(3)).unwrap();
    story.check_actual(F::knows(anne, x.eq(3))).unwrap();
    let worlds = story.worlds(10).unwrap();
    let lines: Vec<String> = worlds.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        lines,
        [
            "x = 1, y = 2, light = true, turn = swap",
            "x = 3, y = 1, light = false, turn = add"
        ]
    );
    invalid(
        story.assign_all([Change::new(&x, 1), Change::new(&x, 2)]),
        "`x` is changed twice",
    );
    invalid(story.assign_all([]), "at least one change");
    invalid(
        story.assign_all([Change::new(&y, 1), Change::new(&(&x + 1), 2)]),
        "only a constant can be given a new value",
    );
    // Nothing of the refused changes ran.
    story.check(y.ne(1) | x.eq(3)).unwrap();
}

/// Every mistake of an event block is an `Error::Invalid` worded as the story
/// language's, and runs nothing.
#[test]
fn event_mistakes_are_typed_errors() {
    let mut story = Story::new();
    let (anne, sally) = (story.character("Anne"), story.character("Sally"));
    let place = story.enumeration("Place", &["basket", "box"]);
    let marble = story.enum_constant(&place, "marble");
    let x = story.int("x");
    story.announce(marble.eq("basket") & x.eq(0)).unwrap();
    let statements = story.program().statements.len();
    let mut other = Story::new();
    let bob = other.character("Bob");
    let y = other.int("y");

    invalid(story.event("move", |_| {}), "the event `move` has no cases");
    invalid(
        story.event("", |e| {
            e.case("a");
        }),
        "an event needs a name",
    );
    invalid(
        story.event("move", |e| {
            e.case("moved");
            e.case("moved");
        }),
        "the case `moved` is written twice",
    );
    // `sees` lines.
    fn both(e: &epipen::EventBlock) -> (epipen::Case<'_>, epipen::Case<'_>) {
        (e.case("moved"), e.case("stayed"))
    }
    invalid(
        story.event("move", |e| {
            let (moved, _) = both(e);
            e.sees(anne, [[moved]]);
        }),
        "the case `stayed` is in no group of Anne's `sees` line",
    );
    invalid(
        story.event("move", |e| {
            both(e);
            e.sees(anne, [vec!["moved", "stayed"], vec!["moved"]]);
        }),
        "the case `moved` is in two groups of Anne's `sees` line",
    );
    invalid(
        story.event("move", |e| {
            let (moved, stayed) = both(e);
            e.sees(anne, [vec![moved, moved], vec![stayed]]);
        }),
        "the case `moved` is named twice in one group",
    );
    invalid(
        story.event("move", |e| {
            let (moved, stayed) = both(e);
            e.sees(anne, [[moved], [stayed]]);
            e.sees_each(anne);
        }),
        "Anne has two `sees` lines",
    );
    invalid(
        story.event("move", |e| {
            both(e);
            e.sees(anne, [["mvoed"], ["stayed"]]);
        }),
        "the event `move` has no case `mvoed` (did you mean `moved`?)",
    );
    invalid(
        story.event("move", |e| {
            both(e);
            e.sees(bob, [["moved", "stayed"]]);
        }),
        "the character belongs to another story",
    );
    // `actual`.
    invalid(
        story.event("move", |e| {
            both(e);
            e.actual("fell");
        }),
        "the event `move` has no case `fell` (its cases are `moved` and `stayed`)",
    );
    invalid(
        story.event("move", |e| {
            let (moved, stayed) = both(e);
            e.actual(moved);
            e.actual(stayed);
        }),
        "the event has two `actual` lines",
    );
    // Preconditions and changes.
    invalid(
        story.event("move", |e| {
            e.case("moved").when(y.eq(1));
        }),
        "another story",
    );
    invalid(
        story.event("move", |e| {
            e.case("moved")
                .then(&x, F::knows_value(anne, &x).ite(Int::from(1), 0));
        }),
        "`:=` gives a constant a value of the world, without knowledge operators",
    );
    invalid(
        story.event("move", |e| {
            e.case("moved").then(&marble, "shelf");
        }),
        "enum `Place` has no variant `shelf`",
    );
    invalid(
        story.event("move", |e| {
            e.case("moved").then(&x, 1).then(&x, 2);
        }),
        "`x` is changed twice",
    );
    invalid(
        story.event("x", |e| {
            e.case("a");
        }),
        "`x` is already declared",
    );
    invalid(
        story.event("Place", |e| {
            e.case("a");
        }),
        "`Place` is already declared",
    );
    // None of it ran or declared anything.
    assert_eq!(story.program().statements.len(), statements);
    assert!(story.program().events.is_empty());
    assert_eq!(story.program().constants.len(), 2);

    // An event's executions have the same cases; its name and cases are its own.
    let moving = story
        .event("move", |e| {
            let (moved, stayed) = both(e);
            moved.when(marble.eq("basket")).then(&marble, "box");
            e.sees(anne, [[moved], [stayed]]);
        })
        .unwrap();
    let move_event = moving.event().clone();
    invalid(
        story.event("move", |e| {
            e.case("stayed");
            e.case("moved");
        }),
        "the event `move` has other cases here (every `event move` has the same cases, in \
         the same order: `moved` and `stayed`)",
    );
    invalid(
        story.event("flip", |e| {
            let heads = e.case("heads");
            e.case("tails").when(move_event.is(heads));
        }),
        "the case `heads` is a case of the event `flip`, not of `move`",
    );
    invalid(
        story.announce(move_event.is("heads")),
        "the event `move` has no case `heads`",
    );
    let flip = story
        .event("flip", |e| {
            e.case("heads");
            e.case("tails");
        })
        .unwrap();
    invalid(
        story.announce(move_event.latest().eq(flip.event().latest())),
        "cannot compare move with flip",
    );
    invalid(
        story.announce(move_event.latest().eq("heads")),
        "the event `move` has no case `heads`",
    );
    let z = story.int("move");
    invalid(story.announce(z.eq(1)), "`move` is already declared");
    let w = story.enum_constant(move_event.latest().enum_type(), "w");
    invalid(story.announce(w.eq("moved")), "`move` is an event");
    invalid(
        story.assign(moving.occurrence(), "moved"),
        "an execution's case records what happened: `:=` cannot change it",
    );
    invalid(
        other.announce(y.eq(0) & move_event.is("moved")),
        "two different stories",
    );
    invalid(
        story.check(F::knows(sally, move_event.is("moved")) & F::knows(bob, true)),
        "two different stories",
    );
}

/// Mistakes only running shows are `Error::Story`, and leave no trace: the event is not
/// declared, its execution not counted.
#[test]
fn events_that_cannot_happen_leave_no_trace() {
    let mut story = Story::new();
    let anne = story.character("Anne");
    let p = story.bool("p");
    let flip = |e: &epipen::EventBlock, actual: Option<&str>| {
        let heads = e.case("heads").when(p.clone());
        let tails = e.case("tails").when(!&p);
        e.sees(anne, [[heads], [tails]]);
        if let Some(case) = actual {
            e.actual(case);
        }
    };
    let story_error = |r: Result<epipen::Happened, Error>, needle: &str| match r {
        Err(Error::Story { message, .. }) => {
            assert!(message.contains(needle), "{message:?} lacks {needle:?}")
        }
        other => panic!("expected Error::Story({needle:?}), got {other:?}"),
    };
    story_error(
        story.event("flip", |e| flip(e, Some("heads"))),
        "`actual heads` needs the story's actual world",
    );
    story.actual(p.clone()).unwrap();
    story_error(
        story.event("flip", |e| flip(e, Some("tails"))),
        "the case `tails` of `flip` cannot happen in the actual world",
    );
    assert!(story.program().events.is_empty());
    assert_eq!(story.program().constants.len(), 1);
    // Without an `actual` case, the one case possible in the actual world.
    let before = story.checkpoint("before").unwrap();
    let happened = story.event("flip", |e| flip(e, None)).unwrap();
    assert_eq!(happened.case(), Some("heads"));
    let names: Vec<&str> = (story.program().constants.iter())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(names, ["p", "flip"]);
    // Named where it had not happened yet.
    let event = happened.event();
    match story.check(F::at(before, event.is("heads"))) {
        Err(Error::Story { message, .. }) => {
            assert_eq!(message, "the event `flip` has not happened yet here")
        }
        other => panic!("{other:?}"),
    }
    // Several cases possible in the actual world, and no `actual` case.
    story_error(
        story.event("coin", |e| {
            e.case("a");
            e.case("b");
        }),
        "which case of `coin` happened?",
    );
    story
        .check_actual(F::knows(anne, event.is("heads")))
        .unwrap();
}

/// Events taking turns in a Rust loop (the engine is given room for the executions to
/// come, in the order they took so far): the worlds and the occurrences' names are the
/// story file's, on every backend, and so is a refuted hint's world.
#[test]
fn events_taking_turns_give_the_worlds_of_the_same_story_file() {
    let turns = [
        "tick", "tock", "tock", "tick", "tock", "tock", "tock", "tick", "tick",
    ];
    let mut text = String::from("characters A, B\nbool q, p\nactual q and p\nA learns p\n");
    for name in turns {
        text += &format!(
            "event {name} {{\n  up if p\n  down if not p\n  A sees up | down\n}}\n\
             check actual knows(A, p) and not knows_value(B, p)\n"
        );
    }
    same_as_text(
        |options| {
            let mut story = Story::with_options(options);
            let a = story.character("A");
            let b = story.character("B");
            let (q, p) = (story.bool("q"), story.bool("p"));
            story.actual(q.clone() & p.clone()).unwrap();
            story.learns(a, &p).unwrap();
            for name in turns {
                let happened = story
                    .event(name, |e| {
                        let up = e.case("up").when(p.clone());
                        let down = e.case("down").when(!&p);
                        e.sees(a, [[up], [down]]);
                    })
                    .unwrap();
                assert_eq!(happened.case(), Some("up"));
                story
                    .check_actual(F::knows(a, p.clone()) & !F::knows_value(b, &p))
                    .unwrap();
            }
            story
        },
        &text,
        FINITE,
    );
    let mut story = Story::new();
    let a = story.character("A");
    let p = story.bool("p");
    for name in turns {
        story
            .event(name, |e| {
                let up = e.case("up").when(p.clone());
                let down = e.case("down").when(!&p);
                e.sees(a, [[up], [down]]);
            })
            .unwrap();
    }
    match story.assert_adds_ck(p.clone(), |b| {
        b.says(a, F::knows_value(a, &p));
    }) {
        Err(Error::Refuted(r)) => {
            assert_eq!(r.counterexample.world.0.len(), 1 + turns.len());
            assert!(
                r.description.starts_with("p = false, tick#1 = down"),
                "{}",
                r.description
            );
        }
        other => panic!("{other:?}"),
    }
}

/// `Formula::knows_whether(A, φ)`: A knows whether φ holds, as `knows_value` of φ.
#[test]
fn knows_whether_is_the_value_of_a_formula_known() {
    let mut story = Story::new();
    let (anne, bob) = (story.character("Anne"), story.character("Bob"));
    let p = story.bool("p");
    story.actual(p.clone()).unwrap();
    story.learns(anne, &p).unwrap();
    assert!(
        story
            .reveals(anne, F::knows_whether(anne, p.clone()))
            .unwrap()
    );
    assert!(!story.reveals(bob, F::knows_whether(bob, !&p)).unwrap());
}

/// A failing check that compares probabilities: its verdict carries the value of each
/// compared term in the world where it fails (issue 44), serialised as `found`.
#[test]
fn a_failing_probability_check_carries_what_it_found() {
    let source = "characters Bob\nint ann\nannounce 1 <= ann and ann <= 4\nBob learns ann > 2\n\
                  check probability(Bob, ann == 3) > 1/2 or probability(ann == 1) == 1\n\
                  check probability(ann == 1) == 1/4\n";
    let session = epipen::Session::compile("f.story".into(), source.into(), &[], 0, None).unwrap();
    let options = Options {
        keep_refuted_hints: true,
        ..Options::default()
    };
    let mut verdicts = Vec::new();
    session
        .run(&options, &mut |r| {
            if let epipen::views::Report::Check(v) = r {
                verdicts.push(v);
            }
        })
        .unwrap();
    let json: Vec<String> = (verdicts.iter())
        .map(|v| serde_json::to_string(&v.found).unwrap())
        .collect();
    assert_eq!(
        json,
        [
            r#"[{"term":"probability(Bob, ann == 3)","value":"0"},{"term":"probability(ann == 1)","value":"1/4"}]"#,
            "[]",
        ]
    );
    assert_eq!(
        epipen::text::verdict(&verdicts[0]),
        "line 5: check `probability(Bob, ann == 3) > 1/2 or probability(ann == 1) == 1` fails in \
         the world ann = 1, where probability(Bob, ann == 3) is 0 and probability(ann == 1) is 1/4"
    );
}

/// The handles and results a front end wraps (Python's classes hold them) can be
/// cloned and shared between threads; only the `Story` itself, whose engine may hold
/// thread-local Z3 contexts, stays on its thread.
#[test]
fn the_handles_are_clone_send_and_sync() {
    fn shareable<T: Clone + Send + Sync>() {}
    use epipen::story::*;
    shareable::<Int>();
    shareable::<Formula>();
    shareable::<Enum>();
    shareable::<EnumType>();
    shareable::<Character>();
    shareable::<Checkpoint>();
    shareable::<Event>();
    shareable::<Case<'static>>();
    shareable::<EventBlock>();
    shareable::<Happened>();
    shareable::<Chance>();
    shareable::<Change>();
    shareable::<Action>();
    shareable::<PlanOptions>();
    shareable::<Planned>();
    shareable::<Shown>();
    shareable::<Worlds>();
    shareable::<PossibleWorld>();
    shareable::<Hint>();
    shareable::<Refutation>();
    shareable::<Error>();
}
