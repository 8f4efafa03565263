//! The EpiPEn engine: runs a program's statements, keeping the knowledge state (κ and who
//! learned what), and reports what happens as [`Report`]s. One statement driver
//! (`driver`) runs every story over one of three backends: Z3 (`z3`: every story without
//! chances, unbounded ints included), BDDs (`bdd`: bools, enums and ints the first
//! announcements bound) and explicit worlds (`explicit`: stories whose first
//! announcements bound every constant, listed natively; the only backend that keeps
//! probabilities). `choice` decides which one runs a story. See docs/encoding.md for the
//! encodings.

pub mod bdd;
mod choice;
mod driver;
pub mod error;
mod explicit;
mod limits;
mod normal;
#[cfg(test)]
mod tests;
pub mod worlds;
pub mod z3;

pub use epipen_ir as ir;
use epipen_syntax as syntax;
pub use num_bigint::BigInt;
pub use num_rational::BigRational;

use std::rc::Rc;
use std::time::{Duration, Instant};

pub use crate::z3::solver::{Cancel, leave_ctrl_c_to_the_process, z3_version};
pub use driver::Followed;
use driver::Run;
pub use error::{EngineError, Failure};
pub use explicit::bounds_the_worlds;

/// Where the Z3 library linked at build time came from: `system`, the `pinned z3-solver
/// wheel`, or `EPIPEN_Z3_DIR` (docs/z3.md).
pub fn z3_source() -> &'static str {
    env!("EPIPEN_Z3_SOURCE")
}

use crate::ir::{
    ActionId, ArithOp, CharId, CheckpointId, ConstId, EventId, Expr, ExprKind, Program, Stmt,
};
use crate::syntax::Span;
use crate::worlds::{Model, World, WorldCount, WorldSet};

/// Counting worlds finds at most this many one by one with the solver (each costs a
/// solver call, and more as the blocking clauses pile up).
pub const COUNT_ENUMERATION_CAP: usize = 200;

/// Which backend runs the story and, with Z3, how knowledge operators become
/// quantifier-free (see docs/encoding.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Strategy {
    /// The explicit-worlds backend when the story's first announcements bound every
    /// constant to a list of worlds it can hold, listed within a budget (bool and enum
    /// stories: when their types allow at most 2^12 worlds, or a small listing finds
    /// that the first announcements leave at most 2^14); the BDD backend for other
    /// stories of bools and enums; otherwise Z3 ([`Strategy::Z3`]). The choice is
    /// measured by listing, whatever the way the bounds are written.
    #[default]
    Auto,
    /// Z3, with the finite-domain route when κ has finitely many worlds, else quantifier
    /// elimination (with the finite-domain route where that cannot work).
    Z3,
    /// The explicit-worlds backend (refuses a story whose first announcements do not
    /// bound every int).
    Explicit,
    /// Quantifier elimination first, the finite-domain route only where it cannot work
    /// (tests use it to cross-check the symbolic route on finite stories).
    Symbolic,
    /// Z3, always the finite-domain route (fails when κ has infinitely many worlds).
    Finite,
    /// The BDD backend (fails at the first statement when a constant is an int).
    Bdd,
}

