//! [`Frame`]: a listed model as a plan's search reads it, in flat tables of numbers:
//! each world's first signature (its values, what belief and chance say of it), each
//! character's class of each world, each character's plausibility place of each world.
//! The search refines it to its classes of bisimilar worlds ([`Frame::refine`]) and
//! writes its canonical form ([`Frame::key`]); a state's contraction
//! ([`Frame::quotient`]) is made from a frame of its model and recognised by a frame of
//! the contraction ([`Frame::of_quotient`]), so that no [`Model`] of it is made.

use std::convert::Infallible;

use num_rational::BigRational;

use super::contract::{Members, Quotient, dense_by, stable_labels};
use crate::worlds::{Model, Value};

/// A state's worlds as a backend that rebuilds states lists them for a plan's search
/// ([`super::Rebuilding::tables`]): what a [`Model`] says of them, but for the values
/// only those of the story's own constants, as numbers, and each view as the number of
/// its group.
pub(crate) struct Tables {
    /// How many worlds.
    pub n: usize,
    /// Each world's values of the story's own constants (the steps' occurrences left
    /// out), as many numbers a world, as [`Value::number`] writes them.
    pub own: Vec<i64>,
    /// Per character, each world's group: the same number, the same view.
    pub groups: Vec<Vec<u32>>,
    /// Per character, how many plausibility ranks a world has, and each world's ranks
    /// in a row (as [`Model::ranks`], flat).
    pub ranks: Vec<(usize, Vec<i64>)>,
    /// Each world's chance (as [`Model::chances`]).
    pub chances: Option<Vec<BigRational>>,
    /// The actual world's place, if there is one.
    pub actual: Option<usize>,
}

/// A model's worlds as numbers (see the module documentation).
pub(super) struct Frame {
    /// How many worlds.
    n: usize,
    /// The numbers of each world's first signature.
    stride: usize,
    /// Each world's first signature, `stride` numbers a world: its values, each
    /// character's plausibility place, its chance's place among the distinct chances.
    start: Vec<i64>,
    /// The distinct chances in order (empty: the model has none), which the places in
    /// `start` refer to.
    chances: Vec<BigRational>,
    /// Per character, each world's class (the worlds with the same view), numbered in
    /// the order met.
    pub groups: Vec<Vec<usize>>,
    /// Per character, each world's plausibility as its place among the distinct ranks
    /// (`n` of them; belief compares ranks only, and rank tuples grow with every event,
    /// so two states alike but for their histories get the same places).
    pub places: Vec<Vec<i64>>,
}

impl Frame {
    /// The frame of `model`, `own` giving the values (as numbers) of a world that tell
    /// it apart (the story's own constants, without the steps' occurrences).
    pub fn of_model(model: &Model, own: impl FnMut(usize, &mut Vec<i64>)) -> Frame {
        let n = model.worlds.len();
        let groups = model.views.iter().map(|views| classes_of(views)).collect();
        let places = model.ranks.iter().map(|ranks| places_of(ranks)).collect();
        let (chance_of, chances) = chance_places(model.chances.as_deref());
        Frame::with(n, groups, places, chance_of, chances, own)
    }

    /// The frame of a state's [`Tables`] (a backend that rebuilds states lists them
    /// without the worlds' values: [`super::Rebuilding::tables`]), `own` giving the
    /// values of a world (as [`Frame::of_model`]; [`Tables::own`] holds them).
    pub fn of_tables(t: &Tables, own: impl FnMut(usize, &mut Vec<i64>)) -> Frame {
        let groups = t.groups.iter().map(|ids| classes_of_ids(ids)).collect();
        let places = (t.ranks.iter())
            .map(|(stride, rows)| places_of_rows(rows, *stride, t.n))
            .collect();
        let (chance_of, chances) = chance_places(t.chances.as_deref());
        Frame::with(t.n, groups, places, chance_of, chances, own)
    }

    /// The frame of a contraction of `n` classes, `own` giving the values of a class (as
    /// [`Frame::of_model`]).
    pub fn of_quotient(q: &Quotient, n: usize, own: impl FnMut(usize, &mut Vec<i64>)) -> Frame {
        let groups = (q.views.iter())
            .map(|v| v.iter().map(|&g| g as usize).collect())
            .collect();
        let places = (q.ranks.iter())
            .map(|r| match r {
                Some(r) => places_of(r),
                None => vec![0; n],
            })
            .collect();
        Frame::with(n, groups, places, None, Vec::new(), own)
    }

