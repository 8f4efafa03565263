//! Trust: no silent wrong answer, no panic, no runaway (issue 12). Each test is one of
//! the issue's repros, run through the real executable.

use std::fs::File;
use std::process::{Command, Stdio};

use indoc::indoc;

use super::{assert_worlds, epipen, story_file};

/// No world left by the announcement on line 3, `text`.
fn no_worlds(line: usize, text: &str) -> String {
    format!(
        "no possible worlds: line {line}, `{text}`, left none: the announcements contradict each other\n(and that's all)\n"
    )
}

/// Runs epipen, which must exit with `code`, print nothing on stdout, and say `needle`
/// on stderr; returns stderr.
#[track_caller]
fn fails(args: &[&str], code: i32, needle: &str) -> String {
    let out = epipen(args);
    assert_eq!(
        out.code, code,
        "{args:?}\nstdout: {}\nstderr: {}",
        out.stdout, out.stderr
    );
    assert_eq!(out.stdout, "", "{args:?}");
    assert!(
        out.stderr.contains(needle),
        "{args:?}\nstderr: {}",
        out.stderr
    );
    out.stderr
}

#[test]
fn integers_are_exact_in_the_native_evaluator() {
    // a^6 = 10^42 leaves i128: wrapped around, it was negative and the world vanished.
    let story = story_file(
        "power.story",
        "characters A\nint a\nannounce a == 10000000\nA: a * a * a * a * a * a > 0\n",
    );
    assert_worlds(
        &story,
        "1 possible world:\n  a = 10000000\n(and that's all)\n",
    );
    // A learns that a^6 > 0, true in both worlds: A cannot know a.
    let story = story_file(
        "power-learned.story",
        "characters A\nint a\nannounce a in {1, 10000000}\nA learns a*a*a*a*a*a > 0\nA: knows_value(a)\n",
    );
    assert_worlds(
        &story,
        indoc! {"
            no possible worlds: line 5, `A: knows_value(a)`, left none: it was false in every world still possible
            (and that's all)
        "},
    );
}

#[test]
fn values_beyond_64_bits_are_a_clear_error() {
    let story = story_file("beyond.story", "int x\nannounce x > 9223372036854775807\n");
    let stderr = fails(
        &["worlds", &story],
        1,
        "a possible world has x = 9223372036854775808: values beyond the 64-bit integers (-2^63 to 2^63 - 1) are not supported",
    );
    assert!(!stderr.contains("unknown"), "stderr: {stderr}");
}

/// A world whose value lies beyond i64 is an error on every backend, never a world
/// dropped: the explicit and BDD backends, which bound their ints by the first
/// announcements, refuse the story (they took those worlds for none, or kept the others
/// alone, or read the value as 2^63 - 1).
#[test]
fn a_world_beyond_64_bits_is_never_dropped() {
    let refusal = "the story's first announcements allow `x` a value beyond the 64-bit integers (-2^63 to 2^63 - 1), which a world does not hold";
    for (name, formula) in [
        ("beyond-one.story", "x == 9223372036854775807 * 4"),
        ("beyond-or.story", "x == 1 or x == 9223372036854775807 * 4"),
        (
            "beyond-range.story",
            "x >= 9223372036854775807 * 4 and x <= 9223372036854775807 * 4 + 2",
        ),
    ] {
        let story = story_file(name, &format!("int x\nannounce {formula}\n"));
        fails(
            &["worlds", &story],
            1,
            "a possible world has x = 36893488147419103228: values beyond the 64-bit integers (-2^63 to 2^63 - 1) are not supported",
        );
        for backend in ["bdd", "explicit"] {
            fails(&["--backend", backend, "worlds", &story], 2, refusal);
        }
    }
}

#[test]
fn an_aggregate_over_an_empty_range_keeps_its_statement() {
    let story = story_file(
        "neighbours.story",
        "const n = 3\nbool b[n]\nannounce any(i in 0..n - 1: b[i] != b[i + 1])\n",
    );
    let out = epipen(&["worlds", &story, "--set", "n=1"]);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (
            0,
            no_worlds(3, "announce any(i in 0..n - 1: b[i] != b[i + 1])").as_str()
        ),
        "{}",
        out.stderr
    );
    let story = story_file(
        "empty-family.story",
        "bool p\nbool m[0]\nannounce p and any(i in 0..0: m[i])\n",
    );
    assert_worlds(&story, &no_worlds(3, "announce p and any(i in 0..0: m[i])"));
    // No child: the father's "at least one of you is muddy" is false in the actual world.
    let out = epipen(&[
        "run",
        "--trace",
        "stories/muddy-children.story",
        "--set",
        "n=0",
    ]);
    assert_eq!(out.code, 2, "stdout: {}", out.stdout);
    let father = "muddy-children.story:21:1: error: this announcement is false in the actual world";
    assert!(out.stderr.contains(father), "stderr: {}", out.stderr);
}

#[test]
fn a_timeout_beyond_the_clock_is_a_usage_error() {
    for secs in ["1e20", "1e19"] {
        let needle =
            format!("`{secs}` seconds is longer than the longest timeout, 1000000000 seconds");
        fails(
            &["--timeout", secs, "worlds", "stories/cheryl.story"],
            2,
            &needle,
        );
    }
    let out = epipen(&["--timeout", "1e9", "worlds", "stories/cheryl.story"]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
}

/// Runs epipen with stdout (`full_stdout`) or stderr on /dev/full, a device where every
/// write fails with "no space left"; returns the exit code and the other stream.
fn epipen_into_full(args: &[&str], full_stdout: bool) -> (Option<i32>, String) {
    let full = || Stdio::from(File::create("/dev/full").expect("/dev/full"));
    let mut command = Command::new(env!("CARGO_BIN_EXE_epipen"));
    command
        .args(args)
        .current_dir(super::ROOT)
        .env_remove("RUST_LOG");
    if full_stdout {
        command.stdout(full()).stderr(Stdio::piped());
    } else {
        command.stdout(Stdio::piped()).stderr(full());
    }
    let out = command.output().expect("run epipen");
    let other = if full_stdout { out.stderr } else { out.stdout };
    (out.status.code(), String::from_utf8(other).unwrap())
}

#[test]
fn write_errors_are_reported_not_panics() {
    let (code, stderr) = epipen_into_full(&["worlds", "stories/cheryl.story"], true);
    assert_eq!(code, Some(1), "stderr: {stderr}");
    assert_eq!(
        stderr,
        "error: cannot write the output: No space left on device (os error 28)\n"
    );
    for args in [
        &["run", "--trace", "stories/cheryl.story"][..],
        &["sweep", "stories/muddy-children.story", "--set", "n=2..3"],
        &["graph", "stories/cheryl.story"],
    ] {
        let (code, stderr) = epipen_into_full(args, true);
        assert_eq!(code, Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: cannot write the output"),
            "{args:?}: {stderr}"
        );
    }
    // A story error with stderr full: its exit code still says so.
    let story = story_file("unknown-name.story", "announce zz\n");
    assert_eq!(epipen_into_full(&["worlds", &story], false).0, Some(2));
    // Logs that cannot be written are dropped; the answer is still printed.
    let (code, stdout) = epipen_into_full(&["-vv", "worlds", "stories/cheryl.story"], false);
    assert_eq!(code, Some(0));
    assert_eq!(
        stdout,
        "1 possible world:\n  month = 7, day = 16\n(and that's all)\n"
    );
}

#[test]
fn did_you_mean_stays_small_for_huge_names() {
    // Two 40 000-char names one edit apart: a full edit-distance table took 12.6 GB.
    let name = "x".repeat(40_000);
    let typo = format!("{}y{}", &name[..20_000], &name[20_001..]);
    let story = story_file(
        "long-names.story",
        &format!("int {name}\nannounce {typo} == 1\n"),
    );
    let hint = format!("= hint: did you mean `{name}`?");
    fails(&["--timeout", "5", "worlds", &story], 2, &hint);
}

#[test]
fn an_error_repeated_by_unrolling_is_reported_once() {
    // Once per round, this wrote 184 MB of "index out of range".
    let story = story_file(
        "count-out-of-range.story",
        "int a[2]\nannounce count(i in 0..1000000000: a[i] == 0) == 1\n",
    );
    let stderr = fails(
        &["--timeout", "60", "worlds", &story],
        2,
        "error: index 2 is out of range: `a` has 2 members (0..1)\n  |\n2 | announce count(i in 0..1000000000: a[i] == 0) == 1\n  |                                      ^\n  = hint: and 4999996 more errors here, in other rounds of the unrolling\n",
    );
    assert!(stderr.len() < 1000, "{stderr}");
    assert!(stderr.ends_with(": 2 errors found\n"), "{stderr}");
}

#[test]
fn the_timeout_covers_unrolling_and_reading() {
    let story = story_file(
        "long-sum.story",
        "int x\nannounce sum(i in 0..999999: x * i) == 1\n",
    );
    fails(
        &["--timeout", "0.001", "worlds", &story],
        1,
        "long-sum.story:2:19: error: ran out of time (timeout) while unrolling this loop or aggregate\n",
    );
    // An endless file is refused once it passes the size limit.
    let stderr = fails(&["worlds", "/dev/zero"], 2, "");
    assert_eq!(
        stderr,
        "error: cannot read /dev/zero: it is larger than 64 MiB\n"
    );
    // A read that never ends: the watchdog reports it a second after the deadline.
    let mut child = Command::new(env!("CARGO_BIN_EXE_epipen"))
        .args(["--timeout", "0.5", "worlds", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run epipen");
    let _open = child.stdin.take(); // kept open, never written
    let out = child.wait_with_output().expect("epipen ends");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: /dev/stdin: ran out of time (timeout) while reading the story\n  = hint: raise --timeout, or simplify the story\n"
    );
}

#[test]
fn a_sweep_past_its_cap_is_refused_before_it_starts() {
    // 10^10 combinations were materialised (19 GB in a minute, no output).
    let stderr = fails(
        &[
            "sweep",
            "stories/muddy-children.story",
            "--set",
            "n=1..100000",
            "--set",
            "k=1..100000",
        ],
        2,
        "error: the sweep would make 10000000000 runs (100000 values of n × 100000 values of k), more than the 1000000 it makes at most\n",
    );
    assert!(
        stderr.ends_with("= hint: sweep fewer values at a time\n"),
        "{stderr}"
    );
}

#[test]
fn the_largest_seed_is_swept() {
    // `seed + 1` wrapped: the sweep ran nothing and exited 0.
    let max = u64::MAX.to_string();
    let args = [
        "--seed",
        &max,
        "sweep",
        "stories/cheryl-sample.story",
        "--json",
    ];
    let out = epipen(&args);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let run: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(run["seed"], u64::MAX);
    // The same seed as `worlds` draws it.
    let worlds = epipen(&[
        "--seed",
        &max,
        "worlds",
        "stories/cheryl-sample.story",
        "--json",
    ]);
    let worlds: serde_json::Value = serde_json::from_str(&worlds.stdout).unwrap();
    assert_eq!(run["worlds"], worlds["worlds"].as_array().unwrap().len());
    // With --samples, the seeds go on from 0.
    let out = epipen(&[&args[..], &["--samples", "2"]].concat());
    let d: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
    assert_eq!(d["samples"], 2);
    assert_eq!(d["seeds"], serde_json::json!([u64::MAX, 0]));
}

#[test]
fn a_value_that_breaks_a_sweep_run_is_that_runs_error_row() {
    // The sweep aborted with 8 diagnostics and no table.
    let out = epipen(&["sweep", "stories/muddy-children.story", "--set", "n=-1..1"]);
    assert_eq!(out.code, 2, "stderr: {}", out.stderr);
    let rows: Vec<Vec<&str>> = out
        .stdout
        .lines()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect();
    assert_eq!(rows[0], ["n", "worlds", "time", "the world, when one"]);
    assert_eq!(
        [rows[1][..2].to_vec(), rows[1][3..].to_vec()],
        [
            vec!["-1", "error"],
            vec!["line 7: a family cannot have -1 members"]
        ]
    );
    assert_eq!(rows[2][..2], ["0", "error"]);
    assert_eq!(rows[3][..2], ["1", "1 world"]);
    assert_eq!(
        out.stderr,
        "error: 2 of 3 runs failed; the first (n = -1): line 7: a family cannot have -1 members\n"
    );
    // A story wrong whatever the values is one story error before the sweep.
    let story = story_file(
        "sweep-unknown.story",
        "const n = 2\nbool p[n]\nannounce zz\n",
    );
    let stderr = fails(
        &["sweep", &story, "--set", "n=1..3"],
        2,
        "error: unknown name `zz`",
    );
    assert!(stderr.ends_with(": 1 error found\n"), "{stderr}");
    // A run out of time while unrolling is a row too (exit code 1).
    let story = story_file(
        "sweep-sum.story",
        "int x\nannounce sum(i in 0..999999: x * i) == 1\n",
    );
    let out = epipen(&["--timeout", "0.001", "sweep", &story, "--json"]);
    assert_eq!(out.code, 1, "stderr: {}", out.stderr);
    assert!(
        out.stdout.contains(
            "\"error\":\"line 2: ran out of time (timeout) while unrolling this loop or aggregate\""
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn a_bad_set_value_is_one_error_against_the_flag() {
    // It was 11 errors, nine of them "unknown name `muddy`".
    let args = [
        "worlds",
        "stories/muddy-children.story",
        "--set",
        "n=-1",
        "--set",
        "k=1",
    ];
    let stderr = fails(&args, 2, "");
    assert_eq!(
        stderr,
        indoc! {"
            error: --set n=-1: stories/muddy-children.story does not compile with this value
              = hint: line 7: a family cannot have -1 members
        "}
    );
    // A story that is wrong by itself still gets its own errors.
    let story = story_file("self-broken.story", "const n = 2\nbool b[n]\nannounce zz\n");
    fails(
        &["worlds", &story, "--set", "n=-1"],
        2,
        "error: unknown name `zz`",
    );
}

#[test]
fn ctrl_c_inside_a_solver_call_ends_the_run_like_anywhere_else() {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    // Non-linear over infinitely many worlds: the solver searches for as long as it may.
    let story = story_file(
        "fermat.story",
        "int x, y, z\nannounce x*x*x + y*y*y == z*z*z and x > 0 and y > 0 and z > 0\n",
    );
    let mut command = Command::new(env!("CARGO_BIN_EXE_epipen"));
    command
        .args(["worlds", &story])
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // A test runner started in the background may ignore SIGINT, and children inherit
    // that: give the child the default action, as a terminal's Ctrl-C finds it.
    // SAFETY: signal(2) is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let mut child = command.spawn().expect("run epipen");
    std::thread::sleep(std::time::Duration::from_secs(2));
    // SAFETY: kill(2) of the child this test started and has not reaped.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let mut status = None;
    for _ in 0..100 {
        status = child.try_wait().expect("wait for epipen");
        if status.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let Some(status) = status else {
        child.kill().expect("kill epipen");
        panic!("epipen still runs 10 s after Ctrl-C");
    };
    // Killed by the signal (the shell's 130), not a "solver failure" (exit code 1).
    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}");
}

#[test]
fn old_mac_line_endings_and_a_byte_order_mark_are_read() {
    let two_worlds = "2 possible worlds:\n  x = 1\n  x = 2\n(and that's all)\n";
    // CR-only line endings were read as one comment line.
    let body = "# Two worlds\ncharacters A\nint x\nannounce x > 0 and # a comment\n  x < 3\n";
    for (name, text) in [
        ("cr.story", body.replace('\n', "\r")),
        ("crlf.story", body.replace('\n', "\r\n")),
        ("bom.story", format!("\u{feff}{body}")),
    ] {
        let story = story_file(name, &text);
        assert_worlds(&story, two_worlds);
        let out = epipen(&["run", "--trace", &story]);
        assert!(
            out.stdout
                .contains("line 4: announce x > 0 and x < 3  =>  2 worlds\n"),
            "{name}: {}",
            out.stdout
        );
        // Errors point at the right line and column.
        let story = story_file(name, &format!("{text}announce zz\r"));
        fails(
            &["worlds", &story],
            2,
            &format!(
                "{name}:6:10: error: unknown name `zz`\n  |\n6 | announce zz\n  |          ^^\n"
            ),
        );
    }
    let story = story_file("bom-first.story", "\u{feff}announce zz\n");
    fails(
        &["worlds", &story],
        2,
        "bom-first.story:1:10: error: unknown name `zz`\n  |\n1 | announce zz\n  |          ^^\n",
    );
}

#[test]
fn a_sweep_counts_worlds_far_from_zero() {
    // Z3's finite route only lists worlds within ±10^7; the count said "more than 1000".
    let story = story_file(
        "far.story",
        "characters A\nint x\nannounce x == 1000000000000000 or x == -5\n",
    );
    for backend in ["auto", "z3"] {
        let out = epipen(&["--backend", backend, "sweep", &story, "--json"]);
        assert_eq!(out.code, 0, "{backend}: {}", out.stderr);
        let run: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
        assert_eq!(run["worlds"], 2, "{backend}: {}", out.stdout);
    }
}

/// The explicit backend stops listing 2.5 billion worlds when the time runs out, and
/// the run ends there as a timeout (exit 1) at the announcement that bounds them: no
/// other backend is tried with the time that is left (Z3 went on past the deadline).
/// (At x + y <= 10000 a release build lists the 25 million worlds in a few ms, and the
/// timeout came later.)
#[test]
fn a_timeout_while_listing_the_worlds_ends_the_run() {
    let source =
        super::read_story("sum-and-product.story").replace("x + y <= 100\n", "x + y <= 100000\n");
    assert!(source.contains("x + y <= 100000"));
    let story = story_file("sum-and-product-100000.story", &source);
    for backend in ["auto", "explicit"] {
        let start = std::time::Instant::now();
        let out = epipen(&["--timeout", "0.5", "--backend", backend, "worlds", &story]);
        let took = start.elapsed().as_secs_f64();
        assert_eq!(out.code, 1, "{backend}: {}", out.stderr);
        assert!(
            out.stderr.contains(
                "sum-and-product-100000.story:11:1: error: solver failure: the solver ran out of time (timeout)"
            ),
            "{backend}: {}",
            out.stderr
        );
        assert!(took < 0.5 + 2.0, "{backend}: {took} s");
    }
}
