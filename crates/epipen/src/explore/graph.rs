//! `epipen graph`: the epistemic model of a finite story as a Graphviz graph. Worlds are
//! nodes labelled with their values; an undirected edge joins two worlds that some
//! characters cannot tell apart, labelled with those characters; a dashed arrow goes
//! from a world to each world a character finds most plausible among those it cannot
//! tell from it (belief), for the characters whose plausibility is not flat.

use std::collections::{BTreeMap, HashMap};

use crate::ir::{CharId, Program};
use crate::worlds::{Model, Value, show_value};

/// The most worlds a graph shows.
pub const GRAPH_CAP: usize = 500;

/// Two worlds (indices into the model's worlds, `a < b`) and who cannot tell them apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub a: usize,
    pub b: usize,
    pub who: Vec<CharId>,
}

/// Every pair of distinct worlds some character cannot tell apart, sorted by (a, b);
/// each edge lists the characters in declaration order.
pub fn edges(model: &Model) -> Vec<Edge> {
    let mut pairs: BTreeMap<(usize, usize), Vec<CharId>> = BTreeMap::new();
    for (c, view) in model.views.iter().enumerate() {
        let mut groups: HashMap<&[Value], Vec<usize>> = HashMap::new();
        for (w, seen) in view.iter().enumerate() {
            groups.entry(seen.as_slice()).or_default().push(w);
        }
        for group in groups.values() {
            for (i, &a) in group.iter().enumerate() {
                for &b in &group[i + 1..] {
                    pairs.entry((a, b)).or_default().push(CharId(c));
                }
            }
        }
    }
    pairs
        .into_iter()
        .map(|((a, b), who)| Edge { a, b, who })
        .collect()
}

/// A world (index into the model's worlds), another world a character finds most
/// plausible among those it cannot tell from the first, and which characters do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrow {
    pub from: usize,
    pub to: usize,
    pub who: Vec<CharId>,
}

/// Belief: for each character whose plausibility is not flat (a world ranked apart from
/// another of its class), an arrow from every world to every other world of its class of
/// least rank; sorted by (from, to), the characters in declaration order.
pub fn arrows(model: &Model) -> Vec<Arrow> {
    let mut pairs: BTreeMap<(usize, usize), Vec<CharId>> = BTreeMap::new();
    for (c, classes, ranks) in ranked_classes(model) {
        for group in classes {
            let least = group
                .iter()
                .map(|&w| &ranks[w])
                .min()
                .expect("a group has a world");
            for &from in &group {
                for &to in &group {
                    if from != to && ranks[to] == *least {
                        pairs.entry((from, to)).or_default().push(c);
                    }
                }
            }
        }
    }
    pairs
        .into_iter()
        .map(|((from, to), who)| Arrow { from, to, who })
        .collect()
}

/// A character, its classes (the worlds it cannot tell apart) and its ranks.
type RankedClasses<'m> = (CharId, Vec<Vec<usize>>, &'m [Vec<i64>]);

/// For each character whose plausibility is not flat (a world ranked apart from another
/// of its class), in declaration order: its classes (the worlds it cannot tell apart)
/// and its ranks.
fn ranked_classes(model: &Model) -> Vec<RankedClasses<'_>> {
    let mut out = Vec::new();
    for (c, view) in model.views.iter().enumerate() {
        let Some(ranks) = model.ranks.get(c) else {
            continue;
        };
        let mut groups: HashMap<&[Value], Vec<usize>> = HashMap::new();
        for (w, seen) in view.iter().enumerate() {
            groups.entry(seen.as_slice()).or_default().push(w);
        }
        let flat = groups
            .values()
            .all(|g| g.iter().all(|&w| ranks[w] == ranks[g[0]]));
        if !flat {
            out.push((CharId(c), groups.into_values().collect(), ranks.as_slice()));
        }
    }
    out
}

/// The worlds character `c` cannot tell from world `w` (`w` among them, in the model's
/// order) and, of those, the ones it finds most plausible: what it believes at `w`.
pub fn belief_at(model: &Model, c: CharId, w: usize) -> (Vec<usize>, Vec<usize>) {
    let view = &model.views[c.0];
    let class: Vec<usize> = (0..view.len()).filter(|&v| view[v] == view[w]).collect();
    let ranks = &model.ranks[c.0];
    let least = class.iter().map(|&v| &ranks[v]).min();
    let believed = class
        .iter()
        .copied()
        .filter(|&v| Some(&ranks[v]) == least)
        .collect();
    (class, believed)
}

/// For each character whose plausibility is not flat (as for [`arrows`]), the worlds it
/// finds most plausible among those it cannot tell from them (the least rank of each
/// class), in the model's order; characters in declaration order.
pub fn most_plausible(model: &Model) -> Vec<(CharId, Vec<usize>)> {
    let mut out = Vec::new();
    for (c, classes, ranks) in ranked_classes(model) {
        let mut worlds: Vec<usize> = Vec::new();
        for group in classes {
            let least = group.iter().map(|&w| &ranks[w]).min();
            worlds.extend(group.iter().filter(|&&w| Some(&ranks[w]) == least));
        }
        worlds.sort_unstable();
        out.push((c, worlds));
    }
    out
}

