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
#[path = "fuzz/print.rs"]
mod print;
#[path = "fuzz/story.rs"]
mod story;

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

/// Runs the differential fuzzer on `cases` stories drawn from `seed`; panics with the
/// minimal failing story. (On its own thread: proptest's generators of nested
/// strategies take more stack than a test thread's 2 MB in debug builds.)
fn differential(cases: u32, seed: u64) -> diff::Tally {
    let run = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || differential_here(cases, seed))
        .expect("a thread for the fuzzer");
    match run.join() {
        Ok(tally) => tally,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

fn differential_here(cases: u32, seed: u64) -> diff::Tally {
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/fuzz/differential.regressions",
        ))),
        // Steering and shrinking both run stories: give up on rejects only when most are.
        max_local_rejects: cases.saturating_mul(20).max(1000),
        max_shrink_iters: 4096,
        max_shrink_time: 600_000,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let result = runner.run(&story::story(), |s| {
        let printed = print::print(&s);
        diff::check(&printed).map_err(TestCaseError::fail)
    });
    let tally = diff::take_tally();
    eprintln!("seed {seed}: {}", tally.report());
    match result {
        Ok(()) => tally,
        Err(TestError::Fail(why, minimal)) => {
            panic!("{why}\n(minimal story: {minimal:?})\n(seed {seed})")
        }
        Err(TestError::Abort(why)) => panic!("the fuzzer gave up: {why} (seed {seed})"),
    }
}

/// A fixed sample of stories, the same on every run.
#[test]
fn differential_fixed_seed() {
    differential(cases(150), 0x0123_4567_89ab_cdef);
}

/// A short run from a seed of the moment (printed, so that a failure can be run again
/// with `FUZZ_SEED`).
#[test]
fn differential_random_seed() {
    let seed = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    differential(cases(50), seed);
}

/// A campaign: `FUZZ_CASES` stories from `FUZZ_SEED` (see docs/testing.md).
#[test]
#[ignore]
fn campaign() {
    let seed = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    differential(cases(10_000), seed);
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

/// The explicit backend's epistemic model (`epipen graph`) clamped an observation beyond
/// 64 bits to 2^63 - 1, so two worlds a character tells apart were joined by an edge
/// (src/engine/explicit/mod.rs, `values`): now an error, as with Z3.
#[test]
fn explicit_graph_views_beyond_64_bits_are_an_error() {
    use epipen::engine::{Engine, Options, Strategy};
    let text = "characters A\nint x\nannounce x >= 9223372036854775806 and x <= 9223372036854775807\n\
                A learns x + 1\n";
    let program = std::rc::Rc::new(epipen::compile(text, &[]).expect("compiles"));
    for strategy in [Strategy::Explicit, Strategy::Z3] {
        let options = Options {
            strategy,
            ..Options::default()
        };
        let mut engine = Engine::new(program.clone(), &options);
        engine.run(&mut |_| {}).expect("the story runs");
        let model = engine.model(None, 10);
        assert!(
            model
                .as_ref()
                .is_err_and(|e| e.to_string().contains("beyond the 64-bit integers")),
            "{strategy:?}: {model:?}"
        );
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
