//! A set of universe worlds, as a state holds them: a range (the whole universe, or the
//! worlds an event made), a sorted list of indices when few, or a bit per universe world
//! when many (Sum and Product at 10 000: 3 MB of bits for its 25 million worlds, where a
//! list takes 100 MB). Whatever the form, the worlds are visited in increasing order, so
//! a `Set`'s bits line up with them.

use std::borrow::Cow;

use super::eval::CHUNK;
use super::flags::Flags;

/// Universe worlds, visited in increasing order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum WorldIds {
    /// The worlds `start..end`.
    Range(u32, u32),
    /// Sorted indices.
    List(Vec<u32>),
    /// Bit `w` of `words` is set for each world `w`; `len` of them are.
    Bits { words: Vec<u64>, len: usize },
}

impl WorldIds {
    /// The worlds `start..end`.
    pub(super) fn range(start: usize, end: usize) -> WorldIds {
        WorldIds::Range(start as u32, end as u32)
    }

    /// The worlds `sorted` lists (increasing): kept as a list or as bits over a universe of
    /// `universe` worlds, whichever is smaller.
    pub(super) fn from_sorted(sorted: Vec<u32>, universe: usize) -> WorldIds {
        if bits_are_smaller(sorted.len(), universe) {
            let mut words = vec![0u64; universe.div_ceil(64)];
            for &w in &sorted {
                words[w as usize >> 6] |= 1 << (w & 63);
            }
            WorldIds::Bits {
                words,
                len: sorted.len(),
            }
        } else {
            WorldIds::List(sorted)
        }
    }

    /// Of these worlds, those whose flag in `flags` (one per world, in order) is `keep`;
    /// `count` is how many they are, and `universe` the universe's size. Calls `tick`
    /// every [`CHUNK`] worlds (to watch the clock) and stops at its first error.
    pub(super) fn select<E>(
        &self,
        flags: &Flags,
        keep: bool,
        count: usize,
        universe: usize,
        mut tick: impl FnMut() -> Result<(), E>,
    ) -> Result<WorldIds, E> {
        let bits = bits_are_smaller(count, universe);
        let mut words = if bits {
            vec![0u64; universe.div_ceil(64)]
        } else {
            Vec::new()
        };
        let mut list = Vec::with_capacity(if bits { 0 } else { count });
        let mut i = 0;
        for chunk in self.chunks() {
            tick()?;
            for &w in chunk.iter() {
                if flags.get(i) == keep {
                    if bits {
                        words[w as usize >> 6] |= 1 << (w & 63);
                    } else {
                        list.push(w);
                    }
                }
                i += 1;
            }
        }
        Ok(if bits {
            WorldIds::Bits { words, len: count }
        } else {
            WorldIds::List(list)
        })
    }

    /// How many worlds.
    pub(super) fn len(&self) -> usize {
        match self {
            WorldIds::Range(start, end) => (end - start) as usize,
            WorldIds::List(list) => list.len(),
            WorldIds::Bits { len, .. } => *len,
        }
    }

    /// Where world `w` comes among these worlds (None: not one of them).
    pub(super) fn position(&self, w: u32) -> Option<usize> {
        match self {
            WorldIds::Range(start, end) => {
                (*start..*end).contains(&w).then(|| (w - start) as usize)
            }
            WorldIds::List(list) => list.binary_search(&w).ok(),
            WorldIds::Bits { words, .. } => {
                let (word, bit) = (w as usize >> 6, w & 63);
                let here = *words.get(word)?;
                if here & (1 << bit) == 0 {
                    return None;
                }
                let below: u32 = words[..word].iter().map(|x| x.count_ones()).sum();
                Some((below + (here & ((1 << bit) - 1)).count_ones()) as usize)
            }
        }
    }

    /// The least world and one past the greatest (`(0, 0)` when there is none).
    pub(super) fn bounds(&self) -> (usize, usize) {
        match self {
            WorldIds::Range(start, end) if start < end => (*start as usize, *end as usize),
            WorldIds::Range(..) => (0, 0),
            WorldIds::List(list) => match (list.first(), list.last()) {
                (Some(&a), Some(&b)) => (a as usize, b as usize + 1),
                _ => (0, 0),
            },
            WorldIds::Bits { words, .. } => {
                let first = words.iter().position(|&x| x != 0);
                let last = words.iter().rposition(|&x| x != 0);
                match (first, last) {
                    (Some(f), Some(l)) => (
                        f * 64 + words[f].trailing_zeros() as usize,
                        l * 64 + 64 - words[l].leading_zeros() as usize,
                    ),
                    _ => (0, 0),
                }
            }
        }
    }

    /// Whether world `w` is one of these.
    pub(super) fn contains(&self, w: u32) -> bool {
        match self {
            WorldIds::Range(start, end) => (*start..*end).contains(&w),
            WorldIds::List(list) => list.binary_search(&w).is_ok(),
            WorldIds::Bits { words, .. } => words
                .get(w as usize >> 6)
                .is_some_and(|x| x & (1 << (w & 63)) != 0),
        }
    }

