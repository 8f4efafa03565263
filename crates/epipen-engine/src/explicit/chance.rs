//! Probabilities on listed worlds: a weight μ(w) per universe world (exact integers:
//! only ratios of sums over one state's worlds are ever read, so each event's worlds
//! may be scaled by a common factor), the prior, the chances of an event's cases, and
//! `probability(A, φ)` as a table by A's groups (the same ratio at every world of a
//! group), compared in exact rational arithmetic.

use std::rc::Rc;

use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

use super::eval::{CHUNK, internal};
use super::{ExplicitBackend, Flags, Groups, State, WorldIds};
use crate::Failure;
use crate::ir::{ArithOp, CmpOp, Expr, ExprKind, Rat, RatKind};
use crate::worlds::{self, World};

/// Each universe world's weight: small while every one fits in 64 bits.
#[derive(Clone, Debug)]
pub(super) enum Weights {
    Small(Vec<u64>),
    Big(Vec<BigUint>),
}

impl Weights {
    /// Weight 1 for each of `n` worlds.
    pub(super) fn ones(n: usize) -> Weights {
        Weights::Small(vec![1; n])
    }

    /// From exact weights: small when they all fit.
    fn from_big(big: Vec<BigUint>) -> Weights {
        match big
            .iter()
            .map(ToPrimitive::to_u64)
            .collect::<Option<Vec<u64>>>()
        {
            Some(small) => Weights::Small(small),
            None => Weights::Big(big),
        }
    }

    fn get(&self, w: u32) -> BigUint {
        match self {
            Weights::Small(v) => BigUint::from(v.get(w as usize).copied().unwrap_or(0)),
            Weights::Big(v) => v.get(w as usize).cloned().unwrap_or_default(),
        }
    }

    /// Σ μ(w) over `worlds` (with `keep`'s flag set, when given), and per group of
    /// `groups` when given.
    fn sums(&self, worlds: &WorldIds, keep: Option<&Flags>, groups: Option<&Groups>) -> Sums {
        let all = Flags::filled(worlds.len(), true);
        self.both_sums(worlds, keep.unwrap_or(&all), groups).1
    }

    /// In one pass over `worlds`: Σ μ(w) over all of them and over those whose flag in
    /// `keep` is set, per group of `groups` when given (else one sum).
    fn both_sums(&self, worlds: &WorldIds, keep: &Flags, groups: Option<&Groups>) -> (Sums, Sums) {
        let count = groups.map_or(1, |g| g.count);
        match self {
            Weights::Small(v) => {
                let (mut all, mut kept) = (vec![0u128; count], vec![0u128; count]);
                for (i, w) in worlds.iter().enumerate() {
                    let g = groups.map_or(0, |g| g.of(w));
                    let mu = u128::from(v[w as usize]);
                    all[g] += mu;
                    if keep.get(i) {
                        kept[g] += mu;
                    }
                }
                let big = |s: Vec<u128>| Sums(s.into_iter().map(BigUint::from).collect());
                (big(all), big(kept))
            }
            Weights::Big(v) => {
                let (mut all, mut kept) =
                    (vec![BigUint::zero(); count], vec![BigUint::zero(); count]);
                for (i, w) in worlds.iter().enumerate() {
                    let g = groups.map_or(0, |g| g.of(w));
                    all[g] += &v[w as usize];
                    if keep.get(i) {
                        kept[g] += &v[w as usize];
                    }
                }
                (Sums(all), Sums(kept))
            }
        }
    }
}

struct Sums(Vec<BigUint>);

/// Why a rational term has no value at a world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Undefined {
    /// Every world the agent (None: the storyteller) considers possible weighs 0.
    NoWeight(Option<usize>),
    /// A division by 0.
    DivZero,
}

type Q = Result<BigRational, Undefined>;

/// A rational term's values: one for every world, one per group of a character's
/// view, or one per world of a chunk.
#[derive(Clone)]
pub(super) enum RatCol {
    Uniform(Q),
    Grouped(Rc<Groups>, Rc<Vec<Q>>),
    PerWorld(Vec<Q>),
}

