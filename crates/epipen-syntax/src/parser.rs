//! The parser: tokens → [`ast::Story`], by recursive descent.
//!
//! Each statement either parses completely or yields exactly one diagnostic, after
//! which the parser skips to the next statement end and carries on, so every
//! independent error in a story is reported in one go.

use std::collections::HashSet;

use super::ast::{
    BinOp, Binder, Block, Decl, Expr, ExprKind, Ident, Range, Sample, SortName, Stmt, StmtKind,
    Story, UnOp,
};
use super::diagnostic::Diagnostic;
use super::lexer::{Token, TokenKind};
use super::span::Span;

/// How many brackets / `if`s may nest inside each other.
const MAX_NESTING: usize = 64;
/// The tallest expression tree accepted (later stages recurse over it).
const MAX_HEIGHT: u32 = 256;

type PResult<T> = Result<T, Diagnostic>;
/// An expression and the height of its tree.
type Node = (Expr, u32);

const STATEMENT_KEYWORDS: [&str; 14] = [
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
];

pub(crate) fn parse_tokens(source: &str, tokens: Vec<Token>) -> Result<Story, Vec<Diagnostic>> {
    // Names of enums declared anywhere, so that `Colour wall[5]` reads as a declaration
    // (an enum declared later is then reported by `lower`).
    let enums = tokens
        .windows(2)
        .filter_map(|w| match (&w[0].kind, &w[1].kind) {
            (TokenKind::Enum, TokenKind::Ident(name)) => Some(name.clone()),
            _ => None,
        })
        .collect();
    let mut parser = Parser {
        src: source,
        toks: tokens,
        pos: 0,
        nesting: 0,
        blocks: 0,
        enums,
        diags: Vec::new(),
    };
    let statements = parser.statements(false);
    if parser.diags.is_empty() {
        Ok(Story { statements })
    } else {
        let mut diags = parser.diags;
        diags.sort_by_key(|d| d.span.start);
        Err(diags)
    }
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
    /// Every error found so far.
    diags: Vec<Diagnostic>,
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
        Diagnostic::error(
            tok.span,
            format!("expected {expected}, found {}", self.describe(tok)),
        )
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

    /// Statements up to the end of input, or inside a block up to its `}` (left for the
    /// caller). Errors go to `self.diags`; after one the parser skips to the next line.
    fn statements(&mut self, in_block: bool) -> Vec<Stmt> {
        let mut statements = Vec::new();
        loop {
            while self.at(&TokenKind::Newline) {
                self.bump();
            }
            if self.at(&TokenKind::Eof) || (in_block && self.at(&TokenKind::RBlock)) {
                break;
            }
            self.nesting = 0;
            let first = self.peek().clone();
            match self.statement() {
                Ok(stmt) => statements.push(stmt),
                Err(mut diag) => {
                    // An error at a line end followed by a line that can only be the rest
                    // of an expression (`and b`, `else 2`): the author meant to continue
                    // the statement. Say how, and skip those lines instead of reporting
                    // them too.
                    let at_line_end = self.at(&TokenKind::Newline) && diag.span == self.peek().span;
                    self.recover();
                    if at_line_end && continues_expression(self.peek_kind()) {
                        let text = self.text(self.peek().span);
                        diag = diag.with_hint(format!(
                            "a statement continues on the next line only if this line ends with an operator or \
                             keyword; move `{text}` to the end of this line"
                        ));
                        while continues_expression(self.peek_kind()) {
                            self.recover();
                        }
                    } else if diag.span == first.span && continues_expression(&first.kind) {
                        if diag.hints.is_empty() {
                            let text = self.text(first.span);
                            diag = diag.with_hint(format!(
                                "to continue the previous statement, end its line with `{text}` instead"
                            ));
                        }
                        while continues_expression(self.peek_kind()) {
                            self.recover();
                        }
                    }
                    self.diags.push(diag);
                }
            }
        }
        statements
    }

    fn statement(&mut self) -> PResult<Stmt> {
        let first = self.peek().clone();
        let kind = match &first.kind {
            TokenKind::Characters => {
                self.bump();
                StmtKind::Characters(self.decl_list()?)
            }
            TokenKind::IntKw | TokenKind::BoolKw => {
                self.bump();
                let sort = if first.kind == TokenKind::IntKw {
                    SortName::Int
                } else {
                    SortName::Bool
                };
                StmtKind::Constants {
                    sort,
                    names: self.decl_list()?,
                }
            }
            TokenKind::Const => {
                self.bump();
                self.const_decl()?
            }
            TokenKind::Enum => {
                self.bump();
                self.enum_decl()?
            }
            TokenKind::Announce => {
                self.bump();
                StmtKind::Announce(self.expr()?)
            }
            TokenKind::Actual => {
                self.bump();
                StmtKind::Actual(self.expr()?)
            }
            TokenKind::Check => {
                self.bump();
                StmtKind::Check(self.expr()?)
            }
            TokenKind::Checkpoint => {
                self.bump();
                StmtKind::Checkpoint(self.name()?)
            }
            TokenKind::Worlds => {
                self.bump();
                StmtKind::Worlds {
                    limit: self.worlds_limit()?,
                }
            }
            TokenKind::For => {
                self.bump();
                self.for_loop()?
            }
            TokenKind::If => {
                self.bump();
                self.if_statement()?
            }
            TokenKind::Simultaneously => {
                self.bump();
                StmtKind::Simultaneously(self.block("`simultaneously`")?)
            }
            TokenKind::Repeat => {
                self.bump();
                self.repeat()?
            }
            TokenKind::AssertAddsCk => {
                self.bump();
                let hint = self.expr()?;
                let body = self.block("the hint of `assert_adds_ck`")?;
                StmtKind::AssertAddsCk { hint, body }
            }
            TokenKind::Ident(name) => {
                let ident = Ident {
                    name: name.clone(),
                    span: first.span,
                };
                self.bump();
                if matches!(self.peek_kind(), TokenKind::Ident(_)) && self.enums.contains(name) {
                    StmtKind::Constants {
                        sort: SortName::Enum(ident),
                        names: self.decl_list()?,
                    }
                } else {
                    self.character_statement(ident)?
                }
            }
            TokenKind::Invalid { diag, .. } => return Err((**diag).clone()),
            TokenKind::Else => {
                return Err(self.unexpected("a statement").with_hint(
                    "`else` goes on the same line as the `}` that closes the `if` block: `} else {`",
                ));
            }
            TokenKind::Until => {
                return Err(self.unexpected("a statement").with_hint(
                    "`until` goes on the same line as the `}` that closes the `repeat` block: `} until …`",
                ));
            }
            _ => {
                let mut diag = self.unexpected("a statement");
                if starts_expr(&first.kind) {
                    diag = diag.with_hint("to announce a fact, write `announce …`");
                } else if first.kind == TokenKind::Learns {
                    diag = diag
                        .with_hint("`learns` follows a character's name: `Albert learns month`");
                } else if first.kind == TokenKind::RBrace || first.kind == TokenKind::RBlock {
                    diag = diag.with_hint("this `}` has no matching `{`");
                }
                return Err(diag);
            }
        };
        let end = self.toks[self.pos.saturating_sub(1)].span.end;
        self.statement_end()?;
        Ok(Stmt {
            kind,
            span: Span::new(first.span.start, end),
        })
    }

    /// A statement starting with a character: `A learns e`, `A: e`, `A reveals e`, where
    /// `A` may be a family member `child[i]`.
    fn character_statement(&mut self, name: Ident) -> PResult<StmtKind> {
        let who = if self.at(&TokenKind::LBracket) {
            self.index(name)?.0
        } else {
            let span = name.span;
            Expr {
                kind: ExprKind::Name(name),
                span,
            }
        };
        match self.peek_kind() {
            TokenKind::Learns => {
                self.bump();
                Ok(StmtKind::Learns {
                    who,
                    what: self.expr()?,
                })
            }
            TokenKind::Colon => {
                self.bump();
                Ok(StmtKind::Says {
                    speaker: who,
                    what: self.expr()?,
                })
            }
            TokenKind::Reveals => {
                self.bump();
                Ok(StmtKind::Reveals {
                    who,
                    what: self.expr()?,
                })
            }
            TokenKind::Assign => {
                self.bump();
                Ok(StmtKind::Assign {
                    target: who,
                    value: self.expr()?,
                })
            }
            _ => match &who.kind {
                ExprKind::Name(name) => Err(self.bad_name_statement(name)),
                _ => {
                    let text = self.text(who.span);
                    Err(self
                        .unexpected(&format!("`learns`, `:`, `reveals` or `:=` after `{text}`")))
                }
            },
        }
    }

    /// `const n = e` after `const`.
    fn const_decl(&mut self) -> PResult<StmtKind> {
        if !matches!(self.peek_kind(), TokenKind::Ident(_)) {
            let found = self.describe(self.peek());
            let diag = Diagnostic::error(
                self.peek().span,
                format!("expected a name after `const`, found {found}"),
            );
            return Err(self.keyword_hint(diag.with_hint("write e.g. `const n = 3`")));
        }
        let name = self.name()?;
        let tok = self.peek();
        let is_assign = matches!(tok.kind, TokenKind::Invalid { .. }) && self.text(tok.span) == "=";
        if !is_assign {
            let diag = Diagnostic::error(
                tok.span,
                format!(
                    "expected `=` after `const {}`, found {}",
                    name.name,
                    self.describe(tok)
                ),
            );
            return Err(diag.with_hint(format!("write `const {} = 3`", name.name)));
        }
        self.bump();
        Ok(StmtKind::Const {
            name,
            value: self.expr()?,
        })
    }

    /// `enum E { a, b, c }` after `enum`.
    fn enum_decl(&mut self) -> PResult<StmtKind> {
        let name = self.name()?;
        if !self.at(&TokenKind::LBrace) {
            return Err(self
                .unexpected(&format!("`{{` after `enum {}`", name.name))
                .with_hint(format!("write `enum {} {{ a, b, c }}`", name.name)));
        }
        let open = self.bump();
        let mut variants = Vec::new();
        loop {
            if self.at(&TokenKind::RBrace) {
                break;
            }
            if self.at_line_end() {
                return Err(unclosed(&open));
            }
            variants.push(self.name()?);
            if self.at(&TokenKind::Comma) {
                self.bump();
            } else if !self.at(&TokenKind::RBrace) {
                if self.at_line_end() {
                    return Err(unclosed(&open));
                }
                return Err(self.unexpected("`,` or `}`"));
            }
        }
        let close = self.bump();
        if variants.is_empty() {
            return Err(Diagnostic::error(
                open.span.to(close.span),
                format!("enum `{}` needs at least one value", name.name),
            )
            .with_hint(format!("e.g. `enum {} {{ a, b }}`", name.name)));
        }
        Ok(StmtKind::Enum { name, variants })
    }

    /// `for i in a..b { … }` after `for`.
    fn for_loop(&mut self) -> PResult<StmtKind> {
        let var = self.name()?;
        if !self.at(&TokenKind::In) {
            return Err(self
                .unexpected(&format!("`in` after `for {}`", var.name))
                .with_hint(format!("write `for {} in 0..n {{ … }}`", var.name)));
        }
        self.bump();
        let range = self.range()?;
        let body = self.block("the range of `for`")?;
        Ok(StmtKind::For { var, range, body })
    }

    /// `lo..hi`
    fn range(&mut self) -> PResult<Range> {
        let lo = self.additive()?.0;
        if let TokenKind::Invalid { diag, .. } = self.peek_kind() {
            return Err((**diag).clone());
        }
        if !self.at(&TokenKind::DotDot) {
            return Err(self
                .unexpected("`..`")
                .with_hint("a range is written `a..b`: the integers from a up to b - 1"));
        }
        self.bump();
        let hi = self.additive()?.0;
        Ok(Range { lo, hi })
    }

    /// `if c { … } [else { … } | else if …]` after `if`.
    fn if_statement(&mut self) -> PResult<StmtKind> {
        let cond = self.expr()?;
        if self.at(&TokenKind::Then) {
            return Err(self.unexpected("`{`").with_hint(
                "a statement `if` takes a block: `if c { … }`; to announce a conditional fact, \
                 write `announce if c then … else …`",
            ));
        }
        let then = self.block("the condition of `if`")?;
        let otherwise = if self.at(&TokenKind::Else) {
            self.bump();
            if self.at(&TokenKind::If) {
                // An `else if` nests like a block.
                if self.blocks >= MAX_NESTING {
                    return Err(self.too_deep());
                }
                let start = self.bump().span;
                self.blocks += 1;
                let kind = self.if_statement();
                self.blocks -= 1;
                let kind = kind?;
                let end = self.toks[self.pos.saturating_sub(1)].span.end;
                let span = Span::new(start.start, end);
                Some(Block {
                    statements: vec![Stmt { kind, span }],
                    span,
                })
            } else {
                Some(self.block("`else`")?)
            }
        } else {
            self.check_same_line(TokenKind::Else, "`else`")?;
            None
        };
        Ok(StmtKind::If {
            cond,
            then,
            otherwise,
        })
    }

    /// `repeat max N { … } until e` after `repeat`.
    fn repeat(&mut self) -> PResult<StmtKind> {
        let example = "write `repeat max 10 { … } until …`";
        match self.peek_kind() {
            TokenKind::Ident(word) if word == "max" => {
                self.bump();
            }
            _ => return Err(self.unexpected("`max` after `repeat`").with_hint(example)),
        }
        let max = self.additive()?.0;
        let body = self.block("the number of rounds")?;
        if !self.at(&TokenKind::Until) {
            self.check_same_line(TokenKind::Until, "`until`")?;
            return Err(self
                .unexpected("`until` after the block of `repeat`")
                .with_hint("say when to stop: `repeat max 10 { … } until …`"));
        }
        self.bump();
        let until = self.expr()?;
        Ok(StmtKind::Repeat { max, body, until })
    }

    /// After a block: the next line must not start with `keyword`, which belongs on the
    /// line of the `}`.
    fn check_same_line(&mut self, keyword: TokenKind, text: &str) -> PResult<()> {
        if self.at(&TokenKind::Newline)
            && self.toks.get(self.pos + 1).map(|t| &t.kind) == Some(&keyword)
        {
            // Step onto the misplaced line, so that recovery skips it too.
            self.bump();
            let tok = self.peek().clone();
            return Err(Diagnostic::error(
                tok.span,
                format!("{text} must be on the same line as the `}}` before it"),
            )
            .with_hint(format!("write `}} {}`", self.text(tok.span))));
        }
        Ok(())
    }

    fn too_deep(&self) -> Diagnostic {
        Diagnostic::error(self.peek().span, "blocks are nested too deeply").with_hint(format!(
            "at most {MAX_NESTING} blocks and `else if`s may nest"
        ))
    }

    /// `{ statements }`; `after` names what precedes it, for messages.
    fn block(&mut self, after: &str) -> PResult<Block> {
        if !self.at(&TokenKind::LBlock) {
            let mut diag = self.unexpected(&format!("`{{` after {after}"));
            if self.at_line_end() {
                diag = diag.with_hint("a block starts with `{` on the same line");
                if self.toks.get(self.pos + 1).map(|t| &t.kind) == Some(&TokenKind::LBlock) {
                    // The block is on the next line: skip it along with this statement.
                    self.bump();
                }
            }
            return Err(diag);
        }
        if self.blocks >= MAX_NESTING {
            return Err(self.too_deep());
        }
        let open = self.bump();
        self.blocks += 1;
        let statements = self.statements(true);
        self.blocks -= 1;
        if !self.at(&TokenKind::RBlock) {
            return Err(unclosed(&open));
        }
        let close = self.bump();
        Ok(Block {
            statements,
            span: open.span.to(close.span),
        })
    }

    fn statement_end(&mut self) -> PResult<()> {
        match self.peek_kind() {
            TokenKind::Newline => {
                self.bump();
                Ok(())
            }
            TokenKind::Eof => Ok(()),
            TokenKind::RBlock if self.blocks > 0 => Ok(()),
            TokenKind::RParen | TokenKind::RBrace | TokenKind::RBracket | TokenKind::RBlock => {
                let text = self.text(self.peek().span);
                let hint = format!("this `{text}` has no matching opening bracket");
                Err(self.unexpected("end of line").with_hint(hint))
            }
            _ => Err(self.unexpected("end of line")),
        }
    }

    /// A statement that starts with a name not followed by `learns` or `:`.
    fn bad_name_statement(&self, who: &Ident) -> Diagnostic {
        let next = self.peek();
        let next_is_operator = binop_of(&next.kind).is_some()
            || next.kind == TokenKind::In
            || matches!(
                next.kind,
                TokenKind::Invalid {
                    continues: true,
                    ..
                }
            );
        if !next_is_operator {
            let word = who.name.as_str();
            if let Some(kw) = STATEMENT_KEYWORDS.iter().find(|kw| close_to(word, kw)) {
                return Diagnostic::error(
                    who.span,
                    format!("unknown statement starting with `{word}`"),
                )
                .with_hint(format!("did you mean `{kw}`?"));
            }
            if matches!(next.kind, TokenKind::Ident(_)) {
                let mut enums: Vec<&String> = self.enums.iter().collect();
                enums.sort();
                if let Some(sort) = enums.into_iter().find(|e| close_to(word, e)) {
                    return Diagnostic::error(
                        who.span,
                        format!("unknown statement starting with `{word}`"),
                    )
                    .with_hint(format!("did you mean `{sort}`?"));
                }
            }
        }
        let mut diag = Diagnostic::error(
            next.span,
            format!("expected `learns` or `:` after `{}`", who.name),
        );
        match &next.kind {
            TokenKind::Ident(word) if word == "says" || word == "said" => {
                diag = diag.with_hint(format!(
                    "write `{}: …` for what {} says",
                    who.name, who.name
                ));
            }
            TokenKind::Ident(word) if close_to(word, "learns") => {
                diag = diag.with_hint("did you mean `learns`?");
            }
            TokenKind::Ident(word) if close_to(word, "reveals") => {
                diag = diag.with_hint("did you mean `reveals`?");
            }
            _ if next_is_operator => {
                diag = diag.with_hint("to announce a fact, write `announce …`");
            }
            _ => {}
        }
        diag
    }

    fn worlds_limit(&mut self) -> PResult<Option<(u64, Span)>> {
        match self.peek_kind() {
            TokenKind::Newline | TokenKind::Eof => Ok(None),
            TokenKind::RBlock if self.blocks > 0 => Ok(None),
            TokenKind::Int(Some(n)) => {
                let n = *n;
                Ok(Some((n, self.bump().span)))
            }
            TokenKind::Int(None) => Err(Diagnostic::error(
                self.peek().span,
                "integer literal too large",
            )),
            TokenKind::Invalid { diag, .. } => Err((**diag).clone()),
            _ => {
                let found = self.describe(self.peek());
                Err(Diagnostic::error(
                    self.peek().span,
                    format!("`worlds` takes a whole number, found {found}"),
                )
                .with_hint("e.g. `worlds 25`, or just `worlds` for up to 10"))
            }
        }
    }

    fn name(&mut self) -> PResult<Ident> {
        if let TokenKind::Ident(name) = self.peek_kind() {
            let name = name.clone();
            let span = self.bump().span;
            Ok(Ident { name, span })
        } else {
            Err(self.keyword_hint(self.unexpected("a name")))
        }
    }

    /// `a, b[n], c` with an optional trailing comma.
    fn decl_list(&mut self) -> PResult<Vec<Decl>> {
        let mut names = vec![self.decl()?];
        while self.at(&TokenKind::Comma) {
            self.bump();
            if self.at_line_end() {
                break;
            }
            names.push(self.decl()?);
        }
        Ok(names)
    }

    /// `a` or `a[size]`
    fn decl(&mut self) -> PResult<Decl> {
        let name = self.name()?;
        if !self.at(&TokenKind::LBracket) {
            return Ok(Decl { name, size: None });
        }
        let (index, _) = self.index(name)?;
        let ExprKind::Index { base, index } = index.kind else {
            unreachable!("index() builds an Index")
        };
        Ok(Decl {
            name: base,
            size: Some(*index),
        })
    }

    /// `[e]` after the name `base` (the current token is `[`).
    fn index(&mut self, base: Ident) -> PResult<Node> {
        let open = self.bump();
        if self.at(&TokenKind::RBracket) {
            return Err(self.unexpected("an expression"));
        }
        let index = self.expr_node()?;
        match self.peek_kind() {
            TokenKind::RBracket => {}
            TokenKind::Comma => {
                return Err(
                    Diagnostic::error(self.peek().span, "only one index is allowed")
                        .with_hint(format!("families have a single index: `{}[0]`", base.name)),
                );
            }
            TokenKind::Newline | TokenKind::Eof => return Err(unclosed(&open)),
            _ => return Err(self.unexpected("`]`")),
        }
        let close = self.bump().span;
        if self.at(&TokenKind::LBracket) {
            return Err(
                Diagnostic::error(self.peek().span, "only one index is allowed")
                    .with_hint(format!("families have a single index: `{}[0]`", base.name)),
            );
        }
        let span = base.span.to(close);
        let height = 1 + index.1;
        self.node(
            ExprKind::Index {
                base,
                index: boxed(index),
            },
            span,
            height,
        )
    }

    // ----- expressions --------------------------------------------------------------

    fn expr(&mut self) -> PResult<Expr> {
        Ok(self.expr_node()?.0)
    }

    fn node(&self, kind: ExprKind, span: Span, height: u32) -> PResult<Node> {
        if height > MAX_HEIGHT {
            return Err(
                Diagnostic::error(span, "expression is too large").with_hint(format!(
                    "expressions may be at most {MAX_HEIGHT} operators deep"
                )),
            );
        }
        Ok((Expr { kind, span }, height))
    }

    fn binary(&self, op: BinOp, lhs: Node, rhs: Node) -> PResult<Node> {
        let span = lhs.0.span.to(rhs.0.span);
        let height = 1 + lhs.1.max(rhs.1);
        self.node(
            ExprKind::Binary {
                op,
                lhs: boxed(lhs),
                rhs: boxed(rhs),
            },
            span,
            height,
        )
    }

    fn unary(&self, op: UnOp, op_span: Span, operand: Node) -> PResult<Node> {
        let span = op_span.to(operand.0.span);
        let height = 1 + operand.1;
        self.node(
            ExprKind::Unary {
                op,
                operand: boxed(operand),
            },
            span,
            height,
        )
    }

    /// A full expression (the loosest level).
    fn expr_node(&mut self) -> PResult<Node> {
        if self.nesting >= MAX_NESTING {
            return Err(Diagnostic::error(
                self.peek().span,
                "expression is nested too deeply",
            ));
        }
        self.nesting += 1;
        let result = self.iff();
        self.nesting -= 1;
        result
    }

    /// Left-associative binary operators `ops` over operands parsed by `operand`.
    fn left_assoc(
        &mut self,
        ops: &[TokenKind],
        operand: fn(&mut Self) -> PResult<Node>,
    ) -> PResult<Node> {
        let mut lhs = operand(self)?;
        while ops.contains(self.peek_kind()) {
            let op = binop_of(&self.bump().kind).expect("binary operator");
            let rhs = operand(self)?;
            lhs = self.binary(op, lhs, rhs)?;
        }
        Ok(lhs)
    }

    fn iff(&mut self) -> PResult<Node> {
        self.left_assoc(&[TokenKind::DoubleArrow], Self::implies)
    }

    /// `->` is right-associative.
    fn implies(&mut self) -> PResult<Node> {
        let mut operands = vec![self.or()?];
        while self.at(&TokenKind::Arrow) {
            self.bump();
            operands.push(self.or()?);
        }
        let mut acc = operands.pop().expect("at least one operand");
        while let Some(lhs) = operands.pop() {
            acc = self.binary(BinOp::Implies, lhs, acc)?;
        }
        Ok(acc)
    }

    fn or(&mut self) -> PResult<Node> {
        self.left_assoc(&[TokenKind::Or], Self::and)
    }

    fn and(&mut self) -> PResult<Node> {
        self.left_assoc(&[TokenKind::And], Self::not)
    }

    fn not(&mut self) -> PResult<Node> {
        self.prefix(TokenKind::Not, UnOp::Not, Self::comparison)
    }

    /// Any number of the prefix operator `token`, then an `operand`.
    fn prefix(
        &mut self,
        token: TokenKind,
        op: UnOp,
        operand: fn(&mut Self) -> PResult<Node>,
    ) -> PResult<Node> {
        let mut spans = Vec::new();
        while self.at(&token) {
            spans.push(self.bump().span);
        }
        let mut acc = operand(self)?;
        while let Some(span) = spans.pop() {
            acc = self.unary(op, span, acc)?;
        }
        Ok(acc)
    }

    /// One comparison or `in` (non-associative).
    fn comparison(&mut self) -> PResult<Node> {
        let lhs = self.additive()?;
        if !is_comparison(self.peek_kind()) {
            return Ok(lhs);
        }
        let op1 = self.bump();
        let (expr, rhs_span) = self.comparison_rhs(&op1, lhs)?;
        if is_comparison(self.peek_kind()) {
            return Err(self.chained(&expr.0, &op1, rhs_span));
        }
        Ok(expr)
    }

    /// The right-hand side of comparison `op` and the resulting node, plus the span of
    /// the right-hand side (the set's braces for `in`).
    fn comparison_rhs(&mut self, op: &Token, lhs: Node) -> PResult<(Node, Span)> {
        if op.kind == TokenKind::In {
            let sample = self.accept_sample_start()?;
            if !self.at(&TokenKind::LBrace) {
                return Err(self
                    .unexpected("`{` after `in`")
                    .with_hint("write a set: `x in {1, 2, 3}`"));
            }
            let open = self.bump();
            let (items, mut close) = self.comma_list(&open, TokenKind::RBrace)?;
            let mut set_span = open.span.to(close);
            let mut height = 1 + items.iter().map(|n| n.1).max().unwrap_or(0).max(lhs.1);
            let sample = match sample {
                None => None,
                Some((start, count)) => {
                    close = self
                        .expect(TokenKind::RParen, "`)` after the set of `sample(…)`")?
                        .span;
                    set_span = start.to(close);
                    height = height.max(1 + count.1);
                    Some(Sample {
                        count: boxed(count),
                        span: set_span,
                    })
                }
            };
            let span = lhs.0.span.to(close);
            let set = items.into_iter().map(|n| n.0).collect();
            let node = self.node(
                ExprKind::In {
                    element: boxed(lhs),
                    set,
                    sample,
                },
                span,
                height,
            )?;
            Ok((node, set_span))
        } else {
            let op = binop_of(&op.kind).expect("comparison operator");
            let rhs = self.additive()?;
            let rhs_span = rhs.0.span;
            Ok((self.binary(op, lhs, rhs)?, rhs_span))
        }
    }

    /// `sample(k,` after `in`: the start of `sample` and the count k (None when the set
    /// is written out).
    fn accept_sample_start(&mut self) -> PResult<Option<(Span, Node)>> {
        let is_sample = matches!(self.peek_kind(), TokenKind::Ident(word) if word == "sample")
            && self.toks.get(self.pos + 1).map(|t| &t.kind) == Some(&TokenKind::LParen);
        if !is_sample {
            return Ok(None);
        }
        let start = self.bump().span;
        self.bump();
        let count = self.expr_node()?;
        self.expect(TokenKind::Comma, "`,` after the number of items to sample")
            .map_err(|d| d.with_hint("write `x in sample(3, {1, 2, 3, 4, 5})`"))?;
        if !self.at(&TokenKind::LBrace) {
            return Err(self
                .unexpected("`{` after `sample(…,`")
                .with_hint("write the set to sample from: `x in sample(3, {1, 2, 3, 4, 5})`"));
        }
        Ok(Some((start, count)))
    }

    /// The error for `a < b < c`, at the second operator.
    fn chained(&mut self, first: &Expr, op1: &Token, mid: Span) -> Diagnostic {
        let op2 = self.bump();
        let diag = Diagnostic::error(op2.span, "comparisons cannot be chained");
        let lhs_span = match &first.kind {
            ExprKind::Binary { lhs, .. } => lhs.span,
            ExprKind::In { element, .. } => element.span,
            _ => first.span,
        };
        if op1.kind == TokenKind::In || op2.kind == TokenKind::In {
            return diag.with_hint("use `and`, or parentheses");
        }
        let (o1, o2) = (self.text(op1.span), self.text(op2.span));
        let generic = format!("use `and`: a {o1} b and b {o2} c");
        let Ok(rhs) = self.additive() else {
            return diag.with_hint(generic);
        };
        let parts = [lhs_span, mid, rhs.0.span].map(|s| self.text(s));
        if parts
            .iter()
            .any(|p| p.is_empty() || p.len() > 30 || p.contains('\n'))
        {
            return diag.with_hint(generic);
        }
        let [a, b, c] = parts;
        diag.with_hint(format!("use `and`: {a} {o1} {b} and {b} {o2} {c}"))
    }

    fn additive(&mut self) -> PResult<Node> {
        self.left_assoc(&[TokenKind::Plus, TokenKind::Minus], Self::multiplicative)
    }

    fn multiplicative(&mut self) -> PResult<Node> {
        self.left_assoc(
            &[TokenKind::Star, TokenKind::Slash, TokenKind::Percent],
            Self::negation,
        )
    }

    fn negation(&mut self) -> PResult<Node> {
        self.prefix(TokenKind::Minus, UnOp::Neg, Self::primary)
    }

    fn primary(&mut self) -> PResult<Node> {
        let tok = self.peek().clone();
        match &tok.kind {
            TokenKind::Int(value) => {
                self.bump();
                match value.and_then(|v| i64::try_from(v).ok()) {
                    Some(v) => self.node(ExprKind::Int(v), tok.span, 1),
                    None => Err(Diagnostic::error(tok.span, "integer literal too large")
                        .with_hint(format!("integers must be at most {}", i64::MAX))),
                }
            }
            TokenKind::True | TokenKind::False => {
                self.bump();
                self.node(ExprKind::Bool(tok.kind == TokenKind::True), tok.span, 1)
            }
            TokenKind::Ident(name) => {
                self.bump();
                let ident = Ident {
                    name: name.clone(),
                    span: tok.span,
                };
                if self.at(&TokenKind::LBracket) {
                    return self.index(ident);
                }
                if !self.at(&TokenKind::LParen) {
                    return self.node(ExprKind::Name(ident), tok.span, 1);
                }
                let open = self.bump();
                if self.at_binder() {
                    return self.aggregate(ident, &open);
                }
                let (args, close) = self.comma_list(&open, TokenKind::RParen)?;
                let height = 1 + args.iter().map(|n| n.1).max().unwrap_or(0);
                let args = args.into_iter().map(|n| n.0).collect();
                self.node(
                    ExprKind::Call { name: ident, args },
                    tok.span.to(close),
                    height,
                )
            }
            TokenKind::LParen => self.parenthesised(),
            TokenKind::If => {
                self.bump();
                let cond = self.expr_node()?;
                self.expect(TokenKind::Then, "`then`")?;
                let then = self.expr_node()?;
                self.expect(TokenKind::Else, "`else`")?;
                let otherwise = self.expr_node()?;
                let span = tok.span.to(otherwise.0.span);
                let height = 1 + cond.1.max(then.1).max(otherwise.1);
                let kind = ExprKind::Ite {
                    cond: boxed(cond),
                    then: boxed(then),
                    otherwise: boxed(otherwise),
                };
                self.node(kind, span, height)
            }
            TokenKind::Not => Err(self
                .unexpected("an expression")
                .with_hint("`not` binds loosely: write `(not …)` here")),
            TokenKind::LBrace | TokenKind::LBlock => Err(self
                .unexpected("an expression")
                .with_hint("sets `{…}` only follow `in`")),
            TokenKind::Characters
            | TokenKind::IntKw
            | TokenKind::BoolKw
            | TokenKind::Announce
            | TokenKind::Learns
            | TokenKind::Checkpoint
            | TokenKind::Worlds
            | TokenKind::Const
            | TokenKind::Enum
            | TokenKind::For
            | TokenKind::Simultaneously
            | TokenKind::Actual
            | TokenKind::Reveals
            | TokenKind::Repeat
            | TokenKind::Until
            | TokenKind::AssertAddsCk
            | TokenKind::Check => Err(self.keyword_hint(self.unexpected("an expression"))),
            _ => Err(self.unexpected("an expression")),
        }
    }

    /// At `i in a..b` (not `x in {…}` nor `x in sample(k, {…})`) right after the `(` of
    /// a call?
    fn at_binder(&self) -> bool {
        let kind = |i: usize| self.toks.get(self.pos + i).map(|t| &t.kind);
        let sample = matches!(kind(2), Some(TokenKind::Ident(word)) if word == "sample")
            && kind(3) == Some(&TokenKind::LParen);
        matches!(kind(0), Some(TokenKind::Ident(_)))
            && kind(1) == Some(&TokenKind::In)
            && kind(2) != Some(&TokenKind::LBrace)
            && !sample
    }

    /// `name(i in a..b, j in c..d if guard: body)` after the `(`.
    fn aggregate(&mut self, name: Ident, open: &Token) -> PResult<Node> {
        let mut binders = Vec::new();
        let mut height = 0;
        loop {
            let var = self.name()?;
            self.bump(); // `in`, checked by `at_binder`
            let range = self.range()?;
            binders.push(Binder { var, range });
            if !self.at(&TokenKind::Comma) {
                break;
            }
            self.bump();
            if !self.at_binder() {
                return Err(self
                    .unexpected("another `name in a..b`")
                    .with_hint(format!("write `{}(i in 0..n, j in 0..n: …)`", name.name)));
            }
        }
        let guard = if self.at(&TokenKind::If) {
            self.bump();
            let guard = self.expr_node()?;
            height = height.max(guard.1);
            Some(boxed(guard))
        } else {
            None
        };
        if !self.at(&TokenKind::Colon) {
            if self.at_line_end() {
                return Err(unclosed(open));
            }
            return Err(self
                .unexpected("`:` before the body")
                .with_hint(format!("write `{}(i in 0..n: …)`", name.name)));
        }
        self.bump();
        let body = self.expr_node()?;
        height = 1 + height.max(body.1);
        let close = match self.peek_kind() {
            TokenKind::RParen => self.bump().span,
            TokenKind::Newline | TokenKind::Eof => return Err(unclosed(open)),
            _ => return Err(self.unexpected("`)`")),
        };
        let span = name.span.to(close);
        self.node(
            ExprKind::Aggregate {
                name,
                binders,
                guard,
                body: boxed(body),
            },
            span,
            height,
        )
    }

    /// `( e )` is `e` (its span widened to the parentheses); `(e1, e2, …)` is a tuple.
    fn parenthesised(&mut self) -> PResult<Node> {
        let open = self.bump();
        if self.at_line_end() {
            return Err(unclosed(&open));
        }
        let first = self.expr_node()?;
        match self.peek_kind() {
            TokenKind::RParen => {
                let close = self.bump().span;
                let (mut expr, height) = first;
                expr.span = open.span.to(close);
                Ok((expr, height))
            }
            TokenKind::Comma => {
                self.bump();
                let (rest, close) = self.comma_list(&open, TokenKind::RParen)?;
                let height = 1 + rest.iter().map(|n| n.1).max().unwrap_or(0).max(first.1);
                let items = std::iter::once(first).chain(rest).map(|n| n.0).collect();
                self.node(ExprKind::Tuple(items), open.span.to(close), height)
            }
            TokenKind::Newline | TokenKind::Eof => Err(unclosed(&open)),
            _ => Err(self.unexpected("`,` or `)`")),
        }
    }

    /// Comma-separated expressions up to and including `close` (trailing comma and
    /// empty list allowed); returns the items and the closing bracket's span.
    fn comma_list(&mut self, open: &Token, close: TokenKind) -> PResult<(Vec<Node>, Span)> {
        let close_text = if close == TokenKind::RParen {
            "`)`"
        } else {
            "`}`"
        };
        let mut items = Vec::new();
        loop {
            if self.at(&close) {
                return Ok((items, self.bump().span));
            }
            if self.at_line_end() {
                return Err(unclosed(open));
            }
            items.push(self.expr_node()?);
            if self.at(&TokenKind::Comma) {
                self.bump();
            } else if self.at(&close) {
                return Ok((items, self.bump().span));
            } else if self.at_line_end() {
                return Err(unclosed(open));
            } else {
                return Err(self.unexpected(&format!("`,` or {close_text}")));
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::super::{diagnostic::line_col, parse};
    use super::*;

    /// An S-expression rendering of an expression.
    fn show(e: &Expr) -> String {
        let list = |head: &str, items: &[&Expr]| {
            let mut s = format!("({head}");
            for item in items {
                s.push(' ');
                s.push_str(&show(item));
            }
            s + ")"
        };
        match &e.kind {
            ExprKind::Int(n) => n.to_string(),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Name(id) => id.name.clone(),
            ExprKind::Unary {
                op: UnOp::Neg,
                operand,
            } => list("-", &[operand]),
            ExprKind::Unary {
                op: UnOp::Not,
                operand,
            } => list("not", &[operand]),
            ExprKind::Binary { op, lhs, rhs } => list(op.symbol(), &[lhs, rhs]),
            ExprKind::Ite {
                cond,
                then,
                otherwise,
            } => list("if", &[cond, then, otherwise]),
            ExprKind::Tuple(items) => list("tuple", &items.iter().collect::<Vec<_>>()),
            ExprKind::In {
                element,
                set,
                sample,
            } => {
                let set = list("set", &set.iter().collect::<Vec<_>>());
                match sample {
                    None => format!("(in {} {set})", show(element)),
                    Some(s) => format!("(in {} (sample {} {set}))", show(element), show(&s.count)),
                }
            }
            ExprKind::Call { name, args } => list(
                &format!("call {}", name.name),
                &args.iter().collect::<Vec<_>>(),
            ),
            ExprKind::Index { base, index } => format!("(index {} {})", base.name, show(index)),
            ExprKind::Aggregate {
                name,
                binders,
                guard,
                body,
            } => {
                let mut s = format!("({}", name.name);
                for b in binders {
                    s.push_str(&format!(
                        " ({} {} {})",
                        b.var.name,
                        show(&b.range.lo),
                        show(&b.range.hi)
                    ));
                }
                if let Some(guard) = guard {
                    s.push_str(&format!(" (if {})", show(guard)));
                }
                format!("{s} {})", show(body))
            }
        }
    }

    fn show_decls(decls: &[Decl]) -> String {
        decls
            .iter()
            .map(|d| match &d.size {
                None => d.name.name.clone(),
                Some(size) => format!("{}[{}]", d.name.name, show(size)),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn show_block(b: &Block) -> String {
        let inner: Vec<String> = b.statements.iter().map(show_stmt).collect();
        format!("{{{}}}", inner.join("; "))
    }

    /// A statement as a compact string.
    fn show_stmt(s: &Stmt) -> String {
        match &s.kind {
            StmtKind::Characters(ns) => format!("characters {}", show_decls(ns)),
            StmtKind::Constants { sort, names } => {
                let sort = match sort {
                    SortName::Enum(name) => name.name.clone(),
                    other => format!("{other:?}"),
                };
                format!("{sort} {}", show_decls(names))
            }
            StmtKind::Const { name, value } => format!("const {} = {}", name.name, show(value)),
            StmtKind::Enum { name, variants } => {
                let vs: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
                format!("enum {} {}", name.name, vs.join(" "))
            }
            StmtKind::Announce(e) => format!("announce {}", show(e)),
            StmtKind::Learns { who, what } => format!("{} learns {}", show(who), show(what)),
            StmtKind::Says { speaker, what } => format!("{} says {}", show(speaker), show(what)),
            StmtKind::Reveals { who, what } => format!("{} reveals {}", show(who), show(what)),
            StmtKind::Checkpoint(n) => format!("checkpoint {}", n.name),
            StmtKind::Worlds { limit } => format!("worlds {limit:?}"),
            StmtKind::For { var, range, body } => format!(
                "for {} in {}..{} {}",
                var.name,
                show(&range.lo),
                show(&range.hi),
                show_block(body)
            ),
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let mut s = format!("if {} {}", show(cond), show_block(then));
                if let Some(otherwise) = otherwise {
                    s.push_str(&format!(" else {}", show_block(otherwise)));
                }
                s
            }
            StmtKind::Simultaneously(b) => format!("simultaneously {}", show_block(b)),
            StmtKind::Actual(e) => format!("actual {}", show(e)),
            StmtKind::Repeat { max, body, until } => format!(
                "repeat max {} {} until {}",
                show(max),
                show_block(body),
                show(until)
            ),
            StmtKind::AssertAddsCk { hint, body } => {
                format!("assert_adds_ck {} {}", show(hint), show_block(body))
            }
            StmtKind::Check(e) => format!("check {}", show(e)),
            StmtKind::Assign { target, value } => format!("{} := {}", show(target), show(value)),
        }
    }

    fn parse_ok(src: &str) -> Story {
        match parse(src) {
            Ok(story) => story,
            Err(diags) => panic!("{src:?} failed: {diags:?}"),
        }
    }

    /// Parses `announce <src>` and shows the expression.
    fn expr(src: &str) -> String {
        let story = parse_ok(&format!("announce {src}"));
        assert_eq!(story.statements.len(), 1, "{src:?}");
        match &story.statements[0].kind {
            StmtKind::Announce(e) => show(e),
            other => panic!("{other:?}"),
        }
    }

    /// The diagnostics of `src` as (message, line, column).
    fn errors(src: &str) -> Vec<(String, usize, usize)> {
        match parse(src) {
            Ok(story) => panic!("{src:?} parsed: {story:?}"),
            Err(diags) => diags
                .into_iter()
                .map(|d| {
                    let (line, col) = line_col(src, d.span.start);
                    (d.message, line, col)
                })
                .collect(),
        }
    }

    fn error(src: &str) -> Diagnostic {
        match parse(src) {
            Ok(story) => panic!("{src:?} parsed: {story:?}"),
            Err(mut diags) => {
                assert_eq!(diags.len(), 1, "{src:?}: {diags:?}");
                diags.remove(0)
            }
        }
    }

    #[test]
    fn expressions() {
        let table = [
            // Atoms.
            ("5", "5"),
            ("true", "true"),
            ("false", "false"),
            ("month", "month"),
            ("(month)", "month"),
            ("((month))", "month"),
            // Precedence, loosest to tightest.
            ("a <-> b -> c", "(<-> a (-> b c))"),
            ("a -> b <-> c", "(<-> (-> a b) c)"),
            ("a -> b or c", "(-> a (or b c))"),
            ("a or b and c", "(or a (and b c))"),
            ("a and b or c", "(or (and a b) c)"),
            ("not a and b", "(and (not a) b)"),
            ("not a == b", "(not (== a b))"),
            ("not not a", "(not (not a))"),
            ("a == b + c", "(== a (+ b c))"),
            ("a + b < c * d", "(< (+ a b) (* c d))"),
            ("a + b * c", "(+ a (* b c))"),
            ("a * b + c", "(+ (* a b) c)"),
            ("-a * b", "(* (- a) b)"),
            ("- -a", "(- (- a))"),
            ("(a + b) * c", "(* (+ a b) c)"),
            // Associativity.
            ("a <-> b <-> c", "(<-> (<-> a b) c)"),
            ("a -> b -> c", "(-> a (-> b c))"),
            ("a or b or c", "(or (or a b) c)"),
            ("a and b and c", "(and (and a b) c)"),
            ("a - b - c", "(- (- a b) c)"),
            ("a / b / c", "(/ (/ a b) c)"),
            ("a % b * c", "(* (% a b) c)"),
            // Every comparison.
            ("a == b", "(== a b)"),
            ("a != b", "(!= a b)"),
            ("a < b", "(< a b)"),
            ("a <= b", "(<= a b)"),
            ("a > b", "(> a b)"),
            ("a >= b", "(>= a b)"),
            // Unary vs binary minus.
            ("a - b", "(- a b)"),
            ("a - -b", "(- a (- b))"),
            ("a -b", "(- a b)"),
            ("-5", "(- 5)"),
            ("-a - b", "(- (- a) b)"),
            ("a * -b", "(* a (- b))"),
            // `if`.
            ("if c then 1 else 2", "(if c 1 2)"),
            ("if c then 1 else 2 + 3", "(if c 1 (+ 2 3))"),
            ("if c then a else b or d", "(if c a (or b d))"),
            ("1 + if c then 2 else 3", "(+ 1 (if c 2 3))"),
            ("(if c then 2 else 3) + 1", "(+ (if c 2 3) 1)"),
            (
                "if a and b then if c then 1 else 2 else 3",
                "(if (and a b) (if c 1 2) 3)",
            ),
            ("x == if c then 1 else 2", "(== x (if c 1 2))"),
            // Tuples and `in`.
            ("(a, b)", "(tuple a b)"),
            ("(a, b,)", "(tuple a b)"),
            ("(a,)", "(tuple a)"),
            ("month in {5, 6}", "(in month (set 5 6))"),
            ("month in {}", "(in month (set))"),
            ("month in {5,}", "(in month (set 5))"),
            (
                "(month, day) in {(5, 15), (6, 17),}",
                "(in (tuple month day) (set (tuple 5 15) (tuple 6 17)))",
            ),
            (
                "not x + 1 in {2} and b",
                "(and (not (in (+ x 1) (set 2))) b)",
            ),
            ("x in {1 + 2, -3}", "(in x (set (+ 1 2) (- 3)))"),
            // Calls.
            ("f()", "(call f)"),
            ("knows(Albert)", "(call knows Albert)"),
            (
                "knows(Albert, month == 5)",
                "(call knows Albert (== month 5))",
            ),
            ("knows_value(Albert, day,)", "(call knows_value Albert day)"),
            (
                "at(start, knows(Albert, not rain))",
                "(call at start (call knows Albert (not rain)))",
            ),
            (
                "not knows(Albert, x) and y",
                "(and (not (call knows Albert x)) y)",
            ),
            // Big literal.
            ("9223372036854775807", "9223372036854775807"),
            // Multi-line continuation.
            ("a and\n b", "(and a b)"),
            ("a ->\n\n b", "(-> a b)"),
            ("a +  # comment\n  # another\n b", "(+ a b)"),
            ("(a\n and b)", "(and a b)"),
            ("x in {\n 1,\n 2\n}", "(in x (set 1 2))"),
            ("knows(\n Albert,\n x\n)", "(call knows Albert x)"),
            ("if c then\n 1 else\n 2", "(if c 1 2)"),
            ("if\n c then 1 else 2", "(if c 1 2)"),
            ("not\n a", "(not a)"),
            ("a <->\n b", "(<-> a b)"),
            ("a in\n {1}", "(in a (set 1))"),
            ("\n a", "a"),
        ];
        for (src, want) in table {
            assert_eq!(expr(src), want, "{src:?}");
        }
    }

    #[test]
    fn expression_spans() {
        let src = "announce (a + b) * knows(Al, x) and -c";
        let story = parse_ok(src);
        let StmtKind::Announce(e) = &story.statements[0].kind else {
            panic!()
        };
        let text = |s: Span| &src[s.start..s.end];
        assert_eq!(text(e.span), "(a + b) * knows(Al, x) and -c");
        let ExprKind::Binary { lhs, rhs, .. } = &e.kind else {
            panic!()
        };
        assert_eq!(text(lhs.span), "(a + b) * knows(Al, x)");
        assert_eq!(text(rhs.span), "-c");
        let ExprKind::Binary {
            lhs: paren,
            rhs: call,
            ..
        } = &lhs.kind
        else {
            panic!()
        };
        assert_eq!(text(paren.span), "(a + b)");
        assert_eq!(text(call.span), "knows(Al, x)");
        let ExprKind::Call { name, args } = &call.kind else {
            panic!()
        };
        assert_eq!(text(name.span), "knows");
        assert_eq!(text(args[1].span), "x");

        let src = "announce (m, d) in {(1, 2)} -> if c then 1 else 2";
        let text = |s: Span| &src[s.start..s.end];
        let story = parse_ok(src);
        let StmtKind::Announce(e) = &story.statements[0].kind else {
            panic!()
        };
        let ExprKind::Binary { lhs, rhs, .. } = &e.kind else {
            panic!()
        };
        assert_eq!(text(lhs.span), "(m, d) in {(1, 2)}");
        assert_eq!(text(rhs.span), "if c then 1 else 2");
    }

    #[test]
    fn statements() {
        let src = "\
# Cheryl's birthday
characters Albert, Bernard,
int month, day
bool rain
announce (month, day) in {
  (5, 15), (5, 16),
}
Albert learns month
Eve learns day / 10
Bernard: knows(Albert, month == 5)   # says
checkpoint start
worlds
worlds 25
characters A,
  B
";
        let story = parse_ok(src);
        let shown: Vec<String> = story.statements.iter().map(show_stmt).collect();
        assert_eq!(
            shown,
            [
                "characters Albert Bernard",
                "Int month day",
                "Bool rain",
                "announce (in (tuple month day) (set (tuple 5 15) (tuple 5 16)))",
                "Albert learns month",
                "Eve learns (/ day 10)",
                "Bernard says (call knows Albert (== month 5))",
                "checkpoint start",
                "worlds None",
                "worlds Some((25, Span { start: 237, end: 239 }))",
                "characters A B",
            ]
        );
        let spans: Vec<&str> = story
            .statements
            .iter()
            .map(|s| &src[s.span.start..s.span.end])
            .collect();
        assert_eq!(
            spans,
            [
                "characters Albert, Bernard,",
                "int month, day",
                "bool rain",
                "announce (month, day) in {\n  (5, 15), (5, 16),\n}",
                "Albert learns month",
                "Eve learns day / 10",
                "Bernard: knows(Albert, month == 5)",
                "checkpoint start",
                "worlds",
                "worlds 25",
                "characters A,\n  B",
            ]
        );
        assert_eq!(&src[237..239], "25");
        let StmtKind::Learns { who, .. } = &story.statements[4].kind else {
            panic!()
        };
        assert_eq!(&src[who.span.start..who.span.end], "Albert");
    }

    /// The statements of a story that must parse, one string each.
    fn stmts(src: &str) -> Vec<String> {
        parse_ok(src).statements.iter().map(show_stmt).collect()
    }

    #[test]
    fn new_statements() {
        let table: &[(&str, &[&str])] = &[
            ("const n = 6", &["const n = 6"]),
            (
                "const m = -n * 2 + max(n, 3)",
                &["const m = (+ (* (- n) 2) (call max n 3))"],
            ),
            (
                "enum Colour { red, green, blue }",
                &["enum Colour red green blue"],
            ),
            (
                "enum Colour {\n  red,\n  green,\n}\nColour wall[5], door",
                &["enum Colour red green", "Colour wall[5] door"],
            ),
            (
                "characters child[n], Nobody\nbool muddy[n + 1]\nint age[3],",
                &[
                    "characters child[n] Nobody",
                    "Bool muddy[(+ n 1)]",
                    "Int age[3]",
                ],
            ),
            (
                "child[i] learns muddy[j]\nchild[0]: knows(muddy[0])\nchild[i - 1] reveals true",
                &[
                    "(index child i) learns (index muddy j)",
                    "(index child 0) says (call knows (index muddy 0))",
                    "(index child (- i 1)) reveals true",
                ],
            ),
            (
                "A reveals not knows_value(x)",
                &["A reveals (not (call knows_value x))"],
            ),
            ("for i in 0..n { worlds }", &["for i in 0..n {worlds None}"]),
            ("for i in 0..n {}", &["for i in 0..n {}"]),
            (
                "for i in a + 1..b * 2 {\n\n  A learns x\n  # comment\n  worlds\n\n}",
                &["for i in (+ a 1)..(* b 2) {A learns x; worlds None}"],
            ),
            (
                "for i in 0..n {\n  for j in 0..n {\n    if i != j { child[i] learns muddy[j] }\n  }\n}",
                &[
                    "for i in 0..n {for j in 0..n {if (!= i j) {(index child i) learns (index muddy j)}}}",
                ],
            ),
            (
                "if n > 1 { worlds } else { worlds 2 }",
                &["if (> n 1) {worlds None} else {worlds Some((2, Span { start: 34, end: 35 }))}"],
            ),
            (
                "if a { worlds } else if b {\n  announce c\n} else {\n}",
                &["if a {worlds None} else {if b {announce c} else {}}"],
            ),
            (
                "if x in {1, 2} { announce x in {3} }",
                &["if (in x (set 1 2)) {announce (in x (set 3))}"],
            ),
            (
                "simultaneously {\n  A: p\n  for i in 0..2 { child[i] reveals q }\n}",
                &["simultaneously {A says p; for i in 0..2 {(index child i) reveals q}}"],
            ),
            (
                "actual muddy[0] and not p",
                &["actual (and (index muddy 0) (not p))"],
            ),
            (
                "repeat max n {\n  checkpoint c\n  A: p\n} until knows(A, p)",
                &["repeat max n {checkpoint c; A says p} until (call knows A p)"],
            ),
            (
                "repeat max 3 { worlds } until\n  p",
                &["repeat max 3 {worlds None} until p"],
            ),
            (
                "assert_adds_ck p and q {\n  A: p\n}",
                &["assert_adds_ck (and p q) {A says p}"],
            ),
            (
                "assert_adds_ck x in {1} { announce p }",
                &["assert_adds_ck (in x (set 1)) {announce p}"],
            ),
            (
                "announce all(i in 0..n: muddy[i])",
                &["announce (all (i 0 n) (index muddy i))"],
            ),
            (
                "announce all(i in 0..n, j in i + 1..n if i != j: x[i] != x[j])",
                &[
                    "announce (all (i 0 n) (j (+ i 1) n) (if (!= i j)) (!= (index x i) (index x j)))",
                ],
            ),
            (
                "announce sum(i in 0..3:\n  age[i]) == 10",
                &["announce (== (sum (i 0 3) (index age i)) 10)"],
            ),
            (
                "announce distinct(a, b, c) and distinct(x in {1}, y)",
                &["announce (and (call distinct a b c) (call distinct (in x (set 1)) y))"],
            ),
            (
                "announce abs(x - 1) < min(y, 2)",
                &["announce (< (call abs (- x 1)) (call min y 2))"],
            ),
            (
                "announce -a[0] * b[i]",
                &["announce (* (- (index a 0)) (index b i))"],
            ),
        ];
        for (src, want) in table {
            assert_eq!(stmts(src), *want, "{src:?}");
        }
    }

    #[test]
    fn new_statement_spans() {
        let src = "for i in 0..2 {\n  child[i] learns x\n}\nif c { worlds } else { worlds }\nrepeat max 2 { worlds } until p\n";
        let story = parse_ok(src);
        let text = |s: Span| &src[s.start..s.end];
        let spans: Vec<&str> = story.statements.iter().map(|s| text(s.span)).collect();
        assert_eq!(
            spans,
            [
                "for i in 0..2 {\n  child[i] learns x\n}",
                "if c { worlds } else { worlds }",
                "repeat max 2 { worlds } until p",
            ]
        );
        let StmtKind::For { body, .. } = &story.statements[0].kind else {
            panic!()
        };
        assert_eq!(text(body.span), "{\n  child[i] learns x\n}");
        assert_eq!(text(body.statements[0].span), "child[i] learns x");
        let StmtKind::Learns { who, .. } = &body.statements[0].kind else {
            panic!()
        };
        assert_eq!(text(who.span), "child[i]");
    }

    #[test]
    fn new_error_messages() {
        // (source, message, line, column, hints)
        let table: &[(&str, &str, usize, usize, &[&str])] = &[
            (
                "const n == 3",
                "expected `=` after `const n`, found `==`",
                1,
                9,
                &["write `const n = 3`"],
            ),
            (
                "const = 3",
                "expected a name after `const`, found `=`",
                1,
                7,
                &["write e.g. `const n = 3`"],
            ),
            (
                "const n",
                "expected `=` after `const n`, found end of input",
                1,
                8,
                &["write `const n = 3`"],
            ),
            (
                "enum E {}",
                "enum `E` needs at least one value",
                1,
                8,
                &["e.g. `enum E { a, b }`"],
            ),
            (
                "enum E red, green",
                "expected `{` after `enum E`, found `red`",
                1,
                8,
                &["write `enum E { a, b, c }`"],
            ),
            (
                "enum E { a b }",
                "expected `,` or `}`, found `b`",
                1,
                12,
                &[],
            ),
            ("enum E { a,", "unclosed `{`", 1, 8, &["add a matching `}`"]),
            (
                "bool p[3]\nannounce p[0, 1]",
                "only one index is allowed",
                2,
                13,
                &["families have a single index: `p[0]`"],
            ),
            (
                "bool p[3]\nannounce p[0][1]",
                "only one index is allowed",
                2,
                14,
                &["families have a single index: `p[0]`"],
            ),
            (
                "announce p[]",
                "expected an expression, found `]`",
                1,
                12,
                &[],
            ),
            (
                "announce p[0",
                "unclosed `[`",
                1,
                11,
                &["add a matching `]`"],
            ),
            (
                "child[0] says x",
                "expected `learns`, `:`, `reveals` or `:=` after `child[0]`, found `says`",
                1,
                10,
                &[],
            ),
            (
                "characters A\nA reveal p",
                "expected `learns` or `:` after `A`",
                2,
                3,
                &["did you mean `reveals`?"],
            ),
            (
                "enum Colour { red }\nColur wall",
                "unknown statement starting with `Colur`",
                2,
                1,
                &["did you mean `Colour`?"],
            ),
            (
                "for i 0..3 { worlds }",
                "expected `in` after `for i`, found `0`",
                1,
                7,
                &["write `for i in 0..n { … }`"],
            ),
            (
                "for i in 0 { worlds }",
                "expected `..`, found `{`",
                1,
                12,
                &["a range is written `a..b`: the integers from a up to b - 1"],
            ),
            (
                "for i in 0.3 { worlds }",
                "unexpected character `.`",
                1,
                11,
                &["a range is written `a..b`"],
            ),
            (
                "for i in 0..3 worlds",
                "expected `{` after the range of `for`, found `worlds`",
                1,
                15,
                &[],
            ),
            (
                "for i in 0..3\n{ worlds }",
                "expected `{` after the range of `for`, found end of line",
                1,
                14,
                &["a block starts with `{` on the same line"],
            ),
            (
                "for i in 0..3 { worlds",
                "unclosed `{`",
                1,
                15,
                &["add a matching `}`"],
            ),
            (
                "for i in 0..3 { worlds worlds }",
                "`worlds` takes a whole number, found `worlds`",
                1,
                24,
                &["e.g. `worlds 25`, or just `worlds` for up to 10"],
            ),
            (
                "if p then announce q",
                "expected `{`, found `then`",
                1,
                6,
                &[
                    "a statement `if` takes a block: `if c { … }`; to announce a conditional fact, \
                   write `announce if c then … else …`",
                ],
            ),
            (
                "if p { worlds }\nelse { worlds }",
                "`else` must be on the same line as the `}` before it",
                2,
                1,
                &["write `} else`"],
            ),
            (
                "else { worlds }",
                "expected a statement, found `else`",
                1,
                1,
                &["`else` goes on the same line as the `}` that closes the `if` block: `} else {`"],
            ),
            (
                "repeat 3 { worlds } until p",
                "expected `max` after `repeat`, found `3`",
                1,
                8,
                &["write `repeat max 10 { … } until …`"],
            ),
            (
                "repeat max 3 { worlds }",
                "expected `until` after the block of `repeat`, found end of input",
                1,
                24,
                &["say when to stop: `repeat max 10 { … } until …`"],
            ),
            (
                "repeat max 3 { worlds }\nuntil p",
                "`until` must be on the same line as the `}` before it",
                2,
                1,
                &["write `} until`"],
            ),
            (
                "repeat max 3 { worlds } until",
                "expected an expression, found end of input",
                1,
                30,
                &[],
            ),
            (
                "simultaneously announce p",
                "expected `{` after `simultaneously`, found `announce`",
                1,
                16,
                &[],
            ),
            (
                "assert_adds_ck p\n{ worlds }",
                "expected `{` after the hint of `assert_adds_ck`, found end of line",
                1,
                17,
                &["a block starts with `{` on the same line"],
            ),
            (
                "announce all(i in 0..3 j in 0..3: p)",
                "expected `:` before the body, found `j`",
                1,
                24,
                &["write `all(i in 0..n: …)`"],
            ),
            (
                "announce all(i in 0..3, 4: p)",
                "expected another `name in a..b`, found `4`",
                1,
                25,
                &["write `all(i in 0..n, j in 0..n: …)`"],
            ),
            (
                "announce all(i in 0..3: p",
                "unclosed `(`",
                1,
                13,
                &["add a matching `)`"],
            ),
            (
                "announce all(i in 0..3: p q)",
                "expected `)`, found `q`",
                1,
                27,
                &[],
            ),
            (
                "}",
                "expected a statement, found `}`",
                1,
                1,
                &["this `}` has no matching `{`"],
            ),
            (
                "announce for",
                "expected an expression, found `for`",
                1,
                10,
                &["`for` is a keyword"],
            ),
            (
                "int until",
                "expected a name, found `until`",
                1,
                5,
                &["`until` is a keyword"],
            ),
        ];
        for &(src, message, line, col, hints) in table {
            let d = error(src);
            assert_eq!(d.message, message, "{src:?}");
            assert_eq!(line_col(src, d.span.start), (line, col), "{src:?}: {d:?}");
            assert_eq!(d.hints, hints, "{src:?}");
        }
    }

    #[test]
    fn errors_inside_blocks_recover_at_the_next_line() {
        let src = "\
for i in 0..3 {
  announce a =
  child[i] learns
  worlds
  if p {
    announce )
  }
}
announce (
worlds
";
        assert_eq!(
            errors(src),
            [
                ("`=` is not an operator".to_string(), 2, 14),
                (
                    "expected an expression, found end of line".to_string(),
                    3,
                    18
                ),
                ("expected an expression, found `)`".to_string(), 6, 14),
                ("unclosed `(`".to_string(), 9, 10),
            ]
        );
        // A bad header skips its whole block.
        let src = "for i 0..3 {\n  announce )\n}\nannounce )";
        assert_eq!(
            errors(src),
            [
                ("expected `in` after `for i`, found `0`".to_string(), 1, 7),
                ("expected an expression, found `)`".to_string(), 4, 10),
            ]
        );
        // Deeply nested blocks are an error, not a crash.
        let deep = format!("{}worlds{}", "if p { ".repeat(100), " }".repeat(100));
        assert_eq!(error(&deep).message, "blocks are nested too deeply");
        let long = format!(
            "if p {{ worlds }}{}",
            " else if p { worlds }".repeat(10_000)
        );
        assert_eq!(error(&long).message, "blocks are nested too deeply");
        let ok = format!("if p {{ worlds }}{}", " else if p { worlds }".repeat(50));
        parse_ok(&ok);
    }

    #[test]
    fn empty_and_blank_stories() {
        for src in ["", "\n", "   \n\n  # only a comment\n", "# c", "\r\n\t\r\n"] {
            assert_eq!(parse(src), Ok(Story { statements: vec![] }), "{src:?}");
        }
        // Windows line endings.
        assert_eq!(parse_ok("int a\r\nbool b\r\n").statements.len(), 2);
        // Last line without a newline.
        assert_eq!(parse_ok("int a\nannounce a > 1").statements.len(), 2);
    }

    #[test]
    fn error_messages() {
        // (source, message, line, column, hints)
        let table: &[(&str, &str, usize, usize, &[&str])] = &[
            (
                "announce )",
                "expected an expression, found `)`",
                1,
                10,
                &[],
            ),
            (
                "announce (a + b",
                "unclosed `(`",
                1,
                10,
                &["add a matching `)`"],
            ),
            (
                "announce x in {1, 2",
                "unclosed `{`",
                1,
                15,
                &["add a matching `}`"],
            ),
            (
                "announce knows(A,\nworlds",
                "unclosed `(`",
                1,
                15,
                &["add a matching `)`"],
            ),
            (
                "announce if a then b",
                "expected `else`, found end of input",
                1,
                21,
                &[],
            ),
            (
                "announce if a else b",
                "expected `then`, found `else`",
                1,
                15,
                &[],
            ),
            (
                "announce a < b < c",
                "comparisons cannot be chained",
                1,
                16,
                &["use `and`: a < b and b < c"],
            ),
            (
                "announce 1 <= x < 5",
                "comparisons cannot be chained",
                1,
                17,
                &["use `and`: 1 <= x and x < 5"],
            ),
            (
                "announce a == b in {1}",
                "comparisons cannot be chained",
                1,
                17,
                &["use `and`, or parentheses"],
            ),
            ("announce a @ b", "unexpected character `@`", 1, 12, &[]),
            (
                "announce a = b",
                "`=` is not an operator",
                1,
                12,
                &["use `==` to compare"],
            ),
            (
                "announce ! a",
                "`!` is not an operator",
                1,
                10,
                &["use `not` or `!=`"],
            ),
            (
                "announce a && b",
                "`&&` is not an operator",
                1,
                12,
                &["use `and`"],
            ),
            (
                "announce a || b",
                "`||` is not an operator",
                1,
                12,
                &["use `or`"],
            ),
            (
                "announce a => b",
                "`=>` is not an operator",
                1,
                12,
                &["use `->`"],
            ),
            (
                "announce a ≤ b",
                "unexpected character `≤`",
                1,
                12,
                &["use `<=`"],
            ),
            (
                "Albert month",
                "expected `learns` or `:` after `Albert`",
                1,
                8,
                &[],
            ),
            (
                "Albert",
                "expected `learns` or `:` after `Albert`",
                1,
                7,
                &[],
            ),
            (
                "Albert learn month",
                "expected `learns` or `:` after `Albert`",
                1,
                8,
                &["did you mean `learns`?"],
            ),
            (
                "Albert says x",
                "expected `learns` or `:` after `Albert`",
                1,
                8,
                &["write `Albert: …` for what Albert says"],
            ),
            (
                "month == 5",
                "expected `learns` or `:` after `month`",
                1,
                7,
                &["to announce a fact, write `announce …`"],
            ),
            (
                "anounce x",
                "unknown statement starting with `anounce`",
                1,
                1,
                &["did you mean `announce`?"],
            ),
            (
                "character A",
                "unknown statement starting with `character`",
                1,
                1,
                &["did you mean `characters`?"],
            ),
            (
                "3 > 2",
                "expected a statement, found `3`",
                1,
                1,
                &["to announce a fact, write `announce …`"],
            ),
            ("characters 3", "expected a name, found `3`", 1, 12, &[]),
            (
                "int in",
                "expected a name, found `in`",
                1,
                5,
                &["`in` is a keyword"],
            ),
            (
                "characters A, if",
                "expected a name, found `if`",
                1,
                15,
                &["`if` is a keyword"],
            ),
            (
                "checkpoint",
                "expected a name, found end of input",
                1,
                11,
                &[],
            ),
            (
                "announce worlds > 3",
                "expected an expression, found `worlds`",
                1,
                10,
                &["`worlds` is a keyword"],
            ),
            (
                "announce",
                "expected an expression, found end of input",
                1,
                9,
                &[],
            ),
            (
                "announce a ==\n",
                "expected an expression, found end of input",
                1,
                14,
                &[],
            ),
            (
                "announce a ==\nworlds",
                "expected an expression, found end of line",
                1,
                14,
                &[],
            ),
            (
                "announce a b",
                "expected end of line, found `b`",
                1,
                12,
                &[],
            ),
            (
                "announce a)",
                "expected end of line, found `)`",
                1,
                11,
                &["this `)` has no matching opening bracket"],
            ),
            (
                "announce (a b)",
                "expected `,` or `)`, found `b`",
                1,
                13,
                &[],
            ),
            (
                "announce f(a b)",
                "expected `,` or `)`, found `b`",
                1,
                14,
                &[],
            ),
            (
                "announce x in {1 2}",
                "expected `,` or `}`, found `2`",
                1,
                18,
                &[],
            ),
            (
                "announce x in (1, 2)",
                "expected `{` after `in`, found `(`",
                1,
                15,
                &["write a set: `x in {1, 2, 3}`"],
            ),
            (
                "announce ()",
                "expected an expression, found `)`",
                1,
                11,
                &[],
            ),
            (
                "announce a == not b",
                "expected an expression, found `not`",
                1,
                15,
                &["`not` binds loosely: write `(not …)` here"],
            ),
            (
                "announce {1}",
                "expected an expression, found `{`",
                1,
                10,
                &["sets `{…}` only follow `in`"],
            ),
            (
                "worlds x",
                "`worlds` takes a whole number, found `x`",
                1,
                8,
                &["e.g. `worlds 25`, or just `worlds` for up to 10"],
            ),
            (
                "worlds -1",
                "`worlds` takes a whole number, found `-`",
                1,
                8,
                &["e.g. `worlds 25`, or just `worlds` for up to 10"],
            ),
            (
                "worlds 99999999999999999999",
                "integer literal too large",
                1,
                8,
                &[],
            ),
            (
                "announce 9223372036854775808",
                "integer literal too large",
                1,
                10,
                &["integers must be at most 9223372036854775807"],
            ),
            (
                "announce 12ab",
                "invalid number `12ab`",
                1,
                10,
                &["names cannot start with a digit"],
            ),
            (
                "learns x",
                "expected a statement, found `learns`",
                1,
                1,
                &["`learns` follows a character's name: `Albert learns month`"],
            ),
            (
                "int a;",
                "unexpected character `;`",
                1,
                6,
                &["a statement ends at the end of its line"],
            ),
            (
                "announce a and # x\n  @",
                "unexpected character `@`",
                2,
                3,
                &[],
            ),
        ];
        for &(src, message, line, col, hints) in table {
            let d = error(src);
            assert_eq!(d.message, message, "{src:?}");
            assert_eq!(line_col(src, d.span.start), (line, col), "{src:?}: {d:?}");
            assert_eq!(d.hints, hints, "{src:?}");
        }
    }

    #[test]
    fn error_spans_point_at_the_token() {
        let src = "announce a && b";
        let d = error(src);
        assert_eq!(&src[d.span.start..d.span.end], "&&");
        let src = "Albert month";
        let d = error(src);
        assert_eq!(&src[d.span.start..d.span.end], "month");
    }

    #[test]
    fn every_error_is_reported() {
        let src = "\
characters Albert, Bernard
int month, day
announce month = 5
Albert learns month
announce (day > 3
  and day < 10
Bernard learns day

announce day < month < 10
worlds
";
        assert_eq!(
            errors(src),
            [
                ("`=` is not an operator".to_string(), 3, 16),
                ("unclosed `(`".to_string(), 5, 10),
                ("comparisons cannot be chained".to_string(), 9, 22),
            ]
        );
    }

    #[test]
    fn one_error_per_statement() {
        // The bad statement spans lines through its brackets; the rest still parses.
        let src = "announce a @ (b\n c @ d)\nannounce = \nworlds\n";
        assert_eq!(
            errors(src),
            [
                ("unexpected character `@`".to_string(), 1, 12),
                ("`=` is not an operator".to_string(), 3, 10)
            ]
        );
        // A trailing bad operator continues the line, so the next line is not a
        // second, confusing error.
        let src = "announce a =\n  b\nworlds";
        assert_eq!(errors(src), [("`=` is not an operator".to_string(), 1, 12)]);
    }

    #[test]
    fn a_line_starting_with_and_or_continues_the_statement() {
        let src = "announce a\n  and b\n  or c ->\n  d\n  <-> e\nworlds";
        let story = parse(src).expect("parses");
        assert_eq!(story.statements.len(), 2);
        let StmtKind::Announce(formula) = &story.statements[0].kind else {
            panic!("an announcement: {:?}", story.statements[0])
        };
        assert_eq!(show(formula), "(<-> (-> (or (and a b) c) d) e)");
        // Inside a block too.
        let src = "for i in 0..2 {\n  announce a\n    and b\n}";
        assert!(parse(src).is_ok());
    }

    #[test]
    fn a_line_starting_with_an_operator_is_one_error() {
        let src = "announce a\n  == b\n  + c\nannounce )";
        let diags = parse(src).unwrap_err();
        assert_eq!(diags.len(), 2, "{diags:?}");
        assert_eq!(diags[0].message, "expected a statement, found `==`");
        assert_eq!(line_col(src, diags[0].span.start), (2, 3));
        assert_eq!(
            diags[0].hints,
            ["to continue the previous statement, end its line with `==` instead"]
        );
        assert_eq!(diags[1].message, "expected an expression, found `)`");

        let src = "announce if c then 1\nelse 2\nworlds";
        let diags = parse(src).unwrap_err();
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].message, "expected `else`, found end of line");
        assert_eq!(line_col(src, diags[0].span.start), (1, 21));
        assert_eq!(
            diags[0].hints,
            [
                "a statement continues on the next line only if this line ends with an operator or keyword; \
              move `else` to the end of this line"
            ]
        );
    }

    #[test]
    fn unclosed_bracket_does_not_swallow_the_story() {
        let src = "announce (a and b\nAlbert learns month\nannounce )\n";
        assert_eq!(
            errors(src),
            [
                ("unclosed `(`".to_string(), 1, 10),
                ("expected an expression, found `)`".to_string(), 3, 10)
            ]
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("announce {}a{}", "(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(error(&deep).message, "expression is nested too deeply");
        let long = format!("announce a{}", " + a".repeat(10_000));
        assert_eq!(error(&long).message, "expression is too large");
        let nots = format!("announce {}a", "not ".repeat(10_000));
        assert_eq!(error(&nots).message, "expression is too large");
        let ok = format!("announce {}a{}", "(".repeat(50), ")".repeat(50));
        parse_ok(&ok);
        let ok = format!("announce a{}", " + a".repeat(200));
        parse_ok(&ok);
    }

    /// A tiny deterministic PRNG (xorshift) for the no-panic test.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn never_panics() {
        let pieces = [
            "characters",
            "int",
            "bool",
            "announce",
            "learns",
            "checkpoint",
            "worlds",
            "true",
            "false",
            "not",
            "and",
            "or",
            "if",
            "then",
            "else",
            "in",
            "knows",
            "const",
            "enum",
            "for",
            "simultaneously",
            "actual",
            "reveals",
            "repeat",
            "max",
            "until",
            "assert_adds_ck",
            "[",
            "]",
            "..",
            ".",
            "all(i in 0..3: x)",
            "for i in 0..2 {\n",
            "(",
            ")",
            "{",
            "}",
            ",",
            ":",
            "+",
            "-",
            "*",
            "/",
            "%",
            "==",
            "!=",
            "<",
            "<=",
            ">",
            ">=",
            "->",
            "<->",
            "=",
            "!",
            "&",
            "&&",
            "|",
            "@",
            "#",
            "\n",
            "\n",
            "\n",
            " ",
            "\t",
            "\r",
            "Albert",
            "x",
            "0",
            "7",
            "99999999999999999999999",
            "é",
            "≤",
            "💥",
            "\u{0}",
            ";",
            "\"",
            "_",
            "12ab",
        ];
        let story = "characters A, B\nint m, d\nannounce (m, d) in {(1, 2)}\nA learns m\nB: knows(A, m)\nworlds 3\n";
        let full = "const n = 2\nenum C { r, g }\ncharacters c[n]\nC w[n]\nfor i in 0..n {\n  if i != 0 { c[i] learns w[i] } else { worlds }\n}\nsimultaneously { c[0] reveals knows_value(w[1]) }\nrepeat max 2 {\n  actual w[0] == r\n} until all(i in 0..n: w[i] != g)\nassert_adds_ck true { announce true }\n";
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..20_000 {
            let mut src = String::new();
            for _ in 0..rng.below(30) {
                src.push_str(pieces[rng.below(pieces.len())]);
                if rng.below(2) == 0 {
                    src.push(' ');
                }
            }
            check_no_panic(&src);
            // Garble a valid story: delete, duplicate or insert at random char positions.
            let base = if rng.below(2) == 0 { story } else { full };
            let chars: Vec<char> = base.chars().collect();
            let mut garbled: Vec<char> = chars.clone();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(garbled.len() + 1);
                match rng.below(3) {
                    0 if i < garbled.len() => {
                        garbled.remove(i);
                    }
                    1 => garbled.insert(i, chars[rng.below(chars.len())]),
                    _ => {
                        let piece = pieces[rng.below(pieces.len())];
                        for (k, c) in piece.chars().enumerate() {
                            garbled.insert(i + k, c);
                        }
                    }
                }
            }
            check_no_panic(&garbled.into_iter().collect::<String>());
        }
        // Truncations of a valid story at every byte that is a char boundary.
        for base in [story, full] {
            parse_ok(base);
            for i in 0..=base.len() {
                check_no_panic(&base[..i]);
            }
        }
    }

    fn check_no_panic(src: &str) {
        if let Err(diags) = parse(src) {
            assert!(!diags.is_empty());
            for d in diags {
                assert!(
                    d.span.start <= d.span.end && d.span.end <= src.len(),
                    "{src:?}: {d:?}"
                );
                assert!(src.is_char_boundary(d.span.start) && src.is_char_boundary(d.span.end));
                let rendered = d.render("f.story", src);
                assert!(rendered.ends_with('\n'));
            }
        }
    }
}
