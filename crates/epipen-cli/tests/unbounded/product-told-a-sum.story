# As product-of-unbounded.story, but Anne is told a + m. With a + m = t, the worlds she
# cannot tell apart are a = 1, 2 or 3 with m = t - a >= 0, and b * m = 12 (t - 1),
# 6 (t - 2), 4 (t - 3) differ for every t >= 1: she knows b * m only when one world
# is left, t = 1: a = 1, b = 12, m = 0. (With m <= 50, t = 53 would leave a = 3,
# b = 4, m = 50 too: the bound is not in this story.)
characters Anne
int a, b, m
announce 1 <= a and a <= b and a * b == 12 and m >= 0
Anne learns a + m
Anne: knows_value(b * m)
worlds
