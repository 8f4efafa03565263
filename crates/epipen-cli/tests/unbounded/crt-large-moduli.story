# crt-hang.story with moduli 1000 and 1001 (issue 32): quantifier elimination meets
# residue classes modulo 1001000 and does not end within seconds; the timeout names
# where it was and what it was dividing. (The answer would be: no worlds, as in
# crt-hang.story.)
characters Anne
int n
announce n >= 0 and n % 1000 == 1
Anne learns n % 1001
Anne: knows_value(n)
worlds
