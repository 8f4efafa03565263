//! Probabilities: `probability(A, φ)` in comparisons (exact rational arithmetic),
//! `prior e`, a case's `weight e`, and `show e`.

use epipen_ir::{self as ir, Ty};
use epipen_syntax::ast::{self, BinOp, ExprKind, UnOp};
use epipen_syntax::{Diagnostic, Span};

use super::fold::int_lit;
use super::unroll::Items;
use super::{Ctx, Lowerer, Objective, Speaker};

/// The comparison `op` is, if it is one.
pub(crate) fn comparison(op: BinOp) -> Option<ir::CmpOp> {
    Some(match op {
        BinOp::Eq => ir::CmpOp::Eq,
        BinOp::Ne => ir::CmpOp::Ne,
        BinOp::Lt => ir::CmpOp::Lt,
        BinOp::Le => ir::CmpOp::Le,
        BinOp::Gt => ir::CmpOp::Gt,
        BinOp::Ge => ir::CmpOp::Ge,
        _ => return None,
    })
}

/// Whether `probability(…)` is a term of `e`'s arithmetic (not inside a formula, nor
/// inside the argument of another function than those below): `e` is then a rational
/// term. A sum of probability terms is one; so is `abs`, `min`, `max` or `if … then …
/// else` of one, which [`Lowerer::rat`] refuses by name.
pub(crate) fn has_probability(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Call { name, args } => match name.name.as_str() {
            "probability" => true,
            "abs" | "min" | "max" => args.iter().any(has_probability),
            _ => false,
        },
        ExprKind::Aggregate { name, body, .. } => name.name == "sum" && has_probability(body),
        ExprKind::Ite {
            then, otherwise, ..
        } => has_probability(then) || has_probability(otherwise),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => has_probability(operand),
        ExprKind::Binary {
            op: BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod,
            lhs,
            rhs,
        } => has_probability(lhs) || has_probability(rhs),
        _ => false,
    }
}

/// `r1 + r2 + … + rk` (None for no terms), as written up to 64 terms, longer sums split
/// in halves so that they do not make a tree too deep to walk (as int sums are).
fn add_all(mut items: Vec<ir::Rat>, span: Span) -> Option<ir::Rat> {
    let add = |a: ir::Rat, b: ir::Rat| ir::Rat {
        kind: ir::RatKind::Arith(ir::ArithOp::Add, Box::new(a), Box::new(b)),
        span,
    };
    if items.len() <= 64 {
        return items.into_iter().reduce(add);
    }
    let right = items.split_off(items.len() / 2);
    Some(add(add_all(items, span)?, add_all(right, span)?))
}

impl Lowerer {
    /// `lhs op rhs` where a side holds `probability(…)`: both sides exact.
    pub(super) fn chance(
        &mut self,
        op: ir::CmpOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let left = self.rat(lhs, ctx);
        let right = self.rat(rhs, ctx);
        let (left, right) = (left?, right?);
        Some(ir::Expr {
            kind: ir::ExprKind::Chance {
                op,
                left: Box::new(left),
                right: Box::new(right),
            },
            ty: Ty::Bool,
            span,
        })
    }

