//! Events as the product update, from the definition: W' = {(w, c) : w ∈ W, pre_c(w)}
//! (a pair is w with c written in the occurrence's slot), A's indistinguishability
//! (w, c) ~ (v, d) iff w ~ v and A's `sees` line puts c and d in one group, and the
//! values after c's changes.

use std::rc::Rc;

use epipen_ir::{Case, EventStmt, Expr, ExprKind, Rat, RatKind, Stmt, StmtKind, Value, World};

use crate::{Change, Evaluator, Fail, Learned, State, dense, rank};

/// What an expression naming an event that has not happened fails with (a story error,
/// as the engines report it).
pub(crate) const NOT_HAPPENED: &str = "the event has not happened yet";
/// A shared term ([`ExprKind::Shared`]) is the engine driver's form of a changed
/// constant; the evaluator reads the program as lowering wrote it, which has none.
pub(crate) const SHARED: &str = "internal error: a shared term in the program";

impl<'p> Evaluator<'p> {
    /// Runs the event; returns the case that happened in the actual world (None without
    /// an actual world).
    pub(crate) fn event(&mut self, event: &'p EventStmt) -> Result<Option<usize>, Fail> {
        let Some(occ) = event
            .occurrences
            .iter()
            .map(|o| o.0)
            .find(|&o| !self.happened[o])
        else {
            return Err(Fail::from(
                "an event ran more often than its occurrences".to_string(),
            ));
        };
        let state = self.state.clone();
        // Which cases can happen in which worlds, before the event.
        let mut possible: Vec<Vec<bool>> = Vec::with_capacity(state.worlds.len());
        for w in state.worlds.iter() {
            possible.push(self.possible(&event.cases, w, &state)?);
        }
        let actual_case = match &self.actual {
            None if event.actual.is_some() => {
                let mut fail = Fail::story("`actual CASE` without an actual world");
                fail.span = event.actual_at;
                return Err(fail);
            }
            None => None,
            Some(actual) => {
                let actual = actual.clone();
                let row = self.possible(&event.cases, &actual, &state)?;
                let here: Vec<usize> = (0..row.len()).filter(|&c| row[c]).collect();
                match (event.actual, here.as_slice()) {
                    (Some(k), _) if here.contains(&k) => Some(k),
                    (Some(_), _) => {
                        // Reported at the `actual` line, where the mistake is.
                        let mut fail =
                            Fail::story("the actual case cannot happen in the actual world");
                        fail.span = event.actual_at;
                        return Err(fail);
                    }
                    (None, [k]) => Some(*k),
                    (None, _) => {
                        return Err(Fail::story(
                            "not exactly one case can happen in the actual world",
                        ));
                    }
                }
            }
        };
        self.product(event, occ, 0, &possible)?;
        if let (Some(k), Some(actual)) = (actual_case, &self.actual) {
            self.actual = Some(with_case(actual, occ, k));
        }
        Ok(actual_case)
    }

