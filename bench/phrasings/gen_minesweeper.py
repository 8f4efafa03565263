#!/usr/bin/env python3
"""Writes the minesweeper phrasings of bench/phrasings/ (docs/benchmarks.md, "Phrasings").

A W x H board (cells numbered row by row, i = r * W + c) with MINES mines: cell i holds
one when (i * 37 + 11) % (W * H) < MINES (37 is prime to W * H here, so exactly MINES
cells do). The player clicks CLICKS safe cells, visited in the order (k * 97 + 5) %
(W * H), k = 0, 1, ...; each click shows that the cell is safe and how many of its
neighbours hold a mine. Every phrasing says the same thing:

- count: `count(...) == k`, the neighbours by a guarded 2-D aggregate;
- sum: sums of `if mine[i] then 1 else 0`, the neighbours listed;
- bounds: `count(...) >= k and count(...) <= k`, the neighbours by absolute rows and columns.

    python3 bench/phrasings/gen_minesweeper.py [W H MINES CLICKS PREFIX]

Defaults: 16 16 40 30 bench/phrasings/minesweeper (the full-size stories).
"""
import sys


def main() -> None:
    args = sys.argv[1:]
    w, h, mines, clicks = (int(a) for a in args[:4]) if len(args) >= 4 else (16, 16, 40, 30)
    prefix = args[4] if len(args) >= 5 else "bench/phrasings/minesweeper"
    n = w * h
    mine = [(i * 37 + 11) % n < mines for i in range(n)]
    assert sum(mine) == mines

    def neighbours(i):
        r, c = divmod(i, w)
        return [
            (r + dr) * w + c + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0) and 0 <= r + dr < h and 0 <= c + dc < w
        ]

    order = [(k * 97 + 5) % n for k in range(n)]
    clicked = [i for i in order if not mine[i]][:clicks]
    shown = {i: sum(mine[j] for j in neighbours(i)) for i in clicked}

    def head(how):
        return (
            f"# Minesweeper, {w} x {h}, {mines} mines, {len(clicked)} clicks ({how}).\n"
            "# Written by bench/phrasings/gen_minesweeper.py; every phrasing says the same.\n"
            f"const w = {w}\nconst h = {h}\n"
            "characters player\n"
            "bool mine[w * h]\n"
        )

    body = [f"announce count(i in 0..w * h: mine[i]) == {mines}"]
    for i in clicked:
        r, c = divmod(i, w)
        body.append(f"# click row {r}, column {c}: no mine, {shown[i]} around")
        body.append(
            f"announce not mine[{i}] and count(dr in -1..2, dc in -1..2 if (dr != 0 or dc != 0)"
            f" and {r} + dr >= 0 and {r} + dr < h and {c} + dc >= 0 and {c} + dc < w:"
            f" mine[({r} + dr) * w + {c} + dc]) == {shown[i]}"
        )
    write(f"{prefix}-count.story", head("counts"), body)

    body = [f"announce sum(i in 0..w * h: if mine[i] then 1 else 0) == {mines}"]
    for i in clicked:
        terms = " + ".join(f"(if mine[{j}] then 1 else 0)" for j in neighbours(i))
        body.append(f"announce not mine[{i}]")
        body.append(f"announce {terms} == {shown[i]}")
    write(f"{prefix}-sum.story", head("sums of ifs"), body)

    total = "count(i in 0..w * h: mine[i])"
    body = [f"announce {total} >= {mines} and {total} <= {mines}"]
    for i in clicked:
        r, c = divmod(i, w)
        around = (
            f"count(r in {r} - 1..{r} + 2, c in {c} - 1..{c} + 2 if (r != {r} or c != {c})"
            " and r >= 0 and r < h and c >= 0 and c < w: mine[r * w + c])"
        )
        body.append(f"announce not mine[{i}]")
        body.append(f"announce {around} >= {shown[i]} and {around} <= {shown[i]}")
    write(f"{prefix}-bounds.story", head("at least and at most"), body)


def write(path, head, body):
    with open(path, "w") as f:
        f.write(head + "\n".join(body) + "\n")


if __name__ == "__main__":
    main()
