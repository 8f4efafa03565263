//! Expressions printed, with the parentheses their operands need.

use super::{COLOURS, Cx, P, Printer, Speaker, arith, atom, cmp, compound, lit, operand};
use crate::story::*;

impl Printer<'_> {
    pub(super) fn int_e(&mut self, e: &IntE, cx: &Cx) -> P {
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
    pub(super) fn binding(
        &mut self,
        r: &Range,
        body: impl FnOnce(&mut Self) -> String,
    ) -> (String, String) {
        let (binder, var) = self.range(r, &self.next_var());
        if r.list.is_some() {
            self.printed.constructs.insert("list of values: aggregate");
        }
        self.scope.push(var);
        let body = body(self);
        self.scope.pop();
        (binder, body)
    }

    pub(super) fn enum_e(&mut self, e: &EnumE, cx: &Cx) -> Option<P> {
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

    pub(super) fn term(&mut self, t: &Term, cx: &Cx) -> String {
        match t {
            Term::Int(e) => self.int_e(e, cx).0,
            Term::Bool(e) => self.bool_e(e, cx).0,
            Term::Enum(e) => match self.enum_e(e, cx) {
                Some(p) => p.0,
                None => "0".into(),
            },
            Term::Event(e) => self.event_term(*e),
        }
    }

    pub(super) fn bool_e(&mut self, e: &BoolE, cx: &Cx) -> P {
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
            BoolE::InRange(e, lo, hi) => {
                self.printed.constructs.insert("range membership");
                let e = operand(self.int_e(e, cx));
                let (lo, hi) = (operand(self.int_e(lo, cx)), operand(self.int_e(hi, cx)));
                compound(format!("{e} in {lo}..{hi}"))
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
                let f = self.bool_e(f, &self.within(*agent, cx)).0;
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
            BoolE::Believes(agent, f) => self.believes(*agent, f, cx),
            BoolE::BelievesValue(agent, terms) => self.believes_value(*agent, terms, cx),
            BoolE::At(c, f) => {
                if !cx.knowledge || self.checkpoints.is_empty() {
                    return self.bool_e(f, cx);
                }
                let index = self.checkpoint_for(*c, f);
                let c = self.checkpoints[index].clone();
                let outer = self.at_checkpoint.replace(index);
                let f = self.bool_e(f, cx).0;
                self.at_checkpoint = outer;
                atom(format!("at({c}, {f})"))
            }
            BoolE::EventIs(event, form, cases) => self.event_is(*event, *form, cases),
            BoolE::Announced {
                group,
                whether,
                diamond,
                formula,
                body,
            } => {
                if !cx.knowledge {
                    return self.bool_e(body, cx);
                }
                let group = match group {
                    None => String::new(),
                    Some(list) => {
                        let listed = self.group(None, Some(list));
                        format!("{} ", listed.trim_end_matches(", "))
                    }
                };
                self.printed
                    .constructs
                    .insert(match (group.is_empty(), diamond) {
                        (true, false) => "announcement: public box",
                        (true, true) => "announcement: public diamond",
                        (false, _) => "announcement: to a group",
                    });
                let bang = if *whether { "?!" } else { "!" };
                let f = self.bool_e(formula, cx).0;
                let b = operand(self.bool_e(body, cx));
                let (open, close) = if *diamond { ("<", ">") } else { ("[", "]") };
                compound(format!("{open}{group}{bang} ({f}){close} {b}"))
            }
            BoolE::BoolQuant(all, vars, body) => {
                let names = self.bool_names();
                let mut picked: Vec<String> = Vec::new();
                for i in vars {
                    if let Some(name) = Self::pick(&names, *i)
                        && !picked.contains(&name)
                    {
                        picked.push(name);
                    }
                }
                if picked.is_empty() {
                    return self.bool_e(body, cx);
                }
                self.printed.constructs.insert("quantifier over bools");
                let word = if *all { "forall" } else { "exists" };
                let b = self.bool_e(body, cx).0;
                compound(format!("{word} {}: {b}", picked.join(", ")))
            }
            BoolE::Prob(c) => self.prob_cmp(c, cx),
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

    /// The context of the formula of a knowledge operator of `agent`: inside another
    /// character's knowledge than the speaker's, the speaker is named.
    pub(super) fn within(&self, agent: Option<u8>, cx: &Cx) -> Cx {
        match (agent, &cx.speaker) {
            (Some(i), Speaker::Implicit(name)) if self.agent(i) != *name => Cx {
                knowledge: cx.knowledge,
                speaker: Speaker::Named(name.clone()),
            },
            _ => cx.clone(),
        }
    }

    /// The agent of a knowledge operator as written before its first argument:
    /// `A, ` or nothing (the speaker's).
    pub(super) fn knower(&self, agent: Option<u8>, cx: &Cx) -> String {
        match (agent, &cx.speaker) {
            (None, Speaker::Implicit(_)) => String::new(),
            (None, Speaker::Named(name)) => format!("{name}, "),
            (None, Speaker::None) => format!("{}, ", self.agent(0)),
            (Some(i), _) => format!("{}, ", self.agent(i)),
        }
    }
}
