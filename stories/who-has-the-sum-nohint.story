# Who Has the Sum? (the EpiPEn paper, §4.4; van Ditmarsch and Kooi), without the
# simplification hint of who-has-the-sum.story: the engine must simplify on its own.
#
# Anne, Bill, and Cath all have a positive integer on their forehead. They can only
# see the foreheads of others. One of the numbers is the sum of the other two. All the
# previous is common knowledge.
characters Anne, Bill, Cath
int A, B, C

announce A > 0 and B > 0 and C > 0 and (A == B + C or B == A + C or C == A + B)
Anne learns B
Anne learns C
Bill learns A
Bill learns C
Cath learns A
Cath learns B

# They now successively make the truthful announcements:

# Anne: "I don't know my number."
Anne: not knows_value(A)
# Bill: "I don't know my number."
Bill: not knows_value(B)
# Cath: "I don't know my number."
Cath: not knows_value(C)
# Anne: "I know my number. It is 50."
Anne: A == 50

# What are the other numbers?
worlds

# Answer: exactly one world, A = 50, B = 20, C = 30.
