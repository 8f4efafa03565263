# The card deal (van Ditmarsch, van der Hoek and Kooi, "Dynamic Epistemic Logic", 2007,
# the three cards of chapter 1). Three cards, 0, 1 and 2, are dealt to Ann, Bob and
# Cath, one each; each sees its own card only. In fact Ann holds 0, Bob 1 and Cath 2.
# Then Ann shows her card to Bob, with Cath watching: Cath sees that a card is shown,
# not which.
characters Ann, Bob, Cath
int ann, bob, cath
announce all(c in 0..3: ann == c or bob == c or cath == c)
  and 0 <= ann and ann < 3 and 0 <= bob and bob < 3 and 0 <= cath and cath < 3
Ann learns ann
Bob learns bob
Cath learns cath
actual ann == 0 and bob == 1 and cath == 2
checkpoint dealt

# Six deals; each of them knows its own card and that the others hold the two others.
check actual knows(Ann, not knows_value(Bob, ann))
check actual not knows_value(Cath, ann)

event showing {                    # Ann shows her card to Bob
  shows_0 if ann == 0
  shows_1 if ann == 1
  shows_2 if ann == 2
  Ann sees shows_0 | shows_1 | shows_2
  Bob sees shows_0 | shows_1 | shows_2
  actual shows_0
}

# Bob now knows the deal; Cath does not, but knows that Bob does.
check actual knows_value(Bob, ann, cath)
check actual not knows_value(Cath, ann)
check actual knows(Cath, knows_value(Bob, ann))
