//! Expressions evaluated over many worlds at once: in chunks of worlds, column by
//! column, with knowledge operators answered from per-group tables.
//!
//! `K_A φ` in a state holds at a world when φ holds in every world of the state that A
//! cannot tell from it. A's view of a world (the values of what A learned) does not
//! depend on the state, so the whole universe is grouped by it once ([`Groups`]); φ is
//! evaluated once over the state, and each group records whether all of its worlds in
//! the state satisfy it (a group with none does, vacuously). `knows_value(A, ē)` records
//! whether they all give ē one value. Reading the operator at any world is then a look-up
//! of its group. The tables are memoised per (operator, state) for the running
//! statement.

use std::rc::Rc;
use std::sync::Arc;

use super::direct::Direct;
use super::{ExplicitBackend, Flags, Groups, Learned, State, Universe, WorldIds};
use crate::driver::Backend;
use crate::driver::Origin;
use crate::ir::{ArithOp, Expr, ExprKind, GroupOp, LogicOp, Ty};
use crate::{Failure, FastMap};

/// Worlds evaluated at once.
pub(super) const CHUNK: usize = 4096;

/// The values of an expression in a chunk of worlds.
#[derive(Clone)]
pub(super) enum Col {
    Int(Vec<i128>),
    Bool(Vec<bool>),
}

/// The values of shared expressions (changed constants' terms, knowledge-free) in the
/// last chunk of worlds evaluated: a term that later terms read several times is
/// evaluated once per chunk.
#[derive(Default)]
pub(super) struct SharedCols {
    /// The universe and the chunk the values are of.
    at: Option<(*const Universe, Vec<u32>)>,
    cols: FastMap<*const Expr, (Arc<Expr>, Col)>,
}

impl SharedCols {
    fn get(&self, universe: &Rc<Universe>, chunk: &[u32], e: *const Expr) -> Option<Col> {
        match &self.at {
            Some((u, c)) if *u == Rc::as_ptr(universe) && c.as_slice() == chunk => {
                self.cols.get(&e).map(|(_, col)| col.clone())
            }
            _ => None,
        }
    }

    fn put(&mut self, universe: &Rc<Universe>, chunk: &[u32], e: &Arc<Expr>, col: Col) {
        let same = matches!(&self.at,
            Some((u, c)) if *u == Rc::as_ptr(universe) && c.as_slice() == chunk);
        if !same {
            self.at = Some((Rc::as_ptr(universe), chunk.to_vec()));
            self.cols.clear();
        }
        self.cols.insert(Arc::as_ptr(e), (e.clone(), col));
    }
}

impl Col {
    pub(super) fn ints(self) -> Result<Vec<i128>, Failure> {
        match self {
            Col::Int(v) => Ok(v),
            Col::Bool(v) => Ok(v.into_iter().map(i128::from).collect()),
        }
    }

    pub(super) fn bools(self) -> Result<Vec<bool>, Failure> {
        match self {
            Col::Bool(v) => Ok(v),
            Col::Int(_) => Err(internal("a boolean was expected, an int was found")),
        }
    }
}

pub(super) fn internal(what: &str) -> Failure {
    Failure::Unsupported(format!(
        "internal error in the explicit-worlds backend: {what} (please report it)"
    ))
}

