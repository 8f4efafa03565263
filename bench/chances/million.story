# A million worlds, a thousand probabilities (docs/benchmarks.md, "Events, belief and scale"): three
# numbers from 0 to 99, weighted by the first; A knows the first. Each check asks A's
# probability of a different event over all 10^6 worlds.
const asks = 1000
characters A
int x, y, z
announce 0 <= x and x <= 99 and 0 <= y and y <= 99 and 0 <= z and z <= 99
prior x + 1
A learns x
actual x == 50 and y == 50 and z == 50
for i in 0..asks {
  check actual probability(A, y + z <= i % 199) <= 1
}
show probability(A, y + z <= 99)
