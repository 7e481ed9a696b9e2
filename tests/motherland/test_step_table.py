"""For the Motherland!'s step table loads a phase's steps, and the rules only they run, with
the first frame of one of them (issue 35: every module a turn command imports costs it
0.4-0.5 M instructions to load): a turn in a Combat Phase (8.0) reads none of the
movement, supply or administrative steps, and the table reads as the eager one did."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from engines.hexkit.scenario import Doc
from engines.motherland import ENGINE, MotherlandEngine, data
from engines.motherland.steps import ELSEWHERE, STEPS
from pbem.steps import Step
from pbem.testing import fresh_run

#: the steps of the phases a Combat Phase turn never reaches, their rules (5.0, 5.3, 5.5,
#: 7.0, 9.0, 10.0, 12.0, 17.0, 21.0) and their frames' arguments, and the kit's hex-number
#: checks (pbem scenario check)
OTHER_PHASES = (
    "engines.motherland.steps.movement", "engines.motherland.steps.supply",
    "engines.motherland.steps.admin", "engines.motherland.movement",
    "engines.motherland.strategic", "engines.motherland.overrun",
    "engines.motherland.optional", "engines.motherland.partisans",
    "engines.motherland.reinforcements", "engines.motherland.admin",
    "engines.motherland.stacking", "engines.motherland.phase_args", "engines.hexkit.checks",
)

#: the board's view, drawn by no turn command (its units are named by
#: MotherlandState.counters), and the kit's whole-map ZOC, which a combat's retreats ask of
#: a few hexes at a time (MotherlandState.in_zoc, 4.1)
NOT_DRAWN = ("engines.motherland.view", "engines.hexkit.zoc")

_SETTLE = """
import json, sys
from engines.motherland import ENGINE
from pbem.testing import settle
"""

#: Operation Uranus played by each decision's last option to the Soviet Combat Phase
_TO_COMBAT = _SETTLE + """
s = ENGINE.new_state("4-uranus", ENGINE.resolve_options({}))
settle(s)
while s.phase()[0] != "combat":
    s.apply(s.legal_actions()[-1])
    settle(s)
