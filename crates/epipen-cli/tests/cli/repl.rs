//! `epipen repl`: statements told one at a time from the standard input, after a story
//! file if given; what each reports printed as `epipen run` prints it, a mistake shown
//! where it is and left out.

use indoc::indoc;

use super::epipen_reading;

/// `epipen repl ARGS` with `input` on its standard input: (exit code, stdout, stderr).
fn repl(args: &[&str], input: &str) -> (i32, String, String) {
    let out = epipen_reading(&[&["repl"], args].concat(), input);
    (out.code, out.stdout, out.stderr)
}

#[test]
fn statements_piped_in_are_told_one_at_a_time() {
    let input = indoc! {"
        characters Anne
        int x
        announce 0 <= x and x <= 3
        Anne learns x % 2
        event flip {
          heads
          tails   # a comment with a brace }
          Anne sees heads | tails
        }
        announce y > 1
        announce x != 1
        Anne: knows_value(x)
        worlds
        check knows(Anne, x == 2)
    "};
    let (code, stdout, stderr) = repl(&[], input);
    assert_eq!(
        stdout,
        indoc! {"
            -- line 13: worlds --
            2 possible worlds:
              x = 3, flip = heads
              x = 3, flip = tails
            (and that's all)
            check line 14: fails in the world x = 3, flip = heads
        "}
    );
    // The mistake is shown and left out; the story goes on.
    assert_eq!(
        stderr,
        indoc! {"
            <told>:10:10: error: unknown name `y`
               |
            10 | announce y > 1
               |          ^
               = hint: did you mean `x`?
            error: <told>: 1 error found
        "}
    );
    assert_eq!(code, 2);
}

#[test]
fn a_story_file_is_told_first_and_goes_on() {
    let cheryl = concat!(env!("CARGO_MANIFEST_DIR"), "/../../stories/cheryl.story");
    let (code, stdout, stderr) = repl(&[cheryl, "--backend", "bdd"], "worlds\ncheck month == 8\n");
    assert_eq!((code, stderr.as_str()), (1, ""));
    assert_eq!(
        stdout,
        indoc! {"
            -- line 30: worlds --
            1 possible world:
              month = 7, day = 16
            (and that's all)
            check line 31: fails in the world month = 7, day = 16
        "}
    );
}

#[test]
fn sets_and_seed_reach_the_text_told() {
    let (code, stdout, stderr) = repl(&["--set", "n=1"], "const n = 2\nbool p[n]\nworlds\n");
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        "-- line 3: worlds --\n2 possible worlds:\n  p[0] = false\n  p[0] = true\n(and that's all)\n"
    );
    // Options the REPL does not take are refused, not ignored.
    let (code, _, stderr) = repl(&["--stats"], "");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.starts_with("error: unexpected argument '--stats' found"),
        "{stderr}"
    );
}

#[test]
fn a_story_file_s_backend_pin_holds_in_the_repl() {
    // `#! backend bdd` is the file's: the REPL runs it on BDDs (which refuse an
    // unbounded int), where `auto` would run it on Z3.
    let story = super::story_file(
        "pinned.story",
        "#! backend bdd\ncharacters A\nint x\nannounce x >= 0\n",
    );
    let (code, stdout, stderr) = repl(&[&story], "worlds\n");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.starts_with("<told>:4:1: error: the BDD backend needs every int bounded"),
        "{stderr}"
    );
    let (code, stdout, _) = repl(&[&story, "--backend", "z3"], "worlds 1\n");
    assert_eq!(
        (code, stdout.lines().nth(1)),
        (0, Some("more than one possible world; the first:"))
    );
}

/// Fermat's cubes: Z3 looks for a counterexample for as long as it is let.
const ENDLESS: &str = "check not (x > 1 and y > 1 and z > 1 and x*x*x + y*y*y == z*z*z)\n";

#[test]
fn a_statement_out_of_time_stops_and_the_story_goes_on() {
    let input = format!(
        "characters A\nint x, y, z\nannounce x > 0\n{ENDLESS}\
         announce x == 5 and y == 1 and z == 2\nworlds\n"
    );
    let (code, stdout, stderr) = repl(&["--timeout", "0.5"], &input);
    assert_eq!(
        stderr,
        indoc! {"
            <told>:4:1: error: solver failure: the solver ran out of time (timeout)
              |
            4 | check not (x > 1 and y > 1 and z > 1 and x*x*x + y*y*y == z*z*z)
              | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "}
    );
    assert_eq!(
        stdout,
        "-- line 6: worlds --\n1 possible world:\n  x = 5, y = 1, z = 2\n(and that's all)\n"
    );
    assert_eq!(code, 1);
}

#[test]
fn ctrl_c_stops_the_statement_that_runs_then_ends_the_piped_repl() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::Duration;

    let mut child = Command::new(env!("CARGO_BIN_EXE_epipen"))
        .arg("repl")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run epipen");
    let mut stdin = child.stdin.take().expect("its stdin");
    let interrupt = |child: &std::process::Child| {
        // SAFETY: a signal to a child of ours, which is alive (we have not waited for it).
        let pid = libc::pid_t::try_from(child.id()).expect("a pid");
        assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    };
    let mut tell = |text: &str| {
        stdin.write_all(text.as_bytes()).expect("write its stdin");
        stdin.flush().expect("flush its stdin");
    };
    tell(&format!(
        "characters A\nint x, y, z\nannounce x > 0\n{ENDLESS}"
    ));
    std::thread::sleep(Duration::from_millis(1500));
    // While the check runs: it stops, and the story goes on without it.
    interrupt(&child);
    tell("announce x == 5 and y == 1 and z == 2\nworlds\n");
    std::thread::sleep(Duration::from_millis(1500));
    // Between statements (the input still open): the REPL ends, as a piped program does.
    interrupt(&child);
    let out = super::output(child.wait_with_output().expect("run epipen"));
    assert_eq!(
        out.stderr,
        indoc! {"
            <told>:4:1: error: solver failure: the run was interrupted
              |
            4 | check not (x > 1 and y > 1 and z > 1 and x*x*x + y*y*y == z*z*z)
              | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        "}
    );
    assert_eq!(
        out.stdout,
        "-- line 6: worlds --\n1 possible world:\n  x = 5, y = 1, z = 2\n(and that's all)\n"
    );
    assert_eq!(out.code, 130);
}
