//! The Rust API: state a puzzle in Rust instead of a story file.
//!
//! A [`Story`] declares characters and hidden constants, then tells what happens, one
//! call per statement. Every statement runs at once against a live engine, so a Rust
//! program can look at results (what [`Story::reveals`] found, the [`Story::worlds`]
//! still possible) and decide what happens next, which is how loops like the muddy
//! children's rounds are written (see `examples/muddy_children.rs`).
//!
//! Expressions are typed in Rust: [`Int`] (with `+ - * / %`), [`Formula`] (with
//! `& | !`, [`Formula::and`], [`Formula::knows`], [`Formula::believes`], …) and [`Enum`]. Constants are
//! expressions: `story.int("month")` returns an [`Int`]. Constants change by
//! [`Story::assign`] and [`Story::assign_all`] ([`Change`]), and by events.
//!
//! Probabilities (docs/language.md, "Probability") are [`Chance`] terms
//! ([`Formula::probability`], [`Formula::probability_of`], exact `+ - * /`) compared
//! into formulas; [`Story::prior`] and an event case's [`Case::weight`] weigh the
//! worlds, [`Story::show`] gives a value exactly, and [`PossibleWorld::probability`]
//! each world's probability.
//!
//! # Cheryl's birthday
//!
//! ```
//! use epipen::{Formula as F, Story};
//!
//! # fn main() -> Result<(), epipen::Error> {
//! let mut story = Story::new();
//! let albert = story.character("Albert");
//! let bernard = story.character("Bernard");
//! let month = story.int("month");
//! let day = story.int("day");
//!
//! // Cheryl wrote down ten dates: "My birthday is one of these."
//! story.announce(F::tuple_in(
//!     (&month, &day),
//!     [[5, 15], [5, 16], [5, 19], [6, 17], [6, 18],
//!      [7, 14], [7, 16], [8, 14], [8, 15], [8, 17]],
//! ))?;
//! story.learns(albert, &month)?;
//! story.learns(bernard, &day)?;
//! let whispered = story.checkpoint("whispered")?;
//!
//! // Albert: "I don't know when your birthday is, but I know Bernard doesn't know."
//! story.says(
//!     albert,
//!     !F::knows_value(albert, (&month, &day))
//!         & F::knows(albert, !F::knows_value(bernard, (&month, &day))),
//! )?;
//! // Bernard: "I didn't know originally, but now I do."
//! story.says(
//!     bernard,
//!     !F::at(whispered, F::knows_value(bernard, (&month, &day)))
//!         & F::knows_value(bernard, (&month, &day)),
//! )?;
//! // Albert: "Well, now I know too!"
//! story.says(albert, F::knows_value(albert, (&month, &day)))?;
//!
//! let worlds = story.worlds(10)?;
//! assert_eq!(worlds.len(), 1);
//! assert!(worlds.is_complete());
//! assert_eq!(worlds[0].int(&month), Some(7));
//! assert_eq!(worlds[0].int(&day), Some(16));
//! assert_eq!(worlds[0].to_string(), "month = 7, day = 16");
//! # Ok(())
//! # }
//! ```
//!
//! # Consecutive numbers
//!
//! Infinitely many worlds are fine: [`Story::worlds`] returns the first ones in the
//! canonical order and says more exist.
//!
//! ```
//! use epipen::{Formula as F, Story};
//!
//! # fn main() -> Result<(), epipen::Error> {
//! let mut story = Story::new();
//! let anne = story.character("Anne");
//! let bill = story.character("Bill");
//! let a = story.int("A");
//! let b = story.int("B");
//!
//! story.announce(a.ge(0) & b.ge(0) & (a.eq(&b + 1) | b.eq(&a + 1)))?;
//! story.learns(anne, &a)?;
//! story.learns(bill, &b)?;
//! story.says(anne, !F::knows_value(anne, &b))?;
//! story.says(bill, !F::knows_value(bill, &a))?;
//!
//! let middle = story.worlds(3)?;
//! assert!(!middle.is_complete());
//! assert_eq!(middle.len(), 3);
//!
//! story.says(anne, F::knows_value(anne, &b))?;
//! story.says(bill, F::knows_value(bill, &a))?;
//!
//! let worlds = story.worlds(10)?;
//! let pairs: Vec<(i64, i64)> = worlds
//!     .iter()
//!     .map(|w| (w.int(&a).unwrap(), w.int(&b).unwrap()))
//!     .collect();
//! assert_eq!(pairs, [(1, 2), (2, 3)]);
//! assert!(worlds.is_complete());
//! # Ok(())
//! # }
//! ```
//!
//! # Events
//!
//! [`Story::event`] runs one execution of an event, stated in a closure as the language's
//! `event NAME { … }` block: its [`Case`]s, each with a precondition and changes, who
//! sees which cases apart (and who expects which, see [Belief](#belief)), and the case
//! that happened. Each call is a new execution, so
//! rounds are a Rust loop; it returns what happened ([`Happened`]), and the [`Event`]
//! handle names the latest execution's case in later formulas. Here a die with three
//! faces is rolled three times; Alice sees each roll, Bob none:
//!
//! ```
//! use epipen::{Formula as F, Story};
//!
//! # fn main() -> Result<(), epipen::Error> {
//! let mut story = Story::new();
//! let (alice, bob) = (story.character("Alice"), story.character("Bob"));
//! let die = story.int("die");
//! story.announce(die.eq(0))?;
//! story.actual(die.eq(0))?;
//! for roll in [2, 3, 1] {
//!     let rolled = story.event("roll", |e| {
//!         for face in 1..=3 {
//!             e.case(&format!("face[{face}]")).then(&die, face);
//!         }
//!         e.sees_each(alice);
//!         e.actual(format!("face[{roll}]"));
//!     })?;
//!     assert_eq!(rolled.saw(alice), [format!("face[{roll}]")]);
//!     assert_eq!(rolled.saw(bob).len(), 3);
//! }
//! story.check_actual(F::knows(alice, die.eq(1)))?;
//! story.check_actual(!F::knows_value(bob, &die))?;
//! let worlds = story.worlds(100)?;
//! assert_eq!(worlds.len(), 27); // every history of three rolls
//! assert_eq!(
//!     worlds[0].to_string(),
//!     "die = 1, roll#1 = face[1], roll#2 = face[1], roll#3 = face[1]"
//! );
//! # Ok(())
//! # }
//! ```
//!
//! # Actions and plans
//!
//! [`Story::action`] declares an action (the language's `action NAME by A if φ { … }`):
//! an event's body, stated with the same [`EventBlock`] but without `actual`, with its
//! owner and the condition under which it can be done. [`Story::do_action`] and
//! [`Story::do_actions`] do actions as events; [`Story::plan`] searches for a shortest
//! sequence of them after which a goal holds ([`PlanOptions`]: `max`, `keeping`,
//! `coordinated`, `all`), a question that changes nothing. See [`Story::action`] for
//! the door mat (`stories/door-mat.story`).
//!
//! # Belief
//!
//! Knowledge is what a character cannot be wrong about; belief is what it takes to be
//! the case: [`Formula::believes`] and [`Formula::believes_value`] hold in the worlds a
//! character finds most plausible among those it cannot tell apart. An event's
//! [`EventBlock::expects`] line orders its cases by plausibility for a character, and
//! [`Story::expects`] makes the worlds where a formula holds more plausible for one
//! (docs/language.md, "Belief"). Sally-Anne: while Sally is out, Anne moves the marble;
//! Sally, away, takes it that nothing happened.
//!
//! ```
//! use epipen::{Formula as F, Story};
//!
//! # fn main() -> Result<(), epipen::Error> {
//! let mut story = Story::new();
//! let (sally, anne) = (story.character("Sally"), story.character("Anne"));
//! let place = story.enumeration("Place", &["basket", "box"]);
//! let marble = story.enum_constant(&place, "marble");
//! story.announce(marble.eq("basket"))?;
//! story.actual(marble.eq("basket"))?;
//! story.event("move", |e| {
//!     let moved = e.case("moved").when(marble.eq("basket")).then(&marble, "box");
//!     let stayed = e.case("stayed");
//!     e.sees(anne, [[moved], [stayed]]); // Anne knows what she did;
//!     e.expects(sally, [[stayed]]); // Sally expects that nothing happened.
//!     e.actual(moved);
//! })?;
//! // Sally does not know where the marble is, but she believes it is in the basket...
//! story.check_actual(!F::knows(sally, marble.eq("basket")))?;
//! story.check_actual(F::believes(sally, marble.eq("basket")))?;
//! story.check_actual(F::believes_value(sally, &marble))?;
//! // ...which is false (belief can be), and Anne knows she believes it.
//! story.check_actual(marble.eq("box"))?;
//! story.check_actual(F::knows(anne, F::believes(sally, marble.eq("basket"))))?;
//! // Sally looks into the basket: her belief is revised by what she sees.
//! story.learns(sally, marble.eq("basket"))?;
//! story.check_actual(F::knows(sally, marble.eq("box")))?;
//! # Ok(())
//! # }
//! ```
//!
//! # Text
//!
//! [`Story::tell`] runs statements written in the story language after the statements
//! so far, as if the story file went on: the names are the story's, whether declared
//! by a call or in text told before (a family [`Story::bools`] is `muddy[i]` in text, as
//! in a file), and what the text reports comes back as [`crate::views::Report`]s.
//!
//! # Errors
//!
//! Each statement is built as the story language's syntax tree and lowered as a story
//! file's statement is, so mistakes Rust's types cannot catch (comparing values of two
//! different enums, a knowledge operator where none is allowed, an unknown case, a case
//! missing from a `sees` line, …) are [`Error::Invalid`] in lowering's words (`message
//! (hint; hint)`), before anything reaches the engine; so are a handle of another story
//! and an unknown enum variant, which the expression carries until a statement uses it.
//! A statement that fails, for whatever reason, has no effect: the story is as it was
//! before the call.

