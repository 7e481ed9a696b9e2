"""48th Panzer Korps' step table loads a phase's module of steps with the first step of it
asked for (issue 35): a turn in the Prepared Combat Phase imports neither the set-up's,
the movement's nor the retreat's steps; the table is the one it was, name for name."""

from __future__ import annotations

import json

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.sequence import ELSEWHERE, STEPS
from engines.panzer48.state import P48State
from pbem.setup import setup
from pbem.steps import LazyStepTable
from pbem.testing import check_step_table, fresh_run

#: the table's names in the order it had when every module was imported to build it
ORDER = ["game", "turn", "player-turn", "prepared-phase", "movement-phase",
         "player-turn-end", "turn-end", "setup", "plan", "prepared", "declare", "fire",
         "attack-fire", "fire-roll", "morale-option", "morale-roll", "retreat-start",
         "retreat", "overstacked", "advance", "advance-start", "movement", "moving",
         "zoc-exit"]

#: the modules a fire's turn leaves unloaded
OTHER_PHASES = ("engines.panzer48.steps.setup", "engines.panzer48.steps.movement",
                "engines.panzer48.steps.retreat", "engines.panzer48.retreat",
                "engines.panzer48.movement")


def test_the_table_names_every_step_in_its_order() -> None:
    # and the standing orders and decision kinds come out of every step, as before
    check_step_table(ENGINE, STEPS, ORDER)


def test_a_module_that_makes_other_steps_than_the_table_names_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    table = LazyStepTable({}, ELSEWHERE, "engines.panzer48.steps")
    monkeypatch.setitem(ELSEWHERE, "setup", "combat")
    with pytest.raises(ValueError, match=r"engines\.panzer48\.steps\.combat makes the steps"):
        table["setup"]


_TURN = """
import json, sys
from engines.panzer48 import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
side = state.current_player()
state.legal_actions()
state.status_line(side)
state.counters(side)
state.apply("fire 44MR Adam")
state.apply("roll")
state.apply_outcome((1,))
assert state.decision().kind == "morale-option", state.decision()  # 8.1, a 1-0
print(json.dumps(sorted(m for m in {modules!r} if m in sys.modules)))
"""


#: a fresh interpreter's Chir game played by its defaults (every roll a 1) to its first
#: Movement Phase (3.2)
TO_MOVEMENT = ("import sys\nfrom engines.panzer48 import ENGINE\n"
               "s = ENGINE.new_state('chir', ENGINE.resolve_options({}))\n"
               "while s.pos.phase != 'movement':\n"
               "    if s.is_chance():\n"
               "        s.apply_outcome((1,))\n"
               "    else:\n"
               "        s.apply(s.decision().default)\n")


def attack_fire(*, prepared: bool) -> P48State:
    """The Soviet 44MR and 14MR's attack on Adam in 2036 at its fire (7.2): a prepared
    attack (3.1) in the Prepared Combat Phase, or a hasty one (3.2) in the Movement Phase."""
    phase = "turns" if prepared else "movement"
    s = setup(ENGINE, "chir", f'only = true\nphase = "{phase}"\nphasing = "soviet"\n'
              'step = "attack-fire"\n'
              f'combat = {{ hex = "2036", attacker = "soviet", prepared = {str(prepared).lower()}, '
              'stage = "attack", attackers = ["44MR", "14MR"], defenders = ["Adam"] }\n'
              'began_adjacent = ["44MR", "14MR"]\n'
              'at = { "Adam" = "2036", "44MR" = "2035", "14MR" = "2035" }')
    assert isinstance(s, P48State)
    return s


def test_a_prepared_attack_s_fire_loads_no_step_of_another_phase() -> None:
    """A prepared attack (3.1) restored at its fire (7.2), listed, fired and rolled, up
    to the defender's morale option (8.1): the combat's steps only."""
    s = attack_fire(prepared=True)
    assert [f.step for f in s.stack] == ["game", "turn", "player-turn", "prepared",
                                         "attack-fire"]
    out_lines = fresh_run(_TURN.format(modules=OTHER_PHASES), json.dumps(s.snapshot()))
    assert json.loads("\n".join(out_lines)) == []
    # and a move loads the movement's steps and rules where it is made
    probe = (TO_MOVEMENT +
             f"print(sorted(m for m in {OTHER_PHASES!r} if m in sys.modules))\n")
    done_lines = fresh_run(probe)
    loaded = " ".join(done_lines)
    assert "'engines.panzer48.steps.movement'" in loaded
    assert "'engines.panzer48.steps.setup'" in loaded
