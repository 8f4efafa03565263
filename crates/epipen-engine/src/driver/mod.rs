//! The one statement driver: what each statement means, written once, over a [`Backend`]
//! that knows how to represent sets of worlds and knowledge states (Z3 formulas, BDDs,
//! explicit lists of worlds).

use std::collections::HashMap;

use std::rc::Rc;
use std::time::Instant;

mod actual;
mod announce;
mod capability;
mod check;
mod contract;
mod frame;
pub(crate) use contract::{Members, Quotient, dense_by, stable_labels};
pub(crate) use frame::Tables;

/// A state rebuilt from its contraction, and its actual world ([`Rebuilding::rebuilt`]).
pub(crate) type Rebuilt<S, P> = Option<(S, Option<P>)>;
mod emptied;
mod event;
mod listing;
mod now;
use now::{no_latest, normalised};
mod plan;
mod refused;
mod repeat;
mod semantics;
mod show;
mod standby;

#[cfg(test)]
mod tests;

pub(crate) use announce::Said;
pub(crate) use capability::{
    Capability, Forgetting, HandsOver, Hint, Hints, Offers, Origin, Plausibility, Probabilities,
    Rebuilding, Recognition,
};
pub(crate) use listing::{Listing, Views};
pub use plan::Followed;
pub(crate) use refused::Refused;
pub(crate) use semantics::Semantics;
pub(crate) use show::no_chances;
pub(crate) use standby::{Handover, Standby};

use super::{At, Counterexample, EngineError, Failure, Options, Report};
use crate::ir::{ActionId, CharId, CheckpointId, ConstId, Expr, ExprKind, Program, Stmt, StmtKind};
use crate::syntax::Span;
use crate::worlds::{self, Model, Value, World, WorldCount, WorldSet};
use num_rational::BigRational;

/// What every backend provides to the driver. The core is four traits: [`Semantics`]
/// (what a formula means in a knowledge state), [`Listing`] (κ's worlds, their number
/// and model), this one (the first state, and how announcements, learning and events
/// change a state) and [`Offers`], which says which capability traits of
/// [`capability`] the backend implements — probabilities, plausibility, hints,
/// handing states over, recognising or rebuilding a plan's states, forgetting
/// histories —, each `None` by default. [`crate::choice`] holds the table of which
/// backend offers what.
pub(crate) trait Backend: Semantics + Listing + Offers {
    /// The backend's name, as `--backend` spells it.
    const NAME: &'static str;

    /// The state at the start of the story: every world of the constants' types.
    fn initial(&mut self) -> Result<Self::State, Failure>;

    /// κ ∧ `added`, what characters learned kept. A set the engine derived (`origin`)
    /// may be replaced by a smaller equivalent (see [`Said`]).
    fn restrict(
        &mut self,
        state: &Self::State,
        added: Self::Set,
        origin: Origin,
    ) -> Result<Self::State, Failure>;

    /// `who` learns `what`: the value of a knowledge-free expression, or whether a set
    /// (a formula with knowledge operators, evaluated in the state where it is learned)
    /// holds.
    fn learn(
        &mut self,
        state: &Self::State,
        who: CharId,
        what: Learning<'_, Self::Set>,
    ) -> Result<Self::State, Failure>;

    /// An event happens: `occ`, an occurrence constant that holds its not-yet value in
    /// every world of `state` (and in `pres`), takes the value of the case that happened.
    /// The new κ holds the world w with `occ` = `first` + c for every world w of κ in
    /// `pres[c]` (the worlds where case c's precondition held; `first` is 0 but for a
    /// plan's step, whose values are every action's cases). What characters learned is kept
    /// (the driver then makes each learn the group of the case it saw).
    /// `weights` (a story with chances): each case's weight, an int expression
    /// evaluated in the world before the event; a backend that keeps weights gives the
    /// new worlds their share (see [`Probabilities::prior`]).
    fn event(
        &mut self,
        state: &Self::State,
        occ: ConstId,
        first: usize,
        pres: Vec<Self::Set>,
        weights: Option<&[Expr]>,
    ) -> Result<Self::State, Failure>;

    /// A statement stepped from outside the program reads a checkpoint (`at(c, …)`):
    /// views planned for a program without one must cover the whole universe.
    fn reads_checkpoints(&mut self) {}

    /// Called after each top-level statement: caches keyed by the statement's
    /// expressions may be dropped.
    fn statement_done(&mut self) {}
}

/// What a character learns ([`Backend::learn`]).
pub(crate) enum Learning<'e, S> {
    /// The value of a knowledge-free expression.
    Value(&'e Expr),
    /// Whether a set holds.
    Whether(S),
}

