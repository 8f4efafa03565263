//! Inputs for the parser/lowering fuzzer: arbitrary bytes, a soup of the language's
//! tokens, and the stories of `stories/` mutated (tokens and lines deleted, duplicated,
//! swapped or replaced; random bytes inserted; numbers made huge; an expression or a
//! block nested deep).

use proptest::collection::vec;
use proptest::prelude::*;

/// The stories of `stories/`, by name.
pub fn seeds() -> Vec<(String, String)> {
    let dir = crate::root().join("stories");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("stories/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "story"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("a story"))
        })
        .collect();
    out.sort();
    out
}

/// Words and symbols of the language, and a few things that are not.
const VOCABULARY: &[&str] = &[
    "characters",
    "int",
    "bool",
    "announce",
    "learns",
    "checkpoint",
    "worlds",
    "where",
    "def",
    "true",
    "false",
    "not",
    "and",
    "or",
    "if",
    "then",
    "else",
    "in",
    "const",
    "enum",
    "for",
    "simultaneously",
    "actual",
    "reveals",
    "repeat",
    "max",
    "until",
    "assert_adds_ck",
    "knows",
    "knows_value",
    "knows_whether",
    "at",
    "everyone_knows",
    "common_knowledge",
    "distributed_knowledge",
    "check",
    "event",
    "sees",
    "expects",
    "others",
    "action",
    "by",
    "do",
    "plan",
    "keeping",
    "coordinated",
    ":=",
    "all",
    "any",
    "sum",
    "count",
    "distinct",
    "abs",
    "min",
    "sample",
    "A",
    "B",
    "x",
    "y",
    "n",
    "p",
    "c",
    "Colour",
    "red",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "..",
    "+",
    "-",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "->",
    "<->",
    "=",
    "^",
    "|",
    "exists",
    "forall",
    "!",
    "?!",
    "[! ",
    "<?! ",
    "[A, B ! ",
    "#!",
    "#! backend z3\n",
    "backend",
    "\n",
    "\r",
    "\r\n",
    "#",
    "0",
    "1",
    "7",
    "-1",
    "9223372036854775807",
    "9223372036854775808",
    "99999999999999999999999",
    "\u{feff}",
    "é",
    "\t",
    "\"",
    "'",
    ";",
    "@",
    "$",
    "\\",
    "\0",
];

#[derive(Debug, Clone)]
pub enum Mutation {
    DeleteToken(usize),
    DuplicateToken(usize),
    SwapTokens(usize, usize),
    /// Replace a token by one of the vocabulary.
    ReplaceToken(usize, usize),
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    InsertBytes(usize, Vec<u8>),
    /// Replace a number by a huge one (or the 64-bit edges).
    HugeNumber(usize, u8),
    /// Wrap a token in `depth` layers of one of several nestings.
    Nest(usize, u8, u16),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        3 => at.prop_map(Mutation::DeleteToken),
        2 => at.prop_map(Mutation::DuplicateToken),
        2 => (at, any::<usize>()).prop_map(|(a, b)| Mutation::SwapTokens(a, b)),
        3 => (at, 0..VOCABULARY.len()).prop_map(|(a, v)| Mutation::ReplaceToken(a, v)),
        2 => at.prop_map(Mutation::DeleteLine),
        2 => at.prop_map(Mutation::DuplicateLine),
        1 => (at, any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        2 => (at, vec(any::<u8>(), 1..8)).prop_map(|(a, b)| Mutation::InsertBytes(a, b)),
        2 => (at, any::<u8>()).prop_map(|(a, k)| Mutation::HugeNumber(a, k)),
        1 => (at, any::<u8>(), 1u16..3000).prop_map(|(a, k, d)| Mutation::Nest(a, k, d)),
    ]
}

/// A story of `stories/` (by index, modulo their number) and what is done to it.
pub fn mutated() -> impl Strategy<Value = (usize, Vec<Mutation>)> {
    (any::<usize>(), vec(mutation(), 0..4))
}

/// Tokens of the vocabulary, each followed by a space or a newline.
pub fn token_soup() -> impl Strategy<Value = Vec<u8>> {
    vec((0..VOCABULARY.len(), any::<bool>()), 0..80).prop_map(|tokens| {
        let mut out = Vec::new();
        for (t, newline) in tokens {
            out.extend_from_slice(VOCABULARY[t].as_bytes());
            out.push(if newline { b'\n' } else { b' ' });
        }
        out
    })
}

pub fn bytes() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..400)
}

