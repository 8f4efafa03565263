"""What a run gives back: worlds, checks, traces and models, with their text (as the
``epipen`` command prints them), their Jupyter displays (HTML tables, the model as SVG)
and their pandas / networkx forms."""

from __future__ import annotations

import html
import json
import re
from fractions import Fraction
from typing import Any, Iterable, Optional

__all__ = ["World", "Worlds", "Check", "Show", "Plan", "Event", "Step", "Trace", "Model", "Result"]

#: A worlds table shows at most this many rows; the rest are counted ("and N more").
HTML_ROWS = 20


def _need(module: str, what: str):
    try:
        return __import__(module)
    except ImportError:
        raise ImportError(
            f"{what} needs {module}, which is not installed: pip install {module}"
        ) from None


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class World(dict):
    """One possible world: a value for every constant of the story, by name, in
    declaration order (ints as Python ints, bools, enum values by their variant's name).
    ``str(w)`` is ``month = 7, day = 16``. ``probability``: when the story speaks of
    chances (``prior``, a case's ``weight``, ``probability(…)``), the storyteller's
    probability of the world among those possible, a ``fractions.Fraction``; else None."""

    probability: Optional[Fraction] = None

    def __str__(self) -> str:
        if not self:
            return "(no constants)"
        return ", ".join(f"{k} = {_value_text(v)}" for k, v in self.items())


#: A world's probability as its view carries it: an exact fraction's text.
_RATIO = re.compile(r"^-?[0-9]+(/[0-9]+)?$")


def _world(view: dict) -> World:
    """A world from its view: the constants it shows, and its ``"probability"`` (a
    fraction's text, which no constant's value is: not a constant of the world)."""
    chance = view.get("probability")
    if isinstance(chance, str) and _RATIO.match(chance):
        view = {k: v for k, v in view.items() if k != "probability"}
        w = World(view)
        w.probability = Fraction(chance)
        return w
    return World(view)


def _worlds(views: Iterable[dict]) -> list:
    """Worlds from their views (dicts of the constants they show, and a probability)."""
    return [_world(v) for v in views]


def _value(v: Any, probability: bool) -> Any:
    """A value a ``show`` found: a Fraction for a probability, else as JSON has it."""
    return Fraction(v) if probability else v


def _table(names: list, worlds: list, cap: int = HTML_ROWS, extra: str = "") -> str:
    chances = any(w.probability is not None for w in worlds)
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    head += "<th><i>probability</i></th>" if chances else ""

    def chance(w) -> str:
        return f"<td>{html.escape(str(w.probability))}</td>" if chances else ""

    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_value_text(w[n]))}</td>" for n in names) + chance(w) + "</tr>"
        for w in worlds[:cap]
    )
    more = f"<p><i>and {len(worlds) - cap} more</i></p>" if len(worlds) > cap else ""
    return (
        '<table class="epipen-worlds"><thead><tr>'
        + head
        + "</tr></thead><tbody>"
        + body
        + "</tbody></table>"
        + more
        + extra
    )


