# The Muddy Children, with a peek.
#
# As in stories/muddy-children.story, n children play outside and k of them get mud on
# their foreheads; each sees the others' foreheads, not its own. Before the father
# speaks, child 0 looks at herself in a puddle; the others do not see her do it and do
# not suspect it. They believe she knows no more than they do, and they are wrong; she
# knows they believe it. When the father asks who knows, she alone steps forward, in
# the first round: the others learn that she peeked, their belief revised by what they
# see. And her peek spoils the game: her answers no longer tell them anything, so the
# other muddy children never find out.
const n = 6
const k = 3                                    # at least 3: see the checks below
characters child[n]
bool muddy[n]

# The children 0 .. k-1 are the muddy ones (the actual world, not announced).
actual all(i in 0..n: muddy[i] == (i < k))

# Each child sees every other child.
for i in 0..n {
  for j in 0..n {
    if i != j { child[i] learns muddy[j] }
  }
}

event peek {                                   # Child 0 looks into a puddle:
  saw_mud if muddy[0]                          #   "There's mud on my forehead!"
  saw_none if not muddy[0]                     #   (or: "I'm clean.")
  nothing                                      #   (or she does not look)
  child[0] sees saw_mud | saw_none | nothing   # She sees what she sees;
  for i in 1..n { child[i] expects nothing }   # the others suspect nothing.
  actual saw_mud
}

# Father: "At least one of you is muddy."
announce any(i in 0..n: muddy[i])

# Child 0 knows she is muddy; every other child believes she does not know whether she
# is, without knowing it; and she knows they believe it. (Each other child, muddy or
# not, knows that child 0 sees mud on someone else, so that the father told her
# nothing: that takes k >= 3. With k = 2, muddy child 1 thinks he may be clean, and
# then child 0 would see no mud and know.)
check actual knows(child[0], muddy[0])
check actual all(i in 1..n: believes(child[i], not knows_value(child[0], muddy[0])))
check actual all(i in 1..n: not knows(child[i], not knows_value(child[0], muddy[0])))
check actual all(i in 1..n: knows(child[0], believes(child[i], not knows_value(child[0], muddy[0]))))

# Father: "If you know whether you are muddy, step forward." Round 1: child 0 steps
# forward, alone.
simultaneously {
  for i in 0..n { child[i] reveals knows_value(muddy[i]) }
}
# Now every other child knows that she peeked.
check actual all(i in 1..n: knows(child[i], peek != nothing))

# The father asks again, n - 2 more times: only child 0 ever steps forward.
for round in 2..n {
  simultaneously {
    for i in 0..n { child[i] reveals knows_value(muddy[i]) }
  }
}
check actual all(i in 1..n: not knows_value(child[i], muddy[i]))

worlds 3
# Answer: child 0 steps forward in every round, the others never; after round 1 the
# others know she peeked. Without the peek (stories/muddy-children.story) the k muddy
# children step forward in round k.
