//! The knowledge state over BDDs, and expressions evaluated in it: every boolean
//! expression becomes the BDD of the worlds where it holds, knowledge operators included.
//!
//! `K_A φ` holds at x̄ when φ holds at every world of κ that A cannot tell from x̄ (same
//! values of everything A learned; vacuously when there is none). When A learned only
//! constants, that is `∀U. κ → φ` with U the bits of the constants A has not learned.
//! When A also learned expressions L, the worlds A cannot tell from x̄ are written over
//! primed copies of U: `¬∃U'. κ(ȳ) ∧ L(ȳ) = L(x̄) ∧ ¬φ(ȳ)`, ȳ being x̄ with U primed.
//! `knows_value(A, ē)` holds where A's worlds all give ē one value: the disjunction of
//! `K_A (ē's value is v)` over the values v that ē takes in κ (true when it takes none:
//! every group is empty); of constants it is asked bit by bit (`knows_bits`: `K b ∨ K ¬b`
//! for each bit), and of the one bit an agent does not see as one quantification
//! (`whether_bit`). An agent who learned expressions has κ split into its classes at its
//! first question (`classes.rs`), and most questions are answered class by class, the
//! primed relation built only when one needs it.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

use super::BddBackend;
use super::diagram::{Bdd, BddValuation, BddVariable, ValuesTaken};
use super::space::{Kind, Space};
use super::value::{Partition, Val, tuple_cells};
use crate::Failure;
use crate::ir::{ArithOp, CharId, CmpOp, Expr, ExprKind, GroupOp, LogicOp, Ty};

/// What a character has learned: a constant, or an expression (the conditions of its
/// distinct values).
#[derive(Clone)]
pub(crate) enum Learned {
    Const(usize),
    Expr(Rc<Vec<Bdd>>),
}

/// What one character has learned, in order, and what its knowledge operator quantifies
/// (computed once asked, then shared by every state with the same learnings: a
/// `repeat` of announcements makes a state per round, not a view per round).
pub(crate) struct Learnings {
    pub items: Vec<Learned>,
    view: OnceCell<Rc<View>>,
}

impl Learnings {
    pub(crate) fn new(items: Vec<Learned>) -> Learnings {
        Learnings {
            items,
            view: OnceCell::new(),
        }
    }
}

impl std::ops::Deref for Learnings {
    type Target = [Learned];

    fn deref(&self) -> &[Learned] {
        &self.items
    }
}

/// Every character's learnings: a state that adds to one character's copies the others'
/// handles only.
pub(crate) type AllLearned = Rc<Vec<Rc<Learnings>>>;

/// A plausibility rank (lower more plausible): an expected formula (0 where it held, 1
/// elsewhere), or an event's case ranks (the worlds at each level, from 0).
#[derive(Clone)]
pub(crate) enum Rank {
    Expected(Bdd),
    Levels(Rc<Vec<Bdd>>),
}

/// A knowledge state: κ, what each character learned and its plausibility ranks (most
/// significant first), and the knowledge operators already evaluated in it (keyed by
/// agent and goal: asking the same question about the same state, as the `until` of a
/// `repeat` does, costs a lookup).
pub(crate) struct State {
    pub kappa: Bdd,
    pub learned: AllLearned,
    pub ranks: Rc<Vec<Vec<Rank>>>,
    known: RefCell<HashMap<(usize, Bdd), Bdd>>,
    /// ¬∀x. κ, the worlds where an agent whose only hidden bit is x knows its value,
    /// keyed by x.
    pub(super) whether: RefCell<HashMap<BddVariable, Bdd>>,
    /// Sets the agent sees (they test none of its hidden bits: what its knowledge
    /// operators made here, and their complements): its announcement of one is the set
    /// itself, without a walk to find that out.
    seen: RefCell<HashSet<(usize, Bdd)>>,
    /// Per agent, how many different questions `K_agent` was asked here, and, once
    /// they are enough, κ split by the agent's view (see [`Classes`]).
    pub(super) asked: RefCell<HashMap<usize, usize>>,
    pub(super) classes: RefCell<HashMap<usize, Option<Rc<Classes>>>>,
    /// Per agent, the worlds it finds most plausible in their class, once asked for.
    plausible: RefCell<HashMap<usize, Bdd>>,
    /// Per agent, its class at the last point asked about ([`BddBackend::class_at`]).
    pub(super) classes_at: RefCell<HashMap<usize, (BddValuation, Bdd)>>,
}

