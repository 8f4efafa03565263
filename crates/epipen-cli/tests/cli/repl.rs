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
    use std::time::Duration;

    let mut child = super::spawned(&["repl"]);
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

/// `epipen repl` on a terminal of its own (a pseudo-terminal it controls): what it was
/// sent and what it showed, read until `until` shows (or 60 s pass).
struct Terminal {
    master: std::fs::File,
    child: std::process::Child,
    shown: String,
    /// Where the last text waited for ended.
    read: usize,
}

impl Terminal {
    fn start(args: &[&str]) -> Terminal {
        use std::os::fd::{FromRawFd, OwnedFd};
        use std::os::unix::process::CommandExt;
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty writes the two descriptors it opens; no name, termios or size.
        let opened = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(opened, 0, "openpty");
        // SAFETY: both descriptors were just opened, and are owned here alone.
        let (master, slave) =
            unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_epipen"));
        command
            .arg("repl")
            .args(args)
            .env_remove("RUST_LOG")
            .env("TERM", "xterm")
            .stdin(slave.try_clone().unwrap())
            .stdout(slave.try_clone().unwrap())
            .stderr(slave);
        // SAFETY: between fork and exec, only async-signal-safe calls: a new session,
        // whose controlling terminal the pseudo-terminal (on stdin) becomes.
        unsafe {
            command.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("run epipen repl");
        // SAFETY: the master's descriptor is valid; non-blocking reads poll it.
        let master = std::fs::File::from(master);
        unsafe {
            use std::os::fd::AsRawFd;
            libc::fcntl(master.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK);
        }
        Terminal {
            master,
            child,
            shown: String::new(),
            read: 0,
        }
    }

    fn send(&mut self, keys: &str) {
        use std::io::Write;
        self.master.write_all(keys.as_bytes()).expect("type");
    }

    /// Reads what the terminal shows until `until` is among it (after the text waited
    /// for before), returning what came up to its end.
    fn until(&mut self, until: &str) -> String {
        use std::io::Read;
        let start = self.read;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            if let Some(k) = self.shown[start..].find(until) {
                self.read = start + k + until.len();
                return self.shown[start..self.read].to_string();
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{until:?} never showed; the terminal showed {:?}",
                &self.shown[start..]
            );
            let mut buf = [0u8; 4096];
            match self.master.read(&mut buf) {
                Ok(n) => self.shown.push_str(&String::from_utf8_lossy(&buf[..n])),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(e) => panic!("the terminal: {e} after {:?}", &self.shown[start..]),
            }
        }
    }
}

#[test]
fn at_a_terminal_lines_are_edited_recalled_and_ctrl_c_stops_what_runs() {
    let mut terminal = Terminal::start(&["--timeout", "30"]);
    terminal.until("Ctrl-D ends it)");
    terminal.until("> ");
    // (Lines sent at once at the prompt, not as a paste, would reach rustyline in one
    // read, which keeps the first: each waits for the prompt.)
    terminal.send("characters A\r");
    terminal.until("> ");
    terminal.send("int x\r");
    terminal.until("> ");
    // A paste (bracketed, as terminals send one) is one text of several lines.
    terminal.send("\x1b[200~announce 0 <= x and x <= 3\rA learns x\x1b[201~\r");
    terminal.until("A learns x");
    terminal.until("> ");
    // Ctrl-C at the prompt drops the line being typed.
    terminal.send("announce x > 1 and");
    terminal.until("and");
    terminal.send("\x03");
    terminal.until("> ");
    terminal.send("announce x == 3\r");
    terminal.until("> ");
    // The up arrow recalls it; Ctrl-U clears the line for another.
    terminal.send("\x1b[A");
    terminal.until("announce x == 3");
    terminal.send("\x15worlds\r");
    let shown = terminal.until("(and that's all)");
    assert!(
        shown.contains("1 possible world:\r\n  x = 3\r\n"),
        "{shown:?}"
    );
    // Ctrl-C while a statement runs stops it; what was typed meanwhile runs after it.
    terminal.until("> ");
    terminal.send("int y, z\r");
    terminal.until("> ");
    terminal.send(&ENDLESS.replace('\n', "\r"));
    std::thread::sleep(std::time::Duration::from_millis(1500));
    terminal.send("\x03");
    terminal.send("check x == 3\r");
    let shown = terminal.until("check line 9: holds");
    assert!(
        shown.contains("error: solver failure: the run was interrupted"),
        "{shown:?}"
    );
    terminal.send("\x04");
    let status = terminal.child.wait().expect("epipen repl ends");
    assert_eq!(status.code(), Some(1), "{}", terminal.shown);
}

