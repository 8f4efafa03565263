//! Public change: `x := e` and `x, y := e, f` ([`Story::assign`], [`Story::assign_all`]),
//! and the [`Change`]s an event's case makes.

use crate::syntax::ast;

use super::expr::{Enum, Expression, Formula, Int, IntoEnumNode, Node};
use super::{Error, Story};

mod sealed {
    use super::Node;

    /// A value for a constant of type `T`, typed by the constant (for an enum: a
    /// variant's name is looked up in the constant's enum).
    pub trait IntoValue<T> {
        fn into_value(self, target: &T) -> Node;
    }
}

use sealed::IntoValue;

/// What `:=` can give a constant of type `T`: for an [`Int`], anything that converts
/// into one (`5`, `&x + 1`); for a [`Formula`], a formula or `bool`; for an [`Enum`],
/// a value of the same enum or a variant's name (`"box"`).
pub trait ValueOf<T>: IntoValue<T> {}
impl<T, V: IntoValue<T>> ValueOf<T> for V {}

impl<V: Into<Int>> IntoValue<Int> for V {
    fn into_value(self, _: &Int) -> Node {
        self.into().0
    }
}

impl<V: Into<Formula>> IntoValue<Formula> for V {
    fn into_value(self, _: &Formula) -> Node {
        self.into().0
    }
}

macro_rules! enum_values {
    (named: $($name:ty),*; valued: $($value:ty),*) => {
        $(impl IntoValue<Enum> for $name {
            fn into_value(self, target: &Enum) -> Node {
                IntoEnumNode::into_enum_node(self, &target.ty)
            }
        })*
        // A value of another enum is refused by the type check, which names `:=`.
        $(impl IntoValue<Enum> for $value {
            fn into_value(self, _: &Enum) -> Node {
                Enum::from(self).node
            }
        })*
    };
}
enum_values!(named: &str, String, &String; valued: Enum, &Enum);

/// One `x := e` of a simultaneous change ([`Story::assign_all`]) or of an event's case
/// ([`Case::then_all`](super::Case::then_all)): a constant and its new value, typed
/// like [`Story::assign`]'s.
///
/// ```
/// use epipen::{Change, Story};
/// # fn main() -> Result<(), epipen::Error> {
/// let mut story = Story::new();
/// let (x, y) = (story.int("x"), story.int("y"));
/// story.announce(x.eq(1) & y.eq(2))?;
/// story.assign_all([Change::new(&x, &y), Change::new(&y, &x)])?; // x, y := y, x
/// assert_eq!(story.worlds(10)?[0].to_string(), "x = 2, y = 1");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Change {
    target: Node,
    value: Node,
}

impl Change {
    /// The target and the value.
    pub(super) fn parts(self) -> (Node, Node) {
        (self.target, self.value)
    }

    /// `target := value`, `target` a constant of the story (a handle from
    /// [`Story::int`], [`Story::bool`] or [`Story::enum_constant`]).
    pub fn new<T: Expression>(target: &T, value: impl ValueOf<T>) -> Change {
        Change {
            target: target.node().clone(),
            value: value.into_value(target),
        }
    }
}

impl Story {
    /// `x := e`: from now on the constant `target` has the value `value` had, in each
    /// world, just before: a public change (everyone knows it happened and how). What
    /// characters learned before keeps meaning the old values; `at` sees the values of
    /// its checkpoint's time. An enum constant takes a value of its enum or a variant's
    /// name: `story.assign(&marble, "box")`.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let anne = story.character("Anne");
    /// let x = story.int("x");
    /// story.announce(x.is_in([1, 2]))?;
    /// story.actual(x.eq(1))?;
    /// story.assign(&x, &x + 10)?;
    /// story.learns(anne, &x)?;
    /// story.check(F::knows_value(anne, &x) & x.is_in([11, 12]))?;
    /// let worlds = story.worlds(10)?;
    /// assert_eq!(worlds.len(), 2);
    /// assert_eq!(worlds[0].int(&x), Some(11));
    /// # Ok(())
    /// # }
    /// ```
    pub fn assign<T: Expression>(
        &mut self,
        target: &T,
        value: impl ValueOf<T>,
    ) -> Result<(), Error> {
        self.assign_all([Change::new(target, value)])
    }

    /// `x, y := e, f`: a simultaneous public change, every value read before any
    /// constant changes (so `[Change::new(&x, &y), Change::new(&y, &x)]` swaps them).
    /// Each constant is changed at most once; otherwise as [`Story::assign`].
    pub fn assign_all(&mut self, changes: impl IntoIterator<Item = Change>) -> Result<(), Error> {
        let (mut targets, mut values) = (Vec::new(), Vec::new());
        for Change { target, value } in changes {
            targets.push(self.ast(target)?);
            values.push(self.ast(value)?);
        }
        if targets.is_empty() {
            return Err(Error::invalid("`assign_all` needs at least one change"));
        }
        self.lower_run(ast::StmtKind::Assign { targets, values })
            .map(drop)
    }
}
