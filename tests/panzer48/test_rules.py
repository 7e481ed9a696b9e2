"""48th Panzer Korps: the article's rules and worked examples, positions by the setup API.

Positions are on the shipped map's clear ground south of the Chir (columns 08-12,
rows 19-23: no river, stream, slope or broken terrain), with ``only = true`` leaving
just the units each example names.  Unit values are the stand-in counters of
scenarios/48th-panzer-korps/units.toml: 686/II, 687/I and Adam are 3-step German
personnel with a movement allowance of 5 (the article's "3-5 units").
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engines.panzer48 import ENGINE
from engines.panzer48.combat import lose, round_half_down
from engines.panzer48.movement import allowance_halves, step_halves
from engines.panzer48.reinforcements import check_release
from engines.panzer48.stacking import fits
from engines.panzer48.state import P48State
from engines.panzer48.victory import score, update_control
from engines.panzer48.zoc import armor_in, zoc
from pbem.errors import IllegalAction
from pbem.setup import setup


def state(text: str) -> P48State:
    s = setup(ENGINE, "chir", "only = true\nphase = \"turns\"\n" + text)
    assert isinstance(s, P48State)
    return s


def roll(s: P48State, *faces: int) -> None:
    for f in faces:
        assert s.is_chance(), f"expected a roll, {s.current_player()} acts: {s.decision()}"
        s.apply_outcome((f,))


def do(s: P48State, *texts: str) -> None:
    """Apply actions; a lone ``roll`` is taken by the step itself (7.2: nothing left to
    add to the fire), so it is skipped when the roll is already due."""
    for t in texts:
        if t == "roll" and s.is_chance():
            continue
        s.apply(t)


def acts(s: P48State) -> list[str]:
    return [a.notation() for a in s.legal_actions()]


# -- 5: zones of control -----------------------------------------------------------------


def test_5_zoc_needs_three_steps_a_stack_of_three_one_step_units_exerts_one() -> None:
    """5: 'a stack of three 1-strength units would exert a ZOC, even though each unit in
    a hex alone would not'."""
    s = state('at = { "Adam" = "1021 -2", "Selle" = "1021 -2", "Schmidt" = "1023 -1" }')
    assert "1022" not in zoc(s, "german")  # two 1-step units: 2 steps, no ZOC
    s = state('at = { "Adam" = "1021 -2", "Selle" = "1021 -2", "Flak" = "1021 -2" }')
    assert "1022" in zoc(s, "german")  # three 1-step units
    s = state('at = { "Adam" = "1021 -2" }')
    assert not zoc(s, "german").hexes


def test_5_retreated_units_contribute_nothing() -> None:
    """5: 'a stack of a 2-point retreated unit and a 2-point unretreated unit would not
    exert a ZOC'."""
    s = state('at = { "Adam" = "1021 -1 retreated", "Selle" = "1021 -1" }')
    assert "1022" not in zoc(s, "german")
    s = state('at = { "Adam" = "1021 -1", "Selle" = "1021 -1" }')
    assert "1022" in zoc(s, "german")


def test_5_armor_zoc_is_marked_for_retreat_losses() -> None:
    s = state('at = { "89T" = "1021", "44MR" = "1121" }')
    zm = zoc(s, "soviet")
    assert armor_in(s, zm, "1022")  # 89T is armor: personnel lose 2 per such hex (8.3)
    s = state('at = { "44MR" = "1121" }')
    zm = zoc(s, "soviet")
    assert "1122" in zm and not armor_in(s, zm, "1122")  # 44MR is not armor


MOVE = 'phasing = "german"\nstep = "movement"\n'


def test_5_exit_example_first_unit_leaves_freely_the_last_rolls() -> None:
    """5's example: A and B in an enemy-controlled hex; A leaves without a roll, B must
    roll, and on 4-6 it cannot move, and may not try again that phase."""
    s = state(MOVE + 'at = { "Adam" = "1021", "Selle" = "1021", "349R" = "1020" }')
    assert "1021" in zoc(s, "soviet")
    s.apply("move Adam")
    s.apply("to 1022")  # Selle stays behind: no roll
    assert not s.is_chance()
    s.apply("stop")
    s.apply("move Selle")
    s.apply("to 1122")
    assert s.is_chance()  # leaving the hex vacant
    roll(s, 4)
    assert s.pos.units["Selle"].hex == "1021" and s.pos.units["Selle"].failed
    assert "move Selle" not in acts(s)
    with pytest.raises(IllegalAction, match="4"):
        s.apply("move Selle")


def test_5_exit_example_both_together_roll_and_neither_moves_on_4_to_6() -> None:
    s = state(MOVE + 'at = { "Adam" = "1021", "Selle" = "1021", "349R" = "1020" }')
    s.apply("move 1021")
    s.apply("to 1022")
    roll(s, 6)
    assert s.pos.units["Adam"].hex == "1021" and s.pos.units["Selle"].hex == "1021"
    s2 = state(MOVE + 'at = { "Adam" = "1021", "Selle" = "1021", "349R" = "1020" }')
    s2.apply("move 1021")
    s2.apply("to 1022")
    roll(s2, 3)
    assert s2.pos.units["Adam"].hex == "1022" and s2.pos.units["Selle"].hex == "1022"


# -- 7.3: target priority --------------------------------------------------------------------

DEFENSE = ('phasing = "soviet"\nstep = "fire"\n'
           'combat = { hex = "1021", attacker = "soviet", prepared = false, '
           'stage = "defense", attackers = [{A}], defenders = [{D}] }}\n')


def combat(attackers: list[str], defenders: list[str], at: str, stage: str = "defense",
           prepared: bool = False) -> P48State:
    q = ", ".join(f'"{u}"' for u in attackers)
    d = ", ".join(f'"{u}"' for u in defenders)
    step = "fire" if stage == "defense" else "attack-fire"
    return state(f'phasing = "soviet"\nstep = "{step}"\n'
                 f'combat = {{ hex = "1021", attacker = "soviet", prepared = '
                 f'{"true" if prepared else "false"}, stage = "{stage}", attackers = [{q}], '
                 f'defenders = [{d}] }}\n' + at)


def test_7_3_type_priority_armor_first_within_a_stack_not_across_stacks() -> None:
    """7.3: an armor and an infantry unit stacked together, another infantry unit in a
    different hex: fire at the stack must take the armor first, but the lone infantry
    may be fired at."""
    s = combat(["89T", "44MR", "349R"], ["Adam"],
               'at = { "Adam" = "1021", "89T" = "1020", "44MR" = "1020", "349R" = "1121" }')
    assert s.current_player() == "german"
    options = acts(s)
    assert "fire Adam 89T" in options and "fire Adam 349R" in options
    assert "fire Adam 44MR" not in options
    with pytest.raises(IllegalAction, match=r"7\.3"):
        s.apply("fire Adam 44MR")


def test_7_3_strongest_first_the_5_point_armor_then_the_2_point() -> None:
    """7.3: a 2-point armor, a 5-point armor and a 3-point infantry: one fire must take the
    5-point armor; a second must take the 2-point armor."""
    s = combat(["89T", "117T", "44MR"], ["Adam", "Selle"],
               'at = { "Adam" = "1021", "Selle" = "1021", "89T" = "1020 -2", '
               '"117T" = "1020", "44MR" = "1020 -1" }\n'
               'units = { "117T" = { losses = 0 } }\n')
    # 117T has 4 steps, 89T 2: the strongest armor first
    assert [a for a in acts(s) if a.startswith("fire Adam")] == ["fire Adam 117T"]
    s.apply("fire Adam 117T")
    do(s, "roll")
    roll(s, 1)  # value 3 against armor: no effect
    assert [a for a in acts(s) if a.startswith("fire Selle")] == ["fire Selle 89T"]


