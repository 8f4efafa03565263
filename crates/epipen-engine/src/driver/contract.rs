//! A plan's states without their histories: after each step the search replaces a state
//! by its bisimulation contraction, rebuilt by the backend as a state of its own
//! ([`Rebuilding::rebuilt`](super::Rebuilding::rebuilt)): one world per class of bisimilar worlds (the worlds' current
//! values, each character's indistinguishability and plausibility), the constants at
//! their current values (no terms over the steps' occurrences), and, when the story has
//! an actual world, only the classes it reaches by the characters' indistinguishability
//! (what holds there, and after any action, reads no other). The oblivious agents'
//! copies of the worlds collapse with it, and each state's worlds stay as few as its
//! contraction's instead of doubling at every step.

use std::collections::HashMap;

use crate::worlds::{Model, Value, World};

/// A state's contraction, as the backend rebuilds it ([`Rebuilding::rebuilt`]).
///
/// [`Rebuilding::rebuilt`]: super::Rebuilding::rebuilt
pub(crate) struct Quotient {
    /// Each class's values, every constant as the story names it now (a step's
    /// occurrence holds a number that tells the classes apart).
    pub rows: Vec<Vec<Value>>,
    /// Per character, the group of each class (the classes of a group look alike to it).
    pub views: Vec<Vec<u32>>,
    /// Per character, each class's plausibility (lower more plausible), or None when
    /// every world is as plausible to it.
    pub ranks: Vec<Option<Vec<u32>>>,
    /// The actual world's class.
    pub actual: Option<usize>,
}

impl Quotient {
    /// The contraction as a model (its worlds' values, each character's group as its
    /// view, its plausibility as its rank): for its canonical form.
    pub(super) fn model(&self) -> Model {
        let n = self.rows.len();
        Model {
            worlds: self.rows.iter().cloned().map(World).collect(),
            before: None,
            views: (self.views.iter())
                .map(|v| v.iter().map(|&g| vec![Value::Int(i64::from(g))]).collect())
                .collect(),
            ranks: (self.ranks.iter())
                .map(|r| match r {
                    Some(r) => r.iter().map(|&p| vec![i64::from(p)]).collect(),
                    None => vec![Vec::new(); n],
                })
                .collect(),
            chances: None,
        }
    }
}

/// What [`super::plan`]'s canonical form found of a model: the final class of each
/// world, each character's group of each world, and each character's plausibility
/// place of each world (empty: none).
pub(super) struct Classes {
    pub labels: Vec<i64>,
    pub groups: Vec<Vec<usize>>,
    pub places: Vec<Vec<i64>>,
}

