# Battleship: four ships on an n x n grid (ship k is 2 + k / 2 cells long, at
# (row[k], col[k]), running down when vert[k], else right), no two on one cell (the occupied cells named).
# Written by bench/phrasings/gen_battleship.py; every phrasing says the same.
const n = 4
const ships = 4
characters player
int row[ships], col[ships]
bool vert[ships]
bool ship[n * n]
announce all(k in 0..ships: row[k] >= 0 and row[k] < n and col[k] >= 0 and col[k] < n)
announce all(k in 0..ships: if vert[k] then row[k] + 2 + k / 2 <= n else col[k] + 2 + k / 2 <= n)
# A cell holds a ship when one covers it; the ships cover ten cells, so none twice.
announce all(r in 0..n, c in 0..n: ship[r * n + c] == any(k in 0..ships: (if vert[k] then col[k] == c and row[k] <= r and r < row[k] + 2 + k / 2 else row[k] == r and col[k] <= c and c < col[k] + 2 + k / 2)))
announce count(i in 0..n * n: ship[i]) == 10
# shot at row 1, column 1: miss
announce not ship[1 * n + 1]
# shot at row 2, column 2: miss
announce not ship[2 * n + 2]
# shot at row 0, column 3: hit
announce ship[0 * n + 3]
# shot at row 3, column 3: hit
announce ship[3 * n + 3]
# shot at row 2, column 1: miss
announce not ship[2 * n + 1]
# shot at row 0, column 0: hit
announce ship[0 * n + 0]
# shot at row 3, column 1: hit
announce ship[3 * n + 1]
# shot at row 1, column 2: miss
announce not ship[1 * n + 2]
# shot at row 2, column 3: hit
announce ship[2 * n + 3]
# shot at row 0, column 2: miss
announce not ship[0 * n + 2]
# shot at row 1, column 0: miss
announce not ship[1 * n + 0]

# The player now knows which cells hold a ship.
check all(r in 0..n, c in 0..n: knows_value(player, ship[r * n + c]))
