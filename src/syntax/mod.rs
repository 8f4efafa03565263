//! Lexer, parser, syntax tree and diagnostics.

pub mod ast;
pub mod diagnostic;
pub mod span;

pub use diagnostic::Diagnostic;
pub use span::Span;

/// Parses a story. On failure returns every syntax error found (the parser recovers at
/// the next statement).
pub fn parse(_source: &str) -> Result<ast::Story, Vec<Diagnostic>> {
    todo!("syntax helper")
}
