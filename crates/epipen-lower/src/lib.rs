//! Name resolution, type checking and unrolling: syntax tree → [`ir::Program`].
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

mod compile;
mod expr;
mod fold;
mod sample;
#[cfg(test)]
mod tests;

use std::collections::hash_map::{DefaultHasher, Entry};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::time::Instant;

use epipen_ir::{self as ir, CharId, CheckpointId, ConstId, EnumId, Ty};
use epipen_syntax::ast::{self, ExprKind, Ident, StmtKind};
use epipen_syntax::{Diagnostic, Span};

pub use compile::{
    CompileError, compile, compile_parsed, compile_seeded, compile_until, parse_with_sets,
};
pub use epipen_ir::Namer;

/// The limit of `worlds` without a number.
const DEFAULT_WORLDS_LIMIT: u64 = 10;

/// The most rounds (loop iterations and aggregate items, all together) a story may
/// unroll into.
const UNROLL_BUDGET: u64 = 1_000_000;

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
pub fn lower(
    story: &ast::Story,
    sets: &[(String, i64)],
    seed: u64,
    deadline: Option<Instant>,
) -> Result<ir::Program, CompileError> {
    let mut lowerer = Lowerer::new(story, sets, seed);
    lowerer.deadline = deadline;
    let mut statements = Vec::new();
    for stmt in &story.statements {
        lowerer.stmt(stmt, &mut statements);
    }
    lowerer.finish(statements)
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
    /// A declaration that failed (a family of -1 members; already reported): its uses
    /// stay quiet.
    Failed,
}

/// The first `:=` among `stmts` and the blocks inside them.
fn first_assign(stmts: &[ir::Stmt]) -> Option<Span> {
    stmts.iter().find_map(|s| match &s.kind {
        ir::StmtKind::Assign { .. } => Some(s.span),
        ir::StmtKind::Simultaneously(body)
        | ir::StmtKind::Repeat { body, .. }
        | ir::StmtKind::AssertAddsCk { body, .. } => first_assign(body),
        _ => None,
    })
}

/// Who "knows" means when the agent is left out.
#[derive(Debug, Clone, Copy)]
enum Speaker {
    /// `announce …`: the agent must be named.
    Storyteller,
    /// `A: …`
    Character(CharId),
    /// `X: …` where `X` did not resolve (already reported): stay quiet.
    Unresolved,
}

/// Where knowledge operators are not allowed.
#[derive(Debug, Clone, Copy)]
enum Objective<'s> {
    /// `A learns …`: the learner's name as written.
    Learns(&'s str),
    /// `actual …`
    Actual,
    /// `x := …`
    Assign,
}

/// Where an expression sits.
#[derive(Debug, Clone, Copy)]
struct Ctx<'s> {
    speaker: Speaker,
    /// Set where knowledge operators are not allowed.
    objective: Option<Objective<'s>>,
    /// A compile-time expression (an index, a range bound, …): unknown names get a
    /// `const` hint.
    compile_time: bool,
}

impl Ctx<'_> {
    fn storyteller() -> Ctx<'static> {
        Ctx {
            speaker: Speaker::Storyteller,
            objective: None,
            compile_time: false,
        }
    }

    fn compile_time() -> Ctx<'static> {
        Ctx {
            compile_time: true,
            ..Ctx::storyteller()
        }
    }
}

struct Lowerer {
    characters: Vec<ir::Character>,
    constants: Vec<ir::Constant>,
    checkpoints: Vec<ir::Checkpoint>,
    enums: Vec<ir::EnumDef>,
    /// Characters, constants, families, enums, their values and consts (one namespace).
    names: HashMap<String, Entity>,
    /// The loop variables in scope, innermost last.
    loop_vars: Vec<(String, i64)>,
    /// Checkpoints defined so far (their own namespace).
    checkpoint_ids: HashMap<String, CheckpointId>,
    /// Checkpoints defined only in code that does not run.
    dead_checkpoints: HashSet<String>,
    /// Where each global name is first declared (byte offset).
    declared_at: HashMap<String, usize>,
    /// Where each checkpoint is first defined (byte offset).
    defined_at: HashMap<String, usize>,
    /// `--set` values of consts.
    sets: HashMap<String, i64>,
    /// The start of the statement being lowered.
    current: usize,
    /// How many blocks enclose the statement being lowered.
    depth: usize,
    /// Inside `simultaneously { … }`.
    simultaneous: bool,
    /// > 0 in code that does not run: check, but emit nothing.
    dead: u32,
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
    /// The places (spans) with errors: the first error's index in `diagnostics`, and the
    /// hashes of the distinct messages found there. Unrolling finds a mistake once per
    /// round, each time with its round's values: it is reported once, with a count.
    places: HashMap<(usize, usize), (usize, HashSet<u64>)>,
    /// How many errors were found (a repeated one counts again).
    reported: usize,
    /// The first statement that runs and lowered to nothing without an error.
    vanished: Option<Span>,
    /// The `actual` that declared the actual world.
    actual: Option<Span>,
}

