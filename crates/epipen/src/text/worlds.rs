//! Worlds in text: `month = 7, day = 16`, and listings with their first and last lines.

use crate::ir::Program;
use crate::views::{Found, Statement, World, Worlds};
use crate::worlds::WorldSet;

/// `month = 7, day = 16` (`(no constants)` for a world that shows none).
pub fn world(world: &World) -> String {
    if world.0.is_empty() {
        return "(no constants)".into();
    }
    (world.0.iter())
        .map(|(name, value)| format!("{name} = {value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The world where a check fails, with the value there of each term it compares with
/// probabilities: `x = 1, where probability(A, x > 1) is 1/4 and 2 * probability(x > 2)
/// is 1/2` (just the world when there are none).
pub fn failing_world(w: &World, found: &[Found]) -> String {
    let values: Vec<String> = (found.iter())
        .map(|f| format!("{} is {}", f.term, f.value))
        .collect();
    match values.is_empty() {
        true => world(w),
        false => format!("{}, where {}", world(w), values.join(" and ")),
    }
}

/// `x = 4 (was 3), y = 2`: a world whose constants may have changed since `before`.
pub fn world_since(now: &World, before: Option<&World>) -> String {
    let Some(before) = before else {
        return world(now);
    };
    if now.0.is_empty() {
        return "(no constants)".into();
    }
    (now.0.iter().zip(&before.0))
        .map(|((name, value), (_, was))| match value == was {
            true => format!("{name} = {value}"),
            false => format!("{name} = {value} (was {was})"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A listing: a header, one world per line, and whether that is all (`more_hint`: how
/// to see more when they are not all listed). With no world possible, the header names
/// the statement that left none.
pub fn worlds(worlds: &Worlds, more_hint: &str) -> String {
    let n = worlds.worlds.len();
    let head = match (worlds.complete, n) {
        (true, 0) => no_worlds(worlds.left_none.as_ref()),
        (true, 1) => "1 possible world:".to_string(),
        (true, _) => format!("{n} possible worlds:"),
        (false, 1) => "more than one possible world; the first:".to_string(),
        (false, _) => format!("more than {n} possible worlds; the first {n}:"),
    };
    listing(head, worlds, more_hint)
}

/// The worlds of a `where φ` statement (those possible there where φ holds), with a
/// header that says so.
pub fn where_worlds(worlds: &Worlds, more_hint: &str) -> String {
    let n = worlds.worlds.len();
    let head = match (worlds.complete, n) {
        (true, 0) => "no possible world where it holds".to_string(),
        (true, 1) => "1 possible world where it holds:".to_string(),
        (true, _) => format!("{n} possible worlds where it holds:"),
        (false, _) => format!("more than {n} possible worlds where it holds; the first {n}:"),
    };
    listing(head, worlds, more_hint)
}

fn listing(head: String, worlds: &Worlds, more_hint: &str) -> String {
    let mut out = format!("{head}\n");
    for (i, w) in worlds.worlds.iter().enumerate() {
        let before = worlds.before.as_ref().and_then(|b| b.get(i));
        let chance = (worlds.probabilities.as_ref())
            .and_then(|p| p.get(i))
            .map_or(String::new(), |p| format!("   [{p}]"));
        out.push_str(&format!("  {}{chance}\n", world_since(w, before)));
    }
    if worlds.complete {
        out.push_str("(and that's all)\n");
    } else {
        out.push_str(&format!("(more worlds exist; {more_hint})\n"));
    }
    out
}

/// The header of an empty listing: ``no possible worlds: line 4, `announce x > 9`, left
/// none: the announcements contradict each other``.
pub fn no_worlds(left_none: Option<&Statement>) -> String {
    let Some(s) = left_none else {
        return "no possible worlds".into();
    };
    let why = s
        .why
        .as_ref()
        .map_or(String::new(), |why| format!(": {why}"));
    format!(
        "no possible worlds: line {}, `{}`, left none{why}",
        s.line, s.statement
    )
}

/// Why a check or hint holds only vacuously: ``no world is possible (line 4, `Bob:
/// knows_value(x)`, left none)``.
pub fn vacuous_reason(left_none: Option<&Statement>) -> String {
    match left_none {
        Some(s) => format!(
            "no world is possible (line {}, `{}`, left none)",
            s.line, s.statement
        ),
        None => "no world is possible".into(),
    }
}

/// The worlds of `set` as `epipen worlds` lists them (`more_hint`: how to see more when
/// they are not all listed).
pub fn world_set(program: &Program, set: &WorldSet, more_hint: &str) -> String {
    worlds(&Worlds::of(program, set, None), more_hint)
}
