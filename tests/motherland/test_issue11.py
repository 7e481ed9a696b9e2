"""Issue 11: For the Motherland! rules deviations, each set up from the book's text.

Every test names the rule it checks; the position is the smallest one that shows it.
"""

from __future__ import annotations

import pytest

from engines.motherland import MotherlandEngine
from engines.motherland.combat import combat_result
from engines.motherland.stacking import over_limit
from engines.motherland.state import MotherlandState
from engines.motherland.strategic import strategic_ok_unit, strategic_reach
from engines.motherland.supply import air_available, sea_supply, supplied_at, supply_net
from pbem.errors import IllegalAction

from .conftest import instead_of_roll, position, rules_map_text


def notations(st: MotherlandState) -> list[str]:
    return [a.notation() for a in st.legal_actions()]


def force(st: MotherlandState, code: str) -> list[str]:
    """Replace the pending CRT roll by the result ``code`` (the test's chosen outcome)."""
    assert st.is_chance() and st.stack[-1].step == "roll-crt", st.stack[-1:]
    return [e.text for e in instead_of_roll(st, lambda: combat_result(st, code))]


def until(st: MotherlandState, phase: tuple[str, str]) -> None:
    """Play on to ``phase``, every side ending each step and every die rolling 6."""
    while st.phase() != phase:
        if st.is_chance():
            req = st.chance_request()
            st.apply_outcome(tuple(6 for _ in req.dice) if req.kind == "dice"
                             else tuple(req.contents[:req.count]))
            continue
        ends = [a for a in st.legal_actions() if a.notation().startswith("end ")]
        st.apply(ends[0] if ends else st.legal_actions()[-1])


# --- 8.3.1: the attacked hexes last one Combat Phase ----------------------------------------


def test_8_3_1_a_hex_attacked_in_one_combat_phase_may_be_attacked_in_the_next(
        rules_engine: MotherlandEngine) -> None:
    """8.3.1 bars a second attack "in the same combat phase" only: the Axis takes 1214,
    and in the Soviet Combat Phase of the same turn the Soviets may attack it back."""
    st = position(rules_engine, 3, "combat", "axis",
                  {"41Pz": "1314", "5A": "1214", "16A": "1215"},
                  fields={"5A": {"chit": "A4-3*"}, "16A": {"chit": "A8-6"}})
    st.apply("attack 1214 with 41Pz")
    force(st, "DE")
    st.apply("advance 41Pz 1214")
    st.apply("end advance")
    assert st.pos.hit == ["1214"]
    until(st, ("combat", "soviet"))
    assert st.pos.hit == []  # the Axis phase's marks are gone
    assert "attack 1214 with 16A" in notations(st)
    st.apply("attack 1214 with 16A")  # accepted, not refused as 8.3.1
    assert st.pos.hit == ["1214"]


# --- 8.3.1 / 8.3.4: a unit attacked once is not attacked again where it went -----------------


def test_8_3_4_a_unit_that_retreated_to_an_empty_hex_is_not_attacked_again(
        rules_engine: MotherlandEngine) -> None:
    """8.3.4 "Each unit can attack or be attacked only once in each Combat Phase": 5A
    retreats from 1214 to 1114; 10K next to 1114 may not attack it there."""
    st = position(rules_engine, 3, "combat", "axis",
                  {"41Pz": "1314", "9K": "1116", "10K": "1013", "5A": "1214"},
                  fields={"5A": {"chit": "A4-3*"}})
    st.apply("attack 1214 with 41Pz")
    force(st, "D1")
    st.apply("take D1 as 0 step 1 retreat")
    st.apply("retreat 5A to 1114")
    st.apply("end advance")
    assert not any(a.notation().startswith("attack 1114") for a in st.legal_actions())
    with pytest.raises(IllegalAction, match=r"8\.3\.1"):
        st.apply("attack 1114 with 10K")