#![warn(missing_docs)]

mod action;
mod belief;
mod blocks;
mod chance;
mod change;
mod error;
mod event;
mod expr;
mod handle;
mod handles;
mod live;
mod possible;
mod syntax;
mod tell;

pub use action::{Action, ActionDecl, PlanOptions, Planned};
pub use blocks::{Block, Simultaneous};
pub use chance::{Chance, Showable, Showing, Shown, ShownValue};
pub use change::{Change, ValueOf};
pub use error::{Error, Refutation};
pub use event::{Case, CaseRef, Event, EventBlock, Happened};
pub use expr::{Enum, EnumOperand, Expression, Formula, Int, Values};
pub use handle::Handle;
pub use handles::{Character, Checkpoint, EnumType};
pub use possible::{PossibleWorld, Worlds};
pub use tell::TOLD;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::engine::{Options, Report};
use crate::ir::{self, CharId, CheckpointId, Program, Stmt};
use crate::lower::Incremental;
use crate::syntax::{Diagnostic, ast};

use expr::Node;
use handles::EnumInfo;
use live::{Live, refutation};

/// Tells stories apart, so a handle of one story is never used in another.
static NEXT_STORY: AtomicU64 = AtomicU64::new(1);

/// How an [`Story::assert_adds_ck`] hint was handled.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Hint {
    /// Proven right; κ became κ_before ∧ hint.
    Verified {
        /// How long the block and the proof took.
        elapsed: Duration,
    },
    /// Taken on trust ([`Options::trust_hints`]).
    Trusted,
    /// Verified where no world was possible before the block: it holds only because
    /// nothing is left (the command line's "vacuous", exit code 1).
    Vacuous,
    /// Refuted, and the story went on with the block's true effect (only with
    /// [`Options::keep_refuted_hints`]; otherwise a refuted hint is
    /// [`Error::Refuted`]).
    Refuted(Refutation),
}

