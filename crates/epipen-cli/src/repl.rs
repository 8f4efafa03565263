//! `epipen repl`: a story told statement by statement from the standard input (typed
//! at a terminal, or piped in), after a story file when one is given. Each statement
//! (a block `{ … }` over several lines is one) is told to an [`epipen::Story`] as it
//! comes ([`epipen::Story::tell`]): what it prints is printed as `epipen run` prints
//! it, and a mistake is printed where it is, and the story goes on without it.
//!
//! A statement that runs too long stops, and has no effect: on Ctrl-C, or after
//! `--timeout` (each statement has its own). Ctrl-C between statements drops the
//! statement being typed (at a terminal) or ends the REPL (input piped in).

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use epipen::engine::{Cancel, Options, Strategy};
use epipen::syntax::ast::Backend;
use epipen::{Failure, Story};
use rustyline::DefaultEditor;
use rustyline::config::{Behavior, Config};
use rustyline::error::ReadlineError;

use crate::output::{err, errln, out};
use crate::story::{print_report, read_source};

/// Runs the REPL: `file` told first (when given), then each statement of the standard
/// input, each within `timeout`. The exit code is the worst of its outcomes: 0 when
/// everything held, 1 when a check failed or a plan found none (or a solver failure,
/// a timeout or Ctrl-C), 2 when a statement was a mistake (it then had no effect).
pub(crate) fn main(
    file: Option<&PathBuf>,
    options: Options,
    sets: &[(String, i64)],
    seed: u64,
    timeout: Option<Duration>,
) -> ExitCode {
    let mut options = options;
    let mut first = None;
    if let Some(file) = file {
        let (_, source) = match read_source(file) {
            Ok(read) => read,
            Err(code) => return code,
        };
        let (pin, text) = unpinned(&source);
        // The file's `#! backend` pin, as a story file's (when --backend is auto).
        if let (Some(pin), Strategy::Auto) = (pin, options.strategy) {
            options.strategy = Strategy::of(pin);
        }
        first = Some(text);
    }
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal() && std::io::stderr().is_terminal();
    options.cancel = Cancel::new();
    let watch = Watch::start(options.cancel.clone(), timeout, interactive);
    let mut story = Story::with_sets(options, sets, seed);
    let mut worst = 0;
    if let Some(text) = first {
        worst = worst.max(watch.tell(&mut story, &text));
    }
    let mut input = match interactive {
        true => Input::terminal(),
        false => Input::Piped(stdin.lock()),
    };
    if interactive {
        errln!(
            "epipen {}: tell a story, a statement at a time (`:help` for more; Ctrl-D ends it)",
            env!("CARGO_PKG_VERSION")
        );
    }
    let mut pending = String::new();
    loop {
        let line = match input.line(prompt(&pending)) {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(Read::Dropped) => {
                pending.clear(); // Ctrl-C at the prompt
                continue;
            }
            Err(Read::Failed(e)) => {
                errln!("error: cannot read the standard input: {e}");
                return ExitCode::from(2);
            }
        };
        if watch.dropped.swap(false, Ordering::SeqCst) {
            pending.clear(); // Ctrl-C while it was being typed
        }
        if pending.is_empty() && line.trim_start().starts_with(':') {
            worst = worst.max(command(&story, line.trim(), &run_with(sets, seed)));
            continue;
        }
        pending.push_str(&line);
        if open_blocks(&pending) > 0 {
            continue; // a block goes on over the next lines
        }
        if !pending.trim().is_empty() {
            worst = worst.max(watch.tell(&mut story, &pending));
        }
        pending.clear();
    }
    if !pending.trim().is_empty() {
        // A block left open at the end: the parser says so.
        worst = worst.max(watch.tell(&mut story, &pending));
    }
    ExitCode::from(worst)
}

