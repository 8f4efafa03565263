//! `epipen run --trace`: how the possible worlds shrink, statement by statement, and which
//! statement eliminated each world of a finite story.

use crate::engine::{BigRational, Engine, Failure};
use crate::explore::graph::belief_at;
use crate::ir::{CharId, EventStmt, ExprKind, Program, Stmt, StmtKind, Value};
use crate::syntax::Span;
use crate::worlds::{World, WorldCount, WorldSet};

/// Worlds are counted exactly, and followed one by one, up to this many.
pub const TRACK_CAP: usize = 10_000;

/// The possible worlds after one statement (or at the start).
#[derive(Debug, Clone, PartialEq)]
pub struct TraceStep {
    /// The statement (None: the start, before any statement).
    pub span: Option<Span>,
    /// The round of the top-level `repeat` that this step ends (None: the whole
    /// statement).
    pub round: Option<u64>,
    /// A statement unrolled by `for`: each loop variable around it, the outermost
    /// first, with its value; in a step standing for several, every value it took, in
    /// increasing order.
    pub loops: Vec<(String, Vec<i64>)>,
    /// How many statements the step stands for: more than 1 when consecutive steps of
    /// unrolled loops that changed nothing are folded into one.
    pub steps: usize,
    /// The last statement the step stands for (`span` unless several are folded).
    pub last: Option<Span>,
    /// An `event` statement's heading: `event move: moved | stayed` (its cases).
    pub event: Option<String>,
    /// An event in a story without an actual world: which cases each character tells
    /// apart, as `Anne sees moved | stayed` (`Sally sees no difference`).
    pub sees: Vec<String>,
    pub count: WorldCount,
    /// The worlds, when there are at most the tracer's limit.
    pub worlds: Option<Vec<World>>,
    /// When the story speaks of chances, each of `worlds`' probability.
    pub chances: Option<Vec<BigRational>>,
    /// Whether the worlds differ from those before the statement (None: cannot tell,
    /// there are too many to compare).
    pub changed: Option<bool>,
    /// The followed worlds this statement eliminated (None before worlds are followed).
    pub eliminated: Option<Vec<World>>,
    /// How many worlds it eliminated, when both counts are exact.
    pub removed: Option<u64>,
    /// What the characters the statement asks about believe (a `believes`, an
    /// `expects`), when the worlds are listed: in the actual world, or without one in
    /// each class of worlds the character cannot tell apart.
    pub beliefs: Vec<Belief>,
}

/// What a character believes: of the worlds it cannot tell apart, the ones it finds
/// most plausible (worlds as the story names them now).
#[derive(Debug, Clone, PartialEq)]
pub struct Belief {
    pub who: CharId,
    /// Whether `class` is the class of the actual world.
    pub actual: bool,
    /// The worlds it cannot tell apart, in canonical order.
    pub class: Vec<World>,
    /// Those it finds most plausible, in canonical order.
    pub believed: Vec<World>,
}

