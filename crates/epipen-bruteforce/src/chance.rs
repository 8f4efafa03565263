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

use epipen_ir::{
    ArithOp, CharId, CmpOp, EventStmt, Expr, Rat, RatKind, Shown, Span, Stmt, StmtKind, World,
};

use crate::{Evaluator, Fail, Op, Report, State, Table, V};

/// What a story error raised inside an expression starts with (the evaluator's
/// expression errors are otherwise the program's fault).
pub(crate) const STORY: &str = "story error: ";

/// The formulas of the storyteller's announcements without knowledge that follow `prior`
/// when it stands among the story's first statements (such announcements, `learns` of
/// values, the prior), up to the first other statement; none when it stands later.
fn later_first_announcements<'p>(statements: &'p [Stmt], prior: &Stmt) -> Vec<&'p Expr> {
    let first = |s: &Stmt| match &s.kind {
        StmtKind::Announce {
            speaker: None,
            formula,
        } => !formula.mentions_knowledge(),
        StmtKind::Learn { what, .. } => !what.mentions_knowledge(),
        StmtKind::Prior(_) => true,
        _ => false,
    };
    let Some(at) = statements.iter().position(|s| std::ptr::eq(s, prior)) else {
        return Vec::new();
    };
    if !statements[..at].iter().all(first) {
        return Vec::new();
    }
    (statements[at + 1..].iter())
        .take_while(|s| first(s))
        .filter_map(|s| match &s.kind {
            StmtKind::Announce { formula, .. } => Some(formula),
            _ => None,
        })
        .collect()
}

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

    /// `prior e`: μ(w) := e at w, for every world of the state. A prior among the
    /// story's first statements (announcements of the storyteller without knowledge,
    /// `learns` of values) weighs the worlds that those after it leave, as if written
    /// after them: a world they cut is never weighed (its weight is never looked at).
    pub(crate) fn prior(&mut self, stmt: &'p Stmt, e: &'p Expr) -> Result<(), Fail> {
        let state = self.state.clone();
        let mut worlds = state.worlds.to_vec();
        worlds.sort();
        let later = later_first_announcements(&self.program.statements, stmt);
        for w in &worlds {
            let mut kept = true;
            for f in &later {
                // An announcement that cannot be evaluated fails at its own line.
                kept &= (self.eval(f, w, &state))
                    .and_then(|v| v.into_bool())
                    .unwrap_or(true);
            }
            if !kept {
                continue;
            }
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
    /// possible case (weight over the sum of the possible cases' weights). A weight
    /// below 0 where its case can happen is an error at the weight (the first such case
    /// as written); else a world where every possible case weighs 0 is one at the event.
    pub(crate) fn case_chances(
        &mut self,
        event: &'p EventStmt,
        possible: &[Vec<bool>],
    ) -> Result<Vec<Vec<BigRational>>, Fail> {
        let state = self.state.clone();
        let mut table: Vec<Vec<BigInt>> = Vec::with_capacity(state.worlds.len());
        for (w, row) in state.worlds.iter().zip(possible) {
            let mut weights = Vec::with_capacity(row.len());
            for (case, &can) in event.cases.iter().zip(row) {
                weights.push(match (&case.weight, can) {
                    (_, false) => BigInt::zero(),
                    (None, true) => BigInt::one(),
                    (Some(e), true) => self.eval(e, w, &state)?.into_int()?,
                });
            }
            table.push(weights);
        }
        for (c, case) in event.cases.iter().enumerate() {
            let negative =
                (state.worlds.iter().zip(&table)).find(|(_, row)| row[c] < BigInt::zero());
            if let (Some((w, row)), Some(e)) = (negative, &case.weight) {
                return Err(Fail {
                    span: Some(e.span),
                    ..Fail::story(format!(
                        "the weight of `{}` is negative ({}) in the world {w:?}",
                        case.name, row[c]
                    ))
                });
            }
        }
        let mut out = Vec::with_capacity(state.worlds.len());
        for ((w, row), weights) in state.worlds.iter().zip(possible).zip(table) {
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

    /// What a failing check says of the terms it compares with probabilities at `w`:
    /// the value of each side of its comparisons (outside knowledge operators) that
    /// holds a probability, in the order written, as ` where 0, 1/4` (nothing when
    /// there are none; a value that cannot be computed is left out).
    pub(crate) fn found(&mut self, phi: &'p Expr, w: &World, s: &Rc<State<'p>>) -> String {
        let sides = phi.compared_probabilities();
        let values: Vec<String> = (sides.into_iter())
            .filter_map(|r| self.rat(r, w, s).ok())
            .map(|q| q.to_string())
            .collect();
        match values.is_empty() {
            true => String::new(),
            false => format!(" where {}", values.join(", ")),
        }
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
