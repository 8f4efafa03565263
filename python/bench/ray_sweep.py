"""docs/benchmarks.md's "ray" row: a sweep of N Cheryl samples on one core (threads=1), on
this machine's threads, and as Ray tasks on a local Ray; the answers compared. Besides
wall times, the CPU time each took: for Ray, of every process of the local cluster (the
driver, the raylet and GCS, the workers), read from /proc, so that the work Ray adds is
measured apart from what other jobs on a shared machine take.

    python3 python/bench/ray_sweep.py stories/cheryl-sample.story 1000000
"""

import os
import sys
import time

import ray

import epipen

story, samples = sys.argv[1], int(sys.argv[2])
TICK = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int) -> float:
    """CPU seconds (user + system) of `root` and its descendants, as /proc says now."""
    parent, cpu = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = open(f"/proc/{pid}/stat").read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parent[int(pid)] = int(fields[1])
        cpu[int(pid)] = (int(fields[11]) + int(fields[12])) / TICK
    total, todo = 0.0, [root]
    children = {}
    for pid, ppid in parent.items():
        children.setdefault(ppid, []).append(pid)
    while todo:
        pid = todo.pop()
        total += cpu.get(pid, 0.0)
        todo.extend(children.get(pid, []))
    return total


start = time.perf_counter()
ray.init()
print(f"ray.init: {time.perf_counter() - start:.2f} s, CPUs: {ray.cluster_resources().get('CPU')}")
# Warm up the workers (they start and import epipen on their first tasks).
epipen.sweep_file(story, samples=20_000, cluster="ray", progress=False)


def timed(**options):
    me = os.getpid()
    cpu = tree_cpu(me)
    start = time.perf_counter()
    s = epipen.sweep_file(story, samples=samples, progress=False, **options)
    return time.perf_counter() - start, tree_cpu(me) - cpu, s


one, one_cpu, s1 = timed(threads=1)
print(f"one core (threads=1): {one:.2f} s, CPU {one_cpu:.2f} s")
local, local_cpu, s2 = timed()
print(f"this machine's threads: {local:.2f} s, CPU {local_cpu:.2f} s")
on_ray, ray_cpu, s3 = timed(cluster="ray")
print(f"ray: {on_ray:.2f} s, CPU of the whole local cluster {ray_cpu:.2f} s")
assert str(s1) == str(s2) == str(s3), "different answers"
print(f"ray / one core: {one / on_ray:.2f}x faster; CPU spent on Ray / on one core: {ray_cpu / one_cpu:.3f}")
print(f"counts: {s3.counts}")
with open("/proc/loadavg") as f:
    print(f"load average: {f.read().split()[:3]}")
ray.shutdown()
