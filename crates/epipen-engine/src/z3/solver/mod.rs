//! Every call into Z3 lives in this module. The rest of the crate sees owned [`Term`]s
//! and a [`Z3`] handle that carries the run's deadline, and gets typed errors back.
//!
//! Z3 contexts are thread-local in the z3 crate: a `Term` must stay on the thread that
//! made it.

//!
//! `term.rs` builds and inspects terms, `native.rs` evaluates them natively in
//! explicit worlds; this file asks Z3 questions (satisfiability, quantifier elimination,
//! simplification, optimisation, enumeration) within the run's deadline.

mod cancel;
mod lattice;
mod native;
mod order;
mod term;

use std::time::{Duration, Instant};

use z3::ast::{Ast, Bool};
use z3::{AstKind, Goal, Optimize, Params, SatResult, Solver, Tactic};

use crate::error::Failure;
use crate::ir::arith::Integer;
use crate::worlds::Value;

pub use cancel::Cancel;
pub use native::Compiled;
pub use term::Term;
use term::{b, i, wrap};

/// The version of the Z3 library loaded at run time.
pub fn z3_version() -> String {
    z3::full_version().to_string()
}

/// Stops Z3 from catching Ctrl-C (SIGINT) for the whole process, so that Ctrl-C ends a
/// command like any other, also inside a solver call, where Z3 would otherwise answer
/// `unknown` (a solver failure). Call it before the first solver call.
pub fn leave_ctrl_c_to_the_process() {
    z3::set_global_param("ctrl_c", "false");
}

/// Quantifier elimination by cases gives up beyond this many cases.
const MAX_CASES: usize = 16;

/// The handle through which the engine asks Z3 questions; it enforces the deadline.
pub struct Z3 {
    deadline: Option<Instant>,
    /// Stops the run when raised; this thread's Z3 context is registered with it, so
    /// that raising it interrupts the call running.
    cancel: Cancel,
    _registration: Option<cancel::Registration>,
}

/// What eliminating the quantifiers of a formula gave.
pub enum Eliminated {
    /// A quantifier-free equivalent.
    Free(Term),
    /// Z3 could not remove every quantifier (non-linear arithmetic).
    Leftover,
}

impl Z3 {
    pub fn new(deadline: Option<Instant>) -> Z3 {
        Z3 {
            deadline,
            cancel: Cancel::default(),
            _registration: None,
        }
    }

    /// This handle, stopped by `cancel` as by its deadline.
    pub fn cancelled_by(self, cancel: &Cancel) -> Z3 {
        Z3 {
            cancel: cancel.clone(),
            _registration: cancel.register(),
            ..self
        }
    }

    /// Milliseconds left before the deadline (None: no deadline).
    fn remaining(&self) -> Result<Option<Duration>, Failure> {
        self.cancel.check()?;
        match self.deadline {
            None => Ok(None),
            Some(d) => {
                let now = Instant::now();
                if now >= d {
                    Err(Failure::Timeout)
                } else {
                    Ok(Some(d - now))
                }
            }
        }
    }

    /// Z3's `timeout` parameter set to the time left (None: no deadline).
    fn timeout_params(&self) -> Result<Option<Params>, Failure> {
        Ok(self.remaining()?.map(|left| {
            let mut p = Params::new();
            p.set_u32(
                "timeout",
                left.as_millis().clamp(1, u32::MAX as u128) as u32,
            );
            p
        }))
    }

    fn solver(&self) -> Result<Solver, Failure> {
        let s = Solver::new();
        if let Some(p) = self.timeout_params()? {
            s.set_params(&p);
        }
        Ok(s)
    }

    /// A solver for questions about `formula` (and formulas like it) that need neither
    /// assumptions nor unsat cores. For quantifier-free linear arithmetic it is Z3's SMT
    /// core alone: the default solver first picks and builds a preprocessing pipeline
    /// for the goal's logic at every check, which costs ~1.5 ms, more than these
    /// questions themselves.
    fn solver_for(&self, formula: &Term) -> Result<Solver, Failure> {
        if formula.is_nonlinear() || formula.has_quantifier() {
            return self.solver();
        }
        let s = Tactic::new("smt").solver();
        if let Some(p) = self.timeout_params()? {
            s.set_params(&p);
        }
        Ok(s)
    }

