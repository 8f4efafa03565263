//! κ's worlds listed, for the finite-domain route: a box of values scanned natively, or
//! the solver's models one by one; cached per κ.

use std::rc::Rc;

use super::{FiniteAnswer, State, WorldList, Z3Backend};
use crate::Failure;
use crate::ir::Ty;
use crate::worlds::Value;
use crate::z3::solver::Term;

/// Above this many worlds the finite-domain route gives up.
const FINITE_CAP: usize = 200_000;
/// How long the error of a closed finite-domain route looks for each constant that is
/// unbounded, when κ is non-linear.
const UNBOUNDED_BUDGET: std::time::Duration = std::time::Duration::from_millis(300);
/// κ's worlds when listed, and whether the finite-domain route is closed whatever the cap.
type Listed = (Option<Vec<Vec<Value>>>, bool);

/// How long each check of a non-linear κ may take before the finite-domain route
/// counts it as closed (unknown: never a list of worlds, never a wait without end).
const NONLINEAR_BUDGET: std::time::Duration = std::time::Duration::from_secs(2);
/// The largest box of int values the finite-domain route scans point by point.
const BOX_CAP: u128 = 4_000_000;

/// How many κs the finite-domain route remembers the answer for (the current one and
/// those of the checkpoints an `at(…)` asks about).
const FINITE_CACHE_ENTRIES: usize = 4;

impl Z3Backend {
    /// Every world of κ in `state`, when there are finitely many (else the error that
    /// says the finite-domain route is closed, after quantifier elimination could not
    /// handle what `closed_because` names, and which constants are unbounded).
    pub(super) fn finite_worlds(
        &mut self,
        state: &State,
        closed_because: &str,
    ) -> Result<WorldList, Failure> {
        if let Some(worlds) = self.small_worlds(state, FINITE_CAP)? {
            return Ok(worlds);
        }
        let kappa = self.kappa_of(state);
        // Z3's optimizer proves a constant unbounded in linear arithmetic; with products
        // it can stall, and a value beyond the 64-bit integers (found within a short
        // budget) is the sign instead.
        let mut unbounded = Vec::new();
        let nonlinear = kappa.is_nonlinear();
        for v in self.int_vars() {
            let beyond = Term::or(&[v.lt(&Term::int(i64::MIN)), Term::int(i64::MAX).lt(v)]);
            let shown = if nonlinear {
                let with = Term::and(&[kappa.clone(), beyond]);
                self.z3.is_sat_within(&with, UNBOUNDED_BUDGET)? == Some(true)
            } else {
                self.z3.unbounded(&kappa, v)?
            };
            if shown {
                unbounded.push(v.story_text());
            }
        }
        // When the solver shows none, the constants the first announcements leave
        // unbounded, or bound to more values than the route lists, are named (by the
        // explicit search's interval propagation: the Pythagorean triples' x, y and m
        // are bounded only by their squares' 64 bits).
        let loose = crate::explicit::loose_by_first(&self.program, FINITE_CAP as u128);
        let named = |unbounded: bool| -> Vec<String> {
            (loose.iter())
                .filter(|(_, u)| *u == unbounded)
                .map(|(k, _)| format!("`{}`", self.program.constants[*k].name))
                .collect()
        };
        let (open, wide) = (named(true), named(false));
        let (why, example) = match unbounded.as_slice() {
            [] if !loose.is_empty() => (
                format!(
                    "the possible worlds are more than {FINITE_CAP} or not finitely many \
                     (the story's first announcements {})",
                    [
                        (!open.is_empty()).then(|| format!("leave {} unbounded", open.join(", "))),
                        (!wide.is_empty()).then(|| format!(
                            "bound {} to more than {FINITE_CAP} values each",
                            wide.join(", ")
                        )),
                    ]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" and ")
                ),
                self.program.constants[loose[0].0].name.clone(),
            ),
            [] => (
                format!("the possible worlds are more than {FINITE_CAP} or not finitely many"),
                self.int_vars()
                    .next()
                    .map_or_else(|| "x".to_string(), Term::story_text),
            ),
            [one] => (
                format!("the possible worlds are not finitely many (`{one}` is unbounded)"),
                one.clone(),
            ),
            [first, ..] => (
                format!(
                    "the possible worlds are not finitely many ({} are unbounded)",
                    unbounded
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                first.clone(),
            ),
        };
        Err(Failure::Unsupported(format!(
            "quantifier elimination cannot handle {closed_because}, and {why}, so the \
             finite-domain route is closed too; bound every constant in an announcement, \
             e.g. `announce {example} >= 0 and {example} <= 100`"
        )))
    }

    /// κ's worlds in `state` when they are finitely many and at most `cap` of them are
    /// found by the solver one by one (a box of values scanned natively may hold more).
    /// The answer is cached per κ; the current state keeps its list and filters it as κ
    /// grows.
    pub(super) fn small_worlds(
        &mut self,
        state: &State,
        cap: usize,
    ) -> Result<Option<WorldList>, Failure> {
        if let Some(ws) = &state.worlds {
            return Ok(Some(ws.clone()));
        }
        if let Some(answer) = self
            .finite_cache
            .iter()
            .find(|a| a.kappa == state.kappa && (a.worlds.is_some() || a.cap >= cap))
        {
            return Ok(answer.worlds.clone());
        }
        let (found, closed) = self.list_worlds(&state.kappa, cap)?;
        let found = found.map(Rc::new);
        if let Some(ws) = &found {
            tracing::debug!(
                worlds = ws.len(),
                "enumerated κ for the finite-domain route"
            );
        }
        self.finite_cache.retain(|a| a.kappa != state.kappa);
        if self.finite_cache.len() == FINITE_CACHE_ENTRIES {
            self.finite_cache.remove(0);
        }
        self.finite_cache.push(FiniteAnswer {
            kappa: state.kappa.clone(),
            worlds: found.clone(),
            // Closed whatever the cap: no larger cap lists them.
            cap: if closed { usize::MAX } else { cap },
        });
        Ok(found)
    }

