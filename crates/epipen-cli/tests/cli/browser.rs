//! The playground in a real browser: headless Chromium (Debian's `chromium` package)
//! loads `epipen serve`'s page, picks Cheryl's Birthday, sees its one world, its trace and
//! its model, and then a typed error at its place, driven through the DevTools protocol.
//!
//! Chromium is provisioned like the build provisions Z3: `CHROMIUM` names a binary, else
//! `chromium` on the PATH, else the test installs Debian's package with apt-get (as root,
//! or with `sudo -n`), saying so; when it cannot, the test fails and says why. It is never
//! skipped. `EPIPEN_SCREENSHOTS=docs` also writes the screenshots into docs/ (else they go
//! to target/tmp/).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

use super::serve::{Server, cli_error, cli_output};

/// Says something on the terminal, past the test harness's capture.
fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// The Chromium binary, installed the first time if need be.
fn chromium() -> PathBuf {
    static CHROMIUM: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    CHROMIUM
        .get_or_init(provision)
        .clone()
        .unwrap_or_else(|why| panic!("{why}"))
}

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

fn provision() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Ok(PathBuf::from(path));
    }
    if let Some(path) = on_path("chromium") {
        return Ok(path);
    }
    let cannot = |why: String| {
        format!(
            "the browser test needs Chromium, and could not install it: {why}\n\
             install Debian's package (`apt-get install chromium` as root), or set CHROMIUM \
             to a Chromium or Chrome binary"
        )
    };
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let (program, prefix): (&str, &[&str]) = if root {
        ("apt-get", &[])
    } else if on_path("sudo").is_some() {
        ("sudo", &["-n", "apt-get"])
    } else {
        return Err(cannot("not root, and no sudo".into()));
    };
    say(
        "browser test: Chromium is not installed; installing Debian's `chromium` package with apt-get (once, about 100 MB)",
    );
    for args in [
        &["update", "-qq"][..],
        &["install", "-y", "-qq", "chromium"],
    ] {
        let status = Command::new(program)
            .args(prefix)
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status()
            .map_err(|e| cannot(format!("cannot run {program}: {e}")))?;
        if !status.success() {
            return Err(cannot(format!(
                "`apt-get {}` failed ({status})",
                args.join(" ")
            )));
        }
    }
    on_path("chromium").ok_or_else(|| cannot("apt-get installed no `chromium` on the PATH".into()))
}

/// A browser's own profile folder in target/tmp, removed when it is dropped: when the
/// test ends, passed or failed (a panic unwinds through it), or Chromium did not start.
struct Profile(PathBuf);

