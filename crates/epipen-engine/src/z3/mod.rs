//! The Z3 backend: κ is a quantifier-free formula over the world variables (the EpiPEn
//! encoding), knowledge operators become formulas by quantifier elimination or, when κ
//! has finitely many worlds, by listing them (see `knowledge`). It runs every story
//! without chances (probabilities are refused by name), infinite domains included.

use std::collections::HashMap;
use std::rc::Rc;

use crate::driver::{
    Backend, Hint, Hints, Learning, Listing, Offers, Origin, Plausibility, Recognition, Said,
    Semantics, Views,
};
use crate::ir::arith::Integer;
use crate::ir::{CharId, ConstId, Expr, ExprKind, Program, Ty};
use crate::worlds::{self, Model, Value, World, WorldCount, WorldSet};
use crate::z3::solver::{Term, Z3};
use crate::{COUNT_ENUMERATION_CAP, Failure, Options};

mod cases;
mod finite;
mod fixed;
mod knowledge;
pub mod solver;
pub(crate) use knowledge::QUANTIFIED_KNOWLEDGE;

/// Added formulas with more DAG nodes than this are shrunk before joining κ.
const SHRINK_ABOVE: usize = 24;
/// Shrinking gives up beyond this many cubes.
const SHRINK_MAX_CUBES: usize = 64;

/// What the finite-domain route found for one κ: its worlds (None: not finite, or more
/// than `cap` to list one by one).
pub(super) struct FiniteAnswer {
    pub kappa: Term,
    pub worlds: Option<WorldList>,
    pub cap: usize,
}

/// An explicit list of worlds, shared between states.
pub(super) type WorldList = Rc<Vec<Vec<Value>>>;

/// What a character has learned: a constant, or the value of an expression.
#[derive(Clone)]
pub(super) enum Learned {
    Const(usize),
    Expr(Term),
}

/// The knowledge state: common knowledge κ and what each character learned. When κ has
/// been found to have finitely many worlds, they are kept too and filtered as κ grows.
#[derive(Clone)]
pub(crate) struct State {
    pub kappa: Term,
    pub learned: Vec<Vec<Learned>>,
    pub worlds: Option<WorldList>,
    /// Each character's plausibility ranks, most significant first: an int term (lower
    /// more plausible) and how many values it takes (0 to that, less one).
    pub ranks: Rc<Vec<Vec<(Term, usize)>>>,
}

/// The goal of a knowledge operator: that a formula holds, or the values of expressions.
pub(super) enum Goal {
    That(Term),
    /// The values of the terms, in the worlds where the condition holds (all: None).
    Values(Vec<Term>, Option<Term>),
}

pub(crate) struct Z3Backend {
    pub(super) program: Rc<Program>,
    pub(super) options: Options,
    pub(super) z3: Z3,
    /// The world variables x̄, one per declared constant.
    pub(super) vars: Vec<Term>,
    /// The last few κs asked for their worlds, and the answers.
    pub(super) finite_cache: Vec<FiniteAnswer>,
    /// The terms of shared expressions (changed constants' terms: knowledge-free, so
    /// the same in every state), each encoded once; the expression kept alive with it.
    pub(super) shared: HashMap<*const Expr, (std::sync::Arc<Expr>, Term)>,
    /// Formulas whose non-linear conjuncts were listed as cases (`cases.rs`), by
    /// address, each with the expression it was made for (compared on reuse).
    pub(super) listed_cases: HashMap<*const Expr, (Expr, Option<Term>)>,
}

impl Z3Backend {
    pub(crate) fn new(program: Rc<Program>, options: &Options) -> Z3Backend {
        let vars: Vec<Term> = program
            .constants
            .iter()
            .map(|c| match c.ty {
                Ty::Int | Ty::Enum(_) => Term::int_var(&c.name),
                Ty::Bool => Term::bool_var(&c.name),
            })
            .collect();
        Z3Backend {
            program,
            options: options.clone(),
            z3: Z3::new(options.deadline).cancelled_by(&options.cancel),
            vars,
            finite_cache: Vec::new(),
            shared: HashMap::new(),
            listed_cases: HashMap::new(),
        }
    }

