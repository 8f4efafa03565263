//! Issue 27's conveniences through the real executable: `where φ`, `def`, loops in a
//! case's `then` list and in a `simultaneously` block of changes, case names understood
//! where their event is expected. Each on every backend, with its exact output.

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

const WHERE: &str = "characters Anne, Bob\n\
        enum Card { one, two, three, four }\n\
        Card x\n\
        actual x == two\n\
        def even = x in {two, four}\n\
        def knows_x(a) = knows_value(a, x)\n\
        Anne learns even\n\
        where even\n\
        where not knows(Anne, even) or x == four\n\
        checkpoint here\n\
        where at(here, knows_x(Bob))\n\
        ";

#[test]
fn where_prints_the_possible_worlds_where_a_formula_holds() {
    let story = story_file("where.story", WHERE);
    assert_every_backend(
        &["run", &story],
        "-- line 8: where x in {two, four} --\n\
        2 possible worlds where it holds:\n\
        \x20 x = two\n\
        \x20 x = four\n\
        (and that's all)\n\
        -- line 9: where not knows(Anne, x in {two, four}) or x == four --\n\
        3 possible worlds where it holds:\n\
        \x20 x = one\n\
        \x20 x = three\n\
        \x20 x = four\n\
        (and that's all)\n\
        -- line 11: where at(here, knows_value(Bob, x)) --\n\
        no possible world where it holds\n\
        (and that's all)\n\
        ",
    );
    // `epipen worlds` prints only the end, as with `worlds` statements.
    assert_every_backend(
        &["worlds", &story],
        "4 possible worlds:\n\
        \x20 x = one\n\
        \x20 x = two\n\
        \x20 x = three\n\
        \x20 x = four\n\
        (and that's all)\n",
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
        "const n = 2\n\
        characters P[n]\n\
        bool s[n], t[n]\n\
        announce not t[0] and not t[1]\n\
        actual s[0] and not s[1] and not t[0] and not t[1]\n\
        event copy {\n\
        \x20 all_of then for i in 0..n { t[i] := s[i] }, s[0] := false\n\
        \x20 none\n\
        \x20 P[0] sees all_of | none\n\
        \x20 actual all_of\n\
        }\n\
        simultaneously {\n\
        \x20 for i in 1..n { s[i] := t[i - 1] }\n\
        \x20 t[0] := true\n\
        }\n\
        where copy == (if n == 2 then all_of else none) and s[1]\n\
        check actual s[1] and t[0] and not t[1] and not s[0]\n\
        worlds\n\
        ",
    );
    assert_every_backend(
        &["run", &story],
        "copy: all_of (P[0] saw all_of; P[1] saw all_of or none)\n\
        -- line 16: where copy == all_of and s[1] --\n\
        2 possible worlds where it holds:\n\
        \x20 s[0] = false (was true), s[1] = true (was false), t[0] = true (was false), t[1] = false, copy = all_of\n\
        \x20 s[0] = false (was true), s[1] = true, t[0] = true (was false), t[1] = true (was false), copy = all_of\n\
        (and that's all)\n\
        check line 17: holds\n\
        -- line 18: worlds --\n\
        8 possible worlds:\n\
        \x20 s[0] = false, s[1] = false, t[0] = true (was false), t[1] = false, copy = all_of\n\
        \x20 s[0] = false, s[1] = false (was true), t[0] = true (was false), t[1] = true (was false), copy = all_of\n\
        \x20 s[0] = false (was true), s[1] = true (was false), t[0] = true (was false), t[1] = false, copy = all_of\n\
        \x20 s[0] = false (was true), s[1] = true, t[0] = true (was false), t[1] = true (was false), copy = all_of\n\
        \x20 s[0] = false, s[1] = false, t[0] = true (was false), t[1] = false, copy = none\n\
        \x20 s[0] = false, s[1] = false (was true), t[0] = true (was false), t[1] = false, copy = none\n\
        \x20 s[0] = true, s[1] = false, t[0] = true (was false), t[1] = false, copy = none\n\
        \x20 s[0] = true, s[1] = false (was true), t[0] = true (was false), t[1] = false, copy = none\n\
        (and that's all)\n\
        ",
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
        format!(
            "{story}:4:10: error: in `f`: `and` needs bool operands, found int\n\
            \x20 |\n\
            4 | announce f(1)\n\
            \x20 |          ^^^^\n\
            \x20 = note: line 3: in the definition of `f`\n\
            error: {story}: 1 error found\n"
        )
    );
}
