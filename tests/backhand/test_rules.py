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


def at(text: str) -> BBState:
    s = setup(ENGINE, SC, text)
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
