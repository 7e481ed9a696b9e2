"""The page's data block (:func:`pbem.web.replay.script_json`): the JSON of what the page
may show, made without copying data that has nothing to escape (issue 35)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.text import BIDI, displayable
from pbem.web import replay
from pbem.web.replay import script_json


def as_before(value: Any) -> str:
    """The block as it was made before: every string of the data through displayable()."""
    text = json.dumps(displayable(value), ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


@settings(max_examples=500, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet=st.characters(
        exclude_categories=()) | st.sampled_from(
            sorted(BIDI) + list("\n\t\r\b\f\\\"\x00\x1b\x7f\x85\u2028\u2029\u00a0<&>"))),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=4) | st.integers(), inner, max_size=4),
    max_leaves=12))
def test_the_data_block_is_the_json_of_what_the_page_may_show(value: Any) -> None:
    """Plain or hostile (a bidi override, an escape sequence, a line separator, a string
    that merely reads like a JSON escape), the block is what displayable() made of it."""
    assert script_json(value) == as_before(value)


def test_plain_data_is_not_copied_to_be_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page whose strings need no escape is dumped as it is: the copy of every value
    through displayable() was three times the dump for a White Death game (issue 35)."""
    copies: list[object] = []

    def counting(value: object) -> object:
        copies.append(value)
        return displayable(value)

    monkeypatch.setattr(replay, "displayable", counting)
    plain = {"title": "Purkayev", "frames": [{"events": [["move", "1/31R 3703 -> 3702"]],
                                              "note": "two\nlines\tand a \"quote\" \\ "}]}
    assert script_json(plain) == as_before(plain)
    assert copies == []
    hostile = {"m": "Ivan \u202egnp.exe\x1b[2J"}
    block = script_json(hostile)
    assert block == as_before(hostile) and "\u202e" not in block and copies == [hostile]


def test_a_value_json_cannot_write_fails_as_it_did() -> None:
    with pytest.raises(TypeError):
        script_json({"a": object()})
