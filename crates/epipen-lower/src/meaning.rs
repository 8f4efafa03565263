//! What a declared name stands for, for a front end that hands out handles of names a
//! story declared, in text as well as through its own calls (the Rust and Python
//! `Story`'s `handle`).

use epipen_ir::{ActionId, CharId, CheckpointId, ConstId, EnumId, EventId};
use epipen_syntax::ast::{self, ExprKind, Ident};
use epipen_syntax::{Diagnostic, Span};

use crate::{Entity, Incremental, closest};

/// What a name of the story stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Meaning {
    Character(CharId),
    /// A family of characters: its members in order.
    Characters(Vec<CharId>),
    /// A hidden constant (its type is the program's).
    Constant(ConstId),
    /// A family of constants: its members in order.
    Constants(Vec<ConstId>),
    /// An enum's value: its enum, its index there.
    Variant(EnumId, usize),
    Enum(EnumId),
    /// `const n = …`: its value.
    Const(i64),
    Event(EventId),
    /// `def name(…) = …`.
    Definition,
    Action(ActionId),
    /// A family of actions (`call[i, j]`): its members in order of declaration.
    Actions(Vec<ActionId>),
    /// A checkpoint (their own namespace, after the others).
    Checkpoint(CheckpointId),
}

impl Incremental {
    /// What `name` stands for among the declarations so far: a name, or a family's
    /// member (`muddy[1]`, its index any compile-time expression). A name or member
    /// that is none is the error a statement using it would get ("did you mean",
    /// "out of range", "not a family"), at no place.
    pub fn meaning(&self, name: &str) -> Result<Meaning, Diagnostic> {
        let l = &self.lowerer;
        let actions = &l.planning.actions;
        // An action's body is an event of its name: the name is the action's (a
        // member of a family of actions too: `call[0, 1]`).
        if let Some(k) = actions.iter().position(|a| a.name == name) {
            return Ok(Meaning::Action(ActionId(k)));
        }
        if let Ok(ast::Expr {
            kind: ExprKind::Index { base, index },
            ..
        }) = epipen_syntax::parse_expr(name)
        {
            return self.member(&base, &index);
        }
        let ids = |first: usize, len: usize| first..first + len;
        let meaning = match l.names.get(name).copied() {
            Some(Entity::Character(id)) => Some(Meaning::Character(id)),
            Some(Entity::CharFamily(f)) => Some(Meaning::Characters(
                ids(f.first, f.len).map(CharId).collect(),
            )),
            Some(Entity::Constant(id)) => Some(Meaning::Constant(id)),
            Some(Entity::ConstFamily(f)) => Some(Meaning::Constants(
                ids(f.first, f.len).map(ConstId).collect(),
            )),
            Some(Entity::Variant(e, k)) => Some(Meaning::Variant(e, k)),
            Some(Entity::Enum(e)) => Some(Meaning::Enum(e)),
            Some(Entity::Param(Some(n))) => Some(Meaning::Const(n)),
            Some(Entity::Event(e)) => Some(Meaning::Event(e)),
            Some(Entity::Def(_)) => Some(Meaning::Definition),
            // Refused declarations are undone before a statement ends: none is left.
            Some(Entity::Param(None) | Entity::Failed) | None => None,
        };
        let action = || {
            let family = format!("{name}[");
            let members: Vec<ActionId> = (0..actions.len())
                .filter(|&k| actions[k].name.starts_with(&family))
                .map(ActionId)
                .collect();
            (!members.is_empty()).then_some(Meaning::Actions(members))
        };
        let checkpoint = || {
            l.checkpoint_ids
                .get(name)
                .map(|&id| Meaning::Checkpoint(id))
        };
        meaning.or_else(action).or_else(checkpoint).ok_or_else(|| {
            let names = (l.names.keys().map(String::as_str))
                .chain(l.checkpoint_ids.keys().map(String::as_str));
            let mut names: Vec<&str> = names.collect();
            // Deterministic among equally close names: the first declared.
            names.sort_by_key(|n| (l.declared_at.get(*n).copied(), *n));
            let unknown = Diagnostic::error(Span::default(), format!("unknown name `{name}`"));
            match closest(name, names) {
                Some(close) => unknown.with_hint(format!("did you mean `{close}`?")),
                None => unknown,
            }
        })
    }

    /// The member `base[index]` of a family of characters or constants, or lowering's
    /// error for it as a statement would get it.
    fn member(&self, base: &Ident, index: &ast::Expr) -> Result<Meaning, Diagnostic> {
        let mut lowerer = self.lowerer.clone();
        let meaning =
            match lowerer.names.get(&base.name).copied() {
                Some(Entity::CharFamily(f)) => (lowerer.member(base, f, index))
                    .map(|i| Meaning::Character(CharId(f.first + i))),
                Some(Entity::ConstFamily(f)) => (lowerer.member(base, f, index))
                    .map(|i| Meaning::Constant(ConstId(f.first + i))),
                _ => {
                    lowerer.not_a_family(base, index);
                    None
                }
            };
        let diagnostics = lowerer.take_diagnostics();
        match (meaning, diagnostics.into_iter().next()) {
            (Some(meaning), None) => Ok(meaning),
            (_, Some(d)) => Err(Diagnostic {
                span: Span::default(),
                ..d
            }),
            (None, None) => Err(Diagnostic::error(
                Span::default(),
                format!("`{}` names no member", base.name),
            )),
        }
    }
}
