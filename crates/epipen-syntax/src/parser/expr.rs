//! Expressions, by precedence from the loosest (`<->`) to the tightest (atoms).

use crate::ast::{BinOp, Binder, Expr, ExprKind, Ident, Sample, UnOp};
use crate::diagnostic::Diagnostic;
use crate::lexer::{Token, TokenKind};
use crate::span::Span;

use super::{
    MAX_HEIGHT, MAX_NESTING, Node, PResult, Parser, binop_of, boxed, is_comparison, unclosed,
};

impl Parser<'_> {
    pub(super) fn expr(&mut self) -> PResult<Expr> {
        Ok(self.expr_node()?.0)
    }

    pub(super) fn node(&self, kind: ExprKind, span: Span, height: u32) -> PResult<Node> {
        if height > MAX_HEIGHT {
            return Err(
                Diagnostic::error(span, "expression is too large").with_hint(format!(
                    "expressions may be at most {MAX_HEIGHT} operators deep"
                )),
            );
        }
        Ok((Expr { kind, span }, height))
    }

    pub(super) fn binary(&self, op: BinOp, lhs: Node, rhs: Node) -> PResult<Node> {
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

    pub(super) fn unary(&self, op: UnOp, op_span: Span, operand: Node) -> PResult<Node> {
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
    pub(super) fn expr_node(&mut self) -> PResult<Node> {
        if self.nesting >= MAX_NESTING {
            return Err(Diagnostic::error(
                self.peek().span,
                "expression is nested too deeply",
            ));
        }
        self.nesting += 1;
        // Brackets of any kind end the reach of `<! φ>`'s closing `>`.
        let no_gt = std::mem::replace(&mut self.no_gt, false);
        let result = self.iff();
        self.no_gt = no_gt;
        self.nesting -= 1;
        result
    }

    /// Left-associative binary operators `ops` over operands parsed by `operand`.
    pub(super) fn left_assoc(
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

    pub(super) fn iff(&mut self) -> PResult<Node> {
        self.left_assoc(&[TokenKind::DoubleArrow], Self::implies)
    }

    /// `->` is right-associative.
    pub(super) fn implies(&mut self) -> PResult<Node> {
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

    pub(super) fn or(&mut self) -> PResult<Node> {
        self.left_assoc(&[TokenKind::Or], Self::and)
    }

    pub(super) fn and(&mut self) -> PResult<Node> {
        self.left_assoc(&[TokenKind::And], Self::not)
    }

    /// `not`, announcements `[! φ]`, `<! φ>` (any number, in any order), then a
    /// comparison.
    pub(super) fn not(&mut self) -> PResult<Node> {
        let mut prefixes: Vec<Prefix> = Vec::new();
        loop {
            match self.peek_kind() {
                TokenKind::Not => prefixes.push(Prefix::Not(self.bump().span)),
                TokenKind::LBracket | TokenKind::Lt => prefixes.push(self.announcement()?),
                _ => break,
            }
        }
        let mut acc = self.comparison()?;
        while let Some(prefix) = prefixes.pop() {
            acc = match prefix {
                Prefix::Not(span) => self.unary(UnOp::Not, span, acc)?,
                Prefix::Announced {
                    start,
                    group,
                    whether,
                    diamond,
                    formula,
                } => {
                    let span = start.to(acc.0.span);
                    let height = 1 + acc.1.max(formula.1);
                    let kind = ExprKind::Announced {
                        group,
                        whether,
                        diamond,
                        formula: boxed(formula),
                        body: boxed(acc),
                    };
                    self.node(kind, span, height)?
                }
            };
        }
        Ok(acc)
    }

    /// `[! φ]`, `[?! φ]`, `[A, B ! φ]`, `<! φ>`, … before the formula they govern.
    fn announcement(&mut self) -> PResult<Prefix> {
        let open = self.bump();
        let diamond = open.kind == TokenKind::Lt;
        let mut group = Vec::new();
        if !matches!(self.peek_kind(), TokenKind::Bang | TokenKind::QuestionBang) {
            loop {
                let tok = self.peek().clone();
                let TokenKind::Ident(name) = &tok.kind else {
                    let what = if group.is_empty() {
                        "`!`, `?!` or a character"
                    } else {
                        "a character"
                    };
                    let close = if diamond { ">" } else { "]" };
                    return Err(self.unexpected(what).with_hint(format!(
                        "an announcement is written `{o}! φ{close} ψ`, `{o}?! φ{close} ψ` or, \
                         to some characters, `{o}A, B ! φ{close} ψ`",
                        o = if diamond { "<" } else { "[" },
                    )));
                };
                self.bump();
                let ident = Ident {
                    name: name.clone(),
                    span: tok.span,
                };
                let who = if self.at(&TokenKind::LBracket) {
                    self.index(ident)?
                } else {
                    self.node(ExprKind::Name(ident), tok.span, 1)?
                };
                group.push(who.0);
                if self.at(&TokenKind::Comma) {
                    self.bump();
                    continue;
                }
                if !matches!(self.peek_kind(), TokenKind::Bang | TokenKind::QuestionBang) {
                    return Err(self.unexpected("`,`, `!` or `?!`"));
                }
                break;
            }
        }
        let whether = self.bump().kind == TokenKind::QuestionBang;
        let formula = if diamond {
            if self.nesting >= MAX_NESTING {
                return Err(Diagnostic::error(
                    self.peek().span,
                    "expression is nested too deeply",
                ));
            }
            self.nesting += 1;
            let no_gt = std::mem::replace(&mut self.no_gt, true);
            let formula = self.iff();
            self.no_gt = no_gt;
            self.nesting -= 1;
            let formula = formula?;
            self.expect(TokenKind::Gt, "`>` closing the announcement")
                .map_err(|d| {
                    d.with_hint("inside `<! … >`, write a comparison with `>` in parentheses: `<! (x > 3)> ψ`")
                })?;
            formula
        } else {
            let formula = self.expr_node()?;
            if !self.at(&TokenKind::RBracket) {
                return Err(unclosed(&open));
            }
            self.bump();
            formula
        };
        Ok(Prefix::Announced {
            start: open.span,
            group,
            whether,
            diamond,
            formula,
        })
    }

    /// Any number of the prefix operator `token`, then an `operand`.
    pub(super) fn prefix(
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

    /// Whether the next token is a comparison here (inside `<! φ>`, `>` is not).
    fn at_comparison(&self) -> bool {
        is_comparison(self.peek_kind()) && !(self.no_gt && self.at(&TokenKind::Gt))
    }

    /// One comparison or `in` (non-associative).
    pub(super) fn comparison(&mut self) -> PResult<Node> {
        let lhs = self.additive()?;
        if !self.at_comparison() {
            return Ok(lhs);
        }
        let op1 = self.bump();
        let (expr, rhs_span) = self.comparison_rhs(&op1, lhs)?;
        if self.at_comparison() {
            return Err(self.chained(&expr.0, &op1, rhs_span));
        }
        Ok(expr)
    }

    /// The right-hand side of comparison `op` and the resulting node, plus the span of
    /// the right-hand side (the set's braces for `in`).
    pub(super) fn comparison_rhs(&mut self, op: &Token, lhs: Node) -> PResult<(Node, Span)> {
        if op.kind == TokenKind::In {
            let sample = self.accept_sample_start()?;
            if sample.is_none() && !self.at(&TokenKind::LBrace) {
                return self.range_membership(lhs);
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

    /// `lo..hi` after `e in`: the node of `e in lo..hi`, and the range's span.
    fn range_membership(&mut self, element: Node) -> PResult<(Node, Span)> {
        let lo = self.additive()?;
        if let (ExprKind::Tuple(items), false) = (&lo.0.kind, self.at(&TokenKind::DotDot)) {
            let items: Vec<&str> = items.iter().map(|e| self.text(e.span)).collect();
            return Err(Diagnostic::error(
                lo.0.span,
                "a set is written in braces, not parentheses",
            )
            .with_hint(format!("write `{{{}}}`", items.join(", "))));
        }
        if !self.at(&TokenKind::DotDot) {
            return Err(self.unexpected("`..` or a set `{…}` after `in`").with_hint(
                "write a set, `x in {1, 2, 3}`, or a range, `x in 1..4` (from 1 up to 3)",
            ));
        }
        self.bump();
        let hi = self.additive()?;
        let range = lo.0.span.to(hi.0.span);
        let span = element.0.span.to(hi.0.span);
        let height = 1 + element.1.max(lo.1).max(hi.1);
        let kind = ExprKind::InRange {
            element: boxed(element),
            lo: boxed(lo),
            hi: boxed(hi),
        };
        Ok((self.node(kind, span, height)?, range))
    }

    /// `sample(k,` after `in`: the start of `sample` and the count k (None when the set
    /// is written out).
    pub(super) fn accept_sample_start(&mut self) -> PResult<Option<(Span, Node)>> {
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
    pub(super) fn chained(&mut self, first: &Expr, op1: &Token, mid: Span) -> Diagnostic {
        let op2 = self.bump();
        let diag = Diagnostic::error(op2.span, "comparisons cannot be chained");
        let lhs_span = match &first.kind {
            ExprKind::Binary { lhs, .. } => lhs.span,
            ExprKind::In { element, .. } | ExprKind::InRange { element, .. } => element.span,
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

    pub(super) fn additive(&mut self) -> PResult<Node> {
        self.left_assoc(&[TokenKind::Plus, TokenKind::Minus], Self::multiplicative)
    }

    pub(super) fn multiplicative(&mut self) -> PResult<Node> {
        let lhs = self.left_assoc(
            &[TokenKind::Star, TokenKind::Slash, TokenKind::Percent],
            Self::negation,
        )?;
        let caret = self.peek().clone();
        if matches!(caret.kind, TokenKind::Invalid { .. }) && self.text(caret.span) == "^" {
            return Err(self.power(&lhs.0, caret.span));
        }
        Ok(lhs)
    }

    /// The error for `x ^ n` (the current token is `^`, at `caret`).
    fn power(&mut self, base: &Expr, caret: Span) -> Diagnostic {
        self.bump();
        let diag = Diagnostic::error(caret, "there is no power operator `^`");
        let base_text = self.text(base.span);
        let simple = matches!(base.kind, ExprKind::Name(_) | ExprKind::Int(_))
            || (matches!(base.kind, ExprKind::Index { .. }) && base_text.len() <= 20);
        let exponent = match self.peek_kind() {
            TokenKind::Int(Some(n)) => Some(*n),
            _ => None,
        };
        match exponent {
            Some(n @ 2..=4) if simple => {
                let product = vec![base_text; n as usize].join(" * ");
                diag.with_hint(format!("multiply instead: `{product}`"))
            }
            _ => diag.with_hint("multiply instead: `x * x` for x to the power 2"),
        }
    }

    pub(super) fn negation(&mut self) -> PResult<Node> {
        self.prefix(TokenKind::Minus, UnOp::Neg, Self::primary)
    }

    pub(super) fn primary(&mut self) -> PResult<Node> {
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
                    if matches!(name.as_str(), "exists" | "forall")
                        && matches!(self.peek_kind(), TokenKind::Ident(_))
                    {
                        return self.quantified(ident);
                    }
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
            TokenKind::Bang | TokenKind::QuestionBang => Err(Diagnostic::error(
                tok.span,
                format!("`{}` is not an operator", self.text(tok.span)),
            )
            .with_hint("use `not` or `!=`; an announcement is written `[! φ] ψ`")),
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
            | TokenKind::Def
            | TokenKind::Where
            | TokenKind::Check
            | TokenKind::Action
            | TokenKind::Do
            | TokenKind::Plan
            | TokenKind::By
            | TokenKind::Keeping
            | TokenKind::Coordinated => Err(self.keyword_hint(self.unexpected("an expression"))),
            _ => Err(self.unexpected("an expression")),
        }
    }

    /// At a binder `i in a..b` or `i in {…}` right after the `(` of a call: what
    /// follows the range or the list is `:`, `if` or another binder (`, j in`), where
    /// a membership `x in 1..4`, `x in {…}` (or `x in sample(k, {…})`) is an argument,
    /// followed by `,` or `)`.
    pub(super) fn at_binder(&self) -> bool {
        let kind = |i: usize| self.toks.get(self.pos + i).map(|t| &t.kind);
        let sample = matches!(kind(2), Some(TokenKind::Ident(word)) if word == "sample")
            && kind(3) == Some(&TokenKind::LParen);
        if !matches!(kind(0), Some(TokenKind::Ident(_))) || kind(1) != Some(&TokenKind::In) {
            return false;
        }
        if sample {
            return false;
        }
        let mut i = 2;
        let ranged = kind(2) != Some(&TokenKind::LBrace);
        if !ranged {
            // A list: up to its `}`.
            loop {
                i += 1;
                match kind(i) {
                    Some(TokenKind::RBrace) => break,
                    None | Some(TokenKind::Newline | TokenKind::Eof | TokenKind::LBrace) => {
                        return false;
                    }
                    _ => {}
                }
            }
            i += 1;
        } else {
            // A range: up to a `,`, `:`, `if` or `)` outside brackets (the end of the
            // line: a binder, whose errors say what is missing).
            let mut depth = 0usize;
            loop {
                match kind(i) {
                    None | Some(TokenKind::Newline | TokenKind::Eof) => return true,
                    Some(TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace) => {
                        depth += 1;
                    }
                    Some(TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace)
                        if depth > 0 =>
                    {
                        depth -= 1;
                    }
                    Some(
                        TokenKind::RParen | TokenKind::Comma | TokenKind::Colon | TokenKind::If,
                    ) if depth == 0 => {
                        break;
                    }
                    // An operator looser than `+`: the range ended, in a membership
                    // (`x in 1..4 -> p`).
                    Some(k) if depth == 0 && ends_additive(k) => return false,
                    _ => {}
                }
                i += 1;
            }
        }
        match kind(i) {
            Some(TokenKind::Colon | TokenKind::If) => true,
            Some(TokenKind::Comma) => {
                let another = matches!(kind(i + 1), Some(TokenKind::Ident(_)))
                    && kind(i + 2) == Some(&TokenKind::In);
                // After a range, a `:` before the call closes: binders gone wrong
                // (`all(i in 0..3, 4: p)`), not arguments.
                another || (ranged && self.colon_before_close(self.pos + i))
            }
            _ => false,
        }
    }

    /// Whether a `:` outside brackets comes after token `from` before the `)` that
    /// closes the call it is in (or the end of the line).
    fn colon_before_close(&self, from: usize) -> bool {
        let mut depth = 0usize;
        for tok in &self.toks[from..] {
            match tok.kind {
                TokenKind::Colon if depth == 0 => return true,
                TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => depth += 1,
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace if depth > 0 => {
                    depth -= 1;
                }
                TokenKind::RParen | TokenKind::Newline | TokenKind::Eof => return false,
                _ => {}
            }
        }
        false
    }

    /// `name(i in a..b, j in c..d if guard: body)` after the `(`.
    pub(super) fn aggregate(&mut self, name: Ident, open: &Token) -> PResult<Node> {
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
    pub(super) fn parenthesised(&mut self) -> PResult<Node> {
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
    pub(super) fn comma_list(
        &mut self,
        open: &Token,
        close: TokenKind,
    ) -> PResult<(Vec<Node>, Span)> {
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

/// A prefix operator met before the comparison it applies to.
enum Prefix {
    Not(Span),
    Announced {
        start: Span,
        group: Vec<Expr>,
        whether: bool,
        diamond: bool,
        formula: Node,
    },
}

impl Parser<'_> {
    /// `forall p, q: φ` / `exists p: φ` (after the word): the names (or members
    /// `p[i]`), `:`, and a formula that extends as far right as possible.
    fn quantified(&mut self, word: Ident) -> PResult<Node> {
        let mut vars = Vec::new();
        loop {
            let tok = self.peek().clone();
            let TokenKind::Ident(name) = &tok.kind else {
                return Err(self.unexpected("a bool constant"));
            };
            self.bump();
            let ident = Ident {
                name: name.clone(),
                span: tok.span,
            };
            let var = if self.at(&TokenKind::LBracket) {
                self.index(ident)?
            } else {
                self.node(ExprKind::Name(ident), tok.span, 1)?
            };
            vars.push(var.0);
            if self.at(&TokenKind::Comma) {
                self.bump();
                continue;
            }
            if !self.at(&TokenKind::Colon) {
                return Err(quantifier(&word));
            }
            self.bump();
            break;
        }
        let body = self.expr_node()?;
        let span = word.span.to(body.0.span);
        let height = 1 + body.1;
        let kind = ExprKind::Quantified {
            forall: word.name == "forall",
            vars,
            body: boxed(body),
        };
        self.node(kind, span, height)
    }
}

/// The error for `exists x …` / `forall x …` not followed by `:`.
fn quantifier(word: &Ident) -> Diagnostic {
    let aggregate = if word.name == "exists" { "any" } else { "all" };
    Diagnostic::error(
        word.span,
        format!(
            "there are no quantifiers over values: `{}` is not part of the language",
            word.name
        ),
    )
    .with_hint(format!(
        "over a range of integers, write `{aggregate}(x in 0..10: …)`; to say that a character \
         knows a value, write `knows_value(A, x)` or `knows(A, …)`"
    ))
}

/// Whether `kind` is an operator looser than `+` and `-` (a comparison, a
/// connective): it ends an additive expression. (Not `in`: after a range it is a
/// binder's, a comma forgotten.)
fn ends_additive(kind: &TokenKind) -> bool {
    binop_of(kind).is_some_and(|op| {
        !matches!(
            op,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod
        )
    })
}
