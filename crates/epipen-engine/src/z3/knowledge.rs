//! The K/KV encodings: every knowledge operator becomes a quantifier-free formula over
//! the world variables, by quantifier elimination or, where that cannot work, over the
//! finitely many worlds of κ (listed by `finite.rs`).

use std::collections::BTreeMap;

use super::{Goal, Learned, SHRINK_ABOVE, SHRINK_MAX_CUBES, State, Z3Backend};
use crate::driver::Origin;
use crate::ir::arith::Integer;
use crate::ir::{ArithOp, CharId, CmpOp, Expr, ExprKind, GroupOp, LogicOp};
use crate::worlds::Value;
use crate::z3::solver::{Eliminated, Term};
use crate::{Failure, Strategy};

/// Why the Z3 backend refuses a quantifier over constants around a knowledge operator.
pub(crate) const QUANTIFIED_KNOWLEDGE: &str = "the Z3 backend cannot quantify over constants \
     around knowledge operators (`forall p: knows(…)`): its knowledge is exact only at \
     possible worlds, and a quantifier looks at others; the `bdd` backend can";

/// With `Strategy::Auto`, κ counts as finite when the solver lists at most this many
/// worlds (a box of values scanned natively may hold more).
const AUTO_FINITE_CAP: usize = 5_000;
/// The most rounds of the common-knowledge fixpoint on the symbolic route.
const COMMON_ROUNDS: usize = 64;

