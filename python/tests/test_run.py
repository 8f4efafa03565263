"""epipen.run and run_file: worlds, completeness, checks, events, traces and models of
story files, and the versions."""

import re

import pytest

import epipen
from conftest import ROOT, STORIES, cli


def test_cheryls_birthday_is_july_16():
    r = epipen.run_file(STORIES / "cheryl.story")
    assert r.worlds == [{"month": 7, "day": 16}]
    assert r.complete and r.worlds.complete
    assert r.backend == "explicit"
    assert r.constants == [("month", "int"), ("day", "int")]
    assert r.checkpoints == ["whispered"]
    assert isinstance(r.worlds[0]["month"], int)
    assert str(r.worlds[0]) == "month = 7, day = 16"
    # As `epipen worlds` prints them.
    assert str(r.worlds) == cli("worlds", "stories/cheryl.story", check=0).stdout


def test_run_takes_the_text_and_names_it():
    source = (STORIES / "cheryl.story").read_text()
    assert epipen.run(source).worlds == [{"month": 7, "day": 16}]
    with pytest.raises(epipen.StoryError) as e:
        epipen.run("characters A\nannounce x > 1\n", name="mine.story")
    assert str(e.value).startswith("mine.story:2:10: error: unknown name `x`")


def test_infinitely_many_worlds_are_listed_in_order_up_to_the_limit():
    r = epipen.run_file(STORIES / "consecutive-numbers.story", limit=3)
    # The story's `worlds 3` statement, then the worlds at the end.
    assert r.events[0]["kind"] == "worlds"
    assert r.events[0]["worlds"] == [{"A": 1, "B": 2}, {"A": 2, "B": 3}, {"A": 3, "B": 2}]
    assert not r.events[0]["worlds"].complete
    assert r.worlds == [{"A": 1, "B": 2}, {"A": 2, "B": 3}]
    assert r.complete
    r = epipen.run("characters A\nint x\nannounce x > 5\n", limit=3)
    assert r.worlds == [{"x": 6}, {"x": 7}, {"x": 8}] and not r.complete
    # As `epipen worlds` says it, the argument named as Python names it (never `--limit`).
    assert str(r.worlds) == "more than 3 possible worlds; the first 3:\n  x = 6\n  x = 7\n  x = 8\n(more worlds exist; raise limit= to see more)\n"
    r = epipen.run("characters A\nint x\nannounce x > 5\n", limit=0)
    assert r.worlds == [] and not r.complete


def test_values_are_ints_bools_and_enum_names():
    r = epipen.run_file(STORIES / "zebra.story")
    (w,) = r.worlds
    assert w["owner[3]"] == "german" and w["animal[3]"] == "fish"
    r = epipen.run_file(STORIES / "muddy-children.story")
    assert r.worlds == [{f"muddy[{i}]": i < 3 for i in range(6)}]
    big = epipen.run("characters A\nint x, y\nannounce x == 9223372036854775807 and y == -9223372036854775807 - 1\n")
    assert big.worlds == [{"x": 2**63 - 1, "y": -(2**63)}]


def test_sets_and_seed():
    r = epipen.run_file(STORIES / "cheryl-sample.story", seed=3)
    assert r.worlds == [{"month": 6, "day": 25}]
    r = epipen.run_file(STORIES / "muddy-children.story", sets={"n": 3, "k": 2})
    assert r.worlds == [{"muddy[0]": True, "muddy[1]": True, "muddy[2]": False}]


def test_changed_constants_keep_their_values_before():
    r = epipen.run_file(STORIES / "consecutive-numbers-change.story")
    assert r.worlds == [{"A": 2, "B": 2}, {"A": 3, "B": 3}]
    assert r.worlds.before == [{"A": 1, "B": 2}, {"A": 2, "B": 3}]
    assert str(r.worlds) == cli("worlds", "stories/consecutive-numbers-change.story", check=0).stdout


def test_checks_and_hints_have_verdicts():
    r = epipen.run_file(STORIES / "who-has-the-sum.story")
    (hint,) = r.checks
    assert (hint.kind, hint.holds) == ("hint", True)
    assert hint.text == "B != C"
    out = cli("check", "stories/who-has-the-sum.story", check=0).stdout
    assert out.startswith(f"line {hint.line}: hint `B != C` verified")
    assert r.worlds == [{"A": 50, "B": 20, "C": 30}]
    r = epipen.run_file(STORIES / "russian-cards.story", sets={"safe": 0})
    failed = [c for c in r.checks if c.holds is False]
    assert failed and failed[0].kind == "check"
    assert failed[0].detail.startswith("it is false in the possible world ")
    # The same verdicts as `epipen check`.
    out = cli("--set", "safe=0", "check", "stories/russian-cards.story").stdout
    for c in r.checks:
        assert f"line {c.line}:" in out