class Worlds(list):
    """The worlds possible at some point of a story, in canonical order (smaller values
    first), as a list of :class:`World`. ``complete`` is True when the solver proved there
    are no others; False when more exist beyond the limit. ``str()`` is what
    ``epipen worlds`` prints; in Jupyter it shows as a table (at most 20 rows, then "and
    N more")."""

    def __init__(
        self,
        names: list,
        worlds: Iterable[Any],
        complete: bool,
        before: Optional[list] = None,
        no_worlds: Optional[str] = None,
        text: Optional[str] = None,
    ):
        super().__init__(worlds)
        #: The constants' names, in declaration order (the table's columns).
        self.names = list(names)
        self.complete = complete
        #: With ``x := e`` in the story: each world's values at the story's start.
        self.before = before
        #: With no world: which statement left none (``no possible worlds: line 4, …``).
        self.no_worlds = no_worlds
        self._text = text

    @classmethod
    def _of(cls, names: list, view: dict) -> "Worlds":
        """The worlds of a view (``worlds``, ``complete``, ``before``, ``text``)."""
        text = view.get("text")
        before = view.get("before")
        none = view["complete"] and not view["worlds"]
        return cls(
            names,
            _worlds(view["worlds"]),
            view["complete"],
            None if before is None else _worlds(before),
            text.split("\n", 1)[0] if none and text else None,
            text,
        )

    def __str__(self) -> str:
        if self._text is not None:
            return self._text
        return "".join(f"{w}\n" for w in self)

    def _repr_html_(self) -> str:
        if not self:
            return "<p><i>" + html.escape(str(self).split("\n", 1)[0]) + "</i></p>"
        note = "(and that's all)" if self.complete else "(more worlds exist; raise the limit to see more)"
        return _table(self.names, self, extra=f"<p><i>{note}</i></p>")

    @property
    def probabilities(self) -> Optional[list]:
        """Each world's probability (a ``Fraction``), when the story speaks of chances;
        else None."""
        if not self or any(w.probability is None for w in self):
            return None
        return [w.probability for w in self]

    def to_pandas(self):
        """The worlds as a pandas DataFrame, a column per constant (and ``probability``,
        Fractions, when the story speaks of chances)."""
        pd = _need("pandas", "to_pandas()")
        chances = self.probabilities
        if chances is None:
            return pd.DataFrame([dict(w) for w in self], columns=self.names)
        rows = [{**w, "probability": p} for w, p in zip(self, chances)]
        return pd.DataFrame(rows, columns=self.names + ["probability"])


class Check:
    """The verdict of a ``check φ`` or an ``assert_adds_ck`` hint: ``kind`` is "check" or
    "hint", ``line`` its line, ``text`` the formula as written, ``holds`` True or False
    (None for a hint taken on trust), ``detail`` why it failed (the world where the
    check is false, or the hint's counterexample). ``vacuous`` says why it holds only
    vacuously (``no world is possible (line 4, `Bob: knows_value(x)`, left none)``), None
    when some world is possible: a vacuous check proves nothing (``epipen check`` exits
    with 1). ``str()`` is ``epipen check``'s line for it."""

    __slots__ = ("kind", "line", "text", "holds", "detail", "vacuous", "_verdict")

    def __init__(
        self,
        kind: str,
        line: int,
        text: str,
        holds: Optional[bool],
        detail: Optional[str],
        vacuous: Optional[str] = None,
        verdict: Optional[str] = None,
    ):
        self.kind, self.line, self.text, self.holds, self.detail = kind, line, text, holds, detail
        self.vacuous = vacuous
        self._verdict = verdict

    @classmethod
    def _of(cls, report: dict) -> "Check":
        """The verdict of a report of kind "check" or "hint"."""
        return cls(
            report["kind"],
            report["line"],
            report["formula"],
            report["holds"],
            report.get("detail"),
            report.get("vacuous_reason"),
            report.get("verdict"),
        )

    def __repr__(self) -> str:
        extra = "" if self.vacuous is None else ", vacuous=True"
        return f"Check(kind={self.kind!r}, line={self.line}, text={self.text!r}, holds={self.holds!r}{extra})"

    def __str__(self) -> str:
        return self._verdict or f"line {self.line}: {self.kind} `{self.text}`"


