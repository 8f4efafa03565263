//! `epipen graph`: the epistemic model of a finite story as a Graphviz graph. Worlds are
//! nodes labelled with their values; an undirected edge joins two worlds that some
//! characters cannot tell apart, labelled with those characters.

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

/// The model in Graphviz's DOT language, titled `title`.
pub fn dot(program: &Program, model: &Model, title: &str) -> String {
    let mut out = format!(
        "graph epistemic_model {{\n  label=\"{}\";\n  labelloc=t;\n  node [shape=box];\n",
        escape(title)
    );
    for (k, w) in model.worlds.iter().enumerate() {
        let lines: Vec<String> = (program.constants.iter().zip(&w.0).enumerate())
            .filter(|(k, (_, v))| program.shows(crate::ir::ConstId(*k), **v))
            .map(|(_, (c, v))| escape(&format!("{} = {}", c.name, show_value(program, c.ty, *v))))
            .collect();
        out.push_str(&format!("  w{k} [label=\"{}\"];\n", lines.join("\\n")));
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

    #[test]
    fn edges_join_worlds_with_equal_views() {
        // Three worlds; A sees the first value, B sees nothing.
        let model = Model {
            before: None,
            worlds: vec![w(&[1, 1]), w(&[1, 2]), w(&[2, 2])],
            views: vec![
                vec![
                    vec![Value::Int(1)],
                    vec![Value::Int(1)],
                    vec![Value::Int(2)],
                ],
                vec![vec![], vec![], vec![]],
            ],
        };
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
    fn dot_escapes_quotes() {
        assert_eq!(escape(r#"a "b" \ c"#), r#"a \"b\" \\ c"#);
    }
}