def test_a_check_over_no_world_is_vacuous(tmp_path):
    # Bob says he knows x though he learned nothing: no world is left.
    path = tmp_path / "vacuous.story"
    path.write_text(
        "characters Anne, Bob\nint x\nannounce x >= 0 and x <= 9\nBob: knows_value(x)\n"
        "check x == 4\nworlds\n"
    )
    r = epipen.run_file(path)
    (check,) = r.checks
    assert (check.kind, check.holds) == ("check", True)
    assert check.vacuous == "no world is possible (line 4, `Bob: knows_value(x)`, left none)"
    # The same line as `epipen check`, which exits with 1.
    assert cli("check", path, check=1).stdout == f"{check}\n1 vacuous verdict (no world is left)\n"
    assert str(r.worlds) == cli("worlds", path, check=1).stdout
    assert str(r.worlds).startswith("no possible worlds: line 4, `Bob: knows_value(x)`, left none")
    (printed,) = r.events
    assert str(printed.get("worlds")) == str(r.worlds)


def test_reveals_and_rounds_are_events():
    r = epipen.run_file(STORIES / "muddy-children.story")
    reveals = [e for e in r.events if e["kind"] == "reveal"]
    assert reveals and all(set(e) == {"kind", "line", "round", "who", "said", "holds"} for e in reveals)
    assert [e["rounds"] for e in r.events if e["kind"] == "repeat"] == [4]
    printed = cli("run", "stories/muddy-children.story", check=0).stdout
    assert printed == "".join(f"{e}\n" for e in r.events)


def test_trace_follows_cheryl_10_5_3_1():
    t = epipen.run_file(STORIES / "cheryl.story").trace
    assert t.counts == ["infinite", 10, 10, 10, 10, 5, 3, 1]
    assert t[0].line is None and t[0].statement == "start"
    assert t[-1].worlds == [{"month": 7, "day": 16}]
    assert t[5].removed == 5 and len(t[5].eliminated) == 5
    assert t.since == 8 and len(t.fates) == 10
    alive = [w for w, by in t.fates if by is None]
    assert alive == [{"month": 7, "day": 16}]
    # The text of `epipen run --trace`, step by step.
    text = cli("run", "--trace", "stories/cheryl.story", check=0).stdout
    assert text.startswith(str(t))


def test_trace_by_round_and_by_loop_value_as_the_cli_shows_it():
    t = epipen.run_file(STORIES / "muddy-children.story", sets={"n": 3, "k": 2}).trace
    repeat = "repeat max n + 1 {checkpoint round_start simultaneously {for i in 0..n …"
    assert [s.title for s in t] == [
        "start",
        "line 11: actual all(i in 0..n: muddy[i] == (i < k))",
        "line 16 (i in 0..3, j in 0..3): child[i] learns muddy[j] (6 steps)",
        "line 21: announce any(i in 0..n: muddy[i])",
        f"line 26, round 1: {repeat}",
        f"line 26, round 2: {repeat}",
        f"line 26, round 3: {repeat}",
        "line 35: worlds",
    ]
    assert [s.round for s in t] == [None, None, None, None, 1, 2, 3, None]
    assert t.counts == [8, 8, 8, 7, 4, 1, 1, 1]
    assert t.fate_titles[:2] == ["line 21: announce any(i in 0..n: muddy[i])", f"line 26, round 1: {repeat}"]
    # Each step as `epipen run --trace` prints it, in the same order.
    text = cli("run", "--trace", "stories/muddy-children.story", "--set", "n=3", "--set", "k=2", check=0).stdout
    at = 0
    for s in t:
        at = text.index(f"{s}\n", at) + 1
    # An event without an actual world: its cases, and what each character tells apart.
    toss = "characters Anne, Bob\nbool lamp\nevent toss {\n  heads\n  tails\n  edge\n  Anne sees heads | tails, edge\n}\n"
    step = epipen.run(toss).trace[1]
    assert step.title == "line 3: event toss: heads | tails | edge"
    assert step.sees == ["Anne sees heads | tails, edge", "Bob sees no difference"]
    assert str(step).startswith(
        "line 3: event toss: heads | tails | edge  =>  6 worlds\n    Anne sees heads | tails, edge; Bob sees no difference\n"
    )


def test_model_at_a_checkpoint():
    r = epipen.run_file(STORIES / "cheryl.story")
    m = r.model("whispered")
    assert len(m.worlds) == 10 and m.characters == ["Albert", "Bernard"]
    assert m.title == "cheryl.story at checkpoint whispered: 10 worlds"
    assert (m.worlds[0], m.worlds[1]) == ({"month": 7, "day": 14}, {"month": 8, "day": 14})
    dot = cli("graph", "stories/cheryl.story", "--at", "whispered", check=0).stdout
    edges = re.findall(r"w(\d+) -- w(\d+) \[label=\"([^\"]*)\"\]", dot)
    assert [(int(a), int(b), tuple(who.split(", "))) for a, b, who in edges] == m.edges
    assert m.indistinguishable("Bernard")[0] == ({"month": 7, "day": 14}, {"month": 8, "day": 14})
    assert m._repr_svg_().startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert r.model("whispered") is m
    assert r.model().worlds == [{"month": 7, "day": 16}]
    # The same picture every time.
    assert epipen.run_file(STORIES / "cheryl.story").model("whispered").svg == m.svg


