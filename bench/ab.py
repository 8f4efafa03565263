#!/usr/bin/env python3
"""Compares epipen binaries on one command, interleaved, on a shared machine.

Runs each binary of $BINS (space-separated paths) on the same arguments, N rounds,
alternating between them so that load from other work falls on all of them alike, and
prints each binary's least CPU time (user + system) over the rounds:

    cargo build --release && cp target/release/epipen /tmp/epipen-new
    git stash && cargo build --release && cp target/release/epipen /tmp/epipen-old && git stash pop
    BINS="/tmp/epipen-old /tmp/epipen-new" python3 bench/ab.py 5 worlds --set n=1000 stories/drinking-logicians.story
"""
import os
import resource
import subprocess
import sys


def main() -> None:
    if len(sys.argv) < 3 or "BINS" not in os.environ:
        sys.exit(__doc__)
    rounds, args = int(sys.argv[1]), sys.argv[2:]
    bins = os.environ["BINS"].split()
    best = {b: float("inf") for b in bins}
    for _ in range(rounds):
        for b in bins:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([b, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            best[b] = min(best[b], cpu)
    for b in bins:
        print(f"{b} {best[b]:.3f} s")


if __name__ == "__main__":
    main()
