//! The driver's work counted without a clock: changed constants' terms shared, not
//! copied; the BDD nodes the families and phrasings make, against a table
//! (`the_families_make_no_more_nodes_than_they_did`); a plan followed step by step.

use std::rc::Rc;

use super::Driver;
use crate::bdd::BddBackend;
use crate::{History, Options};

/// `story` with `sets` run on the BDD backend, each report given to `sink`.
fn on_bdds(
    story: &str,
    sets: &[(String, i64)],
    sink: &mut dyn FnMut(crate::Report),
) -> Driver<BddBackend> {
    on_bdds_with(History::Kept, story, sets, sink)
}

/// `story` compiled with `sets`, and the options of a run that keeps refuted hints and
/// forgets the histories where the program allows it when `history` asks for it (as
/// `epipen check` asks).
fn compiled(
    history: History,
    story: &str,
    sets: &[(String, i64)],
) -> (Rc<crate::ir::Program>, Options) {
    let program = Rc::new(epipen_lower::compile(story, sets).expect("the story compiles"));
    let asked = Options {
        history,
        keep_refuted_hints: true,
        ..Options::default()
    };
    let options = Options {
        history: crate::choice::history(&program, &asked),
        ..asked
    };
    (program, options)
}

/// [`on_bdds`], the histories forgotten where the program allows it when `history`
/// asks for it (as `epipen check` asks).
fn on_bdds_with(
    history: History,
    story: &str,
    sets: &[(String, i64)],
    sink: &mut dyn FnMut(crate::Report),
) -> Driver<BddBackend> {
    let (program, options) = compiled(history, story, sets);
    let backend = BddBackend::new(program.clone(), &options).expect("bools");
    ran(&program, &options, backend, sink)
}

/// A driver of `backend` that has run every statement of `program`, each report given
/// to `sink`.
fn ran<B: super::Backend>(
    program: &Rc<crate::ir::Program>,
    options: &Options,
    backend: B,
    sink: &mut dyn FnMut(crate::Report),
) -> Driver<B> {
    let standbys = crate::choice::Standbys::new(program.clone(), options);
    let mut driver = Driver::new(program.clone(), options, backend, standbys).expect("a driver");
    for s in &program.statements {
        driver.statement(s, sink).expect("the statement runs");
    }
    driver
}

/// How many nodes a walk of each changed constant's term visits (a shared subterm once
/// per term).
fn term_nodes(story: &str) -> usize {
    let driver = on_bdds(story, &[], &mut |_| {});
    let terms = driver.terms.clone().expect("constants changed");
    let mut nodes = 0;
    for t in terms.iter() {
        t.walk(&mut |_| {
            nodes += 1;
            Ok::<_, ()>(())
        })
        .expect("no error");
    }
    nodes
}

/// A change whose value reads old values twice (`x, y := y, x != y`; an event's change,
/// `if o == c0 then not x else x`) shares the old terms: 20 changes make a few nodes per
/// change, where copies made 2^20 (and 2^40 at 40 changes: out of memory).
#[test]
fn changes_that_read_old_values_twice_share_them() {
    let swap = "bool x, y\nfor s in 0..20 { x, y := y, x != y }\n";
    let nodes = term_nodes(swap);
    assert!(nodes < 20 * 10, "{nodes} nodes");
    let flip = "characters a\nbool x, y\nannounce y and not x\n\
                for s in 0..20 {\n  event e {\n    c0 if y then x := not x\n    c1 if not y\n    a sees c0 | c1\n  }\n}\n";
    let nodes = term_nodes(flip);
    assert!(nodes < 20 * 20, "{nodes} nodes");
}

/// `story` with `sets` run on the BDD backend, and how many of its checks held and
/// failed.
fn checked_on_bdds(story: &str, sets: &[(String, i64)]) -> (Driver<BddBackend>, usize, usize) {
    let (mut held, mut failed) = (0, 0);
    let driver = on_bdds(story, sets, &mut |r| match r {
        crate::Report::CheckHolds { .. } => held += 1,
        crate::Report::CheckFailed { .. } => failed += 1,
        _ => {}
    });
    (driver, held, failed)
}

