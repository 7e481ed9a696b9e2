"""Issue 13: the sequence of play (Rule 5) on the step runtime: positions through the
setup API, the stack in every save, and saves of the 0.4, 0.6 and 0.7 shapes refused."""

from __future__ import annotations

import json
import re

import pytest

from engines.white_death import WhiteDeath
from engines.white_death.position import MP_TICKS
from engines.white_death.sequence import STEPS, Impulse, Turn
from engines.white_death.state import WDState
from pbem.errors import FormatError, MismatchError, UsageError
from pbem.registry import get
from pbem.setup import describe, setup
from pbem.testing import fresh_run

from .conftest import declare_assault, survive_defensive_fire
from .positions import position, velikiye_luki_cut_off


def test_the_sequence_reads_as_the_book_prints_it() -> None:
    assert [e.step for e in Turn.entries] == [
        "turn-begins", "weather", "release", "supply", "vl-supply", "impulses"]
    assert [e.rule for e in Impulse.entries] == [
        "Rule 17", "Rule 5", "Rule 6", "Rule 11.B", "Rule 11.B.2.B", "Rule 5", "Rule 5"]
    # every entry is a step of the table
    assert {e.step for e in (*Turn.entries, *Impulse.entries)} <= set(STEPS)


def test_the_step_table_keeps_its_order_and_makes_the_phases_steps_when_asked() -> None:
    # the decisions in the order a refusal asks them in (WDChoice.not_now), as when the
    # table was made at once; a step outside the combat is made by phases.py
    from pbem.steps import Choice

    assert [n for n in STEPS if n in ("setup", "vl-supply", "impulse-decision", "movement",
                                      "barrage", "defensive-fire", "assault-fire",
                                      "advance")] == [
        "setup", "vl-supply", "impulse-decision", "movement", "barrage", "defensive-fire",
        "assault-fire", "advance"]
    assert len(STEPS) == len(set(STEPS)) == 35
    assert type(STEPS["movement"]).__module__ == "engines.white_death.phases"
    assert type(STEPS["assault-fire"]).__module__ == "engines.white_death.decisions"
    assert all(STEPS[n].name == n for n in STEPS)
    assert sum(isinstance(STEPS[n], Choice) for n in STEPS) == 8


def test_a_position_in_the_middle_of_a_fire_round_trips_through_setup() -> None:
    engine = get("white-death")
    s = engine.new_state("final-relief", engine.resolve_options({}))
    s.apply_outcome((2,))
    while s.is_chance():
        s.apply_outcome((3,))
    s.apply("impulse 3")
    assert isinstance(s, WDState) and s.phase == "movement"
    again = setup(engine, "final-relief", describe(s))
    assert again.digest() == s.digest()
    assert again.legal_actions() == s.legal_actions()


def test_setup_at_a_step(engine: WhiteDeath) -> None:
    """Rule 15.D.2's decision set up where it applies: the city cut off, with a point."""
    s = position(engine, 'step = "vl-supply"\nsupply = {soviet = 1, german = 1, vl = 2}\n'
                 + velikiye_luki_cut_off(engine))
    d = s.decision()
    assert d is not None and d.side == "german" and d.kind == "vl-supply"
    s.apply("keep vl supply")
    d = s.decision()
    assert d is not None and d.side == "soviet" and d.kind == "impulse-mps"


def test_setup_refuses_a_step_the_position_does_not_reach(engine: WhiteDeath) -> None:
    """Issue 31: a step the sequence of play would skip, or with nothing to work on, is
    refused, naming what does not fit, instead of a position the game never has."""
    with pytest.raises(UsageError, match=r"step 'vl-supply' does not fit the position: the "
                       r"sequence of play \(turn\) runs 'vl-supply' under Rule 15\.D\.2 only"):
        setup(engine, "final-relief", 'step = "vl-supply"\nsupply = {vl = 2}')
    with pytest.raises(UsageError, match=r"step 'assault-fire' does not fit the position: "
                       r"field 'combat': the fire steps allocate fire at the hex"):
        setup(engine, "final-relief", 'step = "assault-fire"')
    with pytest.raises(UsageError, match=r"field 'turn' = 9: the scenario is played on turns "
                       r"12-13"):
        setup(engine, "final-relief", 'turn = 9\nstep = "movement"')
    with pytest.raises(UsageError, match=r"field 'advance': no hex is open to an advance"):
        setup(engine, "final-relief", 'step = "advance"')


