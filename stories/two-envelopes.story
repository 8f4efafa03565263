# Two envelopes, finite, with a prior (the paradox of "One Hundred Prisoners and a Light
# Bulb", chapter "Two envelopes", dissolved as in Christensen and Utts, "Bayesian
# resolution of the exchange paradox", 1992): one envelope holds x, the other 2x, with
# x one of 1, 2, 4, 8, 16, each half as likely as the one before. You get one envelope at
# random and open it: 8. Is the other more likely to hold 16?
characters You
int x
bool small                                 # yours is the one with x
announce x in {1, 2, 4, 8, 16}
prior 32 / x                               # 32, 16, 8, 4, 2: halving
def mine = if small then x else 2 * x
def other = if small then 2 * x else x
You learns mine
actual x == 4 and not small                # you hold 8

# No: with this prior 16 is half as likely as 4, so the other holds 16 with chance 1/3,
# and switching gains nothing on average (1/3 · 16 + 2/3 · 4 = 8).
check actual probability(You, other > mine) == 1/3
show probability(You, other == 16)
# Holding 1, the other envelope surely holds more; holding 32, surely less.
check mine == 1 -> probability(You, other > mine) == 1
check mine == 32 -> probability(You, other < mine) == 1