def test_7_3_multiple_targets_the_four_step_unit_fires_with_one_step() -> None:
    """7.3's example: the armor fired at with a one-step unit, a four-step unit may fire at
    the infantry stacked with it with a strength of one only; at a unit in another stack
    with all four."""
    s = combat(["89T", "44MR", "349R"], ["Schmidt", "685/I"],
               'at = { "Schmidt" = "1021 -1", "685/I" = "1021", "89T" = "1020", '
               '"44MR" = "1020", "349R" = "1121" }')
    s.apply("fire Schmidt 89T")
    do(s, "roll")
    roll(s, 1)
    assert s.pos.combat is not None and s.pos.combat.caps["1020"] == 1
    s.apply("fire 685/I 44MR")
    do(s, "roll")
    roll(s, 1)
    # the value: 1 step of personnel fire at personnel = 1 (not 4)
    from engines.panzer48.combat import fire_value
    from engines.panzer48.position import Fire
    assert fire_value(s, Fire("44MR", ["685/I"], []), 1)[0] == 1
    assert fire_value(s, Fire("349R", ["685/I"], []), None)[0] == 4


# -- 7.4 / 7.5: fire value and columns ---------------------------------------------------------


def test_7_4_rounding_to_nearest_one_half_down() -> None:
    """7.4: 'round 1/2 down (thus, a modified value of 1/2 or less has no effect)'."""
    assert round_half_down(Fraction(1, 2)) == 0
    assert round_half_down(Fraction(3, 4)) == 1
    assert round_half_down(Fraction(5, 2)) == 2
    assert round_half_down(Fraction(11, 4)) == 3


def test_7_4_same_class_strengths_are_summed_before_the_modifier() -> None:
    """7.4: two 2-step personnel units at armor (1/4 each): 4 x 1/4 = 1, not 2 x 0."""
    s = combat(["44MR", "14MR"], ["15Pz/I"],
               'at = { "15Pz/I" = "1021", "44MR" = "1020 -2", "14MR" = "1121 -1" }',
               stage="attack")
    from engines.panzer48.combat import fire_value
    from engines.panzer48.position import Fire
    assert fire_value(s, Fire("15Pz/I", ["44MR"], []), None)[0] == 0
    assert fire_value(s, Fire("15Pz/I", ["44MR", "14MR"], []), None)[0] == 1


def test_7_5_shift_off_the_left_of_the_table_has_no_effect() -> None:
    s = combat(["44MR"], ["15Pz/I"], 'at = { "15Pz/I" = "1021", "44MR" = "1020" }',
               stage="attack")
    from engines.panzer48.combat import crt_column
    assert crt_column(s, 1, -1) is None  # 7.5: past the leftmost column, no effect
    assert crt_column(s, 7, 0) == 4  # 7.2.4: the highest column not over 7 is 6
    assert crt_column(s, 100, 3) == 8  # past the rightmost: the rightmost


# -- 8.1 / 8.2: the morale options -------------------------------------------------------------

MORALE = ('at = { "686/II" = "1021", "687/I" = "1021", "Adam" = "1021", '
          '"44MR" = "1020", "14MR" = "1020" }')


def two_one(stage_roll: int = 4) -> P48State:
    """The Soviet fires 44MR (4) and 14MR (3) at one 3-5 unit: value 7, column 6."""
    s = combat(["44MR", "14MR"], ["686/II", "687/I", "Adam"], MORALE, stage="attack")
    s.apply("fire 44MR 686/II")
    s.apply("add 14MR")
    do(s, "roll")
    roll(s, stage_roll)
    return s


def test_8_1_example_2_1_check_failed_the_target_is_eliminated_the_others_retreat() -> None:
    s = two_one(4)  # "2-1"
    assert s.steps_of("686/II") == 2  # the 1 step at once
    assert s.decision() is not None and s.decision().kind == "morale-option"
    assert acts(s) == ["retreat", "check"]
    s.apply("check")
    roll(s, 5)  # 336th Infantry morale 4: failed
    assert s.pos.units["686/II"].where == "dead"
    while s.current_player() == "german":  # the survivors retreat, 2 hexes
        s.apply(s.legal_actions()[0])
    assert s.pos.units["687/I"].hex != "1021" and s.pos.units["Adam"].hex != "1021"
    assert s.d.map.distance(s.pos.units["Adam"].hex, "1021") == 2


def test_8_1_example_2_1_check_passed_the_target_is_eliminated_the_others_stay() -> None:
    s = two_one(4)
    s.apply("check")
    roll(s, 2)  # passed
    assert s.pos.units["686/II"].where == "dead"
    assert s.pos.units["687/I"].hex == "1021" and s.pos.units["Adam"].hex == "1021"


def test_8_1_example_3_1_may_not_check() -> None:
    s = two_one(6)  # "3-1": 3 + 1 > 3 steps
    assert acts(s) == ["retreat"]
    with pytest.raises(IllegalAction, match=r"8\.1"):
        s.apply("check")


# -- 8.3: retreat ----------------------------------------------------------------------------


def test_8_3_retreat_step_losses_in_enemy_zoc_two_for_personnel_in_armor_zoc() -> None:
    """8.3: each unit loses 1 step per enemy-controlled hex entered, personnel 2 where an
    armor unit exerts the ZOC; friendly units do not negate it."""
    s = combat(["44MR", "14MR"], ["686/II", "687/I", "685/I"],
               'at = { "686/II" = "1021", "687/I" = "1021", "685/I" = "1021", '
               '"44MR" = "1020", "14MR" = "1020", "89T" = "0922", "117T" = "1122", '
               '"159T" = "1023", "349R" = "0823", "365R" = "1223" }', stage="attack")
    s.apply("fire 44MR 685/I")
    s.apply("add 14MR")
    do(s, "roll")
    roll(s, 1)  # "1-0" at column 6
    assert acts(s) == ["retreat", "check"]
    s.apply("retreat")
    # every hex around is Soviet-controlled (armor around): 2 steps each for personnel
    while s.current_player() == "german":
        s.apply(s.legal_actions()[0])
    lost = {u: s.pos.units[u].losses for u in ("686/II", "687/I", "685/I")}
    assert all(n >= 2 for n in lost.values()), lost


def test_8_3_priority_3_as_far_from_the_adjacent_firing_units_as_possible() -> None:
    """8.3 priority 3: 'The units must retreat as far from adjacent firing units as
    possible.'  44MR and 14MR fire from 1020 at Adam in 1021: "2-1", a 2-hex retreat.
    Every path is free of enemy ZOC past the first hex, so priority 3 decides: only the
    paths ending 3 hexes from 1020 are offered; 0922-0821 and 1122-1221, each hex
    farther from 1021 but ending 2 hexes from the firers, are refused naming 8.3."""
    s = combat(["44MR", "14MR"], ["Adam"],
               'at = { "Adam" = "1021", "44MR" = "1020", "14MR" = "1020" }', stage="attack")
    s.apply("fire 44MR Adam")
    s.apply("add 14MR")
    do(s, "roll")
    roll(s, 4)  # "2-1": Adam retreats 2
    s.apply("retreat")
    offered = acts(s)
    assert offered == ["path 0922-0822", "path 0922-0923", "path 1022-0923", "path 1022-1023",
                       "path 1022-1123", "path 1122-1123", "path 1122-1222"]
    assert {s.d.map.distance(a.split("-")[-1], "1020") for a in offered} == {3}
    for nearer in ("path 0922-0821", "path 1122-1221"):
        assert s.d.map.distance(nearer.split("-")[-1], "1020") == 2
        with pytest.raises(IllegalAction, match=r"8\.3.*as far from the adjacent firing"):
            s.apply(nearer)
    s.apply("path 1022-1023")
    assert s.pos.units["Adam"].hex == "1023"


