//! Where solves run: on worker threads, while the calling Python thread waits with the
//! GIL released and looks for signals (Ctrl-C, a notebook's interrupt button) every
//! 50 ms. A signal raises the run's [`Cancel`] flag (the engine stops at its next check,
//! and Z3 calls return at once), and the call raises what Python's signal handler
//! raised (KeyboardInterrupt): never an answer from an interrupted run.
//!
//! Workers are kept for the next call (a Z3 context is made once per thread, and the
//! explicit-worlds backend's answers take well under a millisecond), with large stacks
//! (deeply nested stories recurse). A panic inside a run is caught on its worker and
//! raised as a RuntimeError: it never reaches the interpreter as a crash.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use epipen::engine::Cancel;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

type Job = Box<dyn FnOnce() + Send>;

/// Idle workers, waiting for a job, with the process they belong to: after a `fork`, the
/// child has none of its parent's threads, and a job sent to one would wait forever.
static IDLE: Mutex<Vec<(u32, Sender<Job>)>> = Mutex::new(Vec::new());

/// At most this many idle workers are kept.
const MAX_IDLE: usize = 16;

/// A worker's stack: deeply nested stories recurse in the parser, the lowering and the
/// engines (the command line runs them on the main thread's 8 MB).
const STACK: usize = 64 << 20;

/// How often the waiting thread looks for signals.
const POLL: Duration = Duration::from_millis(50);

/// How long an interrupted call waits for its run to stop before it returns.
const GRACE: Duration = Duration::from_secs(2);

/// A panic's message.
pub(crate) fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// The error raised for a panic in Rust: a bug of epipen's.
pub(crate) fn internal(what: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "epipen: internal error: {what} (this is a bug in epipen: please report it with the story)"
    ))
}

fn submit(mut job: Job) {
    let me = std::process::id();
    loop {
        let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match idle {
            // A worker of the parent process, gone in this forked child: its channel is
            // forgotten, never used.
            Some((owner, worker)) if owner != me => std::mem::forget(worker),
            Some((_, worker)) => match worker.send(job) {
                Ok(()) => return,
                Err(mpsc::SendError(back)) => job = back,
            },
            None => break,
        }
    }
    let (tx, rx) = mpsc::channel::<Job>();
    let spawned = std::thread::Builder::new()
        .name("epipen-worker".into())
        .stack_size(STACK)
        .spawn(move || {
            let mut job = job;
            loop {
                job();
                {
                    let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
                    if idle.len() >= MAX_IDLE {
                        return;
                    }
                    idle.push((me, tx.clone()));
                }
                match rx.recv() {
                    Ok(next) => job = next,
                    Err(_) => return,
                }
            }
        });
    if let Err(e) = spawned {
        // No thread to run it on: the job is dropped, and its caller sees the channel
        // closed.
        tracing::error!("cannot start a worker thread: {e}");
    }
}

/// Runs `job` on a worker with a fresh [`Cancel`] flag, waiting for it with the GIL
/// released; a signal cancels the run and is raised.
pub(crate) fn solve<T: Send + 'static>(
    py: Python<'_>,
    job: impl FnOnce(&Cancel) -> T + Send + 'static,
) -> PyResult<T> {
    let cancel = Cancel::new();
    let (tx, rx) = mpsc::channel::<Result<T, String>>();
    let flag = cancel.clone();
    submit(Box::new(move || {
        let outcome = catch_unwind(AssertUnwindSafe(|| job(&flag)));
        let _ = tx.send(outcome.map_err(|panic| panic_message(&*panic)));
    }));
    wait(py, rx, &cancel, None)
}

/// Waits for the answer on `rx` with the GIL released, cancelling with `cancel` when a
/// signal handler raises, and timing it out (the run fails as at its deadline) once
/// `deadline` passes.
pub(crate) fn wait<T: Send>(
    py: Python<'_>,
    mut rx: Receiver<Result<T, String>>,
    cancel: &Cancel,
    mut deadline: Option<Instant>,
) -> PyResult<T> {
    loop {
        let (back, got) = py.detach(move || {
            let got = rx.recv_timeout(POLL);
            (rx, got)
        });
        rx = back;
        match got {
            Ok(Ok(answer)) => return Ok(answer),
            Ok(Err(panic)) => return Err(internal(&panic)),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(internal("the worker running the story stopped"));
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    cancel.cancel();
                    // Let the run stop (it checks the flag between steps, and Z3 calls
                    // return at once), so that it does not go on beside the next one.
                    py.detach(move || {
                        let _ = rx.recv_timeout(GRACE);
                    });
                    return Err(signal);
                }
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    deadline = None;
                    cancel.time_out();
                }
            }
        }
    }
}
