"""Issue 35: a restored position lists its retreat (8.6.1) without placing every unit for
the kit's board facts: whether units stand in a hex (8.6.4, 8.6.2) and whether a hex is
in an enemy ZOC (4.1) are read off the units themselves, as are the stacks and the units
on the map a combat's rules ask of it (8.0-8.7), and say exactly what the facts say, along
seeded games."""

from __future__ import annotations

from engines.motherland import MotherlandEngine
from engines.motherland.const import AXIS, SOVIET
from engines.motherland.state import MotherlandState
from pbem.testing import Chooser, decisions


def _restored(engine: MotherlandEngine, s: MotherlandState) -> MotherlandState:
    got = engine.restore(s.snapshot())
    assert isinstance(got, MotherlandState)
    return got


def test_8_6_a_restored_retreat_is_listed_without_the_board_facts(
        engine: MotherlandEngine) -> None:
    seen = 0
    for seed in range(1, 4):
        s = engine.new_state("4-uranus")
        assert isinstance(s, MotherlandState)
        for at in decisions(s, Chooser(f"retreat-check/{seed}"), 500):
            assert isinstance(at, MotherlandState)
            decision = at.decision()
            if decision is None or decision.kind != "retreat-choice":
                continue
            seen += 1
            fresh = _restored(engine, at)
            listed = fresh.legal_actions()
            assert "facts" not in fresh._cache and fresh._facts is None
            assert [a.notation() for a in listed] == [
                a.notation() for a in at.legal_actions()]
    assert seen >= 6


def test_4_1_units_read_off_the_units_are_the_facts(engine: MotherlandEngine) -> None:
    compared = 0
    for seed in range(1, 3):
        s = engine.new_state("4-uranus")
        for n, at in enumerate(decisions(s, Chooser(f"retreat-check/{seed}"), 300)):
            if n % 7:
                continue
            assert isinstance(at, MotherlandState)
            fresh = _restored(engine, at)
            read = {side: (fresh.occupied(side), fresh._exerting(side),
                           list(fresh.stacks(side).items()), fresh.on_map(side))
                    for side in (AXIS, SOVIET)}
            everyone = (list(fresh.stacks().items()), fresh.on_map())
            assert fresh._facts is None
            counters = fresh.data.counters
            facts = fresh.facts()
            for side in (AXIS, SOVIET):
                stacks = facts.stacks(side)
                assert read[side][0] == facts.occupied(side)
                assert read[side][1] == frozenset(
                    h for h, here in stacks.items()
                    if any(counters[u].exerts_zoc for u in here))
                assert read[side][1] and read[side][1] <= read[side][0]
                # the stacks in hex order, each in id order, and the units in id order
                assert read[side][2] == list(stacks.items())
                assert read[side][3] == [p.unit for p in facts.units(side)]
            assert everyone == (list(facts.stacks().items()),
                                [p.unit for p in facts.units()])
            compared += 1
    assert compared >= 60
