//! Statements printed, steered with the evaluator where a story would otherwise be
//! wrong more often than right.

use epipen::ir::Ty;
use epipen::worlds::{Value, World};
use epipen_bruteforce::{self as bruteforce, Trace};

use super::{COLOURS, Cx, P, Printer, Speaker, Where, atom, lit, operand};
use crate::story::*;

impl Printer<'_> {
    pub(super) fn block(&mut self, stmts: &[Stmt], at: Where) {
        for s in stmts {
            self.stmt(s, at);
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt, at: Where) {
        match s {
            Stmt::Worlds(limit) if !at.sim => match limit {
                0 => self.line("worlds"),
                l => self.line(&format!("worlds {l}")),
            },
            Stmt::Checkpoint if !at.sim && !at.unrolled => {
                let name = format!("c{}", self.checkpoints.len());
                self.line(&format!("checkpoint {name}"));
                self.checkpoints.push(name);
            }
            Stmt::Announce(f) => {
                let f = self.bool_e(f, &Cx::public()).0;
                self.truthful(&format!("announce {f}"), &format!("announce not ({f})"));
            }
            Stmt::Says(who, f) => {
                let who = self.agent(*who);
                let f = self.bool_e(f, &Cx::speaker(&who)).0;
                self.truthful(&format!("{who}: {f}"), &format!("{who}: not ({f})"));
            }
            Stmt::Learns(who, t) if !at.sim => {
                let who = self.agent(*who);
                let t = self.term(t, &Cx::plain());
                self.line(&format!("{who} learns {t}"));
            }
            Stmt::Reveals(who, f) => {
                let who = self.agent(*who);
                let f = self.bool_e(f, &Cx::speaker(&who)).0;
                self.line(&format!("{who} reveals {f}"));
            }
            Stmt::For(r, body) => {
                let (binder, var) = self.range(r, &self.next_var());
                // Whether the loop runs for sure, and how many times at most.
                let (_, _, lo_max) = self.rbound(r.lo);
                let (_, hi_min, _) = self.rbound(r.hi);
                let runs = u32::try_from((var.hi - var.lo + 1).clamp(1, 64)).unwrap_or(64);
                let (surely, outer_runs) = (self.surely, self.runs);
                // A list is never empty.
                self.surely &= r.list.is_some() || lo_max < hi_min;
                if r.list.is_some() {
                    self.printed.constructs.insert("list of values: for");
                }
                self.runs = self.runs.saturating_mul(runs);
                self.open(&format!("for {binder} {{"), "}");
                self.scope.push(var);
                let inner = Where {
                    unrolled: true,
                    ..at.nested()
                };
                self.loops += 1;
                self.block(body, inner);
                self.loops -= 1;
                self.scope.pop();
                self.close();
                (self.surely, self.runs) = (surely, outer_runs);
            }
            Stmt::If(c, then, otherwise) => {
                let c = self.ct_cond(c);
                let inner = Where {
                    unrolled: true,
                    ..at.nested()
                };
                let surely = self.surely;
                self.surely = false;
                self.open(&format!("if {c} {{"), "}");
                self.block(then, inner);
                if let Some(otherwise) = otherwise {
                    self.closers.pop();
                    self.line("} else {");
                    self.closers.push("}".into());
                    self.block(otherwise, inner);
                }
                self.close();
                self.surely = surely;
            }
            Stmt::Simultaneously(items) if !at.sim => {
                self.open("simultaneously {", "}");
                // A block of changes alone is one simultaneous change (issue 27): with an
                // announcement first, a refused change stays refused.
                let refused = |s: &Stmt| {
                    matches!(
                        s,
                        Stmt::Assign(..) | Stmt::AssignMany(_) | Stmt::Swap(..) | Stmt::Event(_)
                    )
                };
                if self.refuse && items.iter().any(refused) {
                    self.line("announce true");
                }
                let inner = Where {
                    sim: true,
                    ..at.nested()
                };
                self.block(items, inner);
                self.close();
            }
            Stmt::Repeat(max, body, until) if !at.sim => {
                // The `until` is printed once the body's checkpoints are defined.
                self.open(&format!("repeat max {max} {{"), "} until true");
                self.loops += 1;
                self.repeats += 1;
                let (again, runs) = (self.actual_again, self.runs);
                self.runs = self.runs.saturating_mul(u32::from(*max).max(1));
                self.block(body, at.nested());
                (self.actual_again, self.runs) = (again, runs);
                self.loops -= 1;
                self.repeats -= 1;
                let until = self.bool_e(until, &Cx::public()).0;
                self.closers.pop();
                self.line(&format!("}} until {until}"));
            }
            Stmt::Assert(hint, body) if at.top && !at.sim => self.assert(hint, body),
            Stmt::Actual(pick) if !at.sim && !at.unrolled && !self.actual => {
                self.actual(*pick);
                self.actual_again = self.loops > 0;
            }
            Stmt::Check(c) if !at.sim => self.check(c),
            Stmt::Assign(target, value) if !at.sim && !at.hint => {
                self.assign(*target, value, None);
            }
            Stmt::AssignMany(changes) if !at.sim && !at.hint => self.assign_many(changes, None),
            Stmt::SimChanges(changes, flip) if !at.sim && !at.hint => {
                self.sim_changes(changes, *flip)
            }
            Stmt::Where(f, defined) if !at.sim => {
                let f = self.bool_e(f, &Cx::public()).0;
                if *defined && self.closers.is_empty() {
                    let name = format!("w{}", self.defs);
                    self.defs += 1;
                    self.line(&format!("def {name} = {f}"));
                    self.line(&format!("where {name}"));
                    self.printed.constructs.insert("def without parameters");
                } else {
                    self.line(&format!("where {f}"));
                }
                self.printed.constructs.insert("where");
            }
            Stmt::Defined(f) if !at.sim && self.closers.is_empty() => {
                let f = self.bool_e(f, &Cx::public()).0;
                let name = format!("d{}", self.defs);
                self.defs += 1;
                self.line(&format!("def {name}(v_) = ({f}) == v_"));
                self.printed.constructs.insert("def with a parameter");
                self.truthful(
                    &format!("announce {name}(true)"),
                    &format!("announce {name}(false)"),
                );
            }
            Stmt::Swap(ty, first, count) if !at.sim && !at.hint => {
                self.swap(*ty, *first, *count, None);
            }
            Stmt::Event(ev) if !at.sim && !at.hint => self.event(ev, None),
            Stmt::LearnsWhether(who, f) if !at.sim => self.learns_whether(*who, f),
            Stmt::Show(what) if !at.sim => self.show(what),
            Stmt::Expects(who, f) if !at.sim => self.expects(*who, f, None),
            // Declared once, where it runs at most once (not in a loop).
            Stmt::Action(a) if !at.sim && !at.hint && self.loops == 0 => self.action(a, None),
            Stmt::Do(items) if !at.sim && !at.hint => self.do_line(items, None),
            Stmt::Plan(p) if !at.sim && !at.hint => self.plan(p, None),
            // Refused: in `simultaneously` (only announcements), in a hint's block, and
            // an action in a `repeat` (where it runs, to be sure).
            Stmt::Action(a)
                if self.refuse && (at.sim || (!at.unrolled && (at.hint || self.repeats > 0))) =>
            {
                let why = if at.sim {
                    "action refused in simultaneously"
                } else if at.hint {
                    "action refused in a hint's block"
                } else {
                    "action refused in a repeat"
                };
                self.action(a, Some(why));
            }
            Stmt::Do(items) if self.refuse && (at.sim || !at.unrolled) => {
                let why = if at.sim {
                    "do refused in simultaneously"
                } else {
                    "do refused in a hint's block"
                };
                self.do_line(items, Some(why));
            }
            Stmt::Plan(p) if self.refuse && (at.sim || !at.unrolled) => {
                let why = if at.sim {
                    "plan refused in simultaneously"
                } else {
                    "plan refused in a hint's block"
                };
                self.plan(p, Some(why));
            }
            // Refused: only announcements can be made simultaneously.
            Stmt::Expects(who, f) if self.refuse => {
                self.expects(*who, f, Some("expects refused in simultaneously"));
            }
            // Refused, as `:=` is.
            Stmt::AssignMany(changes) if self.refuse && (at.sim || !at.unrolled) => {
                self.assign_many(changes, Some(refused_why(at)));
            }
            Stmt::Swap(ty, first, count) if self.refuse && (at.sim || !at.unrolled) => {
                self.swap(*ty, *first, *count, Some(refused_why(at)));
            }
            Stmt::Event(ev) if self.refuse && (at.sim || !at.unrolled) => {
                let why = if at.sim {
                    "event refused in simultaneously"
                } else {
                    "event refused in a hint's block"
                };
                self.event(ev, Some(why));
            }
            // Refused: in `simultaneously`, even in code that does not run; in a hint's
            // block where it runs (not under a `for` or an `if`, to be sure).
            Stmt::Assign(target, value) if self.refuse && (at.sim || !at.unrolled) => {
                let why = if at.sim {
                    ":= refused in simultaneously"
                } else {
                    ":= refused in a hint's block"
                };
                self.assign(*target, value, Some(why));
            }
            // Not allowed here: its statements, or nothing.
            Stmt::Assert(_, body) => self.block(body, at),
            Stmt::Repeat(_, body, _) | Stmt::Simultaneously(body) => self.block(body, at),
            Stmt::Worlds(_)
            | Stmt::Checkpoint
            | Stmt::Learns(..)
            | Stmt::Actual(_)
            | Stmt::Check(_)
            | Stmt::Assign(..)
            | Stmt::AssignMany(_)
            | Stmt::SimChanges(..)
            | Stmt::Where(..)
            | Stmt::Defined(_)
            | Stmt::Swap(..)
            | Stmt::Event(_)
            | Stmt::LearnsWhether(..)
            | Stmt::Show(_)
            | Stmt::Expects(..)
            | Stmt::Action(_)
            | Stmt::Do(_)
            | Stmt::Plan(_) => {}
        }
    }

    pub(super) fn open(&mut self, header: &str, closer: &str) {
        self.line(header);
        self.closers.push(closer.to_string());
    }

    pub(super) fn close(&mut self) {
        let closer = self.closers.pop().expect("an open block");
        self.line(&closer);
    }

    /// The text so far with `candidate` as the next line and every open block closed;
    /// and where the candidate's line starts and ends.
    pub(super) fn with_line(&self, candidate: &str) -> (String, usize, usize) {
        let mut text = self.printed.text.clone();
        let start = text.len();
        text += &"  ".repeat(self.closers.len());
        text += candidate;
        let end = text.len();
        text.push('\n');
        for (depth, closer) in self.closers.iter().enumerate().rev() {
            text += &"  ".repeat(depth);
            text += closer;
            text.push('\n');
        }
        (text, start, end)
    }

    /// Whether the evaluator stops with a story error at `candidate`, the next line.
    pub(super) fn fails(&self, candidate: &str) -> bool {
        self.stops(candidate, bruteforce::ErrorKind::Story)
    }

    /// Whether the evaluator stops with an error of `kind` at `candidate`, the next line.
    pub(super) fn stops(&self, candidate: &str, kind: bruteforce::ErrorKind) -> bool {
        let (text, start, end) = self.with_line(candidate);
        match self.printed.trace(&text) {
            Some(Trace { end: Err(e), .. }) => {
                e.kind == kind && (start..end).contains(&e.span.start)
            }
            _ => false,
        }
    }

    /// `x := e` with a constant of the value's type; `refused`: where it cannot stand
    /// (its place is recorded).
    pub(super) fn assign(&mut self, target: u8, value: &Term, refused: Option<&'static str>) {
        let (names, kind) = match value {
            Term::Int(_) => (self.int_names(), ":= of an int"),
            Term::Bool(_) => (self.bool_names(), ":= of a bool"),
            Term::Enum(_) => (self.enum_names(), ":= of a colour"),
            Term::Event(_) => return,
        };
        let Some(name) = Self::pick(&names, target) else {
            return;
        };
        // `actual` names the worlds by their values now, and an int's changed value may
        // no longer tell its start values apart: `actual x == 0` after `x := 0` allows
        // every x of the type, where the evaluator sees only those of its box. So ints
        // change once the actual world is declared for good.
        if refused.is_none()
            && matches!(value, Term::Int(_))
            && !self.no_actual
            && (!self.actual || self.actual_again)
        {
            return;
        }
        let mut v = self.term(value, &Cx::plain());
        if self.clamp && matches!(value, Term::Int(_)) {
            v = format!("min(max({v}, -1000000000000), 1000000000000)");
        }
        let constructs = &mut self.printed.constructs;
        match refused {
            Some(why) => {
                constructs.insert(why);
                let at = self.printed.text.len() + 2 * self.closers.len();
                self.printed.refused.push(at);
            }
            None => {
                constructs.insert(kind);
                if name.contains('[') {
                    constructs.insert(":= of a family member");
                }
                if self.loops > 0 {
                    constructs.insert(":= in a loop");
                }
                constructs.insert(if self.actual {
                    ":= after actual"
                } else {
                    ":= before actual"
                });
            }
        }
        self.line(&format!("{name} := {v}"));
    }

    /// `check φ`.
    pub(super) fn check(&mut self, c: &Check) {
        let line = match c {
            Check::Plain(steer, f) => {
                let f = self.bool_e(f, &Cx::public()).0;
                let line = format!("check {f}");
                let negated = format!("check not ({f})");
                if *steer
                    && self.stops(&line, bruteforce::ErrorKind::CheckFailed)
                    && !self.stops(&negated, bruteforce::ErrorKind::CheckFailed)
                {
                    self.printed.constructs.insert("check negated");
                    negated
                } else {
                    line
                }
            }
            Check::Law(law, a, others, f) => {
                self.printed.constructs.insert("check of a law");
                format!("check {}", self.law(*law, *a, others, f))
            }
            Check::BeliefLaw(law, a, f) => {
                self.printed.constructs.insert("check of a law of belief");
                format!("check {}", self.belief_law(*law, *a, f))
            }
            Check::Kept => {
                let (here, ..) = self.with_line("");
                let kept = match self.worlds(&here) {
                    Some(w) => self.membership(&w),
                    None => "true".to_string(),
                };
                format!("check {kept}")
            }
            Check::Actual(mode, f) => {
                let f = self.bool_e(f, &Cx::public()).0;
                let line = format!("check actual {f}");
                let negated = format!("check actual not ({f})");
                if !self.actual && *mode != 9 {
                    format!("check {f}")
                } else if !self.actual {
                    self.printed
                        .constructs
                        .insert("check actual without an actual world");
                    line
                } else if *mode < 7
                    && self.stops(&line, bruteforce::ErrorKind::CheckFailed)
                    && !self.stops(&negated, bruteforce::ErrorKind::CheckFailed)
                {
                    self.printed.constructs.insert("check actual negated");
                    negated
                } else {
                    self.printed.constructs.insert("check actual");
                    line
                }
            }
        };
        self.line(&line);
    }

    /// A law of group knowledge in S5 about character `a`, a group with it, and φ: true
    /// in every world.
    pub(super) fn law(&mut self, law: u8, a: u8, others: &[u8], f: &BoolE) -> String {
        let a = self.agent(a);
        let g = self.group(Some(a.clone()), Some(others));
        let f = self.bool_e(f, &Cx::public()).0;
        let (e, c, d) = (
            "everyone_knows",
            "common_knowledge",
            "distributed_knowledge",
        );
        match law % 12 {
            0 => format!("knows({a}, {f}) -> ({f})"),
            1 => format!("{e}({g}{f}) -> knows({a}, {f})"),
            2 => format!("{c}({g}{f}) -> {e}({g}{f})"),
            3 => format!("{c}({g}{f}) -> knows({a}, {c}({g}{f}))"),
            4 => format!("knows({a}, {f}) -> {d}({g}{f})"),
            5 => format!("{d}({g}{f}) -> ({f})"),
            6 => format!("not knows({a}, {f}) -> knows({a}, not knows({a}, {f}))"),
            7 => format!("{c}({a}, {f}) <-> knows({a}, {f})"),
            8 => format!("{d}({a}, {f}) <-> knows({a}, {f})"),
            9 => format!("{e}({a}, {f}) <-> knows({a}, {f})"),
            10 => format!("{c}({g}{f}) <-> {e}({g}({f}) and {c}({g}{f}))"),
            _ => format!("{e}({g}{f}) -> {d}({g}{f})"),
        }
    }

    /// Whether the evaluator leaves no world after `candidate`, the next line (with
    /// every open block closed).
    pub(super) fn empties(&self, candidate: &str) -> bool {
        let (text, ..) = self.with_line(candidate);
        self.worlds(&text).is_some_and(|w| w.is_empty())
    }

    /// An announcement, which must be true in the actual world once there is one: as
    /// it is, negated, or (when neither is true, as for `A: φ` when A knows neither φ
    /// nor its negation) left out. Before the actual world, when steering, one that
    /// would leave no world is negated (left out when that leaves none either).
    pub(super) fn truthful(&mut self, line: &str, negated: &str) {
        if !self.actual {
            if !self.steer || !self.empties(line) {
                self.line(line);
            } else if !self.empties(negated) {
                self.line(negated);
            }
        } else if !self.fails(line) {
            self.line(line);
        } else if !self.fails(negated) {
            self.line(negated);
        }
    }

    /// The worlds the evaluator leaves at the end of `text` (None: it stops early).
    pub(super) fn worlds(&self, text: &str) -> Option<Vec<World>> {
        self.printed.trace(text)?.end.ok()
    }

    /// `actual` with every constant's value in one of the worlds possible here (the
    /// first world of the box when none is: a story error). Every other time, the values
    /// that all the worlds possible here share are left out: `actual` pins one of the
    /// worlds still possible, not of the whole box (issue 27).
    pub(super) fn actual(&mut self, pick: u32) {
        let (here, ..) = self.with_line("");
        let worlds = self.worlds(&here).unwrap_or_default();
        let world = if worlds.is_empty() {
            self.first_world()
        } else {
            worlds[pick as usize % worlds.len()].clone()
        };
        let shared = |k: usize| {
            pick / 7 % 2 == 1 && !worlds.is_empty() && worlds.iter().all(|w| w.0[k] == world.0[k])
        };
        let left_out = (0..self.consts.len()).any(shared);
        if left_out {
            self.printed
                .constructs
                .insert("actual among the possible worlds");
        }
        let mut parts: Vec<String> = self
            .consts
            .iter()
            .zip(&world.0)
            .enumerate()
            .filter(|(k, _)| !shared(*k))
            .map(|(_, ((name, ty), v))| match (ty, v) {
                (Ty::Bool, Value::Bool(true)) => name.clone(),
                (Ty::Bool, _) => format!("not {name}"),
                (_, v) => format!("{name} == {}", operand(self.value(*ty, *v))),
            })
            .collect();
        parts.extend(self.latest_cases(&here, &world));
        let what = if parts.is_empty() {
            "true".to_string()
        } else {
            parts.join(" and ")
        };
        self.line(&format!("actual {what}"));
        self.actual = true;
    }

    /// The first world of the evaluator's box.
    pub(super) fn first_world(&self) -> World {
        let mut values = Vec::new();
        for (name, ty) in &self.consts {
            values.push(match ty {
                Ty::Bool => Value::Bool(false),
                Ty::Enum(_) => Value::Int(0),
                Ty::Int => {
                    let base = name.split('[').next().unwrap_or(name);
                    let lo = self
                        .printed
                        .bounds
                        .iter()
                        .find(|(n, _)| n == base)
                        .map_or(0, |(_, (lo, _))| *lo);
                    Value::Int(lo)
                }
            });
        }
        World(values)
    }

    /// A value of type `ty` as a literal.
    pub(super) fn value(&self, ty: Ty, v: Value) -> P {
        match (ty, v) {
            (Ty::Enum(_), Value::Int(i)) => atom(COLOURS[i as usize % 3].into()),
            (_, Value::Int(i)) => lit(i),
            (_, Value::Bool(b)) => atom(b.to_string()),
        }
    }

    /// The formula that holds exactly in `worlds`: membership of the tuple of every
    /// constant in the set of their values.
    pub(super) fn membership(&self, worlds: &[World]) -> String {
        match self.consts.len() {
            0 => (!worlds.is_empty()).to_string(),
            1 => {
                let (name, ty) = &self.consts[0];
                let items: Vec<String> = worlds.iter().map(|w| self.value(*ty, w.0[0]).0).collect();
                format!("{name} in {{{}}}", items.join(", "))
            }
            _ => {
                let names: Vec<&str> = self.consts.iter().map(|(n, _)| n.as_str()).collect();
                let items: Vec<String> = worlds
                    .iter()
                    .map(|w| {
                        let vals: Vec<String> = self
                            .consts
                            .iter()
                            .zip(&w.0)
                            .map(|((_, ty), v)| self.value(*ty, *v).0)
                            .collect();
                        format!("({})", vals.join(", "))
                    })
                    .collect();
                format!("({}) in {{{}}}", names.join(", "), items.join(", "))
            }
        }
    }

    /// `assert_adds_ck` with its block, the hint written once the block is known.
    pub(super) fn assert(&mut self, hint: &Hint, body: &[Stmt]) {
        let before_text = self.printed.text.clone();
        let visible = self.checkpoints.len();
        let refused = self.printed.refused.len();
        self.open("assert_adds_ck true {", "}");
        let body_start = self.printed.text.len();
        let inner = Where {
            hint: true,
            ..Where::top().nested()
        };
        self.block(body, inner);
        self.closers.pop();
        let body_text = self.printed.text[body_start..].to_string();
        // The hint sees the checkpoints before the block, not the block's own.
        let all = self.checkpoints.clone();
        self.checkpoints.truncate(visible);
        // The block's statements run as they would at the top level.
        let after = || self.worlds(&format!("{before_text}{body_text}"));
        let hint = match hint {
            Hint::Exact => after().map_or("true".to_string(), |w| self.membership(&w)),
            Hint::First => self.first_said(body),
            Hint::Flip(i) => {
                let before = self.worlds(&before_text).unwrap_or_default();
                match (after(), before.is_empty()) {
                    (Some(mut kept), false) => {
                        let w = &before[*i as usize % before.len()];
                        match kept.iter().position(|k| k == w) {
                            Some(at) => {
                                kept.remove(at);
                            }
                            None => kept.push(w.clone()),
                        }
                        self.membership(&kept)
                    }
                    _ => "false".to_string(),
                }
            }
            Hint::Any(f) => self.bool_e(f, &Cx::public()).0,
        };
        self.checkpoints = all;
        self.printed.text = format!("{before_text}assert_adds_ck {hint} {{\n{body_text}}}\n");
        // The block's refused changes moved with the hint's text.
        for at in &mut self.printed.refused[refused..] {
            *at = *at + hint.len() - "true".len();
        }
    }

    /// What the first statement of `body` says, when it is an announcement, as the
    /// storyteller would say it: φ, or `knows(A, φ)` for `A: φ`.
    pub(super) fn first_said(&mut self, body: &[Stmt]) -> String {
        match body.first() {
            Some(Stmt::Announce(f)) => self.bool_e(f, &Cx::public()).0,
            Some(Stmt::Says(who, f)) => {
                let who = self.agent(*who);
                let cx = Cx {
                    knowledge: true,
                    speaker: Speaker::Named(who.clone()),
                };
                format!("knows({who}, {})", self.bool_e(f, &cx).0)
            }
            _ => "true".to_string(),
        }
    }
}

/// Why a change printed at `at` is refused.
fn refused_why(at: Where) -> &'static str {
    if at.sim {
        ":= refused in simultaneously"
    } else {
        ":= refused in a hint's block"
    }
}
