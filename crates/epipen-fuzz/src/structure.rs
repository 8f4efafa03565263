//! SMCDEL's meaning of a random file ([`crate::smcdel::File`]), from the definitions of
//! knowledge structures (van Benthem, van Eijck, Gattinger and Su, "Symbolic model
//! checking for dynamic epistemic logic", 2015/2018), without epipen's code: a structure
//! is a set of atoms, a law (the states it allows) and each agent's observed atoms; a
//! formula's meaning is the set of valuations where it holds, evaluated at any valuation
//! (also one the law rules out, as SMCDEL's `TRUE?` does). Knowledge quantifies over the
//! law's states that agree on what the agent observes; common knowledge is the greatest
//! fixpoint of `z = φ ∧ everyone knows z`; a public announcement of φ restricts the law
//! to φ; an announcement to a group adds a fresh atom `k ↔ φ` that the group observes.
//! The fuzzer's SMCDEL arm checks `epipen smcdel`'s answers against [`answers`].

use crate::smcdel::{F, File, Job};

/// A job's answer: `TRUE?` and `VALID?` hold or not; `WHERE?` lists the states (each
/// its true atoms, sorted).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Holds(bool),
    States(Vec<Vec<u64>>),
}

/// A knowledge structure over `atoms` atoms (bit `i` is atom `i + 1` of the file, fresh
/// atoms after `VARS`).
#[derive(Debug, Clone)]
struct Structure {
    atoms: u32,
    /// Whether each valuation (a bitmask of true atoms) satisfies the law.
    law: Vec<bool>,
    /// Each agent's observed atoms, as a mask.
    obs: Vec<u64>,
}

/// The answers SMCDEL gives to the jobs of `file`, in order.
pub fn answers(file: &File) -> Vec<Answer> {
    let vars = u32::from(file.vars);
    let atom = |i: u8| u32::from(i % file.vars);
    let base = Structure {
        atoms: vars,
        law: vec![true; 1 << vars],
        obs: (file.obs.iter())
            .map(|observed| observed.iter().fold(0, |m, &i| m | 1 << atom(i)))
            .collect(),
    };
    let law = base.sat(&file.law, file);
    let kns = Structure { law, ..base };
    (file.jobs.iter())
        .map(|job| match job {
            Job::True(bits, f) => {
                let state = (0..vars)
                    .filter(|i| bits >> i & 1 == 1)
                    .fold(0, |s, i| s | 1 << i);
                Answer::Holds(kns.sat(f, file)[state])
            }
            Job::Valid(f) => {
                let holds = kns.sat(f, file);
                Answer::Holds((0..holds.len()).all(|s| !kns.law[s] || holds[s]))
            }
            Job::Where(f) => {
                let holds = kns.sat(f, file);
                let mut states: Vec<Vec<u64>> = (0..holds.len())
                    .filter(|&s| kns.law[s] && holds[s])
                    .map(|s| {
                        (0..vars)
                            .filter(|i| s >> i & 1 == 1)
                            .map(|i| u64::from(i) + 1)
                            .collect()
                    })
                    .collect();
                states.sort();
                Answer::States(states)
            }
        })
        .collect()
}

impl Structure {
    fn size(&self) -> usize {
        1 << self.atoms
    }

    /// Where `agents` together know `holds`: at `s`, `holds` at every state of the law
    /// that agrees with `s` on the atoms any of them observes.
    fn known(&self, agents: &[usize], holds: &[bool]) -> Vec<bool> {
        let seen = agents.iter().fold(0u64, |m, &a| m | self.obs[a]);
        let mut refuted = std::collections::HashSet::new();
        for (t, (&allowed, &holds)) in self.law.iter().zip(holds).enumerate() {
            if allowed && !holds {
                refuted.insert(t as u64 & seen);
            }
        }
        (0..self.size())
            .map(|s| !refuted.contains(&(s as u64 & seen)))
            .collect()
    }

