//! A flag per world of a list (which of a state's worlds a set holds, or which universe
//! worlds a learned formula held in), packed 64 to a word: 3 MB for Sum and Product's
//! 25 million worlds at 10 000, not 25 MB of bools.

/// Flags in order; the bits past `len` in the last word are always clear.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Flags {
    words: Vec<u64>,
    len: usize,
}

impl Flags {
    /// Room for `n` flags, none yet.
    pub(super) fn with_capacity(n: usize) -> Flags {
        Flags {
            words: Vec::with_capacity(n.div_ceil(64)),
            len: 0,
        }
    }

    /// `n` flags, all `value`.
    pub(super) fn filled(n: usize, value: bool) -> Flags {
        let mut flags = Flags {
            words: vec![if value { u64::MAX } else { 0 }; n.div_ceil(64)],
            len: n,
        };
        flags.clear_tail();
        flags
    }

    fn clear_tail(&mut self) {
        let used = self.len % 64;
        if let (Some(last), true) = (self.words.last_mut(), used != 0) {
            *last &= (1u64 << used) - 1;
        }
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(super) fn push(&mut self, flag: bool) {
        if self.len.is_multiple_of(64) {
            self.words.push(0);
        }
        if flag {
            *self.words.last_mut().expect("a word was pushed") |= 1 << (self.len % 64);
        }
        self.len += 1;
    }

    pub(super) fn extend(&mut self, flags: impl IntoIterator<Item = bool>) {
        for flag in flags {
            self.push(flag);
        }
    }

    /// Appends `flags`: bit by bit up to a word's end, then 64 to a word.
    pub(super) fn extend_from_slice(&mut self, flags: &[bool]) {
        let head = ((64 - self.len % 64) % 64).min(flags.len());
        let (first, rest) = flags.split_at(head);
        self.extend(first.iter().copied());
        let mut words = rest.chunks_exact(64);
        for word in words.by_ref() {
            let packed =
                (word.iter().enumerate()).fold(0u64, |acc, (i, &f)| acc | u64::from(f) << i);
            self.words.push(packed);
            self.len += 64;
        }
        self.extend(words.remainder().iter().copied());
    }

    /// Flag `i`.
    #[inline]
    pub(super) fn get(&self, i: usize) -> bool {
        debug_assert!(i < self.len);
        self.words[i >> 6] & (1 << (i & 63)) != 0
    }

    /// Sets flag `i` (which exists).
    pub(super) fn set(&mut self, i: usize, flag: bool) {
        let bit = 1 << (i & 63);
        if flag {
            self.words[i >> 6] |= bit;
        } else {
            self.words[i >> 6] &= !bit;
        }
    }

    /// The flags in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = bool> + '_ {
        (0..self.len).map(|i| self.get(i))
    }

    /// How many flags are `value`.
    pub(super) fn count(&self, value: bool) -> usize {
        let ones: usize = self.words.iter().map(|w| w.count_ones() as usize).sum();
        if value { ones } else { self.len - ones }
    }

    /// Each flag negated.
    pub(super) fn not(&self) -> Flags {
        let mut flags = Flags {
            words: self.words.iter().map(|w| !w).collect(),
            len: self.len,
        };
        flags.clear_tail();
        flags
    }

    /// Clears each flag that `other`'s (as many) does not have.
    pub(super) fn and(&mut self, other: &Flags) {
        for (w, o) in self.words.iter_mut().zip(&other.words) {
            *w &= o;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Flags;

    /// Packed flags read, count, negate and meet like the bools they hold.
    #[test]
    fn flags_behave_like_bools() {
        for n in [0, 1, 63, 64, 65, 200] {
            let a: Vec<bool> = (0..n).map(|i| i % 3 == 0).collect();
            let b: Vec<bool> = (0..n).map(|i| i % 5 != 1).collect();
            let mut fa = Flags::with_capacity(n);
            fa.extend(a.iter().copied());
            // In whole words, then a part of one, then across words, then unaligned.
            let mut pieces = Flags::default();
            let (x, rest) = a.split_at(n / 64 * 64);
            let (y, z) = rest.split_at(rest.len() / 2);
            pieces.extend_from_slice(x);
            pieces.extend_from_slice(y);
            pieces.extend_from_slice(z);
            pieces.extend_from_slice(&a);
            assert_eq!(
                pieces.iter().collect::<Vec<_>>(),
                [a.clone(), a.clone()].concat()
            );
            let mut fb = Flags::filled(n, true);
            for (i, &x) in b.iter().enumerate() {
                fb.set(i, x);
            }
            assert_eq!(fa.len(), n);
            assert_eq!(fa.iter().collect::<Vec<_>>(), a);
            assert_eq!(fb.iter().collect::<Vec<_>>(), b);
            assert_eq!(fa.count(true), a.iter().filter(|x| **x).count());
            assert_eq!(fa.count(false), a.iter().filter(|x| !**x).count());
            let not: Vec<bool> = a.iter().map(|x| !x).collect();
            assert_eq!(fa.not().iter().collect::<Vec<_>>(), not);
            assert_eq!(fa.not().count(true), not.iter().filter(|x| **x).count());
            let mut both = fa.clone();
            both.and(&fb);
            let and: Vec<bool> = a.iter().zip(&b).map(|(x, y)| *x && *y).collect();
            assert_eq!(both.iter().collect::<Vec<_>>(), and);
            assert_eq!(Flags::filled(n, false).count(true), 0);
            assert_eq!(Flags::filled(n, true).count(true), n);
        }
    }
}
