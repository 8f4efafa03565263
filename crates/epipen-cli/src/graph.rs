//! `epipen graph` and `worlds --dot`: the model as DOT, or as epipen's own SVG drawing
//! (the playground's and the Python package's picture; no Graphviz needed).

use epipen::engine::Engine;
use epipen::explore::{graph, svg};
use epipen::ir::CheckpointId;

use crate::output::outln;
use crate::story::{Failure, Story};

impl Story {
    /// The epistemic model at `checkpoint` (None: now) as DOT (the actual world, if any,
    /// with a double border), or the error that says why it cannot be drawn.
    pub(crate) fn graph(
        &self,
        engine: &mut Engine,
        checkpoint: Option<CheckpointId>,
    ) -> Result<String, Failure> {
        let (model, title) = self.model(engine, checkpoint)?;
        let actual = self.actual_in(engine, &model);
        Ok(graph::dot(&self.program, &model, actual, &title))
    }

    /// The epistemic model at `checkpoint` (None: now) as a standalone SVG document.
    pub(crate) fn svg(
        &self,
        engine: &mut Engine,
        checkpoint: Option<CheckpointId>,
    ) -> Result<String, Failure> {
        let (model, title) = self.model(engine, checkpoint)?;
        let actual = self.actual_in(engine, &model);
        Ok(svg::svg(&self.program, &model, actual, &title, svg::WIDTH))
    }
}

/// How `epipen graph` writes a model.
#[derive(Clone, Copy)]
pub(crate) enum Drawing {
    /// Graphviz DOT text.
    Dot,
    /// A standalone SVG document (epipen's own drawing).
    Svg,
}

impl Story {
    /// The event model of the event (or action) `name`: its cases as worlds, an edge
    /// between two cases some characters cannot tell apart; drawn as `drawing` says.
    pub(crate) fn event_graph(&self, name: &str, drawing: Drawing) -> Result<String, Failure> {
        let (program, model, title) = self.event_model(name)?;
        Ok(match drawing {
            Drawing::Svg => svg::svg(&program, &model, None, &title, svg::WIDTH),
            Drawing::Dot => graph::dot(&program, &model, None, &title),
        })
    }
}

/// Checks that `epipen graph --svg OUT` can write `OUT`: its directory exists (before the
/// story runs).
pub(crate) fn check_svg_path(out: &std::path::Path) -> Result<(), Failure> {
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    if dir.is_dir() {
        return Ok(());
    }
    Err(Failure::usage(
        "",
        format!(
            "--svg {}: the directory {} does not exist",
            out.display(),
            dir.display()
        ),
        Some(format!("create it first (`mkdir -p {}`)", dir.display())),
    ))
}

/// Writes the SVG document to `out` (a failure to write is exit code 1, as for any
/// output that cannot be written).
pub(crate) fn write_svg(svg: &str, out: &std::path::Path) -> Result<(), Failure> {
    std::fs::write(out, svg)
        .map_err(|e| Failure::io("", format!("cannot write {}: {e}", out.display())))?;
    outln!("wrote {}", out.display());
    Ok(())
}