/// An epistemic puzzle, told statement by statement.
///
/// Declarations ([`Story::character`], [`Story::int`], [`Story::bool`],
/// [`Story::enumeration`], [`Story::enum_constant`]) return handles; statements
/// ([`Story::announce`], [`Story::learns`], [`Story::says`], …) run at once and return a
/// [`Result`]. Declarations may come at any time; one after the first statement makes
/// the next statement replay the story so far on a fresh engine (correct, but slower).
/// An event's execution declares the constant that records its case, but the engine is
/// given room for the executions to come, so that a loop of k executions replays the
/// story about log k times.
///
/// The engine is chosen as for a story file made of the statements so far (the
/// options' backend, or `auto`'s choice, which bounds the ints by the first
/// announcements: Cheryl's birthday runs on explicit worlds). Under `auto`, a later
/// statement that backend cannot run (a quantifier over bools on explicit worlds) makes
/// the story replay on the backend chosen knowing it.
///
/// A story uses Z3, whose contexts are thread-local: it stays on the thread that made it.
/// See the [module documentation](self) for complete examples.
pub struct Story {
    id: u64,
    options: Options,
    /// The declarations, and every statement that ran successfully.
    program: Program,
    live: Option<Live>,
    /// The backend `auto` chose for the last engine (see [`Story::replayed_for`]).
    auto_chose: Option<&'static str>,
    /// The deepest plan asked so far (0: none): the live engine has room for it.
    plan_depth: usize,
    /// The story's declarations as lowering knows them: each declaration goes through
    /// it, which checks its names (one namespace, as in a story file).
    lowering: Incremental,
    /// The names of the checkpoints handles were given for (a handle's id is its place
    /// here; lowering says whether it is saved where a statement names it).
    checkpoints: Vec<String>,
    /// A declaration lowering refused that returned a handle without room for an error
    /// (a character of a name already declared): every later statement fails with it.
    broken: Option<Error>,
    /// Every text [`Story::tell`] was given, each on new lines: the spans of the
    /// statements told point into it.
    told: String,
}

impl Default for Story {
    fn default() -> Story {
        Story::new()
    }
}

impl fmt::Debug for Story {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Story")
            .field("characters", &self.program.characters.len())
            .field("constants", &self.program.constants.len())
            .field("statements", &self.program.statements.len())
            .finish()
    }
}

impl Story {
    /// An empty story with default options.
    pub fn new() -> Story {
        Story::with_options(Options::default())
    }

    /// An empty story. Of the [`Options`]: `deadline` holds for every statement (an
    /// instant; for a time per statement, raise [`crate::engine::Cancel::time_out`] on
    /// `cancel` from a watching thread, as `epipen repl --timeout` and Python's `Story`
    /// do); `trust_hints` and `keep_refuted_hints` change [`Story::assert_adds_ck`];
    /// `skip_worlds_statements` does not matter here.
    pub fn with_options(options: Options) -> Story {
        Story {
            id: NEXT_STORY.fetch_add(1, Ordering::Relaxed),
            options,
            program: Program::default(),
            live: None,
            auto_chose: None,
            plan_depth: 0,
            lowering: Incremental::new(&[], 0),
            checkpoints: Vec::new(),
            broken: None,
            told: String::new(),
        }
    }

    /// The story as a lowered [`Program`]: its declarations and the statements that ran
    /// so far (e.g. for [`crate::worlds::world_line`] or to run it again elsewhere).
    pub fn program(&self) -> &Program {
        &self.program
    }

    // --- declarations ---

    /// Declares a character. Its name is one of the story's names, as in a story file:
    /// a name already declared (a character's, a constant's, an enum's or its value's)
    /// makes every later statement fail with [`Error::Invalid`].
    pub fn character(&mut self, name: &str) -> Character {
        self.declare_characters(decl(name), 1)[0]
    }

