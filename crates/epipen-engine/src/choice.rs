//! Which backend runs a story: the one place that decides, from the options' strategy,
//! the story's `#! backend` pin, and what the story is.
//!
//! | asked (`--backend`, or the pin when that is `auto`) | the story | backend |
//! |---|---|---|
//! | `z3` (and the tests' `Symbolic`, `Finite`) | any | Z3 |
//! | `bdd` | bools, enums, and ints the first announcements bound (at most 16 bits each, 256 in all) | BDDs; another int constant is refused by name |
//! | `explicit` | any | explicit worlds within [`Size::Forced`]'s budget, or refused by name |
//! | `auto` | bools and enums whose types allow more than [`AUTO_MAX_FINITE_TYPES`] worlds | explicit worlds within [`Size::Small`]'s budget; else BDDs; else Z3 |
//! | `auto` | with a quantifier over constants (`forall p: …`) | BDDs for bools and enums, and for ints the first announcements bound when a quantifier is around knowledge operators (which Z3 refuses); else Z3 |
//! | `auto` | with an int constant | explicit worlds within [`Size::Small`]'s budget; else BDDs when the first announcements bound every int (as `bdd` above) and no two terms reading constants are multiplied; else as the next line |
//! | `auto` | any other | explicit worlds within [`Size::Auto`]'s budget; refused for what its events would make ([`crate::limits::AUTO_MAX_EVENT_WORLDS`]) in a story of bools and enums: BDDs, else Z3; refused otherwise: Z3 |
//! | any | with chances (`prior`, a case's `weight`, `probability(…)`) | explicit worlds within [`Size::Forced`]'s budget (the only backend that keeps weights), or refused by name; `z3` and `bdd` asked by name refuse it |
//!
//! `auto` picks among three for a finite story by one rule: a few worlds after the first
//! announcements (measured: listed within [`Size::Small`]'s budget, the same on every
//! run whatever the load) go to the explicit backend; else BDDs when they can encode the
//! story (bools, enums, ints the first announcements bound); else the explicit backend
//! within its large budget, else Z3 (docs/encoding.md, "One driver, three backends";
//! `the_strategy_picks_the_backend` in `bdd/tests.rs` pins it on stories of `stories/`).
//!
//! Listing the worlds runs out of the run's time: the timeout is the answer (no other
//! backend would have more time). A refusal of a backend asked for by name is a story
//! error at the statement it names (the first one otherwise).
//!
//! Questions a backend hands over ([`crate::driver::HandsOver::handed_over`]: the explicit
//! backend's states before the announcements that bound its worlds, and an `actual` whose
//! worlds it cannot list) are answered by the [`Standby`], by the same kind of table:
//!
//! | the story | standby |
//! |---|---|
//! | bools and enums (no int, even one BDDs would take: they bound it by every first announcement) | BDDs |
//! | any other, at most [`STANDBY_MAX_WORLDS`] worlds so far | explicit worlds listed for the question |
//! | any other | Z3 |
//!
//! What each backend can do beyond the core [`Backend`] ([`offers`]: the capability
//! traits of `driver/capability.rs`):
//!
//! | capability | explicit | bdd | z3 |
//! |---|---|---|---|
//! | probabilities (`prior`, weights, `probability(…)`) | ✓ | | |
//! | plausibility (`expects`, ranks) | ✓ | ✓ | ✓ |
//! | hints (`assert_adds_ck`) | ✓ | ✓ | ✓ |
//! | handover (states answered by the [`Standby`]) | ✓ | | |
//! | recognition (a plan's states it cannot list) | | ✓ | ✓ |
//! | rebuilding (a plan's states contracted) | ✓ | | |
//! | forgetting (an event's history, when [`history`] allows it) | ✓ | ✓ | |

use std::rc::Rc;

use std::collections::{HashMap, HashSet};

use crate::Failure;
use crate::driver::{
    Backend, Capability, Driver, Handover, Listing, Origin, Refused, Run, Semantics, Standby,
};
use crate::explicit::{self, ExplicitBackend, Refusal};
use crate::ir::{ConstId, Expr, ExprKind, Program, Stmt, StmtKind};
use crate::limits::{AUTO_MAX_FINITE_TYPES, Size};
use crate::worlds::{Model, World, WorldCount, WorldSet};
use crate::z3::Z3Backend;
use crate::{History, Options, Strategy, bdd};

