# Cheryl's Birthday (the EpiPEn paper, §4.1; Norvig's notebook), the dates as a disjunction;
# a copy of stories/cheryl.story.
#
# Albert and Bernard just met Cheryl. "When's your birthday?" Albert asked.
# Cheryl wrote down ten dates: "My birthday is one of these."
characters Albert, Bernard
int month, day

announce (month == 5 and day == 15)
  or (month == 5 and day == 16)
  or (month == 5 and day == 19)
  or (month == 6 and day == 17)
  or (month == 6 and day == 18)
  or (month == 7 and day == 14)
  or (month == 7 and day == 16)
  or (month == 8 and day == 14)
  or (month == 8 and day == 15)
  or (month == 8 and day == 17)

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
