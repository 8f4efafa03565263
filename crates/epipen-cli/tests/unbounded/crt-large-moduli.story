# crt-hang.story with moduli 1000 and 1001 (issue 32). n is 1 more than a multiple of
# 1000; Anne is told n % 1001. By the Chinese remainder theorem she then knows n % 1001000,
# never n itself (infinitely many candidates): "I know n" is false everywhere, the answer
# is no worlds. Before the equations of the divisions were solved exactly (lattice.rs),
# quantifier elimination met the 1,001,000 residue classes and did not end within
# seconds (`qe2` > 15 s of CPU); now it answers in milliseconds.
characters Anne
int n
announce n >= 0 and n % 1000 == 1
Anne learns n % 1001
Anne: knows_value(n)
worlds
