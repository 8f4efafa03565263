//! A trace as front ends show it: the worlds after each statement ([`Step`]), which
//! statement eliminated each world ([`Fates`]); and an epistemic model ([`Model`]).

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::world::{Count, World, with_chances};

/// The worlds after one statement of a trace (or at its start, or after a round of a
/// `repeat`), serialised as `epipen run --trace --json`'s `step` lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The statement's line (None: the start).
    pub line: Option<usize>,
    /// The statement on one line (`start` at the start).
    pub statement: String,
    /// How the trace names the step: `line 26, round 3: repeat …`, `line 12 (i = 2):
    /// …`, `lines 12-14 (i in 0..7): 21 steps`.
    pub label: String,
    pub round: Option<u64>,
    /// The loop variables around it, each with the values it took.
    pub loops: Vec<(String, Vec<i64>)>,
    /// How many statements the step stands for (folded when they changed nothing).
    pub steps: usize,
    /// With several: the line of the last.
    pub last_line: Option<usize>,
    /// An event without an actual world: which cases each character tells apart.
    pub sees: Vec<String>,
    pub count: Count,
    /// Whether the worlds changed (None: cannot tell).
    pub changed: Option<bool>,
    /// The worlds, when at most the trace's limit (serialised with each one's
    /// probability, when the story speaks of chances, as `"probability": "1/3"` in its
    /// object, as in [`super::Worlds`]).
    pub worlds: Option<Vec<World>>,
    /// When the story speaks of chances: each of `worlds`' probability (`1/3`).
    pub probabilities: Option<Vec<String>>,
    /// How many worlds it eliminated, when both counts are exact.
    pub removed: Option<u64>,
    /// The followed worlds it eliminated.
    pub eliminated: Option<Vec<World>>,
    pub beliefs: Vec<Belief>,
}

impl Serialize for Step {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("kind", "step")?;
        map.serialize_entry("line", &self.line)?;
        map.serialize_entry("event", &self.statement)?;
        map.serialize_entry("label", &self.label)?;
        if let Some(round) = self.round {
            map.serialize_entry("round", &round)?;
        }
        if !self.loops.is_empty() {
            let loops: serde_json::Map<String, serde_json::Value> = (self.loops.iter())
                .map(|(name, values)| (name.clone(), values.clone().into()))
                .collect();
            map.serialize_entry("loops", &loops)?;
        }
        if self.steps > 1 {
            map.serialize_entry("steps", &self.steps)?;
            map.serialize_entry("last_line", &self.last_line)?;
        }
        if !self.sees.is_empty() {
            map.serialize_entry("sees", &self.sees)?;
        }
        map.serialize_entry("worlds", &self.count)?;
        map.serialize_entry("changed", &self.changed)?;
        if let Some(worlds) = &self.worlds {
            map.serialize_entry("list", &with_chances(worlds, self.probabilities.as_deref()))?;
        }
        if let Some(n) = self.removed {
            map.serialize_entry("removed", &n)?;
        }
        if let Some(gone) = &self.eliminated {
            map.serialize_entry("eliminated", gone)?;
        }
        if !self.beliefs.is_empty() {
            map.serialize_entry("beliefs", &self.beliefs)?;
        }
        map.end()
    }
}

/// What a character believes: of the worlds it cannot tell apart, those it finds most
/// plausible.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Belief {
    pub who: String,
    /// Whether these are the worlds it cannot tell from the actual world.
    pub actual: bool,
    /// The worlds it cannot tell apart.
    pub worlds: Vec<World>,
    /// Those it finds most plausible.
    pub believed: Vec<World>,
}

/// Which statement eliminated each world followed since `since` (serialised as the last
/// line of `epipen run --trace --json`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fates {
    /// After which line the worlds were followed (None: from the start).
    pub since: Option<usize>,
    pub fates: Vec<Fate>,
}

impl Serialize for Fates {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("kind", "fates")?;
        map.serialize_entry("since", &self.since)?;
        map.serialize_entry("fates", &self.fates)?;
        map.end()
    }
}

/// A world followed, and the step that eliminated it (None: still possible).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fate {
    pub world: World,
    /// The line of the statement that eliminated it.
    pub eliminated_by: Option<usize>,
    /// How the trace names that step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u64>,
}

/// The epistemic model at a checkpoint (or the end): its worlds, and which characters
/// cannot tell which apart.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Model {
    /// `cheryl.story at checkpoint whispered: 10 worlds`.
    pub title: String,
    pub characters: Vec<String>,
    pub worlds: Vec<World>,
    /// The actual world (an index into `worlds`), when the story has declared one.
    pub actual: Option<usize>,
    pub edges: Vec<ModelEdge>,
    /// Belief: for each world, those each character finds most plausible among those it
    /// cannot tell from it.
    pub beliefs: Vec<ModelArrow>,
    /// Belief: for each character whose plausibility is not flat, the worlds it finds
    /// most plausible among those it cannot tell from them (none listed: no such
    /// character).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub plausible: Vec<ModelPlausible>,
    /// When the story speaks of chances: each world's probability (`1/3`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probabilities: Option<Vec<String>>,
    /// Where each world and each edge's label is drawn (`epipen graph --svg`'s picture).
    pub layout: ModelLayout,
}

/// The model's drawing, as [`crate::explore::layout`] lays it out: in pixels from the
/// top left corner of a drawing `width` × `height`, each world's centre (`points`, in
/// the order of [`Model::worlds`]) and each edge's label's (`labels`, in the order of
/// [`Model::edges`]); the circles' `radius`; each world's values as drawn (`parts`:
/// booleans as `1` and `0` when every value shown is a bool), joined by `sep`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelLayout {
    pub radius: f64,
    pub width: f64,
    pub height: f64,
    pub points: Vec<[f64; 2]>,
    pub labels: Vec<[f64; 2]>,
    pub parts: Vec<Vec<String>>,
    pub sep: String,
}

/// Two worlds (indices into [`Model::worlds`]) the characters `who` cannot tell apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelEdge {
    pub a: usize,
    pub b: usize,
    pub who: Vec<String>,
}

/// The worlds (indices into [`Model::worlds`]) character `who` finds most plausible
/// among those it cannot tell from them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelPlausible {
    pub who: String,
    pub worlds: Vec<usize>,
}

/// In world `from`, the characters `who` find world `to` most plausible.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ModelArrow {
    pub from: usize,
    pub to: usize,
    pub who: Vec<String>,
}
