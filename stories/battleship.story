# Battleship on a 4 x 4 grid. Ann and Bob each place two ships of two cells, ship k of
# player p (0: Ann, 1: Bob) at row r[s] and column c[s], s = 2p + k, running down when
# down[s], else right;
# a player's two ships share no cell. Each sees only their own board. Then they take
# turns shooting at the other's board, and the owner says "hit" or "miss".
const n = 4
characters Ann, Bob
int r[4], c[4]
bool down[4]

# Ship k of player p covers the cell (i, j).
def covers(p, k, i, j) = if down[2 * p + k] then c[2 * p + k] == j and (r[2 * p + k] == i or r[2 * p + k] + 1 == i) else r[2 * p + k] == i and (c[2 * p + k] == j or c[2 * p + k] + 1 == j)
def hit(p, i, j) = covers(p, 0, i, j) or covers(p, 1, i, j)

announce all(p in 0..2, k in 0..2: r[2 * p + k] in 0..n and c[2 * p + k] in 0..n)
announce all(p in 0..2, k in 0..2: if down[2 * p + k] then r[2 * p + k] + 1 < n else c[2 * p + k] + 1 < n)
announce all(p in 0..2, i in 0..n, j in 0..n: not (covers(p, 0, i, j) and covers(p, 1, i, j)))

# Each sees their own board.
for k in 0..2 {
  Ann learns r[k]
  Ann learns c[k]
  Ann learns down[k]
  Bob learns r[2 + k]
  Bob learns c[2 + k]
  Bob learns down[2 + k]
}

# In fact Ann's ships are down at (0, 0) and right at (3, 2); Bob's right at (1, 1) and
# down at (2, 3).
actual r[0] == 0 and c[0] == 0 and down[0] and r[1] == 3 and c[1] == 2 and not down[1] and r[2] == 1 and c[2] == 1 and not down[2] and r[3] == 2 and c[3] == 3 and down[3]

# Ann shoots at (1, 1) on Bob's board: "hit". Bob at (0, 0) on Ann's: "hit".
Bob reveals hit(1, 1, 1)
Ann reveals hit(0, 0, 0)
# Ann at (1, 2): "hit". Bob at (1, 0): "hit".
Bob reveals hit(1, 1, 2)
Ann reveals hit(0, 1, 0)
# Ann at (3, 3): "hit". Bob at (2, 2): "miss".
Bob reveals hit(1, 3, 3)
Ann reveals hit(0, 2, 2)

# Ann does not know yet where Bob's ships are (the world the check shows has his
# second ship at (1, 2) too), nor Bob where Ann's are.
check not knows_value(Ann, r[2], c[2], down[2], r[3], c[3], down[3])
check not knows_value(Bob, r[0], c[0], down[0], r[1], c[1], down[1])
# Ann knows that a ship of Bob's covers (3, 3), and Bob that none of Ann's covers (2, 2).
check knows(Ann, hit(1, 3, 3)) and knows(Bob, not hit(0, 2, 2))
# Ann shoots at (2, 3): "hit". Now she knows every cell of Bob's board (not which ship
# he numbered first).
Bob reveals hit(1, 2, 3)
check all(i in 0..n, j in 0..n: knows_value(Ann, hit(1, i, j)))
check not knows_value(Ann, r[2])
worlds
