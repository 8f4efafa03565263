"""epipen.sweep: the same distributions as `epipen sweep`, in chunks, on any number of
threads; errors before the sweep starts; the progress bar."""

import pytest

import epipen
from conftest import STORIES, cli, in_pythons_words

SAMPLE = STORIES / "cheryl-sample.story"


def cli_sweep(*args) -> str:
    """What `epipen sweep ARGS` prints, in Python's words (`seed=3` where the command
    line says `--seed 3`)."""
    return in_pythons_words(cli("sweep", *args, check=0).stdout)


def test_samples_give_the_clis_distribution():
    s = epipen.sweep_file(SAMPLE, samples=40, seed=1)
    assert str(s) == cli_sweep(SAMPLE, "--samples", "40", "--seed", "1")
    assert s.counts == {0: 35, 1: 3, 2: 2}
    assert s.runs == 40 and s.failed == 0
    (g,) = s.groups
    assert g.first_unique["seed"] == 3
    assert g.first_unique["world"] == {"month": 6, "day": 25}
    # What the sample drew, as values: (line, [(month, day), …]).
    assert g.first_unique["drew"] == [
        (11, [(3, 25), (3, 26), (3, 27), (4, 16), (4, 18), (5, 28), (6, 16), (6, 18), (6, 25), (7, 25)])
    ]
    assert "  line 11: drew {(3, 25), (3, 26), (3, 27), (4, 16), (4, 18), (5, 28), (6, 16), (6, 18), (6, 25), (7, 25)}\n" in str(s)
    # The seed named as Python names the argument, never the command line's `--seed`.
    assert "first sample with exactly one world: seed=3\n" in str(s) and "--seed" not in str(s)
    assert g.share(0) == 87.5


def test_many_chunks_and_any_number_of_threads_give_the_same_answer():
    # 2100 samples: three chunks, of 1000, 1000 and 100.
    s = epipen.sweep_file(SAMPLE, samples=2100, seed=7)
    assert str(s) == cli_sweep(SAMPLE, "--samples", "2100", "--seed", "7")
    one = epipen.sweep_file(SAMPLE, samples=2100, seed=7, threads=1)
    assert (one.counts, one.groups[0].first_unique) == (s.counts, s.groups[0].first_unique)
    assert sum(s.counts.values()) == 2100
    # The sweep is the mapping of its counts.
    assert dict(s) == s.counts and s == one and sum(s.values()) == 2100
    assert s[0] == s.counts[0] and len(s) == len(s.counts) and list(s) == list(s.counts)


def test_seeds_wrap_past_2_to_the_64():
    s = epipen.sweep_file(SAMPLE, samples=4, seed=2**64 - 2)
    assert str(s).startswith("4 samples (seeds 18446744073709551614 to 1):\n")
    assert str(s) == cli_sweep(SAMPLE, "--samples", "4", "--seed", str(2**64 - 2))


def test_values_give_a_row_per_run():
    s = epipen.sweep_file(STORIES / "muddy-children.story", sets={"n": range(2, 5), "k": [1, 2]})
    assert [(r.sets, r.worlds) for r in s.rows][:2] == [({"n": 2, "k": 1}, 1), ({"n": 2, "k": 2}, 1)]
    assert s.rows[-1].world == {"muddy[0]": True, "muddy[1]": True, "muddy[2]": False, "muddy[3]": False}
    assert s.counts == {1: 6}
    lines = str(s).splitlines()
    assert lines[0].split() == ["n", "k", "worlds", "time", "the", "world,", "when", "one"]
    assert lines[1].startswith("2  1  1 world") and lines[1].endswith("muddy[0] = true, muddy[1] = false")


def test_failed_runs_are_counted_and_the_sweep_goes_on():
    s = epipen.sweep_file(STORIES / "muddy-children.story", sets={"n": [-1, 2], "k": 1})
    bad, good = s.rows
    assert bad.worlds is None and bad.code == 2
    assert bad.error == "line 7: a family cannot have -1 members"
    assert good.worlds == 1 and s.failed == 1
    assert "error" in str(s).splitlines()[1]


