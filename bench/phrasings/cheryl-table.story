# Cheryl's Birthday (the EpiPEn paper, §4.1; Norvig's notebook), the dates as a table;
# a copy of stories/cheryl.story.
#
# Albert and Bernard just met Cheryl. "When's your birthday?" Albert asked.
# Cheryl wrote down ten dates: "My birthday is one of these."
characters Albert, Bernard
int month, day

announce (month, day) in {
  (5, 15), (5, 16), (5, 19),
  (6, 17), (6, 18),
  (7, 14), (7, 16),
  (8, 14), (8, 15), (8, 17),
}

# Cheryl whispered the month to Albert, and the day to Bernard.
Albert learns month
Bernard learns day
checkpoint whispered

# Albert: "I don't know when your birthday is, but I know Bernard doesn't know either."
Albert: not knows_value(month, day) and knows(not knows_value(Bernard, month, day))

# Bernard: "I didn't know originally, but now I do."
Bernard: not at(whispered, knows_value(month, day)) and knows_value(month, day)

# Albert: "Well, now I know too!"
Albert: knows_value(month, day)

# Answer: July 16.
