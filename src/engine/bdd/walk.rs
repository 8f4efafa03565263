//! The first worlds of a BDD in the canonical order of [`crate::worlds::World`], without
//! enumerating the others.
//!
//! The canonical order is magnitude first (the largest enum index; bools count 0), then
//! value by value in declaration order. The bits are laid out in declaration order, most
//! significant first (see `space.rs`), so within one magnitude the canonical order is the
//! lexicographic order of the bits, false first: a depth-first walk taking low branches
//! first. The magnitudes are walked as layers, smallest first.

use biodivine_lib_bdd::{Bdd, BddPointer, BddVariable};

use super::space::Space;
use crate::worlds::World;

/// Up to `limit` worlds of `set`, the canonical first ones, in canonical order.
pub(super) fn first_worlds(space: &Space, set: &Bdd, limit: usize) -> Vec<World> {
    // Only unprimed bits make a world (κ never mentions primed ones; be safe anyway).
    let set = set.exists(&space.all_primed());
    let mut out = Vec::new();
    let Some(max) = space.max_magnitude() else {
        walk(&set, space.all_bits(), limit, &mut |bits| {
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
        walk(&layer, space.all_bits(), limit - out.len(), &mut |bits| {
            out.push(space.world(bits))
        });
        below = within;
    }
    out
}

/// Calls `emit` with the values of `vars` of up to `limit` satisfying valuations of
/// `bdd`, in lexicographic order (false first). `bdd` must mention only `vars`, which are
/// in variable order. Every node of a reduced BDD other than false leads to true, so
/// each step down the walk leads to a valuation: the walk costs O(limit · vars).
fn walk(bdd: &Bdd, vars: &[BddVariable], limit: usize, emit: &mut dyn FnMut(&[bool])) {
    if bdd.is_false() || limit == 0 {
        return;
    }
    let n = vars.len();
    let mut values = vec![false; n];
    // nodes[i]: the node reached before choosing vars[i]; tried[i]: values tried there.
    let mut nodes = vec![bdd.root_pointer(); n + 1];
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
        if tried[level] == 2 {
            tried[level] = 0;
            if level == 0 {
                return;
            }
            level -= 1;
            continue;
        }
        let value = tried[level] == 1;
        tried[level] += 1;
        let child = child(bdd, nodes[level], vars[level], value);
        if child.is_zero() {
            continue;
        }
        values[level] = value;
        nodes[level + 1] = child;
        level += 1;
    }
}

/// The node reached from `node` by setting `var` to `value` (`node` itself when it does
/// not test `var`: the variable is free there).
fn child(bdd: &Bdd, node: BddPointer, var: BddVariable, value: bool) -> BddPointer {
    if node.is_terminal() || bdd.var_of(node) != var {
        node
    } else if value {
        bdd.high_link_of(node)
    } else {
        bdd.low_link_of(node)
    }
}
