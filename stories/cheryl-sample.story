# Cheryl's Birthday with ten dates drawn at random, as in Norvig's notebook ("Creating
# Our Own Versions"): the candidates are March to July, days 15-19 and 25-29.
#
#   epipen worlds stories/cheryl-sample.story --seed 7      one sample (seed 0 without --seed)
#   epipen sweep stories/cheryl-sample.story --samples 10000 --seed 1
#                                           how many worlds samples leave (his `counter`)
characters Albert, Bernard
int month, day

# Cheryl wrote down ten of these dates: "My birthday is one of these."
announce (month, day) in sample(10, {
  (3, 15), (3, 16), (3, 17), (3, 18), (3, 19), (3, 25), (3, 26), (3, 27), (3, 28), (3, 29),
  (4, 15), (4, 16), (4, 17), (4, 18), (4, 19), (4, 25), (4, 26), (4, 27), (4, 28), (4, 29),
  (5, 15), (5, 16), (5, 17), (5, 18), (5, 19), (5, 25), (5, 26), (5, 27), (5, 28), (5, 29),
  (6, 15), (6, 16), (6, 17), (6, 18), (6, 19), (6, 25), (6, 26), (6, 27), (6, 28), (6, 29),
  (7, 15), (7, 16), (7, 17), (7, 18), (7, 19), (7, 25), (7, 26), (7, 27), (7, 28), (7, 29),
})

# Cheryl whispered the month to Albert, and the day to Bernard.
Albert learns month
Bernard learns day
checkpoint whispered

# Albert: "I don't know when Cheryl's birthday is, but I know that Bernard does not know either."
Albert: not knows_value(month, day) and knows(not knows_value(Bernard, month, day))

# Bernard: "I didn't know originally, but now I do."
Bernard: not at(whispered, knows_value(month, day)) and knows_value(month, day)

# Albert: "Well, now I know too!"
Albert: knows_value(month, day)

# The notebook's counter over 10 000 samples: {0: 8765, 1: 589, 2: 645, 3: 1};
# epipen's is in docs/explorer.md.
