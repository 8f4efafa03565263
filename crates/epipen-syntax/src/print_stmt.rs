//! Statements and stories as a story file writes them: [`Display`] for [`Stmt`] and
//! [`Story`], blocks indented by two spaces, expressions by their own printer
//! (`print.rs`). What it prints parses back ([`crate::parse`]) to the same tree, spans
//! aside, for every story the parser reads (`tests/print.rs` checks the stories of
//! `stories/` and `examples/`); comments and blank lines are not in the tree, and do not
//! come back.
//!
//! Trees only builders make (the Rust and Python `Story`) print the same way, but for
//! [`ExprKind::Execution`](crate::ast::ExprKind::Execution), which has no story text.

use std::fmt::{self, Display, Formatter, Write};

use crate::ast::{
    Action, Block, CaseName, Change, DoItem, EventItem, EventItemKind, Expr, ExprKind, GroupItem,
    Plan, SortName, Stmt, StmtKind, Story,
};

impl Display for Story {
    /// Its `#! backend` setting, then a statement a line.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if let Some((backend, _)) = self.backend {
            writeln!(f, "#! backend {}", backend.name())?;
        }
        for stmt in &self.statements {
            writeln!(f, "{stmt}")?;
        }
        Ok(())
    }
}

impl Display for Stmt {
    /// The statement, its blocks' lines indented below it (no final newline).
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_stmt(f, self, 0)
    }
}

impl Display for CaseName {
    /// `moved`, `face[f]`, `call[i, j]`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name.name)?;
        if !self.indices.is_empty() {
            f.write_char('[')?;
            list(f, &self.indices, ", ")?;
            f.write_char(']')?;
        }
        Ok(())
    }
}

/// Items separated by `sep`.
fn list<T: Display>(f: &mut Formatter<'_>, items: &[T], sep: &str) -> fmt::Result {
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            f.write_str(sep)?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// An expression before a keyword that could continue it (`then`, `weight`, `{`): an
/// `if … then … else …` or a quantifier, whose last part runs on, in parentheses.
struct Closed<'a>(&'a Expr);

impl Display for Closed<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match &self.0.kind {
            ExprKind::Ite { .. } | ExprKind::Quantified { .. } => write!(f, "({})", self.0),
            _ => write!(f, "{}", self.0),
        }
    }
}

fn indent(f: &mut Formatter<'_>, depth: usize) -> fmt::Result {
    for _ in 0..depth {
        f.write_str("  ")?;
    }
    Ok(())
}

