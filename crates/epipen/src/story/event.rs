//! Events ([`Story::event`]): something happens while the characters watch, each seeing
//! part of it. An [`EventBlock`] states one execution of an event as the story
//! language's `event NAME { … }` block does: its [`Case`]s (a precondition, changes),
//! who sees which cases apart, who expects which cases, and the case that happened; the
//! [`Event`] handle names the latest execution's case in formulas afterwards.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::engine::Report;
use crate::ir::{ConstId, EventId, StmtKind};
use crate::syntax::{Span, ast};

use super::change::{Change, ValueOf};
use super::expr::{Enum, Expression, Formula, Int, Node};
use super::handles::EnumInfo;
use super::{Character, EnumType, Error, Story};

/// Tells event blocks apart, so a case handle is never taken for another block's.
static NEXT_BLOCK: AtomicU64 = AtomicU64::new(1);

mod sealed {
    /// A case as a `sees`, `actual` or [`super::Event::is`] names it.
    #[derive(Clone)]
    pub enum Named {
        /// A handle of an event block: the block, its event's name, the case's index
        /// and name.
        Handle {
            block: u64,
            event: String,
            index: usize,
            name: String,
        },
        /// A case's name (or, in a `sees` group, a family's: `face` for `face[…]`).
        Name(String),
    }

    /// What names a case: see [`super::CaseRef`].
    pub trait NamesCase {
        fn named(self) -> Named;
    }
}

use sealed::{Named, NamesCase};

/// What names a case of an event: a [`Case`] handle of the block, or the case's name
/// (`"moved"`, `"face[3]"`; implemented for `&str`, `String` and `&String`). In a `sees`
/// group, the name of a family (`"face"`) stands for all its cases `face[…]`.
pub trait CaseRef: NamesCase {}
impl<T: NamesCase> CaseRef for T {}

impl NamesCase for &str {
    fn named(self) -> Named {
        Named::Name(self.to_string())
    }
}

impl NamesCase for String {
    fn named(self) -> Named {
        Named::Name(self)
    }
}

impl NamesCase for &String {
    fn named(self) -> Named {
        Named::Name(self.clone())
    }
}

impl NamesCase for Case<'_> {
    fn named(self) -> Named {
        Named::Handle {
            block: self.block.serial,
            event: self.block.name.clone(),
            index: self.index,
            name: self.name(),
        }
    }
}

impl NamesCase for &Case<'_> {
    fn named(self) -> Named {
        (*self).named()
    }
}

/// Groups of cases (a `sees` or `expects` line's) as names.
fn named_groups<G, C>(groups: impl IntoIterator<Item = G>) -> Vec<Vec<Named>>
where
    G: IntoIterator<Item = C>,
    C: CaseRef,
{
    (groups.into_iter())
        .map(|g| g.into_iter().map(NamesCase::named).collect())
        .collect()
}

/// A case as the block holds it until the event runs.
#[derive(Clone)]
struct CaseLine {
    name: String,
    pre: Option<Formula>,
    changes: Vec<Change>,
    weight: Option<Int>,
}

/// A `sees` line.
#[derive(Clone)]
struct SeesLine {
    who: Character,
    /// None: every case a group of its own.
    groups: Option<Vec<Vec<Named>>>,
}

/// An `expects` line: its groups, most plausible first.
#[derive(Clone)]
struct ExpectsLine {
    who: Character,
    groups: Vec<Vec<Named>>,
}

/// One execution of an event, as [`Story::event`]'s closure states it: the language's
/// `event NAME { … }` block. Its methods take `&self`, so that [`Case`] handles and the
/// block can be used side by side; mistakes are reported by [`Story::event`], which then
/// runs nothing.
pub struct EventBlock {
    serial: u64,
    name: String,
    cases: Mutex<Vec<CaseLine>>,
    sees: Mutex<Vec<SeesLine>>,
    expects: Mutex<Vec<ExpectsLine>>,
    actual: Mutex<Vec<Named>>,
}

