//! A checked mA* domain written as an epipen story: bools for the fluents, characters
//! for the agents, `announce` and `learns` for the initial common knowledge, `actual`
//! for the initial state, one `action` per action (one per frame of reference where
//! observing depends on the state) and a `plan` of the goal. See docs/mastar.md.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use super::check::{Action, Conditions, Domain, Effect, Role};
use super::parse::{Form, FormKind, Sign};

/// How deep `C([…], φ)` (common belief) is unfolded when some action leaves an agent
/// oblivious: everyone believes φ, and that everyone believes it, … this many levels.
pub const COMMON_DEPTH: usize = 4;

/// At most this many frames of reference (combinations of who observes) per action.
pub const MAX_FRAMES: usize = 256;

/// The story and what its names stand for.
#[derive(Debug, Clone)]
pub struct Translation {
    /// The epipen story.
    pub story: String,
    /// Each epipen action's name (without a frame's index) and the mA* action it is.
    pub actions: Vec<(String, String)>,
    /// Whether some action leaves an agent oblivious (the story then has beliefs).
    pub beliefs: Beliefs,
}

/// Whether the story needs plausibility (an agent oblivious of some action).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Beliefs {
    /// Every agent observes every action at least partially: belief is knowledge.
    Knowledge,
    /// Some agent may be oblivious: belief is plausibility (`expects`).
    Plausibility,
}

/// Words a story reads in their place though they are no keywords or built-in functions.
const CONTEXTUAL: &[&str] = &["sample", "forall", "exists", "others", "each", "all"];

fn reserved(name: &str) -> bool {
    crate::syntax::is_keyword(name)
        || crate::lower::FUNCTIONS.contains(&name)
        || CONTEXTUAL.contains(&name)
}

/// Epipen names for mA* names, each unique.
struct Names {
    map: HashMap<String, String>,
    taken: HashSet<String>,
}

impl Names {
    fn add(&mut self, written: &str) -> String {
        let mut base: String = (written.chars())
            .map(|ch| match ch {
                '(' | ',' => '_',
                ch => ch,
            })
            .filter(|&ch| ch != ')')
            .collect();
        if reserved(&base) {
            base.push('_');
        }
        let mut name = base.clone();
        let mut k = 2;
        while self.taken.contains(&name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        self.taken.insert(name.clone());
        self.map.insert(written.to_string(), name.clone());
        name
    }

    /// A name of the translation's own, unlike every other.
    fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        while self.taken.contains(&name) {
            name.push('_');
        }
        self.taken.insert(name.clone());
        name
    }

    fn get(&self, written: &str) -> &str {
        &self.map[written]
    }
}

struct Writer<'d> {
    names: Names,
    agents: HashMap<String, String>,
    actions: HashMap<String, String>,
    beliefs: Beliefs,
    all_agents: &'d [String],
}

impl Writer<'_> {
    fn agent(&self, a: &str) -> &str {
        &self.agents[a]
    }

    /// `f` as an epipen formula (parenthesised unless atomic or a call).
    fn form(&self, f: &Form) -> String {
        match &f.kind {
            FormKind::Lit(l) => {
                let name = self.names.get(&l.fluent.text);
                match l.sign {
                    Sign::Pos => name.to_string(),
                    Sign::Neg => format!("not {name}"),
                }
            }
            FormKind::And(..) => {
                let parts: Vec<String> = conj(f).iter().map(|g| self.form(g)).collect();
                format!("({})", parts.join(" and "))
            }
            FormKind::Or(a, b) => format!("({} or {})", self.form(a), self.form(b)),
            FormKind::Not(a) => format!("not {}", self.form(a)),
            FormKind::B(i, a) => format!("believes({}, {})", self.agent(&i.text), self.form(a)),
            FormKind::E(g, a) => self.everyone(g.iter().map(|i| i.text.as_str()), &self.form(a)),
            FormKind::C(g, a) => {
                let inner = self.form(a);
                let group: Vec<&str> = g.iter().map(|i| i.text.as_str()).collect();
                match self.beliefs {
                    Beliefs::Knowledge => {
                        let names: Vec<&str> = group.iter().map(|i| self.agent(i)).collect();
                        format!("common_knowledge({}, {inner})", names.join(", "))
                    }
                    Beliefs::Plausibility => {
                        // E φ, E (φ and E φ), … : the conjunction of E^1 … E^depth.
                        let mut level = self.everyone(group.iter().copied(), &inner);
                        for _ in 1..COMMON_DEPTH {
                            level = self
                                .everyone(group.iter().copied(), &format!("({inner} and {level})"));
                        }
                        level
                    }
                }
            }
        }
    }

    fn everyone<'a>(&self, group: impl Iterator<Item = &'a str>, inner: &str) -> String {
        let parts: Vec<String> = group
            .map(|i| format!("believes({}, {inner})", self.agent(i)))
            .collect();
        match parts.len() {
            1 => parts.into_iter().next().unwrap_or_default(),
            _ => format!("({})", parts.join(" and ")),
        }
    }

    fn any(&self, fs: &[&Form]) -> String {
        match fs {
            [] => "false".into(),
            [f] => self.form(f),
            _ => {
                let parts: Vec<String> = fs.iter().map(|f| self.form(f)).collect();
                format!("({})", parts.join(" or "))
            }
        }
    }
}

