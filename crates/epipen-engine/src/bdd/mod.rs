//! The BDD backend: a story whose constants are bools, enums and ints that the first
//! announcements bound (each int at most `space::MAX_INT_BITS` bits) has finitely many
//! worlds, and every set of worlds is a binary decision diagram over their bits
//! (`space`); another int is refused by name. κ is a BDD, every boolean expression
//! evaluates to one (knowledge operators by quantifying bits, `knowledge`, or by the
//! agent's classes, `classes`), int-valued ones to partitions (`value`) or linear forms
//! over bits (`linear`), and the worlds are read off κ in canonical order (`walk`).
//! Events, belief and plans run here too; probabilities are refused by name. No Z3 call
//! is made. The semantics are the other backends' and the brute-force evaluator's; tests
//! cross-check them (tests/agreement.rs, the fuzzer).

mod classes;
mod diagram;
mod fixed;
mod forget;
mod knowledge;
mod linear;
pub(crate) mod order;
mod set;
mod space;
#[cfg(test)]
mod tests;
mod value;
mod walk;

use std::rc::Rc;
use std::time::Instant;

use diagram::{Bdd, BddValuation, BddVariable};

use super::driver::{
    Backend, Forgetting, Forgotten, Hint, Hints, Learning, Listing, Offers, Origin, Plausibility,
    Recognition, Said, Semantics, Views,
};
use super::{Failure, History, Options};
use crate::ir::{CharId, ConstId, Expr, ExprKind, Program};
use crate::worlds::{Model, Value, World, WorldCount, WorldSet};
pub(crate) use knowledge::State;
use knowledge::{Learned, Learnings, Rank};
use set::Set;
use space::Space;

/// Runs a program's statements over BDDs (through the driver).
pub(super) struct BddBackend {
    program: Rc<Program>,
    space: Space,
    deadline: Option<Instant>,
    cancel: super::Cancel,
    /// The states saved at checkpoints, as the driver has them when it asks for a
    /// formula (`at(c, …)` reads them).
    checkpoints: Vec<Option<Rc<State>>>,
    /// The values of shared expressions (changed constants' terms: knowledge-free, so
    /// the same in every state), each evaluated once; the expression kept alive with it.
    shared: std::cell::RefCell<foldhash::HashMap<*const Expr, (std::sync::Arc<Expr>, value::Val)>>,
    /// Whether the events' histories are forgotten ([`crate::driver::Forgetting`]): the space then
    /// holds each character's observation of each occurrence.
    history: History,
}

impl BddBackend {
    /// A backend for `program`, or why BDDs cannot run it.
    pub(super) fn new(program: Rc<Program>, options: &Options) -> Result<BddBackend, String> {
        let observing = match options.history {
            History::Kept => space::Observations::None,
            History::ForgottenWhereUnread => space::Observations::PerOccurrence,
        };
        let space = Space::new(&program, observing)?;
        Ok(BddBackend {
            history: options.history,
            checkpoints: vec![None; program.checkpoints.len()],
            shared: Default::default(),
            program,
            space,
            deadline: options.deadline,
            cancel: options.cancel.clone(),
        })
    }

    /// The conjunction of `parts`, two by two, while each conjunction stays about as
    /// small as its two operands together and within `limit` nodes; None as soon as one
    /// grows faster. A storyteller's conjunction of many members is then conjoined with
    /// κ once (the dining cryptographers' "at most one paid", n² / 2 members, one by one
    /// into κ, each a walk of κ, took 60 s at n = 800), and one by one into κ where it
    /// alone would be exponential (a definition of bits from bits κ fixes).
    fn conjunction_within(&self, parts: &[Bdd], limit: usize) -> Result<Option<Bdd>, Failure> {
        let mut level: Vec<(Bdd, usize)> = parts.iter().map(|p| (p.clone(), p.size())).collect();
        while level.len() > 1 {
            self.check_deadline()?;
            let mut next = Vec::with_capacity(level.len().div_ceil(2));
            for pair in level.chunks(2) {
                next.push(match pair {
                    [(a, m), (b, n)] => {
                        let both = a.and(b);
                        let size = both.size();
                        if size > limit || size > 2 * (m + n) + 64 {
                            return Ok(None);
                        }
                        (both, size)
                    }
                    [one] => one.clone(),
                    _ => unreachable!("chunks of two"),
                });
            }
            level = next;
        }
        Ok(Some(
            level
                .pop()
                .map_or_else(|| self.space.mk_true(), |(all, _)| all),
        ))
    }