/// A case of an event block, from [`EventBlock::case`]: `moved if φ then x := e`. Add
/// its precondition with [`Case::when`] and its changes with [`Case::then`]; name it in
/// [`EventBlock::sees`], [`EventBlock::expects`] and [`EventBlock::actual`], or in
/// formulas with [`Event::is`].
#[derive(Clone, Copy)]
pub struct Case<'e> {
    block: &'e EventBlock,
    index: usize,
}

impl fmt::Debug for Case<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Case({:?} of {:?})", self.name(), self.block.name)
    }
}

impl<'e> Case<'e> {
    /// The case's name.
    pub fn name(self) -> String {
        lock(&self.block.cases)[self.index].name.clone()
    }

    /// `if φ`: the case can happen only in a world where φ holds, evaluated in the state
    /// before the event (knowledge operators allowed). Several calls: all must hold.
    /// Without one, the case can always happen.
    pub fn when(self, precondition: impl Into<Formula>) -> Case<'e> {
        let mut cases = lock(&self.block.cases);
        let pre = &mut cases[self.index].pre;
        let f = precondition.into();
        *pre = Some(match pre.take() {
            Some(p) => p.and(f),
            None => f,
        });
        self
    }

    /// `then x := e`: when this case happens, `target` takes the value `value` had just
    /// before. Several changes of a case are simultaneous (every value read before any
    /// constant changes), each constant changed once, typed as [`Story::assign`].
    pub fn then<T: Expression>(self, target: &T, value: impl ValueOf<T>) -> Case<'e> {
        self.then_all([Change::new(target, value)])
    }

    /// `weight e`: the case's weight, an int expression of the world's values (without
    /// knowledge operators; never negative), evaluated in the world before the event.
    /// In a world, the chance of a case possible there is its weight over the sum of the
    /// weights of the cases possible there (docs/language.md, "Probability"). Without
    /// one, 1; a second call replaces the first.
    pub fn weight(self, weight: impl Into<Int>) -> Case<'e> {
        lock(&self.block.cases)[self.index].weight = Some(weight.into());
        self
    }

    /// Several changes at once (as [`Case::then`] for each).
    pub fn then_all(self, changes: impl IntoIterator<Item = Change>) -> Case<'e> {
        lock(&self.block.cases)[self.index].changes.extend(changes);
        self
    }
}

/// The lines of an event block, whichever thread states them.
fn lock<T>(lines: &Mutex<T>) -> MutexGuard<'_, T> {
    lines.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Clone for EventBlock {
    fn clone(&self) -> EventBlock {
        EventBlock {
            serial: self.serial,
            name: self.name.clone(),
            cases: Mutex::new(lock(&self.cases).clone()),
            sees: Mutex::new(lock(&self.sees).clone()),
            expects: Mutex::new(lock(&self.expects).clone()),
            actual: Mutex::new(lock(&self.actual).clone()),
        }
    }
}

impl EventBlock {
    pub(super) fn new(name: &str) -> EventBlock {
        EventBlock {
            serial: NEXT_BLOCK.fetch_add(1, Ordering::Relaxed),
            name: name.into(),
            cases: Mutex::new(Vec::new()),
            sees: Mutex::new(Vec::new()),
            expects: Mutex::new(Vec::new()),
            actual: Mutex::new(Vec::new()),
        }
    }

