"""epipen: solve epistemic logic puzzles (Cheryl's Birthday, Sum and Product, the muddy
children, …) with the Z3 SMT solver, from Python.

- :func:`run` / :func:`run_file`: a story in epipen's language, solved; the result has
  the worlds possible at its end, its checks, its trace and its epistemic models.
- :class:`Story`: a puzzle told statement by statement in Python (an EpiPEn script
  ports line by line), with :func:`knows`, :func:`knows_value`, :func:`believes` and
  friends, events that characters see part of (:meth:`Story.event`), and actions
  done (:meth:`Story.do`) or planned (:meth:`Story.plan`).
- :func:`plan_file`: a shortest plan of an mA* file (the planners' language, ``epipen plan``);
- :func:`smcdel`: a file in SMCDEL's text format (``VARS``, ``LAW``, ``OBS``, jobs),
  answered on epipen's engine.
- :func:`sweep`: a story run for many values or random samples, on this machine's cores
  or as Ray tasks (``cluster="ray"``).
- Errors are exceptions: :class:`StoryError` (the story is wrong, with ``line``,
  ``column`` and the command line's message), :class:`SolverError` (a timeout, Z3's
  ``unknown``). Ctrl-C (or a notebook's interrupt button) stops a solve with
  KeyboardInterrupt.

The package carries its own Z3 (5.4), which loads beside any ``z3-solver``; the
``epipen`` command comes with it.
"""

from __future__ import annotations

import os
from typing import Literal, Mapping, Optional, TypedDict, Union

from . import _native
from ._actions import Action
from ._errors import EpipenError, RefutedError, SolverError, StoryError
from ._options import backend_checked, limit_checked, timeout_checked
from ._events import Case, EventBlock, EventCases, EventHandle, Happened
from ._expr import (
    And,
    Bool,
    Character,
    Checkpoint,
    Count,
    EnumType,
    EnumValue,
    Expr,
    If,
    Iff,
    Implies,
    Int,
    Not,
    Or,
    Probability,
    Sum,
    at,
    believes,
    believes_value,
    common_knowledge,
    distributed_knowledge,
    everyone_knows,
    knows,
    knows_value,
    knows_whether,
    probability,
    tuple_in,
)
from ._results import Check, Event, Model, Plan, RawRun, Request, Result, Show, Step, Trace, World, Worlds
from ._story import Handle, Story
from ._sweep import MAX_RUNS, Sweep, SweepGroup, SweepRow, sweep, sweep_file

__version__: str = _native.__version__

__all__ = [
    "__version__",
    "z3_version",
    "run",
    "run_file",
    "smcdel",
    "SmcdelJobs",
    "plan_file",
    "FilePlan",
    "Result",
    "World",
    "Worlds",
    "Check",
    "Show",
    "Plan",
    "Event",
    "Step",
    "Trace",
    "Model",
    "EpipenError",
    "StoryError",
    "SolverError",
    "RefutedError",
    "Story",
    "Handle",
    "Character",
    "Checkpoint",
    "Expr",
    "Int",
    "Bool",
    "Probability",
    "EnumValue",
    "EnumType",
    "EventBlock",
    "Case",
    "EventHandle",
    "EventCases",
    "Happened",
    "Action",
    "knows",
    "knows_value",
    "knows_whether",
    "believes",
    "believes_value",
    "probability",
    "at",
    "everyone_knows",
    "common_knowledge",
    "distributed_knowledge",
    "And",
    "Or",
    "Not",
    "Implies",
    "Iff",
    "If",
    "Sum",
    "Count",
    "tuple_in",
    "sweep",
    "sweep_file",
    "Sweep",
    "SweepGroup",
    "SweepRow",
    "MAX_RUNS",
]


def z3_version() -> str:
    """The version of the Z3 library epipen loaded (its own, not z3-solver's): ``5.4.0.0``."""
    return _native.z3_version()


def _sets(sets: Optional[Mapping[str, int]]) -> list[tuple[str, int]]:
    out = []
    for name, value in (sets or {}).items():
        if not isinstance(name, str):
            raise TypeError(f"sets: a const's name is a str, not {name!r}")
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"sets[{name!r}]: a const's value is an int, not {value!r} (epipen.sweep takes ranges)")
        if not -(2**63) <= value < 2**63:
            raise ValueError(f"sets[{name!r}]: {value} does not fit in 64 bits")
        out.append((name, value))
    return out


def _request(
    name: str,
    source: object,
    sets: Optional[Mapping[str, int]],
    seed: int,
    backend: str,
    timeout: Optional[float],
    limit: int,
) -> Request:
    if not isinstance(source, str):
        raise TypeError(f"a story is a str (its text), not {type(source).__name__}; epipen.run_file reads a file")
    backend_checked(backend)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed={seed!r}: a seed is an int from 0 to 2**64 - 1")
    timeout_checked(timeout)
    limit_checked(limit)
    return {
        "name": name,
        "source": source,
        "sets": _sets(sets),
        "seed": seed,
        "backend": backend,
        "timeout": None if timeout is None else float(timeout),
        "limit": limit,
    }


