//! Actions and plans through the Rust API (issue 41): `Story::action`, `do_action`,
//! `do_actions` and `plan`. The door mat (`stories/door-mat.story`) told in Rust gives the
//! plans, the executions and the worlds the file gives, on every backend; the mistakes
//! are `Error::Invalid` (or, an action that cannot be done, `Error::Story`) in the
//! language's words.

use std::rc::Rc;

use epipen::engine::{Engine, Report, Strategy};
use epipen::{Action, Change, Character, Error, Formula as F, Options, PlanOptions, Story};

use super::{FINITE, invalid};

/// A story file of `stories/`.
fn story_file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../stories")
        .join(name);
    std::fs::read_to_string(path).expect("the story file")
}

/// The plans each `plan` of the story file `text` finds (as action names), and the
/// worlds it leaves, as `epipen run` prints them.
fn file_answers(text: &str, strategy: Strategy) -> (Vec<Vec<Vec<String>>>, Vec<String>) {
    let program = epipen::compile(text, &[]).expect("the story compiles");
    let options = Options {
        strategy,
        ..Options::default()
    };
    let mut engine = Engine::new(Rc::new(program.clone()), &options);
    let mut plans = Vec::new();
    engine
        .run(&mut |e| {
            if let Report::Plan { plans: found, .. } = e {
                plans.push(
                    (found.iter())
                        .map(|p| {
                            (p.iter())
                                .map(|a| program.actions[a.0].name.clone())
                                .collect()
                        })
                        .collect(),
                );
            }
        })
        .expect("the story runs");
    let worlds = engine.worlds(100).expect("its worlds");
    let lines = (worlds.worlds.iter())
        .map(|w| epipen::worlds::world_line(&program, &w.0))
        .collect();
    (plans, lines)
}

/// The door mat, up to its plans: the story, its characters, its constants and its two
/// actions.
struct DoorMat {
    story: Story,
    anne: Character,
    bob: Character,
    key_under_mat: F,
    bob_has_key: F,
    try_take: Action,
    tell: Action,
}

fn door_mat(options: Options) -> DoorMat {
    let mut story = Story::with_options(options);
    let anne = story.character("Anne");
    let bob = story.character("Bob");
    let key_under_mat = story.bool("key_under_mat");
    let bob_has_key = story.bool("bob_has_key");
    story.announce(!&bob_has_key).unwrap();
    story.actual(key_under_mat.clone()).unwrap();
    story.learns(anne, &key_under_mat).unwrap();
    let try_take = story
        .action("try_take")
        .by(bob)
        .body(|a| {
            let took = a.case("took").when(key_under_mat.clone()).then_all([
                Change::new(&key_under_mat, false),
                Change::new(&bob_has_key, true),
            ]);
            let found_nothing = a.case("found_nothing").when(!&key_under_mat);
            a.sees(bob, [[took], [found_nothing]]);
        })
        .unwrap();
    let tell = story
        .action("tell")
        .by(anne)
        .body(|a| {
            a.case("told").when(key_under_mat.clone());
        })
        .unwrap();
    DoorMat {
        story,
        anne,
        bob,
        key_under_mat,
        bob_has_key,
        try_take,
        tell,
    }
}

fn names(plans: &[&[&str]]) -> Vec<Vec<String>> {
    (plans.iter())
        .map(|p| p.iter().map(|a| a.to_string()).collect())
        .collect()
}

fn coordinated() -> PlanOptions {
    PlanOptions {
        coordinated: true,
        ..PlanOptions::default()
    }
}

