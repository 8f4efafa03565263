//! The EpiPEn engine: the knowledge state (κ and who learned what), the K/KV encodings,
//! quantifier elimination with a finite-domain fallback, and the introspection check.
//! See docs/encoding.md for the formulas.

pub mod error;
pub mod solver;

use std::collections::BTreeMap;
use std::rc::Rc;
use std::time::{Duration, Instant};

pub use error::{EngineError, SolverError};
use solver::{Assignment, Eliminated, Term, Z3};

use crate::ir::{ArithOp, CharId, CmpOp, Expr, ExprKind, LogicOp, Program, Stmt, StmtKind, Ty};
use crate::worlds::{self, Value, World, WorldSet};

/// Above this many worlds the finite-domain route gives up.
const FINITE_CAP: usize = 200_000;
/// An int constant beyond ±this under κ makes the finite-domain route give up at once.
const FINITE_BOUND: i64 = 10_000_000;

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// A deadline for the whole run.
    pub timeout: Option<Duration>,
}

/// What a character has learned: a constant, or the value of an expression.
#[derive(Clone)]
enum Learned {
    Const(usize),
    Expr(Term),
}

/// The knowledge state: common knowledge κ and what each character learned. When κ has
/// been found to have finitely many worlds, they are kept too and filtered as κ grows.
#[derive(Clone)]
struct State {
    kappa: Term,
    learned: Vec<Vec<Learned>>,
    worlds: Option<Rc<Vec<Vec<Value>>>>,
}

/// The goal of a knowledge operator: that a formula holds, or the values of expressions.
enum Goal {
    That(Term),
    Values(Vec<Term>),
}

/// Timing and size of one executed statement, for `-v` logs.
#[derive(Debug, Clone)]
pub struct StepStats {
    pub elapsed: Duration,
    pub kappa_size: usize,
}

/// Runs a program statement by statement against Z3.
pub struct Engine<'p> {
    program: &'p Program,
    z3: Z3,
    /// The world variables x̄, one per declared constant.
    vars: Vec<Term>,
    state: State,
    checkpoints: Vec<Option<State>>,
}

