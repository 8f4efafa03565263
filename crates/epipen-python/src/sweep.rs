//! Sweeps from Python: the story run for many values of its consts or seeds of its
//! `sample(…)`s, as `epipen sweep` runs it (`epipen::explore::sweep`, one engine per
//! thread of a rayon pool). Python hands them out in chunks (for the progress bar, and
//! as Ray tasks): a chunk of samples comes back as its distribution only, so a million
//! samples cost their solves and little else.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock};

use epipen::engine::Options;
use epipen::explore::sweep::{self, Job, Outcome, RunError};
use epipen::syntax::diagnostic::line_col;
use epipen::worlds::WorldCount;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::convert::{self, Count, Located, Out, any, dict};
use crate::run::Request;
use crate::worker::solve;

/// The rayon pool of `threads` threads (None: rayon's default, a thread per core or
/// `RAYON_NUM_THREADS`), made once per process: the package never uses rayon's global
/// pool, whose threads a forked child would not have.
fn pool(threads: Option<usize>) -> PyResult<Arc<rayon::ThreadPool>> {
    type Pools = HashMap<(u32, usize), Arc<rayon::ThreadPool>>;
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    if threads == Some(0) {
        return Err(PyValueError::new_err(
            "threads=0: a sweep needs at least one thread",
        ));
    }
    let n = threads.unwrap_or(0);
    let key = (std::process::id(), n);
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&key) {
        return Ok(p.clone());
    }
    // Pools of a parent process are forgotten in a forked child (their threads are not
    // here; dropping one would wait for them).
    for (_, stale) in pools.extract_if(|(pid, _), _| *pid != key.0) {
        std::mem::forget(stale);
    }
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|k| format!("epipen-sweep-{k}"))
        .build()
        .map_err(|e| PyValueError::new_err(format!("cannot start the sweep's threads: {e}")))?;
    let built = Arc::new(built);
    pools.insert(key, built.clone());
    Ok(built)
}

/// Runs `jobs` on the pool.
fn run_jobs(
    request: &Request,
    jobs: Vec<Job>,
    pool: Arc<rayon::ThreadPool>,
    cancel: &epipen::engine::Cancel,
) -> Vec<Outcome> {
    let options = request.options(cancel);
    let per_run = request.timeout;
    let options = Options {
        deadline: None,
        ..options
    };
    pool.install(|| sweep::run_all(&request.source, jobs, &options, per_run, &|_, _| {}))
}

/// A failed run on one line, as `epipen sweep` reports it: `line 26: …`.
fn error_text(source: &str, e: &RunError) -> String {
    let line = |span: epipen::Span| line_col(source, span.start).0;
    match e {
        RunError::Compile(ds) => ds
            .first()
            .map(|d| format!("line {}: {}", line(d.span), d.message))
            .unwrap_or_default(),
        RunError::Engine(e) => format!("line {}: {}", line(e.span), e.error),
        RunError::Timeout(span) => {
            format!("line {}: {}", line(*span), epipen::lower::TIMEOUT_MESSAGE)
        }
    }
}

/// The exit code `epipen sweep` gives a failed run: 2 for a story error, 1 for a solver's.
fn error_code(e: &RunError) -> u8 {
    match e {
        RunError::Compile(_) => 2,
        RunError::Timeout(_) => 1,
        RunError::Engine(e) => match e.error {
            epipen::engine::Failure::Story { .. } => 2,
            _ => 1,
        },
    }
}

/// Whether any run was cancelled (then its answer is not the story's).
fn interrupted(outcomes: &[Outcome]) -> bool {
    outcomes.iter().any(|o| {
        matches!(&o.result, Err(RunError::Engine(e))
            if e.error == epipen::engine::Failure::Interrupted)
    })
}

/// Before a sweep: what no value changes (the syntax, the consts the sets name, errors
/// the story makes whatever its values) is checked once, as `epipen sweep` does, and
/// raised as a `StoryError`; with `samples` (how many), the story must draw something.
#[pyfunction]
#[pyo3(signature = (name, source, names, first_sets, first_seed, seed, samples))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep_check(
    py: Python<'_>,
    name: String,
    source: String,
    names: Vec<String>,
    first_sets: Vec<(String, i64)>,
    first_seed: u64,
    seed: u64,
    samples: Option<u64>,
) -> PyResult<()> {
    let first = Job {
        sets: first_sets,
        seed: first_seed,
    };
    let result = py.detach(|| {
        let names = names.iter().map(String::as_str);
        sweep::precheck(&name, &source, names, Some(&first), seed, samples, None)
            .map_err(Located::new)
    });
    result.map_err(|e| e.into_pyerr(py))
}