    /// Declares `n` characters named `name[0]`, …, `name[n-1]`, in one statement (as
    /// `characters A, B, C`): a name already declared refuses them all, and so does a
    /// family larger than a story file's may be (then no handle is made).
    pub fn characters(&mut self, name: &str, n: usize) -> Vec<Character> {
        match family(name, n) {
            Ok((decl, _)) => self.declare_characters(decl, n),
            Err(e) => {
                self.broken.get_or_insert(e);
                Vec::new()
            }
        }
    }

    /// Why every statement from now on fails, if one does: a character's declaration
    /// was refused ([`Story::character`]).
    pub fn refusal(&self) -> Option<&Error> {
        self.broken.as_ref()
    }

    /// Declares the `n` characters of `decl` (a name, or a family).
    fn declare_characters(&mut self, decl: ast::Decl, n: usize) -> Vec<Character> {
        let first = self.program.characters.len();
        let ids: Vec<CharId> = match self.declare(ast::StmtKind::Characters(vec![decl])) {
            Ok(()) => (first..first + n).map(CharId).collect(),
            Err(e) => {
                self.broken.get_or_insert(Error::Invalid(e));
                vec![CharId(usize::MAX); n] // no character's
            }
        };
        let story = self.id;
        ids.into_iter().map(|id| Character { story, id }).collect()
    }

    /// Declares the constants of `decl` (a name, or a family), of `sort` and named
    /// `names`: their nodes, each failing with lowering's refusal when it refuses them.
    /// Declared while an engine runs the story, they are told the story again with at
    /// once: when it fails with them (a constant after `actual`, which then allows
    /// several worlds), they are not declared, and their nodes fail with why.
    fn constants(&mut self, decl: ast::Decl, names: &[String], sort: ast::SortName) -> Vec<Node> {
        // Undone only when told again with them, on a running engine, fails.
        let before = self.live.as_ref().map(|_| self.lowering.clone());
        let shown = decl.name.name.clone();
        let declared = self.declare(ast::StmtKind::Constants {
            sort,
            names: vec![decl],
        });
        let retold = match (&declared, before) {
            (Ok(()), Some(before)) => self.ensure_live().map_err(|e| (e, before)),
            _ => Ok(()),
        };
        match (declared, retold) {
            (Ok(()), Ok(())) => (names.iter())
                .map(|n| Node::of(self.id, ast::Expr::named(n)))
                .collect(),
            (Ok(()), Err((e, before))) => {
                self.lowering = before;
                self.lowering.extend(&mut self.program);
                let e = Error::Story {
                    message: format!(
                        "`{shown}` cannot join the story now: told again with it, the story \
                         fails ({e})"
                    ),
                    hints: vec!["declare it before the statements it would change".into()],
                };
                vec![Node::failed(e); names.len()]
            }
            (Err(e), _) => vec![Node::failed(Error::Invalid(e)); names.len()],
        }
    }

    fn constant(&mut self, name: &str, sort: ast::SortName) -> Node {
        self.constants(decl(name), &[name.into()], sort).remove(0)
    }

    /// Declares a hidden integer constant (any integer: bound it with an announcement
    /// if needed). Names are unique among the story's names (characters, constants,
    /// enums and their values): a second `month` gives an expression that fails with
    /// [`Error::Invalid`] when used.
    pub fn int(&mut self, name: &str) -> Int {
        Int(self.constant(name, ast::SortName::Int))
    }

    /// Declares `n` int constants named `name[0]`, …, `name[n-1]`, in one statement
    /// (a name already declared refuses them all; a family larger than a story file's
    /// may be is one handle, refused).
    pub fn ints(&mut self, name: &str, n: usize) -> Vec<Int> {
        let nodes = self.family_of(name, n, ast::SortName::Int);
        nodes.into_iter().map(Int).collect()
    }

    /// Declares a hidden boolean constant, which is a [`Formula`].
    pub fn bool(&mut self, name: &str) -> Formula {
        Formula(self.constant(name, ast::SortName::Bool))
    }

    /// Declares `n` bool constants named `name[0]`, …, `name[n-1]`, in one statement
    /// (as [`Story::ints`]).
    pub fn bools(&mut self, name: &str, n: usize) -> Vec<Formula> {
        let nodes = self.family_of(name, n, ast::SortName::Bool);
        nodes.into_iter().map(Formula).collect()
    }

    /// The nodes of a family of constants: one refused node when it is too large.
    fn family_of(&mut self, name: &str, n: usize, sort: ast::SortName) -> Vec<Node> {
        match family(name, n) {
            Ok((decl, names)) => self.constants(decl, &names, sort),
            Err(e) => vec![Node::failed(e)],
        }
    }

