//! The stories of bench/phrasings/ (issue 21: the same puzzle phrased in different
//! ways): each one's answer pinned on every backend that takes it, and every phrasing of
//! a family giving the same worlds. docs/benchmarks.md times them; here only the answers.

use super::{ROOT, epipen};

/// `epipen --backend B worlds --limit L bench/phrasings/NAME.story`, which must succeed.
fn worlds(backend: &str, name: &str, limit: usize) -> String {
    let path = format!("bench/phrasings/{name}.story");
    let limit = limit.to_string();
    let out = epipen(&["--backend", backend, "worlds", "--limit", &limit, &path]);
    assert_eq!(out.code, 0, "{backend} {name}: {}", out.stderr);
    out.stdout
}

/// The names of the bools that are true in the first world of a `worlds` output.
fn trues(output: &str) -> Vec<String> {
    let first = output.lines().nth(1).expect("a first world");
    first
        .split(", ")
        .filter_map(|item| item.trim().strip_suffix(" = true").map(str::to_string))
        .collect()
}

fn names(prefix: &str, indices: impl IntoIterator<Item = usize>) -> Vec<String> {
    indices
        .into_iter()
        .map(|i| format!("{prefix}[{i}]"))
        .collect()
}

/// Every phrasing of a family on every backend named gives `expected`.
#[track_caller]
fn pin(family: &[&str], backends: &[&str], limit: usize, expected: &dyn Fn(&str) -> bool) {
    for name in family {
        for backend in backends {
            let out = worlds(backend, name, limit);
            assert!(expected(&out), "{backend} {name}:\n{out}");
        }
    }
}

#[test]
fn one_count_over_256_bools() {
    // The 42 mines of 256 cells: the first world (canonical order) has them last.
    for name in ["count256", "count256-sum"] {
        for backend in ["auto", "bdd"] {
            let out = worlds(backend, name, 1);
            assert!(
                out.starts_with("more than one possible world; the first:\n"),
                "{out}"
            );
            assert_eq!(trues(&out), names("b", 214..256), "{backend} {name}");
        }
    }
}

#[test]
fn minesweeper_16_by_16_with_40_mines_and_30_clicks() {
    let family = ["minesweeper-count", "minesweeper-sum", "minesweeper-bounds"];
    let first = names(
        "mine",
        [
            22, 28, 30, 57, 65, 90, 92, 116, 119, 125, 127, 154, 177, 178, 187, 189, 213, 216, 221,
            222, 224, 225, 226, 227, 228, 229, 236, 237, 240, 241, 242, 243, 244, 245, 249, 251,
            252, 253, 254, 255,
        ],
    );
    let reference = worlds("bdd", family[0], 10);
    assert_eq!(trues(&reference), first);
    assert!(reference.starts_with("more than 10 possible worlds; the first 10:\n"));
    pin(&family, &["auto", "bdd"], 10, &|out| out == reference);
}

#[test]
fn dining_cryptographers_200_with_a_count_law_and_the_n_by_n_check() {
    let family = ["dining-count", "dining-pairwise", "dining-sum"];
    // The first world: the last cryptographer paid, the even coins and the last fell
    // heads; 400 worlds in all (who paid, or none, times the coins' parity).
    let mut first = names("paid", [199]);
    first.extend(names("coin", (2..200).step_by(2).chain([199])));
    // One run each (the n x n check takes seconds in a debug build): its three checks
    // hold, and its `worlds 3` shows the same first world. Auto runs them on BDDs.
    for (name, backend) in family
        .iter()
        .map(|n| (*n, "bdd"))
        .chain([("dining-count", "auto")])
    {
        let path = format!("bench/phrasings/{name}.story");
        let out = epipen(&["--backend", backend, "run", &path]);
        assert_eq!(out.code, 0, "{backend} {name}: {}", out.stderr);
        let (said, shown) = out
            .stdout
            .split_once("-- line 50: worlds --\n")
            .expect("worlds 3");
        assert!(
            said.ends_with("check line 35: holds\ncheck line 42: holds\ncheck line 48: holds\n"),
            "{backend} {name}: {said}"
        );
        assert!(shown.starts_with("more than 3 possible worlds; the first 3:\n"));
        assert_eq!(trues(shown), first, "{backend} {name}");
    }
    let count = epipen(&["sweep", "bench/phrasings/dining-count.story"]);
    assert!(count.stdout.contains("\n400 worlds "), "{}", count.stdout);
}

