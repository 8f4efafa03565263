//! Sums of bools and counts, and comparisons of such sums, without an adder.
//!
//! `count(i in 0..n: b[i]) == k` is lowered to `(if b[0] then 1 else 0) + … == k`.
//! Evaluated as value partitions (`value.rs`) term by term, the sum's partition holds
//! one cell per reachable partial sum and every addition combines all cells with both
//! sides of the next bool: O(n²) BDD operations on cells that grow with n, seconds at
//! n = 256. Two things avoid that:
//!
//! - **Comparisons** `a op b` of int expressions are read as one linear form
//!   `Σ terms + c op 0` (a term is a bool with a weight, from `if φ then p else q`, or
//!   any other int expression's partition, with a sign or a literal factor) and built
//!   directly by the standard threshold construction: the BDD of "the terms from i on,
//!   plus s, satisfy op 0" is `⋁_v cell_i(v) ∧ f(i + 1, s + v)`, memoised on (i, s),
//!   and cut short as soon as the least and greatest values the remaining terms can
//!   add decide the comparison. Terms are taken in the order of their first variable,
//!   so that each step puts a node above BDDs of later variables: `count(…) <= k` over
//!   n bools takes O(n·k) nodes and steps.
//!   An int or enum constant is read as its bits, each a term of weight 2^place (the
//!   bits hold the value minus the least value; the comparison is then conjoined with
//!   "the bits hold one of its values"): with the bits of ints interleaved by place
//!   (`space.rs`), What Sum's `x == y + z` at B = 200 builds a few nodes per place,
//!   where a term per value took 200 × 400 steps and a κ of 39,000 nodes.
//! - **A product equal to a literal** k ≠ 0 keeps each factor's cells to the divisors
//!   of k before combining them (Cheryl's age: `cheryl * b1 * b2 == 144`).
//! - **Sums** whose value is needed (learned, compared through `%`, …) add their terms'
//!   partitions from the last variable up, so that each addition puts the next
//!   variable above the cells built so far (an O(1) step per pair of cells); an int
//!   constant is added as its bits, each a term of weight 2^place (Sum and Product's
//!   `S learns x + y`: 6.6 ms → 0.7 ms, where a cell per value made 97 × 97
//!   conjunctions).
//!
//! Both give exactly the function the partitions give (tests in `tests.rs` compare them
//! on random sums).

use std::collections::HashMap;
use std::rc::Rc;

use super::BddBackend;
use super::diagram::Bdd;
use super::knowledge::State;
use super::space::Kind;
use super::value::Partition;
use crate::Failure;
use crate::ir::arith::Integer;
use crate::ir::{ArithOp, CmpOp, Expr, ExprKind};

/// One term of a linear form: its values, each with where it takes it (pairwise
/// disjoint conditions).
struct Term {
    cells: Vec<(i128, Bdd)>,
    /// The first variable any of its conditions tests (usize::MAX: none).
    top: usize,
}

impl Term {
    fn new(cells: Vec<(i128, Bdd)>) -> Term {
        let top = cells
            .iter()
            .filter_map(|(_, b)| b.top_var())
            .min()
            .unwrap_or(usize::MAX);
        Term { cells, top }
    }

    fn min(&self) -> i128 {
        self.cells.iter().map(|(v, _)| *v).min().unwrap_or(0)
    }

    fn max(&self) -> i128 {
        self.cells.iter().map(|(v, _)| *v).max().unwrap_or(0)
    }
}

/// `Σ terms + constant`, read where every pattern in `valid` holds (an enum's or int's
/// bits taken as a number hold one of its values: elsewhere the comparison is false, as
/// its partition takes no value there).
#[derive(Default)]
struct Linear {
    terms: Vec<Term>,
    constant: i128,
    valid: Vec<Bdd>,
}

impl Linear {
    /// Whether every partial sum stays far inside i128 (the construction then computes
    /// them with plain arithmetic).
    fn bounded(&self) -> bool {
        let mut total = self.constant.unsigned_abs();
        for t in &self.terms {
            let m = t.min().unsigned_abs().max(t.max().unsigned_abs());
            match total.checked_add(m) {
                Some(sum) => total = sum,
                None => return false,
            }
        }
        total < 1 << 120
    }
}

/// Why a form cannot be built: a value or weight beyond i128 (the partitions then
/// compute it exactly), or an error to report.
enum NotLinear {
    TooLarge,
    Error(Failure),
}

impl From<Failure> for NotLinear {
    fn from(e: Failure) -> NotLinear {
        NotLinear::Error(e)
    }
}

