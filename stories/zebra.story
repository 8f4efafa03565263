# Einstein's Riddle (the "zebra puzzle"), as retold by Ted Ed.
#
# The world's rarest fish has been stolen from the city aquarium, and the police have
# followed the scent to a street of 5 identical looking houses all in a row. Which
# house has the fish?
#
# The houses are numbered 0 to 4 from the left: the first house is house 0, the center
# house is house 2, and "directly to the left of" house h is house h - 1.
# No characters: this is a plain constraint puzzle, solved by what is announced.

enum Nationality { dane, brit, swede, norwegian, german }
enum Colour { yellow, red, white, green, blue }
enum Animal { horse, cat, bird, fish, dog }
enum Beverage { water, tea, milk, coffee, root_beer }
enum Cigar { pall_mall, prince, blue_master, dunhill, blends }

# Each house has an owner of some nationality, walls of some colour, an animal, and
# an owner who drinks some beverage and smokes some kind of cigar.
Nationality owner[5]
Colour walls[5]
Animal animal[5]
Beverage drinks[5]
Cigar smokes[5]

# 1. Each house's owner is of a different nationality.
announce distinct(h in 0..5: owner[h])
# 2. The interior walls of each house are coloured differently.
announce distinct(h in 0..5: walls[h])
# 3. Each house contains a different animal.
announce distinct(h in 0..5: animal[h])
# 4. The owner of each house drinks a different beverage.
announce distinct(h in 0..5: drinks[h])
# 5. The owner of each house smokes a different kind of cigar.
announce distinct(h in 0..5: smokes[h])

# Clue 1. The Brit lives in the house with red walls.
announce any(h in 0..5: owner[h] == brit and walls[h] == red)
# Clue 2. The Swede has a dog.
announce any(h in 0..5: owner[h] == swede and animal[h] == dog)
# Clue 3. The Dane drinks tea.
announce any(h in 0..5: owner[h] == dane and drinks[h] == tea)
# Clue 4. The house with green walls is directly to the left of the house with white walls.
announce any(h in 0..4: walls[h] == green and walls[h + 1] == white)
# Clue 5. The owner of the house with green walls drinks coffee.
announce any(h in 0..5: walls[h] == green and drinks[h] == coffee)
# Clue 6. The person who smokes Pall Mall cigars owns a bird.
announce any(h in 0..5: smokes[h] == pall_mall and animal[h] == bird)
# Clue 7. The owner of the house with yellow walls smokes Dunhill.
announce any(h in 0..5: walls[h] == yellow and smokes[h] == dunhill)
# Clue 8. The man living in the center house drinks milk.
announce drinks[2] == milk
# Clue 9. The Norwegian lives in the first house.
announce owner[0] == norwegian
# Clue 10. The man who smokes blends lives next to the cat owner.
announce any(h in 0..5, g in 0..5 if abs(h - g) == 1: smokes[h] == blends and animal[g] == cat)
# Clue 11. The horse's owner lives next to the man who smokes Dunhill.
announce any(h in 0..5, g in 0..5 if abs(h - g) == 1: animal[h] == horse and smokes[g] == dunhill)
# Clue 12. The man who smokes Blue Master drinks root beer.
announce any(h in 0..5: smokes[h] == blue_master and drinks[h] == root_beer)
# Clue 13. The German smokes Prince.
announce any(h in 0..5: owner[h] == german and smokes[h] == prince)
# Clue 14. The Norwegian lives next to the house with blue walls.
announce any(h in 0..5, g in 0..5 if abs(h - g) == 1: owner[h] == norwegian and walls[g] == blue)
# Clue 15. The man who smokes Blends lives next to the man who drinks water.
announce any(h in 0..5, g in 0..5 if abs(h - g) == 1: smokes[h] == blends and drinks[g] == water)

worlds

# Answer: exactly one world. The German has the fish, in house 3 (the fourth house):
#   house 0: Norwegian, yellow, cat,   water,     Dunhill
#   house 1: Dane,      blue,   horse, tea,       Blends
#   house 2: Brit,      red,    bird,  milk,      Pall Mall
#   house 3: German,    green,  fish,  coffee,    Prince
#   house 4: Swede,     white,  dog,   root beer, Blue Master