    /// A case: `NAME`, always possible and changing nothing until [`Case::when`] and
    /// [`Case::then`] say otherwise. Every case has a name of its own; every execution of
    /// an event has the same cases, in the same order. Cases of a family are named with
    /// their indices: `format!("face[{f}]")`.
    pub fn case(&self, name: &str) -> Case<'_> {
        let mut cases = lock(&self.cases);
        cases.push(CaseLine {
            name: name.into(),
            pre: None,
            changes: Vec::new(),
            weight: None,
        });
        Case {
            block: self,
            index: cases.len() - 1,
        }
    }

    /// `A sees G1 | G2 | …`: `who` observes which group of cases happened, and cannot
    /// tell apart the cases of one group. Every case is in exactly one group (empty
    /// groups are left out); a character is named in one `sees` line at most. A character
    /// in no `sees` line tells no cases apart, but knows that the event happened.
    ///
    /// `groups` is a list of lists: `[[moved], [stayed]]`, `vec![vec![a, b], vec![c]]`,
    /// of [`Case`] handles or names ([`CaseRef`]). The name of a family of cases
    /// (`"face"`) puts all its cases (`face[1]`, `face[2]`, …) in the group.
    pub fn sees<G, C>(&self, who: Character, groups: impl IntoIterator<Item = G>)
    where
        G: IntoIterator<Item = C>,
        C: CaseRef,
    {
        let groups = named_groups(groups);
        lock(&self.sees).push(SeesLine {
            who,
            groups: Some(groups),
        });
    }

    /// `A sees each(…)`: `who` tells every case apart (each case a group of its own).
    pub fn sees_each(&self, who: Character) {
        lock(&self.sees).push(SeesLine { who, groups: None });
    }

    /// `A expects G1 > G2 > …`: `who`'s plausibility of the cases, most plausible group
    /// first; the cases of one group are equally plausible, and cases in no group come
    /// last, equally plausible. Without an `expects` line every case is equally plausible
    /// for `who`. A world after the event is more plausible than another for `who` when
    /// its case is, or when their cases are equally plausible and the world before was
    /// (docs/language.md, "Belief"). A case is in one group at most; a character is named
    /// in one `expects` line at most.
    ///
    /// `groups` is a list of lists, as in [`EventBlock::sees`]: `[[stayed]]` (`Sally
    /// expects stayed`), `[[honest], [lie]]` (`Bob expects honest > lie`). What `who`
    /// tells apart is its `sees` line's business: a character may expect a case it sees
    /// did not happen, and then believes what it sees.
    pub fn expects<G, C>(&self, who: Character, groups: impl IntoIterator<Item = G>)
    where
        G: IntoIterator<Item = C>,
        C: CaseRef,
    {
        let groups = named_groups(groups);
        lock(&self.expects).push(ExpectsLine { who, groups });
    }

    /// `actual CASE`: the case that happened in the actual world. Required when the
    /// story has an actual world ([`Story::actual`]), unless exactly one case's
    /// precondition holds there; an error without an actual world.
    pub fn actual(&self, case: impl CaseRef) {
        lock(&self.actual).push(case.named());
    }
}

/// An event of a [`Story`], by name, from [`Happened::event`]. In formulas it stands for
/// the case of its latest execution so far, as the language's `move == moved` does:
/// [`Event::is`], [`Event::is_in`], [`Event::latest`]. Naming it before it happened is
/// an [`Error::Story`].
#[derive(Debug, Clone)]
pub struct Event {
    id: EventId,
    /// The event's cases as an enum type (not one constants can be declared of).
    ty: EnumType,
}

impl Event {
    /// The event's name.
    pub fn name(&self) -> &str {
        self.ty.name()
    }

    /// The event's cases, in order.
    pub fn cases(&self) -> &[String] {
        self.ty.variants()
    }

    /// The event's id in the story's [`Program`](crate::ir::Program).
    pub fn id(&self) -> EventId {
        self.id
    }

    /// The case of the latest execution, as a value of the event's own type: `move`.
    pub fn latest(&self) -> Enum {
        Enum {
            node: Node::of(self.ty.0.story, ast::Expr::name(self.name())),
            ty: self.ty.clone(),
        }
    }

    /// A case of the event as a value of its type: `moved` in `move == moved`. A case of
    /// another event, or a name the event has no case of, fails with
    /// [`Error::Invalid`] when used.
    pub fn case(&self, case: impl CaseRef) -> Enum {
        let name = match case.named() {
            Named::Handle { event, name, .. } if event != self.name() => {
                return Enum {
                    node: Node::invalid(format!(
                        "the case `{name}` is a case of the event `{event}`, not of `{}`",
                        self.name()
                    )),
                    ty: self.ty.clone(),
                };
            }
            Named::Handle { name, .. } | Named::Name(name) => name,
        };
        Enum {
            node: Node::of(self.ty.0.story, ast::Expr::case(&name)),
            ty: self.ty.clone(),
        }
    }

