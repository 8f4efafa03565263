//! Drives the real `epipen` executable: every story in `stories/` with its exact output,
//! bad stories with their exact errors and exit codes, and the solver-failure paths.

use std::path::Path;
use std::process::Command;

struct Output {
    code: i32,
    stdout: String,
    stderr: String,
}

fn epipen(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_epipen"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_LOG")
        .output()
        .expect("run epipen");
    Output {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    }
}

/// Writes `source` to a fresh file under target/ and returns its path.
fn story_file(name: &str, source: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stories");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, source).unwrap();
    path.display().to_string()
}

#[track_caller]
fn assert_worlds(story: &str, expected: &str) {
    let out = epipen(&["worlds", story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stdout, expected);
}

#[test]
fn cheryl() {
    assert_worlds(
        "stories/cheryl.story",
        "1 possible world:\n  month = 7, day = 16\n(and that's all)\n",
    );
}

#[test]
fn cheryl_json() {
    let out = epipen(&["worlds", "stories/cheryl.story", "--json"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "{\"worlds\": [{\"month\": 7, \"day\": 16}], \"complete\": true}\n"
    );
}

#[test]
fn cheryl_gabe() {
    assert_worlds(
        "stories/cheryl-gabe.story",
        "1 possible world:\n  month = 7, day = 30\n(and that's all)\n",
    );
}

#[test]
fn cheryl_eve() {
    assert_worlds(
        "stories/cheryl-eve.story",
        "1 possible world:\n  month = 7, day = 26\n(and that's all)\n",
    );
}

#[test]
fn cheryl_eve_complex() {
    assert_worlds(
        "stories/cheryl-eve-complex.story",
        "1 possible world:\n  month = 7, day = 27\n(and that's all)\n",
    );
}

#[test]
fn consecutive_numbers() {
    assert_worlds(
        "stories/consecutive-numbers.story",
        "2 possible worlds:\n  A = 1, B = 2\n  A = 2, B = 3\n(and that's all)\n",
    );
}

#[test]
fn consecutive_numbers_json() {
    let out = epipen(&["worlds", "stories/consecutive-numbers.story", "--json"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "{\"worlds\": [{\"A\": 1, \"B\": 2}, {\"A\": 2, \"B\": 3}], \"complete\": true}\n"
    );
}

#[test]
fn run_prints_each_worlds_statement_where_it_stands() {
    let out = epipen(&["run", "stories/consecutive-numbers.story"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "-- line 18: worlds --\n\
         more than 3 possible worlds; the first 3:\n  A = 1, B = 2\n  A = 2, B = 3\n  A = 3, B = 2\n\
         (more worlds exist; raise the number after `worlds` to see more)\n\
         -- line 25: worlds --\n\
         2 possible worlds:\n  A = 1, B = 2\n  A = 2, B = 3\n(and that's all)\n"
    );
}

#[test]
fn infinite_worlds_print_up_to_the_limit_and_say_more_exist() {
    let story = story_file(
        "infinite.story",
        "characters Anne, Bill\nint A, B\nannounce A >= 0 and B >= 0 and (A == B + 1 or B == A + 1)\n",
    );
    let out = epipen(&["worlds", &story, "--limit", "4"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "more than 4 possible worlds; the first 4:\n  A = 0, B = 1\n  A = 1, B = 0\n  A = 1, B = 2\n  A = 2, B = 1\n\
         (more worlds exist; raise --limit to see more)\n"
    );
    let out = epipen(&["worlds", &story, "--limit", "2", "--json"]);
    assert_eq!(
        out.stdout,
        "{\"worlds\": [{\"A\": 0, \"B\": 1}, {\"A\": 1, \"B\": 0}], \"complete\": false}\n"
    );
}

#[test]
fn contradictory_story_has_zero_worlds_and_succeeds() {
    let story = story_file(
        "contradiction.story",
        "bool rain\nannounce rain\nannounce not rain\n",
    );
    let out = epipen(&["worlds", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "no possible worlds: the announcements contradict each other\n(and that's all)\n"
    );
    let out = epipen(&["worlds", &story, "--json"]);
    assert_eq!(out.stdout, "{\"worlds\": [], \"complete\": true}\n");
}

#[test]
fn booleans_print_as_true_and_false() {
    let story = story_file(
        "bools.story",
        "int n\nbool rain\nannounce n in {1, 2} and (rain <-> n == 2)\n",
    );
    let out = epipen(&["worlds", &story, "--json"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "{\"worlds\": [{\"n\": 1, \"rain\": false}, {\"n\": 2, \"rain\": true}], \"complete\": true}\n"
    );
}

#[test]
fn division_and_modulo_follow_smt_lib_with_zero_defined() {
    let story = story_file(
        "division.story",
        "int x, q, r, z\nannounce x == -7 and q == x / 2 and r == x % 2 and z == x / 0 + x % 0\n",
    );
    let out = epipen(&["worlds", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "1 possible world:\n  x = -7, q = -4, r = 1, z = -7\n(and that's all)\n"
    );
}

#[test]
fn version_names_the_loaded_z3() {
    let out = epipen(&["--version"]);
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        format!("epipen {} (Z3 5.4.0.0)\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_errors_exit_2() {
    let out = epipen(&["worlds"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("<FILE>"), "{}", out.stderr);
    let out = epipen(&["worlds", "stories/cheryl.story", "--limit", "0"]);
    assert_eq!(out.code, 2);
    let out = epipen(&["worlds", "stories/no-such.story"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .starts_with("error: cannot read stories/no-such.story: "),
        "{}",
        out.stderr
    );
    let out = epipen(&["--timeout=-1", "worlds", "stories/cheryl.story"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("`-1` is not a positive number of seconds"),
        "{}",
        out.stderr
    );
}

#[test]
fn timeout_is_a_solver_failure_not_zero_worlds() {
    // Sum and product over a large range: far more than a millisecond of work.
    let story = story_file(
        "slow.story",
        "characters S, P\nint x, y\nannounce 1 < x and x < y and x + y <= 100\n\
         S learns x + y\nP learns x * y\nP: not knows_value(x, y)\nS: knows(not knows_value(P, x, y))\n",
    );
    let out = epipen(&["--timeout", "0.001", "worlds", &story]);
    assert_eq!(out.code, 1, "stdout: {} stderr: {}", out.stdout, out.stderr);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr
            .contains("error: solver failure: the solver ran out of time (timeout)"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("hint: raise --timeout"),
        "{}",
        out.stderr
    );
}

#[test]
fn nonlinear_knowledge_over_infinite_worlds_fails_clearly() {
    let story = story_file(
        "nonlinear.story",
        "characters P\nint x, y\nP learns x * y\nP: knows_value(x)\n",
    );
    let out = epipen(&["worlds", &story]);
    assert_eq!(out.code, 1, "stdout: {} stderr: {}", out.stdout, out.stderr);
    assert_eq!(out.stdout, "");
    assert!(
        out.stderr.starts_with(&format!(
            "{story}:4:1: error: solver failure: quantifier elimination cannot handle this statement"
        )),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("bound every constant"),
        "{}",
        out.stderr
    );
}

#[test]
fn syntax_errors_are_all_reported_with_location_caret_and_hint() {
    let story = story_file(
        "syntax.story",
        "characters Albert\nint month\nannounce month = 5\nannounce (month + ) > 2\nworlds\n",
    );
    let out = epipen(&["worlds", &story]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!(
            "{story}:3:16: error: `=` is not an operator\n  |\n3 | announce month = 5\n  |                ^\n  = hint: use `==` to compare\n\
             {story}:4:19: error: expected an expression, found `)`\n  |\n4 | announce (month + ) > 2\n  |                   ^\n\
             error: {story}: 2 errors found\n"
        )
    );
}

#[test]
fn name_and_type_errors_are_all_reported_with_hints() {
    let story = story_file(
        "names.story",
        "characters Albert, Bernard\nint month, day\nannounce dya > 3\nannounce month + 1\n\
         announce knows(day > 2)\nmonth learns day\n",
    );
    let out = epipen(&["worlds", &story]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!(
            "{story}:3:10: error: unknown name `dya`\n  |\n3 | announce dya > 3\n  |          ^^^\n  = hint: did you mean `day`?\n\
             {story}:4:10: error: expected bool, found int\n  |\n4 | announce month + 1\n  |          ^^^^^^^^^\n\
             {story}:5:10: error: `knows` needs a character here\n  |\n5 | announce knows(day > 2)\n  |          ^^^^^^^^^^^^^^\n  \
             = hint: outside `Albert: …` name the character first, e.g. `knows(Albert, …)`\n\
             {story}:6:1: error: `month` is not a character\n  |\n6 | month learns day\n  | ^^^^^\n  \
             = hint: the characters are `Albert` and `Bernard`\n\
             error: {story}: 4 errors found\n"
        )
    );
}

#[test]
fn an_empty_story_has_one_world_with_no_constants() {
    let story = story_file("empty.story", "# nothing happens\n");
    let out = epipen(&["worlds", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "1 possible world:\n  (no constants)\n(and that's all)\n"
    );
    let out = epipen(&["run", &story]);
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        "note: the story printed nothing; `epipen worlds FILE` prints the worlds at its end\n"
    );
}