/// `{`, the lines a line each at `depth + 1` (each written by `line`), `}` at `depth`.
fn write_lines<T>(
    f: &mut Formatter<'_>,
    lines: &[T],
    depth: usize,
    line: fn(&mut Formatter<'_>, &T, usize) -> fmt::Result,
) -> fmt::Result {
    f.write_str("{\n")?;
    for item in lines {
        indent(f, depth + 1)?;
        line(f, item, depth + 1)?;
        f.write_char('\n')?;
    }
    indent(f, depth)?;
    f.write_char('}')
}

/// A block of statements.
fn write_block(f: &mut Formatter<'_>, block: &Block, depth: usize) -> fmt::Result {
    write_lines(f, &block.statements, depth, write_stmt)
}

fn write_stmt(f: &mut Formatter<'_>, stmt: &Stmt, depth: usize) -> fmt::Result {
    match &stmt.kind {
        StmtKind::Characters(decls) => {
            f.write_str("characters ")?;
            write_decls(f, decls)
        }
        StmtKind::Constants { sort, names } => {
            match sort {
                SortName::Int => f.write_str("int ")?,
                SortName::Bool => f.write_str("bool ")?,
                SortName::Enum(name) => write!(f, "{} ", name.name)?,
            }
            write_decls(f, names)
        }
        StmtKind::Const { name, value } => write!(f, "const {} = {value}", name.name),
        StmtKind::Enum { name, variants } => {
            write!(f, "enum {} {{ ", name.name)?;
            let names: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
            list(f, &names, ", ")?;
            f.write_str(" }")
        }
        StmtKind::Announce(e) => write!(f, "announce {e}"),
        StmtKind::Learns { who, what } => {
            write!(f, "{who} learns ")?;
            list(f, what, ", ")
        }
        StmtKind::Says { speaker, what } => write!(f, "{speaker}: {what}"),
        StmtKind::Reveals { who, what } => write!(f, "{who} reveals {what}"),
        StmtKind::Checkpoint(name) => write!(f, "checkpoint {}", name.name),
        StmtKind::Worlds { limit: None } => f.write_str("worlds"),
        StmtKind::Worlds {
            limit: Some((n, _)),
        } => write!(f, "worlds {n}"),
        StmtKind::For { var, range, body } => {
            write!(f, "for {} in {range} ", var.name)?;
            write_block(f, body, depth)
        }
        StmtKind::If {
            cond,
            then,
            otherwise,
        } => {
            write!(f, "if {} ", Closed(cond))?;
            write_block(f, then, depth)?;
            match otherwise.as_ref().map(|b| b.statements.as_slice()) {
                None => Ok(()),
                // `else if`: an `else` block holding one `if`, as the parser makes it.
                Some(
                    [
                        only @ Stmt {
                            kind: StmtKind::If { .. },
                            ..
                        },
                    ],
                ) => {
                    f.write_str(" else ")?;
                    write_stmt(f, only, depth)
                }
                Some(_) => {
                    f.write_str(" else ")?;
                    write_block(f, otherwise.as_ref().expect("an else block"), depth)
                }
            }
        }
        StmtKind::Simultaneously(body) => {
            f.write_str("simultaneously ")?;
            write_block(f, body, depth)
        }
        StmtKind::Actual(e) => write!(f, "actual {e}"),
        StmtKind::Repeat { max, body, until } => {
            write!(f, "repeat max {} ", Closed(max))?;
            write_block(f, body, depth)?;
            write!(f, " until {until}")
        }
        StmtKind::AssertAddsCk { hint, body } => {
            write!(f, "assert_adds_ck {} ", Closed(hint))?;
            write_block(f, body, depth)
        }
        StmtKind::Check(e) => write!(f, "check {e}"),
        StmtKind::CheckActual(e) => write!(f, "check actual {e}"),
        StmtKind::Assign { targets, values } => {
            list(f, targets, ", ")?;
            f.write_str(" := ")?;
            list(f, values, ", ")
        }
        StmtKind::Expects { who, what } => write!(f, "{who} expects {what}"),
        StmtKind::Def { name, params, body } => {
            write!(f, "def {}", name.name)?;
            if !params.is_empty() {
                let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
                f.write_char('(')?;
                list(f, &names, ", ")?;
                f.write_char(')')?;
            }
            write!(f, " = {body}")
        }
        StmtKind::Where(e) => write!(f, "where {e}"),
        StmtKind::Prior(e) => write!(f, "prior {e}"),
        StmtKind::Show(e) => write!(f, "show {e}"),
        StmtKind::Event { name, body } => {
            write!(f, "event {} ", name.name)?;
            write_items(f, body, depth)
        }
        StmtKind::Action(action) => write_action(f, action, depth),
        StmtKind::Do(items) => {
            f.write_str("do ")?;
            list(f, items, ", ")
        }
        StmtKind::Plan(plan) => write!(f, "{plan}"),
    }
}

fn write_decls(f: &mut Formatter<'_>, decls: &[crate::ast::Decl]) -> fmt::Result {
    for (k, decl) in decls.iter().enumerate() {
        if k > 0 {
            f.write_str(", ")?;
        }
        f.write_str(&decl.name.name)?;
        if let Some(size) = &decl.size {
            write!(f, "[{size}]")?;
        }
    }
    Ok(())
}

fn write_action(f: &mut Formatter<'_>, action: &Action, depth: usize) -> fmt::Result {
    write!(f, "action {}", action.name)?;
    if let Some(owner) = &action.owner {
        write!(f, " by {owner}")?;
    }
    if let Some(guard) = &action.guard {
        write!(f, " if {}", Closed(guard))?;
    }
    f.write_char(' ')?;
    write_items(f, &action.body, depth)
}

impl Display for DoItem {
    /// `flip` / `flip: heads`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.action)?;
        match &self.case {
            Some(case) => write!(f, ": {case}"),
            None => Ok(()),
        }
    }
}