print(json.dumps(s.snapshot()))
"""

#: a restored Combat Phase: the attacks listed, one made, its result listed and taken
_COMBAT_TURN = _SETTLE + """
s = ENGINE.restore(json.loads(sys.stdin.read()))
attacks = [a for a in s.legal_actions() if str(a).startswith("attack")]
assert attacks, s.legal_actions()
s.apply(attacks[0])
settle(s)
after = s.legal_actions()
assert after and s.decision().kind != "combat", after
s.apply(after[0])
settle(s)
s.legal_actions()
s.counters("axis")
# and the neighbours of the 951 hexes: the attacks read a few hexes' (8.0)
built = [k for k in ("all_neighbors", "neighbors") if k in ENGINE.data.__dict__]
print(json.dumps(sorted(m for m in {forbidden!r} if m in sys.modules) + built))
"""


def _run(code: str, stdin: str = "") -> str:
    return fresh_run(code, stdin)[-1]


def test_a_combat_phase_turn_loads_no_step_or_rule_of_another_phase() -> None:
    snapshot = _run(_TO_COMBAT)
    loaded = json.loads(_run(_COMBAT_TURN.format(forbidden=OTHER_PHASES + NOT_DRAWN),
                             snapshot))
    assert loaded == []
    # each still loads where it is used: the whole table, the set-up's check (6.0)
    probe = ("import sys\nfrom engines.motherland import ENGINE\n"
             "from engines.motherland.steps import STEPS\n"
             "list(STEPS.values())\n"
             "import engines.motherland.movement, engines.motherland.admin\n"
             "assert not ENGINE.check_scenarios()\n"
             f"print(sorted(m for m in {OTHER_PHASES!r} if m not in sys.modules))\n")
    assert _run(probe) == "[]"


def test_asking_for_a_step_by_name_loads_only_its_phase() -> None:
    probe = ("import sys\nfrom engines.motherland.steps import STEPS\n"
             "mods = ('movement', 'combat', 'supply', 'admin')\n"
             "def loaded():\n"
             "    return [m for m in mods if 'engines.motherland.steps.' + m in sys.modules]\n"
             "print(loaded(), 'move' in STEPS, 'nothing' in STEPS, len(STEPS), loaded())\n"
             "print(STEPS['move'].kind, loaded())\n")
    out_lines = fresh_run(probe)
    assert out_lines == ["[] True False 54 []", "movement ['movement']"]


def test_the_table_names_every_step_of_its_modules_in_order() -> None:
    steps = list(STEPS.values())
    assert [s.name for s in steps] == list(STEPS)
    assert len(set(STEPS)) == len(steps) == 54
    # every step class of the four phase modules is in the table, under the module
    # ELSEWHERE names for it
    for module in sorted(set(ELSEWHERE.values())):
        mod = sys.modules[f"engines.motherland.steps.{module}"]
        classes = {c for c in vars(mod).values()
                   if isinstance(c, type) and issubclass(c, Step)
                   and c.__module__ == mod.__name__}
        assert classes == {type(STEPS[n]) for n, m in ELSEWHERE.items() if m == module}
    # the standing orders in the table's order, as before the table loaded lazily (16.5
    # generals, 8.5 results first)
    assert [o.kind for o in ENGINE.standing_orders()] == [
        "result-choice", "step-loss", "retreat-choice", "advance", "generals",
        "chit-choice", "stacking", "partisan-markers", "isolation-losses"]
    assert len(ENGINE.decision_kinds()) == 21


def test_a_game_builds_only_its_own_scenario(monkeypatch: pytest.MonkeyPatch) -> None:
    """The data of a scenario (its setup checked against the counters and the map) is
    built when a game of it first asks, not the six of them on every load (issue 35:
    2.2 M instructions a command); the list of scenarios reads as before (20.0)."""
    before = ENGINE.new_state("4-uranus", ENGINE.resolve_options({})).snapshot()
    built: list[str] = []
    real = data._scenario

    def counting(doc: Doc, counters: Any, hexmap: Any) -> data.ScenarioData:
        sd = real(doc, counters, hexmap)
        built.append(sd.id)
        return sd

    monkeypatch.setattr(data, "_scenario", counting)
    engine = MotherlandEngine()
    infos = engine.scenarios()
    assert [(i.id, i.title, i.turns, i.description) for i in infos] == [
        ("1-barbarossa", "Operation Barbarossa", (1, 7), "Turns 1-7 (20.0)"),
        ("2-road-to-stalingrad", "Road to Stalingrad", (1, 12), "Turns 1-12 (20.0)"),
        ("3-fall-blau", "Fall Blau", (8, 17), "Turns 8-17 (20.0)"),
        ("4-uranus", "Operation Uranus", (12, 14), "Turns 12-14 (20.0)"),
        ("5-zitadelle", "Operation Zitadelle", (16, 22), "Turns 16-22 (20.0)"),
        ("6-for-the-motherland", "For the Motherland!", (1, 22), "Turns 1-22 (20.0)")]
    assert {i.files for i in infos} == {engine.data.files}
    assert built == []
    st = engine.new_state("4-uranus", engine.resolve_options({}))
    assert built == ["4-uranus"]
    assert st.snapshot() == before
    assert infos[3].title == engine.data.scenarios["4-uranus"].title
    assert built == ["4-uranus"]


def test_a_hexs_neighbours_are_found_alone_until_the_table_is_built() -> None:
    """A combat, a retreat or an advance (8.0, 8.6, 8.7) reads a few hexes' land
    neighbours, found each alone and the same as the whole table's (issue 35: building
    the table of the 951 hexes was about a tenth of an act's own work)."""
    table = ENGINE.data.neighbors  # the reference, built whole
    fresh = MotherlandEngine().data
    for h in fresh.hexmap.ids:
        assert fresh.neighbors_of(h) == table[h], h
    assert "neighbors" not in fresh.__dict__ and "all_neighbors" not in fresh.__dict__
    assert any(len(ns) < 6 for ns in table.values())  # water and the edges are left out
    with pytest.raises(KeyError):
        fresh.neighbors_of("9999")
    assert ENGINE.data.neighbors_of("1010") is table["1010"]