#[test]
fn commands_print_and_save_the_story_so_far() {
    let saved = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("repl-saved.story");
    let _ = std::fs::remove_file(&saved);
    let input = format!(
        "characters A\nint x\nannounce 0 <= x and x <= 3\nannounce y > 0\n\
         for i in 0..2 {{\n  A learns x > i\n}}\n:text\n:save {}\n:nope\n:save\n",
        saved.display()
    );
    let (code, stdout, stderr) = repl(&[], &input);
    // The story so far: the statement that failed is not in it.
    let story =
        "characters A\nint x\nannounce 0 <= x and x <= 3\nfor i in 0..2 {\n  A learns x > i\n}\n";
    assert_eq!(stdout, story);
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), story);
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.starts_with(['<', ' ', '4']))
        .collect();
    assert_eq!(
        errors,
        [
            "error: <told>: 1 error found",
            &format!("saved the story (6 lines) to {}", saved.display()),
            "error: unknown command `:nope` (`:help` lists them)",
            "error: `:save` needs a file: `:save puzzle.story`",
        ]
    );
    assert_eq!(code, 2);
    // The file saved runs as the story told.
    let out = super::epipen(&["worlds", &saved.display().to_string()]);
    assert_eq!(
        out.stdout,
        "4 possible worlds:\n  x = 0\n  x = 1\n  x = 2\n  x = 3\n(and that's all)\n"
    );
    // Told with `--set`s, the saved story says how to run it.
    let input = format!("const n = 2\nbool p[n]\n:save {}\n", saved.display());
    let (code, _, stderr) = repl(&["--set", "n=1", "--seed", "7"], &input);
    assert_eq!(
        stderr,
        format!(
            "saved the story (2 lines) to {}\n(it is the story told with its `const`s as \
             written: run it with --set n=1 --seed 7)\n",
            saved.display()
        )
    );
    assert_eq!(code, 0);
    let out = super::epipen(&["worlds", "--set", "n=1", &saved.display().to_string()]);
    assert_eq!(
        out.stdout,
        "2 possible worlds:\n  p[0] = false\n  p[0] = true\n(and that's all)\n"
    );
}

#[test]
fn a_declaration_the_story_cannot_take_is_undone_with_why() {
    // A constant declared after `actual` leaves it several worlds: told again with it,
    // the story fails at `actual`; the declaration fails with that, and the story goes
    // on without it (it used to stay, and fail every statement after it).
    let input = "characters A\nbool p\nactual p\nint zz\nannounce p\nworlds\n";
    let (code, stdout, stderr) = repl(&[], input);
    assert_eq!(
        stderr,
        indoc! {"
            <told>:3:1: error: `actual` must pin down exactly one of the worlds still possible, but it allows several
              |
            3 | actual p
              | ^^^^^^^^
              = note: line 4: declared after the story began: told again with it, the story fails here
              = hint: for example p = true, zz = 0 and p = true, zz = -1, both still possible; give the constants that tell them apart a value
        "}
    );
    assert_eq!(
        stdout,
        "-- line 6: worlds --\n1 possible world:\n  p = true\n(and that's all)\n"
    );
    assert_eq!(code, 2);
}