    /// `move == moved`: the latest execution's case is `case`.
    pub fn is(&self, case: impl CaseRef) -> Formula {
        self.latest().eq(self.case(case))
    }

    /// `move in {moved, stayed}`: the latest execution's case is one of `cases`.
    pub fn is_in<C: CaseRef>(&self, cases: impl IntoIterator<Item = C>) -> Formula {
        let values: Vec<Enum> = cases.into_iter().map(|c| self.case(c)).collect();
        self.latest().is_in(values)
    }
}

/// What [`Story::event`] reports: the case that happened in the actual world and what
/// each character saw of it, with handles for formulas. `Display` writes it as `epipen
/// run` does: `move: moved (Anne saw moved; Sally saw moved or stayed)`.
#[derive(Debug, Clone)]
pub struct Happened {
    event: Event,
    occurrence: Enum,
    /// Which execution of the event this was, from 1.
    execution: usize,
    case: Option<usize>,
    saw: Vec<Vec<usize>>,
    characters: Vec<String>,
}

impl Happened {
    /// The event, for formulas after this one ([`Event::is`]).
    pub fn event(&self) -> &Event {
        &self.event
    }

    /// The case that happened in the actual world (None when the story has none).
    pub fn case(&self) -> Option<&str> {
        self.case.map(|k| self.event.cases()[k].as_str())
    }

    /// The index of [`Happened::case`] among the event's cases.
    pub fn case_index(&self) -> Option<usize> {
        self.case
    }

    /// The cases `who` could not tell from the one that happened, itself included, in
    /// order: its group in its `sees` line, or every case when it has none. Empty when
    /// the story has no actual world, and for a character of another story.
    pub fn saw(&self, who: Character) -> Vec<&str> {
        if self.case.is_none() || who.story != self.event.ty.0.story {
            return Vec::new();
        }
        let cases = self.event.cases();
        match self.saw.get(who.id.0) {
            Some(seen) => seen.iter().map(|&k| cases[k].as_str()).collect(),
            // Declared after the event: it saw nothing of it.
            None => cases.iter().map(String::as_str).collect(),
        }
    }

    /// The case of this very execution as a value of the event's type (unlike
    /// [`Event::latest`], it keeps naming this execution after later ones), e.g. to read
    /// it in a world: `world.variant(happened.occurrence())`.
    pub fn occurrence(&self) -> &Enum {
        &self.occurrence
    }

    /// Which execution of its event this was, counted from 1 over the whole story
    /// (text told included): `flip#3`'s is 3.
    pub fn execution(&self) -> usize {
        self.execution
    }
}

impl fmt::Display for Happened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(case) = self.case() else {
            return write!(f, "{} happened (no actual world)", self.event.name());
        };
        let cases = self.event.cases();
        let seen: Vec<String> = (self.characters.iter().zip(&self.saw))
            .map(|(who, seen)| {
                let names: Vec<&str> = seen.iter().map(|&k| cases[k].as_str()).collect();
                let saw = match names.as_slice() {
                    [init @ .., last] if !init.is_empty() => {
                        format!("{} or {last}", init.join(", "))
                    }
                    _ => names.join(""),
                };
                format!("{who} saw {saw}")
            })
            .collect();
        write!(f, "{}: {case} ({})", self.event.name(), seen.join("; "))
    }
}

