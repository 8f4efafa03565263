//! Statements: each lowered in turn, loops unrolled, `if`s decided.

use epipen_ir::{self as ir, CharId, CheckpointId, Ty};
use epipen_syntax::ast::{self, Ident, StmtKind};
use epipen_syntax::{Diagnostic, Span};

use crate::*;

impl Lowerer {
    pub(crate) fn block(&mut self, block: &ast::Block, out: &mut Vec<ir::Stmt>) {
        self.depth += 1;
        for stmt in &block.statements {
            self.stmt(stmt, out);
        }
        self.depth -= 1;
    }

    /// Emits a statement that runs. `reported`: the error count before it was lowered;
    /// one that lowers to nothing must have reported an error.
    pub(crate) fn emit(
        &mut self,
        out: &mut Vec<ir::Stmt>,
        kind: Option<ir::StmtKind>,
        span: Span,
        reported: usize,
    ) {
        if self.dead > 0 {
            return;
        }
        match kind {
            Some(kind) => {
                self.note_observed(&kind, span);
                out.push(ir::Stmt {
                    kind,
                    span,
                    loops: self.loop_vars.clone(),
                })
            }
            None if self.reported == reported => {
                self.vanished.get_or_insert(span);
            }
            None => {}
        }
    }

    pub(crate) fn stmt(&mut self, stmt: &ast::Stmt, out: &mut Vec<ir::Stmt>) {
        self.current = stmt.span.start;
        // Code that does not run is checked for names and types, which do not depend on
        // the values of the loops around it: a loop, an `if` or an action checked (or
        // run) once is not checked again there, so that an `if` that prunes nested loops
        // costs its branch not taken once, not once per round. (An action still records
        // its name, for the hint of a `do` of it.)
        if let StmtKind::For { .. } | StmtKind::If { .. } | StmtKind::Action(_) = stmt.kind {
            let first = self.checked.insert(stmt.span.start);
            if self.dead > 0 && !first {
                if let StmtKind::Action(action) = &stmt.kind {
                    self.action_not_run(action);
                }
                return;
            }
        }
        let reported = self.reported;
        let is_declaration = matches!(
            stmt.kind,
            StmtKind::Characters(_)
                | StmtKind::Constants { .. }
                | StmtKind::Const { .. }
                | StmtKind::Enum { .. }
                | StmtKind::Def { .. }
        );
        if is_declaration && self.depth > 0 {
            self.error(
                Diagnostic::error(
                    stmt.span,
                    "declarations must be at the top level of the story",
                )
                .with_hint(
                    "move it before the block; a loop can use a family, e.g. `bool muddy[n]`",
                ),
            );
            return;
        }
        let announcement = matches!(
            stmt.kind,
            StmtKind::Announce(_)
                | StmtKind::Says { .. }
                | StmtKind::Reveals { .. }
                | StmtKind::For { .. }
                | StmtKind::If { .. }
        );
        if self.simultaneous && !announcement {
            self.error(
                Diagnostic::error(stmt.span, "only announcements can be made simultaneously")
                    .with_hint(
                        "inside `simultaneously { … }` write `announce …`, `A: …` or `A reveals …`",
                    ),
            );
            return;
        }
        let kind = match &stmt.kind {
            StmtKind::Characters(decls) => {
                for decl in decls {
                    self.declare_characters(decl);
                }
                return;
            }
            StmtKind::Constants { sort, names } => {
                let ty = match sort {
                    ast::SortName::Int => Some(Ty::Int),
                    ast::SortName::Bool => Some(Ty::Bool),
                    ast::SortName::Enum(name) => self.sort(name),
                };
                for decl in names {
                    self.declare_constants(decl, ty);
                }
                return;
            }
            StmtKind::Const { name, value } => {
                let computed = self.compile_time_int(value, "the value of a `const`");
                let value = self.sets.get(&name.name).copied().or(computed);
                if self.declare(name, false) {
                    self.names.insert(name.name.clone(), Entity::Param(value));
                }
                return;
            }
            StmtKind::Enum { name, variants } => {
                self.declare_enum(name, variants);
                return;
            }
            StmtKind::Def { name, params, body } => {
                self.define(name, params, body, stmt.span);
                return;
            }
            StmtKind::Where(what) => {
                let formula = self.expr(what, Ctx::storyteller());
                self.formula(formula).map(|formula| {
                    let text = self.namer().show(&formula, None);
                    ir::StmtKind::Where {
                        formula,
                        text,
                        limit: DEFAULT_WORLDS_LIMIT,
                    }
                })
            }
            StmtKind::Prior(what) => self.prior(what, stmt.span),
            StmtKind::Show(what) => self.show(what),
            StmtKind::Announce(what) => {
                let formula = self.expr(what, Ctx::storyteller());
                self.formula(formula).map(|formula| ir::StmtKind::Announce {
                    speaker: None,
                    formula,
                })
            }
            StmtKind::Says { speaker, what } => {
                let (who, formula) = self.speech(speaker, what);
                who.zip(formula)
                    .map(|(who, formula)| ir::StmtKind::Announce {
                        speaker: Some(who),
                        formula,
                    })
            }
            StmtKind::Reveals { who, what } => {
                let (who, formula) = self.speech(who, what);
                who.zip(formula).map(|(who, formula)| {
                    let text = self.namer().show(&formula, Some(who));
                    ir::StmtKind::Reveal { who, formula, text }
                })
            }
            StmtKind::Learns { who, what } => {
                let learner = self.character_expr(who);
                // `A learns e1, e2`: one learn after another, each of one value.
                let Some((last, firsts)) = what.split_last() else {
                    return;
                };
                for what in firsts {
                    let kind = self.learn(learner, what);
                    self.emit(out, kind, stmt.span, reported);
                }
                self.learn(learner, last)
            }
            StmtKind::Actual(what) => {
                let ctx = Ctx {
                    objective: Some(Objective::Actual),
                    ..Ctx::storyteller()
                };
                let formula = self.expr(what, ctx);
                if self.dead == 0 {
                    self.one_actual(stmt.span);
                }
                self.formula(formula).map(ir::StmtKind::Actual)
            }
            StmtKind::Checkpoint(name) => self.define_checkpoint(name),
            StmtKind::Worlds { limit } => match limit {
                None => Some(ir::StmtKind::Worlds {
                    limit: DEFAULT_WORLDS_LIMIT,
                }),
                Some((0, span)) => {
                    self.error(Diagnostic::error(*span, "a limit must be at least 1"));
                    None
                }
                Some((limit, _)) => Some(ir::StmtKind::Worlds { limit: *limit }),
            },
            StmtKind::For { var, range, body } => {
                self.for_loop(var, range, body, out);
                return;
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.compile_time_bool(cond, "the condition of `if`");
                let empty = ast::Block::nowhere(Vec::new());
                let otherwise = otherwise.as_ref().unwrap_or(&empty);
                match cond {
                    Some(true) => {
                        self.block(then, out);
                        self.dead(|l| l.block(otherwise, out));
                    }
                    Some(false) => {
                        self.dead(|l| l.block(then, out));
                        self.block(otherwise, out);
                    }
                    None => self.dead(|l| {
                        l.block(then, out);
                        l.block(otherwise, out);
                    }),
                }
                return;
            }
            StmtKind::Simultaneously(body) if Self::is_block_of_changes(&body.statements) => {
                let mut acc = change::Gathered::default();
                self.depth += 1;
                self.gather_block(&body.statements, &mut acc);
                self.depth -= 1;
                (!acc.failed).then_some(ir::StmtKind::Assign {
                    changes: acc.changes,
                })
            }
            StmtKind::Simultaneously(body) => {
                let mut inner = Vec::new();
                self.simultaneous = true;
                self.block(body, &mut inner);
                self.simultaneous = false;
                Some(ir::StmtKind::Simultaneously(inner))
            }
            StmtKind::Repeat { max, body, until } => {
                let rounds = self.compile_time_int(max, "the number of rounds");
                let rounds = match rounds {
                    Some(n) if n >= 1 => Some(n as u64),
                    Some(n) => {
                        if self.dead == 0 {
                            self.error(
                                Diagnostic::error(
                                    max.span,
                                    format!("`repeat` needs at least 1 round, found {n}"),
                                )
                                .with_hint("write e.g. `repeat max 10 { … } until …`"),
                            );
                        }
                        None
                    }
                    None => None,
                };
                let mut inner = Vec::new();
                self.repeat_rounds.push(rounds.unwrap_or(1));
                self.block(body, &mut inner);
                self.repeat_rounds.pop();
                self.current = stmt.span.start;
                let until = self.expr(until, Ctx::storyteller());
                let until = self.formula(until);
                rounds.zip(until).map(|(max, until)| ir::StmtKind::Repeat {
                    max,
                    body: inner,
                    until,
                })
            }
            StmtKind::AssertAddsCk { hint, body } => {
                let hint = self.expr(hint, Ctx::storyteller());
                let hint = self.formula(hint);
                let mut inner = Vec::new();
                self.in_hint += 1;
                self.block(body, &mut inner);
                self.in_hint -= 1;
                if let Some(span) = first_of(&inner, &|k| matches!(k, ir::StmtKind::Assign { .. }))
                {
                    self.error(
                        Diagnostic::error(span, "a hint's block cannot change constants")
                            .with_hint(
                                "the hint describes the worlds before and after the block: move `:=` out of it",
                            ),
                    );
                    return;
                }
                if let Some(span) = first_of(&inner, &|k| matches!(k, ir::StmtKind::Event(_))) {
                    self.error(
                        Diagnostic::error(span, "a hint's block cannot hold an event")
                            .with_hint(
                                "the hint describes the worlds before and after the block, which an event \
                                 changes: move the event out of it",
                            ),
                    );
                    return;
                }
                hint.map(|hint| ir::StmtKind::AssertAddsCk { hint, body: inner })
            }
            StmtKind::Check(what) => {
                let formula = self.expr(what, Ctx::storyteller());
                self.formula(formula).map(ir::StmtKind::Check)
            }
            StmtKind::Expects { who, what } => {
                let who = self.character_expr(who);
                let formula = self.expr(what, Ctx::storyteller());
                let formula = self.formula(formula);
                who.zip(formula)
                    .map(|(who, formula)| ir::StmtKind::Expects { who, formula })
            }
            StmtKind::CheckActual(what) => {
                let formula = self.expr(what, Ctx::storyteller());
                self.formula(formula).map(ir::StmtKind::CheckActual)
            }
            StmtKind::Assign { targets, values } => self.assign(targets, values),
            StmtKind::Event { name, body } => self.event(name, body, stmt.span),
            StmtKind::Action(action) => {
                self.action(action, stmt.span);
                return;
            }
            StmtKind::Do(items) => self.do_actions(items, stmt.span),
            StmtKind::Plan(plan) => self.plan(plan, stmt.span),
        };
        self.emit(out, kind, stmt.span, reported);
    }