impl Z3Backend {
    /// Translates an expression into a term over the world variables, evaluating every
    /// knowledge operator in `state` (at the moment of the statement) and those under
    /// `at(c, …)` in `saved[c]`.
    pub(super) fn encode(
        &mut self,
        e: &Expr,
        state: &State,
        saved: &[Option<State>],
    ) -> Result<Term, Failure> {
        Ok(match &e.kind {
            ExprKind::Int(n) => Term::int(*n),
            ExprKind::Bool(v) => Term::bool(*v),
            ExprKind::Const(c) => self.vars[c.0].clone(),
            ExprKind::Shared(inner) => match self.shared.get(&std::sync::Arc::as_ptr(inner)) {
                Some((_, term)) => term.clone(),
                None => {
                    let term = self.encode(inner, state, saved)?;
                    (self.shared)
                        .insert(std::sync::Arc::as_ptr(inner), (inner.clone(), term.clone()));
                    term
                }
            },
            ExprKind::Latest(_) => return Err(Failure::unresolved_event()),
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
                self.knows(*agent, state, Goal::Values(es, None))?
            }
            // B_A φ = K_A(most plausible → φ).
            ExprKind::Believes { agent, formula } => {
                let phi = self.encode(formula, state, saved)?;
                let best = self.most_plausible(*agent, state)?;
                self.knows(*agent, state, Goal::That(best.implies(&phi)))?
            }
            // Every most plausible world of the class has the value this one's most
            // plausible worlds agree on: K_A(best → K_A(best → ē = ē(here))).
            ExprKind::BelievesValue { agent, exprs } => {
                let es = exprs
                    .iter()
                    .map(|x| self.encode(x, state, saved))
                    .collect::<Result<_, _>>()?;
                let best = self.most_plausible(*agent, state)?;
                let agreed = self.knows(*agent, state, Goal::Values(es, Some(best.clone())))?;
                self.knows(*agent, state, Goal::That(best.implies(&agreed)))?
            }
            ExprKind::Chance { .. } => return Err(crate::driver::no_chances("z3")),
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
                    return Err(Failure::Unsupported(
                        "internal error: `at` names a checkpoint the run has not passed".into(),
                    ));
                };
                self.encode(body, then, saved)?
            }
            ExprKind::Announced {
                agents,
                whether,
                formula,
                body,
            } => {
                use crate::driver::Backend;
                let phi = self.encode(formula, state, saved)?;
                if agents.is_empty() {
                    let after = self.restrict(state, phi.clone(), Origin::Written)?;
                    let holds = self.encode(body, &after, saved)?;
                    if *whether {
                        let other = self.restrict(state, phi.not(), Origin::Written)?;
                        let otherwise = self.encode(body, &other, saved)?;
                        phi.ite(&holds, &otherwise)
                    } else {
                        phi.implies(&holds)
                    }
                } else {
                    let mut after = state.clone();
                    for &who in agents {
                        after = self.learn_whether(&after, who, phi.clone())?;
                    }
                    let holds = self.encode(body, &after, saved)?;
                    if *whether { holds } else { phi.implies(&holds) }
                }
            }
            ExprKind::Quantified {
                forall,
                consts,
                body,
            } => {
                if body.mentions_knowledge() {
                    // A story file is refused before it runs (`choice`); a statement
                    // stepped from outside (the Rust API's) is refused here, so that
                    // `auto` can replay the story on a backend that takes it.
                    return Err(Failure::Unsupported(QUANTIFIED_KNOWLEDGE.into()));
                }
                let mut holds = self.encode(body, state, saved)?;
                for c in consts {
                    let var = std::slice::from_ref(&self.vars[c.0]);
                    let cases = [true, false].map(|v| holds.substitute(var, &[Term::bool(v)]));
                    holds = match forall {
                        true => Term::and(&cases),
                        false => Term::or(&cases),
                    };
                }
                holds
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
    ) -> Result<Term, Failure> {
        let whose = format!("{}'s knowledge", self.program.characters[agent.0].name);
        self.knows_seeing(&state.learned[agent.0], state, goal, &whose)
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
    ) -> Result<Term, Failure> {
        match op {
            GroupOp::Everyone => self.everyone(agents, state, &phi),
            GroupOp::Distributed => {
                let learned: Vec<Learned> = agents
                    .iter()
                    .flat_map(|a| state.learned[a.0].iter().cloned())
                    .collect();
                let names: Vec<&str> = agents
                    .iter()
                    .map(|a| self.program.characters[a.0].name.as_str())
                    .collect();
                let whose = format!("the distributed knowledge of {}", names.join(", "));
                self.knows_seeing(&learned, state, Goal::That(phi), &whose)
            }
            GroupOp::Common => {
                let mut x = Term::bool(true);
                let mut before: Vec<Term> = Vec::new();
                for round in 1..=COMMON_ROUNDS {
                    let mut next =
                        self.everyone(agents, state, &Term::and(&[phi.clone(), x.clone()]))?;
                    // Over infinitely many worlds each round quantifies the last one's
                    // formula again: shrunk under κ, the iterates of the consecutive
                    // numbers stay a few atoms (else 12,000 nodes by round 27).
                    let size = next.dag_size();
                    if state.worlds.is_none()
                        && size > SHRINK_ABOVE
                        && let Some(smaller) =
                            self.z3.shrink(&state.kappa, &next, SHRINK_MAX_CUBES)?
                        && smaller.dag_size() < size
                    {
                        next = smaller;
                    }
                    tracing::debug!(round, nodes = next.dag_size(), "common knowledge");
                    tracing::trace!("common knowledge iterate {round}: {next}");
                    let differ = Term::and(&[self.kappa_of(state), next.iff(&x).not()]);
                    if !self.z3.is_sat(&differ)? {
                        return Ok(next);
                    }
                    if let Some(limit) =
                        self.accelerated(agents, state, &phi, &before, &x, &next)?
                    {
                        tracing::debug!(round, "common knowledge: the iterates as a family");
                        return Ok(limit);
                    }
                    before.push(std::mem::replace(&mut x, next));
                }
                Err(Failure::Unsupported(format!(
                    "common knowledge did not reach its fixpoint in {COMMON_ROUNDS} rounds \
                     (X = everyone knows (φ and X)); over infinitely many worlds it may never"
                )))
            }
        }
    }

