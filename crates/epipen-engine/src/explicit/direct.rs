//! An integer expression read straight from the columns, a block of worlds at a time
//! (each node over the whole block, a column as a slice of it): constants,
//! literals, negation, `+`, `-` and `*`, when every part's values on the universe fit in
//! an i64 (interval propagation says so, so no step can overflow). What a character
//! learns (Sum and Product's `x + y` and `x * y`) is read this way when the views are
//! made, without the chunked evaluator's vectors of i128.

use super::bound::{self, Interval};
use super::column::Column;
use crate::ir::{ArithOp, Expr, ExprKind};

/// An expression compiled for `Direct::value`.
pub(super) enum Direct<'a> {
    Const(&'a Column),
    Int(i64),
    Neg(Box<Direct<'a>>),
    Add(Box<Direct<'a>>, Box<Direct<'a>>),
    Sub(Box<Direct<'a>>, Box<Direct<'a>>),
    Mul(Box<Direct<'a>>, Box<Direct<'a>>),
}

impl<'a> Direct<'a> {
    /// `e` over `columns` (whose values lie in `ranges`), or None when it has another
    /// operator or a part may leave the i64 range.
    pub(super) fn of(e: &Expr, columns: &'a [Column], ranges: &[Interval]) -> Option<Direct<'a>> {
        let d = bound::interval(e, ranges);
        if d.lo < i128::from(i64::MIN) || d.hi > i128::from(i64::MAX) {
            return None;
        }
        let compile = |x: &Expr| Direct::of(x, columns, ranges).map(Box::new);
        Some(match &e.kind {
            ExprKind::Const(c) => Direct::Const(&columns[c.0]),
            ExprKind::Int(v) => Direct::Int(*v),
            ExprKind::Neg(a) => Direct::Neg(compile(a)?),
            ExprKind::Arith(ArithOp::Add, a, b) => Direct::Add(compile(a)?, compile(b)?),
            ExprKind::Arith(ArithOp::Sub, a, b) => Direct::Sub(compile(a)?, compile(b)?),
            ExprKind::Arith(ArithOp::Mul, a, b) => Direct::Mul(compile(a)?, compile(b)?),
            _ => return None,
        })
    }

    /// The values in worlds `start..end`, into `out` (cleared first), a node at a time.
    pub(super) fn values(&self, start: usize, end: usize, out: &mut Vec<i64>) {
        out.clear();
        let both = |a: &Direct, b: &Direct, out: &mut Vec<i64>, f: fn(i64, i64) -> i64| {
            a.values(start, end, out);
            let mut other = Vec::with_capacity(end - start);
            b.values(start, end, &mut other);
            for (x, y) in out.iter_mut().zip(other) {
                *x = f(*x, y);
            }
        };
        match self {
            Direct::Const(col) => col.values_in(start, end, out),
            Direct::Int(v) => out.resize(end - start, *v),
            Direct::Neg(a) => {
                a.values(start, end, out);
                out.iter_mut().for_each(|x| *x = -*x);
            }
            Direct::Add(a, b) => both(a, b, out, |x, y| x + y),
            Direct::Sub(a, b) => both(a, b, out, |x, y| x - y),
            Direct::Mul(a, b) => both(a, b, out, |x, y| x * y),
        }
    }

    /// The value in world `w`.
    #[cfg(test)]
    fn value(&self, w: usize) -> i64 {
        match self {
            Direct::Const(col) => col.get(w),
            Direct::Int(v) => *v,
            Direct::Neg(a) => -a.value(w),
            Direct::Add(a, b) => a.value(w) + b.value(w),
            Direct::Sub(a, b) => a.value(w) - b.value(w),
            Direct::Mul(a, b) => a.value(w) * b.value(w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::StmtKind;

    /// Read straight from the columns, a learned expression gives what the language's
    /// arithmetic gives; one that may leave the i64 range, or divides, is not compiled.
    #[test]
    fn direct_values_are_the_languages() {
        let story = "characters A\nint x, y\nannounce -3 <= x and x <= 3 and -4 <= y and y <= 2\n\
                     A learns -(x * y) - 2 * x + y * y * 3\nA learns x * 4611686018427387904\n\
                     A learns x / 2 + y\n";
        let program = epipen_lower::compile(story, &[]).expect("the story compiles");
        let learned: Vec<&Expr> = (program.statements.iter())
            .filter_map(|s| match &s.kind {
                StmtKind::Learn { what, .. } => Some(what),
                _ => None,
            })
            .collect();
        let (xs, ys): (Vec<i64>, Vec<i64>) =
            (-3..=3).flat_map(|x| (-4..=2).map(move |y| (x, y))).unzip();
        let mut columns = [Column::for_range(-3, 3), Column::for_range(-4, 2)];
        for (x, y) in xs.iter().zip(&ys) {
            columns[0].push(*x);
            columns[1].push(*y);
        }
        let ranges = [Interval::new(-3, 3), Interval::new(-4, 2)];
        let direct = Direct::of(learned[0], &columns, &ranges).expect("compiled");
        let want: Vec<i64> = (xs.iter().zip(&ys))
            .map(|(x, y)| -(x * y) - 2 * x + y * y * 3)
            .collect();
        for (w, v) in want.iter().enumerate() {
            assert_eq!(direct.value(w), *v);
        }
        let mut out = vec![7; 3];
        for (start, end) in [(0, want.len()), (5, 17), (9, 9), (48, 49)] {
            direct.values(start, end, &mut out);
            assert_eq!(out, want[start..end]);
        }
        assert!(Direct::of(learned[1], &columns, &ranges).is_none());
        assert!(Direct::of(learned[2], &columns, &ranges).is_none());
    }
}
