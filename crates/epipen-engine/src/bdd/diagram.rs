//! A small BDD package: every BDD of an engine lives in one shared node table, so equal
//! functions are one node (equality and hashing are O(1)), operations reuse each
//! other's results through a computed cache that lasts across statements, and
//! negation is free (complement edges).
//!
//! * A node is (variable, low edge, high edge); an edge is a node's index times two,
//!   plus one when it is complemented. Node 0 is the constant true, so edge 0 is true and
//!   edge 1 false. The high edge of a node is never complemented, which makes the
//!   representation canonical.
//! * Variables are levels: variable 0 is tested first. The order of the story's
//!   constants is chosen before the manager is made ([`crate::bdd::order`]).
//! * [`Bdd`] is a handle: it counts as a reference to its node. When more nodes are in
//!   use than a threshold, the next operation first frees every node no handle reaches
//!   (and empties the computed cache, whose entries may name them).
//! * Operations keep their own stack of pending splits instead of recursing, so a
//!   story with thousands of variables runs on any thread's stack.

use foldhash::{HashMap, HashMapExt};
use std::cell::RefCell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

mod each;
mod query;
pub(super) use query::ValuesTaken;

/// The most variables a manager has.
pub(super) const MAX_VARS: usize = 1 << 20;

type Edge = u32;
const TRUE: Edge = 0;
const FALSE: Edge = 1;
/// The variable of the terminal node: below every level.
const TERMINAL_VAR: u32 = u32::MAX;
/// The variable of a node on the free list.
const FREE_VAR: u32 = u32::MAX - 1;
/// An empty slot of the unique table: no node's entry is 0, as the terminal (node 0) is
/// never in the table.
const EMPTY_SLOT: u64 = 0;

/// Garbage collection waits until at least this many nodes are in use.
const MIN_GC_THRESHOLD: usize = 1 << 18;
const MIN_CACHE: usize = 1 << 16;
const MAX_CACHE: usize = 1 << 22;

#[derive(Clone, Copy)]
struct Node {
    var: u32,
    low: Edge,
    high: Edge,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    And = 1,
    Xor,
    Exists,
    AndExists,
    Intersects,
}

/// How an operation starts on its arguments.
enum Start {
    Done(Edge),
    Split(Frame),
}

/// An operation split on its top variable, waiting for its branches' results.
struct Frame {
    op: Op,
    /// The cache key: the normalised arguments.
    key: (Edge, Edge, Edge),
    var: u32,
    /// Complement the result (xor's normalisation).
    neg: Edge,
    /// The variable is quantified away (or, for `Intersects`, every variable is): the
    /// result is the disjunction of the branches.
    quantified: bool,
    low_args: (Edge, Edge, Edge),
    high_args: (Edge, Edge, Edge),
    low: Option<Edge>,
}

/// A computed-cache entry: the operation (0: none), its three arguments and its result.
/// All zeros is the empty entry, so a new cache is zeroed memory the system hands out
/// page by page as it is used.
type CacheEntry = [u32; 5];

const NO_ENTRY: CacheEntry = [0; 5];

/// A BDD variable (a level of the order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct BddVariable(u32);

impl BddVariable {
    pub(super) fn from_index(index: usize) -> BddVariable {
        BddVariable(u32::try_from(index).expect("a variable index fits in 32 bits"))
    }

    pub(super) fn to_index(self) -> usize {
        self.0 as usize
    }
}

/// A value for every variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BddValuation(Vec<bool>);

impl BddValuation {
    pub(super) fn all_false(num_vars: usize) -> BddValuation {
        BddValuation(vec![false; num_vars])
    }

    pub(super) fn set_value(&mut self, var: BddVariable, value: bool) {
        if let Some(v) = self.0.get_mut(var.to_index()) {
            *v = value;
        }
    }

    pub(super) fn value(&self, var: BddVariable) -> bool {
        self.0.get(var.to_index()).copied().unwrap_or(false)
    }
}

/// The node table, the unique table and the computed cache.
struct Manager {
    num_vars: u32,
    nodes: Vec<Node>,
    /// Per node, how many handles reach it directly.
    refs: Vec<u32>,
    free: Vec<u32>,
    /// Open addressing, at most half full: per slot a node's index in the low 32 bits
    /// and the high half of its hash above them (most mismatches are told without
    /// reading the node), `EMPTY_SLOT` where there is none.
    unique: Vec<u64>,
    cache: Vec<CacheEntry>,
    /// Nodes in use (not free), terminal included.
    in_use: usize,
    /// Nodes made since the manager was, freed or not: a clock-free measure of its work,
    /// for the tests.
    #[cfg(test)]
    made: u64,
    gc_threshold: usize,
    /// The least `gc_threshold` after a collection.
    min_gc_threshold: usize,
    /// Stacks for [`Manager::run`], kept between operations.
    stacks: Vec<Vec<Frame>>,
    /// Per node, the last traversal that visited it ([`Manager::first_visit`]).
    visits: Vec<u32>,
    /// The current traversal.
    traversal: u32,
    /// Per variable v, the cube of v and every variable after it (then `TRUE`): a
    /// quantification whose cube is one of these asks only whether there is a
    /// satisfying valuation.
    everything_from: Vec<Edge>,
}

