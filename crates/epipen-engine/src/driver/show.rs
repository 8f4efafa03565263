//! `show e`: the value of an expression in the actual world, or in each world still
//! possible, grouped by value.

use super::{Backend, Driver};
use crate::ir::{Expr, Shown as ShownExpr, Ty};
use crate::syntax::Span;
use crate::worlds::{self, Value, World};
use crate::{Amount, At, EngineError, Failure, Report, Shown};

/// The most worlds `show` without an actual world goes through.
const SHOW_CAP: usize = 100_000;

impl<B: Backend> Driver<B> {
    pub(super) fn show(
        &mut self,
        span: Span,
        value: &ShownExpr,
        text: &str,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        let state = self.state.clone();
        let shown = match value {
            ShownExpr::Rational(r) => {
                let r = self.now_rat(r);
                // An event named before it happened is the story's error, as elsewhere.
                r.each_expr(&mut |e| super::no_latest(&self.program, e))
                    .at(span)?;
                let point = self.actual.as_ref().map(|(_, p)| p);
                let name = B::NAME;
                let found = (self.backend.probabilities())
                    .ok_or_else(|| no_chances(name))
                    .and_then(|p| p.amounts(&r, &state, &self.checkpoints, point))
                    .at(span)?;
                let amounts = found
                    .into_iter()
                    .map(|(q, n)| (Amount::Ratio(q), n))
                    .collect();
                self.shown_amounts(amounts)
            }
            ShownExpr::Expr(e) if e.ty == Ty::Bool && self.actual.is_some() => {
                let holds = self.actual_holds(e, &state, "`show`").at(span)?;
                Shown::Actual(Amount::Value(Value::Bool(holds), Ty::Bool))
            }
            ShownExpr::Expr(e) if e.ty == Ty::Bool => {
                let set = self.formula(e, &state).at(span)?;
                match &self.actual {
                    Some((_, point)) => {
                        let holds = self.backend.holds(&set, point).at(span)?;
                        Shown::Actual(Amount::Value(Value::Bool(holds), Ty::Bool))
                    }
                    None => {
                        let worlds = self.all_worlds(span)?;
                        let mut amounts: Vec<(Amount, u64)> = Vec::new();
                        // Knowledge-free: read in each world, as an int is (a solver
                        // call per world is slow on Z3).
                        let now = self.now(e).at(span)?.clone();
                        if let Some(values) = (worlds.iter())
                            .map(|w| worlds::value_of(&now, &w.0))
                            .collect::<Option<Vec<Value>>>()
                        {
                            for v in values {
                                add(&mut amounts, Amount::Value(v, Ty::Bool));
                            }
                            return self.report_shown(span, text, Shown::Worlds(amounts), sink);
                        }
                        for w in &worlds {
                            let point = self.backend.point(&w.0).at(span)?;
                            let holds = self.backend.holds(&set, &point).at(span)?;
                            add(&mut amounts, Amount::Value(Value::Bool(holds), Ty::Bool));
                        }
                        Shown::Worlds(amounts)
                    }
                }
            }
            ShownExpr::Expr(e) => {
                let e = self.now(e).at(span)?.clone();
                match &self.actual {
                    Some((world, _)) => Shown::Actual(value_in(&e, world, span)?),
                    None => {
                        let worlds = self.all_worlds(span)?;
                        let mut amounts: Vec<(Amount, u64)> = Vec::new();
                        for w in &worlds {
                            add(&mut amounts, value_in(&e, &w.0, span)?);
                        }
                        Shown::Worlds(amounts)
                    }
                }
            }
        };
        self.report_shown(span, text, shown, sink)
    }

    fn report_shown(
        &self,
        span: Span,
        text: &str,
        shown: Shown,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(), EngineError> {
        sink(Report::Show {
            span,
            text: text.to_string(),
            shown,
        });
        Ok(())
    }

    /// A probability term over the values at the story's start.
    pub(super) fn now_rat(&self, r: &crate::ir::Rat) -> crate::ir::Rat {
        let (saved, saved_latest) = (&self.saved_terms, &self.saved_latest);
        let at = |c: crate::ir::CheckpointId| crate::ir::Moment {
            terms: saved.get(c.0).and_then(|t| t.as_deref().map(Vec::as_slice)),
            latest: saved_latest.get(c.0).map_or(&[], |l| l.as_slice()),
        };
        let now = crate::ir::Moment {
            terms: self.terms.as_deref().map(Vec::as_slice),
            latest: &self.latest,
        };
        r.substitute(now, &at)
    }

    fn shown_amounts(&self, amounts: Vec<(Amount, u64)>) -> Shown {
        match (&self.actual, amounts.as_slice()) {
            (Some(_), [(one, _)]) => Shown::Actual(one.clone()),
            _ => Shown::Worlds(amounts),
        }
    }

    /// Every world still possible, for a `show` without an actual world.
    fn all_worlds(&mut self, span: Span) -> Result<Vec<World>, EngineError> {
        let state = self.state.clone();
        let found = self.worlds_of(&state, SHOW_CAP).at(span)?;
        if !found.complete {
            return Err(Failure::Story {
                message: format!(
                    "`show` without an actual world goes through the worlds still possible, \
                     and there are more than {SHOW_CAP}"
                ),
                hints: vec!["declare the actual world first with `actual …`".into()],
                at: None,
            })
            .at(span);
        }
        Ok(found.worlds)
    }
}

fn add(amounts: &mut Vec<(Amount, u64)>, amount: Amount) {
    match amounts.iter_mut().find(|(a, _)| *a == amount) {
        Some((_, n)) => *n += 1,
        None => amounts.push((amount, 1)),
    }
}

/// `e`'s value in a world (its values at the story's start).
fn value_in(e: &Expr, world: &[Value], span: Span) -> Result<Amount, EngineError> {
    match worlds::value_of(e, world) {
        Some(v) => Ok(Amount::Value(v, e.ty)),
        None => Err(Failure::Story {
            message: "the value to show leaves the 64-bit integers, or names an event that has not happened"
                .into(),
            hints: Vec::new(),
            at: None,
        })
        .at(span),
    }
}

/// What a backend that keeps no weights answers for a story with chances (the choice
/// of backend never gives it one: a bug otherwise).
pub(crate) fn no_chances(backend: &str) -> Failure {
    Failure::Unsupported(format!(
        "the {backend} backend does not compute probabilities: `prior`, a case's `weight` and `probability(…)` need the explicit backend"
    ))
}
