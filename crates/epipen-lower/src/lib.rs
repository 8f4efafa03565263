//! Name resolution, type checking and unrolling: syntax tree → [`ir::Program`].
//!
//! A story file is lowered whole by [`lower`]; a front end that builds a story call by
//! call lowers it one statement at a time with [`Incremental`]. Both run each statement
//! through the same path, so a statement gets the same IR and the same diagnostics
//! either way (only the hint "declared later in the story" needs the whole file).
//!
//! Every statement is checked even after an error, so a story reports all its problems
//! at once. An expression whose subterm already failed lowers to `None` (the internal
//! "error type"), and the expressions around it stay quiet about it, so one mistake gives
//! one diagnostic.
//!
//! Parameters (`const`), loops, statement-level `if`s and aggregates are evaluated here
//! and vanish: loop variables and consts become integer literals, `for` bodies are
//! repeated, aggregates expand into the IR's operators. Code that does not run (the
//! untaken branch of an `if`, the body of an empty loop) is still checked for names and
//! types, in *dead* mode: nothing is emitted, and errors that depend on values (an index
//! out of range) are not reported, since the values there are placeholders.
//!
//! Nothing vanishes: a statement that runs either lowers to IR or is a reported error.
//! An aggregate over an empty range is its identity (`any` false, `all` and `distinct`
//! true, `sum` and `count` 0), even when its body, checked in dead mode, could not be
//! built (an index out of range of an empty family). A statement that lowers to nothing
//! without an error is a bug of epipen's, reported as an internal error.

mod action;
mod announced;
mod chance;
mod change;
mod compile;
mod decl;
mod def;
mod event;
mod expr;
mod fold;
mod meaning;
mod modal;
mod names;
mod sample;
mod stmt;
#[cfg(test)]
mod tests;
mod unroll;

use std::collections::hash_map::{DefaultHasher, Entry};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::time::Instant;

use epipen_ir::{self as ir, CharId, CheckpointId, ConstId, EnumId, EventId, Ty};
use epipen_syntax::ast::{self, Ident, StmtKind};
use epipen_syntax::{Diagnostic, Span};

use names::collect_names;

pub use action::{plan_steps, unowned};
pub use decl::family_refusal;
pub use expr::FUNCTIONS;
pub use meaning::Meaning;
pub use names::{closest, list};

pub use compile::{
    CompileError, compile, compile_parsed, compile_seeded, compile_until, parse_with_sets,
};
pub use epipen_ir::Namer;

/// The limit of `worlds` without a number.
const DEFAULT_WORLDS_LIMIT: u64 = 10;

/// The most rounds (loop iterations and aggregate items, all together) a story may
/// unroll into. What a round costs is memory: a round that emits a statement (the
/// dearest, e.g. `child[i] learns muddy[j]`) costs about 280 bytes through lowering and
/// the run (4 million such rounds: 1.1 GB), so 5 million rounds stay within about 1.5
/// GB, and muddy children at n = 1000 (about a million rounds: 376 MB, 5.3 s) runs from
/// the story as it is. Time is bounded by `--timeout`, which unrolling checks.
const UNROLL_BUDGET: u64 = 5_000_000;

/// The largest family.
const MAX_FAMILY: i64 = 100_000;

/// The names of a story's `const`s, in order (the names `--set` may override).
pub fn const_names(story: &ast::Story) -> Vec<String> {
    story
        .statements
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Const { name, .. } => Some(name.name.clone()),
            _ => None,
        })
        .collect()
}

/// What a story that runs out of time while it is unrolled is told, at the range.
pub const TIMEOUT_MESSAGE: &str =
    "ran out of time (timeout) while unrolling this loop or aggregate";

/// Resolves names, checks types and unrolls loops, reporting every error found. `sets`
/// override the values of `const`s (the caller checks that each names a `const`);
/// `seed` seeds the draws of `sample(k, {…})`. Unrolling stops once `deadline` passes.
/// The statements go through the one path of [`Incremental`], with the whole story's
/// names known first (for the hint "declared later in the story") and every error
/// reported at once.
pub fn lower(
    story: &ast::Story,
    sets: &[(String, i64)],
    seed: u64,
    deadline: Option<Instant>,
) -> Result<ir::Program, CompileError> {
    let mut lowering = Incremental::new(sets, seed);
    lowering.lowerer.deadline = deadline;
    lowering.lowerer.note_names(&story.statements);
    let mut statements = Vec::new();
    for stmt in &story.statements {
        lowering.lowerer.stmt(stmt, &mut statements);
    }
    let mut program = lowering.lowerer.finish(statements)?;
    program.backend = story.backend.map(|(backend, _)| backend);
    Ok(program)
}

