//! Actions, from the definitions of [`epipen_ir::PlanStmt`]: `do` executes declared
//! actions as events, each once it is executable; `plan` searches, breadth-first by
//! length, for the sequences of actions that are plans, executing them hypothetically
//! (the product update, as an event does) on the state and putting it back after.
//!
//! Which sequences are executed: for each length below the answer's, every sequence
//! whose actions are executable (each in the state before it, at every branch); at the
//! answer's length, every one with `all` or `coordinated`, and for a plain `plan` those
//! up to the first plan in order (the plan reported), none after it. So a story error
//! that executing an action meets (a negative weight, a value of an event that has not
//! happened) stops the `plan` when it is met before the answer is. The coordination of
//! the plans found is asked in their order, up to the first that is coordinated (every
//! one with `all`).
//!
//! A plan's branches differ only in their actual world: the product update of a state
//! by an action is the same whichever case happened at the actual world. So the search
//! follows one state per sequence and the set of its *points*, the actual worlds of
//! every branch ((w₀, c₁, …, cᵢ) for each cᵢ possible at the point before): with an
//! actual world it starts from it alone; without one, from every world still possible
//! (there a condition holds when it holds at every world, and the points after an
//! action are then exactly the worlds after it).

use std::collections::HashMap;
use std::rc::Rc;

use epipen_ir::{ActionDef, ActionId, DoStep, EventStmt, Expr, PlanStmt, Span, World};

use crate::event::with_case;
use crate::{Change, Evaluator, Fail, Report, State};

/// Why an action cannot be done at a `do` step: the story error's message,
/// "the action `NAME` cannot be done here: …".
const GUARD_ACTUAL: &str = "its condition does not hold in the actual world";
const GUARD_EVERY: &str = "its condition does not hold in every world still possible";
const CASES_ACTUAL: &str = "none of its cases can happen in the actual world";
const CASES_EVERY: &str = "none of its cases can happen in some world still possible";

#[cfg(test)]
mod tests;

/// What a hypothetical execution changes, to put back.
struct Saved<'p> {
    state: Rc<State<'p>>,
    changes: Vec<Change<'p>>,
    latest: Vec<Rc<Vec<Option<usize>>>>,
    happened: Vec<bool>,
}

impl<'p> Evaluator<'p> {
    /// `do a, b: CASE, …`: each step in turn, checked executable in the state before it
    /// and run as an `event` statement; errors are reported at the step.
    pub(crate) fn do_actions(&mut self, steps: &'p [DoStep]) -> Result<(), Fail> {
        for step in steps {
            let at_step = |mut fail: Fail| {
                fail.span.get_or_insert(step.span);
                fail
            };
            let action = self.action(step.action).map_err(at_step)?;
            // Every name of the action (its guard too), before anything is evaluated.
            let exprs = (action.guard.iter()).chain(body_exprs(&step.event.cases, true, true));
            self.names_happened(exprs).map_err(at_step)?;
            self.doable(action).map_err(at_step)?;
            let case = self.event(&step.event).map_err(at_step)?;
            self.report_happened(step.span, &step.event, case);
        }
        Ok(())
    }

    /// Fails (a story error) unless `action` is executable in the state: its guard holds
    /// and some case's precondition holds, at the actual world, or without one at every
    /// world still possible (the guard is asked first, everywhere).
    fn doable(&mut self, action: &'p ActionDef) -> Result<(), Fail> {
        let state = self.state.clone();
        let (points, guard_fails, cases_fail) = match &self.actual {
            Some(actual) => (vec![actual.clone()], GUARD_ACTUAL, CASES_ACTUAL),
            None => (state.worlds.to_vec(), GUARD_EVERY, CASES_EVERY),
        };
        let fail = |why: &str| {
            Fail::story(format!(
                "the action `{}` cannot be done here: {why}",
                action.name
            ))
        };
        if let Some(guard) = &action.guard {
            for w in &points {
                if !self.eval(guard, w, &state)?.into_bool()? {
                    return Err(fail(guard_fails));
                }
            }
        }
        for w in &points {
            if !self
                .possible(&action.body.cases, w, &state)?
                .contains(&true)
            {
                return Err(fail(cases_fail));
            }
        }
        Ok(())
    }

