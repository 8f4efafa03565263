//! The worlds a [`Story`](super::Story) leaves, with typed access to their values.

use std::fmt;
use std::ops;
use std::sync::Arc;

use crate::engine::BigRational;
use crate::ir::{self, Program, Ty};
use crate::lower::Incremental;
use crate::worlds::{self, Value, World, WorldSet};

use super::expr::{Enum, Formula, Int, Node};

/// The worlds [`Story::worlds`](crate::story::Story::worlds) found, in canonical order, and whether they are all.
///
/// Index it (`worlds[0]`) or iterate it to get each [`PossibleWorld`], which reads
/// values by constant handle or by name. `Display` prints them as `epipen worlds` does.
#[derive(Debug, Clone)]
pub struct Worlds {
    pub(super) worlds: Vec<PossibleWorld>,
    pub(super) complete: bool,
    pub(super) decls: Arc<Program>,
}

impl Worlds {
    /// How many worlds were found (at most the limit).
    pub fn len(&self) -> usize {
        self.worlds.len()
    }

    /// No worlds found: when [`Worlds::is_complete`], the announcements contradict
    /// each other.
    pub fn is_empty(&self) -> bool {
        self.worlds.is_empty()
    }

    /// True when the solver proved there are no other worlds; false when more exist
    /// beyond the limit.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The worlds, in canonical order.
    pub fn iter(&self) -> std::slice::Iter<'_, PossibleWorld> {
        self.worlds.iter()
    }

    /// The worlds as the engine reports them.
    pub fn to_set(&self) -> WorldSet {
        WorldSet {
            before: None,
            worlds: self.worlds.iter().map(|w| w.world.clone()).collect(),
            complete: self.complete,
            chances: (self.worlds.iter())
                .map(|w| w.probability.clone())
                .collect::<Option<Vec<_>>>()
                .filter(|_| !self.worlds.is_empty()),
        }
    }
}

impl ops::Index<usize> for Worlds {
    type Output = PossibleWorld;
    fn index(&self, i: usize) -> &PossibleWorld {
        &self.worlds[i]
    }
}

impl<'a> IntoIterator for &'a Worlds {
    type Item = &'a PossibleWorld;
    type IntoIter = std::slice::Iter<'a, PossibleWorld>;
    fn into_iter(self) -> Self::IntoIter {
        self.worlds.iter()
    }
}

impl IntoIterator for Worlds {
    type Item = PossibleWorld;
    type IntoIter = std::vec::IntoIter<PossibleWorld>;
    fn into_iter(self) -> Self::IntoIter {
        self.worlds.into_iter()
    }
}

impl fmt::Display for Worlds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let more = "raise the limit to see more";
        write!(
            f,
            "{}",
            crate::text::world_set(&self.decls, &self.to_set(), more)
        )
    }
}

/// One possible world: a value for every constant of the story.
#[derive(Clone)]
pub struct PossibleWorld {
    pub(super) story: u64,
    pub(super) world: World,
    pub(super) decls: Arc<Program>,
    /// The story's lowering when the worlds were listed, to read handles with.
    pub(super) lowering: Arc<Incremental>,
    pub(super) probability: Option<BigRational>,
}

impl PossibleWorld {
    /// The value of an int expression here, e.g. of a constant: `w.int(&month)`. `None`
    /// when the expression is not one of this story's, holds a mistake or a knowledge
    /// operator, or overflows 64 bits.
    pub fn int(&self, e: &Int) -> Option<i64> {
        match self.eval(&e.0)? {
            Value::Int(n) => Some(n),
            Value::Bool(_) => None,
        }
    }

    /// The value of a formula without knowledge operators here, e.g. of a bool
    /// constant (`None` as for [`PossibleWorld::int`]).
    pub fn bool(&self, e: &Formula) -> Option<bool> {
        match self.eval(&e.0)? {
            Value::Bool(b) => Some(b),
            Value::Int(_) => None,
        }
    }

    /// The variant an enum expression takes here, e.g. of an enum constant (`None` as
    /// for [`PossibleWorld::int`]).
    pub fn variant(&self, e: &Enum) -> Option<&str> {
        let e = self.lower(&e.node)?;
        let Value::Int(i) = worlds::value_of(&e, &self.world.0)? else {
            return None;
        };
        let Ty::Enum(id) = e.ty else {
            return None;
        };
        self.decls
            .enums
            .get(id.0)?
            .variants
            .get(usize::try_from(i).ok()?)
            .map(String::as_str)
    }

    /// The value of the constant called `name` (enum values are their variant's index).
    pub fn get(&self, name: &str) -> Option<Value> {
        let i = self.decls.constants.iter().position(|c| c.name == name)?;
        self.world.0.get(i).copied()
    }

    /// Every constant's name with its value as stories write it (enum values by their
    /// variant's name), in declaration order.
    pub fn values(&self) -> impl Iterator<Item = (&str, String)> + '_ {
        self.decls
            .constants
            .iter()
            .zip(&self.world.0)
            .map(|(c, v)| (c.name.as_str(), worlds::show_value(&self.decls, c.ty, *v)))
    }

    /// The storyteller's probability of this world among those possible (its weight
    /// over theirs), when the story speaks of chances ([`Story::prior`], a case's
    /// weight, a probability); None otherwise.
    ///
    /// [`Story::prior`]: crate::story::Story::prior
    pub fn probability(&self) -> Option<&BigRational> {
        self.probability.as_ref()
    }

    /// The raw world: values in declaration order.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The IR of a handle of this story, lowered as the story stood when the worlds
    /// were listed.
    fn lower(&self, node: &Node) -> Option<ir::Expr> {
        if node.story.is_some_and(|s| s != self.story) {
            return None;
        }
        let mut e = node.ast.clone().ok()?;
        // Characters by name; a checkpoint means nothing in a world.
        let named = |p: &str| super::character_named(&self.decls.characters, p);
        super::resolve(&mut e, &named).ok()?;
        self.lowering.expr(&e).ok()
    }

    fn eval(&self, node: &Node) -> Option<Value> {
        worlds::value_of(&self.lower(node)?, &self.world.0)
    }
}

/// `month = 7, day = 16`
impl fmt::Debug for PossibleWorld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PossibleWorld")
            .field("story", &self.story)
            .field("world", &self.world)
            .field("probability", &self.probability)
            .finish_non_exhaustive()
    }
}

impl fmt::Display for PossibleWorld {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", worlds::world_line(&self.decls, &self.world.0))
    }
}
