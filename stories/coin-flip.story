# The coin flip (SMCDEL's Examples/CoinFlip.hs).
#
# Everyone sees that a coin shows heads. It is flipped at random, and only b looks at
# how it lands; a knows that b looked. In fact it shows heads again.
characters a, b
bool heads                                 # the coin shows heads

announce heads                             # "The coin shows heads."
actual heads

event flip {                               # The coin is flipped.
  lands_heads then heads := true
  lands_tails then heads := false
  b sees lands_heads | lands_tails         # b looks; a does not
  actual lands_heads
}

# b knows that it shows heads; a does not know how it landed,
check actual knows(b, heads)
check actual not knows_value(a, heads)
# but a knows that b knows, and that is common knowledge.
check actual knows(a, knows_value(b, heads))
check actual common_knowledge(knows_value(b, heads))

worlds
