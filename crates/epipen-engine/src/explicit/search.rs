//! Listing the worlds the first announcements allow, natively: interval propagation
//! ([`super::bound`]) narrows every constant first, then a search enumerates, filtering
//! by the announcements as it goes (never world by world through a solver).
//!
//! - **Conjuncts.** The constraints are split into their conjuncts (`all(…)` unrolls to
//!   one); a conjunct is checked as soon as the constants it mentions are fixed, or
//!   decided earlier by intervals.
//! - **Definitions.** A conjunct `c == e` (or `c <-> e`) where e does not mention the
//!   constant c defines c: c is not searched but computed from e in each world found,
//!   and e replaces c in the other conjuncts (`s == x + y` names a sum, `ship[i] ==
//!   any(…)` the cells a fleet covers). An int so defined must stay within 64 bits.
//! - **Order.** The constants are searched in an order derived from the conjuncts: next
//!   comes the constant that completes the most conjuncts of several constants, then the
//!   one sharing the most conjuncts with those already placed, then declaration order
//!   (a battleship's row, column and direction of one ship before the next ship). At
//!   each node only the conjuncts of the constants just fixed are propagated (a
//!   worklist), and a conjunct certainly true on a box stays so below it.
//! - **Boxes.** Once every conjunct left is certainly true on a box of values, the box is
//!   emitted whole (`1 < x < y, x + y <= N`: one node per x).
//!
//! The worlds are then put in lexicographic order of their values, constant by constant
//! in declaration order, as the universe keeps them.

use std::time::Instant;

use super::bound::{self, Box, Interval, Tri};
use super::column::Column;
use crate::ir::{Expr, ExprKind, LogicOp, Ty};

/// Why the search stopped without listing every solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Stop {
    /// The constraints do not bound this constant (its index).
    Unbounded(usize),
    /// The constraints allow this constant (its index) a value beyond i64.
    Beyond(usize),
    /// More than this many worlds.
    TooMany(usize),
    /// More than this many search nodes.
    TooHard(usize),
    /// The run's deadline passed.
    Timeout,
}

/// Limits for [`solve`].
pub(super) struct Limits {
    pub max_worlds: usize,
    pub max_nodes: usize,
    /// The most work (expression nodes looked at: conjuncts read, revised, tested), a
    /// measure of the listing's cost that does not depend on the machine's load.
    pub max_work: usize,
    pub deadline: Option<Instant>,
    /// The run's cancel flag, watched with the deadline.
    pub cancel: crate::Cancel,
}

impl Limits {
    /// Whether the deadline passed or the run was cancelled.
    fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.cancel.is_cancelled()
    }
}

/// What [`solve`] lists: one column of values per constant, how many solutions, and the
/// box the root propagation gave, cut to i64 (where the values lie).
pub(super) type Solutions = (Vec<Column>, usize, Box);

/// A knowledge-free expression's value in one world (bools 0 and 1), exactly: None when
/// a value leaves i128 (the caller notes it: the list is then wrong and refused).
pub(super) type Value<'a> = &'a mut dyn FnMut(&Expr, &[i128]) -> Option<i128>;

/// Worlds tested one by one count this much less than a search node.
const TESTS_PER_NODE: usize = 64;
/// The work of reading the constraints, per node of their expressions.
const READING_COST: usize = 4;
/// Definitions stop being taken when an expression would grow beyond this many nodes.
const MAX_DEFINITION_SIZE: usize = 4096;
/// The most revisions of conjuncts a node's propagation makes, per conjunct open there.
const REVISIONS_PER_CONJUNCT: usize = 8;

/// What the root propagation of [`solve`] leaves: the conjuncts (definitions taken out
/// and substituted), the definitions, each conjunct's size, the work spent, the box, and
/// whether the box is consistent (false: no solution).
struct Root {
    conjuncts: Vec<Expr>,
    definitions: Vec<(usize, Expr)>,
    weights: Vec<usize>,
    work: usize,
    root: Box,
    consistent: bool,
}

