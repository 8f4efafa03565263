# Sum and Product, McCarthy's version ("Formalization of two puzzles involving
# knowledge", 1978/1987).
#
# Two numbers m and n are chosen such that 2 <= m <= n <= 99. Mr. S is told their sum
# and Mr. P is told their product.
characters S, P
int m, n

announce 2 <= m and m <= n and n <= 99
S learns m + n
P learns m * n
checkpoint told

# The following dialogue ensues:
# Mr. P: "I don't know the numbers."
P: not knows_value(m, n)
# Mr. S: "I knew you didn't know. I don't know either."
# (He knew it when told the sum, before P spoke.)
S: at(told, knows(not knows_value(P, m, n))) and not knows_value(m, n)
# Mr. P: "Now I know the numbers."
P: knows_value(m, n)
# Mr. S: "Now I know them too."
S: knows_value(m, n)

# In view of the above dialogue, what are the numbers?
worlds

# Answer: exactly one world, m = 4 and n = 13.
