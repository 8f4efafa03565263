//! Printing that never panics. `print!` panics when stdout cannot be written (a full
//! disk: `epipen worlds FILE > /dev/full`); [`out!`] and [`outln!`] instead report it on
//! stderr and end the process with exit code 1. A closed pipe still ends it quietly
//! (SIGPIPE, see `cli::main`). Writing to stderr ([`err!`], [`errln!`]) is best effort:
//! when stderr cannot be written either, the exit code still tells the outcome.

use std::io::Write;

/// Writes to stdout, or ends the process when it cannot.
pub(crate) fn stdout(args: std::fmt::Arguments) {
    if let Err(e) = std::io::stdout().write_fmt(args) {
        stdout_failed(&e);
    }
}

/// Flushes stdout, or ends the process when it cannot.
pub(crate) fn flush_stdout() {
    if let Err(e) = std::io::stdout().flush() {
        stdout_failed(&e);
    }
}

fn stdout_failed(e: &std::io::Error) -> ! {
    stderr(format_args!("error: cannot write the output: {e}\n"));
    std::process::exit(1);
}

/// Writes to stderr, ignoring a failure.
pub(crate) fn stderr(args: std::fmt::Arguments) {
    let _ = std::io::stderr().write_fmt(args);
}

/// `print!` that ends the process with exit code 1 when stdout cannot be written.
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::stdout(format_args!($($arg)*)) };
}

/// `println!` that ends the process with exit code 1 when stdout cannot be written.
macro_rules! outln {
    () => { $crate::output::stdout(format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::output::stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprint!` that ignores a failure to write.
macro_rules! err {
    ($($arg:tt)*) => { $crate::output::stderr(format_args!($($arg)*)) };
}

/// `eprintln!` that ignores a failure to write.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {err, errln, out, outln};

/// stderr for the logs, ignoring a failure to write: tracing-subscriber reports one with
/// `eprintln!`, which panics when stderr is what failed.
pub(crate) struct LogWriter;

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
