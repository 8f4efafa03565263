//! Fuzzing (issue 12): a differential fuzzer over the whole story language, and a
//! parser/lowering fuzzer. docs/testing.md says what is generated, how to run a long
//! campaign and how a failure is kept.
//!
//! The differential fuzzer generates random valid stories as a structured AST
//! (`fuzz/story.rs`), prints them (`fuzz/print.rs`), and runs each on every backend
//! that takes it and on the brute-force evaluator (`fuzz/diff.rs`). proptest shrinks a
//! failing story's AST to a minimal one, prints it, and records its seed in
//! `tests/fuzz/differential.regressions` (replayed first by every later run).
//!
//! `cargo test --test fuzz` runs a fixed-seed sample and a short random one;
//! `FUZZ_CASES=10000 FUZZ_SEED=7 cargo test --release --test fuzz campaign -- --ignored
//! --nocapture` runs a campaign.

mod common;
#[path = "fuzz/diff.rs"]
mod diff;
#[path = "fuzz/mutate.rs"]
mod mutate;
#[path = "fuzz/print.rs"]
mod print;
#[path = "fuzz/story.rs"]
mod story;

use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{
    Config, FileFailurePersistence, RngSeed, TestCaseError, TestError, TestRunner,
};

/// The number of stories from `FUZZ_CASES`, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// `FUZZ_SEED`, else `default`.
fn seed(default: u64) -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A seed of the moment (printed by each run, so that a failure can be run again with
/// `FUZZ_SEED`).
fn random_seed() -> u64 {
    seed(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
    )
}

/// Runs `f` on a thread with a large stack: proptest's generators of nested strategies
/// take more than a test thread's 2 MB in debug builds.
fn with_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let run = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("a thread for the fuzzer");
    match run.join() {
        Ok(t) => t,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A proptest configuration: `cases` cases from `seed`, failures kept in `regressions`.
fn config(cases: u32, seed: u64, regressions: &'static str) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions))),
        // Stories with too many worlds are filtered out: a few in every hundred.
        max_local_rejects: cases.saturating_mul(20).max(1000),
        max_shrink_iters: 4096,
        max_shrink_time: 600_000,
        ..Config::default()
    }
}

/// Panics with the minimal failing input of a proptest run.
fn outcome<T: std::fmt::Debug>(result: Result<(), TestError<T>>, seed: u64) {
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, minimal)) => {
            panic!("{why}\n(minimal input: {minimal:?})\n(seed {seed})")
        }
        Err(TestError::Abort(why)) => panic!("the fuzzer gave up: {why} (seed {seed})"),
    }
}

/// Runs the differential fuzzer on `cases` stories drawn from `seed`; panics with the
/// minimal failing story.
fn differential(cases: u32, seed: u64) {
    with_stack(move || {
        let mut runner = TestRunner::new(config(
            cases,
            seed,
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/fuzz/differential.regressions"
            ),
        ));
        let result = runner.run(&story::story(), |s| {
            let printed = print::print(&s);
            diff::check(&printed).map_err(TestCaseError::fail)
        });
        let tally = diff::take_tally();
        eprintln!("seed {seed}: {}", tally.report());
        outcome(result, seed);
    })
}

/// A fixed sample of stories, the same on every run.
#[test]
fn differential_fixed_seed() {
    differential(cases(1000), 0x0123_4567_89ab_cdef);
}

/// A short run from a seed of the moment.
#[test]
fn differential_random_seed() {
    differential(cases(150), random_seed());
}

/// A campaign: `FUZZ_CASES` stories from `FUZZ_SEED` (see docs/testing.md).
#[test]
#[ignore]
fn campaign() {
    differential(cases(10_000), seed(1));
}

// ---------------------------------------------------------------------------------
// The parser/lowering fuzzer.

/// What the parser fuzzer feeds epipen.
#[derive(Debug, Clone)]
enum Input {
    Bytes(Vec<u8>),
    Soup(Vec<u8>),
    /// A story of `stories/` (by index) mutated.
    Mutated(usize, Vec<mutate::Mutation>),
}

