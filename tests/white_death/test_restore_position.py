"""A position read at once (``position.position_from_data``, its units by
``units_from_data``) is the position pbem.codec reads, and data the codec refuses is
refused with its very words: the quick reading takes the plain form only and hands
anything else to the codec (issue 35: the units field by field, and the position's type
hints resolved, were most of restoring a White Death position at every command that
loads a game)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engines.white_death import WhiteDeath
from engines.white_death.position import (
    Position,
    U,
    check_amounts,
    position_from_data,
    units_from_data,
)
from engines.white_death.state import WDState
from pbem import canonical, codec
from pbem.errors import FormatError
from pbem.steps import StepState
from pbem.testing import Chooser, decisions


@pytest.mark.parametrize("scenario", ["woehler", "purkayev"])
def test_the_units_read_at_once_are_the_codecs_along_a_seeded_game(
        engine: WhiteDeath, scenario: str) -> None:
    s = engine.new_state(scenario)
    assert isinstance(s, WDState)
    seen = marked = combats = 0
    for n, at in enumerate(decisions(s, Chooser(f"restore/{scenario}/1"), 600)):
        if n % 7:
            continue
        assert isinstance(at, WDState)
        snap = at.snapshot()
        # as a save's bytes decode (sorted fields), and as the state gives it
        snap = canonical.decode(canonical.encode(snap)) if n % 2 else snap
        data = snap["body"]["position"]["units"]
        quick = units_from_data(data)
        assert quick is not None
        assert quick == codec.from_data(dict[str, U], data)
        assert list(quick) == list(data)
        marked += any(u.marks for u in quick.values())
        whole = position_from_data(snap["body"]["position"])
        assert whole is not None
        assert whole == codec.from_data(Position, snap["body"]["position"])
        combats += whole.combat is not None or bool(whole.plans)
        back = engine.restore(snap)
        assert isinstance(back, WDState)
        assert back.pos == at.pos and back.digest() == at.digest()
        seen += 1
    assert seen >= 10
    assert marked >= 1  # the codec's own reading of a unit's marks was taken too
    assert combats >= 1  # and of the records inside


def _changed(unit: dict[str, Any], how: str) -> dict[str, Any]:
    out = dict(unit)
    if how == "missing":
        del out["spent"]
    elif how == "extra":
        out["zz"] = 0
    elif how == "bool for int":
        out["strength"] = True
    elif how == "int for bool":
        out["stopped"] = 0
    elif how == "int for str":
        out["loc"] = 2324
    elif how == "none":
        out["via"] = None
    elif how == "marks not a list":
        out["marks"] = "entered"
    elif how == "marks twice":
        out["marks"] = ["entered", "entered"]
    elif how == "marks out of order":  # canonical order: by the encoded bytes
        out["marks"] = ["no-assault", "entered"]
    elif how == "marks not str":
        out["marks"] = [1]
    elif how == "reordered":  # the codec reads the fields by name: the same unit
        names = list(out)
        out = {n: out[n] for n in [*names[1:], names[0]]}
    return out


@pytest.mark.parametrize("how", ["missing", "extra", "bool for int", "int for bool",
                                 "int for str", "none", "marks not a list", "marks twice",
                                 "marks out of order", "marks not str", "reordered",
                                 "not a map", "units not a map"])
def test_units_the_codec_refuses_are_refused_in_its_words(
        engine: WhiteDeath, how: str) -> None:
    s = engine.new_state("woehler")
    snap = copy.deepcopy(s.snapshot())
    units = snap["body"]["position"]["units"]
    uid = sorted(units)[len(units) // 2]
    if how == "not a map":
        units[uid] = list(units[uid].values())
    elif how == "units not a map":
        snap["body"]["position"]["units"] = list(units.items())
    else:
        units[uid] = _changed(units[uid], how)
    data = snap["body"]["position"]["units"]
    assert units_from_data(data) is None
    if how == "reordered":  # the codec's way: the same position
        assert engine.restore(snap).digest() == s.digest()
        return
    with pytest.raises(FormatError) as runtime:
        plain = WDState(engine, "woehler", dict(snap["options"]))
        StepState.restore_body(plain, snap["body"])
    with pytest.raises(FormatError) as ours:
        engine.restore(snap)
    assert str(ours.value) == str(runtime.value)
    assert "position.units" in str(ours.value)


def test_marks_in_canonical_order_are_read_by_the_codec(engine: WhiteDeath) -> None:
    s = engine.new_state("woehler")
    snap = copy.deepcopy(s.snapshot())
    units = snap["body"]["position"]["units"]
    uid = sorted(units)[0]
    marks = {"no-assault", "entered", "barraged"}
    units[uid]["marks"] = codec.to_data_of(set[str], marks)
    quick = units_from_data(units)
    assert quick is not None and quick[uid].marks == marks
    assert quick == codec.from_data(dict[str, U], units)


def test_a_restored_position_shares_nothing_with_its_data(engine: WhiteDeath) -> None:
    s = engine.new_state("woehler")
    snap = s.snapshot()
    a, b = engine.restore(snap), engine.restore(snap)
    assert isinstance(a, WDState) and isinstance(b, WDState)
    a.pos.mps["soviet"] = 0
    a.pos.combat_hexes.append("0101")
    a.pos.bridges.add("0101")
    assert b.pos == s.pos and b.digest() == s.digest()


def _damaged(pos: dict[str, Any], how: str) -> None:
    if how == "missing":
        del pos["weather"]
    elif how == "extra":
        pos["zz"] = 0
    elif how == "bool for int":
        pos["turn"] = True
    elif how == "int for str":
        pos["weather"] = 3
    elif how == "int for bool":
        pos["vl_avoid"] = 0
    elif how == "map value":
        pos["mps"] = {"soviet": "10", "german": 10}
    elif how == "map key":  # the codec reads a map's keys as they come: the same map
        pos["counts"] = {1: 2}
    elif how == "set out of order":
        pos["paid"] = ["assault:soviet", "rocket:soviet"]  # canonical: shorter first
    elif how == "set twice":
        pos["bridges"] = ["0101", "0101"]
    elif how == "list item":
        pos["combat_hexes"] = ["0101", 2]
    elif how == "lists map":
        pos["assaults"] = {"0101": "I/2"}
    elif how == "record":
        pos["bunkers"] = [{"hex": "0101"}]
    elif how == "arrival":
        pos["schedule"] = [{"turn": "3", "uid": "I/2", "area": "german-west"}]
    elif how == "combat":
        pos["combat"] = {"hex": "0101"}
    elif how == "none for map":
        pos["losses"] = None
    elif how == "position not a map":
        pos.clear()


@pytest.mark.parametrize("how", ["missing", "extra", "bool for int", "int for str",
                                 "int for bool", "map value", "map key", "set out of order",
                                 "set twice", "list item", "lists map", "record", "arrival",
                                 "combat", "none for map", "position not a map"])
def test_positions_the_codec_refuses_are_refused_in_its_words(
        engine: WhiteDeath, how: str) -> None:
    s = engine.new_state("woehler")
    snap = copy.deepcopy(s.snapshot())
    pos = snap["body"]["position"]
    _damaged(pos, how)
    assert position_from_data(pos) is None
    if how == "map key":
        assert engine.restore(snap).pos.counts == {1: 2}  # type: ignore[attr-defined]
        return
    with pytest.raises(FormatError) as runtime:
        plain = WDState(engine, "woehler", dict(snap["options"]))
        StepState.restore_body(plain, snap["body"])
    with pytest.raises(FormatError) as ours:
        engine.restore(snap)
    assert str(ours.value) == str(runtime.value)
    assert "position" in str(ours.value)


def _combat_position(engine: WhiteDeath) -> dict[str, Any]:
    """The snapshot of a purkayev game at its first decision with a combat under way
    (Rules 9-11.A) and an allocation made, as a save's bytes decode."""
    s = engine.new_state("purkayev")
    for at in decisions(s, Chooser("restore/combat/1"), 900):
        assert isinstance(at, WDState)
        if at.pos.combat is not None and at.pos.combat.alloc:
            snap: dict[str, Any] = canonical.decode(canonical.encode(at.snapshot()))
            return snap
    raise AssertionError("no combat with an allocation in 900 decisions")


