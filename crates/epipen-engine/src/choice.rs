//! Which backend runs a story: the one place that decides, from the options' strategy,
//! the story's `#! backend` pin, and what the story is.
//!
//! | asked (`--backend`, or the pin when that is `auto`) | the story | backend |
//! |---|---|---|
//! | `z3` (and the tests' `Symbolic`, `Finite`) | any | Z3 |
//! | `bdd` | bools and enums | BDDs; an int constant is refused by name |
//! | `explicit` | any | explicit worlds within [`Size::Forced`]'s budget, or refused by name |
//! | `auto` | bools and enums whose types allow more than [`AUTO_MAX_FINITE_TYPES`] worlds | explicit worlds within [`Size::Small`]'s budget; else BDDs; else Z3 |
//! | `auto` | any other | explicit worlds within [`Size::Auto`]'s budget; refused for what its events would make ([`AUTO_MAX_EVENT_WORLDS`]) in a story of bools and enums: BDDs, else Z3; refused otherwise: Z3 |
//!
//! Listing the worlds runs out of the run's time: the timeout is the answer (no other
//! backend would have more time). A refusal of a backend asked for by name is a story
//! error at the statement it names (the first one otherwise).
//!
//! (The explicit backend still answers the statements before its bounds hold with a BDD
//! or Z3 backend of its own, `explicit/early.rs`.)

use std::rc::Rc;

use crate::driver::{Driver, Refused, Run};
use crate::explicit::{self, ExplicitBackend, Refusal};
use crate::ir::Program;
use crate::z3::Z3Backend;
use crate::{Options, Strategy, bdd};

/// Bool and enum stories with more worlds than this go to the BDD backend by default
/// (the colour fairies' 9^5 worlds: 9.0 ms listed, 6.4 ms on BDDs, whole processes).
pub(crate) const AUTO_MAX_FINITE_TYPES: u128 = 1 << 12;
/// Auto leaves a story with events to the BDD backend when the listed worlds times each
/// event's cases exceed this (gossip's every pair at n = 4, 16 × 6⁶ = 746 496, stays
/// with explicit worlds in 7 s; the prisoners at n = 5, 1 × 10⁸, take 0.9 s there and
/// 0.03 s on BDDs).
pub(crate) const AUTO_MAX_EVENT_WORLDS: u128 = 1 << 22;

/// How much the explicit backend may list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Size {
    /// Chosen automatically: up to 40 million worlds, 2 million search nodes, 2^25
    /// units of work (a few seconds); a story whose worlds cost more goes to Z3.
    Auto,
    /// Asked for by name: up to 100 million worlds and 50 million search nodes.
    Forced,
    /// Tried first for a story the BDD backend would take: at most 2^14 worlds, found
    /// within 2^14 search nodes and 2^17 units of work (expression nodes looked at: a
    /// measure that does not depend on the machine's load, so the choice is the same on
    /// every run; zebra: 10.7 ms explicit, 36.8 ms on BDDs; planetfall 10.9 and 16.2 ms,
    /// CPU of whole processes).
    Small,
}

/// What the explicit backend may spend listing the worlds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    pub max_worlds: usize,
    pub max_nodes: usize,
    pub max_work: usize,
}

impl Size {
    pub(crate) fn budget(self) -> Budget {
        let (max_worlds, max_nodes, max_work) = match self {
            Size::Auto => (40_000_000, 2_000_000, 1 << 25),
            Size::Forced => (100_000_000, 50_000_000, usize::MAX),
            Size::Small => (1 << 14, 1 << 14, 1 << 17),
        };
        Budget {
            max_worlds,
            max_nodes,
            max_work,
        }
    }
}

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
    let first = program
        .statements
        .first()
        .map(|s| s.span)
        .unwrap_or_default();
    // A refusal because the time ran out (while the explicit backend listed the
    // worlds) answers with the timeout: no other backend would have more time.
    let refused = |r: Refusal| -> Box<dyn Run> {
        Box::new(Refused {
            why: r.why,
            first: r.span.unwrap_or(first),
            timed_out: r.timed_out,
            pinned,
        })
    };
    let z3 = |program: Rc<Program>| -> Box<dyn Run> {
        let backend = Z3Backend::new(program.clone(), options);
        match Driver::new(program, options, backend) {
            Ok(driver) => Box::new(driver),
            Err(e) => refused(Refusal::because(e.to_string())),
        }
    };
    let bdd = |program: Rc<Program>| -> Result<Box<dyn Run>, String> {
        let backend = bdd::BddBackend::new(program.clone(), options)?;
        let driver = Driver::new(program, options, backend).map_err(|e| e.to_string())?;
        Ok(Box::new(driver))
    };
    let explicit = |program: Rc<Program>, size| -> Result<Box<dyn Run>, Refusal> {
        let backend = ExplicitBackend::new(program.clone(), options, size)?;
        let driver =
            Driver::new(program, options, backend).map_err(|e| Refusal::because(e.to_string()))?;
        Ok(Box::new(driver))
    };
    match options.strategy {
        Strategy::Bdd => bdd(program).unwrap_or_else(|why| refused(Refusal::because(why))),
        Strategy::Explicit => explicit(program, Size::Forced).unwrap_or_else(refused),
        Strategy::Auto => {
            let by_types = explicit::finite_type_worlds(&program);
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
