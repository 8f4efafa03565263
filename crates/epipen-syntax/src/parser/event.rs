//! `event NAME { … }`: the lines of an event block (cases, `sees`, `expects`, `actual`,
//! and `for`/`if` around them).

use crate::ast::{
    Binder, CaseName, Change, EventItem, EventItemKind, Expr, ExprKind, GroupItem, Ident, StmtKind,
};
use crate::diagnostic::Diagnostic;
use crate::lexer::TokenKind;
use crate::span::Span;

use super::{PResult, Parser, unclosed};

/// What an event block holds, for messages.
const EVENT_LINES: &str = "a case, a `sees` line, `actual`, `for` or `if`";

impl Parser<'_> {
    /// `event NAME { … }` after `event`.
    pub(super) fn event(&mut self) -> PResult<StmtKind> {
        if !matches!(self.peek_kind(), TokenKind::Ident(_)) {
            return Err(self
                .keyword_hint(self.unexpected("a name after `event`"))
                .with_hint("write e.g. `event move { … }`"));
        }
        let name = self.name()?;
        let body = self.event_block(&format!("`event {}`", name.name))?;
        Ok(StmtKind::Event { name, body })
    }

    /// `{ lines }` of an event block; `after` names what precedes it, for messages.
    pub(super) fn event_block(&mut self, after: &str) -> PResult<Vec<EventItem>> {
        if !self.at(&TokenKind::LBlock) {
            let diag = self.unexpected(&format!("`{{` after {after}"));
            return Err(if self.at_line_end() {
                diag.with_hint("a block starts with `{` on the same line")
            } else {
                diag
            });
        }
        let (open, items) = self.nested(Self::event_items)?;
        if !self.at(&TokenKind::RBlock) {
            return Err(unclosed(&open));
        }
        self.bump();
        Ok(items)
    }

    /// The lines of an event block up to its `}` (left for the caller). Errors go to
    /// `self.diags`; after one the parser skips to the next line.
    fn event_items(&mut self) -> Vec<EventItem> {
        let mut items = Vec::new();
        loop {
            while self.at(&TokenKind::Newline) {
                self.bump();
            }
            if self.at(&TokenKind::Eof) || self.at(&TokenKind::RBlock) {
                break;
            }
            match self.event_item() {
                Ok(item) => items.push(item),
                Err(diag) => {
                    self.recover();
                    self.diags.push(diag);
                }
            }
        }
        items.shrink_to_fit();
        items
    }

    /// One line of an event block (a `for` or `if` with its block).
    fn event_item(&mut self) -> PResult<EventItem> {
        let first = self.peek().clone();
        let kind = match &first.kind {
            TokenKind::For => {
                self.bump();
                let var = self.name()?;
                if !self.at(&TokenKind::In) {
                    return Err(self
                        .unexpected(&format!("`in` after `for {}`", var.name))
                        .with_hint(format!("write `for {} in 0..n {{ … }}`", var.name)));
                }
                self.bump();
                let range = self.range()?;
                let body = self.event_block("the range of `for`")?;
                EventItemKind::For {
                    var,
                    range: Box::new(range),
                    body,
                }
            }
            TokenKind::If => {
                self.bump();
                self.event_if()?
            }
            TokenKind::Actual => {
                self.bump();
                EventItemKind::Actual(self.case_name()?)
            }
            TokenKind::Ident(_) => {
                let case = self.case_name()?;
                match self.peek_kind() {
                    TokenKind::Sees => {
                        self.bump();
                        let who = self.character_of(case)?;
                        let groups = self.groups(&TokenKind::Bar)?;
                        EventItemKind::Sees { who, groups }
                    }
                    TokenKind::Expects => {
                        self.bump();
                        let who = self.character_of(case)?;
                        let groups = self.groups(&TokenKind::Gt)?;
                        EventItemKind::Expects { who, groups }
                    }
                    _ => self.case_line(case)?,
                }
            }
            TokenKind::Invalid { diag, .. } => return Err((**diag).clone()),
            _ => {
                let diag = self.unexpected(&format!("{EVENT_LINES} in the event's block"));
                return Err(self.keyword_hint(diag));
            }
        };
        let end = self.toks[self.pos.saturating_sub(1)].span.end;
        self.statement_end()?;
        Ok(EventItem {
            kind,
            span: Span::new(first.span.start, end),
        })
    }

    /// `if c { … } [else { … } | else if …]` in an event block, after `if`.
    fn event_if(&mut self) -> PResult<EventItemKind> {
        let cond = self.expr()?;
        let then = self.event_block("the condition of `if`")?;
        let otherwise = if self.at(&TokenKind::Else) {
            self.bump();
            if self.at(&TokenKind::If) {
                let (start, kind) = self.nested(Self::event_if)?;
                let (start, kind) = (start.span, kind?);
                let end = self.toks[self.pos.saturating_sub(1)].span.end;
                Some(vec![EventItem {
                    kind,
                    span: Span::new(start.start, end),
                }])
            } else {
                Some(self.event_block("`else`")?)
            }
        } else {
            self.check_same_line(TokenKind::Else, "`else`")?;
            None
        };
        Ok(EventItemKind::If {
            cond,
            then,
            otherwise,
        })
    }

    /// The rest of a case line after its name: `[if φ] [weight e] [then x := e, …]`.
    fn case_line(&mut self, name: CaseName) -> PResult<EventItemKind> {
        let pre = if self.at(&TokenKind::If) {
            self.bump();
            Some(self.expr()?)
        } else {
            None
        };
        let weight = if self.at(&TokenKind::Weight) {
            self.bump();
            Some(self.expr()?)
        } else {
            None
        };
        let mut changes = Vec::new();
        if self.at(&TokenKind::Then) {
            self.bump();
            changes = self.change_list(false)?;
        }
        let at_end = matches!(
            self.peek_kind(),
            TokenKind::Newline | TokenKind::Eof | TokenKind::RBlock
        );
        if !at_end {
            let expected = match (&pre, &weight, changes.is_empty()) {
                (None, None, true) => {
                    "`if`, `weight`, `then`, `sees` or end of line after the case's name"
                }
                (Some(_), None, true) => {
                    "`weight`, `then` or end of line after the case's precondition"
                }
                (_, Some(_), true) => "`then` or end of line after the case's weight",
                _ => "`,` or end of line after a change",
            };
            return Err(self.unexpected(expected).with_hint(
                "a case is written `NAME if φ weight e then x := e, y := f` (`if`, `weight` and `then` optional)",
            ));
        }
        Ok(EventItemKind::Case {
            name,
            pre,
            weight: weight.map(Box::new),
            changes,
        })
    }

    /// A comma list of changes: `x := e`, or `for i in a..b { … }` around more of them.
    /// `braced`: inside the `{ … }` of such a `for`, where newlines separate items too.
    fn change_list(&mut self, braced: bool) -> PResult<Vec<Change>> {
        let mut changes = Vec::new();
        loop {
            if braced {
                while self.at(&TokenKind::Newline) {
                    self.bump();
                }
                if self.at(&TokenKind::RBlock) {
                    break;
                }
            }
            changes.push(self.change_item()?);
            if self.at(&TokenKind::Comma) {
                self.bump();
            } else if !(braced && self.at(&TokenKind::Newline)) {
                break;
            }
        }
        Ok(changes)
    }

    /// One item of a `then` list.
    fn change_item(&mut self) -> PResult<Change> {
        if self.at(&TokenKind::For) {
            let start = self.bump().span;
            let var = self.name()?;
            if !self.at(&TokenKind::In) {
                return Err(self
                    .unexpected(&format!("`in` after `for {}`", var.name))
                    .with_hint(format!(
                        "write `for {} in 0..n {{ x[{0}] := e }}`",
                        var.name
                    )));
            }
            self.bump();
            let range = self.range()?;
            if !self.at(&TokenKind::LBlock) {
                return Err(self.unexpected("`{` after the range of `for`").with_hint(
                    "the changes of a loop go in braces: `for i in 0..n { x[i] := e }`",
                ));
            }
            let (open, body) = self.nested(|p| p.change_list(true))?;
            let body = body?;
            if !self.at(&TokenKind::RBlock) {
                return Err(if self.at(&TokenKind::Eof) {
                    unclosed(&open)
                } else {
                    self.unexpected("`,` or `}` after a change")
                });
            }
            let end = self.bump().span;
            return Ok(Change::For {
                var,
                range,
                body,
                span: start.to(end),
            });
        }
        let target = self.change_target()?;
        if !self.at(&TokenKind::Assign) {
            let tok = self.peek();
            let diag = if self.text(tok.span) == "=" {
                Diagnostic::error(tok.span, "expected `:=`, found `=`")
            } else {
                self.unexpected("`:=`")
            };
            return Err(diag.with_hint("a case's changes are written `then x := e, y := f`"));
        }
        self.bump();
        let value = self.expr()?;
        Ok(Change::One { target, value })
    }

    /// What a case's change assigns: a constant's name or a family member.
    fn change_target(&mut self) -> PResult<Expr> {
        let name = self.name()?;
        if self.at(&TokenKind::LBracket) {
            return Ok(self.index(name)?.0);
        }
        let span = name.span;
        Ok(Expr {
            kind: ExprKind::Name(name),
            span,
        })
    }

    /// `moved`, `face[f]`, `call[i, j]`.
    pub(super) fn case_name(&mut self) -> PResult<CaseName> {
        let name = self.name()?;
        let mut indices = Vec::new();
        let mut span = name.span;
        if self.at(&TokenKind::LBracket) {
            let open = self.bump();
            loop {
                indices.push(self.expr()?);
                match self.peek_kind() {
                    TokenKind::Comma => {
                        self.bump();
                    }
                    TokenKind::RBracket => break,
                    TokenKind::Newline | TokenKind::Eof => return Err(unclosed(&open)),
                    _ => return Err(self.unexpected("`,` or `]`")),
                }
            }
            span = span.to(self.bump().span);
        }
        // Usually one index: a story of many actions keeps thousands of these.
        indices.shrink_to_fit();
        Ok(CaseName {
            name,
            indices,
            span,
        })
    }

    /// The character a `sees` or `expects` line starts with: `Anne`, `child[i]`.
    fn character_of(&self, case: CaseName) -> PResult<Expr> {
        let CaseName {
            name,
            mut indices,
            span,
        } = case;
        match indices.len() {
            0 => Ok(Expr {
                kind: ExprKind::Name(name),
                span,
            }),
            1 => Ok(Expr {
                kind: ExprKind::Index {
                    base: name,
                    index: Box::new(indices.remove(0)),
                },
                span,
            }),
            _ => Err(Diagnostic::error(span, "only one index is allowed")
                .with_hint(format!("families have a single index: `{}[0]`", name.name))),
        }
    }

    /// Groups separated by `separator` (`|` in `sees`, `>` in `expects`), each a comma
    /// list of items.
    fn groups(&mut self, separator: &TokenKind) -> PResult<Vec<Vec<GroupItem>>> {
        let mut groups = vec![self.group()?];
        while self.at(separator) {
            self.bump();
            groups.push(self.group()?);
        }
        Ok(groups)
    }

    /// `a, b[1], each(…), others`
    fn group(&mut self) -> PResult<Vec<GroupItem>> {
        let mut items = vec![self.group_item()?];
        while self.at(&TokenKind::Comma) {
            self.bump();
            items.push(self.group_item()?);
        }
        Ok(items)
    }

    fn group_item(&mut self) -> PResult<GroupItem> {
        let tok = self.peek().clone();
        let TokenKind::Ident(word) = &tok.kind else {
            return Err(self.keyword_hint(self.unexpected("a case")));
        };
        let next = self.toks.get(self.pos + 1).map(|t| &t.kind);
        match (word.as_str(), next) {
            ("others", next) if next != Some(&TokenKind::LBracket) => {
                self.bump();
                Ok(GroupItem::Others(tok.span))
            }
            ("each" | "all", Some(TokenKind::LParen)) => {
                let each = word == "each";
                let name = self.name()?;
                let open = self.bump();
                let (binders, guard) = self.case_binders(&name)?;
                let case = self.case_name()?;
                let close = match self.peek_kind() {
                    TokenKind::RParen => self.bump().span,
                    TokenKind::Newline | TokenKind::Eof => return Err(unclosed(&open)),
                    _ => return Err(self.unexpected("`)`")),
                };
                let span = name.span.to(close);
                let (guard, case) = (guard.map(Box::new), Box::new(case));
                Ok(if each {
                    GroupItem::Each {
                        binders,
                        guard,
                        case,
                        span,
                    }
                } else {
                    GroupItem::All {
                        binders,
                        guard,
                        case,
                        span,
                    }
                })
            }
            _ => Ok(GroupItem::Case(self.case_name()?)),
        }
    }

    /// `i in a..b, j in c..d if guard:` inside `each(…)` or `all(…)`.
    fn case_binders(&mut self, name: &Ident) -> PResult<(Vec<Binder>, Option<Expr>)> {
        let example = format!("write `{}(i in 0..n: case[i])`", name.name);
        let mut binders = Vec::new();
        loop {
            if !self.at_binder() {
                return Err(self.unexpected("`name in a..b`").with_hint(example.clone()));
            }
            let var = self.name()?;
            self.bump(); // `in`, checked by `at_binder`
            let range = self.range()?;
            binders.push(Binder { var, range });
            if !self.at(&TokenKind::Comma) {
                break;
            }
            self.bump();
        }
        let guard = if self.at(&TokenKind::If) {
            self.bump();
            Some(self.expr()?)
        } else {
            None
        };
        if !self.at(&TokenKind::Colon) {
            return Err(self.unexpected("`:` before the case").with_hint(example));
        }
        self.bump();
        Ok((binders, guard))
    }
}
