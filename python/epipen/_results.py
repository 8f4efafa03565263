"""What a run gives back: worlds, checks, traces and models, with their text (as the
``epipen`` command prints them), their Jupyter displays (HTML tables, the model as SVG)
and their pandas / networkx forms."""

from __future__ import annotations

import html
import re
from fractions import Fraction
from types import ModuleType
from typing import TYPE_CHECKING, Any, Iterable, Literal, Mapping, Optional, Sequence, TypedDict, Union

from ._boundary import Count, ShownReply, Value

if TYPE_CHECKING:
    import networkx
    import pandas

__all__ = ["World", "Worlds", "Check", "Show", "Plan", "Event", "Step", "Trace", "Model", "Result"]

#: A worlds table shows at most this many rows; the rest are counted ("and N more").
HTML_ROWS = 20

#: A value ``show`` found: a ``Fraction`` for a probability, else an int, a bool or a
#: variant's name.
Shown = Union[Fraction, Value]

# --- what the native module's JSON holds (``_native.run``, ``trace``, ``model``) ---

#: A world as its view carries it: the constants it shows by name, and its
#: ``"probability"`` (an exact fraction's text, ``"1/3"``) when the story speaks of
#: chances.
RawWorld = dict[str, Value]


class RawStatement(TypedDict):
    """A statement a message names (``left_none``: the one that left no world)."""

    line: int
    statement: str


class _RawWorlds(TypedDict):
    worlds: list[RawWorld]
    complete: bool


class RawWorlds(_RawWorlds, total=False):
    """The worlds possible somewhere: all of them when ``complete``."""

    #: When the story changed constants: each world's values at its start.
    before: list[RawWorld]
    left_none: RawStatement
    #: What ``epipen worlds`` prints of them.
    text: str


class _RawReport(TypedDict):
    line: int
    #: What ``epipen run`` prints for it.
    text: str


class _RawWorldsReport(_RawReport):
    kind: Literal["worlds"]
    worlds: list[RawWorld]
    complete: bool


class RawWorldsReport(_RawWorldsReport, total=False):
    """A ``worlds`` statement's worlds."""

    before: list[RawWorld]
    left_none: RawStatement


class _RawWhereReport(_RawReport):
    kind: Literal["where"]
    formula: str
    worlds: list[RawWorld]
    complete: bool


class RawWhereReport(_RawWhereReport, total=False):
    """A ``where φ`` statement: the worlds possible there where φ holds."""

    before: list[RawWorld]
    left_none: RawStatement


class RawRevealReport(_RawReport):
    """``A reveals φ``: what A said (φ, or its negation), in the round of its ``repeat``."""

    kind: Literal["reveal"]
    round: Optional[int]
    who: str
    said: str
    holds: bool


class RawEventReport(_RawReport):
    """An event happened: its case, and what each character saw (the cases it could not
    tell from it)."""

    kind: Literal["event"]
    round: Optional[int]
    event: str
    case: str
    saw: dict[str, list[str]]


class RawRepeatReport(_RawReport):
    """A ``repeat`` stopped after ``rounds`` rounds."""

    kind: Literal["repeat"]
    rounds: int


class RawCounted(TypedDict):
    """A value ``show`` found, and how many worlds have it."""

    value: Value
    worlds: int


class _RawShowReport(_RawReport):
    kind: Literal["show"]
    expression: str


class RawShowReport(_RawShowReport, total=False):
    """``show e``: e's value in the actual world, or without one its values by world (a
    probability's as exact fractions' texts)."""

    probability: bool
    value: Value
    values: list[RawCounted]


class _RawVerdict(_RawReport):
    kind: Literal["check", "hint"]
    #: The formula (or the hint) as written.
    formula: str
    #: None: a hint taken on trust.
    holds: Optional[bool]
    #: ``epipen check``'s line for it.
    verdict: str
    #: Why it holds only vacuously (None: some world is possible).
    vacuous_reason: Optional[str]
    #: Why it failed: the world where a check is false, a hint's counterexample.
    detail: Optional[str]


class RawVerdict(_RawVerdict, total=False):
    """The verdict of a ``check`` or an ``assert_adds_ck`` hint."""

    trusted: bool
    vacuous: bool
    left_none: RawStatement
    world: RawWorld
    counterexample: str
    seconds: float