    /// κ of `state` as a formula: the symbolic κ, or, once its worlds are listed (they
    /// are then the truth, and the symbolic κ is no longer kept up to date), their
    /// disjunction.
    pub(super) fn kappa_of(&self, state: &State) -> Term {
        match &state.worlds {
            None => state.kappa.clone(),
            Some(worlds) => Term::or(
                &worlds
                    .iter()
                    .map(|w| {
                        Term::and(
                            &self
                                .vars
                                .iter()
                                .zip(w)
                                .map(|(x, v)| x.eq(&Term::value(*v)))
                                .collect::<Vec<_>>(),
                        )
                    })
                    .collect::<Vec<_>>(),
            ),
        }
    }

    /// κ's worlds in `state` when they are already listed: kept in the state, or found
    /// for its κ by the last finite-domain question.
    pub(super) fn listed(&self, state: &State) -> Option<WorldList> {
        if let Some(ws) = &state.worlds {
            return Some(ws.clone());
        }
        self.finite_cache
            .iter()
            .find(|a| a.kappa == state.kappa)
            .and_then(|a| a.worlds.clone())
    }

    /// `state` with `rank` (an int term with `levels` values) as `who`'s new most
    /// significant plausibility rank.
    fn ranked(&self, state: &State, who: CharId, rank: Term, levels: usize) -> State {
        let mut ranks = (*state.ranks).clone();
        ranks[who.0].insert(0, (rank, levels));
        State {
            ranks: Rc::new(ranks),
            ..state.clone()
        }
    }

    /// The value an occurrence constant holds until its event happens.
    fn not_yet(&self, occ: ConstId) -> i64 {
        let o = self.program.constants[occ.0]
            .occurrence
            .expect("an occurrence");
        self.program.events[o.event.0].not_yet()
    }

    /// The value of `term` in one world.
    fn eval_in(&self, term: &Term, world: &[Value]) -> Result<Value, Failure> {
        term.compile(&self.vars).eval(world, &mut Vec::new())
    }

    /// `state` with κ := simplify(κ ∧ φ), or, once κ's worlds are listed, the list
    /// filtered by φ. With a symbolic κ, a large φ the engine derived
    /// ([`Origin::Derived`]: from knowledge operators, not a formula the story wrote
    /// out) is first replaced by a smaller
    /// equivalent under κ built from its own atoms (an automatic, proven hint: see
    /// `Z3::shrink`).
    fn add_to_kappa(&self, state: &State, phi: Term, origin: Origin) -> Result<State, Failure> {
        if let Some(worlds) = self.listed(state) {
            let compiled = phi.compile(&self.vars);
            let mut scratch = Vec::new();
            let mut kept = Vec::new();
            for w in worlds.iter() {
                if compiled.eval(w, &mut scratch)? == Value::Bool(true) {
                    kept.push(w.clone());
                }
            }
            return Ok(State {
                kappa: state.kappa.clone(),
                learned: state.learned.clone(),
                worlds: Some(Rc::new(kept)),
                ranks: state.ranks.clone(),
            });
        }
        let mut phi = self.z3.simplify(&phi)?;
        let size = phi.dag_size();
        if origin == Origin::Derived
            && size > SHRINK_ABOVE
            && let Some(smaller) = self.z3.shrink(&state.kappa, &phi, SHRINK_MAX_CUBES)?
        {
            let new_size = smaller.dag_size();
            tracing::debug!(from = size, to = new_size, "automatic hint");
            if new_size < size {
                phi = smaller;
            }
        }
        Ok(State {
            kappa: self.z3.simplify(&Term::and(&[state.kappa.clone(), phi]))?,
            learned: state.learned.clone(),
            worlds: None,
            ranks: state.ranks.clone(),
        })
    }
}

impl Semantics for Z3Backend {
    type Set = Term;

    type State = State;

