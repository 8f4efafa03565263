//! Text told to a story (`Story::tell`): statements in the story language after the
//! statements so far, one namespace with the handles, a text that fails undone, its
//! failure located in the text told; and the first announcements waiting for the
//! engine, as a file's are all seen before it starts.

use epipen::engine::Strategy;
use epipen::views::Report;
use epipen::{Formula as F, Options, Story, text};

fn on(strategy: Strategy) -> Story {
    Story::with_options(Options {
        strategy,
        ..Options::default()
    })
}

/// What the reports print, as `epipen run` prints them.
fn printed(reports: &[Report]) -> String {
    reports.iter().map(text::report).collect()
}

fn cheryl_text() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../stories/cheryl.story");
    std::fs::read_to_string(path).expect("stories/cheryl.story")
}

#[test]
fn a_story_file_told_whole_gives_the_files_worlds_on_every_backend() {
    for strategy in [
        Strategy::Auto,
        Strategy::Z3,
        Strategy::Bdd,
        Strategy::Explicit,
    ] {
        let mut story = on(strategy);
        let reports = story.tell(&cheryl_text()).unwrap();
        assert!(reports.is_empty(), "{strategy:?}: {}", printed(&reports));
        let worlds = story.worlds(10).unwrap();
        let listed: Vec<String> = worlds.iter().map(|w| w.to_string()).collect();
        assert_eq!(listed, ["month = 7, day = 16"], "{strategy:?}");
        assert!(worlds.is_complete());
    }
}

#[test]
fn text_and_handles_share_the_story_s_names() {
    let mut story = Story::new();
    let anne = story.character("Anne");
    let x = story.int("x");
    story.announce(x.ge(1) & x.le(3)).unwrap();
    let reports = story
        .tell("int y\nannounce y == x + 1\nAnne learns y\nworlds")
        .unwrap();
    assert_eq!(
        printed(&reports),
        "-- line 4: worlds --\n3 possible worlds:\n  x = 1, y = 2\n  x = 2, y = 3\n  x = 3, y = 4\n(and that's all)\n"
    );
    // A handle of the story's speaks of what the text declared, and the reverse.
    story.says(anne, F::knows_value(anne, &x)).unwrap();
    story.tell("check knows_value(Anne, x)").unwrap();
    let worlds = story.worlds(10).unwrap();
    assert_eq!(worlds.len(), 3);
    assert_eq!(worlds[2].get("y").map(|v| v.to_string()), Some("4".into()));
}

#[test]
fn enums_and_characters_declared_before_a_text_are_known_to_it() {
    let mut story = Story::new();
    let colour = story.enumeration("Colour", &["red", "green"]);
    story.characters("child", 2);
    let wall = story.enum_constant(&colour, "wall");
    story.tell("Colour door\nannounce door != wall").unwrap();
    story.tell("child[0] learns door\nworlds").unwrap();
    story.announce(wall.eq("red")).unwrap();
    let worlds = story.worlds(10).unwrap();
    let listed: Vec<String> = worlds.iter().map(|w| w.to_string()).collect();
    assert_eq!(listed, ["wall = red, door = green"]);
}

#[test]
fn a_text_that_fails_is_undone_and_its_failure_located_in_the_text_told() {
    let mut story = Story::new();
    story.tell("int x\nannounce 0 <= x and x <= 3").unwrap();
    let wrong = story.tell("announce x > 0\nannounce y > 1").unwrap_err();
    assert_eq!(
        text::failure(&wrong),
        "<told>:4:10: error: unknown name `y`\n  |\n4 | announce y > 1\n  |          ^\n  = hint: did you mean `x`?\nerror: <told>: 1 error found\n"
    );
    // The text had no effect: `x > 0` was undone with it.
    assert_eq!(story.worlds(10).unwrap().len(), 4);
    // A failure while running (a check that fails) is located too, and undoes its text.
    let failed = story.tell("announce x != 2\ncheck x < 3").unwrap_err();
    assert_eq!(
        text::failure(&failed),
        "<told>:6:1: error: the check `x < 3` fails\n  |\n6 | check x < 3\n  | ^^^^^^^^^^^\n  = hint: it is false in the possible world x = 3\n"
    );
    assert_eq!(failed.exit_code(), 1);
    assert_eq!(story.worlds(10).unwrap().len(), 4);
}

