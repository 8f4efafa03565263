#!/usr/bin/env python3
"""Every story of stories/ under two epipen binaries, interleaved (docs/benchmarks.md,
"Every story"): for each story, one run of the old binary then one of the
new, RUNS times (posix_spawn + wait4 of `epipen worlds STORY`, as `epipen bench` does);
prints each story's median wall times, the least CPU time (user + system) of each, the
ratios new / old, and the peak memory of each. On a loaded machine the least CPU time is
the steadier comparison.

    python3 bench/versus.py OLD NEW [RUNS] [STORY...]
"""
import os
import statistics
import sys
import time

old, new = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
stories = sys.argv[4:] or sorted(
    os.path.join("stories", s) for s in os.listdir("stories") if s.endswith(".story")
)


def run(exe, story):
    start = time.perf_counter()
    devnull = os.open(os.devnull, os.O_WRONLY)
    pid = os.posix_spawn(
        exe, [exe, "worlds", "--timeout", "120", story], os.environ,
        file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)],
    )
    os.close(devnull)
    _, status, usage = os.wait4(pid, 0)
    cpu = usage.ru_utime + usage.ru_stime
    return time.perf_counter() - start, cpu, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


print("| story | old | new | new / old | old CPU | new CPU | new / old CPU | old MB | new MB |")
print("|---|---|---|---|---|---|---|---|---|")
for story in stories:
    times = {old: [], new: []}
    peak = {old: 0.0, new: 0.0}
    cpu = {old: float("inf"), new: float("inf")}
    failed = set()
    for _ in range(runs):
        for exe in (old, new):
            t, c, mb, code = run(exe, story)
            times[exe].append(t)
            cpu[exe] = min(cpu[exe], c)
            peak[exe] = max(peak[exe], mb)
            if code != 0:
                failed.add(exe)
    a, b = statistics.median(times[old]), statistics.median(times[new])
    mark = " (failed: " + ", ".join(sorted(failed)) + ")" if failed else ""
    print(f"| {os.path.basename(story)}{mark} | {a * 1000:.1f} ms | {b * 1000:.1f} ms | {b / a:.2f} "
          f"| {cpu[old] * 1000:.1f} ms | {cpu[new] * 1000:.1f} ms | {cpu[new] / max(cpu[old], 1e-9):.2f} "
          f"| {peak[old]:.0f} | {peak[new]:.0f} |", flush=True)
