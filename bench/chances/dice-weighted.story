# Seven rolls of a loaded die (face f weighs f), with a prior: dice.story with weights;
# dice-weighted.story is the same with a loaded die (face f weighs f) and a prior. The
# two measure what weights cost the explicit backend (docs/benchmarks.md). A sees every
# roll; B sees only whether it was a six.
const rolls = 7
characters A, B
bool loaded
announce loaded
prior 1
for r in 0..rolls {
  event roll {
    for f in 1..7 { face[f] weight f }
    A sees each(f in 1..7: face[f])
    B sees face[6] | others
  }
}
check knows(A, roll == face[6] or roll != face[6])
check not knows_value(B, roll) or roll == face[6]
worlds 3
