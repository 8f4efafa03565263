# The Muddy Children and common knowledge (van Ditmarsch, van der Hoek and Kooi, Dynamic
# Epistemic Logic, §4.10; Fagin, Halpern, Moses and Vardi, Reasoning about Knowledge,
# Example 2.3).
#
# Before the father speaks, when at least two children are muddy, every child already
# knows that someone is muddy. What the father adds is that this becomes common
# knowledge: everyone knows that everyone knows that … someone is muddy.
const n = 3
const k = 2
characters child[n]
bool muddy[n]

# The children 0 .. k-1 are muddy.
actual all(i in 0..n: muddy[i] == (i < k))

# Each child sees every other child.
for i in 0..n {
  for j in 0..n {
    if i != j { child[i] learns muddy[j] }
  }
}

# Wherever at least two children are muddy, everyone knows that someone is;
check count(i in 0..n: muddy[i]) >= 2 -> everyone_knows(any(i in 0..n: muddy[i]))
# but in no world is it common knowledge (the world where nobody is muddy is reachable:
# child 0 cannot tell muddy = 110 from 010, child 1 cannot tell 010 from 000).
check not common_knowledge(any(i in 0..n: muddy[i]))

# Father: "At least one of you is muddy."
announce any(i in 0..n: muddy[i])

# Now it is common knowledge in every world.
check common_knowledge(any(i in 0..n: muddy[i]))

# Pooling what they see, the children know everything: distributed knowledge.
check all(i in 0..n: distributed_knowledge(muddy[i]) or distributed_knowledge(not muddy[i]))

worlds
