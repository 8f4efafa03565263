//! AST nodes written nowhere (their spans empty): what the Rust and Python APIs build
//! for lowering, as a story file would write them.

use crate::ast::{BinOp, Block, Expr, ExprKind, Ident, Stmt, StmtKind, UnOp};
use crate::span::Span;

impl Ident {
    /// The name `name`.
    pub fn nowhere(name: &str) -> Ident {
        Ident {
            name: name.into(),
            span: Span::default(),
        }
    }
}

impl Stmt {
    /// The statement `kind`.
    pub fn nowhere(kind: StmtKind) -> Stmt {
        Stmt {
            kind,
            span: Span::default(),
        }
    }
}

impl Block {
    /// `{ statements }`.
    pub fn nowhere(statements: Vec<Stmt>) -> Block {
        Block {
            statements,
            span: Span::default(),
        }
    }
}

impl Expr {
    /// The expression `kind`.
    pub fn nowhere(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::default(),
        }
    }

    /// The name `name` (taken whole: see [`Expr::named`] for a family's member).
    pub fn name(name: &str) -> Expr {
        Expr::nowhere(ExprKind::Name(Ident::nowhere(name)))
    }

    /// A declared name as a story writes it: `x`, or a family's member `muddy[0]` (as
    /// the family's members are named), the family indexed.
    pub fn named(name: &str) -> Expr {
        let member = (name.strip_suffix(']').and_then(|n| n.split_once('[')))
            .and_then(|(base, k)| Some((base, k.parse::<i64>().ok().filter(|k| *k >= 0)?)));
        match member {
            Some((base, k)) => Expr::nowhere(ExprKind::Index {
                base: Ident::nowhere(base),
                index: Box::new(Expr::int(k)),
            }),
            None => Expr::name(name),
        }
    }

    /// `name(args)`.
    pub fn call(name: &str, args: Vec<Expr>) -> Expr {
        Expr::nowhere(ExprKind::Call {
            name: Ident::nowhere(name),
            args,
        })
    }

    /// `lhs op rhs`.
    pub fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr::nowhere(ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        })
    }

    /// `op operand`.
    pub fn unary(op: UnOp, operand: Expr) -> Expr {
        Expr::nowhere(ExprKind::Unary {
            op,
            operand: Box::new(operand),
        })
    }

    /// The integer `n` (the AST's literals are non-negative: `-5` is `5` negated, and
    /// `i64::MIN` is `-i64::MAX - 1`).
    pub fn int(n: i64) -> Expr {
        match n {
            0.. => Expr::nowhere(ExprKind::Int(n)),
            i64::MIN => Expr::binary(BinOp::Sub, Expr::int(-i64::MAX), Expr::int(1)),
            _ => Expr::unary(UnOp::Neg, Expr::nowhere(ExprKind::Int(-n))),
        }
    }

    /// A list's items as an operand: the item alone, or a tuple.
    pub fn tuple(mut items: Vec<Expr>) -> Expr {
        match items.len() {
            1 => items.remove(0),
            _ => Expr::nowhere(ExprKind::Tuple(items)),
        }
    }

    /// A case of an event as the language names it: `moved`, `face[3]`, `call[0, -1]`
    /// (anything else is taken as a name whole, for lowering to judge).
    pub fn case(name: &str) -> Expr {
        let parsed = crate::parse_expr(name).ok();
        match parsed.as_ref().map(|e| &e.kind) {
            Some(ExprKind::Index { base, index }) => match indices(index) {
                Some(index) => Expr::nowhere(ExprKind::Index {
                    base: Ident::nowhere(&base.name),
                    index: Box::new(index),
                }),
                None => Expr::name(name),
            },
            Some(ExprKind::Name(n)) => Expr::name(&n.name),
            _ => Expr::name(name),
        }
    }
}

/// A case's indices written nowhere: integers, one or a tuple (None: anything else).
fn indices(index: &Expr) -> Option<Expr> {
    let int = |e: &Expr| match &e.kind {
        ExprKind::Int(n) => Some(Expr::int(*n)),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => match operand.kind {
            ExprKind::Int(n) => Some(Expr::int(-n)),
            _ => None,
        },
        _ => None,
    };
    match &index.kind {
        ExprKind::Tuple(items) => Some(Expr::tuple(items.iter().map(int).collect::<Option<_>>()?)),
        _ => int(index),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_is_a_name_or_a_name_indexed_by_integers() {
        let shown = |name| Expr::case(name).to_string();
        assert_eq!(shown("moved"), "moved");
        assert_eq!(shown("face[3]"), "face[3]");
        assert_eq!(shown("call[0, -1]"), "call[0, -1]");
        assert_eq!(Expr::case("call[0, -1]").span, Span::default());
        // Not a case's shape: the name whole, for lowering to refuse.
        assert_eq!(Expr::case("a + b"), Expr::name("a + b"));
        assert_eq!(Expr::case("face[i]"), Expr::name("face[i]"));
    }

    #[test]
    fn a_declared_name_is_a_name_or_a_familys_member() {
        assert_eq!(Expr::named("x"), Expr::name("x"));
        assert_eq!(Expr::named("muddy[2]").to_string(), "muddy[2]");
        assert_eq!(Expr::named("muddy[2]").span, Span::default());
        // No member's index: the name whole.
        assert_eq!(Expr::named("p[-1]"), Expr::name("p[-1]"));
    }

    #[test]
    fn integers_are_written_as_a_story_writes_them() {
        assert_eq!(Expr::int(5).to_string(), "5");
        assert_eq!(Expr::int(-5).to_string(), "-5");
        let min = Expr::int(i64::MIN).to_string();
        assert_eq!(min, "-9223372036854775807 - 1");
        let parsed = crate::parse_expr(&min).expect("it parses");
        assert_eq!(parsed.to_string(), min);
    }
}
