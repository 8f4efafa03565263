//! Belief through the Rust API (issue 20): `Formula::believes`, `believes_value`,
//! `Story::expects` and an event's `expects` lines. The stories of `stories/` told in
//! Rust give the IR, the worlds and the check results the files give, on every backend;
//! the mistakes are `Error::Invalid` in the language's words.

use std::rc::Rc;

use epipen::engine::{Engine, Report, Strategy};
use epipen::ir::{Program, StmtKind};
use epipen::{Error, Formula as F, Options, Story};

use super::{FINITE, invalid, same_as_text};

/// A story file of `stories/`.
fn story_file(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../stories")
        .join(name);
    std::fs::read_to_string(path).expect("the story file")
}

/// The statements of `program` as text, spans left out (`worlds` statements too: the
/// API lists worlds without one): the IR both paths must give.
fn statements(program: &Program) -> Vec<String> {
    let show = |e: &epipen::ir::Expr| program.show(e, None);
    let name = |c: epipen::ir::CharId| program.characters[c.0].name.clone();
    let constant = |c: epipen::ir::ConstId| program.constants[c.0].name.clone();
    let changes = |changes: &[(epipen::ir::ConstId, epipen::ir::Expr)]| -> Vec<String> {
        (changes.iter())
            .map(|(c, e)| format!("{} := {}", constant(*c), show(e)))
            .collect()
    };
    (program.statements.iter())
        .filter(|s| !matches!(s.kind, StmtKind::Worlds { .. }))
        .map(|s| match &s.kind {
            StmtKind::Announce { speaker, formula } => match speaker {
                None => format!("announce {}", show(formula)),
                Some(who) => format!("{}: {}", name(*who), show(formula)),
            },
            StmtKind::Actual(e) => format!("actual {}", show(e)),
            StmtKind::Check(e) => format!("check {}", show(e)),
            StmtKind::CheckActual(e) => format!("check actual {}", show(e)),
            StmtKind::Learn { who, what } => format!("{} learns {}", name(*who), show(what)),
            StmtKind::Expects { who, formula } => {
                format!("{} expects {}", name(*who), show(formula))
            }
            StmtKind::Checkpoint(c) => format!("checkpoint {}", program.checkpoints[c.0].name),
            StmtKind::Assign { changes: c } => changes(c).join(", "),
            StmtKind::Event(event) => {
                let cases: Vec<String> = (event.cases.iter())
                    .map(|c| {
                        let pre = c.pre.as_ref().map(show).unwrap_or_default();
                        format!("{} if {pre} then {:?}", c.name, changes(&c.changes))
                    })
                    .collect();
                let occurrences: Vec<String> =
                    event.occurrences.iter().map(|&c| constant(c)).collect();
                format!(
                    "event {} {cases:?} sees {:?} expects {:?} actual {:?} as {occurrences:?}",
                    program.events[event.event.0].name, event.sees, event.expects, event.actual
                )
            }
            other => format!("{other:?}"),
        })
        .collect()
}

/// The outcome of each check of the story `text` run on `strategy`, in order (true:
/// it holds), every check run even after one fails.
fn file_checks(text: &str, strategy: Strategy) -> Vec<bool> {
    let program = epipen::compile(text, &[]).expect("the story compiles");
    let options = Options {
        strategy,
        keep_refuted_hints: true,
        skip_worlds_statements: true,
        ..Options::default()
    };
    let mut engine = Engine::new(Rc::new(program), &options);
    let mut outcomes = Vec::new();
    engine
        .run(&mut |e| match e {
            Report::CheckHolds { .. } => outcomes.push(true),
            Report::CheckFailed { .. } => outcomes.push(false),
            _ => {}
        })
        .expect("the story runs");
    outcomes
}

/// A story told through the API: the story, and the outcome of each check it tried, in
/// order (a check that fails has no effect, as with `keep_refuted_hints`).
type Told = (Story, Vec<bool>);

