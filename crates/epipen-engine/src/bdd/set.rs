//! The sets of worlds the driver holds between its calls: a BDD, or, for an agent asked
//! whether it knows the one bit it does not see (a muddy child asked whether she is
//! muddy), that question kept unevaluated until a BDD is needed.
//!
//! A round of muddy children asks each of n children that question in the same state,
//! evaluates each answer in the actual world, and adds all of them to κ at once. As
//! BDDs, those are n quantifications of κ, each about as large as κ, and then their
//! conjunction: n times κ's size per round. Kept as questions, each answer in the
//! actual world is two look-ups of κ, and the conjunction of the block is one walk over
//! κ ([`Bdd::and_each_quantified`]).

use std::rc::Rc;

use super::BddBackend;
use super::diagram::{Bdd, BddValuation, BddVariable};
use super::knowledge::State;
use super::value::tuple_cells;
use crate::Failure;
use crate::ir::{Expr, ExprKind};

/// Bits, each with whether the agent asked about it knows it.
type Questions = Vec<(BddVariable, bool)>;

/// A set of worlds as the BDD backend hands it to the driver.
#[derive(Clone)]
pub(crate) enum Set {
    Bdd(Bdd),
    /// `knows_value(agent, x)` in `state` (or its complement), x the one bit the agent
    /// does not see: ¬∀x. κ.
    Whether(Rc<Whether>),
}

pub(crate) struct Whether {
    pub(super) agent: usize,
    pub(super) state: Rc<State>,
    pub(super) bit: BddVariable,
    /// True: the worlds where the agent knows x's value (¬∀x. κ); false: the others.
    pub(super) knows: bool,
}

impl Set {
    pub(super) fn not(&self) -> Set {
        match self {
            Set::Bdd(b) => Set::Bdd(b.not()),
            Set::Whether(w) => Set::Whether(Rc::new(Whether {
                agent: w.agent,
                state: w.state.clone(),
                bit: w.bit,
                knows: !w.knows,
            })),
        }
    }

    /// Whether `point` is in the set: for a question, whether both values of its bit
    /// at `point` are worlds of κ.
    pub(super) fn holds(&self, point: &BddValuation) -> bool {
        match self {
            Set::Bdd(b) => b.eval_in(point),
            Set::Whether(w) => {
                let mut at = point.clone();
                at.set_value(w.bit, false);
                let low = w.state.kappa.eval_in(&at);
                at.set_value(w.bit, true);
                let both = low && w.state.kappa.eval_in(&at);
                both != w.knows
            }
        }
    }
}

impl BddBackend {
    /// The worlds where the boolean expression `e` holds in `state`: a question whether
    /// an agent knows its one hidden bit (or its negation) kept as such, anything else
    /// as a BDD.
    pub(super) fn set(&self, e: &Expr, state: &Rc<State>) -> Result<Set, Failure> {
        match &e.kind {
            ExprKind::Not(a) => Ok(self.set(a, state)?.not()),
            ExprKind::KnowsValue { agent, exprs }
                if exprs.len() == 1 && matches!(exprs[0].kind, ExprKind::Const(_)) =>
            {
                let values = [self.eval(&exprs[0], state)?];
                let cells = tuple_cells(&values, &self.space.mk_true());
                match self.whether_bit(*agent, state, &cells) {
                    Some(bit) => {
                        self.check_deadline()?;
                        Ok(Set::Whether(Rc::new(Whether {
                            agent: agent.0,
                            state: state.clone(),
                            bit,
                            knows: true,
                        })))
                    }
                    None => Ok(Set::Bdd(self.bool(e, state)?)),
                }
            }
            _ => Ok(Set::Bdd(self.bool(e, state)?)),
        }
    }

    /// The set as a BDD.
    pub(super) fn force(&self, set: Set) -> Bdd {
        match set {
            Set::Bdd(b) => b,
            Set::Whether(w) => {
                let known = self.knows_whether(w.agent, &w.state, w.bit);
                if w.knows { known } else { known.not() }
            }
        }
    }

    /// The intersection of the sets: the questions about one state's κ with at least one
    /// "does not know" among them in one walk (their conjunction is then within κ, so
    /// κ ∧ ⋀ is exactly ⋀), the others as BDDs.
    pub(super) fn intersection(&self, sets: Vec<Set>) -> Bdd {
        let mut all = self.space.mk_true();
        // Per state, the bits asked about and whether the answer was "knows".
        let mut groups: Vec<(Rc<State>, Questions)> = Vec::new();
        for set in sets {
            match set {
                Set::Whether(w) => match groups
                    .iter_mut()
                    .find(|(state, _)| state.kappa == w.state.kappa)
                {
                    Some((_, bits)) => bits.push((w.bit, w.knows)),
                    None => groups.push((w.state.clone(), vec![(w.bit, w.knows)])),
                },
                Set::Bdd(b) => all = all.and(&b),
            }
        }
        for (state, bits) in groups {
            let part = if bits.iter().any(|(_, knows)| !knows) {
                state.kappa.and_each_quantified(&bits)
            } else {
                bits.iter()
                    .fold(self.space.mk_true(), |acc, &(bit, knows)| {
                        let known = self.knows_whether_bdd(&state, bit);
                        acc.and(&if knows { known } else { known.not() })
                    })
            };
            all = all.and(&part);
        }
        all
    }

    /// ¬∀x. κ for an agent whose only hidden bit is x, memoised in the state.
    pub(super) fn knows_whether(&self, agent: usize, state: &Rc<State>, bit: BddVariable) -> Bdd {
        let known = self.knows_whether_bdd(state, bit);
        state.saw(agent, &known);
        known
    }

    fn knows_whether_bdd(&self, state: &Rc<State>, bit: BddVariable) -> Bdd {
        if let Some(known) = state.whether.borrow().get(&bit) {
            return known.clone();
        }
        let known = state.kappa.not().exists(&self.space.cube(&[bit]));
        state.whether.borrow_mut().insert(bit, known.clone());
        known
    }
}