    fn unknown(&self, s: &Solver) -> Failure {
        let reason = s.get_reason_unknown().unwrap_or_else(|| "unknown".into());
        if let Err(stopped) = self.cancel.check() {
            stopped
        } else if self.remaining().is_err()
            || reason.contains("timeout")
            || reason.contains("canceled")
        {
            Failure::Timeout
        } else if reason.contains("resource") || reason.contains("memory") {
            Failure::ResourceLimit(reason)
        } else {
            Failure::Unknown(reason)
        }
    }

    /// Whether `formula` holds in every world.
    pub fn is_valid(&self, formula: &Term) -> Result<bool, Failure> {
        Ok(!self.is_sat(&formula.not())?)
    }

    /// Whether some world satisfies `formula`.
    pub fn is_sat(&self, formula: &Term) -> Result<bool, Failure> {
        let s = self.solver_for(formula)?;
        s.assert(b(formula));
        match s.check() {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => Err(self.unknown(&s)),
        }
    }

    /// Whether some world satisfies `formula`, asked for at most `budget` (None when
    /// the solver cannot tell within it; the run's deadline still stops the run).
    pub fn is_sat_within(&self, formula: &Term, budget: Duration) -> Result<Option<bool>, Failure> {
        let left = self.remaining()?.map_or(budget, |left| left.min(budget));
        let s = self.solver_for(formula)?;
        let mut p = Params::new();
        p.set_u32(
            "timeout",
            left.as_millis().clamp(1, u32::MAX as u128) as u32,
        );
        s.set_params(&p);
        s.assert(b(formula));
        match s.check() {
            SatResult::Sat => Ok(Some(true)),
            SatResult::Unsat => Ok(Some(false)),
            SatResult::Unknown => {
                self.remaining()?;
                Ok(None)
            }
        }
    }

    /// Quantifier elimination followed by simplification, on a formula with `divisions`
    /// by literals or not. Checks the result really is quantifier-free.
    pub fn eliminate_quantifiers(
        &self,
        formula: &Term,
        divisions: bool,
    ) -> Result<Eliminated, Failure> {
        if !formula.has_quantifier() {
            return Ok(Eliminated::Free(self.simplify(formula)?));
        }
        // With divisions by literals (purified into bound quotients and remainders, or
        // left on free variables), `qe` splits on residues until its result holds
        // `mod (t + c) k` for every c and nests them when the result is quantified again
        // (a `knows` over a `knows`): 25 s on `n % 6`, a timeout on `n % 16`. The
        // model-based `qe2` projects one model's residue class at a time: 0.1 s on both.
        // Without divisions `qe` stays: `qe2` is several times slower there.
        let tactic = if divisions { "qe2" } else { "qe" };
        tracing::trace!("{tactic} on {formula}");
        let eliminated = self.apply_tactic(tactic, formula)?;
        if eliminated.has_quantifier() {
            Ok(Eliminated::Leftover)
        } else {
            Ok(Eliminated::Free(eliminated))
        }
    }

