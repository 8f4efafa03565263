//! Actions and plans: `action NAME [by A] [if φ] { … }` declared (an [`ir::ActionDef`],
//! its body an event of its own), `do a, b: CASE` lowered to [`ir::DoStep`]s (executions
//! of those events, with occurrences as an `event` statement's), `plan …` to an
//! [`ir::PlanStmt`], and the search's step event ([`ir::PlanSteps`]).

use std::collections::{HashMap, HashSet};

use epipen_ir::{self as ir, ActionId, ConstId, EnumId, EventId, Ty};
use epipen_syntax::ast;
use epipen_syntax::{Diagnostic, Span};

use crate::event::Owner;
use crate::{Ctx, Lowerer, closest, list};

/// A `plan` without `max` takes at most this many actions.
const DEFAULT_MAX: usize = 10;

/// The largest `max` of a plan (each step of the search is a hidden constant).
const MAX_DEPTH: i64 = 10_000;

/// The name of the search's step event (never shown).
const STEP: &str = "plan step";

/// The actions declared so far, and what the `plan`s need.
#[derive(Default, Clone)]
pub(crate) struct Planning {
    /// In declaration order.
    pub(crate) actions: Vec<ir::ActionDef>,
    /// Each action by its full name (`call[0, 1]`).
    ids: HashMap<String, ActionId>,
    /// Full names of actions declared only in code that does not run.
    dead: HashSet<String>,
    /// Full names of actions whose declaration failed (reported): `do`s of them stay
    /// quiet.
    failed: HashSet<String>,
    /// Where each action is first declared (byte offset), by its name without indices.
    pub(crate) declared_at: HashMap<String, usize>,
    /// How many cases the actions so far have: the next one's offset.
    cases: usize,
    /// The largest `max` among the `plan`s that run.
    pub(crate) depth: usize,
    /// The first `plan` that runs.
    first_plan: Option<Span>,
}

impl Planning {
    /// The search's step event ([`plan_steps`]) with as many occurrences as the deepest
    /// `plan`, declared after `decls` (events, enums, constants); None without a `plan`.
    pub(crate) fn steps(
        &self,
        decls: (
            &mut Vec<ir::EventDef>,
            &mut Vec<ir::EnumDef>,
            &mut Vec<ir::Constant>,
        ),
    ) -> Option<ir::PlanSteps> {
        let span = self.first_plan?;
        Some(plan_steps(&self.actions, decls, self.depth, span))
    }
}

