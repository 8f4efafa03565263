# Monty Hall (van Ditmarsch and Kooi, "One Hundred Prisoners and a Light Bulb", 2015,
# the chapter "Monty Hall"; the chances as in van Benthem, Gerbrandy and Kooi, "Dynamic
# update with probabilities", 2009).
#
# A car is behind one of three doors, each as likely. The contestant picks door one. The
# host, who knows where the car is, opens another door that does not hide the car,
# choosing at random when he can open two. In fact the car is behind door two, and the
# host opens door three. Should the contestant switch?
enum Door { one, two, three }
characters Contestant, Host
Door car, pick

announce pick == one                       # "I pick door one."
Host learns car                            # The host knows where the car is.
actual car == two                          # (one world among those still possible)

event host_opens {                         # "Let me open a door for you."
  opens_one if pick != one and car != one
  opens_two if pick != two and car != two
  opens_three if pick != three and car != three
  Contestant sees opens_one | opens_two | opens_three
  Host sees opens_one | opens_two | opens_three
  actual opens_three
}

# The contestant knows that the car is not behind door three, but not where it is:
check actual knows(Contestant, car != three)
check actual not knows_value(Contestant, car)
check actual knows(Contestant, knows_value(Host, car))
# Yet he can say how likely each door is: his own door 1/3, the other closed door 2/3.
check actual probability(Contestant, car == pick) == 1/3
check actual probability(Contestant, car == two) == 2/3
show probability(Contestant, car == two)
# So he thinks it more likely than not that switching wins.
check actual probability(Contestant, car != pick) > 1/2

# Had the car been behind his own door, the host could have opened two or three, each
# with chance 1/2: four histories are possible, with their probabilities.
worlds
