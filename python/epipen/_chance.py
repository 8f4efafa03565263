"""Probabilities in ``epipen.Story`` (docs/language.md, "Probability"):
:func:`probability` gives a :class:`Probability` term, exact (no floating point), which
adds, subtracts, multiplies and divides (``/`` is exact) with ints, :class:`Int`
expressions, ``fractions.Fraction`` values and other probabilities, and compares with
them into a :class:`Bool` that goes wherever a formula goes:
``probability(contestant, car == "two") == Fraction(2, 3)``."""

from __future__ import annotations

from fractions import Fraction
from typing import Optional, Union

from ._boundary import Term
from ._expr import Bool, Character, Expr, Formula, Int, _bool, _int, _mix, _speaker, _who

__all__ = ["Probability", "probability", "ProbabilityLike"]

#: What a probability term combines with: a probability, an int (or :class:`Int`), or an
#: exact ``fractions.Fraction``.
ProbabilityLike = Union["Probability", Int, int, Fraction]

_I64 = (-(2**63), 2**63 - 1)

# Precedence of the text forms, as in ``_expr``.
_ADD, _MUL, _NEG, _CMP = 8, 9, 10, 7


class Probability(Expr):
    """A probability term: :func:`probability`, or exact arithmetic on probabilities,
    ints, :class:`Int` expressions and ``Fraction`` values. Compare it (``== != < <= >
    >=``) to get a :class:`Bool`; show its value with :meth:`Story.show`."""

    __slots__ = ()
    _type = "a probability"
    _t: Term

    def __add__(self, o: ProbabilityLike) -> Probability:
        return _arith("+", self, o)

    def __radd__(self, o: ProbabilityLike) -> Probability:
        return _arith("+", o, self)

    def __sub__(self, o: ProbabilityLike) -> Probability:
        return _arith("-", self, o)

    def __rsub__(self, o: ProbabilityLike) -> Probability:
        return _arith("-", o, self)

    def __mul__(self, o: ProbabilityLike) -> Probability:
        return _arith("*", self, o)

    def __rmul__(self, o: ProbabilityLike) -> Probability:
        return _arith("*", o, self)

    def __truediv__(self, o: ProbabilityLike) -> Probability:
        return _arith("/", self, o)

    def __rtruediv__(self, o: ProbabilityLike) -> Probability:
        return _arith("/", o, self)

    def __neg__(self) -> Probability:
        return Probability(("rneg", self._t), self._owner, f"-{self._paren(_NEG)}", _NEG)

    def __pos__(self) -> Probability:
        return self

    def __eq__(self, o: object) -> Bool:  # type: ignore[override]
        return _compare("==", self, o)

    def __ne__(self, o: object) -> Bool:  # type: ignore[override]
        return _compare("!=", self, o)

    def __lt__(self, o: ProbabilityLike) -> Bool:
        return _compare("<", self, o)

    def __le__(self, o: ProbabilityLike) -> Bool:
        return _compare("<=", self, o)

    def __gt__(self, o: ProbabilityLike) -> Bool:
        return _compare(">", self, o)

    def __ge__(self, o: ProbabilityLike) -> Bool:
        return _compare(">=", self, o)

    __hash__ = Expr.__hash__


def _term(x: object) -> Probability:
    """``x`` as a probability term: a probability, an int (or Int), or a Fraction."""
    if isinstance(x, Probability):
        return x
    if isinstance(x, Fraction):
        n, d = x.numerator, x.denominator
        if not (_I64[0] <= n <= _I64[1] and d <= _I64[1]):
            raise ValueError(f"the fraction {x} does not fit in 64 bits")
        if d == 1:
            return Probability(("ratio", n, 1), None, str(n))
        return Probability(("ratio", n, d), None, f"{n}/{d}", _MUL)
    if isinstance(x, Int) or (isinstance(x, int) and not isinstance(x, bool)):
        i = _int(x)
        return Probability(("rint", i._t), i._owner, i._text, i._prec)
    if isinstance(x, float):
        raise TypeError(
            f"probabilities are exact: compare them with fractions.Fraction or ints, not the float {x!r}"
        )
    if isinstance(x, Expr):
        raise TypeError(f"a probability is compared with numbers, found {x._type} `{x!r}`")
    raise TypeError(f"expected a probability, an int or a fractions.Fraction, found {type(x).__name__} {x!r}")


def _arith(op: str, x: object, y: object) -> Probability:
    a, b = _term(x), _term(y)
    prec = _ADD if op in "+-" else _MUL
    text = f"{a._paren(prec)} {op} {b._paren(prec + 1)}"
    return Probability(("rarith", op, a._t, b._t), _mix(a._owner, b._owner), text, prec)


def _compare(op: str, x: object, y: object) -> Bool:
    a, b = _term(x), _term(y)
    text = f"{a._paren(_ADD)} {op} {b._paren(_ADD)}"
    return Bool(("chance", op, a._t, b._t), _mix(a._owner, b._owner), text, _CMP)


def probability(who: Union[Character, Formula], formula: Optional[Formula] = None) -> Probability:
    """``probability(A, φ)``: A's probability of φ in this world, the weight of the
    worlds A cannot tell from it where φ holds over the weight of them all.
    ``probability(φ)``: in what a character :meth:`Story.says`, the speaker's; elsewhere
    the storyteller's, over every world still possible."""
    a, f = _speaker(who, formula)
    owner = _mix(f._owner, a._story if a is not None else None)
    name = f"{a.name}, " if a is not None else ""
    return Probability(("prob", _who(a), f._t), owner, f"probability({name}{f._text})")
