//! The explicit-worlds backend: when the story's first announcements bound every
//! constant, its worlds are listed natively once ([`bound`]: interval propagation and
//! search, no solver), held in columns, and every set of worlds is a list of indices
//! into them. A knowledge state is a sorted list of world indices plus what each
//! character learned; `K_A φ` and `knows_value` group the state's worlds by A's view
//! ([`eval`]). No Z3 context is created unless an `actual` needs one (see
//! [`ExplicitBackend::pin`]). docs/encoding.md describes it beside the other backends.

mod bound;
mod eval;
mod search;

use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;
use std::time::Instant;

use super::bdd::BddBackend;
use super::driver::Backend;
use super::symbolic::Z3Backend;
use super::{Failure, Options, SolverError};
use crate::ir::{CharId, Expr, ExprKind, Program, Stmt, StmtKind, Ty};
use crate::syntax::Span;
use crate::worlds::{Model, Value, World, WorldCount, WorldSet};
use bound::Interval;
use eval::{CHUNK, Groups, MemoKey};
use search::{Limits, Stop};

/// The most worlds the backend lists, and the most search nodes it spends listing them,
/// when it is chosen automatically (a story beyond either goes to Z3) and when it is
/// asked for by name.
const AUTO_LIMITS: (usize, usize) = (40_000_000, 2_000_000);
const FORCED_LIMITS: (usize, usize) = (100_000_000, 50_000_000);
/// For stories of bools and enums that the BDD backend would take: the explicit backend
/// takes them when the first announcements leave at most this many worlds, found within
/// this many search nodes and this much work (expression nodes looked at: a measure
/// that does not depend on the machine's load, so the choice is the same on every run;
/// zebra: 10.7 ms explicit, 36.8 ms on BDDs; planetfall 10.9 and 16.2 ms, CPU of whole
/// processes).
const SMALL_LIMITS: (usize, usize) = (1 << 14, 1 << 14);
const SMALL_WORK: usize = 1 << 17;
/// The most work the listing spends when the backend is chosen automatically (a few
/// seconds): a story whose worlds cost more to list goes to Z3.
const AUTO_WORK: usize = 1 << 25;

/// How much the explicit backend may list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Size {
    /// Chosen automatically: up to 40 million worlds.
    Auto,
    /// Asked for by name: up to 100 million worlds.
    Forced,
    /// Tried first for a story the BDD backend would take: a few worlds, found fast.
    Small,
}
/// Bool and enum stories with more worlds than this go to the BDD backend by default
/// (the colour fairies' 9^5 worlds: 9.0 ms listed, 6.4 ms on BDDs, whole processes).
pub(super) const AUTO_MAX_FINITE_TYPES: u128 = 1 << 12;
/// The most worlds a state before the universe's bounds all hold is listed with natively.
const EARLY_MAX_WORLDS: usize = 1 << 20;

/// The worlds the story's first announcements allow, in lexicographic order of their
/// values, one column of values per constant.
struct Universe {
    columns: Vec<Vec<i64>>,
    len: usize,
}

/// What a character learned: a constant, or the value of an expression.
#[derive(Clone)]
enum Learned {
    Const(usize),
    Expr(Rc<Expr>),
}

/// A knowledge state: the indices of κ's worlds (sorted) and what each character
/// learned.
pub(crate) struct State {
    id: u64,
    /// How many of the story's first announcements (those that bound the universe) are
    /// still to come: κ is then the constants' types and the ones before, not yet the
    /// universe that `worlds` lists.
    pending: usize,
    worlds: Rc<Vec<u32>>,
    learned: Rc<Vec<Vec<Learned>>>,
}

/// A set of worlds: which of a state's worlds it holds.
#[derive(Clone)]
pub(crate) struct Set {
    worlds: Rc<Vec<u32>>,
    bits: Rc<Vec<bool>>,
}