    /// The most nodes the manager has held at once: a clock-free measure of the work.
    #[cfg(test)]
    pub(crate) fn nodes_made(&self) -> usize {
        self.space.nodes_made()
    }

    /// How many nodes the manager has made, those collected since included: the work,
    /// clock-free, where [`Self::nodes_made`] stops at the collector's threshold.
    #[cfg(test)]
    pub(crate) fn nodes_ever(&self) -> u64 {
        self.space.nodes_ever()
    }

    /// `state` with `rank` as `who`'s new most significant plausibility rank.
    fn ranked(&self, state: &Rc<State>, who: CharId, rank: Rank) -> Rc<State> {
        let mut ranks = (*state.ranks).clone();
        ranks[who.0].insert(0, rank);
        State::new(state.kappa.clone(), state.learned.clone(), Rc::new(ranks))
    }

    /// The worlds where the int value `value` is `v`.
    fn value_is(&self, value: &value::Val, v: i64) -> Result<Bdd, Failure> {
        match value {
            value::Val::Int(p) => Ok(p
                .cells()
                .find(|(x, _)| *x == crate::ir::arith::Integer::from(v))
                .map_or_else(|| self.space.mk_false(), |(_, cell)| cell.clone())),
            value::Val::Bool(_) => Err(Failure::Unsupported(
                "internal error: a rank that is a bool".into(),
            )),
        }
    }

    /// The worlds where the enum constant `c` holds the value `v`.
    fn case(&self, c: ConstId, v: i64) -> Bdd {
        self.space
            .enum_partition(c.0)
            .cells()
            .find(|(value, _)| *value == crate::ir::arith::Integer::from(v))
            .map_or_else(|| self.space.mk_false(), |(_, cell)| cell.clone())
    }

    /// ⋁_c (o = c ∧ pres\[c\]) for the occurrence o of `bits` (its case's index in
    /// binary, most significant bit first), the cases whose index starts with the
    /// `depth` bits `prefix`: one walk down o's bits, an if-then-else per bit, so each
    /// precondition is read once and no cell `o = c` is built (a fold over the cases
    /// took one disjunction of κ's size per case).
    fn cases(
        &self,
        bits: &[BddVariable],
        depth: usize,
        prefix: usize,
        first: usize,
        pres: &[Bdd],
    ) -> Bdd {
        let left = bits.len() - depth;
        // The values under this prefix: prefix·2^left up to (prefix + 1)·2^left.
        if prefix << left >= first + pres.len() || (prefix + 1) << left <= first {
            return self.space.mk_false();
        }
        if left == 0 {
            return pres[prefix - first].clone();
        }
        let one = self.cases(bits, depth + 1, 2 * prefix + 1, first, pres);
        let zero = self.cases(bits, depth + 1, 2 * prefix, first, pres);
        Bdd::if_then_else(&self.space.literal(bits[depth], true), &one, &zero)
    }

    fn check_deadline(&self) -> Result<(), Failure> {
        self.cancel.check()?;
        match self.deadline {
            Some(d) if Instant::now() >= d => Err(Failure::Timeout),
            _ => Ok(()),
        }
    }
}

impl Semantics for BddBackend {
    type Set = Set;

    type State = Rc<State>;

    type Point = BddValuation;

