//! A column of the universe: one constant's value in every world, kept in the smallest
//! integer type that holds the values written so far (bools and small enums in a byte,
//! Sum and Product's x and y at 10 000 in two bytes). A value that does not fit widens
//! the whole column once.

// The `each!` arms convert every width with `i64::from`, the i64 arm's included.
#![allow(clippy::useless_conversion)]

/// The values of one constant, world by world.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Column {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
}

/// Runs `$body` with `$v` bound to the column's vector, whatever its type.
macro_rules! each {
    ($col:expr, $v:ident => $body:expr) => {
        match $col {
            Column::I8($v) => $body,
            Column::I16($v) => $body,
            Column::I32($v) => $body,
            Column::I64($v) => $body,
        }
    };
}

/// How wide a value is: 0 (i8) to 3 (i64).
fn width(v: i64) -> u8 {
    if i8::try_from(v).is_ok() {
        0
    } else if i16::try_from(v).is_ok() {
        1
    } else if i32::try_from(v).is_ok() {
        2
    } else {
        3
    }
}

/// See [`Column::push_box`] (`lo <= hi`, `inner` and `outer` at least 1).
#[inline]
fn repeat_box<T: Copy>(
    v: &mut Vec<T>,
    lo: i64,
    hi: i64,
    inner: usize,
    outer: usize,
    of: impl Fn(i64) -> T,
) {
    let start = v.len();
    if inner == 1 {
        // `lo..hi` then `hi` (not `lo..=hi`): a half-open range extends in one tight loop.
        v.extend((lo..hi).map(&of));
        v.push(of(hi));
    } else {
        for x in lo..=hi {
            v.extend(std::iter::repeat_n(of(x), inner));
        }
    }
    let end = v.len();
    for _ in 1..outer {
        v.extend_from_within(start..end);
    }
}

/// See [`Column::untie`]; branch-free, so that it vectorizes.
fn untie_in<T: Ord>(v: &[T], from: usize, ties: &mut [bool]) -> bool {
    let before = &v[from - 1..from - 1 + ties.len()];
    let after = &v[from..from + ties.len()];
    let mut down = false;
    for ((tie, a), b) in ties.iter_mut().zip(before).zip(after) {
        down |= *tie & (a > b);
        *tie &= a == b;
    }
    !down
}

impl Default for Column {
    fn default() -> Column {
        Column::I8(Vec::new())
    }
}

