# Three logicians walk into a bar. The bartender asks: "Does everyone want a drink?"
characters logician[3]
bool wants[3]

# Each logician knows whether she herself wants a drink.
for i in 0..3 {
  logician[i] learns wants[i]
}

# The first: "I don't know."
logician[0]: not knows_value(wants[0] and wants[1] and wants[2])
# The second: "I don't know."
logician[1]: not knows_value(wants[0] and wants[1] and wants[2])
# The third: "Yes!"
logician[2]: knows(all(i in 0..3: wants[i]))

worlds

# Answer: all three want a drink (wants[0], wants[1] and wants[2] are all true).
# Each "I don't know" says that the speaker wants one: had she not, she would know
# the answer is no.
