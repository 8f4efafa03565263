//! The knowledge state and the K/KV encodings: every knowledge operator becomes a
//! quantifier-free formula over the world variables, by quantifier elimination or, where
//! that cannot work, by enumerating the finitely many worlds of κ.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::solver::{Eliminated, Term};
use super::symbolic::Z3Backend;
use super::{SolverError, Strategy};
use crate::ir::arith::Integer;
use crate::ir::{ArithOp, CharId, CmpOp, Expr, ExprKind, GroupOp, LogicOp, Ty};
use crate::worlds::Value;

/// With `Strategy::Auto`, κ counts as finite when the solver lists at most this many
/// worlds (a box of values scanned natively may hold more).
const AUTO_FINITE_CAP: usize = 5_000;
/// Above this many worlds the finite-domain route gives up.
const FINITE_CAP: usize = 200_000;
/// The largest box of int values the finite-domain route scans point by point.
const BOX_CAP: u128 = 4_000_000;

/// The most rounds of the common-knowledge fixpoint on the symbolic route.
const COMMON_ROUNDS: usize = 64;

/// How many κs the finite-domain route remembers the answer for (the current one and
/// those of the checkpoints an `at(…)` asks about).
const FINITE_CACHE_ENTRIES: usize = 4;

/// What the finite-domain route found for one κ: its worlds (None: not finite, or more
/// than `cap` to list one by one).
pub(super) struct FiniteAnswer {
    pub kappa: Term,
    pub worlds: Option<WorldList>,
    pub cap: usize,
}

/// An explicit list of worlds, shared between states.
pub(super) type WorldList = Rc<Vec<Vec<Value>>>;

/// What a character has learned: a constant, or the value of an expression.
#[derive(Clone)]
pub(super) enum Learned {
    Const(usize),
    Expr(Term),
}

/// The knowledge state: common knowledge κ and what each character learned. When κ has
/// been found to have finitely many worlds, they are kept too and filtered as κ grows.
#[derive(Clone)]
pub(crate) struct State {
    pub kappa: Term,
    pub learned: Vec<Vec<Learned>>,
    pub worlds: Option<WorldList>,
}

/// The goal of a knowledge operator: that a formula holds, or the values of expressions.
pub(super) enum Goal {
    That(Term),
    Values(Vec<Term>),
}

