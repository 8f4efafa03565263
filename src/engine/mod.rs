//! The EpiPEn engine: runs a program's statements, keeping the knowledge state (κ and who
//! learned what), and reports what happens as [`Event`]s. Two backends do the work: Z3
//! (every story) and BDDs (`bdd`, stories whose constants are all bools and enums).
//! See docs/encoding.md for the formulas.

mod bdd;
pub mod error;
mod knowledge;
pub mod solver;
#[cfg(test)]
mod tests;

use std::rc::Rc;
use std::time::{Duration, Instant};

pub use error::{EngineError, Failure, SolverError};
use knowledge::{Goal, Learned, State, WorldList};
use solver::{Term, Z3};

use crate::ir::{CharId, CheckpointId, Expr, Program, Stmt, StmtKind, Ty};
use crate::syntax::Span;
use crate::worlds::{self, Model, Value, World, WorldCount, WorldSet};

/// Added formulas with more DAG nodes than this are shrunk before joining κ.
const SHRINK_ABOVE: usize = 24;
/// Counting worlds finds at most this many one by one with the solver (each costs a
/// solver call, and more as the blocking clauses pile up).
pub const COUNT_ENUMERATION_CAP: usize = 200;
/// Shrinking gives up beyond this many cubes.
const SHRINK_MAX_CUBES: usize = 64;

/// Which backend runs the story and, with Z3, how knowledge operators become
/// quantifier-free (see docs/encoding.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Strategy {
    /// The BDD backend when every constant is a bool or an enum; otherwise Z3 with the
    /// finite-domain route when κ has finitely many worlds, else quantifier elimination
    /// (with the finite-domain route where that cannot work).
    #[default]
    Auto,
    /// Quantifier elimination first, the finite-domain route only where it cannot work
    /// (tests use it to cross-check the symbolic route on finite stories).
    Symbolic,
    /// Z3, always the finite-domain route (fails when κ has infinitely many worlds).
    Finite,
    /// The BDD backend (fails at the first statement when a constant is an int).
    Bdd,
}

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// How knowledge operators are eliminated.
    pub strategy: Strategy,
    /// A deadline for the whole run.
    pub timeout: Option<Duration>,
    /// Take `assert_adds_ck` hints on trust: skip the block's announcements and verification.
    pub trust_hints: bool,
    /// Keep going after a refuted hint (with the block's true effect), reporting it as an
    /// event instead of failing: what `epipen check` does.
    pub keep_refuted_hints: bool,
    /// Skip `worlds` statements (`epipen worlds` prints only the worlds at the end).
    pub skip_worlds_statements: bool,
    /// Report an [`Event::Step`] after every statement (time and κ's size).
    pub stats: bool,
}

