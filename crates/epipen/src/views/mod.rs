//! What a run gives front ends, as data: the worlds with their constants named
//! ([`World`], [`Worlds`]), what a run reports ([`Report`], [`Verdict`], [`Plan`], counted in a [`Tally`]), a
//! trace's steps ([`Step`], [`Fates`]) and an epistemic model ([`Model`]).
//! [`crate::Session`] makes them; [`crate::text`] renders them as the command line
//! prints them, and `--json`, the playground and Python receive them serialised
//! (serde), so that no front end renders a result on its own.

mod report;
mod smcdel;
mod tally;
mod trace;
mod world;

pub use report::{Counted, Found, Plan, Report, Saw, Verdict, VerdictKind};
pub use smcdel::{Smcdel, SmcdelAnswer, SmcdelJob, SmcdelKind};
pub use tally::Tally;
pub use trace::{
    Belief, Fate, Fates, Model, ModelArrow, ModelEdge, ModelLayout, ModelPlausible, Step,
};
pub use world::{Count, Shown, Statement, World, Worlds, ratio};
