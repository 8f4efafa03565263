//! Belief's statement: `A expects φ` ([`Story::expects`]). Belief's formulas are
//! [`Formula::believes`] and [`Formula::believes_value`]; an event's plausibility of its
//! cases is [`EventBlock::expects`](super::EventBlock::expects).

use crate::syntax::ast;

use super::expr::Formula;
use super::{Character, Error, Story};

impl Story {
    /// `A expects φ`: soft information. `who` now finds every world where φ holds (as it
    /// is now; knowledge operators allowed) more plausible than every world where it does
    /// not, its old plausibility deciding inside each part (a radical upgrade). Nobody
    /// learns anything: the worlds and what each character knows stay as they were, but
    /// what `who` believes ([`Formula::believes`]) changes. An announcement that removes
    /// every world `who` believed possible revises its belief to the next most plausible
    /// ones (docs/language.md, "Belief").
    ///
    /// Watson's hunches: probably not the cook, and it is always the butler; then the
    /// butler's alibi holds.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let (holmes, watson) = (story.character("Holmes"), story.character("Watson"));
    /// let suspect = story.enumeration("Suspect", &["butler", "gardener", "cook"]);
    /// let culprit = story.enum_constant(&suspect, "culprit");
    /// story.actual(culprit.eq("cook"))?;
    /// story.learns(holmes, &culprit)?;
    ///
    /// story.expects(watson, culprit.ne("cook"))?;
    /// story.expects(watson, culprit.eq("butler"))?;
    /// story.check(F::believes(watson, culprit.eq("butler")))?;
    /// story.check(!F::knows(watson, culprit.eq("butler")))?; // a belief, not knowledge
    ///
    /// story.announce(culprit.ne("butler"))?;
    /// // Revised to the next most plausible suspect, though nothing was said of him.
    /// story.check(F::believes(watson, culprit.eq("gardener")))?;
    /// story.check_actual(F::knows(holmes, F::believes(watson, culprit.eq("gardener"))))?;
    /// assert_eq!(story.worlds(10)?.len(), 2); // nothing was ruled out but the butler
    /// # Ok(())
    /// # }
    /// ```
    pub fn expects(&mut self, who: Character, formula: impl Into<Formula>) -> Result<(), Error> {
        let expects = ast::StmtKind::Expects {
            who: self.character_ast(who)?,
            what: self.ast(formula.into().0)?,
        };
        self.lower_run(expects).map(drop)
    }
}
