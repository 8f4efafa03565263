//! Simultaneous changes: `x, y := e, f`, a case's `then` list (with `for` loops inside),
//! and a `simultaneously { … }` block of changes. Every value is read before any is
//! written; each constant is changed at most once.

use epipen_ir::{self as ir, ConstId};
use epipen_syntax::Diagnostic;
use epipen_syntax::ast::{self, Change, StmtKind};

use crate::*;

/// The changes gathered so far for one simultaneous change.
#[derive(Default)]
pub(crate) struct Gathered {
    pub(crate) changes: Vec<(ConstId, ir::Expr)>,
    /// Some change failed (already reported).
    pub(crate) failed: bool,
}

impl Lowerer {
    /// One `x := e` of a simultaneous change, added to `acc`.
    pub(crate) fn gather_one(&mut self, target: &ast::Expr, value: &ast::Expr, acc: &mut Gathered) {
        match self.change(target, value) {
            Some((c, value)) => {
                if acc.changes.iter().any(|(d, _)| *d == c) {
                    self.error(
                        Diagnostic::error(
                            target.span,
                            format!("`{}` is changed twice", self.constants[c.0].name),
                        )
                        .with_hint("a constant gets one new value per change"),
                    );
                    acc.failed = true;
                }
                acc.changes.push((c, value));
            }
            None => acc.failed = true,
        }
    }

    /// `for var in range { … }` inside a simultaneous change: `body` gathers the changes
    /// of one round. A loop that does not run is checked in dead mode, its changes
    /// dropped.
    pub(crate) fn gather_for(
        &mut self,
        var: &ast::Ident,
        range: &ast::Range,
        acc: &mut Gathered,
        body: &dyn Fn(&mut Self, &mut Gathered),
    ) {
        let unrolled = self.each_value(var, range, &mut |l, live| match live {
            true => body(l, acc),
            false => body(l, &mut Gathered::default()),
        });
        if !unrolled {
            acc.failed = true;
        }
    }

    /// The items of a case's `then` list, unrolled into `acc`.
    pub(crate) fn gather_changes(&mut self, changes: &[Change], acc: &mut Gathered) {
        for change in changes {
            match change {
                Change::One { target, value } => self.gather_one(target, value, acc),
                Change::For {
                    var, range, body, ..
                } => self.gather_for(var, range, acc, &|l, acc| l.gather_changes(body, acc)),
            }
        }
    }

    /// Whether a `simultaneously` block is one of changes: it holds changes (`:=`,
    /// possibly under `for`/`if`) and no announcement (with one, each `:=` is an error).
    pub(crate) fn is_block_of_changes(statements: &[ast::Stmt]) -> bool {
        Self::holds(statements, &|k| matches!(k, StmtKind::Assign { .. }))
            && !Self::holds(statements, &|k| {
                matches!(
                    k,
                    StmtKind::Announce(_) | StmtKind::Says { .. } | StmtKind::Reveals { .. }
                )
            })
    }

    /// Whether a statement of `statements` (or of the `for` and `if` blocks among them)
    /// is one `pick` picks.
    fn holds(statements: &[ast::Stmt], pick: &dyn Fn(&StmtKind) -> bool) -> bool {
        statements.iter().any(|s| match &s.kind {
            StmtKind::For { body, .. } => Self::holds(&body.statements, pick),
            StmtKind::If {
                then, otherwise, ..
            } => {
                Self::holds(&then.statements, pick)
                    || otherwise
                        .as_ref()
                        .is_some_and(|b| Self::holds(&b.statements, pick))
            }
            kind => pick(kind),
        })
    }

    /// `simultaneously { … }` of changes: one simultaneous change, unrolled into `acc`.
    pub(crate) fn gather_block(&mut self, statements: &[ast::Stmt], acc: &mut Gathered) {
        for stmt in statements {
            match &stmt.kind {
                StmtKind::Assign { targets, values } => {
                    for (target, value) in targets.iter().zip(values) {
                        self.gather_one(target, value, acc);
                    }
                }
                StmtKind::For { var, range, body } => {
                    self.gather_for(var, range, acc, &|l, acc| {
                        l.gather_block(&body.statements, acc)
                    })
                }
                StmtKind::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    let cond = self.compile_time_bool(cond, "the condition of `if`");
                    let otherwise: &[ast::Stmt] = otherwise.as_ref().map_or(&[], |b| &b.statements);
                    let mut dropped = Gathered::default();
                    match cond {
                        Some(true) => {
                            self.gather_block(&then.statements, acc);
                            self.dead(|l| l.gather_block(otherwise, &mut dropped));
                        }
                        Some(false) => {
                            self.dead(|l| l.gather_block(&then.statements, &mut dropped));
                            self.gather_block(otherwise, acc);
                        }
                        None => {
                            acc.failed = true;
                            self.dead(|l| {
                                l.gather_block(&then.statements, &mut dropped);
                                l.gather_block(otherwise, &mut dropped);
                            });
                        }
                    }
                }
                _ => {
                    self.error(
                        Diagnostic::error(
                            stmt.span,
                            "a `simultaneously` block of changes holds only changes",
                        )
                        .with_hint(
                            "announcements and changes cannot be simultaneous: put this statement \
                             before or after the block",
                        ),
                    );
                    acc.failed = true;
                }
            }
        }
    }
}
