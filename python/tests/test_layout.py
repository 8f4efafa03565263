"""The package's modules import no circle: each module's imports of the package's
others (at its top or inside functions, and those for types only) form no loop, as
tests/layout.rs checks for the Rust crates."""

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "epipen"


def typing_only(tree):
    """The nodes under `if TYPE_CHECKING:` (imports for annotations, never run)."""
    skipped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            skipped.update(id(n) for n in ast.walk(node))
    return skipped


def imports(types=False):
    """Each module's imports of the package's others; with ``types``, those under ``if
    TYPE_CHECKING:`` too."""
    graph = {}
    for path in PACKAGE.glob("*.py"):
        names = set()
        tree = ast.parse(path.read_text())
        skipped = set() if types else typing_only(tree)
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    names.add(node.module)
                else:
                    names.update(a.name for a in node.names)
        graph[path.stem] = names & {p.stem for p in PACKAGE.glob("*.py")}
    return graph


def circles(graph):
    found = []
    for start in graph:
        todo, seen = list(graph[start]), set()
        while todo:
            m = todo.pop()
            if m == start:
                found.append(start)
                break
            if m not in seen:
                seen.add(m)
                todo.extend(graph.get(m, ()))
    return found


def test_no_module_imports_one_that_imports_it_back():
    graph = imports()
    assert "_story" in graph and "_events" in graph["_story"]
    assert circles(graph) == []


def test_not_even_for_types():
    # A handle knows its story as an `Owner`, events and actions as a `Teller`
    # (protocols): `_expr` imports nothing of `_story`, not even under TYPE_CHECKING.
    graph = imports(types=True)
    assert "_story" not in graph["_expr"]
    assert "_story" not in graph["_events"] and "_story" not in graph["_actions"]
    assert circles(graph) == []


def test_the_circle_finder_sees_a_circle():
    assert circles({"a": {"b"}, "b": {"a"}, "c": set()}) == ["a", "b"]


def test_the_wheel_is_typed():
    # The installed package (from the wheel): `_native.pyi` types the native module,
    # and `py.typed` says the package is typed.
    import epipen

    installed = pathlib.Path(epipen.__file__).parent
    assert (installed / "py.typed").exists()
    stub = (installed / "_native.pyi").read_text()
    for name in ("def run(", "def trace(", "def model(", "class NativeStory"):
        assert name in stub
