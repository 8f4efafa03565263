//! Expressions given as the story language's AST, for builders in other languages (the
//! Python package builds its expressions so, and shows them by the AST's `Display`).
//!
//! Such an expression is written as a story file writes it: characters, constants, enum
//! values, checkpoints and an event's cases by their names, and `knows(φ)` without a
//! character the speaker's (inside [`Story::says`](super::Story::says)). Nothing is
//! checked until a statement uses it: lowering then reports its mistakes as the
//! statement's [`Error::Invalid`](super::Error::Invalid), in the words it has for a
//! story file's. [`crate::syntax::parse_expr`] reads one from text:
//!
//! ```
//! use epipen::syntax::parse_expr;
//! use epipen::{Formula, Story};
//!
//! let mut story = Story::new();
//! let anne = story.character("Anne");
//! let x = story.int("x");
//! story.announce(x.is_in([1, 2]))?;
//! story.learns(anne, &x)?;
//! let known = parse_expr("knows(Anne, x == 1) or knows(Anne, x == 2)").unwrap();
//! story.check(Formula::from_syntax(known))?;
//! # Ok::<(), epipen::Error>(())
//! ```

use crate::syntax::ast;

use super::expr::Node;
use super::{Chance, Enum, EnumType, Formula, Int};

impl Int {
    /// An int expression written as the story language's AST (see the module's docs).
    pub fn from_syntax(e: ast::Expr) -> Int {
        Int(Node::lit(e))
    }
}

impl Formula {
    /// A formula written as the story language's AST (see the module's docs).
    pub fn from_syntax(e: ast::Expr) -> Formula {
        Formula(Node::lit(e))
    }
}

impl Chance {
    /// A probability term written as the story language's AST (see the module's docs).
    pub fn from_syntax(e: ast::Expr) -> Chance {
        Chance(Node::lit(e))
    }
}

impl EnumType {
    /// A value of this enum written as the story language's AST (see the module's docs).
    pub fn from_syntax(&self, e: ast::Expr) -> Enum {
        Enum {
            node: Node::lit(e),
            ty: self.clone(),
        }
    }
}