    /// The valuations where `f` holds (indices into `file`'s atoms and agents resolved
    /// as its printer resolves them).
    fn sat(&self, f: &F, file: &File) -> Vec<bool> {
        let n = self.size();
        let agent = |a: u8| usize::from(a) % file.obs.len();
        let bit = |i: u8| u32::from(i % file.vars);
        let not = |v: Vec<bool>| v.into_iter().map(|b| !b).collect::<Vec<_>>();
        match f {
            F::Top => vec![true; n],
            F::Bot => vec![false; n],
            F::Atom(i) => (0..n).map(|s| s >> bit(*i) & 1 == 1).collect(),
            F::Neg(g) => not(self.sat(g, file)),
            F::Bin(op, a, b) => {
                let (a, b) = (self.sat(a, file), self.sat(b, file));
                (0..n)
                    .map(|s| match op % 4 {
                        0 => a[s] && b[s],
                        1 => a[s] || b[s],
                        2 => !a[s] || b[s],
                        _ => a[s] == b[s],
                    })
                    .collect()
            }
            F::List(k, fs) => {
                let all: Vec<Vec<bool>> = fs.iter().map(|g| self.sat(g, file)).collect();
                (0..n)
                    .map(|s| {
                        let trues = all.iter().filter(|v| v[s]).count();
                        match k % 4 {
                            0 => trues == all.len(),
                            1 => trues > 0,
                            2 => trues % 2 == 1,
                            _ => trues == 1,
                        }
                    })
                    .collect()
            }
            F::K(a, whether, _, g) => self.knows_whether(&[agent(*a)], *whether, g, file),
            F::KwList(a, gs) => {
                let mut all = vec![true; n];
                for g in gs {
                    let kw = self.knows_whether(&[agent(*a)], true, g, file);
                    all.iter_mut().zip(kw).for_each(|(x, y)| *x &= y);
                }
                all
            }
            F::Group(common, whether, _, group, g) => {
                let group: Vec<usize> = group.iter().map(|&a| agent(a)).collect();
                match common {
                    false => self.knows_whether(&group, *whether, g, file),
                    true => {
                        let holds = self.sat(g, file);
                        let ck = |holds: &[bool]| self.common(&group, holds);
                        match whether {
                            false => ck(&holds),
                            true => {
                                let (yes, no) = (ck(&holds), ck(&not(holds.clone())));
                                (0..n).map(|s| yes[s] || no[s]).collect()
                            }
                        }
                    }
                }
            }
            F::Ann(group, whether, diamond, phi, body) => {
                // `<…> ψ` is `¬[…]¬ψ`.
                let body = match diamond {
                    true => F::Neg(body.clone()),
                    false => (**body).clone(),
                };
                let said = self.sat(phi, file);
                let after = match group {
                    None => {
                        let updated = |holds: bool| Structure {
                            law: (0..n).map(|s| self.law[s] && said[s] == holds).collect(),
                            ..self.clone()
                        };
                        let yes = updated(true).sat(&body, file);
                        match whether {
                            false => (0..n).map(|s| !said[s] || yes[s]).collect::<Vec<_>>(),
                            true => {
                                let no = updated(false).sat(&body, file);
                                (0..n)
                                    .map(|s| if said[s] { yes[s] } else { no[s] })
                                    .collect()
                            }
                        }
                    }
                    Some(group) => {
                        // A fresh atom k ↔ φ, observed by the group.
                        let k = 1usize << self.atoms;
                        let mut obs = self.obs.clone();
                        for &a in group {
                            obs[agent(a)] |= k as u64;
                        }
                        let grown = Structure {
                            atoms: self.atoms + 1,
                            law: (0..2 * n)
                                .map(|t| self.law[t % n] && said[t % n] == (t & k != 0))
                                .collect(),
                            obs,
                        };
                        let then = grown.sat(&body, file);
                        (0..n)
                            .map(|s| match (whether, said[s]) {
                                (_, true) => then[s | k],
                                (false, false) => true,
                                (true, false) => then[s],
                            })
                            .collect()
                    }
                };
                match diamond {
                    true => not(after),
                    false => after,
                }
            }
            F::Quant(all, ps, g) => {
                let holds = self.sat(g, file);
                let mask = ps.iter().fold(0usize, |m, &p| m | 1 << bit(p));
                (0..n)
                    .map(|s| {
                        // Every valuation of the quantified atoms, the others as at s.
                        let mut values = (0..n).filter(|t| t & !mask == s & !mask);
                        match all {
                            true => values.all(|t| holds[t]),
                            false => values.any(|t| holds[t]),
                        }
                    })
                    .collect()
            }
        }
    }

    /// `K_group φ` (distributed knowledge for a group of several), or knowing whether.
    fn knows_whether(&self, group: &[usize], whether: bool, g: &F, file: &File) -> Vec<bool> {
        let holds = self.sat(g, file);
        let yes = self.known(group, &holds);
        match whether {
            false => yes,
            true => {
                let no = self.known(group, &holds.iter().map(|b| !b).collect::<Vec<_>>());
                yes.iter().zip(no).map(|(a, b)| *a || b).collect()
            }
        }
    }

    /// Common knowledge of `holds` among `group`: the greatest `z` with `z = holds ∧
    /// ⋀_i K_i z`.
    fn common(&self, group: &[usize], holds: &[bool]) -> Vec<bool> {
        let mut z = vec![true; self.size()];
        loop {
            let mut next = holds.to_vec();
            for &a in group {
                let known = self.known(&[a], &z);
                next.iter_mut().zip(known).for_each(|(x, y)| *x &= y);
            }
            if next == z {
                return z;
            }
            z = next;
        }
    }
}
