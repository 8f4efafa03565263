//! Forgetting an event's history (docs/encoding.md, "Forgetting histories"): after an
//! event, κ relates the constants' values before, the occurrence and the characters'
//! views of it. When nothing reads the past, the backend keeps only what each
//! character observed and the values after:
//!
//! ```text
//! κ'(z, s) = (∃ o, s'. κ(s', o) ∧ ⋀_A (z_A = group_A(o)) ∧ ⋀_c (s_c = term_c(s', o))) ∧ o = not-yet
//! ```
//!
//! s' being the changed constants' bits renamed to their primed copies (each right after
//! its bit, so the renaming keeps the order), z_A the observation of character A (a
//! constant of the space, which A learned). The definitions are conjoined one at a
//! time, each primed bit quantified as soon as no later definition reads it (a
//! partitioned image), the occurrence's bits with the last one.

use std::rc::Rc;

use super::BddBackend;
use super::diagram::{Bdd, BddValuation, BddVariable};
use super::knowledge::{Learned, Learnings, State};
use super::space::Kind;
use super::value::Val;
use crate::driver::Forgotten;
use crate::ir::{ConstId, ExprKind};
use crate::{Failure, History};

impl BddBackend {
    /// [`crate::driver::Forgetting::forget`].
    pub(super) fn forget_event(
        &self,
        state: &Rc<State>,
        forgotten: &Forgotten<'_>,
        point: Option<&BddValuation>,
    ) -> Result<(Rc<State>, Option<BddValuation>), Failure> {
        let occ = forgotten.occurrence;
        let start = std::time::Instant::now();
        // What a character learned before reads no bit that changes now: the program
        // has no `learns` (choice.rs); the observations are constants of their own.
        for learned in state.learned.iter() {
            for item in learned.iter() {
                let unchanged = match item {
                    Learned::Const(c) => {
                        *c >= self.program.constants.len()
                            && !forgotten.changes.iter().any(|(t, _)| t.0 == *c)
                    }
                    Learned::Expr(_) => false,
                };
                if !unchanged {
                    return Err(Failure::Unsupported(
                        "internal error: a character learned what forgetting the history \
                         would change"
                            .into(),
                    ));
                }
            }
        }
        let occ_bits = self.space.bits_of(&[occ.0]);
        // The actual world, with the case that happened.
        let mut point = point.cloned();
        if let (Some(p), Some(k)) = (&mut point, forgotten.actual_case) {
            self.set_value(p, occ.0, k as i128);
        }
        let mut kappa = state.kappa.clone();
        let mut learned = (*state.learned).clone();
        // Each character's observation: the group of the case that happened.
        for (who, groups) in forgotten.sees.iter().enumerate() {
            let Some(groups) = groups else { continue };
            let Some(z) = self.space.observation(occ.0, who) else {
                continue;
            };
            self.check_deadline()?;
            let mut definition = self.space.mk_false();
            for (k, g) in groups.iter().enumerate() {
                let case = self.case(occ, k as i64);
                definition = definition.or(&case.and(&self.case(ConstId(z), *g as i64)));
            }
            let z_bits = self.space.bits_of(&[z]);
            kappa = kappa.exists(&self.space.cube(&z_bits)).and(&definition);
            if let (Some(p), Some(k)) = (&mut point, forgotten.actual_case)
                && let Some(g) = groups.get(k)
            {
                self.set_value(p, z, *g as i128);
            }
            if let Some(list) = learned.get_mut(who) {
                let mut items = list.items.clone();
                items.push(Learned::Const(z));
                *list = Rc::new(Learnings::new(items));
            }
        }
        let observed = start.elapsed();
        // The changed constants' definitions, over their old bits primed.
        let changed: Vec<usize> = forgotten.changes.iter().map(|(c, _)| c.0).collect();
        let old_bits = self.space.bits_of(&changed);
        let mut values_after = Vec::with_capacity(changed.len());
        let mut definitions = Vec::with_capacity(changed.len());
        for (c, term) in forgotten.changes {
            self.check_deadline()?;
            let value = self.eval(term, state)?;
            if let Some(p) = &point {
                values_after.push((c.0, self.value_at(&value, p)?));
            }
            let definition = match (&value, self.space.kind(c.0)) {
                (Val::Bool(b), Some(Kind::Bool)) => {
                    let bit = self.space.bool_constant(c.0).ok_or_else(mismatch)?;
                    bit.iff(&self.space.prime(b, &old_bits))
                }
                (Val::Int(p), Some(Kind::Enum(_) | Kind::Int { .. })) => {
                    let mut definition = self.space.mk_false();
                    for (v, cell) in p.cells() {
                        let v = v.to_i64().ok_or_else(mismatch)?;
                        let is = self.case(*c, v);
                        if is.is_false() && kappa.intersects(cell) {
                            // A value the constant's bits cannot hold (choice.rs keeps the
                            // history of events that change ints).
                            return Err(mismatch());
                        }
                        definition = definition.or(&is.and(&self.space.prime(cell, &old_bits)));
                    }
                    definition
                }
                _ => return Err(mismatch()),
            };
            // The old bits each definition reads: the constants its term names.
            let mut reads = Vec::new();
            let _ = term.walk(&mut |e| {
                if let ExprKind::Const(x) = e.kind
                    && changed.contains(&x.0)
                {
                    reads.push(x.0);
                }
                Ok::<(), ()>(())
            });
            definitions.push((definition, reads));
        }
        if let Some(p) = &mut point {
            for (c, v) in values_after {
                self.set_value(p, c, v);
            }
        }
        // Each primed bit quantified after the last definition that reads it.
        let mut last_read = vec![None; changed.len()];
        for (k, (_, reads)) in definitions.iter().enumerate() {
            for c in reads {
                if let Some(at) = changed.iter().position(|x| x == c) {
                    last_read[at] = Some(k);
                }
            }
        }
        let primed_of = |c: usize| super::space::Space::primed(&self.space.bits_of(&[c]));
        // The primed bits no definition reads go at once.
        let mut unread: Vec<BddVariable> = Vec::new();
        for (at, c) in changed.iter().enumerate() {
            if last_read[at].is_none() {
                unread.extend(primed_of(*c));
            }
        }
        kappa = self.space.prime(&kappa, &old_bits);
        if !unread.is_empty() {
            kappa = kappa.exists(&self.space.cube(&unread));
        }
        let count = definitions.len();
        let defined = start.elapsed();
        // One relation when the definitions' conjunction stays small (the primed bits
        // sit beside their bits, so a definition that reads its own old value is a few
        // nodes a bit): one image, every primed bit and the occurrence quantified at once.
        let parts: Vec<Bdd> = definitions.iter().map(|(d, _)| d.clone()).collect();
        let limit = 4 * kappa.size() + (1 << 16);
        if count > 1
            && let Some(relation) = self.conjunction_within(&parts, limit)?
        {
            let mut gone = super::space::Space::primed(&old_bits);
            gone.extend(occ_bits.iter().copied());
            let related = start.elapsed();
            kappa = kappa.and_exists(&relation, &self.space.cube(&gone));
            tracing::trace!(
                ?observed,
                ?defined,
                ?related,
                image = ?start.elapsed(),
                relation = relation.size(),
                kappa = kappa.size(),
                "an event's history forgotten in one image"
            );
            return self.forgotten(kappa, learned, state, occ, point);
        }
        for (k, (definition, _)) in definitions.into_iter().enumerate() {
            self.check_deadline()?;
            let mut gone: Vec<BddVariable> = Vec::new();
            for (at, c) in changed.iter().enumerate() {
                if last_read[at] == Some(k) {
                    gone.extend(primed_of(*c));
                }
            }
            if k + 1 == count {
                gone.extend(occ_bits.iter().copied());
            }
            kappa = kappa.and_exists(&definition, &self.space.cube(&gone));
        }
        if count == 0 {
            kappa = kappa.exists(&self.space.cube(&occ_bits));
        }
        self.forgotten(kappa, learned, state, occ, point)
    }