impl Z3Backend {
    /// Translates an expression into a term over the world variables, evaluating every
    /// knowledge operator in `state` (at the moment of the statement) and those under
    /// `at(c, …)` in `saved[c]`.
    pub(super) fn encode(
        &mut self,
        e: &Expr,
        state: &State,
        saved: &[Option<State>],
    ) -> Result<Term, SolverError> {
        Ok(match &e.kind {
            ExprKind::Int(n) => Term::int(*n),
            ExprKind::Bool(v) => Term::bool(*v),
            ExprKind::Const(c) => self.vars[c.0].clone(),
            ExprKind::Neg(a) => self.encode(a, state, saved)?.neg(),
            ExprKind::Not(a) => self.encode(a, state, saved)?.not(),
            ExprKind::Arith(op, a, b) => {
                let (a, b) = (self.encode(a, state, saved)?, self.encode(b, state, saved)?);
                match op {
                    ArithOp::Add => a.add(&b),
                    ArithOp::Sub => a.sub(&b),
                    ArithOp::Mul => a.mul(&b),
                    ArithOp::Div => a.div(&b),
                    ArithOp::Mod => a.modulo(&b),
                }
            }
            ExprKind::Cmp(op, a, b) => {
                let (a, b) = (self.encode(a, state, saved)?, self.encode(b, state, saved)?);
                match op {
                    CmpOp::Eq => a.eq(&b),
                    CmpOp::Ne => a.eq(&b).not(),
                    CmpOp::Lt => a.lt(&b),
                    CmpOp::Le => a.le(&b),
                    CmpOp::Gt => b.lt(&a),
                    CmpOp::Ge => b.le(&a),
                }
            }
            ExprKind::Logic(op, a, b) => {
                let (a, b) = (self.encode(a, state, saved)?, self.encode(b, state, saved)?);
                match op {
                    LogicOp::And => Term::and(&[a, b]),
                    LogicOp::Or => Term::or(&[a, b]),
                    LogicOp::Implies => a.implies(&b),
                    LogicOp::Iff => a.iff(&b),
                }
            }
            ExprKind::Ite(c, a, b) => {
                let c = self.encode(c, state, saved)?;
                c.ite(
                    &self.encode(a, state, saved)?,
                    &self.encode(b, state, saved)?,
                )
            }
            ExprKind::In { tuple, set } => {
                let tuple: Vec<Term> = tuple
                    .iter()
                    .map(|t| self.encode(t, state, saved))
                    .collect::<Result<_, _>>()?;
                let mut items = Vec::with_capacity(set.len());
                for item in set {
                    let mut eqs = Vec::with_capacity(item.len());
                    for (t, v) in tuple.iter().zip(item) {
                        eqs.push(t.eq(&self.encode(v, state, saved)?));
                    }
                    items.push(Term::and(&eqs));
                }
                Term::or(&items)
            }
            ExprKind::Knows { agent, formula } => {
                let phi = self.encode(formula, state, saved)?;
                self.knows(*agent, state, Goal::That(phi))?
            }
            ExprKind::KnowsValue { agent, exprs } => {
                let es = exprs
                    .iter()
                    .map(|x| self.encode(x, state, saved))
                    .collect::<Result<_, _>>()?;
                self.knows(*agent, state, Goal::Values(es))?
            }
            ExprKind::Group {
                op,
                agents,
                formula,
            } => {
                let phi = self.encode(formula, state, saved)?;
                self.group(*op, agents, state, phi)?
            }
            ExprKind::At { checkpoint, body } => {
                let Some(Some(then)) = saved.get(checkpoint.0) else {
                    return Err(SolverError::Unsupported(
                        "internal error: `at` names a checkpoint the run has not passed".into(),
                    ));
                };
                self.encode(body, then, saved)?
            }
        })
    }

    /// K_A goal in `state`, as a quantifier-free formula over the world variables x̄:
    /// `∀ȳ. κ(ȳ) ∧ L_A(ȳ) = L_A(x̄) → goal(ȳ)`, where ȳ renames the constants A has not
    /// learned directly and L_A are A's learned expressions. For values ē the goal is
    /// `ē(ȳ) = ē(x̄)`, which is ∃v̄. K_A(ē = v̄) in every world of κ.
    pub(super) fn knows(
        &mut self,
        agent: CharId,
        state: &State,
        goal: Goal,
    ) -> Result<Term, SolverError> {
        self.knows_seeing(&state.learned[agent.0], state, goal)
    }

    /// Group knowledge of `agents` of φ in `state`. Common knowledge iterates
    /// X = E(φ ∧ X) from X = true until two iterates agree on κ (the next is then the
    /// same formula: E looks only at κ's worlds), at most [`COMMON_ROUNDS`] times.
    fn group(
        &mut self,
        op: GroupOp,
        agents: &[CharId],
        state: &State,
        phi: Term,
    ) -> Result<Term, SolverError> {
        match op {
            GroupOp::Everyone => self.everyone(agents, state, &phi),
            GroupOp::Distributed => {
                let learned: Vec<Learned> = agents
                    .iter()
                    .flat_map(|a| state.learned[a.0].iter().cloned())
                    .collect();
                self.knows_seeing(&learned, state, Goal::That(phi))
            }
            GroupOp::Common => {
                let mut x = Term::bool(true);
                for _ in 0..COMMON_ROUNDS {
                    let next =
                        self.everyone(agents, state, &Term::and(&[phi.clone(), x.clone()]))?;
                    let differ = Term::and(&[self.kappa_of(state), next.iff(&x).not()]);
                    if !self.z3.is_sat(&differ)? {
                        return Ok(next);
                    }
                    x = next;
                }
                Err(SolverError::Unsupported(format!(
                    "common knowledge did not reach its fixpoint in {COMMON_ROUNDS} rounds \
                     (X = everyone knows (φ and X)); over infinitely many worlds it may never"
                )))
            }
        }
    }

