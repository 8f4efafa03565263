//! The explicit-worlds backend: when the story's first announcements bound every
//! constant, its worlds are listed natively once ([`bound`]: interval propagation and
//! search, no solver), held in columns ([`column`](mod@column)). A knowledge state is a set of world
//! indices (a range, a sorted list or a bitmap: [`world_ids`]) plus what each character
//! learned; a set of a state's worlds is a flag per world ([`flags`]); `K_A φ` and
//! `knows_value` group the state's worlds by A's view ([`groups`], [`eval`]), over the
//! state's own span of the universe; a plan's search rebuilds each state it meets as
//! its contraction's worlds ([`rebuild`]). It makes no
//! Z3 context: questions about states before its bounds hold, and an `actual` whose
//! worlds its intervals cannot list ([`ExplicitBackend::pin`]), are handed over
//! ([`handover`]) to the standby that `choice` makes. docs/encoding.md describes it
//! beside the other backends.

mod belief;
mod bound;
mod cases;
mod chance;
mod column;
mod direct;
mod eval;
mod flags;
mod forget;
mod groups;
mod handover;
mod memo;
mod rebuild;
mod search;
mod universe;
mod world_ids;

use std::collections::BinaryHeap;
use std::rc::Rc;
use std::time::Instant;

use super::driver::{
    Backend, Handover, HandsOver, Hint, Hints, Learning, Listing, Offers, Origin, Plausibility,
    Probabilities, Rebuilding, Said, Semantics, Tables, Views,
};
use super::{Failure, FastMap, Options};
use crate::ir::{CharId, ConstId, Expr, ExprKind, Program, Ty};
use crate::syntax::Span;
use crate::worlds::{Model, Value, World, WorldCount, WorldSet};
use bound::Interval;
pub(crate) use cases::{cases_of, is_nonlinear};
use eval::CHUNK;
use flags::Flags;
use groups::Groups;
use memo::Memo;
use search::{Limits, Stop};
pub use universe::bounds_the_worlds;
pub(crate) use universe::loose_by_first;
pub(super) use universe::{Loose, beyond_i64, finite_type_worlds, first_bounds};
use universe::{
    MAX_OCCURRENCE_VALUES, Universe, bounding_prefix, check_widths, event_worlds, exact,
    list_worlds, list_worlds_in, refusal, type_box_after,
};
use world_ids::WorldIds;

use crate::limits::{AUTO_MAX_EVENT_WORLDS, Budget, Size};

/// A state of at most this many worlds has its constants' terms evaluated a world at a
/// time ([`universe::exact`]), not in columns.
const SCALAR_WORLDS: usize = 4;

/// What a character learned: a constant, the value of an expression, or whether a
/// formula with knowledge operators held when it was learned (for each universe world).
#[derive(Clone)]
enum Learned {
    Const(usize),
    Expr(Rc<Expr>),
    Set(Rc<Flags>),
    /// A number per world of a rebuilt state ([`rebuild`]): its group, or its rank.
    Classes(Rc<rebuild::Classes>),
}

/// A knowledge state: κ's worlds, and what each character learned and expects.
pub(crate) struct State {
    id: u64,
    /// How many of the story's first announcements (those that bound the universe) are
    /// still to come: κ is then the constants' types and the ones before, not yet the
    /// universe that `worlds` lists.
    pending: usize,
    worlds: Rc<WorldIds>,
    minds: Rc<Minds>,
    /// How many worlds the universe had when the state was made: a world made later by
    /// an event stands, in this state, for the world it came from.
    born: usize,
}

/// Per character: what it learned (which worlds it tells apart), and its plausibility
/// ranks, most significant first (a world's rank is the tuple of their values, compared
/// lexicographically, lower more plausible): a formula expected (`Set`, rank 0 where it
/// held) or an event's case ranks (`Expr`).
#[derive(Clone, Default)]
pub(crate) struct Minds {
    learned: Vec<Vec<Learned>>,
    /// Per character, an id for each prefix of its `learned` list (the id of its list
    /// after each item): ids are never reused, so two lists with the same last id are
    /// the same list. What a character learns grows along the story, but a formula's
    /// announcement to a group (`[A ! φ] ψ`) branches off it; views are memoised by id.
    lists: Vec<Vec<u64>>,
    ranks: Vec<Vec<Learned>>,
}

impl Minds {
    /// The id of the first `k` items `agent` learned (0 for none).
    fn list(&self, agent: usize, k: usize) -> u64 {
        match k {
            0 => 0,
            _ => self.lists[agent][k - 1],
        }
    }
}

/// A set of worlds: which of a state's worlds it holds.
#[derive(Clone)]
pub(crate) struct Set {
    worlds: Rc<WorldIds>,
    bits: Rc<Flags>,
}

