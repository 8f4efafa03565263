//! A character's view of the universe: which group each world falls in (the worlds of a
//! group look alike to the character). Each world's group id is kept in the fewest bytes
//! (one to four) that hold the ids a refinement makes, chosen before it writes them:
//! Sum and Product's 9 996 sums at 10 000 in two bytes a world, its 8.8 million products
//! in three, with no wider copy on the way.

use crate::FastMap;

/// The group of each world of a span of the universe (`lo..lo + n`: the whole universe,
/// or the worlds a state's own span covers), and how many groups there are.
#[derive(Clone)]
pub(super) struct Groups {
    ids: Ids,
    pub count: usize,
    /// The first universe world of the span (world `w`'s id is at `w - lo`).
    lo: usize,
}

/// One id per world, in one, two, three or four bytes; or 0 for every world, in none.
#[derive(Clone)]
enum Ids {
    /// `n` worlds, all in group 0.
    Zero(usize),
    U8(Vec<u8>),
    U16(Vec<u16>),
    /// Three little-endian bytes a world, and one byte more at the end (each id is read
    /// with one four-byte load).
    U24(Vec<u8>),
    U32(Vec<u32>),
}

const U24_MAX: usize = (1 << 24) - 1;

impl Ids {
    /// `n` zeros, in a type that holds ids up to `max`.
    fn zeros(n: usize, max: usize) -> Ids {
        if max <= u8::MAX as usize {
            Ids::U8(vec![0; n])
        } else if max <= u16::MAX as usize {
            Ids::U16(vec![0; n])
        } else if max <= U24_MAX {
            Ids::U24(vec![0; 3 * n + 1])
        } else {
            Ids::U32(vec![0; n])
        }
    }

    fn max(&self) -> usize {
        match self {
            Ids::Zero(_) => 0,
            Ids::U8(_) => u8::MAX as usize,
            Ids::U16(_) => u16::MAX as usize,
            Ids::U24(_) => U24_MAX,
            Ids::U32(_) => u32::MAX as usize,
        }
    }

    /// These ids in a type that holds ids up to `max` (the same when it already does).
    fn holding(self, max: usize) -> Ids {
        if max <= self.max() {
            return self;
        }
        match &self {
            Ids::Zero(n) => Ids::zeros(*n, max),
            Ids::U8(v) => Ids::widened(v.iter().map(|&g| u32::from(g)), v.len(), max),
            Ids::U16(v) => Ids::widened(v.iter().map(|&g| u32::from(g)), v.len(), max),
            _ => Ids::widened(self.iter(), self.len(), max),
        }
    }

    /// `n` ids in a type that holds ids up to `max` (at least two bytes).
    fn widened(ids: impl Iterator<Item = u32>, n: usize, max: usize) -> Ids {
        if max <= u16::MAX as usize {
            Ids::U16(ids.map(|g| g as u16).collect())
        } else if max <= U24_MAX {
            let mut bytes = Vec::with_capacity(3 * n + 1);
            for g in ids {
                bytes.extend_from_slice(&g.to_le_bytes()[..3]);
            }
            bytes.push(0);
            Ids::U24(bytes)
        } else {
            Ids::U32(ids.collect())
        }
    }

    #[inline]
    fn get(&self, w: usize) -> u32 {
        match self {
            Ids::Zero(n) => {
                debug_assert!(w < *n, "world {w} of {n}");
                0
            }
            Ids::U8(v) => u32::from(v[w]),
            Ids::U16(v) => u32::from(v[w]),
            Ids::U24(v) => u24_at(v, w),
            Ids::U32(v) => v[w],
        }
    }

    /// Sets world `w`'s id (which the type holds; ids of one group become bytes when a
    /// write needs them).
    #[inline]
    fn set(&mut self, w: usize, id: u32) {
        match self {
            Ids::Zero(n) if id != 0 => *self = Ids::one_set(*n, w, id),
            Ids::Zero(_) => {}
            _ => self.store(w, id),
        }
    }

