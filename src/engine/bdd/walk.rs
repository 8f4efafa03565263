//! The first worlds of a BDD in the canonical order of [`crate::worlds::World`], without
//! enumerating the others.
//!
//! The canonical order is magnitude first (the largest enum index; bools count 0), then
//! value by value in declaration order. Each constant's bits are most significant first
//! (see `space.rs`), so within one magnitude the canonical order is the lexicographic
//! order of the bits taken in declaration order, false first. The BDD's variable order
//! is another one (families interleaved, see [`crate::bdd_order`]), so the walk does
//! not follow the BDD's branches: it fixes the bits one by one in declaration order,
//! each to false when some world of the set agrees with everything fixed so far, else
//! to true. Whether one does is a search through the BDD that follows the fixed bits and
//! tries both branches of the others; it visits each node at most once. The magnitudes
//! are walked as layers, smallest first.

use biodivine_lib_bdd::{Bdd, BddPointer, BddVariable};

use super::space::Space;
use crate::worlds::World;

/// Up to `limit` worlds of `set`, the canonical first ones, in canonical order.
pub(super) fn first_worlds(space: &Space, set: &Bdd, limit: usize) -> Vec<World> {
    // Only unprimed bits make a world (κ never mentions primed ones; be safe anyway).
    let set = set.exists(&space.all_primed());
    let mut out = Vec::new();
    let Some(max) = space.max_magnitude() else {
        walk(&set, space.declared_bits(), limit, &mut |bits| {
            out.push(space.world(bits))
        });
        return out;
    };
    let mut below = space.magnitude_at_most(-1);
    for m in 0..=max {
        if out.len() >= limit {
            break;
        }
        let within = space.magnitude_at_most(m);
        let layer = set.and(&within).and_not(&below);
        walk(
            &layer,
            space.declared_bits(),
            limit - out.len(),
            &mut |bits| out.push(space.world(bits)),
        );
        below = within;
    }
    out
}

/// Calls `emit` with the values of `vars` of up to `limit` satisfying valuations of
/// `bdd`, in lexicographic order of `vars` (false first). `bdd` must mention only `vars`
/// (in any variable order). Every bit is fixed once the bits before it are: the walk
/// never backs out of a dead end, so each valuation costs at most two searches per bit.
fn walk(bdd: &Bdd, vars: &[BddVariable], limit: usize, emit: &mut dyn FnMut(&[bool])) {
    if bdd.is_false() || limit == 0 {
        return;
    }
    let support = bdd.support_set();
    let mut search = Search::new(bdd);
    let n = vars.len();
    let mut values = vec![false; n];
    // tried[i]: how many values of vars[i] have been tried on the current path.
    let mut tried = vec![0u8; n + 1];
    let mut emitted = 0;
    let mut level = 0;
    loop {
        if level == n {
            emit(&values);
            emitted += 1;
            if emitted == limit || n == 0 {
                return;
            }
            level -= 1;
            continue;
        }
        let var = vars[level];
        if tried[level] == 2 {
            tried[level] = 0;
            search.unfix(var);
            if level == 0 {
                return;
            }
            level -= 1;
            continue;
        }
        let value = tried[level] == 1;
        tried[level] += 1;
        search.fix(var, value);
        // A bit the set does not mention takes either value: the valuations fixed so far
        // extend to a world of the set, so they still do.
        if support.contains(&var) && !search.feasible() {
            continue;
        }
        values[level] = value;
        level += 1;
    }
}

/// Whether a BDD has a satisfying valuation that agrees with some fixed variables.
struct Search<'a> {
    bdd: &'a Bdd,
    /// Per variable index, its fixed value.
    fixed: Vec<Option<bool>>,
    /// Per node, the number of the search that found it leads to no valuation.
    dead: Vec<u32>,
    searches: u32,
    stack: Vec<(BddPointer, u8)>,
}

impl<'a> Search<'a> {
    fn new(bdd: &'a Bdd) -> Search<'a> {
        Search {
            bdd,
            fixed: vec![None; usize::from(bdd.num_vars())],
            dead: vec![0; bdd.size()],
            searches: 0,
            stack: Vec::new(),
        }
    }

    fn fix(&mut self, var: BddVariable, value: bool) {
        self.fixed[var.to_index()] = Some(value);
    }

    fn unfix(&mut self, var: BddVariable) {
        self.fixed[var.to_index()] = None;
    }

    /// Whether some path from the root to `true` agrees with the fixed variables: a
    /// depth-first search that marks the nodes it leaves without finding one.
    fn feasible(&mut self) -> bool {
        self.searches += 1;
        let root = self.bdd.root_pointer();
        if root.is_one() {
            return true;
        }
        if root.is_zero() {
            return false;
        }
        self.stack.clear();
        self.stack.push((root, 0));
        while let Some((node, next)) = self.stack.last_mut() {
            let node = *node;
            let var = self.bdd.var_of(node);
            let children = match self.fixed[var.to_index()] {
                Some(false) => [Some(self.bdd.low_link_of(node)), None],
                Some(true) => [Some(self.bdd.high_link_of(node)), None],
                None => [
                    Some(self.bdd.low_link_of(node)),
                    Some(self.bdd.high_link_of(node)),
                ],
            };
            match children.get(usize::from(*next)).copied().flatten() {
                Some(child) => {
                    *next += 1;
                    if child.is_one() {
                        return true;
                    }
                    if !child.is_zero() && self.dead[child.to_index()] != self.searches {
                        self.stack.push((child, 0));
                    }
                }
                None => {
                    self.dead[node.to_index()] = self.searches;
                    self.stack.pop();
                }
            }
        }
        false
    }
}
