//! Every call into Z3 lives in this module. The rest of the crate sees owned [`Term`]s
//! and a [`Z3`] handle that carries the run's deadline, and gets typed errors back.
//!
//! Z3 contexts are thread-local in the z3 crate: a `Term` must stay on the thread that
//! made it.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use z3::ast::{Ast, Bool, Dynamic, Int};
use z3::{AstKind, DeclKind, Goal, Model, Optimize, Params, SatResult, Solver, SortKind, Tactic};

use super::error::SolverError;
use crate::ir::ArithOp;
use crate::ir::arith::{self, Integer};
use crate::worlds::Value;

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

/// An int or bool term.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Term(Dynamic);

impl std::fmt::Debug for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::fmt::Display for Term {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

fn b(t: &Term) -> Bool {
    t.0.as_bool()
        .expect("engine builds well-sorted terms: expected bool")
}

fn i(t: &Term) -> Int {
    t.0.as_int()
        .expect("engine builds well-sorted terms: expected int")
}

fn wrap(a: impl Ast) -> Term {
    Term(Dynamic::from_ast(&a))
}

impl Term {
    pub fn int_var(name: &str) -> Term {
        wrap(Int::new_const(name))
    }

    pub fn bool_var(name: &str) -> Term {
        wrap(Bool::new_const(name))
    }

    /// A fresh constant of the same sort, for a bound copy of a world variable.
    pub fn fresh_like(&self, prefix: &str) -> Term {
        Term(Dynamic::fresh_const(prefix, &self.0.get_sort()))
    }

    pub fn int(n: i64) -> Term {
        wrap(Int::from_i64(n))
    }

    pub fn bool(v: bool) -> Term {
        wrap(Bool::from_bool(v))
    }

    /// An integer literal of any size.
    pub fn integer(n: &Integer) -> Term {
        match n.to_i64() {
            Some(v) => Term::int(v),
            None => wrap(n.to_string().parse::<Int>().expect("a decimal numeral")),
        }
    }

    pub fn value(v: Value) -> Term {
        match v {
            Value::Int(n) => Term::int(n),
            Value::Bool(v) => Term::bool(v),
        }
    }

    pub fn is_bool(&self) -> bool {
        self.0.sort_kind() == SortKind::Bool
    }

    /// The literal value of a ground term, if it is one.
    pub fn as_value(&self) -> Option<Value> {
        if self.is_bool() {
            b(self).as_bool().map(Value::Bool)
        } else {
            i(self).as_i64().map(Value::Int)
        }
    }

    pub fn add(&self, o: &Term) -> Term {
        wrap(Int::add(&[i(self), i(o)]))
    }

    pub fn sub(&self, o: &Term) -> Term {
        wrap(Int::sub(&[i(self), i(o)]))
    }

    pub fn mul(&self, o: &Term) -> Term {
        wrap(Int::mul(&[i(self), i(o)]))
    }

    fn nonzero_literal(&self) -> bool {
        i(self).as_i64().is_some_and(|n| n != 0)
    }

    /// SMT-LIB integer division, with `x / 0` defined as 0.
    pub fn div(&self, o: &Term) -> Term {
        let q = i(self).div(i(o));
        if o.nonzero_literal() {
            wrap(q)
        } else {
            wrap(i(o).eq(Int::from_i64(0)).ite(&Int::from_i64(0), &q))
        }
    }

    /// SMT-LIB modulo, with `x % 0` defined as x.
    pub fn modulo(&self, o: &Term) -> Term {
        let r = i(self).modulo(i(o));
        if o.nonzero_literal() {
            wrap(r)
        } else {
            wrap(i(o).eq(Int::from_i64(0)).ite(&i(self), &r))
        }
    }

    pub fn neg(&self) -> Term {
        wrap(i(self).unary_minus())
    }

    pub fn eq(&self, o: &Term) -> Term {
        wrap(self.0.eq(&o.0))
    }

    pub fn lt(&self, o: &Term) -> Term {
        wrap(i(self).lt(i(o)))
    }

    pub fn le(&self, o: &Term) -> Term {
        wrap(i(self).le(i(o)))
    }

    pub fn not(&self) -> Term {
        wrap(b(self).not())
    }

    pub fn and(terms: &[Term]) -> Term {
        match terms {
            [] => Term::bool(true),
            [t] => t.clone(),
            _ => wrap(Bool::and(&terms.iter().map(b).collect::<Vec<_>>())),
        }
    }

    pub fn or(terms: &[Term]) -> Term {
        match terms {
            [] => Term::bool(false),
            [t] => t.clone(),
            _ => wrap(Bool::or(&terms.iter().map(b).collect::<Vec<_>>())),
        }
    }

