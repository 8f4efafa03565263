# Common knowledge over the consecutive numbers whose iterates never settle and do not
# form a family that moves by fixed steps (the disjunct B > 2 * A keeps changing their
# shape): after 64 rounds, the promised error, not a guess and not a timeout.
characters Anne, Bill
int A, B
announce A >= 0 and B >= 0 and (A == B + 1 or B == A + 1)
Anne learns A
Bill learns B
announce common_knowledge(A + B >= 3 or B > 2 * A)
worlds 3
