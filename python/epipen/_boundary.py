"""What crosses between the package and its native module (``_native.pyi`` types the
module's functions with these): expressions as trees of tuples, the statements of
blocks and events as tuples, and what the native story answers. Types only, imported
by every module that builds or reads them; this module imports none of the package's.

``run``, ``trace``, ``model``, ``smcdel`` and ``mastar_plan`` answer with views as
dicts and lists, typed where the modules that read them are (``_results``: ``RawRun``,
``RawTrace``, ``RawModel``; ``epipen``: ``RawSmcdel``, ``RawFilePlan``)."""

from __future__ import annotations

from typing import Literal, Optional, TypedDict, Union

__all__ = [
    "Value",
    "Count",
    "Tree",
    "Term",
    "CaseName",
    "Groups",
    "CaseLine",
    "Change",
    "SeesLine",
    "ExpectsLine",
    "BlockItem",
    "Reported",
    "ShownValue",
    "ShownReply",
    "WorldsReply",
    "Planned",
    "HintVerdict",
    "SampleChunk",
    "FirstUnique",
    "ValuesRow",
]

#: A constant's value: an int, a bool, or an enum's variant by name.
Value = Union[int, bool, str]

#: How many worlds are possible: an int, ``"infinite"``, or ``">N"`` (more than N).
Count = Union[int, str]

#: An expression (an int, a formula, an enum value) as the native story reads it: a
#: tuple tagged by its kind, characters, constants, enums and events by their index of
#: declaration, checkpoints by name. ``_expr`` builds them.
Tree = Union[
    tuple[Literal["const"], int],
    tuple[Literal["int"], int],
    tuple[Literal["bool"], bool],
    # A variant of the enum with this index, by name.
    tuple[Literal["variant"], int, str],
    tuple[Literal["neg"], "Tree"],
    # + - * / %
    tuple[Literal["arith"], str, "Tree", "Tree"],
    # == != < <= > >=
    tuple[Literal["cmp"], str, "Tree", "Tree"],
    tuple[Literal["not"], "Tree"],
    # and, or, implies, iff
    tuple[Literal["logic"], str, "Tree", "Tree"],
    tuple[Literal["ite"], "Tree", "Tree", "Tree"],
    # (e1, …, en) in {rows}
    tuple[Literal["in"], list["Tree"], list[list["Tree"]]],
    # The character's index; None: the speaker of the `says` it is in.
    tuple[Literal["knows"], Optional[int], "Tree"],
    tuple[Literal["knows_value"], Optional[int], list["Tree"]],
    tuple[Literal["believes"], Optional[int], "Tree"],
    tuple[Literal["believes_value"], Optional[int], list["Tree"]],
    # at(checkpoint, φ)
    tuple[Literal["at"], str, "Tree"],
    # everyone, common or distributed, the characters' indices, φ
    tuple[Literal["group"], str, list[Optional[int]], "Tree"],
    # The latest execution's case of the event with this index.
    tuple[Literal["latest"], int],
    # A case of the event with this index, by name; with the event of the block whose
    # handle named it (None: by name only).
    tuple[Literal["case"], int, str, Optional[str]],
    # A comparison of probability terms.
    tuple[Literal["chance"], str, "Term", "Term"],
]

#: A probability term (``_chance``): ``probability(A, φ)`` (A's index; None: the
#: speaker's, or the storyteller's), an exact fraction (numerator, denominator), an int
#: expression, or arithmetic on terms.
Term = Union[
    tuple[Literal["prob"], Optional[int], Tree],
    tuple[Literal["ratio"], int, int],
    tuple[Literal["rint"], Tree],
    # + - * /
    tuple[Literal["rarith"], str, "Term", "Term"],
    tuple[Literal["rneg"], "Term"],
]

#: A case as a ``sees`` group, an ``expects`` group or ``actual`` names it: by name (a
#: case of the block, or a family's name in a group), or a case of another block (its
#: event, its name), which the native story refuses in its own words.
CaseName = Union[tuple[Literal["name"], str], tuple[Literal["foreign"], str, str]]

