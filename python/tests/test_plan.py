"""`plan` statements (issue 41) in Python: ``result.plans`` and ``trace.plans``, each a
:class:`epipen.Plan` (its line, whether it found one, the plans' length and the plans
as lists of action names), whose ``str()`` is the command line's line for it. The
answers are read here from the native module's JSON as it gives them (the lines are
epipen::text's, tested in its text/report.rs), and from a story file run.

And actions and plans told through ``epipen.Story`` (the Rust API's ``Story::action``,
``do_actions`` and ``plan``): ``Story.action``, ``Story.do`` and ``Story.plan`` give the
door mat's (stories/door-mat.story) answers, and their mistakes are StoryErrors in the
Rust API's words."""

import pytest

import epipen
import epipen as ep
from conftest import STORIES, cli

KEY = """characters Anne, Bob
bool key_under_mat
actual key_under_mat
Anne learns key_under_mat
action tell by Anne if knows(Anne, key_under_mat) { told if key_under_mat }
action try_take by Bob { took if key_under_mat }
plan knows(Bob, key_under_mat)
plan all knows(Bob, key_under_mat) max 3
plan knows(Bob, not key_under_mat) max 2
"""

# What the native module's `run` answers for the key story's plans: the views
# (serde), each with its text.
PLANS = [
    {"kind": "plan", "line": 7, "solvable": True, "length": 1, "plans": [["tell"]],
     "text": "line 7: plan of 1 action: tell\n"},
    {"kind": "plan", "line": 8, "solvable": True, "length": 2, "plans": [["tell", "try_take"], ["try_take", "tell"]],
     "text": "line 8: 2 plans of 2 actions: tell, try_take; try_take, tell\n"},
    {"kind": "plan", "line": 9, "solvable": False, "length": None, "plans": [],
     "text": "line 9: no plan of at most 2 actions\n"},
    {"kind": "plan", "line": 10, "solvable": True, "length": 0, "plans": [[]],
     "text": "line 10: plan of 0 actions: (none needed)\n"},
]


def answered(reports):
    """A run's answer as the native module gives it, with these reports."""
    return {
        "constants": [["key_under_mat", "bool"]],
        "checkpoints": [],
        "backend": "explicit",
        "worlds": {"worlds": [{"key_under_mat": True}], "complete": True,
                   "text": "1 possible world:\n  key_under_mat = true\n(and that's all)\n"},
        "reports": reports,
        "text": "".join(r["text"] for r in reports),
    }


def test_a_plan_is_its_line_its_answer_and_its_actions():
    p = epipen.Plan._of(PLANS[0])
    assert (p.line, p.solvable, p.length, p.plans) == (7, True, 1, [["tell"]])
    assert str(p) == "line 7: plan of 1 action: tell"
    assert repr(p) == "Plan(line=7, solvable=True, length=1, plans=[['tell']])"
    none = epipen.Plan._of(PLANS[2])
    assert (none.solvable, none.length, none.plans) == (False, None, [])
    assert str(none) == "line 9: no plan of at most 2 actions"
    already = epipen.Plan._of(PLANS[3])
    assert (already.length, already.plans) == (0, [[]])
    assert str(already) == "line 10: plan of 0 actions: (none needed)"


def test_a_result_lists_its_plans_and_prints_them_as_the_cli():
    r = epipen.Result(answered(PLANS), request={})
    assert [p.line for p in r.plans] == [7, 8, 9, 10]
    assert r.plans[1].plans == [["tell", "try_take"], ["try_take", "tell"]]
    assert [str(p) for p in r.plans] == [t["text"].rstrip("\n") for t in PLANS]
    assert str(r) == "".join(t["text"] for t in PLANS)
    # What the story printed, in order, plans among it.
    assert [e["kind"] for e in r.events] == ["plan"] * 4
    assert str(r.events[2]) == "line 9: no plan of at most 2 actions"
    # In Jupyter: green when found, red when none.
    page = r._repr_html_()
    assert '<p class="epipen-plan" style="color:#067647">line 7: plan of 1 action: tell</p>' in page
    assert '<p class="epipen-plan" style="color:#b42318">line 9: no plan of at most 2 actions</p>' in page