/// `tell`'s story gives, on each backend of `strategies`, the worlds of the story file
/// `text` ([`same_as_text`]) and its checks' outcomes, and its statements are the IR
/// `text` lowers to (but the checks that fail: a story keeps only those that held).
#[track_caller]
fn same_as_file(tell: impl Fn(Options) -> Told, text: &str, strategies: &[Strategy]) {
    let program = epipen::compile(text, &[]).expect("the story compiles");
    for &strategy in strategies {
        let (story, checks) = tell(Options {
            strategy,
            ..Options::default()
        });
        let outcomes = file_checks(text, strategy);
        assert_eq!(checks, outcomes, "{strategy:?}");
        let mut held = outcomes.iter();
        let expected: Vec<String> = (statements(&program).into_iter())
            .filter(|s| !s.starts_with("check ") || *held.next().expect("an outcome"))
            .collect();
        assert_eq!(statements(story.program()), expected, "{strategy:?}");
    }
    // The worlds: the story without the checks that fail (each is one line), which
    // would stop it.
    let outcomes = file_checks(text, Strategy::Auto);
    let mut held = outcomes.iter();
    let kept: Vec<&str> = (text.lines())
        .filter(|l| !l.starts_with("check ") || *held.next().expect("an outcome"))
        .collect();
    assert!(held.next().is_none(), "a check of more than one line");
    same_as_text(|options| tell(options).0, &kept.join("\n"), strategies);
}

/// Runs checks on a story, recording each outcome.
struct Checks(Vec<bool>);

impl Checks {
    fn check(&mut self, story: &mut Story, formula: F) {
        let result = story.check(formula);
        self.record(result);
    }

    fn actual(&mut self, story: &mut Story, formula: F) {
        let result = story.check_actual(formula);
        self.record(result);
    }

    #[track_caller]
    fn record(&mut self, result: Result<(), Error>) {
        match result {
            Ok(()) => self.0.push(true),
            Err(Error::Story { .. }) => self.0.push(false),
            Err(e) => panic!("a check fails to run: {e:?}"),
        }
    }
}

/// stories/sally-anne.story, told in Rust.
fn sally_anne(options: Options) -> Told {
    let mut story = Story::with_options(options);
    let (sally, anne) = (story.character("Sally"), story.character("Anne"));
    let place = story.enumeration("Place", &["hand", "basket", "box"]);
    let marble = story.enum_constant(&place, "marble");
    let here = story.bool("here");
    story.announce(marble.eq("hand") & here.clone()).unwrap();
    story.actual(marble.eq("hand") & here.clone()).unwrap();
    story.assign(&marble, "basket").unwrap();
    story.assign(&here, false).unwrap();
    let happened = story
        .event("move", |e| {
            let moved = e
                .case("moved")
                .when(marble.eq("basket"))
                .then(&marble, "box");
            let stayed = e.case("stayed");
            e.sees(anne, [[moved], [stayed]]);
            e.expects(sally, [[stayed]]);
            e.actual(moved);
        })
        .unwrap();
    assert_eq!(
        happened.to_string(),
        "move: moved (Sally saw moved or stayed; Anne saw moved)"
    );
    let moving = happened.event().clone();
    story.assign(&here, true).unwrap();
    let back = story.checkpoint("back").unwrap();
    let basket = || marble.eq("basket");
    let mut c = Checks(Vec::new());
    let s = &mut story;
    c.actual(s, marble.eq("box") & F::knows(anne, marble.eq("box")));
    c.actual(s, !F::knows_value(sally, &marble));
    c.actual(s, !F::knows(sally, basket()));
    c.actual(s, F::believes(sally, basket()));
    c.actual(s, F::believes_value(sally, &marble));
    c.actual(s, F::believes(sally, basket()) & marble.ne("basket"));
    c.actual(s, F::knows(anne, F::believes(sally, basket())));
    c.actual(s, F::knows(anne, !F::believes(sally, marble.eq("box"))));
    c.actual(s, F::believes(anne, F::believes(sally, basket())));
    c.actual(s, F::believes(sally, F::believes(anne, basket())));
    c.actual(s, F::knows(sally, !F::knows_value(sally, &marble)));
    s.learns(sally, basket()).unwrap();
    c.actual(s, F::knows(sally, marble.eq("box")));
    c.actual(s, F::knows(sally, moving.is("moved")));
    // The checks the file does not make (`SALLY_ANNE_MORE`).
    c.actual(s, F::believes(sally, basket()));
    c.check(s, F::believes(anne, marble.eq("box")));
    c.actual(s, F::believes(anne, marble.eq("box")));
    c.check(s, F::at(back, F::believes(sally, basket())));
    c.check(s, F::at(back, F::knows(sally, basket())));
    (story, c.0)
}

