//! Bounded beside unbounded (issue 32): constants that an announcement's non-linear
//! conjuncts bound to a few values are read as the list of those values (a linear
//! disjunction, `(a, b, c) in {…}`), and a knowledge operator quantifies them as the
//! finite conjunction over that list, leaving quantifier elimination (or nothing) for
//! the others. See docs/encoding.md, "Bounded beside unbounded".

use std::collections::HashSet;

use super::Z3Backend;
use crate::Failure;
use crate::explicit;
use crate::ir::Expr;
use crate::worlds::Value;
use crate::z3::solver::{Eliminated, Term};

/// The most assignments an announcement's non-linear conjuncts are listed as.
pub(super) const CASES_CAP: usize = 4096;
/// With more cases than this, quantifier elimination runs once on their conjunction
/// rather than once per case.
const PER_CASE_MAX: usize = 256;

impl Z3Backend {
    /// `e` as the formula `rest ∧ (consts) in {…}` when its non-linear conjuncts and the
    /// conjuncts over their constants alone have at most [`CASES_CAP`] solutions (found
    /// by the explicit search, [`explicit::cases_of`]): equivalent to `e` in every world,
    /// and linear. None otherwise. Cached per expression.
    pub(super) fn by_cases(
        &mut self,
        e: &Expr,
        state: &super::State,
    ) -> Result<Option<Term>, Failure> {
        if !explicit::is_nonlinear(e) {
            return Ok(None);
        }
        let key: *const Expr = e;
        if let Some((kept, term)) = self.listed_cases.get(&key)
            && kept == e
        {
            return Ok(term.clone());
        }
        let found = explicit::cases_of(
            &self.program,
            e,
            CASES_CAP,
            self.options.deadline,
            &self.options.cancel,
        );
        self.z3.simplify(&Term::bool(true))?; // the deadline
        let term = match found {
            None => None,
            Some(cases) => {
                tracing::debug!(
                    constants = cases.consts.len(),
                    cases = cases.assignments.len(),
                    "non-linear conjuncts listed as cases"
                );
                let mut parts = Vec::with_capacity(cases.rest.len() + 1);
                for r in &cases.rest {
                    parts.push(self.encode(r, state, &[])?);
                }
                let rows: Vec<Term> = (cases.assignments.iter())
                    .map(|row| {
                        Term::and(
                            &(cases.consts.iter().zip(row))
                                .map(|(&k, &v)| self.vars[k].eq(&self.literal(k, v)))
                                .collect::<Vec<_>>(),
                        )
                    })
                    .collect();
                parts.push(Term::or(&rows));
                Some(Term::and(&parts))
            }
        };
        self.listed_cases.insert(key, (e.clone(), term.clone()));
        Ok(term)
    }

    /// Constant `k`'s value `v` (a bool's 0 or 1) as a literal.
    fn literal(&self, k: usize, v: i64) -> Term {
        if self.vars[k].is_bool() {
            Term::bool(v != 0)
        } else {
            Term::int(v)
        }
    }

