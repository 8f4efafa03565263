//! An independent evaluator for finite stories: explicit sets of worlds, no Z3.
//!
//! It runs EpiPEn's semantics literally on a finite box of worlds, so the engine's three
//! backends (Z3's formulas, BDDs, the explicit backend's columns and tables) can be
//! cross-checked against it:
//!
//! * the state is a set of worlds `W` plus, per character, the list of expressions it
//!   has learned (`A learns month` adds the expression `month`);
//! * `announce φ` keeps the worlds of `W` where `φ` holds, `A: φ` keeps those where
//!   `K_A φ` holds;
//! * `K_A φ` holds at `w` when `φ` holds at every world of `W` that `A` cannot tell
//!   from `w` (same values of everything `A` learned); `knows_value(A, ē)` holds at `w`
//!   when all those worlds agree on `ē`;
//! * `at(c, φ)` evaluates the knowledge operators of `φ` in the state saved at `c`;
//! * `actual φ` picks the one world still possible where `φ` holds (in a `repeat`'s
//!   later round, among those with the cases the actual world had);
//!   announcements must then hold in it; `A reveals φ` is `A: φ` when `φ` holds in the
//!   actual world, else `A: not φ`; `simultaneously { … }` evaluates its announcements
//!   in the state at its start and applies them together; `repeat max N { … } until φ`
//!   reruns its body until `φ` holds in the actual world; `assert_adds_ck φ { … }` runs
//!   its body and fails unless it kept exactly the worlds where `φ` holds;
//! * an event (`event e { … }`) is the product update: the new worlds are the pairs
//!   (w, c) of a world w and a case c whose precondition holds at w (a pair is w with
//!   the case written in the slot of the statement's occurrence), with the values after
//!   c's changes; A cannot tell (w, c) from (v, d) when it could not tell w from v and
//!   its `sees` line puts c and d in one group; `x := e` and `A learns φ` (φ with
//!   knowledge operators: whether φ held then) are recorded as they are written.
//! * `do a, b` runs each action's body as an event once the action is executable (its
//!   guard and some case's precondition hold at the actual world, or without one at
//!   every world); `plan φ` tries the sequences of actions by length, then in the order
//!   of action ids, each executed hypothetically (product updates, every case possible
//!   at the actual world a branch of its own) on the state, which it then puts back.
//!
//! A knowledge operator is evaluated for a whole state at once: the worlds of the state
//! are grouped by what the agent learned, each group records whether all of its worlds
//! satisfy `φ` (or the one value of `ē` they share), and the table is memoised per
//! (operator, state), so nested operators cost time linear in the number of worlds.

use std::collections::HashMap;
use std::rc::Rc;

mod chance;
mod event;
mod expr;
mod knowledge;
mod plan;

pub use chance::Amount;

use epipen_ir::{
    ActionId, ArithOp, Case, CharId, ConstId, Expr, Program, Span, Stmt, StmtKind, Ty, Value, World,
};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Euclid, Zero};

/// The most worlds [`evaluate`] will enumerate.
pub const MAX_WORLDS: u64 = 2_000_000;

/// The finite box the evaluator enumerates: for each constant (indexed by `ConstId`),
/// `Some((lo, hi))` (inclusive) for an int constant, `None` for a bool constant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Domain {
    pub ranges: Vec<Option<(i64, i64)>>,
}

/// Runs `program` on every world of `domain` and returns the worlds possible at its
/// end, sorted in the canonical order.
pub fn evaluate(program: &Program, domain: &Domain) -> Result<Vec<World>, String> {
    trace(program, domain).end.map_err(|e| e.message)
}

/// What the evaluator reports of a run, in story order: the engine's
/// `epipen::engine::Report`s, as the evaluator sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// A `worlds` statement: every world possible there, sorted; with chances, each
    /// one's probability among them.
    Worlds {
        span: Span,
        worlds: Vec<World>,
        chances: Option<Vec<BigRational>>,
    },
    /// A `where φ` statement: every world possible there where φ holds, sorted; with
    /// chances, each one's probability among every world possible there.
    Where {
        span: Span,
        worlds: Vec<World>,
        chances: Option<Vec<BigRational>>,
    },
    /// `show e`: e's values, each with how many worlds have it (in the actual world
    /// alone when `actual`; else in the worlds possible, sorted, in order of first
    /// appearance).
    Show {
        span: Span,
        actual: bool,
        values: Vec<(Amount, u64)>,
    },
    /// `who reveals φ` in the given round of the innermost `repeat`; `holds`: φ holds
    /// in the actual world (so `who` announced φ, else `not φ`).
    Reveal {
        span: Span,
        round: Option<u64>,
        who: CharId,
        holds: bool,
    },
    /// An event happened, in the given round of the innermost `repeat`: in the actual
    /// world, the case `case` (None without an actual world), and for each character the
    /// cases it could not tell from it.
    Happened {
        span: Span,
        round: Option<u64>,
        case: Option<usize>,
        saw: Vec<Vec<usize>>,
    },
    /// A `plan` statement's answer: the plans found, each a sequence of actions (the
    /// first in the order of action ids, or with `all` every plan of the shortest
    /// length, in that order; none when no plan of at most `max` actions reaches the
    /// goal). All have the same length; an empty plan means the goal holds already.
    Plan {
        span: Span,
        max: usize,
        plans: Vec<Vec<ActionId>>,
    },
    /// A `repeat` stopped after this many rounds.
    RepeatDone { span: Span, rounds: u64 },
    /// An `assert_adds_ck` hint is right.
    HintVerified { span: Span },
    /// A `check φ` holds.
    CheckHolds { span: Span },
    /// A `check φ` or `assert_adds_ck φ { … }` met no possible world (a `check actual φ`
    /// cannot: the actual world is possible);
    /// `left_none`: the first statement to finish with none.
    Vacuous { span: Span, left_none: Span },
}

/// Why a run stopped before the story's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The story is wrong in a way only running it shows: an `actual` that does not pin
    /// one possible world, an announcement false in the actual world, a `repeat` out of
    /// rounds (the engines' story errors, exit code 2).
    Story,
    /// An `assert_adds_ck` hint is wrong (exit code 1).
    Refuted,
    /// A `check φ` fails (exit code 1).
    CheckFailed,
    /// The domain does not fit the program, or has too many worlds.
    Domain,
    /// An expression of the wrong type, or a checkpoint not reached: the program is not
    /// one lowering makes.
    Internal,
}

/// A run that stopped at the statement at `span` (the innermost one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub span: Span,
    pub message: String,
}

/// A whole run: its events, and the worlds possible at the end or why it stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    pub events: Vec<Report>,
    pub end: Result<Vec<World>, Error>,
}

