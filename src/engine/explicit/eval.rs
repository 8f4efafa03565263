//! Expressions evaluated over many worlds at once: in chunks of worlds, column by
//! column, with knowledge operators answered from per-group tables.
//!
//! `K_A φ` in a state holds at a world when φ holds in every world of the state that A
//! cannot tell from it; the worlds of the state are grouped by A's view (the values of
//! what A learned: [`Groups`]), φ is evaluated once over the state, and each group
//! records whether all its worlds satisfy it. `knows_value(A, ē)` records whether all
//! of a group's worlds give ē one value. The tables are memoised per (operator, state)
//! for the running statement.

use std::collections::HashMap;
use std::rc::Rc;

use super::{ExplicitBackend, Learned, State};
use crate::engine::SolverError;
use crate::ir::{ArithOp, CmpOp, Expr, ExprKind, LogicOp, Ty};

/// Worlds evaluated at once.
pub(super) const CHUNK: usize = 4096;

/// The values of an expression in a chunk of worlds.
pub(super) enum Col {
    Int(Vec<i128>),
    Bool(Vec<bool>),
}

impl Col {
    fn ints(self) -> Result<Vec<i128>, SolverError> {
        match self {
            Col::Int(v) => Ok(v),
            Col::Bool(v) => Ok(v.into_iter().map(i128::from).collect()),
        }
    }

    fn bools(self) -> Result<Vec<bool>, SolverError> {
        match self {
            Col::Bool(v) => Ok(v),
            Col::Int(_) => Err(internal("a boolean was expected, an int was found")),
        }
    }
}

pub(super) fn internal(what: &str) -> SolverError {
    SolverError::Unsupported(format!(
        "internal error in the explicit-worlds backend: {what} (please report it)"
    ))
}

/// How the worlds of a chunk are found in the state whose knowledge is asked about:
/// they are its worlds from `offset` on, or they have to be looked up.
#[derive(Clone, Copy)]
pub(super) enum Place {
    At(usize),
    Search,
}

/// A character's view of a state: which group each world of the state falls in.
pub(super) struct Groups {
    /// `gid[i]`: the group of the state's i-th world.
    pub gid: Vec<u32>,
    pub count: usize,
}

/// Memo keys: the operator's kind, the address of its expression, the agent and the
/// state's id.
pub(super) type MemoKey = (u8, usize, usize, u64);

