//! Lexer, parser, syntax tree and diagnostics.

pub mod ast;
pub mod diagnostic;
mod lexer;
mod parser;
pub mod span;

pub use diagnostic::{Diagnostic, line_col};
pub use span::Span;

/// Parses a story. On failure returns every syntax error found (the parser recovers at
/// the next statement), in source order.
pub fn parse(source: &str) -> Result<ast::Story, Vec<Diagnostic>> {
    parser::parse_tokens(source, lexer::lex(source))
}
