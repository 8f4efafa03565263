//! The command line: the only place that prints results and picks exit codes
//! (0 success, 1 solver failure, 2 usage or story error).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::engine::{Engine, EngineError, Options};
use crate::ir::{Program, StmtKind};
use crate::syntax::{Diagnostic, Span};
use crate::worlds::{Value, WorldSet};

const EXAMPLES: &str = "\
Examples:
  epipen worlds stories/cheryl.story              the worlds left at the end
  epipen worlds stories/cheryl.story --json       ... as one JSON object
  epipen worlds stories/consecutive-numbers.story --limit 3
  epipen run stories/cheryl-eve.story             print each `worlds` statement
  epipen -vv worlds stories/cheryl.story          with debug logs (κ size, timings)

Exit codes: 0 success, 1 solver failure (unknown, timeout, resource limit),
2 usage or story error.";

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
    },
    /// Run a story, printing the output of each `worlds` statement where it stands
    Run {
        /// The story file
        file: PathBuf,
    },
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(Duration::from_secs_f64(v)),
        _ => Err(format!("`{s}` is not a positive number of seconds")),
    }
}

/// Parses the arguments, runs the command, and returns the process's exit code.
pub fn main() -> ExitCode {
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
    let options = Options {
        timeout: cli.timeout,
    };
    match &cli.command {
        Command::Worlds { file, limit, json } => with_story(file, |story| {
            let mut engine = Engine::new(&story.program, &options);
            let mut progress = Progress::new(&story.program);
            for stmt in &story.program.statements {
                if matches!(stmt.kind, StmtKind::Worlds { .. }) {
                    continue;
                }
                progress.tick(story, stmt.span);
                engine.step(stmt).map_err(|e| story.solver_failure(&e))?;
            }
            progress.done();
            let end = story
                .program
                .statements
                .last()
                .map(|s| s.span)
                .unwrap_or_default();
            let set = engine
                .worlds(*limit)
                .map_err(|error| story.solver_failure(&EngineError { span: end, error }))?;
            if *json {
                println!("{}", worlds_json(&story.program, &set));
            } else {
                print!(
                    "{}",
                    worlds_text(&story.program, &set, "raise --limit to see more")
                );
            }
            Ok(())
        }),
        Command::Run { file } => with_story(file, |story| {
            let mut engine = Engine::new(&story.program, &options);
            let mut progress = Progress::new(&story.program);
            let mut printed = false;
            for stmt in &story.program.statements {
                progress.tick(story, stmt.span);
                if let Some(set) = engine.step(stmt).map_err(|e| story.solver_failure(&e))? {
                    progress.clear();
                    let (line, _) =
                        crate::syntax::diagnostic::line_col(&story.source, stmt.span.start);
                    println!("-- line {line}: worlds --");
                    print!(
                        "{}",
                        worlds_text(
                            &story.program,
                            &set,
                            "raise the number after `worlds` to see more"
                        )
                    );
                    printed = true;
                }
            }
            progress.done();
            if !printed {
                eprintln!(
                    "note: the story has no `worlds` statement; `epipen worlds FILE` prints the worlds at its end"
                );
            }
            Ok(())
        }),
    }
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

/// A story file read and compiled.
struct Story {
    path: String,
    source: String,
    program: Program,
}

/// Why a command failed, already rendered; the exit code follows from the kind.
enum Failure {
    Solver(String),
}

impl Story {
    fn solver_failure(&self, e: &EngineError) -> Failure {
        let hint = match e.error {
            crate::engine::SolverError::Timeout => Some("raise --timeout, or simplify the story"),
            _ => None,
        };
        let mut d = Diagnostic::error(e.span, format!("solver failure: {}", e.error));
        if let Some(h) = hint {
            d = d.with_hint(h);
        }
        Failure::Solver(d.render(&self.path, &self.source))
    }
}

/// Reads and compiles the story, runs `f`, and turns the outcome into an exit code.
fn with_story(file: &PathBuf, f: impl FnOnce(&Story) -> Result<(), Failure>) -> ExitCode {
    let path = file.display().to_string();
    let source = match std::fs::read_to_string(file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let program = match crate::compile(&source) {
        Ok(p) => p,
        Err(diagnostics) => {
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
        program,
    }) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Solver(text)) => {
            eprint!("{text}");
            ExitCode::from(1)
        }
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

    fn done(&mut self) {
        self.clear();
    }
}

fn world_line(program: &Program, values: &[Value]) -> String {
    if values.is_empty() {
        return "(no constants)".into();
    }
    program
        .constants
        .iter()
        .zip(values)
        .map(|(c, v)| format!("{} = {v}", c.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The human form: a header, one world per line, and whether that is all.
pub fn worlds_text(program: &Program, set: &WorldSet, more_hint: &str) -> String {
    let n = set.worlds.len();
    let mut out = if set.complete {
        match n {
            0 => "no possible worlds: the announcements contradict each other\n".to_string(),
            1 => "1 possible world:\n".to_string(),
            _ => format!("{n} possible worlds:\n"),
        }
    } else {
        format!("more than {n} possible worlds; the first {n}:\n")
    };
    for w in &set.worlds {
        out.push_str(&format!("  {}\n", world_line(program, &w.0)));
    }
    if set.complete {
        out.push_str("(and that's all)\n");
    } else {
        out.push_str(&format!("(more worlds exist; {more_hint})\n"));
    }
    out
}

/// `{"worlds": [{"month": 7, "day": 16}], "complete": true}`, keys in declaration order.
pub fn worlds_json(program: &Program, set: &WorldSet) -> String {
    let worlds: Vec<String> = set
        .worlds
        .iter()
        .map(|w| {
            let fields: Vec<String> = program
                .constants
                .iter()
                .zip(&w.0)
                .map(|(c, v)| format!("{}: {v}", serde_json::Value::String(c.name.clone())))
                .collect();
            format!("{{{}}}", fields.join(", "))
        })
        .collect();
    format!(
        "{{\"worlds\": [{}], \"complete\": {}}}",
        worlds.join(", "),
        set.complete
    )
}
