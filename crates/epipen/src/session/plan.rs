//! A plan found, followed step by step: the model after each of its actions, as the
//! playground draws the model after a step of the trace.

use std::cell::RefCell;

use super::{Session, Traced, Unwatched};
use crate::engine::{Engine, EngineError, Options};
use crate::explore::graph::GRAPH_CAP;
use crate::explore::trace::{TraceStep, Tracer};
use crate::failure::Failure;
use crate::ir::{ActionId, ConstId, StmtKind};
use crate::syntax::{Diagnostic, Located};
use crate::views;
use crate::worlds::{Model, World, WorldCount};

impl Session {
    /// The epistemic model after step `plan_step` of the first plan found by the `plan`
    /// statement that is step `step` of the trace `tracer` makes (numbered as
    /// [`Session::model_after`] numbers them), with its title (`door-mat.story after
    /// line 29's plan, step 2 (try_take): 1 world`) and the index of the actual world
    /// among its worlds. Step 1 is after the plan's first action (each action at the
    /// first of its cases that can happen at the actual world); step 0 is before it, the
    /// model the `plan` statement leaves. Or the error that says why it cannot be drawn:
    /// more than [`GRAPH_CAP`] worlds, no such step of the trace, a step that is not a
    /// `plan` statement's, a plan that found none or has fewer steps.
    pub fn model_after_plan(
        &self,
        options: &Options,
        tracer: Tracer,
        step: usize,
        plan_step: usize,
    ) -> Result<(Model, String, Option<usize>), Failure> {
        // The plan the statement just run reported, if it is a `plan`.
        let reported: RefCell<Option<views::Plan>> = RefCell::new(None);
        let mut drawn = None;
        self.traced(
            options,
            &mut Unwatched,
            tracer,
            &mut |item| {
                if let Traced::Report(views::Report::Plan(p)) = item {
                    *reported.borrow_mut() = Some(p);
                }
            },
            &mut |engine, k, now| {
                let plan = reported.borrow_mut().take();
                if k < step {
                    return Ok(false);
                }
                // A `plan` statement is the first of its step (its answer is reported
                // before it, and nothing folds into a step before it): the statement
                // just run.
                drawn = Some(self.followed(engine, step, now, plan, plan_step)?);
                Ok(true)
            },
        )?;
        drawn.ok_or_else(|| {
            Failure::story(Located::nowhere(
                &self.path,
                format!("the trace of {} has no step {step}", self.path),
            ))
        })
    }

    /// The model after step `plan_step` of the first of the plans `plan` (None: the
    /// statement just run, the first of trace step `step`, is not a `plan`) that
    /// `engine` has just answered.
    fn followed(
        &self,
        engine: &mut Engine,
        step: usize,
        now: &TraceStep,
        plan: Option<views::Plan>,
        plan_step: usize,
    ) -> Result<(Model, String, Option<usize>), Failure> {
        let span = now.span.filter(|&s| {
            let kind = self.statement_at(s).map(|stmt| &stmt.kind);
            matches!(kind, Some(StmtKind::Plan(_)))
        });
        let (Some(span), Some(plan)) = (span, plan) else {
            return Err(Failure::story(Located::nowhere(
                &self.path,
                format!(
                    "step {step} of the trace of {} is not a `plan` statement's",
                    self.path
                ),
            )));
        };
        let line = self.line(span);
        let story_error = |message: String| {
            let d = Diagnostic::error(span, message);
            Failure::story(d.locate(&self.path, &self.source))
        };
        let Some(first) = plan.plans.first() else {
            return Err(story_error(format!(
                "the plan on line {line} found none: it has no step to follow"
            )));
        };
        if plan_step > first.len() {
            let steps = match first.len() {
                1 => "1 step".to_string(),
                n => format!("{n} steps"),
            };
            return Err(story_error(format!(
                "the plan on line {line} has {steps}: there is no step {plan_step}"
            )));
        }
        // Located at the `plan` statement (a plan followed fails at no place of its own).
        let at = |error| self.failure(&EngineError { span, error });
        if plan_step == 0 {
            let place = format!("before line {line}'s plan");
            let Some(model) = engine.model(None, GRAPH_CAP).map_err(at)? else {
                let count = engine.count_worlds(None, GRAPH_CAP).map_err(at)?;
                return Err(self.too_many(span, &place, count));
            };
            let actual = self.actual_in(engine, &model);
            let title = self.model_title(&place, &model);
            return Ok((model, title, actual));
        }
        let actions: Vec<ActionId> = (first.iter())
            .map(|name| {
                let k = (self.program.actions.iter())
                    .position(|a| &a.name == name)
                    .expect("a plan's actions are declared");
                ActionId(k)
            })
            .collect();
        let name = &first[plan_step - 1];
        let place = format!("after line {line}'s plan, step {plan_step} ({name})");
        let followed = (engine.follow_plan(&actions[..plan_step], GRAPH_CAP))
            .map_err(|e| at(e.error))?
            .pop()
            .expect("a step followed");
        let Some(model) = followed.model else {
            let count = WorldCount::MoreThan(GRAPH_CAP as u64);
            return Err(self.too_many(span, &place, count));
        };
        let actual = followed.actual.and_then(|a| self.actual_among(&model, &a));
        let title = self.model_title(&place, &model);
        Ok((model, title, actual))
    }

