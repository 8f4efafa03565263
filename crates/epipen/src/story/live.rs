//! The live engine behind a [`Story`]: each statement runs on it at once; a story whose
//! declarations outgrew it, or whose statement failed, replays on a new one.

use std::rc::Rc;

use crate::engine::{
    Counterexample, Engine, EngineError, Failure, Options, Report, Strategy, bounds_the_worlds,
    left_unbounded,
};
use crate::ir::{self, EventId, Program, Stmt, Ty};
use crate::lower::plan_steps;
use crate::syntax::Span;
use crate::worlds;

use super::{Error, Refutation, Story};

/// What statements run on the live engine reported, or the engine's failure inside
/// (running them, or making the engine again); outside, the story's refusal (a
/// declaration refused, [`Story::refusal`]).
pub(super) type Stepped = Result<Result<Vec<Report>, EngineError>, Error>;

/// An engine running over a snapshot of the story's declarations.
pub(super) struct Live {
    pub(super) engine: Engine,
    /// The declarations the snapshot holds: (characters, constants, enums).
    declared: (usize, usize, usize),
    /// How many checkpoints the engine has room for.
    checkpoint_slots: usize,
    /// Every statement the engine ran, kept where it is for the engine's life: the
    /// engine keys caches by the address of a statement's expressions, which another
    /// statement must not take over (hence the boxes: a `Vec<Stmt>` moves them).
    #[allow(clippy::vec_box)]
    ran: Vec<Box<Stmt>>,
    /// The engine keeps the worlds' weights: its snapshot holds the statements of a
    /// story that speaks of chances, as a story file's program does (the backend that
    /// keeps weights is chosen, and bounded, by them).
    chances: bool,
    /// How deep a plan the engine can search: the occurrences of its step event
    /// ([`ir::PlanSteps`], over the actions declared when it was made, after the spares);
    /// 0: none.
    pub(super) steps: usize,
    /// How many actions the step event's cases are of.
    actions: usize,
}

impl Live {
    /// An engine over the declarations and `spares`, occurrences for the executions to
    /// come ([`spares`]), with room for plans of `steps` actions (the search's step
    /// event and its occurrences after the spares, as lowering adds them after a story's
    /// constants; none for 0); `pending`, the statements about to run after those of
    /// `decls`.
    fn new(
        decls: &Program,
        options: &Options,
        spares: Vec<ir::Constant>,
        steps: usize,
        pending: &[Stmt],
    ) -> Live {
        let chances = probabilistic(Some(decls), pending);
        let checkpoint_slots = (decls.checkpoints.len() * 2).max(16);
        let mut checkpoints = decls.checkpoints.clone();
        checkpoints.resize(
            checkpoint_slots,
            ir::Checkpoint {
                name: String::new(),
                span: Span::default(),
            },
        );
        let mut constants = decls.constants.clone();
        constants.extend(spares);
        let (mut events, mut enums) = (decls.events.clone(), decls.enums.clone());
        let plan_steps = match steps > 0 && !decls.actions.is_empty() {
            true => {
                let room = (&mut events, &mut enums, &mut constants);
                let plan = plan_steps(&decls.actions, room, steps, Span::default());
                // Named apart as a story's program names them (`plan step#1`, …): a
                // backend may know its constants by name.
                for (k, c) in plan.occurrences.iter().enumerate() {
                    constants[c.0].name = format!("{}#{}", events[plan.event.0].name, k + 1);
                }
                Some(plan)
            }
            false => decls.plan_steps.clone(),
        };
        let steps = if plan_steps.is_some() { steps } else { 0 };
        let snapshot = Program {
            characters: decls.characters.clone(),
            constants,
            enums,
            events,
            actions: decls.actions.clone(),
            plan_steps,
            checkpoints,
            statements: match chances || snapshot_holds_statements(options) {
                true => (decls.statements.iter().chain(pending).cloned()).collect(),
                false => Vec::new(),
            },
            samples: Vec::new(),
            backend: None,
        };
        Live {
            engine: Engine::new(Rc::new(snapshot), options),
            declared: (
                decls.characters.len(),
                decls.constants.len(),
                decls.enums.len(),
            ),
            checkpoint_slots,
            ran: Vec::new(),
            chances,
            steps,
            actions: decls.actions.len(),
        }
    }