def test_8_3_4_a_defender_that_advanced_is_not_attacked_again(
        rules_engine: MotherlandEngine) -> None:
    """8.3.4: 5A defends 1214 against 41Pz, the attacker retreats (A1) and 5A advances
    into 1314; 9K next to 1314 may not attack 5A a second time this phase."""
    st = position(rules_engine, 3, "combat", "axis",
                  {"41Pz": "1314", "9K": "1413", "5A": "1214"},
                  fields={"5A": {"chit": "A4-3*"}})
    st.apply("attack 1214 with 41Pz")
    force(st, "A1")
    st.apply("take A1 as 0 step 1 retreat")
    while st.decision() is not None and st.decision().kind == "retreat-choice":
        st.apply(st.legal_actions()[0])
    st.apply("advance 5A 1314")
    assert st.u("5A").hex == "1314"
    assert not any(a.notation().startswith("attack 1314") for a in st.legal_actions())
    with pytest.raises(IllegalAction, match=r"8\.3\.1"):
        st.apply("attack 1314 with 9K")


# --- 8.6.5: "later in the same Combat Phase" -------------------------------------------------


def test_8_6_5_retreated_units_defend_against_an_exploitation_overrun(
        rules_engine: MotherlandEngine) -> None:
    """8.6.5 holds "later in the same Combat Phase": 5A retreats into the Kiev factory's
    hex (1114) in the Axis Combat Phase; in the Exploitation Phase both defend against
    47Pz's overrun."""
    st = position(rules_engine, 3, "combat", "axis",
                  {"41Pz": "1314", "9K": "1116", "47Pz": "1013", "5A": "1214", "FacKEV": "1114"},
                  fields={"5A": {"chit": "A4-3*"}})
    st.apply("attack 1214 with 41Pz")
    force(st, "D1")
    st.apply("take D1 as 0 step 1 retreat")  # 1114 is the only best hex (8.6.1): automatic
    assert st.u("5A").hex == "1114" and st.u("5A").displaced
    st.apply("end advance")
    st.apply("end combat")
    assert st.phase() == ("exploit", "axis")
    texts = [e.text for e in st.apply("overrun 1114 with 47Pz")]
    assert any(t.startswith("Odds 9 to 4 ") for t in texts), texts  # 3 (5A) + 1 (factory)


# --- 8.5: a stack takes the result once --------------------------------------------------


def army_and(rules_engine: MotherlandEngine, other: str, chit: str = "") -> MotherlandState:
    """41Pz (1314) attacks 5A (chit A4-3*, two steps) stacked with ``other`` in 1214."""
    fields = {"5A": {"chit": "A4-3*"}}
    if chit:
        fields[other] = {"chit": chit}
    st = position(rules_engine, 3, "combat", "axis",
                  {"41Pz": "1314", "5A": "1214", other: "1214"}, fields=fields)
    st.apply("attack 1214 with 41Pz")
    return st


def test_8_5_d1_on_army_and_factory_is_one_step_for_the_stack(
        rules_engine: MotherlandEngine) -> None:
    """8.5/8.5.1: a D1 on an army stacked with a factory costs the stack one step, which
    the Soviet may give to the army: the factory survives."""
    st = army_and(rules_engine, "FacKEV")
    force(st, "D1")
    assert st.u("FacKEV").hex == "1214"  # not destroyed before the stack chooses
    assert notations(st) == ["take D1 as 1 step 0 retreat", "take D1 as 0 step 1 retreat"]
    st.apply("take D1 as 1 step 0 retreat")
    assert notations(st) == ["lose 5A", "lose FacKEV"]
    st.apply("lose 5A")
    assert st.u("5A").steps == 1 and st.u("5A").hex == "1214"
    assert st.u("FacKEV").hex == "1214" and "FacKEV" not in st.pos.eliminated_assets


