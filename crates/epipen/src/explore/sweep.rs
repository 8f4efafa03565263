//! `epipen sweep`: runs a story for every combination of parameter values, or for many
//! seeds of its `sample(…)`s, in parallel (one engine per thread, and one Z3 context
//! per thread for the runs on Z3), and summarises how many worlds each run leaves.

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::engine::{Engine, EngineError, Options};
use crate::ir::{Program, SampleDraw};
use crate::syntax::Diagnostic;
use crate::worlds::{World, WorldCount};

/// Worlds are counted exactly up to this many.
pub const COUNT_CAP: usize = 1_000;

/// One run: values for the story's consts, and the seed of its samples.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    pub sets: Vec<(String, i64)>,
    pub seed: u64,
}

/// The most runs a sweep makes (combinations of values times seeds).
pub const MAX_RUNS: u64 = 1_000_000;

/// How many runs [`jobs`] makes: the product of the ranges' sizes times `seeds`
/// (saturating, so that a product past u64 still compares above [`MAX_RUNS`]).
pub fn run_count(ranges: &[(String, Vec<i64>)], seeds: u64) -> u64 {
    ranges.iter().fold(seeds, |n, (_, values)| {
        n.saturating_mul(values.len() as u64)
    })
}

/// Every combination of `ranges` (the first name varies slowest), each run with the
/// `seeds` seeds from `first_seed` on (past 2^64 - 1 they go on from 0). The caller
/// keeps [`run_count`] within [`MAX_RUNS`].
pub fn jobs(ranges: &[(String, Vec<i64>)], first_seed: u64, seeds: u64) -> Vec<Job> {
    let mut combos: Vec<Vec<(String, i64)>> = vec![Vec::new()];
    for (name, values) in ranges {
        combos = combos
            .into_iter()
            .flat_map(|combo| {
                values.iter().map(move |v| {
                    let mut c = combo.clone();
                    c.push((name.clone(), *v));
                    c
                })
            })
            .collect();
    }
    combos
        .into_iter()
        .flat_map(|sets| {
            (0..seeds).map(move |k| Job {
                sets: sets.clone(),
                seed: first_seed.wrapping_add(k),
            })
        })
        .collect()
}

/// What one run left.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The declarations of the story as compiled for this run (families sized by its
    /// values); no statements.
    pub program: Arc<Program>,
    pub count: WorldCount,
    /// The world, when exactly one is left.
    pub world: Option<World>,
    /// What the story's `sample(…)`s drew.
    pub draws: Vec<SampleDraw>,
}

/// Why one run failed.
#[derive(Debug, Clone, PartialEq)]
pub enum RunError {
    /// The story does not compile with these values.
    Compile(Vec<Diagnostic>),
    /// `--timeout` ran out while unrolling the loop or aggregate at this range.
    Timeout(crate::Span),
    /// The run failed at a statement.
    Engine(EngineError),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub job: Job,
    pub result: Result<Summary, RunError>,
    pub elapsed: Duration,
}

/// Runs every job on the thread pool; `progress(done, total)` is called after each.
/// Outcomes come back in the jobs' order.
pub fn run_all(
    source: &str,
    jobs: Vec<Job>,
    options: &Options,
    per_run: Option<Duration>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Outcome> {
    let total = jobs.len();
    let done = AtomicUsize::new(0);
    // Parsed once (and the names of the values checked); each run lowers it with its
    // own values and seed.
    let names: Vec<&str> = jobs
        .first()
        .map(|job| job.sets.iter().map(|(name, _)| name.as_str()).collect())
        .unwrap_or_default();
    let parsed = crate::parse_with_sets(source, names);
    jobs.into_par_iter()
        .map(|job| {
            let start = Instant::now();
            let result = match &parsed {
                Ok(story) => run_one(story, &job, options, per_run),
                Err(e) => Err(compile_error(e.clone())),
            };
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            Outcome {
                job,
                result,
                elapsed: start.elapsed(),
            }
        })
        .collect()
}

fn compile_error(error: crate::CompileError) -> RunError {
    match error {
        crate::CompileError::Story(d) => RunError::Compile(d),
        crate::CompileError::Timeout { span } => RunError::Timeout(span),
        crate::CompileError::UnknownSet { name, .. } => RunError::Compile(vec![Diagnostic::error(
            crate::Span::default(),
            format!("the story has no `const {name}`"),
        )]),
    }
}

/// One run, given `per_run` from its start (compiling included).
fn run_one(
    story: &crate::syntax::ast::Story,
    job: &Job,
    options: &Options,
    per_run: Option<Duration>,
) -> Result<Summary, RunError> {
    let deadline = per_run.and_then(|t| Instant::now().checked_add(t));
    let program =
        crate::compile_parsed(story, &job.sets, job.seed, deadline).map_err(compile_error)?;
    let end = program
        .statements
        .last()
        .map(|s| s.span)
        .unwrap_or_default();
    let draws = program.samples.clone();
    // What the summary needs of the program: its declarations, to print the world.
    let shared = Arc::new(Program {
        characters: program.characters.clone(),
        constants: program.constants.clone(),
        checkpoints: program.checkpoints.clone(),
        enums: program.enums.clone(),
        events: program.events.clone(),
        actions: program.actions.clone(),
        plan_steps: program.plan_steps.clone(),
        statements: Vec::new(),
        samples: Vec::new(),
        backend: program.backend,
    });
    let options = Options {
        skip_worlds_statements: true,
        stats: false,
        deadline,
        ..options.clone()
    };
    let mut engine = Engine::new(Rc::new(program), &options);
    engine.run(&mut |_| {}).map_err(RunError::Engine)?;
    let at_end = |error| RunError::Engine(EngineError { span: end, error });
    let count = engine.count_worlds(None, COUNT_CAP).map_err(at_end)?;
    let world = match count {
        WorldCount::Exactly(1) => engine.worlds(1).map_err(at_end)?.worlds.pop(),
        _ => None,
    };
    Ok(Summary {
        program: shared,
        count,
        world,
        draws,
    })
}

/// How the runs of one combination of values spread over world counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    /// Runs by the number of worlds they left (None: infinitely many or more than
    /// [`COUNT_CAP`]).
    pub counts: BTreeMap<Option<u64>, usize>,
    pub failed: usize,
    /// The first run (in seed order) that left exactly one world.
    pub first_unique: Option<usize>,
}