#[test]
fn the_door_mat_plans_and_does_as_the_story_file() {
    let file = story_file("door-mat.story");
    let done = format!("{file}do tell, try_take\n");
    for &strategy in FINITE {
        let (file_plans, _) = file_answers(&file, strategy);
        let (_, file_worlds) = file_answers(&done, strategy);
        let DoorMat {
            mut story,
            bob,
            bob_has_key,
            try_take,
            tell,
            ..
        } = door_mat(Options {
            strategy,
            ..Options::default()
        });
        let plain = story
            .plan(bob_has_key.clone(), PlanOptions::default())
            .unwrap();
        assert_eq!(plain.plans, names(&[&["try_take"]]), "{strategy:?}");
        assert_eq!(plain.to_string(), "plan of 1 action: try_take");
        assert_eq!((plain.solvable(), plain.length()), (true, Some(1)));
        let together = story.plan(bob_has_key.clone(), coordinated()).unwrap();
        assert_eq!(together.plans, names(&[&["tell", "try_take"]]));
        assert_eq!(together.to_string(), "plan of 2 actions: tell, try_take");
        assert_eq!(vec![plain.plans, together.plans], file_plans);
        // A plan is a question: it did not join the story.
        assert!(
            (story.program().statements.iter())
                .all(|s| !matches!(s.kind, epipen::ir::StmtKind::Plan(_)))
        );

        let happened = story
            .do_actions(&[(&tell, None), (&try_take, None)])
            .unwrap();
        assert_eq!(
            happened[0].to_string(),
            "tell: told (Anne saw told; Bob saw told)"
        );
        assert_eq!(happened[1].case(), Some("took"));
        assert_eq!(happened[1].saw(bob), ["took"]);
        story
            .check_actual(F::knows(bob, bob_has_key.clone()))
            .unwrap();
        // An action's name names its latest case in formulas: `tell == told`.
        story.check(tell.event().is("told")).unwrap();
        story.check(happened[1].event().is("took")).unwrap();
        let worlds: Vec<String> = (story.worlds(100).unwrap().iter())
            .map(|w| w.to_string())
            .collect();
        assert_eq!(worlds, file_worlds, "{strategy:?}");
        // The goal holds now: the empty plan.
        let already = story.plan(bob_has_key, PlanOptions::default()).unwrap();
        assert_eq!(already.plans, [Vec::<String>::new()]);
        assert_eq!(already.to_string(), "plan of 0 actions: (none needed)");
    }
}

/// Calls among three: `call[i, j]` (by P[i], who has heard) tells P[j]. The plans of
/// the story told in Rust are the story file's, `plan all`, `max` and `keeping` included;
/// an action declared after a plan widens the search's steps, and a deeper plan deepens
/// them.
#[test]
fn families_plan_all_keeping_and_later_actions_as_the_story_file() {
    let file = "characters P[3]\nbool heard[3]\n\
                announce heard[0] and not heard[1] and not heard[2]\n\
                for i in 0..3 { for j in 0..3 { if i != j {\n\
                  action call[i, j] by P[i] if heard[i] { c then heard[j] := true }\n\
                } } }\n\
                plan all heard[0] and heard[1] and heard[2] max 2\n\
                plan heard[1] and heard[2] max 1\n\
                plan heard[2] max 3 keeping not heard[1]\n\
                action shout { s then heard[1] := true, heard[2] := true }\n\
                plan all heard[1] and heard[2] max 12\n";
    for &strategy in FINITE {
        let (expected, _) = file_answers(file, strategy);
        let mut story = Story::with_options(Options {
            strategy,
            ..Options::default()
        });
        let p = story.characters("P", 3);
        let heard = story.bools("heard", 3);
        story
            .announce(heard[0].clone() & !&heard[1] & !&heard[2])
            .unwrap();
        for i in 0..3 {
            for j in (0..3).filter(|&j| j != i) {
                let call = story
                    .action(&format!("call[{i}, {j}]"))
                    .by(p[i])
                    .when(heard[i].clone())
                    .body(|a| {
                        a.case("c").then(&heard[j], true);
                    })
                    .unwrap();
                assert_eq!(
                    (call.name(), call.cases()),
                    (&*format!("call[{i}, {j}]"), &["c".to_string()][..])
                );
            }
        }
        let everyone = F::all(heard.clone());
        let mut found = Vec::new();
        let all = PlanOptions {
            max: 2,
            all: true,
            ..PlanOptions::default()
        };
        let plan = story.plan(everyone, all).unwrap();
        assert_eq!(plan.length(), Some(2));
        found.push(plan.plans);
        let both = heard[1].clone() & heard[2].clone();
        let short = PlanOptions {
            max: 1,
            ..PlanOptions::default()
        };
        let none = story.plan(both.clone(), short).unwrap();
        assert!(!none.solvable() && none.length().is_none());
        assert_eq!(none.to_string(), "no plan of at most 1 action");
        found.push(none.plans);
        let keeping = PlanOptions {
            max: 3,
            keeping: Some(!&heard[1]),
            ..PlanOptions::default()
        };
        found.push(story.plan(heard[2].clone(), keeping).unwrap().plans);
        story
            .action("shout")
            .body(|a| {
                a.case("s")
                    .then_all([Change::new(&heard[1], true), Change::new(&heard[2], true)]);
            })
            .unwrap();
        let deep = PlanOptions {
            max: 12,
            all: true,
            ..PlanOptions::default()
        };
        found.push(story.plan(both, deep).unwrap().plans);
        assert_eq!(found, expected, "{strategy:?}");
        assert_eq!(found[3], names(&[&["shout"]]));
    }
}