#[test]
fn muddy_children_40() {
    let expected = format!(
        "1 possible world:\n  {}\n(and that's all)\n",
        (0..40)
            .map(|i| format!("muddy[{i}] = true"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    pin(
        &["muddy-any", "muddy-count", "muddy-sum", "muddy-teacher"],
        &["auto", "bdd"],
        10,
        &|out| out == expected,
    );
}

#[test]
fn battleship_4_ships_on_4_by_4() {
    let placements = [
        ([0, 2, 0, 3], [0, 0, 3, 1], [false, true, true, false]),
        ([0, 2, 3, 0], [0, 0, 1, 3], [false, true, false, true]),
        ([2, 0, 0, 3], [0, 0, 3, 1], [true, false, true, false]),
        ([2, 0, 3, 0], [0, 0, 1, 3], [true, false, false, true]),
    ];
    let line = |(row, col, vert): &([i32; 4], [i32; 4], [bool; 4])| {
        let mut items = Vec::new();
        for (name, values) in [
            ("row", row.map(|v| v.to_string())),
            ("col", col.map(|v| v.to_string())),
        ] {
            for (i, v) in values.iter().enumerate() {
                items.push(format!("{name}[{i}] = {v}"));
            }
        }
        for (i, v) in vert.iter().enumerate() {
            items.push(format!("vert[{i}] = {v}"));
        }
        items.join(", ")
    };
    let plain = format!(
        "4 possible worlds:\n{}(and that's all)\n",
        placements
            .iter()
            .map(|p| format!("  {}\n", line(p)))
            .collect::<String>()
    );
    let backends = ["auto", "explicit", "z3"];
    pin(
        &["battleship-plain", "battleship-if"],
        &backends,
        10,
        &|out| out == plain,
    );
    // The cells' phrasing names the covered cells too: the same fleet, every time.
    let ship = "ship[0] = true, ship[1] = true, ship[2] = false, ship[3] = true, ship[4] = false, \
                ship[5] = false, ship[6] = false, ship[7] = true, ship[8] = true, ship[9] = false, \
                ship[10] = false, ship[11] = true, ship[12] = true, ship[13] = true, ship[14] = true, \
                ship[15] = true";
    let cells = format!(
        "4 possible worlds:\n{}(and that's all)\n",
        placements
            .iter()
            .map(|p| format!("  {}, {ship}\n", line(p)))
            .collect::<String>()
    );
    pin(&["battleship-cells"], &backends, 10, &|out| out == cells);
}

#[test]
fn sum_and_product_at_1000() {
    let backends = ["auto", "explicit", "z3"];
    let answer = "1 possible world:\n  x = 4, y = 13\n(and that's all)\n";
    pin(
        &["sum-product-bounds", "sum-product-story"],
        &backends,
        10,
        &|out| out == answer,
    );
    // Sum and product named as constants: Z3 takes more than a minute (docs/benchmarks.md).
    let named = "1 possible world:\n  x = 4, y = 13, s = 17, p = 52\n(and that's all)\n";
    pin(&["sum-product-named"], &["auto", "explicit"], 10, &|out| {
        out == named
    });
}

#[test]
fn cheryl_three_ways() {
    let backends = ["auto", "explicit", "z3"];
    let answer = "1 possible world:\n  month = 7, day = 16\n(and that's all)\n";
    pin(&["cheryl-or", "cheryl-table"], &backends, 10, &|out| {
        out == answer
    });
    let date = "1 possible world:\n  date = 716\n(and that's all)\n";
    pin(&["cheryl-date"], &backends, 10, &|out| out == date);
}

/// Every story of bench/phrasings/ is pinned above.
#[test]
fn every_phrasing_is_pinned() {
    let source = include_str!("phrasings.rs");
    let dir = std::path::Path::new(ROOT).join("bench/phrasings");
    for entry in std::fs::read_dir(dir).expect("bench/phrasings") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "story") {
            let name = path.file_stem().unwrap().to_str().unwrap();
            assert!(
                source.contains(&format!("\"{name}\"")),
                "{name} is not pinned"
            );
        }
    }
}

/// Issue 33's slow path 2: bools defined from one call's outcome after the event (the
/// BDD backend conjoins the definitions into κ one by one: it hung at n = 5 before).
/// One world per call, the same on every backend that takes the story in time (the
/// explicit backend lists 2^25 combinations of the later bools: not asked).
#[test]
fn defined_after_one_call() {
    let first = worlds("auto", "defined-after-call", 20);
    assert!(first.starts_with("10 possible worlds:\n"), "{first}");
    let calls: Vec<&str> = first
        .lines()
        .filter_map(|l| l.find("call = ").map(|at| &l[at..]))
        .collect();
    let mut expected = Vec::new();
    for i in 0..5 {
        for j in i + 1..5 {
            expected.push(format!("call = c[{i}, {j}]"));
        }
    }
    assert_eq!(calls, expected);
    for backend in ["bdd", "z3"] {
        assert_eq!(
            worlds(backend, "defined-after-call", 20),
            first,
            "{backend}"
        );
    }
}