    fn with(
        n: usize,
        groups: Vec<Vec<usize>>,
        places: Vec<Vec<i64>>,
        chance_of: Option<Vec<i64>>,
        chances: Vec<BigRational>,
        mut own: impl FnMut(usize, &mut Vec<i64>),
    ) -> Frame {
        let mut start = Vec::new();
        let mut stride = 0;
        for w in 0..n {
            own(w, &mut start);
            start.extend(places.iter().filter(|p| p.len() == n).map(|p| p[w]));
            if let Some(c) = &chance_of {
                start.push(c[w]);
            }
            if w == 0 {
                stride = start.len();
            }
        }
        debug_assert_eq!(start.len(), n * stride);
        Frame {
            n,
            stride,
            start,
            chances,
            groups,
            places,
        }
    }

    /// The frame's classes of bisimilar worlds as [`Frame::key`] finds them (each world's
    /// class), numbered in the order met rather than canonically (cheaper: no signature
    /// is sorted).
    pub fn refine(&self) -> Vec<i64> {
        let sig = |w: usize| &self.start[w * self.stride..(w + 1) * self.stride];
        let (labels, blocks) = dense_by((0..self.n).map(sig));
        match stable_labels(labels, blocks, &self.groups, || Ok::<(), Infallible>(())) {
            Ok(labels) => labels,
            Err(never) => match never {},
        }
    }