fn conj(f: &Form) -> Vec<&Form> {
    match &f.kind {
        FormKind::And(a, b) => {
            let mut out = conj(a);
            out.extend(conj(b));
            out
        }
        _ => vec![f],
    }
}

/// Each agent's possible roles in `action` at the actual world, each with the condition
/// (an epipen formula; None: always) under which it has that role.
fn roles(w: &Writer, action: &Action) -> Vec<Vec<(Role, Option<String>)>> {
    let mut out = Vec::new();
    for (_, observes, aware) in &action.observers {
        let always = |conds: &[Option<&Form>]| conds.iter().any(Option::is_none);
        let when = |conds: &[Option<&Form>]| {
            let fs: Vec<&Form> = conds.iter().flatten().copied().collect();
            w.any(&fs)
        };
        let mut options = Vec::new();
        if always(observes) {
            options.push((Role::Full, None));
        } else {
            let full = (!observes.is_empty()).then(|| when(observes));
            if let Some(full) = &full {
                options.push((Role::Full, Some(full.clone())));
            }
            let not_full = |rest: String| match &full {
                Some(full) => format!("not {full} and {rest}"),
                None => rest,
            };
            if always(aware) {
                options.push((Role::Partial, full.as_ref().map(|f| format!("not {f}"))));
            } else {
                if !aware.is_empty() {
                    options.push((Role::Partial, Some(not_full(when(aware)))));
                }
                let oblivious = match (&full, aware.is_empty()) {
                    (None, true) => None,
                    (Some(f), true) => Some(format!("not {f}")),
                    (_, false) => Some(not_full(format!("not {}", when(aware)))),
                };
                options.push((Role::Oblivious, oblivious));
            }
        }
        out.push(options);
    }
    out
}

/// Every combination of one option per agent (the frames of reference).
fn frames(roles: &[Vec<(Role, Option<String>)>]) -> Vec<Vec<(Role, Option<String>)>> {
    let mut out: Vec<Vec<(Role, Option<String>)>> = vec![Vec::new()];
    for options in roles {
        let mut next = Vec::new();
        for prefix in &out {
            for o in options {
                let mut v = prefix.clone();
                v.push(o.clone());
                next.push(v);
            }
        }
        out = next;
    }
    out
}

/// The number of frames `action` has.
pub(super) fn frame_count(domain: &Domain, action: &Action) -> usize {
    (action.observers.iter())
        .map(|(_, obs, aware)| {
            let always = |c: &[Option<&Form>]| c.iter().any(Option::is_none);
            if always(obs) {
                1
            } else if always(aware) {
                1 + usize::from(!obs.is_empty())
            } else {
                1 + usize::from(!obs.is_empty()) + usize::from(!aware.is_empty())
            }
        })
        .fold(1usize, |n, k| n.saturating_mul(k))
        .max(usize::from(domain.agents.is_empty()))
}

/// Whether some frame of some action leaves an agent oblivious.
fn has_oblivious(domain: &Domain) -> bool {
    (domain.actions.iter()).any(|a| {
        (a.observers.iter()).any(|(_, obs, aware)| {
            !obs.iter().any(Option::is_none) && !aware.iter().any(Option::is_none)
        })
    })
}