impl Display for Plan {
    /// `plan [all] φ [max D] [keeping ψ] [coordinated]`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str("plan ")?;
        if self.all {
            f.write_str("all ")?;
        }
        let last = self.max.is_none() && self.keeping.is_none() && self.coordinated.is_none();
        match last {
            true => write!(f, "{}", self.goal)?,
            false => write!(f, "{}", Closed(&self.goal))?,
        }
        if let Some(max) = &self.max {
            write!(f, " max {}", Closed(max))?;
        }
        if let Some(keeping) = &self.keeping {
            match self.coordinated {
                Some(_) => write!(f, " keeping {}", Closed(keeping))?,
                None => write!(f, " keeping {keeping}")?,
            }
        }
        if self.coordinated.is_some() {
            f.write_str(" coordinated")?;
        }
        Ok(())
    }
}

/// An event's (or an action's) block.
fn write_items(f: &mut Formatter<'_>, items: &[EventItem], depth: usize) -> fmt::Result {
    write_lines(f, items, depth, write_item)
}

fn write_item(f: &mut Formatter<'_>, item: &EventItem, depth: usize) -> fmt::Result {
    match &item.kind {
        EventItemKind::Case {
            name,
            pre,
            weight,
            changes,
        } => {
            write!(f, "{name}")?;
            if let Some(pre) = pre {
                write!(f, " if {}", Closed(pre))?;
            }
            if let Some(weight) = weight {
                write!(f, " weight {}", Closed(weight))?;
            }
            if !changes.is_empty() {
                f.write_str(" then ")?;
                write_changes(f, changes)?;
            }
            Ok(())
        }
        EventItemKind::Sees { who, groups } => {
            write!(f, "{who} sees ")?;
            write_groups(f, groups, " | ")
        }
        EventItemKind::Expects { who, groups } => {
            write!(f, "{who} expects ")?;
            write_groups(f, groups, " > ")
        }
        EventItemKind::Actual(case) => write!(f, "actual {case}"),
        EventItemKind::For { var, range, body } => {
            write!(f, "for {} in {range} ", var.name)?;
            write_items(f, body, depth)
        }
        EventItemKind::If {
            cond,
            then,
            otherwise,
        } => {
            write!(f, "if {} ", Closed(cond))?;
            write_items(f, then, depth)?;
            match otherwise.as_deref() {
                None => Ok(()),
                Some(
                    [
                        only @ EventItem {
                            kind: EventItemKind::If { .. },
                            ..
                        },
                    ],
                ) => {
                    f.write_str(" else ")?;
                    write_item(f, only, depth)
                }
                Some(items) => {
                    f.write_str(" else ")?;
                    write_items(f, items, depth)
                }
            }
        }
    }
}

/// A case's changes: `x := e, for i in 0..n { b[i] := e }`.
fn write_changes(f: &mut Formatter<'_>, changes: &[Change]) -> fmt::Result {
    for (k, change) in changes.iter().enumerate() {
        if k > 0 {
            f.write_str(", ")?;
        }
        match change {
            Change::One { target, value } => write!(f, "{target} := {value}")?,
            Change::For {
                var, range, body, ..
            } => {
                write!(f, "for {} in {range} {{ ", var.name)?;
                write_changes(f, body)?;
                f.write_str(" }")?;
            }
        }
    }
    Ok(())
}

/// Groups separated by `sep` (` | `, ` > `), a group's items by `, `.
fn write_groups(f: &mut Formatter<'_>, groups: &[Vec<GroupItem>], sep: &str) -> fmt::Result {
    for (k, group) in groups.iter().enumerate() {
        if k > 0 {
            f.write_str(sep)?;
        }
        list(f, group, ", ")?;
    }
    Ok(())
}

impl Display for GroupItem {
    /// `moved`, `face`, `each(i in 0..n if φ: call[i, k])`, `all(…)`, `others`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let (word, binders, guard, case) = match self {
            GroupItem::Case(case) => return write!(f, "{case}"),
            GroupItem::Others(_) => return f.write_str("others"),
            GroupItem::Each {
                binders,
                guard,
                case,
                ..
            } => ("each", binders, guard, case),
            GroupItem::All {
                binders,
                guard,
                case,
                ..
            } => ("all", binders, guard, case),
        };
        write!(f, "{word}(")?;
        list(f, binders, ", ")?;
        if let Some(guard) = guard {
            write!(f, " if {guard}")?;
        }
        write!(f, ": {case})")
    }
}
