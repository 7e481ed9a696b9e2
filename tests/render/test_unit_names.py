"""Issue 33: a unit is named as its counter reads wherever the screen tells of it, and
counts agree with their nouns ("1 hex", not "1 hexes")."""

from __future__ import annotations

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