#[test]
fn action_do_and_plan_mistakes_are_errors_in_the_language_words() {
    let DoorMat {
        mut story,
        anne,
        bob,
        key_under_mat,
        bob_has_key,
        try_take,
        tell,
    } = door_mat(Options::default());
    // A case the action does not have.
    invalid(
        story.do_action(&try_take, Some("tookk")),
        "the action `try_take` has no case `tookk` (did you mean `took`?)",
    );
    invalid(
        story.do_actions(&[(&tell, None), (&try_take, Some("nothing_at_all"))]),
        "the action `try_take` has no case `nothing_at_all`",
    );
    invalid(story.do_actions(&[]), "`do` needs at least one action");
    // Names: an action declared twice, the name of a constant, an event or a constant
    // named like an action.
    invalid(
        story.action("tell").body(|a| {
            a.case("said");
        }),
        "the action `tell` is declared twice",
    );
    invalid(
        story.action("key_under_mat").body(|a| {
            a.case("x");
        }),
        "`key_under_mat` is already declared",
    );
    invalid(
        story.event("tell", |e| {
            e.case("told");
        }),
        "`tell` is an action",
    );
    let clash = story.bool("tell");
    invalid(story.announce(clash), "`tell` is already declared");
    // The body: an `actual` case, no cases, an unknown case in a `sees` line.
    invalid(
        story.action("peek").by(bob).body(|a| {
            a.case("looked");
            a.actual("looked");
        }),
        "an action's block has no `actual` line",
    );
    invalid(
        story.action("peek").body(|_| {}),
        "the action `peek` has no cases",
    );
    invalid(
        story.action("peek").body(|a| {
            a.case("looked");
            a.sees(anne, [["lookd"]]);
        }),
        "the action `peek` has no case `lookd` (did you mean `looked`?)",
    );
    // A plan's `max`, and a plan with no action, or coordinated without owners.
    let max = |max| PlanOptions {
        max,
        ..PlanOptions::default()
    };
    invalid(
        story.plan(bob_has_key.clone(), max(0)),
        "a plan's `max` must be at least 1, found 0",
    );
    invalid(
        story.plan(bob_has_key.clone(), max(10_001)),
        "a plan's `max` may be at most 10000, found 10001",
    );
    let mut empty = Story::new();
    let p = empty.bool("p");
    invalid(
        empty.plan(p, PlanOptions::default()),
        "no action is declared before this `plan`",
    );
    story
        .action("shout")
        .body(|a| {
            a.case("shouted");
        })
        .unwrap();
    invalid(
        story.plan(bob_has_key.clone(), coordinated()),
        "the action `shout` has no owner, and a `coordinated` plan needs the owner of each action",
    );
    // Handles of another story.
    let other = door_mat(Options::default());
    invalid(
        story.do_action(&other.tell, None),
        "the action belongs to another story",
    );
    invalid(
        story.plan(other.bob_has_key.clone(), PlanOptions::default()),
        "another story",
    );
    invalid(
        story.action("peek").by(other.anne).body(|a| {
            a.case("looked");
        }),
        "the character belongs to another story",
    );
    // An action that cannot be done: an error of the story, which has no effect.
    let constants = story.program().constants.len();
    let statements = story.program().statements.len();
    let ask = story
        .action("ask")
        .by(bob)
        .when(F::knows(bob, key_under_mat.clone()))
        .body(|a| {
            a.case("asked");
        })
        .unwrap();
    let not_done = |r: Result<_, Error>, message: &str| match r {
        Err(Error::Story { message: m, .. }) => assert_eq!(m, message),
        other => panic!("expected Error::Story({message:?}), got {other:?}"),
    };
    not_done(
        story.do_action(&ask, None).map(drop),
        "the action `ask` cannot be done here: its condition does not hold in the actual world",
    );
    // All are done, or none: `ask` cannot be done before `tell` (a public
    // announcement that the key is under the mat), and `tell` is not done either.
    not_done(
        story.do_actions(&[(&ask, None), (&tell, None)]).map(drop),
        "the action `ask` cannot be done here: its condition does not hold in the actual world",
    );
    assert_eq!(story.program().constants.len(), constants);
    assert_eq!(story.program().statements.len(), statements);
    story.do_actions(&[(&tell, None), (&ask, None)]).unwrap();
    story.do_action(&try_take, Some("took")).unwrap();
    not_done(
        story.do_action(&tell, None).map(drop),
        "the action `tell` cannot be done here: none of its cases can happen in the actual world",
    );
    let names: Vec<&str> = (story.program().constants.iter())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        names,
        ["key_under_mat", "bob_has_key", "tell", "ask", "try_take"]
    );
}