    type Point = Vec<Value>;

    fn formula(
        &mut self,
        e: &Expr,
        state: &State,
        saved: &[Option<State>],
    ) -> Result<Term, Failure> {
        if let Some(t) = self.by_cases(e, state)? {
            return Ok(t);
        }
        self.encode(e, state, saved)
    }

    /// K_A ψ, or ψ itself when the introspection check proves them equivalent under κ
    /// and ψ is smaller.
    fn said(&mut self, agent: CharId, psi: Term, state: &State) -> Result<Said<Term>, Failure> {
        let k = self.knows(agent, state, Goal::That(psi.clone()))?;
        if k == psi {
            // The speaker saw all of ψ: K_A ψ is ψ under κ.
            return Ok(Said {
                set: psi,
                origin: Origin::Written,
            });
        }
        // When κ ⊨ ψ → K_A ψ, ψ and K_A ψ are equivalent under κ (K_A ψ → ψ always holds
        // under κ), so the smaller one is added.
        let introspective = match self.listed(state) {
            // With κ's worlds at hand, the check is an evaluation in each of them.
            Some(worlds) => {
                let check = psi.implies(&k).compile(&self.vars);
                let mut scratch = Vec::new();
                let mut valid = true;
                for w in worlds.iter() {
                    if check.eval(w, &mut scratch)? != Value::Bool(true) {
                        valid = false;
                        break;
                    }
                }
                Ok(valid)
            }
            None => self
                .z3
                .is_valid(&Term::and(&[state.kappa.clone(), psi.clone()]).implies(&k)),
        };
        let introspective = match introspective {
            Ok(v) => v,
            Err(Failure::Timeout) => return Err(Failure::Timeout),
            Err(e) => {
                tracing::debug!("introspection check failed ({e}); adding K_A ψ");
                false
            }
        };
        tracing::debug!(
            introspective,
            "announcement by {}",
            self.program.characters[agent.0].name
        );
        Ok(Said::derived(
            if introspective && psi.dag_size() < k.dag_size() {
                psi
            } else {
                k
            },
        ))
    }

    fn not(&mut self, set: &Term) -> Term {
        set.not()
    }

    fn and(&mut self, first: Term, mut rest: Vec<Term>) -> Term {
        rest.insert(0, first);
        Term::and(&rest)
    }

    fn pin(&mut self, phi: &Expr, state: &State) -> Result<Option<Vec<World>>, Failure> {
        self.first_two(phi, state).map(Some)
    }

    fn point(&mut self, world: &[Value]) -> Result<Vec<Value>, Failure> {
        Ok(world.to_vec())
    }

    fn holds(&mut self, set: &Term, point: &Vec<Value>) -> Result<bool, Failure> {
        Ok(self.eval_in(set, point)? == Value::Bool(true))
    }

    fn contains(&mut self, state: &State, point: &Vec<Value>) -> Result<bool, Failure> {
        match self.listed(state) {
            Some(worlds) => Ok(worlds.contains(point)),
            None => Ok(self.eval_in(&state.kappa, point)? == Value::Bool(true)),
        }
    }
}

impl Listing for Z3Backend {
    fn size(&self, state: &State) -> usize {
        self.kappa_of(state).dag_size()
    }

    /// Listing a model asks the solver for each world: beyond a few dozen, fixing the
    /// state costs less (a search over 15 bools: 28 s with a cap of 1 024 worlds, 0.03 s
    /// fixed; gossip's calls: 30 ms listed, 130 ms fixed).
    const LISTING_CAP: usize = 64;

    fn known_empty(&self, state: &State) -> Option<bool> {
        self.listed(state).map(|worlds| worlds.is_empty())
    }

    /// κ is quantifier-free: it has a world when it is satisfiable (one solver call, not
    /// a listing in canonical order, which searches outwards from 0 and is slow for
    /// worlds far from it: the fuzzer's ints at 10^7).
    fn is_empty(&mut self, state: &State) -> Result<bool, Failure> {
        match self.listed(state) {
            Some(worlds) => Ok(worlds.is_empty()),
            None => Ok(!self.z3.is_sat(&state.kappa)?),
        }
    }

