//! Prints a [`Story`] as story text, resolving every reference against what is declared
//! and in scope, and steering with the brute-force evaluator where a story would
//! otherwise be wrong more often than right:
//!
//! * the actual world is one of the worlds the evaluator leaves where `actual` stands
//!   (written out, every constant's value);
//! * after it, an announcement false in the actual world is printed negated (or left
//!   out when its negation is false too); before it, in most stories, an announcement
//!   that would leave no world is printed negated (or left out);
//! * an `assert_adds_ck` hint that should be right (`Hint::Exact`) lists the worlds the
//!   evaluator keeps after the block, and a wrong one (`Hint::Flip`) differs from that
//!   on one world.
//!
//! The evaluator is the reference the engines are compared against, so steering with it
//! cannot hide a disagreement: the printed story is what every backend runs.

use std::collections::BTreeSet;

use epipen::ir::{Program, Ty};
use epipen::worlds::{Value, World};
use epipen_bruteforce::{self as bruteforce, Domain, Trace};

use crate::story::*;

/// A story as text, with the `--set`s and `--seed` it runs with and the box of values
/// its first announcements allow (for the evaluator).
#[derive(Debug, Clone)]
pub struct Printed {
    pub text: String,
    pub sets: Vec<(String, i64)>,
    pub seed: u64,
    /// Each int constant's (or int family's) values, by name.
    pub bounds: Vec<(String, (i64, i64))>,
    /// `--set n` makes a family of fewer than 0 members: the story cannot compile.
    pub negative_size: bool,
    /// Where the `:=`s printed in a `simultaneously` block or in a hint's block start
    /// (byte offsets): the story must fail to compile with errors there, and only there.
    pub refused: Vec<usize>,
    /// Constructs the printer wrote that the text does not show by a plain search (a
    /// group listed, a check's kind, where a change stands), for the tally.
    pub constructs: BTreeSet<&'static str>,
}

impl Printed {
    pub fn compile(&self) -> Result<Program, epipen::CompileError> {
        epipen::compile_seeded(&self.text, &self.sets, self.seed)
    }

    /// The evaluator's box: every int constant's bounds (family members by the
    /// family's name), bools and enums their whole type.
    pub fn domain(&self, program: &Program) -> Domain {
        let ranges = program
            .constants
            .iter()
            .map(|c| {
                if c.ty != Ty::Int {
                    return None;
                }
                let base = c.name.split('[').next().unwrap_or(&c.name);
                let (_, range) = self
                    .bounds
                    .iter()
                    .find(|(name, _)| name == base)
                    .unwrap_or_else(|| panic!("no bounds for {}", c.name));
                Some(*range)
            })
            .collect();
        Domain { ranges }
    }

    /// What the evaluator does with the story (None: it does not compile).
    pub fn trace(&self, text: &str) -> Option<Trace> {
        let program = epipen::compile_seeded(text, &self.sets, self.seed).ok()?;
        Some(bruteforce::trace(&program, &self.domain(&program)))
    }

    /// The command line that runs the story saved as `story.story`.
    pub fn command(&self) -> String {
        let mut c = "epipen worlds story.story".to_string();
        for (name, v) in &self.sets {
            c += &format!(" --set {name}={v}");
        }
        if self.seed != 0 {
            c += &format!(" --seed {}", self.seed);
        }
        c
    }
}

/// Prints `story`; when a change then leaves the 64-bit integers in some world (a story
/// the engines and the evaluator report in different places: docs/testing.md), prints it
/// again with every int change clamped to ±10^12.
pub fn print(story: &Story) -> Printed {
    let printed = print_with(story, false);
    let overflows = || {
        printed.trace(&printed.text).is_some_and(|t| {
            t.end
                .is_err_and(|e| e.message.starts_with("a changed value leaves 64 bits"))
        })
    };
    if printed.constructs.contains(":= of an int") && overflows() {
        let mut clamped = print_with(story, true);
        clamped.constructs.insert(":= clamped");
        return clamped;
    }
    printed
}

fn print_with(story: &Story, clamp: bool) -> Printed {
    let d = &story.decls;
    let n = story.set_n.unwrap_or(d.n);
    let k = story.set_k.unwrap_or(d.k);
    let mut sets = Vec::new();
    if let Some(v) = story.set_n {
        sets.push(("n".to_string(), v));
    }
    if let Some(v) = story.set_k {
        sets.push(("k".to_string(), v));
    }
    let mut bounds: Vec<(String, (i64, i64))> = d
        .ints
        .iter()
        .enumerate()
        .map(|(i, b)| (format!("x{i}"), (b.lo, b.hi())))
        .collect();
    if let Some(b) = d.fam_int {
        bounds.push(("a".to_string(), (b.lo, b.hi())));
    }
    let families = d.fam_bool || d.fam_int.is_some() || d.fam_enum || d.char_family;
    let mut p = Printer {
        printed: Printed {
            text: String::new(),
            sets,
            seed: story.seed,
            bounds,
            negative_size: n < 0 && families,
            refused: Vec::new(),
            constructs: BTreeSet::new(),
        },
        d,
        n,
        k,
        closers: Vec::new(),
        scope: Vec::new(),
        checkpoints: Vec::new(),
        actual: false,
        steer: story.steer,
        consts: Vec::new(),
        refuse: story.refuse,
        clamp,
        loops: 0,
        actual_again: false,
        no_actual: story.actual.is_none()
            && !declares_actual(&story.pre)
            && !declares_actual(&story.post),
    };
    p.declarations();
    p.block(&story.pre, Where::top());
    if let Some(pick) = story.actual
        && !p.actual
    {
        p.actual(pick);
    }
    p.block(&story.post, Where::top());
    p.printed
}

