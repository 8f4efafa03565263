# Knowing-whether gossip (SMCDEL's Examples/GossipKw.hs; van Ditmarsch, van Eijck,
# Pardo, Ramezanian and Schwarzentruber, "Epistemic protocols for dynamic gossip", 2017;
# Gattinger's thesis, 2018).
#
# n agents each know whether their own secret is true; in fact every secret is true.
# Two agents call each other and tell each other every secret either of them knows.
# The others hear that a call took place, but not between whom. A call sequence is a
# success when in the end every agent knows every secret.
#
#   epipen run stories/gossip.story                    # 12;34;13;24: a success
#   epipen run stories/gossip.story --set sequence=1   # 12;23;31: not a success
#   epipen run stories/gossip.story --set sequence=0 --set n=5   # every pair once
#
# (Agents are numbered from 0 here: SMCDEL's 12;34;13;24 is c[0, 1], c[2, 3], c[0, 2],
# c[1, 3].)
const n = 4
# 1: 12;23;31 and 2: 12;34;13;24, SMCDEL's two sequences for n = 4; 0: every pair calls
# once, in lexicographic order (01, 02, …, 0(n-1), 12, …).
const sequence = 2
const calls = if sequence == 1 then 3 else if sequence == 2 then 4 else n * (n - 1) / 2
characters P[n]
bool s[n]

actual all(i in 0..n: s[i])                    # every secret is true,
for i in 0..n { P[i] learns s[i] }             # and each agent knows its own.

for t in 0..calls {
  checkpoint before
  event call {                                 # "Someone is calling someone."
    for i in 0..n { for j in i + 1..n { c[i, j] } }
    for k in 0..n {                            # each agent knows whether it is in the call, and with whom
      P[k] sees each(i in 0..n, j in i + 1..n if i == k or j == k: c[i, j]) | others
    }
    if sequence == 1 {
      if t == 0 { actual c[0, 1] }             # 12
      if t == 1 { actual c[1, 2] }             # 23
      if t == 2 { actual c[0, 2] }             # 31
    } else if sequence == 2 {
      if t == 0 { actual c[0, 1] }             # 12
      if t == 1 { actual c[2, 3] }             # 34
      if t == 2 { actual c[0, 2] }             # 13
      if t == 3 { actual c[1, 3] }             # 24
    } else {                                   # the t-th pair in lexicographic order
      for i in 0..n { for j in i + 1..n {
        if t == i * n - i * (i + 1) / 2 + j - i - 1 { actual c[i, j] }
      } }
    }
  }
  # "Here is every secret I know." Each caller learns, for each secret, whether one of the
  # two knew it before the call (SMCDEL's secrets "exchanged as true").
  for i in 0..n { for j in i + 1..n { for k in 0..n {
    P[i] learns call == c[i, j] and at(before, knows(P[i], s[k]) or knows(P[j], s[k]))
    P[j] learns call == c[i, j] and at(before, knows(P[i], s[k]) or knows(P[j], s[k]))
  } } }
}

# Success: every agent knows every secret.
check actual all(i in 0..n, k in 0..n: knows(P[i], s[k]))
