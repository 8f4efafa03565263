//! The drawn model (issue 44): `graph --svg` draws the layout the playground draws
//! (pieces packed side by side, no two circles overlapping, the same picture every
//! time), leaves out events that have not happened; `graph --event NAME` draws an event
//! model; `/api/ask` says where formulas hold.

use serde_json::{Value, json};

use super::epipen;
use super::serve::Server;

/// Each circle's centre and radius in an SVG `graph --svg` wrote (the worlds, not the
/// actual world's second ring).
fn circles(svg: &str) -> Vec<(f64, f64, f64)> {
    (svg.split("<g transform=\"translate(").skip(1))
        .map(|g| {
            let xy: Vec<f64> = (g.split(')').next().unwrap().split(' '))
                .map(|v| v.parse().unwrap())
                .collect();
            let r = g.split("<circle r=\"").last().unwrap();
            let r: f64 = r.split('"').next().unwrap().parse().unwrap();
            (xy[0], xy[1], r)
        })
        .collect()
}

/// The pairs of circles that overlap (or touch).
fn overlapping(circles: &[(f64, f64, f64)]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in circles.iter().enumerate() {
        for b in &circles[i + 1..] {
            if (a.0 - b.0).hypot(a.1 - b.1) < a.2 + b.2 {
                out.push(format!("{a:?} {b:?}"));
            }
        }
    }
    out
}

fn svg_of(args: &[&str], name: &str) -> String {
    let out_file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&out_file);
    let path = out_file.display().to_string();
    let mut all = args.to_vec();
    all.extend(["--svg", path.as_str()]);
    let out = epipen(&all);
    assert_eq!(out.code, 0, "{}", out.stderr);
    std::fs::read_to_string(&out_file).expect("the SVG file")
}

