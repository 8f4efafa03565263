//! What the backend reads of an expression of the program: normalised
//! ([`crate::normal`]), and over the constants' values at the story's start and the
//! occurrences of the events it names.

use std::collections::HashMap;
use std::ops::Deref;
use std::rc::Rc;

use super::{Backend, Driver};
use crate::Failure;
use crate::ir::{CheckpointId, Expr, ExprKind, Moment, Program, Stmt};

/// An expression of the program as the driver hands it to the backend: itself, or
/// normalised, or with the names of changed constants replaced by their terms.
pub(super) enum Now<'e> {
    Same(&'e Expr),
    Changed(Rc<Expr>),
}

impl Deref for Now<'_> {
    type Target = Expr;
    fn deref(&self) -> &Expr {
        match self {
            Now::Same(e) => e,
            Now::Changed(e) => e,
        }
    }
}

impl<B: Backend> Driver<B> {
    /// `e` as the backend must read it: normalised, over the constants' values at the
    /// story's start and the occurrences of the events named in it; a story error when
    /// it names an event that has not happened.
    pub(super) fn now<'e>(&mut self, e: &'e Expr) -> Result<Now<'e>, Failure> {
        let normal = self.normal.get(&(std::ptr::from_ref(e) as usize)).cloned();
        let as_is = |normal: Option<Rc<Expr>>| match normal {
            Some(n) => Now::Changed(n),
            None => Now::Same(e),
        };
        if self.generation == 0 {
            if !self.program.events.is_empty() {
                no_latest(&self.program, e)?;
            }
            return Ok(as_is(normal));
        }
        let history = self.history && reads_history(e);
        if self.terms.is_none() && !history {
            // No constant changed, and no event or checkpoint named: as written (a
            // plan's search re-enters states often; nothing to substitute there).
            return Ok(as_is(normal));
        }
        let key = (std::ptr::from_ref(e) as usize, self.generation);
        if let Some(done) = self.substituted.get(&key) {
            return Ok(Now::Changed(done.clone()));
        }
        let e: &Expr = normal.as_deref().unwrap_or(e);
        let (saved, saved_latest) = (&self.saved_terms, &self.saved_latest);
        let at = |c: CheckpointId| Moment {
            terms: saved.get(c.0).and_then(|t| t.as_deref().map(Vec::as_slice)),
            latest: saved_latest.get(c.0).map_or(&[], |l| l.as_slice()),
        };
        let now = Moment {
            terms: self.terms.as_deref().map(Vec::as_slice),
            latest: &self.latest,
        };
        let done = e.substitute(now, &at);
        // The terms name no event (each was substituted when it was made): only what `e`
        // itself names may have been left.
        if history {
            no_latest(&self.program, &done)?;
        }
        let done = Rc::new(done);
        self.substituted.insert(key, done.clone());
        Ok(Now::Changed(done))
    }
}

/// The program's formulas that [`crate::normal::normal`] changes, by address.
pub(super) fn normalised(program: &Program) -> HashMap<usize, Rc<Expr>> {
    let mut out = HashMap::new();
    let mut visit = |e: &Expr| {
        if let Some(n) = crate::normal::normal(e) {
            out.insert(std::ptr::from_ref(e) as usize, Rc::new(n));
        }
        Ok::<(), ()>(())
    };
    for s in &program.statements {
        let _ = s.each_expr(&mut visit);
    }
    for a in &program.actions {
        let _ = a.each_expr(&mut visit);
    }
    out
}

/// Whether `e` names an event's latest case or a checkpoint (`at(c, …)`).
impl<B: Backend> Driver<B> {
    /// A statement stepped from outside the program (the Rust API's live story, a
    /// session's step by step run): whether it reads the history joins the program's.
    /// A statement that reads a checkpoint (`at(c, …)`) also tells the backend, which
    /// may have planned its views for a program without one.
    pub(super) fn stepping(&mut self, stmt: &Stmt) {
        let mut look = |e: &Expr| if reads_history(e) { Err(()) } else { Ok(()) };
        if stmt.each_expr(&mut look).is_err() {
            self.history = true;
            let mut at = |e: &Expr| {
                e.walk(&mut |x| match x.kind {
                    ExprKind::At { .. } => Err(()),
                    _ => Ok(()),
                })
            };
            if stmt.each_expr(&mut at).is_err() {
                self.backend.reads_checkpoints();
            }
        }
    }
}

/// Whether an expression of `program` (its statements' and its actions') reads the
/// history.
pub(super) fn program_reads_history(program: &Program) -> bool {
    let found = program.find(&mut |x| matches!(x.kind, ExprKind::Latest(_) | ExprKind::At { .. }));
    found.is_some()
}

fn reads_history(e: &Expr) -> bool {
    e.walk(&mut |x| match x.kind {
        ExprKind::Latest(_) | ExprKind::At { .. } => Err(()),
        _ => Ok(()),
    })
    .is_err()
}

/// A story error unless every event `e` names has happened (the driver has replaced
/// `Latest` by its occurrence).
pub(super) fn no_latest(program: &Program, e: &Expr) -> Result<(), Failure> {
    e.walk(&mut |x| match x.kind {
        ExprKind::Latest(event) => Err(Failure::event_not_happened(&program.events[event.0].name)),
        _ => Ok(()),
    })
}