    /// The product update of the state by `event`'s cases, the case k of a pair written
    /// in the slot `occ` as `offset + k` (0 for an `event` statement; a plan's steps
    /// share one event, whose cases are every action's, see [`epipen_ir::PlanSteps`]):
    /// the pairs (w, k) of a world w of the state and a case k `possible` there (by
    /// world, in the state's order), with what each character saw of the case and the
    /// values after its changes. The actual world is the caller's to move.
    pub(crate) fn product(
        &mut self,
        event: &'p EventStmt,
        occ: usize,
        offset: usize,
        possible: &[Vec<bool>],
    ) -> Result<(), Fail> {
        let state = self.state.clone();
        let chances = match self.probabilistic {
            true => Some(self.case_chances(event, possible)?),
            false => None,
        };
        let mut worlds = Vec::new();
        // Action priority: (w, c) below (v, d) for A when A expects c more than d, or
        // equally and w is below v.
        let mut keys: Vec<Vec<(World, (usize, usize))>> = vec![Vec::new(); event.expects.len()];
        for (i, (w, row)) in state.worlds.iter().zip(possible).enumerate() {
            for (c, &can) in row.iter().enumerate() {
                if can {
                    let pair = with_case(w, occ, offset + c);
                    if let Some(chances) = &chances {
                        let mu = self.weight(w) * &chances[i][c];
                        self.weights.insert(pair.clone(), mu);
                    }
                    for (a, ranks) in event.expects.iter().enumerate() {
                        let case_rank = ranks.as_ref().map_or(0, |r| r[c]);
                        keys[a].push((pair.clone(), (case_rank, rank(&state, a, w))));
                    }
                    worlds.push(pair);
                }
            }
        }
        let plausibility = keys.into_iter().map(|k| Rc::new(dense(k))).collect();
        let mut learned = state.learned.clone();
        for (who, groups) in event.sees.iter().enumerate() {
            if let Some(groups) = groups {
                learned[who].push(Learned::Saw {
                    occ,
                    offset,
                    groups,
                });
            }
        }
        self.happened[occ] = true;
        self.change(Change::Event {
            occ,
            offset,
            cases: &event.cases,
        });
        self.state = self.new_state_ranked(Rc::new(worlds), learned, plausibility);
        Ok(())
    }

