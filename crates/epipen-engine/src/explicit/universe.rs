//! The universe: the worlds the story's first announcements allow, listed natively
//! (interval propagation, [`bound`], and search, [`search`]), and the worlds events add to it; and the
//! checks that decide whether the backend takes a story.

use crate::explicit::Refusal;
use crate::explicit::bound::{self, Interval};
use crate::explicit::column::Column;
use crate::explicit::search::{self, Limits, Stop};
use crate::explicit::world_ids::WorldIds;
use crate::ir::{Expr, ExprKind, Program, Stmt, StmtKind, Ty, Value};

/// The worlds the story's first announcements allow, in lexicographic order of their
/// values, one column of values per constant; then, for each event, the worlds it made
/// (a world of the state before, with the case that happened in the occurrence's
/// column), appended: indices of earlier states stay valid.
#[derive(Clone)]
pub(super) struct Universe {
    pub(super) columns: Vec<Column>,
    pub(super) len: usize,
    /// Where each event's worlds start (after the first segment, at 0): each segment is
    /// in lexicographic order.
    pub(super) segments: Vec<usize>,
    /// For a world an event made, the world of the state before it came from (indexed
    /// from `segments[1]`).
    pub(super) parent: Vec<u32>,
    /// Each column's smallest and largest value, once asked for.
    pub(super) ranges: std::cell::OnceCell<Vec<Interval>>,
}

impl Universe {
    /// Appends the worlds an event made (`made`: each the world it came from and the
    /// case that happened there), their rows the old ones' but for the occurrence's
    /// column `occ`, which holds `first` plus the case.
    pub(super) fn grow(&mut self, occ: usize, first: i64, made: &[(u32, i64)]) {
        let base = self.len;
        // The new worlds copy the old ones' values but in the occurrence's column, whose
        // new values are its cases': each column's range grows by those only (a walk
        // over the whole universe at each event of a plan's search is quadratic).
        let ranges = match (self.ranges.take(), made.is_empty(), base) {
            (_, _, 0) | (None, _, _) => None,
            (Some(ranges), true, _) => Some(ranges),
            (Some(mut ranges), false, _) => {
                let lo = made.iter().map(|&(_, c)| first + c).min().unwrap_or(first);
                let hi = made.iter().map(|&(_, c)| first + c).max().unwrap_or(first);
                let r = &mut ranges[occ];
                *r = bound::Interval::new(r.lo.min(i128::from(lo)), r.hi.max(i128::from(hi)));
                Some(ranges)
            }
        };
        for (k, col) in self.columns.iter_mut().enumerate() {
            if k == occ {
                col.push_values(made.iter().map(|&(_, c)| first + c));
            } else {
                col.push_copies(made.iter().map(|&(w, _)| w as usize));
            }
        }
        self.segments.push(base);
        self.parent.extend(made.iter().map(|&(w, _)| w));
        self.len = base + made.len();
        self.ranges = match ranges {
            Some(ranges) => std::cell::OnceCell::from(ranges),
            None => std::cell::OnceCell::new(),
        };
    }

    /// Appends worlds of their own (a rebuilt state's, [`super::rebuild`]): `rows` in
    /// lexicographic order, each standing for the world `parent` (an earlier one).
    pub(super) fn append(&mut self, rows: &[Vec<i64>], parent: u32) {
        let base = self.len;
        let ranges = match (self.ranges.take(), base) {
            (Some(mut ranges), b) if b > 0 => {
                for row in rows {
                    for (r, &v) in ranges.iter_mut().zip(row) {
                        let v = i128::from(v);
                        *r = bound::Interval::new(r.lo.min(v), r.hi.max(v));
                    }
                }
                Some(ranges)
            }
            _ => None,
        };
        for (k, col) in self.columns.iter_mut().enumerate() {
            col.push_values(rows.iter().map(|row| row[k]));
        }
        self.segments.push(base);
        self.parent.extend(std::iter::repeat_n(parent, rows.len()));
        self.len = base + rows.len();
        self.ranges = match ranges {
            Some(ranges) => std::cell::OnceCell::from(ranges),
            None => std::cell::OnceCell::new(),
        };
    }

