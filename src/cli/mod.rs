//! The command line: the only place that prints results and picks exit codes
//! (0 success, 1 solver failure, 2 usage or story error). The explorer's output is in
//! `trace.rs` (`run --trace`), `graph.rs` (`graph`, `worlds --dot`) and `sweep.rs`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod graph;
pub(crate) mod output;
mod sweep;
mod trace;
mod watchdog;

pub(crate) use trace::Traced;

use output::{err, errln, out, outln};

use crate::engine::{
    Engine, EngineError, Event, Failure as EngineFailure, Options, SolverError, Strategy,
};
use crate::explore;
use crate::ir::{Program, Stmt, StmtKind};
use crate::syntax::{Diagnostic, Span};
use crate::worlds::{self, WorldCount, WorldSet};

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
  epipen serve --open                             the web playground, in the browser

Exit codes: 0 success, 1 solver failure (unknown, timeout, resource limit),
a refuted hint or output that cannot be written, 2 usage or story error.";

#[derive(Parser)]
#[command(name = "epipen", about = "Solve epistemic logic puzzles with the Z3 SMT solver", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Log to stderr: -v info, -vv debug, -vvv trace (RUST_LOG overrides)
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Give up after this many seconds for the whole run (exit code 1), at most 1e9
    #[arg(long, global = true, value_name = "SECS", value_parser = parse_seconds)]
    timeout: Option<Duration>,
    /// Print each statement's time and κ's size after it, on stderr
    #[arg(long, global = true)]
    stats: bool,
    /// Override a `const` of the story, e.g. --set n=8 (repeatable); `sweep` also takes
    /// n=1..10 (inclusive) and n=2,4,8
    #[arg(long = "set", global = true, value_name = "NAME=VALUE", value_parser = parse_set)]
    sets: Vec<(String, Vec<i64>)>,
    /// Seed of the story's `sample(k, {…})` draws (the first seed with `sweep --samples`)
    #[arg(long, global = true, default_value_t = 0)]
    seed: u64,
    /// Which backend runs the story: explicit worlds when the first announcements bound
    /// every constant, BDDs for larger stories of bools and enums, Z3 otherwise (auto);
    /// a backend named here that does not fit the story is an error (exit code 2)
    #[arg(long, global = true, value_enum, default_value_t = Backend::Auto)]
    backend: Backend,
}

/// `--backend`: which of the engine's backends runs the story.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    #[default]
    Auto,
    Z3,
    Bdd,
    Explicit,
}

impl Backend {
    pub(crate) fn strategy(self) -> Strategy {
        match self {
            Backend::Auto => Strategy::Auto,
            Backend::Z3 => Strategy::Z3,
            Backend::Bdd => Strategy::Bdd,
            Backend::Explicit => Strategy::Explicit,
        }
    }

    /// As `--backend` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Z3 => "z3",
            Backend::Bdd => "bdd",
            Backend::Explicit => "explicit",
        }
    }
}