    pub fn implies(&self, o: &Term) -> Term {
        wrap(b(self).implies(b(o)))
    }

    pub fn iff(&self, o: &Term) -> Term {
        wrap(b(self).iff(b(o)))
    }

    pub fn ite(&self, then: &Term, otherwise: &Term) -> Term {
        Term(b(self).ite(&then.0, &otherwise.0))
    }

    /// ∀ vars. body, with every `t div k` and `t mod k` (k a non-zero literal, t mentioning
    /// a bound variable) replaced by fresh bound q and r under `t = k·q + r ∧ 0 ≤ r < |k|`. That is
    /// equivalent (q and r are determined by t) and keeps div and mod away from Z3's `qe`
    /// tactic, which answers wrongly on some of them in Z3 5.4 (see docs/encoding.md).
    pub fn forall(vars: &[Term], body: &Term) -> Term {
        if vars.is_empty() {
            return body.clone();
        }
        let (body, divisions) = body.purify_divisions(vars);
        let mut bound: Vec<&dyn Ast> = vars.iter().map(|v| &v.0 as &dyn Ast).collect();
        let mut definitions = Vec::new();
        for d in &divisions {
            bound.push(&d.quotient.0);
            bound.push(&d.remainder.0);
            definitions.push(d.definition());
        }
        let body = Term::and(&definitions).implies(&body);
        wrap(z3::ast::forall_const(&bound, &[], &b(&body)))
    }

    /// The term with each division of a term over `bound` by a non-zero literal replaced
    /// by fresh variables, and the divisions so replaced (inner ones first). Divisions of
    /// terms over free variables stay: they are opaque terms to quantifier elimination.
    fn purify_divisions(&self, bound: &[Term]) -> (Term, Vec<Division>) {
        use std::collections::HashMap;
        let mut found: HashMap<(Dynamic, i64), usize> = HashMap::new();
        let mut divisions: Vec<Division> = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![(self.0.clone(), false)];
        // Post-order, so that an inner division is numbered before one containing it.
        while let Some((t, expanded)) = stack.pop() {
            if !expanded {
                if !seen.insert(t.clone()) || t.kind() != AstKind::App {
                    continue;
                }
                stack.push((t.clone(), true));
                stack.extend(t.children().into_iter().map(|c| (c, false)));
                continue;
            }
            if !matches!(t.decl().kind(), DeclKind::Idiv | DeclKind::Mod) {
                continue;
            }
            let args = t.children();
            let Some(k) = args
                .get(1)
                .and_then(|a| a.as_int())
                .and_then(|a| a.as_i64())
                .filter(|k| *k != 0)
            else {
                continue;
            };
            if !Term(args[0].clone()).any_node(|n| bound.iter().any(|v| v.0 == *n)) {
                continue;
            }
            found.entry((args[0].clone(), k)).or_insert_with(|| {
                divisions.push(Division {
                    dividend: Term(args[0].clone()),
                    divisor: k,
                    quotient: wrap(Int::fresh_const("q")),
                    remainder: wrap(Int::fresh_const("r")),
                });
                divisions.len() - 1
            });
        }
        if divisions.is_empty() {
            return (self.clone(), divisions);
        }
        // Replace every `t div k` / `t mod k` by q / r, in the body and in the dividends.
        let mut from = Vec::new();
        let mut to = Vec::new();
        for d in &divisions {
            from.push(wrap(i(&d.dividend).div(Int::from_i64(d.divisor))));
            to.push(d.quotient.clone());
            from.push(wrap(i(&d.dividend).modulo(Int::from_i64(d.divisor))));
            to.push(d.remainder.clone());
        }
        for d in &mut divisions {
            d.dividend = d.dividend.substitute(&from, &to);
        }
        (self.substitute(&from, &to), divisions)
    }

    /// Replaces each `from[k]` by `to[k]`.
    pub fn substitute(&self, from: &[Term], to: &[Term]) -> Term {
        let pairs: Vec<(&Dynamic, &Dynamic)> =
            from.iter().zip(to).map(|(f, t)| (&f.0, &t.0)).collect();
        Term(self.0.substitute(&pairs))
    }

    /// The conjuncts of a conjunction (nested ones flattened); else the term itself.
    fn conjuncts(&self) -> Vec<Term> {
        self.flatten(DeclKind::And)
    }

    /// The disjuncts of a disjunction (nested ones flattened); else the term itself.
    fn disjuncts(&self) -> Vec<Term> {
        self.flatten(DeclKind::Or)
    }

