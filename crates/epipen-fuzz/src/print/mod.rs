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
//!
//! `expr.rs` prints expressions, `stmt.rs` statements (and does the steering); this
//! file holds the printer's state, declarations and names.

mod belief;
mod chance;
mod event;
mod expr;
mod plan;
mod stmt;

use std::collections::BTreeSet;

use epipen::ir::{Program, Ty};
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
        crate::dump(text);
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
    // Where the evaluator stops, or would stop had no hint been refuted and no check
    // failed (`epipen check` goes on past them, and the backends then report the value
    // where each prints a world: a campaign finding).
    let overflow = |t: Option<Trace>| {
        t.is_some_and(|t| {
            t.end
                .is_err_and(|e| e.message.starts_with("a changed value leaves 64 bits"))
        })
    };
    let overflows = || {
        overflow(printed.trace(&printed.text))
            || [false, true].into_iter().any(|all| {
                printed.compile().is_ok_and(|mut program| {
                    program.statements = without_verdicts(program.statements, all);
                    overflow(Some(bruteforce::trace(&program, &printed.domain(&program))))
                })
            })
    };
    // A plan's search changes ints hypothetically: the evaluator computes them exactly
    // and never shows them, the engines fail where a value leaves 64 bits (a solver
    // failure at the plan: issue 41's campaign); such stories are clamped at once.
    let planned = printed.constructs.contains("action: int change")
        && printed
            .text
            .lines()
            .any(|l| l.trim_start().starts_with("plan "));
    if printed.constructs.contains(":= of an int") && (planned || overflows()) {
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
        events: Vec::new(),
        world_bound: world_count(d, n),
        runs: 1,
        surely: true,
        at_checkpoint: None,
        defs: 0,
        chances: story.chance.is_some(),
        actions: Vec::new(),
        action_names: 0,
        repeats: 0,
        in_action: false,
        action_targets: Vec::new(),
    };
    p.declarations();
    // The prior before the announcements that bound the ints (`prior_at` 0), or after.
    let early = story.chance.as_ref().is_some_and(|c| c.prior_at == 0);
    if let Some(chance) = story.chance.as_ref().filter(|_| early) {
        p.prior(chance);
    }
    p.bounds();
    if let Some(chance) = story.chance.as_ref().filter(|_| !early) {
        p.prior(chance);
    }
    p.block(&story.pre, Where::top());
    if let Some(chance) = &story.chance {
        p.late_prior(chance);
    }
    if let Some(pick) = story.actual
        && !p.actual
    {
        p.actual(pick);
    }
    p.block(&story.post, Where::top());
    p.printed
}

/// `stmts` with every check left out and every hint's block in its place, and with
/// `announcements`, every announcement and reveal left out too (so that the worlds a
/// refuted hint's report prints, which may be gone at the end, are still there), for the
/// overflow check.
fn without_verdicts(stmts: Vec<epipen::ir::Stmt>, announcements: bool) -> Vec<epipen::ir::Stmt> {
    use epipen::ir::StmtKind;
    let mut out = Vec::with_capacity(stmts.len());
    for mut s in stmts {
        match s.kind {
            StmtKind::Check(_) | StmtKind::CheckActual(_) => {}
            StmtKind::Announce { .. } | StmtKind::Reveal { .. } if announcements => {}
            StmtKind::AssertAddsCk { body, .. } => {
                out.extend(without_verdicts(body, announcements));
            }
            StmtKind::Simultaneously(body) => {
                s.kind = StmtKind::Simultaneously(without_verdicts(body, announcements));
                out.push(s);
            }
            StmtKind::Repeat { max, body, until } => {
                let body = without_verdicts(body, announcements);
                s.kind = StmtKind::Repeat { max, body, until };
                out.push(s);
            }
            _ => out.push(s),
        }
    }
    out
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
    pub(super) fn top() -> Where {
        Where {
            sim: false,
            unrolled: false,
            top: true,
            hint: false,
        }
    }

    pub(super) fn nested(self) -> Where {
        Where { top: false, ..self }
    }
}

/// Who the agent of `knows(φ)` is when none is written.
#[derive(Clone)]
enum Speaker {
    /// A public announcement: agents are named (the first character when none is).
    None,
    /// `A: …` or `A reveals …` (A's name): left implicit, except inside another
    /// character's knowledge (where a story must name it).
    Implicit(String),
    /// Written out, as the hint that repeats `A: φ` does.
    Named(String),
}

#[derive(Clone)]
struct Cx {
    knowledge: bool,
    speaker: Speaker,
}

impl Cx {
    pub(super) fn plain() -> Cx {
        Cx {
            knowledge: false,
            speaker: Speaker::None,
        }
    }

    pub(super) fn public() -> Cx {
        Cx {
            knowledge: true,
            speaker: Speaker::None,
        }
    }

