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
latest case: ``moving == "moved"``. Actions (:meth:`Story.action`, the module
``epipen._actions``) are event bodies declared once, done by :meth:`Story.do` and
searched among by :meth:`Story.plan`.
"""

from __future__ import annotations

import builtins
from fractions import Fraction
from typing import Callable, Literal, Optional, Sequence, TypeVar, Union, overload

from . import _native
from ._actions import Action, declare, do, plan
from ._boundary import BlockItem, Change, EnumRef, HandleReply, HintVerdict
from ._errors import StoryError
from ._options import backend_checked, limit_checked, timeout_checked
from ._events import Case, Changes, EventBlock, EventHandle, Happened, _pairs, event_handle, run_event
from ._expr import (
    Bool,
    Character,
    Checkpoint,
    EnumType,
    EnumValue,
    Expr,
    Formula,
    Int,
    IntLike,
    Probability,
    ValueLike,
    _any,
    _bool,
    _flat,
    _int,
)
from ._results import Event, Plan, Show, Worlds, World, _events

__all__ = ["Story"]

_Target = TypeVar("_Target", bound=Expr)

#: What :meth:`Story.handle` gives: a declaration's handle, a ``const``'s value, or a
#: family's members.
Handle = Union[
    Character,
    Int,
    Bool,
    EnumValue,
    EnumType,
    Checkpoint,
    EventHandle,
    Action,
    builtins.int,
    list["Handle"],
]


def _names(names: Union[str, Sequence[str]], n: Optional[int]) -> list[str]:
    if n is not None:
        return [f"{names}[{i}]" for i in range(n)]
    if isinstance(names, str):
        return names.replace(",", " ").split()
    return list(names)


class _Block:
    """The statements of a ``simultaneously`` or ``assert_adds_ck`` block, run together
    when the block closes (a ``with`` block, or the function given)."""

    def __init__(
        self, story: Story, kind: Literal["simultaneously", "assert_adds_ck"], hint: Optional[Bool] = None
    ):
        self._story, self._kind, self._hint = story, kind, hint
        self._items: list[BlockItem] = []
        #: After a ``simultaneously`` block: what each ``reveals`` in it found.
        self.outcomes: Optional[list[bool]] = None
        #: After an ``assert_adds_ck`` block: "verified" (or "trusted", or "vacuous": verified
        #: where no world was possible).
        self.verdict: Optional[HintVerdict] = None

    def _formula(self, formula: Formula) -> Bool:
        f = _bool(formula)
        self._story._own(f)
        return f

    def announce(self, formula: Formula) -> None:
        """``announce φ``."""
        self._items.append(self._formula(formula))

    def says(self, who: Character, formula: Formula) -> None:
        """``A: φ``."""
        self._items.append((self._story._char(who), self._formula(formula), False))

    def reveals(self, who: Character, formula: Formula) -> None:
        """``A reveals φ``."""
        self._items.append((self._story._char(who), self._formula(formula), True))

    def learns(self, who: Character, *values: Union[ValueLike, Sequence[ValueLike]]) -> None:
        """``A learns e`` (only in ``assert_adds_ck``)."""
        self._need_ck("learns")
        self._items.append((self._story._char(who), self._story._values(values)))

    def checkpoint(self, name: str) -> Checkpoint:
        """``checkpoint c`` (only in ``assert_adds_ck``)."""
        self._need_ck("checkpoint")
        self._items.append(name)
        return Checkpoint(self._story, name)

    @overload
    def simultaneously(self, block: None = None) -> _Nested: ...
    @overload
    def simultaneously(self, block: Callable[[_Block], object]) -> None: ...
    def simultaneously(self, block: Optional[Callable[[_Block], object]] = None) -> Optional[_Nested]:
        """A ``simultaneously`` block inside an ``assert_adds_ck`` block."""
        self._need_ck("simultaneously")
        inner = _Block(self._story, "simultaneously")
        self._items.append(inner._items)
        if block is not None:
            block(inner)
            return None
        return _Nested(inner)

    def _need_ck(self, what: str) -> None:
        if self._kind != "assert_adds_ck":
            raise StoryError(f"a `simultaneously` block holds announcements only (announce, says, reveals), not `{what}`")

    def _run(self) -> Union[list[bool], HintVerdict]:
        native = self._story._native
        if self._kind == "simultaneously":
            self.outcomes = native.simultaneously(self._items)
            return self.outcomes
        assert self._hint is not None, "an assert_adds_ck block has its hint"
        self.verdict = native.assert_adds_ck(self._hint, self._items)
        return self.verdict

    def __enter__(self) -> _Block:
        return self

    def __exit__(self, kind: object, value: object, tb: object) -> Literal[False]:
        if kind is None:
            self._run()
        return False


class _Nested:
    """A ``with`` block inside a block: its statements are already in place."""

    def __init__(self, block: _Block):
        self._block = block

    def __enter__(self) -> _Block:
        return self._block

    def __exit__(self, *exc: object) -> Literal[False]:
        return False


class Story:
    """An epistemic puzzle told statement by statement, as ``epipen::Story`` tells it in
    Rust: declarations return handles, statements run at once (a statement that fails
    raises and has no effect), :meth:`worlds` lists the worlds possible now.

    Options: ``backend`` ("auto", "z3", "bdd", "explicit"), ``timeout`` (seconds for
    each statement: one that runs out raises :class:`SolverError` and has no effect;
    the time between statements is not counted), ``trust_hints`` (take
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
        self._native = _native.NativeStory(backend_checked(backend), timeout_checked(timeout), trust_hints)
        # The events that happened (by the native story's index).
        self._events: dict[builtins.int, EventHandle] = {}

    # --- declarations ---

    def character(self, name: str) -> Character:
        """Declares a character."""
        return Character(self, self._native.character(name), name)

    def characters(self, names: Union[str, Sequence[str]], n: Optional[builtins.int] = None) -> list[Character]:
        """Declares several characters: ``characters("Albert Bernard")`` (names separated
        by spaces or commas, or a list), or a family ``characters("child", 3)``:
        ``child[0]``, ``child[1]``, ``child[2]`` (in one declaration: a name already
        declared refuses them all)."""
        if n is None:
            return [self.character(name) for name in _names(names, None)]
        # Declared first: a family too large is refused before its members are named.
        first = self._native.characters(self._family(names), n)
        return [Character(self, first + k, name) for k, name in enumerate(_names(names, n))]

    def int(self, name: str) -> Int:
        """Declares a hidden integer constant (any integer: bound it by an announcement)."""
        k = self._native.int(name)
        return _native.leaf(self, "int", k, name)

    def ints(self, names: Union[str, Sequence[str]], n: Optional[builtins.int] = None) -> list[Int]:
        """Declares several ints: ``ints("month day")`` or ``ints("x", 3)`` (a family, in
        one declaration)."""
        if n is None:
            return [self.int(name) for name in _names(names, None)]
        first = self._native.ints(self._family(names), n)
        return [_native.leaf(self, "int", first + k, name) for k, name in enumerate(_names(names, n))]

    def bool(self, name: str) -> Bool:
        """Declares a hidden boolean constant."""
        k = self._native.bool(name)
        return _native.leaf(self, "bool", k, name)

    def bools(self, names: Union[str, Sequence[str]], n: Optional[builtins.int] = None) -> list[Bool]:
        """Declares several bools: ``bools("p q")`` or ``bools("muddy", 3)`` (a family,
        in one declaration)."""
        if n is None:
            return [self.bool(name) for name in _names(names, None)]
        first = self._native.bools(self._family(names), n)
        return [_native.leaf(self, "bool", first + k, name) for k, name in enumerate(_names(names, n))]

    def enumeration(self, name: str, variants: Union[str, Sequence[str]]) -> EnumType:
        """Declares an enum type: ``enumeration("Colour", "red green blue")``."""
        listed = _names(variants, None)
        return EnumType(self, self._native.enumeration(name, listed), name, listed)

    def enum_constant(self, ty: EnumType, name: str) -> EnumValue:
        """Declares a hidden constant of an enum type."""
        if ty._story is not self:
            raise StoryError("the enum type belongs to another story")
        k = self._native.enum_constant(ty._index, name)
        return _native.leaf(self, "enum", k, name, ty)

    # --- statements ---

    def checkpoint(self, name: str) -> Checkpoint:
        """``checkpoint c``: saves the knowledge state for :func:`at`."""
        self._native.checkpoint(name)
        return Checkpoint(self, name)

    def announce(self, formula: Formula) -> None:
        """``announce φ``: the storyteller announces φ, which becomes common knowledge."""
        self._native.announce(self._formula(formula))

    def says(self, who: Character, formula: Formula) -> None:
        """``A: φ``: ``who`` truthfully announces φ (``knows(φ)``, ``knows_value(e)``,
        ``believes(φ)`` and ``believes_value(e)`` in φ may leave the speaker out)."""
        self._native.says(self._char(who), self._formula(formula))

    def learns(self, who: Character, *values: Union[ValueLike, Sequence[ValueLike]]) -> None:
        """``A learns e``: ``who`` gets the value of each expression (constants, or
        expressions of them): ``learns(a, month)``, ``learns(a, x + y)``,
        ``learns(a, x, y)``. A formula with knowledge operators is learned as the truth
        value it has now: ``learns(a, ep.knows(b, p))``."""
        self._native.learns(self._char(who), self._values(values))

    def actual(self, formula: Formula) -> None:
        """``actual φ``: the actual world, which φ must pin down exactly (needed by
        :meth:`reveals`)."""
        self._native.actual(self._formula(formula))

    def reveals(self, who: Character, formula: Formula) -> builtins.bool:
        """``A reveals φ``: ``who`` announces φ if it holds in the actual world, else
        ``not φ``; returns whether φ held."""
        return self._native.reveals(self._char(who), self._formula(formula))

    def check(self, formula: Formula) -> None:
        """``check φ``: φ must hold in every world possible now (a StoryError says in which
        world it fails); nothing changes."""
        self._native.check(self._formula(formula))

    def check_actual(self, formula: Formula) -> None:
        """``check actual φ``: φ must hold in the actual world (:meth:`actual`; a
        StoryError names the actual world when it does not, and says so when the story
        has none); nothing changes."""
        self._native.check_actual(self._formula(formula))

    def prior(self, weight: IntLike) -> None:
        """``prior e``: the storyteller's prior. Each world weighs the value of the int
        expression ``weight`` there (of the constants, without knowledge operators; a
        negative weight in a world still possible is a StoryError). Without one, every
        world weighs 1. At most one, before anything a character learns or observes and
        before any probability (announcements before it are fine)."""
        w = _int(weight, "a weight")
        self._own(w)
        self._native.prior(w)

    def show(self, value: Union[Probability, ValueLike]) -> Show:
        """``show e``: the value of ``e`` (a :class:`Probability`, an :class:`Int`, a
        :class:`Bool` or an enum value) in the actual world (``.value``: a
        ``fractions.Fraction`` for a probability, else an int, a bool or a variant's
        name), or without one in each world still possible, grouped by value
        (``.values``: (value, worlds) pairs). ``str()`` is ``show e = 2/3``. Nothing
        changes."""
        shown = value if isinstance(value, Probability) else _any(value)
        self._own(shown)
        return Show._native(self._native.show(shown))

    def expects(self, who: Character, formula: Formula) -> None:
        """``A expects φ``: soft information. ``who`` now finds every world where φ holds
        (now) more plausible than every other, its old plausibility deciding inside each
        part; nobody learns anything, but what ``who`` :func:`believes` changes, and an
        announcement that removes every world it believed possible revises its belief to
        the next most plausible ones::

            s.expects(watson, culprit == suspect.butler)
            s.check(ep.believes(watson, culprit == suspect.butler))
        """
        self._native.expects(self._char(who), self._formula(formula))

    def assign(self, constant: Expr, value: Union[ValueLike, str]) -> None:
        """``x := e``: a public change of the constant ``x`` to the value ``e`` had (an
        enum constant takes a value of its enum or a variant's name)."""
        self._native.assign(*self._change(constant, value, "assign"))

    def assign_all(self, changes: Changes[_Target]) -> None:
        """``x, y := e, f``: a simultaneous public change, every value read before any
        constant changes: ``assign_all({x: y, y: x})`` (or pairs, ``[(x, y), (y, x)]``)
        swaps them. Each constant is changed once; otherwise as :meth:`assign`."""

        self._native.assign_all([self._change(t, v, "assign_all") for t, v in _pairs(changes)])

    @overload
    def event(self, name: str, block: None = None) -> EventBlock: ...
    @overload
    def event(self, name: str, block: Callable[[EventBlock], object]) -> Happened: ...
    def event(
        self, name: str, block: Optional[Callable[[EventBlock], object]] = None
    ) -> Union[Happened, EventBlock]:
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

        return run_event(self, name, block)

    def action(
        self,
        name: str,
        block: Optional[Callable[[Action], object]] = None,
        *,
        by: Optional[Character] = None,
        when: Optional[Formula] = None,
    ) -> Action:
        """``action NAME by A if φ { … }``: declares an action that :meth:`do` does and
        :meth:`plan` chooses among; nothing happens here. ``by``: the character who does
        it (a ``coordinated`` plan needs one); ``when``: when it can be done (a formula,
        knowledge operators allowed, evaluated where it is done). Its block states its
        body as an event's (:meth:`Action.case`, :meth:`Action.sees`,
        :meth:`Action.expects`), without ``actual``: the case that happens is said by
        :meth:`do`. A member of a family is named with its indices:
        ``s.action(f"call[{i}, {j}]", …)``.

        With a function, runs ``block(a)`` and returns the declared :class:`Action`;
        without, a ``with`` block whose action is declared when it closes::

            with s.action("try_take", by=bob) as try_take:
                took = try_take.case("took", when=key_under_mat,
                                     then={key_under_mat: False, bob_has_key: True})
                found_nothing = try_take.case("found_nothing", when=~key_under_mat)
                try_take.sees(bob, [took], [found_nothing])
            tell = s.action("tell", lambda a: a.case("told", when=key_under_mat), by=anne)

        An action is executable where ``when`` holds at the actual world and one of its
        cases can happen there (without an actual world: at every world still possible).
        Mistakes raise :class:`StoryError` with the Rust API's message and declare
        nothing: those of an event block, an ``actual`` line, a name already declared (an
        action declared twice, a constant's, an enum's or an event's name)."""
        return declare(self, name, block, by, when)

    def do(self, *actions: Union[Action, tuple[Action, Union[str, Case]]]) -> list[Happened]:
        """``do a, b: CASE, …``: does the actions in order, each as an ``event``
        statement would, as one statement (all are done, or none), and returns what
        happened at each (a :class:`Happened` apiece; ``happened.event`` names the
        action's latest case in formulas afterwards: ``tell == "told"``). Each is an
        :class:`Action`, or an ``(action, case)`` pair saying which case happened where
        several can at the actual world (without one, exactly one must be possible
        there)::

            s.do(tell, try_take)
            s.do((flip, "heads"))

        An action that cannot be done here raises :class:`StoryError` (``the action
        `tell` cannot be done here: its condition does not hold in the actual world``);
        so does a case the action does not have."""
        return do(self, actions)

    def plan(
        self,
        goal: Formula,
        *,
        max: builtins.int = 10,
        keeping: Optional[Formula] = None,
        coordinated: builtins.bool = False,
        all: builtins.bool = False,
    ) -> Plan:
        """``plan [all] φ [max D] [keeping ψ] [coordinated]``: a breadth-first search for
        a shortest sequence of at most ``max`` actions (among those declared so far, tried
        in the order they were declared), each executable where it is done, after which
        ``goal`` holds at the actual world (without one: at every world still possible).
        A question: the story goes on from the state before it. ``keeping``: a formula
        that must hold after every action; ``coordinated``: before each step its owner
        knows that it can be done and that the rest of the plan then reaches the goal
        (every action needs ``by``); ``all``: every shortest plan, not only the first.

        Returns a :class:`Plan`: ``solvable``, ``length``, ``plans`` (each a list of
        action names), ``line`` None; ``str()`` is ``plan of 2 actions: tell,
        try_take`` or ``no plan of at most 3 actions``::

            s.plan(bob_has_key).plans                     # [['try_take']]
            s.plan(bob_has_key, coordinated=True).plans   # [['tell', 'try_take']]

        Mistakes raise :class:`StoryError`: no action declared, ``max`` below 1 or above
        10 000, ``coordinated`` with an action without owner."""
        return plan(self, goal, max, keeping, coordinated, all)

    @overload
    def simultaneously(self, block: None = None) -> _Block: ...
    @overload
    def simultaneously(self, block: Callable[[_Block], object]) -> list[builtins.bool]: ...
    def simultaneously(
        self, block: Optional[Callable[[_Block], object]] = None
    ) -> Union[list[builtins.bool], _Block]:
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
            outcomes = b._run()
            assert isinstance(outcomes, list)
            return outcomes
        return b

    @overload
    def assert_adds_ck(self, hint: Formula, block: None = None) -> _Block: ...
    @overload
    def assert_adds_ck(self, hint: Formula, block: Callable[[_Block], object]) -> HintVerdict: ...
    def assert_adds_ck(
        self, hint: Formula, block: Optional[Callable[[_Block], object]] = None
    ) -> Union[HintVerdict, _Block]:
        """``assert_adds_ck φ { … }``: runs the block, proves that it added exactly the
        hint to the common knowledge, and keeps the small form (a RefutedError names a
        world where they disagree). A function or a ``with`` block, as
        :meth:`simultaneously`; returns "verified" (or "trusted", or "vacuous" when no world
        was possible before the block)."""
        b = _Block(self, "assert_adds_ck", self._formula_expr(hint))
        if block is not None:
            block(b)
            verdict = b._run()
            assert isinstance(verdict, str)
            return verdict
        return b

    def tell(self, text: str) -> list[Event]:
        """Tells the story ``text``: statements in the story language, declarations too,
        after the statements so far, as a story file continues. Names are the story's
        (those declared in Python and in text told before); what the text declares is
        the story's from then on, in text. Returns what the statements print, as
        ``epipen run`` prints it (``worlds`` and ``where`` listings, reveals, events,
        plans; a check that holds prints nothing).

        The text is a unit: when a statement fails, none of it takes effect, and the
        error (:class:`StoryError`, :class:`SolverError`) is located in the text told to
        the story so far, its line counted from the first text told (``<told>:3:10``)."""
        names, reports = self._native.tell(text)
        return _events(names, reports)

    def text(self) -> str:
        """The story so far as a story file writes it: every declaration and statement
        that took effect, in order, made in Python or told as text (a failed one is not
        in it, nor a plan, a question the story does not keep). ``epipen.run(s.text())`` (or ``epipen run`` on it) tells the same
        story::

            open("mine.story", "w").write(s.text())

        A story naming an execution of an event (:attr:`Happened.occurrence`:
        ``flip#2``), which the story language cannot write, raises
        :class:`StoryError`."""
        return self._native.text()

    def handle(self, name: str) -> Handle:
        """The handle of ``name``, whoever declared it (Python, or text :meth:`tell` told),
        as its declaration returns it: a :class:`Character`, an :class:`Int`, a
        :class:`Bool`, an :class:`EnumValue` (a constant, or a value: ``"red"``), an
        :class:`EnumType`, a :class:`Checkpoint`, an event (as :attr:`Happened.event`),
        an :class:`Action`, a ``const``'s value (an int), or a family's members as a
        list (``"muddy"``; ``"muddy[1]"`` is one)::

            s.tell("characters Anne\nint x\nannounce 0 <= x and x <= 3")
            anne, x = s.handle("Anne"), s.handle("x")

        An unknown name raises :class:`StoryError` (with a "did you mean" hint); so does
        a definition (``def``), which only text uses."""
        return self._made(self._native.handle(name))

    def worlds(self, limit: builtins.int = 10) -> Worlds:
        """Up to ``limit`` of the worlds possible now, in canonical order."""
        names, worlds, complete, text, chances = self._native.worlds(limit_checked(limit))
        listed = [World(zip(names, w)) for w in worlds]
        for w, p in zip(listed, chances or []):
            w.probability = Fraction(p)
        return Worlds(names, listed, complete, text=text)

    # --- internals ---

    def _family(self, name: object) -> str:
        if not isinstance(name, str):
            raise TypeError(f"a family's name is a str, not {name!r}")
        return name

    def _made(self, reply: HandleReply) -> Handle:
        """The Python handle of the native story's answer to :meth:`handle`."""
        if reply[0] == "character":
            return Character(self, reply[1], reply[2])
        if reply[0] == "int":
            return _native.leaf(self, "int", reply[1], reply[2])
        if reply[0] == "bool":
            return _native.leaf(self, "bool", reply[1], reply[2])
        if reply[0] == "enum":
            return _native.leaf(self, "enum", reply[1], reply[2], self._enum(reply[3]))
        if reply[0] == "variant":
            return self._enum(reply[2])[reply[1]]
        if reply[0] == "enum_type":
            return self._enum(reply[1])
        if reply[0] == "const":
            return reply[1]
        if reply[0] == "checkpoint":
            return Checkpoint(self, reply[1])
        if reply[0] == "event":
            return event_handle(self, reply[1], reply[2], reply[3])
        if reply[0] == "action":
            by = None if reply[3] is None else Character(self, reply[3][0], reply[3][1])
            action = Action(self, reply[2], by, None)
            action._index = reply[1]
            return action
        return [self._made(m) for m in reply[1]]

    def _enum(self, ref: EnumRef) -> EnumType:
        return EnumType(self, ref[0], ref[1], ref[2])

    def _own(self, e: Expr) -> None:
        if e._owner is not None and e._owner is not self:
            raise StoryError("an expression uses handles of another story")

    def _char(self, who: Character) -> builtins.int:
        if not isinstance(who, Character):
            raise TypeError(f"expected a character, found {who!r}")
        if who._story is not self:
            raise StoryError("the character belongs to another story")
        return who._index

    def _change(self, constant: object, value: object, what: str) -> Change:
        """``constant := value`` as the native story takes it: (the constant, the value)."""
        if not isinstance(constant, Expr) or constant._constant is None:
            raise StoryError(
                f"`{what}` changes a constant: its target must be one (from Story.int, bool or enum_constant)"
            )
        self._own(constant)
        if isinstance(constant, EnumValue) and isinstance(value, str):
            value = constant._enum._operand(value)
        v = _any(value)
        self._own(v)
        return (constant, v)

    def _formula_expr(self, formula: Formula) -> Bool:
        f = _bool(formula)
        self._own(f)
        return f

    _formula = _formula_expr

    def _values(self, values: Sequence[object]) -> list[Expr]:
        out: list[Expr] = [_any(item) for item in _flat(values)]
        for v in out:
            self._own(v)
        return out

    def __repr__(self) -> str:
        characters, constants = self._native.declared()
        return f"<epipen.Story: {characters} characters, {constants} constants>"
