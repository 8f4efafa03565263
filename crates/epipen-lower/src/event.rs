//! Events: `event NAME { … }` lowered to an [`ir::EventStmt`]. The block's `for` and
//! `if` lines are unrolled first (cases, `sees` lines and `actual` written by loops),
//! then every case named in a `sees` line or by `actual` is resolved against the cases.

use std::collections::HashMap;

use epipen_ir::{self as ir, CharId, ConstId, EnumId, EventId, Ty};
use epipen_syntax::ast::{self, CaseName, EventItemKind, GroupItem, Ident};
use epipen_syntax::{Diagnostic, Span};

use crate::{Ctx, Entity, Lowerer, Objective, closest, list};

/// The most executions of events a story may allocate (each is a hidden constant that
/// records its case).
const MAX_OCCURRENCES: u64 = 10_000;

/// A case of the block, lowered.
struct CaseLine {
    name: String,
    span: Span,
    pre: Option<ir::Expr>,
    weight: Option<ir::Expr>,
    changes: Vec<(ConstId, ir::Expr)>,
}

/// A case as a `sees`, `expects` or `actual` line names it, unrolled.
enum Named {
    /// One case, by its full name (`face[3]`).
    One(String, Span),
    /// A family of cases written without an index (`face`): every case `face[…]`.
    Family(String, Span),
    /// `others`.
    Others(Span),
}

/// A `sees` or `expects` line, unrolled: its character and groups of named cases.
struct GroupLine {
    who: CharId,
    groups: Vec<Vec<Named>>,
    span: Span,
}

/// What gives the event of a block's cases (see [`Lowerer::event_body`]).
pub(crate) type Declare<'d> = dyn FnMut(&mut Lowerer, &[String]) -> Option<Option<EventId>> + 'd;

/// Whose cases a line names, for messages: `the event `move``, `the action `flip``.
#[derive(Clone, Copy)]
pub(crate) struct Owner<'n> {
    /// "event" or "action".
    pub(crate) what: &'n str,
    pub(crate) name: &'n str,
}

/// The block of an event, unrolled.
#[derive(Default)]
struct Unrolled {
    cases: Vec<CaseLine>,
    sees: Vec<GroupLine>,
    expects: Vec<GroupLine>,
    actual: Vec<(String, Span, Span)>,
    /// Some line failed (already reported).
    failed: bool,
}

impl Lowerer {
    /// `event NAME { … }` at `span`.
    pub(crate) fn event(
        &mut self,
        name: &Ident,
        body: &[ast::EventItem],
        span: Span,
    ) -> Option<ir::StmtKind> {
        let mut stmt = self.event_body(&name.name, "event", body, span, &mut |l, cases| {
            l.event_def(name, cases).map(Some)
        })?;
        stmt.occurrences = self.occurrences(stmt.event, span, "event")?;
        Some(ir::StmtKind::Event(Box::new(stmt)))
    }