pub(crate) struct ExplicitBackend {
    program: Rc<Program>,
    options: Options,
    /// The announcements that bound the universe.
    prefix: Vec<Expr>,
    universe: Rc<Universe>,
    /// The worlds of states before the universe's bounds all hold, by how many of the
    /// bounding announcements are still to come (None: too many to list natively).
    early: HashMap<usize, Option<Rc<Universe>>>,
    deadline: Option<Instant>,
    /// Knowledge tables of the running statement.
    memo: HashMap<MemoKey, Rc<Vec<bool>>>,
    /// Each character's groups, by (character, how many things it has learned): what a
    /// character learns only grows.
    views: HashMap<(usize, usize), Rc<Groups>>,
    /// The groups of worlds that agree on everything some characters learned (for
    /// distributed knowledge), by (character, how many things it has learned) of each.
    joint: HashMap<Vec<(usize, usize)>, Rc<Groups>>,
    next_id: u64,
    /// Z3, made only when an `actual` needs it.
    z3: Option<Z3Backend>,
    /// For a story of bools and enums, the BDDs that answer questions about states
    /// before the universe's bounds all hold (Some(None): not such a story).
    early_bdd: Option<Option<BddBackend>>,
}

/// A backend made for a question about a state before the universe's bounds all hold.
enum Early {
    Native(Box<ExplicitBackend>, Rc<State>),
    /// κ on the backend's BDDs (`early_bdd`).
    Bdd(Rc<super::bdd::State>),
    Z3(Box<Z3Backend>, super::symbolic::State),
}

/// Why the explicit backend does not take a story, and where.
pub(crate) struct Refusal {
    pub why: String,
    pub span: Option<Span>,
    /// The run's time ran out while listing the worlds: no other backend is tried.
    pub timed_out: bool,
}

impl Refusal {
    /// A refusal for `why`, reported at the story's first statement.
    pub(crate) fn because(why: String) -> Refusal {
        Refusal {
            why,
            span: None,
            timed_out: false,
        }
    }
}

impl ExplicitBackend {
    /// A backend for `program`, or why its worlds cannot be listed natively (within the
    /// limits of `size`).
    pub(crate) fn new(
        program: Rc<Program>,
        options: &Options,
        size: Size,
    ) -> Result<ExplicitBackend, Refusal> {
        let deadline = options.timeout.and_then(|t| Instant::now().checked_add(t));
        let ((max_worlds, max_nodes), max_work) = match size {
            Size::Auto => (AUTO_LIMITS, AUTO_WORK),
            Size::Forced => (FORCED_LIMITS, usize::MAX),
            Size::Small => (SMALL_LIMITS, SMALL_WORK),
        };
        let limits = Limits {
            max_worlds,
            max_nodes,
            max_work,
            deadline,
        };
        let prefix = bounding_prefix(&program.statements);
        let (found, overflow) = list_worlds(&program, &prefix, &limits);
        let (columns, len, root) = found.map_err(|stop| refusal(&program, stop))?;
        if overflow {
            return Err(Refusal {
                why: "the explicit-worlds backend computes with integers of up to 100 bits, \
                      and the first announcements go beyond that"
                    .into(),
                span: prefix.first().map(|e| e.span),
                timed_out: false,
            });
        }
        check_widths(&program, &root)?;
        tracing::debug!(worlds = len, "explicit backend: worlds listed");
        let prefix = prefix.into_iter().cloned().collect();
        let universe = Rc::new(Universe { columns, len });
        Ok(ExplicitBackend::over(
            program, options, prefix, universe, deadline,
        ))
    }

    /// A backend whose worlds are `universe`, the worlds `prefix` allows.
    fn over(
        program: Rc<Program>,
        options: &Options,
        prefix: Vec<Expr>,
        universe: Rc<Universe>,
        deadline: Option<Instant>,
    ) -> ExplicitBackend {
        ExplicitBackend {
            program,
            options: options.clone(),
            prefix,
            universe,
            early: HashMap::new(),
            deadline,
            memo: HashMap::new(),
            views: HashMap::new(),
            joint: HashMap::new(),
            next_id: 0,
            z3: None,
            early_bdd: None,
        }
    }

