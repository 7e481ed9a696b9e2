"""The first position a process writes is written by hand (``position.position_normal``,
``WDState.normal_body``): the same canonical bytes as the codec's typed writer and the
generic walk, and the codec builds none of its writers for it (issue 35: building them
was 8.8 M instructions of a ``receive``'s one digest).  A position holding what its types
do not promise is left to the codec, as before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.white_death import ENGINE
from engines.white_death import state as wdstate
from engines.white_death.position import Barrage, Final, PhaseLoss, Position, position_normal
from engines.white_death.state import WDState
from pbem import canonical, codec
from pbem.testing import Chooser, decisions, fresh_run


def _written(pos: Position) -> bytes:
    normal = position_normal(pos)
    assert normal is not None
    return canonical.pack_normal(normal)


@pytest.mark.parametrize("scenario", ["purkayev", "campaign"])
def test_the_hand_written_position_is_the_codecs(scenario: str) -> None:
    s = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(s, WDState)
    seen = combats = fractions = barrages = marked = 0
    for n, at in enumerate(decisions(s, Chooser(f"written/{scenario}/1"), 1500)):
        assert isinstance(at, WDState)
        pos = at.pos
        if n % 5 and not (pos.combat and pos.combat.alloc) and pos.bar is None:
            continue
        assert position_normal(pos) == canonical.normalize(codec.to_data(pos), 2)
        assert _written(pos) == codec.to_canonical_bytes(pos, 2)
        seen += 1
        combats += pos.combat is not None or bool(pos.plans)
        fractions += any(a.amount[1] > 1 for c in (pos.combat, *pos.plans) if c
                         for a in c.alloc)
        barrages += pos.bar is not None or bool(pos.barrage_phase)
        marked += any(u.marks for u in pos.units.values())
    assert seen >= 50 and combats and marked
    if scenario == "purkayev":
        assert fractions and barrages


def test_a_barrage_and_the_result_are_written_as_the_codec_writes_them() -> None:
    s = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(s, WDState)
    pos = s.pos.copy()
    pos.bar = Barrage("3901", ["b", "a", "c"], {"z": 2, "a": 1})
    pos.barrage_phase = {"x": PhaseLoss(4, 1), "a": PhaseLoss(2, 0)}
    pos.final = Final({"soviet": 3, "german": 1}, {"Velikiye Luki": "", "Citadel": "german"})
    pos.paid = {"rocket:soviet", "assault:soviet", "high:german"}
    assert _written(pos) == codec.to_canonical_bytes(pos, 2)


def _damaged(pos: Position, how: str) -> None:
    u = pos.units[sorted(pos.units)[0]]
    if how == "int for bool":
        u.deployed = 0  # type: ignore[assignment]
    elif how == "bool for int":
        u.strength = True
    elif how == "marks not str":
        u.marks = {1}  # type: ignore[arg-type]
    elif how == "map value":
        pos.mps["soviet"] = "10"  # type: ignore[assignment]
    elif how == "set a list":
        pos.bridges = ["0101"]  # type: ignore[assignment]
    elif how == "fraction a float":
        pos.barrage_phase = {"x": PhaseLoss(1.5, 0)}  # type: ignore[arg-type]
    elif how == "unit not a unit":
        pos.units["x"] = "y"  # type: ignore[assignment]


@pytest.mark.parametrize("how", ["int for bool", "bool for int", "marks not str",
                                 "map value", "set a list", "fraction a float",
                                 "unit not a unit"])
def test_a_position_of_other_types_is_left_to_the_codec(
        how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    s = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(s, WDState)
    _damaged(s.pos, how)
    assert position_normal(s.pos) is None
    # the state's own digest: the codec's or the generic walk's, as before
    monkeypatch.setattr(wdstate, "_HAND_WRITTEN", [])
    mine = s.normal_body()
    monkeypatch.setattr(wdstate, "_HAND_WRITTEN", [True])
    assert mine == s.normal_body()


def test_the_states_bytes_are_the_same_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    s = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(s, WDState)
    for _ in decisions(s, Chooser("written/state/1"), 400):
        pass
    monkeypatch.setattr(wdstate, "_HAND_WRITTEN", [])
    by_hand = s.normal_body()
    assert wdstate._HAND_WRITTEN
    by_codec = s.normal_body()
    assert by_hand is not None and by_hand == by_codec
    snap: Any = s.snapshot()
    assert canonical.encode(snap["body"]) == by_hand


_FIRST = """
import json, sys
from engines.white_death import ENGINE
from engines.white_death.position import Position
from pbem import codec
s = ENGINE.restore(json.loads(sys.stdin.read()))
s.digest()
built_first = Position in codec._PACKERS
s.apply_outcome((3,))
s.digest()
print(json.dumps([built_first, Position in codec._PACKERS]))
"""

_NEW = """
import json
from engines.white_death import ENGINE
from engines.white_death.position import Position
from pbem import codec
s = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
s.digest()
print(json.dumps(Position in codec._PACKERS))
"""


def test_a_process_writes_its_first_position_without_the_codecs_writers() -> None:
    # a turn command: a game restored from its save writes one position or two
    s = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    built_first, built_second = json.loads(fresh_run(_FIRST, json.dumps(s.snapshot()))[-1])
    assert not built_first
    assert built_second  # the second on: the codec's, which keeps the units' bytes
    # a game played or replayed from its start (an audit: 31 positions of a purkayev
    # game) has the codec's writers from the first
    assert json.loads(fresh_run(_NEW)[-1]) is True