impl Story {
    /// `event NAME { … }`: one execution of the event `name`, stated by `block`, runs at
    /// once. Each call is a new execution (call it in a loop for rounds): worlds carry the
    /// case of every execution, shown as `move = moved` (`move#1`, `move#2`, … once it
    /// happened more than once). The first call declares the event; later ones must have
    /// the same cases, in the same order. Returns what happened ([`Happened`]).
    ///
    /// The event's cases can happen in every world where their precondition holds: the
    /// worlds after it are each world before with each case possible there, with that
    /// case's changes made. A character cannot tell two of them apart when it could not
    /// tell the worlds before apart and its `sees` line puts the two cases in one group
    /// (docs/language.md, "Events").
    ///
    /// Sally and Anne: Anne moves the marble while Sally is out, or does not.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let (anne, sally) = (story.character("Anne"), story.character("Sally"));
    /// let place = story.enumeration("Place", &["basket", "box"]);
    /// let marble = story.enum_constant(&place, "marble");
    /// story.announce(marble.eq("basket"))?;
    /// story.actual(marble.eq("basket"))?;
    ///
    /// let happened = story.event("move", |e| {
    ///     let moved = e.case("moved").when(marble.eq("basket")).then(&marble, "box");
    ///     let stayed = e.case("stayed");
    ///     e.sees(anne, [[moved], [stayed]]); // Anne tells them apart
    ///     // Sally has no `sees` line: she cannot.
    ///     e.actual(moved);
    /// })?;
    /// assert_eq!(happened.case(), Some("moved"));
    /// assert_eq!(happened.saw(sally), ["moved", "stayed"]);
    /// assert_eq!(
    ///     happened.to_string(),
    ///     "move: moved (Anne saw moved; Sally saw moved or stayed)"
    /// );
    ///
    /// let moving = happened.event();
    /// story.check_actual(F::knows(anne, marble.eq("box")))?;
    /// story.check_actual(!F::knows_value(sally, &marble))?;
    /// // Sally knows the marble is in the box if, and only if, it was moved.
    /// story.check(F::knows(sally, marble.eq("box").iff(moving.is("moved"))))?;
    ///
    /// let worlds = story.worlds(10)?;
    /// assert_eq!(worlds.len(), 2);
    /// assert_eq!(worlds[0].to_string(), "marble = box, move = moved");
    /// assert_eq!(worlds[1].variant(happened.occurrence()), Some("stayed"));
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// Mistakes are [`Error::Invalid`] and run nothing: an event without cases, two
    /// cases of one name, other cases than the event's earlier executions, a case named
    /// in no group or in two groups of a `sees` line, a case in two groups of an
    /// `expects` line, a character with two `sees` lines or two `expects` lines, an
    /// unknown case, two `actual` cases. A missing or impossible `actual` case is an
    /// [`Error::Story`] when the event runs.
    pub fn event(
        &mut self,
        name: &str,
        block: impl FnOnce(&mut EventBlock),
    ) -> Result<Happened, Error> {
        let mut lines = EventBlock::new(name);
        block(&mut lines);
        let body = self.block_items(lines)?;
        let event = ast::StmtKind::Event {
            name: ast::Ident::nowhere(name),
            body,
        };
        let (stmts, reports) = self.lower_run(event)?;
        let (event, occurrence) = (stmts.iter())
            .find_map(|s| match &s.kind {
                StmtKind::Event(e) => Some((e.event, e.occurrences[0])),
                _ => None,
            })
            .expect("an event lowers to its execution");
        Ok(self.happened(event, occurrence, &reports))
    }

