//! Forgetting an event's history on listed worlds (docs/encoding.md, "Forgetting
//! histories"): after the product, each world holds the constants' current values (its
//! occurrence back at its not-yet value) and, per character, the class of what it
//! observed (its group before the event and the group of the case it saw). Worlds that
//! agree on all of that are one world: they have the same values and, for every
//! character, the same indistinguishable worlds. Then, unless a formula reads
//! distributed knowledge, the worlds are contracted by partition refinement
//! ([`contract`]): bisimilar worlds are one, whatever they observed. The worlds left are
//! appended to the universe as a segment of their own, each character's class a number
//! per world ([`Learned::Classes`], as a plan's rebuilt states hold them); the product's
//! worlds, and the state's before it when it was made so, are dropped first (nothing
//! reads them again: no checkpoint, no `at`).

use foldhash::HashMap;
use std::rc::Rc;

use super::eval::{CHUNK, Col};
use super::rebuild::Classes;
use super::{ExplicitBackend, Learned, Minds, State, WorldIds};
use crate::Failure;
use crate::driver::Forgotten;
use crate::driver::{Members, dense_by, stable_labels};
use crate::ir::{ExprKind, GroupOp};

impl ExplicitBackend {
    /// [`crate::driver::Forgetting::forget`].
    pub(super) fn forget_event(
        &mut self,
        state: &Rc<State>,
        forgotten: &Forgotten<'_>,
        point: Option<&Option<u32>>,
    ) -> Result<(Rc<State>, Option<Option<u32>>), Failure> {
        if state.pending > 0 || self.weights.is_some() {
            return Err(internal("forgetting the history of a state it cannot"));
        }
        if state.minds.ranks.iter().any(|r| !r.is_empty()) {
            // choice.rs keeps the history of a story with plausibility.
            return Err(internal("forgetting the history of plausibility ranks"));
        }
        let occ = forgotten.occurrence.0;
        if self.program.constants[occ].occurrence.is_none() {
            return Err(internal("an event without its occurrence"));
        }
        let worlds: Vec<u32> = state.worlds.iter().collect();
        let n = worlds.len();
        // The changed constants' values after, world by world.
        let mut after: Vec<(usize, Vec<i64>)> = Vec::with_capacity(forgotten.changes.len());
        for (c, term) in forgotten.changes {
            let mut values = Vec::with_capacity(n);
            for chunk in worlds.chunks(CHUNK) {
                self.check_deadline()?;
                match self.eval(term, chunk, state, &[])? {
                    Col::Int(v) => {
                        for x in v {
                            values.push(i64::try_from(x).map_err(|_| {
                                internal("a changed constant leaves the 64-bit integers")
                            })?);
                        }
                    }
                    Col::Bool(v) => values.extend(v.into_iter().map(i64::from)),
                }
            }
            after.push((c.0, values));
        }
        // Each character's class: its group in the product and the group of the case.
        let characters = state.minds.learned.len();
        let occ_column = &self.universe.columns[occ];
        let cases: Vec<usize> = (worlds.iter())
            .map(|&w| usize::try_from(occ_column.get(w as usize)).unwrap_or(0))
            .collect();
        let mut classes: Vec<Vec<u32>> = Vec::with_capacity(characters);
        for who in 0..characters {
            self.check_deadline()?;
            let groups = self.groups(state, who)?;
            let sees = forgotten.sees.get(who).and_then(Option::as_ref);
            let mut ids: HashMap<(usize, usize), u32> = HashMap::default();
            let of: Vec<u32> = (worlds.iter().zip(&cases))
                .map(|(&w, &k)| {
                    let seen = sees.and_then(|g| g.get(k)).copied().unwrap_or(0);
                    let fresh = ids.len() as u32;
                    *ids.entry((groups.of(w), seen)).or_insert(fresh)
                })
                .collect();
            classes.push(of);
        }
        // Each world's row: the values after, every occurrence at its not-yet value (the
        // earlier ones were put back, the later ones have not happened).
        let columns = self.universe.columns.len();
        let not_yet: Vec<Option<i64>> = (self.program.constants.iter())
            .map(|c| {
                c.occurrence
                    .map(|o| self.program.events[o.event.0].not_yet())
            })
            .collect();
        let mut changed: Vec<Option<&[i64]>> = vec![None; columns];
        for (c, values) in &after {
            changed[*c] = Some(values);
        }
        let row = |i: usize| -> Vec<i64> {
            (0..columns)
                .map(|c| match (changed[c], not_yet[c]) {
                    (Some(values), _) => values[i],
                    (None, Some(not_yet)) => not_yet,
                    (None, None) => self.universe.columns[c].get(worlds[i] as usize),
                })
                .collect()
        };
        // The merged worlds: one per row and classes, in lexicographic order.
        let mut merged: HashMap<(Vec<i64>, Vec<u32>), usize> = HashMap::default();
        let mut keys: Vec<(Vec<i64>, Vec<u32>)> = Vec::new();
        let mut class_of_world = Vec::with_capacity(n);
        for i in 0..n {
            if i % CHUNK == 0 {
                self.check_deadline()?;
            }
            let key = (row(i), classes.iter().map(|c| c[i]).collect::<Vec<u32>>());
            let fresh = keys.len();
            let k = *merged.entry(key.clone()).or_insert(fresh);
            if k == fresh {
                keys.push(key);
            }
            class_of_world.push(k);
        }
        drop(merged);
        // Then the bisimulation contraction, unless a formula reads distributed
        // knowledge (which bisimilar worlds need not agree on).
        if !self.distributed() {
            let (contracted, map) = contract(&keys, characters, || self.check_deadline())?;
            for k in &mut class_of_world {
                *k = map[*k];
            }
            keys = contracted;
        }
        let mut order: Vec<usize> = (0..keys.len()).collect();
        order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
        let mut place = vec![0usize; keys.len()];
        for (at, &k) in order.iter().enumerate() {
            place[k] = at;
        }
        // The actual world: the product's world from the one before with the case that
        // happened.
        let actual = match (point, forgotten.actual_case) {
            (Some(Some(before)), Some(k)) => {
                let first = self.universe.segments.get(1).copied().unwrap_or(usize::MAX);
                let found = (worlds.iter().zip(&cases)).position(|(&w, &case)| {
                    case == k
                        && (w as usize) >= first
                        && self.universe.parent[w as usize - first] == *before
                });
                let i = found.ok_or_else(|| internal("the actual world left κ"))?;
                Some(place[class_of_world[i]])
            }
            _ => None,
        };
        // Dropped: the product's worlds, and the state's before them when they were a
        // forgotten segment (past the worlds the first announcements listed).
        let (lo, _) = state.worlds.bounds();
        let mut mark = lo;
        if let Some(&w) = worlds.first() {
            let first = self.universe.segments.get(1).copied().unwrap_or(usize::MAX);
            if (w as usize) >= first {
                let parent = self.universe.parent[w as usize - first] as usize;
                // A world past the listed ones that an event's product comes from is
                // the last forgotten segment's (each product is dropped as it is
                // forgotten).
                if parent >= first {
                    mark = (self.universe.segments.iter().copied())
                        .filter(|&s| s <= parent)
                        .max()
                        .unwrap_or(lo);
                }
            }
        }
        self.truncate(mark);
        self.memo.clear();
        self.plausible.clear();
        self.joint.clear();
        let base = self.universe.len;
        if base + keys.len() > u32::MAX as usize {
            return Err(Failure::Unsupported(
                "the events made more worlds than the explicit-worlds backend indexes".into(),
            ));
        }
        let sorted: Vec<&(Vec<i64>, Vec<u32>)> = order.iter().map(|&k| &keys[k]).collect();
        let rows: Vec<Vec<i64>> = sorted.iter().map(|(r, _)| r.clone()).collect();
        Rc::make_mut(&mut self.universe).append(&rows, 0);
        let mut minds = Minds {
            learned: vec![Vec::new(); characters],
            lists: vec![Vec::new(); characters],
            ranks: vec![Vec::new(); characters],
        };
        for who in 0..characters {
            let values: Vec<u32> = sorted.iter().map(|(_, c)| c[who]).collect();
            let numbers = Rc::new(Classes::new(base, values));
            self.push_learned(&mut minds, who, Learned::Classes(numbers));
        }
        let worlds = WorldIds::range(base, base + keys.len());
        let next = self.state(0, Rc::new(worlds), Rc::new(minds));
        tracing::trace!(
            product = n,
            worlds = keys.len(),
            "an event's history forgotten on listed worlds"
        );
        Ok((next, actual.map(|a| Some((base + a) as u32))))
    }
}

