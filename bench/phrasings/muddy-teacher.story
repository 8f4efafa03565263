# The Muddy Children (the EpiPEn paper, §4.3; van Ditmarsch and Kooi), as a teacher might write it: "I know whether
# I am muddy" as knowing that I am or knowing that I am not, the father's words and the
# end with count (issue 42's phrasing cliff); a copy of stories/muddy-children.story.
#
# Imagine a large family of n children. Exactly k become muddy while playing outside.
# A child can see which other children are muddy, but not if he or she is muddy.
const n = 40
const k = 40
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

# Father says that at least one of them is muddy,
announce count(i in 0..n: muddy[i]) >= 1

# and then says, "In a moment I will clap my hands. If you know whether you are
# muddy, please step forward." He repeats this request over and over again, until
# all children have stepped forward. The children step forward (or not) at once.
repeat max n + 1 {
  checkpoint round_start
  simultaneously {
    for i in 0..n {
      child[i] reveals (knows(muddy[i]) or knows(not muddy[i]))
    }
  }
} until count(i in 0..n: at(round_start, (knows(child[i], muddy[i]) or knows(child[i], not muddy[i])))) == n

worlds

# Answer: nobody steps forward in rounds 1 and 2; in round 3 (= k) the three muddy
# children step forward; in round 4 (= k + 1) everyone does. One world is left:
# muddy[0], muddy[1], muddy[2] true, the others false.