impl Input {
    fn bytes(&self, seeds: &[(String, String)]) -> Vec<u8> {
        match self {
            Input::Bytes(b) | Input::Soup(b) => b.clone(),
            Input::Mutated(i, m) => mutate::apply(seeds[i % seeds.len()].1.as_bytes(), m),
        }
    }
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        1 => mutate::bytes().prop_map(Input::Bytes),
        2 => mutate::token_soup().prop_map(Input::Soup),
        6 => mutate::mutated().prop_map(|(i, m)| Input::Mutated(i, m)),
    ]
}

/// `--set` values at the edges, for each const of the story.
fn set_values() -> impl Strategy<Value = Vec<i64>> {
    proptest::collection::vec(
        prop_oneof![
            Just(0i64),
            Just(1),
            Just(-1),
            Just(i64::MAX),
            Just(i64::MIN),
            Just(3)
        ],
        0..3,
    )
}

/// Compiling never panics, whatever the text and the `--set`s, and stops at its
/// deadline.
fn parse_fuzz(cases: u32, seed: u64) {
    with_stack(move || {
        let seeds = mutate::seeds();
        let mut runner = TestRunner::new(config(
            cases,
            seed,
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzz/parser.regressions"),
        ));
        let compiled = std::cell::Cell::new(0u32);
        let result = runner.run(&(input(), set_values()), |(input, values)| {
            let bytes = input.bytes(&seeds);
            let text = String::from_utf8_lossy(&bytes);
            let mut sets: Vec<Vec<(String, i64)>> = vec![Vec::new()];
            if let Ok(story) = epipen::syntax::parse(&text) {
                let names = epipen::lower::const_names(&story);
                for (name, v) in names.iter().zip(&values) {
                    sets.push(vec![(name.clone(), *v)]);
                }
                sets.push(vec![("not_a_const".to_string(), 1)]);
            }
            for sets in sets {
                let start = Instant::now();
                let deadline = start + Duration::from_secs(2);
                let result = epipen::compile_until(&text, &sets, 0, Some(deadline));
                compiled.set(compiled.get() + u32::from(result.is_ok()));
                prop_assert!(
                    start.elapsed() < Duration::from_secs(10),
                    "compiling took {:?} past a deadline of 2 s",
                    start.elapsed()
                );
            }
            Ok(())
        });
        eprintln!(
            "seed {seed}: {cases} inputs, {} compiles succeeded",
            compiled.get()
        );
        outcome(result, seed);
    })
}

#[test]
fn parser_fixed_seed() {
    parse_fuzz(cases(2000), 0x5eed_0000_0000_0001);
}

#[test]
fn parser_random_seed() {
    parse_fuzz(cases(500), random_seed());
}

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
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzz/cli.regressions"),
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

// ---------------------------------------------------------------------------------
// Each disagreement the fuzzer found, minimised, as a named test.

/// Runs `text` on every backend that takes it and on the evaluator (ints bounded by
/// `bounds`, by name), panics unless they agree, and returns how the runs ended.
fn agree(text: &str, sets: &[(&str, i64)], bounds: &[(&str, (i64, i64))]) -> common::Transcript {
    let printed = print::Printed {
        text: text.to_string(),
        sets: sets.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        seed: 0,
        bounds: bounds.iter().map(|(n, r)| (n.to_string(), *r)).collect(),
        negative_size: false,
        refused: Vec::new(),
        constructs: Default::default(),
    };
    if let Err(report) = diff::check(&printed) {
        panic!("{report}");
    }
    let program = printed.compile().expect("the story compiles");
    common::evaluator_transcript(&program, text, &printed.domain(&program))
}

fn worlds(t: &common::Transcript) -> &str {
    match &t.end {
        common::End::Worlds(w) => w,
        other => panic!("the run ended with {other:?}"),
    }
}

