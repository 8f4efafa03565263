# Boy or girl (Gardner, Scientific American, 1959; Bar-Hillel and Falk, "Some teasers
# concerning conditional probabilities", Cognition, 1982; the Tuesday boy: Foshee, 2010).
# Mr Smith has two children, each a boy or a girl with chance 1/2, each born on one of
# the seven days of the week, each as likely.
enum Sex { boy, girl }
Sex elder, younger
int elder_day, younger_day                 # 0 Monday, 1 Tuesday, … 6 Sunday
announce elder_day in 0..7 and younger_day in 0..7

def boys = elder == boy and younger == boy
def tuesday_boy = (elder == boy and elder_day == 1) or (younger == boy and younger_day == 1)

# Conditional probabilities, exactly, before anything is announced:
# "at least one is a boy": both are boys with probability 1/3;
show probability(boys) / probability(elder == boy or younger == boy)
# "the elder is a boy": 1/2;
show probability(boys) / probability(elder == boy)
# "one is a boy born on a Tuesday": 13/27.
show probability(boys and tuesday_boy) / probability(tuesday_boy)

# Announced, it is the same: conditioning on what is announced (Bayes).
announce tuesday_boy
check probability(boys) == 13/27
show probability(boys)
