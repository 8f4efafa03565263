//! An independent evaluator for finite stories: explicit sets of worlds, no Z3.