/// The distribution of `outcomes` (the runs of one combination).
pub fn distribution(outcomes: &[Outcome]) -> Distribution {
    let mut d = Distribution {
        counts: BTreeMap::new(),
        failed: 0,
        first_unique: None,
    };
    for (k, o) in outcomes.iter().enumerate() {
        match &o.result {
            Ok(s) => {
                let n = match s.count {
                    WorldCount::Exactly(n) => Some(n),
                    _ => None,
                };
                *d.counts.entry(n).or_default() += 1;
                if n == Some(1) && d.first_unique.is_none() {
                    d.first_unique = Some(k);
                }
            }
            Err(_) => d.failed += 1,
        }
    }
    d
}

/// What no value of a sweep changes, checked once before its runs: the syntax, the
/// names of the consts it sets (`names`), and errors the story makes whatever the values
/// (the same with its own values, `seed`, as with the `first` run's); with `samples`,
/// that the story draws something with `sample(…)`. Whatever a run's values break is
/// that run's error instead.
pub fn precheck<'a>(
    path: &str,
    source: &str,
    names: impl Iterator<Item = &'a str>,
    first: Option<&Job>,
    seed: u64,
    samples: Option<u64>,
    deadline: Option<Instant>,
) -> Result<(), crate::Failure> {
    use crate::failure::compile_failure;
    if let Err(e) = crate::parse_with_sets(source, names) {
        return Err(compile_failure(path, source, e));
    }
    let compile =
        |sets: &[(String, i64)], seed| match crate::compile_until(source, sets, seed, deadline) {
            Err(crate::CompileError::Story(diagnostics)) => diagnostics,
            _ => Vec::new(),
        };
    let own = compile(&[], seed);
    if let Some(first) = first
        && !own.is_empty()
        && compile(&first.sets, first.seed).first() == own.first()
    {
        return Err(compile_failure(
            path,
            source,
            crate::CompileError::Story(own),
        ));
    }
    let draws = |job: &Job| {
        crate::compile_until(source, &job.sets, job.seed, deadline)
            .is_ok_and(|p| !p.samples.is_empty())
    };
    if let Some(samples) = samples
        && let Some(first) = first
        && !draws(first)
    {
        // The front end names its argument (`--samples: `) and says how to sweep
        // values instead.
        let message = format!(
            "{path} draws nothing with `sample(k, {{…}})`, so every seed would run the same story"
        );
        let located = crate::syntax::Located::nowhere(path, message);
        return Err(crate::Failure::story(located).about(crate::About::Samples(samples)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_every_combination_then_every_seed() {
        let ranges = vec![("n".to_string(), vec![1, 2]), ("k".to_string(), vec![5, 6])];
        let got: Vec<(Vec<i64>, u64)> = jobs(&ranges, 0, 1)
            .into_iter()
            .map(|j| (j.sets.iter().map(|s| s.1).collect(), j.seed))
            .collect();
        assert_eq!(
            got,
            [
                (vec![1, 5], 0),
                (vec![1, 6], 0),
                (vec![2, 5], 0),
                (vec![2, 6], 0)
            ]
        );
        assert_eq!(jobs(&[], 3, 3).len(), 3);
        let seeds: Vec<u64> = jobs(&[], u64::MAX - 1, 3).iter().map(|j| j.seed).collect();
        assert_eq!(seeds, [u64::MAX - 1, u64::MAX, 0]);
        assert_eq!(run_count(&ranges, 1), 4);
        let huge = vec![("n".to_string(), vec![0; 100_000]); 4];
        assert_eq!(run_count(&huge, 1), u64::MAX);
    }

    #[test]
    fn runs_are_parallel_and_in_order() {
        let source = "const n = 1\ncharacters A\nint x\nannounce x >= 0 and x < n\n";
        let ranges = vec![("n".to_string(), (0..6).collect())];
        let outcomes = run_all(
            source,
            jobs(&ranges, 0, 1),
            &Options::default(),
            None,
            &|_, _| {},
        );
        let counts: Vec<WorldCount> = outcomes
            .iter()
            .map(|o| o.result.as_ref().expect("runs").count)
            .collect();
        assert_eq!(counts, (0..6).map(WorldCount::Exactly).collect::<Vec<_>>());
        assert_eq!(
            outcomes[1].result.as_ref().unwrap().world,
            Some(World(vec![crate::worlds::Value::Int(0)]))
        );
    }

    #[test]
    fn the_timeout_is_each_runs() {
        // Ten runs on one thread, 0.3 s apart: three seconds in all, each within 2 s.
        let source = "const n = 1\ncharacters A\nint x\nannounce x >= 0 and x < n\n";
        let ranges = vec![("n".to_string(), (0..10).collect())];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let outcomes = pool.install(|| {
            run_all(
                source,
                jobs(&ranges, 0, 1),
                &Options::default(),
                Some(Duration::from_secs(2)),
                &|_, _| std::thread::sleep(Duration::from_millis(300)),
            )
        });
        assert!(outcomes.iter().all(|o| o.result.is_ok()));
    }
}