def test_the_maps_tables_read_in_c_are_those_read_hex_by_hex() -> None:
    """The water (5.1), the countries (5.2.1) and the hexsides both ways (8.6.4) as a
    loop over the map reads them, entry for entry and in the same order."""
    d = MotherlandEngine().data
    hm = d.hexmap
    wet = {t.name for t in hm.legend if t.flag("water")}
    assert d.water == frozenset(h for h, t in hm.terrain.items() if t in wet)
    assert d.water and len(d.water) < len(hm.terrain)
    country: dict[str, str] = {}
    for name in ("soviet_union", "bulgaria", "germany", "finland", "hungary", "romania",
                 "turkey"):
        for h in hm.areas.get(name, ()):
            country[h] = name
    assert list(d.country.items()) == list(country.items())
    sides: dict[tuple[str, str], frozenset[str]] = {}
    for (a, b), f in hm.hexsides.items():
        sides[(a, b)] = f
        sides[(b, a)] = f
    assert d.hexsides_both_ways() == sides
    (a, b), f = next(iter(hm.hexsides.items()))
    assert d.side_features(b, a) == d.side_features(a, b) == f != frozenset()


def test_an_ending_is_parsed_when_first_listed_not_when_its_step_is_made() -> None:
    """Making every step parses no ending ('end combat', 8.0): a command that lists no
    ending (a retreat's listing, 8.6) never needs one (issue 35); the step still ends with
    the same action once asked, parsed once a process."""
    probe = ("from engines.motherland import notation\n"
             "from engines.motherland.steps import STEPS\n"
             "made = list(STEPS.values())\n"
             "print(sorted(notation._ENDINGS))\n"
             "end = STEPS['combat'].ending_for(None, None)\n"
             "print(end, sorted(notation._ENDINGS),\n"
             "      end is STEPS['combat'].ending_for(None, None))\n"
             "print(STEPS['advance'].ending_for(None, None), STEPS['reinf'].ended())\n")
    out_lines = fresh_run(probe)
    assert out_lines == ["[]", "end combat ['end combat'] True",
                         "end advance end reinforcements"]


def test_the_procedures_are_instances_of_one_class_named_as_before() -> None:
    """The seventeen procedures (supply 9.0, combat 8.2-8.7, chits 11.1, ...) are made
    without a class each (issue 35: 2.3 M instructions of every import), each naming its
    step, rule and arguments as the runtime reads them."""
    from engines.motherland.combat import ApplySideArgs
    from engines.motherland.steps import PROCEDURES
    from pbem.steps import NoArgs

    assert len({type(p) for p in PROCEDURES}) == 1
    assert [p.name for p in PROCEDURES] == list(STEPS)[-17:]
    assert (STEPS["apply_side"].rule, STEPS["apply_side"].Args) == ("8.5", ApplySideArgs)
    assert (STEPS["stacking"].rule, STEPS["stacking"].Args) == ("6.0", NoArgs)


#: a restored retreat (8.6): listed, and its units named as a prompt names them
_RETREAT = _SETTLE + """
s = ENGINE.restore(json.loads(sys.stdin.read()))
assert s.stack[-1].step == "retreat" and s.legal_actions()
s.counters("axis")
print(json.dumps("engines.motherland.chits" in sys.modules))
"""


def test_8_6_a_retreat_listing_loads_no_chit_rules() -> None:
    """A combat's retreats and advances read no Strength Chit (11.0) or General (16.5):
    the chit rules load with the first combat of a chit army, or a unit eliminated."""
    from pbem.testing import Chooser, decisions

    st = ENGINE.new_state("4-uranus", ENGINE.resolve_options({}))
    # a Combat Phase's retreat (an overrun's, in the Movement Phase, loads that phase's
    # rules, and the supply rules read chits: 9.5)
    at = next(s for s in decisions(st, Chooser(3), 3000) if s.stack[-1].step == "retreat"
              and "combat" in (steps := [f.step for f in s.stack]) and "move" not in steps)
    assert json.loads(_run(_RETREAT, json.dumps(at.snapshot()))) is False
