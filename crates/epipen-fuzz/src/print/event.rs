//! Events printed (issue 19): `event e { … }` with its cases, `sees` lines and `actual`
//! line (steered by the evaluator: which cases can happen in the actual world), and
//! what goes with them: the event's name afterwards, `x, y := e, f` and `A learns φ`
//! with knowledge operators.

use std::collections::BTreeMap;

use epipen_bruteforce::ErrorKind;

use super::{Cx, P, Printer, atom, compound};
use crate::story::*;

/// The most worlds the events of a story may make (the declarations' worlds times each
/// event's cases, once per execution).
pub const MAX_EVENT_WORLDS: u128 = 512;

/// An event printed: its name and cases, for later statements that name it.
#[derive(Clone)]
pub(super) struct EventInfo {
    pub name: String,
    pub cases: Vec<String>,
    /// How many checkpoints were defined before it (`at(c, …)` names it only at a later
    /// one).
    pub after: usize,
    /// It runs whenever the story gets there.
    pub surely: bool,
    /// It can be named (an event refused where it stands cannot).
    pub usable: bool,
}

/// How a case line of the block is written, for the `sees` lines.
#[derive(Clone)]
enum Shape {
    One,
    /// `f1[i]` for i in 0..m (`bound` as written: `3` or `n`).
    Family {
        base: String,
        bound: String,
    },
    /// `g2[i, j]` for i < j < m.
    Pairs {
        base: String,
        m: u8,
    },
}

/// Which line of an event block groups its cases.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Line {
    Sees,
    Expects,
}

/// The cases of a block: each case's name and the line (index in `shapes`) it comes from.
pub(super) struct Cases {
    pub(super) names: Vec<(String, usize)>,
    shapes: Vec<Shape>,
}

