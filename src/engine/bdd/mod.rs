//! The BDD backend: stories whose constants are all bools and enums have finitely many
//! worlds, and every set of worlds is a binary decision diagram over their bits
//! ([`space`]). κ is a BDD, every boolean expression evaluates to one (knowledge
//! operators by quantifying bits, [`knowledge`]), int-valued ones to partitions
//! ([`value`]), and the worlds are read off κ in canonical order ([`walk`]). No Z3 call is
//! made. The semantics are the Z3 engine's and the brute-force evaluator's; tests
//! cross-check all three (tests/agreement.rs).

mod diagram;
mod knowledge;
mod space;
#[cfg(test)]
mod tests;
mod value;
mod walk;

use std::rc::Rc;
use std::time::{Duration, Instant};

use diagram::{Bdd, BddValuation};

use super::{At, Counterexample, EngineError, Event, Failure, Options, SolverError};
use crate::ir::{CharId, CheckpointId, Expr, ExprKind, Program, Stmt, StmtKind, Ty};
use crate::syntax::Span;
use crate::worlds::{Model, Value, World, WorldCount, WorldSet};
use knowledge::{Learned, State};
use space::Space;

/// Whether the BDD backend can run `program`: every constant is a bool or an enum.
pub(super) fn supports(program: &Program) -> bool {
    program
        .constants
        .iter()
        .all(|c| matches!(c.ty, Ty::Bool | Ty::Enum(_)))
}

/// Runs a program statement by statement over BDDs.
pub(super) struct BddEngine {
    program: Rc<Program>,
    options: Options,
    space: Space,
    deadline: Option<Instant>,
    state: Rc<State>,
    checkpoints: Vec<Option<Rc<State>>>,
    /// The actual world, once `actual` has pinned it down, and as a valuation of the bits.
    actual: Option<(Vec<Value>, BddValuation)>,
    /// The round of the innermost running `repeat`.
    round: Option<u64>,
}

impl BddEngine {
    /// An engine at the start of `program`, or why the BDD backend cannot run it.
    pub(super) fn new(program: Rc<Program>, options: &Options) -> Result<BddEngine, String> {
        let space = Space::new(&program)?;
        let state = State::new(
            space.domain().clone(),
            vec![Vec::new(); program.characters.len()],
        );
        Ok(BddEngine {
            checkpoints: vec![None; program.checkpoints.len()],
            program,
            options: options.clone(),
            space,
            deadline: options.timeout.map(|t| Instant::now() + t),
            state,
            actual: None,
            round: None,
        })
    }