/// κ split by what an agent who learned only a few bits sees: for each valuation v of
/// those bits (its cube), κ ∧ v. The agent knows φ in the worlds of v exactly when no
/// world of κ ∧ v falsifies φ (when κ ∧ v is empty, vacuously), so `K φ` is the
/// disjunction of those cubes: one search per class, which stops at the first world
/// where φ fails, instead of a quantification over κ per question.
///
/// For a goal that is a conjunction of literals (`paid[j]`, `not muddy[i]`), each class
/// answers from one walk over its worlds that finds, for every variable at once, the
/// values it takes there ([`Bdd::values_taken`]): the agent knows the literals that no
/// world of its class contradicts.
pub(crate) struct Classes {
    pub(super) cells: Vec<Class>,
}

pub(super) struct Class {
    pub(super) cube: Bdd,
    pub(super) worlds: Bdd,
    pub(super) taken: OnceCell<Option<ValuesTaken>>,
}

/// What an agent's knowledge operator quantifies in a state.
pub(crate) enum View {
    /// The agent learned only constants: the bits of the others, as a cube and marked by
    /// variable index, and the bit itself when it is only one (a muddy child's own).
    Constants {
        cube: Bdd,
        hidden: Vec<bool>,
        only: Option<BddVariable>,
    },
    /// The agent learned expressions too: the bits of the constants it did not learn,
    /// `L(ȳ) = L(x̄)` over those bits primed, and the primed bits as a cube.
    Expressions {
        hidden: Vec<BddVariable>,
        /// The learned expressions' cells, and `L(ȳ) = L(x̄)` made from them once a
        /// question needs it (the classes answer most without it).
        exprs: Vec<Rc<Vec<Bdd>>>,
        same: OnceCell<Bdd>,
        primed: Bdd,
    },
}

impl State {
    pub(super) fn new(kappa: Bdd, learned: AllLearned, ranks: Rc<Vec<Vec<Rank>>>) -> Rc<State> {
        Rc::new(State {
            kappa,
            learned,
            ranks,
            known: RefCell::new(HashMap::new()),
            whether: RefCell::new(HashMap::new()),
            seen: RefCell::new(HashSet::new()),
            asked: RefCell::new(HashMap::new()),
            classes: RefCell::new(HashMap::new()),
            plausible: RefCell::new(HashMap::new()),
            classes_at: RefCell::new(HashMap::new()),
        })
    }
}

impl State {
    /// Notes that `agent` sees `set` (a result of its knowledge operators), and so its
    /// complement.
    pub(super) fn saw(&self, agent: usize, set: &Bdd) {
        let mut seen = self.seen.borrow_mut();
        seen.insert((agent, set.clone()));
        seen.insert((agent, set.not()));
    }
}