pub(crate) struct ExplicitBackend {
    program: Rc<Program>,
    options: Options,
    /// The announcements that bound the universe.
    prefix: Vec<Expr>,
    universe: Rc<Universe>,
    deadline: Option<Instant>,
    /// Knowledge tables of the running statement.
    memo: Memo<Rc<Vec<bool>>>,
    /// The worlds each agent finds most plausible, by (state, agent), for the running
    /// statement.
    plausible: FastMap<(u64, usize), Rc<WorldIds>>,
    /// Each character's groups, by (character, how many things it has learned, the id of
    /// that list): what a character learns only grows. A few per list, each over its own
    /// span of the universe ([`ExplicitBackend::span`]).
    views: FastMap<(usize, usize, u64), Vec<Rc<Groups>>>,
    /// Whether a state's groups are made over its own span of the universe rather than
    /// the whole of it: unless a formula reads a state at worlds made after it
    /// (`at(c, …)`), a plan's search then makes each state's views in time proportional
    /// to its worlds, not to every world the search made.
    local_views: bool,
    /// Whether a formula of the story may fail whatever its operands' values (a
    /// probability, an event's name, a checkpoint, a quantifier): a formula asked at the
    /// actual world then evaluates both sides of its connectives.
    may_fail: bool,
    /// The groups of worlds that agree on everything some characters learned (for
    /// distributed knowledge), by (character, how many things it has learned) of each.
    joint: FastMap<Vec<(usize, u64)>, Rc<Groups>>,
    next_id: u64,
    /// The last id given to a list of things learned ([`Minds::lists`]).
    next_list: u64,
    /// Which occurrence constants have happened (their events ran).
    happened: Vec<bool>,
    /// Each universe world's weight, when the story speaks of chances.
    weights: Option<Rc<chance::Weights>>,
    /// Probabilities of the running statement, by (kind, formula, agent, state).
    chance_memo: Memo<chance::RatCol>,
    /// Comparisons of probabilities of the running statement, per group.
    chance_tables: Memo<chance::ChanceTable>,
    /// Shared expressions' values in the last chunk evaluated.
    shared: eval::SharedCols,
}

/// A question the driver hands over for states before the universe's bounds hold
/// ([`HandsOver::handed_over`]), asked here.
fn handed_over() -> Failure {
    eval::internal(
        "a question about a state before the worlds are listed, which the driver hands over",
    )
}

/// Why the explicit backend does not take a story, and where.
pub(crate) struct Refusal {
    pub why: String,
    pub span: Option<Span>,
    /// The run's time ran out while listing the worlds: no other backend is tried.
    pub timed_out: bool,
    /// Refused for the worlds the events would make: Auto tries the BDD backend next.
    pub events: bool,
}