/// The characters whose belief `stmt` asks about or changes: those of its `believes`
/// and `believes_value`, of an `A expects φ`, and of an event's `expects` lines (in
/// its blocks too); sorted, without repeats.
pub fn asked_beliefs(stmt: &Stmt) -> Vec<CharId> {
    fn statement(stmt: &Stmt, out: &mut Vec<CharId>) {
        let _ = stmt.each_expr::<()>(&mut |e| {
            e.walk::<()>(&mut |e| {
                if let ExprKind::Believes { agent, .. } | ExprKind::BelievesValue { agent, .. } =
                    &e.kind
                {
                    out.push(*agent);
                }
                Ok(())
            })
        });
        match &stmt.kind {
            StmtKind::Expects { who, .. } => out.push(*who),
            StmtKind::Event(event) => out.extend(
                (0..event.expects.len())
                    .filter(|&c| event.expects[c].is_some())
                    .map(CharId),
            ),
            StmtKind::Simultaneously(body)
            | StmtKind::Repeat { body, .. }
            | StmtKind::AssertAddsCk { body, .. } => {
                body.iter().for_each(|s| statement(s, out));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    statement(stmt, &mut out);
    out.sort();
    out.dedup();
    out
}

impl TraceStep {
    /// Whether `later`, the next step, folds into this one: both changed nothing (or,
    /// among too many worlds to compare, left their number as it was) and ask about no
    /// belief (no repeat rounds, no event), and they are steps of unrolled loops with the
    /// same variables, or the parts of one statement written once (`A learns x, y`).
    pub fn folds(&self, later: &TraceStep) -> bool {
        let quiet = |s: &TraceStep| {
            s.span.is_some()
                && (s.changed == Some(false) || (s.changed.is_none() && s.removed == Some(0)))
                && s.round.is_none()
                && s.event.is_none()
                && s.beliefs.is_empty()
        };
        let names = |s: &TraceStep| s.loops.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        let looped = !self.loops.is_empty() && names(self) == names(later);
        let one_statement =
            self.loops.is_empty() && later.loops.is_empty() && self.last == later.span;
        quiet(self) && quiet(later) && (looped || one_statement)
    }

    /// Folds the next step into this one (see [`TraceStep::folds`]): the result stands
    /// for both, with every value their loop variables took.
    pub fn fold(&mut self, later: TraceStep) {
        for (name, values) in later.loops {
            match self.loops.iter_mut().find(|(n, _)| *n == name) {
                Some((_, mine)) => {
                    mine.extend(values);
                    mine.sort_unstable();
                    mine.dedup();
                }
                None => self.loops.push((name, values)),
            }
        }
        self.steps += later.steps;
        if later.changed.is_none() {
            self.changed = None;
        }
        self.last = later.last;
        self.count = later.count;
        self.worlds = later.worlds;
        self.chances = later.chances;
        self.removed = match (self.removed, later.removed) {
            (Some(a), Some(b)) => Some(a + b),
            _ => None,
        };
        if let (Some(mine), Some(theirs)) = (&mut self.eliminated, later.eliminated) {
            mine.extend(theirs);
        }
    }
}

/// Where a step of a trace happened: a statement, in a round of its `repeat`, in a copy
/// of a `for` loop.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub span: Span,
    pub round: Option<u64>,
    /// The loop variables around it and their values, the outermost first.
    pub loops: Vec<(String, i64)>,
    /// An event statement's heading (see [`event_heading`]).
    pub event: Option<String>,
}

/// An event statement's heading: `event move: moved | stayed`.
pub fn event_heading(program: &Program, event: &EventStmt) -> String {
    let cases: Vec<&str> = event.cases.iter().map(|c| c.name.as_str()).collect();
    format!(
        "event {}: {}",
        program.events[event.event.0].name,
        cases.join(" | ")
    )
}

/// Which cases of `event` each character tells apart: `Anne sees moved | stayed` (the
/// groups of its `sees` line, the cases of a group joined by `, `), or `Sally sees no
/// difference`.
pub fn event_sees(program: &Program, event: &EventStmt) -> Vec<String> {
    (program.characters.iter().zip(&event.sees))
        .map(|(who, groups)| {
            let Some(groups) = groups else {
                return format!("{} sees no difference", who.name);
            };
            let mut parts: Vec<(usize, Vec<&str>)> = Vec::new();
            for (case, &group) in groups.iter().enumerate() {
                let name = event.cases[case].name.as_str();
                match parts.iter_mut().find(|(g, _)| *g == group) {
                    Some((_, names)) => names.push(name),
                    None => parts.push((group, vec![name])),
                }
            }
            let parts: Vec<String> = parts.iter().map(|(_, names)| names.join(", ")).collect();
            format!("{} sees {}", who.name, parts.join(" | "))
        })
        .collect()
}

/// The values of loop variables as a trace shows them: `i = 2`, `i in 0..3` (every
/// value from 0 to 2), `c in {0, 7, 35}`; joined by `, `.
pub fn loops_text(loops: &[(String, Vec<i64>)]) -> String {
    loops
        .iter()
        .map(|(name, values)| match values.as_slice() {
            [one] => format!("{name} = {one}"),
            [first, .., last] if values.windows(2).all(|w| w[1] == w[0] + 1) => {
                format!("{name} in {first}..{}", last + 1)
            }
            _ => {
                let values: Vec<String> = values.iter().map(i64::to_string).collect();
                format!("{name} in {{{}}}", values.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What became of each world followed since the first finite state.
#[derive(Debug, Clone, PartialEq)]
pub struct Fates {
    /// The statement after which the worlds were first finitely many (None: the start).
    pub since: Option<Span>,
    /// Each world, in canonical order, with the step that eliminated it (None: still
    /// possible at the end). A world is followed by its values at the story's
    /// start, its events' cases left out: after `x := e` it is the same world, and
    /// after an event it lives on as long as one of the worlds it became does.
    pub worlds: Vec<(World, Option<Place>)>,
}

/// The worlds of `set` as the tracer follows them: their values at the story's start,
/// every occurrence of an event at its not-yet value (sorted, without repeats).
fn followed(program: &Program, set: &WorldSet) -> Vec<World> {
    let starts = set.before.as_ref().unwrap_or(&set.worlds);
    let mut ids: Vec<World> = starts
        .iter()
        .map(|w| {
            let mut values = w.0.clone();
            for occ in program.occurrences() {
                if let Some(o) = program.constants[occ.0].occurrence {
                    values[occ.0] = Value::Int(program.events[o.event.0].not_yet());
                }
            }
            World(values)
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// What each character of `asked` believes now, in the actual world when there is one,
/// else in each class of its (at most `n`) worlds.
fn beliefs(engine: &mut Engine, n: usize, asked: &[CharId]) -> Result<Vec<Belief>, Failure> {
    let Some(model) = engine.model(None, n)? else {
        return Ok(Vec::new());
    };
    let identities = model.before.as_ref().unwrap_or(&model.worlds);
    let actual = engine
        .actual_world()
        .and_then(|a| identities.iter().position(|w| *w == a));
    let shown = |ws: &[usize]| {
        let mut shown: Vec<World> = ws.iter().map(|&w| model.worlds[w].clone()).collect();
        shown.sort();
        shown
    };
    let mut out = Vec::new();
    for &who in asked {
        let starts: Vec<usize> = match actual {
            Some(w) => vec![w],
            None => (0..model.worlds.len()).collect(),
        };
        let mut seen = vec![false; model.worlds.len()];
        for w in starts {
            if seen[w] {
                continue;
            }
            let (class, believed) = belief_at(&model, who, w);
            class.iter().for_each(|&v| seen[v] = true);
            out.push(Belief {
                who,
                actual: actual.is_some(),
                class: shown(&class),
                believed: shown(&believed),
            });
        }
    }
    Ok(out)
}

/// Follows a run: call [`Tracer::observe`] at the start and after each statement.
pub struct Tracer {
    limit: usize,
    /// Worlds are followed one by one up to this many (and counted exactly up to
    /// [`TRACK_CAP`] at least).
    track: usize,
    last: Option<(WorldCount, Option<Vec<World>>)>,
    /// The probabilities of the worlds listed last (a `prior` changes them alone).
    last_chances: Option<Vec<BigRational>>,
    fates: Option<Fates>,
}

impl Tracer {
    /// A tracer listing the worlds when there are at most `limit`, and following them
    /// from when there are at most [`TRACK_CAP`].
    pub fn new(limit: usize) -> Tracer {
        Tracer::following(limit, TRACK_CAP)
    }

    /// A tracer listing the worlds when there are at most `limit`, and following them
    /// from when there are at most `track` (listing thousands of worlds one by one with
    /// Z3 takes seconds: the web playground follows fewer).
    pub fn following(limit: usize, track: usize) -> Tracer {
        Tracer {
            limit,
            track,
            last: None,
            last_chances: None,
            fates: None,
        }
    }

    /// The worlds now, after the statement `stmt` (None: the start; with `round`, after
    /// that round of its `repeat`), and what the characters `asked` believe (see
    /// [`asked_beliefs`]).
    pub fn observe(
        &mut self,
        engine: &mut Engine,
        stmt: Option<&Stmt>,
        round: Option<u64>,
        asked: &[CharId],
    ) -> Result<TraceStep, Failure> {
        let span = stmt.map(|s| s.span);
        let (event, sees) = match stmt.map(|s| &s.kind) {
            Some(StmtKind::Event(e)) => {
                let program = engine.program();
                let sees = if engine.actual_world().is_none() {
                    event_sees(program, e)
                } else {
                    Vec::new()
                };
                (Some(event_heading(program, e)), sees)
            }
            _ => (None, Vec::new()),
        };
        let place = stmt.map(|s| Place {
            span: s.span,
            round,
            loops: s.loops.clone(),
            event: event.clone(),
        });
        let count = engine.count_worlds(None, TRACK_CAP.max(self.track))?;
        let (all, ids, chances) = match count {
            WorldCount::Exactly(n) if n <= self.track as u64 => {
                let set = engine.worlds(n)?;
                let ids = followed(engine.program(), &set);
                (Some(set.worlds), Some(ids), set.chances)
            }
            _ => (None, None, None),
        };
        let removed = match (self.last.as_ref().map(|l| l.0), count) {
            (Some(WorldCount::Exactly(before)), WorldCount::Exactly(now)) => {
                Some(before.saturating_sub(now))
            }
            _ => None,
        };
        let changed = match &self.last {
            None => Some(true),
            Some((before, _)) if all.is_none() && *before == count => None,
            Some((before, ws)) => {
                Some(*before != count || *ws != all || self.last_chances != chances)
            }
        };
        let eliminated = match (&mut self.fates, &ids) {
            (Some(fates), Some(now)) => {
                let mut gone = Vec::new();
                for (w, fate) in fates.worlds.iter_mut() {
                    if fate.is_none() && now.binary_search(w).is_err() {
                        *fate = place.clone();
                        gone.push(w.clone());
                    }
                }
                Some(gone)
            }
            (None, Some(now)) => {
                self.fates = Some(Fates {
                    since: span,
                    worlds: now.iter().map(|w| (w.clone(), None)).collect(),
                });
                None
            }
            (_, None) => None,
        };
        let worlds = all.as_ref().filter(|ws| ws.len() <= self.limit).cloned();
        let listed = worlds.as_ref().and(chances.clone());
        self.last_chances = chances;
        let beliefs = match &worlds {
            Some(ws) if !asked.is_empty() => beliefs(engine, ws.len(), asked)?,
            _ => Vec::new(),
        };
        self.last = Some((count, all));
        Ok(TraceStep {
            span,
            round,
            loops: (stmt.into_iter().flat_map(|s| &s.loops))
                .map(|(name, value)| (name.clone(), vec![*value]))
                .collect(),
            steps: 1,
            last: span,
            event,
            sees,
            count,
            worlds,
            chances: listed,
            changed,
            eliminated,
            removed,
            beliefs,
        })
    }

    /// What became of each followed world (None: the worlds were never finitely many,
    /// or more than it follows).
    pub fn fates(&self) -> Option<&Fates> {
        self.fates.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::loops_text;

    #[test]
    fn loop_values_read_as_one_value_a_range_or_a_list() {
        let loops = [
            ("i".to_string(), vec![2]),
            ("j".to_string(), vec![0, 1, 2]),
            ("c".to_string(), vec![0, 7, 35]),
        ];
        assert_eq!(loops_text(&loops), "i = 2, j in 0..3, c in {0, 7, 35}");
    }
}
