# Muddy planning (SMCDEL's Examples/MuddyPlanning.hs): an offline search for public
# announcements, under a safety constraint.
#
# Three children, 0 and 1 muddy. Which announcements make child 0 know whether it is
# muddy, while child 1 never learns whether it is? The father may say "at least one of
# you is muddy"; and it may be announced of any child that it does not know whether it
# is muddy.
const n = 3
const k = 2
characters child[n]
bool muddy[n]
actual all(i in 0..n: muddy[i] == (i < k))
for i in 0..n { for j in 0..n { if i != j { child[i] learns muddy[j] } } }

action father { said if any(i in 0..n: muddy[i]) }
for i in 0..n {
  action silent[i] { said if not knows_value(child[i], muddy[i]) }
}

plan knows_value(child[0], muddy[0]) max 5 keeping not knows_value(child[1], muddy[1])
plan all knows_value(child[0], muddy[0]) max 5 keeping not knows_value(child[1], muddy[1])

# Answer (SMCDEL: [father, ¬Kw 2] and, of three steps, [father, ¬Kw 3, ¬Kw 2]; its
# children are numbered from 1): the shortest plan is father, silent[1].
