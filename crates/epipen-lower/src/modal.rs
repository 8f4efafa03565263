//! The modal operators: what characters know and believe (`knows`, `knows_value`,
//! `believes`, `believes_value`), `at(c, …)`, and group knowledge.

use epipen_ir::{self as ir, CharId, Ty};
use epipen_syntax::ast::{self, ExprKind};
use epipen_syntax::{Diagnostic, Span};

use super::{Ctx, Entity, Lowerer};

impl Lowerer {
    /// `knows(A, φ)` or `believes(A, φ)` (`function`).
    pub(super) fn knows(
        &mut self,
        function: &str,
        args: &[ast::Expr],
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let arity_error = |span| {
            Diagnostic::error(
                span,
                format!("`{function}` takes a character and a formula"),
            )
        };
        let (agent, formula) = match args {
            [who, formula] => {
                let agent = match &who.kind {
                    ExprKind::Name(_) | ExprKind::Index { .. } => self.character_expr(who),
                    _ => {
                        self.error(arity_error(who.span));
                        None
                    }
                };
                (agent, self.expr(formula, ctx.inside(agent, function)))
            }
            [only] if self.names_character(only) => {
                self.error(arity_error(span));
                return None;
            }
            [formula] => {
                let agent = self.implicit_agent(ctx, function, span);
                (agent, self.expr_in(formula, ctx, true))
            }
            _ => {
                self.error(arity_error(span));
                return None;
            }
        };
        // `knows(A, B)` of an int or an enum: the newcomer meant its value.
        let formula_ok = match &formula {
            Some(f) if f.ty != Ty::Bool => {
                let found = self.ty_name(f.ty);
                let value_fn = format!("{function}_value");
                self.error(
                    Diagnostic::error(f.span, format!("expected bool, found {found}")).with_hint(
                        format!(
                            "`{function}` takes a formula; to say whether the value is {}, \
                             write `{value_fn}(…)` with the same arguments",
                            if function == "believes" {
                                "believed"
                            } else {
                                "known"
                            }
                        ),
                    ),
                );
                false
            }
            f => self.expect_opt(f, Ty::Bool),
        };
        let (agent, formula) = (agent?, formula?);
        if !formula_ok {
            return None;
        }
        let formula = Box::new(formula);
        let kind = match function {
            "believes" => ir::ExprKind::Believes { agent, formula },
            _ => ir::ExprKind::Knows { agent, formula },
        };
        Some(ir::Expr {
            kind,
            ty: Ty::Bool,
            span,
        })
    }

    /// `knows_value(A, e, …)` or `believes_value(A, e, …)` (`function`).
    pub(super) fn knows_value(
        &mut self,
        function: &str,
        args: &[ast::Expr],
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let (named_agent, exprs) = match args {
            [first, rest @ ..] if self.names_character(first) => (Some(first), rest),
            // A failed declaration first, with more after it: likely the agent (quiet).
            [first, rest @ ..] if !rest.is_empty() && self.names_failed(first) => {
                (Some(first), rest)
            }
            _ => (None, args),
        };
        if exprs.is_empty() {
            let diag = match named_agent.and_then(|who| self.source_name(who)) {
                // `Bill: knows_value(Anne)`: Anne is read as the character who knows.
                Some(who) => Diagnostic::error(
                    span,
                    format!(
                        "`{function}` took `{who}` as the character, and has no expression left"
                    ),
                )
                .with_hint(format!(
                    "add the values: `{function}({who}, x)`; `{function}(x)` is about the speaker"
                )),
                None => {
                    Diagnostic::error(span, format!("`{function}` needs at least one expression"))
                }
            };
            self.error(diag);
            return None;
        }
        let agent = match named_agent {
            Some(who) => self.character_expr(who),
            None => self.implicit_agent(ctx, function, span),
        };
        let inner = match named_agent {
            Some(_) => ctx.inside(agent, function),
            None => ctx,
        };
        let lowered: Vec<Option<ir::Expr>> = exprs
            .iter()
            .enumerate()
            .map(|(i, e)| self.expr_in(e, inner, i == 0 && named_agent.is_none()))
            .collect();
        let agent = agent?;
        let exprs = lowered.into_iter().collect::<Option<Vec<_>>>()?;
        let kind = match function {
            "believes_value" => ir::ExprKind::BelievesValue { agent, exprs },
            _ => ir::ExprKind::KnowsValue { agent, exprs },
        };
        Some(ir::Expr {
            kind,
            ty: Ty::Bool,
            span,
        })
    }

