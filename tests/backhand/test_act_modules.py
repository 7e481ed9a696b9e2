"""What an act loads: the status line a game's summary keeps is the state's own, so a
command that shows no board (an act, a receive) loads no board view (issue 35)."""

from __future__ import annotations

from pbem.testing import fresh_run

_STATUS = """
import sys
from engines.backhand import ENGINE
from pbem.testing import settle

s = ENGINE.new_state("high-water-mark", ENGINE.resolve_options({}))
settle(s)
# turn 1's first decision taken by its default, as an act takes one
s.apply(s.decision().default or s.legal_actions()[-1])
print(s.status_line(s.current_player()))
print("engines.backhand.view" in sys.modules)
print(s.view(None).status)
print("engines.backhand.view" in sys.modules)
"""


def test_the_status_line_of_an_act_loads_no_board_view() -> None:
    line, loaded, board, then = fresh_run(_STATUS)
    assert line == "turn 1/4 frozen, soviet Schwerpunkt 1; C3I S5 G2; AP SW0 VO0 G0"
    assert loaded == "False"
    # the board shows the same line, and loads its module when asked
    assert board == line
    assert then == "True"
