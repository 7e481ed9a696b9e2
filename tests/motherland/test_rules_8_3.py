"""For the Motherland! 8.3.2 and 8.3.3, each set up as the book describes it and played
through the public engine API alone: the position is a real game's Axis Combat Phase whose
snapshot has the units moved (``Engine.restore``), and every step after it is an action
(``State.apply``) or an outcome the test chooses for a chance request
(``State.apply_outcome``); what is checked is what a player sees: the legal actions, the
refusals and the events' words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest

from engines.motherland import MotherlandEngine
from pbem.engine import Event, State
from pbem.errors import PbemError

SCENARIO = "6-for-the-motherland"


def combat_phase(engine: MotherlandEngine, units: Mapping[str, str],
                 chits: Mapping[str, str] | None = None) -> State:
    """The Axis Combat Phase of turn 1 with only ``units`` on the map (id -> hex), the
    Soviet armies' strength chits already revealed (``chits``)."""
    st = engine.new_state(SCENARIO, engine.resolve_options({}))
    while not st.legal_actions() or not any(
            a.notation().startswith("attack ") for a in st.legal_actions()):
        if st.is_chance():
            st.apply_outcome(first_outcome(st))
            continue
        ends = [a for a in st.legal_actions() if a.notation().startswith("end ")]
        st.apply(ends[0] if ends else st.legal_actions()[-1])
    snap = st.snapshot()
    # the position sits under the step stack since the engine moved onto pbem.steps
    body = snap["body"]["position"]
    for uid, u in body["units"].items():
        u.update(hex=units.get(uid, ""), box="" if uid in units else "out",
                 chit=(chits or {}).get(uid, ""), supply="", return_turn=0)
    body.update(control={}, partisans={}, hit=[])
    return engine.restore(snap)


def first_outcome(st: State) -> tuple[object, ...]:
    req = st.chance_request()
    return tuple(1 for _ in req.dice) if req.kind == "dice" else tuple(
        req.contents[:req.count])


def fight(st: State, attack: str, die: int) -> list[str]:
    """Declare ``attack`` and play it out: the CRT die is ``die``, every other request its
    first outcome, every decision of the results its first listed action; the words of
    every event, from the declaration on."""
    told: list[Event] = st.apply(attack)
    while st.is_chance() or not any(a.notation().startswith(("attack ", "end combat"))
                                    for a in st.legal_actions()):
        if st.is_chance():
            req = st.chance_request()
            outcome = (die,) if "CRT" in req.purpose else first_outcome(st)
            told += st.apply_outcome(outcome)
        else:
            told += st.apply(st.legal_actions()[0])
    return [e.text for e in told]


def factors(st: State, uid: str) -> tuple[int, int]:
    """A unit's attack and defense factors as the referee's board shows them."""
    label = next(p.label for p in st.view(None).pieces if p.id == uid)
    attack, defense = re.match(r"\D*(\d+)-(\d+)", label).groups()  # type: ignore[union-attr]
    return int(attack), int(defense)


def attacks(st: State) -> list[str]:
    return [a.notation() for a in st.legal_actions() if a.notation().startswith("attack ")]


# --- 8.3.2 ------------------------------------------------------------------------------


def test_8_3_2_one_hex_a_combat_and_one_combat_at_a_time(rules_engine: MotherlandEngine
                                                          ) -> None:
    """8.3.2 "The phasing player may only attack one hex at a time and cannot target more
    than one hex in a single combat": 41Pz in 1315 is next to two Soviet armies (1214,
    1215); every attack offered names one hex, an attack naming both is refused, and once
    1214's combat is declared no other attack may start until it is resolved."""
    st = combat_phase(rules_engine, {"41Pz": "1315", "5A": "1214", "16A": "1215"},
                      {"5A": "A4-3*", "16A": "A8-6"})
    offered = attacks(st)
    assert "attack 1214 with 41Pz" in offered and "attack 1215 with 41Pz" in offered
    assert all(len(re.findall(r"\b\d{4}\b", a.split(" with ")[0])) == 1 for a in offered)
    with pytest.raises(PbemError):
        st.apply("attack 1214 1215 with 41Pz")
    st.apply("attack 1214 with 41Pz")
    # the combat is under way: the next step is its chance request, not another attack
    assert st.is_chance() and not attacks(st)
    with pytest.raises(PbemError):
        st.apply("attack 1215 with 41Pz")


