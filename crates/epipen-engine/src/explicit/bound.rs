//! Bounds without a solver: interval reasoning over knowledge-free formulas.
//!
//! Every constant gets an interval (bools are 0..=1, enums their variants' indices,
//! ints one beyond i64 at each end at first, so that an int the constraints leave there
//! is unbounded). Constraints narrow the intervals (bounds propagation, as a
//! constraint solver does: `x + y <= 100` with `x >= 2` gives `y <= 98`; a product
//! `c * b1 * b2 == 144` with positive factors bounds each of them; a disjunction, or an
//! `if` whose condition is open, narrows to the hull of what each side allows; a sum of
//! `if φ then 1 else 0` that must reach its greatest value forces every φ). The search
//! that lists the solutions is `search.rs`.

use std::collections::HashMap;

use crate::ir::{ArithOp, CmpOp, Expr, ExprKind, LogicOp, Ty};

/// Beyond ±2^100 an interval's bound counts as infinite: every bound the analysis
/// computes stays far inside i128, so the arithmetic on bounds cannot overflow.
pub(super) const HUGE: i128 = 1 << 100;
const NEG_INF: i128 = i128::MIN;
const POS_INF: i128 = i128::MAX;

/// Integers `lo..=hi`; `lo == i128::MIN` is −∞ and `hi == i128::MAX` is +∞. Empty when
/// `lo > hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Interval {
    pub lo: i128,
    pub hi: i128,
}

impl Interval {
    pub(super) fn new(lo: i128, hi: i128) -> Interval {
        Interval {
            lo: if lo <= -HUGE { NEG_INF } else { lo.min(HUGE) },
            hi: if hi >= HUGE { POS_INF } else { hi.max(-HUGE) },
        }
    }

    pub(super) fn point(v: i128) -> Interval {
        Interval::new(v, v)
    }

    pub(super) fn is_empty(self) -> bool {
        self.lo > self.hi
    }

    /// Both bounds finite.
    pub(super) fn is_bounded(self) -> bool {
        self.lo != NEG_INF && self.hi != POS_INF
    }

    pub(super) fn singleton(self) -> Option<i128> {
        (self.lo == self.hi && self.is_bounded()).then_some(self.lo)
    }

    /// How many values it holds (saturating), 0 when empty or unbounded... unbounded
    /// intervals report `u128::MAX`.
    pub(super) fn width(self) -> u128 {
        if self.is_empty() {
            0
        } else if !self.is_bounded() {
            u128::MAX
        } else {
            (self.hi - self.lo) as u128 + 1
        }
    }

    pub(super) fn meet(self, o: Interval) -> Interval {
        Interval {
            lo: self.lo.max(o.lo),
            hi: self.hi.min(o.hi),
        }
    }

