"""Sharing immutable kit objects instead of copying them.

``State.clone()`` deep-copies a game state.  A state that keeps a reference to its map,
its compiled movement costs or its scenario data must not copy them: they never change,
they are large, and their read-only mappings cannot be deep-copied at all.  Classes
that derive from :class:`Shared` are returned as themselves by ``copy`` and ``deepcopy``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

if TYPE_CHECKING:
    from fractions import Fraction


class Shared:
    """The base of immutable kit data: ``copy.copy(x) is x`` and ``copy.deepcopy(x) is x``."""

    __slots__ = ()

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


_FRACTION: list[type[Fraction]] = []


def fraction_type() -> type[Fraction]:
    """:class:`fractions.Fraction`, imported when first asked: a function that makes a
    fraction calls this rather than importing it, since an import statement run per
    call (a search unscales every hex it reaches) cost more than the import saved."""
    if not _FRACTION:
        from fractions import Fraction

        _FRACTION.append(Fraction)
    return _FRACTION[0]
