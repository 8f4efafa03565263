//! Probabilities through the Rust API (issue 29): `Formula::probability`,
//! `Formula::probability_of`, `Chance` arithmetic and comparisons, `Story::prior`,
//! `Case::weight` and `Story::show`. Monty Hall told in Rust answers what the story file
//! answers: 2/3 for switching, with the same worlds and the same probabilities; the
//! mistakes are `Error::Invalid` before the engine.

use epipen::engine::{BigRational, Strategy};
use epipen::story::ShownValue as Value;
use epipen::{Chance, Error, Formula as F, Int, Options, Story};

use super::invalid;

/// Monty Hall, as the issue states it in the language.
const MONTY_HALL: &str = "enum Door { one, two, three }
characters Contestant, Host
Door car, pick
announce pick == one
Host learns car
actual car == two
event host_opens {
  opens_two if pick != two and car != two
  opens_three if pick != three and car != three
  opens_one if pick != one and car != one
  Contestant sees opens_one | opens_two | opens_three
  Host sees opens_one | opens_two | opens_three
  actual opens_three
}
check actual probability(Contestant, car == pick) == 1/3
check actual probability(Contestant, car == two) == 2/3
show probability(Contestant, car == two)
";

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// Monty Hall told through the API, up to its checks; returns the story.
fn monty_hall(options: Options) -> Result<Story, Error> {
    let mut story = Story::with_options(options);
    let contestant = story.character("Contestant");
    let host = story.character("Host");
    let door = story.enumeration("Door", &["one", "two", "three"]);
    let car = story.enum_constant(&door, "car");
    let pick = story.enum_constant(&door, "pick");
    story.announce(pick.eq("one"))?;
    story.learns(host, &car)?;
    story.actual(car.eq("two"))?;
    story.event("host_opens", |e| {
        let two = e.case("opens_two").when(pick.ne("two") & car.ne("two"));
        let three = e
            .case("opens_three")
            .when(pick.ne("three") & car.ne("three"));
        let one = e.case("opens_one").when(pick.ne("one") & car.ne("one"));
        e.sees(contestant, [[one], [two], [three]]);
        e.sees(host, [[one], [two], [three]]);
        e.actual(three);
    })?;
    story.check_actual(F::probability(contestant, car.eq(&pick)).eq(Chance::ratio(1, 3)))?;
    story.check_actual(F::probability(contestant, car.eq("two")).eq(Chance::ratio(2, 3)))?;
    Ok(story)
}

#[test]
fn monty_hall_through_the_api_answers_two_thirds_as_the_story_file_does() {
    let mut story = monty_hall(Options::default()).expect("Monty Hall runs");

    // The same story through the file: the same worlds, the same probabilities.
    let program = epipen::compile(MONTY_HALL, &[]).expect("the story compiles");
    let expected = epipen::engine::solve(&program, 100).expect("the story runs");
    let got = story.worlds(100).expect("the worlds");
    let lines: Vec<String> = got.iter().map(|w| w.to_string()).collect();
    let want: Vec<String> = (expected.worlds.iter())
        .map(|w| epipen::worlds::world_line(&program, &w.0))
        .collect();
    assert_eq!(lines, want);
    let chances: Vec<BigRational> = got
        .iter()
        .map(|w| w.probability().unwrap().clone())
        .collect();
    assert_eq!(Some(chances.clone()), expected.chances);
    assert_eq!(chances, [q(1, 6), q(1, 6), q(1, 3), q(1, 3)]);
    // Worlds print their probabilities as `epipen worlds` does.
    assert!(
        got.to_string()
            .contains("car = two, pick = one, host_opens = opens_three   [1/3]"),
        "{got}"
    );
}

