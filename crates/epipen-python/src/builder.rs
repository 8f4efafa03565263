//! `epipen.Story`: the Rust API's [`epipen::Story`] from Python. A story runs each
//! statement at once against a live engine whose Z3 terms belong to one thread, so each
//! Python `Story` has its own thread that owns the Rust story and its handles, and runs
//! the statements the Python thread sends it (with the GIL released, and Ctrl-C
//! cancelling the statement: a statement that fails has no effect).
//!
//! Python's expressions (`epipen/_story.py`) arrive as trees of tuples, which name
//! characters, constants and enums by their index of declaration and checkpoints by
//! name; here they become the Rust API's typed expressions ([`Int`], [`Formula`],
//! [`Enum`]), whose own checks give the messages of mistakes.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

use epipen::engine::{Cancel, Options};
use epipen::story::Values;
use epipen::{Character, Checkpoint, Enum, EnumType, Error, Formula, Int, Story};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::convert::{self, Kind, Located, Out};
use crate::run::{strategy, timeout_of};
use crate::worker::{internal, panic_message, wait};

mod actions;
mod blocks;
mod chance;
mod events;
pub(crate) mod expr;

use actions::{ActionSpec, PlanSpec, Planned, Steps};
use blocks::{Item, items};
use chance::ShownReply;
use events::{EventSpec, Reported};
use expr::{Term, Tree, tree};

/// What the Python thread asks the story's thread.
enum Command {
    Character(String),
    Int(String),
    Bool(String),
    Enumeration(String, Vec<String>),
    EnumConstant(usize, String),
    Checkpoint(String),
    Announce(Tree),
    Says(usize, Tree),
    Learns(usize, Vec<Tree>),
    Actual(Tree),
    Reveals(usize, Tree),
    Check(Tree),
    Expects(usize, Tree),
    /// The changes, and the method that makes them (for messages).
    Assign(Vec<(usize, Tree)>, &'static str),
    CheckActual(Tree),
    Event(Box<EventSpec>),
    Simultaneously(Vec<Item>),
    AssertAddsCk(Tree, Vec<Item>),
    Worlds(u64),
    Prior(Tree),
    Show(Term),
    Action(Box<ActionSpec>),
    Do(Steps),
    Plan(Box<PlanSpec>),
}

enum Reply {
    Index(usize),
    Done,
    Bool(bool),
    Bools(Vec<bool>),
    Hint(&'static str),
    /// The constants' names, the worlds' values, whether that is all, their text, and
    /// their probabilities (when the story speaks of chances).
    Worlds(
        Vec<String>,
        Vec<Vec<Out>>,
        bool,
        String,
        Option<Vec<String>>,
    ),
    Shown(ShownReply),
    Happened(Reported),
    /// What happened at each action of a `do`.
    Happenings(Vec<Reported>),
    Planned(Planned),
}

type Answer = Result<Reply, Located>;

/// A constant of the story, typed.
#[derive(Clone)]
enum Value {
    Int(Int),
    Bool(Formula),
    Enum(Enum),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "an int",
            Value::Bool(_) => "a bool",
            Value::Enum(_) => "an enum value",
        }
    }
}

/// What expressions refer to: the story's handles.
#[derive(Default)]
struct Handles {
    characters: Vec<Character>,
    /// Their names, as declared.
    names: Vec<String>,
    /// While the formula of a knowledge operator naming another character than the
    /// speaker is made: that character and the operator (an operator there must name
    /// its agent, as in a story file).
    inside: std::cell::Cell<Option<(usize, &'static str)>>,
    constants: Vec<Value>,
    enums: Vec<EnumType>,
    checkpoints: HashMap<String, Checkpoint>,
    /// The events that happened, in order of their first execution.
    events: Vec<epipen::Event>,
    /// The actions declared, in order.
    actions: Vec<epipen::Action>,
}

impl Handles {
    fn character(&self, k: usize) -> Result<Character, String> {
        self.characters
            .get(k)
            .copied()
            .ok_or_else(|| "a character of another story".to_string())
    }