    fn flatten(&self, kind: DeclKind) -> Vec<Term> {
        let mut out = Vec::new();
        let mut stack = vec![self.0.clone()];
        while let Some(t) = stack.pop() {
            if t.kind() == AstKind::App && t.decl().kind() == kind {
                stack.extend(t.children().into_iter().rev());
            } else {
                out.push(Term(t));
            }
        }
        out
    }

    /// Whether the term is an equation between ints.
    fn is_int_equation(&self) -> bool {
        self.0.kind() == AstKind::App
            && self.0.decl().kind() == DeclKind::Eq
            && self
                .0
                .children()
                .first()
                .is_some_and(|c| c.sort_kind() == SortKind::Int)
    }

    /// Z3's bottom-up simplifier.
    pub fn simplify(&self) -> Term {
        Term(self.0.simplify())
    }

    /// Number of distinct nodes in the term's DAG.
    pub fn dag_size(&self) -> usize {
        let mut seen = HashSet::new();
        let mut stack = vec![self.0.clone()];
        while let Some(t) = stack.pop() {
            if seen.insert(t.clone()) {
                stack.extend(t.children());
            }
        }
        seen.len()
    }

    /// Whether any quantifier is left in the term.
    pub fn has_quantifier(&self) -> bool {
        self.any_node(|t| t.kind() == AstKind::Quantifier)
    }

    /// Whether the term multiplies, divides or takes the modulus of two non-literals,
    /// which puts it outside linear integer arithmetic (where `qe` is complete).
    pub fn is_nonlinear(&self) -> bool {
        self.any_node(|t| {
            if t.kind() != AstKind::App {
                return false;
            }
            let kind = t.decl().kind();
            let args = t.children();
            let literal = |a: &Dynamic| a.kind() == AstKind::Numeral;
            match kind {
                DeclKind::Mul => args.iter().filter(|a| !literal(a)).count() > 1,
                DeclKind::Idiv | DeclKind::Mod | DeclKind::Rem | DeclKind::Div => {
                    args.len() == 2 && !literal(&args[1])
                }
                DeclKind::Power => true,
                _ => false,
            }
        })
    }

    /// The term's atoms: its maximal boolean subterms that are not boolean connectives
    /// (comparisons, and boolean constants), each once, in order of first appearance.
    pub fn atoms(&self) -> Vec<Term> {
        let mut seen = HashSet::new();
        let mut atoms = Vec::new();
        let mut stack = vec![self.0.clone()];
        while let Some(t) = stack.pop() {
            if !seen.insert(t.clone()) || t.sort_kind() != SortKind::Bool {
                continue;
            }
            let connective = t.kind() == AstKind::App
                && match t.decl().kind() {
                    DeclKind::And
                    | DeclKind::Or
                    | DeclKind::Not
                    | DeclKind::Implies
                    | DeclKind::Iff
                    | DeclKind::Xor => true,
                    DeclKind::Ite => true,
                    DeclKind::Eq | DeclKind::Distinct => t
                        .children()
                        .first()
                        .is_some_and(|c| c.sort_kind() == SortKind::Bool),
                    _ => false,
                };
            match t.kind() {
                AstKind::App if connective => {
                    let children = t.children();
                    // The condition of a boolean `ite` is a formula too; keep the order stable.
                    stack.extend(children.into_iter().rev());
                }
                AstKind::App if !matches!(t.decl().kind(), DeclKind::True | DeclKind::False) => {
                    atoms.push(Term(t))
                }
                _ => {}
            }
        }
        atoms
    }

    fn any_node(&self, pred: impl Fn(&Dynamic) -> bool) -> bool {
        let mut seen = HashSet::new();
        let mut stack = vec![self.0.clone()];
        while let Some(t) = stack.pop() {
            if pred(&t) {
                return true;
            }
            if seen.insert(t.clone()) {
                if t.kind() == AstKind::Quantifier {
                    continue;
                }
                stack.extend(t.children());
            }
        }
        false
    }
}

/// `dividend = divisor · quotient + remainder`, with `0 ≤ remainder < |divisor|`.
struct Division {
    dividend: Term,
    divisor: i64,
    quotient: Term,
    remainder: Term,
}

impl Division {
    fn definition(&self) -> Term {
        let k = Term::int(self.divisor);
        Term::and(&[
            self.dividend
                .eq(&k.mul(&self.quotient).add(&self.remainder)),
            Term::int(0).le(&self.remainder),
            self.remainder.lt(&Term::int(
                self.divisor.unsigned_abs().min(i64::MAX as u64) as i64
            )),
        ])
    }
}

/// A world as an assignment to the world variables, for evaluating ground terms.
struct Assignment {
    model: Model,
}

impl Assignment {
    fn new(vars: &[Term], values: &[Value]) -> Assignment {
        let model = Model::new();
        for (var, value) in vars.iter().zip(values) {
            let decl = var.0.decl();
            model.add_const_interp(&decl, &Term::value(*value).0);
        }
        Assignment { model }
    }