#[test]
fn a_setting_is_a_story_file_s_and_refused_in_a_text_told() {
    let mut story = Story::new();
    let wrong = story.tell("#! backend z3\nint x").unwrap_err();
    assert_eq!(
        text::failure(&wrong),
        "<told>:1:1: error: a setting `#!` goes at the top of a story file\n  |\n1 | #! backend z3\n  | ^^\n  = hint: a story told in parts takes its backend from its options; a comment is written `# …`\nerror: <told>: 1 error found\n"
    );
    assert_eq!(story.program().constants.len(), 0);
}

#[test]
fn a_plan_told_is_a_question_the_story_does_not_keep() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../stories/door-mat.story");
    let door_mat = std::fs::read_to_string(path).unwrap();
    for strategy in [
        Strategy::Auto,
        Strategy::Z3,
        Strategy::Bdd,
        Strategy::Explicit,
    ] {
        let mut story = on(strategy);
        let reports = story.tell(&door_mat).unwrap();
        assert_eq!(
            printed(&reports),
            "line 25: plan of 1 action: try_take\nline 29: plan of 2 actions: tell, try_take\n",
            "{strategy:?}"
        );
        let kinds = story.program().statements.iter().map(|s| &s.kind);
        assert!(
            !kinds
                .into_iter()
                .any(|k| matches!(k, epipen::ir::StmtKind::Plan(_)))
        );
        let reports = story.tell("do tell, try_take\ncheck actual knows(Bob, bob_has_key)");
        assert!(reports.is_ok(), "{strategy:?}: {reports:?}");
    }
}

#[test]
fn first_announcements_made_apart_bound_the_ints_as_a_file_s_do() {
    // The explicit and BDD backends bound the ints by the story's first announcements:
    // the engine waits for them all (it was made at the first, which left `y`
    // unbounded, and the BDD backend refused the story).
    for strategy in [Strategy::Bdd, Strategy::Explicit, Strategy::Auto] {
        let mut story = on(strategy);
        let anne = story.character("Anne");
        let x = story.int("x");
        let y = story.int("y");
        story.announce(x.ge(0) & x.le(2)).unwrap();
        story.learns(anne, &x).unwrap();
        story.announce(y.ge(0) & y.le(1)).unwrap();
        story.says(anne, !F::knows_value(anne, &y)).unwrap();
        assert_eq!(story.worlds(10).unwrap().len(), 6, "{strategy:?}");
    }
}

#[test]
fn a_failure_among_the_first_announcements_points_at_its_statement() {
    let mut story = on(Strategy::Explicit);
    let told = "int x\nannounce 0 <= x and x <= 2\nprior x - 1\nannounce x < 2\nworlds";
    let wrong = story.tell(told).unwrap_err();
    assert_eq!(
        wrong.diagnostics[0].message,
        "the prior is -1 in the world x = 0, still possible: a weight is never negative"
    );
    assert_eq!(wrong.diagnostics[0].at.as_ref().map(|a| a.line), Some(3));
}

#[test]
fn a_world_that_shows_no_constant_says_so() {
    // A plan's steps are constants no world shows: the line of a world of this story
    // was empty (the told stories' campaign, seed 137).
    let text = "characters A\naction act0 { s0 }\nplan true max 2\n";
    let session = epipen::Session::compile("p.story".into(), text.into(), &[], 0, None).unwrap();
    let mut engine = session.run(&Options::default(), &mut |_| {}).unwrap();
    let set = session.final_worlds(&mut engine, 10).unwrap();
    let lines: Vec<String> = (set.worlds.iter())
        .map(|w| epipen::worlds::world_line(&session.program, &w.0))
        .collect();
    assert_eq!(lines, ["(no constants)"]);
}

