#!/usr/bin/env python3
"""Plans (issue 41; docs/benchmarks.md, "Plans"): each planning story on each backend
that takes it, at the sizes the issue's targets name, as whole processes (`epipen run`,
posix_spawn + wait4): the least CPU time (user + system) of RUNS runs, the peak memory,
and the answer's first plan line. A run over TIMEOUT seconds is reported as such.

    python3 bench/plans.py [RUNS] [TIMEOUT]

Needs a release build (cargo build --release -p epipen-cli); EPIPEN names another binary.
"""
import os
import subprocess
import sys

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 60
exe = os.environ.get("EPIPEN", "target/release/epipen")

CASES = [
    ("door-mat", [], ["explicit", "bdd", "z3"]),
    ("muddy-planning", [], ["explicit", "bdd", "z3"]),
    ("letter-passing", ["n=3"], ["explicit", "bdd", "z3"]),
    ("letter-passing", ["n=10"], ["explicit", "bdd"]),
    ("gossip-calls", ["n=4"], ["explicit", "bdd", "z3"]),
    ("gossip-calls", ["n=5"], ["explicit"]),
    ("gossip-calls", ["n=6"], ["explicit"]),
    ("consecutive-numbers-plan", [], ["z3"]),
    ("russian-cards-safe", [], ["explicit", "bdd"]),
    ("russian-cards-safe", ["every=1"], ["explicit", "bdd"]),
    ("russian-cards-safe", ["two_steps=1"], ["explicit", "bdd"]),
    ("toynabi", [], ["explicit", "bdd", "z3"]),
    ("toynabi", ["cards=4"], ["explicit"]),
]


def run(story, sets, backend):
    args = [exe, "run", "--timeout", str(timeout), f"stories/{story}.story", "--backend", backend]
    for s in sets:
        args += ["--set", s]
    best, peak, answer = None, 0.0, ""
    for _ in range(runs):
        r, w = os.pipe()
        devnull = os.open(os.devnull, os.O_WRONLY)
        pid = os.posix_spawn(
            exe, args, os.environ,
            file_actions=[(os.POSIX_SPAWN_DUP2, w, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)],
        )
        os.close(w)
        os.close(devnull)
        out = b""
        while chunk := os.read(r, 65536):
            out += chunk
        os.close(r)
        _, status, usage = os.wait4(pid, 0)
        cpu = usage.ru_utime + usage.ru_stime
        best = cpu if best is None else min(best, cpu)
        peak = max(peak, usage.ru_maxrss / 1024)
        lines = [l for l in out.decode().splitlines() if "plan" in l]
        answer = lines[0] if lines else "(no plan line)"
        if os.waitstatus_to_exitcode(status) not in (0, 1) or cpu >= timeout:
            answer = f"exit {os.waitstatus_to_exitcode(status)} (timeout {timeout:g} s?)"
            break
    return best, peak, answer


if not os.path.exists(exe):
    sys.exit(f"{exe}: build it first (cargo build --release -p epipen-cli)")
print("| story | backend | least CPU | peak MB | first plan |")
print("|---|---|---|---|---|")
for story, sets, backends in CASES:
    if not os.path.exists(f"stories/{story}.story"):
        continue
    for backend in backends:
        cpu, mb, answer = run(story, sets, backend)
        name = story + "".join(f" `{s}`" for s in sets)
        answer = answer.split(": ", 1)[-1] if ": plan" in answer or "plan of" in answer else answer
        print(f"| {name} | {backend} | {cpu:.3f} s | {mb:.0f} | {answer[:90]} |", flush=True)