    fn worlds(&mut self, state: &State, limit: usize) -> Result<WorldSet, Failure> {
        if let Some(ws) = self.listed(state) {
            let mut all: Vec<World> = ws.iter().map(|w| World(w.clone())).collect();
            all.sort();
            let complete = all.len() <= limit;
            all.truncate(limit);
            return Ok(WorldSet {
                chances: None,
                before: None,
                worlds: all,
                complete,
            });
        }
        let (all, exhausted) = self.z3.enumerate(&state.kappa, &self.vars, None, limit)?;
        let mut worlds: Vec<World> = if exhausted {
            all.into_iter().map(World).collect()
        } else {
            // More than `limit`: the first ones in canonical order, found in that order.
            let first = self.z3.first_in_order(&state.kappa, &self.vars, limit)?;
            first.into_iter().map(World).collect()
        };
        worlds.sort();
        Ok(WorldSet {
            chances: None,
            before: None,
            worlds,
            complete: exhausted,
        })
    }

    fn count(&mut self, state: &State, cap: usize) -> Result<WorldCount, Failure> {
        let cap = cap.min(COUNT_ENUMERATION_CAP);
        if let Some(ws) = self.small_worlds(state, cap)? {
            return Ok(WorldCount::Exactly(ws.len() as u64));
        }
        let ints: Vec<Term> = self.int_vars().cloned().collect();
        for v in &ints {
            if self.z3.unbounded(&state.kappa, v)? {
                return Ok(WorldCount::Infinite);
            }
        }
        // Finitely many, but not all within the finite route's bounds: list them.
        let (worlds, exhausted) = self.z3.enumerate(&state.kappa, &self.vars, None, cap)?;
        if exhausted {
            return Ok(WorldCount::Exactly(worlds.len() as u64));
        }
        Ok(WorldCount::MoreThan(cap as u64))
    }

    fn model(&mut self, state: &State, cap: usize, _: Views) -> Result<Option<Model>, Failure> {
        let Some(list) = self.small_worlds(state, cap)? else {
            return Ok(None);
        };
        let mut worlds: Vec<World> = list.iter().map(|w| World(w.clone())).collect();
        worlds.sort();
        let mut scratch = Vec::new();
        let mut views = Vec::with_capacity(state.learned.len());
        for learned in &state.learned {
            let mut view = vec![Vec::with_capacity(learned.len()); worlds.len()];
            for l in learned {
                let term = match l {
                    Learned::Const(c) => &self.vars[*c],
                    Learned::Expr(e) => e,
                };
                let compiled = term.compile(&self.vars);
                let column = worlds
                    .iter()
                    .map(|w| compiled.eval_exact(&w.0, &mut scratch))
                    .collect::<Result<Vec<_>, _>>()?;
                let observed = if term.is_bool() {
                    let zero = Integer::from(0i64);
                    column.iter().map(|x| Value::Bool(*x != zero)).collect()
                } else {
                    worlds::observations(&column, Integer::to_i64)
                };
                for (v, o) in view.iter_mut().zip(observed) {
                    v.push(o);
                }
            }
            views.push(view);
        }
        let mut ranks = Vec::with_capacity(state.ranks.len());
        for own in state.ranks.iter() {
            let compiled: Vec<_> = own.iter().map(|(r, _)| r.compile(&self.vars)).collect();
            let mut per_world = Vec::with_capacity(worlds.len());
            for w in &worlds {
                let tuple = compiled
                    .iter()
                    .map(|r| match r.eval(&w.0, &mut scratch)? {
                        Value::Int(n) => Ok(n),
                        Value::Bool(b) => Ok(i64::from(b)),
                    })
                    .collect::<Result<Vec<i64>, Failure>>()?;
                per_world.push(tuple);
            }
            ranks.push(per_world);
        }
        Ok(Some(Model {
            chances: None,
            before: None,
            worlds,
            views,
            ranks,
        }))
    }
}