    fn hull(self, o: Interval) -> Interval {
        if self.is_empty() {
            return o;
        }
        if o.is_empty() {
            return self;
        }
        Interval {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }

    pub(super) fn contains(self, v: i128) -> bool {
        self.lo <= v && v <= self.hi
    }

    fn neg(self) -> Interval {
        Interval::new(neg_bound(self.hi), neg_bound(self.lo))
    }

    fn add(self, o: Interval) -> Interval {
        let lo = if self.lo == NEG_INF || o.lo == NEG_INF {
            NEG_INF
        } else {
            self.lo.saturating_add(o.lo)
        };
        let hi = if self.hi == POS_INF || o.hi == POS_INF {
            POS_INF
        } else {
            self.hi.saturating_add(o.hi)
        };
        Interval::new(lo, hi)
    }

    fn sub(self, o: Interval) -> Interval {
        self.add(o.neg())
    }

    fn mul(self, o: Interval) -> Interval {
        let corners = [
            mul_bound(self.lo, o.lo),
            mul_bound(self.lo, o.hi),
            mul_bound(self.hi, o.lo),
            mul_bound(self.hi, o.hi),
        ];
        Interval::new(
            *corners.iter().min().expect("four corners"),
            *corners.iter().max().expect("four corners"),
        )
    }

    /// Euclidean division as the language defines it (`x / 0 = 0`), over-approximated.
    fn div(self, o: Interval) -> Interval {
        if o.contains(0) {
            // Some divisor may be 0 (giving 0), others ±1 (giving ±x).
            let m = self.lo.unsigned_abs().max(self.hi.unsigned_abs());
            let m = i128::try_from(m).unwrap_or(POS_INF);
            return Interval::new(neg_bound(m), m);
        }
        let q = [
            div_bound(self.lo, o.lo),
            div_bound(self.lo, o.hi),
            div_bound(self.hi, o.lo),
            div_bound(self.hi, o.hi),
        ];
        let lo = *q.iter().min().expect("four corners");
        let hi = *q.iter().max().expect("four corners");
        // Euclidean rounding moves a quotient by at most one from the real one.
        Interval::new(lo.saturating_sub(1), hi.saturating_add(1))
    }

    /// Modulo as the language defines it (`0 <= x % y < |y|`, `x % 0 = x`).
    fn modulo(self, o: Interval) -> Interval {
        let m = o.lo.unsigned_abs().max(o.hi.unsigned_abs());
        let top = i128::try_from(m).map_or(POS_INF, |m| m - 1);
        let r = Interval::new(0, top.max(0));
        if o.contains(0) { r.hull(self) } else { r }
    }

    /// The integers y with y · d in `self` for some d in `d` (which excludes 0).
    fn quotient(self, d: Interval) -> Interval {
        let corners = [
            real_div(self.lo, d.lo),
            real_div(self.lo, d.hi),
            real_div(self.hi, d.lo),
            real_div(self.hi, d.hi),
        ];
        let lo = corners.iter().map(|c| c.0).min().expect("four corners");
        let hi = corners.iter().map(|c| c.1).max().expect("four corners");
        Interval::new(lo, hi)
    }
}

fn neg_bound(b: i128) -> i128 {
    match b {
        NEG_INF => POS_INF,
        POS_INF => NEG_INF,
        b => -b,
    }
}

fn is_inf(b: i128) -> bool {
    b == NEG_INF || b == POS_INF
}

fn mul_bound(a: i128, b: i128) -> i128 {
    if a == 0 || b == 0 {
        return 0;
    }
    if is_inf(a) || is_inf(b) {
        return if (a < 0) == (b < 0) { POS_INF } else { NEG_INF };
    }
    a.saturating_mul(b)
}

fn div_bound(a: i128, b: i128) -> i128 {
    match (is_inf(a), is_inf(b)) {
        (true, true) => {
            if (a < 0) == (b < 0) {
                POS_INF
            } else {
                NEG_INF
            }
        }
        (true, false) => {
            if (a < 0) == (b < 0) {
                POS_INF
            } else {
                NEG_INF
            }
        }
        (false, true) => 0,
        (false, false) => a / b,
    }
}

/// `a / b` in the reals, rounded out: (ceiling as a lower bound, floor as an upper
/// bound) of the quotient; infinite bounds stay infinite.
fn real_div(a: i128, b: i128) -> (i128, i128) {
    let q = div_bound(a, b);
    if is_inf(a) || is_inf(b) {
        return (q, q);
    }
    let r = a % b;
    if r == 0 {
        (q, q)
    } else if (a < 0) == (b < 0) {
        // Positive quotient, truncated toward zero: the real one is a bit more.
        (q + 1, q)
    } else {
        (q, q - 1)
    }
}

/// A truth value that intervals may leave open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tri {
    True,
    False,
    Unknown,
}

impl Tri {
    fn of(b: bool) -> Tri {
        if b { Tri::True } else { Tri::False }
    }

    fn not(self) -> Tri {
        match self {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Unknown => Tri::Unknown,
        }
    }
}

/// The intervals of every constant (indexed by `ConstId`).
pub(super) type Box = Vec<Interval>;

/// The interval of an int expression (enums are ints) under `dom`.
pub(super) fn interval(e: &Expr, dom: &[Interval]) -> Interval {
    interval_in(e, dom, &mut Met::default())
}

/// The intervals and truth values of the shared subexpressions met in one question (a
/// changed constant's term, read by several later terms, is looked at once).
#[derive(Default)]
struct Met {
    intervals: HashMap<*const Expr, Interval>,
    truths: HashMap<*const Expr, Tri>,
}

