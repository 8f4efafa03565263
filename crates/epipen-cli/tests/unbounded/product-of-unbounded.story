# A product of a bounded constant (b: a * b == 12 bounds a and b) and an unbounded one
# (m): Anne's knowledge of `b * m` quantifies b' * m'; with b' listed each case is
# `k * m' == b * m`, still a product of the free b and m. Split on the free b's listed
# values too, each case is linear (docs/encoding.md, "Bounded beside unbounded"). Anne
# learned a, hence b, but not m, and b >= 4: she never knows b * m.
characters Anne
int a, b, m
announce 1 <= a and a <= b and a * b == 12 and m >= 0
Anne learns a
Anne: knows_value(b * m)
