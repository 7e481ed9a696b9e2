"""Von Manstein's Backhand Blow: the exclusive rules' positions and results, set up with
pbem.setup (rule numbers in each test's name)."""

from __future__ import annotations

import pytest

from engines.backhand import ENGINE
from engines.backhand.combat import integrity
from engines.backhand.control import control, put
from engines.backhand.fronts import in_range
from engines.backhand.state import BBState
from engines.backhand.steps.turn import next_weather
from engines.backhand.supply import supply_net
from engines.backhand.victory import victory
from pbem.errors import ActionSyntaxError, IllegalAction
from pbem.setup import setup

SC = "high-water-mark"
GERMAN_MOVE = ('stack = [["game", 0, {}], ["turn", 13, {}], ["seg-run", 6, { side = "german", '
               'kind = "sp", no = 1, stage = 6, first = "move" }], ["move", 0, '
               '{ side = "german", kind = "sp" }]]')


def at(text: str, scenario: str = SC) -> BBState:
    s = setup(ENGINE, scenario, text)
    assert isinstance(s, BBState)
    return s


def test_5_1_mud_after_mud_is_deep_mud() -> None:
    assert next_weather("mud", "mud") == "deep"
    assert next_weather("deep", "mud") == "deep"
    assert next_weather("frozen", "mud") == "mud"
    assert next_weather("mud", "frozen") == "frozen"


def test_5_0_turn_one_is_frozen_and_starts_with_the_soviet_segment() -> None:
    s = ENGINE.new_state(SC)
    assert s.pos.weather == "frozen"  # type: ignore[attr-defined]
    assert s.decision() is not None and s.decision().kind == "fronts"  # type: ignore[union-attr]


def test_8_1_c3i_by_weather() -> None:
    d = at("clear = true").data
    assert d.c3i(6, "soviet", "frozen") == 4
    assert d.c3i(6, "soviet", "mud") == 2
    assert d.c3i(6, "german", "deep") == 0


def test_6_0_no_zoc_into_cities() -> None:
    s = at('clear = true\nplace = { "12T" = "2610" }')
    assert "2510" not in s.zoc("soviet")  # Kharkov is next to 2610
    assert "2609" in s.zoc("soviet")


def test_3_1_control_lost_when_no_zoc_reaches() -> None:
    s = at('clear = true\nplace = { "12T" = "2610" }')
    assert control(s, "2609") == "soviet"
    s2 = at('clear = true\nplace = { "12T" = "3010" }')
    assert control(s2, "2609") is None


def test_3_1_control_lost_to_a_move_next_to_the_hex_after_a_move_elsewhere() -> None:
    # 12T's ZOC gives the Soviets 2312 (a variable reinforcement hex, no city); a German
    # move far away leaves it so, and LAH-1 into 2412, next to it, takes it away
    s = at('clear = true\nplace = { "12T" = "2211", "LAH-1" = "2514", "DF" = "1010" }\n'
           'phasing = "german"\nap = { german = 2 }\n' + GERMAN_MOVE)
    s.apply("move DF")
    assert "2312 is Soviet controlled" in [e.text for e in s.apply("to 1011")]
    s.apply("move LAH-1")
    events = s.apply("to 2412")
    assert [(e.text, e.rule) for e in events if e.kind == "control"] == [
        ("2312 is no longer Soviet controlled", "3.1")]
    assert s.pos.sov_control == []  # type: ignore[attr-defined]


def test_9_0_even_points_split_evenly() -> None:
    s = at('step = "c3i"\nphasing = "soviet"')
    s.apply("spend 2")
    s.apply_outcome((3,))  # column 2, roll 3: 3 points, odd
    d = s.decision()
    assert d is not None and d.kind == "split"
    s.apply("extra voronezh")
    assert s.pos.ap == {"german": 0, "southwest": 1, "voronezh": 2}  # type: ignore[attr-defined]


def test_4_2_zero_c3i_ends_the_segment() -> None:
    s = at('step = "c3i"\nphasing = "soviet"')
    s.apply("spend 0")
    # no phases: the first German Schwerpunkt segment follows at once
    assert s.pos.segment == "german Schwerpunkt 1"  # type: ignore[attr-defined]


def test_10_1_soviet_stacking_three_divisions() -> None:
    s = at('clear = true\nplace = { "111" = "3313", "184" = "3313", "305" = "3313" }')
    assert not s.stack_ok("3313", "soviet", ["180"])
    assert s.stack_ok("3314", "soviet", ["180"])


def test_10_2_german_formation_counts_two_third_element_free() -> None:
    s = at('clear = true\nplace = { "LAH-1" = "2912", "LAH-2" = "2912", "LAH-Pz" = "2912",'
           ' "Dsch" = "2912", "DF" = "2912" }')
    # LAH (3 elements) counts 2, Das Reich's two elements 2: four regiments
    assert s.stack_ok("2912", "german", [])
    assert s.stack_ok("2912", "german", ["DR-Pz"])  # the third element stacks free
    assert not s.stack_ok("2912", "german", ["FJ11"])


def test_16_74_integrity_bonus() -> None:
    s = at('clear = true\nplace = { "LAH-1" = "2912", "LAH-2" = "2912", "Ger" = "3533",'
           ' "Nor" = "3533" }')
    assert integrity(s, "LAH-1") == 2
    assert integrity(s, "Ger") == 0  # Wiking needs two others of the formation
    s2 = at('clear = true\nplace = { "Ger" = "3533", "Nor" = "3533", "Wes" = "3533" }')
    assert integrity(s2, "Ger") == 2


def test_14_0_range_twelve_hexes() -> None:
    s = at('clear = true\nfronts = { southwest = "3917", voronezh = "3704" }')
    assert in_range(s, "3929")  # 12 hexes
    assert not in_range(s, "3930")


def test_7_0_supply_sources() -> None:
    d = at("clear = true").data
    assert "4100" in d.soviet_supply and "4125" in d.soviet_supply
    assert "4126" not in d.soviet_supply
    assert "0125" in d.german_supply