#[test]
fn show_gives_the_probability_exactly_and_chances_compute_exactly() {
    let mut story2 = Story::new();
    let c = story2.character("Contestant");
    let door = story2.enumeration("Door", &["one", "two", "three"]);
    let car = story2.enum_constant(&door, "car");
    let pick = story2.enum_constant(&door, "pick");
    story2.announce(pick.eq("one")).unwrap();
    story2.actual(car.eq("two")).unwrap();
    story2
        .event("host_opens", |e| {
            let two = e.case("opens_two").when(pick.ne("two") & car.ne("two"));
            let three = e
                .case("opens_three")
                .when(pick.ne("three") & car.ne("three"));
            e.sees(c, [[two], [three]]);
            e.actual(three);
        })
        .unwrap();
    let shown = story2.show(F::probability(c, car.eq("two"))).unwrap();
    assert_eq!(shown.actual, Some(Value::Probability(q(2, 3))));
    assert_eq!(shown.expression, "probability(Contestant, car == two)");
    assert_eq!(
        shown.to_string(),
        "show probability(Contestant, car == two) = 2/3"
    );
    // Arithmetic is exact: 1 - 2/3 = 1/3, and 3 * 1/3 = 1.
    let stay = F::probability(c, car.eq(&pick));
    story2
        .check_actual((1 - F::probability(c, car.eq("two"))).eq(&stay))
        .unwrap();
    story2.check_actual((stay.clone() * 3).eq(1)).unwrap();
    story2
        .check_actual((stay.clone() / 2).lt(Chance::ratio(1, 5)))
        .unwrap();
    story2
        .check_actual((-stay.clone() + 1).ge(q(2, 3)))
        .unwrap();
    // A wrong probability fails the check.
    assert!(matches!(
        story2.check_actual(stay.gt(Chance::ratio(1, 2))),
        Err(Error::Story { .. })
    ));
    // Ordinary values show too.
    assert_eq!(
        story2.show(&car).unwrap().actual,
        Some(Value::Name("two".into()))
    );
    assert_eq!(
        story2.show(F::knows(c, car.ne("three"))).unwrap().actual,
        Some(Value::Bool(true))
    );
}

#[test]
fn a_prior_and_weighted_cases_give_the_story_files_answers() {
    let text = "characters A
int x
announce 1 <= x and x <= 3
prior if x == 3 then 2 else 1
event coin {
  heads weight x
  tails
  A sees heads | tails
}
show probability(x == 3)
check probability(A, x == 3) < 1
";
    let program = epipen::compile(text, &[]).expect("the story compiles");
    let expected = epipen::engine::solve(&program, 100).expect("the story runs");

    let mut story = Story::new();
    let a = story.character("A");
    let x = story.int("x");
    story.announce(x.ge(1) & x.le(3)).unwrap();
    story.prior(x.eq(3).ite(Int::from(2), 1)).unwrap();
    story
        .event("coin", |e| {
            let heads = e.case("heads").weight(&x);
            let tails = e.case("tails");
            e.sees(a, [[heads], [tails]]);
        })
        .unwrap();
    let shown = story.show(F::probability_of(x.eq(3))).unwrap();
    assert_eq!(shown.actual, None);
    // The storyteller's probability is the same in every world: 2/4.
    assert_eq!(shown.by_world, [(Value::Probability(q(1, 2)), 6)]);
    assert_eq!(
        shown.to_string(),
        "show probability(x == 3): 1/2 in 6 worlds"
    );
    story.check(F::probability(a, x.eq(3)).lt(1)).unwrap();
    // A's probability depends on the coin, heads likelier where x is larger: μ(x, heads)
    // = prior(x)·x/(x+1) = 1/2, 2/3, 3/2, so 9/16 after heads; 1/2, 1/3, 1/2: 3/8 after
    // tails.
    let by_world = story.show(F::probability(a, x.eq(3))).unwrap().by_world;
    assert_eq!(
        by_world,
        [
            (Value::Probability(q(9, 16)), 3),
            (Value::Probability(q(3, 8)), 3)
        ]
    );

    let got = story.worlds(100).unwrap();
    let chances: Option<Vec<BigRational>> = got.iter().map(|w| w.probability().cloned()).collect();
    assert_eq!(chances, expected.chances);
    assert_eq!(
        got.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
        (expected.worlds.iter())
            .map(|w| epipen::worlds::world_line(&program, &w.0))
            .collect::<Vec<_>>()
    );
    // Ints bounded by the first announcements: the explicit backend keeps the weights.
    assert!(got.is_complete());

    // "I think x = 3 no more likely than not": A says it, and it tells the coin fell tails.
    story
        .says(a, F::probability(a, x.eq(3)).le(Chance::ratio(1, 2)))
        .unwrap();
    let after = story.worlds(100).unwrap();
    let coins: Vec<String> = after.iter().map(|w| w.to_string()).collect();
    assert!(
        coins.iter().all(|w| w.ends_with("coin = tails")),
        "{coins:?}"
    );
    assert_eq!(coins.len(), 3);
}

#[test]
fn a_story_without_chances_has_no_probabilities() {
    let mut story = Story::new();
    let x = story.int("x");
    story.announce(x.is_in([1, 2])).unwrap();
    let worlds = story.worlds(10).unwrap();
    assert!(worlds.iter().all(|w| w.probability().is_none()));
    assert!(!worlds.to_string().contains('['), "{worlds}");
}

