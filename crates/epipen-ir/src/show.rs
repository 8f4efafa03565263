//! Printing IR expressions back in story syntax, e.g. for what `A reveals` said.

use crate::{
    ArithOp, CharId, Character, Checkpoint, CmpOp, Constant, EnumDef, EventDef, Expr, ExprKind,
    LogicOp, Program, Rat, RatKind, Ty,
};

/// Binding strength, loosest first (as in the grammar).
const IF: u8 = 1;
const IFF: u8 = 2;
const IMPLIES: u8 = 3;
const OR: u8 = 4;
const AND: u8 = 5;
const NOT: u8 = 6;
const CMP: u8 = 7;
const ADD: u8 = 8;
const MUL: u8 = 9;
const NEG: u8 = 10;
const ATOM: u8 = 11;

/// The names an expression's ids refer to.
#[derive(Clone, Copy)]
pub struct Namer<'a> {
    pub characters: &'a dyn Entries<Character>,
    pub constants: &'a dyn Entries<Constant>,
    pub checkpoints: &'a dyn Entries<Checkpoint>,
    pub enums: &'a dyn Entries<EnumDef>,
    pub events: &'a dyn Entries<EventDef>,
}

/// A table of declarations a [`Namer`] reads, by index: a program's `Vec`, or
/// lowering's own tables.
pub trait Entries<T>: std::ops::Index<usize, Output = T> {
    /// How many entries the table has.
    fn count(&self) -> usize;
}

impl<T> Entries<T> for Vec<T> {
    fn count(&self) -> usize {
        self.len()
    }
}

impl Program {
    /// `e` in story syntax with minimal parentheses: enum values by name, family members
    /// as `muddy[0]`, and `speaker` (if any) left out as the implicit agent of `knows` and
    /// `knows_value`, as in `A: …`.
    pub fn show(&self, e: &Expr, speaker: Option<CharId>) -> String {
        Namer {
            characters: &self.characters,
            constants: &self.constants,
            checkpoints: &self.checkpoints,
            enums: &self.enums,
            events: &self.events,
        }
        .show(e, speaker)
    }
}

impl Program {
    /// A probability term in story syntax (see [`Program::show`]).
    pub fn show_rat(&self, r: &Rat, speaker: Option<CharId>) -> String {
        Namer {
            characters: &self.characters,
            constants: &self.constants,
            checkpoints: &self.checkpoints,
            enums: &self.enums,
            events: &self.events,
        }
        .show_rat(r, speaker)
    }
}

impl Namer<'_> {
    /// See [`Program::show`].
    pub fn show(&self, e: &Expr, speaker: Option<CharId>) -> String {
        Printer {
            names: self,
            speaker,
        }
        .at_least(e, IF)
    }

    /// See [`Program::show_rat`].
    pub fn show_rat(&self, r: &Rat, speaker: Option<CharId>) -> String {
        Printer {
            names: self,
            speaker,
        }
        .rat_at_least(r, IF)
    }
}

