//! The command line's arguments (clap): the commands, the global options, and how
//! `--timeout`, `--limit` and `--set` values are read.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::output::errln;
use epipen::syntax::ast::Backend;

const EXAMPLES: &str = "\
Examples:
  epipen worlds stories/cheryl.story              the worlds left at the end
  epipen worlds stories/cheryl.story --json       ... as one JSON object
  epipen worlds stories/consecutive-numbers.story --limit 3
  epipen run stories/cheryl-eve.story             print each `worlds` statement
  epipen -vv worlds stories/cheryl.story          with debug logs (κ size, timings)
  epipen run stories/muddy-children.story --set n=8 --set k=2
  epipen check stories/who-has-the-sum.story      verify its assert_adds_ck hint
  epipen check stories/russian-cards.story        verify its checks (`check φ`)
  epipen run --trace stories/cheryl.story         worlds after each statement
  epipen graph stories/cheryl.story --at whispered --svg cheryl.svg
  epipen sweep stories/muddy-children.story --set n=2..8 --set k=1..3
  epipen sweep stories/cheryl-sample.story --samples 1000 --seed 1
  epipen smcdel MuddyChildren.smcdel.txt          answer an SMCDEL file's jobs
  epipen plan Coin_in_the_Box__pl_7.txt           a shortest plan of an mA* file
  epipen repl stories/cheryl.story                go on telling it, a statement at a time
  epipen serve --open                             the web playground, in the browser

Each command's --help lists its options; a story command's (worlds, run, graph,
check) may also come before it: epipen --set n=8 run FILE.

Exit codes: 0 success (zero worlds is an answer); 1 a check that fails, a hint
refuted, a vacuous verdict or a plan that finds none (the run goes on and exits with 1
at its end), or a solver failure (unknown, timeout, resource limit) or output that
cannot be written; 2 a usage or story error.";

#[derive(Parser)]
#[command(name = "epipen", about = "Solve epistemic logic puzzles with the Z3 SMT solver", after_help = EXAMPLES)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Log to stderr: -v info, -vv debug, -vvv trace (RUST_LOG overrides)
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub(crate) verbose: u8,
    /// A story command's options may also come before it (`epipen --set n=8 run FILE`);
    /// each command's `--help` says which it takes.
    #[command(flatten)]
    pub(crate) before: StoryOptions,
}

/// The options of a command that runs a story once (`worlds`, `run`, `graph`, `check`).
#[derive(clap::Args, Clone, Default)]
pub(crate) struct StoryOptions {
    /// Give up after this many seconds (exit code 1), at most 1e9: the whole command,
    /// reading and compiling included
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub(crate) timeout: Option<Duration>,
    /// Print on stderr which backend runs the story, then each statement's time and κ's size after it
    #[arg(long)]
    pub(crate) stats: bool,
    /// Override a `const` of the story, e.g. --set n=8 (repeatable)
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
    pub(crate) sets: Vec<(String, Vec<i64>)>,
    /// Seed of the story's `sample(k, {…})` draws [default: 0]
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Which backend runs the story: explicit worlds when the first announcements bound
    /// every constant, BDDs for larger stories of bools and enums, Z3 otherwise (auto);
    /// a backend named here that does not fit the story is an error (exit code 2)
    /// [default: auto]
    #[arg(long, value_parser = backend_parser())]
    pub(crate) backend: Option<Backend>,
}

