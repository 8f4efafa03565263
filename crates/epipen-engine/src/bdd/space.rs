//! The world's bits: how constants become BDD variables, and back.
//!
//! A bool constant is one bit; an enum constant with k variants is ⌈log₂ k⌉ bits holding
//! its variant's index, most significant bit first (so that the lexicographic order of
//! the bits, false before true, is the numeric order of the index). An int constant
//! that the story's first announcements bound to lo..=hi (the interval propagation the
//! explicit backend starts its search with, [`crate::explicit::first_bounds`]) is
//! ⌈log₂(hi − lo + 1)⌉ bits holding its value minus lo, in the same way; the bit
//! patterns beyond hi are no world (the space's domain excludes them, as it excludes an
//! enum's patterns beyond its variants). At most [`MAX_INT_BITS`] bits per int and
//! [`MAX_TOTAL_INT_BITS`] in all; an int beyond those, or one the first announcements do
//! not bound, is refused by name. Every bit x has a
//! primed copy x' right after it in the variable order: the knowledge operators rename
//! the constants an agent has not learned to their primed copies when the agent learned
//! expressions (see `knowledge.rs`). Constants take their bits in the order
//! [`crate::bdd::order`] derives from the story (families interleaved by index), not in
//! declaration order; `walk.rs` still lists worlds in the canonical order of
//! [`crate::worlds::World`], which follows the declarations.

use super::diagram::{Bdd, BddValuation, BddVariable, Diagrams, MAX_VARS};

use super::value::Partition;
use crate::explicit::Loose;
use crate::ir::arith::Integer;
use crate::ir::{ArithOp, Program, Ty};
use crate::worlds::{Value, World};

/// What a constant is, as bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Bool,
    /// An enum with this many variants.
    Enum(usize),
    /// An int taking the values `lo..lo + count` (the bits hold the value minus `lo`).
    Int {
        lo: i128,
        count: u128,
    },
    /// An event's occurrence when the histories are forgotten: a bit per case (this
    /// many), case k's bit alone set when case k happened, none before (the not-yet
    /// value, k = the number of cases). Every occurrence of one event shares its bits
    /// (each is quantified away when its event has happened), and each case's bit sits
    /// beside the constants the case changes (`bdd/forget.rs`).
    OneHot(usize),
}

/// The most bits one int constant takes (2^16 = 65,536 values: its partition has a cell
/// per value).
pub(crate) const MAX_INT_BITS: usize = 16;
/// The most bits the int constants take together.
pub(crate) const MAX_TOTAL_INT_BITS: usize = 256;
/// The most work the interval propagation bounding the ints may do (nodes of the first
/// announcements read, 64 rounds at most).
const BOUNDING_WORK: usize = 1 << 32;
/// The most pairs of values [`Space::grid`] computes one by one.
const GRID: u128 = 1 << 16;

/// The BDD variables of a program's constants.
pub(super) struct Space {
    set: Diagrams,
    kinds: Vec<Kind>,
    /// Per constant, its (unprimed) bits, most significant first.
    bits: Vec<Vec<BddVariable>>,
    /// Every unprimed bit, in variable order.
    all_bits: Vec<BddVariable>,
    /// Every unprimed bit in declaration order: constant by constant, each most
    /// significant bit first.
    declared_bits: Vec<BddVariable>,
    /// What every world satisfies: each enum constant holds one of its variants, each
    /// int one of its values.
    domain: Bdd,
    /// Each enum or int constant's partition, made once.
    partitions: Vec<Option<Partition>>,
    /// [`Space::magnitude_at_most`]'s sets, made once each (a plan's search lists the
    /// worlds of every state it reaches).
    magnitudes_made: std::cell::RefCell<std::collections::HashMap<i128, Bdd>>,
    /// How many of the constants are the program's: the others are observations.
    program_constants: usize,
    /// When histories are forgotten: for each occurrence and each character who sees
    /// its event's cases in groups, the observation that holds the group it saw (an enum
    /// of the groups, a constant of the space beyond the program's), in the order they
    /// happen, above every other bit.
    observations: foldhash::HashMap<(usize, usize), usize>,
}

/// Whether the space holds an observation per occurrence and character (the events'
/// histories forgotten) or the occurrences only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Observations {
    None,
    PerOccurrence,
}