impl Refusal {
    /// A refusal for `why`, reported at the story's first statement.
    pub(crate) fn because(why: String) -> Refusal {
        Refusal {
            why,
            span: None,
            timed_out: false,
            events: false,
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
        if let Some(span) = quantifier_in(&program) {
            return Err(Refusal {
                span: Some(span),
                ..Refusal::because(
                    "the explicit-worlds backend lists only the possible worlds, and a \
                     quantifier over constants (`forall p: …`) looks at others: the `bdd` or \
                     `z3` backend can"
                        .into(),
                )
            });
        }
        let deadline = options.deadline;
        let Budget {
            max_worlds,
            max_nodes,
            max_work,
        } = size.budget();
        let limits = Limits {
            max_worlds,
            max_nodes,
            max_work,
            deadline,
            cancel: options.cancel.clone(),
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
                events: false,
            });
        }
        check_widths(&program, &root)?;
        let bytes: usize = columns.iter().map(|c| c.bytes()).sum();
        tracing::debug!(worlds = len, bytes, "explicit backend: worlds listed");
        let occurrences = program.occurrences().count() as u128;
        if occurrences * len as u128 > MAX_OCCURRENCE_VALUES {
            return Err(Refusal {
                events: true,
                ..Refusal::because(format!(
                    "the explicit-worlds backend would keep {occurrences} columns of event \
                     occurrences over {len} worlds, more than {MAX_OCCURRENCE_VALUES} values"
                ))
            });
        }
        let bound = event_worlds(&program, len).filter(|&b| b > AUTO_MAX_EVENT_WORLDS);
        if let (Some(bound), false) = (bound, matches!(size, Size::Forced)) {
            return Err(Refusal {
                why: format!(
                    "the events could make up to {bound} worlds of the {len} listed, \
                     more than {AUTO_MAX_EVENT_WORLDS}"
                ),
                span: None,
                timed_out: false,
                events: true,
            });
        }
        let prefix = prefix.into_iter().cloned().collect();
        let universe = Rc::new(Universe::new(columns, len));
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
        let local_views = !reads_checkpoints(&program);
        let may_fail = may_fail_in(&program);
        ExplicitBackend {
            program,
            options: options.clone(),
            prefix,
            universe,
            deadline,
            memo: Memo::default(),
            plausible: FastMap::default(),
            views: FastMap::default(),
            local_views,
            may_fail,
            joint: FastMap::default(),
            next_id: 0,
            next_list: 0,
            happened: Vec::new(),
            weights: None,
            chance_memo: Memo::default(),
            chance_tables: Memo::default(),
            shared: Default::default(),
        }
    }

    fn check_deadline(&self) -> Result<(), Failure> {
        self.options.cancel.check()?;
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Failure::Timeout),
            _ => Ok(()),
        }
    }

    /// `who` learns `item`: its list grows and gets a new id.
    fn push_learned(&mut self, minds: &mut Minds, who: usize, item: Learned) {
        self.next_list += 1;
        minds.learned[who].push(item);
        minds.lists[who].push(self.next_list);
    }

    /// `who` learns whether a formula holds, given per universe world.
    fn learn_flags(&mut self, state: &Rc<State>, who: CharId, bits: Rc<Flags>) -> Rc<State> {
        let mut minds = (*state.minds).clone();
        self.push_learned(&mut minds, who.0, Learned::Set(bits));
        self.state(state.pending, state.worlds.clone(), Rc::new(minds))
    }

    fn state(&mut self, pending: usize, worlds: Rc<WorldIds>, minds: Rc<Minds>) -> Rc<State> {
        self.next_id += 1;
        Rc::new(State {
            id: self.next_id,
            pending,
            worlds,
            minds,
            born: self.universe.len,
        })
    }

    /// Whether `w` is a world of `state`, or was made later (by an event) from one: an
    /// `at(c, …)` asked at a world of today is asked at the world it came from.
    pub(super) fn of_state(&self, state: &State, w: u32) -> bool {
        let then = self.universe.ancestor(w as usize, state.born);
        u32::try_from(then).is_ok_and(|then| state.worlds.contains(then))
    }

    /// A state of no world, to evaluate knowledge-free expressions with.
    fn scratch(&mut self) -> Rc<State> {
        self.state(0, Rc::new(WorldIds::List(Vec::new())), Rc::default())
    }

    /// The values of universe world `w`.
    fn world(&self, w: u32) -> World {
        World(
            self.program
                .constants
                .iter()
                .zip(&self.universe.columns)
                .map(|(c, col)| match c.ty {
                    Ty::Bool => Value::Bool(col.get(w as usize) != 0),
                    _ => Value::Int(col.get(w as usize)),
                })
                .collect(),
        )
    }

    /// The canonical order's key of universe world `w`: its magnitude, then its index
    /// (the universe is in lexicographic order of values). With the histories forgotten
    /// the occurrences are left out, as on BDDs (they are all at their not-yet value).
    fn key(&self, w: u32) -> (u64, u32) {
        let forgets = self.options.history == crate::History::ForgottenWhereUnread;
        let magnitude = self
            .program
            .constants
            .iter()
            .zip(&self.universe.columns)
            .filter(|(c, _)| c.ty != Ty::Bool && !(forgets && c.occurrence.is_some()))
            .map(|(_, col)| col.get(w as usize).unsigned_abs())
            .max()
            .unwrap_or(0);
        (magnitude, w)
    }

    /// The first `limit` of `worlds` in canonical order.
    fn first(&self, worlds: &WorldIds, limit: usize) -> Vec<u32> {
        if worlds.len() <= limit {
            let mut keys: Vec<(u64, u32)> = worlds.iter().map(|w| self.key(w)).collect();
            keys.sort_unstable();
            return keys.into_iter().map(|(_, w)| w).collect();
        }
        let mut heap = BinaryHeap::with_capacity(limit + 1);
        for w in worlds.iter() {
            heap.push(self.key(w));
            if heap.len() > limit {
                heap.pop();
            }
        }
        heap.into_sorted_vec().into_iter().map(|(_, w)| w).collect()
    }

    fn filtered(&mut self, state: &Rc<State>, set: &Set, keep: bool) -> Result<Rc<State>, Failure> {
        if !Rc::ptr_eq(&set.worlds, &state.worlds) {
            return Err(eval::internal("a set of another state"));
        }
        // Counted first: the list is made at its size (no growth copying it), and not
        // at all when every world stays (Sum and Product's first announcement at 10 000
        // keeps its 25 million worlds: the state shares them).
        let count = set.bits.count(keep);
        if count == state.worlds.len() {
            return Ok(self.state(0, state.worlds.clone(), state.minds.clone()));
        }
        let worlds = (state.worlds).select(&set.bits, keep, count, self.universe.len, || {
            self.check_deadline()
        })?;
        Ok(self.state(0, Rc::new(worlds), state.minds.clone()))
    }

    /// What a learned item is in each of `order`'s worlds, as a model's views hold it.
    fn observed(&mut self, item: &Learned, order: &[u32]) -> Result<Vec<Value>, Failure> {
        Ok(match item {
            Learned::Const(c) => order.iter().map(|&w| self.world(w).0[*c]).collect(),
            Learned::Set(bits) => order
                .iter()
                .map(|&w| Value::Bool(self.learned_bit(bits, w as usize)))
                .collect(),
            Learned::Classes(c) => order
                .iter()
                .map(|&w| Value::Int(i64::from(self.class_of(c, w as usize))))
                .collect(),
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

    /// A set of a state's worlds as a bit per universe world (false outside the state).
    fn universe_bits(&self, set: &Set) -> Rc<Flags> {
        let mut bits = Flags::filled(self.universe.len, false);
        for (w, b) in set.worlds.iter().zip(set.bits.iter()) {
            if b {
                bits.set(w as usize, true);
            }
        }
        Rc::new(bits)
    }

    /// Whether a formula learned over the universe as it was then holds at world `w`
    /// (made later by an event: at the world it came from).
    fn learned_bit(&self, bits: &Flags, w: usize) -> bool {
        bits.get(self.universe.ancestor(w, bits.len()))
    }

    /// The interval a learned item's values stay in, from the universe's box `dom`
    /// ([`Universe::ranges`](universe::Universe::ranges)).
    fn key_range(dom: &[Interval], item: &Learned) -> (i128, i128) {
        let d = match item {
            Learned::Const(c) => dom[*c],
            Learned::Expr(e) => bound::interval(e, dom),
            Learned::Set(_) => return (0, 1),
            Learned::Classes(c) => return (0, i128::from(c.max())),
        };
        (d.lo, d.hi)
    }
}

impl ExplicitBackend {
    /// The epistemic model of κ when it has at most `cap` worlds, its views as `views`
    /// says.
    fn listed_model(
        &mut self,
        state: &Rc<State>,
        cap: usize,
        views: Views,
    ) -> Result<Option<Model>, Failure> {
        if state.pending > 0 {
            return Err(handed_over());
        }
        if state.worlds.len() > cap {
            return Ok(None);
        }
        // A plan's search reads a model up to bisimulation: any order of its worlds does.
        let order = match views {
            Views::Observed => self.first(&state.worlds, cap),
            Views::Grouped => state.worlds.iter().collect(),
        };
        let worlds: Vec<World> = order.iter().map(|&w| self.world(w)).collect();
        let mut listed = Vec::with_capacity(state.minds.learned.len());
        for (who, learned) in state.minds.learned.iter().enumerate() {
            let view = match views {
                Views::Observed => {
                    // (Not `vec![…; n]`: a clone of an empty vector has no capacity.)
                    let mut view: Vec<Vec<Value>> = (0..order.len())
                        .map(|_| Vec::with_capacity(learned.len()))
                        .collect();
                    for item in learned {
                        for (v, o) in view.iter_mut().zip(self.observed(item, &order)?) {
                            v.push(o);
                        }
                    }
                    view
                }
                Views::Grouped => {
                    let groups = self.groups(state, who)?;
                    (order.iter())
                        .map(|&w| vec![Value::Int(groups.of(w) as i64)])
                        .collect()
                }
            };
            listed.push(view);
        }
        Ok(Some(Model {
            before: None,
            worlds,
            views: listed,
            ranks: (self.ranks_at(state, &order)?.into_iter())
                .map(|(stride, rows)| match stride {
                    0 => vec![Vec::new(); order.len()],
                    _ => rows.chunks(stride).map(<[i64]>::to_vec).collect(),
                })
                .collect(),
            chances: self.chances_of(state, &order),
        }))
    }

    /// Per character, the plausibility ranks of the worlds `order` of `state`: how many
    /// a world, and each world's in a row (as [`Tables::ranks`]).
    fn ranks_at(
        &mut self,
        state: &State,
        order: &[u32],
    ) -> Result<Vec<(usize, Vec<i64>)>, Failure> {
        let mut ranks = Vec::with_capacity(state.minds.ranks.len());
        for own in state.minds.ranks.iter() {
            let stride = own.len();
            let mut rows = vec![0i64; order.len() * stride];
            for (j, rank) in own.iter().enumerate() {
                for (w, v) in self.rank_values(rank, order)?.into_iter().enumerate() {
                    rows[w * stride + j] = i64::try_from(v).unwrap_or(i64::MAX);
                }
            }
            ranks.push((stride, rows));
        }
        Ok(ranks)
    }

    /// The values of the constants `own` in the worlds `order` of `state`, `own.len()`
    /// numbers a world: read from the universe's columns, or evaluated from their
    /// `terms` when constants changed. None when one leaves the 64-bit integers (or
    /// the 128 bits the evaluation computes in).
    fn own_values(
        &mut self,
        state: &Rc<State>,
        order: &[u32],
        terms: Option<&[Expr]>,
        own: &[usize],
    ) -> Result<Option<Vec<i64>>, Failure> {
        let stride = own.len();
        let mut out = vec![0i64; order.len() * stride];
        // A state of a few worlds (a plan's search's): each world's row, read once for
        // its terms' values in one world (`universe::exact`), not in columns.
        let mut points: Option<Vec<Vec<i128>>> = None;
        for (j, &k) in own.iter().enumerate() {
            let term = terms.map(|t| &t[k]);
            let read = match term.map(|t| &t.kind) {
                None => Some(k),
                Some(ExprKind::Const(c)) => Some(c.0),
                Some(_) => None,
            };
            if let Some(c) = read {
                let column = &self.universe.columns[c];
                for (w, &id) in order.iter().enumerate() {
                    out[w * stride + j] = column.get(id as usize);
                }
                continue;
            }
            let term = term.expect("a term");
            if order.len() <= SCALAR_WORLDS {
                let columns = &self.universe.columns;
                let points = points.get_or_insert_with(|| {
                    (order.iter())
                        .map(|&w| {
                            columns
                                .iter()
                                .map(|c| i128::from(c.get(w as usize)))
                                .collect()
                        })
                        .collect()
                });
                // Else the columns below, which say why (or overwrite what was read).
                let mut read_all = true;
                for (w, point) in points.iter().enumerate() {
                    match exact(term, point).and_then(|v| i64::try_from(v).ok()) {
                        Some(v) => out[w * stride + j] = v,
                        None => {
                            read_all = false;
                            break;
                        }
                    }
                }
                if read_all {
                    continue;
                }
            }
            for (at, chunk) in order.chunks(CHUNK).enumerate() {
                self.check_deadline()?;
                let values = match self.eval(term, chunk, state, &[]) {
                    Ok(col) => col.ints()?,
                    Err(Failure::Unsupported(_)) => return Ok(None),
                    Err(e) => return Err(e),
                };
                for (w, v) in values.into_iter().enumerate() {
                    let Ok(v) = i64::try_from(v) else {
                        return Ok(None);
                    };
                    out[(at * CHUNK + w) * stride + j] = v;
                }
            }
        }
        Ok(Some(out))
    }
}

impl Semantics for ExplicitBackend {
    type Set = Set;

    type State = Rc<State>;

    type Point = Option<u32>;

    fn formula(
        &mut self,
        e: &Expr,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Set, Failure> {
        // An announcement that bounds the universe holds in all of it by construction.
        let bits = if state.pending > 0 {
            Flags::filled(state.worlds.len(), true)
        } else {
            self.eval_bools(e, &state.worlds.clone(), state, saved)?
        };
        Ok(Set {
            worlds: state.worlds.clone(),
            bits: Rc::new(bits),
        })
    }

    fn said(&mut self, agent: CharId, psi: Set, state: &Rc<State>) -> Result<Said<Set>, Failure> {
        if !Rc::ptr_eq(&psi.worlds, &state.worlds) {
            return Err(eval::internal("a set of another state"));
        }
        let groups = self.groups(state, agent.0)?;
        let gid = |w: &u32| groups.of(*w);
        let mut good = vec![true; groups.count];
        let mut flags = psi.bits.iter();
        for worlds in psi.worlds.chunks() {
            self.check_deadline()?;
            for (w, holds) in worlds.iter().zip(flags.by_ref()) {
                if !holds {
                    good[gid(w)] = false;
                }
            }
        }
        let mut bits = Flags::with_capacity(psi.worlds.len());
        for worlds in psi.worlds.chunks() {
            self.check_deadline()?;
            let chunk: Vec<bool> = worlds.iter().map(|w| good[gid(w)]).collect();
            bits.extend_from_slice(&chunk);
        }
        Ok(Said::derived(Set {
            worlds: psi.worlds,
            bits: Rc::new(bits),
        }))
    }

    fn not(&mut self, set: &Set) -> Set {
        Set {
            worlds: set.worlds.clone(),
            bits: Rc::new(set.bits.not()),
        }
    }

    fn and(&mut self, first: Set, rest: Vec<Set>) -> Set {
        let mut bits = (*first.bits).clone();
        for s in rest {
            bits.and(&s.bits);
        }
        Set {
            worlds: first.worlds,
            bits: Rc::new(bits),
        }
    }

    /// Natively when the intervals bound φ's worlds (a few); else None (the driver asks
    /// another backend).
    fn pin(&mut self, phi: &Expr, _: &Rc<State>) -> Result<Option<Vec<World>>, Failure> {
        let limits = Limits {
            max_worlds: 10_000,
            max_nodes: 1_000_000,
            max_work: usize::MAX,
            deadline: self.deadline,
            cancel: self.options.cancel.clone(),
        };
        let tbox = type_box_after(&self.program, &self.happened);
        let (found, overflow) = list_worlds_in(&self.program, tbox, &[phi], &limits);
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
                                    Ty::Bool => Value::Bool(col.get(i) != 0),
                                    _ => Value::Int(col.get(i)),
                                })
                                .collect(),
                        )
                    })
                    .collect();
                worlds.sort();
                worlds.truncate(2);
                Ok(Some(worlds))
            }
            Err(Stop::Timeout) => {
                Err((self.options.cancel.check().err()).unwrap_or(Failure::Timeout))
            }
            _ => Ok(None),
        }
    }

    /// The world's index in the universe (None: not one of its worlds).
    fn point(&mut self, world: &[Value]) -> Result<Option<u32>, Failure> {
        Ok(self.universe.find(world))
    }

    fn formula_holds(
        &mut self,
        e: &Expr,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
        point: &Option<u32>,
    ) -> Result<bool, Failure> {
        match point {
            // Asked at the actual world alone (knowledge operators in it still read the
            // whole state), its connectives from the side that decides them first.
            Some(w) if state.pending == 0 => {
                if state.worlds.position(*w).is_none() {
                    return Err(eval::internal("the actual world left κ"));
                }
                self.holds_at(e, *w, state, saved)
            }
            _ => {
                let set = self.formula(e, state, saved)?;
                self.holds(&set, point)
            }
        }
    }

    fn holds(&mut self, set: &Set, point: &Option<u32>) -> Result<bool, Failure> {
        let Some(w) = point else {
            return Err(eval::internal(
                "the actual world is not a world of the story",
            ));
        };
        match set.worlds.position(*w) {
            Some(i) => Ok(set.bits.get(i)),
            None => Err(eval::internal("the actual world left κ")),
        }
    }

    /// The state's own world with these values: a plan's search appends the same rows
    /// for each state it passes through.
    fn point_in(
        &mut self,
        state: &Rc<State>,
        world: &[Value],
    ) -> Result<Option<Option<u32>>, Failure> {
        Ok(self.universe.find_among(&state.worlds, world).map(Some))
    }

    fn contains(&mut self, state: &Rc<State>, point: &Option<u32>) -> Result<bool, Failure> {
        Ok(point.is_some_and(|w| state.worlds.contains(w)))
    }
}

