"""Rule 15's supply trace may not enter a hex holding enemy units or in their ZOC: the
hexes it may not enter are the kit's set of the enemy's ZOC hexes, the same as its ZOC
map's hexes, without mapping each hex to the units exerting it (issue 35: 2.8 M
instructions of a fire command's first isolation check)."""

from __future__ import annotations

from engines.hexkit.facts import BoardFacts
from engines.white_death import WhiteDeath
from engines.white_death.base import other
from engines.white_death.state import WDState
from engines.white_death.supply import ZOC, _blocked
from pbem.testing import Chooser, decisions


def test_the_blocked_hexes_are_the_zoc_maps_along_seeded_games(engine: WhiteDeath) -> None:
    s = engine.new_state("purkayev")
    assert isinstance(s, WDState)
    seen = 0
    for n, at in enumerate(decisions(s, Chooser("blocked/1"), 800)):
        if n % 9:
            continue
        assert isinstance(at, WDState)
        for side in ("soviet", "german"):
            foe = other(side)
            fresh = BoardFacts(at.map, at._placed(foe))
            got = _blocked(fresh, side)
            assert ("zoc", foe, ZOC) not in fresh._found  # no ZOC map was made
            f = BoardFacts(at.map, at._placed(foe))
            assert got == f.occupied(foe) | f.zoc(foe, ZOC).hexes
            seen += bool(got)
    assert seen >= 10