    /// `∀ vars. ⋀ hyps → conclusion` without quantifiers. First by cases: each conjunct
    /// of the hypotheses that is a disjunction of cases each holding an equation over a
    /// bound variable (κ's `B = A + 1 or A = B + 1`) is split, `∀ȳ. (H₁ ∨ H₂) ∧ R → C`
    /// being `(∀ȳ. H₁ ∧ R → C) ∧ (∀ȳ. H₂ ∧ R → C)`, and Z3's `qe-light` substitutes the
    /// bound variables each case pins down by an equation: a fraction of a millisecond
    /// where `qe` costs several. When that leaves a quantifier in any case, the `qe`
    /// tactic runs on the whole formula (see [`Z3::eliminate_quantifiers`]).
    pub fn eliminate_forall(
        &self,
        vars: &[Term],
        hyps: &[Term],
        conclusion: &Term,
    ) -> Result<Eliminated, Failure> {
        if let Some(t) = self.eliminate_by_cases(vars, hyps, conclusion)? {
            return Ok(Eliminated::Free(t));
        }
        let body = Term::and(hyps).implies(conclusion);
        if body.has_division()
            && let Some(t) = self.eliminate_by_lattice(vars, hyps, conclusion)?
        {
            return Ok(Eliminated::Free(t));
        }
        self.eliminate_quantifiers(&Term::forall(vars, &body), body.has_division())
    }

    fn eliminate_by_cases(
        &self,
        vars: &[Term],
        hyps: &[Term],
        conclusion: &Term,
    ) -> Result<Option<Term>, Failure> {
        let mut results = Vec::new();
        for case in cases(vars, hyps) {
            let formula = Term::forall(vars, &Term::and(&case).implies(conclusion));
            let eliminated = self.apply_tactic("qe-light", &formula)?;
            if eliminated.has_quantifier() {
                return Ok(None);
            }
            results.push(eliminated);
        }
        Ok(Some(Term::and(&results).simplify()))
    }

    /// With divisions by literals: for each case of [`cases`], the divisions over bound
    /// variables purified into quotients and remainders (`t = k·q + r`, `0 ≤ r < |k|`),
    /// the linear equations among the hypotheses solved exactly (lattice.rs: no split on
    /// residues, whatever the moduli), then `qe-light` and `qe2` on what is left. None
    /// when a case keeps a quantifier.
    fn eliminate_by_lattice(
        &self,
        vars: &[Term],
        hyps: &[Term],
        conclusion: &Term,
    ) -> Result<Option<Term>, Failure> {
        let mut results = Vec::new();
        for case in cases(vars, hyps) {
            let body = Term::and(&case).implies(conclusion);
            let (purified, divisions) = body.purify_divisions(vars);
            let (h, c) = match purified.0.children()[..] {
                [ref h, ref c] if purified.0.decl().kind() == z3::DeclKind::Implies => {
                    (wrap(h.clone()), wrap(c.clone()))
                }
                _ => return Ok(None),
            };
            let mut bound = vars.to_vec();
            let mut case_hyps = vec![h];
            for d in &divisions {
                bound.push(d.quotient.clone());
                bound.push(d.remainder.clone());
                case_hyps.push(d.definition());
            }
            let Some(solved) = lattice::solve_equalities(&bound, &case_hyps, &c) else {
                return Ok(None);
            };
            let inner = Term::forall(
                &solved.vars,
                &Term::and(&solved.hyps).implies(&solved.conclusion),
            );
            tracing::trace!("solved equations, qe-light then qe2 on {inner}");
            let mut eliminated = self.apply_tactic("qe-light", &inner)?;
            if eliminated.has_quantifier() {
                eliminated = self.apply_tactic("qe2", &eliminated)?;
            }
            if eliminated.has_quantifier() {
                return Ok(None);
            }
            results.push(Term::and(&solved.guards).implies(&eliminated));
        }
        Ok(Some(Term::and(&results).simplify()))
    }
}