class RawPlanReport(_RawReport):
    """A ``plan`` statement's answer."""

    kind: Literal["plan"]
    solvable: bool
    length: Optional[int]
    plans: list[list[str]]


#: Something a run reports, by its ``kind``.
RawReport = Union[
    RawWorldsReport,
    RawWhereReport,
    RawRevealReport,
    RawEventReport,
    RawRepeatReport,
    RawShowReport,
    RawVerdict,
    RawPlanReport,
]


class _RawStory(TypedDict):
    #: (name, type) of each constant: ``int``, ``bool`` or the enum's name.
    constants: list[list[str]]


class RawRun(_RawStory):
    """A story run to its end (``_native.run``)."""

    checkpoints: list[str]
    #: The backend that ran it: "explicit", "bdd" or "z3".
    backend: str
    worlds: RawWorlds
    reports: list[RawReport]
    #: What ``epipen run`` prints.
    text: str


class _RawBelief(TypedDict):
    who: str
    #: Whether these are the worlds it cannot tell from the actual world.
    actual: bool
    worlds: list[RawWorld]
    believed: list[RawWorld]


class RawBelief(_RawBelief, total=False):
    """What a character believes: of the worlds it cannot tell apart, those it finds
    most plausible."""

    text: str


class _RawStep(TypedDict):
    kind: Literal["step"]
    #: None: the start.
    line: Optional[int]
    #: The statement on one line.
    event: str
    #: How the trace names the step.
    label: str
    worlds: Count
    changed: Optional[bool]
    text: str


class RawStep(_RawStep, total=False):
    """The worlds after one statement of a trace (``epipen run --trace --json``'s
    ``step`` lines)."""

    round: int
    #: The loop variables around it, each with the values it took.
    loops: dict[str, list[int]]
    #: How many statements the step stands for, and the last one's line.
    steps: int
    last_line: Optional[int]
    sees: list[str]
    #: The worlds, when at most the trace's limit.
    list: list[RawWorld]
    removed: int
    eliminated: list[RawWorld]
    beliefs: list[RawBelief]


class _RawFate(TypedDict):
    world: RawWorld
    eliminated_by: Optional[int]


class RawFate(_RawFate, total=False):
    """A world followed, and the step that eliminated it (None: still possible)."""

    label: str
    round: int


class RawFates(TypedDict):
    """Which statement eliminated each world followed since line ``since``."""

    kind: Literal["fates"]
    since: Optional[int]
    fates: list[RawFate]
    text: str


class RawTrace(_RawStory):
    """A story run statement by statement (``_native.trace``)."""

    checkpoints: list[str]
    steps: list[RawStep]
    reports: list[RawReport]
    #: None: the worlds were never few enough to follow.
    fates: Optional[RawFates]
    #: What ``epipen run --trace`` prints.
    text: str


class RawEdge(TypedDict):
    """Two worlds (indices) the characters ``who`` cannot tell apart."""

    a: int
    b: int
    who: list[str]


#: In world ``from``, the characters ``who`` find world ``to`` most plausible.
RawArrow = TypedDict("RawArrow", {"from": int, "to": int, "who": list[str]})


class RawPlausible(TypedDict):
    """The worlds (indices) ``who`` finds most plausible."""

    who: str
    worlds: list[int]


class _RawModel(_RawStory):
    title: str
    characters: list[str]
    worlds: list[RawWorld]
    #: The actual world's index, when the story has one.
    actual: Optional[int]
    edges: list[RawEdge]
    beliefs: list[RawArrow]
    svg: str


class RawModel(_RawModel, total=False):
    """The epistemic model at a checkpoint (``_native.model``)."""

    plausible: list[RawPlausible]
    #: Each world's probability, when the story speaks of chances.
    probabilities: list[str]


class Request(TypedDict):
    """A story and how to run it, as :func:`epipen.run` checked them: what
    :attr:`Result.trace` and :meth:`Result.model` run again."""

    name: str
    source: str
    sets: list[tuple[str, int]]
    seed: int
    backend: str
    timeout: Optional[float]
    limit: int


