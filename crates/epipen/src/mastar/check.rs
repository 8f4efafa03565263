//! An mA* file checked and gathered per action: every fluent, action and agent
//! declared, one kind of effect per action, an initial state deep accepts (the actual
//! world's literals, and common knowledge of fluent formulas and of what each agent
//! knows whether), a goal. What epipen does not translate is refused here by name.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::parse::{Form, FormKind, Input, LawKind, Lit, Name, Sign};
use crate::syntax::Diagnostic;

/// How an agent takes part in an action (at the actual world).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// Sees the action and its outcome (`observes`).
    Full,
    /// Knows the action happened, not its outcome (`aware_of`).
    Partial,
    /// Does not know it happened (neither line holds).
    Oblivious,
}

/// The conditions of some lines (None: a line without `if`).
pub(super) type Conditions<'i> = Vec<Option<&'i Form>>;

/// What an action does.
#[derive(Debug, Clone)]
pub(super) enum Effect<'i> {
    /// `causes`: each literal with its condition (none: always).
    Ontic(Vec<(&'i Lit, Option<&'i Form>)>),
    /// `determines`: each fluent sensed, with its condition.
    Sensing(Vec<(&'i Name, Option<&'i Form>)>),
    /// `announces`: the literals announced (all of them, as one conjunction).
    Announcement(Vec<&'i Lit>),
}

/// An action with its laws.
#[derive(Debug, Clone)]
pub(super) struct Action<'i> {
    pub name: &'i Name,
    /// Its first law (else its declaration).
    pub at: crate::Span,
    /// The conditions of its `executable` lines (all must hold).
    pub executable: Vec<&'i Form>,
    pub effect: Effect<'i>,
    /// Per agent (in declaration order): its `observes` conditions and its `aware_of`
    /// conditions (None: unconditional).
    pub observers: Vec<(String, Conditions<'i>, Conditions<'i>)>,
}

/// A file's content, checked.
#[derive(Debug, Clone)]
pub(super) struct Domain<'i> {
    /// The fluents, each once, in declaration order (as written).
    pub fluents: Vec<String>,
    /// The agents, each once, in declaration order.
    pub agents: Vec<String>,
    pub actions: Vec<Action<'i>>,
    /// The actual world: each fluent's value.
    pub actual: BTreeMap<String, Sign>,
    /// Fluent formulas that are common knowledge at the start.
    pub common: Vec<&'i Form>,
    /// (agent, fluent): the agent knows whether the fluent holds at the start.
    pub knows_whether: Vec<(String, String)>,
    pub goals: Vec<&'i Form>,
}

fn unique(names: &[Name]) -> Vec<String> {
    let mut seen = HashSet::new();
    (names.iter())
        .filter(|n| seen.insert(n.text.clone()))
        .map(|n| n.text.clone())
        .collect()
}

/// `did you mean` or the declared names.
fn hint(what: &str, name: &str, declared: &[String]) -> String {
    match crate::lower::closest(name, declared.iter().map(String::as_str)) {
        Some(c) => format!("did you mean `{c}`?"),
        None if declared.is_empty() => format!("no {what} is declared"),
        None => {
            let mut shown: Vec<String> =
                declared.iter().take(8).map(|d| format!("`{d}`")).collect();
            if declared.len() > 8 {
                shown.push("…".into());
            }
            format!("the {what}s declared are {}", shown.join(", "))
        }
    }
}

struct Checker<'i> {
    fluents: Vec<String>,
    agents: Vec<String>,
    actions: Vec<String>,
    out: Vec<Diagnostic>,
    _input: &'i Input,
}

impl<'i> Checker<'i> {
    fn declared(&mut self, what: &str, name: &Name) -> bool {
        let list = match what {
            "fluent" => &self.fluents,
            "agent" => &self.agents,
            _ => &self.actions,
        };
        if list.contains(&name.text) {
            return true;
        }
        let h = hint(what, &name.text, list);
        self.out.push(
            Diagnostic::error(
                name.span,
                format!("the {what} `{}` is not declared", name.text),
            )
            .with_hint(h),
        );
        false
    }

    fn formula(&mut self, f: &Form) {
        match &f.kind {
            FormKind::Lit(l) => {
                self.declared("fluent", &l.fluent);
            }
            FormKind::And(a, b) | FormKind::Or(a, b) => {
                self.formula(a);
                self.formula(b);
            }
            FormKind::Not(a) => self.formula(a),
            FormKind::B(i, a) => {
                self.declared("agent", i);
                self.formula(a);
            }
            FormKind::C(g, a) | FormKind::E(g, a) => {
                for i in g {
                    self.declared("agent", i);
                }
                self.formula(a);
            }
        }
    }
}

