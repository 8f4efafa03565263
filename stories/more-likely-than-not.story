# "I think it more likely than not": a probability said aloud, and what another learns
# from it. Anne and Bill each draw a number from 1 to 3, each as likely; each sees only
# their own. Anne says: "I think it more likely than not that our numbers add up to 4
# or more." That is true exactly when she drew 2 or 3 (with 1 only Bill's 3 would do).
characters Anne, Bill
int a, b
announce 1 <= a and a <= 3 and 1 <= b and b <= 3
Anne learns a
Bill learns b
actual a == 3 and b == 1

Anne: probability(a + b >= 4) > 1/2        # Anne's own probability (she is the speaker)

# Bill learns that a is 2 or 3. With his 1, the sum reaches 4 only if a is 3: even odds.
check actual knows(Bill, a >= 2)
check actual probability(Bill, a + b >= 4) == 1/2
show probability(Bill, a == 3)
# Bill, had he drawn 2 or 3, would now be sure.
check b >= 2 -> probability(Bill, a + b >= 4) == 1
worlds