    /// Sets world `w`'s id in ids of one to four bytes.
    #[inline]
    fn store(&mut self, w: usize, id: u32) {
        match self {
            Ids::Zero(_) => debug_assert!(false, "bytes were made for the id"),
            Ids::U8(v) => v[w] = id as u8,
            Ids::U16(v) => v[w] = id as u16,
            Ids::U24(v) => put_u24(v, w, id),
            Ids::U32(v) => v[w] = id,
        }
    }

    /// `n` zeros but `id` (not 0) at world `w`.
    #[cold]
    fn one_set(n: usize, w: usize, id: u32) -> Ids {
        let mut ids = Ids::zeros(n, id as usize);
        ids.store(w, id);
        ids
    }

    fn len(&self) -> usize {
        match self {
            Ids::Zero(n) => *n,
            Ids::U8(v) => v.len(),
            Ids::U16(v) => v.len(),
            Ids::U24(v) => v.len() / 3, // the extra byte aside
            Ids::U32(v) => v.len(),
        }
    }

    fn iter(&self) -> Box<dyn Iterator<Item = u32> + '_> {
        match self {
            Ids::Zero(n) => Box::new(std::iter::repeat_n(0, *n)),
            Ids::U8(v) => Box::new(v.iter().map(|&g| u32::from(g))),
            Ids::U16(v) => Box::new(v.iter().map(|&g| u32::from(g))),
            Ids::U24(_) => Box::new((0..self.len()).map(|w| self.get(w))),
            Ids::U32(v) => Box::new(v.iter().copied()),
        }
    }
}

/// Ids of one width, read and written without a match of the width.
trait Slots {
    fn id(&self, w: usize) -> u32;
    fn put(&mut self, w: usize, id: u32);
}

macro_rules! slots {
    ($t:ty) => {
        impl Slots for Vec<$t> {
            #[inline]
            fn id(&self, w: usize) -> u32 {
                u32::from(self[w])
            }
            #[inline]
            fn put(&mut self, w: usize, id: u32) {
                self[w] = id as $t;
            }
        }
    };
}
slots!(u8);
slots!(u16);
slots!(u32);

/// [`Ids::U24`]'s bytes.
struct Packed24<'a>(&'a mut Vec<u8>);

impl Slots for Packed24<'_> {
    #[inline]
    fn id(&self, w: usize) -> u32 {
        u24_at(self.0, w)
    }
    #[inline]
    fn put(&mut self, w: usize, id: u32) {
        put_u24(self.0, w, id);
    }
}

/// World `w`'s id in [`Ids::U24`]'s bytes (one four-byte load: the bytes end with a spare).
#[inline]
fn u24_at(bytes: &[u8], w: usize) -> u32 {
    let four: [u8; 4] = bytes[3 * w..3 * w + 4].try_into().expect("four bytes");
    u32::from_le_bytes(four) & U24_MAX as u32
}

#[inline]
fn put_u24(bytes: &mut [u8], w: usize, id: u32) {
    bytes[3 * w..3 * w + 3].copy_from_slice(&id.to_le_bytes()[..3]);
}

/// What gives a learned item's value world by world (see [`Groups::refined`]).
type Keys<'a, E> = &'a mut dyn FnMut(&mut dyn FnMut(usize, i128)) -> Result<(), E>;

/// Refines `ids` by the keys with a table of new ids per (old id, key) slot, `width`
/// keys from `lo` a group; `fresh` counts the new groups.
fn by_table<S: Slots, E>(
    ids: &mut S,
    map: &mut [u32],
    width: usize,
    lo: i128,
    fresh: &mut usize,
    keys: Keys<'_, E>,
) -> Result<(), E> {
    keys(&mut |w, key| {
        let slot = &mut map[ids.id(w) as usize * width + (key - lo) as usize];
        if *slot == u32::MAX {
            *slot = *fresh as u32;
            *fresh += 1;
        }
        ids.put(w, *slot);
    })
}

impl Groups {
    /// All `n` worlds in one group (no group when there is no world).
    #[cfg(test)]
    pub(super) fn one(n: usize) -> Groups {
        Groups::one_at(0, n)
    }

