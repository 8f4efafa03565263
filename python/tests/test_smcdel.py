"""``epipen.smcdel``: a file in SMCDEL's text format answered as ``epipen smcdel``
answers it (issue 30)."""

import pytest

import epipen

MUDDY = """-- two muddy children
VARS 1,2
LAW Top
OBS a: 2
    b: 1
TRUE? {1,2} a knows that 2 & ~ a knows whether 1
VALID? [! 1 | 2] [! ~ a knows whether 1 & ~ b knows whether 2] (1 & 2)
WHERE? <! 1 | 2> a knows whether 1
"""


def test_the_jobs_and_their_answers():
    jobs = epipen.smcdel(MUDDY)
    assert [(j["kind"], j["line"], j["answer"]) for j in jobs] == [
        ("true", 6, True),
        ("valid", 7, True),
        ("where", 8, [[1]]),
    ]
    assert jobs[0]["state"] == [1, 2]
    assert jobs[2]["formula"] == "<! 1 | 2> a knows whether 1"
    assert str(jobs).startswith("Is a knows that 2 & ~ a knows whether 1 true at [1,2]?\nTrue\n\n")
    assert "characters a, b" in jobs.story
    for backend in ["bdd", "z3", "explicit"]:
        assert list(epipen.smcdel(MUDDY, backend=backend)) == list(jobs)


def test_a_mistake_is_a_story_error_at_its_place():
    with pytest.raises(epipen.StoryError) as e:
        epipen.smcdel("VARS 1\nLAW Top\nOBS a: 1\nVALID? b knows that 1\n", name="x.smcdel.txt")
    assert (e.value.line, e.value.column) == (4, 8)
    assert "the agent `b` is not declared by an `OBS` line" in str(e.value)