    /// The limit of common knowledge's iterates when the last three (`older`'s last,
    /// `last`, `next`) differ only in numerals that move by a fixed step each round, as
    /// over the consecutive numbers (`A >= n and B >= n`, n one more each round): the
    /// family ψ(t) (`next` with each numeral moved t steps) is checked by induction,
    /// E(φ ∧ ψ(t)) ≡ ψ(t + 1) under κ for every t ≥ 0 (one knowledge computation with t
    /// free, one solver call), so that the iterates from `next` on are ψ(0), ψ(1), …;
    /// E distributes over any conjunction, so their conjunction ∀t ≥ 0. ψ(t) (quantifier
    /// elimination on t) is the greatest fixpoint. None when there is no such family.
    fn accelerated(
        &mut self,
        agents: &[CharId],
        state: &State,
        phi: &Term,
        older: &[Term],
        last: &Term,
        next: &Term,
    ) -> Result<Option<Term>, Failure> {
        let Some(first) = older.last() else {
            return Ok(None);
        };
        if self.listed(state).is_some() || !first.same_shape(last) || !last.same_shape(next) {
            return Ok(None);
        }
        let (a, b, c) = (first.numerals(), last.numerals(), next.numerals());
        if c.is_empty() || a.len() != c.len() || b.len() != c.len() {
            return Ok(None);
        }
        let mut steps = Vec::with_capacity(c.len());
        for k in 0..c.len() {
            let (Some(d1), Some(d2)) = (b[k].checked_sub(a[k]), c[k].checked_sub(b[k])) else {
                return Ok(None);
            };
            if d1 != d2 {
                return Ok(None);
            }
            steps.push(d2);
        }
        if steps.iter().all(|d| *d == 0) {
            return Ok(None);
        }
        let t = Term::int(0).fresh_like("t");
        let (Some(psi), Some(psi_next)) = (
            next.shifted(&steps, &t),
            next.shifted(&steps, &t.add(&Term::int(1))),
        ) else {
            return Ok(None);
        };
        let stepped = self.everyone(agents, state, &Term::and(&[phi.clone(), psi.clone()]))?;
        let natural = Term::int(0).le(&t);
        let differ = Term::and(&[
            self.kappa_of(state),
            natural.clone(),
            stepped.iff(&psi_next).not(),
        ]);
        if self.z3.is_sat(&differ)? {
            return Ok(None);
        }
        match self.z3.eliminate_forall(&[t], &[natural], &psi)? {
            Eliminated::Free(limit) => Ok(Some(limit)),
            Eliminated::Leftover => Ok(None),
        }
    }

    /// E φ: every one of `agents` knows φ.
    fn everyone(&mut self, agents: &[CharId], state: &State, phi: &Term) -> Result<Term, Failure> {
        let mut all = Vec::with_capacity(agents.len());
        for a in agents {
            all.push(self.knows(*a, state, Goal::That(phi.clone()))?);
        }
        Ok(Term::and(&all))
    }

