//! The workspace's layout, as docs/testing.md promises it: no module imports one that
//! imports it back, no source file grows past two thousand lines of code besides its
//! tests unnoticed, and the reference pages of docs/ stay under 700 lines. (That the library builds a solver's dependencies only is checked by
//! tests/dependent.rs, on a crate that depends on it.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The workspace's root.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The crates of the workspace, by folder name.
fn crates() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(workspace().join("crates"))
        .expect("crates/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.join("Cargo.toml").exists())
        .collect();
    dirs.sort();
    dirs
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries {
            let path = e.expect("an entry").path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The lines of a source file before its inline unit tests (`#[cfg(test)]` then
/// `mod … {`); none for a file of tests (`tests.rs`, or under a `tests/` folder).
fn code_lines(path: &Path) -> Vec<String> {
    if path.file_name().is_some_and(|n| n == "tests.rs")
        || path.components().any(|c| c.as_os_str() == "tests")
    {
        return Vec::new();
    }
    let text = std::fs::read_to_string(path).expect("a source file");
    let lines: Vec<&str> = text.lines().collect();
    let end = (0..lines.len())
        .find(|&i| {
            lines[i].trim() == "#[cfg(test)]"
                && lines
                    .get(i + 1)
                    .is_some_and(|l| l.trim_start().starts_with("mod ") && l.ends_with('{'))
        })
        .unwrap_or(lines.len());
    lines[..end].iter().map(|l| l.to_string()).collect()
}

/// The most lines of non-test code a source file may hold: far above what a file about
/// one thing needs (the largest hold about 1 000), so that no file is split only to fit
/// under it; files split by what their code is about, and this only says when one
/// has grown without anyone deciding it (issue 43).
const MAX_LINES: usize = 2000;

#[test]
fn no_source_file_grows_past_two_thousand_lines_of_code() {
    let mut big = Vec::new();
    for krate in crates() {
        for file in rust_files(&krate.join("src")) {
            let n = code_lines(&file).len();
            if n > MAX_LINES {
                big.push(format!("{} ({n} lines)", file.display()));
            }
        }
    }
    assert!(
        big.is_empty(),
        "split these by what their code is about: {big:?}"
    );
}

/// The most lines a reference page of docs/ may hold (issue 43): what was measured or
/// tried on the way, session by session, belongs in docs/history/ or CHANGELOG.md.
const MAX_REFERENCE_LINES: usize = 700;

#[test]
fn the_reference_pages_stay_reference() {
    let mut long = Vec::new();
    for page in ["benchmarks.md", "testing.md"] {
        let path = workspace().join("docs").join(page);
        let text = std::fs::read_to_string(&path).expect("a page of docs/");
        let n = text.lines().count();
        if n > MAX_REFERENCE_LINES {
            long.push(format!("docs/{page} ({n} lines)"));
        }
    }
    assert!(
        long.is_empty(),
        "move what is history to docs/history/: {long:?}"
    );
}

/// A module of a crate, as a path from its root (`engine::bdd`; the root is empty).
type Module = Vec<String>;

/// The module a source file is (`src/engine/bdd/mod.rs` → `engine::bdd`).
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).expect("a file under src/");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The `crate::…` and `super::…` paths a file's code names, resolved from `module`.
fn paths_named(module: &Module, lines: &[String]) -> Vec<Module> {
    let mut found = Vec::new();
    for line in lines {
        let code = line.split("//").next().unwrap_or("");
        for (start, _) in code
            .match_indices("crate::")
            .chain(code.match_indices("super::"))
        {
            // Only paths that begin here (not `$crate::` or `foo::super`).
            let before = code[..start].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':') {
                continue;
            }
            let mut base: Module = if code[start..].starts_with("crate::") {
                Vec::new()
            } else {
                module.clone()
            };
            let mut rest = &code[start..];
            if let Some(r) = rest.strip_prefix("crate::") {
                rest = r;
            }
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            for segment in rest.split("::") {
                let name: String = segment
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if name.is_empty() || name.chars().next().is_some_and(char::is_uppercase) {
                    break;
                }
                base.push(name);
                if !segment.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    break;
                }
            }
            found.push(base);
        }
    }
    found
}

/// Circles among the modules of one crate: for each use of a module that is neither
/// an ancestor nor a descendant, an arrow between the two children of their closest
/// common ancestor that hold them; a parent holding what its children share is no
/// circle.
fn circles(src: &Path) -> Vec<String> {
    let files = rust_files(src);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
    let mut arrows: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for file in &files {
        let from = module_of(src, file);
        for path in paths_named(&from, &code_lines(file)) {
            // The longest prefix of the path that is a module.
            let Some(to) = (0..=path.len())
                .rev()
                .map(|k| path[..k].to_vec())
                .find(|m| modules.contains(m))
            else {
                continue;
            };
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                continue;
            }
            arrows
                .entry(from[..=common].to_vec())
                .or_default()
                .insert(to[..=common].to_vec());
        }
    }
    let mut found = Vec::new();
    for (a, targets) in &arrows {
        for b in targets {
            if a < b && arrows.get(b).is_some_and(|t| t.contains(a)) {
                found.push(format!("{} <-> {}", a.join("::"), b.join("::")));
            }
        }
    }
    // Longer circles: a module that reaches itself.
    for start in arrows.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&Module> = arrows[start].iter().collect();
        while let Some(m) = todo.pop() {
            if m == start {
                found.push(format!("{} reaches itself", start.join("::")));
                break;
            }
            if seen.insert(m.clone()) {
                todo.extend(arrows.get(m).into_iter().flatten());
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let mut all = Vec::new();
    for krate in crates() {
        for circle in circles(&krate.join("src")) {
            all.push(format!("{}: {circle}", krate.display()));
        }
    }
    assert!(all.is_empty(), "import circles: {all:#?}");
}

#[test]
fn the_circle_finder_sees_a_circle() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("layout-circle/src");
    std::fs::create_dir_all(dir.join("engine")).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod cli;\nmod serve;\n").unwrap();
    std::fs::write(dir.join("cli.rs"), "use crate::serve::main;\n").unwrap();
    std::fs::write(dir.join("serve.rs"), "use crate::cli::{Story};\n").unwrap();
    std::fs::write(dir.join("engine/mod.rs"), "use self::knowledge::K;\n").unwrap();
    std::fs::write(
        dir.join("engine/knowledge.rs"),
        "use super::symbolic::Z3;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("engine/symbolic.rs"),
        "use super::knowledge::State; use super::Event;\n",
    )
    .unwrap();
    assert_eq!(
        circles(&dir),
        [
            "cli <-> serve",
            "cli reaches itself",
            "engine::knowledge <-> engine::symbolic",
            "engine::knowledge reaches itself",
            "engine::symbolic reaches itself",
            "serve reaches itself",
        ]
    );
}
