"""docs/benchmarks.md: a sweep on one thread, the command line (RAYON_NUM_THREADS=1) and
Python (threads=1) interleaved, their CPU times compared.

    python3 python/bench/sweep_cpu.py target/release/epipen stories/cheryl-sample.story 10000 7
"""
import os, subprocess, sys, time, statistics
import epipen
cli, story, n, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
env = dict(os.environ, RAYON_NUM_THREADS="1")
a, b = [], []
for _ in range(rounds):
    child = subprocess.Popen([cli, "sweep", story, "--samples", str(n)], stdout=subprocess.DEVNULL, env=env)
    _, st, u = os.wait4(child.pid, 0)
    a.append(u.ru_utime + u.ru_stime)
    c = time.process_time()
    epipen.sweep_file(story, samples=n, threads=1, progress=False)
    b.append(time.process_time() - c)
print("cli cpu min %.3f med %.3f | py cpu min %.3f med %.3f | ratio min %.3f med %.3f" % (min(a), statistics.median(a), min(b), statistics.median(b), min(b)/min(a), statistics.median(b)/statistics.median(a)))