    /// Declares an enum type with the given variants: `enum Colour { red, green }`.
    ///
    /// ```
    /// use epipen::Story;
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let colour = story.enumeration("Colour", &["red", "green", "blue"]);
    /// let cloe = story.enum_constant(&colour, "Cloe");
    /// let anya = story.enum_constant(&colour, "Anya");
    /// story.announce(cloe.ne("red") & anya.eq(&cloe) & anya.is_in(["red", "blue"]))?;
    /// let worlds = story.worlds(10)?;
    /// assert_eq!(worlds.len(), 1);
    /// assert_eq!(worlds[0].variant(&cloe), Some("blue"));
    /// assert_eq!(worlds[0].to_string(), "Cloe = blue, Anya = blue");
    /// # Ok(())
    /// # }
    /// ```
    ///
    /// The enum's name and its values are names of the story's: a name already declared
    /// (say a value of another enum) makes the enum's values and constants fail with
    /// [`Error::Invalid`] when used.
    pub fn enumeration(&mut self, name: &str, variants: &[&str]) -> EnumType {
        let error = self
            .declare(ast::StmtKind::Enum {
                name: ast::Ident::nowhere(name),
                variants: variants.iter().map(|v| ast::Ident::nowhere(v)).collect(),
            })
            .err()
            .map(Error::Invalid);
        EnumType(Arc::new(EnumInfo {
            story: self.id,
            name: name.into(),
            variants: variants.iter().map(|v| v.to_string()).collect(),
            event: false,
            error,
        }))
    }

    /// Declares a hidden constant of an enum type: one of its variants.
    pub fn enum_constant(&mut self, ty: &EnumType, name: &str) -> Enum {
        let node = if ty.0.story != self.id {
            Node::invalid("the enum type belongs to another story")
        } else if let Some(e) = &ty.0.error {
            Node::failed(e.clone())
        } else if ty.0.event {
            Node::invalid(format!(
                "`{}` is an event: constants are not declared of its cases",
                ty.0.name
            ))
        } else {
            self.constant(name, ast::SortName::Enum(ast::Ident::nowhere(&ty.0.name)))
        };
        Enum {
            node,
            ty: ty.clone(),
        }
    }

    /// The name a character was declared with (None for one of another story, or one
    /// whose declaration was refused).
    pub fn name(&self, who: Character) -> Option<&str> {
        let character = self.program.characters.get(who.id.0);
        character
            .filter(|_| who.story == self.id)
            .map(|c| c.name.as_str())
    }

    // --- statements ---

    /// `announce φ`: the storyteller announces φ, which becomes common knowledge.
    pub fn announce(&mut self, formula: impl Into<Formula>) -> Result<(), Error> {
        let stmt = self.announcement(None, formula.into())?;
        self.lower_run(stmt).map(drop)
    }

    /// `A: φ`: `who` truthfully announces φ (κ := κ ∧ K_A φ).
    pub fn says(&mut self, who: Character, formula: impl Into<Formula>) -> Result<(), Error> {
        let stmt = self.announcement(Some(who), formula.into())?;
        self.lower_run(stmt).map(drop)
    }

    /// `A learns e`: `who` gets access to the value of each expression (a constant, or
    /// any expression of constants): `learns(a, &month)`, `learns(a, (&x, &y))`,
    /// `learns(a, &x + &y)`. A formula with knowledge operators is learned as the truth
    /// value it has now: `learns(a, F::knows(b, p))` (an int or enum expression with
    /// them is an [`Error::Invalid`]).
    pub fn learns(&mut self, who: Character, values: impl Values) -> Result<(), Error> {
        let stmt = self.learn_stmt(who, values)?;
        // One statement per value, run as a unit so that a failure leaves no trace.
        self.lower_run(stmt).map(drop)
    }

    /// `checkpoint c`: saves the knowledge state (κ and who learned what) under `name`,
    /// for [`Formula::at`]. Saving under a name used before overwrites that checkpoint
    /// and returns the same handle.
    pub fn checkpoint(&mut self, name: &str) -> Result<Checkpoint, Error> {
        self.lower_run(ast::StmtKind::Checkpoint(ast::Ident::nowhere(name)))?;
        Ok(self.checkpoint_handle(name))
    }

    /// `actual φ`: declares the actual world, which φ (without knowledge operators)
    /// must pin down exactly. It is not announced. Needed by [`Story::reveals`]; later
    /// announcements must be true in it. It is declared once: a second `actual` is an
    /// [`Error::Invalid`].
    pub fn actual(&mut self, formula: impl Into<Formula>) -> Result<(), Error> {
        let e = self.ast(formula.into().0)?;
        self.lower_run(ast::StmtKind::Actual(e)).map(drop)
    }

    /// `A reveals φ`: `who` announces φ if it holds in the actual world, else `not φ`.
    /// Returns whether φ held.
    pub fn reveals(&mut self, who: Character, formula: impl Into<Formula>) -> Result<bool, Error> {
        let stmt = self.reveal_stmt(who, formula.into())?;
        let (_, events) = self.lower_run(stmt)?;
        Ok(reveal_outcomes(&events).first().copied().unwrap_or(false))
    }

