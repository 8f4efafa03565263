"""docs/benchmarks.md's "declarations" row: a story that declares its constants one at a
time (``s.int(f"x{k}")`` in a loop) beside one family (``s.ints("x", n)``), N of each, in
one process. Declaring one more name costs the same however many came before.

    python3 python/bench/declarations.py 4000
"""

import sys
import time

import epipen

n = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
for kind in ("int", "bool", "character"):
    s = epipen.Story()
    start = time.perf_counter()
    declare = getattr(s, kind)
    for k in range(n):
        declare(f"x{k}" if kind != "character" else f"X{k}")
    one_by_one = time.perf_counter() - start
    start = time.perf_counter()
    getattr(epipen.Story(), kind + "s")("x", n)
    family = time.perf_counter() - start
    print(f"{n} {kind}s: one at a time {one_by_one:.3f} s, one family {family:.3f} s")