def test_a_combat_is_read_without_the_codec(engine: WhiteDeath,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    snap = _combat_position(engine)
    pos = snap["body"]["position"]
    want = codec.from_data(Position, pos)
    asked: list[str] = []
    real = codec.from_data

    def spy(tp: Any, data: Any, where: str = "") -> Any:
        asked.append(where)
        return real(tp, data, where)

    monkeypatch.setattr(codec, "from_data", spy)
    got = position_from_data(pos)
    assert got == want and got is not None and got.combat is not None
    assert got.combat.alloc and got.bar is None and got.final is None
    # the combat, its plans, the absent barrage and result, the empty phase's losses:
    # read here (resolving Combat's and Allocation's type hints cost every command at a
    # combat step about 1.6 M instructions, issue 35)
    assert not {w for w in asked if w.startswith(("position.combat", "position.plans",
                                                  "position.bar", "position.final"))}


def _combat_damaged(pos: dict[str, Any], how: str) -> None:
    combat = pos["combat"]
    alloc = combat["alloc"][0]
    if how == "combat not a map":
        pos["combat"] = list(combat.values())
    elif how == "combat field missing":
        del combat["checked"]
    elif how == "combat field extra":
        combat["zz"] = []
    elif how == "hex not str":
        combat["hex"] = 101
    elif how == "support item":
        combat["support"] = [1]
    elif how == "checked not a list":
        combat["checked"] = "I/2"
    elif how == "alloc not a list":
        combat["alloc"] = alloc
    elif how == "allocation field missing":
        del alloc["kind"]
    elif how == "amount not lowest terms":
        alloc["amount"] = [alloc["amount"][0] * 2, alloc["amount"][1] * 2]
    elif how == "amount zero denominator":
        alloc["amount"] = [1, 0]
    elif how == "amount negative denominator":
        alloc["amount"] = [1, -2]
    elif how == "amount bool":
        alloc["amount"] = [True, 1]
    elif how == "amount three":
        alloc["amount"] = [1, 2, 3]
    elif how == "plans item":
        pos["plans"] = [combat, "0101"]
    elif how == "plans not a list":
        pos["plans"] = combat
    elif how == "barrage phase value":
        pos["barrage_phase"] = {"I/2": 1}


@pytest.mark.parametrize("how", [
    "combat not a map", "combat field missing", "combat field extra", "hex not str",
    "support item", "checked not a list", "alloc not a list", "allocation field missing",
    "amount not lowest terms", "amount zero denominator", "amount negative denominator",
    "amount bool", "amount three", "plans item", "plans not a list",
    "barrage phase value"])
def test_combats_the_codec_refuses_are_refused_in_its_words(
        engine: WhiteDeath, how: str) -> None:
    snap = _combat_position(engine)
    pos = snap["body"]["position"]
    _combat_damaged(pos, how)
    assert position_from_data(pos) is None
    with pytest.raises(FormatError) as runtime:
        # the codec's way, as WDState.restore_body takes it: an amount is the codec's
        # pair of ints, then held to a Fraction's terms (check_amounts)
        plain = WDState(engine, "purkayev", dict(snap["options"]))
        StepState.restore_body(plain, snap["body"])
        check_amounts(plain.pos)
    with pytest.raises(FormatError) as ours:
        engine.restore(snap)
    assert str(ours.value) == str(runtime.value)
    assert "position." in str(ours.value)