/// A comparison's truth, when it does not depend on the world beyond a group.
#[derive(Clone)]
pub(super) enum ChanceTable {
    Uniform(Result<bool, Undefined>),
    Grouped(Rc<Groups>, Rc<Vec<Result<bool, Undefined>>>),
}

fn rational(n: BigUint, d: BigUint) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

fn apply(op: ArithOp, a: &Q, b: &Q) -> Q {
    let (a, b) = (a.clone()?, b.clone()?);
    Ok(match op {
        ArithOp::Add => a + b,
        ArithOp::Sub => a - b,
        ArithOp::Mul => a * b,
        ArithOp::Div if b.is_zero() => return Err(Undefined::DivZero),
        ArithOp::Div => a / b,
        ArithOp::Mod => return Err(Undefined::DivZero),
    })
}

fn compare(op: CmpOp, a: &Q, b: &Q) -> Result<bool, Undefined> {
    let (a, b) = (a.as_ref().map_err(|e| *e)?, b.as_ref().map_err(|e| *e)?);
    Ok(op.holds(a, b))
}

impl ExplicitBackend {
    /// The error a story gets for a term with no value.
    pub(super) fn undefined(&self, why: Undefined) -> Failure {
        match why {
            Undefined::NoWeight(Some(agent)) => {
                let name = &self.program.characters[agent].name;
                Failure::Story {
                    message: format!(
                        "{name}'s probability is undefined here: every world {name} considers possible weighs 0"
                    ),
                    hints: vec!["a probability is taken over worlds of positive weight: check the prior and the cases' weights".into()],
                    at: None,
                }
            }
            Undefined::NoWeight(None) => Failure::Story {
                message: "the probability is undefined here: every world still possible weighs 0"
                    .into(),
                hints: vec!["a probability is taken over worlds of positive weight: check the prior and the cases' weights".into()],
                at: None,
            },
            Undefined::DivZero => Failure::Story {
                message: "division by zero in a comparison with probabilities".into(),
                hints: vec!["there `/` divides exactly: divide by a number that is not 0".into()],
                at: None,
            },
        }
    }

    fn weights(&self) -> Result<&Weights, Failure> {
        self.weights
            .as_deref()
            .ok_or_else(|| internal("a probability in a story without weights"))
    }

    /// `prior e`: each world of the state weighs the value of `e` there (0 outside it).
    /// Among the story's first announcements (`state.pending > 0`), the worlds listed
    /// are those they all leave: the prior weighs those (the others are cut before
    /// anything can look at their weights).
    pub(super) fn set_prior(
        &mut self,
        state: &Rc<State>,
        weight: &Expr,
    ) -> Result<Rc<State>, Failure> {
        let mut weights = vec![0u64; self.universe.len];
        let mut big: Vec<(u32, BigUint)> = Vec::new();
        let mut negative: Option<((u64, u32), i128)> = None;
        let worlds = state.worlds.clone();
        for chunk in worlds.chunks() {
            self.check_deadline()?;
            let scratch = state.clone();
            let values = self.eval(weight, &chunk, &scratch, &[])?.ints()?;
            for (&w, v) in chunk.iter().zip(values) {
                if v < 0 {
                    let key = self.key(w);
                    if negative.is_none_or(|(k, _)| key < k) {
                        negative = Some((key, v));
                    }
                    continue;
                }
                match u64::try_from(v) {
                    Ok(small) => weights[w as usize] = small,
                    Err(_) => big.push((w, BigUint::from(v as u128))),
                }
            }
        }
        if let Some(((_, w), v)) = negative {
            let world = self.world(w);
            return Err(Failure::Story {
                message: format!(
                    "the prior is {v} in the world {}, still possible: a weight is never negative",
                    worlds::world_line(&self.program, &world.0)
                ),
                hints: vec!["write a prior that is 0 or more in every world still possible".into()],
                at: None,
            });
        }
        let weights = match big.is_empty() {
            true => Weights::Small(weights),
            false => {
                let mut all: Vec<BigUint> = weights.into_iter().map(BigUint::from).collect();
                for (w, v) in big {
                    all[w as usize] = v;
                }
                Weights::Big(all)
            }
        };
        self.weights = Some(Rc::new(weights));
        // Among the first announcements, those after the prior are still to come.
        Ok(self.state(state.pending, state.worlds.clone(), state.minds.clone()))
    }

