"""48th Panzer Korps' rules modules a turn's command does not run are not imported by it
(issue 35): a hasty attack's fire (3.2, 7.2), listed with the Movement Phase's frame below
it, runs neither the reinforcements' rules (9, 9.1) nor the score's (10), and each was
most of a million instructions to import; a game that reaches them still runs them."""

from __future__ import annotations

import json

from pbem.testing import fresh_run
from tests.panzer48.test_step_table import TO_MOVEMENT, attack_fire

RULES = ("engines.panzer48.reinforcements", "engines.panzer48.victory")
#: the movement rules (4), ZOCs (5) and stacking (6): the Movement Phase's steps load with
#: the frame below a hasty attack, these with the first step that moves a unit
MOVING = ("engines.panzer48.movement", "engines.panzer48.stacking", "engines.panzer48.zoc")

_LIST = """
import json, sys
from engines.panzer48 import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
side = state.current_player()
legal = [a.notation() for a in state.legal_actions()]
state.counters(side)
print(json.dumps([legal, sorted(m for m in {modules!r} if m in sys.modules)]))
"""


def test_a_hasty_attack_s_listing_imports_no_reinforcement_or_score_rules() -> None:
    s = attack_fire(prepared=False)
    assert [f.step for f in s.stack] == ["game", "turn", "player-turn", "movement",
                                         "attack-fire"]
    legal, loaded = json.loads("\n".join(fresh_run(_LIST.format(modules=RULES + MOVING),
                                                   json.dumps(s.snapshot()))))
    assert legal == ["fire 14MR Adam", "fire 44MR Adam", "end-fire"]
    assert loaded == []


def test_a_game_that_reaches_the_movement_phase_runs_its_reinforcement_rules() -> None:
    """Imported where they run: the first turn's Movement Phase brings 9.1's arrivals
    and 10's control, as before, and its listing of moves the movement rules."""
    probe = (TO_MOVEMENT +
             "s.status_line(s.current_player())\n"
             "assert any(a.notation().startswith('move') for a in s.legal_actions())\n"
             f"print(sorted(m for m in {RULES + MOVING!r} if m in sys.modules))\n")
    assert "\n".join(fresh_run(probe)) == repr(sorted(RULES + MOVING))
