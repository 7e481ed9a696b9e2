"""What pbem.codec spends building its coders at a command's first use (issue 35): every
turn command encodes its position once or a few times a process, so the build is paid at
every command.  The outputs are held to the generic ones by test_codec_hints.py (every
class's hints as typing.get_type_hints gives them) and test_digest_typed.py (the very
bytes of canonical.encode); these hold the cheaper ways to being taken."""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import pytest

from engines.motherland import ENGINE as MOTHERLAND
from pbem import canonical, codec
from pbem.steps import StepState


def _calls(run: Any) -> list[str]:
    """The names of the Python functions ``run()`` calls, in order."""
    names: list[str] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            names.append(frame.f_code.co_name)
    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return names


@pytest.mark.parametrize("text, value", [("int", int), ("None", type(None)),
                                         ("StepState", StepState)])
def test_a_bare_name_is_resolved_without_the_parser(text: str, value: type) -> None:
    # two annotations in three are a bare name: looked up, not tokenised and parsed
    module = {"StepState": StepState}
    calls = _calls(lambda: codec._resolved(text, module, {}))
    assert codec._resolved(text, module, {}) is value
    assert not {"union", "subscripted", "atom"} & set(calls)


def test_a_bare_name_resolves_as_the_parser_does() -> None:
    module = {"Side": str, "NOTHING": None, "NUMBER": 3}
    local = {"Inner": int}
    assert codec._resolved("Side", module, local) is str
    assert codec._resolved("Inner", module, local) is int
    assert codec._resolved("NOTHING", module, local) is type(None)  # as the parse gives
    assert codec._resolved("NUMBER", module, local) is codec._UNRESOLVED
    assert codec._resolved("Missing", module, local) is codec._UNRESOLVED
    assert codec._resolved("True", module, local) is codec._UNRESOLVED
    assert codec._resolved("dict[Side, list[Inner]] | None", module, local) == (
        dict[str, list[int]] | None)
    assert codec._resolved("dict[Side,]", module, local) == dict[str,]  # type: ignore[misc]


def test_a_first_digest_packs_the_records_in_one_pass(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    """For the Motherland!'s 171 units (and their names) are packed by one pack_each call
    each at the first digest, not a pack_normal call a record."""
    state = MOTHERLAND.new_state("4-uranus", MOTHERLAND.resolve_options({}))
    assert isinstance(state, StepState)
    monkeypatch.setattr(codec, "_PACKERS", {})
    monkeypatch.setattr(codec, "_KEEPING", set())
    # and the engine's own kept unit records (its hand-written digest keeps them a
    # process): a test that digested the same start earlier would leave nothing to pack
    from engines.motherland import position as ftm_position
    monkeypatch.setattr(ftm_position, "_UNIT_BYTES", {})
    singly: list[Any] = []
    batches: list[int] = []
    pack_normal, pack_each = canonical.pack_normal, canonical.pack_each

    def one(value: Any) -> bytes:
        if type(value) is dict and "steps" in value:
            singly.append(value)
        return pack_normal(value)

    def each(values: Any) -> list[bytes]:
        batches.append(len(values))
        return pack_each(values)
    monkeypatch.setattr(canonical, "pack_normal", one)
    monkeypatch.setattr(canonical, "pack_each", each)
    state._encoded = None
    assert state.encoded() == canonical.encode(state.snapshot())
    units = len(state.pos.units)
    assert units > 100
    assert singly == []
    # the distinct records (units alike at the start are one record's bytes), then the
    # names of all
    assert len(batches) == 2 and 0 < batches[0] <= units and batches[1] == units