    /// The exact value of `term` in this world (bools as 0 and 1).
    fn eval_exact(&self, term: &Term) -> Result<Integer, SolverError> {
        let t = self.model.eval(&term.0, true).ok_or_else(|| {
            SolverError::Unsupported("Z3 could not evaluate a term in a world".into())
        })?;
        let t = Term(t);
        if t.is_bool() {
            return match b(&t).as_bool() {
                Some(v) => Ok(Integer::from(i64::from(v))),
                None => Err(SolverError::Unsupported(format!(
                    "Z3 left a term unevaluated in a world: {term}"
                ))),
            };
        }
        // A numeral prints as `123` or `(- 123)`.
        let text = t.to_string();
        let digits = text.trim_start_matches("(- ").trim_end_matches(')');
        match digits.parse::<num_bigint::BigInt>() {
            Ok(n) if text.starts_with("(- ") => Ok(Integer::from(-n)),
            Ok(n) => Ok(Integer::from(n)),
            Err(_) => Err(SolverError::Unsupported(format!(
                "Z3 left a term unevaluated in a world: {term}"
            ))),
        }
    }

    /// The value of `term` in this world (unassigned variables default to 0/false).
    fn eval(&self, term: &Term) -> Result<Value, SolverError> {
        let t = self.model.eval(&term.0, true).ok_or_else(|| {
            SolverError::Unsupported("Z3 could not evaluate a term in a world".into())
        })?;
        Term(t).as_value().ok_or_else(|| {
            SolverError::Unsupported(format!("Z3 left a term unevaluated in a world: {term}"))
        })
    }
}

/// Quantifier elimination by cases gives up beyond this many cases.
const MAX_CASES: usize = 16;

/// The handle through which the engine asks Z3 questions; it enforces the deadline.
pub struct Z3 {
    deadline: Option<Instant>,
}

/// What eliminating the quantifiers of a formula gave.
pub enum Eliminated {
    /// A quantifier-free equivalent.
    Free(Term),
    /// Z3 could not remove every quantifier (non-linear arithmetic).
    Leftover,
}

impl Z3 {
    pub fn new(timeout: Option<Duration>) -> Z3 {
        Z3 {
            deadline: timeout.map(|t| Instant::now() + t),
        }
    }

    /// Milliseconds left before the deadline (None: no deadline).
    fn remaining(&self) -> Result<Option<Duration>, SolverError> {
        match self.deadline {
            None => Ok(None),
            Some(d) => {
                let now = Instant::now();
                if now >= d {
                    Err(SolverError::Timeout)
                } else {
                    Ok(Some(d - now))
                }
            }
        }
    }

    /// Z3's `timeout` parameter set to the time left (None: no deadline).
    fn timeout_params(&self) -> Result<Option<Params>, SolverError> {
        Ok(self.remaining()?.map(|left| {
            let mut p = Params::new();
            p.set_u32(
                "timeout",
                left.as_millis().clamp(1, u32::MAX as u128) as u32,
            );
            p
        }))
    }

