//! Lexer, parser, syntax tree and diagnostics.

pub mod ast;
pub mod diagnostic;
mod lexer;
mod parser;
mod pragma;
mod print;
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
    match parser::parse_tokens(source, tokens) {
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

/// Parses one expression, as a story writes it (on one line or several), e.g.
/// `knows(Albert, month == 5)`: what [`ast::Expr`]'s `Display` prints parses back to
/// the same tree (spans aside). On failure returns the syntax error.
pub fn parse_expr(source: &str) -> Result<ast::Expr, Vec<Diagnostic>> {
    parser::parse_expr_tokens(source, lexer::lex(source))
}