impl ExplicitBackend {
    /// The values of `e` over `worlds` (universe indices, sorted), its knowledge operators
    /// evaluated in `state`, chunk by chunk.
    pub(super) fn eval_bools(
        &mut self,
        e: &Expr,
        worlds: &Rc<Vec<u32>>,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Vec<bool>, SolverError> {
        let same = Rc::ptr_eq(worlds, &state.worlds);
        let mut out = Vec::with_capacity(worlds.len());
        for (k, chunk) in worlds.chunks(CHUNK).enumerate() {
            self.check_deadline()?;
            let place = if same {
                Place::At(k * CHUNK)
            } else {
                Place::Search
            };
            out.extend(self.eval(e, chunk, place, state, saved)?.bools()?);
        }
        Ok(out)
    }

    /// The values of `e` in a chunk of worlds.
    pub(super) fn eval(
        &mut self,
        e: &Expr,
        chunk: &[u32],
        place: Place,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Col, SolverError> {
        let n = chunk.len();
        Ok(match &e.kind {
            ExprKind::Int(v) => Col::Int(vec![i128::from(*v); n]),
            ExprKind::Bool(b) => Col::Bool(vec![*b; n]),
            ExprKind::Const(c) => {
                let column = &self.universe.columns[c.0];
                if self.program.constants[c.0].ty == Ty::Bool {
                    Col::Bool(chunk.iter().map(|&w| column[w as usize] != 0).collect())
                } else {
                    Col::Int(
                        chunk
                            .iter()
                            .map(|&w| i128::from(column[w as usize]))
                            .collect(),
                    )
                }
            }
            ExprKind::Neg(a) => {
                let a = self.eval(a, chunk, place, state, saved)?.ints()?;
                Col::Int(a.into_iter().map(|x| -x).collect())
            }
            ExprKind::Not(a) => {
                let a = self.eval(a, chunk, place, state, saved)?.bools()?;
                Col::Bool(a.into_iter().map(|x| !x).collect())
            }
            ExprKind::Arith(op, a, b) => {
                let a = self.eval(a, chunk, place, state, saved)?.ints()?;
                let b = self.eval(b, chunk, place, state, saved)?.ints()?;
                let mut out = Vec::with_capacity(n);
                for (x, y) in a.into_iter().zip(b) {
                    out.push(arith(*op, x, y)?);
                }
                Col::Int(out)
            }
            ExprKind::Cmp(op, a, b) => {
                let a = self.eval(a, chunk, place, state, saved)?.ints()?;
                let b = self.eval(b, chunk, place, state, saved)?.ints()?;
                let op = *op;
                Col::Bool(
                    a.into_iter()
                        .zip(b)
                        .map(|(x, y)| match op {
                            CmpOp::Eq => x == y,
                            CmpOp::Ne => x != y,
                            CmpOp::Lt => x < y,
                            CmpOp::Le => x <= y,
                            CmpOp::Gt => x > y,
                            CmpOp::Ge => x >= y,
                        })
                        .collect(),
                )
            }
            ExprKind::Logic(op, a, b) => {
                let a = self.eval(a, chunk, place, state, saved)?.bools()?;
                let b = self.eval(b, chunk, place, state, saved)?.bools()?;
                let op = *op;
                Col::Bool(
                    a.into_iter()
                        .zip(b)
                        .map(|(x, y)| match op {
                            LogicOp::And => x && y,
                            LogicOp::Or => x || y,
                            LogicOp::Implies => !x || y,
                            LogicOp::Iff => x == y,
                        })
                        .collect(),
                )
            }
            ExprKind::Ite(c, a, b) => {
                let c = self.eval(c, chunk, place, state, saved)?.bools()?;
                match (
                    self.eval(a, chunk, place, state, saved)?,
                    self.eval(b, chunk, place, state, saved)?,
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
                    .map(|t| self.eval(t, chunk, place, state, saved)?.ints())
                    .collect::<Result<Vec<_>, _>>()?;
                let mut found = vec![false; n];
                for item in set {
                    let mut all = vec![true; n];
                    for (t, x) in tuple.iter().zip(item) {
                        let x = self.eval(x, chunk, place, state, saved)?.ints()?;
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
                let key = (
                    0,
                    std::ptr::from_ref(&**formula) as usize,
                    agent.0,
                    state.id,
                );
                let table = match self.memo.get(&key) {
                    Some(t) => t.clone(),
                    None => {
                        let groups = self.groups(state, agent.0)?;
                        let phi = self.eval_bools(formula, &state.worlds.clone(), state, saved)?;
                        let mut good = vec![true; groups.count];
                        for (g, holds) in groups.gid.iter().zip(phi) {
                            if !holds {
                                good[*g as usize] = false;
                            }
                        }
                        let table = Rc::new(good);
                        self.memo.insert(key, table.clone());
                        table
                    }
                };
                self.lookup(&table, agent.0, chunk, place, state)?
            }
            ExprKind::KnowsValue { agent, exprs } => {
                let key = (1, exprs.as_ptr() as usize, agent.0, state.id);
                let table = match self.memo.get(&key) {
                    Some(t) => t.clone(),
                    None => {
                        let table = Rc::new(self.agree(agent.0, exprs, state, saved)?);
                        self.memo.insert(key, table.clone());
                        table
                    }
                };
                self.lookup(&table, agent.0, chunk, place, state)?
            }
            ExprKind::At { checkpoint, body } => {
                let Some(Some(then)) = saved.get(checkpoint.0) else {
                    return Err(internal("`at` names a checkpoint the run has not passed"));
                };
                let then = then.clone();
                self.eval(body, chunk, Place::Search, &then, saved)?
            }
        })
    }

    /// Whether the worlds of each of `agent`'s groups in `state` all give `exprs` one value.
    fn agree(
        &mut self,
        agent: usize,
        exprs: &[Expr],
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Vec<bool>, SolverError> {
        let groups = self.groups(state, agent)?;
        let arity = exprs.len();
        let mut agree = vec![true; groups.count];
        let mut first: Vec<i128> = vec![0; groups.count * arity];
        let mut seen = vec![false; groups.count];
        let worlds = state.worlds.clone();
        for (k, chunk) in worlds.chunks(CHUNK).enumerate() {
            self.check_deadline()?;
            let values = exprs
                .iter()
                .map(|x| {
                    self.eval(x, chunk, Place::At(k * CHUNK), state, saved)?
                        .ints()
                })
                .collect::<Result<Vec<_>, _>>()?;
            for i in 0..chunk.len() {
                let g = groups.gid[k * CHUNK + i] as usize;
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

    /// A per-group table read at the worlds of a chunk.
    fn lookup(
        &mut self,
        table: &[bool],
        agent: usize,
        chunk: &[u32],
        place: Place,
        state: &Rc<State>,
    ) -> Result<Col, SolverError> {
        let groups = self.groups(state, agent)?;
        Ok(Col::Bool(match place {
            Place::At(offset) => (0..chunk.len())
                .map(|i| table[groups.gid[offset + i] as usize])
                .collect(),
            Place::Search => positions(chunk, &state.worlds)?
                .into_iter()
                .map(|p| table[groups.gid[p] as usize])
                .collect(),
        }))
    }

    /// `agent`'s groups in `state`, computed once per state.
    pub(super) fn groups(
        &mut self,
        state: &Rc<State>,
        agent: usize,
    ) -> Result<Rc<Groups>, SolverError> {
        if let Some(g) = state.views.borrow().get(&agent) {
            return Ok(g.clone());
        }
        let n = state.worlds.len();
        let mut gid = vec![0u32; n];
        let mut count = usize::from(n > 0);
        let learned = state.learned[agent].clone();
        for item in &learned {
            let (lo, hi) = self.key_range(item);
            let width = (hi - lo) as u128 + 1;
            let dense = (count as u128).saturating_mul(width) <= (4 * n as u128).max(1 << 20);
            let mut next = Vec::with_capacity(n);
            let mut fresh = 0usize;
            if dense {
                let width = width as usize;
                let mut map = vec![u32::MAX; count * width];
                self.keys(item, state, &mut |i, key| {
                    let slot = &mut map[gid[i] as usize * width + (key - lo) as usize];
                    if *slot == u32::MAX {
                        *slot = fresh as u32;
                        fresh += 1;
                    }
                    next.push(*slot);
                })?;
            } else {
                let mut map: HashMap<(u32, i128), u32> = HashMap::with_capacity(n.min(1 << 20));
                self.keys(item, state, &mut |i, key| {
                    let id = *map.entry((gid[i], key)).or_insert_with(|| {
                        fresh += 1;
                        fresh as u32 - 1
                    });
                    next.push(id);
                })?;
            }
            gid = next;
            count = fresh;
        }
        let groups = Rc::new(Groups { gid, count });
        state.views.borrow_mut().insert(agent, groups.clone());
        Ok(groups)
    }

    /// Calls `f(i, key)` with the value of a learned item in the state's i-th world.
    fn keys(
        &mut self,
        item: &Learned,
        state: &Rc<State>,
        f: &mut dyn FnMut(usize, i128),
    ) -> Result<(), SolverError> {
        match item {
            Learned::Const(c) => {
                let column = &self.universe.columns[*c];
                for (i, &w) in state.worlds.iter().enumerate() {
                    f(i, i128::from(column[w as usize]));
                }
            }
            Learned::Expr(e) => {
                let worlds = state.worlds.clone();
                for (k, chunk) in worlds.chunks(CHUNK).enumerate() {
                    self.check_deadline()?;
                    let values = self
                        .eval(e, chunk, Place::At(k * CHUNK), state, &[])?
                        .ints()?;
                    for (i, v) in values.into_iter().enumerate() {
                        f(k * CHUNK + i, v);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Where each of `chunk`'s worlds stands in `worlds` (both sorted): found by galloping
/// forward from the previous one.
fn positions(chunk: &[u32], worlds: &[u32]) -> Result<Vec<usize>, SolverError> {
    let mut out = Vec::with_capacity(chunk.len());
    let mut from = 0;
    for &w in chunk {
        let mut bound = 1;
        while from + bound < worlds.len() && worlds[from + bound] < w {
            bound *= 2;
        }
        let end = (from + bound + 1).min(worlds.len());
        match worlds[from..end].binary_search(&w) {
            Ok(p) => {
                from += p;
                out.push(from);
            }
            Err(_) => return Err(internal("a world is missing from an earlier state")),
        }
    }
    Ok(out)
}

/// Integer arithmetic as the language defines it, on values the analysis proved to fit.
fn arith(op: ArithOp, x: i128, y: i128) -> Result<i128, SolverError> {
    let r = match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div => Some(if y == 0 { 0 } else { x.div_euclid(y) }),
        ArithOp::Mod => Some(if y == 0 { x } else { x.rem_euclid(y) }),
    };
    r.ok_or_else(|| internal("an integer overflowed 128 bits"))
}
