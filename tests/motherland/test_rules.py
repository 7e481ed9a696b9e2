"""For the Motherland! rules, with the book's own examples where it gives them."""

from __future__ import annotations

import pytest

from engines.motherland import MotherlandEngine, rules
from engines.motherland.chits import drop_chit
from engines.motherland.combat import combat_result, decode, lose_step
from engines.motherland.movement import move_step_cost, path_cost, reach
from engines.motherland.notation import GRAMMAR, TAKE, ending, parse
from engines.motherland.state import MotherlandState
from engines.motherland.supply import in_supply, supply_net, supply_spread
from engines.motherland.victory import front_line_gap, victory_points
from pbem.engine import CHANCE, Decision
from pbem.errors import ActionSyntaxError, IllegalAction
from pbem.steps import Frame

from .conftest import instead_of_roll, position

COLS = ("1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1")


def dec(st: MotherlandState) -> Decision:
    d = st.decision()
    assert d is not None
    return d


def notations(st: MotherlandState) -> list[str]:
    return [a.notation() for a in st.legal_actions()]


def draw(st: MotherlandState, *chits: str) -> None:
    for cid in chits:
        assert st.is_chance() and st.chance_request().kind == "draw"
        st.apply_outcome((cid,))


def roll(st: MotherlandState, die: int) -> list[str]:
    assert st.is_chance() and st.chance_request().kind == "dice", st.stack[-1:]
    return [e.text for e in st.apply_outcome((die,))]


# --- 8.1, 8.2: odds, shifts, the capped die ------------------------------------------------


def test_8_1_odds_round_for_the_defender_book_example() -> None:
    assert rules.column(15, 4, COLS, 0).label == "3:1"  # 8.1 step 2
    assert rules.column(11, 12, COLS, 0).label == "1:2"


def test_8_2_column_shifts_start_on_the_end_columns_book_examples() -> None:
    assert rules.column(9, 1, COLS, -2).label == "5:1"  # 9:1, 2 left
    assert rules.column(1, 5, COLS, 2).label == "1:1"  # 1:5, 2 right
    assert rules.column(3, 1, COLS, -1).label == "2:1"


def test_8_2_1_modified_die_roll_is_capped_at_nine() -> None:
    assert rules.final_roll(6, [3, 4]) == 9  # 8.2.1
    assert rules.final_roll(2, [3]) == 5


def test_8_5_results_decode() -> None:
    assert decode("D2").def_n == 2
    assert decode("1/1").att_mandatory == 1 and decode("1/1").def_mandatory == 1
    assert decode("AE").att_elim and decode("DE").def_elim


def test_8_7_advance_allowance_book_examples() -> None:
    assert rules.advance_allowance(3, 1, False) == 2  # example 1
    assert rules.advance_allowance(1, 1, False) == 0  # example 2
    assert rules.advance_allowance(2, 1, False) == 1  # example 3
    assert rules.advance_allowance(0, 0, True) == 2  # DE


# --- the D2 example (8.5) and advance example 3 (8.7) -----------------------------------------


def d2_position(eng: MotherlandEngine) -> MotherlandState:
    """Soviet attack on a stack of two German Corps that gets a D2 (8.5 example)."""
    st = position(eng, 3, "combat", "soviet",
                  {"9K": "1214", "10K": "1214", "5A": "1315", "16A": "1215", "19A": "1115",
                   "OS1": "1216"})
    st.pos.cups["A"] = ["A8-6", "A8-6", "A8-6"]
    st.apply("attack 1214 with 16A 19A 5A")
    draw(st, "A8-6", "A8-6", "A8-6")
    texts = roll(st, 4)  # 24 to 14 = 1:1, die 4 +3 Offensive Support = 7: D2
    assert any("D2" in t for t in texts)
    assert st.current_player() == "axis"
    return st


def test_8_5_the_d2_example_offers_three_ways(rules_engine: MotherlandEngine) -> None:
    st = d2_position(rules_engine)
    d = st.decision()
    assert d is not None and d.kind == "result-choice" and d.side == "axis"
    assert notations(st) == ["take D2 as 2 step 0 retreat", "take D2 as 1 step 1 retreat",
                             "take D2 as 0 step 2 retreat"]


def test_8_5_1_d2_a_one_step_on_each_corps(rules_engine: MotherlandEngine) -> None:
    st = d2_position(rules_engine)
    st.apply("take D2 as 2 step 0 retreat")
    assert notations(st) == ["lose 10K", "lose 9K"]
    st.apply("lose 9K")  # 8.5.1: the second loss must go to 10K, applied at once
    assert st.u("9K").steps == 2 and st.u("10K").steps == 2
    assert st.u("9K").hex == "1214"
    assert st.current_player() == "soviet" and dec(st).kind == "combat"  # no advance


def test_8_6_1_d2_b_retreat_both_two_hexes_by_priority(rules_engine: MotherlandEngine) -> None:
    st = d2_position(rules_engine)
    st.apply("take D2 as 0 step 2 retreat")
    # 1314 and 1114 are in Soviet ZOC; 1213 is not: 8.6.1 priority 1 is the only choice
    assert {a.notation().split()[-1] for a in st.legal_actions()} == {"1213"}
    with pytest.raises(IllegalAction, match=r"8\.6\.1"):
        st.apply("retreat 9K 10K to 1314")
    st.apply("retreat 9K 10K to 1213")
    assert st.current_player() == "axis" and dec(st).kind == "retreat-choice"
    dest = st.legal_actions()[0].notation().split()[-1]
    st.apply(f"retreat 9K 10K to {dest}")
    assert st.u("9K").steps == 3 and st.u("9K").hex == dest
    assert dec(st).kind == "advance" and dec(st).side == "soviet"



def test_8_6_a_retreat_is_refused_under_its_rule_and_taken_in_any_order(
        rules_engine: MotherlandEngine) -> None:
    """8.6, 8.6.1: while a retreat is pending, anything else, a unit with no retreat to
    make and a hex of a lower priority are refused, each under its rule; the stack's units
    named in another order than listed make the same retreat (one check, retreat.py)."""
    st = d2_position(rules_engine)
    st.apply("take D2 as 0 step 2 retreat")
    assert notations(st) == ["retreat 10K 9K to 1213", "retreat 10K to 1213",
                             "retreat 9K to 1213"]
    refusals = {"advance 9K 1213": ("8.6", "a retreat is pending"),
                "retreat 5A to 1213": ("8.6", "no retreat left"),
                "retreat 9K 10K to 1314": ("8.6.1", "not a retreat hex of the best")}
    for text, (rule, words) in refusals.items():
        with pytest.raises(IllegalAction, match=words) as refused:
            st.apply(text)
        assert refused.value.rule == rule, text
    st.apply("retreat 9K 10K to 1213")  # not listed in this order, still the stack's move
    assert st.u("9K").hex == st.u("10K").hex == "1213"
    assert notations(st)[0].startswith("retreat 10K 9K to ")  # a second hex to go



