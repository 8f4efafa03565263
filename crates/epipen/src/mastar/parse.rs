//! mA*'s grammar, as deep's parser (`src/parse/lcp.y`, a bison grammar) reads it: the
//! fluent, action and agent declarations, then the laws, then `initially` and `goal`, in
//! this order, each ending with `;`. In formulas `,` (and) binds tighter than `|` (or),
//! both left-associative; `-` negates a fluent (`-f`), and a formula only in
//! parentheses (`(-B(a, f))`); `B(i, φ)`, `C([i, j], φ)`, `E([i, j], φ)`.

use super::lex::{Tok, Token};
use crate::syntax::{Diagnostic, Span};

/// A file: declarations, laws, initial state and goal.
#[derive(Debug, Clone, Default)]
pub struct Input {
    pub fluents: Vec<Name>,
    pub actions: Vec<Name>,
    pub agents: Vec<Name>,
    pub laws: Vec<Law>,
    /// Each `initially` line's formula.
    pub initially: Vec<Form>,
    /// Each `goal` line's formula (all of them must hold).
    pub goals: Vec<Form>,
}

/// A name as written (`f`, or with parameters `at(a,1)`: written without spaces).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// A law about an action (`span`: the whole statement).
#[derive(Debug, Clone)]
pub struct Law {
    pub action: Name,
    pub kind: LawKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum LawKind {
    /// `executable a if φ`.
    Executable(Option<Form>),
    /// `a causes l1, l2 if φ` (ontic).
    Causes(Vec<Lit>, Option<Form>),
    /// `a determines f if φ` (sensing).
    Determines(Vec<Lit>, Option<Form>),
    /// `a announces l if φ`.
    Announces(Vec<Lit>, Option<Form>),
    /// `i observes a if φ` (full observer).
    Observes(Name, Option<Form>),
    /// `i aware_of a if φ` (partial observer).
    AwareOf(Name, Option<Form>),
}

/// Whether a literal is negated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    Pos,
    Neg,
}

/// `f` or `-f`.
#[derive(Debug, Clone)]
pub struct Lit {
    pub sign: Sign,
    pub fluent: Name,
}

#[derive(Debug, Clone)]
pub struct Form {
    pub kind: FormKind,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum FormKind {
    Lit(Lit),
    And(Box<Form>, Box<Form>),
    Or(Box<Form>, Box<Form>),
    /// `(-φ)`.
    Not(Box<Form>),
    /// `B(i, φ)`.
    B(Name, Box<Form>),
    /// `C([i, j], φ)`.
    C(Vec<Name>, Box<Form>),
    /// `E([i, j], φ)`.
    E(Vec<Name>, Box<Form>),
}

/// Which part of the file a statement belongs to (they come in this order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    Fluents,
    Actions,
    Agents,
    Laws,
    Initially,
    Goal,
}

impl Part {
    fn shown(self) -> &'static str {
        match self {
            Part::Fluents => "a `fluent` declaration",
            Part::Actions => "an `action` declaration",
            Part::Agents => "an `agent` declaration",
            Part::Laws => "a law",
            Part::Initially => "an `initially` line",
            Part::Goal => "a `goal` line",
        }
    }
}

const ORDER: &str = "mA* (as deep reads it) declares the fluents, then the actions, then the \
                     agents, then gives the laws, then `initially`, then `goal`";

struct Parser<'t> {
    tokens: &'t [Token],
    pos: usize,
}

type Parsed<T> = Result<T, Diagnostic>;