    /// All `n` worlds from universe world `lo` in one group.
    pub(super) fn one_at(lo: usize, n: usize) -> Groups {
        Groups {
            ids: Ids::Zero(n),
            count: usize::from(n > 0),
            lo,
        }
    }

    /// Groups numbered `0..count`, `gid[w]` the group of world `w`.
    #[cfg(test)]
    pub(super) fn new(gid: Vec<u32>, count: usize) -> Groups {
        Groups::new_at(0, gid, count)
    }

    /// Groups numbered `0..count` of the worlds from universe world `lo`, `gid[k]` the
    /// group of world `lo + k`.
    pub(super) fn new_at(lo: usize, gid: Vec<u32>, count: usize) -> Groups {
        Groups {
            ids: Ids::U32(gid),
            count,
            lo,
        }
        .narrowed()
    }

    /// The universe worlds these groups cover.
    pub(super) fn span(&self) -> (usize, usize) {
        (self.lo, self.lo + self.ids.len())
    }

    /// Whether these groups cover the universe worlds `lo..hi`.
    pub(super) fn covers(&self, lo: usize, hi: usize) -> bool {
        let (from, to) = self.span();
        lo >= hi || (from <= lo && hi <= to)
    }

    /// The ids in the narrowest type that holds them.
    fn narrowed(self) -> Groups {
        let max = self.count.saturating_sub(1);
        let ids = match self.ids {
            Ids::U32(v) if max <= U24_MAX => {
                let mut narrow = Ids::zeros(v.len(), max);
                for (w, g) in v.into_iter().enumerate() {
                    narrow.set(w, g);
                }
                narrow
            }
            ids => ids,
        };
        Groups {
            ids,
            count: self.count,
            lo: self.lo,
        }
    }

    /// The group of universe world `w` (one of the span's).
    #[inline]
    pub(super) fn of(&self, w: u32) -> usize {
        self.ids.get(w as usize - self.lo) as usize
    }

    /// The group of each world of the span, in order.
    #[cfg(test)]
    pub(super) fn ids(&self) -> Vec<u32> {
        self.ids.iter().collect()
    }

    /// These groups over a universe grown by worlds made from `parents` (each in the
    /// group of the world it came from).
    pub(super) fn extended(&self, parents: &[u32]) -> Groups {
        fn grown<T: Copy>(ids: &[T], parents: &[u32]) -> Vec<T> {
            let mut out = Vec::with_capacity(ids.len() + parents.len());
            out.extend_from_slice(ids);
            out.extend(parents.iter().map(|&p| ids[p as usize]));
            out
        }
        let ids = match &self.ids {
            Ids::Zero(n) => Ids::Zero(n + parents.len()),
            Ids::U8(v) => Ids::U8(grown(v, parents)),
            Ids::U16(v) => Ids::U16(grown(v, parents)),
            Ids::U24(v) => {
                let mut out = Vec::with_capacity(v.len() + 3 * parents.len());
                out.extend_from_slice(&v[..v.len() - 1]);
                for &p in parents {
                    out.extend_from_slice(&v[3 * p as usize..3 * p as usize + 3]);
                }
                out.push(0);
                Ids::U24(out)
            }
            Ids::U32(v) => Ids::U32(grown(v, parents)),
        };
        Groups {
            ids,
            count: self.count,
            lo: self.lo,
        }
    }

    /// The groups of the worlds an event made from `parents` (worlds of this span), the
    /// span `base..base + parents.len()`: each in the group of the world it came from.
    /// Group ids are kept (some may have no world left).
    pub(super) fn carried(&self, base: usize, parents: &[u32]) -> Groups {
        let ids: Vec<u32> = parents.iter().map(|&p| self.of(p) as u32).collect();
        Groups::new_at(base, ids, self.count)
    }

