//! A failing check behaves the same way in every command: the run goes on, every
//! verdict is printed in order, the worlds are printed, and the exit code is 1 at the
//! end; `check --json` and `run --json` give the verdicts as data.

use indoc::indoc;
use serde_json::{Value, json};

use super::{epipen, story_file};

/// Line 5's check fails, line 6's holds, then the worlds.
const FAILING: &str = indoc! {"
    characters A
    bool p, q
    actual p and not q
    A learns p
    check knows(A, q)
    check actual knows(A, p)
    worlds
"};

#[test]
fn every_command_goes_on_past_a_failing_check_and_exits_with_1() {
    let path = story_file("failing-check.story", FAILING);
    let out = epipen(&["run", &path]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        indoc! {"
            check line 5: fails in the world p = false, q = false
            check line 6: holds
            -- line 7: worlds --
            4 possible worlds:
              p = false, q = false
              p = false, q = true
              p = true, q = false
              p = true, q = true
            (and that's all)
        "}
    );
    assert_eq!(out.stderr, "");
    // `worlds`: the worlds on stdout, the failing verdict on stderr.
    let out = epipen(&["worlds", &path]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "4 possible worlds:\n  p = false, q = false\n  p = false, q = true\n  p = true, q = false\n  \
         p = true, q = true\n(and that's all)\n"
    );
    assert_eq!(
        out.stderr,
        "check line 5: fails in the world p = false, q = false\n"
    );
    // `graph`: the model at the end all the same.
    let out = epipen(&["graph", &path]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("graph epistemic_model {"),
        "{}",
        out.stdout
    );
    assert_eq!(
        out.stderr,
        "check line 5: fails in the world p = false, q = false\n"
    );
    let out = epipen(&["check", &path]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        indoc! {"
            line 5: check `knows(A, q)` fails in the world p = false, q = false
            line 6: check actual `knows(A, p)` holds
            1 check holds, 1 fails
        "}
    );
}

#[test]
fn a_refuted_hint_is_printed_by_run_and_the_run_goes_on() {
    let path = story_file(
        "refuted-hint.story",
        indoc! {"
            characters A
            int x
            announce x >= 0 and x <= 2
            assert_adds_ck x == 0 {
              announce x < 2
            }
            worlds
        "},
    );
    let out = epipen(&["run", &path]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        indoc! {"
            hint line 4: refuted: counterexample x = 1 (the block keeps this world but the hint rules it out)
            -- line 7: worlds --
            2 possible worlds:
              x = 0
              x = 1
            (and that's all)
        "}
    );
}

fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn check_json_gives_the_verdicts_in_order_and_their_tally() {
    let path = story_file("failing-check-json.story", FAILING);
    let out = epipen(&["check", "--json", &path]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(
        json_of(&out.stdout),
        json!({
            "reports": [
                {"kind": "check", "line": 5, "formula": "knows(A, q)", "holds": false,
                 "world": {"p": false, "q": false}},
                {"kind": "check", "line": 6, "formula": "knows(A, p)", "holds": true},
            ],
            "tally": {"checks_hold": 1, "checks_fail": 1, "hints_verified": 0,
                      "hints_refuted": 0, "hints_trusted": 0, "vacuous": 0,
                      "plans_found": 0, "plans_not_found": 0},
        })
    );
    // A story whose checks hold exits with 0.
    let out = epipen(&["check", "--json", "stories/russian-cards.story"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let tally = &json_of(&out.stdout)["tally"];
    assert_eq!(
        (&tally["checks_hold"], &tally["checks_fail"]),
        (&json!(4), &json!(0))
    );
}

#[test]
fn run_json_gives_the_reports_the_worlds_and_the_tally() {
    let path = story_file("failing-run-json.story", FAILING);
    let out = epipen(&["run", "--json", "--limit", "1", &path]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let answer = json_of(&out.stdout);
    let kinds: Vec<&str> = (answer["reports"].as_array().unwrap().iter())
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["check", "check", "worlds"]);
    assert_eq!(answer["reports"][0]["holds"], json!(false));
    // The worlds at the end, at most --limit of them.
    assert_eq!(
        answer["worlds"],
        json!({"worlds": [{"p": false, "q": false}], "complete": false})
    );
    assert_eq!(answer["tally"]["checks_fail"], json!(1));
    // Nothing else is printed.
    assert_eq!(out.stderr, "");
}
