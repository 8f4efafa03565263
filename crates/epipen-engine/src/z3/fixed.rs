//! States a plan's search recognises without listing their worlds (unbounded ints): κ,
//! what each character learned, the plausibility ranks and the constants' terms, with
//! every step of the plan fixed at the one value it has in every world. Two fixed states
//! with the same learned terms, ranks and terms (as Z3 simplifies them) are the same
//! state when their κs are equivalent, which the solver decides.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::rc::Rc;

use super::{Learned, State, Z3Backend};
use crate::Failure;
use crate::ir::{ConstId, Expr};
use crate::worlds::Value;
use crate::z3::solver::Term;

/// A state with the plan's steps fixed ([`crate::driver::Recognition::fixed`]).
#[derive(Clone)]
pub(crate) struct Fixed {
    kappa: Kappa,
    /// Each character's learned terms, constant ones left out, without repeats, in the
    /// order of their hashes.
    learned: Vec<Vec<Term>>,
    ranks: Vec<Vec<(Term, usize)>>,
    /// The terms of the constants other than the plan's steps.
    terms: Vec<Term>,
}

/// κ with the steps fixed: a formula, or, when the state's worlds are listed, the list
/// (sorted, the steps' columns left out).
#[derive(Clone, PartialEq)]
enum Kappa {
    Formula(Term),
    Listed(Rc<Vec<Vec<i64>>>),
}

impl Z3Backend {
    pub(super) fn fix(
        &mut self,
        state: &State,
        terms: Option<&[Expr]>,
        steps: &[(ConstId, Vec<i64>)],
    ) -> Result<Option<(u64, Fixed)>, Failure> {
        let listed = self.listed(state);
        let kappa = match &listed {
            Some(_) => Term::bool(true),
            None => self.kappa_of(state),
        };
        let mut from = Vec::with_capacity(steps.len());
        let mut to = Vec::with_capacity(steps.len());
        for (occ, values) in steps {
            let var = self.vars[occ.0].clone();
            let value = match values.as_slice() {
                [v] => *v,
                _ => {
                    let mut found = None;
                    for &v in values {
                        let there = match &listed {
                            Some(worlds) => worlds.iter().any(|w| w[occ.0] == Value::Int(v)),
                            None => {
                                let there = Term::and(&[kappa.clone(), var.eq(&Term::int(v))]);
                                self.z3.is_sat(&there)?
                            }
                        };
                        if there {
                            if found.is_some() {
                                return Ok(None);
                            }
                            found = Some(v);
                        }
                    }
                    match found {
                        Some(v) => v,
                        None => return Ok(None),
                    }
                }
            };
            from.push(var);
            to.push(Term::int(value));
        }
        let fix = |z3: &crate::z3::solver::Z3, t: &Term| z3.simplify(&t.substitute(&from, &to));
        let kappa = match &listed {
            Some(worlds) => {
                let steps: Vec<usize> = steps.iter().map(|(o, _)| o.0).collect();
                let mut rows: Vec<Vec<i64>> = (worlds.iter())
                    .map(|w| {
                        (w.iter().enumerate())
                            .filter(|(c, _)| !steps.contains(c))
                            .map(|(_, v)| v.number())
                            .collect()
                    })
                    .collect();
                rows.sort();
                Kappa::Listed(Rc::new(rows))
            }
            None => Kappa::Formula(fix(&self.z3, &kappa)?),
        };
        let mut learned = Vec::with_capacity(state.learned.len());
        for own in &state.learned {
            let mut kept: Vec<(u64, Term)> = Vec::with_capacity(own.len());
            for l in own {
                let t = match l {
                    Learned::Const(c) => fix(&self.z3, &self.vars[*c])?,
                    Learned::Expr(t) => fix(&self.z3, t)?,
                };
                if t.as_value().is_none() {
                    kept.push((hash_of(&t), t));
                }
            }
            kept.sort_by_key(|(h, _)| *h);
            kept.dedup_by(|a, b| a.1 == b.1);
            learned.push(kept.into_iter().map(|(_, t)| t).collect());
        }
        let mut ranks = Vec::with_capacity(state.ranks.len());
        for own in state.ranks.iter() {
            let mut fixed = Vec::with_capacity(own.len());
            for (t, levels) in own {
                fixed.push((fix(&self.z3, t)?, *levels));
            }
            ranks.push(fixed);
        }
        let mut fixed_terms = Vec::new();
        if let Some(terms) = terms {
            for (c, e) in terms.iter().enumerate() {
                if steps.iter().any(|(o, _)| o.0 == c) {
                    continue;
                }
                let t = self.encode(e, state, &[])?;
                fixed_terms.push(fix(&self.z3, &t)?);
            }
        }
        let mut h = DefaultHasher::new();
        learned.hash(&mut h);
        ranks.hash(&mut h);
        fixed_terms.hash(&mut h);
        Ok(Some((
            h.finish(),
            Fixed {
                kappa,
                learned,
                ranks,
                terms: fixed_terms,
            },
        )))
    }

    pub(super) fn same(&mut self, a: &Fixed, b: &Fixed) -> Result<bool, Failure> {
        if a.learned != b.learned || a.ranks != b.ranks || a.terms != b.terms {
            return Ok(false);
        }
        match (&a.kappa, &b.kappa) {
            (x, y) if x == y => Ok(true),
            (Kappa::Formula(x), Kappa::Formula(y)) => Ok(!self.z3.is_sat(&x.iff(y).not())?),
            _ => Ok(false),
        }
    }
}

fn hash_of(t: &Term) -> u64 {
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}