impl Listing for ExplicitBackend {
    /// κ's worlds.
    fn size(&self, state: &Rc<State>) -> usize {
        state.worlds.len()
    }

    const SIZE_UNIT: &'static str = "worlds";

    fn known_empty(&self, state: &Rc<State>) -> Option<bool> {
        (state.pending == 0).then(|| state.worlds.len() == 0)
    }

    fn is_empty(&mut self, state: &Rc<State>) -> Result<bool, Failure> {
        if state.pending > 0 {
            return Err(handed_over());
        }
        Ok(state.worlds.len() == 0)
    }

    fn worlds(&mut self, state: &Rc<State>, limit: usize) -> Result<WorldSet, Failure> {
        if state.pending > 0 {
            return Err(handed_over());
        }
        let first = self.first(&state.worlds, limit);
        Ok(WorldSet {
            chances: None,
            before: None,
            worlds: first.into_iter().map(|w| self.world(w)).collect(),
            complete: state.worlds.len() <= limit,
        })
    }

    fn count(&mut self, state: &Rc<State>, _: usize) -> Result<WorldCount, Failure> {
        if state.pending > 0 {
            return Err(handed_over());
        }
        Ok(WorldCount::Exactly(state.worlds.len() as u64))
    }

    /// Grouped views are the numbers of [`eval`]'s groups, which the search's formulas
    /// made already.
    fn model(
        &mut self,
        state: &Rc<State>,
        cap: usize,
        views: Views,
    ) -> Result<Option<Model>, Failure> {
        self.listed_model(state, cap, views)
    }
}