    /// `simultaneously { … }`: every announcement made in `block` is evaluated in the
    /// state at the block's start, and they take effect together. Returns what each
    /// [`Simultaneous::reveals`] in the block found, in order.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let kids = story.characters("child", 2);
    /// let muddy = story.bools("muddy", 2);
    /// story.actual(muddy[0].clone() & muddy[1].clone())?;
    /// story.learns(kids[0], &muddy[1])?;
    /// story.learns(kids[1], &muddy[0])?;
    /// story.announce(F::any(&muddy))?;
    /// let round = |story: &mut Story| {
    ///     story.simultaneously(|s| {
    ///         for (kid, m) in kids.iter().zip(&muddy) {
    ///             s.reveals(*kid, F::knows_value(*kid, m));
    ///         }
    ///     })
    /// };
    /// assert_eq!(round(&mut story)?, [false, false]);
    /// assert_eq!(round(&mut story)?, [true, true]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn simultaneously(
        &mut self,
        block: impl FnOnce(&mut Simultaneous),
    ) -> Result<Vec<bool>, Error> {
        let mut s = Simultaneous {
            story: self,
            stmts: Vec::new(),
            error: None,
        };
        block(&mut s);
        let Simultaneous { stmts, error, .. } = s;
        if let Some(e) = error {
            return Err(e);
        }
        let block = ast::Block::nowhere(stmts);
        let (_, events) = self.lower_run(ast::StmtKind::Simultaneously(block))?;
        Ok(reveal_outcomes(&events))
    }

    /// `assert_adds_ck φ { … }`: runs `block`, then proves that it added exactly `hint`
    /// to the common knowledge (κ_after ≡ κ_before ∧ hint under κ_before), and keeps
    /// the small form κ_before ∧ hint. A wrong hint is [`Error::Refuted`], with a world
    /// where the two disagree.
    ///
    /// ```
    /// use epipen::{Error, Formula as F, Story};
    /// # fn main() -> Result<(), Error> {
    /// let mut story = Story::new();
    /// let anne = story.character("Anne");
    /// let a = story.int("A");
    /// let b = story.int("B");
    /// story.announce(a.ge(0) & b.ge(0) & (a.eq(&b + 1) | b.eq(&a + 1)))?;
    /// story.learns(anne, &a)?;
    /// // Right: Anne does not know B exactly when A > 0.
    /// story.assert_adds_ck(a.gt(0), |s| {
    ///     s.says(anne, !F::knows_value(anne, &b));
    /// })?;
    /// // Wrong: "B > 5" is not what "Anne knows B" adds.
    /// let err = story
    ///     .assert_adds_ck(b.gt(5), |s| {
    ///         s.says(anne, F::knows_value(anne, &b));
    ///     })
    ///     .unwrap_err();
    /// assert!(matches!(err, Error::Refuted(_)));
    /// # Ok(())
    /// # }
    /// ```
    pub fn assert_adds_ck(
        &mut self,
        hint: impl Into<Formula>,
        block: impl FnOnce(&mut Block),
    ) -> Result<Hint, Error> {
        let hint = self.ast(hint.into().0)?;
        let mut b = Block {
            story: self,
            stmts: Vec::new(),
            error: None,
        };
        block(&mut b);
        let Block { stmts, error, .. } = b;
        let body = ast::Block::nowhere(stmts);
        let ran = match error {
            Some(e) => Err(e),
            None => self.lower_run(ast::StmtKind::AssertAddsCk { hint, body }),
        };
        let (_, events) = ran?;
        Ok(events
            .into_iter()
            .rev()
            .find_map(|e| match e {
                Report::HintVerified { elapsed, .. } => Some(Hint::Verified { elapsed }),
                Report::HintTrusted { .. } => Some(Hint::Trusted),
                Report::Vacuous { .. } => Some(Hint::Vacuous),
                Report::HintRefuted { counterexample, .. } => {
                    Some(Hint::Refuted(refutation(&self.program, counterexample)))
                }
                _ => None,
            })
            .unwrap_or(Hint::Trusted))
    }

    /// `check φ`: φ must hold in every world possible now; nothing changes. A check
    /// that fails is an [`Error::Story`] naming a world where φ is false; one where no
    /// world is possible (vacuous) is an [`Error::Story`] too.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let kids = story.characters("child", 2);
    /// let muddy = story.bools("muddy", 2);
    /// story.learns(kids[0], &muddy[1])?;
    /// story.learns(kids[1], &muddy[0])?;
    /// // Where both are muddy, each sees a muddy child: everyone knows someone is...
    /// let someone = F::any(&muddy);
    /// let both = muddy[0].clone() & muddy[1].clone();
    /// story.check(both.implies(F::everyone_knows(&kids, someone.clone())))?;
    /// // ...but nowhere is it common knowledge until the father says it.
    /// assert!(story.check(F::common_knowledge(&kids, someone.clone())).is_err());
    /// story.announce(someone.clone())?;
    /// story.check(F::common_knowledge(&kids, someone))?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn check(&mut self, formula: impl Into<Formula>) -> Result<(), Error> {
        let e = self.ast(formula.into().0)?;
        let (_, reports) = self.lower_run(ast::StmtKind::Check(e))?;
        // Over no world a check holds only because nothing is left: it proves nothing.
        if reports.iter().any(|r| matches!(r, Report::Vacuous { .. })) {
            return Err(Error::Story {
                message: "the check is vacuous: no world is possible".into(),
                hints: vec!["an earlier statement left no world: see the story's worlds".into()],
            });
        }
        Ok(())
    }

    /// `check actual φ`: φ must hold in the actual world ([`Story::actual`]); nothing
    /// changes. A check that fails is an [`Error::Story`] naming the actual world; without
    /// an actual world it is an [`Error::Story`] too.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    /// # fn main() -> Result<(), epipen::Error> {
    /// let mut story = Story::new();
    /// let anne = story.character("Anne");
    /// let x = story.int("x");
    /// story.announce(x.is_in([1, 2, 3]))?;
    /// story.actual(x.eq(2))?;
    /// story.learns(anne, x.gt(1))?;
    /// story.check_actual(!F::knows_value(anne, &x))?; // in the actual world
    /// assert!(story.check(!F::knows_value(anne, &x)).is_err()); // not where x = 1
    /// # Ok(())
    /// # }
    /// ```
    pub fn check_actual(&mut self, formula: impl Into<Formula>) -> Result<(), Error> {
        let e = self.ast(formula.into().0)?;
        self.lower_run(ast::StmtKind::CheckActual(e)).map(drop)
    }

    /// Up to `limit` of the worlds possible now, in the canonical order (smaller
    /// magnitude first, then value by value in declaration order).
    pub fn worlds(&mut self, limit: u64) -> Result<Worlds, Error> {
        self.intact()?;
        self.ensure_live()?;
        let live = self.live.as_mut().expect("ensure_live made the engine");
        let shown = self.program.constants.len();
        let set = if live.engine.program().constants.len() > shown + live.steps {
            // The canonical order counts occurrences that have not happened (as a story's
            // later events count where it prints worlds): list them on an engine without
            // the spares, so that the order is the one the story as a file has at its end
            // (whose plans' steps come after its constants).
            let steps = self.plan_depth;
            self.replayed(Vec::new(), steps)?.engine.worlds(limit)?
        } else {
            live.engine.worlds(limit)?
        };
        // The declarations, which the story's are.
        let decls = Arc::new(self.lowering.program());
        let lowering = Arc::new(self.lowering.clone());
        Ok(Worlds {
            worlds: (set.worlds.into_iter().enumerate())
                .map(|(i, mut world)| {
                    world.0.truncate(shown);
                    PossibleWorld {
                        story: self.id,
                        world,
                        decls: decls.clone(),
                        lowering: lowering.clone(),
                        probability: set.chances.as_ref().and_then(|c| c.get(i).cloned()),
                    }
                })
                .collect(),
            complete: set.complete,
            decls,
        })
    }

    // --- internals ---

    /// Declares through lowering: `Err`, lowering's diagnostics (the declaration is
    /// then not made there).
    fn declare(&mut self, kind: ast::StmtKind) -> Result<(), Vec<Diagnostic>> {
        let stmt = ast::Stmt::nowhere(kind);
        self.lowering.stmt(&stmt)?;
        self.lowering.extend(&mut self.program);
        Ok(())
    }

    /// Lowers a statement the story built from handles' ASTs (resolved by
    /// [`Story::ast`]) after the story so far: its IR statements, its declarations
    /// joining the story's; or lowering's diagnostics.
    fn lower(&mut self, kind: ast::StmtKind) -> Result<Vec<Stmt>, Error> {
        self.intact()?;
        let stmt = ast::Stmt::nowhere(kind);
        self.lower_stmt(&stmt).map_err(Error::Invalid)
    }

    /// Lowers `stmt` after the story so far: its IR statements, its declarations
    /// joining the story's; or lowering's diagnostics.
    fn lower_stmt(&mut self, stmt: &ast::Stmt) -> Result<Vec<Stmt>, Vec<Diagnostic>> {
        let stmts = self.lowering.stmt(stmt)?;
        if self.lowering.declared() {
            self.lowering.extend(&mut self.program);
        }
        Ok(stmts)
    }

    /// Lowers a statement and runs what it lowers to, as a unit: on failure (lowering's
    /// or the engine's) the story is as it was.
    fn lower_run(&mut self, kind: ast::StmtKind) -> Result<(Vec<Stmt>, Vec<Report>), Error> {
        let before = self.lowering.clone();
        let stmts = self.lower(kind)?;
        self.run_lowered(before, stmts)
    }

    /// Runs what a statement lowered to (`before`: the lowering before it), as a unit:
    /// on failure the lowering is as it was.
    fn run_lowered(
        &mut self,
        before: Incremental,
        stmts: Vec<Stmt>,
    ) -> Result<(Vec<Stmt>, Vec<Report>), Error> {
        if stmts.is_empty() {
            return Ok((stmts, Vec::new()));
        }
        match self.run_all(stmts.clone()) {
            Ok(reports) => Ok((stmts, reports)),
            Err(e) => {
                self.lowering = before;
                self.lowering.extend(&mut self.program);
                Err(e)
            }
        }
    }

    /// The AST of an expression of this story, its characters and checkpoints named.
    fn ast(&self, node: Node) -> Result<ast::Expr, Error> {
        if node.story.is_some_and(|s| s != self.id) {
            return Err(Error::invalid(
                "an expression uses handles of another story",
            ));
        }
        let mut e = node.ast?;
        resolve(&mut e, &|p| self.named(p))?;
        Ok(e)
    }

    /// The name of the character or checkpoint a placeholder name stands for.
    fn named(&self, placeholder: &str) -> Result<Option<String>, Error> {
        match placeholder.strip_prefix("#checkpoint") {
            Some(k) => Ok(k
                .parse()
                .ok()
                .and_then(|k: usize| self.checkpoints.get(k).cloned())),
            None => character_named(&self.program.characters, placeholder),
        }
    }

    /// The handle of the checkpoint `name` (the same for the same name).
    fn checkpoint_handle(&mut self, name: &str) -> Checkpoint {
        let id = match self.checkpoints.iter().position(|c| c == name) {
            Some(k) => k,
            None => {
                self.checkpoints.push(name.into());
                self.checkpoints.len() - 1
            }
        };
        Checkpoint {
            story: self.id,
            id: CheckpointId(id),
        }
    }

    /// A character as the AST names it.
    fn character_ast(&self, who: Character) -> Result<ast::Expr, Error> {
        self.check_character(who)?;
        let mut e = ast::Expr::name(&expr::character_name(who.id));
        resolve(&mut e, &|p| self.named(p))?;
        Ok(e)
    }

    /// Fails while a refused declaration breaks the story.
    fn intact(&self) -> Result<(), Error> {
        match &self.broken {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }

    fn check_character(&self, who: Character) -> Result<(), Error> {
        if who.story == self.id {
            Ok(())
        } else {
            Err(Error::invalid("the character belongs to another story"))
        }
    }

    fn announcement(
        &self,
        who: Option<Character>,
        formula: Formula,
    ) -> Result<ast::StmtKind, Error> {
        let what = self.ast(formula.0)?;
        Ok(match who {
            None => ast::StmtKind::Announce(what),
            Some(who) => ast::StmtKind::Says {
                speaker: self.character_ast(who)?,
                what,
            },
        })
    }

    fn reveal_stmt(&self, who: Character, formula: Formula) -> Result<ast::StmtKind, Error> {
        Ok(ast::StmtKind::Reveals {
            who: self.character_ast(who)?,
            what: self.ast(formula.0)?,
        })
    }

    fn learn_stmt(&self, who: Character, values: impl Values) -> Result<ast::StmtKind, Error> {
        let who = self.character_ast(who)?;
        let nodes = values.into_nodes();
        if nodes.is_empty() {
            return Err(Error::invalid("`learns` needs at least one expression"));
        }
        let what = (nodes.into_iter())
            .map(|n| self.ast(n))
            .collect::<Result<_, _>>()?;
        Ok(ast::StmtKind::Learns { who, what })
    }
}