/// Where the statements come from: a terminal, with line editing and history, or the
/// standard input read a line at a time.
enum Input<'a> {
    Terminal(Box<DefaultEditor>),
    Piped(std::io::StdinLock<'a>),
    /// A terminal rustyline cannot edit on: read as piped, the prompt on stderr.
    Plain(std::io::StdinLock<'a>),
}

/// A line typed while a statement ran (Some(None): the end of the input, Ctrl-D), or
/// None. Rustyline would read every line typed ahead at once and keep the first; the
/// terminal, not yet in rustyline's raw mode, gives one line a read (its canonical
/// mode), echoed already.
fn typed_ahead() -> Option<Result<Option<String>, String>> {
    let mut stdin = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one pollfd, and a zero timeout: it only looks.
    if unsafe { libc::poll(&mut stdin, 1, 0) } <= 0 {
        return None;
    }
    let mut buf = vec![0u8; 1 << 16];
    // SAFETY: reads at most buf.len() bytes into buf, which outlives the call.
    let n = unsafe { libc::read(libc::STDIN_FILENO, buf.as_mut_ptr().cast(), buf.len()) };
    Some(match n {
        n if n < 0 => Err(std::io::Error::last_os_error().to_string()),
        0 => Ok(None),
        n => Ok(Some(
            String::from_utf8_lossy(&buf[..n as usize]).into_owned(),
        )),
    })
}

/// Why no line was read.
enum Read {
    /// Ctrl-C at the prompt: the statement being typed is dropped.
    Dropped,
    Failed(String),
}

impl Input<'_> {
    fn terminal() -> Input<'static> {
        let config = Config::builder().behavior(Behavior::PreferTerm).build();
        match DefaultEditor::with_config(config) {
            Ok(editor) => Input::Terminal(Box::new(editor)),
            Err(_) => Input::Plain(std::io::stdin().lock()),
        }
    }

    /// The next line, with its newline; None at the end of the input.
    fn line(&mut self, prompt: &str) -> Result<Option<String>, Read> {
        let lines = match self {
            Input::Terminal(editor) => {
                if let Some(ahead) = typed_ahead() {
                    let line = ahead.map_err(Read::Failed)?;
                    if let Some(line) = &line {
                        let _ = editor.add_history_entry(line.trim_end());
                    }
                    return Ok(line);
                }
                return match editor.readline(prompt) {
                    Ok(line) => {
                        let _ = editor.add_history_entry(line.as_str());
                        Ok(Some(line + "\n"))
                    }
                    Err(ReadlineError::Interrupted) => Err(Read::Dropped),
                    Err(ReadlineError::Eof) => Ok(None),
                    Err(e) => Err(Read::Failed(e.to_string())),
                };
            }
            Input::Plain(lines) => {
                err!("{prompt}");
                let _ = std::io::stderr().flush();
                lines
            }
            Input::Piped(lines) => lines,
        };
        let mut line = String::new();
        match lines.read_line(&mut line) {
            Ok(0) => Ok(None),
            Ok(_) => Ok(Some(line)),
            Err(e) => Err(Read::Failed(e.to_string())),
        }
    }
}

/// What `:help` prints.
const HELP: &str = "\
Statements are told as they come (a block `{ … }` over several lines is one).
Commands:
  :text       print the story so far, as a story file writes it
  :save FILE  write the story so far to FILE (`epipen run FILE` tells it again)
  :help       this
Ctrl-C stops the statement that runs (or drops the one being typed); Ctrl-D ends.
";

/// How a story saved must be run to be the story told: the REPL's `--set`s and
/// `--seed`, as options (empty without them).
fn run_with(sets: &[(String, i64)], seed: u64) -> String {
    let sets = sets
        .iter()
        .map(|(name, value)| format!(" --set {name}={value}"));
    let seed = (seed != 0).then(|| format!(" --seed {seed}"));
    sets.chain(seed).collect()
}

/// Runs a REPL command (`:text`, `:save FILE`, `:help`): the exit code of its outcome.
/// `options`: what a saved story is run with to be the story told.
fn command(story: &Story, line: &str, options: &str) -> u8 {
    let (name, arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let arg = arg.trim();
    let text = || {
        story.text().map_err(|e| {
            errln!("error: {e}");
            2
        })
    };
    let outcome = match (name, arg) {
        (":help", "") => {
            err!("{HELP}");
            Ok(())
        }
        (":text", "") => text().map(|text| out!("{text}")),
        (":save", file) if !file.is_empty() => text().and_then(|text| {
            std::fs::write(file, &text).map_err(|e| {
                errln!("error: cannot write {file}: {e}");
                2
            })?;
            errln!("saved the story ({} lines) to {file}", text.lines().count());
            if !options.is_empty() {
                errln!("(it is the story told with its `const`s as written: run it with{options})");
            }
            Ok(())
        }),
        (":save", _) => {
            errln!("error: `:save` needs a file: `:save puzzle.story`");
            Err(2)
        }
        (":help" | ":text", _) => {
            errln!("error: `{name}` takes nothing after it");
            Err(2)
        }
        _ => {
            errln!("error: unknown command `{name}` (`:help` lists them)");
            Err(2)
        }
    };
    outcome.err().unwrap_or(0)
}

fn prompt(pending: &str) -> &'static str {
    if pending.is_empty() { "> " } else { "… " }
}