/// The story of `domain` (from the file at `path`), planning for at most `max` actions.
pub(super) fn story(path: &str, source: &str, domain: &Domain, max: usize) -> Translation {
    let mut names = Names {
        map: HashMap::new(),
        taken: HashSet::new(),
    };
    let agents: HashMap<String, String> = (domain.agents.iter())
        .map(|a| (a.clone(), names.add(a)))
        .collect();
    for f in &domain.fluents {
        names.add(f);
    }
    let actions: HashMap<String, String> = (domain.actions.iter())
        .map(|a| (a.name.text.clone(), names.add(&a.name.text)))
        .collect();
    let beliefs = match has_oblivious(domain) {
        true => Beliefs::Plausibility,
        false => Beliefs::Knowledge,
    };
    let here = match beliefs {
        Beliefs::Plausibility => Some(names.fresh("here")),
        Beliefs::Knowledge => None,
    };
    let happened = names.fresh("happened");
    let outcome = names.fresh("outcome");
    let nothing = names.fresh("nothing");
    let w = Writer {
        names,
        agents,
        actions,
        beliefs,
        all_agents: &domain.agents,
    };
    let line_of = |span: crate::Span| crate::syntax::line_col(source, span.start).0;
    let mut s = String::new();
    let _ = writeln!(s, "# {path}, mA* as an epipen story (epipen plan)");
    let chars: Vec<&str> = w.all_agents.iter().map(|a| w.agent(a)).collect();
    let _ = writeln!(s, "characters {}", chars.join(", "));
    let mut bools: Vec<&str> = domain.fluents.iter().map(|f| w.names.get(f)).collect();
    if let Some(here) = &here {
        bools.push(here);
    }
    let _ = writeln!(s, "bool {}", bools.join(", "));
    for f in &domain.common {
        let _ = writeln!(s, "announce {}", w.form(f));
    }
    for (i, f) in &domain.knows_whether {
        let _ = writeln!(s, "{} learns {}", w.agent(i), w.names.get(f));
    }
    let actual: Vec<String> = (domain.actual.iter())
        .map(|(f, sign)| match sign {
            Sign::Pos => w.names.get(f).to_string(),
            Sign::Neg => format!("not {}", w.names.get(f)),
        })
        .collect();
    let actual = actual.join(" and ");
    match &here {
        Some(here) => {
            let _ = writeln!(
                s,
                "# `{here}` marks the actual world (its twin, alike but for `{here}`, \
                 stands for it where nothing happened)"
            );
            let _ = writeln!(s, "announce {here} -> {actual}");
            let _ = writeln!(s, "actual {here}");
        }
        None => {
            let _ = writeln!(s, "actual {actual}");
        }
    }
    let mut mapped = Vec::new();
    for action in &domain.actions {
        let name = w.actions[&action.name.text].clone();
        mapped.push((name.clone(), action.name.text.clone()));
        let _ = writeln!(s, "\n# line {}: {}", line_of(action.at), action.name.text);
        let frames = frames(&roles(&w, action));
        // The cases of the action's outcomes: (name, precondition, changes).
        let mut cases: Vec<(String, Option<String>, String)> = Vec::new();
        let mut executable: Vec<String> = action.executable.iter().map(|f| w.form(f)).collect();
        match &action.effect {
            Effect::Ontic(effects) => {
                let mut changes = Vec::new();
                let mut order: Vec<&str> = Vec::new();
                let mut by: HashMap<&str, (Conditions, Conditions)> = HashMap::new();
                for (lit, cond) in effects {
                    let f = lit.fluent.text.as_str();
                    if !by.contains_key(f) {
                        order.push(f);
                    }
                    let e = by.entry(f).or_default();
                    match lit.sign {
                        Sign::Pos => e.0.push(*cond),
                        Sign::Neg => e.1.push(*cond),
                    }
                }
                for f in order {
                    let (pos, neg) = &by[f];
                    let name = w.names.get(f);
                    let cond = |cs: &[Option<&Form>]| -> Option<String> {
                        if cs.iter().any(Option::is_none) {
                            return Some("true".into());
                        }
                        let fs: Vec<&Form> = cs.iter().flatten().copied().collect();
                        (!fs.is_empty()).then(|| w.any(&fs))
                    };
                    let value = match (cond(pos), cond(neg)) {
                        (Some(p), _) if p == "true" => "true".to_string(),
                        (None, Some(n)) if n == "true" => "false".to_string(),
                        (Some(p), None) => format!("{name} or {p}"),
                        (None, Some(n)) => format!("{name} and not {n}"),
                        (Some(p), Some(n)) => format!("{p} or ({name} and not {n})"),
                        (None, None) => name.to_string(),
                    };
                    changes.push(format!("{name} := {value}"));
                }
                let then = match changes.is_empty() {
                    true => String::new(),
                    false => format!(" then {}", changes.join(", ")),
                };
                cases.push((happened.clone(), None, then));
            }
            Effect::Sensing(sensed) => {
                // Each sensed fluent: true, false, or (with a condition that fails) not
                // sensed; a case per combination.
                let mut combos: Vec<Vec<String>> = vec![Vec::new()];
                for (fluent, cond) in sensed {
                    let f = w.names.get(&fluent.text);
                    let options: Vec<String> = match cond {
                        None => vec![f.to_string(), format!("not {f}")],
                        Some(c) => {
                            let c = w.form(c);
                            vec![
                                format!("{c} and {f}"),
                                format!("{c} and not {f}"),
                                format!("not {c}"),
                            ]
                        }
                    };
                    combos = (combos.iter())
                        .flat_map(|prefix| {
                            options.iter().map(move |o| {
                                let mut v = prefix.clone();
                                v.push(o.clone());
                                v
                            })
                        })
                        .collect();
                }
                for (k, combo) in combos.iter().enumerate() {
                    let pre = match combo.as_slice() {
                        [one] => one.clone(),
                        _ => (combo.iter().map(|p| format!("({p})")))
                            .collect::<Vec<_>>()
                            .join(" and "),
                    };
                    cases.push((format!("{outcome}[{k}]"), Some(pre), String::new()));
                }
            }
            Effect::Announcement(said) => {
                let parts: Vec<String> = (said.iter())
                    .map(|l| match l.sign {
                        Sign::Pos => w.names.get(&l.fluent.text).to_string(),
                        Sign::Neg => format!("not {}", w.names.get(&l.fluent.text)),
                    })
                    .collect();
                let phi = match parts.len() {
                    1 => parts[0].clone(),
                    _ => format!("({})", parts.join(" and ")),
                };
                executable.push(phi.clone());
                cases.push((format!("{outcome}[0]"), Some(phi.clone()), String::new()));
                cases.push((
                    format!("{outcome}[1]"),
                    Some(format!("not {phi}")),
                    String::new(),
                ));
            }
        }
        for (k, frame) in frames.iter().enumerate() {
            let mut cond = executable.clone();
            cond.extend(frame.iter().filter_map(|(_, c)| c.clone()));
            let label = match frames.len() {
                1 => name.clone(),
                _ => format!("{name}[{k}]"),
            };
            let guard = match cond.is_empty() {
                true => String::new(),
                false => format!(" if {}", cond.join(" and ")),
            };
            let oblivious = frame.iter().any(|(r, _)| *r == Role::Oblivious);
            let _ = writeln!(s, "action {label}{guard} {{");
            for (case, pre, then) in &cases {
                let pre = pre.as_ref().map_or(String::new(), |p| format!(" if {p}"));
                let _ = writeln!(s, "  {case}{pre}{then}");
            }
            if oblivious && let Some(here) = &here {
                let _ = writeln!(s, "  {nothing} if not {here}");
            }
            let count = cases.len() + usize::from(oblivious);
            for (agent, (role, _)) in w.all_agents.iter().zip(frame) {
                let a = w.agent(agent);
                let mut groups: Vec<String> = match role {
                    Role::Full => cases.iter().map(|c| c.0.clone()).collect(),
                    Role::Partial => vec![
                        (cases.iter().map(|c| c.0.clone()))
                            .collect::<Vec<_>>()
                            .join(", "),
                    ],
                    Role::Oblivious => {
                        let _ = writeln!(s, "  {a} expects {nothing}");
                        continue;
                    }
                };
                if oblivious {
                    groups.push(nothing.clone());
                }
                if count > 1 && groups.len() > 1 {
                    let _ = writeln!(s, "  {a} sees {}", groups.join(" | "));
                }
            }
            let _ = writeln!(s, "}}");
        }
    }
    let goal: Vec<String> = domain.goals.iter().map(|g| w.form(g)).collect();
    let _ = writeln!(s, "\n# the goal");
    let _ = writeln!(s, "plan {} max {max}", goal.join(" and "));
    Translation {
        story: s,
        actions: mapped,
        beliefs,
    }
}
