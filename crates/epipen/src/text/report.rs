//! What `epipen run` prints for each report, and `epipen check`'s verdict and plan
//! lines.

use super::worlds::{failing_world, vacuous_reason, where_worlds, worlds};
use crate::views::{Plan, Report, Tally, Verdict};

/// What `epipen run` prints for `report` (nothing for a hint verified).
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
        Report::Hint(v) => match &v.counterexample {
            Some(c) => format!("hint line {}: refuted: counterexample {c}\n", v.line),
            None => String::new(),
        },
        Report::Check(v) => match &v.world {
            Some(w) => format!(
                "check line {}: fails in the world {}\n",
                v.line,
                failing_world(w, &v.found)
            ),
            None => format!("check line {}: holds\n", v.line),
        },
        Report::Plan(p) => format!("{}\n", plan(p)),
    }
}

/// A plan's answer, as `epipen run` and `epipen check` print it: `line 7: plan of 2
/// actions: tell, try_take`, `line 7: plan of 0 actions: (none needed)`, `line 8: 2
/// plans of 2 actions: a, b; b, a` (`plan all`), `line 9: no plan of at most 3
/// actions` (no line end).
pub fn plan(p: &Plan) -> String {
    format!("line {}: {}", p.line, plan_found(p))
}

/// A plan's answer without its line: `plan of 2 actions: tell, try_take`, `no plan of
/// at most 3 actions` (what `Story::plan` found, as its `Display` writes it).
pub fn plan_found(p: &Plan) -> String {
    let actions = |n: usize| format!("{n} action{}", if n == 1 { "" } else { "s" });
    let listed = |plan: &[String]| match plan {
        [] => "(none needed)".to_string(),
        _ => plan.join(", "),
    };
    match (p.plans.as_slice(), p.length) {
        ([], _) | (_, None) => format!("no plan of at most {}", actions(p.max)),
        ([one], Some(k)) if !p.all || k == 0 => {
            format!("plan of {}: {}", actions(k), listed(one))
        }
        (plans, Some(k)) => format!(
            "{} plan{} of {}: {}",
            plans.len(),
            if plans.len() == 1 { "" } else { "s" },
            actions(k),
            (plans.iter().map(|plan| listed(plan)))
                .collect::<Vec<_>>()
                .join("; ")
        ),
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
        format!("fails in the world {}", failing_world(w, &v.found))
    } else if let Some(c) = &v.counterexample {
        format!("refuted{seconds}: counterexample {c}")
    } else if v.kind == crate::views::VerdictKind::Hint {
        format!("verified{seconds}")
    } else {
        "holds".to_string()
    };
    format!("line {}: {} {what}", v.line, v.label())
}

/// `epipen check`'s last line: how the checks, hints and plans came out, e.g. `2
/// checks hold, 1 fails; 1 hint verified; 1 plan found` (no line end).
pub fn tally(t: &Tally) -> String {
    let n = |count: usize, one: &str, many: &str| match count {
        1 => format!("1 {one}"),
        _ => format!("{count} {many}"),
    };
    let mut parts = Vec::new();
    if t.checks_hold + t.checks_fail > 0 {
        let mut part = match t.checks_hold {
            0 => String::from("no check holds"),
            h => n(h, "check holds", "checks hold"),
        };
        if t.checks_fail > 0 {
            let fail = n(t.checks_fail, "fails", "fail");
            part = match t.checks_hold {
                0 => n(t.checks_fail, "check fails", "checks fail"),
                _ => format!("{part}, {fail}"),
            };
        }
        parts.push(part);
    }
    let hints: Vec<String> = [
        (t.hints_verified, "verified"),
        (t.hints_refuted, "refuted"),
        (t.hints_trusted, "taken on trust"),
    ]
    .into_iter()
    .filter(|(count, _)| *count > 0)
    .enumerate()
    .map(|(i, (count, what))| match i {
        0 => format!("{} {what}", n(count, "hint", "hints")),
        _ => format!("{count} {what}"),
    })
    .collect();
    if !hints.is_empty() {
        parts.push(hints.join(", "));
    }
    if t.vacuous > 0 {
        parts.push(format!(
            "{} (no world is left)",
            n(t.vacuous, "vacuous verdict", "vacuous verdicts")
        ));
    }
    if t.plans_found + t.plans_not_found > 0 {
        let mut part = n(t.plans_found, "plan found", "plans found");
        if t.plans_not_found > 0 {
            part.push_str(&format!(", {} not found", t.plans_not_found));
        }
        parts.push(part);
    }
    match parts.is_empty() {
        true => "nothing to check: the story has no check, hint or plan".into(),
        false => parts.join("; "),
    }
}

#[cfg(test)]
mod tests {
    use super::{plan, report, tally};
    use crate::views::{Plan, Report, Tally};

    /// The answer of a `plan` (`all`: `plan all`) on line 9 with `max D`.
    fn found(max: usize, all: bool, plans: &[&[&str]]) -> Plan {
        let plans = (plans.iter())
            .map(|p| p.iter().map(|a| a.to_string()).collect())
            .collect();
        Plan::found(9, max, all, plans)
    }

    #[test]
    fn a_plan_lists_its_actions() {
        let p = found(3, false, &[&["tell", "try_take"]]);
        assert_eq!(plan(&p), "line 9: plan of 2 actions: tell, try_take");
        let p = found(3, false, &[&["tell"]]);
        assert_eq!(plan(&p), "line 9: plan of 1 action: tell");
        let p = found(3, false, &[&["call[0, 1]", "call[1, 0]", "call[0, 1]"]]);
        assert_eq!(
            plan(&p),
            "line 9: plan of 3 actions: call[0, 1], call[1, 0], call[0, 1]"
        );
    }