def test_8_3_priority_2_avoiding_enemy_zoc_comes_before_distance_from_the_firers() -> None:
    """8.3: the priorities apply in order, so 'avoid enemy-controlled hexes if possible'
    (2) wins over 'as far from adjacent firing units as possible' (3).  44MR, reduced to
    2 steps (no ZOC, 5), fires from 1020 at Adam in 1021: "1-0", a 1-hex retreat.  With
    the 89T tank brigade (not firing) in 1022, the hexes 2 from the firers (1122, 0922)
    are in its ZOC, so the ZOC-free hexes adjacent to the firers are the only choice."""
    def one_hex_retreat(extra: str) -> P48State:
        s = combat(["44MR"], ["Adam"],
                   'at = { "Adam" = "1021", "44MR" = "1020 -2"' + extra + ' }',
                   stage="attack")
        s.apply("fire 44MR Adam")
        do(s, "roll")
        roll(s, 4)  # value 2, column 2: "1-0"
        s.apply("retreat")
        return s

    free = one_hex_retreat("")  # without the tanks priority 3 decides: 2 from 1020
    assert acts(free) == ["path 0922", "path 1022", "path 1122"]
    s = one_hex_retreat(', "89T" = "1022"')
    assert "1122" in zoc(s, "soviet") and "0922" in zoc(s, "soviet")
    assert acts(s) == ["path 0921", "path 1121"]  # 1 hex from 44MR, out of any ZOC
    with pytest.raises(IllegalAction, match=r"8\.3"):
        s.apply("path 1122-1222")  # ends 3 from 44MR, through 89T's ZOC
    s.apply("path 1121")
    assert s.pos.units["Adam"].hex == "1121" and s.pos.units["Adam"].losses == 0


def test_8_3_priority_3_distance_from_the_firers_comes_before_4_closest_to_a_friend() -> None:
    """8.3: 'as far from adjacent firing units as possible' (3) comes before 'a unit
    retreating into an enemy-controlled hex must choose the hex closest to a friendly
    unit' (4).  44MR and 14MR fire from 1020 at Adam in 1021: "2-1", a 2-hex retreat.
    349R in 0922 and 365R in 1122 leave only 0921, 1121 and 1022 to go through, all
    Soviet-controlled, so every path enters one enemy-controlled hex (priority 2 ties).
    1121-1220 and 0921-0820 end 2 hexes from the firers, 1022-1023 ends 3; the friend
    686/II in 1120 is next to 1121, farther from 1022: priority 4 alone would take
    1121-1220, the book's order takes 1022-1023."""
    from engines.panzer48.position import RetreatArgs
    from engines.panzer48.retreat import retreat_paths
    s = combat(["44MR", "14MR"], ["Adam"],
               'at = { "Adam" = "1021", "44MR" = "1020", "14MR" = "1020", "349R" = "0922", '
               '"365R" = "1122", "686/II" = "1120" }', stage="attack")
    s.apply("fire 44MR Adam")
    s.apply("add 14MR")
    do(s, "roll")
    roll(s, 4)  # "2-1": Adam loses a step and retreats 2
    m, ez = s.d.map, zoc(s, "soviet")
    ways = [h for h in m.neighbors("1021") if not s.at(h)]
    assert sorted(ways) == ["0921", "1022", "1121"] and all(h in ez for h in ways)
    for first, end in (("1121", "1220"), ("0921", "0820"), ("1022", "1023")):
        assert end not in ez and m.distance(first, end) == 1  # one enemy-controlled hex
    assert m.distance("1220", "1020") == m.distance("0820", "1020") == 2
    assert m.distance("1023", "1020") == 3
    assert m.distance("1121", "1120") == 1 < m.distance("1022", "1120")
    paths, ok = retreat_paths(s, RetreatArgs(["Adam"], "1021", 2, True))
    assert ok and paths == [("1022", "1023")]
    s.apply("retreat")  # the one best path is taken without asking
    adam = s.pos.units["Adam"]
    assert adam.hex == "1023" and adam.losses == 2  # the "2-1" step and 1022's ZOC


def test_8_3_weapons_never_retreat_into_an_enemy_zoc_they_are_eliminated() -> None:
    """8.3: weapons units may never retreat into an enemy-controlled hex: a stack with a
    weapons unit still retreats, the weapons unit is eliminated; with a free path it
    survives."""
    ring = ('"89T" = "0922", "117T" = "1122", "159T" = "1023", "349R" = "0823", '
            '"365R" = "1223", ')
    for surrounded in (True, False):
        s = combat(["44MR", "14MR"], ["Adam", "Flak"],
                   'at = { ' + (ring if surrounded else '') + '"Adam" = "1021", '
                   '"Flak" = "1021", "44MR" = "1020", "14MR" = "1020" }', stage="attack")
        s.apply("fire 44MR Adam")  # 7.3: personnel before weapons in the stack
        s.apply("add 14MR")
        do(s, "roll")
        roll(s, 4)  # "2-1" on Adam: the stack retreats 2
        s.apply("retreat")
        s.apply(s.legal_actions()[0])
        flak = s.pos.units["Flak"]
        if surrounded:
            # 3 steps: two ordinary ZOC hexes would cost it 2; it is gone by 8.3
            assert flak.where == "dead"
        else:
            assert flak.where == "map" and flak.losses == 0
            assert flak.hex == s.pos.units["Adam"].hex != "1021"


def edge_retreat(*advances: str) -> P48State:
    """Adam on the south edge (2036), Soviet units on both edge neighbours, the
    attackers north of it: a "2-1" leaves no retreat path on the map."""
    s = state('phasing = "soviet"\nstep = "attack-fire"\n'
              'combat = { hex = "2036", attacker = "soviet", prepared = false, '
              'stage = "attack", attackers = ["44MR", "14MR"], defenders = ["Adam"] }\n'
              'at = { "Adam" = "2036", "44MR" = "2035", "14MR" = "2035", "349R" = "2136", '
              '"365R" = "1936" }')
    s.apply("fire 44MR Adam")
    s.apply("add 14MR")
    do(s, "roll")
    roll(s, 4)
    s.apply("retreat")
    assert s.pos.units["Adam"].where == "off" and s.pos.units["Adam"].hex == "2036"
    for a in advances:
        s.apply(a)
    while not (s.pos.phasing == "german" and s.decision().kind == "movement"):
        if s.is_chance():
            s.apply_outcome((1,))
            continue
        s.apply(s.decision().default)
    return s


def test_8_3_map_edge_off_the_map_only_when_eliminated_otherwise_then_re_entry() -> None:
    """8.3 Map-Edge: off the map only if the units would be eliminated otherwise; they
    re-enter by the same hex in their next Movement Phase, or, if it is enemy-occupied,
    at the nearest unoccupied, uncontrolled hex (reading: of the map edge)."""
    s = edge_retreat()
    assert [a for a in acts(s) if "Adam" in a] == ["enter Adam 2036"]
    s = edge_retreat("advance 44MR 2036")  # 8.4: advances may go in any direction
    # 1936 and 2136 occupied, 1836 and 2236 in their ZOC; 1736 and 2336 are 3 away
    assert [a for a in acts(s) if "Adam" in a] == ["enter Adam 1736"]
    with pytest.raises(IllegalAction, match=r"9\.1"):
        s.apply("enter Adam 2036")


def test_8_3_no_retreat_across_an_unbridged_river() -> None:
    """8.3: 'A unit may never retreat across an unbridged river'."""
    from engines.panzer48.position import RetreatArgs
    from engines.panzer48.retreat import retreat_paths
    s = state('at = { "Adam" = "3607" }')
    paths, ok = retreat_paths(s, RetreatArgs(["Adam"], "3607", 2, True))
    m = s.d.map
    for p in paths:
        for a, b in zip(["3607", *p], p, strict=False):
            assert not (m.has_side(a, b, "river") and not m.has_side(a, b, "bridge"))


# -- 8.4: advance ----------------------------------------------------------------------------


def test_8_4_advance_length_is_the_required_retreat() -> None:
    s = combat(["44MR", "14MR"], ["Adam"],
               'at = { "Adam" = "1021", "44MR" = "1020", "14MR" = "1020" }', stage="attack")
    s.apply("fire 44MR Adam")
    s.apply("add 14MR")
    do(s, "roll")
    roll(s, 4)  # 2-1: Adam retreats 2
    s.apply("retreat")
    while s.current_player() == "german":
        s.apply(s.legal_actions()[0])
    assert s.pos.combat is not None and s.pos.combat.advance == {"44MR": 2, "14MR": 2}