class Show:
    """What a ``show e`` found: ``line`` (None from :meth:`Story.show`), ``expression``
    (e as written), ``probability`` (whether e is a probability), ``value`` (e's value
    in the actual world: a ``fractions.Fraction`` for a probability, else an int, a bool
    or an enum's variant name; None without an actual world) and ``values`` (without
    one: (value, how many worlds have it) pairs, grouped by value, else None). ``str()``
    is what ``epipen run`` prints: ``line 18: show probability(Contestant, car == two)
    = 2/3``."""

    __slots__ = ("line", "expression", "probability", "value", "values", "_text")

    def __init__(self, line, expression, probability, value, values, text):
        self.line, self.expression, self.probability = line, expression, probability
        self.value, self.values, self._text = value, values, text

    @classmethod
    def _of(cls, report: dict) -> "Show":
        """The ``show`` report of a run."""
        p = bool(report.get("probability", False))
        values = report.get("values")
        return cls(
            report["line"],
            report["expression"],
            p,
            _value(report["value"], p) if "value" in report else None,
            None if values is None else [(_value(c["value"], p), c["worlds"]) for c in values],
            report.get("text", ""),
        )

    @classmethod
    def _native(cls, raw: tuple) -> "Show":
        """What the native story's ``show`` answers: (expression, actual, [(value,
        worlds)], text), each value a (kind, value) pair."""
        expression, actual, by_world, text = raw

        def one(kv):
            kind, v = kv
            return Fraction(v) if kind == "probability" else v

        kinds = [actual[0]] if actual is not None else [kv[0] for kv, _ in by_world]
        return cls(
            None,
            expression,
            "probability" in kinds,
            None if actual is None else one(actual),
            None if actual is not None else [(one(kv), n) for kv, n in by_world],
            text,
        )

    def __repr__(self) -> str:
        found = f"value={self.value!r}" if self.values is None else f"values={self.values!r}"
        return f"Show(line={self.line!r}, expression={self.expression!r}, {found})"

    def __str__(self) -> str:
        return self._text.rstrip("\n")


class Plan:
    """The answer of a ``plan`` (or ``plan all``) statement: ``line`` (None from
    :meth:`Story.plan`), ``solvable`` (whether some plan of at most its ``max`` actions
    reaches the goal), ``length`` (how many actions each plan found has, 0 when the goal
    holds already; None when there is none) and ``plans`` (each plan as the list of its
    actions' names, ``"call[0, 1]"`` for a member of a family: the first plan, or with
    ``plan all`` every plan of the shortest length; empty when there is none). A plan
    that finds none does not stop the run (``epipen run`` exits with 1 at its end).
    ``str()`` is what ``epipen run`` prints: ``line 7: plan of 1 action: tell``,
    ``line 9: no plan of at most 2 actions`` (from :meth:`Story.plan`, without the
    line: ``plan of 1 action: tell``)."""

    __slots__ = ("line", "solvable", "length", "plans", "_text")

    line: Optional[int]
    solvable: bool
    length: Optional[int]
    plans: list[list[str]]

    def __init__(self, line: Optional[int], solvable: bool, length: Optional[int], plans: list, text: str = ""):
        self.line, self.solvable, self.length = line, solvable, length
        self.plans = [list(p) for p in plans]
        self._text = text

    @classmethod
    def _of(cls, report: dict) -> "Plan":
        """The ``plan`` report of a run."""
        return cls(report["line"], report["solvable"], report["length"], report["plans"], report.get("text", ""))

    def __repr__(self) -> str:
        return f"Plan(line={self.line}, solvable={self.solvable!r}, length={self.length!r}, plans={self.plans!r})"

    def __str__(self) -> str:
        return self._text.rstrip("\n")


class Event(dict):
    """Something the story printed, as a dict: ``kind`` "worlds" (a ``worlds``
    statement: ``line``, ``worlds``), "where" (a ``where φ`` statement: ``line``,
    ``formula``, ``worlds``: those possible there where φ holds), "reveal" (``line``,
    ``round``, ``who``, ``said``, ``holds``), "event" (an event happened: ``line``,
    ``round``, ``event``, ``case``, ``saw``: for each character, the cases it could not
    tell apart), "repeat" (``line``, ``rounds``), "show" (see :class:`Show`) or "plan"
    (see :class:`Plan`).
    ``str()`` is what ``epipen run`` prints for it."""

    _text = ""

    def __str__(self) -> str:
        return self._text.rstrip("\n")


