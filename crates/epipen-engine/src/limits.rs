//! The thresholds and budgets the backend choice ([`crate::choice`]) weighs, and that
//! the explicit backend works within: a module of its own that both read.

/// Bool and enum stories with more worlds than this go to the BDD backend by default
/// (the colour fairies' 9^5 worlds: 9.0 ms listed, 6.4 ms on BDDs, whole processes).
pub(crate) const AUTO_MAX_FINITE_TYPES: u128 = 1 << 12;
/// Auto leaves a story with events to the BDD backend when the listed worlds times each
/// event's cases exceed this (gossip's every pair at n = 4, 16 × 6⁶ = 746 496, stays
/// with explicit worlds in 7 s; the prisoners at n = 5, 1 × 10⁸, take 0.9 s there and
/// 0.03 s on BDDs).
pub(crate) const AUTO_MAX_EVENT_WORLDS: u128 = 1 << 22;

/// How much the explicit backend may list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Size {
    /// Chosen automatically: up to 40 million worlds, 2 million search nodes, 2^25
    /// units of work (a few seconds); a story whose worlds cost more goes to Z3.
    Auto,
    /// Asked for by name: up to 100 million worlds and 50 million search nodes.
    Forced,
    /// Tried first for a story the BDD backend would take: at most 2^14 worlds, found
    /// within 2^14 search nodes and 2^17 units of work (expression nodes looked at: a
    /// measure that does not depend on the machine's load, so the choice is the same on
    /// every run; zebra: 10.7 ms explicit, 36.8 ms on BDDs; planetfall 10.9 and 16.2 ms,
    /// CPU of whole processes).
    Small,
}

/// What the explicit backend may spend listing the worlds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    pub max_worlds: usize,
    pub max_nodes: usize,
    pub max_work: usize,
}

impl Size {
    pub(crate) fn budget(self) -> Budget {
        let (max_worlds, max_nodes, max_work) = match self {
            Size::Auto => (40_000_000, 2_000_000, 1 << 25),
            Size::Forced => (100_000_000, 50_000_000, usize::MAX),
            Size::Small => (1 << 14, 1 << 14, 1 << 17),
        };
        Budget {
            max_worlds,
            max_nodes,
            max_work,
        }
    }
}