/// The driver over the backend that runs `program` with `options` (see the table
/// above), or the refusal that answers every statement.
pub(crate) fn choose(program: Rc<Program>, options: &Options) -> Box<dyn Run> {
    // `#! backend …` in the story chooses when the options leave it to `Auto`.
    let pinned_options;
    let (options, pinned) = match (options.strategy, program.backend) {
        (Strategy::Auto, Some(backend)) => {
            pinned_options = Options {
                strategy: Strategy::of(backend),
                ..options.clone()
            };
            (&pinned_options, Some(backend.name()))
        }
        _ => (options, None),
    };
    // What the command prints and what the program reads decide whether the events'
    // histories may be forgotten.
    let scanned_options = Options {
        history: history(&program, options),
        ..options.clone()
    };
    let options = &scanned_options;
    let first = program
        .statements
        .first()
        .map(|s| s.span)
        .unwrap_or_default();
    // A refusal because the time ran out (while the explicit backend listed the
    // worlds) answers with the timeout: no other backend would have more time. The
    // listing stops on a cancel too: then it answers as cancelled.
    let stopped = |timed_out: bool| {
        timed_out.then(|| (options.cancel.check().err()).unwrap_or(Failure::Timeout))
    };
    let refused = |r: Refusal| -> Box<dyn Run> {
        Box::new(Refused {
            why: r.why,
            first: r.span.unwrap_or(first),
            stopped: stopped(r.timed_out),
            pinned,
            hint: None,
        })
    };
    // A story with chances runs on listed worlds only: no other backend is tried.
    let chances_refused = |r: Refusal, hint: &str| -> Box<dyn Run> {
        Box::new(Refused {
            why: r.why,
            first: r.span.unwrap_or(first),
            stopped: stopped(r.timed_out),
            pinned,
            hint: Some(hint.to_string()),
        })
    };
    let z3 = |program: Rc<Program>| -> Box<dyn Run> {
        if let Some(span) = quantified_knowledge(&program) {
            return refused(Refusal {
                span: Some(span),
                ..Refusal::because(crate::z3::QUANTIFIED_KNOWLEDGE.into())
            });
        }
        let backend = Z3Backend::new(program.clone(), options);
        match Driver::new(
            program.clone(),
            options,
            backend,
            Standbys::new(program, options),
        ) {
            Ok(driver) => Box::new(driver),
            Err(e) => refused(Refusal::because(why(&e))),
        }
    };
    let bdd = |program: Rc<Program>| -> Result<Box<dyn Run>, String> {
        let backend = bdd::BddBackend::new(program.clone(), options)?;
        let driver = Driver::new(
            program.clone(),
            options,
            backend,
            Standbys::new(program, options),
        )
        .map_err(|e| why(&e))?;
        Ok(Box::new(driver))
    };
    let explicit = |program: Rc<Program>, size| -> Result<Box<dyn Run>, Refusal> {
        let backend = ExplicitBackend::new(program.clone(), options, size)?;
        let driver = Driver::new(
            program.clone(),
            options,
            backend,
            Standbys::new(program, options),
        )
        .map_err(|e| Refusal::because(why(&e)))?;
        Ok(Box::new(driver))
    };
    if program.probabilistic() {
        // The one backend that keeps weights.
        debug_assert!(offers("explicit", Capability::Probabilities));
        return match options.strategy {
            Strategy::Auto | Strategy::Explicit => explicit(program, Size::Forced)
                .unwrap_or_else(|mut refusal| {
                    if !refusal.timed_out {
                        refusal.why = format!(
                            "{}; probabilities (`prior`, a case's `weight`, `probability(…)`) are computed on listed worlds only",
                            refusal.why
                        );
                    }
                    chances_refused(
                        refusal,
                        "bound every int by the story's first announcements (e.g. `announce 0 <= x and x <= 9`), so that its worlds can be listed",
                    )
                }),
            _ => chances_refused(Refusal::because(format!(
                "the {} backend does not compute probabilities: `prior`, a case's `weight` and `probability(…)` need the explicit backend (`auto` picks it)",
                match options.strategy {
                    Strategy::Bdd => "bdd",
                    _ => "z3",
                }
            )), "run it on the `explicit` backend, or on `auto` (the default), which picks it"),
        };
    }
    match options.strategy {
        Strategy::Bdd => bdd(program).unwrap_or_else(|why| refused(Refusal::because(why))),
        Strategy::Explicit => explicit(program, Size::Forced).unwrap_or_else(refused),
        Strategy::Auto => {
            let by_types = explicit::finite_type_worlds(&program);
            if explicit::quantifier_in(&program).is_some() {
                // The explicit backend refuses quantifiers over constants: BDDs for
                // bools and enums, and for bounded ints around knowledge operators
                // (which Z3 refuses), else Z3.
                let around_knowledge = quantified_knowledge(&program).is_some();
                return match by_types.is_some() || around_knowledge {
                    true => bdd(program.clone()).unwrap_or_else(|_| z3(program)),
                    false => z3(program),
                };
            }
            if by_types.is_some_and(|n| n > AUTO_MAX_FINITE_TYPES) {
                // Bools and enums: the explicit backend when the first announcements
                // leave a few worlds, listed fast; else BDDs (measured, not guessed
                // from how the bounds are written).
                match explicit(program.clone(), Size::Small) {
                    Ok(driver) => driver,
                    Err(refusal) if refusal.timed_out => refused(refusal),
                    Err(_) => bdd(program.clone()).unwrap_or_else(|_| z3(program)),
                }
            } else {
                if by_types.is_none() {
                    // Ints (bounded or not): the explicit backend when the first
                    // announcements leave a few worlds, listed fast; else BDDs when the
                    // first announcements bound every int (the 4x4 battleship's 200,704
                    // worlds: 1.7 s listed, 0.01 s on BDDs; What Sum at B = 200 0.07 and
                    // 0.03 s); else as below.
                    match explicit(program.clone(), Size::Small) {
                        Ok(driver) => return driver,
                        Err(refusal) if refusal.timed_out => return refused(refusal),
                        // Not for products of constants: BDDs combine them value by
                        // value (Sum and Product at x + y <= 10 000: 1.2 s listed,
                        // over a minute on BDDs).
                        Err(_) if !multiplies_constants(&program) => {
                            if let Ok(driver) = bdd(program.clone()) {
                                return driver;
                            }
                        }
                        Err(_) => {}
                    }
                }
                match explicit(program.clone(), Size::Auto) {
                    Ok(driver) => driver,
                    Err(refusal) if refusal.timed_out => refused(refusal),
                    Err(refusal) if refusal.events && by_types.is_some() => {
                        tracing::debug!(why = refusal.why, "not the explicit backend");
                        bdd(program.clone()).unwrap_or_else(|_| z3(program))
                    }
                    Err(refusal) => {
                        tracing::debug!(why = refusal.why, "not the explicit backend");
                        z3(program)
                    }
                }
            }
        }
        Strategy::Z3 | Strategy::Symbolic | Strategy::Finite => z3(program),
    }
}

