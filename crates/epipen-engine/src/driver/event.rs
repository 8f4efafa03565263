//! An `event` statement, the same for every backend: the preconditions evaluated in the
//! state before, the backend's product (`Backend::event`), each character taught the
//! group of the case it saw, the changes made terms, the actual world's case chosen.

use std::rc::Rc;

use super::{Backend, Driver, Learning};
use crate::ir::{CmpOp, ConstId, EventStmt, Expr, ExprKind, LogicOp, Ty};
use crate::syntax::Span;
use crate::worlds::Value;
use crate::{At, EngineError, Failure, Report};

/// What an execution of an event body makes of a state, before it is committed: the
/// state after the product (each character taught the group it saw, its plausibility of
/// the cases applied) and each changed constant's new term.
pub(super) struct Product<B: Backend> {
    pub(super) next: B::State,
    pub(super) changes: Vec<(ConstId, Expr)>,
}

impl<B: Backend> Clone for Product<B> {
    fn clone(&self) -> Self {
        Product {
            next: self.next.clone(),
            changes: self.changes.clone(),
        }
    }
}

impl<B: Backend> Driver<B> {
    /// Runs one execution of the event statement `event` (at `span`).
    pub(super) fn event(
        &mut self,
        span: Span,
        event: &EventStmt,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        let def = &self.program.events[event.event.0];
        let name = def.name.clone();
        let Some(&occ) = event.occurrences.iter().find(|o| !self.happened[o.0]) else {
            return Err(Failure::internal(
                "an event ran more often than its occurrences",
            ))
            .at(span);
        };
        let state = self.state.clone();
        let pres = self.preconditions(span, event, &state)?;
        // The changes before the actual case: a name of an event that has not happened
        // is the statement's error, wherever it stands, as in a precondition.
        let changes = self.changes(span, event, occ, 0)?;
        let actual_case = self.actual_case(event, &name, &pres, span)?;
        let product = self.product(span, event, occ, 0, pres, changes)?;
        match self.forgetting {
            crate::History::Kept => self.commit(span, product, occ, 0, actual_case)?,
            crate::History::ForgottenWhereUnread => {
                self.commit_forgetting(span, event, product, occ, actual_case)?;
            }
        }
        let mut latest = self.latest.as_ref().clone();
        latest[event.event.0] = Some(occ);
        self.latest = Rc::new(latest);
        self.generation += 1;
        let saw = match actual_case {
            None => Vec::new(),
            Some(k) => (event.sees.iter())
                .map(|groups| match groups {
                    Some(g) => (0..g.len()).filter(|&d| g[d] == g[k]).collect(),
                    None => (0..event.cases.len()).collect(),
                })
                .collect(),
        };
        sink(Report::Happened {
            span,
            round: self.round,
            event: event.event,
            case: actual_case,
            saw,
        });
        Ok(())
    }

    /// Where each case of `event` can happen in `state`.
    pub(super) fn preconditions(
        &mut self,
        span: Span,
        event: &EventStmt,
        state: &B::State,
    ) -> Result<Vec<B::Set>, EngineError> {
        let mut pres = Vec::with_capacity(event.cases.len());
        for case in &event.cases {
            let pre = match &case.pre {
                Some(pre) => self.formula(pre, state).at(span)?,
                None => self.formula(&literal(true, span), state).at(span)?,
            };
            pres.push(pre);
        }
        Ok(pres)
    }

    /// Each constant an execution of `event` changes, with its new term: by case, case k
    /// recorded in `occ` as `first + k`.
    pub(super) fn changes(
        &mut self,
        span: Span,
        event: &EventStmt,
        occ: ConstId,
        first: usize,
    ) -> Result<Vec<(ConstId, Expr)>, EngineError> {
        let ty = self.program.constants[occ.0].ty;
        let changed: Vec<ConstId> = {
            let mut all: Vec<ConstId> = (event.cases.iter())
                .flat_map(|c| c.changes.iter().map(|(t, _)| *t))
                .collect();
            all.sort();
            all.dedup();
            all
        };
        let mut changes = Vec::with_capacity(changed.len());
        for target in changed {
            let old = self.current_term(target);
            let mut term = old;
            for (k, case) in event.cases.iter().enumerate().rev() {
                if let Some((_, value)) = case.changes.iter().find(|(t, _)| *t == target) {
                    let value = self.now(value).at(span)?.clone();
                    term = ite(is_case(occ, ty, first + k, span), value, term);
                }
            }
            changes.push((target, term));
        }
        Ok(changes)
    }