def _events(names: list, reports: list) -> list:
    """What the story printed, from the run's reports (checks and hints aside)."""
    events = []
    for r in reports:
        if r["kind"] in ("check", "hint"):
            continue
        r = dict(r)
        text = r.pop("text")
        e = Event(r)
        e._text = text
        if e["kind"] in ("worlds", "where"):
            view = {"worlds": e.pop("worlds"), "complete": e.pop("complete"), "before": e.pop("before", None)}
            e.pop("left_none", None)
            heading, _, listing = text.partition("\n")
            e["worlds"] = Worlds._of(names, {**view, "text": listing})
        events.append(e)
    return events


def _checks(reports: list) -> list:
    return [Check._of(r) for r in reports if r["kind"] in ("check", "hint")]


def _shows(reports: list) -> list:
    return [Show._of(r) for r in reports if r["kind"] == "show"]


def _plans(reports: list) -> list:
    return [Plan._of(r) for r in reports if r["kind"] == "plan"]


class Step:
    """The worlds after one statement of a trace (or at its start, or after a round of a
    ``repeat``): ``line`` (None at the start), ``statement`` (on one line), ``title``
    (how the trace names the step: ``line 26, round 3: repeat …``, ``line 12 (i = 2):
    …``, ``lines 12-14 (i in 0..7): 21 steps``), ``round`` (of its ``repeat``, else
    None), ``sees`` (an event without an actual world: which cases each character tells
    apart), ``count`` (an int, "infinite", or ">200": more
    than the solver listed), ``worlds`` (a :class:`Worlds` when at most the trace's limit,
    else None), ``changed`` (None: cannot tell), ``removed`` (how many worlds it
    eliminated, when both counts are exact), ``eliminated`` (the worlds followed since
    the first finite state that it eliminated) and ``beliefs`` (for a statement that asks
    what characters believe: dicts with ``who``, ``actual``, ``worlds`` it cannot tell
    apart and those it ``believed`` most plausible)."""

    __slots__ = (
        "line",
        "statement",
        "title",
        "round",
        "sees",
        "count",
        "worlds",
        "changed",
        "removed",
        "eliminated",
        "beliefs",
        "_text",
    )

    def __init__(self, names: list, raw: dict):
        self.line = raw["line"]
        self.statement = raw["event"]
        self.title = raw["label"]
        self.round = raw.get("round")
        self.sees = list(raw.get("sees", []))
        self.count = raw["worlds"]
        listed = raw.get("list")
        self.worlds = None if listed is None else Worlds(names, _worlds(listed), True)
        self.changed = raw["changed"]
        self.removed = raw.get("removed")
        gone = raw.get("eliminated")
        self.eliminated = None if gone is None else _worlds(gone)
        self.beliefs = [
            {
                "who": b["who"],
                "actual": b["actual"],
                "worlds": _worlds(b["worlds"]),
                "believed": _worlds(b["believed"]),
            }
            for b in raw.get("beliefs", [])
        ]
        self._text = raw["text"]

    def __str__(self) -> str:
        return self._text.rstrip("\n")

    def __repr__(self) -> str:
        return f"Step(line={self.line!r}, count={self.count!r}, statement={self.statement!r})"