/// Byte ranges of the tokens of `text`: runs of letters, digits and `_`, or single
/// other non-blank bytes.
fn tokens(text: &[u8]) -> Vec<(usize, usize)> {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if word(text[i]) {
            while i < text.len() && word(text[i]) {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

/// Byte ranges of the lines of `text`, newline included.
fn lines(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, b) in text.iter().enumerate() {
        if *b == b'\n' {
            out.push((start, i + 1));
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push((start, text.len()));
    }
    out
}

fn splice(text: &[u8], (start, end): (usize, usize), with: &[u8]) -> Vec<u8> {
    let mut out = text[..start].to_vec();
    out.extend_from_slice(with);
    out.extend_from_slice(&text[end..]);
    out
}

/// Swaps two non-overlapping ranges.
fn swap(text: &[u8], a: (usize, usize), b: (usize, usize)) -> Vec<u8> {
    let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
    if a.1 > b.0 {
        return text.to_vec();
    }
    let mut out = text[..a.0].to_vec();
    out.extend_from_slice(&text[b.0..b.1]);
    out.extend_from_slice(&text[a.1..b.0]);
    out.extend_from_slice(&text[a.0..a.1]);
    out.extend_from_slice(&text[b.1..]);
    out
}

const HUGE: [&str; 6] = [
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "1000000000",
    "0",
];

/// `depth` layers around `inner`.
fn nest(kind: u8, depth: usize, inner: &[u8]) -> Vec<u8> {
    let inner = String::from_utf8_lossy(inner);
    let (open, close) = match kind % 7 {
        0 => ("(", ")"),
        1 => ("not ", ""),
        2 => ("-", ""),
        3 => ("if true then ", " else 0"),
        4 => ("knows(A, ", ")"),
        5 => ("{", "}"),
        _ => ("if true {\n", "\n}"),
    };
    format!("{}{inner}{}", open.repeat(depth), close.repeat(depth)).into_bytes()
}

pub fn apply(text: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut text = text.to_vec();
    for m in mutations {
        let toks = tokens(&text);
        let lns = lines(&text);
        let tok = |i: usize| toks.get(i % toks.len().max(1)).copied();
        let line = |i: usize| lns.get(i % lns.len().max(1)).copied();
        text = match m {
            Mutation::DeleteToken(i) => match tok(*i) {
                Some(t) => splice(&text, t, b""),
                None => text,
            },
            Mutation::DuplicateToken(i) => match tok(*i) {
                Some(t) => {
                    let copy = [&text[t.0..t.1], b" "].concat();
                    splice(&text, (t.0, t.0), &copy)
                }
                None => text,
            },
            Mutation::SwapTokens(a, b) => match (tok(*a), tok(*b)) {
                (Some(a), Some(b)) => swap(&text, a, b),
                _ => text,
            },
            Mutation::ReplaceToken(i, v) => match tok(*i) {
                Some(t) => splice(&text, t, VOCABULARY[*v].as_bytes()),
                None => text,
            },
            Mutation::DeleteLine(i) => match line(*i) {
                Some(l) => splice(&text, l, b""),
                None => text,
            },
            Mutation::DuplicateLine(i) => match line(*i) {
                Some(l) => {
                    let copy = text[l.0..l.1].to_vec();
                    splice(&text, (l.0, l.0), &copy)
                }
                None => text,
            },
            Mutation::SwapLines(a, b) => match (line(*a), line(*b)) {
                (Some(a), Some(b)) => swap(&text, a, b),
                _ => text,
            },
            Mutation::InsertBytes(i, bytes) => {
                let at = i % (text.len() + 1);
                splice(&text, (at, at), bytes)
            }
            Mutation::HugeNumber(i, k) => {
                let numbers: Vec<(usize, usize)> = toks
                    .iter()
                    .filter(|(s, _)| text[*s].is_ascii_digit())
                    .copied()
                    .collect();
                match numbers.get(i % numbers.len().max(1)) {
                    Some(t) => splice(&text, *t, HUGE[usize::from(*k) % HUGE.len()].as_bytes()),
                    None => text,
                }
            }
            Mutation::Nest(i, kind, depth) => match tok(*i) {
                Some(t) => {
                    let wrapped = nest(*kind, usize::from(*depth), &text[t.0..t.1]);
                    splice(&text, t, &wrapped)
                }
                None => text,
            },
        };
    }
    text
}

/// What the parser fuzzer feeds epipen.
#[derive(Debug, Clone)]
pub enum Input {
    Bytes(Vec<u8>),
    Soup(Vec<u8>),
    /// A story of `stories/` (by index) mutated.
    Mutated(usize, Vec<Mutation>),
}

impl Input {
    pub fn bytes(&self, seeds: &[(String, String)]) -> Vec<u8> {
        match self {
            Input::Bytes(b) | Input::Soup(b) => b.clone(),
            Input::Mutated(i, m) => apply(seeds[i % seeds.len()].1.as_bytes(), m),
        }
    }
}

pub fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        1 => bytes().prop_map(Input::Bytes),
        2 => token_soup().prop_map(Input::Soup),
        6 => mutated().prop_map(|(i, m)| Input::Mutated(i, m)),
    ]
}