/// A sample that left one world: its seed, the world (the constants' names and values),
/// and what its `sample(…)`s drew.
type Unique = (u64, Named, Vec<Drew>);

/// What one `sample(…)` drew: its line, the items as values, and the items as written
/// (`{(5, 15), (6, 17)}`, as `epipen sweep` prints them).
struct Drew {
    line: usize,
    items: Vec<Item>,
    text: String,
}

/// A drawn item: a value, a tuple of values, or (when it names a constant, so that its
/// values are the run's) its text.
enum Item {
    One(Out),
    Tuple(Vec<Out>),
    Written(String),
}

impl Drew {
    fn new(program: &epipen::ir::Program, source: &str, draw: &epipen::ir::SampleDraw) -> Drew {
        let written: Vec<&str> = (draw.items.iter())
            .map(|i| &source[i.start..i.end])
            .collect();
        let out = |(ty, value): &(epipen::ir::Ty, epipen::worlds::Value)| {
            convert::value(program, *ty, *value)
        };
        let items = (draw.values.iter().zip(&written))
            .map(|(values, text)| match values.as_deref() {
                Some([one]) => Item::One(out(one)),
                Some(values) => Item::Tuple(values.iter().map(out).collect()),
                None => Item::Written(text.to_string()),
            })
            .collect();
        Drew {
            line: line_col(source, draw.span.start).0,
            items,
            text: format!("{{{}}}", written.join(", ")),
        }
    }

    /// `(line, [items])`: ints, bools, enum variants' names, tuples of them.
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let items = PyList::empty(py);
        for item in &self.items {
            match item {
                Item::One(value) => items.append(value)?,
                Item::Tuple(values) => items.append(PyTuple::new(py, values)?)?,
                Item::Written(text) => items.append(text)?,
            }
        }
        any(py, (self.line, items))
    }
}

/// A world with its constants' names (a family's size may depend on the values).
type Named = (Vec<String>, Vec<Out>);

fn named(s: &sweep::Summary) -> Option<Named> {
    let w = s.world.as_ref()?;
    let names = s.program.constants.iter().map(|c| c.name.clone()).collect();
    Some((names, convert::world(&s.program, w)))
}

/// How a chunk of samples of one combination of values spread over world counts.
struct ChunkOut {
    /// Runs by the number of worlds they left (None: infinitely many, or more than
    /// [`sweep::COUNT_CAP`]).
    counts: BTreeMap<Option<u64>, usize>,
    failed: usize,
    /// The first run that left exactly one world: its seed, the world, and what its
    /// `sample(…)`s drew (line, items as written).
    first_unique: Option<Unique>,
    /// The first failed run: its seed, its message, and its exit code.
    first_error: Option<(u64, String, u8)>,
}

fn chunk(
    request: &Request,
    first_seed: u64,
    count: u64,
    threads: Arc<rayon::ThreadPool>,
    cancel: &epipen::engine::Cancel,
) -> Option<ChunkOut> {
    let jobs: Vec<Job> = (0..count)
        .map(|k| Job {
            sets: request.sets.clone(),
            seed: first_seed.wrapping_add(k),
        })
        .collect();
    let outcomes = run_jobs(request, jobs, threads, cancel);
    if cancel.is_cancelled() || interrupted(&outcomes) {
        return None;
    }
    let d = sweep::distribution(&outcomes);
    let source = &request.source;
    let first_unique = d.first_unique.map(|k| {
        let o = &outcomes[k];
        let (world, drew) = match &o.result {
            Ok(s) => (
                named(s).unwrap_or_default(),
                (s.draws.iter())
                    .map(|draw| Drew::new(&s.program, source, draw))
                    .collect(),
            ),
            Err(_) => (Default::default(), Vec::new()),
        };
        (o.job.seed, world, drew)
    });
    let first_error = outcomes.iter().find_map(|o| {
        let e = o.result.as_ref().err()?;
        Some((o.job.seed, error_text(source, e), error_code(e)))
    });
    Some(ChunkOut {
        counts: d.counts,
        failed: d.failed,
        first_unique,
        first_error,
    })
}

