# Letter passing (SMCDEL's Examples/LetterPassing.hs, letterLine): n agents in a line;
# agent 0 holds a letter for someone else and knows for whom. An agent can pass the
# letter to a neighbour, who then (privately) learns the addressee; everyone sees that
# it moved. The letter must reach its addressee by an implicitly coordinated plan.
const n = 3
characters P[n]
int at, to
announce at == 0 and 0 < to and to < n
actual to == n - 1
P[0] learns to

for i in 0..n {
  for j in 0..n {
    if i - j == 1 or j - i == 1 {
      action pass[i, j] by P[i] {
        # one case per addressee, that only the receiver tells apart
        for d in 1..n { addressed[d] if at == i and to == d then at := j }
        P[j] sees each(d in 1..n: addressed[d])
      }
    }
  }
}

plan at == to max 2 * n coordinated

# Answer (SMCDEL's IC plan for n = 3: "1:1->2; 2:2->3."): pass[0, 1], pass[1, 2].
