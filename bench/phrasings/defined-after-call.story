# Issue 33, slow path 2 (docs/benchmarks.md, "Events, belief and scale"): definitional
# announcements after an event. `epipen --stats run bench/phrasings/defined-after-call.story --set n=5`
# One call between two of n agents; h[i * n + k]: agent i has secret k before the call,
# h[n * n + i * n + k] after it, defined from the call's outcome.
const n = 5
characters P[n]
bool h[2 * n * n]
announce all(i in 0..n, k in 0..n: h[i * n + k] == (i == k))
event call {
  for i in 0..n { for j in i + 1..n { c[i, j] } }
  for k in 0..n {
    P[k] sees each(i in 0..n, j in i + 1..n if i == k or j == k: c[i, j]) | others
  }
}
announce all(i in 0..n, k in 0..n: h[n * n + i * n + k] == (h[i * n + k] or any(j in i + 1..n: call == c[i, j] and h[j * n + k]) or any(j in 0..i: call == c[j, i] and h[j * n + k])))
check all(i in 0..n: knows(P[i], h[n * n + i * n + i]))