/// The cases of `∀ vars. ⋀ hyps → …`: each conjunct of the hypotheses that is a
/// disjunction whose every disjunct holds an int equation over a bound variable is split
/// (at most [`MAX_CASES`] cases); one case when none is.
fn cases(vars: &[Term], hyps: &[Term]) -> Vec<Vec<Term>> {
    {
        let mut rest = Vec::new();
        let mut splits: Vec<Vec<Term>> = Vec::new();
        let mut cases = 1;
        for h in hyps.iter().flat_map(|h| h.conjuncts()) {
            let disjuncts = h.disjuncts();
            let pinned = |d: &Term| {
                d.conjuncts()
                    .iter()
                    .any(|c| c.is_int_equation() && c.any_node(|n| vars.iter().any(|v| v.0 == *n)))
            };
            if disjuncts.len() > 1
                && cases * disjuncts.len() <= MAX_CASES
                && disjuncts.iter().all(pinned)
            {
                cases *= disjuncts.len();
                splits.push(disjuncts);
            } else {
                rest.push(h);
            }
        }
        (0..cases)
            .map(|k| {
                let mut case = rest.clone();
                let mut index = k;
                for disjuncts in &splits {
                    case.push(disjuncts[index % disjuncts.len()].clone());
                    index /= disjuncts.len();
                }
                case
            })
            .collect()
    }
}

impl Z3 {
    /// The tactic `name` followed by `simplify`, applied to `formula` under the deadline:
    /// the disjunction of the subgoals, simplified.
    fn apply_tactic(&self, name: &str, formula: &Term) -> Result<Term, Failure> {
        let goal = Goal::new(false, false, false);
        goal.assert(&b(formula));
        let mut tactic = Tactic::new(name).and_then(&Tactic::new("simplify"));
        if let Some(left) = self.remaining()? {
            tactic = tactic.try_for(left);
        }
        let result = tactic.apply(&goal, None).map_err(|e| {
            if let Err(stopped) = self.cancel.check() {
                stopped
            } else if self.remaining().is_err() || e.contains("timeout") || e.contains("canceled") {
                Failure::Timeout
            } else {
                Failure::Unknown(format!("quantifier elimination failed: {e}"))
            }
        })?;
        let disjuncts: Vec<Term> = result
            .list_subgoals()
            .map(|g| Term::and(&g.get_formulas().into_iter().map(wrap).collect::<Vec<_>>()))
            .collect();
        Ok(Term::or(&disjuncts).simplify())
    }

    /// Z3's simplifier (cheap, local rewriting).
    pub fn simplify(&self, formula: &Term) -> Result<Term, Failure> {
        self.remaining()?;
        Ok(formula.simplify())
    }

    /// A formula equivalent to `phi` in every world of `kappa`, built from `phi`'s own
    /// atoms: a disjunction of cubes, each taken from a model of κ ∧ φ and cut down to a
    /// minimal set of literals that still implies φ under κ (an unsat core, then literal
    /// by literal). The construction is the proof: every cube implies φ under κ, and the
    /// loop ends only when κ ∧ φ ∧ ¬(cubes) is unsatisfiable. None when it gives up
    /// (more than `max_cubes` cubes, or a solver `unknown`).
    pub fn shrink(
        &self,
        kappa: &Term,
        phi: &Term,
        max_cubes: usize,
    ) -> Result<Option<Term>, Failure> {
        let atoms = phi.atoms();
        let inside = self.solver_for(&Term::and(&[kappa.clone(), phi.clone()]))?; // κ ∧ φ ∧ ¬(cubes so far)
        inside.assert(b(kappa));
        inside.assert(b(phi));
        let outside = self.solver()?; // κ ∧ ¬φ: a cube implies φ when it is unsat here
        outside.assert(b(kappa));
        outside.assert(b(&phi.not()));
        let mut cubes: Vec<Term> = Vec::new();
        loop {
            match inside.check() {
                SatResult::Unsat => break,
                SatResult::Unknown => return self.gave_up(&inside),
                SatResult::Sat => {}
            }
            if cubes.len() == max_cubes {
                return Ok(None);
            }
            let Some(model) = inside.get_model() else {
                return Ok(None);
            };
            let mut lits: Vec<Bool> = Vec::with_capacity(atoms.len());
            for a in &atoms {
                let Some(v) = model.eval(&b(a), true).and_then(|v| v.as_bool()) else {
                    return Ok(None);
                };
                lits.push(if v { b(a) } else { b(a).not() });
            }
            match outside.check_assumptions(&lits) {
                SatResult::Unsat => {}
                SatResult::Unknown => return self.gave_up(&outside),
                // The model's literals pin φ down, so this cannot happen; give up safely.
                SatResult::Sat => return Ok(None),
            }
            let core = outside.get_unsat_core();
            lits.retain(|l| core.contains(l));
            let mut k = 0;
            while k < lits.len() {
                let mut fewer = lits.clone();
                fewer.remove(k);
                match outside.check_assumptions(&fewer) {
                    SatResult::Unsat => lits = fewer,
                    SatResult::Sat => k += 1,
                    SatResult::Unknown => return self.gave_up(&outside),
                }
            }
            let cube = wrap(Bool::and(&lits));
            inside.assert(b(&cube.not()));
            cubes.push(cube);
        }
        Ok(Some(Term::or(&cubes).simplify()))
    }

