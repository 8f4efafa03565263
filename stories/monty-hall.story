# Monty Hall, the knowledge part, without probabilities (van Ditmarsch and Kooi, "One
# Hundred Prisoners and a Light Bulb", 2015, the chapter "Monty Hall").
#
# A car is behind one of three doors. The contestant picks door one. The host, who knows
# where the car is, opens another door that does not hide the car. In fact the car is
# behind door two. What does the contestant know afterwards?
enum Door { one, two, three }
characters Contestant, Host
Door car, pick

announce pick == one                       # "I pick door one."
Host learns car                            # The host knows where the car is.
actual car == two and pick == one

event host_opens {                         # "Let me open a door for you."
  opens_one if pick != one and car != one
  opens_two if pick != two and car != two
  opens_three if pick != three and car != three
  Contestant sees opens_one | opens_two | opens_three
  Host sees opens_one | opens_two | opens_three
}                                          # (here only door three can be opened)

# The contestant knows that the car is not behind door three, but not where it is:
check actual knows(Contestant, car != three)
check actual not knows_value(Contestant, car)
# nor whether switching wins; he knows that the host knows.
check actual not knows_value(Contestant, car == pick)
check actual knows(Contestant, knows_value(Host, car))

# Had the car been behind his own door, the host could have opened two or three: four
# histories are possible, two with the car behind door one.
worlds
