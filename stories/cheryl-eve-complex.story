# An Even More Complex Puzzle (Norvig, "When Cheryl Met Eve"), with the dates of the
# notebook's step-by-step analysis.
characters Albert, Bernard, Eve, Nobody
int month, day

# April 28, July 27, June 19, June 16, July 15,
# April 15, June 29, July 16, May 24, May 27
announce (month, day) in {
  (4, 28), (4, 15),
  (7, 27), (7, 15), (7, 16),
  (6, 19), (6, 16), (6, 29),
  (5, 24), (5, 27),
}

Albert learns month
Bernard learns day

# Eve peeks at the first letter of the month (A = 1, J = 10, M = 13) and the first
# digit of the day.
Eve learns if month in {3, 5} then 13 else if month == 4 then 1 else 10
Eve learns day / 10
checkpoint peeked

# Albert: "I don't know when Cheryl's birthday is, but I know that Bernard does not know either."
Albert: not knows_value(month, day) and knows(not knows_value(Bernard, month, day))

# Bernard: "At first I didn't know when Cheryl's birthday is, but I know now."
Bernard: not at(peeked, knows_value(month, day)) and knows_value(month, day)

# Albert: "I still don't know."
Albert: not knows_value(month, day)

# Eve: "I peeked and saw the first letter of the month and the first digit of the day.
# When I peeked, I didn't know Cheryl's birthday, but after listening to Albert and
# Bernard I do. And it's a good thing I peeked, because I couldn't have figured it out
# without peeking."
Eve: not at(peeked, knows_value(month, day)) and
     knows_value(month, day) and
     not knows_value(Nobody, month, day)

# Albert: "OK, now I know."
Albert: knows_value(month, day)

# Answer: July 27.
