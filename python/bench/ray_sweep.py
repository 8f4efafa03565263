"""docs/benchmarks.md's "Ray": a sweep of N Cheryl samples on one core (threads=1), on
this machine's threads, and as Ray tasks on a local Ray; the answers compared.

    python3 python/bench/ray_sweep.py stories/cheryl-sample.story 1000000
"""

import sys
import time

import ray

import epipen

story, samples = sys.argv[1], int(sys.argv[2])
start = time.perf_counter()
ray.init()
print(f"ray.init: {time.perf_counter() - start:.2f} s, CPUs: {ray.cluster_resources().get('CPU')}")
# Warm up the workers (they start and import epipen on the first tasks).
epipen.sweep_file(story, samples=20_000, cluster="ray", progress=False)


def timed(**options):
    start = time.perf_counter()
    s = epipen.sweep_file(story, samples=samples, progress=False, **options)
    return time.perf_counter() - start, s


one, s1 = timed(threads=1)
print(f"one core (threads=1): {one:.2f} s")
local, s2 = timed()
print(f"this machine's threads: {local:.2f} s")
on_ray, s3 = timed(cluster="ray")
print(f"ray: {on_ray:.2f} s")
assert str(s1) == str(s2) == str(s3), "different answers"
print(f"ray / one core speed-up: {one / on_ray:.2f}x; counts {s3.counts}")
ray.shutdown()