impl Lowerer {
    fn new(story: &ast::Story, sets: &[(String, i64)], seed: u64) -> Lowerer {
        let mut declared_at = HashMap::new();
        for stmt in &story.statements {
            let mut declare = |name: &Ident| {
                declared_at
                    .entry(name.name.clone())
                    .or_insert(name.span.start);
            };
            match &stmt.kind {
                StmtKind::Characters(decls) | StmtKind::Constants { names: decls, .. } => {
                    decls.iter().for_each(|d| declare(&d.name));
                }
                StmtKind::Const { name, .. } => declare(name),
                StmtKind::Enum { name, variants } => {
                    declare(name);
                    variants.iter().for_each(&mut declare);
                }
                _ => {}
            }
        }
        let mut defined_at = HashMap::new();
        collect_checkpoints(&story.statements, &mut defined_at);
        Lowerer {
            characters: Vec::new(),
            constants: Vec::new(),
            checkpoints: Vec::new(),
            enums: Vec::new(),
            names: HashMap::new(),
            loop_vars: Vec::new(),
            checkpoint_ids: HashMap::new(),
            dead_checkpoints: HashSet::new(),
            declared_at,
            defined_at,
            sets: sets.iter().cloned().collect(),
            rng: sample::Rng::new(seed),
            samples: Vec::new(),
            current: 0,
            depth: 0,
            simultaneous: false,
            dead: 0,
            budget: UNROLL_BUDGET,
            deadline: None,
            timed_out: None,
            diagnostics: Vec::new(),
            places: HashMap::new(),
            reported: 0,
            vanished: None,
            actual: None,
        }
    }

    fn finish(mut self, statements: Vec<ir::Stmt>) -> Result<ir::Program, CompileError> {
        if let Some(span) = self.timed_out {
            return Err(CompileError::Timeout { span });
        }
        if let Some(span) = self.vanished
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
        if self.diagnostics.is_empty() {
            Ok(ir::Program {
                characters: self.characters,
                constants: self.constants,
                checkpoints: self.checkpoints,
                enums: self.enums,
                statements,
                samples: self.samples,
            })
        } else {
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
            // Expressions report inner problems before outer ones; show them in source
            // order.
            self.diagnostics.sort_by_key(|d| d.span.start);
            Err(CompileError::Story(self.diagnostics))
        }
    }