impl Column {
    /// An empty column for values in `lo..=hi` (a wider value widens it later).
    pub(super) fn for_range(lo: i128, hi: i128) -> Column {
        let clamp = |v: i128| i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX });
        Column::of_width(width(clamp(lo)).max(width(clamp(hi))))
    }

    fn of_width(w: u8) -> Column {
        match w {
            0 => Column::I8(Vec::new()),
            1 => Column::I16(Vec::new()),
            2 => Column::I32(Vec::new()),
            _ => Column::I64(Vec::new()),
        }
    }

    fn width(&self) -> u8 {
        match self {
            Column::I8(_) => 0,
            Column::I16(_) => 1,
            Column::I32(_) => 2,
            Column::I64(_) => 3,
        }
    }

    /// Makes the column wide enough for `v`.
    fn fit(&mut self, v: i64) {
        let w = width(v);
        if w <= self.width() {
            return;
        }
        let mut wider = Column::of_width(w);
        wider.reserve(self.len());
        each!(&*self, old => for &x in old {
            wider.push(i64::from(x));
        });
        *self = wider;
    }

    pub(super) fn len(&self) -> usize {
        each!(self, v => v.len())
    }

    /// The value in world `w`.
    #[inline]
    pub(super) fn get(&self, w: usize) -> i64 {
        each!(self, v => i64::from(v[w]))
    }

    /// Sets the value in world `w`.
    pub(super) fn set(&mut self, w: usize, x: i64) {
        self.fit(x);
        // The column is wide enough: the conversions below are exact.
        match self {
            Column::I8(v) => v[w] = x as i8,
            Column::I16(v) => v[w] = x as i16,
            Column::I32(v) => v[w] = x as i32,
            Column::I64(v) => v[w] = x,
        }
    }

    pub(super) fn push(&mut self, x: i64) {
        self.push_n(x, 1);
    }

    /// Appends the column's own values in `worlds`, in order (no width check: they fit).
    pub(super) fn push_copies(&mut self, worlds: impl ExactSizeIterator<Item = usize>) {
        each!(self, v => {
            v.reserve(worlds.len());
            for w in worlds {
                let x = v[w];
                v.push(x);
            }
        })
    }

    /// Appends `values` in order, the column widened once for the widest of them.
    pub(super) fn push_values(&mut self, values: impl ExactSizeIterator<Item = i64> + Clone) {
        if let (Some(lo), Some(hi)) = (values.clone().min(), values.clone().max()) {
            self.fit(lo);
            self.fit(hi);
        }
        // The column is wide enough for the least and the greatest value, and so for
        // every value between: the conversions below are exact.
        match self {
            Column::I8(v) => v.extend(values.map(|x| x as i8)),
            Column::I16(v) => v.extend(values.map(|x| x as i16)),
            Column::I32(v) => v.extend(values.map(|x| x as i32)),
            Column::I64(v) => v.extend(values),
        }
    }

    /// Appends `n` copies of `x`.
    pub(super) fn push_n(&mut self, x: i64, n: usize) {
        self.fit(x);
        match self {
            Column::I8(v) => v.extend(std::iter::repeat_n(x as i8, n)),
            Column::I16(v) => v.extend(std::iter::repeat_n(x as i16, n)),
            Column::I32(v) => v.extend(std::iter::repeat_n(x as i32, n)),
            Column::I64(v) => v.extend(std::iter::repeat_n(x, n)),
        }
    }

    /// Appends, `outer` times over, every value of `lo..=hi` in order, each `inner`
    /// times over: one constant's values in a box of worlds (the last constant's are
    /// `lo..=hi` with `inner` 1). One width check for the whole run.
    pub(super) fn push_box(&mut self, lo: i64, hi: i64, inner: usize, outer: usize) {
        if lo > hi || inner == 0 || outer == 0 {
            return;
        }
        self.fit(lo);
        self.fit(hi);
        // The column is wide enough for lo and hi, and so for every value between: the
        // conversions below are exact.
        match self {
            Column::I8(v) => repeat_box(v, lo, hi, inner, outer, |x| x as i8),
            Column::I16(v) => repeat_box(v, lo, hi, inner, outer, |x| x as i16),
            Column::I32(v) => repeat_box(v, lo, hi, inner, outer, |x| x as i32),
            Column::I64(v) => repeat_box(v, lo, hi, inner, outer, |x| x),
        }
    }

    pub(super) fn reserve(&mut self, n: usize) {
        each!(self, v => v.reserve(n))
    }

    pub(super) fn truncate(&mut self, n: usize) {
        each!(self, v => v.truncate(n))
    }

    /// The column's values at `rows`, in that order.
    pub(super) fn permuted(&self, rows: &[u32]) -> Column {
        match self {
            Column::I8(v) => Column::I8(rows.iter().map(|&r| v[r as usize]).collect()),
            Column::I16(v) => Column::I16(rows.iter().map(|&r| v[r as usize]).collect()),
            Column::I32(v) => Column::I32(rows.iter().map(|&r| v[r as usize]).collect()),
            Column::I64(v) => Column::I64(rows.iter().map(|&r| v[r as usize]).collect()),
        }
    }

    /// The values at `rows`, in that order, as i128 (the width matched once, not per
    /// value).
    pub(super) fn values_at(&self, rows: &[u32]) -> Vec<i128> {
        each!(self, v => rows.iter().map(|&r| i128::from(v[r as usize])).collect())
    }

    /// For each world `w` in `from..from + ties.len()` (`from` at least 1) still tied
    /// with world `w - 1` (`ties[w - from]`, the columns before this one equal there):
    /// an increase from `w - 1` to `w` unties it. False when one of them decreases (the
    /// worlds are then out of lexicographic order).
    pub(super) fn untie(&self, from: usize, ties: &mut [bool]) -> bool {
        each!(self, v => untie_in(v, from, ties))
    }

    /// The values of worlds `start..end`, appended to `out` as i64.
    pub(super) fn values_in(&self, start: usize, end: usize, out: &mut Vec<i64>) {
        each!(self, v => out.extend(v[start..end].iter().map(|&x| i64::from(x))))
    }

    /// Calls `f(w, value)` for every world in order.
    #[cfg(test)]
    pub(super) fn for_each(&self, mut f: impl FnMut(usize, i64)) {
        each!(self, v => for (w, &x) in v.iter().enumerate() {
            f(w, i64::from(x));
        })
    }

    /// The smallest and the largest value (None: no world).
    pub(super) fn range(&self) -> Option<(i64, i64)> {
        each!(self, v => {
            let lo = v.iter().min()?;
            let hi = v.iter().max()?;
            Some((i64::from(*lo), i64::from(*hi)))
        })
    }

    /// The values, as i64 (for tests and small columns).
    #[cfg(test)]
    pub(super) fn to_vec(&self) -> Vec<i64> {
        let mut out = Vec::with_capacity(self.len());
        self.for_each(|_, x| out.push(x));
        out
    }

    /// Bytes a value takes.
    pub(super) fn bytes_per_value(&self) -> usize {
        1 << self.width()
    }

    /// Bytes the values take.
    pub(super) fn bytes(&self) -> usize {
        self.len() << self.width()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_takes_the_smallest_type_and_widens_when_it_must() {
        let mut c = Column::for_range(0, 1);
        assert!(matches!(c, Column::I8(_)));
        c.push_n(1, 3);
        c.push(-5);
        assert_eq!(c.to_vec(), [1, 1, 1, -5]);
        c.push(10_000);
        assert!(matches!(c, Column::I16(_)));
        c.set(0, i64::from(i32::MIN));
        assert!(matches!(c, Column::I32(_)));
        c.push(i64::MAX);
        assert!(matches!(c, Column::I64(_)));
        assert_eq!(
            c.to_vec(),
            [i64::from(i32::MIN), 1, 1, -5, 10_000, i64::MAX]
        );
        assert_eq!(c.permuted(&[4, 0]).to_vec(), [10_000, i64::from(i32::MIN)]);
        assert!(matches!(Column::for_range(-129, 3), Column::I16(_)));
        assert!(matches!(Column::for_range(i128::MIN, 0), Column::I64(_)));
        let mut c = Column::for_range(3, 70_000);
        c.push_n(3, 2);
        assert_eq!(c.bytes(), 8);
    }

    #[test]
    fn copies_and_values_are_appended_at_the_width_they_need() {
        let mut c = Column::for_range(0, 1);
        c.push_values([1, -5, 0].into_iter());
        assert!(matches!(c, Column::I8(_)));
        c.push_copies([1, 1, 2].into_iter());
        assert_eq!(c.to_vec(), [1, -5, 0, -5, -5, 0]);
        // The widest value is not the last, nor the first.
        c.push_values([3, -40_000, 7].into_iter());
        assert!(matches!(c, Column::I32(_)));
        c.push_copies([7].into_iter());
        assert_eq!(c.to_vec(), [1, -5, 0, -5, -5, 0, 3, -40_000, 7, -40_000]);
        c.push_values(std::iter::empty());
        assert_eq!(c.len(), 10);
    }

    #[test]
    fn a_box_appends_each_value_inner_times_outer_times_over() {
        let mut c = Column::for_range(0, 9);
        c.push_box(2, 4, 1, 1);
        c.push_box(7, 8, 2, 1);
        c.push_box(0, 1, 1, 3);
        c.push_box(5, 6, 2, 2);
        c.push_box(9, 3, 1, 1);
        c.push_box(1, 1, 0, 5);
        assert_eq!(
            c.to_vec(),
            [
                2, 3, 4, 7, 7, 8, 8, 0, 1, 0, 1, 0, 1, 5, 5, 6, 6, 5, 5, 6, 6
            ]
        );
        assert!(matches!(c, Column::I8(_)));
        c.push_box(-300, -299, 1, 1);
        assert!(matches!(c, Column::I16(_)));
        c.push_box(i64::MAX - 1, i64::MAX, 1, 1);
        assert!(matches!(c, Column::I64(_)));
        assert_eq!(c.len(), 25);
        assert_eq!(c.get(21), -300);
        assert_eq!(c.get(24), i64::MAX);
    }

    #[test]
    fn untie_finds_the_neighbours_out_of_order() {
        // Six worlds (x, y): (0, 5) (0, 7) (1, 2) (1, 2) (1, 1) (2, 0); world 4 comes
        // below world 3.
        let first = Column::I8(vec![0, 0, 1, 1, 1, 2]);
        let second = Column::I16(vec![5, 7, 2, 2, 1, 0]);
        let mut ties = [true; 5];
        assert!(first.untie(1, &mut ties));
        assert_eq!(ties, [true, false, true, true, false]);
        assert!(!second.untie(1, &mut ties));
        let mut ties = [true; 2];
        assert!(first.untie(2, &mut ties));
        assert!(second.untie(2, &mut ties));
        assert_eq!(ties, [false, true]);
    }
}