    /// `knows_whether(A, φ)` or `believes_whether(A, φ)` (`function`): A knows (believes)
    /// whether φ holds, `knows_value(A, φ)` of a formula (K_A φ ∨ K_A ¬φ).
    pub(super) fn knows_whether(
        &mut self,
        function: &str,
        args: &[ast::Expr],
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let one_formula = match args {
            [who, _] => self.names_character(who),
            [only] => !self.names_character(only),
            _ => false,
        };
        if !one_formula {
            self.error(
                Diagnostic::error(
                    span,
                    format!("`{function}` takes a character and a formula"),
                )
                .with_hint(format!(
                    "write `{function}(A, φ)`, or `{function}(φ)` about the speaker; \
                         `knows_value(A, e1, e2)` for the values of several expressions"
                )),
            );
            return None;
        }
        let value_fn = match function {
            "believes_whether" => "believes_value",
            _ => "knows_value",
        };
        let lowered = self.knows_value(value_fn, args, span, ctx)?;
        let (ir::ExprKind::KnowsValue { exprs, .. } | ir::ExprKind::BelievesValue { exprs, .. }) =
            &lowered.kind
        else {
            return Some(lowered);
        };
        if let Some(e) = exprs.iter().find(|e| e.ty != Ty::Bool) {
            let found = self.ty_name(e.ty);
            self.error(
                Diagnostic::error(e.span, format!("expected bool, found {found}")).with_hint(
                    format!("`{function}` takes a formula; `{value_fn}(…)` is about a value"),
                ),
            );
            return None;
        }
        Some(lowered)
    }

    pub(super) fn at(&mut self, args: &[ast::Expr], span: Span, ctx: Ctx) -> Option<ir::Expr> {
        let arity_error = |span| Diagnostic::error(span, "`at` takes a checkpoint and a formula");
        let [checkpoint, body] = args else {
            self.error(arity_error(span));
            return None;
        };
        let checkpoint = match &checkpoint.kind {
            ExprKind::Name(name) => self.checkpoint(name),
            _ => {
                self.error(arity_error(checkpoint.span));
                None
            }
        };
        let body = self.expr(body, ctx);
        let body_ok = self.expect_opt(&body, Ty::Bool);
        let (checkpoint, body) = (checkpoint?, body?);
        if !body_ok {
            return None;
        }
        Some(ir::Expr {
            kind: ir::ExprKind::At {
                checkpoint,
                body: Box::new(body),
            },
            ty: Ty::Bool,
            span,
        })
    }

    /// `everyone_knows(G…, φ)`, `common_knowledge(G…, φ)`, `distributed_knowledge(G…, φ)`:
    /// the group is every character when only φ is given, else the characters listed
    /// before φ (a family's name stands for all its members).
    pub(super) fn group(
        &mut self,
        op: ir::GroupOp,
        args: &[ast::Expr],
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let name = op.name();
        let Some((formula, members)) = args.split_last() else {
            self.error(
                Diagnostic::error(span, format!("`{name}` takes a formula")).with_hint(format!(
                    "write e.g. `{name}(φ)` or `{name}(Albert, Bernard, φ)`"
                )),
            );
            return None;
        };
        let mut agents = Vec::new();
        let mut ok = true;
        if members.is_empty() {
            agents.extend((0..self.characters.len()).map(CharId));
        }
        for member in members {
            match self.group_member(member) {
                Some(ids) => agents.extend(ids),
                None => ok = false,
            }
        }
        let formula = self.expr(formula, ctx);
        let formula_ok = self.expect_opt(&formula, Ty::Bool);
        let formula = formula?;
        if !ok || !formula_ok {
            return None;
        }
        agents.sort();
        agents.dedup();
        if agents.is_empty() {
            let what = if members.is_empty() {
                "the story has no characters"
            } else {
                "the families named here have no members"
            };
            self.error(Diagnostic::error(
                span,
                format!("`{name}` needs at least one character: {what}"),
            ));
            return None;
        }
        Some(ir::Expr {
            kind: ir::ExprKind::Group {
                op,
                agents,
                formula: Box::new(formula),
            },
            ty: Ty::Bool,
            span,
        })
    }

    /// A member of a group: a character, a family member, or a whole family of
    /// characters.
    pub(super) fn group_member(&mut self, member: &ast::Expr) -> Option<Vec<CharId>> {
        if let ExprKind::Name(name) = &member.kind
            && self.loop_var(&name.name).is_none()
            && let Some(Entity::CharFamily(family)) = self.names.get(&name.name).copied()
        {
            return Some(
                (family.first..family.first + family.len)
                    .map(CharId)
                    .collect(),
            );
        }
        self.character_expr(member).map(|id| vec![id])
    }
}

impl Ctx {
    /// The context of the formula of `function` (a knowledge operator) whose agent is
    /// `agent`, named: inside another character's knowledge than the speaker's.
    pub(super) fn inside(self, agent: Option<CharId>, function: &str) -> Ctx {
        let function = match function {
            "believes" => "believes",
            "probability" => "probability",
            "knows_value" => "knows_value",
            "believes_value" => "believes_value",
            _ => "knows",
        };
        let inside = match agent {
            Some(a) if matches!(self.speaker, super::Speaker::Character(s) if s == a) => None,
            Some(a) => Some((a, function)),
            None => self.inside,
        };
        Ctx { inside, ..self }
    }
}

impl Lowerer {
    /// How a character argument is written: `Anne`, `child[…]`.
    fn source_name(&self, who: &ast::Expr) -> Option<String> {
        match &who.kind {
            ast::ExprKind::Name(name) => Some(name.name.clone()),
            ast::ExprKind::Index { base, .. } => Some(format!("{}[…]", base.name)),
            _ => None,
        }
    }
}
