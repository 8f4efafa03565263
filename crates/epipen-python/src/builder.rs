//! `epipen.Story`: the Rust API's [`epipen::Story`] from Python. A story runs each
//! statement at once against a live engine whose Z3 terms belong to one thread, so each
//! Python `Story` has its own thread that owns the Rust story and its handles, and runs
//! the statements the Python thread sends it (with the GIL released, and Ctrl-C
//! cancelling the statement: a statement that fails has no effect).
//!
//! Python's expressions are native handles (`builder/expr.rs`), each holding the story
//! language's AST of its expression ([`Term`]), which a statement hands to the Rust
//! API ([`Formula::from_syntax`], …): lowering checks it and gives the messages of
//! mistakes.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use epipen::engine::{Cancel, Options};
use epipen::story::Expression;
use epipen::{Chance, Character, Enum, EnumType, Error, Formula, Int, Story};
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
mod named;

use actions::{ActionSpec, PlanSpec, Planned, Steps};
use blocks::{Item, announce_all};
use events::{CaseItem, CaseSpec, EventSpec, Groups, Reported};
use expr::{EnumOf, Shown, Term, Type};

/// What a statement answers, or its mistake.
type Answer<T> = Result<T, Located>;

/// A value of the story, typed.
#[derive(Debug, Clone)]
enum Value {
    Int(Int),
    Bool(Formula),
    Enum(Enum),
    Chance(Chance),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "an int",
            Value::Bool(_) => "a bool",
            Value::Enum(_) => "an enum value",
            Value::Chance(_) => "a probability",
        }
    }
}

/// The values of a `learns`, by type: the Rust API's [`epipen::Values`] (a tuple), so
/// that they are learned in one statement.
type Learned = (Vec<Int>, Vec<Formula>, Vec<Enum>);

/// What statements refer to: the story's handles.
#[derive(Default)]
struct Handles {
    characters: Vec<Character>,
    enums: Vec<EnumType>,
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

    /// The expression `t` as the Rust API types it.
    fn value(&self, t: &Term) -> Result<Value, String> {
        let e = t.ast.clone();
        Ok(match t.ty {
            Type::Int => Value::Int(Int::from_syntax(e)),
            Type::Bool => Value::Bool(Formula::from_syntax(e)),
            Type::Probability => Value::Chance(Chance::from_syntax(e)),
            Type::Enum => Value::Enum(self.enum_type(t.enum_of)?.from_syntax(e)),
        })
    }

    fn int(&self, t: &Term) -> Result<Int, String> {
        match self.value(t)? {
            Value::Int(i) => Ok(i),
            v => Err(format!("expected an int, found {}", v.kind())),
        }
    }

    fn formula(&self, t: &Term) -> Result<Formula, String> {
        match self.value(t)? {
            Value::Bool(f) => Ok(f),
            v => Err(format!("expected a formula (a bool), found {}", v.kind())),
        }
    }

    /// `learns`'s values, by type (learning is of each value).
    fn learned(&self, values: &[Term]) -> Result<Learned, String> {
        if values.is_empty() {
            return Err("`learns` needs at least one expression".into());
        }
        let mut learned = Learned::default();
        for t in values {
            match self.value(t)? {
                Value::Int(i) => learned.0.push(i),
                Value::Bool(b) => learned.1.push(b),
                Value::Enum(e) => learned.2.push(e),
                v => return Err(format!("`learns` of {}", v.kind())),
            }
        }
        Ok(learned)
    }