/// What a backend answers for a capability it has not got ([`crate::choice`] sends the
/// stories that need one elsewhere, so this is only met by a backend asked for by name).
fn lacks(backend: &str, what: &str) -> Failure {
    Failure::Unsupported(format!("the {backend} backend cannot {what}"))
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
    fn worlds(&mut self, limit: u64) -> Result<WorldSet, Failure>;
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
    fn left_none(&mut self) -> Result<Option<Span>, Failure>;
}

/// The event that just happened, for a backend that forgets its history
/// ([`Forgetting::forget`]).
pub(crate) struct Forgotten<'a> {
    /// Its occurrence constant (case k is the value k).
    pub occurrence: ConstId,
    /// The case that happened in the actual world (None: the story has none).
    pub actual_case: Option<usize>,
    /// Each constant it changes, with its new term over the values before and the
    /// occurrence.
    pub changes: &'a [(ConstId, Expr)],
    /// Each character's groups of the cases (None: it sees none of them apart).
    pub sees: &'a [Option<Vec<usize>>],
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
    /// Substituted expressions, by the address of the program's expression (alive for
    /// the run) and the generation: each is substituted once a generation.
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
    /// Whether each event's history is forgotten (the program and the command allow it,
    /// and the backend offers [`Offers::forgetting`]): the constants' names then always
    /// stand for their current values (`terms` stays None), and the actual world holds
    /// them.
    forgetting: crate::History,
}

impl<B: Backend> Driver<B> {
    pub(crate) fn new(
        program: Rc<Program>,
        options: &Options,
        mut backend: B,
        standby: Box<dyn Standby>,
    ) -> Result<Driver<B>, Failure> {
        let state = backend.initial()?;
        let program_chances = program.probabilistic();
        let program_checkpoints = program.checkpoints.len();
        let (events, constants) = (program.events.len(), program.constants.len());
        let normal = normalised(&program);
        let history = now::program_reads_history(&program);
        let forgets = backend.forgetting().is_some();
        let forgetting = match (options.history, forgets) {
            (crate::History::ForgottenWhereUnread, true) => {
                tracing::debug!("the {} backend forgets the events' histories", B::NAME);
                crate::History::ForgottenWhereUnread
            }
            (crate::History::ForgottenWhereUnread, false) => {
                tracing::debug!(
                    "the events' histories are kept: the {} backend keeps them",
                    B::NAME
                );
                crate::History::Kept
            }
            (crate::History::Kept, _) => crate::History::Kept,
        };
        Ok(Driver {
            forgetting,
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
    fn shown(&self, world: &World) -> Result<World, Failure> {
        let Some(terms) = &self.terms else {
            return Ok(world.clone());
        };
        let values = worlds::values_of(terms, &world.0).ok_or_else(|| {
            Failure::Unsupported(format!(
                "a changed constant leaves the 64-bit integers in the world {}",
                worlds::world_line(&self.program, &world.0)
            ))
        })?;
        Ok(World(values))
    }

    /// A set of worlds as the story now names them, with their values at its start when
    /// it changed constants.
    fn shown_set(&self, set: WorldSet) -> Result<WorldSet, Failure> {
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

    fn check_deadline(&self) -> Result<(), Failure> {
        self.options.cancel.check()?;
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Failure::Timeout),
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
                unit: B::SIZE_UNIT,
            });
        }
        Ok(done)
    }