def test_16_1_worse_than_1_2_is_automatic_4_0() -> None:
    s = at('clear = true\nplace = { "111" = "3313 1", "LAH-1" = "3213", "LAH-2" = "3213" }\n'
           'phasing = "soviet"\nstep = "combat"\nap = { southwest = 3, voronezh = 3 }\n'
           'fronts = { southwest = "3917", voronezh = "3704" }')
    s.apply("attack 3213")
    s.apply("with 111")
    s.apply("resolve")
    s.apply("no-chit")
    s.apply("no-chit")
    events = s.apply_outcome((3, 4))
    assert any("automatic 4/0" in e.text for e in events)


def test_16_8_snafu_on_unmodified_3() -> None:
    s = at('clear = true\nplace = { "12T" = "3313", "15T" = "3313", "LAH-1" = "3213 1" }\n'
           'phasing = "soviet"\nstep = "combat"\nap = { southwest = 3, voronezh = 3 }')
    s.apply("attack 3213")
    s.apply("with 12T")
    s.apply("resolve")
    s.apply("no-chit")
    s.apply("no-chit")
    events = s.apply_outcome((1, 2))
    assert any(e.rule == "16.8" for e in events)


def test_16_724_no_combat_into_a_swamp() -> None:
    s = at('clear = true\nplace = { "12T" = "2714", "LAH-1" = "2715" }\n'
           'phasing = "soviet"\nstep = "combat"\nap = { southwest = 3, voronezh = 3 }')
    assert s.data.map.terrain_of("2715") == "swamp"
    with pytest.raises(IllegalAction, match=r"16\.724"):
        s.apply("attack 2715")


def _attack_figures(text: str, target: str, units: tuple[str, ...]) -> tuple[object, int, int]:
    from engines.backhand.combat import AttackArgs, combat_figures
    s = at(text)
    a, d, drm, _ = combat_figures(s, AttackArgs("soviet", "sp", target, units, ("-", "-")))
    return a, d, drm


def test_16_722_attack_across_a_river_is_halved() -> None:
    # 2812/2813 is a Donets hexside (no bridge)
    a, _, _ = _attack_figures('clear = true\nplace = { "12T" = "2812", "LAH-1" = "2813" }',
                              "2813", ("12T",))
    assert a == 9 / 2  # 9 halved


def test_16_721_stream_minus_two_when_all_attack_across() -> None:
    # 2011/2012 is a stream hexside; 12T (tr 1) against 320-585 (tr 2) alone
    _, _, drm = _attack_figures('clear = true\nplace = { "12T" = "2011", "320-585" = "2012" }',
                                "2012", ("12T",))
    assert drm == 1 - 2 - 2  # tactical -1, stream -2


def test_16_722_retreat_stops_after_crossing_a_river() -> None:
    from engines.backhand.retreat import HitArgs, retreats
    s = at('clear = true\nplace = { "LAH-1" = "2813", "12T" = "2913" }')
    a = HitArgs("german", "soviet", "sp", "2812", 1, False, 1, True, ("12T",), (0, "2913"))
    assert retreats(s, a) == []


def test_15_1_no_administrative_movement_on_turn_one() -> None:
    s = ENGINE.new_state(SC)
    seen = set()
    for _ in range(40):
        d = s.decision()
        if d is None:
            break
        seen.add(d.kind)
        if d.kind == "c3i":
            break
        s.apply(d.default or d.options[-1])
    assert "admin" not in seen


def test_18_1_victory_soviet_city() -> None:
    s = at('clear = true\nplace = { "12T" = "2902" }')
    winner, text = victory(s)
    assert winner == "soviet" and "Belgorod" in text


def test_18_1_victory_german_nobody_west_of_the_donets() -> None:
    s = at('clear = true\nplace = { "12T" = "4110", "VK-Cha" = "2510" }')
    winner, _ = victory(s)
    assert winner == "german"


def test_17_0_uprising_success_flips_the_verfuegungskraefte() -> None:
    s = at('clear = true\nplace = { "VK-Cha" = "2510", "12T" = "2910" }\n'
           'phasing = "soviet"\nstep = "move"\nap = { southwest = 3, voronezh = 3 }\n'
           'fronts = { southwest = "3917", voronezh = "3704" }')
    s.apply("move 12T")
    s.apply("to 2810")
    req = s.chance_request()
    assert req.rule == "17.0"
    s.apply_outcome((6,))
    assert s.pos.units["VK-Cha"].at == "out"  # type: ignore[attr-defined]
    assert control(s, "2510") == "soviet"


def test_11_2_variable_reinforcement_lost_if_hex_was_soviet() -> None:
    s = at('ever_soviet = ["2510"]\nstep = "vr-draw"\nstack = [["game", 0, {}], '
           '["turn", 5, {}], ["vr-draw", 0, { n = 1 }]]')
    s.apply_outcome(("Arb",))
    assert s.pos.units["Arb"].at == "out"  # type: ignore[attr-defined]


def test_15_2_formation_moves_as_one_stack_for_one_point() -> None:
    s = at('clear = true\nplace = { "LAH-1" = "2912", "LAH-2" = "2912", "LAH-Pz" = "2912" }\n'
           'phasing = "german"\nap = { german = 1 }\n' + GERMAN_MOVE)
    s.apply("move LAH 2912")
    s.apply("to 2812")
    assert s.pos.ap["german"] == 0  # type: ignore[attr-defined]
    assert {s.pos.units[u].at for u in ("LAH-1", "LAH-2", "LAH-Pz")} == {"2812"}  # type: ignore[attr-defined]


