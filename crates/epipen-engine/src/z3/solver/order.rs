//! The first worlds of a formula in canonical order (smaller magnitude first, then value
//! by value in declaration order: `World`'s `Ord`), found in that order: the least
//! magnitude by search on a bound, then, within it, the least world by fixing one value
//! after another at its least possible value, then the least world beyond that one.
//! A few solver calls per value of each world shown, however many worlds share its
//! magnitude: listing a magnitude's worlds one by one and sorting them took 40 s on a
//! 5 × 5 battleship for `worlds --limit 1` (issue 33).

use z3::{SatResult, Solver};

use super::term::{Term, b};
use super::{Failure, Z3};
use crate::ir::arith::Integer;
use crate::worlds::Value;

/// The largest magnitude of an int in 64 bits (that of -2^63).
const TOP: u64 = 1 << 63;

impl Z3 {
    /// The first `limit` worlds (values of `vars`) where `formula` holds, in canonical
    /// order; fewer when there are fewer.
    pub fn first_in_order(
        &self,
        formula: &Term,
        vars: &[Term],
        limit: usize,
    ) -> Result<Vec<Vec<Value>>, Failure> {
        let s = Solver::new();
        s.assert(b(formula));
        let ints: Vec<&Term> = vars.iter().filter(|v| !v.is_bool()).collect();
        let mut found = Vec::new();
        // The magnitudes not yet shown start here.
        let mut from: u64 = 0;
        while found.len() < limit {
            let Some(m) = self.least_magnitude(&s, &ints, from)? else {
                break;
            };
            s.push();
            s.assert(b(&within(&ints, m)));
            if m > 0 {
                s.assert(b(&beyond(&ints, m - 1)));
            }
            let mut last: Option<Vec<Value>> = None;
            while found.len() < limit {
                s.push();
                if let Some(last) = &last {
                    s.assert(b(&after(vars, last)));
                }
                let least = self.least_world(&s, vars, m);
                s.pop(1);
                match least? {
                    Some(w) => {
                        found.push(w.clone());
                        last = Some(w);
                    }
                    None => break,
                }
            }
            s.pop(1);
            if m == TOP {
                break;
            }
            from = m + 1;
        }
        Ok(found)
    }