/// Runs `program` on every world of `domain`, reporting what happens on the way.
pub fn trace(program: &Program, domain: &Domain) -> Trace {
    let all = match enumerate(program, domain) {
        Ok(all) => Rc::new(all),
        Err(message) => {
            return Trace {
                events: Vec::new(),
                end: Err(Error {
                    kind: ErrorKind::Domain,
                    span: Span::default(),
                    message,
                }),
            };
        }
    };
    let mut ev = Evaluator {
        program,
        checkpoints: Rc::new(vec![None; program.checkpoints.len()]),
        memo: HashMap::new(),
        classes: HashMap::new(),
        observations: HashMap::new(),
        announced: HashMap::new(),
        next_id: 1,
        state: Rc::new(State {
            id: 0,
            worlds: all.clone(),
            learned: vec![Vec::new(); program.characters.len()],
            time: 0,
            plausibility: vec![Rc::default(); program.characters.len()],
        }),
        all,
        actual: None,
        changes: Vec::new(),
        latest: vec![Rc::new(vec![None; program.events.len()])],
        happened: vec![false; program.constants.len()],
        then: HashMap::new(),
        round: None,
        events: Vec::new(),
        emptied: None,
        weights: HashMap::new(),
        probabilistic: program.probabilistic(),
    };
    let end = match ev.block(&program.statements) {
        Ok(()) => ev.shown_worlds(),
        Err(fail) => Err(fail),
    };
    Trace {
        events: ev.events,
        end: end.map_err(|fail| Error {
            kind: fail.kind,
            span: fail.span.unwrap_or_default(),
            message: fail.message,
        }),
    }
}

/// The cartesian product of the domain's ranges.
fn enumerate(program: &Program, domain: &Domain) -> Result<Vec<World>, String> {
    if domain.ranges.len() != program.constants.len() {
        return Err(format!(
            "the domain has {} ranges for {} constants",
            domain.ranges.len(),
            program.constants.len()
        ));
    }
    let mut axes: Vec<Vec<Value>> = Vec::new();
    let mut total: u64 = 1;
    for (constant, range) in program.constants.iter().zip(&domain.ranges) {
        let int_axis = |lo: i64, hi: i64| -> Result<Vec<Value>, String> {
            if hi >= lo && (hi as i128 - lo as i128) >= MAX_WORLDS as i128 {
                return Err(format!("the range of {} is too large", constant.name));
            }
            Ok((lo..=hi).map(Value::Int).collect())
        };
        let axis: Vec<Value> = match (constant.ty, range) {
            // An event's occurrence holds its not-yet value until the event happens.
            _ if constant.occurrence.is_some() => {
                let o = constant.occurrence.expect("an occurrence");
                vec![Value::Int(program.events[o.event.0].not_yet())]
            }
            (Ty::Bool, None) => vec![Value::Bool(false), Value::Bool(true)],
            (Ty::Int, Some((lo, hi))) => int_axis(*lo, *hi)?,
            // An enum's values are its variants' indices; a range narrows them.
            (Ty::Enum(e), range) => {
                let k = program.enums[e.0].variants.len() as i64;
                let (lo, hi) = range.unwrap_or((0, k - 1));
                int_axis(lo.max(0), hi.min(k - 1))?
            }
            (Ty::Bool, Some(_)) => {
                return Err(format!("{} is a bool but has an int range", constant.name));
            }
            (Ty::Int, None) => return Err(format!("{} is an int but has no range", constant.name)),
        };
        total = total.saturating_mul(axis.len() as u64);
        axes.push(axis);
    }
    if total > MAX_WORLDS {
        return Err(format!(
            "the domain has {total} worlds, more than the {MAX_WORLDS} the evaluator enumerates"
        ));
    }
    let mut worlds = vec![World(Vec::with_capacity(axes.len()))];
    for axis in &axes {
        let mut next = Vec::with_capacity(worlds.len() * axis.len());
        for w in &worlds {
            for v in axis {
                let mut w = w.clone();
                w.0.push(*v);
                next.push(w);
            }
        }
        worlds = next;
    }
    Ok(worlds)
}

/// A value during evaluation: ints are exact, so that intermediate results (`x * y * z`)
/// never overflow.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum V {
    I(BigInt),
    B(bool),
}

impl V {
    fn into_bool(self) -> Result<bool, String> {
        match self {
            V::B(b) => Ok(b),
            V::I(_) => Err("expected a bool, found an int".to_string()),
        }
    }

    fn into_int(self) -> Result<BigInt, String> {
        match self {
            V::I(n) => Ok(n),
            V::B(_) => Err("expected an int, found a bool".to_string()),
        }
    }
}

/// `x op y` as the language defines it: integers are mathematical, and division and
/// modulo are SMT-LIB's (Euclidean: `0 <= x % y < |y|`), with `x / 0 = 0` and
/// `x % 0 = x`.
fn arith(op: ArithOp, x: &BigInt, y: &BigInt) -> BigInt {
    match op {
        ArithOp::Add => x + y,
        ArithOp::Sub => x - y,
        ArithOp::Mul => x * y,
        ArithOp::Div if y.is_zero() => BigInt::zero(),
        ArithOp::Div => x.div_euclid(y),
        ArithOp::Mod if y.is_zero() => x.clone(),
        ArithOp::Mod => x.rem_euclid(y),
    }
}

/// A knowledge state: the possible worlds and what each character has learned. States
/// are immutable; `id` is unique per state and keys the memo.
struct State<'p> {
    id: usize,
    /// The worlds, by the constants' values at the story's start.
    worlds: Rc<Vec<World>>,
    /// What each character learned.
    learned: Vec<Vec<Learned<'p>>>,
    /// How many changes had happened in this state: a world's constants have the values
    /// its start values take after the first `time` changes.
    time: usize,
    /// Each character's plausibility order on the worlds: a world's rank (lower is more
    /// plausible; a world not listed has rank 0).
    plausibility: Vec<Rc<HashMap<World, usize>>>,
}

/// `w`'s rank in `agent`'s plausibility order in `s` (lower is more plausible).
fn rank(s: &State, agent: usize, w: &World) -> usize {
    s.plausibility[agent].get(w).copied().unwrap_or(0)
}

/// Ranks from keys compared lexicographically: equal keys get equal ranks, and ranks
/// count up from 0 without gaps.
fn dense<K: Ord>(keys: Vec<(World, K)>) -> HashMap<World, usize> {
    let mut order: Vec<&K> = keys.iter().map(|(_, k)| k).collect();
    order.sort();
    order.dedup();
    let ranks: Vec<usize> = keys
        .iter()
        .map(|(_, k)| order.binary_search(&k).expect("a key of the list"))
        .collect();
    keys.into_iter().map(|(w, _)| w).zip(ranks).collect()
}

/// The state each checkpoint saved last (None: not reached yet).
type Checkpoints<'p> = Rc<Vec<Option<Rc<State<'p>>>>>;

