# Six rolls of a die, each face as likely (no weights: the story speaks of no chances);
# dice-weighted.story is the same with a loaded die (face f weighs f) and a prior. The
# two measure what weights cost the explicit backend (docs/benchmarks.md).
const rolls = 6
characters A, B
int total
announce total == 0
for r in 0..rolls {
  event roll {
    for f in 1..7 { face[f] then total := total + f }
    A sees each(f in 1..7: face[f])
    B sees others
  }
}
check knows(A, total >= rolls)
check not knows_value(B, total)
worlds 3
