//! Worlds as front ends show them: each constant by name with its value as stories
//! write it (enum values by their variant's name); occurrences of events that have not
//! happened left out.

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::ir::{ConstId, Program, Ty, Value};
use crate::worlds::{WorldCount, WorldSet, show_value};

/// A value as stories write it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Shown {
    Int(i64),
    Bool(bool),
    /// An enum's value, by its variant's name.
    Name(String),
    /// A probability, exact: `2/3`, `0`, `1`.
    Ratio(String),
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Shown::Int(n) => write!(f, "{n}"),
            Shown::Bool(b) => write!(f, "{b}"),
            Shown::Name(name) | Shown::Ratio(name) => write!(f, "{name}"),
        }
    }
}

/// One world: the constants it shows, by name, in declaration order (serialised as a
/// JSON object: `{"month": 7, "day": 16}`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct World(pub Vec<(String, Shown)>);

impl Serialize for World {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in &self.0 {
            map.serialize_entry(name, value)?;
        }
        map.end()
    }
}

impl World {
    /// The world of `values` (one per constant of `program`).
    pub fn of(program: &Program, values: &[Value]) -> World {
        World(
            (program.constants.iter().zip(values).enumerate())
                .filter(|(k, (_, v))| program.shows(ConstId(*k), **v))
                .map(|(_, (c, v))| (c.name.clone(), shown(program, c.ty, *v)))
                .collect(),
        )
    }

    /// A value of type `ty` as stories write it.
    pub fn of_value(program: &Program, ty: Ty, value: Value) -> Shown {
        shown(program, ty, value)
    }

    /// The values `before` held of the constants `now` shows (a world of a story that
    /// changed constants, `x := e`, at its start).
    pub fn before(program: &Program, now: &[Value], before: &[Value]) -> World {
        World(
            (program.constants.iter().zip(now).zip(before).enumerate())
                .filter(|(k, ((_, v), _))| program.shows(ConstId(*k), **v))
                .map(|(_, ((c, _), b))| (c.name.clone(), shown(program, c.ty, *b)))
                .collect(),
        )
    }
}

fn shown(program: &Program, ty: Ty, value: Value) -> Shown {
    match (ty, value) {
        (Ty::Enum(_), _) => Shown::Name(show_value(program, ty, value)),
        (_, Value::Int(n)) => Shown::Int(n),
        (_, Value::Bool(b)) => Shown::Bool(b),
    }
}

/// A statement a message names: its line and its text on one line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Statement {
    pub line: usize,
    pub statement: String,
    /// Why it left no world, when its kind says it (`the announcements contradict each
    /// other`): in the text only.
    #[serde(skip)]
    pub why: Option<String>,
}

/// The worlds possible somewhere, in canonical order (serialised with each world's
/// probability, when the story speaks of chances, as `"probability": "1/3"` in its
/// object).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worlds {
    pub worlds: Vec<World>,
    /// Whether those are all of them.
    pub complete: bool,
    /// When the story changed constants: each world's values at its start.
    pub before: Option<Vec<World>>,
    /// With no world: the first statement after which none was possible.
    pub left_none: Option<Statement>,
    /// When the story speaks of chances: each world's probability among the worlds
    /// possible (the storyteller's), exact (`1/3`).
    pub probabilities: Option<Vec<String>>,
}

impl Serialize for Worlds {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let fields = 2 + usize::from(self.before.is_some()) + usize::from(self.left_none.is_some());
        let mut s = serializer.serialize_struct("Worlds", fields)?;
        let worlds = with_chances(&self.worlds, self.probabilities.as_deref());
        s.serialize_field("worlds", &worlds)?;
        s.serialize_field("complete", &self.complete)?;
        if let Some(before) = &self.before {
            s.serialize_field("before", before)?;
        }
        if let Some(left_none) = &self.left_none {
            s.serialize_field("left_none", left_none)?;
        }
        s.end()
    }
}

/// Worlds, each with its probability (if any) as one more entry of its object.
pub(super) fn with_chances<'w>(
    worlds: &'w [World],
    chances: Option<&'w [String]>,
) -> Vec<WithChance<'w>> {
    (worlds.iter().enumerate())
        .map(|(i, w)| WithChance(w, chances.and_then(|p| p.get(i))))
        .collect()
}

/// A world with its probability as one more entry of its object.
pub(super) struct WithChance<'w>(&'w World, Option<&'w String>);

impl Serialize for WithChance<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.0.len() + 1))?;
        for (name, value) in &self.0.0 {
            map.serialize_entry(name, value)?;
        }
        if let Some(p) = self.1 {
            map.serialize_entry("probability", p)?;
        }
        map.end()
    }
}

/// A probability as front ends show it: `2/3`, `0`, `1`.
pub fn ratio(q: &crate::engine::BigRational) -> String {
    q.to_string()
}

impl Worlds {
    /// The worlds of `set`; `left_none` the statement that left none.
    pub fn of(program: &Program, set: &WorldSet, left_none: Option<Statement>) -> Worlds {
        Worlds {
            worlds: set
                .worlds
                .iter()
                .map(|w| World::of(program, &w.0))
                .collect(),
            complete: set.complete,
            before: set.before.as_ref().map(|before| {
                (set.worlds.iter().zip(before))
                    .map(|(w, b)| World::before(program, &w.0, &b.0))
                    .collect()
            }),
            left_none,
            probabilities: (set.chances.as_ref())
                .map(|chances| chances.iter().map(ratio).collect()),
        }
    }

    /// Whether no world is possible (as opposed to none listed).
    pub fn none(&self) -> bool {
        self.worlds.is_empty() && self.complete
    }
}

/// How many worlds are possible: serialised as a number, `"infinite"`, or `">N"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Count(pub WorldCount);

impl Serialize for Count {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            WorldCount::Exactly(n) => serializer.serialize_u64(n),
            WorldCount::Infinite => serializer.serialize_str("infinite"),
            WorldCount::MoreThan(n) => serializer.serialize_str(&format!(">{n}")),
        }
    }
}
