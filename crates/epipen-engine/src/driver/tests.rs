//! The driver's terms for changed constants: shared, not copied.

use std::rc::Rc;

use super::Driver;
use crate::Options;
use crate::bdd::BddBackend;

/// `story` with `sets` run on the BDD backend, each report given to `sink`.
fn on_bdds(
    story: &str,
    sets: &[(String, i64)],
    sink: &mut dyn FnMut(crate::Report),
) -> Driver<BddBackend> {
    let program = Rc::new(epipen_lower::compile(story, sets).expect("the story compiles"));
    let options = Options::default();
    let backend = BddBackend::new(program.clone(), &options).expect("bools");
    let mut driver = Driver::new(
        program.clone(),
        &options,
        backend,
        crate::choice::Standbys::new(program.clone(), &options),
    )
    .expect("a driver");
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

/// How many nodes the BDD backend's manager held at most running `story` with `sets`,
/// and how many of its checks held and failed.
fn bdd_nodes(story: &str, sets: &[(String, i64)]) -> (usize, usize, usize) {
    let (mut held, mut failed) = (0, 0);
    let driver = on_bdds(story, sets, &mut |r| match r {
        crate::Report::CheckHolds { .. } => held += 1,
        crate::Report::CheckFailed { .. } => failed += 1,
        _ => {}
    });
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