    fn agent(
        &self,
        who: Option<usize>,
        speaker: Option<Character>,
        op: &str,
    ) -> Result<Character, String> {
        match (who, speaker) {
            (Some(k), _) => self.character(k),
            (None, Some(s)) => match self.inside.get() {
                Some((other, outer)) => {
                    let name = |c: Character| {
                        (self.characters.iter().position(|d| *d == c))
                            .and_then(|k| self.names.get(k).cloned())
                            .unwrap_or_default()
                    };
                    let (speaker, other) = (name(s), name(self.character(other)?));
                    let what = match op.starts_with("believes") {
                        true => "belief",
                        false => "knowledge",
                    };
                    Err(format!(
                        "`{op}` inside `{outer}({other}, …)` needs its character: write \
                         `{op}({other}, …)` for {other}'s {what}, or `{op}({speaker}, …)` for \
                         {speaker}'s"
                    ))
                }
                None => Ok(s),
            },
            (None, None) => Err(format!(
                "`{op}` needs a character here: it may be left out only in what a character says"
            )),
        }
    }

    /// Makes the formula of the operator `op` whose agent is `who` (None: the speaker)
    /// with `make`, inside that character's knowledge when it is not the speaker.
    fn within<T>(
        &self,
        who: Option<usize>,
        speaker: Option<Character>,
        op: &'static str,
        make: impl FnOnce() -> Result<T, String>,
    ) -> Result<T, String> {
        let Some(k) = who else { return make() };
        let outer = self.inside.get();
        let other = speaker.is_none_or(|s| self.character(k).is_ok_and(|c| c != s));
        self.inside.set(if other { Some((k, op)) } else { None });
        let made = make();
        self.inside.set(outer);
        made
    }

    /// `knows_value(A, e1, …)` or `believes_value(A, e1, …)` (`op`). Knowing (or
    /// believing) a tuple's value is knowing each member's: the tuple of each type as one
    /// `knows_value`.
    fn value_known(
        &self,
        who: Option<usize>,
        exprs: &[Tree],
        speaker: Option<Character>,
        op: &'static str,
    ) -> Result<Formula, String> {
        let named = who;
        let who = self.agent(who, speaker, op)?;
        if exprs.is_empty() {
            return Err(format!("`{op}` needs at least one expression"));
        }
        let (mut ints, mut bools, mut enums) = (Vec::new(), Vec::new(), Vec::new());
        for e in exprs {
            match self.within(named, speaker, op, || self.value(e, speaker))? {
                Value::Int(i) => ints.push(i),
                Value::Bool(b) => bools.push(b),
                Value::Enum(e) => enums.push(e),
            }
        }
        fn of<V: Values>(op: &str, who: Character, values: V) -> Formula {
            match op {
                "knows_value" => Formula::knows_value(who, values),
                _ => Formula::believes_value(who, values),
            }
        }
        let mut parts = Vec::new();
        if !ints.is_empty() {
            parts.push(of(op, who, ints));
        }
        if !bools.is_empty() {
            parts.push(of(op, who, bools));
        }
        if !enums.is_empty() {
            parts.push(of(op, who, enums));
        }
        Ok(Formula::all(parts))
    }

    fn int(&self, t: &Tree, speaker: Option<Character>) -> Result<Int, String> {
        match self.value(t, speaker)? {
            Value::Int(i) => Ok(i),
            v => Err(format!("expected an int, found {}", v.kind())),
        }
    }

    fn formula(&self, t: &Tree, speaker: Option<Character>) -> Result<Formula, String> {
        match self.value(t, speaker)? {
            Value::Bool(f) => Ok(f),
            v => Err(format!("expected a formula (a bool), found {}", v.kind())),
        }
    }

