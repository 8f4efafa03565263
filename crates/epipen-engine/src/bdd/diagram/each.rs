//! One pass for a conjunction of single-bit quantifications of one function:
//!
//! ```text
//! F(f) = f ∧ ⋀_{x ∈ A} ∀x. f ∧ ⋀_{x ∈ B} ¬∀x. f
//! ```
//!
//! what a round of muddy children adds to κ = f: each child of A says she does not know
//! whether she is muddy (∀x. κ: both values of her bit x are possible), each of B that
//! she knows (¬∀x. κ). Built one quantification at a time, that is |A ∪ B| results of
//! about κ's size each, then their conjunction; here it is one walk over f's nodes.
//!
//! For a node g = ite(v, g₁, g₀) (g₀, g₁ below v): for x ≠ v below v, ∀x. g =
//! ite(v, ∀x. g₁, ∀x. g₀), so the conjuncts of the variables below v make
//! ite(v, F(g₁), F(g₀)); the conjunct of v itself, ∀v. g = g₀ ∧ g₁, does not depend on
//! v, and F(gᵢ) ⊆ gᵢ, so
//!
//! ```text
//! F(g) = ite(v, F(g₁) ∧ g₀, F(g₀) ∧ g₁)      v ∈ A
//! F(g) = ite(v, F(g₁) ∧ ¬g₀, F(g₀) ∧ ¬g₁)    v ∈ B
//! F(g) = ite(v, F(g₁), F(g₀))                otherwise
//! ```
//!
//! A variable x skipped on the way from a node to its child (the child does not test
//! it) gives ∀x. gᵢ = gᵢ: nothing for x ∈ A, and false for x ∈ B (gᵢ ∧ ¬gᵢ).

use foldhash::{HashMap, HashMapExt};

use super::{Bdd, BddVariable, Edge, FALSE, Manager, TERMINAL_VAR};

impl Manager {
    /// F(f) above; `knows[v]` is None for a variable of neither set, `Some(false)` for A,
    /// `Some(true)` for B.
    fn each_quantified(&mut self, f: Edge, knows: &[Option<bool>]) -> Edge {
        let levels = self.num_vars as usize;
        // in_b[l]: how many variables of B come before level l.
        let mut in_b = vec![0u32; levels + 1];
        for l in 0..levels {
            in_b[l + 1] = in_b[l] + u32::from(knows.get(l).copied().flatten() == Some(true));
        }
        let level = |m: &Manager, e: Edge| -> usize {
            match m.var(e) {
                TERMINAL_VAR => levels,
                v => v as usize,
            }
        };
        // A variable of B strictly between levels `above` (exclusive, None: the top) and
        // the level of `e`.
        let gap = |m: &Manager, above: Option<usize>, e: Edge| -> bool {
            let from = above.map_or(0, |l| l + 1);
            let to = level(m, e);
            to > from && in_b[to] > in_b[from]
        };
        if gap(self, None, f) {
            return FALSE;
        }
        let mut done: HashMap<Edge, Edge> = HashMap::new();
        let mut stack = vec![f];
        while let Some(&e) = stack.last() {
            if done.contains_key(&e) {
                stack.pop();
                continue;
            }
            if e <= FALSE {
                // F(true) = true (no variable of B is left: the gaps took them); F(false)
                // = false.
                done.insert(e, e);
                stack.pop();
                continue;
            }
            let var = self.var(e);
            let (g0, g1) = self.cofactors(e, var);
            let here = Some(var as usize);
            let child = |m: &Manager, g: Edge| -> Option<Edge> {
                if gap(m, here, g) {
                    Some(FALSE)
                } else {
                    done.get(&g).copied()
                }
            };
            match (child(self, g0), child(self, g1)) {
                (Some(f0), Some(f1)) => {
                    let (low, high) = match knows.get(var as usize).copied().flatten() {
                        None => (f0, f1),
                        Some(false) => (self.and(f0, g1), self.and(f1, g0)),
                        Some(true) => (self.and(f0, g1 ^ 1), self.and(f1, g0 ^ 1)),
                    };
                    let r = self.mk(var, low, high);
                    done.insert(e, r);
                    stack.pop();
                }
                (f0, f1) => {
                    if f0.is_none() {
                        stack.push(g0);
                    }
                    if f1.is_none() {
                        stack.push(g1);
                    }
                }
            }
        }
        done[&f]
    }
}

impl Bdd {
    /// `self ∧ ⋀ ∀x. self ∧ ⋀ ¬∀x. self` over the `(x, knows)` pairs, `knows` taking
    /// the negated conjunct (see the module's comment), in one walk. A variable given
    /// with both signs makes it false.
    pub(in crate::bdd) fn and_each_quantified(&self, bits: &[(BddVariable, bool)]) -> Bdd {
        let mut knows: Vec<Option<bool>> = Vec::new();
        for &(x, k) in bits {
            let i = x.to_index();
            if knows.len() <= i {
                knows.resize(i + 1, None);
            }
            match knows[i] {
                Some(other) if other != k => return self.apply(|_| FALSE),
                _ => knows[i] = Some(k),
            }
        }
        self.apply(|m| m.each_quantified(self.edge, &knows))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Bdd, BddVariable, Diagrams};

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }
    }

    const VARS: usize = 7;

    fn random(d: &Diagrams, rng: &mut Rng, depth: u32) -> Bdd {
        if depth == 0 || rng.next().is_multiple_of(4) {
            let var = BddVariable::from_index((rng.next() % VARS as u64) as usize);
            return d.mk_literal(var, rng.next().is_multiple_of(2));
        }
        let (a, b) = (random(d, rng, depth - 1), random(d, rng, depth - 1));
        match rng.next() % 4 {
            0 => a.and(&b),
            1 => a.or(&b),
            2 => a.xor(&b),
            _ => a.and_not(&b),
        }
    }

    /// The one-pass conjunction is the conjunction of the quantifications made one by one.
    #[test]
    fn one_pass_equals_the_quantifications_one_by_one() {
        let d = Diagrams::new(VARS);
        let mut rng = Rng(5);
        for _ in 0..600 {
            let f = random(&d, &mut rng, 5);
            let bits: Vec<(BddVariable, bool)> = (0..VARS)
                .filter_map(|v| match rng.next() % 3 {
                    0 => None,
                    k => Some((BddVariable::from_index(v), k == 2)),
                })
                .collect();
            let mut expected = f.clone();
            for &(x, knows) in &bits {
                let all = f.not().exists(&d.cube(&[x])).not();
                expected = expected.and(&if knows { all.not() } else { all });
            }
            assert_eq!(f.and_each_quantified(&bits), expected, "{bits:?}");
        }
        let f = random(&d, &mut rng, 5);
        let x = BddVariable::from_index(2);
        assert!(f.and_each_quantified(&[(x, true), (x, false)]).is_false());
    }
}