def test_8_4_advance_length_after_elimination_is_the_largest_morale_result() -> None:
    s = combat(["44MR", "14MR"], ["Schmidt"],
               'at = { "Schmidt" = "1021 -1", "44MR" = "1020", "14MR" = "1020" }',
               stage="attack")
    s.apply("fire 44MR Schmidt")
    s.apply("add 14MR")
    do(s, "roll")
    roll(s, 4)  # 2-1 eliminates the 1-step unit; largest morale result 2
    assert s.pos.units["Schmidt"].where == "dead"
    assert s.pos.combat is not None and s.pos.combat.advance == {"44MR": 2, "14MR": 2}
    s.apply("advance 14MR 1021")
    assert "advance 14MR 1022" in acts(s)
    s.apply("advance 14MR 1022")
    assert not any(a.startswith("advance 14MR") for a in acts(s))


def test_8_4_weapons_never_advance() -> None:
    s = combat(["44MR", "333/AT"], ["Schmidt"],
               'at = { "Schmidt" = "1021 -1", "44MR" = "1020", "333/AT" = "1020" }',
               stage="attack")
    s.apply("fire 44MR Schmidt")
    s.apply("add 333/AT")
    do(s, "roll")
    roll(s, 6)
    assert s.pos.combat is not None and "333/AT" not in s.pos.combat.advance


# -- 4: stacks, pick-up, hasty attacks ------------------------------------------------------


def test_4_a_stack_picks_up_units_and_only_units_stacked_at_the_start_attack() -> None:
    """4: a stack may pick up units it passes; only units that began the phase stacked
    together may join the same hasty attack."""
    s = state('phasing = "german"\nstep = "movement"\nreleased = true\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021", "61K" = "1122", '
              '"349R" = "1124" }')
    s.apply("move 1021")
    s.apply("to 1122")
    s.apply("pickup 61K")
    assert s.pos.moving == ["110PG/I", "110PG/II", "61K"]
    s.apply("to 1123")
    s.apply("hasty 1124")
    s.apply("with 110PG/I")  # then only a unit that began the phase in 1021 may join
    assert sorted(a for a in acts(s) if a.startswith("with")) == ["with 110PG/II"]
    with pytest.raises(IllegalAction, match=r"^4\b"):
        s.apply("with 61K")


def test_3_2_one_hasty_attack_per_unit_per_phase_and_no_movement_after_it() -> None:
    """3.2: a hasty attack at the end of a unit's move, resolved at once; each unit makes
    one per phase and moves no further; the stack's other units may go on (4)."""
    s = state('phasing = "german"\nstep = "movement"\nreleased = true\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021", "349R" = "1124", '
              '"365R" = "1224" }')
    s.apply("move 1021")
    s.apply("to 1122")
    s.apply("to 1123")
    s.apply("hasty 1124")
    s.apply("with 110PG/I")
    s.apply("go")
    while s.pos.combat is not None:  # resolved at once: defender's fire, then attacker's
        if s.is_chance():
            s.apply_outcome((1,))  # no effect at these columns
            continue
        s.apply(s.decision().default)
    assert s.pos.moving == ["110PG/II"]  # 4: the stack's other unit goes on
    assert acts(s) == ["hasty 1124", "stop"]  # halted in 349R's ZOC (5): no step on
    s.apply("hasty 1124")
    assert "with 110PG/I" not in acts(s)
    with pytest.raises(IllegalAction, match=r"one attack per unit per phase"):
        s.apply("with 110PG/I")
    s.apply("cancel")
    with pytest.raises(IllegalAction, match=r"^4\b"):
        s.apply("move 110PG/I")  # it attacked: no further movement


def test_4_drop_splits_the_stack() -> None:
    s = state('phasing = "german"\nstep = "movement"\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021" }')
    s.apply("move 1021")
    s.apply("to 1022")
    s.apply("drop 110PG/II")
    assert s.pos.units["110PG/II"].moved and s.pos.moving == ["110PG/I"]


def test_4_roads_bridges_and_river_crossings() -> None:
    """4: entering through a road hexside costs the road's 1/2 MP whatever the terrain;
    a road crossing a stream is a bridge; the Don bridges are marked; off the road a
    stream or river hexside adds its cost (stand-in TEC: +1/+2, +2/+4)."""
    s = state('phasing = "german"\nstep = "movement"\nat = { "61K" = "2228" }')
    half = 1  # the costs in half MPs
    leg, mech = "Adam", "61K"
    assert step_halves(s, leg, "2228", "2229") == step_halves(s, mech, "2228", "2229") == half
    assert step_halves(s, leg, "3217", "3318") == half  # road over a stream: a bridge
    assert step_halves(s, mech, "4729", "4730") == half  # the Tormosin road's Don bridge
    assert (step_halves(s, leg, "2726", "2826"), step_halves(s, mech, "2726", "2826")) == (4, 6)
    assert (step_halves(s, leg, "0111", "0211"), step_halves(s, mech, "0111", "0211")) == (6, 10)
    s.apply("move 61K")
    s.apply("to 2229")
    s.apply("to 2230")
    assert s.pos.units["61K"].spent == (1, 1)  # two road hexes


def test_3_1_prepared_attackers_move_half() -> None:
    s = state('phasing = "german"\nstep = "movement"\nat = { "61K" = "1021 flipped" }')
    assert allowance_halves(s, "61K") == 12  # 6 MPs


def test_3_1_flipped_units_make_no_hasty_attack() -> None:
    """3.1: units that made a prepared attack 'may take only limited action during the
    Movement Phase': half their movement allowance and, by the engine's reading of the
    lost list, no hasty attack."""
    at = '"349R" = "1124", "365R" = "1224" }'
    for flipped in (False, True):
        word = " flipped" if flipped else ""
        s = state('phasing = "german"\nstep = "movement"\nreleased = true\n'
                  f'at = {{ "110PG/I" = "1021{word}", "110PG/II" = "1021{word}", ' + at)
        s.apply("move 1021")
        s.apply("to 1122")
        s.apply("to 1123")
        assert ("hasty 1124" in acts(s)) is not flipped
    with pytest.raises(IllegalAction, match=r"^3\.1\b"):
        s.apply("hasty 1124")


def test_6_a_move_may_pass_through_a_full_hex_but_not_end_there() -> None:
    """6: 'Stacking limits must be satisfied at the end of each unit's movement (prior to
    hasty combat)': 61K and 61Pzj may move through 1021, where three battalions stand,
    but neither may stop there; Adam, with one movement point left on entering it, may not enter."""
    full = '"110PG/I" = "1021", "110PG/II" = "1021", "111PG/I" = "1021", '
    s = state('phasing = "german"\nstep = "movement"\nat = { ' + full
              + '"61K" = "1022", "61Pzj" = "1022" }')
    s.apply("move 1022")
    s.apply("to 1021")
    assert "stop" not in acts(s) and not any(a.startswith("drop") for a in acts(s))
    for ending in ("stop", "drop 61K"):
        with pytest.raises(IllegalAction, match=r"^6: stacking limits must be met at the end"):
            s.apply(ending)
    s.apply("to 1020")
    s.apply("stop")
    assert s.pos.units["61K"].hex == "1020" and fits(s, "1021", "german")
    s = state('phasing = "german"\nstep = "movement"\nat = { ' + full + '"Adam" = "1026" }')
    s.apply("move Adam")
    for h in ("1025", "1024", "1023", "1022"):
        s.apply(f"to {h}")
    assert s.pos.units["Adam"].spent == (4, 1) and allowance_halves(s, "Adam") == 10
    assert "to 1021" not in acts(s)  # its last MP: it would end its move there
    with pytest.raises(IllegalAction, match=r"^6: 1021 would be over the stacking limit"):
        s.apply("to 1021")


