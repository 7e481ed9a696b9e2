"""The fixed game the hostile corpus is made against, rebuilt the same way every time.

Alice (red, the creator) and Bob (blue) play the test engine (Skirmish) with fixed keys,
nonce, clock and choices, so every file of the game is the same bytes on every machine.
The corpus (``cases/``, listed in ``manifest.json``) holds hostile variations of the file
Bob is to receive next (``BASE_SEQ``) and of the ones before it; the runner
(``test_corpus.py``) rebuilds the game and replays each case through the CLI.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

# the test engine, also when this module runs outside pytest (make_corpus.py)
_TOY = str(Path(__file__).parent.parent / "toy")
if _TOY not in sys.path:
    sys.path.insert(0, _TOY)
if "toy_engine:ENGINE" not in os.environ.get("PBEM_ENGINES", ""):
    os.environ["PBEM_ENGINES"] = ",".join(
        e for e in (os.environ.get("PBEM_ENGINES", ""), "toy_engine:ENGINE") if e)

from pbem.session import Home  # noqa: E402
from pbem.testing import Chooser, play_file  # noqa: E402

HERE = Path(__file__).parent
CASES = HERE / "cases"
MANIFEST = HERE / "manifest.json"
CLOCK = 1_800_000_000
#: the file Bob has not received yet in the ``before`` base (Alice's)
BASE_SEQ = 6
GAME = "duel"


def make_home(root: Path, name: str) -> Home:
    home = Home(root / name.lower(), clock=lambda: CLOCK)
    home.keys.create(name, f"{name.lower()}@example.org", None,
                     secret=hashlib.sha256(f"pbem hostile corpus {name}".encode()).digest())
    return home


@dataclass
class Bases:
    """Both homes, with Bob's home saved twice: before and after file ``BASE_SEQ``."""

    alice: Home
    bob: Home
    files: list[bytes]
    before: Path
    after: Path

    @property
    def genuine(self) -> bytes:
        return self.files[BASE_SEQ]


def build(root: Path) -> Bases:
    alice, bob = make_home(root, "Alice"), make_home(root, "Bob")
    game = alice.new_game("skirmish", "long", "red", name=GAME, nonce=b"\x5e" * 32)
    joined = bob.join(game.files[0], "0000.pbem", name=GAME)
    alice.receive(joined.files[1], "0001.pbem")
    chooser = Chooser("pbem hostile corpus")
    files = [game.files[0], joined.files[1]]
    while len(files) <= BASE_SEQ + 1:
        mover = next(h for h in (alice, bob) if h.game(GAME).my_decision() is not None)
        seq, data = mover.game(GAME).file(play_file(mover.game(GAME), chooser))
        assert seq == len(files)
        files.append(data)
        receiver = bob if mover is alice else alice
        if seq == BASE_SEQ:
            shutil.copytree(bob.path, root / "before")
        receiver.receive(data, f"{seq:04d}.pbem")
        if seq == BASE_SEQ:
            shutil.copytree(bob.path, root / "after")
            break
    assert Home(root / "before").game(GAME).verifier.seq == BASE_SEQ - 1
    return Bases(alice, bob, files, root / "before", root / "after")