/// Whether `f` has a belief operator.
pub(super) fn modal(f: &Form) -> bool {
    match &f.kind {
        FormKind::Lit(_) => false,
        FormKind::And(a, b) | FormKind::Or(a, b) => modal(a) || modal(b),
        FormKind::Not(a) => modal(a),
        FormKind::B(..) | FormKind::C(..) | FormKind::E(..) => true,
    }
}

/// Whether the fluent formula `f` holds in the world `values`.
fn holds(f: &Form, values: &BTreeMap<String, Sign>) -> bool {
    match &f.kind {
        FormKind::Lit(l) => values.get(&l.fluent.text) == Some(&l.sign),
        FormKind::And(a, b) => holds(a, values) && holds(b, values),
        FormKind::Or(a, b) => holds(a, values) || holds(b, values),
        FormKind::Not(a) => !holds(a, values),
        FormKind::B(..) | FormKind::C(..) | FormKind::E(..) => true,
    }
}

/// The fluents `f` names, each once, in the order it names them.
fn fluents_of(f: &Form, out: &mut Vec<String>) {
    match &f.kind {
        FormKind::Lit(l) => {
            if !out.contains(&l.fluent.text) {
                out.push(l.fluent.text.clone());
            }
        }
        FormKind::And(a, b) | FormKind::Or(a, b) => {
            fluents_of(a, out);
            fluents_of(b, out);
        }
        FormKind::Not(a) | FormKind::B(_, a) | FormKind::C(_, a) | FormKind::E(_, a) => {
            fluents_of(a, out)
        }
    }
}

/// The conjuncts of `f` (`a, b, c`: three).
fn conjuncts(f: &Form) -> Vec<&Form> {
    match &f.kind {
        FormKind::And(a, b) => {
            let mut out = conjuncts(a);
            out.extend(conjuncts(b));
            out
        }
        _ => vec![f],
    }
}