#: Groups of cases, in order.
Groups = list[list[CaseName]]

#: ``target := value``: the constant's index, the value.
Change = tuple[int, Tree]

#: A case of an event block: its name, its precondition, its changes, its weight.
CaseLine = tuple[str, Optional[Tree], list[Change], Optional[Tree]]

#: ``A sees G1 | G2 | …``: the character's index, its groups (None: ``sees each``).
SeesLine = tuple[int, Optional[Groups]]

#: ``A expects G1 > G2 > …``: the character's index, its groups.
ExpectsLine = tuple[int, Groups]

#: A statement of a ``simultaneously`` or ``assert_adds_ck`` block (characters by index).
BlockItem = Union[
    tuple[Literal["announce"], Tree],
    tuple[Literal["says"], int, Tree],
    tuple[Literal["reveals"], int, Tree],
    tuple[Literal["learns"], int, list[Tree]],
    tuple[Literal["checkpoint"], str],
    tuple[Literal["simultaneously"], list["BlockItem"]],
]

#: What happened at an event (or an action done): the event's index, its name, its
#: cases, the occurrence's constant index, the case in the actual world and its index
#: (None without one), for each character the cases it could not tell from it, and
#: ``epipen run``'s line for it.
Reported = tuple[int, str, list[str], int, Optional[str], Optional[int], list[list[str]], str]

#: A value ``show`` found, with its kind: a probability as its exact text (``"2/3"``).
ShownValue = Union[
    tuple[Literal["int"], int],
    tuple[Literal["bool"], bool],
    tuple[Literal["name"], str],
    tuple[Literal["probability"], str],
]

#: What ``show`` found: the expression as written, its value in the actual world (None
#: without one), else (value, how many worlds have it) pairs, and its text.
ShownReply = tuple[str, Optional[ShownValue], list[tuple[ShownValue, int]], str]

#: The worlds possible now: the constants' names, each world's values, whether those
#: are all, their text, and their probabilities as exact texts (None: no chances).
WorldsReply = tuple[list[str], list[tuple[Value, ...]], bool, str, Optional[list[str]]]

#: A plan's answer: whether one was found, its length (None: none), the plans (as
#: action names), its text.
Planned = tuple[bool, Optional[int], list[list[str]], str]

#: An ``assert_adds_ck`` hint's verdict (a refuted hint raises ``RefutedError``).
HintVerdict = Literal["verified", "trusted", "vacuous", "refuted"]


class FirstUnique(TypedDict):
    """The first sample of a chunk that left exactly one world."""

    seed: int
    #: The constants' names (a family's size may depend on the values) and the world.
    names: list[str]
    world: tuple[Value, ...]
    #: For each ``sample(…)``: its line, the items it drew (values, tuples of values, or
    #: an item's text when it names a constant).
    drew: list[tuple[int, list[Union[Value, tuple[Value, ...]]]]]
    #: For each ``sample(…)``: its line, its items as written (``{(5, 15), (6, 17)}``).
    drew_text: list[tuple[int, str]]


class SampleChunk(TypedDict):
    """A chunk of samples of one combination of values (``sweep_samples``)."""

    #: Samples by the number of worlds they left (``">1000"``: more, or infinitely many).
    counts: dict[Count, int]
    failed: int
    first_unique: Optional[FirstUnique]
    #: The first failed sample: its seed, its message, its exit code.
    first_error: Optional[tuple[int, str, int]]


class ValuesRow(TypedDict):
    """One run of a sweep over values (``sweep_values``)."""

    #: How many worlds it left (None: it failed).
    worlds: Optional[Count]
    #: When it left exactly one world: the constants' names, the world.
    names: Optional[list[str]]
    world: Optional[tuple[Value, ...]]
    #: When it failed: its message, its exit code.
    error: Optional[tuple[str, int]]
    ms: float
