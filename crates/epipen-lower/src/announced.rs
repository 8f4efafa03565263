//! Announcement operators (`[! φ] ψ`, `[A, B ?! φ] ψ`, `<! φ> ψ`, …) and the
//! quantifiers over bool constants (`forall p: φ`, `exists p, q: φ`).

use super::{Ctx, Lowerer, Objective};
use epipen_ir::{self as ir, Ty};
use epipen_syntax::ast;
use epipen_syntax::{Diagnostic, Span};

impl Lowerer {
    /// `[G ! φ] ψ` (G empty: to everyone), `[G ?! φ] ψ` and the diamonds: a diamond
    /// `<G ! φ> ψ` is `not [G ! φ] not ψ`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn announced(
        &mut self,
        group: &[ast::Expr],
        whether: bool,
        diamond: bool,
        formula: &ast::Expr,
        body: &ast::Expr,
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        if let Some(objective) = ctx.objective {
            let what = match objective {
                Objective::Actual => "`actual` describes the world itself",
                Objective::Assign => "`:=` gives a constant a value of the world",
                Objective::Prior => "`prior` gives each world a weight from its values",
                Objective::Weight => "a case's `weight` is computed from the world's values",
            };
            self.error(Diagnostic::error(
                span,
                format!("{what}, without knowledge operators or announcements"),
            ));
            return None;
        }
        let mut agents = Vec::new();
        let mut ok = true;
        for member in group {
            match self.group_member(member) {
                Some(ids) => agents.extend(ids),
                None => ok = false,
            }
        }
        agents.sort();
        agents.dedup();
        if ok && !group.is_empty() && agents.is_empty() {
            self.error(Diagnostic::error(
                span,
                "an announcement to a group needs at least one character: the families \
                 named here have no members",
            ));
            ok = false;
        }
        let formula = self.expr(formula, ctx);
        let formula_ok = self.expect_opt(&formula, Ty::Bool);
        let body = self.expr(body, ctx);
        let body_ok = self.expect_opt(&body, Ty::Bool);
        let (formula, body) = (formula?, body?);
        if !ok || !formula_ok || !body_ok {
            return None;
        }
        let not = |e: ir::Expr| ir::Expr {
            span: e.span,
            ty: Ty::Bool,
            kind: ir::ExprKind::Not(Box::new(e)),
        };
        let body = if diamond { not(body) } else { body };
        let boxed = ir::Expr {
            kind: ir::ExprKind::Announced {
                agents,
                whether,
                formula: Box::new(formula),
                body: Box::new(body),
            },
            ty: Ty::Bool,
            span,
        };
        Some(if diamond { not(boxed) } else { boxed })
    }

    /// `forall p, q: φ` / `exists p: φ` over bool constants.
    pub(super) fn quantified(
        &mut self,
        forall: bool,
        vars: &[ast::Expr],
        body: &ast::Expr,
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let word = if forall { "forall" } else { "exists" };
        let mut consts = Vec::new();
        let mut ok = true;
        let aggregate = if forall { "all" } else { "any" };
        let hint = format!(
            "over a range of integers, write `{aggregate}(x in 0..10: …)`; to say that a \
             character knows a value, write `knows_value(A, x)` or `knows(A, …)`"
        );
        for var in vars {
            if let ast::ExprKind::Name(name) = &var.kind
                && self.loop_var(&name.name).is_none()
                && !self.names.contains_key(&name.name)
            {
                self.error(
                    Diagnostic::error(
                        var.span,
                        format!(
                            "`{word}` quantifies the story's bool constants, and `{}` is not one",
                            name.name
                        ),
                    )
                    .with_hint(hint.clone()),
                );
                ok = false;
                continue;
            }
            match self.expr(var, ctx) {
                Some(ir::Expr {
                    kind: ir::ExprKind::Const(c),
                    ty: Ty::Bool,
                    ..
                }) => consts.push(c),
                Some(other) => {
                    let found = match other.ty {
                        Ty::Bool => "a formula".to_string(),
                        ty => format!("{} value", article(self.ty_name(ty))),
                    };
                    self.error(
                        Diagnostic::error(
                            var.span,
                            format!("`{word}` quantifies bool constants, not {found}"),
                        )
                        .with_hint(hint.clone()),
                    );
                    ok = false;
                }
                None => ok = false,
            }
        }
        // A body over a name that is not a constant would only repeat the mistake.
        if !ok {
            return None;
        }
        let body = self.expr(body, ctx);
        let body_ok = self.expect_opt(&body, Ty::Bool);
        let body = body?;
        if !body_ok {
            return None;
        }
        consts.sort();
        consts.dedup();
        Some(ir::Expr {
            kind: ir::ExprKind::Quantified {
                forall,
                consts,
                body: Box::new(body),
            },
            ty: Ty::Bool,
            span,
        })
    }
}

/// `an int`, `a Colour`.
fn article(name: &str) -> String {
    match name.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => format!("an {name}"),
        _ => format!("a {name}"),
    }
}