    /// The state after [`Self::forget_event`] (the actual world's occurrence back at
    /// its not-yet value, as before the event).
    fn forgotten(
        &self,
        mut kappa: Bdd,
        learned: Vec<Rc<Learnings>>,
        state: &Rc<State>,
        occ: ConstId,
        mut point: Option<BddValuation>,
    ) -> Result<(Rc<State>, Option<BddValuation>), Failure> {
        // The occurrence free in κ, as every occurrence and every observation to come
        // (a chain of fixed bits between the observations and the state would be
        // copied below every observation that leads to a different state).
        let o = (self.program.constants[occ.0].occurrence).ok_or_else(mismatch)?;
        let not_yet = self.program.events[o.event.0].not_yet();
        kappa = kappa.exists(&self.space.cube(&self.space.bits_of(&[occ.0])));
        if let Some(p) = &mut point {
            self.set_value(p, occ.0, i128::from(not_yet));
        }
        Ok((
            State::new(kappa, Rc::new(learned), state.ranks.clone()),
            point,
        ))
    }

    /// `set` with every observation at 0 and every occurrence at its not-yet value,
    /// when the histories are forgotten (κ leaves them free): the worlds as the story
    /// names them (listed, or pinned by `actual`), one per valuation of its constants.
    pub(super) fn unobserved(&self, set: &Bdd) -> Bdd {
        if self.history == History::Kept {
            return set.clone();
        }
        let (free, fixed) = self.histories_free();
        set.exists(&free).and(&fixed)
    }

