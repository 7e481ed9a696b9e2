"""Backhand Blow reads and writes its frames' arguments by hand where they are of plain
kinds (strings, ints, booleans, tuples of strings), not by pbem.codec, which resolved
each class's annotations and built its reader and writer at a process's first restore
and digest (issue 35): the same data and the same arguments as the codec's at every
decision of seeded games, and the codec's way, with its words, for anything else."""

from __future__ import annotations

from typing import Any

import pytest

from engines.backhand import ENGINE
from engines.backhand.position import MoveArgs, SegState
from engines.backhand.state import BBState
from pbem import codec
from pbem.errors import FormatError
from pbem.plainargs import args_data, args_from_data
from pbem.steps import StepState
from pbem.testing import Chooser, decisions, fresh_run


@pytest.mark.parametrize(("scenario", "seed"), [("high-water-mark", "bbargs/1"),
                                                ("backhand-blow", "bbargs/2")])
def test_frame_arguments_are_read_and_written_as_the_codec_does(scenario: str,
                                                               seed: str) -> None:
    st = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    by_hand: set[str] = set()
    for at in decisions(st, Chooser(seed), 1500):
        assert isinstance(at, BBState)
        assert at.stack_data() == StepState.stack_data(at)
        for f in at.stack:
            cls = at.steps[f.step].Args
            theirs = codec.to_data_of(cls, f.args)
            mine = args_data(cls, f.args)
            if mine is not None:
                by_hand.add(cls.__name__)
                assert mine == theirs
                assert list(mine) == list(theirs)
            back = args_from_data(cls, theirs)
            if back is not None:
                assert back == codec.from_data(cls, theirs, "stack")
                assert type(back) is type(codec.from_data(cls, theirs, "stack"))
        twin = ENGINE.restore(at.snapshot())
        assert isinstance(twin, BBState)
        assert twin.stack == at.stack
    assert by_hand >= {"NoArgs", "SegState", "PhaseArgs", "MoveArgs"}


@pytest.mark.parametrize(("cls", "data"), [
    (SegState, {"side": "german", "kind": "sp", "no": True, "stage": 0, "first": "move"}),
    (SegState, {"side": "german", "kind": "sp", "no": 1, "stage": 0}),
    (MoveArgs, {"side": "german", "kind": "sp", "units": "LAH-1", "origin": "2510"}),
    (MoveArgs, {"side": "german", "kind": "sp", "units": [1], "origin": "2510"}),
    (MoveArgs, ["german", "sp", ["LAH-1"], "2510"]),
])
def test_arguments_of_other_kinds_are_read_the_codecs_way(cls: type, data: Any) -> None:
    assert args_from_data(cls, data) is None
    st = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    try:
        expected: Any = codec.from_data(cls, data, "stack[0][2]")
    except FormatError as exc:
        with pytest.raises(FormatError) as got:
            st.frame_args(cls, data, "stack[0][2]")
        assert str(got.value) == str(exc)
    else:
        assert st.frame_args(cls, data, "stack[0][2]") == expected


def test_arguments_holding_other_types_are_written_the_codecs_way() -> None:
    odd = MoveArgs("german", "sp", ["LAH-1"], "2510")  # type: ignore[arg-type]
    assert args_data(MoveArgs, odd) is None
    assert args_data(SegState, MoveArgs()) is None


_RESTORE = """
from engines.backhand import ENGINE
from pbem import codec
from pbem.plainargs import args_data, args_from_data
s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
snap = s.snapshot()
codec._DECODERS.clear()
codec._ENCODERS.clear()
twin = ENGINE.restore(snap)
twin._encoded = None
twin.digest()
print(twin.stack == s.stack, sorted(t.__name__ for t in (*codec._DECODERS, *codec._ENCODERS)
                                    if isinstance(t, type)))
"""


def test_a_restore_and_a_digest_build_no_codec_reader_or_writer_of_the_frames() -> None:
    assert fresh_run(_RESTORE) == ["True []"]