    fn value(&self, t: &Tree, speaker: Option<Character>) -> Result<Value, String> {
        let v = |t: &Tree| self.value(t, speaker);
        let int = |t: &Tree| self.int(t, speaker);
        let formula = |t: &Tree| self.formula(t, speaker);
        Ok(match t {
            Tree::Const(k) => self
                .constants
                .get(*k)
                .cloned()
                .ok_or_else(|| "a constant of another story".to_string())?,
            Tree::Int(n) => Value::Int(Int::from(*n)),
            Tree::Bool(b) => Value::Bool(Formula::from(*b)),
            Tree::Variant(e, name) => {
                let ty = self
                    .enums
                    .get(*e)
                    .ok_or_else(|| "an enum of another story".to_string())?;
                Value::Enum(ty.value(name))
            }
            Tree::Neg(a) => Value::Int(-int(a)?),
            Tree::Arith(op, a, b) => {
                let (a, b) = (int(a)?, int(b)?);
                Value::Int(match *op {
                    "+" => a + b,
                    "-" => a - b,
                    "*" => a * b,
                    "/" => a / b,
                    "%" => a % b,
                    other => return Err(format!("unknown operator {other}")),
                })
            }
            Tree::Cmp(op, a, b) => Value::Bool(match (v(a)?, v(b)?, *op) {
                (Value::Int(a), Value::Int(b), op) => match op {
                    "==" => a.eq(b),
                    "!=" => a.ne(b),
                    "<" => a.lt(b),
                    "<=" => a.le(b),
                    ">" => a.gt(b),
                    ">=" => a.ge(b),
                    other => return Err(format!("unknown comparison {other}")),
                },
                (Value::Bool(a), Value::Bool(b), "==") => a.eq(b),
                (Value::Bool(a), Value::Bool(b), "!=") => a.ne(b),
                (Value::Enum(a), Value::Enum(b), "==") => a.eq(b),
                (Value::Enum(a), Value::Enum(b), "!=") => a.ne(b),
                (a, b, op) => {
                    return Err(format!(
                        "cannot compare {} with {} by `{op}`",
                        a.kind(),
                        b.kind()
                    ));
                }
            }),
            Tree::Not(a) => Value::Bool(!formula(a)?),
            Tree::Logic(op, a, b) => {
                let (a, b) = (formula(a)?, formula(b)?);
                Value::Bool(match *op {
                    "and" => a.and(b),
                    "or" => a.or(b),
                    "implies" => a.implies(b),
                    "iff" => a.iff(b),
                    other => return Err(format!("unknown connective {other}")),
                })
            }
            Tree::Ite(c, a, b) => {
                let c = formula(c)?;
                match (v(a)?, v(b)?) {
                    (Value::Int(a), Value::Int(b)) => Value::Int(c.ite(a, b)),
                    (Value::Bool(a), Value::Bool(b)) => Value::Bool(c.ite(a, b)),
                    (Value::Enum(a), Value::Enum(b)) => Value::Enum(c.ite(a, b)),
                    (a, b) => {
                        return Err(format!(
                            "the branches of `If` have {} and {}: they need the same type",
                            a.kind(),
                            b.kind()
                        ));
                    }
                }
            }
            Tree::In(tuple, rows) => Value::Bool(self.membership(tuple, rows, speaker)?),
            Tree::Knows(who, f) => Value::Bool(Formula::knows(
                self.agent(*who, speaker, "knows")?,
                self.within(*who, speaker, "knows", || formula(f))?,
            )),
            Tree::KnowsValue(who, exprs) => {
                Value::Bool(self.value_known(*who, exprs, speaker, "knows_value")?)
            }
            Tree::Believes(who, f) => Value::Bool(Formula::believes(
                self.agent(*who, speaker, "believes")?,
                self.within(*who, speaker, "believes", || formula(f))?,
            )),
            Tree::BelievesValue(who, exprs) => {
                Value::Bool(self.value_known(*who, exprs, speaker, "believes_value")?)
            }
            Tree::At(name, f) => {
                let cp = self.checkpoints.get(name).ok_or_else(|| {
                    format!("`at` names the checkpoint `{name}`, which is not saved before it")
                })?;
                Value::Bool(Formula::at(*cp, formula(f)?))
            }
            Tree::Group(op, who, f) => {
                let group: Vec<Character> = who
                    .iter()
                    .map(|k| self.character(*k))
                    .collect::<Result<_, _>>()?;
                let f = formula(f)?;
                Value::Bool(match *op {
                    "everyone" => Formula::everyone_knows(&group, f),
                    "common" => Formula::common_knowledge(&group, f),
                    "distributed" => Formula::distributed_knowledge(&group, f),
                    other => return Err(format!("unknown group operator {other}")),
                })
            }
            Tree::ChanceCmp(op, a, b) => self.chance_cmp(op, a, b, speaker)?,
            Tree::Latest(k) => Value::Enum(self.event(*k)?.latest()),
            Tree::Case(k, name, of) => {
                let event = self.event(*k)?;
                match of {
                    // The Rust API's words for a handle of another event.
                    Some(other) if other != event.name() => {
                        return Err(format!(
                            "the case `{name}` is a case of the event `{other}`, not of `{}`",
                            event.name()
                        ));
                    }
                    _ => Value::Enum(event.case(name)),
                }
            }
        })
    }

