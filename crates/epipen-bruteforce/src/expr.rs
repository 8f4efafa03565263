//! Expressions evaluated in one world of a state, with exact integers, and the
//! constants' values after the changes so far.

use std::rc::Rc;

use epipen_ir::{CmpOp, Expr, ExprKind, LogicOp, Value, World};
use num_bigint::BigInt;
use num_traits::ToPrimitive;

use crate::{Change, Evaluator, State, V, arith};

impl<'p> Evaluator<'p> {
    /// The values of world `w`'s constants after the first `time` changes, replayed one
    /// by one from its start values.
    pub(crate) fn values_at(&mut self, w: &World, time: usize) -> Result<Rc<Vec<Value>>, String> {
        if let Some(v) = self.then.get(&(w.clone(), time)) {
            return Ok(v.clone());
        }
        let values = if time == 0 {
            w.0.clone()
        } else {
            let before = self.values_at(w, time - 1)?;
            let changes = match self.changes[time - 1] {
                Change::Assign(changes) => changes,
                Change::Event { occ, offset, cases } => {
                    let case = self.case_in(w, occ)?.checked_sub(offset);
                    match case.and_then(|k| cases.get(k)) {
                        Some(case) => case.changes.as_slice(),
                        None => return Err(format!("slot #{occ} holds another action's case")),
                    }
                }
            };
            // Every value is computed before any is written.
            let mut values = before.to_vec();
            for (target, e) in changes {
                values[target.0] = match self.eval(e, w, &Self::at_time(time - 1))? {
                    V::B(b) => Value::Bool(b),
                    V::I(n) => Value::Int(
                        n.to_i64()
                            .ok_or_else(|| format!("a changed value leaves 64 bits: {n}"))?,
                    ),
                };
            }
            values
        };
        let values = Rc::new(values);
        self.then.insert((w.clone(), time), values.clone());
        Ok(values)
    }