    /// E φ: every one of `agents` knows φ.
    fn everyone(
        &mut self,
        agents: &[CharId],
        state: &State,
        phi: &Term,
    ) -> Result<Term, SolverError> {
        let mut all = Vec::with_capacity(agents.len());
        for a in agents {
            all.push(self.knows(*a, state, Goal::That(phi.clone()))?);
        }
        Ok(Term::and(&all))
    }

    /// K goal in `state` for whoever learned `learned`.
    fn knows_seeing(
        &mut self,
        learned: &[Learned],
        state: &State,
        goal: Goal,
    ) -> Result<Term, SolverError> {
        match self.options.strategy {
            // Finitely many worlds: the finite-domain route is exact and cheap. (`Bdd`
            // never reaches Z3: the engine refuses what the BDD backend cannot run.)
            Strategy::Auto | Strategy::Z3 | Strategy::Bdd | Strategy::Explicit => {
                if self.small_worlds(state, AUTO_FINITE_CAP)?.is_some() {
                    return self.knows_finite(learned, state, &goal);
                }
            }
            Strategy::Finite => return self.knows_finite(learned, state, &goal),
            Strategy::Symbolic => {}
        }
        let direct: Vec<usize> = learned
            .iter()
            .filter_map(|l| match l {
                Learned::Const(c) => Some(*c),
                Learned::Expr(_) => None,
            })
            .collect();
        let (mut from, mut to) = (Vec::new(), Vec::new());
        for (k, x) in self.vars.iter().enumerate() {
            if !direct.contains(&k) {
                from.push(x.clone());
                to.push(x.fresh_like(&format!("{}'", self.program.constants[k].name)));
            }
        }
        let mut hyp = vec![self.kappa_of(state).substitute(&from, &to)];
        for l in learned {
            if let Learned::Expr(e) = l {
                hyp.push(e.substitute(&from, &to).eq(e));
            }
        }
        let conclusion = match &goal {
            Goal::That(phi) => phi.substitute(&from, &to),
            Goal::Values(es) => Term::and(
                &es.iter()
                    .map(|e| e.substitute(&from, &to).eq(e))
                    .collect::<Vec<_>>(),
            ),
        };
        if !Term::and(&hyp).implies(&conclusion).is_nonlinear()
            && let Eliminated::Free(t) = self.z3.eliminate_forall(&to, &hyp, &conclusion)?
        {
            return Ok(t);
        }
        tracing::debug!("quantifier elimination not applicable; taking the finite-domain route");
        self.knows_finite(learned, state, &goal)
    }

