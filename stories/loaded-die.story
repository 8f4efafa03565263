# The expected value of a loaded die: a six comes up twice as often as any other face.
# Bob learns only whether the roll is even. What does he expect? 9/2 when it is even,
# 3 when it is odd; 27/7 before he learns anything.
characters Bob
int roll
prior if roll == 6 then 2 else 1           # weighs the faces the next line allows
announce roll in 1..7
check sum(v in 1..7: v * probability(roll == v)) == 27/7
Bob learns roll % 2
actual roll == 4
check actual sum(v in 1..7: v * probability(Bob, roll == v)) == 9/2
check sum(v in 1..7: v * probability(Bob, roll == v)) >= 3
show probability(Bob, roll == 6)
