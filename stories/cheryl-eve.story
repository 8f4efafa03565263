# A New Puzzle: Enter Eve (Norvig, "When Cheryl Met Eve"), with the dates the
# notebook's pick_dates found for it.
characters Albert, Bernard, Eve, Nobody
int month, day

# April 17, July 26, July 28, June 15, June 16, June 26,
# March 28, March 29, May 17, May 28
announce (month, day) in {
  (4, 17),
  (7, 26), (7, 28),
  (6, 15), (6, 16), (6, 26),
  (3, 28), (3, 29),
  (5, 17), (5, 28),
}

# Cheryl shows the month to Albert, and the day to Bernard.
Albert learns month
Bernard learns day

# Eve peeked and saw the first letter of the month (as its place in the alphabet:
# March and May give M = 13, April A = 1, June and July J = 10) and the first digit of the day.
Eve learns if month in {3, 5} then 13 else if month == 4 then 1 else 10
Eve learns day / 10
checkpoint peeked

# Albert: "I don't know when Cheryl's birthday is, but I know that Bernard does not know either."
Albert: not knows_value(month, day) and knows(not knows_value(Bernard, month, day))

# Bernard: "At first I didn't know when Cheryl's birthday is, but I know now."
Bernard: not at(peeked, knows_value(month, day)) and knows_value(month, day)

# Albert: "Then I also know when Cheryl's birthday is."
Albert: knows_value(month, day)

# Eve: "When I peeked, I didn't know Cheryl's birthday, but after listening to Albert
# and Bernard I do. And it's a good thing I peeked, because I couldn't have figured it
# out without peeking."
Eve: not at(peeked, knows_value(month, day)) and
     knows_value(month, day) and
     not knows_value(Nobody, month, day)

# Answer: July 26.
