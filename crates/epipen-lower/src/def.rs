//! `def NAME(params) = expr`: named formulas and terms, expanded where they are used.
//!
//! A use `NAME(args)` (or `NAME` for a definition without parameters) stands for the
//! body with each parameter replaced by its argument, as written. The replacement is
//! hygienic: the loop variables of the use are replaced by their values in the arguments
//! first, and the body is lowered without the use's loop variables in scope, so a name in
//! the body means what it means at the definition (a global name), never a loop variable
//! of the place where it is used; an aggregate of the body that binds a parameter's name
//! keeps its own variable. Errors inside the body are reported at the use, with a note
//! at the definition.

use std::collections::HashMap;

use epipen_ir as ir;
use epipen_syntax::ast::{self, ExprKind, Ident};
use epipen_syntax::{Diagnostic, Span};

use crate::*;

/// The most nested expansions (a definition using a definition …).
const MAX_EXPANSION_DEPTH: usize = 64;

/// A definition as written.
#[derive(Debug, Clone)]
pub(crate) struct Def {
    pub(crate) name: Ident,
    pub(crate) params: Vec<Ident>,
    pub(crate) body: ast::Expr,
    /// The whole `def` statement.
    pub(crate) span: Span,
}

/// A literal argument of a definition's use (`f(3)`, `f(-1, true)`, or a loop variable,
/// replaced by its value).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Literal {
    Int(i64),
    Bool(bool),
}

impl Literal {
    fn of(e: &ast::Expr) -> Option<Literal> {
        match &e.kind {
            ExprKind::Int(n) => Some(Literal::Int(*n)),
            ExprKind::Bool(b) => Some(Literal::Bool(*b)),
            ExprKind::Unary {
                op: ast::UnOp::Neg,
                operand,
            } => match operand.kind {
                ExprKind::Int(n) => n.checked_neg().map(Literal::Int),
                _ => None,
            },
            _ => None,
        }
    }
}

/// A definition being expanded: which, and where it is used.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Expansion {
    pub(crate) def: usize,
    pub(crate) at: Span,
}

impl Lowerer {
    /// `def name(params) = body` (top level).
    pub(crate) fn define(&mut self, name: &Ident, params: &[Ident], body: &ast::Expr, span: Span) {
        let mut ok = true;
        for (i, p) in params.iter().enumerate() {
            if params[..i].iter().any(|q| q.name == p.name) {
                self.error(
                    Diagnostic::error(p.span, format!("parameter `{}` is listed twice", p.name))
                        .with_hint("each parameter needs a name of its own"),
                );
                ok = false;
            }
        }
        if crate::expr::FUNCTIONS.contains(&name.name.as_str()) || name.name == "sample" {
            self.error(
                Diagnostic::error(name.span, format!("`{}` is a built-in function", name.name))
                    .with_hint("give the definition a name of its own"),
            );
            // Its uses stay quiet.
            if self.declare(name, false) {
                self.names.insert(name.name.clone(), Entity::Failed);
            }
            return;
        }
        if self.declare(name, false) {
            let k = self.defs.len();
            self.defs.push(std::sync::Arc::new(Def {
                name: name.clone(),
                params: params.to_vec(),
                body: body.clone(),
                span,
            }));
            self.names.insert(
                name.name.clone(),
                if ok { Entity::Def(k) } else { Entity::Failed },
            );
        }
    }

