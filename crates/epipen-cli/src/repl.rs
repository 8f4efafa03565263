//! `epipen repl`: a story told statement by statement from the standard input (typed
//! at a terminal, or piped in), after a story file when one is given. Each statement
//! (a block `{ … }` over several lines is one) is told to an [`epipen::Story`] as it
//! comes ([`epipen::Story::tell`]): what it prints is printed as `epipen run` prints
//! it, and a mistake is printed where it is, and the story goes on without it.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use epipen::engine::Options;
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
    let mut story = Story::with_sets(options, sets, seed);
    let mut worst = 0;
    if let Some(file) = file {
        let (_, source) = match read_source(file) {
            Ok(read) => read,
            Err(code) => return code,
        };
        worst = worst.max(tell(&mut story, &source));
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
