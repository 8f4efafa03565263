//! A plan's state rebuilt as a state of its own ([`crate::driver::Quotient`]): its
//! contraction's worlds appended to the universe as a segment of their own, the
//! constants at their current values, and what each character tells apart (and finds
//! more plausible) given as a number per world. The worlds the steps make from them
//! are found from these by their ancestors, as every event's are.

use std::rc::Rc;

use super::{ExplicitBackend, Learned, Minds, State, WorldIds};
use crate::Failure;
use crate::driver::Quotient;

/// A number per world of a rebuilt state, the worlds `base..base + values.len()` (and
/// those made from them later).
pub(crate) struct Classes {
    base: usize,
    values: Vec<u32>,
}

impl Classes {
    /// The numbers of the worlds `base..base + values.len()`.
    pub(super) fn new(base: usize, values: Vec<u32>) -> Classes {
        Classes { base, values }
    }

    /// The greatest number.
    pub(super) fn max(&self) -> u32 {
        self.values.iter().copied().max().unwrap_or(0)
    }
}

impl ExplicitBackend {
    /// Drops the universe's worlds from `mark` on, and what was made of them.
    pub(super) fn truncate(&mut self, mark: usize) {
        if mark >= self.universe.len || self.weights.is_some() {
            return;
        }
        Rc::make_mut(&mut self.universe).truncate(mark);
        for kept in self.views.values_mut() {
            kept.retain(|g| g.span().1 <= mark);
        }
        self.views.retain(|_, kept| !kept.is_empty());
        self.joint.retain(|_, g| g.span().1 <= mark);
        // Values of worlds by their indices, which the next worlds take again.
        self.shared = Default::default();
    }

    /// The number `c` gives universe world `w` (one of its worlds, or made from one).
    pub(super) fn class_of(&self, c: &Classes, w: usize) -> u32 {
        let then = self.universe.ancestor(w, c.base + c.values.len());
        then.checked_sub(c.base)
            .and_then(|k| c.values.get(k))
            .copied()
            .unwrap_or(0)
    }

    /// `state` rebuilt as `q` says, and the actual class's world; None when `q`'s rows
    /// do not tell its classes apart.
    pub(super) fn rebuild(
        &mut self,
        state: &Rc<State>,
        q: &Quotient,
        reuse: Option<usize>,
    ) -> Result<crate::driver::Rebuilt<Rc<State>, Option<u32>>, Failure> {
        if state.pending > 0 || q.rows.is_empty() {
            return Ok(None);
        }
        let rows: Vec<Vec<i64>> = (q.rows.iter())
            .map(|r| r.iter().map(|v| v.number()).collect())
            .collect();
        if rows.iter().any(|r| r.len() != self.universe.columns.len()) {
            return Ok(None);
        }
        // Each segment is in lexicographic order (`point` searches it).
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by(|&a, &b| rows[a].cmp(&rows[b]));
        if order.windows(2).any(|w| rows[w[0]] == rows[w[1]]) {
            return Ok(None);
        }
        if self.universe.len + rows.len() > u32::MAX as usize {
            return Ok(None);
        }
        if let Some(mark) = reuse {
            self.truncate(mark);
        }
        let base = self.universe.len;
        let sorted: Vec<Vec<i64>> = order.iter().map(|&k| rows[k].clone()).collect();
        // The worlds stand for no earlier one (no formula reads them `at` a checkpoint).
        Rc::make_mut(&mut self.universe).append(&sorted, 0);
        let numbers = |of: &[u32]| {
            Rc::new(Classes {
                base,
                values: order.iter().map(|&k| of[k]).collect(),
            })
        };
        let characters = state.minds.learned.len();
        let mut minds = Minds {
            learned: vec![Vec::new(); characters],
            lists: vec![Vec::new(); characters],
            ranks: vec![Vec::new(); characters],
        };
        for (who, view) in q.views.iter().enumerate().take(characters) {
            self.push_learned(&mut minds, who, Learned::Classes(numbers(view)));
        }
        for (who, ranks) in q.ranks.iter().enumerate().take(characters) {
            if let Some(ranks) = ranks {
                minds.ranks[who].push(Learned::Classes(numbers(ranks)));
            }
        }
        let worlds = WorldIds::range(base, base + rows.len());
        let next = self.state(0, Rc::new(worlds), Rc::new(minds));
        let point = q.actual.map(|a| {
            let k = order.iter().position(|&o| o == a).expect("a class");
            Some((base + k) as u32)
        });
        Ok(Some((next, point)))
    }
}
