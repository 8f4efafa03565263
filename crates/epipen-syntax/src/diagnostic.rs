//! Diagnostics are data: a message, the span it is about, and hints. They are rendered
//! in exactly one place, [`Located::render`], once located in their story.

use super::span::Span;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub message: String,
    pub span: Span,
    /// Other places the error is about, rendered as `= note: line N: ...` lines under
    /// the excerpt, before the hints.
    pub notes: Vec<(Span, String)>,
    /// Rendered as `= hint: ...` lines under the excerpt.
    pub hints: Vec<String>,
}

impl Diagnostic {
    /// "unexpected character `c`" at `span` (a control or space character escaped, so
    /// that the message shows it), for every lexer of the project's formats.
    pub fn unexpected_character(span: Span, ch: char) -> Diagnostic {
        let shown: String = if ch.is_control() || ch.is_whitespace() {
            ch.escape_unicode().collect()
        } else {
            ch.to_string()
        };
        Diagnostic::error(span, format!("unexpected character `{shown}`"))
    }

    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            message: message.into(),
            span,
            notes: Vec::new(),
            hints: Vec::new(),
        }
    }

    pub fn with_note(mut self, span: Span, note: impl Into<String>) -> Diagnostic {
        self.notes.push((span, note.into()));
        self
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hints.push(hint.into());
        self
    }
}

/// Clamps `offset` into `source` and back onto a char boundary.
fn clamp(source: &str, offset: usize) -> usize {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Whether the byte at `i` ends a line: a `\n`, or a `\r` not followed by `\n` (old Mac
/// line endings; in `\r\n` the `\n` ends the line).
pub(crate) fn ends_line(b: &[u8], i: usize) -> bool {
    b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n'))
}

/// The 1-based line of a byte offset (already clamped) and where that line starts (on
/// the first line, after a byte-order mark).
fn line_start(source: &str, offset: usize) -> (usize, usize) {
    let b = source.as_bytes();
    let bom = if source.starts_with('\u{feff}') { 3 } else { 0 };
    (0..offset)
        .filter(|&i| ends_line(b, i))
        .fold((1, bom.min(offset)), |(line, _), i| (line + 1, i + 1))
}

/// 1-based line and column (column counted in chars) of a byte offset. Offsets past the
/// end point at the end.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = clamp(source, offset);
    let (line, start) = line_start(source, offset);
    (line, source[start..offset].chars().count() + 1)
}

impl Diagnostic {
    /// The diagnostic located in `source` (read from `path`): its line and column, the
    /// source line and where the carets go, its notes' lines; [`Located::render`]
    /// writes it.
    pub fn locate(&self, path: &str, source: &str) -> Located {
        let start = clamp(source, self.span.start);
        let (line, column) = line_col(source, start);
        let (_, line_start) = line_start(source, start);
        let line_end = (start..source.len())
            .find(|&i| ends_line(source.as_bytes(), i))
            .unwrap_or(source.len());
        let text = source[line_start..line_end].trim_end_matches('\r');
        let text_end = line_start + text.len();
        let end = clamp(source, self.span.end).min(text_end).max(start);
        let carets = source[start..end].chars().count().max(1);
        let prefix: String = source[line_start..start]
            .chars()
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        Located {
            path: path.to_string(),
            message: self.message.clone(),
            at: Some(At {
                line,
                column,
                text: text.to_string(),
                prefix,
                carets,
            }),
            notes: (self.notes.iter())
                .map(|(span, note)| (line_col(source, span.start).0, note.clone()))
                .collect(),
            hints: self.hints.clone(),
        }
    }

    /// `path:line:col: error: message`, the source line, carets under the span, hints
    /// (see [`Located::render`]).
    pub fn render(&self, path: &str, source: &str) -> String {
        self.locate(path, source).render()
    }
}

/// A diagnostic as data, located in its story: what front ends show (the command line
/// renders it, the playground marks its line, Python raises it with its line and
/// column).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Located {
    /// The story's path, as messages name it.
    pub path: String,
    pub message: String,
    /// Where in the story (None: about no place of it, e.g. a `--set` value).
    pub at: Option<At>,
    /// Other places it is about: (line, note).
    pub notes: Vec<(usize, String)>,
    pub hints: Vec<String>,
}

/// Where a [`Located`] diagnostic points: a line and column (from 1, columns in chars),
/// the line's text, and the carets under the span (`prefix`: the blanks before them).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct At {
    pub line: usize,
    pub column: usize,
    pub text: String,
    pub prefix: String,
    pub carets: usize,
}

