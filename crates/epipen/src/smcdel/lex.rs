//! SMCDEL's tokens, as its lexer (`src/SMCDEL/Internal/Lex.x`, an Alex grammar) reads
//! them: at each place the longest match wins, and between a keyword and a name of the
//! same length, the keyword. Whitespace is space, tab, newline, carriage return, form
//! feed and vertical tab; `--` starts a comment to the end of the line.

use crate::syntax::{Diagnostic, Span};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Tok {
    Vars,
    Law,
    Obs,
    TrueQ,
    ValidQ,
    WhereQ,
    Colon,
    Comma,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Lt,
    Gt,
    Bang,
    Question,
    Top,
    Bot,
    Neg,
    And,
    Or,
    Impl,
    Iff,
    Con,
    Dis,
    Xor,
    OneOf,
    Forall,
    Exists,
    K,
    Kw,
    KnowsWhether,
    KnowsThat,
    CKnowWhether,
    CKnowThat,
    DKnowWhether,
    DKnowThat,
    /// An atom's number, as written (digits).
    Int(String),
    /// An agent's name.
    Str(String),
    Eof,
}

/// Keywords and punctuation, in the order of SMCDEL's lexer (which breaks ties).
const FIXED: &[(&str, Tok)] = &[
    ("VARS", Tok::Vars),
    ("LAW", Tok::Law),
    ("OBS", Tok::Obs),
    ("TRUE?", Tok::TrueQ),
    ("VALID?", Tok::ValidQ),
    ("WHERE?", Tok::WhereQ),
    (":", Tok::Colon),
    (",", Tok::Comma),
    ("(", Tok::LParen),
    (")", Tok::RParen),
    ("[", Tok::LBracket),
    ("]", Tok::RBracket),
    ("{", Tok::LBrace),
    ("}", Tok::RBrace),
    ("<", Tok::Lt),
    (">", Tok::Gt),
    ("!", Tok::Bang),
    ("?", Tok::Question),
    ("Top", Tok::Top),
    ("Bot", Tok::Bot),
    ("~", Tok::Neg),
    ("¬", Tok::Neg),
    ("Not", Tok::Neg),
    ("not", Tok::Neg),
    ("&", Tok::And),
    ("∧", Tok::And),
    ("|", Tok::Or),
    ("∨", Tok::Or),
    ("->", Tok::Impl),
    ("→", Tok::Impl),
    ("iff", Tok::Iff),
    ("AND", Tok::Con),
    ("OR", Tok::Dis),
    ("XOR", Tok::Xor),
    ("ONEOF", Tok::OneOf),
    ("ForAll", Tok::Forall),
    ("Forall", Tok::Forall),
    ("Exists", Tok::Exists),
    ("K", Tok::K),
    ("Kw", Tok::Kw),
    ("knows whether", Tok::KnowsWhether),
    ("knows that", Tok::KnowsThat),
    ("comknow whether", Tok::CKnowWhether),
    ("comknow that", Tok::CKnowThat),
    ("distknow whether", Tok::DKnowWhether),
    ("distknow that", Tok::DKnowThat),
];

#[derive(Debug, Clone)]
pub(super) struct Token {
    pub tok: Tok,
    pub span: Span,
}

/// The tokens of `src`, ending with `Eof`; or the error at the first character no token
/// starts with.
pub(super) fn lex(src: &str) -> Result<Vec<Token>, Diagnostic> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            i += 1;
            continue;
        }
        if src[i..].starts_with("--") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        // The longest name or number here.
        let word = if c.is_ascii_alphabetic() {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j].is_ascii_alphanumeric() {
                j += 1;
            }
            j - i
        } else {
            0
        };
        let digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        let fixed = FIXED
            .iter()
            .filter(|(text, _)| src[i..].starts_with(text))
            .fold(None::<(usize, &Tok)>, |best, (text, tok)| match best {
                Some((len, _)) if len >= text.len() => best,
                _ => Some((text.len(), tok)),
            });
        let (tok, len) = match fixed {
            Some((len, tok)) if len >= word && len >= digits => (tok.clone(), len),
            _ if word > 0 => (Tok::Str(src[i..i + word].to_string()), word),
            _ if digits > 0 => (Tok::Int(src[i..i + digits].to_string()), digits),
            _ => {
                let ch = src[i..].chars().next().unwrap_or('\u{fffd}');
                let span = Span::new(i, i + ch.len_utf8());
                let hint = match ch {
                    '=' => "equivalence is written `iff`, implication `->`",
                    '-' => "implication is written `->`, a comment starts with `--`",
                    '#' => "a comment starts with `--`",
                    _ => {
                        "SMCDEL's symbols are ~ & | -> ¬ ∧ ∨ → ( ) [ ] { } < > ! ? , : and \
                         comments start with `--`"
                    }
                };
                return Err(Diagnostic::unexpected_character(span, ch).with_hint(hint));
            }
        };
        out.push(Token {
            tok,
            span: Span::new(i, i + len),
        });
        i += len;
    }
    out.push(Token {
        tok: Tok::Eof,
        span: Span::new(src.len(), src.len()),
    });
    Ok(out)
}