    /// K goal in `state` for whoever learned `learned` (`whose`: "Anne's knowledge", for
    /// the messages).
    fn knows_seeing(
        &mut self,
        learned: &[Learned],
        state: &State,
        goal: Goal,
        whose: &str,
    ) -> Result<Term, Failure> {
        if let Some(known) = self.seen_already(learned, &goal) {
            return Ok(known);
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
            Goal::Values(es, condition) => {
                let equal = Term::and(
                    &es.iter()
                        .map(|e| e.substitute(&from, &to).eq(e))
                        .collect::<Vec<_>>(),
                );
                match condition {
                    None => equal,
                    Some(c) => c.substitute(&from, &to).implies(&equal),
                }
            }
        };
        // Constants κ lists the values of (bounded beside unbounded): when they are all
        // the constants A did not learn, the finite conjunction over those values is
        // the answer, exact and without a quantifier, before any listing of κ's worlds.
        let by_cases = self.options.strategy != Strategy::Finite && self.listed(state).is_none();
        if by_cases
            && let Some(t) = self.knows_by_cases(
                &self.kappa_of(state),
                (&from, &to),
                &hyp,
                &conclusion,
                false,
            )?
        {
            return self.constant_under_kappa(state, t);
        }
        match self.options.strategy {
            // Finitely many worlds: the finite-domain route is exact and cheap. (`Bdd`
            // never reaches Z3: the engine refuses what the BDD backend cannot run.)
            Strategy::Auto | Strategy::Z3 | Strategy::Bdd | Strategy::Explicit => {
                if self.small_worlds(state, AUTO_FINITE_CAP)?.is_some() {
                    return self.knows_finite_or(learned, state, &goal, "this statement");
                }
            }
            Strategy::Finite => {
                return self.knows_finite_or(learned, state, &goal, "this statement");
            }
            Strategy::Symbolic => {}
        }
        // Otherwise, unless κ's worlds are few, quantifier elimination on the others.
        if by_cases
            && let Some(t) =
                self.knows_by_cases(&self.kappa_of(state), (&from, &to), &hyp, &conclusion, true)?
        {
            return self.constant_under_kappa(state, t);
        }
        let body = Term::and(&hyp).implies(&conclusion);
        let closed_because = match body.nonlinear_part() {
            Some(product) => format!("`{}` (non-linear arithmetic)", product.story_text()),
            None => match self.z3.eliminate_forall(&to, &hyp, &conclusion) {
                Ok(Eliminated::Free(t)) => return self.constant_under_kappa(state, t),
                Ok(Eliminated::Leftover) => "this statement (quantifiers were left)".into(),
                Err(Failure::Timeout) => {
                    return Err(Failure::QeTimeout(self.qe_culprits(
                        whose,
                        &hyp,
                        &conclusion,
                        &to,
                    )));
                }
                Err(e) => return Err(e),
            },
        };
        tracing::debug!("quantifier elimination not applicable; taking the finite-domain route");
        self.knows_finite_or(learned, state, &goal, &closed_because)
    }

    /// K_A φ when φ reads only constants A learned: A's worlds agree with the actual one
    /// on them, so K_A φ is φ under κ (and `knows_value` of such terms is true), with no
    /// quantifier to eliminate and no world to list. A character that learned every
    /// constant and `reveals` φ asked this (issue 33: listing κ's worlds for it took
    /// 24 s on a battleship where `announce φ` took a millisecond).
    fn seen_already(&self, learned: &[Learned], goal: &Goal) -> Option<Term> {
        let unseen: Vec<Term> = (self.vars.iter().enumerate())
            .filter(|(k, _)| {
                !learned
                    .iter()
                    .any(|l| matches!(l, Learned::Const(c) if c == k))
            })
            .map(|(_, x)| x.clone())
            .collect();
        let reads_unseen = |t: &Term| t.any_var(&unseen);
        match goal {
            Goal::That(phi) => (!reads_unseen(phi)).then(|| phi.clone()),
            Goal::Values(es, _) => (!es.iter().any(reads_unseen)).then(|| Term::bool(true)),
        }
    }

    /// `whose` and the divisions over the constants renamed (those not learned), each
    /// said where it stands, for the message of a timeout in quantifier elimination:
    /// "Anne's knowledge, over `n % 1001000` in the question, `n % 1000` in what was
    /// announced and `n % 1001` in what Anne learned (divisions of `n`, a constant Anne
    /// did not learn)". `hyp` is κ, then the equalities of what was learned.
    fn qe_culprits(
        &self,
        whose: &str,
        hyp: &[Term],
        conclusion: &Term,
        renamed: &[Term],
    ) -> String {
        let who = whose.strip_suffix("'s knowledge").unwrap_or("the group");
        let learned = format!("in what {who} learned");
        let places: Vec<(&str, Vec<&Term>)> = vec![
            ("in the question", vec![conclusion]),
            ("in what was announced", hyp.iter().take(1).collect()),
            (&learned, hyp.iter().skip(1).collect()),
        ];
        let mut divisions: Vec<Term> = Vec::new();
        let mut groups: Vec<String> = Vec::new();
        for (place, terms) in places {
            let mut here: Vec<String> = Vec::new();
            for d in terms.iter().flat_map(|t| t.divisions_over(renamed)) {
                if !divisions.contains(&d) {
                    here.push(format!("`{}`", d.story_text()));
                    divisions.push(d);
                }
            }
            if !here.is_empty() {
                groups.push(format!("{} {place}", join_and(&here)));
            }
        }
        if divisions.is_empty() {
            return whose.to_string();
        }
        let mut constants: Vec<String> = Vec::new();
        for d in &divisions {
            for (k, r) in renamed.iter().enumerate() {
                let name = r.story_text();
                if d.divisions_over(&renamed[k..=k]).first() == Some(d)
                    && !constants.contains(&name)
                {
                    constants.push(name);
                }
            }
        }
        let constants: Vec<String> = constants.iter().map(|c| format!("`{c}`")).collect();
        format!(
            "{whose}, over {} (divisions of {}, {} {who} did not learn)",
            join_and(&groups),
            join_and(&constants),
            if constants.len() == 1 {
                "a constant"
            } else {
                "constants"
            },
        )
    }

