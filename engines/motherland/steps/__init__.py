"""For the Motherland!'s control flow on the step runtime (pbem.steps): the step table.

The sequence of play (3.0, 3.1) is data (``sequence.py``): :class:`AxisFirstTurn` (turns
1-11) and :class:`SovietFirstTurn` (turns 12-22), each phase a :class:`PhaseStart` whose
work the rules queue up as frames (the runtime's ``queue_frames``).  Every decision the rules give
a side is one :class:`~pbem.steps.Choice` (21 kinds, ``Engine.decision_kinds``), every die
roll a runtime :class:`~pbem.steps.Roll` declaring its die, a chit draw
:class:`DrawChits`, and the bookkeeping
between them a :class:`MotherlandProcedure` (``base.py``).  The steps are grouped by the
phase that runs them (``movement.py``, ``combat.py``, ``supply.py``, ``admin.py``); the
rules are the plain functions of the rule modules (``supply.py``, ``combat.py``,
``retreat.py``, ...), which never import the steps.  A step says who decides, what is
offered, what the default is, and which rule applies an answer.

A phase's module of steps, and the rules only it runs, load with the first frame of one of
its steps (:class:`pbem.steps.LazyStepTable`): a turn in a Combat Phase never imports the movement,
supply or administrative steps (issue 35: every module a turn command imports costs it
0.4-0.5 M instructions to load).

Events go to the runtime's log (``StepState.tell``) where the rules find them; the
frames a rule queues (``StepState.queue_frames``, the last queued first) run once the step
has moved its flow, the runtime putting them on the stack.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, Any

from engines.motherland.args import RoleArgs, SideArgs
from engines.motherland.sequence import AxisFirstTurn, Game, PhaseStart, SovietFirstTurn
from engines.motherland.steps.base import MotherlandProcedure, _procedure
from pbem.steps import LazyStepTable, NoArgs, Step, step_table

if TYPE_CHECKING:
    from engines.motherland.state import MotherlandState

__all__ = ["STEPS", "MotherlandProcedure"]


def _rule(where: str, takes_args: bool = False) -> Callable[[MotherlandState, Any], None]:
    """The rule ``module:function`` of this engine, imported when the procedure first runs
    it; given the frame's arguments when ``takes_args``."""
    module, _, name = where.partition(":")
    found: list[Callable[..., None]] = []  # the rule, once imported

    def run(s: MotherlandState, a: Any) -> None:
        if not found:
            found.append(getattr(import_module(f"engines.motherland.{module}"), name))
        if takes_args:
            found[0](s, a)
        else:
            found[0](s)
    return run


def _procedures() -> tuple[MotherlandProcedure, ...]:
    # a class named ``module:Name`` is kept with the rules that make its frames, and
    # made when a frame of its procedure is first read or made (steps.base.ProcedureArgs)
    made = []
    for step, rule, where, args in (
        ("supply_start", "9.0", "supply:supply_start", NoArgs),  # 14.0, 16.5, 17.3
        ("supply_status", "9.1", "supply:supply_status", NoArgs),
        ("partisan_effects", "10.1", "partisans:partisan_effects", NoArgs),
        ("isolation_rolls", "9.1.3", "supply:isolation_rolls", NoArgs),
        ("remove_expended", "9.3.4", "supply:remove_expended", NoArgs),
        ("arrivals", "17.0", "reinforcements:arrivals", SideArgs),
        ("stacking", "6.0", "stacking:stacking", NoArgs),
        ("turkey", "21.2", "optional:turkey", NoArgs),
        ("admin_chits", "11.1.2", "chits:admin_chits", NoArgs),
        ("admin_draws", "11.1.2", "chits:admin_draws", "chits:UnitsArgs"),
        ("recovery", "14.0", "admin:recovery", NoArgs),
        ("combat_chits", "11.1.1", "chits:combat_chits", "chits:UnitsArgs"),
        ("combat_resolve", "8.2", "combat:combat_resolve", NoArgs),
        ("apply_side", "8.5", "combat:apply_side", "combat:ApplySideArgs"),
        ("advance_start", "8.7", "retreat:advance_start", RoleArgs),
        ("stuck_steps", "8.5.1", "combat:stuck_steps", "combat:StuckArgs"),
        ("combat_end", "8.0", "combat:combat_end", NoArgs),
    ):
        made.append(_procedure(step, rule, _rule(where, args is not NoArgs), args))
    return tuple(made)


PROCEDURES = _procedures()

#: the steps each phase's module makes (its ``STEPS``), by name, in the table's order (the
#: order ``Engine.standing_orders`` lists them in)
ELSEWHERE: dict[str, str] = {
    "move": "movement", "combat": "attack", "reinf": "movement", "take": "combat",
    "lose": "combat", "retreat": "attack", "advance": "attack", "generals": "combat",
    "keep": "combat", "stack": "movement", "expend": "supply", "airsupply": "supply",
    "partisan_oos": "supply", "partisan_place": "supply", "isolation": "supply",
    "convert": "admin", "combine": "admin", "replace": "admin", "produce": "admin",
    "evacuate": "admin", "baku_factories": "movement", "roll-crt": "combat",
    "roll-returning": "movement", "roll-partisan": "supply", "roll-isolation": "supply",
    "roll-production": "admin", "roll-sudden-death": "admin", "roll-stalin": "admin",
    "roll-surrender": "admin", "roll-baku": "movement", "roll-baku-factories": "movement",
    "roll-turkey": "admin", "draw": "combat",
}


_SEQUENCE = (Game(), PhaseStart(), AxisFirstTurn(), SovietFirstTurn())
STEPS: Mapping[str, Step[Any]] = LazyStepTable(
    step_table(*_SEQUENCE, *PROCEDURES), ELSEWHERE, "engines.motherland.steps",
    tuple(s.name for s in _SEQUENCE))
