//! Probabilities from the definitions (van Benthem, Gerbrandy and Kooi, "Dynamic update
//! with probabilities", with a common prior): each world w has a weight μ(w) ≥ 0,
//! exact; `prior e` sets μ(w) to e's value; a public announcement keeps the weights of
//! the worlds it keeps; an event gives the pair (w, c) the weight
//! μ(w) · weight_c(w) / Σ weight_d(w) over the cases d possible at w; and
//! probability(A, φ) at w is Σ μ(v) over the worlds v of the state that A cannot tell
//! from w where φ holds, over Σ μ(v) over all of them (the storyteller's: over every
//! world of the state).

use std::collections::HashMap;
use std::rc::Rc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};

use epipen_ir::{ArithOp, CharId, CmpOp, EventStmt, Expr, Rat, RatKind, Shown, Span, World};

use crate::{Evaluator, Fail, Op, Report, State, Table, V};

/// What a story error raised inside an expression starts with (the evaluator's
/// expression errors are otherwise the program's fault).
pub(crate) const STORY: &str = "story error: ";

/// A value a `show` statement reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Amount {
    Int(BigInt),
    Bool(bool),
    Ratio(BigRational),
}

impl<'p> Evaluator<'p> {
    /// μ(w): 1 unless a prior or an event said otherwise.
    pub(crate) fn weight(&self, w: &World) -> BigRational {
        self.weights
            .get(w)
            .cloned()
            .unwrap_or_else(BigRational::one)
    }

    /// `prior e`: μ(w) := e at w, for every world of the state.
    pub(crate) fn prior(&mut self, e: &'p Expr) -> Result<(), Fail> {
        let state = self.state.clone();
        let mut worlds = state.worlds.to_vec();
        worlds.sort();
        for w in &worlds {
            let v = self.eval(e, w, &state)?.into_int()?;
            if v < BigInt::zero() {
                return Err(Fail::story(format!(
                    "the prior is negative ({v}) in the world {w:?}"
                )));
            }
            self.weights.insert(w.clone(), BigRational::from_integer(v));
        }
        Ok(())
    }

    /// The weights of an event's pairs: for each world of the state, the chance of each
    /// possible case (weight over the sum of the possible cases' weights).
    pub(crate) fn case_chances(
        &mut self,
        event: &'p EventStmt,
        possible: &[Vec<bool>],
    ) -> Result<Vec<Vec<BigRational>>, Fail> {
        let state = self.state.clone();
        let mut out = Vec::with_capacity(state.worlds.len());
        for (w, row) in state.worlds.iter().zip(possible) {
            let mut weights = Vec::with_capacity(row.len());
            for (case, &can) in event.cases.iter().zip(row) {
                let v = match (&case.weight, can) {
                    (_, false) => BigInt::zero(),
                    (None, true) => BigInt::one(),
                    (Some(e), true) => self.eval(e, w, &state)?.into_int()?,
                };
                if v < BigInt::zero() {
                    return Err(Fail::story(format!(
                        "the weight of `{}` is negative ({v}) in the world {w:?}",
                        case.name
                    )));
                }
                weights.push(v);
            }
            let total: BigInt = weights.iter().sum();
            if row.iter().any(|&c| c) && total.is_zero() {
                return Err(Fail::story(format!(
                    "every case possible in the world {w:?} weighs 0"
                )));
            }
            out.push(
                weights
                    .into_iter()
                    .map(|v| match total.is_zero() {
                        true => BigRational::zero(),
                        false => BigRational::new(v, total.clone()),
                    })
                    .collect(),
            );
        }
        Ok(out)
    }

    /// Each of `worlds`' probability among the worlds of `s` (None: the story has no
    /// chances, or its worlds all weigh 0).
    pub(crate) fn chances(&self, worlds: &[World], s: &State) -> Option<Vec<BigRational>> {
        if !self.probabilistic {
            return None;
        }
        let total: BigRational = s.worlds.iter().map(|w| self.weight(w)).sum();
        if total.is_zero() {
            return None;
        }
        Some(worlds.iter().map(|w| self.weight(w) / &total).collect())
    }

