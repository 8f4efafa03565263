//! Probabilities in the Rust API (docs/language.md, "Probability"): [`Chance`] terms
//! (`probability(A, φ)`, the storyteller's `probability(φ)`, ints and exact fractions,
//! with `+ - * /`), compared into [`Formula`]s; `prior`, a case's weight and `show`.

use std::fmt;
use std::ops;

use crate::engine::{self, BigInt, BigRational};
use crate::syntax::ast;

use super::expr::{Enum, Formula, Int, Node, binary, character_name};
use super::{Character, Error, Story};

/// A probability term, in exact rational arithmetic: [`Formula::probability`] (a
/// character's), [`Formula::probability_of`] (the storyteller's), an [`Int`] or a plain
/// integer, an exact fraction ([`Chance::ratio`], or a [`BigRational`]), and `+ - *` and
/// exact `/` over them (a division by 0 is an error where it is evaluated).
///
/// Compare one with [`Chance::eq`], [`Chance::gt`], … to get a [`Formula`] (the language's
/// `probability(A, φ) > 1/2`), which goes wherever a formula goes; show its value with
/// [`Story::show`].
///
/// ```
/// use epipen::{Chance, Formula as F, Int, Story};
/// # fn main() -> Result<(), epipen::Error> {
/// let mut story = Story::new();
/// let anne = story.character("Anne");
/// let x = story.int("x");
/// story.announce(x.is_in([1, 2, 3]))?;
/// story.prior(x.eq(3).ite(Int::from(2), 1))?; // x = 3 is twice as likely as each other value
/// story.check(F::probability_of(x.eq(3)).eq(Chance::ratio(1, 2)))?;
/// story.check(F::probability(anne, x.gt(1)).gt(Chance::ratio(1, 2)))?;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Chance(pub(super) Node);

impl Chance {
    fn combine(a: Chance, b: Chance, op: ast::BinOp) -> Chance {
        Chance(binary(a.0, b.0, op))
    }

    /// The exact fraction `numerator / denominator` (`Chance::ratio(2, 3)`: the
    /// language's `2/3`).
    pub fn ratio(numerator: i64, denominator: i64) -> Chance {
        Chance::from(numerator) / Chance::from(denominator)
    }

    fn cmp(&self, op: ast::BinOp, other: Chance) -> Formula {
        Formula(binary(self.0.clone(), other.0, op))
    }

    /// `self == other`.
    pub fn eq(&self, other: impl Into<Chance>) -> Formula {
        self.cmp(ast::BinOp::Eq, other.into())
    }

    /// `self != other`.
    pub fn ne(&self, other: impl Into<Chance>) -> Formula {
        self.cmp(ast::BinOp::Ne, other.into())
    }

    /// `self < other`.
    pub fn lt(&self, other: impl Into<Chance>) -> Formula {
        self.cmp(ast::BinOp::Lt, other.into())
    }

    /// `self <= other`.
    pub fn le(&self, other: impl Into<Chance>) -> Formula {
        self.cmp(ast::BinOp::Le, other.into())
    }

    /// `self > other`.
    pub fn gt(&self, other: impl Into<Chance>) -> Formula {
        self.cmp(ast::BinOp::Gt, other.into())
    }

    /// `self >= other`.
    pub fn ge(&self, other: impl Into<Chance>) -> Formula {
        self.cmp(ast::BinOp::Ge, other.into())
    }
}

impl Formula {
    /// `probability(A, φ)`: `who`'s probability of φ in this world, the weight of the
    /// worlds it cannot tell from this one where φ holds over the weight of them all
    /// (docs/language.md, "Probability"). Compare it ([`Chance::gt`], …) to get a formula.
    pub fn probability(who: Character, formula: impl Into<Formula>) -> Chance {
        Formula::chance(Some(who), formula.into())
    }

    /// `probability(φ)` said by the storyteller: the probability of φ over every world
    /// still possible.
    pub fn probability_of(formula: impl Into<Formula>) -> Chance {
        Formula::chance(None, formula.into())
    }

    fn chance(who: Option<Character>, formula: Formula) -> Chance {
        Chance(Node::combine(vec![formula.0], who.map(|w| w.story), |es| {
            let who = who.map(|w| ast::Expr::name(&character_name(w.id)));
            ast::Expr::call("probability", who.into_iter().chain(es).collect())
        }))
    }
}

impl From<Int> for Chance {
    fn from(n: Int) -> Chance {
        Chance(n.0)
    }
}