    /// The block of an event or action (`what`: "event" or "action", named `name` in
    /// messages) at `span`, lowered: its lines unrolled, cases, `sees`, `expects` and
    /// `actual` lines checked. `declare` gives the event of the cases (None: the cases
    /// are checked but nothing is built; failing: it reported why). None in code that
    /// does not run, and on an error (reported); the statement has no occurrences yet.
    /// An action's block has no `actual` line.
    pub(crate) fn event_body(
        &mut self,
        name: &str,
        what: &str,
        body: &[ast::EventItem],
        span: Span,
        declare: &mut Declare<'_>,
    ) -> Option<ir::EventStmt> {
        let mut block = Unrolled::default();
        self.event_items(body, &mut block);
        if what == "action" {
            for (_, _, line) in &block.actual {
                self.error(
                    Diagnostic::error(*line, "an action's block has no `actual` line").with_hint(
                        "the case that happens is said where the action is done: `do NAME: CASE`",
                    ),
                );
                block.failed = true;
            }
            block.actual.clear();
        }
        // In code that does not run, a line that failed (an index out of range, not
        // reported there) still leaves its case: the event is declared, so that later
        // statements may name it (and fail, when they run, as it has not happened).
        if block.failed && self.dead == 0 {
            return None;
        }
        if block.cases.is_empty() && self.dead > 0 {
            return None;
        }
        if block.cases.is_empty() {
            self.error(
                Diagnostic::error(span, format!("the {what} `{name}` has no cases"))
                    .with_hint("write its cases in the block, e.g. `moved if … then …`"),
            );
            return None;
        }
        let mut index: HashMap<String, usize> = HashMap::new();
        for (k, case) in block.cases.iter().enumerate() {
            if let Some(&first) = index.get(&case.name) {
                self.error(
                    Diagnostic::error(
                        case.span,
                        format!("the case `{}` is written twice", case.name),
                    )
                    .with_note(block.cases[first].span, "the first")
                    .with_hint(format!("every case of an {what} needs a name of its own")),
                );
                return None;
            }
            index.insert(case.name.clone(), k);
        }
        let names: Vec<String> = block.cases.iter().map(|c| c.name.clone()).collect();
        let event = declare(self, &names)?;
        let owner = Owner { what, name };
        let mut sees: Vec<Option<Vec<usize>>> = vec![None; self.characters.len()];
        let mut ok = true;
        for line in &block.sees {
            match self.partition(owner, &names, &index, line, "sees") {
                Some(groups) if sees[line.who.0].is_none() => sees[line.who.0] = Some(groups),
                Some(_) => {
                    ok = false;
                    let who = self.characters[line.who.0].name.clone();
                    self.error(
                        Diagnostic::error(line.span, format!("{who} has two `sees` lines"))
                            .with_hint(
                                "one line says every group of cases a character tells apart",
                            ),
                    );
                }
                None => ok = false,
            }
        }
        let mut expects: Vec<Option<Vec<usize>>> = vec![None; self.characters.len()];
        for line in &block.expects {
            match self.partition(owner, &names, &index, line, "expects") {
                Some(ranks) if expects[line.who.0].is_none() => expects[line.who.0] = Some(ranks),
                Some(_) => {
                    ok = false;
                    let who = self.characters[line.who.0].name.clone();
                    self.error(
                        Diagnostic::error(line.span, format!("{who} has two `expects` lines"))
                            .with_hint(
                                "one line orders the cases, most plausible first: `a > b, c`",
                            ),
                    );
                }
                None => ok = false,
            }
        }
        let (actual, actual_at) = match block.actual.as_slice() {
            [] => (None, None),
            [(case, at, line)] => match self.case_index(owner, &names, &index, case, *at) {
                Some(k) => (Some(k), Some(*line)),
                None => return None,
            },
            [_, (_, second, _), ..] => {
                self.error(
                    Diagnostic::error(*second, "the event has two `actual` lines")
                        .with_hint("one case happened: keep one `actual` line"),
                );
                return None;
            }
        };
        if !ok {
            return None;
        }
        if self.dead > 0 {
            return None;
        }
        let event = event?;
        let cases = block
            .cases
            .into_iter()
            .map(|c| ir::Case {
                name: c.name,
                pre: c.pre,
                changes: c.changes,
                weight: c.weight,
                span: c.span,
            })
            .collect();
        Some(ir::EventStmt {
            event,
            cases,
            sees,
            expects,
            actual,
            actual_at,
            occurrences: Vec::new(),
        })
    }