#[test]
fn names_told_in_text_have_handles_the_api_goes_on_with() {
    use epipen::Handle;
    let mut story = Story::new();
    story
        .tell(concat!(
            "const n = 3\n",
            "characters child[n], Anne\n",
            "enum Colour { red, green }\n",
            "bool muddy[n]\n",
            "int x\n",
            "Colour wall\n",
            "announce 0 <= x and x <= 2\n",
            "checkpoint start\n",
            "action shout {\n  done\n  Anne sees done\n}\n",
        ))
        .unwrap();
    let handle = |story: &mut Story, name: &str| story.handle(name).unwrap();
    let Handle::Int(x) = handle(&mut story, "x") else {
        panic!("x is an int")
    };
    let Handle::Family(muddy) = handle(&mut story, "muddy") else {
        panic!("a family")
    };
    let muddy: Vec<F> = (muddy.into_iter())
        .map(|m| match m {
            Handle::Bool(b) => b,
            other => panic!("a bool, not {other:?}"),
        })
        .collect();
    let Handle::Character(child1) = handle(&mut story, "child[1]") else {
        panic!()
    };
    let Handle::Enum(wall) = handle(&mut story, "wall") else {
        panic!("an enum constant")
    };
    let Handle::Enum(green) = handle(&mut story, "green") else {
        panic!("a variant")
    };
    let Handle::EnumType(colour) = handle(&mut story, "Colour") else {
        panic!("an enum")
    };
    assert_eq!(colour.variants(), ["red", "green"]);
    assert!(matches!(handle(&mut story, "n"), Handle::Const(3)));
    assert!(matches!(handle(&mut story, "start"), Handle::Checkpoint(_)));
    let Handle::Action(shout) = handle(&mut story, "shout") else {
        panic!("an action")
    };
    assert_eq!(shout.name(), "shout");
    // The handles speak of the story's constants, in statements of the API.
    story
        .announce(muddy[0].clone() & !&muddy[1] & !&muddy[2])
        .unwrap();
    story.announce(wall.eq(&green) & x.eq(2)).unwrap();
    story.learns(child1, &muddy[0]).unwrap();
    story.check(F::knows(child1, muddy[0].clone())).unwrap();
    let worlds = story.worlds(10).unwrap();
    let listed: Vec<String> = worlds.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        listed,
        ["muddy[0] = true, muddy[1] = false, muddy[2] = false, x = 2, wall = green"]
    );
    // Names declared through the API have handles too.
    let y = story.int("y");
    story.announce(y.eq(&x)).unwrap();
    let Handle::Int(y_again) = handle(&mut story, "y") else {
        panic!("an int")
    };
    story.check(y_again.eq(2)).unwrap();
}

#[test]
fn a_name_without_a_handle_says_why() {
    let mut story = Story::new();
    story
        .tell("characters Anne\nint month\ndef small(v) = v < 3")
        .unwrap();
    let message = |story: &mut Story, name: &str| story.handle(name).unwrap_err().to_string();
    assert_eq!(
        message(&mut story, "mnth"),
        "unknown name `mnth` (did you mean `month`?)"
    );
    assert_eq!(message(&mut story, "Bob"), "unknown name `Bob`");
    assert_eq!(
        message(&mut story, "small"),
        "`small` is a definition (`def`): text told can use it, the API has no handle for it"
    );
    assert_eq!(message(&mut story, "month[0]"), "`month` is not a family");
    story.tell("bool p[2]").unwrap();
    assert_eq!(
        message(&mut story, "p[2]"),
        "index 2 is out of range: `p` has 2 members (0..1)"
    );
    assert!(matches!(
        story.handle("p[2 - 1]"),
        Ok(epipen::Handle::Bool(_))
    ));
}

