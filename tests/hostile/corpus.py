"""The fixed game the hostile corpus is made against, the same bytes every time.

The game is the protocol's own transcript vector (``tests/data/transcript/``: the test
engine, Alice's secret key bytes 0..31, Bob's 32..63, see docs/protocol.md), which is
pinned and re-recorded only with a protocol change, so the corpus does not move when
the test helpers or the bots change.  Bob's home is rebuilt from files 0 .. ``BASE_SEQ``
- 1 (the ``before`` base) and then receives file ``BASE_SEQ``, Alice's (the ``after``
base).  The corpus (``cases/``, listed in ``manifest.json``) holds hostile variations of
that file and of the ones around it; the runner (``test_corpus.py``) replays each case
through the CLI.
"""

from __future__ import annotations

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

from pbem.session import Home, rebuild  # noqa: E402

HERE = Path(__file__).parent
CASES = HERE / "cases"
MANIFEST = HERE / "manifest.json"
TRANSCRIPT = HERE.parent / "data" / "transcript"
CLOCK = 1_800_000_000
#: the file Bob has not received yet in the ``before`` base (Alice's)
BASE_SEQ = 6
GAME = "duel"


def make_home(root: Path, name: str, secret: bytes) -> Home:
    home = Home(root / name.lower(), clock=lambda: CLOCK)
    home.keys.create(name, f"{name.lower()}@example.org", None, secret=secret)
    return home


@dataclass
class Bases:
    """Alice's identity and Bob's home saved twice: before and after file ``BASE_SEQ``."""

    alice: Home
    bob: Home
    files: list[bytes]
    before: Path
    after: Path

    @property
    def genuine(self) -> bytes:
        return self.files[BASE_SEQ]


def build(root: Path) -> Bases:
    alice = make_home(root, "Alice", bytes(range(32)))
    bob = make_home(root, "Bob", bytes(range(32, 64)))
    files = [(TRANSCRIPT / f"{seq:04d}.pbem").read_bytes() for seq in range(BASE_SEQ + 1)]
    rebuild(bob, [(f"{seq:04d}.pbem", data) for seq, data in enumerate(files[:BASE_SEQ])],
            name=GAME)
    shutil.copytree(bob.path, root / "before")
    bob.receive(files[BASE_SEQ], f"{BASE_SEQ:04d}.pbem")
    shutil.copytree(bob.path, root / "after")
    assert Home(root / "before").game(GAME).verifier.seq == BASE_SEQ - 1
    return Bases(alice, bob, files, root / "before", root / "after")