/// Lowering one statement at a time, as a front end that builds a story call by call
/// (the Rust `Story` API) tells it: declarations are declared as they arrive, and each
/// statement lowers to its IR statements or to the diagnostics whole-file lowering
/// reports for it. A statement with errors changes nothing.
#[derive(Clone)]
pub struct Incremental {
    lowerer: Lowerer,
    /// Whether the last statement changed the declarations.
    declared: bool,
    /// The statements lowered so far, as they were given ([`Incremental::story`]);
    /// shared, so that the copy of the vector's last chunk a push makes after a snapshot
    /// (`stmt`'s rollback) copies pointers, not trees.
    written: imbl::Vector<std::sync::Arc<ast::Stmt>>,
}

impl Incremental {
    /// Nothing declared yet; `sets` and `seed` as for [`lower`].
    pub fn new(sets: &[(String, i64)], seed: u64) -> Incremental {
        Incremental {
            lowerer: Lowerer::new(sets, seed),
            declared: false,
            written: imbl::Vector::new(),
        }
    }

    /// The statements lowered so far, in order, as a story file holds them (one that
    /// failed is not among them): [`ast::Story`]'s `Display` writes it as story text.
    pub fn story(&self) -> ast::Story {
        ast::Story {
            statements: self.written.iter().map(|s| (**s).clone()).collect(),
            backend: None,
        }
    }

    /// Whether the last statement lowered changed the declarations that
    /// [`Incremental::program`] gives (a caller holding a copy of them refreshes it
    /// only then).
    pub fn declared(&self) -> bool {
        self.declared
    }

    /// Lowers `stmt` after the statements so far: the IR statements it runs as (none
    /// for a declaration, whose effect is on [`Incremental::program`]), or its errors,
    /// in which case the lowering is as it was before the call.
    pub fn stmt(&mut self, stmt: &ast::Stmt) -> Result<Vec<ir::Stmt>, Vec<Diagnostic>> {
        let before = self.clone();
        let mut out = Vec::new();
        self.lowerer.note_names(std::slice::from_ref(stmt));
        self.lowerer.stmt(stmt, &mut out);
        let diagnostics = self.lowerer.take_diagnostics();
        if diagnostics.is_empty() {
            // A table changed through a copy shared with `before` was copied first.
            let (now, then) = (&self.lowerer, &before.lowerer);
            self.declared = !(now.characters.same(&then.characters)
                && now.constants.same(&then.constants)
                && now.checkpoints.same(&then.checkpoints)
                && now.enums.same(&then.enums)
                && now.events.same(&then.events)
                && now.planning.actions.len() == then.planning.actions.len()
                && now.samples.len() == then.samples.len());
            self.written.push_back(std::sync::Arc::new(stmt.clone()));
            Ok(out)
        } else {
            *self = before;
            Err(diagnostics)
        }
    }

    /// The largest `max` of the `plan`s lowered so far (0: none): how deep a search
    /// the engine that runs them needs room for.
    pub fn plan_depth(&self) -> usize {
        self.lowerer.planning.depth
    }

    /// Lowers an expression in the storyteller's words (`announce`'s context) against
    /// the declarations so far, as a statement would: its IR, or its errors. Nothing
    /// changes either way (a `sample` in it draws nothing for the story).
    pub fn expr(&self, expr: &ast::Expr) -> Result<ir::Expr, Vec<Diagnostic>> {
        let mut lowerer = self.lowerer.clone();
        let lowered = lowerer.expr(expr, Ctx::storyteller());
        let diagnostics = lowerer.take_diagnostics();
        match lowered {
            Some(lowered) if diagnostics.is_empty() => Ok(lowered),
            _ => Err(diagnostics),
        }
    }

    /// The declarations so far (characters, constants with the events' occurrences,
    /// checkpoints, enums, events, actions) as a program without statements.
    pub fn program(&self) -> ir::Program {
        let mut program = ir::Program {
            samples: self.lowerer.samples.clone(),
            ..ir::Program::default()
        };
        self.extend(&mut program);
        program
    }