/// Reads the constraints and propagates their intervals from `start` (at most 64
/// rounds): the box every solution lies in (a defined constant's: its definition's
/// interval there).
fn propagate(
    constraints: &[&Expr],
    start: &Box,
    types: &[Ty],
    limits: &Limits,
) -> Result<Root, Stop> {
    // Reading the constraints (splitting, defining, a round of propagation) costs a few
    // times their size: a budget that cannot pay for that much is spent at once.
    let sizes: usize = constraints.iter().map(|c| size(c)).sum();
    if sizes.saturating_mul(READING_COST) > limits.max_work {
        return Err(Stop::TooHard(limits.max_nodes));
    }
    let mut conjuncts = Vec::new();
    for c in constraints {
        split(c, &mut conjuncts);
    }
    let (conjuncts, definitions) = define(conjuncts, types, limits).ok_or(Stop::Timeout)?;
    let weights: Vec<usize> = conjuncts.iter().map(size).collect();
    let mut work = sizes;
    let mut root = start.clone();
    // Round by round (at most 64), looking at the clock now and then.
    let mut consistent = true;
    'rounds: for _ in 0..64 {
        let before = root.clone();
        for (i, c) in conjuncts.iter().enumerate() {
            if i % 256 == 0 && limits.expired() {
                return Err(Stop::Timeout);
            }
            work += weights[i];
            if work > limits.max_work {
                return Err(Stop::TooHard(limits.max_nodes));
            }
            if bound::revise(c, true, &mut root).is_err() {
                consistent = false;
                break 'rounds;
            }
        }
        if root == before {
            break;
        }
    }
    for (c, e) in &definitions {
        root[*c] = bound::interval(e, &root).meet(start[*c]);
    }
    Ok(Root {
        conjuncts,
        definitions,
        weights,
        work,
        root,
        consistent,
    })
}

/// The box the constraints' propagation from `start` leaves (the explicit search's
/// root, shared with the BDD backend's bounded ints): None when the constraints have no
/// solution; `Err(Stop::Unbounded(k))` when they leave constant `k` unbounded,
/// `Err(Stop::Beyond(k))` when they allow it a value beyond i64.
pub(crate) fn bounds(
    constraints: &[&Expr],
    start: &Box,
    types: &[Ty],
    limits: &Limits,
) -> Result<Option<Box>, Stop> {
    let root = propagate(constraints, start, types, limits)?;
    if !root.consistent {
        return Ok(None);
    }
    let mut defined = vec![false; start.len()];
    for (c, _) in &root.definitions {
        defined[*c] = true;
    }
    if let Some(k) = (0..start.len()).find(|k| !defined[*k] && bound::unbounded(root.root[*k])) {
        return Err(loose(k, root.root[k]));
    }
    if let Some(k) = (0..start.len()).find(|k| !root.root[*k].is_bounded()) {
        return Err(Stop::Unbounded(k));
    }
    // A defined constant's bounds too: a backend encodes its values within them.
    if let Some(k) = (0..start.len()).find(|k| bound::beyond_i64(root.root[*k])) {
        return Err(Stop::Beyond(k));
    }
    Ok(Some(root.root))
}

/// Why an int constant `k` whose interval `d` goes beyond i64 stops the search.
fn loose(k: usize, d: Interval) -> Stop {
    match bound::beyond_i64(d) {
        true => Stop::Beyond(k),
        false => Stop::Unbounded(k),
    }
}

/// The box the constraints' propagation from `start` leaves, unbounded intervals
/// included (None: no solution).
pub(super) fn root_box(
    constraints: &[&Expr],
    start: &Box,
    types: &[Ty],
    limits: &Limits,
) -> Result<Option<Box>, Stop> {
    let root = propagate(constraints, start, types, limits)?;
    Ok(root.consistent.then_some(root.root))
}