/// A hash of four words whose low bits depend on all of them.
fn mix(a: u32, b: u32, c: u32, d: u32) -> u64 {
    let mut h = (u64::from(a) | (u64::from(b) << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h = h.rotate_left(29) ^ (u64::from(c) | (u64::from(d) << 32));
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

impl Manager {
    fn new(num_vars: usize) -> Manager {
        let mut m = Manager {
            num_vars: u32::try_from(num_vars).unwrap_or(u32::MAX),
            nodes: vec![Node {
                var: TERMINAL_VAR,
                low: TRUE,
                high: TRUE,
            }],
            refs: vec![1],
            free: Vec::new(),
            unique: vec![0; 1 << 10],
            cache: vec![[0; 5]; MIN_CACHE],
            in_use: 1,
            #[cfg(test)]
            made: 0,
            gc_threshold: MIN_GC_THRESHOLD,
            min_gc_threshold: MIN_GC_THRESHOLD,
            stacks: Vec::new(),
            visits: Vec::new(),
            traversal: 0,
            everything_from: Vec::new(),
        };
        m.refs[0] = 1;
        let mut chain = vec![TRUE];
        for v in (0..m.num_vars).rev() {
            let cube = m.mk(v, FALSE, chain[chain.len() - 1]);
            m.refs[(cube >> 1) as usize] += 1;
            chain.push(cube);
        }
        chain.reverse();
        m.everything_from = chain;
        m
    }

    fn var(&self, e: Edge) -> u32 {
        self.nodes[(e >> 1) as usize].var
    }

    /// The low and high cofactors of `e` with respect to `var` (`e` itself twice when
    /// `e` does not test `var` at its root).
    fn cofactors(&self, e: Edge, var: u32) -> (Edge, Edge) {
        let node = self.nodes[(e >> 1) as usize];
        if node.var != var {
            return (e, e);
        }
        let neg = e & 1;
        (node.low ^ neg, node.high ^ neg)
    }

    /// The node (var, low, high), made canonical.
    fn mk(&mut self, var: u32, low: Edge, high: Edge) -> Edge {
        if low == high {
            return low;
        }
        let neg = high & 1;
        let (low, high) = (low ^ neg, high ^ neg);
        if 2 * (self.in_use + 1) > self.unique.len() {
            self.grow_unique();
        }
        let mask = self.unique.len() - 1;
        let hash = mix(var, low, high, 0);
        let tag = hash & !u64::from(u32::MAX);
        let mut slot = (hash as usize) & mask;
        loop {
            let entry = self.unique[slot];
            if entry == EMPTY_SLOT {
                break;
            }
            if entry & !u64::from(u32::MAX) == tag {
                let index = entry as u32;
                let n = self.nodes[index as usize];
                if n.var == var && n.low == low && n.high == high {
                    return (index << 1) | neg;
                }
            }
            slot = (slot + 1) & mask;
        }
        let node = Node { var, low, high };
        let index = match self.free.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                self.refs[i as usize] = 0;
                i
            }
            None => {
                self.nodes.push(node);
                self.refs.push(0);
                u32::try_from(self.nodes.len() - 1).expect("fewer than 2^31 nodes")
            }
        };
        self.unique[slot] = tag | u64::from(index);
        self.in_use += 1;
        #[cfg(test)]
        {
            self.made += 1;
        }
        (index << 1) | neg
    }

    fn grow_unique(&mut self) {
        let size = (self.unique.len() * 2).max(1 << 10);
        self.rebuild_unique(size);
        let cache = size.clamp(MIN_CACHE, MAX_CACHE);
        if cache > self.cache.len() {
            self.cache = vec![[0; 5]; cache];
        }
    }

    fn rebuild_unique(&mut self, size: usize) {
        self.unique = vec![0; size];
        let mask = size - 1;
        for (i, n) in self.nodes.iter().enumerate().skip(1) {
            if n.var == FREE_VAR {
                continue;
            }
            let hash = mix(n.var, n.low, n.high, 0);
            let mut slot = (hash as usize) & mask;
            while self.unique[slot] != EMPTY_SLOT {
                slot = (slot + 1) & mask;
            }
            self.unique[slot] = (hash & !u64::from(u32::MAX)) | i as u64;
        }
    }

    fn cache_slot(&self, op: Op, a: Edge, b: Edge, c: Edge) -> usize {
        (mix(op as u32, a, b, c) as usize) & (self.cache.len() - 1)
    }

    fn cached(&self, op: Op, a: Edge, b: Edge, c: Edge) -> Option<Edge> {
        let [o, ea, eb, ec, result] = self.cache[self.cache_slot(op, a, b, c)];
        (o == op as u32 && ea == a && eb == b && ec == c).then_some(result)
    }

    fn remember(&mut self, op: Op, a: Edge, b: Edge, c: Edge, result: Edge) {
        let slot = self.cache_slot(op, a, b, c);
        self.cache[slot] = [op as u32, a, b, c, result];
    }

    /// Frees the nodes no handle reaches when more than the threshold are in use.
    fn maybe_collect(&mut self) {
        if self.in_use < self.gc_threshold {
            return;
        }
        let mut marked = vec![false; self.nodes.len()];
        let mut stack: Vec<u32> = (0..self.nodes.len() as u32)
            .filter(|i| self.refs[*i as usize] > 0)
            .collect();
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut marked[i as usize], true) {
                continue;
            }
            let n = self.nodes[i as usize];
            if n.var < FREE_VAR {
                stack.push(n.low >> 1);
                stack.push(n.high >> 1);
            }
        }
        marked[0] = true;
        self.free.clear();
        for (i, keep) in marked.iter().enumerate().rev() {
            if !keep {
                self.nodes[i].var = FREE_VAR;
                self.free.push(i as u32);
            }
        }
        self.in_use = self.nodes.len() - self.free.len();
        let size = self.unique.len();
        self.rebuild_unique(size);
        // Cache entries that name a freed node go; the others stay valid.
        let live = |e: Edge| marked[(e >> 1) as usize];
        for entry in &mut self.cache {
            let [op, a, b, c, result] = *entry;
            if op != 0 && !(live(a) && live(b) && live(c) && live(result)) {
                *entry = NO_ENTRY;
            }
        }
        self.gc_threshold = (2 * self.in_use).max(self.min_gc_threshold);
    }

    fn and(&mut self, f: Edge, g: Edge) -> Edge {
        self.run(Op::And, f, g, TRUE)
    }

    fn or(&mut self, f: Edge, g: Edge) -> Edge {
        self.run(Op::And, f ^ 1, g ^ 1, TRUE) ^ 1
    }

    fn xor(&mut self, f: Edge, g: Edge) -> Edge {
        self.run(Op::Xor, f, g, TRUE)
    }

    /// ∃ cube. f
    fn exists(&mut self, f: Edge, cube: Edge) -> Edge {
        self.run(Op::Exists, f, TRUE, cube)
    }

    /// ∃ cube. f ∧ g, without building f ∧ g.
    fn and_exists(&mut self, f: Edge, g: Edge, cube: Edge) -> Edge {
        self.run(Op::AndExists, f, g, cube)
    }

    /// Whether f ∧ g is satisfiable, without building it.
    fn intersects(&mut self, f: Edge, g: Edge) -> bool {
        self.run(Op::Intersects, f, g, TRUE) == TRUE
    }

    /// The part of `cube` (a conjunction of positive literals) at or below `var`.
    fn cube_from(&self, mut cube: Edge, var: u32) -> Edge {
        while cube != TRUE && self.var(cube) < var {
            cube = self.nodes[(cube >> 1) as usize].high;
        }
        cube
    }

    /// The first step of `op` on (f, g, cube): its result, when a terminal case or the
    /// cache gives it, else how it splits on its top variable.
    fn start(&mut self, op: Op, f: Edge, g: Edge, cube: Edge) -> Start {
        let (f, g, neg) = match op {
            Op::And | Op::Intersects | Op::AndExists => {
                if f == FALSE || g == FALSE || f == g ^ 1 {
                    return Start::Done(FALSE);
                }
                if op == Op::And {
                    if f == TRUE || f == g {
                        return Start::Done(g);
                    }
                    if g == TRUE {
                        return Start::Done(f);
                    }
                } else if op == Op::Intersects {
                    if f == TRUE || g == TRUE || f == g {
                        return Start::Done(TRUE);
                    }
                } else if f == TRUE || f == g {
                    return self.start(Op::Exists, g, TRUE, cube);
                } else if g == TRUE {
                    return self.start(Op::Exists, f, TRUE, cube);
                }
                let (f, g) = if f < g { (f, g) } else { (g, f) };
                (f, g, 0)
            }
            Op::Xor => {
                let neg = (f ^ g) & 1;
                let (f, g) = (f & !1, g & !1);
                if f == g {
                    return Start::Done(FALSE ^ neg);
                }
                if f == TRUE {
                    return Start::Done(g ^ 1 ^ neg);
                }
                if g == TRUE {
                    return Start::Done(f ^ 1 ^ neg);
                }
                let (f, g) = if f < g { (f, g) } else { (g, f) };
                (f, g, neg)
            }
            Op::Exists => {
                if f <= FALSE {
                    return Start::Done(f);
                }
                (f, TRUE, 0)
            }
        };
        let var = self.var(f).min(self.var(g));
        // A negated cube keeps its variables and quantifies every other one.
        let keep = cube & 1 == 1 && matches!(op, Op::Exists | Op::AndExists);
        let cube = if keep {
            self.cube_from(cube ^ 1, var) ^ 1
        } else {
            self.cube_from(cube, var)
        };
        let all_quantified = if keep {
            cube == TRUE ^ 1
        } else {
            self.everything_from.get(var as usize) == Some(&cube)
        };
        if matches!(op, Op::Exists | Op::AndExists) && all_quantified {
            // Every variable left is quantified: the result is true or false.
            return match op {
                Op::Exists => Start::Done(TRUE),
                _ => self.start(Op::Intersects, f, g, TRUE),
            };
        }
        if cube == TRUE {
            match op {
                Op::Exists => return Start::Done(f),
                Op::AndExists => return self.start(Op::And, f, g, TRUE),
                _ => {}
            }
        }
        if let Some(r) = self.cached(op, f, g, cube) {
            return Start::Done(r ^ neg);
        }
        let (f0, f1) = self.cofactors(f, var);
        let (g0, g1) = self.cofactors(g, var);
        let quantified = if keep {
            self.var(cube ^ 1) != var
        } else {
            op == Op::Intersects || (cube != TRUE && self.var(cube) == var)
        };
        let rest = if keep {
            if quantified {
                cube
            } else {
                self.nodes[(cube >> 1) as usize].high ^ 1
            }
        } else if quantified && cube != TRUE {
            self.nodes[(cube >> 1) as usize].high
        } else {
            cube
        };
        Start::Split(Frame {
            op,
            key: (f, g, cube),
            var,
            neg,
            quantified,
            low_args: (f0, g0, rest),
            high_args: (f1, g1, rest),
            low: None,
        })
    }

    /// Runs `op` on (f, g, cube) with an explicit stack: each frame waits for the results
    /// on its variable's two branches, and a quantified frame whose low branch is already
    /// true skips the high one.
    fn run(&mut self, op: Op, f: Edge, g: Edge, cube: Edge) -> Edge {
        // Operations nest (a quantified split takes a disjunction): each takes a stack
        // from the pool and gives it back.
        let mut stack = self.stacks.pop().unwrap_or_default();
        let mut args = (op, f, g, cube);
        'call: loop {
            let mut result = match self.start(args.0, args.1, args.2, args.3) {
                Start::Done(r) => r,
                Start::Split(frame) => {
                    let (f0, g0, c0) = frame.low_args;
                    args = (frame.op, f0, g0, c0);
                    stack.push(frame);
                    continue 'call;
                }
            };
            loop {
                let Some(frame) = stack.last_mut() else {
                    self.stacks.push(stack);
                    return result;
                };
                if frame.low.is_none() && !(frame.quantified && result == TRUE) {
                    frame.low = Some(result);
                    let (f1, g1, c1) = frame.high_args;
                    args = (frame.op, f1, g1, c1);
                    continue 'call;
                }
                let frame = stack.pop().expect("a frame");
                let r = match frame.low {
                    None => TRUE,
                    // The low branch was false: the high one decides.
                    Some(_) if frame.op == Op::Intersects => result,
                    Some(low) if frame.quantified => match (low, result) {
                        (FALSE, r) | (r, FALSE) => r,
                        (l, r) if l == r => l,
                        (l, r) if l == r ^ 1 => TRUE,
                        (l, r) => self.or(l, r),
                    },
                    Some(low) => self.mk(frame.var, low, result),
                };
                let (a, b, c) = frame.key;
                self.remember(frame.op, a, b, c, r);
                result = r ^ frame.neg;
            }
        }
    }

    /// The set of `rows` over `vars` (in the order of the variables, each at most once,
    /// at most 128): row bit `vars.len() - 1 - i` is the value of `vars[i]`, so that
    /// `rows`, sorted, are the valuations in the order a BDD reads them. Built by
    /// splitting the rows at each variable, a node per distinct prefix and no operation.
    fn rows(&mut self, vars: &[u32], rows: &[u128], depth: usize) -> Edge {
        if rows.is_empty() {
            return FALSE;
        }
        if depth == vars.len() {
            return TRUE;
        }
        let bit = 1u128 << (vars.len() - 1 - depth);
        let split = rows.partition_point(|r| r & bit == 0);
        let low = self.rows(vars, &rows[..split], depth + 1);
        let high = self.rows(vars, &rows[split..], depth + 1);
        self.mk(vars[depth], low, high)
    }

    /// The conjunction of the variables, as a cube.
    fn cube(&mut self, vars: &[BddVariable]) -> Edge {
        let mut sorted: Vec<u32> = vars.iter().map(|v| v.0).collect();
        sorted.sort_unstable();
        sorted.dedup();
        let mut cube = TRUE;
        for v in sorted.into_iter().rev() {
            cube = self.mk(v, FALSE, cube);
        }
        cube
    }

    /// `f` with each variable v where `renamed[v]` replaced by v + 1. No such v + 1 may
    /// occur in `f`, and v + 1 must come before every other variable below v, so that the
    /// order is kept.
    fn rename_next(&mut self, f: Edge, renamed: &[bool]) -> Edge {
        let mut done: HashMap<u32, Edge> = HashMap::new();
        done.insert(0, TRUE);
        let mut stack = vec![f >> 1];
        while let Some(&index) = stack.last() {
            if done.contains_key(&index) {
                stack.pop();
                continue;
            }
            let n = self.nodes[index as usize];
            match (done.get(&(n.low >> 1)), done.get(&(n.high >> 1))) {
                (Some(low), Some(high)) => {
                    let (low, high) = (low ^ (n.low & 1), high ^ (n.high & 1));
                    let var = if renamed.get(n.var as usize) == Some(&true) {
                        n.var + 1
                    } else {
                        n.var
                    };
                    let r = self.mk(var, low, high);
                    done.insert(index, r);
                    stack.pop();
                }
                (low, high) => {
                    if low.is_none() {
                        stack.push(n.low >> 1);
                    }
                    if high.is_none() {
                        stack.push(n.high >> 1);
                    }
                }
            }
        }
        done[&(f >> 1)] ^ (f & 1)
    }

    fn eval(&self, mut e: Edge, values: &[bool]) -> bool {
        loop {
            let n = self.nodes[(e >> 1) as usize];
            if n.var == TERMINAL_VAR {
                return e == TRUE;
            }
            let next = if values.get(n.var as usize) == Some(&true) {
                n.high
            } else {
                n.low
            };
            e = next ^ (e & 1);
        }
    }

    /// Starts a traversal: no node is visited yet.
    fn new_traversal(&mut self) {
        self.visits.resize(self.nodes.len(), 0);
        self.traversal = self.traversal.wrapping_add(1);
        if self.traversal == 0 {
            self.visits.fill(0);
            self.traversal = 1;
        }
    }

    /// Whether the current traversal reaches node `index` for the first time.
    fn first_visit(&mut self, index: u32) -> bool {
        let seen = &mut self.visits[index as usize];
        std::mem::replace(seen, self.traversal) != self.traversal
    }

    /// Every node `e` reaches, terminal included.
    fn reachable(&mut self, e: Edge) -> Vec<u32> {
        self.new_traversal();
        self.first_visit(e >> 1);
        let mut seen = vec![e >> 1];
        let mut at = 0;
        while at < seen.len() {
            let n = self.nodes[seen[at] as usize];
            at += 1;
            if n.var == TERMINAL_VAR {
                continue;
            }
            for child in [n.low >> 1, n.high >> 1] {
                if self.first_visit(child) {
                    seen.push(child);
                }
            }
        }
        seen
    }
}

