# Minesweeper, 16 x 16, 40 mines, 30 clicks (at least and at most).
# Written by bench/phrasings/gen_minesweeper.py; every phrasing says the same.
const w = 16
const h = 16
characters player
bool mine[w * h]
announce count(i in 0..w * h: mine[i]) >= 40 and count(i in 0..w * h: mine[i]) <= 40
announce not mine[5]
announce count(r in 0 - 1..0 + 2, c in 5 - 1..5 + 2 if (r != 0 or c != 5) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 0 - 1..0 + 2, c in 5 - 1..5 + 2 if (r != 0 or c != 5) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[102]
announce count(r in 6 - 1..6 + 2, c in 6 - 1..6 + 2 if (r != 6 or c != 6) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 6 - 1..6 + 2, c in 6 - 1..6 + 2 if (r != 6 or c != 6) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[199]
announce count(r in 12 - 1..12 + 2, c in 7 - 1..7 + 2 if (r != 12 or c != 7) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 12 - 1..12 + 2, c in 7 - 1..7 + 2 if (r != 12 or c != 7) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[40]
announce count(r in 2 - 1..2 + 2, c in 8 - 1..8 + 2 if (r != 2 or c != 8) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 2 - 1..2 + 2, c in 8 - 1..8 + 2 if (r != 2 or c != 8) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[137]
announce count(r in 8 - 1..8 + 2, c in 9 - 1..9 + 2 if (r != 8 or c != 9) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 8 - 1..8 + 2, c in 9 - 1..9 + 2 if (r != 8 or c != 9) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[234]
announce count(r in 14 - 1..14 + 2, c in 10 - 1..10 + 2 if (r != 14 or c != 10) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 14 - 1..14 + 2, c in 10 - 1..10 + 2 if (r != 14 or c != 10) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[75]
announce count(r in 4 - 1..4 + 2, c in 11 - 1..11 + 2 if (r != 4 or c != 11) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 4 - 1..4 + 2, c in 11 - 1..11 + 2 if (r != 4 or c != 11) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[172]
announce count(r in 10 - 1..10 + 2, c in 12 - 1..12 + 2 if (r != 10 or c != 12) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 10 - 1..10 + 2, c in 12 - 1..12 + 2 if (r != 10 or c != 12) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[13]
announce count(r in 0 - 1..0 + 2, c in 13 - 1..13 + 2 if (r != 0 or c != 13) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 0 - 1..0 + 2, c in 13 - 1..13 + 2 if (r != 0 or c != 13) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[110]
announce count(r in 6 - 1..6 + 2, c in 14 - 1..14 + 2 if (r != 6 or c != 14) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 6 - 1..6 + 2, c in 14 - 1..14 + 2 if (r != 6 or c != 14) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[207]
announce count(r in 12 - 1..12 + 2, c in 15 - 1..15 + 2 if (r != 12 or c != 15) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 12 - 1..12 + 2, c in 15 - 1..15 + 2 if (r != 12 or c != 15) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[48]
announce count(r in 3 - 1..3 + 2, c in 0 - 1..0 + 2 if (r != 3 or c != 0) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 3 - 1..3 + 2, c in 0 - 1..0 + 2 if (r != 3 or c != 0) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[153]
announce count(r in 9 - 1..9 + 2, c in 9 - 1..9 + 2 if (r != 9 or c != 9) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 9 - 1..9 + 2, c in 9 - 1..9 + 2 if (r != 9 or c != 9) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[250]
announce count(r in 15 - 1..15 + 2, c in 10 - 1..10 + 2 if (r != 15 or c != 10) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 15 - 1..15 + 2, c in 10 - 1..10 + 2 if (r != 15 or c != 10) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[91]
announce count(r in 5 - 1..5 + 2, c in 11 - 1..11 + 2 if (r != 5 or c != 11) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 5 - 1..5 + 2, c in 11 - 1..11 + 2 if (r != 5 or c != 11) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[188]
announce count(r in 11 - 1..11 + 2, c in 12 - 1..12 + 2 if (r != 11 or c != 12) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 11 - 1..11 + 2, c in 12 - 1..12 + 2 if (r != 11 or c != 12) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[29]
announce count(r in 1 - 1..1 + 2, c in 13 - 1..13 + 2 if (r != 1 or c != 13) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 1 - 1..1 + 2, c in 13 - 1..13 + 2 if (r != 1 or c != 13) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[126]
announce count(r in 7 - 1..7 + 2, c in 14 - 1..14 + 2 if (r != 7 or c != 14) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 7 - 1..7 + 2, c in 14 - 1..14 + 2 if (r != 7 or c != 14) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[223]
announce count(r in 13 - 1..13 + 2, c in 15 - 1..15 + 2 if (r != 13 or c != 15) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 13 - 1..13 + 2, c in 15 - 1..15 + 2 if (r != 13 or c != 15) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[64]
announce count(r in 4 - 1..4 + 2, c in 0 - 1..0 + 2 if (r != 4 or c != 0) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 4 - 1..4 + 2, c in 0 - 1..0 + 2 if (r != 4 or c != 0) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[161]
announce count(r in 10 - 1..10 + 2, c in 1 - 1..1 + 2 if (r != 10 or c != 1) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 2 and count(r in 10 - 1..10 + 2, c in 1 - 1..1 + 2 if (r != 10 or c != 1) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 2
announce not mine[2]
announce count(r in 0 - 1..0 + 2, c in 2 - 1..2 + 2 if (r != 0 or c != 2) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 0 and count(r in 0 - 1..0 + 2, c in 2 - 1..2 + 2 if (r != 0 or c != 2) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 0
announce not mine[99]
announce count(r in 6 - 1..6 + 2, c in 3 - 1..3 + 2 if (r != 6 or c != 3) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 6 - 1..6 + 2, c in 3 - 1..3 + 2 if (r != 6 or c != 3) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[196]
announce count(r in 12 - 1..12 + 2, c in 4 - 1..4 + 2 if (r != 12 or c != 4) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 12 - 1..12 + 2, c in 4 - 1..4 + 2 if (r != 12 or c != 4) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[37]
announce count(r in 2 - 1..2 + 2, c in 5 - 1..5 + 2 if (r != 2 or c != 5) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 2 - 1..2 + 2, c in 5 - 1..5 + 2 if (r != 2 or c != 5) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[134]
announce count(r in 8 - 1..8 + 2, c in 6 - 1..6 + 2 if (r != 8 or c != 6) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 8 - 1..8 + 2, c in 6 - 1..6 + 2 if (r != 8 or c != 6) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[231]
announce count(r in 14 - 1..14 + 2, c in 7 - 1..7 + 2 if (r != 14 or c != 7) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 14 - 1..14 + 2, c in 7 - 1..7 + 2 if (r != 14 or c != 7) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[72]
announce count(r in 4 - 1..4 + 2, c in 8 - 1..8 + 2 if (r != 4 or c != 8) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 4 - 1..4 + 2, c in 8 - 1..8 + 2 if (r != 4 or c != 8) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[169]
announce count(r in 10 - 1..10 + 2, c in 9 - 1..9 + 2 if (r != 10 or c != 9) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 1 and count(r in 10 - 1..10 + 2, c in 9 - 1..9 + 2 if (r != 10 or c != 9) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 1
announce not mine[10]
announce count(r in 0 - 1..0 + 2, c in 10 - 1..10 + 2 if (r != 0 or c != 10) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) >= 0 and count(r in 0 - 1..0 + 2, c in 10 - 1..10 + 2 if (r != 0 or c != 10) and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c]) <= 0
