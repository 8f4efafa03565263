"""The `epipen` command the package installs: the same program and output as the one
cargo builds."""

import re

import epipen
from conftest import cli


def test_worlds_of_cheryl():
    done = cli("worlds", "stories/cheryl.story", check=0)
    assert done.stdout == "1 possible world:\n  month = 7, day = 16\n(and that's all)\n"


def test_version_names_z3():
    done = cli("--version", check=0)
    assert done.stdout == f"epipen {epipen.__version__} (Z3 5.4.0.0)\n"


def test_exit_codes_and_errors(tmp_path):
    bad = tmp_path / "bad.story"
    bad.write_text("characters A\nannounce x\n")
    done = cli("worlds", bad, check=2)
    assert done.stderr.startswith(f"{bad}:2:10: error: unknown name `x`")
    assert cli("worlds", "no/such.story").returncode == 2
    assert cli("--nonsense").returncode == 2


def test_the_other_commands():
    trace = cli("run", "--trace", "stories/cheryl.story", check=0).stdout
    assert "=>  1 world (2 eliminated)" in trace
    dot = cli("graph", "stories/cheryl.story", "--at", "whispered", check=0).stdout
    assert dot.startswith("graph epistemic_model {")
    sweep = cli("sweep", "stories/muddy-children.story", "--set", "n=2..3", check=0).stdout
    assert sweep.splitlines()[0].split()[:2] == ["n", "worlds"]
    assert "1 hint verified" in cli("check", "stories/who-has-the-sum.story", check=0).stdout


def test_bench_runs_stories_with_this_command():
    done = cli("bench", "stories/cheryl.story", "--runs", "1", check=0)
    assert re.search(r"cheryl", done.stdout)