    /// These groups split by the value of a learned item, in `lo..=hi`, which `keys` gives
    /// world by world (calling its argument with each world's place in the span and its
    /// value, in order;
    /// twice when the (old group, value) slots are more than 2^20 and at most 4 per
    /// world: those groups are numbered in the order of their slots, the others as they
    /// appear).
    pub(super) fn refined<E>(
        self,
        lo: i128,
        hi: i128,
        mut keys: impl FnMut(&mut dyn FnMut(usize, i128)) -> Result<(), E>,
    ) -> Result<Groups, E> {
        let at = self.lo;
        let n = self.ids.len();
        let count = self.count;
        let width = (hi - lo) as u128 + 1;
        let slots = (count as u128).saturating_mul(width);
        let dense = slots <= (4 * n as u128).max(1 << 20) && slots <= u128::from(u32::MAX);
        let most = (n as u128).min(slots) as usize;
        let mut fresh = 0usize;
        // From one group, the ids are made at their width, not widened from zeros.
        let start = |ids: Ids, most: usize| {
            if count <= 1 {
                Ids::zeros(n, most)
            } else {
                ids.holding(most)
            }
        };
        let ids = if dense && slots <= 1 << 20 {
            // A table of ids per slot (at most 4 MB).
            let width = width as usize;
            let mut ids = match start(self.ids, most) {
                Ids::Zero(n) => Ids::zeros(n, 0),
                ids => ids,
            };
            let mut map = vec![u32::MAX; count * width];
            // One pass per width (no match of the width per world).
            let keys: Keys<'_, E> = &mut keys;
            match &mut ids {
                Ids::Zero(_) => {}
                Ids::U8(v) => by_table(v, &mut map, width, lo, &mut fresh, keys)?,
                Ids::U16(v) => by_table(v, &mut map, width, lo, &mut fresh, keys)?,
                Ids::U24(v) => by_table(&mut Packed24(v), &mut map, width, lo, &mut fresh, keys)?,
                Ids::U32(v) => by_table(v, &mut map, width, lo, &mut fresh, keys)?,
            }
            ids
        } else if dense {
            // The slots in use (a world's slot: its group so far, the item's value)
            // marked in a bitmap, then each world's id written as its slot's rank among
            // those in use, the keys read twice: groups in the order of their slots, with
            // no table of slots and no id wider than the count needs (Sum and Product's
            // products at 10 000 span 25 million slots: 3 MB of bits, and 8.8 million
            // groups in three bytes a world).
            let width = width as usize;
            let old = &self.ids;
            let slot = |w: usize, key: i128| {
                let group = if count <= 1 { 0 } else { old.get(w) as usize };
                group * width + (key - lo) as usize
            };
            let mut used = vec![0u64; (count * width).div_ceil(64)];
            keys(&mut |w, key| {
                let slot = slot(w, key);
                used[slot >> 6] |= 1 << (slot & 63);
            })?;
            let mut before = Vec::with_capacity(used.len());
            for word in &used {
                before.push(fresh as u32);
                fresh += word.count_ones() as usize;
            }
            let mut ids = Ids::zeros(n, fresh.saturating_sub(1));
            keys(&mut |w, key| {
                let slot = slot(w, key);
                let below = used[slot >> 6] & ((1u64 << (slot & 63)) - 1);
                ids.set(w, before[slot >> 6] + below.count_ones());
            })?;
            ids
        } else {
            let mut ids = start(self.ids, most);
            let mut map: FastMap<(u32, i128), u32> =
                FastMap::with_capacity_and_hasher(n.min(1 << 20), Default::default());
            keys(&mut |w, key| {
                let id = *map.entry((ids.get(w), key)).or_insert_with(|| {
                    fresh += 1;
                    fresh as u32 - 1
                });
                ids.set(w, id);
            })?;
            ids
        };
        Ok(Groups {
            ids,
            count: fresh,
            lo: at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Groups, Ids};

    /// Ids keep their values whatever the width the count chooses.
    #[test]
    fn ids_survive_narrowing() {
        for count in [1, 256, 257, 65_536, 65_537, 1 << 20, (1 << 24) + 1] {
            let gid: Vec<u32> = (0..1000u32).map(|w| (w * 7919) % count).collect();
            let groups = Groups::new(gid.clone(), count as usize);
            assert_eq!(groups.ids(), gid);
            assert!((0..1000).all(|w| groups.of(w) == gid[w as usize] as usize));
            let grown = groups.extended(&[5, 0, 999]);
            assert_eq!(grown.ids()[1000..], [gid[5], gid[0], gid[999]]);
        }
    }

    /// Groups over a span of the universe are read by universe index; those carried to
    /// the worlds an event made are the groups of the worlds they came from.
    #[test]
    fn a_span_is_read_by_universe_index() {
        let groups = Groups::one_at(100, 6)
            .refined(0, 2, |f| {
                (0..6).for_each(|k| f(k, (k % 3) as i128));
                Ok::<(), ()>(())
            })
            .unwrap();
        assert_eq!(groups.span(), (100, 106));
        assert!(groups.covers(101, 106) && !groups.covers(99, 103));
        assert_eq!(groups.of(100), groups.of(103));
        assert_ne!(groups.of(100), groups.of(101));
        let carried = groups.carried(500, &[104, 101, 102]);
        assert_eq!(carried.span(), (500, 503));
        let got: Vec<usize> = (500..503).map(|w| carried.of(w)).collect();
        assert_eq!(got, [groups.of(104), groups.of(101), groups.of(102)]);
    }

    /// One group takes no room, and becomes ids of the width a write needs.
    #[test]
    fn one_group_grows_ids_when_written() {
        let one = Groups::one(4);
        assert_eq!(one.ids(), [0, 0, 0, 0]);
        assert_eq!(one.extended(&[3, 1]).ids(), [0; 6]);
        let mut ids = Ids::Zero(4);
        ids.set(1, 0);
        assert!(matches!(ids, Ids::Zero(4)));
        ids.set(2, 70_000);
        assert!(matches!(ids, Ids::U24(_)));
        assert_eq!(ids.iter().collect::<Vec<_>>(), [0, 0, 70_000, 0]);
        assert!(matches!(Ids::Zero(3).holding(300), Ids::U16(v) if v == [0, 0, 0]));
    }

    /// Refining by one value then another groups the worlds by the pair, whichever way
    /// the ids are kept: a table of slots (7 × 41 slots), a bitmap of slots (7 × 160 000
    /// slots: more than 2^20, at most 4 per world), a hash map (7 × 2 000 006 slots).
    #[test]
    fn refining_groups_by_every_value() {
        let n = 300_000usize;
        let a: Vec<i128> = (0..n).map(|w| (w % 7) as i128).collect();
        for (case, (lo, hi, b)) in [
            (
                0i128,
                40i128,
                (0..n).map(|w| (w * 13 % 41) as i128).collect::<Vec<_>>(),
            ),
            (
                0,
                159_999,
                (0..n).map(|w| (w * 7919 % 160_000) as i128).collect(),
            ),
            (
                -5,
                2_000_000,
                (0..n).map(|w| (w * w % 2_000_000) as i128 - 5).collect(),
            ),
        ]
        .into_iter()
        .enumerate()
        {
            let groups = Groups::one(n)
                .refined(0, 6, |f| {
                    a.iter().enumerate().for_each(|(w, k)| f(w, *k));
                    Ok::<(), ()>(())
                })
                .unwrap()
                .refined(lo, hi, |f| {
                    b.iter().enumerate().for_each(|(w, k)| f(w, *k));
                    Ok::<(), ()>(())
                })
                .unwrap();
            let mut pairs: Vec<(i128, i128)> = a.iter().copied().zip(b.iter().copied()).collect();
            pairs.sort();
            pairs.dedup();
            assert_eq!(groups.count, pairs.len());
            for v in (0..n).step_by(7) {
                for w in [0, v / 2, (v + 1) % n, n - 1] {
                    let (gv, gw) = (groups.of(v as u32), groups.of(w as u32));
                    assert_eq!(gv == gw, (a[v], b[v]) == (a[w], b[w]));
                    if case == 1 {
                        // A bitmap of slots: the groups come in the order of their pairs.
                        assert_eq!(gv < gw, (a[v], b[v]) < (a[w], b[w]));
                    }
                }
            }
        }
    }
}
