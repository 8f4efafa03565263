//! Belief (issue 20) through the real executable: the stories that show it (Sally-Anne
//! and Hintikka's World's versions, a lie, belief revision, an unbounded int story, the
//! peeking muddy child, private secrets), each with its exact output on every backend
//! that takes it.

use super::{epipen, story_file};

/// `epipen ARGS`, with `--backend B` first for each backend named, must print exactly
/// `expected` and succeed.
#[track_caller]
fn assert_run(args: &[&str], backends: &[&str], expected: &str) {
    for backend in backends {
        let out = epipen(&[&["--backend", backend], args].concat());
        assert_eq!(out.code, 0, "{backend} {args:?}: {}", out.stderr);
        assert_eq!(out.stdout, expected, "{backend} {args:?}");
    }
}

const ALL: [&str; 4] = ["auto", "z3", "bdd", "explicit"];

#[test]
fn sally_believes_the_marble_is_in_the_basket() {
    assert_run(
        &["run", "stories/sally-anne.story"],
        &ALL,
        "move: moved (Sally saw moved or stayed; Anne saw moved)\n\
        check line 32: holds\n\
        check line 34: holds\n\
        check line 35: holds\n\
        check line 37: holds\n\
        check line 38: holds\n\
        check line 41: holds\n\
        check line 42: holds\n\
        check line 43: holds\n\
        check line 47: holds\n\
        check line 48: holds\n\
        check line 50: holds\n\
        check line 54: holds\n\
        check line 55: holds\n\
        -- line 59: worlds --\n\
        2 possible worlds:\n\
        \x20 marble = box (was hand), here = true, move = moved\n\
        \x20 marble = basket (was hand), here = true, move = stayed\n\
        (and that's all)\n",
    );
    // `epipen check` names each check by its formula, `actual` included.
    assert_run(
        &["check", "stories/sally-anne.story"],
        &ALL,
        "line 32: check actual `marble == box and knows(Anne, marble == box)` holds\n\
        line 34: check actual `not knows_value(Sally, marble)` holds\n\
        line 35: check actual `not knows(Sally, marble == basket)` holds\n\
        line 37: check actual `believes(Sally, marble == basket)` holds\n\
        line 38: check actual `believes_value(Sally, marble)` holds\n\
        line 41: check actual `believes(Sally, marble == basket) and marble != basket` holds\n\
        line 42: check actual `knows(Anne, believes(Sally, marble == basket))` holds\n\
        line 43: check actual `knows(Anne, not believes(Sally, marble == box))` holds\n\
        line 47: check actual `believes(Anne, believes(Sally, marble == basket))` holds\n\
        line 48: check actual `believes(Sally, believes(Anne, marble == basket))` holds\n\
        line 50: check actual `knows(Sally, not knows_value(Sally, marble))` holds\n\
        line 54: check actual `knows(Sally, marble == box)` holds\n\
        line 55: check actual `knows(Sally, move == moved)` holds\n\
        13 verified, 0 refuted\n",
    );
}

/// Knowledge is never wrong, belief can be: "Sally knows the marble is in the basket"
/// fails, in the actual world, which the error shows; and a `check actual` is named
/// `actual φ` (not `check actual φ`) in the error.
#[test]
fn sally_does_not_know_where_the_marble_is() {
    let story = super::read_story("sally-anne.story").replace(
        "check actual not knows(Sally, marble == basket)",
        "check actual knows(Sally, marble == basket)",
    );
    let path = story_file("sally-anne-knows.story", &story);
    for backend in ALL {
        let out = epipen(&["--backend", backend, "run", &path]);
        assert_eq!(out.code, 1, "{backend}: {}", out.stderr);
        assert_eq!(
            out.stdout,
            "move: moved (Sally saw moved or stayed; Anne saw moved)\n\
             check line 32: holds\ncheck line 34: holds\n",
            "{backend}"
        );
        assert!(
            out.stderr.contains(
                ":35:1: error: the check actual `knows(Sally, marble == basket)` fails\n"
            ) && out.stderr.contains(
                "= hint: it is false in the actual world marble = box, here = true, move = moved\n"
            ),
            "{backend}: {}",
            out.stderr
        );
    }
}

