//! The one statement driver: what each statement means, written once, over a [`Backend`]
//! that knows how to represent sets of worlds and knowledge states (Z3 formulas, BDDs,
//! explicit lists of worlds).

use std::collections::HashMap;

use std::rc::Rc;
use std::time::Instant;

mod actual;
mod announce;
mod check;
mod contract;
pub(crate) use contract::Quotient;

/// A state rebuilt from its contraction, and its actual world ([`Backend::rebuilt`]).
pub(crate) type Rebuilt<S, P> = Option<(S, Option<P>)>;
mod emptied;
mod event;
mod now;
use now::{no_latest, normalised};
mod plan;
mod refused;
mod repeat;
mod show;
mod standby;

#[cfg(test)]
mod tests;

pub(crate) use announce::Said;
pub use plan::Followed;
pub(crate) use refused::Refused;
pub(crate) use show::no_chances;
pub(crate) use standby::{Handover, Standby};

use super::{At, Counterexample, EngineError, Failure, Options, Report, SolverError};
use crate::ir::{
    ActionId, CharId, CheckpointId, ConstId, Expr, ExprKind, Program, Rat, Stmt, StmtKind,
};
use crate::syntax::Span;
use crate::worlds::{self, Model, Value, World, WorldCount, WorldSet};
use num_rational::BigRational;

/// What a backend provides to the driver. A `Set` is the meaning of a formula (the worlds
/// where it holds) and a `State` a knowledge state (κ and what each character learned);
/// both are values, cheap to clone, and never change once made.
pub(crate) trait Backend {
    type Set: Clone;
    type State: Clone;
    /// The actual world in the backend's own form.
    type Point: Clone;
    /// A state fixed for a plan's search to recognise ([`Backend::fixed`]).
    type Fixed: Clone;

