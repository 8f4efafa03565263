//! The running statement's memos: tables of a knowledge operator, probabilities and
//! their comparisons, by the address of the expression they are of (with the operator,
//! the agent and the state). An address is no name: a formula made and dropped while a
//! statement runs (a plan's search substitutes its goal anew in every state; a verdict
//! computes the sides it found) frees its address for the next one. So every entry
//! keeps a copy of what it was made for, compared on each hit: an address taken again
//! by another expression misses, and its entry is made anew.

use crate::FastMap;
use crate::ir::Expr;

/// Memo keys: the operator's kind, the address of its expression, the agent and the
/// state's id.
pub(super) type MemoKey = (u8, usize, usize, u64);

/// What an entry was made for: the expressions at the key's address and the
/// characters of its group (none but the key's agent for one character's operator).
#[derive(Debug, PartialEq)]
struct MadeFor {
    exprs: Vec<Expr>,
    agents: Vec<usize>,
}

/// Values by [`MemoKey`], each with what it was made for.
pub(super) struct Memo<T> {
    entries: FastMap<MemoKey, (MadeFor, T)>,
}

impl<T> Default for Memo<T> {
    fn default() -> Memo<T> {
        Memo {
            entries: FastMap::default(),
        }
    }
}

impl<T: Clone> Memo<T> {
    /// The value at `key` made for `exprs` (and the group `agents`), if there is one.
    pub(super) fn get(&self, key: &MemoKey, exprs: &[Expr], agents: &[usize]) -> Option<T> {
        let (made_for, value) = self.entries.get(key)?;
        (made_for.exprs == exprs && made_for.agents == agents).then(|| value.clone())
    }

    /// Keeps `value` at `key`, made for `exprs` and `agents` (replacing what another
    /// expression at that address left).
    pub(super) fn insert(&mut self, key: MemoKey, exprs: &[Expr], agents: &[usize], value: T) {
        let made_for = MadeFor {
            exprs: exprs.to_vec(),
            agents: agents.to_vec(),
        };
        self.entries.insert(key, (made_for, value));
    }

    pub(super) fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{ExprKind, Ty};
    use crate::syntax::Span;

    fn int(n: i64) -> Expr {
        Expr {
            kind: ExprKind::Int(n),
            ty: Ty::Int,
            span: Span::default(),
        }
    }

    #[test]
    fn an_address_taken_again_by_another_expression_misses() {
        let mut memo = Memo::default();
        let key = (0, 0x1000, 2, 7);
        memo.insert(key, &[int(1)], &[], "made for 1");
        assert_eq!(memo.get(&key, &[int(1)], &[]), Some("made for 1"));
        // Another expression at the same address, or another group: made anew.
        assert_eq!(memo.get(&key, &[int(2)], &[]), None);
        assert_eq!(memo.get(&key, &[int(1)], &[0, 1]), None);
        memo.insert(key, &[int(2)], &[], "made for 2");
        assert_eq!(memo.get(&key, &[int(2)], &[]), Some("made for 2"));
        assert_eq!(memo.get(&key, &[int(1)], &[]), None);
        memo.clear();
        assert_eq!(memo.get(&key, &[int(2)], &[]), None);
    }
}