#[test]
fn sally_spies_and_anne_is_the_one_deceived() {
    assert_run(
        &["run", "stories/sally-anne-spying.story"],
        &ALL,
        "start_spying: start (Sally saw start; Anne saw start or nothing)\n\
        transfer: watched (Sally saw watched; Anne saw watched or unwatched)\n\
        check line 50: holds\n\
        check line 51: holds\n\
        check line 52: holds\n\
        check line 54: holds\n\
        check line 55: holds\n\
        check line 57: holds\n\
        stop_spying: stop (Sally saw stop; Anne saw stop or nothing)\n\
        check line 72: holds\n\
        check line 74: holds\n\
        check line 75: holds\n\
        -- line 84: worlds --\n\
        6 possible worlds:\n\
        \x20 marble = box (was hand), here = true, spy = false, start_spying = start, transfer = watched, stop_spying = stop\n\
        \x20 marble = box (was hand), here = true, spy = false, start_spying = start, transfer = watched, stop_spying = nothing\n\
        \x20 marble = box (was hand), here = true, spy = false, start_spying = nothing, transfer = unwatched, stop_spying = nothing\n\
        \x20 marble = basket (was hand), here = true, spy = false, start_spying = start, transfer = nothing, stop_spying = stop\n\
        \x20 marble = basket (was hand), here = true, spy = false, start_spying = start, transfer = nothing, stop_spying = nothing\n\
        \x20 marble = basket (was hand), here = true, spy = false, start_spying = nothing, transfer = nothing, stop_spying = nothing\n\
        (and that's all)\n",
    );
    // Without the spying, the classical test: Sally believes the marble is in the
    // basket; Anne believes it too, but cannot know it.
    assert_run(
        &[
            "--set",
            "spying=0",
            "run",
            "stories/sally-anne-spying.story",
        ],
        &ALL,
        "start_spying: nothing (Sally saw nothing; Anne saw start or nothing)\n\
        transfer: unwatched (Sally saw unwatched or nothing; Anne saw watched or unwatched)\n\
        stop_spying: nothing (Sally saw nothing; Anne saw stop or nothing)\n\
        check line 78: holds\n\
        check line 80: holds\n\
        check line 81: holds\n\
        -- line 84: worlds --\n\
        6 possible worlds:\n\
        \x20 marble = box (was hand), here = true, spy = false, start_spying = start, transfer = watched, stop_spying = stop\n\
        \x20 marble = box (was hand), here = true, spy = false, start_spying = start, transfer = watched, stop_spying = nothing\n\
        \x20 marble = box (was hand), here = true, spy = false, start_spying = nothing, transfer = unwatched, stop_spying = nothing\n\
        \x20 marble = basket (was hand), here = true, spy = false, start_spying = start, transfer = nothing, stop_spying = stop\n\
        \x20 marble = basket (was hand), here = true, spy = false, start_spying = start, transfer = nothing, stop_spying = nothing\n\
        \x20 marble = basket (was hand), here = true, spy = false, start_spying = nothing, transfer = nothing, stop_spying = nothing\n\
        (and that's all)\n",
    );
}

#[test]
fn first_example_b_does_not_suspect_the_private_announcement() {
    assert_run(
        &["run", "stories/first-example.story"],
        &ALL,
        "check line 13: holds\n\
        check line 14: holds\n\
        whisper: told (a saw told; b saw told or nothing)\n\
        check line 24: holds\n\
        check line 25: holds\n\
        check line 27: holds\n\
        check line 29: holds\n\
        check line 31: holds\n\
        check line 33: holds\n\
        check line 36: holds\n\
        check line 37: holds\n\
        check line 38: holds\n\
        -- line 40: worlds --\n\
        2 possible worlds:\n\
        \x20 marble = true, whisper = told\n\
        \x20 marble = true, whisper = nothing\n\
        (and that's all)\n",
    );
}

#[test]
fn bob_believes_the_lie_and_carol_does_not() {
    assert_run(
        &["run", "stories/lie.story"],
        &ALL,
        "says: lie (Alice saw lie; Bob saw honest or lie; Carol saw lie)\n\
        check line 23: holds\n\
        check line 24: holds\n\
        check line 26: holds\n\
        check line 28: holds\n\
        check line 30: holds\n\
        check line 31: holds\n\
        check line 33: holds\n\
        check line 36: holds\n\
        check line 37: holds\n\
        check line 38: holds\n\
        -- line 40: worlds --\n\
        2 possible worlds:\n\
        \x20 cake = true, says = honest\n\
        \x20 cake = false, says = lie\n\
        (and that's all)\n",
    );
}

#[test]
fn watson_revises_his_belief_to_the_next_suspect() {
    assert_run(
        &["run", "stories/belief-revision.story"],
        &ALL,
        "check line 20: holds\n\
        check line 21: holds\n\
        check line 22: holds\n\
        check line 28: holds\n\
        check line 29: holds\n\
        check line 30: holds\n\
        check line 31: holds\n\
        check line 33: holds\n\
        check line 36: holds\n\
        check line 37: holds\n\
        -- line 39: worlds --\n\
        1 possible world:\n\
        \x20 culprit = cook\n\
        (and that's all)\n",
    );
}

