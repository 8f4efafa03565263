//! What `epipen run` prints for each report, and `epipen check`'s verdict lines.

use super::worlds::{vacuous_reason, where_worlds, world, worlds};
use crate::views::{Report, Verdict};

/// What `epipen run` prints for `report` (nothing for a hint verified or refuted).
pub fn report(report: &Report) -> String {
    let rounded = |round: &Option<u64>, text: String| match round {
        Some(r) => format!("round {r}: {text}\n"),
        None => format!("{text}\n"),
    };
    match report {
        Report::Worlds { line, worlds: w } => format!(
            "-- line {line}: worlds --\n{}",
            worlds(w, "raise the number after `worlds` to see more")
        ),
        Report::Where {
            line,
            formula,
            worlds: w,
        } => format!(
            "-- line {line}: where {formula} --\n{}",
            where_worlds(w, "narrow the formula to see the others")
        ),
        Report::Reveal {
            round, who, said, ..
        } => rounded(round, format!("{who}: {said}")),
        Report::Event {
            round,
            event,
            case,
            saw,
            ..
        } => {
            let seen: Vec<String> = (saw.0.iter())
                .map(|(who, cases)| {
                    let saw = match cases.as_slice() {
                        [one] => one.clone(),
                        [init @ .., last] => format!("{} or {last}", init.join(", ")),
                        [] => String::new(),
                    };
                    format!("{who} saw {saw}")
                })
                .collect();
            rounded(round, format!("{event}: {case} ({})", seen.join("; ")))
        }
        Report::Show {
            line,
            expression,
            value,
            values,
            ..
        } => match (value, values) {
            (Some(v), _) => format!("line {line}: show {expression} = {v}\n"),
            (None, Some(values)) => {
                let parts: Vec<String> = (values.iter())
                    .map(|c| {
                        let s = if c.worlds == 1 { "" } else { "s" };
                        format!("{} in {} world{s}", c.value, c.worlds)
                    })
                    .collect();
                match parts.is_empty() {
                    true => format!("line {line}: show {expression}: no world is possible\n"),
                    false => format!("line {line}: show {expression}: {}\n", parts.join(", ")),
                }
            }
            (None, None) => format!("line {line}: show {expression}\n"),
        },
        Report::Repeat { line, rounds } => format!(
            "-- line {line}: repeat done after {rounds} round{} --\n",
            if *rounds == 1 { "" } else { "s" }
        ),
        Report::Hint(v) if v.trusted => format!(
            "(the hint on line {} was taken on trust, not verified)\n",
            v.line
        ),
        Report::Check(v) | Report::Hint(v) if v.vacuous => format!(
            "{} line {}: vacuous: {}\n",
            if matches!(report, Report::Hint(_)) {
                "hint"
            } else {
                "check"
            },
            v.line,
            vacuous_reason(v.left_none.as_ref())
        ),
        Report::Hint(_) => String::new(),
        Report::Check(v) => match &v.world {
            Some(w) => format!("check line {}: fails in the world {}\n", v.line, world(w)),
            None => format!("check line {}: holds\n", v.line),
        },
    }
}

/// `epipen check`'s line for a verdict: ``line 7: hint `φ` verified (0.12 s)``,
/// ``line 9: check `φ` fails in the world x = 1``, … (no line end).
pub fn verdict(v: &Verdict) -> String {
    let seconds = v.seconds.map_or(String::new(), |s| format!(" ({s:.2} s)"));
    let what = if v.vacuous {
        format!("vacuous: {}", vacuous_reason(v.left_none.as_ref()))
    } else if v.trusted {
        "taken on trust".to_string()
    } else if let Some(w) = &v.world {
        format!("fails in the world {}", world(w))
    } else if let Some(c) = &v.counterexample {
        format!("refuted{seconds}: counterexample {c}")
    } else if v.kind == crate::views::VerdictKind::Hint {
        format!("verified{seconds}")
    } else {
        "holds".to_string()
    };
    format!("line {}: {} {what}", v.line, v.label())
}
