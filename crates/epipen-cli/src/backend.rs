//! `--backend` (and the playground's backend menu): which of the engine's backends runs
//! the story.

use epipen::engine::Strategy;

/// `--backend`: which of the engine's backends runs the story.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    #[default]
    Auto,
    Z3,
    Bdd,
    Explicit,
}

impl Backend {
    pub(crate) fn strategy(self) -> Strategy {
        match self {
            Backend::Auto => Strategy::Auto,
            Backend::Z3 => Strategy::Z3,
            Backend::Bdd => Strategy::Bdd,
            Backend::Explicit => Strategy::Explicit,
        }
    }

    /// As `--backend` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Z3 => "z3",
            Backend::Bdd => "bdd",
            Backend::Explicit => "explicit",
        }
    }
}
