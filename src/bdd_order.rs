//! The order of the BDD backend's variables, derived from the story instead of from the
//! order of its declarations.
//!
//! A BDD's size depends on its variable order, and the order that matters is the one of
//! the constants: constants that the story relates with each other should sit close
//! together. Stories relate the members of families index by index (`coin[i]` with
//! `coin[i - 1]` and `paid[i]` in the dining cryptographers; `walls[h]` with
//! `owner[h]` in the zebra puzzle), so families are interleaved: first the constants
//! that belong to no family, in declaration order, then every family's member 0 (in
//! the order the families were declared), every family's member 1, and so on. Declared
//! as `bool paid[n], coin[n]`, the dining cryptographers' constants come in the order
//! `paid[0] coin[0] paid[1] coin[1] …`: the ring of comparisons each announcement adds
//! spans a few variables instead of the whole order, and κ grows linearly in n instead
//! of exponentially.
//!
//! The order only changes how the BDD backend lays its bits out; worlds are still
//! printed in the canonical order of [`crate::worlds::World`] (see the backend's
//! `walk.rs`). `--stats` prints the order ([`describe`]).

use crate::ir::Program;

/// A family member's family name and index: `coin[12]` is `("coin", 12)`.
fn member(name: &str) -> Option<(&str, usize)> {
    let open = name.rfind('[')?;
    let index = name[open + 1..].strip_suffix(']')?.parse().ok()?;
    Some((&name[..open], index))
}

/// The program's constants (their indices in `program.constants`) in BDD variable order.
pub fn order(program: &Program) -> Vec<usize> {
    let mut families: Vec<&str> = Vec::new();
    let mut scalars = Vec::new();
    let mut members = Vec::new();
    for (c, constant) in program.constants.iter().enumerate() {
        match member(&constant.name) {
            Some((family, index)) => {
                let f = match families.iter().position(|g| *g == family) {
                    Some(f) => f,
                    None => {
                        families.push(family);
                        families.len() - 1
                    }
                };
                members.push((index, f, c));
            }
            None => scalars.push(c),
        }
    }
    members.sort();
    scalars
        .into_iter()
        .chain(members.into_iter().map(|(_, _, c)| c))
        .collect()
}

/// The order as `--stats` prints it: the constants outside families, then the families
/// interleaved, e.g. `x, y, then by index: paid[i] coin[i] (i in 0..200)`.
pub fn describe(program: &Program, order: &[usize]) -> String {
    let name = |c: &usize| program.constants[*c].name.as_str();
    let scalars: Vec<&str> = order
        .iter()
        .map(name)
        .take_while(|n| member(n).is_none())
        .collect();
    // Each family once, in order of first appearance, with its number of members.
    let mut families: Vec<(&str, usize)> = Vec::new();
    for (family, _) in order.iter().map(name).filter_map(member) {
        match families.iter_mut().find(|(f, _)| *f == family) {
            Some((_, size)) => *size += 1,
            None => families.push((family, 1)),
        }
    }
    let mut text = scalars.join(", ");
    if !families.is_empty() {
        if !text.is_empty() {
            text.push_str(", then ");
        }
        text.push_str("by index: ");
        let same_size = families.iter().all(|(_, s)| *s == families[0].1);
        let parts: Vec<String> = families
            .iter()
            .map(|(f, size)| {
                if same_size {
                    format!("{f}[i]")
                } else {
                    format!("{f}[i] (i in 0..{size})")
                }
            })
            .collect();
        text.push_str(&parts.join(" "));
        if same_size {
            text.push_str(&format!(" (i in 0..{})", families[0].1));
        }
    }
    if text.is_empty() {
        text.push_str("no constants");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(source: &str) -> Program {
        crate::compile(source, &[]).expect("the story compiles")
    }

    #[test]
    fn families_are_interleaved_after_the_other_constants() {
        let program = compile("const n = 3\nbool paid[n], coin[n]\nbool x\nbool late[2]\n");
        let names: Vec<&str> = order(&program)
            .iter()
            .map(|c| program.constants[*c].name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                "x", "paid[0]", "coin[0]", "late[0]", "paid[1]", "coin[1]", "late[1]", "paid[2]",
                "coin[2]"
            ]
        );
        assert_eq!(
            describe(&program, &order(&program)),
            "x, then by index: paid[i] (i in 0..3) coin[i] (i in 0..3) late[i] (i in 0..2)"
        );
        let program = compile("bool paid[2], coin[2]\n");
        assert_eq!(
            describe(&program, &order(&program)),
            "by index: paid[i] coin[i] (i in 0..2)"
        );
    }

    #[test]
    fn without_families_the_order_is_the_declarations() {
        let program = compile("enum C { r, g }\nC b\nbool a\n");
        assert_eq!(order(&program), [0, 1]);
        assert_eq!(describe(&program, &order(&program)), "b, a");
        assert_eq!(describe(&compile("characters A\n"), &[]), "no constants");
    }
}
