"""``pbem audit`` loads a game (its engine, data and set-up, kept for the whole audit)
with the cyclic garbage collector off, and replays the files with it on (issue 35: the
collections the load passed found nothing, 18 M instructions of a White Death audit)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from pbem.selfplay import selfplay

_PROBE = """
import gc, json, sys
from pbem.cli import main
import pbem.transcript as transcript
seen = []
real_init = transcript.Verifier.__init__
def init(self, *args, **kwargs):
    seen.append(["load", gc.isenabled()])
    real_init(self, *args, **kwargs)
transcript.Verifier.__init__ = init
real_add = transcript.Verifier.add
def add(self, *args, **kwargs):
    seen.append(["file", gc.isenabled()])
    return real_add(self, *args, **kwargs)
transcript.Verifier.add = add
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps([seen, gc.isenabled(), gc.get_freeze_count()]))
"""


def test_the_audit_loads_the_game_with_the_collector_off(tmp_path: Path) -> None:
    result = selfplay("skirmish", "short", 2, tmp_path / "sp")
    out = subprocess.run([sys.executable, "-c", _PROBE, "audit", "--json",
                          str(tmp_path / "sp" / "files")],
                         capture_output=True, text=True, check=True)
    seen, enabled, frozen = json.loads(out.stdout.splitlines()[-1])
    assert seen[0] == ["load", False]
    # the files are replayed with it on: what a long game's replay leaves in cycles is
    # collected as it goes
    files = [on for what, on in seen if what == "file"]
    assert len(files) == result.files - 1 and all(files)
    assert enabled and frozen == 0  # and on again, nothing left frozen


def test_an_audit_of_a_game_without_standing_orders_loads_no_orders_module(
        tmp_path: Path) -> None:
    """pbem.orders is loaded for a file that carries standing orders alone (issue 35);
    tests/core/test_orders.py audits one that does."""
    selfplay("skirmish", "short", 2, tmp_path / "sp")
    probe = ("import sys\n"
             "from pbem.cli import main\n"
             "try:\n"
             "    main(sys.argv[1:], standalone_mode=False)\n"
             "except SystemExit as exc:\n"
             "    assert not exc.code, exc.code\n"
             "print('pbem.audit' in sys.modules, 'pbem.orders' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", probe, "audit", "--json",
                          str(tmp_path / "sp" / "files")],
                         capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1].split() == ["True", "False"]