impl Offers for ExplicitBackend {
    /// Not used: a plan's search lists the states it recognises.
    type Fixed = ();

    fn plausibility(&mut self) -> Option<&mut dyn Plausibility<Rc<State>, Set>> {
        Some(self)
    }

    fn hints(&mut self) -> Option<&mut dyn Hints<Rc<State>, Set>> {
        Some(self)
    }

    fn probabilities(&mut self) -> Option<&mut dyn Probabilities<Rc<State>, Option<u32>>> {
        Some(self)
    }

    fn hands_over(&self) -> Option<&dyn HandsOver<Rc<State>>> {
        Some(self)
    }

    fn rebuilding(&mut self) -> Option<&mut dyn Rebuilding<Rc<State>, Option<u32>>> {
        Some(self)
    }

    /// Only when the run forgets ([`crate::History`]): the program and the command allow
    /// it.
    fn forgetting(&mut self) -> Option<&mut dyn crate::driver::Forgetting<Rc<State>, Option<u32>>> {
        match self.options.history {
            crate::History::ForgottenWhereUnread => Some(self),
            crate::History::Kept => None,
        }
    }
}

impl Backend for ExplicitBackend {
    const NAME: &'static str = "explicit";

    fn initial(&mut self) -> Result<Rc<State>, Failure> {
        if self.program.probabilistic() {
            self.weights = Some(Rc::new(chance::Weights::ones(self.universe.len)));
        }
        let all = WorldIds::range(0, self.universe.len);
        let characters = self.program.characters.len();
        let minds = Rc::new(Minds {
            learned: vec![Vec::new(); characters],
            lists: vec![Vec::new(); characters],
            ranks: vec![Vec::new(); characters],
        });
        Ok(self.state(self.prefix.len(), Rc::new(all), minds))
    }

