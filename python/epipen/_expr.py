"""The expressions of ``epipen.Story``: :class:`Int`, :class:`Bool`, :class:`EnumValue`
and :class:`Probability` (with Python's operators), characters, checkpoints, and the
knowledge operators (``knows``, ``believes``, ``common_knowledge``, …): native handles
(``_native``, typed in ``_native.pyi``), re-exported here, and :class:`EnumType`.
``_story`` tells them; ``_events`` builds events of them; neither is imported here, even
for types: a handle knows its story only as an :class:`Owner`."""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Protocol, Sequence, Union

from . import _native
from ._errors import StoryError
from ._native import (
    And,
    Bool,
    Character,
    Checkpoint,
    Count,
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

__all__ = [
    "Owner",
    "IntLike",
    "Formula",
    "ValueLike",
    "ProbabilityLike",
    "Character",
    "Checkpoint",
    "Expr",
    "Int",
    "Bool",
    "EnumValue",
    "EnumType",
    "Probability",
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
]


class Owner(Protocol):
    """The story a handle belongs to, as the handles see it (``epipen.Story`` is one):
    compared by identity (handles of two stories do not mix), and asked to declare a
    constant of one of its enums (:meth:`EnumType.constant`)."""

    def enum_constant(self, ty: EnumType, name: str) -> EnumValue: ...


#: An int expression: an :class:`Int`, or a Python int (of any size).
IntLike = Union[Int, int]
#: A formula: a :class:`Bool`, or a Python bool.
Formula = Union[Bool, bool]
#: A value: an :class:`Int`, a :class:`Bool` or an :class:`EnumValue`, or a Python int or bool.
ValueLike = Union[Int, Bool, EnumValue, int, bool]
#: What a probability term combines with: a probability, an int (or :class:`Int`), or an
#: exact ``fractions.Fraction``.
ProbabilityLike = Union[Probability, Int, int, Fraction]

_int = _native.as_int
_bool = _native.as_bool
_any = _native.as_value


def _flat(args: Sequence[object]) -> list[object]:
    """``f(a, b, c)`` or ``f([a, b, c])``: the items (each function checks their type)."""
    if len(args) == 1 and not isinstance(args[0], Expr) and isinstance(args[0], Iterable):
        return list(args[0])
    return list(args)


class EnumType:
    """An enum type of a :class:`Story`: its variants as values (``Colour.red``,
    ``Colour["red"]``), and :meth:`constant` to declare a constant of the type."""

    def __init__(self, story: Owner, index: int, name: str, variants: Sequence[str]):
        self._story, self._index, self.name, self.variants = story, index, name, list(variants)

    def __getitem__(self, variant: str) -> EnumValue:
        if variant not in self.variants:
            raise StoryError(
                f"enum `{self.name}` has no variant `{variant}` (its variants: {', '.join(self.variants)})"
            )
        return _native.leaf(self._story, "variant", self._index, variant, self)

    def _operand(self, o: object) -> EnumValue:
        """What a value of the enum is compared with: a variant's name."""
        if isinstance(o, str):
            return self[o]
        raise TypeError(f"compare enum values with values of the same enum or variants' names, not {o!r}")

    def __getattr__(self, variant: str) -> EnumValue:
        if variant.startswith("_"):
            raise AttributeError(variant)
        return self[variant]

    def values(self) -> list[EnumValue]:
        """Every variant, in declaration order."""
        return [self[v] for v in self.variants]

    def constant(self, name: str) -> EnumValue:
        """Declares a constant of this enum (``Story.enum_constant``)."""
        return self._story.enum_constant(self, name)

    def __repr__(self) -> str:
        return f"enum {self.name} {{{', '.join(self.variants)}}}"