    /// K_A goal by explicit enumeration of κ's worlds, grouped by what A learned: the
    /// result says which groups know, and is equivalent to K_A goal under κ.
    fn knows_finite(
        &mut self,
        learned: &[Learned],
        state: &State,
        goal: &Goal,
    ) -> Result<Term, SolverError> {
        let worlds = self.finite_worlds(state)?;
        let learned: Vec<Term> = learned
            .iter()
            .map(|l| match l {
                Learned::Const(c) => self.vars[*c].clone(),
                Learned::Expr(e) => e.clone(),
            })
            .collect();
        // For each group (values of what A learned, exact: an observation need not fit
        // in a world's 64 bits): does A know, and (for values) the first value tuple
        // seen.
        let mut groups: BTreeMap<Vec<Integer>, (bool, Option<Vec<Integer>>)> = BTreeMap::new();
        let compiled: Vec<_> = learned.iter().map(|l| l.compile(&self.vars)).collect();
        let goal_terms = match goal {
            Goal::That(phi) => vec![phi.compile(&self.vars)],
            Goal::Values(es) => es.iter().map(|e| e.compile(&self.vars)).collect(),
        };
        let mut scratch = Vec::new();
        for w in worlds.iter() {
            let key = compiled
                .iter()
                .map(|l| l.eval_exact(w, &mut scratch))
                .collect::<Result<_, _>>()?;
            let entry = groups.entry(key).or_insert((true, None));
            if !entry.0 {
                continue;
            }
            match goal {
                Goal::That(_) => {
                    entry.0 = goal_terms[0].eval(w, &mut scratch)? == Value::Bool(true)
                }
                Goal::Values(_) => {
                    let values: Vec<Integer> = goal_terms
                        .iter()
                        .map(|e| e.eval_exact(w, &mut scratch))
                        .collect::<Result<_, _>>()?;
                    match &entry.1 {
                        None => entry.1 = Some(values),
                        Some(first) => entry.0 = *first == values,
                    }
                }
            }
        }
        let matches = |key: &Vec<Integer>| -> Term {
            Term::and(
                &learned
                    .iter()
                    .zip(key)
                    .map(|(l, v)| {
                        if l.is_bool() {
                            l.eq(&Term::bool(*v != Integer::from(0i64)))
                        } else {
                            l.eq(&Term::integer(v))
                        }
                    })
                    .collect::<Vec<_>>(),
            )
        };
        let good: Vec<Term> = groups
            .iter()
            .filter(|(_, g)| g.0)
            .map(|(k, _)| matches(k))
            .collect();
        let bad: Vec<Term> = groups
            .iter()
            .filter(|(_, g)| !g.0)
            .map(|(k, _)| matches(k))
            .collect();
        Ok(if good.len() <= bad.len() {
            Term::or(&good)
        } else {
            Term::or(&bad).not()
        })
    }

    /// Every world of κ in `state`, when there are finitely many (else the error that
    /// says the finite-domain route is closed).
    fn finite_worlds(&mut self, state: &State) -> Result<WorldList, SolverError> {
        self.small_worlds(state, FINITE_CAP)?.ok_or_else(|| {
            SolverError::Unsupported(
                "quantifier elimination cannot handle this statement (non-linear arithmetic such as x * y), \
                 and the possible worlds are not finitely many, so the finite-domain route is closed too; \
                 bound every constant in an announcement, e.g. `announce x >= 0 and x <= 100`"
                    .into(),
            )
        })
    }

    /// κ's worlds in `state` when they are finitely many and at most `cap` of them are
    /// found by the solver one by one (a box of values scanned natively may hold more).
    /// The answer is cached per κ; the current state keeps its list and filters it as κ
    /// grows.
    pub(super) fn small_worlds(
        &mut self,
        state: &State,
        cap: usize,
    ) -> Result<Option<WorldList>, SolverError> {
        if let Some(ws) = &state.worlds {
            return Ok(Some(ws.clone()));
        }
        if let Some(answer) = self
            .finite_cache
            .iter()
            .find(|a| a.kappa == state.kappa && (a.worlds.is_some() || a.cap >= cap))
        {
            return Ok(answer.worlds.clone());
        }
        let found = self.list_worlds(&state.kappa, cap)?.map(Rc::new);
        if let Some(ws) = &found {
            tracing::debug!(
                worlds = ws.len(),
                "enumerated κ for the finite-domain route"
            );
        }
        self.finite_cache.retain(|a| a.kappa != state.kappa);
        if self.finite_cache.len() == FINITE_CACHE_ENTRIES {
            self.finite_cache.remove(0);
        }
        self.finite_cache.push(FiniteAnswer {
            kappa: state.kappa.clone(),
            worlds: found.clone(),
            cap,
        });
        Ok(found)
    }

