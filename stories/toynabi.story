# Toynabi, a toy Hanabi (SMCDEL's Examples/Toynabi.hs; cooperative planning with
# implicit coordination, Engesser, Bolander, Mattmüller and Nebel 2017).
#
# The cards 0 .. cards - 1 are dealt to the players, each holding them in its positions;
# every player sees the others' cards, not its own. A player can tell another which card
# is at one of that player's positions (out loud: everyone hears it), or play one of its
# own positions: that succeeds only when the card there is the one to be played next.
# The players win when every card has been played, in order. Here 2 players and 3 cards,
# dealt in order: player 0 holds 0 and 1, player 1 holds 2 (and an empty position).
# (SMCDEL numbers the players from 1, cards and positions from 0.)
#
# Two plans: one where each player knows, when its turn comes, that its own step can be
# done (SMCDEL's findSequentialIcPlanBFS); and an implicitly coordinated one, where it
# also knows that the rest of the plan then wins (SMCDEL's icSolves).
#
# Run: epipen run stories/toynabi.story   (every backend; --set cards=4, players=3)
const players = 2
const cards = 3
const positions = (cards + players - 1) / players    # each player's positions
const slots = players * positions
characters P[players]

# The card at each position (player i's position p is slot i * positions + p; -1: none),
# and the card to be played next (all played: cards).
int slot[slots], next
announce next == 0 and all(s in 0..slots: slot[s] in -1..cards)
  and all(c in 0..cards: count(s in 0..slots: slot[s] == c) == 1)
  and all(s in cards..slots: slot[s] == -1)
actual all(s in 0..slots: slot[s] == (if s < cards then s else -1))

# Each sees the others' cards.
for i in 0..players {
  for s in 0..slots {
    if s / positions != i { P[i] learns slot[s] }
  }
}

# i tells j that the card at j's position p is c (i sees it).
for i in 0..players {
  for j in 0..players {
    if i != j {
      for c in 0..cards {
        for p in 0..positions {
          action tell[i, j, c, p] by P[i] if knows(P[i], slot[j * positions + p] == c) {
            told if slot[j * positions + p] == c
          }
        }
      }
    }
  }
}
# i plays its position p: the card there must be the next one, and i must know it.
for i in 0..players {
  for p in 0..positions {
    action play[i, p] by P[i] if knows(P[i], slot[i * positions + p] == next) {
      played if slot[i * positions + p] == next then slot[i * positions + p] := -1, next := next + 1
    }
  }
}

plan next == cards max 2 * cards
plan next == cards max 2 * cards coordinated

# Answers: both plans of 4 actions: tell[1, 0, 0, 0], play[0, 0], play[0, 1], play[1, 0].
# Player 1 tells player 0 where card 0 is (so card 1 is in the other position), player 0
# plays both, then player 1 plays 2, which it knew it held (its other position is empty).
#
# SMCDEL states no answer (no test of Toynabi). Its example, exampleResult, takes 2
# players and 4 cards (`--set cards=4`) and updates with "tell 1 card 0 @ 0" (by player
# 2), "1 plays position 0", "1 plays position 1": player 0's half of the first plan
# here, which is of 6 actions: tell[0, 1, 2, 0], tell[1, 0, 0, 0], play[0, 0], play[0,
# 1], play[1, 0], play[1, 1].
# Implicitly coordinated there is none ("no plan of at most 8 actions", exit code 1):
# each player must be told where its cards are, and whoever acts first cannot know that
# the telling about its own cards can be done. With a third player who holds nothing
# (`--set players=3 --set cards=4`) there is one, of 6 actions: tell[2, 0, 0, 0],
# tell[0, 1, 2, 0], play[0, 0], play[0, 1], play[1, 0], play[1, 1].