impl BddBackend {
    /// `e` in `state`, as a value over the world's bits.
    pub(super) fn eval(&self, e: &Expr, state: &Rc<State>) -> Result<Val, Failure> {
        Ok(match &e.kind {
            ExprKind::Int(n) => Val::Int(Partition::constant(i128::from(*n), self.space.mk_true())),
            ExprKind::Bool(b) => Val::Bool(self.space.mk_bool(*b)),
            ExprKind::Const(c) => self.constant(c.0)?,
            ExprKind::Shared(inner) => {
                let known = self
                    .shared
                    .borrow()
                    .get(&std::sync::Arc::as_ptr(inner))
                    .map(|(_, v)| v.clone());
                match known {
                    Some(value) => value,
                    None => {
                        let value = self.eval(inner, state)?;
                        (self.shared.borrow_mut()).insert(
                            std::sync::Arc::as_ptr(inner),
                            (inner.clone(), value.clone()),
                        );
                        value
                    }
                }
            }
            ExprKind::Latest(_) => return Err(Failure::unresolved_event()),
            ExprKind::Neg(a) => Val::Int(self.int(a, state)?.neg()?),
            ExprKind::Not(a) => Val::Bool(self.bool(a, state)?.not()),
            ExprKind::Arith(ArithOp::Add | ArithOp::Sub, _, _) => {
                Val::Int(self.int_value(e, state)?)
            }
            ExprKind::Arith(op, a, b) => {
                if let (ExprKind::Const(x), ExprKind::Const(y)) = (&a.kind, &b.kind)
                    && let Some(p) = self.space.grid(*op, x.0, y.0)
                {
                    return Ok(Val::Int(p));
                }
                Val::Int(self.int(a, state)?.arith(*op, &self.int(b, state)?)?)
            }
            ExprKind::Cmp(op, a, b) => {
                if a.ty != Ty::Bool
                    && let Some(holds) = self.compare_linear(*op, a, b, state)?
                {
                    return Ok(Val::Bool(holds));
                }
                let (a, b) = (self.eval(a, state)?, self.eval(b, state)?);
                Val::Bool(self.compare(*op, &a, &b)?)
            }
            ExprKind::Logic(op, a, b) => {
                let (a, b) = (self.bool(a, state)?, self.bool(b, state)?);
                Val::Bool(match op {
                    LogicOp::And => a.and(&b),
                    LogicOp::Or => a.or(&b),
                    LogicOp::Implies => a.imp(&b),
                    LogicOp::Iff => a.iff(&b),
                })
            }
            ExprKind::Ite(c, a, b) => {
                let c = self.bool(c, state)?;
                match (self.eval(a, state)?, self.eval(b, state)?) {
                    (Val::Bool(a), Val::Bool(b)) => Val::Bool(Bdd::if_then_else(&c, &a, &b)),
                    (Val::Int(a), Val::Int(b)) => Val::Int(Partition::ite(&c, &a, &b)),
                    _ => return Err(mixed_types()),
                }
            }
            ExprKind::In { tuple, set } => {
                let tuple = self.eval_all(tuple, state)?;
                let mut found = self.space.mk_false();
                for item in set {
                    let mut all = self.space.mk_true();
                    for (t, x) in tuple.iter().zip(item) {
                        all = all.and(&self.compare(CmpOp::Eq, t, &self.eval(x, state)?)?);
                    }
                    found = found.or(&all);
                }
                Val::Bool(found)
            }
            ExprKind::Knows { agent, formula } => {
                let phi = self.bool(formula, state)?;
                Val::Bool(self.knows(*agent, state, &phi)?)
            }
            ExprKind::KnowsValue { agent, exprs } => {
                if let Some(known) = self.knows_bits(*agent, state, exprs)? {
                    return Ok(Val::Bool(known));
                }
                let values = self.eval_all(exprs, state)?;
                let cells = tuple_cells(&values, &self.space.mk_true());
                Val::Bool(self.knows_value(*agent, state, &cells, None)?)
            }
            // B_A φ = K_A(most plausible → φ).
            ExprKind::Believes { agent, formula } => {
                let phi = self.bool(formula, state)?;
                let best = self.most_plausible(*agent, state)?;
                Val::Bool(self.knows(*agent, state, &best.imp(&phi))?)
            }
            ExprKind::BelievesValue { agent, exprs } => {
                let values = self.eval_all(exprs, state)?;
                let cells = tuple_cells(&values, &self.space.mk_true());
                let best = self.most_plausible(*agent, state)?;
                Val::Bool(self.knows_value(*agent, state, &cells, Some(&best))?)
            }
            ExprKind::Chance { .. } => return Err(crate::driver::no_chances("bdd")),
            ExprKind::Group {
                op,
                agents,
                formula,
            } => {
                let phi = self.bool(formula, state)?;
                Val::Bool(self.group(*op, agents, state, &phi)?)
            }
            ExprKind::At { checkpoint, body } => {
                let saved = match self.checkpoints.get(checkpoint.0) {
                    Some(Some(saved)) => saved.clone(),
                    _ => {
                        return Err(Failure::Unsupported(
                            "`at` names a checkpoint the story has not passed yet".into(),
                        ));
                    }
                };
                self.eval(body, &saved)?
            }
            ExprKind::Announced {
                agents,
                whether,
                formula,
                body,
            } => Val::Bool(self.announced(agents, *whether, formula, body, state)?),
            ExprKind::Quantified {
                forall,
                consts,
                body,
            } => {
                let holds = self.bool(body, state)?;
                let consts: Vec<usize> = consts.iter().map(|c| c.0).collect();
                let cube = self.space.cube(&self.space.bits_of(&consts));
                Val::Bool(match forall {
                    true => holds.not().exists(&cube).not(),
                    false => holds.exists(&cube),
                })
            }
        })
    }