/// Whether `stmts` (or a block inside them) declare the actual world.
fn declares_actual(stmts: &[Stmt]) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Actual(_) => true,
        Stmt::For(_, b) | Stmt::Simultaneously(b) | Stmt::Repeat(_, b, _) | Stmt::Assert(_, b) => {
            declares_actual(b)
        }
        Stmt::If(_, t, e) => declares_actual(t) || e.as_deref().is_some_and(declares_actual),
        _ => false,
    })
}

/// A loop or aggregate variable: its name and the values it can take (`lo > hi`: none,
/// the code under it never runs).
#[derive(Clone)]
struct Var {
    name: String,
    lo: i64,
    hi: i64,
}

/// Where a statement is printed.
#[derive(Clone, Copy)]
struct Where {
    /// Inside `simultaneously`: announcements only.
    sim: bool,
    /// Under a `for` or an `if` (no checkpoints: one would be defined again, or in code
    /// that does not run).
    unrolled: bool,
    /// At the top level (`assert_adds_ck` only there).
    top: bool,
    /// In a hint's block (no `:=`).
    hint: bool,
}

impl Where {
    fn top() -> Where {
        Where {
            sim: false,
            unrolled: false,
            top: true,
            hint: false,
        }
    }

    fn nested(self) -> Where {
        Where { top: false, ..self }
    }
}

/// Who the agent of `knows(φ)` is when none is written.
#[derive(Clone)]
enum Speaker {
    /// A public announcement: agents are named (the first character when none is).
    None,
    /// `A: …` or `A reveals …`: left implicit.
    Implicit,
    /// Written out, as the hint that repeats `A: φ` does.
    Named(String),
}

#[derive(Clone)]
struct Cx {
    knowledge: bool,
    speaker: Speaker,
}

impl Cx {
    fn plain() -> Cx {
        Cx {
            knowledge: false,
            speaker: Speaker::None,
        }
    }

    fn public() -> Cx {
        Cx {
            knowledge: true,
            speaker: Speaker::None,
        }
    }

    fn speaker() -> Cx {
        Cx {
            knowledge: true,
            speaker: Speaker::Implicit,
        }
    }
}

/// Printed text, and whether it is an atom (a name, a literal, a call) that needs no
/// parentheses as an operand.
struct P(String, bool);

fn operand(p: P) -> String {
    if p.1 { p.0 } else { format!("({})", p.0) }
}

fn atom(s: String) -> P {
    P(s, true)
}

fn compound(s: String) -> P {
    P(s, false)
}

/// An integer literal (`i64::MIN` has none: it is written `-9223372036854775807 - 1`).
fn lit(v: i64) -> P {
    if v == i64::MIN {
        compound(format!("-{} - 1", i64::MAX))
    } else if v < 0 {
        compound(format!("-{}", v.unsigned_abs()))
    } else {
        atom(v.to_string())
    }
}

const COLOURS: [&str; 3] = ["red", "green", "blue"];

struct Printer<'a> {
    printed: Printed,
    d: &'a Decls,
    n: i64,
    k: i64,
    /// The closing text of each open block, innermost last.
    closers: Vec<String>,
    scope: Vec<Var>,
    /// The checkpoints defined so far (`c0`, `c1`, …).
    checkpoints: Vec<String>,
    /// An `actual` came before.
    actual: bool,
    /// Before the actual world, keep announcements from leaving no world.
    steer: bool,
    /// The program's constants (names and types), once declared.
    consts: Vec<(String, Ty)>,
    /// Print the `:=`s of `simultaneously` blocks and hints' blocks (refused).
    refuse: bool,
    /// Clamp every int change to ±10^12 (so that none leaves 64 bits).
    clamp: bool,
    /// How many `for` and `repeat` blocks enclose the statement being printed.
    loops: u32,
    /// Inside a `repeat` whose `actual` is declared again each round.
    actual_again: bool,
    /// The story declares no actual world.
    no_actual: bool,
}