def run(
    source: str,
    *,
    sets: Optional[Mapping[str, int]] = None,
    seed: int = 0,
    backend: str = "auto",
    timeout: Optional[float] = None,
    limit: int = 100,
    name: str = "<story>",
) -> Result:
    """Solves the story ``source`` (a story in epipen's language) and returns its
    :class:`Result`: the worlds possible at its end (at most ``limit``, in canonical
    order), whether that is all of them, its checks' verdicts, what it printed; and on
    demand its trace (``.trace``) and its epistemic models (``.model(at=…)``).

    ``sets`` overrides consts (``{"n": 8}``, as ``--set n=8``), ``seed`` picks the draws
    of ``sample(…)``, ``backend`` is "auto", "z3", "bdd" or "explicit", ``timeout`` is in
    seconds (None: none; Ctrl-C stops it anyway), ``name`` is what messages call the story.

    Raises :class:`StoryError` (with ``line``, ``column``, ``message``; ``str()`` is the
    command line's message) when the story is wrong, :class:`SolverError` when the solver
    cannot answer (a timeout, ``unknown``).

    >>> r = epipen.run(open("stories/cheryl.story").read())
    >>> r.worlds
    [{'month': 7, 'day': 16}]
    """
    request = _request(name, source, sets, seed, backend, timeout, limit)
    raw: RawRun = _native.run(
        request["name"], request["source"], request["sets"], seed, backend, request["timeout"], limit
    )
    return Result(raw, request)


class _RawSmcdelJob(TypedDict):
    kind: Literal["true", "valid", "where"]
    line: int
    answer: Union[bool, list[list[int]]]
    formula: str


class RawSmcdelJob(_RawSmcdelJob, total=False):
    """A job of an SMCDEL file and its answer: true or false, or the states (each its
    true atoms, sorted) where the formula holds."""

    #: ``TRUE?``'s state, as the file writes it.
    state: list[int]


class RawSmcdel(TypedDict):
    """An SMCDEL file's answers (``_native.smcdel``)."""

    jobs: list[RawSmcdelJob]
    #: What ``epipen smcdel FILE`` prints.
    text: str
    #: The file as an epipen story.
    story: str


class RawFilePlan(TypedDict):
    """A plan of an mA* file (``_native.mastar_plan``)."""

    solvable: bool
    length: Optional[int]
    plan: list[str]
    #: What ``epipen plan FILE`` prints.
    text: str
    #: The file as an epipen story.
    story: str


class SmcdelJobs(list[RawSmcdelJob]):
    """The jobs of an SMCDEL file with their answers, in the file's order: each a dict
    with ``kind`` ("true", "valid" or "where"), ``line`` (the job's keyword's line),
    ``answer`` (True/False, or the states where the formula holds, each a sorted list of
    its true atoms), ``formula`` (as the file writes it) and, for "true", ``state``.
    ``str()`` is what ``epipen smcdel FILE`` prints; ``story`` the file as an epipen
    story (``epipen smcdel FILE --story``)."""

    def __init__(self, raw: RawSmcdel):
        super().__init__(raw["jobs"])
        self.text: str = raw["text"]
        self.story: str = raw["story"]

    def __str__(self) -> str:
        return self.text


def smcdel(
    text: str,
    *,
    backend: str = "auto",
    timeout: Optional[float] = None,
    name: str = "<smcdel>",
) -> SmcdelJobs:
    """Answers the jobs (``TRUE?``, ``VALID?``, ``WHERE?``) of ``text``, a file in
    SMCDEL's text format, on epipen's engine, as ``epipen smcdel`` does (see
    docs/smcdel.md). Raises :class:`StoryError` at the place of a syntax error, an atom
    outside ``VARS`` or an agent no ``OBS`` line declares.

    >>> jobs = epipen.smcdel("VARS 1\nLAW Top\nOBS a: 1\nVALID? a knows whether 1")
    >>> jobs[0]["answer"]
    True
    """
    raw: RawSmcdel = _native.smcdel(name, text, backend, None if timeout is None else float(timeout))
    return SmcdelJobs(raw)


class FilePlan:
    """A shortest plan of an mA* file, or none: ``solvable``, ``length`` (None when
    there is none), ``plan`` (the actions as the file names them), ``story`` (the file as
    an epipen story, ``epipen plan FILE --story``); ``str()`` is what ``epipen plan
    FILE`` prints (``plan of 2 actions: open_a, peek_a``)."""

    def __init__(self, raw: RawFilePlan):
        self.solvable: bool = raw["solvable"]
        self.length: Optional[int] = raw["length"]
        self.plan: list[str] = list(raw["plan"])
        self.text: str = raw["text"]
        self.story: str = raw["story"]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"FilePlan({self.text!r})"


def plan_file(
    path: Union[str, os.PathLike[str]],
    *,
    max: int = 20,
    backend: str = "auto",
    timeout: Optional[float] = None,
) -> FilePlan:
    """A shortest plan of at most ``max`` actions for the mA* file at ``path`` (the
    language of the epistemic planners EFP 2.0 and deep), as ``epipen plan`` finds it
    (see docs/mastar.md). Raises :class:`StoryError` at the place of a mistake in the
    file. A story's ``plan`` statements are answered by :func:`run_file` (``.plans``).

    >>> epipen.plan_file("examples/mastar/grapevine.txt").plan
    ['cat_leaves', 'ann_tells']
    """
    with open(path, encoding="utf-8") as f:
        source = f.read()
    t = None if timeout is None else float(timeout)
    raw: RawFilePlan = _native.mastar_plan(os.fspath(path), source, int(max), backend, t)
    return FilePlan(raw)


def run_file(
    path: Union[str, os.PathLike[str]],
    *,
    sets: Optional[Mapping[str, int]] = None,
    seed: int = 0,
    backend: str = "auto",
    timeout: Optional[float] = None,
    limit: int = 100,
) -> Result:
    """:func:`run` on the story in the file ``path``; messages name it by its path, as
    ``epipen worlds PATH`` does."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    return run(source, sets=sets, seed=seed, backend=backend, timeout=timeout, limit=limit, name=os.fspath(path))