/// Why a backend could not start, as a refusal says it (a solver's failure without the
/// "solver failure" before it).
fn why(e: &Failure) -> String {
    e.solver_detail().unwrap_or_else(|| e.to_string())
}

/// Whether the backend named `backend` (as `--backend` spells it) has `capability`: the
/// table above, which the choice follows (a story with chances goes to the backend with
/// probabilities) and `each_backend_offers_what_the_choice_table_says` checks against
/// the backends' accessors.
pub(crate) fn offers(backend: &str, capability: Capability) -> bool {
    match capability {
        Capability::Probabilities | Capability::Handover | Capability::Rebuilding => {
            backend == "explicit"
        }
        Capability::Recognition => backend != "explicit",
        Capability::Forgetting => backend != "z3",
        Capability::Plausibility | Capability::Hints => true,
    }
}

/// Whether a run of `program` may forget its events' histories: when the command
/// prints no world ([`Options::history`]) and nothing in the program reads the past
/// (docs/encoding.md, "Forgetting histories"). The histories are kept, whatever the
/// command, for a program with chances (`prior`, weights, `probability`: they count
/// worlds), checkpoints (`at(c, …)` reads an earlier state), `worlds`, `where` or `show`
/// statements, an event's name used after it happened, plausibility (`expects`, an
/// event's ranks), `learns` (what was learned reads values later events change),
/// public changes (`x := e`), `actual` after an event, declared actions (`do`, `plan`),
/// `simultaneously` and `assert_adds_ck` blocks, an event that changes an int, and a
/// quantifier over a bool an event changed. The BDD and explicit backends forget
/// (the driver asks them, [`crate::driver::Offers::forgetting`]); Z3 keeps them.
pub(crate) fn history(program: &Program, options: &Options) -> History {
    if options.history == History::Kept {
        return History::Kept;
    }
    match history_reader(program) {
        Some(why) => {
            tracing::debug!("the events' histories are kept: {why}");
            History::Kept
        }
        None => {
            tracing::debug!(
                "the events' histories may be forgotten: the command lists no worlds and \
                 nothing in the story reads the past"
            );
            History::ForgottenWhereUnread
        }
    }
}

