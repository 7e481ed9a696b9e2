"""The typed position (engines/motherland/position.py, issue 12)."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from engines.motherland import ENGINE
from engines.motherland.position import Combat
from engines.motherland.state import MotherlandState
from pbem import codec
from pbem.errors import FormatError


def _mutables(value: Any, where: str = "pos") -> dict[str, Any]:
    """Every mutable object in ``value`` by where it is."""
    out: dict[str, Any] = {}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            out[where] = value
        for f in dataclasses.fields(value):
            out.update(_mutables(getattr(value, f.name), f"{where}.{f.name}"))
    elif isinstance(value, dict):
        out[where] = value
        for k, v in value.items():
            out.update(_mutables(v, f"{where}[{k!r}]"))
    elif isinstance(value, list | set):
        out[where] = value
        for n, v in enumerate(value):
            out.update(_mutables(v, f"{where}[{n}]"))
    return out


def test_a_copy_shares_nothing_that_changes() -> None:
    """clone() copies the position by hand (Position.copy, for speed): every list, dict,
    set and dataclass of the copy must be its own, and the data the same."""
    st = ENGINE.new_state("4-uranus")
    assert isinstance(st, MotherlandState)
    st.pos.combat = Combat("attack", "2020", "soviet", ["5A"], ["6A"], False, False,
                           {"5A": "2021"}, eliminated={"def"}, took={"att": (1, 1)},
                           cut={"def": 1})
    twin = st.pos.copy()
    assert codec.to_data(twin) == codec.to_data(st.pos)
    mine, theirs = _mutables(st.pos), _mutables(twin)
    assert mine.keys() == theirs.keys() and len(mine) > 150
    shared = [where for where in mine if mine[where] is theirs[where]]
    assert shared == []


def test_a_snapshot_with_a_field_of_the_wrong_type_is_refused() -> None:
    """The snapshot is read through pbem.codec: a hostile body names the field."""
    st = ENGINE.new_state("4-uranus")
    snap = st.snapshot()
    uid = sorted(snap["body"]["position"]["units"])[0]
    snap["body"]["position"]["units"][uid]["steps"] = "2"
    with pytest.raises(FormatError, match=re.escape(f"position.units[{uid!r}].steps: "
                                                    "expected int")):
        ENGINE.restore(snap)
