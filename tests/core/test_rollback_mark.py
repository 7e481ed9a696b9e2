"""The home's rollback mark moves only where undo cannot go back (issue 35 item 4).

The mark (``<home>/sealed/<game id>/version``, docs/protocol.md 3.4) makes a save put
back from a backup known on load.  It moves when a save passes a point :meth:`Game.undo`
cannot take back: a file sealed or imported, a die rolled.  A click that rolls nothing
writes the save alone, and a save put back from among such clicks gives exactly what
undoing them gives; one from before a roll is refused as before.  A crash at either write
of a click leaves a save the player resumes and undoes from.

Skirmish "dusk", Alice (red) to act: the accept's event draw is in her file already;
``move b`` rolls nothing, ``attack 1`` rolls and misses (Skirmish 6: ``regroup`` is left,
her file goes on).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem import gamefiles, session
from pbem.errors import ChainError, NotYourTurn
from pbem.session import Game, Home

from .conftest import make_home


@pytest.fixture
def alice(tmp_path: Path) -> Home:
    alice, bob = make_home(tmp_path, "Alice", bytes(range(32))), \
        make_home(tmp_path, "Bob", bytes(range(32, 64)))
    game = alice.new_game("skirmish", "dusk", "red", name="m", nonce=b"\x30" * 32)
    joined = bob.join(game.files[0], "0000.pbem", name="m")
    alice.receive(joined.files[1], "0001.pbem")
    return alice


def mark(game: Game) -> int:
    return int((game.record.dir / "version").read_text())


def rolls(game: Game) -> int:
    return sum(1 for record in game.pending if record[0] == "r")


def test_a_click_that_rolls_nothing_writes_the_save_and_leaves_the_mark(alice: Home) -> None:
    game = alice.game("m")
    assert mark(game) == game.version  # the accept's import moved it
    first, drawn = game.version, rolls(game)
    _, rolled, sealed = game.act("move b")
    assert not rolled and sealed is None
    assert rolls(game) == drawn and game.version == first + 1
    assert mark(game) == first
    # a roll moves it, to the save that holds the roll
    _, rolled, sealed = game.act("attack 1")
    assert rolled and sealed is None and rolls(game) == drawn + 1
    assert mark(game) == game.version == first + 2


def test_a_save_put_back_from_among_undoable_clicks_is_what_undo_gives(alice: Home) -> None:
    game = alice.game("m")
    backup = game.path.read_bytes()
    game.act("move b")
    assert game.undo() == "move b"
    undone, position = list(game.pending), game.state.digest()
    game.act("move b")
    game.path.write_bytes(backup)
    restored = alice.game("m")  # not refused: nothing undo could not take back is lost
    assert restored.pending == undone and restored.state.digest() == position
    assert mark(restored) == restored.version  # the load remembers it
    restored.act("move b")
    restored.act("attack 1")
    with pytest.raises(NotYourTurn, match="cannot undo past die roll"):
        restored.undo()


def test_a_save_put_back_from_before_a_roll_is_refused(alice: Home) -> None:
    game = alice.game("m")
    game.act("move b")
    backup = game.path.read_bytes()
    game.act("attack 1")
    with pytest.raises(NotYourTurn, match="cannot undo past die roll"):
        game.undo()
    game.path.write_bytes(backup)
    with pytest.raises(ChainError, match="already seen version") as err:
        alice.game("m")
    assert err.value.reason == "rollback"


def _crash_at(monkeypatch: Any, module: Any, name: str) -> None:
    """``module``'s atomic write fails at a path named ``name``: nothing of it is written
    (as :func:`pbem.atomic.write_atomic` leaves a write cut short)."""
    real = module.write_atomic

    def crash(path: Path, data: bytes, mode: int = 0o600) -> None:
        if Path(path).name == name:
            raise OSError("the machine stopped here")
        real(path, data, mode)

    monkeypatch.setattr(module, "write_atomic", crash)


def test_a_crash_writing_a_clicks_save_leaves_the_last_good_one(alice: Home,
                                                              monkeypatch: Any) -> None:
    game = alice.game("m")
    game.act("move b")
    before, pending = game.path.read_bytes(), list(game.pending)
    with monkeypatch.context() as patch:
        _crash_at(patch, session, game.path.name)
        with pytest.raises(OSError, match="stopped here"):
            alice.game("m").act("attack 1")
    # the save before the click, and the mark no further (the load moved it to that save)
    assert game.path.read_bytes() == before and mark(game) == game.version
    resumed = alice.game("m")
    assert resumed.pending == pending
    assert resumed.undo() == "move b"  # the click before the crash is undone as ever
    resumed.act("move b")
    assert resumed.act("attack 1")[1]


def test_a_crash_between_a_rolls_save_and_its_mark_resumes_past_the_roll(
        alice: Home, monkeypatch: Any) -> None:
    game = alice.game("m")
    game.act("move b")
    before_roll = game.path.read_bytes()
    with monkeypatch.context() as patch:
        _crash_at(patch, gamefiles, "version")
        with pytest.raises(OSError, match="stopped here"):
            game.act("attack 1")
    # the save holds the roll; the mark is behind it, as a crash left it before
    assert mark(game) < game.version
    resumed = alice.game("m")
    assert rolls(resumed) == rolls(game) and resumed.version == game.version
    assert mark(resumed) == resumed.version  # the load moves it
    with pytest.raises(NotYourTurn, match="cannot undo past die roll"):
        resumed.undo()
    resumed.path.write_bytes(before_roll)
    with pytest.raises(ChainError, match="already seen version"):
        alice.game("m")