/// Each int constant's bounds by the story's first announcements (indexed by constant;
/// `(0, 0)` for the others, and for every constant when those announcements allow no
/// world), or the refusal naming an int they leave unbounded.
fn int_bounds(program: &Program) -> Result<Vec<(i128, i128)>, String> {
    let n = program.constants.len();
    if !program.constants.iter().any(|c| c.ty == Ty::Int) {
        return Ok(vec![(0, 0); n]);
    }
    let unbounded = |k: usize| {
        format!(
            "the BDD backend needs every int bounded by the story's first announcements, and \
             they leave `{}` unbounded",
            program.constants[k].name
        )
    };
    match crate::explicit::first_bounds(program, BOUNDING_WORK) {
        Ok(Some(bounds)) => Ok(bounds),
        Ok(None) => Ok(vec![(0, 0); n]),
        Err(Loose::Unbounded(k)) => Err(unbounded(k)),
        Err(Loose::Beyond(k)) => Err(crate::explicit::beyond_i64(program, k)),
        Err(Loose::Work) => Err(
            "bounding the story's ints by its first announcements took more work than the \
             BDD backend gives it"
                .into(),
        ),
    }
}

/// Bits needed for the values `0..count` of an int.
fn int_bits_for(count: u128) -> usize {
    let mut bits = 0;
    while bits < 128 && (1u128 << bits) < count {
        bits += 1;
    }
    bits
}

/// Bits needed for the indices `0..k`.
fn bits_for(k: usize) -> usize {
    let mut bits = 0;
    while (1usize << bits) < k {
        bits += 1;
    }
    bits
}

