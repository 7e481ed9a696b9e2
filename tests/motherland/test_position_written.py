"""The position read and written by hand (``position.position_from_data``,
``position.position_bytes``) is the position pbem.codec reads and the bytes it writes, and
anything else goes the codec's way: refused in its words, or written as it writes it
(issue 35: the codec's readers and writers, built at a process's first restore and first
digest, were about 3 M instructions of every turn command and 5 M more of an act's or a
receive's)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engines.motherland import MotherlandEngine
from engines.motherland.combat import LoseArgs
from engines.motherland.position import (
    Combat,
    GameEnd,
    Position,
    position_bytes,
    position_from_data,
)
from engines.motherland.state import MotherlandState
from pbem import canonical, codec
from pbem.errors import FormatError
from pbem.plainargs import args_data, args_from_data
from pbem.steps import StepState
from pbem.testing import Chooser, decisions

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("scenario", "seed", "steps"), [
    ("4-uranus", 1, 900), ("4-uranus", 2, 900), ("5-zitadelle", 3, 600),
    ("1-barbarossa", 4, 500)])
def test_the_hand_reader_and_writer_are_the_codecs_along_seeded_games(
        engine: MotherlandEngine, scenario: str, seed: int, steps: int) -> None:
    s = engine.new_state(scenario)
    assert isinstance(s, MotherlandState)
    seen = combats = 0
    for n, at in enumerate(decisions(s, Chooser(f"written/{scenario}/{seed}"), steps)):
        assert isinstance(at, MotherlandState)
        assert position_bytes(at.pos) == codec.to_canonical_bytes(at.pos, 2)
        if n % 7:
            continue
        snap = at.snapshot()
        # as a save's bytes decode (sorted fields), and as the state gives it
        snap = canonical.decode(canonical.encode(snap)) if n % 2 else snap
        data = snap["body"]["position"]
        quick = position_from_data(data)
        assert quick is not None
        assert quick == codec.from_data(Position, data)
        assert list(quick.units) == list(data["units"])
        back = engine.restore(snap)
        assert isinstance(back, MotherlandState)
        assert back.pos == at.pos and back.digest() == at.digest()
        seen += 1
        combats += at.pos.combat is not None
    assert seen >= 30 and combats >= 3


def _combat_position(engine: MotherlandEngine) -> MotherlandState:
    s = engine.new_state("4-uranus")
    assert isinstance(s, MotherlandState)
    s.pos.combat = Combat(kind="attack", target="2223", side="soviet", attackers=["5T"],
                          defenders=["11K", "8K"], air=False, rrgun=False,
                          orig={"5T": "2323", "8K": "2223"}, result="D2", attack=9,
                          defense=4, shift=-1, column="2-1", eliminated={"def", "att"},
                          took={"def": (2, 1)}, cut={"def": 1})
    s.pos.result = GameEnd(winner=None, text="a draw", level="draw")
    s.position_changed()
    return s


def test_every_field_of_a_combat_and_an_ending_is_written_and_read_as_the_codec_does(
        engine: MotherlandEngine) -> None:
    s = _combat_position(engine)
    assert position_bytes(s.pos) == codec.to_canonical_bytes(s.pos, 2)
    data = canonical.decode(canonical.encode(s.snapshot()))["body"]["position"]
    assert data["combat"]["eliminated"] == ["att", "def"]
    assert position_from_data(data) == codec.from_data(Position, data) == s.pos


def _broken(data: dict[str, Any], how: str) -> None:
    combat = data["combat"]
    if how == "bool for int":
        data["turn"] = True
    elif how == "int for bool":
        data["late"] = 0
    elif how == "missing field":
        del data["odessa_closed"]
    elif how == "extra field":
        data["zz"] = 1
    elif how == "air not a map":
        data["air"] = [5, 0]
    elif how == "a set out of order":
        combat["eliminated"] = ["def", "att"]
    elif how == "a set twice":
        combat["eliminated"] = ["def", "def"]
    elif how == "a pair of three":
        combat["took"]["def"] = [2, 1, 0]
    elif how == "bool in a pair":
        combat["took"]["def"] = [True, 1]
    elif how == "a cup not a list":
        data["cups"][sorted(data["cups"])[0]] = "A1"
    elif how == "winner a number":
        data["result"]["winner"] = 1
    elif how == "hit not a list":
        data["hit"] = "2223"


@pytest.mark.parametrize("how", [
    "bool for int", "int for bool", "missing field", "extra field", "air not a map",
    "a set out of order", "a set twice", "a pair of three", "bool in a pair",
    "a cup not a list", "winner a number", "hit not a list"])
def test_data_not_in_the_plain_form_goes_the_codecs_way(
        engine: MotherlandEngine, how: str) -> None:
    s = _combat_position(engine)
    snap = canonical.decode(canonical.encode(s.snapshot()))
    _broken(snap["body"]["position"], how)
    assert position_from_data(snap["body"]["position"]) is None
    try:
        plain = MotherlandState(engine, "4-uranus", dict(snap["options"]))
        StepState.restore_body(plain, snap["body"])
    except FormatError as refused:
        with pytest.raises(FormatError) as ours:
            engine.restore(copy.deepcopy(snap))
        assert str(ours.value) == str(refused)
    else:  # the codec reads it (a field missing has its default): so does the engine
        back = engine.restore(copy.deepcopy(snap))
        assert isinstance(back, MotherlandState)
        assert back.pos == plain.pos


@pytest.mark.parametrize("how", ["bool for int", "a set of numbers", "a pair as a list",
                                 "a unit not a unit"])
def test_a_position_not_of_its_types_is_written_the_codecs_way(
        engine: MotherlandEngine, how: str) -> None:
    s = _combat_position(engine)
    combat = s.pos.combat
    assert combat is not None
    if how == "bool for int":
        s.pos.units[sorted(s.pos.units)[3]].mp = True
    elif how == "a set of numbers":
        combat.eliminated = {1, 2}  # type: ignore[arg-type]
    elif how == "a pair as a list":
        combat.took = {"def": [2, 1]}  # type: ignore[dict-item]
    else:
        s.pos.units["11K"] = dict(hex="2223")  # type: ignore[assignment]
    s.position_changed()
    assert position_bytes(s.pos) is None
    # the runtime's own writer gives the same bytes, or the same refusal
    try:
        want = StepState.normal_body(s)
    except Exception as e:  # whatever it raises, ours raises
        with pytest.raises(type(e)):
            s.normal_body()
    else:
        assert s.normal_body() == want


def test_a_turn_commands_restore_and_digest_build_no_codec_reader_or_writer_of_the_position(
        engine: MotherlandEngine, tmp_path: Path) -> None:
    """A restore and two digests, as an act makes, in a fresh process: the codec makes no
    reader nor writer of the position's classes, nor of its frames' arguments (each is
    built at its first use)."""
    s = _combat_position(engine)
    saved = tmp_path / "snap"
    saved.write_bytes(canonical.encode(s.snapshot()))
    code = f"""