/// The declaration of a family of `n` named `name` (`name[n]`), and its members'
/// names `name[0]`, …, `name[n-1]`; lowering's refusal when it cannot have them, before
/// any is named.
fn family(name: &str, n: usize) -> Result<(ast::Decl, Vec<String>), Error> {
    let size = i64::try_from(n).unwrap_or(i64::MAX);
    if let Some(why) = crate::lower::family_refusal(size.into()) {
        return Err(Error::invalid(why));
    }
    let decl = ast::Decl {
        name: ast::Ident::nowhere(name),
        size: Some(ast::Expr::int(size)),
    };
    Ok((decl, (0..n).map(|i| format!("{name}[{i}]")).collect()))
}

/// One declared name, not a family.
fn decl(name: &str) -> ast::Decl {
    ast::Decl {
        name: ast::Ident::nowhere(name),
        size: None,
    }
}

fn reveal_outcomes(events: &[Report]) -> Vec<bool> {
    events
        .iter()
        .filter_map(|e| match e {
            Report::Reveal { holds, .. } => Some(*holds),
            _ => None,
        })
        .collect()
}

/// Replaces the placeholder names of characters and checkpoints in `e` by `named`'s
/// names for them (`None`: not a placeholder).
pub(super) fn resolve(
    e: &mut ast::Expr,
    named: &dyn Fn(&str) -> Result<Option<String>, Error>,
) -> Result<(), Error> {
    use ast::ExprKind as K;
    match &mut e.kind {
        K::Name(n) => {
            if let Some(name) = named(&n.name)? {
                *e = ast::Expr::named(&name);
            }
            Ok(())
        }
        K::Unary { operand, .. } => resolve(operand, named),
        K::Binary { lhs, rhs, .. } => {
            resolve(lhs, named)?;
            resolve(rhs, named)
        }
        K::Ite {
            cond,
            then,
            otherwise,
        } => {
            resolve(cond, named)?;
            resolve(then, named)?;
            resolve(otherwise, named)
        }
        K::Tuple(items) | K::Call { args: items, .. } => {
            items.iter_mut().try_for_each(|i| resolve(i, named))
        }
        K::In { element, set, .. } => {
            resolve(element, named)?;
            set.iter_mut().try_for_each(|i| resolve(i, named))
        }
        K::Index { index, .. } => resolve(index, named),
        _ => Ok(()),
    }
}

/// The character a placeholder name names in `characters` (`None`: no character's
/// placeholder).
pub(super) fn character_named(
    characters: &[ir::Character],
    placeholder: &str,
) -> Result<Option<String>, Error> {
    let Some(k) = placeholder.strip_prefix("#character") else {
        return Ok(None);
    };
    let character = k.parse::<usize>().ok().and_then(|k| characters.get(k));
    match character {
        Some(c) => Ok(Some(c.name.clone())),
        None => Err(Error::invalid("the character is not declared")),
    }
}
