use epipen::engine::Strategy;
use epipen::{Formula as F, Options, Story};
fn run(strategy: Strategy) -> std::time::Duration {
    let t = std::time::Instant::now();
    for _ in 0..20 {
        let mut story = Story::with_options(Options {
            strategy,
            ..Options::default()
        });
        let albert = story.character("Albert");
        let bernard = story.character("Bernard");
        let month = story.int("month");
        let day = story.int("day");
        story
            .announce(F::tuple_in(
                (&month, &day),
                [
                    [5, 15],
                    [5, 16],
                    [5, 19],
                    [6, 17],
                    [6, 18],
                    [7, 14],
                    [7, 16],
                    [8, 14],
                    [8, 15],
                    [8, 17],
                ],
            ))
            .unwrap();
        story.learns(albert, &month).unwrap();
        story.learns(bernard, &day).unwrap();
        let whispered = story.checkpoint("whispered").unwrap();
        story
            .says(
                albert,
                !F::knows_value(albert, (&month, &day))
                    & F::knows(albert, !F::knows_value(bernard, (&month, &day))),
            )
            .unwrap();
        story
            .says(
                bernard,
                !F::at(whispered, F::knows_value(bernard, (&month, &day)))
                    & F::knows_value(bernard, (&month, &day)),
            )
            .unwrap();
        story
            .says(albert, F::knows_value(albert, (&month, &day)))
            .unwrap();
        assert_eq!(story.worlds(10).unwrap().len(), 1);
    }
    t.elapsed() / 20
}
fn main() {
    for s in [
        Strategy::Auto,
        Strategy::Z3,
        Strategy::Explicit,
        Strategy::Bdd,
    ] {
        println!("{s:?}: {:?}", run(s));
    }
}