#[derive(Subcommand)]
enum Command {
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
        /// With --trace: one JSON object per line instead of text
        #[arg(long, requires = "trace")]
        json: bool,
        /// With --trace: list the worlds when there are at most this many
        #[arg(long, default_value_t = 10, requires = "trace")]
        limit: u64,
    },
    /// Print the epistemic model (worlds, and who cannot tell them apart) as Graphviz DOT
    Graph {
        /// The story file
        file: PathBuf,
        /// The model at this checkpoint instead of the end
        #[arg(long, value_name = "CHECKPOINT")]
        at: Option<String>,
        /// Render to this SVG file with Graphviz's `dot` instead of printing DOT
        #[arg(long, value_name = "OUT")]
        svg: Option<PathBuf>,
    },
    /// Verify every `assert_adds_ck` hint and every `check` of a story, printing each as verified/holds or refuted/fails
    Check {
        /// The story file
        file: PathBuf,
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
    },
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
fn single_values(sets: &[(String, Vec<i64>)]) -> Result<Vec<(String, i64)>, ExitCode> {
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

/// Parses the arguments, runs the command, and returns the process's exit code.
pub fn main() -> ExitCode {
    let code = run_command();
    // What is left in stdout's buffer: a failure to write it is an error too.
    output::flush_stdout();
    code
}

fn run_command() -> ExitCode {
    // Like any Unix filter, end quietly when stdout is closed (`epipen … | head`) instead
    // of failing to print.
    // SAFETY: restoring the default action of SIGPIPE, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Ctrl-C ends epipen like any command (exit status 130), also inside a solver call,
    // where Z3 would otherwise catch it and answer `unknown` (a solver failure, exit 1).
    z3::set_global_param("ctrl_c", "false");
    let version = format!("{} (Z3 {})", env!("CARGO_PKG_VERSION"), crate::z3_version());
    let matches = Cli::command().version(version).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let deadline = cli.timeout.map(|t| Instant::now() + t);
    if let Some(deadline) = deadline
        && !matches!(
            cli.command,
            Command::Sweep { .. } | Command::Bench { .. } | Command::Serve { .. }
        )
    {
        watchdog::start(deadline);
    }
    init_tracing(cli.verbose);
    tracing::debug!(
        "Z3 {} (linked from: {})",
        crate::z3_version(),
        env!("EPIPEN_Z3_SOURCE")
    );
    let mut options = Options {
        strategy: cli.backend.strategy(),
        timeout: cli.timeout,
        stats: cli.stats,
        ..Options::default()
    };
    let sets = match &cli.command {
        Command::Sweep { .. } => Vec::new(),
        _ => match single_values(&cli.sets) {
            Ok(sets) => sets,
            Err(code) => return code,
        },
    };
    match &cli.command {
        Command::Worlds {
            file,
            limit,
            json,
            dot,
            trust_hints,
        } => with_story(file, &sets, cli.seed, deadline, |story| {
            options.trust_hints = *trust_hints;
            options.skip_worlds_statements = true;
            let mut trusted = Vec::new();
            let mut engine = story.run(&options, &mut |event| {
                if let Event::HintTrusted { span } = event {
                    trusted.push(story.line(span));
                }
            })?;
            if *dot {
                out!("{}", story.graph(&mut engine, None)?);
                return Ok(());
            }
            let set = story.final_worlds(&mut engine, *limit)?;
            if *json {
                outln!("{}", worlds::worlds_json(&story.program, &set, &trusted));
            } else {
                out!("{}", trusted_note(&trusted));
                out!(
                    "{}",
                    worlds::worlds_text(&story.program, &set, "raise --limit to see more")
                );
            }
            Ok(())
        }),
        Command::Run {
            file,
            trust_hints,
            trace: false,
            ..
        } => with_story(file, &sets, cli.seed, deadline, |story| {
            options.trust_hints = *trust_hints;
            let mut printed = false;
            story.run(&options, &mut |event| {
                printed |= print_event(story, &event);
            })?;
            if !printed {
                errln!(
                    "note: the story printed nothing; `epipen worlds FILE` prints the worlds at its end"
                );
            }
            Ok(())
        }),
        Command::Run {
            file,
            trust_hints,
            trace: true,
            json,
            limit,
        } => with_story(file, &sets, cli.seed, deadline, |story| {
            options.trust_hints = *trust_hints;
            let limit = usize::try_from(*limit).unwrap_or(usize::MAX);
            story.trace(&options, limit, *json)
        }),
        Command::Graph { file, at, svg } => with_story(file, &sets, cli.seed, deadline, |story| {
            if let Some(out) = svg {
                graph::check_svg_path(out)?;
            }
            options.skip_worlds_statements = true;
            let checkpoint = story.checkpoint(at.as_deref())?;
            let mut engine = story.run(&options, &mut |_| {})?;
            let dot = story.graph(&mut engine, checkpoint)?;
            match svg {
                None => out!("{dot}"),
                Some(out) => graph::render_svg(&dot, out)?,
            }
            Ok(())
        }),
        Command::Sweep {
            file,
            samples,
            json,
        } => {
            let seeds = samples.unwrap_or(1);
            let runs = explore::sweep::run_count(&cli.sets, seeds);
            if runs > explore::sweep::MAX_RUNS {
                let sizes: Vec<String> = (cli.sets.iter())
                    .map(|(name, values)| format!("{} values of {name}", values.len()))
                    .chain(samples.map(|n| format!("{n} samples")))
                    .collect();
                errln!(
                    "error: the sweep would make {} runs ({}), more than the {} it makes at most",
                    if runs == u64::MAX {
                        "more than 2^64".to_string()
                    } else {
                        runs.to_string()
                    },
                    sizes.join(" × "),
                    explore::sweep::MAX_RUNS
                );
                errln!("  = hint: sweep fewer values at a time");
                return ExitCode::from(2);
            }
            let jobs = explore::sweep::jobs(&cli.sets, cli.seed, seeds);
            let (path, source) = match read_source(file) {
                Ok(read) => read,
                Err(code) => return code,
            };
            // What no value changes is checked once: the syntax, the names of the
            // `--set`s, and errors the story makes whatever the values (the same with
            // its own values as with the first run's). Whatever a run's values break
            // is that run's `error` row.
            let names = cli.sets.iter().map(|(name, _)| name.as_str());
            if let Err(e) = crate::parse_with_sets(&source, names) {
                return exit_code(Err(compile_failure(&path, &source, e)));
            }
            let compile = |sets: &[(String, i64)], seed| match crate::compile_until(
                &source, sets, seed, deadline,
            ) {
                Err(crate::CompileError::Story(diagnostics)) => diagnostics,
                _ => Vec::new(),
            };
            let own = compile(&[], cli.seed);
            if let Some(first) = jobs.first()
                && !own.is_empty()
                && compile(&first.sets, first.seed).first() == own.first()
            {
                return exit_code(Err(compile_failure(
                    &path,
                    &source,
                    crate::CompileError::Story(own),
                )));
            }
            let draws = |job: &explore::sweep::Job| {
                crate::compile_until(&source, &job.sets, job.seed, deadline)
                    .is_ok_and(|p| !p.samples.is_empty())
            };
            if samples.is_some()
                && let Some(first) = jobs.first()
                && !draws(first)
            {
                errln!(
                    "error: --samples: {path} draws nothing with `sample(k, {{…}})`, so every seed would run the same story"
                );
                errln!(
                    "  = hint: draw the story's values with `(…) in sample(k, {{…}})`, or sweep --set values instead"
                );
                return ExitCode::from(2);
            }
            let sweep = sweep::Sweep { source: &source };
            exit_code(sweep.run(jobs, &options, samples.is_some(), *json))
        }
        Command::Check { file } => with_story(file, &sets, cli.seed, deadline, |story| {
            options.keep_refuted_hints = true;
            options.skip_worlds_statements = true;
            let (mut verified, mut refuted) = (0, 0);
            story.run(&options, &mut |event| match event {
                Event::HintVerified { span, elapsed } => {
                    verified += 1;
                    outln!(
                        "line {}: hint `{}` verified ({:.2} s)",
                        story.line(span),
                        story.hint_text(span),
                        elapsed.as_secs_f64()
                    );
                }
                Event::CheckHolds { span } => {
                    verified += 1;
                    outln!(
                        "line {}: check `{}` holds",
                        story.line(span),
                        story.hint_text(span)
                    );
                }
                Event::CheckFailed { span, world } => {
                    refuted += 1;
                    outln!(
                        "line {}: check `{}` fails in the world {}",
                        story.line(span),
                        story.hint_text(span),
                        worlds::world_line(&story.program, &world.0)
                    );
                }
                Event::HintRefuted {
                    span,
                    elapsed,
                    counterexample,
                } => {
                    refuted += 1;
                    outln!(
                        "line {}: hint `{}` refuted ({:.2} s): counterexample {}",
                        story.line(span),
                        story.hint_text(span),
                        elapsed.as_secs_f64(),
                        counterexample.describe(&story.program)
                    );
                }
                _ => {}
            })?;
            outln!("{verified} verified, {refuted} refuted");
            if refuted > 0 {
                Err(Failure::Quiet(1))
            } else {
                Ok(())
            }
        }),
        Command::Serve { host, port, open } => crate::serve::main(
            &crate::serve::Config {
                host: *host,
                port: *port,
                timeout: cli.timeout.unwrap_or(crate::serve::DEFAULT_TIMEOUT),
                ..crate::serve::Config::default()
            },
            *open,
        ),
        Command::Bench { files, runs, json } => crate::bench::main(&crate::bench::Args {
            stories: files.clone(),
            runs: *runs as usize,
            sets: sets.clone(),
            timeout: cli.timeout,
            backend: cli.backend,
            json: *json,
        }),
    }
}

/// Whether `epipen run` prints the event.
fn printed_by_run(event: &Event) -> bool {
    !matches!(
        event,
        Event::HintVerified { .. } | Event::HintRefuted { .. } | Event::Step { .. }
    )
}

/// Prints one event of `epipen run`; returns whether it printed anything.
fn print_event(story: &Story, event: &Event) -> bool {
    if !printed_by_run(event) {
        return false;
    }
    match event {
        Event::Worlds { span, set } => {
            outln!("-- line {}: worlds --", story.line(*span));
            out!(
                "{}",
                worlds::worlds_text(
                    &story.program,
                    set,
                    "raise the number after `worlds` to see more"
                )
            );
        }
        Event::Reveal {
            round,
            who,
            text,
            holds,
            ..
        } => {
            let said = if *holds { text.clone() } else { negate(text) };
            let who = &story.program.characters[who.0].name;
            match round {
                Some(r) => outln!("round {r}: {who}: {said}"),
                None => outln!("{who}: {said}"),
            }
        }
        Event::RepeatDone { span, rounds } => {
            outln!(
                "-- line {}: repeat done after {rounds} round{} --",
                story.line(*span),
                if *rounds == 1 { "" } else { "s" }
            );
        }
        Event::HintTrusted { span } => out!("{}", trusted_note(&[story.line(*span)])),
        Event::CheckHolds { span } => outln!("check line {}: holds", story.line(*span)),
        Event::CheckFailed { span, world } => outln!(
            "check line {}: fails in the world {}",
            story.line(*span),
            worlds::world_line(&story.program, &world.0)
        ),
        Event::HintVerified { .. } | Event::HintRefuted { .. } | Event::Step { .. } => {}
    }
    true
}

/// `not φ` as a reader expects it: parentheses around anything with a top-level space.
fn negate(text: &str) -> String {
    let mut depth = 0i32;
    let compound = text.chars().any(|c| {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            _ => {}
        }
        c == ' ' && depth == 0
    });
    if compound {
        format!("not ({text})")
    } else {
        format!("not {text}")
    }
}