impl Profile {
    fn new() -> Profile {
        // One profile per browser: the tests run in parallel, in one process.
        static LAUNCHED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = LAUNCHED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("chromium-profile-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        Profile(path)
    }
}

impl Drop for Profile {
    fn drop(&mut self) {
        // Chromium's processes are gone (see `Chromium`'s drop), but the file system may
        // take a moment: try for two seconds.
        for _ in 0..20 {
            if std::fs::remove_dir_all(&self.0).is_ok() || !self.0.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        say(&format!("browser test: cannot remove {}", self.0.display()));
    }
}

/// Chromium's processes: the browser, started in a process group of its own, and its
/// helpers (zygotes, renderers, the GPU and network processes) in that group. Dropped,
/// the whole group is killed and the browser waited for, so that none of them still
/// writes into the profile when it is removed.
struct Chromium(Child);

impl Drop for Chromium {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let killed = Command::new("kill")
            .args(["-s", "KILL", "--", &group])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !killed {
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}

/// A headless Chromium with one page, driven over the DevTools protocol. Its fields drop
/// in order: the connection, then the processes, then the profile folder.
struct Browser {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    session: String,
    next: u64,
    /// Exceptions thrown and errors logged in the page.
    errors: Vec<String>,
    _processes: Chromium,
    /// The browser's own profile folder, removed when it ends.
    profile: Profile,
}

impl Browser {
    fn launch() -> Browser {
        use std::os::unix::process::CommandExt;
        let profile = Profile::new();
        let child = Command::new(chromium())
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.0.display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium().display()));
        let mut child = Chromium(child);
        // Chromium says where its DevTools listen on stderr; the rest of stderr is drained.
        let (tx, rx) = std::sync::mpsc::channel();
        let stderr = BufReader::new(child.0.stderr.take().expect("stderr"));
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("DevTools listening on ") {
                    let _ = tx.send(url.to_string());
                }
            }
        });
        // A panic here drops `child` and `profile`: nothing stays behind.
        let url = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(url) => url,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                panic!("Chromium did not start its DevTools within 60 s");
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                panic!("Chromium ended without starting its DevTools");
            }
        };
        let (socket, _) = tungstenite::connect(&url).expect("connect to Chromium's DevTools");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(Duration::from_secs(60)))
                .unwrap();
        }
        let mut browser = Browser {
            _processes: child,
            socket,
            session: String::new(),
            next: 0,
            errors: Vec::new(),
            profile,
        };
        let target = browser.call("Target.createTarget", json!({"url": "about:blank"}));
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        browser.session = attached["sessionId"].as_str().unwrap().to_string();
        browser.call("Runtime.enable", json!({}));
        browser.call("Log.enable", json!({}));
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1400, "height": 1450, "deviceScaleFactor": 1, "mobile": false}),
        );
        browser
    }

    /// Sets the page's size (at launch: 1400 × 1450).
    fn viewport(&mut self, width: u32, height: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
    }

    /// Calls a DevTools method on the page and returns its result.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let mut message = json!({"id": self.next, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = self.session.clone().into();
        }
        self.socket
            .send(Message::text(message.to_string()))
            .unwrap_or_else(|e| panic!("{method}: {e}"));
        loop {
            let reply = self
                .socket
                .read()
                .unwrap_or_else(|e| panic!("{method}: {e}"));
            let Message::Text(text) = reply else { continue };
            let reply: Value = serde_json::from_str(&text).unwrap();
            match reply["method"].as_str() {
                Some("Runtime.exceptionThrown") => self
                    .errors
                    .push(reply["params"]["exceptionDetails"].to_string()),
                Some("Log.entryAdded") if reply["params"]["entry"]["level"] == "error" => self
                    .errors
                    .push(reply["params"]["entry"]["text"].to_string()),
                _ => {}
            }
            if reply["id"] == self.next {
                if !reply["error"].is_null() {
                    panic!("{method}: {}", reply["error"]);
                }
                return reply["result"].clone();
            }
        }
    }

    /// The value of a JavaScript expression in the page (promises awaited).
    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "awaitPromise": true, "returnByValue": true}),
        );
        if !result["exceptionDetails"].is_null() {
            panic!("{expression}: {}", result["exceptionDetails"]);
        }
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true in the page (a minute at most).
    fn wait(&mut self, what: &str, expression: &str) {
        let start = Instant::now();
        while self.eval(expression) != json!(true) {
            if start.elapsed() > Duration::from_secs(60) {
                let status = self.eval("document.getElementById('status').textContent");
                panic!("waited a minute for {what} ({expression}); the page says {status}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs `action` (JavaScript) and waits for the run it starts to finish.
    fn run(&mut self, what: &str, action: &str) {
        self.eval(&format!(
            "document.body.dataset.state = 'waiting'; {{ {action} }} true"
        ));
        self.wait(what, "document.body?.dataset.state === 'done'");
    }

    /// Picks a story from the list by its title (options read `TITLE — FILE`).
    fn pick(&mut self, title: &str) {
        let title = serde_json::to_string(&format!("{title} — ")).unwrap();
        self.run(
            title.as_str(),
            &format!(
                "const select = document.getElementById('story');
                 const option = [...select.options].find(o => o.text.startsWith({title}));
                 select.value = option.value;
                 select.dispatchEvent(new Event('change'))"
            ),
        );
    }

    /// The rows of the worlds table, its header first.
    fn worlds(&mut self) -> Value {
        self.eval("[...document.querySelectorAll('#worlds tr')].map(r => [...r.cells].map(c => c.textContent))")
    }

    fn text(&mut self, selector: &str) -> String {
        let selector = serde_json::to_string(selector).unwrap();
        self.eval(&format!("document.querySelector({selector}).textContent"))
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Saves a PNG of the page as target/tmp/NAME (and docs/NAME with
    /// `EPIPEN_SCREENSHOTS=docs`).
    fn screenshot(&mut self, name: &str) {
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let png = base64(shot["data"].as_str().unwrap());
        assert_eq!(&png[1..4], b"PNG");
        std::fs::write(Path::new(env!("CARGO_TARGET_TMPDIR")).join(name), &png).unwrap();
        if std::env::var("EPIPEN_SCREENSHOTS").as_deref() == Ok("docs") {
            // The workspace's docs/ (tests run in the crate's directory).
            let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
            std::fs::write(docs.join(name), &png).unwrap();
        }
    }
}

impl Browser {
    /// Ends the browser, checks that the page logged no error, and that its profile
    /// folder is gone from target/tmp.
    fn close(self) {
        let errors = self.errors.clone();
        let profile = self.profile.0.clone();
        drop(self);
        assert!(!profile.exists(), "{} stayed behind", profile.display());
        assert_eq!(errors, Vec::<String>::new());
    }
}

/// Decodes standard base64 (what DevTools sends screenshots in).
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|chunk| {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &d)| n | (d as u32) << (18 - 6 * i));
            n.to_be_bytes()[1..chunk.len()].to_vec()
        })
        .collect()
}

#[test]
fn base64_decodes() {
    assert_eq!(base64("aGVsbG8="), b"hello");
    assert_eq!(base64("aGk="), b"hi");
    assert_eq!(base64("YWJj"), b"abc");
}

#[test]
fn the_playground_solves_and_explains_cheryls_birthday_in_a_browser() {
    let server = Server::start(&[]);
    let mut browser = Browser::launch();
    browser.call(
        "Page.navigate",
        json!({"url": format!("http://{}/", server.addr)}),
    );
    browser.wait(
        "the page to list the stories",
        "document.querySelectorAll('#story option').length > 10",
    );

    // Other stories first, then Cheryl's Birthday, as a visitor would pick them.
    browser.pick("Consecutive Numbers");
    assert_eq!(
        browser.worlds(),
        json!([["A", "B"], ["1", "2"], ["2", "3"]])
    );
    // Too many worlds at its first checkpoint for a graph: the model at the end instead.
    browser.pick("Sum and Product");
    assert_eq!(browser.worlds(), json!([["x", "y"], ["4", "13"]]));
    assert_eq!(
        browser.text("#graph-note"),
        "(at checkpoint informed: the model at checkpoint informed has 2352 worlds; a graph \
         shows at most 500) sum-and-product.story at the end: 1 world"
    );
    browser.pick("Cheryl's Birthday");
    assert_eq!(browser.worlds(), json!([["month", "day"], ["7", "16"]]));
    let status = browser.text("#status");
    assert!(status.starts_with("1 world at the end · "), "{status}");
    assert!(status.ends_with(" ms · explicit backend"), "{status}");
    assert_eq!(browser.text("#counts"), "∞ → 10 → 5 → 3 → 1");
    let steps = browser.eval(
        "[...document.querySelectorAll('#trace li[data-kind=step]')].map(li => li.firstChild.textContent + li.children[0].textContent)",
    );
    assert_eq!(steps[0], "start  ⇒  infinitely many worlds");
    assert_eq!(steps[3], "line 17: Bernard learns day  ⇒  10 worlds");
    assert_eq!(
        steps[5],
        "line 21: Albert: not knows_value(month, day) and knows(not knows_value(Bernard, …  ⇒  5 worlds"
    );
    // The whole statement shows on hover.
    let titles = browser
        .eval("[...document.querySelectorAll('#trace li[data-kind=step]')].map(li => li.title)");
    assert_eq!(
        titles[5],
        "Albert: not knows_value(month, day) and knows(not knows_value(Bernard, month, day))"
    );
    let fates = browser.eval(
        "[...document.querySelectorAll('#fates tr')].slice(1).map(r => r.cells[0].textContent + ': ' + r.cells[1].textContent)",
    );
    assert_eq!(fates.as_array().unwrap().len(), 10);
    assert_eq!(fates[5], "month = 7, day = 16: still possible");
    assert_eq!(
        fates[0],
        "month = 7, day = 14: line 24: Bernard: not at(whispered, knows_value(month, day)) and knows_value(mon…"
    );
    assert_eq!(
        fates[3],
        "month = 8, day = 15: line 27: Albert: knows_value(month, day)"
    );

    // The model at the checkpoint `whispered`: ten dates; Albert cannot tell apart the
    // dates of a month, Bernard those of a day.
    assert_eq!(
        browser.text("#graph-note"),
        "cheryl.story at checkpoint whispered: 10 worlds"
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('#graph g.node').length"),
        10
    );
    let edges =
        browser.eval("[...document.querySelectorAll('#graph line.edge')].map(e => e.dataset.who)");
    let by = |who: &str| {
        edges
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| *e == who)
            .count()
    };
    assert_eq!((by("Albert"), by("Bernard")), (8, 4));
    assert_eq!(
        browser.text("#legend"),
        "Albert cannot tell these apartBernard cannot tell these apart"
    );
    browser.screenshot("playground.png");

    // The model at the end: the one world.
    browser.eval(
        "{ const at = document.getElementById('at'); at.value = ''; at.dispatchEvent(new Event('change')); } true",
    );
    browser.wait(
        "the model at the end",
        "document.getElementById('graph-note').textContent === 'cheryl.story at the end: 1 world'",
    );

    // Type an error: `month` on line 16 becomes `mnth`.
    let source = browser.eval("document.getElementById('source').value");
    let source = source.as_str().unwrap().to_string();
    let byte = source.find("Albert learns month").unwrap() + "Albert learns ".len();
    // The page counts UTF-16 code units (line 1 has a `§`).
    let at = source[..byte].encode_utf16().count();
    browser.eval(&format!(
        "{{ const s = document.getElementById('source'); s.focus(); s.setSelectionRange({at}, {}); }} true",
        at + "month".len()
    ));
    browser.eval("document.body.dataset.state = 'waiting'; true");
    browser.call("Input.insertText", json!({"text": "mnth"}));
    browser.wait(
        "the run after typing",
        "document.body?.dataset.state === 'done'",
    );
    let typed = source.replacen("Albert learns month", "Albert learns mnth", 1);
    let (code, stderr) = cli_error(&["run"], "cheryl.story", &typed);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("cheryl.story:16:15: error: unknown name `mnth`\n"),
        "{stderr}"
    );
    assert_eq!(browser.text("#error"), stderr);
    assert_eq!(browser.text("#status"), "exit code 2: story error");
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#highlight .err-line')].map(l => l.dataset.line)"
        ),
        json!(["16"])
    );
    assert_eq!(browser.text("#highlight .err-at"), "mnth");
    // Its place is a link to the line and column.
    browser.eval("document.querySelector('#error a').click(); true");
    assert_eq!(
        browser.eval("document.getElementById('source').selectionStart"),
        json!(at)
    );
    browser.screenshot("playground-error.png");

    // A shared link carries the story: opened afresh, it shows the same error.
    browser.eval("document.getElementById('share').click(); true");
    let link = browser.eval("document.getElementById('link').value");
    let link = link.as_str().unwrap().to_string();
    assert!(link.contains("#name=cheryl.story&story="), "{link}");
    browser.call("Page.navigate", json!({"url": "about:blank"}));
    browser.call("Page.navigate", json!({"url": link}));
    browser.wait(
        "the shared story to run",
        "document.body?.dataset.state === 'done'",
    );
    assert_eq!(browser.text("#error"), stderr);
    assert_eq!(
        browser.eval("document.getElementById('source').value"),
        json!(typed)
    );

    // Belief: B expects p, so from the world where p is false a dashed arrow goes to the
    // one where it holds.
    browser.eval("document.body.dataset.state = 'waiting'; true");
    browser.eval(
        "{ const s = document.getElementById('source'); \
           s.value = 'characters A, B\\nbool p\\nA learns p\\nB expects p\\n'; \
           s.dispatchEvent(new Event('input')); } true",
    );
    browser.wait(
        "the belief story's graph",
        "document.body?.dataset.state === 'done' && \
         document.querySelectorAll('#graph path.belief').length > 0",
    );
    assert_eq!(
        browser
            .eval("[...document.querySelectorAll('#graph path.belief')].map(p => p.dataset.who)"),
        json!(["B"])
    );
    // The trace says what B believes after `B expects p`.
    assert_eq!(
        browser.eval("[...document.querySelectorAll('#trace p.belief')].map(p => p.textContent)"),
        json!(["where B cannot tell apart p = false; p = true, B believes: p = true"])
    );
    browser.close();
}