/// Executions of actions are named as an event's (`tell`, then `tell#1`, `tell#2`, …), a
/// loop of them runs on the engine's spare occurrences, and plans go on working between
/// them.
#[test]
fn repeated_do_names_executions_and_plans_between_them() {
    let DoorMat {
        mut story,
        bob,
        key_under_mat,
        bob_has_key,
        tell,
        try_take,
        ..
    } = door_mat(Options::default());
    let first = story.do_action(&tell, None).unwrap();
    assert_eq!(first.case(), Some("told"));
    for round in 2..=12 {
        story.do_action(&tell, Some("told")).unwrap();
        if round % 5 == 0 {
            let plan = story.plan(bob_has_key.clone(), coordinated()).unwrap();
            assert_eq!(plan.plans, names(&[&["try_take"]]));
        }
    }
    let names: Vec<String> = (story.program().constants.iter())
        .skip(2)
        .map(|c| c.name.clone())
        .collect();
    let expected: Vec<String> = (1..=12).map(|k| format!("tell#{k}")).collect();
    assert_eq!(names, expected);
    story.check_actual(F::knows(bob, key_under_mat)).unwrap();
    story.do_action(&try_take, None).unwrap();
    let worlds = story.worlds(10).unwrap();
    assert_eq!(worlds.len(), 1);
    assert!(
        worlds[0]
            .to_string()
            .ends_with("tell#12 = told, try_take = took")
    );
}

/// A story's worlds after a plan are listed in the order of the story file, whose plan's
/// steps (hidden constants, "not yet" in every world) count in the canonical order: here
/// (`a`, `b`) = (green, red) comes first without them (the smaller magnitude), after
/// (red, blue) with them (every world of magnitude 2, the value of "not yet").
#[test]
fn worlds_after_a_plan_come_in_the_story_files_order() {
    let file = "enum Colour { red, green, blue }\nColour a, b\n\
                announce (a == green and b == red) or (a == red and b == blue)\n\
                action flip { heads\n tails }\nplan a == blue max 1\n";
    for &strategy in FINITE {
        let (plans, expected) = file_answers(file, strategy);
        let mut story = Story::with_options(Options {
            strategy,
            ..Options::default()
        });
        let colour = story.enumeration("Colour", &["red", "green", "blue"]);
        let a = story.enum_constant(&colour, "a");
        let b = story.enum_constant(&colour, "b");
        story
            .announce((a.eq("green") & b.eq("red")) | (a.eq("red") & b.eq("blue")))
            .unwrap();
        let listed = |story: &mut Story| -> Vec<String> {
            (story.worlds(10).unwrap().iter())
                .map(|w| w.to_string())
                .collect()
        };
        assert_eq!(
            listed(&mut story),
            ["a = green, b = red", "a = red, b = blue"]
        );
        story
            .action("flip")
            .body(|e| {
                e.case("heads");
                e.case("tails");
            })
            .unwrap();
        let short = PlanOptions {
            max: 1,
            ..PlanOptions::default()
        };
        let none = story.plan(a.eq("blue"), short).unwrap();
        assert_eq!(vec![none.plans], plans);
        assert_eq!(listed(&mut story), expected, "{strategy:?}");
        assert_eq!(expected, ["a = red, b = blue", "a = green, b = red"]);
    }
}
