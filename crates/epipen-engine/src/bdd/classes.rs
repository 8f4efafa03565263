//! κ split into the classes of worlds an agent cannot tell apart: for many questions
//! asked of one agent in one state ([`Classes`]), and at one world ([`BddBackend::class_at`]:
//! `check actual` and the `until` of a `repeat`).

use std::cell::OnceCell;
use std::rc::Rc;

use super::BddBackend;
use super::diagram::{Bdd, BddValuation};
use super::knowledge::{Class, Classes, Learned, State, View};
use crate::Failure;
use crate::ir::CharId;

/// An agent's questions are answered by [`Classes`] from this many on (the classes cost
/// one conjunction with κ each: a few questions pay for them).
const CLASSES_FROM: usize = 3;
/// The most bits an agent who learned only constants may see for its questions to be
/// answered by classes.
const CLASS_BITS: usize = 6;
/// The most classes of an agent who learned expressions, for its questions to be
/// answered by classes (Sum and Product's P, who learned x · y: about 2,000).
const EXPRESSION_CLASSES: usize = 1 << 14;
/// The most work splitting κ into those classes may take, in intersections times κ's
/// nodes (an intersection with a part walks a class of κ: Sum and Product's P takes
/// about 2,000 of a κ of 37 nodes; the prisoners' counter, after n interviews of three
/// cells each, thousands of a κ of 10,000 nodes and more, where one quantification over
/// primed copies per question is far quicker: 7.7 s against 0.4 s at n = 8).
const EXPRESSION_CLASS_WORK: usize = 1 << 22;

impl BddBackend {
    /// κ split by `agent`'s view, when the agent has been asked enough questions in
    /// `state` (`questions` more now) and learned only constants of a few bits or
    /// expressions of not too many values (None: quantify for each question).
    pub(super) fn classes(
        &self,
        agent: usize,
        state: &State,
        view: &View,
        questions: usize,
    ) -> Option<Rc<Classes>> {
        if let Some(known) = state.classes.borrow().get(&agent) {
            return known.clone();
        }
        let asked = {
            let mut asked = state.asked.borrow_mut();
            let n = asked.entry(agent).or_insert(0);
            *n += questions;
            *n
        };
        // An agent who learned expressions takes its classes at once: they cost an
        // intersection per cell, where the first question's `L(ȳ) = L(x̄)` costs a
        // conjunction with the primed copy per cell.
        if asked < CLASSES_FROM && matches!(view, View::Constants { .. }) {
            return None;
        }
        let View::Constants { hidden, .. } = view else {
            let classes = self.expression_classes(agent, state).map(Rc::new);
            state.classes.borrow_mut().insert(agent, classes.clone());
            return classes;
        };
        let seen = self.space.unhidden_bits(hidden);
        let classes = (seen.len() <= CLASS_BITS).then(|| {
            let cells = (0..1usize << seen.len())
                .map(|v| {
                    let cube = seen
                        .iter()
                        .enumerate()
                        .fold(self.space.mk_true(), |acc, (i, bit)| {
                            acc.and(&self.space.literal(*bit, (v >> i) & 1 == 1))
                        });
                    let worlds = state.kappa.and(&cube);
                    Class {
                        cube,
                        worlds,
                        taken: OnceCell::new(),
                    }
                })
                .collect();
            Rc::new(Classes { cells })
        });
        state.classes.borrow_mut().insert(agent, classes.clone());
        classes
    }

