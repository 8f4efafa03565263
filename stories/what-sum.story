# What Sum (Gerbrandy's version, as in SMCDEL's Examples/WhatSum.hs and van Ditmarsch,
# Ruan and Verbrugge's "Sum and Product in dynamic epistemic logic").
#
# Three numbers between 1 and B are written on the foreheads of Amy, Bill and Cath; one
# of them is the sum of the other two. Each sees the other two foreheads, not their own.
characters Amy, Bill, Cath
const B = 10
int x, y, z

announce 1 <= x and x <= B and 1 <= y and y <= B and 1 <= z and z <= B
announce x == y + z or y == x + z or z == x + y

# Each sees the two numbers on the others' foreheads.
Amy learns y
Amy learns z
Bill learns x
Bill learns z
Cath learns x
Cath learns y

# Amy: "I don't know my number." Then Bill: "I don't know mine." Then Cath: "Nor I."
Amy: not knows_value(x)
Bill: not knows_value(y)
Cath: not knows_value(z)

# Answer at B = 10: two situations are left, x = 1, y = 3 and z = 2 or z = 4. SMCDEL's counts at B = 10, 20, 30, 40, 50 are 2, 36, 100, 198, 330.
