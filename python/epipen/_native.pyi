"""The native module of the epipen package (crates/epipen-python): a thin layer over
the epipen library. The package's Python modules wrap it; these are its types (what
crosses the boundary is typed in ``epipen._boundary``).

``run``, ``trace``, ``model``, ``smcdel`` and ``mastar_plan`` answer with the views of
epipen's kit (worlds, reports, trace steps, the model) as dicts and lists, each with its
``text`` as the ``epipen`` command prints it, in the shapes of ``epipen._results``
(``RawRun``, ``RawTrace``, ``RawModel``) and ``epipen`` (``RawSmcdel``,
``RawFilePlan``), which the package's classes wrap. A failure raises ``StoryError``, ``SolverError`` or
``RefutedError`` (from ``epipen._errors``) carrying its line, column, message and hint.

The handles of ``epipen.Story`` are native: expressions (:class:`Expr`: :class:`Int`,
:class:`Bool`, :class:`EnumValue`, :class:`Probability`) with Python's operators,
:class:`Character`, :class:`Checkpoint`, and the functions that combine them; ``epipen``
exports them under these names."""

import builtins
from fractions import Fraction
from typing import Iterable, Literal, NoReturn, Optional, Sequence, Union, overload

from . import RawFilePlan, RawSmcdel
from ._boundary import (
    BlockItem,
    CaseLine,
    CaseName,
    Change,
    ExpectsLine,
    HintVerdict,
    Planned,
    Reported,
    SampleChunk,
    SeesLine,
    ShownReply,
    ValuesRow,
    WorldsReply,
)
from ._expr import EnumType, Owner
from ._results import RawModel, RawRun, RawTrace

__version__: str

#: Values of a story's consts, by name (``--set n=8``).
Sets = Sequence[tuple[str, int]]

def z3_version() -> str: ...
def cli_main(argv: list[str]) -> int: ...
def run(
    name: str, source: str, sets: Sets, seed: int, backend: str, timeout: Optional[float], limit: int
) -> RawRun: ...
def trace(
    name: str, source: str, sets: Sets, seed: int, backend: str, timeout: Optional[float], limit: int
) -> RawTrace: ...
def model(
    name: str, source: str, sets: Sets, seed: int, backend: str, timeout: Optional[float], at: Optional[str]
) -> RawModel: ...
def smcdel(name: str, source: str, backend: str, timeout: Optional[float]) -> RawSmcdel: ...
def mastar_plan(name: str, source: str, max: int, backend: str, timeout: Optional[float]) -> RawFilePlan: ...
def sweep_check(
    name: str,
    source: str,
    names: list[str],
    first_sets: Sets,
    first_seed: int,
    seed: int,
    samples: Optional[int],
) -> None: ...
def sweep_samples(
    name: str,
    source: str,
    sets: Sets,
    first_seed: int,
    count: int,
    backend: str,
    timeout: Optional[float],
    threads: Optional[int],
) -> SampleChunk: ...
def sweep_values(
    name: str,
    source: str,
    combos: Sequence[Sets],
    seed: int,
    backend: str,
    timeout: Optional[float],
    threads: Optional[int],
) -> list[ValuesRow]: ...

_IntLike = Union[Int, builtins.int]
_Formula = Union[Bool, builtins.bool]
_Value = Union[Int, Bool, EnumValue, builtins.int, builtins.bool]
_Term = Union[Probability, Int, builtins.int, Fraction]

class Expr:
    """An expression of a story: a native handle, and its text (``repr``). Like z3's
    expressions, it has no truth value: ``bool()`` raises ``TypeError``."""

    @property
    def _type(self) -> str: ...
    @property
    def _owner(self) -> Optional[Owner]: ...
    @property
    def _text(self) -> str: ...
    @property
    def _constant(self) -> Optional[builtins.int]: ...
    def __bool__(self) -> NoReturn: ...
    def __hash__(self) -> builtins.int: ...

