"""Backhand Blow's player segment (4.2 II-VII) as a pbem.steps Sequence (issue 34): the
segment keeps the frames a game saved when a procedure counted its stages by hand, so a
game in progress restores and plays on the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.backhand import ENGINE
from engines.backhand.sequence import SegRun
from pbem import canonical

#: written by the engine at commit f599f49, when the segment was a procedure counting its
#: stages in ``SegState.stage``: a seeded bot's game of "backhand-blow" saved at turn 2's
#: Soviet administrative movement out (stage 3) and at turn 7's Soviet C3I decision
#: (stage 5, Combat Phase declared first), each with the actions and rolls on to the next
#: turn's first phase-order decision, the stack and the state digest that code reached
SAVED = Path(__file__).resolve().parents[1] / "data" / "backhand" / "saved-before-sequence.json"


@pytest.mark.parametrize("where", ["turn 2", "turn 7"])
def test_a_game_saved_before_the_segment_was_a_sequence_restores_and_plays_on(
        where: str) -> None:
    saved = json.loads(SAVED.read_text())[where]
    snapshot = canonical.decode(canonical.encode(saved["snapshot"]))
    s = ENGINE.restore(snapshot)
    # restored and saved again, byte for byte: the segment's frame is what it was
    assert canonical.encode(s.snapshot()) == canonical.encode(snapshot)
    stage = {"turn 2": 3, "turn 7": 5}[where]
    assert s.snapshot()["body"]["stack"][2] == ["seg-run", 0, {
        "side": "soviet", "kind": "sp", "no": 1, "stage": stage,
        "first": "move" if where == "turn 2" else "combat"}]
    for kind, what in saved["actions"]:
        if kind == "roll":
            s.apply_outcome(tuple(what))
        else:
            s.apply(what)
    # through the turn's other segments (General ones, with their ersatz for the German,
    # 13.2) and the next Administrative Segment to the first segment's phase order (4.2
    # II.C): the same frames, the same state
    assert s.snapshot()["body"]["stack"] == saved["stack"]
    assert s.digest().hex() == saved["digest"]


def test_the_segment_outline_is_the_books() -> None:
    assert [line.split("  ")[0] for line in SegRun.outline()] == [
        "4.2 II.A", "15.1", "15.1", "4.2 II.C", "4.2 II.D", "4.2 II.E", "4.2 II.E", "13.2",
        "4.2"]
