# Consecutive Numbers (the EpiPEn paper, §4.2; van Ditmarsch and Kooi).
#
# Anne and Bill hear: "Given are two natural numbers. They are consecutive numbers.
# I am going to whisper one of these numbers to Anne and the other number to Bill."
characters Anne, Bill
int A, B

announce A >= 0 and B >= 0 and (A == B + 1 or B == A + 1)
Anne learns A
Bill learns B

# Anne: "I don't know your number."
Anne: not knows_value(B)
# Bill: "I don't know your number."
Bill: not knows_value(A)

# Infinitely many worlds are still possible here.
worlds 3

# Anne: "I know your number."
Anne: knows_value(B)
# Bill: "I know your number."
Bill: knows_value(A)

worlds

# Answer: A = 1, B = 2 or A = 2, B = 3: one of the numbers is surely 2.