impl From<&Int> for Chance {
    fn from(n: &Int) -> Chance {
        Chance::from(n.clone())
    }
}

impl From<&Chance> for Chance {
    fn from(c: &Chance) -> Chance {
        c.clone()
    }
}

macro_rules! chance_from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Chance {
            fn from(n: $t) -> Chance {
                Chance::from(Int::from(n))
            }
        }
    )*};
}
chance_from_int!(i32, i64, u32, u64, usize);

impl From<BigRational> for Chance {
    fn from(q: BigRational) -> Chance {
        let part = |n: &BigInt| match i64::try_from(n) {
            Ok(n) => Chance::from(n),
            Err(_) => Chance(Node::invalid(format!(
                "the fraction {q} does not fit in 64 bits"
            ))),
        };
        match q.is_integer() {
            true => part(q.numer()),
            false => part(q.numer()) / part(q.denom()),
        }
    }
}

macro_rules! chance_ops {
    ($($trait:ident $method:ident $op:ident;)*) => {$(
        impl<R: Into<Chance>> ops::$trait<R> for Chance {
            type Output = Chance;
            fn $method(self, rhs: R) -> Chance {
                Chance::combine(self, rhs.into(), ast::BinOp::$op)
            }
        }
        impl<R: Into<Chance>> ops::$trait<R> for &Chance {
            type Output = Chance;
            fn $method(self, rhs: R) -> Chance {
                Chance::combine(self.clone(), rhs.into(), ast::BinOp::$op)
            }
        }
        impl ops::$trait<Chance> for i64 {
            type Output = Chance;
            fn $method(self, rhs: Chance) -> Chance {
                Chance::combine(Chance::from(self), rhs, ast::BinOp::$op)
            }
        }
    )*};
}
chance_ops! {
    Add add Add;
    Sub sub Sub;
    Mul mul Mul;
    Div div Div;
}

/// The sum of probability terms, 0 for none: an expected value,
/// `(1..=3).map(|v| v * F::probability(anne, x.eq(v))).sum::<Chance>()` (the language's
/// `sum(v in 1..4: v * probability(Anne, x == v))`).
impl std::iter::Sum for Chance {
    fn sum<I: Iterator<Item = Chance>>(terms: I) -> Chance {
        terms
            .reduce(|a, b| a + b)
            .unwrap_or_else(|| Chance::from(0))
    }
}

impl ops::Neg for Chance {
    type Output = Chance;
    fn neg(self) -> Chance {
        Chance((-Int(self.0)).0)
    }
}

impl ops::Neg for &Chance {
    type Output = Chance;
    fn neg(self) -> Chance {
        -self.clone()
    }
}

mod sealed {
    /// What [`super::Story::show`] shows: see [`super::Showable`].
    pub trait IntoShown {
        fn into_shown(self) -> super::Showing;
    }
}

use sealed::IntoShown;

/// An expression or probability term, before [`Story::show`] checks it.
#[doc(hidden)]
pub enum Showing {
    #[doc(hidden)]
    Expr(Node),
    #[doc(hidden)]
    Chance(Chance),
}

/// What [`Story::show`] shows: a [`Chance`], an [`Int`], a [`Formula`] or an [`Enum`]
/// (or a reference to one).
pub trait Showable: IntoShown {}
impl<T: IntoShown> Showable for T {}

macro_rules! showable {
    ($($t:ty => |$x:ident| $e:expr;)*) => {$(
        impl IntoShown for $t {
            fn into_shown(self) -> Showing {
                let $x = self;
                $e
            }
        }
    )*};
}
showable! {
    Chance => |c| Showing::Chance(c);
    &Chance => |c| Showing::Chance(c.clone());
    Int => |n| Showing::Expr(n.0);
    &Int => |n| Showing::Expr(n.0.clone());
    Formula => |f| Showing::Expr(f.0);
    &Formula => |f| Showing::Expr(f.0.clone());
    Enum => |e| Showing::Expr(e.node);
    &Enum => |e| Showing::Expr(e.node.clone());
}

/// A value [`Story::show`] found: an int, a bool, an enum's value by name, or a
/// probability, exact. `Display` prints it as `epipen run` does (`2/3`, `true`, `two`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShownValue {
    /// An int.
    Int(i64),
    /// A formula's truth value.
    Bool(bool),
    /// An enum's value, by its variant's name.
    Name(String),
    /// A probability.
    Probability(BigRational),
}