/// Each check's and hint's verdict running `story` with `sets` on BDDs, the failing
/// world left out (with the histories forgotten it is named by its current values
/// only), and whether the histories were forgotten.
fn verdicts_on_bdds(history: History, story: &str, sets: &[(String, i64)]) -> (Vec<String>, bool) {
    let mut verdicts = Vec::new();
    let driver = on_bdds_with(history, story, sets, &mut |r| {
        verdicts.extend(verdict(&r));
    });
    (verdicts, driver.forgetting == History::ForgottenWhereUnread)
}

/// A check's verdict as the forgetting tests compare them (None: not a check's report).
fn verdict(report: &crate::Report) -> Option<String> {
    match report {
        crate::Report::CheckHolds { span } => Some(format!("{span:?} holds")),
        crate::Report::CheckFailed { span, .. } => Some(format!("{span:?} fails")),
        crate::Report::Vacuous { span, left_none } => {
            Some(format!("{span:?} vacuous after {left_none:?}"))
        }
        _ => None,
    }
}

/// The prisoners (`stories/prisoners.story`) in three variants: as written, with
/// checks asked of every world too (failing ones among them), and with a counter who
/// sees less (the light only, not whether he is in).
fn prisoners_variants() -> [String; 3] {
    let story = include_str!("../../../../stories/prisoners.story");
    let of_every_world = story.replace(
        "check actual knows(counter, all(p in 0..n: counted[p])) == (k == n - 1 and turn == 1)",
        "check actual knows(counter, all(p in 0..n: counted[p])) == (k == n - 1 and turn == 1)\n    \
         check knows(counter, counted[0]) or knows(counter, not light)\n    \
         check not knows(counter, all(p in 0..n: counted[p]))",
    );
    let sees_less = story.replace(
        "counter sees lit | dark | others",
        "counter sees lit | others",
    );
    assert_ne!(of_every_world, story);
    assert_ne!(sees_less, story);
    [story.to_string(), of_every_world, sees_less]
}

/// The prisoners with their histories forgotten (docs/encoding.md, "Forgetting
/// histories") give every check the verdict they give with them, at n = 3 … 8: the
/// story's checks, the same asked of every world (`check`, failing ones among them),
/// and a counter who sees less (the light only, not whether he is in).
#[test]
fn forgetting_the_histories_keeps_every_verdict() {
    let variants = prisoners_variants();
    for variant in &variants {
        for n in 3..=8 {
            let sets = [("n".to_string(), n)];
            let (kept, forgot_none) = verdicts_on_bdds(History::Kept, variant, &sets);
            let (forgot, forgot_some) =
                verdicts_on_bdds(History::ForgottenWhereUnread, variant, &sets);
            assert!(
                !forgot_none && forgot_some,
                "n = {n}: forgotten only when asked"
            );
            assert_eq!(kept, forgot, "n = {n}: the verdicts of\n{variant}");
        }
    }
    // Some of them fail: the comparison compares failures too.
    let (verdicts, _) = verdicts_on_bdds(History::Kept, &variants[1], &[("n".into(), 4)]);
    assert!(verdicts.iter().any(|v| v.ends_with("fails")));
}

/// Each check's verdict running `story` with `sets` on explicit worlds (listed within
/// the forced budget), as [`verdicts_on_bdds`] gives them, and whether the histories
/// were forgotten.
fn verdicts_on_explicit(
    history: History,
    story: &str,
    sets: &[(String, i64)],
) -> (Vec<String>, bool) {
    let mut verdicts = Vec::new();
    let driver = on_explicit(history, story, sets, &mut |r| verdicts.extend(verdict(&r)));
    (verdicts, driver.forgetting == History::ForgottenWhereUnread)
}

/// [`on_bdds_with`] on explicit worlds (listed within the forced budget).
fn on_explicit(
    history: History,
    story: &str,
    sets: &[(String, i64)],
    sink: &mut dyn FnMut(crate::Report),
) -> Driver<crate::explicit::ExplicitBackend> {
    let (program, options) = compiled(history, story, sets);
    let Ok(backend) = crate::explicit::ExplicitBackend::new(
        program.clone(),
        &options,
        crate::limits::Size::Forced,
    ) else {
        panic!("the explicit backend lists the worlds");
    };
    ran(&program, &options, backend, sink)
}