def test_14_1_front_marker_displaced_when_the_enemy_enters() -> None:
    s = at('clear = true\nplace = { "12T" = "3917" }\nfronts = { southwest = "3716", '
           'voronezh = "3704" }')
    with s.telling() as (told, _):
        put(s, ["LAH-1"], "3716")
    assert [e.rule for e in told] == ["14.1"]  # told, though no step runs here
    new = s.pos.fronts["southwest"]  # type: ignore[attr-defined]
    assert new != "3716" and new not in s.zoc("german")
    # toward the Soviet supply edge (column 41), the nearest such hex
    assert s.data.map.distance(new, "3716") == 2 and int(new[:2]) > 37


def test_14_1_displacement_is_an_event_of_the_move() -> None:
    s = at('clear = true\nplace = { "12T" = "3917", "LAH-1" = "3616" }\nfronts = { '
           'southwest = "3716", voronezh = "3704" }\nphasing = "german"\n'
           'ap = { german = 1 }\n' + GERMAN_MOVE)
    s.apply("move LAH-1")
    events = s.apply("to 3716")
    new = s.pos.fronts["southwest"]  # type: ignore[attr-defined]
    assert [(e.rule, e.hexes) for e in events if e.rule == "14.1"] == [("14.1", ("3716", new))]


def test_14_2_front_marker_moves_one_hex_once_a_segment() -> None:
    s = ENGINE.new_state(SC)
    d = s.decision()
    assert d is not None and d.kind == "fronts"
    s.apply("front southwest 3916")
    with pytest.raises(IllegalAction, match=r"14\.1"):
        s.apply("front southwest 3915")


def test_16_723_city_defender_need_not_retreat() -> None:
    from engines.backhand.retreat import HitArgs
    from engines.backhand.steps.fight import Hits
    s = at('clear = true\nplace = { "DF" = "2510", "12T" = "2610" }')
    a = HitArgs("german", "soviet", "sp", "2510", 0, True, 0, False, ("12T",), (0, "2510"))
    opts = [o.notation() for o in Hits().options(s, a)]
    assert "done" in opts and any(o.startswith("retreat") for o in opts)
    s2 = at('clear = true\nplace = { "DF" = "2611", "12T" = "2711" }')
    a2 = HitArgs("german", "soviet", "sp", "2611", 0, True, 0, False, ("12T",), (0, "2611"))
    opts2 = [o.notation() for o in Hits().options(s2, a2)]
    assert "done" not in opts2 and all(o.startswith("retreat") for o in opts2)


def test_16_71_concentric_attack_but_never_into_a_city() -> None:
    # 2207 attacked from 2107 and 2307 (two hexes apart, open ground): concentric, +1
    _, _, drm = _attack_figures('clear = true\nplace = { "12T" = "2107", "15T" = "2307", '
                                '"DF" = "2207" }', "2207", ("12T", "15T"))
    _, _, drm1 = _attack_figures('clear = true\nplace = { "12T" = "2107", "DF" = "2207" }',
                                 "2207", ("12T",))
    assert drm == drm1 + 1
    # Kharkov 2510 from 2509 and 2511: no concentric bonus (16.71, 16.723)
    _, _, c2 = _attack_figures('clear = true\nplace = { "12T" = "2509", "15T" = "2511", '
                               '"DF" = "2510" }', "2510", ("12T", "15T"))
    _, _, c1 = _attack_figures('clear = true\nplace = { "12T" = "2509", "DF" = "2510" }',
                               "2510", ("12T",))
    assert c2 == c1


def test_13_2_personalersatz_disbands_a_variable_reinforcement() -> None:
    s = at('clear = true\nplace = { "320-585" = "3218 1", "Arb" = "3218" }\n'
           'stack = [["game", 0, {}], ["turn", 13, {}], ["ersatz", 0, {}]]')
    s.apply("ersatz 320-585 Arb")
    assert s.pos.units["320-585"].steps == 2  # type: ignore[attr-defined]
    assert s.pos.units["Arb"].at == "out"  # type: ignore[attr-defined]


def test_13_2_no_personalersatz_for_motorized_units() -> None:
    s = at('clear = true\nplace = { "LAH-1" = "3218 1", "Arb" = "3218" }\n'
           'stack = [["game", 0, {}], ["turn", 13, {}], ["ersatz", 0, {}]]')
    with pytest.raises(IllegalAction, match=r"13\.2"):
        s.apply("ersatz LAH-1 Arb")


def test_12_0_replacement_in_range_once_a_turn() -> None:
    s = at('clear = true\nplace = { "12T" = "3917 2", "111" = "0115 1" }\n'
           'replacements = { mot = 2, non = 1 }\n'
           'stack = [["game", 0, {}], ["turn", 9, {}], ["replace", 0, {}]]')
    s.apply("replace 12T")
    assert s.pos.units["12T"].steps == 3  # type: ignore[attr-defined]
    with pytest.raises(IllegalAction, match=r"12\.0"):
        s.apply("replace 12T")  # one a turn
    with pytest.raises(IllegalAction, match=r"12\.0"):
        s.apply("replace 111")  # out of range of both Front Markers


def test_8_2_rochade_rolls_on_its_column_without_c3i() -> None:
    s = at('rochade_now = true\nc3i = { german = 4 }\nphasing = "german"\n'
           'stack = [["game", 0, {}], ["turn", 13, {}], ["seg-run", 4, { side = "german", '
           'kind = "sp", no = 1, stage = 4, first = "move" }]]')
    req = s.chance_request()
    assert "rochade" in req.purpose
    s.apply_outcome((6,))
    assert s.pos.ap["german"] == 5 and s.pos.c3i["german"] == 4  # type: ignore[attr-defined]


def test_15_12_rochade_moves_five_from_box_two() -> None:
    units = ["FJ11", "KG-Kempf", "HGN", "168-417", "320-585", "7-6"]
    place = ", ".join(f'"{u}" = "box2"' for u in units)
    base = (f'clear = true\nturn = 7\nplace = {{ {place}, "DF" = "1820" }}\n'
            'stack = [["game", 0, {}], ["turn", 13, {}], ["admin-in", 0, '
            '{ side = "german", kind = "sp" }]]')
    s = at(base + "\nrochade_now = true", "backhand-blow")
    for u in ("FJ11", "KG-Kempf", "HGN", "168-417", "320-585"):
        s.apply(f"admin {u}")
        s.apply(s.decision().options[0])  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match=r"15\.1"):
        s.apply("admin 7-6")
    s1 = at(base, "backhand-blow")
    s1.apply("admin FJ11")
    s1.apply(s1.decision().options[0])  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match=r"15\.1"):
        s1.apply("admin KG-Kempf")


