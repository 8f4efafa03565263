"""Jupyter: HTML tables (capped), traces, the model's SVG, pandas and networkx forms, and
python/examples/epipen.ipynb executed in a real kernel (nbclient). With
EPIPEN_NOTEBOOK=write the executed notebook is written back, outputs and all."""

import html
import json
import os
import re
import sys

import pytest

import epipen
from conftest import ROOT, STORIES

NOTEBOOK = ROOT / "python" / "examples" / "epipen.ipynb"


def test_a_worlds_table_is_capped():
    r = epipen.run("characters A\nint x\nannounce x >= 0 and x < 30\n")
    page = r.worlds._repr_html_()
    assert page.count("<tr>") == 1 + 20
    assert "<i>and 10 more</i>" in page and "(and that's all)" in page
    assert "<th>x</th>" in page and "<td>19</td>" in page and "<td>20</td>" not in page
    assert r._repr_html_().endswith(page)
    empty = epipen.run("characters A\nint x\nannounce x > 0 and x < 0\n").worlds
    assert "no possible worlds" in empty._repr_html_()


def test_values_are_escaped():
    r = epipen.run("characters A\nenum E { a, b }\nE e\nannounce e == b\n")
    assert "<td>b</td>" in r.worlds._repr_html_()


def test_a_trace_is_a_table():
    page = epipen.run_file(STORIES / "cheryl.story").trace._repr_html_()
    assert "<b>∞ → 10 → 10 → 10 → 10 → 5 → 3 → 1</b>" in page
    assert "(5 eliminated)" in page and "month = 7, day = 16" in page


def test_a_traces_worlds_are_each_on_a_line_unbroken():
    # Each world of a step is a line of its own (`<br>` between them) in a cell that
    # does not wrap, so `month = 7, day = 14` never breaks inside.
    trace = epipen.run_file(STORIES / "cheryl.story").trace
    page = trace._repr_html_()
    cells = re.findall(r'<td class="epipen-worlds" style="white-space: nowrap">(.*?)</td>', page)
    assert len(cells) == len(trace)
    listed = [cell.split("<br>") for cell in cells if cell]
    assert listed[-1] == ["month = 7, day = 16"]
    assert ["month = 7, day = 14", "month = 8, day = 14"] == listed[0][:2] and len(listed[0]) == 10
    assert all(html.unescape(w) == str(v) for step, ws in zip([s for s in trace if s.changed and s.worlds is not None], listed) for w, v in zip(ws, step.worlds))


def test_the_model_is_an_svg_picture():
    m = epipen.run_file(STORIES / "cheryl.story").model("whispered")
    svg = m._repr_svg_()
    assert svg.count("<circle") == 10
    assert "Albert cannot tell these apart" in svg and "Bernard cannot tell these apart" in svg
    assert svg.count("<line") == len(m.edges) + 2  # and the legend's two swatches


def legend_texts(svg: str):
    """The viewBox's left and right, and each text of the legend and of the axis line
    (the names over the nodes): its left and its width at 0.62 em a character (what
    epipen::explore::svg::text_width allows, a sans-serif's widest mixed-case text)."""
    x, _, width, _ = map(float, re.search(r'viewBox="([^"]*)"', svg).group(1).split())
    legend = svg.split('<g class="legend"', 1)[1]
    size = float(re.search(r'font-size="([\d.]+)"', legend).group(1))
    texts = [(float(a), size, html.unescape(t)) for a, t in re.findall(r'<text x="([-\d.]+)"[^>]*>([^<]*)</text>', legend)]
    texts += [(float(a), 10.0, html.unescape(t)) for a, t in re.findall(r'<text class="axis" x="([-\d.]+)"[^>]*>([^<]*)</text>', svg)]
    return (x, x + width), [(a, 0.62 * size * len(t), t) for a, size, t in texts]


