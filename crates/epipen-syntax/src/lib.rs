//! Lexer, parser, syntax tree and diagnostics.

pub mod ast;
pub mod diagnostic;
mod lexer;
mod nowhere;
mod parser;
mod pragma;
mod print;
mod print_stmt;
pub mod span;

pub use diagnostic::{At, Diagnostic, Located, line_col};

/// Whether `word` is one of the language's keywords (not a name a story can use).
pub fn is_keyword(word: &str) -> bool {
    lexer::keyword(word).is_some()
}

/// Whether `word` is a name as a story writes one: a letter or `_`, then letters,
/// digits and `_`, and no keyword.
pub fn is_name(word: &str) -> bool {
    let mut bytes = word.bytes();
    bytes.next().is_some_and(lexer::is_ident_start)
        && bytes.all(lexer::is_ident_continue)
        && !is_keyword(word)
}
pub use span::Span;

/// Parses a story. On failure returns every syntax error found (the parser recovers at
/// the next statement), in source order.
pub fn parse(source: &str) -> Result<ast::Story, Vec<Diagnostic>> {
    let tokens = lexer::lex(source);
    let first_statement = match tokens.first() {
        Some(t) if t.kind != lexer::TokenKind::Eof => t.span.start,
        _ => source.len(),
    };
    let settings = pragma::settings(source, first_statement);
    match parser::parse_tokens(source, tokens, &Declared::default()) {
        Ok(story) if settings.diags.is_empty() => Ok(ast::Story {
            backend: settings.backend,
            ..story
        }),
        Ok(_) => Err(settings.diags),
        Err(mut diags) => {
            diags.extend(settings.diags);
            diags.sort_by_key(|d| d.span.start);
            Err(diags)
        }
    }
}

/// What a part of a story told after others ([`parse_part`]) knows of the declarations
/// before it: the names of the enums and characters declared, for the parser to read
/// `Colour wall` as a declaration and `child x` as no declaration.
#[derive(Debug, Clone, Default)]
pub struct Declared {
    pub enums: Vec<String>,
    pub characters: Vec<String>,
}

/// Parses a part of a story told after the statements before it (a story told in parts,
/// as `epipen::Story::tell` tells one): the statements of `source[start..]`, with spans
/// within `source` (so that a message points into the whole text told), the enums and
/// characters `declared` before it known. A setting `#!` is a story file's only: in a
/// part it is an error. On failure returns every syntax error found, in source order.
pub fn parse_part(
    source: &str,
    start: usize,
    declared: &Declared,
) -> Result<Vec<ast::Stmt>, Vec<Diagnostic>> {
    let mut tokens = lexer::lex(&source[start..]);
    for t in &mut tokens {
        t.span = Span::new(t.span.start + start, t.span.end + start);
    }
    let mut diags = pragma::in_part(&source[start..], start);
    match parser::parse_tokens(source, tokens, declared) {
        Ok(story) if diags.is_empty() => Ok(story.statements),
        Ok(_) => Err(diags),
        Err(more) => {
            diags.extend(more);
            diags.sort_by_key(|d| d.span.start);
            Err(diags)
        }
    }
}

/// Parses one expression, as a story writes it (on one line or several), e.g.
/// `knows(Albert, month == 5)`: what [`ast::Expr`]'s `Display` prints parses back to
/// the same tree (spans aside). On failure returns the syntax error.
pub fn parse_expr(source: &str) -> Result<ast::Expr, Vec<Diagnostic>> {
    parser::parse_expr_tokens(source, lexer::lex(source))
}