impl Strategy {
    /// The strategy of a backend named in a story (`#! backend z3`) or on the command
    /// line.
    pub fn of(backend: crate::ir::Backend) -> Strategy {
        match backend {
            crate::ir::Backend::Auto => Strategy::Auto,
            crate::ir::Backend::Z3 => Strategy::Z3,
            crate::ir::Backend::Bdd => Strategy::Bdd,
            crate::ir::Backend::Explicit => Strategy::Explicit,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// How knowledge operators are eliminated.
    pub strategy: Strategy,
    /// When the whole run's time is up (set once, by whoever starts the run).
    pub deadline: Option<Instant>,
    /// Take `assert_adds_ck` hints on trust: skip the block's announcements and verification.
    pub trust_hints: bool,
    /// Keep going after a refuted hint (with the block's true effect), reporting it as an
    /// event instead of failing: what `epipen check` does.
    pub keep_refuted_hints: bool,
    /// Skip `worlds` statements (`epipen worlds` prints only the worlds at the end).
    pub skip_worlds_statements: bool,
    /// Report an [`Report::Step`] after every statement (time and κ's size).
    pub stats: bool,
    /// Stops the run, wherever the deadline is checked and inside Z3 calls, with
    /// [`Failure::Interrupted`] once raised from another thread.
    pub cancel: Cancel,
    /// How a plan's search recognises states ([`PlanStates::Listed`] unless a test
    /// asks for the other route).
    pub plan_states: PlanStates,
    /// A plan's search keeps of each state only the worlds the actual world reaches by
    /// the characters' beliefs (each group's most plausible worlds), as the mA*
    /// planners keep their states (`epipen plan` on an mA* file sets it): the same
    /// answers while no character sees what it believed impossible (where epipen's
    /// characters revise their beliefs among the worlds kept).
    pub plan_believed: bool,
    /// Whether events' histories may be forgotten where nothing reads them: what the
    /// command prints allows it ([`History::ForgottenWhereUnread`]: `check` and `run`,
    /// which list no worlds), and `crate::choice` keeps the history of a program that
    /// reads it (docs/encoding.md, "Forgetting histories").
    pub history: History,
}

/// Whether a run keeps every event's history (the occurrences and the constants' values
/// at the start), or forgets it where nothing reads it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum History {
    /// Kept: every world can be listed with its history (`worlds`, `model`, `count`).
    #[default]
    Kept,
    /// Forgotten after each event where the program and the command read no history:
    /// the same verdicts, κ over what each character observed and the current values.
    ForgottenWhereUnread,
}

/// How a plan's search recognises a state it has met.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PlanStates {
    /// The backend's way: by its listed model (up to 16 384 worlds, up to
    /// bisimulation), or as the backend fixes it (Z3 first tries this way; BDDs where
    /// the model is larger: canonical diagrams; Z3: κs compared by the solver).
    #[default]
    Listed,
    /// Never by a listed model: always as the backend fixes it, the route of unbounded
    /// ints and of large models (the differential fuzzer runs Z3 and BDDs so, to
    /// compare that route too).
    Fixed,
}

/// Something the run reports, in story order.
#[derive(Debug, Clone, PartialEq)]
pub enum Report {
    /// A `worlds` statement's worlds, or (with a `filter`, φ as written) those of a
    /// `where φ` statement: the worlds possible there where φ holds. When there are
    /// none, `left_none` is the first statement after which no world was possible (None
    /// when some world is possible).
    Worlds {
        span: Span,
        set: WorldSet,
        left_none: Option<Span>,
        filter: Option<String>,
    },
    /// `A reveals φ`: what A announced (φ, or `not φ` when `holds` is false), in the
    /// given round of the innermost `repeat`.
    Reveal {
        span: Span,
        round: Option<u64>,
        who: CharId,
        text: String,
        holds: bool,
    },
    /// An event happened (see [`crate::ir::EventStmt`]), in the given round of the
    /// innermost `repeat`: in the actual world, the case `case` (its index in the
    /// event's cases; None when the story has no actual world), and for each character
    /// (by `CharId`) the cases it could not tell from it (every case, for a character
    /// with no `sees` line; none without an actual world).
    Happened {
        span: Span,
        round: Option<u64>,
        event: EventId,
        case: Option<usize>,
        saw: Vec<Vec<usize>>,
    },
    /// A `repeat` stopped after this many rounds.
    RepeatDone { span: Span, rounds: u64 },
    /// An `assert_adds_ck` hint was proven right.
    HintVerified { span: Span, elapsed: Duration },
    /// An `assert_adds_ck` hint was taken on trust (`--trust-hints`).
    HintTrusted { span: Span },
    /// An `assert_adds_ck` hint was refuted (only with `keep_refuted_hints`).
    HintRefuted {
        span: Span,
        elapsed: Duration,
        counterexample: Counterexample,
    },
    /// A `check φ` held in every world.
    CheckHolds { span: Span },
    /// A `check φ` or `assert_adds_ck φ { … }` (its hint verified) was evaluated where
    /// no world is possible: it holds only because nothing is left. (A `check actual φ`
    /// never is: the actual world is possible.)
    /// `left_none`: the first statement after which no world was possible.
    Vacuous { span: Span, left_none: Span },
    /// A `check φ` failed in this world (only with `keep_refuted_hints`; otherwise the
    /// run stops with [`Failure::CheckFailed`]).
    /// `found`: the value there of each term compared with probabilities in φ.
    CheckFailed {
        span: Span,
        world: World,
        found: Vec<Found>,
    },
    /// `show e`: its value (`text`: e as written), in the actual world or in each world
    /// still possible.
    Show {
        span: Span,
        text: String,
        shown: Shown,
    },
    /// A `plan` statement's answer: the plans found, each a sequence of actions (one
    /// plan, or with `all` every plan of the shortest length; none when no plan of at
    /// most `max` actions reaches the goal). All have the same length; an empty plan
    /// means the goal holds already.
    Plan {
        span: Span,
        max: usize,
        plans: Vec<Vec<ActionId>>,
    },
    /// A statement finished (only with `stats`): its time, blocks included, and the size
    /// of κ after it, in the backend's `unit` (Z3: DAG nodes of its formula, BDD: nodes,
    /// explicit worlds: worlds).
    Step {
        span: Span,
        elapsed: Duration,
        kappa_size: usize,
        unit: &'static str,
    },
}