    /// The index of `actual` (a world as the story names it now) among the worlds of
    /// `model`: the one with all its values, else the one with the values it shows.
    fn actual_among(&self, model: &Model, actual: &World) -> Option<usize> {
        let shown = |w: &World| {
            w.0.len() == actual.0.len()
                && (w.0.iter().zip(&actual.0).enumerate())
                    .all(|(c, (v, a))| v == a || !self.program.shows(ConstId(c), *v))
        };
        (model.worlds.iter().position(|w| w == actual))
            .or_else(|| model.worlds.iter().position(shown))
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Options;
    use crate::explore::trace::Tracer;
    use crate::session::{Session, Traced, Unwatched};
    use crate::worlds::{Model, world_line};
    use crate::{text, views};

    /// `stories/door-mat.story` with `more` after it, and the line and trace step of
    /// each of its `plan`s (lines 25 and 29, then `more`'s), as `/api/run` numbers them.
    fn door_mat(more: &str) -> (Session, Vec<(usize, usize)>) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../stories/door-mat.story");
        let source = std::fs::read_to_string(path).expect("the story") + more;
        let story = Session::compile("door-mat.story".into(), source, &[], 0, None)
            .expect("the story compiles");
        let mut steps = 0;
        let mut plans = Vec::new();
        story
            .trace_run(
                &Options::default(),
                &mut Unwatched,
                tracer(),
                &mut |item| match item {
                    Traced::Step(_) => steps += 1,
                    Traced::Report(views::Report::Plan(p)) => plans.push((p.line, steps)),
                    Traced::Report(_) => {}
                },
            )
            .expect("the story runs");
        (story, plans)
    }

    fn tracer() -> Tracer {
        Tracer::following(20, crate::explore::graph::GRAPH_CAP)
    }

    /// A model's worlds as `epipen` prints them, the actual world's marked `*`.
    fn worlds(story: &Session, model: &Model, actual: Option<usize>) -> Vec<String> {
        (model.worlds.iter().enumerate())
            .map(|(k, w)| {
                let mark = if Some(k) == actual { "* " } else { "" };
                format!("{mark}{}", world_line(&story.program, &w.0))
            })
            .collect()
    }

    #[test]
    fn a_plan_found_is_drawn_after_each_of_its_steps() {
        let (story, plans) = door_mat("");
        assert_eq!(plans.iter().map(|p| p.0).collect::<Vec<_>>(), [25, 29]);
        let (bob_tries, coordinated) = (plans[0].1, plans[1].1);
        let after = |step, plan_step| {
            let (model, title, actual) = story
                .model_after_plan(&Options::default(), tracer(), step, plan_step)
                .expect("the model is drawn");
            (title, worlds(&story, &model, actual))
        };
        // Before the plan: the model after its statement, which leaves it as it was.
        assert_eq!(
            after(coordinated, 0),
            (
                "door-mat.story before line 29's plan: 2 worlds".to_string(),
                vec![
                    "key_under_mat = false, bob_has_key = false".to_string(),
                    "* key_under_mat = true, bob_has_key = false".to_string(),
                ]
            )
        );
        let before = story
            .model_after(&Options::default(), tracer(), coordinated)
            .expect("the model after the plan statement");
        assert_eq!(after(coordinated, 0).1, worlds(&story, &before.0, before.2));
        // Anne tells Bob that the key is under the mat; he takes it.
        assert_eq!(
            after(coordinated, 1),
            (
                "door-mat.story after line 29's plan, step 1 (tell): 1 world".to_string(),
                vec!["* key_under_mat = true, bob_has_key = false".to_string()]
            )
        );
        assert_eq!(
            after(coordinated, 2),
            (
                "door-mat.story after line 29's plan, step 2 (try_take): 1 world".to_string(),
                vec!["* key_under_mat = false, bob_has_key = true".to_string()]
            )
        );
        // Bob just tries: he takes the key, and sees that he took it.
        assert_eq!(
            after(bob_tries, 1),
            (
                "door-mat.story after line 25's plan, step 1 (try_take): 2 worlds".to_string(),
                vec![
                    "key_under_mat = false, bob_has_key = false".to_string(),
                    "* key_under_mat = false, bob_has_key = true".to_string(),
                ]
            )
        );
    }

    #[test]
    fn a_step_beyond_the_plan_or_of_no_plan_is_an_error() {
        // Bob cannot take the key and leave it under the mat.
        let (story, plans) = door_mat("plan bob_has_key and key_under_mat max 2\n");
        let error = |step, plan_step| {
            let failure = story
                .model_after_plan(&Options::default(), tracer(), step, plan_step)
                .expect_err("no such model");
            // Its first line (a located one quotes the `plan` statement after it).
            text::failure(&failure)
                .lines()
                .next()
                .unwrap_or("")
                .to_string()
        };
        assert_eq!(
            error(plans[0].1, 2),
            "door-mat.story:25:1: error: the plan on line 25 has 1 step: there is no step 2"
        );
        assert_eq!(
            error(plans[0].1 - 1, 1),
            format!(
                "error: step {} of the trace of door-mat.story is not a `plan` statement's",
                plans[0].1 - 1
            )
        );
        assert_eq!(
            error(plans[2].1, 1),
            "door-mat.story:34:1: error: the plan on line 34 found none: it has no step to follow"
        );
        assert_eq!(
            error(99, 1),
            "error: the trace of door-mat.story has no step 99"
        );
    }
}
