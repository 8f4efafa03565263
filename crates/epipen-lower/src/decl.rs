//! Declarations: characters, constants, consts, enums and families.

use epipen_ir::{self as ir, CharId, ConstId, EnumId, Ty};
use epipen_syntax::Diagnostic;
use epipen_syntax::ast::{self, Ident};

use crate::*;

impl Lowerer {
    /// Checks that a global name is a name and new; reports it otherwise. `basic`: the
    /// name is a character or a constant (for the hint).
    pub(crate) fn declare(&mut self, name: &Ident, basic: bool) -> bool {
        if !epipen_syntax::is_name(&name.name) {
            // Only a builder's (the Rust and Python APIs'): the parser reads names only.
            let message = match epipen_syntax::is_keyword(&name.name) {
                true => format!("`{}` is a keyword, not a name", name.name),
                false => format!("`{}` is not a name", name.name),
            };
            let hint = match name.name.contains('[') {
                true => "a family's members are declared with it, as a family",
                false => {
                    "a name is a letter or `_` followed by letters, digits and `_`, and no keyword"
                }
            };
            self.error(Diagnostic::error(name.span, message).with_hint(hint));
            return false;
        }
        if let Some(existing) = self.names.get(&name.name) {
            let both_basic = basic
                && matches!(
                    existing,
                    Entity::Character(_)
                        | Entity::Constant(_)
                        | Entity::CharFamily(_)
                        | Entity::ConstFamily(_)
                );
            let hint = if both_basic {
                "names of characters and constants must be unique"
            } else {
                "names of characters, constants, consts, enums and enum values must be unique"
            };
            self.error(
                Diagnostic::error(name.span, format!("`{}` is already declared", name.name))
                    .with_hint(hint),
            );
            false
        } else {
            true
        }
    }

    /// The size of a family, if the declaration has one: `Ok(None)` for a single name.
    pub(crate) fn family_size(&mut self, decl: &ast::Decl) -> Result<Option<usize>, ()> {
        let Some(size) = &decl.size else {
            return Ok(None);
        };
        let n = self
            .compile_time_int(size, "the size of a family")
            .ok_or(())?;
        if let Some(why) = family_refusal(n.into()) {
            self.error(Diagnostic::error(size.span, why));
            return Err(());
        }
        Ok(Some(n as usize))
    }

    pub(crate) fn declare_characters(&mut self, decl: &ast::Decl) {
        let size = self.family_size(decl);
        if !self.declare(&decl.name, true) {
            return;
        }
        let name = &decl.name;
        let first = self.characters.len();
        let entity = match size {
            Err(()) => Entity::Failed,
            Ok(None) => {
                self.characters.push(ir::Character {
                    name: name.name.clone(),
                    span: name.span,
                });
                Entity::Character(CharId(first))
            }
            Ok(Some(len)) => {
                for i in 0..len {
                    self.characters.push(ir::Character {
                        name: format!("{}[{i}]", name.name),
                        span: name.span,
                    });
                }
                Entity::CharFamily(Family { first, len })
            }
        };
        self.names.insert(name.name.clone(), entity);
    }

    pub(crate) fn declare_constants(&mut self, decl: &ast::Decl, ty: Option<Ty>) {
        let size = self.family_size(decl);
        if !self.declare(&decl.name, true) {
            return;
        }
        let (Some(ty), Ok(size)) = (ty, size) else {
            self.names.insert(decl.name.name.clone(), Entity::Failed);
            return;
        };
        let name = &decl.name;
        let first = self.constants.len();
        let entity = match size {
            None => {
                self.constants.push(ir::Constant {
                    name: name.name.clone(),
                    ty,
                    span: name.span,
                    occurrence: None,
                });
                Entity::Constant(ConstId(first))
            }
            Some(len) => {
                for i in 0..len {
                    self.constants.push(ir::Constant {
                        name: format!("{}[{i}]", name.name),
                        ty,
                        span: name.span,
                        occurrence: None,
                    });
                }
                Entity::ConstFamily(Family { first, len })
            }
        };
        self.names.insert(name.name.clone(), entity);
    }

    pub(crate) fn declare_enum(&mut self, name: &Ident, variants: &[Ident]) {
        let id = EnumId(self.enums.len());
        if self.declare(name, false) {
            self.names.insert(name.name.clone(), Entity::Enum(id));
        }
        let mut values = Vec::new();
        for variant in variants {
            if self.declare(variant, false) {
                self.names
                    .insert(variant.name.clone(), Entity::Variant(id, values.len()));
            }
            values.push(variant.name.clone());
        }
        self.enums.push(ir::EnumDef {
            name: name.name.clone(),
            variants: values,
            span: name.span,
        });
    }

    /// The enum named in `Colour wall[5]`.
    pub(crate) fn sort(&mut self, name: &Ident) -> Option<Ty> {
        match self.names.get(&name.name) {
            Some(Entity::Enum(id)) => Some(Ty::Enum(*id)),
            Some(_) => {
                self.error(
                    Diagnostic::error(name.span, format!("`{}` is not an enum", name.name))
                        .with_hint("declare constants with `int`, `bool` or an enum's name"),
                );
                None
            }
            None => {
                let enums: Vec<&str> = self.enums.iter().map(|e| e.name.as_str()).collect();
                let hint = if self
                    .declared_at
                    .get(&name.name)
                    .is_some_and(|&at| at > self.current)
                {
                    format!("`{}` is declared later in the story", name.name)
                } else if let Some(close) = closest(&name.name, enums) {
                    format!("did you mean `{close}`?")
                } else {
                    format!("declare it first, e.g. `enum {} {{ a, b }}`", name.name)
                };
                self.error(
                    Diagnostic::error(name.span, format!("unknown enum `{}`", name.name))
                        .with_hint(hint),
                );
                None
            }
        }
    }
}

/// Why a family of `n` members cannot be declared, if it cannot (the builders ask before
/// they name the members; Python's ints may be wider than a story's).
pub fn family_refusal(n: i128) -> Option<String> {
    if n < 0 {
        Some(format!("a family cannot have {n} members"))
    } else if n > i128::from(MAX_FAMILY) {
        Some(format!(
            "a family may have at most {MAX_FAMILY} members, found {n}"
        ))
    } else {
        None
    }
}
