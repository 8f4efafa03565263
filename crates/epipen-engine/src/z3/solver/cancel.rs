//! Cancelling a run from another thread: a flag the engine checks wherever it checks its
//! deadline, and which interrupts the Z3 calls running on the engine's thread (the only
//! Z3 call made here is `Z3_interrupt`, the one Z3 documents as callable from another
//! thread). Front ends that run a story on a worker thread (the Python package, on
//! Ctrl-C or a notebook's interrupt button) hand a [`Cancel`] to the run in
//! [`Options::cancel`](crate::Options::cancel) and call [`Cancel::cancel`].

use std::fmt;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::Failure;

/// The states of a [`Flag`]: not raised, raised by [`Cancel::cancel`], raised by
/// [`Cancel::time_out`].
const RUNNING: u8 = 0;
const INTERRUPTED: u8 = 1;
const TIMED_OUT: u8 = 2;

/// A cancellation flag, shared by clones. The default one is never cancelled (and costs
/// nothing to check).
#[derive(Clone, Default)]
pub struct Cancel(Option<Arc<Flag>>);

struct Flag {
    /// [`RUNNING`], [`INTERRUPTED`] or [`TIMED_OUT`].
    state: AtomicU8,
    /// The Z3 contexts of the threads running a Z3 question for this run (as addresses):
    /// [`Cancel::cancel`] interrupts them. An entry lives as long as a [`Registration`].
    contexts: Mutex<Vec<usize>>,
}

impl Cancel {
    /// A flag that [`Cancel::cancel`] can raise.
    pub fn new() -> Cancel {
        Cancel(Some(Arc::new(Flag {
            state: AtomicU8::new(RUNNING),
            contexts: Mutex::new(Vec::new()),
        })))
    }

    /// Raises the flag: the run stops at its next check with
    /// [`Failure::Interrupted`], and the Z3 calls it is making return at once.
    pub fn cancel(&self) {
        self.raise(INTERRUPTED);
    }

    /// Raises the flag as a deadline that passed: the run stops as [`Cancel::cancel`]
    /// stops it, with [`Failure::Timeout`] (for a front end that gives each statement of
    /// a live story its own time, as `epipen repl --timeout` does).
    pub fn time_out(&self) {
        self.raise(TIMED_OUT);
    }

    fn raise(&self, state: u8) {
        let Some(flag) = &self.0 else { return };
        flag.state.store(state, Ordering::SeqCst);
        let contexts = flag.contexts.lock().unwrap_or_else(|e| e.into_inner());
        for &context in contexts.iter() {
            if let Some(context) = NonNull::new(context as *mut z3_sys::_Z3_context) {
                // SAFETY: the context is registered only while a `Registration` on its
                // thread lives, and the thread's context outlives it; unregistering takes
                // this lock, so the context is alive for the whole call. Z3_interrupt is
                // made to be called from another thread.
                unsafe { z3_sys::Z3_interrupt(context) };
            }
        }
    }

    /// Lowers the flag again, for a front end that runs statement after statement with
    /// one flag (the Python package's `Story`, whose engine keeps its options): call it
    /// only once the cancelled run has stopped.
    pub fn reset(&self) {
        if let Some(flag) = &self.0 {
            flag.state.store(RUNNING, Ordering::SeqCst);
        }
    }

    /// Whether [`Cancel::cancel`] or [`Cancel::time_out`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.state() != RUNNING
    }

    fn state(&self) -> u8 {
        (self.0.as_ref()).map_or(RUNNING, |flag| flag.state.load(Ordering::Relaxed))
    }

    /// `Err(Failure::Interrupted)` once cancelled, `Err(Failure::Timeout)` once timed
    /// out.
    pub fn check(&self) -> Result<(), Failure> {
        match self.state() {
            RUNNING => Ok(()),
            TIMED_OUT => Err(Failure::Timeout),
            _ => Err(Failure::Interrupted),
        }
    }

    /// Registers this thread's Z3 context for interruption, until the registration is
    /// dropped (on this thread). None for a flag that cannot be raised.
    pub(super) fn register(&self) -> Option<Registration> {
        let flag = self.0.clone()?;
        let context = z3::Context::thread_local().get_z3_context().as_ptr() as usize;
        flag.contexts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(context);
        Some(Registration { flag, context })
    }
}

