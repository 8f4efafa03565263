//! Probabilities printed (issue 29): `prior e` (after the first announcements, twice, or
//! late), `probability(A, φ)` in comparisons, a case's `weight e`, `show e`.

use epipen::CompileError;

use super::{Cx, P, Printer, Speaker, atom, cmp, compound, operand};
use crate::story::*;

impl Printer<'_> {
    /// The prior of a probabilistic story, right before or after the first
    /// announcements (or twice: a compile error at the second).
    pub(super) fn prior(&mut self, chance: &Chance) {
        let Some(e) = &chance.prior else {
            return;
        };
        if chance.prior_at == 7 {
            return;
        }
        let e = self.int_e(e, &Cx::plain()).0;
        self.line(&format!("prior {e}"));
        self.printed.constructs.insert("prior");
        if chance.prior_at == 0 {
            self.printed
                .constructs
                .insert("prior before the first announcements");
        }
        if chance.prior_at == 6 {
            self.refusable(&format!("prior {e}"), "prior twice (refused)");
        }
    }

    /// The prior printed late (before the actual world): a compile error when a
    /// statement before it let a character learn something or asked a probability.
    pub(super) fn late_prior(&mut self, chance: &Chance) {
        if let (Some(e), 7) = (&chance.prior, chance.prior_at) {
            let e = self.int_e(e, &Cx::plain()).0;
            self.refusable(&format!("prior {e}"), "prior late (refused)");
        }
    }

    /// Prints `line`; when the story does not compile with it, with errors at it alone,
    /// records its place as refused (every backend and the evaluator share the
    /// compilation); when it has errors elsewhere, leaves it out.
    fn refusable(&mut self, line: &str, why: &'static str) {
        let (text, start, end) = self.with_line(line);
        match epipen::compile_seeded(&text, &self.printed.sets, self.printed.seed) {
            Ok(_) => {
                self.printed.constructs.insert("prior late, allowed");
                self.line(line);
            }
            Err(CompileError::Story(errors))
                if errors.iter().all(|e| (start..end).contains(&e.span.start)) =>
            {
                self.printed.constructs.insert(why);
                let at = self.printed.text.len() + 2 * self.closers.len();
                self.printed.refused.push(at);
                self.line(line);
            }
            Err(_) => {}
        }
    }

    /// A comparison with probabilities; where no probability can be printed (not a
    /// probabilistic story, or a knowledge-free context), the first probability's
    /// formula instead.
    pub(super) fn prob_cmp(&mut self, c: &ProbCmp, cx: &Cx) -> P {
        if !cx.knowledge || !self.chances {
            return match first_formula(&c.left).or_else(|| first_formula(&c.right)) {
                Some(f) => self.bool_e(f, cx),
                None => atom("true".into()),
            };
        }
        self.printed.constructs.insert("probability");
        let a = self.rat_e(&c.left, cx);
        let b = self.rat_e(&c.right, cx);
        compound(format!("{} {} {}", operand(a), cmp(c.op), operand(b)))
    }

    pub(super) fn rat_e(&mut self, r: &RatE, cx: &Cx) -> P {
        match r {
            RatE::P(agent, f) => {
                let who = match (agent, &cx.speaker) {
                    (Some(i), _) => format!("{}, ", self.agent(*i)),
                    (None, Speaker::Named(name)) => format!("{name}, "),
                    (None, _) => String::new(),
                };
                self.printed.constructs.insert(match (agent, &cx.speaker) {
                    (Some(_), _) | (None, Speaker::Named(_)) => "probability(A, φ)",
                    (None, Speaker::Implicit(_)) => "probability(φ) of the speaker",
                    (None, Speaker::None) => "probability(φ) of the storyteller",
                });
                let inner = match agent {
                    Some(_) => self.within(*agent, cx),
                    None => cx.clone(),
                };
                let f = self.bool_e(f, &inner).0;
                atom(format!("probability({who}{f})"))
            }
            RatE::Frac(a, 1) => super::lit(i64::from(*a)),
            RatE::Frac(a, b) => {
                self.printed.constructs.insert("probability: a fraction");
                compound(format!("{}/{b}", operand(super::lit(i64::from(*a)))))
            }
            RatE::Int(e) => self.int_e(e, cx),
            RatE::Add(a, b) => self.rat_bin(a, "+", b, cx),
            RatE::Sub(a, b) => self.rat_bin(a, "-", b, cx),
            RatE::Mul(a, b) => self.rat_bin(a, "*", b, cx),
            RatE::Div(a, b) => self.rat_bin(a, "/", b, cx),
            RatE::Scale(k, a) => {
                let a = operand(self.rat_e(a, cx));
                compound(format!("{} * {a}", operand(super::lit(i64::from(*k)))))
            }
            RatE::Neg(a) => compound(format!("-{}", operand(self.rat_e(a, cx)))),
            RatE::Sum(r, body) => {
                self.printed.constructs.insert("probability: sum");
                let (binder, body) = self.binding(r, |p| p.rat_e(body, cx).0);
                atom(format!("sum({binder}: {body})"))
            }
        }
    }

    fn rat_bin(&mut self, a: &RatE, op: &str, b: &RatE, cx: &Cx) -> P {
        let a = operand(self.rat_e(a, cx));
        let b = operand(self.rat_e(b, cx));
        compound(format!("{a} {op} {b}"))
    }

    /// ` weight e` of a case, in probabilistic stories.
    pub(super) fn case_weight(&mut self, weight: Option<&IntE>) -> String {
        match weight {
            Some(e) if self.chances => {
                self.printed.constructs.insert("event: weight");
                format!(" weight {}", operand(self.int_e(e, &Cx::plain())))
            }
            _ => String::new(),
        }
    }

    /// `show e`.
    pub(super) fn show(&mut self, what: &ShowE) {
        let e = match what {
            ShowE::Rat(r) if self.chances => {
                self.printed.constructs.insert("show of a probability");
                self.rat_e(r, &Cx::public()).0
            }
            ShowE::Rat(_) => return,
            ShowE::Term(t) => {
                self.printed.constructs.insert("show of a value");
                self.term(t, &Cx::plain())
            }
            ShowE::Formula(f) => {
                self.printed.constructs.insert("show of a formula");
                self.bool_e(f, &Cx::public()).0
            }
        };
        self.printed.constructs.insert(if self.actual {
            "show in the actual world"
        } else {
            "show in every world"
        });
        self.line(&format!("show {e}"));
    }
}

/// The formula of the first `probability(…)` of `r`.
fn first_formula(r: &RatE) -> Option<&BoolE> {
    match r {
        RatE::P(_, f) => Some(f),
        RatE::Frac(..) | RatE::Int(_) => None,
        RatE::Add(a, b) | RatE::Sub(a, b) | RatE::Mul(a, b) | RatE::Div(a, b) => {
            first_formula(a).or_else(|| first_formula(b))
        }
        RatE::Scale(_, a) | RatE::Neg(a) | RatE::Sum(_, a) => first_formula(a),
    }
}
