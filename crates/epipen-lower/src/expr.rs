//! Expressions: names resolved, types checked, compile-time parts evaluated and
//! aggregates expanded.

use super::chance;
use super::fold::{self, bool_lit, int_lit};
use super::unroll::Items;
use super::{Ctx, Entity, Lowerer, Objective, Speaker, closest, list};
use epipen_ir::{self as ir, CharId, Ty};
use epipen_syntax::ast::{self, BinOp, ExprKind, Ident, UnOp};
use epipen_syntax::{Diagnostic, Span};

/// The built-in functions, for "did you mean" hints (and names a story cannot give).
pub const FUNCTIONS: [&str; 19] = [
    "knows",
    "knows_value",
    "knows_whether",
    "believes_whether",
    "believes",
    "believes_value",
    "at",
    "everyone_knows",
    "common_knowledge",
    "distributed_knowledge",
    "all",
    "any",
    "sum",
    "count",
    "distinct",
    "abs",
    "min",
    "max",
    "probability",
];

/// The functions that are knowledge operators.
const KNOWLEDGE: [&str; 11] = [
    "knows",
    "knows_value",
    "knows_whether",
    "believes_whether",
    "believes",
    "believes_value",
    "at",
    "everyone_knows",
    "common_knowledge",
    "distributed_knowledge",
    "probability",
];

/// The most values of `min`/`max` (their expansion grows with the square).
const MAX_MIN_MAX: usize = 64;

/// The functions that take ranges: `all(i in 0..n: …)`.
const AGGREGATES: [&str; 5] = ["all", "any", "sum", "count", "distinct"];

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

impl Lowerer {
    pub(super) fn expr(&mut self, expr: &ast::Expr, ctx: Ctx) -> Option<ir::Expr> {
        self.expr_in(expr, ctx, false)
    }

