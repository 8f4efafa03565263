//! Blocks from Python: `simultaneously` and `assert_adds_ck`, their statements as Python
//! sends them ([`Item`]), built and run on the story's thread.

use epipen::story::{Block, Hint, Simultaneous};
use epipen::{Character, Formula};
use pyo3::prelude::*;

use super::{Actor, Answer, Handles, Learned, Term, failed, invalid};

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
type Announcement = (Option<Character>, bool, Formula);

/// A statement of an `assert_adds_ck` block, built.
enum Built {
    Announce(Announcement),
    Learns(Character, Learned),
    Checkpoint(String),
    Simultaneously(Vec<Announcement>),
}

/// A `simultaneously` block's statement, built.
fn simultaneous(h: &Handles, item: &Item) -> Result<Announcement, String> {
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

/// An `assert_adds_ck` block's statement, built.
fn built(h: &Handles, item: &Item) -> Result<Built, String> {
    Ok(match item {
        Item::Announce(_) | Item::Says(..) => Built::Announce(simultaneous(h, item)?),
        Item::Learns(who, values) => Built::Learns(h.character(*who)?, h.learned(values)?),
        Item::Checkpoint(name) => Built::Checkpoint(name.clone()),
        Item::Simultaneously(inner) => Built::Simultaneously(
            (inner.iter())
                .map(|item| simultaneous(h, item))
                .collect::<Result<_, _>>()?,
        ),
    })
}

/// Announces `statements` in a `simultaneously` block.
pub(super) fn announce_all(s: &mut Simultaneous, statements: Vec<Announcement>) {
    for (who, reveals, f) in statements {
        match (who, reveals) {
            (None, _) => s.announce(f),
            (Some(who), false) => s.says(who, f),
            (Some(who), true) => s.reveals(who, f),
        };
    }
}

/// Adds `statement` to an `assert_adds_ck` block.
fn add(b: &mut Block, statement: Built) {
    match statement {
        Built::Announce((None, _, f)) => b.announce(f),
        Built::Announce((Some(who), false, f)) => b.says(who, f),
        Built::Announce((Some(who), true, f)) => b.reveals(who, f),
        Built::Learns(who, values) => b.learns(who, values),
        Built::Checkpoint(name) => {
            b.checkpoint(&name);
            b
        }
        Built::Simultaneously(statements) => b.simultaneously(|s| announce_all(s, statements)),
    };
}

impl Actor {
    /// A `simultaneously` block's statements, built.
    pub(super) fn simultaneous(&self, block: &[Item]) -> Answer<Vec<Announcement>> {
        (block.iter())
            .map(|item| simultaneous(&self.handles, item).map_err(invalid))
            .collect()
    }

    pub(super) fn assert_adds_ck(&mut self, hint: &Term, block: &[Item]) -> Answer<&'static str> {
        let hint = self.handles.formula(hint).map_err(invalid)?;
        // Built before the block opens: a mistake stops the block before it runs.
        let statements = (block.iter())
            .map(|item| built(&self.handles, item).map_err(invalid))
            .collect::<Answer<Vec<Built>>>()?;
        let outcome = self.story.assert_adds_ck(hint, |b| {
            statements.into_iter().for_each(|s| add(b, s));
        });
        match outcome.map_err(failed)? {
            Hint::Verified { .. } => Ok("verified"),
            Hint::Trusted => Ok("trusted"),
            Hint::Vacuous => Ok("vacuous"),
            _ => Ok("refuted"),
        }
    }
}