/// Every solution of the conjunction of `constraints` inside `start` (the constants'
/// types), in lexicographic order, as columns (one per constant) of values; how many
/// (with no constant, the columns cannot say: 1 or 0); and the box the root propagation
/// gave (a defined constant's: its definition's interval there).
pub(super) fn solve(
    constraints: &[&Expr],
    start: Box,
    types: &[Ty],
    limits: &Limits,
    value: Value,
) -> Result<Solutions, Stop> {
    let n = start.len();
    let Root {
        conjuncts,
        definitions,
        weights,
        work,
        root,
        consistent,
    } = propagate(constraints, &start, types, limits)?;
    let mut defined = vec![false; n];
    for (c, _) in &definitions {
        defined[*c] = true;
    }
    let mut columns = vec![Column::default(); n];
    if !consistent {
        return Ok((columns, 0, within_i64(root)));
    }
    if let Some(k) = (0..n).find(|k| !defined[*k] && bound::unbounded(root[*k])) {
        return Err(loose(k, root[k]));
    }
    // Without constraints every point of the box is a world: too many are refused before
    // the columns are reserved (a story of many bools whose first statement constrains
    // none, as an API's story may be when a declaration makes it replay).
    let points = (root.iter()).fold(1u128, |size, d| size.saturating_mul(d.width()));
    if conjuncts.is_empty() && points > limits.max_worlds as u128 {
        return Err(Stop::TooMany(limits.max_worlds));
    }
    // Each column in the smallest type that holds its constant's values.
    for (col, d) in columns.iter_mut().zip(&root) {
        *col = Column::for_range(d.lo, d.hi);
    }
    let mut touching = vec![Vec::new(); n];
    let mut vars = Vec::with_capacity(conjuncts.len());
    for (i, c) in conjuncts.iter().enumerate() {
        let mentioned = constants_of(c);
        for &k in &mentioned {
            touching[k].push(i);
        }
        vars.push(mentioned);
    }
    let order = search_order(&vars, &defined);
    // Defined constants are not searched: one placeholder value each, computed after.
    let mut searched = root.clone();
    for (c, _) in &definitions {
        searched[*c] = Interval::point(0);
    }
    // The box bounds how many worlds there can be: when its columns would take at most
    // 1 GB, that much is reserved at once (address space; the pages the worlds never
    // reach are never touched), so the columns never grow by copying.
    let bound = searched
        .iter()
        .fold(1u128, |size, d| size.saturating_mul(d.width()))
        .min(limits.max_worlds as u128);
    let row_bytes: u128 = columns.iter().map(|c| c.bytes_per_value() as u128).sum();
    if bound.saturating_mul(row_bytes) <= 1 << 30 {
        for col in &mut columns {
            col.reserve(bound as usize);
        }
    }
    let mut search = Search {
        conjuncts: &conjuncts,
        weights,
        work,
        touching,
        order,
        columns: &mut columns,
        worlds: 0,
        nodes: 0,
        tests: 0,
        limits,
        value: &mut *value,
        point: vec![0; n],
    };
    let open: Vec<usize> = (0..conjuncts.len()).collect();
    search.node(searched, open, &[])?;
    tracing::debug!(
        nodes = search.nodes,
        work = search.work,
        worlds = search.worlds,
        "explicit backend: search done"
    );
    let mut len = search.worlds;
    if !definitions.is_empty() {
        len = fill_definitions(&mut columns, len, &definitions, &start, value)?;
    }
    sort(&mut columns, len);
    Ok((columns, len, within_i64(root)))
}

/// The root box cut to i64, where every world's values lie (a constant that could leave
/// it stopped the search): the box later expressions are bounded in.
fn within_i64(root: Box) -> Box {
    let i64s = Interval::new(i128::from(i64::MIN), i128::from(i64::MAX));
    root.into_iter().map(|d| d.meet(i64s)).collect()
}

/// The conjuncts of `e`, in order.
pub(super) fn split(e: &Expr, out: &mut Vec<Expr>) {
    match &e.kind {
        ExprKind::Logic(LogicOp::And, a, b) => {
            split(a, out);
            split(b, out);
        }
        ExprKind::Bool(true) => {}
        _ => out.push(e.clone()),
    }
}

/// The constants `e` mentions, sorted.
pub(super) fn constants_of(e: &Expr) -> Vec<usize> {
    let mut seen = Vec::new();
    let _ = e.walk(&mut |x: &Expr| -> Result<(), ()> {
        if let ExprKind::Const(c) = x.kind {
            seen.push(c.0);
        }
        Ok(())
    });
    seen.sort_unstable();
    seen.dedup();
    seen
}

fn size(e: &Expr) -> usize {
    let mut n = 0;
    let _ = e.walk(&mut |_| -> Result<(), ()> {
        n += 1;
        Ok(())
    });
    n
}