/// How many characters of a line an excerpt shows: a longer line is cut around the
/// carets, `...` where it is cut.
const EXCERPT: usize = 100;
/// How many characters before the carets a cut line keeps.
const BEFORE_CARETS: usize = 30;

impl At {
    /// The line's text as an excerpt shows it, the blanks before the carets and how
    /// many carets: the whole line, or [`EXCERPT`] characters of a longer one around the
    /// carets' start (a span running past them is marked as far as they go).
    fn excerpt(&self) -> (String, String, usize) {
        let chars: Vec<char> = self.text.chars().collect();
        if chars.len() <= EXCERPT {
            return (self.text.clone(), self.prefix.clone(), self.carets);
        }
        let at = self.prefix.chars().count().min(chars.len());
        let to = (at.saturating_sub(BEFORE_CARETS) + EXCERPT).min(chars.len());
        let from = to - EXCERPT;
        let cut = |yes: bool| if yes { "..." } else { "" };
        let text: String = chars[from..to].iter().collect();
        let text = format!("{}{text}{}", cut(from > 0), cut(to < chars.len()));
        let prefix: String = self.prefix.chars().skip(from).collect();
        let prefix = format!("{}{prefix}", if from > 0 { "   " } else { "" });
        (text, prefix, self.carets.min(to - at).max(1))
    }
}

