//! Statements and declarations.

use crate::ast::{Block, Decl, Expr, ExprKind, Ident, Range, SortName, Stmt, StmtKind};
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::span::Span;

use super::{
    MAX_NESTING, Node, PResult, Parser, STATEMENT_KEYWORDS, binop_of, boxed, close_to,
    continues_expression, starts_expr, unclosed,
};

impl Parser<'_> {
    /// Statements up to the end of input, or inside a block up to its `}` (left for the
    /// caller). Errors go to `self.diags`; after one the parser skips to the next line.
    pub(super) fn statements(&mut self, in_block: bool) -> Vec<Stmt> {
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

    pub(super) fn statement(&mut self) -> PResult<Stmt> {
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
                let names = self.decl_list()?;
                if sort == SortName::Int
                    && matches!(self.peek_kind(), TokenKind::In | TokenKind::Colon)
                {
                    return Err(self.declared_values(first.span, &names));
                }
                if matches!(self.peek_kind(), TokenKind::Invalid { .. })
                    && self.text(self.peek().span) == "="
                {
                    return Err(self.declared_value(&sort, first.span, &names));
                }
                StmtKind::Constants { sort, names }
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
                if self.at(&TokenKind::Actual) {
                    self.bump();
                    StmtKind::CheckActual(self.expr()?)
                } else {
                    StmtKind::Check(self.expr()?)
                }
            }
            TokenKind::Event => {
                self.bump();
                self.event()?
            }
            TokenKind::Def => {
                self.bump();
                self.def()?
            }
            TokenKind::Action | TokenKind::Do | TokenKind::Plan => self.planning()?,
            TokenKind::Where => {
                self.bump();
                StmtKind::Where(self.expr()?)
            }
            TokenKind::Prior => {
                self.bump();
                StmtKind::Prior(self.expr()?)
            }
            TokenKind::Show => {
                self.bump();
                StmtKind::Show(self.expr()?)
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
    pub(super) fn character_statement(&mut self, name: Ident) -> PResult<StmtKind> {
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
                let mut what = vec![self.expr()?];
                while self.at(&TokenKind::Comma) {
                    self.bump();
                    what.push(self.expr()?);
                }
                Ok(StmtKind::Learns { who, what })
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
            TokenKind::Expects => {
                self.bump();
                Ok(StmtKind::Expects {
                    who,
                    what: self.expr()?,
                })
            }
            TokenKind::Assign => {
                self.bump();
                Ok(StmtKind::Assign {
                    targets: vec![who],
                    values: vec![self.expr()?],
                })
            }
            TokenKind::Comma => self.assignments(who),
            _ => match &who.kind {
                ExprKind::Name(name) => Err(self.bad_name_statement(name)),
                _ => {
                    let text = self.text(who.span);
                    Err(self.unexpected(&format!(
                        "`learns`, `:`, `reveals`, `expects` or `:=` after `{text}`"
                    )))
                }
            },
        }
    }

    /// `x, y := e, f` after `x` (the current token is the first `,`): every target is
    /// assigned at once, its value read before any is written.
    pub(super) fn assignments(&mut self, first: Expr) -> PResult<StmtKind> {
        let mut targets = vec![first];
        while self.at(&TokenKind::Comma) {
            self.bump();
            let name = self.name()?;
            targets.push(if self.at(&TokenKind::LBracket) {
                self.index(name)?.0
            } else {
                let span = name.span;
                Expr {
                    kind: ExprKind::Name(name),
                    span,
                }
            });
        }
        if !self.at(&TokenKind::Assign) {
            return Err(self
                .unexpected("`:=` after the names to change")
                .with_hint("a simultaneous change is written `x, y := e, f`"));
        }
        let assign = self.bump().span;
        let mut values = vec![self.expr()?];
        while self.at(&TokenKind::Comma) {
            self.bump();
            values.push(self.expr()?);
        }
        if values.len() != targets.len() {
            let (t, v) = (targets.len(), values.len());
            return Err(Diagnostic::error(
                assign,
                format!(
                    "{t} names to change but {v} value{}",
                    if v == 1 { "" } else { "s" }
                ),
            )
            .with_hint("give one value per name, in the same order: `x, y := e, f`"));
        }
        Ok(StmtKind::Assign { targets, values })
    }

    /// `const n = e` after `const`.
    pub(super) fn const_decl(&mut self) -> PResult<StmtKind> {
        if !matches!(self.peek_kind(), TokenKind::Ident(_)) {
            let found = self.describe(self.peek());
            let diag = Diagnostic::error(
                self.peek().span,
                format!("expected a name after `const`, found {found}"),
            );
            return Err(self.keyword_hint(diag.with_hint("write e.g. `const n = 3`")));
        }
        let name = self.name()?;
        self.expect_equals(
            "const",
            &name.name,
            format!("write `const {} = 3`", name.name),
        )?;
        Ok(StmtKind::Const {
            name,
            value: self.expr()?,
        })
    }

    /// `def name(a, b) = e` / `def name = e` after `def`.
    pub(super) fn def(&mut self) -> PResult<StmtKind> {
        if !matches!(self.peek_kind(), TokenKind::Ident(_)) {
            let found = self.describe(self.peek());
            let diag = Diagnostic::error(
                self.peek().span,
                format!("expected a name after `def`, found {found}"),
            );
            return Err(self.keyword_hint(
                diag.with_hint("write e.g. `def safe(i) = not muddy[i]` or `def done = x > 3`"),
            ));
        }
        let name = self.name()?;
        let mut params = Vec::new();
        if self.at(&TokenKind::LParen) {
            let open = self.bump();
            while !self.at(&TokenKind::RParen) {
                if !matches!(self.peek_kind(), TokenKind::Ident(_)) {
                    if self.at_line_end() {
                        return Err(unclosed(&open));
                    }
                    return Err(self
                        .unexpected("a parameter's name")
                        .with_hint(format!("write e.g. `def {}(i, j) = …`", name.name)));
                }
                params.push(self.name()?);
                if self.at(&TokenKind::Comma) {
                    self.bump();
                } else if !self.at(&TokenKind::RParen) {
                    return Err(self.unexpected("`,` or `)` after a parameter"));
                }
            }
            self.bump();
        }
        self.expect_equals(
            "def",
            &name.name,
            format!("write `def {}(i) = …`", name.name),
        )?;
        Ok(StmtKind::Def {
            name,
            params,
            body: self.expr()?,
        })
    }

    /// The `=` after `const NAME` or `def NAME(…)` (`keyword`), or the error that asks
    /// for it with `hint`.
    fn expect_equals(&mut self, keyword: &str, name: &str, hint: String) -> PResult<()> {
        let tok = self.peek();
        let is_assign = matches!(tok.kind, TokenKind::Invalid { .. }) && self.text(tok.span) == "=";
        if !is_assign {
            let diag = Diagnostic::error(
                tok.span,
                format!(
                    "expected `=` after `{keyword} {name}`, found {}",
                    self.describe(tok)
                ),
            );
            return Err(diag.with_hint(hint));
        }
        self.bump();
        Ok(())
    }

    /// `enum E { a, b, c }` after `enum`.
    pub(super) fn enum_decl(&mut self) -> PResult<StmtKind> {
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
    pub(super) fn for_loop(&mut self) -> PResult<StmtKind> {
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

    /// `lo..hi`, or a list `{a, b, c}`.
    pub(super) fn range(&mut self) -> PResult<Range> {
        if self.at(&TokenKind::LBrace) {
            let open = self.bump();
            let (items, close) = self.comma_list(&open, TokenKind::RBrace)?;
            let span = open.span.to(close);
            if items.is_empty() {
                return Err(
                    Diagnostic::error(span, "a list of values needs at least one value")
                        .with_hint("e.g. `for c in {0, 7, 35} { … }`"),
                );
            }
            let items = items.into_iter().map(|n| n.0).collect();
            return Ok(Range::List { items, span });
        }
        let lo = self.additive()?.0;
        if let TokenKind::Invalid { diag, .. } = self.peek_kind() {
            return Err((**diag).clone());
        }
        if !self.at(&TokenKind::DotDot) {
            return Err(self.unexpected("`..`").with_hint(
                "a range is written `a..b`: the integers from a up to b - 1; or list the \
                     values: `{0, 7, 35}`",
            ));
        }
        self.bump();
        let hi = self.additive()?.0;
        Ok(Range::Between { lo, hi })
    }

    /// `if c { … } [else { … } | else if …]` after `if`.
    pub(super) fn if_statement(&mut self) -> PResult<StmtKind> {
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
                let (start, kind) = self.nested(Self::if_statement)?;
                let (start, kind) = (start.span, kind?);
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
    pub(super) fn repeat(&mut self) -> PResult<StmtKind> {
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
    pub(super) fn check_same_line(&mut self, keyword: TokenKind, text: &str) -> PResult<()> {
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

    pub(super) fn too_deep(&self) -> Diagnostic {
        Diagnostic::error(self.peek().span, "blocks are nested too deeply").with_hint(format!(
            "at most {MAX_NESTING} blocks and `else if`s may nest"
        ))
    }

    /// Bumps the token that opens a nested part (`{`, or the `if` of an `else if`) and
    /// parses the part with `parse` one level deeper; an error when that is too deep.
    pub(super) fn nested<T>(&mut self, parse: impl FnOnce(&mut Self) -> T) -> PResult<(Token, T)> {
        if self.blocks >= MAX_NESTING {
            return Err(self.too_deep());
        }
        let open = self.bump();
        self.blocks += 1;
        let inside = parse(self);
        self.blocks -= 1;
        Ok((open, inside))
    }

    /// `{ statements }`; `after` names what precedes it, for messages.
    pub(super) fn block(&mut self, after: &str) -> PResult<Block> {
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
        let (open, statements) = self.nested(|p| p.statements(true))?;
        if !self.at(&TokenKind::RBlock) {
            return Err(unclosed(&open));
        }
        let close = self.bump();
        Ok(Block {
            statements,
            span: open.span.to(close.span),
        })
    }

    pub(super) fn statement_end(&mut self) -> PResult<()> {
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
            TokenKind::Bar => Err(self.unexpected("end of line").with_hint("use `or`")),
            _ => Err(self.unexpected("end of line")),
        }
    }

    /// A statement that starts with a name not followed by `learns` or `:`.
    pub(super) fn bad_name_statement(&self, who: &Ident) -> Diagnostic {
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
                if let Some(sort) = enums.iter().find(|e| close_to(word, e)) {
                    return Diagnostic::error(
                        who.span,
                        format!("unknown statement starting with `{word}`"),
                    )
                    .with_hint(format!("did you mean `{sort}`?"));
                }
                // `real A`, `string a, b[3]`: a declaration with a type that is none.
                let after = self.toks.get(self.pos + 1).map(|t| &t.kind);
                let declares = matches!(
                    after,
                    Some(
                        TokenKind::Newline
                            | TokenKind::Eof
                            | TokenKind::Comma
                            | TokenKind::LBracket
                    )
                );
                let lowercase = word.starts_with(|c: char| c.is_ascii_lowercase());
                let says = matches!(&next.kind, TokenKind::Ident(w)
                    if w == "says" || w == "said" || close_to(w, "learns") || close_to(w, "reveals"));
                if declares && lowercase && !says && !self.characters.contains(word) {
                    let mut types = vec!["`int`".to_string(), "`bool`".to_string()];
                    types.extend(enums.iter().map(|e| format!("`{e}`")));
                    let last = types.pop().unwrap_or_default();
                    let mut hint = format!("the types are {} and {last}", types.join(", "));
                    if enums.is_empty() {
                        hint.push_str(
                            ", and the enums the story declares (`enum Colour { red, green }`)",
                        );
                    }
                    return Diagnostic::error(who.span, format!("unknown type `{word}`"))
                        .with_hint(hint);
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
            TokenKind::Ident(word) if self.modal_after_name().is_some() => {
                diag = diag.with_hint(format!(
                    "to announce it, write `announce {word}({}, …)`",
                    who.name
                ));
            }
            _ if next_is_operator => {
                diag = diag.with_hint("to announce a fact, write `announce …`");
            }
            _ => {}
        }
        diag
    }

    pub(super) fn worlds_limit(&mut self) -> PResult<Option<(u64, Span)>> {
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

    pub(super) fn name(&mut self) -> PResult<Ident> {
        if let TokenKind::Ident(name) = self.peek_kind() {
            let name = name.clone();
            let span = self.bump().span;
            Ok(Ident { name, span })
        } else {
            Err(self.keyword_hint(self.unexpected("a name")))
        }
    }

    /// A declaration as written up to the current token (`int a, b[2]`: its `keyword`,
    /// then its `names`, at least one), and its last name (`b`): what a declared value's
    /// hint declares and announces.
    fn declaration(&self, keyword: Span, names: &[Decl]) -> (String, String) {
        let written = names[0].name.span.to(self.toks[self.pos - 1].span);
        let declared = format!("{} {}", self.text(keyword), self.text(written));
        (declared, names[names.len() - 1].name.name.clone())
    }

    /// An int declared with its values, `int x in 1..6` (at `in` or `:`, after the
    /// `names` its `keyword` declares): the error, with the declaration as written and
    /// the announcement that says the values of its last name.
    fn declared_values(&mut self, keyword: Span, names: &[Decl]) -> Diagnostic {
        let (declared, x) = self.declaration(keyword, names);
        let diag = self.unexpected("end of line");
        let colon = self.bump().kind == TokenKind::Colon;
        // After `:`, a `{` opens a block to the lexer: the set is the line's text.
        let braced = match colon && self.at(&TokenKind::LBlock) {
            true => self.rest_of_line().filter(|t| t.ends_with('}')),
            false => None,
        };
        let values = match braced {
            Some(set) => Ok(format!("`announce {x} in {set}`")),
            None => self.range().map(|range| match range {
                Range::Between { lo, hi } => {
                    let (lo, hi) = (self.text(lo.span), self.text(hi.span));
                    format!("`announce {x} in {lo}..{hi}`")
                }
                Range::List { span, .. } => format!("`announce {x} in {}`", self.text(span)),
            }),
        };
        let values = values.unwrap_or_else(|_| format!("e.g. `announce {x} in 1..6`"));
        diag.with_hint(format!(
            "an int is declared without its values: declare `{declared}`, then announce \
             which it can take: {values}"
        ))
    }

    /// A constant declared with its value, `int x = 14` (at `=`, after the `names` its
    /// `keyword` declares): the lexer's error, with the declaration as written, the
    /// announcement that says the value of its last name (and, for an int, the `const`
    /// that names a number).
    fn declared_value(&mut self, sort: &SortName, keyword: Span, names: &[Decl]) -> Diagnostic {
        let (declared, x) = self.declaration(keyword, names);
        let mut diag = self.unexpected("end of line");
        diag.hints.clear();
        self.bump();
        let value = self.rest_of_line().unwrap_or_else(|| "…".into());
        let (announced, named) = match sort {
            SortName::Int => (
                format!("{x} == {value}"),
                format!("; a fixed number is a `const`: `const {x} = {value}`"),
            ),
            SortName::Bool => match value.as_str() {
                "true" => (x.to_string(), String::new()),
                "false" => (format!("not {x}"), String::new()),
                v if v.contains(' ') => (format!("{x} == ({value})"), String::new()),
                _ => (format!("{x} == {value}"), String::new()),
            },
            SortName::Enum(_) => (format!("{x} == {value}"), String::new()),
        };
        diag.with_hint(format!(
            "a constant is declared without its value: declare `{declared}`, then \
             announce it: `announce {announced}`{named}"
        ))
    }

    /// The text of the rest of the statement's line, its tokens read, each run of
    /// blanks one space (None: nothing is left). The `}` of a block the statement
    /// stands in ends it too.
    fn rest_of_line(&mut self) -> Option<String> {
        let first = self.peek().span;
        let mut last = None;
        let mut depth = 0usize;
        while !self.at_line_end() {
            match self.peek_kind() {
                TokenKind::LBlock => depth += 1,
                TokenKind::RBlock if depth == 0 => break,
                TokenKind::RBlock => depth -= 1,
                _ => {}
            }
            last = Some(self.bump().span);
        }
        let words: Vec<&str> =
            last.map(|end| self.text(first.to(end)).split_whitespace().collect())?;
        Some(words.join(" "))
    }

    /// `a, b[n], c` with an optional trailing comma.
    pub(super) fn decl_list(&mut self) -> PResult<Vec<Decl>> {
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
    pub(super) fn decl(&mut self) -> PResult<Decl> {
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

    /// `[e]` (or `[e1, e2]`, a tuple: the index of a case `call[i, j]`) after the name
    /// `base` (the current token is `[`).
    pub(super) fn index(&mut self, base: Ident) -> PResult<Node> {
        let open = self.bump();
        if self.at(&TokenKind::RBracket) {
            return Err(self.unexpected("an expression"));
        }
        let mut items = vec![self.expr_node()?];
        loop {
            match self.peek_kind() {
                TokenKind::RBracket => break,
                TokenKind::Comma => {
                    self.bump();
                    items.push(self.expr_node()?);
                }
                TokenKind::Newline | TokenKind::Eof => return Err(unclosed(&open)),
                _ => return Err(self.unexpected("`]`")),
            }
        }
        let close = self.bump().span;
        if self.at(&TokenKind::LBracket) {
            return Err(
                Diagnostic::error(self.peek().span, "only one index is allowed")
                    .with_hint(format!("families have a single index: `{}[0]`", base.name)),
            );
        }
        let span = base.span.to(close);
        let height = 1 + items.iter().map(|n| n.1).max().unwrap_or(0);
        let index = if items.len() == 1 {
            items.remove(0)
        } else {
            let span = items[0].0.span.to(items[items.len() - 1].0.span);
            let items = items.into_iter().map(|n| n.0).collect();
            (
                Expr {
                    kind: ExprKind::Tuple(items),
                    span,
                },
                height - 1,
            )
        };
        self.node(
            ExprKind::Index {
                base,
                index: boxed(index),
            },
            span,
            height,
        )
    }
}