    /// The backend's name, as `--backend` spells it.
    fn name(&self) -> &'static str;
    /// The state at the start of the story: every world of the constants' types.
    fn initial(&mut self) -> Result<Self::State, SolverError>;
    /// κ's size in the backend's own unit (DAG nodes, BDD nodes, worlds), for `--stats`.
    fn size(&self, state: &Self::State) -> usize;
    /// What [`Backend::size`] counts, e.g. "nodes".
    fn size_unit(&self) -> &'static str {
        "nodes"
    }

    /// The worlds where `e` holds, its knowledge operators evaluated in `state` and an
    /// `at(c, …)` in `saved[c]` (always a state the run has passed).
    fn formula(
        &mut self,
        e: &Expr,
        state: &Self::State,
        saved: &[Option<Self::State>],
    ) -> Result<Self::Set, SolverError>;

    /// The worlds of κ where the announced `e` holds (the storyteller's announcement:
    /// only κ ∧ e is used, so outside κ the set may be anything): by default
    /// [`Backend::formula`]. The BDD backend conjoins a conjunction's members into κ one
    /// by one, where the conjunction alone can be exponentially larger than κ ∧ it.
    fn announced_formula(
        &mut self,
        e: &Expr,
        state: &Self::State,
        saved: &[Option<Self::State>],
    ) -> Result<Self::Set, SolverError> {
        self.formula(e, state, saved)
    }
    /// What `agent`'s truthful announcement of ψ adds in `state`: K_A ψ, or a set equal
    /// to it on κ.
    fn said(
        &mut self,
        agent: CharId,
        psi: Self::Set,
        state: &Self::State,
    ) -> Result<Said<Self::Set>, SolverError>;
    fn not(&mut self, set: &Self::Set) -> Self::Set;
    /// The intersection of `first` and the sets of `rest`.
    fn and(&mut self, first: Self::Set, rest: Vec<Self::Set>) -> Self::Set;
    /// κ ∧ `added`, what characters learned kept. `derived`: the engine derived `added`
    /// (from knowledge operators, not as the story wrote it: see [`Said`]), so a smaller
    /// equivalent may be worth finding.
    fn restrict(
        &mut self,
        state: &Self::State,
        added: Self::Set,
        derived: bool,
    ) -> Result<Self::State, SolverError>;
    /// `who` learns `what` (a knowledge-free expression).
    fn learn(
        &mut self,
        state: &Self::State,
        who: CharId,
        what: &Expr,
    ) -> Result<Self::State, SolverError>;
    /// `who` learns whether `set` holds (a formula with knowledge operators, evaluated
    /// in the state where it is learned).
    fn learn_set(
        &mut self,
        state: &Self::State,
        who: CharId,
        set: Self::Set,
    ) -> Result<Self::State, SolverError>;
    /// `who` now finds the worlds of `set` more plausible than the others, its old
    /// plausibility deciding inside each part (radical upgrade): `who`'s new most
    /// significant rank is 0 in `set` and 1 elsewhere.
    fn upgrade(
        &mut self,
        state: &Self::State,
        who: CharId,
        set: Self::Set,
    ) -> Result<Self::State, SolverError>;
    /// `who`'s new most significant rank is the value of `rank`, an int expression with
    /// values in `0..levels`, lower more plausible: after an event, each case's rank in
    /// `who`'s `expects` line (the action-priority update).
    fn prefer(
        &mut self,
        state: &Self::State,
        who: CharId,
        rank: &Expr,
        levels: usize,
    ) -> Result<Self::State, SolverError>;
    /// An event happens: `occ`, an occurrence constant that holds its not-yet value in
    /// every world of `state` (and in `pres`), takes the value of the case that happened.
    /// The new κ holds the world w with `occ` = `first` + c for every world w of κ in
    /// `pres[c]` (the worlds where case c's precondition held; `first` is 0 but for a
    /// plan's step, whose values are every action's cases). What characters learned is kept
    /// (the driver then makes each learn the group of the case it saw).
    /// `weights` (a story with chances): each case's weight, an int expression
    /// evaluated in the world before the event; a backend that keeps weights gives the
    /// new worlds their share (see [`Backend::prior`]).
    fn event(
        &mut self,
        state: &Self::State,
        occ: ConstId,
        first: usize,
        pres: Vec<Self::Set>,
        weights: Option<&[Expr]>,
    ) -> Result<Self::State, SolverError>;

    /// `prior e`: each world of κ now weighs the value of `e` there. Only a backend that
    /// keeps weights takes stories with chances ([`crate::choice`] sends them to it).
    fn prior(&mut self, _state: &Self::State, _weight: &Expr) -> Result<Self::State, SolverError> {
        Err(no_chances(self.name()))
    }
    /// The storyteller's probability of each of `listed` (worlds of κ in `state`): None
    /// when the story speaks of no chances.
    fn chances(
        &mut self,
        _state: &Self::State,
        _listed: &[World],
    ) -> Result<Option<Vec<BigRational>>, SolverError> {
        Ok(None)
    }
    /// The values of the probability term `r` at `at`, or at every world of κ grouped by
    /// value (in the order they first appear in the canonical order), with how many
    /// worlds have each.
    fn amounts(
        &mut self,
        _r: &Rat,
        _state: &Self::State,
        _saved: &[Option<Self::State>],
        _at: Option<&Self::Point>,
    ) -> Result<Vec<(BigRational, u64)>, SolverError> {
        Err(no_chances(self.name()))
    }

    /// The first two worlds (canonical order) of the constants' types where the
    /// knowledge-free `phi` holds: when `actual φ` allows one, it is the actual world if
    /// possible; when several, the worlds still possible decide. None: the backend
    /// cannot list them, and the driver asks another ([`Standby`]).
    fn pin(&mut self, phi: &Expr, state: &Self::State) -> Result<Option<Vec<World>>, SolverError>;
    /// What κ is made of in `state` when the backend hands questions about it over
    /// (`worlds`, `count`, `model`, `is_empty`) to another backend ([`Standby`]): the
    /// explicit backend before the announcements that bound its worlds. None: it answers.
    fn handed_over(&self, _state: &Self::State) -> Option<Handover> {
        None
    }
    /// A world in the backend's own form.
    fn point(&mut self, world: &[Value]) -> Result<Self::Point, SolverError>;
    /// The world of κ in `state` with these values (None: none), when several of the
    /// backend's worlds may have the same values (a plan's search runs the same steps on
    /// other states): by default [`Backend::point`].
    fn point_in(
        &mut self,
        _state: &Self::State,
        world: &[Value],
    ) -> Result<Option<Self::Point>, SolverError> {
        self.point(world).map(Some)
    }
    /// Whether `set` holds at `point`.
    fn holds(&mut self, set: &Self::Set, point: &Self::Point) -> Result<bool, SolverError>;
    /// Whether `e` holds at `point` (a statement about the actual world: `check actual`,
    /// `until`, `show`), its knowledge operators evaluated in `state` (as
    /// [`Backend::formula`]): by default the set `e` denotes, tested at the point. A
    /// backend may instead take the connectives by their operands' truth values there,
    /// without building their sets (BDDs: an `until` asks about one world only); one
    /// that computes probabilities asks them at the point alone (a probability undefined
    /// in another world is no error here).
    fn formula_holds(
        &mut self,
        e: &Expr,
        state: &Self::State,
        saved: &[Option<Self::State>],
        point: &Self::Point,
    ) -> Result<bool, SolverError> {
        let set = self.formula(e, state, saved)?;
        self.holds(&set, point)
    }
    /// Whether `point` is a world of κ in `state`.
    fn contains(&mut self, state: &Self::State, point: &Self::Point) -> Result<bool, SolverError>;

    /// A world of κ `before` where κ `after` and `hint` disagree, and whether `after` keeps
    /// it; None when `after` is exactly `before` ∧ `hint`.
    fn disagreement(
        &mut self,
        before: &Self::State,
        after: &Self::State,
        hint: &Self::Set,
    ) -> Result<Option<(World, bool)>, SolverError>;
    /// κ `before` ∧ `hint` with what `learned` says characters learned: the state after
    /// a verified or trusted hint.
    fn hinted(
        &mut self,
        before: &Self::State,
        hint: Self::Set,
        learned: &Self::State,
        verified: bool,
    ) -> Result<Self::State, SolverError>;

    /// Up to `limit` of κ's worlds in canonical order.
    fn worlds(&mut self, state: &Self::State, limit: usize) -> Result<WorldSet, SolverError>;
    /// How many worlds κ has (see [`super::Engine::count_worlds`]).
    fn count(&mut self, state: &Self::State, cap: usize) -> Result<WorldCount, Failure>;
    /// The epistemic model of κ when it has at most `cap` worlds.
    fn model(&mut self, state: &Self::State, cap: usize) -> Result<Option<Model>, Failure>;
    /// [`Backend::model`] for a plan's search, which compares views for equality only: a
    /// backend that groups the worlds by each character's view may give each world's
    /// view as the number of its group.
    fn grouped_model(&mut self, state: &Self::State, cap: usize) -> Result<Option<Model>, Failure> {
        self.model(state, cap)
    }
    /// A plan's search, for a state whose model is not listed (infinite, or too many
    /// worlds): the state with the constants' `terms` and each step of the plan so far
    /// fixed at its value (`steps`: a step's occurrence and the values it may have), when
    /// every step has one value in every world. The hash is equal for fixed states that
    /// may be the same, [`Backend::same_fixed`] decides. None: a step's value differs
    /// between worlds, or the backend does not recognise states it cannot list.
    fn fixed(
        &mut self,
        _state: &Self::State,
        _terms: Option<&[Expr]>,
        _steps: &[(ConstId, Vec<i64>)],
    ) -> Result<Option<(u64, Self::Fixed)>, SolverError> {
        Ok(None)
    }
    /// Whether [`Backend::rebuilt`] rebuilds states (a plan's search then contracts its
    /// states after each step).
    fn rebuilds(&self) -> bool {
        false
    }
    /// A state of its own with one world per class of `q` (its rows' values, each
    /// character's groups and plausibility), bisimilar to `state`'s contraction, and the
    /// actual class's world in it; None when the backend does not rebuild states.
    /// With `reuse`, a mark ([`Backend::mark`]) after which nothing the backend made is
    /// read again but what this state is rebuilt from (its rows): the backend may drop
    /// it first.
    fn rebuilt(
        &mut self,
        _state: &Self::State,
        _q: &Quotient,
        _reuse: Option<usize>,
    ) -> Result<Rebuilt<Self::State, Self::Point>, SolverError> {
        Ok(None)
    }
    /// A statement stepped from outside the program reads a checkpoint (`at(c, …)`):
    /// views planned for a program without one must cover the whole universe.
    fn reads_checkpoints(&mut self) {}
    /// Where what the backend makes from now on starts (for [`Backend::drop_since`]).
    fn mark(&self) -> usize {
        0
    }
    /// Drops what the backend made since `mark`: a plan's search read the states made
    /// since for the last time (their successors were met before, or contracted).
    fn drop_since(&mut self, _mark: usize) {}
    /// The most worlds a plan's search lists of a state to recognise it by its model
    /// (up to bisimulation); a larger one is recognised as [`Backend::fixed`] makes it.
    fn listing_cap(&self) -> usize {
        1 << 14
    }
    /// Whether two states [`Backend::fixed`] made have the same worlds (values and
    /// what each character learned).
    fn same_fixed(&mut self, _a: &Self::Fixed, _b: &Self::Fixed) -> Result<bool, SolverError> {
        Ok(false)
    }
    /// Called after each top-level statement: caches keyed by the statement's
    /// expressions may be dropped.
    fn statement_done(&mut self) {}
    /// Whether κ has no world, when the backend knows without a solver call (BDDs and
    /// listed worlds do); None when finding out costs one.
    fn known_empty(&self, _state: &Self::State) -> Option<bool> {
        None
    }
    /// Whether κ has no world in `state`: [`Backend::known_empty`], else a solver call
    /// (by default, listing its first world).
    fn is_empty(&mut self, state: &Self::State) -> Result<bool, SolverError> {
        if let Some(known) = self.known_empty(state) {
            return Ok(known);
        }
        let found = self.worlds(state, 1)?;
        Ok(found.worlds.is_empty() && found.complete)
    }
}