    /// A side of a comparison with probabilities, in exact rational arithmetic.
    pub(super) fn rat(&mut self, e: &ast::Expr, ctx: Ctx) -> Option<ir::Rat> {
        let span = e.span;
        let kind = match &e.kind {
            ExprKind::Call { name, args } if name.name == "probability" => {
                if let Some(objective) = ctx.objective {
                    self.objective_refuses(objective, span);
                    return None;
                }
                return self.probability(args, span, ctx);
            }
            ExprKind::Unary {
                op: UnOp::Neg,
                operand,
            } => ir::RatKind::Neg(Box::new(self.rat(operand, ctx)?)),
            ExprKind::Binary {
                op: BinOp::Mod,
                lhs,
                rhs,
            } => {
                self.rat(lhs, ctx);
                self.rat(rhs, ctx);
                self.error(
                    Diagnostic::error(span, "`%` in a comparison with a probability").with_hint(
                        "both sides of a comparison with `probability(…)` are exact fractions, \
                             where `/` divides exactly and `%` has no meaning",
                    ),
                );
                return None;
            }
            ExprKind::Binary { op, lhs, rhs }
                if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div) =>
            {
                let arith = match op {
                    BinOp::Add => ir::ArithOp::Add,
                    BinOp::Sub => ir::ArithOp::Sub,
                    BinOp::Mul => ir::ArithOp::Mul,
                    _ => ir::ArithOp::Div,
                };
                let (a, b) = (self.rat(lhs, ctx), self.rat(rhs, ctx));
                ir::RatKind::Arith(arith, Box::new(a?), Box::new(b?))
            }
            ExprKind::Aggregate {
                name,
                binders,
                guard,
                body,
            } if name.name == "sum" && has_probability(body) => {
                return self.rat_sum(binders, guard.as_deref(), body, span, ctx);
            }
            _ if has_probability(e) => {
                // `abs`, `min`, `max`, `if … then … else` of a probability term.
                let what = match &e.kind {
                    ExprKind::Call { name, .. } => format!("`{}`", name.name),
                    _ => "`if … then … else`".to_string(),
                };
                self.error(
                    Diagnostic::error(span, format!("{what} of a probability term")).with_hint(
                        "a probability term is built of probabilities, numbers, `+`, `-`, \
                             `*`, `/` and `sum(…)`: compare the probabilities themselves, e.g. \
                             `probability(A, φ) > probability(A, ψ)`",
                    ),
                );
                return None;
            }
            _ => {
                let value = self.expr(e, ctx)?;
                if value.ty != Ty::Int {
                    let found = self.ty_name(value.ty).to_string();
                    self.error(
                        Diagnostic::error(
                            span,
                            format!("a probability is compared with numbers, found {found}"),
                        )
                        .with_hint("compare it with a fraction, e.g. `probability(A, φ) > 1/2`"),
                    );
                    return None;
                }
                ir::RatKind::Int(Box::new(value))
            }
        };
        Some(ir::Rat { kind, span })
    }

    /// `sum(i in a..b if guard: r)` of a probability term `r`: unrolled, the terms
    /// added exactly (0 when the guard admits none).
    fn rat_sum(
        &mut self,
        binders: &[ast::Binder],
        guard: Option<&ast::Expr>,
        body: &ast::Expr,
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Rat> {
        let mut acc = Items::default();
        self.unroll(binders, guard, &mut |l| l.rat(body, ctx), &mut acc);
        if !acc.live {
            // Nothing ran: still check the guard and the body, with placeholder values.
            let reported = self.reported;
            self.dead(|l| {
                for b in binders {
                    l.loop_vars.push((b.var.name.clone(), 0));
                }
                if let Some(guard) = guard {
                    l.compile_time_bool(guard, "the condition of an aggregate");
                }
                l.rat(body, ctx);
                l.loop_vars.truncate(l.loop_vars.len() - binders.len());
            });
            if self.reported > reported {
                return None;
            }
        }
        if acc.failed {
            return None;
        }
        let zero = || ir::Rat {
            kind: ir::RatKind::Int(Box::new(int_lit(0, span))),
            span,
        };
        let mut sum = add_all(acc.items, span).unwrap_or_else(zero);
        sum.span = span;
        Some(sum)
    }

    /// `probability(A, φ)`, or `probability(φ)`: the speaker's inside `A: …`, else the
    /// storyteller's.
    pub(super) fn probability(
        &mut self,
        args: &[ast::Expr],
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Rat> {
        let arity = |span| {
            Diagnostic::error(span, "`probability` takes a character and a formula, or a formula")
            .with_hint("write `probability(A, φ)` for A's probability of φ, or `probability(φ)` for the storyteller's")
        };
        let (agent, formula) = match args {
            [who, formula] => {
                let agent = match &who.kind {
                    ExprKind::Name(_) | ExprKind::Index { .. } => self.character_expr(who),
                    _ => {
                        self.error(arity(who.span));
                        None
                    }
                };
                let formula = self.expr(formula, ctx.inside(agent, "probability"));
                (agent.map(Some), formula)
            }
            [only] if self.names_character(only) => {
                self.error(arity(span));
                return None;
            }
            [formula] => {
                let agent = match ctx.speaker {
                    Speaker::Character(_) => {
                        self.implicit_agent(ctx, "probability", span).map(Some)
                    }
                    Speaker::Storyteller => Some(None),
                    Speaker::Unresolved => None,
                };
                (agent, self.expr_in(formula, ctx, true))
            }
            _ => {
                for arg in args {
                    self.expr(arg, ctx);
                }
                self.error(arity(span));
                return None;
            }
        };
        let formula_ok = self.expect_opt(&formula, Ty::Bool);
        let (agent, formula) = (agent?, formula?);
        if !formula_ok {
            return None;
        }
        Some(ir::Rat {
            kind: ir::RatKind::Probability {
                agent,
                formula: Box::new(formula),
            },
            span,
        })
    }

    fn objective_refuses(&mut self, objective: Objective, span: Span) {
        let message = match objective {
            Objective::Actual => "`actual` describes the world itself, without probabilities",
            Objective::Assign => {
                "`:=` gives a constant a value of the world, without probabilities"
            }
            Objective::Prior => {
                "`prior` gives each world a weight from its values, without knowledge operators or probabilities"
            }
            Objective::Weight => {
                "a case's `weight` is computed from the world's values, without knowledge operators or probabilities"
            }
        };
        self.error(Diagnostic::error(span, message));
    }

    /// A `prior e` or `weight e` expression: an int of the world's values.
    pub(super) fn weight_expr(&mut self, e: &ast::Expr, objective: Objective) -> Option<ir::Expr> {
        let ctx = Ctx {
            objective: Some(objective),
            ..Ctx::storyteller()
        };
        if has_probability(e) {
            self.objective_refuses(objective, e.span);
            return None;
        }
        let value = self.expr(e, ctx)?;
        if value.ty != Ty::Int {
            let what = match objective {
                Objective::Prior => "`prior`",
                _ => "`weight`",
            };
            let found = self.ty_name(value.ty).to_string();
            self.error(
                Diagnostic::error(value.span, format!("{what} needs an int, found {found}"))
                    .with_hint("a weight is a whole number, e.g. `if x then 2 else 1`"),
            );
            return None;
        }
        Some(value)
    }

    /// `prior e`: once, at the top level, before anything a character learns or
    /// observes and before any probability.
    pub(super) fn prior(&mut self, e: &ast::Expr, span: Span) -> Option<ir::StmtKind> {
        let value = self.weight_expr(e, Objective::Prior);
        if self.dead > 0 {
            return None;
        }
        if self.depth > 0 {
            self.error(
                Diagnostic::error(span, "`prior` must be at the top level of the story")
                    .with_hint("the prior weighs the worlds once, at the story's start: move it out of the block"),
            );
            return None;
        }
        if let Some(first) = self.prior {
            self.error(
                Diagnostic::error(span, "the prior is already given")
                    .with_note(first, "the first `prior`")
                    .with_hint("give one prior: multiply the two weights in one `prior`"),
            );
            return None;
        }
        self.prior = Some(span);
        if let Some((at, what)) = self.observed {
            self.error(
                Diagnostic::error(span, format!("`prior` comes after {what}"))
                    .with_note(at, format!("{what} is here"))
                    .with_hint(
                        "the prior weighs the worlds before anyone learns or observes anything: \
                         move it up (announcements before it are fine)",
                    ),
            );
            return None;
        }
        value.map(ir::StmtKind::Prior)
    }

    /// `show e`: a probability term, or any expression (without knowledge operators
    /// unless it is a formula).
    pub(super) fn show(&mut self, e: &ast::Expr) -> Option<ir::StmtKind> {
        let ctx = Ctx::storyteller();
        if has_probability(e) {
            let r = self.rat(e, ctx)?;
            let text = self.namer().show_rat(&r, None);
            return Some(ir::StmtKind::Show {
                value: ir::Shown::Rational(r),
                text,
            });
        }
        let value = self.expr(e, ctx)?;
        if value.ty != Ty::Bool && value.mentions_knowledge() {
            self.error(
                Diagnostic::error(value.span, "`show` of a number that depends on knowledge")
                    .with_hint("show the formula itself, e.g. `show knows(A, x > 1)`"),
            );
            return None;
        }
        let text = self.namer().show(&value, None);
        Some(ir::StmtKind::Show {
            value: ir::Shown::Expr(value),
            text,
        })
    }

    /// Records the first statement that lets a character learn or observe something or
    /// asks a probability (a `prior` after it is an error).
    pub(super) fn note_observed(&mut self, kind: &ir::StmtKind, span: Span) {
        if self.observed.is_some() {
            return;
        }
        let what = match kind {
            ir::StmtKind::Learn { .. } => "`learns`",
            ir::StmtKind::Announce {
                speaker: Some(_), ..
            } => "a character's statement",
            ir::StmtKind::Reveal { .. } => "`reveals`",
            ir::StmtKind::Event(_) => "an event",
            ir::StmtKind::Do(_) => "an action",
            ir::StmtKind::Show {
                value: ir::Shown::Rational(_),
                ..
            } => "a probability",
            _ => {
                let probability = ir::Stmt {
                    kind: kind.clone(),
                    span,
                    loops: Vec::new(),
                }
                .each_expr(&mut |e| match e.mentions_probability() {
                    true => Err(()),
                    false => Ok(()),
                })
                .is_err();
                if !probability {
                    return;
                }
                "a probability"
            }
        };
        self.observed = Some((span, what));
    }
}