    /// The product of the current state with an execution of `event` whose case k is
    /// recorded in `occ` as `first + k` (`pres`: where each case can happen; `changes`:
    /// [`Driver::changes`]). Nothing of the driver changes.
    pub(super) fn product(
        &mut self,
        span: Span,
        event: &EventStmt,
        occ: ConstId,
        first: usize,
        pres: Vec<B::Set>,
        changes: Vec<(ConstId, Expr)>,
    ) -> Result<Product<B>, EngineError> {
        let ty = self.program.constants[occ.0].ty;
        let state = self.state.clone();
        let weights = match self.chances {
            false => None,
            true => {
                let mut weights = Vec::with_capacity(event.cases.len());
                for case in &event.cases {
                    weights.push(match &case.weight {
                        Some(w) => Expr {
                            // Where the weight is written, whatever its terms now.
                            span: w.span,
                            ..self.now(w).at(span)?.clone()
                        },
                        None => Expr {
                            kind: ExprKind::Int(1),
                            ty: Ty::Int,
                            span,
                        },
                    });
                }
                Some(weights)
            }
        };
        // A case's weight below 0 is an error at the weight.
        let mut next = (self.backend)
            .event(&state, occ, first, pres, weights.as_deref())
            .map_err(|e| EngineError {
                span: match &e {
                    Failure::Story { at: Some(at), .. } => *at,
                    _ => span,
                },
                error: e,
            })?;
        // Each character learns the group of the case it saw (when the history is
        // forgotten, the backend gives it the group as an observation of its own).
        let sees: &[Option<Vec<usize>>] = match self.forgetting {
            crate::History::Kept => &event.sees,
            crate::History::ForgottenWhereUnread => &[],
        };
        for (who, groups) in sees.iter().enumerate() {
            let Some(groups) = groups else { continue };
            let what = group_of(occ, ty, first, groups, span);
            next = self
                .backend
                .learn(&next, crate::ir::CharId(who), Learning::Value(&what))
                .at(span)?;
        }
        // Each character's plausibility of the cases (action priority).
        for (who, ranks) in event.expects.iter().enumerate() {
            let Some(ranks) = ranks else { continue };
            let levels = ranks.iter().copied().max().unwrap_or(0) + 1;
            if levels == 1 {
                continue;
            }
            let rank = rank_of(occ, ty, first, ranks, span);
            next = (self.plausibility().at(span)?)
                .prefer(&next, crate::ir::CharId(who), &rank, levels)
                .at(span)?;
        }
        Ok(Product { next, changes })
    }

    /// Makes `product` the current state: `occ` happened, the changes' terms hold, and
    /// the actual world (if any) had the case `actual_case` (recorded as `first` + it).
    pub(super) fn commit(
        &mut self,
        span: Span,
        product: Product<B>,
        occ: ConstId,
        first: usize,
        actual_case: Option<usize>,
    ) -> Result<(), EngineError> {
        self.state = product.next;
        self.happened[occ.0] = true;
        self.generation += 1;
        if !product.changes.is_empty() {
            self.change(product.changes);
        }
        if let Some(k) = actual_case {
            let (mut world, _) = self.actual.take().expect("an actual world");
            world[occ.0] = Value::Int((first + k) as i64);
            let point = self.backend.point(&world).at(span)?;
            self.actual = Some((world, point));
        }
        Ok(())
    }

    /// [`Driver::commit`] when the history is forgotten: the backend replaces the
    /// occurrence and the values before by each character's observation and the values
    /// after, and the actual world holds the current values (the driver's terms stay
    /// the constants themselves).
    fn commit_forgetting(
        &mut self,
        span: Span,
        event: &EventStmt,
        product: Product<B>,
        occ: ConstId,
        actual_case: Option<usize>,
    ) -> Result<(), EngineError> {
        let point = self.actual.as_ref().map(|(_, point)| point.clone());
        let forgotten = super::Forgotten {
            occurrence: occ,
            actual_case,
            changes: &product.changes,
            sees: &event.sees,
        };
        let Some(forgetting) = self.backend.forgetting() else {
            return Err(Failure::internal(
                "a backend that keeps the histories asked to forget one",
            ))
            .at(span);
        };
        let (state, point) = forgetting
            .forget(&product.next, &forgotten, point.as_ref())
            .at(span)?;
        self.state = state;
        self.happened[occ.0] = true;
        self.generation += 1;
        if let Some(k) = actual_case {
            let (mut world, _) = self.actual.take().expect("an actual world");
            world[occ.0] = Value::Int(k as i64);
            // The changed constants' values after, from their values before.
            let mut terms: Vec<Expr> = (self.program.constants.iter().enumerate())
                .map(|(c, constant)| Expr {
                    kind: ExprKind::Const(ConstId(c)),
                    ty: constant.ty,
                    span: constant.span,
                })
                .collect();
            for (target, term) in &product.changes {
                terms[target.0] = term.clone();
            }
            world = crate::worlds::values_of(&terms, &world)
                .ok_or_else(|| Failure::internal("a changed constant leaves the 64-bit integers"))
                .at(span)?;
            let point = point
                .ok_or_else(|| Failure::internal("an actual point"))
                .at(span)?;
            self.actual = Some((world, point));
        }
        Ok(())
    }

