//! Actions and plans ([`Story::action`], [`Story::do_action`], [`Story::plan`]): the
//! language's `action NAME [by A] [if φ] { … }`, `do NAME[: CASE], …` and `plan [all] φ
//! [max D] [keeping ψ] [coordinated]` (docs/language.md, "Plans").
//!
//! An action's body is an [`EventBlock`] without `actual`, declared as an event of its
//! own (named like the action), so that a `do` of it is an execution of that event: its
//! occurrence is named `tell`, `tell#2`, … and [`Happened::event`] names its latest case
//! in formulas. A `plan` is a question: it runs on the live engine, which is given the
//! search's step event ([`crate::ir::PlanSteps`]: every action's cases, and as many occurrences
//! as the deepest plan asked so far) after its spare occurrences, and it does not join
//! the story's statements (a replay does not search again).

use std::fmt;

use crate::engine::Report;
use crate::ir::{ActionId, ConstId, EventId, StmtKind};
use crate::syntax::{Span, ast};
use crate::views;

use super::event::case_name;
use super::expr::Formula;
use super::{Character, Error, Event, EventBlock, Happened, Story};

/// A declared action of a [`Story`], from [`Story::action`]: done by
/// [`Story::do_action`], chosen by [`Story::plan`].
#[derive(Debug, Clone)]
pub struct Action {
    story: u64,
    id: ActionId,
    event: Event,
}

impl Action {
    /// The action's name, as declared (`call[0, 1]` for a member of a family).
    pub fn name(&self) -> &str {
        self.event.name()
    }

    /// Its cases, in order.
    pub fn cases(&self) -> &[String] {
        self.event.cases()
    }

    /// The action's id in the story's [`Program`](crate::ir::Program).
    pub fn id(&self) -> ActionId {
        self.id
    }

    /// The event its executions are ([`Story::do_action`]): in formulas, the case of its
    /// latest `do` (`tell == told`: `action.event().is("told")`); naming it before it
    /// was done is an [`Error::Story`].
    pub fn event(&self) -> &Event {
        &self.event
    }
}

/// An action being declared, from [`Story::action`]: `by` and `when` say who does it
/// and when it can be done, [`ActionDecl::body`] states its cases and declares it.
#[must_use = "an action is declared by `ActionDecl::body`"]
pub struct ActionDecl<'s> {
    story: &'s mut Story,
    name: String,
    owner: Option<Character>,
    guard: Option<Formula>,
}

impl ActionDecl<'_> {
    /// `by A`: the character who performs it (required by a `coordinated` plan). A
    /// second call replaces the first.
    pub fn by(mut self, who: Character) -> Self {
        self.owner = Some(who);
        self
    }

    /// `if φ`: the action can be done only where φ holds (at the actual world, or
    /// without one at every world still possible), evaluated in the state where it is
    /// done (knowledge operators allowed). Several calls: all must hold.
    pub fn when(mut self, guard: impl Into<Formula>) -> Self {
        let f = guard.into();
        self.guard = Some(match self.guard.take() {
            Some(g) => g.and(f),
            None => f,
        });
        self
    }

    /// `{ … }`: the action's body, stated by `block` as an event's ([`Story::event`]):
    /// its cases, `sees` and `expects` lines, but no `actual` (the case that happens is
    /// said where it is done). Declares the action; nothing happens here.
    ///
    /// Mistakes are [`Error::Invalid`] and declare nothing: the event block's (no
    /// cases, an unknown case, …), an `actual` case, a name already declared (an action
    /// declared twice, or the name of a constant, an enum or an event), a character or
    /// formula of another story, a formula that names a checkpoint not saved yet.
    pub fn body(self, block: impl FnOnce(&mut EventBlock)) -> Result<Action, Error> {
        let ActionDecl {
            story,
            name,
            owner,
            guard,
        } = self;
        story.declare_action(&name, owner, guard, block)
    }
}

/// How [`Story::plan`] searches: `plan φ max D keeping ψ coordinated` (`plan all φ`).
/// `PlanOptions::default()` is a plain `plan φ`: at most 10 actions.
#[derive(Debug, Clone)]
pub struct PlanOptions {
    /// `max D`: the most actions a plan may take (at least 1, at most 10 000).
    pub max: usize,
    /// `keeping ψ`: ψ must hold (as the goal does) after every action of the plan.
    pub keeping: Option<Formula>,
    /// `coordinated` (implicit coordination): before each step its owner knows that
    /// the step can be done and that the rest of the plan then reaches the goal. Every
    /// action needs an owner ([`ActionDecl::by`]).
    pub coordinated: bool,
    /// `plan all`: every plan of the shortest length, not only the first.
    pub all: bool,
}