    /// The worlds in increasing order.
    pub(super) fn iter(&self) -> Iter<'_> {
        match self {
            WorldIds::Range(start, end) => Iter::Range(*start..*end),
            WorldIds::List(list) => Iter::List(list.iter()),
            WorldIds::Bits { words, .. } => Iter::Bits {
                words,
                at: 0,
                word: words.first().copied().unwrap_or(0),
            },
        }
    }

    /// The worlds in increasing order, in chunks of at most [`CHUNK`] (a list's and a
    /// range's all of that size but the last).
    pub(super) fn chunks(&self) -> impl Iterator<Item = Cow<'_, [u32]>> + '_ {
        let mut lists = match self {
            WorldIds::List(list) => Some(list.chunks(CHUNK)),
            _ => None,
        };
        // Where the next chunk starts: a world (a range) or a word (bits).
        let mut at = match self {
            WorldIds::Range(start, _) => *start as usize,
            _ => 0,
        };
        std::iter::from_fn(move || match self {
            WorldIds::List(_) => lists.as_mut()?.next().map(Cow::Borrowed),
            WorldIds::Range(_, end) => {
                let end = (*end as usize).min(at + CHUNK);
                let chunk: Vec<u32> = (at as u32..end as u32).collect();
                at = end;
                (!chunk.is_empty()).then_some(Cow::Owned(chunk))
            }
            WorldIds::Bits { words, .. } => {
                // Whole words while a word's worlds surely fit.
                let mut chunk = Vec::with_capacity(CHUNK);
                while at < words.len() && chunk.len() + 64 <= CHUNK {
                    let mut word = words[at];
                    while word != 0 {
                        chunk.push((at as u32) << 6 | word.trailing_zeros());
                        word &= word - 1;
                    }
                    at += 1;
                }
                (!chunk.is_empty()).then_some(Cow::Owned(chunk))
            }
        })
    }

    /// The worlds as a list.
    pub(super) fn to_vec(&self) -> Vec<u32> {
        match self {
            WorldIds::List(list) => list.clone(),
            _ => self.iter().collect(),
        }
    }
}

/// Whether a bit per universe world takes less room than a list of `count` indices.
fn bits_are_smaller(count: usize, universe: usize) -> bool {
    universe.div_ceil(64) * 8 < count * 4
}

/// The worlds of a [`WorldIds`], in increasing order.
pub(super) enum Iter<'a> {
    Range(std::ops::Range<u32>),
    List(std::slice::Iter<'a, u32>),
    /// `word`: the bits of `words[at]` not visited yet.
    Bits {
        words: &'a [u64],
        at: usize,
        word: u64,
    },
}

impl Iterator for Iter<'_> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        match self {
            Iter::Range(r) => r.next(),
            Iter::List(l) => l.next().copied(),
            Iter::Bits { words, at, word } => {
                while *word == 0 {
                    *at += 1;
                    *word = *words.get(*at)?;
                }
                let bit = word.trailing_zeros();
                *word &= *word - 1;
                Some((*at as u32) << 6 | bit)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every form holds the same worlds: listed, counted, found, chunked and selected alike.
    #[test]
    fn every_form_holds_the_same_worlds() {
        let universe = 10_000;
        let sparse: Vec<u32> = (0..universe as u32).filter(|w| w % 97 == 3).collect();
        let dense: Vec<u32> = (0..universe as u32).filter(|w| w % 3 != 1).collect();
        let forms = [
            (WorldIds::range(40, 9000), (40..9000).collect::<Vec<u32>>()),
            (WorldIds::from_sorted(sparse.clone(), universe), sparse),
            (WorldIds::from_sorted(dense.clone(), universe), dense),
            (WorldIds::from_sorted(Vec::new(), universe), Vec::new()),
        ];
        assert!(matches!(forms[1].0, WorldIds::List(_)));
        assert!(matches!(forms[2].0, WorldIds::Bits { .. }));
        for (ids, list) in forms {
            assert_eq!(ids.len(), list.len());
            assert_eq!(ids.iter().collect::<Vec<u32>>(), list);
            assert_eq!(ids.to_vec(), list);
            let chunks: Vec<Vec<u32>> = ids.chunks().map(|c| c.to_vec()).collect();
            assert!(chunks.iter().all(|c| !c.is_empty() && c.len() <= CHUNK));
            assert_eq!(chunks.concat(), list);
            for w in [0, 3, 40, 41, 100, 8999, 9000, 9999, 10_000, 70_000] {
                assert_eq!(ids.contains(w), list.contains(&w), "{w}");
                assert_eq!(ids.position(w), list.iter().position(|x| *x == w), "{w}");
            }
            let bounds = match (list.first(), list.last()) {
                (Some(&a), Some(&b)) => (a as usize, b as usize + 1),
                _ => (0, 0),
            };
            assert_eq!(ids.bounds(), bounds);
            let mut flags = Flags::with_capacity(list.len());
            flags.extend(list.iter().map(|w| w % 5 == 0));
            for keep in [true, false] {
                let want: Vec<u32> = list
                    .iter()
                    .zip(flags.iter())
                    .filter(|(_, f)| *f == keep)
                    .map(|(w, _)| *w)
                    .collect();
                let got = ids
                    .select(&flags, keep, want.len(), universe, || Ok::<(), ()>(()))
                    .unwrap();
                assert_eq!(got.len(), want.len());
                assert_eq!(got.to_vec(), want);
            }
        }
    }
}
