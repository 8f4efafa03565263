//! The story's syntax tree, exactly as written (names unresolved, types unchecked).

use super::span::Span;

/// A whole story file.
#[derive(Debug, Clone, PartialEq)]
pub struct Story {
    pub statements: Vec<Stmt>,
    /// `#! backend z3` in the first lines: the backend the story pins, and where its
    /// name is written.
    pub backend: Option<(Backend, Span)>,
}

/// A backend: what a story pins with `#! backend …`, what `--backend`, the playground's
/// menu and Python's `backend=` name (the one list of them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    #[default]
    Auto,
    Z3,
    Bdd,
    Explicit,
}

impl Backend {
    /// Every backend, the default first.
    pub const ALL: [Backend; 4] = [Backend::Auto, Backend::Z3, Backend::Bdd, Backend::Explicit];

    /// The backend named `name` (as [`Backend::name`] spells it).
    pub fn named(name: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    /// As the story (and `--backend`) spells it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Z3 => "z3",
            Backend::Bdd => "bdd",
            Backend::Explicit => "explicit",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// The sort of declared constants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortName {
    Int,
    Bool,
    /// `Colour wall[5]`: an enum's name.
    Enum(Ident),
}

/// One declared name: `x`, or a family `x[size]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    pub name: Ident,
    /// The size expression of a family (compile-time).
    pub size: Option<Expr>,
}

/// `{ statements }`
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub statements: Vec<Stmt>,
    /// From `{` to `}`.
    pub span: Span,
}

/// The values a loop or an aggregate runs over.
#[derive(Debug, Clone, PartialEq)]
pub enum Range {
    /// `lo..hi`: the integers lo, lo + 1, …, hi - 1.
    Between { lo: Expr, hi: Expr },
    /// `{0, 7, 35}`: the listed values in the order written (compile-time ints);
    /// `span` covers the braces.
    List { items: Vec<Expr>, span: Span },
}

impl Range {
    /// Where the range is written.
    pub fn span(&self) -> Span {
        match self {
            Range::Between { lo, hi } => lo.span.to(hi.span),
            Range::List { span, .. } => *span,
        }
    }
}

/// `i in lo..hi` (or `i in {…}`) in an aggregate.
#[derive(Debug, Clone, PartialEq)]
pub struct Binder {
    pub var: Ident,
    pub range: Range,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    /// From the statement's first token to its last.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// `characters Albert, child[n]`
    Characters(Vec<Decl>),
    /// `int month, day` / `bool rain, muddy[n]` / `Colour wall[5], door`
    Constants { sort: SortName, names: Vec<Decl> },
    /// `const n = 6`
    Const { name: Ident, value: Expr },
    /// `enum Colour { red, green, blue }`
    Enum { name: Ident, variants: Vec<Ident> },
    /// `announce <expr>`
    Announce(Expr),
    /// `Albert learns <expr>` / `child[i] learns <expr>` / `Albert learns e1, e2` (as
    /// many learns, one after another); `who` is a name or an index.
    Learns { who: Expr, what: Vec<Expr> },
    /// `Albert: <expr>`; `speaker` is a name or an index.
    Says { speaker: Expr, what: Expr },
    /// `Albert reveals <expr>`; `who` is a name or an index.
    Reveals { who: Expr, what: Expr },
    /// `checkpoint start`
    Checkpoint(Ident),
    /// `worlds` / `worlds 25` (the span is the number's)
    Worlds { limit: Option<(u64, Span)> },
    /// `for i in lo..hi { … }` / `for c in {0, 7, 35} { … }`
    For {
        var: Ident,
        range: Range,
        body: Block,
    },
    /// `if c { … } else { … }`; `else if` is an `else` block holding one `If`.
    If {
        cond: Expr,
        then: Block,
        otherwise: Option<Block>,
    },
    /// `simultaneously { … }`
    Simultaneously(Block),
    /// `actual <expr>`
    Actual(Expr),
    /// `repeat max N { … } until <expr>`
    Repeat { max: Expr, body: Block, until: Expr },
    /// `assert_adds_ck <expr> { … }`
    AssertAddsCk { hint: Expr, body: Block },
    /// `check <expr>`
    Check(Expr),
    /// `x := <expr>` / `b[i] := <expr>` / `x, y := <expr>, <expr>`: the targets (names or
    /// indices) and their values, as many of each.
    Assign {
        targets: Vec<Expr>,
        values: Vec<Expr>,
    },
    /// `check actual <expr>`
    CheckActual(Expr),
    /// `Sally expects <expr>`: soft information (belief).
    Expects { who: Expr, what: Expr },
    /// `def name(a, b) = <expr>` / `def name = <expr>`: a named formula or term,
    /// expanded where it is used.
    Def {
        name: Ident,
        params: Vec<Ident>,
        body: Expr,
    },
    /// `where <expr>`: prints the worlds possible here where the formula holds.
    Where(Expr),
    /// `prior <expr>`: each world's weight (an int expression of the constants).
    Prior(Expr),
    /// `show <expr>`: prints the value of an expression (a probability exactly).
    Show(Expr),
    /// `event move { … }`: the event's name and the lines of its block.
    Event { name: Ident, body: Vec<EventItem> },
    /// `action call[i, j] by P[i] if φ { … }`: an action a plan may use.
    Action(Box<Action>),
    /// `do flip, call[0, 1]: c`: declared actions executed in order.
    Do(Vec<DoItem>),
    /// `plan [all] φ [max D] [keeping ψ] [coordinated]`.
    Plan(Box<Plan>),
}

