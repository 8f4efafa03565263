//! Diagnostics are data: a message, the span it is about, and hints. They are rendered
//! in exactly one place, [`Diagnostic::render`].

use super::span::Span;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    pub span: Span,
    /// Rendered as `= hint: ...` lines under the excerpt.
    pub hints: Vec<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { message: message.into(), span, hints: Vec::new() }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hints.push(hint.into());
        self
    }
}