    fn execute(&mut self, stmt: &Stmt, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        match &stmt.kind {
            StmtKind::Announce { .. } | StmtKind::Reveal { .. } => {
                let state = self.state.clone();
                let (added, origin) = self.announced(stmt, &state, sink)?;
                self.state = self.backend.restrict(&state, added, origin).at(stmt.span)?;
            }
            StmtKind::Learn { who, what } if what.mentions_knowledge() => {
                let state = self.state.clone();
                let set = self.formula(what, &state).at(stmt.span)?;
                self.state = self
                    .backend
                    .learn(&state, *who, Learning::Whether(set))
                    .at(stmt.span)?;
            }
            StmtKind::Expects { who, formula } => {
                let state = self.state.clone();
                let set = self.formula(formula, &state).at(stmt.span)?;
                self.state = (self.plausibility().at(stmt.span)?)
                    .upgrade(&state, *who, set)
                    .at(stmt.span)?;
            }
            StmtKind::Learn { who, what } => {
                let what = self.now(what).at(stmt.span)?;
                self.state = (self.backend)
                    .learn(&self.state, *who, Learning::Value(&what))
                    .at(stmt.span)?;
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
                let mut origin = Origin::Written;
                for s in stmts {
                    let (set, o) = self.announced(s, &state, sink)?;
                    added.push(set);
                    origin = origin.and(o);
                }
                if !added.is_empty() {
                    let first = added.remove(0);
                    let added = self.backend.and(first, added);
                    self.state = (self.backend)
                        .restrict(&state, added, origin)
                        .at(stmt.span)?;
                }
            }
            StmtKind::Actual(expr) => self.set_actual(expr, stmt.span).at(stmt.span)?,
            StmtKind::Prior(weight) => {
                let weight = self.now(weight).at(stmt.span)?.clone();
                let state = self.state.clone();
                self.state = (self.probabilities().at(stmt.span)?)
                    .prior(&state, &weight)
                    .at(stmt.span)?;
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

    /// The backend's weights and probabilities, or the refusal that names it.
    fn probabilities(&mut self) -> Result<&mut dyn Probabilities<B::State, B::Point>, Failure> {
        let name = B::NAME;
        self.backend.probabilities().ok_or_else(|| no_chances(name))
    }

    /// The probability of each of `listed` (worlds of κ in `state`), None when the
    /// backend keeps no weights or the story has none.
    fn chances_of(
        &mut self,
        state: &B::State,
        listed: &[World],
    ) -> Result<Option<Vec<BigRational>>, Failure> {
        match self.backend.probabilities() {
            Some(p) => p.chances(state, listed),
            None => Ok(None),
        }
    }

    /// The backend's plausibility orders, or the refusal that names it.
    fn plausibility(&mut self) -> Result<&mut dyn Plausibility<B::State, B::Set>, Failure> {
        let name = B::NAME;
        (self.backend.plausibility()).ok_or_else(|| lacks(name, "keep plausibility orders"))
    }

    /// The backend's hints, or the refusal that names it.
    fn hints(&mut self) -> Result<&mut dyn Hints<B::State, B::Set>, Failure> {
        let name = B::NAME;
        (self.backend.hints()).ok_or_else(|| lacks(name, "check `assert_adds_ck` hints"))
    }

    fn formula(&mut self, e: &Expr, state: &B::State) -> Result<B::Set, Failure> {
        let e = self.now(e)?;
        self.backend.formula(&e, state, &self.checkpoints)
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
            self.state = (self.hints().at(span)?)
                .hinted(&before, h, &learned, Hint::Trusted)
                .at(span)?;
            sink(Report::HintTrusted { span });
            return Ok(());
        }
        self.block(body, sink)?;
        let after = self.state.clone();
        let found = (self.hints().at(span)?)
            .disagreement(&before, &after, &h)
            .at(span)?;
        let elapsed = start.elapsed();
        match found {
            None => {
                // Verified over no world (κ had none before the block): vacuous. Asked
                // only when κ has none after it.
                let vacuous = match self.find_emptied().at(span)? {
                    Some(_) if self.is_empty_of(&before).at(span)? => self.emptied,
                    _ => None,
                };
                self.state = (self.hints().at(span)?)
                    .hinted(&before, h, &after, Hint::Verified)
                    .at(span)?;
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

    fn worlds_now(&mut self, limit: u64) -> Result<WorldSet, Failure> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let state = self.state.clone();
        let mut set = self.worlds_of(&state, limit)?;
        if self.chances {
            set.chances = self.chances_of(&state, &set.worlds)?;
        }
        self.shown_set(set)
    }

    /// `where φ`: the worlds possible now where φ holds, at most `limit`; κ does not
    /// change.
    fn worlds_where(&mut self, phi: &Expr, limit: u64) -> Result<WorldSet, Failure> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let state = self.state.clone();
        let set = self.formula(phi, &state)?;
        let kept = self.backend.restrict(&state, set, Origin::Written)?;
        let mut found = self.worlds_of(&kept, limit)?;
        if self.chances {
            // Each world's probability among all the worlds possible here.
            found.chances = self.chances_of(&state, &found.worlds)?;
        }
        self.shown_set(found)
    }

    /// `model`'s worlds as the story names them now (with their values at its start as
    /// `before`, when it changed constants).
    fn named(&self, model: Model) -> Result<Model, Failure> {
        if self.terms.is_none() {
            return Ok(model);
        }
        let shown: Result<Vec<World>, Failure> =
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

    fn worlds(&mut self, limit: u64) -> Result<WorldSet, Failure> {
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
        let Some(model) = self.model_of(&state, cap, Views::Observed)? else {
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
        B::NAME
    }

    fn actual(&self) -> Option<World> {
        self.actual
            .as_ref()
            .map(|(values, _)| World(values.clone()))
    }

    fn left_none(&mut self) -> Result<Option<Span>, Failure> {
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
