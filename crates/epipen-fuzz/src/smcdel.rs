//! Random files in SMCDEL's text format (issue 30): a few atoms, a boolean `LAW`, two or
//! three agents observing some atoms, and jobs over every construct of SMCDEL's
//! formulas, printed with its different spellings. `tests/smcdel.rs` runs each through
//! `epipen smcdel`'s route (answers on every backend) and through its story translation
//! (every backend and the evaluator).

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

/// An SMCDEL formula; atoms and agents are indices the printer resolves.
#[derive(Debug, Clone)]
pub enum F {
    Top,
    Bot,
    Atom(u8),
    Neg(Box<F>),
    /// `&`, `|`, `->`, `iff` (by index).
    Bin(u8, Box<F>, Box<F>),
    /// `AND`, `OR`, `XOR`, `ONEOF` (by index) of the list.
    List(u8, Vec<F>),
    /// `K a φ` / `a knows that φ` (`whether`: `Kw` / `knows whether`); `prefix`: the
    /// prefix form.
    K(u8, bool, bool, Box<F>),
    /// `a knows whether (φ, ψ)`.
    KwList(u8, Vec<F>),
    /// `comknow` (true) or `distknow`, `whether`, in parentheses, the group, the formula.
    Group(bool, bool, bool, Vec<u8>, Box<F>),
    /// An announcement: to everyone (None) or a group, of whether, a diamond.
    Ann(Option<Vec<u8>>, bool, bool, Box<F>, Box<F>),
    /// `Forall` (true) or `Exists` over atoms.
    Quant(bool, Vec<u8>, Box<F>),
}

#[derive(Debug, Clone)]
pub enum Job {
    /// `TRUE? {…}` with the atoms whose bits are set.
    True(u8, F),
    Valid(F),
    Where(F),
}

/// A file.
#[derive(Debug, Clone)]
pub struct File {
    /// Atoms `1..=vars`.
    pub vars: u8,
    pub law: F,
    /// Each agent's observed atoms (non-empty).
    pub obs: Vec<Vec<u8>>,
    pub jobs: Vec<Job>,
    /// Which spellings to use (Unicode, words, prefix forms).
    pub style: u8,
}

fn boolean() -> BoxedStrategy<F> {
    let leaf = prop_oneof![
        1 => Just(F::Top),
        1 => Just(F::Bot),
        6 => (0u8..8).prop_map(F::Atom),
    ];
    leaf.prop_recursive(3, 12, 3, |inner| {
        prop_oneof![
            2 => inner.clone().prop_map(|f| F::Neg(Box::new(f))),
            3 => (0u8..4, inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| F::Bin(op, Box::new(a), Box::new(b))),
            2 => (0u8..4, vec(inner.clone(), 1..=3)).prop_map(|(k, fs)| F::List(k, fs)),
            1 => (any::<bool>(), vec(0u8..8, 1..=2), inner)
                .prop_map(|(all, ps, f)| F::Quant(all, ps, Box::new(f))),
        ]
    })
    .boxed()
}

fn formula() -> BoxedStrategy<F> {
    let leaf = prop_oneof![
        3 => boolean(),
        2 => (0u8..3, any::<bool>(), any::<bool>(), boolean())
            .prop_map(|(a, w, p, f)| F::K(a, w, p, Box::new(f))),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            2 => inner.clone().prop_map(|f| F::Neg(Box::new(f))),
            3 => (0u8..4, inner.clone(), inner.clone())
                .prop_map(|(op, a, b)| F::Bin(op, Box::new(a), Box::new(b))),
            1 => (0u8..4, vec(inner.clone(), 1..=3)).prop_map(|(k, fs)| F::List(k, fs)),
            3 => (0u8..3, any::<bool>(), any::<bool>(), inner.clone())
                .prop_map(|(a, w, p, f)| F::K(a, w, p, Box::new(f))),
            1 => (0u8..3, vec(inner.clone(), 1..=2)).prop_map(|(a, fs)| F::KwList(a, fs)),
            2 => (any::<bool>(), any::<bool>(), any::<bool>(), vec(0u8..3, 1..=3), inner.clone())
                .prop_map(|(c, w, p, g, f)| F::Group(c, w, p, g, Box::new(f))),
            3 => (option::weighted(0.4, vec(0u8..3, 1..=2)), any::<bool>(), any::<bool>(), inner.clone(), inner.clone())
                .prop_map(|(g, w, d, a, b)| F::Ann(g, w, d, Box::new(a), Box::new(b))),
            1 => (any::<bool>(), vec(0u8..8, 1..=2), inner)
                .prop_map(|(all, ps, f)| F::Quant(all, ps, Box::new(f))),
        ]
    })
    .boxed()
}

fn job() -> impl Strategy<Value = Job> {
    prop_oneof![
        (any::<u8>(), formula()).prop_map(|(s, f)| Job::True(s, f)),
        formula().prop_map(Job::Valid),
        formula().prop_map(Job::Where),
    ]
}

/// Random files.
pub fn file() -> impl Strategy<Value = File> {
    (
        1u8..=4,
        boolean(),
        vec(vec(0u8..8, 1..=2), 2..=3),
        vec(job(), 1..=4),
        any::<u8>(),
    )
        .prop_map(|(vars, law, obs, jobs, style)| File {
            vars,
            law,
            obs,
            jobs,
            style,
        })
}