def test_8_5_results_and_8_7_advances_are_refused_under_their_rules(
        rules_engine: MotherlandEngine) -> None:
    """8.5: a result is taken first, in one of its ways; 8.7: an advance goes into the
    vacated hex, one hex only here (a retreat of one): each refusal names its rule."""
    st = d2_position(rules_engine)
    for text, words in (("lose 9K", "the result must be taken first"),
                        ("take D2 as 3 step 0 retreat", "is not a way to take D2"),
                        ("take D3 as 2 step 0 retreat", "is not a way to take D2")):
        with pytest.raises(IllegalAction, match=words) as refused:
            st.apply(text)
        assert refused.value.rule == "8.5", text
    st.apply("take D2 as 1 step 1 retreat")
    st.apply("lose 10K")
    st.apply("retreat 9K 10K to 1213")
    assert dec(st).kind == "advance"
    for text, words in (("end combat", "advance after combat: advance UNIT HEX"),
                        ("advance 16A 1213", "16A cannot advance into 1213")):
        with pytest.raises(IllegalAction, match=words) as refused:
            st.apply(text)
        assert refused.value.rule == "8.7", text
    st.apply("advance 16A 1214")
    with pytest.raises(IllegalAction, match="16A cannot advance into 1213"):
        st.apply("advance 16A 1213")  # 8.7.1: a second hex only after two of retreat

def test_8_7_d2_c_one_step_and_both_retreat_one_hex_then_advance_one(
        rules_engine: MotherlandEngine) -> None:
    st = d2_position(rules_engine)
    st.apply("take D2 as 1 step 1 retreat")
    st.apply("lose 10K")
    st.apply("retreat 9K 10K to 1213")
    assert st.u("10K").steps == 2 and st.u("9K").steps == 3
    # advance example 3: the attacker may advance one hex only
    d = st.decision()
    assert d is not None and d.kind == "advance" and d.side == "soviet"
    assert "advance 16A 1214" in notations(st)
    st.apply("advance 16A 1214")
    assert not any(a.notation().startswith("advance 16A") for a in st.legal_actions())
    st.apply("end advance")
    assert dec(st).kind == "combat"


def test_18_2_3_snow_turn_axis_must_retreat(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 5, "combat", "soviet",
                  {"9K": "1214", "10K": "1214", "5A": "1315", "16A": "1215", "19A": "1115"})
    st.pos.cups["A"] = ["A8-6", "A8-6", "A8-6"]
    st.apply("attack 1214 with 16A 19A 5A")
    draw(st, "A8-6", "A8-6", "A8-6")
    texts = roll(st, 4)
    assert any("+3 Soviet winter attack" in t for t in texts)  # 18.2.4 first winter
    # 18.2.3: against Axis units the result is a retreat, the only way offered (so applied)
    assert any("takes D2 as 0 step loss(es) and 2 hex(es) of retreat" in t for t in texts)
    assert dec(st).kind == "retreat-choice"


def test_18_2_4_second_winter_soviet_modifier_is_plus_one(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 12, "combat", "soviet",
                  {"9K": "1214", "5A": "1315"})
    st.pos.cups["A"] = ["A8-6"]
    st.apply("attack 1214 with 5A")
    draw(st, "A8-6")
    texts = roll(st, 1)
    assert any("+1 Soviet winter attack" in t for t in texts)


# --- chits (11.0), generals (16.5) -------------------------------------------------------------


def test_11_0_starred_chit_leaves_the_game_unstarred_returns(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis", {"5A": "1214", "16A": "1216"},
                  fields={"5A": {"chit": "A4-3*"}, "16A": {"chit": "A6-5"}})
    before = list(st.pos.cups["A"])
    drop_chit(st, "5A")
    drop_chit(st, "16A")
    assert st.pos.removed_chits == ["A4-3*"]
    assert sorted(st.pos.cups["A"]) == sorted([*before, "A6-5"])  # 11.2 note