/// Z3's finite-domain route gave up on any κ with a value beyond ±10^7 ("the possible
/// worlds are not finitely many"), so a knowledge operator over a non-linear expression
/// failed with exit 1 on a story with one world (src/engine/knowledge.rs,
/// `list_worlds`).
#[test]
fn z3_lists_finitely_many_worlds_beyond_ten_million() {
    let t = agree(
        "characters A\nint x\nannounce x >= 10000000 and x <= 10000001\nA learns x % 2\n\
         A: knows_value(x * x)\n",
        &[],
        &[("x", (10_000_000, 10_000_001))],
    );
    assert_eq!(worlds(&t), "2 worlds: [(10000000), (10000001)]");
}

/// What a character learns may go beyond the 64 bits a world holds: Z3's finite route
/// grouped worlds by learned values as 64-bit numbers and failed (src/engine/
/// knowledge.rs, `knows_finite`; solver.rs, `Compiled::eval_exact`).
#[test]
fn z3_groups_worlds_by_learned_values_beyond_64_bits() {
    let t = agree(
        "characters A\nint x\nannounce x >= 3037000499 and x <= 3037000500\n\
         A learns x * x\nA: knows_value(x * x * x)\n",
        &[],
        &[("x", (3_037_000_499, 3_037_000_500))],
    );
    assert_eq!(worlds(&t), "2 worlds: [(3037000499), (3037000500)]");
}

/// The explicit backend took an int bounded at the 64-bit edge for an unbounded one
/// and refused the story (src/engine/explicit/bound.rs, `type_box` and `unbounded`).
#[test]
fn explicit_takes_ints_bounded_at_the_64_bit_edge() {
    for (bound, lo, hi) in [
        (
            "x >= 9223372036854775806 and x <= 9223372036854775807",
            i64::MAX - 1,
            i64::MAX,
        ),
        ("x in {-9223372036854775807 - 1}", i64::MIN, i64::MIN),
    ] {
        let text = format!("characters A\nint x\nannounce {bound}\nA: not knows_value(x)\n");
        let program = epipen::compile(&text, &[]).expect("compiles");
        assert!(
            common::takes(epipen::engine::Strategy::Explicit, &program),
            "{bound}"
        );
        agree(&text, &[], &[("x", (lo, hi))]);
    }
}

/// The epistemic model (`epipen graph`) joins the worlds a character cannot tell apart:
/// the explicit backend clamped an observation beyond 64 bits to 2^63 - 1 (so worlds a
/// character tells apart were joined), Z3 failed; now both compare such observations
/// exactly, as the BDD backend does (src/worlds.rs `observations`, used by
/// explicit/mod.rs `observed` and symbolic.rs `model`).
#[test]
fn graph_views_beyond_64_bits_tell_worlds_apart() {
    use epipen::engine::{Engine, Options, Strategy};
    for (learned, classes) in [
        ("x + 1", [0, 1]),
        ("x * 0 + 9223372036854775807 + 1", [0, 0]),
    ] {
        let text = format!(
            "characters A\nint x\nannounce x >= 9223372036854775806 and x <= 9223372036854775807\n\
             A learns {learned}\n"
        );
        let program = std::rc::Rc::new(epipen::compile(&text, &[]).expect("compiles"));
        for strategy in [Strategy::Explicit, Strategy::Z3] {
            let options = Options {
                strategy,
                ..Options::default()
            };
            let mut engine = Engine::new(program.clone(), &options);
            engine.run(&mut |_| {}).expect("the story runs");
            let model = engine.model(None, 10).expect("a model").expect("2 worlds");
            let views = &model.views[0];
            let found: Vec<usize> = views
                .iter()
                .map(|v| views.iter().position(|u| u == v).unwrap())
                .collect();
            assert_eq!(found, classes, "{strategy:?}, A learns {learned}");
        }
    }
}