#[test]
fn the_playground_steps_through_the_muddy_children_as_a_teacher_would() {
    let server = Server::start(&[]);
    let mut browser = Browser::launch();
    browser.call(
        "Page.navigate",
        json!({"url": format!("http://{}/", server.addr)}),
    );
    browser.wait(
        "the page to list the stories",
        "document.querySelectorAll('#story option').length > 10",
    );
    browser.pick("The Muddy Children");
    // The actual world is marked (a second ring), and the legend says so.
    assert_eq!(
        browser.eval("document.querySelectorAll('#graph g.node.actual circle.ring').length"),
        1
    );
    let legend = browser.text("#legend");
    assert!(legend.ends_with("the actual world"), "{legend}");

    // A click on a step of the trace draws the model after it: the cube shrinks round by
    // round.
    let mut counts = Vec::new();
    for label in [
        "line 21",
        "line 26, round 1",
        "line 26, round 2",
        "line 26, round 3",
    ] {
        let label = serde_json::to_string(&format!("{label}:")).unwrap();
        browser.run(
            &format!("the model after {label}"),
            &format!(
                "[...document.querySelectorAll('#trace li[data-kind=step]')]
                   .find(li => li.firstChild.textContent.startsWith({label})).click()"
            ),
        );
        let note = browser.text("#graph-note");
        let nodes = browser.eval("document.querySelectorAll('#graph g.node').length");
        assert_eq!(
            browser.eval(
                "document.querySelector('#trace li.drawn').firstChild.textContent.split(':')[0]"
            ),
            json!(label.trim_matches('"').trim_end_matches(':')),
        );
        counts.push((note, nodes));
    }
    assert_eq!(
        counts,
        [
            (
                "muddy-children.story after line 21: 63 worlds".to_string(),
                json!(63)
            ),
            (
                "muddy-children.story after line 26, round 1: 57 worlds".to_string(),
                json!(57)
            ),
            (
                "muddy-children.story after line 26, round 2: 42 worlds".to_string(),
                json!(42)
            ),
            (
                "muddy-children.story after line 26, round 3: 1 world".to_string(),
                json!(1)
            ),
        ]
    );
    // The menu says which model is drawn, and so does the slider.
    assert_eq!(
        browser.eval("document.getElementById('at').value"),
        "step:6"
    );
    assert_eq!(browser.text("#step-label"), "step 6 of 8: line 26, round 3");
    // The menu names each step shortly: its line (and round), not its statement cut.
    assert_eq!(
        browser.eval("[...document.querySelectorAll('#at optgroup option')].map(o => o.text)"),
        json!([
            "after the start",
            "after line 11",
            "after line 16 (i in 0..6, j in 0..6)",
            "after line 21",
            "after line 26, round 1",
            "after line 26, round 2",
            "after line 26, round 3",
            "after line 26, round 4",
            "after line 35",
        ])
    );
    // The slider steps through the same models: step 4 is round 1 (the trace's steps
    // are the start, lines 11, 16 and 21, rounds 1 to 4, line 35).
    browser.run(
        "the slider at step 4",
        "const s = document.getElementById('step-slider'); s.value = '4'; \
         s.dispatchEvent(new Event('input'))",
    );
    assert_eq!(
        (
            browser.text("#graph-note"),
            browser.eval("document.querySelectorAll('#graph g.node').length"),
            browser.eval("document.getElementById('at').value"),
            browser.text("#step-label"),
        ),
        (
            "muddy-children.story after line 26, round 1: 57 worlds".to_string(),
            json!(57),
            json!("step:4"),
            "step 4 of 8: line 26, round 1".to_string()
        )
    );
    assert_eq!(
        browser
            .eval("document.querySelector('#trace li.drawn').firstChild.textContent.split(':')[0]"),
        "line 26, round 1"
    );
    let after_round_2 = "[...document.querySelectorAll('#trace li[data-kind=step]')]
        .find(li => li.firstChild.textContent.startsWith('line 26, round 2:')).click()";
    browser.run("the model after round 2", after_round_2);

    // A click on a character in the legend: its edges highlighted, the others dimmed.
    let edges = "document.querySelectorAll('#graph line.edge').length";
    let total = browser.eval(edges).as_u64().unwrap();
    browser.eval("document.querySelector('#legend .who[data-who=\"child[0]\"]').click(); true");
    let focused = browser
        .eval("[...document.querySelectorAll('#graph line.edge.focus')].map(e => e.dataset.who)");
    let focused = focused.as_array().unwrap();
    assert!(!focused.is_empty());
    assert!(focused.iter().all(|who| who == "child[0]"), "{focused:?}");
    let dimmed = browser.eval("document.querySelectorAll('#graph line.edge.dim').length");
    assert_eq!(dimmed.as_u64().unwrap() + focused.len() as u64, total);
    assert_eq!(
        browser.eval("document.querySelector('#legend .who.active').dataset.who"),
        "child[0]"
    );
    // The worlds it cannot tell apart, ringed: after round 2 the worlds with at least
    // three muddy children are left (42); child[0] cannot tell apart each of them from
    // the one with its own forehead otherwise where both are left: 16 pairs (three or
    // more of the five others muddy: 10 + 5 + 1); in the other 10 worlds (exactly three
    // muddy, child[0] among them) it knows.
    assert_eq!(
        browser.eval("document.querySelectorAll('#graph g.node.focus').length"),
        32
    );
    assert_eq!(
        browser.eval("document.querySelectorAll('#graph g.node.plausible').length"),
        0
    );
    assert_eq!(
        browser.text("#focus-note"),
        "child[0] cannot tell apart the worlds of each of 16 groups (32 worlds, ringed in \
         its colour); it knows which world it is in 10 others"
    );
    browser.screenshot("playground-steps.png");
    // The drawing to download shows the highlight, and says it under the graph.
    let file = browser.eval(
        "decodeURIComponent(document.getElementById('download').href.split(',').slice(1).join(','))",
    );
    let file = file.as_str().unwrap();
    assert_eq!(file.matches("class=\"node focus\"").count(), 32, "{file}");
    assert!(
        file.contains(">child[0] cannot tell apart the worlds of each of 16 groups"),
        "{file}"
    );
    browser.eval("document.querySelector('#legend .who[data-who=\"child[0]\"]').click(); true");
    assert_eq!(
        browser.eval("document.querySelectorAll('#graph .focus, #graph .dim').length"),
        0
    );

    // The drawing to download: an SVG file in a data URL.
    let href = browser.eval("document.getElementById('download').href");
    let href = href.as_str().unwrap();
    assert!(
        href.starts_with("data:image/svg+xml;charset=utf-8,"),
        "{href}"
    );
    assert_eq!(
        browser.eval("document.getElementById('download').download"),
        "muddy-children-step-5.svg"
    );
    let file = browser.eval(
        "decodeURIComponent(document.getElementById('download').href.split(',').slice(1).join(','))",
    );
    let file = file.as_str().unwrap();
    assert!(file.contains("<svg"), "{file}");
    assert!(file.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(file.matches("class=\"node").count(), 42);
    assert_eq!(file.matches("class=\"node actual\"").count(), 1);
    // A document of its own, its style inside.
    assert!(file.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg"));
    assert!(file.ends_with("</svg>"), "{file}");
    assert!(file.contains("<style>"), "{file}");
    // Its legend under the graph: the title, each child's colour, the actual world.
    let legend = file.split("<g class=\"legend\"").nth(1).unwrap_or_default();
    let rows: Vec<&str> = (legend.split("<text").skip(1))
        .map(|t| t.split('>').nth(1).unwrap().split('<').next().unwrap())
        .collect();
    assert_eq!(
        rows,
        [
            "muddy-children.story after line 26, round 2: 42 worlds",
            "child[0] cannot tell these apart",
            "child[1] cannot tell these apart",
            "child[2] cannot tell these apart",
            "child[3] cannot tell these apart",
            "child[4] cannot tell these apart",
            "child[5] cannot tell these apart",
            "double ring: the actual world",
        ]
    );

    // The Russian cards' long labels fit their circles.
    browser.pick("The Russian Cards");
    let spill = browser.eval(
        "[...document.querySelectorAll('#graph g.node')].filter(g => {
           const r = +g.querySelector('circle:not(.ring)').getAttribute('r');
           const b = g.querySelector('text').getBBox();
           return Math.hypot(Math.max(-b.x, b.x + b.width), Math.max(-b.y, b.y + b.height)) > r;
         }).length",
    );
    let nodes = browser.eval("document.querySelectorAll('#graph g.node').length");
    assert!(nodes.as_u64().unwrap() > 0);
    assert_eq!(spill, 0, "labels outside their circles");

    // Long lines wrap in the editor, their numbers and marks beside them.
    browser.eval("document.body.dataset.state = 'waiting'; true");
    browser.eval(
        "{ const s = document.getElementById('source'); \
           s.value = '# ' + 'a long comment '.repeat(30) + '\\ncharacters A\\nbool p\\nA learns q\\n'; \
           s.dispatchEvent(new Event('input')); } true",
    );
    browser.wait(
        "the error of the wrapped story",
        "document.body?.dataset.state === 'done' && \
         document.querySelectorAll('#highlight .err-line').length > 0",
    );
    let layout = browser.eval(
        "(() => {
           const s = document.getElementById('source');
           const rows = document.getElementById('highlight').children;
           const numbers = document.getElementById('gutter').children;
           const line = parseFloat(getComputedStyle(s).lineHeight);
           return {
             overflows: s.scrollWidth > s.clientWidth,
             wrapped: rows[0].offsetHeight > 1.5 * line,
             aligned: [...rows].map((r, i) => numbers[i].getBoundingClientRect().top - r.getBoundingClientRect().top)
               .every((d) => Math.abs(d) < 0.5),
             error: document.querySelector('#highlight .err-line').dataset.line,
             at: document.querySelector('#highlight .err-at').textContent,
           };
         })()",
    );
    assert_eq!(
        layout,
        json!({"overflows": false, "wrapped": true, "aligned": true, "error": "4", "at": "q"})
    );
    browser.screenshot("playground-wrapped.png");
    browser.close();
}

