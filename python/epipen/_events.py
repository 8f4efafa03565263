"""Events of an ``epipen.Story`` (:meth:`Story.event`), as the Rust API's
``Story::event`` states them: something happens while the characters watch, each seeing
part of it. An :class:`EventBlock` is the story language's ``event NAME { … }`` block:
its :class:`Case`\\ s (a precondition, changes), who sees which cases apart, who expects
which, and the case that happened. What happened comes back as a :class:`Happened`,
whose :attr:`Happened.event` (an :class:`EventHandle`) names the latest execution's case
in formulas afterwards: ``moving == "moved"``, the language's ``move == moved``.

Sally and Anne::

    with s.event("move") as e:
        moved = e.case("moved", when=marble == "basket", then={marble: "box"})
        stayed = e.case("stayed")
        e.sees(anne, [moved], [stayed])     # Anne tells them apart; Sally does not
        e.expects(sally, [stayed])          # Sally takes it that nothing happened
        e.actual(moved)
    e.happened.case                         # 'moved'
    str(e.happened)                         # 'move: moved (Sally saw moved or stayed; Anne saw moved)'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Callable, Iterable, Literal, Optional, Protocol, Sequence, TypeVar, Union, cast

from . import _native
from ._boundary import CaseLine, CaseName, Change, ExpectsLine, Groups, Reported, SeesLine
from ._errors import StoryError
from ._expr import Bool, Character, EnumType, EnumValue, Expr, Formula, Int, IntLike, Owner, ValueLike, _int

if TYPE_CHECKING:
    from ._native import NativeStory

__all__ = ["EventBlock", "Case", "EventHandle", "EventCases", "Happened", "Teller", "Changes"]


class Teller(Owner, Protocol):
    """The story events and actions happen in, as they use it (``epipen.Story`` is one;
    a protocol, so that neither this module nor ``_actions`` imports ``_story``)."""

    _native: NativeStory
    #: The events that happened (by the native story's index).
    _events: dict[int, EventHandle]

    def _formula_expr(self, formula: Formula) -> Bool: ...

    def _formula(self, formula: Formula) -> Bool: ...

    def _own(self, e: Expr) -> None: ...

    def _char(self, who: Character) -> int: ...

    def _change(self, constant: object, value: object, what: str) -> Change: ...


_Target = TypeVar("_Target", bound=Expr)

#: Changes ``x := e``: ``{x: e, …}`` or ``[(x, e), …]``, each constant a handle of the
#: story and each value an expression, a Python int or bool, or a variant's name (for an
#: enum constant).
Changes = Union[Mapping[_Target, Union[ValueLike, str]], Iterable[tuple[_Target, Union[ValueLike, str]]]]


class Case:
    """A case of an event block (:meth:`EventBlock.case`): ``moved if φ then x := e``.
    :meth:`when` adds its precondition, :meth:`then` its changes (both return the case,
    so they chain); name it in :meth:`EventBlock.sees`, :meth:`EventBlock.expects`,
    :meth:`EventBlock.actual`, or in formulas after the event: ``moving == moved``."""

    __slots__ = ("_block", "name", "_when", "_then", "_weight")

    def __init__(self, block: EventBlock, name: str):
        self._block, self.name = block, name
        self._when: Optional[Bool] = None
        self._then: list[Change] = []
        self._weight: Optional[Int] = None

    def when(self, precondition: Formula) -> Case:
        """``if φ``: the case can happen only in a world where φ holds, evaluated in the
        state before the event (knowledge operators allowed). Several calls: all must
        hold. Without one, the case can always happen."""
        self._block._open("when")
        f = self._block._story._formula_expr(precondition)
        self._when = f if self._when is None else self._when & f
        return self

    def weight(self, weight: IntLike) -> Case:
        """``weight e``: the case's weight, an int expression of the world's values
        (without knowledge operators; never negative), evaluated before the event. In a
        world, a case possible there happens with its weight over the sum of the weights
        of the cases possible there. Without one, 1. Returns the case."""
        self._block._open("weight")
        w = _int(weight, "a weight")
        self._block._story._own(w)
        self._weight = w
        return self

    def then(self, target: Expr, value: Union[ValueLike, str]) -> Case:
        """``then x := e``: when this case happens, ``target`` (a constant) takes the
        value ``value`` had just before. The changes of a case are simultaneous (every
        value read before any constant changes), each constant changed once, typed as
        :meth:`Story.assign` (an enum constant takes a variant's name: ``"box"``)."""
        return self._change(target, value)

    def then_all(self, changes: Changes[_Target]) -> Case:
        """Several changes at once: ``{x: y, y: x}`` or ``[(x, y), (y, x)]`` (as
        :meth:`then` for each)."""
        for target, value in _pairs(changes):
            self._change(target, value)
        return self

    def _change(self, target: object, value: object) -> Case:
        """:meth:`then`'s body (the story checks the target and the value)."""
        self._block._open("then")
        self._then.append(self._block._story._change(target, value, "then"))
        return self

    def __eq__(self, other: object) -> bool:
        # A case equals its name, so that `happened.case == moved` says what it reads.
        if isinstance(other, Case):
            return self is other
        if isinstance(other, str):
            return self.name == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return self.name


def _pairs(changes: object) -> list[tuple[object, object]]:
    """``{x: 1, y: 2}`` or ``[(x, 1), (y, 2)]``, as pairs."""
    if isinstance(changes, Mapping):
        return list(changes.items())
    pairs: list[tuple[object, object]] = []
    # Not iterable: the TypeError of Python's `for`.
    for pair in cast(Iterable[object], changes):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"a change is a (constant, value) pair, not {pair!r}")
        pairs.append((pair[0], pair[1]))
    return pairs