/// The constant `e` defines and its definition, when `e` is `c == d` or `c <-> d` (either
/// side) with d not mentioning c.
fn definition(e: &Expr) -> Option<(usize, &Expr)> {
    let (a, b) = match &e.kind {
        ExprKind::Cmp(crate::ir::CmpOp::Eq, a, b) | ExprKind::Logic(LogicOp::Iff, a, b) => (a, b),
        _ => return None,
    };
    for (c, d) in [(a, b), (b, a)] {
        if let ExprKind::Const(k) = c.kind
            && !constants_of(d).contains(&k.0)
        {
            return Some((k.0, d));
        }
    }
    None
}

/// Takes the definitions out of `conjuncts` (see the module's comment): the conjuncts
/// left, with every defined constant replaced by its definition, and the definitions,
/// each over constants that are not defined. None when the deadline passes.
#[allow(clippy::type_complexity)]
fn define(
    conjuncts: Vec<Expr>,
    types: &[Ty],
    limits: &Limits,
) -> Option<(Vec<Expr>, Vec<(usize, Expr)>)> {
    let n = types.len();
    let mut terms: Vec<Expr> = Vec::new();
    let mut definitions: Vec<(usize, Expr)> = Vec::new();
    let mut rest = Vec::with_capacity(conjuncts.len());
    let mut is_defined = vec![false; n];
    for (i, conjunct) in conjuncts.into_iter().enumerate() {
        if i % 256 == 0 && limits.expired() {
            return None;
        }
        let conjunct = if definitions.is_empty() {
            conjunct
        } else {
            substitute(&conjunct, &definitions, &mut terms, types)
        };
        let found = definition(&conjunct)
            .filter(|(c, d)| !is_defined[*c] && size(d) <= MAX_DEFINITION_SIZE);
        match found {
            Some((c, d)) => {
                let d = d.clone();
                is_defined[c] = true;
                // Earlier definitions mention c no more.
                let one = vec![(c, d.clone())];
                let mut scratch = Vec::new();
                for (_, e) in &mut definitions {
                    *e = substitute(e, &one, &mut scratch, types);
                }
                definitions.push((c, d));
                terms.clear();
            }
            None => rest.push(conjunct),
        }
    }
    if definitions.is_empty() {
        return Some((rest, definitions));
    }
    let rest = rest
        .iter()
        .map(|c| substitute(c, &definitions, &mut terms, types))
        .collect();
    Some((rest, definitions))
}

/// `e` with the defined constants replaced by their definitions (`terms`: the
/// replacement of every constant, built once per set of definitions).
fn substitute(
    e: &Expr,
    definitions: &[(usize, Expr)],
    terms: &mut Vec<Expr>,
    types: &[Ty],
) -> Expr {
    if definitions.is_empty() {
        return e.clone();
    }
    if terms.is_empty() {
        terms.extend(types.iter().enumerate().map(|(k, ty)| Expr {
            kind: ExprKind::Const(crate::ir::ConstId(k)),
            ty: *ty,
            span: e.span,
        }));
        for (c, d) in definitions {
            terms[*c] = d.clone();
        }
    }
    let now = crate::ir::Moment {
        terms: Some(terms),
        latest: &[],
    };
    e.substitute(now, &|_| crate::ir::Moment::default())
}

/// A static search order: see the module's comment. Scores are kept up to date as
/// constants are placed (a heap of stale-or-current entries), so the order costs the
/// conjuncts' sizes, not their number times the constants'.
fn search_order(vars: &[Vec<usize>], defined: &[bool]) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = defined.len();
    let mut touching: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, v) in vars.iter().enumerate() {
        if v.len() >= 2 {
            for &k in v {
                touching[k].push(i);
            }
        }
    }
    // Per conjunct (of several constants): how many of them are not placed yet.
    let mut missing: Vec<usize> = vars.iter().map(Vec::len).collect();
    // Per constant: (conjuncts it would complete, conjuncts it shares with those placed).
    let mut score = vec![(0usize, 0usize); n];
    let mut placed = vec![false; n];
    let mut heap: BinaryHeap<((usize, usize), Reverse<usize>)> = (0..n)
        .filter(|k| !defined[*k])
        .map(|k| ((0, 0), Reverse(k)))
        .collect();
    let mut order = Vec::new();
    while let Some((s, Reverse(k))) = heap.pop() {
        if placed[k] || s != score[k] {
            continue;
        }
        placed[k] = true;
        order.push(k);
        for &i in &touching[k] {
            let first = missing[i] == vars[i].len();
            missing[i] -= 1;
            for &j in &vars[i] {
                if placed[j] || defined[j] {
                    continue;
                }
                let before = score[j];
                if first {
                    score[j].1 += 1;
                }
                if missing[i] == 1 {
                    score[j].0 += 1;
                }
                if score[j] != before {
                    heap.push((score[j], Reverse(j)));
                }
            }
        }
    }
    order
}