/// A plan found (issue 41): the trace lists its steps under its answer, and a click on
/// one draws the model after it, the step marked.
#[test]
fn the_playground_draws_the_model_after_each_step_of_a_plan() {
    let server = Server::start(&[]);
    let mut browser = Browser::launch();
    browser.call(
        "Page.navigate",
        json!({"url": format!("http://{}/", server.addr)}),
    );
    browser.wait(
        "the page to list the stories",
        "document.querySelectorAll('#story option').length > 10",
    );
    browser.pick("The door mat");
    // Each plan's steps, numbered, under its answer.
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#trace li[data-kind=plan]')].map(li => \
               [li.firstChild.textContent, \
                [...li.querySelectorAll('ol.plan-steps li')].map(s => s.textContent)])"
        ),
        json!([
            ["line 25: plan of 1 action: try_take", ["1. try_take"]],
            [
                "line 29: plan of 2 actions: tell, try_take",
                ["1. tell", "2. try_take"]
            ],
        ])
    );
    let click = |browser: &mut Browser, line: u32, step: u32| {
        browser.run(
            &format!("the model after step {step} of line {line}'s plan"),
            &format!(
                "[...document.querySelectorAll('#trace li[data-kind=plan]')]
                   .find(li => li.firstChild.textContent.startsWith('line {line}:'))
                   .querySelectorAll('ol.plan-steps li')[{step} - 1].click()"
            ),
        );
        browser.eval(
            "({ note: document.getElementById('graph-note').textContent,
                worlds: document.querySelectorAll('#graph g.node').length,
                actual: document.querySelectorAll('#graph g.node.actual').length,
                drawn: [...document.querySelectorAll('#trace li.drawn')].map(li => li.textContent),
                at: document.getElementById('at').value })",
        )
    };
    let after = |note: &str, worlds: u64, drawn: &str, at: &str| json!({"note": note, "worlds": worlds, "actual": 1, "drawn": [drawn], "at": at});
    // Bob tries: two worlds, he sees whether he took the key.
    assert_eq!(
        click(&mut browser, 25, 1),
        after(
            "door-mat.story after line 25's plan, step 1 (try_take): 2 worlds",
            2,
            "1. try_take",
            "plan:4:1"
        )
    );
    // Anne tells him first: one world, then he takes the key.
    assert_eq!(
        click(&mut browser, 29, 1),
        after(
            "door-mat.story after line 29's plan, step 1 (tell): 1 world",
            1,
            "1. tell",
            "plan:5:1"
        )
    );
    assert_eq!(
        click(&mut browser, 29, 2),
        after(
            "door-mat.story after line 29's plan, step 2 (try_take): 1 world",
            1,
            "2. try_take",
            "plan:5:2"
        )
    );
    // The menu lists the plans' steps after the trace's.
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#at optgroup')].at(-1).label + ': ' + \
             [...document.querySelectorAll('#at optgroup')].at(-1).children.length"
        ),
        "after a step of a plan: 3"
    );
    browser.screenshot("playground-plan.png");
    browser.close();
}