    /// Runs one statement on the engine.
    fn step(&mut self, s: &Stmt, sink: &mut dyn FnMut(Report)) -> Result<(), EngineError> {
        self.ran.push(Box::new(s.clone()));
        let kept = self.ran.last().expect("just pushed");
        self.engine.step(kept, sink)
    }

    /// Whether the engine runs `pending` after the statements of `decls`, with room
    /// for plans of `steps` actions.
    fn fits(&self, decls: &Program, pending: &[Stmt], steps: usize) -> bool {
        let (characters, constants, enums) = self.declared;
        (characters, enums) == (decls.characters.len(), decls.enums.len())
            && (steps == 0 || (self.steps >= steps && self.actions == decls.actions.len()))
            // An engine without weights ran only statements without chances.
            && (self.chances || !probabilistic(None, pending))
            && decls.checkpoints.len() <= self.checkpoint_slots
            && decls.constants.len() >= constants
            && spares_taken(
                &decls.constants[constants..],
                &self.engine.program().constants[constants..],
            )
    }
}

impl Story {
    /// Makes sure a live engine matches the declarations, replaying the statements so
    /// far on a new one when needed.
    pub(super) fn ensure_live(&mut self) -> Result<(), Error> {
        self.ensure_live_for(&[])
            .map_err(from_engine(&self.program))
    }

    /// [`Story::ensure_live`], for an engine that will run `pending` next (a story
    /// that starts to speak of chances needs one that keeps weights).
    pub(super) fn ensure_live_for(&mut self, pending: &[Stmt]) -> Result<(), EngineError> {
        let steps = self.plan_depth;
        if (self.live.as_ref()).is_some_and(|l| l.fits(&self.program, pending, steps)) {
            return Ok(());
        }
        self.live = None;
        let spares = spares(&self.program);
        let live = self.replayed_for(spares, steps, pending)?;
        if self.options.strategy == Strategy::Auto {
            self.auto_chose = Some(live.engine.backend());
        }
        self.live = Some(live);
        Ok(())
    }

    /// A new engine, with `spares` and room for plans of `steps` actions, that ran the
    /// statements so far.
    pub(super) fn replayed(&self, spares: Vec<ir::Constant>, steps: usize) -> Result<Live, Error> {
        (self.replayed_for(spares, steps, &[])).map_err(from_engine(&self.program))
    }

    /// [`Story::replayed`], for an engine that will run `pending` next; a statement
    /// that fails in the replay, as the engine words it.
    fn replayed_for(
        &self,
        spares: Vec<ir::Constant>,
        steps: usize,
        pending: &[Stmt],
    ) -> Result<Live, EngineError> {
        // `auto`'s choice again, where it chose BDDs or Z3: the replays of a loop that
        // declares a constant before each statement do not list the worlds again, each
        // time, to find that explicit worlds cannot hold them (unless that backend
        // refuses the story now).
        let again = match self.auto_chose {
            Some("bdd") => Some(Strategy::Bdd),
            Some("z3") => Some(Strategy::Z3),
            _ => None,
        };
        let mut live = match again {
            Some(strategy) => {
                let options = Options {
                    strategy,
                    ..self.options.clone()
                };
                let live = Live::new(&self.program, &options, spares.clone(), steps, pending);
                match live.engine.backend() {
                    "none" => Live::new(&self.program, &self.options, spares, steps, pending),
                    _ => live,
                }
            }
            None => Live::new(&self.program, &self.options, spares, steps, pending),
        };
        for s in &self.program.statements {
            live.step(s, &mut |_| {})?;
        }
        Ok(live)
    }