fn trusted_note(lines: &[usize]) -> String {
    lines
        .iter()
        .map(|l| format!("(the hint on line {l} was taken on trust, not verified)\n"))
        .collect()
}

fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    let level = match verbose {
        0 => "warn",
        1 => "epipen=info",
        2 => "epipen=debug",
        _ => "epipen=trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| output::LogWriter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
}

/// Called with the engine at the start (span None) and after each statement.
type AfterStep<'a> = dyn FnMut(&mut Engine, Option<Span>) -> Result<(), Failure> + 'a;

/// A story file read and compiled.
pub(crate) struct Story {
    /// The file's path as messages name it.
    pub(crate) path: String,
    pub(crate) source: String,
    pub(crate) program: Rc<Program>,
    /// When `--timeout` runs out.
    deadline: Option<Instant>,
    /// Whether a run shows its progress on stderr (when it is a terminal) and keeps the
    /// watchdog informed: the command line's runs do, the web playground's do not.
    pub(crate) progress: bool,
}

/// Why a command failed: a rendered message and its exit code.
pub(crate) enum Failure {
    Story(String),
    Solver(String),
    /// Everything was already printed; just the exit code.
    Quiet(u8),
}

impl Story {
    pub(crate) fn line(&self, span: Span) -> usize {
        crate::syntax::diagnostic::line_col(&self.source, span.start).0
    }

