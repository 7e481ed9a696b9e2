"""Backhand Blow's step table makes the Combat Phase's steps (16.0) with the first of them
asked for (issue 35): a turn that fights no battle imports neither them nor the combat
and retreat rules; the table is the one it was, name for name and in the same order."""

from __future__ import annotations

import json

from engines.backhand import ENGINE
from engines.backhand.sequence import STEPS
from engines.backhand.state import BBState
from pbem.testing import check_step_table, fresh_run, settle

#: the table's names in the order it had when every module was imported to build it
ORDER = ["game", "turn", "new-turn", "weather", "rochade", "supply", "attrition", "vr-roll",
         "vr-draw", "reinforce", "repl-roll", "replace", "refit-pay", "refit", "track",
         "end-turn", "segment", "seg-run", "seg-open", "box-shift", "seg-c3i", "phase",
         "seg-close", "fronts", "admin-in", "admin-place", "admin-out", "order", "c3i",
         "activity", "split", "move", "move-to", "uprising", "combat", "attackers", "chit",
         "crt", "event", "hits", "advance", "ersatz"]

#: the modules a turn without a battle leaves unloaded
COMBAT = ("engines.backhand.steps.fight", "engines.backhand.combat",
          "engines.backhand.retreat")


def test_the_table_names_every_step_in_its_order() -> None:
    # and the standing orders and decision kinds come out of every step, as before
    check_step_table(ENGINE, STEPS, ORDER)


_TURN = """
import sys
from engines.backhand import ENGINE
s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({{}}))
from pbem.testing import settle

# the phase order and C3I points (4.2 II.C, D), then a unit's move (15.0): no battle
settle(s)
while s.decision().kind != "move":
    s.apply("order move-first" if s.decision().kind == "phase-order"
            else s.legal_actions()[-1])
    settle(s)
s.apply(s.legal_actions()[0])
s.apply(s.legal_actions()[0])
settle(s)
s.status_line(s.current_player())
print(s.decision().kind, sorted(m for m in {combat!r} if m in sys.modules))
s.steps["attackers"]
print(sorted(m for m in {combat!r} if m in sys.modules))
"""


def test_a_turn_without_a_battle_imports_no_step_of_the_combat_phase() -> None:
    out_lines = fresh_run(_TURN.format(combat=COMBAT))
    first, then = out_lines
    assert first.endswith(" []"), first
    assert then == str(sorted(COMBAT))


_END_COMBAT = """
import json, sys
from engines.backhand import ENGINE

from engines.backhand.notation import w

s = ENGINE.restore(json.loads(sys.stdin.read()))
# what replaying a received file's 'end' asks of the phase: its check, then its apply
# (the listing is a player's question, not the replay's)
s.apply(w("end"))
print(s.pos.segment, sorted(m for m in {combat!r} if m in sys.modules))
s.steps["attackers"]
print(sorted(m for m in {combat!r} if m in sys.modules))
"""


def test_a_combat_phase_ended_without_an_attack_imports_no_step_of_an_attack() -> None:
    # 16.0: a file whose Combat Phase declares no attack (most of a General segment's:
    # move first, then 'end') loads only the declaration's step, not the attack's steps
    # nor the combat and retreat rules (issue 35: 3.6 M instructions of a receive)
    s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    settle(s)
    while s.decision().kind != "combat":
        s.apply(s.decision().default or s.legal_actions()[-1])
        settle(s)
    assert s.decision().default.notation() == "end"
    first, then = fresh_run(_END_COMBAT.format(combat=COMBAT), json.dumps(s.snapshot()))
    segment, loaded = first.rsplit(" ", 1)
    assert segment != s.pos.segment and loaded == "[]", first  # the phase ended
    assert then == str(sorted(COMBAT))


#: the modules a listing in the Administrative Segment (4.2 I) leaves unloaded: a player
#: segment's opening, its Movement Phase and their rules, and control (3.1), the Front
#: Markers (14.1), supply (7.0) and victory (18.1), which listing the turn's
#: reinforcements (11.1) does not ask
SEGMENT = ("engines.backhand.steps.opening", "engines.backhand.steps.segment",
           "engines.backhand.steps.move",
           "engines.backhand.admin", "engines.backhand.movement",
           "engines.backhand.uprisings", "engines.backhand.control",
           "engines.backhand.fronts", "engines.backhand.supply", "engines.backhand.victory")

_ADMIN = """
import json, sys
from engines.backhand import ENGINE
from pbem.testing import settle

s = ENGINE.restore(json.loads(sys.stdin.read()))
# what 'pbem legal' asks: the decision, its listing, the units' names, the status line
side = s.current_player()
print(s.decision().kind, len(s.legal_actions()), len(s.counters(side)) > 0,
      bool(s.status_line(side)), sorted(m for m in {segment!r} if m in sys.modules))
s.steps["move-to"]
print(sorted(m for m in {segment!r} if m in sys.modules))
"""