/// What in `program` reads the events' histories (see [`history`]), if anything.
fn history_reader(program: &Program) -> Option<&'static str> {
    if program.probabilistic() {
        return Some("the story speaks of chances (`prior`, a case's `weight`, `probability`)");
    }
    if !program.checkpoints.is_empty() {
        return Some("the story has checkpoints (`at(c, …)` reads an earlier state)");
    }
    if !program.actions.is_empty() || program.plan_steps.is_some() {
        return Some("the story declares actions (`do`, `plan`)");
    }
    // Whether an event happened so far, and the constants events changed.
    let mut after_event = (false, HashSet::new());
    // A `repeat` body runs again after its own events: it is read twice.
    fn scan(
        program: &Program,
        stmts: &[Stmt],
        state: &mut (bool, HashSet<ConstId>),
    ) -> Option<&'static str> {
        for stmt in stmts {
            let (after_event, changed) = &mut *state;
            let read = stmt.each_expr(&mut |e| {
                e.walk(&mut |x| match &x.kind {
                    ExprKind::Latest(_) => Err("an event's name is used after it happened"),
                    ExprKind::At { .. } => Err("`at(c, …)` reads an earlier state"),
                    ExprKind::Chance { .. } => Err("`probability(…)` counts worlds"),
                    // `forall p` takes the worlds where p *started* otherwise, and reads
                    // p as the events made it from there.
                    ExprKind::Quantified { consts, .. } if consts.iter().any(|c| changed.contains(c)) => {
                        Err("a quantifier over a bool an event changed (it reads the bool's value at the start)")
                    }
                    _ => Ok(()),
                })
            });
            if let Err(why) = read {
                return Some(why);
            }
            match &stmt.kind {
                StmtKind::Announce { .. }
                | StmtKind::Reveal { .. }
                | StmtKind::Check(_)
                | StmtKind::CheckActual(_) => {}
                StmtKind::Actual(_) if *after_event => {
                    return Some("an `actual` statement after an event");
                }
                StmtKind::Actual(_) => {}
                StmtKind::Event(event) => {
                    if event.expects.iter().any(Option::is_some) {
                        return Some("an event ranks its cases (`expects`)");
                    }
                    if (event.cases.iter())
                        .flat_map(|c| c.changes.iter())
                        .any(|(target, _)| program.constants[target.0].ty == crate::ir::Ty::Int)
                    {
                        return Some(
                            "an event changes an int (a new value may leave the bits the \
                             first announcements gave it)",
                        );
                    }
                    *after_event = true;
                    changed.extend(
                        event
                            .cases
                            .iter()
                            .flat_map(|c| c.changes.iter().map(|(t, _)| *t)),
                    );
                }
                StmtKind::Repeat { body, .. } => {
                    for _ in 0..2 {
                        if let Some(why) = scan(program, body, state) {
                            return Some(why);
                        }
                    }
                }
                StmtKind::Learn { .. } => return Some("a `learns` statement"),
                StmtKind::Assign { .. } => return Some("a public change (`x := e`)"),
                StmtKind::Expects { .. } => return Some("plausibility (`expects`)"),
                StmtKind::Worlds { .. } => return Some("a `worlds` statement"),
                StmtKind::Where { .. } => return Some("a `where` statement"),
                StmtKind::Show { .. } => return Some("a `show` statement"),
                StmtKind::Prior(_) => return Some("a `prior` statement"),
                StmtKind::Checkpoint(_) => return Some("a checkpoint"),
                StmtKind::Do(_) | StmtKind::Plan(_) => {
                    return Some("declared actions (`do`, `plan`)");
                }
                StmtKind::Simultaneously(_) => return Some("a `simultaneously` block"),
                StmtKind::AssertAddsCk { .. } => return Some("an `assert_adds_ck` block"),
            }
        }
        None
    }
    scan(program, &program.statements, &mut after_event)
}