/// `B(i, f) | B(i, -f)` (either order): i knows whether f.
fn knows_whether(f: &Form) -> Option<(&Name, &Name)> {
    let FormKind::Or(a, b) = &f.kind else {
        return None;
    };
    match (&a.kind, &b.kind) {
        (FormKind::B(i, x), FormKind::B(j, y)) if i.text == j.text => match (&x.kind, &y.kind) {
            (FormKind::Lit(l), FormKind::Lit(m))
                if l.fluent.text == m.fluent.text && l.sign != m.sign =>
            {
                Some((i, &l.fluent))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `(-B(i, f)), (-B(i, -f))` (either order): i does not know whether f.
fn ignores(f: &Form) -> bool {
    let FormKind::And(a, b) = &f.kind else {
        return false;
    };
    let not_b = |x: &Form| match &x.kind {
        FormKind::Not(inner) => match &inner.kind {
            FormKind::B(i, l) => match &l.kind {
                FormKind::Lit(l) => Some((i.text.clone(), l.fluent.text.clone(), l.sign)),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    matches!((not_b(a), not_b(b)), (Some((i, f, s)), Some((j, g, t))) if i == j && f == g && s != t)
}

const FINITARY: &str = "deep's initial states are finitary S5: `initially` gives the actual \
                        world's literals, or `C([every agent], φ)` with φ a fluent formula, \
                        `B(i, φ)` of one, `B(i, f) | B(i, -f)` (i knows whether f) or \
                        `(-B(i, f)), (-B(i, -f))` (i does not)";

/// Checks `input` and gathers it per action; every mistake found, in file order.
pub(super) fn check(input: &Input) -> Result<Domain<'_>, Vec<Diagnostic>> {
    let mut c = Checker {
        fluents: unique(&input.fluents),
        agents: unique(&input.agents),
        actions: unique(&input.actions),
        out: Vec::new(),
        _input: input,
    };
    let mut actions: Vec<Action> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for name in &input.actions {
        if !index.contains_key(&name.text) {
            index.insert(name.text.clone(), actions.len());
            actions.push(Action {
                name,
                at: name.span,
                executable: Vec::new(),
                effect: Effect::Ontic(Vec::new()),
                observers: (c.agents.iter())
                    .map(|a| (a.clone(), Vec::new(), Vec::new()))
                    .collect(),
            });
        }
    }
    // The first law giving each action its kind of effect.
    let mut kind_at: HashMap<String, (&str, crate::Span)> = HashMap::new();
    for law in &input.laws {
        let known = c.declared("action", &law.action);
        let cond = match &law.kind {
            LawKind::Executable(f)
            | LawKind::Causes(_, f)
            | LawKind::Determines(_, f)
            | LawKind::Announces(_, f)
            | LawKind::Observes(_, f)
            | LawKind::AwareOf(_, f) => f.as_ref(),
        };
        if let Some(f) = cond {
            c.formula(f);
        }
        let lits: &[Lit] = match &law.kind {
            LawKind::Causes(l, _) | LawKind::Determines(l, _) | LawKind::Announces(l, _) => l,
            _ => &[],
        };
        let lits_ok = lits.iter().all(|l| c.declared("fluent", &l.fluent));
        let agent_ok = match &law.kind {
            LawKind::Observes(i, _) | LawKind::AwareOf(i, _) => c.declared("agent", i),
            _ => true,
        };
        if !known || !lits_ok || !agent_ok {
            continue;
        }
        let action = &mut actions[index[&law.action.text]];
        if action.at == action.name.span {
            action.at = law.span;
        }
        let verb = match &law.kind {
            LawKind::Causes(..) => Some("causes"),
            LawKind::Determines(..) => Some("determines"),
            LawKind::Announces(..) => Some("announces"),
            _ => None,
        };
        if let Some(verb) = verb {
            match kind_at.get(&law.action.text) {
                Some((was, at)) if *was != verb => {
                    c.out.push(
                        Diagnostic::error(
                            law.span,
                            format!(
                                "the action `{}` both {was} and {verb}: mA* gives an action \
                                 one kind of effect",
                                law.action.text
                            ),
                        )
                        .with_note(*at, format!("its first `{was}`"))
                        .with_hint("split it into two actions"),
                    );
                    continue;
                }
                Some(_) => {}
                None => {
                    kind_at.insert(law.action.text.clone(), (verb, law.span));
                    action.effect = match verb {
                        "causes" => Effect::Ontic(Vec::new()),
                        "determines" => Effect::Sensing(Vec::new()),
                        _ => Effect::Announcement(Vec::new()),
                    };
                }
            }
        }
        match (&law.kind, &mut action.effect) {
            (LawKind::Executable(f), _) => action.executable.extend(f.as_ref()),
            (LawKind::Causes(lits, f), Effect::Ontic(effects)) => {
                if let Some(f) = f.as_ref().filter(|f| modal(f)) {
                    c.out.push(
                        Diagnostic::error(
                            f.span,
                            "a condition with beliefs on `causes`: epipen translates \
                             conditions on fluents only",
                        )
                        .with_hint(
                            "a conditional effect is read world by world; write the \
                             condition on fluents, or make the beliefs an `executable` \
                             condition of a second action",
                        ),
                    );
                }
                effects.extend(lits.iter().map(|l| (l, f.as_ref())));
            }
            (LawKind::Determines(lits, f), Effect::Sensing(sensed)) => {
                sensed.extend(lits.iter().map(|l| (&l.fluent, f.as_ref())));
            }
            (LawKind::Announces(lits, f), Effect::Announcement(said)) => {
                if let Some(f) = f {
                    c.out.push(
                        Diagnostic::error(f.span, "a condition on `announces`")
                            .with_hint("make it an `executable` condition of the action"),
                    );
                }
                said.extend(lits.iter());
            }
            (LawKind::Observes(i, f), _) | (LawKind::AwareOf(i, f), _) => {
                let full = matches!(law.kind, LawKind::Observes(..));
                if let Some(o) = action.observers.iter_mut().find(|o| o.0 == i.text) {
                    match full {
                        true => o.1.push(f.as_ref()),
                        false => o.2.push(f.as_ref()),
                    }
                }
            }
            _ => {}
        }
    }
    // Partial observers of an ontic action: mA* defines none.
    for law in &input.laws {
        if let LawKind::AwareOf(i, _) = &law.kind
            && let Some(&k) = index.get(&law.action.text)
            && matches!(actions[k].effect, Effect::Ontic(_))
        {
            c.out.push(
                Diagnostic::error(
                    law.span,
                    format!(
                        "`{}` is aware of the ontic action `{}`: mA* gives ontic actions \
                         full observers and oblivious agents only",
                        i.text, law.action.text
                    ),
                )
                .with_hint("write `observes` (deep treats this agent as oblivious)"),
            );
        }
    }
    // The initial state.
    let mut actual: BTreeMap<String, Sign> = BTreeMap::new();
    let mut common = Vec::new();
    let mut whether = Vec::new();
    for f in &input.initially {
        c.formula(f);
        if let FormKind::C(group, inner) = &f.kind {
            let mut g: Vec<&str> = group.iter().map(|a| a.text.as_str()).collect();
            g.sort_unstable();
            g.dedup();
            if g.len() != c.agents.len() {
                c.out.push(
                    Diagnostic::error(f.span, "an initial common knowledge of some agents only")
                        .with_hint(FINITARY),
                );
                continue;
            }
            for part in conjuncts(inner) {
                if !modal(part) {
                    common.push(part);
                } else if let Some((i, fl)) = knows_whether(part) {
                    whether.push((i.text.clone(), fl.text.clone()));
                } else if ignores(part) {
                } else if let FormKind::B(_, x) = &part.kind
                    && !modal(x)
                {
                    common.push(&**x);
                } else {
                    c.out.push(
                        Diagnostic::error(part.span, "an initial belief deep does not accept")
                            .with_hint(FINITARY),
                    );
                }
            }
        } else if modal(f) {
            c.out.push(
                Diagnostic::error(f.span, "an initial belief outside `C([…], …)`")
                    .with_hint(FINITARY),
            );
        } else {
            for part in conjuncts(f) {
                match &part.kind {
                    FormKind::Lit(l) => match actual.get(&l.fluent.text) {
                        Some(s) if *s != l.sign => c.out.push(
                            Diagnostic::error(
                                part.span,
                                format!("the initial state gives `{}` both values", l.fluent.text),
                            )
                            .with_hint("the actual world is one state"),
                        ),
                        _ => {
                            actual.insert(l.fluent.text.clone(), l.sign);
                        }
                    },
                    _ => c.out.push(
                        Diagnostic::error(
                            part.span,
                            "an initial fluent formula that is not a list of literals",
                        )
                        .with_hint(FINITARY),
                    ),
                }
            }
        }
    }
    // A fluent the initial literals do not give: deep's initial world is the last of
    // its enumeration (each fluent true, then false) that fits, so such a fluent is
    // false unless the common knowledge makes it true.
    let said_true: HashSet<&str> = (common.iter())
        .flat_map(|f| conjuncts(f))
        .filter_map(|f| match &f.kind {
            FormKind::Lit(l) if l.sign == Sign::Pos => Some(l.fluent.text.as_str()),
            _ => None,
        })
        .collect();
    let mut unlisted = Vec::new();
    for f in &c.fluents {
        if !actual.contains_key(f) {
            let sign = match said_true.contains(f.as_str()) {
                true => Sign::Pos,
                false => Sign::Neg,
            };
            unlisted.push(f.clone());
            actual.insert(f.clone(), sign);
        }
    }
    if !unlisted.is_empty() {
        tracing::info!(
            "the initial state does not give {}: taken as deep does (false, or true where \
             the common knowledge says so)",
            unlisted.join(", ")
        );
    }
    // deep's pointed world is the one of these literals among the worlds the common
    // knowledge allows: with none, it has no pointed world.
    // (After the mistakes above only: a fluent not declared has no value.)
    let sound = c.out.is_empty();
    for f in &common {
        if sound && !holds(f, &actual) {
            let mut values: Vec<String> = Vec::new();
            fluents_of(f, &mut values);
            let values: Vec<String> = (values.iter())
                .map(|f| {
                    let value = match actual.get(f) {
                        Some(Sign::Pos) => format!("`{f}`"),
                        _ => format!("`-{f}`"),
                    };
                    match unlisted.contains(f) {
                        true => format!("{value} (not in `initially`: taken as deep takes it)"),
                        false => value,
                    }
                })
                .collect();
            c.out.push(
                Diagnostic::error(
                    f.span,
                    "the actual world of `initially` is not among the worlds this common \
                     knowledge allows",
                )
                .with_hint(format!(
                    "the actual world has {}: change the `initially` literals or this formula",
                    values.join(", ")
                )),
            );
        }
    }
    for f in &input.goals {
        c.formula(f);
    }
    if input.goals.is_empty() {
        let end = input
            .initially
            .last()
            .map(|f| f.span)
            .unwrap_or(crate::Span::new(0, 0));
        c.out.push(
            Diagnostic::error(end, "the file has no `goal`")
                .with_hint("end it with `goal φ;` (several `goal` lines must all hold)"),
        );
    }
    if !c.out.is_empty() {
        let mut out = c.out;
        out.sort_by_key(|d| d.span.start);
        return Err(out);
    }
    Ok(Domain {
        fluents: c.fluents,
        agents: c.agents,
        actions,
        actual,
        common,
        knows_whether: whether,
        goals: input.goals.iter().collect(),
    })
}