#[test]
fn graph_svg_packs_the_pieces_and_no_two_worlds_overlap() {
    // The card deal at `dealt`: six deals, each character's pairs; the event `showing`
    // has not happened, and is not drawn.
    let args = ["graph", "stories/card-deal.story", "--at", "dealt"];
    let svg = svg_of(&args, "card-deal.svg");
    let worlds = circles(&svg);
    assert_eq!(worlds.len(), 6, "{svg}");
    assert_eq!(overlapping(&worlds), Vec::<String>::new());
    assert!(!svg.contains("showing") && !svg.contains("yet"), "{svg}");
    assert!(svg.contains("nodes: (ann, bob, cath)"), "{svg}");
    assert!(svg.contains(">0, 1, 2</text>"), "{svg}");
    // The same picture every time.
    assert_eq!(svg, svg_of(&args, "card-deal-again.svg"));
    // Nine edges, each labelled off every circle: a label's centre is further from
    // every world's centre than the world's radius.
    let group = svg.split("<g class=\"edge-labels\"").nth(1).unwrap();
    let labels: Vec<(f64, f64)> = (group.split("</g>").next().unwrap())
        .split("<text x=\"")
        .skip(1)
        .map(|t| {
            let x: f64 = t.split('"').next().unwrap().parse().unwrap();
            let y: f64 = t
                .split("y=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            (x, y)
        })
        .collect();
    assert_eq!(labels.len(), 9, "{svg}");
    for l in &labels {
        for w in &worlds {
            assert!(
                (l.0 - w.0).hypot(l.1 - w.1) > w.2,
                "label {l:?} in world {w:?}"
            );
        }
    }

    // Monty Hall at the end: the pieces side by side, not spread over thousands of
    // units; every world inside the picture.
    let svg = svg_of(&["graph", "stories/monty-hall.story"], "monty-hall.svg");
    let worlds = circles(&svg);
    assert_eq!(worlds.len(), 4, "{svg}");
    assert_eq!(overlapping(&worlds), Vec::<String>::new());
    let view: Vec<f64> = (svg
        .split("viewBox=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap())
    .split(' ')
    .map(|v| v.parse().unwrap())
    .collect();
    assert!(view[2] <= 720.0, "{view:?}");
    for w in &worlds {
        assert!(
            w.0 - w.2 >= view[0] && w.0 + w.2 <= view[0] + view[2],
            "{w:?} {view:?}"
        );
        assert!(
            w.1 - w.2 >= view[1] && w.1 + w.2 <= view[1] + view[3],
            "{w:?} {view:?}"
        );
    }
}

#[test]
fn graph_event_draws_the_cases_each_character_tells_apart() {
    let out = epipen(&["graph", "stories/card-deal.story", "--event", "showing"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "graph epistemic_model {\n  label=\"card-deal.story: event showing, 3 cases\";\n  \
         labelloc=t;\n  node [shape=box];\n  w0 [label=\"case = shows_0\"];\n  \
         w1 [label=\"case = shows_1\"];\n  w2 [label=\"case = shows_2\"];\n  \
         w0 -- w1 [label=\"Cath\"];\n  w0 -- w2 [label=\"Cath\"];\n  w1 -- w2 [label=\"Cath\"];\n}\n"
    );
    // Sally does not see the marble move: she cannot tell the two cases apart.
    let svg = svg_of(
        &["graph", "stories/sally-anne.story", "--event", "move"],
        "sally-anne-move.svg",
    );
    assert_eq!(circles(&svg).len(), 2, "{svg}");
    assert!(svg.contains("Sally cannot tell these apart"), "{svg}");
    assert!(
        svg.contains("sally-anne.story: event move, 2 cases"),
        "{svg}"
    );
    // An unknown event: a story error that lists the events.
    let out = epipen(&["graph", "stories/card-deal.story", "--event", "shows"]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: stories/card-deal.story has no event `shows`\n  = hint: its events are `showing`\n"
    );
    let out = epipen(&["graph", "stories/cheryl.story", "--event", "x"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("= hint: the story has no events; declare one with `event NAME { … }`"),
        "{}",
        out.stderr
    );
    // `--at` and `--event` name two models.
    let out = epipen(&[
        "graph",
        "stories/card-deal.story",
        "--event",
        "showing",
        "--at",
        "dealt",
    ]);
    assert_eq!(out.code, 2, "{}", out.stderr);
}

fn ask(server: &Server, request: &Value) -> Value {
    let response = server.client().post_json("/api/ask", request);
    assert_eq!(response.status, 200, "{}", response.body);
    response.json()
}

#[test]
fn the_model_is_asked_where_formulas_hold() {
    let server = Server::start(&[]);
    let source = super::read_story("card-deal.story");
    // At the end: Bob knows the deal in every world; Cath knows Ann's card in none.
    let answer = ask(
        &server,
        &json!({
            "source": source, "name": "card-deal.story",
            "formulas": ["knows_value(Bob, ann)", "knows_value(Cath, ann)", "ann == 0"],
        }),
    );
    assert_eq!(answer["exit_code"], 0, "{answer}");
    assert_eq!(answer["title"], "card-deal.story at the end: 6 worlds");
    assert_eq!(answer["answers"][0]["holds"], json!(vec![true; 6]));
    assert_eq!(answer["answers"][1]["holds"], json!(vec![false; 6]));
    assert_eq!(
        answer["answers"][2],
        json!({"formula": "ann == 0", "holds": [true, true, false, false, false, false]})
    );
    // After step 5 (the checkpoint `dealt`, before the event): Ann knows her card in
    // every deal, Bob knows Ann's in none.
    let run = server.run(&json!({"source": source, "name": "card-deal.story"}));
    let steps: Vec<&Value> = (run["trace"].as_array().unwrap().iter())
        .filter(|t| t["kind"] == "step")
        .collect();
    let dealt = steps
        .iter()
        .position(|t| t["event"] == "checkpoint dealt")
        .unwrap();
    assert_eq!(run["events"], json!(["showing"]));
    let answer = ask(
        &server,
        &json!({
            "source": source, "name": "card-deal.story", "step": dealt,
            "formulas": ["knows_value(Ann, ann)", "knows_value(Bob, ann)",
                         "knows(Ann, not knows_value(Bob, ann))"],
        }),
    );
    assert_eq!(answer["exit_code"], 0, "{answer}");
    assert_eq!(answer["worlds"].as_array().unwrap().len(), 6);
    assert_eq!(answer["answers"][0]["holds"], json!(vec![true; 6]));
    assert_eq!(answer["answers"][1]["holds"], json!(vec![false; 6]));
    assert_eq!(answer["answers"][2]["holds"], json!(vec![true; 6]));
    // The layout is the one `/api/graph` sends.
    let graph = server.client().post_json(
        "/api/graph",
        &json!({"source": source, "name": "card-deal.story", "step": dealt}),
    );
    assert_eq!(graph.json()["layout"], answer["layout"]);
    // A formula that does not compile: the error of the story, at the line it was
    // written on after the story, with its caret.
    let answer = ask(
        &server,
        &json!({"source": source, "name": "card-deal.story", "formulas": ["knows(Ann, dan == 0)"]}),
    );
    assert_eq!(answer["exit_code"], 2, "{answer}");
    let lines = source.lines().count() + 1;
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "card-deal.story:{lines}:18: error: unknown name `dan`\n"
        )),
        "{message}"
    );
    assert!(message.contains("where knows(Ann, dan == 0)"), "{message}");
    // No formula, or one of two lines: refused as a story error, with a hint.
    for formulas in [json!([]), json!(["ann == 0\nbob == 1"])] {
        let answer = ask(
            &server,
            &json!({"source": source, "name": "card-deal.story", "formulas": formulas}),
        );
        assert_eq!(answer["exit_code"], 2, "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("= hint: type a formula"),
            "{answer}"
        );
    }
    // At the checkpoint `dealt`: as after its step.
    let answer = ask(
        &server,
        &json!({"source": source, "name": "card-deal.story", "at": "dealt",
                "formulas": ["knows_value(Bob, ann)", "ann == 1"]}),
    );
    assert_eq!(
        answer["title"],
        "card-deal.story at checkpoint dealt: 6 worlds"
    );
    assert_eq!(answer["answers"][0]["holds"], json!(vec![false; 6]));
    assert_eq!(
        answer["answers"][1]["holds"],
        json!([false, false, true, true, false, false])
    );
    // A checkpoint inside a `repeat`: its last round's model (muddy children, n = 3,
    // k = 2, at `round_start`), asked at each round, the last round's answers kept.
    let muddy = super::read_story("muddy-children.story");
    let answer = ask(
        &server,
        &json!({"source": muddy, "name": "muddy-children.story", "at": "round_start",
                "sets": {"n": 3, "k": 2},
                "formulas": ["knows_value(child[0], muddy[0])", "muddy[2]"]}),
    );
    assert_eq!(answer["exit_code"], 0, "{answer}");
    let n = answer["worlds"].as_array().unwrap().len();
    let graph = server.client().post_json(
        "/api/graph",
        &json!({"source": muddy, "name": "muddy-children.story", "at": "round_start",
                "sets": {"n": 3, "k": 2}}),
    );
    assert_eq!(graph.json()["worlds"], answer["worlds"]);
    let third: Vec<bool> = (answer["worlds"].as_array().unwrap().iter())
        .map(|w| w["muddy[2]"] == true)
        .collect();
    assert_eq!(answer["answers"][1]["holds"], json!(third), "{answer}");
    assert_eq!(answer["answers"][0]["holds"].as_array().unwrap().len(), n);
    // More worlds than a `where` lists (10): every one is asked, at the end, after a
    // step and at a checkpoint.
    let many = "characters A\nbool p[5]\ncheckpoint c\nA learns p[0]\n";
    for place in [json!({}), json!({"step": 1}), json!({"at": "c"})] {
        let mut request = json!({"source": many, "formulas": ["true", "p[4]"]});
        for (k, v) in place.as_object().unwrap() {
            request[k] = v.clone();
        }
        let answer = ask(&server, &request);
        assert_eq!(
            answer["answers"][0]["holds"],
            json!(vec![true; 32]),
            "{place}"
        );
        let p4: Vec<bool> = (answer["worlds"].as_array().unwrap().iter())
            .map(|w| w["p[4]"] == true)
            .collect();
        assert_eq!(answer["answers"][1]["holds"], json!(p4), "{place}");
        assert_eq!(p4.iter().filter(|&&b| b).count(), 16, "{place}");
    }
    // `plan_step` is not asked at; `/api/event` needs the event's name.
    let refused = server.client().post_json(
        "/api/ask",
        &json!({"source": source, "formulas": ["ann == 0"], "step": 1, "plan_step": 1}),
    );
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(refused.body.contains("not `plan_step`"), "{}", refused.body);
    let refused = server
        .client()
        .post_json("/api/event", &json!({"source": source}));
    assert_eq!(refused.status, 400, "{}", refused.body);
    assert!(
        refused.body.contains("`/api/event` needs `event`"),
        "{}",
        refused.body
    );
    // The event model, as `graph --event` draws it.
    let event = server.client().post_json(
        "/api/event",
        &json!({"source": source, "name": "card-deal.story", "event": "showing"}),
    );
    let event = event.json();
    assert_eq!(event["title"], "card-deal.story: event showing, 3 cases");
    assert_eq!(
        event["worlds"],
        json!([{"case": "shows_0"}, {"case": "shows_1"}, {"case": "shows_2"}])
    );
    assert_eq!(event["edges"].as_array().unwrap().len(), 3);
    assert_eq!(event["edges"][0]["who"], json!(["Cath"]));
}
