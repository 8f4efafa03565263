//! The world's bits: how constants become BDD variables, and back.
//!
//! A bool constant is one bit; an enum constant with k variants is ⌈log₂ k⌉ bits holding
//! its variant's index, most significant bit first (so that the lexicographic order of
//! the bits, false before true, is the numeric order of the index). Every bit x has a
//! primed copy x' right after it in the variable order: the knowledge operators rename
//! the constants an agent has not learned to their primed copies when the agent learned
//! expressions (see `knowledge.rs`). Constants take their bits in the order
//! [`crate::bdd::order`] derives from the story (families interleaved by index), not in
//! declaration order; `walk.rs` still lists worlds in the canonical order of
//! [`crate::worlds::World`], which follows the declarations.

use super::diagram::{Bdd, BddValuation, BddVariable, Diagrams, MAX_VARS};

use super::value::Partition;
use crate::ir::arith::Integer;
use crate::ir::{Program, Ty};
use crate::worlds::{Value, World};

/// What a constant is, as bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Bool,
    /// An enum with this many variants.
    Enum(usize),
}

/// The BDD variables of a program's constants.
pub(super) struct Space {
    set: Diagrams,
    kinds: Vec<Kind>,
    /// Per constant, its (unprimed) bits, most significant first.
    bits: Vec<Vec<BddVariable>>,
    /// Every unprimed bit, in variable order.
    all_bits: Vec<BddVariable>,
    /// Every unprimed bit in declaration order: constant by constant, each most
    /// significant bit first.
    declared_bits: Vec<BddVariable>,
    /// What every world satisfies: each enum constant holds one of its variants.
    domain: Bdd,
}

/// Bits needed for the indices `0..k`.
fn bits_for(k: usize) -> usize {
    let mut bits = 0;
    while (1usize << bits) < k {
        bits += 1;
    }
    bits
}

impl Space {
    /// The bits of `program`'s constants, or why the BDD backend cannot take it (an int
    /// constant, or more bits than [`MAX_VARS`] allows).
    pub(super) fn new(program: &Program) -> Result<Space, String> {
        let mut kinds = Vec::with_capacity(program.constants.len());
        for c in &program.constants {
            kinds.push(match c.ty {
                Ty::Bool => Kind::Bool,
                Ty::Enum(e) => Kind::Enum(program.enums.get(e.0).map_or(0, |d| d.variants.len())),
                Ty::Int => {
                    return Err(format!(
                        "the BDD backend handles only bool and enum constants, and `{}` is an int",
                        c.name
                    ));
                }
            });
        }
        let widths: Vec<usize> = kinds
            .iter()
            .map(|k| match k {
                Kind::Bool => 1,
                Kind::Enum(n) => bits_for(*n),
            })
            .collect();
        let total: usize = widths.iter().sum();
        if 2 * total > MAX_VARS {
            return Err(format!(
                "the story has {total} bits of constants, more than the BDD backend handles ({})",
                MAX_VARS / 2
            ));
        }
        let set = Diagrams::new(2 * total);
        let mut bits = vec![Vec::new(); widths.len()];
        let mut next = 0;
        for c in crate::bdd::order::order(program) {
            let w = widths[c];
            bits[c] = (next..next + w)
                .map(|i| BddVariable::from_index(2 * i))
                .collect();
            next += w;
        }
        let all_bits = (0..total).map(|i| BddVariable::from_index(2 * i)).collect();
        let declared_bits = bits.iter().flatten().copied().collect();
        let mut space = Space {
            domain: set.mk_true(),
            set,
            kinds,
            bits,
            all_bits,
            declared_bits,
        };
        space.domain = space.make_domain();
        Ok(space)
    }

    fn make_domain(&self) -> Bdd {
        let mut domain = self.mk_true();
        for (c, kind) in self.kinds.iter().enumerate() {
            if let Kind::Enum(_) = kind {
                domain = domain.and(&self.enum_partition(c).support(&self.mk_false()));
            }
        }
        domain
    }

    pub(super) fn mk_true(&self) -> Bdd {
        self.set.mk_true()
    }

    pub(super) fn mk_false(&self) -> Bdd {
        self.set.mk_false()
    }

    pub(super) fn mk_bool(&self, value: bool) -> Bdd {
        if value {
            self.mk_true()
        } else {
            self.mk_false()
        }
    }

    pub(super) fn domain(&self) -> &Bdd {
        &self.domain
    }

    pub(super) fn kind(&self, constant: usize) -> Option<Kind> {
        self.kinds.get(constant).copied()
    }

    /// The bit of a bool constant.
    pub(super) fn bool_constant(&self, constant: usize) -> Option<Bdd> {
        match (self.kind(constant)?, self.bits[constant].as_slice()) {
            (Kind::Bool, [bit]) => Some(self.set.mk_var(*bit)),
            _ => None,
        }
    }

    /// An enum constant as a partition: each variant's index with the bits that hold it.
    pub(super) fn enum_partition(&self, constant: usize) -> Partition {
        let k = match self.kind(constant) {
            Some(Kind::Enum(k)) => k,
            _ => 0,
        };
        let bits = &self.bits[constant];
        let cells = (0..k).map(|v| {
            let mut cube = self.mk_true();
            for (i, bit) in bits.iter().enumerate() {
                let set = (v >> (bits.len() - 1 - i)) & 1 == 1;
                cube = cube.and(&self.set.mk_literal(*bit, set));
            }
            (Integer::Small(v as i128), cube)
        });
        Partition::from_disjoint(cells.collect())
    }

    /// Every unprimed bit in declaration order (see [`Space::world`]).
    pub(super) fn declared_bits(&self) -> &[BddVariable] {
        &self.declared_bits
    }