    fn event(&self, k: usize) -> Result<&epipen::Event, String> {
        self.events
            .get(k)
            .ok_or_else(|| "an event of another story".to_string())
    }

    /// `(e1, …, en) in {rows}`.
    fn membership(
        &self,
        tuple: &[Tree],
        rows: &[Vec<Tree>],
        speaker: Option<Character>,
    ) -> Result<Formula, String> {
        if tuple.is_empty() {
            return Err("a membership test needs at least one expression".into());
        }
        if let Some(row) = rows.iter().find(|r| r.len() != tuple.len()) {
            return Err(format!(
                "a set item has {} values, the tuple has {}",
                row.len(),
                tuple.len()
            ));
        }
        let values: Vec<Value> = tuple
            .iter()
            .map(|t| self.value(t, speaker))
            .collect::<Result<_, _>>()?;
        // Ints against rows of numbers: the story language's own membership test.
        let numbers: Option<Vec<Vec<i64>>> = rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|t| match t {
                        Tree::Int(n) => Some(*n),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        if let Some(numbers) = numbers
            && values.iter().all(|v| matches!(v, Value::Int(_)))
        {
            let ints: Vec<Int> = values
                .into_iter()
                .filter_map(|v| match v {
                    Value::Int(i) => Some(i),
                    _ => None,
                })
                .collect();
            return Ok(Formula::tuple_in(ints, numbers));
        }
        if let [Value::Enum(e)] = values.as_slice() {
            let options: Vec<Enum> = rows
                .iter()
                .map(|r| match self.value(&r[0], speaker)? {
                    Value::Enum(o) => Ok(o),
                    o => Err(format!(
                        "a set item is {} where the tuple has an enum value",
                        o.kind()
                    )),
                })
                .collect::<Result<_, String>>()?;
            return Ok(e.is_in(options));
        }
        // Otherwise: one of the rows, member by member.
        let mut any = Vec::with_capacity(rows.len());
        for row in rows {
            let mut all = Vec::with_capacity(row.len());
            for (t, r) in tuple.iter().zip(row) {
                let eq = Tree::Cmp("==", Arc::new(t.clone()), Arc::new(r.clone()));
                all.push(self.formula(&eq, speaker)?);
            }
            any.push(Formula::all(all));
        }
        Ok(Formula::any(any))
    }
}

/// The story's thread: the Rust story and its handles.
struct Actor {
    story: Story,
    handles: Handles,
    cancel: Cancel,
}

fn invalid(message: String) -> Located {
    Located::plain(Kind::Story, message)
}

/// A statement's failure, as the package raises it.
fn failed(e: Error) -> Located {
    let kind = match &e {
        Error::Solver(_) => Kind::Solver,
        Error::Refuted(_) => Kind::Refuted,
        _ => Kind::Story,
    };
    Located::plain(kind, e.to_string())
}

impl Actor {
    fn handle(&mut self, command: Command) -> Answer {
        let h = &self.handles;
        let formula = |t: &Tree, speaker| h.formula(t, speaker).map_err(invalid);
        let character = |k: usize| h.character(k).map_err(invalid);
        match command {
            Command::Character(name) => {
                let c = self.story.character(&name);
                self.handles.characters.push(c);
                self.handles.names.push(name);
                Ok(Reply::Index(self.handles.characters.len() - 1))
            }
            Command::Int(name) | Command::Bool(name) | Command::EnumConstant(_, name)
                if self
                    .story
                    .program()
                    .constants
                    .iter()
                    .any(|c| c.name == name) =>
            {
                Err(invalid(format!(
                    "the constant `{name}` is already declared"
                )))
            }
            Command::Int(name) => {
                let x = self.story.int(&name);
                self.handles.constants.push(Value::Int(x));
                Ok(Reply::Index(self.handles.constants.len() - 1))
            }
            Command::Bool(name) => {
                let x = self.story.bool(&name);
                self.handles.constants.push(Value::Bool(x));
                Ok(Reply::Index(self.handles.constants.len() - 1))
            }
            Command::Enumeration(name, variants) => {
                let variants: Vec<&str> = variants.iter().map(String::as_str).collect();
                let ty = self.story.enumeration(&name, &variants);
                self.handles.enums.push(ty);
                Ok(Reply::Index(self.handles.enums.len() - 1))
            }
            Command::EnumConstant(e, name) => {
                let ty = h
                    .enums
                    .get(e)
                    .cloned()
                    .ok_or_else(|| invalid("an enum of another story".into()))?;
                let x = self.story.enum_constant(&ty, &name);
                self.handles.constants.push(Value::Enum(x));
                Ok(Reply::Index(self.handles.constants.len() - 1))
            }
            Command::Checkpoint(name) => {
                let cp = self.story.checkpoint(&name).map_err(failed)?;
                self.handles.checkpoints.insert(name, cp);
                Ok(Reply::Done)
            }
            Command::Announce(t) => {
                let f = formula(&t, None)?;
                self.story.announce(f).map_err(failed)?;
                Ok(Reply::Done)
            }
            Command::Says(who, t) => {
                let who = character(who)?;
                let f = formula(&t, Some(who))?;
                self.story.says(who, f).map_err(failed)?;
                Ok(Reply::Done)
            }
            Command::Learns(who, trees) => {
                let who = character(who)?;
                let (ints, bools, enums) = self.split(&trees)?;
                // One statement per type of value (learning is of each value anyway).
                if !ints.is_empty() {
                    self.story.learns(who, ints).map_err(failed)?;
                }
                if !bools.is_empty() {
                    self.story.learns(who, bools).map_err(failed)?;
                }
                if !enums.is_empty() {
                    self.story.learns(who, enums).map_err(failed)?;
                }
                Ok(Reply::Done)
            }
            Command::Actual(t) => {
                let f = formula(&t, None)?;
                self.story.actual(f).map_err(failed)?;
                Ok(Reply::Done)
            }
            Command::Reveals(who, t) => {
                let who = character(who)?;
                let f = formula(&t, Some(who))?;
                Ok(Reply::Bool(self.story.reveals(who, f).map_err(failed)?))
            }
            Command::Check(t) => {
                let f = formula(&t, None)?;
                self.story.check(f).map_err(failed)?;
                Ok(Reply::Done)
            }
            Command::Expects(who, t) => {
                let who = character(who)?;
                let f = formula(&t, None)?;
                self.story.expects(who, f).map_err(failed)?;
                Ok(Reply::Done)
            }
            Command::Assign(pairs, op) => {
                let changes = events::changes(h, &pairs, op).map_err(invalid)?;
                self.story.assign_all(changes).map_err(failed)?;
                Ok(Reply::Done)
            }
            Command::CheckActual(t) => {
                let f = formula(&t, None)?;
                self.story.check_actual(f).map_err(failed)?;
                Ok(Reply::Done)
            }
            Command::Event(spec) => self.event(*spec),
            Command::Simultaneously(block) => {
                let statements = self.simultaneous(&block)?;
                let outcomes = self
                    .story
                    .simultaneously(|s| {
                        for (kind, who, f) in statements {
                            match (kind, who) {
                                ("announce", _) | (_, None) => s.announce(f),
                                ("says", Some(who)) => s.says(who, f),
                                (_, Some(who)) => s.reveals(who, f),
                            };
                        }
                    })
                    .map_err(failed)?;
                Ok(Reply::Bools(outcomes))
            }
            Command::AssertAddsCk(hint, block) => self.assert_adds_ck(&hint, &block),
            Command::Worlds(limit) => {
                let worlds = self.story.worlds(limit).map_err(failed)?;
                let program = self.story.program();
                let names = program.constants.iter().map(|c| c.name.clone()).collect();
                let values = worlds
                    .iter()
                    .map(|w| convert::world(program, w.world()))
                    .collect();
                let chances = (worlds.iter())
                    .map(|w| w.probability().map(ToString::to_string))
                    .collect::<Option<Vec<String>>>()
                    .filter(|_| !worlds.is_empty());
                Ok(Reply::Worlds(
                    names,
                    values,
                    worlds.is_complete(),
                    worlds.to_string(),
                    chances,
                ))
            }
            Command::Prior(t) => self.prior(&t),
            Command::Show(s) => self.show(&s),
            Command::Action(spec) => self.action(*spec),
            Command::Do(steps) => self.do_actions(steps),
            Command::Plan(spec) => self.plan(*spec),
        }
    }