/// Something the run reports, in story order.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// A `worlds` statement's worlds.
    Worlds { span: Span, set: WorldSet },
    /// `A reveals φ`: what A announced (φ, or `not φ` when `holds` is false), in the
    /// given round of the innermost `repeat`.
    Reveal {
        span: Span,
        round: Option<u64>,
        who: CharId,
        text: String,
        holds: bool,
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
    /// A statement finished (only with `stats`): its time, blocks included, and the size
    /// of κ after it, in DAG nodes.
    Step {
        span: Span,
        elapsed: Duration,
        kappa_size: usize,
    },
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

/// Runs a program statement by statement, with the backend the options choose.
pub struct Engine {
    backend: Backend,
}

enum Backend {
    Z3(Box<Z3Engine>),
    Bdd(Box<bdd::BddEngine>),
    /// `Strategy::Bdd` on a story the BDD backend cannot run: why, and the span of the
    /// program's first statement (where `run` reports it).
    Refused(String, Span),
}

impl Engine {
    /// An engine at the start of `program` (which it shares: callers keep their `Rc`).
    /// `Strategy::Auto` takes the BDD backend when every constant is a bool or an enum.
    pub fn new(program: Rc<Program>, options: &Options) -> Engine {
        let backend = match options.strategy {
            Strategy::Bdd => match bdd::BddEngine::new(program.clone(), options) {
                Ok(engine) => Backend::Bdd(Box::new(engine)),
                Err(why) => {
                    let first = program.statements.first().map(|s| s.span);
                    Backend::Refused(why, first.unwrap_or_default())
                }
            },
            Strategy::Auto if bdd::supports(&program) => {
                match bdd::BddEngine::new(program.clone(), options) {
                    Ok(engine) => Backend::Bdd(Box::new(engine)),
                    Err(_) => Backend::Z3(Box::new(Z3Engine::new(program, options))),
                }
            }
            _ => Backend::Z3(Box::new(Z3Engine::new(program, options))),
        };
        Engine { backend }
    }

    /// Runs every statement of the program, reporting events to `sink`.
    pub fn run(&mut self, sink: &mut dyn FnMut(Event)) -> Result<(), EngineError> {
        match &mut self.backend {
            Backend::Z3(e) => e.run(sink),
            Backend::Bdd(e) => e.run(sink),
            Backend::Refused(why, first) => Err(refused(why, *first)),
        }
    }

    /// Executes one statement (blocks recursively), reporting events to `sink`.
    pub fn step(&mut self, stmt: &Stmt, sink: &mut dyn FnMut(Event)) -> Result<(), EngineError> {
        match &mut self.backend {
            Backend::Z3(e) => e.step(stmt, sink),
            Backend::Bdd(e) => e.step(stmt, sink),
            Backend::Refused(why, _) => Err(refused(why, stmt.span)),
        }
    }

    /// Up to `limit` of the worlds possible now, in canonical order.
    pub fn worlds(&self, limit: u64) -> Result<WorldSet, SolverError> {
        match &self.backend {
            Backend::Z3(e) => e.worlds(limit),
            Backend::Bdd(e) => e.worlds(limit),
            Backend::Refused(why, _) => Err(SolverError::Unsupported(why.clone())),
        }
    }

    /// The size of the current common knowledge κ: DAG nodes of its Z3 formula, or
    /// nodes of its BDD.
    pub fn kappa_size(&self) -> usize {
        match &self.backend {
            Backend::Z3(e) => e.kappa().dag_size(),
            Backend::Bdd(e) => e.kappa_size(),
            Backend::Refused(..) => 0,
        }
    }

    /// How many worlds are possible now (or at `checkpoint`). The BDD backend counts
    /// exactly. Z3 counts exactly up to `cap`, or when a box of values scanned natively
    /// holds the worlds; worlds it has to find one by one, it counts up to
    /// [`COUNT_ENUMERATION_CAP`]. `Infinite` when the solver proves an int constant
    /// unbounded.
    pub fn count_worlds(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<WorldCount, Failure> {
        match &mut self.backend {
            Backend::Z3(e) => e.count_worlds(checkpoint, cap),
            Backend::Bdd(e) => e.count_worlds(checkpoint),
            Backend::Refused(why, _) => Err(SolverError::Unsupported(why.clone()).into()),
        }
    }

    /// The epistemic model now (or at `checkpoint`) when it has at most `cap` worlds.
    pub fn model(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<Option<Model>, Failure> {
        match &mut self.backend {
            Backend::Z3(e) => e.model(checkpoint, cap),
            Backend::Bdd(e) => e.model(checkpoint, cap),
            Backend::Refused(why, _) => Err(SolverError::Unsupported(why.clone()).into()),
        }
    }

    /// Whether the BDD backend runs the story (else Z3).
    pub fn uses_bdd(&self) -> bool {
        matches!(self.backend, Backend::Bdd(_))
    }
}

/// The error of a refused backend, at `span`.
fn refused(why: &str, span: Span) -> EngineError {
    EngineError {
        span,
        error: Failure::Solver(SolverError::Unsupported(why.to_string())),
    }
}

/// Runs a program statement by statement against Z3.
struct Z3Engine {
    program: Rc<Program>,
    options: Options,
    z3: Z3,
    /// The world variables x̄, one per declared constant.
    vars: Vec<Term>,
    state: State,
    checkpoints: Vec<Option<State>>,
    /// The actual world, once `actual` has pinned it down.
    actual: Option<Vec<Value>>,
    /// The round of the innermost running `repeat`.
    round: Option<u64>,
    /// The last κ asked for its worlds, and the answer (None: not finite, or more than
    /// `finite_cache_cap` worlds to list one by one).
    finite_cache: Option<(Term, Option<WorldList>)>,
    finite_cache_cap: usize,
}

impl Z3Engine {
    /// An engine at the start of `program` (which it shares: callers keep their `Rc`).
    fn new(program: Rc<Program>, options: &Options) -> Z3Engine {
        let vars: Vec<Term> = program
            .constants
            .iter()
            .map(|c| match c.ty {
                Ty::Int | Ty::Enum(_) => Term::int_var(&c.name),
                Ty::Bool => Term::bool_var(&c.name),
            })
            .collect();
        let domains = enum_domains(&program, &vars);
        let (characters, checkpoints) = (program.characters.len(), program.checkpoints.len());
        Z3Engine {
            program,
            options: options.clone(),
            z3: Z3::new(options.timeout),
            vars,
            state: State {
                kappa: domains.simplify(),
                learned: vec![Vec::new(); characters],
                worlds: None,
            },
            checkpoints: vec![None; checkpoints],
            actual: None,
            round: None,
            finite_cache: None,
            finite_cache_cap: 0,
        }
    }

    /// The current common knowledge κ as a formula.
    fn kappa(&self) -> Term {
        self.kappa_of(&self.state)
    }

    /// κ of `state` as a formula: the symbolic κ, or, once its worlds are listed (they
    /// are then the truth, and the symbolic κ is no longer kept up to date), their
    /// disjunction.
    fn kappa_of(&self, state: &State) -> Term {
        match &state.worlds {
            None => state.kappa.clone(),
            Some(worlds) => Term::or(
                &worlds
                    .iter()
                    .map(|w| {
                        Term::and(
                            &self
                                .vars
                                .iter()
                                .zip(w)
                                .map(|(x, v)| x.eq(&Term::value(*v)))
                                .collect::<Vec<_>>(),
                        )
                    })
                    .collect::<Vec<_>>(),
            ),
        }
    }

    /// Runs every statement of the program, reporting events to `sink`.
    fn run(&mut self, sink: &mut dyn FnMut(Event)) -> Result<(), EngineError> {
        let program = self.program.clone();
        self.block(&program.statements, sink)
    }

    fn block(&mut self, stmts: &[Stmt], sink: &mut dyn FnMut(Event)) -> Result<(), EngineError> {
        for stmt in stmts {
            self.step(stmt, sink)?;
        }
        Ok(())
    }

    /// Executes one statement (blocks recursively), reporting events to `sink`.
    fn step(&mut self, stmt: &Stmt, sink: &mut dyn FnMut(Event)) -> Result<(), EngineError> {
        let start = Instant::now();
        match &stmt.kind {
            StmtKind::Announce { .. } | StmtKind::Reveal { .. } => {
                let state = self.state.clone();
                let (added, derived) = self.announced(stmt, &state, sink)?;
                self.add_to_kappa(added, derived).at(stmt.span)?;
            }
            StmtKind::Learn { who, what } => {
                let learned = match what.kind {
                    crate::ir::ExprKind::Const(c) => Learned::Const(c.0),
                    _ => {
                        let state = self.state.clone();
                        Learned::Expr(self.encode(what, &state).at(stmt.span)?)
                    }
                };
                self.state.learned[who.0].push(learned);
            }
            StmtKind::Checkpoint(c) => self.checkpoints[c.0] = Some(self.state.clone()),
            StmtKind::Worlds { limit } => {
                if !self.options.skip_worlds_statements {
                    let set = self.worlds(*limit).at(stmt.span)?;
                    sink(Event::Worlds {
                        span: stmt.span,
                        set,
                    });
                }
            }
            StmtKind::Simultaneously(stmts) => {
                // Every announcement is evaluated in the state at the block's start; they
                // take effect together.
                let state = self.state.clone();
                let mut added = Vec::new();
                for s in stmts {
                    added.push(self.announced(s, &state, sink)?.0);
                }
                self.add_to_kappa(Term::and(&added), true).at(stmt.span)?;
            }
            StmtKind::Actual(expr) => self.set_actual(expr).at(stmt.span)?,
            StmtKind::Repeat { max, body, until } => {
                let outer = self.round;
                let mut rounds = 0;
                loop {
                    if rounds == *max {
                        return Err(Failure::repeat_exhausted(*max)).at(stmt.span);
                    }
                    rounds += 1;
                    self.round = Some(rounds);
                    self.block(body, sink)?;
                    let state = self.state.clone();
                    let holds = self
                        .holds_in_actual(until, &state, "`until`")
                        .at(stmt.span)?;
                    if holds {
                        break;
                    }
                }
                self.round = outer;
                sink(Event::RepeatDone {
                    span: stmt.span,
                    rounds,
                });
            }
            StmtKind::AssertAddsCk { hint, body } => {
                self.assert_adds_ck(stmt.span, hint, body, sink)?
            }
        }
        tracing::debug!(
            span = ?stmt.span,
            elapsed_ms = start.elapsed().as_secs_f64() * 1000.0,
            kappa_size = self.kappa().dag_size(),
            "statement done"
        );
        if self.options.stats {
            sink(Event::Step {
                span: stmt.span,
                elapsed: start.elapsed(),
                kappa_size: self.kappa().dag_size(),
            });
        }
        Ok(())
    }

    /// What an `announce`, `A: …` or `A reveals …` statement adds to κ, evaluated in
    /// `state`, and whether the engine derived it (so that shrinking it may pay off);
    /// a reveal is reported to `sink`.
    fn announced(
        &mut self,
        stmt: &Stmt,
        state: &State,
        sink: &mut dyn FnMut(Event),
    ) -> Result<(Term, bool), EngineError> {
        match &stmt.kind {
            StmtKind::Announce { speaker, formula } => {
                let added = self.announcement(*speaker, formula, state).at(stmt.span)?;
                Ok((added, speaker.is_some() || formula.mentions_knowledge()))
            }
            StmtKind::Reveal { who, formula, text } => {
                let (added, holds) = self.reveal(*who, formula, state).at(stmt.span)?;
                sink(Event::Reveal {
                    span: stmt.span,
                    round: self.round,
                    who: *who,
                    text: text.clone(),
                    holds,
                });
                Ok((added, true))
            }
            _ => unreachable!(
                "only announcements are announced (lowering keeps `simultaneously` to them)"
            ),
        }
    }

    /// The formula an announcement adds to κ, evaluated in `state`.
    fn announcement(
        &mut self,
        speaker: Option<CharId>,
        formula: &Expr,
        state: &State,
    ) -> Result<Term, Failure> {
        let psi = self.encode(formula, state)?;
        let added = match speaker {
            None => psi,
            Some(agent) => self.announced_by(agent, psi, state)?,
        };
        self.check_true_in_actual(&added)?;
        Ok(added)
    }

    /// What A's announcement of ψ adds: K_A ψ, or ψ itself when the introspection check
    /// proves them equivalent under κ and ψ is smaller.
    fn announced_by(
        &mut self,
        agent: CharId,
        psi: Term,
        state: &State,
    ) -> Result<Term, SolverError> {
        let k = self.knows(agent, state, Goal::That(psi.clone()))?;
        // When κ ⊨ ψ → K_A ψ, ψ and K_A ψ are equivalent under κ (K_A ψ → ψ always holds
        // under κ), so the smaller one is added.
        let explicit = match &state.worlds {
            // With κ's worlds at hand, the check is an evaluation in each of them.
            Some(worlds) => {
                let check = psi.implies(&k).compile(&self.vars);
                let mut scratch = Vec::new();
                let mut valid = true;
                for w in worlds.iter() {
                    if check.eval(w, &mut scratch)? != Value::Bool(true) {
                        valid = false;
                        break;
                    }
                }
                Some(Ok(valid))
            }
            None => None,
        };
        let introspective = match explicit.unwrap_or_else(|| {
            self.z3
                .is_valid(&Term::and(&[state.kappa.clone(), psi.clone()]).implies(&k))
        }) {
            Ok(v) => v,
            Err(SolverError::Timeout) => return Err(SolverError::Timeout),
            Err(e) => {
                tracing::debug!("introspection check failed ({e}); adding K_A ψ");
                false
            }
        };
        tracing::debug!(
            introspective,
            "announcement by {}",
            self.program.characters[agent.0].name
        );
        Ok(if introspective && psi.dag_size() < k.dag_size() {
            psi
        } else {
            k
        })
    }

    /// `A reveals φ`: what A announces (φ or not φ, as φ holds in the actual world).
    fn reveal(
        &mut self,
        who: CharId,
        formula: &Expr,
        state: &State,
    ) -> Result<(Term, bool), Failure> {
        let psi = self.encode(formula, state)?;
        let holds = self.eval_actual(&psi, "`reveals`")?;
        let said = if holds { psi } else { psi.not() };
        Ok((self.announced_by(who, said, state)?, holds))
    }

    fn actual_world(&self, what: &str) -> Result<&[Value], Failure> {
        self.actual
            .as_deref()
            .ok_or_else(|| Failure::no_actual_world(what))
    }

    fn eval_actual(&self, term: &Term, what: &str) -> Result<bool, Failure> {
        let actual = self.actual_world(what)?;
        Ok(self.eval_in(term, actual)? == Value::Bool(true))
    }

    fn holds_in_actual(&mut self, expr: &Expr, state: &State, what: &str) -> Result<bool, Failure> {
        self.actual_world(what)?;
        let term = self.encode(expr, state)?;
        self.eval_actual(&term, what)
    }

    /// Fails when an announcement is false in the actual world (if there is one).
    fn check_true_in_actual(&self, added: &Term) -> Result<(), Failure> {
        if self.actual.is_some() && !self.eval_actual(added, "")? {
            return Err(Failure::false_in_actual());
        }
        Ok(())
    }

    /// `actual φ`: φ must allow exactly one world, which must be possible under κ.
    fn set_actual(&mut self, expr: &Expr) -> Result<(), Failure> {
        let state = self.state.clone();
        let phi = self.encode(expr, &state)?;
        let domains = enum_domains(&self.program, &self.vars);
        // The first two worlds in canonical order: the examples in the error are stable.
        let allowed = Term::and(&[phi, domains]);
        let found = worlds::first_worlds(2, |bound, cap| {
            let (ws, exhausted) = self.z3.enumerate(&allowed, &self.vars, bound, cap)?;
            Ok::<_, SolverError>((ws.into_iter().map(World).collect::<Vec<_>>(), exhausted))
        })?;
        let found: Vec<Vec<Value>> = found.worlds.into_iter().map(|w| w.0).collect();
        match found.as_slice() {
            [] => Err(Failure::actual_allows_none()),
            [w] => {
                let possible = match &self.state.worlds {
                    Some(worlds) => worlds.contains(w),
                    None => self.eval_in(&self.state.kappa, w)? == Value::Bool(true),
                };
                if !possible {
                    return Err(Failure::actual_contradicts());
                }
                self.actual = Some(w.clone());
                Ok(())
            }
            [a, b, ..] => Err(Failure::actual_allows_several(&self.program, a, b)),
        }
    }

    /// `assert_adds_ck φ { … }`: runs the block, then proves κ_after ≡ κ_before ∧ φ under
    /// κ_before, and keeps the small form κ_before ∧ φ.
    fn assert_adds_ck(
        &mut self,
        span: Span,
        hint: &Expr,
        body: &[Stmt],
        sink: &mut dyn FnMut(Event),
    ) -> Result<(), EngineError> {
        let start = Instant::now();
        let before = self.state.clone();
        let h = self.encode(hint, &before).at(span)?;
        if self.options.trust_hints {
            for s in kept_when_trusted(body) {
                self.step(s, sink)?;
            }
            self.state.kappa = before.kappa.clone();
            self.state.worlds = before.worlds.clone();
            self.add_to_kappa(h, false).at(span)?;
            sink(Event::HintTrusted { span });
            return Ok(());
        }
        self.block(body, sink)?;
        let after = self.kappa();
        let kappa_before = self.kappa_of(&before);
        // A world of κ_before where κ_after and the hint disagree refutes the hint.
        let disagree = Term::and(&[kappa_before.clone(), after.iff(&h).not()]);
        let (found, _) = self.z3.enumerate(&disagree, &self.vars, None, 1).at(span)?;
        let elapsed = start.elapsed();
        match found.into_iter().next() {
            None => {
                // With its worlds listed, κ after the block is already that small form.
                if self.state.worlds.is_none() {
                    self.state.kappa = self.z3.simplify(&Term::and(&[kappa_before, h])).at(span)?;
                }
                sink(Event::HintVerified { span, elapsed });
                Ok(())
            }
            Some(w) => {
                let kept_by_block = self.eval_in(&after, &w).at(span)? == Value::Bool(true);
                let counterexample = Counterexample {
                    world: World(w),
                    kept_by_block,
                };
                if self.options.keep_refuted_hints {
                    sink(Event::HintRefuted {
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

    /// κ := simplify(κ ∧ φ), or, once κ's worlds are listed, the list filtered by φ.
    /// With a symbolic κ, a large φ `derived` by the engine (knowledge operators, not a
    /// formula the story wrote out) is first replaced by a smaller equivalent under κ
    /// built from its own atoms (an automatic, proven hint: see `Z3::shrink`).
    fn add_to_kappa(&mut self, phi: Term, derived: bool) -> Result<(), SolverError> {
        if let Some(worlds) = &self.state.worlds {
            let compiled = phi.compile(&self.vars);
            let mut scratch = Vec::new();
            let mut kept = Vec::new();
            for w in worlds.iter() {
                if compiled.eval(w, &mut scratch)? == Value::Bool(true) {
                    kept.push(w.clone());
                }
            }
            self.state.worlds = Some(Rc::new(kept));
            return Ok(());
        }
        let mut phi = self.z3.simplify(&phi)?;
        let size = phi.dag_size();
        if derived
            && size > SHRINK_ABOVE
            && let Some(smaller) = self.z3.shrink(&self.state.kappa, &phi, SHRINK_MAX_CUBES)?
        {
            let new_size = smaller.dag_size();
            tracing::debug!(from = size, to = new_size, "automatic hint");
            if new_size < size {
                phi = smaller;
            }
        }
        self.state.kappa = self
            .z3
            .simplify(&Term::and(&[self.state.kappa.clone(), phi]))?;
        Ok(())
    }

    /// The value of `term` in one world.
    fn eval_in(&self, term: &Term, world: &[Value]) -> Result<Value, SolverError> {
        term.compile(&self.vars).eval(world, &mut Vec::new())
    }

    /// Up to `limit` of the worlds possible now, in canonical order.
    fn worlds(&self, limit: u64) -> Result<WorldSet, SolverError> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        if let Some(ws) = &self.state.worlds {
            let mut all: Vec<World> = ws.iter().map(|w| World(w.clone())).collect();
            all.sort();
            let complete = all.len() <= limit;
            all.truncate(limit);
            return Ok(WorldSet {
                worlds: all,
                complete,
            });
        }
        worlds::first_worlds(limit, |bound, cap| {
            let (ws, exhausted) = self
                .z3
                .enumerate(&self.state.kappa, &self.vars, bound, cap)?;
            Ok((ws.into_iter().map(World).collect(), exhausted))
        })
    }
}

impl Z3Engine {
    /// The state saved at `checkpoint` (None: the current state); a story error when the
    /// run has not passed the checkpoint.
    fn state_at(&self, checkpoint: Option<CheckpointId>) -> Result<State, Failure> {
        match checkpoint {
            None => Ok(self.state.clone()),
            Some(c) => self.checkpoints[c.0].clone().ok_or_else(|| {
                Failure::checkpoint_not_reached(&self.program.checkpoints[c.0].name)
            }),
        }
    }

    /// See [`Engine::count_worlds`].
    fn count_worlds(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<WorldCount, Failure> {
        let cap = cap.min(COUNT_ENUMERATION_CAP);
        let state = self.state_at(checkpoint)?;
        if let Some(ws) = self.small_worlds(&state, cap)? {
            return Ok(WorldCount::Exactly(ws.len() as u64));
        }
        for v in self.int_vars() {
            if self.z3.unbounded(&state.kappa, v)? {
                return Ok(WorldCount::Infinite);
            }
        }
        Ok(WorldCount::MoreThan(cap as u64))
    }

    /// See [`Engine::model`].
    fn model(
        &mut self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<Option<Model>, Failure> {
        let state = self.state_at(checkpoint)?;
        let Some(list) = self.small_worlds(&state, cap)? else {
            return Ok(None);
        };
        let mut worlds: Vec<World> = list.iter().map(|w| World(w.clone())).collect();
        worlds.sort();
        let mut scratch = Vec::new();
        let mut views = Vec::with_capacity(state.learned.len());
        for learned in &state.learned {
            let compiled: Vec<_> = learned
                .iter()
                .map(|l| match l {
                    Learned::Const(c) => self.vars[*c].compile(&self.vars),
                    Learned::Expr(e) => e.compile(&self.vars),
                })
                .collect();
            let mut view = Vec::with_capacity(worlds.len());
            for w in &worlds {
                view.push(
                    compiled
                        .iter()
                        .map(|c| c.eval(&w.0, &mut scratch))
                        .collect::<Result<Vec<_>, _>>()?,
                );
            }
            views.push(view);
        }
        Ok(Some(Model { worlds, views }))
    }
}

/// The statements of an `assert_adds_ck` block that still run when its hint is taken on
/// trust: what the block teaches characters (`learns`) and the checkpoints it saves. Its
/// announcements are replaced by the hint.
fn kept_when_trusted(body: &[Stmt]) -> impl Iterator<Item = &Stmt> {
    body.iter()
        .filter(|s| matches!(s.kind, StmtKind::Learn { .. } | StmtKind::Checkpoint(_)))
}

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

/// What every world satisfies: an enum constant is an int that takes one of its
/// variants' indices.
fn enum_domains(program: &Program, vars: &[Term]) -> Term {
    let domains: Vec<Term> = program
        .constants
        .iter()
        .zip(vars)
        .filter_map(|(c, v)| match c.ty {
            Ty::Enum(e) => {
                let k = program.enums[e.0].variants.len() as i64;
                Some(Term::and(&[Term::int(0).le(v), v.lt(&Term::int(k))]))
            }
            _ => None,
        })
        .collect();
    Term::and(&domains)
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
    engine.worlds(limit).map_err(|error| EngineError {
        span: end,
        error: error.into(),
    })
}