impl Space {
    /// The bits of `program`'s constants, or why the BDD backend cannot take it (an int
    /// constant the first announcements leave unbounded or bound too loosely, or more
    /// bits than [`MAX_VARS`] allows).
    pub(super) fn new(program: &Program, observing: Observations) -> Result<Space, String> {
        let bounds = int_bounds(program)?;
        let mut kinds = Vec::with_capacity(program.constants.len());
        for (k, c) in program.constants.iter().enumerate() {
            kinds.push(match c.ty {
                Ty::Bool => Kind::Bool,
                Ty::Enum(e) => Kind::Enum(program.enums.get(e.0).map_or(0, |d| d.variants.len())),
                Ty::Int => {
                    let (lo, hi) = bounds.get(k).copied().unwrap_or((0, 0));
                    Kind::Int {
                        lo,
                        count: (hi - lo).max(0) as u128 + 1,
                    }
                }
            });
        }
        let program_constants = kinds.len();
        let mut observations = foldhash::HashMap::default();
        // One-hot occurrences: each event's first occurrence holds the bits, the others
        // share them; each case's bit before the last constant (in the order) it changes
        // or its precondition reads.
        let mut shared_with: Vec<Option<usize>> = vec![None; kinds.len()];
        let mut case_targets: foldhash::HashMap<usize, Vec<Vec<usize>>> = Default::default();
        if observing == Observations::PerOccurrence {
            let mut first_of: foldhash::HashMap<(usize, usize), usize> = Default::default();
            for stmt in &program.statements {
                crate::bdd::order::events(stmt, &mut |event| {
                    for occ in &event.occurrences {
                        let key = (event.event.0, event.cases.len());
                        let first = *first_of.entry(key).or_insert(occ.0);
                        kinds[occ.0] = Kind::OneHot(event.cases.len());
                        if first != occ.0 {
                            shared_with[occ.0] = Some(first);
                        } else {
                            // What each case changes and what its precondition reads.
                            let read = |c: &crate::ir::Case| {
                                let mut read: Vec<usize> =
                                    c.changes.iter().map(|(t, _)| t.0).collect();
                                if let Some(pre) = &c.pre {
                                    let _ = pre.walk(&mut |e| {
                                        if let crate::ir::ExprKind::Const(x) = e.kind {
                                            read.push(x.0);
                                        }
                                        Ok::<(), ()>(())
                                    });
                                }
                                read
                            };
                            case_targets.insert(occ.0, event.cases.iter().map(read).collect());
                        }
                    }
                });
            }
        }
        if observing == Observations::PerOccurrence {
            let mut slots = Vec::new();
            for stmt in &program.statements {
                crate::bdd::order::events(stmt, &mut |event| {
                    for occ in &event.occurrences {
                        for (who, groups) in event.sees.iter().enumerate() {
                            let Some(groups) = groups else { continue };
                            let count = groups.iter().copied().max().unwrap_or(0) + 1;
                            if count > 1 {
                                slots.push((occ.0, who, count));
                            }
                        }
                    }
                });
            }
            slots.sort_unstable();
            slots.dedup();
            for (occ, who, count) in slots {
                observations.insert((occ, who), kinds.len());
                kinds.push(Kind::Enum(count));
            }
        }
        let widths: Vec<usize> = kinds
            .iter()
            .enumerate()
            .map(|(c, k)| match k {
                Kind::Bool => 1,
                Kind::Enum(n) => bits_for(*n),
                Kind::Int { count, .. } => int_bits_for(*count),
                Kind::OneHot(_) if shared_with.get(c).copied().flatten().is_some() => 0,
                Kind::OneHot(n) => *n,
            })
            .collect();
        let mut int_bits = 0;
        for (k, c) in program.constants.iter().enumerate() {
            if let Kind::Int { lo, count } = kinds[k] {
                if widths[k] > MAX_INT_BITS {
                    return Err(format!(
                        "the story's first announcements bound the int `{}` to {lo}..={}, \
                         {count} values, more than the BDD backend encodes in one int's {MAX_INT_BITS} \
                         bits",
                        c.name,
                        lo + count as i128 - 1
                    ));
                }
                int_bits += widths[k];
            }
        }
        if int_bits > MAX_TOTAL_INT_BITS {
            return Err(format!(
                "the story's ints take {int_bits} bits, more than the {MAX_TOTAL_INT_BITS} the \
                 BDD backend gives its ints in all"
            ));
        }
        let total: usize = widths.iter().sum();
        if 2 * total > MAX_VARS {
            return Err(format!(
                "the story has {total} bits of constants, more than the BDD backend handles ({})",
                MAX_VARS / 2
            ));
        }
        let set = Diagrams::new(2 * total);
        let mut bits = vec![Vec::new(); widths.len()];
        let mut next = 0;
        let mut order = crate::bdd::order::order(program);
        // Each one-hot case's bit, queued before the constant it goes before (None: at
        // the top of the story's constants).
        let mut queued: foldhash::HashMap<Option<usize>, Vec<(usize, usize)>> = Default::default();
        let mut one_hot: foldhash::HashMap<usize, Vec<BddVariable>> = Default::default();
        if observing == Observations::PerOccurrence {
            order.retain(|c| !matches!(kinds[*c], Kind::OneHot(_)));
            let position: foldhash::HashMap<usize, usize> =
                order.iter().enumerate().map(|(at, c)| (*c, at)).collect();
            let mut holders: Vec<&usize> = case_targets.keys().collect();
            holders.sort_unstable();
            for occ in holders {
                for (k, targets) in case_targets[occ].iter().enumerate() {
                    let last = (targets.iter())
                        .filter_map(|t| position.get(t).map(|at| (*at, *t)))
                        .max()
                        .map(|(_, t)| t);
                    queued.entry(last).or_default().push((*occ, k));
                }
                one_hot.insert(*occ, vec![BddVariable::from_index(0); widths[*occ]]);
            }
            let mut observed: Vec<(usize, usize)> =
                observations.iter().map(|(key, z)| (*z, key.0)).collect();
            observed.sort_unstable_by_key(|(z, occ)| (*occ, *z));
            let mut first: Vec<usize> = observed.into_iter().map(|(z, _)| z).collect();
            first.extend(order);
            order = first;
        }
        let is_int = |c: usize| matches!(kinds[c], Kind::Int { .. });
        let mut at = 0;
        while at < order.len() {
            // A run of ints next to each other in the order takes its bits interleaved
            // by place, most significant first (`x₇ y₇ z₇ x₆ y₆ z₆ …`): sums and
            // comparisons of them then read bits of one place together, and What Sum's
            // `x == y + z` is a BDD of a few nodes per place instead of one that
            // remembers x's whole value while it reads y's bits.
            let mut end = at + 1;
            if is_int(order[at]) {
                while end < order.len() && is_int(order[end]) {
                    end += 1;
                }
            }
            let run = &order[at..end];
            // The one-hot cases' bits that go before these constants (those of the
            // cases that change nothing before the first constant that is no
            // observation).
            let mut before: Vec<(usize, usize)> = Vec::new();
            if order[at] < program_constants {
                before.extend(queued.remove(&None).unwrap_or_default());
            }
            for c in run {
                before.extend(queued.remove(&Some(*c)).unwrap_or_default());
            }
            for (occ, k) in before {
                if let Some(slot) = one_hot.get_mut(&occ).and_then(|b| b.get_mut(k)) {
                    *slot = BddVariable::from_index(2 * next);
                    next += 1;
                }
            }
            let top = run.iter().map(|c| widths[*c]).max().unwrap_or(0);
            for place in (0..top).rev() {
                for &c in run {
                    if place < widths[c] {
                        bits[c].push(BddVariable::from_index(2 * next));
                        next += 1;
                    }
                }
            }
            at = end;
        }
        // Any left (an order of observations only): at the end.
        let mut left: Vec<(usize, usize)> = queued.into_values().flatten().collect();
        left.sort_unstable();
        for (occ, k) in left {
            if let Some(slot) = one_hot.get_mut(&occ).and_then(|b| b.get_mut(k)) {
                *slot = BddVariable::from_index(2 * next);
                next += 1;
            }
        }
        for (c, shared) in shared_with.iter().enumerate() {
            let holder = shared.unwrap_or(c);
            if let Some(held) = one_hot.get(&holder) {
                bits[c] = held.clone();
            }
        }
        let all_bits = (0..total).map(|i| BddVariable::from_index(2 * i)).collect();
        let declared_bits = bits.iter().flatten().copied().collect();
        let mut space = Space {
            domain: set.mk_true(),
            set,
            kinds,
            bits,
            all_bits,
            declared_bits,
            partitions: Vec::new(),
            magnitudes_made: Default::default(),
            program_constants,
            observations,
        };
        let mut partitions: Vec<Option<Partition>> = Vec::with_capacity(space.kinds.len());
        for c in 0..space.kinds.len() {
            partitions.push(
                match (space.kinds[c], shared_with.get(c).copied().flatten()) {
                    (Kind::OneHot(_), Some(holder)) => partitions[holder].clone(),
                    (Kind::OneHot(n), None) => Some(space.one_hot_partition(c, n)),
                    _ => space.make_partition(c),
                },
            );
        }
        space.partitions = partitions;
        space.domain = space.make_domain();
        Ok(space)
    }

