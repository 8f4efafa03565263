//! States a plan's search recognises without listing their worlds (more than it lists):
//! κ, what each character learned, the plausibility ranks and the constants' terms, each
//! a canonical diagram with every step of the plan fixed at the one value it has in
//! every world. Canonical diagrams are equal exactly when their functions are, so two
//! fixed states are the same state when their parts are equal diagrams.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::rc::Rc;

use super::BddBackend;
use super::diagram::Bdd;
use super::knowledge::{Learned, Rank, State};
use super::value::Val;
use crate::Failure;
use crate::ir::{CmpOp, ConstId, Expr, ExprKind, Ty};

/// A state with the plan's steps fixed ([`crate::driver::Recognition::fixed`]).
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Fixed {
    kappa: Bdd,
    /// Each character's learned items as the worlds of κ they split into (a constant
    /// one, or one that splits none, left out).
    learned: Vec<Vec<Vec<Bdd>>>,
    ranks: Vec<Vec<Vec<Bdd>>>,
    /// The values of the constants other than the plan's steps, with the worlds of κ
    /// where each is taken.
    terms: Vec<Vec<(String, Bdd)>>,
}

impl BddBackend {
    pub(super) fn fix(
        &mut self,
        state: &Rc<State>,
        terms: Option<&[Expr]>,
        steps: &[(ConstId, Vec<i64>)],
    ) -> Result<Option<(u64, Fixed)>, Failure> {
        let mut pin = self.space.mk_true();
        let mut bits = Vec::new();
        for (occ, values) in steps {
            let mut found = None;
            for &v in values {
                let eq = self.equals(*occ, v, state)?;
                if !state.kappa.and(&eq).is_false() {
                    if found.is_some() {
                        return Ok(None);
                    }
                    found = Some(eq);
                }
            }
            let Some(eq) = found else {
                return Ok(None);
            };
            pin = pin.and(&eq);
            bits.extend(self.space.bits_of(&[occ.0]));
        }
        let cube = self.space.cube(&bits);
        let kappa = state.kappa.and(&pin).exists(&cube);
        let fix = |b: &Bdd| b.and(&pin).exists(&cube).and(&kappa);
        let split = |cells: Vec<Bdd>| -> Option<Vec<Bdd>> {
            let kept: Vec<Bdd> = cells.into_iter().filter(|c| !c.is_false()).collect();
            (kept.len() > 1).then_some(kept)
        };
        let mut learned = Vec::with_capacity(state.learned.len());
        for own in state.learned.iter() {
            let mut items = Vec::new();
            for item in &own.items {
                let cells = match item {
                    Learned::Const(c) => {
                        let e = Expr {
                            kind: ExprKind::Const(ConstId(*c)),
                            ty: self.program.constants[*c].ty,
                            span: Default::default(),
                        };
                        self.eval(&e, state)?.cells()
                    }
                    Learned::Expr(cells) => cells.to_vec(),
                };
                if let Some(kept) = split(cells.iter().map(fix).collect())
                    && !items.contains(&kept)
                {
                    items.push(kept);
                }
            }
            learned.push(items);
        }
        let ranks = (state.ranks.iter())
            .map(|own| {
                (own.iter())
                    .map(|r| match r {
                        Rank::Expected(b) => vec![fix(b)],
                        Rank::Levels(levels) => levels.iter().map(fix).collect(),
                    })
                    .collect()
            })
            .collect();
        let mut fixed_terms = Vec::new();
        if let Some(terms) = terms {
            for (c, e) in terms.iter().enumerate() {
                if steps.iter().any(|(o, _)| o.0 == c) {
                    continue;
                }
                let cells: Vec<(String, Bdd)> = match self.eval(e, state)? {
                    Val::Bool(b) => vec![("true".into(), fix(&b))],
                    Val::Int(p) => (p.cells())
                        .map(|(v, b)| (v.to_string(), fix(b)))
                        .filter(|(_, b)| !b.is_false())
                        .collect(),
                };
                fixed_terms.push(cells);
            }
        }
        let fixed = Fixed {
            kappa,
            learned,
            ranks,
            terms: fixed_terms,
        };
        let mut h = DefaultHasher::new();
        fixed.hash(&mut h);
        Ok(Some((h.finish(), fixed)))
    }

    /// The worlds where occurrence `occ` holds `value`.
    fn equals(&mut self, occ: ConstId, value: i64, state: &Rc<State>) -> Result<Bdd, Failure> {
        let at = |kind| Expr {
            kind,
            ty: Ty::Int,
            span: Default::default(),
        };
        let e = Expr {
            kind: ExprKind::Cmp(
                CmpOp::Eq,
                Box::new(Expr {
                    ty: self.program.constants[occ.0].ty,
                    ..at(ExprKind::Const(occ))
                }),
                Box::new(at(ExprKind::Int(value))),
            ),
            ty: Ty::Bool,
            span: Default::default(),
        };
        match self.eval(&e, state)? {
            Val::Bool(b) => Ok(b),
            Val::Int(_) => Err(Failure::Unsupported(
                "an occurrence compared with its value is not a formula".into(),
            )),
        }
    }
}