/// `action NAME [by A] [if φ] { … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    /// Its name, with compile-time indices for a member of a family (`call[i, j]`).
    pub name: CaseName,
    /// `by A`: a name or an index (`P[i]`).
    pub owner: Option<Expr>,
    /// `if φ`: when it can be done.
    pub guard: Option<Expr>,
    /// The lines of its block, as an event's.
    pub body: Vec<EventItem>,
}

/// One item of a `do` line: `call[0, 1]` or `flip: heads`.
#[derive(Debug, Clone, PartialEq)]
pub struct DoItem {
    /// The action as written (its span is the item's).
    pub action: CaseName,
    /// `: CASE`: the case that happens in the actual world.
    pub case: Option<CaseName>,
}

/// `plan [all] φ [max D] [keeping ψ] [coordinated]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// `plan all`: every shortest plan.
    pub all: bool,
    /// φ, the goal.
    pub goal: Expr,
    /// `max D` (compile-time); None: the default.
    pub max: Option<Expr>,
    /// `keeping ψ`.
    pub keeping: Option<Expr>,
    /// Where `coordinated` is written, if it is.
    pub coordinated: Option<Span>,
}

/// A line of an `event` block.
#[derive(Debug, Clone, PartialEq)]
pub struct EventItem {
    pub kind: EventItemKind,
    /// The whole line (or the whole `for`/`if`).
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum EventItemKind {
    /// `moved if φ weight e then x := e, y := f`: a case, its precondition, its weight and
    /// its changes
    /// (targets are names or indices).
    Case {
        name: CaseName,
        pre: Option<Expr>,
        /// `weight e`: the case's weight among the cases possible in a world (boxed:
        /// most cases have none, and a story of many actions keeps thousands of cases).
        weight: Option<Box<Expr>>,
        changes: Vec<Change>,
    },
    /// `Anne sees moved | stayed`: the groups of cases `who` tells apart.
    Sees {
        who: Expr,
        groups: Vec<Vec<GroupItem>>,
    },
    /// `Sally expects stayed > moved`: groups of cases, most plausible first.
    Expects {
        who: Expr,
        groups: Vec<Vec<GroupItem>>,
    },
    /// `actual moved`: the case that happened.
    Actual(CaseName),
    /// `for i in lo..hi { … }` around lines of the block (the range boxed, so that a
    /// line is no larger than a case).
    For {
        var: Ident,
        range: Box<Range>,
        body: Vec<EventItem>,
    },
    /// `if c { … } else { … }` around lines of the block.
    If {
        cond: Expr,
        then: Vec<EventItem>,
        otherwise: Option<Vec<EventItem>>,
    },
}

/// One item of a case's `then` list: `x := e`, or `for i in a..b { x[i] := e, … }`
/// around more of them (unrolled; every value is read before any is written).
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// `x := e` / `b[i] := e` (the target is a name or an index).
    One { target: Expr, value: Expr },
    /// `for i in lo..hi { … }`: the changes inside, once for each i.
    For {
        var: Ident,
        range: Range,
        body: Vec<Change>,
        span: Span,
    },
}

/// A case as written: `moved`, `face[f]`, `call[i, j]` (indices are compile-time).
#[derive(Debug, Clone, PartialEq)]
pub struct CaseName {
    pub name: Ident,
    pub indices: Vec<Expr>,
    pub span: Span,
}