/// The model in Graphviz's DOT language, titled `title`; `actual`, the index of the
/// actual world among its worlds (drawn with a double border), if the story has one.
pub fn dot(program: &Program, model: &Model, actual: Option<usize>, title: &str) -> String {
    let mut out = format!(
        "graph epistemic_model {{\n  label=\"{}\";\n  labelloc=t;\n  node [shape=box];\n",
        escape(title)
    );
    for (k, w) in model.worlds.iter().enumerate() {
        let lines: Vec<String> = (program.constants.iter().zip(&w.0).enumerate())
            .filter(|(k, (_, v))| program.shows(crate::ir::ConstId(*k), **v))
            .map(|(_, (c, v))| escape(&format!("{} = {}", c.name, show_value(program, c.ty, *v))))
            .chain(
                (model.chances.as_ref())
                    .and_then(|c| c.get(k))
                    .map(|p| format!("[{p}]")),
            )
            .collect();
        // The actual world: a double border (and its tooltip says so).
        let marked = match actual == Some(k) {
            true => ", peripheries=2, tooltip=\"the actual world\"",
            false => "",
        };
        out.push_str(&format!(
            "  w{k} [label=\"{}\"{marked}];\n",
            lines.join("\\n")
        ));
    }
    for e in edges(model) {
        let who: Vec<&str> = e
            .who
            .iter()
            .map(|c| program.characters[c.0].name.as_str())
            .collect();
        out.push_str(&format!(
            "  w{} -- w{} [label=\"{}\"];\n",
            e.a,
            e.b,
            escape(&who.join(", "))
        ));
    }
    // Belief: a dashed arrow to each world a character finds most plausible.
    for a in arrows(model) {
        let who: Vec<&str> = a
            .who
            .iter()
            .map(|c| program.characters[c.0].name.as_str())
            .collect();
        out.push_str(&format!(
            "  w{} -- w{} [dir=forward, style=dashed, label=\"{} believes\"];\n",
            a.from,
            a.to,
            escape(&who.join(", "))
        ));
    }
    out.push_str("}\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worlds::World;

    fn w(values: &[i64]) -> World {
        World(values.iter().map(|&n| Value::Int(n)).collect())
    }

    /// Three worlds; A sees the first value, B sees nothing; A's plausibility is flat, B
    /// finds the second world most plausible.
    fn three_worlds() -> Model {
        Model {
            before: None,
            chances: None,
            worlds: vec![w(&[1, 1]), w(&[1, 2]), w(&[2, 2])],
            views: vec![
                vec![
                    vec![Value::Int(1)],
                    vec![Value::Int(1)],
                    vec![Value::Int(2)],
                ],
                vec![vec![], vec![], vec![]],
            ],
            ranks: vec![vec![vec![]; 3], vec![vec![1], vec![0], vec![1]]],
        }
    }

    #[test]
    fn edges_join_worlds_with_equal_views() {
        let model = three_worlds();
        assert_eq!(
            edges(&model),
            vec![
                Edge {
                    a: 0,
                    b: 1,
                    who: vec![CharId(0), CharId(1)]
                },
                Edge {
                    a: 0,
                    b: 2,
                    who: vec![CharId(1)]
                },
                Edge {
                    a: 1,
                    b: 2,
                    who: vec![CharId(1)]
                },
            ]
        );
    }

    #[test]
    fn arrows_point_at_the_most_plausible_worlds_of_the_class() {
        // B cannot tell the three worlds apart and finds the second most plausible; A's
        // plausibility is flat.
        let model = three_worlds();
        let to_second = |from| Arrow {
            from,
            to: 1,
            who: vec![CharId(1)],
        };
        assert_eq!(arrows(&model), vec![to_second(0), to_second(2)]);
    }

    #[test]
    fn the_most_plausible_worlds_of_each_character_whose_plausibility_is_not_flat() {
        // A's plausibility is flat: none listed; B finds the second world most plausible.
        assert_eq!(most_plausible(&three_worlds()), vec![(CharId(1), vec![1])]);
        // A finds the first of its first class and the third world (alone in its class)
        // most plausible.
        let mut model = three_worlds();
        model.ranks[0] = vec![vec![0], vec![1], vec![5]];
        assert_eq!(
            most_plausible(&model),
            vec![(CharId(0), vec![0, 2]), (CharId(1), vec![1])]
        );
    }

    #[test]
    fn dot_draws_the_actual_world_with_a_double_border() {
        let program = crate::compile("characters A, B\nint x, y\n", &[]).expect("compiles");
        let model = three_worlds();
        assert!(!dot(&program, &model, None, "t").contains("peripheries"));
        let text = dot(&program, &model, Some(1), "t");
        assert_eq!(text.matches("peripheries=2").count(), 1, "{text}");
        assert!(
            text.contains(
                "  w1 [label=\"x = 1\\ny = 2\", peripheries=2, tooltip=\"the actual world\"];\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn dot_labels_worlds_with_their_probabilities() {
        let program = crate::compile("characters A, B\nint x, y\n", &[]).expect("compiles");
        let mut model = three_worlds();
        assert!(!dot(&program, &model, None, "t").contains("\\n["));
        let q = |n: i64, d: i64| crate::engine::BigRational::new(n.into(), d.into());
        model.chances = Some(vec![q(1, 2), q(1, 4), q(1, 4)]);
        let text = dot(&program, &model, None, "t");
        assert!(
            text.contains("w0 [label=\"x = 1\\ny = 1\\n[1/2]\"];"),
            "{text}"
        );
        assert!(
            text.contains("w2 [label=\"x = 2\\ny = 2\\n[1/4]\"];"),
            "{text}"
        );
    }

    #[test]
    fn dot_escapes_quotes() {
        assert_eq!(escape(r#"a "b" \ c"#), r#"a \"b\" \\ c"#);
    }
}
