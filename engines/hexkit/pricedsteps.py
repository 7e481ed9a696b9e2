"""One step's movement cost at a time, priced when first asked (issue 35).

:class:`~engines.hexkit.movement.MoveCosts` compiles every step of a map at once, which a
search over the whole map needs.  A game that only ever asks the cost of the steps its
units take, one at a time (48th Panzer Korps: a moving stack's next hexes), pays for the
whole map's table in every command that moves a unit (the table is most of a replay's
data when no data cache is kept).  :class:`PricedSteps` answers :meth:`MoveCosts.cost`
exactly, step by step.

Not :class:`~engines.hexkit.movement.StepCosts`, which prices a hex's whole row of
steps in scaled integers for :func:`~engines.hexkit.movement.reachable`'s searches and
refuses an ``adjust``: this one answers single steps as ``Cost`` values, with an
``adjust`` and a class's own ``step_cost`` allowed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.hexkit.hexid import HexId
from engines.hexkit.hexmap import HexMap
from engines.hexkit.movement import Cost, MoveClass
from engines.hexkit.shared import Shared, fraction_type

#: the memo's "not priced yet" (``None`` is a price: prohibited)
_UNSET: Any = object()


class PricedSteps(Shared):
    """:meth:`MoveCosts.cost` of ``move_class`` on ``hexmap`` with ``adjust`` applied, as
    :class:`~engines.hexkit.movement.MoveCosts` would compile it, each step priced when
    first asked and kept (the costs never change: a clone shares them)."""

    __slots__ = ("_known", "_pricer", "adjust", "map", "move_class")

    def __init__(self, hexmap: HexMap, move_class: MoveClass,
                 adjust: Callable[[HexId, HexId, Cost], Cost | None] | None = None) -> None:
        from engines.hexkit.pricing import Pricer

        self.map = hexmap
        self.move_class = move_class
        self.adjust = adjust
        # the integer pricer where the class allows it (MoveCosts compiles with it too),
        # else the class's own step_cost
        self._pricer = Pricer.of(hexmap, move_class)
        self._known: dict[tuple[HexId, HexId], Cost | None] = {}

    def cost(self, a: HexId, b: HexId) -> Cost | None:
        """The cost of the step from ``a`` into ``b`` (``None``: prohibited), as
        :meth:`MoveCosts.cost` answers it: an int when a whole number of MP."""
        key = (a, b)
        got = self._known.get(key, _UNSET)
        if got is _UNSET:
            got = self._known[key] = self._price(a, b)
        return got  # type: ignore[no-any-return]

    def _price(self, a: HexId, b: HexId) -> Cost | None:
        m = self.map
        # the first hex's neighbours, not the whole map's table (a replay prices a few
        # hundred steps: the table of 48th Panzer Korps' 2,160 hexes was 22.8 M
        # instructions of its first-day audit, issue 35)
        if b not in m.neighbors(a):
            raise ValueError(f"{a} and {b} are not adjacent on the map")
        pricer = self._pricer
        c = (pricer.cost(m, a, b) if pricer is not None
             else self.move_class.step_cost(m, a, b))
        if c is not None and self.adjust is not None:
            c = self.adjust(a, b, c)
        if c is None:
            return None
        if c < 0:
            raise ValueError(f"{self.move_class.name}: negative cost {c} from {a} to {b}")
        if type(c) is not int:
            c = fraction_type()(c)
            if c.denominator == 1:
                return int(c)  # MoveCosts unscales a whole number of MP to an int
        return c