def test_a_trace_lists_its_plans():
    raw = {**answered(PLANS), "steps": [], "fates": None}
    t = epipen.Trace([], raw)
    assert [(p.line, p.solvable) for p in t.plans] == [(7, True), (8, True), (9, False), (10, True)]


def test_the_key_story_plans_as_the_cli_prints(tmp_path):
    path = tmp_path / "key.story"
    path.write_text(KEY)
    r = epipen.run_file(path)
    # Both actions are public announcements that the key is under the mat.
    assert [(p.line, p.solvable, p.length, p.plans) for p in r.plans] == [
        (7, True, 1, [["tell"]]),
        (8, True, 1, [["tell"], ["try_take"]]),
        (9, False, None, []),
    ]
    done = cli("run", path, check=1)
    assert str(r) == done.stdout
    assert str(r.trace) == cli("run", "--trace", path, check=1).stdout


def door_mat(form: str = "with"):
    """stories/door-mat.story up to its plans, the action `try_take` in the `with` form or
    the function form: the story, its characters, its constants and its actions."""
    s = ep.Story()
    anne, bob = s.characters("Anne Bob")
    key_under_mat, bob_has_key = s.bools("key_under_mat bob_has_key")
    s.announce(~bob_has_key)
    s.actual(key_under_mat)
    s.learns(anne, key_under_mat)

    def take(a):
        took = a.case("took", when=key_under_mat, then={key_under_mat: False, bob_has_key: True})
        found_nothing = a.case("found_nothing", when=~key_under_mat)
        a.sees(bob, [took], [found_nothing])

    if form == "with":
        with s.action("try_take", by=bob) as try_take:
            take(try_take)
    else:
        try_take = s.action("try_take", take, by=bob)
    tell = s.action("tell", lambda a: a.case("told", when=key_under_mat), by=anne)
    return s, (anne, bob), (key_under_mat, bob_has_key), (try_take, tell)


@pytest.mark.parametrize("form", ["with", "function"])
def test_the_door_mat_told_in_python_plans_and_does_as_the_file(form):
    s, (anne, bob), (key_under_mat, bob_has_key), (try_take, tell) = door_mat(form)
    assert isinstance(try_take, ep.Action) and try_take.declared
    assert (try_take.name, try_take.by, tell.by) == ("try_take", bob, anne)
    assert repr(try_take) == "<epipen.Action try_take by Bob: took, found_nothing>"
    file = epipen.run_file(STORIES / "door-mat.story")

    plain = s.plan(bob_has_key)
    assert isinstance(plain, ep.Plan)
    assert (plain.line, plain.solvable, plain.length, plain.plans) == (None, True, 1, [["try_take"]])
    assert str(plain) == "plan of 1 action: try_take"
    together = s.plan(bob_has_key, coordinated=True)
    assert together.plans == [["tell", "try_take"]]
    assert str(together) == "plan of 2 actions: tell, try_take"
    assert [p.plans for p in file.plans] == [plain.plans, together.plans]
    assert [str(p) for p in file.plans] == [f"line {p.line}: {q}" for p, q in zip(file.plans, [plain, together])]
    # Shorter: none; `all`, `keeping`.
    assert str(s.plan(bob_has_key, max=1, coordinated=True)) == "no plan of at most 1 action"
    assert s.plan(bob_has_key, all=True).plans == [["try_take"]]
    assert s.plan(bob_has_key, keeping=~key_under_mat | ~bob_has_key).plans == [["try_take"]]
    assert not s.plan(bob_has_key, keeping=key_under_mat).solvable

    told, took = s.do(tell, try_take)
    assert isinstance(told, ep.Happened)
    assert str(told) == "tell: told (Anne saw told; Bob saw told)"
    assert (took.case, took.saw(bob)) == ("took", ["took"])
    s.check_actual(ep.knows(bob, bob_has_key))
    # The action's name is its latest case in formulas: `tell == told`.
    s.check(told.event == "told")
    s.check(took.event == took.event.type.took)
    done = epipen.run(STORIES.joinpath("door-mat.story").read_text() + "do tell, try_take\n")
    assert list(s.worlds()) == list(done.worlds)
    assert s.plan(bob_has_key).plans == [[]]


