//! `epipen._native`, the native module of the epipen Python package (`python/`): a thin
//! layer over the epipen library, which the package's Python code (`python/epipen/`)
//! wraps in its API (`epipen.run`, `epipen.Story`, `epipen.sweep`, …) and its Jupyter
//! displays.
//!
//! - `run.rs`: story files run, traced and graphed as the command line runs them, and
//!   SMCDEL files answered (`epipen.smcdel`); mA* files planned (`epipen.plan_file`);
//! - `sweep.rs`: sweeps, in chunks;
//! - `builder.rs`: `epipen.Story`, the Rust API's story builder (`builder/expr.rs`:
//!   the handles of expressions, characters and checkpoints; `builder/blocks.rs`: `simultaneously` and
//!   `assert_adds_ck`; `builder/events.rs`: events and changes; `builder/chance.rs`:
//!   probabilities; `builder/actions.rs`: actions, `do` and plans);
//! - `worker.rs`: where solves run (worker threads; the GIL released; Ctrl-C cancels);
//! - `convert.rs`: values, worlds and errors as Python sees them.
//!
//! The module links the pinned Z3 like every epipen binary; the wheel carries that
//! library under its own name (`epipen.libs/libz3-<hash>.so`, found through the
//! module's `$ORIGIN` rpath), so that it loads beside any other Z3 in the process (a
//! `z3-solver` a user imported, say): see python/README.md.

mod builder;
mod convert;
mod run;
mod sweep;
mod worker;

use std::process::ExitCode;

use pyo3::prelude::*;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The version of the Z3 library the module loaded, e.g. `5.4.0.0`.
#[pyfunction]
fn z3_version() -> String {
    epipen::z3_version()
}

/// Runs the `epipen` command with `argv` (the program's name first) and returns its
/// exit code: the package's `epipen` executable.
#[pyfunction]
fn cli_main(py: Python<'_>, argv: Vec<String>) -> u8 {
    let argv = argv.into_iter().map(std::ffi::OsString::from);
    let code = py.detach(move || epipen_cli::main_with_args(argv));
    (0..=u8::MAX)
        .find(|&c| ExitCode::from(c) == code)
        .unwrap_or(1)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Ctrl-C belongs to Python (KeyboardInterrupt, through the workers' cancel flag):
    // Z3 must not catch SIGINT inside a solver call and answer `unknown` instead.
    epipen::engine::leave_ctrl_c_to_the_process();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(z3_version, m)?)?;
    m.add_function(wrap_pyfunction!(cli_main, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(run::trace, m)?)?;
    m.add_function(wrap_pyfunction!(run::model, m)?)?;
    m.add_function(wrap_pyfunction!(run::smcdel, m)?)?;
    m.add_function(wrap_pyfunction!(run::mastar_plan, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_check, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_samples, m)?)?;
    m.add_function(wrap_pyfunction!(sweep::sweep_values, m)?)?;
    m.add_class::<builder::NativeStory>()?;
    builder::expr::register(m)?;
    Ok(())
}
