# Cheryl's Birthday with Gabe Gaster's ten dates (Norvig, "When Cheryl Met Eve").
characters Albert, Bernard
int month, day

# January 15, January 4, July 13, July 24, July 30,
# March 13, March 24, May 11, May 17, May 30
announce (month, day) in {
  (1, 15), (1, 4),
  (7, 13), (7, 24), (7, 30),
  (3, 13), (3, 24),
  (5, 11), (5, 17), (5, 30),
}

Albert learns month
Bernard learns day
checkpoint whispered

# Albert: "I don't know when Cheryl's birthday is, but I know that Bernard does not know too."
Albert: not knows_value(month, day) and knows(not knows_value(Bernard, month, day))

# Bernard: "At first I don't know when Cheryl's birthday is, but I know now."
Bernard: not at(whispered, knows_value(month, day)) and knows_value(month, day)

# Albert: "Then I also know when Cheryl's birthday is."
Albert: knows_value(month, day)

# Answer: July 30.
