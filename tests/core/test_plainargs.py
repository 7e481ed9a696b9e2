"""The runtime reads, writes and copies a step frame's plain arguments by hand
(pbem.plainargs), not through pbem.codec and pbem.typedcopy, whose per-class readers,
writers and copiers cost every turn command a few million instructions (issue 35).  A
save, a digest and a clone must not be able to tell: at every decision of a seeded game
of each of the five engines, every frame's arguments give exactly the codec's data (in
its field order), read back to exactly the codec's value, and copy to typedcopy's copy,
sharing no list or map with the original."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pytest

from pbem import codec
from pbem.plainargs import args_copy, args_data, args_from_data
from pbem.registry import get
from pbem.testing import Chooser, decisions
from pbem.typedcopy import copier

GAMES = [("white-death", "purkayev"), ("for-the-motherland", "4-uranus"),
         ("48th-panzer-korps", "chir"), ("mortain", "counterattack"),
         ("backhand-blow", "high-water-mark")]


@pytest.mark.parametrize(("engine_id", "scenario"), GAMES)
def test_plain_arguments_are_the_codecs_and_typedcopys_along_a_seeded_game(
        engine_id: str, scenario: str) -> None:
    engine = get(engine_id)
    state = engine.new_state(scenario, engine.resolve_options({}))
    by_hand: set[str] = set()
    frames = 0
    for at in decisions(state, Chooser(f"plainargs/{engine_id}"), 400):
        for f in getattr(at, "stack", ()):
            frames += 1
            cls = at.steps[f.step].Args
            theirs = codec.to_data_of(cls, f.args)
            mine = args_data(cls, f.args)
            if mine is None:
                continue
            by_hand.add(cls.__name__)
            assert mine == theirs and list(mine) == list(theirs)
            back = args_from_data(cls, theirs)
            assert back is not None
            expected = codec.from_data(cls, theirs, "stack")
            assert back == expected and type(back) is type(expected)
            twin = args_copy(cls, f.args)
            theirs_copy = copier(cls)(f.args)
            assert twin == theirs_copy and type(twin) is cls
            assert (twin is f.args) == (theirs_copy is f.args)
            for field in fields(cls):
                value: Any = getattr(twin, field.name)
                if isinstance(value, list | dict):
                    assert value is not getattr(f.args, field.name)
        # what a turn command's restore and digest read and write
        if hasattr(at, "stack_data"):
            assert engine.restore(at.snapshot()).digest() == at.digest()
    assert frames > 100
    assert by_hand, f"{engine_id}: no frame's arguments were plain"


class _Odd:
    """Not a dataclass: the codec's way."""


@pytest.mark.parametrize("value", [1, True, None, ("a", 1), ["a", 2], {"a": True}])
def test_values_not_exactly_of_a_fields_kind_are_left_to_the_codec(value: Any) -> None:
    from engines.motherland.combat import LoseArgs

    good = LoseArgs(side="soviet", n=2, units=["5T"], taken={"5T": 1})
    data = codec.to_data_of(LoseArgs, good)
    assert args_from_data(LoseArgs, data) == good
    for name in ("side", "n", "units", "taken"):
        if type(value) is type(data[name]):
            continue
        assert args_from_data(LoseArgs, {**data, name: value}) is None
        odd = LoseArgs(**{**data, name: value})
        assert args_data(LoseArgs, odd) is None
        assert args_copy(LoseArgs, odd) is None
    assert args_from_data(_Odd, {}) is None
    assert args_from_data(LoseArgs, {**data, "extra": 1}) is None