/// Where the story first quantifies over constants around a knowledge operator
/// (`forall p: knows(A, p)`), if it does.
fn quantified_knowledge(program: &Program) -> Option<crate::syntax::Span> {
    program.find(&mut |x| {
        matches!(&x.kind, crate::ir::ExprKind::Quantified { body, .. } if body.mentions_knowledge())
    })
}

/// The most worlds the [`Standby`] lists natively for a question about a state whose
/// worlds are not listed yet.
pub(crate) const STANDBY_MAX_WORLDS: usize = 1 << 20;

/// The backends that answer the questions another hands over (the table above), each
/// made when first needed; the state is rebuilt from the [`Handover`] for each question.
pub(crate) struct Standbys {
    program: Rc<Program>,
    options: Options,
    /// BDDs for a story of bools and enums (Some(None): not such a story).
    bdd: Option<Option<bdd::BddBackend>>,
    /// Explicit backends over the worlds of the first k constraints, by k (None: more
    /// than [`STANDBY_MAX_WORLDS`]).
    listed: HashMap<usize, Option<ExplicitBackend>>,
}

/// Asks `$body` of the standby's backend for `$h`, its state rebuilt as `$s` (the
/// [`Part`] `$part` of it).
macro_rules! ask {
    ($standby:expr, $h:expr, $part:expr, |$b:ident, $s:ident| $body:expr) => {{
        let (standby, h, part): (&mut Standbys, &Handover, Part) = ($standby, $h, $part);
        if let Some($b) = standby.bdd() {
            let $s = rebuilt($b, h, part)?;
            $body
        } else if let Some($b) = standby.listed(h) {
            let $s = rebuilt($b, h, part)?;
            $body
        } else {
            let $b = &mut Z3Backend::new(standby.program.clone(), &standby.options);
            let $s = rebuilt($b, h, part)?;
            $body
        }
    }};
}

impl Standbys {
    pub(crate) fn new(program: Rc<Program>, options: &Options) -> Box<Standbys> {
        Box::new(Standbys {
            program,
            // A standby answers about a state handed over whole: it keeps its history.
            options: Options {
                history: History::Kept,
                ..options.clone()
            },
            bdd: None,
            listed: HashMap::new(),
        })
    }

    fn bdd(&mut self) -> Option<&mut bdd::BddBackend> {
        if self.bdd.is_none() {
            // Not for a story with ints: the BDD backend bounds them by all the first
            // announcements, and the standby answers about states before those hold.
            let ints = (self.program.constants.iter()).any(|c| c.ty == crate::ir::Ty::Int);
            self.bdd = Some(if ints {
                None
            } else {
                bdd::BddBackend::new(self.program.clone(), &self.options).ok()
            });
        }
        self.bdd.as_mut().and_then(Option::as_mut)
    }

    fn listed(&mut self, h: &Handover) -> Option<&mut ExplicitBackend> {
        let (program, options) = (&self.program, &self.options);
        (self.listed.entry(h.constraints.len()))
            .or_insert_with(|| {
                ExplicitBackend::listing(
                    program.clone(),
                    options,
                    &h.constraints,
                    STANDBY_MAX_WORLDS,
                )
            })
            .as_mut()
    }
}

impl Standby for Standbys {
    fn worlds(&mut self, h: &Handover, limit: usize) -> Result<WorldSet, Failure> {
        ask!(self, h, Part::Worlds, |b, s| b.worlds(&s, limit))
    }

    fn count(&mut self, h: &Handover, cap: usize) -> Result<WorldCount, Failure> {
        if h.constraints.is_empty() {
            // Every world of the constants' types.
            return Ok(match explicit::finite_type_worlds(&self.program) {
                None => WorldCount::Infinite,
                Some(n) => {
                    u64::try_from(n).map_or(WorldCount::MoreThan(u64::MAX), WorldCount::Exactly)
                }
            });
        }
        ask!(self, h, Part::Worlds, |b, s| b.count(&s, cap))
    }

