//! The lowered story: names resolved to ids, every expression typed. This is what the
//! engine and the brute-force evaluator both consume.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub use epipen_syntax::Span;
pub use epipen_syntax::ast::Backend;

pub mod arith;
mod show;
mod value;

pub use show::{Entries, Namer};
pub use value::{Value, World};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CharId(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CheckpointId(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EventId(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ActionId(pub usize);

/// The type of an expression or constant. Values of an enum are its variants' indices
/// `0..k` (the engine encodes an enum constant as an int constrained to that range).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    Bool,
    Enum(EnumId),
}

/// `enum Colour { red, green, blue }`
#[derive(Debug, Clone, PartialEq)]
pub struct EnumDef {
    pub name: String,
    pub variants: Vec<String>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Character {
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Constant {
    pub name: String,
    pub ty: Ty,
    pub span: Span,
    /// Set for the constant that records which case of an event happened (one per
    /// execution of an `event` statement; see [`EventStmt`]); None for the story's own.
    pub occurrence: Option<Occurrence>,
}

/// What an occurrence constant records: the case of one execution of an event. Its type
/// is the event's enum ([`EventDef::sort`]), whose last value ([`EventDef::not_yet`])
/// it holds until the execution happens; worlds do not show it then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Occurrence {
    pub event: EventId,
}

/// An event, by name: its cases, shared by every `event` statement of that name.
#[derive(Debug, Clone, PartialEq)]
pub struct EventDef {
    pub name: String,
    /// The cases' names (`moved`, `face[3]`), in order: case k is value k.
    pub cases: Vec<String>,
    /// The enum of its occurrences: the cases, then one more value, "not yet".
    pub sort: EnumId,
    /// Where the first `event` statement of this name is.
    pub span: Span,
}

impl EventDef {
    /// The value an occurrence constant holds until its execution happens.
    pub fn not_yet(&self) -> i64 {
        self.cases.len() as i64
    }
}

/// `action NAME [by A] [if φ] { BODY }`: an action a plan may use (nothing happens
/// where it is declared). Executing it is the event of its body.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionDef {
    /// As declared, with its indices: `call[0, 1]`.
    pub name: String,
    /// `by A`: the character who performs it (required by `plan … coordinated`).
    pub owner: Option<CharId>,
    /// `if φ`: its executability (knowledge operators allowed), evaluated in the state
    /// before it.
    pub guard: Option<Expr>,
    /// The body as an event of its own ([`EventDef`] named like the action, so that a
    /// `do` of it is named as an `event` statement's execution is): cases, `sees` and
    /// `expects` lines; `actual` None and `occurrences` empty.
    pub body: EventStmt,
    /// Where the action's cases start among the cases of the search's step event
    /// ([`PlanSteps`]): its case k is the step's value `offset + k`.
    pub offset: usize,
    pub span: Span,
}

/// What a `plan` statement's search executes actions with: one event whose cases are
/// every action's cases in declaration order (see [`ActionDef::offset`]), and its
/// occurrence constants, as many as the deepest `plan` needs. A `plan` is a question: the
/// story goes on from the state before it, so every `plan` shares them.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanSteps {
    pub event: EventId,
    pub occurrences: Vec<ConstId>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    pub name: String,
    pub span: Span,
}

/// A resolved, type-checked story. Ids index the vectors here. Parameters (`const`),
/// loops, statement-level `if`s and aggregates (`all`, `sum`, …) are gone: lowering
/// unrolls them, and members of families are ordinary characters and constants named
/// like `muddy[0]`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Program {
    pub characters: Vec<Character>,
    pub constants: Vec<Constant>,
    pub checkpoints: Vec<Checkpoint>,
    pub enums: Vec<EnumDef>,
    pub events: Vec<EventDef>,
    /// The declared actions, in declaration order (members of a family in the order
    /// their loops unrolled them).
    pub actions: Vec<ActionDef>,
    /// The search's steps; None when the story has no `plan` statement.
    pub plan_steps: Option<PlanSteps>,
    pub statements: Vec<Stmt>,
    /// What each `sample(k, {…})` drew, in the order they were compiled.
    pub samples: Vec<SampleDraw>,
    /// The backend the story pins (`#! backend z3`); `--backend` other than `auto`
    /// overrides it.
    pub backend: Option<Backend>,
}

/// The items one `sample(k, {…})` drew: where it is written, and the spans of the
/// chosen items, in the set's order.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleDraw {
    pub span: Span,
    pub items: Vec<Span>,
    /// Each chosen item's values (one per component of the tuple, with its type), or
    /// None for an item whose values are not known when the story is compiled (one
    /// that names a constant).
    pub values: Vec<Option<Vec<(Ty, Value)>>>,
}