    /// Runs statements as a unit: all succeed and join the story, or the story stays
    /// as it was.
    pub(super) fn run_all(&mut self, stmts: Vec<Stmt>) -> Result<Vec<Report>, Error> {
        let events = self.step_all(&stmts)?;
        self.program.statements.extend(stmts);
        Ok(events)
    }

    /// Runs a question that leaves the state as it was (a `plan`): it does not join
    /// the story's statements, so that a replay does not ask it again.
    pub(super) fn ask(&mut self, stmt: Stmt) -> Result<Vec<Report>, Error> {
        self.step_all(std::slice::from_ref(&stmt))
    }

    /// Runs `stmts` on the live engine, what they report. Under `auto`, a backend
    /// chosen for the statements so far that cannot run these (a quantifier over bools
    /// on explicit worlds) gives way to one chosen knowing them, as a story file's
    /// program would have chosen: the story replays on it.
    fn step_all(&mut self, stmts: &[Stmt]) -> Result<Vec<Report>, Error> {
        let result = self.step_all_raw(stmts)?;
        result.map_err(|e| from_engine(&self.program)(e))
    }

    /// [`Story::step_all`], with the engine's failure inside as the engine words it
    /// (then the story starts afresh at the next statement).
    pub(super) fn step_all_raw(&mut self, stmts: &[Stmt]) -> Stepped {
        self.intact()?;
        let result = self.try_step_all(stmts);
        match result {
            Err(e)
                if matches!(e.error, Failure::Unsupported(_))
                    && self.options.strategy == Strategy::Auto =>
            {
                tracing::debug!(why = %e.error, "the backend gives way to one chosen knowing the statement");
                self.auto_chose = None;
                Ok(self.try_step_all(stmts))
            }
            result => Ok(result),
        }
    }

    /// [`Story::step_all_raw`] once.
    fn try_step_all(&mut self, stmts: &[Stmt]) -> Result<Vec<Report>, EngineError> {
        if self.waits(stmts) {
            self.live = None;
            return Ok(Vec::new());
        }
        // A statement so far may fail on a new engine (a negative prior among the first
        // announcements, which waited for it).
        self.ensure_live_for(stmts)?;
        let live = self.live.as_mut().expect("ensure_live made the engine");
        let mut events = Vec::new();
        for s in stmts {
            if let Err(e) = live.step(s, &mut |e| events.push(e)) {
                // The engine may hold part of the failed statement's effect: start
                // afresh (replaying the story) at the next statement.
                self.live = None;
                return Err(e);
            }
        }
        Ok(events)
    }
}

impl Story {
    /// Whether `stmts` join the story without running yet: while the story is still
    /// telling its first announcements (the statements that bound the worlds) and they
    /// leave an int unbounded, or a `prior` stands among them, no engine is made, so
    /// that one made later sees them all, as a story file's does: the explicit and BDD
    /// backends bound their ints by them (`announce 0 <= x and x <= 9` then `announce 0
    /// <= y and y <= 9` runs on explicit worlds or BDDs), `auto` chooses by them, and a
    /// prior weighs the worlds they all leave, wherever it stands among them. They
    /// report nothing; what fails among them (a prior negative in a world they all
    /// leave) fails the statement that makes the engine. Not on Z3 named in the
    /// options, which needs no bounds and weighs no world.
    fn waits(&self, stmts: &[Stmt]) -> bool {
        let mut so_far = self.program.statements.iter().chain(stmts);
        if self.options.strategy == Strategy::Z3 || !so_far.clone().all(bounds_the_worlds) {
            return false;
        }
        // (An engine made for announcements before a prior is made again after them.)
        if so_far.any(|s| matches!(s.kind, ir::StmtKind::Prior(_))) {
            return true;
        }
        if self.live.is_some() {
            return false;
        }
        let mut so_far = self.program.clone();
        so_far.statements.extend(stmts.iter().cloned());
        left_unbounded(&so_far).is_some()
    }
}