    /// `[G ! φ] ψ` / `[G ?! φ] ψ` in `state`: ψ in the state after the announcement (see
    /// [`ExprKind::Announced`]).
    fn announced(
        &self,
        agents: &[CharId],
        whether: bool,
        formula: &Expr,
        body: &Expr,
        state: &Rc<State>,
    ) -> Result<Bdd, Failure> {
        self.check_deadline()?;
        let phi = self.bool(formula, state)?;
        if agents.is_empty() {
            let kept = |kappa: Bdd| State::new(kappa, state.learned.clone(), state.ranks.clone());
            let holds = self.bool(body, &kept(state.kappa.and(&phi)))?;
            if !whether {
                return Ok(phi.imp(&holds));
            }
            let otherwise = self.bool(body, &kept(state.kappa.and_not(&phi)))?;
            return Ok(Bdd::if_then_else(&phi, &holds, &otherwise));
        }
        let mut learned = (*state.learned).clone();
        for a in agents {
            if let Some(list) = learned.get_mut(a.0) {
                let mut items = list.items.clone();
                items.push(Learned::Expr(Rc::new(vec![phi.not(), phi.clone()])));
                *list = Rc::new(Learnings::new(items));
            }
        }
        let after = State::new(state.kappa.clone(), Rc::new(learned), state.ranks.clone());
        let holds = self.bool(body, &after)?;
        Ok(if whether { holds } else { phi.imp(&holds) })
    }

    /// Whether the boolean expression `e` holds at `point`: negations, connectives and
    /// `at` by their operands' truth values there (every operand evaluated, so the
    /// errors are the same as [`Self::bool`]'s), anything else by its BDD. The
    /// conjunction of a muddy child's `until`, n knowledge questions, is then n look-ups
    /// instead of n conjunctions of BDDs of κ's size.
    pub(super) fn holds_at(
        &self,
        e: &Expr,
        state: &Rc<State>,
        point: &BddValuation,
    ) -> Result<bool, Failure> {
        Ok(match &e.kind {
            ExprKind::Not(a) => !self.holds_at(a, state, point)?,
            ExprKind::Logic(op, a, b) => {
                let (a, b) = (
                    self.holds_at(a, state, point)?,
                    self.holds_at(b, state, point)?,
                );
                match op {
                    LogicOp::And => a && b,
                    LogicOp::Or => a || b,
                    LogicOp::Implies => !a || b,
                    LogicOp::Iff => a == b,
                }
            }
            // `φ == ψ` and `φ != ψ` of formulas: iff and xor of their truth values (the
            // prisoners' `check actual knows(counter, …) == (k == n - 1 …)`).
            ExprKind::Cmp(op @ (CmpOp::Eq | CmpOp::Ne), a, b) if a.ty == Ty::Bool => {
                let (a, b) = (
                    self.holds_at(a, state, point)?,
                    self.holds_at(b, state, point)?,
                );
                (a == b) == (*op == CmpOp::Eq)
            }
            ExprKind::At { checkpoint, body } => match self.checkpoints.get(checkpoint.0) {
                Some(Some(saved)) => {
                    let saved = saved.clone();
                    self.holds_at(body, &saved, point)?
                }
                _ => {
                    return Err(Failure::Unsupported(
                        "`at` names a checkpoint the story has not passed yet".into(),
                    ));
                }
            },
            ExprKind::Knows { agent, formula } if self.learned_expressions(*agent, state) => {
                let phi = self.bool(formula, state)?;
                if let Some(known) = state.known.borrow().get(&(agent.0, phi.clone())) {
                    return Ok(known.eval_in(point));
                }
                !self.class_at(*agent, state, point)?.intersects(&phi.not())
            }
            ExprKind::KnowsValue { agent, exprs } if self.learned_expressions(*agent, state) => {
                let values = self.eval_all(exprs, state)?;
                let cells = tuple_cells(&values, &self.space.mk_true());
                let class = self.class_at(*agent, state, point)?;
                cells.iter().filter(|cell| class.intersects(cell)).count() <= 1
            }
            _ => self.set(e, state)?.holds(point),
        })
    }