def test_8_5_d1_taken_as_a_retreat_costs_the_factory_its_step(
        rules_engine: MotherlandEngine) -> None:
    """8.5.1: units unable to retreat take the result as steps where the stack retreats:
    the army retreats one hex at full strength, the factory is destroyed."""
    st = army_and(rules_engine, "FacKEV")
    force(st, "D1")
    st.apply("take D1 as 0 step 1 retreat")
    while st.decision() is not None and st.decision().kind == "retreat-choice":
        st.apply(st.legal_actions()[0])
    assert st.u("5A").steps == 2 and st.u("5A").hex not in ("", "1214")
    assert "FacKEV" in st.pos.eliminated_assets


def test_8_5_d2_as_steps_on_fortress_and_army_costs_two_steps_not_four(
        rules_engine: MotherlandEngine) -> None:
    """8.5 with 8.5.1: a D2 taken as two step losses by a Fortress and an army is one step
    on each (the book's D2 example a), not the whole result on the Fortress as well."""
    st = army_and(rules_engine, "FLNG", chit="C3-3*")
    force(st, "D2")
    st.apply("take D2 as 2 step 0 retreat")
    if notations(st):
        st.apply(notations(st)[0])
    assert st.u("5A").steps + st.u("FLNG").steps == 4 - 2
    assert st.u("5A").steps == 1 and st.u("FLNG").steps == 1  # 8.5.1: one each


# --- 8.7 / 8.7.1: a retreat cut short shortens the advance -----------------------------------


def test_8_7_1_retreat_cut_short_allows_a_one_hex_advance_only(
        rules_engine: MotherlandEngine) -> None:
    """8.7: the advance is the result less what was taken as steps; 8.7.1 allows a second
    hex only if the enemy retreated two hexes.  5A takes D2 as two hexes of retreat, goes
    to 0102, finds its second hex (0101) blocked by a Supply Base and loses a step
    instead (8.5.1): the Panzer corps may advance into 0202 only."""
    st = position(rules_engine, 3, "combat", "axis",
                  {"41Pz": "0303", "SB1": "0101", "9K": "0204", "5A": "0202"},
                  fields={"5A": {"chit": "A4-3*"}})
    st.apply("attack 0202 with 41Pz")
    force(st, "D2")
    st.apply("take D2 as 0 step 2 retreat")
    st.apply("retreat 5A to 0102")
    assert st.u("5A").hex == "0102" and st.u("5A").steps == 1  # cut short: a step
    st.apply("advance 41Pz 0202")
    assert not any(a.notation().startswith("advance 41Pz") for a in st.legal_actions())


# --- 21.2.2: both Turkish corps in 1735 --------------------------------------------------------


def test_21_2_2_both_turkish_corps_stay_in_1735(engine: MotherlandEngine) -> None:
    """21.2.2 "places the two Turkish Corps units in hex 1735": the stacking check at the
    end of the phase must not make the Soviet eliminate one of them."""
    south = sorted(engine.data.area("south_of_turkey_trigger_line") - engine.data.water)
    st = position(engine, 9, "admin", "", {"41Pz": south[0], "5A": "2113"},
                  options={"turkey": "on"})
    assert st.chance_request().rule == "21.2.1"
    st.apply_outcome((1,))
    assert st.u("Tur1").hex == st.u("Tur2").hex == "1735"
    until(st, ("move", "axis"))  # through the rest of the Administrative Phase
    assert st.turn == 10
    assert st.u("Tur1").hex == st.u("Tur2").hex == "1735"
    assert over_limit(st, "1735") == []


# --- 17.0: Soviet reinforcements on or adjacent to a connected Railroad hex --------------------


def test_17_0_soviet_reinforcements_may_be_placed_adjacent_to_a_rail_hex(
        rules_engine: MotherlandEngine) -> None:
    """17.0 "Soviet units can be placed on or adjacent to any Railroad hex connected to a
    Soviet Supply Source": the test map's railroad runs along row 20."""
    st = position(rules_engine, 3, "move", "soviet", {"5A": "2620", "9K": "0505"},
                  fields={"10A": {"box": "track", "return_turn": 3}})
    opts = notations(st)
    assert "place 10A 2220" in opts  # on the railroad
    assert "place 10A 2221" in opts and "place 10A 2219" in opts  # next to it
    assert "place 10A 2222" not in opts  # two hexes off it
    st.apply("place 10A 2221")
    assert st.u("10A").hex == "2221"


