# The Coordinated Attack (Gray 1978; Halpern and Moses, "Knowledge and common knowledge
# in a distributed environment", 1990).
#
# Two generals, A and B, attack together or not at all. A sends B a messenger: "attack
# at dawn". B sends one back to acknowledge, A acknowledges the acknowledgement, and so
# on; any messenger may be caught, and then no more are sent. The hidden constant m is
# how many messengers got through (the proposal is message 1, B's acknowledgement 2, …).
const N = 8
characters A, B
int m
announce m >= 0 and m <= N

# A counts the acknowledgements it received (the even messages), B the messages from A
# (the odd ones).
A learns m / 2
B learns (m + 1) / 2

# Once the proposal got through, B knows it; once B's acknowledgement got through, both
# know it; each further message adds one more "everyone knows".
check m >= 1 -> knows(B, m >= 1)
check m >= 2 -> everyone_knows(m >= 1)
check m >= 3 -> everyone_knows(everyone_knows(m >= 1))

# But however many messengers got through, the proposal is never common knowledge:
# each general considers possible that its last messenger was caught.
check not common_knowledge(m >= 1)

worlds
