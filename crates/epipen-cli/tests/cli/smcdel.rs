//! `epipen smcdel FILE`: SMCDEL's text format answered on epipen's engine. Every file
//! of `examples/smcdel/` prints its answers (`NAME.answers`, written by hand and checked
//! against the story translation on every backend), `--json`, `--story` (which `epipen
//! check` and `epipen run` answer alike), and located errors.

use std::path::Path;

use indoc::{formatdoc, indoc};

use super::{ROOT, epipen, story_file};

/// The files of `examples/smcdel/`, by name without `.smcdel.txt`.
fn examples() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("examples/smcdel"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter_map(|f| f.strip_suffix(".smcdel.txt").map(String::from))
        .collect();
    names.sort();
    names
}

/// Each example's answers: `examples/smcdel/NAME.answers` (`EPIPEN_BLESS=1` writes
/// them anew), the same on the `bdd` backend, and on the `z3` and explicit ones unless
/// they refuse the story's quantifiers by name (the explicit backend any quantifier,
/// Z3 one around knowledge: a `TRUE?` at a state the LAW rules out, `Forall 1 K a 1`).
#[test]
fn every_smcdel_example_answers() {
    let bless = std::env::var_os("EPIPEN_BLESS").is_some();
    let names = examples();
    assert!(names.len() >= 4, "{names:?}");
    let mut wrong = Vec::new();
    for name in &names {
        let file = format!("examples/smcdel/{name}.smcdel.txt");
        let out = epipen(&["smcdel", &file]);
        assert_eq!(out.code, 0, "epipen smcdel {file}: {}", out.stderr);
        let answers = Path::new(ROOT).join(format!("examples/smcdel/{name}.answers"));
        if bless {
            std::fs::write(&answers, &out.stdout).unwrap();
        } else if std::fs::read_to_string(&answers).ok().as_deref() != Some(&out.stdout) {
            wrong.push(name.clone());
        }
        let json = epipen(&["smcdel", &file, "--json"]);
        assert_eq!(json.code, 0, "{}", json.stderr);
        for backend in ["bdd", "z3", "explicit"] {
            let other = epipen(&["smcdel", &file, "--json", "--backend", backend]);
            if backend != "bdd" && other.code == 2 {
                assert!(
                    other.stderr.contains("quantifier over constants")
                        || other
                            .stderr
                            .contains("cannot quantify over constants around knowledge"),
                    "{file}: {}",
                    other.stderr
                );
                continue;
            }
            assert_eq!(other.code, 0, "{file} on {backend}: {}", other.stderr);
            assert_eq!(other.stdout, json.stdout, "{file} on {backend}");
        }
    }
    assert!(
        wrong.is_empty(),
        "these differ from what the files print now (EPIPEN_BLESS=1 writes them): {wrong:?}"
    );
}

/// `--story` prints a story whose `epipen check` gives each `TRUE?` and `VALID?` its
/// answer (holds / fails, in order), and whose `epipen run` lists as many worlds for
/// each `WHERE?` as it has states.
#[test]
fn the_story_translation_gives_the_same_answers() {
    for name in examples() {
        let file = format!("examples/smcdel/{name}.smcdel.txt");
        let json = epipen(&["smcdel", &file, "--json"]);
        let jobs: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
        let jobs = jobs["jobs"].as_array().unwrap().clone();
        let story = epipen(&["smcdel", &file, "--story"]);
        assert_eq!(story.code, 0, "{}", story.stderr);
        let path = story_file(&format!("{name}.story"), &story.stdout);
        let check = epipen(&["check", &path]);
        let verdicts: Vec<bool> = (check.stdout.lines())
            .filter(|l| l.starts_with("line "))
            .map(|l| l.ends_with(" holds"))
            .collect();
        let expected: Vec<bool> = (jobs.iter())
            .filter(|j| j["kind"] != "where")
            .map(|j| j["answer"].as_bool().unwrap())
            .collect();
        assert_eq!(verdicts, expected, "{file}: {}", check.stdout);
        assert_eq!(check.code, i32::from(expected.contains(&false)), "{file}");
        // `epipen run` stops at a check that fails: the `where`s alone.
        let wheres: String = (story.stdout.lines())
            .filter(|l| !l.starts_with("check "))
            .map(|l| format!("{l}\n"))
            .collect();
        let path = story_file(&format!("{name}-where.story"), &wheres);
        let run = epipen(&["run", &path]);
        let counts: Vec<usize> = (run.stdout.lines())
            .filter_map(|l| {
                if l.starts_with("no possible world where it holds") {
                    Some(0)
                } else {
                    l.split_once(" possible world")
                        .and_then(|(n, _)| n.parse().ok())
                }
            })
            .collect();
        let expected: Vec<usize> = (jobs.iter())
            .filter(|j| j["kind"] == "where")
            .map(|j| j["answer"].as_array().unwrap().len())
            .collect();
        assert_eq!(counts, expected, "{file}: {}", run.stdout);
    }
}