/// The driver as the engine sees it, whatever its backend.
pub(crate) trait Run {
    fn run(&mut self, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError>;
    fn step(&mut self, stmt: &Stmt, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError>;
    /// Round `round` of the `repeat` statement `stmt` (any other statement: all of it);
    /// true when the statement is done.
    fn step_round(
        &mut self,
        stmt: &Stmt,
        round: u64,
        sink: &mut dyn FnMut(Report),
    ) -> Result<bool, EngineError>;
    fn worlds(&mut self, limit: u64) -> Result<WorldSet, SolverError>;
    fn kappa_size(&self) -> usize;
    fn count_worlds(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<WorldCount, Failure>;
    fn model(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<Option<Model>, Failure>;
    fn backend(&self) -> &'static str;
    /// The actions of `plan` done from the current state (see [`Driver::follow`]).
    fn follow_plan(&mut self, plan: &[ActionId], cap: usize) -> Result<Vec<Followed>, EngineError>;
    fn actual(&self) -> Option<World>;
    fn left_none(&mut self) -> Result<Option<Span>, SolverError>;
}

/// Runs a program's statements over one backend.
pub(crate) struct Driver<B: Backend> {
    program: Rc<Program>,
    options: Options,
    backend: B,
    deadline: Option<Instant>,
    state: B::State,
    checkpoints: Vec<Option<B::State>>,
    /// The actual world, once `actual` has pinned it down, and the backend's form of it.
    actual: Option<(Vec<Value>, B::Point)>,
    /// The `actual` statement that declared it.
    actual_at: Option<Span>,
    /// The round of the innermost running `repeat`.
    round: Option<u64>,
    /// How deep in blocks the running statement is (0: top level).
    depth: usize,
    /// What each constant's name stands for now, over the values at the story's start:
    /// None until the first `x := e` (every name stands for itself).
    terms: Option<Rc<Vec<Expr>>>,
    /// `terms` as each checkpoint saved them.
    saved_terms: Vec<Option<Rc<Vec<Expr>>>>,
    /// Each event's latest occurrence constant (None: it has not happened yet).
    latest: Rc<Vec<Option<ConstId>>>,
    /// `latest` as each checkpoint saved it.
    saved_latest: Vec<Rc<Vec<Option<ConstId>>>>,
    /// Which occurrence constants have happened.
    happened: Vec<bool>,
    /// Changes `terms` or a saved checkpoint went through: with the address of an
    /// expression of the program, the key of its substituted form.
    generation: u64,
    /// Substituted expressions, kept for the whole run: backends may key caches by the
    /// address of an expression, which must not be reused by another.
    substituted: HashMap<(usize, u64), Rc<Expr>>,
    /// The program's formulas that normalising changes ([`crate::normal`]), by address:
    /// what the backend reads in their place.
    normal: HashMap<usize, Rc<Expr>>,
    /// Whether some expression of the program reads the history (`at(c, …)`, an
    /// event's latest case): when none does, [`Driver::now`] need not look for it.
    history: bool,
    /// The statements finished since κ was last known to have a world, each with the
    /// state after it, in the order they finished (a block's statements before the
    /// block): the first after which κ had none is among them when κ has none now,
    /// since κ never regains a world.
    trail: Vec<(Span, B::State)>,
    /// The first statement after which κ had no world, once found.
    emptied: Option<Span>,
    /// The story speaks of chances: listed worlds carry their probabilities, events
    /// their cases' weights.
    chances: bool,
    /// The backends that answer what `backend` hands over.
    standby: Box<dyn Standby>,
}

impl<B: Backend> Driver<B> {
    pub(crate) fn new(
        program: Rc<Program>,
        options: &Options,
        mut backend: B,
        standby: Box<dyn Standby>,
    ) -> Result<Driver<B>, SolverError> {
        let state = backend.initial()?;
        let program_chances = program.probabilistic();
        let program_checkpoints = program.checkpoints.len();
        let (events, constants) = (program.events.len(), program.constants.len());
        let normal = normalised(&program);
        let history = now::program_reads_history(&program);
        Ok(Driver {
            history,
            checkpoints: vec![None; program.checkpoints.len()],
            program,
            options: options.clone(),
            backend,
            deadline: options.deadline,
            state,
            actual: None,
            actual_at: None,
            round: None,
            depth: 0,
            terms: None,
            saved_terms: vec![None; program_checkpoints],
            latest: Rc::new(vec![None; events]),
            saved_latest: (0..program_checkpoints).map(|_| Rc::default()).collect(),
            happened: vec![false; constants],
            generation: 0,
            substituted: HashMap::new(),
            normal,
            trail: Vec::new(),
            emptied: None,
            chances: program_chances,
            standby,
        })
    }

    /// A world as the story now names it: its constants' current values.
    fn shown(&self, world: &World) -> Result<World, SolverError> {
        let Some(terms) = &self.terms else {
            return Ok(world.clone());
        };
        let values = worlds::values_of(terms, &world.0)
            .into_iter()
            .map(|v| {
                v.ok_or_else(|| {
                    SolverError::Unsupported(format!(
                        "a changed constant leaves the 64-bit integers in the world {}",
                        worlds::world_line(&self.program, &world.0)
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(World(values))
    }

    /// A set of worlds as the story now names them, with their values at its start when
    /// it changed constants.
    fn shown_set(&self, set: WorldSet) -> Result<WorldSet, SolverError> {
        if self.terms.is_none() {
            return Ok(set);
        }
        let worlds = set
            .worlds
            .iter()
            .map(|w| self.shown(w))
            .collect::<Result<_, _>>()?;
        Ok(WorldSet {
            worlds,
            complete: set.complete,
            before: Some(set.worlds),
            chances: set.chances,
        })
    }

    fn check_deadline(&self) -> Result<(), SolverError> {
        self.options.cancel.check()?;
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(SolverError::Timeout),
            _ => Ok(()),
        }
    }

    fn block(&mut self, stmts: &[Stmt], sink: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        for stmt in stmts {
            self.statement(stmt, sink)?;
        }
        Ok(())
    }

    /// Executes one statement (blocks recursively), reporting events to `sink`.
    fn statement(&mut self, stmt: &Stmt, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        self.timed(stmt, sink, |driver, sink| driver.execute(stmt, sink))
    }

    /// Runs `run` as the statement `stmt` (its deadline, depth and `--stats` figures).
    fn timed<T, F>(
        &mut self,
        stmt: &Stmt,
        sink: &mut dyn FnMut(Report),
        run: F,
    ) -> Result<T, EngineError>
    where
        F: FnOnce(&mut Self, &mut dyn FnMut(Report)) -> Result<T, EngineError>,
    {
        let start = Instant::now();
        self.check_deadline().at(stmt.span)?;
        self.depth += 1;
        let done = run(self, sink);
        self.depth -= 1;
        if self.depth == 0 {
            self.backend.statement_done();
        }
        let done = done?;
        self.note_emptied(stmt.span).at(stmt.span)?;
        // (The CLI logs these events at debug level, the span as a line and column.)
        if self.options.stats {
            sink(Report::Step {
                span: stmt.span,
                elapsed: start.elapsed(),
                kappa_size: self.backend.size(&self.state),
                unit: self.backend.size_unit(),
            });
        }
        Ok(done)
    }

    fn execute(&mut self, stmt: &Stmt, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        match &stmt.kind {
            StmtKind::Announce { .. } | StmtKind::Reveal { .. } => {
                let state = self.state.clone();
                let (added, derived) = self.announced(stmt, &state, sink)?;
                self.state = self
                    .backend
                    .restrict(&state, added, derived)
                    .at(stmt.span)?;
            }
            StmtKind::Learn { who, what } if what.mentions_knowledge() => {
                let state = self.state.clone();
                let set = self.formula(what, &state).at(stmt.span)?;
                self.state = self.backend.learn_set(&state, *who, set).at(stmt.span)?;
            }
            StmtKind::Expects { who, formula } => {
                let state = self.state.clone();
                let set = self.formula(formula, &state).at(stmt.span)?;
                self.state = self.backend.upgrade(&state, *who, set).at(stmt.span)?;
            }
            StmtKind::Learn { who, what } => {
                let what = self.now(what).at(stmt.span)?;
                self.state = self.backend.learn(&self.state, *who, &what).at(stmt.span)?;
            }
            StmtKind::Checkpoint(c) => {
                self.checkpoints[c.0] = Some(self.state.clone());
                if self.terms.is_some() || self.latest.iter().any(Option::is_some) {
                    self.saved_terms[c.0] = self.terms.clone();
                    self.saved_latest[c.0] = self.latest.clone();
                    self.generation += 1;
                }
            }
            StmtKind::Check(phi) => self.check(stmt.span, phi, sink)?,
            StmtKind::CheckActual(phi) => self.check_actual(stmt.span, phi, sink)?,
            StmtKind::Assign { changes } => {
                let mut values = Vec::with_capacity(changes.len());
                for (target, value) in changes {
                    values.push((*target, self.now(value).at(stmt.span)?.clone()));
                }
                self.change(values);
            }
            StmtKind::Event(event) => self.event(stmt.span, event, sink)?,
            StmtKind::Do(steps) => self.do_actions(steps, sink)?,
            StmtKind::Plan(plan) => self.plan(stmt.span, plan, sink)?,
            StmtKind::Worlds { limit } => self.list_worlds(stmt.span, None, *limit, sink)?,
            StmtKind::Where {
                formula,
                text,
                limit,
            } => self.list_worlds(stmt.span, Some((formula, text)), *limit, sink)?,
            StmtKind::Simultaneously(stmts) => {
                // Every announcement is evaluated in the state at the block's start; they
                // take effect together.
                let state = self.state.clone();
                let mut added = Vec::with_capacity(stmts.len());
                let mut derived = false;
                for s in stmts {
                    let (set, d) = self.announced(s, &state, sink)?;
                    added.push(set);
                    derived |= d;
                }
                if !added.is_empty() {
                    let first = added.remove(0);
                    let added = self.backend.and(first, added);
                    self.state = (self.backend)
                        .restrict(&state, added, derived)
                        .at(stmt.span)?;
                }
            }
            StmtKind::Actual(expr) => self.set_actual(expr, stmt.span).at(stmt.span)?,
            StmtKind::Prior(weight) => {
                let weight = self.now(weight).at(stmt.span)?.clone();
                self.state = self.backend.prior(&self.state, &weight).at(stmt.span)?;
            }
            StmtKind::Show { value, text } => self.show(stmt.span, value, text, sink)?,
            StmtKind::Repeat { max, body, until } => {
                self.repeat(stmt.span, *max, body, until, sink)?
            }
            StmtKind::AssertAddsCk { hint, body } => {
                self.assert_adds_ck(stmt.span, hint, body, sink)?
            }
        }
        Ok(())
    }

    fn formula(&mut self, e: &Expr, state: &B::State) -> Result<B::Set, Failure> {
        let e = self.now(e)?;
        Ok(self.backend.formula(&e, state, &self.checkpoints)?)
    }

    /// Gives each constant of `changes` its new term (over the values at the story's
    /// start), all at once.
    fn change(&mut self, changes: Vec<(ConstId, Expr)>) {
        let mut terms = match &self.terms {
            Some(terms) => terms.as_ref().clone(),
            None => (self.program.constants.iter().enumerate())
                .map(|(k, c)| Expr {
                    kind: ExprKind::Const(ConstId(k)),
                    ty: c.ty,
                    span: c.span,
                })
                .collect(),
        };
        // Held by reference: a later term or formula that reads the constant shares it,
        // so a value that reads old values twice (`x, y := y, x != y`) does not double
        // the terms at every change.
        for (target, value) in changes {
            terms[target.0] = Expr::shared(value);
        }
        self.terms = Some(Rc::new(terms));
        self.generation += 1;
    }

    /// Whether `e` holds in the actual world, evaluated there (`what` names the statement
    /// that needs it).
    fn actual_holds(&mut self, e: &Expr, state: &B::State, what: &str) -> Result<bool, Failure> {
        let e = self.now(e)?;
        match &self.actual {
            Some((_, point)) => {
                Ok(self
                    .backend
                    .formula_holds(&e, state, &self.checkpoints, point)?)
            }
            None => Err(Failure::no_actual_world(what)),
        }
    }

    /// Whether `set` holds in the actual world (`what` names the statement that needs it).
    fn holds_in_actual(&mut self, set: &B::Set, what: &str) -> Result<bool, Failure> {
        match &self.actual {
            Some((_, point)) => Ok(self.backend.holds(set, point)?),
            None => Err(Failure::no_actual_world(what)),
        }
    }

    /// `assert_adds_ck φ { … }`: runs the block, then checks κ_after ≡ κ_before ∧ φ under
    /// κ_before, and keeps the small form κ_before ∧ φ.
    fn assert_adds_ck(
        &mut self,
        span: Span,
        hint: &Expr,
        body: &[Stmt],
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        let start = Instant::now();
        let before = self.state.clone();
        let h = self.formula(hint, &before).at(span)?;
        if self.options.trust_hints {
            for s in kept_when_trusted(body) {
                self.statement(s, sink)?;
            }
            let learned = self.state.clone();
            self.state = self.backend.hinted(&before, h, &learned, false).at(span)?;
            sink(Report::HintTrusted { span });
            return Ok(());
        }
        self.block(body, sink)?;
        let after = self.state.clone();
        let found = self.backend.disagreement(&before, &after, &h).at(span)?;
        let elapsed = start.elapsed();
        match found {
            None => {
                // Verified over no world (κ had none before the block): vacuous. Asked
                // only when κ has none after it.
                let vacuous = match self.find_emptied().at(span)? {
                    Some(_) if self.is_empty_of(&before).at(span)? => self.emptied,
                    _ => None,
                };
                self.state = self.backend.hinted(&before, h, &after, true).at(span)?;
                match vacuous {
                    Some(left_none) => sink(Report::Vacuous { span, left_none }),
                    None => sink(Report::HintVerified { span, elapsed }),
                }
                Ok(())
            }
            Some((world, kept_by_block)) => {
                let counterexample = Counterexample {
                    world: self.shown(&world).at(span)?,
                    kept_by_block,
                };
                if self.options.keep_refuted_hints {
                    sink(Report::HintRefuted {
                        span,
                        elapsed,
                        counterexample,
                    });
                    Ok(())
                } else {
                    Err(Failure::Refuted(counterexample)).at(span)
                }
            }
        }
    }

    /// A `worlds` statement's worlds, or (`filter`: φ and its text) a `where φ`
    /// statement's: reported with, when there are none, the statement that left none.
    fn list_worlds(
        &mut self,
        span: Span,
        filter: Option<(&Expr, &String)>,
        limit: u64,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        if self.options.skip_worlds_statements {
            return Ok(());
        }
        let set = match filter {
            None => self.worlds_now(limit).at(span)?,
            Some((phi, _)) => self.worlds_where(phi, limit).at(span)?,
        };
        let left_none = match set.worlds.is_empty() && set.complete {
            true => self.find_emptied().at(span)?,
            false => None,
        };
        sink(Report::Worlds {
            span,
            set,
            left_none,
            filter: filter.map(|(_, text)| text.clone()),
        });
        Ok(())
    }

    fn worlds_now(&mut self, limit: u64) -> Result<WorldSet, SolverError> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let state = self.state.clone();
        let mut set = self.worlds_of(&state, limit)?;
        if self.chances {
            set.chances = self.backend.chances(&state, &set.worlds)?;
        }
        self.shown_set(set)
    }

    /// `where φ`: the worlds possible now where φ holds, at most `limit`; κ does not
    /// change.
    fn worlds_where(&mut self, phi: &Expr, limit: u64) -> Result<WorldSet, Failure> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let state = self.state.clone();
        let set = self.formula(phi, &state)?;
        let kept = self.backend.restrict(&state, set, false)?;
        let mut found = self.worlds_of(&kept, limit)?;
        if self.chances {
            // Each world's probability among all the worlds possible here.
            found.chances = self.backend.chances(&state, &found.worlds)?;
        }
        Ok(self.shown_set(found)?)
    }

    /// `model`'s worlds as the story names them now (with their values at its start as
    /// `before`, when it changed constants).
    fn named(&self, model: Model) -> Result<Model, SolverError> {
        if self.terms.is_none() {
            return Ok(model);
        }
        let shown: Result<Vec<World>, SolverError> =
            model.worlds.iter().map(|w| self.shown(w)).collect();
        Ok(Model {
            worlds: shown?,
            before: Some(model.worlds),
            views: model.views,
            ranks: model.ranks,
            chances: model.chances,
        })
    }

    /// The state saved at `checkpoint` (None: the current state); a story error when the
    /// run has not passed the checkpoint.
    fn state_at(&self, checkpoint: Option<CheckpointId>) -> Result<B::State, Failure> {
        match checkpoint {
            None => Ok(self.state.clone()),
            Some(c) => self.checkpoints.get(c.0).cloned().flatten().ok_or_else(|| {
                let name = self.program.checkpoints.get(c.0).map_or("?", |c| &c.name);
                Failure::checkpoint_not_reached(name)
            }),
        }
    }
}

impl<B: Backend> Run for Driver<B> {
    fn run(&mut self, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        let program = self.program.clone();
        self.block(&program.statements, sink)
    }

    fn step(&mut self, stmt: &Stmt, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        self.stepping(stmt);
        self.statement(stmt, sink)
    }

    fn step_round(
        &mut self,
        stmt: &Stmt,
        round: u64,
        sink: &mut dyn FnMut(Report),
    ) -> Result<bool, EngineError> {
        self.stepping(stmt);
        let StmtKind::Repeat { max, body, until } = &stmt.kind else {
            return self.statement(stmt, sink).map(|()| true);
        };
        self.timed(stmt, sink, |driver, sink| {
            driver.repeat_round(stmt.span, *max, body, until, round, sink)
        })
    }

    fn worlds(&mut self, limit: u64) -> Result<WorldSet, SolverError> {
        self.worlds_now(limit)
    }

    fn kappa_size(&self) -> usize {
        self.backend.size(&self.state)
    }

    fn count_worlds(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<WorldCount, Failure> {
        let state = self.state_at(checkpoint)?;
        self.count_of(&state, cap)
    }

    fn model(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<Option<Model>, Failure> {
        let state = self.state_at(checkpoint)?;
        let Some(model) = self.model_of(&state, cap)? else {
            return Ok(None);
        };
        // Worlds as the story named them then: with the terms of the checkpoint's time.
        let terms = match checkpoint {
            Some(c) => self.saved_terms[c.0].clone(),
            None => self.terms.clone(),
        };
        let now = std::mem::replace(&mut self.terms, terms);
        let named = self.named(model);
        self.terms = now;
        Ok(Some(named?))
    }

    fn follow_plan(&mut self, plan: &[ActionId], cap: usize) -> Result<Vec<Followed>, EngineError> {
        self.follow(plan, cap)
    }

    fn backend(&self) -> &'static str {
        self.backend.name()
    }

    fn actual(&self) -> Option<World> {
        self.actual
            .as_ref()
            .map(|(values, _)| World(values.clone()))
    }

    fn left_none(&mut self) -> Result<Option<Span>, SolverError> {
        self.find_emptied()
    }
}

/// The statements of an `assert_adds_ck` block that still run when its hint is taken on
/// trust: what the block teaches characters (`learns`), what it makes them expect
/// (`expects`: κ does not change) and the checkpoints it saves. Its announcements are
/// replaced by the hint.
fn kept_when_trusted(body: &[Stmt]) -> impl Iterator<Item = &Stmt> {
    body.iter().filter(|s| {
        matches!(
            s.kind,
            StmtKind::Learn { .. } | StmtKind::Expects { .. } | StmtKind::Checkpoint(_)
        )
    })
}
