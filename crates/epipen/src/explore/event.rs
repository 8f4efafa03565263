//! `epipen graph --event NAME`: an event model drawn as a model is. Its worlds are the
//! event's cases; an edge joins two cases a character cannot tell apart (the same group
//! of its `sees` line, or any two when it has none); a dashed arrow points at the cases
//! a character expects (its `expects` line), as belief arrows do. The event is shown as
//! one constant, `case`, whose values are the cases' names: the DOT text, the SVG
//! picture and the playground's drawing of a model serve it unchanged.

use crate::ir::{Constant, EventStmt, Program, Stmt, StmtKind, Ty};
use crate::worlds::{Model, Value, World};

/// The first `event` statement (or action) named `name`, in the order of the story
/// (inside `repeat`, `simultaneously` and hints' blocks too).
pub fn find<'p>(program: &'p Program, name: &str) -> Option<&'p EventStmt> {
    fn walk<'p>(program: &'p Program, stmts: &'p [Stmt], name: &str) -> Option<&'p EventStmt> {
        stmts.iter().find_map(|s| match &s.kind {
            StmtKind::Event(e) if program.events[e.event.0].name == name => Some(&**e),
            StmtKind::Repeat { body, .. } | StmtKind::AssertAddsCk { body, .. } => {
                walk(program, body, name)
            }
            StmtKind::Simultaneously(stmts) => walk(program, stmts, name),
            _ => None,
        })
    }
    walk(program, &program.statements, name).or_else(|| {
        (program.actions.iter())
            .find(|a| a.name == name)
            .map(|a| &a.body)
    })
}

/// The names of the story's events and actions, in the order they are declared, each
/// once.
pub fn names(program: &Program) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        if !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    };
    fn walk(program: &Program, stmts: &[Stmt], add: &mut dyn FnMut(&str)) {
        for s in stmts {
            match &s.kind {
                StmtKind::Event(e) => add(&program.events[e.event.0].name),
                StmtKind::Repeat { body, .. } | StmtKind::AssertAddsCk { body, .. } => {
                    walk(program, body, add)
                }
                StmtKind::Simultaneously(stmts) => walk(program, stmts, add),
                _ => {}
            }
        }
    }
    walk(program, &program.statements, &mut add);
    for a in &program.actions {
        add(&a.name);
    }
    out
}

/// The event model of `event`: a program whose one constant, `case`, takes the event's
/// cases as values (its characters the story's), and the model of the cases.
pub fn model(program: &Program, event: &EventStmt) -> (Program, Model) {
    let def = &program.events[event.event.0];
    let mut drawn = program.clone();
    drawn.constants = vec![Constant {
        name: "case".into(),
        ty: Ty::Enum(def.sort),
        span: def.span,
        occurrence: None,
    }];
    let n = event.cases.len();
    let worlds = (0..n).map(|k| World(vec![Value::Int(k as i64)])).collect();
    let views = (0..program.characters.len())
        .map(|c| match event.sees.get(c).and_then(Option::as_ref) {
            Some(groups) => (0..n)
                .map(|k| vec![Value::Int(groups.get(k).map_or(k, |&g| g) as i64)])
                .collect(),
            None => vec![Vec::new(); n],
        })
        .collect();
    let ranks = (0..program.characters.len())
        .map(|c| match event.expects.get(c).and_then(Option::as_ref) {
            Some(ranks) => (0..n)
                .map(|k| vec![ranks.get(k).map_or(0, |&r| r as i64)])
                .collect(),
            None => vec![Vec::new(); n],
        })
        .collect();
    let model = Model {
        worlds,
        before: None,
        views,
        ranks,
        chances: None,
    };
    (drawn, model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::graph::{arrows, edges};

    const STORY: &str = "characters Anne, Sally, Bob\nenum Place { basket, box }\nPlace marble\n\
        announce marble == basket\n\
        event move {\n  moved if marble == basket then marble := box\n  stayed\n  peeked\n\
        Anne sees moved | stayed | peeked\n  Bob sees moved, peeked | stayed\n\
        Sally expects stayed\n}\n";

    #[test]
    fn cases_are_worlds_and_sees_lines_are_edges() {
        let program = crate::compile(STORY, &[]).expect("compiles");
        assert_eq!(names(&program), ["move"]);
        assert!(find(&program, "nothing").is_none());
        let event = find(&program, "move").expect("found");
        let (drawn, model) = model(&program, event);
        assert_eq!(model.worlds.len(), 3);
        // Anne tells every case apart; Bob confuses moved and peeked; Sally, without a
        // `sees` line, confuses all.
        let pairs: Vec<(usize, usize, Vec<usize>)> = (edges(&model).into_iter())
            .map(|e| (e.a, e.b, e.who.iter().map(|c| c.0).collect()))
            .collect();
        assert_eq!(
            pairs,
            [(0, 1, vec![1]), (0, 2, vec![1, 2]), (1, 2, vec![1])]
        );
        // Sally expects stayed: her arrows point at it.
        assert!(arrows(&model).iter().all(|a| a.to == 1 && a.who[0].0 == 1));
        let dot = crate::explore::graph::dot(&drawn, &model, None, "move");
        assert!(dot.contains("w0 [label=\"case = moved\"];"), "{dot}");
        assert!(dot.contains("w0 -- w2 [label=\"Sally, Bob\"];"), "{dot}");
    }
}
