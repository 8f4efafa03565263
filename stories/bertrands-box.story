# Bertrand's box paradox (Bertrand, "Calcul des probabilités", 1889): three boxes, one
# with two gold coins, one with two silver coins, one with one of each. You pick a box
# at random and draw one of its coins at random: it is gold. The other coin in the box
# is gold with probability 2/3, not 1/2.
enum Contents { gold_gold, silver_silver, gold_silver }
characters You
Contents box
actual box == gold_gold

event draw {                               # each coin of the box as likely
  gold if box != silver_silver weight (if box == gold_gold then 2 else 1)
  silver if box != gold_gold weight (if box == silver_silver then 2 else 1)
  You sees gold | silver
  actual gold
}

check actual probability(You, box == gold_gold) == 2/3
show probability(You, box == gold_gold)
worlds
