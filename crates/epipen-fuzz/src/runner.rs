//! Running proptest the way every fuzz test does: the number of cases and the seed from
//! the environment (`FUZZ_CASES`, `FUZZ_SEED`), a large stack, failures kept in a
//! regressions file, and the minimal failing input in the panic.

use proptest::test_runner::{Config, FileFailurePersistence, RngSeed, TestError};

/// The number of stories from `FUZZ_CASES`, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// `FUZZ_SEED`, else `default`.
pub fn seed(default: u64) -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A seed of the moment (printed by each run, so that a failure can be run again with
/// `FUZZ_SEED`).
pub fn random_seed() -> u64 {
    seed(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
    )
}

/// Runs `f` on a thread with a large stack: proptest's generators of nested strategies
/// take more than a test thread's 2 MB in debug builds.
pub fn with_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
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
pub fn config(cases: u32, seed: u64, regressions: &'static str) -> Config {
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
pub fn outcome<T: std::fmt::Debug>(result: Result<(), TestError<T>>, seed: u64) {
    match result {
        Ok(()) => {}
        Err(TestError::Fail(why, minimal)) => {
            panic!("{why}\n(minimal input: {minimal:?})\n(seed {seed})")
        }
        Err(TestError::Abort(why)) => panic!("the fuzzer gave up: {why} (seed {seed})"),
    }
}
