//! Issue 27's conveniences through the real executable: `where φ`, `def`, loops in a
//! case's `then` list and in a `simultaneously` block of changes, case names understood
//! where their event is expected. Each on every backend, with its exact output.

use indoc::{formatdoc, indoc};

use super::{epipen, story_file};

const BACKENDS: [&str; 3] = ["z3", "bdd", "explicit"];

/// `epipen --backend B ARGS` prints exactly `expected` and succeeds, on every backend.
#[track_caller]
fn assert_every_backend(args: &[&str], expected: &str) {
    for backend in BACKENDS {
        let out = epipen(&[&["--backend", backend], args].concat());
        assert_eq!(out.code, 0, "{backend} {args:?}: {}", out.stderr);
        assert_eq!(out.stdout, expected, "{backend} {args:?}");
    }
}

const WHERE: &str = indoc! {"
    characters Anne, Bob
    enum Card { one, two, three, four }
    Card x
    actual x == two
    def even = x in {two, four}
    def knows_x(a) = knows_value(a, x)
    Anne learns even
    where even
    where not knows(Anne, even) or x == four
    checkpoint here
    where at(here, knows_x(Bob))
"};

#[test]
fn where_prints_the_possible_worlds_where_a_formula_holds() {
    let story = story_file("where.story", WHERE);
    assert_every_backend(
        &["run", &story],
        indoc! {"
            -- line 8: where x in {two, four} --
            2 possible worlds where it holds:
              x = two
              x = four
            (and that's all)
            -- line 9: where not knows(Anne, x in {two, four}) or x == four --
            3 possible worlds where it holds:
              x = one
              x = three
              x = four
            (and that's all)
            -- line 11: where at(here, knows_value(Bob, x)) --
            no possible world where it holds
            (and that's all)
        "},
    );
    // `epipen worlds` prints only the end, as with `worlds` statements.
    assert_every_backend(
        &["worlds", &story],
        indoc! {"
            4 possible worlds:
              x = one
              x = two
              x = three
              x = four
            (and that's all)
        "},
    );
}

#[test]
fn where_is_in_the_json_trace() {
    let story = story_file("where-json.story", WHERE);
    let out = epipen(&["run", "--trace", "--json", &story]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("\"where\""))
        .collect();
    assert_eq!(
        lines,
        [
            r#"{"kind":"where","line":8,"formula":"x in {two, four}","worlds":[{"x":"two"},{"x":"four"}],"complete":true}"#,
            r#"{"kind":"where","line":9,"formula":"not knows(Anne, x in {two, four}) or x == four","worlds":[{"x":"one"},{"x":"three"},{"x":"four"}],"complete":true}"#,
            r#"{"kind":"where","line":11,"formula":"at(here, knows_value(Bob, x))","worlds":[],"complete":true}"#,
        ]
    );
}

#[test]
fn loops_in_changes_and_case_names_by_context() {
    let story = story_file(
        "loops-in-changes.story",
        indoc! {"
            const n = 2
            characters P[n]
            bool s[n], t[n]
            announce not t[0] and not t[1]
            actual s[0] and not s[1] and not t[0] and not t[1]
            event copy {
              all_of then for i in 0..n { t[i] := s[i] }, s[0] := false
              none
              P[0] sees all_of | none
              actual all_of
            }
            simultaneously {
              for i in 1..n { s[i] := t[i - 1] }
              t[0] := true
            }
            where copy == (if n == 2 then all_of else none) and s[1]
            check actual s[1] and t[0] and not t[1] and not s[0]
            worlds
        "},
    );
    assert_every_backend(
        &["run", &story],
        indoc! {"
            copy: all_of (P[0] saw all_of; P[1] saw all_of or none)
            -- line 16: where copy == all_of and s[1] --
            2 possible worlds where it holds:
              s[0] = false (was true), s[1] = true (was false), t[0] = true (was false), t[1] = false, copy = all_of
              s[0] = false (was true), s[1] = true, t[0] = true (was false), t[1] = true (was false), copy = all_of
            (and that's all)
            check line 17: holds
            -- line 18: worlds --
            8 possible worlds:
              s[0] = false, s[1] = false, t[0] = true (was false), t[1] = false, copy = all_of
              s[0] = false, s[1] = false (was true), t[0] = true (was false), t[1] = true (was false), copy = all_of
              s[0] = false (was true), s[1] = true (was false), t[0] = true (was false), t[1] = false, copy = all_of
              s[0] = false (was true), s[1] = true, t[0] = true (was false), t[1] = true (was false), copy = all_of
              s[0] = false, s[1] = false, t[0] = true (was false), t[1] = false, copy = none
              s[0] = false, s[1] = false (was true), t[0] = true (was false), t[1] = false, copy = none
              s[0] = true, s[1] = false, t[0] = true (was false), t[1] = false, copy = none
              s[0] = true, s[1] = false (was true), t[0] = true (was false), t[1] = false, copy = none
            (and that's all)
        "},
    );
}

#[test]
fn a_mistake_inside_a_definition_is_shown_at_the_use_and_the_definition() {
    let story = story_file(
        "def-error.story",
        "bool p\nint x\ndef f(i) = p and x + i\nannounce f(1)\n",
    );
    let out = epipen(&["run", &story]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        formatdoc! {"
            {story}:4:10: error: in `f`: `and` needs bool operands, found int
              |
            4 | announce f(1)
              |          ^^^^
              = note: line 3: in the definition of `f`
            error: {story}: 1 error found
        "}
    );
}
