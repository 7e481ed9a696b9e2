"""A position's units read at once (``position.units_from_data``) are the units pbem.codec
reads, and data the codec refuses is refused with its very words: the quick reading takes
the plain form only and hands anything else to the codec (issue 35: the units were half of
restoring a position)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engines.motherland import MotherlandEngine
from engines.motherland.position import Unit, units_from_data
from engines.motherland.state import MotherlandState
from pbem import canonical, codec
from pbem.errors import FormatError
from pbem.steps import StepState
from pbem.testing import Chooser, decisions


def test_the_units_read_at_once_are_the_codecs_along_a_seeded_game(
        engine: MotherlandEngine) -> None:
    s = engine.new_state("4-uranus")
    assert isinstance(s, MotherlandState)
    seen = 0
    for n, at in enumerate(decisions(s, Chooser("restore/4-uranus/1"), 400)):
        if n % 23:
            continue
        assert isinstance(at, MotherlandState)
        snap = at.snapshot()
        # as a save's bytes decode (sorted fields), and as the state gives it
        snap = canonical.decode(canonical.encode(snap)) if n % 2 else snap
        data = snap["body"]["position"]["units"]
        quick = units_from_data(data)
        assert quick is not None
        assert quick == codec.from_data(dict[str, Unit], data)
        assert list(quick) == list(data)
        back = engine.restore(snap)
        assert isinstance(back, MotherlandState)
        assert back.pos == at.pos and back.digest() == at.digest()
        seen += 1
    assert seen >= 10


def _changed(unit: dict[str, Any], how: str) -> dict[str, Any]:
    out = dict(unit)
    if how == "missing":
        del out["mp"]
    elif how == "extra":
        out["zz"] = 0
    elif how == "bool for int":
        out["steps"] = True
    elif how == "int for bool":
        out["attacked"] = 0
    elif how == "int for str":
        out["hex"] = 2324
    elif how == "none":
        out["chit"] = None
    elif how == "reordered":  # the codec reads the fields by name: the same unit
        names = list(out)
        out = {n: out[n] for n in [*names[1:], names[0]]}
    return out


@pytest.mark.parametrize("how", ["missing", "extra", "bool for int", "int for bool",
                                 "int for str", "none", "reordered", "not a map",
                                 "units not a map"])
@pytest.mark.parametrize("as_saved", [False, True])
def test_units_the_codec_refuses_are_refused_in_its_words(
        engine: MotherlandEngine, how: str, as_saved: bool) -> None:
    s = engine.new_state("4-uranus")
    # as the state gives it, and as a save's bytes decode (every unit's fields sorted:
    # the units read a field at a time for all of them)
    snap = (canonical.decode(canonical.encode(s.snapshot())) if as_saved
            else copy.deepcopy(s.snapshot()))
    units = snap["body"]["position"]["units"]
    uid = sorted(units)[len(units) // 2]
    if how == "not a map":
        units[uid] = list(units[uid].values())
    elif how == "units not a map":
        snap["body"]["position"]["units"] = list(units.items())
    else:
        units[uid] = _changed(units[uid], how)
    data = snap["body"]["position"]["units"]
    if how == "reordered":  # read by name, as the codec reads it: the same position
        assert units_from_data(data) == codec.from_data(dict[str, Unit], data)
        assert engine.restore(snap).digest() == s.digest()
        return
    assert units_from_data(data) is None
    with pytest.raises(FormatError) as runtime:
        plain = MotherlandState(engine, "4-uranus", dict(snap["options"]))
        StepState.restore_body(plain, snap["body"])
    with pytest.raises(FormatError) as ours:
        engine.restore(snap)
    assert str(ours.value) == str(runtime.value)
    assert "position.units" in str(ours.value)
