# "My first example" (Hintikka's World): a private announcement the other does not
# suspect.
#
# There is a basket; a (on the left) and b (on the right) do not know whether it holds
# a marble, and both know that neither knows. Then a is told, in private, that there
# is a marble in the basket; b does not suspect a thing. Knowledge alone cannot say
# what b makes of it: b does not know that a was not told (it might have happened), but
# b believes it, and a knows that b believes it.
characters a, b
bool marble                                    # the basket holds a marble
actual marble

check not knows_value(a, marble) and not knows_value(b, marble)
check common_knowledge(not knows_value(a, marble) and not knows_value(b, marble))

event whisper {                                # Someone whispers to a:
  told if marble                               #   "There is a marble in the basket."
  nothing                                      #   (or nothing happens)
  a sees told | nothing                        # a hears it;
  b expects nothing                            # b, who hears nothing, suspects nothing.
  actual told
}

check actual knows(a, marble)                  # a knows there is a marble,
check actual not knows_value(b, marble)        # b still does not know whether there is.
# b believes nothing happened, so b believes that a does not know either...
check actual believes(b, not knows_value(a, marble))
# ...though b does not know it: a might have been told.
check actual not knows(b, not knows_value(a, marble))
# b's belief about a is false, and a knows b holds it.
check actual knows(a, believes(b, not knows_value(a, marble)))
# b has no belief about the marble itself: he believes the basket is as it was.
check actual not believes(b, marble) and not believes(b, not marble)

announce marble                                # "There is a marble in the basket!"
check actual common_knowledge(marble)          # Now everyone knows, and knows it,
check actual knows(b, knows(a, marble))        # and b's belief about a is gone:
check actual not believes(b, not knows_value(a, marble))

worlds
# Answer: every check holds; two worlds are left, both with marble = true: whisper =
# told or nothing, since b never learns whether a was told first.
