# ages-large-bound.story without any bound on the father's age m: the census-taker
# puzzle over the naturals. a, b, c are bounded by their product (each at most 2450),
# so the Z3 route lists their 20 triples (a * b * c == 2450 becomes the linear
# `(a, b, c) in {…}`) and the friend's knowledge is the conjunction over them; m stays
# symbolic. The friend knows the sum and m: the sum alone does not tell the ages, so
# it is 64 ((5, 10, 49) and (7, 7, 50), the one sum two triples share); "the eldest is
# younger than m" then tells them only if 49 < m <= 50: (a, b, c, m) = (5, 10, 49, 50).
characters Friend
int a, b, c, m

announce 1 <= a and a <= b and b <= c and a * b * c == 2450 and m >= 0
Friend learns a + b + c
Friend learns m

Friend: not knows_value(a, b, c)
announce c < m
Friend: knows_value(a, b, c)

worlds
