//! What a new user runs into first: the logs, `--stats`, the limits of `--limit`,
//! `graph --svg` and `sweep --samples` (issue 11's loose ends).

use indoc::indoc;

use super::{epipen, story_file};

#[test]
fn debug_logs_off_a_terminal_have_no_colour_and_name_lines_and_columns() {
    let out = epipen(&["-vv", "worlds", "stories/cheryl.story"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(!out.stderr.contains('\x1b'), "{}", out.stderr);
    assert!(!out.stderr.contains("stats:"), "{}", out.stderr);
    let done: Vec<&str> = out
        .stderr
        .lines()
        .filter_map(|l| l.split_once(" DEBUG line ").map(|(_, rest)| rest))
        .collect();
    assert_eq!(done.len(), 7, "{}", out.stderr);
    // `8:1: done in 0.021 ms, κ 10 worlds: announce (month, day) in {(5, 15), …`
    let (place, rest) = done[0].split_once(": done in ").unwrap();
    assert_eq!(place, "8:1");
    let (ms, rest) = rest.split_once(" ms, ").unwrap();
    assert_eq!(ms.split_once('.').map(|(_, d)| d.len()), Some(3), "{ms}");
    assert_eq!(
        rest,
        "κ 10 worlds: announce (month, day) in {(5, 15), (5, 16), (5, 19), (6, 17), (6, 18), …"
    );
    assert!(done[6].starts_with("27:1: done in "), "{}", done[6]);
    assert!(done[6].ends_with(" ms, κ 1 worlds: Albert: knows_value(month, day)"));
}

#[test]
fn stats_columns_line_up_and_show_each_statement_on_one_line() {
    let out = epipen(&["--stats", "worlds", "stories/who-has-the-sum.story"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert!(lines.len() > 5);
    // Every column starts at the same place: `κ` and the statement.
    let column = |line: &str, what: &str| line.find(what).unwrap();
    for line in &lines {
        assert!(line.starts_with("stats: line "), "{line}");
        assert_eq!(column(line, "κ"), column(lines[0], "κ"), "{line}");
    }
    let statements: Vec<usize> = lines
        .iter()
        .map(|l| l.find(" nodes  ").or(l.find(" worlds ")).unwrap())
        .collect();
    assert!(
        statements.iter().all(|&s| s == statements[0]),
        "{}",
        out.stderr
    );
    let block = lines.iter().find(|l| l.contains("assert_adds_ck")).unwrap();
    assert!(
        block.ends_with("  assert_adds_ck B != C {Anne: not knows_value(A)}"),
        "{block}"
    );
    let first = lines[0];
    assert!(
        first.starts_with("stats: line   10 ")
            && first.contains(" ms  κ        18 nodes   announce A > 0 and B > 0"),
        "{first}"
    );
}

#[test]
fn limit_zero_says_what_the_limit_is() {
    let out = epipen(&["worlds", "stories/cheryl.story", "--limit", "0"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with(
            "error: invalid value '0' for '--limit <LIMIT>': the limit is how many worlds to \
             print at most, and 0 would print none: give 1 or more\n"
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn svg_into_a_missing_directory_is_one_clear_error() {
    let out = epipen(&[
        "graph",
        "stories/cheryl.story",
        "--svg",
        "no/such/dir/model.svg",
    ]);
    assert_eq!((out.code, out.stdout.as_str()), (2, ""));
    assert_eq!(
        out.stderr,
        indoc! {"
            error: --svg no/such/dir/model.svg: the directory no/such/dir does not exist
              = hint: create it first (`mkdir -p no/such/dir`)
        "}
    );
}

#[test]
fn samples_of_a_story_without_sample_say_so() {
    let out = epipen(&["sweep", "stories/cheryl.story", "--samples", "5"]);
    assert_eq!((out.code, out.stdout.as_str()), (2, ""));
    assert_eq!(
        out.stderr,
        indoc! {"
            error: --samples: stories/cheryl.story draws nothing with `sample(k, {…})`, so every seed would run the same story
              = hint: draw the story's values with `(…) in sample(k, {…})`, or sweep --set values instead
        "}
    );
    // A story that draws is swept.
    let drawn = story_file(
        "drawn.story",
        "characters A\nint x\nannounce x in sample(1, {1, 2, 3})\nworlds\n",
    );
    let out = epipen(&["sweep", &drawn, "--samples", "3"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

/// The README's table of stories names every story of `stories/`, and the install
/// line builds the locked versions.
#[test]
fn the_readme_lists_every_story_and_installs_locked() {
    let root = std::path::Path::new(super::ROOT);
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("stories")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".story") && !readme.contains(&format!("| `stories/{name}` |")) {
            missing.push(name);
        }
    }
    missing.sort();
    assert!(missing.is_empty(), "not in README's table: {missing:?}");
    assert!(readme.contains("cargo install --locked --path crates/epipen-cli"));
}

/// Each command's help lists the options it takes, `--timeout` worded as it applies
/// there (the whole command, or each run); an option before a command that does not
/// take it is an error, one it takes works before it as after it.
#[test]
fn each_command_lists_its_own_options() {
    let help = |command: &str| {
        let out = epipen(&[command, "--help"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let worlds = help("worlds");
    assert!(worlds.contains("--timeout <SECS> Give up after this many seconds (exit code 1), at most 1e9: the whole command"), "{worlds}");
    for option in ["--set", "--seed", "--backend", "--stats"] {
        assert!(worlds.contains(option), "worlds: {option}");
    }
    let serve = help("serve");
    assert!(
        serve.contains("--timeout <SECS> Give up each solve after this many seconds"),
        "{serve}"
    );
    for option in ["--set", "--seed", "--backend", "--stats"] {
        assert!(!serve.contains(option), "serve lists {option}: {serve}");
    }
    let sweep = help("sweep");
    assert!(
        sweep.contains("--timeout <SECS> Give up each run after this many seconds"),
        "{sweep}"
    );
    assert!(sweep.contains("n=1..10 (both ends included)"), "{sweep}");
    assert!(!sweep.contains("--stats"), "{sweep}");
    let bench = help("bench");
    assert!(
        bench.contains("--timeout <SECS> Kill a run after this many seconds"),
        "{bench}"
    );

    let out = epipen(&["--set", "n=3", "serve"]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: --set does not apply to `epipen serve` (`epipen serve --help` lists its options)\n"
    );
    let before = epipen(&[
        "--set",
        "n=2",
        "--seed",
        "1",
        "worlds",
        "stories/muddy-children.story",
    ]);
    let after = epipen(&[
        "worlds",
        "stories/muddy-children.story",
        "--set",
        "n=2",
        "--seed",
        "1",
    ]);
    assert_eq!(before.code, 0, "{}", before.stderr);
    assert_eq!(before.stdout, after.stdout);
}
