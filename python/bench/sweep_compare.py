"""docs/benchmarks.md's "sweep" row (a sweep from Python beside the command line): the same sweep
as a process of the native `epipen` (`epipen sweep STORY --samples N`) and as a Python
call (`epipen.sweep_file(STORY, samples=N)`), ROUNDS rounds, interleaved; the answers
compared.

    python3 python/bench/sweep_compare.py target/release/epipen stories/cheryl-sample.story 10000 5
"""

import os
import statistics
import subprocess
import sys
import time

import epipen

cli, story, samples, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
native, python, whole = [], [], []
native_cpu, python_cpu = [], []
for _ in range(rounds):
    start = time.perf_counter()
    child = subprocess.Popen([cli, "sweep", story, "--samples", str(samples)], stdout=subprocess.PIPE, text=True)
    out = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    assert status == 0
    native.append(time.perf_counter() - start)
    native_cpu.append(usage.ru_utime + usage.ru_stime)
    start, cpu = time.perf_counter(), time.process_time()
    s = epipen.sweep_file(story, samples=samples, progress=False)
    python.append(time.perf_counter() - start)
    python_cpu.append(time.process_time() - cpu)
    assert str(s) == out, "different answers"
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", f"import epipen; epipen.sweep_file({story!r}, samples={samples}, progress=False)"], check=True
    )
    whole.append(time.perf_counter() - start)
show = lambda ts: f"median {statistics.median(ts):.3f} s, min {min(ts):.3f} s"
print(f"epipen sweep (process):      {show(native)}")
print(f"epipen.sweep_file (call):    {show(python)}")
print(f"python -c epipen.sweep_file: {show(whole)}")
print(f"call / process: {min(python) / min(native):.3f} (min), {statistics.median(python) / statistics.median(native):.3f} (median)")
print(f"CPU time: process {show(native_cpu)}; call {show(python_cpu)}; call / process {min(python_cpu) / min(native_cpu):.3f} (min)")