/// Checks of Sally-Anne's last worlds the file does not make, some failing: after she
/// looked, Sally no longer believes the marble is in the basket; Anne believes it is in
/// the box only where it is; back in the room, Sally believed it was in the basket,
/// everywhere, but did not know it.
const SALLY_ANNE_MORE: &str = "\ncheck actual believes(Sally, marble == basket)\n\
    check believes(Anne, marble == box)\n\
    check actual believes(Anne, marble == box)\n\
    check at(back, believes(Sally, marble == basket))\n\
    check at(back, knows(Sally, marble == basket))\n";

#[test]
fn sally_anne_gives_the_story_files_worlds_and_checks_on_every_backend() {
    let text = story_file("sally-anne.story") + SALLY_ANNE_MORE;
    assert_eq!(
        file_checks(&text, Strategy::Auto),
        [[true; 13].as_slice(), &[false, false, true, true, false]].concat()
    );
    same_as_file(sally_anne, &text, FINITE);
    let (mut story, _) = sally_anne(Options::default());
    let lines: Vec<String> = (story.worlds(10).unwrap().iter())
        .map(|w| w.to_string())
        .collect();
    assert_eq!(
        lines,
        [
            "marble = box, here = true, move = moved",
            "marble = basket, here = true, move = stayed"
        ]
    );
}

/// stories/lie.story, told in Rust.
fn lie(options: Options) -> Told {
    let mut story = Story::with_options(options);
    let alice = story.character("Alice");
    let bob = story.character("Bob");
    let carol = story.character("Carol");
    let cake = story.bool("cake");
    story.actual(!cake.clone()).unwrap();
    story.learns(alice, &cake).unwrap();
    let says = story
        .event("says", |e| {
            let honest = e.case("honest").when(cake.clone());
            let lie = e.case("lie").when(!cake.clone());
            e.sees(alice, [[honest], [lie]]);
            e.sees(carol, [[honest], [lie]]);
            e.expects(bob, [[honest], [lie]]);
            e.actual(lie);
        })
        .unwrap();
    assert_eq!(
        says.to_string(),
        "says: lie (Alice saw lie; Bob saw honest or lie; Carol saw lie)"
    );
    let says = says.event().clone();
    let mut c = Checks(Vec::new());
    let s = &mut story;
    c.actual(
        s,
        F::believes(bob, cake.clone()) & !F::knows(bob, cake.clone()),
    );
    c.actual(s, F::believes(bob, says.is("honest")));
    c.actual(
        s,
        F::believes(
            bob,
            F::knows(alice, cake.clone()) & F::knows(carol, cake.clone()),
        ),
    );
    c.actual(
        s,
        F::knows(carol, !cake.clone()) & !F::believes(carol, cake.clone()),
    );
    c.actual(s, F::knows(carol, F::believes(bob, cake.clone())));
    c.actual(s, F::knows(alice, F::believes(bob, cake.clone())));
    c.check(s, F::knows(bob, F::knows_value(alice, &cake)));
    // Checks the file does not make (`LIE_MORE`), before Bob opens the fridge.
    c.check(s, F::believes(bob, cake.clone()));
    c.check(s, F::believes_value(bob, &cake));
    c.actual(s, F::believes(bob, !cake.clone()));
    s.learns(bob, &cake).unwrap();
    c.actual(s, F::knows(bob, !cake.clone()));
    c.actual(s, F::knows(bob, says.is("lie")));
    c.actual(s, !F::believes(bob, cake.clone()));
    (story, c.0)
}

