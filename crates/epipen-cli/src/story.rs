//! A story as the command line runs it: read from its file, compiled, and run with its
//! progress shown and `--stats` printed on stderr; the outcome as an exit code.

use std::io::IsTerminal;
use std::ops::Deref;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use epipen::engine::{Engine, Options};
use epipen::ir::Program;
use epipen::session::{Session, Watch};
use epipen::syntax::{Located, Span};
use epipen::views::Report;
use epipen::{About, Wording};

use crate::output::{err, errln, out};
use crate::watchdog;

/// A story file read and compiled, as a command runs it.
pub(crate) struct Story {
    pub(crate) compiled: Session,
    /// Whether a run shows its progress on stderr (when it is a terminal) and keeps the
    /// watchdog informed: the command line's runs do, the web playground's do not.
    pub(crate) progress: bool,
}

impl Deref for Story {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.compiled
    }
}

/// Why a command failed.
pub(crate) enum Failure {
    /// The story could not be compiled or run (rendered by `epipen::text`).
    Run(epipen::Failure),
    /// Everything was already printed; just the exit code.
    Quiet(u8),
}

impl From<epipen::Failure> for Failure {
    fn from(f: epipen::Failure) -> Failure {
        Failure::Run(f)
    }
}

impl Failure {
    /// The story is wrong (exit code 2): `message`, about no place of it, with `hint`.
    pub(crate) fn usage(path: &str, message: String, hint: Option<String>) -> Failure {
        let located = Located::nowhere(path, message);
        Failure::Run(epipen::Failure::story(match hint {
            Some(hint) => located.with_hint(hint),
            None => located,
        }))
    }

    /// Something the command line could not do (exit code 1), such as writing a file.
    pub(crate) fn io(path: &str, message: String) -> Failure {
        Failure::Run(epipen::Failure::solver(Located::nowhere(path, message)))
    }
}

impl Story {
    /// Compiles the story `source` (read from `path`, as messages name it) with its
    /// `--set`s and seed; unrolling stops at `deadline`, and the story keeps it for its
    /// runs.
    pub(crate) fn compile(
        path: String,
        source: String,
        sets: &[(String, i64)],
        seed: u64,
        deadline: Option<Instant>,
    ) -> Result<Story, Failure> {
        Ok(Story {
            compiled: Session::compile(path, source, sets, seed, deadline)?,
            progress: true,
        })
    }

    /// Runs the story's statements with a progress line on stderr.
    pub(crate) fn run(
        &self,
        options: &Options,
        sink: &mut dyn FnMut(Report),
    ) -> Result<Engine, Failure> {
        Ok(self
            .compiled
            .run_watched(options, &mut self.terminal(options), sink, &mut |_, _| {
                Ok(())
            })?)
    }

    /// What watches a run: the progress line, the watchdog, `--stats`.
    pub(crate) fn terminal(&self, options: &Options) -> Terminal {
        Terminal {
            progress: Progress::new(&self.program, self.progress),
            watchdog: self.progress,
            stats: options.stats,
            options: options.clone(),
        }
    }
}

/// A run as the terminal watches it: the statement running shown on stderr when the run
/// is slow, the watchdog told where the run is, and `--stats` printed.
pub(crate) struct Terminal {
    progress: Progress,
    watchdog: bool,
    stats: bool,
    /// The run's options (whether it may forget the histories: the BDD order it uses).
    options: Options,
}

impl Watch for Terminal {
    fn begun(&mut self, story: &Session, engine: &Engine) {
        if self.stats {
            errln!("stats: backend: {}", engine.backend());
        }
        if self.stats && engine.backend() == "bdd" {
            errln!(
                "stats: BDD variable order: {}",
                epipen::engine::bdd_variable_order_with(&story.program, &self.options)
            );
        }
    }

    fn starting(&mut self, story: &Session, span: Span) {
        if self.watchdog {
            watchdog::statement(span);
        }
        self.progress.tick(&story.source, span);
    }

    fn reporting(&mut self) {
        self.progress.clear();
    }

    fn stats(
        &mut self,
        story: &Session,
        span: Span,
        elapsed: Duration,
        kappa_size: usize,
        unit: &'static str,
    ) {
        let ms = elapsed.as_secs_f64() * 1000.0;
        errln!(
            "stats: line {:>4}  {ms:>10.3} ms  κ {kappa_size:>9} {unit:<6}  {}",
            story.line(span),
            story.statement_line(span),
        );
    }

    fn finished(&mut self) {
        self.progress.clear();
    }
}

/// Prints what `epipen run` prints of `report`; returns whether it printed anything.
pub(crate) fn print_report(report: &Report) -> bool {
    let text = epipen::text::report(report);
    out!("{text}");
    !text.is_empty()
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
pub(crate) fn read_source(file: &PathBuf) -> Result<(String, String), ExitCode> {
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
pub(crate) fn with_story(
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
        Story::compile(path, source, sets, seed, deadline).and_then(|story| {
            watchdog::running(&story.path, &story.source);
            f(&story)
        }),
    )
}

/// The exit code of a command's outcome, its message printed.
pub(crate) fn exit_code(outcome: Result<(), Failure>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Run(failure)) => {
            let code = failure.exit_code();
            err!("{}", epipen::text::failure(&worded(failure)));
            ExitCode::from(code)
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

    fn tick(&mut self, source: &str, span: Span) {
        self.done += 1;
        if self.enabled && self.start.elapsed() > Duration::from_millis(500) {
            let (line, _) = epipen::syntax::diagnostic::line_col(source, span.start);
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

/// `failure` in the command line's words: the flags it is about named (`--at NAME: `,
/// `--set n=3: `), and how to give a run more time (`--timeout`).
pub(crate) fn worded(failure: epipen::Failure) -> epipen::Failure {
    failure.worded(|about| match about {
        About::Timeout => Wording {
            named: None,
            hint: Some("raise --timeout, or simplify the story".into()),
        },
        About::Checkpoint(name) => Wording {
            named: Some(format!("--at {name}")),
            hint: None,
        },
        About::Sets(sets) => Wording {
            named: Some(
                (sets.iter())
                    .map(|(name, value)| match value {
                        Some(value) => format!("--set {name}={value}"),
                        None => format!("--set {name}=…"),
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            hint: None,
        },
        About::Samples(_) => Wording {
            named: Some("--samples".into()),
            hint: Some(
                "draw the story's values with `(…) in sample(k, {…})`, or sweep --set values instead"
                    .into(),
            ),
        },
        About::TooBig => Wording {
            named: None,
            hint: Some(
                "graph a checkpoint where fewer worlds are left (--at NAME), or use smaller parameters (--set)"
                    .into(),
            ),
        },
    })
}