    /// The weights of the worlds an event makes, `made` (a world of the state and a
    /// case, in the order the universe appends them): μ(w) · weight_c(w) / Σ weight_d(w)
    /// over the cases d possible at w, all scaled by one factor to stay whole.
    pub(super) fn event_weights(
        &mut self,
        state: &Rc<State>,
        possible: &[Vec<bool>],
        weights: &[Expr],
        made: &[(u32, i64)],
    ) -> Result<Weights, Failure> {
        let mu = (self.weights.clone())
            .ok_or_else(|| internal("an event's chances in a story without weights"))?;
        let worlds = state.worlds.clone();
        // Each case's weight at each world of the state (index in the state's order).
        let mut per_case: Vec<Vec<i128>> = Vec::with_capacity(weights.len());
        for weight in weights {
            let mut column = Vec::with_capacity(worlds.len());
            for chunk in worlds.chunks() {
                self.check_deadline()?;
                column.extend(self.eval(weight, &chunk, state, &[])?.ints()?);
            }
            per_case.push(column);
        }
        // A weight below 0 where its case can happen: at the first such case, in the
        // first such world of the canonical order.
        for (c, column) in per_case.iter().enumerate() {
            let mut worst: Option<((u64, u32), i128)> = None;
            for (i, w) in worlds.iter().enumerate() {
                if possible[c][i] && column[i] < 0 {
                    let key = self.key(w);
                    if worst.is_none_or(|(k, _)| key < k) {
                        worst = Some((key, column[i]));
                    }
                }
            }
            if let Some(((_, w), v)) = worst {
                let line = worlds::world_line(&self.program, &self.world(w).0);
                return Err(Failure::Story {
                    message: format!(
                        "this weight is {v} in the world {line}, where its case can happen: a weight is never negative"
                    ),
                    hints: vec![
                        "write a weight that is 0 or more in every world where the case can happen"
                            .into(),
                    ],
                    at: Some(weights[c].span),
                });
            }
        }
        // Per world of the state: the sum of the possible cases' weights (each case's
        // weight is a 64-bit value: a sum of them fits in 128 bits).
        let mut totals: Vec<u128> = Vec::with_capacity(worlds.len());
        let mut worst: Option<(u64, u32)> = None;
        for (i, w) in worlds.iter().enumerate() {
            let mut total: u128 = 0;
            let mut any = false;
            for (c, column) in per_case.iter().enumerate() {
                if possible[c][i] {
                    any = true;
                    total = total.saturating_add(column[i] as u128);
                }
            }
            if any && total == 0 {
                let key = self.key(w);
                if worst.is_none_or(|k| key < k) {
                    worst = Some(key);
                }
            }
            totals.push(total);
        }
        if let Some((_, w)) = worst {
            let line = worlds::world_line(&self.program, &self.world(w).0);
            return Err(Failure::Story {
                message: format!("every case that can happen in the world {line} weighs 0"),
                hints: vec![
                    "each world where the event happens needs a case of positive weight".into(),
                ],
                at: None,
            });
        }
        // The position in the state of each world a new one came from.
        let mut at = Vec::with_capacity(made.len());
        for &(w, _) in made {
            at.push(
                worlds
                    .position(w)
                    .ok_or_else(|| internal("an event made a world from outside its state"))?,
            );
        }
        // One common multiple of the totals, so that every chance is a whole number: in
        // machine integers while they suffice, else exactly.
        let mut distinct: Vec<u128> = totals.iter().copied().filter(|&t| t != 0).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if let Some(small) = small_weights(&mu, &distinct, &totals, &per_case, made, &at) {
            return Ok(Weights::Small(small));
        }
        let mut lcm = BigUint::one();
        for (k, &t) in distinct.iter().enumerate() {
            if k % CHUNK == 0 {
                self.check_deadline()?;
            }
            lcm = lcm.lcm(&BigUint::from(t));
        }
        let mut out = Vec::with_capacity(made.len());
        for (&(w, c), &i) in made.iter().zip(&at) {
            let share = &lcm / BigUint::from(totals[i]);
            out.push(mu.get(w) * BigUint::from(per_case[c as usize][i] as u128) * share);
        }
        let gcd = out.iter().fold(BigUint::zero(), |g, x| g.gcd(x));
        if gcd > BigUint::one() {
            for x in &mut out {
                *x /= &gcd;
            }
        }
        Ok(Weights::from_big(out))
    }