/// `sweep`'s options: the story runs once per combination of values or per seed.
#[derive(clap::Args, Clone, Default)]
pub(crate) struct SweepOptions {
    /// Give up each run after this many seconds (that run's row says so), at most 1e9
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub(crate) timeout: Option<Duration>,
    /// The values of a `const` to sweep: n=8, n=1..10 (both ends included) or n=2,4,8
    /// (repeatable: every combination runs)
    #[arg(long = "set", value_name = "NAME=VALUES", value_parser = parse_set)]
    pub(crate) sets: Vec<(String, Vec<i64>)>,
    /// The seed of the story's `sample(…)`s (the first seed with --samples) [default: 0]
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Which backend runs each run (see `epipen worlds --help`) [default: auto]
    #[arg(long, value_parser = backend_parser())]
    pub(crate) backend: Option<Backend>,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// Run a story and print the worlds possible at its end
    Worlds {
        /// The story file
        file: PathBuf,
        /// Print at most this many worlds
        #[arg(long, default_value_t = 10, value_parser = parse_limit)]
        limit: u64,
        /// Print one JSON object: {"worlds": [...], "complete": true|false}
        #[arg(long)]
        json: bool,
        /// Print the epistemic model at the end as Graphviz DOT (as `epipen graph`)
        #[arg(long, conflicts_with = "json")]
        dot: bool,
        /// Take `assert_adds_ck` hints on trust instead of verifying them
        #[arg(long)]
        trust_hints: bool,
        #[command(flatten)]
        options: StoryOptions,
    },
    /// Run a story, printing each `worlds` statement's worlds and each reveal where it stands
    Run {
        /// The story file
        file: PathBuf,
        /// Take `assert_adds_ck` hints on trust instead of verifying them
        #[arg(long)]
        trust_hints: bool,
        /// After each statement, print how many worlds are possible (and which, when few),
        /// and at the end which statement eliminated each world
        #[arg(long)]
        trace: bool,
        /// Print JSON instead of text: one object, {"reports": [...], "worlds": {...},
        /// "tally": {...}} (the reports in story order: verdicts, shows, plans, `worlds`
        /// statements; the worlds at the end); with --trace, one object per line
        #[arg(long)]
        json: bool,
        /// With --trace: list the worlds when there are at most this many; with --json:
        /// list at most this many worlds at the end [default: 10]
        #[arg(long, value_parser = parse_limit)]
        limit: Option<u64>,
        #[command(flatten)]
        options: StoryOptions,
    },
    /// Print the epistemic model (worlds, and who cannot tell them apart) as Graphviz DOT
    Graph {
        /// The story file
        file: PathBuf,
        /// The model at this checkpoint instead of the end
        #[arg(long, value_name = "CHECKPOINT")]
        at: Option<String>,
        /// The event model of this event (or action) instead: its cases, and which each
        /// character cannot tell apart
        #[arg(long, value_name = "NAME", conflicts_with = "at")]
        event: Option<String>,
        /// Draw the model into this SVG file (epipen's own drawing, as in the playground; no Graphviz needed) instead of printing DOT
        #[arg(long, value_name = "OUT")]
        svg: Option<PathBuf>,
        #[command(flatten)]
        options: StoryOptions,
    },
    /// Verify every `assert_adds_ck` hint and every `check` of a story, printing each as verified/holds or refuted/fails
    Check {
        /// The story file
        file: PathBuf,
        /// Print one JSON object instead of text: {"reports": [...], "tally": {...}}
        /// (the verdicts, shows and plans in story order, and how many hold and fail)
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        options: StoryOptions,
    },
    /// Answer the jobs of a file in SMCDEL's text format (VARS, LAW, OBS, then TRUE?,
    /// VALID? and WHERE?) on epipen's engine, in words close to SMCDEL's
    Smcdel {
        /// The SMCDEL file (e.g. MuddyChildren.smcdel.txt; `-`: the standard input)
        file: PathBuf,
        /// Print one JSON object: {"jobs": [{"kind": "true"|"valid"|"where", "line": N,
        /// "answer": ...}]}
        #[arg(long, conflicts_with = "story")]
        json: bool,
        /// Print the file as an epipen story instead (`epipen check` on it gives the
        /// same answers)
        #[arg(long)]
        story: bool,
        /// Give up after this many seconds (exit code 1), at most 1e9
        #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
        /// Which backend runs the story (see `epipen worlds --help`) [default: auto]
        #[arg(long, value_parser = backend_parser())]
        backend: Option<Backend>,
    },
    /// Find a shortest plan: of an mA* file (the language of the epistemic planners EFP
    /// 2.0 and deep: fluent, action, agent, laws, initially, goal), or of a story's
    /// `plan` statements
    Plan {
        /// The mA* file (.txt, .mastar, or recognised by its first word) or story
        file: PathBuf,
        /// The longest plan looked for (mA* files)
        #[arg(long, value_name = "D", default_value_t = epipen::mastar::DEFAULT_MAX,
              value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
        max: usize,
        /// Print one JSON object: {"solvable": bool, "length": K or null, "plan": [name, …]}
        /// (a story: one per `plan` statement, with its "line")
        #[arg(long, conflicts_with = "story")]
        json: bool,
        /// Print the mA* file as an epipen story instead (`epipen run` on it gives the
        /// same plan)
        #[arg(long)]
        story: bool,
        /// Give up after this many seconds (exit code 1), at most 1e9
        #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
        /// Which backend runs the story (see `epipen worlds --help`) [default: auto]
        #[arg(long, value_parser = backend_parser())]
        backend: Option<Backend>,
    },
    /// Run a story for every combination of --set values (n=1..10), or for many seeds of
    /// its samples (--samples), in parallel; print how many worlds each run leaves
    Sweep {
        /// The story file
        file: PathBuf,
        /// Run this many seeds of the story's `sample(…)`s, from --seed on, and count how
        /// many give 0, 1, 2, … worlds
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        samples: Option<u64>,
        /// One JSON object per line: per run, or per combination with --samples
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        options: SweepOptions,
    },
    /// Tell a story a statement at a time, typed or piped on the standard input (after
    /// FILE, if given): each prints what it reports as `run` does, and a mistake is
    /// shown and has no effect
    Repl {
        /// A story file to tell first
        file: Option<PathBuf>,
        /// Override a `const` of the story, e.g. --set n=8 (repeatable)
        #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
        sets: Vec<(String, Vec<i64>)>,
        /// Seed of the story's `sample(k, {…})` draws [default: 0]
        #[arg(long)]
        seed: Option<u64>,
        /// Give up a statement after this many seconds, at most 1e9: each statement
        /// (the file told first is one) has its own time; one that runs out has no
        /// effect, and the story goes on
        #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
        /// Which backend runs the story (see `epipen worlds --help`) [default: auto]
        #[arg(long, value_parser = backend_parser())]
        backend: Option<Backend>,
    },
    /// Serve the web playground: edit, run and explore stories in the browser
    Serve {
        /// The address to listen on (127.0.0.1: this machine only)
        #[arg(long, default_value_t = std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST))]
        host: std::net::IpAddr,
        /// The port (0 picks a free one)
        #[arg(long, default_value_t = crate::serve::DEFAULT_PORT)]
        port: u16,
        /// Open the playground in the browser (with xdg-open)
        #[arg(long)]
        open: bool,
        /// Give up each solve after this many seconds, at most 1e9 (a page may ask for
        /// less) [default: 10]
        #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
    },
    /// Time stories as child processes `epipen worlds STORY`: wall time, peak memory, κ's size
    Bench {
        /// The story files (default: every stories/*.story, sorted by name)
        files: Vec<PathBuf>,
        /// Timed runs per story (one more with --stats gives κ's sizes)
        #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
        runs: u64,
        /// One JSON object per story per line
        #[arg(long)]
        json: bool,
        /// Kill a run after this many seconds, at most 1e9 (its row says so)
        #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
        timeout: Option<Duration>,
        /// Override a `const` of every story, e.g. --set n=8 (repeatable)
        #[arg(long = "set", value_name = "NAME=VALUE", value_parser = parse_set)]
        sets: Vec<(String, Vec<i64>)>,
        /// Which backend runs the stories (see `epipen worlds --help`) [default: auto]
        #[arg(long, value_parser = backend_parser())]
        backend: Option<Backend>,
    },
}

