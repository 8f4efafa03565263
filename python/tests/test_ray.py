"""Sweeps as Ray tasks: a local Ray (none runs here), the same answer as on this
machine's threads. Runs in an environment with Ray installed (`epipen[ray]`)."""

import pytest

import epipen
from conftest import STORIES

SAMPLE = STORIES / "cheryl-sample.story"


@pytest.fixture(scope="module")
def ray():
    import ray

    yield ray
    ray.shutdown()


def test_samples_on_ray_equal_the_local_sweep(ray):
    local = epipen.sweep_file(SAMPLE, samples=6000, seed=11)
    remote = epipen.sweep_file(SAMPLE, samples=6000, seed=11, cluster="ray")
    assert ray.is_initialized()
    assert remote.counts == local.counts
    assert remote == local and dict(remote) == dict(local)
    assert remote.groups[0].first_unique == local.groups[0].first_unique
    assert str(remote) == str(local)


def test_values_on_ray_equal_the_local_sweep(ray):
    sets = {"n": range(2, 6), "k": [1, 2, 3]}
    local = epipen.sweep_file(STORIES / "muddy-children.story", sets=sets)
    remote = epipen.sweep_file(STORIES / "muddy-children.story", sets=sets, cluster="ray")
    key = lambda s: [(r.sets, r.worlds, r.world, r.error) for r in s.rows]
    assert key(remote) == key(local)
    assert [r.error for r in remote.rows].count(None) == 12


def test_story_errors_reach_the_driver_before_any_task(ray):
    with pytest.raises(epipen.StoryError):
        epipen.sweep("characters A\nint x\nannounce y\n", samples=10, cluster="ray")


def test_the_readmes_example(ray, monkeypatch):
    # The README's Python example, as written (it ends with a sweep on Ray).
    from conftest import ROOT

    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python") :]
    code = section[section.index("```python\n") + len("```python\n") :]
    code = code[: code.index("```")]
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    exec(compile(code, "README.md", "exec"), scope)
    assert scope["result"].worlds == [{"month": 7, "day": 16}]
    assert scope["result"].trace.counts == ["infinite", 10, 10, 10, 10, 5, 3, 1]
    assert scope["s"].worlds() == [{"A": 1, "B": 2}, {"A": 2, "B": 3}]
    assert "cluster=\"ray\"" in code


def test_values_and_samples_on_ray(ray, tmp_path):
    from conftest import DRAWS

    path = tmp_path / "draws.story"
    path.write_text(DRAWS)
    local = epipen.sweep_file(path, samples=300, sets={"m": range(2, 6)}, seed=9)
    remote = epipen.sweep_file(path, samples=300, sets={"m": range(2, 6)}, seed=9, cluster="ray")
    assert str(remote) == str(local)
