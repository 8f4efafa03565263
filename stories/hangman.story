# The Hangman: the surprise execution (van Ditmarsch and Kooi, "One Hundred Prisoners
# and a Light Bulb", 2015, the chapter "Hangman"; Gerbrandy, "The surprise examination
# in dynamic epistemic logic", Synthese, 2007).
#
# On Sunday a judge, who always speaks the truth, tells a prisoner: "You will be hanged
# at noon on one of the days of next week, Monday to Friday, and it will be a surprise:
# on the morning of that day you will not know that you will be hanged that day." The
# prisoner reasons: "Not on Friday: on Friday morning, still alive, I would know. So
# not on Thursday either, and so on: I cannot be hanged at all." On Wednesday at noon
# the hangman knocks on his door, to his surprise.
#
# Assumed (the book's own wording could not be checked for this story): the days are 1
# (Monday) to 5 (Friday); the prisoner learns at noon of each day whether the hangman
# comes; "a surprise" is a statement about what the prisoner knows when the judge
# speaks (Gerbrandy's reading, a public announcement: it speaks of the situation in
# which it is made, not of the one it creates); the hanging is on Wednesday.
const days = 5
const hanged_on = 3                 # Wednesday (`--set hanged_on=4`: Thursday)
characters Prisoner
int day                             # the day of the hanging

# "You will be hanged at noon on one of the days of next week,
announce day in 1..days + 1
# and it will be a surprise." On the morning of day d, not hanged before, he will know
# that today is the day exactly when he knows now that it is no later than d.
announce all(d in 1..days + 1: day == d -> not knows(Prisoner, day <= d))

# "Not on Friday": right, the judge's words rule Friday out.
check knows(Prisoner, day != days)
# "So not on Thursday either": wrong. The judge spoke of what the prisoner knew before
# he spoke; now, knowing that Friday is out, a hanging on Thursday would no longer be a
# surprise, but nothing says the judge's words are true again after they were said.
check not knows_value(Prisoner, day)
check day == days - 1 -> knows(Prisoner, day <= days - 1)

actual day == hanged_on
for d in 1..hanged_on + 1 {
  # The morning of day d: will it be today? He does not know.
  check actual not knows(Prisoner, day == d)
  event noon {                      # At noon the hangman comes, or not.
    knock if day == d
    silence if day != d
    Prisoner sees knock | silence
  }
}

worlds