/// Unbounded ints: only Z3 takes the story (auto picks it); the others refuse it by name.
#[test]
fn consecutive_numbers_with_a_hunch_on_an_infinite_domain() {
    assert_run(
        &["run", "stories/consecutive-numbers-belief.story"],
        &["auto", "z3"],
        "check line 22: holds\n\
        check line 23: holds\n\
        check line 24: holds\n\
        check line 26: holds\n\
        check line 27: holds\n\
        check line 29: holds\n\
        check line 33: holds\n\
        -- line 34: worlds --\n\
        more than 3 possible worlds; the first 3:\n\
        \x20 A = 1, B = 2\n\
        \x20 A = 2, B = 3\n\
        \x20 A = 3, B = 2\n\
        (more worlds exist; raise the number after `worlds` to see more)\n\
        check line 39: holds\n\
        check line 40: holds\n\
        check line 42: holds\n\
        -- line 45: worlds --\n\
        2 possible worlds:\n\
        \x20 A = 1, B = 2\n\
        \x20 A = 2, B = 3\n\
        (and that's all)\n",
    );
    for (backend, why) in [
        (
            "bdd",
            "the BDD backend handles only bool and enum constants, and `A` is an int",
        ),
        (
            "explicit",
            "the explicit-worlds backend needs every int bounded by the story's first announcements, and they leave `A` unbounded",
        ),
    ] {
        let out = epipen(&[
            "--backend",
            backend,
            "run",
            "stories/consecutive-numbers-belief.story",
        ]);
        assert_eq!(out.code, 2, "{backend}: {}", out.stderr);
        assert!(out.stderr.contains(why), "{backend}: {}", out.stderr);
    }
}

/// The peeking muddy child's output: every round child 0 steps forward alone; the
/// first three worlds in the canonical order are child 0 muddy and, besides her, nobody,
/// the last child, or the one before it.
fn peek_output(n: usize) -> String {
    let others: String = (1..n)
        .map(|i| format!("; child[{i}] saw saw_mud, saw_none or nothing"))
        .collect();
    let round: String = (0..n)
        .map(|i| match i {
            0 => "child[0]: knows_value(muddy[0])\n".to_string(),
            _ => format!("child[{i}]: not knows_value(muddy[{i}])\n"),
        })
        .collect();
    let rest = round.repeat(n - 2);
    let worlds: String = [None, Some(n - 1), Some(n - 2)]
        .iter()
        .map(|muddy| {
            let values: Vec<String> = (0..n)
                .map(|i| format!("muddy[{i}] = {}", i == 0 || Some(i) == *muddy))
                .collect();
            format!("  {}, peek = saw_mud\n", values.join(", "))
        })
        .collect();
    format!(
        "peek: saw_mud (child[0] saw saw_mud{others})\n\
         check line 43: holds\ncheck line 44: holds\ncheck line 45: holds\ncheck line 46: holds\n\
         {round}check line 54: holds\n{rest}check line 62: holds\n\
         -- line 64: worlds --\nmore than 3 possible worlds; the first 3:\n{worlds}\
         (more worlds exist; raise the number after `worlds` to see more)\n"
    )
}

#[test]
fn the_peeking_child_alone_steps_forward_and_spoils_the_game() {
    assert_run(
        &["run", "stories/muddy-children-peek.story"],
        &ALL,
        &peek_output(6),
    );
    // Every child muddy, twelve of them: the same.
    assert_run(
        &[
            "--set",
            "n=12",
            "--set",
            "k=12",
            "run",
            "stories/muddy-children-peek.story",
        ],
        &["auto", "bdd", "explicit"],
        &peek_output(12),
    );
}

#[test]
fn each_friend_believes_she_alone_was_told() {
    assert_run(&["run", "stories/secrets.story"], &ALL, SECRETS);
}

const SECRETS: &str = "letter: pass (friend[0] saw pass; friend[1] saw pass, fail or nothing; friend[2] saw pass, fail or nothing; friend[3] saw pass, fail or nothing)\n\
    letter: fail (friend[0] saw pass, fail or nothing; friend[1] saw fail; friend[2] saw pass, fail or nothing; friend[3] saw pass, fail or nothing)\n\
    letter: pass (friend[0] saw pass, fail or nothing; friend[1] saw pass, fail or nothing; friend[2] saw pass; friend[3] saw pass, fail or nothing)\n\
    letter: fail (friend[0] saw pass, fail or nothing; friend[1] saw pass, fail or nothing; friend[2] saw pass, fail or nothing; friend[3] saw fail)\n\
    check line 26: holds\n\
    check line 27: holds\n\
    check line 29: holds\n\
    check line 33: holds\n\
    -- line 36: worlds --\n\
    more than 2 possible worlds; the first 2:\n\
    \x20 passed[0] = true, passed[1] = true, passed[2] = true, passed[3] = true, letter#1 = pass, letter#2 = pass, letter#3 = pass, letter#4 = pass\n\
    \x20 passed[0] = false, passed[1] = false, passed[2] = false, passed[3] = false, letter#1 = fail, letter#2 = fail, letter#3 = fail, letter#4 = fail\n\
    (more worlds exist; raise the number after `worlds` to see more)\n";
