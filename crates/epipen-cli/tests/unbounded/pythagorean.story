# Pythagorean triples: Anne is told the hypotenuse m and asked whether she knows the
# legs. Not linear (`x * x`), and κ has infinitely many worlds (3, 4, 5; 6, 8, 10; …),
# so neither quantifier elimination nor the finite-domain route can take it: refused.
# The check "is any value beyond 64 bits?" of a non-linear κ ran without end (no
# `--timeout`: forever); each such check now has a budget, and an unknown closes the
# route (issue 32: never a hang).
characters Anne
int x, y, m
announce x >= 1 and y >= 1 and x <= y and x * x + y * y == m * m
Anne learns m
Anne: knows_value(x, y)
worlds 3
