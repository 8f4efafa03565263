//! `Story.handle(name)`: the handle of a name the story declared, in Python or in text
//! told, as the Rust API's [`Story::handle`](epipen::Story::handle) finds it; `_story.py`
//! makes the Python handle (`_boundary.HandleReply`).

use epipen::story::Expression;
use epipen::syntax::ast;
use epipen::{EnumType, Event, Handle};
use pyo3::prelude::*;
use pyo3::types::PyList;

use super::{Actor, Answer, Handles, failed, invalid};

/// An enum as Python makes its `EnumType`: its index among the handles, its name, its
/// variants.
type EnumRef = (usize, String, Vec<String>);

/// A handle as Python makes it.
pub(super) enum Named {
    /// A character: its index among the handles, its name.
    Character(usize, String),
    /// A constant: "int" or "bool", its index among the story's, its name.
    Constant(&'static str, usize, String),
    /// A constant of an enum: its index, its name, its enum.
    EnumConstant(usize, String, EnumRef),
    /// A value of an enum: its name, its enum.
    Variant(String, EnumRef),
    EnumType(EnumRef),
    Const(i64),
    Checkpoint(String),
    /// An event: its index among the handles, its name, its cases.
    Event(usize, String, Vec<String>),
    /// An action: its index among the handles, its name, who does it (a character's
    /// index and name).
    Action(usize, String, Option<(usize, String)>),
    Family(Vec<Named>),
}

/// The index of the first of `handles` that is `same`, or of `new` pushed when none is.
fn index_of<T>(handles: &mut Vec<T>, same: impl Fn(&T) -> bool, new: impl FnOnce() -> T) -> usize {
    match handles.iter().position(same) {
        Some(k) => k,
        None => {
            handles.push(new());
            handles.len() - 1
        }
    }
}

impl Handles {
    /// The index of `event` among the handles (added when new).
    pub(super) fn event_index(&mut self, event: &Event) -> usize {
        index_of(&mut self.events, |e| e.id() == event.id(), || event.clone())
    }

    /// `ty` as Python makes it, its index among the handles (added when new).
    fn enum_ref(&mut self, ty: &EnumType) -> EnumRef {
        let index = index_of(&mut self.enums, |e| e.name() == ty.name(), || ty.clone());
        (index, ty.name().to_string(), ty.variants().to_vec())
    }
}

impl Actor {
    /// The handle of `name`, or why it has none (lowering's "unknown name" with its hint).
    pub(super) fn handle(&mut self, name: &str) -> Answer<Named> {
        let handle = self.story.handle(name).map_err(failed)?;
        self.named(name, handle)
    }

    fn named(&mut self, name: &str, handle: Handle) -> Answer<Named> {
        Ok(match handle {
            Handle::Character(who) => {
                let index = index_of(&mut self.handles.characters, |&c| c == who, || who);
                let name = self.story.name(who).unwrap_or(name).to_string();
                Named::Character(index, name)
            }
            Handle::Int(i) => match self.constant(name, i.syntax())? {
                (Some(k), text) => Named::Constant("int", k, text),
                (None, _) => return Err(no_handle(name)),
            },
            Handle::Bool(b) => match self.constant(name, b.syntax())? {
                (Some(k), text) => Named::Constant("bool", k, text),
                (None, _) => return Err(no_handle(name)),
            },
            Handle::Enum(e) => {
                let ty = self.handles.enum_ref(e.enum_type());
                match self.constant(name, e.syntax())? {
                    (Some(k), text) => Named::EnumConstant(k, text, ty),
                    (None, text) => Named::Variant(text, ty),
                }
            }
            Handle::EnumType(ty) => Named::EnumType(self.handles.enum_ref(&ty)),
            Handle::Const(n) => Named::Const(n),
            Handle::Checkpoint(_) => Named::Checkpoint(name.to_string()),
            Handle::Event(event) => Named::Event(
                self.handles.event_index(&event),
                event.name().to_string(),
                event.cases().to_vec(),
            ),
            Handle::Family(members) => {
                let mut named = Vec::with_capacity(members.len());
                for member in members {
                    named.push(self.named(name, member)?);
                }
                Named::Family(named)
            }
            Handle::Action(action) => {
                let program = self.story.program();
                let owner = (program.actions[action.id().0].owner)
                    .map(|id| program.characters[id.0].name.clone());
                let by = match owner {
                    Some(owner) => match self.handle(&owner)? {
                        Named::Character(k, who) => Some((k, who)),
                        _ => return Err(no_handle(&owner)),
                    },
                    None => None,
                };
                let actions = &mut self.handles.actions;
                let k = index_of(actions, |a| a.id() == action.id(), || action.clone());
                Named::Action(k, action.name().to_string(), by)
            }
            _ => return Err(no_handle(name)),
        })
    }

    /// An expression's name as the story writes it (`muddy[1]`), and its index among
    /// the story's constants (None: an enum's value).
    fn constant(&self, name: &str, e: Option<&ast::Expr>) -> Answer<(Option<usize>, String)> {
        let text = e.ok_or_else(|| no_handle(name))?.to_string();
        let constants = &self.story.program().constants;
        Ok((constants.iter().position(|c| c.name == text), text))
    }
}

fn no_handle(name: &str) -> super::Located {
    invalid(format!("`{name}` has no handle"))
}

impl Named {
    /// As `_boundary.HandleReply` types it: `(kind, …)`.
    pub(super) fn into_py<'py>(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Named::Character(k, name) => ("character", k, name).into_pyobject(py)?.into_any(),
            Named::Constant(kind, k, name) => (kind, k, name).into_pyobject(py)?.into_any(),
            Named::EnumConstant(k, name, ty) => ("enum", k, name, ty).into_pyobject(py)?.into_any(),
            Named::Variant(name, ty) => ("variant", name, ty).into_pyobject(py)?.into_any(),
            Named::EnumType(ty) => ("enum_type", ty).into_pyobject(py)?.into_any(),
            Named::Const(n) => ("const", n).into_pyobject(py)?.into_any(),
            Named::Checkpoint(name) => ("checkpoint", name).into_pyobject(py)?.into_any(),
            Named::Event(k, name, cases) => ("event", k, name, cases).into_pyobject(py)?.into_any(),
            Named::Action(k, name, by) => ("action", k, name, by).into_pyobject(py)?.into_any(),
            Named::Family(members) => {
                let list = PyList::empty(py);
                for m in members {
                    list.append(m.into_py(py)?)?;
                }
                ("family", list).into_pyobject(py)?.into_any()
            }
        })
    }
}