/// A story with no constants has one world, or none once something false is announced:
/// the explicit backend (the default for such stories) counted its worlds by its first
/// column of values, and with no column kept the one world after `announce false` and
/// pinned an `actual false` (src/engine/explicit/bound.rs `solve` returns how many
/// worlds it found; mod.rs, `ExplicitBackend::new` and `pin`).
#[test]
fn explicit_announce_false_without_constants_leaves_no_world() {
    assert_eq!(worlds(&agree("announce false\n", &[], &[])), "0 worlds: []");
    assert_eq!(
        worlds(&agree("announce true\n", &[], &[])),
        "1 worlds: [()]"
    );
    let t = agree("characters A\nannounce false\nactual true\n", &[], &[]);
    assert_eq!(t.end, common::End::Story("3:1".into()), "{t}");
    let t = agree("characters A\nactual false\n", &[], &[]);
    assert_eq!(t.end, common::End::Story("2:1".into()), "{t}");
}

/// `worlds N` lists the first N worlds in canonical order, by magnitude: Z3 searched
/// magnitudes up to 2^63 - 1 only, so it never found -2^63 (magnitude 2^63) and printed
/// fewer worlds than there are, or none (src/engine/solver.rs, `Z3::enumerate`).
#[test]
fn z3_worlds_statement_reaches_minus_two_to_the_63() {
    let t = agree(
        "int x, y\nannounce x in {-9223372036854775807 - 1, -9223372036854775807} and y in {1, 2, 3}\n\
         worlds 4\n",
        &[],
        &[("x", (i64::MIN, i64::MIN + 1)), ("y", (1, 3))],
    );
    assert_eq!(
        t.events,
        [
            "3:1: worlds 4 worlds: [(-9223372036854775807, 1), (-9223372036854775807, 2), \
          (-9223372036854775807, 3), (-9223372036854775808, 1)] and more"
        ]
    );
}

/// `actual` in a `repeat` is one declaration, made again each round (docs/language.md):
/// every backend stopped the second round with "the actual world is already declared"
/// (src/engine/driver.rs, `set_actual`).
#[test]
fn actual_in_a_repeat_is_declared_again_each_round() {
    let t = agree(
        "characters A\nbool p\nA learns p\nrepeat max 3 {\n  actual p\n  A reveals knows(p)\n\
         } until false\n",
        &[],
        &[],
    );
    assert_eq!(t.events.len(), 3, "{t}");
    assert_eq!(t.end, common::End::Story("4:1".into()), "{t}");
    let t = agree(
        "characters A\nbool p\nA learns p\ncheckpoint c\nrepeat max 3 {\n  actual not p\n  A reveals knows(p)\n\
         } until at(c, true) and knows(A, not p)\n",
        &[],
        &[],
    );
    assert_eq!(worlds(&t), "1 worlds: [(false)]");
}

/// `f(x in sample(k, {…}))`, a membership as a call's first argument, was parsed as an
/// aggregate's binder `x in a..b` and failed with "expected an expression, found `{`"
/// (src/syntax/parser.rs, `at_binder`).
#[test]
fn a_sample_as_a_calls_first_argument_is_a_membership() {
    let t = agree(
        "characters A\nint x\nannounce x >= 1 and x <= 3\nA learns x\n\
         A: knows(x in sample(3, {1, 2, 3}))\n",
        &[],
        &[("x", (1, 3))],
    );
    assert_eq!(worlds(&t), "3 worlds: [(1), (2), (3)]");
    let e = epipen::compile("int x\nannounce any(x in sample(1, {2}))\n", &[]);
    let Err(epipen::CompileError::Story(d)) = e else {
        panic!("{e:?}")
    };
    assert_eq!(d[0].message, "`any` needs a range");
}

/// A κ with no world, non-linear (`abs(x % x) == 5`): Z3's finite-domain route asked the
/// optimizer for the box of values first, which never proved it empty, and `A: true`
/// ran out of time (src/engine/knowledge.rs, `list_worlds` asks the solver first).
#[test]
fn z3_finds_a_non_linear_kappa_empty() {
    let t = agree(
        "characters A\nint x\nannounce x in {1, 2}\nannounce abs(x % x) == 5\nA: true\n",
        &[],
        &[("x", (1, 2))],
    );
    assert_eq!(worlds(&t), "0 worlds: []");
}

