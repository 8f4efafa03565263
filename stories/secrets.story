# Secrets: n friends, each told her own exam result in private.
#
# While the others are out, a letter reaches each friend in turn with her result. Nobody
# sees anyone else's letter arrive, and nobody suspects it: each friend believes the
# others have heard nothing yet, and so believes she alone knows anything. They are all
# wrong about each other, and each knows what the others believe about her.
const n = 4
characters friend[n]
bool passed[n]                                 # friend i passed her exam
actual all(i in 0..n: passed[i] == (i % 2 == 0))

for i in 0..n {
  event letter {                               # A letter reaches friend i:
    pass if passed[i]                          #   "You passed."
    fail if not passed[i]                      #   "You failed."
    nothing                                    #   (or no letter came yet)
    friend[i] sees pass | fail | nothing       # She reads it;
    for j in 0..n {                            # the others, out, take it that no
      if j != i { friend[j] expects nothing }  # letter came.
    }
    if i % 2 == 0 { actual pass } else { actual fail }
  }
}

# Each knows her own result, and nobody else's.
check actual all(i in 0..n: knows_value(friend[i], passed[i]))
check actual all(i in 0..n, j in 0..n if i != j: not knows_value(friend[j], passed[i]))
# Each believes the others do not know their results: false, but not known to be.
check actual all(i in 0..n, j in 0..n if i != j:
  believes(friend[j], not knows_value(friend[i], passed[i]))
  and not knows(friend[j], not knows_value(friend[i], passed[i])))
# Each knows that the others believe she does not know hers.
check actual all(i in 0..n, j in 0..n if i != j:
  knows(friend[i], believes(friend[j], not knows_value(friend[i], passed[i]))))

worlds 2
# Answer: every check holds. The first worlds in the canonical order: everyone passed
# and was told so, or everyone failed and was told so; more exist (each letter came or
# not).
