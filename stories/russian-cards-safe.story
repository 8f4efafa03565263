# The Russian Cards: which announcements are safe? (SMCDEL's Examples/RussianCards.hs,
# checkSet and safeHandLists; van Ditmarsch, "The Russian cards problem", 2003.)
#
# From a pack of seven cards 0 .. 6, Alice and Bob draw three each and Cath the last:
# Alice holds 012, Bob 345, Cath 6. Alice says "my hand is one of these", a list of
# hands; then Bob says "Cath has 6". A list is safe when, after Alice's announcement,
# Bob knows her hand, and Alice and Bob commonly know that he does; it is common
# knowledge that Cath knows, of no card but her own, who holds it; and after Bob's
# announcement Alice and Bob commonly know each other's hands, while Cath's ignorance
# stays common knowledge. SMCDEL tries every list of 5, 6 or 7 hands, any two sharing at
# most one card: 1290 lists (allHandLists). Alice can truthfully say only those with her
# own hand, 192 of them: each is an action of hers here (`--set every=1`: all 1290, as
# SMCDEL; the others are never possible, and the answer is the same).
#
# Run: epipen run stories/russian-cards-safe.story   (every backend: --backend bdd, z3)
# `--set two_steps=1` adds the two-step plan, Alice then Bob (a second on the explicit
# backend, the default; 4 s on BDDs, 45 s on Z3).
const every = 0
const two_steps = 0
enum Holder { alice, bob, cath }
characters Alice, Bob, Cath
Holder owner[7]

announce count(i in 0..7: owner[i] == alice) == 3 and count(i in 0..7: owner[i] == bob) == 3
actual all(i in 0..7: owner[i] == (if i < 3 then alice else if i < 6 then bob else cath))

# Each sees her or his own cards.
for i in 0..7 {
  Alice learns owner[i] == alice
  Bob learns owner[i] == bob
  Cath learns owner[i] == cath
}

# The 35 hands in increasing order: hand(k) is the one with k hands before it, written
# as its cards' digits (hand(0) = 12 is the hand 0, 1, 2; hand(34) = 456).
def hand(k) = sum(x in 0..7, y in x + 1..7, z in y + 1..7
  if count(u in 0..7, v in u + 1..7, w in v + 1..7: 100 * u + 10 * v + w < 100 * x + 10 * y + z) == k:
  100 * x + 10 * y + z)
# Card c is in hand k; hands i and j share at most one card; Alice holds hand k.
def has(k, c) = c == hand(k) / 100 or c == hand(k) / 10 % 10 or c == hand(k) % 10
def apart(i, j) = count(c in 0..7: has(i, c) and has(j, c)) <= 1
def holds(k) = all(c in 0..7 if has(k, c): owner[c] == alice)

# Bob knows Alice's hand (who holds each card), Alice knows Bob's, and Cath knows of no
# card but her own who holds it (SMCDEL's bKnowsAs, aKnowsBs and cIgnorant).
def bob_knows = all(c in 0..7: knows_value(Bob, owner[c]))
def alice_knows = all(c in 0..7: knows_value(Alice, owner[c]))
def cath_ignorant = all(c in 0..7: owner[c] != cath -> not knows_value(Cath, owner[c]))

# Alice's announcements: "my hand is one of these" for each list of 5, 6 or 7 hands in
# increasing order, any two sharing at most one card (an `if` prunes a list that breaks
# this before it grows). The lists with Alice's hand 012 (hand 0) start with it.
for h1 in 0..(if every == 1 then 35 else 1) {
  for h2 in h1 + 1..35 { if apart(h1, h2) {
    for h3 in h2 + 1..35 { if all(k in {h1, h2}: apart(k, h3)) {
      for h4 in h3 + 1..35 { if all(k in {h1, h2, h3}: apart(k, h4)) {
        for h5 in h4 + 1..35 { if all(k in {h1, h2, h3, h4}: apart(k, h5)) {
          action say[hand(h1), hand(h2), hand(h3), hand(h4), hand(h5)] by Alice {
            said if knows(Alice, any(k in {h1, h2, h3, h4, h5}: holds(k)))
          }
          for h6 in h5 + 1..35 { if all(k in {h1, h2, h3, h4, h5}: apart(k, h6)) {
            action say[hand(h1), hand(h2), hand(h3), hand(h4), hand(h5), hand(h6)] by Alice {
              said if knows(Alice, any(k in {h1, h2, h3, h4, h5, h6}: holds(k)))
            }
            for h7 in h6 + 1..35 { if all(k in {h1, h2, h3, h4, h5, h6}: apart(k, h7)) {
              action say[hand(h1), hand(h2), hand(h3), hand(h4), hand(h5), hand(h6), hand(h7)] by Alice {
                said if knows(Alice, any(k in {h1, h2, h3, h4, h5, h6, h7}: holds(k)))
              }
            } }
          } }
        } }
      } }
    } }
  } }
}

# The safe lists: one announcement of Alice's, after which (checkSet) Bob knows her hand
# in common knowledge with her, Cath's ignorance is common knowledge, and so it stays
# after Bob's "Cath has 6", when Alice and Bob commonly know each other's hands.
def bob_says = knows(Bob, owner[6] == cath)
def both_know = common_knowledge(Alice, Bob, alice_knows and bob_knows)
plan all bob_knows and common_knowledge(Alice, Bob, bob_knows) and common_knowledge(cath_ignorant)
  and [! bob_says] (both_know and common_knowledge(cath_ignorant)) max 1

# Bob's announcements: "Cath has c".
for c in 0..7 {
  action cath_has[c] by Bob { said if knows(Bob, owner[c] == cath) }
}

# The two-step plan (SMCDEL's rcSolutionsViaPlanning): announcements after which Alice
# and Bob know each other's hands, Bob knowing Alice's and Cath ignorant after each.
if two_steps == 1 {
  plan alice_knows and bob_knows max 2 keeping bob_knows and cath_ignorant
}

# Answer (SMCDEL's tests: "there are 102 safe hands"): 102 plans of 1 action, the safe
# lists in SMCDEL's order (its safeHandLists, sorted), from say[12, 34, 56, 135, 146,
# 236] to say[12, 56, 146, 236, 345]: 60 of five hands, 36 of six and 6 of seven, among
# them the classic say[12, 34, 56, 135, 146, 236, 245].
#
# With `--set two_steps=1` (Alice then Bob): plan of 2 actions: say[12, 34, 56, 135,
# 146], cath_has[6]. SMCDEL's (head rcSolutionsViaPlanning) searches other lists: 012
# with any four more hands, in order, two of which may share two cards. Its tests say
# only that it is rcSolutions' first; worked out from its definitions (SMCDEL itself not
# run), that is Alice's "012, 013, 014, 015 or 234", then "Carol has 6".
