#!/usr/bin/env python3
"""epipen beside deep (the mA* epistemic planner, successor of EFP 2.0) on deep's own
benchmark files (docs/benchmarks.md, "Planners: epipen beside deep"), in one run: for each file of
the chosen families of deep's `exp/all/`, RUNS runs of each side, interleaved (epipen,
deep, epipen, ...), each a whole process; prints a Markdown table of the least CPU time
(user + system, from wait4), the largest peak memory (max RSS) and the plan length each
side found, and whether deep's `--execute_actions` replays epipen's plan and reaches the
goal (`valid`; `replay > T s` when deep's replay takes longer than the timeout).

deep is GPL-3.0: its files are read from a checkout of it whose path is the first
argument (`fetch github:FrancescoFabiano/deep`, then `git --git-dir=… archive HEAD | tar
-x -C DIR`; the commit measured is in docs/benchmarks.md), never copied into this
repository. deep's column needs its binary, built as ../shared/peers/deep.md says (the
path in $DEEP, else DIR/cmake-build-release/bin/deep); without it the column is skipped
and epipen's side runs alone. deep runs breadth-first (its default) in a scratch folder.
epipen is target/release/epipen (cargo build --release -p epipen-cli) unless $EPIPEN says
otherwise.

    python3 bench/planners.py DEEP_DIR [RUNS] [TIMEOUT] [FAMILY...]

FAMILY is a folder of exp/all (CoinBox, Grapevine, SC, SC_Multi, CC, Assemble); default:
all six. Files whose name says `wrong` or `test` are left out. A side that exceeds
TIMEOUT seconds on a file is not run on the larger files of that folder ("—").
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if len(sys.argv) < 2 or not os.path.isdir(os.path.join(sys.argv[1], "exp", "all")):
    sys.exit(__doc__)
deep_dir = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
timeout = float(sys.argv[3]) if len(sys.argv) > 3 else 120.0
chosen = sys.argv[4:] or ["CoinBox", "Grapevine", "SC", "SC_Multi", "CC", "Assemble"]

epipen = os.environ.get("EPIPEN", os.path.join(ROOT, "target/release/epipen"))
deep = os.environ.get("DEEP", os.path.join(deep_dir, "cmake-build-release", "bin", "deep"))
if not os.path.exists(deep):
    deep = None
scratch = tempfile.mkdtemp(prefix="planners-")


def files(family):
    """The family's files, smallest instance and shortest plan first."""
    out = []
    for d, _, names in os.walk(os.path.join(deep_dir, "exp", "all", family)):
        for n in names:
            if n.endswith(".txt") and "wrong" not in n and "test" not in n:
                out.append(os.path.join(d, n))

    def order(path):
        nums = [int(x) for x in re.findall(r"\d+", os.path.basename(path))]
        return (os.path.dirname(path), nums)

    return sorted(out, key=order)


def once(cmd, cwd):
    """(cpu seconds, peak MB, stdout) of one whole process, or None past the timeout."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd,
                         start_new_session=True)
    killed = []

    def kill():
        killed.append(True)
        os.killpg(p.pid, signal.SIGKILL)

    timer = threading.Timer(timeout, kill)
    timer.start()
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    if killed:
        return None
    cpu = usage.ru_utime + usage.ru_stime
    return cpu, usage.ru_maxrss / 1024, out.decode(errors="replace")


def epipen_length(out):
    m = re.search(r"plan of (\d+) action", out)
    if m:
        return m.group(1)
    return "none" if out.startswith("no plan") else "?"


def deep_length(out):
    m = re.search(r"Plan length:\s*(\d+)", out)
    if m:
        return m.group(1)
    return "none" if "No goal found" in out else "?"


def epipen_plan(out):
    m = re.search(r"plan of \d+ actions?: (.*)", out)
    return [] if not m or m.group(1) == "(none needed)" else m.group(1).split(", ")


def valid(path, plan):
    """Whether deep replays `plan` on `path` and reaches the goal with its last action
    (None: the replay took longer than the timeout)."""
    try:
        p = subprocess.run([deep, path, "-e", "-a", *plan], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, cwd=scratch, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    out = p.stdout.decode(errors="replace")
    return (p.returncode == 0 and "Goal found" in out and f"Plan length: {len(plan)}" in out
            and "Plan found before" not in out)


def cell(samples):
    if samples is None:
        return "—", "—"
    if samples == "timeout":
        return f"> {timeout:g} s", ""
    cpu = min(s[0] for s in samples)
    mem = max(s[1] for s in samples)
    return f"{cpu:.2f} s", f"{mem:.0f} MB"


print(f"epipen: {epipen}" + ("" if os.path.exists(epipen) else " (missing: cargo build --release -p epipen-cli)"))
print(f"deep: {deep or 'not built (../shared/peers/deep.md): its column is skipped'}")
print(f"{runs} runs of each, interleaved; CPU = least user + system, memory = largest max RSS; "
      f"timeout {timeout:g} s\n")
head = "| file | epipen CPU | epipen memory | epipen length |"
if deep:
    head += " deep CPU | deep memory | deep length | deep / epipen | epipen's plan in deep |"
print(head)
print("|" + "---|" * (head.count("|") - 1))
for family in chosen:
    dead = {"epipen": None, "deep": None}
    for path in files(family):
        folder = os.path.dirname(path)
        sides = {"epipen": [epipen, "plan", path, "--timeout", str(int(timeout))]}
        if deep:
            sides["deep"] = [deep, path]
        samples = {name: ([] if dead[name] != folder else None) for name in sides}
        lengths = {name: "" for name in sides}
        plan = None
        for _ in range(runs):
            for name, cmd in sides.items():
                if not isinstance(samples[name], list):
                    continue
                r = once(cmd, scratch)
                if r is None:
                    samples[name] = "timeout"
                    dead[name] = folder
                    continue
                samples[name].append(r)
                lengths[name] = (epipen_length if name == "epipen" else deep_length)(r[2])
                if name == "epipen":
                    plan = epipen_plan(r[2])
        cpu, mem = cell(samples["epipen"])
        row = f"| {os.path.basename(path)[:-4]} | {cpu} | {mem} | {lengths['epipen']} |"
        if deep:
            dcpu, dmem = cell(samples["deep"])
            ratio = ""
            if isinstance(samples["epipen"], list) and isinstance(samples["deep"], list):
                e = min(s[0] for s in samples["epipen"])
                d = min(s[0] for s in samples["deep"])
                ratio = f"{d / e:.1f}x" if e > 0.005 else f"> {d / 0.005:.0f}x"
            replayed = valid(path, plan) if plan else ""
            checked = {True: "valid", False: "**invalid**", None: f"replay > {timeout:g} s",
                       "": ""}[replayed]
            row += f" {dcpu} | {dmem} | {lengths['deep']} | {ratio} | {checked} |"
        print(row, flush=True)