    /// A use of definition `k` with `args` (None: written without parentheses), at `span`.
    pub(crate) fn expand(
        &mut self,
        k: usize,
        args: Option<&[ast::Expr]>,
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let def = self.defs[k].clone();
        let given = args.map_or(0, <[ast::Expr]>::len);
        if given != def.params.len() {
            let message = match def.params.len() {
                1 => format!("`{}` takes 1 argument, found {given}", def.name.name),
                n => format!("`{}` takes {n} arguments, found {given}", def.name.name),
            };
            let example: Vec<&str> = def.params.iter().map(|p| p.name.as_str()).collect();
            let hint = if def.params.is_empty() {
                format!("write `{}` without arguments", def.name.name)
            } else {
                format!("write `{}({})`", def.name.name, example.join(", "))
            };
            self.error(
                Diagnostic::error(span, message)
                    .with_note(def.span, format!("`{}` is defined here", def.name.name))
                    .with_hint(hint),
            );
            for arg in args.unwrap_or(&[]) {
                self.expr(arg, ctx);
            }
            return None;
        }
        if self.expansions.iter().any(|e| e.def == k) {
            self.error(
                Diagnostic::error(
                    span,
                    format!("`{}` is used inside its own definition", def.name.name),
                )
                .with_note(def.span, format!("`{}` is defined here", def.name.name))
                .with_hint("a definition cannot be recursive: it is expanded where it is used"),
            );
            return None;
        }
        if self.expansions.len() >= MAX_EXPANSION_DEPTH {
            self.error(Diagnostic::error(
                span,
                format!("definitions nested more than {MAX_EXPANSION_DEPTH} deep"),
            ));
            return None;
        }
        // Each expansion is a round of the unrolling budget: definitions that use each
        // other twice over cannot blow the story up unnoticed.
        if !self.spend(span) {
            return None;
        }
        // The arguments, with the use's loop variables replaced by their values.
        let mut map = HashMap::new();
        for (p, arg) in def.params.iter().zip(args.unwrap_or(&[])) {
            map.insert(p.name.clone(), self.with_loop_values(arg));
        }
        // A use whose arguments are all literals means what an earlier use with the
        // same arguments meant in the same place (ctx), when that folded to a literal
        // without a mistake and without a `sample` (which draws at each use; in code
        // that does not run, a mistake that makes no value, an index past a family,
        // goes unreported, but then there is no literal either): the body reads only
        // its arguments and global names, so the unrolling that uses it again
        // (`apart(a, b)` in nested loops) lowers it once.
        let key = (def.params.iter())
            .map(|p| Literal::of(&map[&p.name]))
            .collect::<Option<Vec<_>>>()
            .map(|literals| (k, literals, ctx));
        if let Some(key) = &key
            && let Some(known) = self.expanded.get(key)
        {
            let mut e = known.clone();
            e.span = span;
            return Some(e);
        }
        let (reported, samples) = (self.reported, self.samples_lowered);
        let body = substitute(&def.body, &map, false);
        let loop_vars = std::mem::take(&mut self.loop_vars);
        self.expansions.push(Expansion { def: k, at: span });
        let lowered = self.expr(&body, ctx);
        self.expansions.pop();
        self.loop_vars = loop_vars;
        let lowered = lowered.map(|mut e| {
            e.span = span;
            e
        });
        if let (Some(key), Some(e)) = (key, &lowered)
            && matches!(e.kind, ir::ExprKind::Int(_) | ir::ExprKind::Bool(_))
            && self.reported == reported
            && self.samples_lowered == samples
        {
            self.expanded.insert(key, e.clone());
        }
        lowered
    }

    /// `e` with every loop variable in scope replaced by its value.
    fn with_loop_values(&self, e: &ast::Expr) -> ast::Expr {
        // The common arguments at once: a literal, a loop variable.
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) => return e.clone(),
            ExprKind::Name(n) => {
                if let Some(v) = self.loop_var(&n.name) {
                    return ast::Expr {
                        kind: ExprKind::Int(v),
                        span: e.span,
                    };
                }
            }
            _ => {}
        }
        let values: HashMap<String, ast::Expr> = self
            .loop_vars
            .iter()
            .map(|(name, v)| {
                let lit = ast::Expr {
                    kind: ExprKind::Int(*v),
                    span: e.span,
                };
                (name.clone(), lit)
            })
            .collect();
        substitute(e, &values, true)
    }

    /// A diagnostic found while definitions are expanded: one inside a definition's body
    /// is moved to the use, with a note at the place in the body.
    pub(crate) fn relocated(&self, mut diagnostic: Diagnostic) -> Diagnostic {
        // The definition the mistake is in, named once with a note at the place; then
        // moved out to each use, up to the one outside every definition.
        let mut named = false;
        for expansion in self.expansions.iter().rev() {
            let def = &self.defs[expansion.def];
            let inside =
                def.span.start <= diagnostic.span.start && diagnostic.span.end <= def.span.end;
            if !inside {
                continue;
            }
            if named {
                diagnostic.span = expansion.at;
                continue;
            }
            named = true;
            let mut moved = Diagnostic::error(
                expansion.at,
                format!("in `{}`: {}", def.name.name, diagnostic.message),
            )
            .with_note(
                diagnostic.span,
                format!("in the definition of `{}`", def.name.name),
            );
            moved.notes.extend(diagnostic.notes);
            moved.hints = diagnostic.hints;
            diagnostic = moved;
        }
        diagnostic
    }
}

