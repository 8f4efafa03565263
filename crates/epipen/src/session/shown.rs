//! The engine's reports, trace steps and models as front ends show them: the
//! [`views`](mod@crate::views), their constants, characters, lines and statements named.

use crate::engine::{Engine, Found, Report};
use crate::explore;
use crate::explore::graph::{arrows, edges, most_plausible};
use crate::explore::trace::{Fates, Place, TraceStep};
use crate::failure::Failure;
use crate::ir::{CharId, StmtKind};
use crate::syntax::Span;
use crate::views::{self, Statement, Verdict, VerdictKind, World, Worlds};
use crate::worlds::{Model, WorldSet};

use super::Session;

impl Session {
    /// The statement at `span` as messages name it: its line and its text on one line.
    pub fn statement_view(&self, span: Span) -> Statement {
        Statement {
            line: self.line(span),
            statement: self.statement_line(span),
            why: None,
        }
    }

    /// The statement at `span`, after which no world was possible, and why when its
    /// kind says it.
    pub fn left_none(&self, span: Span) -> Statement {
        let why = match self.statement_at(span).map(|s| &s.kind) {
            Some(StmtKind::Announce { speaker: None, .. }) => {
                Some("the announcements contradict each other")
            }
            Some(StmtKind::Announce {
                speaker: Some(_), ..
            }) => Some("it was false in every world still possible"),
            _ => None,
        };
        Statement {
            why: why.map(String::from),
            ..self.statement_view(span)
        }
    }

    /// One world of the story, its constants named.
    pub fn world(&self, world: &crate::worlds::World) -> World {
        World::of(&self.program, &world.0)
    }

    fn worlds_of(&self, worlds: &[crate::worlds::World]) -> Vec<World> {
        worlds.iter().map(|w| self.world(w)).collect()
    }

    /// The worlds of `set`; when none is possible, with the statement that left none
    /// (asked of `engine`).
    pub fn worlds(&self, engine: &mut Engine, set: &WorldSet) -> Result<Worlds, Failure> {
        let left_none = match set.worlds.is_empty() && set.complete {
            true => engine
                .left_none()
                .map_err(|error| self.failure(&self.located(None, error)))?,
            false => None,
        };
        Ok(Worlds::of(
            &self.program,
            set,
            left_none.map(|span| self.left_none(span)),
        ))
    }

    /// Which statement the verdict at `span` is about.
    fn verdict_kind(&self, span: Span) -> VerdictKind {
        match self.statement_at(span).map(|s| &s.kind) {
            Some(StmtKind::AssertAddsCk { .. }) => VerdictKind::Hint,
            _ if matches!(self.formula_at(span), Some((_, true))) => VerdictKind::CheckActual,
            _ => VerdictKind::Check,
        }
    }

    /// The verdict at `span`, holding unless said otherwise.
    pub(super) fn verdict(&self, span: Span) -> Verdict {
        Verdict {
            line: self.line(span),
            kind: self.verdict_kind(span),
            formula: self.hint_text(span),
            holds: Some(true),
            trusted: false,
            vacuous: false,
            left_none: None,
            world: None,
            found: Vec::new(),
            counterexample: None,
            seconds: None,
        }
    }

    /// The terms of the failing check at `span` compared with probabilities, with their
    /// values: as written when they are written in the check, else (in a definition, or
    /// in a `for` loop, whose variables have a value in each copy) as the story names
    /// them there.
    pub(super) fn found(&self, span: Span, found: &[Found]) -> Vec<views::Found> {
        let in_loop = self.statement_at(span).is_some_and(|s| !s.loops.is_empty());
        (found.iter())
            .map(|f| views::Found {
                term: match !in_loop && span.start <= f.span.start && f.span.end <= span.end {
                    true => (self.source[f.span.start..f.span.end].split_whitespace())
                        .collect::<Vec<_>>()
                        .join(" "),
                    false => f.text.clone(),
                },
                value: views::ratio(&f.value),
            })
            .collect()
    }

    /// Whether the statement at `span` is a `plan all` (every plan of the shortest
    /// length asked for).
    fn plan_all(&self, span: Span) -> bool {
        let kind = self.statement_at(span).map(|s| &s.kind);
        matches!(kind, Some(StmtKind::Plan(p)) if p.all)
    }