    fn model(&mut self, h: &Handover, cap: usize) -> Result<Option<Model>, Failure> {
        ask!(self, h, Part::Knowledge, |b, s| b.model(
            &s,
            cap,
            crate::driver::Views::Observed
        ))
    }

    /// On Z3 a satisfiability check, not a listing of the first world.
    fn is_empty(&mut self, h: &Handover) -> Result<bool, Failure> {
        ask!(self, h, Part::Worlds, |b, s| b.is_empty(&s))
    }

    /// [`Semantics::pin`] on Z3 (`φ` over the constants' types alone).
    fn pin(&mut self, phi: &Expr) -> Result<Vec<World>, Failure> {
        tracing::debug!("`actual` asks Z3");
        let mut z3 = Z3Backend::new(self.program.clone(), &self.options);
        let start = z3.initial()?;
        Ok(z3.pin(phi, &start)?.unwrap_or_default())
    }
}

/// κ of `h` on `backend`: its types, the constraints and, when `learned`, what each
/// character learned.
/// How much of a handed-over state a standby rebuilds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// The worlds (κ): for listing, counting and emptiness.
    Worlds,
    /// The worlds and what each character learned: for a model.
    Knowledge,
}

fn rebuilt<B: Backend>(backend: &mut B, h: &Handover, part: Part) -> Result<B::State, Failure> {
    let mut kappa = backend.initial()?;
    for e in &h.constraints {
        let phi = backend.formula(e, &kappa, &[])?;
        kappa = backend.restrict(&kappa, phi, Origin::Written)?;
    }
    if part == Part::Knowledge {
        let items = h
            .learned
            .as_ref()
            .map_err(|why| Failure::Unsupported(why.clone()))?;
        for (who, what) in items {
            kappa = backend.learn(&kappa, *who, crate::driver::Learning::Value(what))?;
        }
    }
    Ok(kappa)
}

/// Whether the story multiplies two terms that both read constants (`x * y`).
fn multiplies_constants(program: &Program) -> bool {
    use crate::ir::{ArithOp, Expr, ExprKind};
    fn reads_constants(e: &Expr) -> bool {
        e.walk(&mut |x: &Expr| match x.kind {
            ExprKind::Const(_) => Err(()),
            _ => Ok(()),
        })
        .is_err()
    }
    // `each_expr` reads the bodies of blocks, `repeat`s and hints too.
    program.statements.iter().any(|s| {
        s.each_expr(&mut |e| {
            e.walk(&mut |x: &Expr| match &x.kind {
                ExprKind::Arith(ArithOp::Mul, a, b) if reads_constants(a) && reads_constants(b) => {
                    Err(())
                }
                _ => Ok(()),
            })
        })
        .is_err()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explicit::ExplicitBackend;

    /// Each backend's capability accessors, as a list in [`Capability`]'s order.
    fn offered<B: Backend>(backend: &mut B) -> Vec<(Capability, bool)> {
        vec![
            (Capability::Probabilities, backend.probabilities().is_some()),
            (Capability::Plausibility, backend.plausibility().is_some()),
            (Capability::Hints, backend.hints().is_some()),
            (Capability::Handover, backend.hands_over().is_some()),
            (Capability::Recognition, backend.recognition().is_some()),
            (Capability::Rebuilding, backend.rebuilding().is_some()),
            (Capability::Forgetting, backend.forgetting().is_some()),
        ]
    }

    fn check<B: Backend>(backend: &mut B) {
        let name = B::NAME;
        for (capability, has) in offered(backend) {
            assert_eq!(
                has,
                offers(name, capability),
                "{name}: {capability:?} offered {has}, the table says otherwise"
            );
        }
    }

    #[test]
    fn each_backend_offers_what_the_choice_table_says() {
        let program = Rc::new(
            epipen_lower::compile("characters A\nbool p\nannounce p or not p", &[])
                .expect("the story compiles"),
        );
        // Forgetting is offered only when the run may forget.
        let options = Options {
            history: History::ForgottenWhereUnread,
            ..Options::default()
        };
        let Ok(mut explicit) = ExplicitBackend::new(program.clone(), &options, Size::Forced) else {
            panic!("the explicit backend lists two worlds");
        };
        check(&mut explicit);
        check(&mut bdd::BddBackend::new(program.clone(), &options).expect("on BDDs"));
        check(&mut Z3Backend::new(program, &options));
    }
}