    /// `t`, or `false` (`true`) when no world (every world) of κ satisfies it. With
    /// divisions, quantifier elimination lists residue classes (`(n % 11 + 9) % 10 >= 3`
    /// …) even where the answer is `false` under κ, and a knowledge operator over that
    /// quantifies them again: two solver calls on a quantifier-free formula spare it.
    /// Every use of a knowledge formula is under κ (κ only grows), so this is exact.
    fn constant_under_kappa(&self, state: &State, t: Term) -> Result<Term, Failure> {
        if !t.has_division() || t.as_value().is_some() {
            return Ok(t);
        }
        let kappa = self.kappa_of(state);
        if !self.z3.is_sat(&Term::and(&[kappa.clone(), t.clone()]))? {
            return Ok(Term::bool(false));
        }
        if !self.z3.is_sat(&Term::and(&[kappa, t.not()]))? {
            return Ok(Term::bool(true));
        }
        Ok(t)
    }

    /// K_A goal by explicit enumeration of κ's worlds, grouped by what A learned: the
    /// result says which groups know, and is equivalent to K_A goal under κ. When κ's
    /// worlds are not finitely many the error names what quantifier elimination could
    /// not handle (`closed_because`).
    fn knows_finite_or(
        &mut self,
        learned: &[Learned],
        state: &State,
        goal: &Goal,
        closed_because: &str,
    ) -> Result<Term, Failure> {
        let worlds = self.finite_worlds(state, closed_because)?;
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
            Goal::Values(es, _) => es.iter().map(|e| e.compile(&self.vars)).collect(),
        };
        let condition = match goal {
            Goal::Values(_, Some(c)) => Some(c.compile(&self.vars)),
            _ => None,
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
                Goal::Values(..) => {
                    if let Some(c) = &condition
                        && c.eval(w, &mut scratch)? != Value::Bool(true)
                    {
                        continue;
                    }
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

    /// The worlds of κ that `agent` finds most plausible among those it cannot tell
    /// apart, as a formula (equivalent on κ): rank by rank (most significant first), a
    /// world of the worlds kept so far stays when, for every level t above 0, it is below
    /// t or the agent knows no kept world of its class is (no kept world below t).
    fn most_plausible(&mut self, agent: CharId, state: &State) -> Result<Term, Failure> {
        let mut best = Term::bool(true);
        for (rank, levels) in state.ranks[agent.0].clone().iter() {
            let mut kept = vec![best.clone()];
            for t in 1..*levels {
                let below = rank.lt(&Term::int(t as i64));
                let lower = Term::and(&[best.clone(), below.clone()]);
                let none_lower = self.knows(agent, state, Goal::That(lower.not()))?;
                kept.push(Term::or(&[below, none_lower]));
            }
            best = self.z3.simplify(&Term::and(&kept))?;
        }
        Ok(best)
    }
}

/// `a`, `a and b`, `a, b and c`.
fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
