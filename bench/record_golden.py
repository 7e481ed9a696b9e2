"""Re-record the golden games (tests/data/golden/<engine>.txt): one command.

    .venv/bin/python bench/record_golden.py [ENGINE ...] [--dump DIR]

Every installed engine plus the test engines of tests/toy (``skirmish``) and
tests/tutorial (``bridgehead``, the engine guide's tutorial), every scenario,
the seeds of pbem.golden.SEEDS.  Run it in the same commit as a change that alters what a
game replays to (and raise that engine's rules_version); ``--dump DIR`` also writes each
game's whole text record, so a run before and one after a change can be compared with
``diff -r``.  pbem/golden.py says what the files hold.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy"
TUTORIAL = ROOT / "tests" / "tutorial"
sys.path[:0] = [str(ROOT), str(TOY), str(TUTORIAL)]
# the test engines are registered the way tests/conftest.py registers them
_TESTING = ("toy_engine:ENGINE", "tutorial_engine:ENGINE")
os.environ["PBEM_ENGINES"] = ",".join(
    [e for e in os.environ.get("PBEM_ENGINES", "").split(",") if e and e not in _TESTING]
    + list(_TESTING))

from pbem.golden import main  # noqa: E402

if __name__ == "__main__":
    os.chdir(ROOT)
    sys.exit(main())