fn interval_in(e: &Expr, dom: &[Interval], met: &mut Met) -> Interval {
    match &e.kind {
        ExprKind::Int(n) => Interval::point(i128::from(*n)),
        ExprKind::Bool(b) => Interval::point(i128::from(*b)),
        ExprKind::Const(c) => dom[c.0],
        ExprKind::Shared(a) => {
            let key = std::sync::Arc::as_ptr(a);
            if let Some(d) = met.intervals.get(&key) {
                return *d;
            }
            let d = interval_in(a, dom, met);
            met.intervals.insert(key, d);
            d
        }
        ExprKind::Neg(a) => interval_in(a, dom, met).neg(),
        ExprKind::Arith(op, a, b) => {
            let (a, b) = (interval_in(a, dom, met), interval_in(b, dom, met));
            match op {
                ArithOp::Add => a.add(b),
                ArithOp::Sub => a.sub(b),
                ArithOp::Mul => a.mul(b),
                ArithOp::Div => a.div(b),
                ArithOp::Mod => a.modulo(b),
            }
        }
        ExprKind::Ite(c, a, b) => match truth_in(c, dom, met) {
            Tri::True => interval_in(a, dom, met),
            Tri::False => interval_in(b, dom, met),
            Tri::Unknown => interval_in(a, dom, met).hull(interval_in(b, dom, met)),
        },
        // Booleans as 0 and 1.
        _ => match truth_in(e, dom, met) {
            Tri::True => Interval::point(1),
            Tri::False => Interval::point(0),
            Tri::Unknown => Interval::new(0, 1),
        },
    }
}

/// Whether a boolean expression certainly holds, certainly fails, or may go either way
/// on the box `dom`. Knowledge operators are left open.
pub(super) fn truth(e: &Expr, dom: &[Interval]) -> Tri {
    truth_in(e, dom, &mut Met::default())
}

fn truth_in(e: &Expr, dom: &[Interval], met: &mut Met) -> Tri {
    match &e.kind {
        ExprKind::Bool(b) => Tri::of(*b),
        ExprKind::Const(c) => {
            let d = dom[c.0];
            if d.lo >= 1 {
                Tri::True
            } else if d.hi <= 0 {
                Tri::False
            } else {
                Tri::Unknown
            }
        }
        ExprKind::Not(a) => truth_in(a, dom, met).not(),
        ExprKind::Shared(a) => {
            let key = std::sync::Arc::as_ptr(a);
            if let Some(t) = met.truths.get(&key) {
                return *t;
            }
            let t = truth_in(a, dom, met);
            met.truths.insert(key, t);
            t
        }
        ExprKind::Logic(op, a, b) => {
            let (a, b) = (truth_in(a, dom, met), truth_in(b, dom, met));
            match op {
                LogicOp::And => match (a, b) {
                    (Tri::False, _) | (_, Tri::False) => Tri::False,
                    (Tri::True, Tri::True) => Tri::True,
                    _ => Tri::Unknown,
                },
                LogicOp::Or => match (a, b) {
                    (Tri::True, _) | (_, Tri::True) => Tri::True,
                    (Tri::False, Tri::False) => Tri::False,
                    _ => Tri::Unknown,
                },
                LogicOp::Implies => match (a, b) {
                    (Tri::False, _) | (_, Tri::True) => Tri::True,
                    (Tri::True, Tri::False) => Tri::False,
                    _ => Tri::Unknown,
                },
                LogicOp::Iff => match (a, b) {
                    (Tri::Unknown, _) | (_, Tri::Unknown) => Tri::Unknown,
                    (x, y) => Tri::of(x == y),
                },
            }
        }
        ExprKind::Cmp(op, a, b) => {
            let (a, b) = (interval_in(a, dom, met), interval_in(b, dom, met));
            compare(*op, a, b)
        }
        ExprKind::Ite(c, a, b) => match truth_in(c, dom, met) {
            Tri::True => truth_in(a, dom, met),
            Tri::False => truth_in(b, dom, met),
            Tri::Unknown => match (truth_in(a, dom, met), truth_in(b, dom, met)) {
                (x, y) if x == y => x,
                _ => Tri::Unknown,
            },
        },
        ExprKind::In { tuple, set } => {
            let tuple: Vec<Interval> = tuple.iter().map(|t| interval_in(t, dom, met)).collect();
            let mut open = false;
            for item in set {
                match item_match(&tuple, item, dom) {
                    Tri::True => return Tri::True,
                    Tri::Unknown => open = true,
                    Tri::False => {}
                }
            }
            if open { Tri::Unknown } else { Tri::False }
        }
        _ => Tri::Unknown,
    }
}