/// What a command runs with: its options, given after it or (for a story command)
/// before it.
pub(crate) struct Settings {
    pub(crate) timeout: Option<Duration>,
    pub(crate) stats: bool,
    pub(crate) sets: Vec<(String, Vec<i64>)>,
    pub(crate) seed: u64,
    pub(crate) backend: Backend,
}

impl Cli {
    /// The command's settings: its own options, with those given before it; an option
    /// before a command that does not take it is an error (exit code 2).
    pub(crate) fn settings(&self) -> Result<Settings, String> {
        let before = &self.before;
        let (name, after, takes): (&str, StoryOptions, [bool; 5]) = match &self.command {
            Command::Worlds { options, .. } => ("worlds", options.clone(), [true; 5]),
            Command::Run { options, .. } => ("run", options.clone(), [true; 5]),
            Command::Graph { options, .. } => ("graph", options.clone(), [true; 5]),
            Command::Check { options, .. } => ("check", options.clone(), [true; 5]),
            Command::Sweep { options, .. } => (
                "sweep",
                StoryOptions {
                    timeout: options.timeout,
                    stats: false,
                    sets: options.sets.clone(),
                    seed: options.seed,
                    backend: options.backend,
                },
                [true, false, true, true, true],
            ),
            Command::Smcdel {
                timeout, backend, ..
            } => (
                "smcdel",
                StoryOptions {
                    timeout: *timeout,
                    backend: *backend,
                    ..StoryOptions::default()
                },
                [true, false, false, false, true],
            ),
            Command::Plan {
                timeout, backend, ..
            } => (
                "plan",
                StoryOptions {
                    timeout: *timeout,
                    backend: *backend,
                    ..StoryOptions::default()
                },
                [true, false, false, false, true],
            ),
            Command::Repl {
                sets,
                seed,
                timeout,
                backend,
                ..
            } => (
                "repl",
                StoryOptions {
                    timeout: *timeout,
                    sets: sets.clone(),
                    seed: *seed,
                    backend: *backend,
                    ..StoryOptions::default()
                },
                [true, false, true, true, true],
            ),
            Command::Serve { timeout, .. } => (
                "serve",
                StoryOptions {
                    timeout: *timeout,
                    ..StoryOptions::default()
                },
                [true, false, false, false, false],
            ),
            Command::Bench {
                timeout,
                sets,
                backend,
                ..
            } => (
                "bench",
                StoryOptions {
                    timeout: *timeout,
                    sets: sets.clone(),
                    backend: *backend,
                    ..StoryOptions::default()
                },
                [true, false, true, false, true],
            ),
        };
        let given = [
            before.timeout.is_some(),
            before.stats,
            !before.sets.is_empty(),
            before.seed.is_some(),
            before.backend.is_some(),
        ];
        let flags = ["--timeout", "--stats", "--set", "--seed", "--backend"];
        if let Some(k) = (0..5).find(|&k| given[k] && !takes[k]) {
            return Err(format!(
                "{} does not apply to `epipen {name}` (`epipen {name} --help` lists its options)",
                flags[k]
            ));
        }
        Ok(Settings {
            timeout: after.timeout.or(before.timeout),
            stats: after.stats || before.stats,
            sets: before.sets.iter().chain(&after.sets).cloned().collect(),
            seed: after.seed.or(before.seed).unwrap_or(0),
            backend: after.backend.or(before.backend).unwrap_or_default(),
        })
    }
}

