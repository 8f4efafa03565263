//! A prototype of the forgetting of histories (docs/history/benchmarks-2026.md, "The
//! forgetting, worked out"; the prisoners' miss in docs/benchmarks.md), hand-coded on
//! this BDD package for `stories/prisoners.story`; the engine does not use it. It tries
//! the plan's claims before anyone builds it into the backend: the answers stay the
//! story's, κ over the counter's observations and the current state stays polynomial in
//! n, and one image per interview is quick enough for 100 prisoners.
//!
//! The variables, in order: the counter's observation of each interview (two bits: lit,
//! dark, another prisoner's interview), oldest first; which effect the interview had
//! ([`Encoding`]); the state (the light, counted[0..n]) twice, interleaved, one copy
//! the state before an interview and the other the state after, their roles swapped at
//! each interview.
//! The story's 2n cases have n + 2 effects: lit, dark, on[p] for each p, and every
//! left[p] alike (the state unchanged, the counter seeing another's interview), merged
//! as a forgetful backend would merge the cases that change the same and show each
//! character the same. An interview is one image,
//!
//! ```text
//! κ'(z, s') = ∃ s, e. κ(z, s) ∧ (z_t = seen(e)) ∧ ⋁_e (case = e ∧ pre_e(s) ∧ s' = post_e(s))
//! ```
//!
//! the effect and the state before forgotten at once: what stays is what the counter
//! saw and the state now.

use super::diagram::{Bdd, BddVariable, Diagrams};

/// What the counter sees of an interview.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    Lit,
    Dark,
    Other,
}

/// How the interview's effect is held: in ⌈log₂(n + 2)⌉ bits above the state (as the
/// engine holds an enum), or one bit per effect, on[p]'s beside counted[p] (the effects
/// lit, dark and left above the state).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Binary,
    OneHot,
}

struct Prisoners {
    d: Diagrams,
    n: usize,
    interviews: usize,
    encoding: Encoding,
    effect_bits: usize,
}

impl Prisoners {
    fn new(n: usize, encoding: Encoding) -> Prisoners {
        let interviews = 2 * (n - 1);
        let effects = n + 2;
        let effect_bits = match encoding {
            Encoding::Binary => usize::BITS as usize - (effects - 1).leading_zeros() as usize,
            Encoding::OneHot => effects,
        };
        Prisoners {
            d: Diagrams::new(2 * interviews + effect_bits + 2 * (n + 1)),
            n,
            interviews,
            encoding,
            effect_bits,
        }
    }

    fn lit(&self, index: usize, value: bool) -> Bdd {
        self.d.mk_literal(BddVariable::from_index(index), value)
    }

    /// The counter saw `seen` at interview `t` (its two bits).
    fn saw(&self, t: usize, seen: Seen) -> Bdd {
        let (a, b) = match seen {
            Seen::Lit => (false, false),
            Seen::Dark => (false, true),
            Seen::Other => (true, false),
        };
        self.lit(2 * t, a).and(&self.lit(2 * t + 1, b))
    }

    /// The effect's bit `bit`. One-hot, the effects are lit, dark, on[1] … on[n − 1],
    /// left: lit, dark and left first, then the light and counted[0] (two copies each),
    /// then for each p on[p]'s bit and counted[p]'s copies.
    fn effect_var(&self, bit: usize) -> usize {
        let base = 2 * self.interviews;
        match self.encoding {
            Encoding::Binary => base + bit,
            Encoding::OneHot => match bit {
                0 | 1 => base + bit,
                b if b == self.n + 1 => base + 2,
                b => base + 7 + 3 * (b - 2),
            },
        }
    }

    fn effect_is(&self, effect: usize) -> Bdd {
        (0..self.effect_bits).fold(self.d.mk_true(), |acc, bit| {
            let on = match self.encoding {
                Encoding::Binary => (effect >> bit) & 1 == 1,
                Encoding::OneHot => bit == effect,
            };
            acc.and(&self.lit(self.effect_var(bit), on))
        })
    }

    /// State bit `i` (0 the light, 1 + p counted[p]) in copy `copy` (0 or 1).
    fn state(&self, i: usize, copy: usize) -> usize {
        let base = 2 * self.interviews;
        match self.encoding {
            Encoding::Binary => base + self.effect_bits + 2 * i + copy,
            Encoding::OneHot => match i {
                0 | 1 => base + 3 + 2 * i + copy,
                i => base + 8 + 3 * (i - 2) + copy,
            },
        }
    }