    /// κ's worlds when finitely many and at most `cap`; and whether the route is closed
    /// whatever the cap (an int beyond the 64-bit integers, or a non-linear κ the
    /// solver cannot bound within [`NONLINEAR_BUDGET`]).
    fn list_worlds(&self, kappa: &Term, cap: usize) -> Result<Listed, Failure> {
        // Non-linear integer arithmetic is undecidable: a check of a non-linear κ may
        // never end (`x * x + y * y == m * m` with a value beyond 2^63 asked: the check
        // ran until the run's deadline, or forever without one). Within a budget, an
        // unknown closes the route, and the error names the constants left unbounded.
        let nonlinear = kappa.is_nonlinear();
        let sat = |f: &Term| -> Result<Option<bool>, Failure> {
            match nonlinear {
                true => self.z3.is_sat_within(f, NONLINEAR_BUDGET),
                false => self.z3.is_sat(f).map(Some),
            }
        };
        // An int constant beyond the 64-bit integers under κ (unbounded, or a value no
        // world can hold) closes the finite-domain route at once. Within them κ is
        // finite, large values or not: the box or the solver lists its worlds, up to
        // their caps.
        let outside: Vec<Term> = self
            .vars
            .iter()
            .filter(|v| !v.is_bool())
            .map(|v| Term::or(&[v.lt(&Term::int(i64::MIN)), Term::int(i64::MAX).lt(v)]))
            .collect();
        if sat(&Term::and(&[kappa.clone(), Term::or(&outside)]))? != Some(false) {
            if nonlinear {
                tracing::debug!("a non-linear κ not shown within 64 bits: no list of worlds");
            }
            return Ok((None, true));
        }
        // No world at all: Z3's optimizer (for the box) can stall on proving that of a
        // non-linear κ (`abs(x % x) == 5`), the solver does not.
        match sat(kappa)? {
            Some(false) => return Ok((Some(Vec::new()), false)),
            Some(true) => {}
            None => return Ok((None, true)),
        }
        if let Some(worlds) = self.box_worlds(kappa)? {
            return Ok((Some(worlds), false));
        }
        let (worlds, exhausted) = self.z3.enumerate(kappa, &self.vars, None, cap)?;
        Ok((exhausted.then_some(worlds), false))
    }

    /// The variables of the int constants (not bools, not enums): the only ones that
    /// need the optimizer for their bounds, and that can take infinitely many values.
    pub(super) fn int_vars(&self) -> impl Iterator<Item = &Term> {
        (self.vars.iter().enumerate())
            .filter(|(k, v)| !v.is_bool() && self.enum_range(*k).is_none())
            .map(|(_, v)| v)
    }

    /// The values of constant `k` when it is an enum's: its variants' indices.
    pub(super) fn enum_range(&self, k: usize) -> Option<(i64, i64)> {
        match self.program.constants[k].ty {
            Ty::Enum(e) => Some((0, self.program.enums[e.0].variants.len() as i64 - 1)),
            _ => None,
        }
    }

    /// κ's worlds found by evaluating κ natively at every point of the box its int
    /// constants range over (from Z3's optimizer), when that box is small enough.
    fn box_worlds(&self, kappa: &Term) -> Result<Option<Vec<Vec<Value>>>, Failure> {
        let compiled = kappa.compile(&self.vars);
        if !compiled.is_native() {
            return Ok(None);
        }
        // Enum constants take their range from their type; the optimizer bounds the ints.
        let ints: Vec<Term> = self.int_vars().cloned().collect();
        let Some(int_ranges) = self.z3.ranges(kappa, &ints)? else {
            return Ok(None);
        };
        let mut int_ranges = int_ranges.into_iter();
        let mut ranges = Vec::with_capacity(self.vars.len());
        let mut size: u128 = 1;
        for (k, v) in self.vars.iter().enumerate() {
            let (lo, hi) = if v.is_bool() {
                (0, 1)
            } else if let Some(range) = self.enum_range(k) {
                range
            } else {
                int_ranges.next().expect("one range per int")
            };
            size = size.saturating_mul((hi as i128 - lo as i128 + 1).max(0) as u128);
            if size > BOX_CAP {
                return Ok(None);
            }
            ranges.push((lo, hi, v.is_bool()));
        }
        let mut worlds = Vec::new();
        if ranges.iter().any(|r| r.0 > r.1) {
            return Ok(Some(worlds));
        }
        let value = |x: i64, is_bool: bool| {
            if is_bool {
                Value::Bool(x != 0)
            } else {
                Value::Int(x)
            }
        };
        let mut point: Vec<i64> = ranges.iter().map(|r| r.0).collect();
        let mut world: Vec<Value> = point
            .iter()
            .zip(&ranges)
            .map(|(x, r)| value(*x, r.2))
            .collect();
        let mut scratch = Vec::new();
        loop {
            if compiled.eval(&world, &mut scratch)? == Value::Bool(true) {
                worlds.push(world.clone());
            }
            // The next point, the last variable fastest.
            let mut k = ranges.len();
            loop {
                if k == 0 {
                    return Ok(Some(worlds));
                }
                k -= 1;
                if point[k] < ranges[k].1 {
                    point[k] += 1;
                    world[k] = value(point[k], ranges[k].2);
                    break;
                }
                point[k] = ranges[k].0;
                world[k] = value(point[k], ranges[k].2);
            }
        }
    }
}
