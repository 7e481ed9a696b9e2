"""For the Motherland!'s control flow on the step runtime (pbem.steps): the step table.

The sequence of play (3.0, 3.1) is data (``sequence.py``): :class:`AxisFirstTurn` (turns
1-11) and :class:`SovietFirstTurn` (turns 12-22), each phase a :class:`PhaseStart` whose
work the rules queue up as frames (the runtime's ``queue_frames``).  Every decision the rules give
a side is one :class:`~pbem.steps.Choice` (21 kinds, ``Engine.decision_kinds``), every die
roll one :class:`MotherlandRoll`, a chit draw :class:`DrawChits`, and the bookkeeping
between them a :class:`MotherlandProcedure` (``base.py``).  The steps are grouped by the
phase that runs them (``movement.py``, ``combat.py``, ``supply.py``, ``admin.py``); the
rules are the plain functions of the rule modules (``supply.py``, ``combat.py``,
``retreat.py``, ...), which never import the steps.  A step says who decides, what is
offered, what the default is, and which rule applies an answer.

Events go to the runtime's log (``StepState.tell``) where the rules find them; the
frames a rule queues (``StepState.queue_frames``, the last queued first) run once the step
has moved its flow, the runtime putting them on the stack.
"""

from __future__ import annotations

from typing import Any

from engines.motherland.admin import recovery
from engines.motherland.args import ApplySideArgs, RoleArgs, SideArgs, StuckArgs, UnitsArgs
from engines.motherland.chits import admin_chits, admin_draws, combat_chits
from engines.motherland.combat import apply_side, combat_end, combat_resolve, stuck_steps
from engines.motherland.optional import turkey
from engines.motherland.partisans import partisan_effects
from engines.motherland.reinforcements import arrivals
from engines.motherland.retreat import advance_start
from engines.motherland.sequence import AxisFirstTurn, Game, PhaseStart, SovietFirstTurn
from engines.motherland.stacking import stacking
from engines.motherland.steps.admin import (
    Conversions,
    Evacuation,
    Kampfgruppen,
    Production,
    ProductionRoll,
    Replacements,
    StalinRoll,
    SuddenDeathRoll,
    SurrenderRoll,
    TurkeyRoll,
)
from engines.motherland.steps.base import MotherlandProcedure, _procedure
from engines.motherland.steps.combat import (
    AdvanceChoice,
    CombatChoice,
    CrtRoll,
    DrawChits,
    Generals,
    KeepChit,
    LoseSteps,
    RetreatChoice,
    TakeResult,
)
from engines.motherland.steps.movement import (
    BakuFactories,
    BakuFactoriesRoll,
    BakuRoll,
    MoveChoice,
    Overstacked,
    Reinforcements,
    ReturningRoll,
)
from engines.motherland.steps.supply import (
    AirSupply,
    ExpendBases,
    IsolationLosses,
    IsolationRoll,
    PartisanMarkers,
    PartisanPlacement,
    PartisanRoll,
)
from engines.motherland.supply import (
    isolation_rolls,
    remove_expended,
    supply_start,
    supply_status,
)
from pbem.steps import Step, step_table

__all__ = ["STEPS", "MotherlandProcedure"]


PROCEDURES: tuple[MotherlandProcedure, ...] = (
    _procedure("supply_start", "9.0", lambda s, a: supply_start(s)),  # 14.0, 16.5, 17.3
    _procedure("supply_status", "9.1", lambda s, a: supply_status(s)),
    _procedure("partisan_effects", "10.1", lambda s, a: partisan_effects(s)),
    _procedure("isolation_rolls", "9.1.3", lambda s, a: isolation_rolls(s)),
    _procedure("remove_expended", "9.3.4", lambda s, a: remove_expended(s)),
    _procedure("arrivals", "17.0", lambda s, a: arrivals(s, a), SideArgs),
    _procedure("stacking", "6.0", lambda s, a: stacking(s)),
    _procedure("turkey", "21.2", lambda s, a: turkey(s)),
    _procedure("admin_chits", "11.1.2", lambda s, a: admin_chits(s)),
    _procedure("admin_draws", "11.1.2", lambda s, a: admin_draws(s, a), UnitsArgs),
    _procedure("recovery", "14.0", lambda s, a: recovery(s)),
    _procedure("combat_chits", "11.1.1", lambda s, a: combat_chits(s, a), UnitsArgs),
    _procedure("combat_resolve", "8.2", lambda s, a: combat_resolve(s)),
    _procedure("apply_side", "8.5", lambda s, a: apply_side(s, a), ApplySideArgs),
    _procedure("advance_start", "8.7", lambda s, a: advance_start(s, a), RoleArgs),
    _procedure("stuck_steps", "8.5.1", lambda s, a: stuck_steps(s, a), StuckArgs),
    _procedure("combat_end", "8.0", lambda s, a: combat_end(s)),
)


STEPS: dict[str, Step[Any]] = step_table(
    Game(), PhaseStart(), AxisFirstTurn(), SovietFirstTurn(),
    MoveChoice(), CombatChoice(), Reinforcements(), TakeResult(), LoseSteps(),
    RetreatChoice(), AdvanceChoice(), Generals(), KeepChit(), Overstacked(), ExpendBases(),
    AirSupply(), PartisanMarkers(), PartisanPlacement(), IsolationLosses(), Conversions(),
    Kampfgruppen(), Replacements(), Production(), Evacuation(), BakuFactories(),
    CrtRoll(), ReturningRoll(), PartisanRoll(), IsolationRoll(), ProductionRoll(),
    SuddenDeathRoll(), StalinRoll(), SurrenderRoll(), BakuRoll(), BakuFactoriesRoll(),
    TurkeyRoll(), DrawChits(), *PROCEDURES)