class Int(Expr):
    """An integer expression: an ``int`` constant, a literal, or arithmetic on them.
    ``//`` and ``%`` are the story language's (SMT-LIB's) division and modulo:
    ``0 <= x % y < |y|``, ``x // 0 == 0``, ``x % 0 == x``."""

    def __add__(self, o: _IntLike) -> Int: ...
    def __radd__(self, o: _IntLike) -> Int: ...
    def __sub__(self, o: _IntLike) -> Int: ...
    def __rsub__(self, o: _IntLike) -> Int: ...
    def __mul__(self, o: _IntLike) -> Int: ...
    def __rmul__(self, o: _IntLike) -> Int: ...
    def __floordiv__(self, o: _IntLike) -> Int: ...
    def __rfloordiv__(self, o: _IntLike) -> Int: ...
    def __mod__(self, o: _IntLike) -> Int: ...
    def __rmod__(self, o: _IntLike) -> Int: ...
    def __truediv__(self, o: object) -> NoReturn: ...
    def __rtruediv__(self, o: object) -> NoReturn: ...
    def __neg__(self) -> Int: ...
    def __pos__(self) -> Int: ...
    def __abs__(self) -> Int: ...
    def __eq__(self, o: object) -> Bool: ...  # type: ignore[override]
    def __ne__(self, o: object) -> Bool: ...  # type: ignore[override]
    def __lt__(self, o: _IntLike) -> Bool: ...
    def __le__(self, o: _IntLike) -> Bool: ...
    def __gt__(self, o: _IntLike) -> Bool: ...
    def __ge__(self, o: _IntLike) -> Bool: ...
    def is_in(self, values: Iterable[_IntLike]) -> Bool:
        """``self in {values}``: equal to one of them (false for none)."""

class Bool(Expr):
    """A formula: a ``bool`` constant, a comparison, a combination with ``& | ~ ^``, or
    a knowledge operator (:func:`knows`, :func:`knows_value`, :func:`believes`,
    :func:`believes_value`, :func:`at`, …)."""

    def __and__(self, o: _Formula) -> Bool: ...
    def __rand__(self, o: _Formula) -> Bool: ...
    def __or__(self, o: _Formula) -> Bool: ...
    def __ror__(self, o: _Formula) -> Bool: ...
    def __xor__(self, o: _Formula) -> Bool: ...
    def __rxor__(self, o: _Formula) -> Bool: ...
    def __invert__(self) -> Bool: ...
    def __eq__(self, o: object) -> Bool: ...  # type: ignore[override]
    def __ne__(self, o: object) -> Bool: ...  # type: ignore[override]
    def implies(self, o: _Formula) -> Bool:
        """``self -> o``."""
    def iff(self, o: _Formula) -> Bool:
        """``self <-> o``."""

class EnumValue(Expr):
    """A value of an enum (``Story.enumeration``): a constant of the enum, or one of its
    variants. Compare with ``==`` and ``!=`` to values of the same enum or variants'
    names: ``cloe == "red"``."""

    def __new__(cls, value: EnumValue) -> EnumValue: ...
    @property
    def _enum(self) -> EnumType: ...
    def __eq__(self, o: object) -> Bool: ...  # type: ignore[override]
    def __ne__(self, o: object) -> Bool: ...  # type: ignore[override]
    def is_in(self, values: Iterable[Union[EnumValue, str]]) -> Bool:
        """``self in {values}`` (variants' names or values)."""

class Probability(Expr):
    """A probability term: :func:`probability`, or exact arithmetic on probabilities,
    ints, :class:`Int` expressions and ``Fraction`` values. Compare it (``== != < <= >
    >=``) to get a :class:`Bool`; show its value with ``Story.show``."""

    def __add__(self, o: _Term) -> Probability: ...
    def __radd__(self, o: _Term) -> Probability: ...
    def __sub__(self, o: _Term) -> Probability: ...
    def __rsub__(self, o: _Term) -> Probability: ...
    def __mul__(self, o: _Term) -> Probability: ...
    def __rmul__(self, o: _Term) -> Probability: ...
    def __truediv__(self, o: _Term) -> Probability: ...
    def __rtruediv__(self, o: _Term) -> Probability: ...
    def __neg__(self) -> Probability: ...
    def __pos__(self) -> Probability: ...
    def __eq__(self, o: object) -> Bool: ...  # type: ignore[override]
    def __ne__(self, o: object) -> Bool: ...  # type: ignore[override]
    def __lt__(self, o: _Term) -> Bool: ...
    def __le__(self, o: _Term) -> Bool: ...
    def __gt__(self, o: _Term) -> Bool: ...
    def __ge__(self, o: _Term) -> Bool: ...

