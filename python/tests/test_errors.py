"""Bad input raises an exception with the line, the column and the command line's exact
text; the solver's failures are SolverErrors, never "no worlds"; and nothing crashes the
interpreter."""

import pytest

import epipen
from conftest import STORIES, cli

BROKEN = """characters Albert
int month, day
announce month > 3 and dya < 5
Albert learns month
"""


def test_a_story_error_has_the_clis_text_line_and_column(tmp_path):
    path = tmp_path / "broken.story"
    path.write_text(BROKEN)
    with pytest.raises(epipen.StoryError) as e:
        epipen.run_file(path)
    err = e.value
    assert (err.line, err.column) == (3, 24)
    assert err.message == "unknown name `dya`"
    assert err.errors == [(3, 24, "unknown name `dya`")]
    done = cli("worlds", path, check=2)
    assert str(err) + "\n" == done.stderr
    assert err.text == done.stderr
    assert str(err).startswith(f"{path}:3:24: error: unknown name `dya`\n  |\n3 | announce month > 3 and dya < 5\n")
    assert isinstance(err, ValueError) and isinstance(err, epipen.EpipenError)


def test_every_error_of_a_story_is_listed():
    with pytest.raises(epipen.StoryError) as e:
        epipen.run("characters A\nint x\nannounce y > 1\nannounce x + true\n")
    assert [(l, c) for l, c, _ in e.value.errors] == [(3, 10), (4, 14)]
    assert e.value.text.endswith("error: <story>: 2 errors found\n")


def test_a_syntax_error():
    with pytest.raises(epipen.StoryError) as e:
        epipen.run("characters A\nint x\nannounce (x > 1\n")
    assert e.value.line == 3 and "error:" in str(e.value)


def test_a_story_error_found_while_running(tmp_path):
    path = tmp_path / "actual.story"
    path.write_text("characters A\nint x\nannounce x > 0 and x < 3\nactual x > 0\n")
    with pytest.raises(epipen.StoryError) as e:
        epipen.run_file(path)
    assert (e.value.line, e.value.column) == (4, 1)
    assert e.value.message == (
        "`actual` must pin down exactly one of the worlds still possible, but it allows several"
    )
    assert e.value.text == cli("worlds", path, check=2).stderr


def test_sets_the_story_cannot_take():
    with pytest.raises(epipen.StoryError) as e:
        epipen.run_file(STORIES / "muddy-children.story", sets={"n": -1})
    assert e.value.line is None
    stderr = cli("--set", "n=-1", "worlds", STORIES / "muddy-children.story", check=2).stderr
    assert e.value.text == stderr.replace("--set n=-1:", 'sets["n"] = -1:')
    with pytest.raises(epipen.StoryError) as e:
        epipen.run_file(STORIES / "cheryl.story", sets={"nope": 1})
    # Named as Python names it (the command line says `--set nope=…`).
    assert e.value.message == f'sets["nope"]: {STORIES / "cheryl.story"} has no `const nope`'


def test_bad_arguments_are_python_errors():
    with pytest.raises(TypeError, match="a const's value is an int"):
        epipen.run("characters A\n", sets={"n": "3"})
    with pytest.raises(ValueError, match="does not fit in 64 bits"):
        epipen.run("characters A\n", sets={"n": 2**64})
    with pytest.raises(ValueError, match="the backends are"):
        epipen.run("characters A\n", backend="cvc5")
    with pytest.raises(ValueError, match="timeout"):
        epipen.run("characters A\n", timeout=-1)
    with pytest.raises(TypeError, match="a story is a str"):
        epipen.run(b"characters A\n")
    with pytest.raises(FileNotFoundError):
        epipen.run_file("no/such.story")


def test_a_timeout_is_a_solver_error_with_the_clis_text(fermat):
    with pytest.raises(epipen.SolverError) as e:
        epipen.run_file(fermat, timeout=0.5)
    err = e.value
    assert (err.line, err.column) == (3, 1)
    assert err.message == "solver failure: the solver ran out of time (timeout)"
    # The command line's text, but for the hint: Python's argument is `timeout=`.
    stderr = cli("--timeout", "0.5", "worlds", fermat, check=1).stderr
    assert err.text == stderr.replace("raise --timeout,", "raise timeout=,")
    assert "= hint: raise timeout=, or simplify the story" in str(err)
    assert err.hint == "raise timeout=, or simplify the story"
    assert isinstance(err, RuntimeError)