/// An mA* file (issue 45), picked from the menu's group of mA* files: the status says
/// its plan as `epipen plan` does, the trace lists the plan's steps, and the model is
/// drawn at the start and after each step, picked from the trace or the menu; a mistake
/// typed is marked at its place.
#[test]
fn the_playground_plans_an_mastar_file_and_draws_the_model_after_each_step() {
    let server = Server::start(&[]);
    let mut browser = Browser::launch();
    browser.call(
        "Page.navigate",
        json!({"url": format!("http://{}/", server.addr)}),
    );
    browser.wait(
        "the page to list the stories",
        "document.querySelectorAll('#story option').length > 10",
    );
    // The menu's groups: the stories, SMCDEL's files, mA*'s.
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#story optgroup')].map(g => \
               [g.label, [...g.children].slice(-2).map(o => o.value)])"
        ),
        json!([
            ["Stories", ["who-has-the-sum.story", "zebra.story"]],
            [
                "SMCDEL files",
                ["knowledge.smcdel.txt", "quantifiers.smcdel.txt"]
            ],
            ["mA* files", ["coin-in-the-box.txt", "grapevine.txt"]],
        ])
    );
    browser.pick("A coin lies in a locked box; Anne holds the key");
    let (_, plan, _) = cli_output(
        &["plan"],
        "coin-in-the-box.txt",
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/mastar/coin-in-the-box.txt"),
        )
        .unwrap(),
    );
    assert_eq!(plan, "plan of 3 actions: call_bob, unlock, peek\n");
    let status = browser.text("#status");
    assert!(
        status.starts_with(&format!("mA* file: {}", plan.trim_end())),
        "{status}"
    );
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#trace li[data-kind=plan]')].map(li => \
               [li.firstChild.textContent, \
                [...li.querySelectorAll('ol.plan-steps li')].map(s => s.textContent)])"
        ),
        json!([[
            "plan of 3 actions: call_bob, unlock, peek",
            ["1. call_bob", "2. unlock", "3. peek"]
        ]])
    );
    let drawn = |browser: &mut Browser| {
        browser.eval(
            "({ note: document.getElementById('graph-note').textContent,
                worlds: document.querySelectorAll('#graph g.node').length,
                actual: document.querySelectorAll('#graph g.node.actual').length,
                drawn: [...document.querySelectorAll('#trace li.drawn')].map(li => li.textContent),
                at: document.getElementById('at').value })",
        )
    };
    // At first the initial state; the menu lists it and each step of the plan.
    assert_eq!(
        drawn(&mut browser),
        json!({"note": "coin-in-the-box.txt at the start: 3 worlds", "worlds": 3, "actual": 1,
               "drawn": [], "at": ""})
    );
    assert_eq!(
        browser.eval("[...document.getElementById('at').options].map(o => o.text)"),
        json!([
            "at the start",
            "after step 1 of the plan (call_bob)",
            "after step 2 of the plan (unlock)",
            "after step 3 of the plan (peek)",
        ])
    );
    // A click on each step draws the model after it.
    for (step, action, worlds) in [(1, "call_bob", 5), (2, "unlock", 9), (3, "peek", 17)] {
        browser.run(
            &format!("the model after step {step}"),
            &format!(
                "document.querySelectorAll('#trace li[data-kind=plan] ol.plan-steps li')[{step} - 1].click()"
            ),
        );
        assert_eq!(
            drawn(&mut browser),
            json!({
                "note": format!("coin-in-the-box.txt after step {step} of the plan ({action}): {worlds} worlds"),
                "worlds": worlds,
                "actual": 1,
                "drawn": [format!("{step}. {action}")],
                "at": format!("plan:7:{step}"),
            })
        );
    }
    browser.screenshot("playground-mastar.png");
    // Back to the start from the menu.
    browser.run(
        "the initial state",
        "const at = document.getElementById('at'); at.value = ''; \
         at.dispatchEvent(new Event('change'))",
    );
    assert_eq!(
        drawn(&mut browser)["note"],
        "coin-in-the-box.txt at the start: 3 worlds"
    );

    // A fluent misspelt: the CLI's error, marked at its place.
    browser.eval("document.body.dataset.state = 'waiting'; true");
    browser.eval(
        "{ const s = document.getElementById('source'); \
           s.value = s.value.replace('call_bob causes bob_watches', 'call_bob causes bob_wtches'); \
           s.dispatchEvent(new Event('input')); } true",
    );
    browser.wait(
        "the run after the typo",
        "document.body?.dataset.state === 'done' && \
         document.querySelectorAll('#highlight .err-line').length > 0",
    );
    let typed = browser.eval("document.getElementById('source').value");
    let (code, stderr) = cli_error(&["plan"], "coin-in-the-box.txt", typed.as_str().unwrap());
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with(
            "coin-in-the-box.txt:13:17: error: the fluent `bob_wtches` is not declared\n"
        ),
        "{stderr}"
    );
    assert_eq!(browser.text("#error"), stderr);
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#highlight .err-line')].map(l => l.dataset.line)"
        ),
        json!(["13"])
    );
    assert_eq!(browser.text("#highlight .err-at"), "bob_wtches");
    browser.close();
}