    fn gave_up<T>(&self, s: &Solver) -> Result<Option<T>, Failure> {
        match self.unknown(s) {
            e @ (Failure::Timeout | Failure::Interrupted) => Err(e),
            e => {
                tracing::debug!("shrinking gave up: {e}");
                Ok(None)
            }
        }
    }

    /// The least and greatest value of each int in `vars` over the models of `formula`,
    /// when Z3's optimizer finds them all (None when it cannot: then enumerate instead).
    /// One optimizer answers every bound at once (`priority=box`: each objective
    /// optimized on its own), a third of the cost of an optimizer per bound.
    pub fn ranges(
        &self,
        formula: &Term,
        vars: &[Term],
    ) -> Result<Option<Vec<(i64, i64)>>, Failure> {
        if vars.is_empty() {
            return Ok(Some(Vec::new()));
        }
        let opt = Optimize::new();
        let mut p = self.timeout_params()?.unwrap_or_default();
        p.set_symbol("priority", "box");
        opt.set_params(&p);
        opt.assert(b(formula));
        for v in vars {
            opt.minimize(&i(v));
            opt.maximize(&i(v));
        }
        match opt.check(&[]) {
            SatResult::Sat => {}
            SatResult::Unsat => return Ok(None),
            SatResult::Unknown => {
                self.remaining()?;
                return Ok(None);
            }
        }
        // Objective 2k minimizes vars[k], 2k + 1 maximizes it; an optimum is reached
        // when its lower and upper bounds are the same number (not ±∞).
        let optimum = |k: usize| {
            let k = u32::try_from(k).ok()?;
            let lower = opt.get_lower(k)?.as_int()?.as_i64()?;
            let upper = opt.get_upper(k)?.as_int()?.as_i64()?;
            (lower == upper).then_some(lower)
        };
        Ok((0..vars.len())
            .map(|k| Some((optimum(2 * k)?, optimum(2 * k + 1)?)))
            .collect())
    }