impl Program {
    /// Whether a world shows the constant `c` when it holds `value`: every constant but
    /// an event's occurrence that has not happened, and a plan's steps.
    pub fn shows(&self, c: ConstId, value: Value) -> bool {
        match self.constants[c.0].occurrence {
            // A plan's steps: the search's, not the story's.
            Some(o) if self.plan_steps.as_ref().is_some_and(|s| s.event == o.event) => false,
            Some(o) => value != Value::Int(self.events[o.event.0].not_yet()),
            None => true,
        }
    }

    /// Where the first subexpression of the program's statements, then of its declared
    /// actions (a plan may do them; they are no statement), for which `pred` holds is
    /// written, if there is one.
    pub fn find(&self, pred: &mut dyn FnMut(&Expr) -> bool) -> Option<Span> {
        let mut look = |e: &Expr| {
            e.walk(&mut |x| match pred(x) {
                true => Err(x.span),
                false => Ok(()),
            })
        };
        (self.statements.iter())
            .try_for_each(|stmt| stmt.each_expr(&mut look))
            .and_then(|()| (self.actions.iter()).try_for_each(|a| a.each_expr(&mut look)))
            .err()
    }

    /// The occurrence constants (`move`, `move#2`, …), in order.
    pub fn occurrences(&self) -> impl Iterator<Item = ConstId> + '_ {
        (self.constants.iter().enumerate())
            .filter(|(_, c)| c.occurrence.is_some())
            .map(|(k, _)| ConstId(k))
    }

    /// Whether the story speaks of chances: a `prior`, a case's `weight`, or a
    /// probability (compared or shown). Its worlds then have weights, and only a backend
    /// that keeps them runs it.
    pub fn probabilistic(&self) -> bool {
        fn any(stmts: &[Stmt]) -> bool {
            stmts.iter().any(|s| match &s.kind {
                StmtKind::Prior(_) => true,
                StmtKind::Show {
                    value: Shown::Rational(_),
                    ..
                } => true,
                StmtKind::Event(event) if event.cases.iter().any(|c| c.weight.is_some()) => true,
                StmtKind::Do(steps)
                    if steps
                        .iter()
                        .any(|s| s.event.cases.iter().any(|c| c.weight.is_some())) =>
                {
                    true
                }
                StmtKind::Simultaneously(body)
                | StmtKind::Repeat { body, .. }
                | StmtKind::AssertAddsCk { body, .. }
                    if any(body) =>
                {
                    true
                }
                _ => s
                    .each_expr(&mut |e| match e.mentions_probability() {
                        true => Err(()),
                        false => Ok(()),
                    })
                    .is_err(),
            })
        }
        any(&self.statements)
            || self.actions.iter().any(|a| {
                a.body.cases.iter().any(|c| c.weight.is_some())
                    || a.each_expr(&mut |e| match e.mentions_probability() {
                        true => Err(()),
                        false => Ok(()),
                    })
                    .is_err()
            })
    }

    /// The name of a type as written in stories: `int`, `bool`, or the enum's name.
    pub fn ty_name(&self, ty: Ty) -> &str {
        match ty {
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Enum(e) => &self.enums[e.0].name,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
    /// The values of the `for` loops around the statement when it was unrolled, the
    /// outermost first (`[("i", 2)]` for the copy with `i = 2`); empty outside loops.
    pub loops: Vec<(String, i64)>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `announce φ` (speaker `None`: κ := κ ∧ φ) or `A: φ` (κ := κ ∧ K_A φ).
    Announce {
        speaker: Option<CharId>,
        formula: Expr,
    },
    /// `A learns e`: A gets access to the value of `e` (a constant or any expression),
    /// as it is now. With knowledge operators (a formula), A learns the truth value the
    /// formula has in the current state.
    Learn { who: CharId, what: Expr },
    /// `checkpoint name`: remember the knowledge state.
    Checkpoint(CheckpointId),
    /// `worlds [N]`: print the possible worlds here.
    Worlds { limit: u64 },
    /// `simultaneously { … }`: every announcement inside (only `Announce` and `Reveal`
    /// after unrolling) is evaluated in the state at the block's start, and they take
    /// effect together at its end.
    Simultaneously(Vec<Stmt>),
    /// `actual φ`: φ (no knowledge operators) must determine exactly one world, the
    /// actual one. It is not announced.
    Actual(Expr),
    /// `A reveals φ`: A announces φ if φ holds in the actual world, else `not φ`.
    /// `text` is φ as the run prints it, e.g. `knows_value(muddy[0])` (loop variables
    /// replaced by their values, the speaker left implicit).
    Reveal {
        who: CharId,
        formula: Expr,
        text: String,
    },
    /// `repeat max N { … } until φ`: runs the body, then evaluates φ (knowledge
    /// operators allowed) in the actual world; stops when it holds, fails after N rounds.
    Repeat {
        max: u64,
        body: Vec<Stmt>,
        until: Expr,
    },
    /// `assert_adds_ck φ { … }`: runs the body, then checks κ_after ≡ κ_before ∧ φ
    /// under κ_before; when it holds κ becomes κ_before ∧ φ.
    AssertAddsCk { hint: Expr, body: Vec<Stmt> },
    /// `check φ`: φ must hold in every world of κ; κ does not change.
    Check(Expr),
    /// `check actual φ`: φ must hold in the actual world; κ does not change.
    CheckActual(Expr),
    /// `A expects φ`: soft information. A now finds every world where φ holds (now)
    /// more plausible than every other, its old plausibility deciding inside each part
    /// (radical upgrade); nobody learns anything.
    Expects { who: CharId, formula: Expr },
    /// `x := e` / `x, y := e, f`: from here on, each `x` has the value its `e` had (in
    /// each world) just before, every value read before any is written: a public change.
    /// Each `e` has no knowledge operators and the type of its `x`; the targets are
    /// distinct.
    Assign { changes: Vec<(ConstId, Expr)> },
    /// `event NAME { … }`: one execution of an event (see [`EventStmt`]).
    Event(Box<EventStmt>),
    /// `do a, b: CASE, …`: executes declared actions in order, each as an `event`
    /// statement (an action not executable there is an error at the statement).
    Do(Vec<DoStep>),
    /// `plan [all] φ [max D] [keeping ψ] [coordinated]`: a question (κ does not
    /// change): a shortest sequence of executable actions after which φ holds.
    Plan(Box<PlanStmt>),
    /// `where φ`: prints the worlds possible here where φ holds (at most `limit`); κ
    /// does not change. `text` is φ as the run prints it (loop variables and
    /// definitions replaced).
    Where {
        formula: Expr,
        text: String,
        limit: u64,
    },
    /// `prior e`: each world's weight becomes the value of the int expression `e` there
    /// (knowledge-free, never negative in a world still possible). Lowering keeps it
    /// before anything a character learns or observes. Among the story's first
    /// announcements (knowledge-free, the storyteller's, with `learns` of values), it
    /// weighs the worlds they all leave, as if written after them.
    Prior(Expr),
    /// `show e`: the value of `e` in the actual world (or in each possible world, grouped
    /// by value). `text` is `e` as the run prints it.
    Show { value: Shown, text: String },
}

/// What a `show` statement shows: an ordinary expression (int, bool, enum), or a
/// probability term, computed exactly.
#[derive(Debug, Clone, PartialEq)]
pub enum Shown {
    Expr(Expr),
    Rational(Rat),
}

/// A term in exact rational arithmetic: what either side of a comparison that contains
/// `probability(…)` is (there `/` is exact division).
#[derive(Debug, Clone, PartialEq)]
pub struct Rat {
    pub kind: RatKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum RatKind {
    /// An int expression (integer arithmetic inside it, e.g. in an `if`), taken as a
    /// rational.
    Int(Box<Expr>),
    /// `probability(A, φ)`: Σ μ(v) over the worlds v that A cannot tell from this one
    /// where φ holds, over Σ μ(v) over all of them. `agent` None: the storyteller's, over
    /// every world still possible.
    Probability {
        agent: Option<CharId>,
        formula: Box<Expr>,
    },
    Neg(Box<Rat>),
    /// `+`, `-`, `*`, and exact `/` (a division by 0 is an error).
    Arith(ArithOp, Box<Rat>, Box<Rat>),
}

impl Rat {
    /// Calls `f` on each expression of the term (its ints and its probabilities'
    /// formulas), stopping at the first error.
    pub fn each_expr<E>(&self, f: &mut dyn FnMut(&Expr) -> Result<(), E>) -> Result<(), E> {
        match &self.kind {
            RatKind::Int(e) => f(e),
            RatKind::Probability { formula, .. } => f(formula),
            RatKind::Neg(a) => a.each_expr(f),
            RatKind::Arith(_, a, b) => {
                a.each_expr(f)?;
                b.each_expr(f)
            }
        }
    }

    /// Whether the term holds a probability (not only ints).
    pub fn has_probability(&self) -> bool {
        match &self.kind {
            RatKind::Int(_) => false,
            RatKind::Probability { .. } => true,
            RatKind::Neg(a) => a.has_probability(),
            RatKind::Arith(_, a, b) => a.has_probability() || b.has_probability(),
        }
    }

    /// See [`Expr::substitute`].
    pub fn substitute<'t>(&self, now: Moment<'t>, at: &dyn Fn(CheckpointId) -> Moment<'t>) -> Rat {
        let kind = match &self.kind {
            RatKind::Int(e) => RatKind::Int(Box::new(e.substitute(now, at))),
            RatKind::Probability { agent, formula } => RatKind::Probability {
                agent: *agent,
                formula: Box::new(formula.substitute(now, at)),
            },
            RatKind::Neg(a) => RatKind::Neg(Box::new(a.substitute(now, at))),
            RatKind::Arith(op, a, b) => RatKind::Arith(
                *op,
                Box::new(a.substitute(now, at)),
                Box::new(b.substitute(now, at)),
            ),
        };
        Rat {
            kind,
            span: self.span,
        }
    }
}

/// An `event` statement. Executed in a state W, it gives W' = {(w, c) : w in W, the
/// precondition of case c holds at w}, with the values after c's changes; a character
/// tells (w, c) from (v, d) apart when it told w from v, or when its `sees` line puts
/// c and d in different groups. The case that happened is recorded by an occurrence
/// constant: the statement's next one in [`EventStmt::occurrences`].
#[derive(Debug, Clone, PartialEq)]
pub struct EventStmt {
    pub event: EventId,
    pub cases: Vec<Case>,
    /// For each character (by `CharId`), the group of each case in its `sees` line;
    /// None when it has none (it tells no cases apart).
    pub sees: Vec<Option<Vec<usize>>>,
    /// For each character, the plausibility rank of each case in its `expects` line
    /// (0 most plausible); None when it has none (all equally plausible).
    pub expects: Vec<Option<Vec<usize>>>,
    /// `actual CASE`: the case that happened in the actual world.
    pub actual: Option<usize>,
    /// The `actual CASE` line (where an impossible case is reported).
    pub actual_at: Option<Span>,
    /// The occurrence constants the statement's executions fill, in order: one, or one
    /// per round of the `repeat`s around it.
    pub occurrences: Vec<ConstId>,
}

/// One action of a `do` statement.
#[derive(Debug, Clone, PartialEq)]
pub struct DoStep {
    pub action: ActionId,
    /// The action's body as this execution runs it: `actual` is the `: CASE` written
    /// (None: the one case that can happen at the actual world), `occurrences` its one
    /// occurrence constant, of the action's own event.
    pub event: EventStmt,
    /// The action's name as the `do` line writes it (errors point here).
    pub span: Span,
}

/// `plan [all] φ [max D] [keeping ψ] [coordinated]` (see [`StmtKind::Plan`]).
///
/// Meaning (the evaluator and the engine both implement exactly this). A state is the
/// worlds still possible with each character's indistinguishability, and the actual
/// world when the story has one. Action a is *executable* at a world w when its guard
/// holds at w and some case's precondition holds at w (both evaluated in the state);
/// it is executable in the state when it is at the actual world (without one: at every
/// world still possible). Executing it is the event of its body; the new actual worlds
/// are (w₀, c) for *each* case c whose precondition holds at the actual world w₀: a
/// plan must work whichever happened. A sequence a₁…a_k is a plan when, along every
/// such branch, each aᵢ is executable in its state, ψ holds after each action, and φ
/// holds after the last (φ, ψ "hold" as a goal does: at the actual world, or without
/// one at every world still possible). k = 0 when φ holds already (ψ is not asked
/// before the first action). `coordinated`: moreover reaches(a₁…a_k) holds (at the
/// actual world, or at every world), where reaches([]) = φ and reaches((A, a) : rest)
/// = K_A(executable(a) ∧ \[a\](ψ ∧ reaches(rest))), \[a\]χ holding at w when χ holds at
/// (w, c) after a for every case c possible at w. The answer: the shortest k ≤ `max`
/// with a plan; `plan` reports the first of them in the lexicographic order of action
/// indices (declaration order), `plan all` every one of them in that order. An error
/// met executing an action (a negative weight) stops the statement when it is met before
/// the answer: every sequence shorter than the answer is executed, and of the answer's
/// length every one for `plan all` and `coordinated`, those up to the first plan for a
/// plain `plan`.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanStmt {
    /// The actions a plan may use: those declared before the statement, in order.
    pub actions: Vec<ActionId>,
    /// φ: must hold at the actual world after the plan (without an actual world: at
    /// every world still possible).
    pub goal: Expr,
    /// D: at most this many actions (at least 1).
    pub max: usize,
    /// ψ: must hold (as φ does) after every action of the plan.
    pub keeping: Option<Expr>,
    /// Implicit coordination: before each step its owner knows that the step is
    /// executable and that the rest of the plan then reaches φ.
    pub coordinated: bool,
    /// `plan all`: every plan of the shortest length, not only the first.
    pub all: bool,
}