/// Parses the tokens of a file.
pub(super) fn parse(tokens: &[Token]) -> Parsed<Input> {
    let mut p = Parser { tokens, pos: 0 };
    let mut input = Input::default();
    let mut part = Part::Fluents;
    let mut last: Option<(Part, Span)> = None;
    while p.peek() != &Tok::Eof {
        let start = p.span();
        let here = match p.peek() {
            Tok::Fluent => Part::Fluents,
            Tok::Action => Part::Actions,
            Tok::Agent => Part::Agents,
            Tok::Initially => Part::Initially,
            Tok::Goal => Part::Goal,
            Tok::Executable | Tok::Id(_) => Part::Laws,
            _ => {
                return Err(p.unexpected(
                    "a declaration, a law, `initially` or `goal`",
                    Some(
                        "each statement starts with `fluent`, `action`, `agent`, \
                          `executable`, a name, `initially` or `goal`",
                    ),
                ));
            }
        };
        if here < part {
            let (was, at) = last.expect("a later part was seen");
            return Err(Diagnostic::error(
                start,
                format!("{} after {}", here.shown(), was.shown()),
            )
            .with_note(at, format!("{} is here", was.shown()))
            .with_hint(ORDER));
        }
        part = here;
        last = Some((here, start));
        match p.peek().clone() {
            Tok::Fluent | Tok::Action | Tok::Agent => {
                p.bump();
                let names = p.list(Parser::name)?;
                p.expect(&Tok::Semi, "`,` or `;`")?;
                match here {
                    Part::Fluents => input.fluents.extend(names),
                    Part::Actions => input.actions.extend(names),
                    _ => input.agents.extend(names),
                }
            }
            Tok::Initially | Tok::Goal => {
                p.bump();
                let f = p.formula()?;
                p.expect(&Tok::Semi, "`,`, `|` or `;`")?;
                match here {
                    Part::Initially => input.initially.push(f),
                    _ => input.goals.push(f),
                }
            }
            Tok::Executable => {
                p.bump();
                let action = p.name()?;
                let cond = p.condition()?;
                let end = p.expect(&Tok::Semi, "`if` or `;`")?;
                input.laws.push(Law {
                    action,
                    kind: LawKind::Executable(cond),
                    span: start.to(end),
                });
            }
            _ => {
                let first = p.name()?;
                let verb = p.peek().clone();
                let (action, kind) = match verb {
                    Tok::Causes | Tok::Determines | Tok::Announces => {
                        p.bump();
                        let lits = p.list(Parser::literal)?;
                        let cond = p.condition()?;
                        let kind = match verb {
                            Tok::Causes => LawKind::Causes(lits, cond),
                            Tok::Determines => LawKind::Determines(lits, cond),
                            _ => LawKind::Announces(lits, cond),
                        };
                        (first, kind)
                    }
                    Tok::Observes | Tok::AwareOf => {
                        p.bump();
                        let action = p.name()?;
                        let cond = p.condition()?;
                        let kind = match verb {
                            Tok::Observes => LawKind::Observes(first, cond),
                            _ => LawKind::AwareOf(first, cond),
                        };
                        (action, kind)
                    }
                    _ => {
                        return Err(p.unexpected(
                            "`causes`, `determines`, `announces`, `observes` or `aware_of`",
                            None,
                        ));
                    }
                };
                let end = p.expect(&Tok::Semi, "`,`, `|`, `if` or `;`")?;
                input.laws.push(Law {
                    action,
                    kind,
                    span: start.to(end),
                });
            }
        }
    }
    Ok(input)
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.tokens[(self.pos + k).min(self.tokens.len() - 1)].tok
    }

    fn span(&self) -> Span {
        self.tokens[self.pos].span
    }

    fn bump(&mut self) -> Span {
        let span = self.span();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        span
    }

    fn unexpected(&self, expected: &str, hint: Option<&str>) -> Diagnostic {
        let found = self.peek();
        let mut d = Diagnostic::error(
            self.span(),
            format!("expected {expected}, found {}", found.shown()),
        );
        let hint = match (hint, found) {
            (Some(h), _) => Some(h.to_string()),
            (None, Tok::Reserved(w)) => Some(format!(
                "`{w}` is a word deep's scanner reserves: no name can be spelled so"
            )),
            (None, Tok::B | Tok::C | Tok::E) => {
                Some("`B`, `C` and `E` are the belief operators: no name can be spelled so".into())
            }
            _ => None,
        };
        if let Some(h) = hint {
            d = d.with_hint(h);
        }
        d
    }

    fn expect(&mut self, tok: &Tok, expected: &str) -> Parsed<Span> {
        if self.peek() == tok {
            Ok(self.bump())
        } else {
            Err(self.unexpected(expected, None))
        }
    }

    /// `x, y, z` of one kind.
    fn list<T>(&mut self, item: fn(&mut Self) -> Parsed<T>) -> Parsed<Vec<T>> {
        let mut out = vec![item(self)?];
        while self.peek() == &Tok::Comma {
            self.bump();
            out.push(item(self)?);
        }
        Ok(out)
    }

    /// `f` or `f(p, q)` (parameters are names or numbers).
    fn name(&mut self) -> Parsed<Name> {
        let Tok::Id(word) = self.peek().clone() else {
            return Err(self.unexpected("a name", None));
        };
        let start = self.bump();
        let mut text = word;
        let mut end = start;
        if self.peek() == &Tok::LParen {
            self.bump();
            let mut params = Vec::new();
            loop {
                match self.peek().clone() {
                    Tok::Id(w) | Tok::Number(w) => {
                        params.push(w);
                        self.bump();
                    }
                    _ => return Err(self.unexpected("a parameter (a name or a number)", None)),
                }
                match self.peek() {
                    Tok::Comma => {
                        self.bump();
                    }
                    Tok::RParen => {
                        end = self.bump();
                        break;
                    }
                    _ => return Err(self.unexpected("`,` or `)`", None)),
                }
            }
            text = format!("{text}({})", params.join(","));
        }
        Ok(Name {
            text,
            span: start.to(end),
        })
    }

    fn literal(&mut self) -> Parsed<Lit> {
        let sign = match self.peek() {
            Tok::Neg => {
                self.bump();
                Sign::Neg
            }
            _ => Sign::Pos,
        };
        if !matches!(self.peek(), Tok::Id(_)) {
            return Err(self.unexpected("a fluent", None));
        }
        Ok(Lit {
            sign,
            fluent: self.name()?,
        })
    }

    /// `if φ`, or nothing.
    fn condition(&mut self) -> Parsed<Option<Form>> {
        if self.peek() == &Tok::If {
            self.bump();
            Ok(Some(self.formula()?))
        } else {
            Ok(None)
        }
    }

    /// `φ | ψ | …` of conjunctions.
    fn formula(&mut self) -> Parsed<Form> {
        let mut left = self.conjunction()?;
        while self.peek() == &Tok::Or {
            self.bump();
            let right = self.conjunction()?;
            let span = left.span.to(right.span);
            left = Form {
                kind: FormKind::Or(Box::new(left), Box::new(right)),
                span,
            };
        }
        Ok(left)
    }

    fn conjunction(&mut self) -> Parsed<Form> {
        let mut left = self.primary()?;
        while self.peek() == &Tok::Comma {
            self.bump();
            let right = self.primary()?;
            let span = left.span.to(right.span);
            left = Form {
                kind: FormKind::And(Box::new(left), Box::new(right)),
                span,
            };
        }
        Ok(left)
    }

    fn group(&mut self) -> Parsed<Vec<Name>> {
        self.expect(&Tok::LBracket, "`[` and the group's agents")?;
        let agents = self.list(Parser::name)?;
        self.expect(&Tok::RBracket, "`,` or `]`")?;
        Ok(agents)
    }

    fn primary(&mut self) -> Parsed<Form> {
        let start = self.span();
        match self.peek().clone() {
            Tok::Neg => {
                if !matches!(self.peek_at(1), Tok::Id(_)) {
                    self.bump();
                    return Err(self.unexpected(
                        "a fluent after `-`",
                        Some("a formula is negated in parentheses: `(-B(a, f))`"),
                    ));
                }
                let lit = self.literal()?;
                let span = start.to(lit.fluent.span);
                Ok(Form {
                    kind: FormKind::Lit(lit),
                    span,
                })
            }
            Tok::Id(_) => {
                let lit = self.literal()?;
                let span = lit.fluent.span;
                Ok(Form {
                    kind: FormKind::Lit(lit),
                    span,
                })
            }
            Tok::B | Tok::C | Tok::E => {
                let op = self.peek().clone();
                self.bump();
                self.expect(&Tok::LParen, "`(`")?;
                let kind_agents = match op {
                    Tok::B => Err(self.name()?),
                    _ => Ok(self.group()?),
                };
                self.expect(&Tok::Comma, "`,` and a formula")?;
                let inner = Box::new(self.formula()?);
                let end = self.expect(&Tok::RParen, "`,`, `|` or `)`")?;
                let kind = match (op, kind_agents) {
                    (_, Err(agent)) => FormKind::B(agent, inner),
                    (Tok::C, Ok(group)) => FormKind::C(group, inner),
                    (_, Ok(group)) => FormKind::E(group, inner),
                };
                Ok(Form {
                    kind,
                    span: start.to(end),
                })
            }
            Tok::LParen => {
                self.bump();
                // `(-f, …)` starts with a literal; `(-B(…))`, `(-(…))` negate a formula.
                let negated = self.peek() == &Tok::Neg && !matches!(self.peek_at(1), Tok::Id(_));
                if negated {
                    self.bump();
                }
                let inner = self.formula()?;
                let end = self.expect(&Tok::RParen, "`,`, `|` or `)`")?;
                let span = start.to(end);
                Ok(match negated {
                    true => Form {
                        kind: FormKind::Not(Box::new(inner)),
                        span,
                    },
                    false => Form {
                        kind: inner.kind,
                        span,
                    },
                })
            }
            _ => Err(self.unexpected("a formula", None)),
        }
    }
}
