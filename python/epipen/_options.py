"""The options a run or a story takes, checked in one place: ``epipen.run`` (and
``trace``, ``model``, ``sweep``) and ``epipen.Story`` refuse the same mistakes with the
same words. This module imports none of the package's other modules."""

from __future__ import annotations

from typing import Optional

__all__ = ["BACKENDS", "backend_checked", "timeout_checked", "limit_checked"]

BACKENDS = ("auto", "z3", "bdd", "explicit")


def backend_checked(backend: object) -> str:
    """``backend`` if it names a backend; else ``ValueError``."""
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}: the backends are {', '.join(map(repr, BACKENDS))}")
    return backend


def timeout_checked(timeout: object) -> Optional[float]:
    """``timeout`` (seconds, or None for none) if it is one; else ``ValueError``."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 <= timeout < 1e9:
        raise ValueError(f"timeout={timeout!r}: a number of seconds from 0 to 1e9 (None: no limit)")
    return float(timeout)


def limit_checked(limit: object) -> int:
    """``limit`` (how many worlds to list) if it is one; else ``ValueError``."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit < 2**64:
        raise ValueError(f"limit={limit!r}: how many worlds to list, 0 or more")
    return limit