class Trace(list):
    """A story run statement by statement (``epipen run --trace``): a list of
    :class:`Step`, the first at the start. ``events`` is what the story printed,
    ``checks`` its checks' and hints' verdicts, ``plans`` its plans' answers
    (:class:`Plan`), ``fates`` which statement eliminated each
    world (a list of (World, line or None: still possible), followed from line
    ``since``), or None when the worlds were never few enough to follow (10 000);
    ``fate_titles`` how the trace names the step that eliminated each (``line 26,
    round 2: repeat …``; None: still possible)."""

    def __init__(self, names: list, raw: dict):
        super().__init__(Step(names, s) for s in raw["steps"])
        self.names = names
        self.events = _events(names, raw["reports"])
        self.checks = _checks(raw["reports"])
        self.shows = _shows(raw["reports"])
        self.plans = _plans(raw["reports"])
        fates = raw["fates"]
        self.since = None if fates is None else fates["since"]
        self.fates = None if fates is None else [(World(f["world"]), f["eliminated_by"]) for f in fates["fates"]]
        self.fate_titles = None if fates is None else [f.get("label") for f in fates["fates"]]
        self._text = raw["text"]

    @property
    def counts(self) -> list:
        """The number of worlds after each step: ``['infinite', 10, 5, 3, 1]``…"""
        return [s.count for s in self]

    def __str__(self) -> str:
        return self._text

    def _repr_html_(self) -> str:
        rows = []
        for s in self:
            # The count as the trace's text says it: `3 worlds (2 eliminated)`.
            count = html.escape(s._text.split("\n", 1)[0].split("  =>  ", 1)[-1])
            listed = ""
            if s.changed and s.worlds is not None:
                listed = "<br>".join(
                    html.escape(str(w) + ("" if w.probability is None else f"   [{w.probability}]"))
                    for w in s.worlds[:HTML_ROWS]
                )
                if len(s.worlds) > HTML_ROWS:
                    listed += f"<br><i>and {len(s.worlds) - HTML_ROWS} more</i>"
            line = "" if s.line is None else str(s.line)
            # A world per line, never broken inside (`month = 7, day` / `= 14`).
            rows.append(
                f"<tr><td>{line}</td><td><code>{html.escape(s.title)}</code></td>"
                f'<td>{count}</td><td class="epipen-worlds" style="white-space: nowrap">{listed}</td></tr>'
            )
        arrows = " → ".join("∞" if c == "infinite" else str(c) for c in self.counts)
        return (
            f"<p><b>{html.escape(arrows)}</b></p>"
            '<table class="epipen-trace"><thead><tr><th>line</th><th>step</th>'
            "<th>worlds</th><th>the worlds</th></tr></thead><tbody>"
            + "".join(rows)
            + "</tbody></table>"
        )

    def to_pandas(self):
        """The steps as a pandas DataFrame: line, statement, count, removed, changed."""
        pd = _need("pandas", "to_pandas()")
        return pd.DataFrame(
            [
                {"line": s.line, "statement": s.statement, "count": s.count, "removed": s.removed, "changed": s.changed}
                for s in self
            ]
        )


class Model:
    """The epistemic model at a checkpoint (or the story's end): ``worlds`` (a list of
    :class:`World`), ``characters`` (their names), ``edges``: (a, b, who), an index
    pair into ``worlds`` and the names of the characters who cannot tell the two worlds
    apart, and ``beliefs``: (a, b, who) where the characters, in world a, find world b
    the most plausible of those they cannot tell from it; ``actual``: the index of the
    actual world in ``worlds`` (None when the story declares none). In Jupyter it is drawn (``_repr_svg_``, by epipen itself: no Graphviz); ``svg``
    is the picture's text."""

    def __init__(self, raw: dict, at: Optional[str]):
        names = [n for n, _ in raw["constants"]]
        self.at = at
        self.title = raw["title"]
        self.characters = list(raw["characters"])
        self.names = names
        self.worlds = _worlds(raw["worlds"])
        for w, p in zip(self.worlds, raw.get("probabilities") or []):
            w.probability = Fraction(p)
        self.edges = [(e["a"], e["b"], tuple(e["who"])) for e in raw["edges"]]
        self.beliefs = [(a["from"], a["to"], tuple(a["who"])) for a in raw["beliefs"]]
        self.actual = raw["actual"]
        self.svg = raw["svg"]

    def __repr__(self) -> str:
        return f"<epipen.Model {self.title}, {len(self.edges)} edges>"

    def _repr_svg_(self) -> str:
        return self.svg

    def indistinguishable(self, character: str) -> list:
        """The pairs of worlds ``character`` cannot tell apart, as (World, World)."""
        return [(self.worlds[a], self.worlds[b]) for a, b, who in self.edges if character in who]

    def to_networkx(self):
        """The model as a networkx Graph: nodes 0, 1, … with the world's values as
        attributes (and ``label``), edges with ``who`` (the characters' names)."""
        nx = _need("networkx", "to_networkx()")
        g = nx.Graph(title=self.title)
        for k, w in enumerate(self.worlds):
            g.add_node(k, label=str(w), **w)
        for a, b, who in self.edges:
            g.add_edge(a, b, who=who)
        return g