    /// `x := e` / `x, y := e, f`: every target a distinct constant, each value of its
    /// target's type and free of knowledge operators.
    pub(crate) fn assign(
        &mut self,
        targets: &[ast::Expr],
        values: &[ast::Expr],
    ) -> Option<ir::StmtKind> {
        let mut acc = change::Gathered::default();
        for (target, value) in targets.iter().zip(values) {
            self.gather_one(target, value, &mut acc);
        }
        (!acc.failed).then_some(ir::StmtKind::Assign {
            changes: acc.changes,
        })
    }

    /// The speaker and formula of `A: φ` / `A reveals φ`.
    pub(crate) fn speech(
        &mut self,
        speaker: &ast::Expr,
        what: &ast::Expr,
    ) -> (Option<CharId>, Option<ir::Expr>) {
        let who = self.character_expr(speaker);
        let ctx = Ctx {
            speaker: who.map_or(Speaker::Unresolved, Speaker::Character),
            ..Ctx::storyteller()
        };
        let formula = self.expr(what, ctx);
        (who, self.formula(formula))
    }

    /// Reports a second `actual` that runs: the actual world is declared once.
    pub(crate) fn one_actual(&mut self, span: Span) {
        let Some(first) = self.actual else {
            self.actual = Some(span);
            return;
        };
        // A builder's statements are written nowhere: one place is then no loop.
        let diagnostic = if first == span && span != Span::default() {
            Diagnostic::error(
                span,
                "`actual` is declared again in the next round of this loop",
            )
            .with_hint("the actual world is declared once; move `actual` out of the loop")
        } else {
            Diagnostic::error(span, "the actual world is already declared")
                .with_note(first, "the first `actual`")
                .with_hint("declare it once: join the two in one `actual`, e.g. `actual φ and ψ`")
        };
        self.error(diagnostic);
    }