    /// A one-hot occurrence's partition: case k where its bit is set, the not-yet value
    /// (`cases`) where none is. The cells are disjoint where at most one bit is set,
    /// which every κ that reads them keeps: the occurrence is read only by its event's
    /// changes and observations, after the product conjoined [`Space::exactly_one`]
    /// (each cell a whole one-hot pattern made every definition of the image walk every
    /// case's bit: 3× the time at n = 70).
    fn one_hot_partition(&self, constant: usize, cases: usize) -> Partition {
        let bits = &self.bits[constant];
        let mut cells: Vec<(Integer, Bdd)> = (bits.iter().enumerate())
            .map(|(k, b)| (Integer::Small(k as i128), self.set.mk_literal(*b, true)))
            .collect();
        cells.push((
            Integer::Small(cases as i128),
            self.one_hot_counts(constant).0,
        ));
        Partition::from_disjoint(cells)
    }

    /// Where no bit of the one-hot occurrence `constant` is set, and where exactly one is.
    fn one_hot_counts(&self, constant: usize) -> (Bdd, Bdd) {
        let mut bits = self.bits[constant].clone();
        bits.sort_by_key(|b| std::cmp::Reverse(b.to_index()));
        let (mut none, mut one) = (self.mk_true(), self.mk_false());
        for b in bits {
            let lit = self.set.mk_literal(b, true);
            one = Bdd::if_then_else(&lit, &none, &one);
            none = none.and(&self.set.mk_literal(b, false));
        }
        (none, one)
    }

    /// Where exactly one bit of the one-hot occurrence `constant` is set: one case
    /// happened.
    pub(super) fn exactly_one(&self, constant: usize) -> Bdd {
        self.one_hot_counts(constant).1
    }