    /// Unrolls the lines of an event block into `out`.
    fn event_items(&mut self, items: &[ast::EventItem], out: &mut Unrolled) {
        for item in items {
            self.current = item.span.start;
            match &item.kind {
                EventItemKind::Case {
                    name,
                    pre,
                    weight,
                    changes,
                } => {
                    let Some(full) = self.case_name(name) else {
                        out.failed = true;
                        continue;
                    };
                    let pre = pre.as_ref().map(|p| {
                        let formula = self.expr(p, Ctx::storyteller());
                        self.formula(formula)
                    });
                    let pre = match pre {
                        None => None,
                        Some(Some(pre)) => Some(pre),
                        Some(None) => {
                            out.failed = true;
                            None
                        }
                    };
                    let weight = match weight {
                        None => None,
                        Some(w) => {
                            let w = self.weight_expr(w, Objective::Weight);
                            if w.is_none() {
                                out.failed = true;
                            }
                            w
                        }
                    };
                    let changes = self.changes(changes).unwrap_or_else(|| {
                        out.failed = true;
                        Vec::new()
                    });
                    out.cases.push(CaseLine {
                        name: full,
                        span: name.span,
                        pre,
                        weight,
                        changes,
                    });
                }
                EventItemKind::Sees { who, groups } if comma_for_bar(groups) => {
                    // `C sees o2, o3`: one group, so C would tell no case apart, the
                    // same as no `sees` line; a newcomer meant `|`.
                    let Some(who) = self.character_expr(who) else {
                        out.failed = true;
                        continue;
                    };
                    let name = self.characters[who.0].name.clone();
                    let cases: Vec<String> = (groups[0].iter())
                        .filter_map(|g| match g {
                            GroupItem::Case(case) => self.case_name(case),
                            _ => None,
                        })
                        .collect();
                    self.error(
                        Diagnostic::error(
                            item.span,
                            format!("{name}'s `sees` line has one group: {name} would tell no case apart"),
                        )
                        .with_hint(format!(
                            "separate the groups with `|`: `{name} sees {}` (a comma puts cases in one group); \
                             a character with no `sees` line tells no case apart",
                            cases.join(" | ")
                        )),
                    );
                    out.failed = true;
                }
                EventItemKind::Sees { who, groups } | EventItemKind::Expects { who, groups } => {
                    let who = self.character_expr(who);
                    let groups = self.named_groups(groups);
                    match (who, groups) {
                        (Some(who), Some(groups)) => {
                            let line = GroupLine {
                                who,
                                groups,
                                span: item.span,
                            };
                            if matches!(item.kind, EventItemKind::Sees { .. }) {
                                out.sees.push(line);
                            } else {
                                out.expects.push(line);
                            }
                        }
                        _ => out.failed = true,
                    }
                }
                EventItemKind::Actual(case) => match self.case_name(case) {
                    Some(full) => out.actual.push((full, case.span, item.span)),
                    None => out.failed = true,
                },
                EventItemKind::For { var, range, body } => {
                    let values = self.range(range);
                    self.check_loop_var(var);
                    match values {
                        Some(values) if !values.is_empty() => {
                            for value in values.iter() {
                                if !self.spend(range.span()) {
                                    out.failed = true;
                                    break;
                                }
                                self.bound(&var.name, value, |l| l.event_items(body, out));
                            }
                        }
                        // An empty loop's lines are checked, not kept.
                        Some(values) => self.dead(|l| {
                            l.bound(&var.name, values.placeholder(), |l| {
                                l.event_items(body, &mut Unrolled::default())
                            })
                        }),
                        None => out.failed = true,
                    }
                }
                EventItemKind::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    let otherwise = otherwise.as_deref().unwrap_or_default();
                    let mut scratch = Unrolled::default();
                    match self.compile_time_bool(cond, "the condition of `if`") {
                        Some(true) => {
                            self.event_items(then, out);
                            self.dead(|l| l.event_items(otherwise, &mut scratch));
                        }
                        Some(false) => {
                            self.dead(|l| l.event_items(then, &mut scratch));
                            self.event_items(otherwise, out);
                        }
                        None => out.failed = true,
                    }
                }
            }
        }
    }

    /// A case's full name: `moved`, `face[3]`, `call[0, 1]` (indices compile-time).
    pub(crate) fn case_name(&mut self, case: &CaseName) -> Option<String> {
        if case.indices.is_empty() {
            return Some(case.name.name.clone());
        }
        let mut values = Vec::with_capacity(case.indices.len());
        for index in &case.indices {
            values.push(self.compile_time_int(index, "a case's index")?.to_string());
        }
        Some(format!("{}[{}]", case.name.name, values.join(", ")))
    }

    /// The changes of a case (loops unrolled): as `x, y := e, f` checks them.
    fn changes(&mut self, changes: &[ast::Change]) -> Option<Vec<(ConstId, ir::Expr)>> {
        let mut acc = crate::change::Gathered::default();
        self.gather_changes(changes, &mut acc);
        (!acc.failed).then_some(acc.changes)
    }

    /// One `x := e`: the constant and its new value, checked as `:=` checks them.
    pub(crate) fn change(
        &mut self,
        target: &ast::Expr,
        value: &ast::Expr,
    ) -> Option<(ConstId, ir::Expr)> {
        let ctx = Ctx {
            objective: Some(Objective::Assign),
            ..Ctx::storyteller()
        };
        let lowered = self.expr(target, ctx);
        let value = self.compared(value, lowered.as_ref(), ctx);
        let target = match lowered {
            Some(ir::Expr {
                kind: ir::ExprKind::Const(c),
                ..
            }) if self.constants[c.0].occurrence.is_some() => {
                // A builder's execution of an event (`ExprKind::Execution`).
                let message = "an execution's case records what happened: `:=` cannot change it";
                self.error(Diagnostic::error(target.span, message));
                return None;
            }
            Some(ir::Expr {
                kind: ir::ExprKind::Const(c),
                ..
            }) => c,
            Some(_) => {
                self.error(
                    Diagnostic::error(target.span, "only a constant can be given a new value")
                        .with_hint("write e.g. `x := x + 1` or `b[i] := not b[i]`"),
                );
                return None;
            }
            None => return None,
        };
        let value = value?;
        self.expect(&value, self.constants[target.0].ty)
            .then_some((target, value))
    }

    /// The groups of a `sees` or `expects` line, unrolled.
    fn named_groups(&mut self, groups: &[Vec<GroupItem>]) -> Option<Vec<Vec<Named>>> {
        let mut out = Vec::with_capacity(groups.len());
        let mut ok = true;
        for group in groups {
            let mut named = Vec::new();
            for item in group {
                match item {
                    GroupItem::Case(case) if case.indices.is_empty() => {
                        named.push(Named::Family(case.name.name.clone(), case.span));
                    }
                    GroupItem::Case(case) => match self.case_name(case) {
                        Some(full) => named.push(Named::One(full, case.span)),
                        None => ok = false,
                    },
                    GroupItem::Others(span) => named.push(Named::Others(*span)),
                    GroupItem::Each {
                        binders,
                        guard,
                        case,
                        span,
                    }
                    | GroupItem::All {
                        binders,
                        guard,
                        case,
                        span,
                    } => {
                        if matches!(item, GroupItem::Each { .. }) && group.len() > 1 {
                            self.error(
                                Diagnostic::error(*span, "`each(…)` is a whole group of its own")
                                    .with_hint(
                                        "separate it with `|`; `all(…)` puts cases in this group",
                                    ),
                            );
                            ok = false;
                            continue;
                        }
                        let mut cases = Vec::new();
                        ok &= self.comprehension(binders, guard.as_deref(), case, &mut cases);
                        if matches!(item, GroupItem::Each { .. }) {
                            out.extend(cases.into_iter().map(|c| vec![c]));
                        } else {
                            named.extend(cases);
                        }
                    }
                }
            }
            if !named.is_empty() {
                out.push(named);
            }
        }
        ok.then_some(out)
    }

    /// The cases `binders [if guard]: case` names, in order.
    fn comprehension(
        &mut self,
        binders: &[ast::Binder],
        guard: Option<&ast::Expr>,
        case: &CaseName,
        out: &mut Vec<Named>,
    ) -> bool {
        let Some((first, rest)) = binders.split_first() else {
            if let Some(guard) = guard {
                match self.compile_time_bool(guard, "the condition of `each`/`all`") {
                    Some(true) => {}
                    Some(false) => return true,
                    None => return false,
                }
            }
            return match self.case_name(case) {
                Some(full) => {
                    out.push(Named::One(full, case.span));
                    true
                }
                None => false,
            };
        };
        self.check_loop_var(&first.var);
        let Some(values) = self.range(&first.range) else {
            return false;
        };
        for value in values.iter() {
            if !self.spend(first.range.span()) {
                return false;
            }
            let ok = self.bound(&first.var.name, value, |l| {
                l.comprehension(rest, guard, case, out)
            });
            if !ok {
                return false;
            }
        }
        true
    }

    /// The event called `name` with these cases: the first `event` statement of that
    /// name declares it (and its enum); later ones must have the same cases.
    fn event_def(&mut self, name: &Ident, cases: &[String]) -> Option<EventId> {
        if let Some(Entity::Event(id)) = self.names.get(&name.name).copied() {
            if let Some(action) = (self.planning.actions.iter()).find(|a| a.body.event == id) {
                self.error(
                    Diagnostic::error(name.span, format!("`{}` is an action", name.name))
                        .with_note(action.span, "its declaration")
                        .with_hint(format!(
                            "an action is done by `do {}`; an event needs a name of its own",
                            name.name
                        )),
                );
                return None;
            }
            let def = &self.events[id.0];
            if def.cases != cases {
                let first = def.span;
                let theirs: Vec<&str> = def.cases.iter().map(String::as_str).collect();
                self.error(
                    Diagnostic::error(
                        name.span,
                        format!("the event `{}` has other cases here", name.name),
                    )
                    .with_note(first, "its first `event` statement")
                    .with_hint(format!(
                        "every `event {}` has the same cases, in the same order: {}",
                        name.name,
                        list(&theirs)
                    )),
                );
                return None;
            }
            return Some(id);
        }
        if !self.declare(name, false) {
            return None;
        }
        let id = EventId(self.events.len());
        let sort = EnumId(self.enums.len());
        let mut variants = cases.to_vec();
        variants.push(format!("(no {} yet)", name.name));
        self.enums.push(ir::EnumDef {
            name: name.name.clone(),
            variants,
            span: name.span,
        });
        self.event_of_sort.insert(sort, self.events.len());
        self.events.push(ir::EventDef {
            name: name.name.clone(),
            cases: cases.to_vec(),
            sort,
            span: name.span,
        });
        self.names.insert(name.name.clone(), Entity::Event(id));
        Some(id)
    }

    /// The index of the case `case` (written at `at`) of the event or action `owner`.
    pub(crate) fn case_index(
        &mut self,
        owner: Owner,
        cases: &[String],
        index: &HashMap<String, usize>,
        case: &str,
        at: Span,
    ) -> Option<usize> {
        if let Some(&k) = index.get(case) {
            return Some(k);
        }
        let names: Vec<&str> = cases.iter().map(String::as_str).collect();
        let hint = match closest(case, names.iter().copied()) {
            Some(close) => format!("did you mean `{close}`?"),
            // `A sees each`: every case apart, as prose says it.
            None if matches!(case, "each" | "all") => format!(
                "its cases are {}; `{case}` takes a binder, `{case}(i in 0..n: c[i])`, and \
                 a line that tells every case apart lists them: `{}`",
                list(&names),
                names.join(" | ")
            ),
            None => format!("its cases are {}", list(&names)),
        };
        self.error(
            Diagnostic::error(
                at,
                format!("the {} `{}` has no case `{case}`", owner.what, owner.name),
            )
            .with_hint(hint),
        );
        None
    }

    /// The group of each case in a `sees` line (every case in exactly one group, groups
    /// numbered in order of appearance), or its rank in an `expects` line (groups in the
    /// line's order, most plausible first; cases it does not name come last, equally
    /// plausible).
    fn partition(
        &mut self,
        owner: Owner,
        cases: &[String],
        index: &HashMap<String, usize>,
        line: &GroupLine,
        keyword: &str,
    ) -> Option<Vec<usize>> {
        let who = self.characters[line.who.0].name.clone();
        let mut group_of: Vec<Option<usize>> = vec![None; cases.len()];
        let mut others: Option<(usize, Span)> = None;
        let mut ok = true;
        for (g, group) in line.groups.iter().enumerate() {
            for named in group {
                let (members, at): (Vec<usize>, Span) = match named {
                    Named::One(case, at) => match self.case_index(owner, cases, index, case, *at) {
                        Some(k) => (vec![k], *at),
                        None => {
                            ok = false;
                            continue;
                        }
                    },
                    Named::Family(family, at) => {
                        let prefix = format!("{family}[");
                        let members: Vec<usize> = match index.get(family) {
                            Some(&k) => vec![k],
                            None => (cases.iter().enumerate())
                                .filter(|(_, c)| c.starts_with(&prefix))
                                .map(|(k, _)| k)
                                .collect(),
                        };
                        if members.is_empty() {
                            self.case_index(owner, cases, index, family, *at);
                            ok = false;
                            continue;
                        }
                        (members, *at)
                    }
                    Named::Others(at) => {
                        if others.is_some() {
                            self.error(
                                Diagnostic::error(
                                    *at,
                                    format!("`others` twice in {who}'s `{keyword}` line"),
                                )
                                .with_hint(
                                    "`others` is one group: every case the line names nowhere else",
                                ),
                            );
                            ok = false;
                        }
                        others = Some((g, *at));
                        continue;
                    }
                };
                for k in members {
                    if let Some(first) = group_of[k] {
                        let message = if first == g {
                            format!("the case `{}` is named twice in one group", cases[k])
                        } else {
                            format!(
                                "the case `{}` is in two groups of {who}'s `{keyword}` line",
                                cases[k]
                            )
                        };
                        self.error(
                            Diagnostic::error(at, message)
                                .with_hint("every case is in exactly one group of the line"),
                        );
                        ok = false;
                    }
                    group_of[k] = Some(g);
                }
            }
        }
        if let Some((g, _)) = others {
            for slot in group_of.iter_mut().filter(|s| s.is_none()) {
                *slot = Some(g);
            }
        }
        if keyword == "expects" {
            let last = line.groups.len();
            return ok.then(|| group_of.into_iter().map(|g| g.unwrap_or(last)).collect());
        }
        let missing: Vec<&str> = (cases.iter().zip(&group_of))
            .filter(|(_, g)| g.is_none())
            .map(|(c, _)| c.as_str())
            .collect();
        if ok && !missing.is_empty() {
            let (what, verb) = if missing.len() == 1 {
                ("case", "is")
            } else {
                ("cases", "are")
            };
            self.error(
                Diagnostic::error(
                    line.span,
                    format!(
                        "the {what} {} {verb} in no group of {who}'s `{keyword}` line",
                        list(&missing)
                    ),
                )
                .with_hint(
                    "every case is in exactly one group: add it, or end the line with `| others`",
                ),
            );
            ok = false;
        }
        if !ok {
            return None;
        }
        // Groups numbered in order of first appearance, so equal partitions are equal.
        let mut renumber: HashMap<usize, usize> = HashMap::new();
        Some(
            group_of
                .into_iter()
                .map(|g| {
                    let g = g.expect("every case has a group");
                    let next = renumber.len();
                    *renumber.entry(g).or_insert(next)
                })
                .collect(),
        )
    }

    /// Allocates the occurrence constants of an `event` statement or a `do` of an
    /// action (`what`) at `span`: one per execution (the rounds of the `repeat`s around
    /// it).
    pub(crate) fn occurrences(
        &mut self,
        event: EventId,
        span: Span,
        what: &str,
    ) -> Option<Vec<ConstId>> {
        let executions = self
            .repeat_rounds
            .iter()
            .try_fold(1u64, |n, &r| n.checked_mul(r))
            .filter(|&n| self.occurrences_made + n <= MAX_OCCURRENCES);
        let Some(executions) = executions else {
            self.error(
                Diagnostic::error(
                    span,
                    format!(
                        "this {what} can happen too many times (the rounds of the `repeat`s around it)"
                    ),
                )
                .with_hint(format!(
                    "a story runs at most {MAX_OCCURRENCES} events; lower the `repeat`'s max"
                )),
            );
            return None;
        };
        self.occurrences_made += executions;
        let sort = self.events[event.0].sort;
        let name = self.events[event.0].name.clone();
        Some(
            (0..executions)
                .map(|_| {
                    let id = ConstId(self.constants.len());
                    self.constants.push(ir::Constant {
                        name: name.clone(),
                        ty: Ty::Enum(sort),
                        span,
                        occurrence: Some(ir::Occurrence { event }),
                    });
                    id
                })
                .collect(),
        )
    }
}

