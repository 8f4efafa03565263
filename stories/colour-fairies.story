# The Colour Fairies (Dennis Shasha; Martin Chlond's "O.R. with the Fairies").
#
# Five fairies drift through a nursery on five nights, and each is smitten with a single
# colour. Above each sleeping child hangs a little cluster of coloured stars, and when a
# visiting fairy finds her colour among a child's stars she leaves a pearl behind.
# Which colour does each fairy love?
# No characters: this is a plain constraint puzzle.

enum Colour { silver, sage, gold, rose, turquoise, ivory, violet, emerald, earth }

# Each of the five fairies loves one colour.
Colour Cloe, Ariana, Oliviana, Anya, Caroline

# The stars above each child, fixed for the week:
#   Tyler:  rose, turquoise, violet
#   Jordan: sage, ivory, violet
#   David:  sage, violet, emerald
# A visiting fairy leaves a child a pearl when her colour is among the child's stars.

# Night 1: Cloe, Anya and Caroline flew. Tyler woke to 1 pearl, Jordan to 1, David to 2.
announce (if Cloe in {rose, turquoise, violet} then 1 else 0) +
         (if Anya in {rose, turquoise, violet} then 1 else 0) +
         (if Caroline in {rose, turquoise, violet} then 1 else 0) == 1
announce (if Cloe in {sage, ivory, violet} then 1 else 0) +
         (if Anya in {sage, ivory, violet} then 1 else 0) +
         (if Caroline in {sage, ivory, violet} then 1 else 0) == 1
announce (if Cloe in {sage, violet, emerald} then 1 else 0) +
         (if Anya in {sage, violet, emerald} then 1 else 0) +
         (if Caroline in {sage, violet, emerald} then 1 else 0) == 2

# Night 2: Oliviana, Anya and Caroline flew. Tyler woke to 0 pearls, Jordan to 2, David to 2.
announce (if Oliviana in {rose, turquoise, violet} then 1 else 0) +
         (if Anya in {rose, turquoise, violet} then 1 else 0) +
         (if Caroline in {rose, turquoise, violet} then 1 else 0) == 0
announce (if Oliviana in {sage, ivory, violet} then 1 else 0) +
         (if Anya in {sage, ivory, violet} then 1 else 0) +
         (if Caroline in {sage, ivory, violet} then 1 else 0) == 2
announce (if Oliviana in {sage, violet, emerald} then 1 else 0) +
         (if Anya in {sage, violet, emerald} then 1 else 0) +
         (if Caroline in {sage, violet, emerald} then 1 else 0) == 2

# Night 3: Ariana, Anya and Caroline flew. Tyler woke to 0 pearls, Jordan to 1, David to 2.
announce (if Ariana in {rose, turquoise, violet} then 1 else 0) +
         (if Anya in {rose, turquoise, violet} then 1 else 0) +
         (if Caroline in {rose, turquoise, violet} then 1 else 0) == 0
announce (if Ariana in {sage, ivory, violet} then 1 else 0) +
         (if Anya in {sage, ivory, violet} then 1 else 0) +
         (if Caroline in {sage, ivory, violet} then 1 else 0) == 1
announce (if Ariana in {sage, violet, emerald} then 1 else 0) +
         (if Anya in {sage, violet, emerald} then 1 else 0) +
         (if Caroline in {sage, violet, emerald} then 1 else 0) == 2

# Night 4: Cloe, Ariana and Oliviana flew. Tyler woke to 1 pearl, Jordan to 1, David to 0.
announce (if Cloe in {rose, turquoise, violet} then 1 else 0) +
         (if Ariana in {rose, turquoise, violet} then 1 else 0) +
         (if Oliviana in {rose, turquoise, violet} then 1 else 0) == 1
announce (if Cloe in {sage, ivory, violet} then 1 else 0) +
         (if Ariana in {sage, ivory, violet} then 1 else 0) +
         (if Oliviana in {sage, ivory, violet} then 1 else 0) == 1
announce (if Cloe in {sage, violet, emerald} then 1 else 0) +
         (if Ariana in {sage, violet, emerald} then 1 else 0) +
         (if Oliviana in {sage, violet, emerald} then 1 else 0) == 0

# Night 5: Cloe, Oliviana and Anya flew. Tyler woke to 1 pearl, Jordan to 2, David to 1.
announce (if Cloe in {rose, turquoise, violet} then 1 else 0) +
         (if Oliviana in {rose, turquoise, violet} then 1 else 0) +
         (if Anya in {rose, turquoise, violet} then 1 else 0) == 1
announce (if Cloe in {sage, ivory, violet} then 1 else 0) +
         (if Oliviana in {sage, ivory, violet} then 1 else 0) +
         (if Anya in {sage, ivory, violet} then 1 else 0) == 2
announce (if Cloe in {sage, violet, emerald} then 1 else 0) +
         (if Oliviana in {sage, violet, emerald} then 1 else 0) +
         (if Anya in {sage, violet, emerald} then 1 else 0) == 1

# The pearls alone leave six readings: Cloe rose or turquoise, Ariana silver, gold or earth.
worlds

# Two facts close the puzzle:
# at least one fairy loves turquoise,
announce turquoise in {Cloe, Ariana, Oliviana, Anya, Caroline}
# and exactly one loves earth.
announce (if Cloe == earth then 1 else 0) + (if Ariana == earth then 1 else 0) +
         (if Oliviana == earth then 1 else 0) + (if Anya == earth then 1 else 0) +
         (if Caroline == earth then 1 else 0) == 1

worlds

# Answer: exactly one world. Cloe loves turquoise, Ariana earth, Oliviana ivory,
# Anya sage and Caroline emerald.