    /// `plan [all] φ [max D] [keeping ψ] [coordinated]`: the plans of the shortest length
    /// k ≤ D (the first in the order of action ids, or with `all` every one, in that
    /// order), reported; the state is as before.
    pub(crate) fn plan(&mut self, span: Span, plan: &'p PlanStmt) -> Result<(), Fail> {
        // The order of the answer: by action id, whatever the list's order.
        let mut actions = plan.actions.clone();
        actions.sort();
        actions.dedup();
        for &a in &actions {
            let action = self.action(a)?;
            if plan.coordinated && action.owner.is_none() {
                return Err(Fail::from(format!(
                    "internal error: the action `{}` of a coordinated plan has no owner",
                    action.name
                )));
            }
        }
        let steps = match &self.program.plan_steps {
            Some(steps) if steps.occurrences.len() >= plan.max => &steps.occurrences,
            _ => {
                return Err(Fail::from(format!(
                    "internal error: the program has no occurrences for a plan of {} steps",
                    plan.max
                )));
            }
        };
        let slots: Vec<usize> = steps.iter().map(|c| c.0).collect();
        // The caches of what hypothetical worlds and states meant go when the plan ends.
        let first_id = self.next_id;
        let then = self.then.clone();
        let weights = self.weights.clone();
        let start = self.save();
        let points = match &self.actual {
            Some(actual) => vec![actual.clone()],
            None => self.state.worlds.to_vec(),
        };
        let mut plans = Vec::new();
        let mut search = Search {
            plan,
            actions: &actions,
            slots: &slots,
            found: Vec::new(),
        };
        for length in 0..=plan.max {
            // Every sequence of this length that reaches the goal, in the order of plans.
            self.search(&mut search, length, &mut Vec::new(), &points)?;
            self.restore(&start);
            for found in std::mem::take(&mut search.found) {
                if plan.coordinated && !self.coordinated(plan, &found, &slots, &start)? {
                    continue;
                }
                plans.push(found);
                if !plan.all {
                    break;
                }
            }
            if !plans.is_empty() {
                break;
            }
        }
        self.then = then;
        self.weights = weights;
        self.memo.retain(|key, _| key.3 < first_id);
        self.classes.retain(|key, _| key.1 < first_id);
        self.observations.retain(|key, _| key.1 < first_id);
        self.announced.retain(|key, _| key.1 < first_id);
        self.events.push(Report::Plan {
            span,
            max: plan.max,
            plans,
        });
        Ok(())
    }

    /// Whether `seq` is implicitly coordinated: reaches(seq) holds at the actual world, or
    /// without one at every world still possible, from the state before the plan
    /// (`start`; the state is as before).
    fn coordinated(
        &mut self,
        plan: &'p PlanStmt,
        seq: &[ActionId],
        slots: &[usize],
        start: &Saved<'p>,
    ) -> Result<bool, Fail> {
        self.restore(start);
        let reached = self.reaches(plan, seq, slots)?;
        let starts = match &self.actual {
            Some(actual) => vec![actual.clone()],
            None => self.state.worlds.to_vec(),
        };
        self.restore(start);
        Ok(starts.iter().all(|w| reached.get(w) == Some(&true)))
    }

