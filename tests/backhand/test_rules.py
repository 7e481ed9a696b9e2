"""Von Manstein's Backhand Blow: the exclusive rules' positions and results, set up with
pbem.setup (rule numbers in each test's name)."""

from __future__ import annotations

import pytest

from engines.backhand import ENGINE
from engines.backhand.game import BBState, _chain, victory
from pbem.errors import IllegalAction
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
    assert _chain("mud", "mud") == "deep"
    assert _chain("deep", "mud") == "deep"
    assert _chain("frozen", "mud") == "mud"
    assert _chain("mud", "frozen") == "frozen"


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
    assert s.control("2609") == "soviet"
    s2 = at('clear = true\nplace = { "12T" = "3010" }')
    assert s2.control("2609") is None


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
    assert s.integrity("LAH-1") == 2
    assert s.integrity("Ger") == 0  # Wiking needs two others of the formation
    s2 = at('clear = true\nplace = { "Ger" = "3533", "Nor" = "3533", "Wes" = "3533" }')
    assert s2.integrity("Ger") == 2


def test_14_0_range_twelve_hexes() -> None:
    s = at('clear = true\nfronts = { southwest = "3917", voronezh = "3704" }')
    assert s.in_range("3929")  # 12 hexes
    assert not s.in_range("3930")


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
    from engines.backhand.game import AttackArgs, combat_figures
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
    from engines.backhand.game import HitArgs, Hits
    s = at('clear = true\nplace = { "LAH-1" = "2813", "12T" = "2913" }')
    a = HitArgs("german", "soviet", "sp", "2812", 1, False, 1, True, ("12T",), (0, "2913"))
    assert Hits().retreats(s, a) == []


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
    assert s.control("2510") == "soviet"


def test_11_2_variable_reinforcement_lost_if_hex_was_soviet() -> None:
    s = at('ever_soviet = ["2510"]\nstep = "vr-draw"\nstack = [["game", 0, {}], '
           '["turn", 5, {}], ["vr-draw", 0, { n = 1 }]]')
    s.apply_outcome(("Arb",))
    assert s.pos.units["Arb"].at == "out"  # type: ignore[attr-defined]


def test_15_2_formation_moves_as_one_stack_for_one_point() -> None:
    s = at('clear = true\nplace = { "LAH-1" = "2912", "LAH-2" = "2912", "LAH-Pz" = "2912" }\n'
           'phasing = "german"\nap = { german = 1 }\n' + GERMAN_MOVE)
    s.apply("move LAH")
    s.apply("to 2812")
    assert s.pos.ap["german"] == 0  # type: ignore[attr-defined]
    assert {s.pos.units[u].at for u in ("LAH-1", "LAH-2", "LAH-Pz")} == {"2812"}  # type: ignore[attr-defined]


def test_14_1_front_marker_displaced_when_the_enemy_enters() -> None:
    s = at('clear = true\nplace = { "12T" = "3917" }\nfronts = { southwest = "3716", '
           'voronezh = "3704" }')
    s.put(["LAH-1"], "3716")
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
    from engines.backhand.game import HitArgs, Hits
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


def test_13_1_refit_gives_two_steps_next_turn() -> None:
    s = at('clear = true\nplace = { "LAH-1" = "1820 1", "LAH-2" = "1820", '
           '"LAH-Pz" = "1820 1" }\nrefit_marks = { ss = "LAH@1820" }\n'
           'stack = [["game", 0, {}], ["turn", 11, {}], ["track", 0, {}]]\nturn = 8',
           "backhand-blow")
    assert s.pos.units["LAH-1"].steps == 2 and s.pos.units["LAH-1"].refit  # type: ignore[attr-defined]


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
    from engines.backhand.game import AttackArgs, combat_figures
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
