//! Names: compile-time values (consts, loop variables), characters, family members and
//! checkpoints resolved, with hints for unknown names.

use std::collections::HashMap;

use epipen_ir::{self as ir, CharId, CheckpointId, Ty};
use epipen_syntax::ast::{self, ExprKind, Ident, StmtKind};
use epipen_syntax::{Diagnostic, Span};

use crate::*;

impl Lowerer {
    /// Lowers an expression that must be known before the story runs (`what` names it in
    /// messages: "an index") and returns its literal.
    pub(crate) fn compile_time(&mut self, expr: &ast::Expr, what: &str) -> Option<ir::Expr> {
        let lowered = self.expr(expr, Ctx::compile_time())?;
        if matches!(lowered.kind, ir::ExprKind::Int(_) | ir::ExprKind::Bool(_)) {
            return Some(lowered);
        }
        let diagnostic = match self.culprit(&lowered) {
            Some(hint) => Diagnostic::error(
                expr.span,
                format!(
                    "{what} must be computable before the story runs (from consts and loop variables)"
                ),
            )
            .with_hint(hint),
            None => Diagnostic::error(expr.span, format!("{what} overflows 64-bit integers")),
        };
        self.error(diagnostic);
        None
    }

    /// Why a lowered expression is not a literal: the first hidden constant or
    /// knowledge operator in it.
    pub(crate) fn culprit(&self, expr: &ir::Expr) -> Option<String> {
        use ir::ExprKind as E;
        match &expr.kind {
            E::Const(id) => Some(format!(
                "`{}` is a hidden constant: its value is known only as the story runs",
                self.constants[id.0].name
            )),
            E::Knows { .. }
            | E::KnowsValue { .. }
            | E::Believes { .. }
            | E::BelievesValue { .. }
            | E::At { .. }
            | E::Group { .. }
            | E::Announced { .. } => {
                Some("knowledge operators are evaluated as the story runs".to_string())
            }
            E::Chance { .. } => Some("probabilities are computed as the story runs".to_string()),
            E::Quantified { body, .. } => self
                .culprit(body)
                .or_else(|| Some("a quantifier ranges over hidden constants' values".to_string())),
            E::Latest(e) => Some(format!(
                "`{}` is an event: which case happened is known only as the story runs",
                self.events[e.0].name
            )),
            E::Int(_) | E::Bool(_) => None,
            E::Neg(a) | E::Not(a) => self.culprit(a),
            E::Shared(inner) => self.culprit(inner),
            E::Arith(_, a, b) | E::Cmp(_, a, b) | E::Logic(_, a, b) => {
                self.culprit(a).or_else(|| self.culprit(b))
            }
            E::Ite(c, a, b) => self
                .culprit(c)
                .or_else(|| self.culprit(a))
                .or_else(|| self.culprit(b)),
            E::In { tuple, set } => tuple
                .iter()
                .chain(set.iter().flatten())
                .find_map(|e| self.culprit(e)),
        }
    }

    pub(crate) fn compile_time_int(&mut self, expr: &ast::Expr, what: &str) -> Option<i64> {
        let value = self.compile_time(expr, what)?;
        if !self.expect(&value, Ty::Int) {
            return None;
        }
        match value.kind {
            ir::ExprKind::Int(n) => Some(n),
            _ => None,
        }
    }

    pub(crate) fn compile_time_bool(&mut self, expr: &ast::Expr, what: &str) -> Option<bool> {
        let value = self.compile_time(expr, what)?;
        if !self.expect(&value, Ty::Bool) {
            return None;
        }
        match value.kind {
            ir::ExprKind::Bool(b) => Some(b),
            _ => None,
        }
    }

    pub(crate) fn loop_var(&self, name: &str) -> Option<i64> {
        self.loop_vars
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
    }

    /// Character names for hints: `Albert`, and a family as `child[…]`.
    pub(crate) fn char_names(&self) -> Vec<String> {
        let mut names: Vec<(usize, String)> = self
            .names
            .iter()
            .filter_map(|(name, entity)| match entity {
                Entity::Character(id) => Some((id.0, name.clone())),
                Entity::CharFamily(f) => Some((f.first, format!("{name}[…]"))),
                _ => None,
            })
            .collect();
        names.sort();
        names.into_iter().map(|(_, n)| n).collect()
    }

