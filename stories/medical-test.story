# Bayes' theorem at the doctor's (Eddy, "Probabilistic reasoning in clinical medicine",
# 1982; Gigerenzer and Hoffrage, 1995): 1 person in 100 has the disease; the test finds
# it in 90 of 100 who have it, and wrongly in 9 of 100 who do not. The patient tests
# positive. How likely is the disease? Not 90%: 10/109, about 9%.
characters Doctor
bool sick
prior if sick then 1 else 99               # 1 in 100
actual sick

event test {
  true_positive if sick weight 90          # 90 in 100 of the sick test positive
  false_negative if sick weight 10
  false_positive if not sick weight 9      # 9 in 100 of the healthy do too
  true_negative if not sick weight 91
  Doctor sees true_positive, false_positive | false_negative, true_negative
  actual true_positive
}

check actual probability(Doctor, sick) == 10/109
show probability(Doctor, sick)
# A second, independent test, positive again: now more likely than not.
event retest {
  true_positive if sick weight 90
  false_negative if sick weight 10
  false_positive if not sick weight 9
  true_negative if not sick weight 91
  Doctor sees true_positive, false_positive | false_negative, true_negative
  actual true_positive
}
show probability(Doctor, sick)
check actual probability(Doctor, sick) > 1/2
