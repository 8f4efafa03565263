//! The Rust side of docs/benchmarks.md's "run-timing" row: a story file
//! compiled, run and its worlds listed, RUNS times in a row in one process, as the
//! Python package's `run` does it (`Session`, checks' verdicts kept, up to 100
//! worlds), each call timed.
//!
//! ```sh
//! cargo run --release -p epipen-python --example run_timing -- stories/cheryl.story 2000
//! python3 python/bench/run_timing.py stories/cheryl.story 2000     # the same from Python
//! ```

use std::time::{Duration, Instant};

use epipen::Session;
use epipen::engine::Options;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(runs)) = (
        args.get(1),
        args.get(2).and_then(|n| n.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: run_timing STORY RUNS");
        std::process::exit(2);
    };
    let source = std::fs::read_to_string(path).expect("the story");
    let options = Options {
        keep_refuted_hints: true,
        ..Options::default()
    };
    let mut times: Vec<Duration> = Vec::with_capacity(runs);
    let mut worlds = 0;
    for _ in 0..runs {
        let start = Instant::now();
        let story = Session::compile(path.clone(), source.clone(), &[], 0, None)
            .expect("the story compiles");
        let mut events = Vec::new();
        let mut engine = story
            .run(&options, &mut |e| events.push(e))
            .expect("the story runs");
        worlds = engine.worlds(100).expect("its worlds").worlds.len();
        times.push(start.elapsed());
    }
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "rust: {path}: {runs} runs, {worlds} world(s): median {:.1} µs, min {:.1} µs, p90 {:.1} µs",
        us(times[runs / 2]),
        us(times[0]),
        us(times[runs * 9 / 10])
    );
}