impl Offers for Z3Backend {
    type Fixed = fixed::Fixed;

    fn plausibility(&mut self) -> Option<&mut dyn Plausibility<State, Term>> {
        Some(self)
    }

    fn hints(&mut self) -> Option<&mut dyn Hints<State, Term>> {
        Some(self)
    }

    fn recognition(&mut self) -> Option<&mut dyn Recognition<State, fixed::Fixed>> {
        Some(self)
    }
}

impl Backend for Z3Backend {
    const NAME: &'static str = "z3";

    fn initial(&mut self) -> Result<State, Failure> {
        // Every occurrence of an event holds its not-yet value until it happens.
        let not_yet: Vec<Term> = (self.program.occurrences())
            .map(|o| self.vars[o.0].eq(&Term::int(self.not_yet(o))))
            .collect();
        let mut kappa = vec![enum_domains(&self.program, &self.vars)];
        kappa.extend(not_yet);
        Ok(State {
            kappa: Term::and(&kappa).simplify(),
            learned: vec![Vec::new(); self.program.characters.len()],
            worlds: None,
            ranks: Rc::new(vec![Vec::new(); self.program.characters.len()]),
        })
    }

    fn restrict(&mut self, state: &State, added: Term, origin: Origin) -> Result<State, Failure> {
        self.add_to_kappa(state, added, origin)
    }

    fn learn(
        &mut self,
        state: &State,
        who: CharId,
        what: Learning<'_, Term>,
    ) -> Result<State, Failure> {
        match what {
            Learning::Value(e) => self.learn_value(state, who, e),
            Learning::Whether(set) => self.learn_whether(state, who, set),
        }
    }

    fn event(
        &mut self,
        state: &State,
        occ: ConstId,
        first: usize,
        pres: Vec<Term>,
        _weights: Option<&[Expr]>,
    ) -> Result<State, Failure> {
        let var = self.vars[occ.0].clone();
        let not_yet = Term::int(self.not_yet(occ));
        // κ and the preconditions hold `occ` at its not-yet value: read them there.
        let before =
            |t: &Term| t.substitute(std::slice::from_ref(&var), std::slice::from_ref(&not_yet));
        let pres: Vec<Term> = pres.iter().map(before).collect();
        if let Some(worlds) = self.listed(state) {
            let compiled: Vec<_> = pres.iter().map(|p| p.compile(&self.vars)).collect();
            let mut scratch = Vec::new();
            let mut next = Vec::new();
            for w in worlds.iter() {
                for (c, pre) in compiled.iter().enumerate() {
                    if pre.eval(w, &mut scratch)? == Value::Bool(true) {
                        let mut w = w.clone();
                        w[occ.0] = Value::Int((first + c) as i64);
                        next.push(w);
                    }
                }
            }
            return Ok(State {
                kappa: state.kappa.clone(),
                learned: state.learned.clone(),
                worlds: Some(Rc::new(next)),
                ranks: state.ranks.clone(),
            });
        }
        let happened: Vec<Term> = pres
            .into_iter()
            .enumerate()
            .map(|(c, pre)| Term::and(&[var.eq(&Term::int((first + c) as i64)), pre]))
            .collect();
        Ok(State {
            kappa: self
                .z3
                .simplify(&Term::and(&[before(&state.kappa), Term::or(&happened)]))?,
            learned: state.learned.clone(),
            worlds: None,
            ranks: state.ranks.clone(),
        })
    }
}

impl Z3Backend {
    fn learn_value(&mut self, state: &State, who: CharId, what: &Expr) -> Result<State, Failure> {
        let learned = match what.kind {
            ExprKind::Const(c) => Learned::Const(c.0),
            _ => Learned::Expr(self.encode(what, state, &[])?),
        };
        let mut next = state.clone();
        next.learned[who.0].push(learned);
        Ok(next)
    }

