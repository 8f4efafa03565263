# A private announcement to a group that the others suspect (an action model of Baltag,
# Moss and Solecki, 1998; van Ditmarsch, van der Hoek and Kooi, "Dynamic Epistemic
# Logic", 2007).
#
# Anne, Bob and Cath do not know whether p. In front of Cath, Anne and Bob are given a
# note; Cath knows that it says "p" or nothing at all, but she cannot read it. In fact
# it says "p".
characters Anne, Bob, Cath
bool p
actual p

event note {                               # Anne and Bob read the note.
  told if p                                # "p" (only if p is true)
  nothing                                  # a blank note
  Anne sees told | nothing
  Bob sees told | nothing                  # Cath cannot read it
  actual told
}

# Anne and Bob know p, and that is common knowledge between them.
check actual knows(Anne, p) and knows(Bob, p)
check actual common_knowledge(Anne, Bob, p)
# Cath does not know whether p, nor whether they know it,
check actual not knows_value(Cath, p)
check actual not knows_value(Cath, knows(Anne, p))
# but she knows that they did not learn that p is false,
check actual knows(Cath, not knows(Anne, not p) and not knows(Bob, not p))
# and they know that she does not know whether p.
check actual knows(Anne, not knows_value(Cath, p)) and knows(Bob, not knows_value(Cath, p))

worlds