/// A BDD: a handle on a function in its manager's node table.
pub(crate) struct Bdd {
    manager: Rc<RefCell<Manager>>,
    edge: Edge,
}

/// Makes the handles of one manager.
#[derive(Clone)]
pub(super) struct Diagrams {
    manager: Rc<RefCell<Manager>>,
}

impl Diagrams {
    /// A manager of `num_vars` variables (at most [`MAX_VARS`]).
    pub(super) fn new(num_vars: usize) -> Diagrams {
        Diagrams {
            manager: Rc::new(RefCell::new(Manager::new(num_vars))),
        }
    }

    fn handle(&self, edge: Edge) -> Bdd {
        Bdd::new(&self.manager, edge)
    }

    pub(super) fn num_vars(&self) -> usize {
        self.manager.borrow().num_vars as usize
    }

    /// The most nodes the manager has held at once (its table never shrinks).
    #[cfg(test)]
    pub(super) fn nodes_made(&self) -> usize {
        self.manager.borrow().nodes.len()
    }

    /// How many nodes the manager has made, those collected since included.
    #[cfg(test)]
    pub(super) fn nodes_ever(&self) -> u64 {
        self.manager.borrow().made
    }

    pub(super) fn mk_true(&self) -> Bdd {
        self.handle(TRUE)
    }

