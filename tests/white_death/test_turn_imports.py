"""What a White Death turn loads (issue 35): the kit's movement costs, overlay, graph
searches and line of sight (~7 M instructions to import) load where a rule first prices a
move, traces a rail line or a line of sight, and the engine's rules of movement and
barrages, its reinforcements and its movement listing (~4 M, and the listing's record
class 2.5 M) with the first action or listing of their decision, not with the engine. A
turn at a decision that moves nothing (the impulse's size, Rule 5) reads none of them; the
movement phase that follows loads what it uses and lists the moves."""

from __future__ import annotations

import json

from pbem.testing import fresh_run

#: the modules a decision that moves nothing has no use for
LAZY = ("engines.hexkit.graph", "engines.hexkit.los", "engines.hexkit.movement",
        "engines.hexkit.odds", "engines.hexkit.overlay", "engines.white_death.artillery",
        "engines.white_death.listing", "engines.white_death.movement",
        "engines.white_death.reinforcements")

_SETTLE = """
from pbem.testing import settle
"""

_NEW = _SETTLE + """
import json
from engines.white_death import ENGINE
state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
settle(state)
print(json.dumps(state.snapshot()))
"""

_TURN = _SETTLE + """
import json, sys
from engines.white_death import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
side = state.current_player()
legal = state.legal_actions()
state.status_line(side)
state.counters(side)
# the record classes the engine made (a NamedTuple class costs 2.5 M instructions)
made = sorted(c.__qualname__ for c in tuple.__subclasses__()
              if c.__module__.startswith("engines.white_death"))
print(json.dumps([state.phase, [a.notation() for a in legal],
                  sorted(m for m in {lazy!r} if m in sys.modules), made]))
state.apply(state.parse_action("impulse 3"))
settle(state)
moves = [a.notation() for a in state.legal_actions()]
print(json.dumps([state.phase, moves, sorted(m for m in {lazy!r} if m in sys.modules)]))
"""


def _run(code: str, stdin: str = "") -> list[str]:
    return fresh_run(code, stdin)


def test_a_decision_that_moves_nothing_loads_no_movement_module() -> None:
    snapshot = _run(_NEW)[-1]
    first, then = (json.loads(line) for line in _run(_TURN.format(lazy=LAZY), snapshot))
    phase, legal, loaded, made = first
    assert phase == "decision" and "impulse 3" in legal
    assert loaded == []
    assert made == []  # the movement listing's record class is made with the listing
    # the movement phase after it lists moves (Rule 6): its rules load, with the kit's
    # costs; no line of sight is traced, no barrage fired, no odds worked out (the kit's
    # movement costs load no odds module, issue 35)
    phase, moves, loaded = then
    assert phase == "movement"
    assert any(m.startswith("move ") for m in moves)
    assert loaded == [m for m in LAZY if m not in ("engines.hexkit.los",
                                                   "engines.hexkit.odds",
                                                   "engines.white_death.artillery")]


#: what a fire decision has no use for: LAZY, the turn's start and end, the steps
#: outside an impulse's combat (their classes: about 2 M instructions to make), and the
#: board's view (its status line and counters are printed without it: 0.8 M)
FIRE_LAZY = (*LAZY, "engines.white_death.turns", "engines.white_death.phases",
             "engines.white_death.view")

_FIRE_NEW = """
import json
from engines.white_death import ENGINE
from engines.white_death.decisions import Fire
from pbem.testing import Chooser, decisions
state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
for at in decisions(state, Chooser("imports/fire"), 3000):
    if isinstance(at.step(), Fire) and any(
            a.notation().startswith("fire ") for a in at.legal_actions()):
        break
print(json.dumps(state.snapshot()))
"""

_FIRE = """
import json, sys
from engines.white_death import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
side = state.current_player()
legal = [a.notation() for a in state.legal_actions()]
state.status_line(side)
state.counters(side)
from pbem.steps import Step
def made(cls):
    for sub in cls.__subclasses__():
        if sub.__module__.startswith("engines.white_death"):
            yield sub.__name__
        yield from made(sub)
print(json.dumps([state.phase, legal, sorted(m for m in {lazy!r} if m in sys.modules),
                  sorted(set(made(Step)))]))
"""


def test_a_fire_decision_loads_no_movement_module_nor_the_turns_rules() -> None:
    # the purkayev fire decision of issue 35's measured turn commands: Rules 9-11.A's
    # fire reads neither the movement costs, the odds labels nor the turn's start and end
    snapshot = _run(_FIRE_NEW)[-1]
    phase, legal, loaded, steps = json.loads(
        _run(_FIRE.format(lazy=FIRE_LAZY), snapshot)[-1])
    assert phase in ("defense", "assault")
    assert any(a.startswith("fire ") for a in legal)
    assert loaded == []
    # the step classes of the turn, the impulse and its combat, none of the movement's,
    # the barrages' or the turn's start (sequence.ELSEWHERE)
    assert {"Game", "Turn", "Impulse", "FirePhase", "Crt", "DefensiveFire",
            "AssaultFire"} <= set(steps)
    assert not {"Movement", "ImpulseDecision", "Weather", "Supply", "BarrageChoice",
                "BarrageRoll", "Setup", "VLSupply", "StartImpulse"} & set(steps)