    /// Drops the worlds from `len` on (the start of a segment): the ranges stay (they
    /// hold the values left).
    pub(super) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        for col in &mut self.columns {
            col.truncate(len);
        }
        while self.segments.len() > 1 && self.segments.last().is_some_and(|&s| s >= len) {
            self.segments.pop();
        }
        let first = self.segments.get(1).copied().unwrap_or(len);
        self.parent.truncate(len.saturating_sub(first));
        self.len = len;
    }

    pub(super) fn new(columns: Vec<Column>, len: usize) -> Universe {
        Universe {
            columns,
            len,
            segments: vec![0],
            parent: Vec::new(),
            ranges: std::cell::OnceCell::new(),
        }
    }

    /// The index of the world with these values, searched segment by segment, the latest
    /// first (the actual world is among the latest event's worlds); None when there is
    /// none.
    pub(super) fn find(&self, world: &[Value]) -> Option<u32> {
        let values: Vec<i64> = world.iter().map(|v| v.number()).collect();
        let mut end = self.len;
        for &start in self.segments.iter().rev() {
            let (mut lo, mut hi) = (start, end);
            end = start;
            while lo < hi {
                let mid = (lo + hi) / 2;
                let row = self.columns.iter().map(|c| c.get(mid));
                match row.cmp(values.iter().copied()) {
                    std::cmp::Ordering::Less => lo = mid + 1,
                    std::cmp::Ordering::Greater => hi = mid,
                    std::cmp::Ordering::Equal => return Some(mid as u32),
                }
            }
        }
        None
    }

    /// The index of the world of `worlds` with these values: a plan's search appends the
    /// same rows for each state it passes through, so only the state's own will do.
    pub(super) fn find_among(&self, worlds: &WorldIds, world: &[Value]) -> Option<u32> {
        let values: Vec<i64> = world.iter().map(|v| v.number()).collect();
        worlds.iter().find(|&w| {
            (self.columns.iter())
                .map(|c| c.get(w as usize))
                .eq(values.iter().copied())
        })
    }

    /// Each constant's smallest and largest value in the universe (a walk over every
    /// column, made once).
    pub(super) fn ranges(&self) -> &[Interval] {
        self.ranges.get_or_init(|| {
            (self.columns.iter())
                .map(|col| {
                    let (lo, hi) = col.range().unwrap_or((0, 0));
                    Interval::new(i128::from(lo), i128::from(hi))
                })
                .collect()
        })
    }

    /// The world `w` came from in the universe as it was `len` worlds long (itself when
    /// it was already there).
    pub(super) fn ancestor(&self, mut w: usize, len: usize) -> usize {
        let first = self.segments.get(1).copied().unwrap_or(self.len);
        while w >= len && w >= first {
            w = self.parent[w - first] as usize;
        }
        w
    }
}

/// The most values the explicit backend keeps for the columns of the events'
/// occurrences (each a column over every world): beyond, another backend runs the story.
pub(super) const MAX_OCCURRENCE_VALUES: u128 = 50_000_000;

/// The statements at the start of the story whose constraints bound the worlds: the
/// storyteller's knowledge-free announcements, and `learns` of knowledge-free
/// expressions between them (which look at no world; a formula with knowledge is
/// evaluated in the worlds of its moment, which the later bounds would cut), and the
/// `prior` (which weighs the worlds these announcements leave, wherever it stands among
/// them: an announcement keeps the weights of the worlds it keeps). The first other
/// statement ends it.
pub(crate) fn bounding_prefix(statements: &[Stmt]) -> Vec<&Expr> {
    let prefix = statements.iter().take_while(|s| bounds_the_worlds(s));
    (prefix.filter_map(|s| match &s.kind {
        StmtKind::Announce { formula, .. } => Some(formula),
        _ => None,
    }))
    .collect()
}

/// Whether `s` may stand among the story's first announcements, the statements at its
/// start whose constraints bound the worlds ([`bounding_prefix`]: the storyteller's
/// announcements and the `learns` without knowledge operators, and the `prior`): the
/// explicit and BDD backends bound their ints by them, and `auto` chooses by them.
pub fn bounds_the_worlds(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Announce {
            speaker: None,
            formula,
        } => !formula.mentions_knowledge(),
        StmtKind::Learn { what, .. } => !what.mentions_knowledge(),
        StmtKind::Prior(_) => true,
        _ => false,
    }
}

