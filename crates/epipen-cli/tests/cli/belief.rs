//! Belief (issue 20) through the real executable: the stories that show it (Sally-Anne
//! and Hintikka's World's versions, a lie, belief revision, an unbounded int story, the
//! peeking muddy child, private secrets), each with its exact output on every backend
//! that takes it.

use indoc::{formatdoc, indoc};

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
        indoc! {"
            move: moved (Sally saw moved or stayed; Anne saw moved)
            check line 32: holds
            check line 34: holds
            check line 35: holds
            check line 37: holds
            check line 38: holds
            check line 41: holds
            check line 42: holds
            check line 43: holds
            check line 47: holds
            check line 48: holds
            check line 50: holds
            check line 54: holds
            check line 55: holds
            -- line 59: worlds --
            2 possible worlds:
              marble = box (was hand), here = true, move = moved
              marble = basket (was hand), here = true, move = stayed
            (and that's all)
        "},
    );
    // `epipen check` names each check by its formula, a check actual as such.
    assert_run(
        &["check", "stories/sally-anne.story"],
        &ALL,
        indoc! {"
            line 32: check actual `marble == box and knows(Anne, marble == box)` holds
            line 34: check actual `not knows_value(Sally, marble)` holds
            line 35: check actual `not knows(Sally, marble == basket)` holds
            line 37: check actual `believes(Sally, marble == basket)` holds
            line 38: check actual `believes_value(Sally, marble)` holds
            line 41: check actual `believes(Sally, marble == basket) and marble != basket` holds
            line 42: check actual `knows(Anne, believes(Sally, marble == basket))` holds
            line 43: check actual `knows(Anne, not believes(Sally, marble == box))` holds
            line 47: check actual `believes(Anne, believes(Sally, marble == basket))` holds
            line 48: check actual `believes(Sally, believes(Anne, marble == basket))` holds
            line 50: check actual `knows(Sally, not knows_value(Sally, marble))` holds
            line 54: check actual `knows(Sally, marble == box)` holds
            line 55: check actual `knows(Sally, move == moved)` holds
            13 checks hold
        "},
    );
}

/// Knowledge is never wrong, belief can be: "Sally knows the marble is in the basket"
/// fails, in the actual world, which the verdict shows; the run goes on (every later
/// verdict and the worlds are printed) and exits with 1.
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
        assert!(
            out.stdout.starts_with(indoc! {"
                move: moved (Sally saw moved or stayed; Anne saw moved)
                check line 32: holds
                check line 34: holds
                check line 35: fails in the world marble = box, here = true, move = moved
                check line 37: holds
            "}),
            "{backend}: {}",
            out.stdout
        );
        assert!(
            out.stdout.ends_with(indoc! {"
                check line 55: holds
                -- line 59: worlds --
                2 possible worlds:
                  marble = box (was hand), here = true, move = moved
                  marble = basket (was hand), here = true, move = stayed
                (and that's all)
            "}),
            "{backend}: {}",
            out.stdout
        );
        assert_eq!(out.stderr, "", "{backend}");
    }
}

#[test]
fn sally_spies_and_anne_is_the_one_deceived() {
    assert_run(
        &["run", "stories/sally-anne-spying.story"],
        &ALL,
        indoc! {"
            start_spying: start (Sally saw start; Anne saw start or nothing)
            transfer: watched (Sally saw watched; Anne saw watched or unwatched)
            check line 50: holds
            check line 51: holds
            check line 52: holds
            check line 54: holds
            check line 55: holds
            check line 57: holds
            stop_spying: stop (Sally saw stop; Anne saw stop or nothing)
            check line 72: holds
            check line 74: holds
            check line 75: holds
            -- line 84: worlds --
            6 possible worlds:
              marble = box (was hand), here = true, spy = false, start_spying = start, transfer = watched, stop_spying = stop
              marble = box (was hand), here = true, spy = false, start_spying = start, transfer = watched, stop_spying = nothing
              marble = box (was hand), here = true, spy = false, start_spying = nothing, transfer = unwatched, stop_spying = nothing
              marble = basket (was hand), here = true, spy = false, start_spying = start, transfer = nothing, stop_spying = stop
              marble = basket (was hand), here = true, spy = false, start_spying = start, transfer = nothing, stop_spying = nothing
              marble = basket (was hand), here = true, spy = false, start_spying = nothing, transfer = nothing, stop_spying = nothing
            (and that's all)
        "},
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
        indoc! {"
            start_spying: nothing (Sally saw nothing; Anne saw start or nothing)
            transfer: unwatched (Sally saw unwatched or nothing; Anne saw watched or unwatched)
            stop_spying: nothing (Sally saw nothing; Anne saw stop or nothing)
            check line 78: holds
            check line 80: holds
            check line 81: holds
            -- line 84: worlds --
            6 possible worlds:
              marble = box (was hand), here = true, spy = false, start_spying = start, transfer = watched, stop_spying = stop
              marble = box (was hand), here = true, spy = false, start_spying = start, transfer = watched, stop_spying = nothing
              marble = box (was hand), here = true, spy = false, start_spying = nothing, transfer = unwatched, stop_spying = nothing
              marble = basket (was hand), here = true, spy = false, start_spying = start, transfer = nothing, stop_spying = stop
              marble = basket (was hand), here = true, spy = false, start_spying = start, transfer = nothing, stop_spying = nothing
              marble = basket (was hand), here = true, spy = false, start_spying = nothing, transfer = nothing, stop_spying = nothing
            (and that's all)
        "},
    );
}

#[test]
fn first_example_b_does_not_suspect_the_private_announcement() {
    assert_run(
        &["run", "stories/first-example.story"],
        &ALL,
        indoc! {"
            check line 13: holds
            check line 14: holds
            whisper: told (a saw told; b saw told or nothing)
            check line 24: holds
            check line 25: holds
            check line 27: holds
            check line 29: holds
            check line 31: holds
            check line 33: holds
            check line 36: holds
            check line 37: holds
            check line 38: holds
            -- line 40: worlds --
            2 possible worlds:
              marble = true, whisper = told
              marble = true, whisper = nothing
            (and that's all)
        "},
    );
}

#[test]
fn bob_believes_the_lie_and_carol_does_not() {
    assert_run(
        &["run", "stories/lie.story"],
        &ALL,
        indoc! {"
            says: lie (Alice saw lie; Bob saw honest or lie; Carol saw lie)
            check line 23: holds
            check line 24: holds
            check line 26: holds
            check line 28: holds
            check line 30: holds
            check line 31: holds
            check line 33: holds
            check line 36: holds
            check line 37: holds
            check line 38: holds
            -- line 40: worlds --
            2 possible worlds:
              cake = true, says = honest
              cake = false, says = lie
            (and that's all)
        "},
    );
}

#[test]
fn watson_revises_his_belief_to_the_next_suspect() {
    assert_run(
        &["run", "stories/belief-revision.story"],
        &ALL,
        indoc! {"
            check line 20: holds
            check line 21: holds
            check line 22: holds
            check line 28: holds
            check line 29: holds
            check line 30: holds
            check line 31: holds
            check line 33: holds
            check line 36: holds
            check line 37: holds
            -- line 39: worlds --
            1 possible world:
              culprit = cook
            (and that's all)
        "},
    );
}

/// Unbounded ints: only Z3 takes the story (auto picks it); the others refuse it by name.
#[test]
fn consecutive_numbers_with_a_hunch_on_an_infinite_domain() {
    assert_run(
        &["run", "stories/consecutive-numbers-belief.story"],
        &["auto", "z3"],
        indoc! {"
            check line 22: holds
            check line 23: holds
            check line 24: holds
            check line 26: holds
            check line 27: holds
            check line 29: holds
            check line 33: holds
            -- line 34: worlds --
            more than 3 possible worlds; the first 3:
              A = 1, B = 2
              A = 2, B = 3
              A = 3, B = 2
            (more worlds exist; raise the number after `worlds` to see more)
            check line 39: holds
            check line 40: holds
            check line 42: holds
            -- line 45: worlds --
            2 possible worlds:
              A = 1, B = 2
              A = 2, B = 3
            (and that's all)
        "},
    );
    for (backend, why) in [
        (
            "bdd",
            "the BDD backend needs every int bounded by the story's first announcements, and they leave `A` unbounded",
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
    formatdoc! {"
        peek: saw_mud (child[0] saw saw_mud{others})
        check line 43: holds
        check line 44: holds
        check line 45: holds
        check line 46: holds
        {round}check line 54: holds
        {rest}check line 62: holds
        -- line 64: worlds --
        more than 3 possible worlds; the first 3:
        {worlds}(more worlds exist; raise the number after `worlds` to see more)
    "}
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

const SECRETS: &str = indoc! {"
    letter: pass (friend[0] saw pass; friend[1] saw pass, fail or nothing; friend[2] saw pass, fail or nothing; friend[3] saw pass, fail or nothing)
    letter: fail (friend[0] saw pass, fail or nothing; friend[1] saw fail; friend[2] saw pass, fail or nothing; friend[3] saw pass, fail or nothing)
    letter: pass (friend[0] saw pass, fail or nothing; friend[1] saw pass, fail or nothing; friend[2] saw pass; friend[3] saw pass, fail or nothing)
    letter: fail (friend[0] saw pass, fail or nothing; friend[1] saw pass, fail or nothing; friend[2] saw pass, fail or nothing; friend[3] saw fail)
    check line 26: holds
    check line 27: holds
    check line 29: holds
    check line 33: holds
    -- line 36: worlds --
    more than 2 possible worlds; the first 2:
      passed[0] = true, passed[1] = true, passed[2] = true, passed[3] = true, letter#1 = pass, letter#2 = pass, letter#3 = pass, letter#4 = pass
      passed[0] = false, passed[1] = false, passed[2] = false, passed[3] = false, letter#1 = fail, letter#2 = fail, letter#3 = fail, letter#4 = fail
    (more worlds exist; raise the number after `worlds` to see more)
"};
