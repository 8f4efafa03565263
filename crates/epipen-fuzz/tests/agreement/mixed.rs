//! Bounded beside unbounded (issue 32): generated stories whose first announcement
//! bounds two or three ints by a product (`1 <= a and a <= b and a * b == 36`), beside
//! an int `m` it leaves unbounded (or bounds below only), with characters who learn
//! sums, factors, `m` or `m` shifted by a factor, and statements of knowledge about
//! both, and about a factor times `m` (`knows_value(b * m)`). The engine (the Z3 route: the explicit backend refuses the unbounded `m`)
//! runs the infinite story; the evaluator runs it over a finite window of `m`, wide
//! enough that its edges cannot reach the worlds compared: the story ends with
//! `announce LO <= m and m <= HI`, and the evaluator's `m` ranges over LO − MARGIN to
//! HI + MARGIN.
//!
//! Why the margin suffices: every character learns `m`, `m + a` or `m - a`, so it
//! considers only worlds whose `m` differs by at most [`SHIFT`] (a's spread), and each
//! knowledge operator looks at most that far; the stories nest them at most twice in
//! at most [`MAX_STATEMENTS`] statements, so what happens within the window depends on
//! worlds within `2 · MAX_STATEMENTS · SHIFT` < MARGIN of it. (A character who learned
//! nothing about `m` would look at the window's edges, where the evaluator's worlds
//! differ from the infinite story's.) With `m >= 0` announced, the window's lower edge
//! is the story's own.

use super::Rng;
use epipen::engine::Strategy;
use epipen_bruteforce::{self as bruteforce, Domain};
use epipen_fuzz::transcript::{show, solve};

/// The products the bounded ints multiply to, two factors.
const PRODUCTS2: &[i64] = &[12, 16, 24, 30, 36];
/// Three factors.
const PRODUCTS3: &[i64] = &[24, 36, 48];
/// The largest spread of `a` (the smallest factor) over the products' factorisations.
const SHIFT: i64 = 6;
const MAX_STATEMENTS: usize = 5;
const MARGIN: i64 = 2 * MAX_STATEMENTS as i64 * SHIFT + 10;

pub(super) struct Mixed {
    pub text: String,
    pub domain: Domain,
    pub unbounded_below: bool,
}

/// The factorisations of `p` into `k` ordered factors (a ≤ b ≤ c), all ≥ 1.
fn factorisations(p: i64, k: usize) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    for a in 1..=p {
        if p % a != 0 {
            continue;
        }
        if k == 2 {
            if a <= p / a {
                out.push(vec![a, p / a]);
            }
            continue;
        }
        for b in a..=p / a {
            if (p / a) % b == 0 && b <= p / a / b {
                out.push(vec![a, b, p / a / b]);
            }
        }
    }
    out
}