    pub(crate) fn end(&self) -> Span {
        self.program
            .statements
            .last()
            .map(|s| s.span)
            .unwrap_or_default()
    }

    /// The statement at `span` on one line, cut to fit (`--stats`, the trace).
    fn statement_line(&self, span: Span) -> String {
        explore::truncate(
            &explore::statement_text(&self.source[span.start..span.end]),
            72,
        )
    }

    /// The hint of the `assert_adds_ck` statement, or the formula of the `check`, at
    /// `span`, as written (on one line: its spaces collapsed).
    pub(crate) fn hint_text(&self, span: Span) -> String {
        fn formula(stmts: &[Stmt], span: Span) -> Option<Span> {
            stmts.iter().find_map(|stmt| match &stmt.kind {
                StmtKind::AssertAddsCk { hint, .. } if stmt.span == span => Some(hint.span),
                StmtKind::Check(e) if stmt.span == span => Some(e.span),
                StmtKind::AssertAddsCk { body, .. }
                | StmtKind::Simultaneously(body)
                | StmtKind::Repeat { body, .. } => formula(body, span),
                _ => None,
            })
        }
        let at = formula(&self.program.statements, span).unwrap_or(span);
        let text = &self.source[at.start..at.end];
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// Runs the story's statements with a progress line on stderr.
    pub(crate) fn run(
        &self,
        options: &Options,
        sink: &mut dyn FnMut(Event),
    ) -> Result<Engine, Failure> {
        self.run_observed(options, sink, &mut |_, _| Ok(()))
    }

    /// Runs the story's statements like [`Story::run`], calling `after` with the engine at
    /// the start (span None) and after each statement.
    fn run_observed(
        &self,
        options: &Options,
        sink: &mut dyn FnMut(Event),
        after: &mut AfterStep<'_>,
    ) -> Result<Engine, Failure> {
        // The deadline counts from the start of the command, reading and compiling included.
        // Each statement's time and κ size come as `Step` events for `--stats` and for
        // the debug log.
        let logged = tracing::enabled!(tracing::Level::DEBUG);
        let printed = options.stats;
        let options = Options {
            timeout: self
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now())),
            stats: options.stats || logged,
            ..options.clone()
        };
        let mut engine = Engine::new(self.program.clone(), &options);
        if options.stats && engine.backend() == "bdd" {
            let order = crate::bdd_order::order(&self.program);
            errln!(
                "stats: BDD variable order: {}",
                crate::bdd_order::describe(&self.program, &order)
            );
        }
        let mut progress = Progress::new(&self.program, self.progress);
        after(&mut engine, None)?;
        for stmt in &self.program.statements {
            if self.progress {
                watchdog::statement(stmt.span);
            }
            progress.tick(self, stmt.span);
            engine
                .step(stmt, &mut |event| {
                    progress.clear();
                    match event {
                        Event::Step {
                            span,
                            elapsed,
                            kappa_size,
                            unit,
                        } => {
                            let ms = elapsed.as_secs_f64() * 1000.0;
                            let statement = self.statement_line(span);
                            if logged {
                                let (line, column) =
                                    crate::syntax::diagnostic::line_col(&self.source, span.start);
                                tracing::debug!(
                                    "line {line}:{column}: done in {ms:.3} ms, κ {kappa_size} {unit}: {statement}"
                                );
                            }
                            if printed {
                                errln!(
                                    "stats: line {:>4}  {ms:>10.3} ms  κ {kappa_size:>9} {unit:<6}  {statement}",
                                    self.line(span),
                                );
                            }
                        }
                        event => sink(event),
                    }
                })
                .map_err(|e| self.failure(&e))?;
            after(&mut engine, Some(stmt.span))?;
        }
        progress.clear();
        Ok(engine)
    }

    /// Up to `limit` of the worlds possible at the end of the run of `engine`.
    pub(crate) fn final_worlds(
        &self,
        engine: &mut Engine,
        limit: u64,
    ) -> Result<WorldSet, Failure> {
        engine.worlds(limit).map_err(|error| {
            self.failure(&EngineError {
                span: self.end(),
                error: error.into(),
            })
        })
    }

    pub(crate) fn failure(&self, e: &EngineError) -> Failure {
        let d = Diagnostic::error(e.span, e.error.to_string());
        match &e.error {
            EngineFailure::Solver(SolverError::Timeout) => Failure::Solver(
                d.with_hint("raise --timeout, or simplify the story")
                    .render(&self.path, &self.source),
            ),
            EngineFailure::Solver(_) => Failure::Solver(d.render(&self.path, &self.source)),
            EngineFailure::Story { hints, .. } => {
                let d = hints.iter().fold(d, |d, h| d.with_hint(h.clone()));
                Failure::Story(d.render(&self.path, &self.source))
            }
            EngineFailure::CheckFailed(world) => {
                let d = Diagnostic::error(
                    e.span,
                    format!("the check `{}` fails", self.hint_text(e.span)),
                )
                .with_hint(format!(
                    "it is false in the possible world {}",
                    worlds::world_line(&self.program, &world.0)
                ));
                Failure::Solver(d.render(&self.path, &self.source))
            }
            EngineFailure::Refuted(c) => {
                let d = Diagnostic::error(
                    e.span,
                    format!("the hint `{}` is wrong", self.hint_text(e.span)),
                )
                .with_hint(format!("counterexample: {}", c.describe(&self.program)));
                Failure::Solver(d.render(&self.path, &self.source))
            }
        }
    }
}