    /// The bits κ leaves free when the histories are forgotten (every occurrence and
    /// every observation), as a cube, and their values in a world as the story names it
    /// (observations 0, occurrences not yet).
    pub(super) fn histories_free(&self) -> (Bdd, Bdd) {
        let mut bits = self.space.observation_bits();
        let mut fixed = (bits.iter()).fold(self.space.mk_true(), |acc, b| {
            acc.and(&self.space.literal(*b, false))
        });
        for occ in self.program.occurrences() {
            bits.extend(self.space.bits_of(&[occ.0]));
            if let Some(o) = self.program.constants[occ.0].occurrence {
                let not_yet = self.program.events[o.event.0].not_yet();
                fixed = fixed.and(&self.case(occ, not_yet));
            }
        }
        (self.space.cube(&bits), fixed)
    }

    /// The value `value` has at `point` (a bool as 0 or 1).
    fn value_at(&self, value: &Val, point: &BddValuation) -> Result<i128, Failure> {
        match value {
            Val::Bool(b) => Ok(i128::from(b.eval_in(point))),
            Val::Int(p) => p
                .cells()
                .find(|(_, cell)| cell.eval_in(point))
                .and_then(|(v, _)| v.to_i64())
                .map(i128::from)
                .ok_or_else(mismatch),
        }
    }

    /// `point` with the constant `c` at `value` (a bool's 0 or 1).
    fn set_value(&self, point: &mut BddValuation, c: usize, value: i128) {
        let lo = match self.space.kind(c) {
            Some(Kind::Int { lo, .. }) => lo,
            _ => 0,
        };
        let bits = self.space.bits_of(&[c]);
        if let Some(Kind::OneHot(_)) = self.space.kind(c) {
            for (k, bit) in bits.iter().enumerate() {
                point.set_value(*bit, k as i128 == value);
            }
            return;
        }
        let n = (value - lo).max(0) as u128;
        for (i, bit) in bits.iter().enumerate() {
            point.set_value(*bit, (n >> (bits.len() - 1 - i)) & 1 == 1);
        }
    }
}

fn mismatch() -> Failure {
    Failure::Unsupported(
        "internal error: a changed constant's new value does not fit its bits".into(),
    )
}
