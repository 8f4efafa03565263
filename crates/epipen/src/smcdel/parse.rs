//! SMCDEL's input language, as its grammar (`src/SMCDEL/Internal/Parse.y`, a Happy
//! grammar with precedences) reads it:
//!
//! - `->` and `iff` bind loosest, left-associative, at one level; `&` and `|` at the next
//!   level, left-associative together (`1 | 2 & 3` is `(1 | 2) & 3`);
//! - `~`, `[! φ]`, `<! φ>` (and the other announcements), `a knows that`, `a knows
//!   whether`, `a, b comknow that` and the other infix knowledge forms apply to the
//!   smallest formula that follows (`~ 1 & 2` is `(~ 1) & 2`, `a knows that 1 & 2` is
//!   `(a knows that 1) & 2`);
//! - `K a`, `Kw a`, `Forall 1,2` and `Exists 1,2` reach as far right as they can (`K a
//!   1 & 2` is `K a (1 & 2)`).
//!
//! (Happy gives a token the first of its precedence declarations, so Parse.y's later
//! `%nonassoc '&' '|'` changes nothing; a rule's precedence is its last terminal's, and
//! a rule whose last terminal has none, as `K String Form`, loses to a shift.)

use super::lex::{Tok, Token};
use crate::syntax::{Diagnostic, Span};

/// A file: `VARS`, `LAW`, `OBS` and the jobs.
#[derive(Debug, Clone)]
pub struct Input {
    pub vars: Vec<Atom>,
    pub law: Form,
    pub obs: Vec<(Agent, Vec<Atom>)>,
    pub jobs: Vec<Job>,
}

/// An atom as written: its number and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Atom {
    pub n: u64,
    pub span: Span,
}

/// An agent as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Agent {
    pub name: String,
    pub span: Span,
}

/// A job: `TRUE? {1,2} φ`, `VALID? φ` or `WHERE? φ`.
#[derive(Debug, Clone)]
pub struct Job {
    pub kind: JobKind,
    /// The keyword (`TRUE?`, …).
    pub keyword: Span,
    pub form: Form,
}

#[derive(Debug, Clone)]
pub enum JobKind {
    /// `TRUE? {…}`: the state's true atoms, as written.
    True(Vec<Atom>),
    Valid,
    Where,
}

#[derive(Debug, Clone)]
pub struct Form {
    pub kind: FormKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum FormKind {
    Top,
    Bot,
    Atom(Atom),
    Neg(Box<Form>),
    /// `φ & ψ`, `AND(…)`.
    Conj(Vec<Form>),
    /// `φ | ψ`, `OR(…)`.
    Disj(Vec<Form>),
    /// `XOR(…)`: an odd number of them.
    Xor(Vec<Form>),
    /// `ONEOF(…)`: exactly one of them.
    OneOf(Vec<Form>),
    Impl(Box<Form>, Box<Form>),
    Equi(Box<Form>, Box<Form>),
    /// `K a φ`, `a knows that φ`.
    K(Agent, Box<Form>),
    /// `Kw a φ`, `a knows whether φ`, and `a knows whether (φ, ψ)`: the conjunction of
    /// each.
    Kw(Agent, Vec<Form>),
    /// `a, b comknow that φ`, `(a, b) comknow that φ`; `whether`: `comknow whether`.
    Ck(Vec<Agent>, bool, Box<Form>),
    /// `a, b distknow that φ`; `whether`: `distknow whether`.
    Dk(Vec<Agent>, bool, Box<Form>),
    /// `[! φ] ψ`, `[?! φ] ψ`, `[a, b ! φ] ψ`, `<! φ> ψ`, …: to everyone when `group` is
    /// empty.
    Announce {
        group: Vec<Agent>,
        whether: bool,
        diamond: bool,
        formula: Box<Form>,
        body: Box<Form>,
    },
    /// `Forall 1,2 φ` (`forall` true) or `Exists 1,2 φ`.
    Quantified(bool, Vec<Atom>, Box<Form>),
}

struct Parser<'t> {
    toks: &'t [Token],
    pos: usize,
    depth: usize,
}