def test_a_command_in_the_administrative_segment_imports_no_step_of_a_player_segment() -> None:
    # turn 2's reinforcements (11.1), every decision of turn 1 taken by its default
    s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    settle(s)
    while not (s.pos.turn == 2 and s.decision().kind == "reinforce"):
        s.apply(s.decision().default or s.legal_actions()[-1])
        settle(s)
    first, then = fresh_run(_ADMIN.format(segment=SEGMENT), json.dumps(s.snapshot()))
    assert first == "reinforce 2 True True []", first
    assert "engines.backhand.steps.move" in then and "engines.backhand.movement" in then


_EARLY_TURN = """
import json, sys
from engines.backhand import ENGINE
from pbem.testing import settle

s = ENGINE.restore(json.loads(sys.stdin.read()))
# turn 2's reinforcements taken, through the replacements to the track (4.2 I.E-J)
while s.pos.turn == 2 and s.decision().kind in ("reinforce", "replace"):
    s.apply(s.decision().default)
    settle(s)
print(s.pos.turn, "engines.backhand.steps.late" in sys.modules)
print(s.steps["rochade"].rule, s.steps["refit"].rule, "engines.backhand.steps.late" in sys.modules)
"""


def test_a_turn_before_the_seventh_loads_no_step_of_the_rochade_or_the_refits() -> None:
    # 8.2 and 13.1 are played from game turn 7: the Administrative Segment of an earlier
    # turn runs past their entries without making their steps (issue 35: three step
    # classes of every command of turns 1-6, all of the high-water-mark scenario's)
    s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    settle(s)
    while not (s.pos.turn == 2 and s.decision().kind == "reinforce"):
        s.apply(s.decision().default or s.legal_actions()[-1])
        settle(s)
    first, then = fresh_run(_EARLY_TURN, json.dumps(s.snapshot()))
    assert first == "2 False", first
    assert then == "8.2 13.1 True", then


_ARRIVE = """
import json, sys
from engines.backhand import ENGINE

s = ENGINE.restore(json.loads(sys.stdin.read()))
events = s.apply(s.decision().default)
mods = ("engines.backhand.fronts", "engines.backhand.supply")
print(sum(e.text.endswith(" enters at " + e.hexes[0]) for e in events if e.hexes),
      any("Front Marker is displaced" in e.text for e in events),
      [m in sys.modules for m in mods])
"""


def test_reinforcements_entering_while_the_markers_trace_load_no_supply_rules() -> None:
    # 11.1's units put on the map ask 14.1 of both Front Markers: a marker that still
    # traces to a source is answered by its trace, and supply's net (7.0) and its module
    # load only for one that must be displaced (issue 35: 0.8 M instructions of an act)
    s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    settle(s)
    while not (s.pos.turn == 2 and s.decision().kind == "reinforce"):
        s.apply(s.decision().default or s.legal_actions()[-1])
        settle(s)
    assert s.decision().default.notation() == "arrive map"
    (line,) = fresh_run(_ARRIVE, json.dumps(s.snapshot()))
    entered, displaced, loaded = line.split(" ", 2)
    assert int(entered) > 0 and displaced == "False", line
    assert loaded == "[True, False]", line


def _at_a_german_move() -> BBState:
    """High Water Mark played on (defaults, or a German move's first listed action) to
    a German movement choice whose first listed action is a step ("to HEX")."""
    s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    settle(s)
    while not (s.decision().kind == "move" and s.decision().side == "german"
               and s.legal_actions()[0].notation().startswith("to ")):
        s.apply(s.decision().default if s.decision().kind != "move" or
                s.decision().side != "german" else s.legal_actions()[0])
        settle(s)
    return s


_MOVE = """
import json, sys
from engines.backhand import ENGINE

s = ENGINE.restore(json.loads(sys.stdin.read()))
events = s.apply(s.legal_actions()[0])
print(sum(e.kind == "move" for e in events), "engines.backhand.uprisings" in sys.modules)
"""


def test_a_german_move_loads_no_uprising_rules() -> None:
    # 17.0's uprisings follow a Soviet move or advance only: a German file's moves (a
    # receive replays a dozen) load their rules nowhere (issue 35)
    s = _at_a_german_move()
    (line,) = fresh_run(_MOVE, json.dumps(s.snapshot()))
    assert line == "1 False", line


_PAST_OPENING = """
import json, sys
from engines.backhand import ENGINE

s = ENGINE.restore(json.loads(sys.stdin.read()))
events = s.apply(s.legal_actions()[0])
print(sum(e.kind == "move" for e in events), s.pos.segment,
      sorted(m for m in sys.modules if m.startswith("engines.backhand.steps.")))
"""


def test_a_move_past_the_segments_opening_loads_no_opening_step() -> None:
    # a received file of a segment's moves resumes it past the Front Markers (14.2) and
    # administrative movement (15.1): their steps' module stays unloaded (issue 35)
    s = _at_a_german_move()
    (line,) = fresh_run(_PAST_OPENING, json.dumps(s.snapshot()))
    moved, rest = line.split(" ", 1)
    assert moved == "1" and rest.startswith("german "), line
    assert "engines.backhand.steps.move" in rest and "steps.opening" not in rest, line
