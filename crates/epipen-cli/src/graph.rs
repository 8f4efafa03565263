//! `epipen graph` and `worlds --dot`: the model as DOT, and SVG through Graphviz.

use epipen::engine::Engine;
use epipen::explore::graph;
use epipen::ir::CheckpointId;

use crate::output::outln;
use crate::story::{Failure, Story};

impl Story {
    /// The epistemic model at `checkpoint` (None: now) as DOT, or the error that says
    /// why it cannot be drawn.
    pub(crate) fn graph(
        &self,
        engine: &mut Engine,
        checkpoint: Option<CheckpointId>,
    ) -> Result<String, Failure> {
        let (model, title) = self.model(engine, checkpoint)?;
        Ok(graph::dot(&self.program, &model, &title))
    }
}

/// Checks that `epipen graph --svg OUT` can write `OUT`: its directory exists (before the
/// story runs, and without Graphviz, which would only say it cannot open the file).
pub(crate) fn check_svg_path(out: &std::path::Path) -> Result<(), Failure> {
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    if dir.is_dir() {
        return Ok(());
    }
    Err(Failure::Story(format!(
        "error: --svg {}: the directory {} does not exist\n  = hint: create it first (`mkdir -p {}`)\n",
        out.display(),
        dir.display(),
        dir.display()
    )))
}

/// Renders DOT text to an SVG file with Graphviz's `dot` (given a file, not a pipe: a
/// `dot` that dies early cannot take epipen down with it).
pub(crate) fn render_svg(dot: &str, out: &std::path::Path) -> Result<(), Failure> {
    let input = std::env::temp_dir().join(format!("epipen-{}.dot", std::process::id()));
    std::fs::write(&input, dot)
        .map_err(|e| Failure::Story(format!("error: cannot write {}: {e}\n", input.display())))?;
    let ran = std::process::Command::new("dot")
        .arg("-Tsvg")
        .arg("-o")
        .arg(out)
        .arg(&input)
        .output();
    let _ = std::fs::remove_file(&input);
    match ran {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Failure::Story(
            "error: --svg needs Graphviz's `dot` program, which is not installed (not found on PATH)\n  \
             = hint: install Graphviz (Debian: `apt install graphviz`), or print the DOT text instead: `epipen graph FILE > model.dot`\n"
                .to_string(),
        )),
        Err(e) => Err(Failure::Story(format!("error: cannot run `dot`: {e}\n"))),
        Ok(output) if !output.status.success() => Err(Failure::Solver(format!(
            "error: `dot` failed ({}) writing {}\n{}",
            output.status,
            out.display(),
            String::from_utf8_lossy(&output.stderr)
        ))),
        Ok(_) => {
            outln!("wrote {}", out.display());
            Ok(())
        }
    }
}
