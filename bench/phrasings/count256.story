# One count over 256 bools: a 16 x 16 minesweeper board's mine count, alone.
const n = 256
const k = 42
characters player
bool b[n]
announce count(i in 0..n: b[i]) == k
