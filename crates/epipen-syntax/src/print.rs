//! Expressions as a story writes them: [`Display`] for
//! [`ast::Expr`](crate::ast::Expr) (and for the [`Binder`] and [`Range`] of an aggregate).
//!
//! What the printer guarantees, for every tree the parser can produce: the printed text,
//! parsed back as an expression ([`parse_expr`](crate::parse_expr)), gives the same
//! tree, spans aside; and it has the fewest parentheses that do so, following the
//! parser's precedence and associativity exactly:
//!
//! | level (loosest first) | operators | associativity |
//! |---|---|---|
//! | 0 | `<->` | left: `a <-> b <-> c` is `(a <-> b) <-> c` |
//! | 1 | `->` | right: `a -> b -> c` is `a -> (b -> c)` |
//! | 2 | `or` | left |
//! | 3 | `and` | left |
//! | 4 | prefixes `not φ`, `[! φ] ψ`, `<! φ> ψ` | apply to a comparison (or another prefix) |
//! | 5 | `==`, `!=`, `<`, `<=`, `>`, `>=`, `in` | none: a comparison of comparisons is parenthesised |
//! | 6 | `+`, `-` | left |
//! | 7 | `*`, `/`, `%` | left |
//! | 8 | prefix `-` | applies to an atom (or another `-`): `-a * b` is `(-a) * b` |
//! | 9 | atoms: literals, names, calls, `m[i]`, aggregates, tuples, `if`, `forall`/`exists` | |
//!
//! `if c then a else b` and `forall p: φ` / `exists p: φ` are atoms, but their last part
//! extends as far right as possible: they are parenthesised when an operator follows
//! that their last part would take (`(if c then 1 else 2) + 3`; but not an arithmetic
//! operator after a last part ending with a membership `x in {…}`, which only `and`,
//! `or`, `->`, `<->` continue). Inside the formula of a diamond `<! φ> ψ`, a `>` ends φ,
//! so a comparison with `>` there is parenthesised: `<! (x > 3)> ψ`.
//!
//! Spacing is the stories': one space each side of a binary operator (`a + b * c`,
//! `month == 5`), `not φ`, `-x`, `, ` between the items of calls, tuples and sets
//! (`knows(Albert, month == 5)`, `x in {1, 2, 3}`), ranges without spaces (`0..n`).
//!
//! Trees only builders make print as near to story text as they can, without the
//! guarantee: [`ExprKind::Execution`] prints as `tell#2` (worlds' notation for the
//! second execution of `tell`, which is not story text: `#` starts a comment), a
//! negative [`ExprKind::Int`] as `-5` (which parses as `-` applied to `5`), a tuple of
//! one item as `(a,)`.

use std::fmt::{self, Display, Formatter, Write};

use crate::ast::{BinOp, Binder, Expr, ExprKind, Range, UnOp};

/// Where an expression is printed.
#[derive(Clone, Copy)]
struct Ctx {
    /// The loosest level the position accepts unparenthesised (see the module doc).
    min: u8,
    /// The level of the operator that follows, if one does (an open-ended `if` or
    /// quantifier may swallow it).
    followed: Option<u8>,
    /// Inside a diamond's formula, outside any bracket: a `>` would end the formula.
    no_gt: bool,
}

impl Ctx {
    /// A position with nothing around it: the whole text, or inside brackets.
    const TOP: Ctx = Ctx {
        min: 0,
        followed: None,
        no_gt: false,
    };

    fn at(self, min: u8, followed: Option<u8>) -> Ctx {
        Ctx {
            min,
            followed,
            no_gt: self.no_gt,
        }
    }
}

const ATOM: u8 = 9;
const NEG: u8 = 8;
const PREFIX: u8 = 4;
const COMPARISON: u8 = 5;
const ADDITIVE: u8 = 6;