    /// Values by type.
    #[allow(clippy::type_complexity)]
    fn split(&self, trees: &[Tree]) -> Result<(Vec<Int>, Vec<Formula>, Vec<Enum>), Located> {
        let (mut ints, mut bools, mut enums) = (Vec::new(), Vec::new(), Vec::new());
        for t in trees {
            match self.handles.value(t, None).map_err(invalid)? {
                Value::Int(i) => ints.push(i),
                Value::Bool(b) => bools.push(b),
                Value::Enum(e) => enums.push(e),
            }
        }
        if trees.is_empty() {
            return Err(invalid("`learns` needs at least one expression".into()));
        }
        Ok((ints, bools, enums))
    }
}

type Request = (Command, Sender<Result<Answer, String>>);

fn serve(mut actor: Actor, requests: Receiver<Request>) {
    for (command, reply) in requests {
        // The previous statement has stopped: a cancelled one must not stop this one.
        actor.cancel.reset();
        let answer = catch_unwind(AssertUnwindSafe(|| actor.handle(command)));
        let _ = reply.send(answer.map_err(|panic| panic_message(&*panic)));
    }
}

/// The native side of `epipen.Story`: a channel to the story's thread.
#[pyclass(module = "epipen._native")]
pub(crate) struct NativeStory {
    requests: Mutex<Option<Sender<Request>>>,
    cancel: Cancel,
    /// The process whose thread holds the story (a forked child has no such thread).
    owner: u32,
}

impl NativeStory {
    fn ask(&self, py: Python<'_>, command: Command) -> PyResult<Reply> {
        if std::process::id() != self.owner {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "this epipen.Story was made before the process forked, and its engine stayed \
                 in the parent: make the Story in the child process",
            ));
        }
        let (tx, rx) = mpsc::channel();
        let sent = self
            .requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .map(|requests| requests.send((command, tx)));
        if !matches!(sent, Some(Ok(()))) {
            return Err(internal("the story's thread stopped"));
        }
        wait(py, rx, &self.cancel)?.map_err(|e| e.into_pyerr(py))
    }