impl ExplicitBackend {
    /// The values of `e` over `worlds` (universe indices, sorted), its knowledge operators
    /// evaluated in `state`, chunk by chunk.
    pub(super) fn eval_bools(
        &mut self,
        e: &Expr,
        worlds: &WorldIds,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Flags, Failure> {
        let mut out = Flags::with_capacity(worlds.len());
        for chunk in worlds.chunks() {
            self.check_deadline()?;
            out.extend_from_slice(&self.eval(e, &chunk, state, saved)?.bools()?);
        }
        Ok(out)
    }

    /// Whether formula `e` holds at world `w` of `state`: its connectives (`not`,
    /// `and`, `or`, `->`, `<->`) one side at a time, from the left unless the right one
    /// alone is a literal (read directly from the universe's columns), and the other side
    /// left out when the first decides and leaving it out hides no error (an undefined
    /// probability, a name of an event not yet happened, a checkpoint, a quantifier:
    /// the reference evaluates them all).
    pub(super) fn holds_at(
        &mut self,
        e: &Expr,
        w: u32,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<bool, Failure> {
        if let Some(v) = self.literal_at(e, w) {
            return Ok(v);
        }
        match &e.kind {
            ExprKind::Not(a) => Ok(!self.holds_at(a, w, state, saved)?),
            ExprKind::Logic(op, a, b) => {
                let swap = self.literal_at(a, w).is_none() && self.literal_at(b, w).is_some();
                let (first, second) = if swap { (b, a) } else { (a, b) };
                let x = self.holds_at(first, w, state, saved)?;
                // The value when `x` alone decides.
                let decided = match (op, swap) {
                    (LogicOp::And, _) => (!x).then_some(false),
                    (LogicOp::Or, _) => x.then_some(true),
                    (LogicOp::Implies, false) => (!x).then_some(true),
                    (LogicOp::Implies, true) => x.then_some(true),
                    (LogicOp::Iff, _) => None,
                };
                if let Some(v) = decided
                    && !(self.may_fail && may_fail(second))
                {
                    return Ok(v);
                }
                let y = self.holds_at(second, w, state, saved)?;
                let (l, r) = if swap { (y, x) } else { (x, y) };
                Ok(op.holds(l, r))
            }
            _ => {
                let col = self.eval(e, &[w], state, saved)?.bools()?;
                col.first()
                    .copied()
                    .ok_or_else(|| internal("no value at the actual world"))
            }
        }
    }

    /// The value at universe world `w` of a literal (`true`, `false`, a bool constant,
    /// its negation), read from its column; None for any other formula.
    fn literal_at(&self, e: &Expr, w: u32) -> Option<bool> {
        match &e.kind {
            ExprKind::Bool(b) => Some(*b),
            ExprKind::Const(c) if self.program.constants[c.0].ty == Ty::Bool => {
                Some(self.universe.columns[c.0].get(w as usize) != 0)
            }
            ExprKind::Not(a) => match &a.kind {
                ExprKind::Const(_) | ExprKind::Bool(_) => self.literal_at(a, w).map(|v| !v),
                _ => None,
            },
            _ => None,
        }
    }

    /// The values of `e` in a chunk of worlds.
    pub(super) fn eval(
        &mut self,
        e: &Expr,
        chunk: &[u32],
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Col, Failure> {
        let n = chunk.len();
        Ok(match &e.kind {
            ExprKind::Latest(_) => return Err(Failure::unresolved_event()),
            ExprKind::Shared(inner) => {
                let key = Arc::as_ptr(inner);
                if let Some(col) = self.shared.get(&self.universe, chunk, key) {
                    return Ok(col);
                }
                let col = self.eval(inner, chunk, state, saved)?;
                self.shared.put(&self.universe, chunk, inner, col.clone());
                col
            }
            ExprKind::Int(v) => Col::Int(vec![i128::from(*v); n]),
            ExprKind::Bool(b) => Col::Bool(vec![*b; n]),
            ExprKind::Const(c) => {
                let column = &self.universe.columns[c.0];
                if self.program.constants[c.0].ty == Ty::Bool {
                    Col::Bool(chunk.iter().map(|&w| column.get(w as usize) != 0).collect())
                } else {
                    Col::Int(column.values_at(chunk))
                }
            }
            ExprKind::Neg(a) => {
                let a = self.eval(a, chunk, state, saved)?.ints()?;
                Col::Int(a.into_iter().map(|x| -x).collect())
            }
            ExprKind::Not(a) => {
                let a = self.eval(a, chunk, state, saved)?.bools()?;
                Col::Bool(a.into_iter().map(|x| !x).collect())
            }
            ExprKind::Arith(op, a, b) => {
                let mut a = self.eval(a, chunk, state, saved)?.ints()?;
                let b = self.eval(b, chunk, state, saved)?.ints()?;
                for (x, y) in a.iter_mut().zip(b) {
                    *x = arith(*op, *x, y)?;
                }
                Col::Int(a)
            }
            ExprKind::Cmp(op, a, b) => {
                let a = self.eval(a, chunk, state, saved)?.ints()?;
                let b = self.eval(b, chunk, state, saved)?.ints()?;
                let op = *op;
                Col::Bool(
                    a.into_iter()
                        .zip(b)
                        .map(|(x, y)| op.holds(&x, &y))
                        .collect(),
                )
            }
            ExprKind::Logic(op, a, b) => {
                let a = self.eval(a, chunk, state, saved)?.bools()?;
                let b = self.eval(b, chunk, state, saved)?.bools()?;
                let op = *op;
                Col::Bool(a.into_iter().zip(b).map(|(x, y)| op.holds(x, y)).collect())
            }
            ExprKind::Ite(c, a, b) => {
                let c = self.eval(c, chunk, state, saved)?.bools()?;
                match (
                    self.eval(a, chunk, state, saved)?,
                    self.eval(b, chunk, state, saved)?,
                ) {
                    (Col::Bool(a), Col::Bool(b)) => {
                        Col::Bool((0..n).map(|i| if c[i] { a[i] } else { b[i] }).collect())
                    }
                    (a, b) => {
                        let (a, b) = (a.ints()?, b.ints()?);
                        Col::Int((0..n).map(|i| if c[i] { a[i] } else { b[i] }).collect())
                    }
                }
            }
            ExprKind::In { tuple, set } => {
                let tuple = tuple
                    .iter()
                    .map(|t| self.eval(t, chunk, state, saved)?.ints())
                    .collect::<Result<Vec<_>, _>>()?;
                let mut found = vec![false; n];
                for item in set {
                    let mut all = vec![true; n];
                    for (t, x) in tuple.iter().zip(item) {
                        let x = self.eval(x, chunk, state, saved)?.ints()?;
                        for i in 0..n {
                            all[i] &= t[i] == x[i];
                        }
                    }
                    for i in 0..n {
                        found[i] |= all[i];
                    }
                }
                Col::Bool(found)
            }
            ExprKind::Knows { agent, formula } => {
                let table = self.knows_table(agent.0, formula, state, saved)?;
                let groups = self.groups(state, agent.0)?;
                Col::Bool(lookup(&table, &groups, chunk))
            }
            ExprKind::Group {
                op,
                agents,
                formula,
            } => {
                let agents: Vec<usize> = agents.iter().map(|a| a.0).collect();
                Col::Bool(self.group(*op, &agents, formula, chunk, state, saved)?)
            }
            ExprKind::KnowsValue { agent, exprs } => {
                let key = (1, exprs.as_ptr() as usize, agent.0, state.id);
                let table = match self.memo.get(&key, exprs, &[]) {
                    Some(t) => t,
                    None => {
                        let worlds = state.worlds.clone();
                        let table = Rc::new(self.agree(agent.0, exprs, worlds, state, saved)?);
                        self.memo.insert(key, exprs, &[], table.clone());
                        table
                    }
                };
                let groups = self.groups(state, agent.0)?;
                Col::Bool(lookup(&table, &groups, chunk))
            }
            ExprKind::Believes { agent, formula } => {
                let key = (
                    3,
                    std::ptr::from_ref(&**formula) as usize,
                    agent.0,
                    state.id,
                );
                let made_for = std::slice::from_ref(&**formula);
                let table = match self.memo.get(&key, made_for, &[]) {
                    Some(t) => t,
                    None => {
                        let groups = self.groups(state, agent.0)?;
                        let best = self.most_plausible(state, agent.0)?;
                        let table =
                            Rc::new(self.all_in_group(&groups, formula, &best, state, saved)?);
                        self.memo.insert(key, made_for, &[], table.clone());
                        table
                    }
                };
                let groups = self.groups(state, agent.0)?;
                Col::Bool(lookup(&table, &groups, chunk))
            }
            ExprKind::BelievesValue { agent, exprs } => {
                let key = (4, exprs.as_ptr() as usize, agent.0, state.id);
                let table = match self.memo.get(&key, exprs, &[]) {
                    Some(t) => t,
                    None => {
                        let best = self.most_plausible(state, agent.0)?;
                        let table = Rc::new(self.agree(agent.0, exprs, best, state, saved)?);
                        self.memo.insert(key, exprs, &[], table.clone());
                        table
                    }
                };
                let groups = self.groups(state, agent.0)?;
                Col::Bool(lookup(&table, &groups, chunk))
            }
            ExprKind::Chance { .. } => Col::Bool(self.chance(e, chunk, state, saved)?),
            ExprKind::At { checkpoint, body } => {
                let Some(Some(then)) = saved.get(checkpoint.0) else {
                    return Err(internal("`at` names a checkpoint the run has not passed"));
                };
                let then = then.clone();
                self.eval(body, chunk, &then, saved)?
            }
            ExprKind::Announced {
                agents,
                whether,
                formula,
                body,
            } => Col::Bool(self.announced(agents, *whether, formula, body, chunk, state, saved)?),
            ExprKind::Quantified { .. } => {
                return Err(Failure::Unsupported(
                    "the explicit-worlds backend cannot evaluate a quantifier over constants \
                     (`forall p: …`)"
                        .into(),
                ));
            }
        })
    }

    /// `[G ! φ] ψ` / `[G ?! φ] ψ` in a chunk of worlds: ψ in the state after the
    /// announcement (see [`ExprKind::Announced`]).
    #[allow(clippy::too_many_arguments)]
    fn announced(
        &mut self,
        agents: &[crate::ir::CharId],
        whether: bool,
        formula: &Expr,
        body: &Expr,
        chunk: &[u32],
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Vec<bool>, Failure> {
        use crate::driver::Semantics;
        let here = self.eval(formula, chunk, state, saved)?.bools()?;
        let set = Semantics::formula(self, formula, state, saved)?;
        // ψ is read only where the announcement can be made (a probability in ψ may be
        // undefined elsewhere): at the worlds where φ holds for `!`, at each world in the
        // state of its answer for `?!`.
        let at = |holds: bool| -> (Vec<usize>, Vec<u32>) {
            (chunk.iter().zip(&here).enumerate())
                .filter(|(_, (_, h))| **h == holds)
                .map(|(k, (&w, _))| (k, w))
                .unzip()
        };
        let ((yes_at, yes), (no_at, no)) = (at(true), at(false));
        let mut out = vec![true; chunk.len()];
        let mut put = |at: &[usize], values: Vec<bool>| {
            for (&k, v) in at.iter().zip(values) {
                out[k] = v;
            }
        };
        if agents.is_empty() {
            let after = self.restrict(state, set.clone(), Origin::Written)?;
            put(&yes_at, self.eval(body, &yes, &after, saved)?.bools()?);
            if whether {
                let not = Semantics::not(self, &set);
                let other = self.restrict(state, not, Origin::Written)?;
                put(&no_at, self.eval(body, &no, &other, saved)?.bools()?);
            }
        } else {
            // Whether φ holds, at the state's worlds and at the chunk's (which may be
            // worlds an event made since, when the formula is read `at` a checkpoint).
            let mut bits = Rc::unwrap_or_clone(self.universe_bits(&set));
            for (&w, &h) in chunk.iter().zip(&here) {
                bits.set(w as usize, h);
            }
            let bits = Rc::new(bits);
            let mut after = state.clone();
            for &who in agents {
                after = self.learn_flags(&after, who, bits.clone());
            }
            put(&yes_at, self.eval(body, &yes, &after, saved)?.bools()?);
            if whether {
                put(&no_at, self.eval(body, &no, &after, saved)?.bools()?);
            }
        }
        Ok(out)
    }

    /// Whether the worlds of each of `agent`'s groups among `worlds` (of `state`) all
    /// give `exprs` one value.
    fn agree(
        &mut self,
        agent: usize,
        exprs: &[Expr],
        worlds: Rc<WorldIds>,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Vec<bool>, Failure> {
        let groups = self.groups(state, agent)?;
        if self.names_every_constant(exprs) {
            // The values of every constant tell the worlds apart: a group agrees when it
            // holds at most one world of the state.
            let mut seen = vec![0u8; groups.count];
            for chunk in worlds.chunks() {
                self.check_deadline()?;
                for w in chunk.iter() {
                    let g = &mut seen[groups.of(*w)];
                    *g = (*g).saturating_add(1);
                }
            }
            return Ok(seen.into_iter().map(|n| n <= 1).collect());
        }
        let arity = exprs.len();
        let mut agree = vec![true; groups.count];
        let mut first: Vec<i128> = vec![0; groups.count * arity];
        let mut seen = vec![false; groups.count];
        for chunk in worlds.chunks() {
            self.check_deadline()?;
            let values = exprs
                .iter()
                .map(|x| self.eval(x, &chunk, state, saved)?.ints())
                .collect::<Result<Vec<_>, _>>()?;
            for (i, w) in chunk.iter().enumerate() {
                let g = groups.of(*w);
                if !agree[g] {
                    continue;
                }
                let slot = &mut first[g * arity..(g + 1) * arity];
                if seen[g] {
                    if values.iter().zip(slot.iter()).any(|(v, f)| v[i] != *f) {
                        agree[g] = false;
                    }
                } else {
                    seen[g] = true;
                    for (f, v) in slot.iter_mut().zip(&values) {
                        *f = v[i];
                    }
                }
            }
        }
        Ok(agree)
    }

    /// Whether `exprs` are the constants themselves, every one of them.
    fn names_every_constant(&self, exprs: &[Expr]) -> bool {
        let mut named = vec![false; self.program.constants.len()];
        for e in exprs {
            match e.kind {
                ExprKind::Const(c) => named[c.0] = true,
                _ => return false,
            }
        }
        named.into_iter().all(|n| n)
    }

    /// Whether `agent` knows `formula` in `state`, per group of `agent`'s view: all the
    /// group's worlds in the state satisfy it. Memoised for the running statement.
    fn knows_table(
        &mut self,
        agent: usize,
        formula: &Expr,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Rc<Vec<bool>>, Failure> {
        let key = (0, std::ptr::from_ref(formula) as usize, agent, state.id);
        let made_for = std::slice::from_ref(formula);
        if let Some(t) = self.memo.get(&key, made_for, &[]) {
            return Ok(t);
        }
        let groups = self.groups(state, agent)?;
        let worlds = state.worlds.clone();
        let table = Rc::new(self.all_in_group(&groups, formula, &worlds, state, saved)?);
        self.memo.insert(key, made_for, &[], table.clone());
        Ok(table)
    }

    /// Per group: whether `formula` holds in every world of the group among `worlds`
    /// (of `state`).
    fn all_in_group(
        &mut self,
        groups: &Groups,
        formula: &Expr,
        worlds: &WorldIds,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Vec<bool>, Failure> {
        let mut good = vec![true; groups.count];
        for chunk in worlds.chunks() {
            self.check_deadline()?;
            let phi = self.eval(formula, &chunk, state, saved)?.bools()?;
            for (w, holds) in chunk.iter().zip(phi) {
                if !holds {
                    good[groups.of(*w)] = false;
                }
            }
        }
        Ok(good)
    }

    /// Group knowledge of `agents` (sorted, at least one) in a chunk of worlds.
    fn group(
        &mut self,
        op: GroupOp,
        agents: &[usize],
        formula: &Expr,
        chunk: &[u32],
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Vec<bool>, Failure> {
        let tag = match op {
            GroupOp::Everyone => 2,
            GroupOp::Common => 3,
            GroupOp::Distributed => 4,
        };
        let key = (tag, std::ptr::from_ref(formula) as usize, 0, state.id);
        let made_for = std::slice::from_ref(formula);
        match op {
            GroupOp::Everyone => {
                let mut out = vec![true; chunk.len()];
                for &a in agents {
                    let table = self.knows_table(a, formula, state, saved)?;
                    let groups = self.groups(state, a)?;
                    for (o, k) in out.iter_mut().zip(lookup(&table, &groups, chunk)) {
                        *o &= k;
                    }
                }
                Ok(out)
            }
            GroupOp::Distributed => {
                let groups = self.joint_groups(state, agents)?;
                let table = match self.memo.get(&key, made_for, agents) {
                    Some(t) => t,
                    None => {
                        let worlds = state.worlds.clone();
                        let t =
                            Rc::new(self.all_in_group(&groups, formula, &worlds, state, saved)?);
                        self.memo.insert(key, made_for, agents, t.clone());
                        t
                    }
                };
                Ok(lookup(&table, &groups, chunk))
            }
            GroupOp::Common => {
                // Per member, per group: whether every world of the group in the state
                // lies in a component (of the members' steps) where the formula always
                // holds. Stored one member after the other.
                let all: Vec<Rc<Groups>> = agents
                    .iter()
                    .map(|&a| self.groups(state, a))
                    .collect::<Result<_, _>>()?;
                let offsets: Vec<usize> = all
                    .iter()
                    .scan(0, |acc, g| {
                        let at = *acc;
                        *acc += g.count;
                        Some(at)
                    })
                    .collect();
                let table = match self.memo.get(&key, made_for, agents) {
                    Some(t) => t,
                    None => {
                        let t = Rc::new(self.common_table(&all, &offsets, formula, state, saved)?);
                        self.memo.insert(key, made_for, agents, t.clone());
                        t
                    }
                };
                let mut out = vec![true; chunk.len()];
                for (groups, offset) in all.iter().zip(&offsets) {
                    for (o, w) in out.iter_mut().zip(chunk) {
                        *o &= table[offset + groups.of(*w)];
                    }
                }
                Ok(out)
            }
        }
    }

    /// For common knowledge: the members' groups (`all`, numbered one member after the
    /// other from `offsets`) joined into components by the worlds of the state they share;
    /// a group is good when its component has no world of the state where `formula` fails.
    fn common_table(
        &mut self,
        all: &[Rc<Groups>],
        offsets: &[usize],
        formula: &Expr,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Vec<bool>, Failure> {
        let total = all.iter().map(|g| g.count).sum::<usize>();
        let mut parent: Vec<usize> = (0..total).collect();
        fn find(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        let worlds = state.worlds.clone();
        for w in worlds.iter() {
            let first = find(&mut parent, all[0].of(w));
            for (groups, offset) in all.iter().zip(offsets).skip(1) {
                let other = find(&mut parent, offset + groups.of(w));
                parent[other] = first;
            }
        }
        let mut good = vec![true; total];
        for chunk in worlds.chunks() {
            self.check_deadline()?;
            let phi = self.eval(formula, &chunk, state, saved)?.bools()?;
            for (w, holds) in chunk.iter().zip(phi) {
                if !holds {
                    let root = find(&mut parent, all[0].of(*w));
                    good[root] = false;
                }
            }
        }
        Ok((0..total).map(|g| good[find(&mut parent, g)]).collect())
    }

    /// The groups of worlds that agree on everything any of `agents` learned in `state`.
    fn joint_groups(&mut self, state: &Rc<State>, agents: &[usize]) -> Result<Rc<Groups>, Failure> {
        let key: Vec<(usize, u64)> = agents
            .iter()
            .map(|&a| (a, state.minds.list(a, state.minds.learned[a].len())))
            .collect();
        let (lo, hi) = self.span(state);
        if let Some(g) = self.joint.get(&key).filter(|g| g.covers(lo, hi)) {
            return Ok(g.clone());
        }
        let mut joint = self.groups(state, agents[0])?;
        for &a in &agents[1..] {
            let other = self.groups(state, a)?;
            let mut map: FastMap<(u32, u32), u32> = FastMap::default();
            let gid: Vec<u32> = (lo..hi)
                .map(|w| {
                    let (x, y) = (joint.of(w as u32) as u32, other.of(w as u32) as u32);
                    let fresh = map.len() as u32;
                    *map.entry((x, y)).or_insert(fresh)
                })
                .collect();
            joint = Rc::new(Groups::new_at(lo, gid, map.len()));
        }
        self.joint.insert(key, joint.clone());
        Ok(joint)
    }

    /// `agent`'s groups as what it learned in `state` makes them, computed once per list
    /// of things learned, over the state's span of the universe ([`Self::span`]).
    pub(super) fn groups(
        &mut self,
        state: &Rc<State>,
        agent: usize,
    ) -> Result<Rc<Groups>, Failure> {
        let learned = &state.minds.learned[agent];
        let (lo, hi) = self.span(state);
        let key = (agent, learned.len(), state.minds.list(agent, learned.len()));
        if let Some(g) = self.cached_view(&key, lo, hi) {
            return Ok(g);
        }
        // Refining the groups of the longest list of things learned already grouped (the
        // lists only grow), or of none.
        let (start, mut groups) = (1..learned.len())
            .rev()
            .find_map(|k| {
                let key = (agent, k, state.minds.list(agent, k));
                self.cached_view(&key, lo, hi).map(|g| (k, g))
            })
            .unwrap_or_else(|| (0, Rc::new(Groups::one_at(lo, hi - lo))));
        let (lo, hi) = groups.span();
        let dom = if learned.len() == start {
            Vec::new()
        } else {
            self.universe.ranges().to_vec()
        };
        for item in &learned[start..] {
            let (min, max) = Self::key_range(&dom, item);
            let split =
                Rc::unwrap_or_clone(groups).refined(min, max, |f| self.keys(item, lo, hi, f))?;
            groups = Rc::new(split);
        }
        self.cache_view(key, groups.clone());
        Ok(groups)
    }

    /// The universe worlds a state's groups are made over: the state's own span (its
    /// least world to its greatest), or the whole universe when the story reads a state
    /// at worlds made after it (`at(c, …)`).
    pub(super) fn span(&self, state: &State) -> (usize, usize) {
        match self.local_views {
            true => state.worlds.bounds(),
            false => (0, self.universe.len),
        }
    }

    /// A cached view of `key` that covers the worlds `lo..hi`.
    pub(super) fn cached_view(
        &self,
        key: &(usize, usize, u64),
        lo: usize,
        hi: usize,
    ) -> Option<Rc<Groups>> {
        let found = self.views.get(key)?;
        found.iter().rev().find(|g| g.covers(lo, hi)).cloned()
    }

    /// Keeps `groups` as the view of `key` (with at most three others over other spans).
    pub(super) fn cache_view(&mut self, key: (usize, usize, u64), groups: Rc<Groups>) {
        let kept = self.views.entry(key).or_default();
        let (lo, hi) = groups.span();
        kept.retain(|g| {
            let (from, to) = g.span();
            !(lo <= from && to <= hi)
        });
        kept.push(groups);
        if kept.len() > 4 {
            kept.remove(0);
        }
    }

    /// Calls `f(w - lo, key)` with the value of a learned item in every universe world
    /// `w` of `lo..hi`, in order.
    fn keys(
        &mut self,
        item: &Learned,
        lo: usize,
        hi: usize,
        f: &mut dyn FnMut(usize, i128),
    ) -> Result<(), Failure> {
        match item {
            Learned::Const(c) => {
                let mut values = Vec::with_capacity(CHUNK);
                for start in (lo..hi).step_by(CHUNK) {
                    let end = (start + CHUNK).min(hi);
                    values.clear();
                    self.universe.columns[*c].values_in(start, end, &mut values);
                    for (i, v) in values.iter().enumerate() {
                        f(start - lo + i, i128::from(*v));
                    }
                }
            }
            Learned::Set(bits) => {
                for w in lo..hi {
                    f(w - lo, i128::from(self.learned_bit(bits, w)));
                }
            }
            Learned::Classes(c) => {
                for w in lo..hi {
                    f(w - lo, i128::from(self.class_of(c, w)));
                }
            }
            Learned::Expr(e) => {
                let universe = self.universe.clone();
                if let Some(direct) = Direct::of(e, &universe.columns, universe.ranges()) {
                    let mut values = Vec::with_capacity(CHUNK);
                    for start in (lo..hi).step_by(CHUNK) {
                        self.check_deadline()?;
                        direct.values(start, (start + CHUNK).min(hi), &mut values);
                        for (i, v) in values.iter().enumerate() {
                            f(start - lo + i, i128::from(*v));
                        }
                    }
                    return Ok(());
                }
                // A learned expression has no knowledge operator: any state will do.
                let all = self.scratch();
                let mut chunk = Vec::with_capacity(CHUNK);
                for start in (lo..hi).step_by(CHUNK) {
                    self.check_deadline()?;
                    chunk.clear();
                    chunk.extend(start as u32..(start + CHUNK).min(hi) as u32);
                    let values = self.eval(e, &chunk, &all, &[])?.ints()?;
                    for (w, v) in chunk.iter().zip(values) {
                        f(*w as usize - lo, v);
                    }
                }
            }
        }
        Ok(())
    }
}

/// A per-group table read at the worlds of a chunk.
/// Whether evaluating `e` may be an error that no value of its operands hides.
fn may_fail(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Const(_) => false,
        ExprKind::Not(a) | ExprKind::Neg(a) => may_fail(a),
        ExprKind::Logic(_, a, b) | ExprKind::Cmp(_, a, b) | ExprKind::Arith(_, a, b) => {
            may_fail(a) || may_fail(b)
        }
        ExprKind::Knows { formula, .. }
        | ExprKind::Believes { formula, .. }
        | ExprKind::Group { formula, .. } => may_fail(formula),
        ExprKind::Chance { .. }
        | ExprKind::Latest(_)
        | ExprKind::At { .. }
        | ExprKind::Quantified { .. } => true,
        // Shared terms visited once, however many parents they have.
        _ => e
            .walk(&mut |x| match x.kind {
                ExprKind::Chance { .. }
                | ExprKind::Latest(_)
                | ExprKind::At { .. }
                | ExprKind::Quantified { .. } => Err(()),
                _ => Ok(()),
            })
            .is_err(),
    }
}

fn lookup(table: &[bool], groups: &Groups, chunk: &[u32]) -> Vec<bool> {
    chunk.iter().map(|w| table[groups.of(*w)]).collect()
}

/// Integer arithmetic as the language defines it.
fn arith(op: ArithOp, x: i128, y: i128) -> Result<i128, Failure> {
    crate::ir::arith::checked(op, x, y).ok_or_else(|| {
        // Only values a story changed (`x := x * x` in a `repeat`) can grow this far.
        Failure::Unsupported(
            "a value goes beyond the 128-bit integers of the explicit-worlds backend; \
             the `z3` backend computes with unbounded integers"
                .into(),
        )
    })
}