/// One item of a group in a `sees` or `expects` line (a story of many events keeps
/// thousands: `each` and `all` keep their parts boxed, so that an item is a case's size).
#[derive(Debug, Clone, PartialEq)]
pub enum GroupItem {
    /// A case (`moved`, `face[3]`), or a whole family of cases (`face`).
    Case(CaseName),
    /// `each(i in 0..n if …: call[i, k])`: every case it names, each a group of its own
    /// (it stands for a whole group, between `|`s).
    Each {
        binders: Vec<Binder>,
        guard: Option<Box<Expr>>,
        case: Box<CaseName>,
        span: Span,
    },
    /// `all(i in 0..n if …: call[i, k])`: every case it names, in this group.
    All {
        binders: Vec<Binder>,
        guard: Option<Box<Expr>>,
        case: Box<CaseName>,
        span: Span,
    },
    /// `others`: every case the line names nowhere else, as one group.
    Others(Span),
}

impl GroupItem {
    /// Where the item is written.
    pub fn span(&self) -> Span {
        match self {
            GroupItem::Case(c) => c.span,
            GroupItem::Each { span, .. } | GroupItem::All { span, .. } => *span,
            GroupItem::Others(span) => *span,
        }
    }
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
    /// `e in {a, b}` or `(e1, e2) in {(a1, a2), (b1, b2)}`; with `sample`, `e in
    /// sample(k, {…})`: k items of the set drawn at random when the story is compiled.
    In {
        element: Box<Expr>,
        set: Vec<Expr>,
        sample: Option<Sample>,
    },
    /// `e in lo..hi`: `lo <= e and e < hi`, the integers of a range as a loop's.
    InRange {
        element: Box<Expr>,
        lo: Box<Expr>,
        hi: Box<Expr>,
    },
    /// `name(args)`: `knows`, `knows_value`, `at`, `abs`, … (resolved by `lower`).
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
    /// `muddy[i + 1]`: a member of a family.
    Index {
        base: Ident,
        index: Box<Expr>,
    },
    /// `all(i in 0..n, j in 0..n if i != j: body)`: `all`, `any`, `sum`, `count`,
    /// `distinct` (resolved by `lower`).
    Aggregate {
        name: Ident,
        binders: Vec<Binder>,
        guard: Option<Box<Expr>>,
        body: Box<Expr>,
    },
    /// `[! φ] ψ`, `[?! φ] ψ`, `[A, B ! φ] ψ`, `[A, B ?! φ] ψ` and the diamonds `<! φ> ψ`,
    /// `<?! φ> ψ`, `<A, B ! φ> ψ`, `<A, B ?! φ> ψ`: ψ after an announcement of φ (of
    /// whether φ with `?!`), to everyone or to the characters `group` (names, members
    /// `child[i]`, or families named whole).
    Announced {
        group: Vec<Expr>,
        whether: bool,
        diamond: bool,
        formula: Box<Expr>,
        body: Box<Expr>,
    },
    /// `forall p, q: φ` / `exists p: φ`: φ whichever values (some values) the bool
    /// constants `vars` had in this world.
    Quantified {
        forall: bool,
        vars: Vec<Expr>,
        body: Box<Expr>,
    },
    /// The case of the `k`-th execution (from 1) of the event or action `event`, which
    /// worlds print as `event#k`: later executions do not change which one it names (the
    /// plain name names the latest). The parser never produces it (`#` starts a
    /// comment); it is the builders' (the Rust `Story`'s `Happened::occurrence`).
    Execution {
        event: Ident,
        k: usize,
    },
}

/// `sample(k, {…})` on the right of `in`: the number of items to draw, and where the
/// whole `sample(…)` is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub count: Box<Expr>,
    pub span: Span,
}

// A story of many actions (an mA* file's frames) keeps tens of thousands of these while
// it is lowered: a field that makes them larger is a choice to make knowingly (box it
// if it is rare). Grapevine_5 pl_2's AST took 20 MB before fdb7e8d (docs/benchmarks.md,
// "Misses").
#[cfg(target_pointer_width = "64")]
const _: () = {
    assert!(std::mem::size_of::<Expr>() <= 96);
    assert!(std::mem::size_of::<CaseName>() <= 80);
    assert!(std::mem::size_of::<GroupItem>() <= 80);
    assert!(std::mem::size_of::<EventItem>() <= 224);
};
