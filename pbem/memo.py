"""A bounded memo for what an engine derives from a position (ZOCs, reach, listed options).

Every entry is a pure function of its key, which holds everything it reads, so nothing
ever needs invalidating and forgetting costs only time: past ``limit`` entries the memo
starts afresh.  One class for what each engine had written as its own module-level dict
with its own bound.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_MISSING = object()


class Memo(Generic[K, V]):
    """``make()`` once per key, at most ``limit`` keys kept (a cache, not a record)."""

    __slots__ = ("_found", "find", "limit")

    def __init__(self, limit: int) -> None:
        self._found: dict[K, V] = {}
        #: what is kept for a key, or None (nothing is made): with :meth:`keep`, for a
        #: caller whose ``make`` would itself be an object made per key (a partial of the
        #: key's parts), made then only on a miss.  The dict's own ``get`` (the dict is
        #: emptied, never replaced): a board view finds each of its ~50-130 counters here
        #: on every click's redraw, and a Python call each was a tenth of the view (issue
        #: 35)
        self.find: Callable[[K], V | None] = self._found.get
        self.limit = limit

    def get(self, key: K, make: Callable[[], V]) -> V:
        found = self._found.get(key, _MISSING)
        if found is _MISSING:
            return self.keep(key, make())
        return found  # type: ignore[return-value]

    def keep(self, key: K, value: V) -> V:
        """Keep ``value`` for ``key`` (``make()``'s value, made by the caller) and give it
        back, starting afresh past ``limit`` as :meth:`get` does."""
        if len(self._found) >= self.limit:
            self._found.clear()
        self._found[key] = value
        return value

    def __len__(self) -> int:
        return len(self._found)

    def clear(self) -> None:
        self._found.clear()
