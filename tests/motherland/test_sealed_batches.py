"""Sealed dice batching in For the Motherland! (issue 21): the chit draws the rules let
wait (17.2.1 conversions, 16.5 Generals) travel with the Soviet player's file."""

from __future__ import annotations

from engines.motherland import MotherlandEngine
from pbem.steps import Frame

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
    assert st.u("1Gd").chit == first.contents[0]
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


def test_a_generals_draw_waits_while_the_soviet_player_declares_generals(
        rules_engine: MotherlandEngine) -> None:
    """16.5: a General is declared when drawing; its two-chit draw waits while the Soviet
    player declares the others, and comes before the other draws (11.1.2)."""
    st = position(rules_engine, 2, "admin", "", {"5A": "1214", "6A": "1313", "9K": "1314"})
    st.sealed_dice = True
    st.pos.generals = {"Konev": "ready", "Zhukov": "ready"}
    st.stack.append(Frame("admin_chits"))
    st._settle()
    st.apply("general Konev for 5A")
    assert st.current_player() == "soviet" and len(st.parked) == 1
    assert [a.notation() for a in st.legal_actions()] == ["general Zhukov for 6A",
                                                          "end generals"]
    st.apply("end generals")
    request = st.chance_request()
    assert "5A" in request.purpose and request.count == 2
    # a cup that the waiting draw would empty: the General's draw comes at once
    st = position(rules_engine, 2, "admin", "", {"5A": "1214", "6A": "1313", "9K": "1314"})
    st.sealed_dice = True
    st.pos.generals = {"Konev": "ready", "Zhukov": "ready"}
    st.pos.cups["A"] = st.pos.cups["A"][:2]
    st.stack.append(Frame("admin_chits"))
    st._settle()
    st.apply("general Konev for 5A")
    assert st.is_chance() and not st.parked and st.chance_request().count == 2


def test_a_combat_phase_with_nothing_to_attack_has_one_option(
        rules_engine: MotherlandEngine) -> None:
    """Sealed rules 2 (issue 32) take a one-option decision a roll leads to; the combat
    phase (8.0) lists every attackable hex, so with none listed ending it is the only
    option, and with an attack possible nothing is taken."""
    apart = position(rules_engine, 3, "combat", "soviet", {"9K": "1214", "5A": "2020"})
    step, frame = apart.step(), apart.frame()
    assert step.name == "combat"
    assert [a.notation() for a in apart.legal_actions()] == ["end combat"]
    assert step.only_option(apart, frame.args) == apart.legal_actions()[0]
    near = position(rules_engine, 3, "combat", "soviet", {"9K": "1214", "5A": "1315"})
    assert len(near.legal_actions()) > 1
    assert near.step().only_option(near, near.frame().args) is None


def test_a_waiting_draw_is_told_with_the_conversion_that_asked_for_it(
        rules_engine: MotherlandEngine) -> None:
    """17.2.1 with sealed dice: the conversion's own words and the runtime's word that its
    draw waits for the Axis player's file are one log, in the order they happened."""
    units = {"5A": "2020", "6A": "2220"}
    fields = {"1Gd": {"box": "conv"}, "2Gd": {"box": "conv"}}
    st = position(rules_engine, 7, "admin", "", units, fields=fields)
    st.sealed_dice = True
    texts = [e.text for e in st.apply("convert 5A to 1Gd")]
    assert texts[0] == "5A becomes 1Gd at 2020 (17.2)"
    assert any("roll waits for the axis player's next file" in t for t in texts[1:]), texts
