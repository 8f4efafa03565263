//! The event stories of issue 19 through the real executable: each one's exact output on
//! every backend that takes it, and the settings where its answer changes.

use indoc::{formatdoc, indoc};

use super::{epipen, read_story, story_file};

/// Every backend; the BDD backend takes stories of bools and enums only.
const ALL: [&str; 4] = ["auto", "z3", "bdd", "explicit"];
const INTS: [&str; 3] = ["auto", "z3", "explicit"];

/// Runs `epipen --backend B ARGS` on each backend named: each must exit with `code`
/// and print exactly `stdout`; returns the stderr of the runs.
#[track_caller]
fn run_on(backends: &[&str], args: &[&str], code: i32, stdout: &str) -> Vec<String> {
    let mut stderrs = Vec::new();
    for backend in backends {
        let out = epipen(&[&["--backend", backend], args].concat());
        assert_eq!(out.code, code, "{backend} {args:?}: {}", out.stderr);
        assert_eq!(out.stdout, stdout, "{backend} {args:?}");
        stderrs.push(out.stderr);
    }
    stderrs
}

/// The coin is flipped and only b looks: b knows it shows heads, a does not know how it
/// landed but knows that b knows.
#[test]
fn coin_flip_b_knows_a_does_not() {
    run_on(
        &ALL,
        &["run", "stories/coin-flip.story"],
        0,
        indoc! {"
            flip: lands_heads (a saw lands_heads or lands_tails; b saw lands_heads)
            check line 19: holds
            check line 20: holds
            check line 22: holds
            check line 23: holds
            -- line 25: worlds --
            2 possible worlds:
              heads = true, flip = lands_heads
              heads = false (was true), flip = lands_tails
            (and that's all)
        "},
    );
}

/// Anne and Bob read the note in front of Cath: p is common knowledge between them, Cath
/// does not know whether p but knows they did not learn not p.
#[test]
fn group_announcement_that_cath_suspects() {
    run_on(
        &ALL,
        &["run", "stories/group-announcement.story"],
        0,
        indoc! {"
            note: told (Anne saw told; Bob saw told; Cath saw told or nothing)
            check line 21: holds
            check line 22: holds
            check line 24: holds
            check line 25: holds
            check line 27: holds
            check line 29: holds
            -- line 31: worlds --
            3 possible worlds:
              p = true, note = told
              p = false, note = nothing
              p = true, note = nothing
            (and that's all)
        "},
    );
}

/// The judge's words rule out Friday only; a hanging on Wednesday is a surprise, one on
/// Thursday would not be.
#[test]
fn hangman_wednesday_is_a_surprise_thursday_would_not_be() {
    let mornings = indoc! {"
        check line 29: holds
        check line 33: holds
        check line 34: holds
        check line 39: holds
        noon: silence (Prisoner saw silence)
        check line 39: holds
        noon: silence (Prisoner saw silence)
        check line 39: holds
    "};
    run_on(
        &INTS,
        &["run", "stories/hangman.story"],
        0,
        &formatdoc! {"
            {mornings}noon: knock (Prisoner saw knock)
            -- line 47: worlds --
            4 possible worlds:
              day = 1, noon#1 = knock, noon#2 = silence, noon#3 = silence
              day = 2, noon#1 = silence, noon#2 = knock, noon#3 = silence
              day = 3, noon#1 = silence, noon#2 = silence, noon#3 = knock
              day = 4, noon#1 = silence, noon#2 = silence, noon#3 = silence
            (and that's all)
        "},
    );
    // Thursday would be no surprise: the check fails on its morning, and the run goes
    // on to the worlds (exit code 1 at its end).
    let stderrs = run_on(
        &INTS,
        &["run", "--set", "hanged_on=4", "stories/hangman.story"],
        1,
        &formatdoc! {"
            {mornings}noon: silence (Prisoner saw silence)
            check line 39: fails in the world day = 4, noon#1 = silence, noon#2 = silence, noon#3 = silence
            noon: knock (Prisoner saw knock)
            -- line 47: worlds --
            4 possible worlds:
              day = 1, noon#1 = knock, noon#2 = silence, noon#3 = silence, noon#4 = silence
              day = 2, noon#1 = silence, noon#2 = knock, noon#3 = silence, noon#4 = silence
              day = 3, noon#1 = silence, noon#2 = silence, noon#3 = knock, noon#4 = silence
              day = 4, noon#1 = silence, noon#2 = silence, noon#3 = silence, noon#4 = knock
            (and that's all)
        "},
    );
    for stderr in stderrs {
        assert_eq!(stderr, "");
    }
}

/// SMCDEL's schedule 2, 1, 3, 1: the counter knows that everyone has been in after the
/// last interview and not before; and so with n = 5 (schedule 2, 1, 3, 1, 4, 1, 5, 1).
#[test]
fn prisoners_the_counter_knows_at_the_end() {
    let run = |n: usize| {
        let visits: Vec<String> = (1..n).map(|p| format!("on[{p}], left[{p}]")).collect();
        let visits = visits.join(", ");
        // The group's last two cases are joined by "or".
        let at = visits.rfind(", ").expect("two cases at least");
        let visits = format!("{} or {}", &visits[..at], &visits[at + 2..]);
        let mut out = String::new();
        for k in 1..n {
            out += &format!("interview: on[{k}] (counter saw {visits})\ncheck line 37: holds\n");
            out += "interview: lit (counter saw lit)\ncheck line 37: holds\n";
        }
        out + "check line 42: holds\n"
    };
    assert_eq!(
        run(3),
        indoc! {"
            interview: on[1] (counter saw on[1], left[1], on[2] or left[2])
            check line 37: holds
            interview: lit (counter saw lit)
            check line 37: holds
            interview: on[2] (counter saw on[1], left[1], on[2] or left[2])
            check line 37: holds
            interview: lit (counter saw lit)
            check line 37: holds
            check line 42: holds
        "}
    );
    run_on(&ALL, &["run", "stories/prisoners.story"], 0, &run(3));
    run_on(
        &["auto", "bdd", "explicit"],
        &["run", "--set", "n=5", "stories/prisoners.story"],
        0,
        &run(5),
    );
}

/// SMCDEL's two sequences for n = 4: 12;34;13;24 is a success, 12;23;31 is not (agent 4
/// never called); every pair calling once is a success at n = 3. Z3 takes over a minute
/// on the successful sequence (docs/benchmarks.md): it runs the others.
#[test]
fn gossip_succeeds_with_12_34_13_24_not_with_12_23_31() {
    run_on(
        &["auto", "bdd", "explicit"],
        &["run", "stories/gossip.story"],
        0,
        indoc! {"
            call: c[0, 1] (P[0] saw c[0, 1]; P[1] saw c[0, 1]; P[2] saw c[0, 1], c[0, 3] or c[1, 3]; P[3] saw c[0, 1], c[0, 2] or c[1, 2])
            call: c[2, 3] (P[0] saw c[1, 2], c[1, 3] or c[2, 3]; P[1] saw c[0, 2], c[0, 3] or c[2, 3]; P[2] saw c[2, 3]; P[3] saw c[2, 3])
            call: c[0, 2] (P[0] saw c[0, 2]; P[1] saw c[0, 2], c[0, 3] or c[2, 3]; P[2] saw c[0, 2]; P[3] saw c[0, 1], c[0, 2] or c[1, 2])
            call: c[1, 3] (P[0] saw c[1, 2], c[1, 3] or c[2, 3]; P[1] saw c[1, 3]; P[2] saw c[0, 1], c[0, 3] or c[1, 3]; P[3] saw c[1, 3])
            check line 58: holds
        "},
    );
    let stderrs = run_on(
        &ALL,
        &["run", "--set", "sequence=1", "stories/gossip.story"],
        1,
        indoc! {"
            call: c[0, 1] (P[0] saw c[0, 1]; P[1] saw c[0, 1]; P[2] saw c[0, 1], c[0, 3] or c[1, 3]; P[3] saw c[0, 1], c[0, 2] or c[1, 2])
            call: c[1, 2] (P[0] saw c[1, 2], c[1, 3] or c[2, 3]; P[1] saw c[1, 2]; P[2] saw c[1, 2]; P[3] saw c[0, 1], c[0, 2] or c[1, 2])
            call: c[0, 2] (P[0] saw c[0, 2]; P[1] saw c[0, 2], c[0, 3] or c[2, 3]; P[2] saw c[0, 2]; P[3] saw c[0, 1], c[0, 2] or c[1, 2])
            check line 58: fails in the world s[0] = true, s[1] = true, s[2] = true, s[3] = true, call#1 = c[0, 1], call#2 = c[1, 2], call#3 = c[0, 2]
        "},
    );
    for stderr in stderrs {
        assert_eq!(stderr, "");
    }
    run_on(
        &ALL,
        &[
            "run",
            "--set",
            "sequence=0",
            "--set",
            "n=3",
            "stories/gossip.story",
        ],
        0,
        indoc! {"
            call: c[0, 1] (P[0] saw c[0, 1]; P[1] saw c[0, 1]; P[2] saw c[0, 1])
            call: c[0, 2] (P[0] saw c[0, 2]; P[1] saw c[0, 2]; P[2] saw c[0, 2])
            call: c[1, 2] (P[0] saw c[1, 2]; P[1] saw c[1, 2]; P[2] saw c[1, 2])
            check line 58: holds
        "},
    );
}

/// `run` and `check` list no worlds, so they may forget the events' histories
/// (docs/encoding.md, "Forgetting histories"); a story that prints worlds keeps them:
/// the coin flip's `worlds` statement shows `heads = false (was true)` as before, and
/// the log says why.
#[test]
fn a_story_with_worlds_statements_keeps_its_history() {
    for backend in ["bdd", "auto"] {
        let out = epipen(&[
            "-vv",
            "--backend",
            backend,
            "run",
            "stories/coin-flip.story",
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(
            out.stdout
                .contains("heads = false (was true), flip = lands_tails")
        );
        assert!(
            (out.stderr).contains("the events' histories are kept: a `worlds` statement"),
            "{}",
            out.stderr
        );
        assert!(!out.stderr.contains("forgets the events' histories"));
    }
}

/// `forall p` after an event that changed p takes the worlds where p started otherwise
/// (docs/language.md, "Quantifiers over bools"): the histories are kept for it, so that
/// `check` answers as `worlds` does (fuzz campaign seed 125: forgetting them, the BDD
/// backend quantified over p's new value and took a true announcement for a false one).
#[test]
fn a_quantifier_over_a_changed_bool_keeps_the_histories() {
    let story = story_file(
        "forall-changed.story",
        "characters A\nbool p, q\nactual not p and q\n\
         event reset {\n  set then p := false\n  actual set\n}\n\
         A: forall p: not p\ncheck forall q: q or not q\n",
    );
    for backend in ["bdd", "auto"] {
        let out = epipen(&["-vv", "--backend", backend, "check", &story]);
        assert_eq!(
            (out.code, out.stdout.as_str()),
            (
                0,
                "line 9: check `forall q: q or not q` holds\n1 check holds\n"
            ),
            "{}",
            out.stderr
        );
        assert!(
            (out.stderr).contains(
                "the events' histories are kept: a quantifier over a bool an event changed"
            ),
            "{}",
            out.stderr
        );
    }
}

/// The prisoners on BDDs forget their histories under `check` (nothing in the story
/// reads them) and give the verdicts of the explicit backend, which keeps them in the
/// same story with a checkpoint (in place of a comment: the lines stay).
#[test]
fn the_prisoners_forget_their_histories_with_the_same_verdicts() {
    // n = 5: the explicit backend keeps the histories, and at n = 6 they are 3.6 GB
    // and a minute (0.35 s here).
    let args = ["check", "stories/prisoners.story", "--set", "n=5"];
    let forgot = epipen(&[&["-vv", "--backend", "bdd"], &args[..]].concat());
    let story = read_story("prisoners.story");
    let with_checkpoint = story.replace(
        "# SMCDEL's prisonGoal: the counter knows that all have been interrogated.",
        "checkpoint end",
    );
    assert_ne!(with_checkpoint, story);
    let path = story_file("prisoners-kept.story", &with_checkpoint);
    let kept = epipen(&[
        "-vv",
        "--backend",
        "explicit",
        "check",
        &path,
        "--set",
        "n=5",
    ]);
    assert_eq!((forgot.code, kept.code), (0, 0), "{}", forgot.stderr);
    assert_eq!(
        forgot.stdout,
        kept.stdout.replace(&path, "stories/prisoners.story")
    );
    assert!(forgot.stdout.contains("9 checks hold"), "{}", forgot.stdout);
    assert!(
        (forgot.stderr).contains("the bdd backend forgets the events' histories"),
        "{}",
        forgot.stderr
    );
    assert!(
        (kept.stderr).contains("the events' histories are kept: the story has checkpoints"),
        "{}",
        kept.stderr
    );
}

/// The prisoners on explicit worlds forget their histories too (each event's worlds
/// merged where they agree on the values and on what the counter saw): the verdicts of
/// BDDs, at n = 5 as with the histories kept above, and at n = 8, where the histories
/// would be 8^14 worlds.
#[test]
fn the_prisoners_forget_their_histories_on_explicit_worlds() {
    for n in ["n=5", "n=8"] {
        let args = ["check", "stories/prisoners.story", "--set", n];
        let on_bdds = epipen(&[&["--backend", "bdd"], &args[..]].concat());
        let listed = epipen(&[&["-vv", "--backend", "explicit"], &args[..]].concat());
        assert_eq!((on_bdds.code, listed.code), (0, 0), "{}", listed.stderr);
        assert_eq!(on_bdds.stdout, listed.stdout);
        assert!(
            (listed.stderr).contains("the explicit backend forgets the events' histories"),
            "{}",
            listed.stderr
        );
    }
}

/// `--stats` prints the BDD variable order the run uses: with the histories forgotten,
/// the observations first (one per interview: the counter's) and each case's bit beside
/// what it changes; with them kept (`worlds`), the occurrences after the constants.
#[test]
fn stats_print_the_variable_order_of_forgetting() {
    let forgot = epipen(&[
        "--backend",
        "bdd",
        "check",
        "--stats",
        "stories/prisoners.story",
    ]);
    assert_eq!(forgot.code, 0, "{}", forgot.stderr);
    assert!(
        (forgot.stderr).contains(
            "stats: BDD variable order: histories forgotten: 4 observations first (one per \
             occurrence and character who tells its cases apart, oldest first), then as \
             declared: light, counted[0..3]; each event's cases one bit each"
        ),
        "{}",
        forgot.stderr
    );
    let kept = epipen(&[
        "--backend",
        "bdd",
        "worlds",
        "--stats",
        "stories/prisoners.story",
    ]);
    assert_eq!(kept.code, 0, "{}", kept.stderr);
    assert!(
        (kept.stderr).contains(
            "stats: BDD variable order: as declared: light, counted[0..3]; each event's \
             occurrences after"
        ),
        "{}",
        kept.stderr
    );
}

/// Three characters, two events that change a bool and an enum, a speaker's
/// announcement between them, checks that fail: with the histories forgotten the
/// explicit backend prints what BDDs print, failing worlds included (named by their
/// values now, no occurrence), with distributed knowledge (worlds merged only where
/// everyone observed the same) and without (contracted); and the verdicts of the run
/// that keeps the histories (a checkpoint added).
#[test]
fn explicit_worlds_forget_as_bdds_do() {
    let story = indoc! {"
        characters A, B, C
        bool p, q
        enum Colour { red, green, blue }
        Colour c
        announce p or q
        actual p and not q and c == red
        event toss {
          h if p then q := not q, c := green
          t if not p or q then p := q
          u then c := blue
          A sees h | t, u
          B sees h, t | u
          actual h
        }
        check distributed_knowledge(A, B, p) or not p
        check knows(A, q) or knows(B, q) or common_knowledge(p or q)
        C: knows(p or q)
        check actual knows(A, c == green)
        event again {
          x if knows(A, q) then p := false
          y if not knows(A, q)
          B sees x | y
          actual y
        }
        check everyone_knows(p or not p) and (knows(B, p) == knows(A, p))
        check actual knows(B, not p) or knows(B, p)
    "};
    let contracted = story.replace(
        "distributed_knowledge(A, B, p) or not p",
        "knows(A, p) or knows(B, not p) or not p",
    );
    for (name, text) in [("distributed", story), ("contracted", &contracted)] {
        let path = story_file(&format!("forget-{name}.story"), text);
        let kept_path = story_file(
            &format!("forget-{name}-kept.story"),
            &text.replace("C: knows(p or q)", "checkpoint c0\nC: knows(p or q)"),
        );
        let on_bdds = epipen(&["--backend", "bdd", "check", &path]);
        let listed = epipen(&["-vv", "--backend", "explicit", "check", &path]);
        let kept = epipen(&["--backend", "explicit", "check", &kept_path]);
        assert_eq!(on_bdds.code, 1, "{}", on_bdds.stderr);
        assert_eq!(on_bdds.stdout, listed.stdout, "{name}");
        assert!(
            on_bdds.stdout.contains("3 checks hold, 2 fail"),
            "{}",
            on_bdds.stdout
        );
        assert!(
            (listed.stderr).contains("the explicit backend forgets the events' histories"),
            "{}",
            listed.stderr
        );
        // The same verdicts, line for line (the kept story has one line more).
        let verdicts = |out: &str| -> Vec<String> {
            (out.lines())
                .map(|l| match l.split_once(" fails in ") {
                    Some((v, _)) => format!("{v} fails"),
                    None => l.to_string(),
                })
                .map(|l| match l.split_once(": ") {
                    Some((_, rest)) => rest.to_string(),
                    None => l,
                })
                .collect()
        };
        assert_eq!(verdicts(&listed.stdout), verdicts(&kept.stdout), "{name}");
    }
}