    fn restrict(&mut self, state: &Rc<State>, added: Set, _: Origin) -> Result<Rc<State>, Failure> {
        if state.pending > 0 {
            // One of the announcements that bound the universe: it holds in all of it.
            if added.bits.count(false) > 0 {
                return Err(eval::internal(
                    "an announcement that bounds the worlds fails in one",
                ));
            }
            let next = self.state(state.pending - 1, state.worlds.clone(), state.minds.clone());
            return Ok(next);
        }
        self.filtered(state, &added, true)
    }

    fn learn(
        &mut self,
        state: &Rc<State>,
        who: CharId,
        what: Learning<'_, Set>,
    ) -> Result<Rc<State>, Failure> {
        match what {
            Learning::Value(e) => self.learn_value(state, who, e),
            Learning::Whether(set) => self.learn_whether(state, who, set),
        }
    }

    /// The product: a new world for each world of the state and each case whose
    /// precondition holds there, appended to the universe with the case in `occ`'s
    /// column.
    fn event(
        &mut self,
        state: &Rc<State>,
        occ: ConstId,
        first: usize,
        pres: Vec<Set>,
        weights: Option<&[Expr]>,
    ) -> Result<Rc<State>, Failure> {
        let first = first as i64;
        if state.pending > 0 || pres.iter().any(|p| !Rc::ptr_eq(&p.worlds, &state.worlds)) {
            return Err(eval::internal(
                "an event on a state it was not evaluated in",
            ));
        }
        let mut made: Vec<(u32, i64)> = Vec::new();
        for (i, w) in state.worlds.iter().enumerate() {
            if i % CHUNK == 0 {
                self.check_deadline()?;
            }
            for (c, pre) in pres.iter().enumerate() {
                if pre.bits.get(i) {
                    made.push((w, c as i64));
                }
            }
        }
        let old = &self.universe;
        // Each segment is in lexicographic order (`point` searches it): the occurrence's
        // column need not be the last one that tells the state's worlds apart (in a
        // `repeat`, an event's later executions have columns before those of events
        // after it in the body), so the new worlds are sorted by their rows.
        let row = |&(w, c): &(u32, i64)| {
            (old.columns.iter().enumerate()).map(move |(k, col)| {
                if k == occ.0 {
                    first + c
                } else {
                    col.get(w as usize)
                }
            })
        };
        made.sort_by(|a, b| row(a).cmp(row(b)));
        let made_weights = match (weights, self.weights.is_some()) {
            (Some(weights), true) => {
                let possible: Vec<Vec<bool>> =
                    pres.iter().map(|p| p.bits.iter().collect()).collect();
                Some(self.event_weights(state, &possible, weights, &made)?)
            }
            _ => None,
        };
        let old = &self.universe;
        let base = old.len;
        if base + made.len() > u32::MAX as usize {
            return Err(Failure::Unsupported(
                "the events made more worlds than the explicit-worlds backend indexes".into(),
            ));
        }
        // A world the event made agrees with the one it came from on everything learned
        // before (the constants keep their columns, changes being terms; nothing learned
        // reads the new occurrence): each view grows by its groups there, unless it
        // mentions the occurrence or is not a prefix of what the character learned.
        let views = std::mem::take(&mut self.views);
        let (lo, hi) = self.span(state);
        let parents: Vec<u32> = made.iter().map(|&(w, _)| w).collect();
        for ((agent, k, list), kept) in views {
            let Some(items) = state.minds.learned.get(agent) else {
                continue;
            };
            if k > items.len()
                || state.minds.list(agent, k) != list
                || items[..k].iter().any(|i| reads(i, occ.0))
            {
                continue;
            }
            let key = (agent, k, list);
            if self.local_views {
                // The state's views stay (the search comes back to it for its next
                // action), beside those of the worlds made, over their own span.
                let carried = (kept.iter().rev())
                    .find(|g| g.covers(lo, hi))
                    .map(|g| Rc::new(g.carried(base, &parents)));
                self.views.insert(key, kept);
                if let Some(carried) = carried {
                    self.cache_view(key, carried);
                }
            } else if let Some(groups) = kept.last() {
                let grown = vec![Rc::new(groups.extended(&parents))];
                self.views.insert(key, grown);
            }
        }
        // Appended in place (a plan's search makes many events: a copy of the whole
        // universe at each would be quadratic); indices of earlier worlds stay valid.
        Rc::make_mut(&mut self.universe).grow(occ.0, first, &made);
        self.happened.resize(self.program.constants.len(), false);
        // A plan's steps never happen in the story: `actual` after a `plan` still finds
        // them at their not-yet value.
        let step = (self.program.plan_steps.as_ref()).is_some_and(|s| {
            self.program.constants[occ.0].occurrence.map(|o| o.event) == Some(s.event)
        });
        self.happened[occ.0] = !step;
        if let Some(more) = made_weights {
            self.extend_weights(more);
        }
        self.joint.clear();
        self.memo.clear();
        self.plausible.clear();
        self.chance_memo.clear();
        self.chance_tables.clear();
        let worlds = WorldIds::range(base, base + made.len());
        Ok(self.state(0, Rc::new(worlds), state.minds.clone()))
    }