    /// Whether the int `var` takes unboundedly large (or small) values in the models of
    /// `formula`, as Z3's optimizer proves it: then `formula` has infinitely many models.
    /// False when the optimizer finds both ends, or cannot tell (non-linear arithmetic).
    pub fn unbounded(&self, formula: &Term, var: &Term) -> Result<bool, Failure> {
        for maximize in [false, true] {
            let opt = Optimize::new();
            if let Some(p) = self.timeout_params()? {
                opt.set_params(&p);
            }
            opt.assert(b(formula));
            if maximize {
                opt.maximize(&i(var));
            } else {
                opt.minimize(&i(var));
            }
            match opt.check(&[]) {
                SatResult::Sat => {}
                SatResult::Unsat => return Ok(false),
                SatResult::Unknown => {
                    self.remaining()?;
                    return Ok(false);
                }
            }
            let end = if maximize {
                opt.get_upper(0)
            } else {
                opt.get_lower(0)
            };
            // A finite optimum is a numeral (of any size); an unbounded one is `oo` (or
            // `-oo`).
            if end.is_some_and(|e| e.kind() != AstKind::Numeral) {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Models of `formula` projected on `vars`, each distinct, up to `cap` of them, with
    /// every int variable within `[-bound, bound]` when a bound is given. Returns the
    /// worlds found and whether the solver proved there are no more.
    pub fn enumerate(
        &self,
        formula: &Term,
        vars: &[Term],
        bound: Option<u64>,
        cap: usize,
    ) -> Result<(Vec<Vec<Value>>, bool), Failure> {
        let s = self.solver_for(formula)?;
        s.assert(b(formula));
        if let Some(bound) = bound {
            // Up to 2^63: the magnitude of -2^63, which `-(i64::MAX)` would leave out.
            let upper = Term::integer(&Integer::from(i128::from(bound)));
            let lower = Term::integer(&Integer::from(-i128::from(bound)));
            for v in vars.iter().filter(|v| !v.is_bool()) {
                s.assert(b(&v.le(&upper)));
                s.assert(b(&lower.le(v)));
            }
        }
        let mut worlds = Vec::new();
        loop {
            match s.check() {
                SatResult::Unsat => return Ok((worlds, true)),
                SatResult::Unknown => return Err(self.unknown(&s)),
                SatResult::Sat => {}
            }
            if worlds.len() == cap {
                return Ok((worlds, false));
            }
            let model = s
                .get_model()
                .ok_or_else(|| Failure::Unknown("no model for a satisfiable formula".into()))?;
            let mut world = Vec::with_capacity(vars.len());
            let mut differs = Vec::with_capacity(vars.len());
            for v in vars {
                let t = model
                    .eval(&v.0, true)
                    .ok_or_else(|| Failure::Unknown(format!("the model gives no value to {v}")))?;
                let value = Term(t.clone()).as_value().ok_or_else(|| {
                    Failure::Unsupported(format!(
                        "a possible world has {v} = {t}: values beyond the 64-bit integers (-2^63 to 2^63 - 1) are not supported"
                    ))
                })?;
                differs.push(v.eq(&Term::value(value)).not());
                world.push(value);
            }
            worlds.push(world);
            s.assert(b(&Term::or(&differs)));
            if let Some(p) = self.timeout_params()? {
                s.set_params(&p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_evaluation_is_exact_past_128_bits() {
        let a = Term::int_var("a");
        let vars = [a.clone()];
        // a^6 = 10^42 for a = 10^7: past i128, where wrapping made it negative.
        let power = (0..5).fold(a.clone(), |p, _| p.mul(&a));
        let positive = Term::int(0).lt(&power).compile(&vars);
        assert!(positive.is_native());
        let world = [Value::Int(10_000_000)];
        let mut scratch = Vec::new();
        assert_eq!(positive.eval(&world, &mut scratch), Ok(Value::Bool(true)));
        // Exactly: 10^42 / 10^35 = 10^7, back within 64 bits.
        let back = power.div(&(0..4).fold(a.clone(), |p, _| p.mul(&a)));
        let back = back.div(&Term::int(1000)).compile(&vars);
        assert!(back.is_native());
        assert_eq!(back.eval(&world, &mut scratch), Ok(Value::Int(10_000)));
        // A value no world can hold is an error, not a wrapped number.
        let huge = power.compile(&vars);
        assert!(matches!(
            huge.eval(&world, &mut scratch),
            Err(Failure::Unsupported(m)) if m.contains("beyond the 64-bit integers")
        ));
        // Small worlds still take the i128 path and agree.
        assert_eq!(
            positive.eval(&[Value::Int(-3)], &mut scratch),
            Ok(Value::Bool(true))
        );
        assert_eq!(
            back.eval(&[Value::Int(-3)], &mut scratch),
            Ok(Value::Int(-1))
        );
    }

    #[test]
    fn an_optimum_beyond_64_bits_is_finite() {
        let x = Term::int_var("x");
        let big = Term::int(i64::MAX).add(&Term::int(1));
        let z3 = Z3::new(None);
        assert_eq!(z3.unbounded(&x.eq(&big), &x), Ok(false));
        assert_eq!(z3.unbounded(&big.le(&x), &x), Ok(true));
    }
}
