//! The lexer: source text → tokens.
//!
//! Two passes. The first cuts the text into raw tokens (comments dropped, every newline
//! kept). The second decides which newlines end a statement: newlines inside `( )`,
//! `[ ]` and sets `{ }`, after a token that cannot end an expression, before a line
//! that starts with a token that cannot start one (`and`, `then`, `|`, `,`, …: blank and
//! comment lines in between do not count), and on blank lines are dropped. A line that
//! clearly starts a new statement (`int …`, `announce …`, `Albert learns …`, `Albert:
//! …`, …) always ends the previous one, even inside an unclosed bracket, so an unclosed
//! `(` cannot swallow the rest of the file.
//!
//! Braces come in two kinds, told apart here with a stack of open brackets: a `{`
//! directly after `in`, or after `enum Name`, opens a set (newlines inside are ignored,
//! tokens [`TokenKind::LBrace`] / [`TokenKind::RBrace`]); any other `{` opens a block of
//! statements, where newlines stay significant ([`TokenKind::LBlock`] /
//! [`TokenKind::RBlock`]).
//!
//! Characters that are not part of the language become [`TokenKind::Invalid`] tokens
//! carrying their diagnostic; the parser reports them like any other unexpected token.

use super::diagnostic::Diagnostic;
use super::span::Span;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum TokenKind {
    Ident(String),
    /// An integer literal; `None` if it does not fit in a `u64`.
    Int(Option<u64>),
    // Keywords.
    Characters,
    IntKw,
    BoolKw,
    Announce,
    Learns,
    Checkpoint,
    Worlds,
    True,
    False,
    Not,
    And,
    Or,
    If,
    Then,
    Else,
    In,
    Const,
    Enum,
    For,
    Simultaneously,
    Actual,
    Reveals,
    Repeat,
    Until,
    AssertAddsCk,
    Check,
    Event,
    Sees,
    Expects,
    Def,
    Where,
    Prior,
    Show,
    Weight,
    Action,
    Do,
    Plan,
    By,
    Keeping,
    Coordinated,
    // Punctuation and operators.
    LParen,
    RParen,
    /// `{` opening a set (after `in`) or an enum's variants.
    LBrace,
    /// `}` closing a set or an enum's variants (or matching nothing).
    RBrace,
    /// `{` opening a block of statements.
    LBlock,
    /// `}` closing a block of statements.
    RBlock,
    LBracket,
    RBracket,
    /// `..`
    DotDot,
    Comma,
    Colon,
    /// `:=`
    Assign,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    /// `->`
    Arrow,
    /// `<->`
    DoubleArrow,
    /// `|`, between the groups of a `sees` line.
    Bar,
    /// `!` in an announcement operator: `[! φ] ψ`, `<A ! φ> ψ`.
    Bang,
    /// `?!` in an announcement of whether: `[?! φ] ψ`.
    QuestionBang,
    /// The end of a statement.
    Newline,
    Eof,
    /// Something that is not a token of the language. `continues` is set for would-be
    /// binary operators (`=`, `&&`, …) so that a line ending in one continues, keeping
    /// the error to one per statement.
    Invalid {
        diag: Box<Diagnostic>,
        continues: bool,
    },
}

impl TokenKind {
    pub(crate) fn is_keyword(&self) -> bool {
        use TokenKind::*;
        matches!(
            self,
            Characters
                | IntKw
                | BoolKw
                | Announce
                | Learns
                | Checkpoint
                | Worlds
                | True
                | False
                | Not
                | And
                | Or
                | If
                | Then
                | Else
                | In
                | Const
                | Enum
                | For
                | Simultaneously
                | Actual
                | Reveals
                | Repeat
                | Until
                | AssertAddsCk
                | Check
                | Event
                | Sees
                | Expects
                | Def
                | Where
                | Prior
                | Show
                | Weight
                | Action
                | Do
                | Plan
                | By
                | Keeping
                | Coordinated
        )
    }