    fn enum_type(&self, of: Option<EnumOf>) -> Result<EnumType, String> {
        let ty = match of {
            Some(EnumOf::Declared(k)) => self.enums.get(k).cloned(),
            Some(EnumOf::Event(k)) => (self.events.get(k)).map(|e| e.latest().enum_type().clone()),
            None => None,
        };
        ty.ok_or_else(|| "an enum value of another story".to_string())
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

/// A family's size as Python gives it, or lowering's refusal (a negative one, or more
/// members than a story file's family may have), before any member is named.
fn family_size(n: i128) -> Answer<usize> {
    match epipen::lower::family_refusal(n) {
        Some(why) => Err(invalid(why)),
        None => Ok(n as usize),
    }
}

/// A statement's failure, as the package raises it: its messages (lowering's diagnostics',
/// or the story's) at no place, and the first one's hint apart.
fn failed(e: Error) -> Located {
    let kind = match &e {
        Error::Solver(_) => Kind::Solver,
        Error::Refuted(_) => Kind::Refuted,
        _ => Kind::Story,
    };
    let mut located = Located::plain(kind, e.to_string());
    let (messages, hint) = match &e {
        Error::Invalid(diagnostics) if !diagnostics.is_empty() => (
            diagnostics.iter().map(|d| d.message.clone()).collect(),
            diagnostics[0].hints.first(),
        ),
        Error::Story { message, hints } => (vec![message.clone()], hints.first()),
        _ => return located,
    };
    located.errors = messages.into_iter().map(|m| (None, None, m)).collect();
    located.hint = hint.cloned();
    located
}

impl Actor {
    fn assign(&mut self, pairs: &[(Term, Term)], op: &'static str) -> Answer<()> {
        let changes = events::changes(&self.handles, pairs, op).map_err(invalid)?;
        self.story.assign_all(changes).map_err(failed)
    }

    fn formula(&self, t: &Term) -> Answer<Formula> {
        self.handles.formula(t).map_err(invalid)
    }

    fn character(&self, k: usize) -> Answer<Character> {
        self.handles.character(k).map_err(invalid)
    }

    /// Declares constants with `declare`, in one statement: the first one's index
    /// among the story's (the others follow it), or lowering's refusal at once (a name
    /// already declared).
    /// Characters declared by `declare`: the first one's index, or the refusal of the
    /// declaration (which every later statement gets too).
    fn characters(&mut self, declare: impl FnOnce(&mut Story) -> Vec<Character>) -> Answer<usize> {
        let refused_before = self.story.refusal().is_some();
        let made = declare(&mut self.story);
        if let Some(e) = self.story.refusal().filter(|_| !refused_before) {
            return Err(failed(e.clone()));
        }
        let first = self.handles.characters.len();
        self.handles.characters.extend(made);
        Ok(first)
    }

    fn constants<T: Expression>(
        &mut self,
        declare: impl FnOnce(&mut Story) -> Vec<T>,
    ) -> Answer<usize> {
        let made = declare(&mut self.story);
        if let Some(e) = made.first().and_then(Expression::refused) {
            return Err(failed(e.clone()));
        }
        Ok(self.story.program().constants.len() - made.len())
    }

    /// (constant names, worlds as tuples of values, complete, their text, their
    /// probabilities as exact texts or None)
    fn worlds(&mut self, limit: u64) -> Answer<Worlds> {
        let worlds = self.story.worlds(limit).map_err(failed)?;
        let program = self.story.program();
        let names = program.constants.iter().map(|c| c.name.clone()).collect();
        let values = (worlds.iter())
            .map(|w| convert::world(program, w.world()))
            .collect();
        let chances = (worlds.iter())
            .map(|w| w.probability().map(ToString::to_string))
            .collect::<Option<Vec<String>>>()
            .filter(|_| !worlds.is_empty());
        let (complete, text) = (worlds.is_complete(), worlds.to_string());
        Ok((names, values, complete, text, chances))
    }
}

impl Actor {
    /// The story's constants' names and what the statements of `text` reported (each
    /// report as `run` gives it), or the failure located in the text told, as the
    /// command line words it.
    fn tell(&mut self, text: &str) -> Answer<(Vec<String>, serde_json::Value)> {
        let reports = self.story.tell(text).map_err(Located::new)?;
        let names = (self.story.program().constants.iter()).map(|c| c.name.clone());
        let reports = reports.iter().map(crate::run::report_json).collect();
        Ok((names.collect(), serde_json::Value::Array(reports)))
    }
}

/// What `worlds` answers: see [`Actor::worlds`].
type Worlds = (
    Vec<String>,
    Vec<Vec<Out>>,
    bool,
    String,
    Option<Vec<String>>,
);

/// A statement for the story's thread.
type Job = Box<dyn FnOnce(&mut Actor) + Send>;

fn serve(mut actor: Actor, jobs: Receiver<Job>) {
    for job in jobs {
        // The previous statement has stopped: a cancelled one must not stop this one.
        actor.cancel.reset();
        job(&mut actor);
    }
}

/// The native side of `epipen.Story`: a channel to the story's thread.
#[pyclass(module = "epipen._native")]
pub(crate) struct NativeStory {
    jobs: Mutex<Option<Sender<Job>>>,
    cancel: Cancel,
    /// Each statement's time (the flag times it out).
    timeout: Option<Duration>,
    /// The process whose thread holds the story (a forked child has no such thread).
    owner: u32,
}

impl NativeStory {
    /// Runs `job` on the story's thread (the GIL released, Ctrl-C cancelling it).
    fn ask<T: Send + 'static>(
        &self,
        py: Python<'_>,
        job: impl FnOnce(&mut Actor) -> Answer<T> + Send + 'static,
    ) -> PyResult<T> {
        if std::process::id() != self.owner {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "this epipen.Story was made before the process forked, and its engine stayed \
                 in the parent: make the Story in the child process",
            ));
        }
        let (tx, rx) = mpsc::channel();
        let job: Job = Box::new(move |actor| {
            let answer = catch_unwind(AssertUnwindSafe(|| job(actor)));
            let _ = tx.send(answer.map_err(|panic| panic_message(&*panic)));
        });
        let jobs = self.jobs.lock().unwrap_or_else(|e| e.into_inner());
        if !matches!(jobs.as_ref().map(|jobs| jobs.send(job)), Some(Ok(()))) {
            return Err(internal("the story's thread stopped"));
        }
        drop(jobs);
        let deadline = self.timeout.and_then(|t| Instant::now().checked_add(t));
        wait(py, rx, &self.cancel, deadline)?.map_err(|e| e.into_pyerr(py))
    }
}

