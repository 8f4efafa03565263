"""The contract between the package and the command line: for every story of
stories/ (and for bad stories), Python's ``str()`` of a result is exactly what the
``epipen`` command prints, because both print what one renderer (``epipen::text``)
writes from the same views; where the command line's text names one of its flags,
Python's names its own argument (conftest.in_pythons_words)."""

import json
from fractions import Fraction

import pytest

import epipen
from conftest import STORIES, cli, in_pythons_words

ALL = sorted(STORIES.glob("*.story"))


def test_there_are_stories():
    assert len(ALL) >= 20


@pytest.mark.parametrize("story", ALL, ids=[p.stem for p in ALL])
def test_python_prints_what_the_cli_prints(story):
    result = epipen.run_file(story, limit=10)
    run = cli("run", story)
    assert run.returncode in (0, 1), run.stderr
    assert str(result) == run.stdout
    assert str(result.worlds) == in_pythons_words(cli("worlds", story, check=0).stdout)
    # The worlds as data are `epipen worlds --json`'s (serde of the same view).
    listed = json.loads(cli("worlds", "--json", story, check=0).stdout)
    # A story with chances: each world's object also carries its probability, which
    # Python gives as `World.probability` (a Fraction), not as a constant.
    chances = [w.pop("probability", None) for w in listed["worlds"]]
    assert [dict(w) for w in result.worlds] == listed["worlds"]
    assert [w.probability for w in result.worlds] == [
        None if p is None else Fraction(p) for p in chances
    ]
    assert result.complete == listed["complete"]
    assert str(result.trace) == in_pythons_words(cli("run", "--trace", story).stdout)


def _with_a_false_check(source: str):
    """`source` with its first check negated (`check φ` → `check not (φ)`, and so for
    `check actual`), or None when it has no check on a line of its own."""
    lines = source.split("\n")
    for i, line in enumerate(lines):
        body = line.split("#", 1)[0].rstrip()
        indent = body[: len(body) - len(body.lstrip())]
        for keyword in ("check actual ", "check "):
            if body.lstrip().startswith(keyword):
                formula = body.lstrip()[len(keyword):]
                lines[i] = f"{indent}{keyword}not ({formula})"
                return "\n".join(lines)
    return None


FALSE_CHECKS = [p for p in ALL if _with_a_false_check(p.read_text()) is not None]


def test_there_are_stories_with_checks():
    assert len(FALSE_CHECKS) >= 15


@pytest.mark.parametrize("story", FALSE_CHECKS, ids=[p.stem for p in FALSE_CHECKS])
def test_a_failing_check_behaves_the_same_everywhere(tmp_path, story):
    """A check that fails: the run goes on, every verdict is printed in order, the
    worlds are printed, and the command exits with 1 at the end; Python's result says
    the same (issue 44: the CLI used to stop at the first failing check)."""
    path = tmp_path / story.name
    path.write_text(_with_a_false_check(story.read_text()))
    run = cli("run", path, check=1)
    result = epipen.run_file(path, limit=10)
    assert str(result) == run.stdout
    assert any(c.holds is False for c in result.checks), run.stdout
    assert "fails in the world" in run.stdout
    worlds = cli("worlds", path, check=1)
    assert str(result.worlds) == in_pythons_words(worlds.stdout)
    assert "fails in the world" in worlds.stderr


BAD = {
    "unknown-name": "characters A\nint day\nannounce dya > 3\n",
    "two-errors": "characters A\nint x\nannounce y > 1\nA learns z\n",
    "type": "characters A\nbool b\nannounce b + 1 > 2\n",
    "syntax": "characters A\nint x\nannounce (x > 1\n",
    "actual-twice": "characters A\nint x\nannounce x in 0..3\nactual x > 0\n",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_story_raises_what_the_cli_prints(tmp_path, name):
    path = tmp_path / f"{name}.story"
    path.write_text(BAD[name])
    done = cli("run", path, check=2)
    with pytest.raises(epipen.StoryError) as raised:
        epipen.run_file(path)
    err = raised.value
    assert str(err) + "\n" == done.stderr
    # The diagnostics as data: where the first error is, its message and hint.
    first = done.stderr.split("\n", 1)[0]
    assert first == f"{path}:{err.line}:{err.column}: error: {err.message}"
    assert err.errors[0] == (err.line, err.column, err.message)


def test_the_hint_comes_as_data(tmp_path):
    path = tmp_path / "typo.story"
    path.write_text(BAD["unknown-name"])
    with pytest.raises(epipen.StoryError) as raised:
        epipen.run_file(path)
    assert (raised.value.line, raised.value.column) == (3, 10)
    assert raised.value.message == "unknown name `dya`"
    assert raised.value.hint == "did you mean `day`?"


def test_a_story_that_changes_shows_what_was(tmp_path):
    # The drift this contract ended: Python lost the CLI's `(was …)` and showed events
    # that had not happened yet.
    path = tmp_path / "flip.story"
    path.write_text(
        "characters A\nbool heads\nactual heads\nworlds\n"
        "event flip {\n  up then heads := true\n  down then heads := false\n  A sees up | down\n  actual up\n}\n"
        "worlds\n"
    )
    result = epipen.run_file(path)
    assert str(result) == cli("run", path, check=0).stdout
    assert "flip = up" in str(result) and "no flip" not in str(result)