    fn make_domain(&self) -> Bdd {
        let mut domain = self.mk_true();
        for (c, kind) in self.kinds.iter().enumerate() {
            match kind {
                Kind::Enum(_) => {
                    domain = domain.and(&self.enum_partition(c).support(&self.mk_false()));
                }
                Kind::OneHot(_) => {
                    let (none, one) = self.one_hot_counts(c);
                    domain = domain.and(&none.or(&one));
                }
                Kind::Int { count, .. } => {
                    domain = domain.and(&self.at_most(&self.bits[c], count - 1));
                }
                Kind::Bool => {}
            }
        }
        domain
    }

    /// Where the unsigned number `bits` hold (most significant first) is at most `k`:
    /// one node per bit.
    fn at_most(&self, bits: &[BddVariable], k: u128) -> Bdd {
        if bits.len() >= 128 || k >= (1u128 << bits.len()) - 1 {
            return self.mk_true();
        }
        let mut below = self.mk_true();
        for (i, bit) in bits.iter().enumerate().rev() {
            let place = bits.len() - 1 - i;
            let lit = self.set.mk_literal(*bit, false);
            below = if (k >> place) & 1 == 1 {
                lit.or(&below)
            } else {
                lit.and(&below)
            };
        }
        below
    }

    /// Where the number `bits` hold lies in `from..=to` (none when `to < from`).
    fn within(&self, bits: &[BddVariable], from: i128, to: i128) -> Bdd {
        if to < from || to < 0 {
            return self.mk_false();
        }
        let upper = self.at_most(bits, to as u128);
        if from <= 0 {
            upper
        } else {
            upper.and_not(&self.at_most(bits, from as u128 - 1))
        }
    }

    /// The most nodes the space's BDDs have taken at once.
    #[cfg(test)]
    pub(super) fn nodes_made(&self) -> usize {
        self.set.nodes_made()
    }

    /// How many nodes the space's BDDs have made, those collected since included.
    #[cfg(test)]
    pub(super) fn nodes_ever(&self) -> u64 {
        self.set.nodes_ever()
    }

    pub(super) fn mk_true(&self) -> Bdd {
        self.set.mk_true()
    }

    pub(super) fn mk_false(&self) -> Bdd {
        self.set.mk_false()
    }

    pub(super) fn mk_bool(&self, value: bool) -> Bdd {
        if value {
            self.mk_true()
        } else {
            self.mk_false()
        }
    }

    pub(super) fn domain(&self) -> &Bdd {
        &self.domain
    }

    pub(super) fn kind(&self, constant: usize) -> Option<Kind> {
        self.kinds.get(constant).copied()
    }

    /// An enum or int constant as a number over its bits: its least value (what the bits
    /// add to), its bits (most significant first) and where they hold one of its values
    /// (None for a bool, or a constant of one value).
    pub(super) fn number(&self, constant: usize) -> Option<(i128, &[BddVariable], Bdd)> {
        let (lo, count) = self.range(constant)?;
        let bits = self.bits.get(constant)?;
        if bits.is_empty() || count == 0 {
            return None;
        }
        Some((lo, bits, self.at_most(bits, count - 1)))
    }

    /// The bit of a bool constant.
    pub(super) fn bool_constant(&self, constant: usize) -> Option<Bdd> {
        match (self.kind(constant)?, self.bits[constant].as_slice()) {
            (Kind::Bool, [bit]) => Some(self.set.mk_var(*bit)),
            _ => None,
        }
    }

    /// An enum constant as a partition: each variant's index with the bits that hold it;
    /// an int constant: each of its values with the bits that hold it.
    pub(super) fn enum_partition(&self, constant: usize) -> Partition {
        match self.partitions.get(constant) {
            Some(Some(p)) => p.clone(),
            _ => self
                .make_partition(constant)
                .unwrap_or_else(|| Partition::from_disjoint(Vec::new())),
        }
    }

    /// An enum or int constant's least value and how many values it has (None for a
    /// bool).
    fn range(&self, constant: usize) -> Option<(i128, u128)> {
        match self.kind(constant)? {
            Kind::Enum(k) => Some((0, k as u128)),
            Kind::Int { lo, count } => Some((lo, count)),
            Kind::Bool | Kind::OneHot(_) => None,
        }
    }

