"""Issue 11: For the Motherland! rules deviations, each set up from the book's text.

Every test names the rule it checks; the position is the smallest one that shows it.
"""

from __future__ import annotations

import pytest

from engines.motherland import MotherlandEngine
from engines.motherland.state import MotherlandState
from pbem.errors import IllegalAction

from .conftest import position


def notations(st: MotherlandState) -> list[str]:
    return [a.notation() for a in st.legal_actions()]


def force(st: MotherlandState, code: str) -> list[str]:
    """Replace the pending CRT roll by the result ``code`` (the test's chosen outcome)."""
    assert st.is_chance() and st.s["tasks"][0].get("then") == "crt", st.s["tasks"][:1]
    st.s["tasks"].pop(0)
    n = len(st._events)
    st._combat_result(code)
    st._run()
    return [e.text for e in st._events[n:]]


def until(st: MotherlandState, phase: tuple[str, str]) -> None:
    """Play on to ``phase``, every side ending each step and every die rolling 6."""
    while st.phase() != phase:
        if st.is_chance():
            st.apply_outcome(tuple(6 for _ in range(st.chance_request().count))
                             if st.chance_request().kind == "dice" else
                             tuple(st.chance_request().options[:st.chance_request().count]))
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
    assert st.s["hit"] == ["1214"]
    until(st, ("combat", "soviet"))
    assert st.s["hit"] == []  # the Axis phase's marks are gone
    assert "attack 1214 with 16A" in notations(st)
    st.apply("attack 1214 with 16A")  # accepted, not refused as 8.3.1
    assert st.s["hit"] == ["1214"]


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
    assert st.u("5A")["hex"] == "1314"
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
    assert st.u("5A")["hex"] == "1114" and st.u("5A")["rin"]
    st.apply("end advance")
    st.apply("end combat")
    assert st.phase() == ("exploit", "axis")
    texts = [e.text for e in st.apply("overrun 1114 with 47Pz")]
    assert any(t.startswith("Odds 9 to 4 ") for t in texts), texts  # 3 (5A) + 1 (factory)