struct Search<'a> {
    conjuncts: &'a [Expr],
    /// Per conjunct, its size: the work of revising or testing it.
    weights: Vec<usize>,
    work: usize,
    /// Per constant, the conjuncts that mention it.
    touching: Vec<Vec<usize>>,
    order: Vec<usize>,
    columns: &'a mut Vec<Column>,
    worlds: usize,
    nodes: usize,
    /// Worlds tested one by one (see [`Search::last`]).
    tests: usize,
    limits: &'a Limits,
    value: &'a mut dyn FnMut(&Expr, &[i128]) -> Option<i128>,
    point: Vec<i128>,
}

impl Search<'_> {
    fn past_deadline(&self) -> bool {
        self.limits.expired()
    }

    /// Whether conjunct `i` holds at `point` (a value beyond i128: no, and the caller
    /// has noted it).
    fn holds(&mut self, i: usize, point: &[i128]) -> bool {
        (self.value)(&self.conjuncts[i], point).is_some_and(|v| v != 0)
    }

    /// Counts `units` of work; too hard beyond the limit.
    fn spend(&mut self, units: usize) -> Result<(), Stop> {
        self.work += units;
        if self.work > self.limits.max_work {
            return Err(Stop::TooHard(self.limits.max_nodes));
        }
        Ok(())
    }

    /// Narrows `dom` by the `open` conjuncts that mention the `changed` constants, then by
    /// those of the constants that narrows, until nothing changes (or the budget is
    /// spent). Ok(false): no world is left in `dom`.
    fn propagate(
        &mut self,
        dom: &mut Box,
        open: &[usize],
        changed: &[usize],
    ) -> Result<bool, Stop> {
        let mut queued = vec![false; self.conjuncts.len()];
        let mut is_open = vec![false; self.conjuncts.len()];
        for &i in open {
            is_open[i] = true;
        }
        let mut queue: Vec<usize> = Vec::new();
        let touching = &self.touching;
        let push = |k: usize, queue: &mut Vec<usize>, queued: &mut Vec<bool>| {
            for &i in &touching[k] {
                if is_open[i] && !queued[i] {
                    queued[i] = true;
                    queue.push(i);
                }
            }
        };
        for &k in changed {
            push(k, &mut queue, &mut queued);
        }
        let mut budget = REVISIONS_PER_CONJUNCT * open.len().max(1);
        let mut before = dom.clone();
        let mut spent = 0;
        let mut empty = false;
        while let Some(i) = queue.pop() {
            queued[i] = false;
            spent += self.weights[i];
            if bound::revise(&self.conjuncts[i], true, dom).is_err() {
                empty = true;
                break;
            }
            budget -= 1;
            if budget == 0 {
                break;
            }
            for k in 0..dom.len() {
                if dom[k] != before[k] {
                    before[k] = dom[k];
                    push(k, &mut queue, &mut queued);
                }
            }
        }
        self.spend(spent)?;
        Ok(!empty)
    }

    fn node(&mut self, mut dom: Box, mut open: Vec<usize>, changed: &[usize]) -> Result<(), Stop> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(Stop::TooHard(self.limits.max_nodes));
        }
        if self.nodes.is_multiple_of(8) && self.past_deadline() {
            return Err(Stop::Timeout);
        }
        {
            let mut searched = self
                .order
                .iter()
                .copied()
                .filter(|&k| dom[k].lo != dom[k].hi);
            if let (Some(k), None) = (searched.next(), searched.next()) {
                // One open constant: testing its values beats propagating.
                return self.last(dom, open, changed, k);
            }
        }
        if !changed.is_empty() && !self.propagate(&mut dom, &open, changed)? {
            return Ok(());
        }
        let mut refuted = false;
        self.spend(open.iter().map(|&i| self.weights[i]).sum())?;
        open.retain(|&i| match bound::truth(&self.conjuncts[i], &dom) {
            Tri::True => false,
            Tri::False => {
                refuted = true;
                true
            }
            Tri::Unknown => true,
        });
        if refuted {
            return Ok(());
        }
        if open.is_empty() {
            return self.emit_box(&dom);
        }
        let mut searched = self
            .order
            .iter()
            .copied()
            .filter(|&k| dom[k].lo != dom[k].hi);
        let Some(k) = searched.next() else {
            // One world, on which the intervals left some conjunct open: decide it.
            for (p, d) in self.point.iter_mut().zip(&dom) {
                *p = d.lo;
            }
            let point = self.point.clone();
            if open.iter().all(|&i| self.holds(i, &point)) {
                self.emit_box(&dom)?;
            }
            return Ok(());
        };
        if searched.next().is_none() {
            // The last open constant: its values are single worlds, tested one by one.
            return self.last(dom, open, &[], k);
        }
        if let Some((tuple, rows)) = self.table_rows(k, &dom, &open) {
            // A table `(x, y, …) in {…}` of literals: branch on its rows.
            for row in rows {
                let mut below = dom.clone();
                for (&c, v) in tuple.iter().zip(row) {
                    below[c] = Interval::point(v);
                }
                self.node(below, open.clone(), &tuple)?;
            }
            return Ok(());
        }
        let d = dom[k];
        for v in d.lo..=d.hi {
            let mut below = dom.clone();
            below[k] = Interval::point(v);
            self.node(below, open.clone(), &[k])?;
        }
        Ok(())
    }

    /// The worlds of a box where only constant `k` has several values (the `changed`
    /// constants were just fixed: their conjuncts are not propagated yet).
    fn last(
        &mut self,
        mut dom: Box,
        mut open: Vec<usize>,
        changed: &[usize],
        k: usize,
    ) -> Result<(), Stop> {
        // The values some conjunct leaves, when it pins them down (`z == x + y`).
        let mut values: Option<Vec<i128>> = None;
        for &i in &open {
            if let Some(mut these) = bound::choices(&self.conjuncts[i], k, &dom) {
                if let Some(before) = values {
                    these.retain(|v| before.binary_search(v).is_ok());
                }
                values = Some(these);
            }
        }
        let values: std::boxed::Box<dyn Iterator<Item = i128>> = match values {
            Some(values) => std::boxed::Box::new(values.into_iter()),
            None => {
                // Bounds (`x < y`, `x + y <= n`) narrow the interval, often to values
                // that all satisfy every conjunct: one box.
                if !self.propagate(&mut dom, &open, changed)? {
                    return Ok(());
                }
                open.retain(|&i| bound::truth(&self.conjuncts[i], &dom) != Tri::True);
                if open.is_empty() {
                    return self.emit_box(&dom);
                }
                std::boxed::Box::new(dom[k].lo..=dom[k].hi)
            }
        };
        for (p, d) in self.point.iter_mut().zip(&dom) {
            *p = d.lo;
        }
        let weight: usize = open.iter().map(|&i| self.weights[i]).sum();
        for v in values {
            self.spend(weight)?;
            self.tests += 1;
            if self.tests > TESTS_PER_NODE * self.limits.max_nodes {
                return Err(Stop::TooHard(self.limits.max_nodes));
            }
            if self.tests.is_multiple_of(1 << 12) && self.past_deadline() {
                return Err(Stop::Timeout);
            }
            dom[k] = Interval::point(v);
            self.point[k] = v;
            let point = self.point.clone();
            let holds = open
                .iter()
                .all(|&i| match bound::truth(&self.conjuncts[i], &dom) {
                    Tri::True => true,
                    Tri::False => false,
                    Tri::Unknown => self.holds(i, &point),
                });
            if holds {
                self.emit_box(&dom)?;
            }
        }
        Ok(())
    }

    /// The constants and the rows, inside `dom`, of an open conjunct `(x, y, …) in {…}`
    /// whose tuple is distinct constants, the first of them `k`, and whose items are
    /// literals: the search assigns them together.
    fn table_rows(
        &self,
        k: usize,
        dom: &[Interval],
        open: &[usize],
    ) -> Option<(Vec<usize>, Vec<Vec<i128>>)> {
        open.iter().find_map(|&i| {
            let ExprKind::In { tuple, set } = &self.conjuncts[i].kind else {
                return None;
            };
            let constants: Vec<usize> = tuple
                .iter()
                .map(|t| match t.kind {
                    ExprKind::Const(c) => Some(c.0),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            if constants.first() != Some(&k) {
                return None;
            }
            let mut distinct = constants.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if distinct.len() != constants.len() {
                return None;
            }
            let mut rows = Vec::with_capacity(set.len());
            'item: for item in set {
                let mut row = Vec::with_capacity(item.len());
                for (&c, x) in constants.iter().zip(item) {
                    let v = match x.kind {
                        ExprKind::Int(n) => i128::from(n),
                        ExprKind::Bool(b) => i128::from(b),
                        _ => return None,
                    };
                    if !dom[c].contains(v) {
                        continue 'item;
                    }
                    row.push(v);
                }
                rows.push(row);
            }
            rows.sort_unstable();
            rows.dedup();
            Some((constants, rows))
        })
    }

    /// Every world of the box (constants in declaration order, the last varying fastest).
    fn emit_box(&mut self, dom: &[Interval]) -> Result<(), Stop> {
        let size = dom
            .iter()
            .fold(1u128, |size, d| size.saturating_mul(d.width()));
        if size == 0 {
            return Ok(());
        }
        if (self.worlds as u128).saturating_add(size) > self.limits.max_worlds as u128 {
            return Err(Stop::TooMany(self.limits.max_worlds));
        }
        let size = size as usize;
        self.worlds += size;
        // Boxes can be large and nodes few: look at the clock every 2^18 worlds too.
        if (self.worlds >> 18) != ((self.worlds - size) >> 18) && self.past_deadline() {
            return Err(Stop::Timeout);
        }
        // Column k repeats each value `inner` times (the product of the widths after
        // it), and the whole pattern `outer` times.
        let mut inner = size;
        for (col, d) in self.columns.iter_mut().zip(dom) {
            let width = d.width() as usize;
            inner /= width;
            let outer = size / (inner * width);
            col.reserve(size);
            // The box lies within the root's, whose ints are within i64.
            col.push_box(d.lo as i64, d.hi as i64, inner, outer);
        }
        Ok(())
    }
}

