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
//! of exponentially. The declarations' order is kept instead when it keeps the
//! constants each formula relates closer together (`spread`: the zebra puzzle's
//! `distinct` over one family), and each event's occurrences go right after the last
//! constant its cases read or change, in the order they happen (`beside_their_cases`).
//!
//! The order only changes how the BDD backend lays its bits out; worlds are still
//! printed in the canonical order of [`crate::worlds::World`] (see the backend's
//! `walk.rs`). `--stats` prints the order ([`describe`]).

use crate::ir::{EventStmt, Expr, ExprKind, Program, Stmt, StmtKind};

/// A family member's family name and index: `coin[12]` is `("coin", 12)`.
fn member(name: &str) -> Option<(&str, usize)> {
    let open = name.rfind('[')?;
    let index = name[open + 1..].strip_suffix(']')?.parse().ok()?;
    Some((&name[..open], index))
}

/// The program's constants (their indices in `program.constants`) in BDD variable order:
/// families interleaved by index ([`interleaved`]) unless the declarations' order keeps
/// the constants that the story's formulas relate closer together ([`spread`]). The
/// zebra puzzle's `distinct(h in 0..5: owner[h])` relates a family's members with each
/// other, and interleaving its five families would put 20 other variables between
/// `owner[0]` and `owner[4]` (a BDD of millions of nodes instead of hundreds); the
/// dining cryptographers relate `paid[i]` with `coin[i]` and `coin[i - 1]` only.
pub fn order(program: &Program) -> Vec<usize> {
    let interleaved = interleaved(program);
    let declared: Vec<usize> = (0..program.constants.len()).collect();
    let chosen =
        if interleaved != declared && spread(program, &declared) < spread(program, &interleaved) {
            declared
        } else {
            interleaved
        };
    beside_their_cases(program, chosen)
}

/// Each event's occurrences moved right after the last constant (in `order`) that its
/// cases read or change, after the occurrences already moved there: occurrences that
/// land at one place keep the order in which they happen. A private announcement's
/// occurrence beside what it reveals keeps κ linear in their number (secrets at n = 10:
/// 40 nodes, 147 611 with the occurrences after every constant); a run of events over
/// the same constants keeps its history in order after them (the prisoners at n = 8:
/// 12 233 nodes, 122 224 with the history reversed).
fn beside_their_cases(program: &Program, mut order: Vec<usize>) -> Vec<usize> {
    let mut moves: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for stmt in &program.statements {
        events(stmt, &mut |event| {
            let occ: Vec<usize> = event.occurrences.iter().map(|o| o.0).collect();
            let mut read = Vec::new();
            for case in &event.cases {
                read.extend(case.pre.iter().flat_map(mentioned));
                for (target, value) in &case.changes {
                    read.push(target.0);
                    read.extend(mentioned(value));
                }
            }
            read.retain(|c| !occ.contains(c));
            moves.push((occ, read));
        });
    }
    let mut moved: Vec<usize> = Vec::new();
    for (occ, read) in moves {
        if read.is_empty() {
            continue;
        }
        order.retain(|c| !occ.contains(c));
        let mut at = order
            .iter()
            .rposition(|c| read.contains(c))
            .map_or(order.len(), |p| p + 1);
        while at < order.len() && moved.contains(&order[at]) {
            at += 1;
        }
        for (k, o) in occ.iter().enumerate() {
            order.insert(at + k, *o);
        }
        moved.extend(occ);
    }
    order
}

