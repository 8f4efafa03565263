#!/usr/bin/env python3
"""Plain Python brute force over explicit worlds: the peer epipen's finite stories are
measured against (docs/benchmarks.md). Each puzzle is the same story as in stories/,
written the way one would in Python: list the worlds, group them by what a character
learned, keep the worlds where the statement holds.

    python3 bench/brute.py sum-and-product N     # 1 < x < y, x + y <= N
    python3 bench/brute.py cheryls-age
    python3 bench/brute.py cheryl
    python3 bench/brute.py what-sum B        # x, y, z in 1..B, one the sum of the others
"""
import sys
from collections import Counter, defaultdict


def knows_value(worlds, view, value):
    """The worlds where the character seeing `view` knows `value`: its group agrees."""
    seen = defaultdict(set)
    for w in worlds:
        seen[view(w)].add(value(w))
    return {w for w in worlds if len(seen[view(w)]) == 1}


def sum_and_product(n):
    worlds = [(x, y) for x in range(2, n) for y in range(x + 1, n - x + 1)]
    informed = worlds
    products = Counter(x * y for x, y in worlds)
    # P: "I don't know the numbers."
    worlds = [w for w in worlds if products[w[0] * w[1]] > 1]
    # S: "I knew you didn't know": in the informed state, every world with my sum has a
    # product shared by another world.
    sums_where_p_could_know = {x + y for x, y in informed if products[x * y] == 1}
    worlds = [w for w in worlds if w[0] + w[1] not in sums_where_p_could_know]
    # P: "Now I know the numbers."
    products = Counter(x * y for x, y in worlds)
    worlds = [w for w in worlds if products[w[0] * w[1]] == 1]
    # S: "Now I also know the numbers."
    sums = Counter(x + y for x, y in worlds)
    return [w for w in worlds if sums[w[0] + w[1]] == 1]


def cheryls_age():
    worlds = [(c, b1, b2) for c in range(1, 145) for b1 in range(1, c) for b2 in range(b1, c)
              if c * b1 * b2 == 144]
    # Albert: "We still don't know your age." (he has learned nothing yet)
    if len({c for c, _, _ in worlds}) == 1:
        worlds = []
    # Both learn the bus number (the sum); Bernard: "we still don't know your age".
    bus = lambda w: sum(w)
    knows = knows_value(worlds, bus, lambda w: w[0])
    worlds = [w for w in worlds if w not in knows]
    # "My brothers have the same age."
    worlds = [w for w in worlds if w[1] == w[2]]
    # Albert and Bernard: "now we know your age" (both see the bus number).
    knows = knows_value(worlds, bus, lambda w: w[0])
    return [w for w in worlds if w in knows]


def cheryl():
    dates = [(5, 15), (5, 16), (5, 19), (6, 17), (6, 18), (7, 14), (7, 16), (8, 14), (8, 15),
             (8, 17)]
    month, day = (lambda w: w[0]), (lambda w: w[1])
    whole = lambda w: w
    worlds = dates
    # Albert: "I don't know, and I know Bernard doesn't know."
    a_knows = knows_value(worlds, month, whole)
    b_knows = knows_value(worlds, day, whole)
    bad_months = {w[0] for w in worlds if w in b_knows}
    worlds = [w for w in worlds if w not in a_knows and w[0] not in bad_months]
    # Bernard: "I didn't know, but now I do."
    b_now = knows_value(worlds, day, whole)
    worlds = [w for w in worlds if w not in b_knows and w in b_now]
    # Albert: "Now I know too."
    a_now = knows_value(worlds, month, whole)
    return [w for w in worlds if w in a_now]


def what_sum(b):
    worlds = [(x, y, z) for x in range(1, b + 1) for y in range(1, b + 1)
              for z in range(1, b + 1) if x == y + z or y == x + z or z == x + y]
    # Each sees the other two numbers and says in turn "I don't know my number".
    for i in range(3):
        view = lambda w, i=i: w[:i] + w[i + 1:]
        knows = knows_value(worlds, view, lambda w, i=i: w[i])
        worlds = [w for w in worlds if w not in knows]
    return worlds


def main():
    puzzle = sys.argv[1] if len(sys.argv) > 1 else "sum-and-product"
    if puzzle == "sum-and-product":
        worlds = sum_and_product(int(sys.argv[2]) if len(sys.argv) > 2 else 100)
    elif puzzle == "cheryls-age":
        worlds = cheryls_age()
    elif puzzle == "cheryl":
        worlds = cheryl()
    elif puzzle == "what-sum":
        worlds = what_sum(int(sys.argv[2]) if len(sys.argv) > 2 else 10)
    else:
        sys.exit(f"unknown puzzle {puzzle}")
    print(f"{len(worlds)} worlds: {sorted(worlds)}")


if __name__ == "__main__":
    main()