impl Default for PlanOptions {
    fn default() -> PlanOptions {
        PlanOptions {
            max: 10,
            keeping: None,
            coordinated: false,
            all: false,
        }
    }
}

/// What [`Story::plan`] found: the plans, each as its actions' names in order (the
/// first shortest plan in the order the actions were declared, or with
/// [`PlanOptions::all`] every shortest plan; none when no plan of at most `max` actions
/// reaches the goal). `Display` writes it as `epipen run` does, without the line: `plan
/// of 2 actions: tell, try_take`, `no plan of at most 3 actions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The plans found; `[[]]` when the goal holds already.
    pub plans: Vec<Vec<String>>,
    /// The longest plan looked for.
    pub max: usize,
    /// Every plan of the shortest length was asked for.
    pub all: bool,
}

impl Planned {
    /// Whether some plan of at most `max` actions reaches the goal.
    pub fn solvable(&self) -> bool {
        !self.plans.is_empty()
    }

    /// How many actions each plan found has (0: the goal holds already); None when
    /// there is none.
    pub fn length(&self) -> Option<usize> {
        self.plans.first().map(Vec::len)
    }

    /// The first plan found.
    pub fn first(&self) -> Option<&[String]> {
        self.plans.first().map(Vec::as_slice)
    }

    /// As a view, the answer of a `plan` statement on `line`.
    pub fn view(&self, line: usize) -> views::Plan {
        views::Plan::found(line, self.max, self.all, self.plans.clone())
    }
}

impl fmt::Display for Planned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::text::plan_found(&self.view(0)))
    }
}