#[test]
fn probabilities_refuse_backends_that_keep_no_weights_by_name() {
    for strategy in [Strategy::Z3, Strategy::Bdd] {
        let mut story = Story::with_options(Options {
            strategy,
            ..Options::default()
        });
        let p = story.bool("p");
        let err = story.check(F::probability_of(p.clone()).le(1)).unwrap_err();
        assert!(
            matches!(&err, Error::Story { message, .. } if message.contains("probabilit")),
            "{strategy:?}: {err:?}"
        );
    }
}

#[test]
fn probability_mistakes_are_invalid_before_the_engine() {
    let mut story = Story::new();
    let a = story.character("A");
    let x = story.int("x");
    story.announce(x.is_in([1, 2])).unwrap();
    // Knowledge in a prior or a weight.
    invalid(
        story.prior(F::knows(a, x.eq(1)).ite(Int::from(2), 1)),
        "`prior` gives each world a weight from its values, without knowledge operators",
    );
    invalid(
        story.prior(F::probability_of(x.eq(1)).gt(0).ite(Int::from(2), 1)),
        "`prior` gives each world a weight from its values, without knowledge operators",
    );
    invalid(
        story.event("e", |e| {
            e.case("c")
                .weight(F::knows(a, x.eq(1)).ite(Int::from(2), 1));
        }),
        "a case's `weight` is computed from the world's values, without knowledge",
    );
    // Handles of another story.
    let mut other = Story::new();
    let b = other.character("B");
    invalid(
        story.check(F::probability(b, x.eq(1)).eq(1)),
        "two different stories",
    );
    invalid(
        story.show(F::probability(b, x.eq(1))),
        "two different stories",
    );
    // A number that depends on knowledge.
    invalid(
        story.show(F::knows(a, x.eq(1)).ite(Int::from(1), 0)),
        "depends on knowledge",
    );
    // One prior, before anything is learned.
    story.prior(x.eq(2).ite(Int::from(3), 1)).unwrap();
    invalid(story.prior(x.eq(2).ite(Int::from(3), 1)), "already given");
    let mut late = Story::new();
    let a = late.character("A");
    let y = late.int("y");
    late.announce(y.is_in([1, 2])).unwrap();
    late.learns(a, &y).unwrap();
    invalid(late.prior(y.clone()), "comes after");
    let mut asked = Story::new();
    let z = asked.int("z");
    asked.announce(z.is_in([1, 2])).unwrap();
    asked
        .check(F::probability_of(z.eq(1)).eq(Chance::ratio(1, 2)))
        .unwrap();
    invalid(asked.prior(z.clone()), "comes after");
    // A prior weighs the worlds all the first announcements leave, as in a story file:
    // negative where `w = -1`, which the announcement after it rules out...
    let mut later = Story::new();
    let w = later.int("w");
    later.announce(w.is_in([-1, 2, 3])).unwrap();
    later.prior(w.clone()).unwrap();
    later.announce(w.gt(0)).unwrap();
    let shown = later.show(F::probability_of(w.eq(2))).unwrap();
    assert_eq!(shown.by_world[0].0, Value::Probability(q(2, 5)));
    // ...and negative in a world they leave: the engine's error, located in a world,
    // at the first other statement.
    let mut negative = Story::new();
    let w = negative.int("w");
    negative.announce(w.is_in([-1, 2])).unwrap();
    negative.prior(w.clone()).unwrap();
    let Err(Error::Story { message, .. }) = negative.show(F::probability_of(w.eq(2))) else {
        panic!("a negative prior is refused");
    };
    assert_eq!(
        message,
        "the prior is -1 in the world w = -1, still possible: a weight is never negative"
    );
}

/// Issue 44 through the Rust API: the prior before the announcement that bounds the ints
/// answers as after it, and a sum of probability terms is an expected value.
#[test]
fn a_prior_before_the_bound_and_an_expected_value() {
    let answers = |prior_first: bool| {
        let mut story = Story::new();
        let a = story.character("A");
        let x = story.int("x");
        if prior_first {
            story.prior(&x).unwrap();
        }
        story.announce(x.ge(1) & x.le(3)).unwrap();
        if !prior_first {
            story.prior(&x).unwrap();
        }
        story.learns(a, x.ge(2)).unwrap();
        let expected: Chance = (1..=3i64).map(|v| v * F::probability_of(x.eq(v))).sum();
        story.check(expected.eq(Chance::ratio(7, 3))).unwrap();
        let by_a: Chance = (1..=3i64).map(|v| v * F::probability(a, x.eq(v))).sum();
        story.show(by_a).unwrap().to_string()
    };
    assert_eq!(answers(false), answers(true));
    assert_eq!(
        answers(true),
        "show 1 * probability(A, x == 1) + 2 * probability(A, x == 2) + 3 * probability(A, x == 3): 1 in 1 world, 13/5 in 2 worlds"
    );
}