impl Located {
    /// A message about no place of the story.
    pub fn nowhere(path: &str, message: impl Into<String>) -> Located {
        Located {
            path: path.to_string(),
            message: message.into(),
            at: None,
            notes: Vec::new(),
            hints: Vec::new(),
        }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Located {
        self.hints.push(hint.into());
        self
    }

    /// The one rendering of a diagnostic:
    ///
    /// ```text
    /// stories/x.story:7:10: error: unknown name `dya`
    ///   |
    /// 7 | announce dya > 3
    ///   |          ^^^
    ///   = hint: did you mean `day`?
    /// ```
    ///
    /// and, about no place, `error: message` then its hints.
    pub fn render(&self) -> String {
        let Some(at) = &self.at else {
            let mut out = format!("error: {}\n", self.message);
            for hint in &self.hints {
                out.push_str(&format!("  = hint: {hint}\n"));
            }
            return out;
        };
        let number = at.line.to_string();
        let pad = " ".repeat(number.len());
        let mut out = format!(
            "{}:{}:{}: error: {}\n",
            self.path, at.line, at.column, self.message
        );
        out.push_str(&format!("{pad} |\n"));
        let (text, prefix, carets) = at.excerpt();
        if text.is_empty() {
            out.push_str(&format!("{number} |\n"));
        } else {
            out.push_str(&format!("{number} | {text}\n"));
        }
        out.push_str(&format!("{pad} | {prefix}{}\n", "^".repeat(carets)));
        for (line, note) in &self.notes {
            out.push_str(&format!("{pad} = note: line {line}: {note}\n"));
        }
        for hint in &self.hints {
            out.push_str(&format!("{pad} = hint: {hint}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(source: &str, needle: &str) -> Span {
        let start = source.find(needle).expect("needle");
        Span::new(start, start + needle.len())
    }

    #[test]
    fn line_and_column() {
        let src = "ab\ncé\tx\n";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 2), (1, 3));
        assert_eq!(line_col(src, 3), (2, 1));
        assert_eq!(line_col(src, 4), (2, 2));
        // After the two-byte `é`: column counts chars.
        assert_eq!(line_col(src, 6), (2, 3));
        // Inside `é`: backs up to its start.
        assert_eq!(line_col(src, 5), (2, 2));
        assert_eq!(line_col(src, src.len()), (3, 1));
        assert_eq!(line_col(src, 1000), (3, 1));
        assert_eq!(line_col("", 5), (1, 1));
        // A lone `\r` ends a line; `\r\n` is one line end.
        let src = "a\rb\r\nc";
        assert_eq!(line_col(src, 2), (2, 1));
        assert_eq!(line_col(src, 3), (2, 2));
        assert_eq!(line_col(src, 5), (3, 1));
        // A byte-order mark takes no column.
        assert_eq!(line_col("\u{feff}ab", 4), (1, 2));
    }

    #[test]
    fn renders_the_example() {
        let src = "characters A\nint month, day\n\n\n\n\nannounce dya > 3\nworlds\n";
        let d = Diagnostic::error(at(src, "dya"), "unknown name `dya`")
            .with_hint("did you mean `day`?");
        assert_eq!(
            d.render("stories/x.story", src),
            "\
stories/x.story:7:10: error: unknown name `dya`
  |
7 | announce dya > 3
  |          ^^^
  = hint: did you mean `day`?
"
        );
    }

    #[test]
    fn renders_wide_gutters_and_several_hints() {
        let src = format!("{}announce x = 1\n", "\n".repeat(11));
        let d = Diagnostic::error(at(&src, "="), "`=` is not an operator")
            .with_hint("use `==` to compare")
            .with_hint("another");
        assert_eq!(
            d.render("s", &src),
            "\
s:12:12: error: `=` is not an operator
   |
12 | announce x = 1
   |            ^
   = hint: use `==` to compare
   = hint: another
"
        );
    }

    #[test]
    fn renders_tabs_aligned() {
        let src = "announce\t(a +\tb) @\n";
        let d = Diagnostic::error(at(src, "@"), "unexpected character `@`");
        assert_eq!(
            d.render("t.story", src),
            "t.story:1:18: error: unexpected character `@`\n  |\n1 | announce\t(a +\tb) @\n  |         \t    \t   ^\n"
        );
    }

    #[test]
    fn renders_a_long_line_cut_around_the_carets() {
        let terms = "+1".repeat(100);
        // At the start: the line is cut after 100 characters.
        let src = format!("announce x == 1{terms}\n");
        let d = Diagnostic::error(Span::new(9, src.len() - 1), "too large");
        let shown = format!("{}...", &src[..100]);
        let carets = "^".repeat(91);
        assert_eq!(
            d.render("s", &src),
            format!("s:1:10: error: too large\n  |\n1 | {shown}\n  |          {carets}\n")
        );
        // In the middle: 30 characters before the carets, cut on both sides.
        let src = format!("announce x == 1{terms} + yyy{terms}\n");
        let d = Diagnostic::error(at(&src, "yyy"), "unknown name `yyy`");
        let start = src.find("yyy").expect("yyy") - 30;
        let shown = format!("...{}...", &src[start..start + 100]);
        let blanks = " ".repeat(33);
        assert_eq!(
            d.render("s", &src),
            format!("s:1:219: error: unknown name `yyy`\n  |\n1 | {shown}\n  | {blanks}^^^\n")
        );
        // At the end: the last 100 characters.
        let src = format!("announce x == 1{terms} + yyy\n");
        let d = Diagnostic::error(at(&src, "yyy"), "unknown name `yyy`");
        let shown = format!("...{}", &src[src.len() - 101..src.len() - 1]);
        let blanks = " ".repeat(100);
        assert_eq!(
            d.render("s", &src),
            format!("s:1:219: error: unknown name `yyy`\n  |\n1 | {shown}\n  | {blanks}^^^\n")
        );
    }

    #[test]
    fn renders_end_of_input() {
        let src = "int x\nannounce x ==";
        let d = Diagnostic::error(
            Span::new(src.len(), src.len()),
            "expected an expression, found end of input",
        );
        assert_eq!(
            d.render("e.story", src),
            "\
e.story:2:14: error: expected an expression, found end of input
  |
2 | announce x ==
  |              ^
"
        );
        // Past the end, after a final newline: an empty last line.
        let src = "int x\n";
        let d = Diagnostic::error(Span::new(99, 120), "oops");
        assert_eq!(d.render("e", src), "e:2:1: error: oops\n  |\n2 |\n  | ^\n");
        assert_eq!(d.render("e", ""), "e:1:1: error: oops\n  |\n1 |\n  | ^\n");
    }

    #[test]
    fn renders_multi_line_spans_to_the_end_of_the_first_line() {
        let src = "announce (a\r\n  and b)\n";
        let d = Diagnostic::error(Span::new(9, 21), "span");
        assert_eq!(
            d.render("m", src),
            "m:1:10: error: span\n  |\n1 | announce (a\n  |          ^^\n"
        );
        // Unicode in the span and before it: one caret per char.
        let src = "é announce ≤≤ x";
        let d = Diagnostic::error(at(src, "≤≤"), "u");
        assert_eq!(
            d.render("u", src),
            "u:1:12: error: u\n  |\n1 | é announce ≤≤ x\n  |            ^^\n"
        );
    }
}
