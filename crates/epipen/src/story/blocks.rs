//! Statements grouped: [`Simultaneous`] announcements and the [`Block`] of an
//! `assert_adds_ck` hint.

use crate::syntax::ast;

use super::expr::Formula;
use super::{Character, Checkpoint, Error, Story, Values};

/// The statements of a [`Story::simultaneously`] block: announcements only, all
/// evaluated in the state at the block's start. Mistakes are reported by
/// [`Story::simultaneously`], which then runs nothing.
pub struct Simultaneous<'s> {
    pub(super) story: &'s Story,
    pub(super) stmts: Vec<ast::Stmt>,
    pub(super) error: Option<Error>,
}

impl Simultaneous<'_> {
    fn push(&mut self, s: Result<ast::StmtKind, Error>) -> &mut Self {
        match s {
            Ok(kind) => self.stmts.push(ast::Stmt::nowhere(kind)),
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// `announce φ`, evaluated at the block's start.
    pub fn announce(&mut self, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.announcement(None, formula.into());
        self.push(s)
    }

    /// `A: φ`, evaluated at the block's start.
    pub fn says(&mut self, who: Character, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.announcement(Some(who), formula.into());
        self.push(s)
    }

    /// `A reveals φ`, evaluated at the block's start; its outcome is in the vector
    /// [`Story::simultaneously`] returns.
    pub fn reveals(&mut self, who: Character, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.reveal_stmt(who, formula.into());
        self.push(s)
    }
}

/// The statements of an [`Story::assert_adds_ck`] block, run in order once the block
/// is complete. Mistakes are reported by [`Story::assert_adds_ck`], which then runs
/// nothing.
pub struct Block<'s> {
    pub(super) story: &'s mut Story,
    pub(super) stmts: Vec<ast::Stmt>,
    pub(super) error: Option<Error>,
}

impl Block<'_> {
    fn push(&mut self, s: Result<ast::StmtKind, Error>) -> &mut Self {
        match s {
            Ok(kind) => self.stmts.push(ast::Stmt::nowhere(kind)),
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// `announce φ`.
    pub fn announce(&mut self, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.announcement(None, formula.into());
        self.push(s)
    }

    /// `A: φ`.
    pub fn says(&mut self, who: Character, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.announcement(Some(who), formula.into());
        self.push(s)
    }

    /// `A learns e`, as [`Story::learns`].
    pub fn learns(&mut self, who: Character, values: impl Values) -> &mut Self {
        let s = self.story.learn_stmt(who, values);
        self.push(s)
    }

    /// `A reveals φ`. (Its outcome is not returned; use [`Story::reveals`] outside a
    /// block to get it.)
    pub fn reveals(&mut self, who: Character, formula: impl Into<Formula>) -> &mut Self {
        let s = self.story.reveal_stmt(who, formula.into());
        self.push(s)
    }

    /// `checkpoint c`, saved when the block runs there.
    pub fn checkpoint(&mut self, name: &str) -> Checkpoint {
        let checkpoint = ast::StmtKind::Checkpoint(ast::Ident::nowhere(name));
        self.stmts.push(ast::Stmt::nowhere(checkpoint));
        self.story.checkpoint_handle(name)
    }

    /// `simultaneously { … }` inside the block.
    pub fn simultaneously(&mut self, block: impl FnOnce(&mut Simultaneous)) -> &mut Self {
        let mut s = Simultaneous {
            story: self.story,
            stmts: Vec::new(),
            error: None,
        };
        block(&mut s);
        let Simultaneous { stmts, error, .. } = s;
        match error {
            Some(e) => self.push(Err(e)),
            None => self.push(Ok(ast::StmtKind::Simultaneously(ast::Block::nowhere(
                stmts,
            )))),
        }
    }
}