/// Runs `count` samples of the story with the `sets` values, seeds `first_seed` on, on
/// `threads` threads (None: a thread per core): how many left 0, 1, 2, … worlds.
#[pyfunction]
#[pyo3(signature = (name, source, sets, first_seed, count, backend, timeout, threads))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep_samples<'py>(
    py: Python<'py>,
    name: String,
    source: String,
    sets: Vec<(String, i64)>,
    first_seed: u64,
    count: u64,
    backend: &str,
    timeout: Option<f64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let request = Request::new(name, source, sets, first_seed, backend, timeout)?;
    let threads = pool(threads)?;
    let Some(out) = solve(py, move |cancel| {
        chunk(&request, first_seed, count, threads, cancel)
    })?
    else {
        // Cancelled from elsewhere than this thread's signal handler.
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "the sweep was interrupted",
        ));
    };
    let counts = PyDict::new(py);
    for (worlds, runs) in &out.counts {
        let key = match worlds {
            Some(n) => any(py, n)?,
            None => any(py, format!(">{}", sweep::COUNT_CAP))?,
        };
        counts.set_item(key, runs)?;
    }
    let first_unique = match &out.first_unique {
        None => py.None().into_bound(py),
        Some((seed, (names, world), drew)) => {
            let items = PyList::empty(py);
            for d in drew {
                items.append(d.to_python(py)?)?;
            }
            let texts: Vec<(usize, &str)> =
                drew.iter().map(|d| (d.line, d.text.as_str())).collect();
            dict(
                py,
                vec![
                    ("seed", any(py, seed)?),
                    ("names", any(py, names)?),
                    ("world", PyTuple::new(py, world)?.into_any()),
                    ("drew", items.into_any()),
                    ("drew_text", any(py, texts)?),
                ],
            )?
            .into_any()
        }
    };
    let first_error = match &out.first_error {
        None => py.None().into_bound(py),
        Some((seed, text, code)) => any(py, (seed, text, code))?,
    };
    dict(
        py,
        vec![
            ("counts", counts.into_any()),
            ("failed", any(py, out.failed)?),
            ("first_unique", first_unique),
            ("first_error", first_error),
        ],
    )
}

/// One run of a sweep over values.
struct RowOut {
    count: Option<Count>,
    world: Option<Named>,
    error: Option<(String, u8)>,
    ms: f64,
}

/// Runs the story once per combination of values in `combos`, with `seed`: a row per
/// run (worlds left, the world when one, or the error, and the time).
#[pyfunction]
#[pyo3(signature = (name, source, combos, seed, backend, timeout, threads))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep_values<'py>(
    py: Python<'py>,
    name: String,
    source: String,
    combos: Vec<Vec<(String, i64)>>,
    seed: u64,
    backend: &str,
    timeout: Option<f64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let request = Request::new(name, source, Vec::new(), seed, backend, timeout)?;
    let threads = pool(threads)?;
    let rows = solve(py, move |cancel| {
        let jobs: Vec<Job> = combos.into_iter().map(|sets| Job { sets, seed }).collect();
        let outcomes = run_jobs(&request, jobs, threads, cancel);
        if cancel.is_cancelled() || interrupted(&outcomes) {
            return None;
        }
        Some(
            outcomes
                .iter()
                .map(|o| {
                    let ms = o.elapsed.as_secs_f64() * 1000.0;
                    match &o.result {
                        Ok(s) => RowOut {
                            count: Some(s.count.into()),
                            world: match s.count {
                                WorldCount::Exactly(1) => named(s),
                                _ => None,
                            },
                            error: None,
                            ms,
                        },
                        Err(e) => RowOut {
                            count: None,
                            world: None,
                            error: Some((error_text(&request.source, e), error_code(e))),
                            ms,
                        },
                    }
                })
                .collect::<Vec<_>>(),
        )
    })?;
    let Some(rows) = rows else {
        return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "the sweep was interrupted",
        ));
    };
    let list = PyList::empty(py);
    for r in &rows {
        let (names, world) = match &r.world {
            Some((names, w)) => (any(py, names)?, PyTuple::new(py, w)?.into_any()),
            None => (py.None().into_bound(py), py.None().into_bound(py)),
        };
        list.append(dict(
            py,
            vec![
                ("worlds", any(py, &r.count)?),
                ("names", names),
                ("world", world),
                ("error", any(py, &r.error)?),
                ("ms", any(py, r.ms)?),
            ],
        )?)?;
    }
    Ok(list)
}