impl Lowerer {
    /// Both sides of `==` / `!=`. Next to an event (`move == moved`), a name that is one
    /// of its cases is that case.
    pub(crate) fn comparands(
        &mut self,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        ctx: Ctx,
    ) -> (Option<ir::Expr>, Option<ir::Expr>) {
        let (l_needs, r_needs) = (self.needs_context(lhs), self.needs_context(rhs));
        if l_needs && r_needs {
            // Neither side says which event: the one whose cases they name, if only one.
            let Ok(context) = self.guessed_event(&[lhs, rhs]) else {
                return (None, None);
            };
            let l = self.compared(lhs, context.as_ref(), ctx);
            let r = self.compared(rhs, context.as_ref(), ctx);
            (l, r)
        } else if l_needs {
            let r = self.expr(rhs, ctx);
            let l = self.compared(lhs, r.as_ref(), ctx);
            (l, r)
        } else {
            let l = self.expr(lhs, ctx);
            let r = self.compared(rhs, l.as_ref(), ctx);
            (l, r)
        }
    }

    /// `e` compared with `other`: the case it names when `other` is an event and `e` one
    /// of its cases (`moved`, `face[3]`, `call[0, 1]`), else `e` as any expression.
    pub(crate) fn compared(
        &mut self,
        e: &ast::Expr,
        other: Option<&ir::Expr>,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let event = other.and_then(|o| match o.ty {
            Ty::Enum(sort) => self.event_of_sort.get(&sort).copied(),
            _ => None,
        });
        if let (
            ast::ExprKind::Ite {
                cond,
                then,
                otherwise,
            },
            Some(_),
        ) = (&e.kind, event)
        {
            return self.ite(cond, then, otherwise, e.span, ctx, other);
        }
        let name = match (&e.kind, event) {
            (ast::ExprKind::Name(n), Some(_)) if self.loop_var(&n.name).is_none() => {
                Some(n.name.clone())
            }
            (ast::ExprKind::Index { base, index }, Some(_)) => {
                let indices = match &index.kind {
                    ast::ExprKind::Tuple(items) => items.iter().collect::<Vec<_>>(),
                    _ => vec![&**index],
                };
                let mut values = Vec::new();
                for i in indices {
                    values.push(self.compile_time_int(i, "a case's index")?.to_string());
                }
                Some(format!("{}[{}]", base.name, values.join(", ")))
            }
            _ => None,
        };
        if let (Some(name), Some(event)) = (name, event) {
            let def = &self.events[event];
            if let Some(k) = def.cases.iter().position(|c| *c == name) {
                return Some(ir::Expr {
                    kind: ir::ExprKind::Int(k as i64),
                    ty: Ty::Enum(def.sort),
                    span: e.span,
                });
            }
            let family = match &e.kind {
                ast::ExprKind::Index { base, .. } => {
                    let prefix = format!("{}[", base.name);
                    def.cases.iter().any(|c| c.starts_with(&prefix))
                }
                _ => false,
            };
            if family && self.dead > 0 {
                // Code that does not run: its indices are placeholders.
                return Some(ir::Expr {
                    kind: ir::ExprKind::Int(0),
                    ty: Ty::Enum(def.sort),
                    span: e.span,
                });
            }
            if family || self.unknown_name(e) {
                let cases: Vec<&str> = def.cases.iter().map(String::as_str).collect();
                let hint = match closest(&name, cases.iter().copied()) {
                    Some(close) => format!("did you mean `{close}`?"),
                    None => format!("its cases are {}", list(&cases)),
                };
                let message = format!("the event `{}` has no case `{name}`", def.name);
                self.error(Diagnostic::error(e.span, message).with_hint(hint));
                return None;
            }
        }
        self.expr(e, ctx)
    }

