//! Questions about a state before the universe's bounds all hold (the explorer's
//! `run --trace`, the playground, whether an early state had a world, an `actual` whose
//! worlds cannot be listed): the explicit backend answers none of them itself; it says
//! what κ is made of ([`Handover`]) and the driver asks another backend
//! (a [`crate::driver::Standby`] that `choice` makes), which may be an explicit backend over the worlds listed
//! so far ([`ExplicitBackend::listing`]).

use std::rc::Rc;

use super::search::Limits;
use super::universe::{Universe, list_worlds};
use super::{ExplicitBackend, Learned, State};
use crate::Options;
use crate::driver::Handover;
use crate::ir::{CharId, ConstId, Expr, ExprKind, Program};
use crate::limits::Size;
use crate::syntax::Span;

impl ExplicitBackend {
    /// What κ is made of in `state`, when its worlds are not listed yet (None: they
    /// are): the announcements so far and what each character learned (as expressions;
    /// a formula learned is a set of this backend's worlds, which no other can read).
    pub(super) fn handover(&self, state: &State) -> Option<Handover> {
        if state.pending == 0 {
            return None;
        }
        let constraints = self.prefix[..self.prefix.len() - state.pending].to_vec();
        let mut learned = Vec::new();
        for (who, items) in state.minds.learned.iter().enumerate() {
            for item in items {
                let what = match item {
                    Learned::Const(c) => Expr {
                        kind: ExprKind::Const(ConstId(*c)),
                        ty: self.program.constants[*c].ty,
                        span: Span::default(),
                    },
                    Learned::Expr(e) => (**e).clone(),
                    // Only the model needs what characters learned; the worlds do not.
                    Learned::Set(_) | Learned::Classes(_) => {
                        return Some(Handover {
                            constraints,
                            learned: Err(
                                "the explicit-worlds backend cannot draw the model of a state \
                                 where a character learned a formula with knowledge operators \
                                 before the announcements that bound the worlds; the `z3` \
                                 backend can"
                                    .into(),
                            ),
                        });
                    }
                };
                learned.push((CharId(who), what));
            }
        }
        Some(Handover {
            constraints,
            learned: Ok(learned),
        })
    }

    /// A backend over the worlds of the constants' types where `constraints` hold, when
    /// they number at most `max_worlds` (None: more, or the time ran out listing them).
    pub(crate) fn listing(
        program: Rc<Program>,
        options: &Options,
        constraints: &[Expr],
        max_worlds: usize,
    ) -> Option<ExplicitBackend> {
        let limits = Limits {
            max_worlds,
            max_nodes: Size::Auto.budget().max_nodes,
            max_work: usize::MAX,
            deadline: options.deadline,
            cancel: options.cancel.clone(),
        };
        let found: Vec<&Expr> = constraints.iter().collect();
        let (found, overflow) = list_worlds(&program, &found, &limits);
        let (columns, len, _) = found.ok().filter(|_| !overflow)?;
        let universe = Rc::new(Universe::new(columns, len));
        Some(ExplicitBackend::over(
            program,
            options,
            constraints.to_vec(),
            universe,
            options.deadline,
        ))
    }
}
