//! The command line: the only place that prints results and picks exit codes
//! (0 success, 1 solver failure, 2 usage or story error).

use std::cell::RefCell;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::engine::{Engine, EngineError, Event, Failure as EngineFailure, Options, SolverError};
use crate::explore::graph::{self, GRAPH_CAP};
use crate::explore::trace::{Fates, TraceStep, Tracer};
use crate::explore::{self, sweep};
use crate::ir::{CheckpointId, Program};
use crate::syntax::{Diagnostic, Span};
use crate::worlds::{self, World, WorldCount};

/// `run --trace` says which statement eliminated each world when there are at most
/// this many.
const FATES_SHOWN: usize = 100;

const EXAMPLES: &str = "\
Examples:
  epipen worlds stories/cheryl.story              the worlds left at the end
  epipen worlds stories/cheryl.story --json       ... as one JSON object
  epipen worlds stories/consecutive-numbers.story --limit 3
  epipen run stories/cheryl-eve.story             print each `worlds` statement
  epipen -vv worlds stories/cheryl.story          with debug logs (κ size, timings)
  epipen run stories/muddy-children.story --set n=8 --set k=2
  epipen check stories/who-has-the-sum.story      verify its assert_adds_ck hint

Exit codes: 0 success, 1 solver failure (unknown, timeout, resource limit)
or a refuted hint, 2 usage or story error.";

#[derive(Parser)]
#[command(name = "epipen", about = "Solve epistemic logic puzzles with the Z3 SMT solver", after_help = EXAMPLES)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Log to stderr: -v info, -vv debug, -vvv trace (RUST_LOG overrides)
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// Give up after this many seconds for the whole run (exit code 1)
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
}

#[derive(Subcommand)]
enum Command {
    /// Run a story and print the worlds possible at its end
    Worlds {
        /// The story file
        file: PathBuf,
        /// Print at most this many worlds
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
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
    /// Verify every `assert_adds_ck` hint of a story, printing each as verified or refuted
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

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
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
                eprintln!("error: --set {name}=…: gives {} values, and only `epipen sweep` runs a story once per value", values.len());
                eprintln!("  = hint: `epipen sweep FILE --set {name}=…`, or give one value");
                Err(ExitCode::from(2))
            }
        })
        .collect()
}

