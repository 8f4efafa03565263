//! The executable fuzzed: mutated stories ([`epipen_fuzz::mutate`]) through every
//! command must end with exit code 0, 1 or 2, no signal, bounded memory, and within
//! `--timeout`.

use std::time::{Duration, Instant};

use epipen_fuzz::mutate::{self, input};
use epipen_fuzz::runner::{cases, config, outcome, random_seed, with_stack};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

/// A run of the real executable: its exit status, wall time, and largest resident set.
struct Run {
    code: Option<i32>,
    signal: Option<i32>,
    elapsed: Duration,
    max_rss_kb: i64,
    stderr: String,
}

/// Runs epipen with `args` (stdout and stderr to files), killing it after `limit`.
// The child is reaped with `wait4`, which also gives its resource usage.
#[allow(clippy::zombie_processes)]
fn run_epipen(args: &[String], limit: Duration) -> Run {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz");
    std::fs::create_dir_all(&dir).expect("a directory for the outputs");
    let out = std::fs::File::create(dir.join(format!("out-{}", std::process::id())))
        .expect("stdout file");
    let err_path = dir.join(format!("err-{:?}", std::thread::current().id()));
    let err = std::fs::File::create(&err_path).expect("stderr file");
    let start = Instant::now();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_epipen"))
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(std::process::Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("run epipen");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: waits for our own child, with valid pointers to locals.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break;
        }
        if start.elapsed() > limit {
            // SAFETY: our own child, not yet reaped.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let elapsed = start.elapsed();
    Run {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        elapsed,
        max_rss_kb: usage.ru_maxrss,
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
    }
}

/// The command lines the executable is run with (before the story's path).
const COMMANDS: &[&[&str]] = &[
    &["worlds"],
    &["run", "--trace"],
    &["check"],
    &["graph"],
    &["--set", "n=-1", "worlds"],
    &["sweep", "--set", "n=0..2"],
    &["worlds", "--json", "--trust-hints"],
];

/// The executable's `--timeout` in the fuzzer: every run must end within it and the
/// watchdog's second, give or take a loaded machine.
const CLI_TIMEOUT: Duration = Duration::from_secs(1);
const CLI_SLACK: Duration = Duration::from_secs(3);
/// The most memory a run may take.
const CLI_MAX_RSS_KB: i64 = 1 << 20;

/// Through the real executable: exit code 0, 1 or 2 only, no signal, bounded memory,
/// `--timeout` honoured.
fn cli_fuzz(cases: u32, seed: u64) {
    with_stack(move || {
        let seeds = mutate::seeds();
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz");
        std::fs::create_dir_all(&dir).expect("a directory for the stories");
        let mut runner = TestRunner::new(config(
            cases,
            seed,
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cli/fuzz.regressions"),
        ));
        let codes = std::cell::Cell::new([0u32; 3]);
        let slowest = std::cell::Cell::new(Duration::ZERO);
        let result = runner.run(&(input(), 0..COMMANDS.len()), |(input, command)| {
            let path = dir.join(format!("story-{:?}.story", std::thread::current().id()));
            std::fs::write(&path, input.bytes(&seeds)).expect("write the story");
            let mut args: Vec<String> =
                vec!["--timeout".into(), format!("{}", CLI_TIMEOUT.as_secs_f64())];
            args.extend(COMMANDS[command].iter().map(|s| s.to_string()));
            args.push(path.display().to_string());
            let run = run_epipen(&args, CLI_TIMEOUT + Duration::from_secs(30));
            slowest.set(slowest.get().max(run.elapsed));
            prop_assert!(
                run.signal.is_none(),
                "killed by signal {:?}: {args:?}\n{}",
                run.signal,
                run.stderr
            );
            let code = run.code.unwrap_or(-1);
            prop_assert!(
                (0..=2).contains(&code),
                "exit code {code}: {args:?}\n{}",
                run.stderr
            );
            let mut counted = codes.get();
            counted[code as usize] += 1;
            codes.set(counted);
            prop_assert!(
                run.elapsed <= CLI_TIMEOUT + CLI_SLACK,
                "took {:?} with --timeout {CLI_TIMEOUT:?}: {args:?}",
                run.elapsed
            );
            prop_assert!(
                run.max_rss_kb <= CLI_MAX_RSS_KB,
                "took {} MB: {args:?}",
                run.max_rss_kb / 1024
            );
            Ok(())
        });
        eprintln!(
            "seed {seed}: {cases} runs, exit codes 0/1/2: {:?}, slowest {:.2} s",
            codes.get(),
            slowest.get().as_secs_f64()
        );
        outcome(result, seed);
    })
}

#[test]
fn cli_fixed_seed() {
    cli_fuzz(cases(30), 0x5eed_0000_0000_0002);
}

#[test]
fn cli_random_seed() {
    cli_fuzz(cases(10), random_seed());
}
