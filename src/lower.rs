//! Name resolution and type checking: syntax tree → [`ir::Program`].
//!
//! Every statement is checked even after an error, so a story reports all its problems
//! at once. An expression whose subterm already failed lowers to `None` (the internal
//! "error type"), and the expressions around it stay quiet about it, so one mistake gives
//! one diagnostic.

use std::collections::HashMap;

use crate::ir::{self, CharId, CheckpointId, ConstId, Ty};
use crate::syntax::ast::{self, BinOp, ExprKind, Ident, StmtKind, UnOp};
use crate::syntax::{Diagnostic, Span};

/// The limit of `worlds` without a number.
const DEFAULT_WORLDS_LIMIT: u64 = 10;

/// The built-in functions, for "did you mean" hints.
const FUNCTIONS: [&str; 3] = ["knows", "knows_value", "at"];

/// Resolves names and checks types, reporting every error found.
pub fn lower(story: &ast::Story) -> Result<ir::Program, Vec<Diagnostic>> {
    let mut lowerer = Lowerer::new(story);
    for (index, stmt) in story.statements.iter().enumerate() {
        lowerer.current = index;
        lowerer.stmt(stmt);
    }
    lowerer.finish()
}

/// What a character or constant name stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entity {
    Character(CharId),
    Constant(ConstId),
}

/// How a binary operator types its operands.
#[derive(Debug, Clone, Copy)]
enum OpClass {
    /// int, int → int
    Arith(ir::ArithOp),
    /// int, int → bool
    Order(ir::CmpOp),
    /// same type twice → bool
    Equality(ir::CmpOp),
    /// bool, bool → bool
    Logic(ir::LogicOp),
}

/// Who "knows" means when the agent is left out.
#[derive(Debug, Clone, Copy)]
enum Speaker {
    /// `announce …`: the agent must be named.
    Storyteller,
    /// `A: …`
    Character(CharId),
    /// `X: …` where `X` did not resolve (already reported): stay quiet.
    Unresolved,
}

/// Where an expression sits.
#[derive(Debug, Clone, Copy)]
struct Ctx<'s> {
    speaker: Speaker,
    /// `Some(name)` inside `name learns …`, where knowledge operators are not allowed.
    learner: Option<&'s str>,
}

struct Lowerer {
    characters: Vec<ir::Character>,
    constants: Vec<ir::Constant>,
    checkpoints: Vec<ir::Checkpoint>,
    statements: Vec<ir::Stmt>,
    /// Characters and constants declared so far (one namespace).
    names: HashMap<String, Entity>,
    /// Checkpoints defined so far (their own namespace).
    checkpoint_ids: HashMap<String, CheckpointId>,
    /// The statement index where each character/constant name is first declared.
    declared_at: HashMap<String, usize>,
    /// The statement index where each checkpoint is first defined.
    defined_at: HashMap<String, usize>,
    /// The index of the statement being lowered.
    current: usize,
    diagnostics: Vec<Diagnostic>,
}

impl Lowerer {
    fn new(story: &ast::Story) -> Lowerer {
        let mut declared_at = HashMap::new();
        let mut defined_at = HashMap::new();
        for (index, stmt) in story.statements.iter().enumerate() {
            match &stmt.kind {
                StmtKind::Characters(names) | StmtKind::Constants { names, .. } => {
                    for name in names {
                        declared_at.entry(name.name.clone()).or_insert(index);
                    }
                }
                StmtKind::Checkpoint(name) => {
                    defined_at.entry(name.name.clone()).or_insert(index);
                }
                _ => {}
            }
        }
        Lowerer {
            characters: Vec::new(),
            constants: Vec::new(),
            checkpoints: Vec::new(),
            statements: Vec::new(),
            names: HashMap::new(),
            checkpoint_ids: HashMap::new(),
            declared_at,
            defined_at,
            current: 0,
            diagnostics: Vec::new(),
        }
    }

    fn finish(mut self) -> Result<ir::Program, Vec<Diagnostic>> {
        if self.diagnostics.is_empty() {
            Ok(ir::Program {
                characters: self.characters,
                constants: self.constants,
                checkpoints: self.checkpoints,
                enums: Vec::new(),
                statements: self.statements,
            })
        } else {
            // Expressions report inner problems before outer ones; show them in source order.
            self.diagnostics.sort_by_key(|d| d.span.start);
            Err(self.diagnostics)
        }
    }