impl fmt::Debug for Cancel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            None => write!(f, "Cancel(never)"),
            Some(_) => write!(f, "Cancel(cancelled: {})", self.is_cancelled()),
        }
    }
}

/// A Z3 context registered with a [`Cancel`]; dropping it unregisters the context.
pub(super) struct Registration {
    flag: Arc<Flag>,
    context: usize,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut contexts = self.flag.contexts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = contexts.iter().position(|&c| c == self.context) {
            contexts.swap_remove(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;
    use std::time::{Duration, Instant};

    use super::*;
    use crate::{Engine, EngineError, Failure, Options, Strategy};

    /// Cubes: Z3 searches for a counterexample to Fermat's n = 3 for as long as it is
    /// let (there is none).
    const FERMAT: &str = "characters A\nint x, y, z\n\
                          announce x > 1 and y > 1 and z > 1 and x*x*x + y*y*y == z*z*z\n";
    const SMALL: &str = "characters A\nint x\nannounce x > 1 and x < 4\n";

    /// Runs `source` on Z3 with `cancel`, returning the error and how long it took.
    fn run(source: &str, cancel: &Cancel) -> (Result<(), EngineError>, Duration) {
        run_on(Strategy::Z3, source, cancel)
    }

    /// [`run`] on the backend `strategy` names.
    fn run_on(
        strategy: Strategy,
        source: &str,
        cancel: &Cancel,
    ) -> (Result<(), EngineError>, Duration) {
        let program = epipen_lower::compile(source, &[]).expect("compiles");
        let options = Options {
            strategy,
            cancel: cancel.clone(),
            ..Options::default()
        };
        let start = Instant::now();
        let mut engine = Engine::new(Rc::new(program), &options);
        let result = engine.run(&mut |_| {}).and_then(|()| {
            engine.worlds(10).map(drop).map_err(|error| EngineError {
                span: Default::default(),
                error,
            })
        });
        (result, start.elapsed())
    }

    /// FERMAT run with `cancel` raised by `raise` (another thread's) after 300 ms.
    fn fermat_raised(cancel: &Cancel, raise: fn(&Cancel)) -> (Result<(), EngineError>, Duration) {
        let raiser = {
            let cancel = cancel.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(300));
                raise(&cancel);
            })
        };
        let ran = run(FERMAT, cancel);
        raiser.join().unwrap();
        ran
    }

    #[test]
    fn cancel_interrupts_a_z3_call_and_the_thread_solves_again() {
        let cancel = Cancel::new();
        let (result, elapsed) = fermat_raised(&cancel, Cancel::cancel);
        let error = result.expect_err("interrupted");
        assert_eq!(error.error, Failure::Interrupted);
        assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
        // The same thread (and Z3 context) answers the next run, with a fresh flag.
        let (result, _) = run(SMALL, &Cancel::new());
        assert_eq!(result, Ok(()));
        // A flag raised before the run stops it at once.
        let (result, _) = run(SMALL, &cancel);
        assert_eq!(
            result.expect_err("cancelled before").error,
            Failure::Interrupted
        );
        let (result, _) = run(SMALL, &Cancel::default());
        assert_eq!(result, Ok(()));
    }

    #[test]
    fn a_flag_timed_out_stops_the_run_as_its_deadline_would() {
        let cancel = Cancel::new();
        let (result, elapsed) = fermat_raised(&cancel, Cancel::time_out);
        assert_eq!(result.expect_err("timed out").error, Failure::Timeout);
        assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
        // Lowered again, the flag lets a run finish.
        cancel.reset();
        let (result, _) = run(SMALL, &cancel);
        assert_eq!(result, Ok(()));
    }

    #[test]
    fn explicit_worlds_listed_when_cancelled_say_so_not_a_timeout() {
        // Ten thousand worlds to list: the listing looks at the flag as it goes.
        let source = "characters A\nint x, y\nannounce 0 <= x and x < 100 and 0 <= y and y < 100\n";
        let cancel = Cancel::new();
        cancel.cancel();
        let (result, _) = run_on(Strategy::Explicit, source, &cancel);
        assert_eq!(result.expect_err("cancelled").error, Failure::Interrupted);
    }
}