/// Whether the tuple equals one item of an `in` set.
fn item_match(tuple: &[Interval], item: &[Expr], dom: &[Interval]) -> Tri {
    let mut all = Tri::True;
    for (t, x) in tuple.iter().zip(item) {
        match compare(CmpOp::Eq, *t, interval(x, dom)) {
            Tri::False => return Tri::False,
            Tri::Unknown => all = Tri::Unknown,
            Tri::True => {}
        }
    }
    all
}

fn compare(op: CmpOp, a: Interval, b: Interval) -> Tri {
    if a.is_empty() || b.is_empty() {
        return Tri::Unknown;
    }
    let lt = if a.hi < b.lo {
        Tri::True
    } else if a.lo >= b.hi {
        Tri::False
    } else {
        Tri::Unknown
    };
    let gt = if a.lo > b.hi {
        Tri::True
    } else if a.hi <= b.lo {
        Tri::False
    } else {
        Tri::Unknown
    };
    let eq = match (a.singleton(), b.singleton()) {
        (Some(x), Some(y)) => Tri::of(x == y),
        _ if a.hi < b.lo || b.hi < a.lo => Tri::False,
        _ => Tri::Unknown,
    };
    match op {
        CmpOp::Eq => eq,
        CmpOp::Ne => eq.not(),
        CmpOp::Lt => lt,
        CmpOp::Ge => lt.not(),
        CmpOp::Gt => gt,
        CmpOp::Le => gt.not(),
    }
}

/// A domain became empty: no world satisfies the constraints here.
pub(super) struct Empty;

/// Narrows the box so that the int expression `e` can take a value in `target`.
fn narrow(e: &Expr, target: Interval, dom: &mut [Interval]) -> Result<(), Empty> {
    if target.is_empty() {
        return Err(Empty);
    }
    match &e.kind {
        ExprKind::Shared(a) => narrow(a, target, dom)?,
        ExprKind::Const(c) => {
            let d = dom[c.0].meet(target);
            if d.is_empty() {
                return Err(Empty);
            }
            dom[c.0] = d;
        }
        ExprKind::Neg(a) => narrow(a, target.neg(), dom)?,
        ExprKind::Arith(ArithOp::Add | ArithOp::Sub, _, _) => narrow_sum(e, target, dom)?,
        ExprKind::Arith(op, a, b) => {
            let ib = interval(b, dom);
            match op {
                ArithOp::Add => {
                    narrow(a, target.sub(ib), dom)?;
                    narrow(b, target.sub(interval(a, dom)), dom)?;
                }
                ArithOp::Sub => {
                    narrow(a, target.add(ib), dom)?;
                    narrow(b, interval(a, dom).sub(target), dom)?;
                }
                ArithOp::Mul => {
                    if !ib.contains(0) {
                        narrow(a, target.quotient(ib), dom)?;
                    }
                    let ia = interval(a, dom);
                    if !ia.contains(0) {
                        narrow(b, target.quotient(ia), dom)?;
                    }
                }
                ArithOp::Div | ArithOp::Mod => {}
            }
        }
        ExprKind::Ite(c, a, b) => {
            let (ia, ib) = (interval(a, dom), interval(b, dom));
            match truth(c, dom) {
                Tri::True => narrow(a, target, dom)?,
                Tri::False => narrow(b, target, dom)?,
                Tri::Unknown if ia.meet(target).is_empty() => {
                    revise(c, false, dom)?;
                    narrow(b, target, dom)?;
                }
                Tri::Unknown if ib.meet(target).is_empty() => {
                    revise(c, true, dom)?;
                    narrow(a, target, dom)?;
                }
                // Both branches lie within the target: nothing to narrow.
                Tri::Unknown if within(ia, target) && within(ib, target) => {}
                Tri::Unknown => either(
                    dom,
                    &mentioned(&[c, a, b]),
                    &mut |d| {
                        revise(c, true, d)?;
                        narrow(a, target, d)
                    },
                    &mut |d| {
                        revise(c, false, d)?;
                        narrow(b, target, d)
                    },
                )?,
            }
        }
        _ => {}
    }
    if interval(e, dom).meet(target).is_empty() {
        return Err(Empty);
    }
    Ok(())
}

