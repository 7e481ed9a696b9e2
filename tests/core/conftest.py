"""Two players, each with a home of their own, playing the test engine through files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.session import Game, Home
from pbem.testing import Chooser, play_file


@dataclass
class Table:
    """Alice (red, the creator) and Bob (blue) with one game between them."""

    alice: Home
    bob: Home
    name: str
    folder: Path
    chooser: Chooser

    def game(self, home: Home) -> Game:
        return home.game(self.name)

    def mover(self) -> Home | None:
        for home in (self.alice, self.bob):
            if self.game(home).my_decision() is not None:
                return home
        return None

    def other(self, home: Home) -> Home:
        return self.bob if home is self.alice else self.alice

    def play_file(self) -> tuple[Home, int, bytes]:
        """The side to act plays random legal actions until its file is sealed."""
        home = self.mover()
        assert home is not None, "nobody to act"
        game = self.game(home)
        seq, data = game.file(play_file(game, self.chooser))
        (self.folder / f"{seq:04d}.pbem").write_bytes(data)
        return home, seq, data

    def exchange(self, files: int = 1) -> None:
        for _ in range(files):
            home, seq, data = self.play_file()
            self.other(home).receive(data, f"{seq:04d}.pbem")

    def save_bytes(self, home: Home) -> bytes:
        return self.game(home).path.read_bytes()


def make_home(root: Path, name: str, secret: bytes | None = None) -> Home:
    """A home with a new key; ``secret`` fixes the key (and so, with a fixed nonce, every
    roll of its games) for a test that plays a whole game and needs it to last."""
    home = Home(root / name.lower(), clock=lambda: 1_700_000_000)
    home.keys.create(name, f"{name.lower()}@example.org", None, secret=secret)
    return home


@pytest.fixture
def table(tmp_path: Path) -> Table:
    """A joined Skirmish game: invite and accept exchanged, red to act.

    The keys are fixed: the rolls come from them, so with fresh keys one run in a few
    hundred ended the game before a test had seen what it plays for."""
    alice = make_home(tmp_path, "Alice", bytes(range(32)))
    bob = make_home(tmp_path, "Bob", bytes(range(32, 64)))
    folder = tmp_path / "shared"
    folder.mkdir()
    game = alice.new_game("skirmish", "long", "red", name="duel", nonce=b"\x07" * 32)
    (folder / "0000.pbem").write_bytes(game.files[0])
    joined = bob.join(game.files[0], "0000.pbem", name="duel")
    (folder / "0001.pbem").write_bytes(joined.files[1])
    alice.receive(joined.files[1], "0001.pbem")
    return Table(alice, bob, "duel", folder, Chooser("table"))
