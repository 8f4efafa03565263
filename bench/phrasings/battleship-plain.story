# Battleship: four ships on an n x n grid (ship k is 2 + k / 2 cells long, at
# (row[k], col[k]), running down when vert[k], else right), no two on one cell (the bounds as plain announcements).
# Written by bench/phrasings/gen_battleship.py; every phrasing says the same.
const n = 4
const ships = 4
characters player
int row[ships], col[ships]
bool vert[ships]
announce all(k in 0..ships: row[k] >= 0 and row[k] < n and col[k] >= 0 and col[k] < n)
announce all(k in 0..ships: if vert[k] then row[k] + 2 + k / 2 <= n else col[k] + 2 + k / 2 <= n)
# No cell holds two ships.
announce all(r in 0..n, c in 0..n: count(k in 0..ships: (if vert[k] then col[k] == c and row[k] <= r and r < row[k] + 2 + k / 2 else row[k] == r and col[k] <= c and c < col[k] + 2 + k / 2)) <= 1)
# shot at row 1, column 1: miss
announce not any(k in 0..ships: (if vert[k] then col[k] == 1 and row[k] <= 1 and 1 < row[k] + 2 + k / 2 else row[k] == 1 and col[k] <= 1 and 1 < col[k] + 2 + k / 2))
# shot at row 2, column 2: miss
announce not any(k in 0..ships: (if vert[k] then col[k] == 2 and row[k] <= 2 and 2 < row[k] + 2 + k / 2 else row[k] == 2 and col[k] <= 2 and 2 < col[k] + 2 + k / 2))
# shot at row 0, column 3: hit
announce any(k in 0..ships: (if vert[k] then col[k] == 3 and row[k] <= 0 and 0 < row[k] + 2 + k / 2 else row[k] == 0 and col[k] <= 3 and 3 < col[k] + 2 + k / 2))
# shot at row 3, column 3: hit
announce any(k in 0..ships: (if vert[k] then col[k] == 3 and row[k] <= 3 and 3 < row[k] + 2 + k / 2 else row[k] == 3 and col[k] <= 3 and 3 < col[k] + 2 + k / 2))
# shot at row 2, column 1: miss
announce not any(k in 0..ships: (if vert[k] then col[k] == 1 and row[k] <= 2 and 2 < row[k] + 2 + k / 2 else row[k] == 2 and col[k] <= 1 and 1 < col[k] + 2 + k / 2))
# shot at row 0, column 0: hit
announce any(k in 0..ships: (if vert[k] then col[k] == 0 and row[k] <= 0 and 0 < row[k] + 2 + k / 2 else row[k] == 0 and col[k] <= 0 and 0 < col[k] + 2 + k / 2))
# shot at row 3, column 1: hit
announce any(k in 0..ships: (if vert[k] then col[k] == 1 and row[k] <= 3 and 3 < row[k] + 2 + k / 2 else row[k] == 3 and col[k] <= 1 and 1 < col[k] + 2 + k / 2))
# shot at row 1, column 2: miss
announce not any(k in 0..ships: (if vert[k] then col[k] == 2 and row[k] <= 1 and 1 < row[k] + 2 + k / 2 else row[k] == 1 and col[k] <= 2 and 2 < col[k] + 2 + k / 2))
# shot at row 2, column 3: hit
announce any(k in 0..ships: (if vert[k] then col[k] == 3 and row[k] <= 2 and 2 < row[k] + 2 + k / 2 else row[k] == 2 and col[k] <= 3 and 3 < col[k] + 2 + k / 2))
# shot at row 0, column 2: miss
announce not any(k in 0..ships: (if vert[k] then col[k] == 2 and row[k] <= 0 and 0 < row[k] + 2 + k / 2 else row[k] == 0 and col[k] <= 2 and 2 < col[k] + 2 + k / 2))
# shot at row 1, column 0: miss
announce not any(k in 0..ships: (if vert[k] then col[k] == 0 and row[k] <= 1 and 1 < row[k] + 2 + k / 2 else row[k] == 1 and col[k] <= 0 and 0 < col[k] + 2 + k / 2))

# The player now knows which cells hold a ship.
check all(r in 0..n, c in 0..n: knows_value(player, any(k in 0..ships: (if vert[k] then col[k] == c and row[k] <= r and r < row[k] + 2 + k / 2 else row[k] == r and col[k] <= c and c < col[k] + 2 + k / 2))))