/// Raised by SIGINT (all a signal handler may do); [`Watch`]'s thread acts on it.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_interrupt(_: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// [`on_interrupt`] as SIGINT's handler, until dropped (the handler before it back).
struct OnInterrupt(libc::sigaction);

impl OnInterrupt {
    fn install() -> OnInterrupt {
        // SAFETY: sigaction with initialised structs; the handler only stores to an
        // atomic, which is async-signal-safe.
        unsafe {
            let mut ours: libc::sigaction = std::mem::zeroed();
            ours.sa_sigaction = on_interrupt as *const () as libc::sighandler_t;
            ours.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut ours.sa_mask);
            let mut before: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGINT, &ours, &mut before);
            OnInterrupt(before)
        }
    }
}

impl Drop for OnInterrupt {
    fn drop(&mut self) {
        // SAFETY: puts back the handler sigaction gave when this one was installed.
        unsafe { libc::sigaction(libc::SIGINT, &self.0, std::ptr::null_mut()) };
    }
}

/// Stops the statement that runs on Ctrl-C or at its deadline, from a thread of its
/// own that looks every 20 ms.
struct Watch {
    cancel: Cancel,
    timeout: Option<Duration>,
    /// While a statement runs: Some(its deadline, if any).
    running: Arc<Mutex<Option<Option<Instant>>>>,
    /// Ctrl-C came between statements: the text typed so far is dropped.
    dropped: Arc<AtomicBool>,
}

impl Watch {
    fn start(cancel: Cancel, timeout: Option<Duration>, interactive: bool) -> Watch {
        // Between statements too, for input piped in (rustyline, at a terminal, keeps
        // its own handler from when it starts: `OnInterrupt` replaces it while a
        // statement runs).
        std::mem::forget(OnInterrupt::install());
        let watch = Watch {
            cancel,
            timeout,
            running: Arc::default(),
            dropped: Arc::default(),
        };
        let (cancel, running, dropped) = (
            watch.cancel.clone(),
            watch.running.clone(),
            watch.dropped.clone(),
        );
        std::thread::spawn(move || {
            loop {
                std::thread::sleep(Duration::from_millis(20));
                let interrupted = INTERRUPTED.swap(false, Ordering::SeqCst);
                let mut running = running.lock().unwrap_or_else(|e| e.into_inner());
                match running.as_mut() {
                    Some(_) if interrupted => cancel.cancel(),
                    Some(deadline) if deadline.is_some_and(|d| Instant::now() >= d) => {
                        *deadline = None;
                        cancel.time_out();
                    }
                    Some(_) => {}
                    None if !interrupted => {}
                    None if interactive => {
                        dropped.store(true, Ordering::SeqCst);
                        err!("\n(Ctrl-D ends the story)\n> ");
                        let _ = std::io::stderr().flush();
                    }
                    None => std::process::exit(130),
                }
            }
        });
        watch
    }

    /// Tells `text` within the timeout, printing what it reports (stdout) or its
    /// failure (stderr): the exit code of its outcome.
    fn tell(&self, story: &mut Story, text: &str) -> u8 {
        let deadline = self.timeout.and_then(|t| Instant::now().checked_add(t));
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = Some(deadline);
        let handler = OnInterrupt::install();
        let told = story.tell(text);
        drop(handler);
        *self.running.lock().unwrap_or_else(|e| e.into_inner()) = None;
        // The statement has stopped: a flag raised for it must not stop the next.
        self.cancel.reset();
        match told {
            Ok(reports) => {
                let failed = reports.iter().any(|r| r.fails_run());
                for report in &reports {
                    print_report(report);
                }
                u8::from(failed)
            }
            Err(failure) => {
                err!("{}", epipen::text::failure(&failure));
                Failure::exit_code(&failure)
            }
        }
    }
}

/// A story file's `#! backend` pin, and its text with its settings made comments (a
/// setting is a file's, not a part's: `epipen::syntax::parse_part`), lines and columns
/// kept.
fn unpinned(source: &str) -> (Option<Backend>, String) {
    let pin = (epipen::syntax::parse(source).ok()).and_then(|s| s.backend.map(|(b, _)| b));
    let text = (source.split_inclusive('\n'))
        .map(|line| match line.trim_start().starts_with("#!") {
            true => line.replacen("#!", "# ", 1),
            false => line.to_string(),
        })
        .collect();
    (pin, text)
}

/// How many blocks (`{`) `text` opens and does not close, comments aside.
fn open_blocks(text: &str) -> i64 {
    (text.lines())
        .flat_map(|l| l.split('#').next().unwrap_or("").chars())
        .map(|c| match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        })
        .sum()
}
