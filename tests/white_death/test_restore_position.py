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
from engines.white_death.position import Position, U, position_from_data, units_from_data
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