pub(super) fn mixed_story(rng: &mut Rng) -> Mixed {
    let three = rng.chance(35);
    let (names, product): (&[&str], i64) = if three {
        (&["a", "b", "c"], *rng.pick(PRODUCTS3))
    } else {
        (&["a", "b"], *rng.pick(PRODUCTS2))
    };
    let cases = factorisations(product, names.len());
    let unbounded_below = rng.chance(40);
    let mut text = String::from("characters A, B\n");
    text += &format!("int {}, m\n", names.join(", "));
    let mut first = vec![format!("1 <= {}", names[0])];
    for w in names.windows(2) {
        first.push(format!("{} <= {}", w[0], w[1]));
    }
    first.push(format!("{} == {product}", names.join(" * ")));
    if !unbounded_below {
        first.push("m >= 0".into());
    }
    // Sometimes the bound on m comes in the same announcement, sometimes after.
    let lower_apart = !unbounded_below && rng.chance(30);
    if lower_apart {
        first.pop();
    }
    text += &format!("announce {}\n", first.join(" and "));
    if lower_apart {
        text += "announce m >= 0\n";
    }
    let last = names[names.len() - 1];
    let sum = names.join(" + ");
    let learnable_a = [sum.as_str(), "a", "b", last, "b - a"];
    let learnable_m = ["m", "m + a", "m - a"];
    // Each character learns m up to a factor's shift, and sometimes about the factors.
    for who in ["A", "B"] {
        if rng.chance(70) {
            text += &format!("{who} learns {}\n", rng.pick(&learnable_a));
        }
        text += &format!("{who} learns {}\n", rng.pick(&learnable_m));
    }
    // The first announcements end here, so that the later ones never bound m for
    // the explicit backend: the story runs on the Z3 route.
    text += "checkpoint start\n";
    let values = names.join(", ");
    let k = rng.range(0, 12);
    let atoms = [
        format!("{last} < m"),
        format!("m <= {sum} + {k}"),
        format!("m > a + {k}"),
        format!("m != {k}"),
        "b - a < m".to_string(),
        format!("{last} + m >= 2 * {k}"),
    ];
    let lo = if unbounded_below {
        rng.range(-20, 0)
    } else {
        0
    };
    let hi = lo + rng.range(10, 40);
    let window = format!("announce {lo} <= m and m <= {hi}\n");
    let column = |j: usize| {
        let min = cases.iter().map(|c| c[j]).min().unwrap();
        let max = cases.iter().map(|c| c[j]).max().unwrap();
        Some((min, max))
    };
    let mut ranges: Vec<Option<(i64, i64)>> = (0..names.len()).map(column).collect();
    let m_lo = if unbounded_below { lo - MARGIN } else { 0 };
    ranges.push(Some((m_lo, hi + MARGIN)));
    let domain = Domain { ranges };
    // Steered by the evaluator: a statement that would leave no world in the window is
    // written with the other polarity, or left out when that leaves none too (most
    // stories keep a world; some are left to end with none).
    let steer = rng.chance(85);
    let statements = rng.range(2, MAX_STATEMENTS as i64) as usize;
    for _ in 0..statements {
        let who = *rng.pick(&["A", "B"]);
        let other = if who == "A" { "B" } else { "A" };
        let atom = rng.pick(&atoms).clone();
        let kind = rng.range(0, 10);
        let negate = rng.chance(50);
        let line = |not: bool| {
            let not = if not { "not " } else { "" };
            match kind {
                0 => format!("{who}: {not}knows_value({values})"),
                1 => format!("{who}: {not}knows_value(m)"),
                2 => format!("{who}: {not}knows({atom})"),
                3 => format!("announce {not}({atom})"),
                4 => format!("announce {not}knows_value({other}, b)"),
                5 => format!("{who}: {not}knows_value({other}, {last})"),
                6 => format!("announce knows({who}, {atom}) or {not}knows_value({other}, m)"),
                7 => format!("{who}: knows_value(a) or {not}knows({other}, {atom})"),
                // A listed constant times the unbounded m: the free side split too
                // (z3/cases.rs, `split_free_side`).
                8 => format!("{who}: {not}knows_value({last} * m)"),
                _ => format!("announce {not}knows_value({other}, a * m)"),
            }
        };
        if !steer {
            text += &line(negate);
            text += "\n";
            continue;
        }
        for not in [negate, !negate] {
            let candidate = format!("{text}{}\n", line(not));
            if keeps_a_world(&format!("{candidate}{window}"), &domain) {
                text = candidate;
                break;
            }
        }
    }
    text += &window;
    Mixed {
        text,
        domain,
        unbounded_below,
    }
}

/// Whether the evaluator leaves a world at the end of `text` (false when it fails).
fn keeps_a_world(text: &str, domain: &Domain) -> bool {
    epipen::compile(text, &[])
        .ok()
        .and_then(|p| bruteforce::evaluate(&p, domain).ok())
        .is_some_and(|w| !w.is_empty())
}
/// How many mixed stories: `FUZZ_CASES`, else `default`.
fn cases(default: u64) -> u64 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The engine's worlds of every generated mixed story are the evaluator's over its
/// window; the stories leave a mix of outcomes. `FUZZ_CASES=3000 FUZZ_SEED=7 cargo test
/// --release -p epipen-fuzz --test agreement mixed -- --nocapture` for a campaign.
#[test]
fn mixed_bounded_and_unbounded_stories_agree_with_the_evaluator() {
    let seed: u64 = std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let count = cases(30);
    let (mut empty, mut some, mut below) = (0, 0, 0);
    for i in 0..count {
        let story = mixed_story(&mut Rng::new(0x313D_0000 + seed * 1_000_003 + i));
        let program = epipen::compile(&story.text, &[])
            .unwrap_or_else(|e| panic!("a mixed story does not compile: {e:?}\n{}", story.text));
        assert!(
            !super::takes(Strategy::Explicit, &program),
            "the explicit backend takes a story with an unbounded int:\n{}",
            story.text
        );
        let expected = bruteforce::evaluate(&program, &story.domain)
            .unwrap_or_else(|e| panic!("the evaluator failed: {e}\n{}", story.text));
        let got = solve(&program, Strategy::Auto, super::ENGINE_TIMEOUT)
            .unwrap_or_else(|e| panic!("the engine failed: {e:?}\n--- story ---\n{}", story.text));
        assert!(got.complete, "{}", story.text);
        assert_eq!(
            show(&got.worlds),
            show(&expected),
            "story {i} (seed {seed})\n--- story ---\n{}",
            story.text
        );
        if expected.is_empty() {
            empty += 1;
        } else {
            some += 1;
        }
        below += usize::from(story.unbounded_below);
    }
    eprintln!(
        "mixed: {count} stories agree ({some} with worlds, {empty} without; {below} with m unbounded below)"
    );
    assert!(some * 4 >= count as usize, "{some} of {count} keep a world");
}