    pub(super) fn mk_false(&self) -> Bdd {
        self.handle(FALSE)
    }

    /// The function `var == value`.
    pub(super) fn mk_literal(&self, var: BddVariable, value: bool) -> Bdd {
        let edge = {
            let mut m = self.manager.borrow_mut();
            m.maybe_collect();
            m.mk(var.0, FALSE, TRUE)
        };
        self.handle(if value { edge } else { edge ^ 1 })
    }

    pub(super) fn mk_var(&self, var: BddVariable) -> Bdd {
        self.mk_literal(var, true)
    }

    /// The conjunction of `vars`: how [`Bdd::exists`] and [`Bdd::and_exists`] take the
    /// variables they quantify. Its negation (`cube(vars).not()`) asks them to quantify
    /// every variable but `vars`: a few nodes where the cube of all the others would
    /// take one per variable, new for each set of variables kept.
    pub(super) fn cube(&self, vars: &[BddVariable]) -> Bdd {
        let edge = {
            let mut m = self.manager.borrow_mut();
            m.maybe_collect();
            m.cube(vars)
        };
        self.handle(edge)
    }

    /// For each of `sets`, the set of its valuations of `vars` (see [`Manager::rows`]:
    /// `vars` in the order of the variables, at most 128; each set's rows sorted,
    /// without repeats).
    pub(super) fn rows<'r>(
        &self,
        vars: &[BddVariable],
        sets: impl Iterator<Item = &'r [u128]>,
    ) -> Vec<Bdd> {
        debug_assert!(vars.len() <= 128 && vars.windows(2).all(|w| w[0].0 < w[1].0));
        let vars: Vec<u32> = vars.iter().map(|v| v.0).collect();
        let mut made = Vec::new();
        for rows in sets {
            debug_assert!(rows.windows(2).all(|w| w[0] < w[1]));
            let edge = {
                let mut m = self.manager.borrow_mut();
                m.maybe_collect();
                m.rows(&vars, rows, 0)
            };
            made.push(self.handle(edge));
        }
        made
    }
}

