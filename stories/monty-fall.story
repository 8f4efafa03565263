# Monty Fall (Rosenthal, "Monty Hall, Monty Fall, Monty Crawl", Math Horizons, 2008):
# the host slips and falls against one of the two doors the contestant did not pick, at
# random; it opens, and happens to hide a goat. Now switching wins only half the time.
enum Door { one, two, three }
characters Contestant
Door car, pick

announce pick == one
actual car == two

event fall {                               # he does not know where the car is:
  falls_on_two if pick != two              # either other door, with chance 1/2
  falls_on_three if pick != three
  falls_on_one if pick != one
  Contestant sees falls_on_one | falls_on_two | falls_on_three
  actual falls_on_three
}
announce car != three                      # door three hides a goat

check actual probability(Contestant, car == pick) == 1/2
show probability(Contestant, car == two)
worlds
