//! `epipen run --trace`: one step per round of a `repeat`, events headed by their cases,
//! the steps of unrolled `for` loops labelled with their values (unchanged ones folded),
//! reveals as written, "more than one world", and each listed world's probability.

use super::*;

/// Muddy children with 3 children, 2 muddy: one step per round of the `repeat`, each
/// world eliminated by it names its round; the six `learns` of the nested loops, which
/// change nothing, one step labelled with the loops' values.
#[test]
fn trace_of_muddy_children_has_one_step_per_round() {
    let out = epipen(&[
        "run",
        "--trace",
        "stories/muddy-children.story",
        "--set",
        "n=3",
        "--set",
        "k=2",
    ]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let repeat = "repeat max n + 1 {checkpoint round_start simultaneously {for i in 0..n …";
    let expected = MUDDY.replace("REPEAT", repeat);
    assert_eq!(out.stdout, expected);
}

const MUDDY: &str = "start  =>  8 worlds\n\
\x20   muddy[0] = false, muddy[1] = false, muddy[2] = false\n\
\x20   muddy[0] = false, muddy[1] = false, muddy[2] = true\n\
\x20   muddy[0] = false, muddy[1] = true, muddy[2] = false\n\
\x20   muddy[0] = false, muddy[1] = true, muddy[2] = true\n\
\x20   muddy[0] = true, muddy[1] = false, muddy[2] = false\n\
\x20   muddy[0] = true, muddy[1] = false, muddy[2] = true\n\
\x20   muddy[0] = true, muddy[1] = true, muddy[2] = false\n\
\x20   muddy[0] = true, muddy[1] = true, muddy[2] = true\n\
line 11: actual all(i in 0..n: muddy[i] == (i < k))  =>  8 worlds (unchanged)\n\
line 16 (i in 0..3, j in 0..3): child[i] learns muddy[j] (6 steps)  =>  8 worlds (unchanged)\n\
line 21: announce any(i in 0..n: muddy[i])  =>  7 worlds (1 eliminated)\n\
\x20   muddy[0] = false, muddy[1] = false, muddy[2] = true\n\
\x20   muddy[0] = false, muddy[1] = true, muddy[2] = false\n\
\x20   muddy[0] = false, muddy[1] = true, muddy[2] = true\n\
\x20   muddy[0] = true, muddy[1] = false, muddy[2] = false\n\
\x20   muddy[0] = true, muddy[1] = false, muddy[2] = true\n\
\x20   muddy[0] = true, muddy[1] = true, muddy[2] = false\n\
\x20   muddy[0] = true, muddy[1] = true, muddy[2] = true\n\
round 1: child[0]: not knows_value(muddy[0])\n\
round 1: child[1]: not knows_value(muddy[1])\n\
round 1: child[2]: not knows_value(muddy[2])\n\
line 26, round 1: REPEAT  =>  4 worlds (3 eliminated)\n\
\x20   muddy[0] = false, muddy[1] = true, muddy[2] = true\n\
\x20   muddy[0] = true, muddy[1] = false, muddy[2] = true\n\
\x20   muddy[0] = true, muddy[1] = true, muddy[2] = false\n\
\x20   muddy[0] = true, muddy[1] = true, muddy[2] = true\n\
round 2: child[0]: knows_value(muddy[0])\n\
round 2: child[1]: knows_value(muddy[1])\n\
round 2: child[2]: not knows_value(muddy[2])\n\
line 26, round 2: REPEAT  =>  1 world (3 eliminated)\n\
\x20   muddy[0] = true, muddy[1] = true, muddy[2] = false\n\
round 3: child[0]: knows_value(muddy[0])\n\
round 3: child[1]: knows_value(muddy[1])\n\
round 3: child[2]: knows_value(muddy[2])\n\
-- line 26: repeat done after 3 rounds --\n\
line 26, round 3: REPEAT  =>  1 world (unchanged)\n\
-- line 35: worlds --\n\
1 possible world:\n\
\x20 muddy[0] = true, muddy[1] = true, muddy[2] = false\n\
(and that's all)\n\
line 35: worlds  =>  1 world (unchanged)\n\
-- which statement eliminated each of the 8 worlds possible at the start --\n\
\x20 muddy[0] = false, muddy[1] = false, muddy[2] = false  line 21: announce any(i in 0..n: muddy[i])\n\
\x20 muddy[0] = false, muddy[1] = false, muddy[2] = true   line 26, round 1: REPEAT\n\
\x20 muddy[0] = false, muddy[1] = true, muddy[2] = false   line 26, round 1: REPEAT\n\
\x20 muddy[0] = false, muddy[1] = true, muddy[2] = true    line 26, round 2: REPEAT\n\
\x20 muddy[0] = true, muddy[1] = false, muddy[2] = false   line 26, round 1: REPEAT\n\
\x20 muddy[0] = true, muddy[1] = false, muddy[2] = true    line 26, round 2: REPEAT\n\
\x20 muddy[0] = true, muddy[1] = true, muddy[2] = false    still possible\n\
\x20 muddy[0] = true, muddy[1] = true, muddy[2] = true     line 26, round 2: REPEAT\n\
";

/// An event without an actual world: headed by its cases, with which cases each
/// character tells apart.
#[test]
fn trace_heads_an_event_with_its_cases_and_what_each_character_tells_apart() {
    let story = story_file("trace-toss.story", EVENT_STORY);
    let out = epipen(&["run", "--trace", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stdout, EVENT_OUT);
}

/// The steps of unrolled loops: labelled with the loop's values; consecutive ones that
/// change nothing folded (`lines 4-5 (i in 0..3): 6 steps`, `i in {0, 2}` when an `if`
/// skipped a value); those that change the worlds one by one.
#[test]
fn trace_labels_loop_steps_with_their_values_and_folds_the_unchanged() {
    let story = story_file("trace-for.story", FOR_STORY);
    let out = epipen(&["run", "--trace", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stdout, FOR_OUT);
}

/// `A learns x, y` is one statement written once: its learns, which change nothing,
/// are one step, not one per value.
#[test]
fn trace_folds_the_learns_of_one_statement() {
    let story = story_file(
        "trace-learns.story",
        "characters Anne\nint A, B\nannounce A >= 0 and A <= 1 and B == A\nAnne learns A, B\n",
    );
    let out = epipen(&["run", "--trace", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.stdout,
        "start  =>  infinitely many worlds\n\
         line 3: announce A >= 0 and A <= 1 and B == A  =>  2 worlds\n\
         \x20   A = 0, B = 0\n\
         \x20   A = 1, B = 1\n\
         line 4: Anne learns A, B (2 steps)  =>  2 worlds (unchanged)\n\
         -- which statement eliminated each of the 2 worlds possible after line 3 --\n\
         \x20 A = 0, B = 0  still possible\n\
         \x20 A = 1, B = 1  still possible\n"
    );
}

/// A reveal prints as written, its loop variable replaced by its value, not the
/// aggregate it unrolls to (`ship[0] and ship[1] or ship[1] and ship[2] or …`).
#[test]
fn trace_shows_reveals_as_written() {
    let story = story_file("trace-reveals.story", REVEALS_STORY);
    let out = epipen(&["run", "--trace", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert!(out.stdout.starts_with(REVEALS_OUT), "{}", out.stdout);
    let out = epipen(&["run", &story]);
    assert_eq!(
        out.stdout,
        "A: any(c in 0..5: ship[c] and ship[(c + 1) % 5])\n\
         A: not any(c in 0..5: ship[c] and ship[(c + 2) % 5])\n"
    );
}

/// One world listed of more: "more than one possible world; the first:".
#[test]
fn more_than_one_world_reads_right() {
    let story = story_file("trace-more.story", "characters A\nint x\nworlds 1\n");
    let out = epipen(&["run", &story]);
    assert_eq!(
        out.stdout,
        "-- line 3: worlds --\nmore than one possible world; the first:\n  x = 0\n\
         (more worlds exist; raise the number after `worlds` to see more)\n"
    );
}

const EVENT_STORY: &str = "characters Anne, Bob\n\
bool lamp\n\
event toss {\n\
\x20 heads\n\
\x20 tails\n\
\x20 edge\n\
\x20 Anne sees heads | tails, edge\n\
}\n\
announce toss != edge\n\
";

const EVENT_OUT: &str = "start  =>  2 worlds\n\
\x20   lamp = false\n\
\x20   lamp = true\n\
line 3: event toss: heads | tails | edge  =>  6 worlds\n\
\x20   Anne sees heads | tails, edge; Bob sees no difference\n\
\x20   lamp = false, toss = heads\n\
\x20   lamp = true, toss = heads\n\
\x20   lamp = false, toss = tails\n\
\x20   lamp = true, toss = tails\n\
\x20   lamp = false, toss = edge\n\
\x20   lamp = true, toss = edge\n\
line 9: announce toss != edge  =>  4 worlds (2 eliminated)\n\
\x20   lamp = false, toss = heads\n\
\x20   lamp = true, toss = heads\n\
\x20   lamp = false, toss = tails\n\
\x20   lamp = true, toss = tails\n\
-- which statement eliminated each of the 2 worlds possible at the start --\n\
\x20 lamp = false  still possible\n\
\x20 lamp = true   still possible\n\
";

const FOR_STORY: &str = "characters Anne, Bob\n\
bool x[3]\n\
for i in 0..3 {\n\
\x20 Anne learns x[i]\n\
\x20 Bob learns x[i]\n\
}\n\
announce x[0]\n\
for i in 0..3 {\n\
\x20 if i != 1 { Bob learns x[i] }\n\
}\n\
for i in 0..2 {\n\
\x20 announce x[i] != x[i + 1]\n\
}\n\
";

const FOR_OUT: &str = "start  =>  8 worlds\n\
\x20   x[0] = false, x[1] = false, x[2] = false\n\
\x20   x[0] = false, x[1] = false, x[2] = true\n\
\x20   x[0] = false, x[1] = true, x[2] = false\n\
\x20   x[0] = false, x[1] = true, x[2] = true\n\
\x20   x[0] = true, x[1] = false, x[2] = false\n\
\x20   x[0] = true, x[1] = false, x[2] = true\n\
\x20   x[0] = true, x[1] = true, x[2] = false\n\
\x20   x[0] = true, x[1] = true, x[2] = true\n\
lines 4-5 (i in 0..3): 6 steps  =>  8 worlds (unchanged)\n\
line 7: announce x[0]  =>  4 worlds (4 eliminated)\n\
\x20   x[0] = true, x[1] = false, x[2] = false\n\
\x20   x[0] = true, x[1] = false, x[2] = true\n\
\x20   x[0] = true, x[1] = true, x[2] = false\n\
\x20   x[0] = true, x[1] = true, x[2] = true\n\
line 9 (i in {0, 2}): Bob learns x[i] (2 steps)  =>  4 worlds (unchanged)\n\
line 12 (i = 0): announce x[i] != x[i + 1]  =>  2 worlds (2 eliminated)\n\
\x20   x[0] = true, x[1] = false, x[2] = false\n\
\x20   x[0] = true, x[1] = false, x[2] = true\n\
line 12 (i = 1): announce x[i] != x[i + 1]  =>  1 world (1 eliminated)\n\
\x20   x[0] = true, x[1] = false, x[2] = true\n\
-- which statement eliminated each of the 8 worlds possible at the start --\n\
\x20 x[0] = false, x[1] = false, x[2] = false  line 7: announce x[0]\n\
\x20 x[0] = false, x[1] = false, x[2] = true   line 7: announce x[0]\n\
\x20 x[0] = false, x[1] = true, x[2] = false   line 7: announce x[0]\n\
\x20 x[0] = false, x[1] = true, x[2] = true    line 7: announce x[0]\n\
\x20 x[0] = true, x[1] = false, x[2] = false   line 12 (i = 1): announce x[i] != x[i + 1]\n\
\x20 x[0] = true, x[1] = false, x[2] = true    still possible\n\
\x20 x[0] = true, x[1] = true, x[2] = false    line 12 (i = 0): announce x[i] != x[i + 1]\n\
\x20 x[0] = true, x[1] = true, x[2] = true     line 12 (i = 0): announce x[i] != x[i + 1]\n\
";

const REVEALS_STORY: &str = "characters A, B\n\
bool ship[5]\n\
actual ship[1] and ship[2] and not ship[0] and not ship[3] and not ship[4]\n\
for c in 0..5 { A learns ship[c] }\n\
for k in 1..3 {\n\
\x20 A reveals any(c in 0..5: ship[c] and ship[(c + k) % 5])\n\
}\n\
";

const REVEALS_OUT: &str = "start  =>  32 worlds\n\
line 3: actual ship[1] and ship[2] and not ship[0] and not ship[3] and not ship…  =>  32 worlds (unchanged)\n\
line 4 (c in 0..5): A learns ship[c] (5 steps)  =>  32 worlds (unchanged)\n\
A: any(c in 0..5: ship[c] and ship[(c + 1) % 5])\n\
line 6 (k = 1): A reveals any(c in 0..5: ship[c] and ship[(c + k) % 5])  =>  21 worlds (11 eliminated)\n\
A: not any(c in 0..5: ship[c] and ship[(c + 2) % 5])\n\
line 6 (k = 2): A reveals any(c in 0..5: ship[c] and ship[(c + k) % 5])  =>  5 worlds (16 eliminated)\n\
\x20   ship[0] = false, ship[1] = false, ship[2] = false, ship[3] = true, ship[4] = true\n\
\x20   ship[0] = false, ship[1] = false, ship[2] = true, ship[3] = true, ship[4] = false\n\
\x20   ship[0] = false, ship[1] = true, ship[2] = true, ship[3] = false, ship[4] = false\n\
\x20   ship[0] = true, ship[1] = false, ship[2] = false, ship[3] = false, ship[4] = true\n\
\x20   ship[0] = true, ship[1] = true, ship[2] = false, ship[3] = false, ship[4] = false\n\
";

/// A story with chances: each listed world with its probability, as `worlds` prints
/// them; a `prior`, which eliminates nothing, changes them (the step lists them anew);
/// an event weighs its cases; `--json` carries them in each world's object.
#[test]
fn trace_lists_each_worlds_probability_beside_it() {
    let story = story_file(
        "trace-chances.story",
        "characters A\nint x\nannounce 1 <= x and x <= 2\nprior x\n\
         event coin {\n  heads weight x\n  tails\n  A sees heads | tails\n}\n",
    );
    let out = epipen(&["run", "--trace", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert!(
        out.stdout.starts_with(
            "start  =>  infinitely many worlds\n\
             line 3: announce 1 <= x and x <= 2  =>  2 worlds\n\
             \x20   x = 1   [1/2]\n\
             \x20   x = 2   [1/2]\n\
             line 4: prior x  =>  2 worlds\n\
             \x20   x = 1   [1/3]\n\
             \x20   x = 2   [2/3]\n\
             line 5: event coin: heads | tails  =>  4 worlds\n\
             \x20   A sees heads | tails\n\
             \x20   x = 1, coin = heads   [1/6]\n\
             \x20   x = 1, coin = tails   [1/6]\n\
             \x20   x = 2, coin = heads   [4/9]\n\
             \x20   x = 2, coin = tails   [2/9]\n"
        ),
        "{}",
        out.stdout
    );
    let out = epipen(&["run", "--trace", "--json", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let prior: serde_json::Value = (out.stdout.lines())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON lines"))
        .find(|v| v["kind"] == "step" && v["line"] == 4)
        .expect("the prior's step");
    assert_eq!(
        prior["list"],
        serde_json::json!([{"x": 1, "probability": "1/3"}, {"x": 2, "probability": "2/3"}])
    );
    // Without chances, no probabilities.
    let plain = story_file("trace-plain.story", "int x\nannounce 1 <= x and x <= 2\n");
    let out = epipen(&["run", "--trace", &plain]);
    assert!(!out.stdout.contains('['), "{}", out.stdout);
}

/// A trace that follows more worlds than it names the fate of says how many, and that
/// `--json` lists them (the command line's flag: Python names its own words).
#[test]
fn too_many_fates_say_json_lists_them() {
    let story = story_file(
        "many-fates.story",
        "characters A\nint x\nannounce 0 <= x and x < 150\nannounce x < 3\n",
    );
    let out = epipen(&["run", "--trace", &story]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout.lines().last(),
        Some(
            "(150 worlds after line 3: too many to say which statement eliminated each; --json lists them)"
        ),
        "{}",
        out.stdout
    );
    let json = epipen(&["run", "--trace", "--json", &story]);
    let fates: serde_json::Value =
        serde_json::from_str(json.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(fates["fates"].as_array().map(Vec::len), Some(150));
}