def test_11_1_reinforcement_on_a_front_marker() -> None:
    s = at('turn = 8\nstack = [["game", 0, {}], ["turn", 6, {}], ["reinforce", 0, '
           '{ unit = "soviet" }]]', "backhand-blow")
    s.apply("arrive map")
    assert s.pos.units["3GT"].at == s.pos.fronts["voronezh"]  # type: ignore[attr-defined]


def _advance_at(across: str) -> BBState:
    return at('clear = true\nplace = { "12T" = "2813", "111" = "2914" }\nphasing = "soviet"\n'
              'stack = [["game", 0, {}], ["turn", 12, {}], ["advance", 0, { side = "soviet", '
              f'kind = "sp", target = "2813", units = ["12T", "111"], retreated = 2, '
              f'across = [{across}], second = [] }}]]')


def test_16_722_no_second_hex_across_a_river() -> None:
    s = _advance_at("")
    listed = [o.notation() for o in s.legal_actions()]
    assert "advance 12T 2812" not in listed  # 2812/2813 is the Donets
    assert any(o.startswith("advance 12T ") for o in listed)  # other second hexes
    assert not any(o.startswith("advance 111 ") for o in listed)  # not motorized
    with pytest.raises(IllegalAction, match=r"16\.722"):
        s.apply("advance 12T 2812")


def test_16_722_no_second_hex_after_attacking_across_a_river() -> None:
    s = _advance_at('"12T"')
    assert not any(o.notation().startswith("advance 12T ") for o in s.legal_actions())
    with pytest.raises(IllegalAction, match=r"16\.722"):
        s.apply("advance 12T 2814")


def test_16_73_soviet_chit_needs_the_defender_in_range_of_a_front() -> None:
    base = ('clear = true\nplace = { "12T" = "2107", "DF" = "2207" }\n'
            'fronts = { southwest = "{sw}", voronezh = "3704" }')
    from engines.backhand.combat import AttackArgs, combat_figures
    near = at(base.replace("{sw}", "2510"))
    far = at(base.replace("{sw}", "3917"))
    args = AttackArgs("soviet", "sp", "2207", ("12T",), ("Katyusha", "-"))
    no_chit = AttackArgs("soviet", "sp", "2207", ("12T",), ("-", "-"))
    assert combat_figures(near, args)[2] - combat_figures(near, no_chit)[2] == 2
    assert combat_figures(far, args)[2] - combat_figures(far, no_chit)[2] == 1


def _general(side: str, step: str) -> str:
    return (f'stack = [["game", 0, {{}}], ["turn", 16, {{}}], ["seg-run", 6, {{ side = "{side}", '
            f'kind = "general", no = 0, stage = 6, first = "move" }}], ["{step}", 0, '
            f'{{ side = "{side}", kind = "general" }}]]')


def test_4_2_vi_no_unit_moves_and_fights_in_a_general_segment() -> None:
    s = at('clear = true\nplace = { "12T" = "3313" }\nphasing = "soviet"\n'
           'units = { "12T" = { fought = true } }\n' + _general("soviet", "move"))
    with pytest.raises(IllegalAction, match=r"4\.2 VI\.E"):
        s.apply("move 12T")


def test_15_1_administrative_movers_do_not_move_again() -> None:
    s = at('clear = true\nplace = { "12T" = "3313" }\nphasing = "soviet"\n'
           'units = { "12T" = { admin = true } }\n' + _general("soviet", "move"))
    with pytest.raises(IllegalAction, match=r"15\.1"):
        s.apply("move 12T")


def test_13_1_refitting_units_neither_move_nor_attack() -> None:
    s = at('clear = true\nplace = { "LAH-1" = "2912" }\nphasing = "german"\n'
           'units = { "LAH-1" = { refit = true } }\n' + _general("german", "move"))
    with pytest.raises(IllegalAction, match=r"13\.1"):
        s.apply("move LAH-1")


def test_4_2_i_d_attrition_modifiers() -> None:
    # a motorized unit Out Of Supply for its third turn in Deep Mud: 3 + 1 + 1 + 2 = 7
    s = at('clear = true\nplace = { "12T" = "2107" }\nweather = "deep"\n'
           'units = { "12T" = { oos = true, oos_turns = 3 } }\n'
           'stack = [["game", 0, {}], ["turn", 4, {}], ["attrition", 0, { cities = ["12T"] }]]')
    events = s.apply_outcome((3,))
    assert any("= 7, 2 step(s) lost" in e.text for e in events)
    assert s.pos.units["12T"].steps == 2  # type: ignore[attr-defined]


def test_11_1_entry_hex_held_by_the_enemy_sends_to_box_one() -> None:
    s = at('place = { "LAH-1" = "4114" }\nturn = 2\n'
           'stack = [["game", 0, {}], ["turn", 6, {}], ["reinforce", 0, { unit = "soviet" }]]')
    s.apply("arrive map")
    assert s.pos.units["38G"].at == "box1"  # type: ignore[attr-defined]
    assert s.pos.units["195"].at == "4119"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("cities", "winner", "level"), [
    ([], "german", "German minor"),
    (["2510", "1331"], "soviet", "Soviet minor"),
    (["2510", "1331", "0815"], "soviet", "Soviet major"),
    (["2510", "1331", "0815", "1439"], "soviet", "Soviet decisive"),
    (["2510"], None, "draw"),
])
def test_18_2_victory_levels(cities: list[str], winner: str | None, level: str) -> None:
    units = ", ".join(f'"{u}" = "{c}"' for u, c in zip(("12T", "15T", "25T", "3T"), cities,
                                                       strict=False))
    german = ", ".join(f'"{u}" = "{c}"' for u, c in zip(
        ("VK-Cha", "VK-Dne", "VK-Polt", "VK-Zap", "VK-Bel", "VK-Sta"),
        ("2510", "1331", "0815", "1439", "2902", "4137"), strict=True) if c not in cities)
    s = at(f'clear = true\nplace = {{ {", ".join(x for x in (units, german) if x)}, '
           '"111" = "2107" }\never_soviet = ["2902"]', "backhand-blow")
    got, text = victory(s)
    assert got == winner and text.startswith(level)