def test_8_5_3_chit_drawn_before_combat_and_flipped_on_loss(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis", {"5A": "1214", "41Pz": "1314"})
    st.apply("attack 1214 with 41Pz")
    req = st.chance_request()
    assert req.kind == "draw" and req.cup == "A" and req.rule == "11.1.1"
    st.apply_outcome(("A5-4*",))
    assert st.u("5A").chit == "A5-4*" and st.factors("5A")[:2] == (5, 4)
    with st.telling():
        lose_step(st, "5A", "test")
    assert st.factors("5A")[:2] == (3, 2)  # the back of the chit


def test_16_5_general_draws_two_and_the_soviet_keeps_one(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis", {"5A": "1214", "41Pz": "1314"})
    st.pos.generals = {"Zhukov": "ready"}
    st.pos.cups["A"] = ["A4-3*", "A6-5"]
    st.apply("attack 1214 with 41Pz")
    d = st.decision()
    assert d is not None and d.side == "soviet" and d.kind == "generals"
    assert notations(st) == ["general Zhukov for 5A", "end generals"]
    st.apply("general Zhukov for 5A")
    req = st.chance_request()
    assert req.count == 2
    st.apply_outcome(("A6-5", "A4-3*"))
    assert notations(st) == ["keep A4-3* for 5A", "keep A6-5 for 5A"]
    st.apply("keep A6-5 for 5A")
    assert st.u("5A").chit == "A6-5"
    assert "A4-3*" in st.pos.removed_chits  # a discarded starred chit leaves the game
    assert st.pos.generals["Zhukov"] == "used"


def test_11_0_admin_phase_returns_chits_of_units_not_adjacent(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 2, "admin", "", {"5A": "1214", "16A": "2020", "9K": "1314"},
                  fields={"16A": {"chit": "A6-5"}})
    # 5A is next to 9K and has no chit: it must draw (11.1.2); 16A is alone: its chit goes back
    assert st.is_chance() and st.chance_request().rule == "11.1.2"
    assert st.u("16A").chit == "" and "A6-5" in st.pos.cups["A"]


# --- Stalin (16.6), production (12.1) --------------------------------------------------------


def test_16_6_stalin_escapes_on_one_to_four(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis", {"41Pz": "2013"})
    st.apply("move 41Pz 2013 2113")
    req = st.chance_request()
    assert req.rule == "16.6"
    st.apply_outcome((4,))
    assert st.pos.stalin == "evacuated" and st.pos.control["2113"] == "axis"


def test_16_6_stalin_killed_then_surrender_roll(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis", {"41Pz": "2013", "5A": "0920"})
    st.apply("move 41Pz 2013 2113")
    st.apply_outcome((5,))
    assert st.pos.stalin == "dead"
    assert st.chance_request().rule == "20.2 rule 4"
    st.apply_outcome((6,))
    assert st.is_terminal()
    result = st.result()
    assert result is not None and result.winner == "axis"
    assert result.level == "Axis Strategic Victory"


def test_12_1_production_roll_and_placement(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "admin", "", {"5A": "2020"})
    st.pos.units["OS2"].box = "osm"
    assert st.chance_request().rule == "12.1"
    st.apply_outcome((5,))  # production number 5 with no assets lost
    d = st.decision()
    assert d is not None and d.kind == "production"
    assert "produce OS2 at 2020" in notations(st)  # 12.1: any supplied hex (see test_issue11)
    st.apply("produce OS2 at 2020")
    assert st.u("OS2").hex == "2020"


def test_12_1_production_fails_above_the_number(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "admin", "", {"5A": "2020"})
    st.pos.units["OS2"].box = "osm"
    st.pos.eliminated_assets = ["FacKEV", "FacKHA", "FacSLN", "OreKRI"]  # number 4
    st.apply_outcome((5,))
    assert st.u("OS2").box == "osm"


# --- movement (4.0, 5.0) and overrun (7.0) ----------------------------------------------------


def test_4_2_zoc_to_zoc_only_for_panzers(rules_engine: MotherlandEngine) -> None:
    # 5A at 1214 exerts ZOC on its six neighbors; 1213 and 1314 are both in it
    st = position(rules_engine, 3, "move", "axis",
                  {"5A": "1214", "9K": "1213", "41Pz": "1213"})
    with pytest.raises(IllegalAction, match=r"4\.2"):
        st.apply("move 9K 1213 1314")
    st.apply("move 41Pz 1213 1314")  # 4.2 note, 5.1.4
    assert st.u("41Pz").mp == 7 - 3  # 1 MP clear + 2 to leave the ZOC


def test_5_0_a_move_without_its_start_hex_names_the_rule_and_the_form() -> None:
    # QA: 'move 7K 0101' (the destination alone) was refused with no rule, and "did you
    # mean '0711'?" offered a hex for the word that is there, not the one missing (on the
    # game's own map: it had offered '2011' here)
    from pbem.play import suggest
    from pbem.registry import get

    eng = get("for-the-motherland")
    assert isinstance(eng, MotherlandEngine)
    st = position(eng, 3, "move", "axis", {"9K": "1714"})
    with pytest.raises(ActionSyntaxError) as e:
        st.apply("move 9K 1713")
    assert ("a unit moves from hex to hex (5.0): 'move UNIT START HEX...', the hex it is "
            "in, then each hex it enters") in str(e.value)
    assert suggest(st, "move 9K 0101") == ""
    st.apply("move 9K 1714 1713")


def test_a_movement_listing_by_unit_reads_its_corps_in_number_order() -> None:
    # QA: 'pbem legal' and the prompt listed 10K, 12K, 1K, 9K (ids sorted as text); the
    # engine's own options keep their order (golden games record it)
    from pbem.choices import group
    from pbem.registry import get

    eng = get("for-the-motherland")
    assert isinstance(eng, MotherlandEngine)
    st = position(eng, 3, "move", "axis", {"10K": "1714", "1K": "1812", "9K": "1410",
                                           "12K": "1310"})
    listed = [a.notation() for a in st.legal_actions()]
    assert listed[0].startswith("move 10K ")
    assert [u.unit for u in group(st, "axis", listed).units] == ["1K", "9K", "10K", "12K"]


def test_5_1_3_may_always_move_one_hex(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis", {"9K": "1714"},
                  fields={"9K": {"supply": "out"}})
    assert st.factors("9K")[2] == 2  # Out of Supply halves the Movement Factor (9.5)
    st.apply("move 9K 1714 1713")  # mountain costs 2 leg MP: fine; now one-hex rule
    st2 = position(rules_engine, 3, "move", "axis", {"41Pz": "1812"},
                   fields={"41Pz": {"supply": "out"}})
    st2.u("41Pz").mp = 1
    st2._touch()
    assert "move 41Pz 1812 1813" in notations(st2)  # swamp costs 3 mech MP (5.1.3)


def test_5_2_1_german_units_cannot_enter_finland(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis", {"9K": "1403"})
    with pytest.raises(IllegalAction, match=r"5\.2\.1"):
        st.apply("move 9K 1403 1402")


def test_7_1_overrun_below_one_to_three_is_automatic_a2(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 8, "move", "soviet",
                  {"5A": "1215", "41Pz": "1214", "47Pz": "1214", "9K": "1214"},
                  fields={"5A": {"chit": "A4-3*"}})
    st.apply("overrun 1214 with 5A")
    assert not st.is_chance()  # no roll: 4 to 22 is below 1:3 (7.1)
    assert st.u("5A").mp == 4 - 3
    assert dec(st).kind == "result-choice" and dec(st).side == "soviet"


def test_18_2_4_soviet_overrun_costs_two_in_snow(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 12, "move", "soviet",
                  {"1T": "1215", "9K": "1214"}, fields={"1T": {"chit": "A8-6"}})
    st.apply("overrun 1214 with 1T")
    assert st.u("1T").mp == 6 - 2  # 7.2.5


def test_7_2_no_overrun_across_a_major_river(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis", {"41Pz": "1519", "5A": "1619"})
    with pytest.raises(IllegalAction, match=r"7\.2"):
        st.apply("overrun 1619 with 41Pz")


def test_8_3_9_attack_across_the_sea_is_refused(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis", {"9K": "1010", "5A": "1011"})
    assert not any(a.notation().startswith("attack") for a in st.legal_actions())
    with pytest.raises(IllegalAction, match=r"8\.3\.9"):
        st.apply("attack 1011 with 9K")


def test_8_4_1_river_doubles_defense(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis", {"41Pz": "1519", "5A": "1619"},
                  fields={"5A": {"chit": "A4-3*"}})
    texts = [e.text for e in st.apply("attack 1619 with 41Pz")]
    assert any("9 to 6" in t and "Major River" in t for t in texts)


# --- stacking (6.0), sequence of play (3.0) -------------------------------------------------


def test_6_6_overstacking_is_removed_by_the_opponent(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis",
                  {"1K": "2020", "2K": "2020", "4K": "2020", "5K": "2021", "5A": "0920"})
    st.apply("move 5K 2021 2020")
    st.apply("end movement")
    d = st.decision()
    assert d is not None and d.side == "soviet" and d.kind == "stacking"
    assert notations(st) == ["eliminate 1K", "eliminate 2K", "eliminate 4K", "eliminate 5K"]
    st.apply("eliminate 2K")
    assert st.u("2K").box == "elim"


def test_3_0_sequence_of_play_flips_after_turn_eleven(engine: MotherlandEngine) -> None:
    st = engine.new_state("4-uranus")
    assert isinstance(st, MotherlandState)
    assert st.phases()[1] == ("move", "soviet") and st.phases()[3] == ("exploit", "soviet")
    st1 = engine.new_state("1-barbarossa")
    assert isinstance(st1, MotherlandState)
    assert st1.phases()[1] == ("move", "axis") and st1.phases()[3] == ("exploit", "axis")


# --- supply (9.0) ------------------------------------------------------------------------------


def test_9_1_supply_lack_then_out_then_isolation(rules_engine: MotherlandEngine) -> None:
    units = {"9K": "1010", "5A": "1112", "16A": "0911", "19A": "0909", "20A": "1109",
             "31A": "1210"}
    st = position(rules_engine, 3, "supply", "", units)
    assert st.u("9K").supply == "lack"  # cut off by ZOC: Lack first (9.1)
    st.pos.phase = 0
    st.start_phase()
    assert st.u("9K").supply == "out"
    assert st.is_chance() and st.chance_request().rule == "9.1.3"


def test_9_2_units_near_a_source_are_in_supply(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "supply", "", {"9K": "0510", "5A": "2410"})
    assert st.u("9K").supply == "" and st.u("5A").supply == ""


# --- notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "move 4A 1017 1117 1118", "strategic 4A 1017 1118", "attack 1219 with 4A 5A",
    "attack 1219 with 41Pz and air and railroad gun", "overrun 1219 with 41Pz and air",
    "take D2 as 1 step 1 retreat", "retreat 4A 5A to 1320", "advance 4A 1219",
    "end movement", "keep C3-3* for 12A", "general Zhukov for 12A"])
def test_notation_round_trips(text: str) -> None:
    assert parse(text).notation() == text


def test_bad_notation_is_a_syntax_error() -> None:
    with pytest.raises(ActionSyntaxError):
        parse("move 4A")
    with pytest.raises(ActionSyntaxError, match=r"16\.2\.1"):
        parse("overrun 1219 with 41Pz and railroad gun")
    assert parse("take D2 as 1 step 1 retreat") == TAKE("D2", 1, 1)
    assert parse("end combat") == ending("end combat")


def test_notation_reads_each_argument_by_name() -> None:
    """The grammar's typed arguments are what the rules read: the attackers end before
    the supports (8.1 step 3), a move's path starts at the unit's hex (5.1), a result and
    a chit are no units (``pbem legal GAME UNIT`` picks actions by the units they name)."""
    attack = parse("attack 1219 with 4A 5A and air and railroad gun")
    assert attack.words("units") == ("4A", "5A") == attack.units()
    assert attack.flag("and air") and attack.flag("and railroad gun")
    assert parse("overrun 1219 with 41Pz and air").units() == ("41Pz",)
    move = parse("move 4A 1017 1117 1118")
    assert (move.text("start"), move.words("path")) == ("1017", ("1117", "1118"))
    assert move.hexes() == ("1017", "1117", "1118")
    assert parse("take D2 as 1 step 1 retreat").units() == ()
    assert parse("keep C3-3* for 12A").units() == ("12A",)
    assert parse("retreat 4A 5A to 1320").words("units") == ("4A", "5A")
    assert GRAMMAR["ship"](("4A",), "0722").notation() == "ship 4A to 0722"


def test_chance_nodes_name_their_rule(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis", {"5A": "1214", "41Pz": "1314"},
                  fields={"5A": {"chit": "A4-3*"}})
    st.apply("attack 1214 with 41Pz")
    assert st.current_player() == CHANCE
    req = st.chance_request()
    assert req.rule == "8.2" and "1214" in req.purpose


# --- data ------------------------------------------------------------------------------------


def test_book_hexes_and_setups_check_clean(engine: MotherlandEngine) -> None:
    assert engine.check_scenarios() == []


def test_every_stand_in_is_marked(engine: MotherlandEngine) -> None:
    marked = " ".join(engine.data.stand_ins)
    for what in ("crt", "tec", "isolation", "partisans", "production", "chits.toml",
                 "turns.toml", "counters.toml"):
        assert what in marked


def test_18_0_turn_track_weather_from_the_book(engine: MotherlandEngine) -> None:
    turns = engine.data.turns
    assert [t for t in turns if turns[t].weather == "mud"] == [4, 7, 11, 14, 18, 21]
    assert [t for t in turns if turns[t].weather == "snow"] == [5, 6, 12, 13, 19, 20]
    assert turns[7].replacements == (7, 3)  # 15.1 example i7/p3
    assert [t for t in turns if turns[t].air_withdrawal] == [6, 13, 16, 20]


def test_scenario_lengths(engine: MotherlandEngine) -> None:
    got = {s.id: s.turns for s in engine.scenarios()}
    assert got == {"1-barbarossa": (1, 7), "2-road-to-stalingrad": (1, 12),
                   "3-fall-blau": (8, 17), "4-uranus": (12, 14), "5-zitadelle": (16, 22),
                   "6-for-the-motherland": (1, 22)}


def test_8_6_5_units_retreated_into_a_hex_do_not_defend_and_die_on_a_result(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis",
                  {"41Pz": "1314", "5A": "1214", "16A": "1214"},
                  fields={"5A": {"chit": "A8-6"}, "16A": {"chit": "A4-3*"}})
    st.u("5A").displaced = True  # it retreated here earlier this phase
    texts = [e.text for e in st.apply("attack 1214 with 41Pz")]
    assert any(t.startswith("Odds 9 to 3 (3:1)") for t in texts)  # 8.6.5: 5A does not defend
    texts = roll(st, 3)  # 3:1, die 3: D1
    assert st.u("5A").box == "track"  # eliminated by 8.6.5, back in three turns (17.1.2)
    assert any("8.6.5" in t for t in texts)


def test_16_5_generals_also_serve_the_administrative_draws(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 2, "admin", "", {"5A": "1214", "9K": "1314"})
    # no general has arrived by turn 2: give one and run the chit step again
    st.pos.generals = {"Konev": "ready"}
    st.stack.append(Frame("admin_chits"))
    st._settle()
    assert st.decision() is not None and dec(st).kind == "generals"
    st.apply("general Konev for 5A")
    assert st.chance_request().count == 2


# --- strategic movement (5.3), sea transport (5.5), exploitation (5.4) -----------------------


ROW20 = " ".join(f"{c:02d}20" for c in range(24, 8, -1))  # 2420 ... 0920, 15 hexes of rail


def test_5_3_strategic_movement_fifteen_hexes_in_supply(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "soviet", {"5A": "2420", "9K": "0305"})
    st.apply(f"strategic 5A {ROW20}")
    assert st.u("5A").hex == "0920" and st.u("5A").mode == "strat"
    with pytest.raises(IllegalAction, match=r"5\.3"):
        st.apply("move 5A 0920 0820")  # 5.3: no regular move after a strategic one


def test_5_3_1_strategic_movement_keeps_two_hexes_from_the_enemy(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "soviet", {"5A": "2420", "9K": "1622"})
    with pytest.raises(IllegalAction, match=r"5\.3\.1"):
        st.apply(f"strategic 5A {ROW20}")


def test_20_1_no_strategic_movement_on_turn_one(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 1, "move", "soviet", {"5A": "2420", "9K": "0305"})
    with pytest.raises(IllegalAction, match=r"20\.1"):
        st.apply(f"strategic 5A {ROW20}")


def test_5_5_sea_transport_needs_sevastopol_on_the_black_sea(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "soviet", {"5A": "1530", "9K": "0305"})
    assert "ship 5A to 0926" in notations(st)
    st.apply("ship 5A to 0926")
    assert st.u("5A").hex == "0926" and st.pos.sea_used
    st2 = position(rules_engine, 3, "move", "soviet", {"5A": "1530", "9K": "0305"})
    st2.pos.control["0926"] = "axis"  # 5.5.4: the Axis holds Sevastopol
    st2._touch()
    assert not any(a.notation().startswith("ship") for a in st2.legal_actions())


def test_5_4_exploitation_panzers_full_infantry_one_hex(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "exploit", "axis",
                  {"41Pz": "1213", "9K": "1010", "10K": "1315", "5A": "1214"})
    moves = notations(st)
    # 9K is clear of ZOC: one hex; 10K starts in 5A's ZOC: it may not move (5.4.1)
    assert "move 9K 1010 1009" in moves and not any(m.startswith("move 9K 1010 1009 ")
                                                    for m in moves)
    assert not any(m.startswith("move 10K") for m in moves)
    # 41Pz starts in ZOC and moves with its full MF, but never ZOC to ZOC (5.1.4)
    with pytest.raises(IllegalAction, match=r"4\.2"):
        st.apply("move 41Pz 1213 1314")
    st.apply("move 41Pz 1213 1212 1211")
    assert st.u("41Pz").mp == 7 - 4


# --- administrative phase: KG (15.2), replacements (15.1), conversion (17.2) ----------------


def test_15_2_two_kampfgruppen_combine_into_a_corps(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "admin", "", {"1K": "2020", "2K": "2020"},
                  fields={"1K": {"steps": 1}, "2K": {"steps": 1}})
    assert "combine 1K 2K" in notations(st)
    st.apply("combine 1K 2K")
    assert st.u("1K").steps == 3 and st.u("2K").box == "elim"
    assert st.factors("1K") == (5, 7, 4)  # 15.2.1 two 2-3-5 KGs make a 5-7-4 corps


def test_15_1_mud_turn_replacements(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 4, "admin", "", {"1K": "2020", "41Pz": "2120"},
                  fields={"1K": {"steps": 1}, "41Pz": {"steps": 2}})
    d = st.decision()
    assert d is not None and d.kind == "replacements" and "i4/p2" in d.prompt
    st.apply("replace 41Pz")  # one Panzer step (p), back to full strength
    assert st.u("41Pz").steps == 3
    assert notations(st) == ["replace 1K", "end replacements"]
    st.apply("replace 1K")
    assert st.u("1K").steps == 2  # the KG is a corps again, on its reduced side


def test_17_2_guards_conversion_draws_a_fresh_b_chit(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 7, "admin", "", {"5A": "2020"},
                  fields={"5A": {"chit": "A4-3*", "steps": 1}, "1Gd": {"box": "conv"}})
    assert notations(st) == ["convert 5A to 1Gd", "end conversions"]
    st.apply("convert 5A to 1Gd")
    req = st.chance_request()
    assert req.cup == "B" and req.rule == "17.2.1"
    st.apply_outcome(("B4-3*",))
    assert st.u("1Gd").hex == "2020" and st.u("1Gd").steps == 2
    assert st.u("5A").box == "removed"


# --- supports: Railroad Gun (16.2), air (14.1) ----------------------------------------------


def test_16_2_railroad_gun_adds_four_against_a_fortified_city(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 9, "combat", "axis",
                  {"41Pz": "1710", "RRGun": "1810", "5A": "1610"},
                  fields={"5A": {"chit": "A4-3*"}})
    st.apply("attack 1610 with 41Pz and railroad gun")
    texts = roll(st, 1)
    assert any("+4 Railroad Gun" in t for t in texts)
    assert st.u("RRGun").box == "removed"  # used once (16.2 note)


def test_14_1_air_support_shifts_two_right_not_in_snow(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis",
                  {"41Pz": "1314", "5A": "1214", "AB1": "1412"}, fields={"5A": {"chit": "A8-6"}})
    texts = [e.text for e in st.apply("attack 1214 with 41Pz and air")]
    assert any("(1:1), shift +2 -> 3:1" in t for t in texts)
    assert st.pos.air.used == 1
    st2 = position(rules_engine, 5, "combat", "axis",
                   {"41Pz": "1314", "5A": "1214", "AB1": "1412"}, fields={"5A": {"chit": "A8-6"}})
    with pytest.raises(IllegalAction, match=r"14\.1"):
        st2.apply("attack 1214 with 41Pz and air")  # 14.3 Snow: no Air Support


# --- partisans (10.1), special rules (16.3, 16.4) -------------------------------------------


def test_10_1_partisans_mark_the_nearest_german_units(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "supply", "",
                  {"SB1": "1010", "9K": "1009", "10K": "1212", "5A": "2420"},
                  partisans={"Kovpak": "1010"})
    while st.current_player() == "axis":  # expending, air supply: nothing to do
        st.apply(st.legal_actions()[-1])
    req = st.chance_request()
    assert req.rule == "10.1"
    texts = [e.text for e in st.apply_outcome((6,))]  # stand-in table: 3 markers
    marks = [t for t in texts if t.startswith("Partisans: ")]
    # nearest first (9K is 1 hex from the base, 10K 2); one choice each, so applied at once
    assert marks == ["Partisans: 9K is Out of Supply (10.1)",
                     "Partisans: 10K is Out of Supply (10.1)"]
    assert st.u("9K").supply == "out" and st.u("SB1").supply == ""


def test_16_4_mech_groups_leave_after_turn_four(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 4, "admin", "", {"MG1": "2020", "9K": "0305"},
                  fields={"21A": {"box": "track", "return_turn": 7}})
    while not st.is_terminal() and st.pos.turn == 4:
        if st.is_chance():
            st.apply_outcome((1,) if st.chance_request().kind == "dice" else
                             (st.chance_request().contents[0],))
        else:
            st.apply(st.legal_actions()[-1])
    assert st.u("MG1").box == "removed" and st.u("21A").hex == "2020"  # 16.4


def test_4_2_1_retreat_into_enemy_zoc_costs_the_stack_one_step(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "soviet",
                  {"9K": "1214", "10K": "1214", "5A": "1315", "16A": "1215", "19A": "1115",
                   "OS1": "1216", "31A": "1212"})
    st.pos.cups["A"] = ["A8-6", "A8-6", "A8-6"]
    st.apply("attack 1214 with 16A 19A 5A")
    draw(st, "A8-6", "A8-6", "A8-6")
    roll(st, 4)
    st.apply("take D2 as 0 step 2 retreat")
    # every free neighbor is in Soviet ZOC now: all are priority 4, the owner picks
    assert {a.notation().split()[-1] for a in st.legal_actions()} == {"1114", "1213", "1314"}
    st.apply("retreat 9K 10K to 1213")
    d = st.decision()
    assert d is not None and d.kind == "step-loss" and d.side == "axis"  # 4.2.1: one step
    st.apply("lose 10K")
    assert st.u("10K").steps == 2 and st.u("9K").steps == 3


# --- victory (19.0) ------------------------------------------------------------------------------


def test_19_2_front_line_counts_the_missing_hexes(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis", {"SB1": "2020", "5A": "2820"})
    # 36 rows to cross; the supply base's own hex counts (occupied), its ZOC does not (4.1)
    assert front_line_gap(st, "axis") == 35
    st2 = position(rules_engine, 3, "combat", "axis", {"9K": "1002", "5A": "2820"})
    assert front_line_gap(st2, "axis") == 33  # 1001-1003 held by the unit and its ZOC


def test_19_1_moscow_ten_points_held_five_recaptured(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "combat", "axis", {"9K": "2113", "5A": "2820"})
    st.pos.control = {"2113": "axis"}  # 19.1 example
    st._touch()
    assert "Moscow held: 10" in victory_points(st)[1]
    st.pos.control = {"2113": "soviet"}
    st._touch()
    assert "Moscow recaptured: 5" in victory_points(st)[1]


# --- optional rules (21.0) -------------------------------------------------------------------


def test_21_1_baku_raid_can_end_the_war(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 9, "move", "axis", {"41Pz": "2434", "5A": "1010"},
                  options={"baku": "on"})
    assert "baku 41Pz" in notations(st)
    st.apply("baku 41Pz")
    assert st.chance_request().rule == "21.1.2"
    st.apply_outcome((3,))
    result = st.result()
    assert result is not None and result.winner == "axis"


def test_21_1_baku_needs_the_option(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 9, "move", "axis", {"41Pz": "2434", "5A": "1010"})
    assert "baku 41Pz" not in notations(st)
    with pytest.raises(IllegalAction, match=r"21\.1\.1"):
        st.apply("baku 41Pz")


def test_21_2_turkey_enters_on_a_low_roll(engine: MotherlandEngine) -> None:
    south = sorted(engine.data.area("south_of_turkey_trigger_line") - engine.data.water)
    st = position(engine, 9, "admin", "", {"41Pz": south[0], "5A": "2113"},
                  options={"turkey": "on"})
    assert st.chance_request().rule == "21.2.1"
    st.apply_outcome((1,))
    assert st.pos.turkey and st.u("Tur1").hex == "1735"


def test_5_2_3_air_bases_move_last_then_exploitation_is_free_again(
        rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "move", "axis",
                  {"AB1": "1010", "41Pz": "1213", "9K": "0808", "5A": "2420"})
    st.apply("move AB1 1010 1009")
    with pytest.raises(IllegalAction, match=r"5\.2\.3"):
        st.apply("move 41Pz 1213 1212")
    st.apply("end movement")
    while st.phase() != ("exploit", "axis"):
        st.apply(st.legal_actions()[-1]) if not st.is_chance() else st.apply_outcome((6,))
    assert any(a.notation().startswith("move 41Pz") for a in st.legal_actions())


def test_9_2_1_soviet_infantry_trace_supply_over_the_ice_in_snow(
        rules_engine: MotherlandEngine) -> None:
    """9.2.1: 0405 -> 0505 -> 0506 -> 0606 over the frozen water, for Soviet infantry only."""
    st = position(rules_engine, 5, "combat", "axis", {"5A": "0606", "9K": "2020"})
    hexmap_land = st.data.neighbors["0405"]
    assert "0505" not in hexmap_land  # water: no land route that way
    ice = st.data.ice_neighbors
    assert "0505" in ice["0405"] and "0506" in ice["0505"] and "0606" in ice["0506"]
    # every other land hex blocked (enemy units or ZOC): only the ice connects them
    blocked = frozenset(st.data.land) - {"0405", "0606"}
    assert supply_spread(st, {"0405": 3}, blocked, ice).get("0606") == 0
    assert "0606" not in supply_spread(st, {"0405": 3}, blocked)


def _besieged(engine: MotherlandEngine, side: str, port: str, unit: str,
              extra: dict[str, str] | None = None) -> tuple[MotherlandState, dict[str, str]]:
    """``unit`` in ``port``, every land hex two away held by the enemy: no land line."""
    hexmap = engine.data.hexmap
    ring = [h for h in hexmap.ring(port, 2)
            if h in hexmap and not hexmap.terrain_class(h).flag("water")]
    enemy = sorted(u for u, c in engine.data.counters.items()
                   if c.side != side and c.type in ("infantry", "combined_arms")
                   and c.nation in ("german", "soviet"))
    units = {unit: port, **dict(zip(enemy, ring, strict=False)), **(extra or {})}
    st = position(engine, 3, "supply", "", units)
    assert port not in supply_net(st, side)[0]  # cut off by land
    return st, units


def _supply_phase_again(st: MotherlandState) -> None:
    st.pos.phase = 0
    st.start_phase()


def test_9_6_3_soviet_sea_supply_through_tuapse_or_novorossiysk(engine: MotherlandEngine) -> None:
    """9.6.3: a besieged Soviet port on the Black Sea is supplied by ship while Tuapse or
    Novorossiysk is Soviet and railed to a source; the Sea of Azov does not count."""
    st, _ = _besieged(engine, "soviet", "0722", "10A")  # Odessa
    assert in_supply(st, "10A") and st.u("10A").supply == ""
    st.pos.control.update({"1428": "axis"})  # Novorossiysk lost, Tuapse left
    st._touch()
    assert in_supply(st, "10A")
    st.pos.control.update({"1530": "axis"})
    st._touch()
    assert not in_supply(st, "10A")


def test_9_6_1_axis_in_sevastopol_closes_odessa_to_soviet_sea_supply(
        engine: MotherlandEngine) -> None:
    """9.6.1 note: an Axis unit in Sevastopol as the Mutual Supply Phase begins: no Soviet
    sea supply from Odessa; once the Soviets recapture Sevastopol, it is open again."""
    st, _ = _besieged(engine, "soviet", "0722", "10A", {"29K": "0926"})
    st.pos.control["0926"] = "axis"
    _supply_phase_again(st)
    assert st.pos.odessa_closed and not in_supply(st, "10A")
    assert st.u("10A").supply == "lack"
    st.pos.control["0926"] = "soviet"  # recaptured (19.1)
    st._touch()
    assert in_supply(st, "10A")


def test_9_6_1_an_empty_axis_held_sevastopol_does_not_close_odessa(
        engine: MotherlandEngine) -> None:
    st, _ = _besieged(engine, "soviet", "0722", "10A")
    st.pos.control["0926"] = "axis"
    _supply_phase_again(st)
    assert not st.pos.odessa_closed and in_supply(st, "10A")


def test_9_6_2_german_sea_supply_on_the_baltic_needs_danzig_and_konigsberg(
        engine: MotherlandEngine) -> None:
    """9.6.2: a German corps besieged in Axis-held Riga is supplied by ship while the Axis
    holds Danzig and Königsberg; with Königsberg lost it is not."""
    st, _ = _besieged(engine, "axis", "1006", "9K")
    st.pos.control["1006"] = "axis"
    st._touch()
    assert in_supply(st, "9K")
    st.pos.control["0507"] = "soviet"
    st._touch()
    assert not in_supply(st, "9K")
    st.pos.control.pop("0507")
    st.pos.control["1006"] = "soviet"  # a port of the enemy's is no supply point
    st._touch()
    assert not in_supply(st, "9K")


def test_10_2_new_partisans_must_be_placed_on_a_supply_base(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "supply", "",
                  {"SB1": "1010", "SB2": "2010", "9K": "1009", "5A": "2420"},
                  partisans={"Kovpak": ""})
    while st.current_player() == "axis":
        st.apply(st.legal_actions()[-1])
    d = st.decision()
    assert d is not None and d.kind == "partisan-placement"
    assert notations(st) == ["partisan Kovpak to SB1", "partisan Kovpak to SB2"]  # no end
    st.apply("partisan Kovpak to SB2")
    assert st.pos.partisans["Kovpak"] == "2010"


def test_10_2_a_forced_partisan_placement_is_applied(rules_engine: MotherlandEngine) -> None:
    st = position(rules_engine, 3, "supply", "",
                  {"SB1": "1010", "9K": "1009", "5A": "2420"}, partisans={"Kovpak": ""})
    while st.current_player() == "axis" and st.phase()[0] == "supply":
        st.apply(st.legal_actions()[-1])
    assert st.pos.partisans["Kovpak"] == "1010"


def test_8_7_advance_example_one_tanks_go_two_hexes(rules_engine: MotherlandEngine) -> None:
    """8.7 example 1: D3, one step lost, two hexes of retreat: advance up to two hexes."""
    st = position(rules_engine, 15, "combat", "soviet",
                  {"9K": "1214", "1T": "1315", "2T": "1215", "5A": "1115", "OS1": "1216"})
    st.pos.cups["A"] = ["A8-6", "A8-6", "A8-6"]
    st.apply("attack 1214 with 2T 5A 1T")
    draw(st, "A8-6", "A8-6", "A8-6")
    texts = roll(st, 4)  # 24 to 7 = 3:1, die 4 +3 Offensive Support = 7: D3
    assert any(t.endswith(": D3") for t in texts)
    st.apply("take D3 as 1 step 2 retreat")
    while dec(st).kind == "retreat-choice":
        st.apply(st.legal_actions()[0])
    assert dec(st).kind == "advance" and dec(st).side == "soviet"
    st.apply("advance 1T 1214")
    second = [a.notation() for a in st.legal_actions() if a.notation().startswith("advance 1T")]
    assert second  # a tank may take a second hex (8.7.1)
    st.apply(second[0])
    assert not any(a.notation().startswith("advance 1T") for a in st.legal_actions())
    st.apply("end advance")


def test_8_7_advance_example_two_no_advance_after_a_mandatory_exchange(
        rules_engine: MotherlandEngine) -> None:
    """8.7 example 2: a one-step attacker dies of a mandatory 1/1; the defender stays."""
    st2 = position(rules_engine, 3, "combat", "axis", {"1K": "1315", "5A": "1214"},
                   fields={"5A": {"chit": "B4-4"}, "1K": {"steps": 1}})  # 1K is a Kampfgruppe
    st2.apply("attack 1214 with 1K")
    # the die roll is replaced by the example's result
    instead_of_roll(st2, lambda: combat_result(st2, "1/1"))
    assert st2.u("1K").box == "elim"  # the attacker's one step is gone
    assert st2.u("5A").steps == 1  # the defender lost one step
    assert dec(st2).kind == "combat"  # and no advance was offered (1 - 1 = 0)


def test_7_1_overrun_together_only_as_a_stack(rules_engine: MotherlandEngine) -> None:
    """7.1 with 5.1: units from two start hexes meeting in one hex are not one stack."""
    st = position(rules_engine, 3, "move", "axis",
                  {"41Pz": "1212", "47Pz": "1113", "5A": "1214"}, fields={"5A": {"chit": "C1-2*"}})
    st.apply("move 47Pz 1113 1213")
    st.apply("move 41Pz 1212 1213")
    with pytest.raises(IllegalAction, match=r"7\.1"):
        st.apply("overrun 1214 with 41Pz 47Pz")
    assert "overrun 1214 with 41Pz" in notations(st)


def test_queued_draws_meet_an_empty_cup(rules_engine: MotherlandEngine) -> None:
    """Two units need chits but the cup holds one: the second takes the stand-in chit."""
    st = position(rules_engine, 3, "combat", "axis",
                  {"41Pz": "1314", "5A": "1214", "16A": "1214"})
    st.pos.cups["A"] = ["A6-5"]
    st.apply("attack 1214 with 41Pz")
    assert st.chance_request().count == 1
    texts = [e.text for e in st.apply_outcome(("A6-5",))]
    assert any("Cup A is empty" in t for t in texts)
    # the first in order drew the chit, the other has the weakest A chit (empty_cup)
    assert {st.u("16A").chit, st.u("5A").chit} == {"A6-5", "A4-3*"}


def test_20_5_zitadelle_opens_with_the_axis_moving_first_then_soviets_lead(
        engine: MotherlandEngine) -> None:
    """20.5 rule 2 (stand-in for the lost list): the Axis moves first on turn 16 of
    scenario 5 only; from turn 17 the 12-22 sequence (Soviets first, 3.0) applies, and
    turn 16 of the campaign keeps the Soviets first."""
    st = engine.new_state("5-zitadelle")
    assert isinstance(st, MotherlandState)
    assert st.turn == 16 and st.phases()[1:4] == [("move", "axis"), ("combat", "axis"),
                                                  ("exploit", "axis")]
    st.pos.turn = 17
    assert st.phases()[1] == ("move", "soviet")
    campaign = engine.new_state("6-for-the-motherland")
    assert isinstance(campaign, MotherlandState)
    campaign.pos.turn = 16
    assert campaign.phases()[1] == ("move", "soviet")
    # marked as a stand-in, so the engine page and 'pbem scenario check' list it
    assert any("scenario-5-zitadelle.toml: rules" in s and "20.5 rule 2" in s
               for s in engine.data.stand_ins)


def _cheapest(st: MotherlandState, uid: str) -> dict[str, int]:
    """The least MP to every hex, by the step rule alone (an oracle beside the kit)."""
    import heapq

    start, mp = st.u(uid).hex, st.u(uid).mp
    best, heap = {start: 0}, [(0, start)]
    while heap:
        cost, h = heapq.heappop(heap)
        if cost > best[h]:
            continue
        for n in st.data.all_neighbors[h]:
            step = move_step_cost(st, uid, h, n, False)
            if step is not None and cost + step <= mp and cost + step < best.get(n, 99):
                best[n] = cost + step
                heapq.heappush(heap, (cost + step, n))
    return {h: c for h, c in best.items() if h != start and h not in st.data.water}


@pytest.mark.parametrize("uid", ["41Pz", "9K"])
def test_listed_moves_are_the_cheapest_paths(rules_engine: MotherlandEngine, uid: str) -> None:
    """5.0, 4.2: the kit's search (movement.reachable) lists every hex the unit can reach
    within its MP, each by a path of least cost, leaving an enemy ZOC at 2 MP; of paths
    that tie it keeps the one through the lower hex id."""
    st = position(rules_engine, 3, "move", "axis",
                  {"5A": "1214", "9K": "1213", "41Pz": "1213"})
    listed = reach(st, uid)
    cheapest = _cheapest(st, uid)
    assert set(listed) == set(cheapest) and len(listed) > 10
    for h, path in listed.items():
        assert path_cost(st, uid, path, False) == cheapest[h]
        # the hex before the last is the lowest-id hex that reaches it as cheaply
        ties = [p for p in st.data.all_neighbors[h] if p in cheapest or p == path[0]
                if (0 if p == path[0] else cheapest[p])
                + (move_step_cost(st, uid, p, h, False) or 99) == cheapest[h]]
        assert path[-2] == min(ties)


def test_5_2_2_no_entering_enemy_units_but_partisans_do_not_block(
        rules_engine: MotherlandEngine) -> None:
    """5.2.2 "Units may not enter a hex with enemy units, except for Overruns (7.0). Soviet
    Partisans and Stalin are markers rather than units and do not prevent Axis units from
    entering the hex": 9K may move into the partisans' hex 1214, not on into 5A's 1215."""
    st = position(rules_engine, 3, "move", "axis", {"9K": "1213", "5A": "1215"},
                  partisans={"Kovpak": "1214"})
    opts = [a.notation() for a in st.legal_actions()]
    assert "move 9K 1213 1214" in opts
    assert not any(o.startswith("move 9K") and o.endswith(" 1215") for o in opts)
    with pytest.raises(IllegalAction, match=r"^5\.2\.2"):
        st.apply("move 9K 1213 1214 1215")
    st.apply("move 9K 1213 1214")
    assert st.u("9K").hex == "1214"