/// What a `show` statement found.
#[derive(Debug, Clone, PartialEq)]
pub enum Shown {
    /// The value in the actual world.
    Actual(Amount),
    /// The values in the worlds still possible, each with how many worlds have it, in
    /// the order they first appear in the canonical order of worlds.
    Worlds(Vec<(Amount, u64)>),
}

/// A term compared with probabilities in a failing check (a side of a comparison
/// outside knowledge operators), and its value in the world where the check fails.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Where it is written.
    pub span: Span,
    /// As the IR prints it (loop variables and definitions replaced).
    pub text: String,
    pub value: BigRational,
}

/// A value a `show` statement prints.
#[derive(Debug, Clone, PartialEq)]
pub enum Amount {
    /// An int, a bool, or an enum's value (by its index), with its type.
    Value(worlds::Value, crate::ir::Ty),
    /// A probability, exact.
    Ratio(BigRational),
}

/// A world on which a hint and its block disagree.
#[derive(Debug, Clone, PartialEq)]
pub struct Counterexample {
    pub world: World,
    /// True when the block keeps the world and the hint rules it out; false when the
    /// hint allows it and the block rules it out.
    pub kept_by_block: bool,
}

impl Counterexample {
    pub fn describe(&self, program: &Program) -> String {
        let side = if self.kept_by_block {
            "the block keeps this world but the hint rules it out"
        } else {
            "the hint allows this world but the block rules it out"
        };
        format!("{} ({side})", worlds::world_line(program, &self.world.0))
    }
}

/// Runs a program statement by statement, with the backend the options choose, through
/// the one statement driver (`driver.rs`).
pub struct Engine {
    driver: Box<dyn Run>,
    program: Rc<Program>,
}

impl Engine {
    /// An engine at the start of `program` (which it shares: callers keep their `Rc`),
    /// on the backend `choice` picks for the options and the story.
    pub fn new(program: Rc<Program>, options: &Options) -> Engine {
        let shared = program.clone();
        let driver = choice::choose(program, options);
        tracing::debug!(backend = driver.backend(), "backend chosen");
        Engine {
            driver,
            program: shared,
        }
    }

    /// The program the engine runs.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Runs every statement of the program, reporting events to `sink`.
    pub fn run(&mut self, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        self.driver.run(sink)
    }

    /// Executes one statement (blocks recursively), reporting events to `sink`.
    pub fn step(&mut self, stmt: &Stmt, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        self.driver.step(stmt, sink)
    }

    /// Executes round `round` (from 1) of the `repeat` statement `stmt`, its `until`
    /// included (any other statement: all of it): true when the statement is done, a
    /// failure when the round is past its last. The rounds must come in order, with no
    /// other statement between them: `epipen run --trace` follows a `repeat` so.
    pub fn step_round(
        &mut self,
        stmt: &Stmt,
        round: u64,
        sink: &mut dyn FnMut(Report),
    ) -> Result<bool, EngineError> {
        self.driver.step_round(stmt, round, sink)
    }

    /// Up to `limit` of the worlds possible now, in canonical order.
    pub fn worlds(&mut self, limit: u64) -> Result<WorldSet, Failure> {
        self.driver.worlds(limit)
    }

    /// The size of the current common knowledge κ: DAG nodes of its Z3 formula, nodes
    /// of its BDD, or its worlds.
    pub fn kappa_size(&self) -> usize {
        self.driver.kappa_size()
    }