/// How tightly a binary operator binds: its level, and the levels its left and right
/// operands need.
fn binary_levels(op: BinOp) -> (u8, u8, u8) {
    match op {
        BinOp::Iff => (0, 0, 1),
        BinOp::Implies => (1, 2, 1),
        BinOp::Or => (2, 2, 3),
        BinOp::And => (3, 3, PREFIX),
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            (COMPARISON, ADDITIVE, ADDITIVE)
        }
        BinOp::Add | BinOp::Sub => (ADDITIVE, ADDITIVE, 7),
        BinOp::Mul | BinOp::Div | BinOp::Mod => (7, 7, NEG),
    }
}

/// The level of `e` printed bare.
fn level(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary { op, .. } => binary_levels(*op).0,
        ExprKind::In { .. } | ExprKind::InRange { .. } => COMPARISON,
        ExprKind::Unary { op: UnOp::Not, .. } | ExprKind::Announced { .. } => PREFIX,
        ExprKind::Unary { op: UnOp::Neg, .. } => NEG,
        ExprKind::Int(n) if *n < 0 => NEG,
        _ => ATOM,
    }
}

/// Whether `e` printed bare ends with a membership `x in {…}` reached only through
/// `and`, `or`, `->`, `<->` and prefixes: then, as the last part of an `if` or a
/// quantifier, it leaves no arithmetic operator's loop open, and an arithmetic
/// operator after it applies to the whole `if` or quantifier. (Any other end, an
/// `if` or quantifier included, is an operand an arithmetic operator can continue.)
fn ends_with_membership(e: &Expr) -> bool {
    let bare = |e: &Expr, min: u8| level(e) >= min && ends_with_membership(e);
    match &e.kind {
        ExprKind::In { .. } => true,
        ExprKind::Binary {
            op: op @ (BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Iff),
            rhs,
            ..
        } => bare(rhs, binary_levels(*op).2),
        ExprKind::Unary {
            op: UnOp::Not,
            operand: body,
        }
        | ExprKind::Announced { body, .. } => bare(body, PREFIX),
        _ => false,
    }
}

/// Whether `e` needs parentheses at `ctx`.
fn needs_parens(e: &Expr, ctx: Ctx) -> bool {
    let open_ended = matches!(e.kind, ExprKind::Ite { .. } | ExprKind::Quantified { .. });
    // The last part of an open-ended expression swallows the operator that follows,
    // unless it ends with a membership and the operator is arithmetic.
    let swallows = |next: u8| {
        next <= COMPARISON
            || !matches!(&e.kind,
                ExprKind::Ite { otherwise: tail, .. } | ExprKind::Quantified { body: tail, .. }
                    if ends_with_membership(tail))
    };
    level(e) < ctx.min
        || (open_ended && ctx.followed.is_some_and(swallows))
        || (ctx.no_gt && matches!(e.kind, ExprKind::Binary { op: BinOp::Gt, .. }))
}

impl Display for Expr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_expr(f, self, Ctx::TOP)
    }
}

impl Display for Binder {
    /// `i in 0..n` / `c in {0, 7, 35}`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} in {}", self.var.name, self.range)
    }
}

impl Display for Range {
    /// `lo..hi` / `{0, 7, 35}`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Range::Between { lo, hi } => write_range(f, lo, hi, Ctx::TOP),
            Range::List { items, .. } => {
                f.write_char('{')?;
                write_list(f, items)?;
                f.write_char('}')
            }
        }
    }
}

/// `lo..hi` (of a binder, or a membership `e in lo..hi` at `ctx`).
fn write_range(f: &mut Formatter<'_>, lo: &Expr, hi: &Expr, ctx: Ctx) -> fmt::Result {
    // `i in sample(…)` would read as a sampled membership.
    let sample = matches!(&lo.kind, ExprKind::Call { name, .. } if name.name == "sample");
    if sample {
        write!(f, "({lo})")?;
    } else {
        write_expr(f, lo, ctx.at(ADDITIVE, None))?;
    }
    f.write_str("..")?;
    write_expr(f, hi, ctx.at(ADDITIVE, ctx.followed))
}