def test_6_a_reinforcement_may_enter_through_a_full_entry_hex_but_not_stop_there() -> None:
    """6 with 9.1: entering is movement, so an arrival may enter a full entry hex and
    move on; not where an enemy ZOC would end its move in it (5, stand-in)."""
    full = '"110PG/I" = "1136", "110PG/II" = "1136", "111PG/I" = "1136"'
    s = state('phasing = "german"\nstep = "movement"\nat = { ' + full + ' }')
    s.pos.units["15Pz/I"].where = "due"
    s.forget_options()  # the position edited by hand, outside any step
    assert "enter 15Pz/I 1136" in acts(s)
    s.apply("enter 15Pz/I 1136")
    assert "stop" not in acts(s)
    s.apply("to 1236")
    s.apply("stop")
    s = state('phasing = "german"\nstep = "movement"\nat = { ' + full + ', "349R" = "1135" }')
    s.pos.units["15Pz/I"].where = "due"
    assert "1136" in zoc(s, "soviet") and "enter 15Pz/I 1136" not in acts(s)
    with pytest.raises(IllegalAction, match=r"^6: 15Pz/I may not enter 1136"):
        s.apply("enter 15Pz/I 1136")


def test_6_an_advance_may_pass_through_a_full_hex_but_not_end_there() -> None:
    """6: stacking limits must be satisfied 'after each retreat and/or advance', not in
    the hexes passed: after Adam's 2-hex retreat 44MR may advance through 0921, where
    three Soviet battalions stand, and must go on from it; with one hex of advance left
    it may not enter a full hex."""
    s = combat(["44MR", "14MR"], ["Adam"],
               'at = { "Adam" = "1021", "44MR" = "1020", "14MR" = "1020", "89T" = "0921", '
               '"117T" = "0921", "159T" = "0921" }', stage="attack")
    s.apply("fire 44MR Adam")
    s.apply("add 14MR")
    do(s, "roll")
    roll(s, 4)  # "2-1": Adam retreats 2, the attackers may advance 2
    s.apply("retreat")
    while s.current_player() == "german":
        s.apply(s.legal_actions()[0])
    assert s.pos.combat is not None and s.pos.combat.advance == {"44MR": 2, "14MR": 2}
    s.apply("advance 44MR 0921")
    assert "end-advance" not in acts(s) and not any("14MR" in a for a in acts(s))
    s.apply("advance 44MR 0820")
    assert fits(s, "0921", "soviet") and "end-advance" in acts(s)
    s.apply("advance 14MR 1021")
    assert "advance 14MR 0921" not in acts(s)  # one hex left: it would end there


# -- 9 / 9.1: setup, release, the plan ------------------------------------------------------


def test_9_setup_personnel_only_on_the_starting_front() -> None:
    s = ENGINE.new_state("chir")
    assert s.decision() is not None and s.decision().kind == "setup"
    assert s.current_player() == "german"
    with pytest.raises(IllegalAction, match=r"^9\b"):
        s.apply("place Adam 1030")  # personnel: hexes adjacent to the front only
    front = sorted(s.d.areas["front_german"])
    ok = next(a for a in acts(s) if a.startswith("place Adam "))
    assert ok.split()[2] in front


def test_9_weapons_may_not_set_up_in_an_enemy_zoc() -> None:
    """9: 'Weapons units may not set up in enemy ZOCs' (the German sets up first, so his
    ZOCs bind the Soviet set-up): 2807 is within three hexes of the 1st Tank Corps' area
    on the Soviet side, but a German stack controls it."""
    s = ENGINE.new_state("chir")
    s.apply("setup-done")
    assert s.current_player() == "soviet"
    assert s.d.map.distance("2807", s.d.formations["1tc"].area) <= 3
    assert s.d.side_of_hex("2807") == "soviet" and "2807" in zoc(s, "german")
    assert "place 1TC/Art 2807" not in acts(s)
    with pytest.raises(IllegalAction, match=r"^9\b"):
        s.apply("place 1TC/Art 2807")
    assert any(a.startswith("place 1TC/Art ") for a in acts(s))


def test_9_the_7th_luftwaffe_division_waits_until_released() -> None:
    s = state('phasing = "german"\nstep = "movement"\nturn = 3\n'
              'at = { "7LW/I" = "2226", "349R" = "2220" }')
    assert "move 7LW/I" not in acts(s)
    s = state('phasing = "german"\nstep = "movement"\nturn = 7\nat = { "7LW/I" = "2226" }')
    with s.telling() as (told, _):
        check_release(s)
    assert s.pos.released  # on turn 7 whatever the Soviet units do
    assert [e.text for e in told] == ["the 7th Luftwaffe Field Division is released"]


def test_9_1_the_11th_panzer_enters_on_turn_2_at_area_g() -> None:
    """9.1: 'the German 11th Panzer Division enters on turn 2 at area G': nothing to
    enter in the German Movement Phase of turn 1, every unit of it at G's hexes on
    turn 2."""
    s = ENGINE.new_state("chir")
    entries: dict[int, list[str]] = {}
    while not (s.pos.phasing == "german" and s.pos.turn == 2
               and s.decision().kind == "movement"):
        if s.is_chance():
            s.apply_outcome((1,))
            continue
        if s.pos.phasing == "german" and s.decision().kind == "movement":
            entries[s.pos.turn] = [a for a in acts(s) if a.startswith("enter ")]
        s.apply(s.decision().default)
    assert entries[1] == []
    now = [a.split() for a in acts(s) if a.startswith("enter ")]
    pz = sorted(u for u, i in s.d.units.items() if i.formation == "11pz")
    assert sorted({u for _, u, _ in now}) == pz
    assert {h for _, _, h in now} <= set(s.d.entry["G"])
    with pytest.raises(IllegalAction, match=r"9\.1"):
        s.apply("end-movement")  # as many as possible must enter


def test_9_1_a_committed_plan_cannot_be_changed_and_a_wrong_reveal_is_refused() -> None:
    from engines.panzer48.reinforcements import digest_of
    s = ENGINE.new_state("first-day")
    s.apply("setup-done")
    s.apply("setup-done")
    assert s.decision() is not None and s.decision().kind == "reinforcement-plan"
    salt = bytes(range(32))
    commit = f"commit 321 2 {digest_of('321', 'B', salt)}"
    s.apply(commit)  # a session's commitment: only the digest
    assert s.pos.plan_turns["321"] == 2 and s.pos.plan_areas == {}
    with pytest.raises(IllegalAction, match=r"9\.1"):
        s.apply(f"commit 321 2 {digest_of('321', 'C', salt)}")  # a changed plan
    s.apply("plan 6gc 2 A")
    # on turn 2 the Soviet movement phase opens with the reveal
    while not (s.decision() is not None and s.decision().kind == "movement"
               and s.pos.turn == 2 and s.pos.phasing == "soviet"):
        if s.is_chance():
            s.apply_outcome((3,))
        else:
            d = s.decision()
            assert d is not None
            s.apply(d.default if d.default is not None else s.legal_actions()[0])
    with pytest.raises(IllegalAction, match=r"9\.1"):
        s.apply(f"open 321 C {salt.hex()}")  # not what was committed
    s.apply(f"open 321 B {salt.hex()}")
    assert s.pos.plan_areas["321"] == "B"


def test_9_1_session_commits_without_the_area_and_opens_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """9.1 through real files: the plan's areas are in no file before their turn, each
    reveal is checked by the receiver."""
    from pbem.audit import body_summary
    from pbem.selfplay import selfplay
    r = selfplay("48th-panzer-korps", "first-day", 2, tmp_path)
    assert r.desyncs == 0
    seen: list[str] = []
    for f in sorted((tmp_path / "files").iterdir()):
        for rec in body_summary(f.read_bytes()).get("records", []):
            if rec[0] in ("a", "o"):
                seen.append(rec[1])
    assert not any(a.startswith("plan ") or a.startswith("reveal ") for a in seen)
    commits = [a for a in seen if a.startswith("commit ")]
    opens = [a for a in seen if a.startswith("open ")]
    assert len(commits) == 2 and len(opens) >= 1
    for o in opens:
        assert len(o.split()[3]) == 64  # the salt, 32 bytes
    from pbem.audit import audit, collect
    report = audit(collect([tmp_path / "files"]))
    assert report.clean, report.problems
    assert sum("will arrive on turn" in c for c in report.commitments) == 2
    assert any("revealed, matches the commitment" in c for c in report.commitments)


