//! Questions about a state before the universe's bounds all hold (the explorer's
//! `run --trace`, the playground, and whether an early state had a world): answered on a
//! backend made for the question, on BDDs for a story of bools and enums, listed
//! natively when the worlds so far are few, else on Z3.

use std::rc::Rc;

use super::search::Limits;
use super::universe::{Universe, list_worlds};
use super::world_ids::WorldIds;
use super::{ExplicitBackend, Learned, State};
use crate::SolverError;
use crate::bdd::BddBackend;
use crate::driver::Backend;
use crate::ir::{CharId, Expr, ExprKind};
use crate::limits::Size;
use crate::syntax::Span;
use crate::z3::Z3Backend;

/// The most worlds a state before the universe's bounds all hold is listed with natively.
const EARLY_MAX_WORLDS: usize = 1 << 20;

/// A backend made for a question about a state before the universe's bounds all hold.
pub(super) enum Early {
    Native(Box<ExplicitBackend>, Rc<State>),
    /// κ on the backend's BDDs (`early_bdd`).
    Bdd(Rc<crate::bdd::State>),
    Z3(Box<Z3Backend>, crate::z3::State),
}

impl ExplicitBackend {
    /// A state before the universe's bounds all hold, listed natively when its worlds
    /// (the types and the announcements so far) number at most [`EARLY_MAX_WORLDS`]: a
    /// backend of its own whose universe they are, and the state of all of them. Only the
    /// explorer asks about such states (`run --trace`, the playground).
    pub(super) fn early_native(&mut self, state: &State) -> Option<(ExplicitBackend, Rc<State>)> {
        let prefix = &self.prefix[..self.prefix.len() - state.pending];
        let universe = match self.early.get(&state.pending) {
            Some(known) => known.clone()?,
            None => {
                let limits = Limits {
                    max_worlds: EARLY_MAX_WORLDS,
                    max_nodes: Size::Auto.budget().max_nodes,
                    max_work: usize::MAX,
                    deadline: self.deadline,
                    cancel: self.options.cancel.clone(),
                };
                let constraints: Vec<&Expr> = prefix.iter().collect();
                let (found, overflow) = list_worlds(&self.program, &constraints, &limits);
                let universe = (found.ok().filter(|_| !overflow))
                    .map(|(columns, len, _)| Rc::new(Universe::new(columns, len)));
                self.early.insert(state.pending, universe.clone());
                universe?
            }
        };
        let len = universe.len;
        let mut backend = ExplicitBackend::over(
            self.program.clone(),
            &self.options,
            prefix.to_vec(),
            universe,
            self.deadline,
        );
        let all = Rc::new(WorldIds::range(0, len));
        let state = backend.state(0, all, state.minds.clone());
        Some((backend, state))
    }

    /// A state before the universe's bounds all hold, made for a question about it: on
    /// BDDs for a story of bools and enums, else listed natively ([`Self::early_native`])
    /// when it can be, else on Z3. κ is the types and the announcements so far.
    pub(super) fn early(&mut self, state: &State) -> Result<Early, SolverError> {
        if self.early_bdd.is_none() {
            self.early_bdd = Some(BddBackend::new(self.program.clone(), &self.options).ok());
        }
        if let Some(Some(bdd)) = self.early_bdd.take() {
            let replayed = self.early_on(bdd, state);
            let (bdd, kappa) = replayed?;
            self.early_bdd = Some(Some(bdd));
            return Ok(Early::Bdd(kappa));
        }
        if let Some((native, all)) = self.early_native(state) {
            return Ok(Early::Native(Box::new(native), all));
        }
        let z3 = Z3Backend::new(self.program.clone(), &self.options);
        let (z3, kappa) = self.early_on(z3, state)?;
        Ok(Early::Z3(Box::new(z3), kappa))
    }

    /// The BDD backend [`Self::early`] made.
    pub(super) fn early_bdd(&mut self) -> &mut BddBackend {
        match &mut self.early_bdd {
            Some(Some(bdd)) => bdd,
            _ => unreachable!("Early::Bdd comes with the BDD backend"),
        }
    }

    /// [`Self::early`] on `backend`.
    fn early_on<B: Backend>(
        &self,
        mut backend: B,
        state: &State,
    ) -> Result<(B, B::State), SolverError> {
        let z3 = &mut backend;
        let mut kappa = z3.initial()?;
        for e in &self.prefix[..self.prefix.len() - state.pending] {
            let phi = z3.formula(e, &kappa, &[])?;
            kappa = z3.restrict(&kappa, phi, false)?;
        }
        for (who, items) in state.minds.learned.iter().enumerate() {
            for item in items {
                let what = match item {
                    Learned::Const(c) => Expr {
                        kind: ExprKind::Const(crate::ir::ConstId(*c)),
                        ty: self.program.constants[*c].ty,
                        span: Span::default(),
                    },
                    Learned::Expr(e) => (**e).clone(),
                    Learned::Set(_) => {
                        return Err(SolverError::Unsupported(
                            "the explicit-worlds backend cannot ask this about a state where a character \
                             learned a formula with knowledge operators before the announcements that \
                             bound the worlds; the `z3` backend can"
                                .into(),
                        ));
                    }
                };
                kappa = z3.learn(&kappa, CharId(who), &what)?;
            }
        }
        Ok((backend, kappa))
    }
}
