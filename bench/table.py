#!/usr/bin/env python3
"""The tables of docs/benchmarks.md, printed, checked, measured again or replaced.

Each table of that page stands between two marker comments:

    <!-- table: NAME | regenerate: COMMAND -->
    *Measured …*            (the date and commit of a pasted table, rewritten by `paste`)
    | id | … | command | epipen | … | measured |
    |---|…|
    | … rows … |
    <!-- end table: NAME -->

Two kinds of tables:

- Tables of single commands, with the columns `id`, `command`, `epipen` and `measured`
  (and others the script leaves as they are: what a row measures, its peer, its
  target). `measure` runs each row's command whose cell starts with `epipen ` (the
  release binary, or EPIPEN), RUNS times as a whole process (posix_spawn + wait4, as
  `epipen bench` does), and writes the least CPU time (user + system) and the largest
  peak memory into the `epipen` cell, today's date and the commit into `measured`.
  Rows whose command is a script (a peer, a sweep, a cargo test) are left as they are:
  their own script regenerates them.
- Tables a family's script prints whole (bench/smcdel.py, bench/planners.py,
  bench/phrasings.sh, bench/plans.py, …): `paste NAME` reads that script's output on
  stdin, takes its first Markdown table, and puts it in place of the old one, with the
  date and the commit in the line above it.

    python3 bench/table.py                          # list the tables: rows, dates, how to regenerate
    python3 bench/table.py print NAME               # print one table's rows
    python3 bench/table.py check                    # exit 1 if a table is malformed
    python3 bench/table.py measure NAME [ID…] [--runs N] [--timeout S] [--write]
    python3 bench/SCRIPT … | python3 bench/table.py paste NAME [--write]

Without --write the new table is printed and the page is left alone. Run from the
repository's root, on a quiet machine: CPU time is the figure compared across dates.
"""
import datetime
import os
import re
import shlex
import signal
import subprocess
import sys
import time

DOC = os.environ.get("BENCH_DOC", "docs/benchmarks.md")
START = re.compile(r"^<!-- table: ([\w-]+)(?: \| regenerate: (.*?))? -->$")
END = "<!-- end table: {} -->"


def load():
    return open(DOC).read().split("\n")


def tables(lines):
    """Each table as (name, regenerate, start index, end index), the markers' lines."""
    found, i = [], 0
    while i < len(lines):
        m = START.match(lines[i])
        if m:
            name = m.group(1)
            try:
                j = lines.index(END.format(name), i + 1)
            except ValueError:
                sys.exit(f"{DOC}:{i + 1}: table {name} has no `{END.format(name)}`")
            found.append((name, m.group(2) or "", i, j))
            i = j
        i += 1
    return found


def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


def join(cs):
    return "|" + "|".join(f" {c} " if c else " " for c in cs) + "|"


def body(lines, start, end):
    """The table's lines: the note lines before the header, the header, the rows."""
    inner = lines[start + 1:end]
    first = next((k for k, l in enumerate(inner) if l.startswith("|")), len(inner))
    notes, table = inner[:first], [l for l in inner[first:] if l.startswith("|")]
    if len(table) < 2:
        return notes, [], []
    return notes, cells(table[0]), [cells(r) for r in table[2:]]


def find(lines, name):
    for t in tables(lines):
        if t[0] == name:
            return t
    sys.exit(f"no table {name} in {DOC}: {', '.join(t[0] for t in tables(lines))}")


def render(head, rows):
    return [join(head), "|" + "---|" * len(head)] + [join(r) for r in rows]


def commit():
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        # The code measured differs from the commit: say so.
        changed = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "crates", "Cargo.lock"]).returncode
        return head + (" + changes" if changed else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def today():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")


def replace(lines, start, end, new):
    return lines[:start + 1] + new + lines[end:]


def run_once(argv, timeout):
    devnull = os.open(os.devnull, os.O_WRONLY)
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1),
                                       (os.POSIX_SPAWN_DUP2, devnull, 2)])
    os.close(devnull)
    began = time.monotonic()
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)
        if time.monotonic() - began > timeout:
            os.kill(pid, 9)
            os.wait4(pid, 0)
            return None, None, None
        time.sleep(0.002)