    fn eval_all(&self, es: &[Expr], state: &Rc<State>) -> Result<Vec<Val>, Failure> {
        es.iter().map(|e| self.eval(e, state)).collect()
    }

    /// A boolean expression's BDD.
    pub(super) fn bool(&self, e: &Expr, state: &Rc<State>) -> Result<Bdd, Failure> {
        match self.eval(e, state)? {
            Val::Bool(b) => Ok(b),
            Val::Int(_) => Err(mixed_types()),
        }
    }

    pub(super) fn int(&self, e: &Expr, state: &Rc<State>) -> Result<Partition, Failure> {
        match self.eval(e, state)? {
            Val::Int(p) => Ok(p),
            Val::Bool(_) => Err(mixed_types()),
        }
    }

    /// A constant's value: its bit, or its enum's partition.
    fn constant(&self, c: usize) -> Result<Val, Failure> {
        if let Some(b) = self.space.bool_constant(c) {
            return Ok(Val::Bool(b));
        }
        match self.space.kind(c) {
            Some(Kind::Enum(_) | Kind::Int { .. } | Kind::OneHot(_)) => {
                Ok(Val::Int(self.space.enum_partition(c)))
            }
            _ => Err(Failure::Unsupported(format!(
                "constant #{c} is not a bool, an enum or an int"
            ))),
        }
    }

    /// Where `a op b` holds: `==` and `!=` on bools compare BDDs, the rest values.
    fn compare(&self, op: CmpOp, a: &Val, b: &Val) -> Result<Bdd, Failure> {
        match (a, b) {
            (Val::Bool(a), Val::Bool(b)) => match op {
                CmpOp::Eq => Ok(a.iff(b)),
                CmpOp::Ne => Ok(a.xor(b)),
                _ => Err(mixed_types()),
            },
            (Val::Int(a), Val::Int(b)) => Ok(a.compare(op, b, &self.space.mk_false())),
            _ => Err(mixed_types()),
        }
    }

    /// `K_agent φ` in `state`.
    pub(super) fn knows(
        &self,
        agent: CharId,
        state: &Rc<State>,
        phi: &Bdd,
    ) -> Result<Bdd, Failure> {
        self.check_deadline()?;
        let key = (agent.0, phi.clone());
        if let Some(known) = state.known.borrow().get(&key) {
            return Ok(known.clone());
        }
        let view = self.view(agent, state);
        let result = match self.classes(agent.0, state, &view, 1) {
            Some(classes) => self.knows_by_class(&classes, phi)?,
            None => self.knows_in(&view, state, phi),
        };
        state.known.borrow_mut().insert(key, result.clone());
        state.saw(agent.0, &result);
        Ok(result)
    }

    /// The disjunction of `sets`, two by two (balanced: no long chain of growing
    /// operands).
    pub(super) fn union(&self, mut sets: Vec<Bdd>) -> Bdd {
        while sets.len() > 1 {
            sets = sets
                .chunks(2)
                .map(|pair| match pair {
                    [a, b] => a.or(b),
                    [a] => a.clone(),
                    _ => unreachable!("chunks of two"),
                })
                .collect();
        }
        sets.pop().unwrap_or_else(|| self.space.mk_false())
    }

