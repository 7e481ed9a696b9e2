"""The shared hex-wargame kit the game engines build on.

One module per thing it owns:

* :mod:`~engines.hexkit.hexid` - printed hex numbers (``CCRR``) and ranges;
* :mod:`~engines.hexkit.geometry` - flat-top offset/cube coordinates, neighbors,
  distance, hexsides, lines, rings;
* :mod:`~engines.hexkit.hexmap` - the immutable map (terrain, hexside features,
  networks, places, areas, off-map boxes);
* :mod:`~engines.hexkit.scenario` - TOML scenario loading and checking;
* :mod:`~engines.hexkit.tables`, :mod:`~engines.hexkit.crt` and
  :mod:`~engines.hexkit.odds` - tables, terrain charts, CRTs, odds rounding, column
  shifts, die-roll modifiers;
* :mod:`~engines.hexkit.movement` and :mod:`~engines.hexkit.zoc` - movement costs,
  least-cost paths, reachable sets, zones of control;
* :mod:`~engines.hexkit.graph` - the searches that count hexes (supply floods and
  traces, hex-counted moves, budgeted multi-source spread) over one neighbour table;
* :mod:`~engines.hexkit.facts` - one placement's board facts (occupancy, stacks, ZOC per
  side, supply floods), each computed once per placement;
* :mod:`~engines.hexkit.overlay` - per-position changes to movement costs (bridges,
  weather) without recompiling the map, and step rules that depend on the path;
* :mod:`~engines.hexkit.retreat` and :mod:`~engines.hexkit.los` - retreat choice and
  line of sight;
* :mod:`~engines.hexkit.board` - the :class:`pbem.view.BoardView` of a map;
* :mod:`~engines.hexkit.checks` - rulebook hex-number checks for ``pbem scenario check``;
* :mod:`~engines.hexkit.shared` - why kit objects survive ``State.clone()`` uncopied.

Nothing here uses floats or iterates an unordered collection into a result: every
value a game stores comes out the same on every machine.
"""

from engines.hexkit.geometry import Cube, HexGrid, Hexside, hexside
from engines.hexkit.hexid import FOUR_DIGIT, HexId, Numbering
from engines.hexkit.hexmap import HexMap, OffMapBox, TerrainClass
from engines.hexkit.scenario import (
    Doc,
    ScenarioSet,
    StandIn,
    load_scenario_dir,
    load_scenario_path,
)

__all__ = [
    "FOUR_DIGIT",
    "Cube",
    "Doc",
    "HexGrid",
    "HexId",
    "HexMap",
    "Hexside",
    "Numbering",
    "OffMapBox",
    "ScenarioSet",
    "StandIn",
    "TerrainClass",
    "hexside",
    "load_scenario_dir",
    "load_scenario_path",
]
