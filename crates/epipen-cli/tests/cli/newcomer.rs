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
    // First, which backend runs the story.
    let (backend, rest) = out.stderr.split_once('\n').unwrap();
    assert_eq!(backend, "stats: backend: z3");
    let lines: Vec<&str> = rest.lines().collect();
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

/// The exit codes are described once, in the same words, by `epipen --help`, the
/// README and docs/language.md § Errors.
#[test]
fn the_exit_codes_are_described_the_same_way_everywhere() {
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let out = epipen(&["--help"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let help = words(&out.stdout);
    let start = help
        .find("Exit codes: ")
        .expect("--help describes the exit codes");
    let end = start + help[start..].find("story error.").expect("its end") + "story error.".len();
    let sentence = &help[start..end];
    assert!(sentence.contains("1 a check that fails"), "{sentence}");
    let root = std::path::Path::new(super::ROOT);
    for doc in ["README.md", "docs/language.md"] {
        let text = words(&std::fs::read_to_string(root.join(doc)).unwrap());
        assert!(text.contains(sentence), "{doc} does not say: {sentence}");
        assert_eq!(text.matches("Exit codes:").count(), 1, "{doc}");
    }
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

/// The options section of `epipen COMMAND --help`, line by line.
fn options_of(command: &str) -> Vec<String> {
    let out = epipen(&[command, "--help"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let (_, options) = out
        .stdout
        .split_once("\nOptions:\n")
        .expect("an options section");
    options
        .lines()
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// `check` and `serve` list exactly their own options: `check --json` and a story command's (`--set`,
/// `--seed`, `--backend`, `--stats`, the whole command's `--timeout`), the playground's
/// (`--host`, `--port`, `--open`, each solve's `--timeout`), and `-v` for both.
#[test]
fn check_and_serve_help_list_exactly_their_options() {
    assert_eq!(
        options_of("check"),
        [
            "      --json               Print one JSON object instead of text: {\"reports\": [...], \"tally\": {...}} (the verdicts, shows and plans in story order, and how many hold and fail)",
            "      --timeout <SECS>     Give up after this many seconds (exit code 1), at most 1e9: the whole command, reading and compiling included",
            "      --stats              Print on stderr which backend runs the story, then each statement's time and κ's size after it",
            "      --set <NAME=VALUE>   Override a `const` of the story, e.g. --set n=8 (repeatable)",
            "      --seed <SEED>        Seed of the story's `sample(k, {…})` draws [default: 0]",
            "      --backend <BACKEND>  Which backend runs the story: explicit worlds when the first announcements bound every constant, BDDs for larger stories of bools and enums, Z3 otherwise (auto); a backend named here that does not fit the story is an error (exit code 2) [default: auto] [possible values: auto, z3, bdd, explicit]",
            "  -v, --verbose...         Log to stderr: -v info, -vv debug, -vvv trace (RUST_LOG overrides)",
            "  -h, --help               Print help",
        ]
    );
    assert_eq!(
        options_of("serve"),
        [
            "      --host <HOST>     The address to listen on (127.0.0.1: this machine only) [default: 127.0.0.1]",
            "      --port <PORT>     The port (0 picks a free one) [default: 8765]",
            "      --open            Open the playground in the browser (with xdg-open)",
            "      --timeout <SECS>  Give up each solve after this many seconds, at most 1e9 (a page may ask for less) [default: 10]",
            "  -v, --verbose...      Log to stderr: -v info, -vv debug, -vvv trace (RUST_LOG overrides)",
            "  -h, --help            Print help",
        ]
    );
    // The forms the README and the tests use keep working: a story command's options
    // before it, and after it.
    for args in [
        &[
            "--timeout",
            "30",
            "--backend",
            "explicit",
            "check",
            "stories/russian-cards.story",
        ][..],
        &[
            "check",
            "stories/russian-cards.story",
            "--timeout",
            "30",
            "--backend",
            "explicit",
        ],
    ] {
        let out = epipen(args);
        assert_eq!(out.code, 0, "{args:?}: {}", out.stderr);
    }
}

/// `cargo install --path crates/epipen-cli` resolves the command's own dependencies
/// only (no dev-dependencies), and cargo warns about a `[profile.*.package.NAME]` of the
/// root Cargo.toml that names a package outside them (`profile package spec
/// 'epipen-bruteforce' in profile 'dev' did not match any packages`): such settings of
/// test-only crates belong in .cargo/config.toml, where cargo does not warn.
#[test]
fn cargo_install_finds_every_package_a_profile_names() {
    let root = std::path::Path::new(super::ROOT);
    let manifest = |dir: &str| std::fs::read_to_string(root.join(dir).join("Cargo.toml")).unwrap();
    // The workspace's crates the command depends on (not as dev-dependencies).
    let mut reached = vec!["epipen-cli".to_string()];
    let mut k = 0;
    while k < reached.len() {
        let text = manifest(&format!("crates/{}", reached[k]));
        let dependencies = text
            .split("\n[dependencies]\n")
            .nth(1)
            .map_or("", |rest| rest.split("\n[").next().unwrap_or(""));
        for line in dependencies.lines() {
            let name = line.split(['.', '=', ' ']).next().unwrap_or("").trim();
            if name.starts_with("epipen") && !reached.iter().any(|r| r == name) {
                reached.push(name.to_string());
            }
        }
        k += 1;
    }
    assert!(reached.iter().any(|r| r == "epipen-engine"), "{reached:?}");
    let workspace = manifest(".");
    for section in workspace.lines().filter(|l| l.starts_with("[profile.")) {
        let Some((_, package)) = section.trim_end_matches(']').split_once(".package.") else {
            continue;
        };
        let package = package.trim_matches('"');
        assert!(
            package == "*"
                || !package.starts_with("epipen")
                || reached.iter().any(|r| r == package),
            "Cargo.toml's {section} names a crate `cargo install --path crates/epipen-cli` does not build: move it to .cargo/config.toml"
        );
    }
    let config = std::fs::read_to_string(root.join(".cargo/config.toml")).unwrap();
    assert!(config.contains("\n[profile.dev.package.epipen-bruteforce]\nopt-level = 2\n"));
}

/// docs/tutorial.md is replayed: each `story` block is saved as `tutorial.story`, and
/// each `sh` block's command prints exactly the `text` block after it.
#[test]
fn the_tutorial_prints_what_it_shows() {
    let root = std::path::Path::new(super::ROOT);
    let tutorial = std::fs::read_to_string(root.join("docs/tutorial.md")).unwrap();
    // The fenced blocks, with their tags, in order.
    let mut blocks: Vec<(String, String)> = Vec::new();
    let mut lines = tutorial.lines();
    while let Some(line) = lines.next() {
        if let Some(tag) = line.strip_prefix("```") {
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            blocks.push((tag.to_string(), body.join("\n") + "\n"));
        }
    }
    let (mut story, mut replayed) = (None, 0);
    for (i, (tag, body)) in blocks.iter().enumerate() {
        match tag.as_str() {
            "story" => story = Some(story_file("tutorial.story", body)),
            "sh" => {
                let path = story.as_ref().expect("a story before the command");
                let args: Vec<&str> = body.split_whitespace().collect();
                assert_eq!(args.first(), Some(&"epipen"), "{body}");
                assert_eq!(args.last(), Some(&"tutorial.story"), "{body}");
                let mut args = args[1..args.len() - 1].to_vec();
                args.push(path);
                let out = epipen(&args);
                assert!(out.code <= 1, "{body}: {}", out.stderr);
                let (next, expected) = &blocks[i + 1];
                assert_eq!(
                    next, "text",
                    "{body}: the block after a command shows its output"
                );
                assert_eq!(&out.stdout, expected, "{body}");
                replayed += 1;
            }
            _ => {}
        }
    }
    assert_eq!(replayed, 5);
}
