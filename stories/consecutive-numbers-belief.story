# Consecutive Numbers with a hunch: belief over an infinite domain.
#
# Anne and Bill hear: "Given are two natural numbers. They are consecutive numbers.
# I am going to whisper one of these numbers to Anne and the other number to Bill."
# Each takes it that the other's number is the larger one: a hunch, not knowledge. Their
# beliefs about each other's number are then exact values, true or false, while their
# knowledge is not; the dialogue of stories/consecutive-numbers.story overturns Bill's.
# No bound is given: only the Z3 backend runs this story.
characters Anne, Bill
int A, B

announce A >= 0 and B >= 0 and (A == B + 1 or B == A + 1)
Anne learns A                                  # Anne is whispered 2,
Bill learns B                                  # Bill is whispered 3.
actual A == 2 and B == 3

Anne expects B > A                             # "Surely he got the larger one."
Bill expects A > B                             # "Surely she got the larger one."

# In every world, each believes a value of the other's number, and knows it only when
# holding 0.
check believes(Anne, B == A + 1) and believes_value(Anne, B)
check believes(Bill, A == B + 1) and believes_value(Bill, A)
check knows_value(Anne, B) <-> A == 0
# Here Anne's belief is true, Bill's is false, and neither knows.
check actual believes(Anne, B == 3) and not knows_value(Anne, B)
check actual believes(Bill, A == 4) and not knows_value(Bill, A)
# Each knows what the other believes, as a function of the other's number.
check actual knows(Anne, believes(Bill, A == B + 1))

Anne: not knows_value(B)                       # "I don't know your number."
Bill: not knows_value(A)                       # "I don't know your number."
check actual believes(Bill, A == 4)            # Bill still believes she holds 4.
worlds 3                                       # infinitely many worlds are still possible

Anne: knows_value(B)                           # "I know your number."
# Anne holds 1 or 2: Bill, holding 3, now knows she holds 2. His belief was overturned
# by the announcement, and revised to what is left.
check actual knows(Bill, A == 2) and believes(Bill, A == 2)
check actual not believes(Bill, A == 4)
# Had Bill been whispered 2, his hunch (A = 3) would be overturned too: Anne holds 1.
check B == 2 -> knows(Bill, A == 1) and believes(Bill, A == 1)
Bill: knows_value(A)                           # "I know your number."

worlds
# Answer: A = 1, B = 2 or A = 2, B = 3, as without the hunches; Bill's belief that Anne
# holds 4 (here) is overturned by Anne's "I know your number".