    /// How many worlds are possible now (or at `checkpoint`). The BDD and explicit
    /// backends count exactly. Z3 counts exactly up to `cap`, or when a box of values
    /// scanned natively holds the worlds; worlds it has to find one by one, it counts up
    /// to [`COUNT_ENUMERATION_CAP`]. `Infinite` when the solver proves an int constant
    /// unbounded.
    pub fn count_worlds(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<WorldCount, Failure> {
        self.driver.count_worlds(checkpoint, cap)
    }

    /// The epistemic model now (or at `checkpoint`) when it has at most `cap` worlds.
    pub fn model(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<Option<Model>, Failure> {
        self.driver.model(checkpoint, cap)
    }

    /// A plan's actions done one by one from the current state (that of a `plan`
    /// statement just run, which leaves the state as it was): after each, the model (None
    /// beyond `cap` worlds) and the actual world; the state is left as it was. Each
    /// action takes the first of its cases that can happen at the actual world.
    pub fn follow_plan(
        &mut self,
        plan: &[ActionId],
        cap: usize,
    ) -> Result<Vec<Followed>, EngineError> {
        self.driver.follow_plan(plan, cap)
    }

    /// The backend running the story: `z3`, `bdd` or `explicit` (`none` when the one
    /// asked for refused it).
    pub fn backend(&self) -> &'static str {
        self.driver.backend()
    }

    /// The first statement (the innermost, in the order the run finished them) after
    /// which no world was possible; None while some world is possible. Asked of the
    /// backend once and remembered (κ never regains a world once it has none).
    pub fn left_none(&mut self) -> Result<Option<Span>, Failure> {
        self.driver.left_none()
    }

    /// The actual world, once an `actual` statement has declared it: its values at the
    /// story's start, with the case of each event that has happened (as a [`Model`]'s
    /// `before` holds its worlds).
    pub fn actual_world(&self) -> Option<World> {
        self.driver.actual()
    }
}

/// A hash map with a fixed seed (the same every run, so iteration order too) and a fast
/// hasher: the engine's tables are keyed by numbers, addresses and small vectors, which
/// need no protection against chosen collisions.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::FixedState>;

/// Attaches a statement's span to a failure.
pub(crate) trait At<T> {
    fn at(self, span: Span) -> Result<T, EngineError>;
}

impl<T, E: Into<Failure>> At<T> for Result<T, E> {
    fn at(self, span: Span) -> Result<T, EngineError> {
        self.map_err(|e| EngineError {
            span,
            error: e.into(),
        })
    }
}

/// The first int constant the story's first announcements leave unbounded, by the
/// interval propagation the explicit and BDD backends bound their ints with; None when
/// they bound every int, or when finding out takes more than a million steps.
pub fn left_unbounded(program: &Program) -> Option<ConstId> {
    match explicit::first_bounds(program, 1 << 20) {
        Err(explicit::Loose::Unbounded(k)) => Some(ConstId(k)),
        _ => None,
    }
}

/// The order of the BDD backend's variables for `program`, as `--stats` prints it
/// (`as declared: owner[0..5], …`).
pub fn bdd_variable_order(program: &Program) -> String {
    bdd::order::describe(program, &bdd::order::order(program))
}

/// The order of the BDD backend's variables for `program` run with `options`, as
/// `--stats` prints it: [`bdd_variable_order`], or when the run forgets the events'
/// histories ([`history`]) the order of the observations, the story's constants and the
/// cases' bits it then uses.
pub fn bdd_variable_order_with(program: &Program, options: &Options) -> String {
    match history(program, options) {
        History::ForgottenWhereUnread => bdd::order::describe_forgetting(program),
        History::Kept => bdd_variable_order(program),
    }
}

/// Whether a run of `program` with `options` may forget its events' histories (the
/// command allows it and nothing in the program reads the past; the BDD and explicit
/// backends then forget): docs/encoding.md, "Forgetting histories".
pub fn history(program: &Program, options: &Options) -> History {
    choice::history(program, options)
}

/// Runs the whole program and returns up to `limit` of the worlds possible at its end.
pub fn solve(program: &Program, limit: u64) -> Result<WorldSet, EngineError> {
    let options = Options {
        skip_worlds_statements: true,
        ..Options::default()
    };
    let mut engine = Engine::new(Rc::new(program.clone()), &options);
    engine.run(&mut |_| {})?;
    let end = program
        .statements
        .last()
        .map(|s| s.span)
        .unwrap_or_default();
    engine
        .worlds(limit)
        .map_err(|error| EngineError { span: end, error })
}

/// The summands of a chain of `+`, `-` and unary `-`, with their signs (the linear forms
/// of the BDD backend's thresholds and of the explicit backend's bounds).
pub(crate) fn summands<'e>(e: &'e Expr, positive: bool, out: &mut Vec<(bool, &'e Expr)>) {
    match &e.kind {
        ExprKind::Arith(ArithOp::Add, a, b) => {
            summands(a, positive, out);
            summands(b, positive, out);
        }
        ExprKind::Arith(ArithOp::Sub, a, b) => {
            summands(a, positive, out);
            summands(b, !positive, out);
        }
        ExprKind::Neg(a) => summands(a, !positive, out),
        _ => out.push((positive, e)),
    }
}