def test_9_1_the_soviet_player_sees_his_own_plan_the_german_player_does_not(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """9.1: the plan is written before play and stays the Soviet player's until each area
    is revealed: his own screens (view, status, show) rebuild it from his key; the German
    player's do not, and no file in either home or between them holds it."""
    from click.testing import CliRunner

    from engines.panzer48.reinforcements import digest_of
    from pbem.cli import main
    from pbem.selfplay import selfplay
    from pbem.session import Home
    r = selfplay("48th-panzer-korps", "first-day", 2, tmp_path, max_turns=1)
    assert r.desyncs == 0
    homes = {Home(tmp_path / f"home-{x}").game("selfplay-2").side: tmp_path / f"home-{x}"
             for x in "ab"}
    sov, ger = (Home(homes[side]).game("selfplay-2") for side in ("soviet", "german"))
    pos = sov.state.pos  # type: ignore[attr-defined]
    assert sorted(pos.plan_digests) == ["321", "6gc"] and not pos.plan_areas
    [note] = sov.private_notes()
    assert note.startswith("your plan (9.1, secret): ")
    for part in note.split(": ", 1)[1].split(", "):
        f, _, turn, _, area = part.split()
        assert int(turn) == pos.plan_turns[f]
        # the area shown is the one committed: it alone opens the digest with his salt
        matching = [a for a, _ in sov.state.d.formations[f].schedule  # type: ignore[attr-defined]
                    if digest_of(f, a, sov._commit_salt(f)) == pos.plan_digests[f]]
        assert matching == [area]
    assert note in sov.view().status
    # the German player's game: no notes; the same position with his own key finds nothing
    assert ger.private_notes() == [] and "your plan" not in ger.view().status
    assert "area unknown" in ger.state.private_notes("soviet", ger._commit_salt)[0]
    runner = CliRunner()
    out = {side: runner.invoke(main, ["--home", str(homes[side]), "status", "selfplay-2"])
           for side in homes}
    assert out["soviet"].exit_code == 0 and note in out["soviet"].output
    assert out["german"].exit_code == 0 and "your plan" not in out["german"].output
    shown = runner.invoke(main, ["--home", str(homes["soviet"]), "show", "selfplay-2"])
    assert shown.exit_code == 0 and "your plan (9.1" in shown.output
    # no file holds it: saves, sealed records and turn files alike
    for path in tmp_path.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert b"your plan" not in data and note.encode() not in data, path


# -- 10: victory --------------------------------------------------------------------------------


def test_10_town_and_bridge_points_and_the_five_point_margin() -> None:
    s = state("")
    sc = score(s)
    assert sc["german"] == 45 + 30 and sc["soviet"] == 0
    s.pos.control["3508"] = "soviet"
    assert score(s)["soviet"] == 5


def test_10_control_goes_to_the_side_that_entered_last() -> None:
    s = state('at = { "89T" = "3508" }')
    update_control(s)
    assert s.pos.control["3508"] == "soviet"


def test_2_1_losses_past_the_printed_strength_eliminate_and_score() -> None:
    s = state('at = { "Adam" = "1021" }')
    with s.telling() as (told, _):
        lose(s, "Adam", 5, "8")
    assert s.pos.units["Adam"].where == "dead" and s.pos.kills["soviet"] == 3
    assert [(e.text, e.rule) for e in told] == [("Adam is eliminated", "2.1")]


# -- refusals naming their rule -----------------------------------------------------------------


def test_7_2_a_unit_fires_once_and_a_target_is_fired_on_once_per_combat() -> None:
    s = combat(["44MR", "14MR"], ["Adam", "Selle"],
               'at = { "Adam" = "1021", "Selle" = "1021", "44MR" = "1020", "14MR" = "1020" }',
               stage="attack")
    s.apply("fire 44MR Adam")
    do(s, "roll")
    roll(s, 1)  # column 4, roll 1: no effect
    with pytest.raises(IllegalAction, match=r"7\.2"):
        s.apply("fire 44MR Selle")  # 44MR has fired
    with pytest.raises(IllegalAction, match=r"7\.2"):
        s.apply("fire 14MR Adam")  # Adam has been fired on


def test_7_6_artillery_supports_only_at_range_and_not_adjacent() -> None:
    s = state('phasing = "soviet"\nstep = "prepared"\n'
              'began_adjacent = ["44MR"]\n'
              'at = { "Adam" = "1021", "44MR" = "1020", "1TC/Art" = "1017", '
              '"119/Art" = "1012" }')
    s.apply("attack 1021")
    assert "support 1TC/Art" in acts(s)  # 4 hexes away, range 4
    with pytest.raises(IllegalAction, match=r"7\.6"):
        s.apply("support 119/Art")  # 9 hexes away


def test_3_1_only_units_adjacent_at_the_start_make_prepared_attacks() -> None:
    s = state('phasing = "soviet"\nstep = "prepared"\nbegan_adjacent = []\n'
              'at = { "Adam" = "1021", "44MR" = "1020" }')
    with pytest.raises(IllegalAction, match=r"^7\b"):
        s.apply("attack 1021")


def test_9_1_the_movement_phase_cannot_end_while_an_arrival_can_enter() -> None:
    s = state('phasing = "german"\nstep = "movement"\nturn = 2\n'
              'units = { "61K" = { where = "due" } }')
    assert any(a.startswith("enter 61K ") for a in acts(s))
    with pytest.raises(IllegalAction, match=r"9\.1"):
        s.apply("end-movement")
    s.apply("enter 61K 1036")
    assert s.pos.units["61K"].hex == "1036"


def test_10_soviet_units_exit_only_at_south_edge_road_hexes() -> None:
    s = state('phasing = "soviet"\nstep = "movement"\nat = { "89T" = "2235" }')
    s.apply("move 89T")
    with pytest.raises(IllegalAction, match=r"^10\b"):
        s.apply("exit")
    s.apply("to 2236")
    s.apply("exit")
    assert s.pos.units["89T"].where == "exited" and s.pos.exits == {"2236": 4}


def test_10_exit_points_need_a_road_path_free_of_german_units_and_zoc() -> None:
    s = state('phasing = "soviet"\nstep = "movement"\nat = { "89T" = "2235" }')
    s.apply("move 89T")
    s.apply("to 2236")
    s.apply("exit")
    base = score(s)["soviet"]
    s.pos.exits["2236"] = 4
    assert base == 4  # 1 point per step, a road to area B through Surovikino
    blocked = state('at = { "Adam" = "2226", "Selle" = "2226" }')
    blocked.pos.exits["2236"] = 4
    assert score(blocked)["soviet"] == 0  # the road is German-held at 2226


# -- issue 31: 4/5 halts, hasty attack groups, the 7th Luftwaffe release -----------------------


def resolve_combat(s: P48State) -> None:
    """Play the combat in progress to its end with rolls of 1 (no effect at low columns)."""
    while s.pos.combat is not None:
        if s.is_chance():
            s.apply_outcome((1,))
            continue
        d = s.decision()
        assert d is not None
        s.apply(d.default)


def test_5_a_unit_halted_in_an_enemy_zoc_stays_halted_after_its_stacks_hasty_attack() -> None:
    """5 (stand-in: entering an enemy-controlled hex ends the move) with 4 ("any other
    units may continue ordinary movement"): Adam and Selle enter 1020 beside 349R (4
    steps, a ZOC) and are halted; Adam's hasty attack on 349R does not free Selle: no
    step out of 1020, no new move, no exit roll."""
    s = state('phasing = "german"\nstep = "movement"\n'
              'at = { "Adam" = "1019", "Selle" = "1019", "349R" = "1021" }')
    assert "1020" in zoc(s, "soviet") and "1019" not in zoc(s, "soviet")
    s.apply("move 1019")
    s.apply("to 1020")
    assert not any(a.startswith("to ") for a in acts(s))  # halted on entering
    s.apply("hasty 1021")
    s.apply("with Adam")
    s.apply("go")
    resolve_combat(s)
    assert s.pos.units["Selle"].hex == "1020"
    assert not any(a.startswith("to ") for a in acts(s)), acts(s)
    assert not s.is_chance()
    if s.decision().kind == "move":
        s.apply("stop")
    assert "move Selle" not in acts(s) and "move 1020" not in acts(s)
    with pytest.raises(IllegalAction, match="4"):
        s.apply("move Selle")
    assert s.pos.units["Selle"].hex == "1020"


def test_4_only_units_that_began_the_phase_stacked_together_combine_in_a_hasty_attack(
) -> None:
    """4: 'only units which began the phase stacked together may participate in the same
    hasty attack'.  110PG/I and /II begin in 1021, 61K in 1123.  The stack moves to 1123
    (2-step Soviet units exert no ZOC), 110PG/I attacks 1124 alone; 110PG/II goes on
    (4: the others may continue), picks up 61K and attacks 1023: either may attack, but
    not together, because they did not begin the phase in one hex."""
    s = state('phasing = "german"\nstep = "movement"\nreleased = true\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021", "61K" = "1123", '
              '"14MR" = "1124 -1", "44MR" = "1023 -2" }')
    s.apply("move 1021")
    s.apply("to 1122")
    s.apply("to 1123")
    s.apply("hasty 1124")
    s.apply("with 110PG/I")
    s.apply("go")
    resolve_combat(s)
    assert s.decision().kind == "move" and s.pos.moving == ["110PG/II"]
    s.apply("pickup 61K")
    s.apply("hasty 1023")
    assert {a for a in acts(s) if a.startswith("with ")} == {"with 110PG/II", "with 61K"}
    s.apply("with 110PG/II")
    assert "with 61K" not in acts(s)
    with pytest.raises(IllegalAction, match=r"^4\b.*began the phase stacked together"):
        s.apply("with 61K")


def test_9_the_7th_luftwaffe_is_released_when_a_soviet_unit_moves_within_two_hexes() -> None:
    """9: released 'on turn 7 or whenever a Soviet unit moves within two hexes': 89T
    standing in 5126, two hexes from 7LW/I in 4925, releases nothing while the German
    player moves or the turn advances; 89T moving from 5127 (three hexes) to 5126 does."""
    s = state('phasing = "german"\nstep = "movement"\nturn = 3\n'
              'at = { "7LW/I" = "4925", "89T" = "5126", "Adam" = "1021" }')
    assert s.d.map.distance("5126", "4925") == 2
    s.apply("move Adam")
    s.apply("to 1022")
    s.apply("stop")
    assert not s.pos.released and "move 7LW/I" not in acts(s)
    s.apply("end-movement")
    while s.pos.phasing == "german" or s.pos.turn == 3:
        if s.is_chance():
            s.apply_outcome((1,))
            continue
        s.apply(s.decision().default)
    assert s.pos.turn == 4 and not s.pos.released
    s = state('phasing = "soviet"\nstep = "movement"\nturn = 3\n'
              'at = { "7LW/I" = "4925", "89T" = "5127" }')
    assert s.d.map.distance("5127", "4925") == 3 and not s.pos.released
    s.apply("move 89T")
    s.apply("to 5126")
    assert s.pos.released


# -- issue 31: 8.3 retreats that run long, overstack, or leave by the map edge ----------------

#: Soviet stacks of 3 or more steps around 1030 whose ZOCs cover every hex one to four
#: hexes from it (none occupies a hex next to it but the firer's 1029)
BELT = {"1085R": "0729", "1087R": "0732", "1118R": "1032", "1120R": "1329", "117T": "1332",
        "14MR": "1027", "157T": "0934", "159T": "0730", "168T": "1133", "19T": "1230",
        "349R": "0727", "365R": "0830", "36MB": "1127", "45MB": "1330"}


def test_8_3_a_retreat_goes_on_through_enemy_zoc_until_it_reaches_a_noncontrolled_hex(
) -> None:
    """8.3 ZOC Effects: 'A unit may not end its retreat in an enemy-controlled hex. It
    must continue retreating until it reaches a noncontrolled hex.'  89T fires from 1029
    at 15Pz/I in 1030: "1-0", a 1-hex retreat; Soviet ZOCs cover every hex up to four
    from 1030, so the retreat runs five hexes (four past its length), losing a step in
    each of the four controlled hexes, and the 5-step tank battalion survives."""
    at = ", ".join(f'"{u}" = "{h}"' for u, h in BELT.items())
    s = state('phasing = "soviet"\nstep = "attack-fire"\n'
              'combat = { hex = "1030", attacker = "soviet", prepared = false, '
              'stage = "attack", attackers = ["89T"], defenders = ["15Pz/I"] }\n'
              'at = { "15Pz/I" = "1030", "89T" = "1029", ' + at + ' }')
    ez, m = zoc(s, "soviet"), s.d.map
    assert all(h in ez or s.at(h) for h in m.ids if 1 <= m.distance(h, "1030") <= 4)
    s.apply("fire 89T 15Pz/I")
    do(s, "roll")
    roll(s, 3)  # value 4 against armor, one column left for its armor: "1-0"
    s.apply("retreat")
    paths = [a.split()[1].split("-") for a in acts(s)]
    assert paths and all(len(p) == 5 for p in paths), acts(s)
    assert all(sum(h in ez for h in p) == 4 and p[-1] not in ez for p in paths)
    s.apply(acts(s)[0])
    tank = s.pos.units["15Pz/I"]
    assert tank.where == "map" and tank.hex == paths[0][-1] and tank.losses == 4


def test_8_3_overstacked_retreat_the_owner_picks_units_to_eliminate() -> None:
    """8.3 Stacking: 'If the unit cannot reach such a hex, the owning player must
    eliminate retreating units of his choice to relieve the overstacking.'  Adam and
    Selle in 1021 retreat one hex; the only way out is 1022, where 110PG/I and /II
    stand (two battalions: three is the limit), and every hex beyond it is Soviet-held
    (2-step units: no ZOC).  The stack retreats to 1022 and the German player eliminates
    one unit of his choice; the other survives there."""
    s = state('phasing = "soviet"\nstep = "attack-fire"\n'
              'combat = { hex = "1021", attacker = "soviet", prepared = false, '
              'stage = "attack", attackers = ["44MR"], defenders = ["Adam", "Selle"] }\n'
              'at = { "Adam" = "1021", "Selle" = "1021", "110PG/I" = "1022", '
              '"110PG/II" = "1022", "44MR" = "1020 -2", "14MR" = "0921 -1", '
              '"157T" = "0922 -1", "159T" = "1121 -1", "19T" = "1122 -1", '
              '"168T" = "0923 -1", "55T" = "1023 -1", "89T" = "1123 -2" }')
    assert not zoc(s, "soviet").hexes and not fits(s, "1022", "german", ["Adam", "Selle"])
    s.apply("fire 44MR Adam")
    do(s, "roll")
    roll(s, 4)  # value 2: "1-0"
    s.apply("retreat")  # the one path, 1022, is taken without asking
    assert s.at("1022", "german") == ["110PG/I", "110PG/II", "Adam", "Selle"]
    assert s.current_player() == "german"
    assert acts(s) == ["eliminate Adam", "eliminate Selle"]
    s.apply("eliminate Selle")
    assert s.pos.units["Selle"].where == "dead" and s.pos.kills["soviet"] == 3
    assert s.pos.units["Adam"].where == "map" and s.pos.units["Adam"].hex == "1022"
    assert fits(s, "1022", "german")
    assert s.current_player() == "soviet"  # the retreat is over: the attacker fires on


def edge_trap() -> P48State:
    """Adam in 1035, one hex in from the south edge, 44MR firing from 1034; Soviet units
    in 0935, 0936, 1135 and 1136 leave only 1036, an edge hex in enemy ZOC with no hex
    beyond it on the map."""
    s = state('phasing = "soviet"\nstep = "attack-fire"\n'
              'combat = { hex = "1035", attacker = "soviet", prepared = false, '
              'stage = "attack", attackers = ["44MR"], defenders = ["Adam"] }\n'
              'at = { "Adam" = "1035", "44MR" = "1034", "349R" = "1136", "365R" = "0936", '
              '"89T" = "1135", "117T" = "0935" }')
    assert "1035" not in s.d.edge and "1036" in s.d.edge and "1036" in zoc(s, "soviet")
    s.apply("fire 44MR Adam")
    do(s, "roll")
    roll(s, 2)  # value 4: "1-0"
    return s


def test_8_3_map_edge_a_unit_one_hex_in_retreats_off_through_the_edge_hex() -> None:
    """8.3 Map-Edge: 'Units may retreat off the map-edge, but only if they would be
    eliminated otherwise': Adam has no retreat on the map (1036 is controlled and leads
    nowhere), so it retreats through 1036, losing a step there, and off the map."""
    from engines.panzer48.position import RetreatArgs
    from engines.panzer48.steps.retreat import Retreat
    s = edge_trap()
    args = RetreatArgs(["Adam"], "1035", 1, True)
    assert [a.notation() for a in Retreat().options(s, args)] == ["path 1036-off"]
    s.apply("retreat")  # the one way is taken without asking
    adam = s.pos.units["Adam"]
    assert adam.where == "off" and adam.hex == "1036" and adam.losses == 1


def test_8_3_map_edge_units_off_the_map_must_re_enter_in_the_next_movement_phase() -> None:
    """8.3 Map-Edge: 'They re-enter the map via the same hex retreated from, during the
    owning player's next Movement Phase': Adam, off the south edge at 2036, must enter
    there before the German Movement Phase can end."""
    s = edge_retreat()
    assert [a for a in acts(s) if "Adam" in a] == ["enter Adam 2036"]
    assert "end-movement" not in acts(s)
    with pytest.raises(IllegalAction, match=r"^8\.3\b"):
        s.apply("end-movement")
    s.apply("enter Adam 2036")
    assert s.pos.units["Adam"].where == "map" and s.pos.units["Adam"].hex == "2036"


def test_8_4_advancing_units_ignore_zocs_along_the_exact_retreat_path_from_the_vacated_hex(
) -> None:
    """8.4: 'Advancing units may ignore enemy ZOCs when following the exact path along
    which defending units retreated. Otherwise, advancing units must stop when they
    enter an enemy-controlled hex.'  Adam retreats from 1021 by 1022-1023; Selle in 1121
    controls 1021 and 1022.  44MR follows the path (1021, the vacated hex, then 1022)
    through the ZOC; 14MR, once it leaves the path (1021, then 1122), stops there."""
    s = combat(["44MR", "14MR"], ["Adam"],
               'at = { "Adam" = "1021", "Selle" = "1121", "44MR" = "1020", "14MR" = "1020" }',
               stage="attack")
    assert {"1021", "1022", "1122"} <= zoc(s, "german").hexes
    s.apply("fire 44MR Adam")
    s.apply("add 14MR")
    do(s, "roll")
    roll(s, 4)  # "2-1": Adam retreats 2
    s.apply("retreat")
    s.apply("path 1022-1023")
    assert s.pos.units["Adam"].hex == "1023"
    s.apply("advance 44MR 1021")
    assert "advance 44MR 1022" in acts(s)
    s.apply("advance 44MR 1022")
    assert s.pos.units["44MR"].hex == "1022"
    s.apply("advance 14MR 1021")
    s.apply("advance 14MR 1122")
    assert not any(a.startswith("advance 14MR") for a in acts(s))


# -- 3 / 7 / 7.1: the sequence of play and of a combat -----------------------------------------


def test_3_soviet_player_turn_then_german_player_turn_then_the_turn_marker() -> None:
    """3: each game turn is I. the Soviet player turn, II. the German player turn (each
    A. Prepared Combat Phase, B. Movement Phase), III. the Turn marker advances."""
    s = state('turn = 1\nat = { "Adam" = "1021", "44MR" = "1019" }')
    phases = []
    while s.pos.turn == 1:
        if s.is_chance():
            s.apply_outcome((1,))
            continue
        if s.pos.phase in ("prepared", "movement"):
            phases.append((s.pos.phasing, s.pos.phase))
        s.apply(s.decision().default)
    seen = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]
    assert seen == [("soviet", "prepared"), ("soviet", "movement"), ("german", "prepared"),
                    ("german", "movement")]
    assert s.pos.turn == 2 and s.pos.phasing == "soviet" and s.pos.phase == "prepared"