/// A case of an event: `moved if φ then x := e, y := f`.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub name: String,
    /// None: always possible. Knowledge operators are evaluated in the state before the
    /// event.
    pub pre: Option<Expr>,
    /// Simultaneous changes (every value read before the event), to distinct constants.
    pub changes: Vec<(ConstId, Expr)>,
    /// `weight e`: an int expression (knowledge-free, never negative), evaluated in the
    /// world before the event; None: 1. The case's chance at w is its weight over the
    /// sum of the weights of the cases possible at w.
    pub weight: Option<Expr>,
    pub span: Span,
}

impl Stmt {
    /// Calls `f` on every expression the statement holds, and those of the statements in
    /// its blocks, in order, stopping at the first error.
    pub fn each_expr<E>(&self, f: &mut dyn FnMut(&Expr) -> Result<(), E>) -> Result<(), E> {
        match &self.kind {
            StmtKind::Announce { formula, .. } | StmtKind::Reveal { formula, .. } => f(formula),
            StmtKind::Learn { what, .. } => f(what),
            StmtKind::Actual(e) | StmtKind::Check(e) | StmtKind::CheckActual(e) => f(e),
            StmtKind::Where { formula, .. } => f(formula),
            StmtKind::Prior(e) => f(e),
            StmtKind::Show { value, .. } => match value {
                Shown::Expr(e) => f(e),
                Shown::Rational(r) => r.each_expr(f),
            },
            StmtKind::Expects { formula, .. } => f(formula),
            StmtKind::Assign { changes } => changes.iter().try_for_each(|(_, e)| f(e)),
            StmtKind::Checkpoint(_) | StmtKind::Worlds { .. } => Ok(()),
            StmtKind::Simultaneously(body) => body.iter().try_for_each(|s| s.each_expr(f)),
            StmtKind::Repeat { body, until, .. } => {
                body.iter().try_for_each(|s| s.each_expr(f))?;
                f(until)
            }
            StmtKind::AssertAddsCk { hint, body } => {
                f(hint)?;
                body.iter().try_for_each(|s| s.each_expr(f))
            }
            StmtKind::Event(event) => event.each_expr(f),
            StmtKind::Do(steps) => steps.iter().try_for_each(|step| step.event.each_expr(f)),
            StmtKind::Plan(plan) => {
                f(&plan.goal)?;
                plan.keeping.iter().try_for_each(f)
            }
        }
    }
}

