//! docs/benchmarks.md's "story-api" rows: stories told through the Rust `Story` API,
//! timed in one process.
//!
//! - Cheryl's birthday on each backend (`auto` chooses as for a story file of the
//!   statements so far: explicit worlds);
//! - N constants declared one at a time beside one family of N;
//! - N times "declare a bool b, announce b or not b" beside declaring the N bools first
//!   (each declaration after a statement replays the story on a new engine).
//!
//! ```sh
//! cargo run --release -p epipen --example story_timing
//! ```

use std::time::{Duration, Instant};

use epipen::engine::Strategy;
use epipen::{Formula as F, Options, Story};

fn cheryl(strategy: Strategy) {
    let mut story = Story::with_options(Options {
        strategy,
        ..Options::default()
    });
    let albert = story.character("Albert");
    let bernard = story.character("Bernard");
    let month = story.int("month");
    let day = story.int("day");
    let dates = [
        [5, 15],
        [5, 16],
        [5, 19],
        [6, 17],
        [6, 18],
        [7, 14],
        [7, 16],
        [8, 14],
        [8, 15],
        [8, 17],
    ];
    let both = (&month, &day);
    story.announce(F::tuple_in(both, dates)).unwrap();
    story.learns(albert, &month).unwrap();
    story.learns(bernard, &day).unwrap();
    let whispered = story.checkpoint("whispered").unwrap();
    let doubt = !F::knows_value(albert, both) & F::knows(albert, !F::knows_value(bernard, both));
    story.says(albert, doubt).unwrap();
    let now = !F::at(whispered, F::knows_value(bernard, both)) & F::knows_value(bernard, both);
    story.says(bernard, now).unwrap();
    story.says(albert, F::knows_value(albert, both)).unwrap();
    assert_eq!(story.worlds(10).unwrap().to_string().lines().count(), 3);
}

/// The mean time of `runs` calls of `f`.
fn mean(runs: u32, f: impl Fn()) -> Duration {
    let start = Instant::now();
    for _ in 0..runs {
        f();
    }
    start.elapsed() / runs
}

fn main() {
    for strategy in [
        Strategy::Auto,
        Strategy::Z3,
        Strategy::Explicit,
        Strategy::Bdd,
    ] {
        let time = mean(20, || cheryl(strategy));
        println!("cheryl, {strategy:?}: {time:.2?} a story (mean of 20)");
    }
    for n in [1000, 4000] {
        let one_by_one = mean(1, || {
            let mut story = Story::new();
            (0..n).for_each(|k| drop(story.int(&format!("x{k}"))));
        });
        let family = mean(1, || drop(Story::new().ints("x", n)));
        println!("{n} ints: one at a time {one_by_one:.2?}, one family {family:.2?}");
    }
    for n in [400, 800, 1600] {
        let interleaved = mean(1, || {
            let mut story = Story::new();
            for k in 0..n {
                let b = story.bool(&format!("b{k}"));
                story.announce(b.clone() | !b).unwrap();
            }
        });
        let first = mean(1, || {
            let mut story = Story::new();
            let bs: Vec<_> = (0..n).map(|k| story.bool(&format!("b{k}"))).collect();
            for b in bs {
                story.announce(b.clone() | !b).unwrap();
            }
        });
        println!(
            "{n} bools, each announced: declared as they come {interleaved:.2?}, declared first {first:.2?}"
        );
    }
}