def test_8_3_2_a_hex_may_be_attacked_from_all_six_adjacent_hexes(
        rules_engine: MotherlandEngine) -> None:
    """8.3.2 "A defending hex can be attacked from up to six adjacent hexes": 5A in 1214
    with a German unit in each of its six neighbours; the one attack with all six is
    offered and the combat adds all six attack factors."""
    around = {"41Pz": "1213", "14Pz": "1314", "24Pz": "1315", "39Pz": "1215",
              "10K": "1115", "12K": "1114"}
    st = combat_phase(rules_engine, {**around, "5A": "1214"}, {"5A": "A4-3*"})
    everyone = "attack 1214 with " + " ".join(sorted(around))
    assert everyone in attacks(st)
    total = sum(factors(st, u)[0] for u in around)
    told = fight(st, everyone, 1)
    odds = next(t for t in told if t.startswith("Odds "))
    assert odds.startswith(f"Odds {total} to "), odds


# --- 8.3.3 ------------------------------------------------------------------------------


def test_8_3_3_units_of_one_stack_attack_different_hexes_in_separate_combats(
        rules_engine: MotherlandEngine) -> None:
    """8.3.3 "Units stacked in the same hex may attack different hexes as long as each
    attack is conducted as a separate combat": 41Pz and 10K share 1315; 41Pz attacks 5A
    in 1214, and after that combat 10K attacks 16A in 1215 (41Pz, having attacked, may
    not join it: 8.3.4)."""
    st = combat_phase(rules_engine, {"41Pz": "1315", "10K": "1315", "5A": "1214",
                                     "16A": "1215"},
                      {"5A": "A4-3*", "16A": "A8-6"})
    # the stack is offered whole against either hex; a part of it is a variant the list
    # leaves out and apply accepts (pbem.engine's contract)
    assert {"attack 1214 with 10K 41Pz", "attack 1215 with 10K 41Pz"} <= set(attacks(st))
    first = fight(st, "attack 1214 with 41Pz", 1)
    assert any(t.startswith("41Pz attacks") and "1214" in t for t in first), first
    assert "attack 1215 with 10K" in attacks(st)
    assert not any("41Pz" in a for a in attacks(st))
    alone = factors(st, "10K")[0]
    second = fight(st, "attack 1215 with 10K", 1)
    attack_line = next(t for t in second if t.startswith("10K attacks"))
    assert "1215" in attack_line and "41Pz" not in attack_line
    assert next(t for t in second if t.startswith("Odds ")).startswith(f"Odds {alone} to ")


def test_8_3_3_the_defenders_of_a_hex_defend_as_one_combined_strength(
        rules_engine: MotherlandEngine) -> None:
    """8.3.3 "All defending units in a hex must be attacked as one combined defense
    strength": 5A and 16A share 1214; an attack names the hex, never one army of it, the
    odds set 14Pz and 41Pz against both armies' defense together, and the result is one
    result for the hex, shared by both."""
    st = combat_phase(rules_engine, {"41Pz": "1314", "14Pz": "1213", "5A": "1214",
                                     "16A": "1214"},
                      {"5A": "A4-3*", "16A": "A8-6"})
    assert all(a.split(" with ")[0] == "attack 1214" for a in attacks(st))
    defense = factors(st, "5A")[1] + factors(st, "16A")[1]
    attack = factors(st, "41Pz")[0] + factors(st, "14Pz")[0]
    told = fight(st, "attack 1214 with 14Pz 41Pz", 6)
    attack_line = next(t for t in told if " attacks " in t)
    assert "5A" in attack_line and "16A" in attack_line, attack_line
    odds = next(t for t in told if t.startswith("Odds "))
    assert odds.startswith(f"Odds {attack} to {defense}"), odds
    # 2:1, die 6: D2, two steps for the hex as a whole (not two for each army), here
    # taken one from each as the first listed choice has it
    assert any(t.startswith("Die 6 = 6: D2") for t in told), told
    losses = [t for t in told if " loses a step" in t]
    assert len(losses) == 2 and {t.split()[0] for t in losses} == {"5A", "16A"}, losses