class Character:
    """A character of a story (``Story.character``)."""

    name: str
    _story: Owner
    _index: builtins.int
    def __init__(self, story: Owner, index: builtins.int, name: str) -> None: ...

class Checkpoint:
    """A saved knowledge state (``Story.checkpoint``), for :func:`at`."""

    name: str
    _story: Owner
    def __init__(self, story: Owner, name: str) -> None: ...

@overload
def leaf(owner: Owner, kind: Literal["int"], index: builtins.int, name: str) -> Int: ...
@overload
def leaf(owner: Owner, kind: Literal["bool"], index: builtins.int, name: str) -> Bool: ...
@overload
def leaf(
    owner: Owner,
    kind: Literal["enum", "variant", "case", "latest", "occurrence"],
    index: builtins.int,
    name: str,
    enum_type: EnumType,
    of: Optional[str] = None,
    k: Optional[builtins.int] = None,
) -> EnumValue: ...
def as_int(x: object, what: str = "an int") -> Int: ...
def as_bool(x: object) -> Bool: ...
def as_value(x: object) -> Union[Int, Bool, EnumValue]: ...
def knows(who: Union[Character, _Formula], formula: Optional[_Formula] = None) -> Bool:
    """``knows(A, φ)``: A knows that φ. In what a character ``says``, the speaker may be
    left out: ``knows(φ)``."""
def knows_value(*args: Union[Character, _Value]) -> Bool:
    """``knows_value(A, e1, …, en)``: A knows the value of the tuple (e1, …, en). In what
    a character ``says``, the speaker may be left out: ``knows_value(e)``."""
def knows_whether(who: Union[Character, _Formula], formula: Optional[_Formula] = None) -> Bool:
    """``knows_whether(A, φ)``: A knows whether φ holds (``knows_value`` of a formula)."""
def believes(who: Union[Character, _Formula], formula: Optional[_Formula] = None) -> Bool:
    """``believes(A, φ)``: φ holds in every world A finds most plausible among those it
    cannot tell from this one (belief can be wrong, knowledge cannot)."""
def believes_value(*args: Union[Character, _Value]) -> Bool:
    """``believes_value(A, e1, …, en)``: the worlds A finds most plausible among those it
    cannot tell from this one agree on the tuple (e1, …, en)."""
def probability(who: Union[Character, _Formula], formula: Optional[_Formula] = None) -> Probability:
    """``probability(A, φ)``: A's probability of φ in this world. ``probability(φ)``: in
    what a character says, the speaker's; elsewhere the storyteller's."""
def at(checkpoint: Checkpoint, formula: _Formula) -> Bool:
    """``at(c, φ)``: φ with its knowledge operators evaluated at checkpoint ``c``."""
def everyone_knows(group: Iterable[Character], formula: _Formula) -> Bool:
    """``everyone_knows(G, φ)``: every character of ``group`` knows φ."""
def common_knowledge(group: Iterable[Character], formula: _Formula) -> Bool:
    """``common_knowledge(G, φ)``: φ is common knowledge among ``group``."""
def distributed_knowledge(group: Iterable[Character], formula: _Formula) -> Bool:
    """``distributed_knowledge(G, φ)``: φ follows from what ``group`` knows together."""
def And(*formulas: Union[_Formula, Iterable[_Formula]]) -> Bool:
    """Every formula holds (true for none): ``And(a, b, c)`` or ``And([a, b, c])``."""
