//! What a puzzle designer trips over (issue 27): a check that holds because no world is
//! left, a list of no worlds that names the statement that left none, `actual` among
//! the worlds still possible, an impossible `actual CASE` at its own line. Through the
//! real executable, on every backend that takes the story.

use indoc::indoc;

use super::{epipen, story_file};

/// Runs `epipen --backend B ARGS` on each backend: each must exit with `code` and print
/// exactly `stdout` and `stderr` (where a story's path is `PATH`).
#[track_caller]
fn on_every_backend(backends: &[&str], args: &[&str], code: i32, stdout: &str, stderr: &str) {
    for backend in backends {
        let out = epipen(&[&["--backend", backend], args].concat());
        assert_eq!(out.code, code, "{backend} {args:?}: {}", out.stderr);
        assert_eq!(out.stdout, stdout, "{backend} {args:?}");
        let path = args.last().expect("a story");
        assert_eq!(
            out.stderr,
            stderr.replace("PATH", path),
            "{backend} {args:?}"
        );
    }
}

/// Bob says he knows x though he learned nothing: no world is left, and the check after
/// it held "vacuously" (exit 0).
const VACUOUS: &str = indoc! {"
    characters Anne, Bob
    int x
    announce x >= 0 and x <= 9
    Bob: knows_value(x)
    check x == 4
    assert_adds_ck x == 1 {
      announce x == 1
    }
    worlds
"};

#[test]
fn a_check_over_no_world_is_vacuous_and_names_the_statement_that_left_none() {
    let story = story_file("vacuous.story", VACUOUS);
    on_every_backend(
        &["auto", "z3", "explicit", "bdd"],
        &["check", &story],
        1,
        indoc! {"
            line 5: check `x == 4` vacuous: no world is possible (line 4, `Bob: knows_value(x)`, left none)
            line 6: hint `x == 1` vacuous: no world is possible (line 4, `Bob: knows_value(x)`, left none)
            2 vacuous verdicts (no world is left)
        "},
        "",
    );
    on_every_backend(
        &["auto", "z3", "explicit", "bdd"],
        &["run", &story],
        1,
        indoc! {"
            check line 5: vacuous: no world is possible (line 4, `Bob: knows_value(x)`, left none)
            hint line 6: vacuous: no world is possible (line 4, `Bob: knows_value(x)`, left none)
            -- line 9: worlds --
            no possible worlds: line 4, `Bob: knows_value(x)`, left none: it was false in every world still possible
            (and that's all)
        "},
        "",
    );
    // The JSON trace says so too.
    let out = epipen(&["run", "--trace", "--json", &story]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let lines: Vec<&str> = (out.stdout.lines())
        .filter(|l| l.contains("vacuous") || l.contains("\"kind\":\"worlds\""))
        .collect();
    assert_eq!(
        lines,
        [
            "{\"kind\":\"check\",\"line\":5,\"formula\":\"x == 4\",\"holds\":true,\
             \"vacuous\":true,\"left_none\":{\"line\":4,\"statement\":\"Bob: knows_value(x)\"}}",
            "{\"kind\":\"hint\",\"line\":6,\"formula\":\"x == 1\",\"holds\":true,\
             \"vacuous\":true,\"left_none\":{\"line\":4,\"statement\":\"Bob: knows_value(x)\"}}",
            "{\"kind\":\"worlds\",\"line\":9,\"worlds\":[],\"complete\":true,\"left_none\":\
             {\"line\":4,\"statement\":\"Bob: knows_value(x)\"}}",
        ]
    );
}

#[test]
fn the_statement_that_left_none_is_the_first_inside_its_block() {
    // Emptied inside the block of a (right) hint, by its second announcement: named,
    // not the block nor a later statement.
    let story = story_file(
        "emptied-in-block.story",
        indoc! {"
            characters A
            bool p, q
            announce p
            assert_adds_ck false {
              announce q
              announce not q
            }
            announce p or q
            check p and q
        "},
    );
    on_every_backend(
        &["auto", "z3", "bdd", "explicit"],
        &["run", &story],
        1,
        "check line 9: vacuous: no world is possible (line 6, `announce not q`, left none)\n",
        "",
    );
}

#[test]
fn a_check_over_some_world_is_not_vacuous() {
    // The same story without Bob's statement: the check is refuted, the hint verified.
    let story = story_file(
        "not-vacuous.story",
        &VACUOUS.replace("Bob: knows_value(x)\n", ""),
    );
    let out = epipen(&["check", &story]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stdout.lines().last(),
        Some("1 check fails; 1 hint verified"),
        "{}",
        out.stdout
    );
}

#[test]
fn actual_pins_one_of_the_worlds_still_possible() {
    // Both were refused: `actual` was judged against every value of the types.
    let lights = story_file(
        "lights.story",
        indoc! {"
            characters A
            bool light, v1, v2, v3
            announce not light and not v1 and not v2 and not v3
            actual not light
            check actual not v1
        "},
    );
    on_every_backend(
        &["auto", "z3", "bdd", "explicit"],
        &["run", &lights],
        0,
        "check line 5: holds\n",
        "",
    );
    let doors = story_file(
        "doors.story",
        indoc! {"
            characters A
            enum Door {one, two, three}
            Door car, pick
            announce pick == one
            actual car == two
            check actual pick == one
        "},
    );
    on_every_backend(
        &["auto", "z3", "bdd", "explicit"],
        &["run", &doors],
        0,
        "check line 6: holds\n",
        "",
    );
    // Two possible worlds left: the hint names both, not a world announced away.
    let two = story_file(
        "two-doors.story",
        indoc! {"
            characters A
            enum Door {one, two, three}
            Door car, pick
            announce pick == one
            actual car != one
        "},
    );
    on_every_backend(
        &["auto", "z3", "bdd", "explicit"],
        &["run", &two],
        2,
        "",
        indoc! {"
            PATH:5:1: error: `actual` must pin down exactly one of the worlds still possible, but it allows several
              |
            5 | actual car != one
              | ^^^^^^^^^^^^^^^^^
              = hint: for example car = two, pick = one and car = three, pick = one, both still possible; give the constants that tell them apart a value
        "},
    );
    // A world announced away is still refused as such.
    let away = story_file(
        "away.story",
        indoc! {"
            characters A
            enum Door {one, two, three}
            Door car, pick
            announce pick == one
            actual car == two and pick == two
        "},
    );
    on_every_backend(
        &["auto", "z3", "bdd", "explicit"],
        &["run", &away],
        2,
        "",
        indoc! {"
            PATH:5:1: error: the actual world contradicts what was announced before
              |
            5 | actual car == two and pick == two
              | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "},
    );
}

#[test]
fn an_impossible_actual_case_is_reported_at_its_line() {
    let story = story_file(
        "impossible-case.story",
        indoc! {"
            characters Anne, Sally
            enum Place { basket, box }
            Place marble
            announce marble == box
            actual marble == box

            event move {
              moved if marble == basket then marble := box
              stayed
              Anne sees moved | stayed
              actual moved
            }
        "},
    );
    on_every_backend(
        &["auto", "z3", "bdd", "explicit"],
        &["run", &story],
        2,
        "",
        indoc! {"
            PATH:11:3: error: the case `moved` of `move` cannot happen in the actual world
               |
            11 |   actual moved
               |   ^^^^^^^^^^^^
               = hint: its precondition is false there: name a case that can happen
        "},
    );
}

#[test]
fn an_agent_left_out_inside_another_characters_knowledge_is_an_error() {
    // The inner `knows_value` was Bob's, silently: the story ended with no world.
    let story = story_file(
        "whose.story",
        indoc! {"
            characters Anne, Bob
            int A
            announce A >= 0 and A <= 3
            Anne learns A
            Bob: knows(Anne, knows_value(A))
        "},
    );
    on_every_backend(
        &["auto"],
        &["worlds", &story],
        2,
        "",
        indoc! {"
            PATH:5:18: error: `knows_value` inside `knows(Anne, …)` needs its character
              |
            5 | Bob: knows(Anne, knows_value(A))
              |                  ^^^^^^^^^^^^^^
              = hint: write `knows_value(Anne, …)` for Anne's knowledge, or `knows_value(Bob, …)` for Bob's
            error: PATH: 1 error found
        "},
    );
    // Named, it is Anne's: she learned A, so Bob knows she knows it.
    let named = story_file(
        "whose-named.story",
        indoc! {"
            characters Anne, Bob
            int A
            announce A >= 0 and A <= 1
            Anne learns A
            Bob: knows(Anne, knows_value(Anne, A)) and not knows_value(A)
        "},
    );
    on_every_backend(
        &["auto"],
        &["worlds", &named],
        0,
        "2 possible worlds:\n  A = 0\n  A = 1\n(and that's all)\n",
        "",
    );
}

/// The statement that left no world is found by asking whether earlier states had a
/// world: on Z3 a satisfiability check, not a listing of the first world in canonical
/// order, which searches outwards from 0 (here, with `a[1]` not yet bounded after the
/// first announcement of the loop, it ran out of time: the fuzzer found it).
#[test]
fn the_statement_that_left_no_world_is_found_far_from_zero() {
    let story = story_file(
        "far-from-zero.story",
        indoc! {"
            const n = 2
            characters A
            int x0
            int a[n]
            announce x0 >= 0 and x0 <= 0
            for i0 in 0..n {
              announce a[i0] >= 10000000 and a[i0] <= 10000004
            }
            announce a[1] < 0
            check a[0] == 1
        "},
    );
    on_every_backend(
        &["auto", "z3", "explicit"],
        &["--timeout", "60", "check", &story],
        1,
        indoc! {"
            line 10: check `a[0] == 1` vacuous: no world is possible (line 9, `announce a[1] < 0`, left none)
            1 vacuous verdict (no world is left)
        "},
        "",
    );
}

/// A quantifier over constants around a knowledge operator in a story with bounded ints:
/// `auto` takes it to BDDs, which can evaluate it (it went to Z3, which refuses it, and
/// the story was refused; found by the stories told in parts, `told_campaign` seed 44).
#[test]
fn auto_takes_a_quantifier_around_knowledge_over_bounded_ints_to_bdds() {
    let story = story_file(
        "quantified-knowledge.story",
        indoc! {"
        characters A
        int x
        bool p
        announce 0 <= x and x <= 1
        A learns x
        announce exists p: knows(A, p or x == 1)
    "},
    );
    let worlds = indoc! {"
        2 possible worlds:
          x = 1, p = false
          x = 1, p = true
        (and that's all)
    "};
    on_every_backend(&["auto", "bdd"], &["worlds", &story], 0, worlds, "");
}

/// An actual world of the types that the first announcements rule out contradicts
/// them, on every backend: the BDD backend, which holds only the values the first
/// announcements allow, said "`actual` allows no world at all" (the stories told in
/// parts, `told_campaign` seed 137).
#[test]
fn an_actual_world_the_first_announcements_rule_out_contradicts_them() {
    let story = story_file(
        "ruled-out.story",
        indoc! {"
        characters A
        int x
        announce 0 <= x and x <= 3
        actual x == 5
    "},
    );
    let stderr = indoc! {"
        PATH:4:1: error: the actual world contradicts what was announced before
          |
        4 | actual x == 5
          | ^^^^^^^^^^^^^
    "};
    let all = ["auto", "z3", "bdd", "explicit"];
    on_every_backend(&all, &["worlds", &story], 2, "", stderr);
}