    /// What the engine reported, as front ends show it (None: a statement's figures, or
    /// an event in a story without an actual world).
    pub fn report(&self, report: &Report) -> Option<views::Report> {
        let program = &self.program;
        let name = |who: CharId| program.characters[who.0].name.clone();
        let hint_or_check = |v: Verdict| match v.kind {
            VerdictKind::Hint => views::Report::Hint(v),
            _ => views::Report::Check(v),
        };
        Some(match report {
            Report::Worlds {
                span,
                set,
                left_none,
                filter,
            } => {
                let line = self.line(*span);
                let worlds = Worlds::of(program, set, left_none.map(|s| self.left_none(s)));
                match filter {
                    None => views::Report::Worlds { line, worlds },
                    Some(formula) => views::Report::Where {
                        line,
                        formula: formula.clone(),
                        worlds,
                    },
                }
            }
            Report::Reveal {
                span,
                round,
                who,
                text,
                holds,
            } => views::Report::Reveal {
                line: self.line(*span),
                round: *round,
                who: name(*who),
                said: if *holds {
                    text.clone()
                } else {
                    explore::negated(text)
                },
                holds: *holds,
            },
            Report::Happened {
                span,
                round,
                event,
                case: Some(case),
                saw,
            } => {
                let def = &program.events[event.0];
                views::Report::Event {
                    line: self.line(*span),
                    round: *round,
                    event: def.name.clone(),
                    case: def.cases[*case].clone(),
                    saw: views::Saw(
                        (program.characters.iter().zip(saw))
                            .map(|(who, cases)| {
                                let cases = cases.iter().map(|&k| def.cases[k].clone());
                                (who.name.clone(), cases.collect())
                            })
                            .collect(),
                    ),
                }
            }
            Report::Happened { case: None, .. } | Report::Step { .. } => return None,
            Report::Plan { span, max, plans } => views::Report::Plan(views::Plan::found(
                self.line(*span),
                *max,
                self.plan_all(*span),
                (plans.iter())
                    .map(|plan| {
                        (plan.iter())
                            .map(|a| program.actions[a.0].name.clone())
                            .collect()
                    })
                    .collect(),
            )),
            Report::RepeatDone { span, rounds } => views::Report::Repeat {
                line: self.line(*span),
                rounds: *rounds,
            },
            Report::HintVerified { span, elapsed } => views::Report::Hint(Verdict {
                seconds: Some(elapsed.as_secs_f64()),
                ..self.verdict(*span)
            }),
            Report::HintTrusted { span } => views::Report::Hint(Verdict {
                holds: None,
                trusted: true,
                ..self.verdict(*span)
            }),
            Report::HintRefuted {
                span,
                elapsed,
                counterexample,
            } => views::Report::Hint(Verdict {
                holds: Some(false),
                counterexample: Some(counterexample.describe(program)),
                seconds: Some(elapsed.as_secs_f64()),
                ..self.verdict(*span)
            }),
            Report::Show { span, text, shown } => {
                let (probability, value, values) = self.shown(shown);
                views::Report::Show {
                    line: self.line(*span),
                    expression: text.clone(),
                    probability,
                    value,
                    values,
                }
            }
            Report::CheckHolds { span } => hint_or_check(self.verdict(*span)),
            Report::Vacuous { span, left_none } => hint_or_check(Verdict {
                vacuous: true,
                left_none: Some(self.statement_view(*left_none)),
                ..self.verdict(*span)
            }),
            Report::CheckFailed { span, world, found } => hint_or_check(Verdict {
                holds: Some(false),
                world: Some(self.world(world)),
                found: self.found(*span, found),
                ..self.verdict(*span)
            }),
        })
    }

    /// A step of a trace, as front ends show it.
    pub fn step(&self, step: &TraceStep) -> views::Step {
        let program = &self.program;
        views::Step {
            line: step.span.map(|span| self.line(span)),
            statement: step
                .span
                .map_or_else(|| "start".to_string(), |span| self.statement(span)),
            label: self.step_label(step),
            round: step.round,
            loops: step.loops.clone(),
            steps: step.steps,
            last_line: step.last.map(|span| self.line(span)),
            sees: step.sees.clone(),
            count: views::Count(step.count),
            changed: step.changed,
            worlds: step.worlds.as_deref().map(|w| self.worlds_of(w)),
            probabilities: (step.chances.as_ref())
                .map(|chances| chances.iter().map(views::ratio).collect()),
            removed: step.removed,
            eliminated: step.eliminated.as_deref().map(|w| self.worlds_of(w)),
            beliefs: (step.beliefs.iter())
                .map(|b| views::Belief {
                    who: program.characters[b.who.0].name.clone(),
                    actual: b.actual,
                    worlds: self.worlds_of(&b.class),
                    believed: self.worlds_of(&b.believed),
                })
                .collect(),
        }
    }

    /// Which step eliminated each world followed, as front ends show it.
    pub fn fates(&self, fates: &Fates) -> views::Fates {
        views::Fates {
            since: fates.since.map(|span| self.line(span)),
            fates: (fates.worlds.iter())
                .map(|(world, by)| views::Fate {
                    world: self.world(world),
                    eliminated_by: by.as_ref().map(|p| self.line(p.span)),
                    label: by.as_ref().map(|p| self.place_label(p)),
                    round: by.as_ref().and_then(|p| p.round),
                })
                .collect(),
        }
    }