/// First the constants that belong to no family, in declaration order, then every
/// family's member 0 (in the order the families were declared), every member 1, …
fn interleaved(program: &Program) -> Vec<usize> {
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

/// How far apart `order` puts the constants that the story's formulas relate: over
/// every formula of every statement, the distance between the first and the last of the
/// constants it mentions. (The sum over the gaps between neighbouring variables of how
/// many formulas reach across it: a BDD's width at a level grows with what the formulas
/// crossing it have to remember. Whole formulas, not their conjuncts: the dining
/// cryptographers' "at most one paid", n² / 2 conjuncts over `paid` alone, is a small
/// BDD in any order.)
fn spread(program: &Program, order: &[usize]) -> usize {
    let mut position = vec![0; order.len()];
    for (p, c) in order.iter().enumerate() {
        position[*c] = p;
    }
    let mut total = 0;
    let mut reach = |constants: &mut dyn Iterator<Item = usize>| {
        let (mut low, mut high) = (usize::MAX, 0);
        for c in constants {
            low = low.min(position[c]);
            high = high.max(position[c]);
        }
        total += high.saturating_sub(low);
    };
    for stmt in &program.statements {
        let _ = stmt.each_expr::<()>(&mut |e: &Expr| {
            reach(&mut mentioned(e).into_iter());
            Ok(())
        });
        events(stmt, &mut |event| {
            // An event relates its occurrences with what its cases read and change.
            let mut all: Vec<usize> = event.occurrences.iter().map(|o| o.0).collect();
            for case in &event.cases {
                all.extend(case.pre.iter().flat_map(mentioned));
                for (target, value) in &case.changes {
                    all.push(target.0);
                    all.extend(mentioned(value));
                }
            }
            reach(&mut all.into_iter());
        });
    }
    total
}

/// The constants an expression mentions.
fn mentioned(e: &Expr) -> Vec<usize> {
    let mut found = Vec::new();
    let _ = e.walk::<()>(&mut |x| {
        if let ExprKind::Const(c) = x.kind {
            found.push(c.0);
        }
        Ok(())
    });
    found
}

/// Calls `f` on every event statement of `stmt` (blocks included).
pub(super) fn events(stmt: &Stmt, f: &mut dyn FnMut(&EventStmt)) {
    match &stmt.kind {
        StmtKind::Event(event) => f(event),
        StmtKind::Simultaneously(body)
        | StmtKind::Repeat { body, .. }
        | StmtKind::AssertAddsCk { body, .. } => body.iter().for_each(|s| events(s, f)),
        _ => {}
    }
}

/// The order as `--stats` prints it when the events' histories are forgotten
/// (`space.rs`, one observation per occurrence and character, one-hot cases): the
/// observations first, oldest first, then the story's constants as [`describe`] gives
/// them, each case's bit right before the last constant it changes or its precondition
/// reads.
pub fn describe_forgetting(program: &Program) -> String {
    let mut slots = std::collections::BTreeSet::new();
    for stmt in &program.statements {
        events(stmt, &mut |event| {
            for occ in &event.occurrences {
                for (who, groups) in event.sees.iter().enumerate() {
                    let Some(groups) = groups else { continue };
                    if groups.iter().copied().max().unwrap_or(0) > 0 {
                        slots.insert((occ.0, who));
                    }
                }
            }
        });
    }
    let story: Vec<usize> = (order(program).into_iter())
        .filter(|c| program.constants[*c].occurrence.is_none())
        .collect();
    format!(
        "histories forgotten: {} observations first (one per occurrence and character who \
         tells its cases apart, oldest first), then {}; each event's cases one bit each \
         (shared by its occurrences), right before the last constant the case changes or \
         its precondition reads",
        slots.len(),
        describe(program, &story)
    )
}

/// The order as `--stats` prints it: the constants outside families, then the families
/// interleaved, e.g. `x, y, then by index: paid[i] coin[i] (i in 0..200)`.
pub fn describe(program: &Program, order: &[usize]) -> String {
    let occurrences = order
        .iter()
        .any(|c| program.constants[*c].occurrence.is_some());
    if occurrences {
        let story: Vec<usize> = order
            .iter()
            .copied()
            .filter(|c| program.constants[*c].occurrence.is_none())
            .collect();
        return format!(
            "{}; each event's occurrences after the last constant its cases use, in the \
             order they happen (where the story's order puts them if they use none)",
            describe(program, &story)
        );
    }
    let name = |c: &usize| program.constants[*c].name.as_str();
    let declared = order.windows(2).all(|w| w[0] < w[1]);
    if declared && order.iter().any(|c| member(name(c)).is_some()) {
        // Runs of a family's members with consecutive indices: `owner[0..5]`.
        /// A constant's name, and for a family member the run it starts: family, first
        /// index, last index + 1.
        type Part<'a> = (String, Option<(&'a str, usize, usize)>);
        let mut parts: Vec<Part> = Vec::new();
        for c in order {
            let n = name(c);
            if let Some((family, index)) = member(n)
                && let Some((_, Some((f, _, end)))) = parts.last_mut()
                && *f == family
                && *end == index
            {
                *end += 1;
                continue;
            }
            let run = member(n).map(|(family, index)| (family, index, index + 1));
            parts.push((n.to_string(), run));
        }
        let parts: Vec<String> = parts
            .into_iter()
            .map(|(n, run)| match run {
                Some((family, start, end)) if end > start + 1 => {
                    format!("{family}[{start}..{end}]")
                }
                _ => n,
            })
            .collect();
        return format!("as declared: {}", parts.join(", "));
    }
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
        epipen_lower::compile(source, &[]).expect("the story compiles")
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
    fn families_whose_members_are_related_with_each_other_keep_the_declarations() {
        // The zebra puzzle's shape: permutations, and members related index by index.
        let story = "enum C { a, b, c }\nC x[3], y[3]\nbool z\n\
                     announce distinct(h in 0..3: x[h])\n\
                     announce distinct(h in 0..3: y[h])\n\
                     announce any(h in 0..3: x[h] == a and y[h] == b)\n";
        let program = compile(story);
        assert_eq!(order(&program), (0..7).collect::<Vec<_>>());
        assert_eq!(
            describe(&program, &order(&program)),
            "as declared: x[0..3], y[0..3], z"
        );
        // The dining cryptographers' shape: a ring of neighbours, interleaved.
        let story = "const n = 4\nbool paid[n], coin[n]\n\
                     announce all(i in 0..n, j in i + 1..n: not (paid[i] and paid[j]))\n\
                     for i in 0..n {\n  announce paid[i] != (coin[i] != coin[(i + 1) % n])\n}\n";
        let program = compile(story);
        assert_eq!(
            describe(&program, &order(&program)),
            "by index: paid[i] coin[i] (i in 0..4)"
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