/// Something a character learned.
#[derive(Clone)]
enum Learned<'p> {
    /// `A learns e`: the value of `e` after the first `time` changes.
    Value(&'p Expr, usize),
    /// `A learns φ` with knowledge operators: whether φ held in the state then, in each
    /// of its worlds (`at(c, …)` read with the checkpoint of then, which a later round
    /// may set again), found for a later world by its past: the slots of the
    /// occurrences in `later`, which had not happened then, back to their not-yet value.
    Whether {
        held: Rc<HashMap<World, bool>>,
        later: Rc<Vec<usize>>,
        /// The formula, the state it was learned in and the checkpoints as they were
        /// then (an `at(c, …)` in it reads c as it was when it was learned), for a world
        /// not possible then (one a quantifier `forall p: …` looks at).
        from: Option<(&'p Expr, Rc<State<'p>>, Checkpoints<'p>)>,
    },
    /// An event: which group of its `sees` line the case in the occurrence's slot is in
    /// (the slot holds `offset +` the case).
    Saw {
        occ: usize,
        offset: usize,
        groups: &'p [usize],
    },
}

/// A change of the constants' values, in the order they happen.
#[derive(Clone, Copy)]
enum Change<'p> {
    /// `x := e, y := f`: every value computed before any is written.
    Assign(&'p [(ConstId, Expr)]),
    /// An event: the changes of the case in the occurrence's slot (which holds
    /// `offset +` the case).
    Event {
        occ: usize,
        offset: usize,
        cases: &'p [Case],
    },
}

/// A memoised knowledge operator over one state, indexed by the agent's observation
/// (the values of everything it learned).
enum Table {
    /// `K_A φ`: by the agent's class of worlds (see `Evaluator::class`), whether every
    /// world of it satisfies `φ`.
    Knows(HashMap<usize, bool>),
    /// `knows_value(A, ē)`: by class, the one value of `ē` in it, or `None` when its
    /// worlds disagree.
    KnowsValue(HashMap<usize, Option<Vec<V>>>),
    /// `believes(A, φ)`: by the agent's observation, whether every most plausible world
    /// with it satisfies `φ`.
    Believes(HashMap<Vec<V>, bool>),
    /// `believes_value(A, ē)`: by observation, the one value of `ē` in the most
    /// plausible worlds with it, or `None` when they disagree.
    BelievesValue(HashMap<Vec<V>, Option<Vec<V>>>),
    /// `D_G φ`: by the members' observations together, whether every world with them
    /// satisfies `φ`.
    Distributed(HashMap<Vec<Vec<V>>, bool>),
    /// `probability(A, φ)`: by the agent's class (0 for the storyteller), Σ μ where φ
    /// holds and Σ μ.
    Probability(HashMap<usize, (BigRational, BigRational)>),
    /// `C_G φ`: the worlds joined by some member's indistinguishability, in components,
    /// found by (member's index in G, its observation); and whether every world of each
    /// component satisfies `φ`.
    Common(HashMap<(usize, Vec<V>), usize>, Vec<bool>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Op {
    Knows,
    KnowsNot,
    KnowsValue,
    Believes,
    BelievesValue,
    Distributed,
    Common,
    Probability,
}

/// (operator kind, address of the formula / expression list, agent, state id).
type MemoKey = (Op, usize, usize, usize);

/// The formula an announcement adds: `φ`, or `K_A φ` (negated for a reveal that
/// does not hold in the actual world, `K_A ¬φ`).
#[derive(Clone, Copy)]
struct Added<'p> {
    speaker: Option<CharId>,
    formula: &'p Expr,
    negated: bool,
}

/// A failure inside the run; `span` is set by the innermost statement it passes.
struct Fail {
    kind: ErrorKind,
    span: Option<Span>,
    message: String,
}

impl Fail {
    fn story(message: impl Into<String>) -> Fail {
        Fail {
            kind: ErrorKind::Story,
            span: None,
            message: message.into(),
        }
    }
}

/// Errors of expression evaluation: the program is not one lowering makes.
impl From<String> for Fail {
    fn from(message: String) -> Fail {
        Fail {
            kind: ErrorKind::Internal,
            span: None,
            message,
        }
    }
}

struct Evaluator<'p> {
    program: &'p Program,
    checkpoints: Checkpoints<'p>,
    memo: HashMap<MemoKey, Table>,
    /// The class of a world for an agent in a state (agent, state id, world): the number
    /// of its observation among that agent's observations in that state.
    classes: HashMap<(usize, usize, World), usize>,
    /// Per (agent, state id), the observations met so far, numbered.
    observations: HashMap<(usize, usize), HashMap<Vec<V>, usize>>,
    /// The states after an announcement `[G ! φ]` made in a state, by (address of φ,
    /// state id, whether φ holds at the world of evaluation).
    announced: HashMap<(usize, usize, bool), Rc<State<'p>>>,
    next_id: usize,
    /// The current state.
    state: Rc<State<'p>>,
    /// Every world of the domain (for `actual`).
    all: Rc<Vec<World>>,
    /// The actual world, once `actual` has pinned it down.
    actual: Option<World>,
    /// The changes (`x := e`, events) so far, in order.
    changes: Vec<Change<'p>>,
    /// Each event's latest occurrence (its slot) after the first `time` changes, by time.
    latest: Vec<Rc<Vec<Option<usize>>>>,
    /// The occurrence slots events have filled.
    happened: Vec<bool>,
    /// A world's values after some changes, by its start values and the changes' count.
    then: HashMap<(World, usize), Rc<Vec<Value>>>,
    /// The round of the innermost running `repeat`.
    round: Option<u64>,
    events: Vec<Report>,
    /// The first statement that finished with no world possible (a block's statements
    /// finish before the block).
    emptied: Option<Span>,
    /// μ(w) of each world a prior or an event weighed (others weigh 1).
    weights: HashMap<World, BigRational>,
    /// The story speaks of chances.
    probabilistic: bool,
}

impl<'p> Evaluator<'p> {
    /// A state of these worlds, with what characters learned; their plausibility orders
    /// are the current state's (an announcement keeps them, restricted to its worlds).
    fn new_state(
        &mut self,
        worlds: Rc<Vec<World>>,
        learned: Vec<Vec<Learned<'p>>>,
    ) -> Rc<State<'p>> {
        let plausibility = self.state.plausibility.clone();
        self.new_state_ranked(worlds, learned, plausibility)
    }

    fn new_state_ranked(
        &mut self,
        worlds: Rc<Vec<World>>,
        learned: Vec<Vec<Learned<'p>>>,
        plausibility: Vec<Rc<HashMap<World, usize>>>,
    ) -> Rc<State<'p>> {
        let id = self.next_id;
        self.next_id += 1;
        Rc::new(State {
            id,
            worlds,
            learned,
            time: self.changes.len(),
            plausibility,
        })
    }

    /// The worlds of the current state, sorted by their values at the story's start,
    /// with their values now.
    fn shown_worlds(&mut self) -> Result<Vec<World>, Fail> {
        let mut worlds = self.state.worlds.to_vec();
        worlds.sort();
        let time = self.state.time;
        worlds
            .iter()
            .map(|w| Ok(World(self.values_at(w, time)?.to_vec())))
            .collect()
    }

    fn block(&mut self, stmts: &'p [Stmt]) -> Result<(), Fail> {
        for stmt in stmts {
            self.step(stmt)?;
        }
        Ok(())
    }

    fn step(&mut self, stmt: &'p Stmt) -> Result<(), Fail> {
        self.named_events(stmt)
            .map_err(Fail::from)
            .and_then(|()| self.execute(stmt))
            .map_err(|mut fail| {
                fail.span.get_or_insert(stmt.span);
                // Naming an event before it happened is the story's mistake.
                if fail.message == event::NOT_HAPPENED {
                    fail.kind = ErrorKind::Story;
                }
                if let Some(message) = fail.message.strip_prefix(chance::STORY) {
                    fail.message = message.to_string();
                    fail.kind = ErrorKind::Story;
                }
                fail
            })?;
        if self.emptied.is_none() && self.state.worlds.is_empty() {
            self.emptied = Some(stmt.span);
        }
        Ok(())
    }

    /// Reports the check or hint at `span` vacuous when no world is possible now.
    fn vacuous(&mut self, span: Span) -> bool {
        match self.emptied {
            Some(left_none) if self.state.worlds.is_empty() => {
                self.events.push(Report::Vacuous { span, left_none });
                true
            }
            _ => false,
        }
    }

    fn execute(&mut self, stmt: &'p Stmt) -> Result<(), Fail> {
        match &stmt.kind {
            StmtKind::Learn { who, what } => {
                let mut learned = self.state.learned.clone();
                learned[who.0].push(if what.mentions_knowledge() {
                    self.whether(what)?
                } else {
                    Learned::Value(what, self.changes.len())
                });
                self.state = self.new_state(self.state.worlds.clone(), learned);
            }
            StmtKind::Announce { .. } | StmtKind::Reveal { .. } => {
                let state = self.state.clone();
                let added = self.announcement(stmt, &state)?;
                self.restrict(&[added], &state)?;
            }
            StmtKind::Simultaneously(stmts) => {
                // Every announcement is evaluated in the state at the block's start.
                let state = self.state.clone();
                let mut added = Vec::new();
                for s in stmts {
                    let one = (self.named_events(s).map_err(Fail::from))
                        .and_then(|()| self.announcement(s, &state))
                        .map_err(|mut fail| {
                            fail.span.get_or_insert(s.span);
                            fail
                        })?;
                    if self.probabilistic {
                        // An undefined probability is an error at the announcement that
                        // asks it, as the engines locate it, not at the block's end.
                        for w in state.worlds.iter() {
                            self.holds(one, w, &state).map_err(|message| Fail {
                                span: Some(s.span),
                                ..Fail::from(message)
                            })?;
                        }
                    }
                    added.push(one);
                }
                self.restrict(&added, &state)?;
            }
            StmtKind::Checkpoint(c) => {
                Rc::make_mut(&mut self.checkpoints)[c.0] = Some(self.state.clone())
            }
            StmtKind::Worlds { .. } => {
                let worlds = self.shown_worlds()?;
                let mut sorted = self.state.worlds.to_vec();
                sorted.sort();
                let chances = self.chances(&sorted, &self.state);
                self.events.push(Report::Worlds {
                    span: stmt.span,
                    worlds,
                    chances,
                });
            }
            StmtKind::Prior(e) => self.prior(stmt, e)?,
            StmtKind::Show { value, .. } => self.show(stmt.span, value)?,
            StmtKind::Check(_) if self.vacuous(stmt.span) => {}
            StmtKind::Where { formula, .. } => {
                // The worlds possible here where φ holds; the state does not change.
                let state = self.state.clone();
                let mut worlds = state.worlds.to_vec();
                worlds.sort();
                let mut shown = Vec::new();
                let mut kept = Vec::new();
                for w in &worlds {
                    if self.eval(formula, w, &state)?.into_bool()? {
                        shown.push(World(self.values_at(w, state.time)?.to_vec()));
                        kept.push(w.clone());
                    }
                }
                let chances = self.chances(&kept, &state);
                self.events.push(Report::Where {
                    span: stmt.span,
                    worlds: shown,
                    chances,
                });
            }
            StmtKind::Check(formula) => {
                let state = self.state.clone();
                let mut worlds = state.worlds.to_vec();
                worlds.sort();
                if self.probabilistic && formula.mentions_probability() {
                    // A probability undefined in some world is an error wherever it is
                    // asked, as the engines evaluate the check in every world first.
                    for w in &worlds {
                        self.eval(formula, w, &state)?;
                    }
                }
                for w in &worlds {
                    if !self.eval(formula, w, &state)?.into_bool()? {
                        let now = self.values_at(w, state.time)?;
                        let found = self.found(formula, w, &state);
                        return Err(Fail {
                            kind: ErrorKind::CheckFailed,
                            span: None,
                            message: format!("the check fails in the world {now:?}{found}"),
                        });
                    }
                }
                self.events.push(Report::CheckHolds { span: stmt.span });
            }
            StmtKind::Assign { changes } => {
                self.change(Change::Assign(changes));
                let (worlds, learned) = (self.state.worlds.clone(), self.state.learned.clone());
                self.state = self.new_state(worlds, learned);
            }
            StmtKind::CheckActual(formula) => {
                let state = self.state.clone();
                let actual = self.actual()?;
                if !self.eval(formula, &actual, &state)?.into_bool()? {
                    let now = self.values_at(&actual, state.time)?;
                    let found = self.found(formula, &actual, &state);
                    return Err(Fail {
                        kind: ErrorKind::CheckFailed,
                        span: None,
                        message: format!("the check fails in the actual world {now:?}{found}"),
                    });
                }
                self.events.push(Report::CheckHolds { span: stmt.span });
            }
            StmtKind::Expects { who, formula } => {
                // Radical upgrade: every world where φ holds (now) below every other,
                // the old order deciding within each part.
                let state = self.state.clone();
                let mut keys = Vec::with_capacity(state.worlds.len());
                for w in state.worlds.iter() {
                    let holds = self.eval(formula, w, &state)?.into_bool()?;
                    keys.push((w.clone(), (usize::from(!holds), rank(&state, who.0, w))));
                }
                let mut plausibility = state.plausibility.clone();
                plausibility[who.0] = Rc::new(dense(keys));
                self.state = self.new_state_ranked(
                    state.worlds.clone(),
                    state.learned.clone(),
                    plausibility,
                );
            }
            StmtKind::Do(steps) => self.do_actions(steps)?,
            StmtKind::Plan(plan) => self.plan(stmt.span, plan)?,
            StmtKind::Event(event) => {
                let case = self.event(event)?;
                self.report_happened(stmt.span, event, case);
            }
            StmtKind::Actual(formula) => {
                // The one world still possible where φ holds; made again in a later
                // round of a `repeat`, the cases that happened in the actual world kept.
                let state = self.state.clone();
                let kept = |w: &World| -> Result<bool, Fail> {
                    let Some(previous) = &self.actual else {
                        return Ok(true);
                    };
                    for occ in (0..self.happened.len()).filter(|&o| self.happened[o]) {
                        if self.case_in(w, occ)? != self.case_in(previous, occ)? {
                            return Ok(false);
                        }
                    }
                    Ok(true)
                };
                let mut possible = Vec::new();
                for w in state.worlds.iter() {
                    if kept(w)? {
                        possible.push(w.clone());
                    }
                }
                possible.sort();
                let mut found = Vec::new();
                for w in &possible {
                    if self.eval(formula, w, &state)?.into_bool()? {
                        found.push(w.clone());
                        if found.len() > 1 {
                            return Err(Fail::story(
                                "`actual` allows several of the worlds still possible",
                            ));
                        }
                    }
                }
                let Some(actual) = found.pop() else {
                    // None possible: φ allows no world of the domain, or only worlds
                    // ruled out.
                    let all = self.candidates()?;
                    for w in all.iter() {
                        if self.eval(formula, w, &state)?.into_bool()? {
                            return Err(Fail::story(
                                "the actual world contradicts what was announced",
                            ));
                        }
                    }
                    return Err(Fail::story("`actual` allows no world of the domain"));
                };
                self.actual = Some(actual);
            }
            StmtKind::Repeat { max, body, until } => {
                let outer = self.round;
                let mut rounds = 0;
                loop {
                    if rounds == *max {
                        return Err(Fail::story(format!("`repeat` ran its {max} rounds")));
                    }
                    rounds += 1;
                    self.round = Some(rounds);
                    self.block(body)?;
                    self.happened_by(until, self.changes.len())?;
                    let state = self.state.clone();
                    let actual = self.actual()?;
                    if self.eval(until, &actual, &state)?.into_bool()? {
                        break;
                    }
                }
                self.round = outer;
                self.events.push(Report::RepeatDone {
                    span: stmt.span,
                    rounds,
                });
            }
            StmtKind::AssertAddsCk { hint, body } => {
                let before = self.state.clone();
                let vacuous = self.emptied.filter(|_| before.worlds.is_empty());
                if self.probabilistic && hint.mentions_probability() {
                    // The hint is a formula of the state before the block: the engines
                    // evaluate it there first, so an undefined probability in it is an
                    // error at the hint, before the block runs.
                    for w in before.worlds.iter() {
                        self.eval(hint, w, &before)?;
                    }
                }
                self.block(body)?;
                let after = self.state.clone();
                // κ_after must equal κ_before ∧ hint on the worlds of κ_before.
                let mut kept = Vec::new();
                for w in before.worlds.iter() {
                    let by_hint = self.eval(hint, w, &before)?.into_bool()?;
                    if by_hint != after.worlds.contains(w) {
                        return Err(Fail {
                            kind: ErrorKind::Refuted,
                            span: None,
                            message: format!("the hint is refuted by the world {w:?}"),
                        });
                    }
                    if by_hint {
                        kept.push(w.clone());
                    }
                }
                self.events.push(match vacuous {
                    Some(left_none) => Report::Vacuous {
                        span: stmt.span,
                        left_none,
                    },
                    None => Report::HintVerified { span: stmt.span },
                });
                self.state = self.new_state(Rc::new(kept), after.learned.clone());
            }
        }
        Ok(())
    }

    fn actual(&self) -> Result<World, Fail> {
        self.actual
            .clone()
            .ok_or_else(|| Fail::story("the actual world is not declared yet"))
    }

    /// What an `Announce` or `Reveal` adds, evaluated in `state`; fails when that is
    /// false in the actual world (announcements are truthful).
    fn announcement(&mut self, stmt: &'p Stmt, state: &Rc<State<'p>>) -> Result<Added<'p>, Fail> {
        let added = match &stmt.kind {
            StmtKind::Announce { speaker, formula } => Added {
                speaker: *speaker,
                formula,
                negated: false,
            },
            StmtKind::Reveal { who, formula, .. } => {
                let actual = self.actual()?;
                let holds = self.eval(formula, &actual, state)?.into_bool()?;
                Added {
                    speaker: Some(*who),
                    formula,
                    negated: !holds,
                }
            }
            _ => {
                return Err(Fail::from(
                    "only announcements can be made simultaneously".to_string(),
                ));
            }
        };
        if let Some(actual) = self.actual.clone()
            && !self.holds(added, &actual, state)?
        {
            return Err(Fail::story("an announcement is false in the actual world"));
        }
        if let StmtKind::Reveal { who, .. } = &stmt.kind {
            self.events.push(Report::Reveal {
                span: stmt.span,
                round: self.round,
                who: *who,
                holds: !added.negated,
            });
        }
        Ok(added)
    }

    fn holds(&mut self, added: Added<'p>, w: &World, s: &Rc<State<'p>>) -> Result<bool, String> {
        match added.speaker {
            None => self.eval(added.formula, w, s)?.into_bool(),
            Some(agent) if added.negated => self.knows_not(agent, added.formula, w, s),
            Some(agent) => self.knows(agent, added.formula, w, s),
        }
    }

    /// W := the worlds of `state` where every one of `added` holds (in `state`).
    fn restrict(&mut self, added: &[Added<'p>], state: &Rc<State<'p>>) -> Result<(), String> {
        let mut kept = Vec::new();
        'worlds: for w in state.worlds.iter() {
            for a in added {
                if !self.holds(*a, w, state)? {
                    continue 'worlds;
                }
            }
            kept.push(w.clone());
        }
        let learned = self.state.learned.clone();
        self.state = self.new_state(Rc::new(kept), learned);
        Ok(())
    }

    /// Records a change of the constants (one more unit of time), and the events'
    /// latest occurrences after it.
    fn change(&mut self, change: Change<'p>) {
        self.changes.push(change);
        let latest = self.latest.last().cloned().unwrap_or_default();
        let latest = match change {
            Change::Event { occ, .. } => {
                let mut next = latest.as_ref().clone();
                next[self.event_of(occ)] = Some(occ);
                Rc::new(next)
            }
            Change::Assign(_) => latest,
        };
        self.latest.push(latest);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use epipen_ir::{
        ArithOp, Character, Checkpoint, CheckpointId, CmpOp, ConstId, Constant, ExprKind, LogicOp,
        Program, Stmt, StmtKind,
    };

    // Hand-built programs (the tests through `epipen::compile` are further down).

    fn ex(kind: ExprKind, ty: Ty) -> Expr {
        Expr {
            kind,
            ty,
            span: Span::default(),
        }
    }
    fn c(i: usize) -> Expr {
        ex(ExprKind::Const(ConstId(i)), Ty::Int)
    }
    fn int(n: i64) -> Expr {
        ex(ExprKind::Int(n), Ty::Int)
    }
    fn not(a: Expr) -> Expr {
        ex(ExprKind::Not(Box::new(a)), Ty::Bool)
    }
    fn and(a: Expr, b: Expr) -> Expr {
        ex(
            ExprKind::Logic(LogicOp::And, Box::new(a), Box::new(b)),
            Ty::Bool,
        )
    }
    fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
        ex(ExprKind::Cmp(op, Box::new(a), Box::new(b)), Ty::Bool)
    }
    fn arith_e(op: ArithOp, a: Expr, b: Expr) -> Expr {
        ex(ExprKind::Arith(op, Box::new(a), Box::new(b)), Ty::Int)
    }
    fn kv(agent: usize, exprs: Vec<Expr>) -> Expr {
        ex(
            ExprKind::KnowsValue {
                agent: CharId(agent),
                exprs,
            },
            Ty::Bool,
        )
    }
    fn knows(agent: usize, f: Expr) -> Expr {
        ex(
            ExprKind::Knows {
                agent: CharId(agent),
                formula: Box::new(f),
            },
            Ty::Bool,
        )
    }
    fn at(cp: usize, f: Expr) -> Expr {
        ex(
            ExprKind::At {
                checkpoint: CheckpointId(cp),
                body: Box::new(f),
            },
            Ty::Bool,
        )
    }
    fn st(kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            span: Span::default(),
            loops: Vec::new(),
        }
    }
    fn announce(f: Expr) -> Stmt {
        st(StmtKind::Announce {
            speaker: None,
            formula: f,
        })
    }
    fn says(who: usize, f: Expr) -> Stmt {
        st(StmtKind::Announce {
            speaker: Some(CharId(who)),
            formula: f,
        })
    }
    fn learns(who: usize, what: Expr) -> Stmt {
        st(StmtKind::Learn {
            who: CharId(who),
            what,
        })
    }
    fn program(
        chars: &[&str],
        ints: &[&str],
        checkpoints: usize,
        statements: Vec<Stmt>,
    ) -> Program {
        Program {
            characters: chars
                .iter()
                .map(|n| Character {
                    name: n.to_string(),
                    span: Span::default(),
                })
                .collect(),
            constants: ints
                .iter()
                .map(|n| Constant {
                    name: n.to_string(),
                    ty: Ty::Int,
                    span: Span::default(),
                    occurrence: None,
                })
                .collect(),
            enums: vec![],
            events: vec![],
            actions: vec![],
            plan_steps: None,
            checkpoints: (0..checkpoints)
                .map(|i| Checkpoint {
                    name: format!("c{i}"),
                    span: Span::default(),
                })
                .collect(),
            statements,
            samples: Vec::new(),
            backend: None,
        }
    }
    fn ints(vals: &[&[i64]]) -> Vec<World> {
        let mut ws: Vec<World> = vals
            .iter()
            .map(|v| World(v.iter().map(|n| Value::Int(*n)).collect()))
            .collect();
        ws.sort();
        ws
    }

    const DATES: [(i64, i64); 10] = [
        (5, 15),
        (5, 16),
        (5, 19),
        (6, 17),
        (6, 18),
        (7, 14),
        (7, 16),
        (8, 14),
        (8, 15),
        (8, 17),
    ];

    #[test]
    fn cheryl_by_hand() {
        let set = DATES.iter().map(|(m, d)| vec![int(*m), int(*d)]).collect();
        let dates = ex(
            ExprKind::In {
                tuple: vec![c(0), c(1)],
                set,
            },
            Ty::Bool,
        );
        let p = program(
            &["Albert", "Bernard"],
            &["month", "day"],
            0,
            vec![
                announce(dates),
                learns(0, c(0)),
                learns(1, c(1)),
                says(0, not(kv(0, vec![c(0), c(1)]))),
                says(0, knows(0, not(kv(1, vec![c(0), c(1)])))),
                says(1, kv(1, vec![c(0), c(1)])),
                says(0, kv(0, vec![c(0), c(1)])),
            ],
        );
        let domain = Domain {
            ranges: vec![Some((1, 12)), Some((1, 31))],
        };
        assert_eq!(evaluate(&p, &domain).unwrap(), ints(&[&[7, 16]]));
    }

    #[test]
    fn consecutive_by_hand() {
        let consecutive = ex(
            ExprKind::Logic(
                LogicOp::Or,
                Box::new(cmp(CmpOp::Eq, c(0), arith_e(ArithOp::Add, c(1), int(1)))),
                Box::new(cmp(CmpOp::Eq, c(1), arith_e(ArithOp::Add, c(0), int(1)))),
            ),
            Ty::Bool,
        );
        let p = program(
            &["Anne", "Bill"],
            &["A", "B"],
            1,
            vec![
                announce(and(
                    and(cmp(CmpOp::Ge, c(0), int(0)), cmp(CmpOp::Ge, c(1), int(0))),
                    consecutive,
                )),
                learns(0, c(0)),
                learns(1, c(1)),
                st(StmtKind::Checkpoint(CheckpointId(0))),
                says(0, not(kv(0, vec![c(1)]))),
                says(1, not(kv(1, vec![c(0)]))),
                says(0, kv(0, vec![c(1)])),
                says(1, kv(1, vec![c(0)])),
            ],
        );
        let domain = Domain {
            ranges: vec![Some((0, 20)), Some((0, 20))],
        };
        // The unbounded puzzle ends in {A 1, B 2} and {A 2, B 3}; the box's upper edge
        // is common knowledge here too (nothing in the story hides it), which mirrors
        // them at the top: {A 19, B 18} and {A 18, B 17}.
        let answer = ints(&[&[1, 2], &[2, 3], &[18, 17], &[19, 18]]);
        assert_eq!(evaluate(&p, &domain).unwrap(), answer);

        // At the checkpoint Anne did not know B in any of these worlds: `at` looks back.
        let mut q = p.clone();
        q.statements.push(announce(not(at(0, kv(0, vec![c(1)])))));
        assert_eq!(evaluate(&q, &domain).unwrap(), answer);
        // …whereas now she knows it in every remaining world.
        let mut q = p.clone();
        q.statements.push(announce(not(kv(0, vec![c(1)]))));
        assert_eq!(evaluate(&q, &domain).unwrap(), ints(&[]));
        // At the checkpoint, Anne knew B exactly when A = 0 (or at the edge, A = 20).
        let mut q = p;
        q.statements.truncate(4);
        q.statements.push(announce(at(0, kv(0, vec![c(1)]))));
        assert_eq!(evaluate(&q, &domain).unwrap(), ints(&[&[0, 1], &[20, 19]]));
    }

    #[test]
    fn division_and_modulo_follow_smt_lib() {
        // x / y == 0 with y ranging over -2..=2 and x over -3..=3.
        let p = program(
            &[],
            &["x", "y"],
            0,
            vec![announce(and(
                cmp(CmpOp::Eq, arith_e(ArithOp::Div, c(0), c(1)), int(0)),
                cmp(CmpOp::Eq, arith_e(ArithOp::Mod, c(0), c(1)), c(0)),
            ))],
        );
        let domain = Domain {
            ranges: vec![Some((-3, 3)), Some((-2, 2))],
        };
        // y = 0: always (x/0 = 0, x%0 = x). y ≠ 0: x/y = 0 and x%y = x iff 0 <= x < |y|.
        let mut expected: Vec<Vec<i64>> = (-3..=3).map(|x| vec![x, 0]).collect();
        for y in [-2i64, -1, 1, 2] {
            for x in 0..y.abs() {
                expected.push(vec![x, y]);
            }
        }
        let expected: Vec<&[i64]> = expected.iter().map(|v| v.as_slice()).collect();
        assert_eq!(evaluate(&p, &domain).unwrap(), ints(&expected));
    }

    #[test]
    fn refuses_huge_domains_and_computes_exactly() {
        let p = program(&[], &["x", "y"], 0, vec![]);
        let domain = Domain {
            ranges: vec![Some((0, 9999)), Some((0, 9999))],
        };
        assert!(evaluate(&p, &domain).is_err());
        // x · (2^63 − 1)^3 > 0: the product leaves i128 for |x| >= 1, and keeps x's sign.
        let max = || int(i64::MAX);
        let product = arith_e(
            ArithOp::Mul,
            arith_e(ArithOp::Mul, arith_e(ArithOp::Mul, c(0), max()), max()),
            max(),
        );
        let p = program(
            &[],
            &["x"],
            0,
            vec![announce(cmp(CmpOp::Gt, product, int(0)))],
        );
        let domain = Domain {
            ranges: vec![Some((-3, 3))],
        };
        assert_eq!(evaluate(&p, &domain).unwrap(), ints(&[&[1], &[2], &[3]]));
    }

    #[test]
    fn empty_groups_are_vacuous() {
        // At c0 Anne has learned nothing; at c1 she knows x and only x = 0 is left. In
        // c0 she considers x = 1 possible, and at c1 no world looks like x = 1 to her,
        // so `knows(x == 5)` there is vacuously true at x = 1.
        let inner = at(1, knows(0, cmp(CmpOp::Eq, c(0), int(5))));
        let f = at(
            0,
            knows(
                0,
                ex(
                    ExprKind::Logic(
                        LogicOp::Implies,
                        Box::new(cmp(CmpOp::Ne, c(0), int(0))),
                        Box::new(inner),
                    ),
                    Ty::Bool,
                ),
            ),
        );
        let p = program(
            &["Anne"],
            &["x"],
            2,
            vec![
                st(StmtKind::Checkpoint(CheckpointId(0))),
                learns(0, c(0)),
                announce(cmp(CmpOp::Eq, c(0), int(0))),
                st(StmtKind::Checkpoint(CheckpointId(1))),
                announce(f),
            ],
        );
        let domain = Domain {
            ranges: vec![Some((0, 2))],
        };
        assert_eq!(evaluate(&p, &domain).unwrap(), ints(&[&[0]]));
    }

    #[test]
    fn sum_and_product_is_fast() {
        // Freudenthal's puzzle: 1 < x < y, x + y <= 100; S knows the sum, P the product.
        let bounds = and(
            and(cmp(CmpOp::Gt, c(0), int(1)), cmp(CmpOp::Lt, c(0), c(1))),
            cmp(CmpOp::Le, arith_e(ArithOp::Add, c(0), c(1)), int(100)),
        );
        let p = program(
            &["S", "P"],
            &["x", "y"],
            0,
            vec![
                announce(bounds),
                learns(0, arith_e(ArithOp::Add, c(0), c(1))),
                learns(1, arith_e(ArithOp::Mul, c(0), c(1))),
                // "I knew you didn't know" (in the initial state).
                says(0, knows(0, not(kv(1, vec![c(0), c(1)])))),
                says(1, kv(1, vec![c(0), c(1)])),
                says(0, kv(0, vec![c(0), c(1)])),
            ],
        );
        let domain = Domain {
            ranges: vec![Some((2, 99)), Some((2, 99))],
        };
        let start = std::time::Instant::now();
        assert_eq!(evaluate(&p, &domain).unwrap(), ints(&[&[4, 13]]));
        assert!(
            start.elapsed().as_secs_f64() < 5.0,
            "took {:?}",
            start.elapsed()
        );
    }

    // Through the parser and lowering.

    fn run(source: &str, ranges: Vec<Option<(i64, i64)>>) -> Vec<World> {
        let program = epipen::compile(source, &[]).expect("the story compiles");
        evaluate(&program, &Domain { ranges }).expect("the evaluator runs")
    }

    /// What the `show`s of `source` report, and where its run stops (the text there).
    fn shows(source: &str, ranges: Vec<Option<(i64, i64)>>) -> (Vec<String>, Option<String>) {
        let program = epipen::compile(source, &[]).expect("the story compiles");
        let t = trace(&program, &Domain { ranges });
        let shown = (t.events.iter())
            .filter_map(|e| match e {
                Report::Show { values, .. } => Some(format!("{values:?}")),
                _ => None,
            })
            .collect();
        let stop = t
            .end
            .err()
            .map(|e| source[e.span.start..e.span.end].to_string());
        (shown, stop)
    }

    /// A prior among the story's first announcements weighs the worlds they leave, as if
    /// written after them (issue 44): before the bound, a world the bound cuts may weigh
    /// less than 0; in a world the bound keeps, that is still an error.
    #[test]
    fn a_prior_before_the_bounding_announcement_weighs_as_after_it() {
        let story = |prior_first: bool, prior: &str| {
            let (bound, prior) = ("announce 1 <= x and x <= 4\n", format!("prior {prior}\n"));
            let (a, b) = if prior_first {
                (&prior[..], bound)
            } else {
                (bound, &prior[..])
            };
            format!(
                "characters A\nint x\n{a}{b}A learns x > 2\n\
                 show probability(x == 3)\nshow sum(v in 1..5: v * probability(A, x == v))\n"
            )
        };
        let ranges = || vec![Some((-3, 6))];
        let after = shows(&story(false, "x"), ranges());
        assert_eq!(after.1, None);
        assert_eq!(after.0.len(), 2);
        assert!(
            after.0[0].contains("Ratio(Ratio { numer: 3, denom: 10 })"),
            "{after:?}"
        );
        assert_eq!(shows(&story(true, "x"), ranges()), after);
        assert_eq!(shows(&story(true, "x - 1"), ranges()).1, None);
        assert_eq!(
            shows(&story(true, "x - 2"), ranges()).1.as_deref(),
            Some("prior x - 2")
        );
    }

    /// A case's weight below 0 stops the run at the weight (issue 44), the first such
    /// case as written, before a world where every case weighs 0.
    #[test]
    fn a_negative_case_weight_is_an_error_at_the_weight() {
        let story = "characters A\nint x\nannounce 0 <= x and x <= 3\n\
                     event e {\n  a weight 0\n  b weight 1 - x\n  c weight x - 3\n}\n";
        assert_eq!(
            shows(story, vec![Some((0, 3)), None]).1.as_deref(),
            Some("1 - x")
        );
        let zero = "characters A\nint x\nannounce 0 <= x and x <= 3\n\
                    event e {\n  a weight 0\n  b weight x\n}\n";
        assert_eq!(
            shows(zero, vec![Some((0, 3)), None]).1.as_deref(),
            Some("event e {\n  a weight 0\n  b weight x\n}")
        );
    }

    #[test]
    fn cheryl_from_text() {
        let story = "characters Albert, Bernard
int month, day
announce (month, day) in {(5, 15), (5, 16), (5, 19), (6, 17), (6, 18),
                          (7, 14), (7, 16), (8, 14), (8, 15), (8, 17)}
Albert learns month
Bernard learns day
Albert: not knows_value(month, day)
Albert: knows(not knows_value(Bernard, month, day))
Bernard: knows_value(month, day)
Albert: knows_value(month, day)
";
        let ranges = vec![Some((1, 12)), Some((1, 31))];
        assert_eq!(run(story, ranges), ints(&[&[7, 16]]));
    }

    #[test]
    fn consecutive_from_text_with_at() {
        let story = "characters Anne, Bill
int A, B
announce A >= 0 and B >= 0 and A <= 20 and B <= 20 and (A == B + 1 or B == A + 1)
Anne learns A
Bill learns B
checkpoint start
Anne: not knows_value(B)
Bill: not knows_value(A)
Anne: knows_value(B)
Bill: knows_value(A)
";
        let ranges = vec![Some((0, 20)), Some((0, 20))];
        let answer = ints(&[&[1, 2], &[2, 3], &[18, 17], &[19, 18]]);
        assert_eq!(run(story, ranges.clone()), answer);
        // Bill knew A at the start exactly when B was 0 or 20.
        let looked_back = format!("{story}announce at(start, knows_value(Bill, A)) or A == 1\n");
        assert_eq!(run(&looked_back, ranges), ints(&[&[1, 2]]));
    }

    #[test]
    fn division_by_zero_from_text() {
        let story = "characters Eve
int x, y
announce x / y == 0 and x % y == x
Eve learns y
Eve: knows_value(x / (y + 1))
";
        // The announcement keeps every x when y = 0 (x / 0 = 0, x % 0 = x), else
        // 0 <= x < |y|. Eve learns y; x / (y + 1) is then x (y = 0: unknown), always 0
        // (y = -1: division by zero), 0 (y = 1: x = 0; y = 2: x in {0, 1}), or -x
        // (y = -2, x in {0, 1}: unknown).
        let worlds = run(story, vec![Some((-2, 2)), Some((-2, 2))]);
        let expected = ints(&[&[0, -1], &[0, 1], &[0, 2], &[1, 2]]);
        assert_eq!(worlds, expected);
    }

    /// A formula learned in a round says what `at` meant then: saving its checkpoint again
    /// in the next round (of a loop or a `repeat`) does not change it. (The evaluator
    /// read the latest save, so the learned formula, asked about through the state it
    /// was learned in, asked itself again: a stack overflow.)
    #[test]
    fn a_learned_at_keeps_the_checkpoint_of_its_time() {
        let rounds = "characters A, B
bool p
B learns p
for t in 0..2 {
  checkpoint before
  A learns at(before, knows(B, p) or knows(A, p))
}
announce knows(A, p)
";
        let b = |v: bool| World(vec![Value::Bool(v)]);
        assert_eq!(run(rounds, vec![None]), vec![b(true)]);
        let repeated = "characters A, B
bool p
B learns p
actual p
repeat max 2 {
  checkpoint before
  A learns at(before, knows(B, p) or knows(A, p))
} until at(before, knows(A, p))
";
        let program = epipen::compile(repeated, &[]).expect("the story compiles");
        let t = trace(&program, &Domain { ranges: vec![None] });
        assert!(
            matches!(t.events.as_slice(), [Report::RepeatDone { rounds: 2, .. }]),
            "{:?}",
            t.events
        );
        assert_eq!(t.end.expect("the evaluator runs"), vec![b(false), b(true)]);
    }

    #[test]
    fn muddy_children_rounds() {
        let story = include_str!("../../../stories/muddy-children.story");
        let sets = [("n".to_string(), 4), ("k".to_string(), 2)];
        let program = epipen::compile(story, &sets).expect("the story compiles");
        let worlds = evaluate(
            &program,
            &Domain {
                ranges: vec![None; 4],
            },
        )
        .unwrap();
        let b = |v: &[bool]| World(v.iter().map(|x| Value::Bool(*x)).collect());
        assert_eq!(worlds, vec![b(&[true, true, false, false])]);
        // The clean children know only at the start of round k + 1 = 3.
        let program = epipen::compile(&story.replace("max n + 1", "max 2"), &sets).unwrap();
        assert!(
            evaluate(
                &program,
                &Domain {
                    ranges: vec![None; 4]
                }
            )
            .is_err()
        );
    }

    #[test]
    fn colour_fairies_enums() {
        let story = include_str!("../../../stories/colour-fairies.story");
        let program = epipen::compile(story, &[]).expect("the story compiles");
        let worlds = evaluate(
            &program,
            &Domain {
                ranges: vec![None; 5],
            },
        )
        .unwrap();
        // turquoise, earth, ivory, sage, emerald.
        assert_eq!(worlds, ints(&[&[4, 8, 5, 1, 7]]));
    }

    #[test]
    fn assert_adds_ck_checks_the_hint() {
        let story = |hint: &str| {
            format!(
                "characters Anne, Bill, Cath
int A, B, C
announce A > 0 and B > 0 and C > 0 and A <= 20 and B <= 20 and C <= 20
announce A == B + C or B == A + C or C == A + B
Anne learns B
Anne learns C
Bill learns A
Bill learns C
assert_adds_ck {hint} {{
  Anne: not knows_value(A)
}}
Bill: knows_value(B)
"
            )
        };
        let ranges = vec![Some((1, 20)); 3];
        // On this box Anne also knows A when B + C > 20.
        let program = epipen::compile(&story("B != C and B + C <= 20"), &[]).unwrap();
        let worlds = evaluate(
            &program,
            &Domain {
                ranges: ranges.clone(),
            },
        )
        .unwrap();
        assert!(!worlds.is_empty());
        assert!(worlds.iter().all(|w| w.0[1] != w.0[2]));
        let program = epipen::compile(&story("B != C"), &[]).unwrap();
        assert!(evaluate(&program, &Domain { ranges }).is_err());
    }
}
