# The gossip problem ("One Hundred Prisoners and a Light Bulb", chapter 3; Tijdeman
# 1971, Hajnal, Milner and Szemerédi 1972): n friends each know a secret of their own.
# In a telephone call two friends tell each other every secret they know. What is the
# least number of calls after which everyone knows every secret? For n >= 4: 2n - 4.
#
# The calls are planned by one who sees everything, so who knows what is a fact of the
# one world: heard[i * n + k] says that i knows k's secret.
const n = 4
characters Planner
bool heard[n * n]
announce all(i in 0..n, k in 0..n: heard[i * n + k] == (i == k))

for i in 0..n {
  for j in i + 1..n {
    action call[i, j] {
      talked then for k in 0..n {
        heard[i * n + k] := heard[i * n + k] or heard[j * n + k],
        heard[j * n + k] := heard[i * n + k] or heard[j * n + k]
      }
    }
  }
}

plan all(i in 0..n * n: heard[i]) max 2 * n

# Answer: 4 calls at n = 4 (call[0, 1], call[2, 3], call[0, 2], call[1, 3]), 6 at n = 5,
# 8 at n = 6.