impl Story {
    /// `action NAME [by A] [if φ] { … }`: declares an action that [`Story::do_action`]
    /// does and [`Story::plan`] chooses among; nothing happens here. Say who does it
    /// with [`ActionDecl::by`], when it can be done with [`ActionDecl::when`], and its
    /// body with [`ActionDecl::body`], an event block without `actual`. A member of a
    /// family is named with its indices: `format!("call[{i}, {j}]")`.
    ///
    /// An action is executable where its `when` holds at the actual world and one of its
    /// cases can happen there (without an actual world: at every world still possible,
    /// each with a case that can happen). An action whose single case has a
    /// precondition and no `sees` line is the public announcement of that precondition.
    ///
    /// The door mat (`stories/door-mat.story`): Bob wants the key; Anne knows whether it
    /// is under the mat.
    ///
    /// ```
    /// use epipen::{Formula as F, PlanOptions, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let (anne, bob) = (story.character("Anne"), story.character("Bob"));
    /// let key_under_mat = story.bool("key_under_mat");
    /// let bob_has_key = story.bool("bob_has_key");
    /// story.announce(!&bob_has_key)?;
    /// story.actual(key_under_mat.clone() & !&bob_has_key)?;
    /// story.learns(anne, &key_under_mat)?;
    ///
    /// let try_take = story.action("try_take").by(bob).body(|a| {
    ///     let took = a.case("took").when(key_under_mat.clone()).then_all([
    ///         epipen::Change::new(&key_under_mat, false),
    ///         epipen::Change::new(&bob_has_key, true),
    ///     ]);
    ///     let nothing = a.case("found_nothing").when(!&key_under_mat);
    ///     a.sees(bob, [[took], [nothing]]);
    /// })?;
    /// let tell = story.action("tell").by(anne).body(|a| {
    ///     a.case("told").when(key_under_mat.clone());
    /// })?;
    ///
    /// let plan = story.plan(bob_has_key.clone(), PlanOptions::default())?;
    /// assert_eq!(plan.plans, [["try_take"]]);
    /// let coordinated = PlanOptions { coordinated: true, ..PlanOptions::default() };
    /// let plan = story.plan(bob_has_key.clone(), coordinated)?;
    /// assert_eq!(plan.to_string(), "plan of 2 actions: tell, try_take");
    ///
    /// let done = story.do_actions(&[(&tell, None), (&try_take, None)])?;
    /// assert_eq!(done[1].case(), Some("took"));
    /// story.check_actual(F::knows(bob, bob_has_key.clone()))?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn action(&mut self, name: &str) -> ActionDecl<'_> {
        ActionDecl {
            story: self,
            name: name.into(),
            owner: None,
            guard: None,
        }
    }

    /// `do NAME[: CASE]`: does `action` now, as an `event` statement would, and returns
    /// what happened. `case` says which case happened where several can at the actual
    /// world; without it, exactly one must be possible there. An action that is not
    /// executable here is an [`Error::Story`] (`` the action `tell` cannot be done here:
    /// its condition does not hold in the actual world ``); a case the action does not
    /// have, an [`Error::Invalid`].
    pub fn do_action(&mut self, action: &Action, case: Option<&str>) -> Result<Happened, Error> {
        let mut done = self.do_actions(&[(action, case)])?;
        Ok(done.pop().expect("one action, one execution"))
    }

    /// `do a, b: CASE, …`: does the actions in order, each as [`Story::do_action`]
    /// does it, as one statement (all are done, or none); returns what happened at each.
    pub fn do_actions(
        &mut self,
        steps: &[(&Action, Option<&str>)],
    ) -> Result<Vec<Happened>, Error> {
        if steps.is_empty() {
            return Err(Error::invalid("`do` needs at least one action"));
        }
        let mut items = Vec::with_capacity(steps.len());
        for (action, case) in steps {
            if action.story != self.id {
                return Err(Error::invalid("the action belongs to another story"));
            }
            items.push(ast::DoItem {
                action: case_name(action.name()),
                case: case.map(case_name),
            });
        }
        let (stmts, reports) = self.lower_run(ast::StmtKind::Do(items))?;
        let done: Vec<(EventId, ConstId)> = (stmts.iter())
            .filter_map(|s| match &s.kind {
                StmtKind::Do(steps) => Some(steps),
                _ => None,
            })
            .flatten()
            .map(|s| (s.event.event, s.event.occurrences[0]))
            .collect();
        let mut seen = reports.into_iter().filter_map(|r| match r {
            Report::Happened { case, saw, .. } => Some((case, saw)),
            _ => None,
        });
        Ok(done
            .into_iter()
            .map(|(event, occurrence)| {
                let (case, saw) = seen.next().unwrap_or_default();
                self.happened_as(event, occurrence, case, saw)
            })
            .collect())
    }

    /// `plan [all] φ [max D] [keeping ψ] [coordinated]`: a breadth-first search for a
    /// shortest sequence of at most `max` actions (among those declared so far, tried in
    /// the order they were declared), each executable where it is done, after which
    /// `goal` holds at the actual world (without one: at every world still possible).
    /// A question: the story goes on from the state before it. Where several cases of
    /// an action can happen at the actual world, a plan must reach the goal whichever
    /// happened. See [`Story::action`] for an example.
    ///
    /// Mistakes are [`Error::Invalid`]: no action declared, `max` below 1 or above
    /// 10 000, `coordinated` with an action that has no owner, formulas of another
    /// story.
    pub fn plan(
        &mut self,
        goal: impl Into<Formula>,
        options: PlanOptions,
    ) -> Result<Planned, Error> {
        let plan = ast::Plan {
            all: options.all,
            goal: self.ast(goal.into().0)?,
            max: Some(ast::Expr::int(
                i64::try_from(options.max).unwrap_or(i64::MAX),
            )),
            keeping: options.keeping.map(|k| self.ast(k.0)).transpose()?,
            coordinated: options.coordinated.then(Span::default),
        };
        // A question: the lowering does not keep it.
        let stmt = ast::Stmt::nowhere(ast::StmtKind::Plan(Box::new(plan)));
        let stmts = (self.lowering.clone().stmt(&stmt)).map_err(Error::Invalid)?;
        let max = options.max;
        self.plan_depth = self.plan_depth.max(max);
        let mut reports = Vec::new();
        for s in stmts {
            reports.extend(self.ask(s)?);
        }
        let plans = reports
            .into_iter()
            .find_map(|r| match r {
                Report::Plan { plans, .. } => Some(plans),
                _ => None,
            })
            .unwrap_or_default();
        Ok(Planned {
            plans: (plans.into_iter())
                .map(|p| {
                    (p.into_iter())
                        .map(|a| self.program.actions[a.0].name.clone())
                        .collect()
                })
                .collect(),
            max,
            all: options.all,
        })
    }

    // --- internals ---

    fn declare_action(
        &mut self,
        name: &str,
        owner: Option<Character>,
        guard: Option<Formula>,
        block: impl FnOnce(&mut EventBlock),
    ) -> Result<Action, Error> {
        let owner = owner.map(|who| self.character_ast(who)).transpose()?;
        let guard = guard.map(|g| self.ast(g.0)).transpose()?;
        let mut lines = EventBlock::new(name);
        block(&mut lines);
        let body = self.block_items(lines)?;
        let action = ast::Action {
            name: case_name(name),
            owner,
            guard,
            body,
        };
        self.lower_run(ast::StmtKind::Action(Box::new(action)))?;
        Ok(self.action_handle(ActionId(self.program.actions.len() - 1)))
    }

    /// The handle of the action `id`.
    pub(super) fn action_handle(&self, id: ActionId) -> Action {
        let event = self.program.actions[id.0].body.event;
        Action {
            story: self.id,
            id,
            event: self.event_handle(event),
        }
    }
}