def Or(*formulas: Union[_Formula, Iterable[_Formula]]) -> Bool:
    """At least one formula holds (false for none)."""
def Not(formula: _Formula) -> Bool:
    """``not φ`` (also ``~φ``)."""
def Implies(a: _Formula, b: _Formula) -> Bool:
    """``a -> b``."""
def Iff(a: _Formula, b: _Formula) -> Bool:
    """``a <-> b``."""
@overload
def If(condition: _Formula, then: _Formula, otherwise: _Formula) -> Bool: ...  # type: ignore[overload-overlap]
@overload
def If(condition: _Formula, then: _IntLike, otherwise: _IntLike) -> Int: ...
@overload
def If(condition: _Formula, then: EnumValue, otherwise: EnumValue) -> EnumValue: ...
def Sum(*terms: Union[_IntLike, Iterable[_IntLike]]) -> Int:
    """The sum of the terms (0 for none)."""
def Count(*formulas: Union[_Formula, Iterable[_Formula]]) -> Int:
    """How many of the formulas hold."""
def tuple_in(values: Sequence[_Value], rows: Iterable[Sequence[Union[_Value, str]]]) -> Bool:
    """``(e1, …, en) in {(a1, …, an), …}``: the tuple equals one of the rows; rows of
    Python ints, or of expressions (and variants' names, for an enum value)."""

class NativeStory:
    """The Rust API's story, run on a thread of its own (``epipen.Story`` wraps it).
    Declarations answer their index (characters, constants, enums, actions: each kind
    counted apart), which handles name them by (:func:`leaf`); statements take the
    handles, and their lines as lists."""

    def __new__(cls, backend: str, timeout: Optional[float], trust_hints: bool) -> "NativeStory": ...
    def character(self, name: str) -> builtins.int: ...
    def int(self, name: str) -> builtins.int: ...
    def bool(self, name: str) -> builtins.int: ...
    def enumeration(self, name: str, variants: Sequence[str]) -> builtins.int: ...
    def enum_constant(self, ty: builtins.int, name: str) -> builtins.int: ...
    def checkpoint(self, name: str) -> None: ...
    def announce(self, formula: Bool) -> None: ...
    def says(self, who: builtins.int, formula: Bool) -> None: ...
    def learns(self, who: builtins.int, values: Sequence[Expr]) -> None: ...
    def actual(self, formula: Bool) -> None: ...
    def reveals(self, who: builtins.int, formula: Bool) -> builtins.bool: ...
    def check(self, formula: Bool) -> None: ...
    def expects(self, who: builtins.int, formula: Bool) -> None: ...
    def assign(self, constant: Expr, value: Expr) -> None: ...
    def assign_all(self, changes: Sequence[Change]) -> None: ...
    def check_actual(self, formula: Bool) -> None: ...
    def event(
        self,
        name: str,
        cases: Sequence[CaseLine],
        sees: Sequence[SeesLine],
        expects: Sequence[ExpectsLine],
        actual: Sequence[CaseName],
    ) -> Reported: ...
    def simultaneously(self, block: Sequence[BlockItem]) -> list[builtins.bool]: ...
    def assert_adds_ck(self, hint: Bool, block: Sequence[BlockItem]) -> HintVerdict: ...
    def prior(self, weight: Int) -> None: ...
    def show(self, value: Expr) -> ShownReply: ...
    def worlds(self, limit: builtins.int) -> WorldsReply: ...
    def action(
        self,
        name: str,
        by: Optional[builtins.int],
        when: Optional[Bool],
        cases: Sequence[CaseLine],
        sees: Sequence[SeesLine],
        expects: Sequence[ExpectsLine],
    ) -> builtins.int: ...
    def do_actions(self, steps: Sequence[tuple[builtins.int, Optional[str]]]) -> list[Reported]: ...
    def plan(
        self, goal: Bool, max: builtins.int, keeping: Optional[Bool], coordinated: builtins.bool, all: builtins.bool
    ) -> Planned: ...
    def close(self) -> None: ...