    /// Brings `decls`, the declarations of [`Incremental::program`] at an earlier state
    /// of this lowering, up to date. After statements that lowered, what they declared
    /// joins them (lowering's tables only grow), in time for what is new, not for all;
    /// after a statement was undone, declarations it made are longer than the
    /// lowering's, and are replaced whole.
    pub fn extend(&self, decls: &mut ir::Program) {
        fn tail<T: Clone>(to: &mut Vec<T>, table: &Table<T>) {
            to.extend(table.0.skip(to.len()));
        }
        let l = &self.lowerer;
        if decls.characters.len() > l.characters.len()
            || decls.constants.len() > l.constants.len()
            || decls.checkpoints.len() > l.checkpoints.len()
            || decls.enums.len() > l.enums.len()
            || decls.events.len() > l.events.len()
            || decls.actions.len() > l.planning.actions.len()
        {
            decls.characters.clear();
            decls.constants.clear();
            decls.checkpoints.clear();
            decls.enums.clear();
            decls.events.clear();
            decls.actions.clear();
        }
        let named = decls.constants.len();
        tail(&mut decls.characters, &l.characters);
        tail(&mut decls.constants, &l.constants);
        tail(&mut decls.checkpoints, &l.checkpoints);
        tail(&mut decls.enums, &l.enums);
        tail(&mut decls.events, &l.events);
        let actions = &l.planning.actions[decls.actions.len()..];
        decls.actions.extend(actions.iter().cloned());
        // A second execution of an event renames the first's occurrence (`roll#1`).
        if decls.constants[named..]
            .iter()
            .any(|c| c.occurrence.is_some())
        {
            event::name_occurrences(&mut decls.constants, &decls.events);
        }
    }
}

/// A family's members: ids `first .. first + len`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Family {
    first: usize,
    len: usize,
}

/// What a name in the global namespace stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entity {
    Character(CharId),
    Constant(ConstId),
    CharFamily(Family),
    ConstFamily(Family),
    /// A value of an enum: its index.
    Variant(EnumId, usize),
    /// `const n = …`; `None` when its value failed (already reported).
    Param(Option<i64>),
    Enum(EnumId),
    /// An event (declared by its first `event` statement).
    Event(EventId),
    /// `def name(…) = …`: an index into the definitions.
    Def(usize),
    /// A declaration that failed (a family of -1 members; already reported): its uses
    /// stay quiet.
    Failed,
}

/// The first statement among `stmts` (and the blocks inside them) that `pick` picks.
fn first_of(stmts: &[ir::Stmt], pick: &dyn Fn(&ir::StmtKind) -> bool) -> Option<Span> {
    stmts.iter().find_map(|s| match &s.kind {
        kind if pick(kind) => Some(s.span),
        ir::StmtKind::Simultaneously(body)
        | ir::StmtKind::Repeat { body, .. }
        | ir::StmtKind::AssertAddsCk { body, .. } => first_of(body, pick),
        _ => None,
    })
}

/// Who "knows" means when the agent is left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Speaker {
    /// `announce …`: the agent must be named.
    Storyteller,
    /// `A: …`
    Character(CharId),
    /// `X: …` where `X` did not resolve (already reported): stay quiet.
    Unresolved,
}

/// Where knowledge operators are not allowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Objective {
    /// `actual …`
    Actual,
    /// `x := …`
    Assign,
    /// `prior …`
    Prior,
    /// a case's `weight …`
    Weight,
}

/// Where an expression sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Ctx {
    speaker: Speaker,
    /// Set where knowledge operators are not allowed.
    objective: Option<Objective>,
    /// A compile-time expression (an index, a range bound, …): unknown names get a
    /// `const` hint.
    compile_time: bool,
    /// Inside a knowledge operator that names another character than the speaker (the
    /// innermost one): that character and the operator's name. An operator there must
    /// name its agent (is it the speaker's or that character's?).
    inside: Option<(CharId, &'static str)>,
}

impl Ctx {
    fn storyteller() -> Ctx {
        Ctx {
            speaker: Speaker::Storyteller,
            objective: None,
            compile_time: false,
            inside: None,
        }
    }

    fn compile_time() -> Ctx {
        Ctx {
            compile_time: true,
            ..Ctx::storyteller()
        }
    }
}

/// A declarations' table (characters, constants, …) in order of declaration, and a
/// namespace. Both are persistent: cloning a [`Lowerer`] (which [`Incremental`] does
/// before each statement, to undo it) takes constant time, and a change made through a
/// copy copies only what it touches, so a story declared one name at a time lowers in
/// time linear in its names, not quadratic.
#[derive(Clone)]
struct Table<T: Clone>(imbl::Vector<T>);
type Map<K, V> = imbl::HashMap<K, V>;

