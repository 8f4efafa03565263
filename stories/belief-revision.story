# Belief revision: the butler did it, or so Watson thought.
#
# Lord Edgware is found dead; the butler, the gardener or the cook did it. Holmes has
# seen the tell-tale mud and knows who it was. Watson has only his hunches: the cook was
# heard singing in the kitchen all evening, so probably not her; and everyone knows it
# is always the butler. Each hunch is soft information (`Watson expects φ`): it orders
# what he finds plausible without ruling anything out. When the butler's alibi turns
# out to be solid, Watson's belief is not left empty: it falls back, by itself, on the
# next most plausible suspect.
characters Holmes, Watson
enum Suspect { butler, gardener, cook }
Suspect culprit
actual culprit == cook

Holmes learns culprit                          # Holmes: "The mud on the boots, Watson."

Watson expects culprit != cook                 # "The cook was singing all evening."
Watson expects culprit == butler               # "It is always the butler."
# Watson's order now: butler, then gardener, then cook.
check believes(Watson, culprit == butler)
check not knows(Watson, culprit == butler)     # a belief, not knowledge
check actual knows(Holmes, believes(Watson, culprit == butler))
checkpoint hunches

announce culprit != butler                     # The butler's alibi holds.
# Watson's belief is revised to the next most plausible worlds: the gardener, not the
# cook, though nothing was said about either.
check believes(Watson, culprit == gardener)
check not believes(Watson, culprit == cook)
check at(hunches, believes(Watson, culprit == butler))
check actual knows(Holmes, believes(Watson, culprit == gardener))
# Holmes, who knows, holds no false belief: belief follows knowledge.
check actual believes(Holmes, culprit == cook)

announce culprit != gardener                   # The gardener was in town all night.
check knows(Watson, culprit == cook)           # Only the cook is left: now he knows.
check believes(Watson, culprit == cook)

worlds
# Answer: Watson believes the butler did it, then the gardener, and knows at last it
# was the cook (the one world left).