    /// Appends the weights of the worlds an event made.
    pub(super) fn extend_weights(&mut self, more: Weights) {
        let Some(weights) = self.weights.as_mut() else {
            return;
        };
        let weights = Rc::make_mut(weights);
        match (weights, more) {
            (Weights::Small(v), Weights::Small(more)) => v.extend(more),
            (Weights::Big(v), Weights::Small(more)) => {
                v.extend(more.into_iter().map(BigUint::from))
            }
            (Weights::Big(v), Weights::Big(more)) => v.extend(more),
            (w @ Weights::Small(_), Weights::Big(more)) => {
                let Weights::Small(v) = &*w else {
                    return;
                };
                let mut big: Vec<BigUint> = v.iter().map(|&x| BigUint::from(x)).collect();
                big.extend(more);
                *w = Weights::Big(big);
            }
        }
    }

    /// `probability(agent, formula)` in `state`, by the agent's groups (the
    /// storyteller's: one value).
    fn probability_col(
        &mut self,
        agent: Option<usize>,
        formula: &Expr,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<RatCol, Failure> {
        let key = (
            6,
            std::ptr::from_ref(formula) as usize,
            agent.map_or(usize::MAX, |a| a),
            state.id,
        );
        let made_for = std::slice::from_ref(formula);
        if let Some(col) = self.chance_memo.get(&key, made_for, &[]) {
            return Ok(col);
        }
        let worlds = state.worlds.clone();
        let holds = self.eval_bools(formula, &worlds, state, saved)?;
        let groups = match agent {
            Some(a) => Some(self.groups(state, a)?),
            None => None,
        };
        let (all, kept) = self
            .weights()?
            .both_sums(&worlds, &holds, groups.as_deref());
        let values: Vec<Q> = all
            .0
            .into_iter()
            .zip(kept.0)
            .map(|(d, n)| match d.is_zero() {
                true => Err(Undefined::NoWeight(agent)),
                false => Ok(rational(n, d)),
            })
            .collect();
        let col = match groups {
            Some(g) => RatCol::Grouped(g, Rc::new(values)),
            None => RatCol::Uniform(
                values
                    .into_iter()
                    .next()
                    .unwrap_or(Err(Undefined::NoWeight(None))),
            ),
        };
        self.chance_memo.insert(key, made_for, &[], col.clone());
        Ok(col)
    }

    /// A rational term: per group when it can be, else per world of `chunk`.
    fn rat_col(
        &mut self,
        r: &Rat,
        chunk: &[u32],
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<RatCol, Failure> {
        Ok(match &r.kind {
            RatKind::Int(e) => match e.kind {
                ExprKind::Int(n) => RatCol::Uniform(Ok(BigRational::from_integer(n.into()))),
                _ => {
                    let values = self.eval(e, chunk, state, saved)?.ints()?;
                    RatCol::PerWorld(
                        values
                            .into_iter()
                            .map(|v| Ok(BigRational::from_integer(v.into())))
                            .collect(),
                    )
                }
            },
            RatKind::Probability { agent, formula } => {
                self.probability_col(agent.map(|a| a.0), formula, state, saved)?
            }
            RatKind::Neg(a) => match self.rat_col(a, chunk, state, saved)? {
                RatCol::Uniform(q) => RatCol::Uniform(q.map(|x| -x)),
                RatCol::Grouped(g, v) => RatCol::Grouped(
                    g,
                    Rc::new(v.iter().map(|q| q.clone().map(|x| -x)).collect()),
                ),
                RatCol::PerWorld(v) => {
                    RatCol::PerWorld(v.into_iter().map(|q| q.map(|x| -x)).collect())
                }
            },
            RatKind::Arith(op, a, b) => {
                let a = self.rat_col(a, chunk, state, saved)?;
                let b = self.rat_col(b, chunk, state, saved)?;
                combine(a, b, chunk, |x, y| apply(*op, x, y))?
            }
        })
    }

    /// A comparison of rational terms over `chunk`.
    pub(super) fn chance(
        &mut self,
        e: &Expr,
        chunk: &[u32],
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
    ) -> Result<Vec<bool>, Failure> {
        let ExprKind::Chance { op, left, right } = &e.kind else {
            return Err(internal("a comparison of probabilities expected"));
        };
        let op = *op;
        let key = (7, std::ptr::from_ref(e) as usize, 0, state.id);
        let made_for = std::slice::from_ref(e);
        let table = match self.chance_tables.get(&key, made_for, &[]) {
            Some(t) => Some(t),
            None => {
                let a = self.rat_col(left, chunk, state, saved)?;
                let b = self.rat_col(right, chunk, state, saved)?;
                match combine(a, b, chunk, |x, y| compare(op, x, y).map(bool_q))? {
                    RatCol::Uniform(q) => {
                        let t = ChanceTable::Uniform(q.map(|x| !x.is_zero()));
                        self.chance_tables.insert(key, made_for, &[], t.clone());
                        Some(t)
                    }
                    RatCol::Grouped(g, v) => {
                        let v = v.iter().map(|q| q.clone().map(|x| !x.is_zero())).collect();
                        let t = ChanceTable::Grouped(g, Rc::new(v));
                        self.chance_tables.insert(key, made_for, &[], t.clone());
                        Some(t)
                    }
                    RatCol::PerWorld(v) => {
                        return v
                            .into_iter()
                            .map(|q| q.map(|x| !x.is_zero()).map_err(|u| self.undefined(u)))
                            .collect();
                    }
                }
            }
        };
        match table {
            // Undefined only where it is asked about a world of the state (or one made
            // from it since: `at(c, …)`): elsewhere (the body of `[! φ] ψ` at a world φ
            // leaves out) its value is never read.
            Some(ChanceTable::Uniform(Ok(b))) => Ok(vec![b; chunk.len()]),
            Some(ChanceTable::Uniform(Err(u))) => chunk
                .iter()
                .map(|&w| match self.of_state(state, w) {
                    true => Err(self.undefined(u)),
                    false => Ok(false),
                })
                .collect(),
            Some(ChanceTable::Grouped(g, v)) => chunk
                .iter()
                .map(|&w| match v[g.of(w)] {
                    Ok(b) => Ok(b),
                    Err(_) if !self.of_state(state, w) => Ok(false),
                    Err(u) => Err(self.undefined(u)),
                })
                .collect(),
            None => Err(internal("a comparison of probabilities without a table")),
        }
    }

    /// A rational term's value at each world of the state (in canonical order), grouped
    /// by value in the order they first appear; or at `at` alone.
    pub(super) fn amounts(
        &mut self,
        r: &Rat,
        state: &Rc<State>,
        saved: &[Option<Rc<State>>],
        at: Option<u32>,
    ) -> Result<Vec<(BigRational, u64)>, Failure> {
        if let Some(w) = at {
            let col = self.rat_col(r, &[w], state, saved)?;
            let q = value_at(&col, 0, w).map_err(|u| self.undefined(u))?;
            return Ok(vec![(q, 1)]);
        }
        let order = self.first(&state.worlds, state.worlds.len());
        let mut out: Vec<(BigRational, u64)> = Vec::new();
        for chunk in order.chunks(CHUNK) {
            self.check_deadline()?;
            let col = self.rat_col(r, chunk, state, saved)?;
            for (i, &w) in chunk.iter().enumerate() {
                let q = value_at(&col, i, w).map_err(|u| self.undefined(u))?;
                match out.iter_mut().find(|(v, _)| *v == q) {
                    Some((_, n)) => *n += 1,
                    None => out.push((q, 1)),
                }
            }
        }
        Ok(out)
    }

    /// The storyteller's probability of each of `worlds` (listed from `state`).
    pub(super) fn world_chances(
        &mut self,
        state: &Rc<State>,
        listed: &[World],
    ) -> Result<Option<Vec<BigRational>>, Failure> {
        if self.weights.is_none() || state.pending > 0 {
            return Ok(None);
        }
        let total = self.weights()?.sums(&state.worlds, None, None).0.remove(0);
        if total.is_zero() {
            return Ok(None);
        }
        let mut out = Vec::with_capacity(listed.len());
        for world in listed {
            let Some(w) = super::Semantics::point(self, &world.0)? else {
                return Err(internal("a listed world is not in the universe"));
            };
            out.push(rational(self.weights()?.get(w), total.clone()));
        }
        Ok(Some(out))
    }

    /// The storyteller's probability of each world of `order` (a state's worlds).
    pub(super) fn chances_of(&self, state: &Rc<State>, order: &[u32]) -> Option<Vec<BigRational>> {
        let weights = self.weights.as_deref()?;
        let total = weights.sums(&state.worlds, None, None).0.remove(0);
        if total.is_zero() {
            return None;
        }
        Some(
            order
                .iter()
                .map(|&w| rational(weights.get(w), total.clone()))
                .collect(),
        )
    }
}

fn bool_q(b: bool) -> BigRational {
    if b {
        BigRational::one()
    } else {
        BigRational::zero()
    }
}

fn value_at(col: &RatCol, i: usize, w: u32) -> Q {
    match col {
        RatCol::Uniform(q) => q.clone(),
        RatCol::Grouped(g, v) => v[g.of(w)].clone(),
        RatCol::PerWorld(v) => v[i].clone(),
    }
}

/// `f` of two columns, kept per group when both are (over the same groups).
fn combine(
    a: RatCol,
    b: RatCol,
    chunk: &[u32],
    f: impl Fn(&Q, &Q) -> Q,
) -> Result<RatCol, Failure> {
    Ok(match (a, b) {
        (RatCol::Uniform(x), RatCol::Uniform(y)) => RatCol::Uniform(f(&x, &y)),
        (RatCol::Grouped(g, v), RatCol::Uniform(y)) => {
            RatCol::Grouped(g, Rc::new(v.iter().map(|x| f(x, &y)).collect()))
        }
        (RatCol::Uniform(x), RatCol::Grouped(g, v)) => {
            RatCol::Grouped(g, Rc::new(v.iter().map(|y| f(&x, y)).collect()))
        }
        (RatCol::Grouped(g, v), RatCol::Grouped(h, u)) if Rc::ptr_eq(&g, &h) => RatCol::Grouped(
            g,
            Rc::new(v.iter().zip(u.iter()).map(|(x, y)| f(x, y)).collect()),
        ),
        (a, b) => RatCol::PerWorld(
            chunk
                .iter()
                .enumerate()
                .map(|(i, &w)| f(&value_at(&a, i, w), &value_at(&b, i, w)))
                .collect(),
        ),
    })
}

/// The new worlds' weights in 64-bit integers (see [`ExplicitBackend::event_weights`]),
/// or None when some value needs more.
fn small_weights(
    mu: &Weights,
    distinct: &[u128],
    totals: &[u128],
    per_case: &[Vec<i128>],
    made: &[(u32, i64)],
    at: &[usize],
) -> Option<Vec<u64>> {
    let Weights::Small(mu) = mu else {
        return None;
    };
    let mut lcm: u128 = 1;
    for &t in distinct {
        lcm = (lcm / gcd(lcm, t)).checked_mul(t)?;
    }
    let mut out = Vec::with_capacity(made.len());
    let mut g: u128 = 0;
    for (&(w, c), &i) in made.iter().zip(at) {
        let weight = u128::try_from(per_case[c as usize][i]).ok()?;
        let x = u128::from(mu[w as usize])
            .checked_mul(weight)?
            .checked_mul(lcm / totals[i])?;
        g = gcd(g, x);
        out.push(x);
    }
    let g = g.max(1);
    out.into_iter().map(|x| u64::try_from(x / g).ok()).collect()
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