def test_do_takes_a_case_and_does_all_or_nothing():
    s, (anne, bob), (key_under_mat, bob_has_key), (try_take, tell) = door_mat()
    ask = s.action("ask", lambda a: a.case("asked"), by=bob, when=ep.knows(bob, key_under_mat))
    with pytest.raises(ep.StoryError) as e:
        s.do(ask, tell)
    assert e.value.hint == "an action is done only where its `if` holds and one of its cases can happen"
    assert str(e.value) == (
        "the action `ask` cannot be done here: its condition does not hold in the actual world; "
        "hint: an action is done only where its `if` holds and one of its cases can happen"
    )
    with pytest.raises(ep.StoryError) as e:
        s.do(tell, (try_take, "tookk"))
    assert str(e.value) == "the action `try_take` has no case `tookk` (did you mean `took`?)"
    # Neither happened: `tell` still can.
    happened = s.do(tell, ask, (try_take, "took"))
    assert [h.case for h in happened] == ["told", "asked", "took"]
    with pytest.raises(ep.StoryError) as e:
        s.do(tell)
    assert "none of its cases can happen in the actual world" in e.value.message
    names = list(s.worlds()[0])
    assert names == ["key_under_mat", "bob_has_key", "tell", "ask", "try_take"]


def test_action_do_and_plan_mistakes_are_story_errors():
    s, (anne, bob), (key_under_mat, bob_has_key), (try_take, tell) = door_mat()

    def refused(f, message):
        with pytest.raises(ep.StoryError) as e:
            f()
        assert str(e.value).startswith(message), str(e.value)

    refused(lambda: s.action("tell", lambda a: a.case("said")), "the action `tell` is declared twice")
    refused(lambda: s.action("key_under_mat", lambda a: a.case("x")), "`key_under_mat` is already declared")
    refused(lambda: s.action("peek", lambda a: None), "the action `peek` has no cases")
    refused(
        lambda: s.action("peek", lambda a: (a.case("looked"), a.sees(anne, ["lookd"]))),
        "the action `peek` has no case `lookd` (did you mean `looked`?)",
    )
    refused(lambda: s.action("peek", lambda a: a.actual("x")), "an action's block has no `actual` line")
    refused(lambda: s.event("tell", lambda e: e.case("told")), "`tell` is an action")
    refused(lambda: s.plan(bob_has_key, max=0), "a plan's `max` must be at least 1, found 0")
    refused(lambda: s.plan(bob_has_key, max=-3), "a plan's `max` must be at least 1, found -3")
    refused(lambda: s.plan(bob_has_key, max=10_001), "a plan's `max` may be at most 10000, found 10001")
    empty = ep.Story()
    p = empty.bool("p")
    refused(lambda: empty.plan(p), "no action is declared before this `plan`")
    s.action("shout", lambda a: a.case("shouted"))
    refused(
        lambda: s.plan(bob_has_key, coordinated=True),
        "the action `shout` has no owner, and a `coordinated` plan needs the owner of each action",
    )
    other, *_, (_, other_tell) = door_mat()
    refused(lambda: s.do(other_tell), "the action belongs to another story")
    with s.action("wave", by=anne) as wave:
        wave.case("waved")
        refused(lambda: s.do(wave), "the action `wave` is not declared yet")
    refused(lambda: wave.case("again"), "the action `wave` is declared")
    with pytest.raises(TypeError):
        s.do("tell")
    with pytest.raises(TypeError):
        s.plan(bob_has_key, max="3")
