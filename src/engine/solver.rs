//! Every call into Z3 lives in this module. The rest of the crate sees owned [`Term`]s
//! and a [`Z3`] handle that carries the run's deadline, and gets typed errors back.
//!
//! Z3 contexts are thread-local in the z3 crate: a `Term` must stay on the thread that
//! made it.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use z3::ast::{Ast, Bool, Dynamic, Int};
use z3::{AstKind, DeclKind, Goal, Model, Params, SatResult, Solver, SortKind, Tactic};

use super::error::SolverError;
use crate::worlds::Value;

/// The version of the Z3 library loaded at run time.
pub fn z3_version() -> String {
    z3::full_version().to_string()
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

    /// ∀ vars. body
    pub fn forall(vars: &[Term], body: &Term) -> Term {
        if vars.is_empty() {
            return body.clone();
        }
        let bounds: Vec<&dyn Ast> = vars.iter().map(|v| &v.0 as &dyn Ast).collect();
        wrap(z3::ast::forall_const(&bounds, &[], &b(body)))
    }

    /// Replaces each `from[k]` by `to[k]`.
    pub fn substitute(&self, from: &[Term], to: &[Term]) -> Term {
        let pairs: Vec<(&Dynamic, &Dynamic)> =
            from.iter().zip(to).map(|(f, t)| (&f.0, &t.0)).collect();
        Term(self.0.substitute(&pairs))
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

/// A world as an assignment to the world variables, for evaluating ground terms.
pub struct Assignment {
    model: Model,
}

impl Assignment {
    pub fn new(vars: &[Term], values: &[Value]) -> Assignment {
        let model = Model::new();
        for (var, value) in vars.iter().zip(values) {
            let decl = var.0.decl();
            model.add_const_interp(&decl, &Term::value(*value).0);
        }
        Assignment { model }
    }

    /// The value of `term` in this world (unassigned variables default to 0/false).
    pub fn eval(&self, term: &Term) -> Result<Value, SolverError> {
        let t = self.model.eval(&term.0, true).ok_or_else(|| {
            SolverError::Unsupported("Z3 could not evaluate a term in a world".into())
        })?;
        Term(t).as_value().ok_or_else(|| {
            SolverError::Unsupported(format!("Z3 left a term unevaluated in a world: {term}"))
        })
    }
}

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

    fn solver(&self) -> Result<Solver, SolverError> {
        let s = Solver::new();
        if let Some(left) = self.remaining()? {
            let mut p = Params::new();
            p.set_u32(
                "timeout",
                left.as_millis().clamp(1, u32::MAX as u128) as u32,
            );
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
        let s = self.solver()?;
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
        let goal = Goal::new(false, false, false);
        goal.assert(&b(formula));
        let mut tactic = Tactic::new("qe").and_then(&Tactic::new("simplify"));
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
        let eliminated = Term::or(&disjuncts).simplify();
        if eliminated.has_quantifier() {
            Ok(Eliminated::Leftover)
        } else {
            Ok(Eliminated::Free(eliminated))
        }
    }

    /// Z3's simplifier (cheap, local rewriting).
    pub fn simplify(&self, formula: &Term) -> Result<Term, SolverError> {
        self.remaining()?;
        Ok(formula.simplify())
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
        let s = self.solver()?;
        s.assert(b(formula));
        if let Some(bound) = bound {
            let bound = bound.min(i64::MAX as u64) as i64;
            for v in vars.iter().filter(|v| !v.is_bool()) {
                s.assert(i(v).le(Int::from_i64(bound)));
                s.assert(i(v).ge(Int::from_i64(-bound)));
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
                let value = model
                    .eval(&v.0, true)
                    .and_then(|t| Term(t).as_value())
                    .ok_or_else(|| {
                        SolverError::Unknown(format!("the model gives no value to {v}"))
                    })?;
                differs.push(v.eq(&Term::value(value)).not());
                world.push(value);
            }
            worlds.push(world);
            s.assert(b(&Term::or(&differs)));
            if let Some(left) = self.remaining()? {
                let mut p = Params::new();
                p.set_u32(
                    "timeout",
                    left.as_millis().clamp(1, u32::MAX as u128) as u32,
                );
                s.set_params(&p);
            }
        }
    }
}
