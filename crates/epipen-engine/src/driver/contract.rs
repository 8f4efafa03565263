//! A plan's states without their histories: after each step the search replaces a state
//! by its bisimulation contraction, rebuilt by the backend as a state of its own
//! ([`Rebuilding::rebuilt`](super::Rebuilding::rebuilt)): one world per class of bisimilar worlds (the worlds' current
//! values, each character's indistinguishability and plausibility), the constants at
//! their current values (no terms over the steps' occurrences), and, when the story has
//! an actual world, only the classes it reaches by the characters' indistinguishability
//! (what holds there, and after any action, reads no other). The oblivious agents'
//! copies of the worlds collapse with it, and each state's worlds stay as few as its
//! contraction's instead of doubling at every step.

use std::hash::Hash;

use crate::FastMap;
use crate::worlds::Value;

/// A state's contraction, as the backend rebuilds it ([`Rebuilding::rebuilt`]).
///
/// [`Rebuilding::rebuilt`]: super::Rebuilding::rebuilt
pub(crate) struct Quotient {
    /// Each class's values, every constant as the story names it now (a step's
    /// occurrence holds a number that tells the classes apart). Written only for a
    /// state the search keeps: [`Frame::quotient`](super::frame::Frame::quotient)
    /// leaves them empty.
    pub rows: Vec<Vec<Value>>,
    /// Per character, the group of each class (the classes of a group look alike to it).
    pub views: Vec<Vec<u32>>,
    /// Per character, each class's plausibility (lower more plausible), or None when
    /// every world is as plausible to it.
    pub ranks: Vec<Option<Vec<u32>>>,
    /// The actual world's class.
    pub actual: Option<usize>,
}

/// The coarsest stable refinement of a partition of worlds: the classes of the
/// bisimulation contraction. `labels` numbers each world's first block (0, 1, … in the
/// order met; `blocks` of them) and `groups[j][w]` is character j's class of world w
/// (the classes an equivalence). Each round gives a world the block of its block with,
/// per character, the set of blocks of its class, until no block splits; `round` is
/// asked before each (a deadline). The planner's canonical form and the explicit
/// backend's forgetting (`explicit/forget.rs`) contract with it: one mechanism for a
/// plan's states and for states without their histories.
pub(crate) fn stable_labels<E>(
    mut labels: Vec<i64>,
    mut blocks: usize,
    groups: &[Vec<usize>],
    mut round: impl FnMut() -> Result<(), E>,
) -> Result<Vec<i64>, E> {
    let n = labels.len();
    let stride = 1 + groups.len();
    let mut sigs = vec![0i64; n * stride];
    loop {
        round()?;
        for w in 0..n {
            sigs[w * stride] = labels[w];
        }
        for (j, class_of) in groups.iter().enumerate() {
            let (places, _) = Members::of(class_of, &labels).dense();
            for w in 0..n {
                sigs[w * stride + 1 + j] = places[class_of[w]];
            }
        }
        let (next, now) = dense_by(sigs.chunks(stride));
        labels = next;
        if now == blocks {
            return Ok(labels);
        }
        blocks = now;
    }
}

/// Numbers each item by the order its value was first met, and how many distinct
/// values there are.
pub(crate) fn dense_by<'a, T: Hash + Eq + ?Sized + 'a>(
    items: impl ExactSizeIterator<Item = &'a T>,
) -> (Vec<i64>, usize) {
    let mut ids: FastMap<&T, i64> = FastMap::default();
    ids.reserve(items.len());
    let labels = items
        .map(|s| {
            let next = ids.len() as i64;
            *ids.entry(s).or_insert(next)
        })
        .collect();
    (labels, ids.len())
}

/// Each class's labels (sorted, without repeats), `class_of` giving each world's class,
/// in one table: class c's are `flat[starts[c]..starts[c + 1]]`.
pub(crate) struct Members {
    flat: Vec<i64>,
    starts: Vec<usize>,
}

impl Members {
    pub(crate) fn of(class_of: &[usize], labels: &[i64]) -> Members {
        let count = class_of.iter().map(|&c| c + 1).max().unwrap_or(0);
        // The worlds by class (a counting sort), then each class's labels sorted and
        // without repeats, moved down over the repeats.
        let mut starts = vec![0usize; count + 1];
        for &c in class_of {
            starts[c + 1] += 1;
        }
        for c in 0..count {
            starts[c + 1] += starts[c];
        }
        let mut flat = vec![0i64; class_of.len()];
        let mut fill = starts.clone();
        for (w, &c) in class_of.iter().enumerate() {
            flat[fill[c]] = labels[w];
            fill[c] += 1;
        }
        let mut end = 0;
        for c in 0..count {
            let (from, to) = (starts[c], starts[c + 1]);
            flat[from..to].sort_unstable();
            starts[c] = end;
            for k in from..to {
                if k == from || flat[k] != flat[k - 1] {
                    flat[end] = flat[k];
                    end += 1;
                }
            }
        }
        starts[count] = end;
        flat.truncate(end);
        Members { flat, starts }
    }

    /// How many classes.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Class `c`'s labels.
    pub(crate) fn get(&self, c: usize) -> &[i64] {
        &self.flat[self.starts[c]..self.starts[c + 1]]
    }

    /// Each class numbered by the order its labels were first met, and how many
    /// distinct ones there are.
    pub(crate) fn dense(&self) -> (Vec<i64>, usize) {
        dense_by((0..self.len()).map(|c| self.get(c)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_each_class_labels_sorted_without_repeats() {
        // Worlds 0..6 in classes 2, 0, 2, 1, 0, 2 with labels 5, 3, 1, 4, 3, 5.
        let m = Members::of(&[2, 0, 2, 1, 0, 2], &[5, 3, 1, 4, 3, 5]);
        assert_eq!(m.len(), 3);
        assert_eq!(m.get(0), [3]);
        assert_eq!(m.get(1), [4]);
        assert_eq!(m.get(2), [1, 5]);
        // Classes numbered by the order their sets are first met.
        let m = Members::of(&[0, 1, 2, 1], &[7, 7, 7, 9]);
        assert_eq!(
            (m.get(0), m.get(1), m.get(2)),
            (&[7][..], &[7, 9][..], &[7][..])
        );
        assert_eq!(m.dense(), (vec![0, 1, 0], 2));
        let none = Members::of(&[], &[]);
        assert_eq!((none.len(), none.dense()), (0, (vec![], 0)));
    }
}
