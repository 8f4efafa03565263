//! Actions: `do` (declared actions executed as events) and `plan` (a breadth-first
//! search for a shortest sequence of executable actions after which a goal holds), the
//! same for every backend.
//!
//! A search state is what the driver carries between statements (κ with what characters
//! learned, the constants' terms, the actual world), executed on with the driver's own
//! event code: the step at depth d records its case in the d-th occurrence constant of
//! [`crate::ir::PlanSteps`], whose values are every action's cases. Two states are the
//! same to the search when their models are bisimilar (the worlds' current values, each
//! character's indistinguishability, the actual world): [`Frame::key`] is the canonical
//! form of the bisimulation contraction, computed from the model the backend lists, so
//! that a state reached again (or left as it was by an action) is not expanded twice. On a
//! backend that rebuilds states (the explicit one), each state met for the first time is
//! replaced by that contraction, without its history ([`super::contract`]), and
//! recognised by it; that backend lists the state's [`Tables`] itself (its columns and
//! groups), and the values of the worlds a contraction keeps are read only for the states
//! kept.

use std::rc::Rc;

use super::contract::Quotient;
use super::event::Product;
use super::frame::{Frame, Tables};
use super::{Backend, Driver, Origin, Views};
use crate::ir::{ActionDef, ActionId, ConstId, DoStep, Expr, ExprKind, PlanStmt};
use crate::syntax::Span;
use crate::worlds::{Model, Value, World};
use crate::{At, EngineError, Failure, FastMap, Report};

/// The most worlds a coordinated plan's check lists of a state (it asks each owner's
/// knowledge world by world).
const KEY_CAP: usize = 1 << 14;

/// What a plan passes through, as the driver holds it: κ, the constants' terms, and the
/// actual world's values (None: the story has none).
struct Snapshot<B: Backend> {
    state: B::State,
    terms: Option<Rc<Vec<Expr>>>,
    actual: Option<(Vec<Value>, B::Point)>,
}

impl<B: Backend> Clone for Snapshot<B> {
    fn clone(&self) -> Self {
        Snapshot {
            state: self.state.clone(),
            terms: self.terms.clone(),
            actual: self.actual.clone(),
        }
    }
}

/// A step of a plan followed (`Driver::follow`): the action, the model after it (None:
/// too many worlds) and the actual world then (None: the story has none).
#[derive(Debug, Clone)]
pub struct Followed {
    pub action: ActionId,
    pub model: Option<Model>,
    pub actual: Option<World>,
}

/// A node of the search: the states a plan may be in after its actions (one per way
/// the cases possible at the actual world fell), and how it was reached.
struct Node<B: Backend> {
    branches: Vec<Snapshot<B>>,
    /// (index in the previous layer, action) of every way to reach it at this depth, the
    /// first the least in the order of plans.
    parents: Vec<(usize, ActionId)>,
}

impl<B: Backend> Driver<B> {
    /// `do a, b: CASE, …`: each action in turn, as an `event` statement, after checking
    /// that it can be done.
    pub(super) fn do_actions(
        &mut self,
        steps: &[DoStep],
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        let program = self.program.clone();
        for step in steps {
            self.check_deadline().at(step.span)?;
            let action = &program.actions[step.action.0];
            if let Err(why) = self.executable(step.span, action)? {
                return Err(Failure::not_executable(&action.name, why)).at(step.span);
            }
            self.event(step.span, &step.event, sink)?;
        }
        Ok(())
    }

