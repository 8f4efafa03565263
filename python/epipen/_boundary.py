"""What crosses between the package and its native module (``_native.pyi`` types the
module's functions with these): the statements of blocks and events as tuples of
native handles (``_native.Expr``), and what the native story answers. Types only,
imported by every module that builds or reads them; this module imports none of the
package's Python modules.

``run``, ``trace``, ``model``, ``smcdel`` and ``mastar_plan`` answer with views as
dicts and lists, typed where the modules that read them are (``_results``: ``RawRun``,
``RawTrace``, ``RawModel``; ``epipen``: ``RawSmcdel``, ``RawFilePlan``)."""

from __future__ import annotations

from typing import Literal, Optional, TypedDict, Union

from ._native import Bool, Expr, Int

__all__ = [
    "Value",
    "Count",
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
    "EnumRef",
    "HandleReply",
    "SampleChunk",
    "FirstUnique",
    "ValuesRow",
]

#: A constant's value: an int, a bool, or an enum's variant by name.
Value = Union[int, bool, str]

#: How many worlds are possible: an int, ``"infinite"``, or ``">N"`` (more than N).
Count = Union[int, str]

#: A case as a ``sees`` group, an ``expects`` group or ``actual`` names it: by name (a
#: case of the block, or a family's name in a group), or a case of another block (its
#: event, its name), which the native story refuses in its own words.
CaseName = Union[str, tuple[str, str]]

#: Groups of cases, in order.
Groups = list[list[CaseName]]

#: ``target := value``: the constant, the value.
Change = tuple[Expr, Expr]

#: A case of an event block: its name, its precondition, its changes, its weight.
CaseLine = tuple[str, Optional[Bool], list[Change], Optional[Int]]

#: ``A sees G1 | G2 | …``: the character's index, its groups (None: ``sees each``).
SeesLine = tuple[int, Optional[Groups]]

#: ``A expects G1 > G2 > …``: the character's index, its groups.
ExpectsLine = tuple[int, Groups]

#: A statement of a ``simultaneously`` or ``assert_adds_ck`` block (characters by
#: index): ``announce``'s formula, ``says`` and ``reveals`` as (who, formula, whether it
#: reveals), ``learns`` as (who, values), a checkpoint's name, a nested block's list.
BlockItem = Union[Bool, tuple[int, Bool, bool], tuple[int, list[Expr]], str, list["BlockItem"]]

#: What happened at an event (or an action done): the event's index, which execution of
#: it this was (from 1, text told included), its name, its cases, the case in the actual
#: world and its index (None without one), for each character the cases it could not
#: tell from it, and ``epipen run``'s line for it.
Reported = tuple[int, int, str, list[str], Optional[str], Optional[int], list[list[str]], str]

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

#: An enum as ``Story.handle`` gives it: its index among the native story's, its name,
#: its variants.
EnumRef = tuple[int, str, list[str]]

#: What a name stands for (``Story.handle``): ``("character", index, name)``, ``("int" |
#: "bool", constant's index, name)``, ``("enum", constant's index, name, enum)``,
#: ``("variant", name, enum)``, ``("enum_type", enum)``, ``("const", value)``,
#: ``("checkpoint", name)``, ``("event", index, name, cases)``, ``("action", index,
#: name, who does it as (index, name) or None)``, ``("family", [members])``.
HandleReply = Union[
    tuple[Literal["character"], int, str],
    tuple[Literal["int", "bool"], int, str],
    tuple[Literal["enum"], int, str, EnumRef],
    tuple[Literal["variant"], str, EnumRef],
    tuple[Literal["enum_type"], EnumRef],
    tuple[Literal["const"], int],
    tuple[Literal["checkpoint"], str],
    tuple[Literal["event"], int, str, list[str]],
    tuple[Literal["action"], int, str, Optional[tuple[int, str]]],
    tuple[Literal["family"], list["HandleReply"]],
]

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