    /// `maybe_agent`: see [`Lowerer::value`].
    pub(super) fn expr_in(
        &mut self,
        expr: &ast::Expr,
        ctx: Ctx,
        maybe_agent: bool,
    ) -> Option<ir::Expr> {
        let span = expr.span;
        match &expr.kind {
            ExprKind::Int(n) => Some(int_lit(*n, span)),
            ExprKind::Bool(b) => Some(bool_lit(*b, span)),
            ExprKind::Name(name) => self.value(name, span, maybe_agent, ctx),
            ExprKind::Unary { op, operand } => {
                let operand = self.expr(operand, ctx)?;
                match op {
                    UnOp::Neg => self
                        .expect_operand(&operand, Ty::Int, "-", true)
                        .then(|| fold::neg(operand, span)),
                    UnOp::Not => self
                        .expect_operand(&operand, Ty::Bool, "not", true)
                        .then(|| fold::not(operand, span)),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, span, ctx),
            ExprKind::Ite {
                cond,
                then,
                otherwise,
            } => self.ite(cond, then, otherwise, span, ctx, None),
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
            ExprKind::In {
                element,
                set,
                sample,
            } => self.membership(element, set, sample.as_ref(), span, ctx),
            ExprKind::InRange { element, lo, hi } => self.in_range(element, lo, hi, span, ctx),
            ExprKind::Call { name, args } => self.call(name, args, span, ctx),
            ExprKind::Index { base, index } => self.index_value(base, index, span),
            ExprKind::Aggregate {
                name,
                binders,
                guard,
                body,
            } => self.aggregate(name, binders, guard.as_deref(), body, span, ctx),
            ExprKind::Announced {
                group,
                whether,
                diamond,
                formula,
                body,
            } => self.announced(group, *whether, *diamond, formula, body, span, ctx),
            ExprKind::Quantified { forall, vars, body } => {
                self.quantified(*forall, vars, body, span, ctx)
            }
            ExprKind::Execution { event, k } => self.execution(event, *k, span),
        }
    }

    /// `if c then a else b`; `context`: what its value is compared with (a case name in
    /// a branch is then one of that event's cases). Without one, a branch with a case
    /// name takes the type of the other branch.
    pub(super) fn ite(
        &mut self,
        cond: &ast::Expr,
        then: &ast::Expr,
        otherwise: &ast::Expr,
        span: Span,
        ctx: Ctx,
        context: Option<&ir::Expr>,
    ) -> Option<ir::Expr> {
        let cond = self.expr(cond, ctx);
        let (then, otherwise) = match context {
            Some(_) => (
                self.compared(then, context, ctx),
                self.compared(otherwise, context, ctx),
            ),
            None if self.needs_context(then) && !self.needs_context(otherwise) => {
                let otherwise = self.expr(otherwise, ctx);
                (self.compared(then, otherwise.as_ref(), ctx), otherwise)
            }
            None => {
                let then = self.expr(then, ctx);
                let otherwise = self.compared(otherwise, then.as_ref(), ctx);
                (then, otherwise)
            }
        };
        let cond_ok = self.expect_opt(&cond, Ty::Bool);
        let (cond, then, otherwise) = (cond?, then?, otherwise?);
        if then.ty != otherwise.ty {
            let message = format!(
                "the branches of `if` have different types: {} and {}",
                self.ty_name(then.ty),
                self.ty_name(otherwise.ty)
            );
            self.error(Diagnostic::error(span, message));
            return None;
        }
        cond_ok.then(|| fold::ite(cond, then, otherwise, span))
    }

    /// Reports `expr` unless it is an int; `op` names the operator for enums.
    fn expect_int(&mut self, expr: &ir::Expr, op: &str) -> bool {
        self.expect_operand(expr, Ty::Int, op, false)
    }

    /// Whether `expr`, an operand of the operator (or an argument of the function)
    /// `op`, has type `want`; an error naming `op` if not. `unary`: `op` has one
    /// operand.
    fn expect_operand(&mut self, expr: &ir::Expr, want: Ty, op: &str, unary: bool) -> bool {
        if expr.ty == want {
            return true;
        }
        let (want_name, found) = (self.ty_name(want), self.ty_name(expr.ty));
        let function = op.starts_with(|c: char| c.is_ascii_alphabetic())
            && !matches!(op, "and" | "or" | "not");
        let needs = if function {
            format!("{want_name}s")
        } else if unary {
            let article = if want_name.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!("{article} {want_name} operand")
        } else {
            format!("{want_name} operands")
        };
        let message = format!("`{op}` needs {needs}, found {found}");
        self.error(Diagnostic::error(expr.span, message));
        false
    }

    // ----- names -----

    /// A name used as a value. `maybe_agent`: the name stands where a character could
    /// have been meant too (the first argument of `knows`/`knows_value`), so characters
    /// count for "did you mean".
    /// `span` is the whole expression's (it may include parentheses).
    fn value(&mut self, name: &Ident, span: Span, maybe_agent: bool, ctx: Ctx) -> Option<ir::Expr> {
        if let Some(value) = self.loop_var(&name.name) {
            return Some(int_lit(value, span));
        }
        match self.names.get(&name.name).copied() {
            Some(Entity::Constant(id)) => Some(ir::Expr {
                kind: ir::ExprKind::Const(id),
                ty: self.constants[id.0].ty,
                span,
            }),
            Some(Entity::Param(value)) => value.map(|v| int_lit(v, span)),
            Some(Entity::Failed) => None,
            Some(Entity::Def(k)) => self.expand(k, None, span, ctx),
            Some(Entity::Event(id)) => Some(ir::Expr {
                kind: ir::ExprKind::Latest(id),
                ty: Ty::Enum(self.events[id.0].sort),
                span,
            }),
            Some(Entity::Variant(id, index)) => Some(ir::Expr {
                kind: ir::ExprKind::Int(index as i64),
                ty: Ty::Enum(id),
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
            Some(Entity::CharFamily(_) | Entity::ConstFamily(_)) => {
                self.is_a_family(name);
                None
            }
            Some(Entity::Enum(id)) => {
                let values: Vec<&str> = self.enums[id.0]
                    .variants
                    .iter()
                    .map(String::as_str)
                    .collect();
                let hint = format!("its values are {}", list(&values));
                self.error(
                    Diagnostic::error(
                        name.span,
                        format!("`{}` is an enum, not a value", name.name),
                    )
                    .with_hint(hint),
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
                let mut candidates = self.value_candidates();
                if maybe_agent {
                    candidates.extend(self.char_candidates());
                }
                let declare_with = if ctx.compile_time { "const" } else { "int" };
                let events = self.events_with_case(&name.name, false);
                let hint = match events.as_slice() {
                    [] => self.unknown_hint(name, &candidates, declare_with),
                    [k] => format!(
                        "`{0}` is a case of the event `{1}`: compare it with the event, e.g. `{1} == {0}`",
                        name.name, self.events[*k].name
                    ),
                    several => format!(
                        "`{}` is a case of the events {}: compare it with the one meant",
                        name.name,
                        list(
                            &several
                                .iter()
                                .map(|k| self.events[*k].name.as_str())
                                .collect::<Vec<_>>()
                        )
                    ),
                };
                self.error(
                    Diagnostic::error(name.span, format!("unknown name `{}`", name.name))
                        .with_hint(hint),
                );
                None
            }
        }
    }

    /// `muddy[i]` used as a value.
    fn index_value(&mut self, base: &Ident, index: &ast::Expr, span: Span) -> Option<ir::Expr> {
        let entity = match self.loop_var(&base.name) {
            Some(_) => None,
            None => self.names.get(&base.name).copied(),
        };
        match entity {
            Some(Entity::ConstFamily(family)) => {
                let i = self.member(base, family, index)?;
                let id = ir::ConstId(family.first + i);
                Some(ir::Expr {
                    kind: ir::ExprKind::Const(id),
                    ty: self.constants[id.0].ty,
                    span,
                })
            }
            Some(Entity::CharFamily(family)) => {
                let i = self.member(base, family, index)?;
                let name = self.characters[family.first + i].name.clone();
                self.error(
                    Diagnostic::error(span, format!("`{name}` is a character, not a value"))
                        .with_hint(format!(
                            "to talk about what {name} knows, use `knows({name}, …)` or `knows_value({name}, …)`"
                        )),
                );
                None
            }
            Some(Entity::Failed) => {
                self.expr(index, Ctx::compile_time());
                None
            }
            _ => {
                self.not_a_family(base, index);
                None
            }
        }
    }

    /// The agent of `knows(φ)` / `knows_value(e, …)`, which must be the speaker.
    pub(super) fn implicit_agent(
        &mut self,
        ctx: Ctx,
        function: &str,
        call: Span,
    ) -> Option<CharId> {
        match ctx.speaker {
            Speaker::Character(id) => match ctx.inside {
                // Inside `knows(Anne, …)` said by Bob: Anne's, or Bob's?
                Some((other, outer)) => {
                    let (speaker, other) = (
                        self.characters[id.0].name.clone(),
                        self.characters[other.0].name.clone(),
                    );
                    let what = match function.starts_with("believes") {
                        true => "belief",
                        false => "knowledge",
                    };
                    self.error(
                        Diagnostic::error(
                            call,
                            format!("`{function}` inside `{outer}({other}, …)` needs its character"),
                        )
                        .with_hint(format!(
                            "write `{function}({other}, …)` for {other}'s {what}, or `{function}({speaker}, …)` for {speaker}'s"
                        )),
                    );
                    None
                }
                None => Some(id),
            },
            Speaker::Unresolved => None,
            Speaker::Storyteller => {
                let example = self
                    .characters
                    .first()
                    .map_or("Albert".to_string(), |c| c.name.clone());
                let diagnostic = Diagnostic::error(call, format!("`{function}` needs a character here"))
                    .with_hint(format!(
                        "outside `{example}: …` name the character first, e.g. `{function}({example}, …)`"
                    ));
                self.error(diagnostic);
                None
            }
        }
    }

    /// Whether `expr` names a character (or a family of them) declared so far.
    pub(super) fn names_character(&self, expr: &ast::Expr) -> bool {
        let (name, indexed) = match &expr.kind {
            ExprKind::Name(name) => (name, false),
            ExprKind::Index { base, .. } => (base, true),
            _ => return false,
        };
        if self.loop_var(&name.name).is_some() {
            return false;
        }
        match self.names.get(&name.name) {
            Some(Entity::Character(_)) => !indexed,
            Some(Entity::CharFamily(_)) => true,
            _ => false,
        }
    }

    /// Whether `expr` names a declaration that failed, or a member of one.
    pub(super) fn names_failed(&self, expr: &ast::Expr) -> bool {
        match &expr.kind {
            ExprKind::Name(name) | ExprKind::Index { base: name, .. } => {
                self.loop_var(&name.name).is_none()
                    && matches!(self.names.get(&name.name), Some(Entity::Failed))
            }
            _ => false,
        }
    }

    // ----- operators -----

    fn binary(
        &mut self,
        op: BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        if let Some(op) = chance::comparison(op)
            && (chance::has_probability(lhs) || chance::has_probability(rhs))
        {
            return self.chance(op, lhs, rhs, span, ctx);
        }
        let (lhs, rhs) = match op {
            BinOp::Eq | BinOp::Ne => self.comparands(lhs, rhs, ctx),
            _ => (self.expr(lhs, ctx), self.expr(rhs, ctx)),
        };
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
        match class {
            OpClass::Arith(_) | OpClass::Order(_) => {
                // Non-short-circuit `&`: both operands get reported.
                let l = lhs
                    .as_ref()
                    .is_some_and(|l| self.expect_int(l, op.symbol()));
                let r = rhs
                    .as_ref()
                    .is_some_and(|r| self.expect_int(r, op.symbol()));
                if !(l & r) {
                    return None;
                }
            }
            OpClass::Logic(_) => {
                let mut operand = |e: &Option<ir::Expr>| {
                    e.as_ref()
                        .is_some_and(|e| self.expect_operand(e, Ty::Bool, op.symbol(), false))
                };
                let ok = operand(&lhs) & operand(&rhs);
                if !ok {
                    return None;
                }
            }
            OpClass::Equality(_) => {
                let (l, r) = (lhs.as_ref()?, rhs.as_ref()?);
                if l.ty != r.ty {
                    let message = format!(
                        "cannot compare {} with {}",
                        self.ty_name(l.ty),
                        self.ty_name(r.ty)
                    );
                    self.error(Diagnostic::error(span, message));
                    return None;
                }
            }
        }
        let (lhs, rhs) = (lhs?, rhs?);
        Some(match class {
            OpClass::Arith(op) => fold::arith(op, lhs, rhs, span),
            OpClass::Order(op) | OpClass::Equality(op) => fold::cmp(op, lhs, rhs, span),
            OpClass::Logic(op) => fold::logic(op, lhs, rhs, span),
        })
    }

    /// `e in {…}` / `(e1, …, en) in {(…), …}`.
    fn membership(
        &mut self,
        element: &ast::Expr,
        set: &[ast::Expr],
        sample: Option<&ast::Sample>,
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
                let value = self.compared(value, component.as_ref(), ctx);
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
        let drawn = match sample {
            None => None,
            Some(sample) => Some(self.draw(sample, set, &items)?),
        };
        if !ok {
            return None;
        }
        if let Some(chosen) = drawn {
            items = chosen.into_iter().map(|k| items[k].clone()).collect();
        }
        let tuple = tuple.into_iter().collect::<Option<Vec<_>>>()?;
        Some(fold::membership(tuple, items, span))
    }

    /// `e in lo..hi`: `lo <= e and e < hi` (a probability compared so, as the
    /// comparisons are).
    fn in_range(
        &mut self,
        element: &ast::Expr,
        lo: &ast::Expr,
        hi: &ast::Expr,
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        if [element, lo, hi].into_iter().any(chance::has_probability) {
            let compare = |op, lhs: &ast::Expr, rhs: &ast::Expr| ast::Expr {
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs.clone()),
                    rhs: Box::new(rhs.clone()),
                },
                span,
            };
            let (from, below) = (
                compare(BinOp::Le, lo, element),
                compare(BinOp::Lt, element, hi),
            );
            return self.binary(BinOp::And, &from, &below, span, ctx);
        }
        let parts = [element, lo, hi].map(|e| self.expr(e, ctx));
        let mut ok = true;
        for part in parts.iter().flatten() {
            if part.ty != Ty::Int {
                let found = self.ty_name(part.ty).to_string();
                let message = format!("`in a..b` is a range of ints, and this is {found}");
                self.error(Diagnostic::error(part.span, message));
                ok = false;
            }
        }
        let [x, lo, hi] = parts;
        let (x, lo, hi) = (x?, lo?, hi?);
        if !ok {
            return None;
        }
        let from = fold::cmp(ir::CmpOp::Le, lo, x.clone(), span);
        let below = fold::cmp(ir::CmpOp::Lt, x, hi, span);
        Some(fold::logic(ir::LogicOp::And, from, below, span))
    }

    /// The indices of the items `sample(k, set)` draws, recorded in the program with
    /// their values (`lowered`: the set's items lowered; none drawn in code that does
    /// not run).
    fn draw(
        &mut self,
        sample: &ast::Sample,
        set: &[ast::Expr],
        lowered: &[Vec<ir::Expr>],
    ) -> Option<Vec<usize>> {
        self.samples_lowered += 1;
        let k = self.compile_time_int(&sample.count, "the number of items to sample")?;
        let n = set.len();
        let Some(k) = usize::try_from(k).ok().filter(|&k| k <= n) else {
            self.error(
                Diagnostic::error(
                    sample.count.span,
                    format!("cannot sample {k} items from a set of {n}"),
                )
                .with_hint(format!("sample between 0 and {n} items")),
            );
            return None;
        };
        if self.dead > 0 {
            return Some((0..k).collect());
        }
        let chosen = self.rng.choose(k, n);
        // An item's values, when each folded to a literal (a story with errors may
        // have lowered fewer items than it has: it does not run).
        let value = |e: &ir::Expr| match e.kind {
            ir::ExprKind::Int(n) => Some((e.ty, ir::Value::Int(n))),
            ir::ExprKind::Bool(b) => Some((e.ty, ir::Value::Bool(b))),
            _ => None,
        };
        self.samples.push(ir::SampleDraw {
            span: sample.span,
            items: chosen.iter().map(|&i| set[i].span).collect(),
            values: (chosen.iter())
                .map(|&i| lowered.get(i)?.iter().map(value).collect())
                .collect(),
        });
        Some(chosen)
    }

    // ----- calls -----

    fn call(&mut self, name: &Ident, args: &[ast::Expr], span: Span, ctx: Ctx) -> Option<ir::Expr> {
        let function = name.name.as_str();
        if let Some(Entity::Def(k)) = self.names.get(function).copied() {
            return self.expand(k, Some(args), span, ctx);
        }
        if !FUNCTIONS.contains(&function) {
            let hint = match closest(function, FUNCTIONS.iter().copied()) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("the functions are {}", list(&FUNCTIONS)),
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
        if KNOWLEDGE.contains(&function)
            && let Some(objective) = ctx.objective
        {
            let message = match objective {
                Objective::Actual => {
                    "`actual` describes the world itself, without knowledge operators".to_string()
                }
                Objective::Assign => {
                    "`:=` gives a constant a value of the world, without knowledge operators"
                        .to_string()
                }
                Objective::Prior => {
                    "`prior` gives each world a weight from its values, without knowledge operators or probabilities"
                        .to_string()
                }
                Objective::Weight => {
                    "a case's `weight` is computed from the world's values, without knowledge operators or probabilities"
                        .to_string()
                }
            };
            self.error(Diagnostic::error(span, message));
            return None;
        }
        match function {
            "knows" | "believes" => self.knows(function, args, span, ctx),
            "knows_value" | "believes_value" => self.knows_value(function, args, span, ctx),
            "knows_whether" | "believes_whether" => self.knows_whether(function, args, span, ctx),
            "at" => self.at(args, span, ctx),
            "everyone_knows" => self.group(ir::GroupOp::Everyone, args, span, ctx),
            "common_knowledge" => self.group(ir::GroupOp::Common, args, span, ctx),
            "distributed_knowledge" => self.group(ir::GroupOp::Distributed, args, span, ctx),
            "abs" => self.abs(args, span, ctx),
            "probability" => {
                // Lowered for its own mistakes, then refused: it is a number to compare.
                self.probability(args, span, ctx);
                self.error(
                    Diagnostic::error(span, "a probability can only be compared or shown")
                        .with_hint(
                            "compare it, e.g. `probability(A, φ) > 1/2`, or print it with `show probability(A, φ)`",
                        ),
                );
                None
            }
            "min" | "max" => self.min_max(function, args, span, ctx),
            "distinct" => {
                let items: Vec<Option<ir::Expr>> = args.iter().map(|a| self.expr(a, ctx)).collect();
                self.distinct(items, span)
            }
            _ => {
                // `all(i in 0..n)`: a binder read as a membership, its body forgotten.
                let binder = args.first().filter(|a| match &a.kind {
                    ExprKind::In {
                        element,
                        sample: None,
                        ..
                    }
                    | ExprKind::InRange { element, .. } => {
                        matches!(element.kind, ExprKind::Name(_))
                    }
                    _ => false,
                });
                if let Some(binder) = binder {
                    self.error(
                        Diagnostic::error(
                            span,
                            format!("`{function}` needs a body after its range"),
                        )
                        .with_hint(format!("write `{function}({binder}: …)`")),
                    );
                    return None;
                }
                for arg in args {
                    self.expr(arg, ctx);
                }
                self.error(
                    Diagnostic::error(span, format!("`{function}` needs a range"))
                        .with_hint(format!("write e.g. `{function}(i in 0..n: …)`")),
                );
                None
            }
        }
    }

    /// `abs(e)` → `if e < 0 then -e else e`.
    fn abs(&mut self, args: &[ast::Expr], span: Span, ctx: Ctx) -> Option<ir::Expr> {
        let [arg] = args else {
            for arg in args {
                self.expr(arg, ctx);
            }
            self.error(Diagnostic::error(span, "`abs` takes one integer"));
            return None;
        };
        let e = self.expr(arg, ctx)?;
        if !self.expect_int(&e, "abs") {
            return None;
        }
        let negative = fold::cmp(ir::CmpOp::Lt, e.clone(), int_lit(0, span), span);
        Some(fold::ite(negative, fold::neg(e.clone(), span), e, span))
    }

    /// `min(e1, …, ek)`: `if e1 <= e2 and … and e1 <= ek then e1 else if …`; `max`
    /// likewise with `>=`.
    fn min_max(
        &mut self,
        function: &str,
        args: &[ast::Expr],
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let items: Vec<Option<ir::Expr>> = args.iter().map(|a| self.expr(a, ctx)).collect();
        if items.is_empty() || items.len() > MAX_MIN_MAX {
            let message = if items.is_empty() {
                format!("`{function}` needs at least one value")
            } else {
                format!("`{function}` takes at most {MAX_MIN_MAX} values")
            };
            self.error(Diagnostic::error(span, message));
            return None;
        }
        let mut ok = true;
        for item in items.iter().flatten() {
            ok &= self.expect_int(item, function);
        }
        let items = items.into_iter().collect::<Option<Vec<_>>>()?;
        if !ok {
            return None;
        }
        let op = if function == "min" {
            ir::CmpOp::Le
        } else {
            ir::CmpOp::Ge
        };
        let mut result = items.last().expect("at least one").clone();
        for i in (0..items.len() - 1).rev() {
            let cond = items[i + 1..]
                .iter()
                .map(|other| fold::cmp(op, items[i].clone(), other.clone(), span))
                .reduce(|a, b| fold::logic(ir::LogicOp::And, a, b, span))
                .expect("a later item");
            result = fold::ite(cond, items[i].clone(), result, span);
        }
        result.span = span;
        Some(result)
    }

    /// `distinct(e1, …, ek)`: the conjunction of `ei != ej` for i < j.
    fn distinct(&mut self, items: Vec<Option<ir::Expr>>, span: Span) -> Option<ir::Expr> {
        let mut ok = true;
        let first_ty = items.iter().flatten().next().map(|e| e.ty);
        if let Some(ty) = first_ty {
            for item in items.iter().flatten() {
                if item.ty != ty {
                    let message = format!(
                        "cannot compare {} with {}",
                        self.ty_name(ty),
                        self.ty_name(item.ty)
                    );
                    self.error(Diagnostic::error(item.span, message));
                    ok = false;
                }
            }
        }
        let items = items.into_iter().collect::<Option<Vec<_>>>()?;
        if !ok {
            return None;
        }
        let mut pairs = Vec::new();
        for (i, a) in items.iter().enumerate() {
            for b in &items[i + 1..] {
                if !self.spend(span) {
                    return None;
                }
                pairs.push(fold::cmp(ir::CmpOp::Ne, a.clone(), b.clone(), span));
            }
        }
        let result = combine(pairs, &|a, b| fold::logic(ir::LogicOp::And, a, b, span));
        let mut result = result.unwrap_or_else(|| bool_lit(true, span));
        result.span = span;
        Some(result)
    }

    // ----- aggregates -----

    /// `all(i in a..b, … if guard: body)` and friends, unrolled.
    fn aggregate(
        &mut self,
        name: &Ident,
        binders: &[ast::Binder],
        guard: Option<&ast::Expr>,
        body: &ast::Expr,
        span: Span,
        ctx: Ctx,
    ) -> Option<ir::Expr> {
        let function = name.name.as_str();
        if !AGGREGATES.contains(&function) {
            let message = if FUNCTIONS.contains(&function) {
                format!("`{function}` does not take a range")
            } else {
                format!("unknown function `{function}`")
            };
            let hint = match closest(function, AGGREGATES) {
                Some(close) => format!("did you mean `{close}`?"),
                None => format!("the functions over a range are {}", list(&AGGREGATES)),
            };
            self.error(Diagnostic::error(name.span, message).with_hint(hint));
            return None;
        }
        let mut acc = Items::default();
        self.unroll(binders, guard, &mut |l| l.expr(body, ctx), &mut acc);
        let mut probe = None;
        if !acc.live {
            // Nothing ran: still check the guard and the body, with placeholder values.
            // The aggregate is its identity whatever the body gives there: a body that
            // cannot be built for the placeholders (an index out of range of an empty
            // family) is no error, and then only its type goes unchecked.
            let reported = self.reported;
            probe = self.dead(|l| {
                for b in binders {
                    l.loop_vars.push((b.var.name.clone(), 0));
                }
                if let Some(guard) = guard {
                    l.compile_time_bool(guard, "the condition of an aggregate");
                }
                let probe = l.expr(body, ctx);
                l.loop_vars.truncate(l.loop_vars.len() - binders.len());
                probe
            });
            if probe.is_none() && self.reported > reported {
                return None;
            }
        }
        let want = match function {
            "all" | "any" | "count" => Some(Ty::Bool),
            "sum" => Some(Ty::Int),
            _ => None,
        };
        if let Some(want) = want {
            let mut ok = true;
            for item in acc.items.iter().chain(&probe) {
                ok &= if want == Ty::Int {
                    self.expect_int(item, "sum")
                } else {
                    self.expect(item, want)
                };
            }
            if !ok {
                return None;
            }
        }
        if acc.failed {
            return None;
        }
        let items = acc.items;
        let mut result = match function {
            "all" => combine(items, &|a, b| fold::logic(ir::LogicOp::And, a, b, span))
                .unwrap_or_else(|| bool_lit(true, span)),
            "any" => combine(items, &|a, b| fold::logic(ir::LogicOp::Or, a, b, span))
                .unwrap_or_else(|| bool_lit(false, span)),
            "sum" => sum(items, span),
            "count" => sum(
                items
                    .into_iter()
                    .map(|c| fold::ite(c, int_lit(1, span), int_lit(0, span), span))
                    .collect(),
                span,
            ),
            _ => self.distinct(items.into_iter().map(Some).collect(), span)?,
        };
        result.span = span;
        Some(result)
    }
}

/// `e1 + e2 + … + ek`, or 0.
fn sum(items: Vec<ir::Expr>, span: Span) -> ir::Expr {
    combine(items, &|a, b| fold::arith(ir::ArithOp::Add, a, b, span))
        .unwrap_or_else(|| int_lit(0, span))
}

/// The longest chain `((e1 op e2) op e3) …` built as written; longer lists are split in
/// halves, so that a large aggregate does not become a tree too deep to walk.
const CHAIN: usize = 64;

/// `e1 op e2 op … op ek` for an associative `op`, or `None` for no items.
fn combine(
    mut items: Vec<ir::Expr>,
    op: &dyn Fn(ir::Expr, ir::Expr) -> ir::Expr,
) -> Option<ir::Expr> {
    if items.len() <= CHAIN {
        return items.into_iter().reduce(op);
    }
    let right = items.split_off(items.len() / 2);
    Some(op(combine(items, op)?, combine(right, op)?))
}