/// Each constant's smallest and largest value in the worlds the story's first
/// announcements ([`bounding_prefix`]) allow, by the interval propagation the explicit
/// search starts with (its root box, within the types' box): the BDD backend's bounded
/// ints. When the propagation finds that they allow no world, the bounds of the
/// announcements before the first that makes it find none. `Err(k)`: they leave constant
/// `k` unbounded (or the propagation gave up: more than `max_work` steps of work).
pub(crate) fn first_bounds(
    program: &Program,
    max_work: usize,
) -> Result<Option<Vec<(i128, i128)>>, Loose> {
    let prefix = bounding_prefix(&program.statements);
    let types: Vec<Ty> = program.constants.iter().map(|c| c.ty).collect();
    let limits = Limits {
        max_worlds: usize::MAX,
        max_nodes: usize::MAX,
        max_work,
        deadline: None,
        cancel: crate::Cancel::default(),
    };
    let start = type_box(program);
    let mut found = search::bounds(&prefix, &start, &types, &limits);
    if let Ok(None) = found {
        // No world: the bounds of the announcements before the one whose propagation
        // finds none, so that every state before it keeps its worlds (the driver says
        // which statement left none).
        found = Ok(None);
        for k in (0..prefix.len()).rev() {
            let before = search::bounds(&prefix[..k], &start, &types, &limits);
            if !matches!(before, Ok(None)) {
                found = before;
                break;
            }
        }
    }
    match found {
        Ok(Some(b)) => Ok(Some(b.iter().map(|d| (d.lo, d.hi)).collect())),
        Ok(None) => Ok(None),
        Err(Stop::Unbounded(k)) => Err(Loose::Unbounded(k)),
        Err(Stop::Beyond(k)) => Err(Loose::Beyond(k)),
        Err(_) => Err(Loose::Work),
    }
}

/// Why the story's first announcements do not bound its ints ([`first_bounds`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Loose {
    /// They leave this int constant unbounded.
    Unbounded(usize),
    /// They allow this int constant a value beyond i64.
    Beyond(usize),
    /// Finding out took more than the work allowed.
    Work,
}

/// Why a backend that holds the worlds' values refuses a story whose first
/// announcements allow constant `k` a value beyond i64 ([`Loose::Beyond`]).
pub(crate) fn beyond_i64(program: &Program, k: usize) -> String {
    format!(
        "the story's first announcements allow `{}` a value beyond the 64-bit integers \
         (-2^63 to 2^63 - 1), which a world does not hold",
        program.constants[k].name
    )
}

/// The int constants the story's first announcements ([`bounding_prefix`]) leave
/// unbounded by the interval propagation, or bound to more than `wide` values, each
/// with whether it is unbounded (none when the propagation gives up or finds no world):
/// for the messages of the Z3 route.
pub(crate) fn loose_by_first(program: &Program, wide: u128) -> Vec<(usize, bool)> {
    let prefix = bounding_prefix(&program.statements);
    let types: Vec<Ty> = program.constants.iter().map(|c| c.ty).collect();
    let limits = Limits {
        max_worlds: usize::MAX,
        max_nodes: usize::MAX,
        max_work: 1_000_000,
        deadline: None,
        cancel: crate::Cancel::default(),
    };
    match search::root_box(&prefix, &type_box(program), &types, &limits) {
        Ok(Some(root)) => (0..root.len())
            .filter(|k| types[*k] == Ty::Int && root[*k].width() > wide)
            .map(|k| (k, !root[k].is_bounded()))
            .collect(),
        _ => Vec::new(),
    }
}

/// The values the constants' types allow, an event's occurrence holding its not-yet
/// value (or, when `happened` says it happened, one of its cases).
pub(super) fn type_box_after(program: &Program, happened: &[bool]) -> bound::Box {
    let types: Vec<Ty> = program.constants.iter().map(|c| c.ty).collect();
    let sizes: Vec<usize> = program.enums.iter().map(|e| e.variants.len()).collect();
    let mut tbox = bound::type_box(&types, &sizes);
    for occ in program.occurrences() {
        let o = program.constants[occ.0].occurrence.expect("an occurrence");
        let not_yet = i128::from(program.events[o.event.0].not_yet());
        tbox[occ.0] = if happened.get(occ.0).copied().unwrap_or(false) {
            Interval::new(0, not_yet - 1)
        } else {
            Interval::new(not_yet, not_yet)
        };
    }
    tbox
}

