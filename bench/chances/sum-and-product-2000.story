# stories/sum-and-product.story at x + y <= 2000 (docs/benchmarks.md, "Events, belief
# and scale": beside sum-and-product-2000-prior.story).
# Sum and Product (Freudenthal, 1969; as told in the EpiPEn paper, §4.5, after
# van Ditmarsch and Kooi).
#
# A says to S and P: I have chosen two integers x, y with 1 < x < y and x + y <= 2000.
# In a moment I will inform S of their sum s = x + y, and I will inform P of their
# product p = xy. These announcements will remain secret. You are required to make an
# effort to determine the numbers x and y.
characters S, P
int x, y

announce 1 < x and x < y and x + y <= 2000

# He does as announced.
S learns x + y
P learns x * y
checkpoint informed

# The following conversation now takes place:
# P says: "I don't know the numbers."
P: not knows_value(x, y)
# S says: "I knew you didn't know the numbers." (S knew it when informed, before P
# spoke. Read after P's words, knows(not knows_value(P, x, y)) would hold everywhere,
# add nothing, and the dialogue would end with no worlds at all.)
S: at(informed, knows(not knows_value(P, x, y)))
# P says: "Now I know the numbers."
P: knows_value(x, y)
# S says: "Now I also know the numbers."
S: knows_value(x, y)

worlds

# Answer: exactly one world, x = 4 and y = 13.
