"""The rule tests' position helper (positions.py) builds what it says, through setup."""

from __future__ import annotations

import pytest

from engines.white_death import WhiteDeath
from pbem.registry import get
from pbem.setup import describe, setup

from .conftest import fresh, put
from .positions import position


def test_a_described_position_is_the_hand_built_one(engine: WhiteDeath) -> None:
    """The helper's defaults are the old hand-built start (a cleared board at the first
    Soviet impulse decision, 5 supply points each), units placed in the order named."""
    by_hand = fresh(engine)
    put(by_hand, "918A/357", "1504")
    put(by_hand, "Sich/Iso", "1510", strength=1)
    built = position(engine, """
        [units]
        "918A/357" = "1504"
        "Sich/Iso" = {hex = "1510", strength = 1}
    """)
    assert built.setup_position()["units"] == by_hand.setup_position()["units"]
    assert built.stack_data() == by_hand.stack_data()
    assert built.legal_actions() == by_hand.legal_actions()
    assert built.units_at("1510") == ["Sich/Iso"] and built.pos.units["Sich/Iso"].strength == 1
    assert built.side_units("soviet") == ["918A/357"]


def test_a_position_round_trips_through_describe() -> None:
    engine = get("white-death")
    assert isinstance(engine, WhiteDeath)
    s = position(engine, """
        weather = "thaw"
        phasing = "german"
        bridges = ["1209"]
        [units]
        "I/504" = {hex = "1510", deployed = true}
    """, "final-relief")
    assert s.pos.weather == "thaw" and s.pos.phasing == "german" and s.pos.bridges == {"1209"}
    assert setup(engine, "final-relief", describe(s)).digest() == s.digest()


def test_a_unit_field_the_data_lacks_is_refused(engine: WhiteDeath) -> None:
    with pytest.raises(KeyError, match="no field"):
        position(engine, '[units]\n"I/504" = {hex = "1510", morale = 3}')
    with pytest.raises(KeyError, match="no unit"):
        position(engine, '[units]\n"nobody" = "1510"')