    /// The lines of an event block (or an action's) as the language's.
    pub(super) fn block_items(&self, block: EventBlock) -> Result<Vec<ast::EventItem>, Error> {
        let EventBlock {
            serial,
            name: event,
            cases,
            sees,
            expects,
            actual,
        } = block;
        if event.is_empty() {
            return Err(Error::invalid("an event needs a name"));
        }
        let cases = cases.into_inner().unwrap_or_else(PoisonError::into_inner);
        let names: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
        let case = |named: Named| match named {
            Named::Handle { block, name, .. } if block == serial => Ok(case_name(&name)),
            Named::Handle {
                event: other, name, ..
            } => Err(Error::invalid(format!(
                "the case `{name}` is a case of another event block (`{other}`), not of \
                 this `{event}`"
            ))),
            Named::Name(name) => Ok(case_name(&name)),
        };
        let groups = |groups: Vec<Vec<Named>>| -> Result<Vec<Vec<ast::GroupItem>>, Error> {
            (groups.into_iter().filter(|g| !g.is_empty()))
                .map(|g| {
                    g.into_iter()
                        .map(|c| Ok(ast::GroupItem::Case(case(c)?)))
                        .collect()
                })
                .collect()
        };
        let mut items = Vec::new();
        for line in cases {
            let changes = (line.changes.into_iter())
                .map(|c| {
                    let (target, value) = c.parts();
                    Ok(ast::Change::One {
                        target: self.ast(target)?,
                        value: self.ast(value)?,
                    })
                })
                .collect::<Result<_, Error>>()?;
            items.push(ast::EventItemKind::Case {
                name: case_name(&line.name),
                pre: line.pre.map(|f| self.ast(f.0)).transpose()?,
                weight: line
                    .weight
                    .map(|w| self.ast(w.0))
                    .transpose()?
                    .map(Box::new),
                changes,
            });
        }
        for line in sees.into_inner().unwrap_or_else(PoisonError::into_inner) {
            let who = self.character_ast(line.who)?;
            let groups = match line.groups {
                Some(g) => groups(g)?,
                None => (names.iter())
                    .map(|n| vec![ast::GroupItem::Case(case_name(n))])
                    .collect(),
            };
            items.push(ast::EventItemKind::Sees { who, groups });
        }
        for line in expects.into_inner().unwrap_or_else(PoisonError::into_inner) {
            let who = self.character_ast(line.who)?;
            let groups = groups(line.groups)?;
            items.push(ast::EventItemKind::Expects { who, groups });
        }
        for named in actual.into_inner().unwrap_or_else(PoisonError::into_inner) {
            items.push(ast::EventItemKind::Actual(case(named)?));
        }
        Ok((items.into_iter())
            .map(|kind| ast::EventItem {
                kind,
                span: Span::default(),
            })
            .collect())
    }

    /// The handle of the event `id`.
    pub(super) fn event_handle(&self, id: EventId) -> Event {
        let def = &self.program.events[id.0];
        Event {
            id,
            ty: EnumType(Arc::new(EnumInfo {
                story: self.id,
                name: def.name.clone(),
                variants: def.cases.clone(),
                event: true,
                error: None,
            })),
        }
    }

    /// What the engine reported of the execution whose occurrence is `occurrence`.
    fn happened(&self, event: EventId, occurrence: ConstId, reports: &[Report]) -> Happened {
        let (case, saw) = reports
            .iter()
            .rev()
            .find_map(|r| match r {
                Report::Happened { case, saw, .. } => Some((*case, saw.clone())),
                _ => None,
            })
            .unwrap_or_default();
        self.happened_as(event, occurrence, case, saw)
    }

    /// The execution of `event` whose occurrence is `occurrence`, where `case` happened
    /// and each character saw `saw` (as the engine reported them).
    pub(super) fn happened_as(
        &self,
        event: EventId,
        occurrence: ConstId,
        case: Option<usize>,
        saw: Vec<Vec<usize>>,
    ) -> Happened {
        let handle = self.event_handle(event);
        // The k-th execution (from 1), for the AST.
        let k = (self.program.constants[..=occurrence.0].iter())
            .filter(|c| c.occurrence.is_some_and(|o| o.event == event))
            .count();
        let execution = ast::Expr::nowhere(ast::ExprKind::Execution {
            event: ast::Ident::nowhere(handle.name()),
            k,
        });
        let occurrence = Enum {
            node: Node::of(self.id, execution),
            ty: handle.ty.clone(),
        };
        Happened {
            occurrence,
            execution: k,
            case,
            characters: (self.program.characters.iter())
                .take(saw.len())
                .map(|c| c.name.clone())
                .collect(),
            saw,
            event: handle,
        }
    }
}

/// A case (or an action) as the language names it: `moved`, `face[3]`, `call[0, 1]`.
pub(super) fn case_name(name: &str) -> ast::CaseName {
    let (name, indices) = match ast::Expr::case(name).kind {
        ast::ExprKind::Index { base, index } => match index.kind {
            ast::ExprKind::Tuple(items) => (base, items),
            _ => (base, vec![*index]),
        },
        _ => (ast::Ident::nowhere(name), Vec::new()),
    };
    ast::CaseName {
        name,
        indices,
        span: Span::default(),
    }
}