#[test]
fn a_story_s_text_is_a_story_file_that_tells_the_same() {
    let mut story = Story::new();
    let (anne, sally) = (story.character("Anne"), story.character("Sally"));
    let place = story.enumeration("Place", &["basket", "box"]);
    let marble = story.enum_constant(&place, "marble");
    let coins = story.bools("coin", 2);
    story.announce(marble.eq("basket")).unwrap();
    story
        .actual(marble.eq("basket") & &coins[0] & !&coins[1])
        .unwrap();
    let before = story.checkpoint("before").unwrap();
    story
        .event("move", |e| {
            let moved = e
                .case("moved")
                .when(marble.eq("basket"))
                .then(&marble, "box");
            let stayed = e.case("stayed");
            e.sees(anne, [[moved], [stayed]]);
            e.actual(moved);
        })
        .unwrap();
    story
        .tell("for i in 0..2 { Anne learns coin[i] }\nSally: not knows_value(marble)")
        .unwrap();
    // A statement that fails is not the story's.
    assert!(story.announce(marble.eq("basket")).is_err());
    story
        .check(F::at(before, F::knows(sally, marble.eq("basket"))))
        .unwrap();
    let text = story.text().unwrap();
    assert_eq!(
        text,
        "characters Anne\ncharacters Sally\nenum Place { basket, box }\nPlace marble\n\
         bool coin[2]\nannounce marble == basket\nactual marble == basket and coin[0] and \
         not coin[1]\ncheckpoint before\nevent move {\n  moved if marble == basket then \
         marble := box\n  stayed\n  Anne sees moved | stayed\n  actual moved\n}\n\
         for i in 0..2 {\n  Anne learns coin[i]\n}\nSally: not knows_value(marble)\n\
         check at(before, knows(Sally, marble == basket))\n"
    );
    // Told to a new story (or run as a file), it leaves the same worlds.
    let mut again = Story::new();
    again.tell(&text).unwrap();
    let listed = |s: &mut Story| s.worlds(10).unwrap().to_string();
    assert_eq!(listed(&mut again), listed(&mut story));
    assert_eq!(again.text().unwrap(), text);
}

#[test]
fn a_story_naming_an_execution_has_no_text() {
    let mut story = Story::new();
    let anne = story.character("Anne");
    let flip = |story: &mut Story| {
        story
            .event("flip", |e| {
                let (heads, tails) = (e.case("heads"), e.case("tails"));
                e.sees(anne, [[heads], [tails]]);
            })
            .unwrap()
    };
    flip(&mut story);
    let second = flip(&mut story);
    story.announce(second.occurrence().eq("heads")).unwrap();
    let wrong = story.text().unwrap_err().to_string();
    assert_eq!(
        wrong,
        "the story has no text: `announce flip#2 == heads` names an execution of an event \
         (a `Happened::occurrence`, `event#k`), which the story language cannot write"
    );
}

#[test]
fn a_constant_the_story_cannot_take_now_is_not_declared() {
    let mut story = Story::new();
    story.character("A");
    let p = story.bool("p");
    story.actual(p.clone()).unwrap();
    // After `actual`, a new constant would leave it several worlds.
    let zz = story.int("zz");
    let refused = story.announce(zz.eq(1)).unwrap_err().to_string();
    assert!(
        refused.starts_with(
            "`zz` cannot join the story now: told again with it, the story fails (`actual` \
             must pin down exactly one of the worlds still possible, but it allows several"
        ),
        "{refused}"
    );
    assert!(refused.ends_with("; hint: declare it before the statements it would change"));
    // The story goes on without it.
    story.announce(p.clone()).unwrap();
    assert_eq!(
        story.worlds(10).unwrap().to_string(),
        "1 possible world:\n  p = true\n(and that's all)\n"
    );
    assert_eq!(
        story.text().unwrap(),
        "characters A\nbool p\nactual p\nannounce p\n"
    );
    // Without `actual`, a constant declared late joins the story.
    let mut story = Story::new();
    let p = story.bool("p");
    story.announce(p.clone()).unwrap();
    let q = story.bool("q");
    story.announce(q.clone() | p.clone()).unwrap();
    assert_eq!(story.worlds(10).unwrap().len(), 2);
}