/// How deep formulas may nest (deeper is an error, not a crash).
const MAX_DEPTH: usize = 500;

pub(super) fn parse(toks: &[Token]) -> Result<Input, Diagnostic> {
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    p.input()
}

fn describe(tok: &Tok) -> String {
    let text = match tok {
        Tok::Vars => "VARS",
        Tok::Law => "LAW",
        Tok::Obs => "OBS",
        Tok::TrueQ => "TRUE?",
        Tok::ValidQ => "VALID?",
        Tok::WhereQ => "WHERE?",
        Tok::Colon => ":",
        Tok::Comma => ",",
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LBracket => "[",
        Tok::RBracket => "]",
        Tok::LBrace => "{",
        Tok::RBrace => "}",
        Tok::Lt => "<",
        Tok::Gt => ">",
        Tok::Bang => "!",
        Tok::Question => "?",
        Tok::Top => "Top",
        Tok::Bot => "Bot",
        Tok::Neg => "~",
        Tok::And => "&",
        Tok::Or => "|",
        Tok::Impl => "->",
        Tok::Iff => "iff",
        Tok::Con => "AND",
        Tok::Dis => "OR",
        Tok::Xor => "XOR",
        Tok::OneOf => "ONEOF",
        Tok::Forall => "Forall",
        Tok::Exists => "Exists",
        Tok::K => "K",
        Tok::Kw => "Kw",
        Tok::KnowsWhether => "knows whether",
        Tok::KnowsThat => "knows that",
        Tok::CKnowWhether => "comknow whether",
        Tok::CKnowThat => "comknow that",
        Tok::DKnowWhether => "distknow whether",
        Tok::DKnowThat => "distknow that",
        Tok::Int(n) => return format!("the atom `{n}`"),
        Tok::Str(s) => return format!("the name `{s}`"),
        Tok::Eof => return "the end of the file".to_string(),
    };
    format!("`{text}`")
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.toks[self.pos].span
    }

    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn at(&self, tok: &Tok) -> bool {
        self.peek() == tok
    }

    fn unexpected(&self, what: &str) -> Diagnostic {
        Diagnostic::error(
            self.span(),
            format!("expected {what}, found {}", describe(self.peek())),
        )
    }

    fn expect(&mut self, tok: Tok, what: &str) -> Result<Token, Diagnostic> {
        if self.at(&tok) {
            Ok(self.bump())
        } else {
            Err(self.unexpected(what))
        }
    }

    fn input(&mut self) -> Result<Input, Diagnostic> {
        self.expect(Tok::Vars, "`VARS` at the start").map_err(|d| {
            d.with_hint("a file starts `VARS 1,2,3`, then `LAW …`, `OBS …` and the jobs")
        })?;
        let vars = self.atoms("the atoms of `VARS`")?;
        self.expect(Tok::Law, "`LAW` after the atoms of `VARS`")
            .map_err(|d| d.with_hint("the atoms are separated by `,`: `VARS 1,2,3`"))?;
        let law = self.form()?;
        self.expect(Tok::Obs, "`OBS` after the `LAW`")
            .map_err(|d| d.with_hint("after `LAW φ` come the observations: `OBS alice: 1,2`"))?;
        let mut obs = Vec::new();
        loop {
            let Tok::Str(name) = self.peek().clone() else {
                if obs.is_empty() {
                    return Err(self
                        .unexpected("an agent after `OBS`")
                        .with_hint("write `OBS alice: 1,2  bob: 3`"));
                }
                break;
            };
            let agent = Agent {
                name,
                span: self.bump().span,
            };
            self.expect(Tok::Colon, "`:` after the agent")
                .map_err(|d| d.with_hint(format!("write `{}: 1,2`", agent.name)))?;
            let atoms = self.atoms("the atoms the agent observes")?;
            obs.push((agent, atoms));
        }
        let mut jobs = Vec::new();
        loop {
            let keyword = self.span();
            let kind = match self.peek() {
                Tok::TrueQ => {
                    self.bump();
                    self.expect(Tok::LBrace, "`{` after `TRUE?`").map_err(|d| {
                        d.with_hint("write the state's true atoms: `TRUE? {1,3} φ`")
                    })?;
                    let state = if self.at(&Tok::RBrace) {
                        Vec::new()
                    } else {
                        self.atoms("the state's atoms")?
                    };
                    self.expect(Tok::RBrace, "`}` closing the state")?;
                    JobKind::True(state)
                }
                Tok::ValidQ => {
                    self.bump();
                    JobKind::Valid
                }
                Tok::WhereQ => {
                    self.bump();
                    JobKind::Where
                }
                Tok::Eof => break,
                _ => {
                    return Err(self
                        .unexpected("a job (`TRUE?`, `VALID?` or `WHERE?`)")
                        .with_hint(if obs.is_empty() || !jobs.is_empty() {
                            "a formula ends where the next job starts".to_string()
                        } else {
                            "an `OBS` line is `agent: 1,2`".to_string()
                        }));
                }
            };
            let form = self.form()?;
            jobs.push(Job {
                kind,
                keyword,
                form,
            });
        }
        Ok(Input {
            vars,
            law,
            obs,
            jobs,
        })
    }

    /// `1, 2, 3`: at least one atom.
    fn atoms(&mut self, what: &str) -> Result<Vec<Atom>, Diagnostic> {
        let mut atoms = vec![self.atom(what)?];
        while self.at(&Tok::Comma) {
            self.bump();
            atoms.push(self.atom("an atom after `,`")?);
        }
        Ok(atoms)
    }

    fn atom(&mut self, what: &str) -> Result<Atom, Diagnostic> {
        let Tok::Int(digits) = self.peek().clone() else {
            return Err(self
                .unexpected(what)
                .with_hint("atoms are numbers: `1`, `2`, …"));
        };
        let span = self.bump().span;
        let n = digits.parse::<u64>().map_err(|_| {
            Diagnostic::error(span, "this atom's number is too large")
                .with_hint("atoms are numbered up to 18446744073709551615")
        })?;
        Ok(Atom { n, span })
    }

    fn agents(&mut self) -> Result<Vec<Agent>, Diagnostic> {
        let mut agents = Vec::new();
        loop {
            let Tok::Str(name) = self.peek().clone() else {
                return Err(self.unexpected("an agent"));
            };
            let span = self.bump().span;
            agents.push(Agent { name, span });
            if !self.at(&Tok::Comma) {
                return Ok(agents);
            }
            self.bump();
        }
    }

    fn node(&self, kind: FormKind, start: Span) -> Form {
        let end = self.toks[self.pos.saturating_sub(1)].span;
        Form {
            kind,
            span: start.to(end),
        }
    }

    /// A formula: `->` and `iff` (left-associative) over `&` and `|` (left-associative)
    /// over prefix forms.
    pub(super) fn form(&mut self) -> Result<Form, Diagnostic> {
        if self.depth >= MAX_DEPTH {
            return Err(
                Diagnostic::error(self.span(), "formula is nested too deeply")
                    .with_hint(format!("formulas may nest at most {MAX_DEPTH} deep")),
            );
        }
        self.depth += 1;
        let result = self.implications();
        self.depth -= 1;
        result
    }

    fn implications(&mut self) -> Result<Form, Diagnostic> {
        let mut lhs = self.connectives()?;
        while matches!(self.peek(), Tok::Impl | Tok::Iff) {
            let iff = self.bump().tok == Tok::Iff;
            let rhs = self.connectives()?;
            let span = lhs.span.to(rhs.span);
            let (a, b) = (Box::new(lhs), Box::new(rhs));
            let kind = if iff {
                FormKind::Equi(a, b)
            } else {
                FormKind::Impl(a, b)
            };
            lhs = Form { kind, span };
        }
        Ok(lhs)
    }

    fn connectives(&mut self) -> Result<Form, Diagnostic> {
        let mut lhs = self.prefixed()?;
        while matches!(self.peek(), Tok::And | Tok::Or) {
            let and = self.bump().tok == Tok::And;
            let rhs = self.prefixed()?;
            let span = lhs.span.to(rhs.span);
            let kind = if and {
                FormKind::Conj(vec![lhs, rhs])
            } else {
                FormKind::Disj(vec![lhs, rhs])
            };
            lhs = Form { kind, span };
        }
        Ok(lhs)
    }

    /// The smallest formula: an atom, a parenthesised formula, a list form, or a prefix
    /// form with its operand.
    fn prefixed(&mut self) -> Result<Form, Diagnostic> {
        if self.depth >= MAX_DEPTH {
            return Err(
                Diagnostic::error(self.span(), "formula is nested too deeply")
                    .with_hint(format!("formulas may nest at most {MAX_DEPTH} deep")),
            );
        }
        self.depth += 1;
        let result = self.prefixed_inner();
        self.depth -= 1;
        result
    }

    fn prefixed_inner(&mut self) -> Result<Form, Diagnostic> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Top => {
                self.bump();
                Ok(self.node(FormKind::Top, start))
            }
            Tok::Bot => {
                self.bump();
                Ok(self.node(FormKind::Bot, start))
            }
            Tok::Int(_) => {
                let atom = self.atom("an atom")?;
                Ok(self.node(FormKind::Atom(atom), start))
            }
            Tok::Neg => {
                self.bump();
                let f = self.prefixed()?;
                Ok(self.node(FormKind::Neg(Box::new(f)), start))
            }
            Tok::LParen if self.group_in_parentheses() => {
                self.bump();
                let agents = self.agents()?;
                self.expect(Tok::RParen, "`)` after the agents")?;
                self.group_form(agents, start)
            }
            Tok::LParen => {
                self.bump();
                let f = self.form()?;
                self.expect(Tok::RParen, "`)`")?;
                Ok(Form {
                    kind: f.kind,
                    span: self.node(FormKind::Top, start).span,
                })
            }
            tok @ (Tok::Con | Tok::Dis | Tok::Xor | Tok::OneOf) => {
                let word = describe(&tok);
                self.bump();
                self.expect(Tok::LParen, &format!("`(` after {word}"))
                    .map_err(|d| {
                        d.with_hint(format!(
                            "write {word} with its list: `{}(1, 2, 3)`",
                            word.trim_matches('`')
                        ))
                    })?;
                let forms = self.forms()?;
                self.expect(Tok::RParen, "`,` or `)`")?;
                let kind = match tok {
                    Tok::Con => FormKind::Conj(forms),
                    Tok::Dis => FormKind::Disj(forms),
                    Tok::Xor => FormKind::Xor(forms),
                    _ => FormKind::OneOf(forms),
                };
                Ok(self.node(kind, start))
            }
            tok @ (Tok::K | Tok::Kw) => {
                self.bump();
                let Tok::Str(name) = self.peek().clone() else {
                    return Err(self.unexpected("an agent").with_hint(format!(
                        "write `{} alice φ`",
                        describe(&tok).trim_matches('`')
                    )));
                };
                let agent = Agent {
                    name,
                    span: self.bump().span,
                };
                let f = self.form()?;
                let kind = match tok {
                    Tok::K => FormKind::K(agent, Box::new(f)),
                    _ => FormKind::Kw(agent, vec![f]),
                };
                Ok(self.node(kind, start))
            }
            tok @ (Tok::Forall | Tok::Exists) => {
                self.bump();
                let atoms = self.atoms("the atoms to quantify")?;
                let f = self.form()?;
                Ok(self.node(
                    FormKind::Quantified(tok == Tok::Forall, atoms, Box::new(f)),
                    start,
                ))
            }
            Tok::Str(_) => {
                let agents = self.agents()?;
                if agents.len() == 1 {
                    match self.peek() {
                        Tok::KnowsThat => {
                            self.bump();
                            let f = self.prefixed()?;
                            let agent = agents.into_iter().next().expect("one agent");
                            return Ok(self.node(FormKind::K(agent, Box::new(f)), start));
                        }
                        Tok::KnowsWhether => {
                            self.bump();
                            let agent = agents.into_iter().next().expect("one agent");
                            let forms = if self.at(&Tok::LParen) && !self.group_in_parentheses() {
                                self.bump();
                                let forms = self.forms()?;
                                self.expect(Tok::RParen, "`,` or `)`")?;
                                forms
                            } else {
                                vec![self.prefixed()?]
                            };
                            return Ok(self.node(FormKind::Kw(agent, forms), start));
                        }
                        _ => {}
                    }
                }
                self.group_form(agents, start)
            }
            tok @ (Tok::LBracket | Tok::Lt) => {
                self.bump();
                let diamond = tok == Tok::Lt;
                let group = match self.peek() {
                    Tok::Bang | Tok::Question => Vec::new(),
                    Tok::Str(_) => self.agents()?,
                    _ => {
                        let (o, c) = if diamond { ("<", ">") } else { ("[", "]") };
                        return Err(self.unexpected("`!`, `?!` or an agent").with_hint(format!(
                            "an announcement is `{o}! φ{c} ψ`, `{o}?! φ{c} ψ` or `{o}alice, bob ! φ{c} ψ`"
                        )));
                    }
                };
                let whether = self.at(&Tok::Question);
                if whether {
                    self.bump();
                }
                self.expect(Tok::Bang, if whether { "`!` after `?`" } else { "`!`" })?;
                let formula = self.form()?;
                let close = if diamond { Tok::Gt } else { Tok::RBracket };
                let what = format!("{} closing the announcement", describe(&close));
                self.expect(close, &what)?;
                let body = self.prefixed()?;
                Ok(self.node(
                    FormKind::Announce {
                        group,
                        whether,
                        diamond,
                        formula: Box::new(formula),
                        body: Box::new(body),
                    },
                    start,
                ))
            }
            _ => Err(self.unexpected("a formula").with_hint(
                "a formula is an atom (`1`), `Top`, `Bot`, `~ φ`, `φ & ψ`, `AND(…)`, `K alice φ`, \
                 `alice knows that φ`, `[! φ] ψ`, …",
            )),
        }
    }

    /// After agents: `comknow that/whether` or `distknow that/whether` and the operand.
    fn group_form(&mut self, agents: Vec<Agent>, start: Span) -> Result<Form, Diagnostic> {
        let (common, whether) = match self.peek() {
            Tok::CKnowThat => (true, false),
            Tok::CKnowWhether => (true, true),
            Tok::DKnowThat => (false, false),
            Tok::DKnowWhether => (false, true),
            _ => {
                let what = if agents.len() == 1 {
                    "`knows that`, `knows whether`, `comknow …` or `distknow …` after the agent"
                } else {
                    "`comknow that`, `comknow whether`, `distknow that` or `distknow whether` after the agents"
                };
                return Err(self.unexpected(what));
            }
        };
        self.bump();
        let f = Box::new(self.prefixed()?);
        let kind = match common {
            true => FormKind::Ck(agents, whether, f),
            false => FormKind::Dk(agents, whether, f),
        };
        Ok(self.node(kind, start))
    }

    /// Whether `(` starts `(a, b) comknow …` (or `distknow`).
    fn group_in_parentheses(&self) -> bool {
        let mut k = 1;
        loop {
            if !matches!(self.peek_at(k), Tok::Str(_)) {
                return false;
            }
            match self.peek_at(k + 1) {
                Tok::Comma => k += 2,
                Tok::RParen => {
                    return matches!(
                        self.peek_at(k + 2),
                        Tok::CKnowThat | Tok::CKnowWhether | Tok::DKnowThat | Tok::DKnowWhether
                    );
                }
                _ => return false,
            }
        }
    }

    /// `φ, ψ, …`: at least one formula.
    fn forms(&mut self) -> Result<Vec<Form>, Diagnostic> {
        let mut forms = vec![self.form()?];
        while self.at(&Tok::Comma) {
            self.bump();
            forms.push(self.form()?);
        }
        Ok(forms)
    }
}