impl EventStmt {
    /// Calls `f` on each expression of the cases (preconditions, weights, changes), in
    /// order, stopping at the first error.
    pub fn each_expr<E>(&self, f: &mut dyn FnMut(&Expr) -> Result<(), E>) -> Result<(), E> {
        self.cases.iter().try_for_each(|case| {
            if let Some(pre) = &case.pre {
                f(pre)?;
            }
            if let Some(weight) = &case.weight {
                f(weight)?;
            }
            case.changes.iter().try_for_each(|(_, e)| f(e))
        })
    }
}

impl ActionDef {
    /// Calls `f` on the guard and each expression of the body, stopping at the first
    /// error.
    pub fn each_expr<E>(&self, f: &mut dyn FnMut(&Expr) -> Result<(), E>) -> Result<(), E> {
        self.guard.iter().try_for_each(&mut *f)?;
        self.body.each_expr(f)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Ty,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    /// Integer division as in SMT-LIB (Euclidean); `x / 0` is defined as 0.
    Div,
    /// Modulo as in SMT-LIB (0 <= x % y < |y|); `x % 0` is defined as x.
    Mod,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    /// `==`, on ints or on bools.
    Eq,
    /// `!=`, on ints or on bools.
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// Whether `x op y` holds.
    #[inline]
    pub fn holds<T: PartialOrd>(self, x: &T, y: &T) -> bool {
        match self {
            CmpOp::Eq => x == y,
            CmpOp::Ne => x != y,
            CmpOp::Lt => x < y,
            CmpOp::Le => x <= y,
            CmpOp::Gt => x > y,
            CmpOp::Ge => x >= y,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogicOp {
    And,
    Or,
    Implies,
    Iff,
}

impl LogicOp {
    /// The connective's value on `x` and `y`.
    #[inline]
    pub fn holds(self, x: bool, y: bool) -> bool {
        match self {
            LogicOp::And => x && y,
            LogicOp::Or => x || y,
            LogicOp::Implies => !x || y,
            LogicOp::Iff => x == y,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Const(ConstId),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    Logic(LogicOp, Box<Expr>, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(e1, …, en) in {(a1, …, an), …}`: every set element has the tuple's arity and
    /// types (n = 1 for `e in {a, b}`).
    In {
        tuple: Vec<Expr>,
        set: Vec<Vec<Expr>>,
    },
    /// `knows(A, φ)`: K_A φ.
    Knows {
        agent: CharId,
        formula: Box<Expr>,
    },
    /// `knows_value(A, e1, …, en)`: ∃v̄. K_A(e1 = v1 ∧ … ∧ en = vn).
    KnowsValue {
        agent: CharId,
        exprs: Vec<Expr>,
    },
    /// `believes(A, φ)`: φ holds in every world A finds most plausible among those it
    /// cannot tell from this one.
    Believes {
        agent: CharId,
        formula: Box<Expr>,
    },
    /// `believes_value(A, e1, …, en)`: the worlds A finds most plausible among those it
    /// cannot tell from this one agree on the tuple.
    BelievesValue {
        agent: CharId,
        exprs: Vec<Expr>,
    },
    /// `at(c, φ)`: φ with its knowledge operators evaluated in the state saved at `c`.
    At {
        checkpoint: CheckpointId,
        body: Box<Expr>,
    },
    /// The case of the latest execution of an event so far (`move == moved`), of the
    /// event's enum type. The driver replaces it by the occurrence constant of that
    /// execution before a backend sees it.
    Latest(EventId),
    /// `everyone_knows(G, φ)`, `common_knowledge(G, φ)`, `distributed_knowledge(G, φ)`:
    /// group knowledge of the characters `agents` (sorted, distinct, at least one).
    Group {
        op: GroupOp,
        agents: Vec<CharId>,
        formula: Box<Expr>,
    },
    /// A comparison one of whose sides contains `probability(…)`: both sides in exact
    /// rational arithmetic (bool).
    Chance {
        op: CmpOp,
        left: Box<Rat>,
        right: Box<Rat>,
    },
    /// `[! φ] ψ` (`agents` empty) and `[A, B ! φ] ψ`: where φ holds, ψ holds after the
    /// announcement of φ (true where φ is false); with `whether` (`[?! φ] ψ`), ψ holds
    /// after the announcement of whether φ, true or false. To everyone, the announcement
    /// keeps the worlds where it holds (of φ, or of whichever of φ and not φ holds
    /// here); to the characters `agents` (sorted, distinct), each of them learns whether
    /// φ holds and the others do not (they know that the group learned it). Diamonds
    /// `<! φ> ψ` are lowered to `not [! φ] not ψ`.
    Announced {
        agents: Vec<CharId>,
        whether: bool,
        formula: Box<Expr>,
        body: Box<Expr>,
    },
    /// `forall p, q: φ` (`exists`: `forall` false): φ holds in the worlds that are this
    /// one with the bool constants `consts` (sorted, distinct) given every (some)
    /// values, knowledge operators inside evaluated at those worlds, whether or not they
    /// are possible.
    Quantified {
        forall: bool,
        consts: Vec<ConstId>,
        body: Box<Expr>,
    },
    /// The expression itself, held by reference (shared between threads like the rest
    /// of a program): a changed constant's term (over the
    /// values at the story's start, free of knowledge operators), which every later
    /// term and formula that reads the constant shares instead of copying. Only the
    /// engine's driver makes them ([`Expr::shared`]), and never substitutes into a term;
    /// it means what the expression means, a walk visits it once however many parents
    /// it has, and a substitution substitutes inside it once.
    Shared(Arc<Expr>),
}

/// What the names of a story stand for at one moment of a run (see
/// [`Expr::substitute`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Moment<'t> {
    /// Each constant's term over the values at the story's start (None: itself).
    pub terms: Option<&'t [Expr]>,
    /// Each event's latest occurrence constant (None: it has not happened).
    pub latest: &'t [Option<ConstId>],
}

/// The group knowledge operators. In a world w of a knowledge state with common
/// knowledge κ, a member A of the group G cannot tell w from the worlds v of κ that agree
/// with w on everything A learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupOp {
    /// E_G φ: every member knows φ.
    Everyone,
    /// C_G φ: φ holds in every world reachable from w by one or more steps, each step to
    /// a world some member cannot tell from the one before (the greatest fixpoint of
    /// X = E_G(φ ∧ X)).
    Common,
    /// D_G φ: φ holds in every world of κ that agrees with w on everything any member
    /// learned.
    Distributed,
}

impl GroupOp {
    /// The operator as stories write it.
    pub fn name(self) -> &'static str {
        match self {
            GroupOp::Everyone => "everyone_knows",
            GroupOp::Common => "common_knowledge",
            GroupOp::Distributed => "distributed_knowledge",
        }
    }
}

impl Expr {
    /// `e` held by reference ([`ExprKind::Shared`]), unless it is a constant or a
    /// literal, which are as small as the reference.
    pub fn shared(e: Expr) -> Expr {
        match e.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Const(_) | ExprKind::Shared(_) => e,
            _ => Expr {
                ty: e.ty,
                span: e.span,
                kind: ExprKind::Shared(Arc::new(e)),
            },
        }
    }

    /// Calls `f` on every subexpression, `self` first, stopping at the first error; a
    /// shared subexpression ([`ExprKind::Shared`]) once.
    pub fn walk<E>(&self, f: &mut dyn FnMut(&Expr) -> Result<(), E>) -> Result<(), E> {
        self.walk_once(f, &mut HashSet::new())
    }

    fn walk_once<E>(
        &self,
        f: &mut dyn FnMut(&Expr) -> Result<(), E>,
        seen: &mut HashSet<*const Expr>,
    ) -> Result<(), E> {
        f(self)?;
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Const(_) | ExprKind::Latest(_) => {
                Ok(())
            }
            ExprKind::Neg(a) | ExprKind::Not(a) => a.walk_once(f, seen),
            ExprKind::Arith(_, a, b) | ExprKind::Cmp(_, a, b) | ExprKind::Logic(_, a, b) => {
                a.walk_once(f, seen)?;
                b.walk_once(f, seen)
            }
            ExprKind::Ite(c, a, b) => {
                c.walk_once(f, seen)?;
                a.walk_once(f, seen)?;
                b.walk_once(f, seen)
            }
            ExprKind::In { tuple, set } => tuple
                .iter()
                .chain(set.iter().flatten())
                .try_for_each(|x| x.walk_once(f, seen)),
            ExprKind::Knows { formula, .. } | ExprKind::Believes { formula, .. } => {
                formula.walk_once(f, seen)
            }
            ExprKind::KnowsValue { exprs, .. } | ExprKind::BelievesValue { exprs, .. } => {
                exprs.iter().try_for_each(|x| x.walk_once(f, seen))
            }
            ExprKind::At { body, .. } => body.walk_once(f, seen),
            ExprKind::Group { formula, .. } => formula.walk_once(f, seen),
            ExprKind::Shared(inner) => {
                if seen.insert(Arc::as_ptr(inner)) {
                    inner.walk_once(f, seen)
                } else {
                    Ok(())
                }
            }
            ExprKind::Chance { left, right, .. } => {
                left.each_expr(&mut |x| x.walk_once(f, seen))?;
                right.each_expr(&mut |x| x.walk_once(f, seen))
            }
            ExprKind::Announced { formula, body, .. } => {
                formula.walk_once(f, seen)?;
                body.walk_once(f, seen)
            }
            ExprKind::Quantified { body, .. } => body.walk_once(f, seen),
        }
    }

    /// The expression as a run reads it at one moment: every constant replaced by its
    /// term in `now.terms` (None: by itself) and every `Latest(e)` by the occurrence in
    /// `now.latest` (None: left as it is), and inside `at(c, …)` by those of `at(c)`:
    /// what a story that changed constants (`x := e`) or ran events means by its names,
    /// over the values at its start and the cases that happened.
    ///
    /// A shared subexpression is substituted once, and the result shared in turn.
    pub fn substitute<'t>(&self, now: Moment<'t>, at: &dyn Fn(CheckpointId) -> Moment<'t>) -> Expr {
        self.substitute_once(now, at, &RefCell::new(HashMap::new()))
    }

    fn substitute_once<'t>(
        &self,
        now: Moment<'t>,
        at: &dyn Fn(CheckpointId) -> Moment<'t>,
        done: &RefCell<HashMap<*const Expr, Arc<Expr>>>,
    ) -> Expr {
        let terms = now.terms;
        let sub = |x: &Expr| Box::new(x.substitute_once(now, at, done));
        let all = |xs: &[Expr]| -> Vec<Expr> {
            xs.iter()
                .map(|x| x.substitute_once(now, at, done))
                .collect()
        };
        let kind = match &self.kind {
            ExprKind::Const(c) => match terms {
                Some(terms) => {
                    return Expr {
                        span: self.span,
                        ..terms[c.0].clone()
                    };
                }
                None => ExprKind::Const(*c),
            },
            ExprKind::Int(n) => ExprKind::Int(*n),
            ExprKind::Shared(inner) => {
                let key = Arc::as_ptr(inner);
                let known = done.borrow().get(&key).cloned();
                ExprKind::Shared(match known {
                    Some(e) => e,
                    None => {
                        let e = Arc::new(inner.substitute_once(now, at, done));
                        done.borrow_mut().insert(key, e.clone());
                        e
                    }
                })
            }
            ExprKind::Latest(e) => match now.latest.get(e.0).copied().flatten() {
                Some(c) => ExprKind::Const(c),
                None => ExprKind::Latest(*e),
            },
            ExprKind::Bool(b) => ExprKind::Bool(*b),
            ExprKind::Neg(a) => ExprKind::Neg(sub(a)),
            ExprKind::Not(a) => ExprKind::Not(sub(a)),
            ExprKind::Arith(op, a, b) => ExprKind::Arith(*op, sub(a), sub(b)),
            ExprKind::Cmp(op, a, b) => ExprKind::Cmp(*op, sub(a), sub(b)),
            ExprKind::Logic(op, a, b) => ExprKind::Logic(*op, sub(a), sub(b)),
            ExprKind::Ite(c, a, b) => ExprKind::Ite(sub(c), sub(a), sub(b)),
            ExprKind::In { tuple, set } => ExprKind::In {
                tuple: all(tuple),
                set: set.iter().map(|item| all(item)).collect(),
            },
            ExprKind::Knows { agent, formula } => ExprKind::Knows {
                agent: *agent,
                formula: sub(formula),
            },
            ExprKind::KnowsValue { agent, exprs } => ExprKind::KnowsValue {
                agent: *agent,
                exprs: all(exprs),
            },
            ExprKind::Believes { agent, formula } => ExprKind::Believes {
                agent: *agent,
                formula: sub(formula),
            },
            ExprKind::BelievesValue { agent, exprs } => ExprKind::BelievesValue {
                agent: *agent,
                exprs: all(exprs),
            },
            ExprKind::At { checkpoint, body } => ExprKind::At {
                checkpoint: *checkpoint,
                body: Box::new(body.substitute(at(*checkpoint), at)),
            },
            ExprKind::Group {
                op,
                agents,
                formula,
            } => ExprKind::Group {
                op: *op,
                agents: agents.clone(),
                formula: sub(formula),
            },
            ExprKind::Chance { op, left, right } => ExprKind::Chance {
                op: *op,
                left: Box::new(left.substitute(now, at)),
                right: Box::new(right.substitute(now, at)),
            },
            ExprKind::Announced {
                agents,
                whether,
                formula,
                body,
            } => ExprKind::Announced {
                agents: agents.clone(),
                whether: *whether,
                formula: sub(formula),
                body: sub(body),
            },
            ExprKind::Quantified {
                forall,
                consts,
                body,
            } => ExprKind::Quantified {
                forall: *forall,
                consts: consts.clone(),
                body: sub(body),
            },
        };
        Expr {
            kind,
            ty: self.ty,
            span: self.span,
        }
    }

    /// Whether a knowledge operator (`knows`, `knows_value`, `believes`,
    /// `believes_value`, `at`, group knowledge, an announcement) occurs in it.
    pub fn mentions_knowledge(&self) -> bool {
        self.walk(&mut |x| if x.is_knowledge() { Err(()) } else { Ok(()) })
            .is_err()
    }

    /// Whether this node is a knowledge operator (`knows`, `knows_value`, `believes`,
    /// `believes_value`, `at`, group knowledge, an announcement `[! φ] ψ`), or a
    /// comparison of probabilities (which depend on the knowledge state as they do).
    pub fn is_knowledge(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Knows { .. }
                | ExprKind::KnowsValue { .. }
                | ExprKind::Believes { .. }
                | ExprKind::BelievesValue { .. }
                | ExprKind::At { .. }
                | ExprKind::Group { .. }
                | ExprKind::Chance { .. }
                | ExprKind::Announced { .. }
        )
    }

    /// Whether a probability is compared in it.
    pub fn mentions_probability(&self) -> bool {
        self.walk(&mut |x| match x.kind {
            ExprKind::Chance { .. } => Err(()),
            _ => Ok(()),
        })
        .is_err()
    }

    /// The sides holding a probability of its comparisons outside knowledge operators
    /// (through `not`, `and`, `or`, `->`, `<->` and a formula's `if`), in the order
    /// written: the terms a failing check reports the values of.
    pub fn compared_probabilities(&self) -> Vec<&Rat> {
        fn walk<'e>(e: &'e Expr, out: &mut Vec<&'e Rat>) {
            match &e.kind {
                ExprKind::Chance { left, right, .. } => {
                    out.extend(
                        [&**left, &**right]
                            .into_iter()
                            .filter(|r| r.has_probability()),
                    );
                }
                ExprKind::Not(a) => walk(a, out),
                ExprKind::Logic(_, a, b) => {
                    walk(a, out);
                    walk(b, out);
                }
                ExprKind::Ite(c, a, b) if e.ty == Ty::Bool => {
                    for x in [c, a, b] {
                        walk(x, out);
                    }
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(self, &mut out);
        out
    }

    /// Whether a quantifier over bool constants (`forall p: φ`) occurs in it.
    pub fn mentions_quantifier(&self) -> bool {
        self.walk(&mut |x| match x.kind {
            ExprKind::Quantified { .. } => Err(()),
            _ => Ok(()),
        })
        .is_err()
    }
}