    fn index(&self, py: Python<'_>, command: Command) -> PyResult<usize> {
        match self.ask(py, command)? {
            Reply::Index(k) => Ok(k),
            _ => Err(internal("a declaration gave no handle")),
        }
    }

    fn done(&self, py: Python<'_>, command: Command) -> PyResult<()> {
        self.ask(py, command).map(drop)
    }
}

#[pymethods]
impl NativeStory {
    #[new]
    #[pyo3(signature = (backend, timeout, trust_hints))]
    fn new(backend: &str, timeout: Option<f64>, trust_hints: bool) -> PyResult<NativeStory> {
        let cancel = Cancel::new();
        let options = Options {
            strategy: strategy(backend)?,
            deadline: timeout_of(timeout)?.and_then(|t| std::time::Instant::now().checked_add(t)),
            trust_hints,
            cancel: cancel.clone(),
            ..Options::default()
        };
        let (tx, rx) = mpsc::channel::<Request>();
        let actor_cancel = cancel.clone();
        std::thread::Builder::new()
            .name("epipen-story".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let actor = Actor {
                    story: Story::with_options(options),
                    handles: Handles::default(),
                    cancel: actor_cancel,
                };
                serve(actor, rx);
            })
            .map_err(|e| internal(&format!("cannot start the story's thread: {e}")))?;
        Ok(NativeStory {
            requests: Mutex::new(Some(tx)),
            cancel,
            owner: std::process::id(),
        })
    }

    fn character(&self, py: Python<'_>, name: String) -> PyResult<usize> {
        self.index(py, Command::Character(name))
    }

    fn int(&self, py: Python<'_>, name: String) -> PyResult<usize> {
        self.index(py, Command::Int(name))
    }

    fn bool(&self, py: Python<'_>, name: String) -> PyResult<usize> {
        self.index(py, Command::Bool(name))
    }

    fn enumeration(&self, py: Python<'_>, name: String, variants: Vec<String>) -> PyResult<usize> {
        self.index(py, Command::Enumeration(name, variants))
    }

    fn enum_constant(&self, py: Python<'_>, ty: usize, name: String) -> PyResult<usize> {
        self.index(py, Command::EnumConstant(ty, name))
    }

    fn checkpoint(&self, py: Python<'_>, name: String) -> PyResult<()> {
        self.done(py, Command::Checkpoint(name))
    }

    fn announce(&self, py: Python<'_>, formula: &Bound<'_, PyAny>) -> PyResult<()> {
        self.done(py, Command::Announce(tree(formula)?))
    }

    fn says(&self, py: Python<'_>, who: usize, formula: &Bound<'_, PyAny>) -> PyResult<()> {
        self.done(py, Command::Says(who, tree(formula)?))
    }

    fn learns(&self, py: Python<'_>, who: usize, values: &Bound<'_, PyAny>) -> PyResult<()> {
        let values = values
            .try_iter()?
            .map(|v| tree(&v?))
            .collect::<PyResult<_>>()?;
        self.done(py, Command::Learns(who, values))
    }

    fn actual(&self, py: Python<'_>, formula: &Bound<'_, PyAny>) -> PyResult<()> {
        self.done(py, Command::Actual(tree(formula)?))
    }

    fn reveals(&self, py: Python<'_>, who: usize, formula: &Bound<'_, PyAny>) -> PyResult<bool> {
        match self.ask(py, Command::Reveals(who, tree(formula)?))? {
            Reply::Bool(b) => Ok(b),
            _ => Err(internal("`reveals` gave no outcome")),
        }
    }

    fn check(&self, py: Python<'_>, formula: &Bound<'_, PyAny>) -> PyResult<()> {
        self.done(py, Command::Check(tree(formula)?))
    }

    fn expects(&self, py: Python<'_>, who: usize, formula: &Bound<'_, PyAny>) -> PyResult<()> {
        self.done(py, Command::Expects(who, tree(formula)?))
    }

    fn assign(&self, py: Python<'_>, constant: usize, value: &Bound<'_, PyAny>) -> PyResult<()> {
        self.done(
            py,
            Command::Assign(vec![(constant, tree(value)?)], "assign"),
        )
    }

    /// `changes`: `[(constant, value), …]`.
    fn assign_all(&self, py: Python<'_>, changes: &Bound<'_, PyAny>) -> PyResult<()> {
        let changes = events::changes_of(changes)?;
        self.done(py, Command::Assign(changes, "assign_all"))
    }

    fn check_actual(&self, py: Python<'_>, formula: &Bound<'_, PyAny>) -> PyResult<()> {
        self.done(py, Command::CheckActual(tree(formula)?))
    }

    /// An event block (see `events::EventSpec::from_py`); returns (event index, name,
    /// cases, occurrence's constant index, case or None, its index, what each character
    /// saw, the text).
    fn event<'py>(
        &self,
        py: Python<'py>,
        name: String,
        cases: &Bound<'py, PyAny>,
        sees: &Bound<'py, PyAny>,
        expects: &Bound<'py, PyAny>,
        actual: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let spec = EventSpec::from_py(name, cases, sees, expects, actual)?;
        match self.ask(py, Command::Event(Box::new(spec)))? {
            Reply::Happened(r) => r.into_pyobject(py),
            _ => Err(internal("`event` gave no report")),
        }
    }

    fn simultaneously(&self, py: Python<'_>, block: &Bound<'_, PyAny>) -> PyResult<Vec<bool>> {
        match self.ask(py, Command::Simultaneously(items(block)?))? {
            Reply::Bools(b) => Ok(b),
            _ => Err(internal("`simultaneously` gave no outcomes")),
        }
    }

    fn assert_adds_ck(
        &self,
        py: Python<'_>,
        hint: &Bound<'_, PyAny>,
        block: &Bound<'_, PyAny>,
    ) -> PyResult<&'static str> {
        match self.ask(py, Command::AssertAddsCk(tree(hint)?, items(block)?))? {
            Reply::Hint(h) => Ok(h),
            _ => Err(internal("`assert_adds_ck` gave no verdict")),
        }
    }

    /// (constant names, worlds as tuples of values, complete, their text, their
    /// probabilities as exact texts or None)
    fn worlds<'py>(&self, py: Python<'py>, limit: u64) -> PyResult<Bound<'py, PyTuple>> {
        match self.ask(py, Command::Worlds(limit))? {
            Reply::Worlds(names, worlds, complete, text, chances) => {
                let list = PyList::empty(py);
                for w in &worlds {
                    list.append(PyTuple::new(py, w)?)?;
                }
                (names, list, complete, text, chances).into_pyobject(py)
            }
            _ => Err(internal("`worlds` gave no worlds")),
        }
    }

    fn prior(&self, py: Python<'_>, weight: &Bound<'_, PyAny>) -> PyResult<()> {
        self.done(py, Command::Prior(tree(weight)?))
    }

    /// (expression, the actual world's value or None, [(value, worlds)], text), each
    /// value a pair (kind, value): see `chance::ShownReply::into_py`.
    fn show<'py>(
        &self,
        py: Python<'py>,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        match self.ask(py, Command::Show(expr::show_term(value)?))? {
            Reply::Shown(shown) => shown.into_py(py),
            _ => Err(internal("`show` gave no value")),
        }
    }

    /// An action's declaration: its name, its owner's index or None, its condition or
    /// None, and its body's cases, `sees` and `expects` lines (as `event` takes them);
    /// returns the action's index.
    #[allow(clippy::too_many_arguments)]
    fn action<'py>(
        &self,
        py: Python<'py>,
        name: String,
        by: Option<usize>,
        when: &Bound<'py, PyAny>,
        cases: &Bound<'py, PyAny>,
        sees: &Bound<'py, PyAny>,
        expects: &Bound<'py, PyAny>,
    ) -> PyResult<usize> {
        let spec = ActionSpec::from_py(py, name, by, when, (cases, sees, expects))?;
        self.index(py, Command::Action(Box::new(spec)))
    }

    /// `do`: `[(action index, case or None)]`; returns what happened at each, as `event`
    /// reports it.
    fn do_actions<'py>(
        &self,
        py: Python<'py>,
        steps: Vec<(usize, Option<String>)>,
    ) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        match self.ask(py, Command::Do(steps))? {
            Reply::Happenings(reports) => {
                (reports.into_iter()).map(|r| r.into_pyobject(py)).collect()
            }
            _ => Err(internal("`do` gave no report")),
        }
    }

    /// `plan`: (whether it found one, their length or None, the plans, the text).
    fn plan<'py>(
        &self,
        py: Python<'py>,
        goal: &Bound<'py, PyAny>,
        max: i64,
        keeping: &Bound<'py, PyAny>,
        coordinated: bool,
        all: bool,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let spec = PlanSpec::from_py(goal, max, keeping, coordinated, all)?;
        match self.ask(py, Command::Plan(Box::new(spec)))? {
            Reply::Planned(p) => p.into_pyobject(py),
            _ => Err(internal("`plan` gave no answer")),
        }
    }

    /// Ends the story's thread (also done when the story is collected).
    fn close(&self) {
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
    }
}