/// How many states of the construction between two looks at the clock.
const CLOCK_EVERY: usize = 1024;

impl BddBackend {
    /// Where the int comparison `a op b` holds, built as a linear form when it has at
    /// least two terms; None when the partitions should compute it (one term, or values
    /// beyond i128).
    pub(super) fn compare_linear(
        &self,
        op: CmpOp,
        a: &Expr,
        b: &Expr,
        state: &Rc<State>,
    ) -> Result<Option<Bdd>, Failure> {
        if op == CmpOp::Eq
            && let Some(holds) = self.product_is(a, b, state)?
        {
            return Ok(Some(holds));
        }
        let mut form = Linear::default();
        let built = self
            .flatten(a, 1, &mut form, state)
            .and_then(|()| self.flatten(b, -1, &mut form, state));
        match built {
            Ok(()) if form.terms.len() >= 2 && form.bounded() => {
                let valid = std::mem::take(&mut form.valid);
                let holds = self.threshold(op, form)?;
                Ok(Some(valid.iter().fold(holds, |acc, v| acc.and(v))))
            }
            Ok(()) | Err(NotLinear::TooLarge) => Ok(None),
            Err(NotLinear::Error(e)) => Err(e),
        }
    }

    /// Adds `sign · e` to `form`.
    fn flatten(
        &self,
        e: &Expr,
        sign: i128,
        form: &mut Linear,
        state: &Rc<State>,
    ) -> Result<(), NotLinear> {
        let scaled = |v: i128| v.checked_mul(sign).ok_or(NotLinear::TooLarge);
        match &e.kind {
            ExprKind::Int(n) => {
                form.constant = (form.constant)
                    .checked_add(scaled(i128::from(*n))?)
                    .ok_or(NotLinear::TooLarge)?;
            }
            // An enum or int constant: its bits, each a term of weight 2^place (the bits
            // hold the value minus the least value), instead of a cell per value.
            ExprKind::Const(c) if self.space.number(c.0).is_some() => {
                let (lo, bits, valid) = self.space.number(c.0).expect("a number");
                form.constant = (form.constant)
                    .checked_add(scaled(lo)?)
                    .ok_or(NotLinear::TooLarge)?;
                for (i, bit) in bits.iter().enumerate() {
                    let place = bits.len() - 1 - i;
                    let w = scaled(1i128 << place)?;
                    let b = self.space.literal(*bit, true);
                    form.terms.push(Term::new(vec![(0, b.not()), (w, b)]));
                }
                if !valid.is_true() {
                    form.valid.push(valid);
                }
            }
            ExprKind::Neg(a) => self.flatten(a, -sign, form, state)?,
            ExprKind::Arith(ArithOp::Add, a, b) => {
                self.flatten(a, sign, form, state)?;
                self.flatten(b, sign, form, state)?;
            }
            ExprKind::Arith(ArithOp::Sub, a, b) => {
                self.flatten(a, sign, form, state)?;
                self.flatten(b, -sign, form, state)?;
            }
            ExprKind::Arith(ArithOp::Mul, a, b) if literal(a).or(literal(b)).is_some() => {
                let (k, x) = match literal(a) {
                    Some(k) => (k, b),
                    None => (literal(b).expect("one side is a literal"), a),
                };
                self.flatten(x, scaled(k)?, form, state)?;
            }
            ExprKind::Ite(c, a, b) if literal(a).is_some() && literal(b).is_some() => {
                // if φ then p else q  =  q + (p - q)·[φ]
                let (p, q) = (
                    scaled(literal(a).expect("a literal"))?,
                    scaled(literal(b).expect("a literal"))?,
                );
                form.constant = form.constant.checked_add(q).ok_or(NotLinear::TooLarge)?;
                let w = p.checked_sub(q).ok_or(NotLinear::TooLarge)?;
                if w != 0 {
                    let phi = self.bool(c, state)?;
                    form.terms.push(Term::new(vec![(0, phi.not()), (w, phi)]));
                }
            }
            _ => {
                let partition = self.int_value(e, state)?;
                let mut cells = Vec::new();
                for (v, b) in partition.cells() {
                    let Integer::Small(v) = v else {
                        return Err(NotLinear::TooLarge);
                    };
                    cells.push((scaled(*v)?, b.clone()));
                }
                match cells.as_slice() {
                    // A constant everywhere: part of the constant.
                    [(v, b)] if b.is_true() => {
                        form.constant = form.constant.checked_add(*v).ok_or(NotLinear::TooLarge)?;
                    }
                    _ => form.terms.push(Term::new(cells)),
                }
            }
        }
        Ok(())
    }