impl Lowerer {
    /// The block around the statement where an action may not be declared.
    fn enclosing_block(&self) -> Option<&'static str> {
        if self.in_hint > 0 {
            Some("assert_adds_ck")
        } else if !self.repeat_rounds.is_empty() {
            Some("repeat")
        } else {
            None
        }
    }

    /// An action in code that does not run, checked before at the same place: only its
    /// name is recorded.
    pub(crate) fn action_not_run(&mut self, action: &ast::Action) {
        if let Some(full) = self.case_name(&action.name) {
            self.planning.dead.insert(full);
        }
    }

    /// `action NAME [by A] [if φ] { … }` at `span`: declares the action (in code that
    /// runs); nothing happens here.
    pub(crate) fn action(&mut self, action: &ast::Action, span: Span) {
        if let Some(block) = self.enclosing_block() {
            self.error(
                Diagnostic::error(
                    span,
                    format!("an action cannot be declared inside `{block}`"),
                )
                .with_hint("declare it at the top level of the story, or inside `for` and `if`"),
            );
            return;
        }
        let name_at = action.name.span;
        let full = self.case_name(&action.name);
        let owner = match &action.owner {
            None => Some(None),
            Some(owner) => self.character_expr(owner).map(Some),
        };
        let guard = match &action.guard {
            None => Some(None),
            Some(guard) => {
                let formula = self.expr(guard, Ctx::storyteller());
                self.formula(formula).map(Some)
            }
        };
        let first = (full.as_ref()).and_then(|f| self.planning.ids.get(f).copied());
        if let (Some(first), Some(full)) = (first, &full)
            && self.dead == 0
        {
            let at = self.planning.actions[first.0].span;
            // A builder's statements are written nowhere: one place is then no loop.
            let diagnostic = if at == name_at && at != Span::default() {
                Diagnostic::error(
                    name_at,
                    format!("the action `{full}` is declared again in the next round of this loop"),
                )
                .with_hint("give its name the loop's variable as an index: `action NAME[i] { … }`")
            } else {
                Diagnostic::error(name_at, format!("the action `{full}` is declared twice"))
                    .with_note(at, "its first declaration")
                    .with_hint(
                        "every action needs a name of its own (members of a family, indices of their own)",
                    )
            };
            self.error(diagnostic);
        }
        let shown = full
            .clone()
            .unwrap_or_else(|| action.name.name.name.clone());
        let declares = self.dead == 0 && full.is_some() && first.is_none();
        let body = self.event_body(&shown, "action", &action.body, span, &mut |l, cases| {
            Some(declares.then(|| l.action_event(&shown, cases, name_at)))
        });
        let Some(full) = full else {
            return;
        };
        if self.dead > 0 {
            self.planning.dead.insert(full);
            return;
        }
        if first.is_some() {
            return;
        }
        let (Some(body), Some(owner), Some(guard)) = (body, owner, guard) else {
            self.planning.failed.insert(full);
            return;
        };
        // A plain action's name names its last `do` (`tell == told`), as an event's
        // name names its latest execution: one of the story's names.
        if action.name.indices.is_empty() && self.declare(&action.name.name, false) {
            (self.names).insert(full.clone(), crate::Entity::Event(body.event));
        }
        let id = ActionId(self.planning.actions.len());
        let offset = self.planning.cases;
        self.planning.cases += body.cases.len();
        self.planning.actions.push(ir::ActionDef {
            name: full.clone(),
            owner,
            guard,
            body,
            offset,
            span: name_at,
        });
        self.planning.ids.insert(full, id);
    }

    /// The event of an action's body: named like it, its own sort (the cases, then "not
    /// yet"); not a name stories use.
    fn action_event(&mut self, name: &str, cases: &[String], span: Span) -> EventId {
        let id = EventId(self.events.len());
        let sort = EnumId(self.enums.len());
        let mut variants = cases.to_vec();
        variants.push(format!("(no {name} yet)"));
        self.enums.push(ir::EnumDef {
            name: name.to_string(),
            variants,
            span,
        });
        self.event_of_sort.insert(sort, self.events.len());
        self.events.push(ir::EventDef {
            name: name.to_string(),
            cases: cases.to_vec(),
            sort,
            span,
        });
        id
    }

    /// `do a, b: CASE, …` at `span`.
    pub(crate) fn do_actions(&mut self, items: &[ast::DoItem], span: Span) -> Option<ir::StmtKind> {
        if self.in_hint > 0 {
            self.error(
                Diagnostic::error(span, "a hint's block cannot hold a `do`").with_hint(
                    "the hint describes the worlds before and after the block, which an action \
                     changes: move the `do` out of it",
                ),
            );
            return None;
        }
        let mut steps = Vec::with_capacity(items.len());
        let mut ok = true;
        for item in items {
            match self.do_step(item) {
                Some(step) => steps.push(step),
                None => ok = false,
            }
        }
        (ok && self.dead == 0).then_some(ir::StmtKind::Do(steps))
    }

    /// One item of a `do` line: the action's event as this execution runs it.
    fn do_step(&mut self, item: &ast::DoItem) -> Option<ir::DoStep> {
        let at = item.action.span;
        let full = self.case_name(&item.action)?;
        let Some(&id) = self.planning.ids.get(&full) else {
            self.unknown_action(&item.action, &full);
            return None;
        };
        let (actual, actual_at) = match &item.case {
            None => (None, None),
            Some(case) => {
                let name = self.case_name(case)?;
                let cases: Vec<String> = (self.planning.actions[id.0].body.cases.iter())
                    .map(|c| c.name.clone())
                    .collect();
                let family = format!("{}[", case.name.name);
                if self.dead > 0
                    && !cases.contains(&name)
                    && cases.iter().any(|c| c.starts_with(&family))
                {
                    // Code that does not run: its indices are placeholders.
                    return None;
                }
                let index: HashMap<String, usize> = (cases.iter().enumerate())
                    .map(|(k, c)| (c.clone(), k))
                    .collect();
                let owner = Owner {
                    what: "action",
                    name: &full,
                };
                let k = self.case_index(owner, &cases, &index, &name, case.span)?;
                (Some(k), Some(case.span))
            }
        };
        if self.dead > 0 {
            return None;
        }
        let mut event = self.planning.actions[id.0].body.clone();
        event.actual = actual;
        event.actual_at = actual_at;
        event.occurrences = self.occurrences(event.event, at, "action")?;
        Some(ir::DoStep {
            action: id,
            event,
            span: at,
        })
    }

    /// Reports `do NAME` of an action not declared (quiet about one whose declaration
    /// failed, and in code that does not run about a member of a declared family).
    fn unknown_action(&mut self, name: &ast::CaseName, full: &str) {
        if self.planning.failed.contains(full) {
            return;
        }
        let base = &name.name.name;
        let prefix = format!("{base}[");
        let of_family = |n: &String| *n == *base || n.starts_with(&prefix);
        let known =
            self.planning.ids.keys().any(of_family) || self.planning.dead.iter().any(of_family);
        if self.dead > 0 && known {
            return;
        }
        let names: Vec<&str> = self
            .planning
            .actions
            .iter()
            .map(|a| a.name.as_str())
            .collect();
        let hint = if (self.planning.declared_at.get(base)).is_some_and(|&at| at > self.current) {
            format!("`{base}` is declared later in the story: declare an action before doing it")
        } else if self.planning.dead.contains(full) {
            "it is declared only in a part of the story that does not run (an `if` branch not \
             taken or an empty loop)"
                .to_string()
        } else if let Some(close) = closest(full, names.iter().copied()) {
            format!("did you mean `{close}`?")
        } else if names.is_empty() {
            format!("declare it first, e.g. `action {base} {{ … }}`")
        } else {
            // Families as `call[…]`, each name once, in declaration order.
            let mut shown: Vec<String> = Vec::new();
            for a in &self.planning.actions {
                let name = match a.name.find('[') {
                    Some(k) => format!("{}[…]", &a.name[..k]),
                    None => a.name.clone(),
                };
                if !shown.contains(&name) {
                    shown.push(name);
                }
            }
            let shown: Vec<&str> = shown.iter().map(String::as_str).collect();
            format!("the actions are {}", list(&shown))
        };
        self.error(
            Diagnostic::error(name.span, format!("unknown action `{full}`")).with_hint(hint),
        );
    }

    /// `plan [all] φ [max D] [keeping ψ] [coordinated]` at `span`.
    pub(crate) fn plan(&mut self, plan: &ast::Plan, span: Span) -> Option<ir::StmtKind> {
        if self.in_hint > 0 {
            self.error(
                Diagnostic::error(span, "a `plan` cannot stand inside `assert_adds_ck`")
                    .with_hint("ask it before or after the hint's block"),
            );
            return None;
        }
        let goal = self.expr(&plan.goal, Ctx::storyteller());
        let goal = self.formula(goal);
        let keeping = match &plan.keeping {
            None => Some(None),
            Some(keeping) => {
                let formula = self.expr(keeping, Ctx::storyteller());
                self.formula(formula).map(Some)
            }
        };
        let max = match &plan.max {
            None => Some(DEFAULT_MAX),
            Some(max) => match self.compile_time_int(max, "a plan's `max`") {
                Some(n) if (1..=MAX_DEPTH).contains(&n) => Some(n as usize),
                Some(n) => {
                    if self.dead == 0 {
                        let diagnostic = if n < 1 {
                            Diagnostic::error(
                                max.span,
                                format!("a plan's `max` must be at least 1, found {n}"),
                            )
                            .with_hint(
                                "`max D` is the most actions a plan may take: write e.g. `plan φ max 5`",
                            )
                        } else {
                            Diagnostic::error(
                                max.span,
                                format!("a plan's `max` may be at most {MAX_DEPTH}, found {n}"),
                            )
                            .with_hint("`max D` is the most actions a plan may take: lower it")
                        };
                        self.error(diagnostic);
                    }
                    None
                }
                None => None,
            },
        };
        let actions: Vec<ActionId> = (0..self.planning.actions.len()).map(ActionId).collect();
        let mut ok = true;
        if self.dead == 0 && actions.is_empty() {
            self.error(
                Diagnostic::error(span, "no action is declared before this `plan`").with_hint(
                    "a plan chooses among the actions declared before it: declare them first, \
                     e.g. `action flip { … }`",
                ),
            );
            ok = false;
        }
        if let Some(at) = plan.coordinated
            && self.dead == 0
        {
            ok &= self.owned(at);
        }
        let (Some(goal), Some(keeping), Some(max)) = (goal, keeping, max) else {
            return None;
        };
        if !ok || self.dead > 0 {
            return None;
        }
        self.planning.depth = self.planning.depth.max(max);
        self.planning.first_plan.get_or_insert(span);
        Some(ir::StmtKind::Plan(Box::new(ir::PlanStmt {
            actions,
            goal,
            max,
            keeping,
            coordinated: plan.coordinated.is_some(),
            all: plan.all,
        })))
    }

    /// Whether every action declared so far has an owner, as `coordinated` (written at
    /// `at`) needs; reports those that have none.
    fn owned(&mut self, at: Span) -> bool {
        let Some((message, first)) = unowned(&self.planning.actions) else {
            return true;
        };
        let diagnostic = Diagnostic::error(at, message)
            .with_note(first.span, "declared here")
            .with_hint(format!(
                "write `action {} by A {{ … }}`, A the character who does it",
                first.name
            ));
        self.error(diagnostic);
        false
    }
}