def _is_group(g: object) -> bool:
    return isinstance(g, (list, tuple, set, frozenset))


class EventBlock:
    """One execution of an event (:meth:`Story.event`), the language's ``event NAME {
    … }``: its cases, ``sees`` lines, ``expects`` lines and ``actual`` case. It runs when
    the ``with`` block closes (or the function given returns); mistakes raise
    :class:`StoryError` with the Rust API's message and run nothing. Afterwards
    :attr:`happened` says what happened."""

    def __init__(self, story: Teller, name: str):
        self._story, self.name = story, name
        self._cases: list[Case] = []
        self._sees: list[SeesLine] = []
        self._expects: list[ExpectsLine] = []
        self._actual: list[CaseName] = []
        #: After the block: what happened (a :class:`Happened`).
        self.happened: Optional[Happened] = None

    def case(
        self,
        name: str,
        when: Optional[Formula] = None,
        then: Optional[Changes[_Target]] = None,
        weight: Optional[IntLike] = None,
    ) -> Case:
        """A case ``name``, always possible and changing nothing unless ``when`` (a
        precondition, or :meth:`Case.when`) and ``then`` (changes: ``{marble: "box"}``
        or pairs, or :meth:`Case.then`) say otherwise; ``weight`` (an int expression, or
        :meth:`Case.weight`) weighs its chance. Every case has a name of its own;
        every execution of an event has the same cases, in the same order."""
        self._open("case")
        if not isinstance(name, str):
            raise TypeError(f"a case's name is a str, not {name!r}")
        c = Case(self, name)
        self._cases.append(c)
        if when is not None:
            c.when(when)
        if then is not None:
            c.then_all(then)
        if weight is not None:
            c.weight(weight)
        return c

    def cases(self, name: str, indices: Union[int, Iterable[object]]) -> list[Case]:
        """A family of cases, named with their indices as the language names them:
        ``cases("face", 6)`` is ``face[0]``, …, ``face[5]``; ``cases("face", range(1,
        7))`` is ``face[1]``, …, ``face[6]``; ``cases("c", [(0, 1), (0, 2)])`` is
        ``c[0, 1]``, ``c[0, 2]``. In a group, the family's name (``"face"``) stands for
        all its cases."""
        out = []
        for i in range(indices) if isinstance(indices, int) else indices:
            index = ", ".join(map(str, i)) if isinstance(i, tuple) else str(i)
            out.append(self.case(f"{name}[{index}]"))
        return out

    def sees(self, who: Character, *groups: Union[Case, str, Iterable[Union[Case, str]]]) -> None:
        """``A sees G1 | G2 | …``: ``who`` observes which group of cases happened, and
        cannot tell apart the cases of one group. Groups are lists of cases (handles or
        names), or a case alone: ``sees(anne, [moved], [stayed])``, ``sees(anne, moved,
        stayed)``, or the Rust API's list of lists ``sees(anne, [[moved], [stayed]])``.
        Every case is in exactly one group (empty groups are left out); a family's name
        (``"face"``) puts all its cases in the group. A character is named in one
        ``sees`` line at most; one in none tells no cases apart, but knows that the
        event happened."""
        self._open("sees")
        self._sees.append((self._story._char(who), self._groups(groups)))

    def sees_each(self, who: Character) -> None:
        """``A sees each(…)``: ``who`` tells every case apart."""
        self._open("sees_each")
        self._sees.append((self._story._char(who), None))

    def expects(self, who: Character, *groups: Union[Case, str, Iterable[Union[Case, str]]]) -> None:
        """``A expects G1 > G2 > …``: ``who``'s plausibility of the cases, most plausible
        group first (groups as in :meth:`sees`): the cases of one group are equally
        plausible, cases in no group come last. ``expects(sally, [stayed])`` is ``Sally
        expects stayed``, ``expects(bob, [honest], [lie])`` is ``Bob expects honest >
        lie``. A case is in one group at most; a character is named in one ``expects``
        line at most."""
        self._open("expects")
        self._expects.append((self._story._char(who), self._groups(groups)))

    def actual(self, case: Union[Case, str]) -> None:
        """``actual CASE``: the case that happened in the actual world. Required when the
        story has an actual world (:meth:`Story.actual`), unless exactly one case's
        precondition holds there; a mistake without an actual world."""
        self._open("actual")
        self._actual.append(self._item(case))

    # --- internals ---

    def _open(self, what: str) -> None:
        if self.happened is not None:
            raise StoryError(
                f"the event block `{self.name}` has run: `{what}` belongs inside it (each "
                "`Story.event` is one execution)"
            )

    def _item(self, c: object) -> CaseName:
        if isinstance(c, Case):
            return c.name if c._block is self else (c._block.name, c.name)
        if isinstance(c, str):
            return c
        raise TypeError(f"a case is a Case (from EventBlock.case) or a case's name, not {c!r}")

    def _groups(self, groups: Sequence[object]) -> Groups:
        first = groups[0] if len(groups) == 1 else None
        if isinstance(first, (list, tuple, set, frozenset)) and first and all(_is_group(g) for g in first):
            groups = tuple(first)
        return [[self._item(g)] if isinstance(g, (Case, str)) else [self._item(c) for c in cast(Iterable[object], g)] for g in groups]

    def _lines(self) -> list[CaseLine]:
        """The cases as the native story takes them."""
        return [
            (c.name, c._when, c._then, c._weight)
            for c in self._cases
        ]

    def _run(self) -> Happened:
        self._open("the block")
        raw = self._story._native.event(self.name, self._lines(), self._sees, self._expects, self._actual)
        self.happened = happened(self._story, raw)
        return self.happened

    def __enter__(self) -> EventBlock:
        return self

    def __exit__(self, kind: object, value: object, tb: object) -> Literal[False]:
        if kind is None:
            self._close()
        return False

    def _close(self) -> None:
        """What the ``with`` block does when it closes: here, the event happens."""
        self._run()

    def __repr__(self) -> str:
        return f"<epipen.EventBlock {self.name}: {', '.join(c.name for c in self._cases)}>"