/// Computes the defined constants' columns (see the module's comment) in the `len`
/// worlds found, keeping the worlds where each value lies in its constant's type box
/// (`types`); returns how many are kept, or [`Stop::Beyond`] for a value there beyond
/// i64.
fn fill_definitions(
    columns: &mut [Column],
    len: usize,
    definitions: &[(usize, Expr)],
    types: &[Interval],
    value: &mut dyn FnMut(&Expr, &[i128]) -> Option<i128>,
) -> Result<usize, Stop> {
    let mut point = vec![0i128; columns.len()];
    let mut kept = 0;
    'world: for w in 0..len {
        for (p, col) in point.iter_mut().zip(columns.iter()) {
            *p = i128::from(col.get(w));
        }
        for (c, e) in definitions {
            match value(e, &point) {
                Some(v) if types[*c].contains(v) && i64::try_from(v).is_err() => {
                    return Err(Stop::Beyond(*c));
                }
                Some(v) if types[*c].contains(v) => point[*c] = v,
                _ => continue 'world,
            }
        }
        for (p, col) in point.iter().zip(columns.iter_mut()) {
            col.set(kept, *p as i64);
        }
        kept += 1;
    }
    for col in columns.iter_mut() {
        col.truncate(kept);
    }
    Ok(kept)
}

