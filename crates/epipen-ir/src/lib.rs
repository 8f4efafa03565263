//! The lowered story: names resolved to ids, every expression typed. This is what the
//! engine and the brute-force evaluator both consume.

pub use epipen_syntax::Span;

pub mod arith;
mod show;
mod value;

pub use show::Namer;
pub use value::{Value, World};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CharId(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstId(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CheckpointId(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub usize);

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
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    pub characters: Vec<Character>,
    pub constants: Vec<Constant>,
    pub checkpoints: Vec<Checkpoint>,
    pub enums: Vec<EnumDef>,
    pub statements: Vec<Stmt>,
    /// What each `sample(k, {…})` drew, in the order they were compiled.
    pub samples: Vec<SampleDraw>,
}

/// The items one `sample(k, {…})` drew: where it is written, and the spans of the
/// chosen items, in the set's order.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleDraw {
    pub span: Span,
    pub items: Vec<Span>,
}

impl Program {
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
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `announce φ` (speaker `None`: κ := κ ∧ φ) or `A: φ` (κ := κ ∧ K_A φ).
    Announce {
        speaker: Option<CharId>,
        formula: Expr,
    },
    /// `A learns e`: A gets access to the value of `e` (a constant or any expression
    /// without knowledge operators).
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
    /// `x := e`: from here on, `x` has the value `e` had (in each world) just before:
    /// a public change. `e` has no knowledge operators and the type of `x`.
    Assign { target: ConstId, value: Expr },
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogicOp {
    And,
    Or,
    Implies,
    Iff,
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
    /// `at(c, φ)`: φ with its knowledge operators evaluated in the state saved at `c`.
    At {
        checkpoint: CheckpointId,
        body: Box<Expr>,
    },
    /// `everyone_knows(G, φ)`, `common_knowledge(G, φ)`, `distributed_knowledge(G, φ)`:
    /// group knowledge of the characters `agents` (sorted, distinct, at least one).
    Group {
        op: GroupOp,
        agents: Vec<CharId>,
        formula: Box<Expr>,
    },
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
    /// Calls `f` on every subexpression, `self` first, stopping at the first error.
    pub fn walk<E>(&self, f: &mut dyn FnMut(&Expr) -> Result<(), E>) -> Result<(), E> {
        f(self)?;
        match &self.kind {
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Const(_) => Ok(()),
            ExprKind::Neg(a) | ExprKind::Not(a) => a.walk(f),
            ExprKind::Arith(_, a, b) | ExprKind::Cmp(_, a, b) | ExprKind::Logic(_, a, b) => {
                a.walk(f)?;
                b.walk(f)
            }
            ExprKind::Ite(c, a, b) => {
                c.walk(f)?;
                a.walk(f)?;
                b.walk(f)
            }
            ExprKind::In { tuple, set } => tuple
                .iter()
                .chain(set.iter().flatten())
                .try_for_each(|x| x.walk(f)),
            ExprKind::Knows { formula, .. } => formula.walk(f),
            ExprKind::KnowsValue { exprs, .. } => exprs.iter().try_for_each(|x| x.walk(f)),
            ExprKind::At { body, .. } => body.walk(f),
            ExprKind::Group { formula, .. } => formula.walk(f),
        }
    }

    /// The expression with every constant replaced by its term in `terms` (None: by
    /// itself), and inside `at(c, …)` by its term in `at(c)`: what a story that changed
    /// constants (`x := e`) means by its names, over the values they had at its start.
    pub fn substitute<'t>(
        &self,
        terms: Option<&'t [Expr]>,
        at: &dyn Fn(CheckpointId) -> Option<&'t [Expr]>,
    ) -> Expr {
        let sub = |x: &Expr| Box::new(x.substitute(terms, at));
        let all =
            |xs: &[Expr]| -> Vec<Expr> { xs.iter().map(|x| x.substitute(terms, at)).collect() };
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
        };
        Expr {
            kind,
            ty: self.ty,
            span: self.span,
        }
    }

    /// Whether a knowledge operator (`knows`, `knows_value`, `at`, group knowledge)
    /// occurs in it.
    pub fn mentions_knowledge(&self) -> bool {
        self.walk(&mut |x| if x.is_knowledge() { Err(()) } else { Ok(()) })
            .is_err()
    }

    /// Whether this node is a knowledge operator (`knows`, `knows_value`, `at`, group
    /// knowledge).
    pub fn is_knowledge(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Knows { .. }
                | ExprKind::KnowsValue { .. }
                | ExprKind::At { .. }
                | ExprKind::Group { .. }
        )
    }
}