impl<T: Clone> Default for Table<T> {
    fn default() -> Self {
        Table(imbl::Vector::new())
    }
}

impl<T: Clone> Table<T> {
    fn push(&mut self, item: T) {
        self.0.push_back(item);
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn first(&self) -> Option<&T> {
        self.0.front()
    }

    fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + ExactSizeIterator {
        self.0.iter()
    }

    /// Whether both are the same table (neither changed since one was copied from the
    /// other).
    fn same(&self, other: &Table<T>) -> bool {
        self.0.ptr_eq(&other.0)
    }

    fn to_vec(&self) -> Vec<T> {
        self.0.iter().cloned().collect()
    }
}

impl<T: Clone> ir::Entries<T> for Table<T> {
    fn count(&self) -> usize {
        self.0.len()
    }
}

impl<T: Clone> std::ops::Index<usize> for Table<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.0[i]
    }
}

/// A table the lowering shares with its copies until one of them changes it: cloning a
/// [`Lowerer`] (which [`Incremental`] does before each statement, to undo it) copies a
/// pointer, and the first change made through a shared copy copies the table
/// (`Arc::make_mut`). Reading goes through `Deref`, changing through `DerefMut`.
#[derive(Default)]
struct Shared<T: Clone>(std::sync::Arc<T>);

impl<T: Clone> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T: Clone> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        std::sync::Arc::make_mut(&mut self.0)
    }
}

/// Where errors were found: see [`Lowerer::places`].
type Places = HashMap<(usize, usize, u64), (usize, HashSet<u64>)>;
/// Definitions' uses that folded to a literal: see [`Lowerer::expanded`].
type Expanded = HashMap<(usize, Vec<def::Literal>, Ctx), ir::Expr>;

#[derive(Clone)]
struct Lowerer {
    characters: Table<ir::Character>,
    constants: Table<ir::Constant>,
    checkpoints: Table<ir::Checkpoint>,
    enums: Table<ir::EnumDef>,
    events: Table<ir::EventDef>,
    /// Each event's index by its sort (every event has a sort of its own).
    event_of_sort: Map<EnumId, usize>,
    /// Characters, constants, families, enums, their values, consts and events (one
    /// namespace).
    names: Map<String, Entity>,
    /// The loop variables in scope, innermost last.
    loop_vars: Vec<(String, i64)>,
    /// Checkpoints defined so far (their own namespace).
    checkpoint_ids: Map<String, CheckpointId>,
    /// Checkpoints defined only in code that does not run.
    dead_checkpoints: HashSet<String>,
    /// Where each global name is first declared (byte offset).
    declared_at: Map<String, usize>,
    /// Where each checkpoint is first defined (byte offset).
    defined_at: Map<String, usize>,
    /// `--set` values of consts.
    sets: Shared<HashMap<String, i64>>,
    /// The start of the statement being lowered.
    current: usize,
    /// How many blocks enclose the statement being lowered.
    depth: usize,
    /// Inside `simultaneously { … }`.
    simultaneous: bool,
    /// > 0 in code that does not run: check, but emit nothing.
    dead: u32,
    /// Where the loops, `if`s and actions lowered so far start: in code that does not
    /// run, one lowered before is not checked again.
    checked: HashSet<usize>,
    /// Rounds left to unroll.
    budget: u64,
    /// When to stop unrolling (`--timeout`).
    deadline: Option<Instant>,
    /// The range being unrolled when the deadline passed.
    timed_out: Option<Span>,
    /// Draws the items of `sample(k, {…})`.
    rng: sample::Rng,
    /// What each `sample` drew.
    samples: Vec<ir::SampleDraw>,
    diagnostics: Vec<Diagnostic>,
    /// The places (spans; for a builder's statement, written nowhere, the span and the
    /// message) with errors: the first error's index in `diagnostics`, and the hashes of
    /// the distinct messages found there. Unrolling finds a mistake once per round, each
    /// time with its round's values: it is reported once, with a count.
    places: Shared<Places>,
    /// How many errors were found (a repeated one counts again).
    reported: usize,
    /// The first statement that runs and lowered to nothing without an error.
    vanished: Option<Span>,
    /// The `actual` that declared the actual world.
    actual: Option<Span>,
    /// The `prior` statement, once lowered.
    prior: Option<Span>,
    /// The first statement that lets a character learn or observe something, or asks a
    /// probability (a `prior` must come before it), and what it is.
    observed: Option<(Span, &'static str)>,
    /// The rounds of the `repeat`s around the statement being lowered.
    repeat_rounds: Vec<u64>,
    /// How many occurrence constants the events so far allocated.
    occurrences_made: u64,
    /// `def`s, in order.
    defs: Vec<std::sync::Arc<def::Def>>,
    /// The actions declared so far, and the state of the `plan`s (see
    /// [`action::Planning`]).
    planning: action::Planning,
    /// How many `assert_adds_ck` blocks enclose the statement being lowered.
    in_hint: u32,
    /// The definitions being expanded, innermost last.
    expansions: Vec<def::Expansion>,
    /// Uses of definitions with literal arguments that folded to a literal, by the
    /// definition, the arguments (see [`def::Literal`]) and where they were used.
    expanded: Shared<Expanded>,
    /// How many `sample(…)`s were lowered (drawn or not): an expansion that lowers one
    /// is not remembered.
    samples_lowered: u64,
}

impl Lowerer {
    fn new(sets: &[(String, i64)], seed: u64) -> Lowerer {
        Lowerer {
            characters: Table::default(),
            constants: Table::default(),
            checkpoints: Table::default(),
            enums: Table::default(),
            events: Table::default(),
            event_of_sort: Map::default(),
            names: Map::default(),
            loop_vars: Vec::new(),
            checkpoint_ids: Map::default(),
            dead_checkpoints: HashSet::new(),
            declared_at: Map::default(),
            defined_at: Map::default(),
            sets: Shared(std::sync::Arc::new(sets.iter().cloned().collect())),
            rng: sample::Rng::new(seed),
            samples: Vec::new(),
            current: 0,
            depth: 0,
            simultaneous: false,
            dead: 0,
            checked: HashSet::new(),
            budget: UNROLL_BUDGET,
            deadline: None,
            timed_out: None,
            diagnostics: Vec::new(),
            places: Shared::default(),
            reported: 0,
            vanished: None,
            actual: None,
            prior: None,
            observed: None,
            repeat_rounds: Vec::new(),
            occurrences_made: 0,
            defs: Vec::new(),
            expansions: Vec::new(),
            expanded: Shared::default(),
            samples_lowered: 0,
            planning: action::Planning::default(),
            in_hint: 0,
        }
    }