def test_7_1_the_defender_fires_first_then_the_attacker_then_the_advance() -> None:
    """7.1: A. the attacker declares the attacking units and artillery; B. the defending
    units fire, one fire at a time; C. the remaining attackers fire; D. the advance."""
    s = state('phasing = "soviet"\nstep = "prepared"\nbegan_adjacent = ["44MR"]\n'
              'at = { "Adam" = "1021", "44MR" = "1020" }')
    s.apply("attack 1021")
    assert s.decision().kind == "declare-attack" and s.current_player() == "soviet"
    s.apply("with 44MR")
    s.apply("go")
    assert s.decision().kind == "defensive-fire" and s.current_player() == "german"
    assert acts(s) == ["fire Adam 44MR", "end-fire"]
    s.apply("fire Adam 44MR")
    do(s, "roll")
    roll(s, 1)  # value 3 against personnel, column 3: no effect
    # Adam has fired (each unit once, 7.2): nothing is left to the defender but to end
    # his fire, which the engine does by itself
    assert s.decision().kind == "attack-fire" and s.current_player() == "soviet"
    assert acts(s) == ["fire 44MR Adam", "end-fire"]


def test_7_every_attack_involves_an_adjacent_unit_against_one_defending_hex() -> None:
    """7: 'Every attack must involve at least one unit adjacent to the defender. Each
    attack must be directed against a single defending hex.'  Artillery alone cannot
    attack; a unit adjacent only to another Soviet hex cannot join."""
    s = state('phasing = "soviet"\nstep = "prepared"\nbegan_adjacent = ["44MR", "14MR"]\n'
              'at = { "Adam" = "1021", "Selle" = "1023", "44MR" = "1020", '
              '"14MR" = "1024", "1TC/Art" = "1017" }')
    s.apply("attack 1021")
    assert "with 14MR" not in acts(s)  # adjacent to Selle in 1023, not to 1021
    s.apply("support 1TC/Art")
    assert "go" not in acts(s)
    with pytest.raises(IllegalAction, match=r"^7\b.*at least one adjacent unit"):
        s.apply("go")
    with pytest.raises(IllegalAction, match=r"^7\b"):
        s.apply("with 14MR")
    s.apply("with 44MR")
    s.apply("go")
    assert s.pos.combat is not None and s.pos.combat.hex == "1021"