    /// Names of characters and character families, for "did you mean".
    pub(crate) fn char_candidates(&self) -> Vec<&str> {
        self.names
            .iter()
            .filter(|(_, e)| matches!(e, Entity::Character(_) | Entity::CharFamily(_)))
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// Names that can stand for a value, for "did you mean".
    pub(crate) fn value_candidates(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .names
            .iter()
            .filter(|(_, e)| {
                matches!(
                    e,
                    Entity::Constant(_)
                        | Entity::ConstFamily(_)
                        | Entity::Variant(..)
                        | Entity::Param(_)
                )
            })
            .map(|(n, _)| n.as_str())
            .chain(self.loop_vars.iter().rev().map(|(n, _)| n.as_str()))
            .collect();
        // Deterministic "did you mean" among equally close names.
        names.sort_by_key(|n| (self.declared_at.get(*n).copied(), *n));
        names
    }

    /// A name or family member in a character's position (`A learns`, `A:`,
    /// `knows(A, …)`).
    pub(crate) fn character_expr(&mut self, expr: &ast::Expr) -> Option<CharId> {
        match &expr.kind {
            ExprKind::Name(name) => self.character(name),
            ExprKind::Index { base, index } => match self.names.get(&base.name).copied() {
                Some(Entity::CharFamily(family)) => {
                    let i = self.member(base, family, index)?;
                    Some(CharId(family.first + i))
                }
                Some(Entity::ConstFamily(family)) => {
                    let i = self.member(base, family, index);
                    let shown = i.map_or(base.name.clone(), |i| {
                        self.constants[family.first + i].name.clone()
                    });
                    self.not_a_character(expr.span, &shown);
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
            },
            _ => {
                self.error(Diagnostic::error(expr.span, "expected a character"));
                None
            }
        }
    }

    pub(crate) fn not_a_character(&mut self, span: Span, name: &str) {
        let mut diagnostic = Diagnostic::error(span, format!("`{name}` is not a character"));
        let chars = self.char_names();
        if !chars.is_empty() {
            let chars: Vec<&str> = chars.iter().map(String::as_str).collect();
            diagnostic = diagnostic.with_hint(format!("the characters are {}", list(&chars)));
        }
        self.error(diagnostic);
    }

    /// A plain name in a character's position.
    pub(crate) fn character(&mut self, name: &Ident) -> Option<CharId> {
        if self.loop_var(&name.name).is_some() {
            self.not_a_character(name.span, &name.name);
            return None;
        }
        match self.names.get(&name.name).copied() {
            Some(Entity::Character(id)) => Some(id),
            Some(Entity::Failed) => None,
            Some(Entity::CharFamily(_)) => {
                self.is_a_family(name);
                None
            }
            Some(_) => {
                self.not_a_character(name.span, &name.name);
                None
            }
            None => {
                let candidates = self.char_candidates();
                let hint = self.unknown_hint(name, &candidates, "characters");
                self.error(
                    Diagnostic::error(name.span, format!("unknown name `{}`", name.name))
                        .with_hint(hint),
                );
                None
            }
        }
    }

    /// "`muddy` is a family; pick a member".
    pub(crate) fn is_a_family(&mut self, name: &Ident) {
        self.error(Diagnostic::error(
            name.span,
            format!("`{0}` is a family; pick a member, e.g. `{0}[0]`", name.name),
        ));
    }

    /// `x[i]` where `x` is not a family (or unknown).
    pub(crate) fn not_a_family(&mut self, base: &Ident, index: &ast::Expr) {
        let known = self.loop_var(&base.name).is_some() || self.names.contains_key(&base.name);
        if !known && let [k] = self.events_with_case(&base.name, true).as_slice() {
            // A case of an event where no event is expected.
            let event = &self.events[*k].name;
            let hint = format!(
                "`{}[…]` are cases of the event `{event}`: compare one with the event, e.g. `{event} == {}[…]`",
                base.name, base.name
            );
            self.error(
                Diagnostic::error(base.span, format!("unknown name `{}`", base.name))
                    .with_hint(hint),
            );
            return;
        }
        // Check the index too, for its own mistakes.
        self.expr(index, Ctx::compile_time());
        let known = self.loop_var(&base.name).is_some() || self.names.contains_key(&base.name);
        if known {
            self.error(Diagnostic::error(
                base.span,
                format!("`{}` is not a family", base.name),
            ));
        } else {
            let families: Vec<&str> = self
                .names
                .iter()
                .filter(|(_, e)| matches!(e, Entity::CharFamily(_) | Entity::ConstFamily(_)))
                .map(|(n, _)| n.as_str())
                .collect();
            let hint = self.unknown_hint(base, &families, "int");
            self.error(
                Diagnostic::error(base.span, format!("unknown name `{}`", base.name))
                    .with_hint(hint),
            );
        }
    }

    /// The index of a member of `family`, checked against its size.
    pub(crate) fn member(
        &mut self,
        base: &Ident,
        family: Family,
        index: &ast::Expr,
    ) -> Option<usize> {
        if let ExprKind::Tuple(items) = &index.kind {
            for item in items {
                self.compile_time_int(item, "an index");
            }
            self.error(
                Diagnostic::error(index.span, "only one index is allowed")
                    .with_hint(format!("families have a single index: `{}[0]`", base.name)),
            );
            return None;
        }
        let i = self.compile_time_int(index, "an index")?;
        if i < 0 || i as u64 >= family.len as u64 {
            if self.dead == 0 {
                let members = match family.len {
                    0 => "no members".to_string(),
                    1 => "1 member (0)".to_string(),
                    n => format!("{n} members (0..{})", n - 1),
                };
                self.error(Diagnostic::error(
                    index.span,
                    format!("index {i} is out of range: `{}` has {members}", base.name),
                ));
            }
            return None;
        }
        Some(i as usize)
    }

    /// The hint for an unknown name: declared later, a close name, or how to declare it.
    pub(crate) fn unknown_hint(
        &self,
        name: &Ident,
        candidates: &[&str],
        declare_with: &str,
    ) -> String {
        if self
            .declared_at
            .get(&name.name)
            .is_some_and(|&at| at > self.current)
        {
            format!("`{}` is declared later in the story", name.name)
        } else if let Some(close) = closest(&name.name, candidates.iter().copied()) {
            format!("did you mean `{close}`?")
        } else if declare_with == "const" {
            format!("declare it first, e.g. `const {} = 3`", name.name)
        } else {
            format!("declare it first, e.g. `{declare_with} {}`", name.name)
        }
    }

    /// The checkpoint named by the first argument of `at`.
    pub(crate) fn checkpoint(&mut self, name: &Ident) -> Option<CheckpointId> {
        if let Some(id) = self.checkpoint_ids.get(&name.name) {
            return Some(*id);
        }
        if self.dead > 0 && self.dead_checkpoints.contains(&name.name) {
            return None;
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
        } else if self.dead_checkpoints.contains(&name.name) {
            Diagnostic::error(
                name.span,
                format!("checkpoint `{}` is never reached", name.name),
            )
            .with_hint("it is defined only in a part of the story that does not run (an `if` branch not taken or an empty loop)")
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
}

/// Where each checkpoint is first defined, each event first written and each action
/// (by the name before its indices) first declared, blocks included.
pub(crate) fn collect_names(
    statements: &[ast::Stmt],
    defined_at: &mut HashMap<String, usize>,
    declared_at: &mut HashMap<String, usize>,
    actions_at: &mut HashMap<String, usize>,
) {
    for stmt in statements {
        match &stmt.kind {
            StmtKind::Checkpoint(name) => {
                defined_at
                    .entry(name.name.clone())
                    .or_insert(name.span.start);
            }
            StmtKind::Event { name, .. } => {
                declared_at
                    .entry(name.name.clone())
                    .or_insert(name.span.start);
            }
            StmtKind::Action(action) => {
                let name = &action.name.name;
                actions_at
                    .entry(name.name.clone())
                    .or_insert(name.span.start);
            }
            StmtKind::For { body, .. }
            | StmtKind::Simultaneously(body)
            | StmtKind::Repeat { body, .. }
            | StmtKind::AssertAddsCk { body, .. } => {
                collect_names(&body.statements, defined_at, declared_at, actions_at);
            }
            StmtKind::If {
                then, otherwise, ..
            } => {
                collect_names(&then.statements, defined_at, declared_at, actions_at);
                if let Some(otherwise) = otherwise {
                    collect_names(&otherwise.statements, defined_at, declared_at, actions_at);
                }
            }
            _ => {}
        }
    }
}

/// "`A`", "`A` and `B`", "`A`, `B` and `C`".
pub fn list(names: &[&str]) -> String {
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
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name: Vec<char> = name.chars().collect();
    let limit = if name.len() <= 3 { 1 } else { 2 };
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        // Only a strictly closer candidate replaces the best so far.
        let bound = match best {
            None => limit,
            Some((0, _)) => break,
            Some((d, _)) => d - 1,
        };
        let chars: Vec<char> = candidate.chars().collect();
        if let Some(distance) = edit_distance_within(&name, &chars, bound) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// The edit distance between `a` and `b` when it is at most `limit`, where inserting,
/// deleting, replacing a char or swapping two neighbours costs 1 (optimal string
/// alignment), so `dya` is one step from `day`. Only the band of cells within `limit`
/// of the diagonal is computed, three rows at a time: time O(len · limit), memory
/// O(len), however long the names (a full table of two 40 000-char names takes 12 GB).
pub(crate) fn edit_distance_within(a: &[char], b: &[char], limit: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > limit {
        return None;
    }
    let far = limit + 1; // any distance beyond the limit
    // rows[i % 3][j]: distance between a[..i] and b[..j], capped at `far`.
    let mut rows = vec![vec![far; b.len() + 1]; 3];
    for (j, cell) in rows[0].iter_mut().enumerate().take(far) {
        *cell = j;
    }
    for i in 1..=a.len() {
        // The band of row i; the cells on either side of it read as `far`.
        let (lo, hi) = (i.saturating_sub(limit), (i + limit).min(b.len()));
        let (before, above, row) = ((i + 1) % 3, (i + 2) % 3, i % 3);
        if lo == 0 {
            rows[row][0] = i;
        } else {
            rows[row][lo - 1] = far;
        }
        if hi < b.len() {
            rows[row][hi + 1] = far;
        }
        let mut smallest = if lo == 0 { i } else { far };
        for j in lo.max(1)..=hi {
            let mut best = (rows[above][j - 1] + usize::from(a[i - 1] != b[j - 1]))
                .min(rows[above][j] + 1)
                .min(rows[row][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[before][j - 2] + 1);
            }
            rows[row][j] = best.min(far);
            smallest = smallest.min(rows[row][j]);
        }
        if smallest > limit {
            return None;
        }
    }
    let distance = rows[a.len() % 3][b.len()];
    (distance <= limit).then_some(distance)
}
