# Sally and Anne, with Sally spying (Hintikka's World, "Sally and Ann": eight actions).
#
# Sally puts her marble into the basket and goes out. This time, she peeks through the
# window; Anne does not suspect it. Anne moves the marble into her box, believing Sally
# will be fooled, as in the classical test (stories/sally-anne.story). Sally comes back
# and looks into the box: it is Anne who held a false belief, about Sally's belief.
#
# Hintikka's World offers eight actions. Here they are events (or public changes),
# whichever of them fits the situation:
#   1. Sally goes out                        here := false
#   2. Sally comes in (and stops spying)     here, spy := true, false
#   3. Sally starts spying, unsuspected      event start_spying
#   4. Sally stops spying, unsuspected       event stop_spying
#   5. Sally puts the marble into the basket marble := basket
#   6, 7, 8. Anne moves the marble into her box, while Sally is in the room (6), out
#      and not spying (7), or out and spying (8): the cases of event transfer.
# `--set spying=0`: Sally does not spy, and it is the classical test.
const spying = 1
characters Sally, Anne
enum Place { hand, basket, box }
Place marble                                   # where the marble is
bool here, spy                                 # Sally is in the room; Sally spies

announce marble == hand and here and not spy   # Sally holds her marble, in the room.
actual marble == hand and here and not spy

marble := basket                               # 5. "I put my marble into my basket."
here := false                                  # 1. "I'm going out for a walk."

event start_spying {                           # 3. Sally peeks through the window,
  start if not here and not spy then spy := true
  nothing
  Sally sees start | nothing
  Anne expects nothing                         #    which Anne does not suspect.
  if spying == 1 { actual start } else { actual nothing }
}

event transfer {                               # 6, 7, 8. Anne: "I'll put it into my box."
  watched if marble == basket and (here or spy) then marble := box
  unwatched if marble == basket and not here and not spy then marble := box
  nothing                                      #    (or Anne leaves the marble alone)
  Anne sees watched, unwatched | nothing       # Anne knows what she did, not who saw it;
  Sally sees watched | unwatched, nothing      # Sally sees it if she is watching;
  Sally expects nothing > unwatched            # if not, she takes it that nothing happened.
  if spying == 1 { actual watched } else { actual unwatched }
}

if spying == 1 {
  # Sally saw it all; Anne believes Sally was fooled, as in the classical test.
  check actual knows(Sally, marble == box)
  check actual believes(Anne, not spy)
  check actual believes(Anne, believes(Sally, marble == basket))
  # Anne's belief about Sally's belief is false, and Sally knows Anne holds it.
  check actual not believes(Sally, marble == basket)
  check actual knows(Sally, believes(Anne, believes(Sally, marble == basket)))
  # Anne does not know it: for all she knows, Sally was at the window.
  check actual not knows(Anne, believes(Sally, marble == basket))
}

event stop_spying {                            # 4. Sally leaves the window, unsuspected.
  stop if not here and spy then spy := false
  nothing
  Sally sees stop | nothing
  Anne expects nothing
  if spying == 1 { actual stop } else { actual nothing }
}
here, spy := true, false                       # 2. Sally comes back: "Hi! I'm home."

# Where will Sally look for her marble?
if spying == 1 {
  # In the box: she knows where it is.
  check actual knows(Sally, marble == box)
  # Anne believes she will look into the basket, and Sally knows Anne believes it.
  check actual believes(Anne, believes(Sally, marble == basket))
  check actual knows(Sally, believes(Anne, believes(Sally, marble == basket)))
} else {
  # In the basket: she believes it is there, without knowing it (the classical test).
  check actual believes(Sally, marble == basket) and not knows_value(Sally, marble)
  # Anne believes so, but now she cannot know it: for all she knows, Sally was spying.
  check actual believes(Anne, believes(Sally, marble == basket))
  check actual not knows(Anne, believes(Sally, marble == basket))
}

worlds
# Answer (spying = 1): every check holds; Sally knows the marble is in the box, and Anne
# wrongly believes that Sally believes it is in the basket.