def test_9_the_release_is_told_where_a_unit_only_leaves_the_map() -> None:
    """9: on turn 7 the 7th Luftwaffe is released, and the book marks the Turn Record
    Track "to remind the German player of the release".  In a position set up on turn 8
    with the division not yet released, the first thing that changes the board is a lone
    unit's elimination (8.1, a failed check; nobody is left to retreat): the release is
    told there too (the engine used to make it silently where units only left the map)."""
    s = combat(["44MR", "14MR"], ["686/II"],
               'at = { "686/II" = "1021", "44MR" = "1020", "14MR" = "1020", '
               '"7LW/I" = "2226" }\nturn = 8', stage="attack")
    assert not s.pos.released
    s.apply("fire 44MR 686/II")
    s.apply("add 14MR")
    do(s, "roll")
    s.apply_outcome((4,))  # "2-1"
    s.apply("check")
    events = s.apply_outcome((5,))  # morale 4 failed: 686/II eliminated
    assert s.pos.units["686/II"].where == "dead" and s.pos.released
    assert [e.rule for e in events
            if e.text == "the 7th Luftwaffe Field Division is released"] == ["9"]


def test_slope_extra_is_charged_on_every_uphill_step_off_the_road_only() -> None:
    """4: climbing a slope hexside costs extra unless the move follows a road; the
    compiled tables read the uphill steps from a set found once (issue 35), which must be
    the rule read step by step from the map, for every step of it."""
    from engines.panzer48.data import data

    d = data()
    m = d.map
    uphill = 0
    for i, a in enumerate(m.ids):
        for b in (m.ids[j] for j in m.adjacency[i]):
            climbs = not m.connected("road", a, b) and m.faces_toward("slope", a, b) == b
            uphill += climbs
            assert d._slope(3, a, b, 1) == (4 if climbs else 1), (a, b)
    assert uphill > 50