    /// How a trace names a step: `start`, `line 8: announce …`, `line 26, round 3:
    /// repeat …`, `line 12 (i = 2): Anne learns x[i]`, `line 20: event move: moved |
    /// stayed`; folded steps `line 12 (i in 0..7): Anne learns x[i] (7 steps)` or
    /// `lines 12-14 (i in 0..7): 21 steps`.
    pub fn step_label(&self, step: &TraceStep) -> String {
        let Some(span) = step.span else {
            return "start".to_string();
        };
        let loops = if step.loops.is_empty() {
            String::new()
        } else {
            format!(" ({})", explore::trace::loops_text(&step.loops))
        };
        let round = step.round.map_or(String::new(), |r| format!(", round {r}"));
        let text = match &step.event {
            Some(heading) => explore::truncate(heading, 72),
            None => self.statement_line(span),
        };
        let (first, last) = (self.line(span), step.last.map_or(0, |l| self.line(l)));
        match step.steps {
            1 => format!("line {first}{round}{loops}: {text}"),
            n if step.last == Some(span) => format!("line {first}{loops}: {text} ({n} steps)"),
            n if first == last => format!("line {first}{loops}: {n} steps"),
            n => format!("lines {first}-{last}{loops}: {n} steps"),
        }
    }

    /// How a trace names the step that eliminated a world: as [`Session::step_label`]
    /// names a step of one statement.
    pub fn place_label(&self, place: &Place) -> String {
        let mut label = format!("line {}", self.line(place.span));
        if let Some(r) = place.round {
            label.push_str(&format!(", round {r}"));
        }
        if !place.loops.is_empty() {
            let loops: Vec<(String, Vec<i64>)> = (place.loops.iter())
                .map(|(name, value)| (name.clone(), vec![*value]))
                .collect();
            label.push_str(&format!(" ({})", explore::trace::loops_text(&loops)));
        }
        let text = match &place.event {
            Some(heading) => explore::truncate(heading, 72),
            None => self.statement_line(place.span),
        };
        format!("{label}: {text}")
    }

    /// The model with its title as front ends show it; `actual`: the index of the
    /// actual world among its worlds (see [`Session::actual_in`]).
    pub fn model_view(&self, model: &Model, title: String, actual: Option<usize>) -> views::Model {
        let program = &self.program;
        let names = |who: &[CharId]| -> Vec<String> {
            (who.iter())
                .map(|c| program.characters[c.0].name.clone())
                .collect()
        };
        views::Model {
            title,
            characters: program.characters.iter().map(|c| c.name.clone()).collect(),
            worlds: self.worlds_of(&model.worlds),
            actual,
            edges: (edges(model).iter())
                .map(|e| views::ModelEdge {
                    a: e.a,
                    b: e.b,
                    who: names(&e.who),
                })
                .collect(),
            beliefs: (arrows(model).iter())
                .map(|a| views::ModelArrow {
                    from: a.from,
                    to: a.to,
                    who: names(&a.who),
                })
                .collect(),
            plausible: (most_plausible(model).into_iter())
                .map(|(c, worlds)| views::ModelPlausible {
                    who: program.characters[c.0].name.clone(),
                    worlds,
                })
                .collect(),
            probabilities: (model.chances.as_ref())
                .map(|chances| chances.iter().map(views::ratio).collect()),
            layout: {
                let drawn = explore::layout::drawing(program, model);
                let xy = |p: &(f64, f64)| [p.0, p.1];
                views::ModelLayout {
                    radius: drawn.layout.radius,
                    width: drawn.layout.width,
                    height: drawn.layout.height,
                    points: drawn.layout.points.iter().map(xy).collect(),
                    labels: drawn.layout.labels.iter().map(xy).collect(),
                    parts: drawn.parts,
                    sep: drawn.sep.to_string(),
                }
            },
        }
    }
}