    /// Each effect: its precondition, what the counter sees, and the state after as a
    /// relation of the two copies, from copy `from` to the other.
    fn effects(&self, from: usize) -> Vec<(Bdd, Seen, Bdd)> {
        let s = |i| self.d.mk_var(BddVariable::from_index(self.state(i, from)));
        let s2 = |i| {
            self.d
                .mk_var(BddVariable::from_index(self.state(i, 1 - from)))
        };
        // The bits `on` become true, `off` false, the others stay.
        let after = |on: &[usize], off: &[usize]| {
            (0..=self.n).rev().fold(self.d.mk_true(), |acc, i| {
                acc.and(&if on.contains(&i) {
                    s2(i)
                } else if off.contains(&i) {
                    s2(i).not()
                } else {
                    s2(i).iff(&s(i))
                })
            })
        };
        let (light, counted) = (0, |p: usize| 1 + p);
        let mut effects = vec![
            // The counter finds the light on, switches it off and counts; or finds it off.
            (s(light), Seen::Lit, after(&[counted(0)], &[light])),
            (s(light).not(), Seen::Dark, after(&[counted(0)], &[])),
        ];
        let mut left = self.d.mk_false();
        for p in 1..self.n {
            // Prisoner p finds it off and never switched it on: does; or leaves it.
            let pre = s(light).not().and(&s(counted(p)).not());
            effects.push((pre, Seen::Other, after(&[light, counted(p)], &[])));
            left = left.or(&s(light).or(&s(counted(p))));
        }
        effects.push((left, Seen::Other, after(&[], &[])));
        effects
    }

    /// Runs SMCDEL's schedule (prisoner k, then the counter, for k = 1 … n − 1; the
    /// actual cases on[k] and lit) and returns, after each interview, whether the
    /// counter knows that everyone has been in, and κ's size.
    fn run(&self) -> Vec<(bool, usize)> {
        let effects = [self.effects(0), self.effects(1)];
        let relation: Vec<Bdd> = (effects.iter())
            .map(|of| {
                (of.iter().enumerate()).fold(self.d.mk_false(), |acc, (k, (pre, _, after))| {
                    acc.or(&self.effect_is(k).and(pre).and(after))
                })
            })
            .collect();
        let forgotten: Vec<Bdd> = (0..2)
            .map(|copy| {
                let mut vars: Vec<BddVariable> = (0..self.effect_bits)
                    .map(|b| BddVariable::from_index(self.effect_var(b)))
                    .collect();
                vars.extend((0..=self.n).map(|i| BddVariable::from_index(self.state(i, copy))));
                self.d.cube(&vars)
            })
            .collect();
        // Per copy of the state: someone has not been counted.
        let someone_missing: Vec<Bdd> = (0..2)
            .map(|copy| {
                (0..self.n)
                    .fold(self.d.mk_true(), |acc, p| {
                        acc.and(&self.lit(self.state(1 + p, copy), true))
                    })
                    .not()
            })
            .collect();
        // At first the light is off and nobody has been counted: copy 0.
        let mut kappa = (0..=self.n).fold(self.d.mk_true(), |acc, i| {
            acc.and(&self.lit(self.state(i, 0), false))
        });
        let mut actual = self.d.mk_true();
        let mut answers = Vec::new();
        for t in 0..self.interviews {
            let from = t % 2;
            let seen = (effects[from].iter().enumerate())
                .fold(self.d.mk_false(), |acc, (k, (_, saw, _))| {
                    acc.or(&self.effect_is(k).and(&self.saw(t, *saw)))
                });
            kappa = kappa
                .and(&seen)
                .and_exists(&relation[from], &forgotten[from]);
            let saw = if t % 2 == 0 { Seen::Other } else { Seen::Lit };
            actual = actual.and(&self.saw(t, saw));
            // His class at the actual world: κ where he saw what he saw.
            let class = kappa.and(&actual);
            answers.push((!class.intersects(&someone_missing[1 - from]), kappa.size()));
        }
        answers
    }
}

/// The answers of stories/prisoners.story's checks (the counter knows after the last
/// interview and not before) at every n up to 8, and κ's size a polynomial of n
/// (with the histories, κ grows ×2.2–3 a prisoner).
#[test]
fn forgetting_the_histories_keeps_the_answers_and_a_small_kappa() {
    for n in 2..=8 {
        for encoding in [Encoding::Binary, Encoding::OneHot] {
            let answers = Prisoners::new(n, encoding).run();
            let knows: Vec<bool> = answers.iter().map(|(k, _)| *k).collect();
            let mut expected = vec![false; 2 * (n - 1)];
            *expected.last_mut().expect("an interview") = true;
            assert_eq!(knows, expected, "n = {n}");
            let largest = answers.iter().map(|(_, s)| *s).max().unwrap_or(0);
            assert!(largest <= 6 * n * n + 20, "n = {n}: κ of {largest} nodes");
        }
    }
}

/// `FORGET_N=100 cargo test --release -p epipen-engine --lib forgetting_at_scale --
/// --ignored --nocapture` (docs/benchmarks.md).
#[test]
#[ignore = "a measurement"]
fn forgetting_at_scale() {
    let n: usize = (std::env::var("FORGET_N").ok())
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let encoding = match std::env::var("FORGET_ENCODING").as_deref() {
        Ok("binary") => Encoding::Binary,
        _ => Encoding::OneHot,
    };
    let start = std::time::Instant::now();
    let answers = Prisoners::new(n, encoding).run();
    let largest = answers.iter().map(|(_, s)| *s).max().unwrap_or(0);
    println!(
        "n = {n}: {} interviews in {:.2?}, κ at most {largest} nodes",
        answers.len(),
        start.elapsed(),
    );
    let knows: Vec<bool> = answers.iter().map(|(k, _)| *k).collect();
    assert!(knows[..knows.len() - 1].iter().all(|k| !k) && knows[knows.len() - 1]);
}
