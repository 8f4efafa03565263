"""The Python side of docs/benchmarks.md's "run-timing" row: epipen.run on a
story file's text, RUNS times in a row, each call timed (compare with
`cargo run --release -p epipen-python --example run_timing -- STORY RUNS`).

    python3 python/bench/run_timing.py stories/cheryl.story 2000
"""

import sys
import time

import epipen

path, runs = sys.argv[1], int(sys.argv[2])
source = open(path, encoding="utf-8").read()
times = []
for _ in range(runs):
    start = time.perf_counter()
    r = epipen.run(source, name=path)
    times.append(time.perf_counter() - start)
times.sort()
us = lambda t: t * 1e6
print(
    f"python: {path}: {runs} runs, {len(r.worlds)} world(s): median {us(times[runs // 2]):.1f} µs, "
    f"min {us(times[0]):.1f} µs, p90 {us(times[runs * 9 // 10]):.1f} µs"
)