const AGENTS: [&str; 3] = ["alice", "bob", "carol"];

struct Printer<'f> {
    file: &'f File,
}

impl Printer<'_> {
    fn atom(&self, i: u8) -> String {
        (1 + i % self.file.vars).to_string()
    }

    fn agent(&self, i: u8) -> &'static str {
        AGENTS[usize::from(i) % self.file.obs.len()]
    }

    fn unicode(&self) -> bool {
        self.file.style & 1 == 1
    }

    fn group(&self, g: &[u8]) -> String {
        let names: Vec<&str> = g.iter().map(|&a| self.agent(a)).collect();
        names.join(", ")
    }

    /// `f`, parenthesised unless an atom.
    fn operand(&self, f: &F) -> String {
        let text = self.form(f);
        match f {
            F::Top | F::Bot | F::Atom(_) | F::List(..) => text,
            _ => format!("({text})"),
        }
    }

    fn form(&self, f: &F) -> String {
        match f {
            F::Top => "Top".into(),
            F::Bot => "Bot".into(),
            F::Atom(i) => self.atom(*i),
            F::Neg(a) => {
                let neg = match (self.file.style >> 1) % 4 {
                    0 => "~",
                    1 if self.unicode() => "¬",
                    1 => "Not ",
                    2 => "not ",
                    _ => "~ ",
                };
                format!("{neg}{}", self.operand(a))
            }
            F::Bin(op, a, b) => {
                let op = match (op % 4, self.unicode()) {
                    (0, false) => "&",
                    (0, true) => "∧",
                    (1, false) => "|",
                    (1, true) => "∨",
                    (2, false) => "->",
                    (2, true) => "→",
                    _ => "iff",
                };
                format!("{} {op} {}", self.operand(a), self.operand(b))
            }
            F::List(k, fs) => {
                let word = ["AND", "OR", "XOR", "ONEOF"][usize::from(k % 4)];
                let items: Vec<String> = fs.iter().map(|f| self.form(f)).collect();
                format!("{word}({})", items.join(", "))
            }
            F::K(a, whether, prefix, f) => {
                let a = self.agent(*a);
                match (prefix, whether) {
                    (true, false) => format!("K {a} {}", self.operand(f)),
                    (true, true) => format!("Kw {a} {}", self.operand(f)),
                    (false, false) => format!("{a} knows that {}", self.operand(f)),
                    (false, true) => format!("{a} knows whether {}", self.operand(f)),
                }
            }
            F::KwList(a, fs) => {
                let items: Vec<String> = fs.iter().map(|f| self.form(f)).collect();
                format!("{} knows whether ({})", self.agent(*a), items.join(", "))
            }
            F::Group(common, whether, parens, g, f) => {
                let word = match (common, whether) {
                    (true, false) => "comknow that",
                    (true, true) => "comknow whether",
                    (false, false) => "distknow that",
                    (false, true) => "distknow whether",
                };
                let g = self.group(g);
                let g = if *parens { format!("({g})") } else { g };
                format!("{g} {word} {}", self.operand(f))
            }
            F::Ann(group, whether, diamond, a, b) => {
                let (open, close) = if *diamond { ("<", ">") } else { ("[", "]") };
                let group = match group {
                    Some(g) => format!("{} ", self.group(g)),
                    None => String::new(),
                };
                let bang = if *whether { "?!" } else { "!" };
                format!(
                    "{open}{group}{bang} {}{close} {}",
                    self.form(a),
                    self.operand(b)
                )
            }
            F::Quant(all, ps, f) => {
                let word = match (all, self.file.style & 8 == 8) {
                    (true, false) => "Forall",
                    (true, true) => "ForAll",
                    (false, _) => "Exists",
                };
                let ps: Vec<String> = ps.iter().map(|p| self.atom(*p)).collect();
                format!("{word} {} {}", ps.join(","), self.operand(f))
            }
        }
    }
}

/// The file as SMCDEL text.
pub fn print(file: &File) -> String {
    let p = Printer { file };
    let mut out = String::from("-- a random file\n");
    let vars: Vec<String> = (1..=file.vars).map(|n| n.to_string()).collect();
    out += &format!("VARS {}\n", vars.join(","));
    out += &format!("LAW {}\n", p.form(&file.law));
    out += "OBS";
    for (k, atoms) in file.obs.iter().enumerate() {
        let atoms: Vec<String> = atoms.iter().map(|a| p.atom(*a)).collect();
        out += &format!(" {}: {}\n   ", AGENTS[k], atoms.join(", "));
    }
    out += "\n";
    for job in &file.jobs {
        match job {
            Job::True(bits, f) => {
                let state: Vec<String> = (0..file.vars)
                    .filter(|i| bits >> i & 1 == 1)
                    .map(|i| (i + 1).to_string())
                    .collect();
                out += &format!("TRUE? {{{}}} {}\n", state.join(","), p.form(f));
            }
            Job::Valid(f) => out += &format!("VALID? {}\n", p.form(f)),
            Job::Where(f) => out += &format!("WHERE?\n  {} -- where?\n", p.form(f)),
        }
    }
    out
}