/// `e` with every free name of `map` replaced by its expression (placed at the name when
/// `at_name`, else where the expression is written). An aggregate that binds one of the
/// names keeps its own variable inside.
fn substitute(e: &ast::Expr, map: &HashMap<String, ast::Expr>, at_name: bool) -> ast::Expr {
    if map.is_empty() {
        return e.clone();
    }
    let span = e.span;
    let sub = |x: &ast::Expr| Box::new(substitute(x, map, at_name));
    let kind = match &e.kind {
        ExprKind::Name(name) => match map.get(&name.name) {
            Some(replacement) => {
                return ast::Expr {
                    kind: replacement.kind.clone(),
                    span: if at_name { span } else { replacement.span },
                };
            }
            None => e.kind.clone(),
        },
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Execution { .. } => e.kind.clone(),
        ExprKind::Unary { op, operand } => ExprKind::Unary {
            op: *op,
            operand: sub(operand),
        },
        ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary {
            op: *op,
            lhs: sub(lhs),
            rhs: sub(rhs),
        },
        ExprKind::Ite {
            cond,
            then,
            otherwise,
        } => ExprKind::Ite {
            cond: sub(cond),
            then: sub(then),
            otherwise: sub(otherwise),
        },
        ExprKind::Tuple(items) => {
            ExprKind::Tuple(items.iter().map(|x| substitute(x, map, at_name)).collect())
        }
        ExprKind::In {
            element,
            set,
            sample,
        } => ExprKind::In {
            element: sub(element),
            set: set.iter().map(|x| substitute(x, map, at_name)).collect(),
            sample: sample.as_ref().map(|s| ast::Sample {
                count: sub(&s.count),
                span: s.span,
            }),
        },
        ExprKind::InRange { element, lo, hi } => ExprKind::InRange {
            element: sub(element),
            lo: sub(lo),
            hi: sub(hi),
        },
        ExprKind::Call { name, args } => ExprKind::Call {
            name: name.clone(),
            args: args.iter().map(|x| substitute(x, map, at_name)).collect(),
        },
        ExprKind::Index { base, index } => {
            // A parameter that names a family (`def f(c) = c[0]`) is replaced too.
            let base = match map.get(&base.name).map(|r| &r.kind) {
                Some(ExprKind::Name(other)) => other.clone(),
                _ => base.clone(),
            };
            ExprKind::Index {
                base,
                index: sub(index),
            }
        }
        ExprKind::Aggregate {
            name,
            binders,
            guard,
            body,
        } => {
            let mut inner = map.clone();
            let mut new_binders = Vec::with_capacity(binders.len());
            for b in binders {
                new_binders.push(ast::Binder {
                    var: b.var.clone(),
                    range: match &b.range {
                        ast::Range::Between { lo, hi } => ast::Range::Between {
                            lo: substitute(lo, &inner, at_name),
                            hi: substitute(hi, &inner, at_name),
                        },
                        ast::Range::List { items, span } => ast::Range::List {
                            items: items
                                .iter()
                                .map(|item| substitute(item, &inner, at_name))
                                .collect(),
                            span: *span,
                        },
                    },
                });
                inner.remove(&b.var.name);
            }
            ExprKind::Aggregate {
                name: name.clone(),
                binders: new_binders,
                guard: guard
                    .as_ref()
                    .map(|g| Box::new(substitute(g, &inner, at_name))),
                body: Box::new(substitute(body, &inner, at_name)),
            }
        }
        ExprKind::Announced {
            group,
            whether,
            diamond,
            formula,
            body,
        } => ExprKind::Announced {
            group: group.iter().map(|x| substitute(x, map, at_name)).collect(),
            whether: *whether,
            diamond: *diamond,
            formula: sub(formula),
            body: sub(body),
        },
        ExprKind::Quantified { forall, vars, body } => ExprKind::Quantified {
            forall: *forall,
            vars: vars.iter().map(|x| substitute(x, map, at_name)).collect(),
            body: sub(body),
        },
    };
    ast::Expr { kind, span }
}
