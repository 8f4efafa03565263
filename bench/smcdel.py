#!/usr/bin/env python3
"""epipen beside SMCDEL 1.3.0 on the field's families (docs/benchmarks.md, "The
field's families, beside SMCDEL"), in one run: for each family and size, RUNS runs of each side, interleaved
(epipen, SMCDEL, epipen, ...), each a whole process; prints a Markdown table of the least
CPU time (user + system, from wait4) and the median wall time of each side, the ratio of
CPU times, and what each side answered (epipen's first line of `worlds`, from one more,
untimed run that lists every world; SMCDEL's output).
A side that exceeds TIMEOUT seconds at one size is not run at the larger sizes of that
family ("—").

SMCDEL's column needs `smcdel-bench`, built from source as ../shared/peers/smcdel.md says
(the path in $SMCDEL_BENCH, or `smcdel-bench` on the PATH); without it the column is
skipped and epipen's side runs alone. epipen is target/release/epipen
(cargo build --release -p epipen-cli) unless $EPIPEN says otherwise.

    python3 bench/smcdel.py [RUNS] [TIMEOUT] [FAMILY...]

FAMILY is one of the names below (muddy, dc, dl, ws, sap, gossip, rc); default: all.
"""
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 120.0
chosen = sys.argv[3:]

epipen = os.environ.get("EPIPEN", os.path.join(ROOT, "target/release/epipen"))
smcdel = os.environ.get("SMCDEL_BENCH") or shutil.which("smcdel-bench")
if smcdel and not os.path.exists(smcdel):
    smcdel = None


def story(name, *sets):
    cmd = [epipen, "worlds", "--timeout", str(int(timeout)), os.path.join(ROOT, "stories", name)]
    for s in sets:
        cmd += ["--set", s]
    return cmd


# (family, title, [(size label, epipen command, SMCDEL arguments)])
FAMILIES = [
    ("muddy", "muddy children, all muddy (SMCDEL: mc-seq, one update per round)",
     [(f"n = {n}", story("muddy-children.story", f"n={n}", f"k={n}"), ["mc-seq", str(n)])
      for n in (40, 100, 200, 300, 400, 600)]),
    ("dc", "dining cryptographers, a ring (SMCDEL: dc-ring)",
     [(f"n = {n}", story("dining-cryptographers.story", f"n={n}"), ["dc-ring", str(n)])
      for n in (50, 200, 400, 800)]),
    ("dl", "drinking logicians (SMCDEL: dl)",
     [(f"n = {n}", story("drinking-logicians.story", f"n={n}"), ["dl", str(n)])
      for n in (200, 400, 1000)]),
    ("ws", "What Sum (SMCDEL: ws)",
     [(f"B = {b}", story("what-sum.story", f"B={b}"), ["ws", str(b)]) for b in (50, 100, 200)]),
    ("sap", "Sum and Product, x + y ≤ 100 (SMCDEL: sap)",
     [("", story("sum-and-product.story"), ["sap"])]),
    ("gossip", "gossip, calls 12;34;13;24 (SMCDEL: gossip-good)",
     [("n = 4", story("gossip.story"), ["gossip-good"])]),
    ("rc", "Russian cards, one announcement checked (SMCDEL: rc-one)",
     [("", story("russian-cards.story"), ["rc-one"])]),
]


def once(cmd):
    """(cpu seconds, wall seconds, first line of output) of one whole process, or None past the timeout."""
    env = dict(os.environ, LC_ALL="C.UTF-8")
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None
    wall = time.perf_counter() - start
    # communicate() reaped the child: its rusage is in RUSAGE_CHILDREN, read as a difference
    return wall, out.decode(errors="replace").strip().splitlines()[:1], p.returncode


def measure(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = once(cmd)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r is None:
        return None
    wall, first, code = r
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    answer = (first[0] if first else "") if code == 0 else f"exit {code}"
    return cpu, wall, answer


def cell(samples):
    if samples is None:
        return "—"
    if samples == "timeout":
        return f"> {timeout:g} s"
    cpu = min(s[0] for s in samples)
    wall = statistics.median(s[1] for s in samples)
    return f"{cpu:.2f} s ({wall:.2f} s)"


def short(text, width=40):
    return text if len(text) <= width else text[: width - 1] + "…"


print(f"epipen: {epipen}" + ("" if os.path.exists(epipen) else " (missing: cargo build --release -p epipen-cli)"))
print(f"SMCDEL: {smcdel or 'not built (../shared/peers/smcdel.md): its column is skipped'}")
print(f"{runs} runs of each, interleaved; CPU = least user + system, (wall = median); timeout {timeout:g} s\n")
head = "| family | size | epipen CPU (wall) | "
head += "SMCDEL CPU (wall) | SMCDEL / epipen | epipen says | SMCDEL says |" if smcdel else "epipen says |"
print(head)
print("|" + "---|" * (head.count("|") - 1))
for key, title, sizes in FAMILIES:
    if chosen and key not in chosen:
        continue
    dead = {"epipen": False, "smcdel": False}
    for label, ecmd, sargs in sizes:
        sides = {"epipen": ecmd}
        if smcdel:
            sides["smcdel"] = [smcdel] + sargs
        samples = {name: ([] if not dead[name] else None) for name in sides}
        answers = {name: "" for name in sides}
        for _ in range(runs):
            for name, cmd in sides.items():
                if not isinstance(samples[name], list):
                    continue
                r = measure(cmd)
                if r is None:
                    samples[name] = "timeout"
                    dead[name] = True
                    continue
                samples[name].append(r)
                answers[name] = r[2]
        if isinstance(samples["epipen"], list):
            # the answer from one more run that lists every world (not timed: printing them costs)
            r = measure(ecmd + ["--limit", "1000000"])
            answers["epipen"] = r[2] if r else answers["epipen"]
        row = f"| {title} | {label} | {cell(samples['epipen'])} | "
        if smcdel:
            ratio = ""
            if isinstance(samples["epipen"], list) and isinstance(samples["smcdel"], list):
                e = min(s[0] for s in samples["epipen"])
                s = min(s[0] for s in samples["smcdel"])
                ratio = f"{s / e:.1f}x" if e > 0.005 else f"> {s / 0.005:.0f}x"
            row += f"{cell(samples['smcdel'])} | {ratio} | `{short(answers['epipen'])}` | `{short(answers['smcdel'])}` |"
        else:
            row += f"`{short(answers['epipen'])}` |"
        print(row, flush=True)
