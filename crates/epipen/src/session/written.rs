//! Reveals and shows as the run prints them: `A reveals φ` and `show e` with φ and e as
//! written in the story (on one line), their loop variables replaced by their values,
//! rather than the lowered expression (an aggregate unrolled: `count(i in 0..n:
//! muddy[i])`, not a sum of `if`s).

use crate::explore;
use crate::ir::{Stmt, StmtKind};

/// Gives each `A reveals φ` and `show e` of `stmts` (in blocks too) the text the run
/// prints: φ or e as written in `source` (on one line), the loop variables around it
/// replaced by their values (`knows_value(muddy[i])` with `i = 0`:
/// `knows_value(muddy[0])`), rather than the lowered expression.
pub(crate) fn as_written(source: &str, stmts: &mut [Stmt]) {
    for stmt in stmts {
        let Stmt { kind, span, loops } = stmt;
        let (text, keyword) = match kind {
            StmtKind::Reveal { text, .. } => (text, "reveals"),
            StmtKind::Show { text, .. } => (text, "show"),
            StmtKind::Simultaneously(body)
            | StmtKind::Repeat { body, .. }
            | StmtKind::AssertAddsCk { body, .. } => {
                as_written(source, body);
                continue;
            }
            _ => continue,
        };
        let statement = source.get(span.start..span.end);
        if let Some(written) = statement.and_then(|s| written_after(s, keyword, loops)) {
            *text = written;
        }
    }
}

/// What follows `keyword` in the statement `statement`, on one line, each identifier
/// named in `loops` replaced by its value.
fn written_after(statement: &str, keyword: &str, loops: &[(String, i64)]) -> Option<String> {
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
                after = word == keyword;
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
    use super::written_after;

    #[test]
    fn reveals_and_shows_are_printed_as_written_with_their_loop_values() {
        let loops = [("i".to_string(), 2), ("j".to_string(), -1)];
        assert_eq!(
            written_after(
                "child[i] reveals knows_value(muddy[i]) and # a comment\n  ij == j",
                "reveals",
                &loops
            )
            .as_deref(),
            Some("knows_value(muddy[2]) and ij == -1")
        );
        // An aggregate's own variable is not a loop's.
        assert_eq!(
            written_after("A reveals any(c in 0..5: ship[c])", "reveals", &loops).as_deref(),
            Some("any(c in 0..5: ship[c])")
        );
        assert_eq!(written_after("announce x", "reveals", &loops), None);
        assert_eq!(
            written_after("show count(k in 0..i: x > k) + j", "show", &loops).as_deref(),
            Some("count(k in 0..2: x > k) + -1")
        );
    }
}