def _need(module: str, what: str) -> ModuleType:
    try:
        return __import__(module)
    except ImportError:
        raise ImportError(
            f"{what} needs {module}, which is not installed: pip install {module}"
        ) from None


def _value_text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class World(dict[str, Value]):
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


def _world(view: RawWorld) -> World:
    """A world from its view: the constants it shows, and its ``"probability"`` (a
    fraction's text, which no constant's value is: not a constant of the world)."""
    chance = view.get("probability")
    if isinstance(chance, str) and _RATIO.match(chance):
        view = {k: v for k, v in view.items() if k != "probability"}
        w = World(view)
        w.probability = Fraction(chance)
        return w
    return World(view)


def _worlds(views: Iterable[RawWorld]) -> list[World]:
    """Worlds from their views (dicts of the constants they show, and a probability)."""
    return [_world(v) for v in views]


def _value(v: Value, probability: bool) -> Shown:
    """A value a ``show`` found: a Fraction for a probability, else as JSON has it."""
    return Fraction(v) if probability else v


def _table(names: Sequence[str], worlds: Sequence[World], cap: int = HTML_ROWS, extra: str = "") -> str:
    chances = any(w.probability is not None for w in worlds)
    head = "".join(f"<th>{html.escape(n)}</th>" for n in names)
    head += "<th><i>probability</i></th>" if chances else ""

    def chance(w: World) -> str:
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


