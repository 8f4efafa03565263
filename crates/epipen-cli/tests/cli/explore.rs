//! The explorer commands: `run --trace`, `graph` / `worlds --dot`, `sweep`.

use indoc::indoc;

use super::{epipen, story_file};

/// The JSON lines of `epipen run --trace --json` with their "kind".
fn trace_json(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["run", "--trace", "--json"];
    all.extend_from_slice(args);
    let out = epipen(&all);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    out.stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

#[test]
fn cheryl_traces_10_5_3_1() {
    let out = epipen(&["run", "--trace", "stories/cheryl.story"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let steps: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("  =>  "))
        .collect();
    assert_eq!(
        steps,
        [
            "start  =>  infinitely many worlds",
            "line 8: announce (month, day) in {(5, 15), (5, 16), (5, 19), (6, 17), (6, 18), …  =>  10 worlds",
            "line 16: Albert learns month  =>  10 worlds (unchanged)",
            "line 17: Bernard learns day  =>  10 worlds (unchanged)",
            "line 18: checkpoint whispered  =>  10 worlds (unchanged)",
            "line 21: Albert: not knows_value(month, day) and knows(not knows_value(Bernard, …  =>  5 worlds (5 eliminated)",
            "line 24: Bernard: not at(whispered, knows_value(month, day)) and knows_value(mon…  =>  3 worlds (2 eliminated)",
            "line 27: Albert: knows_value(month, day)  =>  1 world (2 eliminated)",
        ]
    );
    // The worlds are listed under a step that changed them, when few.
    assert!(out.stdout.contains(
        "(2 eliminated)\n    month = 8, day = 15\n    month = 7, day = 16\n    month = 8, day = 17\nline 27"
    ));
    // Which statement eliminated each of the ten dates.
    let fates = out
        .stdout
        .split("-- which statement")
        .nth(1)
        .expect("fates");
    let fate = |date: &str| {
        fates
            .lines()
            .find(|l| l.trim_start().starts_with(date))
            .map(|l| l[date.len() + 2..].trim().to_string())
            .unwrap_or_else(|| panic!("no line for {date}"))
    };
    assert!(fates.starts_with(" eliminated each of the 10 worlds possible after line 8 --\n"));
    assert!(fate("month = 5, day = 15").starts_with("line 21: Albert:"));
    assert!(fate("month = 7, day = 14").starts_with("line 24: Bernard:"));
    assert!(fate("month = 8, day = 17").starts_with("line 27: Albert: knows_value"));
    assert_eq!(fate("month = 7, day = 16"), "still possible");
}

#[test]
fn trace_json_has_one_object_per_step_and_the_fates() {
    let lines = trace_json(&["stories/cheryl.story", "--limit", "3"]);
    let steps: Vec<&serde_json::Value> = lines.iter().filter(|l| l["kind"] == "step").collect();
    let counts: Vec<String> = steps.iter().map(|s| s["worlds"].to_string()).collect();
    assert_eq!(
        counts,
        ["\"infinite\"", "10", "10", "10", "10", "5", "3", "1"]
    );
    let albert = &steps[5];
    assert_eq!(albert["line"], 21);
    assert_eq!(
        albert["event"],
        "Albert: not knows_value(month, day) and knows(not knows_value(Bernard, month, day))"
    );
    assert_eq!(albert["eliminated"].as_array().map(Vec::len), Some(5));
    // The list only when --limit allows it.
    assert!(albert.get("list").is_none());
    assert_eq!(
        steps[6]["list"],
        serde_json::json!([
            {"month": 8, "day": 15}, {"month": 7, "day": 16}, {"month": 8, "day": 17}
        ])
    );
    let fates = lines.last().expect("fates");
    assert_eq!(fates["kind"], "fates");
    assert_eq!(fates["since"], 8);
    let survivor: Vec<&serde_json::Value> = fates["fates"]
        .as_array()
        .expect("fates")
        .iter()
        .filter(|f| f["eliminated_by"].is_null())
        .collect();
    assert_eq!(
        survivor,
        [&serde_json::json!({"world": {"month": 7, "day": 16}, "eliminated_by": null})]
    );
    // An eliminated world names the step, as the text trace does.
    assert_eq!(
        fates["fates"][0],
        serde_json::json!({
            "world": {"month": 7, "day": 14},
            "eliminated_by": 24,
            "label": "line 24: Bernard: not at(whispered, knows_value(month, day)) and knows_value(mon…"
        })
    );
}

#[test]
fn trace_folds_unrolled_statements_and_keeps_the_rounds() {
    let lines = trace_json(&[
        "stories/muddy-children.story",
        "--set",
        "n=3",
        "--set",
        "k=2",
    ]);
    let kinds: Vec<String> = lines
        .iter()
        .map(|l| match l["kind"].as_str() {
            Some("step") => format!("{} {}", l["label"].as_str().unwrap_or("?"), l["worlds"]),
            Some("reveal") => format!("round {} {}", l["round"], l["said"]),
            other => format!("{other:?}"),
        })
        .collect();
    let repeat = "repeat max n + 1 {checkpoint round_start simultaneously {for i in 0..n …";
    assert_eq!(
        kinds,
        [
            "start 8".to_string(),
            "line 11: actual all(i in 0..n: muddy[i] == (i < k)) 8".to_string(),
            // Six `learns` from one line of the story, none changing the worlds: one step.
            "line 16 (i in 0..3, j in 0..3): child[i] learns muddy[j] (6 steps) 8".to_string(),
            "line 21: announce any(i in 0..n: muddy[i]) 7".to_string(),
            "round 1 \"not knows_value(muddy[0])\"".to_string(),
            "round 1 \"not knows_value(muddy[1])\"".to_string(),
            "round 1 \"not knows_value(muddy[2])\"".to_string(),
            // One step per round of the `repeat`.
            format!("line 26, round 1: {repeat} 4"),
            "round 2 \"knows_value(muddy[0])\"".to_string(),
            "round 2 \"knows_value(muddy[1])\"".to_string(),
            "round 2 \"not knows_value(muddy[2])\"".to_string(),
            format!("line 26, round 2: {repeat} 1"),
            "round 3 \"knows_value(muddy[0])\"".to_string(),
            "round 3 \"knows_value(muddy[1])\"".to_string(),
            "round 3 \"knows_value(muddy[2])\"".to_string(),
            "Some(\"repeat\")".to_string(),
            format!("line 26, round 3: {repeat} 1"),
            "Some(\"worlds\")".to_string(),
            "line 35: worlds 1".to_string(),
            "Some(\"fates\")".to_string(),
        ]
    );
    let rounds: Vec<&serde_json::Value> = lines.iter().filter_map(|l| l.get("round")).collect();
    assert_eq!(
        rounds.len(),
        12,
        "nine reveals and three steps name their round"
    );
    // Each world eliminated by the `repeat` names its round.
    let fates = lines.last().expect("fates");
    let by_round: Vec<String> = fates["fates"]
        .as_array()
        .expect("fates")
        .iter()
        .map(|f| format!("{} {}", f["eliminated_by"], f["round"]))
        .collect();
    assert_eq!(
        by_round,
        [
            "21 null",
            "26 1",
            "26 1",
            "26 2",
            "26 1",
            "26 2",
            "null null",
            "26 2"
        ]
    );
}

/// A world is followed by its values at the start: after `x := x + 1` the world that
/// started at 0 is eliminated by the announcement that rules out its new value, and
/// after an event it lives on as the worlds it became.
#[test]
fn trace_follows_worlds_through_changes_and_events() {
    let change = story_file(
        "trace-change.story",
        "characters A\nint x\nannounce x >= 0 and x <= 2\nx := x + 1\nannounce x >= 2\n",
    );
    let out = epipen(&["run", "--trace", &change]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert!(
        out.stdout.ends_with(indoc! {"
            -- which statement eliminated each of the 3 worlds possible after line 3 --
              x = 0  line 5: announce x >= 2
              x = 1  still possible
              x = 2  still possible
        "}),
        "{}",
        out.stdout
    );
    let sally = story_file(
        "trace-event.story",
        indoc! {"
            characters Anne, Sally
            enum Place { basket, box }
            Place marble
            announce marble == basket
            actual marble == basket
            event move {
              moved if marble == basket then marble := box
              stayed
              Anne sees moved | stayed
              actual moved
            }
        "},
    );
    let out = epipen(&["run", &sally]);
    assert_eq!(
        out.stdout,
        "move: moved (Anne saw moved; Sally saw moved or stayed)\n"
    );
    let out = epipen(&["run", "--trace", &sally]);
    assert!(
        out.stdout.contains(indoc! {"
            move: moved (Anne saw moved; Sally saw moved or stayed)
            line 6: event move: moved | stayed  =>  2 worlds
        "}),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.ends_with("  marble = basket  still possible\n  marble = box     line 4: announce marble == basket\n"),
        "{}",
        out.stdout
    );
    let lines = trace_json(&[&sally]);
    let event = lines
        .iter()
        .find(|l| l["kind"] == "event")
        .expect("an event line");
    assert_eq!(
        event.to_string(),
        r#"{"kind":"event","line":6,"round":null,"event":"move","case":"moved","saw":{"Anne":["moved"],"Sally":["moved","stayed"]}}"#
    );
}

#[test]
fn a_limit_needs_a_trace_or_json() {
    let out = epipen(&["run", "stories/cheryl.story", "--limit", "3"]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: --limit is for `run --trace` and `run --json`\n  \
         = hint: `epipen worlds --limit N FILE` lists the worlds at the end\n"
    );
}

/// The edge lines of a DOT graph.
fn edge_lines(dot: &str) -> Vec<&str> {
    dot.lines().filter(|l| l.contains(" -- ")).collect()
}

#[test]
fn graph_of_cheryl_after_the_whisper() {
    let out = epipen(&["graph", "stories/cheryl.story", "--at", "whispered"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let dot = out.stdout;
    assert!(dot.starts_with(
        "graph epistemic_model {\n  label=\"cheryl.story at checkpoint whispered: 10 worlds\";\n"
    ));
    assert!(dot.contains("  w5 [label=\"month = 7\\nday = 16\"];\n"));
    let edges = edge_lines(&dot);
    // Albert cannot tell dates of one month apart: 3 + 1 + 3 + 1 pairs among
    // May (3 dates), June (2), July (2), August (3); Bernard those of one day: 14, 15,
    // 16, 17 have two dates each.
    assert_eq!(edges.len(), 12, "{dot}");
    assert_eq!(edges.iter().filter(|e| e.contains("\"Albert\"")).count(), 8);
    assert_eq!(
        edges.iter().filter(|e| e.contains("\"Bernard\"")).count(),
        4
    );
    // July 14 and July 16: Albert only; July 14 and August 14: Bernard only.
    assert!(edges.contains(&"  w0 -- w5 [label=\"Albert\"];"));
    assert!(edges.contains(&"  w0 -- w1 [label=\"Bernard\"];"));
    assert!(dot.ends_with("}\n"));
}

/// The actual world has a double border in DOT (Sally and Anne's: the marble moved to
/// the box); a story without one has none.
#[test]
fn graph_marks_the_actual_world_with_a_double_border() {
    let out = epipen(&["graph", "stories/sally-anne.story"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let nodes: Vec<&str> = (out.stdout.lines())
        .filter(|l| l.starts_with("  w") && !l.contains(" -- "))
        .collect();
    assert_eq!(
        nodes,
        [
            "  w0 [label=\"marble = box\\nhere = true\\nmove = moved\", peripheries=2, tooltip=\"the actual world\"];",
            "  w1 [label=\"marble = basket\\nhere = true\\nmove = stayed\"];",
        ]
    );
    let cheryl = epipen(&["graph", "stories/cheryl.story", "--at", "whispered"]);
    assert!(!cheryl.stdout.contains("peripheries"), "{}", cheryl.stdout);
}

#[test]
fn graph_labels_an_edge_with_every_character_who_cannot_tell() {
    let story = story_file(
        "graph-both.story",
        "characters A, B, C\nint x, y\nannounce x in {1, 2} and y in {1, 2}\nA learns x\nC learns x + y\n",
    );
    let out = epipen(&["worlds", "--dot", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let edges = edge_lines(&out.stdout);
    // Worlds in canonical order: (1,1) (1,2) (2,1) (2,2).
    assert_eq!(
        edges,
        [
            "  w0 -- w1 [label=\"A, B\"];",
            "  w0 -- w2 [label=\"B\"];",
            "  w0 -- w3 [label=\"B\"];",
            "  w1 -- w2 [label=\"B, C\"];",
            "  w1 -- w3 [label=\"B\"];",
            "  w2 -- w3 [label=\"A, B\"];",
        ]
    );
}

#[test]
fn graph_draws_belief_as_dashed_arrows_on_every_backend() {
    // A learns p; B cannot tell any world apart but expects p: from every world, B's
    // arrows go to the worlds where p holds (other than itself).
    let story = story_file(
        "graph-belief.story",
        "characters A, B\nbool p, q\nA learns p\nB expects p\n",
    );
    for backend in ["z3", "bdd", "explicit"] {
        let out = epipen(&["worlds", "--dot", "--backend", backend, &story]);
        assert_eq!(out.code, 0, "{backend}: {}", out.stderr);
        let arrows: Vec<&str> = edge_lines(&out.stdout)
            .into_iter()
            .filter(|l| l.contains("dashed"))
            .collect();
        assert_eq!(
            arrows,
            [
                "  w0 -- w2 [dir=forward, style=dashed, label=\"B believes\"];",
                "  w0 -- w3 [dir=forward, style=dashed, label=\"B believes\"];",
                "  w1 -- w2 [dir=forward, style=dashed, label=\"B believes\"];",
                "  w1 -- w3 [dir=forward, style=dashed, label=\"B believes\"];",
                "  w2 -- w3 [dir=forward, style=dashed, label=\"B believes\"];",
                "  w3 -- w2 [dir=forward, style=dashed, label=\"B believes\"];",
            ],
            "{backend}"
        );
    }
    // Without plausibility, no arrows.
    let flat = story_file("graph-flat.story", "characters A, B\nbool p\nA learns p\n");
    let out = epipen(&["worlds", "--dot", &flat]);
    assert!(!out.stdout.contains("dashed"), "{}", out.stdout);
}

#[test]
fn trace_says_what_a_character_believes_where_the_story_asks() {
    // Sally-Anne: Sally does not see the move and expects none.
    let story = story_file(
        "trace-belief.story",
        indoc! {"
            characters Sally, Anne
            enum Place { basket, box }
            Place marble
            announce marble == basket
            actual marble == basket
            event move {
              moved then marble := box
              stayed
              Anne sees moved | stayed
              Sally expects stayed
              actual moved
            }
            check actual believes(Sally, marble == basket) and knows(Anne, marble == box)
        "},
    );
    let sally = "    in the actual world, Sally believes: marble = basket, move = stayed  \
                 (the most plausible of the 2 worlds Sally cannot tell apart)";
    for backend in ["z3", "bdd", "explicit"] {
        let out = epipen(&["run", "--trace", "--backend", backend, &story]);
        assert_eq!(out.code, 0, "{backend}: {}", out.stderr);
        let lines: Vec<&str> = out.stdout.lines().collect();
        // After the event (its `expects` line) and after the check that asks.
        let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap();
        let event = at("line 6: event move");
        assert_eq!(lines[event + 3], sally, "{backend}: {}", out.stdout);
        let check = at("line 13: check actual");
        assert_eq!(lines[check + 1], sally, "{backend}: {}", out.stdout);
        // Anne is not asked about: nothing said of her belief.
        assert!(!out.stdout.contains("Anne believes"), "{}", out.stdout);
    }

    // Without an actual world: each class of worlds the character cannot tell apart.
    let story = story_file(
        "trace-belief-classes.story",
        "characters A, B\nbool p, q\nA learns p\nB expects p and q\ncheck not believes(A, q)\n",
    );
    let steps = trace_json(&[&story]);
    let expects = steps.iter().find(|s| s["line"] == 4).unwrap();
    assert_eq!(
        expects["beliefs"],
        serde_json::json!([{
            "who": "B",
            "actual": false,
            "worlds": [
                {"p": false, "q": false}, {"p": false, "q": true},
                {"p": true, "q": false}, {"p": true, "q": true},
            ],
            "believed": [{"p": true, "q": true}],
        }])
    );
    let check = steps
        .iter()
        .find(|s| s["line"] == 5 && s["kind"] == "step")
        .unwrap();
    let classes: Vec<&serde_json::Value> = check["beliefs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| &b["worlds"])
        .collect();
    assert_eq!(
        classes,
        [
            &serde_json::json!([{"p": false, "q": false}, {"p": false, "q": true}]),
            &serde_json::json!([{"p": true, "q": false}, {"p": true, "q": true}]),
        ]
    );
    let out = epipen(&["run", "--trace", &story]);
    assert!(
        out.stdout.contains(
            "    where B cannot tell apart p = false, q = false; p = false, q = true; \
             p = true, q = false; p = true, q = true, B believes: p = true, q = true\n"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(
            "    A cannot tell apart p = false, q = false; p = false, q = true, \
             and finds them equally plausible\n"
        ),
        "{}",
        out.stdout
    );
    // A story that asks about no belief says nothing of it.
    let out = epipen(&["run", "--trace", "stories/cheryl.story"]);
    assert!(!out.stdout.contains("believes"), "{}", out.stdout);
}

#[test]
fn graph_refuses_infinite_models_and_unknown_checkpoints() {
    let story = story_file(
        "graph-infinite.story",
        "characters A\nint x\nannounce x >= 0\ncheckpoint open\nannounce x <= 3\n",
    );
    let out = epipen(&["graph", &story, "--at", "open"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains(
            "graph-infinite.story:4:12: error: the model at checkpoint open has infinitely many worlds; a graph shows at most 500\n"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("= hint: graph a checkpoint"),
        "{}",
        out.stderr
    );
    // At the end there are four worlds.
    let out = epipen(&["graph", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert!(out.stdout.contains("at the end: 4 worlds"));

    let out = epipen(&["graph", &story, "--at", "closed"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("has no checkpoint `closed`"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("= hint: its checkpoints are `open`"),
        "{}",
        out.stderr
    );
}

/// `graph --svg` draws the model itself: with nothing on PATH (no Graphviz), the file
/// holds epipen's SVG of the ten dates, one circle a world, and the title.
#[test]
fn svg_is_drawn_by_epipen_without_graphviz() {
    let bin = env!("CARGO_BIN_EXE_epipen");
    let out_file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cheryl.svg");
    let empty = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty-path");
    std::fs::create_dir_all(&empty).unwrap();
    let _ = std::fs::remove_file(&out_file);
    let out = std::process::Command::new(bin)
        .args([
            "graph",
            "stories/cheryl.story",
            "--at",
            "whispered",
            "--svg",
        ])
        .arg(&out_file)
        .current_dir(super::ROOT)
        .env("PATH", &empty)
        .output()
        .expect("run epipen");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("wrote {}\n", out_file.display())
    );
    let written = std::fs::read_to_string(&out_file).expect("the SVG file");
    assert!(written.starts_with("<svg"), "{written}");
    assert!(written.trim_end().ends_with("</svg>"), "{written}");
    assert_eq!(written.matches("<circle").count(), 10, "{written}");
    assert!(
        written.contains("cheryl.story at checkpoint whispered: 10 worlds"),
        "{written}"
    );
    // Cheryl has no actual world: none is ringed.
    assert!(!written.contains("class=\"actual\""), "{written}");

    // Sally and Anne's has one: ringed, and said in the legend.
    let sally = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("sally-anne.svg");
    let out = std::process::Command::new(bin)
        .args(["graph", "stories/sally-anne.story", "--svg"])
        .arg(&sally)
        .current_dir(super::ROOT)
        .output()
        .expect("run epipen");
    assert_eq!(out.status.code(), Some(0));
    let written = std::fs::read_to_string(&sally).expect("the SVG file");
    assert_eq!(written.matches("class=\"actual\"").count(), 1, "{written}");
    assert!(
        written.contains("double ring: the actual world"),
        "{written}"
    );
}

/// The cells of a sweep table's rows (columns are two or more spaces apart), without
/// the time column.
fn table(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty() && !c.ends_with(" ms") && *c != "time")
                .map(String::from)
                .collect()
        })
        .collect()
}

#[test]
fn sweep_runs_every_combination_in_order() {
    let out = epipen(&[
        "sweep",
        "stories/muddy-children.story",
        "--set",
        "n=2..4",
        "--set",
        "k=1,3",
    ]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let rows = table(&out.stdout);
    let t = |n: &str, k: &str, world: &str| -> Vec<String> {
        [n, k, "1 world", world].map(String::from).to_vec()
    };
    assert_eq!(
        rows,
        [
            ["n", "k", "worlds", "the world, when one"]
                .map(String::from)
                .to_vec(),
            t("2", "1", "muddy[0] = true, muddy[1] = false"),
            t("2", "3", "muddy[0] = true, muddy[1] = true"),
            t(
                "3",
                "1",
                "muddy[0] = true, muddy[1] = false, muddy[2] = false"
            ),
            t(
                "3",
                "3",
                "muddy[0] = true, muddy[1] = true, muddy[2] = true"
            ),
            t(
                "4",
                "1",
                "muddy[0] = true, muddy[1] = false, muddy[2] = false, muddy[3] = false"
            ),
            t(
                "4",
                "3",
                "muddy[0] = true, muddy[1] = true, muddy[2] = true, muddy[3] = false"
            ),
        ]
    );
}

#[test]
fn sweep_json_has_one_object_per_run() {
    let story = story_file(
        "sweep-count.story",
        "const n = 1\ncharacters A\nint x\nannounce x >= 0 and x < n\n",
    );
    let out = epipen(&["sweep", &story, "--set", "n=0..2", "--json"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let rows: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("ms").expect("a time");
            v
        })
        .collect();
    assert_eq!(
        rows,
        [
            serde_json::json!({"sets": {"n": 0}, "seed": 0, "worlds": 0}),
            serde_json::json!({"sets": {"n": 1}, "seed": 0, "worlds": 1, "world": {"x": 0}}),
            serde_json::json!({"sets": {"n": 2}, "seed": 0, "worlds": 2}),
        ]
    );
}

#[test]
fn sweep_reports_failed_runs_and_exits_with_the_worst_code() {
    let story = story_file(
        "sweep-fail.story",
        "const n = 1\ncharacters A\nbool p\nactual p\nrepeat max n { announce p } until n >= 3\n",
    );
    let out = epipen(&["sweep", &story, "--set", "n=1..3"]);
    assert_eq!(out.code, 2);
    let rows = table(&out.stdout);
    assert_eq!(
        rows[1],
        [
            "1",
            "error",
            "line 5: `repeat` ran its maximum of 1 rounds and `until` still does not hold"
        ]
    );
    assert_eq!(rows[3], ["3", "1 world", "p = true"]);
    assert_eq!(
        out.stderr,
        "error: 2 of 3 runs failed; the first (n = 1): line 5: `repeat` ran its maximum of 1 rounds and `until` still does not hold\n"
    );
}

#[test]
fn ranges_are_for_sweep_only() {
    let out = epipen(&["worlds", "stories/muddy-children.story", "--set", "n=1..3"]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        indoc! {"
            error: --set n=…: gives 3 values, and only `epipen sweep` runs a story once per value
              = hint: `epipen sweep FILE --set n=…`, or give one value
        "}
    );
    let out = epipen(&["sweep", "stories/muddy-children.story", "--set", "n=5..1"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("the range 5..1 is empty (both ends are included)"),
        "{}",
        out.stderr
    );
}

#[test]
fn sampled_cheryl_gives_one_world_for_seed_3() {
    let out = epipen(&["worlds", "stories/cheryl-sample.story", "--seed", "3"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "1 possible world:\n  month = 6, day = 25\n(and that's all)\n"
    );
    // Seed 0 (no --seed) draws dates that leave no world: Albert cannot know at the end.
    let out = epipen(&["worlds", "stories/cheryl-sample.story"]);
    assert_eq!(
        out.stdout,
        indoc! {"
            no possible worlds: line 31, `Albert: knows_value(month, day)`, left none: it was false in every world still possible
            (and that's all)
        "}
    );
}

#[test]
fn sampled_eve_stories_have_their_first_unique_seeds() {
    for (story, seed, world) in [
        (
            "stories/cheryl-eve-sample.story",
            "98",
            "month = 3, day = 16",
        ),
        (
            "stories/cheryl-eve-complex-sample.story",
            "5",
            "month = 4, day = 17",
        ),
    ] {
        let out = epipen(&["worlds", story, "--seed", seed]);
        assert_eq!(out.code, 0, "stderr: {}", out.stderr);
        assert_eq!(
            out.stdout,
            format!("1 possible world:\n  {world}\n(and that's all)\n")
        );
    }
}

#[test]
fn sweep_samples_count_worlds_like_norvigs_counter() {
    let out = epipen(&[
        "sweep",
        "stories/cheryl-sample.story",
        "--samples",
        "40",
        "--seed",
        "1",
    ]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        indoc! {"
            40 samples (seeds 1 to 40):
              worlds  samples   share
                   0       35   87.5%
                   1        3    7.5%
                   2        2    5.0%
            first sample with exactly one world: --seed 3
              line 11: drew {(3, 25), (3, 26), (3, 27), (4, 16), (4, 18), (5, 28), (6, 16), (6, 18), (6, 25), (7, 25)}
              the world: month = 6, day = 25
        "}
    );
    let out = epipen(&[
        "sweep",
        "stories/cheryl-sample.story",
        "--samples",
        "40",
        "--seed",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).expect("one object");
    assert_eq!(v["counts"], serde_json::json!({"0": 35, "1": 3, "2": 2}));
    assert_eq!(v["first_unique"]["seed"], 3);
    assert_eq!(
        v["first_unique"]["world"],
        serde_json::json!({"month": 6, "day": 25})
    );
}

#[test]
fn graph_of_a_bool_story_follows_learned_expressions() {
    // Bools and enums take the BDD backend: views come from its partitions.
    let story = story_file(
        "graph-bools.story",
        "characters A, B\nbool p, q\nA learns p\nB learns p != q\n",
    );
    let out = epipen(&["graph", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let edges = edge_lines(&out.stdout);
    // Worlds: (f,f) (f,t) (t,f) (t,t). A sees p; B sees whether p != q.
    assert_eq!(
        edges,
        [
            "  w0 -- w1 [label=\"A\"];",
            "  w0 -- w3 [label=\"B\"];",
            "  w1 -- w2 [label=\"B\"];",
            "  w2 -- w3 [label=\"A\"];",
        ]
    );
}

#[test]
fn trace_counts_two_to_the_forty_muddy_worlds_exactly() {
    let out = epipen(&[
        "run",
        "--trace",
        "stories/muddy-children.story",
        "--set",
        "n=40",
        "--set",
        "k=40",
    ]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let steps: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.contains("  =>  "))
        .collect();
    assert_eq!(steps[0], "start  =>  1099511627776 worlds");
    assert_eq!(
        steps[3],
        "line 21: announce any(i in 0..n: muddy[i])  =>  1099511627775 worlds (1 eliminated)"
    );
    // The 1560 `learns` of the nested loops, folded into one step.
    assert_eq!(
        steps[2],
        "line 16 (i in 0..40, j in 0..40): child[i] learns muddy[j] (1560 steps)  =>  1099511627776 worlds"
    );
    // One step per round: round r eliminates the C(40, r) worlds with r muddy children.
    let round = |r: usize| steps[3 + r].split_once(": repeat").map(|(head, _)| head);
    let count = |r: usize| steps[3 + r].split_once("  =>  ").map(|(_, count)| count);
    assert_eq!(round(1), Some("line 26, round 1"));
    assert_eq!(count(1), Some("1099511627735 worlds (40 eliminated)"));
    assert_eq!(
        count(20),
        Some("480832549478 worlds (137846528820 eliminated)")
    );
    assert_eq!(count(39), Some("1 world (40 eliminated)"));
    assert_eq!(round(40), Some("line 26, round 40"));
    assert_eq!(count(40), Some("1 world (unchanged)"));
    assert_eq!(steps.len(), 45);
    assert!(
        out.stdout
            .contains("round 39: child[39]: not knows_value(muddy[39])\n")
    );
    assert!(
        out.stdout
            .contains("round 40: child[0]: knows_value(muddy[0])\n")
    );
}

/// Before every bounding announcement has been made, the explicit backend lists the
/// worlds of the types and the announcements so far natively (Z3 only when there are too
/// many): the trace, its lists and the fates are Z3's.
#[test]
fn trace_before_the_bounds_all_hold_is_the_same_on_the_explicit_backend_and_z3() {
    let path = story_file(
        "early-bounds.story",
        indoc! {"
            enum C { red, green, blue, white }
            characters A
            C x, y, z
            announce x != y
            announce y != z and x != z
            announce x == red or z == blue
            A learns x
            A: knows_value(y)
        "},
    );
    let explicit = epipen(&[
        "--backend",
        "explicit",
        "run",
        "--trace",
        "--limit",
        "30",
        &path,
    ]);
    let z3 = epipen(&["--backend", "z3", "run", "--trace", "--limit", "30", &path]);
    assert_eq!(explicit.code, 0, "stderr: {}", explicit.stderr);
    assert_eq!(explicit.stdout, z3.stdout);
    let steps: Vec<&str> = (explicit.stdout.lines())
        .filter(|l| l.contains("  =>  "))
        .collect();
    assert_eq!(
        steps,
        [
            "start  =>  64 worlds",
            "line 4: announce x != y  =>  48 worlds (16 eliminated)",
            "line 5: announce y != z and x != z  =>  24 worlds (24 eliminated)",
            "line 6: announce x == red or z == blue  =>  10 worlds (14 eliminated)",
            "line 7: A learns x  =>  10 worlds (unchanged)",
            "line 8: A: knows_value(y)  =>  0 worlds (10 eliminated)",
        ]
    );
    assert!(explicit.stdout.contains("x = red, y = green, z = blue"));
}
