"""What every White Death module shares: the sides, a die's arguments (:class:`DieArgs`),
the phase a step belongs to (:func:`phase_of`).

The state itself, the position's lookups (which units are where, whose they are, what
the catalog says of them, whether a stack is legal, Rule 4), is
:class:`~engines.white_death.state.WDState`; the frames a rule queues go to the runtime
(:meth:`pbem.steps.StepState.queue`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # WDState makes it; terrain.py imports this module
    pass

BOXES = ("pending", "raster", "dead", "refit", "setup")


def other(side: str) -> str:
    return "german" if side == "soviet" else "soviet"


@dataclass(frozen=True)
class MoveArgs:
    """The rest of a move that waits for the antitank fire at its exit (Rule 3.A): the
    frame's arguments of the sequence's ``finish-move`` step (here, not in ``movement``,
    so that the sequence names its steps without loading the movement rules)."""

    uid: str = ""
    frm: str = ""
    to: str = ""
    #: its cost in ticks (:data:`~engines.white_death.position.MP_TICKS`)
    cost: int = 0


@dataclass(frozen=True)
class DieArgs:
    """A die of the game (all are 1d6) and what its rule needs to apply the result: the
    request's purpose and rule, and the fields of the handler's rule."""

    purpose: str = ""
    rule: str = ""
    hex: str = ""
    uid: str = ""
    kind: str = ""
    col: int = 0
    mod: int = 0
    stage: str = ""
    units: tuple[str, ...] = ()
    area: str = ""
    need: int = 0
    group: tuple[str, ...] = ()




def phase_of(step: object, args: Any) -> str:
    """The phase of play (Rule 5) a step belongs to: its ``phase`` (a class attribute of
    the step), or the field of its frame's arguments its ``phase_arg`` names (the fire
    steps' ``stage``: defense or assault); "" for a step that belongs to the phase around
    it.  Read by name, so a step says it with two attributes and no base class to mix
    into the runtime's."""
    field = getattr(step, "phase_arg", "")
    return str(getattr(args, field)) if field else str(getattr(step, "phase", ""))
