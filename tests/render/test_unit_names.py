"""Issue 33: a unit is named as its counter reads wherever the screen tells of it, and
counts agree with their nouns ("1 hex", not "1 hexes")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine import Event, counter_text
from pbem.naming import agree, named
from pbem.render.narrate import narrate
from pbem.view import BoardView, Layout, Piece


def test_counts_agree() -> None:
    assert agree("retreat 1 hexes or deplete") == "retreat 1 hex or deplete"
    assert agree("Defensive fire against 1 assaulted hexes") == \
        "Defensive fire against 1 assaulted hex"
    assert agree("11 hexes to be assaulted") == "11 hexes to be assaulted"


def test_a_file_is_counted_in_words_that_agree() -> None:
    """'0 actions, 1 rolls' was what the guide's own watch said of a file."""
    from pbem.naming import counted

    assert f"{counted(0, 'action')}, {counted(1, 'roll')}" == "0 actions, 1 roll"
    assert counted(2, "roll") == "2 rolls"


def test_counter_text_reads_as_the_counter() -> None:
    assert counter_text("G01", "I/2", "3-3-10") == "I/2 3-3-10"
    assert counter_text("1188/357", "rifle-rgt (357)", "1188/357 6") == "rifle-rgt (357) 6"


def test_named_once_and_only_units() -> None:
    counters = {"G01": "I/2 3-3-10", "1/33": "1/33 Armd 4-3-10", "30": "30 Recon 1-2-10"}
    assert named("G01 enters 3201", counters, ["G01"]) == "G01 I/2 3-3-10 enters 3201"
    assert named("US 1/33 sets up in 0708", counters, ["1/33"]) == \
        "US 1/33 Armd 4-3-10 sets up in 0708"
    # a unit whose designation the sentence gives is left alone; a number that is no
    # unit of the event stays a number
    assert named("G01 (I/2) enters at 3201", counters, ["G01"]) == "G01 (I/2) enters at 3201"
    assert named("turn 30: 1/33 moves", counters, ["1/33"]) == \
        "turn 30: 1/33 Armd 4-3-10 moves"


def test_the_replay_names_units_from_its_sides_view_only() -> None:
    """A hidden piece (White Death Rule 4.C) gives no name to the narration."""
    view = BoardView("t", "german", Layout(), (), (), pieces=(
        Piece("G01", "german", "3-3-10", "3201", name="I/2"),
        Piece("s1", "soviet", "?", "3301", hidden=True)))
    lines = narrate([Event("G01 enters 3201", "move", units=("G01",)),
                     Event("s1 moves", "move", units=("s1",))], "german", view)
    assert [line.text for line in lines] == ["G01 I/2 3-3-10 enters 3201", "s1 moves"]


def test_the_html_replay_names_units_from_its_sides_view_only() -> None:
    """The browser's replay and board tell events as the terminal does: a unit by its
    counter, a hidden one (White Death Rule 4.C) by nothing more than the engine said."""
    from pbem.web.replay import PieceTable, frame_data

    view = BoardView("t", "german", Layout(), (), (), pieces=(
        Piece("G01", "german", "3-3-10", "3201", name="I/2"),
        Piece("s1", "soviet", "?", "3301", hidden=True)))
    frame = frame_data(view, [Event("G01 enters 3201", "move", units=("G01",)),
                              Event("s1 moves", "move", units=("s1",))], "german", PieceTable())
    assert [text for _, text in frame["events"]] == ["G01 I/2 3-3-10 enters 3201", "s1 moves"]


def _named_by_pattern(text: str, counters: dict[str, str], units: list[str]) -> str:
    """``named`` as it was, a pattern compiled per unit: the reference for the one that
    finds a unit's id by hand (issue 35 item 4)."""
    for unit in units:
        counter = counters.get(unit, "")
        designation = " ".join(counter.split()[:-1])
        if not counter or counter in text or (designation and designation in text):
            continue
        head = counter if counter.split()[:1] == [unit] else f"{unit} {counter}"
        text = re.compile(rf"(?<![\w/]){re.escape(unit)}(?![\w/])").sub(
            lambda _, head=head: head, text, count=1)
    return agree(text)


_PIECES = st.sampled_from(["1/33", "11/33", "1/33A", "G01", "_", "/", " ", "é", "Ж7", "٣",
                           "x", "1", "\\1", "\n", "moves", "hexes"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=12).map("".join),
       st.lists(st.sampled_from(["1/33", "G01", "Ж7", "1", "é"]), max_size=3),
       st.sampled_from(["Armd 4-3-10", "1/33 Armd 4-3-10", "I/2 \\1 3-3"]))
def test_a_unit_is_found_as_the_pattern_found_it(text: str, units: list[str],
                                                 label: str) -> None:
    counters = {u: label for u in units}
    assert named(text, counters, units) == _named_by_pattern(text, counters, units)


def test_naming_a_unit_compiles_no_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit named for the first time cost a pattern's compiling (0.15 ms of a board's
    click, and of every terminal 'act', which starts afresh)."""
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"a pattern compiled: {args}")

    monkeypatch.setattr(re, "compile", refused)
    counters = {"1192/357": "rifle-rgt (357) 6"}
    assert named("1192/357 moves 3923 to 3922; 11192/357 stays", counters, ["1192/357"]) \
        == "1192/357 rifle-rgt (357) 6 moves 3923 to 3922; 11192/357 stays"


def test_counts_agree_only_where_a_one_stands_before_hexes() -> None:
    """The quick look before the pattern (a line without '1 ' or 'hexes' is returned as it
    is) changes no line: "11 hexes", "1 hex" and "hexes 1" stay."""
    for line in ("move 11 hexes", "retreat 1 hex", "hexes 1 away", "21 hexes",
                 "no count at all", "1 open hexes", "against 1 assaulted hexes!"):
        expected = re.sub(r"\b1 ((?:[a-z]+ )?)hexes\b", r"1 \1hex", line)
        assert agree(line) == expected
