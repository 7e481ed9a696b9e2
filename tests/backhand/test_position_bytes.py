"""Backhand Blow writes its position's canonical bytes (what every file's digest signs
and every save holds) from plain data it makes itself, not by the codec's typed writer,
built at a process's first digest (issue 35: about 4 M instructions of every receive
and act): the very bytes the codec writes, at every decision of seeded games, and the
codec's way, with its words, for a position holding anything its types do not say."""

from __future__ import annotations

from typing import Any

import pytest

from engines.backhand import ENGINE
from engines.backhand.position import position_data
from engines.backhand.state import BBState
from pbem import canonical
from pbem.errors import FormatError
from pbem.steps import StepState
from pbem.testing import Chooser, decisions, fresh_run


def codec_bytes(st: BBState) -> bytes | None:
    """The body's bytes as the runtime writes them, the codec's typed writer."""
    return StepState.normal_body(st)


@pytest.mark.parametrize(("scenario", "seed"), [("high-water-mark", "bbbytes/1"),
                                                ("backhand-blow", "bbbytes/2")])
def test_the_position_is_written_as_the_codec_writes_it(scenario: str, seed: str) -> None:
    st = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    seen = 0
    for i, at in enumerate(decisions(st, Chooser(seed), 1500)):
        assert isinstance(at, BBState)
        if i % 10:
            continue
        assert position_data(at.pos) is not None
        mine = at.normal_body()
        assert mine is not None
        assert mine == codec_bytes(at)
        # the whole snapshot, as the digest hashes it: the generic encoding's bytes
        assert at._encode_normal() == canonical.encode(at.snapshot())
        seen += 1
    assert seen > 40


@pytest.mark.parametrize("spoil", [
    lambda p: setattr(p, "turn", True),  # a bool where the turn is an int
    lambda p: setattr(p, "cup", ("a", "b")),  # a tuple where a list is saved
    lambda p: p.fronts.__setitem__("southwest", 3810),  # an int in a map of hexes
    lambda p: p.c3i.__setitem__("soviet", "5"),  # a string in a map of ints
    lambda p: p.chits.__setitem__("german", ("x",)),  # a tuple in a map of lists
    lambda p: setattr(next(iter(p.units.values())), "steps", True),  # a bool for steps
    lambda p: setattr(next(iter(p.units.values())), "note", "x"),  # a field too many
    lambda p: p.units.__setitem__("X-1", {"at": "out", "steps": 1}),  # not a Unit
    lambda p: p.units.__setitem__(7, p.units.pop(next(iter(p.units)))),  # an id not a string
    # nine fields, one of them not a Unit's
    lambda p: next(iter(p.units.values())).__dict__.update(
        note=next(iter(p.units.values())).__dict__.pop("moved")),
    lambda p: setattr(p, "extra", 1),  # a field Position has not
])
def test_a_position_holding_other_types_goes_the_codecs_way(spoil: Any) -> None:
    st = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    spoil(st.pos)
    assert position_data(st.pos) is None
    try:
        expected: bytes | None = codec_bytes(st)
    except FormatError:
        expected = None
    assert st.normal_body() == expected


_DIGEST = """
import sys
from engines.backhand import ENGINE
from pbem import codec
s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
codec._PACKERS.clear()
s._encoded = None
s.digest()
print(len(s.digest()), [t for t in codec._PACKERS if "Position" in repr(t)])
"""


def test_a_digest_builds_no_codec_writer_of_the_position() -> None:
    assert fresh_run(_DIGEST) == ["32 []"]
