//! How worlds are written: listings, `where` listings, JSON.

use crate::ir::{ConstId, Program, Ty};
pub use epipen_engine::worlds::*;

/// `x = 4 (was 3), y = 2`: a world whose constants may have changed since `before`.
pub fn world_line_since(program: &Program, values: &[Value], before: Option<&World>) -> String {
    let Some(before) = before else {
        return world_line(program, values);
    };
    if values.is_empty() {
        return "(no constants)".into();
    }
    (program
        .constants
        .iter()
        .zip(values)
        .zip(&before.0)
        .enumerate())
    .filter(|(k, ((_, v), _))| program.shows(ConstId(*k), **v))
    .map(|(_, ((c, v), b))| {
        let now = format!("{} = {}", c.name, show_value(program, c.ty, *v));
        if v == b {
            now
        } else {
            format!("{now} (was {})", show_value(program, c.ty, *b))
        }
    })
    .collect::<Vec<_>>()
    .join(", ")
}

/// The human form: a header, one world per line, and whether that is all.
pub fn worlds_text(program: &Program, set: &WorldSet, more_hint: &str) -> String {
    let n = set.worlds.len();
    let mut out = if set.complete {
        match n {
            0 => "no possible worlds: the announcements contradict each other\n".to_string(),
            1 => "1 possible world:\n".to_string(),
            _ => format!("{n} possible worlds:\n"),
        }
    } else if n == 1 {
        "more than one possible world; the first:\n".to_string()
    } else {
        format!("more than {n} possible worlds; the first {n}:\n")
    };
    for (i, w) in set.worlds.iter().enumerate() {
        let before = set.before.as_ref().and_then(|b| b.get(i));
        out.push_str(&format!("  {}\n", world_line_since(program, &w.0, before)));
    }
    if set.complete {
        out.push_str("(and that's all)\n");
    } else {
        out.push_str(&format!("(more worlds exist; {more_hint})\n"));
    }
    out
}

/// The worlds of a `where φ` statement (those possible there where φ holds), as
/// [`worlds_text`] prints them, with a first line that says so.
pub fn where_text(program: &Program, set: &WorldSet, more_hint: &str) -> String {
    let text = worlds_text(program, set, more_hint);
    let rest = text.split_once('\n').map_or("", |(_, rest)| rest);
    let n = set.worlds.len();
    let first = match (set.complete, n) {
        (true, 0) => "no possible world where it holds".to_string(),
        (true, 1) => "1 possible world where it holds:".to_string(),
        (true, _) => format!("{n} possible worlds where it holds:"),
        (false, _) => format!("more than {n} possible worlds where it holds; the first {n}:"),
    };
    format!("{first}\n{rest}")
}

/// One world as a JSON object, keys in declaration order: `{"month": 7, "day": 16}`
/// (enum values by name).
pub fn world_json(program: &Program, world: &World) -> serde_json::Map<String, serde_json::Value> {
    shown(program, &world.0)
        .map(|(c, v)| {
            let value = match (c.ty, v) {
                (Ty::Enum(_), _) => serde_json::Value::from(show_value(program, c.ty, *v)),
                (_, Value::Int(n)) => serde_json::Value::from(*n),
                (_, Value::Bool(b)) => serde_json::Value::from(*b),
            };
            (c.name.clone(), value)
        })
        .collect()
}

/// `{"worlds": [{"month": 7, "day": 16}], "complete": true}`, keys in declaration order;
/// with `"unverified_hints": [lines]` added when hints were taken on trust.
pub fn worlds_json(program: &Program, set: &WorldSet, unverified_hints: &[usize]) -> String {
    let object = |w: &World| {
        let fields: Vec<String> = world_json(program, w)
            .iter()
            .map(|(name, value)| format!("{}: {value}", serde_json::Value::from(name.as_str())))
            .collect();
        format!("{{{}}}", fields.join(", "))
    };
    let worlds: Vec<String> = set.worlds.iter().map(object).collect();
    let before = match &set.before {
        Some(before) => {
            let before: Vec<String> = before.iter().map(object).collect();
            format!(", \"before\": [{}]", before.join(", "))
        }
        None => String::new(),
    };
    let trusted = if unverified_hints.is_empty() {
        String::new()
    } else {
        let lines: Vec<String> = unverified_hints.iter().map(|l| l.to_string()).collect();
        format!(", \"unverified_hints\": [{}]", lines.join(", "))
    };
    format!(
        "{{\"worlds\": [{}], \"complete\": {}{before}{trusted}}}",
        worlds.join(", "),
        set.complete
    )
}
