"""Run by `cargo test` with the Python of a fresh virtual environment where only the
epipen wheel is installed (no z3-solver, no pytest): the package needs nothing else."""

import importlib.metadata
import importlib.util
import os
import pathlib
import subprocess
import sys

import epipen

root = pathlib.Path(os.environ["EPIPEN_ROOT"])
assert importlib.util.find_spec("z3") is None, "z3-solver is installed"
installed = sorted(d.metadata["Name"].lower() for d in importlib.metadata.distributions())
assert [n for n in installed if n not in ("pip", "setuptools")] == ["epipen"], installed

r = epipen.run_file(root / "stories" / "cheryl.story")
assert r.worlds == [{"month": 7, "day": 16}], r.worlds
r = epipen.run_file(root / "stories" / "consecutive-numbers.story", backend="z3")
assert r.worlds == [{"A": 1, "B": 2}, {"A": 2, "B": 3}], r.worlds
assert epipen.z3_version() == "5.4.0.0"

# The Z3 loaded is the wheel's own copy.
maps = open("/proc/self/maps").read()
libs = {line.split()[-1] for line in maps.splitlines() if "libz3" in line}
here = pathlib.Path(epipen.__file__).resolve().parent.parent
assert len(libs) == 1 and next(iter(libs)).startswith(str(here / "epipen.libs")), libs

bin_dir = pathlib.Path(sys.executable).parent
done = subprocess.run([str(bin_dir / "epipen"), "worlds", "stories/cheryl.story"], cwd=root, capture_output=True, text=True)
assert done.returncode == 0 and "month = 7, day = 16" in done.stdout, done
print("clean venv: ok")
