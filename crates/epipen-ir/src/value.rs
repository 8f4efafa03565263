//! Values and worlds: what a constant holds, and a world as a value per constant, in
//! the canonical order every listing of worlds follows.

use std::cmp::Ordering;

use crate::Ty;

/// The value of one constant in one world.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Value {
    Int(i64),
    Bool(bool),
}

impl Value {
    pub fn ty(self) -> Ty {
        match self {
            Value::Int(_) => Ty::Int,
            Value::Bool(_) => Ty::Bool,
        }
    }

    /// The value as a number: an int itself, a bool 0 or 1.
    pub fn number(self) -> i64 {
        match self {
            Value::Int(n) => n,
            Value::Bool(b) => i64::from(b),
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// One world: a value for every declared constant, in declaration order
/// (`world.0[i]` is the value of `ConstId(i)`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct World(pub Vec<Value>);

impl World {
    /// The largest absolute value of an int constant (0 when there is none).
    pub fn magnitude(&self) -> u64 {
        self.0
            .iter()
            .map(|v| match v {
                Value::Int(n) => n.unsigned_abs(),
                Value::Bool(_) => 0,
            })
            .max()
            .unwrap_or(0)
    }
}

/// The canonical order of worlds: smaller magnitude first, then value by value in
/// declaration order (false < true, ints numerically). Every finite set of worlds, and
/// the first N worlds of an infinite one, are printed in this order.
impl Ord for World {
    fn cmp(&self, other: &World) -> Ordering {
        self.magnitude().cmp(&other.magnitude()).then_with(|| {
            for (a, b) in self.0.iter().zip(&other.0) {
                let o = match (a, b) {
                    (Value::Int(x), Value::Int(y)) => x.cmp(y),
                    (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
                    (Value::Bool(_), Value::Int(_)) => Ordering::Less,
                    (Value::Int(_), Value::Bool(_)) => Ordering::Greater,
                };
                if o != Ordering::Equal {
                    return o;
                }
            }
            self.0.len().cmp(&other.0.len())
        })
    }
}

impl PartialOrd for World {
    fn partial_cmp(&self, other: &World) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
