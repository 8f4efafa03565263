//! The story's syntax tree, exactly as written (names unresolved, types unchecked).

use super::span::Span;

/// A whole story file.
#[derive(Debug, Clone, PartialEq)]
pub struct Story {
    pub statements: Vec<Stmt>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortName {
    Int,
    Bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    /// From the statement's first token to its last.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `characters Albert, Bernard`
    Characters(Vec<Ident>),
    /// `int month, day` / `bool rain`
    Constants { sort: SortName, names: Vec<Ident> },
    /// `announce <expr>`
    Announce(Expr),
    /// `Albert learns <expr>`
    Learns { who: Ident, what: Expr },
    /// `Albert: <expr>`
    Says { speaker: Ident, what: Expr },
    /// `checkpoint start`
    Checkpoint(Ident),
    /// `worlds` / `worlds 25` (the span is the number's)
    Worlds { limit: Option<(u64, Span)> },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-e`
    Neg,
    /// `not e`
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Implies,
    Iff,
}

impl BinOp {
    /// The operator as written in a story.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Implies => "->",
            BinOp::Iff => "<->",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// An integer literal (non-negative; `-5` is `Unary(Neg, 5)`).
    Int(i64),
    /// `true` / `false`
    Bool(bool),
    /// A name: a constant, a character (as an agent argument), or a checkpoint (in `at`).
    Name(Ident),
    Unary {
        op: UnOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `if c then a else b`
    Ite {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `(e1, e2)`: only meaningful on either side of `in`; `(e)` parses as `e` itself.
    Tuple(Vec<Expr>),
    /// `e in {a, b}` or `(e1, e2) in {(a1, a2), (b1, b2)}`.
    In {
        element: Box<Expr>,
        set: Vec<Expr>,
    },
    /// `name(args)`: `knows`, `knows_value`, `at` (resolved by `lower`).
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
}
