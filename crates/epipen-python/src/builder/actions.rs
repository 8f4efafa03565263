//! `Story.action`, `Story.do` and `Story.plan` from Python: an action's declaration as
//! Python sends it ([`ActionSpec`]: its owner, its condition and its body, an event
//! block without `actual`), the steps of a `do` (actions by index, each with its case or
//! None) and a plan's question ([`PlanSpec`]), run with the Rust API's
//! [`Story::action`](epipen::Story::action), [`Story::do_actions`](epipen::Story::do_actions)
//! and [`Story::plan`](epipen::Story::plan).

use super::events::{Built, EventSpec, Reported};
use super::{Actor, Answer, Term, failed, invalid};
use epipen::{Action, PlanOptions};

/// An action as Python declares it.
#[derive(Clone)]
pub(crate) struct ActionSpec {
    /// `by A`: the character's index.
    pub(super) by: Option<usize>,
    /// `if φ`.
    pub(super) when: Option<Term>,
    /// Its body: its name, cases, `sees` and `expects` lines (no `actual`).
    pub(super) body: EventSpec,
}

/// The steps of a `do`: each action's index, and the case that happens (None: the one
/// that can).
pub(crate) type Steps = Vec<(usize, Option<String>)>;

/// `plan [all] φ [max D] [keeping ψ] [coordinated]` as Python asks it.
#[derive(Clone)]
pub(crate) struct PlanSpec {
    pub(super) goal: Term,
    pub(super) max: i64,
    pub(super) keeping: Option<Term>,
    pub(super) coordinated: bool,
    pub(super) all: bool,
}

/// What a plan found, for Python: whether it found one, their length, the plans (as
/// action names) and its text (`plan of 1 action: tell`).
pub(crate) type Planned = (bool, Option<usize>, Vec<Vec<String>>, String);

impl Actor {
    /// `action NAME by A if φ { … }`: declared; its index among the story's actions.
    pub(super) fn action(&mut self, spec: ActionSpec) -> Answer<usize> {
        let h = &self.handles;
        let owner = match spec.by {
            Some(k) => Some(h.character(k).map_err(invalid)?),
            None => None,
        };
        let guard = match &spec.when {
            Some(t) => Some(h.formula(t).map_err(invalid)?),
            None => None,
        };
        let built = Built::of(h, &spec.body).map_err(invalid)?;
        let mut declared = self.story.action(&spec.body.name);
        if let Some(owner) = owner {
            declared = declared.by(owner);
        }
        if let Some(guard) = guard {
            declared = declared.when(guard);
        }
        let action = declared.body(|e| built.state(e)).map_err(failed)?;
        self.handles.actions.push(action);
        Ok(self.handles.actions.len() - 1)
    }

    /// `do a, b: CASE, …`: what happened at each.
    pub(super) fn do_actions(&mut self, steps: Steps) -> Answer<Vec<Reported>> {
        let actions: Vec<Action> = (steps.iter())
            .map(|(k, _)| {
                (self.handles.actions.get(*k).cloned())
                    .ok_or_else(|| invalid("an action of another story".into()))
            })
            .collect::<Result<_, _>>()?;
        let pairs: Vec<(&Action, Option<&str>)> = (actions.iter())
            .zip(&steps)
            .map(|(a, (_, case))| (a, case.as_deref()))
            .collect();
        let happened = self.story.do_actions(&pairs).map_err(failed)?;
        let reports = happened.iter().map(|h| self.report(h)).collect();
        Ok(reports)
    }

    /// `plan …`: what it found.
    pub(super) fn plan(&mut self, spec: PlanSpec) -> Answer<Planned> {
        let h = &self.handles;
        let goal = h.formula(&spec.goal).map_err(invalid)?;
        let keeping = match &spec.keeping {
            Some(t) => Some(h.formula(t).map_err(invalid)?),
            None => None,
        };
        // A negative `max` (Python's int) is the Rust API's mistake of a `max` below 1.
        let max = usize::try_from(spec.max).map_err(|_| {
            invalid(format!(
                "a plan's `max` must be at least 1, found {} (`max` is the most actions a \
                 plan may take)",
                spec.max
            ))
        })?;
        let options = PlanOptions {
            max,
            keeping,
            coordinated: spec.coordinated,
            all: spec.all,
        };
        let planned = self.story.plan(goal, options).map_err(failed)?;
        Ok((
            planned.solvable(),
            planned.length(),
            planned.plans.clone(),
            planned.to_string(),
        ))
    }
}
