# The Sally-Anne test (Baron-Cohen, Leslie and Frith 1985; SMCDEL's SallyAnne).
#
# Sally has a marble. She puts it into her basket and goes out for a walk. While she is
# away, Anne takes the marble out of the basket and puts it into her box. Sally comes
# back. Where will Sally look for her marble? A child who passes the test answers "in
# the basket": Sally does not know where the marble is, but she believes it is where
# she left it. Knowledge (what Sally cannot be wrong about) and belief (what she takes
# to be the case) come apart.
characters Sally, Anne
enum Place { hand, basket, box }
Place marble                                   # where the marble is
bool here                                      # whether Sally is in the room

announce marble == hand and here               # Sally holds her marble, in the room.
actual marble == hand and here

marble := basket                               # Sally puts the marble into her basket,
here := false                                  # and goes out for a walk.

event move {                                   # While she is away, Anne may move it:
  moved if marble == basket then marble := box #   "I'll put it into my box."
  stayed                                       #   (or she leaves it where it is)
  Anne sees moved | stayed                     # Anne knows what she did;
  Sally expects stayed                         # Sally, away, takes it that nothing happened.
  actual moved
}

here := true                                   # Sally comes back.
checkpoint back                                # (`epipen graph --at back` draws this moment)

# Where is the marble? In the box, and Anne knows it.
check actual marble == box and knows(Anne, marble == box)
# Sally does not know where it is: for all she knows, Anne may have moved it...
check actual not knows_value(Sally, marble)
check actual not knows(Sally, marble == basket)
# ...but she believes it is in the basket, where she left it: she will look there.
check actual believes(Sally, marble == basket)
check actual believes_value(Sally, marble)
# Her belief is false (belief can be; knowledge cannot), and Anne knows that Sally
# believes it.
check actual believes(Sally, marble == basket) and marble != basket
check actual knows(Anne, believes(Sally, marble == basket))
check actual knows(Anne, not believes(Sally, marble == box))
# Anne believes that Sally believes the marble is in the basket; Sally, for her part,
# believes that Anne believes so too (she believes nothing happened, and she knows
# she put it there in front of Anne).
check actual believes(Anne, believes(Sally, marble == basket))
check actual believes(Sally, believes(Anne, marble == basket))
# Sally knows that she does not know: she knows the marble might have moved.
check actual knows(Sally, not knows_value(Sally, marble))

# Sally looks into the basket: it is empty. Her belief is revised by what she sees.
Sally learns marble == basket
check actual knows(Sally, marble == box)
check actual knows(Sally, move == moved)

# The storyteller still allows both worlds (what Sally saw is hers alone): the marble
# moved, or it stayed.
worlds
# Answer: Sally believes the marble is in the basket (every check holds); the worlds
# marble = box, move = moved (the actual one) and marble = basket, move = stayed.