impl fmt::Display for ShownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShownValue::Int(n) => write!(f, "{n}"),
            ShownValue::Bool(b) => write!(f, "{b}"),
            ShownValue::Name(name) => write!(f, "{name}"),
            ShownValue::Probability(q) => write!(f, "{q}"),
        }
    }
}

/// What [`Story::show`] found: the value in the actual world, when the story declares
/// one ([`Story::actual`]), else the values in the worlds still possible, grouped by
/// value (in the order they first appear in the canonical order), with how many worlds
/// have each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The expression as `epipen run` prints it: `probability(Contestant, car == two)`.
    pub expression: String,
    /// The value in the actual world (None without one).
    pub actual: Option<ShownValue>,
    /// Without an actual world: each value and how many worlds have it.
    pub by_world: Vec<(ShownValue, u64)>,
}

impl fmt::Display for Shown {
    /// `show e = 2/3`, or `show e: 2/3 in 2 worlds, 1/3 in 2 worlds`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.expression;
        if let Some(v) = &self.actual {
            return write!(f, "show {e} = {v}");
        }
        let parts: Vec<String> = (self.by_world.iter())
            .map(|(v, n)| format!("{v} in {n} world{}", if *n == 1 { "" } else { "s" }))
            .collect();
        match parts.is_empty() {
            true => write!(f, "show {e}: no world is possible"),
            false => write!(f, "show {e}: {}", parts.join(", ")),
        }
    }
}

impl Story {
    /// `prior e`: the storyteller's prior. Each world weighs the value of the int
    /// expression `weight` there (of the constants, without knowledge operators; never
    /// negative in a world the first announcements leave). Weights are normalised where
    /// a probability is taken; without a prior every world weighs 1. At most one prior,
    /// before anything a character learns or observes ([`Story::learns`],
    /// [`Story::says`], [`Story::reveals`], an event) and before any probability;
    /// announcements before it are fine. As in a story file, it weighs the worlds that
    /// all of the story's first announcements leave (those before it and those right
    /// after it): it runs with the first other statement, which fails if the prior is
    /// negative in a world they leave.
    pub fn prior(&mut self, weight: impl Into<Int>) -> Result<(), Error> {
        let e = self.ast(weight.into().0)?;
        self.lower_run(ast::StmtKind::Prior(e)).map(drop)
    }

    /// `show e`: the value of `e` (a [`Chance`], an [`Int`], a [`Formula`] or an
    /// [`Enum`]) in the actual world, or in each world still possible, grouped by value.
    /// Nothing changes.
    ///
    /// ```
    /// use epipen::{Formula as F, Story, story::ShownValue};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let x = story.int("x");
    /// story.announce(x.is_in([1, 2, 3]))?;
    /// let shown = story.show(F::probability_of(x.gt(1)))?;
    /// assert_eq!(shown.by_world[0].0.to_string(), "2/3");
    /// story.actual(x.eq(2))?;
    /// assert_eq!(story.show(&x)?.actual, Some(ShownValue::Int(2)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn show(&mut self, value: impl Showable) -> Result<Shown, Error> {
        let shown = match value.into_shown() {
            Showing::Chance(c) => self.ast(c.0)?,
            Showing::Expr(node) => self.ast(node)?,
        };
        let (_, reports) = self.lower_run(ast::StmtKind::Show(shown))?;
        let found = reports.into_iter().find_map(|r| match r {
            engine::Report::Show { text, shown, .. } => Some((text, shown)),
            _ => None,
        });
        let Some((expression, shown)) = found else {
            return Err(Error::invalid("`show` reported nothing"));
        };
        let value = |a: engine::Amount| match a {
            engine::Amount::Ratio(q) => ShownValue::Probability(q),
            engine::Amount::Value(v, ty) => {
                match crate::views::World::of_value(&self.program, ty, v) {
                    crate::views::Shown::Int(n) => ShownValue::Int(n),
                    crate::views::Shown::Bool(b) => ShownValue::Bool(b),
                    crate::views::Shown::Name(s) | crate::views::Shown::Ratio(s) => {
                        ShownValue::Name(s)
                    }
                }
            }
        };
        Ok(match shown {
            engine::Shown::Actual(a) => Shown {
                expression,
                actual: Some(value(a)),
                by_world: Vec::new(),
            },
            engine::Shown::Worlds(all) => Shown {
                expression,
                actual: None,
                by_world: all.into_iter().map(|(a, n)| (value(a), n)).collect(),
            },
        })
    }
}
