//! The conveniences of the story syntax (continuation lines, `A learns e1, e2`, lists of
//! values, `#! backend …`) and the messages for what the language lacks, through the
//! real executable.

use indoc::{formatdoc, indoc};

use super::{epipen, story_file};

/// Every message, with its hint, at its line and column.
#[test]
fn what_the_language_lacks_is_said_with_a_hint() {
    let story = story_file(
        "lacks.story",
        indoc! {"
            characters Anne, Bill
            int A
            bool sunny
            real B
            Bill: knows_value(Anne)
            announce sunny + 1 == 2
            announce A ^ 2 == 4
        "},
    );
    let out = epipen(&["run", &story]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        formatdoc! {"
            {story}:4:1: error: unknown type `real`
              |
            4 | real B
              | ^^^^
              = hint: the types are `int` and `bool`, and the enums the story declares (`enum Colour {{ red, green }}`)
            {story}:7:12: error: there is no power operator `^`
              |
            7 | announce A ^ 2 == 4
              |            ^
              = hint: multiply instead: `A * A`
            error: {story}: 2 errors found
        "}
    );
    // Once the story parses, the types are checked.
    let story = story_file(
        "lacks-types.story",
        indoc! {"
            characters Anne, Bill
            int A
            bool sunny
            Bill: knows_value(Anne)
            announce sunny + 1 == 2
            announce exists x: A == 2 * x
        "},
    );
    let out = epipen(&["run", &story]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        formatdoc! {"
            {story}:4:7: error: `knows_value` took `Anne` as the character, and has no expression left
              |
            4 | Bill: knows_value(Anne)
              |       ^^^^^^^^^^^^^^^^^
              = hint: add the values: `knows_value(Anne, x)`; `knows_value(x)` is about the speaker
            {story}:5:10: error: `+` needs int operands, found bool
              |
            5 | announce sunny + 1 == 2
              |          ^^^^^
            {story}:6:17: error: `exists` quantifies the story's bool constants, and `x` is not one
              |
            6 | announce exists x: A == 2 * x
              |                 ^
              = hint: over a range of integers, write `any(x in 0..10: …)`; to say that a character knows a value, write `knows_value(A, x)` or `knows(A, …)`
            error: {story}: 3 errors found
        "}
    );
}

/// `then`, `|` and `,` at the start of a line, and comment lines in between, continue
/// the statement; `A learns e1, e2` is two learns; a list is a loop's values.
#[test]
fn continuation_lines_learning_lists() {
    let story = story_file(
        "conveniences.story",
        indoc! {"
            characters Anne, Bob
            int marble
            bool seen
            announce marble in {0, 1}
            event move {
              moved if marble == 0
                then marble := 1
              stayed
              Anne sees moved
                | stayed
            }
            announce seen or
              # a comment
              not seen
            for c in {0, 7, 35} {
              announce marble != c + 1
            }
            Bob learns marble, seen
            Bob: knows_value(marble)
            announce sum(i in {2, 3}: i * marble) <= 5
            worlds
        "},
    );
    let out = epipen(&["run", &story]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        indoc! {"
            -- line 21: worlds --
            2 possible worlds:
              marble = 0, seen = false, move = stayed
              marble = 0, seen = true, move = stayed
            (and that's all)
        "}
    );
}

/// `#! backend …` pins the backend of every command; `--backend` other than `auto`
/// overrides it; an unknown backend is a located error.
#[test]
fn the_backend_setting_pins_the_backend() {
    let source = "#! backend bdd\ncharacters A\nint x\nannounce x in {1, 100000}\nworlds\n";
    let story = story_file("pinned.story", source);
    for command in [&["run"][..], &["worlds"], &["check"], &["graph"]] {
        let out = epipen(&[command, &[&story]].concat());
        assert_eq!(out.code, 2, "{command:?}: {}", out.stderr);
        assert_eq!(
            out.stderr,
            formatdoc! {"
                {story}:4:1: error: the story's first announcements bound the int `x` to 1..=100000, 100000 values, more than the BDD backend encodes in one int's 16 bits
                  |
                4 | announce x in {{1, 100000}}
                  | ^^^^^^^^^^^^^^^^^^^^^^^^^
                  = hint: the story pins this backend with `#! backend bdd`: write `#! backend auto` there, or name another backend
            "},
            "{command:?}"
        );
    }
    for command in [&["run", "--trace"][..], &["sweep"]] {
        let out = epipen(&[command, &[&story]].concat());
        assert_eq!(out.code, 2, "{command:?}: {}", out.stderr);
        let why = "the story's first announcements bound the int `x` to 1..=100000, 100000 values, more than the BDD backend encodes in one int's 16 bits";
        assert!(out.stderr.contains(why), "{command:?}: {}", out.stderr);
    }
    for backend in ["z3", "explicit"] {
        let out = epipen(&["--backend", backend, "run", &story]);
        assert_eq!(out.code, 0, "{backend}: {}", out.stderr);
        assert_eq!(
            out.stdout,
            "-- line 5: worlds --\n2 possible worlds:\n  x = 1\n  x = 100000\n(and that's all)\n"
        );
    }
    let story = story_file("unknown-backend.story", "#! backend cvc5\nbool p\n");
    let out = epipen(&["run", &story]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        formatdoc! {"
            {story}:1:12: error: unknown backend `cvc5`
              |
            1 | #! backend cvc5
              |            ^^^^
              = hint: the backends are `auto`, `z3`, `bdd` and `explicit`
            error: {story}: 1 error found
        "}
    );
}

/// The playground runs a story with the backend it pins, unless its menu names another.
#[test]
fn the_playground_takes_the_pinned_backend() {
    let server = super::serve::Server::start(&[]);
    let source = format!("#! backend z3\n{}", super::read_story("cheryl.story"));
    let answer = server.run(&serde_json::json!({"source": source, "name": "cheryl.story"}));
    assert_eq!(answer["exit_code"], 0, "{answer}");
    assert_eq!(answer["backend"], "z3");
    let answer = server.run(&serde_json::json!({
        "source": source, "name": "cheryl.story", "backend": "explicit",
    }));
    assert_eq!(answer["exit_code"], 0, "{answer}");
    assert_eq!(answer["backend"], "explicit");
}
