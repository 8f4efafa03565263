//! Blocks from Python: `simultaneously` and `assert_adds_ck`, their statements as Python
//! sends them ([`Item`]), built and run on the story's thread.

use epipen::story::Hint;
use epipen::{Character, Formula, Int};
use pyo3::prelude::*;

use super::{Actor, Answer, Handles, Term, failed, invalid};

/// A statement of a block (`simultaneously`, `assert_adds_ck`), as Python sends it:
/// `announce`'s formula; `says` and `reveals` as (who, formula, whether it reveals);
/// `learns` as (who, a list of values); a checkpoint's name; a `simultaneously` block's list.
#[derive(Clone, FromPyObject)]
pub(super) enum Item {
    Announce(Term),
    Says(usize, Term, bool),
    Learns(usize, Vec<Term>),
    Checkpoint(String),
    Simultaneously(Vec<Item>),
}

/// A statement of a `simultaneously` block, built: its speaker (None: the
/// storyteller's `announce`), whether it `reveals`, its formula.
type Simultaneous = (Option<Character>, bool, Formula);

/// A `simultaneously` block's statement, built.
fn simultaneous(h: &Handles, item: &Item) -> Result<Simultaneous, String> {
    let (who, reveals, t) = match item {
        Item::Announce(t) => return Ok((None, false, h.formula(t)?)),
        Item::Says(who, t, reveals) => (who, *reveals, t),
        _ => {
            return Err(
                "a `simultaneously` block holds announcements only (announce, says, reveals)"
                    .into(),
            );
        }
    };
    let who = h.character(*who)?;
    Ok((Some(who), reveals, h.formula(t)?))
}

impl Actor {
    /// A `simultaneously` block's statements, built.
    pub(super) fn simultaneous(&self, block: &[Item]) -> Answer<Vec<Simultaneous>> {
        (block.iter())
            .map(|item| simultaneous(&self.handles, item).map_err(invalid))
            .collect()
    }

    pub(super) fn assert_adds_ck(&mut self, hint: &Term, block: &[Item]) -> Answer<&'static str> {
        let hint = self.handles.formula(hint).map_err(invalid)?;
        let Actor { story, handles, .. } = self;
        // The first mistake stops the block (an invalid statement makes the story refuse
        // it) and is what is reported.
        let mut mistake: Option<String> = None;
        let outcome = story.assert_adds_ck(hint, |b| {
            let h = &*handles;
            for item in block {
                let built = (|| -> Result<(), String> {
                    match item {
                        Item::Announce(t) => {
                            b.announce(h.formula(t)?);
                        }
                        Item::Says(who, t, reveals) => {
                            let who = h.character(*who)?;
                            let f = h.formula(t)?;
                            match reveals {
                                true => b.reveals(who, f),
                                false => b.says(who, f),
                            };
                        }
                        Item::Learns(who, values) => {
                            let who = h.character(*who)?;
                            let learned = h.learned(values)?;
                            if !learned.ints.is_empty() {
                                b.learns(who, learned.ints);
                            }
                            if !learned.bools.is_empty() {
                                b.learns(who, learned.bools);
                            }
                            if !learned.enums.is_empty() {
                                b.learns(who, learned.enums);
                            }
                        }
                        Item::Checkpoint(name) => {
                            b.checkpoint(name);
                        }
                        Item::Simultaneously(inner) => {
                            let statements = (inner.iter())
                                .map(|item| simultaneous(h, item))
                                .collect::<Result<Vec<_>, _>>()?;
                            b.simultaneously(|s| {
                                for (who, reveals, f) in statements {
                                    match (who, reveals) {
                                        (None, _) => s.announce(f),
                                        (Some(who), false) => s.says(who, f),
                                        (Some(who), true) => s.reveals(who, f),
                                    };
                                }
                            });
                        }
                    }
                    Ok(())
                })();
                if let Err(m) = built {
                    mistake = Some(m);
                    // Refused: a statement that cannot hold stops the block.
                    b.announce(Formula::from(false).and(Int::from(u64::MAX).eq(0)));
                    break;
                }
            }
        });
        if let Some(m) = mistake {
            return Err(invalid(m));
        }
        match outcome.map_err(failed)? {
            Hint::Verified { .. } => Ok("verified"),
            Hint::Trusted => Ok("trusted"),
            Hint::Vacuous => Ok("vacuous"),
            _ => Ok("refuted"),
        }
    }
}