# --- 12.1: a produced Offensive Support unit goes in any supplied hex out of enemy ZOC ------


def test_12_1_produced_offensive_support_may_go_to_an_empty_supplied_hex(
        rules_engine: MotherlandEngine) -> None:
    """12.1 "placed on the map in any hex that is currently in supply and not in an enemy
    ZOC (even if a friendly unit is in the hex)": an empty supplied hex is offered, a hex
    in the Axis ZOC is not, even with a Soviet unit in it."""
    st = position(rules_engine, 3, "admin", "", {"5A": "2020", "16A": "1314", "9K": "1214"})
    st.pos.units["OS2"].box = "osm"
    assert st.chance_request().rule == "12.1"
    st.apply_outcome((5,))
    opts = notations(st)
    assert "produce OS2 at 2222" in opts  # empty, within four hexes of the railroad
    assert "produce OS2 at 2020" in opts
    assert "produce OS2 at 1314" not in opts  # in 9K's ZOC: a friendly unit does not help
    st.apply("produce OS2 at 2222")
    assert st.u("OS2").hex == "2222"


# --- 5.3.1: a Strategic Movement ends in supply by any supply rule ---------------------------


def test_5_3_1_strategic_move_may_end_in_special_axis_supply(
        rules_engine: MotherlandEngine) -> None:
    """5.3.1 "must ... end the movement in hexes where the unit is in Supply": 1005 is
    nine hexes from the W source, but six or more from every Soviet unit, so 9.3.3 (a
    Supply Line of any length) supplies it and the move is allowed."""
    st = position(rules_engine, 3, "move", "axis", {"10K": "0205", "5A": "2030"})
    assert supplied_at(st, "10K", "1005")
    path = strategic_reach(st, "10K")["1005"]
    st.apply("strategic 10K " + " ".join(path))
    assert st.u("10K").hex == "1005"


# --- 9.3.2 and 9.3.3 for the Finns -------------------------------------------------------------


def test_9_3_2_finns_are_out_of_supply_at_once_when_helsinki_is_soviet(
        engine: MotherlandEngine) -> None:
    """9.3.2 "all Finnish units are automatically Out of Supply": not Lack of Supply first."""
    st = position(engine, 2, "combat", "soviet", {"FinKar": "1502", "5A": "2030"})
    st.pos.control = {"1402": "soviet"}
    until(st, ("move", "axis"))
    assert st.turn == 3
    assert st.u("FinKar").supply == "out"


def test_9_3_3_finns_far_from_the_soviets_trace_any_length_to_their_source(
        engine: MotherlandEngine) -> None:
    """9.3.3 applies to "Axis units" (2.3: Finland is an Axis country): a Finnish army six
    hexes from the F source and far from any Soviet unit is in supply."""
    st = position(engine, 2, "combat", "soviet", {"FinKar": "1407", "5A": "2030"})
    g = engine.data.hexmap.grid
    assert min(g.distance("1407", f) for f in engine.data.area("source_F")) > 4
    until(st, ("move", "axis"))
    assert st.turn == 3
    assert st.u("FinKar").supply == ""


# --- 5.3.2 / 3.1: who may use Strategic Movement, and when ----------------------------------


def test_5_3_2_offensive_support_and_railroad_gun_refusals_cite_their_own_rules(
        rules_engine: MotherlandEngine) -> None:
    """5.3.2 names neither Offensive Support nor the Railroad Gun.  Offensive Support is
    moved after all other units (5.2.3, 3.1 step 4), so not in step 2's Strategic
    Movement; the Railroad Gun moves only along connected railroads (5.1.6)."""
    st = position(rules_engine, 3, "move", "soviet", {"OS2": "2220", "9K": "0505"})
    assert not any(a.notation().startswith("strategic OS2") for a in st.legal_actions())
    with pytest.raises(IllegalAction, match=r"^5\.2\.3"):
        st.apply("strategic OS2 2220 2320")
    st = position(rules_engine, 3, "move", "axis", {"RRGun": "0520", "5A": "2630"})
    assert not any(a.notation().startswith("strategic RRGun") for a in st.legal_actions())
    with pytest.raises(IllegalAction, match=r"^5\.1\.6"):
        st.apply("strategic RRGun 0520 0620")