impl Bdd {
    fn new(manager: &Rc<RefCell<Manager>>, edge: Edge) -> Bdd {
        manager.borrow_mut().refs[(edge >> 1) as usize] += 1;
        Bdd {
            manager: manager.clone(),
            edge,
        }
    }

    /// Runs `op` on the manager (after collecting garbage if it is time) and wraps the
    /// edge it returns.
    fn apply(&self, op: impl FnOnce(&mut Manager) -> Edge) -> Bdd {
        let edge = {
            let mut m = self.manager.borrow_mut();
            m.maybe_collect();
            op(&mut m)
        };
        Bdd::new(&self.manager, edge)
    }

    pub(super) fn not(&self) -> Bdd {
        Bdd::new(&self.manager, self.edge ^ 1)
    }

    pub(super) fn and(&self, other: &Bdd) -> Bdd {
        self.apply(|m| m.and(self.edge, other.edge))
    }

    pub(super) fn or(&self, other: &Bdd) -> Bdd {
        self.apply(|m| m.or(self.edge, other.edge))
    }

    pub(super) fn and_not(&self, other: &Bdd) -> Bdd {
        self.apply(|m| m.and(self.edge, other.edge ^ 1))
    }

    pub(super) fn imp(&self, other: &Bdd) -> Bdd {
        self.apply(|m| m.and(self.edge, other.edge ^ 1) ^ 1)
    }