def test_a_model_too_big_to_draw_says_so_in_pythons_words(tmp_path):
    path = tmp_path / "big.story"
    path.write_text("characters A\nint x\nannounce x >= 0 and x < 600\n")
    with pytest.raises(epipen.StoryError) as e:
        epipen.run_file(path).model()
    assert e.value.message == "the model at the end has 600 worlds; a graph shows at most 500"
    hint = "draw a checkpoint where fewer worlds are left (model(at=NAME)), or use smaller parameters (sets=)"
    assert e.value.hint == hint
    # The command line's text, but for the hint, which names its flags.
    stderr = cli("graph", path, check=2).stderr
    assert e.value.text == stderr.replace(
        "graph a checkpoint where fewer worlds are left (--at NAME), or use smaller parameters (--set)", hint
    )
    assert "--" not in e.value.text


def test_the_backend_a_story_needs(tmp_path):
    source = "characters A\nint x\nannounce x > 0\n"
    with pytest.raises(epipen.StoryError) as e:
        epipen.run(source, backend="bdd")
    assert e.value.line == 3
    # The engine names the backend, not the CLI's flag nor Python's argument: the same
    # words for both.
    assert e.value.hint == "the `auto` backend (the default) picks one that takes the story"
    path = tmp_path / "x.story"
    path.write_text(source)
    with pytest.raises(epipen.StoryError) as e:
        epipen.run_file(path, backend="bdd")
    assert e.value.text == cli("--backend", "bdd", "worlds", path, check=2).stderr
    # A story that pins the backend.
    with pytest.raises(epipen.StoryError) as e:
        epipen.run("#! backend bdd\n" + source)
    assert e.value.hint.endswith("write `#! backend auto` there, or name another backend")
    assert "--" not in str(e.value)


def test_a_backend_without_probabilities_names_the_backend_not_a_flag():
    with pytest.raises(epipen.StoryError) as e:
        epipen.run_file(STORIES / "medical-test.story", backend="z3")
    assert e.value.message == (
        "the z3 backend does not compute probabilities: `prior`, a case's `weight` and "
        "`probability(…)` need the explicit backend (`auto` picks it)"
    )
    assert e.value.hint == "run it on the `explicit` backend, or on `auto` (the default), which picks it"
    assert e.value.text == cli("worlds", STORIES / "medical-test.story", "--backend", "z3", check=2).stderr
    assert "--" not in str(e.value)


def test_no_text_python_shows_names_a_command_line_flag(tmp_path):
    """What Python prints names its arguments (`limit=`, `seed=`, the trace's `fates`),
    where the command line names its flags."""
    r = epipen.run("characters A\nint x\nannounce x > 5\n", limit=2)
    assert str(r.worlds).endswith("(more worlds exist; raise limit= to see more)\n")
    # A trace that follows more worlds than it says the fate of.
    source = "characters A\nint x\nannounce 0 <= x and x < 150\nannounce x < 3\n"
    trace = epipen.run(source).trace
    assert str(trace).endswith(
        "(150 worlds after line 3: too many to say which statement eliminated each; the trace's `fates` lists them)\n"
    )
    assert len(trace.fates) == 150
    path = tmp_path / "many.story"
    path.write_text(source)
    assert cli("run", "--trace", path, check=0).stdout.endswith(
        "(150 worlds after line 3: too many to say which statement eliminated each; --json lists them)\n"
    )
    s = epipen.sweep_file(STORIES / "cheryl-sample.story", samples=5, seed=1)
    for text in [str(r.worlds), str(trace), str(s), epipen.smcdel("VARS 1\nLAW Top\nOBS a: 1\nVALID? a knows whether 1").story]:
        assert " --" not in text and "(--" not in text, text


def test_errors_pickle():
    import pickle

    with pytest.raises(epipen.StoryError) as e:
        epipen.run(BROKEN)
    back = pickle.loads(pickle.dumps(e.value))
    assert (type(back), back.text, back.line, back.column, back.message) == (
        epipen.StoryError,
        e.value.text,
        3,
        24,
        "unknown name `dya`",
    )


def test_deep_nesting_does_not_crash():
    # Deep enough to need a large stack; the parser's nesting limit answers.
    deep = "characters A\nint x\nannounce " + "(" * 5000 + "x > 1" + ")" * 5000 + "\n"
    with pytest.raises(epipen.StoryError):
        epipen.run(deep)
    deep = "characters A\nint x\nannounce " + "not " * 3000 + "x > 1\n"
    try:
        epipen.run(deep)
    except epipen.StoryError:
        pass
