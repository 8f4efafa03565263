//! Actions and plans printed (issue 41): `action NAME [by A] [if φ] { … }` (its body
//! printed as an event's, without `actual`), `do a, b: CASE` (steered by the evaluator as
//! an event's `actual` line: a case possible at the actual world, most of the time) and
//! `plan [all] φ max D [keeping ψ] [coordinated]` (steered: when the goal holds already
//! or no plan reaches it, its negation when that has a plan of at least one action).

use epipen_bruteforce as bruteforce;

use epipen::ir::Ty;

use super::{COLOURS, Cx, Printer, Var, lit, operand};
use crate::story::*;

/// The most actions (members of families included) a story declares.
const MAX_ACTIONS: usize = 4;

/// The most worlds a plan's search may make: the worlds here times, for each step, the
/// most cases an action has. `max` is lowered (to 1 at least) to stay within it, so that
/// the evaluator's exhaustive search ends in milliseconds.
const PLAN_WORLDS: u128 = 1024;

/// An action printed: its name (a family member's with its index) and cases.
#[derive(Clone)]
pub(super) struct ActionInfo {
    pub name: String,
    pub cases: Vec<String>,
    /// It has `by A` (a `coordinated` plan needs every action declared before it to).
    pub owned: bool,
    /// Declared whenever the story gets there (not under an `if`): `do` names it, and a
    /// plan has it among its actions.
    pub usable: bool,
}

