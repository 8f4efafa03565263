//! Belief printed (issue 20): `believes(A, φ)`, `believes_value(A, e, …)`, `A expects φ`
//! and laws of knowledge and belief for checks. The events' `expects` lines are printed
//! with their `sees` lines (`event.rs`).

use super::{Cx, P, Printer, atom};
use crate::story::*;

impl Printer<'_> {
    /// `believes(A, φ)`; where no knowledge operator can stand, φ.
    pub(super) fn believes(&mut self, agent: Option<u8>, f: &BoolE, cx: &Cx) -> P {
        if !cx.knowledge {
            return self.bool_e(f, cx);
        }
        let who = self.knower(agent, cx);
        let f = self.bool_e(f, &self.within(agent, cx)).0;
        self.printed.constructs.insert("belief: believes printed");
        atom(format!("believes({who}{f})"))
    }

    /// `believes_value(A, e, …)`; where no knowledge operator can stand, `true`.
    pub(super) fn believes_value(&mut self, agent: Option<u8>, terms: &[Term], cx: &Cx) -> P {
        if !cx.knowledge {
            return atom("true".into());
        }
        let who = self.knower(agent, cx);
        let plain = Cx::plain();
        let terms: Vec<String> = terms.iter().map(|t| self.term(t, &plain)).collect();
        self.printed
            .constructs
            .insert("belief: believes_value printed");
        atom(format!("believes_value({who}{})", terms.join(", ")))
    }

    /// `A expects φ`; `refused`: where it cannot stand (printed, its place recorded).
    pub(super) fn expects(&mut self, who: u8, f: &BoolE, refused: Option<&'static str>) {
        let who = self.agent(who);
        let f = self.bool_e(f, &Cx::public()).0;
        // `knows(`, `knows_value(` and the group operators' names end with `knows(` or
        // `knowledge(`.
        let knowledge = ["knows(", "knows_value(", "knowledge(", "believes"]
            .iter()
            .any(|op| f.contains(op));
        let c = &mut self.printed.constructs;
        match refused {
            Some(why) => {
                c.insert(why);
                let at = self.printed.text.len() + 2 * self.closers.len();
                self.printed.refused.push(at);
            }
            None => {
                c.insert("expects statement");
                if knowledge {
                    c.insert("expects statement: knowledge or belief in φ");
                }
                if self.loops > 0 {
                    c.insert("expects statement in a loop");
                }
            }
        }
        self.line(&format!("{who} expects {f}"));
    }

    /// A law of knowledge and belief over plausibility models about character `a` and
    /// φ: true in every world.
    pub(super) fn belief_law(&mut self, law: u8, a: u8, f: &BoolE) -> String {
        let a = self.agent(a);
        let f = self.bool_e(f, &Cx::public()).0;
        let (k, b) = (format!("knows({a}, {f})"), format!("believes({a}, {f})"));
        match law % 8 {
            // Knowledge is belief.
            0 => format!("{k} -> {b}"),
            // D: belief is consistent.
            1 => format!("{b} -> not believes({a}, not ({f}))"),
            // Positive and negative introspection of belief (belief is the same across a
            // knowledge class).
            2 => format!("{b} -> knows({a}, {b})"),
            3 => format!("not {b} -> knows({a}, not {b})"),
            // Believing one knows is knowing; believing one believes is believing.
            4 => format!("believes({a}, {k}) <-> {k}"),
            5 => format!("believes({a}, {b}) <-> {b}"),
            // Everyone's belief of a tautology; belief distributes over `and`.
            6 => format!("believes({a}, ({f}) or not ({f}))"),
            _ => format!("believes({a}, ({f}) and true) <-> {b}"),
        }
    }
}