    /// Tokens after which a newline does not end the statement.
    fn continues_line(&self) -> bool {
        use TokenKind::*;
        match self {
            And | Or | Arrow | DoubleArrow | Plus | Minus | Star | Slash | Percent | EqEq
            | NotEq | Lt | Le | Gt | Ge | Comma | In | Then | Else | If | Not | Colon
            | Announce | LParen | LBrace | LBlock | LBracket | DotDot | Until | Actual
            | AssertAddsCk | Check | Assign | Bar | Sees | Expects | Where | Prior | Show
            | Weight | Bang | QuestionBang | Do | Plan | By | Keeping => true,
            Invalid { continues, .. } => *continues,
            _ => false,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

pub(crate) fn keyword(word: &str) -> Option<TokenKind> {
    use TokenKind::*;
    Some(match word {
        "characters" => Characters,
        "int" => IntKw,
        "bool" => BoolKw,
        "announce" => Announce,
        "learns" => Learns,
        "checkpoint" => Checkpoint,
        "worlds" => Worlds,
        "true" => True,
        "false" => False,
        "not" => Not,
        "and" => And,
        "or" => Or,
        "if" => If,
        "then" => Then,
        "else" => Else,
        "in" => In,
        "const" => Const,
        "enum" => Enum,
        "for" => For,
        "simultaneously" => Simultaneously,
        "actual" => Actual,
        "reveals" => Reveals,
        "repeat" => Repeat,
        "until" => Until,
        "assert_adds_ck" => AssertAddsCk,
        "check" => Check,
        "event" => Event,
        "sees" => Sees,
        "expects" => Expects,
        "def" => Def,
        "where" => Where,
        "prior" => Prior,
        "show" => Show,
        "weight" => Weight,
        "action" => Action,
        "do" => Do,
        "plan" => Plan,
        "by" => By,
        "keeping" => Keeping,
        "coordinated" => Coordinated,
        _ => return None,
    })
}

/// Cuts `source` into tokens. The result always ends with [`TokenKind::Eof`] and never
/// contains two newlines in a row or a leading newline.
pub(crate) fn lex(source: &str) -> Vec<Token> {
    layout(raw_tokens(source))
}

pub(crate) fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

pub(crate) fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn invalid(span: Span, message: String, hint: Option<&str>, continues: bool) -> TokenKind {
    let mut diag = Diagnostic::error(span, message);
    if let Some(hint) = hint {
        diag = diag.with_hint(hint);
    }
    TokenKind::Invalid {
        diag: Box::new(diag),
        continues,
    }
}

/// A would-be operator that is not one: `text` is not an operator, with a hint.
fn not_an_operator(start: usize, text: &str, hint: &str) -> (TokenKind, usize) {
    let end = start + text.len();
    let span = Span::new(start, end);
    (
        invalid(
            span,
            format!("`{text}` is not an operator"),
            Some(hint),
            true,
        ),
        end,
    )
}

fn raw_tokens(src: &str) -> Vec<Token> {
    use super::diagnostic::ends_line;
    use TokenKind::*;
    let b = src.as_bytes();
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut out = Vec::new();
    // A UTF-8 byte-order mark, as some editors write first, is no character of the story.
    let mut i = if src.starts_with('\u{feff}') { 3 } else { 0 };
    while i < b.len() {
        let start = i;
        let c = b[i];
        let (kind, end) = match c {
            b' ' | b'\t' => {
                i += 1;
                continue;
            }
            b'#' => {
                while i < b.len() && !ends_line(b, i) {
                    i += 1;
                }
                continue;
            }
            // `\n`, `\r\n`, or a lone `\r` (old Mac line endings) ends a line.
            b'\r' if at(i + 1) == b'\n' => {
                i += 1;
                continue;
            }
            b'\n' | b'\r' => (Newline, i + 1),
            b'0'..=b'9' => {
                let mut j = i;
                while at(j).is_ascii_digit() {
                    j += 1;
                }
                if is_ident_continue(at(j)) {
                    while is_ident_continue(at(j)) {
                        j += 1;
                    }
                    let span = Span::new(i, j);
                    let msg = format!("invalid number `{}`", &src[i..j]);
                    (
                        invalid(span, msg, Some("names cannot start with a digit"), false),
                        j,
                    )
                } else {
                    (Int(src[i..j].parse::<u64>().ok()), j)
                }
            }
            c if is_ident_start(c) => {
                let mut j = i;
                while is_ident_continue(at(j)) {
                    j += 1;
                }
                let word = &src[i..j];
                (keyword(word).unwrap_or_else(|| Ident(word.to_string())), j)
            }
            b'(' => (LParen, i + 1),
            b')' => (RParen, i + 1),
            b'{' => (LBrace, i + 1),
            b'}' => (RBrace, i + 1),
            b'[' => (LBracket, i + 1),
            b']' => (RBracket, i + 1),
            b'.' if at(i + 1) == b'.' => (DotDot, i + 2),
            b',' => (Comma, i + 1),
            b':' if at(i + 1) == b'=' => (Assign, i + 2),
            b':' => (Colon, i + 1),
            b'+' => (Plus, i + 1),
            b'*' => (Star, i + 1),
            b'/' => (Slash, i + 1),
            b'%' => (Percent, i + 1),
            b'-' if at(i + 1) == b'>' => (Arrow, i + 2),
            b'-' => (Minus, i + 1),
            b'<' if at(i + 1) == b'-' && at(i + 2) == b'>' => (DoubleArrow, i + 3),
            b'<' if at(i + 1) == b'=' && at(i + 2) == b'>' => {
                not_an_operator(i, "<=>", "use `<->`")
            }
            b'<' if at(i + 1) == b'=' => (Le, i + 2),
            b'<' => (Lt, i + 1),
            b'>' if at(i + 1) == b'=' => (Ge, i + 2),
            b'>' => (Gt, i + 1),
            b'=' if at(i + 1) == b'=' => (EqEq, i + 2),
            b'=' if at(i + 1) == b'>' => not_an_operator(i, "=>", "use `->`"),
            b'=' => not_an_operator(i, "=", "use `==` to compare"),
            b'!' if at(i + 1) == b'=' => (NotEq, i + 2),
            b'!' => (Bang, i + 1),
            b'?' if at(i + 1) == b'!' => (QuestionBang, i + 2),
            b'&' if at(i + 1) == b'&' => not_an_operator(i, "&&", "use `and`"),
            b'&' => not_an_operator(i, "&", "use `and`"),
            b'|' if at(i + 1) == b'|' => not_an_operator(i, "||", "use `or`"),
            b'|' => (Bar, i + 1),
            _ => {
                let ch = src[i..].chars().next().unwrap_or('\u{fffd}');
                let end = i + ch.len_utf8();
                let span = Span::new(i, end);
                let hint = match ch {
                    ';' => Some("a statement ends at the end of its line"),
                    // `0.3333`: a decimal, or a range with a dot missing.
                    '.' if i > 0 && at(i - 1).is_ascii_digit() && at(i + 1).is_ascii_digit() => {
                        Some(
                            "numbers have no decimals: a fraction is a division of integers, \
                             `1/3` (probabilities are exact); a range is written `a..b`",
                        )
                    }
                    '.' => Some("a range is written `a..b`"),
                    '^' => Some("there is no power operator: multiply, e.g. `x * x`"),
                    '"' | '\'' => Some("there are no strings in stories"),
                    '≤' => Some("use `<=`"),
                    '≥' => Some("use `>=`"),
                    '≠' => Some("use `!=`"),
                    '∧' => Some("use `and`"),
                    '∨' => Some("use `or`"),
                    '¬' => Some("use `not`"),
                    '→' | '⇒' => Some("use `->`"),
                    '↔' | '⇔' => Some("use `<->`"),
                    _ => None,
                };
                let continues = matches!(ch, '≤' | '≥' | '≠' | '∧' | '∨' | '→' | '⇒' | '↔' | '⇔');
                let msg = Diagnostic::unexpected_character(span, ch).message;
                (invalid(span, msg, hint, continues), end)
            }
        };
        out.push(Token {
            kind,
            span: Span::new(start, end),
        });
        i = end;
    }
    out
}

/// An open bracket, as tracked by [`layout`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Paren,
    Bracket,
    /// A set `{1, 2}` or an enum's variants: newlines inside are ignored.
    Set,
    /// A block of statements: newlines inside end statements.
    Block,
}

/// Is the innermost open brace a block?
fn in_block(stack: &[Open]) -> bool {
    stack
        .iter()
        .rev()
        .find(|o| matches!(o, Open::Set | Open::Block))
        == Some(&Open::Block)
}

/// Does the line starting at `rest` clearly begin a statement?
fn starts_statement(rest: &[Token], stack: &[Open]) -> bool {
    use TokenKind::*;
    match rest.first().map(|t| &t.kind) {
        Some(
            Characters | IntKw | BoolKw | Announce | Checkpoint | Worlds | Const | Enum | For
            | Simultaneously | Actual | Repeat | AssertAddsCk | Check | Event | Def | Where | Prior
            | Show | Action | Do | Plan,
        ) => true,
        Some(RBrace) => in_block(stack),
        Some(Ident(_)) => matches!(
            after_name(rest),
            Some(Learns | Colon | Reveals | Assign | Sees | Expects)
        ),
        _ => false,
    }
}

/// Whether the line starts `x :=` or `b[i] :=`.
fn assigns(rest: &[Token]) -> bool {
    matches!(rest.first().map(|t| &t.kind), Some(TokenKind::Ident(_)))
        && after_name(rest) == Some(&TokenKind::Assign)
}

/// The token after the name (and its balanced index, `child[i]`) that starts `rest`, if
/// on this line.
fn after_name(rest: &[Token]) -> Option<&TokenKind> {
    use TokenKind::*;
    let mut next = 1;
    if rest.get(1).map(|t| &t.kind) == Some(&LBracket) {
        let mut depth = 0usize;
        loop {
            match rest.get(next).map(|t| &t.kind) {
                Some(LBracket) => depth += 1,
                Some(RBracket) => {
                    depth -= 1;
                    if depth == 0 {
                        next += 1;
                        break;
                    }
                }
                None | Some(Newline) => return None,
                _ => {}
            }
            next += 1;
        }
    }
    rest.get(next).map(|t| &t.kind)
}

/// Whether the next line that holds a token starts with `and`, `or`, `->`, `<->`,
/// `then`, `|`, `,`, `keeping` or `coordinated`: tokens that can neither start a
/// statement nor an expression, so that the line continues the statement before it.
/// Blank lines and comment lines in between are skipped (they hold no token).
fn starts_with_continuation(rest: &[Token]) -> bool {
    use TokenKind::*;
    matches!(
        rest.iter().find(|t| t.kind != Newline).map(|t| &t.kind),
        Some(And | Or | Arrow | DoubleArrow | Then | Bar | Comma | Keeping | Coordinated)
    )
}

fn layout(raw: Vec<Token>) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::with_capacity(raw.len() + 1);
    let mut stack: Vec<Open> = Vec::new();
    for (idx, tok) in raw.iter().enumerate() {
        let mut tok = tok.clone();
        match tok.kind {
            TokenKind::Newline => {
                let Some(last) = out.last() else { continue };
                if last.kind == TokenKind::Newline {
                    continue;
                }
                // The newline's span is empty, right after the line's last token, so
                // "found end of line" points there rather than past a comment.
                let newline = Token {
                    kind: TokenKind::Newline,
                    span: Span::new(last.span.end, last.span.end),
                };
                let sensitive = stack.last().is_none_or(|o| *o == Open::Block);
                if starts_with_continuation(&raw[idx + 1..]) {
                    // `and b`, `then x := 1` or `| stayed` on the next line can only
                    // continue this statement.
                    continue;
                }
                // `then x := 1,` / `x, y := 1,` / `a if p then` on one line and `y := 2`
                // on the next: neither a comma nor `then` can end a statement, so that
                // line continues the case's (or the change's) list of changes.
                let more_changes = matches!(last.kind, TokenKind::Comma | TokenKind::Then)
                    && assigns(&raw[idx + 1..]);
                if starts_statement(&raw[idx + 1..], &stack) && !more_changes {
                    while stack.last().is_some_and(|o| *o != Open::Block) {
                        stack.pop();
                    }
                    out.push(newline);
                } else if sensitive && !last.kind.continues_line() {
                    out.push(newline);
                }
                continue;
            }
            TokenKind::LParen => stack.push(Open::Paren),
            TokenKind::LBracket => stack.push(Open::Bracket),
            TokenKind::LBrace => {
                let n = out.len();
                let kind = |i: usize| out.get(i).map(|t: &Token| &t.kind);
                let after_in = n >= 1 && kind(n - 1) == Some(&TokenKind::In);
                let after_enum = n >= 2
                    && kind(n - 2) == Some(&TokenKind::Enum)
                    && matches!(kind(n - 1), Some(TokenKind::Ident(_)));
                // Blocks never open inside brackets: `sample(3, {…})` is a set.
                let inside = matches!(stack.last(), Some(Open::Paren | Open::Bracket | Open::Set));
                if after_in || after_enum || inside {
                    stack.push(Open::Set);
                } else {
                    stack.push(Open::Block);
                    tok.kind = TokenKind::LBlock;
                }
            }
            TokenKind::RParen if stack.last() == Some(&Open::Paren) => {
                stack.pop();
            }
            TokenKind::RBracket if stack.last() == Some(&Open::Bracket) => {
                stack.pop();
            }
            TokenKind::RBrace if stack.iter().any(|o| matches!(o, Open::Set | Open::Block)) => {
                while let Some(open) = stack.pop() {
                    if open == Open::Block {
                        tok.kind = TokenKind::RBlock;
                        break;
                    }
                    if open == Open::Set {
                        break;
                    }
                }
            }
            _ => {}
        }
        out.push(tok);
    }
    let end = out
        .iter()
        .rev()
        .find(|t| t.kind != TokenKind::Newline)
        .map_or(0, |t| t.span.end);
    out.push(Token {
        kind: TokenKind::Eof,
        span: Span::new(end, end),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::TokenKind::*;
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        lex(src).into_iter().map(|t| t.kind).collect()
    }

    fn id(s: &str) -> TokenKind {
        Ident(s.to_string())
    }

    #[test]
    fn operators_and_keywords() {
        assert_eq!(
            kinds("a<->b->c<=d>=e<f>g==h!=i+-*/%"),
            vec![
                id("a"),
                DoubleArrow,
                id("b"),
                Arrow,
                id("c"),
                Le,
                id("d"),
                Ge,
                id("e"),
                Lt,
                id("f"),
                Gt,
                id("g"),
                EqEq,
                id("h"),
                NotEq,
                id("i"),
                Plus,
                Minus,
                Star,
                Slash,
                Percent,
                Eof
            ]
        );
        assert_eq!(
            kinds("knows_value inx in"),
            vec![id("knows_value"), id("inx"), In, Eof]
        );
        assert_eq!(
            kinds("007 18446744073709551616"),
            vec![Int(Some(7)), Int(None), Eof]
        );
    }

    #[test]
    fn newlines() {
        // Blank lines, comments and leading newlines collapse.
        assert_eq!(
            kinds("\n\n# c\na # x\n\n\nb\n"),
            vec![id("a"), Newline, id("b"), Newline, Eof]
        );
        // Continuation after an operator and inside brackets.
        assert_eq!(kinds("a +\nb"), vec![id("a"), Plus, id("b"), Eof]);
        assert_eq!(
            kinds("(a\n,\nb)\nc"),
            vec![
                LParen,
                id("a"),
                Comma,
                id("b"),
                RParen,
                Newline,
                id("c"),
                Eof
            ]
        );
        // A statement start ends an unclosed bracket's line.
        assert_eq!(
            kinds("(a\nworlds"),
            vec![LParen, id("a"), Newline, Worlds, Eof]
        );
        assert_eq!(
            kinds("a and\nB: c"),
            vec![id("a"), And, Newline, id("B"), Colon, id("c"), Eof]
        );
    }

    #[test]
    fn continuation_lines() {
        // A line starting with `then`, `|` or `,` continues the statement before it.
        assert_eq!(
            kinds("a if p\n  then x := 1\nb"),
            vec![
                id("a"),
                If,
                id("p"),
                Then,
                id("x"),
                Assign,
                Int(Some(1)),
                Newline,
                id("b"),
                Eof
            ]
        );
        assert_eq!(
            kinds("A sees a\n  | b\nc"),
            vec![id("A"), Sees, id("a"), Bar, id("b"), Newline, id("c"), Eof]
        );
        assert_eq!(
            kinds("characters A\n  , B"),
            vec![Characters, id("A"), Comma, id("B"), Eof]
        );
        // Comment lines and blank lines between the halves do not end the statement.
        assert_eq!(
            kinds("a\n# c\n\n  and b\n# d\nor c\nd"),
            vec![id("a"), And, id("b"), Or, id("c"), Newline, id("d"), Eof]
        );
        assert_eq!(kinds("a and\n  # c\n  b"), vec![id("a"), And, id("b"), Eof]);
        // Any other line after a comment line starts a statement.
        assert_eq!(kinds("a\n# c\nb"), vec![id("a"), Newline, id("b"), Eof]);
    }

    #[test]
    fn spans() {
        let toks = lex("ab  <->\n# x\n 12 ");
        let spans: Vec<(usize, usize)> = toks.iter().map(|t| (t.span.start, t.span.end)).collect();
        assert_eq!(spans, vec![(0, 2), (4, 7), (13, 15), (15, 15)]);
        // Newlines are empty spans right after the line's last token.
        let toks = lex("a # c\nb");
        assert_eq!(toks[1].span, Span::new(1, 1));
    }

    #[test]
    fn invalid_characters() {
        let toks = lex("a @ é = b");
        match &toks[1].kind {
            Invalid {
                diag,
                continues: false,
            } => {
                assert_eq!(diag.message, "unexpected character `@`");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(toks[2].span, Span::new(4, 6));
        match &toks[3].kind {
            Invalid {
                diag,
                continues: true,
            } => {
                assert_eq!(diag.message, "`=` is not an operator");
                assert_eq!(diag.hints, vec!["use `==` to compare".to_string()]);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn sets_and_blocks() {
        // A `{` after `in` opens a set: newlines inside are dropped.
        assert_eq!(
            kinds("x in {\n1,\n2\n}\ny"),
            vec![
                id("x"),
                In,
                LBrace,
                Int(Some(1)),
                Comma,
                Int(Some(2)),
                RBrace,
                Newline,
                id("y"),
                Eof
            ]
        );
        // Any other `{` opens a block: newlines inside end statements.
        assert_eq!(
            kinds("for i in 0..n {\n a\n b\n}\nc"),
            vec![
                For,
                id("i"),
                In,
                Int(Some(0)),
                DotDot,
                id("n"),
                LBlock,
                id("a"),
                Newline,
                id("b"),
                Newline,
                RBlock,
                Newline,
                id("c"),
                Eof
            ]
        );
        // A set inside a block, and a block after a set.
        assert_eq!(
            kinds("if x in {1,\n 2} { a }"),
            vec![
                If,
                id("x"),
                In,
                LBrace,
                Int(Some(1)),
                Comma,
                Int(Some(2)),
                RBrace,
                LBlock,
                id("a"),
                RBlock,
                Eof
            ]
        );
        // An enum's values are a set.
        assert_eq!(
            kinds("enum C {\n r,\n g,\n}"),
            vec![
                Enum,
                id("C"),
                LBrace,
                id("r"),
                Comma,
                id("g"),
                Comma,
                RBrace,
                Eof
            ]
        );
        // Brackets ignore newlines.
        assert_eq!(
            kinds("a[\n1\n]"),
            vec![id("a"), LBracket, Int(Some(1)), RBracket, Eof]
        );
        // A `}` line closes the block even after an unclosed `(`.
        assert_eq!(
            kinds("{\n(a\n}\nb"),
            vec![
                LBlock,
                LParen,
                id("a"),
                Newline,
                RBlock,
                Newline,
                id("b"),
                Eof
            ]
        );
        // A stray `}` is a plain `RBrace`.
        assert_eq!(kinds("}"), vec![RBrace, Eof]);
    }

    #[test]
    fn new_statement_starts() {
        // `child[i] learns …`, `A reveals …` and the new keywords end an unclosed `(`.
        for (line, first) in [
            ("child[i + 1] learns x", id("child")),
            ("A reveals x", id("A")),
            ("const n = 1", Const),
            ("enum E { a }", Enum),
            ("for i in 0..1 { }", For),
            ("simultaneously { }", Simultaneously),
            ("actual x", Actual),
            ("repeat max 1 { } until x", Repeat),
            ("assert_adds_ck x { }", AssertAddsCk),
            ("action a { b }", Action),
            ("do a", Do),
            ("plan x", Plan),
        ] {
            let toks = kinds(&format!("announce (a\n{line}"));
            assert_eq!(toks[3], Newline, "{line}");
            assert_eq!(toks[4], first, "{line}");
        }
        // An index alone does not start a statement.
        assert_eq!(
            kinds("(a and\nb[0] or c)"),
            vec![
                LParen,
                id("a"),
                And,
                id("b"),
                LBracket,
                Int(Some(0)),
                RBracket,
                Or,
                id("c"),
                RParen,
                Eof
            ]
        );
        assert_eq!(kinds("0..n"), vec![Int(Some(0)), DotDot, id("n"), Eof]);
        // After a trailing comma, `y := …` and `b[i] := …` continue a list of changes;
        // after anything else they start a statement, and so does `announce` after a
        // comma (a trailing comma ends `characters A, B,`).
        assert_eq!(
            kinds("a then x := 1,\n  b[0] := 2"),
            vec![
                id("a"),
                Then,
                id("x"),
                Assign,
                Int(Some(1)),
                Comma,
                id("b"),
                LBracket,
                Int(Some(0)),
                RBracket,
                Assign,
                Int(Some(2)),
                Eof
            ]
        );
        assert_eq!(
            kinds("a then\n  x := 1"),
            vec![id("a"), Then, id("x"), Assign, Int(Some(1)), Eof]
        );
        assert_eq!(kinds("x := 1\ny := 2")[3], Newline);
        assert_eq!(kinds("bool p,\nannounce p")[3], Newline);
        // A line starting with `keeping` or `coordinated` continues a `plan`.
        assert_eq!(
            kinds("plan p\n  keeping q\n  coordinated\nx"),
            vec![
                Plan,
                id("p"),
                Keeping,
                id("q"),
                Coordinated,
                Newline,
                id("x"),
                Eof
            ]
        );
    }
}