impl Printer<'_> {
    /// The event `i` picks among those printed (None: none yet): one that has happened
    /// where the name is read (before the checkpoint of the `at` being printed, and not
    /// under an `if` or a loop that may not run) most of the time.
    pub(super) fn event_ref(&self, i: u8) -> Option<EventInfo> {
        let visible: Vec<&EventInfo> = (self.events.iter())
            .filter(|e| e.usable && self.at_checkpoint.is_none_or(|c| e.after <= c))
            .collect();
        let sure: Vec<&EventInfo> = visible.iter().copied().filter(|e| e.surely).collect();
        let from = if i % 8 != 7 && !sure.is_empty() {
            sure
        } else {
            visible
        };
        (!from.is_empty()).then(|| from[usize::from(i) % from.len()].clone())
    }

    /// The checkpoint (by index) `c` picks for `at(c, f)`: when `f` names an event (alone
    /// or under `knows`), one that comes after an event, if any does.
    pub(super) fn checkpoint_for(&self, c: u8, f: &BoolE) -> usize {
        let names_event = match f {
            BoolE::EventIs(..) => true,
            BoolE::Knows(_, f) | BoolE::Believes(_, f) => matches!(**f, BoolE::EventIs(..)),
            _ => false,
        };
        let after: Vec<usize> = (0..self.checkpoints.len())
            .filter(|&j| self.events.iter().any(|e| e.usable && e.after <= j))
            .collect();
        if names_event && !after.is_empty() {
            after[usize::from(c) % after.len()]
        } else {
            usize::from(c) % self.checkpoints.len()
        }
    }

    /// `e0 == s1`, `e0 != f1[2]`, `e0 in {s0, g2[0, 1]}`, `s1 == e0`.
    pub(super) fn event_is(&mut self, event: u8, form: u8, cases: &[u8]) -> P {
        let Some(info) = self.event_ref(event) else {
            return atom(form.is_multiple_of(2).to_string());
        };
        self.printed.constructs.insert("event named");
        if self.at_checkpoint.is_some() {
            self.printed.constructs.insert("event named in at(c, …)");
        }
        let case = |k: &u8| info.cases[usize::from(*k) % info.cases.len()].clone();
        let first = cases.first().map_or_else(|| info.cases[0].clone(), case);
        let name = &info.name;
        match form % 4 {
            0 => compound(format!("{name} == {first}")),
            1 => compound(format!("{name} != {first}")),
            2 => {
                let set: Vec<String> = cases.iter().map(case).collect();
                compound(format!("{name} in {{{}}}", set.join(", ")))
            }
            _ => compound(format!("{first} == {name}")),
        }
    }

    /// An event's name as a value (the case of its latest execution).
    pub(super) fn event_term(&mut self, event: u8) -> String {
        match self.event_ref(event) {
            Some(info) => {
                self.printed.constructs.insert("event named");
                info.name
            }
            None => "0".into(),
        }
    }

    /// Whether an int constant may change here: `actual` names the worlds by their
    /// values now, so ints change once the actual world is declared for good (or when
    /// the story declares none); and in an action's body (a plan's changes are
    /// hypothetical, and `do` stands where ints change).
    pub(super) fn ints_change(&self) -> bool {
        self.in_action || self.no_actual || (self.actual && !self.actual_again)
    }

    /// The changes `x := e, y := f` of `changes` that can be made here, as written: a
    /// constant of each value's type, each changed once (one member per family, whose
    /// index could equal another's).
    pub(super) fn changes(&mut self, changes: &[(u8, Term)]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut bases: Vec<String> = Vec::new();
        for (target, value) in changes {
            let (names, kind) = match value {
                Term::Int(_) => (self.int_names(), ":= of an int"),
                Term::Bool(_) => (self.bool_names(), ":= of a bool"),
                Term::Enum(_) => (self.enum_names(), ":= of a colour"),
                Term::Event(_) => continue,
            };
            let Some(name) = Self::pick(&names, *target) else {
                continue;
            };
            let base = name.split('[').next().unwrap_or(&name).to_string();
            if bases.contains(&base) || (matches!(value, Term::Int(_)) && !self.ints_change()) {
                continue;
            }
            bases.push(base);
            if self.in_action && !self.action_targets.contains(&name) {
                self.action_targets.push(name.clone());
            }
            let mut v = self.term(value, &Cx::plain());
            if matches!(value, Term::Int(_)) {
                if self.clamp {
                    v = format!("min(max({v}, -1000000000000), 1000000000000)");
                }
                // The overflow check prints the story again, clamped, when it has these.
                self.printed.constructs.insert(":= of an int");
                if self.in_action {
                    self.printed.constructs.insert("action: int change");
                }
            }
            self.printed.constructs.insert(kind);
            out.push(format!("{name} := {v}"));
        }
        out
    }

    /// `x, y := e, f`; `refused`: where it cannot stand (its place is recorded).
    pub(super) fn assign_many(&mut self, changes: &[(u8, Term)], refused: Option<&'static str>) {
        let written = self.changes(changes);
        if written.is_empty() {
            return;
        }
        let (targets, values): (Vec<&str>, Vec<&str>) = written
            .iter()
            .map(|c| c.split_once(" := ").expect("a change"))
            .unzip();
        self.changed(refused, written.len() > 1, ":= of several constants");
        self.line(&format!("{} := {}", targets.join(", "), values.join(", ")));
    }

    /// The items of a simultaneous change with loops (issue 27): with `pick` even, the
    /// first of `written` inside a one-round `for`; with `pick % 4 == 0`, a `for` over
    /// the family `b[n]` (when declared and not changed already) that negates every
    /// member.
    pub(super) fn looped_changes(&mut self, mut written: Vec<String>, pick: u8) -> Vec<String> {
        // Not `i…`: the values, printed already, may hold aggregates over those.
        let var = format!("u{}", self.scope.len() + 1);
        if pick.is_multiple_of(2)
            && let Some(first) = written.first_mut()
        {
            *first = format!("for {var} in 0..1 {{ {first} }}");
            self.printed.constructs.insert("change: a for of one round");
        }
        let changes_b = written
            .iter()
            .any(|c| c.starts_with("b[") || c.contains("{ b["));
        if pick.is_multiple_of(4) && self.d.fam_bool && !changes_b {
            written.push(format!("for {var} in 0..n {{ b[{var}] := not b[{var}] }}"));
            self.printed
                .constructs
                .insert("change: a for over a family");
        }
        written
    }

    /// `simultaneously { … }` of changes, one per line, with loops.
    pub(super) fn sim_changes(&mut self, changes: &[(u8, Term)], pick: u8) {
        let written = self.changes(changes);
        let items = self.looped_changes(written, pick);
        if items.is_empty() {
            return;
        }
        self.changed(None, true, "simultaneously block of changes");
        self.open("simultaneously {", "}");
        for item in &items {
            self.line(item);
        }
        self.close();
    }

    /// `x, y := y, x` or `x, y, z := y, z, x` of constants of one type.
    pub(super) fn swap(&mut self, ty: u8, first: u8, count: u8, refused: Option<&'static str>) {
        let Some(picked) = self.swapped(ty, first, count, refused.is_some()) else {
            return;
        };
        let mut rotated = picked.clone();
        rotated.rotate_left(1);
        self.changed(refused, true, ":= swap");
        self.line(&format!("{} := {}", picked.join(", "), rotated.join(", ")));
    }

    /// Two or three constants of one type (0 int, 1 bool, 2 colour) from the one at
    /// `first` on: scalars, and one member per family (whose index could equal
    /// another's). None when there are fewer than two, or ints cannot change here (and
    /// the change is not `refused` anyway).
    fn swapped(&self, ty: u8, first: u8, count: u8, refused: bool) -> Option<Vec<String>> {
        let names = match ty % 3 {
            0 if !self.ints_change() && !refused => return None,
            0 => self.int_names(),
            1 => self.bool_names(),
            _ => self.enum_names(),
        };
        let mut picked: Vec<String> = Vec::new();
        for k in 0..names.len() {
            let name = &names[(usize::from(first) + k) % names.len()];
            let base = name.split('[').next().unwrap_or(name);
            if picked.iter().all(|p| p.split('[').next() != Some(base)) {
                picked.push(name.clone());
            }
            if picked.len() == usize::from(count.clamp(2, 3)) {
                break;
            }
        }
        (picked.len() >= 2).then_some(picked)
    }

    /// Records a change about to be printed (at the next line): refused, or made.
    fn changed(&mut self, refused: Option<&'static str>, several: bool, what: &'static str) {
        match refused {
            Some(why) => {
                self.printed.constructs.insert(why);
                let at = self.printed.text.len() + 2 * self.closers.len();
                self.printed.refused.push(at);
            }
            None => {
                if several {
                    self.printed.constructs.insert(what);
                }
                if self.loops > 0 {
                    self.printed.constructs.insert(":= in a loop");
                }
                self.printed.constructs.insert(if self.actual {
                    ":= after actual"
                } else {
                    ":= before actual"
                });
            }
        }
    }

    /// `A learns φ`, φ with knowledge operators.
    pub(super) fn learns_whether(&mut self, who: u8, f: &BoolE) {
        let who = self.agent(who);
        let f = self.bool_e(f, &Cx::public()).0;
        self.printed.constructs.insert("learns a formula");
        self.line(&format!("{who} learns {f}"));
    }

    /// The text so far with `lines` (indented from here) next and every open block
    /// closed; and where the lines start and end.
    pub(super) fn with_lines(&self, lines: &[String]) -> (String, usize, usize) {
        let mut text = self.printed.text.clone();
        let start = text.len();
        let indent = "  ".repeat(self.closers.len());
        for l in lines {
            text += &indent;
            text += l;
            text.push('\n');
        }
        let end = text.len();
        for (depth, closer) in self.closers.iter().enumerate().rev() {
            text += &"  ".repeat(depth);
            text += closer;
            text.push('\n');
        }
        (text, start, end)
    }

    /// Whether the evaluator stops with a story error in `lines`, printed next.
    pub(super) fn block_fails(&self, lines: &[String]) -> bool {
        let (text, start, end) = self.with_lines(lines);
        match self.printed.trace(&text) {
            Some(epipen_bruteforce::Trace { end: Err(e), .. }) => {
                e.kind == ErrorKind::Story && (start..end).contains(&e.span.start)
            }
            _ => false,
        }
    }

    /// `event e { … }`; `refused`: where no event can stand (printed, its place
    /// recorded, not steered).
    pub(super) fn event(&mut self, ev: &Event, refused: Option<&'static str>) {
        let usable: Vec<&EventInfo> = self.events.iter().filter(|e| e.usable).collect();
        let again = ev
            .again
            .filter(|_| !usable.is_empty())
            .map(|i| usable[usize::from(i) % usable.len()].clone())
            .filter(|info| self.affordable(info.cases.len()));
        let name = match &again {
            Some(info) => info.name.clone(),
            None => format!("e{}", self.events.len()),
        };
        let lines = self.case_lines(ev, again.as_ref());
        let (mut body, cases) = lines;
        if again.is_some() {
            self.printed.constructs.insert("event again");
        }
        let factor = (cases.names.len() as u128).max(1);
        self.world_bound = self
            .world_bound
            .saturating_mul(factor.saturating_pow(self.runs));
        self.sees_lines(ev, &cases, &mut body);
        self.expects_lines(ev, &cases, &mut body);
        self.note_event(ev, &cases);
        let header = format!("event {name} {{");
        let block = |actual: Option<&str>| -> Vec<String> {
            let mut all = vec![header.clone()];
            all.extend(body.iter().map(|l| format!("  {l}")));
            all.extend(actual.map(|c| format!("  actual {c}")));
            all.push("}".into());
            all
        };
        let actual = if refused.is_some() {
            None
        } else {
            self.actual_case(ev.actual, &cases, &block)
        };
        if let Some(why) = refused {
            self.printed.constructs.insert(why);
            let at = self.printed.text.len() + 2 * self.closers.len();
            self.printed.refused.push(at);
        }
        for l in block(actual.as_deref()) {
            self.line(&l);
        }
        if again.is_none() {
            self.events.push(EventInfo {
                name,
                cases: cases.names.into_iter().map(|(c, _)| c).collect(),
                after: self.checkpoints.len(),
                surely: self.surely,
                usable: refused.is_none(),
            });
        }
    }

    /// Whether an event of `cases` cases keeps the worlds within bounds here.
    pub(super) fn affordable(&self, cases: usize) -> bool {
        let factor = (cases as u128).max(1).saturating_pow(self.runs);
        self.world_bound.saturating_mul(factor) <= MAX_EVENT_WORLDS
    }

    /// The case lines of the block (indented within it) and the cases they make: those
    /// of `again` (an earlier event's, one line each), or the event's own, as many as
    /// keep the worlds within bounds (one at least).
    pub(super) fn case_lines(
        &mut self,
        ev: &Event,
        again: Option<&EventInfo>,
    ) -> (Vec<String>, Cases) {
        let mut lines = Vec::new();
        if let Some(info) = again {
            let mut names = Vec::new();
            for (k, case) in info.cases.iter().enumerate() {
                let spec = ev.cases[k % ev.cases.len()].case();
                let rest = self.case_rest(spec);
                lines.push(format!("{case}{rest}"));
                names.push((case.clone(), k));
            }
            let shapes = vec![Shape::One; names.len()];
            return (lines, Cases { names, shapes });
        }
        // As many lines as the bounds allow.
        let mut specs: Vec<CaseLine> = ev.cases.clone();
        loop {
            let count: usize = specs.iter().map(|l| self.case_count(l)).sum();
            if self.affordable(count) && count > 0 {
                break;
            }
            if specs.len() > 1 {
                specs.pop();
            } else {
                specs = vec![CaseLine::One(specs[0].case().clone())];
                break;
            }
        }
        let mut names = Vec::new();
        let mut shapes = Vec::new();
        for (k, line) in specs.iter().enumerate() {
            match line {
                CaseLine::One(case) => {
                    let rest = self.case_rest(case);
                    lines.push(format!("s{k}{rest}"));
                    names.push((format!("s{k}"), k));
                    shapes.push(Shape::One);
                }
                CaseLine::Family(size, case) => {
                    let base = format!("f{k}");
                    let (bound, m) = match size {
                        Some(m) => (m.to_string(), i64::from(*m)),
                        None => ("n".to_string(), self.n),
                    };
                    let var = self.next_var();
                    lines.push(format!("for {var} in 0..{bound} {{"));
                    self.scope.push(super::Var {
                        name: var.clone(),
                        lo: 0,
                        hi: m - 1,
                    });
                    let rest = self.case_rest(case);
                    self.scope.pop();
                    lines.push(format!("  {base}[{var}]{rest}"));
                    lines.push("}".into());
                    for i in 0..m.max(0) {
                        names.push((format!("{base}[{i}]"), k));
                    }
                    shapes.push(Shape::Family { base, bound });
                }
                CaseLine::Pairs(m, case) => {
                    let base = format!("g{k}");
                    let (i, j) = (self.next_var(), format!("i{}", self.scope.len() + 2));
                    lines.push(format!("for {i} in 0..{m} {{"));
                    lines.push(format!("  for {j} in {i} + 1..{m} {{"));
                    let m64 = i64::from(*m);
                    self.scope.push(super::Var {
                        name: i.clone(),
                        lo: 0,
                        hi: m64 - 2,
                    });
                    self.scope.push(super::Var {
                        name: j.clone(),
                        lo: 1,
                        hi: m64 - 1,
                    });
                    let rest = self.case_rest(case);
                    self.scope.truncate(self.scope.len() - 2);
                    lines.push(format!("    {base}[{i}, {j}]{rest}"));
                    lines.push("  }".into());
                    lines.push("}".into());
                    for a in 0..*m {
                        for b in a + 1..*m {
                            names.push((format!("{base}[{a}, {b}]"), k));
                        }
                    }
                    shapes.push(Shape::Pairs { base, m: *m });
                }
            }
        }
        if names.is_empty() {
            // A family of no members only: one more case.
            let k = specs.len();
            lines.push(format!("s{k}"));
            names.push((format!("s{k}"), k));
            shapes.push(Shape::One);
        }
        (lines, Cases { names, shapes })
    }

    /// How many cases a line makes.
    fn case_count(&self, line: &CaseLine) -> usize {
        match line {
            CaseLine::One(_) => 1,
            CaseLine::Family(Some(m), _) => usize::from(*m),
            CaseLine::Family(None, _) => usize::try_from(self.n.max(0)).unwrap_or(0),
            CaseLine::Pairs(m, _) => usize::from(*m) * usize::from(m - 1) / 2,
        }
    }

    /// ` if φ then x := e, y := f` of a case.
    fn case_rest(&mut self, case: &Case) -> String {
        let mut out = String::new();
        if let Some(pre) = &case.pre {
            let f = self.bool_e(pre, &Cx::public()).0;
            out += &format!(" if {f}");
            self.printed.constructs.insert("event: precondition");
        }
        out += &self.case_weight(case.weight.as_ref());
        let swap = case
            .swap
            .and_then(|(ty, first)| self.swapped(ty, first, 2, false));
        let changes = match swap {
            Some(names) => {
                self.printed.constructs.insert("event: a swap");
                vec![
                    format!("{} := {}", names[0], names[1]),
                    format!("{} := {}", names[1], names[0]),
                ]
            }
            None => {
                let written = self.changes(&case.changes);
                let pick = case.changes.first().map_or(1, |(t, _)| *t);
                self.looped_changes(written, pick)
            }
        };
        if !changes.is_empty() {
            out += &format!(" then {}", changes.join(", "));
            self.printed.constructs.insert("event: change");
            if changes.len() > 1 {
                self.printed.constructs.insert("event: several changes");
            }
        }
        out
    }

    /// The `sees` lines, appended to `body`: the characters' own (each at most once;
    /// one member of the family at most, none when the family has its `for` line), then
    /// the family's.
    pub(super) fn sees_lines(&mut self, ev: &Event, cases: &Cases, body: &mut Vec<String>) {
        let family = ev.family.as_ref().filter(|_| self.d.char_family);
        let mut seen: Vec<String> = Vec::new();
        for (who, part) in &ev.sees {
            let who = self.agent(*who);
            let member = who.starts_with("P[");
            if seen.contains(&who)
                || (member && (family.is_some() || seen.iter().any(|s| s.starts_with("P["))))
            {
                continue;
            }
            let groups = self.partition(cases, part, Line::Sees);
            // One group of cases named one by one is refused (a comma for `|`); no
            // line says the same.
            if !one_listed_group(&groups) {
                body.push(format!("{who} sees {groups}"));
            }
            seen.push(who);
        }
        if seen.len() < self.agents().len() {
            self.printed
                .constructs
                .insert("event: a character with no sees line");
        }
        let Some(family) = family else { return };
        let k = self.next_var();
        let n = self.n;
        self.scope.push(super::Var {
            name: k.clone(),
            lo: 0,
            hi: n - 1,
        });
        let groups = match family {
            FamilySees::Same(part) => self.partition(cases, part, Line::Sees),
            FamilySees::Own => self.own_groups(cases, &k),
        };
        self.scope.pop();
        if one_listed_group(&groups) {
            return;
        }
        self.printed.constructs.insert("event: sees in a for");
        body.push(format!("for {k} in 0..n {{"));
        body.push(format!("  P[{k}] sees {groups}"));
        body.push("}".into());
    }

    /// The `expects` lines (issue 20), appended to `body`: the characters' own (each at
    /// most once; one member of the family at most, none when the family has its `for`
    /// line), then the family's. The partition's groups in order, most plausible first;
    /// now and then its last group left out (those cases come last).
    pub(super) fn expects_lines(&mut self, ev: &Event, cases: &Cases, body: &mut Vec<String>) {
        let family = ev.family_expects.as_ref().filter(|_| self.d.char_family);
        let mut seen: Vec<String> = Vec::new();
        for (who, part) in &ev.expects {
            let who = self.agent(*who);
            let member = who.starts_with("P[");
            if seen.contains(&who)
                || (member && (family.is_some() || seen.iter().any(|s| s.starts_with("P["))))
            {
                continue;
            }
            let groups = self.partition(cases, part, Line::Expects);
            body.push(format!("{who} expects {groups}"));
            seen.push(who);
        }
        if !seen.is_empty() {
            self.printed.constructs.insert("event: expects line");
        }
        let Some(part) = family else { return };
        let k = self.next_var();
        let n = self.n;
        self.scope.push(super::Var {
            name: k.clone(),
            lo: 0,
            hi: n - 1,
        });
        let groups = self.partition(cases, part, Line::Expects);
        self.scope.pop();
        self.printed.constructs.insert("event: expects line");
        self.printed.constructs.insert("event: expects in a for");
        body.push(format!("for {k} in 0..n {{"));
        body.push(format!("  P[{k}] expects {groups}"));
        body.push("}".into());
    }

    /// What `P[k]` sees of its own part: the calls it is in (`g[i, j]` with i or j = k),
    /// or whether `f[k]` happened, or one case.
    fn own_groups(&mut self, cases: &Cases, k: &str) -> String {
        let (i, j) = (self.next_var(), format!("i{}", self.scope.len() + 2));
        let pairs = cases.shapes.iter().enumerate().find_map(|(l, s)| match s {
            Shape::Pairs { base, m } if cases.names.iter().any(|(_, o)| *o == l) => {
                Some((base.clone(), *m))
            }
            _ => None,
        });
        if let Some((base, m)) = pairs {
            self.printed.constructs.insert("sees: each(… if …)");
            return format!(
                "each({i} in 0..{m}, {j} in {i} + 1..{m} if {i} == {k} or {j} == {k}: {base}[{i}, {j}]) | others"
            );
        }
        let family = cases.shapes.iter().find_map(|s| match s {
            Shape::Family { base, bound } => Some((base.clone(), bound.clone())),
            _ => None,
        });
        if let Some((base, bound)) = family {
            self.printed.constructs.insert("sees: each(… if …)");
            return format!("each({i} in 0..{bound} if {i} == {k}: {base}[{i}]) | others");
        }
        format!("{} | others", cases.names[0].0)
    }

    /// A `sees` line's groups: each case's group from the partition (cycling), families
    /// written whole (by name, `all(…)`) or each case a group (`each(…)`), `others` for
    /// one group. An `expects` line's likewise, in order, most plausible first, with now
    /// and then its last group left out.
    fn partition(&mut self, cases: &Cases, part: &Partition, line: Line) -> String {
        let mut group_of: Vec<usize> = (0..cases.names.len())
            .map(|c| usize::from(part.groups[c % part.groups.len()]))
            .collect();
        // Groups of items, by group number; `each(…)` groups apart.
        let mut groups: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        let mut eaches: Vec<String> = Vec::new();
        let mut written = vec![false; cases.names.len()];
        let (i, j) = (self.next_var(), format!("i{}", self.scope.len() + 2));
        for (l, shape) in cases.shapes.iter().enumerate() {
            let members: Vec<usize> = (0..cases.names.len())
                .filter(|&c| cases.names[c].1 == l)
                .collect();
            let mode = (usize::from(part.style >> 1) + l) % 4;
            let (item, each) = match (shape, mode) {
                (Shape::One, _) | (_, 0) => continue,
                (Shape::Family { base, .. } | Shape::Pairs { base, .. }, 1) => {
                    if members.is_empty() {
                        continue;
                    }
                    self.printed.constructs.insert("sees: a family named whole");
                    (base.clone(), false)
                }
                (Shape::Family { base, bound }, _) => {
                    (format!("{i} in 0..{bound}: {base}[{i}]"), mode == 3)
                }
                (Shape::Pairs { base, m }, _) => (
                    format!("{i} in 0..{m}, {j} in {i} + 1..{m}: {base}[{i}, {j}]"),
                    mode == 3,
                ),
            };
            for &c in &members {
                written[c] = true;
            }
            if each {
                self.printed.constructs.insert("sees: each(…)");
                eaches.push(format!("each({item})"));
            } else {
                let g = members.first().map_or(0, |&c| group_of[c]);
                for &c in &members {
                    group_of[c] = g;
                }
                let item = if mode == 2 {
                    self.printed.constructs.insert("sees: all(…)");
                    format!("all({item})")
                } else {
                    item
                };
                groups.entry(g).or_default().push(item);
            }
        }
        for (c, (name, _)) in cases.names.iter().enumerate() {
            if !written[c] {
                groups.entry(group_of[c]).or_default().push(name.clone());
            }
        }
        let omit =
            line == Line::Expects && part.style & 0x20 != 0 && groups.len() + eaches.len() > 1;
        if omit {
            groups.pop_last();
            self.printed.constructs.insert("expects: cases left out");
        } else if part.style & 1 == 1
            && let Some((_, items)) = groups.iter_mut().next_back()
        {
            self.printed.constructs.insert(match line {
                Line::Sees => "sees: others",
                Line::Expects => "expects: others",
            });
            *items = vec!["others".into()];
        }
        let mut out: Vec<String> = groups.into_values().map(|g| g.join(", ")).collect();
        if part.style & 0x40 == 0 {
            out.extend(eaches);
        } else {
            eaches.extend(out);
            out = eaches;
        }
        match line {
            Line::Sees => {
                if out.len() > 1 {
                    self.printed.constructs.insert("sees: several groups");
                }
                out.join(" | ")
            }
            Line::Expects => {
                if out.len() > 1 {
                    self.printed.constructs.insert("expects: several groups");
                }
                if out.iter().any(|g| g.contains(", ")) {
                    self.printed
                        .constructs
                        .insert("expects: a group of several");
                }
                out.join(" > ")
            }
        }
    }

    /// Constructs of the event, for the tally.
    fn note_event(&mut self, ev: &Event, cases: &Cases) {
        let c = &mut self.printed.constructs;
        c.insert(match cases.names.len() {
            1 => "event: 1 case",
            2 => "event: 2 cases",
            3 => "event: 3 cases",
            _ => "event: 4+ cases",
        });
        if cases.shapes.iter().any(|s| !matches!(s, Shape::One)) {
            c.insert("event: a family of cases");
        }
        if self.loops > 0 {
            c.insert("event in a loop");
        }
        c.insert(if self.actual {
            "event after actual"
        } else {
            "event before actual"
        });
        if ev.sees.is_empty() && ev.family.is_none() {
            c.insert("event: no sees line");
        }
    }

    /// The `actual CASE` line: with an actual world, a case that can happen there (the
    /// evaluator says which) for `Right`, one that cannot for `Wrong` (a story error),
    /// none for `Missing` (an error unless one case only can happen); without one, none,
    /// or for `Wrong` any (a story error).
    fn actual_case(
        &mut self,
        line: ActualLine,
        cases: &Cases,
        block: &dyn Fn(Option<&str>) -> Vec<String>,
    ) -> Option<String> {
        let names: Vec<&String> = cases.names.iter().map(|(c, _)| c).collect();
        if !self.actual {
            return match line {
                ActualLine::Wrong(i) => {
                    self.printed
                        .constructs
                        .insert("event: actual without an actual world");
                    Some(names[i as usize % names.len()].clone())
                }
                _ => None,
            };
        }
        let (right, wrong): (Vec<&String>, Vec<&String>) = names
            .iter()
            .partition(|c| !self.block_fails(&block(Some(c.as_str()))));
        let c = &mut self.printed.constructs;
        match line {
            ActualLine::Missing => {
                c.insert("event: actual left out");
                None
            }
            ActualLine::Right(i) if !right.is_empty() => {
                c.insert("event: actual right");
                Some(right[i as usize % right.len()].clone())
            }
            ActualLine::Right(i) | ActualLine::Wrong(i) if !wrong.is_empty() => {
                c.insert("event: actual wrong");
                Some(wrong[i as usize % wrong.len()].clone())
            }
            ActualLine::Right(i) | ActualLine::Wrong(i) => {
                c.insert("event: actual right");
                Some(right[i as usize % right.len()].clone())
            }
        }
    }

    /// `e == c` for each event that happened in `world` (the evaluator's, at the end of
    /// `text`), c the case of its latest execution (the one with the latest slot): what
    /// `actual` says of the events, so that it pins one world.
    pub(super) fn latest_cases(
        &mut self,
        text: &str,
        world: &epipen::worlds::World,
    ) -> Vec<String> {
        let Ok(program) = epipen::compile_seeded(text, &self.printed.sets, self.printed.seed)
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (e, def) in program.events.iter().enumerate() {
            let latest = (program.constants.iter().enumerate())
                .filter(|(_, c)| c.occurrence.is_some_and(|o| o.event.0 == e))
                .filter_map(|(k, _)| match world.0.get(k) {
                    Some(epipen::worlds::Value::Int(v)) if *v < def.not_yet() => Some(*v),
                    _ => None,
                })
                .next_back();
            if let Some(case) = latest {
                out.push(format!("{} == {}", def.name, def.cases[case as usize]));
            }
        }
        if !out.is_empty() {
            self.printed
                .constructs
                .insert("actual names the events' cases");
        }
        out
    }
}

/// Whether a `sees` line's groups are one group of several cases named one by one
/// (`a, b`), which lowering refuses as a comma written for `|`.
fn one_listed_group(groups: &str) -> bool {
    !groups.contains('|')
        && !groups.contains('(')
        && groups.contains(", ")
        && !groups.contains("others")
}
