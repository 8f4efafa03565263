"""Actions and plans of an ``epipen.Story`` (:meth:`Story.action`, :meth:`Story.do`,
:meth:`Story.plan`), as the Rust API's ``Story::action``, ``do_actions`` and ``plan``
state them: the story language's ``action NAME by A if φ { … }``, ``do NAME: CASE, …``
and ``plan [all] φ max D keeping ψ coordinated`` (docs/language.md, "Plans").

An :class:`Action`'s block is an event block (:class:`EventBlock`: cases, ``sees`` and
``expects`` lines) without ``actual``: the case that happens is said where the action is
done. The door mat::

    with s.action("try_take", by=bob) as try_take:
        took = try_take.case("took", when=key_under_mat,
                             then={key_under_mat: False, bob_has_key: True})
        found_nothing = try_take.case("found_nothing", when=~key_under_mat)
        try_take.sees(bob, [took], [found_nothing])
    tell = s.action("tell", lambda a: a.case("told", when=key_under_mat), by=anne)
    s.plan(bob_has_key).plans                       # [['try_take']]
    s.plan(bob_has_key, coordinated=True).plans     # [['tell', 'try_take']]
    s.do(tell, try_take)
    s.check_actual(ep.knows(bob, bob_has_key))
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence, Union

from ._errors import StoryError
from ._events import Case, EventBlock, Happened, Teller, happened
from ._expr import Bool, Character, Formula
from ._results import Plan

__all__ = ["Action"]


class Action(EventBlock):
    """An action of a :class:`Story` (:meth:`Story.action`): while its block runs, its
    body, stated as an event's (:meth:`case`, :meth:`cases`, :meth:`sees`,
    :meth:`sees_each`, :meth:`expects`; no :meth:`actual`); once the block has closed,
    the declared action, which :meth:`Story.do` does and :meth:`Story.plan` chooses
    among. Mistakes raise :class:`StoryError` with the Rust API's message when the block
    closes, and declare nothing."""

    def __init__(self, story: Teller, name: str, by: Optional[Character], when: Optional[Bool]):
        super().__init__(story, name)
        #: ``by A``: the character who performs it (None: no owner).
        self.by: Optional[Character] = by
        self._guard = when
        self._index: Optional[int] = None

    @property
    def declared(self) -> bool:
        """Whether its block has closed and the action is declared."""
        return self._index is not None

    def actual(self, case: Union[Case, str]) -> None:
        """An action's block has no ``actual`` line: the case that happens is said where
        it is done, ``s.do((action, case))``."""
        raise StoryError(
            "an action's block has no `actual` line (the case that happens is said where the "
            "action is done: `s.do((action, case))`)"
        )

    # --- internals ---

    def _open(self, what: str) -> None:
        if self._index is not None:
            raise StoryError(
                f"the action `{self.name}` is declared: `{what}` belongs inside its block"
            )

    def _close(self) -> None:
        self._declare()

    def _declare(self) -> Action:
        """Declares the action, its block closed."""
        self._open("the block")
        story = self._story
        by = None if self.by is None else story._char(self.by)
        self._index = story._native.action(self.name, by, self._guard, self._lines(), self._sees, self._expects)
        return self

    def __enter__(self) -> Action:
        return self

    def __repr__(self) -> str:
        by = "" if self.by is None else f" by {self.by.name}"
        return f"<epipen.Action {self.name}{by}: {', '.join(c.name for c in self._cases)}>"


def declare(
    story: Teller,
    name: str,
    block: Optional[Callable[[Action], object]],
    by: Optional[Character],
    when: Optional[Formula],
) -> Action:
    """:meth:`Story.action`'s body."""
    if not isinstance(name, str):
        raise TypeError(f"an action's name is a str, not {name!r}")
    if by is not None and not isinstance(by, Character):
        raise TypeError(f"`by` is a character, not {by!r}")
    a = Action(story, name, by, None if when is None else story._formula_expr(when))
    if block is not None:
        block(a)
        a._declare()
    return a


def do(story: Teller, steps: Sequence[object]) -> list[Happened]:
    """:meth:`Story.do`'s body: what happened at each action."""
    sent = []
    for step in steps:
        case: object = None
        if isinstance(step, tuple):
            if len(step) != 2:
                raise TypeError(f"a step of `do` is an action or an (action, case) pair, not {step!r}")
            step, case = step
        if not isinstance(step, Action):
            raise TypeError(f"`do` takes actions (from Story.action) or (action, case) pairs, not {step!r}")
        if step._story is not story:
            raise StoryError("the action belongs to another story")
        if step._index is None:
            raise StoryError(f"the action `{step.name}` is not declared yet: its `with` block has not closed")
        if isinstance(case, Case):
            if case._block is not step:
                raise StoryError(
                    f"the case `{case.name}` is a case of `{case._block.name}`, not of the action `{step.name}`"
                )
            case = case.name
        elif case is not None and not isinstance(case, str):
            raise TypeError(f"a case is a Case (from the action's block) or a case's name, not {case!r}")
        sent.append((step._index, case))
    return [happened(story, raw) for raw in story._native.do_actions(sent)]


def plan(
    story: Teller, goal: Formula, max_actions: int, keeping: Optional[Formula], coordinated: bool, every: bool
) -> Plan:
    """:meth:`Story.plan`'s body."""
    if isinstance(max_actions, bool) or not isinstance(max_actions, int):
        raise TypeError(f"a plan's `max` is an int, not {max_actions!r}")
    g = story._formula(goal)
    k = None if keeping is None else story._formula(keeping)
    # Beyond 64 bits, as large as the native module takes (refused there as too large).
    solvable, length, plans, text = story._native.plan(
        g, max(min(max_actions, 2**63 - 1), -(2**63)), k, bool(coordinated), bool(every)
    )
    return Plan(None, solvable, length, plans, text)