import json, sys
from pathlib import Path
from engines.motherland import ENGINE
from engines.motherland import position as p
from pbem import canonical, codec
st = ENGINE.restore(canonical.decode(Path({str(saved)!r}).read_bytes()))
first = st.digest()
st._encoded = None
assert st.digest() == first
built = [c.__name__ for c in (p.Position, p.Unit, p.Combat, p.Air, p.GameEnd,
                             *(st.steps[f.step].Args for f in st.stack))
         if c in codec._QUICK or c in codec._PACKERS or c in codec._DECODERS
         or c in codec._ENCODERS]
print(json.dumps(built))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True)
    assert json.loads(out.stdout) == []


def test_frames_read_and_written_by_hand_are_the_codecs_along_a_seeded_game(
        engine: MotherlandEngine) -> None:
    s = engine.new_state("4-uranus")
    assert isinstance(s, MotherlandState)
    kinds: set[type] = set()
    for n, at in enumerate(decisions(s, Chooser("frames/4-uranus/5"), 700)):
        assert isinstance(at, MotherlandState)
        for f in at.stack:
            cls = at.steps[f.step].Args
            data = args_data(cls, f.args)
            assert data is not None and data == codec.to_data_of(cls, f.args)
            assert list(data) == list(codec.to_data_of(cls, f.args))
            if n % 5 == 0:
                sorted_data = canonical.decode(canonical.encode(data))
                assert args_from_data(cls, sorted_data) == codec.from_data(cls, sorted_data)
            kinds.add(cls)
    assert len(kinds) >= 10


@pytest.mark.parametrize(("field", "value"), [
    ("side", 1), ("n", True), ("n", "1"), ("units", ("5T",)), ("units", [1]),
    ("taken", {"5T": True}), ("taken", [["5T", 1]]), ("why", None)])
def test_frame_arguments_not_of_their_types_go_the_codecs_way(
        field: str, value: Any) -> None:
    good = LoseArgs(side="soviet", n=2, units=["5T"], taken={"5T": 1})
    data = codec.to_data_of(LoseArgs, good)
    assert args_from_data(LoseArgs, data) == good
    bad = {**data, field: value}
    assert args_from_data(LoseArgs, bad) is None
    assert args_from_data(LoseArgs, {k: v for k, v in data.items() if k != field}) is None
    assert args_from_data(LoseArgs, {**data, "zz": 1}) is None
    wrong = LoseArgs(**{**data, field: value})
    assert args_data(LoseArgs, wrong) is None


def test_a_frame_the_codec_refuses_is_refused_in_its_words(engine: MotherlandEngine) -> None:
    s = _combat_position(engine)
    snap = canonical.decode(canonical.encode(s.snapshot()))
    stack = snap["body"]["stack"]
    stack[-1][2] = {**stack[-1][2], "zz": 1} if stack[-1][2] else {"zz": 1}
    plain = MotherlandState(engine, "4-uranus", dict(snap["options"]))
    try:
        StepState.restore_body(plain, snap["body"])
    except FormatError as refused:
        with pytest.raises(FormatError) as ours:
            engine.restore(snap)
        assert str(ours.value) == str(refused)
    else:
        back = engine.restore(snap)
        assert isinstance(back, MotherlandState)
        assert back.stack == plain.stack