class Worlds(list[World]):
    """The worlds possible at some point of a story, in canonical order (smaller values
    first), as a list of :class:`World`. ``complete`` is True when the solver proved there
    are no others; False when more exist beyond the limit. ``str()`` is what
    ``epipen worlds`` prints; in Jupyter it shows as a table (at most 20 rows, then "and
    N more")."""

    def __init__(
        self,
        names: Iterable[str],
        worlds: Iterable[World],
        complete: bool,
        before: Optional[list[World]] = None,
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
    def _of(cls, names: Sequence[str], view: RawWorlds) -> Worlds:
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
    def probabilities(self) -> Optional[list[Fraction]]:
        """Each world's probability (a ``Fraction``), when the story speaks of chances;
        else None."""
        chances = [w.probability for w in self]
        if not chances or any(p is None for p in chances):
            return None
        return [p for p in chances if p is not None]

    def to_pandas(self) -> pandas.DataFrame:
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
    def _of(cls, report: RawVerdict) -> Check:
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

    def __init__(
        self,
        line: Optional[int],
        expression: str,
        probability: bool,
        value: Optional[Shown],
        values: Optional[list[tuple[Shown, int]]],
        text: str,
    ):
        self.line, self.expression, self.probability = line, expression, probability
        self.value, self.values, self._text = value, values, text

    @classmethod
    def _of(cls, report: RawShowReport) -> Show:
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
    def _native(cls, raw: ShownReply) -> Show:
        """What the native story's ``show`` answers: (expression, actual, [(value,
        worlds)], text), each value a (kind, value) pair."""
        expression, actual, by_world, text = raw

        def one(kv: tuple[str, Value]) -> Shown:
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

    def __init__(
        self, line: Optional[int], solvable: bool, length: Optional[int], plans: Iterable[Iterable[str]], text: str = ""
    ):
        self.line, self.solvable, self.length = line, solvable, length
        self.plans = [list(p) for p in plans]
        self._text = text

    @classmethod
    def _of(cls, report: RawPlanReport) -> Plan:
        """The ``plan`` report of a run."""
        return cls(report["line"], report["solvable"], report["length"], report["plans"], report.get("text", ""))

    def __repr__(self) -> str:
        return f"Plan(line={self.line}, solvable={self.solvable!r}, length={self.length!r}, plans={self.plans!r})"

    def __str__(self) -> str:
        return self._text.rstrip("\n")


class Event(dict[str, Any]):  # its fields' types depend on its kind
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


def _events(names: Sequence[str], reports: Iterable[RawReport]) -> list[Event]:
    """What the story printed, from the run's reports (checks and hints aside)."""
    events = []
    for r in reports:
        if r["kind"] in ("check", "hint"):
            continue
        fields: dict[str, Any] = dict(r)
        text = fields.pop("text")
        e = Event(fields)
        e._text = text
        if e["kind"] in ("worlds", "where"):
            view: RawWorlds = {"worlds": e.pop("worlds"), "complete": e.pop("complete")}
            before = e.pop("before", None)
            if before is not None:
                view["before"] = before
            e.pop("left_none", None)
            heading, _, listing = text.partition("\n")
            e["worlds"] = Worlds._of(names, {**view, "text": listing})
        events.append(e)
    return events


def _checks(reports: Iterable[RawReport]) -> list[Check]:
    return [Check._of(r) for r in reports if r["kind"] == "check" or r["kind"] == "hint"]


def _shows(reports: Iterable[RawReport]) -> list[Show]:
    return [Show._of(r) for r in reports if r["kind"] == "show"]


def _plans(reports: Iterable[RawReport]) -> list[Plan]:
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

    def __init__(self, names: Sequence[str], raw: RawStep):
        self.line: Optional[int] = raw["line"]
        self.statement: str = raw["event"]
        self.title: str = raw["label"]
        self.round: Optional[int] = raw.get("round")
        self.sees: list[str] = list(raw.get("sees", []))
        self.count: Count = raw["worlds"]
        listed = raw.get("list")
        self.worlds: Optional[Worlds] = None if listed is None else Worlds(names, _worlds(listed), True)
        self.changed: Optional[bool] = raw["changed"]
        self.removed: Optional[int] = raw.get("removed")
        gone = raw.get("eliminated")
        self.eliminated: Optional[list[World]] = None if gone is None else _worlds(gone)
        self.beliefs: list[Belief] = [
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


class Belief(TypedDict):
    """What a character believes at a step of a trace (:attr:`Step.beliefs`)."""

    who: str
    #: Whether these are the worlds it cannot tell from the actual world.
    actual: bool
    #: The worlds it cannot tell apart, and those it finds most plausible.
    worlds: list[World]
    believed: list[World]


class Trace(list[Step]):
    """A story run statement by statement (``epipen run --trace``): a list of
    :class:`Step`, the first at the start. ``events`` is what the story printed,
    ``checks`` its checks' and hints' verdicts, ``plans`` its plans' answers
    (:class:`Plan`), ``fates`` which statement eliminated each
    world (a list of (World, line or None: still possible), followed from line
    ``since``), or None when the worlds were never few enough to follow (10 000);
    ``fate_titles`` how the trace names the step that eliminated each (``line 26,
    round 2: repeat …``; None: still possible)."""

    def __init__(self, names: list[str], raw: RawTrace):
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
    def counts(self) -> list[Count]:
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

    def to_pandas(self) -> pandas.DataFrame:
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

    def __init__(self, raw: RawModel, at: Optional[str]):
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

    def indistinguishable(self, character: str) -> list[tuple[World, World]]:
        """The pairs of worlds ``character`` cannot tell apart, as (World, World)."""
        return [(self.worlds[a], self.worlds[b]) for a, b, who in self.edges if character in who]

    def to_networkx(self) -> networkx.Graph:
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

    def __init__(self, raw: RawRun, request: Request):
        self.constants: list[tuple[str, str]] = [(name, ty) for name, ty in raw["constants"]]
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
        self._trace: Optional[Trace] = None
        self._models: dict[Optional[str], Model] = {}

    @property
    def trace(self) -> Trace:
        """The worlds after each statement (:class:`Trace`), as ``epipen run --trace``
        gives them (the story runs again, traced, the first time it is asked for)."""
        if self._trace is None:
            from . import _native

            r = self._request
            raw: RawTrace = _native.trace(
                r["name"], r["source"], r["sets"], r["seed"], r["backend"], r["timeout"], r["limit"]
            )
            self._trace = Trace([n for n, _ in raw["constants"]], raw)
        return self._trace

    def model(self, at: Optional[str] = None) -> Model:
        """The epistemic model at checkpoint ``at`` (None: the end of the story), as
        ``epipen graph --at`` gives it (at most 500 worlds; more is a StoryError)."""
        if at not in self._models:
            from . import _native

            r = self._request
            raw: RawModel = _native.model(r["name"], r["source"], r["sets"], r["seed"], r["backend"], r["timeout"], at)
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