def test_18_2_german_decisive_and_major() -> None:
    vk = ('"VK-Cha" = "2510", "VK-Dne" = "1331", "VK-Polt" = "0815", "VK-Zap" = "1439", '
          '"VK-Bel" = "2902", "VK-Sta" = "4137"')
    s = at(f'clear = true\nplace = {{ {vk}, "12T" = "4110" }}', "backhand-blow")
    assert victory(s)[1].startswith("German decisive")
    s2 = at(f'clear = true\nplace = {{ {vk}, "12T" = "4110" }}\never_soviet = ["2902"]',
            "backhand-blow")
    assert victory(s2)[1].startswith("German major")


def test_5_5_historical_weather_option() -> None:
    s = ENGINE.new_state("backhand-blow", {"historical-weather": "on"})
    assert s.pos.historical  # type: ignore[attr-defined]
    assert s.data.historical_weather(4) == "mud"  # type: ignore[attr-defined]


# -- issue 31: the book's positions for the rules the engine read wrongly ---------------

REFIT = 'stack = [["game", 0, {}], ["turn", 10, {}], ["refit", 0, {}]]'
REFIT_PAY = 'stack = [["game", 0, {}], ["turn", 9, {}], ["refit-pay", 0, {}]]'


def test_13_1_frontnahe_auffrischung_steps_arrive_in_the_next_game_turn() -> None:
    # turn 7: the marker is placed; the units are frozen this turn but gain nothing yet
    s = at('clear = true\nturn = 7\nplace = { "LAH-1" = "1820 1", "LAH-2" = "1820", '
           f'"LAH-Pz" = "1820 1" }}\n{REFIT}', "backhand-blow")
    s.apply("refit LAH 1820")
    s.apply("done")
    d = s.decision()
    assert d is not None and d.kind == "fronts"  # the first Soviet Schwerpunkt segment
    assert [s.pos.units[u].steps for u in ("LAH-1", "LAH-Pz")] == [1, 1]  # type: ignore[attr-defined]
    assert s.pos.units["LAH-1"].refit and s.pos.refit_marks == {"ss": "LAH@1820"}  # type: ignore[attr-defined]
    # turn 8's Administrative Segment: two steps each (at most the unit's full strength)
    s2 = at('clear = true\nturn = 8\nplace = { "LAH-1" = "1820 1", "LAH-2" = "1820", '
            f'"LAH-Pz" = "1820 1" }}\nrefit_marks = {{ ss = "LAH@1820" }}\n{REFIT_PAY}',
            "backhand-blow")
    assert [s2.pos.units[u].steps for u in ("LAH-1", "LAH-2", "LAH-Pz")] == [2, 2, 2]  # type: ignore[attr-defined]
    assert not s2.pos.units["LAH-1"].refit  # type: ignore[attr-defined]
    d2 = s2.decision()
    assert d2 is not None and d2.kind == "refit"  # and the marker may be placed again
    assert "refit LAH 1820" in [o.notation() for o in d2.options]


def test_13_1_a_formations_last_unit_refits_and_rebuilds_the_eliminated() -> None:
    s = at('clear = true\nturn = 7\nplace = { "LAH-Pz" = "1820 1" }\n'
           'units = { "LAH-1" = { at = "elim", steps = 0 }, "LAH-2" = { at = "elim", '
           f'steps = 0 }} }}\n{REFIT}', "backhand-blow")
    assert "refit LAH 1820" in [o.notation() for o in s.legal_actions()]
    s2 = at('clear = true\nturn = 8\nplace = { "LAH-Pz" = "1820 1" }\n'
            'units = { "LAH-1" = { at = "elim", steps = 0 }, "LAH-2" = { at = "elim", '
            f'steps = 0 }} }}\nrefit_marks = {{ ss = "LAH@1820" }}\n{REFIT_PAY}',
            "backhand-blow")
    assert {u: (s2.pos.units[u].at, s2.pos.units[u].steps)  # type: ignore[attr-defined]
            for u in ("LAH-1", "LAH-2", "LAH-Pz")} == {
        "LAH-1": ("1820", 2), "LAH-2": ("1820", 2), "LAH-Pz": ("1820", 2)}


def test_13_1_two_units_in_one_hex_refit_while_the_third_is_elsewhere() -> None:
    s = at('clear = true\nturn = 7\nplace = { "LAH-1" = "1820 1", "LAH-2" = "1820 1", '
           f'"LAH-Pz" = "1920" }}\n{REFIT}', "backhand-blow")
    assert "refit LAH 1820" in [o.notation() for o in s.legal_actions()]
    s.apply("refit LAH 1820")
    assert (s.pos.units["LAH-1"].refit, s.pos.units["LAH-Pz"].refit) == (True, False)  # type: ignore[attr-defined]


def test_13_1_no_refit_once_every_unit_of_the_formation_is_eliminated() -> None:
    elim = ", ".join(f'"{u}" = {{ at = "elim", steps = 0 }}' for u in ("LAH-1", "LAH-2", "LAH-Pz"))
    s = at(f'clear = true\nturn = 7\nunits = {{ {elim} }}\n{REFIT}', "backhand-blow")
    assert not any(o.notation().startswith("refit LAH") for o in s.legal_actions())
    # neither where its units lie eliminated (no hex: refused as written) nor in a box
    with pytest.raises(ActionSyntaxError, match="a hex or a refit box"):
        s.apply("refit LAH elim")
    with pytest.raises(IllegalAction, match=r"13\.1"):
        s.apply("refit LAH box1")


