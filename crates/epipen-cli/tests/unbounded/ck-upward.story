# Over the consecutive numbers from A + B = 7 upwards, every world is linked only to
# worlds with a larger sum or the same: A + B >= 3 is common knowledge everywhere, and
# the check fails (in the world where the sum is smallest).
characters Anne, Bill
int A, B
announce A >= 0 and B >= 0 and (A == B + 1 or B == A + 1)
Anne learns A
Bill learns B
announce A + B >= 7
check not common_knowledge(A + B >= 3)
