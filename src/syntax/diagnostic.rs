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
        Diagnostic {
            message: message.into(),
            span,
            hints: Vec::new(),
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hints.push(hint.into());
        self
    }
}

// Temporary until the syntax helper delivers the real renderer.
impl Diagnostic {
    pub fn render(&self, path: &str, source: &str) -> String {
        let (l, c) = line_col(source, self.span.start);
        format!("{path}:{l}:{c}: error: {}\n", self.message)
    }
}

pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let before = &source[..offset.min(source.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}