/// Narrows a sum's terms so that the sum can take a value in `target`: each term to
/// the target less what the others can add (one pass over the terms, however the sum
/// is nested: `count(…)` over hundreds of bools is a sum of as many `if`s).
fn narrow_sum(e: &Expr, target: Interval, dom: &mut [Interval]) -> Result<(), Empty> {
    let mut terms: Vec<(bool, &Expr)> = Vec::new();
    crate::summands(e, true, &mut terms);
    let values: Vec<Interval> = terms
        .iter()
        .map(|(positive, t)| {
            let i = interval(t, dom);
            if *positive { i } else { i.neg() }
        })
        .collect();
    // What the terms before k and after k add.
    let zero = Interval::point(0);
    let mut after = vec![zero; values.len() + 1];
    for k in (0..values.len()).rev() {
        after[k] = after[k + 1].add(values[k]);
    }
    let mut before = zero;
    for (k, (positive, t)) in terms.iter().enumerate() {
        let others = before.add(after[k + 1]);
        let own = target.sub(others);
        narrow(t, if *positive { own } else { own.neg() }, dom)?;
        before = before.add(values[k]);
    }
    Ok(())
}

/// Narrows the box so that `a` is `want_a` or `b` is `want_b`: by the side that can be,
/// when the other cannot; by the hull of what each side leaves of it (constructive
/// disjunction) when both are open; not at all when one side certainly is.
fn one_of(
    dom: &mut [Interval],
    (a, want_a): (&Expr, bool),
    (b, want_b): (&Expr, bool),
) -> Result<(), Empty> {
    let is = |e: &Expr, want: bool, dom: &[Interval]| match truth(e, dom) {
        Tri::Unknown => Tri::Unknown,
        t => Tri::of((t == Tri::True) == want),
    };
    match (is(a, want_a, dom), is(b, want_b, dom)) {
        (Tri::True, _) | (_, Tri::True) => Ok(()),
        (Tri::False, Tri::False) => Err(Empty),
        (Tri::False, _) => revise(b, want_b, dom),
        (_, Tri::False) => revise(a, want_a, dom),
        _ => either(
            dom,
            &mentioned(&[a, b]),
            &mut |d| revise(a, want_a, d),
            &mut |d| revise(b, want_b, d),
        ),
    }
}

/// Whether every value of `inner` lies in `outer`.
fn within(inner: Interval, outer: Interval) -> bool {
    inner.is_empty() || (outer.lo <= inner.lo && inner.hi <= outer.hi)
}

/// Narrows the box to the hull of what `first` and `second` leave of it: the
/// constraint is one or the other; empty when both are. Only the intervals of the
/// constants `mentioned` (all that the two sides may narrow) are saved and restored,
/// so a disjunction of two constants costs the same in a box of four hundred.
fn either(
    dom: &mut [Interval],
    mentioned: &[usize],
    first: &mut dyn FnMut(&mut [Interval]) -> Result<(), Empty>,
    second: &mut dyn FnMut(&mut [Interval]) -> Result<(), Empty>,
) -> Result<(), Empty> {
    let saved: Vec<Interval> = mentioned.iter().map(|&k| dom[k]).collect();
    let one_ok = first(dom).is_ok();
    let one: Vec<Interval> = mentioned.iter().map(|&k| dom[k]).collect();
    for (&k, d) in mentioned.iter().zip(&saved) {
        dom[k] = *d;
    }
    let other_ok = second(dom).is_ok();
    match (one_ok, other_ok) {
        (false, false) => Err(Empty),
        (true, false) => {
            for (&k, d) in mentioned.iter().zip(&one) {
                dom[k] = *d;
            }
            Ok(())
        }
        (false, true) => Ok(()),
        (true, true) => {
            for (&k, d) in mentioned.iter().zip(&one) {
                dom[k] = d.hull(dom[k]);
            }
            Ok(())
        }
    }
}

