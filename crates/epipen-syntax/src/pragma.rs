//! Settings written in a story's first lines: `#! backend z3`.
//!
//! A line whose first characters (after blanks) are `#!` is a setting; the lexer reads it
//! as a comment. Settings go before the first statement (a `#!` line after it is an
//! error, not a comment that silently does nothing); a first line `#!/…` is a shebang
//! and ignored.

use crate::ast::Backend;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The settings of a story.
#[derive(Debug, Default)]
pub(crate) struct Settings {
    pub backend: Option<(Backend, Span)>,
    pub diags: Vec<Diagnostic>,
}

const BACKENDS: &str = "the backends are `auto`, `z3`, `bdd` and `explicit`";

/// The lines of `source` with the offset each starts at (line ends not included).
fn lines(source: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = source.as_bytes();
    let mut start = if source.starts_with('\u{feff}') { 3 } else { 0 };
    std::iter::from_fn(move || {
        if start > b.len() {
            return None;
        }
        let mut end = start;
        while end < b.len() && b[end] != b'\n' && b[end] != b'\r' {
            end += 1;
        }
        let line = (start, &source[start..end]);
        start = match b.get(end) {
            Some(b'\r') if b.get(end + 1) == Some(&b'\n') => end + 2,
            Some(_) => end + 1,
            None => b.len() + 1,
        };
        Some(line)
    })
}

/// The words of `text` (starting at `offset`) with their spans.
fn words(text: &str, offset: usize) -> Vec<(&str, Span)> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut at = offset;
    loop {
        let trimmed = rest.trim_start_matches([' ', '\t']);
        at += rest.len() - trimmed.len();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return out;
        }
        let len = trimmed.find([' ', '\t']).unwrap_or(trimmed.len());
        out.push((&trimmed[..len], Span::new(at, at + len)));
        rest = &trimmed[len..];
        at += len;
    }
}

/// The errors of settings in `part`, a part of a story told after others (starting at
/// `offset` of the whole text): a setting is a story file's, written at its top.
pub(crate) fn in_part(part: &str, offset: usize) -> Vec<Diagnostic> {
    (lines(part))
        .filter_map(|(start, line)| {
            let blank = line.len() - line.trim_start_matches([' ', '\t']).len();
            let at = offset + start + blank;
            line[blank..].starts_with("#!").then(|| {
                Diagnostic::error(Span::new(at, at + 2), "a setting `#!` goes at the top of a story file")
                    .with_hint("a story told in parts takes its backend from its options; a comment is written `# …`")
            })
        })
        .collect()
}

/// Reads the `#!` lines of `source`, whose first statement starts at `first_statement`.
pub(crate) fn settings(source: &str, first_statement: usize) -> Settings {
    let mut settings = Settings::default();
    for (index, (start, line)) in lines(source).enumerate() {
        let blank = line.len() - line.trim_start_matches([' ', '\t']).len();
        let text = &line[blank..];
        if !text.starts_with("#!") || (index == 0 && text.starts_with("#!/")) {
            continue;
        }
        let at = start + blank;
        let mark = Span::new(at, at + 2);
        if at > first_statement {
            settings.diags.push(
                Diagnostic::error(mark, "a setting `#!` goes before the first statement")
                    .with_hint("move it to the top of the story; a comment is written `# …`"),
            );
            continue;
        }
        let words = words(&text[2..], at + 2);
        let Some(&(word, span)) = words.first() else {
            settings.diags.push(
                Diagnostic::error(mark, "expected a setting after `#!`")
                    .with_hint("e.g. `#! backend z3`; a comment is written `# …`"),
            );
            continue;
        };
        if word != "backend" {
            settings.diags.push(
                Diagnostic::error(span, format!("unknown setting `{word}`"))
                    .with_hint("the only setting is the backend: `#! backend z3`"),
            );
            continue;
        }
        let Some(&(name, name_span)) = words.get(1) else {
            let end = Span::new(span.end, span.end);
            settings.diags.push(
                Diagnostic::error(end, "expected a backend after `#! backend`").with_hint(BACKENDS),
            );
            continue;
        };
        let Some(backend) = Backend::named(name) else {
            settings.diags.push(
                Diagnostic::error(name_span, format!("unknown backend `{name}`"))
                    .with_hint(BACKENDS),
            );
            continue;
        };
        if let Some(&(_, extra)) = words.get(2) {
            let found = &source[extra.start..extra.end];
            settings.diags.push(Diagnostic::error(
                extra,
                format!("expected end of line, found `{found}`"),
            ));
            continue;
        }
        if settings.backend.is_some() {
            settings.diags.push(
                Diagnostic::error(span, "the backend is set twice")
                    .with_hint("keep one `#! backend …` line"),
            );
            continue;
        }
        settings.backend = Some((backend, name_span));
    }
    settings
}
