//! The Rust API (`epipen::Story`): the stories of `stories/` told in Rust, and the
//! errors a Rust program can get back.

use epipen::{Error, Formula as F, Hint, Int, Options, Story};

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
    let mut story = Story::new();
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

#[track_caller]
fn invalid(result: Result<impl std::fmt::Debug, Error>, needle: &str) {
    match result {
        Err(Error::Invalid(m)) => assert!(m.contains(needle), "{m:?} lacks {needle:?}"),
        other => panic!("expected Error::Invalid({needle:?}), got {other:?}"),
    }
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
    invalid(
        story.announce(c.eq(&s)),
        "enum `Colour` with one of enum `Shape`",
    );
    invalid(story.announce(c.eq("blue")), "no variant `blue`");
    invalid(
        story.learns(albert, F::knows(albert, x.gt(0)).ite(Int::from(1), 0)),
        "a value learned with knowledge operators must be a formula",
    );
    invalid(
        story.actual(F::knows_value(albert, &x)),
        "`actual` takes no knowledge",
    );
    invalid(
        story.announce(F::knows_value(albert, Vec::<epipen::Int>::new())),
        "at least one",
    );
    invalid(
        story.announce(F::tuple_in((&x, &x), [vec![1, 2], vec![3]])),
        "has 1 values, the tuple has 2",
    );
    invalid(
        story.announce(F::tuple_in((&x, &p), [[1, 2]])),
        "type int where the tuple has bool",
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
        "not saved",
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
    invalid(story.assign(&(&x + 1), 3), "`:=` changes a constant");
    invalid(
        story.assign(&x, F::knows_value(anne, &x).ite(Int::from(1), 2)),
        "`:=` takes no knowledge operators",
    );
    let colour = story.enumeration("Colour", &["red", "green"]);
    let size = story.enumeration("Size", &["s", "m"]);
    let c = story.enum_constant(&colour, "c");
    invalid(
        story.assign(&c, size.value("s")),
        "`:=` needs a value of the constant's type",
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