    #[test]
    fn a_goal_that_holds_already_needs_no_action() {
        let p = found(3, false, &[&[]]);
        assert_eq!(plan(&p), "line 9: plan of 0 actions: (none needed)");
        // `plan all` says it the same way: the empty plan is the only one.
        let p = found(3, true, &[&[]]);
        assert_eq!(plan(&p), "line 9: plan of 0 actions: (none needed)");
    }

    #[test]
    fn no_plan_says_how_long_a_plan_was_looked_for() {
        assert_eq!(
            plan(&found(2, false, &[])),
            "line 9: no plan of at most 2 actions"
        );
        assert_eq!(
            plan(&found(1, false, &[])),
            "line 9: no plan of at most 1 action"
        );
        assert_eq!(
            plan(&found(3, true, &[])),
            "line 9: no plan of at most 3 actions"
        );
    }

    #[test]
    fn plan_all_lists_every_plan() {
        let p = found(3, true, &[&["a", "b"], &["b", "a"], &["c", "c"]]);
        assert_eq!(plan(&p), "line 9: 3 plans of 2 actions: a, b; b, a; c, c");
        let p = found(3, true, &[&["tell"]]);
        assert_eq!(plan(&p), "line 9: 1 plan of 1 action: tell");
        let p = found(3, true, &[&["tell", "take"]]);
        assert_eq!(plan(&p), "line 9: 1 plan of 2 actions: tell, take");
        let p = found(3, true, &[&["a"], &["b"]]);
        assert_eq!(plan(&p), "line 9: 2 plans of 1 action: a; b");
    }

    #[test]
    fn run_prints_a_plan_on_its_line() {
        let p = Report::Plan(found(3, false, &[&["tell"]]));
        assert_eq!(report(&p), "line 9: plan of 1 action: tell\n");
        let none = Report::Plan(found(2, false, &[]));
        assert_eq!(report(&none), "line 9: no plan of at most 2 actions\n");
        assert!(p.printed_by_run() && none.printed_by_run());
    }

    #[test]
    fn a_plan_that_finds_none_fails_the_run() {
        let none = Report::Plan(found(2, false, &[]));
        assert!(none.unsolvable() && none.fails_run() && !none.vacuous());
        assert_eq!(none.line(), 9);
        for found in [found(2, false, &[&["tell"]]), found(2, true, &[&[]])] {
            let p = Report::Plan(found);
            assert!(!p.unsolvable() && !p.fails_run());
        }
    }

    #[test]
    fn a_plan_as_json() {
        let p = Report::Plan(found(3, false, &[&["tell"]]));
        assert_eq!(
            crate::text::json(&p),
            r#"{"kind": "plan", "line": 9, "solvable": true, "length": 1, "plans": [["tell"]]}"#
        );
        // `run --trace --json`'s lines: serde_json's compact layout.
        assert_eq!(
            serde_json::to_string(&p).unwrap(),
            r#"{"kind":"plan","line":9,"solvable":true,"length":1,"plans":[["tell"]]}"#
        );
        let all = Report::Plan(found(3, true, &[&["a", "b"], &["b", "a"]]));
        assert_eq!(
            crate::text::json(&all),
            r#"{"kind": "plan", "line": 9, "solvable": true, "length": 2, "plans": [["a", "b"], ["b", "a"]]}"#
        );
        let none = Report::Plan(found(2, false, &[]));
        assert_eq!(
            crate::text::json(&none),
            r#"{"kind": "plan", "line": 9, "solvable": false, "length": null, "plans": []}"#
        );
        let already = Report::Plan(found(2, false, &[&[]]));
        assert_eq!(
            crate::text::json(&already),
            r#"{"kind": "plan", "line": 9, "solvable": true, "length": 0, "plans": [[]]}"#
        );
    }

    #[test]
    fn a_plan_with_its_text_as_the_playground_and_python_receive_it() {
        let p = Report::Plan(found(3, true, &[&["tell"]]));
        let value = crate::text::with_text(&p, report(&p));
        assert_eq!(
            value,
            serde_json::json!({
                "kind": "plan",
                "line": 9,
                "solvable": true,
                "length": 1,
                "plans": [["tell"]],
                "text": "line 9: 1 plan of 1 action: tell\n",
            })
        );
    }

    #[test]
    fn a_tally_says_how_checks_hints_and_plans_came_out() {
        let t = |f: fn(&mut Tally)| {
            let mut t = Tally::default();
            f(&mut t);
            tally(&t)
        };
        assert_eq!(
            t(|_| {}),
            "nothing to check: the story has no check, hint or plan"
        );
        assert_eq!(t(|t| t.checks_hold = 1), "1 check holds");
        assert_eq!(
            t(|t| (t.checks_hold, t.checks_fail) = (2, 1)),
            "2 checks hold, 1 fails"
        );
        assert_eq!(t(|t| t.checks_fail = 2), "2 checks fail");
        assert_eq!(
            t(|t| (t.hints_verified, t.hints_refuted, t.vacuous) = (1, 2, 1)),
            "1 hint verified, 2 refuted; 1 vacuous verdict (no world is left)"
        );
        assert_eq!(
            t(|t| (t.checks_hold, t.plans_found, t.plans_not_found) = (1, 2, 1)),
            "1 check holds; 2 plans found, 1 not found"
        );
        assert!(!Tally::default().failed());
    }
}
