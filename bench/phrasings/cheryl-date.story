# Cheryl's Birthday (the EpiPEn paper, §4.1; Norvig's notebook), one int for the date, month and day computed;
# a copy of stories/cheryl.story.
#
# Albert and Bernard just met Cheryl. "When's your birthday?" Albert asked.
# Cheryl wrote down ten dates: "My birthday is one of these."
characters Albert, Bernard
int date

announce date in {515, 516, 519, 617, 618, 714, 716, 814, 815, 817}

# Cheryl whispered the month to Albert, and the day to Bernard.
Albert learns date / 100
Bernard learns date % 100
checkpoint whispered

# Albert: "I don't know when your birthday is, but I know Bernard doesn't know either."
Albert: not knows_value(date) and knows(not knows_value(Bernard, date))

# Bernard: "I didn't know originally, but now I do."
Bernard: not at(whispered, knows_value(date)) and knows_value(date)

# Albert: "Well, now I know too!"
Albert: knows_value(date)

# Answer: July 16.