    /// K φ in `state` for whoever sees `view`.
    fn knows_in(&self, view: &View, state: &Rc<State>, phi: &Bdd) -> Bdd {
        match view {
            // ∀U. κ → φ, that is ¬∃U. κ ∧ ¬φ
            View::Constants { cube, .. } => state.kappa.and_exists(&phi.not(), cube).not(),
            // ¬∃U'. (κ ∧ ¬φ)(ȳ) ∧ L(ȳ) = L(x̄)
            View::Expressions {
                hidden,
                exprs,
                same,
                primed,
            } => {
                let same = same.get_or_init(|| {
                    let exprs: Vec<&[Bdd]> = exprs.iter().map(|c| c.as_slice()).collect();
                    self.same_observation(&exprs, hidden)
                });
                let bad = self.space.prime(&state.kappa.and_not(phi), hidden);
                bad.and_exists(same, primed).not()
            }
        }
    }

    /// Group knowledge of `agents` of φ in `state`.
    fn group(
        &self,
        op: GroupOp,
        agents: &[CharId],
        state: &Rc<State>,
        phi: &Bdd,
    ) -> Result<Bdd, Failure> {
        let everyone = |x: &Bdd| -> Result<Bdd, Failure> {
            let mut all = self.space.mk_true();
            for a in agents {
                all = all.and(&self.knows(*a, state, x)?);
            }
            Ok(all)
        };
        match op {
            GroupOp::Everyone => everyone(phi),
            GroupOp::Distributed => {
                self.check_deadline()?;
                let learned: Vec<Learned> = agents
                    .iter()
                    .flat_map(|a| state.learned[a.0].iter().cloned())
                    .collect();
                Ok(self.knows_in(&self.view_of(&learned), state, phi))
            }
            GroupOp::Common => {
                // X = E(φ ∧ X) from X = true: the iterates shrink; once two agree on κ,
                // the next is the same function (E looks only at κ's worlds).
                let mut x = self.space.mk_true();
                loop {
                    self.check_deadline()?;
                    let next = everyone(&phi.and(&x))?;
                    if next.xor(&x).and(&state.kappa).is_false() {
                        return Ok(next);
                    }
                    x = next;
                }
            }
        }
    }

    /// What the agent's truthful announcement of ψ adds to κ in `state`: K_agent ψ, or ψ
    /// itself when the agent sees whether ψ holds (so that on κ, K_agent ψ is ψ): ψ was
    /// made by its knowledge operators here, or it learned only constants and ψ tests
    /// none of the others' bits.
    pub(super) fn said_by(
        &self,
        agent: CharId,
        state: &Rc<State>,
        psi: Bdd,
    ) -> Result<Bdd, Failure> {
        if state.seen.borrow().contains(&(agent.0, psi.clone())) {
            return Ok(psi);
        }
        if let View::Constants { hidden, .. } = &*self.view(agent, state)
            && !psi.tests_any(hidden)
        {
            return Ok(psi);
        }
        self.knows(agent, state, &psi)
    }

    /// What `K_agent` quantifies in `state`.
    fn view(&self, agent: CharId, state: &State) -> Rc<View> {
        match state.learned.get(agent.0) {
            Some(learned) => learned
                .view
                .get_or_init(|| Rc::new(self.view_of(learned)))
                .clone(),
            None => Rc::new(self.view_of(&[])),
        }
    }

    /// What K quantifies for whoever learned `learned`.
    fn view_of(&self, learned: &[Learned]) -> View {
        let hidden = self.hidden_bits(learned);
        let exprs: Vec<Rc<Vec<Bdd>>> = learned
            .iter()
            .filter_map(|l| match l {
                Learned::Expr(cells) => Some(cells.clone()),
                Learned::Const(_) => None,
            })
            .collect();
        if exprs.is_empty() {
            View::Constants {
                cube: self.space.hidden_cube(&hidden),
                only: match hidden[..] {
                    [bit] => Some(bit),
                    _ => None,
                },
                hidden: self.space.mark(&hidden),
            }
        } else {
            View::Expressions {
                exprs,
                same: OnceCell::new(),
                primed: self.space.cube(&Space::primed(&hidden)),
                hidden,
            }
        }
    }