impl Session {
    /// A `show` statement's values as front ends show them: whether they are
    /// probabilities, the value in the actual world, or the values by world.
    fn shown(
        &self,
        shown: &crate::engine::Shown,
    ) -> (bool, Option<views::Shown>, Option<Vec<views::Counted>>) {
        use crate::engine::{Amount, Shown};
        let program = &self.program;
        let one = |a: &Amount| match a {
            Amount::Ratio(q) => views::Shown::Ratio(views::ratio(q)),
            Amount::Value(v, ty) => views::World::of_value(program, *ty, *v),
        };
        let probability = |a: &Amount| matches!(a, Amount::Ratio(_));
        match shown {
            Shown::Actual(a) => (probability(a), Some(one(a)), None),
            Shown::Worlds(all) => (
                all.first().is_some_and(|(a, _)| probability(a)),
                None,
                Some(
                    all.iter()
                        .map(|(a, n)| views::Counted {
                            value: one(a),
                            worlds: *n,
                        })
                        .collect(),
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use crate::engine::Report;
    use crate::ir::{ActionDef, ActionId, EventId, EventStmt, PlanStmt, StmtKind};
    use crate::{Session, text, views};

    /// Issue 41's story of the key, with its plans on lines 7 to 9 made by hand (its
    /// `check`s stand in for them until lowering makes them): `plan`, `plan all … max
    /// 3` and `plan … max 2`, and the actions `tell` and `try_take`.
    fn key_story() -> Session {
        let source = "characters Anne, Bob\nbool key_under_mat\nactual key_under_mat\n\
                      Anne learns key_under_mat\n\n\n\
                      check knows(Bob, key_under_mat)\n\
                      check knows(Bob, key_under_mat)\n\
                      check knows(Bob, not key_under_mat)\n";
        let mut story = Session::compile("key.story".into(), source.into(), &[], 0, None)
            .expect("the story compiles");
        let mut program = (*story.program).clone();
        for name in ["tell", "try_take"] {
            program.actions.push(ActionDef {
                name: name.into(),
                owner: None,
                guard: None,
                body: EventStmt {
                    event: EventId(0),
                    cases: Vec::new(),
                    sees: Vec::new(),
                    expects: Vec::new(),
                    actual: None,
                    actual_at: None,
                    occurrences: Vec::new(),
                },
                offset: 0,
                span: crate::Span::default(),
            });
        }
        let plans =
            (program.statements.iter_mut()).filter(|s| matches!(s.kind, StmtKind::Check(_)));
        for (stmt, (max, all)) in plans.zip([(3, false), (3, true), (2, false)]) {
            let StmtKind::Check(goal) = stmt.kind.clone() else {
                unreachable!()
            };
            stmt.kind = StmtKind::Plan(Box::new(PlanStmt {
                actions: vec![ActionId(0), ActionId(1)],
                goal,
                max,
                keeping: None,
                coordinated: false,
                all,
            }));
        }
        story.program = Rc::new(program);
        story
    }

    /// What `epipen run` prints for the plan statement on `line` (7 to 9) answering
    /// `plans`, and its view.
    fn answered(story: &Session, line: usize, plans: &[&[usize]]) -> (views::Report, String) {
        let stmt = (story.program.statements.iter())
            .find(|s| story.line(s.span) == line)
            .expect("a statement on the line");
        let StmtKind::Plan(p) = &stmt.kind else {
            panic!("line {line} is not a plan")
        };
        let report = Report::Plan {
            span: stmt.span,
            max: p.max,
            plans: (plans.iter())
                .map(|p| p.iter().map(|&a| ActionId(a)).collect())
                .collect(),
        };
        let view = story.report(&report).expect("a plan is shown");
        let printed = text::report(&view);
        (view, printed)
    }

    #[test]
    fn a_plan_is_shown_with_its_actions_named() {
        let story = key_story();
        let (view, printed) = answered(&story, 7, &[&[0]]);
        assert_eq!(
            view,
            views::Report::Plan(views::Plan {
                line: 7,
                solvable: true,
                length: Some(1),
                plans: vec![vec!["tell".to_string()]],
                all: false,
                max: 3,
            })
        );
        assert_eq!(printed, "line 7: plan of 1 action: tell\n");
        let (_, printed) = answered(&story, 7, &[&[0, 1, 0]]);
        assert_eq!(printed, "line 7: plan of 3 actions: tell, try_take, tell\n");
        let (_, printed) = answered(&story, 7, &[&[]]);
        assert_eq!(printed, "line 7: plan of 0 actions: (none needed)\n");
    }

    #[test]
    fn plan_all_is_known_by_its_statement() {
        let story = key_story();
        let (view, printed) = answered(&story, 8, &[&[0]]);
        assert!(view.plan().is_some_and(|p| p.all && p.max == 3));
        assert_eq!(printed, "line 8: 1 plan of 1 action: tell\n");
        let (_, printed) = answered(&story, 8, &[&[0, 1], &[1, 0]]);
        assert_eq!(
            printed,
            "line 8: 2 plans of 2 actions: tell, try_take; try_take, tell\n"
        );
        let (_, printed) = answered(&story, 8, &[&[]]);
        assert_eq!(printed, "line 8: plan of 0 actions: (none needed)\n");
    }

    #[test]
    fn no_plan_is_shown_with_its_bound_and_fails_the_run() {
        let story = key_story();
        let (view, printed) = answered(&story, 9, &[]);
        assert_eq!(printed, "line 9: no plan of at most 2 actions\n");
        assert!(view.unsolvable() && view.fails_run());
        assert_eq!(
            text::json(&view),
            r#"{"kind": "plan", "line": 9, "solvable": false, "length": null, "plans": []}"#
        );
    }
}