/// Probabilities (issue 29): the worlds table has a probability column, the trace lists
/// each world's probability beside it and prints the `show`, and the model labels each
/// world with its probability.
#[test]
fn the_playground_shows_probabilities_beside_the_worlds() {
    let server = Server::start(&[]);
    let mut browser = Browser::launch();
    browser.call(
        "Page.navigate",
        json!({"url": format!("http://{}/", server.addr)}),
    );
    browser.wait(
        "the page to list the stories",
        "document.querySelectorAll('#story option').length > 10",
    );
    browser.eval("document.body.dataset.state = 'waiting'; true");
    browser.eval(
        "{ const s = document.getElementById('source'); \
           s.value = 'characters A\\nint x\\nannounce 1 <= x and x <= 3\\nprior x\\n\
                      show probability(x == 3)\\n'; \
           s.dispatchEvent(new Event('input')); } true",
    );
    browser.wait(
        "the chances story's graph",
        "document.body?.dataset.state === 'done' && \
         document.querySelectorAll('#graph g.node').length === 3",
    );
    assert_eq!(
        browser.worlds(),
        json!([
            ["x", "probability"],
            ["1", "1/6"],
            ["2", "1/3"],
            ["3", "1/2"]
        ])
    );
    let listed = browser.eval(
        "[...document.querySelectorAll('#trace li[data-kind=step]')][2].querySelector('ul').textContent",
    );
    assert_eq!(listed, json!("x = 1   [1/6]x = 2   [1/3]x = 3   [1/2]"));
    let shown = browser.eval(
        "[...document.querySelectorAll('#trace li[data-kind=show]')].map(li => li.textContent)",
    );
    assert_eq!(
        shown,
        json!(["line 5: show probability(x == 3): 1/2 in 3 worlds"])
    );
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#graph tspan.probability')].map(t => t.textContent)"
        ),
        json!(["1/6", "1/3", "1/2"])
    );
    browser.close();
}

/// A failing check shows (issue 31): in the trace (✘, the world where it fails), in the
/// editor (its line marked) and in the status (the run failed, exit code 1 as the CLI
/// exits); and a character picked in the legend shows the worlds it cannot tell apart
/// and those it finds most plausible.
#[test]
fn the_playground_marks_a_failing_check_and_what_a_character_believes() {
    let server = Server::start(&[]);
    let mut browser = Browser::launch();
    browser.call(
        "Page.navigate",
        json!({"url": format!("http://{}/", server.addr)}),
    );
    browser.wait(
        "the page to list the stories",
        "document.querySelectorAll('#story option').length > 10",
    );
    browser.pick("The Russian Cards");
    let verdicts = |browser: &mut Browser, class: &str| {
        browser.eval(&format!(
            "[...document.querySelectorAll('#trace li.{class}')].map(li => li.textContent)"
        ))
    };
    assert_eq!(
        verdicts(&mut browser, "holds"),
        json!([
            "check line 40: holds",
            "check line 42: holds",
            "check line 48: holds",
            "check line 49: holds"
        ])
    );
    assert_eq!(verdicts(&mut browser, "fails"), json!([]));
    let status = browser.text("#status");
    assert!(status.starts_with("4 worlds at the end · "), "{status}");
    assert!(status.ends_with(" ms · explicit backend"), "{status}");

    // The unsafe announcement: Cath learns cards, and the checks that she learns none
    // fail, as `epipen run --set safe=0` says.
    browser.run(
        "the unsafe announcement",
        "const i = document.querySelector('#consts input[data-const=safe]'); i.value = '0'; \
         i.dispatchEvent(new Event('change'))",
    );
    let source = super::read_story("russian-cards.story");
    let (code, stdout, _) = cli_output(&["run", "--set", "safe=0"], "russian-cards.story", &source);
    assert_eq!(code, 1);
    let world = "owner[0] = alice, owner[1] = alice, owner[2] = alice, owner[3] = bob, \
                 owner[4] = bob, owner[5] = bob, owner[6] = cath";
    // The command line goes on past a failing check as the page does: every verdict,
    // in order, then exit code 1.
    let checks: Vec<&str> = (stdout.lines())
        .filter(|line| line.starts_with("check line"))
        .collect();
    assert_eq!(
        checks,
        [
            "check line 40: holds".to_string(),
            format!("check line 42: fails in the world {world}"),
            "check line 48: holds".to_string(),
            format!("check line 49: fails in the world {world}"),
        ]
    );
    assert_eq!(
        verdicts(&mut browser, "fails"),
        json!([
            format!("check line 42: fails in the world {world}"),
            format!("check line 49: fails in the world {world}")
        ])
    );
    assert_eq!(
        verdicts(&mut browser, "holds"),
        json!(["check line 40: holds", "check line 48: holds"])
    );
    // Marked ✘, in red.
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#trace li.fails')].map(li => \
               getComputedStyle(li, '::before').content + ' ' + getComputedStyle(li).color)"
        ),
        json!(["\"✘ \" rgb(180, 35, 24)", "\"✘ \" rgb(180, 35, 24)"])
    );
    let status = browser.text("#status");
    assert!(
        status.starts_with("2 worlds at the end · the checks on lines 42 and 49 fail · "),
        "{status}"
    );
    assert!(
        status.ends_with(" ms · explicit backend · exit code 1"),
        "{status}"
    );
    assert_eq!(
        browser.eval("document.getElementById('status').classList.contains('bad')"),
        true
    );
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#highlight .fail-line')].map(l => l.dataset.line)"
        ),
        json!(["42", "49"])
    );
    // The trace scrolled to the first check that fails, for the screenshot.
    browser.eval(
        "{ const t = document.getElementById('trace'); const li = t.querySelector('li.fails'); \
           t.scrollTop += li.getBoundingClientRect().top - t.getBoundingClientRect().top - 80; } true",
    );
    browser.screenshot("playground-check.png");

    // Belief: A learns p; B cannot tell p from not p, and expects p.
    browser.eval("document.body.dataset.state = 'waiting'; true");
    browser.eval(
        "{ const s = document.getElementById('source'); \
           s.value = 'characters A, B\\nbool p\\nA learns p\\nB expects p\\n'; \
           s.dispatchEvent(new Event('input')); } true",
    );
    browser.wait(
        "the belief story's graph",
        "document.body?.dataset.state === 'done' && \
         document.querySelectorAll('#graph g.node').length === 2",
    );
    let focus = |browser: &mut Browser, who: &str| {
        browser.eval(&format!(
            "document.querySelector('#legend .who[data-who={who}]').click(); true"
        ));
        browser.eval(
            "({ note: document.getElementById('focus-note').textContent,
                ringed: [...document.querySelectorAll('#graph g.node.focus title')].map(t => t.textContent),
                filled: [...document.querySelectorAll('#graph g.node.plausible title')].map(t => t.textContent) })",
        )
    };
    assert_eq!(
        focus(&mut browser, "B"),
        json!({
            "note": "B cannot tell apart the worlds of each of 1 group (2 worlds, ringed in its \
                     colour); filled: the 1 world it finds most plausible",
            "ringed": ["p = false", "p = true"],
            "filled": ["p = true"],
        })
    );
    assert_eq!(
        focus(&mut browser, "A"),
        json!({"note": "A tells every world apart", "ringed": [], "filled": []})
    );
    browser.close();
}