    pub(crate) fn define_checkpoint(&mut self, name: &Ident) -> Option<ir::StmtKind> {
        if self.dead > 0 {
            if !self.checkpoint_ids.contains_key(&name.name) {
                self.dead_checkpoints.insert(name.name.clone());
            }
            return None;
        }
        if let Some(&id) = self.checkpoint_ids.get(&name.name) {
            // The same statement in the next round of a `for` loop saves the state again,
            // as each round of a `repeat` does: `at` names the latest.
            if self.checkpoints[id.0].span == name.span {
                return Some(ir::StmtKind::Checkpoint(id));
            }
            self.error(
                Diagnostic::error(
                    name.span,
                    format!("checkpoint `{}` is already defined", name.name),
                )
                .with_hint("checkpoint names must be unique"),
            );
            return None;
        }
        let id = CheckpointId(self.checkpoints.len());
        self.checkpoints.push(ir::Checkpoint {
            name: name.name.clone(),
            span: name.span,
        });
        self.checkpoint_ids.insert(name.name.clone(), id);
        Some(ir::StmtKind::Checkpoint(id))
    }

    pub(crate) fn for_loop(
        &mut self,
        var: &Ident,
        range: &ast::Range,
        body: &ast::Block,
        out: &mut Vec<ir::Stmt>,
    ) {
        self.each_value(var, range, &mut |l, _| l.block(body, out));
    }

