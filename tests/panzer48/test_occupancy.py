"""48th Panzer Korps: who stands where (on_map, at, owner_at) read from the units
themselves, as the kit's board facts place them: the same answers along seeded games, and
a fire that asks only these builds no board facts (2 M instructions of an 'act', issue 35)."""

from __future__ import annotations

from engines.panzer48 import ENGINE
from engines.panzer48.data import SIDES
from engines.panzer48.state import P48State
from pbem.testing import Chooser, decisions
from tests.panzer48.test_step_table import attack_fire


def test_who_stands_where_is_what_the_board_facts_say() -> None:
    asked = 0
    for scenario, seed in (("chir", 11), ("first-day", 12)):
        state = ENGINE.new_state(scenario)
        for s in decisions(state, Chooser(f"occupancy/{seed}"), 300):
            assert isinstance(s, P48State)
            facts = s.facts()
            for side in (None, *SIDES):
                assert s.on_map(side) == [p.unit for p in facts.units(side)]
            hexes = sorted({x.hex for x in s.pos.units.values()} | {"", "0101", "9999"})
            for h in hexes:
                for side in (None, *SIDES):
                    assert s.at(h, side) == list(facts.at(h, side)), (h, side)
                here = facts.at(h)
                assert s.owner_at(h) == (s.d.units[here[0]].side if here else None)
                asked += 1
    assert asked > 5000


def test_a_fire_and_its_counters_build_no_board_facts() -> None:
    """The attacker's fire at Adam (7.2), listed with its artillery (7.6), rolled, the
    attack ended and the next prepared attack listed (3.1), and the counters its events
    are printed with: no ZOC or stack is asked, so no board facts are made."""
    s = attack_fire(prepared=True)
    again = ENGINE.restore(s.snapshot())
    assert isinstance(again, P48State)
    again.apply("fire 14MR Adam")
    assert [a.notation() for a in again.legal_actions()] == ["add 44MR", "roll"]
    again.apply("roll")
    again.apply_outcome((1,))
    assert again.decision() is not None  # the attack is over: the next is chosen (3.1)
    again.counters("soviet")
    assert again._facts is None
