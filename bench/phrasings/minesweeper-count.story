# Minesweeper, 16 x 16, 40 mines, 30 clicks (counts).
# Written by bench/phrasings/gen_minesweeper.py; every phrasing says the same.
const w = 16
const h = 16
characters player
bool mine[w * h]
announce count(i in 0..w * h: mine[i]) == 40
# click row 0, column 5: no mine, 1 around
announce not mine[5] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 0 + dr >= 0 and 0 + dr < h and 5 + dc >= 0 and 5 + dc < w: mine[(0 + dr) * w + 5 + dc]) == 1
# click row 6, column 6: no mine, 1 around
announce not mine[102] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 6 + dr >= 0 and 6 + dr < h and 6 + dc >= 0 and 6 + dc < w: mine[(6 + dr) * w + 6 + dc]) == 1
# click row 12, column 7: no mine, 1 around
announce not mine[199] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 12 + dr >= 0 and 12 + dr < h and 7 + dc >= 0 and 7 + dc < w: mine[(12 + dr) * w + 7 + dc]) == 1
# click row 2, column 8: no mine, 1 around
announce not mine[40] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 2 + dr >= 0 and 2 + dr < h and 8 + dc >= 0 and 8 + dc < w: mine[(2 + dr) * w + 8 + dc]) == 1
# click row 8, column 9: no mine, 1 around
announce not mine[137] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 8 + dr >= 0 and 8 + dr < h and 9 + dc >= 0 and 9 + dc < w: mine[(8 + dr) * w + 9 + dc]) == 1
# click row 14, column 10: no mine, 2 around
announce not mine[234] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 14 + dr >= 0 and 14 + dr < h and 10 + dc >= 0 and 10 + dc < w: mine[(14 + dr) * w + 10 + dc]) == 2
# click row 4, column 11: no mine, 2 around
announce not mine[75] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 4 + dr >= 0 and 4 + dr < h and 11 + dc >= 0 and 11 + dc < w: mine[(4 + dr) * w + 11 + dc]) == 2
# click row 10, column 12: no mine, 2 around
announce not mine[172] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 10 + dr >= 0 and 10 + dr < h and 12 + dc >= 0 and 12 + dc < w: mine[(10 + dr) * w + 12 + dc]) == 2
# click row 0, column 13: no mine, 2 around
announce not mine[13] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 0 + dr >= 0 and 0 + dr < h and 13 + dc >= 0 and 13 + dc < w: mine[(0 + dr) * w + 13 + dc]) == 2
# click row 6, column 14: no mine, 2 around
announce not mine[110] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 6 + dr >= 0 and 6 + dr < h and 14 + dc >= 0 and 14 + dc < w: mine[(6 + dr) * w + 14 + dc]) == 2
# click row 12, column 15: no mine, 1 around
announce not mine[207] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 12 + dr >= 0 and 12 + dr < h and 15 + dc >= 0 and 15 + dc < w: mine[(12 + dr) * w + 15 + dc]) == 1
# click row 3, column 0: no mine, 1 around
announce not mine[48] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 3 + dr >= 0 and 3 + dr < h and 0 + dc >= 0 and 0 + dc < w: mine[(3 + dr) * w + 0 + dc]) == 1
# click row 9, column 9: no mine, 1 around
announce not mine[153] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 9 + dr >= 0 and 9 + dr < h and 9 + dc >= 0 and 9 + dc < w: mine[(9 + dr) * w + 9 + dc]) == 1
# click row 15, column 10: no mine, 2 around
announce not mine[250] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 15 + dr >= 0 and 15 + dr < h and 10 + dc >= 0 and 10 + dc < w: mine[(15 + dr) * w + 10 + dc]) == 2
# click row 5, column 11: no mine, 2 around
announce not mine[91] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 5 + dr >= 0 and 5 + dr < h and 11 + dc >= 0 and 11 + dc < w: mine[(5 + dr) * w + 11 + dc]) == 2
# click row 11, column 12: no mine, 2 around
announce not mine[188] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 11 + dr >= 0 and 11 + dr < h and 12 + dc >= 0 and 12 + dc < w: mine[(11 + dr) * w + 12 + dc]) == 2
# click row 1, column 13: no mine, 2 around
announce not mine[29] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 1 + dr >= 0 and 1 + dr < h and 13 + dc >= 0 and 13 + dc < w: mine[(1 + dr) * w + 13 + dc]) == 2
# click row 7, column 14: no mine, 2 around
announce not mine[126] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 7 + dr >= 0 and 7 + dr < h and 14 + dc >= 0 and 14 + dc < w: mine[(7 + dr) * w + 14 + dc]) == 2
# click row 13, column 15: no mine, 1 around
announce not mine[223] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 13 + dr >= 0 and 13 + dr < h and 15 + dc >= 0 and 15 + dc < w: mine[(13 + dr) * w + 15 + dc]) == 1
# click row 4, column 0: no mine, 1 around
announce not mine[64] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 4 + dr >= 0 and 4 + dr < h and 0 + dc >= 0 and 0 + dc < w: mine[(4 + dr) * w + 0 + dc]) == 1
# click row 10, column 1: no mine, 2 around
announce not mine[161] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 10 + dr >= 0 and 10 + dr < h and 1 + dc >= 0 and 1 + dc < w: mine[(10 + dr) * w + 1 + dc]) == 2
# click row 0, column 2: no mine, 0 around
announce not mine[2] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 0 + dr >= 0 and 0 + dr < h and 2 + dc >= 0 and 2 + dc < w: mine[(0 + dr) * w + 2 + dc]) == 0
# click row 6, column 3: no mine, 1 around
announce not mine[99] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 6 + dr >= 0 and 6 + dr < h and 3 + dc >= 0 and 3 + dc < w: mine[(6 + dr) * w + 3 + dc]) == 1
# click row 12, column 4: no mine, 1 around
announce not mine[196] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 12 + dr >= 0 and 12 + dr < h and 4 + dc >= 0 and 4 + dc < w: mine[(12 + dr) * w + 4 + dc]) == 1
# click row 2, column 5: no mine, 1 around
announce not mine[37] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 2 + dr >= 0 and 2 + dr < h and 5 + dc >= 0 and 5 + dc < w: mine[(2 + dr) * w + 5 + dc]) == 1
# click row 8, column 6: no mine, 1 around
announce not mine[134] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 8 + dr >= 0 and 8 + dr < h and 6 + dc >= 0 and 6 + dc < w: mine[(8 + dr) * w + 6 + dc]) == 1
# click row 14, column 7: no mine, 1 around
announce not mine[231] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 14 + dr >= 0 and 14 + dr < h and 7 + dc >= 0 and 7 + dc < w: mine[(14 + dr) * w + 7 + dc]) == 1
# click row 4, column 8: no mine, 1 around
announce not mine[72] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 4 + dr >= 0 and 4 + dr < h and 8 + dc >= 0 and 8 + dc < w: mine[(4 + dr) * w + 8 + dc]) == 1
# click row 10, column 9: no mine, 1 around
announce not mine[169] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 10 + dr >= 0 and 10 + dr < h and 9 + dc >= 0 and 9 + dc < w: mine[(10 + dr) * w + 9 + dc]) == 1
# click row 0, column 10: no mine, 0 around
announce not mine[10] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0) and 0 + dr >= 0 and 0 + dr < h and 10 + dc >= 0 and 10 + dc < w: mine[(0 + dr) * w + 10 + dc]) == 0