#[test]
fn a_lie_gives_the_story_files_worlds_and_checks_on_every_backend() {
    let text = story_file("lie.story");
    // The checks `lie` adds come before `Bob learns cake`: insert them there.
    let more = "check believes(Bob, cake)\ncheck believes_value(Bob, cake)\n\
                check actual believes(Bob, not cake)\n";
    let at = text.find("Bob learns cake").expect("the line");
    let text = format!("{}{more}{}", &text[..at], &text[at..]);
    assert_eq!(
        file_checks(&text, Strategy::Auto),
        [
            true, true, true, true, true, true, true, true, true, false, true, true, true
        ]
    );
    same_as_file(lie, &text, FINITE);
}

/// `A expects φ` and a revision, against the story file (stories/belief-revision.story's
/// first part), and the ranks of an `expects` line written as the language lowers them.
#[test]
fn expects_statements_and_lines_lower_as_the_language_does() {
    let revision = |options| -> Told {
        let mut story = Story::with_options(options);
        let (holmes, watson) = (story.character("Holmes"), story.character("Watson"));
        let suspect = story.enumeration("Suspect", &["butler", "gardener", "cook"]);
        let culprit = story.enum_constant(&suspect, "culprit");
        story.actual(culprit.eq("cook")).unwrap();
        story.learns(holmes, &culprit).unwrap();
        story.expects(watson, culprit.ne("cook")).unwrap();
        story
            .expects(watson, F::knows(holmes, culprit.eq("butler")))
            .unwrap();
        let mut c = Checks(Vec::new());
        let s = &mut story;
        c.check(s, F::believes(watson, culprit.eq("butler")));
        c.check(s, F::knows(watson, culprit.eq("butler")));
        s.announce(culprit.ne("butler")).unwrap();
        c.check(s, F::believes(watson, culprit.eq("gardener")));
        c.actual(s, F::believes_value(holmes, &culprit));
        (story, c.0)
    };
    same_as_file(
        revision,
        "characters Holmes, Watson\nenum Suspect { butler, gardener, cook }\nSuspect culprit\n\
         actual culprit == cook\nHolmes learns culprit\nWatson expects culprit != cook\n\
         Watson expects knows(Holmes, culprit == butler)\n\
         check believes(Watson, culprit == butler)\ncheck knows(Watson, culprit == butler)\n\
         announce culprit != butler\ncheck believes(Watson, culprit == gardener)\n\
         check actual believes_value(Holmes, culprit)\n",
        FINITE,
    );
    // Ranks: a group's place in the line, cases in no group last; families named whole.
    let ranks = |expects: &dyn Fn(&epipen::EventBlock, epipen::Character)| {
        let mut story = Story::new();
        let (a, b) = (story.character("A"), story.character("B"));
        let x = story.int("x");
        story.announce(x.eq(0)).unwrap();
        story
            .event("e", |e| {
                e.case("a");
                e.case("f[0]");
                e.case("f[1]");
                e.case("z");
                expects(e, b);
            })
            .unwrap();
        let _ = a;
        match &story.program().statements.last().unwrap().kind {
            StmtKind::Event(event) => event.expects.clone(),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        ranks(&|e, b| e.expects(b, [vec!["f"], vec![], vec!["z", "a"]])),
        [None, Some(vec![1, 0, 0, 1])]
    );
    assert_eq!(
        ranks(&|e, b| e.expects(b, [["f[1]"], ["a"]])),
        [None, Some(vec![1, 2, 0, 2])]
    );
    // The same lines in the language.
    for (line, want) in [
        ("B expects f > z, a", [1, 0, 0, 1]),
        ("B expects f[1] > a", [1, 2, 0, 2]),
    ] {
        let text = format!(
            "characters A, B\nint x\nannounce x == 0\nevent e {{\n  a\n  f[0]\n  f[1]\n  z\n  {line}\n}}\n"
        );
        let program = epipen::compile(&text, &[]).unwrap();
        match &program.statements.last().unwrap().kind {
            StmtKind::Event(event) => assert_eq!(event.expects, [None, Some(want.to_vec())]),
            other => panic!("{other:?}"),
        }
    }
}

/// Each mistake of belief is an `Error::Invalid` in the language's words, and leaves
/// no trace.
#[test]
fn belief_mistakes_are_typed_errors() {
    let mut story = Story::new();
    let (anne, sally) = (story.character("Anne"), story.character("Sally"));
    let place = story.enumeration("Place", &["basket", "box"]);
    let marble = story.enum_constant(&place, "marble");
    let p = story.bool("p");
    story.announce(marble.eq("basket")).unwrap();
    let mut other = Story::new();
    let bob = other.character("Bob");
    let y = other.int("y");

    fn both(e: &epipen::EventBlock) -> (epipen::Case<'_>, epipen::Case<'_>) {
        (e.case("moved"), e.case("stayed"))
    }
    // An unknown case (the language: "the event `e` has no case `zz`", with a hint).
    invalid(
        story.event("move", |e| {
            both(e);
            e.expects(sally, [["stayed"], ["mvoed"]]);
        }),
        "the event `move` has no case `mvoed` (did you mean `moved`?)",
    );
    invalid(
        story.event("move", |e| {
            both(e);
            e.expects(sally, [["zz"]]);
        }),
        "the event `move` has no case `zz` (its cases are `moved` and `stayed`)",
    );
    // A case listed twice: in two groups, or in one.
    invalid(
        story.event("move", |e| {
            let (moved, stayed) = both(e);
            e.expects(sally, [[stayed], [moved], [stayed]]);
        }),
        "the case `stayed` is in two groups of Sally's `expects` line (every case is in \
         exactly one group of the line)",
    );
    invalid(
        story.event("move", |e| {
            let (moved, _) = both(e);
            e.expects(sally, [[moved, moved]]);
        }),
        "the case `moved` is named twice in one group",
    );
    // Two `expects` lines for one character.
    invalid(
        story.event("move", |e| {
            let (moved, stayed) = both(e);
            e.expects(sally, [[stayed]]);
            e.expects(sally, [[moved], [stayed]]);
        }),
        "Sally has two `expects` lines (one line orders the cases, most plausible first: \
         `a > b, c`)",
    );
    // A case of another block, a character of another story.
    invalid(
        story.event("move", |e| {
            both(e);
            let mut inner = Story::new();
            let _ = inner.event("other", |o| {
                let c = o.case("moved");
                e.expects(sally, [[c]]);
            });
        }),
        "a case of another event block",
    );
    invalid(
        story.event("move", |e| {
            both(e);
            e.expects(bob, [["stayed"]]);
        }),
        "the character belongs to another story",
    );
    // `believes` of a character of another story, and empty `believes_value`.
    invalid(
        story.check(F::believes(bob, marble.eq("box"))),
        "two different stories",
    );
    invalid(
        story.check(F::believes_value(bob, &marble)),
        "two different stories",
    );
    invalid(
        story.check(F::believes_value(anne, Vec::<epipen::Int>::new())),
        "`believes_value` needs at least one expression",
    );
    // `A expects φ`: of another story's character or expression.
    invalid(
        story.expects(bob, marble.eq("box")),
        "the character belongs to another story",
    );
    invalid(story.expects(anne, y.eq(1)), "another story");
    // Belief is a knowledge operator for `actual` and `:=`.
    invalid(
        story.actual(F::believes(anne, marble.eq("box"))),
        "`actual` describes the world itself, without knowledge operators",
    );
    invalid(
        story.assign(&p, F::believes(anne, marble.eq("box"))),
        "`:=` gives a constant a value of the world, without knowledge operators",
    );
    // Nothing above ran: the one announcement, and no event was declared.
    assert_eq!(story.program().statements.len(), 1);
    assert!(story.program().events.is_empty());
    assert_eq!(story.program().constants.len(), 2);
    // The right block runs.
    story
        .event("move", |e| {
            let (moved, stayed) = both(e);
            e.sees(anne, [[moved], [stayed]]);
            e.expects(sally, [[stayed], [moved]]);
        })
        .unwrap();
    story
        .check(F::believes(sally, marble.eq("basket")))
        .unwrap();
}
