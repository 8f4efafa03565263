"""The expressions of ``epipen.Story``: :class:`Int`, :class:`Bool`, :class:`EnumValue`
(with Python's operators), characters, checkpoints, and the knowledge operators
(``knows``, ``believes``, ``common_knowledge``, …). ``_story`` tells them; ``_events``
builds events of them; neither is imported here, even for types, so the modules import
no circle: a handle knows its story only as an :class:`Owner`."""

from __future__ import annotations

from typing import Callable, Iterable, NoReturn, Optional, Protocol, Sequence, TypeVar, Union, overload

from ._boundary import Term, Tree
from ._errors import StoryError

__all__ = [
    "Owner",
    "IntLike",
    "Formula",
    "ValueLike",
    "Character",
    "Checkpoint",
    "Expr",
    "Int",
    "Bool",
    "EnumValue",
    "EnumType",
    "knows",
    "knows_value",
    "believes",
    "believes_value",
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
IntLike = Union["Int", int]
#: A formula: a :class:`Bool`, or a Python bool.
Formula = Union["Bool", bool]
#: A value: an :class:`Int`, a :class:`Bool` or an :class:`EnumValue`, or a Python int or bool.
ValueLike = Union["Int", "Bool", "EnumValue", int, bool]
#: An expression of a story's values (not a probability).
Operand = Union["Int", "Bool", "EnumValue"]

_T = TypeVar("_T")

_I64 = (-(2**63), 2**63 - 1)

# Precedence of the text forms (higher binds tighter), for parentheses in repr.
_PREC = {"iff": 2, "implies": 3, "or": 4, "and": 5, "not": 6, "cmp": 7, "+": 8, "-": 8, "*": 9, "/": 9, "%": 9, "neg": 10}


def _mix(*owners: Optional[Owner]) -> Optional[Owner]:
    """The story of a combination of expressions (None: literals only)."""
    found = None
    for o in owners:
        if o is None:
            continue
        if found is not None and o is not found:
            raise StoryError("an expression mixes handles of two different stories")
        found = o
    return found


class Expr:
    """An expression of a :class:`Story`: a tree the story hands to epipen, and its text."""

    __slots__ = ("_t", "_owner", "_text", "_prec")
    _type = "?"
    #: The tree the story reads: a value's, or a probability term's.
    _t: Union[Tree, Term]

    def __init__(self, tree: Union[Tree, Term], owner: Optional[Owner], text: str, prec: int = 100):
        self._t = tree
        self._owner = owner
        self._text = text
        self._prec = prec

    def __repr__(self) -> str:
        return self._text

    def __bool__(self) -> bool:
        raise TypeError(
            f"`{self._text}` is an epipen expression, which has no truth value in Python: "
            "combine formulas with & | ~ (or And, Or, Not), not and/or/not"
        )

    __hash__ = object.__hash__

    def _paren(self, prec: int) -> str:
        return f"({self._text})" if self._prec < prec else self._text


def _lit_tree(n: int) -> Tree:
    """An int literal of any size: a 64-bit literal, or exact arithmetic on them."""
    if _I64[0] <= n <= _I64[1]:
        return ("int", n)
    # n == (n >> 62) * 2^62 + (n & (2^62 - 1)), with |n >> 62| smaller than |n|.
    high, low = n >> 62, n & (2**62 - 1)
    return ("arith", "+", ("arith", "*", _lit_tree(high), ("int", 2**62)), ("int", low))


def _int(x: object, what: str = "an int") -> Int:
    if isinstance(x, Int):
        return x
    if isinstance(x, bool) or not isinstance(x, int):
        if isinstance(x, Expr):
            raise TypeError(f"expected an int expression, found {x._type} `{x!r}`")
        raise TypeError(f"expected {what} (an epipen Int or a Python int), found {type(x).__name__} {x!r}")
    return Int(_lit_tree(x), None, str(x))


def _bool(x: object) -> Bool:
    if isinstance(x, Bool):
        return x
    if isinstance(x, bool):
        return Bool(("bool", x), None, "true" if x else "false")
    if isinstance(x, Expr):
        raise TypeError(f"expected a formula (a Bool), found {x._type} `{x!r}`")
    raise TypeError(f"expected a formula (an epipen Bool or a Python bool), found {type(x).__name__} {x!r}")


def _any(x: object) -> Operand:
    if isinstance(x, (Int, Bool, EnumValue)):
        return x
    if isinstance(x, Expr):
        raise TypeError(
            f"expected an int, a formula or an enum value, found {x._type} `{x!r}` "
            "(compare a probability, == < …, to get a formula)"
        )
    if isinstance(x, bool):
        return _bool(x)
    if isinstance(x, int):
        return _int(x)
    raise TypeError(f"expected an epipen expression, an int or a bool, found {type(x).__name__} {x!r}")


def _rational(x: object) -> bool:
    """``x`` is a probability term (``_chance``), to which Int's operators give way."""
    return isinstance(x, Expr) and x._type == "a probability"


def _arith(op: str, x: IntLike, y: IntLike) -> Int:
    """``x op y`` (an operator's caller gives way to a probability first: ``_rational``)."""
    a, b = _int(x), _int(y)
    prec = _PREC[op]
    text = f"{a._paren(prec)} {op} {b._paren(prec + 1)}"
    return Int(("arith", op, a._t, b._t), _mix(a._owner, b._owner), text, prec)


def _cmp(op: str, a: Operand, b: Operand) -> Bool:
    text = f"{a._paren(8)} {op} {b._paren(8)}"
    return Bool(("cmp", op, a._t, b._t), _mix(a._owner, b._owner), text, _PREC["cmp"])


def _logic(op: str, x: Formula, y: Formula) -> Bool:
    a, b = _bool(x), _bool(y)
    prec = _PREC[op]
    word = {"and": "and", "or": "or", "implies": "->", "iff": "<->"}[op]
    text = f"{a._paren(prec + 1)} {word} {b._paren(prec + 1)}"
    return Bool(("logic", op, a._t, b._t), _mix(a._owner, b._owner), text, prec)


class Int(Expr):
    """An integer expression: an ``int`` constant, a literal, or arithmetic on them.
    ``//`` and ``%`` are the story language's (SMT-LIB's) division and modulo:
    ``0 <= x % y < |y|``, ``x // 0 == 0``, ``x % 0 == x``."""

    __slots__ = ()
    _type = "an int"
    _t: Tree

    # Each operator gives way to a probability (``_chance``), whose reflected operator
    # answers: ``x + probability(…)`` is a probability term.

    def __add__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("+", self, o)

    def __radd__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("+", o, self)

    def __sub__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("-", self, o)

    def __rsub__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("-", o, self)

    def __mul__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("*", self, o)

    def __rmul__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("*", o, self)

    def __floordiv__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("/", self, o)

    def __rfloordiv__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("/", o, self)

    def __mod__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("%", self, o)

    def __rmod__(self, o: IntLike) -> Int:
        return NotImplemented if _rational(o) else _arith("%", o, self)

    def __truediv__(self, o: object) -> NoReturn:
        raise TypeError("epipen ints divide with // (integer division), not /")

    __rtruediv__ = __truediv__

    def __neg__(self) -> Int:
        return Int(("neg", self._t), self._owner, f"-{self._paren(10)}", 10)

    def __pos__(self) -> Int:
        return self

    def __abs__(self) -> Int:
        return If(self >= 0, self, -self)

    def __eq__(self, o: object) -> Bool:  # type: ignore[override]
        return NotImplemented if _rational(o) else _cmp("==", self, _int(o))

    def __ne__(self, o: object) -> Bool:  # type: ignore[override]
        return NotImplemented if _rational(o) else _cmp("!=", self, _int(o))

    def __lt__(self, o: IntLike) -> Bool:
        return NotImplemented if _rational(o) else _cmp("<", self, _int(o))

    def __le__(self, o: IntLike) -> Bool:
        return NotImplemented if _rational(o) else _cmp("<=", self, _int(o))

    def __gt__(self, o: IntLike) -> Bool:
        return NotImplemented if _rational(o) else _cmp(">", self, _int(o))

    def __ge__(self, o: IntLike) -> Bool:
        return NotImplemented if _rational(o) else _cmp(">=", self, _int(o))

    __hash__ = Expr.__hash__

    def is_in(self, values: Iterable[IntLike]) -> Bool:
        """``self in {values}``: equal to one of them (false for none)."""
        return tuple_in((self,), [(v,) for v in values])


class Bool(Expr):
    """A formula: a ``bool`` constant, a comparison, a combination with ``& | ~ ^``, or
    a knowledge operator (:func:`knows`, :func:`knows_value`, :func:`believes`,
    :func:`believes_value`, :func:`at`, …)."""

    __slots__ = ()
    _type = "a formula"
    _t: Tree

    def __and__(self, o: Formula) -> Bool:
        return _logic("and", self, o)

    def __rand__(self, o: Formula) -> Bool:
        return _logic("and", o, self)

    def __or__(self, o: Formula) -> Bool:
        return _logic("or", self, o)

    def __ror__(self, o: Formula) -> Bool:
        return _logic("or", o, self)

    def __invert__(self) -> Bool:
        return Bool(("not", self._t), self._owner, f"not {self._paren(6)}", 6)

    def __xor__(self, o: Formula) -> Bool:
        return _cmp("!=", self, _bool(o))

    __rxor__ = __xor__

    def __eq__(self, o: object) -> Bool:  # type: ignore[override]
        return _cmp("==", self, _bool(o))

    def __ne__(self, o: object) -> Bool:  # type: ignore[override]
        return _cmp("!=", self, _bool(o))

    __hash__ = Expr.__hash__

    def implies(self, o: Formula) -> Bool:
        """``self -> o``."""
        return _logic("implies", self, o)

    def iff(self, o: Formula) -> Bool:
        """``self <-> o``."""
        return _logic("iff", self, o)


class EnumValue(Expr):
    """A value of an enum (:meth:`Story.enumeration`): a constant of the enum, or one of
    its variants. Compare with ``==`` and ``!=`` to values of the same enum or variants'
    names: ``cloe == "red"``."""

    __slots__ = ("_enum",)
    _type = "an enum value"
    _t: Tree

    def __init__(self, tree: Tree, owner: Optional[Owner], text: str, enum: EnumType):
        super().__init__(tree, owner, text)
        self._enum = enum

    def _other(self, o: object) -> EnumValue:
        if isinstance(o, EnumValue):
            return o
        return self._enum._operand(o)

    def __eq__(self, o: object) -> Bool:  # type: ignore[override]
        return _cmp("==", self, self._other(o))

    def __ne__(self, o: object) -> Bool:  # type: ignore[override]
        return _cmp("!=", self, self._other(o))

    __hash__ = Expr.__hash__

    def is_in(self, values: Iterable[Union[EnumValue, str]]) -> Bool:
        """``self in {values}`` (variants' names or values)."""
        return tuple_in((self,), [(self._other(v),) for v in values])


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
        return EnumValue(("variant", self._index, variant), self._story, variant, self)

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


class Character:
    """A character of a :class:`Story`."""

    __slots__ = ("_story", "_index", "name")

    def __init__(self, story: Owner, index: int, name: str):
        self._story, self._index, self.name = story, index, name

    def __repr__(self) -> str:
        return self.name


class Checkpoint:
    """A saved knowledge state (:meth:`Story.checkpoint`), for :func:`at`."""

    __slots__ = ("_story", "name")

    def __init__(self, story: Owner, name: str):
        self._story, self.name = story, name

    def __repr__(self) -> str:
        return self.name


def _who(c: object) -> Optional[int]:
    if c is None:
        return None
    if not isinstance(c, Character):
        raise TypeError(f"expected a character, found {c!r}")
    return c._index


def knows(who: Union[Character, Formula], formula: Optional[Formula] = None) -> Bool:
    """``knows(A, φ)``: A knows that φ. In what a character :meth:`Story.says`, the
    speaker may be left out: ``knows(φ)``."""
    return _of_formula("knows", who, formula)


def knows_value(*args: Union[Character, ValueLike]) -> Bool:
    """``knows_value(A, e1, …, en)``: A knows the value of the tuple (e1, …, en). In what a
    character :meth:`Story.says`, the speaker may be left out: ``knows_value(e)``."""
    return _of_values("knows_value", args)


def knows_whether(who: Union[Character, Formula], formula: Optional[Formula] = None) -> Bool:
    """``knows_whether(A, φ)``: A knows whether φ holds (``knows_value`` of a formula:
    K_A φ or K_A not φ). In what a character :meth:`Story.says`, the speaker may be left
    out: ``knows_whether(φ)``."""
    a, f = _speaker(who, formula)
    owner = _mix(f._owner, a._story if a is not None else None)
    name = f"{a.name}, " if a is not None else ""
    return Bool(("knows_value", _who(a), [f._t]), owner, f"knows_whether({name}{f._text})")


def believes(who: Union[Character, Formula], formula: Optional[Formula] = None) -> Bool:
    """``believes(A, φ)``: φ holds in every world A finds most plausible among those it
    cannot tell from this one (belief can be wrong, knowledge cannot; see
    :meth:`Story.expects`). In what a character :meth:`Story.says`, the speaker may be
    left out: ``believes(φ)``."""
    return _of_formula("believes", who, formula)


def believes_value(*args: Union[Character, ValueLike]) -> Bool:
    """``believes_value(A, e1, …, en)``: the worlds A finds most plausible among those it
    cannot tell from this one agree on the tuple (e1, …, en). In what a character
    :meth:`Story.says`, the speaker may be left out: ``believes_value(e)``."""
    return _of_values("believes_value", args)


def _speaker(who: object, formula: object) -> tuple[Optional[Character], Bool]:
    """``op(A, φ)``'s character and formula: A left out when ``formula`` is None."""
    if formula is None and not isinstance(who, Character):
        who, formula = None, who
    f = _bool(formula)
    if who is not None and not isinstance(who, Character):
        raise TypeError(f"expected a character, found {who!r}")
    return who, f


def _of_formula(op: str, who: object, formula: object) -> Bool:
    """``op(A, φ)`` (``knows``, ``believes``), A left out when ``formula`` is None."""
    a, f = _speaker(who, formula)
    owner = _mix(f._owner, a._story if a is not None else None)
    name = f"{a.name}, " if a is not None else ""
    tree: Tree
    if op == "knows":
        tree = ("knows", _who(a), f._t)
    else:
        tree = ("believes", _who(a), f._t)
    return Bool(tree, owner, f"{op}({name}{f._text})")


def _of_values(op: str, args: Sequence[object]) -> Bool:
    """``op(A, e1, …, en)`` (``knows_value``, ``believes_value``), A optional."""
    who = args[0] if args and isinstance(args[0], Character) else None
    exprs = [_any(e) for e in (args[1:] if who is not None else args)]
    if not exprs:
        raise TypeError(f"{op} needs at least one expression")
    owner = _mix(*(e._owner for e in exprs), who._story if who is not None else None)
    names = ([who.name] if who else []) + [e._text for e in exprs]
    trees = [e._t for e in exprs]
    tree: Tree
    if op == "knows_value":
        tree = ("knows_value", _who(who), trees)
    else:
        tree = ("believes_value", _who(who), trees)
    return Bool(tree, owner, f"{op}({', '.join(names)})")


def at(checkpoint: Checkpoint, formula: Formula) -> Bool:
    """``at(c, φ)``: φ with its knowledge operators evaluated at checkpoint ``c``."""
    if not isinstance(checkpoint, Checkpoint):
        raise TypeError(f"expected a checkpoint, found {checkpoint!r}")
    f = _bool(formula)
    return Bool(("at", checkpoint.name, f._t), _mix(f._owner, checkpoint._story), f"at({checkpoint.name}, {f._text})")


def _group(op: str, word: str, characters: Iterable[Character], formula: Formula) -> Bool:
    group = list(characters)
    f = _bool(formula)
    owner = _mix(f._owner, *(c._story for c in group))
    names = ", ".join(c.name for c in group)
    return Bool(("group", op, [_who(c) for c in group], f._t), owner, f"{word}({names}, {f._text})")


def everyone_knows(group: Iterable[Character], formula: Formula) -> Bool:
    """``everyone_knows(G, φ)``: every character of ``group`` knows φ."""
    return _group("everyone", "everyone_knows", group, formula)


def common_knowledge(group: Iterable[Character], formula: Formula) -> Bool:
    """``common_knowledge(G, φ)``: φ is common knowledge among ``group``."""
    return _group("common", "common_knowledge", group, formula)


def distributed_knowledge(group: Iterable[Character], formula: Formula) -> Bool:
    """``distributed_knowledge(G, φ)``: φ follows from what ``group`` knows together."""
    return _group("distributed", "distributed_knowledge", group, formula)


def _flat(args: Sequence[object]) -> list[object]:
    """``f(a, b, c)`` or ``f([a, b, c])``: the items (each function checks their type)."""
    if len(args) == 1 and not isinstance(args[0], Expr) and isinstance(args[0], Iterable):
        return list(args[0])
    return list(args)


def And(*formulas: Union[Formula, Iterable[Formula]]) -> Bool:
    """Every formula holds (true for none): ``And(a, b, c)`` or ``And([a, b, c])``."""
    fs = [_bool(f) for f in _flat(formulas)]
    return _bool(True) if not fs else _fold(_logic, "and", fs)


def Or(*formulas: Union[Formula, Iterable[Formula]]) -> Bool:
    """At least one formula holds (false for none)."""
    fs = [_bool(f) for f in _flat(formulas)]
    return _bool(False) if not fs else _fold(_logic, "or", fs)


def _fold(f: Callable[[str, _T, _T], _T], op: str, items: list[_T]) -> _T:
    out = items[0]
    for x in items[1:]:
        out = f(op, out, x)
    return out


def Not(formula: Formula) -> Bool:
    """``not φ`` (also ``~φ``)."""
    return ~_bool(formula)


def Implies(a: Formula, b: Formula) -> Bool:
    """``a -> b``."""
    return _logic("implies", a, b)


def Iff(a: Formula, b: Formula) -> Bool:
    """``a <-> b``."""
    return _logic("iff", a, b)


@overload
def If(condition: Formula, then: Formula, otherwise: Formula) -> Bool: ...  # type: ignore[overload-overlap]
@overload
def If(condition: Formula, then: IntLike, otherwise: IntLike) -> Int: ...
@overload
def If(condition: Formula, then: EnumValue, otherwise: EnumValue) -> EnumValue: ...
def If(condition: Formula, then: ValueLike, otherwise: ValueLike) -> Operand:
    """``if c then a else b``, for two values of the same type (a Python bool is a
    formula, a Python int an int)."""
    c = _bool(condition)
    a, b = _any(then), _any(otherwise)
    if type(a) is not type(b):
        raise TypeError(f"the branches of If have {a._type} and {b._type}: they need the same type")
    text = f"if {c._text} then {a._text} else {b._text}"
    tree: Tree = ("ite", c._t, a._t, b._t)
    owner = _mix(c._owner, a._owner, b._owner)
    if isinstance(a, EnumValue):
        return EnumValue(tree, owner, text, a._enum)
    if isinstance(a, Int):
        return Int(tree, owner, text, 1)
    return Bool(tree, owner, text, 1)


def Sum(*terms: Union[IntLike, Iterable[IntLike]]) -> Int:
    """The sum of the terms (0 for none)."""
    ts = [_int(t) for t in _flat(terms)]
    return _int(0) if not ts else _fold(_arith, "+", ts)


def Count(*formulas: Union[Formula, Iterable[Formula]]) -> Int:
    """How many of the formulas hold."""
    return Sum([If(_bool(f), 1, 0) for f in _flat(formulas)])


def tuple_in(
    values: Sequence[ValueLike], rows: Iterable[Sequence[Union[ValueLike, str]]]
) -> Bool:
    """``(e1, …, en) in {(a1, …, an), …}``: the tuple equals one of the rows; rows of
    Python ints, or of expressions (and variants' names, for an enum value)."""
    tuple_ = [_any(v) for v in values]
    built: list[list[Operand]] = []
    for items in rows:
        row = list(items)
        if len(row) != len(tuple_):
            raise StoryError(f"a set item has {len(row)} values, the tuple has {len(tuple_)}")
        built.append(
            [v._other(x) if isinstance(v, EnumValue) and isinstance(x, str) else _any(x) for v, x in zip(tuple_, row)]
        )
    owner = _mix(*(v._owner for v in tuple_), *(x._owner for row in built for x in row))
    listed = ", ".join("(" + ", ".join(x._text for x in row) + ")" if len(row) > 1 else row[0]._text for row in built)
    lhs = tuple_[0]._text if len(tuple_) == 1 else "(" + ", ".join(v._text for v in tuple_) + ")"
    tree: Tree = ("in", [v._t for v in tuple_], [[x._t for x in row] for row in built])
    return Bool(tree, owner, f"{lhs} in {{{listed}}}", 7)