    /// Runs `body` once for each value of `range`, `var` bound to it, each run spending
    /// the unrolling budget (`body`'s flag: true); a loop that does not run has its body
    /// checked once in dead mode with a placeholder value (the flag: false). False when
    /// the range is not understood or the budget ran out.
    pub(crate) fn each_value(
        &mut self,
        var: &Ident,
        range: &ast::Range,
        body: &mut dyn FnMut(&mut Self, bool),
    ) -> bool {
        let values = self.range(range);
        self.check_loop_var(var);
        match values {
            Some(values) if !values.is_empty() => {
                for value in values.iter() {
                    if !self.spend(range.span()) {
                        return false;
                    }
                    self.bound(&var.name, value, |l| body(l, true));
                }
                true
            }
            Some(values) => {
                let placeholder = values.placeholder();
                self.dead(|l| l.bound(&var.name, placeholder, |l| body(l, false)));
                true
            }
            // Over an enum's values, the body would only repeat that it is no int.
            None if self.enum_values_listed(range).is_some() => false,
            None => {
                self.dead(|l| l.bound(&var.name, 0, |l| body(l, false)));
                false
            }
        }
    }

    /// The values of `lo..hi` (both bounds compile-time ints) or of a list `{a, b, c}`
    /// (compile-time ints, none listed twice).
    pub(crate) fn range(&mut self, range: &ast::Range) -> Option<Values> {
        match range {
            ast::Range::Between { lo, hi } => {
                let lo = self.compile_time_int(lo, "a range bound");
                let hi = self.compile_time_int(hi, "a range bound");
                lo.zip(hi).map(|(lo, hi)| Values::Between(lo, hi))
            }
            ast::Range::List { items, .. } => {
                if let Some(refused) = self.enum_values_listed(range) {
                    self.error(refused);
                    return None;
                }
                let mut values: Vec<i64> = Vec::with_capacity(items.len());
                let mut failed = false;
                for item in items {
                    match self.compile_time_int(item, "a listed value") {
                        Some(v) if values.contains(&v) => {
                            self.error(
                                Diagnostic::error(item.span, format!("{v} is listed twice"))
                                    .with_hint("list each value once"),
                            );
                            failed = true;
                        }
                        Some(v) => values.push(v),
                        None => failed = true,
                    }
                }
                (!failed).then_some(Values::List(values))
            }
        }
    }