pub(super) fn type_box(program: &Program) -> bound::Box {
    type_box_after(program, &[])
}

/// How many worlds the constants' types allow (saturating): bools and enums only.
pub(crate) fn finite_type_worlds(program: &Program) -> Option<u128> {
    let mut size: u128 = 1;
    for d in type_box(program) {
        if bound::unbounded(d) {
            return None;
        }
        size = size.saturating_mul(d.width());
    }
    Some(size)
}

/// The worlds of the program's types where every constraint holds ([`search::solve`],
/// deciding exactly where the intervals leave a constraint open), and whether some
/// constraint went beyond the backend's integers on the way (then the list is wrong).
pub(super) fn list_worlds(
    program: &Program,
    constraints: &[&Expr],
    limits: &Limits,
) -> (Result<search::Solutions, Stop>, bool) {
    list_worlds_in(program, type_box(program), constraints, limits)
}

/// [`list_worlds`] in the box `tbox`.
pub(super) fn list_worlds_in(
    program: &Program,
    tbox: bound::Box,
    constraints: &[&Expr],
    limits: &Limits,
) -> (Result<search::Solutions, Stop>, bool) {
    let mut overflow = false;
    let types: Vec<Ty> = program.constants.iter().map(|c| c.ty).collect();
    let found = search::solve(constraints, tbox, &types, limits, &mut |e, point| {
        let v = exact(e, point);
        overflow |= v.is_none();
        v
    });
    (found, overflow)
}

pub(super) fn refusal(program: &Program, stop: Stop) -> Refusal {
    let why = match &stop {
        Stop::Unbounded(k) => format!(
            "the explicit-worlds backend needs every int bounded by the story's first \
             announcements, and they leave `{}` unbounded",
            program.constants[*k].name
        ),
        Stop::Beyond(k) => beyond_i64(program, *k),
        Stop::TooMany(n) => format!(
            "the story's first announcements allow more than {n} worlds, more than the \
             explicit-worlds backend lists"
        ),
        Stop::TooHard(n) => format!(
            "listing the worlds of the story's first announcements took more than {n} \
             search steps"
        ),
        Stop::Timeout => "the run's time ran out while listing the worlds".into(),
    };
    Refusal {
        timed_out: matches!(stop, Stop::Timeout),
        events: false,
        why,
        span: program
            .statements
            .iter()
            .find(|s| matches!(s.kind, StmtKind::Announce { .. }))
            .map(|s| s.span),
    }
}

/// Refuses a story one of whose int expressions may, on the universe's box, take a value
/// beyond ±2^100 (the backend computes with i128).
pub(super) fn check_widths(program: &Program, root: &[Interval]) -> Result<(), Refusal> {
    let mut bad = None;
    let mut visit = |e: &Expr| -> Result<(), ()> {
        if e.ty != Ty::Bool && !bound::interval(e, root).is_bounded() {
            bad = Some(e.span);
            return Err(());
        }
        Ok(())
    };
    for s in &program.statements {
        if s.each_expr(&mut |e| e.walk(&mut visit)).is_err() {
            break;
        }
    }
    match bad {
        None => Ok(()),
        Some(span) => Err(Refusal {
            why: "the explicit-worlds backend computes with integers of up to 100 bits, \
                  and this expression may go beyond that"
                .into(),
            span: Some(span),
            timed_out: false,
            events: false,
        }),
    }
}