    fn solver(&self) -> Result<Solver, SolverError> {
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
    fn solver_for(&self, formula: &Term) -> Result<Solver, SolverError> {
        if formula.is_nonlinear() || formula.has_quantifier() {
            return self.solver();
        }
        let s = Tactic::new("smt").solver();
        if let Some(p) = self.timeout_params()? {
            s.set_params(&p);
        }
        Ok(s)
    }

    fn unknown(&self, s: &Solver) -> SolverError {
        let reason = s.get_reason_unknown().unwrap_or_else(|| "unknown".into());
        if self.remaining().is_err() || reason.contains("timeout") || reason.contains("canceled") {
            SolverError::Timeout
        } else if reason.contains("resource") || reason.contains("memory") {
            SolverError::ResourceLimit(reason)
        } else {
            SolverError::Unknown(reason)
        }
    }

    /// Whether `formula` holds in every world.
    pub fn is_valid(&self, formula: &Term) -> Result<bool, SolverError> {
        Ok(!self.is_sat(&formula.not())?)
    }

    /// Whether some world satisfies `formula`.
    pub fn is_sat(&self, formula: &Term) -> Result<bool, SolverError> {
        let s = self.solver_for(formula)?;
        s.assert(b(formula));
        match s.check() {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => Err(self.unknown(&s)),
        }
    }

    /// Quantifier elimination followed by simplification. Checks the result really is
    /// quantifier-free.
    pub fn eliminate_quantifiers(&self, formula: &Term) -> Result<Eliminated, SolverError> {
        if !formula.has_quantifier() {
            return Ok(Eliminated::Free(self.simplify(formula)?));
        }
        let eliminated = self.apply_tactic("qe", formula)?;
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
    ) -> Result<Eliminated, SolverError> {
        if let Some(t) = self.eliminate_by_cases(vars, hyps, conclusion)? {
            return Ok(Eliminated::Free(t));
        }
        self.eliminate_quantifiers(&Term::forall(vars, &Term::and(hyps).implies(conclusion)))
    }

    fn eliminate_by_cases(
        &self,
        vars: &[Term],
        hyps: &[Term],
        conclusion: &Term,
    ) -> Result<Option<Term>, SolverError> {
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
        let mut results = Vec::with_capacity(cases);
        for k in 0..cases {
            let mut case = rest.clone();
            let mut index = k;
            for disjuncts in &splits {
                case.push(disjuncts[index % disjuncts.len()].clone());
                index /= disjuncts.len();
            }
            let formula = Term::forall(vars, &Term::and(&case).implies(conclusion));
            let eliminated = self.apply_tactic("qe-light", &formula)?;
            if eliminated.has_quantifier() {
                return Ok(None);
            }
            results.push(eliminated);
        }
        Ok(Some(Term::and(&results).simplify()))
    }

    /// The tactic `name` followed by `simplify`, applied to `formula` under the deadline:
    /// the disjunction of the subgoals, simplified.
    fn apply_tactic(&self, name: &str, formula: &Term) -> Result<Term, SolverError> {
        let goal = Goal::new(false, false, false);
        goal.assert(&b(formula));
        let mut tactic = Tactic::new(name).and_then(&Tactic::new("simplify"));
        if let Some(left) = self.remaining()? {
            tactic = tactic.try_for(left);
        }
        let result = tactic.apply(&goal, None).map_err(|e| {
            if self.remaining().is_err() || e.contains("timeout") || e.contains("canceled") {
                SolverError::Timeout
            } else {
                SolverError::Unknown(format!("quantifier elimination failed: {e}"))
            }
        })?;
        let disjuncts: Vec<Term> = result
            .list_subgoals()
            .map(|g| Term::and(&g.get_formulas().into_iter().map(wrap).collect::<Vec<_>>()))
            .collect();
        Ok(Term::or(&disjuncts).simplify())
    }

    /// Z3's simplifier (cheap, local rewriting).
    pub fn simplify(&self, formula: &Term) -> Result<Term, SolverError> {
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
    ) -> Result<Option<Term>, SolverError> {
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

    fn gave_up<T>(&self, s: &Solver) -> Result<Option<T>, SolverError> {
        match self.unknown(s) {
            SolverError::Timeout => Err(SolverError::Timeout),
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
    ) -> Result<Option<Vec<(i64, i64)>>, SolverError> {
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
                if self.remaining().is_err() {
                    return Err(SolverError::Timeout);
                }
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
    pub fn unbounded(&self, formula: &Term, var: &Term) -> Result<bool, SolverError> {
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
    ) -> Result<(Vec<Vec<Value>>, bool), SolverError> {
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
                .ok_or_else(|| SolverError::Unknown("no model for a satisfiable formula".into()))?;
            let mut world = Vec::with_capacity(vars.len());
            let mut differs = Vec::with_capacity(vars.len());
            for v in vars {
                let t = model.eval(&v.0, true).ok_or_else(|| {
                    SolverError::Unknown(format!("the model gives no value to {v}"))
                })?;
                let value = Term(t.clone()).as_value().ok_or_else(|| {
                    SolverError::Unsupported(format!(
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

/// One node of a [`Compiled`] term; children are indices of earlier nodes.
#[derive(Debug, Clone)]
enum Node {
    Lit(i128),
    Var(usize),
    Not(usize),
    And(Vec<usize>),
    Or(Vec<usize>),
    Xor(usize, usize),
    Implies(usize, usize),
    Eq(usize, usize),
    Distinct(Vec<usize>),
    Ite(usize, usize, usize),
    Le(usize, usize),
    Lt(usize, usize),
    Add(Vec<usize>),
    Sub(Vec<usize>),
    Neg(usize),
    Mul(Vec<usize>),
    Div(usize, usize),
    Mod(usize, usize),
    Rem(usize, usize),
    Abs(usize),
    /// A disjunction of cubes over the same atoms: whether the atoms' values are one of
    /// the cubes' rows.
    InSet(Vec<usize>, HashSet<Vec<i128>>),
}

/// A quantifier-free term compiled for fast evaluation in explicit worlds: its DAG in
/// topological order, over the indices of the world variables. Terms with constructs it
/// does not know are evaluated by Z3's model evaluator instead.
pub struct Compiled {
    plan: Result<Vec<Node>, Term>,
    vars: Vec<Term>,
    is_bool: bool,
}

impl Term {
    /// Compiles the term for evaluation in worlds that give `vars` their values.
    pub fn compile(&self, vars: &[Term]) -> Compiled {
        Compiled {
            plan: compile_nodes(&self.0, vars).ok_or_else(|| self.clone()),
            vars: vars.to_vec(),
            is_bool: self.is_bool(),
        }
    }
}

fn compile_nodes(root: &Dynamic, vars: &[Term]) -> Option<Vec<Node>> {
    use std::collections::HashMap;
    let var_index: HashMap<&Dynamic, usize> =
        vars.iter().enumerate().map(|(k, v)| (&v.0, k)).collect();
    let mut index: HashMap<Dynamic, usize> = HashMap::new();
    let mut nodes = Vec::new();
    let mut tables: HashMap<Dynamic, (Vec<Dynamic>, HashSet<Vec<i128>>)> = HashMap::new();
    // Iterative post-order: deep `ite` chains must not overflow the stack.
    let mut stack: Vec<(Dynamic, bool)> = vec![(root.clone(), false)];
    while let Some((t, expanded)) = stack.pop() {
        if index.contains_key(&t) {
            continue;
        }
        let children = match t.kind() {
            AstKind::Numeral => Vec::new(),
            AstKind::App => t.children(),
            _ => return None,
        };
        if !expanded {
            stack.push((t.clone(), true));
            // A disjunction of cubes over the same atoms needs only the atoms compiled.
            let children = match dnf_table(&t) {
                Some(table) => {
                    let atoms = table.0.clone();
                    tables.insert(t.clone(), table);
                    atoms
                }
                None => children,
            };
            stack.extend(
                children
                    .into_iter()
                    .filter(|c| !index.contains_key(c))
                    .map(|c| (c, false)),
            );
            continue;
        }
        if let Some((atoms, rows)) = tables.remove(&t) {
            let node = Node::InSet(atoms.iter().map(|a| index[a]).collect(), rows);
            index.insert(t, nodes.len());
            nodes.push(node);
            continue;
        }
        let args: Vec<usize> = children.iter().map(|c| index[c]).collect();
        let two = |f: fn(usize, usize) -> Node| (args.len() == 2).then(|| f(args[0], args[1]));
        let node = match t.kind() {
            AstKind::Numeral => Node::Lit(t.as_int()?.as_i64()? as i128),
            _ => match t.decl().kind() {
                DeclKind::True => Node::Lit(1),
                DeclKind::False => Node::Lit(0),
                DeclKind::Uninterpreted if args.is_empty() => Node::Var(*var_index.get(&t)?),
                DeclKind::Not => Node::Not(args[0]),
                DeclKind::And => Node::And(args),
                DeclKind::Or => Node::Or(args),
                DeclKind::Xor => two(Node::Xor)?,
                DeclKind::Implies => two(Node::Implies)?,
                DeclKind::Eq | DeclKind::Iff => two(Node::Eq)?,
                DeclKind::Distinct => Node::Distinct(args),
                DeclKind::Ite => Node::Ite(args[0], args[1], args[2]),
                DeclKind::Le => two(Node::Le)?,
                DeclKind::Lt => two(Node::Lt)?,
                DeclKind::Ge => two(|a, b| Node::Le(b, a))?,
                DeclKind::Gt => two(|a, b| Node::Lt(b, a))?,
                DeclKind::Add => Node::Add(args),
                DeclKind::Sub => Node::Sub(args),
                DeclKind::Uminus => Node::Neg(args[0]),
                DeclKind::Mul => Node::Mul(args),
                DeclKind::Idiv => two(Node::Div)?,
                DeclKind::Mod => two(Node::Mod)?,
                DeclKind::Rem => two(Node::Rem)?,
                DeclKind::Abs => Node::Abs(args[0]),
                _ => return None,
            },
        };
        index.insert(t, nodes.len());
        nodes.push(node);
    }
    Some(nodes)
}

/// For `or(cube, …)` with at least 4 cubes, each a conjunction of literals over one and
/// the same set of atoms (`p`, `not p`, `t = 7`): the atoms, and each cube's row of
/// values (bools as 0/1). None for anything else.
#[allow(clippy::type_complexity)]
fn dnf_table(t: &Dynamic) -> Option<(Vec<Dynamic>, HashSet<Vec<i128>>)> {
    if t.kind() != AstKind::App || t.decl().kind() != DeclKind::Or || t.num_children() < 4 {
        return None;
    }
    let is_bool_const = |x: &Dynamic| {
        x.kind() == AstKind::App
            && x.decl().kind() == DeclKind::Uninterpreted
            && x.num_children() == 0
    };
    let literal = |l: &Dynamic| -> Option<(Dynamic, i128)> {
        if l.sort_kind() == SortKind::Bool && is_bool_const(l) {
            return Some((l.clone(), 1));
        }
        if l.kind() != AstKind::App {
            return None;
        }
        let args = l.children();
        match l.decl().kind() {
            DeclKind::Not if is_bool_const(&args[0]) => Some((args[0].clone(), 0)),
            DeclKind::Eq if args.len() == 2 => {
                let num = |x: &Dynamic| {
                    (x.kind() == AstKind::Numeral)
                        .then(|| x.as_int()?.as_i64())
                        .flatten()
                };
                match (num(&args[0]), num(&args[1])) {
                    (None, Some(v)) => Some((args[0].clone(), v as i128)),
                    (Some(v), None) => Some((args[1].clone(), v as i128)),
                    _ => None,
                }
            }
            _ => None,
        }
    };
    let mut atoms: Vec<Dynamic> = Vec::new();
    let mut position: std::collections::HashMap<Dynamic, usize> = std::collections::HashMap::new();
    let mut rows = HashSet::new();
    for (k, cube) in t.children().iter().enumerate() {
        let lits = if cube.kind() == AstKind::App && cube.decl().kind() == DeclKind::And {
            cube.children()
        } else {
            vec![cube.clone()]
        };
        let mut row: Vec<Option<i128>> = vec![None; atoms.len().max(lits.len())];
        for l in &lits {
            let (atom, value) = literal(l)?;
            let p = if k == 0 {
                *position.entry(atom.clone()).or_insert_with(|| {
                    atoms.push(atom);
                    atoms.len() - 1
                })
            } else {
                *position.get(&atom)?
            };
            if row[p].replace(value).is_some() {
                return None;
            }
        }
        if row.len() != atoms.len() || row.iter().any(|v| v.is_none()) {
            return None;
        }
        rows.insert(row.into_iter().map(|v| v.expect("checked above")).collect());
    }
    Some((atoms, rows))
}

impl Compiled {
    /// Whether evaluation runs natively (not through Z3's model evaluator).
    pub fn is_native(&self) -> bool {
        self.plan.is_ok()
    }

    /// The term's value in `world` (values of the variables, in order). Integers are
    /// mathematical: the world is evaluated on i128, and again exactly when an
    /// intermediate value leaves i128, never wrapped around.
    pub fn eval(&self, world: &[Value], scratch: &mut Vec<i128>) -> Result<Value, SolverError> {
        let nodes = match &self.plan {
            Ok(nodes) => nodes,
            Err(term) => return Assignment::new(&self.vars, world).eval(term),
        };
        let top = exact(nodes, world, scratch);
        if self.is_bool {
            Ok(Value::Bool(top != Integer::from(0i128)))
        } else {
            top.to_i64().map(Value::Int).ok_or_else(|| {
                SolverError::Unsupported(format!(
                    "a value in a world is {top}, beyond the 64-bit integers (-2^63 to 2^63 - 1) worlds hold"
                ))
            })
        }
    }
}

impl Compiled {
    /// The term's exact value in `world`, however large (bools as 0 and 1): what a
    /// character observes of a learned expression, which a world need not hold.
    pub fn eval_exact(
        &self,
        world: &[Value],
        scratch: &mut Vec<i128>,
    ) -> Result<Integer, SolverError> {
        match &self.plan {
            Ok(nodes) => Ok(exact(nodes, world, scratch)),
            Err(term) => Assignment::new(&self.vars, world).eval_exact(term),
        }
    }
}

/// The value of the compiled term's nodes in `world`: on i128, or exactly when a value
/// leaves i128.
fn exact(nodes: &[Node], world: &[Value], scratch: &mut Vec<i128>) -> Integer {
    match run(nodes, world, scratch) {
        Some(top) => Integer::from(top),
        None => run::<Integer>(nodes, world, &mut Vec::new())
            .expect("exact arithmetic does not overflow"),
    }
}

/// The numbers [`run`] computes with: i128, which says when a result does not fit, or
/// exact integers.
trait Number: Clone + Ord + From<i128> {
    /// `self op other` (None: it does not fit).
    fn arith(&self, op: ArithOp, other: &Self) -> Option<Self>;
    /// `-self` (None: it does not fit).
    fn neg(&self) -> Option<Self>;
    /// The value as an i128, when it is one.
    fn small(&self) -> Option<i128>;
}

impl Number for i128 {
    fn arith(&self, op: ArithOp, other: &i128) -> Option<i128> {
        arith::checked(op, *self, *other)
    }

    fn neg(&self) -> Option<i128> {
        self.checked_neg()
    }

    fn small(&self) -> Option<i128> {
        Some(*self)
    }
}

impl Number for Integer {
    fn arith(&self, op: ArithOp, other: &Integer) -> Option<Integer> {
        Some(Integer::arith(self, op, other))
    }

    fn neg(&self) -> Option<Integer> {
        Some(Integer::neg(self))
    }

    fn small(&self) -> Option<i128> {
        match self {
            Integer::Small(v) => Some(*v),
            Integer::Big(_) => None,
        }
    }
}

/// The value of the compiled term's nodes in `world` (bools as 0 and 1): the last
/// node's, or None when a value does not fit in `N`.
fn run<N: Number>(nodes: &[Node], world: &[Value], scratch: &mut Vec<N>) -> Option<N> {
    scratch.clear();
    let (zero, one) = (N::from(0), N::from(1));
    let b = |x: bool| if x { one.clone() } else { zero.clone() };
    let fold = |start: N, op: ArithOp, xs: &[usize], scratch: &[N]| {
        xs.iter()
            .try_fold(start, |acc, x| acc.arith(op, &scratch[*x]))
    };
    for node in nodes {
        let v = |i: &usize| &scratch[*i];
        let truth = |i: &usize| scratch[*i] != zero;
        let value = match node {
            Node::Lit(n) => N::from(*n),
            Node::Var(k) => match world[*k] {
                Value::Int(n) => N::from(n.into()),
                Value::Bool(x) => b(x),
            },
            Node::Not(a) => b(!truth(a)),
            Node::And(xs) => b(xs.iter().all(truth)),
            Node::Or(xs) => b(xs.iter().any(truth)),
            Node::Xor(x, y) => b(truth(x) != truth(y)),
            Node::Implies(x, y) => b(!truth(x) || truth(y)),
            Node::Eq(x, y) => b(v(x) == v(y)),
            Node::Distinct(xs) => b(xs
                .iter()
                .enumerate()
                .all(|(i, a)| xs[i + 1..].iter().all(|c| v(a) != v(c)))),
            Node::Ite(c, x, y) => {
                if truth(c) {
                    v(x).clone()
                } else {
                    v(y).clone()
                }
            }
            Node::Le(x, y) => b(v(x) <= v(y)),
            Node::Lt(x, y) => b(v(x) < v(y)),
            Node::Add(xs) => fold(zero.clone(), ArithOp::Add, xs, scratch)?,
            Node::Sub(xs) => fold(v(&xs[0]).clone(), ArithOp::Sub, &xs[1..], scratch)?,
            Node::Neg(x) => v(x).neg()?,
            Node::Mul(xs) => fold(one.clone(), ArithOp::Mul, xs, scratch)?,
            // Z3 leaves division by zero unspecified; the engine guards every division
            // with `ite`, so the value of an unguarded zero division never matters.
            Node::Div(x, y) => v(x).arith(ArithOp::Div, v(y))?,
            Node::Mod(x, y) => v(x).arith(ArithOp::Mod, v(y))?,
            Node::Rem(x, y) => {
                // SMT-LIB rem: sign follows the divisor.
                let m = v(x).arith(ArithOp::Mod, v(y))?;
                if *v(y) < zero { m.neg()? } else { m }
            }
            Node::Abs(x) => {
                if *v(x) < zero {
                    v(x).neg()?
                } else {
                    v(x).clone()
                }
            }
            // The rows are literals: an atom beyond i128 matches none of them.
            Node::InSet(atoms, rows) => b(atoms
                .iter()
                .map(|a| v(a).small())
                .collect::<Option<Vec<i128>>>()
                .is_some_and(|row| rows.contains(&row))),
        };
        scratch.push(value);
    }
    scratch.last().cloned()
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
            Err(SolverError::Unsupported(m)) if m.contains("beyond the 64-bit integers")
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