def test_3_1_a_supply_base_may_move_after_an_air_base(rules_engine: MotherlandEngine) -> None:
    """3.1 Axis Movement Phase step 4 is "Move Air Base and Supply Base": once the Air
    Base has moved, the Supply Base still may; combat units may not (5.2.3)."""
    st = position(rules_engine, 3, "move", "axis",
                  {"AB1": "1010", "SB1": "0808", "41Pz": "1213", "5A": "2420"})
    st.apply("move AB1 1010 1009")
    assert any(a.notation().startswith("move SB1") for a in st.legal_actions())
    st.apply("move SB1 0808 0809")
    assert st.u("SB1").hex == "0809"
    with pytest.raises(IllegalAction, match=r"^5\.2\.3"):
        st.apply("move 41Pz 1213 1212")


def test_3_1_a_supply_base_move_is_step_4_and_cites_3_1_not_5_2_3(
        rules_engine: MotherlandEngine) -> None:
    """3.1: moving the Supply Base is step 4, after the combat units' step 3; the refusal
    of a later combat-unit move cites 3.1 (5.2.3 is about Air Bases and Offensive
    Support only)."""
    st = position(rules_engine, 3, "move", "axis",
                  {"SB1": "0808", "41Pz": "1213", "5A": "2420"})
    st.apply("move SB1 0808 0809")
    assert not any(a.notation().startswith("move 41Pz") for a in st.legal_actions())
    with pytest.raises(IllegalAction, match=r"^3\.1"):
        st.apply("move 41Pz 1213 1212")


def test_3_1_no_strategic_movement_or_sea_transport_after_regular_moves(
        rules_engine: MotherlandEngine) -> None:
    """3.1: step 2 (Strategic Movement and Sea Transport) comes before step 3 (Movement
    and Overrun): once a unit has moved normally, neither is offered nor accepted."""
    st = position(rules_engine, 3, "move", "axis",
                  {"10K": "0205", "41Pz": "1213", "5A": "2630"})
    path = strategic_reach(st, "10K")["1005"]
    assert strategic_ok_unit(st, "10K") == ""  # (the list offers only moves to cities)
    st.apply("move 41Pz 1213 1212")
    assert strategic_ok_unit(st, "10K").startswith("3.1")
    with pytest.raises(IllegalAction, match=r"^3\.1"):
        st.apply("strategic 10K " + " ".join(path))
    with pytest.raises(IllegalAction, match=r"^3\.1"):
        st.apply("ship 10K to 1530")


# --- 7.1: Air Support and an overrun that is an automatic A2 -----------------------------------


def test_7_1_no_air_support_offered_or_spent_on_an_automatic_a2(
        rules_engine: MotherlandEngine) -> None:
    """7.1: below 1:3 "the attacker gets an automatic A2 result, and the Overrun is over";
    only an overrun at 1:3 or better is resolved like a combat, with an Air Unit.  A
    Kampfgruppe (attack 2) against an army and a factory (6 + 1) is below 1:3."""
    st = position(rules_engine, 3, "move", "axis",
                  {"10K": "1314", "AB1": "1312", "5A": "1214", "FacKEV": "1214"},
                  fields={"10K": {"steps": 1}, "5A": {"chit": "A8-6"}})
    assert air_available(st) > 0
    opts = notations(st)
    assert "overrun 1214 with 10K" in opts
    assert "overrun 1214 with 10K and air" not in opts
    with pytest.raises(IllegalAction, match=r"^7\.1"):
        st.apply("overrun 1214 with 10K and air")
    before = air_available(st)
    st.apply("overrun 1214 with 10K")
    assert air_available(st) == before


