# The Dining Cryptographers (David Chaum, 1988; SMCDEL's Examples/DiningCrypto.hs),
# at most one paid, pairwise; a copy of stories/dining-cryptographers.story with the n x n check.
#
# n cryptographers have dinner around a round table. The waiter tells them the bill
# has been paid: by one of them, or by the NSA. They want to know whether one of them
# paid, without learning who.
const n = 200
# The one who paid (n: none of them, the NSA did).
const payer = 1
characters cryptographer[n]
bool paid[n], coin[n]

# At most one of them paid.
announce all(i in 0..n, j in i + 1..n: not (paid[i] and paid[j]))

# Each of them knows whether she paid. Each flips a coin that she and her right
# neighbour see: cryptographer i sees her own coin and her left neighbour's.
for i in 0..n {
  cryptographer[i] learns paid[i]
  cryptographer[i] learns coin[i]
  cryptographer[i] learns coin[(i + n - 1) % n]
}

# What happened: cryptographer `payer` paid, and the even-numbered coins fell heads.
actual all(i in 0..n: paid[i] == (i == payer) and coin[i] == (i % 2 == 0))

# Each says whether the two coins she sees differ, saying the opposite if she paid.
simultaneously {
  for i in 0..n {
    cryptographer[i] reveals (coin[i] != coin[(i + n - 1) % n]) != paid[i]
  }
}

# Now everyone knows whether one of them paid,
check all(i in 0..n: knows_value(cryptographer[i], any(j in 0..n: paid[j])))

# and a cryptographer who did not pay learns nothing about which of the others did:
# she knows that none of them paid, or she knows that one of the others did but not
# which. This is the property of the benchmark of MCMAS and SMCDEL (bench/diningcrypto.hs),
# stated, like theirs, for one cryptographer (the ring is symmetric: the same holds for
# each).
check not paid[0] ->
  knows(cryptographer[0], all(k in 0..n: not paid[k])) or
  (knows(cryptographer[0], any(k in 1..n: paid[k])) and
   all(k in 1..n: not knows(cryptographer[0], paid[k])))

# and no cryptographer who did not pay knows who did: asked of every pair.
check all(i in 0..n, j in 0..n if i != j: paid[j] -> not knows(cryptographer[i], paid[j]))

worlds 3