    /// The bits of each value of an enum or int constant (its least first) as a row over
    /// `vars` ([`Diagrams::rows`]: `vars` in the order of the variables, the constant's
    /// bits among them): the value's offset from the least, most significant bit first.
    fn rows_of(&self, constant: usize, vars: &[BddVariable]) -> Option<Vec<u128>> {
        let (_, count) = self.range(constant)?;
        let bits = self.bits.get(constant)?;
        let shift = (bits.iter())
            .map(|bit| Some(vars.len() - 1 - vars.iter().position(|v| v == bit)?))
            .collect::<Option<Vec<usize>>>()?;
        let row = |v: u128| {
            (shift.iter().enumerate()).fold(0, |row, (i, s)| {
                row | ((v >> (bits.len() - 1 - i)) & 1) << s
            })
        };
        Some((0..count).map(row).collect())
    }

    /// The bits of `constants`, in the order of the variables.
    fn vars_of(&self, constants: &[usize]) -> Vec<BddVariable> {
        let mut vars = self.bits_of(constants);
        vars.sort_by_key(|v| v.to_index());
        vars
    }

    fn make_partition(&self, constant: usize) -> Option<Partition> {
        let (lo, _) = self.range(constant)?;
        let vars = self.vars_of(&[constant]);
        let rows = self.rows_of(constant, &vars)?;
        let cells = self.set.rows(&vars, rows.chunks(1));
        let values = (lo..).map(Integer::Small);
        Some(Partition::from_disjoint(values.zip(cells).collect()))
    }

    /// `a op b` for two different int or enum constants with at most [`GRID`] pairs of
    /// values: each pair's value computed as a number, and each value's cell made at once
    /// from the bits of its pairs (`Diagrams::rows`), where the constants' cells would be
    /// conjoined pair by pair and the pairs of one value joined (Sum and Product's
    /// `x * y`: 9 409 pairs). None otherwise, or when a value is beyond i128.
    pub(super) fn grid(&self, op: ArithOp, a: usize, b: usize) -> Option<Partition> {
        let ((lo_a, count_a), (lo_b, count_b)) = (self.range(a)?, self.range(b)?);
        if a == b || count_a.checked_mul(count_b)? > GRID {
            return None;
        }
        let vars = self.vars_of(&[a, b]);
        let (rows_a, rows_b) = (self.rows_of(a, &vars)?, self.rows_of(b, &vars)?);
        let mut pairs: Vec<(i128, u128)> = Vec::with_capacity((count_a * count_b) as usize);
        for (va, row_a) in (lo_a..).zip(&rows_a) {
            for (vb, row_b) in (lo_b..).zip(&rows_b) {
                let Integer::Small(v) = Integer::Small(va).arith(op, &Integer::Small(vb)) else {
                    return None;
                };
                pairs.push((v, row_a | row_b));
            }
        }
        pairs.sort_unstable();
        let (values, rows): (Vec<i128>, Vec<u128>) = pairs.into_iter().unzip();
        // Each value's run of rows, made into its cell.
        let runs: Vec<&[u128]> = (values.chunk_by(|a, b| a == b))
            .scan(0, |at, run| {
                *at += run.len();
                Some(&rows[*at - run.len()..*at])
            })
            .collect();
        let cells = self.set.rows(&vars, runs.into_iter());
        let mut distinct = values;
        distinct.dedup();
        Some(Partition::from_disjoint(
            distinct
                .into_iter()
                .map(Integer::Small)
                .zip(cells)
                .collect(),
        ))
    }

    /// Every unprimed bit in declaration order (see [`Space::world`]).
    pub(super) fn declared_bits(&self) -> &[BddVariable] {
        &self.declared_bits
    }

    /// The bits of the given constants.
    pub(super) fn bits_of(&self, constants: &[usize]) -> Vec<BddVariable> {
        constants
            .iter()
            .flat_map(|c| self.bits[*c].iter().copied())
            .collect()
    }

    /// How many worlds `set` holds (its primed bits ignored); None when there are 2^100
    /// or more.
    pub(super) fn count(&self, set: &Bdd) -> Option<u128> {
        set.exists(&self.all_primed()).count(&self.all_bits)
    }