    /// The bits of the constants an agent has not learned directly.
    fn hidden_bits(&self, learned: &[Learned]) -> Vec<BddVariable> {
        // The observations of the events (histories forgotten) are constants of the
        // space: each character sees its own, learned as a constant.
        let mut seen = vec![false; self.space.constants()];
        for l in learned {
            if let Learned::Const(c) = l
                && let Some(s) = seen.get_mut(*c)
            {
                *s = true;
            }
        }
        let hidden: Vec<usize> = (0..seen.len()).filter(|c| !seen[*c]).collect();
        self.space.bits_of(&hidden)
    }

    /// `L(ȳ) = L(x̄)` for learned expressions L (each given by the conditions of its
    /// values), ȳ being x̄ with the `hidden` bits primed: in each, some value's condition
    /// holds on both sides.
    fn same_observation(&self, exprs: &[&[Bdd]], hidden: &[BddVariable]) -> Bdd {
        let mut same = self.space.mk_true();
        for cells in exprs {
            let mut equal = self.space.mk_false();
            for cell in cells.iter() {
                equal = equal.or(&cell.and(&self.space.prime(cell, hidden)));
            }
            same = same.and(&equal);
        }
        same
    }

    /// `knows_value(agent, ē)` in `state`, ē given by the conditions of its values; with
    /// `among` (the worlds the agent finds most plausible), `believes_value`: the value
    /// is the same in every world of the agent's class that is `among` them.
    fn knows_value(
        &self,
        agent: CharId,
        state: &Rc<State>,
        cells: &[Bdd],
        among: Option<&Bdd>,
    ) -> Result<Bdd, Failure> {
        if among.is_none()
            && let Some(bit) = self.whether_bit(agent, state, cells)
        {
            self.check_deadline()?;
            return Ok(self.knows_whether(agent.0, state, bit));
        }
        let mut known: Option<Bdd> = None;
        let within = among.map_or_else(|| state.kappa.clone(), |b| state.kappa.and(b));
        for cell in cells {
            // A value ē never takes in κ is known only in empty groups, where any other
            // value is known too.
            if !within.intersects(cell) {
                continue;
            }
            let cell = match among {
                Some(best) => best.imp(cell),
                None => cell.clone(),
            };
            let k = self.knows(agent, state, &cell)?;
            known = Some(match known {
                Some(acc) => acc.or(&k),
                None => k,
            });
        }
        let known = known.unwrap_or_else(|| self.space.mk_true());
        if among.is_none() {
            state.saw(agent.0, &known);
        }
        Ok(known)
    }

