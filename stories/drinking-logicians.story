# The Drinking Logicians for n (SMCDEL's Examples/DrinkLogic.hs; the three-logicians
# joke of spikedmath.com/445 told with n logicians).
#
# n logicians walk into a bar. The bartender asks: "Does everyone want a drink?"
const n = 3
characters logician[n]
bool wants[n]
# The bartender's question, named once: each answer below mentions it, so the story
# unrolls into n rounds instead of n * n (n = 1000 stays within the unrolling budget).
bool everyone
announce everyone == all(j in 0..n: wants[j])

# Each logician knows whether she herself wants a drink.
for i in 0..n {
  logician[i] learns wants[i]
}

# All but the last, in turn: "I don't know."
for i in 0..n - 1 {
  logician[i]: not knows_value(everyone)
}
# The last: "Yes!"
logician[n - 1]: knows(everyone)

worlds

# Answer: they all want a drink (wants[i] and everyone are true): one world is left.
# Each "I don't know" says that the speaker wants one (had she not, she would know the
# answer is no), so the last logician knows that the others all do.