    fn error(&mut self, diagnostic: Diagnostic) {
        self.reported += 1;
        let mut hasher = DefaultHasher::new();
        diagnostic.message.hash(&mut hasher);
        let message = hasher.finish();
        match self
            .places
            .entry((diagnostic.span.start, diagnostic.span.end))
        {
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

    // ----- statements -----

    fn block(&mut self, block: &ast::Block, out: &mut Vec<ir::Stmt>) {
        self.depth += 1;
        for stmt in &block.statements {
            self.stmt(stmt, out);
        }
        self.depth -= 1;
    }

    /// Emits a statement that runs. `reported`: the error count before it was lowered;
    /// one that lowers to nothing must have reported an error.
    fn emit(
        &mut self,
        out: &mut Vec<ir::Stmt>,
        kind: Option<ir::StmtKind>,
        span: Span,
        reported: usize,
    ) {
        if self.dead > 0 {
            return;
        }
        match kind {
            Some(kind) => out.push(ir::Stmt { kind, span }),
            None if self.reported == reported => {
                self.vanished.get_or_insert(span);
            }
            None => {}
        }
    }

    fn stmt(&mut self, stmt: &ast::Stmt, out: &mut Vec<ir::Stmt>) {
        self.current = stmt.span.start;
        let reported = self.reported;
        let is_declaration = matches!(
            stmt.kind,
            StmtKind::Characters(_)
                | StmtKind::Constants { .. }
                | StmtKind::Const { .. }
                | StmtKind::Enum { .. }
        );
        if is_declaration && self.depth > 0 {
            self.error(
                Diagnostic::error(
                    stmt.span,
                    "declarations must be at the top level of the story",
                )
                .with_hint(
                    "move it before the block; a loop can use a family, e.g. `bool muddy[n]`",
                ),
            );
            return;
        }
        let announcement = matches!(
            stmt.kind,
            StmtKind::Announce(_)
                | StmtKind::Says { .. }
                | StmtKind::Reveals { .. }
                | StmtKind::For { .. }
                | StmtKind::If { .. }
        );
        if self.simultaneous && !announcement {
            self.error(
                Diagnostic::error(stmt.span, "only announcements can be made simultaneously")
                    .with_hint(
                        "inside `simultaneously { … }` write `announce …`, `A: …` or `A reveals …`",
                    ),
            );
            return;
        }
        let kind = match &stmt.kind {
            StmtKind::Characters(decls) => {
                for decl in decls {
                    self.declare_characters(decl);
                }
                return;
            }
            StmtKind::Constants { sort, names } => {
                let ty = match sort {
                    ast::SortName::Int => Some(Ty::Int),
                    ast::SortName::Bool => Some(Ty::Bool),
                    ast::SortName::Enum(name) => self.sort(name),
                };
                for decl in names {
                    self.declare_constants(decl, ty);
                }
                return;
            }
            StmtKind::Const { name, value } => {
                let computed = self.compile_time_int(value, "the value of a `const`");
                let value = self.sets.get(&name.name).copied().or(computed);
                if self.declare(name, false) {
                    self.names.insert(name.name.clone(), Entity::Param(value));
                }
                return;
            }
            StmtKind::Enum { name, variants } => {
                self.declare_enum(name, variants);
                return;
            }
            StmtKind::Announce(what) => {
                let formula = self.expr(what, Ctx::storyteller());
                self.formula(formula).map(|formula| ir::StmtKind::Announce {
                    speaker: None,
                    formula,
                })
            }
            StmtKind::Says { speaker, what } => {
                let (who, formula) = self.speech(speaker, what);
                who.zip(formula)
                    .map(|(who, formula)| ir::StmtKind::Announce {
                        speaker: Some(who),
                        formula,
                    })
            }
            StmtKind::Reveals { who, what } => {
                let (who, formula) = self.speech(who, what);
                who.zip(formula).map(|(who, formula)| {
                    let text = self.namer().show(&formula, Some(who));
                    ir::StmtKind::Reveal { who, formula, text }
                })
            }
            StmtKind::Learns { who, what } => {
                let learner = self.character_expr(who);
                // A learner who is not a character is already reported; the learned
                // expression still gets checked (its agent does not matter there).
                let name = match &who.kind {
                    ExprKind::Name(name) | ExprKind::Index { base: name, .. } => &name.name,
                    _ => "",
                };
                let written = match (learner, &who.kind) {
                    (Some(id), ExprKind::Index { .. }) => self.characters[id.0].name.clone(),
                    _ => name.to_string(),
                };
                let ctx = Ctx {
                    speaker: Speaker::Unresolved,
                    objective: Some(Objective::Learns(&written)),
                    compile_time: false,
                };
                let what = self.expr(what, ctx);
                learner
                    .zip(what)
                    .map(|(who, what)| ir::StmtKind::Learn { who, what })
            }
            StmtKind::Actual(what) => {
                let ctx = Ctx {
                    objective: Some(Objective::Actual),
                    ..Ctx::storyteller()
                };
                let formula = self.expr(what, ctx);
                if self.dead == 0 {
                    self.one_actual(stmt.span);
                }
                self.formula(formula).map(ir::StmtKind::Actual)
            }
            StmtKind::Checkpoint(name) => self.define_checkpoint(name),
            StmtKind::Worlds { limit } => match limit {
                None => Some(ir::StmtKind::Worlds {
                    limit: DEFAULT_WORLDS_LIMIT,
                }),
                Some((0, span)) => {
                    self.error(Diagnostic::error(*span, "a limit must be at least 1"));
                    None
                }
                Some((limit, _)) => Some(ir::StmtKind::Worlds { limit: *limit }),
            },
            StmtKind::For { var, range, body } => {
                self.for_loop(var, range, body, out);
                return;
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.compile_time_bool(cond, "the condition of `if`");
                let empty = ast::Block {
                    statements: Vec::new(),
                    span: Span::default(),
                };
                let otherwise = otherwise.as_ref().unwrap_or(&empty);
                match cond {
                    Some(true) => {
                        self.block(then, out);
                        self.dead(|l| l.block(otherwise, out));
                    }
                    Some(false) => {
                        self.dead(|l| l.block(then, out));
                        self.block(otherwise, out);
                    }
                    None => self.dead(|l| {
                        l.block(then, out);
                        l.block(otherwise, out);
                    }),
                }
                return;
            }
            StmtKind::Simultaneously(body) => {
                let mut inner = Vec::new();
                self.simultaneous = true;
                self.block(body, &mut inner);
                self.simultaneous = false;
                Some(ir::StmtKind::Simultaneously(inner))
            }
            StmtKind::Repeat { max, body, until } => {
                let rounds = self.compile_time_int(max, "the number of rounds");
                let rounds = match rounds {
                    Some(n) if n >= 1 => Some(n as u64),
                    Some(n) => {
                        if self.dead == 0 {
                            self.error(
                                Diagnostic::error(
                                    max.span,
                                    format!("`repeat` needs at least 1 round, found {n}"),
                                )
                                .with_hint("write e.g. `repeat max 10 { … } until …`"),
                            );
                        }
                        None
                    }
                    None => None,
                };
                let mut inner = Vec::new();
                self.block(body, &mut inner);
                self.current = stmt.span.start;
                let until = self.expr(until, Ctx::storyteller());
                let until = self.formula(until);
                rounds.zip(until).map(|(max, until)| ir::StmtKind::Repeat {
                    max,
                    body: inner,
                    until,
                })
            }
            StmtKind::AssertAddsCk { hint, body } => {
                let hint = self.expr(hint, Ctx::storyteller());
                let hint = self.formula(hint);
                let mut inner = Vec::new();
                self.block(body, &mut inner);
                if let Some(span) = first_assign(&inner) {
                    self.error(
                        Diagnostic::error(span, "a hint's block cannot change constants")
                            .with_hint(
                                "the hint describes the worlds before and after the block: move `:=` out of it",
                            ),
                    );
                    return;
                }
                hint.map(|hint| ir::StmtKind::AssertAddsCk { hint, body: inner })
            }
            StmtKind::Check(what) => {
                let formula = self.expr(what, Ctx::storyteller());
                self.formula(formula).map(ir::StmtKind::Check)
            }
            StmtKind::Assign { target, value } => self.assign(target, value),
        };
        self.emit(out, kind, stmt.span, reported);
    }

    /// `x := e`: the target must be a constant, the value of its type and free of
    /// knowledge operators.
    fn assign(&mut self, target: &ast::Expr, value: &ast::Expr) -> Option<ir::StmtKind> {
        let ctx = Ctx {
            objective: Some(Objective::Assign),
            ..Ctx::storyteller()
        };
        let lowered = self.expr(target, ctx);
        let value = self.expr(value, ctx);
        let target = match lowered {
            Some(ir::Expr {
                kind: ir::ExprKind::Const(c),
                ..
            }) => c,
            Some(_) => {
                self.error(
                    Diagnostic::error(target.span, "only a constant can be given a new value")
                        .with_hint("write e.g. `x := x + 1` or `b[i] := not b[i]`"),
                );
                return None;
            }
            None => return None,
        };
        let value = value?;
        if !self.expect(&value, self.constants[target.0].ty) {
            return None;
        }
        Some(ir::StmtKind::Assign { target, value })
    }

    /// The speaker and formula of `A: φ` / `A reveals φ`.
    fn speech(
        &mut self,
        speaker: &ast::Expr,
        what: &ast::Expr,
    ) -> (Option<CharId>, Option<ir::Expr>) {
        let who = self.character_expr(speaker);
        let ctx = Ctx {
            speaker: who.map_or(Speaker::Unresolved, Speaker::Character),
            ..Ctx::storyteller()
        };
        let formula = self.expr(what, ctx);
        (who, self.formula(formula))
    }

    /// Reports a second `actual` that runs: the actual world is declared once.
    fn one_actual(&mut self, span: Span) {
        let Some(first) = self.actual else {
            self.actual = Some(span);
            return;
        };
        let diagnostic = if first == span {
            Diagnostic::error(
                span,
                "`actual` is declared again in the next round of this loop",
            )
            .with_hint("the actual world is declared once; move `actual` out of the loop")
        } else {
            Diagnostic::error(span, "the actual world is already declared")
                .with_note(first, "the first `actual`")
                .with_hint("declare it once: join the two in one `actual`, e.g. `actual φ and ψ`")
        };
        self.error(diagnostic);
    }

    fn define_checkpoint(&mut self, name: &Ident) -> Option<ir::StmtKind> {
        if self.dead > 0 {
            if !self.checkpoint_ids.contains_key(&name.name) {
                self.dead_checkpoints.insert(name.name.clone());
            }
            return None;
        }
        if let Some(id) = self.checkpoint_ids.get(&name.name) {
            let diagnostic = if self.checkpoints[id.0].span == name.span {
                Diagnostic::error(
                    name.span,
                    format!(
                        "checkpoint `{}` is defined again in the next round of this loop",
                        name.name
                    ),
                )
                .with_hint("checkpoint names must be unique; define it outside the `for` loop")
            } else {
                Diagnostic::error(
                    name.span,
                    format!("checkpoint `{}` is already defined", name.name),
                )
                .with_hint("checkpoint names must be unique")
            };
            self.error(diagnostic);
            return None;
        }
        let id = CheckpointId(self.checkpoints.len());
        self.checkpoints.push(ir::Checkpoint {
            name: name.name.clone(),
            span: name.span,
        });
        self.checkpoint_ids.insert(name.name.clone(), id);
        Some(ir::StmtKind::Checkpoint(id))
    }

    fn for_loop(
        &mut self,
        var: &Ident,
        range: &ast::Range,
        body: &ast::Block,
        out: &mut Vec<ir::Stmt>,
    ) {
        let bounds = self.range(range);
        self.check_loop_var(var);
        match bounds {
            Some((lo, hi)) if lo < hi => {
                for value in lo..hi {
                    if !self.spend(range_span(range)) {
                        break;
                    }
                    self.bound(&var.name, value, |l| l.block(body, out));
                }
            }
            Some((lo, _)) => self.dead(|l| l.bound(&var.name, lo, |l| l.block(body, out))),
            None => self.dead(|l| l.bound(&var.name, 0, |l| l.block(body, out))),
        }
    }

    /// The bounds of `lo..hi`, both compile-time ints.
    fn range(&mut self, range: &ast::Range) -> Option<(i64, i64)> {
        let lo = self.compile_time_int(&range.lo, "a range bound");
        let hi = self.compile_time_int(&range.hi, "a range bound");
        lo.zip(hi)
    }

    /// Reports a loop variable that would shadow a name.
    fn check_loop_var(&mut self, var: &Ident) {
        let shadows_loop_var = self.loop_vars.iter().any(|(n, _)| *n == var.name);
        if shadows_loop_var || self.names.contains_key(&var.name) {
            let what = if shadows_loop_var {
                "a loop variable here"
            } else {
                "already declared"
            };
            self.error(
                Diagnostic::error(var.span, format!("`{}` is {what}", var.name))
                    .with_hint("a loop variable needs a name of its own"),
            );
        }
    }

    // ----- declarations -----

    /// Checks that a global name is new; reports it otherwise. `basic`: the name is a
    /// character or a constant (for the hint).
    fn declare(&mut self, name: &Ident, basic: bool) -> bool {
        if let Some(existing) = self.names.get(&name.name) {
            let both_basic = basic
                && matches!(
                    existing,
                    Entity::Character(_)
                        | Entity::Constant(_)
                        | Entity::CharFamily(_)
                        | Entity::ConstFamily(_)
                );
            let hint = if both_basic {
                "names of characters and constants must be unique"
            } else {
                "names of characters, constants, consts, enums and enum values must be unique"
            };
            self.error(
                Diagnostic::error(name.span, format!("`{}` is already declared", name.name))
                    .with_hint(hint),
            );
            false
        } else {
            true
        }
    }

    /// The size of a family, if the declaration has one: `Ok(None)` for a single name.
    fn family_size(&mut self, decl: &ast::Decl) -> Result<Option<usize>, ()> {
        let Some(size) = &decl.size else {
            return Ok(None);
        };
        let n = self
            .compile_time_int(size, "the size of a family")
            .ok_or(())?;
        if n < 0 {
            self.error(Diagnostic::error(
                size.span,
                format!("a family cannot have {n} members"),
            ));
            return Err(());
        }
        if n > MAX_FAMILY {
            self.error(Diagnostic::error(
                size.span,
                format!("a family may have at most {MAX_FAMILY} members, found {n}"),
            ));
            return Err(());
        }
        Ok(Some(n as usize))
    }

    fn declare_characters(&mut self, decl: &ast::Decl) {
        let size = self.family_size(decl);
        if !self.declare(&decl.name, true) {
            return;
        }
        let name = &decl.name;
        let first = self.characters.len();
        let entity = match size {
            Err(()) => Entity::Failed,
            Ok(None) => {
                self.characters.push(ir::Character {
                    name: name.name.clone(),
                    span: name.span,
                });
                Entity::Character(CharId(first))
            }
            Ok(Some(len)) => {
                for i in 0..len {
                    self.characters.push(ir::Character {
                        name: format!("{}[{i}]", name.name),
                        span: name.span,
                    });
                }
                Entity::CharFamily(Family { first, len })
            }
        };
        self.names.insert(name.name.clone(), entity);
    }

    fn declare_constants(&mut self, decl: &ast::Decl, ty: Option<Ty>) {
        let size = self.family_size(decl);
        if !self.declare(&decl.name, true) {
            return;
        }
        let (Some(ty), Ok(size)) = (ty, size) else {
            self.names.insert(decl.name.name.clone(), Entity::Failed);
            return;
        };
        let name = &decl.name;
        let first = self.constants.len();
        let entity = match size {
            None => {
                self.constants.push(ir::Constant {
                    name: name.name.clone(),
                    ty,
                    span: name.span,
                });
                Entity::Constant(ConstId(first))
            }
            Some(len) => {
                for i in 0..len {
                    self.constants.push(ir::Constant {
                        name: format!("{}[{i}]", name.name),
                        ty,
                        span: name.span,
                    });
                }
                Entity::ConstFamily(Family { first, len })
            }
        };
        self.names.insert(name.name.clone(), entity);
    }

    fn declare_enum(&mut self, name: &Ident, variants: &[Ident]) {
        let id = EnumId(self.enums.len());
        if self.declare(name, false) {
            self.names.insert(name.name.clone(), Entity::Enum(id));
        }
        let mut values = Vec::new();
        for variant in variants {
            if self.declare(variant, false) {
                self.names
                    .insert(variant.name.clone(), Entity::Variant(id, values.len()));
            }
            values.push(variant.name.clone());
        }
        self.enums.push(ir::EnumDef {
            name: name.name.clone(),
            variants: values,
            span: name.span,
        });
    }

    /// The enum named in `Colour wall[5]`.
    fn sort(&mut self, name: &Ident) -> Option<Ty> {
        match self.names.get(&name.name) {
            Some(Entity::Enum(id)) => Some(Ty::Enum(*id)),
            Some(_) => {
                self.error(
                    Diagnostic::error(name.span, format!("`{}` is not an enum", name.name))
                        .with_hint("declare constants with `int`, `bool` or an enum's name"),
                );
                None
            }
            None => {
                let enums: Vec<&str> = self.enums.iter().map(|e| e.name.as_str()).collect();
                let hint = if self
                    .declared_at
                    .get(&name.name)
                    .is_some_and(|&at| at > self.current)
                {
                    format!("`{}` is declared later in the story", name.name)
                } else if let Some(close) = closest(&name.name, enums) {
                    format!("did you mean `{close}`?")
                } else {
                    format!("declare it first, e.g. `enum {} {{ a, b }}`", name.name)
                };
                self.error(
                    Diagnostic::error(name.span, format!("unknown enum `{}`", name.name))
                        .with_hint(hint),
                );
                None
            }
        }
    }

    // ----- types -----

    /// A statement-level formula must be bool.
    fn formula(&mut self, formula: Option<ir::Expr>) -> Option<ir::Expr> {
        let formula = formula?;
        self.expect(&formula, Ty::Bool).then_some(formula)
    }

    /// Reports `expr` unless it has type `want`.
    fn expect(&mut self, expr: &ir::Expr, want: Ty) -> bool {
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
    fn expect_opt(&mut self, expr: &Option<ir::Expr>, want: Ty) -> bool {
        match expr {
            Some(expr) => self.expect(expr, want),
            None => false,
        }
    }

    // ----- compile-time values -----

    /// Lowers an expression that must be known before the story runs (`what` names it in
    /// messages: "an index") and returns its literal.
    fn compile_time(&mut self, expr: &ast::Expr, what: &str) -> Option<ir::Expr> {
        let lowered = self.expr(expr, Ctx::compile_time())?;
        if matches!(lowered.kind, ir::ExprKind::Int(_) | ir::ExprKind::Bool(_)) {
            return Some(lowered);
        }
        let diagnostic = match self.culprit(&lowered) {
            Some(hint) => Diagnostic::error(
                expr.span,
                format!(
                    "{what} must be computable before the story runs (from consts and loop variables)"
                ),
            )
            .with_hint(hint),
            None => Diagnostic::error(expr.span, format!("{what} overflows 64-bit integers")),
        };
        self.error(diagnostic);
        None
    }

    /// Why a lowered expression is not a literal: the first hidden constant or
    /// knowledge operator in it.
    fn culprit(&self, expr: &ir::Expr) -> Option<String> {
        use ir::ExprKind as E;
        match &expr.kind {
            E::Const(id) => Some(format!(
                "`{}` is a hidden constant: its value is known only as the story runs",
                self.constants[id.0].name
            )),
            E::Knows { .. } | E::KnowsValue { .. } | E::At { .. } | E::Group { .. } => {
                Some("knowledge operators are evaluated as the story runs".to_string())
            }
            E::Int(_) | E::Bool(_) => None,
            E::Neg(a) | E::Not(a) => self.culprit(a),
            E::Arith(_, a, b) | E::Cmp(_, a, b) | E::Logic(_, a, b) => {
                self.culprit(a).or_else(|| self.culprit(b))
            }
            E::Ite(c, a, b) => self
                .culprit(c)
                .or_else(|| self.culprit(a))
                .or_else(|| self.culprit(b)),
            E::In { tuple, set } => tuple
                .iter()
                .chain(set.iter().flatten())
                .find_map(|e| self.culprit(e)),
        }
    }

    fn compile_time_int(&mut self, expr: &ast::Expr, what: &str) -> Option<i64> {
        let value = self.compile_time(expr, what)?;
        if !self.expect(&value, Ty::Int) {
            return None;
        }
        match value.kind {
            ir::ExprKind::Int(n) => Some(n),
            _ => None,
        }
    }

    fn compile_time_bool(&mut self, expr: &ast::Expr, what: &str) -> Option<bool> {
        let value = self.compile_time(expr, what)?;
        if !self.expect(&value, Ty::Bool) {
            return None;
        }
        match value.kind {
            ir::ExprKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    // ----- names -----

    fn loop_var(&self, name: &str) -> Option<i64> {
        self.loop_vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
    }

    /// Character names for hints: `Albert`, and a family as `child[…]`.
    fn char_names(&self) -> Vec<String> {
        let mut names: Vec<(usize, String)> = self
            .names
            .iter()
            .filter_map(|(name, entity)| match entity {
                Entity::Character(id) => Some((id.0, name.clone())),
                Entity::CharFamily(f) => Some((f.first, format!("{name}[…]"))),
                _ => None,
            })
            .collect();
        names.sort();
        names.into_iter().map(|(_, n)| n).collect()
    }

    /// Names of characters and character families, for "did you mean".
    fn char_candidates(&self) -> Vec<&str> {
        self.names
            .iter()
            .filter(|(_, e)| matches!(e, Entity::Character(_) | Entity::CharFamily(_)))
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// Names that can stand for a value, for "did you mean".
    fn value_candidates(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .names
            .iter()
            .filter(|(_, e)| {
                matches!(
                    e,
                    Entity::Constant(_)
                        | Entity::ConstFamily(_)
                        | Entity::Variant(..)
                        | Entity::Param(_)
                )
            })
            .map(|(n, _)| n.as_str())
            .chain(self.loop_vars.iter().rev().map(|(n, _)| n.as_str()))
            .collect();
        // Deterministic "did you mean" among equally close names.
        names.sort_by_key(|n| (self.declared_at.get(*n).copied(), *n));
        names
    }

    /// A name or family member in a character's position (`A learns`, `A:`,
    /// `knows(A, …)`).
    fn character_expr(&mut self, expr: &ast::Expr) -> Option<CharId> {
        match &expr.kind {
            ExprKind::Name(name) => self.character(name),
            ExprKind::Index { base, index } => match self.names.get(&base.name).copied() {
                Some(Entity::CharFamily(family)) => {
                    let i = self.member(base, family, index)?;
                    Some(CharId(family.first + i))
                }
                Some(Entity::ConstFamily(family)) => {
                    let i = self.member(base, family, index);
                    let shown = i.map_or(base.name.clone(), |i| {
                        self.constants[family.first + i].name.clone()
                    });
                    self.not_a_character(expr.span, &shown);
                    None
                }
                Some(Entity::Failed) => {
                    self.expr(index, Ctx::compile_time());
                    None
                }
                _ => {
                    self.not_a_family(base, index);
                    None
                }
            },
            _ => {
                self.error(Diagnostic::error(expr.span, "expected a character"));
                None
            }
        }
    }

    fn not_a_character(&mut self, span: Span, name: &str) {
        let mut diagnostic = Diagnostic::error(span, format!("`{name}` is not a character"));
        let chars = self.char_names();
        if !chars.is_empty() {
            let chars: Vec<&str> = chars.iter().map(String::as_str).collect();
            diagnostic = diagnostic.with_hint(format!("the characters are {}", list(&chars)));
        }
        self.error(diagnostic);
    }

    /// A plain name in a character's position.
    fn character(&mut self, name: &Ident) -> Option<CharId> {
        if self.loop_var(&name.name).is_some() {
            self.not_a_character(name.span, &name.name);
            return None;
        }
        match self.names.get(&name.name).copied() {
            Some(Entity::Character(id)) => Some(id),
            Some(Entity::Failed) => None,
            Some(Entity::CharFamily(_)) => {
                self.is_a_family(name);
                None
            }
            Some(_) => {
                self.not_a_character(name.span, &name.name);
                None
            }
            None => {
                let candidates = self.char_candidates();
                let hint = self.unknown_hint(name, &candidates, "characters");
                self.error(
                    Diagnostic::error(name.span, format!("unknown name `{}`", name.name))
                        .with_hint(hint),
                );
                None
            }
        }
    }

    /// "`muddy` is a family; pick a member".
    fn is_a_family(&mut self, name: &Ident) {
        self.error(Diagnostic::error(
            name.span,
            format!("`{0}` is a family; pick a member, e.g. `{0}[0]`", name.name),
        ));
    }

    /// `x[i]` where `x` is not a family (or unknown).
    fn not_a_family(&mut self, base: &Ident, index: &ast::Expr) {
        // Check the index too, for its own mistakes.
        self.expr(index, Ctx::compile_time());
        let known = self.loop_var(&base.name).is_some() || self.names.contains_key(&base.name);
        if known {
            self.error(Diagnostic::error(
                base.span,
                format!("`{}` is not a family", base.name),
            ));
        } else {
            let families: Vec<&str> = self
                .names
                .iter()
                .filter(|(_, e)| matches!(e, Entity::CharFamily(_) | Entity::ConstFamily(_)))
                .map(|(n, _)| n.as_str())
                .collect();
            let hint = self.unknown_hint(base, &families, "int");
            self.error(
                Diagnostic::error(base.span, format!("unknown name `{}`", base.name))
                    .with_hint(hint),
            );
        }
    }

    /// The index of a member of `family`, checked against its size.
    fn member(&mut self, base: &Ident, family: Family, index: &ast::Expr) -> Option<usize> {
        let i = self.compile_time_int(index, "an index")?;
        if i < 0 || i as u64 >= family.len as u64 {
            if self.dead == 0 {
                let members = match family.len {
                    0 => "no members".to_string(),
                    1 => "1 member (0)".to_string(),
                    n => format!("{n} members (0..{})", n - 1),
                };
                self.error(Diagnostic::error(
                    index.span,
                    format!("index {i} is out of range: `{}` has {members}", base.name),
                ));
            }
            return None;
        }
        Some(i as usize)
    }

    /// The hint for an unknown name: declared later, a close name, or how to declare it.
    fn unknown_hint(&self, name: &Ident, candidates: &[&str], declare_with: &str) -> String {
        if self
            .declared_at
            .get(&name.name)
            .is_some_and(|&at| at > self.current)
        {
            format!("`{}` is declared later in the story", name.name)
        } else if let Some(close) = closest(&name.name, candidates.iter().copied()) {
            format!("did you mean `{close}`?")
        } else if declare_with == "const" {
            format!("declare it first, e.g. `const {} = 3`", name.name)
        } else {
            format!("declare it first, e.g. `{declare_with} {}`", name.name)
        }
    }

    /// The checkpoint named by the first argument of `at`.
    fn checkpoint(&mut self, name: &Ident) -> Option<CheckpointId> {
        if let Some(id) = self.checkpoint_ids.get(&name.name) {
            return Some(*id);
        }
        if self.dead > 0 && self.dead_checkpoints.contains(&name.name) {
            return None;
        }
        let diagnostic = if self
            .defined_at
            .get(&name.name)
            .is_some_and(|&at| at >= self.current)
        {
            Diagnostic::error(
                name.span,
                format!("checkpoint `{}` is defined after this statement", name.name),
            )
            .with_hint("`at` can only look back at checkpoints that come earlier in the story")
        } else if self.dead_checkpoints.contains(&name.name) {
            Diagnostic::error(
                name.span,
                format!("checkpoint `{}` is never reached", name.name),
            )
            .with_hint("it is defined only in a part of the story that does not run (an `if` branch not taken or an empty loop)")
        } else {
            let names: Vec<&str> = self.checkpoints.iter().map(|c| c.name.as_str()).collect();
            let hint = match closest(&name.name, names.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("define it first with `checkpoint {}`", name.name),
            };
            Diagnostic::error(name.span, format!("unknown checkpoint `{}`", name.name))
                .with_hint(hint)
        };
        self.error(diagnostic);
        None
    }
}

/// Where each checkpoint is first defined, blocks included.
fn collect_checkpoints(statements: &[ast::Stmt], defined_at: &mut HashMap<String, usize>) {
    for stmt in statements {
        match &stmt.kind {
            StmtKind::Checkpoint(name) => {
                defined_at
                    .entry(name.name.clone())
                    .or_insert(name.span.start);
            }
            StmtKind::For { body, .. }
            | StmtKind::Simultaneously(body)
            | StmtKind::Repeat { body, .. }
            | StmtKind::AssertAddsCk { body, .. } => {
                collect_checkpoints(&body.statements, defined_at);
            }
            StmtKind::If {
                then, otherwise, ..
            } => {
                collect_checkpoints(&then.statements, defined_at);
                if let Some(otherwise) = otherwise {
                    collect_checkpoints(&otherwise.statements, defined_at);
                }
            }
            _ => {}
        }
    }
}

fn range_span(range: &ast::Range) -> Span {
    range.lo.span.to(range.hi.span)
}

/// "`A`", "`A` and `B`", "`A`, `B` and `C`".
fn list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [only] => format!("`{only}`"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|n| format!("`{n}`")).collect();
            format!("{} and `{last}`", init.join(", "))
        }
    }
}

/// The candidate closest to `name` if it is close enough to be a likely typo: edit
/// distance ≤ 2, or ≤ 1 for names of at most 3 characters. Ties go to the earliest.
fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name: Vec<char> = name.chars().collect();
    let limit = if name.len() <= 3 { 1 } else { 2 };
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        // Only a strictly closer candidate replaces the best so far.
        let bound = match best {
            None => limit,
            Some((0, _)) => break,
            Some((d, _)) => d - 1,
        };
        let chars: Vec<char> = candidate.chars().collect();
        if let Some(distance) = edit_distance_within(&name, &chars, bound) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The edit distance between `a` and `b` when it is at most `limit`, where inserting,
/// deleting, replacing a char or swapping two neighbours costs 1 (optimal string
/// alignment), so `dya` is one step from `day`. Only the band of cells within `limit`
/// of the diagonal is computed, three rows at a time: time O(len · limit), memory
/// O(len), however long the names (a full table of two 40 000-char names takes 12 GB).
fn edit_distance_within(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let far = limit + 1; // any distance beyond the limit
    // rows[i % 3][j]: distance between a[..i] and b[..j], capped at `far`.
    let mut rows = vec![vec![far; b.len() + 1]; 3];
    for (j, cell) in rows[0].iter_mut().enumerate().take(far) {
        *cell = j;
    }
    for i in 1..=a.len() {
        // The band of row i; the cells on either side of it read as `far`.
        let (lo, hi) = (i.saturating_sub(limit), (i + limit).min(b.len()));
        let (before, above, row) = ((i + 1) % 3, (i + 2) % 3, i % 3);
        if lo == 0 {
            rows[row][0] = i;
        } else {
            rows[row][lo - 1] = far;
        }
        if hi < b.len() {
            rows[row][hi + 1] = far;
        }
        let mut smallest = if lo == 0 { i } else { far };
        for j in lo.max(1)..=hi {
            let mut best = (rows[above][j - 1] + usize::from(a[i - 1] != b[j - 1]))
                .min(rows[above][j] + 1)
                .min(rows[row][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[before][j - 2] + 1);
            }
            rows[row][j] = best.min(far);
            smallest = smallest.min(rows[row][j]);
        }
        if smallest > limit {
            return None;
        }
    }
    let distance = rows[a.len() % 3][b.len()];
    (distance <= limit).then_some(distance)
}