    fn list_worlds(
        &self,
        kappa: &Term,
        cap: usize,
    ) -> Result<Option<Vec<Vec<Value>>>, SolverError> {
        // An int constant beyond the 64-bit integers under κ (unbounded, or a value no
        // world can hold) closes the finite-domain route at once. Within them κ is
        // finite, large values or not: the box or the solver lists its worlds, up to
        // their caps.
        let outside: Vec<Term> = self
            .vars
            .iter()
            .filter(|v| !v.is_bool())
            .map(|v| Term::or(&[v.lt(&Term::int(i64::MIN)), Term::int(i64::MAX).lt(v)]))
            .collect();
        if self
            .z3
            .is_sat(&Term::and(&[kappa.clone(), Term::or(&outside)]))?
        {
            return Ok(None);
        }
        // No world at all: Z3's optimizer (for the box) can stall on proving that of a
        // non-linear κ (`abs(x % x) == 5`), the solver does not.
        if !self.z3.is_sat(kappa)? {
            return Ok(Some(Vec::new()));
        }
        if let Some(worlds) = self.box_worlds(kappa)? {
            return Ok(Some(worlds));
        }
        let (worlds, exhausted) = self.z3.enumerate(kappa, &self.vars, None, cap)?;
        Ok(exhausted.then_some(worlds))
    }

    /// The variables of the int constants (not bools, not enums): the only ones that
    /// need the optimizer for their bounds, and that can take infinitely many values.
    pub(super) fn int_vars(&self) -> impl Iterator<Item = &Term> {
        (self.vars.iter().enumerate())
            .filter(|(k, v)| !v.is_bool() && self.enum_range(*k).is_none())
            .map(|(_, v)| v)
    }

    /// The values of constant `k` when it is an enum's: its variants' indices.
    pub(super) fn enum_range(&self, k: usize) -> Option<(i64, i64)> {
        match self.program.constants[k].ty {
            Ty::Enum(e) => Some((0, self.program.enums[e.0].variants.len() as i64 - 1)),
            _ => None,
        }
    }

    /// κ's worlds found by evaluating κ natively at every point of the box its int
    /// constants range over (from Z3's optimizer), when that box is small enough.
    fn box_worlds(&self, kappa: &Term) -> Result<Option<Vec<Vec<Value>>>, SolverError> {
        let compiled = kappa.compile(&self.vars);
        if !compiled.is_native() {
            return Ok(None);
        }
        // Enum constants take their range from their type; the optimizer bounds the ints.
        let ints: Vec<Term> = self.int_vars().cloned().collect();
        let Some(int_ranges) = self.z3.ranges(kappa, &ints)? else {
            return Ok(None);
        };
        let mut int_ranges = int_ranges.into_iter();
        let mut ranges = Vec::with_capacity(self.vars.len());
        let mut size: u128 = 1;
        for (k, v) in self.vars.iter().enumerate() {
            let (lo, hi) = if v.is_bool() {
                (0, 1)
            } else if let Some(range) = self.enum_range(k) {
                range
            } else {
                int_ranges.next().expect("one range per int")
            };
            size = size.saturating_mul((hi as i128 - lo as i128 + 1).max(0) as u128);
            if size > BOX_CAP {
                return Ok(None);
            }
            ranges.push((lo, hi, v.is_bool()));
        }
        let mut worlds = Vec::new();
        if ranges.iter().any(|r| r.0 > r.1) {
            return Ok(Some(worlds));
        }
        let value = |x: i64, is_bool: bool| {
            if is_bool {
                Value::Bool(x != 0)
            } else {
                Value::Int(x)
            }
        };
        let mut point: Vec<i64> = ranges.iter().map(|r| r.0).collect();
        let mut world: Vec<Value> = point
            .iter()
            .zip(&ranges)
            .map(|(x, r)| value(*x, r.2))
            .collect();
        let mut scratch = Vec::new();
        loop {
            if compiled.eval(&world, &mut scratch)? == Value::Bool(true) {
                worlds.push(world.clone());
            }
            // The next point, the last variable fastest.
            let mut k = ranges.len();
            loop {
                if k == 0 {
                    return Ok(Some(worlds));
                }
                k -= 1;
                if point[k] < ranges[k].1 {
                    point[k] += 1;
                    world[k] = value(point[k], ranges[k].2);
                    break;
                }
                point[k] = ranges[k].0;
                world[k] = value(point[k], ranges[k].2);
            }
        }
    }
}