def test_7_1_an_air_unit_declared_before_the_chit_draw_is_kept_on_an_automatic_a2(
        rules_engine: MotherlandEngine) -> None:
    """7.1: the defender's chit is drawn for the overrun (11.1.1); if the odds then fall
    below 1:3 the overrun is an automatic A2 and the Air Unit stays unused (14.1)."""
    st = position(rules_engine, 3, "move", "axis",
                  {"10K": "1314", "AB1": "1312", "5A": "1214", "FacKEV": "1214"},
                  fields={"10K": {"steps": 1}})
    st.pos.cups["A"] = ["A8-6"]
    before = air_available(st)
    assert "overrun 1214 with 10K and air" in notations(st)  # odds unknown before the draw
    st.apply("overrun 1214 with 10K and air")
    texts = [e.text for e in st.apply_outcome(("A8-6",))]
    assert any("automatic A2" in t and "not used" in t for t in texts), texts
    assert air_available(st) == before


# --- 8.4.1 with 8.4.3: Frozen Access and a Minor River together -------------------------------


@pytest.fixture(scope="module")
def ice_engine(tmp_path_factory: pytest.TempPathFactory) -> MotherlandEngine:
    """The rules test map with one more Frozen Access hexside, 1618/1617, between land
    hexes, beside the Minor River 1517/1617."""
    text = rules_map_text().replace('frozen_access = ["0405/0505"',
                                    'frozen_access = ["1617/1618", "0405/0505"')
    assert "1617/1618" in text
    path = tmp_path_factory.mktemp("ftm-ice") / "icemap.toml"
    path.write_text(text)
    return MotherlandEngine(map_file=path)


def test_8_4_3_frozen_access_with_a_minor_river_gives_the_minor_river_modifier(
        ice_engine: MotherlandEngine) -> None:
    """8.4.3 treats a Frozen Access hexside as a Minor River; 8.4.1 then applies: all the
    attackers attack across a Minor River (one across the ice), so the defense gets +2."""
    st = position(ice_engine, 5, "combat", "soviet",
                  {"9K": "1617", "5A": "1517", "16A": "1618"},
                  fields={"5A": {"chit": "A8-6"}, "16A": {"chit": "A8-6"}})
    assert "attack 1617 with 16A 5A" in notations(st)
    texts = [e.text for e in st.apply("attack 1617 with 16A 5A")]
    odds = [t for t in texts if t.startswith("Odds")]
    assert odds and odds[0].startswith("Odds 16 to 9 "), odds  # 9K defends 7, +2
    assert "8.4.1" in odds[0]


# --- citations: the rule each refusal names -------------------------------------------------


def test_16_7_the_chongar_rail_bridge_refusals_cite_16_7(
        rules_engine: MotherlandEngine) -> None:
    """16.7: "Movement, Overrun ... is not allowed across the hexside" (1111/1112 is the
    bridge on the test map); 5.1.9 is the out-of-play rule."""
    st = position(rules_engine, 3, "move", "axis", {"41Pz": "1111", "5A": "1112"},
                  fields={"5A": {"chit": "A4-3*"}})
    with pytest.raises(IllegalAction, match=r"^16\.7"):
        st.apply("overrun 1112 with 41Pz")
    st = position(rules_engine, 3, "move", "axis", {"9K": "1111", "5A": "2630"})
    with pytest.raises(IllegalAction, match=r"^16\.7"):
        st.apply("move 9K 1111 1112")


def test_5_1_water_hexes_and_sea_hexsides_are_prohibited_terrain_not_5_1_5(
        rules_engine: MotherlandEngine) -> None:
    """5.1 "Ground units may not enter prohibited (P) terrain": a Sea hex (0505) or a Sea
    hexside (1010/1011) is refused as 5.1, not as the High Mountain rule (5.1.5), the
    out-of-play rule (5.1.9) or Frozen Access (5.1.7)."""
    st = position(rules_engine, 3, "move", "axis", {"9K": "0405", "10K": "1010", "5A": "2630"})
    with pytest.raises(IllegalAction, match=r"^5\.1:"):
        st.apply("move 9K 0405 0505 0606")
    with pytest.raises(IllegalAction, match=r"^5\.1:"):
        st.apply("move 9K 0405 0505")
    with pytest.raises(IllegalAction, match=r"^5\.1:"):
        st.apply("move 10K 1010 1011")


