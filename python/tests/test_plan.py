"""`plan` statements (issue 41) in Python: ``result.plans`` and ``trace.plans``, each a
:class:`epipen.Plan` (its line, whether it found one, the plans' length and the plans
as lists of action names), whose ``str()`` is the command line's line for it. The
answers are read here from the native module's JSON as it gives them (the lines are
epipen::text's, tested in its text/report.rs); the stories wait for the driver."""

import pytest

import epipen
from conftest import cli

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


@pytest.mark.skip(reason="needs the plan driver")
def test_the_key_story_plans_as_the_cli_prints(tmp_path):
    path = tmp_path / "key.story"
    path.write_text(KEY)
    r = epipen.run_file(path)
    assert [(p.line, p.solvable, p.length, p.plans) for p in r.plans] == [
        (7, True, 1, [["tell"]]),
        (8, True, 1, [["tell"]]),
        (9, False, None, []),
    ]
    done = cli("run", path, check=1)
    assert str(r) == done.stdout
    assert str(r.trace) == cli("run", "--trace", path, check=1).stdout