    /// A state at `time` with no worlds and nothing learned: where a knowledge-free
    /// expression is evaluated with the constants' values of that time.
    pub(crate) fn at_time(time: usize) -> Rc<State<'p>> {
        Rc::new(State {
            id: usize::MAX,
            worlds: Rc::new(Vec::new()),
            learned: Vec::new(),
            time,
            plausibility: Vec::new(),
        })
    }

    pub(crate) fn eval(&mut self, e: &'p Expr, w: &World, s: &Rc<State<'p>>) -> Result<V, String> {
        Ok(match &e.kind {
            // The case of the event's latest occurrence at the state's time.
            ExprKind::Latest(event) => match self.latest[s.time][event.0] {
                Some(occ) => V::I(self.case_in(w, occ)?.into()),
                None => return Err(crate::event::NOT_HAPPENED.to_string()),
            },
            ExprKind::Int(n) => V::I(BigInt::from(*n)),
            ExprKind::Bool(b) => V::B(*b),
            ExprKind::Shared(_) => return Err(crate::event::SHARED.to_string()),
            ExprKind::Const(id) => {
                // Before any change, the world's own values.
                let value = if s.time == 0 {
                    w.0.get(id.0).copied()
                } else {
                    self.values_at(w, s.time)?.get(id.0).copied()
                };
                match value {
                    Some(Value::Int(n)) => V::I(BigInt::from(n)),
                    Some(Value::Bool(b)) => V::B(b),
                    None => return Err(format!("constant #{} is not in the world", id.0)),
                }
            }
            ExprKind::Neg(a) => V::I(-self.eval(a, w, s)?.into_int()?),
            ExprKind::Not(a) => V::B(!self.eval(a, w, s)?.into_bool()?),
            ExprKind::Arith(op, a, b) => {
                let x = self.eval(a, w, s)?.into_int()?;
                let y = self.eval(b, w, s)?.into_int()?;
                V::I(arith(*op, &x, &y))
            }
            ExprKind::Cmp(op, a, b) => {
                let x = self.eval(a, w, s)?;
                let y = self.eval(b, w, s)?;
                V::B(match op {
                    CmpOp::Eq => x == y,
                    CmpOp::Ne => x != y,
                    CmpOp::Lt => x.into_int()? < y.into_int()?,
                    CmpOp::Le => x.into_int()? <= y.into_int()?,
                    CmpOp::Gt => x.into_int()? > y.into_int()?,
                    CmpOp::Ge => x.into_int()? >= y.into_int()?,
                })
            }
            ExprKind::Logic(op, a, b) => {
                let x = self.eval(a, w, s)?.into_bool()?;
                let decided = match op {
                    LogicOp::And | LogicOp::Implies => !x,
                    LogicOp::Or => x,
                    LogicOp::Iff => false,
                };
                if decided {
                    // An undefined probability is an error wherever it stands, as the
                    // engines evaluate every operand (as for a name of an event that has
                    // not happened).
                    self.strict(b, w, s)?;
                }
                V::B(match op {
                    LogicOp::And => x && self.eval(b, w, s)?.into_bool()?,
                    LogicOp::Or => x || self.eval(b, w, s)?.into_bool()?,
                    LogicOp::Implies => !x || self.eval(b, w, s)?.into_bool()?,
                    LogicOp::Iff => x == self.eval(b, w, s)?.into_bool()?,
                })
            }
            ExprKind::Ite(c, a, b) => {
                if self.eval(c, w, s)?.into_bool()? {
                    self.strict(b, w, s)?;
                    self.eval(a, w, s)?
                } else {
                    self.strict(a, w, s)?;
                    self.eval(b, w, s)?
                }
            }
            ExprKind::In { tuple, set } => {
                let mut vals = Vec::with_capacity(tuple.len());
                for t in tuple {
                    vals.push(self.eval(t, w, s)?);
                }
                let mut found = false;
                'items: for item in set {
                    if item.len() != vals.len() {
                        return Err("a set element has the wrong arity".to_string());
                    }
                    for (x, v) in item.iter().zip(&vals) {
                        if self.eval(x, w, s)? != *v {
                            continue 'items;
                        }
                    }
                    found = true;
                    break;
                }
                V::B(found)
            }
            ExprKind::Knows { agent, formula } => V::B(self.knows(*agent, formula, w, s)?),
            ExprKind::KnowsValue { agent, exprs } => V::B(self.knows_value(*agent, exprs, w, s)?),
            ExprKind::Believes { agent, formula } => V::B(self.believes(*agent, formula, w, s)?),
            ExprKind::BelievesValue { agent, exprs } => {
                V::B(self.believes_value(*agent, exprs, w, s)?)
            }
            ExprKind::At { checkpoint, body } => {
                let saved = match self.checkpoints.get(checkpoint.0) {
                    Some(Some(saved)) => saved.clone(),
                    _ => return Err(format!("checkpoint #{} is not reached yet", checkpoint.0)),
                };
                self.eval(body, w, &saved)?
            }
            ExprKind::Group {
                op,
                agents,
                formula,
            } => V::B(self.group(*op, agents, formula, w, s)?),
            ExprKind::Chance { op, left, right } => self.chance(*op, left, right, w, s)?,
            ExprKind::Announced {
                agents,
                whether,
                formula,
                body,
            } => V::B(self.announced(agents, *whether, formula, body, w, s)?),
            // φ at the worlds that are `w` with the constants changed (possible or not).
            ExprKind::Quantified {
                forall,
                consts,
                body,
            } => {
                let mut all = *forall;
                for bits in 0..1u64 << consts.len() {
                    let mut changed = w.clone();
                    for (k, c) in consts.iter().enumerate() {
                        changed.0[c.0] = Value::Bool((bits >> k) & 1 == 1);
                    }
                    if self.eval(body, &changed, s)?.into_bool()? != *forall {
                        all = !*forall;
                        break;
                    }
                }
                V::B(all)
            }
        })
    }
}