    fn error(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    // ----- statements -----

    fn stmt(&mut self, stmt: &ast::Stmt) {
        let kind = match &stmt.kind {
            StmtKind::Characters(names) => {
                for name in names {
                    if self.declare(name) {
                        let id = CharId(self.characters.len());
                        self.characters.push(ir::Character {
                            name: name.name.clone(),
                            span: name.span,
                        });
                        self.names.insert(name.name.clone(), Entity::Character(id));
                    }
                }
                None
            }
            StmtKind::Constants { sort, names } => {
                let ty = match sort {
                    ast::SortName::Int => Ty::Int,
                    ast::SortName::Bool => Ty::Bool,
                };
                for name in names {
                    if self.declare(name) {
                        let id = ConstId(self.constants.len());
                        self.constants.push(ir::Constant {
                            name: name.name.clone(),
                            ty,
                            span: name.span,
                        });
                        self.names.insert(name.name.clone(), Entity::Constant(id));
                    }
                }
                None
            }
            StmtKind::Announce(what) => {
                let ctx = Ctx {
                    speaker: Speaker::Storyteller,
                    learner: None,
                };
                let formula = self.expr(what, ctx);
                self.formula(formula).map(|formula| ir::StmtKind::Announce {
                    speaker: None,
                    formula,
                })
            }
            StmtKind::Says { speaker, what } => {
                let who = self.character(speaker);
                let speaker_ctx = who.map_or(Speaker::Unresolved, Speaker::Character);
                let formula = self.expr(
                    what,
                    Ctx {
                        speaker: speaker_ctx,
                        learner: None,
                    },
                );
                let formula = self.formula(formula);
                match (who, formula) {
                    (Some(who), Some(formula)) => Some(ir::StmtKind::Announce {
                        speaker: Some(who),
                        formula,
                    }),
                    _ => None,
                }
            }
            StmtKind::Learns { who, what } => {
                let learner = self.character(who);
                // A learner who is not a character is already reported; the learned
                // expression still gets checked (its agent does not matter there).
                let ctx = Ctx {
                    speaker: Speaker::Unresolved,
                    learner: Some(who.name.as_str()),
                };
                let what = self.expr(what, ctx);
                match (learner, what) {
                    (Some(who), Some(what)) => Some(ir::StmtKind::Learn { who, what }),
                    _ => None,
                }
            }
            StmtKind::Checkpoint(name) => {
                if self.checkpoint_ids.contains_key(&name.name) {
                    self.error(
                        Diagnostic::error(
                            name.span,
                            format!("checkpoint `{}` is already defined", name.name),
                        )
                        .with_hint("checkpoint names must be unique"),
                    );
                    None
                } else {
                    let id = CheckpointId(self.checkpoints.len());
                    self.checkpoints.push(ir::Checkpoint {
                        name: name.name.clone(),
                        span: name.span,
                    });
                    self.checkpoint_ids.insert(name.name.clone(), id);
                    Some(ir::StmtKind::Checkpoint(id))
                }
            }
            StmtKind::Worlds { limit } => match limit {
                None => Some(ir::StmtKind::Worlds {
                    limit: DEFAULT_WORLDS_LIMIT,
                }),
                Some((0, span)) => {
                    self.error(Diagnostic::error(*span, "a limit must be at least 1"));
                    None
                }
                Some((limit, _)) => Some(ir::StmtKind::Worlds { limit: *limit }),
            },
        };
        if let Some(kind) = kind {
            self.statements.push(ir::Stmt {
                kind,
                span: stmt.span,
            });
        }
    }

    /// Checks that a character/constant name is new; reports it otherwise.
    fn declare(&mut self, name: &Ident) -> bool {
        if self.names.contains_key(&name.name) {
            self.error(
                Diagnostic::error(name.span, format!("`{}` is already declared", name.name))
                    .with_hint("names of characters and constants must be unique"),
            );
            false
        } else {
            true
        }
    }

    /// A statement-level formula must be bool.
    fn formula(&mut self, formula: Option<ir::Expr>) -> Option<ir::Expr> {
        let formula = formula?;
        self.expect(&formula, Ty::Bool).then_some(formula)
    }

    /// Reports `expr` unless it has type `want`.
    fn expect(&mut self, expr: &ir::Expr, want: Ty) -> bool {
        if expr.ty == want {
            true
        } else {
            self.error(Diagnostic::error(
                expr.span,
                format!("expected {}, found {}", want.name(), expr.ty.name()),
            ));
            false
        }
    }

    /// Like [`Lowerer::expect`], but quiet about an expression that already failed.
    fn expect_opt(&mut self, expr: &Option<ir::Expr>, want: Ty) -> bool {
        match expr {
            Some(expr) => self.expect(expr, want),
            None => false,
        }
    }

    // ----- names -----

    fn char_names(&self) -> Vec<&str> {
        self.characters.iter().map(|c| c.name.as_str()).collect()
    }

    fn const_names(&self) -> Vec<&str> {
        self.constants.iter().map(|c| c.name.as_str()).collect()
    }

    /// A name in a character's position (`A learns`, `A:`, `knows(A, …)`).
    fn character(&mut self, name: &Ident) -> Option<CharId> {
        match self.names.get(&name.name) {
            Some(Entity::Character(id)) => Some(*id),
            Some(Entity::Constant(_)) => {
                let mut diagnostic =
                    Diagnostic::error(name.span, format!("`{}` is not a character", name.name));
                if !self.characters.is_empty() {
                    diagnostic = diagnostic
                        .with_hint(format!("the characters are {}", list(&self.char_names())));
                }
                self.error(diagnostic);
                None
            }
            None => {
                let candidates = self.char_names();
                let hint = self.unknown_hint(name, &candidates, "characters");
                self.error(
                    Diagnostic::error(name.span, format!("unknown name `{}`", name.name))
                        .with_hint(hint),
                );
                None
            }
        }
    }

    /// A name used as a value. `maybe_agent`: the name stands where a character could
    /// have been meant too (the first argument of `knows`/`knows_value`), so characters
    /// count for "did you mean".
    /// `span` is the whole expression's (it may include parentheses).
    fn value(&mut self, name: &Ident, span: Span, maybe_agent: bool) -> Option<ir::Expr> {
        match self.names.get(&name.name) {
            Some(Entity::Constant(id)) => Some(ir::Expr {
                kind: ir::ExprKind::Const(*id),
                ty: self.constants[id.0].ty,
                span,
            }),
            Some(Entity::Character(_)) => {
                self.error(
                    Diagnostic::error(name.span, format!("`{}` is a character, not a value", name.name)).with_hint(
                        format!(
                            "to talk about what {0} knows, use `knows({0}, …)` or `knows_value({0}, …)`",
                            name.name
                        ),
                    ),
                );
                None
            }
            None if self.checkpoint_ids.contains_key(&name.name) => {
                self.error(
                    Diagnostic::error(
                        name.span,
                        format!("`{}` is a checkpoint, not a value", name.name),
                    )
                    .with_hint(format!(
                        "to evaluate a formula at a checkpoint, use `at({}, …)`",
                        name.name
                    )),
                );
                None
            }
            None => {
                let mut candidates = self.const_names();
                if maybe_agent {
                    candidates.extend(self.char_names());
                }
                let hint = self.unknown_hint(name, &candidates, "int");
                self.error(
                    Diagnostic::error(name.span, format!("unknown name `{}`", name.name))
                        .with_hint(hint),
                );
                None
            }
        }
    }

    /// The hint for an unknown character/constant name: declared later, a close name, or
    /// how to declare it.
    fn unknown_hint(&self, name: &Ident, candidates: &[&str], declare_with: &str) -> String {
        if self
            .declared_at
            .get(&name.name)
            .is_some_and(|&at| at > self.current)
        {
            format!("`{}` is declared later in the story", name.name)
        } else if let Some(close) = closest(&name.name, candidates.iter().copied()) {
            format!("did you mean `{close}`?")
        } else {
            format!("declare it first, e.g. `{declare_with} {}`", name.name)
        }
    }

    /// The checkpoint named by the first argument of `at`.
    fn checkpoint(&mut self, name: &Ident) -> Option<CheckpointId> {
        if let Some(id) = self.checkpoint_ids.get(&name.name) {
            return Some(*id);
        }
        let diagnostic = if self
            .defined_at
            .get(&name.name)
            .is_some_and(|&at| at >= self.current)
        {
            Diagnostic::error(
                name.span,
                format!("checkpoint `{}` is defined after this statement", name.name),
            )
            .with_hint("`at` can only look back at checkpoints that come earlier in the story")
        } else {
            let names: Vec<&str> = self.checkpoints.iter().map(|c| c.name.as_str()).collect();
            let hint = match closest(&name.name, names.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("define it first with `checkpoint {}`", name.name),
            };
            Diagnostic::error(name.span, format!("unknown checkpoint `{}`", name.name))
                .with_hint(hint)
        };
        self.error(diagnostic);
        None
    }

    /// The agent of `knows(φ)` / `knows_value(e, …)`, which must be the speaker.
    fn implicit_agent(&mut self, ctx: Ctx, function: &str, call: Span) -> Option<CharId> {
        match ctx.speaker {
            Speaker::Character(id) => Some(id),
            Speaker::Unresolved => None,
            Speaker::Storyteller => {
                let example = self
                    .characters
                    .first()
                    .map_or("Albert", |c| c.name.as_str());
                let diagnostic = Diagnostic::error(call, format!("`{function}` needs a character here"))
                    .with_hint(format!(
                        "outside `{example}: …` name the character first, e.g. `{function}({example}, …)`"
                    ));
                self.error(diagnostic);
                None
            }
        }
    }

    /// Whether `expr` is a plain name of a character declared so far.
    fn names_character(&self, expr: &ast::Expr) -> bool {
        matches!(&expr.kind, ExprKind::Name(id)
            if matches!(self.names.get(&id.name), Some(Entity::Character(_))))
    }

    // ----- expressions -----

    fn expr(&mut self, expr: &ast::Expr, ctx: Ctx) -> Option<ir::Expr> {
        self.expr_in(expr, ctx, false)
    }

    /// `maybe_agent`: see [`Lowerer::value`].
    fn expr_in(&mut self, expr: &ast::Expr, ctx: Ctx, maybe_agent: bool) -> Option<ir::Expr> {
        let span = expr.span;
        let typed = |kind, ty| Some(ir::Expr { kind, ty, span });
        match &expr.kind {
            ExprKind::Int(n) => typed(ir::ExprKind::Int(*n), Ty::Int),
            ExprKind::Bool(b) => typed(ir::ExprKind::Bool(*b), Ty::Bool),
            ExprKind::Name(name) => self.value(name, span, maybe_agent),
            ExprKind::Unary { op, operand } => {
                let operand = self.expr(operand, ctx)?;
                match op {
                    UnOp::Neg => {
                        if !self.expect(&operand, Ty::Int) {
                            return None;
                        }
                        match operand.kind {
                            ir::ExprKind::Int(n) if n.checked_neg().is_some() => {
                                typed(ir::ExprKind::Int(-n), Ty::Int)
                            }
                            _ => typed(ir::ExprKind::Neg(Box::new(operand)), Ty::Int),
                        }
                    }
                    UnOp::Not => {
                        if !self.expect(&operand, Ty::Bool) {
                            return None;
                        }
                        typed(ir::ExprKind::Not(Box::new(operand)), Ty::Bool)
                    }
                }
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, span, ctx),
            ExprKind::Ite {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.expr(cond, ctx);
                let then = self.expr(then, ctx);
                let otherwise = self.expr(otherwise, ctx);
                let cond_ok = self.expect_opt(&cond, Ty::Bool);
                let (cond, then, otherwise) = (cond?, then?, otherwise?);
                if then.ty != otherwise.ty {
                    self.error(Diagnostic::error(
                        span,
                        format!(
                            "the branches of `if` have different types: {} and {}",
                            then.ty.name(),
                            otherwise.ty.name()
                        ),
                    ));
                    return None;
                }
                if !cond_ok {
                    return None;
                }
                let ty = then.ty;
                typed(
                    ir::ExprKind::Ite(Box::new(cond), Box::new(then), Box::new(otherwise)),
                    ty,
                )
            }
            ExprKind::Tuple(items) => {
                for item in items {
                    self.expr(item, ctx);
                }
                self.error(
                    Diagnostic::error(span, "a tuple can only be used with `in`").with_hint(
                        "write `(a, b) in {(1, 2), (3, 4)}`, or compare the values one by one",
                    ),
                );
                None
            }
            ExprKind::In { element, set } => self.membership(element, set, span, ctx),
            ExprKind::Call { name, args } => self.call(name, args, span, ctx),
        }
    }

    fn binary(
        &mut self,
        op: BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let lhs = self.expr(lhs, ctx);
        let rhs = self.expr(rhs, ctx);
        let class = match op {
            BinOp::Add => OpClass::Arith(ir::ArithOp::Add),
            BinOp::Sub => OpClass::Arith(ir::ArithOp::Sub),
            BinOp::Mul => OpClass::Arith(ir::ArithOp::Mul),
            BinOp::Div => OpClass::Arith(ir::ArithOp::Div),
            BinOp::Mod => OpClass::Arith(ir::ArithOp::Mod),
            BinOp::Eq => OpClass::Equality(ir::CmpOp::Eq),
            BinOp::Ne => OpClass::Equality(ir::CmpOp::Ne),
            BinOp::Lt => OpClass::Order(ir::CmpOp::Lt),
            BinOp::Le => OpClass::Order(ir::CmpOp::Le),
            BinOp::Gt => OpClass::Order(ir::CmpOp::Gt),
            BinOp::Ge => OpClass::Order(ir::CmpOp::Ge),
            BinOp::And => OpClass::Logic(ir::LogicOp::And),
            BinOp::Or => OpClass::Logic(ir::LogicOp::Or),
            BinOp::Implies => OpClass::Logic(ir::LogicOp::Implies),
            BinOp::Iff => OpClass::Logic(ir::LogicOp::Iff),
        };
        let operand_ty = match class {
            OpClass::Arith(_) | OpClass::Order(_) => Some(Ty::Int),
            OpClass::Logic(_) => Some(Ty::Bool),
            OpClass::Equality(_) => None,
        };
        match operand_ty {
            Some(want) => {
                // Non-short-circuit `&`: both operands get reported.
                let ok = self.expect_opt(&lhs, want) & self.expect_opt(&rhs, want);
                if !ok {
                    return None;
                }
            }
            None => {
                let (l, r) = (lhs.as_ref()?, rhs.as_ref()?);
                if l.ty != r.ty {
                    self.error(Diagnostic::error(
                        span,
                        format!("cannot compare {} with {}", l.ty.name(), r.ty.name()),
                    ));
                    return None;
                }
            }
        }
        let (lhs, rhs) = (Box::new(lhs?), Box::new(rhs?));
        let (kind, ty) = match class {
            OpClass::Arith(op) => (ir::ExprKind::Arith(op, lhs, rhs), Ty::Int),
            OpClass::Order(op) | OpClass::Equality(op) => {
                (ir::ExprKind::Cmp(op, lhs, rhs), Ty::Bool)
            }
            OpClass::Logic(op) => (ir::ExprKind::Logic(op, lhs, rhs), Ty::Bool),
        };
        Some(ir::Expr { kind, ty, span })
    }

    /// `e in {…}` / `(e1, …, en) in {(…), …}`.
    fn membership(
        &mut self,
        element: &ast::Expr,
        set: &[ast::Expr],
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let components = match &element.kind {
            ExprKind::Tuple(items) => items.as_slice(),
            _ => std::slice::from_ref(element),
        };
        let arity = components.len();
        let tuple: Vec<Option<ir::Expr>> = components.iter().map(|c| self.expr(c, ctx)).collect();
        let mut ok = tuple.iter().all(Option::is_some);
        let mut items = Vec::with_capacity(set.len());
        for item in set {
            let values = match &item.kind {
                ExprKind::Tuple(values) => values.as_slice(),
                _ => std::slice::from_ref(item),
            };
            if values.len() != arity {
                let plural = if values.len() == 1 { "value" } else { "values" };
                self.error(Diagnostic::error(
                    item.span,
                    format!(
                        "this set item has {} {plural}, the element has {arity}",
                        values.len()
                    ),
                ));
                // Still look inside for other mistakes.
                for value in values {
                    self.expr(value, ctx);
                }
                ok = false;
                continue;
            }
            let mut lowered = Vec::with_capacity(arity);
            for (value, component) in values.iter().zip(&tuple) {
                let value = self.expr(value, ctx);
                if let (Some(value), Some(component)) = (&value, component) {
                    ok &= self.expect(value, component.ty);
                }
                match value {
                    Some(value) => lowered.push(value),
                    None => ok = false,
                }
            }
            items.push(lowered);
        }
        if !ok {
            return None;
        }
        let tuple = tuple.into_iter().collect::<Option<Vec<_>>>()?;
        Some(ir::Expr {
            kind: ir::ExprKind::In { tuple, set: items },
            ty: Ty::Bool,
            span,
        })
    }

    fn call(&mut self, name: &Ident, args: &[ast::Expr], span: Span, ctx: Ctx) -> Option<ir::Expr> {
        let function = name.name.as_str();
        if !FUNCTIONS.contains(&function) {
            let hint = match closest(function, FUNCTIONS.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => "the functions are `knows`, `knows_value` and `at`".to_string(),
            };
            self.error(
                Diagnostic::error(name.span, format!("unknown function `{function}`"))
                    .with_hint(hint),
            );
            // Look inside for other mistakes; a leading plain name may be meant as a
            // character or checkpoint, so leave it alone.
            for (i, arg) in args.iter().enumerate() {
                if !(i == 0 && matches!(arg.kind, ExprKind::Name(_))) {
                    self.expr(arg, ctx);
                }
            }
            return None;
        }
        if let Some(learner) = ctx.learner {
            self.error(Diagnostic::error(
                span,
                format!("`{learner} learns` takes a constant or an expression of constants, not a knowledge operator"),
            ));
            return None;
        }
        match function {
            "knows" => self.knows(args, span, ctx),
            "knows_value" => self.knows_value(args, span, ctx),
            _ => self.at(args, span, ctx),
        }
    }

    fn knows(&mut self, args: &[ast::Expr], span: Span, ctx: Ctx) -> Option<ir::Expr> {
        let arity_error = |span| Diagnostic::error(span, "`knows` takes a character and a formula");
        let (agent, formula) = match args {
            [who, formula] => {
                let agent = match &who.kind {
                    ExprKind::Name(who) => self.character(who),
                    _ => {
                        self.error(arity_error(who.span));
                        None
                    }
                };
                (agent, self.expr(formula, ctx))
            }
            [only] if self.names_character(only) => {
                self.error(arity_error(span));
                return None;
            }
            [formula] => {
                let agent = self.implicit_agent(ctx, "knows", span);
                (agent, self.expr_in(formula, ctx, true))
            }
            _ => {
                self.error(arity_error(span));
                return None;
            }
        };
        let formula_ok = self.expect_opt(&formula, Ty::Bool);
        let (agent, formula) = (agent?, formula?);
        if !formula_ok {
            return None;
        }
        Some(ir::Expr {
            kind: ir::ExprKind::Knows {
                agent,
                formula: Box::new(formula),
            },
            ty: Ty::Bool,
            span,
        })
    }

    fn knows_value(&mut self, args: &[ast::Expr], span: Span, ctx: Ctx) -> Option<ir::Expr> {
        let (named_agent, exprs) = match args {
            [first, rest @ ..] if self.names_character(first) => match &first.kind {
                ExprKind::Name(who) => (Some(who), rest),
                _ => (None, args),
            },
            _ => (None, args),
        };
        if exprs.is_empty() {
            self.error(Diagnostic::error(
                span,
                "`knows_value` needs at least one expression",
            ));
            return None;
        }
        let agent = match named_agent {
            Some(who) => self.character(who),
            None => self.implicit_agent(ctx, "knows_value", span),
        };
        let lowered: Vec<Option<ir::Expr>> = exprs
            .iter()
            .enumerate()
            .map(|(i, e)| self.expr_in(e, ctx, i == 0 && named_agent.is_none()))
            .collect();
        let agent = agent?;
        let exprs = lowered.into_iter().collect::<Option<Vec<_>>>()?;
        Some(ir::Expr {
            kind: ir::ExprKind::KnowsValue { agent, exprs },
            ty: Ty::Bool,
            span,
        })
    }

    fn at(&mut self, args: &[ast::Expr], span: Span, ctx: Ctx) -> Option<ir::Expr> {
        let arity_error = |span| Diagnostic::error(span, "`at` takes a checkpoint and a formula");
        let [checkpoint, body] = args else {
            self.error(arity_error(span));
            return None;
        };
        let checkpoint = match &checkpoint.kind {
            ExprKind::Name(name) => self.checkpoint(name),
            _ => {
                self.error(arity_error(checkpoint.span));
                None
            }
        };
        let body = self.expr(body, ctx);
        let body_ok = self.expect_opt(&body, Ty::Bool);
        let (checkpoint, body) = (checkpoint?, body?);
        if !body_ok {
            return None;
        }
        Some(ir::Expr {
            kind: ir::ExprKind::At {
                checkpoint,
                body: Box::new(body),
            },
            ty: Ty::Bool,
            span,
        })
    }
}

/// "`A`", "`A` and `B`", "`A`, `B` and `C`".
fn list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [only] => format!("`{only}`"),
        [init @ .., last] => {
            let init: Vec<String> = init.iter().map(|n| format!("`{n}`")).collect();
            format!("{} and `{last}`", init.join(", "))
        }
    }
}