    /// Which of `cases` can happen at `w` in `s`: those whose precondition holds there.
    pub(crate) fn possible(
        &mut self,
        cases: &'p [Case],
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<Vec<bool>, Fail> {
        let mut row = Vec::with_capacity(cases.len());
        for case in cases {
            row.push(match &case.pre {
                None => true,
                Some(pre) => self.eval(pre, w, s)?.into_bool()?,
            });
        }
        Ok(row)
    }

    /// The worlds `actual φ` chooses from: each world of the domain with a case in the
    /// slot of every occurrence that has happened (the pairs (w, c) of the definition),
    /// where an `actual` made again (in a `repeat`'s later round) keeps the cases the
    /// actual world had.
    pub(crate) fn candidates(&self) -> Result<Rc<Vec<World>>, Fail> {
        let happened: Vec<usize> = (0..self.happened.len())
            .filter(|&o| self.happened[o])
            .collect();
        if happened.is_empty() {
            return Ok(self.all.clone());
        }
        let mut worlds: Vec<World> = self.all.to_vec();
        for occ in happened {
            let cases: Vec<usize> = match &self.actual {
                Some(actual) => vec![self.case_in(actual, occ)?],
                None => (0..self.not_yet(occ)).collect(),
            };
            if (worlds.len() as u64).saturating_mul(cases.len() as u64) > crate::MAX_WORLDS {
                return Err(Fail::from(
                    "too many worlds for `actual` to choose from".to_string(),
                ));
            }
            worlds = worlds
                .iter()
                .flat_map(|w| cases.iter().map(move |&c| with_case(w, occ, c)))
                .collect();
        }
        Ok(Rc::new(worlds))
    }

    /// Fails, as the engines do, when an expression `stmt` evaluates now names an event
    /// that has not happened, whether or not its evaluation would reach the name (`p or
    /// e == a`, a knowledge operator over no world). A `repeat`'s condition is checked
    /// at the end of each round, the statements of a block one by one.
    pub(crate) fn named_events(&self, stmt: &Stmt) -> Result<(), String> {
        let time = self.changes.len();
        match &stmt.kind {
            StmtKind::Repeat { .. } | StmtKind::Simultaneously(_) => Ok(()),
            // Each step's, at the step (plan.rs, `do_actions`), as the engines report it.
            StmtKind::Do(_) => Ok(()),
            StmtKind::AssertAddsCk { hint, .. } => self.happened_by(hint, time),
            _ => stmt.each_expr(&mut |e| self.happened_by(e, time)),
        }
    }

    /// Fails when `e`, read at `time` (inside `at(c, …)`, at the checkpoint's), names an
    /// event that has not happened then. An `at(c, …)` inside another reads its body at
    /// its own checkpoint's time only (`at(c0, at(c1, e == s))` with c1 after c0 and the
    /// event between them names it), as the engines read it.
    pub(crate) fn happened_by(&self, e: &Expr, time: usize) -> Result<(), String> {
        let each = |xs: &[Expr]| xs.iter().try_for_each(|x| self.happened_by(x, time));
        match &e.kind {
            ExprKind::Latest(event) if self.latest[time][event.0].is_none() => {
                Err(NOT_HAPPENED.to_string())
            }
            ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Const(_) | ExprKind::Latest(_) => {
                Ok(())
            }
            ExprKind::At { checkpoint, body } => match &self.checkpoints[checkpoint.0] {
                Some(state) => self.happened_by(body, state.time),
                None => self.happened_by(body, time),
            },
            // Only the engine's driver makes shared terms; the evaluator reads the program.
            ExprKind::Shared(_) => Err(SHARED.to_string()),
            ExprKind::Neg(a)
            | ExprKind::Not(a)
            | ExprKind::Knows { formula: a, .. }
            | ExprKind::Believes { formula: a, .. }
            | ExprKind::Group { formula: a, .. }
            | ExprKind::Quantified { body: a, .. } => self.happened_by(a, time),
            ExprKind::Arith(_, a, b)
            | ExprKind::Cmp(_, a, b)
            | ExprKind::Logic(_, a, b)
            | ExprKind::Announced {
                formula: a,
                body: b,
                ..
            } => {
                self.happened_by(a, time)?;
                self.happened_by(b, time)
            }
            ExprKind::Ite(c, a, b) => {
                self.happened_by(c, time)?;
                self.happened_by(a, time)?;
                self.happened_by(b, time)
            }
            ExprKind::In { tuple, set } => {
                each(tuple)?;
                set.iter().try_for_each(|x| each(x))
            }
            ExprKind::KnowsValue { exprs, .. } | ExprKind::BelievesValue { exprs, .. } => {
                each(exprs)
            }
            ExprKind::Chance { left, right, .. } => {
                self.rat_happened_by(left, time)?;
                self.rat_happened_by(right, time)
            }
        }
    }

    fn rat_happened_by(&self, r: &Rat, time: usize) -> Result<(), String> {
        match &r.kind {
            RatKind::Int(e) => self.happened_by(e, time),
            RatKind::Probability { formula, .. } => self.happened_by(formula, time),
            RatKind::Neg(a) => self.rat_happened_by(a, time),
            RatKind::Arith(_, a, b) => {
                self.rat_happened_by(a, time)?;
                self.rat_happened_by(b, time)
            }
        }
    }

    /// The case of the occurrence `occ` in world `w` (in its slot).
    pub(crate) fn case_in(&self, w: &World, occ: usize) -> Result<usize, String> {
        match w.0.get(occ) {
            Some(Value::Int(c)) => usize::try_from(*c)
                .ok()
                .filter(|&c| c < self.not_yet(occ))
                .ok_or_else(|| NOT_HAPPENED.to_string()),
            _ => Err(format!("slot #{occ} holds no case")),
        }
    }

    /// The event of the occurrence slot `occ`.
    pub(crate) fn event_of(&self, occ: usize) -> usize {
        self.program.constants[occ]
            .occurrence
            .map_or(usize::MAX, |o| o.event.0)
    }

    /// The value an occurrence slot holds until its event happens.
    pub(crate) fn not_yet(&self, occ: usize) -> usize {
        self.program.events[self.event_of(occ)].cases.len()
    }
}

/// The pair (w, c): `w` with the case `c` in the slot `occ`.
pub(crate) fn with_case(w: &World, occ: usize, c: usize) -> World {
    let mut values = w.0.clone();
    values[occ] = Value::Int(c as i64);
    World(values)
}