    /// Extends `prefix` (executed already: the state is after it, its branches' actual
    /// worlds are `points`) to every sequence of `length` actions in the order of action
    /// ids, executing each and recording those after which the goal holds (every one:
    /// see the module's comment).
    fn search(
        &mut self,
        s: &mut Search<'_, 'p>,
        length: usize,
        prefix: &mut Vec<ActionId>,
        points: &[World],
    ) -> Result<bool, Fail> {
        if prefix.len() == length {
            if self.hold_at(&s.plan.goal, points)? {
                s.found.push(prefix.clone());
                // A plain plan is the first in order: nothing after it is executed.
                return Ok(!s.plan.all && !s.plan.coordinated);
            }
            return Ok(false);
        }
        let here = self.save();
        let slot = s.slots[prefix.len()];
        for &a in s.actions {
            self.restore(&here);
            let action = self.action(a)?;
            // The names its guard and preconditions read, before they are asked; those of
            // its weights and changes before it is executed (as the engine evaluates them).
            let cases = &action.body.cases;
            self.names_happened(action.guard.iter().chain(body_exprs(cases, true, false)))?;
            let state = self.state.clone();
            // Executable at every branch's actual world; the branches after it.
            let mut next = Vec::new();
            let mut executable = true;
            for p in points {
                if !self.executable_at(action, p, &state)? {
                    executable = false;
                    break;
                }
                let row = self.possible(&action.body.cases, p, &state)?;
                for (c, _) in row.iter().enumerate().filter(|(_, can)| **can) {
                    next.push(with_case(p, slot, action.offset + c));
                }
            }
            if !executable {
                continue;
            }
            self.names_happened(body_exprs(cases, false, true))?;
            self.execute_action(action, slot)?;
            if let Some(keeping) = &s.plan.keeping
                && !self.hold_at(keeping, &next)?
            {
                continue;
            }
            prefix.push(a);
            let done = self.search(s, length, prefix, &next)?;
            prefix.pop();
            if done {
                self.restore(&here);
                return Ok(true);
            }
        }
        self.restore(&here);
        Ok(false)
    }

    /// reaches(seq) at each world of the state, from the definition: reaches([]) = φ,
    /// reaches((A, a) : rest) = K_A(executable(a) ∧ \[a\](ψ ∧ reaches(rest))), where \[a\]χ
    /// holds at w when χ holds at (w, c) after a for every case c possible at w. The
    /// state is as before.
    fn reaches(
        &mut self,
        plan: &'p PlanStmt,
        seq: &[ActionId],
        slots: &[usize],
    ) -> Result<HashMap<World, bool>, Fail> {
        let state = self.state.clone();
        let mut out = HashMap::with_capacity(state.worlds.len());
        let Some((&a, rest)) = seq.split_first() else {
            for w in state.worlds.iter() {
                let holds = self.eval(&plan.goal, w, &state)?.into_bool()?;
                out.insert(w.clone(), holds);
            }
            return Ok(out);
        };
        let action = self.action(a)?;
        let Some(owner) = action.owner else {
            return Err(Fail::from(format!(
                "internal error: the action `{}` of a coordinated plan has no owner",
                action.name
            )));
        };
        let slot = slots[0];
        // ψ ∧ reaches(rest) at each world after a.
        let here = self.save();
        self.execute_action(action, slot)?;
        let after = self.state.clone();
        let mut later = self.reaches(plan, rest, &slots[1..])?;
        if let Some(keeping) = &plan.keeping {
            for w in after.worlds.iter() {
                if !self.eval(keeping, w, &after)?.into_bool()? {
                    later.insert(w.clone(), false);
                }
            }
        }
        self.restore(&here);
        // executable(a) ∧ [a](ψ ∧ reaches(rest)) at each world, then K_owner of it: true
        // at w when it holds at every world of the owner's class of w.
        let mut good: HashMap<usize, bool> = HashMap::new();
        let mut class = Vec::with_capacity(state.worlds.len());
        for w in state.worlds.iter() {
            let mut holds = self.executable_at(action, w, &state)?;
            if holds {
                let row = self.possible(&action.body.cases, w, &state)?;
                holds = (row.iter().enumerate().filter(|(_, can)| **can))
                    .all(|(c, _)| later.get(&with_case(w, slot, action.offset + c)) == Some(&true));
            }
            let k = self.class_of(owner, w, &state)?;
            *good.entry(k).or_insert(true) &= holds;
            class.push(k);
        }
        for (w, k) in state.worlds.iter().zip(class) {
            out.insert(w.clone(), good[&k]);
        }
        Ok(out)
    }

