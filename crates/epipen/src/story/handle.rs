//! Handles by name: what a name of the story stands for, declared by this API or in
//! text told ([`Story::tell`]), as the handle a declaration call would have returned.

use std::sync::Arc;

use crate::ir::{CharId, Ty};
use crate::lower::Meaning;
use crate::syntax::ast;

use super::expr::Node;
use super::handles::EnumInfo;
use super::{Action, Character, Checkpoint, Enum, EnumType, Error, Event, Formula, Int, Story};

/// What a name of a [`Story`] stands for: [`Story::handle`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Handle {
    /// A character (`Anne`, or a family's member `child[1]`).
    Character(Character),
    /// An int constant.
    Int(Int),
    /// A bool constant.
    Bool(Formula),
    /// A constant of an enum, or one of the enum's values (`red`).
    Enum(Enum),
    /// An enum type (`Colour`).
    EnumType(EnumType),
    /// `const n = …`: its value.
    Const(i64),
    /// A checkpoint, for [`Formula::at`].
    Checkpoint(Checkpoint),
    /// An event, as [`Happened::event`](super::Happened::event) gives it.
    Event(Event),
    /// An action, for [`Story::do_action`] and plans.
    Action(Action),
    /// A family (of characters, constants or actions): its members in order.
    Family(Vec<Handle>),
}

impl Story {
    /// The handle of `name`, whoever declared it: a character, a constant, a family
    /// (`muddy`: its members; `muddy[1]`: one), an enum or one of its values, a `const`,
    /// a checkpoint, an event, an action. It lets Rust go on with what text told:
    ///
    /// ```
    /// use epipen::story::Handle;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut story = epipen::Story::new();
    /// story.tell("characters Anne\nint x\nannounce 0 <= x and x <= 3\nAnne learns x % 2")?;
    /// let (Handle::Character(anne), Handle::Int(x)) = (story.handle("Anne")?, story.handle("x")?)
    /// else { unreachable!() };
    /// story.announce(x.ge(2))?;
    /// story.check(epipen::Formula::knows_value(anne, &x))?;
    /// assert_eq!(story.worlds(10)?.len(), 2);
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// An unknown name is [`Error::Invalid`] (with lowering's "did you mean" hint); so
    /// is a definition (`def`), which only text can use.
    pub fn handle(&mut self, name: &str) -> Result<Handle, Error> {
        let meaning = self.lowering.meaning(name);
        let meaning = meaning.map_err(|d| Error::Invalid(vec![d]))?;
        Ok(match meaning {
            Meaning::Character(id) => self.character_handle(id),
            Meaning::Characters(ids) => Handle::Family(
                ids.into_iter()
                    .map(|id| self.character_handle(id))
                    .collect(),
            ),
            Meaning::Constant(id) => self.constant_handle(id.0),
            Meaning::Constants(ids) => Handle::Family(
                ids.into_iter()
                    .map(|id| self.constant_handle(id.0))
                    .collect(),
            ),
            Meaning::Variant(e, k) => {
                let ty = self.enum_handle(e.0);
                Handle::Enum(ty.value(&ty.0.variants[k].clone()))
            }
            Meaning::Enum(e) => Handle::EnumType(self.enum_handle(e.0)),
            Meaning::Const(n) => Handle::Const(n),
            Meaning::Event(e) => Handle::Event(self.event_handle(e)),
            Meaning::Action(a) => Handle::Action(self.action_handle(a)),
            Meaning::Actions(ids) => Handle::Family(
                ids.into_iter()
                    .map(|a| Handle::Action(self.action_handle(a)))
                    .collect(),
            ),
            Meaning::Checkpoint(_) => Handle::Checkpoint(self.checkpoint_handle(name)),
            Meaning::Definition => {
                return Err(Error::invalid(format!(
                    "`{name}` is a definition (`def`): text told can use it, the API has no handle for it"
                )));
            }
        })
    }

    fn character_handle(&self, id: CharId) -> Handle {
        Handle::Character(Character { story: self.id, id })
    }

    fn constant_handle(&self, k: usize) -> Handle {
        let c = &self.program.constants[k];
        let node = Node::of(self.id, ast::Expr::named(&c.name));
        match c.ty {
            Ty::Int => Handle::Int(Int(node)),
            Ty::Bool => Handle::Bool(Formula(node)),
            Ty::Enum(e) => Handle::Enum(Enum {
                node,
                ty: self.enum_handle(e.0),
            }),
        }
    }

    fn enum_handle(&self, e: usize) -> EnumType {
        let def = &self.program.enums[e];
        EnumType(Arc::new(EnumInfo {
            story: self.id,
            name: def.name.clone(),
            variants: def.variants.clone(),
            event: false,
            error: None,
        }))
    }
}