/// Parses the arguments, runs the command, and returns the process's exit code.
pub fn main() -> ExitCode {
    // Like any Unix filter, end quietly when stdout is closed (`epipen … | head`) instead
    // of failing to print.
    // SAFETY: restoring the default action of SIGPIPE, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let version = format!("{} (Z3 {})", env!("CARGO_PKG_VERSION"), crate::z3_version());
    let matches = Cli::command().version(version).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    init_tracing(cli.verbose);
    tracing::debug!(
        "Z3 {} (linked from: {})",
        crate::z3_version(),
        env!("EPIPEN_Z3_SOURCE")
    );
    let mut options = Options {
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
        } => with_story(file, &sets, cli.seed, |story| {
            options.trust_hints = *trust_hints;
            options.skip_worlds_statements = true;
            let mut trusted = Vec::new();
            let mut engine = story.run(&options, &mut |event| {
                if let Event::HintTrusted { span } = event {
                    trusted.push(story.line(span));
                }
            })?;
            if *dot {
                print!("{}", story.graph(&mut engine, None)?);
                return Ok(());
            }
            let set = engine.worlds(*limit).map_err(|error| {
                story.failure(&EngineError {
                    span: story.end(),
                    error: error.into(),
                })
            })?;
            if *json {
                println!("{}", worlds::worlds_json(&story.program, &set, &trusted));
            } else {
                print!("{}", trusted_note(&trusted));
                print!(
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
        } => with_story(file, &sets, cli.seed, |story| {
            options.trust_hints = *trust_hints;
            let mut printed = false;
            story.run(&options, &mut |event| {
                printed |= print_event(story, &event);
            })?;
            if !printed {
                eprintln!(
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
        } => with_story(file, &sets, cli.seed, |story| {
            options.trust_hints = *trust_hints;
            let limit = usize::try_from(*limit).unwrap_or(usize::MAX);
            story.trace(&options, limit, *json)
        }),
        Command::Graph { file, at, svg } => with_story(file, &sets, cli.seed, |story| {
            options.skip_worlds_statements = true;
            let checkpoint = story.checkpoint(at.as_deref())?;
            let mut engine = story.run(&options, &mut |_| {})?;
            let dot = story.graph(&mut engine, checkpoint)?;
            match svg {
                None => print!("{dot}"),
                Some(out) => render_svg(&dot, out)?,
            }
            Ok(())
        }),
        Command::Sweep {
            file,
            samples,
            json,
        } => {
            let seeds = match samples {
                Some(n) => cli.seed..cli.seed.saturating_add(*n),
                None => cli.seed..cli.seed + 1,
            };
            let jobs = sweep::jobs(&cli.sets, seeds);
            // The first run's values check the story and the names before the sweep.
            let first = jobs.first().map(|j| j.sets.clone()).unwrap_or_default();
            with_story(file, &first, cli.seed, |story| {
                story.sweep(jobs, &options, samples.is_some(), *json)
            })
        }
        Command::Check { file } => with_story(file, &sets, cli.seed, |story| {
            options.keep_refuted_hints = true;
            options.skip_worlds_statements = true;
            let (mut verified, mut refuted) = (0, 0);
            story.run(&options, &mut |event| match event {
                Event::HintVerified { span, elapsed } => {
                    verified += 1;
                    println!(
                        "line {}: hint `{}` verified ({:.2} s)",
                        story.line(span),
                        story.hint_text(span),
                        elapsed.as_secs_f64()
                    );
                }
                Event::HintRefuted {
                    span,
                    elapsed,
                    counterexample,
                } => {
                    refuted += 1;
                    println!(
                        "line {}: hint `{}` refuted ({:.2} s): counterexample {}",
                        story.line(span),
                        story.hint_text(span),
                        elapsed.as_secs_f64(),
                        counterexample.describe(&story.program)
                    );
                }
                _ => {}
            })?;
            println!("{verified} verified, {refuted} refuted");
            if refuted > 0 {
                Err(Failure::Quiet(1))
            } else {
                Ok(())
            }
        }),
        Command::Bench { files, runs, json } => crate::bench::main(&crate::bench::Args {
            stories: files.clone(),
            runs: *runs as usize,
            sets: sets.clone(),
            timeout: cli.timeout,
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
            println!("-- line {}: worlds --", story.line(*span));
            print!(
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
                Some(r) => println!("round {r}: {who}: {said}"),
                None => println!("{who}: {said}"),
            }
        }
        Event::RepeatDone { span, rounds } => {
            println!(
                "-- line {}: repeat done after {rounds} round{} --",
                story.line(*span),
                if *rounds == 1 { "" } else { "s" }
            );
        }
        Event::HintTrusted { span } => print!("{}", trusted_note(&[story.line(*span)])),
        Event::HintVerified { .. } | Event::HintRefuted { .. } | Event::Step { .. } => {}
    }
    true
}

/// How many worlds, in JSON: a number, `"infinite"`, or `">N"`.
fn count_json(count: WorldCount) -> serde_json::Value {
    match count {
        WorldCount::Exactly(n) => n.into(),
        WorldCount::Infinite => "infinite".into(),
        WorldCount::MoreThan(n) => format!(">{n}").into(),
    }
}

/// Renders DOT text to an SVG file with Graphviz's `dot` (given a file, not a pipe: a
/// `dot` that dies early cannot take epipen down with it).
fn render_svg(dot: &str, out: &std::path::Path) -> Result<(), Failure> {
    let input = std::env::temp_dir().join(format!("epipen-{}.dot", std::process::id()));
    std::fs::write(&input, dot)
        .map_err(|e| Failure::Story(format!("error: cannot write {}: {e}\n", input.display())))?;
    let ran = std::process::Command::new("dot")
        .arg("-Tsvg")
        .arg("-o")
        .arg(out)
        .arg(&input)
        .output();
    let _ = std::fs::remove_file(&input);
    match ran {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Failure::Story(
            "error: --svg needs Graphviz's `dot` program, which is not installed (not found on PATH)\n  \
             = hint: install Graphviz (Debian: `apt install graphviz`), or print the DOT text instead: `epipen graph FILE > model.dot`\n"
                .to_string(),
        )),
        Err(e) => Err(Failure::Story(format!("error: cannot run `dot`: {e}\n"))),
        Ok(output) if !output.status.success() => Err(Failure::Solver(format!(
            "error: `dot` failed ({}) writing {}\n{}",
            output.status,
            out.display(),
            String::from_utf8_lossy(&output.stderr)
        ))),
        Ok(_) => {
            println!("wrote {}", out.display());
            Ok(())
        }
    }
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
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}

/// Called with the engine at the start (span None) and after each statement.
type AfterStep<'a> = dyn FnMut(&mut Engine, Option<Span>) -> Result<(), Failure> + 'a;

/// A story file read and compiled.
struct Story {
    path: String,
    source: String,
    program: Rc<Program>,
}

/// Why a command failed: a rendered message and its exit code.
enum Failure {
    Story(String),
    Solver(String),
    /// Everything was already printed; just the exit code.
    Quiet(u8),
}

impl Story {
    fn line(&self, span: Span) -> usize {
        crate::syntax::diagnostic::line_col(&self.source, span.start).0
    }

    fn end(&self) -> Span {
        self.program
            .statements
            .last()
            .map(|s| s.span)
            .unwrap_or_default()
    }

    /// The first line of the statement at `span`, as written.
    fn first_line(&self, span: Span) -> &str {
        self.source[span.start..span.end]
            .lines()
            .next()
            .unwrap_or("")
    }

    /// The hint of the `assert_adds_ck` statement at `span`, as written.
    fn hint_text(&self, span: Span) -> &str {
        let text = &self.source[span.start..span.end];
        let text = text.strip_prefix("assert_adds_ck").unwrap_or(text);
        text.split('{').next().unwrap_or(text).trim()
    }

    /// Runs the story's statements with a progress line on stderr.
    fn run(&self, options: &Options, sink: &mut dyn FnMut(Event)) -> Result<Engine, Failure> {
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
        let mut engine = Engine::new(self.program.clone(), options);
        let mut progress = Progress::new(&self.program);
        let current = options.timeout.map(|t| self.watchdog(t));
        after(&mut engine, None)?;
        for stmt in &self.program.statements {
            if let Some(current) = &current {
                *current.lock().unwrap_or_else(|e| e.into_inner()) = stmt.span;
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
                        } => eprintln!(
                            "stats: line {:>4}  {:>10.3} ms  κ {kappa_size} nodes  {}",
                            self.line(span),
                            elapsed.as_secs_f64() * 1000.0,
                            self.first_line(span)
                        ),
                        event => sink(event),
                    }
                })
                .map_err(|e| self.failure(&e))?;
            after(&mut engine, Some(stmt.span))?;
        }
        progress.clear();
        Ok(engine)
    }

    /// `epipen run --trace`: the run's own output, and after each statement the worlds
    /// possible; at the end, which statement eliminated each world.
    fn trace(&self, options: &Options, limit: usize, json: bool) -> Result<(), Failure> {
        let mut tracer = Tracer::new(limit);
        // The step not printed yet: the next may come from the same (unrolled) statement.
        // It is printed before anything the next statement prints.
        let pending: RefCell<Option<TraceStep>> = RefCell::new(None);
        let flush = || {
            if let Some(step) = pending.borrow_mut().take() {
                if json {
                    println!("{}", self.step_json(&step));
                } else {
                    print!("{}", self.step_text(&step));
                }
            }
        };
        self.run_observed(
            options,
            &mut |event| {
                if json {
                    if let Some(line) = self.event_json(&event) {
                        flush();
                        println!("{line}");
                    }
                } else if printed_by_run(&event) {
                    flush();
                    print_event(self, &event);
                }
            },
            &mut |engine, span| {
                let step = tracer
                    .observe(engine, span)
                    .map_err(|e| self.failure(&self.located(span, e)))?;
                let same = matches!(&*pending.borrow(), Some(p) if p.span.is_some() && p.span == step.span);
                if same {
                    if let Some(p) = pending.borrow_mut().as_mut() {
                        p.absorb(step);
                    }
                } else {
                    flush();
                    *pending.borrow_mut() = Some(step);
                }
                Ok(())
            },
        )?;
        flush();
        if let Some(fates) = tracer.fates() {
            if json {
                println!("{}", self.fates_json(fates));
            } else {
                print!("{}", self.fates_text(fates));
            }
        }
        Ok(())
    }

    /// A failure outside any statement's run, at `span` (None: the story's end).
    fn located(&self, span: Option<Span>, error: EngineFailure) -> EngineError {
        EngineError {
            span: span.unwrap_or_else(|| self.end()),
            error,
        }
    }

    /// `line 8: announce …` (or `start`), cut to fit a line.
    fn step_title(&self, span: Option<Span>) -> String {
        match span {
            None => "start".to_string(),
            Some(span) => format!(
                "line {}: {}",
                self.line(span),
                explore::truncate(&self.statement(span), 72)
            ),
        }
    }

    /// The statement at `span` on one line.
    fn statement(&self, span: Span) -> String {
        explore::statement_text(&self.source[span.start..span.end])
    }

    fn step_text(&self, step: &TraceStep) -> String {
        let mut out = format!("{}  =>  {}", self.step_title(step.span), step.count);
        match step.removed {
            Some(n) if n > 0 => out.push_str(&format!(" ({n} eliminated)")),
            _ if step.changed == Some(false) => out.push_str(" (unchanged)"),
            _ => {}
        }
        out.push('\n');
        if step.changed == Some(true)
            && let Some(worlds) = &step.worlds
        {
            for w in worlds {
                out.push_str(&format!(
                    "    {}\n",
                    worlds::world_line(&self.program, &w.0)
                ));
            }
        }
        out
    }

    fn fates_text(&self, fates: &Fates) -> String {
        let since = match fates.since {
            None => "at the start".to_string(),
            Some(span) => format!("after line {}", self.line(span)),
        };
        let n = fates.worlds.len();
        if n > FATES_SHOWN {
            return format!(
                "({n} worlds {since}: too many to say which statement eliminated each; --json lists them)\n"
            );
        }
        let mut out = format!(
            "-- which statement eliminated each of the {n} world{} possible {since} --\n",
            if n == 1 { "" } else { "s" }
        );
        let lines: Vec<String> = fates
            .worlds
            .iter()
            .map(|(w, _)| worlds::world_line(&self.program, &w.0))
            .collect();
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        for (line, (_, fate)) in lines.iter().zip(&fates.worlds) {
            let fate = match fate {
                None => "still possible".to_string(),
                Some(span) => self.step_title(Some(*span)),
            };
            out.push_str(&format!("  {line:<width$}  {fate}\n"));
        }
        out
    }

    fn step_json(&self, step: &TraceStep) -> serde_json::Value {
        let mut object = serde_json::Map::new();
        object.insert("kind".into(), "step".into());
        object.insert("line".into(), step.span.map(|s| self.line(s)).into());
        object.insert(
            "event".into(),
            step.span
                .map_or("start".to_string(), |s| self.statement(s))
                .into(),
        );
        object.insert("worlds".into(), count_json(step.count));
        object.insert("changed".into(), step.changed.into());
        if let Some(worlds) = &step.worlds {
            object.insert("list".into(), self.worlds_value(worlds));
        }
        if let Some(n) = step.removed {
            object.insert("removed".into(), n.into());
        }
        if let Some(gone) = &step.eliminated {
            object.insert("eliminated".into(), self.worlds_value(gone));
        }
        object.into()
    }

    fn fates_json(&self, fates: &Fates) -> serde_json::Value {
        let worlds: Vec<serde_json::Value> = fates
            .worlds
            .iter()
            .map(|(w, fate)| {
                serde_json::json!({
                    "world": worlds::world_json(&self.program, w),
                    "eliminated_by": fate.map(|s| self.line(s)),
                })
            })
            .collect();
        serde_json::json!({
            "kind": "fates",
            "since": fates.since.map(|s| self.line(s)),
            "fates": worlds,
        })
    }

    fn worlds_value(&self, worlds: &[World]) -> serde_json::Value {
        worlds
            .iter()
            .map(|w| serde_json::Value::Object(worlds::world_json(&self.program, w)))
            .collect()
    }

    /// A run's own event (a reveal, a `worlds` statement, …) as one JSON line.
    fn event_json(&self, event: &Event) -> Option<serde_json::Value> {
        Some(match event {
            Event::Worlds { span, set } => serde_json::json!({
                "kind": "worlds",
                "line": self.line(*span),
                "worlds": self.worlds_value(&set.worlds),
                "complete": set.complete,
            }),
            Event::Reveal {
                span,
                round,
                who,
                text,
                holds,
            } => serde_json::json!({
                "kind": "reveal",
                "line": self.line(*span),
                "round": round,
                "who": self.program.characters[who.0].name,
                "said": if *holds { text.clone() } else { negate(text) },
            }),
            Event::RepeatDone { span, rounds } => serde_json::json!({
                "kind": "repeat",
                "line": self.line(*span),
                "rounds": rounds,
            }),
            Event::HintTrusted { span } => serde_json::json!({
                "kind": "hint",
                "line": self.line(*span),
                "trusted": true,
            }),
            Event::HintVerified { .. } | Event::HintRefuted { .. } | Event::Step { .. } => {
                return None;
            }
        })
    }

    /// `epipen sweep`: runs every job in parallel and prints a table (one row per run,
    /// or with `samples` one distribution per combination of values).
    fn sweep(
        &self,
        jobs: Vec<sweep::Job>,
        options: &Options,
        samples: bool,
        json: bool,
    ) -> Result<(), Failure> {
        let start = Instant::now();
        let terminal = std::io::stderr().is_terminal();
        let outcomes = sweep::run_all(&self.source, jobs, options, &|done, total| {
            if terminal && start.elapsed() > Duration::from_millis(500) {
                eprint!(
                    "\r\x1b[2Ksweep: {done}/{total} runs ({:.1} s)",
                    start.elapsed().as_secs_f64()
                );
            }
        });
        if terminal && start.elapsed() > Duration::from_millis(500) {
            eprint!("\r\x1b[2K");
        }
        if samples {
            for group in outcomes.chunk_by(|a, b| a.job.sets == b.job.sets) {
                if json {
                    println!("{}", self.distribution_json(group));
                } else {
                    print!("{}", self.distribution_text(group));
                }
            }
        } else if json {
            for o in &outcomes {
                println!("{}", self.outcome_json(o));
            }
        } else {
            print!("{}", self.sweep_table(&outcomes));
        }
        // The worst failure decides the exit code: a story error (2) over a solver one (1).
        let failed = outcomes.iter().filter(|o| o.result.is_err()).count();
        let code = outcomes
            .iter()
            .filter_map(|o| o.result.as_ref().err().map(|e| self.run_error_code(e)))
            .max();
        match code {
            None => Ok(()),
            Some(code) => {
                eprintln!(
                    "error: {failed} of {} runs failed; the first: {}",
                    outcomes.len(),
                    outcomes
                        .iter()
                        .find_map(|o| o.result.as_ref().err())
                        .map(|e| self.run_error_text(e))
                        .unwrap_or_default()
                );
                Err(Failure::Quiet(code))
            }
        }
    }

    fn run_error_code(&self, e: &sweep::RunError) -> u8 {
        match e {
            sweep::RunError::Compile(_) => 2,
            sweep::RunError::Engine(e) => match self.failure(e) {
                Failure::Story(_) => 2,
                _ => 1,
            },
        }
    }

    /// A failed run on one line: `line 26: …`.
    fn run_error_text(&self, e: &sweep::RunError) -> String {
        match e {
            sweep::RunError::Compile(ds) => ds
                .first()
                .map(|d| format!("line {}: {}", self.line(d.span), d.message))
                .unwrap_or_default(),
            sweep::RunError::Engine(e) => format!("line {}: {}", self.line(e.span), e.error),
        }
    }

    fn sweep_table(&self, outcomes: &[sweep::Outcome]) -> String {
        let names: Vec<&str> = outcomes
            .first()
            .map(|o| o.job.sets.iter().map(|s| s.0.as_str()).collect())
            .unwrap_or_default();
        let mut rows: Vec<Vec<String>> = Vec::new();
        let mut header: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        header.extend(["worlds", "time", "the world, when one"].map(String::from));
        rows.push(header);
        for o in outcomes {
            let mut row: Vec<String> = o.job.sets.iter().map(|s| s.1.to_string()).collect();
            match &o.result {
                Ok(summary) => {
                    row.push(summary.count.to_string());
                    row.push(format!("{:.1} ms", o.elapsed.as_secs_f64() * 1000.0));
                    row.push(
                        summary
                            .world
                            .as_ref()
                            .map(|w| worlds::world_line(&summary.program, &w.0))
                            .unwrap_or_default(),
                    );
                }
                Err(e) => {
                    row.push("error".into());
                    row.push(format!("{:.1} ms", o.elapsed.as_secs_f64() * 1000.0));
                    row.push(self.run_error_text(e));
                }
            }
            rows.push(row);
        }
        let columns = rows[0].len();
        let widths: Vec<usize> = (0..columns)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        for row in &rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(c, (cell, w))| {
                    if c + 1 == columns {
                        cell.clone()
                    } else if c + 2 == columns {
                        format!("{cell:>w$}")
                    } else {
                        format!("{cell:<w$}")
                    }
                })
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        out
    }

    /// `{(5, 15), (6, 17), …}`: the items a sample drew, as written in the story.
    fn draw_text(&self, draw: &crate::ir::SampleDraw) -> String {
        let items: Vec<&str> = draw
            .items
            .iter()
            .map(|s| &self.source[s.start..s.end])
            .collect();
        format!("{{{}}}", items.join(", "))
    }

    fn sets_text(sets: &[(String, i64)]) -> String {
        sets.iter()
            .map(|(n, v)| format!("{n} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn distribution_text(&self, group: &[sweep::Outcome]) -> String {
        let d = sweep::distribution(group);
        let mut out = String::new();
        if let Some(first) = group.first()
            && !first.job.sets.is_empty()
        {
            out.push_str(&format!("{}:\n", Self::sets_text(&first.job.sets)));
        }
        let (lo, hi) = (
            group.first().map_or(0, |o| o.job.seed),
            group.last().map_or(0, |o| o.job.seed),
        );
        let n = group.len();
        out.push_str(&format!("{n} samples (seeds {lo} to {hi}):\n"));
        out.push_str("  worlds  samples   share\n");
        let share = |k: usize| 100.0 * k as f64 / n as f64;
        for (worlds, k) in &d.counts {
            let label = worlds.map_or(format!(">{}", sweep::COUNT_CAP), |w| w.to_string());
            out.push_str(&format!("  {label:>6}  {k:>7}  {:>5.1}%\n", share(*k)));
        }
        if d.failed > 0 {
            out.push_str(&format!(
                "  failed  {:>7}  {:>5.1}%\n",
                d.failed,
                share(d.failed)
            ));
        }
        match d.first_unique.map(|k| &group[k]) {
            None => out.push_str("no sample leaves exactly one world\n"),
            Some(o) => {
                out.push_str(&format!(
                    "first sample with exactly one world: --seed {}\n",
                    o.job.seed
                ));
                if let Ok(summary) = &o.result {
                    for draw in &summary.draws {
                        out.push_str(&format!(
                            "  line {}: drew {}\n",
                            self.line(draw.span),
                            self.draw_text(draw)
                        ));
                    }
                    if let Some(w) = &summary.world {
                        out.push_str(&format!(
                            "  the world: {}\n",
                            worlds::world_line(&summary.program, &w.0)
                        ));
                    }
                }
            }
        }
        out
    }

    fn sets_json(sets: &[(String, i64)]) -> serde_json::Value {
        sets.iter()
            .map(|(n, v)| (n.clone(), serde_json::Value::from(*v)))
            .collect::<serde_json::Map<_, _>>()
            .into()
    }

    fn outcome_json(&self, o: &sweep::Outcome) -> serde_json::Value {
        let mut object = serde_json::Map::new();
        object.insert("sets".into(), Self::sets_json(&o.job.sets));
        object.insert("seed".into(), o.job.seed.into());
        match &o.result {
            Ok(s) => {
                object.insert("worlds".into(), count_json(s.count));
                if let Some(w) = &s.world {
                    object.insert("world".into(), worlds::world_json(&s.program, w).into());
                }
            }
            Err(e) => {
                object.insert("error".into(), self.run_error_text(e).into());
            }
        }
        object.insert(
            "ms".into(),
            ((o.elapsed.as_secs_f64() * 10_000.0).round() / 10.0).into(),
        );
        object.into()
    }

    fn distribution_json(&self, group: &[sweep::Outcome]) -> serde_json::Value {
        let d = sweep::distribution(group);
        let counts: serde_json::Map<String, serde_json::Value> = d
            .counts
            .iter()
            .map(|(w, k)| {
                let key = w.map_or(format!(">{}", sweep::COUNT_CAP), |w| w.to_string());
                (key, serde_json::Value::from(*k))
            })
            .collect();
        let first_unique = d.first_unique.map(|k| {
            let o = &group[k];
            let (world, drew) = match &o.result {
                Ok(s) => (
                    s.world
                        .as_ref()
                        .map(|w| serde_json::Value::from(worlds::world_json(&s.program, w))),
                    s.draws
                        .iter()
                        .map(|d| self.draw_text(d))
                        .collect::<Vec<_>>(),
                ),
                Err(_) => (None, Vec::new()),
            };
            serde_json::json!({"seed": o.job.seed, "world": world, "drew": drew})
        });
        serde_json::json!({
            "sets": Self::sets_json(group.first().map_or(&[][..], |o| &o.job.sets)),
            "samples": group.len(),
            "seeds": [group.first().map(|o| o.job.seed), group.last().map(|o| o.job.seed)],
            "counts": counts,
            "failed": d.failed,
            "first_unique": first_unique,
        })
    }

    /// The checkpoint named `name` (None: the end of the story).
    fn checkpoint(&self, name: Option<&str>) -> Result<Option<CheckpointId>, Failure> {
        let Some(name) = name else { return Ok(None) };
        match self.program.checkpoints.iter().position(|c| c.name == name) {
            Some(k) => Ok(Some(CheckpointId(k))),
            None => {
                let names: Vec<String> = self
                    .program
                    .checkpoints
                    .iter()
                    .map(|c| format!("`{}`", c.name))
                    .collect();
                let hint = if names.is_empty() {
                    "the story has no checkpoints; add `checkpoint NAME` where you want the graph"
                        .to_string()
                } else {
                    format!("its checkpoints are {}", names.join(", "))
                };
                Err(Failure::Story(format!(
                    "error: --at {name}: {} has no checkpoint `{name}`\n  = hint: {hint}\n",
                    self.path
                )))
            }
        }
    }

    /// The epistemic model at `checkpoint` (None: now) as DOT, or the error that says
    /// why it cannot be drawn.
    fn graph(
        &self,
        engine: &mut Engine,
        checkpoint: Option<CheckpointId>,
    ) -> Result<String, Failure> {
        let (span, place) = match checkpoint {
            None => (self.end(), "at the end".to_string()),
            Some(c) => (
                self.program.checkpoints[c.0].span,
                format!("at checkpoint {}", self.program.checkpoints[c.0].name),
            ),
        };
        let at = |error: EngineFailure| self.failure(&EngineError { span, error });
        let Some(model) = engine.model(checkpoint, GRAPH_CAP).map_err(at)? else {
            let count = engine.count_worlds(checkpoint, GRAPH_CAP).map_err(at)?;
            let d = Diagnostic::error(
                span,
                format!("the model {place} has {count}; a graph shows at most {GRAPH_CAP}"),
            )
            .with_hint("graph a checkpoint where fewer worlds are left (--at NAME), or use smaller parameters (--set)");
            return Err(Failure::Story(d.render(&self.path, &self.source)));
        };
        let file = std::path::Path::new(&self.path)
            .file_name()
            .map_or(self.path.clone(), |f| f.to_string_lossy().into_owned());
        let title = format!(
            "{file} {place}: {}",
            WorldCount::Exactly(model.worlds.len() as u64)
        );
        Ok(graph::dot(&self.program, &model, &title))
    }

    /// Keeps `--timeout` a promise: the engine checks the deadline between solver calls,
    /// but a single long Z3 call (a `simplify`, say) does not look at it. A second after
    /// the deadline this thread reports the timeout at the running statement, as the
    /// engine would, and ends the process with exit code 1. Returns where to record the
    /// running statement.
    fn watchdog(&self, timeout: Duration) -> Arc<Mutex<Span>> {
        let current = Arc::new(Mutex::new(Span::default()));
        let (path, source, at) = (self.path.clone(), self.source.clone(), current.clone());
        std::thread::spawn(move || {
            std::thread::sleep(timeout + Duration::from_secs(1));
            let span = *at.lock().unwrap_or_else(|e| e.into_inner());
            let d = Diagnostic::error(span, format!("solver failure: {}", SolverError::Timeout))
                .with_hint("raise --timeout, or simplify the story");
            eprint!("{}", d.render(&path, &source));
            std::process::exit(1);
        });
        current
    }

    fn failure(&self, e: &EngineError) -> Failure {
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

/// Reads and compiles the story, runs `f`, and turns the outcome into an exit code.
fn with_story(
    file: &PathBuf,
    sets: &[(String, i64)],
    seed: u64,
    f: impl FnOnce(&Story) -> Result<(), Failure>,
) -> ExitCode {
    let path = file.display().to_string();
    let source = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let program = match crate::compile_seeded(&source, sets, seed) {
        Ok(p) => p,
        Err(crate::CompileError::UnknownSet { name, consts }) => {
            eprintln!("error: --set {name}=…: {path} has no `const {name}`");
            match consts.as_slice() {
                [] => eprintln!("  = hint: the story declares no consts"),
                _ => eprintln!(
                    "  = hint: its consts are {}",
                    consts
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }
            return ExitCode::from(2);
        }
        Err(crate::CompileError::Story(diagnostics)) => {
            for d in &diagnostics {
                eprint!("{}", d.render(&path, &source));
            }
            let n = diagnostics.len();
            eprintln!(
                "error: {path}: {n} error{} found",
                if n == 1 { "" } else { "s" }
            );
            return ExitCode::from(2);
        }
    };
    match f(&Story {
        path,
        source,
        program: Rc::new(program),
    }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Story(text)) => {
            eprint!("{text}");
            ExitCode::from(2)
        }
        Err(Failure::Solver(text)) => {
            eprint!("{text}");
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
    fn new(program: &Program) -> Progress {
        Progress {
            start: Instant::now(),
            total: program.statements.len(),
            done: 0,
            shown: false,
            enabled: std::io::stderr().is_terminal(),
        }
    }

    fn tick(&mut self, story: &Story, span: Span) {
        self.done += 1;
        if self.enabled && self.start.elapsed() > Duration::from_millis(500) {
            let (line, _) = crate::syntax::diagnostic::line_col(&story.source, span.start);
            eprint!(
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
            eprint!("\r\x1b[2K");
            self.shown = false;
        }
    }
}