impl<'p> Engine<'p> {
    pub fn new(program: &'p Program, options: &Options) -> Engine<'p> {
        let vars = program
            .constants
            .iter()
            .map(|c| match c.ty {
                Ty::Int | Ty::Enum(_) => Term::int_var(&c.name),
                Ty::Bool => Term::bool_var(&c.name),
            })
            .collect();
        Engine {
            program,
            z3: Z3::new(options.timeout),
            vars,
            state: State {
                kappa: Term::bool(true),
                learned: vec![Vec::new(); program.characters.len()],
                worlds: None,
            },
            checkpoints: vec![None; program.checkpoints.len()],
        }
    }

    /// The current common knowledge κ.
    pub fn kappa(&self) -> &Term {
        &self.state.kappa
    }

    /// Executes one statement. A `worlds` statement returns the worlds possible there.
    pub fn step(&mut self, stmt: &Stmt) -> Result<Option<WorldSet>, EngineError> {
        let start = Instant::now();
        let result = self.execute(stmt).map_err(|error| EngineError {
            span: stmt.span,
            error,
        });
        let stats = StepStats {
            elapsed: start.elapsed(),
            kappa_size: self.state.kappa.dag_size(),
        };
        tracing::debug!(
            span = ?stmt.span,
            elapsed_ms = stats.elapsed.as_secs_f64() * 1000.0,
            kappa_size = stats.kappa_size,
            "statement done"
        );
        result
    }

    fn execute(&mut self, stmt: &Stmt) -> Result<Option<WorldSet>, SolverError> {
        match &stmt.kind {
            StmtKind::Announce {
                speaker: None,
                formula,
            } => {
                let state = self.state.clone();
                let psi = self.encode(formula, &state)?;
                self.add_to_kappa(psi)?;
            }
            StmtKind::Announce {
                speaker: Some(agent),
                formula,
            } => {
                let state = self.state.clone();
                let psi = self.encode(formula, &state)?;
                let k = self.knows(*agent, &state, Goal::That(psi.clone()))?;
                // Introspection: when κ ⊨ ψ → K_A ψ, ψ and K_A ψ are equivalent under κ
                // (K_A ψ → ψ always holds under κ), so the smaller one is added.
                let introspective = match self
                    .z3
                    .is_valid(&Term::and(&[state.kappa.clone(), psi.clone()]).implies(&k))
                {
                    Ok(v) => v,
                    Err(SolverError::Timeout) => return Err(SolverError::Timeout),
                    Err(e) => {
                        tracing::debug!("introspection check failed ({e}); adding K_A ψ");
                        false
                    }
                };
                let added = if introspective && psi.dag_size() < k.dag_size() {
                    psi
                } else {
                    k
                };
                tracing::debug!(
                    introspective,
                    "announcement by {}",
                    self.program.characters[agent.0].name
                );
                self.add_to_kappa(added)?;
            }
            StmtKind::Learn { who, what } => {
                let learned = match what.kind {
                    ExprKind::Const(c) => Learned::Const(c.0),
                    _ => {
                        let state = self.state.clone();
                        Learned::Expr(self.encode(what, &state)?)
                    }
                };
                self.state.learned[who.0].push(learned);
            }
            StmtKind::Checkpoint(c) => self.checkpoints[c.0] = Some(self.state.clone()),
            StmtKind::Worlds { limit } => return self.worlds(*limit).map(Some),
            StmtKind::Simultaneously(_)
            | StmtKind::Actual(_)
            | StmtKind::Reveal { .. }
            | StmtKind::Repeat { .. }
            | StmtKind::AssertAddsCk { .. } => {
                return Err(SolverError::Unsupported("not implemented yet".into()));
            }
        }
        Ok(None)
    }

    /// κ := simplify(κ ∧ φ); an explicit world list, when known, is filtered by φ.
    fn add_to_kappa(&mut self, phi: Term) -> Result<(), SolverError> {
        let phi = self.z3.simplify(&phi)?;
        if let Some(worlds) = &self.state.worlds {
            let mut kept = Vec::new();
            for w in worlds.iter() {
                if Assignment::new(&self.vars, w).eval(&phi)? == Value::Bool(true) {
                    kept.push(w.clone());
                }
            }
            self.state.worlds = Some(Rc::new(kept));
        }
        self.state.kappa = self
            .z3
            .simplify(&Term::and(&[self.state.kappa.clone(), phi]))?;
        Ok(())
    }

    /// Up to `limit` of the worlds possible now, in canonical order.
    pub fn worlds(&self, limit: u64) -> Result<WorldSet, SolverError> {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        if let Some(ws) = &self.state.worlds {
            let mut all: Vec<World> = ws.iter().map(|w| World(w.clone())).collect();
            all.sort();
            let complete = all.len() <= limit;
            all.truncate(limit);
            return Ok(WorldSet {
                worlds: all,
                complete,
            });
        }
        worlds::first_worlds(limit, |bound, cap| {
            let (ws, exhausted) = self
                .z3
                .enumerate(&self.state.kappa, &self.vars, bound, cap)?;
            Ok((ws.into_iter().map(World).collect(), exhausted))
        })
    }

    /// Translates an expression into a term over the world variables, evaluating every
    /// knowledge operator in `state` (at the moment of the statement).
    fn encode(&mut self, e: &Expr, state: &State) -> Result<Term, SolverError> {
        Ok(match &e.kind {
            ExprKind::Int(n) => Term::int(*n),
            ExprKind::Bool(v) => Term::bool(*v),
            ExprKind::Const(c) => self.vars[c.0].clone(),
            ExprKind::Neg(a) => self.encode(a, state)?.neg(),
            ExprKind::Not(a) => self.encode(a, state)?.not(),
            ExprKind::Arith(op, a, b) => {
                let (a, b) = (self.encode(a, state)?, self.encode(b, state)?);
                match op {
                    ArithOp::Add => a.add(&b),
                    ArithOp::Sub => a.sub(&b),
                    ArithOp::Mul => a.mul(&b),
                    ArithOp::Div => a.div(&b),
                    ArithOp::Mod => a.modulo(&b),
                }
            }
            ExprKind::Cmp(op, a, b) => {
                let (a, b) = (self.encode(a, state)?, self.encode(b, state)?);
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
                let (a, b) = (self.encode(a, state)?, self.encode(b, state)?);
                match op {
                    LogicOp::And => Term::and(&[a, b]),
                    LogicOp::Or => Term::or(&[a, b]),
                    LogicOp::Implies => a.implies(&b),
                    LogicOp::Iff => a.iff(&b),
                }
            }
            ExprKind::Ite(c, a, b) => {
                let c = self.encode(c, state)?;
                c.ite(&self.encode(a, state)?, &self.encode(b, state)?)
            }
            ExprKind::In { tuple, set } => {
                let tuple: Vec<Term> = tuple
                    .iter()
                    .map(|t| self.encode(t, state))
                    .collect::<Result<_, _>>()?;
                let mut items = Vec::with_capacity(set.len());
                for item in set {
                    let mut eqs = Vec::with_capacity(item.len());
                    for (t, v) in tuple.iter().zip(item) {
                        eqs.push(t.eq(&self.encode(v, state)?));
                    }
                    items.push(Term::and(&eqs));
                }
                Term::or(&items)
            }
            ExprKind::Knows { agent, formula } => {
                let phi = self.encode(formula, state)?;
                self.knows(*agent, state, Goal::That(phi))?
            }
            ExprKind::KnowsValue { agent, exprs } => {
                let es = exprs
                    .iter()
                    .map(|x| self.encode(x, state))
                    .collect::<Result<_, _>>()?;
                self.knows(*agent, state, Goal::Values(es))?
            }
            ExprKind::At { checkpoint, body } => {
                let saved = self.checkpoints[checkpoint.0]
                    .clone()
                    .expect("lowering only lets `at` name a checkpoint passed earlier");
                self.encode(body, &saved)?
            }
        })
    }

    /// K_A goal in `state`, as a quantifier-free formula over the world variables x̄:
    /// `∀ȳ. κ(ȳ) ∧ L_A(ȳ) = L_A(x̄) → goal(ȳ)`, where ȳ renames the constants A has not
    /// learned directly and L_A are A's learned expressions. For values ē the goal is
    /// `ē(ȳ) = ē(x̄)`, which is ∃v̄. K_A(ē = v̄) in every world of κ.
    fn knows(&mut self, agent: CharId, state: &State, goal: Goal) -> Result<Term, SolverError> {
        let learned = &state.learned[agent.0];
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
        let mut hyp = vec![state.kappa.substitute(&from, &to)];
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
        let formula = Term::forall(&to, &Term::and(&hyp).implies(&conclusion));
        if !formula.is_nonlinear()
            && let Eliminated::Free(t) = self.z3.eliminate_quantifiers(&formula)?
        {
            return Ok(t);
        }
        tracing::debug!("quantifier elimination not applicable; taking the finite-domain route");
        self.knows_finite(agent, state, &goal)
    }

    /// K_A goal by explicit enumeration of κ's worlds, grouped by what A learned: the
    /// result says which groups know, and is equivalent to K_A goal under κ.
    fn knows_finite(
        &mut self,
        agent: CharId,
        state: &State,
        goal: &Goal,
    ) -> Result<Term, SolverError> {
        let worlds = self.finite_worlds(state)?;
        let learned: Vec<Term> = state.learned[agent.0]
            .iter()
            .map(|l| match l {
                Learned::Const(c) => self.vars[*c].clone(),
                Learned::Expr(e) => e.clone(),
            })
            .collect();
        // For each group (values of what A learned): does A know, and (for values) the
        // first value tuple seen.
        let mut groups: BTreeMap<World, (bool, Option<Vec<Value>>)> = BTreeMap::new();
        for w in worlds.iter() {
            let a = Assignment::new(&self.vars, w);
            let key = World(
                learned
                    .iter()
                    .map(|l| a.eval(l))
                    .collect::<Result<_, _>>()?,
            );
            let entry = groups.entry(key).or_insert((true, None));
            if !entry.0 {
                continue;
            }
            match goal {
                Goal::That(phi) => entry.0 = a.eval(phi)? == Value::Bool(true),
                Goal::Values(es) => {
                    let values: Vec<Value> =
                        es.iter().map(|e| a.eval(e)).collect::<Result<_, _>>()?;
                    match &entry.1 {
                        None => entry.1 = Some(values),
                        Some(first) => entry.0 = *first == values,
                    }
                }
            }
        }
        let matches = |key: &World| -> Term {
            Term::and(
                &learned
                    .iter()
                    .zip(&key.0)
                    .map(|(l, v)| l.eq(&Term::value(*v)))
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

    /// Every world of κ in `state`, when there are finitely many (at most FINITE_CAP).
    fn finite_worlds(&mut self, state: &State) -> Result<Rc<Vec<Vec<Value>>>, SolverError> {
        if let Some(ws) = &state.worlds {
            return Ok(ws.clone());
        }
        let unsupported = || {
            SolverError::Unsupported(
                "quantifier elimination cannot handle this statement (non-linear arithmetic such as x * y), \
                 and the possible worlds are not finitely many, so the finite-domain route is closed too; \
                 bound every constant in an announcement, e.g. `announce x >= 0 and x <= 100`"
                    .into(),
            )
        };
        let outside: Vec<Term> = self
            .vars
            .iter()
            .filter(|v| !v.is_bool())
            .map(|v| {
                Term::or(&[
                    v.lt(&Term::int(-FINITE_BOUND)),
                    Term::int(FINITE_BOUND).lt(v),
                ])
            })
            .collect();
        if self
            .z3
            .is_sat(&Term::and(&[state.kappa.clone(), Term::or(&outside)]))?
        {
            return Err(unsupported());
        }
        let (worlds, exhausted) = self
            .z3
            .enumerate(&state.kappa, &self.vars, None, FINITE_CAP)?;
        if !exhausted {
            return Err(unsupported());
        }
        tracing::debug!(
            worlds = worlds.len(),
            "enumerated κ for the finite-domain route"
        );
        let worlds = Rc::new(worlds);
        // The current state is where this mostly happens: remember its worlds.
        if state.kappa == self.state.kappa && self.state.worlds.is_none() {
            self.state.worlds = Some(worlds.clone());
        }
        Ok(worlds)
    }
}

/// Runs the whole program and returns up to `limit` of the worlds possible at its end.
pub fn solve(program: &Program, limit: u64) -> Result<WorldSet, EngineError> {
    let mut engine = Engine::new(program, &Options::default());
    for stmt in &program.statements {
        engine.step(stmt)?;
    }
    let end = program
        .statements
        .last()
        .map(|s| s.span)
        .unwrap_or_default();
    engine
        .worlds(limit)
        .map_err(|error| EngineError { span: end, error })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::*;
    use crate::syntax::Span;

    fn e(kind: ExprKind, ty: Ty) -> Expr {
        Expr {
            kind,
            ty,
            span: Span::default(),
        }
    }
    fn c(i: usize) -> Expr {
        e(ExprKind::Const(ConstId(i)), Ty::Int)
    }
    fn n(v: i64) -> Expr {
        e(ExprKind::Int(v), Ty::Int)
    }
    fn not(x: Expr) -> Expr {
        e(ExprKind::Not(Box::new(x)), Ty::Bool)
    }
    fn kv(a: usize, xs: Vec<Expr>) -> Expr {
        e(
            ExprKind::KnowsValue {
                agent: CharId(a),
                exprs: xs,
            },
            Ty::Bool,
        )
    }
    fn stmt(kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            span: Span::default(),
        }
    }
    fn says(a: Option<usize>, f: Expr) -> Stmt {
        stmt(StmtKind::Announce {
            speaker: a.map(CharId),
            formula: f,
        })
    }
    fn ints(values: &[(i64, i64)]) -> Vec<World> {
        values
            .iter()
            .map(|&(a, b)| World(vec![Value::Int(a), Value::Int(b)]))
            .collect()
    }

    fn two_chars_two_ints(first: Expr, mul: bool, dialogue: Vec<Stmt>) -> Program {
        let ch = |n: &str| Character {
            name: n.into(),
            span: Span::default(),
        };
        let k = |n: &str| Constant {
            name: n.into(),
            ty: Ty::Int,
            span: Span::default(),
        };
        let learn1 = if mul {
            e(
                ExprKind::Arith(ArithOp::Mul, Box::new(c(0)), Box::new(c(1))),
                Ty::Int,
            )
        } else {
            c(0)
        };
        let learn2 = if mul {
            e(
                ExprKind::Arith(ArithOp::Add, Box::new(c(0)), Box::new(c(1))),
                Ty::Int,
            )
        } else {
            c(1)
        };
        let mut statements = vec![
            says(None, first),
            stmt(StmtKind::Learn {
                who: CharId(0),
                what: learn1,
            }),
            stmt(StmtKind::Learn {
                who: CharId(1),
                what: learn2,
            }),
        ];
        statements.extend(dialogue);
        Program {
            characters: vec![ch("A"), ch("B")],
            constants: vec![k("x"), k("y")],
            checkpoints: vec![],
            statements,
        }
    }

    fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
        e(ExprKind::Cmp(op, Box::new(a), Box::new(b)), Ty::Bool)
    }
    fn and(a: Expr, b: Expr) -> Expr {
        e(
            ExprKind::Logic(LogicOp::And, Box::new(a), Box::new(b)),
            Ty::Bool,
        )
    }
    fn or(a: Expr, b: Expr) -> Expr {
        e(
            ExprKind::Logic(LogicOp::Or, Box::new(a), Box::new(b)),
            Ty::Bool,
        )
    }
    fn plus1(x: Expr) -> Expr {
        e(
            ExprKind::Arith(ArithOp::Add, Box::new(x), Box::new(n(1))),
            Ty::Int,
        )
    }

    /// Consecutive numbers (linear: the quantifier-elimination route, infinite worlds).
    #[test]
    fn consecutive_numbers() {
        let first = and(
            and(cmp(CmpOp::Ge, c(0), n(0)), cmp(CmpOp::Ge, c(1), n(0))),
            or(
                cmp(CmpOp::Eq, c(0), plus1(c(1))),
                cmp(CmpOp::Eq, c(1), plus1(c(0))),
            ),
        );
        let dialogue = vec![
            says(Some(0), not(kv(0, vec![c(1)]))),
            says(Some(1), not(kv(1, vec![c(0)]))),
            says(Some(0), kv(0, vec![c(1)])),
            says(Some(1), kv(1, vec![c(0)])),
        ];
        let program = two_chars_two_ints(first.clone(), false, dialogue.clone());
        let set = solve(&program, 10).unwrap();
        assert_eq!(
            set,
            WorldSet {
                worlds: ints(&[(1, 2), (2, 3)]),
                complete: true
            }
        );
        // After two announcements the worlds are still infinitely many.
        let program = two_chars_two_ints(first, false, dialogue[..2].to_vec());
        let set = solve(&program, 3).unwrap();
        // Gone: (0, 1), (1, 0) (Anne or Bill would know) and (2, 1) (Bill would know, as A = 0 is gone).
        assert_eq!(
            set,
            WorldSet {
                worlds: ints(&[(1, 2), (2, 3), (3, 2)]),
                complete: false
            }
        );
    }

    /// A small sum-and-product (non-linear: the finite-domain route).
    #[test]
    fn sum_and_product_small() {
        // 1 <= x <= y <= 6; A learns x*y, B learns x+y; A: "I don't know"; B: "I knew".
        let first = and(
            and(cmp(CmpOp::Ge, c(0), n(1)), cmp(CmpOp::Le, c(0), c(1))),
            cmp(CmpOp::Le, c(1), n(6)),
        );
        let dialogue = vec![
            says(Some(0), not(kv(0, vec![c(0), c(1)]))),
            says(Some(0), kv(0, vec![c(0), c(1)])),
        ];
        let program = two_chars_two_ints(first, true, dialogue);
        // Products with two factorisations in range: 4 = 1*4 = 2*2, 6 = 1*6 = 2*3, 12 = 2*6 = 3*4.
        // After "I don't know", A can't know: contradiction, no worlds.
        let set = solve(&program, 10).unwrap();
        assert_eq!(
            set,
            WorldSet {
                worlds: vec![],
                complete: true
            }
        );
    }
}
