//! What a backend may do beyond the core [`Backend`](super::Backend): each capability a
//! trait of its own, which a backend implements or not and offers through its accessor
//! on [`Offers`] (`None`: it has not got it). The driver asks the accessor where it needs
//! the capability; [`crate::choice`] sends a story that needs one (probabilities) to a
//! backend that offers it, and `each_backend_offers_what_the_choice_table_says` checks
//! the accessors against [`crate::choice::offers`].

use num_rational::BigRational;

use super::{Forgotten, Handover, Quotient, Rebuilt, Semantics, Tables};
use crate::Failure;
use crate::ir::{CharId, ConstId, Expr, Rat};
use crate::worlds::World;

/// What a backend can do besides the core, as [`crate::choice::offers`] names it. The
/// driver asks the accessors; the choice names the capabilities it routes by (and the
/// table's test all of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Capability {
    Probabilities,
    Plausibility,
    Hints,
    Handover,
    Recognition,
    Rebuilding,
    Forgetting,
}

/// Where a set added to κ comes from ([`Backend::restrict`](super::Backend::restrict)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// As the story wrote it (or a set the backend found equal to it).
    Written,
    /// Derived by the engine from knowledge operators: a smaller equivalent may be worth
    /// finding.
    Derived,
}

impl Origin {
    /// The origin of several sets added together: derived when one of them is.
    pub(crate) fn and(self, other: Origin) -> Origin {
        match (self, other) {
            (Origin::Written, Origin::Written) => Origin::Written,
            _ => Origin::Derived,
        }
    }
}

/// Whether a hint's block ran and agreed ([`Hints::hinted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hint {
    /// The block ran and agreed with the hint.
    Verified,
    /// The hint was trusted (`--trust-hints`): the block's announcements did not run.
    Trusted,
}

/// Which capabilities a backend offers: one accessor each, `None` by default.
pub(crate) trait Offers: Semantics {
    /// A state fixed for a plan's search to recognise ([`Recognition::fixed`]).
    type Fixed: Clone;

    /// Weights and probabilities, when the backend keeps them.
    fn probabilities(&mut self) -> Option<&mut dyn Probabilities<Self::State, Self::Point>> {
        None
    }
    /// Plausibility orders (`expects`, an event's ranks).
    fn plausibility(&mut self) -> Option<&mut dyn Plausibility<Self::State, Self::Set>> {
        None
    }
    /// `assert_adds_ck` hints checked and kept small.
    fn hints(&mut self) -> Option<&mut dyn Hints<Self::State, Self::Set>> {
        None
    }
    /// Questions about some states handed over to another backend.
    fn hands_over(&self) -> Option<&dyn HandsOver<Self::State>> {
        None
    }
    /// A plan's search recognising states the backend cannot list.
    fn recognition(&mut self) -> Option<&mut dyn Recognition<Self::State, Self::Fixed>> {
        None
    }
    /// Events whose histories are forgotten, when the backend can and the program and
    /// the command allow it ([`crate::History`]).
    fn forgetting(&mut self) -> Option<&mut dyn Forgetting<Self::State, Self::Point>> {
        None
    }
    /// A plan's search contracting each state and rebuilding it without its history.
    fn rebuilding(&mut self) -> Option<&mut dyn Rebuilding<Self::State, Self::Point>> {
        None
    }
}

/// Weights and exact probabilities (`prior`, a case's `weight`, `probability(…)`).
pub(crate) trait Probabilities<S, P> {
    /// `prior e`: each world of κ now weighs the value of `e` there.
    fn prior(&mut self, state: &S, weight: &Expr) -> Result<S, Failure>;
    /// The storyteller's probability of each of `listed` (worlds of κ in `state`): None
    /// when the story speaks of no chances.
    fn chances(&mut self, state: &S, listed: &[World])
    -> Result<Option<Vec<BigRational>>, Failure>;
    /// The values of the probability term `r` at `at`, or at every world of κ grouped by
    /// value (in the order they first appear in the canonical order), with how many
    /// worlds have each.
    fn amounts(
        &mut self,
        r: &Rat,
        state: &S,
        saved: &[Option<S>],
        at: Option<&P>,
    ) -> Result<Vec<(BigRational, u64)>, Failure>;
}

/// Plausibility orders: `expects` (a radical upgrade) and an event's ranks.
pub(crate) trait Plausibility<S, Set> {
    /// `who` now finds the worlds of `set` more plausible than the others, its old
    /// plausibility deciding inside each part (radical upgrade): `who`'s new most
    /// significant rank is 0 in `set` and 1 elsewhere.
    fn upgrade(&mut self, state: &S, who: CharId, set: Set) -> Result<S, Failure>;
    /// `who`'s new most significant rank is the value of `rank`, an int expression with
    /// values in `0..levels`, lower more plausible: after an event, each case's rank in
    /// `who`'s `expects` line (the action-priority update).
    fn prefer(&mut self, state: &S, who: CharId, rank: &Expr, levels: usize) -> Result<S, Failure>;
}

