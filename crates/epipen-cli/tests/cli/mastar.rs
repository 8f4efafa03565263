//! `epipen plan FILE`: mA* files (the language of EFP 2.0 and deep) planned on epipen's
//! engine — the plans of `examples/mastar/`, `--json`, `--max`, `--story` (whose `epipen
//! run` gives the same plan), every backend alike, a story's `plan` statements, and
//! located errors with exit code 2.

use indoc::{formatdoc, indoc};

use super::{epipen, story_file};

const COIN: &str = "examples/mastar/coin-in-the-box.txt";
const GRAPEVINE: &str = "examples/mastar/grapevine.txt";

#[test]
fn the_examples_plans() {
    let out = epipen(&["plan", COIN]);
    assert_eq!(
        out.stdout, "plan of 3 actions: call_bob, unlock, peek\n",
        "{}",
        out.stderr
    );
    assert_eq!(out.code, 0);
    let out = epipen(&["plan", GRAPEVINE]);
    assert_eq!(
        out.stdout, "plan of 2 actions: cat_leaves, ann_tells\n",
        "{}",
        out.stderr
    );
    assert_eq!(out.code, 0);
}

#[test]
fn json_and_max() {
    let out = epipen(&["plan", GRAPEVINE, "--json"]);
    assert_eq!(
        out.stdout,
        "{\"solvable\": true, \"length\": 2, \"plan\": [\"cat_leaves\", \"ann_tells\"]}\n"
    );
    assert_eq!(out.code, 0);
    let out = epipen(&["plan", GRAPEVINE, "--max", "1"]);
    assert_eq!(out.stdout, "no plan of at most 1 action\n");
    assert_eq!(out.code, 1);
    let out = epipen(&["plan", COIN, "--max", "2", "--json"]);
    assert_eq!(
        out.stdout,
        "{\"solvable\": false, \"length\": null, \"plan\": []}\n"
    );
    assert_eq!(out.code, 1);
}

/// A goal that holds at the start needs no action.
#[test]
fn a_goal_that_holds_already() {
    let file = story_file(
        "already.txt",
        "fluent p;\naction a;\nagent x;\na causes p;\nx observes a;\n\
         initially p;\ninitially C([x], p);\ngoal B(x, p);\n",
    );
    let out = epipen(&["plan", &file]);
    assert_eq!(
        out.stdout, "plan of 0 actions: (none needed)\n",
        "{}",
        out.stderr
    );
    assert_eq!(out.code, 0);
}

#[test]
fn every_backend_finds_the_same_plans() {
    for file in [COIN, GRAPEVINE] {
        let auto = epipen(&["plan", file, "--json"]);
        for backend in ["bdd", "explicit", "z3"] {
            let other = epipen(&["plan", file, "--json", "--backend", backend]);
            assert_eq!(other.code, 0, "{file} on {backend}: {}", other.stderr);
            assert_eq!(other.stdout, auto.stdout, "{file} on {backend}");
        }
    }
}

/// `--story` prints a story whose `epipen run` plans the same (an action whose
/// observers depend on the state prints as its frame, `ann_tells[1]`), and `epipen plan`
/// answers a story's `plan` statements as `epipen run` does.
#[test]
fn the_story_translation_plans_alike() {
    let story = epipen(&["plan", GRAPEVINE, "--story"]);
    assert_eq!(story.code, 0, "{}", story.stderr);
    assert!(story.stdout.contains("\naction ann_tells[1] if believes(ann, secret_ann) and secret_ann and ben_in_1 and not cat_in_1 {\n"), "{}", story.stdout);
    let path = story_file("grapevine.story", &story.stdout);
    let run = epipen(&["run", &path]);
    let line = story.stdout.lines().count();
    assert_eq!(
        run.stdout,
        format!("line {line}: plan of 2 actions: cat_leaves[0], ann_tells[1]\n")
    );
    assert_eq!(run.code, 0);
    let planned = epipen(&["plan", &path]);
    assert_eq!(planned.stdout, run.stdout);
    assert_eq!(planned.code, 0);
    let json = epipen(&["plan", &path, "--json"]);
    assert_eq!(
        json.stdout,
        format!(
            "{{\"line\": {line}, \"solvable\": true, \"length\": 2, \"plan\": [\"cat_leaves[0]\", \
             \"ann_tells[1]\"]}}\n"
        )
    );
    let none = story_file("no-plan.story", "bool p\nannounce p\ncheck p\n");
    let out = epipen(&["plan", &none]);
    assert_eq!(
        out.stderr,
        format!(
            "error: {none} has no `plan` statement\n  = hint: `epipen plan` answers a story's \
             `plan φ` lines (or an mA* file's goal); `epipen run` runs the rest\n"
        )
    );
    assert_eq!(out.code, 2);
}

/// A file named otherwise is mA* when its first word declares fluents, actions or agents.
#[test]
fn mastar_is_recognised_by_its_content() {
    let source = std::fs::read_to_string(format!("{}/{GRAPEVINE}", super::ROOT)).unwrap();
    let file = story_file("grapevine.domain", &source);
    let out = epipen(&["plan", &file]);
    assert_eq!(
        out.stdout, "plan of 2 actions: cat_leaves, ann_tells\n",
        "{}",
        out.stderr
    );
}

#[test]
fn errors_are_located_with_the_name_and_a_hint() {
    let file = story_file(
        "bad.txt",
        indoc! {"
            fluent heads, opened;
            action open, peek;
            agent anne, bob;
            executable open if B(ane, -opened);
            open causes opend;
            peek determines heads;
            initially heads, -opened;
            goal B(anne, heads);
        "},
    );
    let out = epipen(&["plan", &file]);
    assert_eq!(
        out.stderr,
        formatdoc! {"
            {file}:4:22: error: the agent `ane` is not declared
              |
            4 | executable open if B(ane, -opened);
              |                      ^^^
              = hint: did you mean `anne`?
            {file}:5:13: error: the fluent `opend` is not declared
              |
            5 | open causes opend;
              |             ^^^^^
              = hint: did you mean `opened`?
            error: {file}: 2 errors found
        "}
    );
    assert_eq!(out.stdout, "");
    assert_eq!(out.code, 2);
    let file = story_file(
        "negated.txt",
        "fluent p;\naction a;\nagent x;\na causes p;\ninitially -p;\ngoal -B(x, p);\n",
    );
    let out = epipen(&["plan", &file]);
    assert_eq!(
        out.stderr,
        formatdoc! {"
            {file}:6:7: error: expected a fluent after `-`, found `B`
              |
            6 | goal -B(x, p);
              |       ^
              = hint: a formula is negated in parentheses: `(-B(a, f))`
            error: {file}: 1 error found
        "}
    );
    assert_eq!(out.code, 2);
    let file = story_file(
        "late.txt",
        "fluent p;\naction a;\nagent x;\na causes p;\nfluent q;\n",
    );
    let out = epipen(&["plan", &file]);
    assert!(
        out.stderr.starts_with(&format!(
            "{file}:5:1: error: a `fluent` declaration after a law\n"
        )),
        "{}",
        out.stderr
    );
    assert_eq!(out.code, 2);
    let out = epipen(&["plan", &format!("{file}.missing")]);
    assert!(
        out.stderr.starts_with("error: cannot read "),
        "{}",
        out.stderr
    );
    assert_eq!(out.code, 2);
}
