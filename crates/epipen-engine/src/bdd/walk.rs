//! The first worlds of a BDD in the canonical order of [`crate::worlds::World`], without
//! enumerating the others.
//!
//! The canonical order is magnitude first (the largest absolute value of an int, or
//! index of an enum; bools count 0), then value by value in declaration order. Each
//! constant's bits are most significant first (see `space.rs`), so within one magnitude
//! the canonical order is the lexicographic order of the bits taken in declaration
//! order, false first. The BDD's variable order is another one (families interleaved,
//! see [`crate::bdd::order`]), so the walk does not follow the BDD's branches: it fixes
//! the bits one by one in declaration order, each to false when some world of the set
//! agrees with everything fixed so far, else to true. Whether one does is a search
//! through the BDD that follows the fixed bits and tries both branches of the others; it
//! visits each node at most once. The magnitudes are walked as layers, smallest first:
//! only those some constant can hold (an int bound to 10^12..=10^12 + 3 has four), until
//! no world is left. A set of at most `limit` worlds is listed in one walk and sorted
//! instead (a plan's search lists every state it reaches).

use super::diagram::{Bdd, BddVariable};
use super::space::Space;
use crate::worlds::World;

/// Up to `limit` worlds of `set`, the canonical first ones, in canonical order.
pub(super) fn first_worlds(space: &Space, set: &Bdd, limit: usize) -> Vec<World> {
    // Only unprimed bits make a world (κ never mentions primed ones; be safe anyway).
    let set = set.exists(&space.all_primed());
    let mut out = Vec::new();
    if space.max_magnitude().is_none() {
        walk(&set, space.declared_bits(), limit, &mut |bits| {
            out.push(space.world(bits))
        });
        return out;
    }
    // A set of at most `limit` worlds: listed in any order, then sorted in the canonical
    // order the layers give (`World`'s), which spares a walk per magnitude (a plan's
    // search lists every state it reaches, and its steps' occurrences have many values).
    let mut all = Vec::new();
    walk(
        &set,
        space.declared_bits(),
        limit.saturating_add(1),
        &mut |bits| all.push(space.world(bits)),
    );
    if all.len() <= limit {
        all.sort();
        return all;
    }
    let mut below = space.magnitude_at_most(-1);
    for m in space.magnitudes() {
        if out.len() >= limit || set.and_not(&below).is_false() {
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
    let mut mentioned = vec![false; vars.iter().map(|v| v.to_index() + 1).max().unwrap_or(0)];
    for v in bdd.support() {
        if let Some(m) = mentioned.get_mut(v.to_index()) {
            *m = true;
        }
    }
    let mut fixed: Vec<Option<bool>> = vec![None; mentioned.len()];
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
            fixed[var.to_index()] = None;
            if level == 0 {
                return;
            }
            level -= 1;
            continue;
        }
        let value = tried[level] == 1;
        tried[level] += 1;
        fixed[var.to_index()] = Some(value);
        // A bit the set does not mention takes either value: the valuations fixed so far
        // extend to a world of the set, so they still do.
        if mentioned[var.to_index()] && !bdd.satisfiable_with(&fixed) {
            continue;
        }
        values[level] = value;
        level += 1;
    }
}