/// The largest story file epipen reads.
const MAX_STORY_BYTES: u64 = 64 << 20;

/// The text of a story file, at most [`MAX_STORY_BYTES`] long.
fn read_story(file: &PathBuf) -> Result<String, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_STORY_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_STORY_BYTES {
        return Err(format!("it is larger than {} MiB", MAX_STORY_BYTES >> 20));
    }
    String::from_utf8(bytes).map_err(|e| format!("it is not UTF-8 text ({e})"))
}

/// Reads the story file: its path as shown and its text, or the exit code of the error
/// already printed.
fn read_source(file: &PathBuf) -> Result<(String, String), ExitCode> {
    let path = file.display().to_string();
    watchdog::reading(&path);
    match read_story(file) {
        Ok(source) => Ok((path, source)),
        Err(e) => {
            errln!("error: cannot read {path}: {e}");
            Err(ExitCode::from(2))
        }
    }
}

/// Reads and compiles the story, runs `f`, and turns the outcome into an exit code.
/// Unrolling stops at `deadline`, and the story keeps it for the run.
fn with_story(
    file: &PathBuf,
    sets: &[(String, i64)],
    seed: u64,
    deadline: Option<Instant>,
    f: impl FnOnce(&Story) -> Result<(), Failure>,
) -> ExitCode {
    let (path, source) = match read_source(file) {
        Ok(read) => read,
        Err(code) => return code,
    };
    watchdog::compiling(&path);
    exit_code(
        compile_story(path, source, sets, seed, deadline).and_then(|story| {
            watchdog::running(&story.path, &story.source);
            f(&story)
        }),
    )
}

