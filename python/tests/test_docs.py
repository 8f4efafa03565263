"""The examples of docs/python.md and of python/README.md (the package's page) run as
written (in order, in one namespace, from the repository's root; `>>>` examples as
doctests, their output checked), but for the sweep on Ray (the Ray environment runs the
repository README's) and the signatures."""

import doctest
import re

from conftest import ROOT


def blocks(page: str):
    text = (ROOT / page).read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def run(page: str, scope: dict) -> int:
    """Runs the page's examples in `scope`; how many ran."""
    ran = 0
    for code in blocks(page):
        if ", *," in code or 'cluster="ray"' in code:
            continue
        if code.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(code, scope, page, page, 0)
            # Whitespace aside: a `print()` of a text that ends its last line shows a
            # blank line more than the page does.
            runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
            runner.run(test)
            assert runner.failures == 0, f"{page}: a doctest failed (its output is above)"
        else:
            exec(compile(code, page, "exec"), scope)
        ran += 1
    return ran


def test_the_examples_run(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    ran = run("docs/python.md", scope)
    assert ran >= 8
    out = capsys.readouterr().out
    assert "month = 7, day = 16" in out
    assert "<story>:3:10: error: unknown name `mnth`" in out
    assert "-- line 5: where y > 2 --\n1 possible world where it holds:\n  x = 2, y = 3\n" in out
    assert scope["result"].worlds == [{"month": 7, "day": 16}]


def test_the_readmes_examples_run(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    # Each example shows what it prints, checked: a doctest.
    assert blocks("python/README.md") and all(b.lstrip().startswith(">>>") for b in blocks("python/README.md"))
    scope: dict = {}
    assert run("python/README.md", scope) >= 1
    assert "Failed example" not in capsys.readouterr().out
