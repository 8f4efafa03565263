//! `epipen serve`: the playground's HTTP API, driven over loopback against the real
//! executable (JSON in and out, bad input, timeouts, concurrent requests). The page
//! itself is tested in a browser (browser.rs).

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use super::http::Client;
use super::{epipen, story_file};

/// A running `epipen serve --port 0 …`, stopped when dropped.
pub(crate) struct Server {
    child: Child,
    /// `127.0.0.1:PORT`
    pub(crate) addr: String,
    /// What it printed before serving.
    pub(crate) banner: Vec<String>,
    /// What it printed on stderr so far.
    stderr: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Server {
    pub(crate) fn start(args: &[&str]) -> Server {
        Server::start_with(args, &[])
    }

    pub(crate) fn start_with(args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_epipen"))
            .arg("serve")
            .args(["--port", "0"])
            .args(args)
            .envs(env.iter().copied())
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start epipen serve");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut banner = Vec::new();
        while banner.len() < 3 {
            let mut line = String::new();
            if stdout.read_line(&mut line).expect("read the banner") == 0 {
                let mut stderr = String::new();
                let _ = child
                    .stderr
                    .take()
                    .expect("stderr")
                    .read_to_string(&mut stderr);
                panic!("epipen serve ended: {banner:?}\nstderr: {stderr}");
            }
            banner.push(line.trim_end().to_string());
        }
        let addr = banner[0]
            .strip_prefix("epipen playground: http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("no URL in {banner:?}"))
            .to_string();
        // Keep the pipes drained so the server never blocks on them.
        let stderr = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let mut pipe = BufReader::new(child.stderr.take().expect("stderr"));
        let collected = stderr.clone();
        std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
        std::thread::spawn(move || {
            let mut line = String::new();
            while pipe.read_line(&mut line).is_ok_and(|n| n > 0) {
                collected.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        Server {
            child,
            addr,
            banner,
            stderr,
        }
    }

    /// Waits (a few seconds at most) until its stderr holds `text`; returns all of it.
    pub(crate) fn stderr_with(&self, text: &str) -> String {
        for _ in 0..100 {
            let stderr = self.stderr.lock().unwrap().clone();
            if stderr.contains(text) {
                return stderr;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        self.stderr.lock().unwrap().clone()
    }

    pub(crate) fn client(&self) -> Client {
        Client::connect(&self.addr).expect("connect to the server")
    }

    /// `POST /api/run`
    pub(crate) fn run(&self, request: &Value) -> Value {
        let response = self.client().post_json("/api/run", request);
        assert_eq!(response.status, 200, "{}", response.body);
        response.json()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn cheryl() -> Value {
    json!({
        "source": super::read_story("cheryl.story"),
        "name": "cheryl.story",
    })
}

/// What `epipen ARGS… NAME` prints on stderr for a story file `NAME` holding `source`,
/// run from its directory (so that messages name the file as the playground does).
pub(crate) fn cli_error(args: &[&str], name: &str, source: &str) -> (i32, String) {
    let (code, _, stderr) = cli_output(args, name, source);
    (code, stderr)
}

/// [`cli_error`] with the command's stdout too: its exit code, stdout and stderr.
pub(crate) fn cli_output(args: &[&str], name: &str, source: &str) -> (i32, String, String) {
    let path = story_file(name, source);
    let dir = std::path::Path::new(&path).parent().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_epipen"))
        .args(args)
        .arg(name)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn it_says_where_it_listens_and_serves_the_page() {
    let server = Server::start(&[]);
    let port = server.addr.strip_prefix("127.0.0.1:").expect("loopback");
    assert_eq!(
        server.banner,
        [
            format!("epipen playground: http://127.0.0.1:{port}/"),
            "(listening on 127.0.0.1 only: other machines cannot reach it; --host 0.0.0.0 serves them)"
                .to_string(),
            format!(
                "each run: at most 10 s (--timeout), {} at a time; Ctrl-C stops the server",
                std::thread::available_parallelism().unwrap()
            ),
        ]
    );
    let mut client = server.client();
    let page = client.get("/");
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains(r#"<script src="/app.js" defer></script>"#)
    );
    let script = client.get("/app.js");
    assert_eq!(script.status, 200);
    assert!(script.body.contains("async function run()"));
    // The model's drawing, a script of its own, loaded first.
    assert!(page.body.contains(
        "<script src=\"/model.js\" defer></script>\n<script src=\"/app.js\" defer></script>"
    ));
    let model = client.get("/model.js");
    assert_eq!(model.status, 200);
    assert!(model.body.contains("function drawModel(model)"));
    assert_eq!(client.get("/style.css").status, 200);
    // The language reference, linked from the page, is served here (no network).
    assert!(page.body.contains(r#"href="/docs/language.md""#));
    let reference = client.get("/docs/language.md");
    assert_eq!(reference.status, 200);
    assert_eq!(
        reference.body,
        std::fs::read_to_string(std::path::Path::new(super::ROOT).join("docs/language.md"))
            .unwrap()
    );
    let missing = client.get("/nothing");
    assert_eq!(
        (missing.status, missing.json()),
        (404, json!({"error": "no such page"}))
    );
    let version = client.get("/api/version").json();
    assert_eq!(version["epipen"], env!("CARGO_PKG_VERSION"));
    assert!(version["z3"].as_str().unwrap().starts_with("5.4."));
}

#[test]
fn every_story_is_listed_with_its_title() {
    let server = Server::start(&[]);
    let stories = server.client().get("/api/stories").json();
    let stories = stories.as_array().unwrap();
    let files: Vec<&str> = stories
        .iter()
        .map(|s| s["file"].as_str().unwrap())
        .collect();
    // The stories, then SMCDEL's and mA*'s example files, each group in file order.
    let listed = |dir: &str, suffix: &str| {
        let mut files: Vec<String> = std::fs::read_dir(std::path::Path::new(super::ROOT).join(dir))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f.ends_with(suffix))
            .collect();
        files.sort();
        files
    };
    let groups = [
        ("Stories", listed("stories", ".story")),
        ("SMCDEL files", listed("examples/smcdel", ".smcdel.txt")),
        ("mA* files", listed("examples/mastar", ".txt")),
    ];
    let expected: Vec<String> = groups.iter().flat_map(|(_, f)| f.clone()).collect();
    assert_eq!(files, expected);
    for (group, files) in &groups {
        assert!(files.len() >= 2, "{group}: {files:?}");
        for file in files {
            let entry = &stories[expected.iter().position(|f| f == file).unwrap()];
            assert_eq!(entry["group"], *group, "{file}");
            assert!(!entry["title"].as_str().unwrap().is_empty(), "{file}");
        }
    }
    let cheryl = &stories[files.iter().position(|f| *f == "cheryl.story").unwrap()];
    assert_eq!(cheryl["title"], "Cheryl's Birthday");
    assert_eq!(cheryl["source"], super::read_story("cheryl.story"));
    let coin = &stories[files
        .iter()
        .position(|f| *f == "coin-in-the-box.txt")
        .unwrap()];
    assert_eq!(
        coin["title"],
        "A coin lies in a locked box; Anne holds the key"
    );
    let source = std::path::Path::new(super::ROOT).join("examples/mastar/coin-in-the-box.txt");
    assert_eq!(coin["source"], std::fs::read_to_string(source).unwrap());
    let smcdel = &stories[files
        .iter()
        .position(|f| *f == "announcements.smcdel.txt")
        .unwrap()];
    assert_eq!(smcdel["title"], "Public announcements");
}

#[test]
fn cheryl_runs_with_its_trace_and_what_eliminated_each_world() {
    let server = Server::start(&[]);
    let answer = server.run(&cheryl());
    assert_eq!(answer["exit_code"], 0, "{answer}");
    assert_eq!(
        answer["worlds"],
        json!({"worlds": [{"month": 7, "day": 16}], "complete": true,
               "text": "1 possible world:\n  month = 7, day = 16\n(and that's all)\n"})
    );
    assert_eq!(answer["backend"], "explicit");
    assert_eq!(answer["checkpoints"], json!(["whispered"]));
    assert_eq!(answer["consts"], json!([]));
    assert_eq!(answer["samples"], false);
    assert_eq!(answer["hints"], json!([]));
    // The same steps as `epipen run --trace --json`, but for its last line (the fates).
    let steps = epipen(&["run", "--trace", "--json", "stories/cheryl.story"]);
    let mut lines: Vec<Value> = steps
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let fates = lines.pop().unwrap();
    assert_eq!(without_text(&answer["fates"]), fates);
    // The page asks for 20 worlds per step by default; the CLI lists 10.
    let cli_limit = server.run(&json!({
        "source": cheryl()["source"], "name": "cheryl.story", "limit": 10
    }));
    let trace = cli_limit["trace"].as_array().unwrap();
    assert_eq!(trace.iter().map(without_text).collect::<Vec<_>>(), lines);
    // What the page shows is the CLI's text: the same renderer's.
    let text: String = (trace.iter())
        .chain([&cli_limit["fates"]])
        .map(|item| item["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        text,
        epipen(&["run", "--trace", "stories/cheryl.story"]).stdout
    );
    let counts: Vec<&Value> = answer["trace"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["changed"] == true)
        .map(|s| &s["worlds"])
        .collect();
    assert_eq!(
        counts,
        [
            &json!("infinite"),
            &json!(10),
            &json!(5),
            &json!(3),
            &json!(1)
        ]
    );
}

#[test]
fn reveals_rounds_hints_consts_and_seeds() {
    let server = Server::start(&[]);
    let read = |name: &str| super::read_story(name);
    let muddy = server.run(&json!({
        "source": read("muddy-children.story"),
        "name": "muddy-children.story",
        "sets": {"n": 3, "k": 2},
    }));
    assert_eq!(muddy["exit_code"], 0, "{muddy}");
    assert_eq!(
        muddy["consts"],
        json!([{"name": "n", "value": "6"}, {"name": "k", "value": "3"}])
    );
    let events: Vec<String> = muddy["trace"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] != "step")
        .map(|e| match e["kind"].as_str().unwrap() {
            "reveal" => format!(
                "round {}: {}: {}",
                e["round"],
                e["who"].as_str().unwrap(),
                e["said"].as_str().unwrap()
            ),
            "repeat" => format!("repeat: {} rounds", e["rounds"]),
            "worlds" => format!("worlds: {}", e["worlds"]),
            other => panic!("unexpected event {other}"),
        })
        .collect();
    let cli = epipen(&[
        "--set",
        "n=3",
        "--set",
        "k=2",
        "run",
        "stories/muddy-children.story",
    ]);
    let reveals: Vec<&str> = cli
        .stdout
        .lines()
        .filter(|l| l.starts_with("round "))
        .collect();
    assert_eq!(reveals.len(), 9);
    assert_eq!(&events[..9], reveals.as_slice());
    assert_eq!(events[9], "repeat: 3 rounds");
    assert_eq!(
        events[10],
        r#"worlds: [{"muddy[0]":true,"muddy[1]":true,"muddy[2]":false}]"#
    );

    let hinted = server.run(&json!({
        "source": read("who-has-the-sum.story"),
        "name": "who-has-the-sum.story",
    }));
    assert_eq!(hinted["exit_code"], 0, "{hinted}");
    let hints = hinted["hints"].as_array().unwrap();
    assert_eq!(hints.len(), 1);
    assert_eq!(hints[0]["holds"], true);
    // As `epipen check` prints it (but for the time it took).
    let check = epipen(&["check", "stories/who-has-the-sum.story"]);
    let text = hints[0]["text"].as_str().unwrap();
    let line = text.split(" (").next().unwrap();
    assert!(line.ends_with("verified"), "{text}");
    assert!(check.stdout.starts_with(line), "{} vs {line}", check.stdout);

    // A refuted hint is a verdict, and the run goes on with the block's true effect.
    let wrong =
        read("who-has-the-sum.story").replacen("assert_adds_ck B != C", "assert_adds_ck B == C", 1);
    let refuted = server.run(&json!({"source": wrong, "name": "wrong.story"}));
    assert_eq!(refuted["hints"][0]["holds"], false, "{refuted}");
    // The run failed, as `epipen check` exits.
    assert_eq!(refuted["exit_code"], 1, "{refuted}");
    assert!(
        (refuted["hints"][0]["text"].as_str().unwrap()).contains("refuted"),
        "{refuted}"
    );
    assert_eq!(refuted["worlds"], hinted["worlds"]);

    let sampled = |seed: u64| {
        server.run(&json!({
            "source": read("cheryl-sample.story"), "name": "cheryl-sample.story", "seed": seed,
        }))
    };
    let three = sampled(3);
    assert_eq!(three["samples"], true);
    assert_eq!(three["worlds"]["worlds"], json!([{"month": 6, "day": 25}]));
    assert_ne!(sampled(4)["trace"], three["trace"]);
}

#[test]
fn the_graph_has_belief_arrows() {
    let server = Server::start(&[]);
    let request = json!({
        "source": "characters A, B\nbool p\nA learns p\nB expects p\n",
        "name": "belief.story",
    });
    let graph = server.client().post_json("/api/graph", &request).json();
    assert_eq!(graph["exit_code"], 0, "{graph}");
    // Worlds p = false, p = true; B believes p from both, so one arrow from the first.
    assert_eq!(
        graph["beliefs"],
        json!([{"from": 0, "to": 1, "who": ["B"]}])
    );
    // The world B finds most plausible (A's plausibility is flat: not listed).
    assert_eq!(graph["plausible"], json!([{"who": "B", "worlds": [1]}]));
    let flat = server.client().post_json("/api/graph", &cheryl()).json();
    assert_eq!(flat["beliefs"], json!([]));
    assert_eq!(flat.get("plausible"), None, "{flat}");
}

/// A check that fails makes the run fail with exit code 1, as `epipen run` exits, and
/// the run goes on: every check's verdict is in the trace.
#[test]
fn a_failing_check_is_exit_code_1_and_every_verdict_shows() {
    let server = Server::start(&[]);
    let run = |safe: i64| {
        server.run(&json!({
            "source": super::read_story("russian-cards.story"), "name": "russian-cards.story",
            "sets": {"safe": safe},
        }))
    };
    let verdicts = |answer: &Value| -> Vec<(u64, bool)> {
        (answer["trace"].as_array().unwrap().iter())
            .filter(|t| t["kind"] == "check")
            .map(|t| (t["line"].as_u64().unwrap(), t["holds"].as_bool().unwrap()))
            .collect()
    };
    let safe = run(1);
    assert_eq!(safe["exit_code"], 0, "{safe}");
    assert_eq!(
        verdicts(&safe),
        [(40, true), (42, true), (48, true), (49, true)]
    );
    let unsafe_ = run(0);
    assert_eq!(unsafe_["exit_code"], 1, "{unsafe_}");
    assert_eq!(unsafe_["error"], Value::Null);
    assert_eq!(
        verdicts(&unsafe_),
        [(40, true), (42, false), (48, true), (49, false)]
    );
    let failed = &unsafe_["trace"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["line"] == 42)
        .unwrap();
    assert_eq!(
        failed["world"],
        json!({"owner[0]": "alice", "owner[1]": "alice", "owner[2]": "alice", "owner[3]": "bob",
               "owner[4]": "bob", "owner[5]": "bob", "owner[6]": "cath"})
    );
    let source = super::read_story("russian-cards.story");
    let (code, _) = cli_error(&["run", "--set", "safe=0"], "russian-cards.story", &source);
    assert_eq!(unsafe_["exit_code"], code);
}

#[test]
fn the_model_at_a_checkpoint_is_a_graph() {
    let server = Server::start(&[]);
    let graph = |at: Option<&str>| {
        let mut request = cheryl();
        if let Some(at) = at {
            request["at"] = at.into();
        }
        let response = server.client().post_json("/api/graph", &request);
        assert_eq!(response.status, 200);
        response.json()
    };
    let whispered = graph(Some("whispered"));
    assert_eq!(whispered["exit_code"], 0, "{whispered}");
    assert_eq!(
        whispered["title"],
        "cheryl.story at checkpoint whispered: 10 worlds"
    );
    assert_eq!(whispered["characters"], json!(["Albert", "Bernard"]));
    assert_eq!(whispered["worlds"].as_array().unwrap().len(), 10);
    let edges = whispered["edges"].as_array().unwrap();
    let by = |who: &str| edges.iter().filter(|e| e["who"] == json!([who])).count();
    // Albert cannot tell dates of a month apart, Bernard dates of a day.
    assert_eq!((by("Albert"), by("Bernard"), edges.len()), (8, 4, 12));
    assert_eq!(edges[0], json!({"a": 0, "b": 1, "who": ["Bernard"]}));
    let end = graph(None);
    assert_eq!(end["title"], "cheryl.story at the end: 1 world");
    assert_eq!(end["edges"], json!([]));
    // The same error as `epipen graph --at nowhere`.
    let nowhere = graph(Some("nowhere"));
    let source = cheryl()["source"].as_str().unwrap().to_string();
    let (code, stderr) = cli_error(&["graph", "--at", "nowhere"], "cheryl.story", &source);
    assert_eq!(nowhere["exit_code"], code);
    assert_eq!(nowhere["error"]["message"], stderr);
}

#[test]
fn the_model_marks_the_actual_world() {
    let server = Server::start(&[]);
    let request = json!({
        "source": super::read_story("muddy-children.story"),
        "name": "muddy-children.story",
    });
    let end = server.client().post_json("/api/graph", &request).json();
    assert_eq!(end["exit_code"], 0, "{end}");
    assert_eq!(end["actual"], 0);
    // After round 2, the actual world is one of 42: children 0, 1 and 2 muddy, the
    // others clean.
    let mut before = request.clone();
    before["step"] = 5.into();
    let before = server.client().post_json("/api/graph", &before).json();
    assert_eq!(before["exit_code"], 0, "{before}");
    assert_eq!(before["worlds"].as_array().unwrap().len(), 42);
    let actual = before["actual"].as_u64().expect("an actual world") as usize;
    let muddy: Vec<&Value> = (0..6)
        .map(|i| &before["worlds"][actual][format!("muddy[{i}]")])
        .collect();
    assert_eq!(
        muddy,
        [true, true, true, false, false, false]
            .map(Value::from)
            .iter()
            .collect::<Vec<_>>()
    );
    // Sally and Anne: from the `actual` statement on (line 15), each step's model has
    // its actual world, before Anne's move (whose case is not in the worlds yet) and
    // after it.
    let sally = json!({
        "source": super::read_story("sally-anne.story"),
        "name": "sally-anne.story",
    });
    let run = server.run(&sally);
    let lines: Vec<u64> = (run["trace"].as_array().unwrap().iter())
        .filter(|item| item["kind"] == "step")
        .map(|item| item["line"].as_u64().unwrap_or(0))
        .collect();
    assert!(lines.contains(&20), "the event is a step: {lines:?}");
    for (k, line) in lines.iter().enumerate() {
        let mut asked = sally.clone();
        asked["step"] = k.into();
        let model = server.client().post_json("/api/graph", &asked).json();
        assert_eq!(model["exit_code"], 0, "{model}");
        assert_eq!(
            model["actual"].is_u64(),
            *line >= 15,
            "step {k}, line {line}: {model}"
        );
    }
    // A story without an actual world has none to mark.
    let cheryl = server.client().post_json("/api/graph", &cheryl()).json();
    assert_eq!(cheryl["actual"], Value::Null);
}

#[test]
fn the_model_after_each_step_shrinks_round_by_round() {
    let server = Server::start(&[]);
    let request = json!({
        "source": super::read_story("muddy-children.story"),
        "name": "muddy-children.story",
    });
    let run = server.run(&request);
    let steps: Vec<&Value> = (run["trace"].as_array().unwrap().iter())
        .filter(|item| item["kind"] == "step")
        .collect();
    let graph = |step: usize| {
        let mut asked = request.clone();
        asked["step"] = step.into();
        server.client().post_json("/api/graph", &asked).json()
    };
    let mut titles = Vec::new();
    for (k, step) in steps.iter().enumerate() {
        let model = graph(k);
        assert_eq!(model["exit_code"], 0, "{model}");
        // The model after a step has the worlds the trace counts there.
        assert_eq!(
            model["worlds"].as_array().unwrap().len(),
            step["worlds"],
            "{k}"
        );
        titles.push(model["title"].as_str().unwrap().to_string());
    }
    // The cube of 64 worlds, the announcement, then the rounds: 57, 42, 1.
    assert_eq!(
        titles,
        [
            "muddy-children.story at the start: 64 worlds",
            "muddy-children.story after line 11: 64 worlds",
            "muddy-children.story after line 16: 64 worlds",
            "muddy-children.story after line 21: 63 worlds",
            "muddy-children.story after line 26, round 1: 57 worlds",
            "muddy-children.story after line 26, round 2: 42 worlds",
            "muddy-children.story after line 26, round 3: 1 world",
            "muddy-children.story after line 26, round 4: 1 world",
            "muddy-children.story after line 35: 1 world",
        ]
    );
    // At the start nobody has learned anything: every two worlds are alike to all;
    // once the children see each other, each tells apart all but its own muddiness.
    let start = graph(0);
    assert_eq!(start["edges"].as_array().unwrap().len(), 64 * 63 / 2);
    assert_eq!(start["actual"], Value::Null, "not declared yet");
    let seen = graph(2);
    assert_eq!(seen["edges"].as_array().unwrap().len(), 6 * 32);
    assert!(seen["actual"].is_u64());
    // No such step; a step and a checkpoint at once.
    let past = graph(steps.len());
    assert_eq!(past["exit_code"], 2);
    assert_eq!(
        past["error"]["message"],
        format!(
            "error: the trace of muddy-children.story has no step {}\n",
            steps.len()
        )
    );
    let mut both = request.clone();
    both["step"] = 1.into();
    both["at"] = "round_start".into();
    let refused = server.client().post_json("/api/graph", &both);
    assert_eq!(refused.status, 400);
    assert_eq!(
        refused.json()["error"],
        "`at` and `step` name two models: give one of them"
    );
    // Too many worlds after a step: the error of a checkpoint with too many.
    let sum = json!({
        "source": super::read_story("sum-and-product.story"),
        "name": "sum-and-product.story",
        "step": 1,
    });
    let sum = server.client().post_json("/api/graph", &sum).json();
    assert_eq!(sum["exit_code"], 2);
    let message = sum["error"]["message"].as_str().unwrap();
    assert!(message.contains("; a graph shows at most 500"), "{message}");
}

#[test]
fn errors_are_the_clis_with_their_places() {
    let server = Server::start(&[]);
    let source = "characters A\nint x\nannounce y > 3\nA learns w\n";
    let answer = server.run(&json!({"source": source, "name": "bad.story"}));
    let (code, stderr) = cli_error(&["run", "--trace"], "bad.story", source);
    assert_eq!((code, &answer["exit_code"]), (2, &json!(2)));
    assert_eq!(answer["error"]["message"], stderr);
    assert!(stderr.contains("= hint: did you mean `x`?"), "{stderr}");
    let places: Vec<(u64, u64)> = answer["error"]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["line"].as_u64().unwrap(), l["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(places, [(3, 10), (4, 10)]);
    assert_eq!(
        answer["error"]["locations"][0]["message"],
        "unknown name `y`"
    );

    // --set errors, as the CLI words them.
    let muddy = super::read_story("muddy-children.story");
    for (set, value) in [("nope", 1), ("n", -1)] {
        let answer = server.run(&json!({
            "source": muddy, "name": "muddy-children.story", "sets": {set: value},
        }));
        let flag = format!("{set}={value}");
        let (code, stderr) = cli_error(&["--set", &flag, "run"], "muddy-children.story", &muddy);
        assert_eq!(answer["exit_code"], code);
        assert_eq!(answer["error"]["message"], stderr);
    }
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    let server = Server::start(&[]);
    // A connection of its own for each request: after refusing a body it did not read
    // (415, 413) the server may close the connection, and a request written into it then
    // fails with a broken pipe, depending on timing.
    let send = |kind: &str, body: &str| {
        let r = server
            .client()
            .send("POST", "/api/run", Some(kind), body.as_bytes())
            .unwrap();
        (r.status, r.json()["error"].as_str().unwrap().to_string())
    };
    let json_kind = "application/json";
    let (status, why) = send(json_kind, "{not json");
    assert_eq!(status, 400, "{why}");
    assert!(
        why.starts_with("Failed to parse the request body as JSON"),
        "{why}"
    );
    let (status, why) = send(json_kind, r#"{"source": 1}"#);
    assert_eq!(status, 422);
    assert!(
        why.contains("source: invalid type: integer `1`, expected a string"),
        "{why}"
    );
    let (status, why) = send(json_kind, r#"{"source": "", "sauce": 1}"#);
    assert_eq!(status, 422);
    assert!(why.contains("unknown field `sauce`"), "{why}");
    let (status, why) = send(json_kind, r#"{"source": "", "sets": {"n": "8"}}"#);
    assert_eq!(status, 422);
    assert!(why.contains("sets.n: invalid type: string \"8\""), "{why}");
    let (status, why) = send(json_kind, r#"{"source": "", "backend": "fast"}"#);
    assert_eq!(status, 422);
    assert!(why.contains("unknown variant `fast`"), "{why}");
    assert_eq!(
        send(json_kind, r#"{"source": "", "limit": 0}"#),
        (400, "`limit` must be from 1 to 1000".to_string())
    );
    assert_eq!(
        send(json_kind, r#"{"source": "", "timeout": -1}"#),
        (
            400,
            "`timeout` must be a positive number of seconds".to_string()
        )
    );
    assert_eq!(
        send(json_kind, r#"{"source": "", "name": "a\nb"}"#),
        (
            400,
            "`name` must be a file name of 1 to 200 characters".to_string()
        )
    );
    // A page elsewhere cannot post a form to it (no JSON content type).
    let (status, why) = send("text/plain", "{}");
    assert_eq!(status, 415, "{why}");

    // Bodies over 1 MiB.
    let big = json!({ "source": "#".repeat(1 << 20) }).to_string();
    let (status, why) = send(json_kind, &big);
    assert_eq!(
        (status, why.as_str()),
        (
            413,
            "Failed to buffer the request body: length limit exceeded"
        )
    );

    // Another name for 127.0.0.1 (DNS rebinding) is refused.
    let mut elsewhere = Client::connect(&server.addr).unwrap();
    elsewhere.host = "playground.example:80".into();
    let refused = elsewhere.get("/");
    assert_eq!(refused.status, 403);
    assert_eq!(
        refused.json()["error"],
        format!(
            "the playground answers to {} only, not to `playground.example:80`",
            server.addr
        )
    );
    // And the server still answers.
    assert_eq!(server.run(&cheryl())["exit_code"], 0);
}

#[test]
fn a_story_that_runs_out_of_time_is_a_solver_failure_and_the_server_serves_on() {
    let server = Server::start(&["--timeout", "2"]);
    let what_sum = super::read_story("what-sum.story");
    let slow = |timeout: Option<f64>| {
        let mut request = json!({
            "source": what_sum, "name": "what-sum.story", "sets": {"B": 1000}, "backend": "z3",
        });
        if let Some(t) = timeout {
            request["timeout"] = t.into();
        }
        let start = std::time::Instant::now();
        let answer = server.run(&request);
        (answer, start.elapsed())
    };
    // 1e30 s is more than a `Duration` holds: the server's limit too (it once dropped
    // the connection).
    let cases = [
        (Some(0.5), 0.5),
        (None, 2.0),
        (Some(60.0), 2.0),
        (Some(1e30), 2.0),
    ];
    for (timeout, limit) in cases {
        let (answer, took) = slow(timeout);
        assert_eq!(answer["exit_code"], 1, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("ran out of time (timeout)"), "{message}");
        assert!(
            message.ends_with("= hint: raise --timeout, or simplify the story\n"),
            "{message}"
        );
        // Within the limit and the grace, whatever the machine's load.
        assert!(took.as_secs_f64() >= limit, "{took:?}");
        assert!(took.as_secs_f64() < limit + 2.0 + 5.0, "{took:?}");
        assert_eq!(server.run(&cheryl())["exit_code"], 0);
    }
}

#[test]
fn concurrent_requests_all_get_their_answer() {
    let server = Server::start(&[]);
    let stories = [
        "cheryl.story",
        "cheryl-gabe.story",
        "consecutive-numbers.story",
        "zebra.story",
    ];
    let answers: Vec<(String, Value)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..12)
            .map(|i| {
                let name = stories[i % stories.len()];
                let server = &server;
                scope.spawn(move || {
                    let source = super::read_story(name);
                    let answer = server.run(&json!({"source": source, "name": name}));
                    (name.to_string(), answer)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (name, answer) in answers {
        assert_eq!(answer["exit_code"], 0, "{name}: {answer}");
        let worlds = epipen(&[
            "worlds",
            "--json",
            "--limit",
            "20",
            &format!("stories/{name}"),
        ]);
        let expected: Value = serde_json::from_str(&worlds.stdout).unwrap();
        assert_eq!(answer["worlds"]["worlds"], expected["worlds"], "{name}");
    }
}

#[test]
fn a_busy_port_and_a_missing_browser_are_clear() {
    let server = Server::start(&[]);
    let port = server.addr.strip_prefix("127.0.0.1:").unwrap();
    let out = epipen(&["serve", "--port", port]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        format!(
            "error: cannot listen on 127.0.0.1:{port}: Address already in use (os error 98)\n  \
             = hint: --port 0 picks a free port\n"
        )
    );
    // `--open` with no xdg-open on the PATH says so, and serves anyway.
    let empty = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-programs");
    std::fs::create_dir_all(&empty).unwrap();
    let opened = Server::start_with(&["--open"], &[("PATH", empty.to_str().unwrap())]);
    let url = format!("http://{}/", opened.addr);
    assert_eq!(
        opened.stderr_with("yourself"),
        format!(
            "note: could not open a browser (xdg-open is not installed); open {url} yourself\n"
        )
    );
    assert_eq!(opened.run(&cheryl())["exit_code"], 0);
}

#[test]
fn every_story_runs_and_draws_in_the_playground() {
    let server = Server::start(&["--timeout", "120"]);
    for entry in std::fs::read_dir(std::path::Path::new(super::ROOT).join("stories")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "story") {
            continue;
        }
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        let answer = server.run(&json!({"source": source, "name": name}));
        assert_eq!(answer["exit_code"], 0, "{name}: {}", answer["error"]);
        let cli = epipen(&["worlds", "--json", "--limit", "20", path.to_str().unwrap()]);
        let expected: Value = serde_json::from_str(&cli.stdout).unwrap();
        assert_eq!(answer["worlds"]["worlds"], expected["worlds"], "{name}");
        assert_eq!(answer["worlds"]["complete"], expected["complete"], "{name}");
        // The model at the end, or why there is none to draw.
        let graph = server
            .client()
            .post_json("/api/graph", &json!({"source": source, "name": name}));
        let graph = graph.json();
        match graph["exit_code"].as_u64() {
            Some(0) => assert!(graph["worlds"].is_array(), "{name}"),
            _ => assert!(
                graph["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("a graph shows at most 500"),
                "{name}: {graph}"
            ),
        }
    }
}

/// Issue 27: a vacuous check is one in the trace, and the empty list of worlds names the
/// statement that left none, as the command line says them.
#[test]
fn a_vacuous_check_and_the_statement_that_left_no_world() {
    let server = Server::start(&[]);
    let answer = server.run(&json!({
        "source": "characters Anne, Bob\nint x\nannounce x >= 0 and x <= 9\n\
                   Bob: knows_value(x)\ncheck x == 4\n",
        "name": "vacuous.story",
    }));
    assert_eq!(answer["exit_code"], 0, "{answer}");
    assert_eq!(
        answer["worlds"],
        json!({
            "worlds": [],
            "complete": true,
            "left_none": {"line": 4, "statement": "Bob: knows_value(x)"},
            "text": "no possible worlds: line 4, `Bob: knows_value(x)`, left none: it was false in every world still possible\n(and that's all)\n",
        })
    );
    let checks: Vec<&Value> = (answer["trace"].as_array().unwrap().iter())
        .filter(|t| t["kind"] == "check")
        .collect();
    assert_eq!(
        checks,
        [
            &json!({"kind": "check", "line": 5, "formula": "x == 4", "holds": true, "vacuous": true,
                 "left_none": {"line": 4, "statement": "Bob: knows_value(x)"},
                 "text": "check line 5: vacuous: no world is possible (line 4, `Bob: knows_value(x)`, left none)\n"})
        ]
    );
}

/// A `where φ` statement is in the playground's trace, as `run --trace --json` gives it.
#[test]
fn a_where_statement_is_in_the_trace() {
    let server = Server::start(&[]);
    let answer = server.run(&json!({
        "source": "bool p, q\ndef both = p and q\nwhere both or not p\n",
        "name": "where.story",
    }));
    assert_eq!(answer["exit_code"], 0, "{answer}");
    let wheres: Vec<&Value> = answer["trace"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "where")
        .collect();
    assert_eq!(
        wheres,
        [&json!({
            "kind": "where",
            "line": 3,
            "formula": "p and q or not p",
            "worlds": [{"p": false, "q": false}, {"p": false, "q": true}, {"p": true, "q": true}],
            "complete": true,
            "text": "-- line 3: where p and q or not p --\n3 possible worlds where it holds:\n  \
                     p = false, q = false\n  p = false, q = true\n  p = true, q = true\n(and that's all)\n",
        })]
    );
}

/// A pasted SMCDEL file (issue 30) is answered as `epipen smcdel` answers it: a trace
/// item per job, with its text; a mistake is located like a story's.
#[test]
fn a_pasted_smcdel_file_is_answered() {
    let server = Server::start(&[]);
    let answer = server.run(&json!({
        "source": "-- muddy\nVARS 1,2\nLAW Top\nOBS a: 2\n    b: 1\nWHERE? <! 1 | 2> a knows whether 1\nVALID? Top\n",
        "name": "muddy.smcdel.txt",
    }));
    assert_eq!(answer["exit_code"], 0, "{answer}");
    assert_eq!(
        answer["trace"],
        json!([
            {"kind": "smcdel", "line": 6, "text": "At which states is <! 1 | 2> a knows whether 1 true?\n[1]\n\n"},
            {"kind": "smcdel", "line": 7, "text": "Is Top valid?\nTrue\n\n"},
        ])
    );
    assert_eq!(
        without_text(&answer["smcdel"]),
        json!({"jobs": [
            {"kind": "where", "line": 6, "answer": [[1]]},
            {"kind": "valid", "line": 7, "answer": true},
        ]})
    );
    let answer = server.run(&json!({
        "source": "VARS 1\nLAW Top\nOBS a: 1\nVALID? b knows that 1\n",
        "name": "bad.smcdel.txt",
    }));
    assert_eq!(answer["exit_code"], 2, "{answer}");
    assert_eq!(
        answer["error"]["locations"],
        json!([{"line": 4, "column": 8, "message": "the agent `b` is not declared by an `OBS` line"}])
    );
}

/// An mA* file (issue 45), from the menu or pasted, is answered as `epipen plan`
/// answers it: the plan, as the CLI says it, the one item of the trace, on the line of
/// the file's goal; `/api/graph` draws the initial state and the model after each step
/// of the plan. A plan that is not found is exit code 1; a mistake is located in the
/// file.
#[test]
fn an_mastar_file_is_answered_with_its_plan_and_a_model_per_step() {
    let server = Server::start(&[]);
    let path = std::path::Path::new(super::ROOT).join("examples/mastar/coin-in-the-box.txt");
    let source = std::fs::read_to_string(path).unwrap();
    let request = json!({"source": source, "name": "coin-in-the-box.txt"});
    let answer = server.run(&request);
    assert_eq!(answer["exit_code"], 0, "{answer}");
    let cli = epipen(&["plan", "--json", "examples/mastar/coin-in-the-box.txt"]);
    let expected: Value = serde_json::from_str(&cli.stdout).unwrap();
    assert_eq!(without_text(&answer["mastar"]), expected);
    assert_eq!(
        answer["mastar"]["text"],
        epipen(&["plan", "examples/mastar/coin-in-the-box.txt"])
            .stdout
            .trim_end()
    );
    assert_eq!(
        answer["trace"],
        json!([{
            "kind": "plan", "line": 37, "solvable": true, "length": 3,
            "plans": [["call_bob", "unlock", "peek"]], "step": 7,
            "text": "plan of 3 actions: call_bob, unlock, peek",
        }])
    );
    assert_eq!(answer["checkpoints"], json!([]));
    assert_eq!(answer["worlds"]["worlds"], json!([]));
    // The initial state, then the model after each step: Bob watches, the box is
    // unlocked, Anne has peeked; the actual world marked in each.
    let graph = |extra: Value| {
        let mut asked = request.clone();
        for (k, v) in extra.as_object().unwrap() {
            asked[k] = v.clone();
        }
        server.client().post_json("/api/graph", &asked).json()
    };
    let mut titles = Vec::new();
    for plan_step in 0..=3 {
        let model = graph(json!({"step": 7, "plan_step": plan_step}));
        assert_eq!(model["exit_code"], 0, "{model}");
        assert_eq!(model["characters"], json!(["anne", "bob", "carl"]));
        let actual = model["actual"].as_u64().expect("the actual world") as usize;
        let world = &model["worlds"][actual];
        let watches = plan_step >= 1;
        let unlocked = plan_step >= 2;
        assert_eq!(
            (&world["heads"], &world["bob_watches"], &world["unlocked"]),
            (&json!(true), &json!(watches), &json!(unlocked)),
            "{model}"
        );
        titles.push(model["title"].as_str().unwrap().to_string());
    }
    assert_eq!(
        titles,
        [
            "coin-in-the-box.txt at the start: 3 worlds",
            "coin-in-the-box.txt after step 1 of the plan (call_bob): 5 worlds",
            "coin-in-the-box.txt after step 2 of the plan (unlock): 9 worlds",
            "coin-in-the-box.txt after step 3 of the plan (peek): 17 worlds",
        ]
    );
    // Without a step: the initial state.
    assert_eq!(graph(json!({}))["title"], titles[0]);
    // A step beyond the plan: an error of the story's, at no place of the file.
    let beyond = graph(json!({"step": 7, "plan_step": 4}));
    assert_eq!(beyond["exit_code"], 2, "{beyond}");
    assert_eq!(beyond["error"]["locations"], json!([]));
    // Formulas are asked of stories only.
    let asked = server.client().post_json(
        "/api/ask",
        &json!({"source": source, "name": "coin-in-the-box.txt", "formulas": ["heads"]}),
    );
    let asked = asked.json();
    assert_eq!(asked["exit_code"], 2);
    assert!(
        asked["error"]["message"]
            .as_str()
            .unwrap()
            .contains("formulas are asked of stories"),
        "{asked}"
    );

    // No plan: exit code 1, the CLI's words.
    let answer = server.run(&json!({
        "source": "fluent p, q;\naction a;\nagent x;\na causes p;\nx observes a;\n\
                   initially -p, -q;\ninitially C([x], -p);\ngoal q;\n",
        "name": "none.mastar",
    }));
    assert_eq!(answer["exit_code"], 1, "{answer}");
    assert_eq!(answer["mastar"]["text"], "no plan of at most 20 actions");
    assert_eq!(answer["trace"][0]["line"], 8);
    assert_eq!(answer["trace"][0]["solvable"], false);

    // A mistake: located in the file, as `epipen plan` locates it.
    let bad =
        "fluent p;\naction a;\nagent x;\na causes r;\nx observes a;\ninitially -p;\ngoal p;\n";
    let answer = server.run(&json!({"source": bad, "name": "bad.txt"}));
    assert_eq!(answer["exit_code"], 2, "{answer}");
    assert_eq!(
        answer["error"]["locations"],
        json!([{"line": 4, "column": 10, "message": "the fluent `r` is not declared"}])
    );
    let (code, stderr) = cli_error(&["plan"], "bad.txt", bad);
    assert_eq!(code, 2);
    assert_eq!(answer["error"]["message"], stderr);
}

/// A view of the playground's answer without the text it carries (and its beliefs'):
/// as `--json` prints it.
fn without_text(view: &Value) -> Value {
    let mut view = view.clone();
    if let Some(object) = view.as_object_mut() {
        object.remove("text");
        if let Some(beliefs) = object.get_mut("beliefs").and_then(Value::as_array_mut) {
            for b in beliefs {
                b.as_object_mut().map(|b| b.remove("text"));
            }
        }
    }
    view
}

/// Monty Hall with chances (issue 29).
const MONTY_HALL: &str = "enum Door { one, two, three }
characters Contestant, Host
Door car, pick
announce pick == one
Host learns car
actual car == two
event host_opens {
  opens_two if pick != two and car != two
  opens_three if pick != three and car != three
  opens_one if pick != one and car != one
  Contestant sees opens_one | opens_two | opens_three
  Host sees opens_one | opens_two | opens_three
  actual opens_three
}
check actual probability(Contestant, car == two) == 2/3
show probability(Contestant, car == two)
";

#[test]
fn probabilities_and_shows_are_in_the_answers_and_the_page_shows_them() {
    let server = Server::start(&[]);
    let request = json!({"source": MONTY_HALL, "name": "monty.story"});
    let answer = server.run(&request);
    assert_eq!(answer["exit_code"], 0, "{answer}");
    // Each world carries its probability, as `--json` gives it.
    let chances: Vec<&Value> = (answer["worlds"]["worlds"].as_array().unwrap().iter())
        .map(|w| &w["probability"])
        .collect();
    assert_eq!(
        chances,
        [&json!("1/6"), &json!("1/6"), &json!("1/3"), &json!("1/3")]
    );
    assert!(
        (answer["worlds"]["text"].as_str().unwrap())
            .contains("car = two, pick = one, host_opens = opens_three   [1/3]"),
        "{answer}"
    );
    // The show, with its value and its text.
    let shows: Vec<&Value> = (answer["trace"].as_array().unwrap().iter())
        .filter(|item| item["kind"] == "show")
        .collect();
    assert_eq!(
        shows,
        [&json!({
            "kind": "show",
            "line": 16,
            "expression": "probability(Contestant, car == two)",
            "probability": true,
            "value": "2/3",
            "text": "line 16: show probability(Contestant, car == two) = 2/3\n",
        })]
    );
    // The model: each world's probability.
    let model = server.client().post_json("/api/graph", &request).json();
    assert_eq!(model["exit_code"], 0, "{model}");
    assert_eq!(model["probabilities"], json!(["1/6", "1/6", "1/3", "1/3"]));
    assert!(model["worlds"][0].get("probability").is_none(), "{model}");
    // A story without chances has none.
    let cheryl = server.client().post_json("/api/graph", &cheryl()).json();
    assert!(cheryl.get("probabilities").is_none(), "{cheryl}");
    // The page lists and draws them (its scripts read them apart from the constants).
    let (page, model) = (
        server.client().get("/app.js"),
        server.client().get("/model.js"),
    );
    assert_eq!((page.status, model.status), (200, 200));
    let scripts = page.body + &model.body;
    for needle in ["chanceOf(", "model.probabilities", "\"probability\""] {
        assert!(scripts.contains(needle), "the scripts lack {needle}");
    }
}