    /// The threshold construction of `form op 0` (see the module's comment).
    fn threshold(&self, op: CmpOp, mut form: Linear) -> Result<Bdd, Failure> {
        form.terms.sort_by_key(|t| t.top);
        let terms = &form.terms;
        let m = terms.len();
        // The least and greatest values the terms from i on can add (no overflow: the
        // form is bounded).
        let mut rest = vec![(0i128, 0i128); m + 1];
        for i in (0..m).rev() {
            let (lo, hi) = rest[i + 1];
            rest[i] = (lo + terms[i].min(), hi + terms[i].max());
        }
        // Where the terms from i on all take a value (true unless a term is an enum's
        // partition, which takes none on bit patterns beyond its variants).
        let nowhere = self.space.mk_false();
        let mut cover = vec![self.space.mk_true(); m + 1];
        for i in (0..m).rev() {
            let here = terms[i]
                .cells
                .iter()
                .fold(nowhere.clone(), |acc, (_, b)| acc.or(b));
            cover[i] = if here.is_true() {
                cover[i + 1].clone()
            } else {
                cover[i + 1].and(&here)
            };
        }
        // Decided before term i with partial sum s: true or false whatever comes next.
        let decide =
            |i: usize, s: i128| -> Option<bool> { decided(op, s + rest[i].0, s + rest[i].1) };
        // The partial sums still open before each term.
        let mut open: Vec<Vec<i128>> = vec![Vec::new(); m + 1];
        if decide(0, form.constant).is_none() {
            open[0].push(form.constant);
        }
        let mut steps = 0usize;
        for i in 0..m {
            let mut next: Vec<i128> = Vec::new();
            for &s in &open[i] {
                for (v, _) in &terms[i].cells {
                    let t = s + v;
                    if decide(i + 1, t).is_none() {
                        next.push(t);
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            open[i + 1] = next;
        }
        // From the last term back: f(i, s) for every open s.
        let mut below: HashMap<i128, Bdd> = HashMap::new();
        for i in (0..m).rev() {
            let mut here: HashMap<i128, Bdd> = HashMap::with_capacity(open[i].len());
            for &s in &open[i] {
                steps += 1;
                if steps.is_multiple_of(CLOCK_EVERY) {
                    self.check_deadline()?;
                }
                let mut f = nowhere.clone();
                for (v, cond) in &terms[i].cells {
                    let t = s + v;
                    let after = match decide(i + 1, t) {
                        Some(true) => cover[i + 1].clone(),
                        Some(false) => continue,
                        None => below.get(&t).cloned().ok_or_else(|| {
                            Failure::Unsupported("internal error: a sum's state is missing".into())
                        })?,
                    };
                    f = f.or(&cond.and(&after));
                }
                here.insert(s, f);
            }
            below = here;
        }
        Ok(match decide(0, form.constant) {
            Some(true) => cover[0].clone(),
            Some(false) => nowhere,
            None => below.remove(&form.constant).unwrap_or(nowhere),
        })
    }

    /// Where `a == b` holds when one side is a product and the other a literal k ≠ 0
    /// (Cheryl's age: `cheryl * b1 * b2 == 144`): only the values dividing k matter, so
    /// each factor's partition is kept to the divisors of k before the factors are
    /// combined (15 values of 144 each, where the whole partitions combine 144 × 144 and
    /// then thousands × 144 cells). None for any other comparison.
    fn product_is(&self, a: &Expr, b: &Expr, state: &Rc<State>) -> Result<Option<Bdd>, Failure> {
        let (product, k) = match (literal(a), literal(b)) {
            (None, Some(k)) => (a, k),
            (Some(k), None) => (b, k),
            _ => return Ok(None),
        };
        if k == 0 || !matches!(product.kind, ExprKind::Arith(ArithOp::Mul, _, _)) {
            return Ok(None);
        }
        let Some(p) = self.among(product, k, state)? else {
            return Ok(None);
        };
        Ok(Some(
            p.cells()
                .filter(|(v, _)| *v == Integer::Small(k))
                .fold(self.space.mk_false(), |acc, (_, cell)| acc.or(cell)),
        ))
    }

    /// The cells of `e`'s partition whose values divide `k` (not 0), a product's factors
    /// kept to the divisors of `k` first (every factor of a product that divides `k`
    /// divides `k`); None when a value is beyond i128. Each value is tested, never `k`
    /// factored: `k` may be near 2^63.
    fn among(&self, e: &Expr, k: i128, state: &Rc<State>) -> Result<Option<Partition>, Failure> {
        let keep = |p: &Partition| -> Option<Partition> {
            let mut cells = Vec::new();
            for (v, cell) in p.cells() {
                let Integer::Small(v) = v else { return None };
                if *v != 0 && k % *v == 0 {
                    cells.push((Integer::Small(*v), cell.clone()));
                }
            }
            Some(Partition::from_disjoint(cells))
        };
        let ExprKind::Arith(ArithOp::Mul, x, y) = &e.kind else {
            return Ok(keep(&self.int_value(e, state)?));
        };
        let (Some(px), Some(py)) = (self.among(x, k, state)?, self.among(y, k, state)?) else {
            return Ok(None);
        };
        Ok(keep(&px.arith(ArithOp::Mul, &py)?))
    }

    /// An int expression's partition. A sum adds its terms from the last variable up
    /// (see the module's comment); everything else is `value.rs`'s arithmetic.
    pub(super) fn int_value(&self, e: &Expr, state: &Rc<State>) -> Result<Partition, Failure> {
        if !matches!(e.kind, ExprKind::Arith(ArithOp::Add | ArithOp::Sub, _, _)) {
            return self.int(e, state);
        }
        let mut parts: Vec<(bool, &Expr)> = Vec::new();
        crate::summands(e, true, &mut parts);
        let mut terms: Vec<(usize, Partition)> = Vec::with_capacity(parts.len());
        // Where the int constants' bits hold one of their values.
        let mut valid: Vec<Bdd> = Vec::new();
        for (positive, x) in parts {
            // An int constant: its least value and its bits, each a term of weight
            // 2^place (a cell per value would combine every value with every cell of
            // the sum so far: 97 × 97 conjunctions for Sum and Product's `x + y`).
            if let ExprKind::Const(c) = &x.kind
                && matches!(self.space.kind(c.0), Some(Kind::Int { .. }))
                && let Some((lo, bits, holds)) = self.space.number(c.0)
            {
                let sign: i128 = if positive { 1 } else { -1 };
                let everywhere = self.space.mk_true();
                terms.push((usize::MAX, Partition::constant(sign * lo, everywhere)));
                for (i, bit) in bits.iter().enumerate() {
                    let weight = sign * (1i128 << (bits.len() - 1 - i));
                    let b = self.space.literal(*bit, true);
                    let top = b.top_var().unwrap_or(usize::MAX);
                    let cells = vec![(Integer::Small(0), b.not()), (Integer::Small(weight), b)];
                    terms.push((top, Partition::from_disjoint(cells)));
                }
                if !holds.is_true() {
                    valid.push(holds);
                }
                continue;
            }
            let p = self.int_value(x, state)?;
            let p = if positive { p } else { p.neg()? };
            let top = p
                .cells()
                .filter_map(|(_, b)| b.top_var())
                .min()
                .unwrap_or(usize::MAX);
            terms.push((top, p));
        }
        // The last variable first: constants (no variable) lead.
        terms.sort_by_key(|(top, _)| std::cmp::Reverse(*top));
        let mut terms = terms.into_iter().map(|(_, p)| p);
        let first = terms.next().expect("a sum has two sides");
        let sum = terms.try_fold(first, |acc, p| acc.arith(ArithOp::Add, &p))?;
        if valid.is_empty() {
            return Ok(sum);
        }
        let cells = (sum.cells())
            .map(|(v, b)| (v.clone(), valid.iter().fold(b.clone(), |acc, h| acc.and(h))))
            .collect();
        Ok(Partition::from_disjoint(cells))
    }
}

fn literal(e: &Expr) -> Option<i128> {
    match e.kind {
        ExprKind::Int(n) => Some(i128::from(n)),
        _ => None,
    }
}

/// Whether every value in `lo..=hi` satisfies `v op 0` (Some(true)), none does
/// (Some(false)), or it depends (None).
fn decided(op: CmpOp, lo: i128, hi: i128) -> Option<bool> {
    let (all, none) = match op {
        CmpOp::Eq => (lo == 0 && hi == 0, lo > 0 || hi < 0),
        CmpOp::Ne => (lo > 0 || hi < 0, lo == 0 && hi == 0),
        CmpOp::Lt => (hi < 0, lo >= 0),
        CmpOp::Le => (hi <= 0, lo > 0),
        CmpOp::Gt => (lo > 0, hi <= 0),
        CmpOp::Ge => (lo >= 0, hi < 0),
    };
    if all {
        Some(true)
    } else if none {
        Some(false)
    } else {
        None
    }
}
