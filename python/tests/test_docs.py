"""The examples of docs/python.md run as written (in order, in one namespace, from the
repository's root), but for the sweep on Ray (the Ray environment runs the README's)
and the signatures."""

import doctest
import re

from conftest import ROOT


def blocks():
    text = (ROOT / "docs" / "python.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_examples_run(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    scope: dict = {}
    ran = 0
    for code in blocks():
        if ", *," in code or 'cluster="ray"' in code:
            continue
        if code.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(code, scope, "docs/python.md", "docs/python.md", 0)
            runner = doctest.DocTestRunner()
            runner.run(test)
            assert runner.failures == 0
        else:
            exec(compile(code, "docs/python.md", "exec"), scope)
        ran += 1
    assert ran >= 8
    out = capsys.readouterr().out
    assert "month = 7, day = 16" in out
    assert "<story>:3:10: error: unknown name `mnth`" in out
    assert scope["result"].worlds == [{"month": 7, "day": 16}]
