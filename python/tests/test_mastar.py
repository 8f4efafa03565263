"""``epipen.plan_file``: an mA* file planned as ``epipen plan`` plans it (issue 45)."""

import os

import pytest

import epipen

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


def test_the_plan_of_an_example():
    found = epipen.plan_file(os.path.join(ROOT, "examples/mastar/coin-in-the-box.txt"))
    assert (found.solvable, found.length, found.plan) == (True, 3, ["call_bob", "unlock", "peek"])
    assert str(found) == "plan of 3 actions: call_bob, unlock, peek"
    assert "action call_bob if not bob_watches {" in found.story
    for backend in ["bdd", "z3", "explicit"]:
        assert epipen.plan_file(os.path.join(ROOT, "examples/mastar/coin-in-the-box.txt"), backend=backend).plan == found.plan


def test_none_within_max():
    found = epipen.plan_file(os.path.join(ROOT, "examples/mastar/grapevine.txt"), max=1)
    assert (found.solvable, found.length, found.plan) == (False, None, [])
    assert str(found) == "no plan of at most 1 action"


def test_a_mistake_is_a_story_error_at_its_place(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("fluent p;\naction a;\nagent x;\na causes q;\ninitially p;\ngoal p;\n")
    with pytest.raises(epipen.StoryError) as e:
        epipen.plan_file(path)
    assert (e.value.line, e.value.column) == (4, 10)
    assert "the fluent `q` is not declared" in str(e.value)