def test_what_no_value_changes_is_checked_first():
    with pytest.raises(epipen.StoryError) as e:
        epipen.sweep("characters A\nint x\nannounce y > 0\n", samples=10)
    assert (e.value.line, e.value.column) == (3, 10)
    with pytest.raises(epipen.StoryError, match="has no `const nope`"):
        epipen.sweep_file(SAMPLE, sets={"nope": [1, 2]})
    with pytest.raises(epipen.StoryError, match="draws nothing with `sample") as e:
        epipen.sweep_file(STORIES / "cheryl.story", samples=10)
    # In Python's words: the argument, not the command line's flag.
    assert e.value.message.startswith("samples=10: ") and "--" not in str(e.value)
    assert e.value.hint.endswith("or sweep values of its consts (sets=) instead")
    with pytest.raises(ValueError, match="more than the 1000000 it makes at most"):
        epipen.sweep_file(SAMPLE, samples=10**6, sets={"x": range(2)})
    with pytest.raises(ValueError, match="samples"):
        epipen.sweep_file(SAMPLE, samples=0)
    with pytest.raises(ValueError, match='None \\(this machine\\) or "ray"'):
        epipen.sweep_file(SAMPLE, samples=10, cluster="dask")


def test_ray_missing_says_how_to_get_it():
    try:
        import ray  # noqa: F401

        pytest.fail("this environment must not have Ray: the Ray test has its own")
    except ImportError:
        pass
    # No package "epipen" is on PyPI: the message names the checkout's extra.
    with pytest.raises(ImportError, match=r'needs Ray, which is not installed: pip install "\./python\[ray\]"'):
        epipen.sweep_file(SAMPLE, samples=10, cluster="ray")


def test_progress_in_a_terminal(capfd):
    epipen.sweep_file(SAMPLE, samples=2001, seed=1, progress=True)
    err = capfd.readouterr().err
    assert "sweep: 1000/2001 runs" in err and "sweep: 2001/2001 runs" in err
    assert err.endswith("\r\x1b[2K")
    epipen.sweep_file(SAMPLE, samples=10, seed=1, progress=False)
    assert capfd.readouterr().err == ""


def test_to_pandas():
    s = epipen.sweep_file(SAMPLE, samples=40, seed=1)
    df = s.to_pandas()
    assert list(df["worlds"]) == [0, 1, 2] and list(df["samples"]) == [35, 3, 2]
    rows = epipen.sweep_file(STORIES / "muddy-children.story", sets={"n": [2, 3], "k": 1}).to_pandas()
    assert list(rows.columns) == ["n", "k", "worlds", "world", "error", "ms"]


def test_values_and_samples_give_a_group_per_value(tmp_path):
    from conftest import DRAWS

    path = tmp_path / "draws.story"
    path.write_text(DRAWS)
    s = epipen.sweep_file(path, samples=30, sets={"m": range(2, 5)}, seed=5)
    assert [g.sets for g in s.groups] == [{"m": 2}, {"m": 3}, {"m": 4}]
    assert str(s) == cli_sweep(path, "--samples", "30", "--set", "m=2..4", "--seed", "5")
    assert s.runs == 90 and sum(s.counts.values()) == 90



def test_what_a_sample_drew_is_values(tmp_path):
    # A draw of one value is that value (an enum's by its variant's name), a draw of
    # tuples tuples; an item that names a constant has no value before the run: its text.
    path = tmp_path / "kinds.story"
    path.write_text(
        "characters A\nenum Colour { red, green }\nColour c\nint x\nbool p\n"
        "announce c in sample(1, {red, green})\n"
        "announce (x, p) in sample(1, {(1, true), (2, false)})\n"
        "announce x in sample(1, {x})\n"
    )
    s = epipen.sweep_file(path, samples=3)
    drew = s.first_unique["drew"]
    assert [line for line, _ in drew] == [6, 7, 8]
    (colour,), (pair,), (named,) = (items for _, items in drew)
    assert colour in ("red", "green") and pair in ((1, True), (2, False)) and named == "x"
    assert s.first_unique["world"] == {"c": colour, "x": pair[0], "p": pair[1]}
    assert str(s) == cli_sweep(path, "--samples", "3")