#[test]
fn answers_in_words_close_to_smcdels() {
    let file = story_file(
        "muddy.smcdel.txt",
        indoc! {"
            -- two muddy children
            VARS 1,2
            LAW Top
            OBS a: 2
                 b: 1

            TRUE? {1,2} a knows that 2 & ~ a knows whether 1
            VALID? [! 1 | 2] [! ~ a knows whether 1 & ~ b knows whether 2] (1 & 2)
            WHERE? <! 1 | 2>  -- someone is muddy
              a knows whether 1
            WHERE? 1 & ~1
        "},
    );
    let out = epipen(&["smcdel", &file]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        indoc! {"
            Is a knows that 2 & ~ a knows whether 1 true at [1,2]?
            True

            Is [! 1 | 2] [! ~ a knows whether 1 & ~ b knows whether 2] (1 & 2) valid?
            True

            At which states is <! 1 | 2> a knows whether 1 true?
            [1]

            At which states is 1 & ~1 true?

        "}
    );
    let out = epipen(&["smcdel", &file, "--json"]);
    assert_eq!(
        out.stdout,
        "{\"jobs\": [{\"kind\": \"true\", \"line\": 7, \"answer\": true}, \
         {\"kind\": \"valid\", \"line\": 8, \"answer\": true}, \
         {\"kind\": \"where\", \"line\": 9, \"answer\": [[1]]}, \
         {\"kind\": \"where\", \"line\": 11, \"answer\": []}]}\n"
    );
    let out = epipen(&["smcdel", &file, "--story"]);
    assert_eq!(
        out.stdout,
        formatdoc! {"
            # {file}, SMCDEL's format as an epipen story
            characters a, b
            bool p1, p2
            announce true
            a learns p2
            b learns p1
            # line 7: TRUE? {{1,2}} a knows that 2 & ~ a knows whether 1
            check p1 and p2 -> knows(a, p2) and not (knows(a, p1) or knows(a, not p1))
            # line 8: VALID? [! 1 | 2] [! ~ a knows whether 1 & ~ b knows whether 2] (1 & 2)
            check [! p1 or p2] [! not (knows(a, p1) or knows(a, not p1)) and not (knows(b, p2) or knows(b, not p2))] (p1 and p2)
            # line 9: WHERE? <! 1 | 2> a knows whether 1
            where <! (p1 or p2)> (knows(a, p1) or knows(a, not p1))
            # line 11: WHERE? 1 & ~1
            where p1 and not p1
        "}
    );
}

/// `-` reads the file from the standard input, as SMCDEL's command does.
#[test]
fn the_standard_input_is_a_file() {
    let file = "VARS 1\nLAW Top\nOBS a: 1\nVALID? a knows whether 1\nVALID? b knows that 1\n";
    let out = super::epipen_reading(&["smcdel", "-", "--json"], file);
    assert_eq!(out.code, 2);
    let stderr = out.stderr;
    assert!(
        stderr.starts_with("<stdin>:5:8: error: the agent `b` is not declared by an `OBS` line"),
        "{stderr}"
    );
}

/// Syntax errors, atoms outside `VARS` and agents no `OBS` line declares: exit code 2,
/// at their place, with a hint.
#[test]
fn mistakes_are_located() {
    let file = story_file(
        "bad.smcdel.txt",
        "VARS 1,2\nLAW Top\nOBS alice: 1\nVALID? alice knows that 3\nVALID? bob knows that 1\nTRUE? {4} 1\n",
    );
    let out = epipen(&["smcdel", &file]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        formatdoc! {"
            {file}:4:25: error: the atom 3 is not in `VARS`
              |
            4 | VALID? alice knows that 3
              |                         ^
              = hint: `VARS` declares 1, 2
            {file}:5:8: error: the agent `bob` is not declared by an `OBS` line
              |
            5 | VALID? bob knows that 1
              |        ^^^
              = hint: `OBS` declares `alice`
            {file}:6:8: error: the atom 4 is not in `VARS`
              |
            6 | TRUE? {{4}} 1
              |        ^
              = hint: `VARS` declares 1, 2
            error: {file}: 3 errors found
        "}
    );
    let file = story_file("syntax.smcdel.txt", "VARS 1,2\nLAW 1 &\nOBS alice: 1\n");
    let out = epipen(&["smcdel", &file]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with(&format!(
            "{file}:3:1: error: expected a formula, found `OBS`\n"
        )),
        "{}",
        out.stderr
    );
    for (source, message) in [
        (
            "VARS 1\nLAW 1 = 1\nOBS a: 1\n",
            "2:7: error: unexpected character `=`",
        ),
        (
            "VARS 1\nLAW K a 1\nOBS a: 1\n",
            "2:5: error: the `LAW` is a boolean formula",
        ),
        (
            "VARS 1\nLAW Top\nOBS a: 7\n",
            "3:8: error: the atom 7 is not in `VARS`",
        ),
        (
            "VARS 1\nLAW Top\nOBS a: 1\nVALID? Forall 2 1\n",
            "4:15: error: the atom 2 is not in `VARS`",
        ),
        (
            "VARS 1\nLAW Top\nOBS a: 1\nVALID? [b ! 1] 1\n",
            "4:9: error: the agent `b` is not declared",
        ),
        (
            "VARS 1\nLAW Top\nOBS a: 1\nVALID? a, a knows that 1\n",
            "4:13: error: expected `comknow that`",
        ),
        (
            "LAW Top\n",
            "1:1: error: expected `VARS` at the start, found `LAW`",
        ),
    ] {
        let file = story_file("mistake.smcdel.txt", source);
        let out = epipen(&["smcdel", &file]);
        assert_eq!(out.code, 2, "{source}");
        assert!(
            out.stderr.starts_with(&format!("{file}:{message}")),
            "{source}: {}",
            out.stderr
        );
    }
}