class EventCases(EnumType):
    """The cases of an event, as values of its own type (:attr:`EventHandle.cases`
    names them): ``moving.type.moved``, ``moving.type["moved"]``. No constant can be
    declared of it."""

    def __getitem__(self, case: Union[Case, str]) -> EnumValue:
        return self._operand(case)

    def _operand(self, case: object) -> EnumValue:
        if isinstance(case, Case):
            return _native.leaf(self._story, "case", self._index, case.name, self, case._block.name)
        if isinstance(case, str):
            # An unknown name is the Rust API's mistake, when the formula is used.
            return _native.leaf(self._story, "case", self._index, case, self)
        raise TypeError(f"a case is a Case (from EventBlock.case) or a case's name, not {case!r}")

    def constant(self, name: str) -> EnumValue:
        raise StoryError(f"`{self.name}` is an event: no constant can be declared of its cases")

    def __repr__(self) -> str:
        return f"event {self.name} {{{', '.join(self.variants)}}}"


class EventHandle(EnumValue):
    """An event of a :class:`Story` (the Rust API's ``Event``), from
    :attr:`Happened.event`. In formulas it is the case of its latest execution so far,
    as the language's ``move`` is: ``moving == "moved"`` (or ``moving.is_(moved)``),
    ``moving.is_in(["moved", "stayed"])``; a name the event has no case of is a
    :class:`StoryError` when the formula is used."""

    __slots__ = ()
    _enum: EventCases

    @property
    def name(self) -> str:
        """The event's name."""
        return self._enum.name

    @property
    def cases(self) -> list[str]:
        """The event's cases, in order."""
        return list(self._enum.variants)

    @property
    def type(self) -> EventCases:
        """The event's cases as values: ``moving.type.moved``."""
        return self._enum

    def latest(self) -> EnumValue:
        """The case of the latest execution (the handle itself, as a plain value)."""
        return EnumValue(self)

    def case(self, case: Union[Case, str]) -> EnumValue:
        """A case of the event as a value of its type: ``moved`` in ``move == moved``."""
        return self._enum[case]

    def is_(self, case: Union[Case, str]) -> Bool:
        """``move == moved``: the latest execution's case is ``case`` (the Rust API's
        ``Event::is``; ``moving == case`` says the same)."""
        return self == case