/// What the drawn model looks like on the page: each world's circle (its centre and
/// diameter on the screen), the model panel's box, whether the editor's line numbers
/// stand beside their lines, and how many worlds are drawn.
const DRAWN: &str = "(() => {
  const panel = document.getElementById('graph').getBoundingClientRect();
  const circles = [...document.querySelectorAll('#graph g.node circle:not(.ring)')].map((c) => {
    const b = c.getBoundingClientRect();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2, d: b.width };
  });
  const rows = document.getElementById('highlight').children;
  const numbers = document.getElementById('gutter').children;
  const aligned = [...rows].every((r, i) => numbers[i] && numbers[i].textContent === String(i + 1) &&
    Math.abs(numbers[i].getBoundingClientRect().top - r.getBoundingClientRect().top) < 0.5);
  const off = [...rows].map((r, i) => [i + 1, numbers[i] && numbers[i].textContent,
    numbers[i] && numbers[i].getBoundingClientRect().top - r.getBoundingClientRect().top,
    r.offsetHeight, numbers[i] && numbers[i].offsetHeight]).filter((x) => x[1] !== String(x[0]) || Math.abs(x[2]) >= 0.5).slice(0, 3);
  return { panel: { left: panel.left, top: panel.top, right: panel.right, bottom: panel.bottom },
    circles, aligned, off, note: document.getElementById('graph-note').textContent };
})()";

/// The faults of a drawing (as [`DRAWN`] measures it): two circles overlapping, a
/// circle out of the model panel or smaller than `least` pixels across, line numbers
/// beside the wrong lines.
fn faults(name: &str, drawn: &Value, least: f64) -> Vec<String> {
    let mut out = Vec::new();
    let circles: Vec<(f64, f64, f64)> = (drawn["circles"].as_array().unwrap().iter())
        .map(|c| {
            (
                c["x"].as_f64().unwrap(),
                c["y"].as_f64().unwrap(),
                c["d"].as_f64().unwrap(),
            )
        })
        .collect();
    let p = &drawn["panel"];
    let (left, top) = (p["left"].as_f64().unwrap(), p["top"].as_f64().unwrap());
    let (right, bottom) = (p["right"].as_f64().unwrap(), p["bottom"].as_f64().unwrap());
    for (i, a) in circles.iter().enumerate() {
        for b in &circles[i + 1..] {
            if (a.0 - b.0).hypot(a.1 - b.1) < (a.2 + b.2) / 2.0 - 0.5 {
                out.push(format!("{name}: circles at {a:?} and {b:?} overlap"));
            }
        }
        let r = a.2 / 2.0;
        if a.0 - r < left - 0.5
            || a.0 + r > right + 0.5
            || a.1 - r < top - 0.5
            || a.1 + r > bottom + 0.5
        {
            out.push(format!(
                "{name}: the circle at {a:?} is out of the panel {p}"
            ));
        }
        if a.2 < least {
            out.push(format!(
                "{name}: a circle {:.1} px across, less than {least}",
                a.2
            ));
        }
    }
    if drawn["aligned"] != json!(true) {
        out.push(format!(
            "{name}: line numbers beside the wrong lines: {}",
            drawn["off"]
        ));
    }
    out
}

/// Issue 44: at 1400 × 1000 every story's model is drawn beside its trace with no two
/// worlds overlapping, every world inside the model panel, the editor's numbers beside
/// their lines (a first line that wraps included); the card deal, Monty Hall's end and
/// the four islanders' cube with circles at least 24 px across.
#[test]
fn every_story_is_drawn_in_the_playground_with_no_world_hidden() {
    let server = Server::start(&["--timeout", "60"]);
    let mut browser = Browser::launch();
    browser.viewport(1400, 1000);
    browser.call(
        "Page.navigate",
        json!({"url": format!("http://{}/", server.addr)}),
    );
    browser.wait(
        "the page to list the stories",
        "document.querySelectorAll('#story option').length > 10",
    );
    browser.wait("the first run", "document.body?.dataset.state === 'done'");
    let files = browser
        .eval("[...document.querySelectorAll('#story option')].map(o => o.value).filter(v => v)");
    let mut wrong = Vec::new();
    let mut drawn = 0;
    for file in files.as_array().unwrap() {
        let file = file.as_str().unwrap();
        let quoted = serde_json::to_string(file).unwrap();
        browser.run(
            file,
            &format!(
                "const select = document.getElementById('story'); select.value = {quoted}; \
                 select.dispatchEvent(new Event('change'))"
            ),
        );
        let seen = browser.eval(DRAWN);
        drawn += usize::from(!seen["circles"].as_array().unwrap().is_empty());
        wrong.extend(faults(file, &seen, 0.0));
    }
    assert_eq!(wrong, Vec::<String>::new());
    assert!(drawn > 40, "only {drawn} stories drew a model");

    // The model beside the trace: its panel's top above the fold, right of the trace.
    let (graph, trace) = (
        browser.eval("document.getElementById('graph').getBoundingClientRect().toJSON()"),
        browser.eval("document.getElementById('trace').getBoundingClientRect().toJSON()"),
    );
    assert!(graph["top"].as_f64().unwrap() < 400.0, "{graph}");
    assert!(
        graph["left"].as_f64().unwrap() >= trace["right"].as_f64().unwrap(),
        "{graph} {trace}"
    );

    // The card deal at `dealt`: six deals.
    browser.pick("The card deal");
    let seen = browser.eval(DRAWN);
    assert_eq!(
        seen["note"],
        "card-deal.story at checkpoint dealt: 6 worlds"
    );
    assert_eq!(seen["circles"].as_array().unwrap().len(), 6);
    assert_eq!(faults("card-deal", &seen, 24.0), Vec::<String>::new());
    browser.screenshot("playground-card-deal.png");

    // Monty Hall at the end.
    browser.pick("Monty Hall");
    browser.run(
        "Monty Hall's end",
        "const at = document.getElementById('at'); at.value = ''; at.dispatchEvent(new Event('change'))",
    );
    let seen = browser.eval(DRAWN);
    assert_eq!(seen["note"], "monty-hall.story at the end: 4 worlds");
    assert_eq!(faults("monty-hall", &seen, 24.0), Vec::<String>::new());
    browser.screenshot("playground-monty-hall.png");
    // The Monty Hall: the pick not announced, 12 worlds in 6 pieces at the end
    // (the model that once spread 5 622 units wide with 6 px circles).
    let story: String = (super::read_story("monty-hall.story").lines())
        .filter(|line| !line.starts_with("announce pick == one"))
        .map(|line| line.replace("actual car == two ", "actual car == two and pick == one ") + "\n")
        .collect();
    let quoted = serde_json::to_string(&story).unwrap();
    browser.eval("document.body.dataset.state = 'waiting'; true");
    browser.eval(&format!(
        "{{ const s = document.getElementById('source'); s.value = {quoted}; \
           s.dispatchEvent(new Event('input')); }} true"
    ));
    browser.wait(
        "Monty Hall with the pick unknown",
        "document.body?.dataset.state === 'done'",
    );
    browser.run(
        "its end",
        "const at = document.getElementById('at'); at.value = ''; at.dispatchEvent(new Event('change'))",
    );
    let seen = browser.eval(DRAWN);
    assert_eq!(seen["circles"].as_array().unwrap().len(), 12, "{seen}");
    assert_eq!(
        faults("monty-hall, the pick unknown", &seen, 24.0),
        Vec::<String>::new()
    );

    // Four muddy islanders: the cube of 16 worlds, after each has looked at the others.
    browser.pick("The Muddy Children");
    browser.run(
        "n = 4",
        "const n = document.querySelector('#consts input[data-const=n]'); n.value = '4'; \
         n.dispatchEvent(new Event('change'))",
    );
    browser.run(
        "the cube",
        "const k = [...document.querySelectorAll('#trace li[data-kind=step]')]
           .findIndex(li => li.firstChild.textContent.startsWith('line 16'));
         const s = document.getElementById('step-slider'); s.value = String(k);
         s.dispatchEvent(new Event('input'))",
    );
    let seen = browser.eval(DRAWN);
    assert_eq!(seen["circles"].as_array().unwrap().len(), 16, "{seen}");
    assert_eq!(
        faults("muddy-children n=4", &seen, 24.0),
        Vec::<String>::new()
    );
    browser.screenshot("playground-muddy-cube.png");
    browser.close();
}