    fn learn_whether(&mut self, state: &State, who: CharId, set: Term) -> Result<State, Failure> {
        let mut next = state.clone();
        next.learned[who.0].push(Learned::Expr(set));
        Ok(next)
    }
}

impl Plausibility<State, Term> for Z3Backend {
    fn upgrade(&mut self, state: &State, who: CharId, set: Term) -> Result<State, Failure> {
        let rank = set.ite(&Term::int(0), &Term::int(1));
        Ok(self.ranked(state, who, rank, 2))
    }

    fn prefer(
        &mut self,
        state: &State,
        who: CharId,
        rank: &Expr,
        levels: usize,
    ) -> Result<State, Failure> {
        let rank = self.encode(rank, state, &[])?;
        Ok(self.ranked(state, who, rank, levels))
    }
}

impl Hints<State, Term> for Z3Backend {
    fn disagreement(
        &mut self,
        before: &State,
        after: &State,
        hint: &Term,
    ) -> Result<Option<(World, bool)>, Failure> {
        let after = self.kappa_of(after);
        // A world of κ_before where κ_after and the hint disagree refutes the hint.
        let disagree = Term::and(&[self.kappa_of(before), after.iff(hint).not()]);
        let (found, _) = self.z3.enumerate(&disagree, &self.vars, None, 1)?;
        match found.into_iter().next() {
            None => Ok(None),
            Some(w) => {
                let kept_by_block = self.eval_in(&after, &w)? == Value::Bool(true);
                Ok(Some((World(w), kept_by_block)))
            }
        }
    }

    fn hinted(
        &mut self,
        before: &State,
        hint: Term,
        learned: &State,
        how: Hint,
    ) -> Result<State, Failure> {
        if how == Hint::Verified {
            // With its worlds listed, κ after the block is already that small form.
            if learned.worlds.is_some() {
                return Ok(learned.clone());
            }
            return Ok(State {
                kappa: self
                    .z3
                    .simplify(&Term::and(&[self.kappa_of(before), hint]))?,
                learned: learned.learned.clone(),
                worlds: None,
                ranks: learned.ranks.clone(),
            });
        }
        let start = State {
            kappa: before.kappa.clone(),
            learned: learned.learned.clone(),
            worlds: before.worlds.clone(),
            ranks: learned.ranks.clone(),
        };
        self.add_to_kappa(&start, hint, Origin::Written)
    }
}

impl Recognition<State, fixed::Fixed> for Z3Backend {
    fn fixed(
        &mut self,
        state: &State,
        terms: Option<&[Expr]>,
        steps: &[(ConstId, Vec<i64>)],
    ) -> Result<Option<(u64, fixed::Fixed)>, Failure> {
        self.fix(state, terms, steps)
    }

    fn same_fixed(&mut self, a: &fixed::Fixed, b: &fixed::Fixed) -> Result<bool, Failure> {
        self.same(a, b)
    }
}

/// What every world satisfies: an enum constant is an int that takes one of its
/// variants' indices.
pub(super) fn enum_domains(program: &Program, vars: &[Term]) -> Term {
    let domains: Vec<Term> = program
        .constants
        .iter()
        .zip(vars)
        .filter_map(|(c, v)| match c.ty {
            Ty::Enum(e) => {
                let k = program.enums[e.0].variants.len() as i64;
                Some(Term::and(&[Term::int(0).le(v), v.lt(&Term::int(k))]))
            }
            _ => None,
        })
        .collect();
    Term::and(&domains)
}

impl Z3Backend {
    /// The first two worlds of the types where `phi` holds ([`Semantics::pin`]).
    fn first_two(&mut self, phi: &Expr, state: &State) -> Result<Vec<World>, Failure> {
        let phi = self.encode(phi, state, &[])?;
        let domains = enum_domains(&self.program, &self.vars);
        // The first two worlds in canonical order: the examples in the error are stable.
        let allowed = Term::and(&[phi, domains]);
        let found = self.z3.first_in_order(&allowed, &self.vars, 2)?;
        Ok(found.into_iter().map(World).collect())
    }
}