/// Whether the engine's snapshot holds the statements so far, as a story file's program
/// does: for the backends that bound the ints by the first announcements (explicit
/// worlds, BDDs) and for `auto`, which chooses by them.
fn snapshot_holds_statements(options: &Options) -> bool {
    matches!(
        options.strategy,
        Strategy::Auto | Strategy::Explicit | Strategy::Bdd
    )
}

/// Whether the story's statements (if given) or `pending` speak of chances.
fn probabilistic(decls: Option<&Program>, pending: &[Stmt]) -> bool {
    decls.is_some_and(Program::probabilistic)
        || Program {
            statements: pending.to_vec(),
            ..Program::default()
        }
        .probabilistic()
}

/// A refuted hint's world, without the engine's spare occurrences.
pub(super) fn refutation(program: &Program, mut counterexample: Counterexample) -> Refutation {
    counterexample.world.0.truncate(program.constants.len());
    Refutation {
        description: counterexample.describe(program),
        counterexample,
    }
}

pub(super) fn from_engine(program: &Program) -> impl Fn(EngineError) -> Error + '_ {
    move |e| match e.error {
        Failure::Story { message, hints, .. } => Error::Story { message, hints },
        Failure::Refuted(c) => Error::Refuted(refutation(program, c)),
        Failure::CheckFailed(world, found) => Error::Story {
            message: format!(
                "the check fails in the world {}{}",
                worlds::world_line(program, &world.0),
                (found.iter().enumerate())
                    .map(|(i, f)| format!(
                        "{}{} is {}",
                        if i == 0 { ", where " } else { " and " },
                        f.text,
                        crate::views::ratio(&f.value)
                    ))
                    .collect::<String>()
            ),
            hints: Vec::new(),
        },
        solver => Error::Solver(solver),
    }
}

/// The fewest spare occurrences a live engine is given (see [`spares`]).
const MIN_SPARES: usize = 8;

/// The spare occurrences of a new engine over `program`: occurrence constants beyond
/// the story's, ready for the next executions. A new execution whose occurrence takes
/// the place of a spare of its event runs on the same engine, where any other new
/// constant makes the story replay on a new one. The spares continue the executions so
/// far by their shortest period (one event's rounds, or several events taking turns;
/// the last execution's event when no period shows yet), as many as the story has
/// executions (at least [`MIN_SPARES`]), so that a loop of k executions replays the
/// story about log k times. A spare holds its "not yet" value in every world, which
/// worlds do not show; the story cuts them off what the engine reports.
pub(super) fn spares(program: &ir::Program) -> Vec<ir::Constant> {
    let history: Vec<EventId> = (program.constants.iter())
        .filter_map(|c| c.occurrence.map(|o| o.event))
        .collect();
    let n = history.len();
    let period = (1..=n / 2)
        .find(|&p| (n.saturating_sub(2 * p).max(p)..n).all(|i| history[i] == history[i - p]))
        .unwrap_or(1);
    let mut next: Vec<usize> = vec![0; program.events.len()];
    for e in &history {
        next[e.0] += 1;
    }
    let count = if n == 0 { 0 } else { n.max(MIN_SPARES) };
    (0..count)
        .map(|k| {
            let event = history[n - period + k % period];
            let def = &program.events[event.0];
            next[event.0] += 1;
            ir::Constant {
                name: format!("{}#{}", def.name, next[event.0]),
                ty: Ty::Enum(def.sort),
                span: Span::default(),
                occurrence: Some(ir::Occurrence { event }),
            }
        })
        .collect()
}

/// Whether the constants a story declared since its engine was made are occurrences
/// that take the places of the engine's spares, in order.
pub(super) fn spares_taken(new: &[ir::Constant], spares: &[ir::Constant]) -> bool {
    new.len() <= spares.len()
        && (new.iter().zip(spares))
            .all(|(n, s)| n.occurrence.is_some() && n.occurrence == s.occurrence)
}