/// Issue 44: a formula typed is asked of the model drawn, the worlds where it holds
/// filled; a click on a world says its values and which formulas hold there; the event
/// models are drawn; a story error empties the model's menu; the worlds table says what a
/// changed value was.
#[test]
fn the_playground_asks_the_model_and_draws_event_models() {
    let server = Server::start(&[]);
    let mut browser = Browser::launch();
    browser.viewport(1400, 1000);
    browser.call(
        "Page.navigate",
        json!({"url": format!("http://{}/", server.addr)}),
    );
    browser.wait(
        "the page to list the stories",
        "document.querySelectorAll('#story option').length > 10",
    );
    browser.pick("The card deal");
    // The event model of `showing`: three cases, Cath cannot tell them apart.
    browser.wait(
        "the event model",
        "document.getElementById('event-note').textContent.startsWith('card-deal.story: event')",
    );
    assert_eq!(
        browser.text("#event-note"),
        "card-deal.story: event showing, 3 cases"
    );
    assert_eq!(
        browser.eval(
            "[...document.querySelectorAll('#event-graph line.edge')].map(e => e.dataset.who)"
        ),
        json!(["Cath", "Cath", "Cath"])
    );
    // Ask, at `dealt`: Ann's card is 0 in two deals.
    let ask = |browser: &mut Browser, formula: &str| {
        let formula = serde_json::to_string(formula).unwrap();
        browser.run(
            formula.as_str(),
            &format!(
                "document.getElementById('ask').value = {formula}; \
                 document.getElementById('ask-form').requestSubmit()"
            ),
        );
    };
    ask(&mut browser, "ann == 0");
    let filled = "[...document.querySelectorAll('#graph g.node.holds')].map(g => +g.dataset.world)";
    assert_eq!(browser.eval(filled), json!([0, 1]));
    ask(&mut browser, "knows(Ann, not knows_value(Bob, ann))");
    assert_eq!(browser.eval(filled), json!([0, 1, 2, 3, 4, 5]));
    assert_eq!(
        browser.eval("[...document.querySelectorAll('#asked li')].map(l => l.textContent)"),
        json!([
            "ann == 0  holds in 2 of 6 worlds",
            "knows(Ann, not knows_value(Bob, ann))  holds in 6 of 6 worlds"
        ])
    );
    // A click on a world: its values and the formulas asked.
    browser.eval("document.querySelector('#graph g.node[data-world=\"2\"]').dispatchEvent(new MouseEvent('click')); true");
    assert_eq!(
        browser.eval("[...document.querySelectorAll('#world-info div')].map(d => d.textContent)"),
        json!([
            "world 3: ann = 1, bob = 0, cath = 2",
            "✘ does not hold: ann == 0",
            "✔ holds: knows(Ann, not knows_value(Bob, ann))"
        ])
    );
    // A formula that does not compile: its error, located, and nothing asked.
    ask(&mut browser, "knows(Ann, dan == 0)");
    let note = browser.text("#ask-note");
    assert!(note.contains("error: unknown name `dan`"), "{note}");
    assert!(note.contains("where knows(Ann, dan == 0)"), "{note}");
    assert_eq!(
        browser.eval("document.querySelectorAll('#asked li').length"),
        2
    );
    // After the event, at the end: Bob knows Ann's card everywhere.
    browser.run(
        "the end",
        "const at = document.getElementById('at'); at.value = ''; at.dispatchEvent(new Event('change'))",
    );
    ask(&mut browser, "knows_value(Bob, ann)");
    assert_eq!(browser.eval(filled), json!([0, 1, 2, 3, 4, 5]));
    browser.screenshot("playground-ask.png");

    // The worlds table says what a changed value was, as `epipen worlds` does.
    browser.pick("The Sally-Anne test");
    let worlds = browser.worlds();
    assert_eq!(worlds[1][0], "box (was hand)", "{worlds}");

    // A story error: the menu keeps no step of the run before.
    browser.eval("document.body.dataset.state = 'waiting'; true");
    browser.eval(
        "{ const s = document.getElementById('source'); s.value = 'characters A\\nint x\\nannounce y == 1\\n'; \
           s.dispatchEvent(new Event('input')); } true",
    );
    browser.wait(
        "the error",
        "document.body?.dataset.state === 'done' && !document.getElementById('error').hidden",
    );
    assert_eq!(
        browser.eval("[...document.getElementById('at').options].map(o => o.text)"),
        json!(["at the end"])
    );
    // Keywords of docs/language.md are coloured.
    browser.eval("document.body.dataset.state = 'waiting'; true");
    browser.eval(
        "{ const s = document.getElementById('source'); \
           s.value = 'characters A\\nint x\\nprior x\\nshow probability(A, x == 1)\\nevent e { a weight 2\\n b }\\n'; \
           s.dispatchEvent(new Event('input')); } true",
    );
    browser.wait("the run", "document.body?.dataset.state === 'done'");
    assert_eq!(
        browser.eval("[...document.querySelectorAll('#highlight .tok-keyword, #highlight .tok-function')].map(t => t.textContent)"),
        json!(["characters", "int", "prior", "show", "probability", "event", "weight"])
    );
    browser.close();
}
