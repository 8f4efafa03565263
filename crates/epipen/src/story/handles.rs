//! Handles of a story's declarations: characters, checkpoints and enum types.

use std::sync::Arc;

use crate::ir::{CharId, CheckpointId};
use crate::syntax::ast;

use super::expr::{Enum, Node};

/// A character (agent) of a [`Story`](crate::story::Story), from [`Story::character`](crate::story::Story::character).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Character {
    pub(super) story: u64,
    pub(super) id: CharId,
}

impl Character {
    /// The character's id in the story's [`Program`](crate::ir::Program).
    pub fn id(self) -> CharId {
        self.id
    }
}

/// A saved knowledge state, from [`Story::checkpoint`](crate::story::Story::checkpoint), for [`Formula::at`](crate::story::Formula::at).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Checkpoint {
    pub(super) story: u64,
    pub(super) id: CheckpointId,
}

#[derive(Debug)]
pub(super) struct EnumInfo {
    pub(super) story: u64,
    pub(super) name: String,
    pub(super) variants: Vec<String>,
    /// The type of an event's cases (its name, and its variants the cases), not an
    /// enum the story declared.
    pub(super) event: bool,
    /// Why lowering refused the enum's declaration: its values fail with it.
    pub(super) error: Option<crate::story::Error>,
}

/// An enum type of a [`Story`](crate::story::Story), from [`Story::enumeration`](crate::story::Story::enumeration). Its values are the
/// variants, in declaration order.
#[derive(Debug, Clone)]
pub struct EnumType(pub(super) Arc<EnumInfo>);

impl EnumType {
    /// The enum's name.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// The variants' names, in declaration order.
    pub fn variants(&self) -> &[String] {
        &self.0.variants
    }

    /// The variant called `name`. An unknown name gives a value that fails with
    /// [`Error::Invalid`](crate::story::Error::Invalid) when a statement uses it.
    pub fn value(&self, name: &str) -> Enum {
        let position = match &self.0.error {
            Some(_) => None,
            None => self.0.variants.iter().position(|v| v == name),
        };
        let node = match position {
            None if let Some(e) = &self.0.error => Node::failed(e.clone()),
            Some(_) => Node::of(
                self.0.story,
                match self.0.event {
                    true => ast::Expr::case(name),
                    false => ast::Expr::name(name),
                },
            ),
            None if self.0.event => Node::invalid(format!(
                "the event `{}` has no case `{name}` (its cases: {})",
                self.0.name,
                self.0.variants.join(", ")
            )),
            None => Node::invalid(format!(
                "enum `{}` has no variant `{name}` (its variants: {})",
                self.0.name,
                self.0.variants.join(", ")
            )),
        };
        Enum {
            node,
            ty: self.clone(),
        }
    }

    /// Every variant as a value, in declaration order.
    pub fn values(&self) -> Vec<Enum> {
        self.0.variants.iter().map(|v| self.value(v)).collect()
    }
}