    /// The least magnitude m ≥ `from` of a world of `s` (all its ints within ±m, some
    /// beyond ±(from − 1)), or None when there is none within 64 bits.
    fn least_magnitude(
        &self,
        s: &Solver,
        ints: &[&Term],
        from: u64,
    ) -> Result<Option<u64>, Failure> {
        s.push();
        if from > 0 {
            s.assert(b(&beyond(ints, from - 1)));
        }
        let sat_within = |m: u64| -> Result<bool, Failure> {
            s.push();
            s.assert(b(&within(ints, m)));
            let r = self.check(s);
            s.pop(1);
            r
        };
        let answer = (|| {
            if ints.is_empty() {
                return Ok(self.check(s)?.then_some(0));
            }
            // Doubling steps above `from`, then halving between the last two.
            let (mut lo, mut hi) = (from, from);
            let mut step: u64 = 1;
            while !sat_within(hi)? {
                if hi == TOP {
                    return Ok(None);
                }
                lo = hi + 1;
                hi = hi.saturating_add(step).min(TOP);
                step = step.saturating_mul(2);
            }
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if sat_within(mid)? {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            Ok(Some(hi))
        })();
        s.pop(1);
        answer
    }

    /// The least world of `s` (whose ints lie within ±`m`), value by value, or None.
    fn least_world(
        &self,
        s: &Solver,
        vars: &[Term],
        m: u64,
    ) -> Result<Option<Vec<Value>>, Failure> {
        s.push();
        let answer = (|| {
            if !self.check(s)? {
                return Ok(None);
            }
            // A model of every value fixed so far, which the next value starts from.
            let mut model = self.model_values(s, vars)?;
            for (k, v) in vars.iter().enumerate() {
                match model[k] {
                    Value::Bool(false) => {}
                    Value::Bool(true) => {
                        if let Some(smaller) = self.model_with(s, vars, &v.not())? {
                            model = smaller;
                        }
                    }
                    Value::Int(mut hi) => {
                        // The least value lies within [lo, the last model's value].
                        let mut lo = -i128::from(m);
                        while lo < i128::from(hi) {
                            let mid = lo + (i128::from(hi) - lo - 1).div_euclid(2);
                            let below = v.le(&Term::integer(&Integer::from(mid)));
                            match self.model_with(s, vars, &below)? {
                                Some(smaller) => {
                                    model = smaller;
                                    let Value::Int(n) = model[k] else {
                                        return Err(Failure::Unknown(format!(
                                            "the model gives {v} a value that is not an int"
                                        )));
                                    };
                                    hi = n;
                                }
                                None => lo = mid + 1,
                            }
                        }
                    }
                }
                s.assert(b(&v.eq(&Term::value(model[k]))));
            }
            let world = model;
            Ok(Some(world))
        })();
        s.pop(1);
        answer
    }

    /// The values of `vars` in a model of `s` where `extra` holds too, or None when there
    /// is none (the solver keeps no trace of `extra`).
    fn model_with(
        &self,
        s: &Solver,
        vars: &[Term],
        extra: &Term,
    ) -> Result<Option<Vec<Value>>, Failure> {
        s.push();
        s.assert(b(extra));
        let r = match self.check(s) {
            Ok(true) => self.model_values(s, vars).map(Some),
            Ok(false) => Ok(None),
            Err(e) => Err(e),
        };
        s.pop(1);
        r
    }

    fn check(&self, s: &Solver) -> Result<bool, Failure> {
        if let Some(p) = self.timeout_params()? {
            s.set_params(&p);
        }
        match s.check() {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => Err(self.unknown(s)),
        }
    }

    /// The values of `vars` in the model of the last check of `s` (which was `sat`).
    fn model_values(&self, s: &Solver, vars: &[Term]) -> Result<Vec<Value>, Failure> {
        let model = s
            .get_model()
            .ok_or_else(|| Failure::Unknown("no model for a satisfiable formula".into()))?;
        vars.iter()
            .map(|v| {
                let t = model.eval(&v.0, true).ok_or_else(|| {
                    Failure::Unknown(format!("the model gives no value to {v}"))
                })?;
                Term(t.clone()).as_value().ok_or_else(|| {
                    Failure::Unsupported(format!(
                        "a possible world has {v} = {t}: values beyond the 64-bit integers (-2^63 to 2^63 - 1) are not supported"
                    ))
                })
            })
            .collect()
    }
}

/// Every int within ±m.
fn within(ints: &[&Term], m: u64) -> Term {
    let upper = Term::integer(&Integer::from(i128::from(m)));
    let lower = Term::integer(&Integer::from(-i128::from(m)));
    Term::and(
        &ints
            .iter()
            .flat_map(|v| [v.le(&upper), lower.le(v)])
            .collect::<Vec<_>>(),
    )
}

/// Some int beyond ±m.
fn beyond(ints: &[&Term], m: u64) -> Term {
    let upper = Term::integer(&Integer::from(i128::from(m)));
    let lower = Term::integer(&Integer::from(-i128::from(m)));
    Term::or(
        &ints
            .iter()
            .flat_map(|v| [upper.lt(v), v.lt(&lower)])
            .collect::<Vec<_>>(),
    )
}

/// The worlds after `w` value by value: x₀ > w₀, or x₀ = w₀ and (x₁ > w₁, or …), built
/// from the last value up so that its size is linear.
fn after(vars: &[Term], w: &[Value]) -> Term {
    let mut later = Term::bool(false);
    for (v, value) in vars.iter().zip(w).rev() {
        let (greater, equal) = match value {
            Value::Bool(true) => (Term::bool(false), v.clone()),
            Value::Bool(false) => (v.clone(), v.not()),
            Value::Int(n) => (Term::int(*n).lt(v), v.eq(&Term::int(*n))),
        };
        later = Term::or(&[greater, Term::and(&[equal, later])]);
    }
    later
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worlds::World;

    fn ints(values: &[i64]) -> Vec<Value> {
        values.iter().map(|&n| Value::Int(n)).collect()
    }

    /// Every world within ±`m` where `holds`, sorted canonically: the textbook answer.
    fn brute(m: i64, holds: impl Fn(i64, i64) -> bool) -> Vec<Vec<Value>> {
        let mut all: Vec<World> = (-m..=m)
            .flat_map(|x| (-m..=m).map(move |y| (x, y)))
            .filter(|&(x, y)| holds(x, y))
            .map(|(x, y)| World(ints(&[x, y])))
            .collect();
        all.sort();
        all.into_iter().map(|w| w.0).collect()
    }

    #[test]
    fn the_first_worlds_come_in_canonical_order() {
        let z3 = Z3::new(None);
        let (x, y) = (Term::int_var("x"), Term::int_var("y"));
        let vars = [x.clone(), y.clone()];
        // Consecutive pairs: magnitude first, so (-1, 0) and (0, -1) come before (1, 2).
        let one_apart = Term::or(&[y.eq(&x.add(&Term::int(1))), x.eq(&y.add(&Term::int(1)))]);
        let first = z3.first_in_order(&one_apart, &vars, 7).unwrap();
        let expected = brute(20, |x, y| (x - y).abs() == 1);
        assert_eq!(first, expected[..7].to_vec());
        assert_eq!(first[0], ints(&[-1, 0]));
        // A few worlds only: all of them, in order.
        let few = Term::and(&[one_apart, Term::int(2).le(&x), x.le(&Term::int(3))]);
        let all = z3.first_in_order(&few, &vars, 10).unwrap();
        assert_eq!(
            all,
            brute(5, |x, y| (x - y).abs() == 1 && (2..=3).contains(&x))
        );
        assert_eq!(all.len(), 4);
        // None at all.
        let none = Term::and(&[x.lt(&Term::int(0)), Term::int(0).lt(&x)]);
        assert!(z3.first_in_order(&none, &vars, 3).unwrap().is_empty());
    }

    #[test]
    fn a_large_magnitude_level_is_not_listed() {
        // `y == -10000003` leaves x free: 2 * 10000003 + 1 worlds of that magnitude,
        // of which the first two are x = -10000003 and x = -10000002.
        let z3 = Z3::new(None);
        let (x, y) = (Term::int_var("x"), Term::int_var("y"));
        let first = z3
            .first_in_order(&y.eq(&Term::int(-10_000_003)), &[x, y], 2)
            .unwrap();
        assert_eq!(
            first,
            vec![
                ints(&[-10_000_003, -10_000_003]),
                ints(&[-10_000_002, -10_000_003])
            ]
        );
    }

    #[test]
    fn bools_come_false_first_and_ints_beyond_them() {
        let z3 = Z3::new(None);
        let (p, q, n) = (Term::bool_var("p"), Term::bool_var("q"), Term::int_var("n"));
        // p or q, n in {5, -5}: magnitude 5 for all; then p, q, n value by value.
        let f = Term::and(&[
            Term::or(&[p.clone(), q.clone()]),
            Term::or(&[n.eq(&Term::int(5)), n.eq(&Term::int(-5))]),
        ]);
        let first = z3.first_in_order(&f, &[p, q, n], 10).unwrap();
        let b = Value::Bool;
        assert_eq!(
            first,
            vec![
                vec![b(false), b(true), Value::Int(-5)],
                vec![b(false), b(true), Value::Int(5)],
                vec![b(true), b(false), Value::Int(-5)],
                vec![b(true), b(false), Value::Int(5)],
                vec![b(true), b(true), Value::Int(-5)],
                vec![b(true), b(true), Value::Int(5)],
            ]
        );
    }
}
