//! Keeps `--timeout` a promise for the commands that run one story (`worlds`, `run`,
//! `graph`, `check`). The lowering and the engine look at the deadline themselves (the
//! engine between solver calls), but some work does not: reading the file, parsing, a
//! single long Z3 call (a `simplify`, say), building a large term. A second after the
//! deadline a thread reports the timeout where the run is, and ends the process with
//! exit code 1. (`sweep` gives each run its own `--timeout`; `bench` passes it on to its
//! children, and kills them a second after it.)

use std::sync::Mutex;
use std::time::{Duration, Instant};

use epipen::engine::Failure;
use epipen::syntax::{Diagnostic, Span};

use crate::output::{err, errln};

/// How long after the deadline the watchdog ends the process.
pub(crate) const GRACE: Duration = Duration::from_secs(1);

/// Where the run is, for the watchdog's message.
enum Whereabouts {
    /// Parsing the arguments.
    Starting,
    /// Reading the story file.
    Reading { path: String },
    /// Parsing and lowering it.
    Compiling { path: String },
    /// Running it: the statement that runs (None before the first).
    Running {
        path: String,
        source: String,
        span: Option<Span>,
    },
}

static WHEREABOUTS: Mutex<Whereabouts> = Mutex::new(Whereabouts::Starting);

fn set(f: impl FnOnce(&mut Whereabouts)) {
    f(&mut WHEREABOUTS.lock().unwrap_or_else(|e| e.into_inner()));
}

pub(crate) fn reading(path: &str) {
    set(|w| {
        *w = Whereabouts::Reading {
            path: path.to_string(),
        }
    });
}

pub(crate) fn compiling(path: &str) {
    set(|w| {
        *w = Whereabouts::Compiling {
            path: path.to_string(),
        }
    });
}

pub(crate) fn running(path: &str, source: &str) {
    set(|w| {
        *w = Whereabouts::Running {
            path: path.to_string(),
            source: source.to_string(),
            span: None,
        }
    });
}

/// The statement `span` starts running.
pub(crate) fn statement(span: Span) {
    set(|w| {
        if let Whereabouts::Running { span: at, .. } = w {
            *at = Some(span);
        }
    });
}

/// Starts the watchdog: [`GRACE`] after `deadline` it reports the timeout and exits 1.
pub(crate) fn start(deadline: Instant) {
    std::thread::spawn(move || {
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()) + GRACE);
        let hint = "raise --timeout, or simplify the story";
        let (path, during) = match &*WHEREABOUTS.lock().unwrap_or_else(|e| e.into_inner()) {
            Whereabouts::Starting => ("epipen".to_string(), "starting"),
            Whereabouts::Reading { path } => (path.clone(), "reading the story"),
            Whereabouts::Compiling { path } => (path.clone(), "compiling the story"),
            Whereabouts::Running { path, source, span } => {
                let d = Diagnostic::error(span.unwrap_or_default(), Failure::Timeout.to_string())
                    .with_hint(hint);
                err!("{}", d.render(path, source));
                std::process::exit(1);
            }
        };
        errln!("error: {path}: ran out of time (timeout) while {during}");
        errln!("  = hint: {hint}");
        std::process::exit(1);
    });
}
