//! An SMCDEL file checked (every atom in `VARS`, every agent of a job in `OBS`, a
//! boolean `LAW`) and written as an epipen story: bools for the atoms, `announce` of the
//! LAW, `learns` of the observed atoms, and a `check` or `where` per job.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;

use super::parse::{Agent, Atom, Form, FormKind, Input, JobKind};
use crate::syntax::Diagnostic;

/// Words a story reads in their place though they are no keywords or built-in functions
/// (`sample(…)`, `forall p:`, `others`, `each(…)` in a `sees` line).
const CONTEXTUAL: &[&str] = &["sample", "forall", "exists", "others", "each"];

/// Whether an agent's name must change (to `K_`): a keyword, a built-in function or a
/// contextual word of epipen's language.
fn reserved(name: &str) -> bool {
    crate::syntax::is_keyword(name)
        || crate::lower::FUNCTIONS.contains(&name)
        || CONTEXTUAL.contains(&name)
}

/// The story and where each job's statement is in it.
#[derive(Debug, Clone)]
pub struct Translation {
    /// The epipen story.
    pub story: String,
    /// For each job, the line of its statement in `story` (from 1).
    pub lines: Vec<usize>,
    /// Each atom's name in the story.
    pub atoms: Vec<(String, u64)>,
}

/// Every atom outside `VARS` and every agent of a job that no `OBS` line declares, and
/// a `LAW` with knowledge or announcements in it.
pub(super) fn check(input: &Input) -> Vec<Diagnostic> {
    let vars: BTreeSet<u64> = input.vars.iter().map(|a| a.n).collect();
    let agents: Vec<&str> = input.obs.iter().map(|(a, _)| a.name.as_str()).collect();
    let listed = listing(&vars);
    let mut out = Vec::new();
    let atom = |a: &Atom, out: &mut Vec<Diagnostic>| {
        if !vars.contains(&a.n) {
            out.push(
                Diagnostic::error(a.span, format!("the atom {} is not in `VARS`", a.n))
                    .with_hint(format!("`VARS` declares {listed}")),
            );
        }
    };
    for (_, atoms) in &input.obs {
        for a in atoms {
            atom(a, &mut out);
        }
    }
    if let Some(f) = first_modal(&input.law) {
        out.push(
            Diagnostic::error(
                f.span,
                "the `LAW` is a boolean formula: no knowledge or announcements in it",
            )
            .with_hint(
                "the LAW says which states there are; ask about knowledge in a job: `VALID? …`",
            ),
        );
    }
    walk(&input.law, &mut |f| {
        for a in atoms_of(f) {
            atom(a, &mut out);
        }
    });
    for job in &input.jobs {
        if let JobKind::True(state) = &job.kind {
            for a in state {
                atom(a, &mut out);
            }
        }
        walk(&job.form, &mut |f| {
            for a in atoms_of(f) {
                atom(a, &mut out);
            }
            for agent in agents_of(f) {
                if !agents.contains(&agent.name.as_str()) {
                    let mut d = Diagnostic::error(
                        agent.span,
                        format!(
                            "the agent `{}` is not declared by an `OBS` line",
                            agent.name
                        ),
                    );
                    d = match closest(&agent.name, &agents) {
                        Some(close) => d.with_hint(format!("did you mean `{close}`?")),
                        None => d.with_hint(format!(
                            "`OBS` declares {}",
                            agents
                                .iter()
                                .map(|a| format!("`{a}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    };
                    out.push(d);
                }
            }
        });
    }
    out.sort_by_key(|d| d.span.start);
    out
}

/// `1, 2, 3` (at most 12, then `…`).
fn listing(vars: &BTreeSet<u64>) -> String {
    let mut items: Vec<String> = vars.iter().take(12).map(|n| n.to_string()).collect();
    if vars.len() > 12 {
        items.push("…".to_string());
    }
    items.join(", ")
}

fn closest<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let lower = name.to_lowercase();
    candidates
        .iter()
        .find(|c| c.to_lowercase() == lower)
        .copied()
}

/// The first subformula with knowledge or an announcement (the LAW may have none).
fn first_modal(f: &Form) -> Option<&Form> {
    let mut found = None;
    walk(f, &mut |g| {
        if found.is_none()
            && matches!(
                g.kind,
                FormKind::K(..)
                    | FormKind::Kw(..)
                    | FormKind::Ck(..)
                    | FormKind::Dk(..)
                    | FormKind::Announce { .. }
            )
        {
            found = Some(g);
        }
    });
    found
}

fn children(f: &Form) -> Vec<&Form> {
    match &f.kind {
        FormKind::Top | FormKind::Bot | FormKind::Atom(_) => Vec::new(),
        FormKind::Neg(a) | FormKind::K(_, a) | FormKind::Ck(_, _, a) | FormKind::Dk(_, _, a) => {
            vec![a]
        }
        FormKind::Quantified(_, _, a) => vec![a],
        FormKind::Conj(fs)
        | FormKind::Disj(fs)
        | FormKind::Xor(fs)
        | FormKind::OneOf(fs)
        | FormKind::Kw(_, fs) => fs.iter().collect(),
        FormKind::Impl(a, b) | FormKind::Equi(a, b) => vec![a, b],
        FormKind::Announce { formula, body, .. } => vec![formula, body],
    }
}

/// Calls `visit` on every subformula, `f` first.
fn walk<'f>(f: &'f Form, visit: &mut dyn FnMut(&'f Form)) {
    let mut stack = vec![f];
    while let Some(g) = stack.pop() {
        visit(g);
        let mut kids = children(g);
        kids.reverse();
        stack.extend(kids);
    }
}

fn atoms_of(f: &Form) -> Vec<&Atom> {
    match &f.kind {
        FormKind::Atom(a) => vec![a],
        FormKind::Quantified(_, atoms, _) => atoms.iter().collect(),
        _ => Vec::new(),
    }
}

fn agents_of(f: &Form) -> Vec<&Agent> {
    match &f.kind {
        FormKind::K(a, _) | FormKind::Kw(a, _) => vec![a],
        FormKind::Ck(g, _, _) | FormKind::Dk(g, _, _) => g.iter().collect(),
        FormKind::Announce { group, .. } => group.iter().collect(),
        _ => Vec::new(),
    }
}

/// The names the story gives atoms and agents.
struct Names {
    prefix: &'static str,
    agents: HashMap<String, String>,
    /// The LAW holds in no state: knowledge over no state holds (see [`story`]).
    lawless: bool,
}

impl Names {
    fn new(input: &Input) -> Names {
        let mut agents = HashMap::new();
        for (a, _) in &input.obs {
            let name = if reserved(&a.name) {
                format!("{}_", a.name)
            } else {
                a.name.clone()
            };
            agents.insert(a.name.clone(), name);
        }
        // Atoms are `p1`, `p2`, … unless an agent has such a name.
        let prefix = ["p", "q", "v", "atom", "prop"]
            .into_iter()
            .find(|prefix| {
                !agents.values().any(|name| {
                    name.strip_prefix(prefix).is_some_and(|rest| {
                        !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())
                    })
                })
            })
            .unwrap_or("atom_");
        Names {
            prefix,
            agents,
            lawless: false,
        }
    }

    fn atom(&self, n: u64) -> String {
        format!("{}{n}", self.prefix)
    }

    fn agent(&self, a: &Agent) -> String {
        self.agents
            .get(&a.name)
            .cloned()
            .unwrap_or_else(|| a.name.clone())
    }

    fn group(&self, g: &[Agent]) -> String {
        g.iter()
            .map(|a| self.agent(a))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Binding strength in epipen's grammar, loosest first (as `epipen_ir`'s printer).
const QUANT: u8 = 1;
const IFF: u8 = 2;
const IMPLIES: u8 = 3;
const OR: u8 = 4;
const AND: u8 = 5;
const NOT: u8 = 6;
const CMP: u8 = 7;
const ATOM: u8 = 11;

/// `(text, level)` as a string that binds at least as tightly as `level`.
fn at_least((text, own): (String, u8), level: u8) -> String {
    if own < level {
        format!("({text})")
    } else {
        text
    }
}

/// `f` in story syntax, with the parentheses epipen's grammar needs (few: epipen
/// allows 64 nested ones), and how tightly it binds. `off`: it may be read at a state
/// the LAW rules out (at the state of a `TRUE?`, under a quantifier), where SMCDEL's
/// common knowledge also asks the formula itself.
fn formula(f: &Form, off: bool, names: &Names) -> (String, u8) {
    let tr = |g: &Form| formula(g, off, names);
    let inner = |g: &Form| at_least(formula(g, false, names), QUANT);
    let joined = |fs: &[Form], op: &str, level: u8| -> (String, u8) {
        match fs {
            [one] => tr(one),
            _ => {
                let parts: Vec<String> = fs.iter().map(|g| at_least(tr(g), level)).collect();
                (parts.join(op), level)
            }
        }
    };
    if names.lawless {
        // Over no state: K, Kw, D and Dw hold; C φ is φ itself (the greatest fixpoint of
        // z = φ ∧ everyone knows z, with knowledge true) and Cw φ holds; an announcement
        // leaves the LAW false, so [! φ] ψ is φ -> ψ, <! φ> ψ is φ and ψ, and the forms
        // of whether are ψ alone.
        match &f.kind {
            FormKind::K(..) | FormKind::Kw(..) | FormKind::Dk(..) => {
                return ("true".to_string(), ATOM);
            }
            FormKind::Ck(_, whether, g) => {
                return match whether {
                    true => ("true".to_string(), ATOM),
                    false => tr(g),
                };
            }
            FormKind::Announce {
                whether,
                diamond,
                formula: phi,
                body,
                ..
            } => {
                return match (whether, diamond) {
                    (true, _) => tr(body),
                    (false, false) => (
                        format!(
                            "{} -> {}",
                            at_least(tr(phi), OR),
                            at_least(tr(body), IMPLIES)
                        ),
                        IMPLIES,
                    ),
                    (false, true) => (
                        format!("{} and {}", at_least(tr(phi), AND), at_least(tr(body), AND)),
                        AND,
                    ),
                };
            }
            _ => {}
        }
    }
    match &f.kind {
        FormKind::Top => ("true".to_string(), ATOM),
        FormKind::Bot => ("false".to_string(), ATOM),
        FormKind::Atom(a) => (names.atom(a.n), ATOM),
        FormKind::Neg(a) => (format!("not {}", at_least(tr(a), NOT)), NOT),
        FormKind::Conj(fs) => joined(fs, " and ", AND),
        FormKind::Disj(fs) => joined(fs, " or ", OR),
        FormKind::Xor(fs) => {
            let mut parts = fs.iter().map(|g| at_least(tr(g), ATOM));
            let first = parts.next().unwrap_or_else(|| "false".to_string());
            let mut acc = (first, ATOM);
            for x in parts {
                acc = (format!("{} != {x}", at_least(acc, ATOM)), CMP);
            }
            acc
        }
        FormKind::OneOf(fs) => {
            let parts: Vec<(String, u8)> = fs.iter().map(tr).collect();
            let some = match parts.as_slice() {
                [one] => one.clone(),
                _ => {
                    let items: Vec<String> =
                        parts.iter().map(|p| at_least(p.clone(), OR)).collect();
                    (items.join(" or "), OR)
                }
            };
            let mut all = vec![at_least(some, AND)];
            for i in 0..parts.len() {
                for j in i + 1..parts.len() {
                    all.push(format!(
                        "not ({} and {})",
                        at_least(parts[i].clone(), AND),
                        at_least(parts[j].clone(), AND)
                    ));
                }
            }
            match all.len() {
                1 => (all.remove(0), AND),
                _ => (all.join(" and "), AND),
            }
        }
        FormKind::Impl(a, b) => (
            format!("{} -> {}", at_least(tr(a), OR), at_least(tr(b), IMPLIES)),
            IMPLIES,
        ),
        FormKind::Equi(a, b) => (
            format!("{} <-> {}", at_least(tr(a), IFF), at_least(tr(b), IMPLIES)),
            IFF,
        ),
        FormKind::K(a, g) => (format!("knows({}, {})", names.agent(a), inner(g)), ATOM),
        FormKind::Kw(a, gs) => {
            let a = names.agent(a);
            let parts: Vec<(String, u8)> = gs
                .iter()
                .map(|g| {
                    let g = formula(g, false, names);
                    let whole = at_least(g.clone(), QUANT);
                    let not = at_least(g, NOT);
                    (format!("knows({a}, {whole}) or knows({a}, not {not})"), OR)
                })
                .collect();
            match parts.as_slice() {
                [one] => one.clone(),
                _ => {
                    let items: Vec<String> =
                        parts.iter().map(|p| at_least(p.clone(), AND)).collect();
                    (items.join(" and "), AND)
                }
            }
        }
        FormKind::Ck(group, whether, g) => {
            let group = names.group(group);
            let ck = |x: &str| format!("common_knowledge({group}, {x})");
            let there = formula(g, false, names);
            let (pos, neg) = (
                at_least(there.clone(), QUANT),
                format!("not {}", at_least(there, NOT)),
            );
            let here = tr(g);
            match (whether, off) {
                (false, false) => (ck(&pos), ATOM),
                (false, true) => (format!("{} and {}", at_least(here, AND), ck(&pos)), AND),
                (true, false) => (format!("{} or {}", ck(&pos), ck(&neg)), OR),
                (true, true) => (
                    format!(
                        "{} and {} or not {} and {}",
                        at_least(here.clone(), AND),
                        ck(&pos),
                        at_least(here, NOT),
                        ck(&neg)
                    ),
                    OR,
                ),
            }
        }
        FormKind::Dk(group, whether, g) => {
            let group = names.group(group);
            let there = formula(g, false, names);
            let pos = at_least(there.clone(), QUANT);
            match whether {
                false => (format!("distributed_knowledge({group}, {pos})"), ATOM),
                true => (
                    format!(
                        "distributed_knowledge({group}, {pos}) or distributed_knowledge({group}, not {})",
                        at_least(there, NOT)
                    ),
                    OR,
                ),
            }
        }
        FormKind::Announce {
            group,
            whether,
            diamond,
            formula: phi,
            body,
        } => {
            let group = match group.is_empty() {
                true => String::new(),
                false => format!("{} ", names.group(group)),
            };
            let bang = if *whether { "?!" } else { "!" };
            let body = at_least(tr(body), NOT);
            let text = match diamond {
                // Inside `<…>` a `>` would close: anything but an atom in parentheses.
                true => format!("<{group}{bang} {}> {body}", at_least(tr(phi), ATOM)),
                false => format!("[{group}{bang} {}] {body}", at_least(tr(phi), QUANT)),
            };
            (text, NOT)
        }
        FormKind::Quantified(forall, atoms, g) => {
            let word = if *forall { "forall" } else { "exists" };
            let mut ns: Vec<u64> = atoms.iter().map(|a| a.n).collect();
            ns.sort_unstable();
            ns.dedup();
            let vars: Vec<String> = ns.into_iter().map(|n| names.atom(n)).collect();
            let body = at_least(formula(g, true, names), QUANT);
            (format!("{word} {}: {body}", vars.join(", ")), QUANT)
        }
    }
}

/// Whether the boolean formula `f` (the LAW) holds at the state whose true atoms are
/// `state`: which translation a `TRUE?` gets.
fn boolean(f: &Form, state: &BTreeSet<u64>) -> bool {
    let all = |fs: &[Form]| fs.iter().map(|g| boolean(g, state)).collect::<Vec<_>>();
    match &f.kind {
        FormKind::Top => true,
        FormKind::Bot => false,
        FormKind::Atom(a) => state.contains(&a.n),
        FormKind::Neg(g) => !boolean(g, state),
        FormKind::Conj(fs) => all(fs).into_iter().all(|b| b),
        FormKind::Disj(fs) => all(fs).into_iter().any(|b| b),
        FormKind::Xor(fs) => all(fs).into_iter().filter(|&b| b).count() % 2 == 1,
        FormKind::OneOf(fs) => all(fs).into_iter().filter(|&b| b).count() == 1,
        FormKind::Impl(a, b) => !boolean(a, state) || boolean(b, state),
        FormKind::Equi(a, b) => boolean(a, state) == boolean(b, state),
        FormKind::Quantified(forall, atoms, g) => {
            let mut ns: Vec<u64> = atoms.iter().map(|a| a.n).collect();
            ns.sort_unstable();
            ns.dedup();
            let mut changed = state.clone();
            let mut result = *forall;
            for bits in 0..1u64 << ns.len().min(20) {
                for (k, n) in ns.iter().enumerate() {
                    match (bits >> k) & 1 == 1 {
                        true => changed.insert(*n),
                        false => changed.remove(n),
                    };
                }
                if boolean(g, &changed) != *forall {
                    result = !*forall;
                    break;
                }
            }
            result
        }
        // The LAW has none (checked before).
        FormKind::K(..)
        | FormKind::Kw(..)
        | FormKind::Ck(..)
        | FormKind::Dk(..)
        | FormKind::Announce { .. } => false,
    }
}

/// The file's text of `f`: comments left out and each run of whitespace one space.
pub(super) fn written(source: &str, f: &Form) -> String {
    let text = &source[f.span.start..f.span.end];
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let line = match line.find("--") {
            Some(k) => &line[..k],
            None => line,
        };
        for word in line.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out
}

/// The story of `input` (read from `path`).
/// A story whose one `where` lists a state of the LAW of `input`, if it has one.
pub(super) fn law_question(input: &Input) -> String {
    let names = Names::new(input);
    let vars: BTreeSet<u64> = input.vars.iter().map(|a| a.n).collect();
    let atoms: Vec<String> = vars.iter().map(|&n| names.atom(n)).collect();
    format!(
        "bool {}\nwhere {}\n",
        atoms.join(", "),
        formula(&input.law, false, &names).0
    )
}

/// The story of `input` (read from `path`). `law_has_states`: whether the LAW holds in
/// some state; when it holds in none, SMCDEL's knowledge ranges over no state and holds,
/// which a story cannot say with an `announce` (its checks would hold vacuously): the
/// story leaves the LAW out and writes each job as SMCDEL computes it there.
pub(super) fn story(path: &str, source: &str, input: &Input, law_has_states: bool) -> Translation {
    let mut names = Names::new(input);
    names.lawless = !law_has_states;
    let mut out = String::new();
    let mut line = 1;
    let push = |out: &mut String, text: &str, line: &mut usize| {
        out.push_str(text);
        out.push('\n');
        *line += 1;
    };
    push(
        &mut out,
        &format!("# {path}, SMCDEL's format as an epipen story"),
        &mut line,
    );
    let mut agents: Vec<String> = Vec::new();
    for (a, _) in &input.obs {
        let name = names.agent(a);
        if !agents.contains(&name) {
            agents.push(name);
        }
    }
    push(
        &mut out,
        &format!("characters {}", agents.join(", ")),
        &mut line,
    );
    let vars: BTreeSet<u64> = input.vars.iter().map(|a| a.n).collect();
    let atoms: Vec<String> = vars.iter().map(|&n| names.atom(n)).collect();
    push(&mut out, &format!("bool {}", atoms.join(", ")), &mut line);
    let law = formula(&input.law, false, &names).0;
    match law_has_states {
        true => push(&mut out, &format!("announce {law}"), &mut line),
        false => push(
            &mut out,
            &format!(
                "# the LAW `{law}` holds in no state: knowledge over no state holds, so the \
                 story leaves the LAW out and reads each knowledge operator as SMCDEL does"
            ),
            &mut line,
        ),
    }
    let mut seen: Vec<&str> = Vec::new();
    for (a, observed) in &input.obs {
        // SMCDEL reads an agent's atoms from its first `OBS` line.
        if seen.contains(&a.name.as_str()) {
            continue;
        }
        seen.push(&a.name);
        let observed: Vec<String> = observed.iter().map(|o| names.atom(o.n)).collect();
        push(
            &mut out,
            &format!("{} learns {}", names.agent(a), observed.join(", ")),
            &mut line,
        );
    }
    let mut lines = Vec::new();
    for job in &input.jobs {
        let (what, text) = match &job.kind {
            JobKind::True(state) => {
                let shown: Vec<String> = state.iter().map(|a| a.n.to_string()).collect();
                let holds: BTreeSet<u64> = state.iter().map(|a| a.n).collect();
                let at: Vec<String> = vars
                    .iter()
                    .map(|&n| match holds.contains(&n) {
                        true => names.atom(n),
                        false => format!("not {}", names.atom(n)),
                    })
                    .collect();
                // A state of the LAW is a possible world: the check asks φ there. Any
                // other is not: the check asks φ at the world changed into it.
                let text = match law_has_states && !boolean(&input.law, &holds) {
                    false => format!(
                        "check {} -> {}",
                        at.join(" and "),
                        at_least(formula(&job.form, false, &names), IMPLIES)
                    ),
                    true => format!(
                        "check forall {}: {} -> {}",
                        atoms.join(", "),
                        at.join(" and "),
                        at_least(formula(&job.form, true, &names), IMPLIES)
                    ),
                };
                (format!("TRUE? {{{}}}", shown.join(",")), text)
            }
            JobKind::Valid if !law_has_states => (
                "VALID?".to_string(),
                format!(
                    "check not ({law}) or {}",
                    at_least(formula(&job.form, false, &names), OR)
                ),
            ),
            JobKind::Valid => (
                "VALID?".to_string(),
                format!("check {}", formula(&job.form, false, &names).0),
            ),
            JobKind::Where if !law_has_states => (
                "WHERE?".to_string(),
                format!(
                    "where ({law}) and {}",
                    at_least(formula(&job.form, false, &names), AND)
                ),
            ),
            JobKind::Where => (
                "WHERE?".to_string(),
                format!("where {}", formula(&job.form, false, &names).0),
            ),
        };
        let (job_line, _) = crate::syntax::line_col(source, job.keyword.start);
        let mut comment = String::new();
        let _ = write!(
            comment,
            "# line {job_line}: {what} {}",
            written(source, &job.form)
        );
        push(&mut out, &comment, &mut line);
        lines.push(line);
        push(&mut out, &text, &mut line);
    }
    let atoms = vars.iter().map(|&n| (names.atom(n), n)).collect();
    Translation {
        story: out,
        lines,
        atoms,
    }
}