/// Compiles the story `source` (read from `path`, as messages name it) with its `--set`s
/// and seed; unrolling stops at `deadline`, and the story keeps it for its runs.
pub(crate) fn compile_story(
    path: String,
    source: String,
    sets: &[(String, i64)],
    seed: u64,
    deadline: Option<Instant>,
) -> Result<Story, Failure> {
    match crate::compile_until(&source, sets, seed, deadline) {
        Ok(program) => Ok(Story {
            path,
            source,
            program: Rc::new(program),
            deadline,
            progress: true,
        }),
        Err(crate::CompileError::Story(diagnostics)) if !sets.is_empty() => Err(set_failure(
            &path,
            &source,
            sets,
            seed,
            deadline,
            &diagnostics,
        )),
        Err(e) => Err(compile_failure(&path, &source, e)),
    }
}

/// Why a story does not compile, rendered.
fn compile_failure(path: &str, source: &str, e: crate::CompileError) -> Failure {
    match e {
        crate::CompileError::Timeout { span } => {
            let d = Diagnostic::error(span, crate::lower::TIMEOUT_MESSAGE)
                .with_hint("raise --timeout, or simplify the story");
            Failure::Solver(d.render(path, source))
        }
        crate::CompileError::UnknownSet { name, consts } => {
            let hint = match consts.as_slice() {
                [] => "the story declares no consts".to_string(),
                _ => format!(
                    "its consts are {}",
                    consts
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            Failure::Story(format!(
                "error: --set {name}=…: {path} has no `const {name}`\n  = hint: {hint}\n"
            ))
        }
        crate::CompileError::Story(diagnostics) => {
            let mut text: String = diagnostics.iter().map(|d| d.render(path, source)).collect();
            let n = diagnostics.len();
            text.push_str(&format!(
                "error: {path}: {n} error{} found\n",
                if n == 1 { "" } else { "s" }
            ));
            Failure::Story(text)
        }
    }
}

/// A story that does not compile with its `--set` values (`diagnostics`). When it does
/// with its own values, the values are at fault: one error against the flags that break
/// it (each alone, or all of them together), with the story's first complaint as a hint,
/// instead of every consequence (a family of -1 members, then each use of it).
fn set_failure(
    path: &str,
    source: &str,
    sets: &[(String, i64)],
    seed: u64,
    deadline: Option<Instant>,
    diagnostics: &[Diagnostic],
) -> Failure {
    let compiles = |sets: &[(String, i64)]| crate::compile_until(source, sets, seed, deadline);
    if compiles(&[]).is_err() {
        return compile_failure(
            path,
            source,
            crate::CompileError::Story(diagnostics.to_vec()),
        );
    }
    let mut blamed: Vec<&(String, i64)> = sets
        .iter()
        .filter(|set| compiles(std::slice::from_ref(*set)).is_err())
        .collect();
    if blamed.is_empty() {
        blamed = sets.iter().collect();
    }
    let flags: Vec<String> = blamed
        .iter()
        .map(|(name, value)| format!("--set {name}={value}"))
        .collect();
    let mut text = format!(
        "error: {}: {path} does not compile with {}\n",
        flags.join(" "),
        if blamed.len() == 1 {
            "this value"
        } else {
            "these values"
        }
    );
    if let Some(first) = diagnostics.first() {
        let line = crate::syntax::diagnostic::line_col(source, first.span.start).0;
        text.push_str(&format!("  = hint: line {line}: {}\n", first.message));
    }
    Failure::Story(text)
}

/// The exit code of a command's outcome, its message printed.
fn exit_code(outcome: Result<(), Failure>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Story(text)) => {
            err!("{text}");
            ExitCode::from(2)
        }
        Err(Failure::Solver(text)) => {
            err!("{text}");
            ExitCode::from(1)
        }
        Err(Failure::Quiet(code)) => ExitCode::from(code),
    }
}

