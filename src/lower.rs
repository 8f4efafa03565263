//! Name resolution and type checking: syntax tree → [`ir::Program`].

use crate::ir;
use crate::syntax::{Diagnostic, ast};

/// Resolves names and checks types, reporting every error found.
pub fn lower(_story: &ast::Story) -> Result<ir::Program, Vec<Diagnostic>> {
    todo!("lower helper")
}