/// A knowledge-free expression's value in one world (values as in the universe: bools
/// 0/1), exactly; None when a value goes beyond i128.
pub(super) fn exact(e: &Expr, point: &[i128]) -> Option<i128> {
    Some(match &e.kind {
        ExprKind::Int(n) => i128::from(*n),
        ExprKind::Bool(b) => i128::from(*b),
        ExprKind::Const(c) => point[c.0],
        ExprKind::Shared(inner) => exact(inner, point)?,
        ExprKind::Latest(_) => return None,
        ExprKind::Neg(a) => exact(a, point)?.checked_neg()?,
        ExprKind::Not(a) => i128::from(exact(a, point)? == 0),
        ExprKind::Arith(op, a, b) => {
            crate::ir::arith::checked(*op, exact(a, point)?, exact(b, point)?)?
        }
        ExprKind::Cmp(op, a, b) => {
            let (x, y) = (exact(a, point)?, exact(b, point)?);
            i128::from(op.holds(&x, &y))
        }
        ExprKind::Logic(op, a, b) => {
            let (x, y) = (exact(a, point)? != 0, exact(b, point)? != 0);
            i128::from(op.holds(x, y))
        }
        ExprKind::Ite(c, a, b) => {
            if exact(c, point)? != 0 {
                exact(a, point)?
            } else {
                exact(b, point)?
            }
        }
        ExprKind::In { tuple, set } => {
            let t: Vec<i128> = tuple
                .iter()
                .map(|x| exact(x, point))
                .collect::<Option<_>>()?;
            let mut found = false;
            for item in set {
                let mut all = true;
                for (v, x) in t.iter().zip(item) {
                    all &= *v == exact(x, point)?;
                }
                found |= all;
            }
            i128::from(found)
        }
        // Never in the constraints that bound the worlds.
        ExprKind::Knows { .. }
        | ExprKind::KnowsValue { .. }
        | ExprKind::Believes { .. }
        | ExprKind::BelievesValue { .. }
        | ExprKind::At { .. }
        | ExprKind::Group { .. }
        | ExprKind::Chance { .. }
        | ExprKind::Announced { .. } => return None,
        ExprKind::Quantified {
            forall,
            consts,
            body,
        } => {
            let mut changed = point.to_vec();
            let mut all = *forall;
            for bits in 0..1u64.checked_shl(u32::try_from(consts.len()).ok()?)? {
                for (k, c) in consts.iter().enumerate() {
                    changed[c.0] = i128::from((bits >> k) & 1 == 1);
                }
                let holds = exact(body, &changed)? != 0;
                if holds != *forall {
                    all = holds;
                    break;
                }
            }
            i128::from(all)
        }
    })
}

/// At most how many worlds the events of `program` could make from `len` listed worlds
/// (each world with any case of each occurrence), or `None` for a story without events.
pub(super) fn event_worlds(program: &Program, len: usize) -> Option<u128> {
    let mut occurrences = program.occurrences().peekable();
    occurrences.peek()?;
    // A plan's steps are counted as one action, the widest: most actions make no more
    // worlds than they are given (one case at each), and a search that does grow them
    // runs against the run's deadline, not against this bound.
    let step = program.plan_steps.as_ref().map(|s| s.event);
    let widest = (program.actions.iter())
        .map(|a| a.body.cases.len() as u128)
        .max()
        .unwrap_or(1);
    let mut counted = false;
    Some(occurrences.fold(len as u128, |n, occ| {
        let o = program.constants[occ.0].occurrence.expect("an occurrence");
        n.saturating_mul(match Some(o.event) == step {
            true if counted => 1,
            true => {
                counted = true;
                widest
            }
            false => program.events[o.event.0].not_yet() as u128,
        })
    }))
}

#[cfg(test)]
mod tests {
    use super::event_worlds;

    /// A story without events makes no more worlds than it lists, however many (Sum
    /// and Product at x + y <= 10 000 lists 25 million and stays with this backend); one
    /// with an event makes each listed world once per case of each occurrence.
    #[test]
    fn only_events_multiply_the_worlds() {
        let plain = "characters A\nint x\nannounce 0 <= x and x < 10\nA learns x\n";
        let program = epipen_lower::compile(plain, &[]).expect("the story compiles");
        assert_eq!(event_worlds(&program, 25_000_000), None);
        let flip = "characters a, b\nbool heads\nevent flip {\n  lands_heads then heads := true\n  \
                    lands_tails then heads := false\n  b sees lands_heads | lands_tails\n}\n";
        let program = epipen_lower::compile(flip, &[]).expect("the story compiles");
        assert_eq!(event_worlds(&program, 5), Some(5 * 2));
    }
}
