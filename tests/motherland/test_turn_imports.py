"""What a For the Motherland! turn command imports (issue 35: ``legal``, ``act`` and
``receive`` within 1.5x ``pbem --help``).  A game restored from its snapshot, listed,
named and moved once loads none of the modules only the board or another part of the
game needs: each is imported where it is first used."""

from __future__ import annotations

import json
import subprocess
import sys

#: the board's picture (a turn names its units off the position: State.counters)
FORBIDDEN = ("pbem.view",)

_SETTLE = """
def settle(state):
    while state.is_chance():
        r = state.chance_request()
        state.apply_outcome(tuple(1 for _ in r.dice) if r.kind == "dice"
                            else tuple(r.contents[:r.count]))
"""

_NEW = _SETTLE + """
import json
from engines.motherland import ENGINE
state = ENGINE.new_state("4-uranus", ENGINE.resolve_options({}))
settle(state)
for _ in range(3):
    state.apply(state.legal_actions()[0])
    settle(state)
print(json.dumps(state.snapshot()))
"""

_TURN = _SETTLE + """
import json, sys
from engines.motherland import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
legal = state.legal_actions()
side = state.current_player()
assert legal and side, (legal, side)
state.status_line(side)
assert state.counters(side)  # how a listing and an action name the units
state.apply(legal[-1])
settle(state)
state.legal_actions()
print(json.dumps(sorted(m for m in {forbidden!r} if m in sys.modules)))
"""


def _run(code: str, stdin: str = "") -> str:
    out = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()[-1]


def test_a_turn_loads_no_module_only_the_board_needs() -> None:
    snapshot = _run(_NEW)
    assert json.loads(_run(_TURN.format(forbidden=FORBIDDEN), snapshot)) == []
    # the board itself still draws, loading them when asked
    drawn = _run(_TURN.format(forbidden=FORBIDDEN).replace(
        "state.legal_actions()\nprint", "assert state.view(None).cells\nprint"), snapshot)
    assert json.loads(drawn) == list(FORBIDDEN)
