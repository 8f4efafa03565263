"""The exceptions epipen raises. ``str(e)`` is exactly what the ``epipen`` command prints
for the same failure (file, line and column, the source line with a caret, hints)."""

from __future__ import annotations

from typing import Iterable, Optional

__all__ = ["EpipenError", "StoryError", "SolverError", "RefutedError"]


class EpipenError(Exception):
    """A story epipen could not run to its end.

    Attributes:
        text: the command line's message, in full (``str(e)``).
        line, column: where it points (1-based), or None when it points at no place in
            the story (a ``sets`` value the story cannot take, an unknown checkpoint, a
            mistake in a ``Story`` built in Python).
        message: the message's first line, without its ``file:line:column: error:``.
        errors: every error found, as (line, column, message) tuples: a story that does
            not compile may have several.
        hint: the first error's first hint (``did you mean `day`?``), or None.
    """

    def __init__(
        self,
        text: str,
        line: Optional[int] = None,
        column: Optional[int] = None,
        message: Optional[str] = None,
        errors: Optional[Iterable[tuple[Optional[int], Optional[int], str]]] = None,
        hint: Optional[str] = None,
    ):
        super().__init__(text)
        self.text = text
        self.line = line
        self.column = column
        self.message: str = message if message is not None else text.split("\n", 1)[0]
        self.errors: list[tuple[Optional[int], Optional[int], str]] = (
            list(errors) if errors else [(line, column, self.message)]
        )
        self.hint = hint

    def __str__(self) -> str:
        return self.text.rstrip("\n")

    def __reduce__(
        self,
    ) -> tuple[
        type[EpipenError],
        tuple[str, Optional[int], Optional[int], str, list[tuple[Optional[int], Optional[int], str]], Optional[str]],
    ]:
        # Picklable (Ray sends exceptions between processes).
        return (type(self), (self.text, self.line, self.column, self.message, self.errors, self.hint))


class StoryError(EpipenError, ValueError):
    """The story is wrong: a syntax or type error, an unknown name, an ``actual`` that
    allows several worlds, a ``repeat`` out of rounds... (the command line's exit code 2).
    Also a ``ValueError``."""


class SolverError(EpipenError, RuntimeError):
    """The solver could not answer: the timeout ran out, Z3 answered ``unknown`` or hit a
    resource limit, or a formula lies outside what the engine decides (the command
    line's exit code 1). Never to be read as "no worlds"."""


class RefutedError(EpipenError):
    """A ``Story.assert_adds_ck`` hint is wrong; ``message`` names a world on which the
    hint and its block disagree."""