/// The prisoners on explicit worlds with their histories forgotten (each event's
/// worlds merged where they agree on the values and on what each character saw) give
/// the verdicts the explicit worlds give with them (n = 3, 4) and BDDs give with them
/// (n = 3 … 6), in the three variants of
/// [`forgetting_the_histories_keeps_every_verdict`].
#[test]
fn forgetting_on_explicit_worlds_keeps_every_verdict() {
    for variant in &prisoners_variants() {
        for n in 3..=6 {
            let sets = [("n".to_string(), n)];
            let (forgot, forgot_some) =
                verdicts_on_explicit(History::ForgottenWhereUnread, variant, &sets);
            assert!(forgot_some, "n = {n}: forgotten");
            let (on_bdds, _) = verdicts_on_bdds(History::Kept, variant, &sets);
            assert_eq!(on_bdds, forgot, "n = {n}: the verdicts of\n{variant}");
            if n <= 4 {
                let (kept, forgot_none) = verdicts_on_explicit(History::Kept, variant, &sets);
                assert!(!forgot_none, "n = {n}: forgotten only when asked");
                assert_eq!(kept, forgot, "n = {n}: the verdicts of\n{variant}");
            }
        }
    }
}

/// A program that reads its past keeps its history whatever the command allows: a
/// `worlds` statement, `at(c, …)`, an event's name after it happened, `learns`.
#[test]
fn a_program_that_reads_its_past_keeps_its_history() {
    let story = include_str!("../../../../stories/prisoners.story");
    for (from, to) in [
        ("actual not light", "worlds 3\nactual not light"),
        ("actual not light", "counter learns light\nactual not light"),
        (
            "# SMCDEL's prisonGoal",
            "check actual interview == lit or interview != lit\n# SMCDEL's prisonGoal",
        ),
        (
            "for k in 1..n {",
            "checkpoint start\nfor k in 1..n {\n  check at(start, not light)",
        ),
    ] {
        let variant = story.replace(from, to);
        assert_ne!(variant, story);
        let (_, forgot) = verdicts_on_bdds(History::ForgottenWhereUnread, &variant, &[]);
        assert!(!forgot, "forgotten in\n{variant}");
    }
}

/// How many nodes the BDD backend's manager held at most running `story` with `sets`,
/// and how many of its checks held and failed.
fn bdd_nodes(story: &str, sets: &[(String, i64)]) -> (usize, usize, usize) {
    let (driver, held, failed) = checked_on_bdds(story, sets);
    (driver.backend.nodes_made(), held, failed)
}

/// The prisoners' counter learned what he saw at each interview (expressions over the
/// occurrences). `check actual knows(counter, …) == (…)` asks his knowledge at the
/// actual world only, by his class there, as `check actual knows(…)` does (the
/// comparison of two formulas made the whole set: 27 s at n = 10, 2 s now); and his
/// knowledge as a set takes one quantification over primed copies, where splitting a κ
/// of thousands of nodes into his classes took 7.7 s at n = 8 (0.7 s now). Nodes, not
/// seconds: the same in debug and release. At n = 7 each made 2.4 million before, and
/// stays at the collector's first threshold (2^18) now.
#[test]
fn the_counters_knowledge_stays_small_at_the_actual_world_and_as_a_set() {
    let story = include_str!("../../../../stories/prisoners.story");
    let sets = [("n".to_string(), 7)];
    let (at_actual, held, failed) = bdd_nodes(story, &sets);
    assert_eq!((held, failed), (2 * 6 + 1, 0), "the story's checks");
    let as_set = story.replace(
        "check actual knows(counter, all(p in 0..n: counted[p])) == (k == n - 1 and turn == 1)",
        "check knows(counter, all(p in 0..n: counted[p])) or not knows(counter, all(p in 0..n: counted[p]))",
    );
    assert_ne!(as_set, story);
    let (as_set, held, failed) = bdd_nodes(&as_set, &sets);
    assert_eq!((held, failed), (2 * 6 + 1, 0), "the checks of the set");
    assert!(
        at_actual < 400_000 && as_set < 400_000,
        "nodes: at the actual world {at_actual}, as a set {as_set}"
    );
}

/// The dining cryptographers' "at most one paid" (`all(i in 0..n, j in i + 1..n: not
/// (paid[i] and paid[j]))`, n² / 2 members) is conjoined two by two, then with κ once:
/// one by one into κ, each member a walk of κ and a new κ, it made 223 000 nodes at
/// n = 100 (and took 60 s at n = 800, 4.8 s now); 65 000 now.
#[test]
fn at_most_one_of_many_is_conjoined_two_by_two() {
    let story = include_str!("../../../../stories/dining-cryptographers.story");
    let (nodes, held, failed) = bdd_nodes(story, &[("n".to_string(), 100)]);
    assert_eq!((held, failed), (2, 0), "the story's checks");
    assert!(nodes < 120_000, "{nodes} nodes");
}