impl ExplicitBackend {
    /// Whether a formula of the story reads distributed knowledge.
    fn distributed(&self) -> bool {
        (self.program.find(&mut |x| {
            matches!(
                x.kind,
                ExprKind::Group {
                    op: GroupOp::Distributed,
                    ..
                }
            )
        }))
        .is_some()
    }
}

/// Worlds by their row and each character's class.
type Worlds = Vec<(Vec<i64>, Vec<u32>)>;

/// The bisimulation contraction of `worlds` (each a row and each character's class, the
/// classes an equivalence per character): from the worlds' rows, refined by
/// [`stable_labels`] (the planner's refinement) until stable; each class one world, its
/// row, and per character the class of the classes its members' classes reach. With
/// the class of each of `worlds`.
fn contract(
    worlds: &Worlds,
    characters: usize,
    check_deadline: impl Fn() -> Result<(), Failure>,
) -> Result<(Worlds, Vec<usize>), Failure> {
    let rows: Vec<Vec<i64>> = worlds.iter().map(|(row, _)| row.clone()).collect();
    let (labels, blocks) = dense_by(rows.iter().map(Vec::as_slice));
    let groups: Vec<Vec<usize>> = (0..characters)
        .map(|who| worlds.iter().map(|(_, c)| c[who] as usize).collect())
        .collect();
    let labels = stable_labels(labels, blocks, &groups, check_deadline)?;
    // Per character, each class's blocks, numbered: the contracted worlds' classes.
    let reach: Vec<Vec<i64>> = (groups.iter())
        .map(|class_of| Members::of(class_of, &labels).dense().0)
        .collect();
    let mut first: Vec<usize> = Vec::new();
    for (i, &b) in labels.iter().enumerate() {
        if b as usize == first.len() {
            first.push(i);
        }
    }
    let contracted = (first.iter())
        .map(|&i| {
            let classes = (0..characters)
                .map(|who| reach[who][groups[who][i]] as u32)
                .collect();
            (worlds[i].0.clone(), classes)
        })
        .collect();
    let map = labels.iter().map(|&b| b as usize).collect();
    Ok((contracted, map))
}

fn internal(what: &str) -> Failure {
    super::eval::internal(what)
}

impl crate::driver::Forgetting<Rc<State>, Option<u32>> for ExplicitBackend {
    fn forget(
        &mut self,
        state: &Rc<State>,
        forgotten: &Forgotten<'_>,
        point: Option<&Option<u32>>,
    ) -> Result<(Rc<State>, Option<Option<u32>>), Failure> {
        self.forget_event(state, forgotten, point)
    }
}
