//! Statements written in the story language, told to a [`Story`] after the story so
//! far: [`Story::tell`].

use std::rc::Rc;

use crate::engine::Options;
use crate::failure::Failure;
use crate::ir::{Stmt, StmtKind};
use crate::lower::Incremental;
use crate::session::{Session, as_written};
use crate::syntax::{self, Declared, Diagnostic, Span, ast};
use crate::views;

use super::Story;

/// The name messages give the text told to a story.
pub const TOLD: &str = "<told>";

impl Story {
    /// An empty story whose told texts ([`Story::tell`]) compile as a story file does
    /// with `sets` (`--set NAME=VALUE`: a `const` declared with one of these names takes
    /// its value) and `seed` (`--seed`, for `sample`). A value for a const no text
    /// declares changes nothing.
    pub fn with_sets(options: Options, sets: &[(String, i64)], seed: u64) -> Story {
        Story {
            lowering: Incremental::new(sets, seed),
            ..Story::with_options(options)
        }
    }

    /// The story so far as a story file writes it: every declaration and statement
    /// that took effect, in order, whether made by calls or told as text (comments and
    /// layout aside); `epipen run` on it tells the same story. A failed statement is
    /// not in it, nor a `plan` (a question the story does not keep); `worlds` and
    /// `where` told as text are (they print again). Consts are as declared: a
    /// story made [`Story::with_sets`] runs the same with the same `--set`s and seed.
    ///
    /// ```
    /// use epipen::{Formula as F, Story};
    ///
    /// let mut story = Story::new();
    /// let anne = story.character("Anne");
    /// let x = story.int("x");
    /// story.announce(x.ge(0) & x.le(3)).unwrap();
    /// story.learns(anne, &x % 2).unwrap();
    /// story.says(anne, F::knows(anne, x.ne(1))).unwrap();
    /// assert_eq!(
    ///     story.text().unwrap(),
    ///     "characters Anne\nint x\nannounce x >= 0 and x <= 3\nAnne learns x % 2\n\
    ///      Anne: knows(Anne, x != 1)\n"
    /// );
    /// ```
    ///
    /// A story that names an execution of an event ([`Happened::occurrence`]:
    /// `flip#2`), which the story language cannot write, has no text: [`Error::Invalid`]
    /// names its statement.
    ///
    /// [`Happened::occurrence`]: super::Happened::occurrence
    /// [`Error::Invalid`]: super::Error::Invalid
    pub fn text(&self) -> Result<String, super::Error> {
        // Each statement printed once, as `ast::Story`'s `Display` prints a story
        // without a setting. The printer writes `#` only for an execution (`flip#2`): no
        // comment, and no setting in a story made here.
        let mut text = String::new();
        for stmt in self.lowering.story().statements {
            let printed = stmt.to_string();
            if printed.contains('#') {
                let first = printed.lines().next().unwrap_or_default();
                return Err(super::Error::invalid(format!(
                    "the story has no text: `{first}` names an execution of an event (a \
                     `Happened::occurrence`, `event#k`), which the story language cannot write"
                )));
            }
            text.push_str(&printed);
            text.push('\n');
        }
        Ok(text)
    }