/// The field's families and the stories issue 33 measured, on the BDD backend at sizes a
/// debug build runs in about a second: how many nodes each makes (collected ones
/// included), against what it made when this test was written (2026-11-27, 827fc11)
/// with room for a half more, and its answer (the checks that held, the worlds left).
/// Two regressions went unseen for two sessions because only clocks measured these
/// runs (the prisoners 6×, the dining cryptographers 15×); node counts are the same on
/// every machine, in debug and in release.
/// The nodes the prisoners made at n = 30 with their histories forgotten when that was
/// added to [`the_families_make_no_more_nodes_than_they_did`].
const FORGETTING_PRISONERS_30: u64 = 433_778;

#[test]
fn the_families_make_no_more_nodes_than_they_did() {
    type Family<'s> = (&'s str, &'s str, &'s [(&'s str, i64)], usize, u64, u64);
    let families: [Family; 11] = [
        // name, story, sets, checks held, worlds left, nodes made then
        (
            "muddy children",
            include_str!("../../../../stories/muddy-children.story"),
            &[("n", 100), ("k", 100)],
            0,
            1,
            15_151,
        ),
        (
            "dining cryptographers",
            include_str!("../../../../stories/dining-cryptographers.story"),
            &[("n", 100)],
            2,
            200,
            65_375,
        ),
        (
            "drinking logicians",
            include_str!("../../../../stories/drinking-logicians.story"),
            &[("n", 200)],
            0,
            1,
            26_004,
        ),
        (
            "What Sum",
            include_str!("../../../../stories/what-sum.story"),
            &[("B", 50)],
            0,
            330,
            6_485,
        ),
        (
            "Sum and Product",
            include_str!("../../../../stories/sum-and-product.story"),
            &[],
            0,
            1,
            52_075,
        ),
        (
            "prisoners",
            include_str!("../../../../stories/prisoners.story"),
            &[("n", 6)],
            11,
            60_466_176,
            97_278,
        ),
        (
            "gossip",
            include_str!("../../../../stories/gossip.story"),
            &[],
            1,
            20_736,
            98_785,
        ),
        (
            "Russian cards",
            include_str!("../../../../stories/russian-cards.story"),
            &[],
            4,
            4,
            4_513,
        ),
        (
            "battleship",
            include_str!("../../../../stories/battleship.story"),
            &[],
            5,
            72,
            2_359,
        ),
        // Added 2026-12-06 (issue 42): "I know whether I am muddy" as a teacher writes it.
        (
            "muddy children, the teacher's phrasing",
            include_str!("../../../../bench/phrasings/muddy-teacher.story"),
            &[("n", 100), ("k", 100)],
            0,
            1,
            12_967,
        ),
        (
            "Cheryl's age",
            include_str!("../../../../stories/cheryls-age.story"),
            &[],
            0,
            1,
            21_565,
        ),
    ];
    let mut grown = Vec::new();
    for (name, story, sets, checks, worlds, then) in families {
        let sets: Vec<(String, i64)> = sets.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let (mut driver, held, failed) = checked_on_bdds(story, &sets);
        let state = driver.state.clone();
        let left = super::Listing::count(&mut driver.backend, &state, 0);
        assert!(
            matches!(left, Ok(crate::WorldCount::Exactly(n)) if n == worlds),
            "{name}: {left:?} worlds left, not {worlds}"
        );
        assert_eq!((held, failed), (checks, 0), "{name}: the checks");
        let made = driver.backend.nodes_ever();
        if 2 * made > 3 * then {
            grown.push(format!("{name}: {made} nodes, {then} on 2026-11-27"));
        }
    }
    // Added 2026-12-07 (issue 42): the histories forgotten (`epipen check`), the
    // occurrences one-hot. At n = 6 the prisoners made 97 278 nodes with them.
    type Forgetting<'s> = (&'s str, &'s str, &'s [(&'s str, i64)], usize, u64);
    let forgetting: [Forgetting; 1] = [(
        "prisoners, histories forgotten",
        include_str!("../../../../stories/prisoners.story"),
        &[("n", 30)],
        59,
        FORGETTING_PRISONERS_30,
    )];
    for (name, story, sets, checks, then) in forgetting {
        let sets: Vec<(String, i64)> = sets.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        let (mut held, mut failed) = (0, 0);
        let driver = on_bdds_with(
            History::ForgottenWhereUnread,
            story,
            &sets,
            &mut |r| match r {
                crate::Report::CheckHolds { .. } => held += 1,
                crate::Report::CheckFailed { .. } => failed += 1,
                _ => {}
            },
        );
        assert_eq!(driver.forgetting, History::ForgottenWhereUnread, "{name}");
        assert_eq!((held, failed), (checks, 0), "{name}: the checks");
        let made = driver.backend.nodes_ever();
        if 2 * made > 3 * then {
            grown.push(format!("{name}: {made} nodes, {then} on 2026-12-07"));
        }
    }
    // Fewer nodes than then is welcome: lower the figure above to what it makes now.
    assert!(
        grown.is_empty(),
        "more work than before:\n{}",
        grown.join("\n")
    );
}

/// Equivalent phrasings cost the same (issue 42): muddy children with the father's
/// words and the end written with `count`, and as a teacher writes "I know whether I am
/// muddy" (`knows(A, φ) or knows(A, not φ)`), make at most twice the BDD nodes of
/// `stories/muddy-children.story` at n = 250, where before the formulas were normalised
/// (`crate::normal`) the count phrasing made 18 463 132 nodes against 78 812 (234×).
#[test]
fn phrasings_of_muddy_children_make_as_many_nodes_as_the_textbooks() {
    let sets = [("n".to_string(), 250), ("k".to_string(), 250)];
    let nodes = |story: &str| {
        let (mut driver, held, failed) = checked_on_bdds(story, &sets);
        assert_eq!((held, failed), (0, 0));
        let state = driver.state.clone();
        let left = super::Listing::count(&mut driver.backend, &state, 0);
        assert!(
            matches!(left, Ok(crate::WorldCount::Exactly(1))),
            "{left:?}"
        );
        driver.backend.nodes_ever()
    };
    let textbook = nodes(include_str!("../../../../stories/muddy-children.story"));
    for (name, story) in [
        (
            "count",
            include_str!("../../../../bench/phrasings/muddy-count.story"),
        ),
        (
            "teacher",
            include_str!("../../../../bench/phrasings/muddy-teacher.story"),
        ),
    ] {
        let made = nodes(story);
        assert!(
            made <= 2 * textbook,
            "{name}: {made} nodes, the textbook's {textbook}"
        );
    }
}

/// A plan followed step by step (what the playground draws): the model after each step,
/// the actual world then, and the state left as it was.
#[test]
fn a_plan_is_followed_step_by_step_and_the_state_left_as_it_was() {
    let story = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../stories/door-mat.story"
    ))
    .expect("the story");
    let mut plans = Vec::new();
    let mut driver = on_bdds(&story, &[], &mut |r| {
        if let crate::Report::Plan { plans: p, .. } = r {
            plans.push(p);
        }
    });
    let coordinated = plans[1][0].clone();
    let names: Vec<&str> = (coordinated.iter())
        .map(|a| driver.program.actions[a.0].name.as_str())
        .collect();
    assert_eq!(names, ["tell", "try_take"]);
    let before = driver.state.clone();
    let steps = driver
        .follow(&coordinated, 64)
        .expect("the plan is followed");
    assert!(
        Rc::ptr_eq(&before, &driver.state),
        "the state is left as it was"
    );
    let worlds: Vec<usize> = (steps.iter())
        .map(|s| s.model.as_ref().expect("a model").worlds.len())
        .collect();
    // Anne's announcement leaves the world where the key is under the mat; Bob takes it.
    assert_eq!(worlds, [1, 1]);
    let actual: Vec<String> = (steps.iter())
        .map(|s| crate::worlds::world_line(&driver.program, &s.actual.as_ref().unwrap().0))
        .collect();
    assert_eq!(
        actual,
        [
            "key_under_mat = true, bob_has_key = false",
            "key_under_mat = false, bob_has_key = true"
        ]
    );
}

/// The explicit backend keeps a knowledge operator's table for the running statement
/// by the address of its formula: another formula made where an evaluated one was is
/// evaluated anew, not given the first one's table (as a plan's search or a verdict
/// may make and drop formulas while a statement runs).
#[test]
fn a_formula_made_where_another_was_is_evaluated_anew() {
    use crate::driver::semantics::Semantics;
    use crate::ir::{ExprKind, StmtKind, Value};
    let story = "characters A\nint x\nannounce 0 <= x and x <= 3\nA learns x % 2\n";
    let mut driver = on_explicit(History::Kept, story, &[], &mut |_| {});
    // `knows(A, x == 1)` (false: A learned only the parity) and `knows(A, x < 4)`.
    let asked = format!("{story}announce knows(A, x == 1)\nannounce knows(A, x < 4)\n");
    let asked = epipen_lower::compile(&asked, &[]).expect("the story compiles");
    let formulas: Vec<_> = (asked.statements.iter().rev().take(2))
        .map(|s| match &s.kind {
            StmtKind::Announce { formula, .. } => formula.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    let (below_four, is_one) = (&formulas[0], &formulas[1]);
    let mut knows = is_one.clone();
    let point = driver.backend.point(&[Value::Int(1)]).expect("a world");
    let state = driver.state.clone();
    let set = (driver.backend.formula(&knows, &state, &[])).expect("evaluated");
    assert!(!driver.backend.holds(&set, &point).expect("a verdict"));
    // The other formula in the same place (the box of `knows`'s operand, kept).
    let (ExprKind::Knows { formula: slot, .. }, ExprKind::Knows { formula: other, .. }) =
        (&mut knows.kind, &below_four.kind)
    else {
        panic!("knowledge formulas");
    };
    let at = std::ptr::from_ref(&**slot);
    **slot = (**other).clone();
    assert_eq!(std::ptr::from_ref(&**slot), at, "the same address");
    let set = (driver.backend.formula(&knows, &state, &[])).expect("evaluated");
    assert!(driver.backend.holds(&set, &point).expect("a verdict"));
}

/// A backend that rebuilds states lists a plan's state itself ([`Rebuilding::tables`]):
/// the frame, its key, its classes and the representatives' rows are those the search
/// reads from the listed model, at a state with changed constants, beliefs and events.
#[test]
fn a_state_the_backend_lists_itself_is_its_listed_model() {
    use super::frame::Frame;
    use super::plan::{own_numbers, with_own_values};
    use super::{Rebuilding, Views};
    let story = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../stories/sally-anne-spying.story"
    ))
    .expect("the story");
    let mut driver = on_explicit(History::Kept, &story, &[], &mut |_| {});
    let (state, terms) = (driver.state.clone(), driver.terms.clone().expect("changes"));
    let (actual, point) = driver.actual.clone().expect("an actual world");
    let own = driver.own_constants();
    let cap = 1 << 14;
    let tables = driver
        .backend
        .tables(&state, cap, Some(&terms), &own, Some(&point));
    let tables = tables
        .expect("listed")
        .expect("the backend lists the state");
    let model = (driver.model_of(&state, cap, Views::Grouped)).expect("listed");
    let model = model.expect("a model");
    let shown: Vec<_> = (model.worlds.iter())
        .map(|w| driver.shown(w).expect("64-bit values"))
        .collect();
    let at = model.worlds.iter().position(|w| w.0 == actual);
    assert!(model.worlds.len() > 2, "{} worlds", model.worlds.len());
    assert_eq!(tables.actual, at);
    assert!(at.is_some());
    let listed = Frame::of_model(&model, |w, sig| own_numbers(&shown[w].0, &own, sig));
    let k = own.len();
    let by_backend = Frame::of_tables(&tables, |w, sig| {
        sig.extend_from_slice(&tables.own[w * k..(w + 1) * k])
    });
    assert_eq!(by_backend.key(tables.actual), listed.key(at));
    let labels = listed.refine();
    assert_eq!(by_backend.refine(), labels);
    let (_, reps) = listed.quotient(&labels, at, true);
    let rows = Rebuilding::rows(&mut driver.backend, &state, &reps);
    let rows = with_own_values(rows, &tables.own, &own, &reps);
    let expected: Vec<_> = reps.iter().map(|&w| shown[w].0.clone()).collect();
    assert_eq!(rows, expected);
    // The key tells the worlds' values apart: another actual world, another key.
    let other = (0..model.worlds.len()).find(|&w| Some(labels[w]) != at.map(|a| labels[a]));
    assert_ne!(by_backend.key(other), listed.key(at));
}
