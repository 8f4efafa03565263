//! mA*'s tokens, as deep's scanner (`src/parse/lcp.lex`, a flex grammar) reads them:
//! names `[a-zA-Z][a-zA-Z_0-9]*` (a keyword when spelled as one: `fluent`, `B`, …),
//! numbers, the punctuation `; , | ( ) [ ] -`, and `%` comments to the end of the line.

use crate::syntax::{Diagnostic, Span};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    Fluent,
    Action,
    Agent,
    If,
    Causes,
    Executable,
    Determines,
    AwareOf,
    Observes,
    Announces,
    Initially,
    Goal,
    /// `B`, `C`, `E`: belief, common belief, everyone believes.
    B,
    C,
    E,
    /// Words deep's scanner reserves and its grammar never uses (`D`, `executes`,
    /// `impossible`): no name can be spelled so.
    Reserved(String),
    Semi,
    Comma,
    Or,
    LParen,
    RParen,
    LBracket,
    RBracket,
    Neg,
    Id(String),
    Number(String),
    Eof,
}

impl Tok {
    /// How the token reads in an error message.
    pub(super) fn shown(&self) -> String {
        let word = match self {
            Tok::Fluent => "fluent",
            Tok::Action => "action",
            Tok::Agent => "agent",
            Tok::If => "if",
            Tok::Causes => "causes",
            Tok::Executable => "executable",
            Tok::Determines => "determines",
            Tok::AwareOf => "aware_of",
            Tok::Observes => "observes",
            Tok::Announces => "announces",
            Tok::Initially => "initially",
            Tok::Goal => "goal",
            Tok::B => "B",
            Tok::C => "C",
            Tok::E => "E",
            Tok::Reserved(w) | Tok::Id(w) | Tok::Number(w) => w,
            Tok::Semi => ";",
            Tok::Comma => ",",
            Tok::Or => "|",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Neg => "-",
            Tok::Eof => return "the end of the file".to_string(),
        };
        format!("`{word}`")
    }
}

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub tok: Tok,
    pub span: Span,
}

fn keyword(word: &str) -> Option<Tok> {
    Some(match word {
        "fluent" => Tok::Fluent,
        "action" => Tok::Action,
        "agent" => Tok::Agent,
        "if" => Tok::If,
        "causes" => Tok::Causes,
        "executable" => Tok::Executable,
        "determines" => Tok::Determines,
        "aware_of" => Tok::AwareOf,
        "observes" => Tok::Observes,
        "announces" => Tok::Announces,
        "initially" => Tok::Initially,
        "goal" => Tok::Goal,
        "B" => Tok::B,
        "C" => Tok::C,
        "E" => Tok::E,
        "D" | "executes" | "impossible" => Tok::Reserved(word.to_string()),
        _ => return None,
    })
}

/// The tokens of `src`, ending with `Eof`; or the error at the first character no token
/// starts with.
pub(super) fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
            continue;
        }
        if c == b'%' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        let tok = if c.is_ascii_alphabetic() {
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let word = &src[start..i];
            keyword(word).unwrap_or_else(|| Tok::Id(word.to_string()))
        } else if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            Tok::Number(src[start..i].to_string())
        } else {
            i += 1;
            match c {
                b';' => Tok::Semi,
                b',' => Tok::Comma,
                b'|' => Tok::Or,
                b'(' => Tok::LParen,
                b')' => Tok::RParen,
                b'[' => Tok::LBracket,
                b']' => Tok::RBracket,
                b'-' => Tok::Neg,
                _ => {
                    let ch = src[start..].chars().next().unwrap_or('\u{fffd}');
                    let span = Span::new(start, start + ch.len_utf8());
                    let hint = match ch {
                        '&' => "conjunction is written `,`",
                        '~' | '!' => "negation is written `-`, before a fluent or as `(-φ)`",
                        '#' | '/' => "a comment starts with `%`",
                        _ => "mA*'s symbols are ; , | ( ) [ ] - and comments start with `%`",
                    };
                    return Err(Diagnostic::unexpected_character(span, ch).with_hint(hint));
                }
            }
        };
        out.push(Token {
            tok,
            span: Span::new(start, i),
        });
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span::new(src.len(), src.len()),
    });
    Ok(out)
}
