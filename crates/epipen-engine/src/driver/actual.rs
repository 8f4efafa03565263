//! `actual φ`: the actual world, one of the worlds still possible.

use super::{Backend, Driver, Origin};
use crate::Failure;
use crate::ir::{Expr, ExprKind};
use crate::syntax::Span;
use crate::worlds::{Value, WorldSet};

impl<B: Backend> Driver<B> {
    /// `phi` with every occurrence constant pinned that `actual φ` does not have to
    /// pin: those that have not happened hold their not-yet value; those that have hold
    /// one of their cases, and when an earlier `actual` (`previous`, of this `repeat`'s
    /// previous round) said which case happened, that case.
    fn pinned_occurrences(&self, phi: &Expr, previous: Option<&[Value]>) -> Expr {
        let mut conjuncts = vec![phi.clone()];
        for occ in self.program.occurrences() {
            let o = self.program.constants[occ.0]
                .occurrence
                .expect("an occurrence");
            let not_yet = self.program.events[o.event.0].not_yet();
            let (op, value) = if self.happened[occ.0] {
                match previous.and_then(|w| w.get(occ.0)) {
                    Some(Value::Int(v)) => (crate::ir::CmpOp::Eq, *v),
                    _ => (crate::ir::CmpOp::Ne, not_yet),
                }
            } else {
                (crate::ir::CmpOp::Eq, not_yet)
            };
            let ty = self.program.constants[occ.0].ty;
            let at = |kind| Expr {
                kind,
                ty,
                span: phi.span,
            };
            conjuncts.push(Expr {
                kind: ExprKind::Cmp(
                    op,
                    Box::new(at(ExprKind::Const(occ))),
                    Box::new(at(ExprKind::Int(value))),
                ),
                ty: crate::ir::Ty::Bool,
                span: phi.span,
            });
        }
        conjuncts
            .into_iter()
            .reduce(|a, b| Expr {
                kind: ExprKind::Logic(crate::ir::LogicOp::And, Box::new(a), Box::new(b)),
                ty: crate::ir::Ty::Bool,
                span: phi.span,
            })
            .expect("phi")
    }

    /// `actual φ`: φ must allow exactly one of the worlds still possible (κ, and the
    /// events so far). The same statement again (in the next round of a `repeat`)
    /// declares the same world.
    pub(super) fn set_actual(&mut self, expr: &Expr, span: Span) -> Result<(), Failure> {
        let mut previous = None;
        if self.actual_at == Some(span) {
            // The same `actual` in a later round of its `repeat`: made again, with the
            // values its names have now (after a `:=`, another world's), and the cases
            // that happened in the actual world.
            previous = self.actual.take().map(|(w, _)| w);
        }
        if self.actual.is_some() {
            return Err(Failure::second_actual());
        }
        let state = self.state.clone();
        let expr = self.now(expr)?;
        let expr = self.pinned_occurrences(&expr, previous.as_deref());
        // φ pins one world of the constants' types: it must be possible (the common
        // case, asked without listing κ).
        let pinned = match self.backend.pin(&expr, &state)? {
            Some(pinned) => pinned,
            // The backend cannot list φ's worlds of the types (too many: φ names a
            // constant that the announcements pin): κ's worlds where φ holds decide when
            // there are some and κ is the backend's own (no other solver started); the
            // standby's listing of the types when there are none (φ allows no world at
            // all, or contradicts κ).
            None if self.handover(&state).is_none() => {
                let set = self.backend.formula(&expr, &state, &self.checkpoints)?;
                let possible = self.backend.restrict(&state, set, Origin::Written)?;
                let found = self.worlds_of(&possible, 2)?;
                if !(found.worlds.is_empty() && found.complete) {
                    return self.actual_among(found, span);
                }
                self.standby.pin(&expr)?
            }
            None => self.standby.pin(&expr)?,
        };
        match pinned.as_slice() {
            // None of the backend's worlds: it may hold only those the first
            // announcements allow (the BDD backend's bounded ints), so φ may allow a
            // world of the types that they ruled out.
            [] if (self.standby.pin(&expr)).is_ok_and(|w| !w.is_empty()) => {
                return Err(Failure::actual_contradicts());
            }
            [] => return Err(Failure::actual_allows_none()),
            [w] => {
                let point = self.backend.point(&w.0)?;
                if !self.backend.contains(&state, &point)? {
                    return Err(Failure::actual_contradicts());
                }
                self.actual = Some((w.0.clone(), point));
                self.actual_at = Some(span);
                return Ok(());
            }
            _ => {}
        }
        // Several worlds of the types: the first two worlds of κ (canonical order) where
        // φ holds.
        let set = self.backend.formula(&expr, &state, &self.checkpoints)?;
        let possible = self.backend.restrict(&state, set, Origin::Written)?;
        let found = self.worlds_of(&possible, 2)?;
        self.actual_among(found, span)
    }

    /// `actual φ` from the first two worlds of κ where φ holds (`found`): the actual
    /// world when it is the only one.
    fn actual_among(&mut self, found: WorldSet, span: Span) -> Result<(), Failure> {
        match found.worlds.as_slice() {
            [] if !found.complete => Err(Failure::internal(
                "the solver listed no world and did not say there is none",
            )),
            [] => Err(Failure::actual_contradicts()),
            [w] if found.complete => {
                let point = self.backend.point(&w.0)?;
                self.actual = Some((w.0.clone(), point));
                self.actual_at = Some(span);
                Ok(())
            }
            [_] => Err(Failure::internal(
                "the solver listed one world and did not say there is no other",
            )),
            [a, b, ..] => {
                let (now_a, now_b) = (self.shown(a)?, self.shown(b)?);
                let changed = self.terms.is_some();
                Err(Failure::actual_allows_several(
                    &self.program,
                    (&now_a.0, changed.then_some(&a.0[..])),
                    (&now_b.0, changed.then_some(&b.0[..])),
                ))
            }
        }
    }
}
