//! Probabilities (issue 29) through the real executable: the stories' answers, `show`,
//! the worlds' probabilities in text and JSON, the refusals by name, and every error
//! with its place and hint.

use indoc::{formatdoc, indoc};

use super::{epipen, story_file};

/// `epipen run` on a story of `stories/`: exit 0, exactly `stdout`.
#[track_caller]
fn run(story: &str, stdout: &str) {
    let out = epipen(&["run", &format!("stories/{story}")]);
    assert_eq!(out.code, 0, "{story}: {}", out.stderr);
    assert_eq!(out.stdout, stdout, "{story}");
}

/// A story with an error: its exit code and exactly its stderr (the file's path as
/// `f.story`).
#[track_caller]
fn error(source: &str, args: &[&str], code: i32, stderr: &str) {
    let path = story_file("chance-error.story", source);
    let out = epipen(&[args, &[path.as_str()]].concat());
    assert_eq!(out.code, code, "{}", out.stderr);
    assert_eq!(out.stderr.replace(&path, "f.story"), stderr);
}

#[test]
fn monty_hall_switching_wins_with_probability_two_thirds() {
    run(
        "monty-hall.story",
        indoc! {"
            host_opens: opens_three (Contestant saw opens_three; Host saw opens_three)
            check line 27: holds
            check line 28: holds
            check line 29: holds
            check line 31: holds
            check line 32: holds
            line 33: show probability(Contestant, car == two) = 2/3
            check line 35: holds
            -- line 39: worlds --
            4 possible worlds:
              car = one, pick = one, host_opens = opens_two   [1/6]
              car = one, pick = one, host_opens = opens_three   [1/6]
              car = two, pick = one, host_opens = opens_three   [1/3]
              car = three, pick = one, host_opens = opens_two   [1/3]
            (and that's all)
        "},
    );
    // `epipen check` prints the shows beside the verdicts.
    let out = epipen(&["check", "stories/monty-hall.story"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains(indoc! {"
            line 31: check actual `probability(Contestant, car == pick) == 1/3` holds
            line 32: check actual `probability(Contestant, car == two) == 2/3` holds
            line 33: show probability(Contestant, car == two) = 2/3
        "}),
        "{}",
        out.stdout
    );
}

#[test]
fn the_probability_puzzles_answer_as_the_literature_does() {
    let shows = |story: &str| -> Vec<String> {
        let out = epipen(&["run", &format!("stories/{story}")]);
        assert_eq!(out.code, 0, "{story}: {}", out.stderr);
        (out.stdout.lines())
            .filter(|l| l.contains(": show "))
            .map(|l| l.split_once(": show ").unwrap().1.to_string())
            .collect()
    };
    assert_eq!(
        shows("monty-fall.story"),
        ["probability(Contestant, car == two) = 1/2"]
    );
    assert_eq!(
        shows("three-prisoners.story"),
        [
            "probability(A, pardoned == a) = 1/3",
            "probability(A, pardoned == c) = 2/3"
        ]
    );
    let boys = shows("boy-or-girl.story");
    let answers: Vec<&str> = boys
        .iter()
        .map(|s| s.rsplit(": ").next().unwrap())
        .collect();
    assert_eq!(
        answers,
        [
            "1/3 in 196 worlds",
            "1/2 in 196 worlds",
            "13/27 in 196 worlds",
            "13/27 in 27 worlds"
        ]
    );
    assert_eq!(
        shows("bertrands-box.story"),
        ["probability(You, box == gold_gold) = 2/3"]
    );
    assert_eq!(
        shows("two-envelopes.story"),
        ["probability(You, other == 16) = 1/3"]
    );
    assert_eq!(
        shows("medical-test.story"),
        [
            "probability(Doctor, sick) = 10/109",
            "probability(Doctor, sick) = 100/199"
        ]
    );
    assert_eq!(
        shows("more-likely-than-not.story"),
        ["probability(Bill, a == 3) = 1/2"]
    );
}

#[test]
fn show_without_an_actual_world_groups_the_values() {
    let path = story_file(
        "show-groups.story",
        indoc! {"
            enum Door { one, two, three }
            characters Contestant, Host
            Door car, pick
            announce pick == one
            Host learns car
            event host_opens {
              opens_two if pick != two and car != two
              opens_three if pick != three and car != three
              opens_one if pick != one and car != one
              Contestant sees opens_one | opens_two | opens_three
            }
            show probability(Contestant, car == two)
            show car
            show knows(Host, car == one)
        "},
    );
    let out = epipen(&["run", &path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        indoc! {"
            line 12: show probability(Contestant, car == two): 0 in 2 worlds, 2/3 in 2 worlds
            line 13: show car: one in 2 worlds, two in 1 world, three in 1 world
            line 14: show knows(Host, car == one): true in 2 worlds, false in 2 worlds
        "}
    );
}

#[test]
fn json_carries_the_shows_and_each_worlds_probability() {
    let out = epipen(&["run", "--trace", "--json", "stories/three-prisoners.story"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let shows: Vec<serde_json::Value> = (out.stdout.lines())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["kind"] == "show")
        .collect();
    assert_eq!(
        shows,
        [
            serde_json::json!({"kind": "show", "line": 22, "expression": "probability(A, pardoned == a)", "probability": true, "value": "1/3"}),
            serde_json::json!({"kind": "show", "line": 23, "expression": "probability(A, pardoned == c)", "probability": true, "value": "2/3"}),
        ]
    );
    let out = epipen(&["worlds", "--json", "stories/three-prisoners.story"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let chances: Vec<&str> = (json["worlds"].as_array().unwrap().iter())
        .map(|w| w["probability"].as_str().unwrap())
        .collect();
    assert_eq!(chances, ["1/6", "1/6", "1/3", "1/3"]);
}

#[test]
fn z3_and_bdds_refuse_chances_by_name() {
    for backend in ["z3", "bdd"] {
        let out = epipen(&["run", "--backend", backend, "stories/medical-test.story"]);
        assert_eq!(out.code, 2, "{backend}");
        assert_eq!(
            out.stderr,
            formatdoc! {"
                stories/medical-test.story:7:1: error: the {backend} backend does not compute probabilities: `prior`, a case's `weight` and `probability(…)` need the explicit backend (`auto` picks it)
                  |
                7 | prior if sick then 1 else 99               # 1 in 100
                  | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
                  = hint: run it on the `explicit` backend, or on `auto` (the default), which picks it
            "},
            "{backend}"
        );
    }
}

#[test]
fn a_story_with_chances_needs_its_ints_bounded() {
    error(
        "int x\nannounce x > 0\nshow probability(x > 3)\n",
        &["run"],
        2,
        indoc! {"
            f.story:2:1: error: the explicit-worlds backend needs every int bounded by the story's first announcements, and they leave `x` unbounded; probabilities (`prior`, a case's `weight`, `probability(…)`) are computed on listed worlds only
              |
            2 | announce x > 0
              | ^^^^^^^^^^^^^^
              = hint: bound every int by the story's first announcements (e.g. `announce 0 <= x and x <= 9`), so that its worlds can be listed
        "},
    );
}

#[test]
fn errors_of_priors_weights_and_probabilities_are_located() {
    let bounded = "characters A\nint x\nannounce 0 <= x and x <= 3\n";
    let with = |rest: &str| format!("{bounded}{rest}");
    error(
        &with("A learns x\nprior x\n"),
        &["run"],
        2,
        indoc! {"
            f.story:5:1: error: `prior` comes after `learns`
              |
            5 | prior x
              | ^^^^^^^
              = note: line 4: `learns` is here
              = hint: the prior weighs the worlds before anyone learns or observes anything: move it up (announcements before it are fine)
            error: f.story: 1 error found
        "},
    );
    error(
        &with("prior x\nprior x + 1\n"),
        &["run"],
        2,
        indoc! {"
            f.story:5:1: error: the prior is already given
              |
            5 | prior x + 1
              | ^^^^^^^^^^^
              = note: line 4: the first `prior`
              = hint: give one prior: multiply the two weights in one `prior`
            error: f.story: 1 error found
        "},
    );
    error(
        &with("check probability(A, x > 1) % 2 == 1/2\n"),
        &["run"],
        2,
        indoc! {"
            f.story:4:7: error: `%` in a comparison with a probability
              |
            4 | check probability(A, x > 1) % 2 == 1/2
              |       ^^^^^^^^^^^^^^^^^^^^^^^^^
              = hint: both sides of a comparison with `probability(…)` are exact fractions, where `/` divides exactly and `%` has no meaning
            error: f.story: 1 error found
        "},
    );
    error(
        &with("check probability(x, x > 1) > 1/2\n"),
        &["run"],
        2,
        indoc! {"
            f.story:4:19: error: `x` is not a character
              |
            4 | check probability(x, x > 1) > 1/2
              |                   ^
              = hint: the characters are `A`
            error: f.story: 1 error found
        "},
    );
    error(
        &with("announce probability(x > 1)\n"),
        &["run"],
        2,
        indoc! {"
            f.story:4:10: error: a probability can only be compared or shown
              |
            4 | announce probability(x > 1)
              |          ^^^^^^^^^^^^^^^^^^
              = hint: compare it, e.g. `probability(A, φ) > 1/2`, or print it with `show probability(A, φ)`
            error: f.story: 1 error found
        "},
    );
    // Found only as the story runs (exit 2, at the statement).
    error(
        &with("prior x - 1\n"),
        &["run"],
        2,
        indoc! {"
            f.story:4:1: error: the prior is -1 in the world x = 0, still possible: a weight is never negative
              |
            4 | prior x - 1
              | ^^^^^^^^^^^
              = hint: write a prior that is 0 or more in every world still possible
        "},
    );
    error(
        &with("event e {\n a weight 0\n b if x > 5\n}\n"),
        &["run"],
        2,
        indoc! {"
            f.story:4:1: error: every case that can happen in the world x = 0 weighs 0
              |
            4 | event e {
              | ^^^^^^^^^
              = hint: each world where the event happens needs a case of positive weight
        "},
    );
    error(
        &with("event e {\n a weight x - 2\n b\n}\n"),
        &["run"],
        2,
        indoc! {"
            f.story:5:11: error: this weight is -2 in the world x = 0, where its case can happen: a weight is never negative
              |
            5 |  a weight x - 2
              |           ^^^^^
              = hint: write a weight that is 0 or more in every world where the case can happen
        "},
    );
    error(
        &with(
            "prior if x == 2 then 1 else 0\nA learns x\ncheck knows(A, probability(A, x == 2) == 1)\n",
        ),
        &["run"],
        2,
        indoc! {"
            f.story:6:1: error: A's probability is undefined here: every world A considers possible weighs 0
              |
            6 | check knows(A, probability(A, x == 2) == 1)
              | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
              = hint: a probability is taken over worlds of positive weight: check the prior and the cases' weights
        "},
    );
    error(
        &with("check probability(x > 1) / probability(x > 5) > 1\n"),
        &["run"],
        2,
        indoc! {"
            f.story:4:1: error: division by zero in a comparison with probabilities
              |
            4 | check probability(x > 1) / probability(x > 5) > 1
              | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
              = hint: there `/` divides exactly: divide by a number that is not 0
        "},
    );
}

/// "I think it more likely than not": a character's probability, said, is what another
/// learns from; `/` is exact only inside a comparison with a probability.
#[test]
fn a_probability_said_is_learned_from_and_division_stays_integer_elsewhere() {
    let path = story_file(
        "said.story",
        indoc! {"
            characters Anne, Bill
            int a, b
            announce 1 <= a and a <= 3 and 1 <= b and b <= 3
            Anne learns a
            Bill learns b
            Anne: probability(a + b >= 4) > 1/2
            check knows(Bill, a >= 2)
            check 1/2 == 0
            check probability(a == 2) == 1/2
            check 2 * probability(a == 2) - 1 == 0
            show probability(b == 1) * 3
        "},
    );
    let out = epipen(&["run", &path]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        indoc! {"
            check line 7: holds
            check line 8: holds
            check line 9: holds
            check line 10: holds
            line 11: show probability(b == 1) * 3: 1 in 6 worlds
        "}
    );
}

/// `epipen ARGS story` of `source` written to `name`: exit code, stdout, stderr (the
/// file's path as `f.story`).
fn run_source(name: &str, source: &str, args: &[&str]) -> (i32, String, String) {
    let path = story_file(name, source);
    let out = epipen(&[args, &[path.as_str()]].concat());
    (out.code, out.stdout, out.stderr.replace(&path, "f.story"))
}

/// A `prior` before the announcement that bounds the ints (issue 44) runs, with the
/// answers of the prior written after it; a negative weight in a world the bound cuts
/// is no error, in a world it keeps it is.
#[test]
fn a_prior_before_the_bounding_announcement_answers_as_after_it() {
    let story = |first: &str, second: &str| {
        format!(
            "characters Bob\nint ann\n{first}\n{second}\nBob learns ann > 2\n\
             check probability(ann == 3) == 3/10\nshow probability(Bob, ann == 3)\n"
        )
    };
    let (bound, prior) = ("announce 1 <= ann and ann <= 4", "prior ann");
    let expected = indoc! {"
        check line 6: holds
        line 7: show probability(Bob, ann == 3): 0 in 2 worlds, 3/7 in 2 worlds
    "};
    for (name, first, second) in [
        ("prior-after.story", bound, prior),
        ("prior-before.story", prior, bound),
    ] {
        let (code, stdout, stderr) = run_source(name, &story(first, second), &["run"]);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (0, expected, ""),
            "{name}"
        );
    }
    let (code, stdout, stderr) = run_source(
        "prior-before-cut.story",
        &story("prior ann - 1", bound),
        &["run"],
    );
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert!(
        stdout.starts_with(
            "check line 6: fails in the world ann = 1, where probability(ann == 3) is 1/3\n"
        ),
        "{stdout}"
    );
    let (code, _, stderr) = run_source(
        "prior-before-kept.story",
        &story("prior ann - 2", bound),
        &["run"],
    );
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        indoc! {"
            f.story:3:1: error: the prior is -1 in the world ann = 1, still possible: a weight is never negative
              |
            3 | prior ann - 2
              | ^^^^^^^^^^^^^
              = hint: write a prior that is 0 or more in every world still possible
        "}
    );
    // The announcement after the prior that leaves no world is the one named.
    let (code, stdout, _) = run_source(
        "prior-before-none.story",
        &story("prior 2", "announce ann > 5 and ann < 2"),
        &["run"],
    );
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        "check line 6: vacuous: no world is possible (line 4, `announce ann > 5 and ann < 2`, left none)\n\
         line 7: show probability(Bob, ann == 3): no world is possible\n"
    );
}

/// An expected value (issue 44): a sum over a range of ints times probabilities is a
/// term, compared exactly and shown; `abs` of a probability is refused by name.
#[test]
fn an_expected_value_is_a_sum_of_probabilities() {
    let source = indoc! {"
        characters Bob
        int ann
        announce 1 <= ann and ann <= 16
        Bob learns ann % 2
        check sum(v in 1..17: v * probability(ann == v)) == 17/2
        check sum(v in 1..17 if v % 2 == 0: probability(Bob, ann == v)) + 0 <= 1
        actual ann == 4
        show sum(v in 1..17: v * probability(Bob, ann == v))
        check actual sum(v in 1..17: v * probability(Bob, ann == v)) - 9 == 0
    "};
    let (code, stdout, stderr) = run_source("expected.story", source, &["run"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert!(
        stdout.starts_with("check line 5: holds\ncheck line 6: holds\nline 8: show "),
        "{stdout}"
    );
    assert!(stdout.ends_with(" = 9\ncheck line 9: holds\n"), "{stdout}");
    let (code, _, stderr) = run_source(
        "expected-abs.story",
        "int x\nannounce 0 <= x and x <= 3\ncheck abs(probability(x > 1) - 1/2) < 1/4\n",
        &["run"],
    );
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        indoc! {"
            f.story:3:7: error: `abs` of a probability term
              |
            3 | check abs(probability(x > 1) - 1/2) < 1/4
              |       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
              = hint: a probability term is built of probabilities, numbers, `+`, `-`, `*`, `/` and `sum(…)`: compare the probabilities themselves, e.g. `probability(A, φ) > probability(A, ψ)`
            error: f.story: 1 error found
        "}
    );
}

/// A failing check that compares probabilities says what each compared term is in the
/// world where it fails (issue 44): in `run`'s and `check`'s verdicts and in `check
/// --json`'s `found`, as written, or with the loop's value in a `for` loop.
#[test]
fn a_failing_probability_check_says_the_probability_it_found() {
    let source = indoc! {"
        characters Bob
        int ann
        announce 1 <= ann and ann <= 4
        Bob learns ann > 2
        check probability(Bob, ann == 3) > 1/2 or probability(ann == 1) == 1
        actual ann == 3
        check actual 2 * probability(Bob, ann == 3) < 1/2
        for i in 1..3 { check probability(ann == i) > 1/2 }
    "};
    let (code, stdout, stderr) = run_source("found.story", source, &["run"]);
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(
        stdout,
        indoc! {"
            check line 5: fails in the world ann = 1, where probability(Bob, ann == 3) is 0 and probability(ann == 1) is 1/4
            check line 7: fails in the world ann = 3, where 2 * probability(Bob, ann == 3) is 1
            check line 8: fails in the world ann = 1, where probability(ann == 1) is 1/4
            check line 8: fails in the world ann = 1, where probability(ann == 2) is 1/4
        "}
    );
    let (code, stdout, _) = run_source("found.story", source, &["check"]);
    assert_eq!(code, 1);
    assert_eq!(
        stdout,
        indoc! {"
            line 5: check `probability(Bob, ann == 3) > 1/2 or probability(ann == 1) == 1` fails in the world ann = 1, where probability(Bob, ann == 3) is 0 and probability(ann == 1) is 1/4
            line 7: check actual `2 * probability(Bob, ann == 3) < 1/2` fails in the world ann = 3, where 2 * probability(Bob, ann == 3) is 1
            line 8: check `probability(ann == i) > 1/2` fails in the world ann = 1, where probability(ann == 1) is 1/4
            line 8: check `probability(ann == i) > 1/2` fails in the world ann = 1, where probability(ann == 2) is 1/4
            4 checks fail
        "}
    );
    let (_, stdout, _) = run_source("found.story", source, &["check", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let found: Vec<&serde_json::Value> = (json["reports"].as_array().unwrap().iter())
        .map(|r| &r["found"])
        .collect();
    assert_eq!(
        serde_json::to_string(&found).unwrap(),
        r#"[[{"term":"probability(Bob, ann == 3)","value":"0"},{"term":"probability(ann == 1)","value":"1/4"}],[{"term":"2 * probability(Bob, ann == 3)","value":"1"}],[{"term":"probability(ann == 1)","value":"1/4"}],[{"term":"probability(ann == 2)","value":"1/4"}]]"#
    );
}
