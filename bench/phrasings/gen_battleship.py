#!/usr/bin/env python3
"""Writes the battleship phrasings of bench/phrasings/ (docs/benchmarks.md, "Phrasings").

Four ships on a 4 x 4 grid, ship k being 2 + k / 2 cells long (2, 2, 3, 3), each at
(row[k], col[k]) and running down (vert[k]) or right; no two share a cell (11 232
fleets). The player fires at eleven cells and hears hit or miss; then it knows which
cells hold a ship, though not which ship (4 fleets are left: the two ships of each
length may swap). Every phrasing says the same thing:

- plain: the bounds as plain announcements, one cell held by at most one ship as a count;
- if: the bounds inside the `if` on the direction, no overlap pairwise;
- cells: the occupied cells named as bools (`ship[r * n + c]`), the shots about them.

    python3 bench/phrasings/gen_battleship.py
"""

SHOTS = [((1, 1), False), ((2, 2), False), ((0, 3), True), ((3, 3), True), ((2, 1), False),
         ((0, 0), True), ((3, 1), True), ((1, 2), False), ((2, 3), True), ((0, 2), False),
         ((1, 0), False)]

HEAD = """# Battleship: four ships on an n x n grid (ship k is 2 + k / 2 cells long, at
# (row[k], col[k]), running down when vert[k], else right), no two on one cell ({how}).
# Written by bench/phrasings/gen_battleship.py; every phrasing says the same.
const n = 4
const ships = 4
characters player
int row[ships], col[ships]
bool vert[ships]
"""

COVERS = ("(if vert[{k}] then col[{k}] == {c} and row[{k}] <= {r} and {r} < row[{k}] + 2 + {k} / 2"
          " else row[{k}] == {r} and col[{k}] <= {c} and {c} < col[{k}] + 2 + {k} / 2)")


def covers(k, r, c):
    return COVERS.format(k=k, r=r, c=c)


def shots(hit_of):
    out = []
    for (r, c), hit in SHOTS:
        out.append(f"# shot at row {r}, column {c}: {'hit' if hit else 'miss'}")
        out.append(f"announce {'' if hit else 'not '}{hit_of(r, c)}")
    return out


END = """
# The player now knows which cells hold a ship.
check all(r in 0..n, c in 0..n: knows_value(player, {held}))
"""


def main() -> None:
    any_ship = lambda r, c: f"any(k in 0..ships: {covers('k', r, c)})"
    # plain
    body = [
        "announce all(k in 0..ships: row[k] >= 0 and row[k] < n and col[k] >= 0 and col[k] < n)",
        "announce all(k in 0..ships: if vert[k] then row[k] + 2 + k / 2 <= n else col[k] + 2 + k / 2 <= n)",
        "# No cell holds two ships.",
        f"announce all(r in 0..n, c in 0..n: count(k in 0..ships: {covers('k', 'r', 'c')}) <= 1)",
    ] + shots(any_ship)
    write("bench/phrasings/battleship-plain.story", HEAD.format(how="the bounds as plain announcements"),
          body, END.format(held=any_ship("r", "c")))
    # if
    body = [
        "announce all(k in 0..ships: if vert[k] then row[k] >= 0 and row[k] + 2 + k / 2 <= n"
        " and col[k] >= 0 and col[k] < n else row[k] >= 0 and row[k] < n and col[k] >= 0"
        " and col[k] + 2 + k / 2 <= n)",
        "# No two ships share a cell.",
        f"announce all(k in 0..ships, m in k + 1..ships, r in 0..n, c in 0..n:"
        f" not ({covers('k', 'r', 'c')} and {covers('m', 'r', 'c')}))",
    ] + shots(any_ship)
    write("bench/phrasings/battleship-if.story", HEAD.format(how="the bounds inside the if"),
          body, END.format(held=any_ship("r", "c")))
    # cells
    body = [
        "bool ship[n * n]",
        "announce all(k in 0..ships: row[k] >= 0 and row[k] < n and col[k] >= 0 and col[k] < n)",
        "announce all(k in 0..ships: if vert[k] then row[k] + 2 + k / 2 <= n else col[k] + 2 + k / 2 <= n)",
        "# A cell holds a ship when one covers it; the ships cover ten cells, so none twice.",
        f"announce all(r in 0..n, c in 0..n: ship[r * n + c] == any(k in 0..ships: {covers('k', 'r', 'c')}))",
        "announce count(i in 0..n * n: ship[i]) == 10",
    ] + shots(lambda r, c: f"ship[{r} * n + {c}]")
    write("bench/phrasings/battleship-cells.story", HEAD.format(how="the occupied cells named"),
          body, END.format(held="ship[r * n + c]"))


def write(path, head, body, end):
    with open(path, "w") as f:
        f.write(head + "\n".join(body) + "\n" + end)


if __name__ == "__main__":
    main()
