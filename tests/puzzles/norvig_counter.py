#!/usr/bin/env python3
"""Norvig's `counter` on the dates epipen's `sample(10, …)` draws.

Reproduces epipen's sampler (SplitMix64, src/lower/sample.rs) for seeds S..S+N-1, turns
each draw of ten of the fifty candidate dates into the notebook's date strings, and runs
the notebook's own puzzle functions on them (copied from
../shared/seeds/000_07e8501f73d8ff16.txt). The counts can then be compared, sample by
sample, with `epipen sweep stories/cheryl*-sample.story --samples N --seed S`.

    python3 tests/puzzles/norvig_counter.py [N [S [PUZZLE…]]]
        (default 10000 samples from seed 1, every puzzle)
"""
import sys
from collections import Counter

MASK = (1 << 64) - 1
MONTHS = {3: 'March', 4: 'April', 5: 'May', 6: 'June', 7: 'July'}
CANDIDATES = [(m, d) for m in range(3, 8) for d in (15, 16, 17, 18, 19, 25, 26, 27, 28, 29)]


class Rng:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        return (self.next() * n) >> 64

    def choose(self, k, n):
        pool = list(range(n))
        for i in range(k):
            j = i + self.below(n - i)
            pool[i], pool[j] = pool[j], pool[i]
        return sorted(pool[:k])


def draw(seed):
    return {f'{MONTHS[m]} {d}' for m, d in (CANDIDATES[i] for i in Rng(seed).choose(10, 50))}


# ----- the notebook's code, as written there -----
DATES = set()


def tell(part):
    return {date for date in DATES if part in date}


def Month(date): return date.split()[0]
def Day(date): return date.split()[1]
def know(possible_dates): return len(possible_dates) == 1
def first(seq): return seq[0]


def satisfy(items, *predicates):
    return {item for item in items if all(p(item) for p in predicates)}


def albert1(date):
    told = tell(Month(date))
    return (not know(told) and all(not know(tell(Day(d))) for d in told))


def bernard1(date):
    at_first = tell(Day(date))
    return (not know(at_first) and know(satisfy(at_first, albert1)))


def albert2(date):
    return know(satisfy(tell(Month(date)), bernard1))


def eve1(date):
    at_first = tell(first(Day(date))) & tell(first(Month(date)))
    return (not know(at_first)
            and know(satisfy(at_first, albert1, bernard1, albert2)) and
            not know(satisfy(tell(''), albert1, bernard1, albert2)))


def albert2c(date):
    return not know(satisfy(tell(Month(date)), bernard1))


def eve1c(date):
    at_first = tell(first(Day(date))) & tell(first(Month(date)))
    return (not know(at_first)
            and know(satisfy(at_first, albert1, bernard1, albert2c)) and
            not know(satisfy(tell(''), albert1, bernard1, albert2c)))


def albert3c(date):
    return know(satisfy(tell(Month(date)), eve1c))


def puzzle(dates, *statements):
    global DATES
    DATES = dates
    return satisfy(dates, *statements)


PUZZLES = {
    'cheryl-sample': (albert1, bernard1, albert2),
    'cheryl-eve-sample': (albert1, bernard1, albert2, eve1),
    'cheryl-eve-complex-sample': (albert1, bernard1, albert2c, eve1c, albert3c),
}

if __name__ == '__main__':
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    start = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    names = sys.argv[3:] or list(PUZZLES)
    for name in names:
        statements = PUZZLES[name]
        counts = Counter(len(puzzle(draw(seed), *statements)) for seed in range(start, start + n))
        first_unique = next((s for s in range(start, start + n)
                             if len(puzzle(draw(s), *statements)) == 1), None)
        print(f'{name}: {dict(sorted(counts.items()))}, first unique seed {first_unique}')