/// The constants `es` mention, sorted.
fn mentioned(es: &[&Expr]) -> Vec<usize> {
    let mut out = Vec::new();
    for e in es {
        let _ = e.walk(&mut |x: &Expr| -> Result<(), ()> {
            if let ExprKind::Const(c) = x.kind {
                out.push(c.0);
            }
            Ok(())
        });
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Narrows the box so that the boolean `e` can be `want`.
pub(super) fn revise(e: &Expr, want: bool, dom: &mut [Interval]) -> Result<(), Empty> {
    match &e.kind {
        ExprKind::Const(_) => narrow(e, Interval::point(i128::from(want)), dom)?,
        ExprKind::Shared(a) => revise(a, want, dom)?,
        ExprKind::Not(a) => revise(a, !want, dom)?,
        ExprKind::Logic(op, a, b) => match (op, want) {
            (LogicOp::And, true) => {
                revise(a, true, dom)?;
                revise(b, true, dom)?;
            }
            (LogicOp::Or, false) => {
                revise(a, false, dom)?;
                revise(b, false, dom)?;
            }
            (LogicOp::Implies, false) => {
                revise(a, true, dom)?;
                revise(b, false, dom)?;
            }
            // One side or the other.
            (LogicOp::And, false) => one_of(dom, (a, false), (b, false))?,
            (LogicOp::Or, true) => one_of(dom, (a, true), (b, true))?,
            (LogicOp::Implies, true) => one_of(dom, (a, false), (b, true))?,
            (LogicOp::Iff, _) => match (truth(a, dom), truth(b, dom)) {
                (Tri::Unknown, Tri::Unknown) => {}
                (Tri::Unknown, t) => revise(a, (t == Tri::True) == want, dom)?,
                (t, _) => revise(b, (t == Tri::True) == want, dom)?,
            },
        },
        ExprKind::Cmp(op, a, b) if a.ty == Ty::Bool => match (truth(a, dom), truth(b, dom)) {
            (Tri::Unknown, Tri::Unknown) => {}
            (Tri::Unknown, t) => revise(a, (t == Tri::True) == (want == (*op == CmpOp::Eq)), dom)?,
            (t, _) => revise(b, (t == Tri::True) == (want == (*op == CmpOp::Eq)), dom)?,
        },
        ExprKind::Cmp(op, a, b) => {
            let op = if want { *op } else { negate(*op) };
            let (ia, ib) = (interval(a, dom), interval(b, dom));
            match op {
                CmpOp::Eq => {
                    narrow(a, ib, dom)?;
                    narrow(b, interval(a, dom), dom)?;
                }
                CmpOp::Ne => {
                    if let Some(v) = ib.singleton() {
                        narrow(a, except(ia, v), dom)?;
                    }
                    if let Some(v) = interval(a, dom).singleton() {
                        narrow(b, except(interval(b, dom), v), dom)?;
                    }
                }
                CmpOp::Lt => {
                    narrow(a, Interval::new(NEG_INF, below(ib.hi)), dom)?;
                    narrow(b, Interval::new(above(interval(a, dom).lo), POS_INF), dom)?;
                }
                CmpOp::Le => {
                    narrow(a, Interval::new(NEG_INF, ib.hi), dom)?;
                    narrow(b, Interval::new(interval(a, dom).lo, POS_INF), dom)?;
                }
                CmpOp::Gt => {
                    narrow(a, Interval::new(above(ib.lo), POS_INF), dom)?;
                    narrow(b, Interval::new(NEG_INF, below(interval(a, dom).hi)), dom)?;
                }
                CmpOp::Ge => {
                    narrow(a, Interval::new(ib.lo, POS_INF), dom)?;
                    narrow(b, Interval::new(NEG_INF, interval(a, dom).hi), dom)?;
                }
            }
        }
        ExprKind::Ite(c, a, b) => match truth(c, dom) {
            Tri::True => revise(a, want, dom)?,
            Tri::False => revise(b, want, dom)?,
            Tri::Unknown => either(
                dom,
                &mentioned(&[c, a, b]),
                &mut |d| {
                    revise(c, true, d)?;
                    revise(a, want, d)
                },
                &mut |d| {
                    revise(c, false, d)?;
                    revise(b, want, d)
                },
            )?,
        },
        ExprKind::In { tuple, set } if want => {
            let ts: Vec<Interval> = tuple.iter().map(|t| interval(t, dom)).collect();
            let open: Vec<&Vec<Expr>> = set
                .iter()
                .filter(|item| item_match(&ts, item, dom) != Tri::False)
                .collect();
            if open.is_empty() {
                return Err(Empty);
            }
            for (k, t) in tuple.iter().enumerate() {
                let hull = open
                    .iter()
                    .map(|item| interval(&item[k], dom))
                    .fold(Interval { lo: 1, hi: 0 }, Interval::hull);
                narrow(t, hull, dom)?;
            }
        }
        _ => {}
    }
    if truth(e, dom) == Tri::of(!want) {
        return Err(Empty);
    }
    Ok(())
}

fn negate(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Ge => CmpOp::Lt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Le => CmpOp::Gt,
    }
}

fn below(b: i128) -> i128 {
    if is_inf(b) { b } else { b - 1 }
}

fn above(b: i128) -> i128 {
    if is_inf(b) { b } else { b + 1 }
}

/// `d` without `v`, when `v` is one of its ends.
fn except(d: Interval, v: i128) -> Interval {
    if d.lo == v {
        Interval::new(above(d.lo), d.hi)
    } else if d.hi == v {
        Interval::new(d.lo, below(d.hi))
    } else {
        d
    }
}

/// The initial box of a program's constants: bools 0..=1, enums their variants, ints
/// every integer (a story's ints have no bounds: one that the constraints put beyond
/// i64 is [`beyond_i64`], which the backends refuse, rather than no value at all).
pub(super) fn type_box(types: &[Ty], enum_sizes: &[usize]) -> Box {
    types
        .iter()
        .map(|ty| match ty {
            Ty::Bool => Interval::new(0, 1),
            Ty::Enum(e) => Interval::new(0, enum_sizes[e.0] as i128 - 1),
            Ty::Int => Interval::new(NEG_INF, POS_INF),
        })
        .collect()
}

/// Whether an int constant's interval goes beyond i64: the constraints did not bound
/// it, or bound it beyond i64 ([`beyond_i64`]).
pub(super) fn unbounded(d: Interval) -> bool {
    d.lo < i128::from(i64::MIN) || d.hi > i128::from(i64::MAX)
}

/// Whether the constraints bound an int constant's interval, but beyond i64: values the
/// worlds do not hold.
pub(super) fn beyond_i64(d: Interval) -> bool {
    d.is_bounded() && !d.is_empty() && unbounded(d)
}

/// The values, sorted and inside its interval, that constant `k` may take for `e` to
/// hold when every other constant of `dom` is a point; `None` when `e` does not pin
/// them down (`x < y`), so that every value must be tried.
pub(super) fn choices(e: &Expr, k: usize, dom: &[Interval]) -> Option<Vec<i128>> {
    match &e.kind {
        ExprKind::Shared(a) => choices(a, k, dom),
        ExprKind::Logic(LogicOp::And, a, b) => match (choices(a, k, dom), choices(b, k, dom)) {
            (Some(mut x), Some(y)) => {
                x.retain(|v| y.binary_search(v).is_ok());
                Some(x)
            }
            (x, None) | (None, x) => x,
        },
        ExprKind::Logic(LogicOp::Or, a, b) => {
            let mut x = choices(a, k, dom)?;
            x.extend(choices(b, k, dom)?);
            x.sort_unstable();
            x.dedup();
            Some(x)
        }
        ExprKind::Cmp(CmpOp::Eq, a, b) => {
            let (ia, ib) = (interval(a, dom), interval(b, dom));
            let (side, value) = match (ia.singleton(), ib.singleton()) {
                (Some(_), Some(_)) | (None, None) => return None,
                (Some(v), None) => (b, v),
                (None, Some(v)) => (a, v),
            };
            let mut dom = dom.to_vec();
            if narrow(side, Interval::point(value), &mut dom).is_err() {
                return Some(Vec::new());
            }
            dom[k].singleton().map(|v| vec![v])
        }
        _ if truth(e, dom) == Tri::False => Some(Vec::new()),
        _ => None,
    }
}