impl Printer<'_> {
    /// `action NAME [by A] [if φ] { … }` (in a `for` of its own for a family); `refused`:
    /// where no action can be declared (printed, its place recorded).
    pub(super) fn action(&mut self, a: &Action, refused: Option<&'static str>) {
        let room = MAX_ACTIONS.saturating_sub(self.actions.len());
        let members = match (refused, a.members) {
            (Some(_), _) | (None, None) => None,
            (None, Some(m)) => Some(u8::try_from(usize::from(m.max(1)).min(room)).unwrap_or(1)),
        };
        if refused.is_none() && (room == 0 || members == Some(0)) {
            return;
        }
        let base = format!("act{}", self.action_names);
        self.action_names += 1;
        let var = members.map(|m| {
            let v = self.next_var();
            self.scope.push(Var {
                name: v.clone(),
                lo: 0,
                hi: i64::from(m) - 1,
            });
            v
        });
        let name = match &var {
            Some(v) => format!("{base}[{v}]"),
            None => base.clone(),
        };
        let owner = a.owner.map(|o| self.agent(o));
        let guard = (a.guard.as_ref()).map(|g| self.bool_e(g, &Cx::public()).0);
        let mut lines = a.cases.clone();
        if let Some(split) = &a.split {
            let not = BoolE::Not(Box::new(split.clone()));
            for (line, pre) in lines.iter_mut().zip([split.clone(), not]) {
                if let CaseLine::One(case) = line {
                    case.pre = Some(pre);
                }
            }
        }
        let ev = Event {
            again: None,
            cases: lines,
            sees: a.sees.clone(),
            family: a.family.clone(),
            expects: a.expects.clone(),
            family_expects: None,
            actual: ActualLine::Missing,
        };
        // Its changes happen where it is done (`do` stands where ints change) or in a
        // plan's search (hypothetically): ints may change.
        let in_action = std::mem::replace(&mut self.in_action, true);
        let (mut body, cases) = self.case_lines(&ev, None);
        self.sees_lines(&ev, &cases, &mut body);
        self.expects_lines(&ev, &cases, &mut body);
        self.in_action = in_action;
        if var.is_some() {
            self.scope.pop();
        }
        let mut header = format!("action {name}");
        if let Some(owner) = &owner {
            header += &format!(" by {owner}");
        }
        if let Some(guard) = &guard {
            header += &format!(" if {guard}");
        }
        header += " {";
        let c = &mut self.printed.constructs;
        c.insert("action");
        c.insert(match cases.names.len() {
            1 => "action: 1 case",
            2 => "action: 2 cases",
            _ => "action: 3+ cases",
        });
        if owner.is_some() {
            c.insert("action: by");
        }
        if guard.is_some() {
            c.insert("action: if");
        }
        if body.iter().any(|l| l.contains(" sees ")) {
            c.insert("action: sees line");
        }
        if body.iter().any(|l| l.contains(" then ")) {
            c.insert("action: change");
        }
        if let Some(why) = refused {
            c.insert(why);
            let at = self.printed.text.len() + 2 * self.closers.len();
            self.printed.refused.push(at);
        }
        if let (Some(m), Some(v)) = (members, &var) {
            c.insert("action: a family in a for");
            self.open(&format!("for {v} in 0..{m} {{"), "}");
        }
        self.line(&header);
        for l in &body {
            self.line(&format!("  {l}"));
        }
        self.line("}");
        if members.is_some() {
            self.close();
        }
        if refused.is_some() {
            return;
        }
        let names: Vec<String> = match members {
            Some(m) => (0..m).map(|k| format!("{base}[{k}]")).collect(),
            None => vec![base],
        };
        for name in names {
            self.actions.push(ActionInfo {
                name,
                cases: cases.names.iter().map(|(c, _)| c.clone()).collect(),
                owned: owner.is_some(),
                usable: self.surely,
            });
        }
    }

    /// `do a, b: CASE`: the actions declared for sure, each with a case possible at the
    /// actual world (the evaluator says which), one that is not, or none; an action that
    /// cannot be done there is left out unless the item is `stuck` (a story error at it),
    /// and nothing follows an item that fails. Only where ints may change (`actual` names
    /// worlds by their values, and not the actions' cases), within the worlds' bound.
    pub(super) fn do_line(&mut self, items: &[DoItem], refused: Option<&'static str>) {
        let usable: Vec<ActionInfo> = (self.actions.iter())
            .filter(|a| a.usable)
            .cloned()
            .collect();
        if let Some(why) = refused {
            // Refused before its names are read.
            let name = match items.first() {
                Some(item) if !usable.is_empty() => {
                    usable[usize::from(item.action) % usable.len()].name.clone()
                }
                _ => "act0".to_string(),
            };
            self.printed.constructs.insert(why);
            let at = self.printed.text.len() + 2 * self.closers.len();
            self.printed.refused.push(at);
            self.line(&format!("do {name}"));
            return;
        }
        if usable.is_empty() || !self.ints_change() {
            return;
        }
        let mut written: Vec<String> = Vec::new();
        let mut factor: usize = 1;
        for item in items {
            let info = &usable[usize::from(item.action) % usable.len()];
            if !self.affordable(factor.saturating_mul(info.cases.len())) {
                continue;
            }
            let line = |case: Option<&str>| {
                let mut all = written.clone();
                all.push(match case {
                    Some(c) => format!("{}: {c}", info.name),
                    None => info.name.clone(),
                });
                format!("do {}", all.join(", "))
            };
            let pick = |list: &[&String], i: u32| list[i as usize % list.len()].clone();
            let (case, fails) = if self.actual {
                let (right, wrong): (Vec<&String>, Vec<&String>) =
                    (info.cases.iter()).partition(|c| !self.fails(&line(Some(c.as_str()))));
                match item.case {
                    ActualLine::Missing => (None, self.fails(&line(None))),
                    // The one case possible there, left implicit.
                    ActualLine::Right(i) if right.len() == 1 && i % 3 == 0 => (None, false),
                    ActualLine::Right(i) if !right.is_empty() => (Some(pick(&right, i)), false),
                    ActualLine::Right(_) if !item.stuck => continue,
                    ActualLine::Right(i) | ActualLine::Wrong(i) if !wrong.is_empty() => {
                        (Some(pick(&wrong, i)), true)
                    }
                    ActualLine::Right(i) | ActualLine::Wrong(i) => (Some(pick(&right, i)), false),
                }
            } else {
                // Without an actual world a case named is a story error.
                let case = match item.case {
                    ActualLine::Wrong(i) => Some(pick(&info.cases.iter().collect::<Vec<_>>(), i)),
                    _ => None,
                };
                let fails = self.fails(&line(case.as_deref()));
                if fails && !item.stuck && case.is_none() {
                    continue;
                }
                (case, fails)
            };
            let c = &mut self.printed.constructs;
            c.insert(match (&case, fails) {
                (Some(_), false) => "do: a case",
                (None, false) => "do: no case",
                (_, true) => "do: a story error",
            });
            written.push(match case {
                Some(c) => format!("{}: {c}", info.name),
                None => info.name.clone(),
            });
            factor = factor.saturating_mul(info.cases.len());
            if fails {
                break;
            }
        }
        if written.is_empty() {
            return;
        }
        let c = &mut self.printed.constructs;
        c.insert("do");
        if written.len() > 1 {
            c.insert("do: several actions");
        }
        if self.loops > 0 {
            c.insert("do in a loop");
        }
        self.world_bound =
            (self.world_bound).saturating_mul((factor.max(1) as u128).saturating_pow(self.runs));
        self.line(&format!("do {}", written.join(", ")));
    }

    /// `plan [all] φ max D [keeping ψ] [coordinated]`, with an action declared for sure
    /// before it (a story error otherwise); `coordinated` only when every action declared
    /// before has an owner; D lowered while the search's worlds would be too many.
    pub(super) fn plan(&mut self, p: &Plan, refused: Option<&'static str>) {
        if refused.is_none() && !self.actions.iter().any(|a| a.usable) {
            return;
        }
        let most = (self.actions.iter())
            .map(|a| a.cases.len())
            .max()
            .unwrap_or(1)
            .max(1) as u128;
        let worlds =
            |max: u8| (self.world_bound).saturating_mul(most.saturating_pow(u32::from(max)));
        let coordinated =
            p.coordinated && !self.actions.is_empty() && self.actions.iter().all(|a| a.owned);
        let mut max = p.max.clamp(1, 3);
        while max > 1 && worlds(max) > PLAN_WORLDS {
            max -= 1;
        }
        let goal = self.bool_e(&p.goal, &Cx::public()).0;
        let keeping = (p.keeping.as_ref()).map(|k| self.bool_e(k, &Cx::public()).0);
        let line = |goal: &str| {
            // `all (x in …` would open an aggregate, `all(x in …: …)`.
            let goal = if p.all && goal.starts_with('(') {
                format!("({goal})")
            } else {
                goal.to_string()
            };
            let mut l = format!("plan{} {goal} max {max}", if p.all { " all" } else { "" });
            if let Some(k) = &keeping {
                l += &format!(" keeping {k}");
            }
            if coordinated {
                l += " coordinated";
            }
            l
        };
        let mut text = line(&goal);
        if let Some(why) = refused {
            self.printed.constructs.insert(why);
            let at = self.printed.text.len() + 2 * self.closers.len();
            self.printed.refused.push(at);
            self.line(&text);
            return;
        }
        if p.steer {
            // The goal, its negation, then each alternative and its negation: the first
            // with a plan of at least one action (the goal when none has).
            let mut goals = vec![goal.clone()];
            for alt in &p.alternatives {
                goals.extend(self.goal(alt));
            }
            let candidates = goals
                .iter()
                .flat_map(|g| [line(g), line(&format!("not ({g})"))]);
            for (k, candidate) in candidates.enumerate() {
                let found = self.plan_answer(&candidate);
                if found.is_some_and(|plans| plans.iter().any(|p| !p.is_empty())) {
                    self.printed.constructs.insert(match k {
                        0 => "plan: the goal as generated",
                        1 => "plan: the goal negated",
                        _ => "plan: an alternative goal",
                    });
                    text = candidate;
                    break;
                }
            }
        }
        let c = &mut self.printed.constructs;
        c.insert("plan");
        if p.all {
            c.insert("plan all");
        }
        if keeping.is_some() {
            c.insert("plan: keeping");
        }
        if coordinated {
            c.insert("plan: coordinated");
        }
        c.insert(match max {
            1 => "plan: max 1",
            2 => "plan: max 2",
            _ => "plan: max 3",
        });
        self.line(&text);
    }

    /// A goal about a constant the actions change (any constant when they change none):
    /// its value or what a character knows of it; None when there is no constant.
    fn goal(&self, g: &Goal) -> Option<String> {
        let names: Vec<String> = (self.int_names().into_iter())
            .chain(self.bool_names())
            .chain(self.enum_names())
            .collect();
        let targets: Vec<String> = (self.action_targets.iter())
            .filter(|t| names.contains(t))
            .cloned()
            .collect();
        let from = if targets.is_empty() { &names } else { &targets };
        let t = Self::pick(from, g.target)?;
        let base = t.split('[').next().unwrap_or(&t);
        let ty = (self.consts.iter())
            .find(|(name, _)| name == &t || name.split('[').next() == Some(base))
            .map(|(_, ty)| *ty)?;
        let v = g.value;
        let value = match ty {
            Ty::Bool if v.is_multiple_of(2) => t.clone(),
            Ty::Bool => format!("not {t}"),
            Ty::Enum(_) => {
                let colours = usize::from(self.d.colours.clamp(1, 3));
                format!("{t} == {}", COLOURS[usize::from(v) % colours])
            }
            Ty::Int => {
                let k = i64::from(v % 5) - 1;
                if v.is_multiple_of(3) {
                    format!("{t} > {}", operand(lit(k)))
                } else {
                    format!("{t} == {}", operand(lit(k)))
                }
            }
        };
        let a = self.agent(g.agent);
        Some(match g.form {
            0..=2 => value,
            3 => format!("knows({a}, {value})"),
            4 => format!("knows_value({a}, {t})"),
            5 => format!("not knows_value({a}, {t})"),
            6 => format!("everyone_knows({value})"),
            _ => format!("({value}) and knows_value({a}, {t})"),
        })
    }

    /// The plans the evaluator finds for `candidate`, the next line (at its first run;
    /// None when the run does not get there or stops at it).
    fn plan_answer(&self, candidate: &str) -> Option<Vec<Vec<usize>>> {
        let (text, start, end) = self.with_line(candidate);
        let trace = self.printed.trace(&text)?;
        trace.events.iter().find_map(|e| match e {
            bruteforce::Report::Plan { span, plans, .. } if (start..end).contains(&span.start) => {
                Some(
                    plans
                        .iter()
                        .map(|p| p.iter().map(|a| a.0).collect())
                        .collect(),
                )
            }
            _ => None,
        })
    }
}