def _german_sp(no: int, stage: int, step: str, side: str = "german") -> str:
    pc = {("german", 1): 13, ("german", 2): 15, ("soviet", 1): 12}[(side, no)]
    return (f'phasing = "{side}"\nsegment = "{side} Schwerpunkt {no}"\n'
            f'stack = [["game", 0, {{}}], ["turn", {pc}, {{}}], ["seg-run", {stage}, '
            f'{{ side = "{side}", kind = "sp", no = {no}, stage = {stage}, first = "move" }}], '
            f'["{step}", 0, {{ side = "{side}", kind = "sp" }}]]')


def _answer_until(s: BBState, stop: object) -> None:
    """Play the segments on with nothing done (a segment ends on zero C3I) until ``stop``."""
    for _ in range(200):
        if stop(s):  # type: ignore[operator]
            return
        if s.decision() is None:
            s.apply_outcome((1,))  # the Rochade column's Activity roll (8.2)
            continue
        listed = [o.notation() for o in s.legal_actions()]
        s.apply(next(a for a in ("done", "end", "spend 0", "order move-first", "stay")
                     if a in listed))
    raise AssertionError("never reached")


def test_15_12_rochade_five_placements_in_any_one_segment_not_in_each() -> None:
    units = ["FJ11", "KG-Kempf", "HGN", "168-417", "320-585", "7-6"]
    place = ", ".join(f'"{u}" = "box2"' for u in units)
    s = at(f'clear = true\nturn = 7\nrochade_now = true\nrochade_used = true\n'
           f'place = {{ {place}, "DF" = "1820" }}\n' + _german_sp(1, 2, "admin-in"),
           "backhand-blow")
    for u in ("FJ11", "KG-Kempf", "HGN"):  # three in the first German segment
        s.apply(f"admin {u}")
        s.apply(s.decision().options[0])  # type: ignore[union-attr]
    s.apply("done")

    def second_german_admin(x: BBState) -> bool:
        d = x.decision()
        return (x.pos.segment == "german Schwerpunkt 2" and d is not None  # type: ignore[attr-defined]
                and d.kind == "admin")
    _answer_until(s, second_german_admin)
    # the Rochade was the first segment's: the second allows the ordinary one placement
    s.apply("admin 168-417")
    s.apply(s.decision().options[0])  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match=r"15\.1"):
        s.apply("admin 320-585")


def test_15_12_rochade_segment_is_the_one_with_more_than_one_placement() -> None:
    units = ["FJ11", "KG-Kempf", "HGN"]
    place = ", ".join(f'"{u}" = "box2"' for u in units)
    s = at(f'clear = true\nturn = 7\nrochade_now = true\nrochade_used = true\n'
           f'place = {{ {place}, "DF" = "1820" }}\n' + _german_sp(1, 2, "admin-in"),
           "backhand-blow")
    s.apply("admin FJ11")  # one placement only: the Rochade is not spent yet
    s.apply(s.decision().options[0])  # type: ignore[union-attr]
    s.apply("done")
    assert s.pos.rochade_segment == ""  # type: ignore[attr-defined]


def test_17_0_uprising_roll_only_when_the_moving_unit_comes_within_three_hexes() -> None:
    # 25G stands beside Belgorod from the start; 12T moves 19 hexes away: no roll
    s = at('clear = true\nplace = { "VK-Bel" = "2902", "25G" = "3001", "12T" = "3917" }\n'
           'phasing = "soviet"\nstep = "move"\nap = { southwest = 3, voronezh = 3 }\n'
           'fronts = { southwest = "3917", voronezh = "3704" }')
    s.apply("move 12T")
    s.apply("to 3916")
    d = s.decision()
    assert d is not None and d.kind == "move"
    # 25G itself moving within three hexes of Belgorod: the roll
    s.apply("move 25G")
    s.apply("to 3002")
    req = s.chance_request()
    assert req is not None and req.rule == "17.0" and "Belgorod" in req.purpose


def _hits(target: str, hits: int, retreat: bool, retreated: int, side: str = "german") -> str:
    att = "soviet" if side == "german" else "german"
    unit = "12T" if side == "german" else "LAH-1"
    return (f'stack = [["game", 0, {{}}], ["turn", 12, {{}}], ["hits", 0, {{ side = "{side}", '
            f'attacker = "{att}", kind = "sp", target = "{target}", hits = {hits}, '
            f'retreat = {str(retreat).lower()}, retreated = {retreated}, river = false, '
            f'units = ["{unit}"], then = [0, "{target}"], no_advance = false }}]]')


def test_16_722_no_river_crossing_to_extend_a_retreat() -> None:
    # LAH-1 retreated 2914 -> 2813 and has a hit left: 2812 lies across the Donets
    s = at('clear = true\nplace = { "LAH-1" = "2813", "12T" = "3014" }\n'
           + _hits("2813", 1, False, 1))
    listed = [o.notation() for o in s.legal_actions()]
    assert "retreat 2812" not in listed and "retreat 2713" not in listed
    assert "retreat 2714" in listed  # a second hex on this side of the river
    with pytest.raises(IllegalAction, match=r"16\.722"):
        s.apply("retreat 2812")


def test_16_723_a_city_garrison_may_choose_to_retreat() -> None:
    # DF with Kharkov's Verfuegungskraefte: an R result; DF may retreat, the VK stays
    s = at('clear = true\nplace = { "DF" = "2510", "VK-Cha" = "2510", "12T" = "2610" }\n'
           + _hits("2510", 1, True, 0))
    listed = [o.notation() for o in s.legal_actions()]
    assert "lose DF" in listed and "retreat 2409" in listed
    s.apply("retreat 2409")
    assert s.pos.units["DF"].at == "2409" and s.pos.units["VK-Cha"].at == "2510"  # type: ignore[attr-defined]


