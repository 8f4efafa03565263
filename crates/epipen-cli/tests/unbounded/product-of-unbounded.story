# A product of a bounded constant (b: a * b == 12 bounds a and b) and an unbounded one
# (m): Anne's knowledge of `b * m` quantifies b' * m', non-linear in the unbounded m,
# so quantifier elimination cannot take it, and the worlds are infinitely many: the
# refusal names the product and m.
characters Anne
int a, b, m
announce 1 <= a and a <= b and a * b == 12 and m >= 0
Anne learns a
Anne: knows_value(b * m)
