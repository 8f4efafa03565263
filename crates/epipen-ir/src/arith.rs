//! Integer arithmetic as the language defines it, in one place for every evaluator of
//! the IR (lowering's constant folding, the Z3 backend's native evaluator, the BDD and
//! explicit backends, the brute-force evaluator): integers are mathematical (no wrap-around),
//! and division and modulo are SMT-LIB's, Euclidean (`0 <= x % y < |y|`), with
//! `x / 0 = 0` and `x % 0 = x`.
//!
//! [`checked`] computes on i128 and says when a result does not fit; [`Integer`] is
//! exact, on i128 while values fit and arbitrary precision beyond.

use std::cmp::Ordering;
use std::fmt;

use num_bigint::BigInt;
use num_traits::{Euclid, Zero};

use super::ArithOp;

/// `x op y`, or None when the result does not fit in an i128.
#[inline]
pub fn checked(op: ArithOp, x: i128, y: i128) -> Option<i128> {
    match op {
        ArithOp::Add => x.checked_add(y),
        ArithOp::Sub => x.checked_sub(y),
        ArithOp::Mul => x.checked_mul(y),
        ArithOp::Div if y == 0 => Some(0),
        ArithOp::Div => x.checked_div_euclid(y),
        ArithOp::Mod if y == 0 => Some(x),
        ArithOp::Mod => x.checked_rem_euclid(y),
    }
}

/// `x op y`, exactly.
pub fn exact(op: ArithOp, x: &BigInt, y: &BigInt) -> BigInt {
    match op {
        ArithOp::Add => x + y,
        ArithOp::Sub => x - y,
        ArithOp::Mul => x * y,
        ArithOp::Div if y.is_zero() => BigInt::zero(),
        ArithOp::Div => x.div_euclid(y),
        ArithOp::Mod if y.is_zero() => x.clone(),
        ArithOp::Mod => x.rem_euclid(y),
    }
}

/// An exact integer: an i128 while it fits, arbitrary precision beyond. `Big` only
/// ever holds values outside the i128 range, so every number has one representation
/// (and the derived equality and hash are the numbers').
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Integer {
    Small(i128),
    Big(BigInt),
}

impl Integer {
    fn from_big(n: BigInt) -> Integer {
        match i128::try_from(&n) {
            Ok(v) => Integer::Small(v),
            Err(_) => Integer::Big(n),
        }
    }

    fn to_big(&self) -> BigInt {
        match self {
            Integer::Small(v) => BigInt::from(*v),
            Integer::Big(n) => n.clone(),
        }
    }

    /// `self op other`, exactly.
    pub fn arith(&self, op: ArithOp, other: &Integer) -> Integer {
        if let (Integer::Small(x), Integer::Small(y)) = (self, other)
            && let Some(v) = checked(op, *x, *y)
        {
            return Integer::Small(v);
        }
        Integer::from_big(exact(op, &self.to_big(), &other.to_big()))
    }

    /// `-self`, exactly.
    pub fn neg(&self) -> Integer {
        match self {
            Integer::Small(v) if *v != i128::MIN => Integer::Small(-v),
            _ => Integer::from_big(-self.to_big()),
        }
    }

    /// The value, when it fits in an i64.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Integer::Small(v) => i64::try_from(*v).ok(),
            Integer::Big(_) => None,
        }
    }
}

impl From<i64> for Integer {
    fn from(v: i64) -> Integer {
        Integer::Small(v.into())
    }
}

impl From<i128> for Integer {
    fn from(v: i128) -> Integer {
        Integer::Small(v)
    }
}

impl From<BigInt> for Integer {
    fn from(n: BigInt) -> Integer {
        Integer::from_big(n)
    }
}

impl Ord for Integer {
    fn cmp(&self, other: &Integer) -> Ordering {
        match (self, other) {
            (Integer::Small(x), Integer::Small(y)) => x.cmp(y),
            _ => self.to_big().cmp(&other.to_big()),
        }
    }
}

impl PartialOrd for Integer {
    fn partial_cmp(&self, other: &Integer) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Integer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Integer::Small(v) => write!(f, "{v}"),
            Integer::Big(n) => write!(f, "{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ArithOp::*;

    #[test]
    fn division_and_modulo_are_smt_libs() {
        for (op, x, y, want) in [
            (Div, 7, 2, 3),
            (Div, -7, 2, -4),
            (Mod, -7, 2, 1),
            (Div, 7, -2, -3),
            (Mod, 7, -2, 1),
            (Div, -7, -2, 4),
            (Mod, -7, -2, 1),
            (Div, 5, 0, 0),
            (Mod, 5, 0, 5),
            (Mod, -5, 0, -5),
            (Mul, 6, 7, 42),
            (Sub, 1, 3, -2),
        ] {
            assert_eq!(checked(op, x, y), Some(want), "{op:?} {x} {y}");
            let exact = Integer::from(x).arith(op, &Integer::from(y));
            assert_eq!(exact, Integer::Small(want), "{op:?} {x} {y}");
            // The arbitrary-precision path agrees on the same numbers.
            let big = super::exact(op, &BigInt::from(x), &BigInt::from(y));
            assert_eq!(big, BigInt::from(want), "{op:?} {x} {y}");
        }
    }

    #[test]
    fn overflow_is_exact_not_wrapped() {
        assert_eq!(checked(Mul, i128::MAX, 2), None);
        assert_eq!(checked(Div, i128::MIN, -1), None);
        let big = Integer::from(i128::MAX).arith(Mul, &Integer::from(2i128));
        assert_eq!(big.to_string(), "340282366920938463463374607431768211454");
        assert!(big > Integer::from(i128::MAX));
        assert!(big.neg() < Integer::from(i128::MIN));
        // Back into range, the value is small again (one representation per number).
        assert_eq!(
            big.arith(Div, &Integer::from(2i128)),
            Integer::Small(i128::MAX)
        );
        assert_eq!(
            Integer::from(i128::MIN).neg().neg(),
            Integer::Small(i128::MIN)
        );
        // (10^7)^6 = 10^42: past i128 (about 1.7·10^38) and still positive.
        let a = Integer::from(10_000_000i64);
        let power = (0..5).fold(a.clone(), |p, _| p.arith(Mul, &a));
        assert_eq!(power.to_string(), format!("1{}", "0".repeat(42)));
        assert!(power > Integer::from(0i64));
        assert_eq!(power.to_i64(), None);
    }
}