/// The search's step event of a `plan` over `actions` (every action's cases, in
/// declaration order, named `ACTION.CASE`), declared at `span` after `events` and
/// `enums`, and `depth` occurrences of it after `constants` (each named `plan step`,
/// as an event's are until [`ir::Program`]'s names tell them apart).
pub fn plan_steps(
    actions: &[ir::ActionDef],
    (events, enums, constants): (
        &mut Vec<ir::EventDef>,
        &mut Vec<ir::EnumDef>,
        &mut Vec<ir::Constant>,
    ),
    depth: usize,
    span: Span,
) -> ir::PlanSteps {
    let cases: Vec<String> = (actions.iter())
        .flat_map(|a| (a.body.cases.iter()).map(move |c| format!("{}.{}", a.name, c.name)))
        .collect();
    let event = EventId(events.len());
    let sort = EnumId(enums.len());
    let mut variants = cases.clone();
    variants.push(format!("(no {STEP} yet)"));
    enums.push(ir::EnumDef {
        name: STEP.to_string(),
        variants,
        span,
    });
    events.push(ir::EventDef {
        name: STEP.to_string(),
        cases,
        sort,
        span,
    });
    let occurrences = (0..depth)
        .map(|_| {
            constants.push(ir::Constant {
                name: STEP.to_string(),
                ty: Ty::Enum(sort),
                span,
                occurrence: Some(ir::Occurrence { event }),
            });
            ConstId(constants.len() - 1)
        })
        .collect();
    ir::PlanSteps { event, occurrences }
}

/// When some of `actions` have no owner, as a `coordinated` plan needs: the message
/// naming them (the lowering's and the Story API's), and the first of them.
pub fn unowned(actions: &[ir::ActionDef]) -> Option<(String, &ir::ActionDef)> {
    let unowned: Vec<&ir::ActionDef> = actions.iter().filter(|a| a.owner.is_none()).collect();
    let first = *unowned.first()?;
    let which = match unowned.len() {
        1 => format!("the action `{}` has", first.name),
        2..=3 => {
            let names: Vec<&str> = unowned.iter().map(|a| a.name.as_str()).collect();
            format!("the actions {} have", list(&names))
        }
        n => format!("the action `{}` and {} others have", first.name, n - 1),
    };
    let message =
        format!("{which} no owner, and a `coordinated` plan needs the owner of each action");
    Some((message, first))
}