    fn reads_checkpoints(&mut self) {
        if self.local_views {
            self.local_views = false;
            self.views.clear();
            self.joint.clear();
        }
    }

    fn statement_done(&mut self) {
        self.memo.clear();
        self.plausible.clear();
        self.chance_memo.clear();
        self.chance_tables.clear();
    }
}

impl ExplicitBackend {
    fn learn_value(
        &mut self,
        state: &Rc<State>,
        who: CharId,
        what: &Expr,
    ) -> Result<Rc<State>, Failure> {
        let item = match what.kind {
            ExprKind::Const(c) => Learned::Const(c.0),
            _ => Learned::Expr(Rc::new(what.clone())),
        };
        let mut minds = (*state.minds).clone();
        self.push_learned(&mut minds, who.0, item);
        Ok(self.state(state.pending, state.worlds.clone(), Rc::new(minds)))
    }

    fn learn_whether(
        &mut self,
        state: &Rc<State>,
        who: CharId,
        set: Set,
    ) -> Result<Rc<State>, Failure> {
        let bits = self.universe_bits(&set);
        Ok(self.learn_flags(state, who, bits))
    }
}

impl Plausibility<Rc<State>, Set> for ExplicitBackend {
    fn upgrade(&mut self, state: &Rc<State>, who: CharId, set: Set) -> Result<Rc<State>, Failure> {
        let mut minds = (*state.minds).clone();
        minds.ranks[who.0].insert(0, Learned::Set(self.universe_bits(&set)));
        Ok(self.state(state.pending, state.worlds.clone(), Rc::new(minds)))
    }

    fn prefer(
        &mut self,
        state: &Rc<State>,
        who: CharId,
        rank: &Expr,
        _: usize,
    ) -> Result<Rc<State>, Failure> {
        let mut minds = (*state.minds).clone();
        minds.ranks[who.0].insert(0, Learned::Expr(Rc::new(rank.clone())));
        Ok(self.state(state.pending, state.worlds.clone(), Rc::new(minds)))
    }
}