    /// Whether `e` needs the type its context expects to be understood: a case name, or
    /// an `if` with one in a branch.
    pub(crate) fn needs_context(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ast::ExprKind::Ite {
                then, otherwise, ..
            } => self.needs_context(then) || self.needs_context(otherwise),
            _ => self.unknown_name(e),
        }
    }

    /// The events that have a case named like `name` (`c01`, or a family `c` of
    /// `c[0, 1]`).
    pub(crate) fn events_with_case(&self, name: &str, family: bool) -> Vec<usize> {
        let prefix = format!("{name}[");
        (self.events.iter().enumerate())
            .filter(|(_, d)| {
                d.cases.iter().any(|c| {
                    if family {
                        c.starts_with(&prefix)
                    } else {
                        c == name
                    }
                })
            })
            .map(|(k, _)| k)
            .collect()
    }

    /// The event whose cases the case names in `exprs` (their leaves that need a
    /// context) are, as a placeholder of its sort, when exactly one event has them all.
    /// Several: an error that names them; none: None (the names are reported unknown).
    fn guessed_event(&mut self, exprs: &[&ast::Expr]) -> Result<Option<ir::Expr>, ()> {
        fn leaves<'e>(l: &Lowerer, e: &'e ast::Expr, out: &mut Vec<&'e ast::Expr>) {
            match &e.kind {
                ast::ExprKind::Ite {
                    then, otherwise, ..
                } => {
                    leaves(l, then, out);
                    leaves(l, otherwise, out);
                }
                _ if l.unknown_name(e) => out.push(e),
                _ => {}
            }
        }
        let mut names = Vec::new();
        for e in exprs {
            leaves(self, e, &mut names);
        }
        let mut candidates: Option<Vec<usize>> = None;
        for leaf in &names {
            let found = match &leaf.kind {
                ast::ExprKind::Name(n) => self.events_with_case(&n.name, false),
                ast::ExprKind::Index { base, .. } => self.events_with_case(&base.name, true),
                _ => continue,
            };
            candidates = Some(match candidates {
                None => found,
                Some(c) => c.into_iter().filter(|k| found.contains(k)).collect(),
            });
        }
        let Some(candidates) = candidates else {
            return Ok(None);
        };
        match candidates.as_slice() {
            [k] => Ok(Some(ir::Expr {
                kind: ir::ExprKind::Int(0),
                ty: Ty::Enum(self.events[*k].sort),
                span: exprs[0].span,
            })),
            [] => Ok(None),
            several => {
                let events: Vec<String> = several
                    .iter()
                    .map(|k| self.events[*k].name.clone())
                    .collect();
                let span = exprs[0].span.to(exprs[exprs.len() - 1].span);
                let first = &self.events[several[0]].name;
                self.error(
                    Diagnostic::error(
                        span,
                        format!(
                            "these cases are ambiguous: cases of the events {}",
                            list(&events.iter().map(String::as_str).collect::<Vec<_>>())
                        ),
                    )
                    .with_hint(format!(
                        "compare them with the event meant, e.g. `{first} == …`"
                    )),
                );
                Err(())
            }
        }
    }

    /// Whether `e` is a name (or a name with an index) that names nothing declared: a
    /// case, if anything.
    fn unknown_name(&self, e: &ast::Expr) -> bool {
        let name = match &e.kind {
            ast::ExprKind::Name(n) | ast::ExprKind::Index { base: n, .. } => n,
            _ => return false,
        };
        self.loop_var(&name.name).is_none() && !self.names.contains_key(&name.name)
    }
}