    /// Notes where the names of `statements` are declared (characters, constants,
    /// consts, defs, enums and their values, events, actions) and where checkpoints
    /// are defined, keeping the first place of each.
    fn note_names(&mut self, statements: &[ast::Stmt]) {
        for stmt in statements {
            let mut declare = |name: &Ident| {
                (self.declared_at)
                    .entry(name.name.clone())
                    .or_insert(name.span.start);
            };
            match &stmt.kind {
                StmtKind::Characters(decls) | StmtKind::Constants { names: decls, .. } => {
                    decls.iter().for_each(|d| declare(&d.name));
                }
                StmtKind::Const { name, .. } | StmtKind::Def { name, .. } => declare(name),
                StmtKind::Enum { name, variants } => {
                    declare(name);
                    variants.iter().for_each(&mut declare);
                }
                _ => {}
            }
        }
        // Into tables of their own first: a statement that declares nothing leaves the
        // shared tables unchanged (not copied).
        let (mut defined, mut declared) = (HashMap::new(), HashMap::new());
        collect_names(
            statements,
            &mut defined,
            &mut declared,
            &mut self.planning.declared_at,
        );
        for (table, found) in [
            (&mut self.defined_at, defined),
            (&mut self.declared_at, declared),
        ] {
            let mut found = found;
            found.retain(|name, _| !table.contains_key(name));
            if !found.is_empty() {
                table.extend(found);
            }
        }
    }

    fn finish(mut self, statements: Vec<ir::Stmt>) -> Result<ir::Program, CompileError> {
        if let Some(span) = self.timed_out {
            return Err(CompileError::Timeout { span });
        }
        let diagnostics = self.take_diagnostics();
        if !diagnostics.is_empty() {
            return Err(CompileError::Story(diagnostics));
        }
        let (mut events, mut enums) = (self.events.to_vec(), self.enums.to_vec());
        let mut constants = self.constants.to_vec();
        let plan_steps = (self.planning).steps((&mut events, &mut enums, &mut constants));
        event::name_occurrences(&mut constants, &events);
        Ok(ir::Program {
            characters: self.characters.to_vec(),
            constants,
            checkpoints: self.checkpoints.to_vec(),
            enums,
            events,
            actions: self.planning.actions,
            plan_steps,
            statements,
            samples: self.samples,
            backend: None,
        })
    }

