//! Belief: the worlds an agent finds most plausible among those it cannot tell apart.
//! A world's rank for an agent is the tuple of its plausibility ranks (most significant
//! first, lower more plausible); the minimal worlds of each of the agent's groups are
//! found component by component, keeping in each group those of the least value.

use std::rc::Rc;

use super::eval::CHUNK;
use super::{ExplicitBackend, Learned, State, WorldIds};
use crate::Failure;

impl ExplicitBackend {
    /// The worlds of `state` that `agent` finds most plausible in their group (sorted).
    pub(super) fn most_plausible(
        &mut self,
        state: &Rc<State>,
        agent: usize,
    ) -> Result<Rc<WorldIds>, Failure> {
        let ranks = state.minds.ranks[agent].clone();
        if ranks.is_empty() {
            return Ok(state.worlds.clone());
        }
        if let Some(known) = self.plausible.get(&(state.id, agent)) {
            return Ok(known.clone());
        }
        let groups = self.groups(state, agent)?;
        let mut alive: Vec<u32> = state.worlds.to_vec();
        for rank in &ranks {
            let values = self.rank_values(rank, &alive)?;
            let mut least: Vec<Option<i128>> = vec![None; groups.count];
            for (w, v) in alive.iter().zip(&values) {
                let slot = &mut least[groups.of(*w)];
                if slot.is_none_or(|l| *v < l) {
                    *slot = Some(*v);
                }
            }
            alive = (alive.iter().zip(&values))
                .filter(|(w, v)| least[groups.of(**w)] == Some(**v))
                .map(|(w, _)| *w)
                .collect();
        }
        let alive = Rc::new(WorldIds::from_sorted(alive, self.universe.len));
        self.plausible.insert((state.id, agent), alive.clone());
        Ok(alive)
    }

    /// A plausibility rank's value in each of `worlds`: 0 where an expected formula held
    /// (1 elsewhere), or the value of an event's case ranks.
    pub(super) fn rank_values(
        &mut self,
        rank: &Learned,
        worlds: &[u32],
    ) -> Result<Vec<i128>, Failure> {
        match rank {
            Learned::Set(bits) => Ok(worlds
                .iter()
                .map(|&w| i128::from(!self.learned_bit(bits, w as usize)))
                .collect()),
            Learned::Classes(c) => Ok(worlds
                .iter()
                .map(|&w| i128::from(self.class_of(c, w as usize)))
                .collect()),
            Learned::Const(c) => Ok(worlds
                .iter()
                .map(|&w| i128::from(self.universe.columns[*c].get(w as usize)))
                .collect()),
            Learned::Expr(e) => {
                let scratch = self.scratch();
                let mut out = Vec::with_capacity(worlds.len());
                for chunk in worlds.chunks(CHUNK) {
                    self.check_deadline()?;
                    out.extend(self.eval(e, chunk, &scratch, &[])?.ints()?);
                }
                Ok(out)
            }
        }
    }
}