    /// The case that happened in the actual world: the `actual` line's, whose
    /// precondition must hold there, or the one case that can happen there. None when
    /// the story has no actual world (and the block no `actual` line). A wrong `actual`
    /// line is reported at that line, other failures at the event (`span`).
    fn actual_case(
        &mut self,
        event: &EventStmt,
        name: &str,
        pres: &[B::Set],
        span: Span,
    ) -> Result<Option<usize>, EngineError> {
        let line = event.actual_at.unwrap_or(span);
        let Some((_, point)) = &self.actual else {
            return match event.actual {
                Some(k) => Err(Failure::case_without_actual_world(&event.cases[k].name)).at(line),
                None => Ok(None),
            };
        };
        if let Some(k) = event.actual {
            return if self.backend.holds(&pres[k], point).at(span)? {
                Ok(Some(k))
            } else {
                Err(Failure::case_impossible(name, &event.cases[k].name)).at(line)
            };
        }
        let mut possible = Vec::new();
        for (k, pre) in pres.iter().enumerate() {
            if self.backend.holds(pre, point).at(span)? {
                possible.push(k);
            }
        }
        match possible.as_slice() {
            [k] => Ok(Some(*k)),
            _ => {
                let names: Vec<&str> = possible
                    .iter()
                    .map(|&k| event.cases[k].name.as_str())
                    .collect();
                Err(Failure::case_unknown(name, &names)).at(span)
            }
        }
    }

    /// What the name of `c` stands for now, over the values at the story's start.
    fn current_term(&self, c: ConstId) -> Expr {
        match &self.terms {
            Some(terms) => terms[c.0].clone(),
            None => {
                let constant = &self.program.constants[c.0];
                Expr {
                    kind: ExprKind::Const(c),
                    ty: constant.ty,
                    span: constant.span,
                }
            }
        }
    }
}

fn literal(value: bool, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Bool(value),
        ty: Ty::Bool,
        span,
    }
}

/// `occ == k` (the case whose value is k happened).
fn is_case(occ: ConstId, ty: Ty, k: usize, span: Span) -> Expr {
    let at = |kind| Expr { kind, ty, span };
    Expr {
        kind: ExprKind::Cmp(
            CmpOp::Eq,
            Box::new(at(ExprKind::Const(occ))),
            Box::new(at(ExprKind::Int(k as i64))),
        ),
        ty: Ty::Bool,
        span,
    }
}

fn ite(cond: Expr, then: Expr, otherwise: Expr) -> Expr {
    Expr {
        span: cond.span,
        ty: then.ty,
        kind: ExprKind::Ite(Box::new(cond), Box::new(then), Box::new(otherwise)),
    }
}

/// The rank of the case `occ` holds, by `ranks` (an int: 0 most plausible; case k is
/// the value `first + k`).
fn rank_of(occ: ConstId, ty: Ty, first: usize, ranks: &[usize], span: Span) -> Expr {
    let int = |n: usize| Expr {
        kind: ExprKind::Int(n as i64),
        ty: Ty::Int,
        span,
    };
    (0..ranks.len())
        .rev()
        .skip(1)
        .fold(int(ranks[ranks.len() - 1]), |rest, k| {
            ite(is_case(occ, ty, first + k, span), int(ranks[k]), rest)
        })
}

/// What a character with these groups of cases learns of `occ`: the occurrence itself
/// when every case is a group of its own, else the group's number (case k is the value
/// `first + k`).
fn group_of(occ: ConstId, ty: Ty, first: usize, groups: &[usize], span: Span) -> Expr {
    let all_apart = {
        let mut seen = groups.to_vec();
        seen.sort();
        seen.dedup();
        seen.len() == groups.len()
    };
    if all_apart {
        return Expr {
            kind: ExprKind::Const(occ),
            ty,
            span,
        };
    }
    let int = |n: usize| Expr {
        kind: ExprKind::Int(n as i64),
        ty: Ty::Int,
        span,
    };
    let last = groups.iter().copied().max().unwrap_or(0);
    let mut term = int(last);
    for g in (0..last).rev() {
        let members: Vec<Expr> = (groups.iter().enumerate())
            .filter(|(_, h)| **h == g)
            .map(|(k, _)| is_case(occ, ty, first + k, span))
            .collect();
        let cond = members
            .into_iter()
            .reduce(|a, b| Expr {
                kind: ExprKind::Logic(LogicOp::Or, Box::new(a), Box::new(b)),
                ty: Ty::Bool,
                span,
            })
            .expect("every group has a case");
        term = ite(cond, int(g), term);
    }
    term
}