def test_the_rolls_of_a_fire_are_frames_of_the_save(engine: WhiteDeath) -> None:
    s = position(engine, """
        [units]
        "1188/357" = "1610"
        "Sich/Iso" = {hex = "1510", strength = 1}
    """)
    declare_assault(s, "1510", "1188/357")
    assert s.phase == "defense"
    survive_defensive_fire(s)
    assert s.phase == "assault"
    s.apply("done firing")
    assert s.is_chance() and s.phase == "assault"
    body = s.snapshot()["body"]
    assert set(body) == {"position", "stack"}
    assert [f[0] for f in body["stack"]][:4] == ["game", "turn", "impulses", "impulse"]
    # the assault plans are resolved by the RESOLVE step, one planned fire at a time
    assert [f[0] for f in body["stack"]][-4:] == [
        "resolve", "assault-done", "fright", "assault-crt"]
    restored = engine.restore(s.snapshot())
    assert restored.digest() == s.digest()
    assert restored.chance_request() == s.chance_request()


@pytest.mark.parametrize("version", ["0.4", "0.6", "0.7"])
def test_a_save_of_the_old_shape_is_refused_naming_the_version(version: str) -> None:
    """0.4 kept the phase strings and queues; 0.6 the hand-written position (0.7 derives it
    from the typed position of engines/white_death/position.py); 0.7 a unit's MPs spent as
    a Fraction (0.8 counts them in ticks, MP_TICKS)."""
    engine = get("white-death")
    s = engine.new_state("final-relief", engine.resolve_options({}))
    old = s.snapshot()
    old["rules_version"] = version
    with pytest.raises(MismatchError, match=rf"rules_version {re.escape(version)}"):
        engine.restore(old)


def test_a_position_of_the_0_6_shape_is_refused_naming_the_field() -> None:
    """Were a 0.6 save's version changed by hand, its position would still be refused:
    0.6 listed the units and gave a bunker as a [hex, strength] pair."""
    engine = get("white-death")
    s = engine.new_state("purkayev", engine.resolve_options({}))
    for field, old_form in (("units", lambda p: list(p["units"].values())),
                            ("bunkers", lambda p: [[b["hex"], b["strength"]]
                                                   for b in p["bunkers"]])):
        snap = s.snapshot()
        position = snap["body"]["position"]
        assert position[field]  # Purkayev starts with units and bunkers
        position[field] = old_form(position)
        with pytest.raises(FormatError, match=rf"position\.{field}"):
            engine.restore(snap)


def test_a_position_of_the_0_7_shape_is_refused_naming_the_field() -> None:
    """Were a 0.7 save's version changed by hand, a unit's MPs spent as a Fraction's
    [numerator, denominator] would still be refused: 0.8 holds an int of ticks."""
    engine = get("white-death")
    s = engine.new_state("purkayev", engine.resolve_options({}))
    snap = s.snapshot()
    units = snap["body"]["position"]["units"]
    uid = sorted(units)[0]
    assert units[uid]["spent"] == 0  # 0 ticks (MP_TICKS a movement point)
    units[uid]["spent"] = [0, 1]  # 0.7's Fraction(0)
    with pytest.raises(FormatError, match=r"position\.units.*spent"):
        engine.restore(snap)
    units[uid]["spent"] = MP_TICKS
    restored = engine.restore(snap)
    assert isinstance(restored, WDState) and restored.pos.units[uid].spent == MP_TICKS


_WHOLE = """
import json
from engines.white_death.sequence import STEPS
from engines.white_death.state import WDState
lazy = type(WDState.steps).__name__
STEPS["movement"]  # makes phases.py's steps
whole = WDState.steps
print(json.dumps([lazy, type(whole).__name__, list(whole) == list(STEPS),
                  all(whole[n] is STEPS[n] for n in STEPS)]))
"""


def test_the_table_is_a_plain_dict_once_every_step_is_made() -> None:
    # the runtime looks a step up for every frame it runs: once phases.py has made its
    # steps, the state's table is a plain dict of them all, in the same order
    lazy, whole, same_order, same_steps = json.loads(fresh_run(_WHOLE)[-1])
    assert lazy == "LazyStepTable" and whole == "dict"
    assert same_order and same_steps