impl Hints<Rc<State>, Set> for ExplicitBackend {
    fn disagreement(
        &mut self,
        before: &Rc<State>,
        after: &Rc<State>,
        hint: &Set,
    ) -> Result<Option<(World, bool)>, Failure> {
        if !Rc::ptr_eq(&hint.worlds, &before.worlds) {
            return Err(eval::internal("a hint of another state"));
        }
        let mut best: Option<((u64, u32), bool)> = None;
        for (i, w) in before.worlds.iter().enumerate() {
            let kept = after.worlds.contains(w);
            if kept != hint.bits.get(i) {
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
        how: Hint,
    ) -> Result<Rc<State>, Failure> {
        // Verified, the block left exactly κ_before ∧ φ.
        if how == Hint::Verified {
            return Ok(learned.clone());
        }
        let kept = self.filtered(before, &hint, true)?;
        Ok(self.state(0, kept.worlds.clone(), learned.minds.clone()))
    }
}

impl Probabilities<Rc<State>, Option<u32>> for ExplicitBackend {
    fn prior(&mut self, state: &Rc<State>, weight: &Expr) -> Result<Rc<State>, Failure> {
        self.set_prior(state, weight)
    }

    fn chances(
        &mut self,
        state: &Rc<State>,
        listed: &[World],
    ) -> Result<Option<Vec<num_rational::BigRational>>, Failure> {
        self.world_chances(state, listed)
    }

    fn amounts(
        &mut self,
        r: &crate::ir::Rat,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
        at: Option<&Option<u32>>,
    ) -> Result<Vec<(num_rational::BigRational, u64)>, Failure> {
        let at = match at {
            None => None,
            Some(Some(w)) => Some(*w),
            Some(None) => {
                return Err(eval::internal(
                    "the actual world is not a world of the story",
                ));
            }
        };
        self.amounts(r, state, saved, at)
    }
}

impl HandsOver<Rc<State>> for ExplicitBackend {
    fn handed_over(&self, state: &Rc<State>) -> Option<Handover> {
        self.handover(state)
    }
}

impl Rebuilding<Rc<State>, Option<u32>> for ExplicitBackend {
    fn rebuilt(
        &mut self,
        state: &Rc<State>,
        q: &crate::driver::Quotient,
        reuse: Option<usize>,
    ) -> Result<crate::driver::Rebuilt<Rc<State>, Option<u32>>, Failure> {
        self.rebuild(state, q, reuse)
    }

    fn tables(
        &mut self,
        state: &Rc<State>,
        cap: usize,
        terms: Option<&[Expr]>,
        own: &[usize],
        actual: Option<&Option<u32>>,
    ) -> Result<Option<Tables>, Failure> {
        if state.pending > 0 || state.worlds.len() > cap {
            return Ok(None);
        }
        let order: Vec<u32> = state.worlds.iter().collect();
        let Some(values) = self.own_values(state, &order, terms, own)? else {
            return Ok(None);
        };
        let mut groups = Vec::with_capacity(state.minds.learned.len());
        for who in 0..state.minds.learned.len() {
            let of = self.groups(state, who)?;
            groups.push(order.iter().map(|&w| of.of(w) as u32).collect());
        }
        Ok(Some(Tables {
            n: order.len(),
            own: values,
            groups,
            ranks: self.ranks_at(state, &order)?,
            chances: self.chances_of(state, &order),
            actual: actual
                .copied()
                .flatten()
                .and_then(|a| order.binary_search(&a).ok()),
        }))
    }

    fn rows(&mut self, state: &Rc<State>, picks: &[usize]) -> Vec<World> {
        let order: Vec<u32> = state.worlds.iter().collect();
        picks.iter().map(|&p| self.world(order[p])).collect()
    }

    /// The universe's size.
    fn mark(&self) -> usize {
        self.universe.len
    }

    fn drop_since(&mut self, mark: usize) {
        self.truncate(mark);
    }
}

/// Whether a learned item reads the occurrence constant `occ`.
fn reads(item: &Learned, occ: usize) -> bool {
    match item {
        Learned::Const(c) => *c == occ,
        Learned::Set(_) | Learned::Classes(_) => false,
        Learned::Expr(e) => e
            .walk(&mut |x: &Expr| match x.kind {
                ExprKind::Const(c) if c.0 == occ => Err(()),
                _ => Ok(()),
            })
            .is_err(),
    }
}

/// Whether an expression of the story holds what may fail whatever the values around it
/// ([`ExplicitBackend::holds_at`]).
fn may_fail_in(program: &Program) -> bool {
    let found = program.find(&mut |x| {
        matches!(
            x.kind,
            ExprKind::Chance { .. }
                | ExprKind::Latest(_)
                | ExprKind::At { .. }
                | ExprKind::Quantified { .. }
        )
    });
    found.is_some() || program.probabilistic()
}

/// Whether a formula of the story reads a state at worlds made after it (`at(c, …)`).
fn reads_checkpoints(program: &Program) -> bool {
    (program.find(&mut |x| matches!(x.kind, ExprKind::At { .. }))).is_some()
}

/// Where the story first quantifies over constants (`forall p: …`), if it does.
pub(crate) fn quantifier_in(program: &Program) -> Option<crate::syntax::Span> {
    program.find(&mut |x| matches!(x.kind, ExprKind::Quantified { .. }))
}
