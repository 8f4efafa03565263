# One count over 256 bools, written as a sum of ifs.
const n = 256
const k = 42
characters player
bool b[n]
announce sum(i in 0..n: if b[i] then 1 else 0) == k