    /// `∀ to. ⋀ hyp → conclusion` (a knowledge operator; `to` renames the constants
    /// `from`) when κ lists the assignments some of `from` take (a conjunct `(a, b, c) in
    /// {…}`, see [`Term::case_lists`]): κ(ȳ) in `hyp` is false at any other value of
    /// their copies, so the quantifier over those copies is the conjunction over the
    /// listed assignments (projected on them), and quantifier elimination runs on the
    /// other copies only, when there are any. Exact in every world. None when κ lists
    /// none of `from`, when copies are left and `eliminate` is false (the caller tries
    /// the finite route first), or when what is left is non-linear or keeps a
    /// quantifier.
    pub(super) fn knows_by_cases(
        &self,
        kappa: &Term,
        (from, to): (&[Term], &[Term]),
        hyp: &[Term],
        conclusion: &Term,
        eliminate: bool,
    ) -> Result<Option<Term>, Failure> {
        // Positions in `from`/`to` substituted, and their values, case by case.
        let mut chosen: Vec<usize> = Vec::new();
        let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
        for (indices, listed) in kappa.case_lists(&self.vars) {
            let positions: Vec<(usize, usize)> = (indices.iter().enumerate())
                .filter_map(|(j, &k)| {
                    (from.iter().position(|x| *x == self.vars[k])).map(|p| (j, p))
                })
                .collect();
            if positions.is_empty() || positions.iter().any(|(_, p)| chosen.contains(p)) {
                continue;
            }
            // Each projected assignment once, in the order listed.
            let mut seen = HashSet::new();
            let projected: Vec<Vec<Value>> = (listed.iter())
                .map(|row| positions.iter().map(|(j, _)| row[*j]).collect::<Vec<_>>())
                .filter(|row| seen.insert(row.clone()))
                .collect();
            if rows.len().saturating_mul(projected.len()) > CASES_CAP {
                continue;
            }
            chosen.extend(positions.iter().map(|(_, p)| *p));
            rows = product(&rows, &projected);
        }
        // Without `eliminate`, only when no other copy is left to quantify.
        if chosen.is_empty() || (!eliminate && chosen.len() < to.len()) {
            return Ok(None);
        }
        let substituted: Vec<Term> = chosen.iter().map(|p| to[*p].clone()).collect();
        let left: Vec<Term> = (0..to.len())
            .filter(|p| !chosen.contains(p))
            .map(|p| to[p].clone())
            .collect();
        tracing::debug!(
            cases = rows.len(),
            quantified = left.len(),
            "knowledge by the listed cases"
        );
        let mut cases = Vec::with_capacity(rows.len());
        for row in &rows {
            let values: Vec<Term> = row.iter().map(|v| Term::value(*v)).collect();
            let hyp: Vec<Term> = (hyp.iter())
                .map(|h| h.substitute(&substituted, &values))
                .collect();
            cases.push((hyp, conclusion.substitute(&substituted, &values)));
        }
        if left.is_empty() {
            let all: Vec<Term> = (cases.iter())
                .map(|(h, c)| Term::and(h).implies(c))
                .collect();
            return Ok(Some(self.z3.simplify(&Term::and(&all))?));
        }
        let nonlinear =
            |(h, c): &(Vec<Term>, Term)| c.is_nonlinear() || h.iter().any(Term::is_nonlinear);
        if cases.iter().any(nonlinear) {
            return self.split_free_side(kappa, &left, &cases);
        }
        if cases.len() > PER_CASE_MAX {
            let all: Vec<Term> = (cases.iter())
                .map(|(h, c)| Term::and(h).implies(c))
                .collect();
            return match self.z3.eliminate_forall(&left, &[], &Term::and(&all))? {
                Eliminated::Free(t) => Ok(Some(t)),
                Eliminated::Leftover => Ok(None),
            };
        }
        let mut results = Vec::with_capacity(cases.len());
        for (h, c) in &cases {
            match self.z3.eliminate_forall(&left, h, c)? {
                Eliminated::Free(t) => results.push(t),
                Eliminated::Leftover => return Ok(None),
            }
        }
        Ok(Some(self.z3.simplify(&Term::and(&results))?))
    }

    /// Knowledge by cases whose bodies are still non-linear because of the free side
    /// (`Anne: knows_value(b * m)`: with the copy b' listed, `k * m' == b * m` still
    /// multiplies the free b and m): split on the listed constants' own values too. Under
    /// κ they take one of κ's listed rows s, where the answer is the cases' answer with
    /// x_B := s, so it is `⋁_s (x_B = s ∧ ⋀_cases QE(case[x_B := s]))` — exact under κ,
    /// where every knowledge formula is used (κ only grows). None when a body is still
    /// non-linear, a quantifier is left, or the split would make more than
    /// [`PER_CASE_MAX`] eliminations.
    fn split_free_side(
        &self,
        kappa: &Term,
        left: &[Term],
        cases: &[(Vec<Term>, Term)],
    ) -> Result<Option<Term>, Failure> {
        let mut vars: Vec<Term> = Vec::new();
        let mut rows: Vec<Vec<Value>> = vec![Vec::new()];
        for (indices, listed) in kappa.case_lists(&self.vars) {
            if indices.iter().any(|k| vars.contains(&self.vars[*k])) {
                continue;
            }
            if rows.len().saturating_mul(listed.len()) > PER_CASE_MAX {
                return Ok(None);
            }
            vars.extend(indices.iter().map(|k| self.vars[*k].clone()));
            rows = product(&rows, &listed);
        }
        if vars.is_empty() || rows.len().saturating_mul(cases.len()) > PER_CASE_MAX {
            return Ok(None);
        }
        tracing::debug!(
            free = rows.len(),
            cases = cases.len(),
            "knowledge by the listed cases, split on the free side too"
        );
        let mut parts = Vec::with_capacity(rows.len());
        for row in &rows {
            let values: Vec<Term> = row.iter().map(|v| Term::value(*v)).collect();
            let mut part: Vec<Term> = (vars.iter().zip(&values)).map(|(x, v)| x.eq(v)).collect();
            for (h, c) in cases {
                let h: Vec<Term> = h.iter().map(|t| t.substitute(&vars, &values)).collect();
                let c = c.substitute(&vars, &values);
                if c.is_nonlinear() || h.iter().any(Term::is_nonlinear) {
                    return Ok(None);
                }
                match self.z3.eliminate_forall(left, &h, &c)? {
                    Eliminated::Free(t) => part.push(t),
                    Eliminated::Leftover => return Ok(None),
                }
            }
            parts.push(Term::and(&part));
        }
        Ok(Some(self.z3.simplify(&Term::or(&parts))?))
    }
}

/// Every row of `rows` extended by every row of `more`.
fn product(rows: &[Vec<Value>], more: &[Vec<Value>]) -> Vec<Vec<Value>> {
    (rows.iter())
        .flat_map(|row| {
            more.iter().map(move |m| {
                let mut r = row.clone();
                r.extend(m.iter().copied());
                r
            })
        })
        .collect()
}