    pub(super) fn xor(&self, other: &Bdd) -> Bdd {
        self.apply(|m| m.xor(self.edge, other.edge))
    }

    pub(super) fn iff(&self, other: &Bdd) -> Bdd {
        self.apply(|m| m.xor(self.edge, other.edge) ^ 1)
    }

    /// `if c then a else b`.
    pub(super) fn if_then_else(c: &Bdd, a: &Bdd, b: &Bdd) -> Bdd {
        c.apply(|m| {
            let then = m.and(c.edge, a.edge);
            let otherwise = m.and(c.edge ^ 1, b.edge);
            m.or(then, otherwise)
        })
    }

    /// ∃ vars. self, the variables given as a cube ([`Diagrams::cube`]).
    pub(super) fn exists(&self, cube: &Bdd) -> Bdd {
        self.apply(|m| m.exists(self.edge, cube.edge))
    }

    /// ∃ vars. self ∧ other, the variables given as a cube ([`Diagrams::cube`]).
    pub(super) fn and_exists(&self, other: &Bdd, cube: &Bdd) -> Bdd {
        self.apply(|m| m.and_exists(self.edge, other.edge, cube.edge))
    }

    /// Whether self ∧ other has a satisfying valuation.
    pub(super) fn intersects(&self, other: &Bdd) -> bool {
        let mut m = self.manager.borrow_mut();
        m.maybe_collect();
        m.intersects(self.edge, other.edge)
    }

    /// `self` with each variable v where `renamed[v]` replaced by v + 1: v + 1 must not
    /// occur in `self` and must come right after v in the order of the variables `self`
    /// mentions.
    pub(super) fn rename_to_next(&self, renamed: &[bool]) -> Bdd {
        self.apply(|m| m.rename_next(self.edge, renamed))
    }

    pub(super) fn is_true(&self) -> bool {
        self.edge == TRUE
    }

    pub(super) fn is_false(&self) -> bool {
        self.edge == FALSE
    }

    pub(super) fn eval_in(&self, valuation: &BddValuation) -> bool {
        self.manager.borrow().eval(self.edge, &valuation.0)
    }

    /// The first variable, in the order, that the function tests (None: a constant).
    pub(super) fn top_var(&self) -> Option<usize> {
        let var = self.manager.borrow().nodes[(self.edge >> 1) as usize].var;
        (var != TERMINAL_VAR).then_some(var as usize)
    }

    /// The number of nodes, the terminal included.
    pub(super) fn size(&self) -> usize {
        self.manager.borrow_mut().reachable(self.edge).len()
    }
}

