# Consecutive Numbers, then a public change (the EpiPEn paper's §4.2 puzzle, continued).
#
# Anne and Bill hear: "Given are two natural numbers. They are consecutive numbers.
# I am going to whisper one of these numbers to Anne and the other number to Bill."
characters Anne, Bill
int A, B

announce A >= 0 and B >= 0 and (A == B + 1 or B == A + 1)
Anne learns A
Bill learns B

Anne: not knows_value(B)
Bill: not knows_value(A)
Anne: knows_value(B)
Bill: knows_value(A)

# Two situations are left: A = 1, B = 2 and A = 2, B = 3.
worlds

# The storyteller, aloud: "I add one to Anne's number."
A := A + 1

# Now the numbers are equal. Bill knew Anne's number, so he knows the new one; Anne
# knew hers, so she knows it too, though nobody told her the new value.
check A == B
check knows_value(Bill, A) and knows_value(Anne, A)

# The storyteller whispers Anne's new number to Bill: he learns nothing new.
Bill learns A

worlds

# Answer: A = 2, B = 2 (A was 1) or A = 3, B = 3 (A was 2).