    /// `bits` marked in a table indexed by variable.
    pub(super) fn mark(&self, bits: &[BddVariable]) -> Vec<bool> {
        let mut marked = vec![false; 2 * self.all_bits.len()];
        for bit in bits {
            if let Some(m) = marked.get_mut(bit.to_index()) {
                *m = true;
            }
        }
        marked
    }

    /// The primed copies of `bits`.
    pub(super) fn primed(bits: &[BddVariable]) -> Vec<BddVariable> {
        bits.iter()
            .map(|b| BddVariable::from_index(b.to_index() + 1))
            .collect()
    }

    /// The conjunction of `bits`, to quantify them ([`Bdd::exists`]).
    pub(super) fn cube(&self, bits: &[BddVariable]) -> Bdd {
        self.set.cube(bits)
    }

    /// What `K_A` quantifies when A learned only constants: the `hidden` bits and every
    /// primed bit, that is every variable but the bits A sees (given as their negated
    /// cube: one node per bit seen, where the cube of the others would take a new node
    /// for nearly every variable, for each agent). κ tests no primed bit, so quantifying
    /// them changes nothing, but below the last bit A sees every variable is quantified,
    /// and the BDD package answers that by a search for one satisfying valuation.
    pub(super) fn hidden_cube(&self, hidden: &[BddVariable]) -> Bdd {
        // Every variable but the bits A sees: the negated cube of those.
        let hidden = self.mark(hidden);
        let seen: Vec<BddVariable> = (self.all_bits.iter())
            .filter(|b| !hidden[b.to_index()])
            .copied()
            .collect();
        self.cube(&seen).not()
    }

    /// The unprimed bits `hidden` does not mark (what an agent sees), in variable order.
    pub(super) fn unhidden_bits(&self, hidden: &[bool]) -> Vec<BddVariable> {
        (self.all_bits.iter())
            .filter(|b| !hidden.get(b.to_index()).copied().unwrap_or(false))
            .copied()
            .collect()
    }

    /// The literal `var` (or its negation).
    pub(super) fn literal(&self, var: BddVariable, value: bool) -> Bdd {
        self.set.mk_literal(var, value)
    }

    /// Every primed bit, as a cube.
    pub(super) fn all_primed(&self) -> Bdd {
        self.cube(&Space::primed(&self.all_bits))
    }

    /// `bdd` with each of `bits` renamed to its primed copy. `bdd` must not mention primed
    /// bits: each sits right after its bit, so the renaming keeps the variable order.
    pub(super) fn prime(&self, bdd: &Bdd, bits: &[BddVariable]) -> Bdd {
        bdd.rename_to_next(&self.mark(bits))
    }

    /// A world as a valuation of every variable (primed copies false).
    pub(super) fn valuation(&self, world: &[Value]) -> BddValuation {
        let mut valuation = BddValuation::all_false(self.set.num_vars());
        for (c, value) in world.iter().enumerate() {
            let Some(bits) = self.bits.get(c) else {
                continue;
            };
            let lo = match self.kinds.get(c) {
                Some(Kind::Int { lo, .. }) => *lo,
                _ => 0,
            };
            let n = match value {
                Value::Bool(b) => u64::from(*b),
                Value::Int(i) => u64::try_from(i128::from(*i) - lo).unwrap_or(0),
            };
            if let Some(Kind::OneHot(cases)) = self.kinds.get(c) {
                // The bit of the case that happened (shared bits: never cleared here).
                if let Some(bit) = bits.get(n as usize).filter(|_| (n as usize) < *cases) {
                    valuation.set_value(*bit, true);
                }
                continue;
            }
            for (i, bit) in bits.iter().enumerate() {
                valuation.set_value(*bit, (n >> (bits.len() - 1 - i)) & 1 == 1);
            }
        }
        valuation
    }