    /// Where each of `action`'s cases can happen in the current state, or why the
    /// action cannot be done there. Its condition comes first: an action whose condition
    /// fails is not done, and its cases' preconditions are not evaluated (they may be
    /// undefined there, e.g. divide by a probability of 0), as the textbook reads it.
    fn executable(
        &mut self,
        span: Span,
        action: &ActionDef,
    ) -> Result<Result<Vec<B::Set>, &'static str>, EngineError> {
        let state = self.state.clone();
        if let Some(guard) = &action.guard
            && !self.everywhere(span, guard)?
        {
            // An event its cases name must have happened all the same: a name is an
            // error wherever it stands (only values are not computed).
            for case in &action.body.cases {
                if let Some(pre) = &case.pre {
                    self.now(pre).at(span)?;
                }
            }
            return Ok(Err(match self.actual {
                Some(_) => "its condition does not hold in the actual world",
                None => "its condition does not hold in every world still possible",
            }));
        }
        let pres = self.preconditions(span, &action.body, &state)?;
        let possible = match &self.actual {
            Some((_, point)) => {
                let mut any = false;
                for pre in &pres {
                    if self.backend.holds(pre, point).at(span)? {
                        any = true;
                        break;
                    }
                }
                any
            }
            None => {
                let mut none = Vec::with_capacity(pres.len());
                for pre in &pres {
                    none.push(self.backend.not(pre));
                }
                let first = none.pop().expect("an action has a case");
                let nowhere = self.backend.and(first, none);
                let left = (self.backend)
                    .restrict(&state, nowhere, Origin::Written)
                    .at(span)?;
                self.is_empty_of(&left).at(span)?
            }
        };
        Ok(match possible {
            true => Ok(pres),
            false => Err(match self.actual {
                Some(_) => "none of its cases can happen in the actual world",
                None => "none of its cases can happen in some world still possible",
            }),
        })
    }

    /// Whether `action` can be done at every one of `branches` (its condition, then one
    /// of its cases possible there), doing it in none.
    fn executable_everywhere(
        &mut self,
        span: Span,
        branches: &[Snapshot<B>],
        action: ActionId,
    ) -> Result<bool, EngineError> {
        if branches.len() < 2 {
            return Ok(true);
        }
        let program = self.program.clone();
        let def = &program.actions[action.0];
        for b in branches {
            self.enter(b);
            if self.executable(span, def)?.is_err() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether `e` holds as a goal does: at the actual world, or without one at every
    /// world still possible.
    fn everywhere(&mut self, span: Span, e: &Expr) -> Result<bool, EngineError> {
        let state = self.state.clone();
        if self.actual.is_some() {
            return self.actual_holds(e, &state, "a plan").at(span);
        }
        let set = self.formula(e, &state).at(span)?;
        let not = self.backend.not(&set);
        let failing = (self.backend)
            .restrict(&state, not, Origin::Written)
            .at(span)?;
        self.is_empty_of(&failing).at(span)
    }

    fn snapshot(&self) -> Snapshot<B> {
        Snapshot {
            state: self.state.clone(),
            terms: self.terms.clone(),
            actual: self.actual.clone(),
        }
    }

    /// Makes `snap` the driver's state.
    fn enter(&mut self, snap: &Snapshot<B>) {
        self.state = snap.state.clone();
        self.terms = snap.terms.clone();
        self.actual = snap.actual.clone();
        self.generation += 1;
    }

    /// The states after `action` at depth `depth` from `from`, one per case possible at
    /// the actual world (one in all without an actual world), each where `keeping`
    /// holds; None when the action cannot be done there or a branch breaks `keeping`.
    fn successors(
        &mut self,
        span: Span,
        from: &Snapshot<B>,
        action: ActionId,
        depth: usize,
        keeping: Option<&Expr>,
    ) -> Result<Option<Vec<Snapshot<B>>>, EngineError> {
        let steps = (self.program.plan_steps.as_ref())
            .ok_or_else(|| Failure::internal("a plan without the search's steps"))
            .at(span)?;
        let occ = *steps
            .occurrences
            .get(depth)
            .ok_or_else(|| Failure::internal("a plan deeper than the search's steps"))
            .at(span)?;
        let program = self.program.clone();
        let def = &program.actions[action.0];
        self.enter(from);
        let Ok(pres) = self.executable(span, def)? else {
            return Ok(None);
        };
        let cases: Vec<Option<usize>> = match &self.actual {
            None => vec![None],
            Some((_, point)) => {
                let mut possible = Vec::new();
                for (k, pre) in pres.iter().enumerate() {
                    if self.backend.holds(pre, point).at(span)? {
                        possible.push(Some(k));
                    }
                }
                possible
            }
        };
        let changes = self.changes(span, &def.body, occ, def.offset)?;
        let product: Product<B> = self.product(span, &def.body, occ, def.offset, pres, changes)?;
        let mut out = Vec::with_capacity(cases.len());
        // Each case commits a copy of the product, the last one the product itself.
        let mut products: Vec<Product<B>> = (1..cases.len()).map(|_| product.clone()).collect();
        products.push(product);
        for (case, product) in cases.into_iter().zip(products) {
            self.enter(from);
            self.commit(span, product, occ, def.offset, case)?;
            if let Some(psi) = keeping
                && !self.everywhere(span, psi)?
            {
                return Ok(None);
            }
            out.push(self.snapshot());
        }
        Ok(Some(out))
    }

    /// `plan` done from the current state (a `plan` statement's, which leaves it as it
    /// was), each action at the first of its cases that can happen at the actual world:
    /// after each, the model (None beyond `cap` worlds, its worlds as the story names
    /// them then) and the actual world. The state is left as it was.
    pub(super) fn follow(
        &mut self,
        plan: &[ActionId],
        cap: usize,
    ) -> Result<Vec<Followed>, EngineError> {
        let span = Span::default();
        let start = self.snapshot();
        let happened = self.happened.clone();
        let mut out = Vec::with_capacity(plan.len());
        let mut at = start.clone();
        let mut run = || -> Result<(), EngineError> {
            for (depth, &action) in plan.iter().enumerate() {
                let Some(next) = self.successors(span, &at, action, depth, None)? else {
                    let name = &self.program.actions[action.0].name;
                    return Err(Failure::not_executable(
                        name,
                        "the steps before it leave it impossible",
                    ))
                    .at(span);
                };
                at = next.into_iter().next().expect("a branch");
                self.enter(&at);
                let state = self.state.clone();
                let model = match self.model_of(&state, cap, Views::Observed).at(span)? {
                    Some(m) => Some(self.named(m).at(span)?),
                    None => None,
                };
                let actual = match &at.actual {
                    Some((w, _)) => Some(self.shown(&World(w.clone())).at(span)?),
                    None => None,
                };
                out.push(Followed {
                    action,
                    model,
                    actual,
                });
            }
            Ok(())
        };
        let done = run();
        self.happened = happened;
        self.enter(&start);
        self.forget_caches();
        done.map(|()| out)
    }

    /// Whether the goal holds in every branch.
    fn reached(
        &mut self,
        span: Span,
        branches: &[Snapshot<B>],
        goal: &Expr,
    ) -> Result<bool, EngineError> {
        for b in branches {
            self.enter(b);
            if !self.everywhere(span, goal)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// How the search recognises the state of `branches`: the canonical form of their
    /// models up to bisimulation, or, when one branch's model is not listed (infinite,
    /// or too many worlds), the state the backend fixes (a single branch; `path` gives
    /// the actions that led to it, asked only then). None: it is not recognised. With
    /// `contract`, each listed branch's contraction too ([`Quotient`]; none when a
    /// branch is not listed).
    fn node_key(
        &mut self,
        span: Span,
        branches: &[Snapshot<B>],
        path: &dyn Fn() -> Vec<ActionId>,
        contract: bool,
    ) -> Result<Option<Keyed<B::Fixed>>, EngineError> {
        let mut keys = Vec::with_capacity(branches.len());
        let mut quotients = Vec::new();
        // The story's own constants (the steps' occurrences left out).
        let own = self.own_constants();
        for b in branches {
            self.enter(b);
            let state = self.state.clone();
            let tables = match contract {
                true => self.tables(&state, b, &own).at(span)?,
                false => None,
            };
            let (frame, actual, rows) = match tables {
                Some(mut t) => {
                    let rows = Rows::Own(std::mem::take(&mut t.own));
                    let frame = Frame::of_tables(&t, |w, sig| rows.own_numbers(w, &own, sig));
                    (frame, t.actual, rows)
                }
                None => {
                    let listed = match self.options.plan_states {
                        crate::PlanStates::Listed => {
                            let cap = B::LISTING_CAP;
                            self.model_of(&state, cap, Views::Grouped).at(span)?
                        }
                        crate::PlanStates::Fixed => None,
                    };
                    let Some(model) = listed else {
                        return match branches {
                            [_] => Ok(self.fixed_key(span, b, &path())?.map(|k| (k, Vec::new()))),
                            _ => Ok(None),
                        };
                    };
                    let shown: Vec<World> = (model.worlds.iter())
                        .map(|w| self.shown(w))
                        .collect::<Result<_, _>>()
                        .at(span)?;
                    let rows = Rows::Shown(shown);
                    let frame = Frame::of_model(&model, |w, sig| rows.own_numbers(w, &own, sig));
                    let actual = b.actual.as_ref().and_then(|(a, _)| {
                        (model.worlds.iter()).position(|w| w.0.as_slice() == a.as_slice())
                    });
                    (frame, actual, rows)
                }
            };
            if contract {
                // Recognised by the contraction's own form (the classes the actual world
                // reaches), as the states made from it are: the model's classes need
                // not be numbered canonically.
                let labels = frame.refine();
                let believed = self.options.plan_believed;
                let (q, reps) = frame.quotient(&labels, actual, believed);
                let of_q = Frame::of_quotient(&q, reps.len(), |c, sig| {
                    rows.own_numbers(reps[c], &own, sig)
                });
                keys.push(of_q.key(q.actual));
                quotients.push(Pending { q, reps, rows });
            } else {
                keys.push(frame.key(actual));
            }
        }
        keys.sort();
        keys.dedup();
        let mut flat = Vec::new();
        for k in keys {
            packed(k.len() as i64, &mut flat);
            for x in k {
                packed(x, &mut flat);
            }
        }
        Ok(Some((StateKey::Listed(Rc::from(flat)), quotients)))
    }

    /// The story's own constants: all but the steps' occurrences.
    pub(super) fn own_constants(&self) -> Vec<usize> {
        (self.program.constants.iter().enumerate())
            .filter(|(_, c)| c.occurrence.is_none())
            .map(|(k, _)| k)
            .collect()
    }

    /// The [`Tables`] of the branch `b` (entered: its state is `state`) from a backend
    /// that rebuilds states and lists them itself; None when it does not (the search
    /// lists the model then).
    fn tables(
        &mut self,
        state: &B::State,
        b: &Snapshot<B>,
        own: &[usize],
    ) -> Result<Option<Tables>, Failure> {
        if self.options.plan_states != crate::PlanStates::Listed || self.handover(state).is_some() {
            return Ok(None);
        }
        let terms = self.terms.clone();
        let actual = b.actual.as_ref().map(|(_, p)| p);
        match self.backend.rebuilding() {
            Some(r) => r.tables(
                state,
                B::LISTING_CAP,
                terms.as_deref().map(Vec::as_slice),
                own,
                actual,
            ),
            None => Ok(None),
        }
    }

    /// Each branch replaced by its contraction (all as they were without contractions).
    /// `mark`: where what the backend made for these branches starts, which a single
    /// branch's contraction may take the place of.
    fn contract_all(
        &mut self,
        span: Span,
        branches: Vec<Snapshot<B>>,
        quotients: Vec<Pending>,
        mark: Option<usize>,
    ) -> Result<Vec<Snapshot<B>>, EngineError> {
        if quotients.len() != branches.len() {
            return Ok(branches);
        }
        let reuse = mark.filter(|_| branches.len() == 1);
        (branches.into_iter().zip(quotients))
            .map(|(b, q)| self.contracted(span, b, q, reuse))
            .collect()
    }

    /// `b` replaced by its contraction (`pending`) rebuilt by the backend (as it was when
    /// the backend does not rebuild states).
    fn contracted(
        &mut self,
        span: Span,
        b: Snapshot<B>,
        pending: Pending,
        reuse: Option<usize>,
    ) -> Result<Snapshot<B>, EngineError> {
        let Pending { mut q, reps, rows } = pending;
        q.rows = match rows {
            Rows::Shown(mut shown) => (reps.into_iter())
                .map(|w| std::mem::take(&mut shown[w].0))
                .collect(),
            Rows::Own(values) => {
                // The steps' occurrences as the backend lists them (no change reads or
                // writes them), the story's own constants at their current values.
                let rows = match self.backend.rebuilding() {
                    Some(r) => r.rows(&b.state, &reps),
                    None => Vec::new(),
                };
                with_own_values(rows, &values, &self.own_constants(), &reps)
            }
        };
        let Some(&first) = (self.program.plan_steps.as_ref()).and_then(|s| s.occurrences.first())
        else {
            return Ok(b);
        };
        // The first step's occurrence tells the classes apart: no formula reads it once
        // the constants hold their current values. Negative, so that no world of the
        // story (whose steps are cases or not yet) has the values of one of these.
        for (k, row) in q.rows.iter_mut().enumerate() {
            row[first.0] = Value::Int(-(k as i64) - 1);
        }
        let actual = match (&b.actual, q.actual) {
            (None, _) => None,
            (Some(_), Some(a)) => Some(q.rows[a].clone()),
            (Some(_), None) => return Ok(b),
        };
        let rebuilt = match self.backend.rebuilding() {
            Some(r) => r.rebuilt(&b.state, &q, reuse).at(span)?,
            None => None,
        };
        let Some((state, point)) = rebuilt else {
            tracing::debug!("plan: a state not rebuilt");
            return Ok(b);
        };
        tracing::trace!(
            before = self.backend.size(&b.state),
            after = q.rows.len(),
            "plan: a state contracted"
        );
        let actual = match (actual, point) {
            (Some(world), Some(point)) => Some((world, point)),
            (None, _) => None,
            (Some(_), None) => {
                return Err(Failure::internal(
                    "a rebuilt state without its actual world",
                ))
                .at(span);
            }
        };
        Ok(Snapshot {
            state,
            terms: None,
            actual,
        })
    }

    /// The state of `b` as the backend fixes it, each step of `path` at the one case it
    /// took in every world and the steps to come at their not-yet value.
    fn fixed_key(
        &mut self,
        span: Span,
        b: &Snapshot<B>,
        path: &[ActionId],
    ) -> Result<Option<StateKey<B::Fixed>>, EngineError> {
        let Some(plan_steps) = &self.program.plan_steps else {
            return Ok(None);
        };
        let not_yet = self.program.events[plan_steps.event.0].not_yet();
        let steps: Vec<(ConstId, Vec<i64>)> = (plan_steps.occurrences.iter().enumerate())
            .map(|(d, &occ)| {
                let values = match path.get(d) {
                    Some(a) => {
                        let def = &self.program.actions[a.0];
                        let cases = def.offset..def.offset + def.body.cases.len();
                        cases.map(|c| c as i64).collect()
                    }
                    None => vec![not_yet],
                };
                (occ, values)
            })
            .collect();
        let terms = b.terms.clone();
        let Some(recognition) = self.backend.recognition() else {
            return Ok(None);
        };
        let fixed = recognition
            .fixed(&b.state, terms.as_ref().map(|t| t.as_slice()), &steps)
            .at(span)?;
        Ok(fixed.map(|(hash, f)| StateKey::Fixed(hash, f)))
    }

    /// The value `met` gives a state recognised as `key`'s.
    fn find<T: Copy>(
        &mut self,
        span: Span,
        met: &Met<B::Fixed, T>,
        key: &StateKey<B::Fixed>,
    ) -> Result<Option<T>, EngineError> {
        match key {
            StateKey::Listed(k) => Ok(met.listed.get(&**k).copied()),
            StateKey::Fixed(hash, f) => {
                for (other, value) in met.fixed.get(hash).into_iter().flatten() {
                    let same = match self.backend.recognition() {
                        Some(r) => r.same_fixed(f, other).at(span)?,
                        None => false,
                    };
                    if same {
                        return Ok(Some(*value));
                    }
                }
                Ok(None)
            }
        }
    }

    /// `plan …`: a question; the story goes on from the state before it.
    pub(super) fn plan(
        &mut self,
        span: Span,
        plan: &PlanStmt,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        // Names in the goal and the invariant are checked where the plan stands, whether
        // or not the search reads them (an event named before it happened).
        self.now(&plan.goal).at(span)?;
        if let Some(psi) = &plan.keeping {
            self.now(psi).at(span)?;
        }
        let start = self.snapshot();
        let happened = self.happened.clone();
        let found = self.search(span, plan, &start);
        self.happened = happened;
        self.enter(&start);
        self.forget_caches();
        let plans = found?;
        sink(Report::Plan {
            span,
            max: plan.max,
            plans,
        });
        Ok(())
    }

    /// The plans of the shortest length (the first one, or with `all` every one).
    fn search(
        &mut self,
        span: Span,
        plan: &PlanStmt,
        start: &Snapshot<B>,
    ) -> Result<Vec<Vec<ActionId>>, EngineError> {
        if let Some(name) = self.unrecognisable(plan) {
            tracing::debug!("plan: states are not compared ({name})");
        }
        let compare = self.unrecognisable(plan).is_none();
        // States replaced by their contractions after each step (a coordinated plan asks
        // about the worlds of each state as the steps made them).
        let contract = compare && !plan.coordinated && self.backend.rebuilding().is_some();
        let mut root = vec![start.clone()];
        if self.reached(span, &root, &plan.goal)? {
            // The empty plan: coordinated too (reaches([]) is φ).
            return Ok(vec![Vec::new()]);
        }
        let mut seen: Met<B::Fixed, ()> = Met::default();
        if compare && let Some((k, quotients)) = self.node_key(span, &root, &Vec::new, contract)? {
            seen.insert(k, ());
            root = self.contract_all(span, root, quotients, None)?;
        }
        let literals: Vec<Option<Vec<(usize, bool)>>> =
            (self.program.actions.iter()).map(guard_literals).collect();
        let mut layers: Vec<Vec<Node<B>>> = vec![vec![Node {
            branches: root,
            parents: Vec::new(),
        }]];
        for depth in 0..plan.max {
            let mut next: Vec<Node<B>> = Vec::new();
            let mut here: Met<B::Fixed, usize> = Met::default();
            let mut goals = Vec::new();
            let layer = layers.last().expect("a layer");
            'layer: for (i, node) in layer.iter().enumerate() {
                self.check_deadline().at(span)?;
                self.forget_caches();
                for &action in &plan.actions {
                    if let Some(lits) = &literals[action.0]
                        && node.branches.iter().any(|b| fails_at_actual(lits, b))
                    {
                        continue;
                    }
                    // Executable at every branch before it is done at any: a sequence
                    // one branch cannot follow is no plan, and doing it in the others
                    // would meet what it meets there (an error) for nothing.
                    if !self.executable_everywhere(span, &node.branches, action)? {
                        continue;
                    }
                    // What the backend makes for this action's states starts here: it is
                    // dropped when they are met before (a contraction takes its place).
                    let mark = match contract {
                        true => self.backend.rebuilding().map(|r| r.mark()),
                        false => None,
                    };
                    let drop = |driver: &mut Self| {
                        if let Some(m) = mark
                            && let Some(r) = driver.backend.rebuilding()
                        {
                            r.drop_since(m);
                        }
                    };
                    let mut branches = Vec::new();
                    let mut executable = true;
                    for b in &node.branches {
                        match self.successors(span, b, action, depth, plan.keeping.as_ref())? {
                            Some(more) => branches.extend(more),
                            None => {
                                executable = false;
                                break;
                            }
                        }
                    }
                    if !executable {
                        drop(self);
                        continue;
                    }
                    // The last layer is never expanded: its states need not be recognised.
                    let key = match compare && depth + 1 < plan.max {
                        true => {
                            let path = || {
                                let mut path = first_path(&layers, depth, i);
                                path.push(action);
                                path
                            };
                            self.node_key(span, &branches, &path, contract)?
                        }
                        false => None,
                    };
                    if let Some((k, quotients)) = key {
                        if let Some(at) = self.find(span, &here, &k)? {
                            next[at].parents.push((i, action));
                            drop(self);
                            continue;
                        }
                        // Seen at an earlier depth: a shortest plan never passes it again
                        // (a coordinated one may: its owners' knowledge of the rest
                        // decides, not the state alone).
                        let earlier = self.find(span, &seen, &k)?.is_some();
                        if earlier && !plan.coordinated {
                            drop(self);
                            continue;
                        }
                        if !earlier {
                            seen.insert(k.clone(), ());
                        }
                        here.insert(k, next.len());
                        branches = self.contract_all(span, branches, quotients, mark)?;
                    }
                    // A state reached first here: the least plan to it is its first
                    // parent's and this action, and a plain plan is the first found.
                    let goal = match plan.coordinated {
                        true => false,
                        false => self.reached(span, &branches, &plan.goal)?,
                    };
                    if depth + 1 == plan.max {
                        // The last layer's states are never entered again.
                        drop(self);
                    }
                    next.push(Node {
                        branches,
                        parents: vec![(i, action)],
                    });
                    if goal {
                        goals.push(next.len() - 1);
                        if !plan.all {
                            break 'layer;
                        }
                    }
                }
            }
            tracing::info!(
                depth = depth + 1,
                states = next.len(),
                recognised = seen.len(),
                "plan: searched"
            );
            if plan.coordinated {
                for (k, node) in next.iter().enumerate() {
                    if self.reached(span, &node.branches, &plan.goal)? {
                        goals.push(k);
                    }
                }
            }
            layers.push(next);
            // The layer just expanded is never entered again: its nodes keep how they
            // were reached (for the plans' paths), not their states.
            if let Some(done) = layers.len().checked_sub(2).and_then(|k| layers.get_mut(k)) {
                for node in done.iter_mut() {
                    node.branches = Vec::new();
                }
            }
            if goals.is_empty() {
                if layers.last().is_some_and(Vec::is_empty) {
                    break;
                }
                continue;
            }
            let every = plan.all || plan.coordinated;
            let mut plans = Vec::new();
            for k in goals {
                paths(
                    &layers,
                    layers.len() - 1,
                    k,
                    every,
                    &mut Vec::new(),
                    &mut plans,
                );
            }
            plans.sort();
            plans.dedup();
            if plan.coordinated {
                let mut kept = Vec::new();
                for p in plans {
                    if self.coordinated_from(span, start, &p, plan)? {
                        kept.push(p);
                        if !plan.all {
                            break;
                        }
                    }
                }
                plans = kept;
                if plans.is_empty() {
                    continue;
                }
            }
            if !plan.all {
                plans.truncate(1);
            }
            return Ok(plans);
        }
        Ok(Vec::new())
    }

    /// Drops what the driver and the backend cached for the expressions evaluated so
    /// far: the search evaluates the same expressions in every state it passes, each time
    /// substituted anew, and keeping them all would grow with the search.
    fn forget_caches(&mut self) {
        self.backend.statement_done();
        self.substituted.clear();
    }

    /// Why states cannot be compared by their models for this plan: a formula that
    /// reads the history (`at(c, …)`, an event's latest case) — None when they can.
    fn unrecognisable(&self, plan: &PlanStmt) -> Option<&'static str> {
        let mut reads = None;
        let mut look = |e: &Expr| {
            let _ = e.walk(&mut |x| {
                match x.kind {
                    ExprKind::At { .. } => reads = Some("a formula reads a checkpoint"),
                    ExprKind::Latest(_) => reads = Some("a formula names an event's case"),
                    _ => {}
                }
                Ok::<(), ()>(())
            });
        };
        look(&plan.goal);
        if let Some(k) = &plan.keeping {
            look(k);
        }
        for a in &plan.actions {
            let def = &self.program.actions[a.0];
            let _ = def.each_expr(&mut |e| {
                look(e);
                Ok::<(), ()>(())
            });
        }
        // Beliefs are compared: a world's plausibility for each character is part of
        // its label in [`Frame::key`] (the order, not the history that made it).
        if self.chances {
            return Some("the story has chances");
        }
        reads
    }

    /// Whether `p` is implicitly coordinated from `start`: reaches(p) holds at the
    /// actual world, or without one at every world still possible.
    fn coordinated_from(
        &mut self,
        span: Span,
        start: &Snapshot<B>,
        p: &[ActionId],
        plan: &PlanStmt,
    ) -> Result<bool, EngineError> {
        let unpointed = Snapshot {
            actual: None,
            ..start.clone()
        };
        let worlds = match &start.actual {
            Some((w, _)) => vec![w.clone()],
            None => {
                self.enter(&unpointed);
                let model = self.listed_model(span)?;
                model.worlds.into_iter().map(|w| w.0).collect()
            }
        };
        self.reaches(span, &unpointed, worlds, p, 0, plan)
    }

    /// Whether reaches(rest) holds at every world of `worlds` (their values) in `at`'s
    /// state, the plan's first `depth` actions done: reaches([]) = φ; reaches((A, a) :
    /// rest) = K_A(⟨a⟩⊤ ∧ \[a\](ψ ∧ reaches(rest))). The product of a state by an action is
    /// the same whichever world is actual, so each step is made once for all the worlds
    /// asked about: those of the owner's classes of `worlds`, then their successors.
    fn reaches(
        &mut self,
        span: Span,
        at: &Snapshot<B>,
        worlds: Vec<Vec<Value>>,
        rest: &[ActionId],
        depth: usize,
        plan: &PlanStmt,
    ) -> Result<bool, EngineError> {
        self.check_deadline().at(span)?;
        self.enter(at);
        let state = self.state.clone();
        let Some((&action, after)) = rest.split_first() else {
            return self.holds_at_each(span, &plan.goal, &state, &worlds);
        };
        let program = self.program.clone();
        let def = &program.actions[action.0];
        let owner = (def.owner)
            .ok_or_else(|| Failure::internal("a coordinated plan's action without an owner"))
            .at(span)?;
        // The worlds the owner cannot tell from those asked about.
        let model = self.listed_model(span)?;
        let views: Vec<&Vec<Value>> = (worlds.iter())
            .map(|w| {
                let k = (model.worlds.iter()).position(|m| &m.0 == w);
                k.map(|k| &model.views[owner.0][k])
                    .ok_or_else(|| Failure::internal("a world asked about is not among κ's"))
                    .at(span)
            })
            .collect::<Result<_, _>>()?;
        let class: Vec<Vec<Value>> = (model.worlds.iter().zip(&model.views[owner.0]))
            .filter(|(_, v)| views.contains(v))
            .map(|(w, _)| w.0.clone())
            .collect();
        // Executable at each: the guard, and the cases that can happen there.
        let guard = match &def.guard {
            Some(g) => Some(self.formula(g, &state).at(span)?),
            None => None,
        };
        let pres = self.preconditions(span, &def.body, &state)?;
        let mut cases = Vec::with_capacity(class.len());
        for w in &class {
            let point = self.point_of(span, &state, w)?;
            if let Some(g) = &guard
                && !self.backend.holds(g, &point).at(span)?
            {
                return Ok(false);
            }
            let mut here = Vec::new();
            for (k, pre) in pres.iter().enumerate() {
                if self.backend.holds(pre, &point).at(span)? {
                    here.push(k);
                }
            }
            if here.is_empty() {
                return Ok(false);
            }
            cases.push(here);
        }
        // The step, once; the worlds after it.
        let steps = (program.plan_steps.as_ref())
            .ok_or_else(|| Failure::internal("a plan without the search's steps"))
            .at(span)?;
        let occ = steps.occurrences[depth];
        let changes = self.changes(span, &def.body, occ, def.offset)?;
        let product = self.product(span, &def.body, occ, def.offset, pres, changes)?;
        self.commit(span, product, occ, def.offset, None)?;
        let next = self.snapshot();
        let mut after_worlds = Vec::new();
        for (w, here) in class.iter().zip(&cases) {
            for &k in here {
                let mut v = w.clone();
                v[occ.0] = Value::Int((def.offset + k) as i64);
                after_worlds.push(v);
            }
        }
        if let Some(psi) = &plan.keeping
            && !self.holds_at_each(span, psi, &next.state, &after_worlds)?
        {
            return Ok(false);
        }
        self.reaches(span, &next, after_worlds, after, depth + 1, plan)
    }

    /// Whether `e` holds at each of `worlds` (their values) in `state`.
    fn holds_at_each(
        &mut self,
        span: Span,
        e: &Expr,
        state: &B::State,
        worlds: &[Vec<Value>],
    ) -> Result<bool, EngineError> {
        let set = self.formula(e, state).at(span)?;
        for w in worlds {
            let point = self.point_of(span, state, w)?;
            if !self.backend.holds(&set, &point).at(span)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The world of `state` with these values, in the backend's form.
    fn point_of(
        &mut self,
        span: Span,
        state: &B::State,
        world: &[Value],
    ) -> Result<B::Point, EngineError> {
        (self.backend.point_in(state, world).at(span)?)
            .ok_or_else(|| Failure::internal("a world of the model is not among κ's worlds"))
            .at(span)
    }

    /// The current state's model, for a coordinated plan (which asks what owners know
    /// world by world).
    fn listed_model(&mut self, span: Span) -> Result<Model, EngineError> {
        let state = self.state.clone();
        self.model_of(&state, KEY_CAP, Views::Observed)
            .at(span)?
            .ok_or_else(|| Failure::coordinated_too_large(KEY_CAP))
            .at(span)
    }
}

/// A state's key, and its branches' contractions ([`Driver::node_key`]).
type Keyed<F> = (StateKey<F>, Vec<Pending>);

/// A branch's contraction before its rows are written (a state recognised as one met
/// before is dropped without them): the listed worlds each class stands for, and
/// their values.
struct Pending {
    q: Quotient,
    reps: Vec<usize>,
    rows: Rows,
}

/// The values of a state's listed worlds, as a plan's search read them.
enum Rows {
    /// Each world's values, as the story now names them.
    Shown(Vec<World>),
    /// Each world's values of the story's own constants ([`Tables::own`]); the
    /// backend lists the rest ([`super::Rebuilding::rows`]).
    Own(Vec<i64>),
}

impl Rows {
    /// The values of the story's own constants `own` in world `w`, as numbers,
    /// appended to `out`.
    fn own_numbers(&self, w: usize, own: &[usize], out: &mut Vec<i64>) {
        match self {
            Rows::Shown(shown) => own_numbers(&shown[w].0, own, out),
            Rows::Own(values) => out.extend_from_slice(&values[w * own.len()..(w + 1) * own.len()]),
        }
    }
}

/// How the search recognises a state ([`Driver::node_key`]).
#[derive(Clone)]
enum StateKey<F> {
    /// The canonical form of the branches' listed models, its numbers packed
    /// ([`packed`]): compared whole, a few bytes a number.
    Listed(Rc<[u8]>),
    /// A state the backend fixed: its hash and the form it compares.
    Fixed(u64, F),
}

/// The states met (in a layer, or in the whole search), each with a value.
struct Met<F, T> {
    listed: FastMap<Rc<[u8]>, T>,
    fixed: FastMap<u64, Vec<(F, T)>>,
}

impl<F, T> Default for Met<F, T> {
    fn default() -> Self {
        Met {
            listed: FastMap::default(),
            fixed: FastMap::default(),
        }
    }
}

impl<F, T> Met<F, T> {
    fn insert(&mut self, key: StateKey<F>, value: T) {
        match key {
            StateKey::Listed(k) => {
                self.listed.insert(k, value);
            }
            StateKey::Fixed(hash, f) => self.fixed.entry(hash).or_default().push((f, value)),
        }
    }

    fn len(&self) -> usize {
        self.listed.len() + self.fixed.values().map(Vec::len).sum::<usize>()
    }
}

/// The literals (a bool constant, or its negation) among the conjuncts of `action`'s
/// guard, when it has some and deciding it by them alone hides no error (the action
/// names no probability, event, checkpoint or quantifier).
fn guard_literals(action: &ActionDef) -> Option<Vec<(usize, bool)>> {
    let failing = action
        .each_expr(&mut |e| {
            e.walk(&mut |x| match x.kind {
                ExprKind::Chance { .. }
                | ExprKind::Latest(_)
                | ExprKind::At { .. }
                | ExprKind::Quantified { .. } => Err(()),
                _ => Ok(()),
            })
        })
        .is_err();
    if failing {
        return None;
    }
    fn conjuncts(e: &Expr, out: &mut Vec<(usize, bool)>) {
        match &e.kind {
            ExprKind::Logic(crate::ir::LogicOp::And, a, b) => {
                conjuncts(a, out);
                conjuncts(b, out);
            }
            ExprKind::Const(c) if e.ty == crate::ir::Ty::Bool => out.push((c.0, true)),
            ExprKind::Not(a) => {
                if let ExprKind::Const(c) = &a.kind
                    && a.ty == crate::ir::Ty::Bool
                {
                    out.push((c.0, false));
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    conjuncts(action.guard.as_ref()?, &mut out);
    (!out.is_empty()).then_some(out)
}

/// Whether one of `literals` is false at `b`'s actual world, read from its values as
/// written (a state without terms: its constants hold their current values).
fn fails_at_actual<B: Backend>(literals: &[(usize, bool)], b: &Snapshot<B>) -> bool {
    match (&b.terms, &b.actual) {
        (None, Some((row, _))) => {
            (literals.iter()).any(|&(c, pos)| row.get(c).is_some_and(|v| (v.number() != 0) != pos))
        }
        _ => false,
    }
}

/// The actions of the first (least) path from the root to node `k` of layer `depth`.
fn first_path<B: Backend>(layers: &[Vec<Node<B>>], depth: usize, k: usize) -> Vec<ActionId> {
    let mut out = Vec::with_capacity(depth);
    let (mut d, mut k) = (depth, k);
    while d > 0 {
        let (i, a) = layers[d][k].parents[0];
        out.push(a);
        d -= 1;
        k = i;
    }
    out.reverse();
    out
}

/// Every path (as actions) from the root to node `k` of layer `depth` (only the first,
/// least one unless `every`), appended to `out` with `suffix` after it.
fn paths<B: Backend>(
    layers: &[Vec<Node<B>>],
    depth: usize,
    k: usize,
    every: bool,
    suffix: &mut Vec<ActionId>,
    out: &mut Vec<Vec<ActionId>>,
) {
    if depth == 0 {
        let mut p: Vec<ActionId> = suffix.iter().rev().copied().collect();
        p.shrink_to_fit();
        out.push(p);
        return;
    }
    let parents = &layers[depth][k].parents;
    let take = if every { parents.len() } else { 1 };
    for &(i, a) in &parents[..take] {
        suffix.push(a);
        paths(layers, depth - 1, i, every, suffix, out);
        suffix.pop();
    }
}

/// `x` appended to `out` in as few bytes as its size needs (zigzag, then 7 bits a byte,
/// the high bit set on every byte but the last): the same numbers, the same bytes.
fn packed(x: i64, out: &mut Vec<u8>) {
    let mut z = ((x << 1) ^ (x >> 63)) as u64;
    while z >= 0x80 {
        out.push((z as u8) | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

/// The listed worlds `rows` (at the places `picks`) with the story's own constants `own`
/// at their values in `values` ([`Tables::own`]).
pub(super) fn with_own_values(
    rows: Vec<World>,
    values: &[i64],
    own: &[usize],
    picks: &[usize],
) -> Vec<Vec<Value>> {
    let stride = own.len();
    (rows.into_iter().zip(picks))
        .map(|(World(mut row), &w)| {
            for (&k, &v) in own.iter().zip(&values[w * stride..(w + 1) * stride]) {
                row[k] = match row[k] {
                    Value::Bool(_) => Value::Bool(v != 0),
                    Value::Int(_) => Value::Int(v),
                };
            }
            row
        })
        .collect()
}

/// The values of `own` constants in `row`, as numbers, appended to `out`.
pub(super) fn own_numbers(row: &[Value], own: &[usize], out: &mut Vec<i64>) {
    out.extend(own.iter().map(|&k| row[k].number()));
}