    /// `knows_value(agent, c1, …, ck)` of constants, bit by bit: the agent's worlds all
    /// give the constants one value exactly when they all give each of their bits one
    /// value, so it is the conjunction over their bits of `K b ∨ K ¬b` (two questions
    /// per bit, where the values' cells take one per value: 2 · 8 instead of 200 for an
    /// int of 1..=200, 2 · 14 instead of ~10⁴ for a pair of such ints). The bits the agent
    /// learned are known everywhere and skipped. None when an expression is not a
    /// constant, or when the constants have no more values than twice their bits (the
    /// cells are then as few).
    fn knows_bits(
        &self,
        agent: CharId,
        state: &Rc<State>,
        exprs: &[Expr],
    ) -> Result<Option<Bdd>, Failure> {
        let mut consts = Vec::with_capacity(exprs.len());
        let mut values: u128 = 1;
        for e in exprs {
            let ExprKind::Const(c) = e.kind else {
                return Ok(None);
            };
            let count = match self.space.kind(c.0) {
                Some(Kind::Bool) => 2,
                Some(Kind::Enum(n)) => n as u128,
                Some(Kind::Int { count, .. }) => count,
                Some(Kind::OneHot(_)) | None => return Ok(None),
            };
            values = values.saturating_mul(count);
            consts.push(c.0);
        }
        let bits = self.space.bits_of(&consts);
        if values <= 2 * bits.len() as u128 {
            return Ok(None);
        }
        let seen: Vec<usize> = (state.learned.get(agent.0).into_iter())
            .flat_map(|l| l.iter())
            .filter_map(|l| match l {
                Learned::Const(c) => Some(*c),
                Learned::Expr(_) => None,
            })
            .collect();
        let seen = self.space.mark(&self.space.bits_of(&seen));
        let bits: Vec<BddVariable> = bits.into_iter().filter(|b| !seen[b.to_index()]).collect();
        self.check_deadline()?;
        let view = self.view(agent, state);
        if let Some(classes) = self.classes(agent.0, state, &view, 2 * bits.len()) {
            // One pass: the classes where some bit takes both values.
            let mut unknown = Vec::new();
            for class in &classes.cells {
                if class.worlds.is_false() {
                    continue;
                }
                let Some(taken) = class.taken.get_or_init(|| class.worlds.values_taken()) else {
                    continue;
                };
                let i = |b: &BddVariable| b.to_index();
                if bits
                    .iter()
                    .any(|b| taken.false_in_some[i(b)] && taken.true_in_some[i(b)])
                {
                    unknown.push(class.cube.clone());
                }
            }
            let known = self.union(unknown).not();
            state.saw(agent.0, &known);
            return Ok(Some(known));
        }
        let mut known = self.space.mk_true();
        for bit in bits {
            let literal = self.space.literal(bit, true);
            let cells = [literal.not(), literal];
            known = known.and(&self.knows_value(agent, state, &cells, None)?);
            if known.is_false() {
                break;
            }
        }
        state.saw(agent.0, &known);
        Ok(Some(known))
    }

    /// The bit x when `cells` are the values of x, the one bit `agent` does not see (a
    /// muddy child asked whether she is muddy): then the agent knows x's value where not
    /// both of its worlds are in κ, K x ∨ K ¬x = ¬(κ[x := 0] ∧ κ[x := 1]) = ¬∀x. κ, one
    /// quantification instead of two and their disjunction ([`Self::knows_whether`]).
    pub(super) fn whether_bit(
        &self,
        agent: CharId,
        state: &Rc<State>,
        cells: &[Bdd],
    ) -> Option<BddVariable> {
        let View::Constants {
            only: Some(bit), ..
        } = &*self.view(agent, state)
        else {
            return None;
        };
        let literal = self.space.literal(*bit, true);
        match cells {
            [a, b]
                if (*a == literal && *b == literal.not())
                    || (*b == literal && *a == literal.not()) =>
            {
                Some(*bit)
            }
            _ => None,
        }
    }
}

impl BddBackend {
    /// The worlds of κ that `agent` finds most plausible among those it cannot tell
    /// apart: rank by rank (most significant first), in each class the worlds of the
    /// least level, a world kept when no world of its class (among those kept so far) is
    /// of a lower level, that is when the agent knows none is.
    pub(super) fn most_plausible(&self, agent: CharId, state: &Rc<State>) -> Result<Bdd, Failure> {
        if let Some(best) = state.plausible.borrow().get(&agent.0) {
            return Ok(best.clone());
        }
        let mut best = state.kappa.clone();
        for rank in &state.ranks[agent.0] {
            let levels = match rank {
                Rank::Expected(set) => vec![set.clone(), set.not()],
                Rank::Levels(levels) => levels.to_vec(),
            };
            let mut lower = self.space.mk_false();
            let mut kept = self.space.mk_false();
            for level in &levels {
                let here = best.and(level);
                kept = kept.or(&here.and(&self.knows(agent, state, &lower.not())?));
                lower = lower.or(&here);
            }
            best = kept;
        }
        state.plausible.borrow_mut().insert(agent.0, best.clone());
        Ok(best)
    }
}

fn mixed_types() -> Failure {
    Failure::Unsupported("internal error: an expression of the wrong type".into())
}