    /// probability(agent, φ) at `w` in `s`; Err(story error) when every world the agent
    /// considers possible weighs 0.
    fn probability(
        &mut self,
        agent: Option<CharId>,
        formula: &'p Expr,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<BigRational, String> {
        let who = agent.map_or(usize::MAX, |a| a.0);
        let key = (Op::Probability, formula as *const Expr as usize, who, s.id);
        if !self.memo.contains_key(&key) {
            let mut table: HashMap<usize, (BigRational, BigRational)> = HashMap::new();
            for v in s.worlds.iter() {
                let class = match agent {
                    Some(a) => self.class_of(a, v, s)?,
                    None => 0,
                };
                let mu = self.weight(v);
                let holds = self.eval(formula, v, s)?.into_bool()?;
                let entry = table
                    .entry(class)
                    .or_insert_with(|| (BigRational::zero(), BigRational::zero()));
                if holds {
                    entry.0 += &mu;
                }
                entry.1 += mu;
            }
            self.memo.insert(key, Table::Probability(table));
        }
        let class = match agent {
            Some(a) => self.class_of(a, w, s)?,
            None => 0,
        };
        let Table::Probability(table) = &self.memo[&key] else {
            unreachable!("memo key kinds are distinct")
        };
        match table.get(&class) {
            Some((num, den)) if !den.is_zero() => Ok(num / den),
            _ => Err(format!(
                "{STORY}the probability is undefined: every world considered possible weighs 0"
            )),
        }
    }

    /// Evaluates `e` at `w` for its errors alone, when it asks a probability: an operand
    /// that `and`, `or`, `->` or `if … then … else` would skip. A probability asked where
    /// every world considered possible weighs 0 is an error wherever it stands in a
    /// formula, as the engines, which evaluate every operand at every world, have it
    /// (and as a name of an event that has not happened is).
    pub(crate) fn strict(
        &mut self,
        e: &'p Expr,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<(), String> {
        if self.probabilistic && e.mentions_probability() {
            self.eval(e, w, s)?;
        }
        Ok(())
    }

    /// A rational term at `w` in `s`.
    pub(crate) fn rat(
        &mut self,
        r: &'p Rat,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<BigRational, String> {
        Ok(match &r.kind {
            RatKind::Int(e) => BigRational::from_integer(self.eval(e, w, s)?.into_int()?),
            RatKind::Probability { agent, formula } => self.probability(*agent, formula, w, s)?,
            RatKind::Neg(a) => -self.rat(a, w, s)?,
            RatKind::Arith(op, a, b) => {
                let (a, b) = (self.rat(a, w, s)?, self.rat(b, w, s)?);
                match op {
                    ArithOp::Add => a + b,
                    ArithOp::Sub => a - b,
                    ArithOp::Mul => a * b,
                    ArithOp::Div if b.is_zero() => {
                        return Err(format!("{STORY}division by zero"));
                    }
                    ArithOp::Div => a / b,
                    ArithOp::Mod => return Err("`%` in a rational term".to_string()),
                }
            }
        })
    }

    /// A comparison of rational terms at `w`.
    pub(crate) fn chance(
        &mut self,
        op: CmpOp,
        left: &'p Rat,
        right: &'p Rat,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<V, String> {
        let (a, b) = (self.rat(left, w, s)?, self.rat(right, w, s)?);
        Ok(V::B(match op {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }))
    }

    /// `show e`: its value in the actual world, or in every world of the state (sorted),
    /// grouped by value in the order they first appear.
    pub(crate) fn show(&mut self, span: Span, value: &'p Shown) -> Result<(), Fail> {
        let state = self.state.clone();
        let worlds = match self.actual.clone() {
            Some(actual) => vec![actual],
            None => {
                let mut all = state.worlds.to_vec();
                all.sort();
                all
            }
        };
        let mut values: Vec<(Amount, u64)> = Vec::new();
        for w in &worlds {
            let amount = match value {
                Shown::Rational(r) => Amount::Ratio(self.rat(r, w, &state)?),
                Shown::Expr(e) => match self.eval(e, w, &state)? {
                    // The engines print a world's values in 64 bits: so is a shown value.
                    V::I(n) if i64::try_from(&n).is_err() => {
                        return Err(Fail::story(
                            "the value to show leaves the 64-bit integers".to_string(),
                        ));
                    }
                    V::I(n) => Amount::Int(n),
                    V::B(b) => Amount::Bool(b),
                },
            };
            match values.iter_mut().find(|(a, _)| *a == amount) {
                Some((_, n)) => *n += 1,
                None => values.push((amount, 1)),
            }
        }
        self.events.push(Report::Show {
            span,
            actual: self.actual.is_some(),
            values,
        });
        Ok(())
    }
}
