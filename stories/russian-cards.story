# The Russian Cards (Moscow Math Olympiad 2000; van Ditmarsch, "The Russian cards
# problem", Studia Logica 2003).
#
# From a pack of seven cards 0 .. 6, Alice and Bob each draw three and Cath gets the
# last one. Alice and Bob want to tell each other their hands by public announcements,
# without Cath learning who holds any card she does not hold herself.
const safe = 1
enum Holder { alice, bob, cath }
characters Alice, Bob, Cath
Holder owner[7]

announce count(i in 0..7: owner[i] == alice) == 3 and count(i in 0..7: owner[i] == bob) == 3
# Alice holds 012, Bob 345, Cath 6.
actual all(i in 0..7: owner[i] == (if i < 3 then alice else if i < 6 then bob else cath))

# Each sees her or his own cards.
for i in 0..7 {
  Alice learns owner[i] == alice
  Bob learns owner[i] == bob
  Cath learns owner[i] == cath
}

if safe == 1 {
  # Alice: "My hand is one of 012, 034, 056, 135, 146, 236, 245."
  Alice: (owner[0] == alice and owner[1] == alice and owner[2] == alice)
    or (owner[0] == alice and owner[3] == alice and owner[4] == alice)
    or (owner[0] == alice and owner[5] == alice and owner[6] == alice)
    or (owner[1] == alice and owner[3] == alice and owner[5] == alice)
    or (owner[1] == alice and owner[4] == alice and owner[6] == alice)
    or (owner[2] == alice and owner[3] == alice and owner[6] == alice)
    or (owner[2] == alice and owner[4] == alice and owner[5] == alice)
} else {
  # An unsafe announcement: "My hand is 012 or 134." (Cath, holding 6, learns that
  # Alice holds card 1.)
  Alice: (owner[0] == alice and owner[1] == alice and owner[2] == alice)
    or (owner[1] == alice and owner[3] == alice and owner[4] == alice)
}

# Bob now knows Alice's hand,
check all(i in 0..7: knows_value(Bob, owner[i]))
# and Cath knows the owner of no card she does not hold.
check all(i in 0..7: owner[i] != cath -> not knows_value(Cath, owner[i]))

# Bob: "Cath has card 6."
Bob: owner[6] == cath

# Alice now knows Bob's hand, and Cath still knows no card's owner but her own.
check all(i in 0..7: knows_value(Alice, owner[i]))
check all(i in 0..7: owner[i] != cath -> not knows_value(Cath, owner[i]))

worlds
