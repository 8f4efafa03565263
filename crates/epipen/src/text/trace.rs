//! `epipen run --trace` in text: each step with its count and worlds, what characters
//! believe, and which statement eliminated each world.

use super::worlds::world;
use crate::views::{Belief, Fates, Step, World};

/// `--trace` says which statement eliminated each world when there are at most this
/// many.
pub const FATES_SHOWN: usize = 100;

/// `line 8: announce …  =>  3 worlds (2 eliminated)`, then the worlds (when they
/// changed and are listed) and what the characters asked about believe.
pub fn step(step: &Step) -> String {
    let mut out = format!("{}  =>  {}", step.label, step.count.0);
    match step.removed {
        Some(n) if n > 0 => out.push_str(&format!(" ({n} eliminated)")),
        _ if step.changed == Some(false) => out.push_str(" (unchanged)"),
        _ => {}
    }
    out.push('\n');
    if !step.sees.is_empty() {
        out.push_str(&format!("    {}\n", step.sees.join("; ")));
    }
    if step.changed == Some(true)
        && let Some(worlds) = &step.worlds
    {
        for (i, w) in worlds.iter().enumerate() {
            let chance = (step.probabilities.as_ref())
                .and_then(|p| p.get(i))
                .map_or(String::new(), |p| format!("   [{p}]"));
            out.push_str(&format!("    {}{chance}\n", world(w)));
        }
    }
    for b in &step.beliefs {
        out.push_str(&format!("    {}\n", belief(b)));
    }
    out
}

/// `in the actual world, Sally believes: marble = basket  (the most plausible of the 2
/// worlds Sally cannot tell apart)`.
pub fn belief(belief: &Belief) -> String {
    let who = &belief.who;
    let list = |ws: &[World]| ws.iter().map(world).collect::<Vec<_>>().join("; ");
    let believed = list(&belief.believed);
    match (belief.actual, belief.worlds.len()) {
        (true, 1) => format!("in the actual world, {who} knows: {believed}"),
        (true, n) => format!(
            "in the actual world, {who} believes: {believed}  (the most plausible of the {n} worlds {who} cannot tell apart)"
        ),
        (false, 1) => format!("where {believed}, {who} knows it"),
        (false, _) if belief.believed == belief.worlds => {
            format!("{who} cannot tell apart {believed}, and finds them equally plausible")
        }
        (false, _) => format!(
            "where {who} cannot tell apart {}, {who} believes: {believed}",
            list(&belief.worlds)
        ),
    }
}

/// Which statement eliminated each world followed, aligned in two columns; past
/// [`FATES_SHOWN`] worlds, a line that says how many.
pub fn fates(fates: &Fates) -> String {
    fates_listing(fates, None)
}

/// As [`fates`], saying past [`FATES_SHOWN`] worlds where the front end lists them all
/// (`listed`: `--json lists them` on the command line).
pub fn fates_listed(fates: &Fates, listed: &str) -> String {
    fates_listing(fates, Some(listed))
}

fn fates_listing(fates: &Fates, listed: Option<&str>) -> String {
    let since = match fates.since {
        None => "at the start".to_string(),
        Some(line) => format!("after line {line}"),
    };
    let n = fates.fates.len();
    if n > FATES_SHOWN {
        return format!(
            "({n} worlds {since}: too many to say which statement eliminated each{})\n",
            listed.map_or(String::new(), |l| format!("; {l}"))
        );
    }
    let mut out = format!(
        "-- which statement eliminated each of the {n} world{} possible {since} --\n",
        if n == 1 { "" } else { "s" }
    );
    let lines: Vec<String> = fates.fates.iter().map(|f| world(&f.world)).collect();
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    for (line, fate) in lines.iter().zip(&fates.fates) {
        let fate = fate.label.as_deref().unwrap_or("still possible");
        out.push_str(&format!("  {line:<width$}  {fate}\n"));
    }
    out
}
