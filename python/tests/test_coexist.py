"""epipen beside z3-solver (EpiPEn pins 4.13.3) in one process, imported in both orders:
each solves with its own Z3. Runs in an environment with z3-solver==4.13.3."""

import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT

SOLVE_BOTH = """
import epipen, z3

x = z3.Int("x")
s = z3.Solver()
s.add(x * x == 49, x > 0)
assert s.check() == z3.sat and s.model()[x].as_long() == 7
r = epipen.run_file("stories/cheryl.story")
assert r.worlds == [{"month": 7, "day": 16}]
r = epipen.run("characters A\\nint x\\nannounce x * x == 49 and x > 0\\n", backend="z3")
assert r.worlds == [{"x": 7}]
s2 = z3.Solver()
s2.add(z3.Int("y") > 2)
assert s2.check() == z3.sat
maps = open("/proc/self/maps").read()
libs = sorted({line.split()[-1] for line in maps.splitlines() if "libz3" in line})
print(z3.get_full_version(), epipen.z3_version(), len(libs))
for lib in libs:
    print(lib)
"""


@pytest.mark.parametrize("first", ["epipen", "z3"])
def test_both_load_and_solve(first):
    code = f"import {first}\n" + SOLVE_BOTH
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.split("\n")
    assert lines[0] == "4.13.3.0 5.4.0.0 2"
    # Two libraries, each package's own: epipen's renamed under epipen.libs.
    ours = [l for l in lines[1:3] if "/epipen.libs/libz3-" in l]
    theirs = [l for l in lines[1:3] if "/z3/lib/libz3.so" in l]
    assert len(ours) == 1 and len(theirs) == 1, lines