#[pymethods]
impl NativeStory {
    #[new]
    #[pyo3(signature = (backend, timeout, trust_hints))]
    fn new(backend: &str, timeout: Option<f64>, trust_hints: bool) -> PyResult<NativeStory> {
        let timeout = timeout_of(timeout)?;
        let cancel = Cancel::new();
        let options = Options {
            strategy: strategy(backend)?,
            trust_hints,
            cancel: cancel.clone(),
            ..Options::default()
        };
        let (tx, rx) = mpsc::channel::<Job>();
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
            jobs: Mutex::new(Some(tx)),
            cancel,
            timeout,
            owner: std::process::id(),
        })
    }

    fn character(&self, py: Python<'_>, name: String) -> PyResult<usize> {
        self.ask(py, move |a| a.characters(|s| vec![s.character(&name)]))
    }

    /// `name[0]`, …, `name[n-1]` in one statement: the first one's index.
    fn characters(&self, py: Python<'_>, name: String, n: i128) -> PyResult<usize> {
        self.ask(py, move |a| {
            let n = family_size(n)?;
            a.characters(|s| s.characters(&name, n))
        })
    }

    fn int(&self, py: Python<'_>, name: String) -> PyResult<usize> {
        self.ask(py, move |a| a.constants(|s| vec![s.int(&name)]))
    }

    /// `name[0]`, …, `name[n-1]` in one statement: the first one's index.
    fn ints(&self, py: Python<'_>, name: String, n: i128) -> PyResult<usize> {
        self.ask(py, move |a| {
            let n = family_size(n)?;
            a.constants(|s| s.ints(&name, n))
        })
    }

    fn bool(&self, py: Python<'_>, name: String) -> PyResult<usize> {
        self.ask(py, move |a| a.constants(|s| vec![s.bool(&name)]))
    }

    /// `name[0]`, …, `name[n-1]` in one statement: the first one's index.
    fn bools(&self, py: Python<'_>, name: String, n: i128) -> PyResult<usize> {
        self.ask(py, move |a| {
            let n = family_size(n)?;
            a.constants(|s| s.bools(&name, n))
        })
    }

    fn enumeration(&self, py: Python<'_>, name: String, variants: Vec<String>) -> PyResult<usize> {
        self.ask(py, move |a| {
            let variants: Vec<&str> = variants.iter().map(String::as_str).collect();
            a.handles.enums.push(a.story.enumeration(&name, &variants));
            Ok(a.handles.enums.len() - 1)
        })
    }

    fn enum_constant(&self, py: Python<'_>, ty: usize, name: String) -> PyResult<usize> {
        self.ask(py, move |a| {
            let ty = (a.handles.enums.get(ty).cloned())
                .ok_or_else(|| invalid("an enum of another story".into()))?;
            a.constants(|s| vec![s.enum_constant(&ty, &name)])
        })
    }

    fn checkpoint(&self, py: Python<'_>, name: String) -> PyResult<()> {
        self.ask(py, move |a| {
            a.story.checkpoint(&name).map(drop).map_err(failed)
        })
    }

    fn announce(&self, py: Python<'_>, formula: Term) -> PyResult<()> {
        self.ask(py, move |a| {
            a.story.announce(a.formula(&formula)?).map_err(failed)
        })
    }

    fn says(&self, py: Python<'_>, who: usize, formula: Term) -> PyResult<()> {
        self.ask(py, move |a| {
            let who = a.character(who)?;
            a.story.says(who, a.formula(&formula)?).map_err(failed)
        })
    }

    fn learns(&self, py: Python<'_>, who: usize, values: Vec<Term>) -> PyResult<()> {
        self.ask(py, move |a| {
            let who = a.character(who)?;
            let learned = a.handles.learned(&values).map_err(invalid)?;
            a.story.learns(who, learned).map_err(failed)
        })
    }

    fn actual(&self, py: Python<'_>, formula: Term) -> PyResult<()> {
        self.ask(py, move |a| {
            a.story.actual(a.formula(&formula)?).map_err(failed)
        })
    }

    fn reveals(&self, py: Python<'_>, who: usize, formula: Term) -> PyResult<bool> {
        self.ask(py, move |a| {
            let who = a.character(who)?;
            a.story.reveals(who, a.formula(&formula)?).map_err(failed)
        })
    }

    fn check(&self, py: Python<'_>, formula: Term) -> PyResult<()> {
        self.ask(py, move |a| {
            a.story.check(a.formula(&formula)?).map_err(failed)
        })
    }

    fn expects(&self, py: Python<'_>, who: usize, formula: Term) -> PyResult<()> {
        self.ask(py, move |a| {
            let who = a.character(who)?;
            a.story.expects(who, a.formula(&formula)?).map_err(failed)
        })
    }

    fn assign(&self, py: Python<'_>, constant: Term, value: Term) -> PyResult<()> {
        self.ask(py, move |a| a.assign(&[(constant, value)], "assign"))
    }

    /// `changes`: `[(constant, value), …]`.
    fn assign_all(&self, py: Python<'_>, changes: Vec<(Term, Term)>) -> PyResult<()> {
        self.ask(py, move |a| a.assign(&changes, "assign_all"))
    }

    fn check_actual(&self, py: Python<'_>, formula: Term) -> PyResult<()> {
        self.ask(py, move |a| {
            a.story.check_actual(a.formula(&formula)?).map_err(failed)
        })
    }

    /// An event block: its name, `[(case, when or None, [(constant, value)], weight or
    /// None)]`, `[(who, groups or None)]`, `[(who, groups)]`, `[case]`; returns what
    /// happened (see [`Reported`]).
    fn event(
        &self,
        py: Python<'_>,
        name: String,
        cases: Vec<CaseSpec>,
        sees: Vec<(usize, Option<Groups>)>,
        expects: Vec<(usize, Groups)>,
        actual: Vec<CaseItem>,
    ) -> PyResult<Reported> {
        let spec = EventSpec {
            name,
            cases,
            sees,
            expects,
            actual,
        };
        self.ask(py, move |a| a.event(spec))
    }

    fn simultaneously(&self, py: Python<'_>, block: Vec<Item>) -> PyResult<Vec<bool>> {
        self.ask(py, move |a| {
            let statements = a.simultaneous(&block)?;
            (a.story)
                .simultaneously(|s| announce_all(s, statements))
                .map_err(failed)
        })
    }

    fn assert_adds_ck(
        &self,
        py: Python<'_>,
        hint: Term,
        block: Vec<Item>,
    ) -> PyResult<&'static str> {
        self.ask(py, move |a| a.assert_adds_ck(&hint, &block))
    }

    /// See [`Actor::worlds`].
    fn worlds<'py>(&self, py: Python<'py>, limit: u64) -> PyResult<Bound<'py, PyTuple>> {
        let (names, worlds, complete, text, chances) = self.ask(py, move |a| a.worlds(limit))?;
        let list = PyList::empty(py);
        for w in &worlds {
            list.append(PyTuple::new(py, w)?)?;
        }
        (names, list, complete, text, chances).into_pyobject(py)
    }

    /// See [`Actor::tell`]: (the constants' names, the reports) as Python data.
    fn tell<'py>(&self, py: Python<'py>, text: String) -> PyResult<Bound<'py, PyTuple>> {
        let (names, reports) = self.ask(py, move |a| a.tell(&text))?;
        (names, convert::view(py, &reports)?).into_pyobject(py)
    }

    /// How many characters and constants the story declared (by Python or in text;
    /// not the constants of events' executions).
    fn declared(&self, py: Python<'_>) -> PyResult<(usize, usize)> {
        self.ask(py, |a| {
            let program = a.story.program();
            let constants = program.constants.iter().filter(|c| c.occurrence.is_none());
            Ok((program.characters.len(), constants.count()))
        })
    }

    /// The story so far as story text: [`Story::text`].
    fn text(&self, py: Python<'_>) -> PyResult<String> {
        self.ask(py, |a| a.story.text().map_err(failed))
    }

    /// The handle of `name` as Python makes it: see `named::Named::into_py`.
    fn handle<'py>(&self, py: Python<'py>, name: String) -> PyResult<Bound<'py, PyAny>> {
        self.ask(py, move |a| a.handle(&name))?.into_py(py)
    }

    fn prior(&self, py: Python<'_>, weight: Term) -> PyResult<()> {
        self.ask(py, move |a| a.prior(&weight))
    }

    /// (expression, the actual world's value or None, [(value, worlds)], text), each
    /// value a pair (kind, value): see `chance::ShownReply::into_py`.
    fn show<'py>(&self, py: Python<'py>, value: Shown) -> PyResult<Bound<'py, PyTuple>> {
        self.ask(py, move |a| a.show(&value.0))?.into_py(py)
    }

    /// An action's declaration: its name, its owner's index or None, its condition or
    /// None, and its body's cases, `sees` and `expects` lines (as `event` takes them);
    /// returns the action's index.
    #[allow(clippy::too_many_arguments)]
    fn action(
        &self,
        py: Python<'_>,
        name: String,
        by: Option<usize>,
        when: Option<Term>,
        cases: Vec<CaseSpec>,
        sees: Vec<(usize, Option<Groups>)>,
        expects: Vec<(usize, Groups)>,
    ) -> PyResult<usize> {
        let body = EventSpec {
            name,
            cases,
            sees,
            expects,
            actual: Vec::new(),
        };
        self.ask(py, move |a| a.action(ActionSpec { by, when, body }))
    }

    /// `do`: `[(action index, case or None)]`; returns what happened at each, as `event`
    /// reports it.
    fn do_actions(&self, py: Python<'_>, steps: Steps) -> PyResult<Vec<Reported>> {
        self.ask(py, move |a| a.do_actions(steps))
    }

    /// `plan`: (whether it found one, their length or None, the plans, the text).
    fn plan(
        &self,
        py: Python<'_>,
        goal: Term,
        max: i64,
        keeping: Option<Term>,
        coordinated: bool,
        all: bool,
    ) -> PyResult<Planned> {
        let spec = PlanSpec {
            goal,
            max,
            keeping,
            coordinated,
            all,
        };
        self.ask(py, move |a| a.plan(spec))
    }

    /// Ends the story's thread (also done when the story is collected).
    fn close(&self) {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}