/// A comparison operator as stories write it.
fn cmp_symbol(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

/// An arithmetic operator as stories write it, and how tightly it binds.
fn arith_symbol(op: ArithOp) -> (&'static str, u8) {
    match op {
        ArithOp::Add => ("+", ADD),
        ArithOp::Sub => ("-", ADD),
        ArithOp::Mul => ("*", MUL),
        ArithOp::Div => ("/", MUL),
        ArithOp::Mod => ("%", MUL),
    }
}

impl Printer<'_, '_> {
    /// `<G ! φ> ψ` for `not [G ! φ] not ψ` (`announced` is the box, `psi` ψ).
    fn diamond(&self, announced: &Expr, psi: &Expr) -> (String, u8) {
        let ExprKind::Announced {
            agents,
            whether,
            formula,
            ..
        } = &announced.kind
        else {
            return (String::new(), ATOM);
        };
        let (group, bang) = self.announcer(agents, *whether);
        // Inside `<…>` a comparison with `>` needs parentheses: anything but an atom
        // gets them.
        let formula = self.at_least(formula, ATOM);
        let body = self.at_least(psi, NOT);
        (format!("<{group}{bang} {formula}> {body}"), NOT)
    }
}

struct Printer<'a, 'n> {
    names: &'a Namer<'n>,
    speaker: Option<CharId>,
}

impl Printer<'_, '_> {
    /// `e`, parenthesised unless it binds at least as tightly as `level`.
    fn at_least(&self, e: &Expr, level: u8) -> String {
        let (text, own) = self.show(e);
        if own < level {
            format!("({text})")
        } else {
            text
        }
    }

    fn list(&self, items: &[Expr]) -> String {
        items
            .iter()
            .map(|e| self.at_least(e, IF))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `(e1, e2)` for a tuple, `e` alone for one item.
    fn tuple(&self, items: &[Expr], level: u8) -> String {
        match items {
            [one] => self.at_least(one, level),
            _ => format!("({})", self.list(items)),
        }
    }

    /// The printer of the formula of an operator of `agent`: inside another character's
    /// knowledge than the speaker's, every agent is named (a story may not leave it out
    /// there).
    fn inside(&self, agent: CharId) -> Printer<'_, '_> {
        Printer {
            names: self.names,
            speaker: self.speaker.filter(|s| *s == agent),
        }
    }

    /// The agent argument with its comma, or nothing for the implicit speaker.
    fn agent(&self, agent: CharId) -> String {
        if Some(agent) == self.speaker {
            String::new()
        } else {
            format!("{}, ", self.names.characters[agent.0].name)
        }
    }

    fn show(&self, e: &Expr) -> (String, u8) {
        // `not [! φ] not ψ` is how lowering writes the diamond `<! φ> ψ`.
        if let ExprKind::Not(inner) = &e.kind
            && let ExprKind::Announced { body, .. } = &inner.kind
            && let ExprKind::Not(psi) = &body.kind
        {
            return self.diamond(inner, psi);
        }
        match &e.kind {
            ExprKind::Shared(inner) => self.show(inner),
            ExprKind::Latest(event) => (self.names.events[event.0].name.clone(), ATOM),
            ExprKind::Int(n) => match e.ty {
                Ty::Enum(id) => {
                    let variants = &self.names.enums[id.0].variants;
                    let name = usize::try_from(*n)
                        .ok()
                        .and_then(|i| variants.get(i))
                        .cloned()
                        .unwrap_or_else(|| n.to_string());
                    (name, ATOM)
                }
                _ if *n < 0 => (n.to_string(), NEG),
                _ => (n.to_string(), ATOM),
            },
            ExprKind::Bool(b) => (b.to_string(), ATOM),
            ExprKind::Const(id) => (self.names.constants[id.0].name.clone(), ATOM),
            ExprKind::Neg(a) => {
                let inner = self.at_least(a, NEG);
                let sep = if inner.starts_with('-') { " " } else { "" };
                (format!("-{sep}{inner}"), NEG)
            }
            ExprKind::Not(a) => (format!("not {}", self.at_least(a, NOT)), NOT),
            ExprKind::Arith(op, a, b) => {
                let (symbol, level) = arith_symbol(*op);
                let text = format!(
                    "{} {symbol} {}",
                    self.at_least(a, level),
                    self.at_least(b, level + 1)
                );
                (text, level)
            }
            ExprKind::Cmp(op, a, b) => {
                let symbol = cmp_symbol(*op);
                let text = format!(
                    "{} {symbol} {}",
                    self.at_least(a, ADD),
                    self.at_least(b, ADD)
                );
                (text, CMP)
            }
            ExprKind::Logic(op, a, b) => {
                let (symbol, level, left, right) = match op {
                    LogicOp::And => ("and", AND, AND, AND + 1),
                    LogicOp::Or => ("or", OR, OR, OR + 1),
                    LogicOp::Implies => ("->", IMPLIES, IMPLIES + 1, IMPLIES),
                    LogicOp::Iff => ("<->", IFF, IFF, IFF + 1),
                };
                let text = format!(
                    "{} {symbol} {}",
                    self.at_least(a, left),
                    self.at_least(b, right)
                );
                (text, level)
            }
            ExprKind::Ite(c, a, b) => {
                let text = format!(
                    "if {} then {} else {}",
                    self.at_least(c, IFF),
                    self.at_least(a, IFF),
                    self.at_least(b, IF)
                );
                (text, IF)
            }
            ExprKind::In { tuple, set } => {
                let items: Vec<String> = set.iter().map(|item| self.tuple(item, IF)).collect();
                let text = format!("{} in {{{}}}", self.tuple(tuple, ADD), items.join(", "));
                (text, CMP)
            }
            ExprKind::Knows { agent, formula } => {
                let text = format!(
                    "knows({}{})",
                    self.agent(*agent),
                    self.inside(*agent).at_least(formula, IF)
                );
                (text, ATOM)
            }
            ExprKind::KnowsValue { agent, exprs } => {
                let text = format!(
                    "knows_value({}{})",
                    self.agent(*agent),
                    self.inside(*agent).list(exprs)
                );
                (text, ATOM)
            }
            ExprKind::Believes { agent, formula } => {
                let text = format!(
                    "believes({}{})",
                    self.agent(*agent),
                    self.inside(*agent).at_least(formula, IF)
                );
                (text, ATOM)
            }
            ExprKind::BelievesValue { agent, exprs } => {
                let text = format!(
                    "believes_value({}{})",
                    self.agent(*agent),
                    self.inside(*agent).list(exprs)
                );
                (text, ATOM)
            }
            ExprKind::At { checkpoint, body } => {
                let text = format!(
                    "at({}, {})",
                    self.names.checkpoints[checkpoint.0].name,
                    self.at_least(body, IF)
                );
                (text, ATOM)
            }
            ExprKind::Group {
                op,
                agents,
                formula,
            } => {
                let mut parts: Vec<String> = if agents.len() == self.names.characters.count() {
                    Vec::new()
                } else {
                    (agents.iter())
                        .map(|a| self.names.characters[a.0].name.clone())
                        .collect()
                };
                parts.push(self.at_least(formula, IF));
                (format!("{}({})", op.name(), parts.join(", ")), ATOM)
            }
            ExprKind::Chance { op, left, right } => {
                let text = format!(
                    "{} {} {}",
                    self.rat_at_least(left, ADD),
                    cmp_symbol(*op),
                    self.rat_at_least(right, ADD)
                );
                (text, CMP)
            }
            ExprKind::Announced {
                agents,
                whether,
                formula,
                body,
            } => {
                let (group, bang) = self.announcer(agents, *whether);
                let formula = self.at_least(formula, IF);
                let body = self.at_least(body, NOT);
                (format!("[{group}{bang} {formula}] {body}"), NOT)
            }
            ExprKind::Quantified {
                forall,
                consts,
                body,
            } => {
                let word = if *forall { "forall" } else { "exists" };
                let names: Vec<&str> = (consts.iter())
                    .map(|c| self.names.constants[c.0].name.as_str())
                    .collect();
                let body = self.at_least(body, IF);
                (format!("{word} {}: {body}", names.join(", ")), IF)
            }
        }
    }

    /// What opens an announcement inside a formula: the group with a space (empty for
    /// everyone), and `!` or `?!` (of whether).
    fn announcer(&self, agents: &[CharId], whether: bool) -> (String, &'static str) {
        let group: Vec<&str> = (agents.iter())
            .map(|a| self.names.characters[a.0].name.as_str())
            .collect();
        let group = match group.is_empty() {
            true => String::new(),
            false => format!("{} ", group.join(", ")),
        };
        (group, if whether { "?!" } else { "!" })
    }

    fn rat_at_least(&self, r: &Rat, level: u8) -> String {
        let (text, own) = self.rat(r);
        if own < level {
            format!("({text})")
        } else {
            text
        }
    }

    fn rat(&self, r: &Rat) -> (String, u8) {
        match &r.kind {
            RatKind::Int(e) => self.show(e),
            RatKind::Probability { agent, formula } => {
                let text = match agent {
                    Some(agent) => format!(
                        "probability({}{})",
                        self.agent(*agent),
                        self.inside(*agent).at_least(formula, IF)
                    ),
                    None => format!("probability({})", self.at_least(formula, IF)),
                };
                (text, ATOM)
            }
            RatKind::Neg(a) => {
                let inner = self.rat_at_least(a, NEG);
                let sep = if inner.starts_with('-') { " " } else { "" };
                (format!("-{sep}{inner}"), NEG)
            }
            RatKind::Arith(op, a, b) => {
                let (symbol, level) = arith_symbol(*op);
                let text = format!(
                    "{} {symbol} {}",
                    self.rat_at_least(a, level),
                    self.rat_at_least(b, level + 1)
                );
                (text, level)
            }
        }
    }
}
