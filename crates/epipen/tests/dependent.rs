//! epipen as a library: a crate that depends on it (tests/fixtures/dependent) builds,
//! links the pinned Z3, and its binary, its `cargo run` and its `cargo test` work with no
//! environment set by hand (no `LD_LIBRARY_PATH`, no `Z3_SYS_Z3_VERSION`); and what it
//! builds is a solver's dependencies, none of the command line's.
//!
//! The fixture is copied under target/ with its path dependency made absolute, next to
//! epipen's `Cargo.lock` and profiles, and built into epipen's own target directory, so
//! that it reuses the dependencies `cargo test` has just compiled: only epipen itself and
//! the fixture are compiled again (under their own hashes, leaving epipen's build alone).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `cargo ARGS` in the fixture, with none of the environment a user's shell would not
/// have that could help it: no library path, no z3-sys version.
fn cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap();
    Command::new(std::env::var_os("CARGO").unwrap_or("cargo".into()))
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("LD_LIBRARY_PATH")
        .env_remove("Z3_SYS_Z3_VERSION")
        .env_remove("RUST_LOG")
        .output()
        .expect("run cargo")
}

/// The fixture crate, copied to target/tmp/dependent.
fn fixture() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let workspace = root.join("../..");
    let from = root.join("tests/fixtures/dependent");
    let to = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dependent");
    std::fs::create_dir_all(to.join("src")).unwrap();
    let manifest = std::fs::read_to_string(from.join("Cargo.toml")).unwrap();
    let epipen = format!("path = {:?}", root.display().to_string());
    assert!(manifest.contains(r#"path = "../../..""#));
    // epipen's own profiles, so that its dependencies are shared; epipen itself compiles
    // as fast as in its own build.
    let ours = std::fs::read_to_string(workspace.join("Cargo.toml")).unwrap();
    let profiles: String = ours
        .split("\n[")
        .filter(|section| section.starts_with("profile."))
        .map(|section| format!("\n[{section}\n"))
        .collect();
    // epipen and the workspace's crates it depends on compile at opt-level 0 in their
    // own workspace (the `"*"` profile's opt-level 1 is for the others): the same here.
    // They compile again (their dependencies' features differ from the workspace's,
    // which the CLI's add to), but at opt-level 0 in a fraction of the time.
    let members: String = own_crates(&workspace, "epipen")
        .iter()
        .map(|name| format!("\n[profile.dev.package.{name}]\nopt-level = 0\n"))
        .collect();
    let manifest = format!(
        "{}{profiles}{members}",
        manifest.replace(r#"path = "../../..""#, &epipen)
    );
    write_if_changed(&to.join("Cargo.toml"), &manifest);
    let main = std::fs::read_to_string(from.join("src/main.rs")).unwrap();
    let stories = workspace.join("stories").display().to_string();
    write_if_changed(
        &to.join("src/main.rs"),
        &main.replace("../../../../stories", &stories),
    );
    write_if_changed(
        &to.join("Cargo.lock"),
        &std::fs::read_to_string(workspace.join("Cargo.lock")).unwrap(),
    );
    to
}

/// `name` and the workspace's crates it depends on (its `[dependencies]` named
/// `epipen-…`), transitively, sorted.
fn own_crates(workspace: &Path, name: &str) -> Vec<String> {
    let mut found = vec![name.to_string()];
    let mut k = 0;
    while k < found.len() {
        let manifest = workspace.join("crates").join(&found[k]).join("Cargo.toml");
        let text = std::fs::read_to_string(&manifest).unwrap();
        let dependencies = text
            .split("\n[")
            .find(|section| section.starts_with("dependencies]"))
            .unwrap_or_default();
        for line in dependencies.lines() {
            let dep = line.split(['.', ' ', '=']).next().unwrap_or_default();
            if dep.starts_with("epipen-") && !found.iter().any(|f| f == dep) {
                found.push(dep.to_string());
            }
        }
        k += 1;
    }
    found.sort();
    found
}

/// Writes `text` unless the file holds it already (keeping cargo's build fresh).
fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap();
    }
}

#[test]
fn a_crate_that_depends_on_epipen_builds_runs_and_tests_with_nothing_set() {
    let dir = fixture();
    let built = cargo(&dir, &["build", "--quiet"]);
    assert!(
        built.status.success(),
        "cargo build: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    // The binary alone, as a user would start it.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap();
    let ran = Command::new(target.join("debug/epipen-dependent"))
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .expect("run the dependent's binary");
    assert_eq!(
        String::from_utf8_lossy(&ran.stdout),
        format!(
            "1 possible world:\n  month = 7, day = 16\n(and that's all)\nthe API: month = 7, \
             day = 16\nZ3 {}\n",
            epipen::z3_version()
        ),
        "stderr: {}",
        String::from_utf8_lossy(&ran.stderr)
    );
    assert!(epipen::z3_version().starts_with("5.4."));
    let via_cargo = cargo(&dir, &["run", "--quiet"]);
    assert_eq!(
        via_cargo.stdout,
        ran.stdout,
        "{}",
        String::from_utf8_lossy(&via_cargo.stderr)
    );
    let tested = cargo(&dir, &["test", "--quiet"]);
    let stdout = String::from_utf8_lossy(&tested.stdout);
    assert!(
        tested.status.success() && stdout.contains("test result: ok. 1 passed"),
        "cargo test: {stdout}\n{}",
        String::from_utf8_lossy(&tested.stderr)
    );
}

/// The crates only the `epipen` command needs: a program that uses the library builds
/// none of them.
const CLI_ONLY: &[&str] = &[
    "axum",
    "tokio",
    "hyper",
    "tower",
    "clap",
    "tracing-subscriber",
    "mimalloc",
];

#[test]
fn a_crate_that_depends_on_epipen_builds_none_of_the_clis_dependencies() {
    let dir = fixture();
    let tree = cargo(&dir, &["tree", "--edges", "normal", "--prefix", "none"]);
    let tree = String::from_utf8_lossy(&tree.stdout);
    assert!(tree.contains("epipen v"), "cargo tree: {tree}");
    let names: Vec<&str> = tree
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(names.contains(&"z3"), "cargo tree: {tree}");
    for crate_name in CLI_ONLY {
        assert!(
            !names.contains(crate_name),
            "{crate_name} is in the dependent's build:\n{tree}"
        );
    }
}