# --- 5.2.1: the Germans are barred from Finland only -----------------------------------------


def test_5_2_1_german_units_may_enter_turkey(engine: MotherlandEngine) -> None:
    """5.2.1 "German units cannot enter hexes in Finland" is the Germans' only country
    limit (Turkey bars the Soviets until it enters the war, and the other Axis nations
    have their own lists): a German corps may move from 1734 into 1735 (Turkey)."""
    assert engine.data.country_of("1735") == "turkey"
    st = position(engine, 9, "move", "axis", {"9K": "1734", "5A": "2113"})
    assert "move 9K 1734 1735" in notations(st)
    st.apply("move 9K 1734 1735")
    assert st.u("9K").hex == "1735"


# --- 9.5.1 against 15.1.1, 15.2.2, 17.2.2: the reading the engine follows --------------------


def admin_choices(rules_engine: MotherlandEngine, sup: str) -> list[str]:
    """Every choice offered in a Mud-turn Administrative Phase to units marked ``sup``."""
    st = position(rules_engine, 4, "admin", "",
                  {"1K": "2020", "2K": "2020", "41Pz": "2120", "5A": "2420"},
                  fields={"1K": {"steps": 1, "supply": sup}, "2K": {"steps": 1, "supply": sup},
                          "41Pz": {"steps": 2, "supply": sup},
                          "5A": {"chit": "A4-3*", "supply": sup}, "1Gd": {"box": "conv"}})
    seen: list[str] = []
    while st.phase() == ("admin", "") and not st.is_chance():
        opts = notations(st)
        seen += opts
        st.apply(next(o for o in opts if o.startswith("end ")))
    return seen


def test_9_5_1_lack_of_supply_bars_replacements_combining_and_conversion(
        rules_engine: MotherlandEngine) -> None:
    """The book's contradiction: 9.5.1 says Lack of Supply units "are not affected";
    15.1.1, 15.2.2 and 17.2.2 bar them.  The engine follows the three specific rules
    (see the engine page): no replacement step, no KG combination, no conversion."""
    supplied = admin_choices(rules_engine, "")
    assert {"convert 5A to 1Gd", "combine 1K 2K", "replace 41Pz"} <= set(supplied)
    lacking = admin_choices(rules_engine, "lack")
    assert not any(o.startswith(("convert", "combine", "replace")) for o in lacking), lacking


def test_8_6_5_a_defender_that_advanced_beside_fresh_units_is_treated_as_retreated(
        rules_engine: MotherlandEngine) -> None:
    """8.3.4 with 8.6.5 (the engine's reading, see the engine page): 1T defends 1214, the
    attacker retreats two hexes (A2) and 1T advances two hexes into 16A's hex (1413).  The
    hex may still be attacked (16A was not), but 1T does not defend again and is
    eliminated by a result, as a unit that retreated there would be."""
    st = position(rules_engine, 15, "combat", "axis",
                  {"41Pz": "1314", "9K": "1412", "1T": "1214", "16A": "1413"},
                  fields={"1T": {"chit": "A8-6"}, "16A": {"chit": "A4-3*"}})
    st.apply("attack 1214 with 41Pz")
    force(st, "A2")
    st.apply("take A2 as 0 step 2 retreat")
    while st.decision() is not None and st.decision().kind == "retreat-choice":
        st.apply(st.legal_actions()[0])
    st.apply("advance 1T 1314")
    st.apply("advance 1T 1413")
    assert "attack 1413 with 9K" in notations(st)
    texts = [e.text for e in st.apply("attack 1413 with 9K")]
    assert any(t.startswith("Odds 5 to 3 ") for t in texts), texts  # 16A only (A4-3*)
    texts = force(st, "D1")
    assert st.u("1T").hex == "" and any("8.6.5" in t for t in texts)