/// `e` at `ctx`, parenthesised if it must be.
fn write_expr(f: &mut Formatter<'_>, e: &Expr, ctx: Ctx) -> fmt::Result {
    if needs_parens(e, ctx) {
        f.write_char('(')?;
        write_bare(f, e, Ctx::TOP)?;
        f.write_char(')')
    } else {
        write_bare(f, e, ctx)
    }
}

/// Items separated by `, `, each whole (inside brackets: an expression at
/// [`Ctx::TOP`], or an aggregate's binder).
fn write_list<T: Display>(f: &mut Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// `e` without parentheses of its own; `ctx` is where it stands.
fn write_bare(f: &mut Formatter<'_>, e: &Expr, ctx: Ctx) -> fmt::Result {
    match &e.kind {
        ExprKind::Int(n) => write!(f, "{n}"),
        ExprKind::Bool(b) => write!(f, "{b}"),
        ExprKind::Name(id) => f.write_str(&id.name),
        ExprKind::Unary { op, operand } => {
            let (text, min) = match op {
                UnOp::Neg => {
                    // `- -x`, `- -5`: no `--` run together.
                    let neg = matches!(&operand.kind, ExprKind::Unary { op: UnOp::Neg, .. })
                        || matches!(operand.kind, ExprKind::Int(n) if n < 0);
                    (if neg { "- " } else { "-" }, NEG)
                }
                UnOp::Not => ("not ", PREFIX),
            };
            f.write_str(text)?;
            write_expr(f, operand, ctx.at(min, ctx.followed))
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let (level, left, right) = binary_levels(*op);
            write_expr(f, lhs, ctx.at(left, Some(level)))?;
            write!(f, " {} ", op.symbol())?;
            write_expr(f, rhs, ctx.at(right, ctx.followed))
        }
        ExprKind::Ite {
            cond,
            then,
            otherwise,
        } => {
            // `then` and `else` end the parts before them: no parentheses needed there.
            f.write_str("if ")?;
            write_expr(f, cond, Ctx::TOP)?;
            f.write_str(" then ")?;
            write_expr(f, then, Ctx::TOP)?;
            f.write_str(" else ")?;
            write_expr(f, otherwise, Ctx::TOP)
        }
        ExprKind::Tuple(items) => {
            f.write_char('(')?;
            write_list(f, items)?;
            if items.len() == 1 {
                f.write_char(',')?;
            }
            f.write_char(')')
        }
        ExprKind::In {
            element,
            set,
            sample,
        } => {
            write_expr(f, element, ctx.at(ADDITIVE, Some(COMPARISON)))?;
            f.write_str(" in ")?;
            if let Some(sample) = sample {
                f.write_str("sample(")?;
                write_expr(f, &sample.count, Ctx::TOP)?;
                f.write_str(", ")?;
            }
            f.write_char('{')?;
            write_list(f, set)?;
            f.write_char('}')?;
            if sample.is_some() {
                f.write_char(')')?;
            }
            Ok(())
        }
        ExprKind::InRange { element, lo, hi } => {
            write_expr(f, element, ctx.at(ADDITIVE, Some(COMPARISON)))?;
            f.write_str(" in ")?;
            write_range(f, lo, hi, ctx)
        }
        ExprKind::Call { name, args } => {
            write!(f, "{}(", name.name)?;
            for (i, arg) in args.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                if i == 0 && reads_as_binder(args) {
                    write!(f, "({arg})")?;
                } else {
                    write_expr(f, arg, Ctx::TOP)?;
                }
            }
            f.write_char(')')
        }
        ExprKind::Index { base, index } => {
            write!(f, "{}[", base.name)?;
            match &index.kind {
                // `call[i, j]`: the parser reads the items as a tuple.
                ExprKind::Tuple(items) if items.len() > 1 => write_list(f, items)?,
                _ => write_expr(f, index, Ctx::TOP)?,
            }
            f.write_char(']')
        }
        ExprKind::Aggregate {
            name,
            binders,
            guard,
            body,
        } => {
            write!(f, "{}(", name.name)?;
            write_list(f, binders)?;
            if let Some(guard) = guard {
                f.write_str(" if ")?;
                write_expr(f, guard, Ctx::TOP)?;
            }
            f.write_str(": ")?;
            write_expr(f, body, Ctx::TOP)?;
            f.write_char(')')
        }
        ExprKind::Announced {
            group,
            whether,
            diamond,
            formula,
            body,
        } => {
            let (open, close) = if *diamond { ('<', '>') } else { ('[', ']') };
            f.write_char(open)?;
            write_list(f, group)?;
            if !group.is_empty() {
                f.write_char(' ')?;
            }
            f.write_str(if *whether { "?! " } else { "! " })?;
            let formula_ctx = if *diamond {
                // The closing `>` follows; a `>` in φ would close it.
                Ctx {
                    min: 0,
                    followed: Some(COMPARISON),
                    no_gt: true,
                }
            } else {
                Ctx::TOP
            };
            write_expr(f, formula, formula_ctx)?;
            f.write_char(close)?;
            f.write_char(' ')?;
            write_expr(f, body, ctx.at(PREFIX, ctx.followed))
        }
        ExprKind::Quantified { forall, vars, body } => {
            f.write_str(if *forall { "forall " } else { "exists " })?;
            write_list(f, vars)?;
            f.write_str(": ")?;
            write_expr(f, body, Ctx::TOP)
        }
        // Worlds' notation, not story text (`#` starts a comment): builders only.
        ExprKind::Execution { event, k } => write!(f, "{}#{k}", event.name),
    }
}