    fn check_deadline(&self) -> Result<(), SolverError> {
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(SolverError::Timeout),
            _ => Ok(()),
        }
    }

    fn state(
        &mut self,
        pending: usize,
        worlds: Rc<Vec<u32>>,
        learned: Rc<Vec<Vec<Learned>>>,
    ) -> Rc<State> {
        self.next_id += 1;
        Rc::new(State {
            id: self.next_id,
            pending,
            worlds,
            learned,
        })
    }

    /// A state of no world, to evaluate knowledge-free expressions with.
    fn scratch(&mut self) -> Rc<State> {
        self.state(0, Rc::new(Vec::new()), Rc::new(Vec::new()))
    }

    /// A state before the universe's bounds all hold, listed natively when its worlds
    /// (the types and the announcements so far) number at most [`EARLY_MAX_WORLDS`]: a
    /// backend of its own whose universe they are, and the state of all of them. Only the
    /// explorer asks about such states (`run --trace`, the playground).
    fn early_native(&mut self, state: &State) -> Option<(ExplicitBackend, Rc<State>)> {
        let prefix = &self.prefix[..self.prefix.len() - state.pending];
        let universe = match self.early.get(&state.pending) {
            Some(known) => known.clone()?,
            None => {
                let limits = Limits {
                    max_worlds: EARLY_MAX_WORLDS,
                    max_nodes: AUTO_LIMITS.1,
                    max_work: usize::MAX,
                    deadline: self.deadline,
                };
                let constraints: Vec<&Expr> = prefix.iter().collect();
                let (found, overflow) = list_worlds(&self.program, &constraints, &limits);
                let universe = (found.ok().filter(|_| !overflow))
                    .map(|(columns, len, _)| Rc::new(Universe { columns, len }));
                self.early.insert(state.pending, universe.clone());
                universe?
            }
        };
        let len = universe.len;
        let mut backend = ExplicitBackend::over(
            self.program.clone(),
            &self.options,
            prefix.to_vec(),
            universe,
            self.deadline,
        );
        let all = Rc::new((0..len as u32).collect());
        let state = backend.state(0, all, state.learned.clone());
        Some((backend, state))
    }

    /// A state before the universe's bounds all hold, made for a question about it: on
    /// BDDs for a story of bools and enums, else listed natively ([`Self::early_native`])
    /// when it can be, else on Z3. κ is the types and the announcements so far.
    fn early(&mut self, state: &State) -> Result<Early, SolverError> {
        if self.early_bdd.is_none() {
            self.early_bdd = Some(BddBackend::new(self.program.clone(), &self.options).ok());
        }
        if let Some(Some(bdd)) = self.early_bdd.take() {
            let replayed = self.early_on(bdd, state);
            let (bdd, kappa) = replayed?;
            self.early_bdd = Some(Some(bdd));
            return Ok(Early::Bdd(kappa));
        }
        if let Some((native, all)) = self.early_native(state) {
            return Ok(Early::Native(Box::new(native), all));
        }
        let z3 = Z3Backend::new(self.program.clone(), &self.options);
        let (z3, kappa) = self.early_on(z3, state)?;
        Ok(Early::Z3(Box::new(z3), kappa))
    }

    /// The BDD backend [`Self::early`] made.
    fn early_bdd(&mut self) -> &mut BddBackend {
        match &mut self.early_bdd {
            Some(Some(bdd)) => bdd,
            _ => unreachable!("Early::Bdd comes with the BDD backend"),
        }
    }

    /// [`Self::early`] on `backend`.
    fn early_on<B: Backend>(
        &self,
        mut backend: B,
        state: &State,
    ) -> Result<(B, B::State), SolverError> {
        let z3 = &mut backend;
        let mut kappa = z3.initial()?;
        for e in &self.prefix[..self.prefix.len() - state.pending] {
            let phi = z3.formula(e, &kappa, &[])?;
            kappa = z3.restrict(&kappa, phi, false)?;
        }
        for (who, items) in state.learned.iter().enumerate() {
            for item in items {
                let what = match item {
                    Learned::Const(c) => Expr {
                        kind: ExprKind::Const(crate::ir::ConstId(*c)),
                        ty: self.program.constants[*c].ty,
                        span: Span::default(),
                    },
                    Learned::Expr(e) => (**e).clone(),
                };
                kappa = z3.learn(&kappa, CharId(who), &what)?;
            }
        }
        Ok((backend, kappa))
    }

    /// The values of universe world `w`.
    fn world(&self, w: u32) -> World {
        World(
            self.program
                .constants
                .iter()
                .zip(&self.universe.columns)
                .map(|(c, col)| match c.ty {
                    Ty::Bool => Value::Bool(col[w as usize] != 0),
                    _ => Value::Int(col[w as usize]),
                })
                .collect(),
        )
    }

    /// The canonical order's key of universe world `w`: its magnitude, then its index
    /// (the universe is in lexicographic order of values).
    fn key(&self, w: u32) -> (u64, u32) {
        let magnitude = self
            .program
            .constants
            .iter()
            .zip(&self.universe.columns)
            .filter(|(c, _)| c.ty != Ty::Bool)
            .map(|(_, col)| col[w as usize].unsigned_abs())
            .max()
            .unwrap_or(0);
        (magnitude, w)
    }

    /// The first `limit` of `worlds` in canonical order.
    fn first(&self, worlds: &[u32], limit: usize) -> Vec<u32> {
        if worlds.len() <= limit {
            let mut keys: Vec<(u64, u32)> = worlds.iter().map(|&w| self.key(w)).collect();
            keys.sort_unstable();
            return keys.into_iter().map(|(_, w)| w).collect();
        }
        let mut heap = BinaryHeap::with_capacity(limit + 1);
        for &w in worlds {
            heap.push(self.key(w));
            if heap.len() > limit {
                heap.pop();
            }
        }
        heap.into_sorted_vec().into_iter().map(|(_, w)| w).collect()
    }

    fn filtered(
        &mut self,
        state: &Rc<State>,
        set: &Set,
        keep: bool,
    ) -> Result<Rc<State>, SolverError> {
        if !Rc::ptr_eq(&set.worlds, &state.worlds) {
            return Err(eval::internal("a set of another state"));
        }
        let mut worlds = Vec::new();
        for (chunk, bits) in state.worlds.chunks(CHUNK).zip(set.bits.chunks(CHUNK)) {
            self.check_deadline()?;
            let kept = chunk.iter().zip(bits).filter(|(_, b)| **b == keep);
            worlds.extend(kept.map(|(w, _)| *w));
        }
        Ok(self.state(0, Rc::new(worlds), state.learned.clone()))
    }

    /// What a learned item is in each of `order`'s worlds, as a model's views hold it.
    fn observed(&mut self, item: &Learned, order: &[u32]) -> Result<Vec<Value>, SolverError> {
        Ok(match item {
            Learned::Const(c) => order.iter().map(|&w| self.world(w).0[*c]).collect(),
            Learned::Expr(e) => {
                let scratch = self.scratch();
                match self.eval(e, order, &scratch, &[])? {
                    eval::Col::Int(v) => {
                        crate::worlds::observations(&v, |x| i64::try_from(*x).ok())
                    }
                    eval::Col::Bool(v) => v.into_iter().map(Value::Bool).collect(),
                }
            }
        })
    }

    /// The interval a learned item's values stay in (from the universe's box).
    fn key_range(&self, item: &Learned) -> (i128, i128) {
        let dom = self.ranges();
        let d = match item {
            Learned::Const(c) => dom[*c],
            Learned::Expr(e) => bound::interval(e, &dom),
        };
        (d.lo, d.hi)
    }

    /// Each constant's smallest and largest value in the universe.
    fn ranges(&self) -> Vec<Interval> {
        self.universe
            .columns
            .iter()
            .map(|col| {
                let lo = col.iter().min().copied().unwrap_or(0);
                let hi = col.iter().max().copied().unwrap_or(0);
                Interval::new(i128::from(lo), i128::from(hi))
            })
            .collect()
    }
}

