# Cheryl's Age (NTU / SASMO, May 2015), the sequel to Cheryl's Birthday.
#
# Albert and Bernard now want to know how old Cheryl is.
characters Albert, Bernard
int cheryl, b1, b2

# Cheryl: "I have two younger brothers. The product of all our ages (i.e. my age and
# the ages of my two brothers) is 144, assuming that we use whole numbers for our ages."
# (b1 is the younger brother, or a twin: b1 <= b2.)
announce 1 <= b1 and b1 <= b2 and b2 < cheryl and cheryl * b1 * b2 == 144

# Albert: "We still don't know your age. What other hints can you give us?"
Albert: not knows_value(cheryl)

# Cheryl: "The sum of all our ages is the bus number of this bus that we are on."
Albert learns cheryl + b1 + b2
Bernard learns cheryl + b1 + b2

# Bernard: "Of course we know the bus number, but we still don't know your age."
Bernard: not knows_value(cheryl)

# Cheryl: "Oh, I forgot to tell you that my brothers have the same age."
announce b1 == b2

# Albert and Bernard: "Oh, now we know your age."
Albert: knows_value(cheryl)
Bernard: knows_value(cheryl)

# Answer: Cheryl is 9, her brothers 4 and 4. (The bus is number 17: 9 + 4 + 4, or
# 8 + 6 + 3; the twins rule out 8.)
