"""Shared fixtures of the package's tests. `cargo test` runs them
(crates/epipen-python/tests/python.rs) in virtual environments where the package is
installed from the wheel it has just built; EPIPEN_ROOT is the repository's root."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(os.environ.get("EPIPEN_ROOT", pathlib.Path(__file__).resolve().parents[2]))
STORIES = ROOT / "stories"

# A story Z3 searches for as long as it is let: a counterexample to Fermat's n = 3 (there
# is none).
FERMAT = """characters A
int x, y, z
announce x > 1 and y > 1 and z > 1 and x*x*x + y*y*y == z*z*z
"""


def epipen_command() -> str:
    """The `epipen` command this environment installed with the package."""
    here = pathlib.Path(sys.executable).parent / "epipen"
    found = str(here) if here.exists() else shutil.which("epipen")
    assert found, "the package installed no `epipen` command"
    return found


def cli(*args, cwd=ROOT, check=None):
    """Runs the installed `epipen` command; returns the completed process."""
    done = subprocess.run([epipen_command(), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300)
    if check is not None:
        assert done.returncode == check, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


# Where the command line's text names one of its flags, Python's names its own argument
# (or attribute) instead; the rest is the same text.
PYTHONS_WORDS = [
    ("(more worlds exist; raise --limit to see more)", "(more worlds exist; raise limit= to see more)"),
    ("; --json lists them)", "; the trace's `fates` lists them)"),
    ("first sample with exactly one world: --seed ", "first sample with exactly one world: seed="),
]


def in_pythons_words(text: str) -> str:
    """The command line's output `text` as Python prints it: its flags named as Python
    names its arguments."""
    for cli_words, python_words in PYTHONS_WORDS:
        text = text.replace(cli_words, python_words)
    return text


@pytest.fixture
def stories():
    return STORIES


@pytest.fixture
def fermat(tmp_path):
    path = tmp_path / "fermat.story"
    path.write_text(FERMAT)
    return path

# Random dates, a const drawing how many: a sweep over both values and samples.
DRAWS = """const m = 3
characters Albert, Bernard
int month, day
announce (month, day) in sample(m, {(5, 15), (5, 16), (6, 17), (6, 18), (7, 14), (7, 16), (8, 14), (8, 17)})
Albert learns month
Bernard learns day
Albert: knows_value(month, day)
Bernard: knows_value(month, day)
"""
