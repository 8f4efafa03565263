//! Random SMCDEL files (issue 30) through both of `epipen smcdel`'s routes: the answers
//! of the file on every backend that takes its story agree, and the story translation
//! (`--story`) agrees on every backend and with the brute-force evaluator.

use std::time::Instant;

use epipen::engine::{Options, Strategy};
use epipen::views::SmcdelAnswer;
use epipen_fuzz::print::Printed;
use epipen_fuzz::smcdel;
use epipen_fuzz::structure::{self, Answer};
use epipen_fuzz::transcript::takes;
use proptest::strategy::{Strategy as _, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// How many files (`SMCDEL_FUZZ_CASES` to run more).
fn cases() -> usize {
    std::env::var("SMCDEL_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

#[test]
fn random_smcdel_files_agree_on_both_routes() {
    let start = Instant::now();
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[30; 32]),
    );
    let strategy = smcdel::file();
    let mut answered = 0;
    let mut lawless = 0;
    for _ in 0..cases() {
        let file = strategy.new_tree(&mut runner).expect("a file").current();
        let text = smcdel::print(&file);
        let read = match epipen::smcdel::read("random.smcdel.txt", &text) {
            Ok(read) => read,
            Err(failure) => panic!(
                "a generated file does not read:\n{text}\n{}",
                epipen::text::failure(&failure)
            ),
        };
        // The story: every backend that takes it and the evaluator agree.
        let printed = Printed {
            text: read.translation.story.clone(),
            sets: Vec::new(),
            seed: 0,
            bounds: Vec::new(),
            negative_size: false,
            refused: Vec::new(),
            constructs: Default::default(),
        };
        if let Err(report) = epipen_fuzz::diff::check(&printed) {
            panic!("the SMCDEL file\n{text}\n{report}");
        }
        // The answers: the same on every backend that takes the story, and those of the
        // definitions.
        let expected = structure::answers(&file);
        lawless += usize::from(!read.translation.story.contains("\nannounce "));
        let program = printed.compile().expect("the story compiles");
        let mut first: Option<(Strategy, epipen::views::Smcdel)> = None;
        for strategy in [Strategy::Bdd, Strategy::Z3, Strategy::Explicit] {
            if !takes(strategy, &program) {
                continue;
            }
            let options = Options {
                strategy,
                ..Options::default()
            };
            let answers = match read.answer(&options) {
                Ok(answers) => answers,
                Err(f) => panic!("{text}\n{strategy:?}: {}", epipen::text::failure(&f)),
            };
            let got: Vec<Answer> = (answers.jobs.iter())
                .map(|job| match &job.answer {
                    SmcdelAnswer::Holds(b) => Answer::Holds(*b),
                    SmcdelAnswer::States(states) => Answer::States(states.clone()),
                })
                .collect();
            assert_eq!(
                got, expected,
                "{text}\n{strategy:?} answers otherwise than knowledge structures do"
            );
            match &first {
                None => first = Some((strategy, answers)),
                Some((s, a)) => assert_eq!(
                    a, &answers,
                    "{text}\n{s:?} and {strategy:?} answer differently"
                ),
            }
        }
        answered += usize::from(first.is_some());
    }
    assert!(answered * 2 >= cases(), "only {answered} files answered");
    // Some LAWs hold in no state (the translation leaves them out).
    assert!(
        lawless >= 2,
        "only {lawless} files with a LAW that holds nowhere"
    );
    eprintln!(
        "{} random SMCDEL files in {:.1} s ({lawless} with a LAW that holds nowhere)",
        cases(),
        start.elapsed().as_secs_f64()
    );
}