impl Clone for Bdd {
    fn clone(&self) -> Bdd {
        Bdd::new(&self.manager, self.edge)
    }
}

impl Drop for Bdd {
    fn drop(&mut self) {
        if let Ok(mut m) = self.manager.try_borrow_mut() {
            let r = &mut m.refs[(self.edge >> 1) as usize];
            *r = r.saturating_sub(1);
        }
    }
}

impl PartialEq for Bdd {
    fn eq(&self, other: &Bdd) -> bool {
        self.edge == other.edge && Rc::ptr_eq(&self.manager, &other.manager)
    }
}

impl Eq for Bdd {}

impl Hash for Bdd {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.edge.hash(state);
    }
}

impl fmt::Debug for Bdd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Bdd({}{})",
            if self.edge & 1 == 1 { "¬" } else { "" },
            self.edge >> 1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }
    }

    const VARS: usize = 6;

    /// A function as its truth table over `VARS` variables (bit i of the index: var i).
    type Table = Vec<bool>;

    fn table(f: &Bdd) -> Table {
        (0..1usize << VARS)
            .map(|row| {
                let mut v = BddValuation::all_false(VARS);
                for i in 0..VARS {
                    v.set_value(BddVariable::from_index(i), row >> i & 1 == 1);
                }
                f.eval_in(&v)
            })
            .collect()
    }

    /// A random function and its truth table, built from literals with and/or/xor/not.
    fn random(d: &Diagrams, rng: &mut Rng, depth: u32) -> (Bdd, Table) {
        if depth == 0 || rng.next().is_multiple_of(4) {
            let var = (rng.next() % VARS as u64) as usize;
            let value = rng.next().is_multiple_of(2);
            let f = d.mk_literal(BddVariable::from_index(var), value);
            let t = (0..1usize << VARS)
                .map(|r| (r >> var & 1 == 1) == value)
                .collect();
            return (f, t);
        }
        let (a, ta) = random(d, rng, depth - 1);
        let (b, tb) = random(d, rng, depth - 1);
        let zip = |op: fn(bool, bool) -> bool| -> Table {
            ta.iter().zip(&tb).map(|(x, y)| op(*x, *y)).collect()
        };
        match rng.next() % 6 {
            0 => (a.and(&b), zip(|x, y| x && y)),
            1 => (a.or(&b), zip(|x, y| x || y)),
            2 => (a.xor(&b), zip(|x, y| x != y)),
            3 => (a.iff(&b), zip(|x, y| x == y)),
            4 => (a.imp(&b), zip(|x, y| !x || y)),
            _ => (a.and_not(&b).not(), zip(|x, y| !x || y)),
        }
    }

    fn exists_table(t: &Table, vars: &[usize]) -> Table {
        (0..1usize << VARS)
            .map(|row| {
                (0..1usize << vars.len()).any(|pick| {
                    let mut r = row;
                    for (k, v) in vars.iter().enumerate() {
                        r = (r & !(1 << v)) | ((pick >> k & 1) << v);
                    }
                    t[r]
                })
            })
            .collect()
    }

    #[test]
    fn operations_agree_with_truth_tables() {
        let d = Diagrams::new(VARS);
        let mut rng = Rng(7);
        for _ in 0..400 {
            let (f, tf) = random(&d, &mut rng, 5);
            let (g, tg) = random(&d, &mut rng, 4);
            assert_eq!(table(&f), tf);
            // Canonical: equal functions are equal handles.
            assert_eq!(f == g, tf == tg);
            assert_eq!(f.is_false(), tf.iter().all(|x| !x));
            assert_eq!(f.is_true(), tf.iter().all(|x| *x));
            let both: Table = tf.iter().zip(&tg).map(|(x, y)| *x && *y).collect();
            assert_eq!(f.intersects(&g), both.iter().any(|x| *x));
            let ite = Bdd::if_then_else(&f, &g, &f.not());
            let tite: Table = (0..tf.len())
                .map(|r| if tf[r] { tg[r] } else { !tf[r] })
                .collect();
            assert_eq!(table(&ite), tite);
            let vars: Vec<usize> = (0..VARS).filter(|_| rng.next().is_multiple_of(2)).collect();
            let bdd_vars: Vec<BddVariable> =
                vars.iter().map(|v| BddVariable::from_index(*v)).collect();
            let cube = d.cube(&bdd_vars);
            assert_eq!(table(&f.exists(&cube)), exists_table(&tf, &vars));
            assert_eq!(table(&f.and_exists(&g, &cube)), exists_table(&both, &vars));
            // The negated cube of the others quantifies the same variables.
            let others: Vec<BddVariable> = (0..VARS)
                .filter(|v| !vars.contains(v))
                .map(BddVariable::from_index)
                .collect();
            let all_but = d.cube(&others).not();
            assert_eq!(table(&f.exists(&all_but)), exists_table(&tf, &vars));
            assert_eq!(
                table(&f.and_exists(&g, &all_but)),
                exists_table(&both, &vars)
            );
            let count = tf.iter().filter(|x| **x).count() as u128;
            let all: Vec<BddVariable> = (0..VARS).map(BddVariable::from_index).collect();
            assert_eq!(f.count(&all), Some(count));
            let support: Vec<BddVariable> = (0..VARS)
                .filter(|v| (0..tf.len()).any(|r| tf[r] != tf[r ^ (1 << v)]))
                .map(BddVariable::from_index)
                .collect();
            assert_eq!(f.support(), support);
        }
    }

    #[test]
    fn a_partial_valuation_is_satisfiable_when_some_row_agrees() {
        let d = Diagrams::new(VARS);
        let mut rng = Rng(11);
        for _ in 0..300 {
            let (f, tf) = random(&d, &mut rng, 5);
            let fixed: Vec<Option<bool>> = (0..VARS)
                .map(|_| match rng.next() % 3 {
                    0 => Some(false),
                    1 => Some(true),
                    _ => None,
                })
                .collect();
            let expected = (0..tf.len()).any(|r| {
                tf[r] && (0..VARS).all(|v| fixed[v].is_none_or(|b| (r >> v & 1 == 1) == b))
            });
            assert_eq!(f.satisfiable_with(&fixed), expected);
        }
    }

    #[test]
    fn renaming_moves_variables_to_the_next_level() {
        // Variables 0, 2, 4 are used; 1, 3, 5 are their copies.
        let d = Diagrams::new(VARS);
        let v = |i| d.mk_var(BddVariable::from_index(i));
        let f = v(0).and(&v(2).not()).or(&v(4).xor(&v(0)));
        let renamed = f.rename_to_next(&[true, false, false, false, true, false]);
        let expected = v(1).and(&v(2).not()).or(&v(5).xor(&v(1)));
        assert_eq!(renamed, expected);
    }

    #[test]
    fn counts_beyond_128_bits_are_none_and_exact_below() {
        let n = 300;
        let d = Diagrams::new(n);
        let all: Vec<BddVariable> = (0..n).map(BddVariable::from_index).collect();
        assert_eq!(d.mk_true().count(&all), None);
        assert_eq!(d.mk_false().count(&all), Some(0));
        // All but 64 variables fixed: 2^64 valuations, beyond u64 but exact.
        let mut f = d.mk_true();
        for v in &all[64..] {
            f = f.and(&d.mk_literal(*v, v.to_index() % 3 == 0));
        }
        assert_eq!(f.count(&all), Some(1u128 << 64));
        assert_eq!(f.not().count(&all), None);
        assert_eq!(f.count(&all[..]), Some(1u128 << 64));
    }

    #[test]
    fn collected_nodes_are_reused_and_live_functions_survive() {
        let d = Diagrams::new(VARS);
        {
            let mut m = d.manager.borrow_mut();
            m.gc_threshold = 8;
            m.min_gc_threshold = 8;
        }
        let mut rng = Rng(3);
        let mut kept: Vec<(Bdd, Table)> = Vec::new();
        for round in 0..200 {
            let (f, tf) = random(&d, &mut rng, 5);
            assert_eq!(table(&f), tf);
            // Operations on functions that lived through collections: the computed
            // cache keeps only entries whose nodes all survived.
            for (g, tg) in &kept {
                assert_eq!(&table(g), tg);
                let both: Table = tf.iter().zip(tg).map(|(x, y)| *x && *y).collect();
                assert_eq!(table(&f.and(g)), both);
                assert_eq!(table(&g.and(&f)), both);
            }
            if round % 10 == 0 {
                kept.push((f, tf));
            }
            let m = d.manager.borrow();
            assert!(
                m.nodes.len() < 2000,
                "freed nodes are reused: {}",
                m.nodes.len()
            );
        }
    }

    /// Operations as deep as 2^16 variables run on a small stack.
    #[test]
    fn deep_operations_need_no_deep_stack() {
        const DEEP: usize = 1 << 16;
        std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(|| {
                let d = Diagrams::new(DEEP);
                let mut chain = d.mk_false();
                let mut other = d.mk_false();
                for i in (0..DEEP).rev() {
                    let x = d.mk_var(BddVariable::from_index(i));
                    chain = x.xor(&chain);
                    other = x.or(&other);
                }
                let all: Vec<BddVariable> = (0..DEEP).map(BddVariable::from_index).collect();
                // Odd parity implies some variable is true.
                let both = chain.and(&other);
                assert_eq!(both, chain);
                let cube = d.cube(&all[1..]);
                assert!(both.and_exists(&chain, &cube).is_true());
                assert!(chain.exists(&cube).is_true());
                assert!(chain.xor(&other).intersects(&chain.not()));
                assert_eq!(both.count(&all), None);
                assert_eq!(both.count(&all[..100]), None, "not only those variables");
            })
            .expect("a thread")
            .join()
            .expect("no stack overflow");
    }
}
