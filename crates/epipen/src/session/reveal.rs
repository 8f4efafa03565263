//! Reveals as the run prints them: `A reveals φ` with φ as written in the story (on one
//! line), its loop variables replaced by their values, rather than the lowered formula.

use crate::explore;
use crate::ir::{Stmt, StmtKind};

/// Gives each `A reveals φ` of `stmts` (in blocks too) the text the run prints: φ as
/// written in `source` (on one line), the loop variables around it replaced by their
/// values (`knows_value(muddy[i])` with `i = 0`: `knows_value(muddy[0])`), rather than
/// the lowered formula (an aggregate unrolled).
pub(crate) fn reveals_as_written(source: &str, stmts: &mut [Stmt]) {
    for stmt in stmts {
        let Stmt { kind, span, loops } = stmt;
        match kind {
            StmtKind::Reveal { text, .. } => {
                if let Some(written) = source
                    .get(span.start..span.end)
                    .and_then(|s| reveal_text(s, loops))
                {
                    *text = written;
                }
            }
            StmtKind::Simultaneously(body)
            | StmtKind::Repeat { body, .. }
            | StmtKind::AssertAddsCk { body, .. } => reveals_as_written(source, body),
            _ => {}
        }
    }
}

/// What follows `reveals` in the statement `statement`, on one line, each identifier
/// named in `loops` replaced by its value.
fn reveal_text(statement: &str, loops: &[(String, i64)]) -> Option<String> {
    let text = explore::statement_text(statement);
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::new();
    let mut word = String::new();
    let mut after = false;
    for c in text.chars().chain(std::iter::once(' ')) {
        if ident(c) {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            if !after {
                after = word == "reveals";
            } else if let Some((_, value)) = loops.iter().rev().find(|(n, _)| *n == word) {
                out.push_str(&value.to_string());
            } else {
                out.push_str(&word);
            }
            word.clear();
        }
        if after {
            out.push(c);
        }
    }
    let out = out.trim();
    (after && !out.is_empty()).then(|| out.to_string())
}

#[cfg(test)]
mod tests {
    use super::reveal_text;

    #[test]
    fn a_reveal_is_shown_as_written_with_its_loop_values() {
        let loops = [("i".to_string(), 2), ("j".to_string(), -1)];
        assert_eq!(
            reveal_text(
                "child[i] reveals knows_value(muddy[i]) and # a comment\n  ij == j",
                &loops
            )
            .as_deref(),
            Some("knows_value(muddy[2]) and ij == -1")
        );
        // An aggregate's own variable is not a loop's.
        assert_eq!(
            reveal_text("A reveals any(c in 0..5: ship[c])", &loops).as_deref(),
            Some("any(c in 0..5: ship[c])")
        );
        assert_eq!(reveal_text("announce x", &loops), None);
    }
}
