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


#: the rules of retreats and advances (8.3, 8.4), with those of MOVING
RETREATING = ("engines.panzer48.retreat", *MOVING)

_END_FIRE = """
import json, sys
from engines.panzer48 import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
state.apply("end-fire")
print(json.dumps([[f.step for f in state.stack], state.status_line(state.current_player()),
                  sorted(m for m in {modules!r} if m in sys.modules)]))
"""


def test_an_attack_that_ends_with_no_advance_imports_no_retreat_or_movement_rule() -> None:
    """The attacker's fires over (7.1.C) with the defender still in his hex: the advance
    after combat (8.4) starts and has no unit to advance, and the Prepared Combat Phase
    goes on (3.1); its steps load, but not the rules of retreats and advances, movement,
    stacking or ZOCs, and the status line's score (10) traces no ZOC."""
    s = attack_fire(prepared=True)
    steps, status, loaded = json.loads("\n".join(fresh_run(
        _END_FIRE.format(modules=(*RETREATING, "engines.panzer48.steps.retreat")),
        json.dumps(s.snapshot()))))
    assert steps == ["game", "turn", "player-turn", "prepared"]
    assert "VP soviet" in status
    assert loaded == ["engines.panzer48.steps.retreat"]


def test_an_advance_still_runs_its_rules() -> None:
    """The same attack with the defender gone: each attacker that fired may advance
    (8.4), and the advance's listing brings its rules."""
    s = attack_fire(prepared=True)
    s.pos.units["Adam"].where, s.pos.units["Adam"].hex = "dead", ""
    c = s.fight()
    c.fired, c.largest = ["44MR", "14MR"], 1
    probe = _END_FIRE.replace('state.apply("end-fire")\n', 'state.apply("end-fire")\n'
                              'legal = [a.notation() for a in state.legal_actions()]\n'
                              'assert any(t.startswith("advance ") for t in legal), legal\n')
    steps, _, loaded = json.loads("\n".join(fresh_run(
        probe.format(modules=RETREATING), json.dumps(s.snapshot()))))
    assert steps[-1] == "advance"
    assert "engines.panzer48.retreat" in loaded


_TO_MOVEMENT_PHASE = """
import json, sys
from engines.panzer48 import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
fire = state.conceal(state.parse_action("fire 14MR Adam"), lambda f: bytes(32))
state.apply(fire)
state.apply("roll")
state.apply_outcome((1,))
state.apply("end-combat")
print(json.dumps([state.pos.phase, state.decision_head(),
                  sorted(m for m in {modules!r} if m in sys.modules)]))
"""


def test_a_fire_and_the_movement_phase_s_start_import_no_reinforcement_rules() -> None:
    """Our fire passes through conceal (9.1's commitments) on its way into a file, and
    the end of the Prepared Combat Phase starts the Movement Phase, where 9.1's due
    reinforcements become able to enter: neither imports the reinforcements' other rules
    (their entry, plan and set-up), stacking or ZOCs before a move is listed."""
    s = attack_fire(prepared=True)
    phase, head, loaded = json.loads("\n".join(fresh_run(
        _TO_MOVEMENT_PHASE.format(modules=(*RULES[:1], *MOVING)), json.dumps(s.snapshot()))))
    assert phase == "movement"
    assert head[0] == "soviet" and "moves" in head[1]
    assert loaded == []
