//! The parser: tokens → [`ast::Story`](crate::ast::Story), by recursive descent.
//!
//! Each statement either parses completely or yields exactly one diagnostic, after
//! which the parser skips to the next statement end and carries on, so every
//! independent error in a story is reported in one go.

mod action;
mod event;
mod expr;
mod stmt;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use crate::Declared;
use crate::ast::{BinOp, Expr, Story};
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::span::Span;

/// How many brackets / `if`s may nest inside each other.
const MAX_NESTING: usize = 64;
/// The tallest expression tree accepted (later stages recurse over it).
const MAX_HEIGHT: u32 = 256;

type PResult<T> = Result<T, Diagnostic>;
/// An expression and the height of its tree.
type Node = (Expr, u32);

const STATEMENT_KEYWORDS: [&str; 17] = [
    "characters",
    "int",
    "bool",
    "announce",
    "checkpoint",
    "worlds",
    "const",
    "enum",
    "for",
    "simultaneously",
    "actual",
    "repeat",
    "assert_adds_ck",
    "check",
    "event",
    "action",
    "plan",
];

pub(crate) fn parse_tokens(
    source: &str,
    tokens: Vec<Token>,
    declared: &Declared,
) -> Result<Story, Vec<Diagnostic>> {
    // Names of enums declared anywhere (or before the part, `declared`), so that
    // `Colour wall[5]` reads as a declaration (an enum declared later is then reported
    // by `lower`).
    let mut enums: HashSet<String> = declared.enums.iter().cloned().collect();
    enums.extend(
        (tokens.windows(2)).filter_map(|w| match (&w[0].kind, &w[1].kind) {
            (TokenKind::Enum, TokenKind::Ident(name)) => Some(name.clone()),
            _ => None,
        }),
    );
    // Names declared by `characters` lines, so that `child x` is not read as a type.
    let mut characters: HashSet<String> = declared.characters.iter().cloned().collect();
    let mut in_characters = false;
    for w in tokens.windows(2) {
        match (&w[0].kind, &w[1].kind) {
            (TokenKind::Characters | TokenKind::Comma, TokenKind::Ident(name))
                if in_characters || w[0].kind == TokenKind::Characters =>
            {
                characters.insert(name.clone());
            }
            _ => {}
        }
        match w[1].kind {
            TokenKind::Characters => in_characters = true,
            TokenKind::Newline => in_characters = false,
            _ => {}
        }
    }
    let mut parser = Parser::new(source, tokens, enums, characters);
    let statements = parser.statements(false);
    if parser.diags.is_empty() {
        Ok(Story {
            statements,
            backend: None,
        })
    } else {
        let mut diags = parser.diags;
        diags.sort_by_key(|d| d.span.start);
        Err(diags)
    }
}

/// One expression filling the whole of `tokens` (newlines aside).
pub(crate) fn parse_expr_tokens(source: &str, tokens: Vec<Token>) -> Result<Expr, Vec<Diagnostic>> {
    let mut parser = Parser::new(source, tokens, HashSet::new(), HashSet::new());
    let expr = parser.expr().map_err(|d| vec![d])?;
    while parser.at(&TokenKind::Newline) {
        parser.bump();
    }
    if !parser.at(&TokenKind::Eof) {
        return Err(vec![parser.unexpected("the end of the expression")]);
    }
    Ok(expr)
}

struct Parser<'s> {
    src: &'s str,
    /// Always ends with `Eof`; `pos` never moves past it.
    toks: Vec<Token>,
    pos: usize,
    nesting: usize,
    /// How many blocks `{ … }` enclose the current statement.
    blocks: usize,
    /// The names of the story's enums.
    enums: HashSet<String>,
    /// The names the story declares as characters.
    characters: HashSet<String>,
    /// Every error found so far.
    diags: Vec<Diagnostic>,
    /// Inside `<! φ>`: a `>` not in brackets ends φ rather than comparing.
    no_gt: bool,
}

fn binop_of(kind: &TokenKind) -> Option<BinOp> {
    use TokenKind::*;
    Some(match kind {
        Plus => BinOp::Add,
        Minus => BinOp::Sub,
        Star => BinOp::Mul,
        Slash => BinOp::Div,
        Percent => BinOp::Mod,
        EqEq => BinOp::Eq,
        NotEq => BinOp::Ne,
        Lt => BinOp::Lt,
        Le => BinOp::Le,
        Gt => BinOp::Gt,
        Ge => BinOp::Ge,
        And => BinOp::And,
        Or => BinOp::Or,
        Arrow => BinOp::Implies,
        DoubleArrow => BinOp::Iff,
        _ => return None,
    })
}

fn is_comparison(kind: &TokenKind) -> bool {
    use TokenKind::*;
    matches!(kind, EqEq | NotEq | Lt | Le | Gt | Ge | In)
}