def test_a_model_too_big_or_an_unknown_checkpoint_is_a_story_error():
    r = epipen.run_file(STORIES / "cheryl.story")
    with pytest.raises(epipen.StoryError) as e:
        r.model("nowhere")
    assert e.value.line is None
    # Named as Python names it (the command line says `--at nowhere`).
    assert e.value.message == f'at="nowhere": {STORIES / "cheryl.story"} has no checkpoint `nowhere`'

    assert "its checkpoints are `whispered`" in str(e.value)
    with pytest.raises(epipen.StoryError) as e:
        epipen.run("characters A\nint x\nannounce x > 0\n").model()
    assert e.value.message.startswith("the model at the end has infinitely many worlds")
    assert (e.value.line, e.value.column) == (3, 1)


def test_versions():
    cargo = (ROOT / "Cargo.toml").read_text()
    assert epipen.__version__ == re.search(r'\nversion = "([^"]+)"', cargo).group(1)
    assert epipen.z3_version() == "5.4.0.0"


MOVE = """characters Anne, Sally
enum Place { basket, box }
Place marble
announce marble == basket
actual marble == basket

event move {                                    # Anne moves the marble, or not
  moved if marble == basket then marble := box
  stayed
  Anne sees moved | stayed
  actual moved
}
check actual knows(Anne, marble == box)
check actual not knows_value(Sally, marble)
"""


def test_events_happen(tmp_path):
    path = tmp_path / "move.story"
    path.write_text(MOVE)
    r = epipen.run_file(path)
    assert r.worlds == [{"marble": "box", "move": "moved"}, {"marble": "basket", "move": "stayed"}]
    assert r.worlds.before == [{"marble": "basket", "move": "moved"}, {"marble": "basket", "move": "stayed"}]
    (happened,) = r.events
    assert (happened["kind"], happened["event"], happened["case"]) == ("event", "move", "moved")
    assert happened["saw"] == {"Anne": ["moved"], "Sally": ["moved", "stayed"]}
    printed = cli("run", path, check=0).stdout.splitlines()
    assert printed[0] == str(happened) == "move: moved (Anne saw moved; Sally saw moved or stayed)"
    assert [(c.kind, c.line, c.holds) for c in r.checks] == [("check", 13, True), ("check", 14, True)]
    assert str(r.worlds) == cli("worlds", path, check=0).stdout


SALLY = """characters Anne, Sally
enum Place { basket, box }
Place marble
announce marble == basket
actual marble == basket

event move {
  moved if marble == basket then marble := box
  stayed
  Anne sees moved | stayed
  Sally expects stayed
  actual moved
}
check actual knows(Anne, marble == box)
check actual not knows(Sally, marble == basket)
check actual believes(Sally, marble == basket)
"""


def test_beliefs_in_traces_and_models(tmp_path):
    path = tmp_path / "sally.story"
    path.write_text(SALLY)
    r = epipen.run_file(path)
    assert [c.holds for c in r.checks] == [True, True, True]
    t = r.trace
    step = next(s for s in t if s.line == 7)
    (belief,) = step.beliefs
    assert belief["who"] == "Sally" and belief["actual"]
    assert belief["believed"] == [{"marble": "basket", "move": "stayed"}]
    text = cli("run", "--trace", path, check=0).stdout
    assert str(step) in text
    assert "in the actual world, Sally believes: marble = basket, move = stayed  (the most plausible" in str(step)
    m = r.model()
    assert m.beliefs == [(0, 1, ("Sally",))]
    assert m.edges == [(0, 1, ("Sally",))]
    # The actual world: Anne moved the marble.
    assert m.worlds[m.actual] == {"marble": "box", "move": "moved"}
    assert 'stroke-dasharray="5 4"' in m.svg and "1 belief arrows" in m.svg


def test_a_where_statement_is_an_event_as_the_cli_prints_it(tmp_path):
    path = tmp_path / "where.story"
    path.write_text("bool p, q\ndef both = p and q\nwhere p and not q\nwhere both or not p\n")
    r = epipen.run_file(path)
    first, second = r.events
    assert first["kind"] == "where" and first["formula"] == "p and not q"
    assert first["worlds"] == [{"p": True, "q": False}]
    assert second["formula"] == "p and q or not p"
    assert len(second["worlds"]) == 3 and second["worlds"].complete
    # As `epipen run` prints them.
    assert "\n".join(str(e) for e in r.events) + "\n" == cli("run", str(path), check=0).stdout


def test_a_story_pins_its_backend_unless_backend_names_one():
    source = "#! backend z3\n" + (STORIES / "cheryl.story").read_text()
    assert epipen.run(source).backend == "z3"
    assert epipen.run(source, backend="explicit").backend == "explicit"
    with pytest.raises(epipen.StoryError) as e:
        epipen.run("#! backend cvc5\nbool p\n", name="pinned.story")
    assert str(e.value).startswith("pinned.story:1:12: error: unknown backend `cvc5`")