class Result:
    """A story run to its end (:func:`epipen.run`).

    Attributes:
        worlds: the worlds possible at the end (:class:`Worlds`, at most ``limit``).
        complete: whether those are all of them.
        checks: the verdicts of its ``check`` statements and ``assert_adds_ck`` hints
            (:class:`Check`): a failing one does not stop the run, as in ``epipen check``.
        shows: what its ``show`` statements found (:class:`Show`: probabilities as
            ``fractions.Fraction``).
        plans: the answers of its ``plan`` statements (:class:`Plan`): a plan that
            finds none does not stop the run.
        events: what the story printed (``worlds`` statements, reveals, rounds).
        backend: the backend that ran it: "explicit", "bdd" or "z3".
        constants: (name, type) of each constant.
        checkpoints: the checkpoints' names.
    """

    def __init__(self, raw: dict, request: dict):
        self.constants = [tuple(c) for c in raw["constants"]]
        names = [n for n, _ in self.constants]
        self.worlds = Worlds._of(names, raw["worlds"])
        self.complete = raw["worlds"]["complete"]
        self.checks = _checks(raw["reports"])
        self.shows = _shows(raw["reports"])
        self.plans = _plans(raw["reports"])
        self.events = _events(names, raw["reports"])
        self.backend = raw["backend"]
        self.checkpoints = list(raw["checkpoints"])
        self._request = request
        self._text = raw["text"]
        self._trace = None
        self._models: dict = {}

    @property
    def trace(self) -> Trace:
        """The worlds after each statement (:class:`Trace`), as ``epipen run --trace``
        gives them (the story runs again, traced, the first time it is asked for)."""
        if self._trace is None:
            from . import _native

            r = self._request
            raw = json.loads(
                _native.trace(r["name"], r["source"], r["sets"], r["seed"], r["backend"], r["timeout"], r["limit"])
            )
            self._trace = Trace([n for n, _ in raw["constants"]], raw)
        return self._trace

    def model(self, at: Optional[str] = None) -> Model:
        """The epistemic model at checkpoint ``at`` (None: the end of the story), as
        ``epipen graph --at`` gives it (at most 500 worlds; more is a StoryError)."""
        if at not in self._models:
            from . import _native

            r = self._request
            raw = json.loads(_native.model(r["name"], r["source"], r["sets"], r["seed"], r["backend"], r["timeout"], at))
            self._models[at] = Model(raw, at)
        return self._models[at]

    def __repr__(self) -> str:
        n = len(self.worlds)
        if self.complete:
            count = f"{n} world{'' if n == 1 else 's'}"
        else:
            count = "more than one world" if n == 1 else f"more than {n} worlds"
        shown = "; ".join(str(w) for w in self.worlds[:3]) + ("; …" if n > 3 else "")
        return f"<epipen.Result: {count}{': ' + shown if shown else ''}>"

    def __str__(self) -> str:
        """What ``epipen run`` prints for the story."""
        return self._text

    def _repr_html_(self) -> str:
        parts = []
        for c in self.checks:
            colour = "#b54708" if c.vacuous else {True: "#067647", False: "#b42318", None: "#6b7280"}[c.holds]
            parts.append(f'<p style="color:{colour}">{html.escape(str(c))}</p>')
        for s in self.shows:
            parts.append(f'<p class="epipen-show">{html.escape(str(s))}</p>')
        for p in self.plans:
            colour = "#067647" if p.solvable else "#b42318"
            parts.append(f'<p class="epipen-plan" style="color:{colour}">{html.escape(str(p))}</p>')
        return "".join(parts) + self.worlds._repr_html_()