    /// The contraction of the frame whose worlds' classes are `labels`
    /// ([`Frame::refine`]), keeping the classes `actual` reaches when there is one: by
    /// the characters' indistinguishability, or with `believed` by their beliefs (the
    /// most plausible classes of each group). Its rows are left empty: the second part
    /// gives the world of the frame that each class stands for, whose values they are.
    pub fn quotient(
        &self,
        labels: &[i64],
        actual: Option<usize>,
        believed: bool,
    ) -> (Quotient, Vec<usize>) {
        let n = labels.len();
        let count = labels.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
        let mut rep = vec![usize::MAX; count];
        for w in (0..n).rev() {
            rep[labels[w] as usize] = w;
        }
        // Per character, the classes in each of its groups (the same for every world of a
        // class: the labels are stable under refinement).
        let members: Vec<Members> = (self.groups.iter())
            .map(|group_of| Members::of(group_of, labels))
            .collect();
        // The classes kept: those the actual world reaches, or all.
        let kept: Vec<usize> = match actual {
            None => (0..count).collect(),
            Some(a) => {
                let mut seen = vec![false; count];
                // Each character's groups reached: a group leads to the same classes
                // whichever of its classes reached it.
                let mut expanded: Vec<Vec<bool>> =
                    members.iter().map(|m| vec![false; m.len()]).collect();
                let start = labels[a] as usize;
                seen[start] = true;
                let mut todo = vec![start];
                while let Some(c) = todo.pop() {
                    for (who, (m, group_of)) in members.iter().zip(&self.groups).enumerate() {
                        let g = group_of[rep[c]];
                        if std::mem::replace(&mut expanded[who][g], true) {
                            continue;
                        }
                        let group = m.get(g);
                        let places = (self.places.get(who)).filter(|p| believed && p.len() == n);
                        let least =
                            places.and_then(|p| group.iter().map(|&d| p[rep[d as usize]]).min());
                        for &d in group {
                            let d = d as usize;
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
                let (ids, _) = dense_by(kept.iter().map(|&c| m.get(group_of[rep[c]])));
                ids.into_iter().map(|g| g as u32).collect()
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
        let q = Quotient {
            rows: Vec::new(),
            views,
            ranks,
            actual: actual.and_then(|a| kept.binary_search(&(labels[a] as usize)).ok()),
        };
        (q, kept.iter().map(|&c| rep[c]).collect())
    }

    /// The canonical form of the frame up to bisimulation: partition refinement from the
    /// worlds' first signatures, each round's blocks numbered by the sorted order of
    /// their signatures (so that the numbering does not depend on the order worlds are
    /// listed in), until stable; then the stable partition's structure: the table of
    /// first signatures (and of the chances they name), each block's place in it, each
    /// character's classes as sets of blocks (their table) and each block's class, and
    /// `actual`'s block.
    pub fn key(&self, actual: Option<usize>) -> Vec<i64> {
        let n = self.n;
        let mut out = Vec::new();
        let (first, mut blocks) = number_flat(&self.start, self.stride, n, &mut out);
        for c in &self.chances {
            let c = c.to_string();
            out.push(c.len() as i64);
            out.extend(c.bytes().map(i64::from));
        }
        let mut labels = first.clone();
        // The tables of the rounds between: the stable partition's say it all.
        let stride = 1 + self.groups.len();
        let mut sigs = vec![0i64; n * stride];
        let mut scratch = Vec::new();
        loop {
            for w in 0..n {
                sigs[w * stride] = labels[w];
            }
            for (j, class_of) in self.groups.iter().enumerate() {
                // Each world's class by the place of its blocks among the distinct ones:
                // a world's signature grows by one number a character, not by its
                // class's blocks.
                let places = number_sets(&Members::of(class_of, &labels), &mut scratch);
                for w in 0..n {
                    sigs[w * stride + 1 + j] = places[class_of[w]];
                }
            }
            scratch.clear();
            let (next, now) = number_flat(&sigs, stride, n, &mut scratch);
            scratch.clear();
            labels = next;
            if now == blocks {
                break;
            }
            blocks = now;
        }
        let mut rep = vec![0; blocks];
        for w in (0..n).rev() {
            rep[labels[w] as usize] = w;
        }
        out.push(blocks as i64);
        out.extend(rep.iter().map(|&w| first[w]));
        for class_of in &self.groups {
            let places = number_sets(&Members::of(class_of, &labels), &mut out);
            out.extend(rep.iter().map(|&w| places[class_of[w]]));
        }
        out.push(actual.map_or(-1, |a| labels[a]));
        out
    }
}

/// Each world's class among `views` (the worlds with the same view), numbered in the
/// order met. A backend that groups worlds gives each view as the number of its group
/// ([`super::Views::Grouped`]): small numbers are told apart by a table, not hashed.
fn classes_of(views: &[Vec<Value>]) -> Vec<usize> {
    let ids: Option<Vec<u32>> = (views.iter())
        .map(|v| match v.as_slice() {
            [Value::Int(g)] => u32::try_from(*g).ok(),
            _ => None,
        })
        .collect();
    if let Some(ids) = ids {
        return classes_of_ids(&ids);
    }
    let (ids, _) = dense_by(views.iter().map(Vec::as_slice));
    ids.into_iter().map(|g| g as usize).collect()
}

/// Each world's class among the group numbers `ids`, numbered in the order met.
fn classes_of_ids(ids: &[u32]) -> Vec<usize> {
    let n = ids.len();
    if ids.iter().any(|&g| g as usize > 4 * n) {
        let (ids, _) = dense_by(ids.iter());
        return ids.into_iter().map(|g| g as usize).collect();
    }
    let mut class = vec![usize::MAX; 4 * n + 1];
    let mut next = 0;
    (ids.iter())
        .map(|&g| {
            let id = &mut class[g as usize];
            if *id == usize::MAX {
                *id = next;
                next += 1;
            }
            *id
        })
        .collect()
}

/// Each world's rank as its place among the distinct ranks (sorted).
fn places_of<T: Ord>(ranks: &[T]) -> Vec<i64> {
    places_of_values(ranks).0
}

/// Each of the `n` rows of `stride` numbers in `flat` as its place among the distinct
/// rows (sorted), as [`places_of`] for ranks in one table.
fn places_of_rows(flat: &[i64], stride: usize, n: usize) -> Vec<i64> {
    match stride {
        0 => vec![0; n],
        1 => places_of(flat),
        _ => number_flat(flat, stride, n, &mut Vec::new()).0,
    }
}

/// Each world's chance as its place among the distinct chances, and those chances in
/// order (none without chances).
fn chance_places(chances: Option<&[BigRational]>) -> (Option<Vec<i64>>, Vec<BigRational>) {
    match chances {
        Some(c) => {
            let (of, distinct) = places_of_values(c);
            (Some(of), distinct.into_iter().cloned().collect())
        }
        None => (None, Vec::new()),
    }
}

/// Each value's place among the distinct values (sorted), and those values.
fn places_of_values<T: Ord>(values: &[T]) -> (Vec<i64>, Vec<&T>) {
    let mut distinct: Vec<&T> = values.iter().collect();
    distinct.sort();
    distinct.dedup();
    let places = (values.iter())
        .map(|v| distinct.binary_search(&v).map_or(-1, |k| k as i64))
        .collect();
    (places, distinct)
}

/// Numbers each of the `n` signatures of `stride` numbers in `flat` by its rank among
/// the distinct ones (sorted), appending the table of distinct signatures to `out`; and
/// how many distinct ones there are.
fn number_flat(flat: &[i64], stride: usize, n: usize, out: &mut Vec<i64>) -> (Vec<i64>, usize) {
    let sig = |w: usize| &flat[w * stride..(w + 1) * stride];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by(|&a, &b| sig(a).cmp(sig(b)));
    let mut labels = vec![0i64; n];
    let mut distinct = 0usize;
    out.push(0);
    let at = out.len() - 1;
    out.push(stride as i64);
    for (k, &w) in order.iter().enumerate() {
        if k == 0 || sig(order[k - 1]) != sig(w) {
            distinct += 1;
            out.extend_from_slice(sig(w));
        }
        labels[w] = distinct as i64 - 1;
    }
    out[at] = distinct as i64;
    (labels, distinct)
}

/// Numbers each set of blocks by its rank among the distinct ones (sorted), appending
/// the table of distinct sets to `out`.
fn number_sets(sets: &Members, out: &mut Vec<i64>) -> Vec<i64> {
    let mut order: Vec<usize> = (0..sets.len()).collect();
    order.sort_unstable_by(|&a, &b| sets.get(a).cmp(sets.get(b)));
    let mut numbers = vec![0i64; sets.len()];
    let at = out.len();
    out.push(0);
    let mut distinct = 0i64;
    for (k, &c) in order.iter().enumerate() {
        if k == 0 || sets.get(order[k - 1]) != sets.get(c) {
            distinct += 1;
            out.push(sets.get(c).len() as i64);
            out.extend_from_slice(sets.get(c));
        }
        numbers[c] = distinct - 1;
    }
    out[at] = distinct;
    numbers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worlds::World;

    /// A model of worlds with one int each, one character's views and no ranks.
    fn model(values: &[i64], views: &[i64]) -> Model {
        Model {
            worlds: values.iter().map(|&v| World(vec![Value::Int(v)])).collect(),
            before: None,
            views: vec![views.iter().map(|&g| vec![Value::Int(g)]).collect()],
            ranks: vec![vec![Vec::new(); values.len()]],
            chances: None,
        }
    }

    fn key(m: &Model, actual: Option<usize>) -> Vec<i64> {
        let frame = Frame::of_model(m, |w, sig| sig.push(m.worlds[w].0[0].number()));
        frame.key(actual)
    }

    #[test]
    fn the_key_is_the_same_up_to_bisimulation_and_order() {
        // x = 1 and x = 2 told apart, two copies of x = 2 alike.
        let a = model(&[1, 2, 2], &[0, 1, 1]);
        let listed_otherwise = model(&[2, 1, 2], &[5, 3, 5]);
        let contracted = model(&[1, 2], &[0, 1]);
        assert_eq!(key(&a, Some(0)), key(&listed_otherwise, Some(1)));
        assert_eq!(key(&a, Some(0)), key(&contracted, Some(0)));
        // Another actual world, another view, another value: other states.
        assert_ne!(key(&a, Some(0)), key(&a, Some(1)));
        assert_ne!(
            key(&a, Some(0)),
            key(&model(&[1, 2, 2], &[0, 0, 0]), Some(0))
        );
        assert_ne!(
            key(&a, Some(0)),
            key(&model(&[1, 3, 3], &[0, 1, 1]), Some(0))
        );
        // The refinement finds the two classes, in the order met.
        let frame = Frame::of_model(&listed_otherwise, |w, sig| {
            sig.push(listed_otherwise.worlds[w].0[0].number())
        });
        assert_eq!(frame.refine(), [0, 1, 0]);
    }
}