LONG_NAMES = """characters Maximilian_the_Magnificent_Astronomer, Bernadette_the_Baker_of_Bordeaux
enum Place { the_basket_by_the_window, the_box_under_the_bed }
Place marble_of_the_first_character
announce marble_of_the_first_character == the_basket_by_the_window
actual marble_of_the_first_character == the_basket_by_the_window
event move {
  moved if marble_of_the_first_character == the_basket_by_the_window then marble_of_the_first_character := the_box_under_the_bed
  stayed
  Bernadette_the_Baker_of_Bordeaux sees moved | stayed
  Maximilian_the_Magnificent_Astronomer expects stayed
  Bernadette_the_Baker_of_Bordeaux expects stayed
  actual moved
}
"""


@pytest.mark.parametrize("story", ["russian-cards.story", "sally-anne.story", "long names"])
def test_the_models_legend_fits_in_the_picture(story, tmp_path):
    # The legend was cut at 480 units: a line longer than the picture (the beliefs'
    # line, long names, a long title) now wraps, and the picture widens to hold it.
    if story == "long names":
        r = epipen.run(LONG_NAMES)
    else:
        r = epipen.run_file(STORIES / story)
    svg = r.model()._repr_svg_()
    (left, right), texts = legend_texts(svg)
    assert len(texts) >= 2
    for x, width, text in texts:
        assert left <= x and x + width <= right, f"{text!r} at {x}, {width:.0f} wide, out of {left}..{right}"
    if story == "long names":
        assert "Maximilian_the_Magnificent_Astronomer cannot tell these apart" in [t for _, _, t in texts]
        assert any(t.startswith("dashed arrows: the worlds a character believes") for _, _, t in texts)


def test_networkx_and_pandas():
    m = epipen.run_file(STORIES / "cheryl.story").model("whispered")
    g = m.to_networkx()
    assert g.number_of_nodes() == 10 and g.number_of_edges() == len(m.edges)
    assert g.nodes[0]["month"] == 7 and g.nodes[0]["label"] == "month = 7, day = 14"
    assert g.edges[0, 1]["who"] == ("Bernard",)
    df = epipen.run_file(STORIES / "zebra.story").worlds.to_pandas()
    assert df.shape == (1, 25) and df.loc[0, "animal[3]"] == "fish"
    t = epipen.run_file(STORIES / "cheryl.story").trace.to_pandas()
    assert list(t["count"]) == ["infinite", 10, 10, 10, 10, 5, 3, 1]


def test_missing_packages_say_how_to_get_them(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    monkeypatch.setitem(sys.modules, "networkx", None)
    r = epipen.run_file(STORIES / "cheryl.story")
    with pytest.raises(ImportError, match="to_pandas\\(\\) needs pandas, which is not installed: pip install pandas"):
        r.worlds.to_pandas()
    with pytest.raises(ImportError, match="pip install networkx"):
        r.model().to_networkx()


def _outputs(nb) -> str:
    """Every output's text, HTML and SVG, one after the other."""
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(out.get("text", ""))
            for kind in ("text/plain", "text/html", "image/svg+xml"):
                parts.append(out.get("data", {}).get(kind, ""))
    return "\n".join(p if isinstance(p, str) else "".join(p) for p in parts)


def test_the_notebook_runs(tmp_path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    # A kernel that is this Python, whatever kernels the machine has.
    kernels = tmp_path / "jupyter" / "kernels" / "epipen-test"
    kernels.mkdir(parents=True)
    (kernels / "kernel.json").write_text(
        json.dumps(
            {"argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"], "display_name": "epipen test", "language": "python"}
        )
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter"))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="epipen-test", resources={"metadata": {"path": str(NOTEBOOK.parent)}}).execute()
    text = _outputs(nb)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, errors
    # Cheryl's answer, a worlds table, the trace, the model, the port, a sweep.
    assert f"('{epipen.__version__}', '5.4.0.0')" in text
    assert "<td>7</td><td>16</td>" in text
    assert "∞ → 10 → 10 → 10 → 10 → 5 → 3 → 1" in text
    assert "<svg" in text and "cheryl.story at checkpoint whispered: 10 worlds" in text
    assert "[{'month': 7, 'day': 16}]" in text
    assert "<i>and 5 more</i>" in text
    assert "10000 samples (seeds 1 to 10000)" in text and "<td>0</td><td>8721</td>" in text
    assert "3 10 unknown name `mnth`" in text
    if os.environ.get("EPIPEN_NOTEBOOK") == "write":
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, NOTEBOOK)