/// Names the occurrence constants: `move` for an event that happens once at most,
/// `move#1`, `move#2`, … in the order of their statements and rounds otherwise.
pub(crate) fn name_occurrences(constants: &mut [ir::Constant], events: &[ir::EventDef]) {
    let mut count = vec![0usize; events.len()];
    for c in constants.iter() {
        if let Some(o) = c.occurrence {
            count[o.event.0] += 1;
        }
    }
    let mut seen = vec![0usize; events.len()];
    for c in constants.iter_mut() {
        if let Some(o) = c.occurrence
            && count[o.event.0] > 1
        {
            seen[o.event.0] += 1;
            c.name = format!("{}#{}", events[o.event.0].name, seen[o.event.0]);
        }
    }
}

/// Whether a `sees` line's groups are one group of several cases named one by one (`C
/// sees o2, o3`): a comma written for `|`.
fn comma_for_bar(groups: &[Vec<GroupItem>]) -> bool {
    matches!(groups, [one] if one.len() > 1 && one.iter().all(|g| matches!(g, GroupItem::Case(_))))
}

impl Lowerer {
    /// `event#k` ([`ast::ExprKind::Execution`], the builders'): the occurrence of the
    /// `k`-th execution (from 1) of the event or action named `event`.
    pub(crate) fn execution(
        &mut self,
        event: &ast::Ident,
        k: usize,
        span: Span,
    ) -> Option<ir::Expr> {
        let id = match self.names.get(&event.name) {
            Some(Entity::Event(id)) => Some(*id),
            _ => (self.planning.actions.iter())
                .find(|a| a.name == event.name)
                .map(|a| a.body.event),
        };
        let Some(id) = id else {
            self.error(Diagnostic::error(
                event.span,
                format!("`{}` is no event or action of the story", event.name),
            ));
            return None;
        };
        let found = k.checked_sub(1).and_then(|k| {
            (self.constants.iter().enumerate())
                .filter(|(_, c)| c.occurrence.is_some_and(|o| o.event == id))
                .nth(k)
                .map(|(c, constant)| (c, constant.ty))
        });
        let Some((c, ty)) = found else {
            let ran = (self.constants.iter())
                .filter(|c| c.occurrence.is_some_and(|o| o.event == id))
                .count();
            self.error(Diagnostic::error(
                event.span,
                format!(
                    "`{}` has no execution #{k}: it has run {ran} time{} so far",
                    event.name,
                    if ran == 1 { "" } else { "s" }
                ),
            ));
            return None;
        };
        Some(ir::Expr {
            kind: ir::ExprKind::Const(ConstId(c)),
            ty,
            span,
        })
    }
}
