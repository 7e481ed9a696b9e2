"""The match (pbem.match, issue 34 item 5): a game's turn logic with no file access.

Two homes make and join a Skirmish game (the store: keys, invite, accept, saves).  Then
the disk is taken away: every way this process could open, list, stat or write a file
raises.  The two matches play the game to its end by themselves, handing each other the
sealed files' bytes, and each side's verifier agrees with the other's at every file.  The
store, asked to act under the same guard, fails: the guard is real.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pbem.envelope import open_envelope
from pbem.errors import UsageError
from pbem.match import Match
from pbem.session import Home
from pbem.testing import Chooser

from .conftest import make_home


class NoDisk(Exception):
    """What the guard raises: a filesystem call made while the disk is away."""


def _refuse(*args: Any, **kwargs: Any) -> Any:
    raise NoDisk(f"file access with the disk away: {args[:1]!r}")


@contextlib.contextmanager
def disk_away() -> Iterator[None]:
    """Every open, stat, listing, rename, fsync and directory call of this process raises
    (pathlib goes through these too); imports are not touched (importlib holds its own).
    Put back on the way out, before pytest writes its report of a failure."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(builtins, "open", _refuse)
        patch.setattr(io, "open", _refuse)
        for name in ("open", "stat", "lstat", "listdir", "scandir", "replace", "rename",
                     "mkdir", "makedirs", "remove", "unlink", "rmdir", "fsync", "access",
                     "chmod", "utime", "link", "symlink", "readlink"):
            patch.setattr(os, name, _refuse)
        yield


def joined_pair(tmp_path: Path) -> tuple[Home, Home]:
    """A Skirmish "short" game (four rounds), red (Alice) to act, made on disk."""
    alice, bob = make_home(tmp_path, "Alice", bytes(range(32))), \
        make_home(tmp_path, "Bob", bytes(range(32, 64)))
    game = alice.new_game("skirmish", "short", "red", name="m", nonce=b"\x34" * 32)
    joined = bob.join(game.files[0], "0000.pbem", name="m")
    alice.receive(joined.files[1], "0001.pbem")
    return alice, bob


class Files:
    """A transcript in memory: the match's whole view of the exchanged files."""

    def __init__(self, files: list[bytes]) -> None:
        self.files = files

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, seq: int) -> bytes:
        return self.files[seq]

    def get(self, seq: int, default: bytes | None = None) -> bytes | None:
        return self.files[seq] if 0 <= seq < len(self.files) else default

    def append(self, data: bytes, direction: str, when: int) -> None:
        self.files.append(data)


def bare(home: Home) -> Match:
    """The game "m" of ``home`` as a match alone: its verified position, files and
    unsealed records so far (as a load replays them), its keys read now, and a transcript
    held in memory."""
    game = home.game("m")
    identity = home.identity()
    match = Match(game.name, game.side, game.engine, Files(list(game.files)),
                  game.verifier, identity=lambda: identity, clock=lambda: 1_700_000_000)
    for record in game.pending_records:
        match.replay(record, derive=False)
    return match


def play_file(match: Match, chooser: Chooser) -> tuple[int, bytes]:
    """Legal actions of the match's side until the file is due; then it is sealed."""
    while True:
        _, _, end = match.act(chooser.pick(match.state.legal_actions()).notation())
        if end is not None:
            return match.seal(end)


def deliver(data: bytes, to: Match, back: Match) -> int:
    """The file ``data`` taken in by ``to``, as the store's receive does: checked, added,
    and the rolls due right after it made (which may seal a file at once, handed back);
    how many files went across."""
    accepted = to.check_in(open_envelope(data))
    to.took(data)
    assert accepted.seq == len(to.files) - 1
    _, _, end = to.advance()
    if end is None:
        return 1
    _, answer = to.seal(end)
    return 1 + deliver(answer, back, to)


def test_a_whole_game_plays_through_matches_with_the_disk_away(
        tmp_path: Path) -> None:
    alice, bob = joined_pair(tmp_path)
    red, blue = bare(alice), bare(bob)
    chooser = Chooser("match")
    files = 0
    with disk_away():
        with pytest.raises(NoDisk):
            (tmp_path / "probe").read_bytes()
        while red.result is None or blue.result is None:
            mover, other = (red, blue) if red.has_pen() else (blue, red)
            assert mover.my_decision() is not None
            _, data = play_file(mover, chooser)
            files += deliver(data, other, mover)
            # both sides' verifiers hold the same position after every exchange
            assert red.verifier.state.digest() == blue.verifier.state.digest()
    assert red.result is not None and red.result.to_data() == blue.result.to_data()
    # four rounds of two sides: every file went through the matches, none to the disk
    assert files >= 8
    assert len(red.files) == len(blue.files) == files + 2
    assert len(alice.game("m").files) == 2  # the saves never heard of any of it


def test_the_store_cannot_act_with_the_disk_away(
        tmp_path: Path) -> None:
    """The guard above catches the store's writes: an action through the store (which
    saves) fails under it, where the match alone plays it."""
    alice, _ = joined_pair(tmp_path)
    game = alice.game("m")
    alice.identity()
    action = game.state.legal_actions()[0].notation()
    with disk_away():
        game.match.act(action)
        with pytest.raises(NoDisk):
            alice.game("m")
        with pytest.raises(NoDisk):
            game.write()


def test_a_trial_match_is_never_stored(tmp_path: Path) -> None:
    """``pbem act``'s dry run is the match of a loaded game, played and dropped: the file
    it says is due is never sealed, and the save is byte for byte as it was."""
    alice, _ = joined_pair(tmp_path)
    game = alice.game("m")
    before = game.path.read_bytes()
    trial = game.match
    chooser = Chooser("trial")
    end = None
    while end is None:
        _, _, end = trial.act(chooser.pick(trial.state.legal_actions()).notation())
    assert end == ""  # the file would seal here, handing the turn to blue
    assert game.path.read_bytes() == before
    assert not (alice.path / "sealed" / game.game_id.hex() / "000002.pbem").exists()
    reloaded = alice.game("m")
    assert reloaded.pending_actions() == [] and len(reloaded.files) == 2
    with pytest.raises(UsageError, match=r"files 0\.\.1, not 2"):
        reloaded.file(2)  # nor was file 2 kept in the home's record of sealed files


def test_a_position_is_viewed_once_for_its_counters_and_its_board(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 item 4: a board click saves (the summary's status line), names its events'
    units by their counters, then redraws the board; one view of the position serves all
    three (the test engine keeps the runtime's counters and status_line), and a new
    position (the next action) gets its own."""
    from pbem.engine import State

    alice, _ = joined_pair(tmp_path)
    game = alice.game("m")
    made: list[int] = []
    real = State.view

    def counted(state: State, side: str | None) -> Any:
        made.append(len(state.history))
        return real(state, side)

    monkeypatch.setattr(State, "view", counted)
    counters = game.counters()
    assert counters == game.state.counters(game.side) and counters
    made.clear()
    assert game.counters() == counters and game.view().pieces
    assert made == []  # both from the view made for the counters above
    game.act(game.state.legal_actions()[0].notation())
    game.counters()
    game.view()
    assert len(made) == 1
