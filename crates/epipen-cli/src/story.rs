//! A story as the command line runs it: read from its file, compiled, and run with its
//! progress shown and `--stats` printed on stderr; the outcome as an exit code.

use std::io::IsTerminal;
use std::ops::Deref;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use epipen::compiled::{self, CompiledStory, Watch, reported_by_run};
use epipen::engine::{Engine, Options, Report};
use epipen::explore::negated;
use epipen::ir::{EventId, Program};
use epipen::syntax::Span;
use epipen::worlds::{self, WorldCount};

use crate::output::{err, errln, out, outln};
use crate::watchdog;

/// A story file read and compiled, as a command runs it.
pub(crate) struct Story {
    pub(crate) compiled: CompiledStory,
    /// Whether a run shows its progress on stderr (when it is a terminal) and keeps the
    /// watchdog informed: the command line's runs do, the web playground's do not.
    pub(crate) progress: bool,
}

impl Deref for Story {
    type Target = CompiledStory;
    fn deref(&self) -> &CompiledStory {
        &self.compiled
    }
}

/// Why a command failed: a rendered message and its exit code.
pub(crate) enum Failure {
    Story(String),
    Solver(String),
    /// Everything was already printed; just the exit code.
    Quiet(u8),
}

impl From<compiled::Failure> for Failure {
    fn from(f: compiled::Failure) -> Failure {
        match f {
            compiled::Failure::Story(text) => Failure::Story(text),
            compiled::Failure::Solver(text) => Failure::Solver(text),
        }
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
            compiled: CompiledStory::compile(path, source, sets, seed, deadline)?,
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
        }
    }
}

/// A run as the terminal watches it: the statement running shown on stderr when the run
/// is slow, the watchdog told where the run is, and `--stats` printed.
pub(crate) struct Terminal {
    progress: Progress,
    watchdog: bool,
    stats: bool,
}

impl Watch for Terminal {
    fn begun(&mut self, story: &CompiledStory, engine: &Engine) {
        if self.stats && engine.backend() == "bdd" {
            errln!(
                "stats: BDD variable order: {}",
                epipen::engine::bdd_variable_order(&story.program)
            );
        }
    }

    fn starting(&mut self, story: &CompiledStory, span: Span) {
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
        story: &CompiledStory,
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

/// Prints one event of `epipen run`; returns whether it printed anything.
pub(crate) fn print_event(story: &Story, event: &Report) -> bool {
    if !reported_by_run(event) {
        return false;
    }
    match event {
        Report::Worlds {
            span,
            set,
            filter: Some(formula),
            ..
        } => {
            outln!("-- line {}: where {formula} --", story.line(*span));
            out!(
                "{}",
                worlds::where_text(&story.program, set, "narrow the formula to see the others")
            );
        }
        Report::Worlds {
            span,
            set,
            left_none,
            ..
        } => {
            outln!("-- line {}: worlds --", story.line(*span));
            out!(
                "{}",
                story.listed_text(
                    set,
                    *left_none,
                    "raise the number after `worlds` to see more"
                )
            );
        }
        Report::Reveal {
            round,
            who,
            text,
            holds,
            ..
        } => {
            let said = if *holds { text.clone() } else { negated(text) };
            let who = &story.program.characters[who.0].name;
            match round {
                Some(r) => outln!("round {r}: {who}: {said}"),
                None => outln!("{who}: {said}"),
            }
        }
        Report::Happened {
            round,
            event,
            case,
            saw,
            ..
        } => {
            let Some(case) = case else { return false };
            let text = happened_text(&story.program, *event, *case, saw);
            match round {
                Some(r) => outln!("round {r}: {text}"),
                None => outln!("{text}"),
            }
        }
        Report::RepeatDone { span, rounds } => {
            outln!(
                "-- line {}: repeat done after {rounds} round{} --",
                story.line(*span),
                if *rounds == 1 { "" } else { "s" }
            );
        }
        Report::HintTrusted { span } => out!("{}", trusted_note(&[story.line(*span)])),
        Report::CheckHolds { span } => outln!("check line {}: holds", story.line(*span)),
        Report::Vacuous { span, left_none } => {
            let what = match story.verdict_label(*span).starts_with("hint") {
                true => "hint",
                false => "check",
            };
            outln!(
                "{what} line {}: {}",
                story.line(*span),
                story.vacuous_text(*left_none)
            )
        }
        Report::CheckFailed { span, world } => outln!(
            "check line {}: fails in the world {}",
            story.line(*span),
            worlds::world_line(&story.program, &world.0)
        ),
        Report::HintVerified { .. } | Report::HintRefuted { .. } | Report::Step { .. } => {}
    }
    true
}

/// `move: moved (Anne saw moved; Sally saw moved or stayed)`: the case that happened in
/// the actual world, and what each character saw of it.
pub(crate) fn happened_text(
    program: &Program,
    event: EventId,
    case: usize,
    saw: &[Vec<usize>],
) -> String {
    let def = &program.events[event.0];
    let seen: Vec<String> = (program.characters.iter().zip(saw))
        .map(|(who, cases)| {
            let names: Vec<&str> = cases.iter().map(|&k| def.cases[k].as_str()).collect();
            let saw = match names.as_slice() {
                [one] => one.to_string(),
                [init @ .., last] => format!("{} or {last}", init.join(", ")),
                [] => String::new(),
            };
            format!("{} saw {saw}", who.name)
        })
        .collect();
    format!("{}: {} ({})", def.name, def.cases[case], seen.join("; "))
}

pub(crate) fn trusted_note(lines: &[usize]) -> String {
    lines
        .iter()
        .map(|l| format!("(the hint on line {l} was taken on trust, not verified)\n"))
        .collect()
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

/// How many worlds, in JSON: a number, `"infinite"`, or `">N"`.
pub(crate) fn count_json(count: WorldCount) -> serde_json::Value {
    match count {
        WorldCount::Exactly(n) => n.into(),
        WorldCount::Infinite => "infinite".into(),
        WorldCount::MoreThan(n) => format!(">{n}").into(),
    }
}
