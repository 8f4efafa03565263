//! What an `announce`, `A: …` or `A reveals …` statement adds to κ, the same for every
//! backend: the storyteller's formula, or K_A ψ by the backend's `said`, checked in the
//! actual world.

use super::{Backend, Driver, Origin};
use crate::ir::{Stmt, StmtKind};
use crate::{At, EngineError, Failure, Report};

/// What a character's announcement adds ([`Semantics::said`](super::Semantics::said)): the set, and where it comes
/// from: [`Origin::Written`] when it is ψ as the story wrote it (the backend found that
/// the speaker sees all of ψ, so that K_A ψ is ψ): κ then takes it as written, with no
/// smaller equivalent sought.
pub(crate) struct Said<S> {
    pub set: S,
    pub origin: Origin,
}

impl<S> Said<S> {
    /// K_A ψ, or a set the backend made equal to it on κ.
    pub(crate) fn derived(set: S) -> Said<S> {
        Said {
            set,
            origin: Origin::Derived,
        }
    }
}

impl<B: Backend> Driver<B> {
    /// What an `announce`, `A: …` or `A reveals …` statement adds to κ, evaluated in
    /// `state`, and where it comes from (see [`Backend::restrict`]); a reveal
    /// is reported to `sink`. An announcement must hold in the actual world, when there
    /// is one.
    pub(super) fn announced(
        &mut self,
        stmt: &Stmt,
        state: &B::State,
        sink: &mut dyn FnMut(Report),
    ) -> Result<(B::Set, Origin), EngineError> {
        let span = stmt.span;
        match &stmt.kind {
            StmtKind::Announce { speaker, formula } => {
                let (added, origin) = match speaker {
                    None => {
                        let e = self.now(formula).at(span)?;
                        let set = (self.backend)
                            .announced_formula(&e, state, &self.checkpoints)
                            .at(span)?;
                        let origin = match formula.mentions_knowledge() {
                            true => Origin::Derived,
                            false => Origin::Written,
                        };
                        (set, origin)
                    }
                    Some(agent) => {
                        let psi = self.formula(formula, state).at(span)?;
                        let said = self.backend.said(*agent, psi, state).at(span)?;
                        (said.set, said.origin)
                    }
                };
                if self.actual.is_some() && !self.holds_in_actual(&added, "").at(span)? {
                    return Err(Failure::false_in_actual()).at(span);
                }
                Ok((added, origin))
            }
            StmtKind::Reveal { who, formula, text } => {
                let psi = self.formula(formula, state).at(span)?;
                let holds = self.holds_in_actual(&psi, "`reveals`").at(span)?;
                let said = if holds { psi } else { self.backend.not(&psi) };
                let Said { set: added, origin } = self.backend.said(*who, said, state).at(span)?;
                // A reveals what it knows: in the actual world it must know φ or not φ.
                if !self.holds_in_actual(&added, "`reveals`").at(span)? {
                    let name = &self.program.characters[who.0].name;
                    return Err(Failure::reveals_unknown(name, holds)).at(span);
                }
                sink(Report::Reveal {
                    span,
                    round: self.round,
                    who: *who,
                    text: text.clone(),
                    holds,
                });
                Ok((added, origin))
            }
            _ => Err(Failure::internal(
                "only announcements can be made simultaneously (lowering keeps them so)",
            ))
            .at(span),
        }
    }
}