def test_18_2_german_major_victory_is_no_soviet_unit_west_of_the_donets() -> None:
    # Belgorod lies east of the Donets: a Soviet unit there, none west of the river
    vk = ('"VK-Cha" = "2510", "VK-Dne" = "1331", "VK-Polt" = "0815", "VK-Zap" = "1439", '
          '"VK-Sta" = "4137"')
    s = at(f'clear = true\nplace = {{ {vk}, "12T" = "2902" }}\never_soviet = ["2902"]',
           "backhand-blow")
    assert "2902" not in s.data.west_of_donets
    winner, text = victory(s)
    assert winner == "german" and text.startswith("German major")


def test_14_1_displaced_marker_goes_to_a_hex_meeting_every_requirement() -> None:
    # LAH-1 into 4016: the marker in 3917 is in its ZOC; the straight way to the edge
    # (4016, 4116) is occupied or in the ZOC: the marker goes to the nearest hex that is not
    s = at('clear = true\nplace = { "LAH-1" = "3815" }\nfronts = { southwest = "3917", '
           'voronezh = "3704" }\nphasing = "german"\nap = { german = 1 }\n' + GERMAN_MOVE)
    s.apply("move LAH-1")
    events = s.apply("to 4016")
    new = s.pos.fronts["southwest"]  # type: ignore[attr-defined]
    assert new not in s.zoc("german") and new not in s.occupied("german")
    assert new in supply_net(s, "soviet")
    assert [e.hexes for e in events if e.rule == "14.1"] == [("3917", new)]


def test_14_1_marker_displaced_when_the_unit_keeping_its_line_open_is_eliminated() -> None:
    # 12T in 3716 negates LAH-1's ZOC for the southwest marker; 12T is lost
    s = at('clear = true\nplace = { "12T" = "3716 1", "LAH-1" = "3616" }\n'
           'fronts = { southwest = "3716", voronezh = "3704" }\n'
           + _hits("3716", 1, False, 0, side="soviet"))
    assert s.pos.fronts["southwest"] == "3716"  # type: ignore[attr-defined]
    events = s.apply("lose 12T")
    new = s.pos.fronts["southwest"]  # type: ignore[attr-defined]
    assert new != "3716" and new not in s.zoc("german")
    assert any(e.rule == "14.1" for e in events)


def test_15_1_one_regiment_of_a_formation_may_leave_box_two_alone() -> None:
    s = at('clear = true\nturn = 7\nplace = { "LAH-1" = "box2", "LAH-2" = "box2", '
           '"DF" = "1820" }\n' + _german_sp(1, 2, "admin-in"), "backhand-blow")
    listed = [o.notation() for o in s.legal_actions()]
    assert "admin LAH-1" in listed and "admin LAH" in listed
    s.apply("admin LAH-1")
    s.apply(s.decision().options[0])  # type: ignore[union-attr]
    assert s.pos.units["LAH-1"].at not in ("box2", "box1")  # type: ignore[attr-defined]
    assert s.pos.units["LAH-2"].at == "box2"  # type: ignore[attr-defined]


def test_15_1_units_under_frontnahe_auffrischung_stay_in_the_boxes() -> None:
    s = at('clear = true\nturn = 7\nplace = { "LAH-1" = "box2", "LAH-2" = "box2", '
           '"LAH-Pz" = "box1", "DF" = "1820" }\nunits = { "LAH-1" = { refit = true }, '
           '"LAH-2" = { refit = true }, "LAH-Pz" = { refit = true } }\n'
           + _german_sp(1, 2, "admin-in"), "backhand-blow")
    assert not any(o.notation().startswith("admin LAH") for o in s.legal_actions())
    with pytest.raises(IllegalAction, match=r"13\.1"):
        s.apply("admin LAH-1")
    s.apply("done")  # 15.1 (2): Box #1 to Box #2 is administrative movement too
    assert s.pos.units["LAH-Pz"].at == "box1"  # type: ignore[attr-defined]


def test_15_2_two_stacked_units_move_as_one_while_the_third_is_elsewhere() -> None:
    s = at('clear = true\nplace = { "LAH-1" = "2912", "LAH-2" = "2912", "LAH-Pz" = "3010" }\n'
           'phasing = "german"\nap = { german = 1 }\n' + GERMAN_MOVE)
    s.apply("move LAH 2912")
    s.apply("to 2812")
    assert s.pos.ap["german"] == 0  # type: ignore[attr-defined]
    assert [s.pos.units[u].at for u in ("LAH-1", "LAH-2", "LAH-Pz")] == [  # type: ignore[attr-defined]
        "2812", "2812", "3010"]


def test_4_2_iii_c_zero_c3i_ends_the_german_segment_before_personalersatz() -> None:
    s = at('clear = true\nturn = 3\nplace = { "320-585" = "3218 1", "Arb" = "3218" }\n'
           'c3i = { german = 2, soviet = 2 }\n' + _german_sp(1, 5, "c3i"))
    s.apply("spend 0")
    d = s.decision()
    assert d is not None and d.kind != "ersatz"
    assert s.pos.segment == "soviet Schwerpunkt 2"  # type: ignore[attr-defined]


# -- rules the coverage table claims, each with its test ---------------------------------


def test_2_45_a_four_step_corps_shows_its_substitute_counter_from_two_steps() -> None:
    s = at('clear = true\nplace = { "12T" = "3313 3", "LAH-1" = "3213" }\n'
           + _hits("3313", 1, False, 0, side="soviet"))
    events = s.apply("lose 12T")
    assert any(e.rule == "2.45" for e in events)
    assert s.factors("12T") == (5, 4)  # the "S" counter's stronger side