/// Puts the `len` worlds in lexicographic order of their values (constant by constant),
/// when the search found them in another.
fn sort(columns: &mut [Column], len: usize) {
    // Already in order? Checked block by block of worlds, column by column: a pair of
    // neighbours stays tied while every column so far is equal on it.
    const BLOCK: usize = 4096;
    let mut ties = [true; BLOCK];
    let in_order = (1..len).step_by(BLOCK).all(|from| {
        let ties = &mut ties[..BLOCK.min(len - from)];
        ties.fill(true);
        columns.iter().all(|c| c.untie(from, ties))
    });
    if in_order {
        return;
    }
    let order = {
        let row = |a: usize, b: usize| {
            (columns.iter())
                .map(|c| c.get(a).cmp(&c.get(b)))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        };
        let mut rows: Vec<u32> = (0..len as u32).collect();
        rows.sort_unstable_by(|&a, &b| row(a as usize, b as usize));
        rows
    };
    for col in columns.iter_mut() {
        *col = col.permuted(&order);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::StmtKind;

    /// Random first announcements over three ints in -3..=3 and two bools, with
    /// definitions, disjunctions, `if`s, counts and tables: the search lists exactly
    /// the worlds a plain enumeration of the box finds, in lexicographic order.
    #[test]
    fn the_search_lists_what_enumeration_finds() {
        let mut next = crate::tests::xorshift(0x51_7cc1_b727_220a);
        let int = ["x", "y", "z"];
        let atoms = |next: &mut dyn FnMut(u64) -> u64| -> String {
            let a = int[next(3) as usize];
            let b = int[next(3) as usize];
            let k = next(7) as i64 - 3;
            match next(11) {
                0 => format!("{a} < {b}"),
                1 => format!("{a} + {b} <= {k}"),
                2 => format!("{a} == {b} + {k}"),
                3 => format!("p == ({a} > {k})"),
                4 => format!("(if p then {a} >= {k} else {b} != {k})"),
                5 => format!("({a} == {k} or {b} == {a} * 2 or q)"),
                6 => format!(
                    "count(i in 0..3: {a} > i - 1) + (if q then 1 else 0) >= {}",
                    next(4)
                ),
                7 => format!("({a}, {b}) in {{(0, 1), (1, 1), (-2, 3), ({k}, 0)}}"),
                8 => format!("not ({a} * {b} > {k}) -> p"),
                9 => format!("(if q then {a} else {b}) != {k}"),
                _ => format!("{a} % 2 == 0 or {b} / 2 == {k}"),
            }
        };
        for round in 0..400 {
            let mut story = String::from("int x, y, z\nbool p, q\n");
            let bounds = [
                "announce x >= -3 and x <= 3 and y >= -3 and y <= 3 and z >= -3 and z <= 3\n",
                "announce -3 <= x and x <= 3\nannounce y >= -3 and 3 >= y\nannounce z <= 3 and z >= -3\n",
            ];
            story += bounds[next(2) as usize];
            for _ in 0..next(4) {
                let mut conjunct = atoms(&mut next);
                if next(3) == 0 {
                    conjunct = format!("{conjunct} and {}", atoms(&mut next));
                }
                story += &format!("announce {conjunct}\n");
            }
            let program = epipen_lower::compile(&story, &[]).expect("the story compiles");
            let constraints: Vec<&Expr> = (program.statements.iter())
                .filter_map(|s| match &s.kind {
                    StmtKind::Announce { formula, .. } => Some(formula),
                    _ => None,
                })
                .collect();
            let types: Vec<Ty> = program.constants.iter().map(|c| c.ty).collect();
            let start = bound::type_box(&types, &[]);
            let limits = Limits {
                max_worlds: 1 << 20,
                max_nodes: 1 << 20,
                max_work: usize::MAX,
                deadline: None,
                cancel: crate::Cancel::default(),
            };
            let (columns, len, _) = solve(&constraints, start, &types, &limits, &mut |e, p| {
                super::super::universe::exact(e, p)
            })
            .expect("lists");
            let found: Vec<Vec<i64>> = (0..len)
                .map(|w| columns.iter().map(|c| c.get(w)).collect())
                .collect();
            let mut expected = Vec::new();
            for x in -3..=3 {
                for y in -3..=3 {
                    for z in -3..=3 {
                        for p in 0..=1 {
                            for q in 0..=1 {
                                let point = [x, y, z, p, q];
                                if constraints
                                    .iter()
                                    .all(|c| super::super::universe::exact(c, &point) == Some(1))
                                {
                                    expected
                                        .push(point.iter().map(|v| *v as i64).collect::<Vec<_>>());
                                }
                            }
                        }
                    }
                }
            }
            assert_eq!(found, expected, "round {round}:\n{story}");
        }
    }
}