/// `actual` naming a value of one int only, the other free: Z3 looked for the two first
/// worlds in canonical order (the error's examples) level by level, and at ±2^24 began
/// to list 100 000 worlds one by one: "`actual` allows several worlds" ran out of time on
/// every backend (the explicit one asks Z3 when its box does not bound the types). Now
/// two of a level's first 64 worlds are examples enough (src/worlds.rs
/// `first_worlds_within`, engine/symbolic.rs `pin`).
#[test]
fn actual_allowing_many_worlds_far_from_zero_is_refused_at_once() {
    let t = agree(
        "int x0, x1\nannounce x0 >= -2 and x0 <= 0\nannounce x1 >= -10000003 and x1 <= -10000001\n\
         actual x1 == -10000003\n",
        &[],
        &[("x0", (-2, 0)), ("x1", (-10_000_003, -10_000_001))],
    );
    assert_eq!(t.end, common::End::Story("4:1".into()), "{t}");
    // The same after a change: `x0 := 0` leaves x0's start value free.
    let t = agree(
        "characters A\nint x0, x1\nannounce x0 >= -2 and x0 <= 0\nannounce x1 in {-10000003}\n\
         x0 := 0\nactual x0 == 0 and x1 == -10000003\n",
        &[],
        &[("x0", (-2, 0)), ("x1", (-10_000_003, -10_000_003))],
    );
    assert_eq!(t.end, common::End::Story("6:1".into()), "{t}");
}

/// An `actual` in a `repeat` is made again each round with the values its names have
/// then: after `p := not p` it names the other world, which was announced away. The
/// engines kept the first round's world ("`repeat` ran its rounds"); the evaluator made
/// the declaration again (src/engine/driver.rs, `set_actual`).
#[test]
fn actual_in_a_repeat_is_made_again_with_the_changed_values() {
    let t = agree(
        "characters A\nbool p\nannounce p\nrepeat max 2 {\n  actual p\n  p := not p\n} until false\n",
        &[],
        &[],
    );
    assert_eq!(t.end, common::End::Story("5:3".into()), "{t}");
    assert!(t.message.contains("contradicts"), "{t}");
}

/// A changed constant's value is computed exactly on the way: `p := x + x > 0` with x
/// near 2^63 is true, but the engines printed the world with 64-bit arithmetic, gave up
/// at `x + x` and failed ("a changed constant leaves the 64-bit integers") where the
/// evaluator printed p = true (src/worlds.rs, `value_of`).
#[test]
fn a_changed_value_is_exact_on_the_way() {
    let t = agree(
        "characters A\nint x\nbool p\nannounce x in {9223372036854775804}\n\
         actual x == 9223372036854775804 and not p\np := x + x > 0\n",
        &[],
        &[("x", (i64::MAX - 3, i64::MAX - 3))],
    );
    assert_eq!(
        worlds(&t),
        "2 worlds: [(9223372036854775804, true), (9223372036854775804, true)]"
    );
}

/// The BDD backend computes int values exactly: beyond 128 bits it failed (exit 1)
/// where the others answered (a campaign finding, fixed in src/engine/bdd/value.rs).
#[test]
fn bdd_computes_values_beyond_128_bits() {
    let text = "const k = 9223372036854775807\ncharacters A\nbool p0\n\
                announce not (0 == k * (3 * k)) or p0\n";
    let t = agree(text, &[], &[]);
    assert_eq!(worlds(&t), "2 worlds: [(false), (true)]");
    let program = epipen::compile(text, &[]).expect("compiles");
    let bdd = common::engine_transcript(
        &program,
        text,
        epipen::engine::Strategy::Bdd,
        std::time::Duration::from_secs(60),
    );
    assert_eq!(worlds(&bdd), "2 worlds: [(false), (true)]", "{bdd}");
}