    /// The errors found so far, in source order, each with the count of its repeats
    /// in other rounds (and a statement that vanished without one, as an internal
    /// error); none left behind.
    fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        if let Some(span) = self.vanished.take()
            && self.diagnostics.is_empty()
        {
            self.error(
                Diagnostic::error(
                    span,
                    "internal error: this statement lowered to nothing, without an error",
                )
                .with_hint("this is a bug in epipen; please report it with the story"),
            );
        }
        for (first, messages) in self.places.values() {
            let more = messages.len() - 1;
            if more > 0 {
                let d = &mut self.diagnostics[*first];
                d.hints.push(format!(
                    "and {more} more error{} here, in other rounds of the unrolling",
                    if more == 1 { "" } else { "s" }
                ));
            }
        }
        self.places.clear();
        let mut diagnostics = std::mem::take(&mut self.diagnostics);
        // Expressions report inner problems before outer ones; show them in source
        // order.
        diagnostics.sort_by_key(|d| d.span.start);
        diagnostics
    }

    fn error(&mut self, diagnostic: Diagnostic) {
        let diagnostic = if self.expansions.is_empty() {
            diagnostic
        } else {
            self.relocated(diagnostic)
        };
        self.reported += 1;
        let mut hasher = DefaultHasher::new();
        diagnostic.message.hash(&mut hasher);
        let message = hasher.finish();
        // A builder's statement is written nowhere (the default span): its distinct
        // mistakes are places of their own, not rounds of one.
        let nowhere = diagnostic.span == Span::default();
        let place = (
            diagnostic.span.start,
            diagnostic.span.end,
            if nowhere { message } else { 0 },
        );
        match self.places.entry(place) {
            Entry::Occupied(mut place) => {
                place.get_mut().1.insert(message);
            }
            Entry::Vacant(place) => {
                place.insert((self.diagnostics.len(), HashSet::from([message])));
                self.diagnostics.push(diagnostic);
            }
        }
    }

    fn namer(&self) -> Namer<'_> {
        Namer {
            characters: &self.characters,
            constants: &self.constants,
            checkpoints: &self.checkpoints,
            enums: &self.enums,
            events: &self.events,
        }
    }

    fn ty_name(&self, ty: Ty) -> &str {
        match ty {
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Enum(e) => &self.enums[e.0].name,
        }
    }

    /// Runs `f` in dead mode.
    fn dead<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.dead += 1;
        let result = f(self);
        self.dead -= 1;
        result
    }

    /// Runs `f` with loop variable `name` bound to `value`.
    fn bound<T>(&mut self, name: &str, value: i64, f: impl FnOnce(&mut Self) -> T) -> T {
        self.loop_vars.push((name.to_string(), value));
        let result = f(self);
        self.loop_vars.pop();
        result
    }

    /// Takes one round from the unrolling budget; reports (once) when it runs out. The
    /// deadline passed, the budget is gone.
    fn spend(&mut self, span: Span) -> bool {
        if self.budget == 0 {
            return false;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out = Some(span);
            self.budget = 0;
            return false;
        }
        self.budget -= 1;
        if self.budget == 0 {
            self.error(
                Diagnostic::error(span, "the story unrolls into too many rounds").with_hint(
                    format!(
                        "loops and aggregates may unroll into at most {UNROLL_BUDGET} rounds in all"
                    ),
                ),
            );
            return false;
        }
        true
    }

    /// A statement-level formula must be bool.
    pub(crate) fn formula(&mut self, formula: Option<ir::Expr>) -> Option<ir::Expr> {
        let formula = formula?;
        self.expect(&formula, Ty::Bool).then_some(formula)
    }

    /// Reports `expr` unless it has type `want`.
    pub(crate) fn expect(&mut self, expr: &ir::Expr, want: Ty) -> bool {
        if expr.ty == want {
            true
        } else {
            let message = format!(
                "expected {}, found {}",
                self.ty_name(want),
                self.ty_name(expr.ty)
            );
            self.error(Diagnostic::error(expr.span, message));
            false
        }
    }

    /// Like [`Lowerer::expect`], but quiet about an expression that already failed.
    pub(crate) fn expect_opt(&mut self, expr: &Option<ir::Expr>, want: Ty) -> bool {
        match expr {
            Some(expr) => self.expect(expr, want),
            None => false,
        }
    }
}