    /// The world whose unprimed bits are `values` (in the order of
    /// [`Space::declared_bits`]).
    pub(super) fn world(&self, values: &[bool]) -> World {
        let mut at = 0;
        let mut world = Vec::with_capacity(self.kinds.len());
        for (kind, bits) in self.kinds.iter().zip(&self.bits) {
            let mut n: i64 = 0;
            for v in values.iter().skip(at).take(bits.len()) {
                n = 2 * n + i64::from(*v);
            }
            if let Kind::OneHot(cases) = kind {
                let hot = (values.iter().skip(at).take(bits.len())).position(|v| *v);
                n = hot.unwrap_or(*cases) as i64;
            }
            at += bits.len();
            world.push(match kind {
                Kind::Bool => Value::Bool(n == 1),
                Kind::OneHot(_) => Value::Int(n),
                Kind::Enum(_) => Value::Int(n),
                Kind::Int { lo, .. } => {
                    Value::Int(i64::try_from(*lo + i128::from(n)).unwrap_or(i64::MAX))
                }
            });
        }
        world.truncate(self.program_constants);
        World(world)
    }

    /// How many constants the space holds, observations included.
    pub(super) fn constants(&self) -> usize {
        self.kinds.len()
    }

    /// The observation that holds the group of cases `who` saw at the occurrence `occ`
    /// (None: the histories are kept, or `who` sees nothing of that event).
    pub(super) fn observation(&self, occ: usize, who: usize) -> Option<usize> {
        self.observations.get(&(occ, who)).copied()
    }

    /// The bits of every observation, as a cube.
    pub(super) fn observation_bits(&self) -> Vec<BddVariable> {
        (self.program_constants..self.kinds.len())
            .flat_map(|c| self.bits[c].iter().copied())
            .collect()
    }

    /// The worlds whose enum constants all hold an index of at most `m` and whose ints
    /// all hold a value of magnitude at most `m` (every world when there is no enum or int
    /// constant; none when `m` is negative and there is one).
    pub(super) fn magnitude_at_most(&self, m: i128) -> Bdd {
        if let Some(made) = self.magnitudes_made.borrow().get(&m) {
            return made.clone();
        }
        let within = self.make_magnitude_at_most(m);
        self.magnitudes_made.borrow_mut().insert(m, within.clone());
        within
    }

    fn make_magnitude_at_most(&self, m: i128) -> Bdd {
        let mut within = self.mk_true();
        for (c, kind) in self.kinds.iter().enumerate() {
            let (lo, top) = match kind {
                Kind::Enum(n) => (0, *n as i128 - 1),
                Kind::Int { lo, count } => (*lo, *lo + *count as i128 - 1),
                // Occurrences, fixed at their not-yet value where worlds are listed.
                Kind::Bool | Kind::OneHot(_) => continue,
            };
            // The values in -m..=m, as numbers the bits hold (value minus lo).
            let (from, to) = ((-m).max(lo) - lo, m.min(top) - lo);
            within = within.and(&self.within(&self.bits[c], from, to));
        }
        within
    }

    /// The magnitudes some enum or int constant can hold, increasing (a world's magnitude
    /// is one of them).
    pub(super) fn magnitudes(&self) -> Vec<i128> {
        let mut all = std::collections::BTreeSet::new();
        for kind in &self.kinds {
            let (lo, count) = match kind {
                Kind::Enum(n) => (0, *n as i128),
                Kind::Int { lo, count } => (*lo, *count as i128),
                Kind::Bool | Kind::OneHot(_) => continue,
            };
            for v in lo..lo + count {
                all.insert(v.abs());
            }
        }
        all.into_iter().collect()
    }

    /// The largest magnitude an enum or int constant can hold (None: there is none).
    pub(super) fn max_magnitude(&self) -> Option<i64> {
        self.kinds
            .iter()
            .filter_map(|k| match k {
                Kind::Enum(n) => Some(*n as i128 - 1),
                Kind::Int { lo, count } => Some(lo.abs().max((lo + *count as i128 - 1).abs())),
                Kind::Bool | Kind::OneHot(_) => None,
            })
            .max()
            .map(|m| i64::try_from(m).unwrap_or(i64::MAX))
    }
}

#[cfg(test)]
mod tests {
    use super::bits_for;

    #[test]
    fn bits_cover_the_indices() {
        assert_eq!(bits_for(0), 0);
        assert_eq!(bits_for(1), 0);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(3), 2);
        assert_eq!(bits_for(4), 2);
        assert_eq!(bits_for(5), 3);
        assert_eq!(bits_for(9), 4);
    }
}