/// Shows which statement is running on stderr, when it is a terminal and the run is slow.
struct Progress {
    start: Instant,
    total: usize,
    done: usize,
    shown: bool,
    enabled: bool,
}

impl Progress {
    fn new(program: &Program, wanted: bool) -> Progress {
        Progress {
            start: Instant::now(),
            total: program.statements.len(),
            done: 0,
            shown: false,
            enabled: wanted && std::io::stderr().is_terminal(),
        }
    }

    fn tick(&mut self, story: &Story, span: Span) {
        self.done += 1;
        if self.enabled && self.start.elapsed() > Duration::from_millis(500) {
            let (line, _) = crate::syntax::diagnostic::line_col(&story.source, span.start);
            err!(
                "\r\x1b[2K[{}/{}] line {line} ({:.1} s)",
                self.done,
                self.total,
                self.start.elapsed().as_secs_f64()
            );
            self.shown = true;
        }
    }

    fn clear(&mut self) {
        if self.shown {
            err!("\r\x1b[2K");
            self.shown = false;
        }
    }
}

/// How many worlds, in JSON: a number, `"infinite"`, or `">N"`.
fn count_json(count: WorldCount) -> serde_json::Value {
    match count {
        WorldCount::Exactly(n) => n.into(),
        WorldCount::Infinite => "infinite".into(),
        WorldCount::MoreThan(n) => format!(">{n}").into(),
    }
}