/// The candidate closest to `name` if it is close enough to be a likely typo: edit
/// distance ≤ 2, or ≤ 1 for names of at most 3 characters. Ties go to the earliest.
fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = if name.chars().count() <= 3 { 1 } else { 2 };
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let distance = edit_distance(name, candidate);
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Edit distance over chars where inserting, deleting, replacing a char or swapping two
/// neighbours costs 1 (optimal string alignment), so `dya` is one step from `day`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: distance between a[..i] and b[..j].
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let substitute = d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = substitute.min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_and_closest() {
        assert_eq!(edit_distance("dya", "day"), 1);
        assert_eq!(edit_distance("abc", "abc"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(closest("dya", ["day", "month"]), Some("day"));
        assert_eq!(closest("dxx", ["day", "month"]), None);
        assert_eq!(closest("dy", ["day", "month"]), Some("day"));
        assert_eq!(closest("mnth", ["day", "month"]), Some("month"));
        assert_eq!(closest("know", FUNCTIONS), Some("knows"));
        assert_eq!(closest("knows_val", FUNCTIONS), Some("knows_value"));
    }

    // ----- stories through the parser -----

    /// (message, text under the span) for every diagnostic of a story that must fail.
    fn errors(src: &str) -> Vec<(String, String)> {
        let diagnostics = crate::compile(src).expect_err(src);
        diagnostics
            .iter()
            .map(|d| (d.message.clone(), src[d.span.start..d.span.end].to_string()))
            .collect()
    }

    /// The hints of the one diagnostic of a story.
    fn hints(src: &str) -> Vec<String> {
        let diagnostics = crate::compile(src).expect_err(src);
        assert_eq!(diagnostics.len(), 1, "{src}: {diagnostics:?}");
        diagnostics[0].hints.clone()
    }

    fn ok(src: &str) -> ir::Program {
        match crate::compile(src) {
            Ok(program) => program,
            Err(diagnostics) => panic!("{src}\n{diagnostics:#?}"),
        }
    }

    #[test]
    fn every_check_has_its_message_and_span() {
        let table: &[(&str, &[(&str, &str)])] = &[
            // names
            (
                "int day\nannounce dya == 1",
                &[("unknown name `dya`", "dya")],
            ),
            (
                "announce day == 1\nint day",
                &[("unknown name `day`", "day")],
            ),
            ("int day\nbool day", &[("`day` is already declared", "day")]),
            (
                "characters Albert\nint Albert",
                &[("`Albert` is already declared", "Albert")],
            ),
            (
                "characters Albert, Albert",
                &[("`Albert` is already declared", "Albert")],
            ),
            (
                "checkpoint start\ncheckpoint start",
                &[("checkpoint `start` is already defined", "start")],
            ),
            (
                "characters Albert\nannounce Albert == 1",
                &[("`Albert` is a character, not a value", "Albert")],
            ),
            (
                "checkpoint c\nannounce c",
                &[("`c` is a checkpoint, not a value", "c")],
            ),
            // characters
            (
                "int month\nmonth learns month",
                &[("`month` is not a character", "month")],
            ),
            (
                "int month\nmonth: month == 1",
                &[("`month` is not a character", "month")],
            ),
            (
                "characters Albert\nAlbrt: true",
                &[("unknown name `Albrt`", "Albrt")],
            ),
            (
                "characters Albert\nint m\nannounce knows(m, true)",
                &[("`m` is not a character", "m")],
            ),
            // types
            (
                "int x\nannounce x + 1",
                &[("expected bool, found int", "x + 1")],
            ),
            (
                "bool r\nannounce r + 1 == 2",
                &[("expected int, found bool", "r")],
            ),
            (
                "bool r\nannounce 1 < r",
                &[("expected int, found bool", "r")],
            ),
            (
                "int x\nannounce x and true",
                &[("expected bool, found int", "x")],
            ),
            (
                "int x\nannounce (x) and true",
                &[("expected bool, found int", "(x)")],
            ),
            (
                "int x\nannounce not x",
                &[("expected bool, found int", "x")],
            ),
            (
                "bool r\nannounce -r == 1",
                &[("expected int, found bool", "r")],
            ),
            (
                "int x\nbool r\nannounce x == r",
                &[("cannot compare int with bool", "x == r")],
            ),
            (
                "int x\nbool r\nannounce r != x",
                &[("cannot compare bool with int", "r != x")],
            ),
            (
                "int x\nannounce if x then true else false",
                &[("expected bool, found int", "x")],
            ),
            (
                "int x\nannounce (if x > 1 then x else true) == 1",
                &[(
                    "the branches of `if` have different types: int and bool",
                    "(if x > 1 then x else true)",
                )],
            ),
            // `in` and tuples
            (
                "int m, d\nannounce (m, d) in {(5, 15), (5, 15, 1)}",
                &[(
                    "this set item has 3 values, the element has 2",
                    "(5, 15, 1)",
                )],
            ),
            (
                "int m, d\nannounce (m, d) in {(5, 15), 5}",
                &[("this set item has 1 value, the element has 2", "5")],
            ),
            (
                "int m\nannounce m in {1, (2, 3)}",
                &[("this set item has 2 values, the element has 1", "(2, 3)")],
            ),
            (
                "int m\nannounce m in {1, true}",
                &[("expected int, found bool", "true")],
            ),
            (
                "int m\nbool r\nannounce (m, r) in {(1, 2)}",
                &[("expected bool, found int", "2")],
            ),
            (
                "int m, d\nannounce (m, d) == (1, 2)",
                &[
                    ("a tuple can only be used with `in`", "(m, d)"),
                    ("a tuple can only be used with `in`", "(1, 2)"),
                ],
            ),
            (
                "int m, d\nannounce ((m, d), 1) in {(1, 2)}",
                &[("a tuple can only be used with `in`", "(m, d)")],
            ),
            // knowledge operators
            (
                "characters Albert\nint m\nannounce knows(m == 1)",
                &[("`knows` needs a character here", "knows(m == 1)")],
            ),
            (
                "characters Bernard\nint m\nannounce knows_value(m)",
                &[("`knows_value` needs a character here", "knows_value(m)")],
            ),
            (
                "characters A\nannounce knows(A)",
                &[("`knows` takes a character and a formula", "knows(A)")],
            ),
            (
                "characters A\nannounce knows()",
                &[("`knows` takes a character and a formula", "knows()")],
            ),
            (
                "characters A\nannounce knows(A, true, true)",
                &[(
                    "`knows` takes a character and a formula",
                    "knows(A, true, true)",
                )],
            ),
            (
                "characters A\nannounce knows_value(A)",
                &[(
                    "`knows_value` needs at least one expression",
                    "knows_value(A)",
                )],
            ),
            (
                "characters A\nA: knows_value()",
                &[(
                    "`knows_value` needs at least one expression",
                    "knows_value()",
                )],
            ),
            (
                "characters A\nint m\nannounce knows(A, m)",
                &[("expected bool, found int", "m")],
            ),
            (
                "characters A\nint m\nA: knows(m + 1)",
                &[("expected bool, found int", "m + 1")],
            ),
            (
                "characters A\nint m\nA: knows_value(A, B)",
                &[("unknown name `B`", "B")],
            ),
            (
                "announce know(true)",
                &[("unknown function `know`", "know")],
            ),
            ("announce foo(true)", &[("unknown function `foo`", "foo")]),
            (
                "int m\nannounce foo(m, zz)",
                &[
                    ("unknown function `foo`", "foo"),
                    ("unknown name `zz`", "zz"),
                ],
            ),
            (
                "characters A\nint m\nA learns knows_value(A, m)",
                &[(
                    "`A learns` takes a constant or an expression of constants, not a knowledge operator",
                    "knows_value(A, m)",
                )],
            ),
            (
                "characters A\nint m\ncheckpoint c\nA learns m + (if at(c, true) then 1 else 0)",
                &[(
                    "`A learns` takes a constant or an expression of constants, not a knowledge operator",
                    "at(c, true)",
                )],
            ),
            // checkpoints
            (
                "int x\ncheckpoint start\nannounce at(strat, x == 1)",
                &[("unknown checkpoint `strat`", "strat")],
            ),
            (
                "int x\nannounce at(later, x == 1)\ncheckpoint later",
                &[(
                    "checkpoint `later` is defined after this statement",
                    "later",
                )],
            ),
            (
                "announce at(true)",
                &[("`at` takes a checkpoint and a formula", "at(true)")],
            ),
            (
                "checkpoint c\nannounce at(1, true)",
                &[("`at` takes a checkpoint and a formula", "1")],
            ),
            (
                "int x\ncheckpoint c\nannounce at(c, x)",
                &[("expected bool, found int", "x")],
            ),
            // worlds
            ("worlds 0", &[("a limit must be at least 1", "0")]),
        ];
        for (src, expected) in table {
            let expected: Vec<(String, String)> = expected
                .iter()
                .map(|(m, t)| (m.to_string(), t.to_string()))
                .collect();
            assert_eq!(errors(src), expected, "\n{src}");
        }
    }

    #[test]
    fn hints_say_what_to_do() {
        let table: &[(&str, &[&str])] = &[
            ("int day\nannounce dya == 1", &["did you mean `day`?"]),
            (
                "int day\nannounce zzz == 1",
                &["declare it first, e.g. `int zzz`"],
            ),
            (
                "announce day == 1\nint day",
                &["`day` is declared later in the story"],
            ),
            (
                "int day\nbool day",
                &["names of characters and constants must be unique"],
            ),
            (
                "characters Albert\nannounce Albert == 1",
                &[
                    "to talk about what Albert knows, use `knows(Albert, …)` or `knows_value(Albert, …)`",
                ],
            ),
            (
                "characters Albert\nAlbrt: true",
                &["did you mean `Albert`?"],
            ),
            (
                "characters Albert\nZed: true",
                &["declare it first, e.g. `characters Zed`"],
            ),
            (
                "characters Albert, Bernard\nint m\nm: true",
                &["the characters are `Albert` and `Bernard`"],
            ),
            // A character is a likely meaning of the first argument of `knows_value`.
            (
                "characters Bernard\nint month\nBernard: knows_value(Bernrd, month)",
                &["did you mean `Bernard`?"],
            ),
            (
                "characters Albert\nint m\nannounce knows(m == 1)",
                &["outside `Albert: …` name the character first, e.g. `knows(Albert, …)`"],
            ),
            (
                "characters Bernard\nint m\nannounce knows_value(m)",
                &["outside `Bernard: …` name the character first, e.g. `knows_value(Bernard, …)`"],
            ),
            (
                "bool r\nannounce knows(r)",
                &["outside `Albert: …` name the character first, e.g. `knows(Albert, …)`"],
            ),
            ("announce know(true)", &["did you mean `knows`?"]),
            ("announce knows_val(true)", &["did you mean `knows_value`?"]),
            (
                "announce foo(true)",
                &["the functions are `knows`, `knows_value` and `at`"],
            ),
            (
                "int x\ncheckpoint start\nannounce at(strat, x == 1)",
                &["did you mean `start`?"],
            ),
            (
                "int x\nannounce at(nowhere, x == 1)",
                &["define it first with `checkpoint nowhere`"],
            ),
        ];
        for (src, expected) in table {
            assert_eq!(hints(src), *expected, "\n{src}");
        }
    }

    #[test]
    fn duplicates_point_at_the_second_declaration() {
        for src in [
            "int day\nbool day",
            "characters A, A",
            "checkpoint s\ncheckpoint s",
        ] {
            let diagnostics = crate::compile(src).unwrap_err();
            let last = src.rfind(|c: char| c.is_alphabetic()).unwrap();
            assert_eq!(diagnostics[0].span.end, last + 1, "{src}");
        }
    }

    #[test]
    fn a_story_with_many_errors_reports_all_of_them() {
        let src = "\
characters Albert, Bernard
int month, day
int day
announce (month, day) in {(5, 15), (5, 16, 1)}
Albert learns mnth
Bernrd learns day
Albert: knows(Bernard, month)
announce knows(month == 5) and Albert
checkpoint start
announce at(strat, true) or at(end, true)
checkpoint end
worlds 0
";
        let expected = [
            ("`day` is already declared", "day"),
            (
                "this set item has 3 values, the element has 2",
                "(5, 16, 1)",
            ),
            ("unknown name `mnth`", "mnth"),
            ("unknown name `Bernrd`", "Bernrd"),
            ("expected bool, found int", "month"),
            ("`knows` needs a character here", "knows(month == 5)"),
            ("`Albert` is a character, not a value", "Albert"),
            ("unknown checkpoint `strat`", "strat"),
            ("checkpoint `end` is defined after this statement", "end"),
            ("a limit must be at least 1", "0"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(m, t)| (m.to_string(), t.to_string()))
            .collect();
        assert_eq!(errors(src), expected);
    }

    const CHERYL: &str = "\
characters Albert, Bernard
int month, day
announce (month, day) in {(5, 15), (5, 16), (5, 19), (6, 17), (6, 18),
                          (7, 14), (7, 16), (8, 14), (8, 15), (8, 17)}
Albert learns month
Bernard learns day
checkpoint start
Albert: not knows_value(month, day) and not knows_value(Bernard, month, day)
Bernard: at(start, not knows_value(month, day)) and knows_value(month, day)
Albert: knows_value(month, day)
worlds
";

    #[test]
    fn cheryls_birthday_lowers_to_ids_and_types() {
        use ir::ExprKind as E;
        let program = ok(CHERYL);
        let names: Vec<&str> = program.characters.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["Albert", "Bernard"]);
        let constants: Vec<(&str, Ty)> = program
            .constants
            .iter()
            .map(|c| (c.name.as_str(), c.ty))
            .collect();
        assert_eq!(constants, [("month", Ty::Int), ("day", Ty::Int)]);
        assert_eq!(program.checkpoints.len(), 1);
        assert_eq!(program.checkpoints[0].name, "start");
        assert_eq!(
            &CHERYL[program.characters[1].span.start..program.characters[1].span.end],
            "Bernard"
        );

        let kinds: Vec<&ir::StmtKind> = program.statements.iter().map(|s| &s.kind).collect();
        assert_eq!(kinds.len(), 8);
        let ir::StmtKind::Announce {
            speaker: None,
            formula,
        } = kinds[0]
        else {
            panic!("{:?}", kinds[0])
        };
        let E::In { tuple, set } = &formula.kind else {
            panic!("{formula:?}")
        };
        assert_eq!(
            tuple.iter().map(|e| &e.kind).collect::<Vec<_>>(),
            [&E::Const(ConstId(0)), &E::Const(ConstId(1))]
        );
        assert_eq!(set.len(), 10);
        assert_eq!(
            set[9].iter().map(|e| &e.kind).collect::<Vec<_>>(),
            [&E::Int(8), &E::Int(17)]
        );
        assert_eq!(formula.ty, Ty::Bool);

        let learn = |k: &ir::StmtKind| match k {
            ir::StmtKind::Learn {
                who,
                what:
                    ir::Expr {
                        kind: E::Const(c),
                        ty: Ty::Int,
                        ..
                    },
            } => (*who, *c),
            other => panic!("{other:?}"),
        };
        assert_eq!(learn(kinds[1]), (CharId(0), ConstId(0)));
        assert_eq!(learn(kinds[2]), (CharId(1), ConstId(1)));
        assert_eq!(kinds[3], &ir::StmtKind::Checkpoint(CheckpointId(0)));

        // Albert: not knows_value(month, day) and not knows_value(Bernard, month, day)
        let ir::StmtKind::Announce {
            speaker: Some(CharId(0)),
            formula,
        } = kinds[4]
        else {
            panic!("{:?}", kinds[4])
        };
        let E::Logic(ir::LogicOp::And, l, r) = &formula.kind else {
            panic!("{formula:?}")
        };
        let agent_of = |e: &ir::Expr| match &e.kind {
            E::Not(inner) => match &inner.kind {
                E::KnowsValue { agent, exprs } => (*agent, exprs.len()),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        };
        assert_eq!(agent_of(l), (CharId(0), 2));
        assert_eq!(agent_of(r), (CharId(1), 2));

        // Bernard: at(start, not knows_value(month, day)) and knows_value(month, day)
        let ir::StmtKind::Announce {
            speaker: Some(CharId(1)),
            formula,
        } = kinds[5]
        else {
            panic!("{:?}", kinds[5])
        };
        let E::Logic(ir::LogicOp::And, l, r) = &formula.kind else {
            panic!("{formula:?}")
        };
        let E::At {
            checkpoint: CheckpointId(0),
            body,
        } = &l.kind
        else {
            panic!("{l:?}")
        };
        assert_eq!(agent_of(body), (CharId(1), 2));
        assert!(matches!(
            &r.kind,
            E::KnowsValue {
                agent: CharId(1),
                ..
            }
        ));

        assert!(matches!(
            kinds[6],
            ir::StmtKind::Announce {
                speaker: Some(CharId(0)),
                ..
            }
        ));
        assert_eq!(kinds[7], &ir::StmtKind::Worlds { limit: 10 });
    }

    #[test]
    fn implicit_agents_and_disambiguation() {
        use ir::ExprKind as E;
        let src = "\
characters Albert, Bernard
int month
bool rain
Bernard: knows_value(month) and knows_value(Albert, month) and knows(rain) and knows(Albert, rain)
Bernard: knows(Albert, knows(rain))
worlds 25
";
        let program = ok(src);
        let ir::StmtKind::Announce {
            speaker: Some(CharId(1)),
            formula,
        } = &program.statements[0].kind
        else {
            panic!()
        };
        // ((a and b) and c) and d
        let mut agents = Vec::new();
        let mut rest = formula;
        while let E::Logic(ir::LogicOp::And, l, r) = &rest.kind {
            agents.push(&r.kind);
            rest = l;
        }
        agents.push(&rest.kind);
        agents.reverse();
        let month = || ir::Expr {
            kind: E::Const(ConstId(0)),
            ty: Ty::Int,
            span: Span::default(),
        };
        let agent = |k: &E| match k {
            E::KnowsValue { agent, exprs } => {
                assert_eq!(exprs.len(), 1);
                assert_eq!(exprs[0].kind, month().kind);
                *agent
            }
            E::Knows { agent, formula } => {
                assert_eq!(formula.kind, E::Const(ConstId(1)));
                *agent
            }
            other => panic!("{other:?}"),
        };
        let agents: Vec<CharId> = agents.into_iter().map(agent).collect();
        assert_eq!(agents, [CharId(1), CharId(0), CharId(1), CharId(0)]);

        // The speaker stays the implicit agent inside another character's `knows`.
        let ir::StmtKind::Announce { formula, .. } = &program.statements[1].kind else {
            panic!()
        };
        let E::Knows {
            agent: CharId(0),
            formula,
        } = &formula.kind
        else {
            panic!("{formula:?}")
        };
        assert!(matches!(
            formula.kind,
            E::Knows {
                agent: CharId(1),
                ..
            }
        ));
        assert_eq!(
            program.statements[2].kind,
            ir::StmtKind::Worlds { limit: 25 }
        );
    }

    #[test]
    fn at_with_an_earlier_checkpoint_and_literals() {
        use ir::ExprKind as E;
        let program =
            ok("characters A\nint x\ncheckpoint one\ncheckpoint two\nA: at(two, knows(x == -5))");
        let ir::StmtKind::Announce { formula, .. } = &program.statements[2].kind else {
            panic!()
        };
        let E::At {
            checkpoint: CheckpointId(1),
            body,
        } = &formula.kind
        else {
            panic!("{formula:?}")
        };
        let E::Knows {
            agent: CharId(0),
            formula,
        } = &body.kind
        else {
            panic!("{body:?}")
        };
        let E::Cmp(ir::CmpOp::Eq, l, r) = &formula.kind else {
            panic!("{formula:?}")
        };
        assert_eq!((&l.kind, &r.kind), (&E::Const(ConstId(0)), &E::Int(-5)));
        assert_eq!(r.ty, Ty::Int);
    }

    #[test]
    fn every_operator_types_its_result() {
        use ir::ExprKind as E;
        let src = "int x, y\nbool p, q\nannounce \
            (x + y * 2 - x / y % 3 == -(x) and x != y and x < y and x <= y and x > y and x >= y) \
            -> (p or q) <-> (if p then q else not q) and (p == q) and (p != q) and (x, p) in {(1, true)}";
        let program = ok(src);
        let ir::StmtKind::Announce { formula, .. } = &program.statements[0].kind else {
            panic!()
        };
        fn walk(e: &ir::Expr, seen: &mut Vec<&'static str>) {
            let (name, ty, children): (&'static str, Ty, Vec<&ir::Expr>) = match &e.kind {
                E::Int(_) => ("int", Ty::Int, vec![]),
                E::Bool(_) => ("bool", Ty::Bool, vec![]),
                E::Const(_) => ("const", e.ty, vec![]),
                E::Neg(a) => ("neg", Ty::Int, vec![a]),
                E::Not(a) => ("not", Ty::Bool, vec![a]),
                E::Arith(_, a, b) => ("arith", Ty::Int, vec![a, b]),
                E::Cmp(_, a, b) => ("cmp", Ty::Bool, vec![a, b]),
                E::Logic(_, a, b) => ("logic", Ty::Bool, vec![a, b]),
                E::Ite(c, a, b) => ("ite", a.ty, vec![c, a, b]),
                E::In { tuple, set } => (
                    "in",
                    Ty::Bool,
                    tuple.iter().chain(set.iter().flatten()).collect(),
                ),
                other => panic!("{other:?}"),
            };
            assert_eq!(e.ty, ty, "{e:?}");
            seen.push(name);
            for child in children {
                walk(child, seen);
            }
        }
        let mut seen = Vec::new();
        walk(formula, &mut seen);
        for name in [
            "int", "bool", "const", "neg", "not", "arith", "cmp", "logic", "ite", "in",
        ] {
            assert!(seen.contains(&name), "{name} missing from {seen:?}");
        }
    }

    /// Mangled stories (characters deleted, doubled, swapped, truncated) never panic.
    #[test]
    fn mangled_stories_do_not_panic() {
        let stories = [
            CHERYL,
            "characters A, B\nint x, y\nbool r\nannounce (x, y) in {(1, 2), (3, 4)} and (r -> x < y)\n\
             A learns x + y\ncheckpoint c\nB: at(c, knows(A, r) or knows_value(x, y))\nworlds 3\n",
        ];
        let replacements = [
            "(", ")", ",", "knows", "at", "A", "x", "{", "}", "in", "-", "if", "0", ":", "\n",
        ];
        let mut count = 0;
        for story in stories {
            let chars: Vec<(usize, char)> = story.char_indices().collect();
            for &(at, c) in &chars {
                let after = at + c.len_utf8();
                let mut variants = vec![
                    format!("{}{}", &story[..at], &story[after..]),
                    format!("{}{c}{}", &story[..after], &story[after..]),
                ];
                variants.push(story[..at].to_string());
                for r in replacements {
                    variants.push(format!("{}{r}{}", &story[..at], &story[after..]));
                }
                for variant in variants {
                    let _ = crate::compile(&variant);
                    count += 1;
                }
            }
        }
        assert!(count > 1000);
    }
}
