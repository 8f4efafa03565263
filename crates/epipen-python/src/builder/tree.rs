//! Expressions as Python sends them: trees of tuples ([`Tree`]), which name characters,
//! constants and enums by their index of declaration and checkpoints by name.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use super::chance;

/// An expression as Python sends it.
#[derive(Debug, Clone)]
pub(super) enum Tree {
    Const(usize),
    Int(i64),
    Bool(bool),
    /// A variant of the enum with this index, by name.
    Variant(usize, String),
    Neg(Box<Tree>),
    Arith(String, Box<Tree>, Box<Tree>),
    Cmp(String, Box<Tree>, Box<Tree>),
    Not(Box<Tree>),
    Logic(String, Box<Tree>, Box<Tree>),
    Ite(Box<Tree>, Box<Tree>, Box<Tree>),
    In(Vec<Tree>, Vec<Vec<Tree>>),
    /// None: the speaker of the `says` it is in.
    Knows(Option<usize>, Box<Tree>),
    KnowsValue(Option<usize>, Vec<Tree>),
    /// None: the speaker of the `says` it is in.
    Believes(Option<usize>, Box<Tree>),
    BelievesValue(Option<usize>, Vec<Tree>),
    At(String, Box<Tree>),
    Group(String, Vec<usize>, Box<Tree>),
    /// The latest execution's case of the event with this index.
    Latest(usize),
    /// A case of the event with this index, by name; with the event of the block whose
    /// handle named it.
    Case(usize, String, Option<String>),
    /// A comparison of probability terms.
    ChanceCmp(String, Box<chance::Rat>, Box<chance::Rat>),
}

pub(super) fn tree(obj: &Bound<'_, PyAny>) -> PyResult<Tree> {
    let t = obj
        .cast::<PyTuple>()
        .map_err(|_| PyTypeError::new_err("not an epipen expression"))?;
    let tag: String = t.get_item(0)?.extract()?;
    let sub = |k: usize| -> PyResult<Box<Tree>> { Ok(Box::new(tree(&t.get_item(k)?)?)) };
    let list = |k: usize| -> PyResult<Vec<Tree>> {
        t.get_item(k)?
            .try_iter()?
            .map(|item| tree(&item?))
            .collect()
    };
    Ok(match tag.as_str() {
        "const" => Tree::Const(t.get_item(1)?.extract()?),
        "int" => Tree::Int(t.get_item(1)?.extract()?),
        "bool" => Tree::Bool(t.get_item(1)?.extract()?),
        "variant" => Tree::Variant(t.get_item(1)?.extract()?, t.get_item(2)?.extract()?),
        "neg" => Tree::Neg(sub(1)?),
        "arith" => Tree::Arith(t.get_item(1)?.extract()?, sub(2)?, sub(3)?),
        "cmp" => Tree::Cmp(t.get_item(1)?.extract()?, sub(2)?, sub(3)?),
        "not" => Tree::Not(sub(1)?),
        "logic" => Tree::Logic(t.get_item(1)?.extract()?, sub(2)?, sub(3)?),
        "ite" => Tree::Ite(sub(1)?, sub(2)?, sub(3)?),
        "in" => {
            let rows = t
                .get_item(2)?
                .try_iter()?
                .map(|row| row?.try_iter()?.map(|v| tree(&v?)).collect())
                .collect::<PyResult<_>>()?;
            Tree::In(list(1)?, rows)
        }
        "knows" => Tree::Knows(t.get_item(1)?.extract()?, sub(2)?),
        "knows_value" => Tree::KnowsValue(t.get_item(1)?.extract()?, list(2)?),
        "believes" => Tree::Believes(t.get_item(1)?.extract()?, sub(2)?),
        "believes_value" => Tree::BelievesValue(t.get_item(1)?.extract()?, list(2)?),
        "at" => Tree::At(t.get_item(1)?.extract()?, sub(2)?),
        "group" => Tree::Group(
            t.get_item(1)?.extract()?,
            t.get_item(2)?.extract()?,
            sub(3)?,
        ),
        "latest" => Tree::Latest(t.get_item(1)?.extract()?),
        "case" => Tree::Case(
            t.get_item(1)?.extract()?,
            t.get_item(2)?.extract()?,
            t.get_item(3)?.extract()?,
        ),
        "chance" => chance::cmp_tree(t)?,
        other => {
            return Err(PyTypeError::new_err(format!(
                "not an epipen expression: {other}"
            )));
        }
    })
}
