//! `epipen graph` and `worlds --dot`: the model as DOT, and SVG through Graphviz.

use super::output::outln;
use super::{Failure, Story};
use crate::engine::{Engine, EngineError, Failure as EngineFailure};
use crate::explore::graph::{self, GRAPH_CAP};
use crate::ir::CheckpointId;
use crate::syntax::Diagnostic;
use crate::worlds::{Model, WorldCount};

impl Story {
    /// The checkpoint named `name` (None: the end of the story).
    pub(crate) fn checkpoint(&self, name: Option<&str>) -> Result<Option<CheckpointId>, Failure> {
        let Some(name) = name else { return Ok(None) };
        match self.program.checkpoints.iter().position(|c| c.name == name) {
            Some(k) => Ok(Some(CheckpointId(k))),
            None => {
                let names: Vec<String> = self
                    .program
                    .checkpoints
                    .iter()
                    .map(|c| format!("`{}`", c.name))
                    .collect();
                let hint = if names.is_empty() {
                    "the story has no checkpoints; add `checkpoint NAME` where you want the graph"
                        .to_string()
                } else {
                    format!("its checkpoints are {}", names.join(", "))
                };
                Err(Failure::Story(format!(
                    "error: --at {name}: {} has no checkpoint `{name}`\n  = hint: {hint}\n",
                    self.path
                )))
            }
        }
    }

    /// The epistemic model at `checkpoint` (None: now) as DOT, or the error that says
    /// why it cannot be drawn.
    pub(super) fn graph(
        &self,
        engine: &mut Engine,
        checkpoint: Option<CheckpointId>,
    ) -> Result<String, Failure> {
        let (model, title) = self.model(engine, checkpoint)?;
        Ok(graph::dot(&self.program, &model, &title))
    }

    /// The epistemic model at `checkpoint` (None: now) and its title (`cheryl.story at
    /// checkpoint whispered: 10 worlds`), or the error that says why it cannot be drawn.
    pub(crate) fn model(
        &self,
        engine: &mut Engine,
        checkpoint: Option<CheckpointId>,
    ) -> Result<(Model, String), Failure> {
        let (span, place) = match checkpoint {
            None => (self.end(), "at the end".to_string()),
            Some(c) => (
                self.program.checkpoints[c.0].span,
                format!("at checkpoint {}", self.program.checkpoints[c.0].name),
            ),
        };
        let at = |error: EngineFailure| self.failure(&EngineError { span, error });
        let Some(model) = engine.model(checkpoint, GRAPH_CAP).map_err(at)? else {
            let count = engine.count_worlds(checkpoint, GRAPH_CAP).map_err(at)?;
            let d = Diagnostic::error(
                span,
                format!("the model {place} has {count}; a graph shows at most {GRAPH_CAP}"),
            )
            .with_hint("graph a checkpoint where fewer worlds are left (--at NAME), or use smaller parameters (--set)");
            return Err(Failure::Story(d.render(&self.path, &self.source)));
        };
        let file = std::path::Path::new(&self.path)
            .file_name()
            .map_or(self.path.clone(), |f| f.to_string_lossy().into_owned());
        let title = format!(
            "{file} {place}: {}",
            WorldCount::Exactly(model.worlds.len() as u64)
        );
        Ok((model, title))
    }
}

/// Checks that `epipen graph --svg OUT` can write `OUT`: its directory exists (before the
/// story runs, and without Graphviz, which would only say it cannot open the file).
pub(super) fn check_svg_path(out: &std::path::Path) -> Result<(), Failure> {
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
pub(super) fn render_svg(dot: &str, out: &std::path::Path) -> Result<(), Failure> {
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