def figure(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def measure(words, runs, timeout):
    exe = os.environ.get("EPIPEN", "target/release/epipen")
    if not words or words[0] != "epipen":
        return None
    if not os.path.exists(exe):
        sys.exit(f"{exe}: build it first (cargo build --release -p epipen-cli), or set EPIPEN")
    best, peak, codes = None, 0.0, set()
    for _ in range(runs):
        cpu, mb, code = run_once([exe] + words[1:], timeout)
        if cpu is None:
            return f"over {timeout:g} s"
        best = cpu if best is None else min(best, cpu)
        peak, codes = max(peak, mb), codes | {code}
    exit_note = "" if codes <= {0, 1} else f", exit {sorted(codes)}"
    return f"{figure(best)} CPU, {peak:.0f} MB (least of {runs}){exit_note}"


def command_of(cell):
    m = re.fullmatch(r"`([^`]*)`", cell)
    return shlex.split(m.group(1)) if m else None


def main(args):
    write = "--write" in args
    args = [a for a in args if a != "--write"]
    lines = load()
    if not args or args[0] == "list":
        for name, regen, s, e in tables(lines):
            notes, head, rows = body(lines, s, e)
            dates = sorted({m for r in rows for c in r for m in re.findall(r"20\d\d-\d\d-\d\d", c)}
                           | {m for n in notes for m in re.findall(r"20\d\d-\d\d-\d\d", n)})
            span = f"{dates[0]} to {dates[-1]}" if len(dates) > 1 else (dates[0] if dates else "undated")
            print(f"{name:16} {len(rows):4} rows  {span:26} {regen}")
        return 0
    if args[0] == "check":
        bad = 0
        for name, _, s, e in tables(lines):
            _, head, rows = body(lines, s, e)
            if not head:
                print(f"{name}: no table"); bad += 1
            ids = [r[0] for r in rows]
            for r in rows:
                if len(r) != len(head):
                    print(f"{name}: row {r[0]!r} has {len(r)} cells for {len(head)} columns"); bad += 1
            if "id" in head and len(set(ids)) != len(ids):
                print(f"{name}: an id twice"); bad += 1
        return 1 if bad else 0
    if args[0] == "print":
        name, _, s, e = find(lines, args[1])
        print("\n".join(lines[s + 1:e]))
        return 0
    if args[0] == "measure":
        runs, timeout, ids, rest = 3, 120.0, [], args[2:]
        while rest:
            a = rest.pop(0)
            if a == "--runs":
                runs = int(rest.pop(0))
            elif a == "--timeout":
                timeout = float(rest.pop(0))
            else:
                ids.append(a)
        name, _, s, e = find(lines, args[1])
        notes, head, rows = body(lines, s, e)
        for col in ("id", "command", "epipen", "measured"):
            if col not in head:
                sys.exit(f"table {name} has no `{col}` column: paste it from its script instead")
        c_cmd, c_fig, c_when = head.index("command"), head.index("epipen"), head.index("measured")
        stamp = f"{today()}, {commit()}"
        for r in rows:
            if ids and r[0] not in ids:
                continue
            words = command_of(r[c_cmd])
            fig = measure(words, runs, timeout) if words else None
            if fig is None:
                print(f"{r[0]}: not a single epipen command, left as it is", file=sys.stderr)
                continue
            r[c_fig], r[c_when] = fig, stamp
            print(f"{r[0]}: {fig}", file=sys.stderr, flush=True)
        new = notes + render(head, rows)
    elif args[0] == "paste":
        name, _, s, e = find(lines, args[1])
        text = [l for l in sys.stdin.read().split("\n")]
        table = []
        for l in text:
            if l.startswith("|"):
                table.append(l)
            elif table:
                break
        if len(table) < 2:
            sys.exit("no Markdown table on stdin")
        head, rows = cells(table[0]), [cells(r) for r in table[2:]]
        notes = [f"*Measured {today()} at {commit()}.*", ""]
        new = notes + render(head, rows)
    else:
        print(__doc__)
        return 2
    if write:
        open(DOC, "w").write("\n".join(replace(lines, s, e, new)))
        print(f"{DOC}: table {name} rewritten", file=sys.stderr)
    else:
        print("\n".join(new))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `… | head` ends quietly
    sys.exit(main(sys.argv[1:]))