impl Classes {
    /// The contraction (its rows still without values: `row` gives a world's), keeping
    /// the classes `actual` reaches when there is one: by the characters'
    /// indistinguishability, or with `believed` by their beliefs (the most plausible
    /// classes of each group).
    pub(super) fn quotient(
        &self,
        actual: Option<usize>,
        believed: bool,
        mut row: impl FnMut(usize) -> Vec<Value>,
    ) -> Quotient {
        let n = self.labels.len();
        let count = self
            .labels
            .iter()
            .map(|&l| l as usize + 1)
            .max()
            .unwrap_or(0);
        let mut rep = vec![usize::MAX; count];
        for w in (0..n).rev() {
            rep[self.labels[w] as usize] = w;
        }
        // Per character, the classes in each of its groups (the same for every world of a
        // class: the labels are stable under refinement).
        // (The groups are numbered 0, 1, … in the order met.)
        let members: Vec<Vec<Vec<usize>>> = (self.groups.iter())
            .map(|group_of| {
                let groups = group_of.iter().map(|&g| g + 1).max().unwrap_or(0);
                let mut m: Vec<Vec<usize>> = vec![Vec::new(); groups];
                for (w, &g) in group_of.iter().enumerate() {
                    m[g].push(self.labels[w] as usize);
                }
                for v in &mut m {
                    v.sort_unstable();
                    v.dedup();
                }
                m
            })
            .collect();
        // The classes kept: those the actual world reaches, or all.
        let kept: Vec<usize> = match actual {
            None => (0..count).collect(),
            Some(a) => {
                let mut seen = vec![false; count];
                let start = self.labels[a] as usize;
                seen[start] = true;
                let mut todo = vec![start];
                while let Some(c) = todo.pop() {
                    for (who, (m, group_of)) in members.iter().zip(&self.groups).enumerate() {
                        let group = &m[group_of[rep[c]]];
                        let places = (self.places.get(who)).filter(|p| believed && p.len() == n);
                        let least = places.and_then(|p| group.iter().map(|&d| p[rep[d]]).min());
                        for &d in group {
                            if let (Some(p), Some(least)) = (places, least)
                                && p[rep[d]] != least
                            {
                                continue;
                            }
                            if !seen[d] {
                                seen[d] = true;
                                todo.push(d);
                            }
                        }
                    }
                }
                (0..count).filter(|&c| seen[c]).collect()
            }
        };
        let views = (members.iter().zip(&self.groups))
            .map(|(m, group_of)| {
                let mut ids: HashMap<&Vec<usize>, u32, foldhash::fast::FixedState> =
                    HashMap::default();
                (kept.iter())
                    .map(|&c| {
                        let fresh = ids.len() as u32;
                        *ids.entry(&m[group_of[rep[c]]]).or_insert(fresh)
                    })
                    .collect()
            })
            .collect();
        let ranks = (self.places.iter())
            .map(|places| {
                if places.len() < n {
                    return None;
                }
                let of: Vec<i64> = kept.iter().map(|&c| places[rep[c]]).collect();
                match of.windows(2).all(|w| w[0] == w[1]) {
                    true => None,
                    false => Some(of.iter().map(|&p| p.max(0) as u32).collect()),
                }
            })
            .collect();
        Quotient {
            rows: kept.iter().map(|&c| row(rep[c])).collect(),
            views,
            ranks,
            actual: actual.and_then(|a| kept.binary_search(&(self.labels[a] as usize)).ok()),
        }
    }
}

/// A hash map with a fixed seed (the same every run) and a fast hasher.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

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
            let (places, _) = dense(&members(class_of, &labels));
            for w in 0..n {
                sigs[w * stride + 1 + j] = places[class_of[w]];
            }
        }
        let mut ids: FastMap<&[i64], i64> = FastMap::default();
        ids.reserve(n);
        let next: Vec<i64> = (sigs.chunks(stride))
            .map(|s| {
                let fresh = ids.len() as i64;
                *ids.entry(s).or_insert(fresh)
            })
            .collect();
        let now = ids.len();
        labels = next;
        if now == blocks {
            return Ok(labels);
        }
        blocks = now;
    }
}

/// Numbers each signature by the order its value was first met, and how many there are.
pub(crate) fn dense(sigs: &[Vec<i64>]) -> (Vec<i64>, usize) {
    let mut ids: FastMap<&[i64], i64> = FastMap::default();
    let labels = (sigs.iter())
        .map(|s| {
            let next = ids.len() as i64;
            *ids.entry(s.as_slice()).or_insert(next)
        })
        .collect();
    (labels, ids.len())
}

/// Each class's labels (sorted, without repeats), `class_of` giving each world's class.
pub(crate) fn members(class_of: &[usize], labels: &[i64]) -> Vec<Vec<i64>> {
    let count = class_of.iter().map(|&c| c + 1).max().unwrap_or(0);
    let mut members: Vec<Vec<i64>> = vec![Vec::new(); count];
    for (w, &c) in class_of.iter().enumerate() {
        members[c].push(labels[w]);
    }
    for m in &mut members {
        m.sort_unstable();
        m.dedup();
    }
    members
}