# --- 5.3.1 with 9.6: a Strategic Movement may end in Sea Supply ------------------------------


@pytest.fixture(scope="module")
def port_engine(tmp_path_factory: pytest.TempPathFactory) -> MotherlandEngine:
    """The rules test map with a second railroad, down column 15 from the main line to
    Tuapse (1530), so that 9.6.3's Soviet Sea Supply runs: Tuapse railed to a source."""
    main = 'railroad = ["'
    text = rules_map_text()
    assert text.count(main) == 1
    spur = " ".join(f"15{r:02d}" for r in range(20, 31))
    path = tmp_path_factory.mktemp("ftm-port") / "portmap.toml"
    path.write_text(text.replace(main, f'railroad = ["{spur}", "'))
    return MotherlandEngine(map_file=path)


def test_5_3_1_strategic_move_may_end_in_sea_supply(port_engine: MotherlandEngine) -> None:
    """5.3.1 "must ... end the movement in hexes where the unit is in Supply", by any
    supply rule: 0928 is eight hexes from the railroad (no Supply Line by land, 9.2) but
    two from the Black Sea port 0926, supplied by ship while Tuapse is Soviet and railed
    (9.6.3).  The move is accepted; with Tuapse in Axis hands it is refused as 5.3.1."""
    units = {"5A": "0924", "41Pz": "0205"}
    st = position(port_engine, 3, "move", "soviet", units)
    assert "0928" not in supply_net(st, "soviet")[0]  # not by land
    assert "0928" in sea_supply(st, "soviet")  # 9.6.3
    assert "0928" in strategic_reach(st, "5A")
    st.apply("strategic 5A 0924 0925 0926 0927 0928")
    assert st.u("5A").hex == "0928"
    st = position(port_engine, 3, "move", "soviet", units)
    st.pos.control["1530"] = "axis"  # Tuapse lost (Novorossiysk, 1428, is not railed here)
    st._touch()
    assert "0928" not in sea_supply(st, "soviet")
    assert "0928" not in strategic_reach(st, "5A")
    with pytest.raises(IllegalAction, match=r"^5\.3\.1"):
        st.apply("strategic 5A 0924 0925 0926 0927 0928")


# --- 8.3.9: no attack across a Sea or Lake hexside (a coverage row named in issue 11) --------


def test_8_3_9_no_attack_across_a_sea_hexside(rules_engine: MotherlandEngine) -> None:
    """8.3.9: units cannot attack across a Sea or Lake hexside.  9K (1010) faces 5A (1011)
    across the sea hexside 1010/1011: no attack is listed, and typed it is refused as
    8.3.9; 41Pz, beside 1011 over land (0911), may attack it."""
    st = position(rules_engine, 3, "combat", "axis",
                  {"9K": "1010", "41Pz": "0911", "5A": "1011"},
                  fields={"5A": {"chit": "A4-3*"}})
    assert "1011" in rules_engine.data.neighbors["1010"]
    opts = notations(st)
    assert "attack 1011 with 41Pz" in opts
    assert not any(o.startswith("attack 1011") and "9K" in o for o in opts)
    with pytest.raises(IllegalAction, match=r"^8\.3\.9"):
        st.apply("attack 1011 with 9K")


def test_8_3_9_frozen_access_is_crossed_by_soviet_infantry_only(
        ice_engine: MotherlandEngine) -> None:
    """8.4.3 (with 8.3.9): on a Snow Turn only Soviet infantry attacks across a Frozen
    Access hexside; an Axis corps facing the same hexside (1618 -> 1617) is refused."""
    st = position(ice_engine, 5, "combat", "axis", {"9K": "1618", "5A": "1617"},
                  fields={"5A": {"chit": "A4-3*"}})
    assert not any(o.startswith("attack 1617") for o in notations(st))
    with pytest.raises(IllegalAction, match=r"^8\.3\.9"):
        st.apply("attack 1617 with 9K")