impl Printer<'_> {
    fn out(&mut self) -> &mut String {
        &mut self.printed.text
    }

    fn line(&mut self, s: &str) {
        let indent = "  ".repeat(self.closers.len());
        let out = self.out();
        out.push_str(&indent);
        out.push_str(s);
        out.push('\n');
    }

    fn declarations(&mut self) {
        let d = self.d;
        self.line(&format!("const n = {}", d.n));
        self.line(&format!("const k = {}", lit(d.k).0));
        let mut chars: Vec<String> = ["A", "B", "C"][..usize::from(d.chars.clamp(1, 3))]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if d.char_family {
            chars.push("P[n]".into());
        }
        self.line(&format!("characters {}", chars.join(", ")));
        if d.colours > 0 {
            let variants = &COLOURS[..usize::from(d.colours.min(3))];
            self.line(&format!("enum Colour {{ {} }}", variants.join(", ")));
        }
        let names = |prefix: &str, count: usize| -> Vec<String> {
            (0..count).map(|i| format!("{prefix}{i}")).collect()
        };
        if !d.ints.is_empty() {
            self.line(&format!("int {}", names("x", d.ints.len()).join(", ")));
        }
        if d.bools > 0 {
            self.line(&format!(
                "bool {}",
                names("p", usize::from(d.bools)).join(", ")
            ));
        }
        if d.enum_consts > 0 {
            let list = names("c", usize::from(d.enum_consts)).join(", ");
            self.line(&format!("Colour {list}"));
        }
        if d.fam_bool {
            self.line("bool b[n]");
        }
        if d.fam_int.is_some() {
            self.line("int a[n]");
        }
        if d.fam_enum {
            self.line("Colour h[n]");
        }
        if let Ok(program) = epipen::compile_seeded(&self.printed.text, &self.printed.sets, 0) {
            self.consts = program
                .constants
                .iter()
                .map(|c| (c.name.clone(), c.ty))
                .collect();
        }
        self.bounds();
    }

    /// The first announcements: every int between its bounds, written in one of
    /// several ways.
    fn bounds(&mut self) {
        let d = self.d;
        let style = d.bound_style;
        let bound = |name: &str, b: IntBound| -> String {
            let (lo, hi) = (b.lo, b.hi());
            if style & 1 == 1 {
                let items: Vec<String> = (lo..=hi).map(|v| lit(v).0).collect();
                format!("{name} in {{{}}}", items.join(", "))
            } else if style & 8 == 8 {
                format!(
                    "{} <= {name} and {name} <= {}",
                    operand(lit(lo)),
                    operand(lit(hi))
                )
            } else {
                format!(
                    "{name} >= {} and {name} <= {}",
                    operand(lit(lo)),
                    operand(lit(hi))
                )
            }
        };
        let mut parts: Vec<String> = d
            .ints
            .iter()
            .enumerate()
            .map(|(i, b)| bound(&format!("x{i}"), *b))
            .collect();
        if let Some(b) = d.fam_int {
            if style & 4 == 4 {
                parts.push(format!("all(i0 in 0..n: {})", bound("a[i0]", b)));
            } else {
                // A loop of announcements, after the others.
                if style & 2 == 2 && !parts.is_empty() {
                    self.line(&format!("announce {}", parts.join(" and ")));
                } else {
                    for part in &parts {
                        self.line(&format!("announce {part}"));
                    }
                }
                parts.clear();
                self.line("for i0 in 0..n {");
                self.line(&format!("  announce {}", bound("a[i0]", b)));
                self.line("}");
            }
        }
        if style & 2 == 2 && !parts.is_empty() {
            self.line(&format!("announce {}", parts.join(" and ")));
        } else {
            for part in &parts {
                self.line(&format!("announce {part}"));
            }
        }
        if let Some(extra) = &d.extra {
            let f = self.bool_e(extra, &Cx::plain()).0;
            self.line(&format!("announce {f}"));
        }
    }

    // -----------------------------------------------------------------------------
    // Names in scope.

    /// The members of family `name` that can be written here: indexed by a variable in
    /// scope whose values stay inside the family, or by a constant.
    fn members(&self, name: &str) -> Vec<String> {
        let n = self.n;
        let mut out = Vec::new();
        for v in &self.scope {
            if v.lo > v.hi {
                // The code never runs: any index is checked for its type only.
                out.push(format!("{name}[{}]", v.name));
                continue;
            }
            if v.lo >= 0 && v.hi < n {
                out.push(format!("{name}[{}]", v.name));
            }
            if v.lo >= 1 && v.hi <= n {
                out.push(format!("{name}[{} - 1]", v.name));
            }
            if v.lo >= -1 && v.hi + 1 < n {
                out.push(format!("{name}[{} + 1]", v.name));
            }
        }
        if n >= 1 {
            out.push(format!("{name}[0]"));
            out.push(format!("{name}[n - 1]"));
        }
        out
    }

    fn int_names(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..self.d.ints.len()).map(|i| format!("x{i}")).collect();
        if self.d.fam_int.is_some() {
            out.extend(self.members("a"));
        }
        out
    }

    fn bool_names(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..self.d.bools).map(|i| format!("p{i}")).collect();
        if self.d.fam_bool {
            out.extend(self.members("b"));
        }
        out
    }

    fn enum_names(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..self.d.enum_consts).map(|i| format!("c{i}")).collect();
        if self.d.fam_enum {
            out.extend(self.members("h"));
        }
        out
    }

    fn agents(&self) -> Vec<String> {
        let mut out: Vec<String> = ["A", "B", "C"][..usize::from(self.d.chars.clamp(1, 3))]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if self.d.char_family {
            out.extend(self.members("P"));
        }
        out
    }

    /// A group operator's group as written before its formula (`A, P[0], `): `first`
    /// (when given) and the members picked from the characters, the family members in
    /// scope and the family `P` named whole; nothing for every character.
    fn group(&mut self, first: Option<String>, list: Option<&[u8]>) -> String {
        let Some(list) = list else {
            self.printed.constructs.insert("group of every character");
            return String::new();
        };
        let mut names = self.agents();
        if self.d.char_family {
            names.push("P".into());
        }
        let mut members: Vec<String> = first.into_iter().collect();
        for i in list {
            let m = names[usize::from(*i) % names.len()].clone();
            if !members.contains(&m) {
                members.push(m);
            }
        }
        if self.n <= 0 && members.iter().all(|m| m == "P") {
            // A family of no members named alone is no group (a story error).
            members.insert(0, "A".into());
        }
        self.printed.constructs.insert("group listed");
        if members.iter().any(|m| m == "P") {
            self.printed
                .constructs
                .insert("group: a family named whole");
        }
        if members.iter().any(|m| m.starts_with("P[")) {
            self.printed.constructs.insert("group: family members");
        }
        members.iter().map(|m| format!("{m}, ")).collect()
    }

    fn agent(&self, i: u8) -> String {
        let agents = self.agents();
        agents[usize::from(i) % agents.len()].clone()
    }

    fn pick(names: &[String], i: u8) -> Option<String> {
        (!names.is_empty()).then(|| names[usize::from(i) % names.len()].clone())
    }

    // -----------------------------------------------------------------------------
    // Ranges and compile-time values.

    /// A bound as written and the values it can take.
    fn rbound(&self, b: RBound) -> (String, i64, i64) {
        match b {
            RBound::Lit(v) => (lit(i64::from(v)).0, i64::from(v), i64::from(v)),
            RBound::N => ("n".into(), self.n, self.n),
            RBound::NMinus1 => ("n - 1".into(), self.n - 1, self.n - 1),
            // A large k would unroll a loop billions of times: 2 instead.
            RBound::K if self.k.unsigned_abs() <= 4 => ("k".into(), self.k, self.k),
            RBound::K => ("2".into(), 2, 2),
            RBound::Var(off) => match self.scope.last() {
                Some(v) if off == 0 => (v.name.clone(), v.lo, v.hi),
                Some(v) => (
                    format!("{} + {off}", v.name),
                    v.lo + i64::from(off),
                    v.hi + i64::from(off),
                ),
                None => ("0".into(), 0, 0),
            },
        }
    }

    /// `name in lo..hi`, and the variable it binds.
    fn range(&self, r: &Range, name: &str) -> (String, Var) {
        let (lo, lo_min, _) = self.rbound(r.lo);
        let (hi, _, hi_max) = self.rbound(r.hi);
        let dead = self.scope.last().is_some_and(|v| v.lo > v.hi);
        let var = Var {
            name: name.to_string(),
            lo: lo_min,
            hi: if dead { lo_min - 1 } else { hi_max - 1 },
        };
        (format!("{name} in {lo}..{hi}"), var)
    }

    fn next_var(&self) -> String {
        format!("i{}", self.scope.len() + 1)
    }

    fn ct_cond(&self, c: &CtCond) -> String {
        let (l, ..) = self.rbound(c.lhs);
        let (r, ..) = self.rbound(c.rhs);
        format!("{l} {} {r}", cmp(c.op))
    }

    // -----------------------------------------------------------------------------
    // Expressions.

    fn int_e(&mut self, e: &IntE, cx: &Cx) -> P {
        match e {
            IntE::Lit(v) => lit(*v),
            IntE::Var(i) => match Self::pick(&self.int_names(), *i) {
                Some(name) => atom(name),
                None => lit(i64::from(*i)),
            },
            IntE::N => atom("n".into()),
            IntE::K => atom("k".into()),
            IntE::LoopVar(i) => {
                let names: Vec<String> = self.scope.iter().rev().map(|v| v.name.clone()).collect();
                match Self::pick(&names, *i) {
                    Some(name) => atom(name),
                    None => lit(i64::from(*i)),
                }
            }
            IntE::Neg(a) => compound(format!("-{}", operand(self.int_e(a, cx)))),
            IntE::Bin(op, a, b) => {
                let a = operand(self.int_e(a, cx));
                let b = operand(self.int_e(b, cx));
                compound(format!("{a} {} {b}", arith(*op)))
            }
            IntE::Ite(c, a, b) => {
                let c = self.bool_e(c, cx).0;
                let a = self.int_e(a, cx).0;
                let b = operand(self.int_e(b, cx));
                compound(format!("if {c} then {a} else {b}"))
            }
            IntE::Abs(a) => atom(format!("abs({})", self.int_e(a, cx).0)),
            IntE::MinMax(max, items) => {
                let items: Vec<String> = items.iter().map(|x| self.int_e(x, cx).0).collect();
                let f = if *max { "max" } else { "min" };
                atom(format!("{f}({})", items.join(", ")))
            }
            IntE::Sum(r, body) => {
                let (binder, body) = self.binding(r, |p| p.int_e(body, cx).0);
                atom(format!("sum({binder}: {body})"))
            }
            IntE::Count(r, body) => {
                let (binder, body) = self.binding(r, |p| p.bool_e(body, cx).0);
                atom(format!("count({binder}: {body})"))
            }
        }
    }

    /// Prints `body` with the variable of `r` in scope; returns `i in lo..hi` and it.
    fn binding(&mut self, r: &Range, body: impl FnOnce(&mut Self) -> String) -> (String, String) {
        let (binder, var) = self.range(r, &self.next_var());
        self.scope.push(var);
        let body = body(self);
        self.scope.pop();
        (binder, body)
    }

    fn enum_e(&mut self, e: &EnumE, cx: &Cx) -> Option<P> {
        let colours = usize::from(self.d.colours.min(3));
        if colours == 0 {
            return None;
        }
        Some(match e {
            EnumE::Lit(i) => atom(COLOURS[usize::from(*i) % colours].into()),
            EnumE::Var(i) => match Self::pick(&self.enum_names(), *i) {
                Some(name) => atom(name),
                None => atom(COLOURS[usize::from(*i) % colours].into()),
            },
            EnumE::Ite(c, a, b) => {
                let c = self.bool_e(c, cx).0;
                let a = self.enum_e(a, cx)?.0;
                let b = operand(self.enum_e(b, cx)?);
                compound(format!("if {c} then {a} else {b}"))
            }
        })
    }

    fn term(&mut self, t: &Term, cx: &Cx) -> String {
        match t {
            Term::Int(e) => self.int_e(e, cx).0,
            Term::Bool(e) => self.bool_e(e, cx).0,
            Term::Enum(e) => match self.enum_e(e, cx) {
                Some(p) => p.0,
                None => "0".into(),
            },
        }
    }

    fn bool_e(&mut self, e: &BoolE, cx: &Cx) -> P {
        match e {
            BoolE::Lit(b) => atom(b.to_string()),
            BoolE::Var(i) => match Self::pick(&self.bool_names(), *i) {
                Some(name) => atom(name),
                None => atom((i % 2 == 0).to_string()),
            },
            BoolE::Not(a) => compound(format!("not {}", operand(self.bool_e(a, cx)))),
            BoolE::Logic(op, a, b) => {
                let a = operand(self.bool_e(a, cx));
                let b = operand(self.bool_e(b, cx));
                let op = match op {
                    LOp::And => "and",
                    LOp::Or => "or",
                    LOp::Implies => "->",
                    LOp::Iff => "<->",
                };
                compound(format!("{a} {op} {b}"))
            }
            BoolE::Cmp(op, a, b) => {
                let a = operand(self.int_e(a, cx));
                let b = operand(self.int_e(b, cx));
                compound(format!("{a} {} {b}", cmp(*op)))
            }
            BoolE::BoolEq(eq, a, b) => {
                let a = operand(self.bool_e(a, cx));
                let b = operand(self.bool_e(b, cx));
                compound(format!("{a} {} {b}", if *eq { "==" } else { "!=" }))
            }
            BoolE::EnumEq(eq, a, b) => match (self.enum_e(a, cx), self.enum_e(b, cx)) {
                (Some(a), Some(b)) => compound(format!(
                    "{} {} {}",
                    operand(a),
                    if *eq { "==" } else { "!=" },
                    operand(b)
                )),
                _ => atom(eq.to_string()),
            },
            BoolE::In(e, set) => {
                let e = operand(self.int_e(e, cx));
                let items: Vec<String> = set.iter().map(|v| lit(*v).0).collect();
                compound(format!("{e} in {{{}}}", items.join(", ")))
            }
            BoolE::InEnum(e, set) => match self.enum_e(e, cx) {
                Some(e) => {
                    let colours = usize::from(self.d.colours.min(3));
                    let items: Vec<&str> = set
                        .iter()
                        .map(|i| COLOURS[usize::from(*i) % colours])
                        .collect();
                    compound(format!("{} in {{{}}}", operand(e), items.join(", ")))
                }
                None => atom("false".into()),
            },
            BoolE::Sample(e, k, set) => {
                let e = operand(self.int_e(e, cx));
                let items: Vec<String> = set.iter().map(|v| lit(*v).0).collect();
                let k = usize::from(*k).min(items.len());
                compound(format!("{e} in sample({k}, {{{}}})", items.join(", ")))
            }
            BoolE::Ite(c, a, b) => {
                let c = self.bool_e(c, cx).0;
                let a = self.bool_e(a, cx).0;
                let b = operand(self.bool_e(b, cx));
                compound(format!("if {c} then {a} else {b}"))
            }
            BoolE::Quant(all, ranges, guard, body) => {
                let mut binders = Vec::new();
                for r in ranges.iter().take(2) {
                    let (binder, var) = self.range(r, &self.next_var());
                    binders.push(binder);
                    self.scope.push(var);
                }
                let vars: Vec<String> = self.scope[self.scope.len() - binders.len()..]
                    .iter()
                    .map(|v| v.name.clone())
                    .collect();
                let guard = if *guard && vars.len() == 2 {
                    format!(" if {} != {}", vars[0], vars[1])
                } else {
                    String::new()
                };
                let body = self.bool_e(body, cx).0;
                for _ in &binders {
                    self.scope.pop();
                }
                let f = if *all { "all" } else { "any" };
                atom(format!("{f}({}{guard}: {body})", binders.join(", ")))
            }
            BoolE::Distinct(items) => {
                let items: Vec<String> = items.iter().map(|x| self.int_e(x, cx).0).collect();
                atom(format!("distinct({})", items.join(", ")))
            }
            BoolE::DistinctOver(r, e) => {
                let (binder, body) = self.binding(r, |p| p.int_e(e, cx).0);
                atom(format!("distinct({binder}: {body})"))
            }
            BoolE::Knows(agent, f) => {
                if !cx.knowledge {
                    return self.bool_e(f, cx);
                }
                let who = self.knower(*agent, cx);
                let f = self.bool_e(f, cx).0;
                atom(format!("knows({who}{f})"))
            }
            BoolE::KnowsValue(agent, terms) => {
                if !cx.knowledge {
                    return atom("true".into());
                }
                let who = self.knower(*agent, cx);
                let plain = Cx::plain();
                let terms: Vec<String> = terms.iter().map(|t| self.term(t, &plain)).collect();
                atom(format!("knows_value({who}{})", terms.join(", ")))
            }
            BoolE::At(c, f) => {
                if !cx.knowledge || self.checkpoints.is_empty() {
                    return self.bool_e(f, cx);
                }
                let c = self.checkpoints[usize::from(*c) % self.checkpoints.len()].clone();
                atom(format!("at({c}, {})", self.bool_e(f, cx).0))
            }
            BoolE::Group(op, group, f) => {
                if !cx.knowledge {
                    return self.bool_e(f, cx);
                }
                let group = self.group(None, group.as_deref());
                let f = self.bool_e(f, cx).0;
                atom(format!("{}({group}{f})", op.name()))
            }
        }
    }

    /// The agent of a knowledge operator as written before its first argument:
    /// `A, ` or nothing (the speaker's).
    fn knower(&self, agent: Option<u8>, cx: &Cx) -> String {
        match (agent, &cx.speaker) {
            (None, Speaker::Implicit) => String::new(),
            (None, Speaker::Named(name)) => format!("{name}, "),
            (None, Speaker::None) => format!("{}, ", self.agent(0)),
            (Some(i), _) => format!("{}, ", self.agent(i)),
        }
    }

    // -----------------------------------------------------------------------------
    // Statements.

    fn block(&mut self, stmts: &[Stmt], at: Where) {
        for s in stmts {
            self.stmt(s, at);
        }
    }

    fn stmt(&mut self, s: &Stmt, at: Where) {
        match s {
            Stmt::Worlds(limit) if !at.sim => match limit {
                0 => self.line("worlds"),
                l => self.line(&format!("worlds {l}")),
            },
            Stmt::Checkpoint if !at.sim && !at.unrolled => {
                let name = format!("c{}", self.checkpoints.len());
                self.line(&format!("checkpoint {name}"));
                self.checkpoints.push(name);
            }
            Stmt::Announce(f) => {
                let f = self.bool_e(f, &Cx::public()).0;
                self.truthful(&format!("announce {f}"), &format!("announce not ({f})"));
            }
            Stmt::Says(who, f) => {
                let who = self.agent(*who);
                let f = self.bool_e(f, &Cx::speaker()).0;
                self.truthful(&format!("{who}: {f}"), &format!("{who}: not ({f})"));
            }
            Stmt::Learns(who, t) if !at.sim => {
                let who = self.agent(*who);
                let t = self.term(t, &Cx::plain());
                self.line(&format!("{who} learns {t}"));
            }
            Stmt::Reveals(who, f) => {
                let who = self.agent(*who);
                let f = self.bool_e(f, &Cx::speaker()).0;
                self.line(&format!("{who} reveals {f}"));
            }
            Stmt::For(r, body) => {
                let (binder, var) = self.range(r, &self.next_var());
                self.open(&format!("for {binder} {{"), "}");
                self.scope.push(var);
                let inner = Where {
                    unrolled: true,
                    ..at.nested()
                };
                self.loops += 1;
                self.block(body, inner);
                self.loops -= 1;
                self.scope.pop();
                self.close();
            }
            Stmt::If(c, then, otherwise) => {
                let c = self.ct_cond(c);
                let inner = Where {
                    unrolled: true,
                    ..at.nested()
                };
                self.open(&format!("if {c} {{"), "}");
                self.block(then, inner);
                if let Some(otherwise) = otherwise {
                    self.closers.pop();
                    self.line("} else {");
                    self.closers.push("}".into());
                    self.block(otherwise, inner);
                }
                self.close();
            }
            Stmt::Simultaneously(items) if !at.sim => {
                self.open("simultaneously {", "}");
                let inner = Where {
                    sim: true,
                    ..at.nested()
                };
                self.block(items, inner);
                self.close();
            }
            Stmt::Repeat(max, body, until) if !at.sim => {
                // The `until` is printed once the body's checkpoints are defined.
                self.open(&format!("repeat max {max} {{"), "} until true");
                self.loops += 1;
                let again = self.actual_again;
                self.block(body, at.nested());
                self.actual_again = again;
                self.loops -= 1;
                let until = self.bool_e(until, &Cx::public()).0;
                self.closers.pop();
                self.line(&format!("}} until {until}"));
            }
            Stmt::Assert(hint, body) if at.top && !at.sim => self.assert(hint, body),
            Stmt::Actual(pick) if !at.sim && !at.unrolled && !self.actual => {
                self.actual(*pick);
                self.actual_again = self.loops > 0;
            }
            Stmt::Check(c) if !at.sim => self.check(c),
            Stmt::Assign(target, value) if !at.sim && !at.hint => {
                self.assign(*target, value, None);
            }
            // Refused: in `simultaneously`, even in code that does not run; in a hint's
            // block where it runs (not under a `for` or an `if`, to be sure).
            Stmt::Assign(target, value) if self.refuse && (at.sim || !at.unrolled) => {
                let why = if at.sim {
                    ":= refused in simultaneously"
                } else {
                    ":= refused in a hint's block"
                };
                self.assign(*target, value, Some(why));
            }
            // Not allowed here: its statements, or nothing.
            Stmt::Assert(_, body) => self.block(body, at),
            Stmt::Repeat(_, body, _) | Stmt::Simultaneously(body) => self.block(body, at),
            Stmt::Worlds(_)
            | Stmt::Checkpoint
            | Stmt::Learns(..)
            | Stmt::Actual(_)
            | Stmt::Check(_)
            | Stmt::Assign(..) => {}
        }
    }

    fn open(&mut self, header: &str, closer: &str) {
        self.line(header);
        self.closers.push(closer.to_string());
    }

    fn close(&mut self) {
        let closer = self.closers.pop().expect("an open block");
        self.line(&closer);
    }

    /// The text so far with `candidate` as the next line and every open block closed;
    /// and where the candidate's line starts and ends.
    fn with_line(&self, candidate: &str) -> (String, usize, usize) {
        let mut text = self.printed.text.clone();
        let start = text.len();
        text += &"  ".repeat(self.closers.len());
        text += candidate;
        let end = text.len();
        text.push('\n');
        for (depth, closer) in self.closers.iter().enumerate().rev() {
            text += &"  ".repeat(depth);
            text += closer;
            text.push('\n');
        }
        (text, start, end)
    }

    /// Whether the evaluator stops with a story error at `candidate`, the next line.
    fn fails(&self, candidate: &str) -> bool {
        self.stops(candidate, bruteforce::ErrorKind::Story)
    }

    /// Whether the evaluator stops with an error of `kind` at `candidate`, the next line.
    fn stops(&self, candidate: &str, kind: bruteforce::ErrorKind) -> bool {
        let (text, start, end) = self.with_line(candidate);
        match self.printed.trace(&text) {
            Some(Trace { end: Err(e), .. }) => {
                e.kind == kind && (start..end).contains(&e.span.start)
            }
            _ => false,
        }
    }

    /// `x := e` with a constant of the value's type; `refused`: where it cannot stand
    /// (its place is recorded).
    fn assign(&mut self, target: u8, value: &Term, refused: Option<&'static str>) {
        let (names, kind) = match value {
            Term::Int(_) => (self.int_names(), ":= of an int"),
            Term::Bool(_) => (self.bool_names(), ":= of a bool"),
            Term::Enum(_) => (self.enum_names(), ":= of a colour"),
        };
        let Some(name) = Self::pick(&names, target) else {
            return;
        };
        // `actual` names the worlds by their values now, and an int's changed value may
        // no longer tell its start values apart: `actual x == 0` after `x := 0` allows
        // every x of the type, where the evaluator sees only those of its box. So ints
        // change once the actual world is declared for good.
        if refused.is_none()
            && matches!(value, Term::Int(_))
            && !self.no_actual
            && (!self.actual || self.actual_again)
        {
            return;
        }
        let mut v = self.term(value, &Cx::plain());
        if self.clamp && matches!(value, Term::Int(_)) {
            v = format!("min(max({v}, -1000000000000), 1000000000000)");
        }
        let constructs = &mut self.printed.constructs;
        match refused {
            Some(why) => {
                constructs.insert(why);
                let at = self.printed.text.len() + 2 * self.closers.len();
                self.printed.refused.push(at);
            }
            None => {
                constructs.insert(kind);
                if name.contains('[') {
                    constructs.insert(":= of a family member");
                }
                if self.loops > 0 {
                    constructs.insert(":= in a loop");
                }
                constructs.insert(if self.actual {
                    ":= after actual"
                } else {
                    ":= before actual"
                });
            }
        }
        self.line(&format!("{name} := {v}"));
    }

    /// `check φ`.
    fn check(&mut self, c: &Check) {
        let line = match c {
            Check::Plain(steer, f) => {
                let f = self.bool_e(f, &Cx::public()).0;
                let line = format!("check {f}");
                let negated = format!("check not ({f})");
                if *steer
                    && self.stops(&line, bruteforce::ErrorKind::CheckFailed)
                    && !self.stops(&negated, bruteforce::ErrorKind::CheckFailed)
                {
                    self.printed.constructs.insert("check negated");
                    negated
                } else {
                    line
                }
            }
            Check::Law(law, a, others, f) => {
                self.printed.constructs.insert("check of a law");
                format!("check {}", self.law(*law, *a, others, f))
            }
            Check::Kept => {
                let (here, ..) = self.with_line("");
                let kept = match self.worlds(&here) {
                    Some(w) => self.membership(&w),
                    None => "true".to_string(),
                };
                format!("check {kept}")
            }
        };
        self.line(&line);
    }

    /// A law of group knowledge in S5 about character `a`, a group with it, and φ: true
    /// in every world.
    fn law(&mut self, law: u8, a: u8, others: &[u8], f: &BoolE) -> String {
        let a = self.agent(a);
        let g = self.group(Some(a.clone()), Some(others));
        let f = self.bool_e(f, &Cx::public()).0;
        let (e, c, d) = (
            "everyone_knows",
            "common_knowledge",
            "distributed_knowledge",
        );
        match law % 12 {
            0 => format!("knows({a}, {f}) -> ({f})"),
            1 => format!("{e}({g}{f}) -> knows({a}, {f})"),
            2 => format!("{c}({g}{f}) -> {e}({g}{f})"),
            3 => format!("{c}({g}{f}) -> knows({a}, {c}({g}{f}))"),
            4 => format!("knows({a}, {f}) -> {d}({g}{f})"),
            5 => format!("{d}({g}{f}) -> ({f})"),
            6 => format!("not knows({a}, {f}) -> knows({a}, not knows({a}, {f}))"),
            7 => format!("{c}({a}, {f}) <-> knows({a}, {f})"),
            8 => format!("{d}({a}, {f}) <-> knows({a}, {f})"),
            9 => format!("{e}({a}, {f}) <-> knows({a}, {f})"),
            10 => format!("{c}({g}{f}) <-> {e}({g}({f}) and {c}({g}{f}))"),
            _ => format!("{e}({g}{f}) -> {d}({g}{f})"),
        }
    }

    /// Whether the evaluator leaves no world after `candidate`, the next line (with
    /// every open block closed).
    fn empties(&self, candidate: &str) -> bool {
        let (text, ..) = self.with_line(candidate);
        self.worlds(&text).is_some_and(|w| w.is_empty())
    }

    /// An announcement, which must be true in the actual world once there is one: as
    /// it is, negated, or (when neither is true, as for `A: φ` when A knows neither φ
    /// nor its negation) left out. Before the actual world, when steering, one that
    /// would leave no world is negated (left out when that leaves none either).
    fn truthful(&mut self, line: &str, negated: &str) {
        if !self.actual {
            if !self.steer || !self.empties(line) {
                self.line(line);
            } else if !self.empties(negated) {
                self.line(negated);
            }
        } else if !self.fails(line) {
            self.line(line);
        } else if !self.fails(negated) {
            self.line(negated);
        }
    }

    /// The worlds the evaluator leaves at the end of `text` (None: it stops early).
    fn worlds(&self, text: &str) -> Option<Vec<World>> {
        self.printed.trace(text)?.end.ok()
    }

    /// `actual` with every constant's value in one of the worlds possible here (the
    /// first world of the box when none is: a story error).
    fn actual(&mut self, pick: u32) {
        let (here, ..) = self.with_line("");
        let worlds = self.worlds(&here).unwrap_or_default();
        let world = if worlds.is_empty() {
            self.first_world()
        } else {
            worlds[pick as usize % worlds.len()].clone()
        };
        let parts: Vec<String> = self
            .consts
            .iter()
            .zip(&world.0)
            .map(|((name, ty), v)| match (ty, v) {
                (Ty::Bool, Value::Bool(true)) => name.clone(),
                (Ty::Bool, _) => format!("not {name}"),
                (_, v) => format!("{name} == {}", operand(self.value(*ty, *v))),
            })
            .collect();
        let what = if parts.is_empty() {
            "true".to_string()
        } else {
            parts.join(" and ")
        };
        self.line(&format!("actual {what}"));
        self.actual = true;
    }

    /// The first world of the evaluator's box.
    fn first_world(&self) -> World {
        let mut values = Vec::new();
        for (name, ty) in &self.consts {
            values.push(match ty {
                Ty::Bool => Value::Bool(false),
                Ty::Enum(_) => Value::Int(0),
                Ty::Int => {
                    let base = name.split('[').next().unwrap_or(name);
                    let lo = self
                        .printed
                        .bounds
                        .iter()
                        .find(|(n, _)| n == base)
                        .map_or(0, |(_, (lo, _))| *lo);
                    Value::Int(lo)
                }
            });
        }
        World(values)
    }

    /// A value of type `ty` as a literal.
    fn value(&self, ty: Ty, v: Value) -> P {
        match (ty, v) {
            (Ty::Enum(_), Value::Int(i)) => atom(COLOURS[i as usize % 3].into()),
            (_, Value::Int(i)) => lit(i),
            (_, Value::Bool(b)) => atom(b.to_string()),
        }
    }

    /// The formula that holds exactly in `worlds`: membership of the tuple of every
    /// constant in the set of their values.
    fn membership(&self, worlds: &[World]) -> String {
        match self.consts.len() {
            0 => (!worlds.is_empty()).to_string(),
            1 => {
                let (name, ty) = &self.consts[0];
                let items: Vec<String> = worlds.iter().map(|w| self.value(*ty, w.0[0]).0).collect();
                format!("{name} in {{{}}}", items.join(", "))
            }
            _ => {
                let names: Vec<&str> = self.consts.iter().map(|(n, _)| n.as_str()).collect();
                let items: Vec<String> = worlds
                    .iter()
                    .map(|w| {
                        let vals: Vec<String> = self
                            .consts
                            .iter()
                            .zip(&w.0)
                            .map(|((_, ty), v)| self.value(*ty, *v).0)
                            .collect();
                        format!("({})", vals.join(", "))
                    })
                    .collect();
                format!("({}) in {{{}}}", names.join(", "), items.join(", "))
            }
        }
    }

    /// `assert_adds_ck` with its block, the hint written once the block is known.
    fn assert(&mut self, hint: &Hint, body: &[Stmt]) {
        let before_text = self.printed.text.clone();
        let visible = self.checkpoints.len();
        let refused = self.printed.refused.len();
        self.open("assert_adds_ck true {", "}");
        let body_start = self.printed.text.len();
        let inner = Where {
            hint: true,
            ..Where::top().nested()
        };
        self.block(body, inner);
        self.closers.pop();
        let body_text = self.printed.text[body_start..].to_string();
        // The hint sees the checkpoints before the block, not the block's own.
        let all = self.checkpoints.clone();
        self.checkpoints.truncate(visible);
        // The block's statements run as they would at the top level.
        let after = || self.worlds(&format!("{before_text}{body_text}"));
        let hint = match hint {
            Hint::Exact => after().map_or("true".to_string(), |w| self.membership(&w)),
            Hint::First => self.first_said(body),
            Hint::Flip(i) => {
                let before = self.worlds(&before_text).unwrap_or_default();
                match (after(), before.is_empty()) {
                    (Some(mut kept), false) => {
                        let w = &before[*i as usize % before.len()];
                        match kept.iter().position(|k| k == w) {
                            Some(at) => {
                                kept.remove(at);
                            }
                            None => kept.push(w.clone()),
                        }
                        self.membership(&kept)
                    }
                    _ => "false".to_string(),
                }
            }
            Hint::Any(f) => self.bool_e(f, &Cx::public()).0,
        };
        self.checkpoints = all;
        self.printed.text = format!("{before_text}assert_adds_ck {hint} {{\n{body_text}}}\n");
        // The block's refused changes moved with the hint's text.
        for at in &mut self.printed.refused[refused..] {
            *at = *at + hint.len() - "true".len();
        }
    }

    /// What the first statement of `body` says, when it is an announcement, as the
    /// storyteller would say it: φ, or `knows(A, φ)` for `A: φ`.
    fn first_said(&mut self, body: &[Stmt]) -> String {
        match body.first() {
            Some(Stmt::Announce(f)) => self.bool_e(f, &Cx::public()).0,
            Some(Stmt::Says(who, f)) => {
                let who = self.agent(*who);
                let cx = Cx {
                    knowledge: true,
                    speaker: Speaker::Named(who.clone()),
                };
                format!("knows({who}, {})", self.bool_e(f, &cx).0)
            }
            _ => "true".to_string(),
        }
    }
}

fn cmp(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

fn arith(op: ArOp) -> &'static str {
    match op {
        ArOp::Add => "+",
        ArOp::Sub => "-",
        ArOp::Mul => "*",
        ArOp::Div => "/",
        ArOp::Mod => "%",
    }
}
