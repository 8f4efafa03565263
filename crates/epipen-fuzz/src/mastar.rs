//! Inputs for the mA* reader's fuzzer (`epipen plan FILE.txt`): the files of
//! `examples/mastar/` and a small domain of every construct, mutated — lines deleted,
//! duplicated or swapped, a word replaced by another word of the file or of the
//! language, a `-` put before a word or taken from it. Most mutated files still read,
//! so the translation and the plan are fuzzed as well as the parser.

use proptest::collection::vec;
use proptest::prelude::*;

/// Every construct of the format, small: ontic actions with conditional effects and
/// conditions on beliefs, sensing, announcement, full, partial and conditional
/// observers, knowing whether, and goals with `B`, `C` and `E`.
const SMALL: &str = "\
fluent f, g, at(a,1), open;
action flip, look, say, shut;
agent a, b, c;
executable flip if g;
flip causes f if g;
flip causes -g;
a observes flip;
b observes flip if at(a,1);
executable look if B(a, g), open;
look determines f;
a observes look;
b aware_of look;
c aware_of look if -f;
say announces f;
a observes say;
b observes say;
shut causes -open;
a observes shut;
c observes shut if (f | g);
initially -f, g, at(a,1), open;
initially C([a, b, c], at(a,1));
initially C([a, b, c], g | f);
initially C([a, b, c], B(a, open) | B(a, -open));
goal B(a, f) | B(a, -f);
goal C([a, b], g) | E([b, c], -f);
";

/// The seeds: `examples/mastar/`'s files, then [`SMALL`].
pub fn seeds() -> Vec<String> {
    let dir = crate::root().join("examples/mastar");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/mastar/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut out: Vec<String> = (files.iter())
        .map(|p| std::fs::read_to_string(p).expect("an mA* file"))
        .collect();
    out.push(SMALL.to_string());
    out
}

/// Words of the format that a mutation may write.
const WORDS: &[&str] = &[
    "fluent",
    "action",
    "agent",
    "executable",
    "if",
    "causes",
    "determines",
    "announces",
    "observes",
    "aware_of",
    "initially",
    "goal",
    "B",
    "C",
    "E",
    ",",
    ";",
    "|",
    "(",
    ")",
    "[",
    "]",
    "-",
    "%",
];

/// One change to a file; the numbers pick lines and words modulo their count.
#[derive(Debug, Clone)]
pub enum Mutation {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    /// A word replaced by another word of the file.
    Rename(usize, usize),
    /// A word replaced by a word of [`WORDS`].
    Word(usize, usize),
    /// A `-` put before a word, or taken from it.
    Negate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let n = || any::<usize>();
    prop_oneof![
        n().prop_map(Mutation::DeleteLine),
        n().prop_map(Mutation::DuplicateLine),
        (n(), n()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        (n(), n()).prop_map(|(a, b)| Mutation::Rename(a, b)),
        (n(), n()).prop_map(|(a, b)| Mutation::Word(a, b)),
        n().prop_map(Mutation::Negate),
    ]
}

/// A seed (by index, modulo their number) and what is done to it.
pub fn mutated() -> impl Strategy<Value = (usize, Vec<Mutation>)> {
    (any::<usize>(), vec(mutation(), 1..4))
}

/// The byte ranges of `text`'s words (letters, digits and `_`).
fn words(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if word(bytes[i]) {
            let start = i;
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            out.push((start, i));
        } else {
            i += 1;
        }
    }
    out
}

/// `text` with `mutations` applied in order.
pub fn apply(text: &str, mutations: &[Mutation]) -> String {
    let mut text = text.to_string();
    for m in mutations {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let spans = words(&text);
        let line = |k: usize| k % lines.len().max(1);
        match *m {
            Mutation::DeleteLine(k) if !lines.is_empty() => {
                lines.remove(line(k));
            }
            Mutation::DuplicateLine(k) if !lines.is_empty() => {
                let k = line(k);
                lines.insert(k, lines[k].clone());
            }
            Mutation::SwapLines(a, b) if !lines.is_empty() => {
                let (a, b) = (line(a), line(b));
                lines.swap(a, b);
            }
            Mutation::Rename(k, by) if !spans.is_empty() => {
                let (s, e) = spans[k % spans.len()];
                let (bs, be) = spans[by % spans.len()];
                let with = text[bs..be].to_string();
                text.replace_range(s..e, &with);
                continue;
            }
            Mutation::Word(k, w) if !spans.is_empty() => {
                let (s, e) = spans[k % spans.len()];
                text.replace_range(s..e, WORDS[w % WORDS.len()]);
                continue;
            }
            Mutation::Negate(k) if !spans.is_empty() => {
                let (s, _) = spans[k % spans.len()];
                if text[..s].ends_with('-') {
                    text.remove(s - 1);
                } else {
                    text.insert(s, '-');
                }
                continue;
            }
            _ => continue,
        }
        text = lines.join("\n");
        text.push('\n');
    }
    text
}
