//! Knowledge, from the definitions: what a character observes of a world, and the
//! knowledge operators as tables over a state's worlds grouped by observation.

use std::collections::HashMap;
use std::rc::Rc;

use epipen_ir::{CharId, Expr, GroupOp, Value, World};

use crate::{Evaluator, Learned, Op, State, Table, V};

impl<'p> Evaluator<'p> {
    /// What `A learns φ` (φ with knowledge operators) teaches: whether φ holds now, in
    /// each world of the state.
    pub(crate) fn whether(&mut self, what: &'p Expr) -> Result<Learned<'p>, String> {
        let state = self.state.clone();
        let mut held = HashMap::with_capacity(state.worlds.len());
        for w in state.worlds.iter() {
            let value = self.eval(what, w, &state)?.into_bool()?;
            held.insert(w.clone(), value);
        }
        let later = (0..self.happened.len())
            .filter(|&o| !self.happened[o] && self.program.constants[o].occurrence.is_some())
            .collect();
        Ok(Learned::Whether {
            held: Rc::new(held),
            later: Rc::new(later),
            from: Some((what, state, self.checkpoints.clone())),
        })
    }

    /// `[G ! φ] ψ` / `[G ?! φ] ψ` at `w` in `s`, from the definition: ψ at `w` in the
    /// model updated by the announcement. To everyone (G empty), the update keeps the
    /// worlds of `s` where φ has the value it has at `w` (with `!`, φ must hold there;
    /// where it does not, the formula is true). To G, it is the action model of two
    /// events, "φ" and "not φ", each possible where it holds, that the members of G tell
    /// apart and the others do not: each world keeps its one event, and each member
    /// tells the worlds apart by whether φ held.
    pub(crate) fn announced(
        &mut self,
        agents: &[CharId],
        whether: bool,
        formula: &'p Expr,
        body: &'p Expr,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<bool, String> {
        let here = self.eval(formula, w, s)?.into_bool()?;
        if !here && !whether {
            return Ok(true);
        }
        let possible = s.worlds.contains(w);
        let key = (formula as *const Expr as usize, s.id, here);
        let after = match self.announced.get(&key) {
            Some(after) if possible => after.clone(),
            _ => {
                let mut held = HashMap::with_capacity(s.worlds.len() + 1);
                for u in s.worlds.iter() {
                    let value = self.eval(formula, u, s)?.into_bool()?;
                    held.insert(u.clone(), value);
                }
                held.insert(w.clone(), here);
                let (worlds, learned) = if agents.is_empty() {
                    let kept = (s.worlds.iter())
                        .filter(|u| held.get(*u) == Some(&here))
                        .cloned()
                        .collect();
                    (Rc::new(kept), s.learned.clone())
                } else {
                    let mut learned = s.learned.clone();
                    let held = Rc::new(held);
                    for a in agents {
                        learned[a.0].push(Learned::Whether {
                            held: held.clone(),
                            later: Rc::new(Vec::new()),
                            from: Some((formula, s.clone(), self.checkpoints.clone())),
                        });
                    }
                    (s.worlds.clone(), learned)
                };
                let id = self.next_id;
                self.next_id += 1;
                let after = Rc::new(State {
                    id,
                    worlds,
                    learned,
                    time: s.time,
                    plausibility: s.plausibility.clone(),
                });
                if possible {
                    self.announced.insert(key, after.clone());
                }
                after
            }
        };
        self.eval(body, w, &after)?.into_bool()
    }

    /// What `agent` observes at `w`: the values of its learned expressions, the truth of
    /// the formulas it learned (in the states it learned them in), and the groups of the
    /// events' cases it saw.
    pub(crate) fn observation(
        &mut self,
        agent: CharId,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<Vec<V>, String> {
        let mut obs = Vec::with_capacity(s.learned[agent.0].len());
        for learned in &s.learned[agent.0] {
            obs.push(match learned {
                Learned::Value(e, time) => self.eval(e, w, &Self::at_time(*time))?,
                Learned::Whether { held, later, from } => {
                    let mut past = w.clone();
                    for &occ in later.iter() {
                        past.0[occ] = Value::Int(self.not_yet(occ) as i64);
                    }
                    match (held.get(&past), from) {
                        (Some(held), _) => V::B(*held),
                        // A world that was not possible then (one a quantifier made):
                        // the formula there, in the state it was learned in.
                        (None, Some((what, then, saved))) => {
                            let (what, then) = (*what, then.clone());
                            let now = std::mem::replace(&mut self.checkpoints, saved.clone());
                            let held = self.eval(what, &past, &then);
                            self.checkpoints = now;
                            V::B(held?.into_bool()?)
                        }
                        (None, None) => {
                            return Err(format!(
                                "the world {w:?} was not possible when its character learned"
                            ));
                        }
                    }
                }
                Learned::Saw {
                    occ,
                    offset,
                    groups,
                } => {
                    let case = self.case_in(w, *occ)?.checked_sub(*offset);
                    match case.and_then(|k| groups.get(k)) {
                        Some(group) => V::I((*group).into()),
                        None => return Err(format!("slot #{occ} holds another action's case")),
                    }
                }
            });
        }
        Ok(obs)
    }

    /// The class of `w` among the worlds `agent` cannot tell apart in `s`: the number of
    /// its observation. Memoised: an observation evaluates every formula the agent
    /// learned, knowledge operators and `at` inside included, so that asking it afresh
    /// at each knowledge operator took time exponential in the number of calls of a
    /// gossip.
    pub(crate) fn class_of(
        &mut self,
        agent: CharId,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<usize, String> {
        self.class(agent, w, s)
    }

    fn class(&mut self, agent: CharId, w: &World, s: &Rc<State<'p>>) -> Result<usize, String> {
        let key = (agent.0, s.id, w.clone());
        if let Some(&class) = self.classes.get(&key) {
            return Ok(class);
        }
        let obs = self.observation(agent, w, s)?;
        let numbered = self.observations.entry((agent.0, s.id)).or_default();
        let next = numbered.len();
        let class = *numbered.entry(obs).or_insert(next);
        self.classes.insert(key, class);
        Ok(class)
    }

    /// `K_agent formula` at `w` in state `s`.
    pub(crate) fn knows(
        &mut self,
        agent: CharId,
        formula: &'p Expr,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<bool, String> {
        self.knows_polarity(agent, formula, true, w, s)
    }

    /// `K_agent ¬formula` at `w` in state `s`.
    pub(crate) fn knows_not(
        &mut self,
        agent: CharId,
        formula: &'p Expr,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<bool, String> {
        self.knows_polarity(agent, formula, false, w, s)
    }

    /// `K_agent (formula == polarity)` at `w` in state `s`.
    fn knows_polarity(
        &mut self,
        agent: CharId,
        formula: &'p Expr,
        polarity: bool,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<bool, String> {
        let op = if polarity { Op::Knows } else { Op::KnowsNot };
        let key = (op, formula as *const Expr as usize, agent.0, s.id);
        if !self.memo.contains_key(&key) {
            let mut table: HashMap<usize, bool> = HashMap::new();
            for w2 in s.worlds.iter() {
                let obs = self.class(agent, w2, s)?;
                let holds = self.eval(formula, w2, s)?.into_bool()? == polarity;
                *table.entry(obs).or_insert(true) &= holds;
            }
            self.memo.insert(key, Table::Knows(table));
        }
        let obs = self.class(agent, w, s)?;
        match &self.memo[&key] {
            // No world of the state looks like `w` to the agent: vacuously true.
            Table::Knows(table) => Ok(table.get(&obs).copied().unwrap_or(true)),
            _ => unreachable!("memo key kinds are distinct"),
        }
    }

    /// `knows_value(agent, exprs)` at `w` in state `s`.
    pub(crate) fn knows_value(
        &mut self,
        agent: CharId,
        exprs: &'p [Expr],
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<bool, String> {
        let key = (Op::KnowsValue, exprs.as_ptr() as usize, agent.0, s.id);
        if !self.memo.contains_key(&key) {
            let mut table: HashMap<usize, Option<Vec<V>>> = HashMap::new();
            for w2 in s.worlds.iter() {
                let obs = self.class(agent, w2, s)?;
                let mut vals = Vec::with_capacity(exprs.len());
                for e in exprs {
                    vals.push(self.eval(e, w2, s)?);
                }
                match table.get_mut(&obs) {
                    None => {
                        table.insert(obs, Some(vals));
                    }
                    Some(slot) => {
                        if slot.as_ref().is_some_and(|v| *v != vals) {
                            *slot = None;
                        }
                    }
                }
            }
            self.memo.insert(key, Table::KnowsValue(table));
        }
        let obs = self.class(agent, w, s)?;
        match &self.memo[&key] {
            // An empty group (vacuously true) or one whose worlds all agree.
            Table::KnowsValue(table) => Ok(table.get(&obs).is_none_or(|v| v.is_some())),
            _ => unreachable!("memo key kinds are distinct"),
        }
    }

    /// Group knowledge at `w` in `s`, from the definitions: E, every member knows; D, the
    /// worlds that agree with `w` on what every member observes satisfy the formula; C,
    /// every world reachable from `w` in one or more steps (to a world of `s` some member
    /// cannot tell from the one before) satisfies it.
    pub(crate) fn group(
        &mut self,
        op: GroupOp,
        agents: &[CharId],
        formula: &'p Expr,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<bool, String> {
        let observe = |ev: &mut Self, v: &World| -> Result<Vec<Vec<V>>, String> {
            agents.iter().map(|a| ev.observation(*a, v, s)).collect()
        };
        // One table per (operator, formula, state), as for `knows`: the formula's address
        // is that of one group expression, so it stands for the group too.
        let key = match op {
            GroupOp::Everyone => {
                for a in agents {
                    if !self.knows(*a, formula, w, s)? {
                        return Ok(false);
                    }
                }
                return Ok(true);
            }
            GroupOp::Distributed => (Op::Distributed, formula as *const Expr as usize, 0, s.id),
            GroupOp::Common => (Op::Common, formula as *const Expr as usize, 0, s.id),
        };
        if !self.memo.contains_key(&key) {
            let views: Vec<Vec<Vec<V>>> = s
                .worlds
                .iter()
                .map(|v| observe(self, v))
                .collect::<Result<_, _>>()?;
            let mut truth = Vec::with_capacity(s.worlds.len());
            for v in s.worlds.iter() {
                truth.push(self.eval(formula, v, s)?.into_bool()?);
            }
            let table = if op == GroupOp::Distributed {
                let mut table: HashMap<Vec<Vec<V>>, bool> = HashMap::new();
                for (view, holds) in views.into_iter().zip(&truth) {
                    *table.entry(view).or_insert(true) &= holds;
                }
                Table::Distributed(table)
            } else {
                // Union-find over the worlds: two worlds some member cannot tell apart
                // are joined; a component is what the steps reach.
                let mut parent: Vec<usize> = (0..s.worlds.len()).collect();
                fn root(parent: &mut [usize], mut i: usize) -> usize {
                    while parent[i] != i {
                        parent[i] = parent[parent[i]];
                        i = parent[i];
                    }
                    i
                }
                let mut first: HashMap<(usize, Vec<V>), usize> = HashMap::new();
                for (i, view) in views.iter().enumerate() {
                    for (m, obs) in view.iter().enumerate() {
                        match first.get(&(m, obs.clone())) {
                            Some(&j) => {
                                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                                parent[a] = b;
                            }
                            None => {
                                first.insert((m, obs.clone()), i);
                            }
                        }
                    }
                }
                let mut good = vec![true; s.worlds.len()];
                for (i, holds) in truth.iter().enumerate() {
                    let r = root(&mut parent, i);
                    good[r] &= holds;
                }
                let classes = first
                    .into_iter()
                    .map(|(class, i)| (class, root(&mut parent, i)))
                    .collect();
                Table::Common(classes, good)
            };
            self.memo.insert(key, table);
        }
        let seen = observe(self, w)?;
        match &self.memo[&key] {
            // D: every world that agrees with `w` on what every member observes.
            Table::Distributed(table) => Ok(table.get(&seen).copied().unwrap_or(true)),
            // C: a first step to a world some member cannot tell from `w`, then any
            // number more: the components of those worlds.
            Table::Common(classes, good) => Ok(seen
                .into_iter()
                .enumerate()
                .filter_map(|(m, obs)| classes.get(&(m, obs)))
                .all(|&c| good[c])),
            _ => unreachable!("memo key kinds are distinct"),
        }
    }

    /// `believes(agent, formula)` at `w` in `s`: the formula holds in every world the
    /// agent finds most plausible among those of `s` it cannot tell from `w`.
    pub(crate) fn believes(
        &mut self,
        agent: CharId,
        formula: &'p Expr,
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<bool, String> {
        let key = (Op::Believes, formula as *const Expr as usize, agent.0, s.id);
        if !self.memo.contains_key(&key) {
            let best = self.most_plausible(agent, s)?;
            let mut table: HashMap<Vec<V>, bool> = HashMap::new();
            for (obs, v) in best {
                let holds = self.eval(formula, &v, s)?.into_bool()?;
                *table.entry(obs).or_insert(true) &= holds;
            }
            self.memo.insert(key, Table::Believes(table));
        }
        let obs = self.observation(agent, w, s)?;
        match &self.memo[&key] {
            Table::Believes(table) => Ok(table.get(&obs).copied().unwrap_or(true)),
            _ => unreachable!("memo key kinds are distinct"),
        }
    }

    /// `believes_value(agent, exprs)` at `w` in `s`: the worlds the agent finds most
    /// plausible among those of `s` it cannot tell from `w` agree on the values.
    pub(crate) fn believes_value(
        &mut self,
        agent: CharId,
        exprs: &'p [Expr],
        w: &World,
        s: &Rc<State<'p>>,
    ) -> Result<bool, String> {
        let key = (Op::BelievesValue, exprs.as_ptr() as usize, agent.0, s.id);
        if !self.memo.contains_key(&key) {
            let best = self.most_plausible(agent, s)?;
            let mut table: HashMap<Vec<V>, Option<Vec<V>>> = HashMap::new();
            for (obs, v) in best {
                let mut vals = Vec::with_capacity(exprs.len());
                for e in exprs {
                    vals.push(self.eval(e, &v, s)?);
                }
                match table.get_mut(&obs) {
                    None => {
                        table.insert(obs, Some(vals));
                    }
                    Some(slot) => {
                        if slot.as_ref().is_some_and(|x| *x != vals) {
                            *slot = None;
                        }
                    }
                }
            }
            self.memo.insert(key, Table::BelievesValue(table));
        }
        let obs = self.observation(agent, w, s)?;
        match &self.memo[&key] {
            Table::BelievesValue(table) => Ok(table.get(&obs).is_none_or(|v| v.is_some())),
            _ => unreachable!("memo key kinds are distinct"),
        }
    }

    /// The worlds of `s` of least rank in the agent's plausibility order among those it
    /// cannot tell apart, with the agent's observation of each.
    fn most_plausible(
        &mut self,
        agent: CharId,
        s: &Rc<State<'p>>,
    ) -> Result<Vec<(Vec<V>, World)>, String> {
        let mut least: HashMap<Vec<V>, usize> = HashMap::new();
        let mut seen = Vec::with_capacity(s.worlds.len());
        for v in s.worlds.iter() {
            let obs = self.observation(agent, v, s)?;
            let r = crate::rank(s, agent.0, v);
            let slot = least.entry(obs.clone()).or_insert(r);
            *slot = (*slot).min(r);
            seen.push((obs, v.clone(), r));
        }
        Ok(seen
            .into_iter()
            .filter(|(obs, _, r)| least[obs] == *r)
            .map(|(obs, v, _)| (obs, v))
            .collect())
    }
}