    fn formula(
        &mut self,
        e: &Expr,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Set, Failure> {
        self.checkpoints.clear();
        self.checkpoints.extend_from_slice(saved);
        self.set(e, state)
    }

    /// κ ∧ each member of the conjunction in turn: `bool h[2 * n * n]` defined from a
    /// call's outcome (`h[n * n + i * n + k] == (h[i * n + k] or …call == c[i, j]…)`, n = 5)
    /// is a BDD that remembers every h[i * n + k] until the call's bits come last, 2^25
    /// paths, while κ ∧ it, κ fixing h[0..n * n], has a few hundred nodes.
    fn announced_formula(
        &mut self,
        e: &Expr,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Set, Failure> {
        let mut members = Vec::new();
        conjuncts(e, &mut members);
        if members.len() < 2 {
            return self.formula(e, state, saved);
        }
        self.checkpoints.clear();
        self.checkpoints.extend_from_slice(saved);
        // Every member is evaluated, also once κ ∧ … is empty: its errors are the story's.
        let mut parts = Vec::with_capacity(members.len());
        for member in members {
            self.check_deadline()?;
            parts.push(self.bool(member, state)?);
        }
        let limit = 4 * state.kappa.size() + (1 << 14);
        let within = match self.conjunction_within(&parts, limit)? {
            Some(all) => state.kappa.and(&all),
            None => {
                let mut within = state.kappa.clone();
                for part in &parts {
                    self.check_deadline()?;
                    within = within.and(part);
                }
                within
            }
        };
        Ok(Set::Bdd(within))
    }

    fn said(&mut self, agent: CharId, psi: Set, state: &Rc<State>) -> Result<Said<Set>, Failure> {
        // The agent sees whether it knows its own bit.
        if let Set::Whether(w) = &psi
            && w.agent == agent.0
            && Rc::ptr_eq(&w.state, state)
        {
            return Ok(Said::derived(psi));
        }
        let psi = self.force(psi);
        Ok(Said::derived(Set::Bdd(self.said_by(agent, state, psi)?)))
    }

    fn not(&mut self, set: &Set) -> Set {
        set.not()
    }

    fn and(&mut self, first: Set, mut rest: Vec<Set>) -> Set {
        rest.insert(0, first);
        Set::Bdd(self.intersection(rest))
    }

    fn pin(&mut self, phi: &Expr, state: &Rc<State>) -> Result<Option<Vec<World>>, Failure> {
        self.first_two(phi, state).map(Some)
    }

    fn point(&mut self, world: &[Value]) -> Result<BddValuation, Failure> {
        Ok(self.space.valuation(world))
    }

    fn holds(&mut self, set: &Set, point: &BddValuation) -> Result<bool, Failure> {
        Ok(set.holds(point))
    }

    fn formula_holds(
        &mut self,
        e: &Expr,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
        point: &BddValuation,
    ) -> Result<bool, Failure> {
        self.checkpoints.clear();
        self.checkpoints.extend_from_slice(saved);
        self.holds_at(e, state, point)
    }

    fn contains(&mut self, state: &Rc<State>, point: &BddValuation) -> Result<bool, Failure> {
        Ok(state.kappa.eval_in(point))
    }
}

impl Listing for BddBackend {
    /// The number of nodes of κ's BDD.
    fn size(&self, state: &Rc<State>) -> usize {
        state.kappa.size()
    }

    fn known_empty(&self, state: &Rc<State>) -> Option<bool> {
        Some(state.kappa.is_false())
    }

    /// How many worlds are possible (more than 2⁶⁴ − 1 is reported as more than that).
    fn count(&mut self, state: &Rc<State>, _: usize) -> Result<WorldCount, Failure> {
        let count = self.space.count(&state.kappa);
        Ok(match count.and_then(|n| u64::try_from(n).ok()) {
            Some(n) => WorldCount::Exactly(n),
            None => WorldCount::MoreThan(u64::MAX),
        })
    }

    /// The epistemic model when it has at most `cap` worlds. A character's view of a
    /// world is the value (the index of the partition cell) of each thing it learned.
    fn model(&mut self, state: &Rc<State>, cap: usize, _: Views) -> Result<Option<Model>, Failure> {
        // Counted first (one pass over the diagram): a state of too many worlds is not
        // listed up to the cap to find that out.
        if self
            .space
            .count(&state.kappa)
            .is_none_or(|n| n > cap as u128)
        {
            return Ok(None);
        }
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
        let ranks = state
            .ranks
            .iter()
            .map(|own| {
                valuations
                    .iter()
                    .map(|at| {
                        own.iter()
                            .map(|rank| match rank {
                                Rank::Expected(set) => i64::from(!set.eval_in(at)),
                                Rank::Levels(levels) => levels
                                    .iter()
                                    .position(|cell| cell.eval_in(at))
                                    .map_or(-1, |k| k as i64),
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Ok(Some(Model {
            chances: None,
            before: None,
            worlds,
            views,
            ranks,
        }))
    }

    /// Up to `limit` of κ's worlds in canonical order.
    fn worlds(&mut self, state: &Rc<State>, limit: usize) -> Result<WorldSet, Failure> {
        let kappa = self.unobserved(&state.kappa);
        let mut worlds = walk::first_worlds(&self.space, &kappa, limit.saturating_add(1));
        let complete = worlds.len() <= limit;
        worlds.truncate(limit);
        Ok(WorldSet {
            chances: None,
            before: None,
            worlds,
            complete,
        })
    }
}

impl Offers for BddBackend {
    type Fixed = fixed::Fixed;

    /// Only when the run forgets ([`crate::History`]): the program and the command allow
    /// it.
    fn forgetting(&mut self) -> Option<&mut dyn Forgetting<Rc<State>, BddValuation>> {
        match self.history {
            History::ForgottenWhereUnread => Some(self),
            History::Kept => None,
        }
    }

    fn plausibility(&mut self) -> Option<&mut dyn Plausibility<Rc<State>, Set>> {
        Some(self)
    }

    fn hints(&mut self) -> Option<&mut dyn Hints<Rc<State>, Set>> {
        Some(self)
    }

    fn recognition(&mut self) -> Option<&mut dyn Recognition<Rc<State>, fixed::Fixed>> {
        Some(self)
    }
}

impl Backend for BddBackend {
    const NAME: &'static str = "bdd";

    fn initial(&mut self) -> Result<Rc<State>, Failure> {
        // Every occurrence of an event holds its not-yet value until it happens.
        let mut kappa = self.space.domain().clone();
        for occ in self.program.occurrences() {
            let o = self.program.constants[occ.0]
                .occurrence
                .expect("an occurrence");
            let not_yet = self.program.events[o.event.0].not_yet();
            kappa = kappa.and(&self.case(occ, not_yet));
        }
        // When the histories are forgotten, κ leaves every occurrence and observation
        // free (`bdd/forget.rs`).
        if self.history == History::ForgottenWhereUnread {
            kappa = kappa.exists(&self.histories_free().0);
        }
        let characters = self.program.characters.len();
        Ok(State::new(
            kappa,
            Rc::new(
                (0..characters)
                    .map(|_| Rc::new(Learnings::new(Vec::new())))
                    .collect(),
            ),
            Rc::new(vec![Vec::new(); characters]),
        ))
    }

    /// κ := κ ∧ `added`, in a new state (what characters learned is kept).
    fn restrict(&mut self, state: &Rc<State>, added: Set, _: Origin) -> Result<Rc<State>, Failure> {
        Ok(State::new(
            state.kappa.and(&self.force(added)),
            state.learned.clone(),
            state.ranks.clone(),
        ))
    }

    fn learn(
        &mut self,
        state: &Rc<State>,
        who: CharId,
        what: Learning<'_, Set>,
    ) -> Result<Rc<State>, Failure> {
        match what {
            Learning::Value(e) => self.learn_value(state, who, e),
            Learning::Whether(set) => self.learn_whether(state, who, set),
        }
    }

    /// κ' = (∃ occ. κ) ∧ ⋁_c (occ = c ∧ pres\[c\]): κ holds `occ` at its not-yet value
    /// and the preconditions do not read it.
    fn event(
        &mut self,
        state: &Rc<State>,
        occ: ConstId,
        first: usize,
        pres: Vec<Set>,
        _weights: Option<&[Expr]>,
    ) -> Result<Rc<State>, Failure> {
        let pres: Vec<Bdd> = pres.into_iter().map(|p| self.force(p)).collect();
        self.check_deadline()?;
        let bits = self.space.bits_of(&[occ.0]);
        let free = state.kappa.exists(&self.space.cube(&bits));
        let happened = match self.space.kind(occ.0) {
            // One bit per case: the cases' cells, each with its precondition.
            Some(space::Kind::OneHot(_)) => {
                let mut happened = self.space.mk_false();
                for (k, pre) in pres.iter().enumerate() {
                    happened = happened.or(&self.case(occ, (first + k) as i64).and(pre));
                }
                happened.and(&self.space.exactly_one(occ.0))
            }
            _ => self.cases(&bits, 0, 0, first, &pres),
        };
        tracing::trace!(
            kappa = free.size(),
            happened = happened.size(),
            "an event's product"
        );
        Ok(State::new(
            free.and(&happened),
            state.learned.clone(),
            state.ranks.clone(),
        ))
    }
}

impl BddBackend {
    /// `who learns what`: a constant, or the conditions of the expression's values.
    fn learn_value(
        &mut self,
        state: &Rc<State>,
        who: CharId,
        what: &Expr,
    ) -> Result<Rc<State>, Failure> {
        let learned = match what.kind {
            ExprKind::Const(c) => Learned::Const(c.0),
            _ => Learned::Expr(Rc::new(self.eval(what, state)?.cells())),
        };
        let mut all = (*state.learned).clone();
        if let Some(list) = all.get_mut(who.0) {
            let mut items = list.items.clone();
            items.push(learned);
            *list = Rc::new(Learnings::new(items));
        }
        Ok(State::new(
            state.kappa.clone(),
            Rc::new(all),
            state.ranks.clone(),
        ))
    }

    fn learn_whether(
        &mut self,
        state: &Rc<State>,
        who: CharId,
        set: Set,
    ) -> Result<Rc<State>, Failure> {
        let set = self.force(set);
        let mut all = (*state.learned).clone();
        if let Some(list) = all.get_mut(who.0) {
            let mut items = list.items.clone();
            items.push(Learned::Expr(Rc::new(vec![set.not(), set])));
            *list = Rc::new(Learnings::new(items));
        }
        Ok(State::new(
            state.kappa.clone(),
            Rc::new(all),
            state.ranks.clone(),
        ))
    }
}

impl Forgetting<Rc<State>, BddValuation> for BddBackend {
    fn forget(
        &mut self,
        state: &Rc<State>,
        forgotten: &Forgotten<'_>,
        point: Option<&BddValuation>,
    ) -> Result<(Rc<State>, Option<BddValuation>), Failure> {
        self.forget_event(state, forgotten, point)
    }
}

impl Plausibility<Rc<State>, Set> for BddBackend {
    fn upgrade(&mut self, state: &Rc<State>, who: CharId, set: Set) -> Result<Rc<State>, Failure> {
        Ok(self.ranked(state, who, Rank::Expected(self.force(set))))
    }

    fn prefer(
        &mut self,
        state: &Rc<State>,
        who: CharId,
        rank: &Expr,
        levels: usize,
    ) -> Result<Rc<State>, Failure> {
        let value = self.eval(rank, state)?;
        let cells: Vec<Bdd> = (0..levels)
            .map(|v| self.value_is(&value, v as i64))
            .collect::<Result<_, _>>()?;
        Ok(self.ranked(state, who, Rank::Levels(Rc::new(cells))))
    }
}

impl Hints<Rc<State>, Set> for BddBackend {
    fn disagreement(
        &mut self,
        before: &Rc<State>,
        after: &Rc<State>,
        hint: &Set,
    ) -> Result<Option<(World, bool)>, Failure> {
        let hint = self.force(hint.clone());
        // A world of κ_before where κ_after and the hint disagree refutes the hint.
        let disagree = before.kappa.and(&after.kappa.xor(&hint));
        Ok(walk::first_worlds(&self.space, &disagree, 1)
            .pop()
            .map(|world| {
                let kept = after.kappa.eval_in(&self.space.valuation(&world.0));
                (world, kept)
            }))
    }

    fn hinted(
        &mut self,
        before: &Rc<State>,
        hint: Set,
        learned: &Rc<State>,
        how: Hint,
    ) -> Result<Rc<State>, Failure> {
        // Verified, κ_after is κ_before ∧ φ already.
        if how == Hint::Verified {
            return Ok(learned.clone());
        }
        Ok(State::new(
            before.kappa.and(&self.force(hint)),
            learned.learned.clone(),
            learned.ranks.clone(),
        ))
    }
}

impl Recognition<Rc<State>, fixed::Fixed> for BddBackend {
    fn fixed(
        &mut self,
        state: &Rc<State>,
        terms: Option<&[Expr]>,
        steps: &[(ConstId, Vec<i64>)],
    ) -> Result<Option<(u64, fixed::Fixed)>, Failure> {
        self.fix(state, terms, steps)
    }

    fn same_fixed(&mut self, a: &fixed::Fixed, b: &fixed::Fixed) -> Result<bool, Failure> {
        Ok(a == b)
    }
}

/// The members of a conjunction `a and b and …`, left to right.
fn conjuncts<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Logic(crate::ir::LogicOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e),
    }
}

impl BddBackend {
    /// The first two worlds of the types where `phi` holds ([`Semantics::pin`]).
    fn first_two(&mut self, phi: &Expr, state: &Rc<State>) -> Result<Vec<World>, Failure> {
        let allowed = self.unobserved(&self.bool(phi, state)?.and(self.space.domain()));
        // The first two worlds in canonical order: the examples in the error are stable.
        Ok(walk::first_worlds(&self.space, &allowed, 2))
    }
}
