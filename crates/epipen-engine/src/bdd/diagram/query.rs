//! Questions about one BDD that walk its nodes without building any: which variables it
//! tests, how many valuations satisfy it, whether a partial valuation extends to one,
//! and which values each variable takes in its satisfying valuations.

use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};

use super::{Bdd, BddVariable, Edge, FALSE, TERMINAL_VAR, TRUE};

impl Bdd {
    /// Whether the function tests a variable `vars` marks (by index): a search that stops
    /// at the first one.
    pub(in crate::bdd) fn tests_any(&self, vars: &[bool]) -> bool {
        let mut m = self.manager.borrow_mut();
        m.new_traversal();
        let mut stack = vec![self.edge >> 1];
        while let Some(index) = stack.pop() {
            let n = m.nodes[index as usize];
            if n.var == TERMINAL_VAR || !m.first_visit(index) {
                continue;
            }
            if vars.get(n.var as usize) == Some(&true) {
                return true;
            }
            stack.extend([n.low >> 1, n.high >> 1]);
        }
        false
    }

    /// The variables the function depends on, in order.
    pub(in crate::bdd) fn support(&self) -> Vec<BddVariable> {
        let mut m = self.manager.borrow_mut();
        let mut vars: Vec<BddVariable> = m
            .reachable(self.edge)
            .into_iter()
            .map(|i| m.nodes[i as usize].var)
            .filter(|v| *v != TERMINAL_VAR)
            .map(BddVariable)
            .collect();
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    /// How many valuations of `vars` satisfy the function; None when there are 2^100 or
    /// more, or when the function depends on another variable.
    pub(in crate::bdd) fn count(&self, vars: &[BddVariable]) -> Option<u128> {
        let m = self.manager.borrow();
        let mut position = vec![usize::MAX; m.num_vars as usize];
        let mut sorted: Vec<u32> = vars.iter().map(|v| v.0).collect();
        sorted.sort_unstable();
        sorted.dedup();
        for (p, v) in sorted.iter().enumerate() {
            *position.get_mut(*v as usize)? = p;
        }
        let total = sorted.len();
        let level = |e: Edge| -> Option<usize> {
            match m.var(e) {
                TERMINAL_VAR => Some(total),
                var => position
                    .get(var as usize)
                    .copied()
                    .filter(|p| *p != usize::MAX),
            }
        };
        // 2^k exactly modulo 2^128, and approximately.
        let pow2 = |k: usize| -> (u128, f64) {
            (
                if k >= 128 { 0 } else { 1u128 << k },
                2f64.powi(i32::try_from(k).unwrap_or(i32::MAX)),
            )
        };
        // Per node, the count over the variables from its own on: exact modulo 2^128, and
        // approximately (which tells whether the exact one wrapped).
        let mut done: HashMap<u32, (u128, f64)> = HashMap::new();
        done.insert(0, pow2(0));
        // The count of edge `e` over the variables from position `from` on.
        let edge_count = |e: Edge, from: usize, done: &HashMap<u32, (u128, f64)>| {
            let at = level(e)?;
            let regular = *done.get(&(e >> 1))?;
            let within = if e & 1 == 1 {
                let all = pow2(total - at);
                (all.0.wrapping_sub(regular.0), all.1 - regular.1)
            } else {
                regular
            };
            let skipped = pow2(at.checked_sub(from)?);
            Some((within.0.wrapping_mul(skipped.0), within.1 * skipped.1))
        };
        let mut stack = vec![self.edge >> 1];
        while let Some(&index) = stack.last() {
            if done.contains_key(&index) {
                stack.pop();
                continue;
            }
            let n = m.nodes[index as usize];
            let (low, high) = (n.low >> 1, n.high >> 1);
            if done.contains_key(&low) && done.contains_key(&high) {
                let at = level(index << 1)?;
                let l = edge_count(n.low, at + 1, &done)?;
                let h = edge_count(n.high, at + 1, &done)?;
                done.insert(index, (l.0.wrapping_add(h.0), l.1 + h.1));
                stack.pop();
            } else {
                stack.extend([low, high].into_iter().filter(|c| !done.contains_key(c)));
            }
        }
        let (exact, approximate) = edge_count(self.edge, 0, &done)?;
        (approximate < 2f64.powi(100)).then_some(exact)
    }

    /// Whether a satisfying valuation agrees with the `fixed` values (per variable index;
    /// None: either): a depth-first search that never enters a node twice.
    pub(in crate::bdd) fn satisfiable_with(&self, fixed: &[Option<bool>]) -> bool {
        let m = self.manager.borrow();
        let mut dead = HashSet::new();
        let mut stack: Vec<(Edge, u8)> = vec![(self.edge, 0)];
        if self.edge == TRUE {
            return true;
        }
        if self.edge == FALSE {
            return false;
        }
        while let Some((e, next)) = stack.last_mut() {
            let e = *e;
            let n = m.nodes[(e >> 1) as usize];
            let neg = e & 1;
            let children = match fixed.get(n.var as usize).copied().flatten() {
                Some(false) => [Some(n.low ^ neg), None],
                Some(true) => [Some(n.high ^ neg), None],
                None => [Some(n.low ^ neg), Some(n.high ^ neg)],
            };
            match children.get(usize::from(*next)).copied().flatten() {
                Some(child) => {
                    *next += 1;
                    if child == TRUE {
                        return true;
                    }
                    if child != FALSE && !dead.contains(&child) {
                        stack.push((child, 0));
                    }
                }
                None => {
                    dead.insert(e);
                    stack.pop();
                }
            }
        }
        false
    }
}

/// Which values each variable takes in the satisfying valuations of a function (see
/// [`Bdd::values_taken`]).
pub(in crate::bdd) struct ValuesTaken {
    /// Per variable index: some satisfying valuation sets it false, true.
    pub false_in_some: Vec<bool>,
    pub true_in_some: Vec<bool>,
}

impl Bdd {
    /// For every variable, whether some satisfying valuation sets it false and whether
    /// some sets it true (None: no valuation satisfies the function). One walk over the
    /// nodes: every edge but the false one is satisfiable (complement edges keep every
    /// node's function non-constant), so each edge taken from the root on lies on a
    /// satisfying path; a node's branch gives its variable that value, and the
    /// variables an edge skips take either.
    pub(in crate::bdd) fn values_taken(&self) -> Option<ValuesTaken> {
        if self.edge == FALSE {
            return None;
        }
        let m = self.manager.borrow();
        let n = m.num_vars as usize;
        let mut taken = ValuesTaken {
            false_in_some: vec![false; n],
            true_in_some: vec![false; n],
        };
        // free[v] > 0 after the prefix sums: some satisfying path skips v.
        let mut free = vec![0i64; n + 1];
        let level = |e: Edge| -> usize {
            match m.var(e) {
                TERMINAL_VAR => n,
                v => v as usize,
            }
        };
        let skip = |from: usize, to: usize, free: &mut Vec<i64>| {
            if from < to {
                free[from] += 1;
                free[to] -= 1;
            }
        };
        skip(0, level(self.edge), &mut free);
        let mut seen: HashSet<Edge> = HashSet::new();
        let mut stack = vec![self.edge];
        while let Some(e) = stack.pop() {
            if e == TRUE || !seen.insert(e) {
                continue;
            }
            let node = m.nodes[(e >> 1) as usize];
            let var = node.var as usize;
            for (child, value) in [(node.low ^ (e & 1), false), (node.high ^ (e & 1), true)] {
                if child == FALSE {
                    continue;
                }
                if value {
                    taken.true_in_some[var] = true;
                } else {
                    taken.false_in_some[var] = true;
                }
                skip(var + 1, level(child), &mut free);
                stack.push(child);
            }
        }
        let mut open = 0;
        let both = taken.false_in_some.iter_mut().zip(&mut taken.true_in_some);
        for ((f, t), d) in both.zip(&free) {
            open += d;
            if open > 0 {
                (*f, *t) = (true, true);
            }
        }
        Some(taken)
    }

    /// The function as a conjunction of literals (variable index, value), when it is one
    /// (`true` is the empty one); None otherwise.
    pub(in crate::bdd) fn as_cube(&self) -> Option<Vec<(usize, bool)>> {
        let m = self.manager.borrow();
        let mut literals = Vec::new();
        let mut e = self.edge;
        while e != TRUE {
            if e == FALSE {
                return None;
            }
            let node = m.nodes[(e >> 1) as usize];
            let (low, high) = (node.low ^ (e & 1), node.high ^ (e & 1));
            let var = node.var as usize;
            if low == FALSE {
                literals.push((var, true));
                e = high;
            } else if high == FALSE {
                literals.push((var, false));
                e = low;
            } else {
                return None;
            }
        }
        Some(literals)
    }
}
