//! The driver's terms for changed constants: shared, not copied.

use std::rc::Rc;

use super::Driver;
use crate::Options;
use crate::bdd::BddBackend;

/// How many nodes a walk of each changed constant's term visits (a shared subterm once
/// per term).
fn term_nodes(story: &str) -> usize {
    let program = Rc::new(epipen_lower::compile(story, &[]).expect("the story compiles"));
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
        driver
            .statement(s, &mut |_| {})
            .expect("the statement runs");
    }
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