/// Can a line starting with this token only be the rest of an expression?
fn continues_expression(kind: &TokenKind) -> bool {
    use TokenKind::*;
    (binop_of(kind).is_some() && *kind != Minus) || matches!(kind, Then | Else | In | Comma)
}

/// Can this token begin an expression?
fn starts_expr(kind: &TokenKind) -> bool {
    use TokenKind::*;
    matches!(
        kind,
        Ident(_) | Int(_) | True | False | Not | If | LParen | Minus
    )
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// `word` looks like a misspelling of `target`.
fn close_to(word: &str, target: &str) -> bool {
    word != target && word.len() >= 3 && levenshtein(&word.to_lowercase(), target) <= 2
}

fn boxed(node: Node) -> Box<Expr> {
    Box::new(node.0)
}

impl<'s> Parser<'s> {
    /// A parser at the first of `toks` (which ends with `Eof`), knowing the story's
    /// `enums` and `characters` by name.
    fn new(
        src: &'s str,
        toks: Vec<Token>,
        enums: HashSet<String>,
        characters: HashSet<String>,
    ) -> Parser<'s> {
        Parser {
            src,
            toks,
            pos: 0,
            nesting: 0,
            blocks: 0,
            enums,
            characters,
            diags: Vec::new(),
            no_gt: false,
        }
    }

    // ----- token access -------------------------------------------------------------

    fn peek(&self) -> &Token {
        &self.toks[self.pos]
    }

    fn peek_kind(&self) -> &TokenKind {
        &self.toks[self.pos].kind
    }

    fn at(&self, kind: &TokenKind) -> bool {
        self.peek_kind() == kind
    }

    fn at_line_end(&self) -> bool {
        matches!(self.peek_kind(), TokenKind::Newline | TokenKind::Eof)
    }

    fn bump(&mut self) -> Token {
        let tok = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        tok
    }

    /// Skips to just after the next statement end. A block opened on the way is skipped
    /// whole; inside a block, the block's closing `}` is left for the block.
    fn recover(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.peek_kind() {
                TokenKind::Eof => return,
                TokenKind::Newline if depth == 0 => {
                    self.bump();
                    return;
                }
                TokenKind::RBlock if depth == 0 && self.blocks > 0 => return,
                TokenKind::LBlock => depth += 1,
                TokenKind::RBlock => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
    }

    fn text(&self, span: Span) -> &'s str {
        self.src.get(span.start..span.end).unwrap_or("")
    }

    /// How a token is named in messages: `` `x` ``, "end of line", "end of input".
    fn describe(&self, tok: &Token) -> String {
        match tok.kind {
            TokenKind::Newline => "end of line".to_string(),
            TokenKind::Eof => "end of input".to_string(),
            _ => format!("`{}`", self.text(tok.span)),
        }
    }

    /// "expected {expected}, found …" at the current token; an invalid token reports
    /// its own diagnostic instead.
    fn unexpected(&self, expected: &str) -> Diagnostic {
        let tok = self.peek();
        if let TokenKind::Invalid { diag, .. } = &tok.kind {
            return (**diag).clone();
        }
        let diag = Diagnostic::error(
            tok.span,
            format!("expected {expected}, found {}", self.describe(tok)),
        );
        match self.modal_after_name() {
            Some(hint) => diag.with_hint(hint),
            None => diag,
        }
    }

    /// `A knows φ`, a character before a knowledge operator as prose writes it (at
    /// the operator): how the language writes it.
    fn modal_after_name(&self) -> Option<String> {
        let TokenKind::Ident(word) = self.peek_kind() else {
            return None;
        };
        let before = self.pos.checked_sub(1).and_then(|i| self.toks.get(i));
        let Some(TokenKind::Ident(who)) = before.map(|t| &t.kind) else {
            return None;
        };
        const MODAL: [&str; 6] = [
            "knows",
            "knows_value",
            "knows_whether",
            "believes",
            "believes_value",
            "believes_whether",
        ];
        MODAL
            .contains(&word.as_str())
            .then(|| format!("the character goes inside the parentheses: `{word}({who}, …)`"))
    }

    fn expect(&mut self, kind: TokenKind, expected: &str) -> PResult<Token> {
        if self.at(&kind) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(expected))
        }
    }

    fn keyword_hint(&self, diag: Diagnostic) -> Diagnostic {
        let tok = self.peek();
        if tok.kind.is_keyword() {
            let text = self.text(tok.span);
            diag.with_hint(format!("`{text}` is a keyword"))
        } else {
            diag
        }
    }

    // ----- statements ---------------------------------------------------------------
}

fn unclosed(open: &Token) -> Diagnostic {
    let (text, close) = match open.kind {
        TokenKind::LBrace | TokenKind::LBlock => ("{", "}"),
        TokenKind::LBracket => ("[", "]"),
        _ => ("(", ")"),
    };
    Diagnostic::error(open.span, format!("unclosed `{text}`"))
        .with_hint(format!("add a matching `{close}`"))
}
