//! `epipen run --trace`: one step per round of a `repeat`, events headed by their cases,
//! the steps of unrolled `for` loops labelled with their values (unchanged ones folded),
//! reveals as written, "more than one world", and each listed world's probability.

use indoc::indoc;

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

const MUDDY: &str = indoc! {"
    start  =>  8 worlds
        muddy[0] = false, muddy[1] = false, muddy[2] = false
        muddy[0] = false, muddy[1] = false, muddy[2] = true
        muddy[0] = false, muddy[1] = true, muddy[2] = false
        muddy[0] = false, muddy[1] = true, muddy[2] = true
        muddy[0] = true, muddy[1] = false, muddy[2] = false
        muddy[0] = true, muddy[1] = false, muddy[2] = true
        muddy[0] = true, muddy[1] = true, muddy[2] = false
        muddy[0] = true, muddy[1] = true, muddy[2] = true
    line 11: actual all(i in 0..n: muddy[i] == (i < k))  =>  8 worlds (unchanged)
    line 16 (i in 0..3, j in 0..3): child[i] learns muddy[j] (6 steps)  =>  8 worlds (unchanged)
    line 21: announce any(i in 0..n: muddy[i])  =>  7 worlds (1 eliminated)
        muddy[0] = false, muddy[1] = false, muddy[2] = true
        muddy[0] = false, muddy[1] = true, muddy[2] = false
        muddy[0] = false, muddy[1] = true, muddy[2] = true
        muddy[0] = true, muddy[1] = false, muddy[2] = false
        muddy[0] = true, muddy[1] = false, muddy[2] = true
        muddy[0] = true, muddy[1] = true, muddy[2] = false
        muddy[0] = true, muddy[1] = true, muddy[2] = true
    round 1: child[0]: not knows_value(muddy[0])
    round 1: child[1]: not knows_value(muddy[1])
    round 1: child[2]: not knows_value(muddy[2])
    line 26, round 1: REPEAT  =>  4 worlds (3 eliminated)
        muddy[0] = false, muddy[1] = true, muddy[2] = true
        muddy[0] = true, muddy[1] = false, muddy[2] = true
        muddy[0] = true, muddy[1] = true, muddy[2] = false
        muddy[0] = true, muddy[1] = true, muddy[2] = true
    round 2: child[0]: knows_value(muddy[0])
    round 2: child[1]: knows_value(muddy[1])
    round 2: child[2]: not knows_value(muddy[2])
    line 26, round 2: REPEAT  =>  1 world (3 eliminated)
        muddy[0] = true, muddy[1] = true, muddy[2] = false
    round 3: child[0]: knows_value(muddy[0])
    round 3: child[1]: knows_value(muddy[1])
    round 3: child[2]: knows_value(muddy[2])
    -- line 26: repeat done after 3 rounds --
    line 26, round 3: REPEAT  =>  1 world (unchanged)
    -- line 35: worlds --
    1 possible world:
      muddy[0] = true, muddy[1] = true, muddy[2] = false
    (and that's all)
    line 35: worlds  =>  1 world (unchanged)
    -- which statement eliminated each of the 8 worlds possible at the start --
      muddy[0] = false, muddy[1] = false, muddy[2] = false  line 21: announce any(i in 0..n: muddy[i])
      muddy[0] = false, muddy[1] = false, muddy[2] = true   line 26, round 1: REPEAT
      muddy[0] = false, muddy[1] = true, muddy[2] = false   line 26, round 1: REPEAT
      muddy[0] = false, muddy[1] = true, muddy[2] = true    line 26, round 2: REPEAT
      muddy[0] = true, muddy[1] = false, muddy[2] = false   line 26, round 1: REPEAT
      muddy[0] = true, muddy[1] = false, muddy[2] = true    line 26, round 2: REPEAT
      muddy[0] = true, muddy[1] = true, muddy[2] = false    still possible
      muddy[0] = true, muddy[1] = true, muddy[2] = true     line 26, round 2: REPEAT
"};

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
        indoc! {"
            start  =>  infinitely many worlds
            line 3: announce A >= 0 and A <= 1 and B == A  =>  2 worlds
                A = 0, B = 0
                A = 1, B = 1
            line 4: Anne learns A, B (2 steps)  =>  2 worlds (unchanged)
            -- which statement eliminated each of the 2 worlds possible after line 3 --
              A = 0, B = 0  still possible
              A = 1, B = 1  still possible
        "}
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
        indoc! {"
            A: any(c in 0..5: ship[c] and ship[(c + 1) % 5])
            A: not any(c in 0..5: ship[c] and ship[(c + 2) % 5])
        "}
    );
}

/// One world listed of more: "more than one possible world; the first:".
#[test]
fn more_than_one_world_reads_right() {
    let story = story_file("trace-more.story", "characters A\nint x\nworlds 1\n");
    let out = epipen(&["run", &story]);
    assert_eq!(
        out.stdout,
        indoc! {"
            -- line 3: worlds --
            more than one possible world; the first:
              x = 0
            (more worlds exist; raise the number after `worlds` to see more)
        "}
    );
}

const EVENT_STORY: &str = indoc! {"
    characters Anne, Bob
    bool lamp
    event toss {
      heads
      tails
      edge
      Anne sees heads | tails, edge
    }
    announce toss != edge
"};

const EVENT_OUT: &str = indoc! {"
    start  =>  2 worlds
        lamp = false
        lamp = true
    line 3: event toss: heads | tails | edge  =>  6 worlds
        Anne sees heads | tails, edge; Bob sees no difference
        lamp = false, toss = heads
        lamp = true, toss = heads
        lamp = false, toss = tails
        lamp = true, toss = tails
        lamp = false, toss = edge
        lamp = true, toss = edge
    line 9: announce toss != edge  =>  4 worlds (2 eliminated)
        lamp = false, toss = heads
        lamp = true, toss = heads
        lamp = false, toss = tails
        lamp = true, toss = tails
    -- which statement eliminated each of the 2 worlds possible at the start --
      lamp = false  still possible
      lamp = true   still possible
"};

const FOR_STORY: &str = indoc! {"
    characters Anne, Bob
    bool x[3]
    for i in 0..3 {
      Anne learns x[i]
      Bob learns x[i]
    }
    announce x[0]
    for i in 0..3 {
      if i != 1 { Bob learns x[i] }
    }
    for i in 0..2 {
      announce x[i] != x[i + 1]
    }
"};

const FOR_OUT: &str = indoc! {"
    start  =>  8 worlds
        x[0] = false, x[1] = false, x[2] = false
        x[0] = false, x[1] = false, x[2] = true
        x[0] = false, x[1] = true, x[2] = false
        x[0] = false, x[1] = true, x[2] = true
        x[0] = true, x[1] = false, x[2] = false
        x[0] = true, x[1] = false, x[2] = true
        x[0] = true, x[1] = true, x[2] = false
        x[0] = true, x[1] = true, x[2] = true
    lines 4-5 (i in 0..3): 6 steps  =>  8 worlds (unchanged)
    line 7: announce x[0]  =>  4 worlds (4 eliminated)
        x[0] = true, x[1] = false, x[2] = false
        x[0] = true, x[1] = false, x[2] = true
        x[0] = true, x[1] = true, x[2] = false
        x[0] = true, x[1] = true, x[2] = true
    line 9 (i in {0, 2}): Bob learns x[i] (2 steps)  =>  4 worlds (unchanged)
    line 12 (i = 0): announce x[i] != x[i + 1]  =>  2 worlds (2 eliminated)
        x[0] = true, x[1] = false, x[2] = false
        x[0] = true, x[1] = false, x[2] = true
    line 12 (i = 1): announce x[i] != x[i + 1]  =>  1 world (1 eliminated)
        x[0] = true, x[1] = false, x[2] = true
    -- which statement eliminated each of the 8 worlds possible at the start --
      x[0] = false, x[1] = false, x[2] = false  line 7: announce x[0]
      x[0] = false, x[1] = false, x[2] = true   line 7: announce x[0]
      x[0] = false, x[1] = true, x[2] = false   line 7: announce x[0]
      x[0] = false, x[1] = true, x[2] = true    line 7: announce x[0]
      x[0] = true, x[1] = false, x[2] = false   line 12 (i = 1): announce x[i] != x[i + 1]
      x[0] = true, x[1] = false, x[2] = true    still possible
      x[0] = true, x[1] = true, x[2] = false    line 12 (i = 0): announce x[i] != x[i + 1]
      x[0] = true, x[1] = true, x[2] = true     line 12 (i = 0): announce x[i] != x[i + 1]
"};

const REVEALS_STORY: &str = indoc! {"
    characters A, B
    bool ship[5]
    actual ship[1] and ship[2] and not ship[0] and not ship[3] and not ship[4]
    for c in 0..5 { A learns ship[c] }
    for k in 1..3 {
      A reveals any(c in 0..5: ship[c] and ship[(c + k) % 5])
    }
"};

const REVEALS_OUT: &str = indoc! {"
    start  =>  32 worlds
    line 3: actual ship[1] and ship[2] and not ship[0] and not ship[3] and not ship…  =>  32 worlds (unchanged)
    line 4 (c in 0..5): A learns ship[c] (5 steps)  =>  32 worlds (unchanged)
    A: any(c in 0..5: ship[c] and ship[(c + 1) % 5])
    line 6 (k = 1): A reveals any(c in 0..5: ship[c] and ship[(c + k) % 5])  =>  21 worlds (11 eliminated)
    A: not any(c in 0..5: ship[c] and ship[(c + 2) % 5])
    line 6 (k = 2): A reveals any(c in 0..5: ship[c] and ship[(c + k) % 5])  =>  5 worlds (16 eliminated)
        ship[0] = false, ship[1] = false, ship[2] = false, ship[3] = true, ship[4] = true
        ship[0] = false, ship[1] = false, ship[2] = true, ship[3] = true, ship[4] = false
        ship[0] = false, ship[1] = true, ship[2] = true, ship[3] = false, ship[4] = false
        ship[0] = true, ship[1] = false, ship[2] = false, ship[3] = false, ship[4] = true
        ship[0] = true, ship[1] = true, ship[2] = false, ship[3] = false, ship[4] = false
"};

/// A story with chances: each listed world with its probability, as `worlds` prints
/// them; a `prior`, which eliminates nothing, changes them (the step lists them anew);
/// an event weighs its cases; `--json` carries them in each world's object.
#[test]
fn trace_lists_each_worlds_probability_beside_it() {
    let story = story_file(
        "trace-chances.story",
        indoc! {"
            characters A
            int x
            announce 1 <= x and x <= 2
            prior x
            event coin {
              heads weight x
              tails
              A sees heads | tails
            }
        "},
    );
    let out = epipen(&["run", "--trace", &story]);
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert!(
        out.stdout.starts_with(indoc! {"
            start  =>  infinitely many worlds
            line 3: announce 1 <= x and x <= 2  =>  2 worlds
                x = 1   [1/2]
                x = 2   [1/2]
            line 4: prior x  =>  2 worlds
                x = 1   [1/3]
                x = 2   [2/3]
            line 5: event coin: heads | tails  =>  4 worlds
                A sees heads | tails
                x = 1, coin = heads   [1/6]
                x = 1, coin = tails   [1/6]
                x = 2, coin = heads   [4/9]
                x = 2, coin = tails   [2/9]
        "}),
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