    /// The bits of the given constants.
    pub(super) fn bits_of(&self, constants: &[usize]) -> Vec<BddVariable> {
        constants
            .iter()
            .flat_map(|c| self.bits[*c].iter().copied())
            .collect()
    }

    /// How many worlds `set` holds (its primed bits ignored); None when there are 2^100
    /// or more.
    pub(super) fn count(&self, set: &Bdd) -> Option<u128> {
        set.exists(&self.all_primed()).count(&self.all_bits)
    }

    /// `bits` marked in a table indexed by variable.
    pub(super) fn mark(&self, bits: &[BddVariable]) -> Vec<bool> {
        let mut marked = vec![false; 2 * self.all_bits.len()];
        for bit in bits {
            if let Some(m) = marked.get_mut(bit.to_index()) {
                *m = true;
            }
        }
        marked
    }

    /// The primed copies of `bits`.
    pub(super) fn primed(bits: &[BddVariable]) -> Vec<BddVariable> {
        bits.iter()
            .map(|b| BddVariable::from_index(b.to_index() + 1))
            .collect()
    }

    /// The conjunction of `bits`, to quantify them ([`Bdd::exists`]).
    pub(super) fn cube(&self, bits: &[BddVariable]) -> Bdd {
        self.set.cube(bits)
    }

    /// What `K_A` quantifies when A learned only constants: the `hidden` bits and every
    /// primed bit, that is every variable but the bits A sees (given as their negated
    /// cube: one node per bit seen, where the cube of the others would take a new node
    /// for nearly every variable, for each agent). κ tests no primed bit, so quantifying
    /// them changes nothing, but below the last bit A sees every variable is quantified,
    /// and the BDD package answers that by a search for one satisfying valuation.
    pub(super) fn hidden_cube(&self, hidden: &[BddVariable]) -> Bdd {
        // Every variable but the bits A sees: the negated cube of those.
        let hidden = self.mark(hidden);
        let seen: Vec<BddVariable> = (self.all_bits.iter())
            .filter(|b| !hidden[b.to_index()])
            .copied()
            .collect();
        self.cube(&seen).not()
    }

    /// The unprimed bits `hidden` does not mark (what an agent sees), in variable order.
    pub(super) fn unhidden_bits(&self, hidden: &[bool]) -> Vec<BddVariable> {
        (self.all_bits.iter())
            .filter(|b| !hidden.get(b.to_index()).copied().unwrap_or(false))
            .copied()
            .collect()
    }

    /// The literal `var` (or its negation).
    pub(super) fn literal(&self, var: BddVariable, value: bool) -> Bdd {
        self.set.mk_literal(var, value)
    }

    /// Every primed bit, as a cube.
    pub(super) fn all_primed(&self) -> Bdd {
        self.cube(&Space::primed(&self.all_bits))
    }

    /// `bdd` with each of `bits` renamed to its primed copy. `bdd` must not mention primed
    /// bits: each sits right after its bit, so the renaming keeps the variable order.
    pub(super) fn prime(&self, bdd: &Bdd, bits: &[BddVariable]) -> Bdd {
        bdd.rename_to_next(&self.mark(bits))
    }

    /// A world as a valuation of every variable (primed copies false).
    pub(super) fn valuation(&self, world: &[Value]) -> BddValuation {
        let mut valuation = BddValuation::all_false(self.set.num_vars());
        for (c, value) in world.iter().enumerate() {
            let Some(bits) = self.bits.get(c) else {
                continue;
            };
            let n = match value {
                Value::Bool(b) => u64::from(*b),
                Value::Int(i) => u64::try_from(*i).unwrap_or(0),
            };
            for (i, bit) in bits.iter().enumerate() {
                valuation.set_value(*bit, (n >> (bits.len() - 1 - i)) & 1 == 1);
            }
        }
        valuation
    }

    /// The world whose unprimed bits are `values` (in the order of
    /// [`Space::declared_bits`]).
    pub(super) fn world(&self, values: &[bool]) -> World {
        let mut at = 0;
        let mut world = Vec::with_capacity(self.kinds.len());
        for (kind, bits) in self.kinds.iter().zip(&self.bits) {
            let mut n: i64 = 0;
            for v in values.iter().skip(at).take(bits.len()) {
                n = 2 * n + i64::from(*v);
            }
            at += bits.len();
            world.push(match kind {
                Kind::Bool => Value::Bool(n == 1),
                Kind::Enum(_) => Value::Int(n),
            });
        }
        World(world)
    }

    /// The worlds whose enum constants all hold an index of at most `m` (every world when
    /// there is no enum constant; none when `m` is negative and there is one).
    pub(super) fn magnitude_at_most(&self, m: i64) -> Bdd {
        let mut within = self.mk_true();
        for (c, kind) in self.kinds.iter().enumerate() {
            if let Kind::Enum(_) = kind {
                let low = self
                    .enum_partition(c)
                    .cells()
                    .filter(|(v, _)| *v <= Integer::Small(m.into()))
                    .fold(self.mk_false(), |acc, (_, cell)| acc.or(cell));
                within = within.and(&low);
            }
        }
        within
    }

    /// The largest index an enum constant can hold (None: no enum constant).
    pub(super) fn max_magnitude(&self) -> Option<i64> {
        self.kinds
            .iter()
            .filter_map(|k| match k {
                Kind::Enum(n) => Some(*n as i64 - 1),
                Kind::Bool => None,
            })
            .max()
    }
}

#[cfg(test)]
mod tests {
    use super::bits_for;

    #[test]
    fn bits_cover_the_indices() {
        assert_eq!(bits_for(0), 0);
        assert_eq!(bits_for(1), 0);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(3), 2);
        assert_eq!(bits_for(4), 2);
        assert_eq!(bits_for(5), 3);
        assert_eq!(bits_for(9), 4);
    }
}