/// The longest `--timeout`, in seconds (about 31 years): a deadline must be a time the
/// clock can hold.
const MAX_TIMEOUT: f64 = 1e9;

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v > MAX_TIMEOUT && v.is_finite() => Err(format!(
            "`{s}` seconds is longer than the longest timeout, {MAX_TIMEOUT:.0} seconds (about 31 years)"
        )),
        Ok(v) if v > 0.0 && v.is_finite() => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

/// `worlds --limit N`: how many worlds to print, at least one.
fn parse_limit(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(0) => Err(
            "the limit is how many worlds to print at most, and 0 would print none: give 1 or more"
                .to_string(),
        ),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "`{s}` is not a whole number of worlds (the limit is how many to print at most)"
        )),
    }
}

/// The most values one `--set` may give.
const MAX_SET_VALUES: usize = 100_000;

/// `n=8`, `n=1..10` (both ends included) or `n=2,4,8`.
fn parse_set(s: &str) -> Result<(String, Vec<i64>), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not NAME=VALUE"))?;
    let int = |v: &str| {
        v.trim()
            .parse::<i64>()
            .map_err(|_| format!("`{}` is not a whole number", v.trim()))
    };
    let values = if let Some((lo, hi)) = value.split_once("..") {
        let (lo, hi) = (int(lo)?, int(hi.strip_prefix('=').unwrap_or(hi))?);
        if lo > hi {
            return Err(format!(
                "the range {lo}..{hi} is empty (both ends are included)"
            ));
        }
        if (hi as i128 - lo as i128) >= MAX_SET_VALUES as i128 {
            return Err(format!(
                "the range {lo}..{hi} has more than {MAX_SET_VALUES} values"
            ));
        }
        (lo..=hi).collect()
    } else {
        value.split(',').map(int).collect::<Result<Vec<_>, _>>()?
    };
    Ok((name.trim().to_string(), values))
}

/// The `--set` values of a command that runs the story once: one value each.
pub(crate) fn single_values(sets: &[(String, Vec<i64>)]) -> Result<Vec<(String, i64)>, ExitCode> {
    sets.iter()
        .map(|(name, values)| match values.as_slice() {
            [v] => Ok((name.clone(), *v)),
            _ => {
                errln!("error: --set {name}=…: gives {} values, and only `epipen sweep` runs a story once per value", values.len());
                errln!("  = hint: `epipen sweep FILE --set {name}=…`, or give one value");
                Err(ExitCode::from(2))
            }
        })
        .collect()
}

/// `--backend NAME`: one of the backends' names (`epipen::syntax::ast::Backend`).
fn backend_parser() -> impl clap::builder::TypedValueParser<Value = Backend> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(Backend::ALL.map(Backend::name))
        .map(|name| Backend::named(&name).unwrap_or_default())
}
