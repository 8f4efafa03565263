"""Every story of stories/, solved from Python, gives the worlds `epipen worlds --json`
gives."""

import json

import pytest

import epipen
from conftest import STORIES, cli

ALL = sorted(STORIES.glob("*.story"))


def test_there_are_stories():
    assert len(ALL) >= 20


@pytest.mark.parametrize("story", ALL, ids=[p.stem for p in ALL])
def test_python_gives_the_clis_worlds(story):
    done = cli("worlds", "--json", "--limit", "100", story, check=0)
    want = json.loads(done.stdout)
    r = epipen.run_file(story, limit=100)
    assert [dict(w) for w in r.worlds] == want["worlds"]
    assert r.complete == want["complete"]
    if "before" in want:
        assert [dict(w) for w in r.worlds.before] == want["before"]
