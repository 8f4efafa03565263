//! `epipen worlds --json`'s layout: one line, a space after each `,` and `:`
//! (`{"worlds": [{"month": 7, "day": 16}], "complete": true}`).

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;

/// serde_json's compact layout with a space after each `,` and `:`.
struct Spaced;

impl Formatter for Spaced {
    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if first {
            Ok(())
        } else {
            writer.write_all(b", ")
        }
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }
}

/// `view` as JSON on one line, a space after each `,` and `:`.
pub fn json(view: &impl Serialize) -> String {
    let mut out = Vec::new();
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, Spaced);
    view.serialize(&mut serializer).expect("views serialise");
    String::from_utf8(out).expect("JSON is UTF-8")
}

/// `view` as JSON, with its `text` as the command line prints it (what the playground
/// and the Python package receive).
pub fn with_text(view: &impl Serialize, text: String) -> serde_json::Value {
    let mut value = serde_json::to_value(view).expect("views serialise");
    value["text"] = text.into();
    value
}

/// A step of a trace as JSON with its text ([`super::step`]), and each of its beliefs
/// with its own ([`super::belief`]).
pub fn step_with_text(step: &crate::views::Step) -> serde_json::Value {
    let mut value = with_text(step, super::step(step));
    for (k, belief) in step.beliefs.iter().enumerate() {
        value["beliefs"][k]["text"] = super::belief(belief).into();
    }
    value
}
