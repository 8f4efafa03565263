# Consecutive numbers, searched (issue 41): Anne and Bill each hold a natural number,
# one more than the other; each sees only their own. Which sequence of truthful "I don't
# know your number"s makes Bill know Anne's? The numbers are unbounded: each state of
# the search is a formula over all the naturals, answered by Z3.
characters Anne, Bill
int A, B
announce A >= 0 and B >= 0 and (A == B + 1 or B == A + 1)
actual A == 3 and B == 2
Anne learns A
Bill learns B

action anne_dunno by Anne { said if not knows_value(Anne, B) }
action bill_dunno by Bill { said if not knows_value(Bill, A) }

plan knows_value(Bill, A) max 4
plan all knows_value(Bill, A) max 4

# Once Bill may also say "I know your number", Anne can come to know his.
action bill_knows by Bill { said if knows_value(Bill, A) }
plan knows_value(Anne, B) max 4

# Answer: bill_dunno, anne_dunno (Bill's "I don't know" rules out B = 0, after which
# Anne would know B if she held 1; her "I don't know" rules that out, and Bill, holding
# 2, knows A = 3), the only plan of two. Then bill_dunno, anne_dunno, bill_knows makes
# Anne know B = 2 (had Bill held 4 he would not know). A brute force over A, B < N
# finds the same plans for every N it tries (crates/epipen-fuzz/tests/agreement.rs).