    /// κ split by what an agent who learned expressions sees: the non-empty
    /// intersections of κ with the cells of what it learned (a constant's bits, an
    /// expression's values), each with the conjunction of its cells as its cube. The
    /// classes κ leaves empty are not listed: the agent knows everything there. None when
    /// there would be more than [`EXPRESSION_CLASSES`] classes (or the refinement more
    /// work than [`EXPRESSION_CLASS_WORK`]).
    pub(super) fn expression_classes(&self, agent: usize, state: &State) -> Option<Classes> {
        let learned = state.learned.get(agent)?;
        let mut cells: Vec<(Bdd, Bdd)> = vec![(self.space.mk_true(), state.kappa.clone())];
        let mut work = 0usize;
        let nodes = state.kappa.size();
        let mut refine = |cells: Vec<(Bdd, Bdd)>, parts: &[Bdd]| -> Option<Vec<(Bdd, Bdd)>> {
            let step = cells.len().saturating_mul(parts.len());
            work = work.saturating_add(step.saturating_mul(nodes));
            if work > EXPRESSION_CLASS_WORK {
                return None;
            }
            let mut next = Vec::new();
            for (cube, worlds) in &cells {
                for part in parts {
                    // One walk: a conjunction that comes out empty makes no node.
                    let both = worlds.and(part);
                    if !both.is_false() {
                        next.push((cube.and(part), both));
                    }
                }
                if next.len() > EXPRESSION_CLASSES {
                    return None;
                }
            }
            Some(next)
        };
        for item in learned.iter() {
            match item {
                Learned::Const(c) => {
                    for bit in self.space.bits_of(&[*c]) {
                        let b = self.space.literal(bit, true);
                        cells = refine(cells, &[b.not(), b])?;
                    }
                }
                Learned::Expr(parts) => cells = refine(cells, parts)?,
            }
        }
        Some(Classes {
            cells: cells
                .into_iter()
                .map(|(cube, worlds)| Class {
                    cube,
                    worlds,
                    taken: OnceCell::new(),
                })
                .collect(),
        })
    }

    /// K φ from the classes of the agent's view: the worlds of no class of which some
    /// world falsifies φ (classes not listed are empty: the agent knows φ there).
    pub(super) fn knows_by_class(&self, classes: &Classes, phi: &Bdd) -> Result<Bdd, Failure> {
        let literals = phi.as_cube();
        let not_phi = phi.not();
        let mut unknown = Vec::new();
        for class in &classes.cells {
            let knows = match &literals {
                _ if class.worlds.is_false() => true,
                Some(literals) => match class.taken.get_or_init(|| class.worlds.values_taken()) {
                    None => true,
                    Some(taken) => literals.iter().all(|&(var, value)| {
                        if value {
                            !taken.false_in_some[var]
                        } else {
                            !taken.true_in_some[var]
                        }
                    }),
                },
                None => !class.worlds.intersects(&not_phi),
            };
            if !knows {
                unknown.push(class.cube.clone());
            }
        }
        Ok(self.union(unknown).not())
    }

    /// Whether `agent` learned an expression in `state` (its knowledge of the whole of κ
    /// then relates primed copies of the bits: at one world, its class is cheaper).
    pub(super) fn learned_expressions(&self, agent: CharId, state: &State) -> bool {
        state
            .learned
            .get(agent.0)
            .is_some_and(|learned| learned.iter().any(|l| matches!(l, Learned::Expr(_))))
    }

    /// The worlds of κ `agent` cannot tell from `point` (its class there): those that
    /// give each constant it learned the point's value and each expression it learned
    /// the point's value (the one condition of the expression's values that holds at the
    /// point). `K_A φ` holds at the point when no world of the class falsifies φ: one
    /// conjunction per thing learned, where the set of every world's knowledge relates
    /// each bit to a primed copy ([`View::Expressions`]). Kept per state and agent for
    /// the state's latest point.
    pub(super) fn class_at(
        &self,
        agent: CharId,
        state: &Rc<State>,
        point: &BddValuation,
    ) -> Result<Bdd, Failure> {
        if let Some((at, class)) = state.classes_at.borrow().get(&agent.0)
            && at == point
        {
            return Ok(class.clone());
        }
        self.check_deadline()?;
        let mut class = state.kappa.clone();
        if let Some(learned) = state.learned.get(agent.0) {
            for l in learned.iter() {
                match l {
                    Learned::Const(c) => {
                        for bit in self.space.bits_of(&[*c]) {
                            class = class.and(&self.space.literal(bit, point.value(bit)));
                        }
                    }
                    Learned::Expr(cells) => {
                        let cell = cells.iter().find(|cell| cell.eval_in(point));
                        class = match cell {
                            Some(cell) => class.and(cell),
                            None => self.space.mk_false(),
                        };
                    }
                }
            }
        }
        (state.classes_at.borrow_mut()).insert(agent.0, (point.clone(), class.clone()));
        Ok(class)
    }
}
