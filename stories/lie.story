# A lie.
#
# Alice ate the last piece of cake. Bob asks her whether any is left, and she says
# "Yes, there's some in the fridge." Bob takes her at her word: he does not know there
# is cake (he knows she could be lying), but he believes it. Carol, who watched Alice
# eat the last piece, knows the answer is a lie, and knows Bob believes it.
characters Alice, Bob, Carol
bool cake                                      # there is cake left
actual not cake

Alice learns cake                              # Alice knows: she ate it.

event says {                                   # Alice: "Yes, there's cake in the fridge."
  honest if cake                               #   the truth,
  lie if not cake                              #   or a lie.
  Alice sees honest | lie                      # Alice knows whether she lies;
  Carol sees honest | lie                      # so does Carol, who saw her eat it;
  Bob expects honest > lie                     # Bob takes it that Alice tells the truth.
  actual lie
}

# Bob believes there is cake, but does not know it.
check actual believes(Bob, cake) and not knows(Bob, cake)
check actual believes(Bob, says == honest)
# He also believes Alice and Carol know there is cake.
check actual believes(Bob, knows(Alice, cake) and knows(Carol, cake))
# Carol knows there is none, so she does not believe there is.
check actual knows(Carol, not cake) and not believes(Carol, cake)
# Carol and Alice know that Bob believes the lie.
check actual knows(Carol, believes(Bob, cake))
check actual knows(Alice, believes(Bob, cake))
# Whatever was said, Bob knows that Alice knows whether there is cake.
check knows(Bob, knows_value(Alice, cake))

Bob learns cake                                # Bob opens the fridge: it is empty.
check actual knows(Bob, not cake)              # Now he knows there is no cake,
check actual knows(Bob, says == lie)           # and that Alice lied.
check actual not believes(Bob, cake)

worlds
# Answer: every check holds: after the lie Bob believes there is cake (he does not know
# it); Carol, who saw the lie, does not. Two worlds are left for the storyteller: cake
# with the truth, or no cake with a lie.
