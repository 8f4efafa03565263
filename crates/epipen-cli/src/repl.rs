//! `epipen repl`: a story told statement by statement from the standard input (typed
//! at a terminal, or piped in), after a story file when one is given. Each statement
//! (a block `{ … }` over several lines is one) is told to an [`epipen::Story`] as it
//! comes ([`epipen::Story::tell`]): what it prints is printed as `epipen run` prints
//! it, and a mistake is printed where it is, and the story goes on without it.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use epipen::engine::{Options, Strategy};
use epipen::syntax::ast::Backend;
use epipen::{Failure, Story};

use crate::output::{err, errln};
use crate::story::{print_report, read_source};

/// Runs the REPL: `file` told first (when given), then each statement of the standard
/// input. The exit code is the worst of its outcomes: 0 when everything held, 1 when a
/// check failed or a plan found none (or a solver failure), 2 when a statement was a
/// mistake (it then had no effect).
pub(crate) fn main(
    file: Option<&PathBuf>,
    options: Options,
    sets: &[(String, i64)],
    seed: u64,
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
    let mut story = Story::with_sets(options, sets, seed);
    let mut worst = 0;
    if let Some(text) = first {
        worst = worst.max(tell(&mut story, &text));
    }
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal() && std::io::stderr().is_terminal();
    if interactive {
        errln!(
            "epipen {}: tell a story, a statement at a time (Ctrl-D ends it)",
            env!("CARGO_PKG_VERSION")
        );
    }
    let mut pending = String::new();
    let mut lines = stdin.lock();
    loop {
        if interactive {
            err!("{}", if pending.is_empty() { "> " } else { "… " });
            let _ = std::io::stderr().flush();
        }
        let mut line = String::new();
        match lines.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                errln!("error: cannot read the standard input: {e}");
                return ExitCode::from(2);
            }
        }
        pending.push_str(&line);
        if open_blocks(&pending) > 0 {
            continue; // a block goes on over the next lines
        }
        if !pending.trim().is_empty() {
            worst = worst.max(tell(&mut story, &pending));
        }
        pending.clear();
    }
    if !pending.trim().is_empty() {
        // A block left open at the end: the parser says so.
        worst = worst.max(tell(&mut story, &pending));
    }
    ExitCode::from(worst)
}

/// Tells `text`, printing what it reports (stdout) or its failure (stderr): the exit
/// code of its outcome.
fn tell(story: &mut Story, text: &str) -> u8 {
    match story.tell(text) {
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
