"""Sealed dice batching in For the Motherland! (issue 21): the chit draws the rules let
wait (17.2.1 conversions, 16.5 Generals) travel with the Soviet player's file."""

from __future__ import annotations

from engines.motherland import MotherlandEngine

from .conftest import position


def test_conversion_draws_wait_for_the_end_of_the_conversions(
        rules_engine: MotherlandEngine) -> None:
    """17.2.1: each conversion draws a B chit; with sealed dice the Soviet player converts
    both armies, and the draws come, in order, before the Axis player's first decision."""
    units = {"5A": "2020", "6A": "2220"}
    fields = {"1Gd": {"box": "conv"}, "2Gd": {"box": "conv"}}
    st = position(rules_engine, 7, "admin", "", units, fields=fields)
    st.sealed_dice = True
    assert "convert 5A to 1Gd" in [a.notation() for a in st.legal_actions()]
    st.apply("convert 5A to 1Gd")
    assert st.current_player() == "soviet" and len(st.parked) == 1
    assert [r.rule for r in st.waiting()] == ["17.2.1"]
    # the last conversion: nothing is left to convert, the step ends by itself, and the
    # Axis player's decisions come next: the draws first
    st.apply("convert 6A to 2Gd")
    assert st.is_chance() and not st.parked
    first = st.chance_request()
    assert first.cup == "B" and "1Gd" in first.purpose
    st.apply_outcome((first.contents[0],))
    assert st.u("1Gd")["chit"] == first.contents[0]
    second = st.chance_request()
    assert "2Gd" in second.purpose
    st.apply_outcome((second.contents[0],))
    assert not st.is_chance()


def test_open_dice_draw_each_conversion_at_once(rules_engine: MotherlandEngine) -> None:
    units = {"5A": "2020", "6A": "2220"}
    fields = {"1Gd": {"box": "conv"}, "2Gd": {"box": "conv"}}
    st = position(rules_engine, 7, "admin", "", units, fields=fields)
    st.apply("convert 5A to 1Gd")
    assert st.is_chance() and st.chance_request().rule == "17.2.1"