    /// `for d in {one, two, three}` over an enum's values: one error for the list (not
    /// one "expected int" per value), saying what loops run over and what to write.
    fn enum_values_listed(&self, range: &ast::Range) -> Option<Diagnostic> {
        let ast::Range::List { items, .. } = range else {
            return None;
        };
        let enum_of = |item: &ast::Expr| match &item.kind {
            ast::ExprKind::Name(name) => match self.names.get(&name.name) {
                Some(Entity::Variant(e, _)) => Some(*e),
                _ => None,
            },
            _ => None,
        };
        let (first, e) = items.iter().find_map(|i| enum_of(i).map(|e| (i, e)))?;
        let span = Span::new(
            first.span.start,
            items.last().map_or(first.span.end, |l| l.span.end),
        );
        let name = &self.enums[e.0].name;
        Some(
            Diagnostic::error(
                span,
                format!("a `for` loop runs over ints, and these are values of the enum `{name}`"),
            )
            .with_hint(format!(
                "write the block once for each of {}, or say it in one formula joined by `and`/`or`",
                (self.enums[e.0].variants.iter())
                    .map(|v| format!("`{v}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        )
    }

    /// Reports a loop variable that would shadow a name.
    pub(crate) fn check_loop_var(&mut self, var: &Ident) {
        let shadows_loop_var = self.loop_vars.iter().any(|(n, _)| *n == var.name);
        if shadows_loop_var || self.names.contains_key(&var.name) {
            let what = if shadows_loop_var {
                "a loop variable here"
            } else {
                "already declared"
            };
            self.error(
                Diagnostic::error(var.span, format!("`{}` is {what}", var.name))
                    .with_hint("a loop variable needs a name of its own"),
            );
        }
    }
}

impl Lowerer {
    /// `A learns e` for one value `e` (the learner already resolved).
    fn learn(&mut self, learner: Option<CharId>, what: &ast::Expr) -> Option<ir::StmtKind> {
        let what = self.expr(what, Ctx::storyteller());
        if let Some(e) = &what
            && e.mentions_knowledge()
            && e.ty != Ty::Bool
        {
            self.error(
                Diagnostic::error(
                    e.span,
                    "a value learned with knowledge operators must be a formula",
                )
                .with_hint(
                    "`A learns φ` with knowledge operators learns whether φ holds now; \
                     write the formula, e.g. `A learns knows(B, x == 1)`",
                ),
            );
            return None;
        }
        learner
            .zip(what)
            .map(|(who, what)| ir::StmtKind::Learn { who, what })
    }
}

/// The values a loop or an aggregate runs over.
pub(crate) enum Values {
    /// `lo..hi`
    Between(i64, i64),
    /// `{a, b, c}`: never empty.
    List(Vec<i64>),
}

impl Values {
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Values::Between(lo, hi) => lo >= hi,
            Values::List(values) => values.is_empty(),
        }
    }

    /// A value to check a body that does not run with.
    pub(crate) fn placeholder(&self) -> i64 {
        match self {
            Values::Between(lo, _) => *lo,
            Values::List(values) => values.first().copied().unwrap_or(0),
        }
    }

    /// The values in order.
    pub(crate) fn iter(&self) -> Box<dyn Iterator<Item = i64> + '_> {
        match self {
            Values::Between(lo, hi) => Box::new(*lo..*hi),
            Values::List(values) => Box::new(values.iter().copied()),
        }
    }
}