/// The statements at the start of the story whose constraints bound the worlds: the
/// storyteller's knowledge-free announcements, and `learns` between them (which look at
/// no world). The first other statement ends it.
fn bounding_prefix(statements: &[Stmt]) -> Vec<&Expr> {
    let mut prefix = Vec::new();
    for s in statements {
        match &s.kind {
            StmtKind::Announce {
                speaker: None,
                formula,
            } if !formula.mentions_knowledge() => prefix.push(formula),
            StmtKind::Learn { .. } => {}
            _ => break,
        }
    }
    prefix
}

fn type_box(program: &Program) -> bound::Box {
    let types: Vec<Ty> = program.constants.iter().map(|c| c.ty).collect();
    let sizes: Vec<usize> = program.enums.iter().map(|e| e.variants.len()).collect();
    bound::type_box(&types, &sizes)
}

/// How many worlds the constants' types allow (saturating): bools and enums only.
pub(super) fn finite_type_worlds(program: &Program) -> Option<u128> {
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
fn list_worlds(
    program: &Program,
    constraints: &[&Expr],
    limits: &Limits,
) -> (Result<search::Solutions, Stop>, bool) {
    let mut overflow = false;
    let types: Vec<Ty> = program.constants.iter().map(|c| c.ty).collect();
    let found = search::solve(
        constraints,
        type_box(program),
        &types,
        limits,
        &mut |e, point| {
            let v = exact(e, point);
            overflow |= v.is_none();
            v
        },
    );
    (found, overflow)
}

fn refusal(program: &Program, stop: Stop) -> Refusal {
    let why = match &stop {
        Stop::Unbounded(k) => format!(
            "the explicit-worlds backend needs every int bounded by the story's first \
             announcements, and they leave `{}` unbounded",
            program.constants[*k].name
        ),
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
fn check_widths(program: &Program, root: &[Interval]) -> Result<(), Refusal> {
    let mut bad = None;
    let mut visit = |e: &Expr| -> Result<(), ()> {
        if e.ty != Ty::Bool && !bound::interval(e, root).is_bounded() {
            bad = Some(e.span);
            return Err(());
        }
        Ok(())
    };
    for s in &program.statements {
        if each_expr(s, &mut visit).is_err() {
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
        }),
    }
}

/// Calls `f` on every expression of a statement (blocks included).
fn each_expr(s: &Stmt, f: &mut dyn FnMut(&Expr) -> Result<(), ()>) -> Result<(), ()> {
    match &s.kind {
        StmtKind::Announce { formula, .. } | StmtKind::Reveal { formula, .. } => formula.walk(f),
        StmtKind::Learn { what, .. } => what.walk(f),
        StmtKind::Actual(e) | StmtKind::Check(e) | StmtKind::Assign { value: e, .. } => e.walk(f),
        StmtKind::Checkpoint(_) | StmtKind::Worlds { .. } => Ok(()),
        StmtKind::Simultaneously(body) => body.iter().try_for_each(|s| each_expr(s, f)),
        StmtKind::Repeat { body, until, .. } => {
            body.iter().try_for_each(|s| each_expr(s, f))?;
            until.walk(f)
        }
        StmtKind::AssertAddsCk { hint, body } => {
            hint.walk(f)?;
            body.iter().try_for_each(|s| each_expr(s, f))
        }
    }
}

fn exact(e: &Expr, point: &[i128]) -> Option<i128> {
    use crate::ir::{CmpOp, LogicOp};
    Some(match &e.kind {
        ExprKind::Int(n) => i128::from(*n),
        ExprKind::Bool(b) => i128::from(*b),
        ExprKind::Const(c) => point[c.0],
        ExprKind::Neg(a) => exact(a, point)?.checked_neg()?,
        ExprKind::Not(a) => i128::from(exact(a, point)? == 0),
        ExprKind::Arith(op, a, b) => {
            crate::ir::arith::checked(*op, exact(a, point)?, exact(b, point)?)?
        }
        ExprKind::Cmp(op, a, b) => {
            let (x, y) = (exact(a, point)?, exact(b, point)?);
            i128::from(match op {
                CmpOp::Eq => x == y,
                CmpOp::Ne => x != y,
                CmpOp::Lt => x < y,
                CmpOp::Le => x <= y,
                CmpOp::Gt => x > y,
                CmpOp::Ge => x >= y,
            })
        }
        ExprKind::Logic(op, a, b) => {
            let (x, y) = (exact(a, point)? != 0, exact(b, point)? != 0);
            i128::from(match op {
                LogicOp::And => x && y,
                LogicOp::Or => x || y,
                LogicOp::Implies => !x || y,
                LogicOp::Iff => x == y,
            })
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
        | ExprKind::At { .. }
        | ExprKind::Group { .. } => return None,
    })
}

impl Backend for ExplicitBackend {
    type Set = Set;
    type State = Rc<State>;
    type Point = Option<u32>;

    fn name(&self) -> &'static str {
        "explicit"
    }

    fn initial(&mut self) -> Result<Rc<State>, SolverError> {
        let all: Vec<u32> = (0..self.universe.len as u32).collect();
        let learned = Rc::new(vec![Vec::new(); self.program.characters.len()]);
        Ok(self.state(self.prefix.len(), Rc::new(all), learned))
    }

    /// κ's worlds.
    fn size(&self, state: &Rc<State>) -> usize {
        state.worlds.len()
    }

    fn size_unit(&self) -> &'static str {
        "worlds"
    }

    fn formula(
        &mut self,
        e: &Expr,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Set, SolverError> {
        // An announcement that bounds the universe holds in all of it by construction.
        let bits = if state.pending > 0 {
            vec![true; state.worlds.len()]
        } else {
            self.eval_bools(e, &state.worlds.clone(), state, saved)?
        };
        Ok(Set {
            worlds: state.worlds.clone(),
            bits: Rc::new(bits),
        })
    }

    fn said(&mut self, agent: CharId, psi: Set, state: &Rc<State>) -> Result<Set, SolverError> {
        if !Rc::ptr_eq(&psi.worlds, &state.worlds) {
            return Err(eval::internal("a set of another state"));
        }
        let groups = self.groups(state, agent.0)?;
        let gid = |w: &u32| groups.gid[*w as usize] as usize;
        let mut good = vec![true; groups.count];
        for (worlds, bits) in psi.worlds.chunks(CHUNK).zip(psi.bits.chunks(CHUNK)) {
            self.check_deadline()?;
            for (w, holds) in worlds.iter().zip(bits) {
                if !holds {
                    good[gid(w)] = false;
                }
            }
        }
        let mut bits = Vec::with_capacity(psi.worlds.len());
        for worlds in psi.worlds.chunks(CHUNK) {
            self.check_deadline()?;
            bits.extend(worlds.iter().map(|w| good[gid(w)]));
        }
        Ok(Set {
            worlds: psi.worlds,
            bits: Rc::new(bits),
        })
    }

    fn not(&mut self, set: &Set) -> Set {
        Set {
            worlds: set.worlds.clone(),
            bits: Rc::new(set.bits.iter().map(|b| !b).collect()),
        }
    }

    fn and(&mut self, first: Set, rest: Vec<Set>) -> Set {
        let mut bits = (*first.bits).clone();
        for s in rest {
            for (b, c) in bits.iter_mut().zip(s.bits.iter()) {
                *b &= *c;
            }
        }
        Set {
            worlds: first.worlds,
            bits: Rc::new(bits),
        }
    }

    fn restrict(
        &mut self,
        state: &Rc<State>,
        added: Set,
        _: bool,
    ) -> Result<Rc<State>, SolverError> {
        if state.pending > 0 {
            // One of the announcements that bound the universe: it holds in all of it.
            if added.bits.iter().any(|b| !b) {
                return Err(eval::internal(
                    "an announcement that bounds the worlds fails in one",
                ));
            }
            let next = self.state(
                state.pending - 1,
                state.worlds.clone(),
                state.learned.clone(),
            );
            return Ok(next);
        }
        self.filtered(state, &added, true)
    }

    fn learn(
        &mut self,
        state: &Rc<State>,
        who: CharId,
        what: &Expr,
    ) -> Result<Rc<State>, SolverError> {
        let item = match what.kind {
            ExprKind::Const(c) => Learned::Const(c.0),
            _ => Learned::Expr(Rc::new(what.clone())),
        };
        let mut learned = (*state.learned).clone();
        learned[who.0].push(item);
        Ok(self.state(state.pending, state.worlds.clone(), Rc::new(learned)))
    }

    /// Natively when the intervals bound φ's worlds (a few), else with Z3, made for it.
    fn pin(&mut self, phi: &Expr, state: &Rc<State>) -> Result<Vec<World>, SolverError> {
        let limits = Limits {
            max_worlds: 10_000,
            max_nodes: 1_000_000,
            max_work: usize::MAX,
            deadline: self.deadline,
        };
        let (found, overflow) = list_worlds(&self.program, &[phi], &limits);
        match found {
            Ok((columns, n, _)) if !overflow => {
                let mut worlds: Vec<World> = (0..n)
                    .map(|i| {
                        World(
                            self.program
                                .constants
                                .iter()
                                .zip(&columns)
                                .map(|(c, col)| match c.ty {
                                    Ty::Bool => Value::Bool(col[i] != 0),
                                    _ => Value::Int(col[i]),
                                })
                                .collect(),
                        )
                    })
                    .collect();
                worlds.sort();
                worlds.truncate(2);
                Ok(worlds)
            }
            Err(Stop::Timeout) => Err(SolverError::Timeout),
            _ => {
                tracing::debug!("explicit backend: `actual` asks Z3");
                if self.z3.is_none() {
                    self.z3 = Some(Z3Backend::new(self.program.clone(), &self.options));
                }
                let z3 = self.z3.as_mut().expect("just made");
                let start = z3.initial()?;
                let _ = state;
                z3.pin(phi, &start)
            }
        }
    }

    /// The world's index in the universe (None: not one of its worlds).
    fn point(&mut self, world: &[Value]) -> Result<Option<u32>, SolverError> {
        let values: Vec<i64> = world
            .iter()
            .map(|v| match v {
                Value::Int(n) => *n,
                Value::Bool(b) => i64::from(*b),
            })
            .collect();
        let columns = &self.universe.columns;
        let (mut lo, mut hi) = (0usize, self.universe.len);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let row = columns.iter().map(|c| c[mid]);
            match row.cmp(values.iter().copied()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Ok(Some(mid as u32)),
            }
        }
        Ok(None)
    }

    fn holds(&mut self, set: &Set, point: &Option<u32>) -> Result<bool, SolverError> {
        let Some(w) = point else {
            return Err(eval::internal(
                "the actual world is not a world of the story",
            ));
        };
        match set.worlds.binary_search(w) {
            Ok(i) => Ok(set.bits[i]),
            Err(_) => Err(eval::internal("the actual world left κ")),
        }
    }

    fn contains(&mut self, state: &Rc<State>, point: &Option<u32>) -> Result<bool, SolverError> {
        Ok(point.is_some_and(|w| state.worlds.binary_search(&w).is_ok()))
    }

    fn disagreement(
        &mut self,
        before: &Rc<State>,
        after: &Rc<State>,
        hint: &Set,
    ) -> Result<Option<(World, bool)>, SolverError> {
        if !Rc::ptr_eq(&hint.worlds, &before.worlds) {
            return Err(eval::internal("a hint of another state"));
        }
        let mut best: Option<((u64, u32), bool)> = None;
        let mut j = 0;
        for (i, &w) in before.worlds.iter().enumerate() {
            while j < after.worlds.len() && after.worlds[j] < w {
                j += 1;
            }
            let kept = j < after.worlds.len() && after.worlds[j] == w;
            if kept != hint.bits[i] {
                let key = self.key(w);
                if best.is_none_or(|(k, _)| key < k) {
                    best = Some((key, kept));
                }
            }
        }
        Ok(best.map(|((_, w), kept)| (self.world(w), kept)))
    }

    fn hinted(
        &mut self,
        before: &Rc<State>,
        hint: Set,
        learned: &Rc<State>,
        verified: bool,
    ) -> Result<Rc<State>, SolverError> {
        // Verified, the block left exactly κ_before ∧ φ.
        if verified {
            return Ok(learned.clone());
        }
        let kept = self.filtered(before, &hint, true)?;
        Ok(self.state(0, kept.worlds.clone(), learned.learned.clone()))
    }

    fn worlds(&mut self, state: &Rc<State>, limit: usize) -> Result<WorldSet, SolverError> {
        if state.pending > 0 {
            return match self.early(state)? {
                Early::Native(mut early, all) => early.worlds(&all, limit),
                Early::Bdd(kappa) => self.early_bdd().worlds(&kappa, limit),
                Early::Z3(mut z3, kappa) => z3.worlds(&kappa, limit),
            };
        }
        let first = self.first(&state.worlds, limit);
        Ok(WorldSet {
            before: None,
            worlds: first.into_iter().map(|w| self.world(w)).collect(),
            complete: state.worlds.len() <= limit,
        })
    }

    fn count(&mut self, state: &Rc<State>, cap: usize) -> Result<WorldCount, Failure> {
        if state.pending == self.prefix.len() && state.pending > 0 {
            // Every world of the constants' types.
            return Ok(match finite_type_worlds(&self.program) {
                None => WorldCount::Infinite,
                Some(n) => {
                    u64::try_from(n).map_or(WorldCount::MoreThan(u64::MAX), WorldCount::Exactly)
                }
            });
        }
        if state.pending > 0 {
            return match self.early(state)? {
                Early::Native(mut early, all) => early.count(&all, cap),
                Early::Bdd(kappa) => self.early_bdd().count(&kappa, cap),
                Early::Z3(mut z3, kappa) => z3.count(&kappa, cap),
            };
        }
        Ok(WorldCount::Exactly(state.worlds.len() as u64))
    }

    fn model(&mut self, state: &Rc<State>, cap: usize) -> Result<Option<Model>, Failure> {
        if state.pending > 0 {
            return match self.early(state)? {
                Early::Native(mut early, all) => early.model(&all, cap),
                Early::Bdd(kappa) => self.early_bdd().model(&kappa, cap),
                Early::Z3(mut z3, kappa) => z3.model(&kappa, cap),
            };
        }
        if state.worlds.len() > cap {
            return Ok(None);
        }
        let order = self.first(&state.worlds, cap);
        let worlds: Vec<World> = order.iter().map(|&w| self.world(w)).collect();
        let mut views = Vec::with_capacity(state.learned.len());
        for learned in state.learned.iter() {
            let mut view = vec![Vec::with_capacity(learned.len()); order.len()];
            for item in learned {
                for (v, o) in view.iter_mut().zip(self.observed(item, &order)?) {
                    v.push(o);
                }
            }
            views.push(view);
        }
        Ok(Some(Model {
            before: None,
            worlds,
            views,
        }))
    }

    fn statement_done(&mut self) {
        self.memo.clear();
    }
}