/// `assert_adds_ck` hints: checked against their block, and kept in their small form.
pub(crate) trait Hints<S, Set> {
    /// A world of κ `before` where κ `after` and `hint` disagree, and whether `after` keeps
    /// it; None when `after` is exactly `before` ∧ `hint`.
    fn disagreement(
        &mut self,
        before: &S,
        after: &S,
        hint: &Set,
    ) -> Result<Option<(World, bool)>, Failure>;
    /// κ `before` ∧ `hint` with what `learned` says characters learned: the state after
    /// a verified or trusted hint.
    fn hinted(&mut self, before: &S, hint: Set, learned: &S, how: Hint) -> Result<S, Failure>;
}

/// Questions about some states handed over to another backend ([`super::Standby`]).
pub(crate) trait HandsOver<S> {
    /// What κ is made of in `state` when the backend hands questions about it over
    /// (`worlds`, `count`, `model`, `is_empty`): the explicit backend before the
    /// announcements that bound its worlds. None: it answers.
    fn handed_over(&self, state: &S) -> Option<Handover>;
}

/// A plan's search recognising states it cannot list (infinite, or too many worlds).
pub(crate) trait Recognition<S, F> {
    /// The state with the constants' `terms` and each step of the plan so far fixed at
    /// its value (`steps`: a step's occurrence and the values it may have), when every
    /// step has one value in every world. The hash is equal for fixed states that may be
    /// the same, [`Recognition::same_fixed`] decides. None: a step's value differs
    /// between worlds.
    fn fixed(
        &mut self,
        state: &S,
        terms: Option<&[Expr]>,
        steps: &[(ConstId, Vec<i64>)],
    ) -> Result<Option<(u64, F)>, Failure>;
    /// Whether two states [`Recognition::fixed`] made have the same worlds (values and
    /// what each character learned).
    fn same_fixed(&mut self, a: &F, b: &F) -> Result<bool, Failure>;
}

/// A plan's search replacing each state by its contraction, rebuilt without its history.
pub(crate) trait Rebuilding<S, P> {
    /// A state of its own with one world per class of `q` (its rows' values, each
    /// character's groups and plausibility), bisimilar to `state`'s contraction, and the
    /// actual class's world in it (None: this state is not rebuilt, the search keeps it
    /// as it is). With `reuse`, a mark ([`Rebuilding::mark`]) after
    /// which nothing the backend made is read again but what this state is rebuilt from
    /// (its rows): the backend may drop it first.
    fn rebuilt(
        &mut self,
        state: &S,
        q: &Quotient,
        reuse: Option<usize>,
    ) -> Result<Rebuilt<S, P>, Failure>;
    /// `state`'s worlds as a plan's search recognises them, in the order the backend
    /// lists them ([`super::Views::Grouped`]), the values of the constants `own` (at
    /// their `terms` when constants changed) read where the backend keeps them, and the
    /// place of the actual world `actual`; None when it has more than `cap` worlds, when
    /// a value leaves the 64-bit integers, or when the backend does not list it itself
    /// (the search lists its model then).
    fn tables(
        &mut self,
        state: &S,
        cap: usize,
        terms: Option<&[Expr]>,
        own: &[usize],
        actual: Option<&P>,
    ) -> Result<Option<Tables>, Failure>;
    /// The worlds at the places `picks` of `state`'s listing ([`Rebuilding::tables`]),
    /// with the values the constants had at the story's start and the steps'
    /// occurrences.
    fn rows(&mut self, state: &S, picks: &[usize]) -> Vec<World>;
    /// Where what the backend makes from now on starts (for [`Rebuilding::drop_since`]).
    fn mark(&self) -> usize;
    /// Drops what the backend made since `mark`: a plan's search read the states made
    /// since for the last time (their successors were met before, or contracted).
    fn drop_since(&mut self, mark: usize);
}

/// Events whose histories are forgotten (docs/encoding.md, "Forgetting histories").
pub(crate) trait Forgetting<S, P> {
    /// Forgets the history of the event that just happened in `state` (the product,
    /// before the characters learned what they saw): the state over the constants'
    /// current values and what each character observed of each event, the occurrence
    /// back at its not-yet value; with the actual world's `point` (the world before
    /// the event) moved along.
    fn forget(
        &mut self,
        state: &S,
        forgotten: &Forgotten<'_>,
        point: Option<&P>,
    ) -> Result<(S, Option<P>), Failure>;
}
