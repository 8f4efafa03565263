# Minesweeper, 16 x 16, 40 mines, 30 clicks (sums of ifs).
# Written by bench/phrasings/gen_minesweeper.py; every phrasing says the same.
const w = 16
const h = 16
characters player
bool mine[w * h]
announce sum(i in 0..w * h: if mine[i] then 1 else 0) == 40
announce not mine[5]
announce (if mine[4] then 1 else 0) + (if mine[6] then 1 else 0) + (if mine[20] then 1 else 0) + (if mine[21] then 1 else 0) + (if mine[22] then 1 else 0) == 1
announce not mine[102]
announce (if mine[85] then 1 else 0) + (if mine[86] then 1 else 0) + (if mine[87] then 1 else 0) + (if mine[101] then 1 else 0) + (if mine[103] then 1 else 0) + (if mine[117] then 1 else 0) + (if mine[118] then 1 else 0) + (if mine[119] then 1 else 0) == 1
announce not mine[199]
announce (if mine[182] then 1 else 0) + (if mine[183] then 1 else 0) + (if mine[184] then 1 else 0) + (if mine[198] then 1 else 0) + (if mine[200] then 1 else 0) + (if mine[214] then 1 else 0) + (if mine[215] then 1 else 0) + (if mine[216] then 1 else 0) == 1
announce not mine[40]
announce (if mine[23] then 1 else 0) + (if mine[24] then 1 else 0) + (if mine[25] then 1 else 0) + (if mine[39] then 1 else 0) + (if mine[41] then 1 else 0) + (if mine[55] then 1 else 0) + (if mine[56] then 1 else 0) + (if mine[57] then 1 else 0) == 1
announce not mine[137]
announce (if mine[120] then 1 else 0) + (if mine[121] then 1 else 0) + (if mine[122] then 1 else 0) + (if mine[136] then 1 else 0) + (if mine[138] then 1 else 0) + (if mine[152] then 1 else 0) + (if mine[153] then 1 else 0) + (if mine[154] then 1 else 0) == 1
announce not mine[234]
announce (if mine[217] then 1 else 0) + (if mine[218] then 1 else 0) + (if mine[219] then 1 else 0) + (if mine[233] then 1 else 0) + (if mine[235] then 1 else 0) + (if mine[249] then 1 else 0) + (if mine[250] then 1 else 0) + (if mine[251] then 1 else 0) == 2
announce not mine[75]
announce (if mine[58] then 1 else 0) + (if mine[59] then 1 else 0) + (if mine[60] then 1 else 0) + (if mine[74] then 1 else 0) + (if mine[76] then 1 else 0) + (if mine[90] then 1 else 0) + (if mine[91] then 1 else 0) + (if mine[92] then 1 else 0) == 2
announce not mine[172]
announce (if mine[155] then 1 else 0) + (if mine[156] then 1 else 0) + (if mine[157] then 1 else 0) + (if mine[171] then 1 else 0) + (if mine[173] then 1 else 0) + (if mine[187] then 1 else 0) + (if mine[188] then 1 else 0) + (if mine[189] then 1 else 0) == 2
announce not mine[13]
announce (if mine[12] then 1 else 0) + (if mine[14] then 1 else 0) + (if mine[28] then 1 else 0) + (if mine[29] then 1 else 0) + (if mine[30] then 1 else 0) == 2
announce not mine[110]
announce (if mine[93] then 1 else 0) + (if mine[94] then 1 else 0) + (if mine[95] then 1 else 0) + (if mine[109] then 1 else 0) + (if mine[111] then 1 else 0) + (if mine[125] then 1 else 0) + (if mine[126] then 1 else 0) + (if mine[127] then 1 else 0) == 2
announce not mine[207]
announce (if mine[190] then 1 else 0) + (if mine[191] then 1 else 0) + (if mine[206] then 1 else 0) + (if mine[222] then 1 else 0) + (if mine[223] then 1 else 0) == 1
announce not mine[48]
announce (if mine[32] then 1 else 0) + (if mine[33] then 1 else 0) + (if mine[49] then 1 else 0) + (if mine[64] then 1 else 0) + (if mine[65] then 1 else 0) == 1
announce not mine[153]
announce (if mine[136] then 1 else 0) + (if mine[137] then 1 else 0) + (if mine[138] then 1 else 0) + (if mine[152] then 1 else 0) + (if mine[154] then 1 else 0) + (if mine[168] then 1 else 0) + (if mine[169] then 1 else 0) + (if mine[170] then 1 else 0) == 1
announce not mine[250]
announce (if mine[233] then 1 else 0) + (if mine[234] then 1 else 0) + (if mine[235] then 1 else 0) + (if mine[249] then 1 else 0) + (if mine[251] then 1 else 0) == 2
announce not mine[91]
announce (if mine[74] then 1 else 0) + (if mine[75] then 1 else 0) + (if mine[76] then 1 else 0) + (if mine[90] then 1 else 0) + (if mine[92] then 1 else 0) + (if mine[106] then 1 else 0) + (if mine[107] then 1 else 0) + (if mine[108] then 1 else 0) == 2
announce not mine[188]
announce (if mine[171] then 1 else 0) + (if mine[172] then 1 else 0) + (if mine[173] then 1 else 0) + (if mine[187] then 1 else 0) + (if mine[189] then 1 else 0) + (if mine[203] then 1 else 0) + (if mine[204] then 1 else 0) + (if mine[205] then 1 else 0) == 2
announce not mine[29]
announce (if mine[12] then 1 else 0) + (if mine[13] then 1 else 0) + (if mine[14] then 1 else 0) + (if mine[28] then 1 else 0) + (if mine[30] then 1 else 0) + (if mine[44] then 1 else 0) + (if mine[45] then 1 else 0) + (if mine[46] then 1 else 0) == 2
announce not mine[126]
announce (if mine[109] then 1 else 0) + (if mine[110] then 1 else 0) + (if mine[111] then 1 else 0) + (if mine[125] then 1 else 0) + (if mine[127] then 1 else 0) + (if mine[141] then 1 else 0) + (if mine[142] then 1 else 0) + (if mine[143] then 1 else 0) == 2
announce not mine[223]
announce (if mine[206] then 1 else 0) + (if mine[207] then 1 else 0) + (if mine[222] then 1 else 0) + (if mine[238] then 1 else 0) + (if mine[239] then 1 else 0) == 1
announce not mine[64]
announce (if mine[48] then 1 else 0) + (if mine[49] then 1 else 0) + (if mine[65] then 1 else 0) + (if mine[80] then 1 else 0) + (if mine[81] then 1 else 0) == 1
announce not mine[161]
announce (if mine[144] then 1 else 0) + (if mine[145] then 1 else 0) + (if mine[146] then 1 else 0) + (if mine[160] then 1 else 0) + (if mine[162] then 1 else 0) + (if mine[176] then 1 else 0) + (if mine[177] then 1 else 0) + (if mine[178] then 1 else 0) == 2
announce not mine[2]
announce (if mine[1] then 1 else 0) + (if mine[3] then 1 else 0) + (if mine[17] then 1 else 0) + (if mine[18] then 1 else 0) + (if mine[19] then 1 else 0) == 0
announce not mine[99]
announce (if mine[82] then 1 else 0) + (if mine[83] then 1 else 0) + (if mine[84] then 1 else 0) + (if mine[98] then 1 else 0) + (if mine[100] then 1 else 0) + (if mine[114] then 1 else 0) + (if mine[115] then 1 else 0) + (if mine[116] then 1 else 0) == 1
announce not mine[196]
announce (if mine[179] then 1 else 0) + (if mine[180] then 1 else 0) + (if mine[181] then 1 else 0) + (if mine[195] then 1 else 0) + (if mine[197] then 1 else 0) + (if mine[211] then 1 else 0) + (if mine[212] then 1 else 0) + (if mine[213] then 1 else 0) == 1
announce not mine[37]
announce (if mine[20] then 1 else 0) + (if mine[21] then 1 else 0) + (if mine[22] then 1 else 0) + (if mine[36] then 1 else 0) + (if mine[38] then 1 else 0) + (if mine[52] then 1 else 0) + (if mine[53] then 1 else 0) + (if mine[54] then 1 else 0) == 1
announce not mine[134]
announce (if mine[117] then 1 else 0) + (if mine[118] then 1 else 0) + (if mine[119] then 1 else 0) + (if mine[133] then 1 else 0) + (if mine[135] then 1 else 0) + (if mine[149] then 1 else 0) + (if mine[150] then 1 else 0) + (if mine[151] then 1 else 0) == 1
announce not mine[231]
announce (if mine[214] then 1 else 0) + (if mine[215] then 1 else 0) + (if mine[216] then 1 else 0) + (if mine[230] then 1 else 0) + (if mine[232] then 1 else 0) + (if mine[246] then 1 else 0) + (if mine[247] then 1 else 0) + (if mine[248] then 1 else 0) == 1
announce not mine[72]
announce (if mine[55] then 1 else 0) + (if mine[56] then 1 else 0) + (if mine[57] then 1 else 0) + (if mine[71] then 1 else 0) + (if mine[73] then 1 else 0) + (if mine[87] then 1 else 0) + (if mine[88] then 1 else 0) + (if mine[89] then 1 else 0) == 1
announce not mine[169]
announce (if mine[152] then 1 else 0) + (if mine[153] then 1 else 0) + (if mine[154] then 1 else 0) + (if mine[168] then 1 else 0) + (if mine[170] then 1 else 0) + (if mine[184] then 1 else 0) + (if mine[185] then 1 else 0) + (if mine[186] then 1 else 0) == 1
announce not mine[10]
announce (if mine[9] then 1 else 0) + (if mine[11] then 1 else 0) + (if mine[25] then 1 else 0) + (if mine[26] then 1 else 0) + (if mine[27] then 1 else 0) == 0