    /// Tells the story `text`, statements written in the story language (declarations
    /// too), after the statements so far: the handles' names are the story's names, and
    /// what `text` declares is the story's, for later calls and later texts. Returns
    /// what the statements report, as `epipen run` reports a story file's (the worlds of
    /// a `worlds` or `where` statement, reveals, events, checks, plans).
    ///
    /// The statements run in order, each as a call of the API would run it, and the
    /// text is a unit, as a statement is: when one fails, the text has no effect (the
    /// statements before it are undone). A text that declares something after the
    /// story began tells the story again with it before it ends: a declaration the
    /// story cannot take (a constant after `actual`) fails the text there. The failure is located as a story file's, in
    /// the whole text told to the story so far (each text starts on a new line of it,
    /// named [`TOLD`]), so that its line counts from the first text told.
    ///
    /// ```
    /// use epipen::Story;
    /// use epipen::views::Report;
    ///
    /// let mut story = Story::new();
    /// let anne = story.character("Anne");
    /// let x = story.int("x");
    /// story.learns(anne, &x % 2).unwrap();
    /// let reports = story
    ///     .tell("announce 1 <= x and x <= 3\nAnne: knows_value(x)\nworlds")
    ///     .unwrap();
    /// let Report::Worlds { line, worlds } = &reports[0] else { panic!() };
    /// assert_eq!((*line, worlds.worlds.len()), (3, 1));
    /// assert_eq!(story.worlds(10).unwrap()[0].int(&x), Some(2));
    ///
    /// let wrong = story.tell("announce y > 1").unwrap_err();
    /// assert_eq!(epipen::text::failure(&wrong).lines().next(),
    ///            Some("<told>:4:10: error: unknown name `y`"));
    /// ```
    pub fn tell(&mut self, text: &str) -> Result<Vec<views::Report>, Failure> {
        if let Err(e) = self.intact() {
            return Err(Failure::story(
                Diagnostic::error(Span::default(), e.to_string()).locate(TOLD, ""),
            ));
        }
        if !self.told.is_empty() && !self.told.ends_with('\n') {
            self.told.push('\n');
        }
        let start = self.told.len();
        self.told.push_str(text);
        let declared = Declared {
            enums: self.program.enums.iter().map(|e| e.name.clone()).collect(),
            characters: (self.program.characters.iter())
                .map(|c| c.name.clone())
                .collect(),
        };
        let statements = syntax::parse_part(&self.told, start, &declared)
            .map_err(|diagnostics| Failure::story_errors(TOLD, &self.told, &diagnostics))?;
        let before = (
            self.lowering.clone(),
            self.program.statements.len(),
            self.plan_depth,
        );
        let told = self.tell_statements(&statements);
        if told.is_err() {
            // The text is a unit: the statements before the one that failed are undone.
            let (lowering, ran, plan_depth) = before;
            if self.program.statements.len() > ran {
                self.live = None;
            }
            self.lowering = lowering;
            self.lowering.extend(&mut self.program);
            self.program.statements.truncate(ran);
            self.plan_depth = plan_depth;
        }
        told
    }

    /// Runs `statements`, parsed from the text told, in order: what they report, or the
    /// first failure.
    fn tell_statements(&mut self, statements: &[ast::Stmt]) -> Result<Vec<views::Report>, Failure> {
        let mut views = Vec::new();
        // A declaration while an engine runs the story: its span.
        let mut late = None;
        for stmt in statements {
            let mut stmts = (self.lower_stmt(stmt))
                .map_err(|diagnostics| Failure::story_errors(TOLD, &self.told, &diagnostics))?;
            as_written(&self.told, &mut stmts);
            self.plan_depth = self.plan_depth.max(self.lowering.plan_depth());
            if stmts.is_empty() {
                if self.live.is_some() && self.lowering.declared() {
                    late = late.or(Some(stmt.span));
                }
                continue; // a declaration: the engine is made for the first statement
            }
            match self.step_all_raw(&stmts) {
                Ok(Ok(reports)) => {
                    if !reports.is_empty() {
                        let session = self.session(&stmts);
                        views.extend(reports.iter().filter_map(|r| session.report(r)));
                    }
                    // A plan is a question: a replay does not ask it again.
                    let kept = stmts.into_iter();
                    (self.program.statements)
                        .extend(kept.filter(|s| !matches!(s.kind, StmtKind::Plan(_))));
                }
                Ok(Err(e)) => return Err(self.session(&stmts).failure(&e)),
                // The story broken by a refused declaration.
                Err(e) => {
                    let d = Diagnostic::error(stmt.span, e.to_string());
                    return Err(Failure::story(d.locate(TOLD, &self.told)));
                }
            }
        }
        if let Some(declared) = late {
            self.retold_with(declared)?;
        }
        Ok(views)
    }

    /// After a declaration (at `declared`) while an engine ran the story: the story
    /// told again on an engine that knows it, now, so that a declaration the story
    /// cannot take (a constant after `actual`, which then allows several worlds; an
    /// unbounded int where only finitely many worlds can be handled) fails with the
    /// text that makes it, and is undone with it, rather than failing every statement
    /// after it.
    fn retold_with(&mut self, declared: Span) -> Result<(), Failure> {
        let Err(e) = self.ensure_live_for(&[]) else {
            return Ok(());
        };
        let mut failure = self.session(&[]).failure(&e);
        let line = syntax::diagnostic::line_col(&self.told, declared.start).0;
        if let Some(first) = failure.diagnostics.first_mut() {
            let note = "declared after the story began: told again with it, the story fails here";
            first.notes.push((line, note.to_string()));
        }
        Err(failure)
    }

    /// The session that words what `stmts` report: the story's declarations, its
    /// statements so far and `stmts`, in the text told.
    fn session(&self, stmts: &[Stmt]) -> Session {
        let mut program = self.program.clone();
        program.statements.extend(stmts.iter().cloned());
        Session {
            path: TOLD.into(),
            source: self.told.clone(),
            program: Rc::new(program),
            deadline: None,
        }
    }
}