/// Whether the first of a call's arguments would read as the binders of an aggregate,
/// `f(x in {1, 2}, y in {3})` or `f(x in 1..3, y in {3})`, as the parser's `at_binder`
/// tells them.
fn reads_as_binder(args: &[Expr]) -> bool {
    let Some(first) = args.first() else {
        return false;
    };
    let (element, range_end) = match &first.kind {
        ExprKind::In {
            element,
            sample: None,
            ..
        } => (element, None),
        ExprKind::InRange { element, hi, .. } => (element, Some(hi)),
        _ => return false,
    };
    if !matches!(element.kind, ExprKind::Name(_)) {
        return false;
    }
    let binder_next = args.get(1).is_some_and(|second| {
        let text = second.to_string();
        let word_end = text
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(text.len());
        let word = &text[..word_end];
        word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && !crate::is_keyword(word)
            && text[word_end..].starts_with(" in ")
    });
    if let Some(hi) = range_end {
        // The parser reads a range up to a `:`, `if`, `,` or `)` outside brackets, and
        // a range followed by arguments with a `:` outside brackets as binders.
        let rest: Vec<String> = args[1..].iter().map(ToString::to_string).collect();
        return binder_next
            || ends_range(&hi.to_string(), &["if", ":"])
            || ends_range(&rest.join(", "), &[":"]);
    }
    // The parser looks past the set's first `}` (if no `{` comes before it).
    let text = first.to_string();
    let set = text.find('{').map_or("", |at| &text[at + 1..]);
    let closes = set
        .find(['{', '}'])
        .is_some_and(|at| set.as_bytes()[at] == b'}');
    closes && binder_next
}

/// Whether printed `text` holds one of `stops` (`:`, or the word `if`) outside
/// brackets.
fn ends_range(text: &str, stops: &[&str]) -> bool {
    let mut depth = 0usize;
    let mut previous = ' ';
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => {
                let word_start = !(previous.is_ascii_alphanumeric() || previous == '_');
                let found = stops.iter().any(|stop| {
                    text[at..].starts_with(stop)
                        && (*stop == ":"
                            || (word_start
                                && !text[at + stop.len()..]
                                    .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')))
                });
                if found {
                    return true;
                }
            }
            _ => {}
        }
        previous = c;
    }
    false
}
