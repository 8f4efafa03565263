//! Actions and plans: `action NAME [by A] [if φ] { … }`, `do a, b: CASE, …` and
//! `plan [all] φ [max D] [keeping ψ] [coordinated]`.

use crate::ast::{Action, DoItem, Expr, ExprKind, Plan, StmtKind};
use crate::lexer::TokenKind;

use super::{PResult, Parser};

/// How an action is written, for hints.
const ACTION_FORM: &str =
    "an action is written `action NAME by A if φ { cases }` (`by` and `if` optional)";

/// How a plan is written, for hints.
const PLAN_FORM: &str = "a plan is written `plan all φ max D keeping ψ coordinated` (all but φ optional, in this order)";

impl Parser<'_> {
    /// `action …`, `do …` or `plan …`, at its keyword. Kept out of line: the frame of
    /// [`Parser::statement`], which nested blocks recurse through, stays small.
    #[inline(never)]
    pub(super) fn planning(&mut self) -> PResult<StmtKind> {
        match self.bump().kind {
            TokenKind::Action => self.action(),
            TokenKind::Do => self.do_items(),
            _ => self.plan(),
        }
    }

    /// `action NAME [by A] [if φ] { … }` after `action`.
    fn action(&mut self) -> PResult<StmtKind> {
        if !matches!(self.peek_kind(), TokenKind::Ident(_)) {
            return Err(self
                .keyword_hint(self.unexpected("a name after `action`"))
                .with_hint("write e.g. `action flip { … }`"));
        }
        let name = self.case_name()?;
        let shown = self.text(name.span).to_string();
        let owner = if self.at(&TokenKind::By) {
            self.bump();
            if !matches!(self.peek_kind(), TokenKind::Ident(_)) {
                return Err(self
                    .keyword_hint(self.unexpected("a character after `by`"))
                    .with_hint(format!("write `action {shown} by A {{ … }}`")));
            }
            let who = self.name()?;
            Some(if self.at(&TokenKind::LBracket) {
                self.index(who)?.0
            } else {
                let span = who.span;
                Expr {
                    kind: ExprKind::Name(who),
                    span,
                }
            })
        } else {
            None
        };
        let guard = if self.at(&TokenKind::If) {
            self.bump();
            Some(self.expr()?)
        } else {
            None
        };
        if !self.at(&TokenKind::LBlock) {
            let expected = match (&owner, &guard) {
                (_, Some(_)) => "`{` after the action's condition".to_string(),
                (Some(_), None) => "`if` or `{` after the action's owner".to_string(),
                (None, None) => format!("`by`, `if` or `{{` after `action {shown}`"),
            };
            let diag = self.unexpected(&expected);
            return Err(if self.at_line_end() {
                diag.with_hint("a block starts with `{` on the same line")
            } else {
                diag.with_hint(ACTION_FORM)
            });
        }
        let body = self.event_block(&format!("`action {shown}`"))?;
        Ok(StmtKind::Action(Box::new(Action {
            name,
            owner,
            guard,
            body,
        })))
    }

    /// `a, b: CASE, call[0, 1]` after `do`.
    fn do_items(&mut self) -> PResult<StmtKind> {
        let mut items = Vec::new();
        loop {
            if !matches!(self.peek_kind(), TokenKind::Ident(_)) {
                let expected = if items.is_empty() {
                    "an action after `do`"
                } else {
                    "an action after `,`"
                };
                return Err(self
                    .keyword_hint(self.unexpected(expected))
                    .with_hint("write e.g. `do flip, call[0, 1]: c` (`: CASE` optional)"));
            }
            let action = self.case_name()?;
            let case = if self.at(&TokenKind::Colon) {
                self.bump();
                if !matches!(self.peek_kind(), TokenKind::Ident(_)) {
                    let shown = self.text(action.span).to_string();
                    return Err(self
                        .keyword_hint(self.unexpected("a case after `:`"))
                        .with_hint(format!(
                            "write `do {shown}: CASE`, CASE one of the action's cases"
                        )));
                }
                Some(self.case_name()?)
            } else {
                None
            };
            let had_case = case.is_some();
            items.push(DoItem { action, case });
            if self.at(&TokenKind::Comma) {
                self.bump();
                continue;
            }
            if !matches!(
                self.peek_kind(),
                TokenKind::Newline | TokenKind::Eof | TokenKind::RBlock
            ) {
                let expected = if had_case {
                    "`,` or end of line after the case"
                } else {
                    "`:`, `,` or end of line after the action"
                };
                return Err(self
                    .unexpected(expected)
                    .with_hint("actions are done in order: `do a, b: CASE, c`"));
            }
            return Ok(StmtKind::Do(items));
        }
    }

    /// `[all] φ [max D] [keeping ψ] [coordinated]` after `plan`. `all` is the keyword
    /// unless it opens an aggregate, `all(i in …: …)`, as an expression's `all(` does
    /// ([`Parser::at_binder`] after the `(`).
    fn plan(&mut self) -> PResult<StmtKind> {
        let kind = |p: &Self, i: usize| p.toks.get(p.pos + i).map(|t| t.kind.clone());
        let aggregate = kind(self, 1) == Some(TokenKind::LParen) && {
            self.pos += 2;
            let binder = self.at_binder();
            self.pos -= 2;
            binder
        };
        let all = matches!(self.peek_kind(), TokenKind::Ident(w) if w == "all") && !aggregate;
        if all {
            self.bump();
        }
        let missing = match self.peek_kind() {
            TokenKind::Newline
            | TokenKind::Eof
            | TokenKind::RBlock
            | TokenKind::Keeping
            | TokenKind::Coordinated => true,
            TokenKind::Ident(w) => w == "max" && kind(self, 1) != Some(TokenKind::LParen),
            _ => false,
        };
        if missing {
            let after = if all { "`plan all`" } else { "`plan`" };
            return Err(self
                .unexpected(&format!("the plan's goal after {after}"))
                .with_hint(PLAN_FORM));
        }
        let goal = self.expr()?;
        let max = match self.peek_kind() {
            TokenKind::Ident(w) if w == "max" => {
                self.bump();
                Some(self.additive()?.0)
            }
            _ => None,
        };
        let keeping = if self.at(&TokenKind::Keeping) {
            self.bump();
            Some(self.expr()?)
        } else {
            None
        };
        let coordinated = if self.at(&TokenKind::Coordinated) {
            Some(self.bump().span)
        } else {
            None
        };
        if !matches!(
            self.peek_kind(),
            TokenKind::Newline | TokenKind::Eof | TokenKind::RBlock
        ) {
            let expected = match (&max, &keeping, &coordinated) {
                (_, _, Some(_)) => "end of line after `coordinated`",
                (_, Some(_), None) => "`coordinated` or end of line after the plan's invariant",
                (Some(_), None, None) => "`keeping`, `coordinated` or end of line after `max`",
                (None, None, None) => {
                    "`max`, `keeping`, `coordinated` or end of line after the plan's goal"
                }
            };
            return Err(self.unexpected(expected).with_hint(PLAN_FORM));
        }
        Ok(StmtKind::Plan(Box::new(Plan {
            all,
            goal,
            max,
            keeping,
            coordinated,
        })))
    }
}