    fn check_deadline(&self) -> Result<(), SolverError> {
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(SolverError::Timeout),
            _ => Ok(()),
        }
    }

    /// The number of nodes of κ's BDD.
    pub(super) fn kappa_size(&self) -> usize {
        self.state.kappa.size()
    }

    /// Runs every statement of the program, reporting events to `sink`.
    pub(super) fn run(&mut self, sink: &mut dyn FnMut(Event)) -> Result<(), EngineError> {
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
    pub(super) fn step(
        &mut self,
        stmt: &Stmt,
        sink: &mut dyn FnMut(Event),
    ) -> Result<(), EngineError> {
        let start = Instant::now();
        self.check_deadline().at(stmt.span)?;
        match &stmt.kind {
            StmtKind::Announce { .. } | StmtKind::Reveal { .. } => {
                let state = self.state.clone();
                let added = self.announced(stmt, &state, sink)?;
                self.restrict(&added);
            }
            StmtKind::Learn { who, what } => self.learn(*who, what).at(stmt.span)?,
            StmtKind::Checkpoint(c) => match self.checkpoints.get_mut(c.0) {
                Some(slot) => *slot = Some(self.state.clone()),
                None => {
                    return Err(SolverError::Unsupported(
                        "a checkpoint the program does not declare".into(),
                    ))
                    .at(stmt.span);
                }
            },
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
                let mut added = self.space.mk_true();
                for s in stmts {
                    added = added.and(&self.announced(s, &state, sink)?);
                }
                self.restrict(&added);
            }
            StmtKind::Actual(expr) => self.set_actual(expr).at(stmt.span)?,
            StmtKind::Repeat { max, body, until } => {
                self.repeat(stmt.span, *max, body, until, sink)?
            }
            StmtKind::AssertAddsCk { hint, body } => {
                self.assert_adds_ck(stmt.span, hint, body, sink)?
            }
        }
        tracing::debug!(
            span = ?stmt.span,
            elapsed_ms = start.elapsed().as_secs_f64() * 1000.0,
            kappa_size = self.kappa_size(),
            "statement done"
        );
        if self.options.stats {
            sink(Event::Step {
                span: stmt.span,
                elapsed: start.elapsed(),
                kappa_size: self.kappa_size(),
            });
        }
        Ok(())
    }

    /// κ := κ ∧ `added`, in a new state (what characters learned is kept).
    fn restrict(&mut self, added: &Bdd) {
        self.state = State::new(self.state.kappa.and(added), self.state.learned.clone());
    }

    /// `who learns what`: a constant, or the conditions of the expression's values.
    fn learn(&mut self, who: CharId, what: &Expr) -> Result<(), SolverError> {
        let learned = match what.kind {
            ExprKind::Const(c) => Learned::Const(c.0),
            _ => {
                let state = self.state.clone();
                Learned::Expr(Rc::new(self.eval(what, &state)?.cells()))
            }
        };
        let mut all = self.state.learned.clone();
        if let Some(list) = all.get_mut(who.0) {
            list.push(learned);
        }
        self.state = State::new(self.state.kappa.clone(), all);
        Ok(())
    }

    /// What an `announce`, `A: …` or `A reveals …` statement adds to κ, evaluated in
    /// `state`; a reveal is reported to `sink`.
    fn announced(
        &mut self,
        stmt: &Stmt,
        state: &Rc<State>,
        sink: &mut dyn FnMut(Event),
    ) -> Result<Bdd, EngineError> {
        match &stmt.kind {
            StmtKind::Announce { speaker, formula } => {
                let psi = self.bool(formula, state).at(stmt.span)?;
                let added = match speaker {
                    None => psi,
                    Some(agent) => self.knows(*agent, state, &psi).at(stmt.span)?,
                };
                self.check_true_in_actual(&added).at(stmt.span)?;
                Ok(added)
            }
            StmtKind::Reveal { who, formula, text } => {
                let psi = self.bool(formula, state).at(stmt.span)?;
                let holds = self.holds_in_actual(&psi, "`reveals`").at(stmt.span)?;
                let said = if holds { psi } else { psi.not() };
                let added = self.knows(*who, state, &said).at(stmt.span)?;
                sink(Event::Reveal {
                    span: stmt.span,
                    round: self.round,
                    who: *who,
                    text: text.clone(),
                    holds,
                });
                Ok(added)
            }
            _ => Err(SolverError::Unsupported(
                "only announcements can be made simultaneously".into(),
            ))
            .at(stmt.span),
        }
    }

    /// Whether `set` holds in the actual world (`what` names the statement that needs it).
    fn holds_in_actual(&self, set: &Bdd, what: &str) -> Result<bool, Failure> {
        match &self.actual {
            Some((_, valuation)) => Ok(set.eval_in(valuation)),
            None => Err(Failure::no_actual_world(what)),
        }
    }

    /// Fails when an announcement is false in the actual world (if there is one).
    fn check_true_in_actual(&self, added: &Bdd) -> Result<(), Failure> {
        if self.actual.is_some() && !self.holds_in_actual(added, "")? {
            return Err(Failure::false_in_actual());
        }
        Ok(())
    }

    /// `actual φ`: φ must allow exactly one world, which must be possible under κ.
    fn set_actual(&mut self, expr: &Expr) -> Result<(), Failure> {
        let state = self.state.clone();
        let allowed = self.bool(expr, &state)?.and(self.space.domain());
        // The first two worlds in canonical order: the examples in the error are stable.
        match walk::first_worlds(&self.space, &allowed, 2).as_slice() {
            [] => Err(Failure::actual_allows_none()),
            [w] => {
                let valuation = self.space.valuation(&w.0);
                if !self.state.kappa.eval_in(&valuation) {
                    return Err(Failure::actual_contradicts());
                }
                self.actual = Some((w.0.clone(), valuation));
                Ok(())
            }
            [a, b, ..] => Err(Failure::actual_allows_several(&self.program, &a.0, &b.0)),
        }
    }

    /// `repeat max N { … } until φ`: runs the body until φ holds in the actual world.
    fn repeat(
        &mut self,
        span: Span,
        max: u64,
        body: &[Stmt],
        until: &Expr,
        sink: &mut dyn FnMut(Event),
    ) -> Result<(), EngineError> {
        let outer = self.round;
        let mut rounds = 0;
        loop {
            if rounds == max {
                return Err(Failure::repeat_exhausted(max)).at(span);
            }
            rounds += 1;
            self.round = Some(rounds);
            self.block(body, sink)?;
            if self.actual.is_none() {
                return Err(Failure::no_actual_world("`until`")).at(span);
            }
            let state = self.state.clone();
            let phi = self.bool(until, &state).at(span)?;
            if self.holds_in_actual(&phi, "`until`").at(span)? {
                break;
            }
        }
        self.round = outer;
        sink(Event::RepeatDone { span, rounds });
        Ok(())
    }

    /// `assert_adds_ck φ { … }`: runs the block, then checks κ_after ≡ κ_before ∧ φ under
    /// κ_before.
    fn assert_adds_ck(
        &mut self,
        span: Span,
        hint: &Expr,
        body: &[Stmt],
        sink: &mut dyn FnMut(Event),
    ) -> Result<(), EngineError> {
        let start = Instant::now();
        let before = self.state.clone();
        let h = self.bool(hint, &before).at(span)?;
        if self.options.trust_hints {
            for s in super::kept_when_trusted(body) {
                self.step(s, sink)?;
            }
            self.state = State::new(before.kappa.and(&h), self.state.learned.clone());
            sink(Event::HintTrusted { span });
            return Ok(());
        }
        self.block(body, sink)?;
        let after = self.state.kappa.clone();
        // A world of κ_before where κ_after and the hint disagree refutes the hint.
        let disagree = before.kappa.and(&after.xor(&h));
        let elapsed = start.elapsed();
        match walk::first_worlds(&self.space, &disagree, 1).pop() {
            // κ_after is then κ_before ∧ φ already.
            None => {
                sink(Event::HintVerified { span, elapsed });
                Ok(())
            }
            Some(world) => self.refuted(span, elapsed, &after, world, sink),
        }
    }

    /// A refuted hint: an error, or (with `keep_refuted_hints`) an event.
    fn refuted(
        &mut self,
        span: Span,
        elapsed: Duration,
        after: &Bdd,
        world: World,
        sink: &mut dyn FnMut(Event),
    ) -> Result<(), EngineError> {
        let kept_by_block = after.eval_in(&self.space.valuation(&world.0));
        let counterexample = Counterexample {
            world,
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

    /// The state saved at `checkpoint` (None: the current state).
    fn state_at(&self, checkpoint: Option<CheckpointId>) -> Result<Rc<State>, Failure> {
        match checkpoint {
            None => Ok(self.state.clone()),
            Some(c) => self.checkpoints.get(c.0).cloned().flatten().ok_or_else(|| {
                let name = self.program.checkpoints.get(c.0).map_or("?", |c| &c.name);
                Failure::checkpoint_not_reached(name)
            }),
        }
    }

    /// How many worlds are possible now (or at `checkpoint`), exactly (more than 2⁶⁴ − 1
    /// is reported as more than that).
    pub(super) fn count_worlds(
        &self,
        checkpoint: Option<CheckpointId>,
    ) -> Result<WorldCount, Failure> {
        let count = self.space.count(&self.state_at(checkpoint)?.kappa);
        Ok(match count.and_then(|n| u64::try_from(n).ok()) {
            Some(n) => WorldCount::Exactly(n),
            None => WorldCount::MoreThan(u64::MAX),
        })
    }

    /// The epistemic model now (or at `checkpoint`) when it has at most `cap` worlds.
    /// A character's view of a world is the value (the index of the partition cell) of
    /// each thing it learned.
    pub(super) fn model(
        &self,
        checkpoint: Option<CheckpointId>,
        cap: usize,
    ) -> Result<Option<Model>, Failure> {
        let state = self.state_at(checkpoint)?;
        let worlds = walk::first_worlds(&self.space, &state.kappa, cap.saturating_add(1));
        if worlds.len() > cap {
            return Ok(None);
        }
        let valuations: Vec<_> = worlds.iter().map(|w| self.space.valuation(&w.0)).collect();
        let views = state
            .learned
            .iter()
            .map(|learned| {
                worlds
                    .iter()
                    .zip(&valuations)
                    .map(|(w, at)| {
                        learned
                            .iter()
                            .map(|l| match l {
                                Learned::Const(c) => w.0.get(*c).copied().unwrap_or(Value::Int(-1)),
                                Learned::Expr(cells) => Value::Int(
                                    cells
                                        .iter()
                                        .position(|cell| cell.eval_in(at))
                                        .map_or(-1, |k| k as i64),
                                ),
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Ok(Some(Model { worlds, views }))
    }

    /// Up to `limit` of the worlds possible now, in canonical order.
    pub(super) fn worlds(&self, limit: u64) -> Result<WorldSet, SolverError> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut worlds =
            walk::first_worlds(&self.space, &self.state.kappa, limit.saturating_add(1));
        let complete = worlds.len() <= limit;
        worlds.truncate(limit);
        Ok(WorldSet { worlds, complete })
    }
}
