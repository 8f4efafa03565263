//! The muddy children, told through the Rust API.
//!
//! n children play outside and k of them get mud on their foreheads. Each child sees
//! the others but not itself. Father announces that at least one of them is muddy, then
//! asks again and again: "If you know whether you are muddy, step forward." The
//! children answer at once. The muddy ones step forward in round k, everyone in round
//! k + 1.
//!
//! Run with `cargo run --example muddy_children [n] [k]` (default n = 6, k = 3).

use std::process::ExitCode;

use epipen::{Formula as F, Story};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let arg = |i: usize, default: usize| -> Result<usize, Box<dyn std::error::Error>> {
        match std::env::args().nth(i) {
            Some(a) => Ok(a.parse().map_err(|e| format!("bad argument `{a}`: {e}"))?),
            None => Ok(default),
        }
    };
    let (n, k) = (arg(1, 6)?, arg(2, 3)?);
    if k == 0 || k > n {
        return Err(format!("need 1 <= k <= n, got n = {n}, k = {k}").into());
    }

    let mut story = Story::new();
    let child = story.characters("child", n);
    let muddy = story.bools("muddy", n);

    // The children 0 .. k-1 are the muddy ones (the actual world, not announced).
    story.actual(F::all(
        (0..n).map(|i| if i < k { muddy[i].clone() } else { !&muddy[i] }),
    ))?;
    // Each child sees every other child.
    for (i, &c) in child.iter().enumerate() {
        for (_, m) in muddy.iter().enumerate().filter(|&(j, _)| j != i) {
            story.learns(c, m)?;
        }
    }
    // Father: "At least one of you is muddy."
    story.announce(F::any(&muddy))?;

    // "If you know whether you are muddy, step forward." Until everyone has.
    for round in 1..=n + 1 {
        let forward = story.simultaneously(|s| {
            for (&c, m) in child.iter().zip(&muddy) {
                s.reveals(c, F::knows_value(c, m));
            }
        })?;
        if !forward.contains(&true) {
            println!("round {round}: nobody steps forward");
        }
        for (i, _) in forward.iter().enumerate().filter(|(_, f)| **f) {
            println!("round {round}: child[{i}] steps forward");
        }
        if forward.iter().all(|f| *f) {
            print!("{}", story.worlds(10)?);
            return Ok(());
        }
    }
    Err(format!("not everyone stepped forward within {} rounds", n + 1).into())
}