    pub(super) fn speaker(name: &str) -> Cx {
        Cx {
            knowledge: true,
            speaker: Speaker::Implicit(name.to_string()),
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
    /// The events printed so far.
    events: Vec<event::EventInfo>,
    /// The most worlds there can be here: the declarations' worlds times each event's
    /// cases, once per execution.
    world_bound: u128,
    /// How many times the statement being printed can run (the rounds of the loops
    /// around it), at most.
    runs: u32,
    /// The statement being printed runs whenever the story gets there (not under an
    /// `if`, nor a `for` that may not run).
    surely: bool,
    /// Inside `at(c, …)`: the checkpoint's index.
    at_checkpoint: Option<usize>,
    /// How many `def`s are printed so far (they are named `w0`, `d1`, …).
    defs: usize,
    /// A probabilistic story (issue 29): probabilities, weights and the prior printed.
    chances: bool,
    /// The actions declared so far (issue 41; members of families one by one).
    actions: Vec<plan::ActionInfo>,
    /// How many `action` statements are printed so far (they are named `act0`, …).
    action_names: usize,
    /// How many `repeat` blocks enclose the statement being printed.
    repeats: u32,
    /// Printing an action's body.
    in_action: bool,
    /// The constants the actions' changes name (as written), for plans' goals.
    action_targets: Vec<String>,
}

impl Printer<'_> {
    pub(super) fn out(&mut self) -> &mut String {
        &mut self.printed.text
    }

    pub(super) fn line(&mut self, s: &str) {
        let indent = "  ".repeat(self.closers.len());
        let out = self.out();
        out.push_str(&indent);
        out.push_str(s);
        out.push('\n');
    }

    pub(super) fn declarations(&mut self) {
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
    }

    /// The first announcements: every int between its bounds, written in one of
    /// several ways.
    pub(super) fn bounds(&mut self) {
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
    pub(super) fn members(&self, name: &str) -> Vec<String> {
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

    pub(super) fn int_names(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..self.d.ints.len()).map(|i| format!("x{i}")).collect();
        if self.d.fam_int.is_some() {
            out.extend(self.members("a"));
        }
        out
    }

    pub(super) fn bool_names(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..self.d.bools).map(|i| format!("p{i}")).collect();
        if self.d.fam_bool {
            out.extend(self.members("b"));
        }
        out
    }

    pub(super) fn enum_names(&self) -> Vec<String> {
        let mut out: Vec<String> = (0..self.d.enum_consts).map(|i| format!("c{i}")).collect();
        if self.d.fam_enum {
            out.extend(self.members("h"));
        }
        out
    }

    pub(super) fn agents(&self) -> Vec<String> {
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
    pub(super) fn group(&mut self, first: Option<String>, list: Option<&[u8]>) -> String {
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

    pub(super) fn agent(&self, i: u8) -> String {
        let agents = self.agents();
        agents[usize::from(i) % agents.len()].clone()
    }

    pub(super) fn pick(names: &[String], i: u8) -> Option<String> {
        (!names.is_empty()).then(|| names[usize::from(i) % names.len()].clone())
    }

    // -----------------------------------------------------------------------------
    // Ranges and compile-time values.

    /// A bound as written and the values it can take.
    pub(super) fn rbound(&self, b: RBound) -> (String, i64, i64) {
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

    /// `name in lo..hi` (or `name in {a, b}`), and the variable it binds.
    pub(super) fn range(&self, r: &Range, name: &str) -> (String, Var) {
        let dead = self.scope.last().is_some_and(|v| v.lo > v.hi);
        if let Some(list) = &r.list {
            let values: Vec<i64> = list.iter().map(|&v| i64::from(v)).collect();
            let lo = values.iter().copied().min().unwrap_or(0);
            let hi = values.iter().copied().max().unwrap_or(0);
            let var = Var {
                name: name.to_string(),
                lo,
                hi: if dead { lo - 1 } else { hi },
            };
            let items: Vec<String> = values.iter().map(|&v| lit(v).0).collect();
            return (format!("{name} in {{{}}}", items.join(", ")), var);
        }
        let (lo, lo_min, _) = self.rbound(r.lo);
        let (hi, _, hi_max) = self.rbound(r.hi);
        let var = Var {
            name: name.to_string(),
            lo: lo_min,
            hi: if dead { lo_min - 1 } else { hi_max - 1 },
        };
        (format!("{name} in {lo}..{hi}"), var)
    }

    pub(super) fn next_var(&self) -> String {
        format!("i{}", self.scope.len() + 1)
    }

    pub(super) fn ct_cond(&self, c: &CtCond) -> String {
        let (l, ..) = self.rbound(c.lhs);
        let (r, ..) = self.rbound(c.rhs);
        format!("{l} {} {r}", cmp(c.op))
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
