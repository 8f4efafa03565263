//! Tools for puzzle designers and teachers, built on the engine: step-by-step traces
//! ([`trace`]), epistemic model graphs ([`graph`]) and parameter/sample sweeps
//! ([`sweep`]). They compute data and text; the CLI prints it.

pub mod event;
pub mod graph;
pub mod layout;
pub mod svg;
pub mod sweep;
pub mod trace;

/// A statement's source text on one line: comments dropped, whitespace collapsed. Lines
/// end at `\n`, `\r\n` or a lone `\r`.
pub fn statement_text(source: &str) -> String {
    let joined: Vec<&str> = source
        .split(['\n', '\r'])
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .collect();
    joined
        .join(" ")
        .replace("{ ", "{")
        .replace(" }", "}")
        .replace(", }", "}")
        .replace(",}", "}")
}

/// `not φ` as a reader expects it (a reveal that did not hold): parentheses around
/// anything with a top-level space.
pub fn negated(text: &str) -> String {
    let mut depth = 0i32;
    let compound = text.chars().any(|c| {
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            _ => {}
        }
        c == ' ' && depth == 0
    });
    if compound {
        format!("not ({text})")
    } else {
        format!("not {text}")
    }
}

/// `text` cut to at most `max` characters, with `…` where it was cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_text_is_one_line_without_comments() {
        let src = "announce (month, day) in {\n  (5, 15), (5, 16), # May\n  (6, 17),\n}";
        assert_eq!(
            statement_text(src),
            "announce (month, day) in {(5, 15), (5, 16), (6, 17)}"
        );
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("abcdef", 6), "abcdef");
        assert_eq!(truncate("abcdefg", 6), "abcde…");
    }
}