def test_3_2_formations_three_elements_wiking_and_19th_pd_four() -> None:
    d = at("clear = true").data
    sizes = {fid: len(f.members) for fid, f in d.formations.items()}
    assert sizes.pop("W") == 4 and sizes.pop("19PD") == 4
    assert set(sizes.values()) == {3}


def _segments(weather: str) -> list[str]:
    s = at(f'clear = true\nturn = 2\nweather = "{weather}"\n'
           'stack = [["game", 0, {}], ["turn", 10, {}], ["track", 0, {}]]')
    seen: list[str] = []

    def turn_over(x: BBState) -> bool:
        if not seen or seen[-1] != x.pos.segment:  # type: ignore[attr-defined]
            seen.append(x.pos.segment)  # type: ignore[attr-defined]
        return x.pos.turn != 2  # type: ignore[attr-defined, no-any-return]
    _answer_until(s, turn_over)
    return seen


def test_5_2_frozen_two_schwerpunkt_segments_a_side() -> None:
    assert _segments("frozen") == [
        "soviet Schwerpunkt 1", "german Schwerpunkt 1", "soviet Schwerpunkt 2",
        "german Schwerpunkt 2", "soviet General", "german General"]


def test_5_3_mud_one_schwerpunkt_segment_a_side() -> None:
    assert _segments("mud") == ["soviet Schwerpunkt 1", "german Schwerpunkt 1",
                                "soviet General", "german General"]


def test_5_4_deep_mud_no_schwerpunkt_segments() -> None:
    assert _segments("deep") == ["soviet General", "german General"]


def test_15_11_soviet_pick_up_needs_a_front_marker_in_range() -> None:
    s = at('clear = true\nturn = 2\nplace = { "111" = "0115", "12T" = "3917" }\n'
           'fronts = { southwest = "3917", voronezh = "3704" }\nphasing = "soviet"\n'
           'stack = [["game", 0, {}], ["turn", 12, {}], ["admin-out", 0, '
           '{ side = "soviet", kind = "sp" }]]')
    assert "admin-out 12T" in [o.notation() for o in s.legal_actions()]
    with pytest.raises(IllegalAction, match=r"15\.11"):
        s.apply("admin-out 111")


def test_15_3_variable_reinforcements_move_for_free() -> None:
    s = at('clear = true\nplace = { "Arb" = "2510", "LAH-1" = "2912" }\n'
           'phasing = "german"\nap = { german = 0 }\n' + GERMAN_MOVE)
    listed = [o.notation() for o in s.legal_actions()]
    assert "move Arb" in listed and "move LAH-1" not in listed  # no activity points
    s.apply("move Arb")
    events = s.apply("to 2511")
    assert s.pos.ap["german"] == 0 and [e.rule for e in events if e.kind == "move"] == [  # type: ignore[attr-defined]
        "15.3"]


def test_16_0_soviet_attack_needs_a_unit_in_range_of_a_front_marker() -> None:
    base = ('clear = true\nplace = { "111" = "1020", "LAH-1" = "1120" }\nphasing = "soviet"\n'
            'step = "combat"\nap = { southwest = 3, voronezh = 3 }\n'
            'fronts = { southwest = "FRONT", voronezh = "3704" }')
    assert "attack 1120" in [o.notation() for o in at(base.replace("FRONT", "1320"))
                             .legal_actions()]
    far = at(base.replace("FRONT", "3917"))
    with pytest.raises(IllegalAction, match=r"16\.0"):
        far.apply("attack 1120")


def test_15_12_rochade_a_formations_units_are_placed_in_the_same_hex() -> None:
    s = at('clear = true\nturn = 7\nrochade_now = true\nrochade_used = true\n'
           'place = { "LAH-1" = "box2", "LAH-2" = "box2", "DF" = "1820" }\n'
           + _german_sp(1, 2, "admin-in"), "backhand-blow")
    s.apply("admin LAH-1")
    first = s.decision().options[0].notation()  # type: ignore[union-attr]
    assert len(s.legal_actions()) > 1  # alone, LAH-1 may go to any of several hexes
    s.apply(first)
    s.apply("admin LAH-2")  # a second placement of the Rochade segment
    assert [o.notation() for o in s.legal_actions()] == [first]


def test_15_0_move_names_the_unit_and_the_destination_comes_next() -> None:
    # QA: 'move 106 3418' read 3418 as the destination and was refused as "cannot move
    # now"; the hex after a unit is a formation's start hex (15.2), so say that
    s = at('clear = true\nplace = { "12T" = "3313" }\nphasing = "soviet"\n'
           + _general("soviet", "move"))
    with pytest.raises(IllegalAction, match=r"15\.0.*takes no hex.*\(3313\).*chosen next "
                                            r"\('to 3312'\).*15\.2") as e:
        s.apply("move 12T 3312")
    assert "cannot move now" not in str(e.value)
    s.apply("move 12T")
    assert "to" in " ".join(a.notation() for a in s.legal_actions())


def test_15_0_move_of_a_unit_that_does_not_exist() -> None:
    s = at('clear = true\nplace = { "12T" = "3313" }\nphasing = "soviet"\n'
           + _general("soviet", "move"))
    with pytest.raises(IllegalAction, match=r"15\.0.*no unit 999") as e:
        s.apply("move 999")
    assert "cannot move now" not in str(e.value)


def test_3_1_the_watched_hexes_are_a_fact_of_the_data() -> None:
    """3.1, 11.2, 18.2: control is recorded for the cities and the variable
    reinforcements' hexes, found once from the data (issue 35: every move of a received
    file read the whole order of battle again); only those hexes are ever recorded."""
    s = at('clear = true\nplace = { "12T" = "3917" }')
    d = s.data
    expected = set(d.cities) | {t.variable for t in d.units.values() if t.variable}
    assert d.watched == tuple(sorted(expected)) and "watched" in vars(d)
    put(s, ["12T"], d.cities[0])
    assert s.pos.sov_control and set(s.pos.sov_control) <= set(d.watched)  # type: ignore[attr-defined]
