"""``epipen.Story``: a puzzle told statement by statement from Python, as the Rust API
(``epipen::Story``) tells it, with Python's operators on its expressions.

Expressions are typed: :class:`Int` (``+ - * // %``, unary ``-``, ``abs``, comparisons
``== != < <= > >=`` giving a :class:`Bool`), :class:`Bool` (``& | ~``, ``^``, ``==``,
``!=``) and :class:`EnumValue` (``==``, ``!=`` against a value of the same enum or a
variant's name). Python ints of any size are exact (the story language's arithmetic has
no overflow). Like z3's, these expressions have no truth value: write ``a & b``, not
``a and b``.

Events (:meth:`Story.event`, the module ``epipen._events``) happen while the characters
watch, each seeing part of them; afterwards the event's handle is an enum value, its
latest case: ``moving == "moved"``.
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional, Sequence, Union

from . import _native
from ._errors import StoryError
from ._results import Worlds, World

__all__ = [
    "Story",
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

_I64 = (-(2**63), 2**63 - 1)

# Precedence of the text forms (higher binds tighter), for parentheses in repr.
_PREC = {"iff": 2, "implies": 3, "or": 4, "and": 5, "not": 6, "cmp": 7, "+": 8, "-": 8, "*": 9, "/": 9, "%": 9, "neg": 10}


def _mix(*owners):
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

    def __init__(self, tree: tuple, owner, text: str, prec: int = 100):
        self._t = tree
        self._owner = owner
        self._text = text
        self._prec = prec

    def __repr__(self) -> str:
        return self._text

    def __bool__(self):
        raise TypeError(
            f"`{self._text}` is an epipen expression, which has no truth value in Python: "
            "combine formulas with & | ~ (or And, Or, Not), not and/or/not"
        )

    __hash__ = object.__hash__

    def _paren(self, prec: int) -> str:
        return f"({self._text})" if self._prec < prec else self._text


def _lit_tree(n: int) -> tuple:
    """An int literal of any size: a 64-bit literal, or exact arithmetic on them."""
    if _I64[0] <= n <= _I64[1]:
        return ("int", n)
    # n == (n >> 62) * 2^62 + (n & (2^62 - 1)), with |n >> 62| smaller than |n|.
    high, low = n >> 62, n & (2**62 - 1)
    return ("arith", "+", ("arith", "*", _lit_tree(high), ("int", 2**62)), ("int", low))


def _int(x, what: str = "an int") -> "Int":
    if isinstance(x, Int):
        return x
    if isinstance(x, bool) or not isinstance(x, int):
        if isinstance(x, Expr):
            raise TypeError(f"expected an int expression, found {x._type} `{x!r}`")
        raise TypeError(f"expected {what} (an epipen Int or a Python int), found {type(x).__name__} {x!r}")
    return Int(_lit_tree(x), None, str(x))


def _bool(x) -> "Bool":
    if isinstance(x, Bool):
        return x
    if isinstance(x, bool):
        return Bool(("bool", x), None, "true" if x else "false")
    if isinstance(x, Expr):
        raise TypeError(f"expected a formula (a Bool), found {x._type} `{x!r}`")
    raise TypeError(f"expected a formula (an epipen Bool or a Python bool), found {type(x).__name__} {x!r}")


def _any(x) -> Expr:
    if isinstance(x, Expr):
        return x
    if isinstance(x, bool):
        return _bool(x)
    if isinstance(x, int):
        return _int(x)
    raise TypeError(f"expected an epipen expression, an int or a bool, found {type(x).__name__} {x!r}")


def _arith(op: str, a, b) -> "Int":
    a, b = _int(a), _int(b)
    prec = _PREC[op]
    text = f"{a._paren(prec)} {op} {b._paren(prec + 1)}"
    return Int(("arith", op, a._t, b._t), _mix(a._owner, b._owner), text, prec)


def _cmp(op: str, a, b) -> "Bool":
    text = f"{a._paren(8)} {op} {b._paren(8)}"
    return Bool(("cmp", op, a._t, b._t), _mix(a._owner, b._owner), text, _PREC["cmp"])


def _logic(op: str, a, b) -> "Bool":
    a, b = _bool(a), _bool(b)
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

    def __add__(self, o):
        return _arith("+", self, o)

    def __radd__(self, o):
        return _arith("+", o, self)

    def __sub__(self, o):
        return _arith("-", self, o)

    def __rsub__(self, o):
        return _arith("-", o, self)

    def __mul__(self, o):
        return _arith("*", self, o)

    def __rmul__(self, o):
        return _arith("*", o, self)

    def __floordiv__(self, o):
        return _arith("/", self, o)

    def __rfloordiv__(self, o):
        return _arith("/", o, self)

    def __mod__(self, o):
        return _arith("%", self, o)

    def __rmod__(self, o):
        return _arith("%", o, self)

    def __truediv__(self, o):
        raise TypeError("epipen ints divide with // (integer division), not /")

    __rtruediv__ = __truediv__

    def __neg__(self):
        return Int(("neg", self._t), self._owner, f"-{self._paren(10)}", 10)

    def __pos__(self):
        return self

    def __abs__(self):
        return If(self >= 0, self, -self)

    def __eq__(self, o):  # type: ignore[override]
        return _cmp("==", self, _int(o))

    def __ne__(self, o):  # type: ignore[override]
        return _cmp("!=", self, _int(o))

    def __lt__(self, o):
        return _cmp("<", self, _int(o))

    def __le__(self, o):
        return _cmp("<=", self, _int(o))

    def __gt__(self, o):
        return _cmp(">", self, _int(o))

    def __ge__(self, o):
        return _cmp(">=", self, _int(o))

    __hash__ = Expr.__hash__

    def is_in(self, values: Iterable) -> "Bool":
        """``self in {values}``: equal to one of them (false for none)."""
        return tuple_in((self,), [(v,) for v in values])


class Bool(Expr):
    """A formula: a ``bool`` constant, a comparison, a combination with ``& | ~ ^``, or
    a knowledge operator (:func:`knows`, :func:`knows_value`, :func:`believes`,
    :func:`believes_value`, :func:`at`, …)."""

    __slots__ = ()
    _type = "a formula"

    def __and__(self, o):
        return _logic("and", self, o)

    def __rand__(self, o):
        return _logic("and", o, self)

    def __or__(self, o):
        return _logic("or", self, o)

    def __ror__(self, o):
        return _logic("or", o, self)

    def __invert__(self):
        return Bool(("not", self._t), self._owner, f"not {self._paren(6)}", 6)

    def __xor__(self, o):
        return _cmp("!=", self, _bool(o))

    __rxor__ = __xor__

    def __eq__(self, o):  # type: ignore[override]
        return _cmp("==", self, _bool(o))

    def __ne__(self, o):  # type: ignore[override]
        return _cmp("!=", self, _bool(o))

    __hash__ = Expr.__hash__

    def implies(self, o) -> "Bool":
        """``self -> o``."""
        return _logic("implies", self, o)

    def iff(self, o) -> "Bool":
        """``self <-> o``."""
        return _logic("iff", self, o)


class EnumValue(Expr):
    """A value of an enum (:meth:`Story.enumeration`): a constant of the enum, or one of
    its variants. Compare with ``==`` and ``!=`` to values of the same enum or variants'
    names: ``cloe == "red"``."""

    __slots__ = ("_enum",)
    _type = "an enum value"

    def __init__(self, tree, owner, text, enum: "EnumType"):
        super().__init__(tree, owner, text)
        self._enum = enum

    def _other(self, o) -> "EnumValue":
        if isinstance(o, EnumValue):
            return o
        return self._enum._operand(o)

    def __eq__(self, o):  # type: ignore[override]
        return _cmp("==", self, self._other(o))

    def __ne__(self, o):  # type: ignore[override]
        return _cmp("!=", self, self._other(o))

    __hash__ = Expr.__hash__

    def is_in(self, values: Iterable) -> "Bool":
        """``self in {values}`` (variants' names or values)."""
        return tuple_in((self,), [(self._other(v),) for v in values])


class EnumType:
    """An enum type of a :class:`Story`: its variants as values (``Colour.red``,
    ``Colour["red"]``), and :meth:`constant` to declare a constant of the type."""

    def __init__(self, story: "Story", index: int, name: str, variants: Sequence[str]):
        self._story, self._index, self.name, self.variants = story, index, name, list(variants)

    def __getitem__(self, variant: str) -> EnumValue:
        if variant not in self.variants:
            raise StoryError(
                f"enum `{self.name}` has no variant `{variant}` (its variants: {', '.join(self.variants)})"
            )
        return EnumValue(("variant", self._index, variant), self._story, variant, self)

    def _operand(self, o) -> EnumValue:
        """What a value of the enum is compared with: a variant's name."""
        if isinstance(o, str):
            return self[o]
        raise TypeError(f"compare enum values with values of the same enum or variants' names, not {o!r}")

    def __getattr__(self, variant: str) -> EnumValue:
        if variant.startswith("_"):
            raise AttributeError(variant)
        return self[variant]

    def values(self) -> list:
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

    def __init__(self, story: "Story", index: int, name: str):
        self._story, self._index, self.name = story, index, name

    def __repr__(self) -> str:
        return self.name


class Checkpoint:
    """A saved knowledge state (:meth:`Story.checkpoint`), for :func:`at`."""

    __slots__ = ("_story", "name")

    def __init__(self, story: "Story", name: str):
        self._story, self.name = story, name

    def __repr__(self) -> str:
        return self.name


def _who(c) -> Optional[int]:
    if c is None:
        return None
    if not isinstance(c, Character):
        raise TypeError(f"expected a character, found {c!r}")
    return c._index


def knows(who, formula=None) -> Bool:
    """``knows(A, φ)``: A knows that φ. In what a character :meth:`Story.says`, the
    speaker may be left out: ``knows(φ)``."""
    return _of_formula("knows", who, formula)


def knows_value(*args) -> Bool:
    """``knows_value(A, e1, …, en)``: A knows the value of the tuple (e1, …, en). In what a
    character :meth:`Story.says`, the speaker may be left out: ``knows_value(e)``."""
    return _of_values("knows_value", args)


def believes(who, formula=None) -> Bool:
    """``believes(A, φ)``: φ holds in every world A finds most plausible among those it
    cannot tell from this one (belief can be wrong, knowledge cannot; see
    :meth:`Story.expects`). In what a character :meth:`Story.says`, the speaker may be
    left out: ``believes(φ)``."""
    return _of_formula("believes", who, formula)


def believes_value(*args) -> Bool:
    """``believes_value(A, e1, …, en)``: the worlds A finds most plausible among those it
    cannot tell from this one agree on the tuple (e1, …, en). In what a character
    :meth:`Story.says`, the speaker may be left out: ``believes_value(e)``."""
    return _of_values("believes_value", args)


def _of_formula(op: str, who, formula) -> Bool:
    """``op(A, φ)`` (``knows``, ``believes``), A left out when ``formula`` is None."""
    if formula is None and not isinstance(who, Character):
        who, formula = None, who
    f = _bool(formula)
    owner = _mix(f._owner, who._story if who is not None else None)
    name = f"{who.name}, " if who is not None else ""
    return Bool((op, _who(who), f._t), owner, f"{op}({name}{f._text})")


def _of_values(op: str, args) -> Bool:
    """``op(A, e1, …, en)`` (``knows_value``, ``believes_value``), A optional."""
    who = args[0] if args and isinstance(args[0], Character) else None
    exprs = [_any(e) for e in (args[1:] if who is not None else args)]
    if not exprs:
        raise TypeError(f"{op} needs at least one expression")
    owner = _mix(*(e._owner for e in exprs), who._story if who is not None else None)
    names = ([who.name] if who else []) + [e._text for e in exprs]
    return Bool((op, _who(who), [e._t for e in exprs]), owner, f"{op}({', '.join(names)})")


def at(checkpoint: Checkpoint, formula) -> Bool:
    """``at(c, φ)``: φ with its knowledge operators evaluated at checkpoint ``c``."""
    if not isinstance(checkpoint, Checkpoint):
        raise TypeError(f"expected a checkpoint, found {checkpoint!r}")
    f = _bool(formula)
    return Bool(("at", checkpoint.name, f._t), _mix(f._owner, checkpoint._story), f"at({checkpoint.name}, {f._text})")


def _group(op: str, word: str, group: Iterable[Character], formula) -> Bool:
    group = list(group)
    f = _bool(formula)
    owner = _mix(f._owner, *(c._story for c in group))
    names = ", ".join(c.name for c in group)
    return Bool(("group", op, [_who(c) for c in group], f._t), owner, f"{word}({names}, {f._text})")


def everyone_knows(group: Iterable[Character], formula) -> Bool:
    """``everyone_knows(G, φ)``: every character of ``group`` knows φ."""
    return _group("everyone", "everyone_knows", group, formula)


def common_knowledge(group: Iterable[Character], formula) -> Bool:
    """``common_knowledge(G, φ)``: φ is common knowledge among ``group``."""
    return _group("common", "common_knowledge", group, formula)


def distributed_knowledge(group: Iterable[Character], formula) -> Bool:
    """``distributed_knowledge(G, φ)``: φ follows from what ``group`` knows together."""
    return _group("distributed", "distributed_knowledge", group, formula)


def _flat(args) -> list:
    if len(args) == 1 and not isinstance(args[0], Expr) and isinstance(args[0], Iterable):
        return list(args[0])
    return list(args)


def And(*formulas) -> Bool:
    """Every formula holds (true for none): ``And(a, b, c)`` or ``And([a, b, c])``."""
    fs = [_bool(f) for f in _flat(formulas)]
    return _bool(True) if not fs else _fold(_logic, "and", fs)


def Or(*formulas) -> Bool:
    """At least one formula holds (false for none)."""
    fs = [_bool(f) for f in _flat(formulas)]
    return _bool(False) if not fs else _fold(_logic, "or", fs)


def _fold(f, op, items):
    out = items[0]
    for x in items[1:]:
        out = f(op, out, x)
    return out


def Not(formula) -> Bool:
    """``not φ`` (also ``~φ``)."""
    return ~_bool(formula)


def Implies(a, b) -> Bool:
    """``a -> b``."""
    return _logic("implies", a, b)


def Iff(a, b) -> Bool:
    """``a <-> b``."""
    return _logic("iff", a, b)


def If(condition, then, otherwise) -> Expr:
    """``if c then a else b``, for two values of the same type."""
    c = _bool(condition)
    a, b = _any(then), _any(otherwise)
    if isinstance(a, EnumValue) and isinstance(b, str):
        b = a._other(b)
    if isinstance(b, EnumValue) and isinstance(a, str):
        a = b._other(a)
    cls = type(a)
    if cls is not type(b):
        raise TypeError(f"the branches of If have {a._type} and {b._type}: they need the same type")
    text = f"if {c._text} then {a._text} else {b._text}"
    tree = ("ite", c._t, a._t, b._t)
    owner = _mix(c._owner, a._owner, b._owner)
    if cls is EnumValue:
        return EnumValue(tree, owner, text, a._enum)
    return cls(tree, owner, text, 1)


def Sum(*terms) -> Int:
    """The sum of the terms (0 for none)."""
    ts = [_int(t) for t in _flat(terms)]
    return _int(0) if not ts else _fold(_arith, "+", ts)


def Count(*formulas) -> Int:
    """How many of the formulas hold."""
    return Sum([If(f, 1, 0) for f in _flat(formulas)])


def tuple_in(values: Sequence, rows: Iterable[Sequence]) -> Bool:
    """``(e1, …, en) in {(a1, …, an), …}``: the tuple equals one of the rows; rows of
    Python ints, or of expressions."""
    values = [_any(v) for v in values]
    built = []
    for row in rows:
        row = list(row)
        if len(row) != len(values):
            raise StoryError(f"a set item has {len(row)} values, the tuple has {len(values)}")
        built.append(
            [v._other(x) if isinstance(v, EnumValue) and isinstance(x, str) else _any(x) for v, x in zip(values, row)]
        )
    owner = _mix(*(v._owner for v in values), *(x._owner for row in built for x in row))
    items = ", ".join("(" + ", ".join(x._text for x in row) + ")" if len(row) > 1 else row[0]._text for row in built)
    lhs = values[0]._text if len(values) == 1 else "(" + ", ".join(v._text for v in values) + ")"
    return Bool(("in", [v._t for v in values], [[x._t for x in row] for row in built]), owner, f"{lhs} in {{{items}}}", 7)


def _names(names: Union[str, Sequence[str]], n: Optional[int]) -> list:
    if n is not None:
        return [f"{names}[{i}]" for i in range(n)]
    if isinstance(names, str):
        return names.replace(",", " ").split()
    return list(names)


class _Block:
    """The statements of a ``simultaneously`` or ``assert_adds_ck`` block, run together
    when the block closes (a ``with`` block, or the function given)."""

    def __init__(self, story: "Story", kind: str, hint=None):
        self._story, self._kind, self._hint = story, kind, hint
        self._items: list = []
        #: After a ``simultaneously`` block: what each ``reveals`` in it found.
        self.outcomes: Optional[list] = None
        #: After an ``assert_adds_ck`` block: "verified" (or "trusted", or "vacuous": verified
        #: where no world was possible).
        self.verdict: Optional[str] = None

    def _formula(self, f) -> Bool:
        f = _bool(f)
        self._story._own(f)
        return f

    def announce(self, formula) -> None:
        """``announce φ``."""
        self._items.append(("announce", self._formula(formula)._t))

    def says(self, who: Character, formula) -> None:
        """``A: φ``."""
        self._items.append(("says", self._story._char(who), self._formula(formula)._t))

    def reveals(self, who: Character, formula) -> None:
        """``A reveals φ``."""
        self._items.append(("reveals", self._story._char(who), self._formula(formula)._t))

    def learns(self, who: Character, *values) -> None:
        """``A learns e`` (only in ``assert_adds_ck``)."""
        self._need_ck("learns")
        self._items.append(("learns", self._story._char(who), self._story._values(values)))

    def checkpoint(self, name: str) -> Checkpoint:
        """``checkpoint c`` (only in ``assert_adds_ck``)."""
        self._need_ck("checkpoint")
        self._items.append(("checkpoint", name))
        return Checkpoint(self._story, name)

    def simultaneously(self, block: Optional[Callable] = None):
        """A ``simultaneously`` block inside an ``assert_adds_ck`` block."""
        self._need_ck("simultaneously")
        inner = _Block(self._story, "simultaneously")
        self._items.append(("simultaneously", inner._items))
        if block is not None:
            block(inner)
            return None
        return _Nested(inner)

    def _need_ck(self, what: str) -> None:
        if self._kind != "assert_adds_ck":
            raise StoryError(f"a `simultaneously` block holds announcements only (announce, says, reveals), not `{what}`")

    def _run(self):
        native = self._story._native
        if self._kind == "simultaneously":
            self.outcomes = native.simultaneously(self._items)
            return self.outcomes
        self.verdict = native.assert_adds_ck(self._hint._t, self._items)
        return self.verdict

    def __enter__(self) -> "_Block":
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            self._run()
        return False


class _Nested:
    """A ``with`` block inside a block: its statements are already in place."""

    def __init__(self, block: _Block):
        self._block = block

    def __enter__(self) -> _Block:
        return self._block

    def __exit__(self, *exc):
        return False


class Story:
    """An epistemic puzzle told statement by statement, as ``epipen::Story`` tells it in
    Rust: declarations return handles, statements run at once (a statement that fails
    raises and has no effect), :meth:`worlds` lists the worlds possible now.

    Options: ``backend`` ("auto", "z3", "bdd", "explicit"), ``timeout`` (seconds, for the
    whole story from its first statement, as in the Rust API), ``trust_hints`` (take
    ``assert_adds_ck`` hints on trust).

    Example (Cheryl's Birthday)::

        import epipen as ep
        s = ep.Story()
        albert, bernard = s.characters("Albert Bernard")
        month, day = s.ints("month day")
        s.announce(ep.tuple_in((month, day), [(5, 15), (5, 16), (5, 19), (6, 17), (6, 18),
                                              (7, 14), (7, 16), (8, 14), (8, 15), (8, 17)]))
        s.learns(albert, month)
        s.learns(bernard, day)
        s.says(albert, ~ep.knows_value(month, day) & ep.knows(~ep.knows_value(bernard, month, day)))
        s.says(bernard, ep.knows_value(month, day))
        s.says(albert, ep.knows_value(month, day))
        s.worlds()   # [{'month': 7, 'day': 16}]
    """

    def __init__(self, *, backend: str = "auto", timeout: Optional[float] = None, trust_hints: bool = False):
        self._native = _native.NativeStory(backend, timeout, trust_hints)
        self._characters: list = []
        # The events that happened (by the native story's index), and how many times.
        self._events: dict = {}
        self._executions: dict = {}

    # --- declarations ---

    def character(self, name: str) -> Character:
        """Declares a character."""
        c = Character(self, self._native.character(name), name)
        self._characters.append(c)
        return c

    def characters(self, names: Union[str, Sequence[str]], n: Optional[int] = None) -> list:
        """Declares several characters: ``characters("Albert Bernard")`` (names separated
        by spaces or commas, or a list), or a family ``characters("child", 3)``:
        ``child[0]``, ``child[1]``, ``child[2]``."""
        return [self.character(name) for name in _names(names, n)]

    def int(self, name: str) -> Int:
        """Declares a hidden integer constant (any integer: bound it by an announcement)."""
        k = self._native.int(name)
        return Int(("const", k), self, name)

    def ints(self, names: Union[str, Sequence[str]], n: Optional[int] = None) -> list:
        """Declares several ints: ``ints("month day")`` or ``ints("x", 3)``."""
        return [self.int(name) for name in _names(names, n)]

    def bool(self, name: str) -> Bool:
        """Declares a hidden boolean constant."""
        k = self._native.bool(name)
        return Bool(("const", k), self, name)

    def bools(self, names: Union[str, Sequence[str]], n: Optional[int] = None) -> list:
        """Declares several bools: ``bools("p q")`` or ``bools("muddy", 3)``."""
        return [self.bool(name) for name in _names(names, n)]

    def enumeration(self, name: str, variants: Union[str, Sequence[str]]) -> EnumType:
        """Declares an enum type: ``enumeration("Colour", "red green blue")``."""
        variants = _names(variants, None)
        return EnumType(self, self._native.enumeration(name, variants), name, variants)

    def enum_constant(self, ty: EnumType, name: str) -> EnumValue:
        """Declares a hidden constant of an enum type."""
        if ty._story is not self:
            raise StoryError("the enum type belongs to another story")
        k = self._native.enum_constant(ty._index, name)
        return EnumValue(("const", k), self, name, ty)

    # --- statements ---

    def checkpoint(self, name: str) -> Checkpoint:
        """``checkpoint c``: saves the knowledge state for :func:`at`."""
        self._native.checkpoint(name)
        return Checkpoint(self, name)

    def announce(self, formula) -> None:
        """``announce φ``: the storyteller announces φ, which becomes common knowledge."""
        self._native.announce(self._formula(formula))

    def says(self, who: Character, formula) -> None:
        """``A: φ``: ``who`` truthfully announces φ (``knows(φ)``, ``knows_value(e)``,
        ``believes(φ)`` and ``believes_value(e)`` in φ may leave the speaker out)."""
        self._native.says(self._char(who), self._formula(formula))

    def learns(self, who: Character, *values) -> None:
        """``A learns e``: ``who`` gets the value of each expression (constants, or
        expressions of them): ``learns(a, month)``, ``learns(a, x + y)``,
        ``learns(a, x, y)``. A formula with knowledge operators is learned as the truth
        value it has now: ``learns(a, ep.knows(b, p))``."""
        self._native.learns(self._char(who), self._values(values))

    def actual(self, formula) -> None:
        """``actual φ``: the actual world, which φ must pin down exactly (needed by
        :meth:`reveals`)."""
        self._native.actual(self._formula(formula))

    def reveals(self, who: Character, formula) -> bool:
        """``A reveals φ``: ``who`` announces φ if it holds in the actual world, else
        ``not φ``; returns whether φ held."""
        return self._native.reveals(self._char(who), self._formula(formula))

    def check(self, formula) -> None:
        """``check φ``: φ must hold in every world possible now (a StoryError says in which
        world it fails); nothing changes."""
        self._native.check(self._formula(formula))

    def check_actual(self, formula) -> None:
        """``check actual φ``: φ must hold in the actual world (:meth:`actual`; a
        StoryError names the actual world when it does not, and says so when the story
        has none); nothing changes."""
        self._native.check_actual(self._formula(formula))

    def expects(self, who: Character, formula) -> None:
        """``A expects φ``: soft information. ``who`` now finds every world where φ holds
        (now) more plausible than every other, its old plausibility deciding inside each
        part; nobody learns anything, but what ``who`` :func:`believes` changes, and an
        announcement that removes every world it believed possible revises its belief to
        the next most plausible ones::

            s.expects(watson, culprit == suspect.butler)
            s.check(ep.believes(watson, culprit == suspect.butler))
        """
        self._native.expects(self._char(who), self._formula(formula))

    def assign(self, constant: Expr, value) -> None:
        """``x := e``: a public change of the constant ``x`` to the value ``e`` had (an
        enum constant takes a value of its enum or a variant's name)."""
        self._native.assign(*self._change(constant, value, "assign"))

    def assign_all(self, changes) -> None:
        """``x, y := e, f``: a simultaneous public change, every value read before any
        constant changes: ``assign_all({x: y, y: x})`` (or pairs, ``[(x, y), (y, x)]``)
        swaps them. Each constant is changed once; otherwise as :meth:`assign`."""
        from ._events import _pairs

        self._native.assign_all([self._change(t, v, "assign_all") for t, v in _pairs(changes)])

    def event(self, name: str, block: Optional[Callable] = None):
        """``event NAME { … }``: one execution of the event ``name``, stated by the block:
        its cases (:meth:`EventBlock.case`), who sees which apart
        (:meth:`EventBlock.sees`), who expects which (:meth:`EventBlock.expects`), the
        case that happened (:meth:`EventBlock.actual`). Each call is a new execution
        (call it in a loop for rounds); the first declares the event, later ones must
        have the same cases in the same order. Worlds carry the case of every execution
        (``move = moved``; ``move#1``, ``move#2``, … once it happened more than once).

        With a function, runs ``block(e)`` and returns what happened (a
        :class:`Happened`); without, a ``with`` block whose ``happened`` says it::

            with s.event("move") as e:
                moved = e.case("moved", when=marble == "basket", then={marble: "box"})
                stayed = e.case("stayed")
                e.sees(anne, [moved], [stayed])
                e.actual(moved)
            moving = e.happened.event
            s.check(ep.knows(sally, (marble == "box").iff(moving == "moved")))

        Mistakes raise :class:`StoryError` with the Rust API's message and run nothing: no
        cases, two cases of one name, other cases than the event's earlier executions, a
        case in no group or two groups of a ``sees`` line, a case in two groups of an
        ``expects`` line, two ``sees`` or ``expects`` lines of one character, an unknown
        case, a case of another block, two ``actual`` cases; a missing or impossible
        ``actual`` case when it runs."""
        from ._events import run_event

        return run_event(self, name, block)

    def simultaneously(self, block: Optional[Callable] = None):
        """``simultaneously { … }``: the block's announcements (``announce``, ``says``,
        ``reveals``) are evaluated in the state at its start and take effect together.
        With a function, runs ``block(b)`` and returns what each ``b.reveals`` found;
        without, a ``with`` block whose ``outcomes`` say it::

            with s.simultaneously() as b:
                for kid, m in zip(kids, muddy):
                    b.reveals(kid, ep.knows_value(kid, m))
            b.outcomes   # [False, False, True]
        """
        b = _Block(self, "simultaneously")
        if block is not None:
            block(b)
            return b._run()
        return b

    def assert_adds_ck(self, hint, block: Optional[Callable] = None):
        """``assert_adds_ck φ { … }``: runs the block, proves that it added exactly the
        hint to the common knowledge, and keeps the small form (a RefutedError names a
        world where they disagree). A function or a ``with`` block, as
        :meth:`simultaneously`; returns "verified" (or "trusted", or "vacuous" when no world
        was possible before the block)."""
        b = _Block(self, "assert_adds_ck", self._formula_expr(hint))
        if block is not None:
            block(b)
            return b._run()
        return b

    def worlds(self, limit: int = 10) -> Worlds:
        """Up to ``limit`` of the worlds possible now, in canonical order."""
        names, worlds, complete = self._native.worlds(limit)
        return Worlds(names, [World(zip(names, w)) for w in worlds], complete)

    # --- internals ---

    def _own(self, e: Expr) -> None:
        if e._owner is not None and e._owner is not self:
            raise StoryError("an expression uses handles of another story")

    def _char(self, who) -> int:
        if not isinstance(who, Character):
            raise TypeError(f"expected a character, found {who!r}")
        if who._story is not self:
            raise StoryError("the character belongs to another story")
        return who._index

    def _change(self, constant, value, what: str) -> tuple:
        """``constant := value`` as the native story takes it: (its index, the value)."""
        if not isinstance(constant, Expr) or constant._t[0] != "const":
            raise StoryError(
                f"`{what}` changes a constant: its target must be one (from Story.int, bool or enum_constant)"
            )
        self._own(constant)
        if isinstance(constant, EnumValue) and isinstance(value, str):
            value = constant._other(value)
        value = _any(value)
        self._own(value)
        return (constant._t[1], value._t)

    def _happened(self, raw):
        from ._events import happened

        return happened(self, raw)

    def _formula_expr(self, formula) -> Bool:
        f = _bool(formula)
        self._own(f)
        return f

    def _formula(self, formula) -> tuple:
        return self._formula_expr(formula)._t

    def _values(self, values) -> list:
        values = _flat(values)
        out = []
        for v in values:
            v = _any(v)
            self._own(v)
            out.append(v._t)
        return out

    def __repr__(self) -> str:
        return f"<epipen.Story: {len(self._characters)} characters>"