class Happened:
    """What :meth:`Story.event` reports: the case that happened in the actual world and
    what each character saw of it. ``str()`` is ``epipen run``'s line: ``move: moved
    (Sally saw moved or stayed; Anne saw moved)``."""

    __slots__ = ("event", "case", "case_index", "occurrence", "_saw", "_text", "_story")

    def __init__(
        self,
        story: Owner,
        event: EventHandle,
        case: Optional[str],
        case_index: Optional[int],
        occurrence: EnumValue,
        saw: list[list[str]],
        text: str,
    ):
        #: The event (an :class:`EventHandle`), for formulas after this one.
        self.event = event
        #: The case that happened in the actual world (None when the story has none).
        self.case: Optional[str] = case
        #: Its index among the event's cases.
        self.case_index: Optional[int] = case_index
        #: The case of this very execution as a value of the event's type: unlike
        #: :attr:`event`, it keeps naming this execution after later ones.
        self.occurrence = occurrence
        self._story, self._saw, self._text = story, saw, text

    def saw(self, who: Character) -> list[str]:
        """The cases ``who`` could not tell from the one that happened, itself included,
        in order: its group in its ``sees`` line, or every case when it has none. Empty
        when the story has no actual world, and for a character of another story."""
        if not isinstance(who, Character):
            raise TypeError(f"expected a character, found {who!r}")
        if self.case is None or who._story is not self._story:
            return []
        if who._index < len(self._saw):
            return list(self._saw[who._index])
        return self.event.cases  # declared after the event: it saw nothing of it

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"<epipen.Happened {self._text}>"


def run_event(
    story: Teller, name: str, block: Optional[Callable[[EventBlock], object]]
) -> Union[Happened, EventBlock]:
    """:meth:`Story.event`'s body."""
    if not isinstance(name, str):
        raise TypeError(f"an event's name is a str, not {name!r}")
    e = EventBlock(story, name)
    if block is not None:
        block(e)
        return e._run()
    return e


def event_handle(story: Teller, index: int, name: str, cases: list[str]) -> EventHandle:
    """The handle of the native story's event ``index`` (made the first time)."""
    handle = story._events.get(index)
    if handle is None:
        handle = EventHandle(_native.leaf(story, "latest", index, name, EventCases(story, index, name, cases)))
        story._events[index] = handle
    return handle


def happened(story: Teller, raw: Reported) -> Happened:
    """What happened, from the native story's report."""
    index, execution, name, cases, case, case_index, saw, text = raw
    handle = event_handle(story, index, name, cases)
    value = _native.leaf(story, "occurrence", index, name, handle._enum, k=execution)
    return Happened(story, handle, case, case_index, value, saw, text)