    /// Whether `action` is executable at `w` in `s`: its guard holds there and some
    /// case's precondition does.
    fn executable_at(
        &mut self,
        action: &'p ActionDef,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<bool, Fail> {
        if let Some(guard) = &action.guard
            && !self.eval(guard, w, s)?.into_bool()?
        {
            return Ok(false);
        }
        Ok(self.possible(&action.body.cases, w, s)?.contains(&true))
    }

    /// Executes `action` hypothetically: the product update by its body, its cases
    /// written in the plan's step slot `slot` after its offset.
    fn execute_action(&mut self, action: &'p ActionDef, slot: usize) -> Result<(), Fail> {
        let state = self.state.clone();
        let mut possible = Vec::with_capacity(state.worlds.len());
        for w in state.worlds.iter() {
            possible.push(self.possible(&action.body.cases, w, &state)?);
        }
        self.product(&action.body, slot, action.offset, &possible)
    }

    /// Whether `e` holds at every one of `points` (worlds of the state).
    fn hold_at(&mut self, e: &'p Expr, points: &[World]) -> Result<bool, Fail> {
        let state = self.state.clone();
        for w in points {
            if !self.eval(e, w, &state)?.into_bool()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Fails (a story error at the statement, "the event has not happened yet") when
    /// one of `exprs` names an event that has not happened now: a name is an error
    /// wherever it stands, whether or not its evaluation reaches it (see `named_events`).
    fn names_happened<'e>(&self, exprs: impl IntoIterator<Item = &'e Expr>) -> Result<(), Fail> {
        let time = self.changes.len();
        exprs
            .into_iter()
            .try_for_each(|e| self.happened_by(e, time))
            .map_err(Fail::from)
    }

    fn action(&self, a: ActionId) -> Result<&'p ActionDef, Fail> {
        self.program
            .actions
            .get(a.0)
            .ok_or_else(|| Fail::from(format!("internal error: no action #{}", a.0)))
    }

    fn save(&self) -> Saved<'p> {
        Saved {
            state: self.state.clone(),
            changes: self.changes.clone(),
            latest: self.latest.clone(),
            happened: self.happened.clone(),
        }
    }

    fn restore(&mut self, saved: &Saved<'p>) {
        self.state = saved.state.clone();
        self.changes.clone_from(&saved.changes);
        self.latest.clone_from(&saved.latest);
        self.happened.clone_from(&saved.happened);
    }

    /// Reports an event's execution at `span`: the actual case, and what each character
    /// saw of it (the cases in the group of its `sees` line that holds the actual case).
    pub(crate) fn report_happened(
        &mut self,
        span: Span,
        event: &'p EventStmt,
        case: Option<usize>,
    ) {
        let saw = match case {
            None => Vec::new(),
            Some(k) => (event.sees.iter())
                .map(|groups| {
                    (0..event.cases.len())
                        .filter(|&d| groups.as_ref().is_none_or(|g| g[d] == g[k]))
                        .collect()
                })
                .collect(),
        };
        self.events.push(Report::Happened {
            span,
            round: self.round,
            case,
            saw,
        });
    }
}

/// A `plan`'s search: its statement, the actions it may use (by id), the occurrence
/// slot of each step, and the sequences of the length searched after which the goal
/// holds.
struct Search<'s, 'p> {
    plan: &'p PlanStmt,
    actions: &'s [ActionId],
    slots: &'s [usize],
    found: Vec<Vec<ActionId>>,
}

/// The expressions of an action's cases: their preconditions (`pres`), and their weights
/// and changes (`effects`).
fn body_exprs(cases: &[epipen_ir::Case], pres: bool, effects: bool) -> impl Iterator<Item = &Expr> {
    cases.iter().flat_map(move |c| {
        let pre = c.pre.iter().filter(move |_| pres);
        let weight = c.weight.iter().filter(move |_| effects);
        let changes = (c.changes.iter().map(|(_, e)| e)).filter(move |_| effects);
        pre.chain(weight).chain(changes)
    })
}
