# Anne is told n % 1001 where n % 1000 == 1: by the Chinese remainder theorem she knows
# n % 1001000, so the answer would be every world (n = 1, 1001, 2001, … below 3000).
# Quantifier elimination does not end within seconds here: after the divisions'
# equations are solved, `n' % 1001000` in the conclusion stays a division of a bound
# term, and Z3's `qe2` splits on its residues. The timeout names whose knowledge and
# the divisions (issue 32, "messages that point at the cause").
characters Anne
int n
announce n >= 0 and n % 1000 == 1
Anne learns n % 1001
Anne: knows_value(n % 1001000)
announce n < 3000
worlds
