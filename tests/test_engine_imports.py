"""What a turn command imports of an engine (issue 35: importing the engine was 21-62 M
instructions of each ``legal``/``act``/``receive``).  A game restored from its snapshot,
listed, and moved once loads none of the modules only a new game, the set-up or the
board needs: each is imported where it is first used."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pbem.testing import fresh_run

#: engine package, scenario, the modules a restored game's turn must not load, and what
#: a new game (``s``) does that loads them all
CASES = {
    "white-death": ("engines.white_death", "purkayev",
                    # the Campaign's set-up (Rule 22) and the board (Rule 4.C)
                    ("engines.white_death.placement", "pbem.view", "engines.hexkit.board"),
                    "assert s.view(None).pieces and s.view(None).lines"),
    # three actions in, the order of the phases (6.0): it and the C3I points that follow
    # move nothing; the Front Markers (14.2) at the start trace to a source
    # the US set-up (13.0) moves nothing: the movement rules (S3, 11.0, 19.1), the kit's
    # searches and its hex-number checks (pbem scenario check) load where first used
    "mortain": ("engines.mortain", "counterattack",
                ("engines.mortain.movement", "engines.hexkit.movement",
                 "engines.hexkit.overlay", "engines.hexkit.zoc", "engines.hexkit.graph",
                 "engines.hexkit.checks"),
                "for _ in range(30):  # past the set-up, through a movement phase\n"
                "    while s.is_chance():\n"
                "        r = s.chance_request()\n"
                "        s.apply_outcome(tuple(1 for _ in r.dice) if r.kind == 'dice'\n"
                "                        else tuple(r.contents[:r.count]))\n"
                "    s.apply(s.legal_actions()[-1])\n"
                "s.zoc_of('us')\n"
                # a blown bridge's overlay (S3) and the kit's graph searches load when
                # first asked, not with the movement costs (issue 35)
                "s.overlay()\n"
                "from engines.hexkit.movement import trace\n"
                "assert not ENGINE.check_scenarios()"),
    # a turn names its units off the position (State.counters), not the board's picture
    "for-the-motherland": ("engines.motherland", "4-uranus", ("pbem.view",),
                           "assert s.view(None).cells\n"
                      "assert not ENGINE.check_scenarios()"),
    # a unit's moves (15.0) load the kit's movement search; a Front Marker's trace
    # (14.1) does not; a turn names its units off the position, not the board's picture,
    # and checks no hex number (pbem scenario check); the kit's overlays, which no rule
    # of this game reads, in the test after the next
    "backhand-blow": ("engines.backhand", "high-water-mark",
                      ("engines.hexkit.movement", "pbem.view",
                       "engines.hexkit.board", "engines.hexkit.checks"),
                      "from engines.backhand.movement import destinations\n"
                      "u = sorted(u for u, x in s.pos.units.items() if x.at[:1].isdigit())[0]\n"
                      "assert destinations(s, (u,), s.pos.units[u].at)\n"
                      "assert s.view(None).cells\n"
                      "assert not ENGINE.check_scenarios()"),
}

#: answers every pending roll with ones (a draw with the cup's first counters)
_SETTLE = """
from pbem.testing import settle
"""

_NEW = _SETTLE + """
import json, sys
from {package} import ENGINE
state = ENGINE.new_state({scenario!r}, ENGINE.resolve_options({{}}))
settle(state)
for _ in range(3):  # a few actions in, past any set-up
    state.apply(state.legal_actions()[0])
    settle(state)
print(json.dumps(state.snapshot()))
"""

_TURN = _SETTLE + """
import json, sys
from {package} import ENGINE
state = ENGINE.restore(json.loads(sys.stdin.read()))
legal = state.legal_actions()
side = state.current_player()
assert legal and side, (legal, side)
state.status_line(side)
state.counters(side)  # how a listing and an action name the units
state.apply(legal[-1])
settle(state)
state.legal_actions()
print(json.dumps(sorted(m for m in {forbidden!r} if m in sys.modules)))
"""


def _run_all(code: str, stdin: str = "") -> list[str]:
    return fresh_run(code, stdin)


def _run(code: str, stdin: str = "") -> str:
    return _run_all(code, stdin)[-1]


@pytest.mark.parametrize("engine", sorted(CASES))
def test_a_turn_loads_no_module_of_another_phase_the_setup_or_the_board(engine: str) -> None:
    package, scenario, forbidden, use = CASES[engine]
    snapshot = _run(_NEW.format(package=package, scenario=scenario))
    loaded = json.loads(_run(_TURN.format(package=package, forbidden=forbidden), snapshot))
    assert loaded == []
    # and each still loads where it is used
    probe = (f"import sys\nfrom {package} import ENGINE\n"
             f"s = ENGINE.new_state({scenario!r}, ENGINE.resolve_options({{}}))\n"
             f"{use}\n"
             f"print(sorted(m for m in {forbidden!r} if m not in sys.modules))\n")
    assert _run(probe) == "[]"


def test_a_rule_citation_pattern_is_compiled_when_first_searched() -> None:
    """For the Motherland!'s pattern of a rule number in a reason (MotherlandState.cited)
    is compiled by the first search, not by importing the engine (issue 35: ~0.6 M
    instructions of every command); it still finds the first rule cited."""
    probe = ("import re, sys\n"
             "from engines.motherland import ENGINE\n"
             "from engines.motherland.state import MotherlandState\n"
             "text = r'\\b\\d+\\.\\d+(?:\\.\\d+)*'\n"
             "print([k for k in re._cache if text in k])\n"
             "print(MotherlandState.cited('cannot trace a Supply Line (9.1.1), see 4.2'))\n")
    out = _run_all(probe)
    assert out == ["[]", "9.1.1"]


@pytest.mark.parametrize("package", ["engines.backhand", "engines.motherland",
                                     "engines.mortain", "engines.panzer48",
                                     "engines.white_death"])
def test_the_kits_retreat_search_loads_with_the_first_retreat(package: str) -> None:
    """Importing an engine (every turn command does) leaves the kit's retreat search
    unloaded (issue 35: 1.2 M instructions): the function that finds a retreat imports
    it, as each engine's retreat tests and golden games exercise."""
    probe = (f"import sys\nimport {package}\n"
             "print('engines.hexkit.retreat' in sys.modules)\n")
    assert _run(probe) == "False"


@pytest.mark.parametrize("package", ["engines.mortain", "engines.panzer48"])
def test_the_kits_odds_load_with_the_first_crt(package: str) -> None:
    """Importing an engine whose combat tables are its own and loading its data (every
    turn command does) leaves the kit's odds arithmetic unloaded (issue 35: 2.1 M
    instructions): the kit's CRTs import it when one is made or consulted."""
    probe = (f"import sys\nimport {package} as e\ne.ENGINE.scenarios()\n"
             "print('engines.hexkit.odds' in sys.modules)\n"
             "from engines.hexkit.tables import DifferentialCRT, Table\n"
             "crt = DifferentialCRT(Table('t', 'differential', ('-1', '0', '+1'),\n"
             "                            (('1', ('A', 'B', 'C')),)))\n"
             "print('engines.hexkit.odds' in sys.modules, crt.result(crt.column(3, 3), 1))\n")
    assert _run_all(probe) == ["False", "True B"]


def test_48th_panzer_korps_loads_the_kits_zoc_search_with_the_first_zoc() -> None:
    """48th Panzer Korps' engine and data leave the kit's ZOC search unloaded (issue 35:
    1.7 M instructions of a listing that asks no ZOC, as a fire's); the first ZOC (5)
    asked loads it."""
    probe = ("import sys\nfrom engines.panzer48 import ENGINE\nENGINE.scenarios()\n"
             "print('engines.hexkit.zoc' in sys.modules)\n"
             "s = ENGINE.new_state('chir', ENGINE.resolve_options({}))\n"
             "from engines.panzer48.zoc import zoc\n"
             "print('engines.hexkit.zoc' in sys.modules, bool(zoc(s, 'german').hexes))\n")
    assert _run_all(probe) == ["False", "True True"]


def test_backhand_blow_loads_fractions_with_the_first_odds_worked_out() -> None:
    """Backhand Blow's engine, its data and a restored game's turn leave ``fractions``
    (and ``decimal``, which it imports) unloaded (issue 35: 9 M instructions of every
    ``legal``, ``act`` and ``receive``): the kit checks a CRT's odds columns (16.1) in
    integers, and works out odds from whole strengths in integers too; the first attack's
    strength (16.722 halves it across a river) loads it, as the golden games' attacks
    show."""
    probe = ("import sys\nfrom engines.backhand import ENGINE\nENGINE.scenarios()\n"
             "s = ENGINE.new_state('high-water-mark', ENGINE.resolve_options({}))\n"
             "s.legal_actions()\n"
             "print(sorted(m for m in ('fractions', 'decimal') if m in sys.modules))\n"
             "crt = s.data.crt\n"
             "print('fractions' in sys.modules,\n"
             "      *(crt.column(a, d).label for a, d in ((7, 2), (1, 3), (19, 2))))\n")
    assert _run_all(probe) == ["[]", "False 3:1 1:2 9:1"]


def test_an_odds_crt_whose_columns_do_not_increase_is_refused() -> None:
    """The kit's odds CRT (White Death, Backhand Blow) checks its columns increase left
    to right without making fractions: equal or falling odds are refused by name."""
    from engines.hexkit.tables import OddsCRT, Table

    def crt(*columns: str) -> OddsCRT:
        return OddsCRT(Table("crt", "odds", columns, (("1", tuple("A" * len(columns))),),
                             None, "crt.toml [tables.crt]"))

    assert crt("1:3", "1:2", "2:3", "1:1", "3:2", "2:1", "7:1+").labels[-1] == "7:1+"
    for bad in (("1:1", "1:2"), ("1:2", "2:4"), ("2:1", "3:2", "4:1")):
        with pytest.raises(ValueError, match=re.escape(
                "crt.toml [tables.crt]: odds columns must increase left to right")):
            crt(*bad)


def test_backhand_blow_compiles_no_annotation_at_import() -> None:
    """Importing Backhand Blow (every turn command does) makes no class that compiles
    its string annotations at import, as a ``typing.NamedTuple`` does (issue 35: 1.2 M
    instructions for the four of 7.0's floods); the floods still read as before."""
    probe = ("import sys, typing\n"
             # the kit's modules first: their own classes are the kit's to make
             "import engines.hexkit, engines.hexkit.facts, engines.hexkit.zoc\n"
             "import engines.hexkit.checks, pbem.engine, pbem.steps, pbem.grammar\n"
             "made = []\n"
             "init = typing.ForwardRef.__init__\n"
             "def counted(self, arg, *a, **k):\n"
             "    made.append(arg)\n"
             "    init(self, arg, *a, **k)\n"
             "typing.ForwardRef.__init__ = counted\n"
             "from engines.backhand import ENGINE\n"
             "print(made)\n"
             "from engines.backhand.data import load\n"
             "from engines.backhand.supply import floods\n"
             "f = floods(load())\n"
             "print(f.supply is not f.clear, callable(f.supply_blocked),\n"
             "      callable(f.clear_blocked))\n")
    assert _run_all(probe) == ["[]", "True True True"]


def test_backhand_blow_traces_a_front_marker_without_the_movement_search() -> None:
    """A Front Marker's trace to a Soviet source (14.1), run after every placement a
    process first makes (reinforcements arriving, 11.1), is the engine's own search
    toward the sources: it loads neither the kit's hex-counting searches nor its
    movement search (issue 35: 5.1 M instructions of an act that moves nothing); the
    first move's search loads that."""
    probe = ("import sys\nfrom engines.backhand import ENGINE\n"
             "from engines.backhand import fronts\n"
             "s = ENGINE.new_state('high-water-mark', ENGINE.resolve_options({}))\n"
             "print(fronts.traces(s, s.pos.fronts['voronezh'], lambda h: True),\n"
             "      'engines.hexkit.graph' in sys.modules,\n"
             "      sorted(m for m in ('engines.hexkit.movement', 'engines.hexkit.overlay')\n"
             "             if m in sys.modules))\n")
    assert _run(probe) == "True False []"


#: the kit's modules a search, an overlay or a ZOC needs, which pricing one step does not
_SEARCHES = ("engines.hexkit.graph", "engines.hexkit.odds", "engines.hexkit.overlay",
             "engines.hexkit.zoc")


#: the kit's compiled movement costs and the chart reader beside them, which pricing one
#: step from a mobility class (:mod:`engines.hexkit.moveclass`) does not need
_COMPILING = ("engines.hexkit.movement", "engines.hexkit.pricing", "engines.hexkit.tables",
              "heapq")


def test_white_death_prices_an_advance_without_the_kits_searches() -> None:
    """A restored White Death game asked whether a unit may advance (Rule 9.D: one step,
    priced once, as an ``act`` after a fire asks) loads the kit's mobility class alone:
    not its compiled movement costs and chart reader (about 3 M instructions), nor its
    graph searches, overlays, odds or ZOC policies (issue 35: about 0.45 M instructions
    each to load); those still load where used, and movement's graph names are still
    there."""
    snapshot = _run(_NEW.format(package="engines.white_death", scenario="purkayev"))
    probe = ("import json, sys\nfrom engines.white_death import ENGINE\n"
             "from engines.white_death.terrain import may_advance_into\n"
             "s = ENGINE.restore(json.loads(sys.stdin.read()))\n"
             "uid = sorted(u for u, x in s.pos.units.items() if x.loc == '4304')[0]\n"
             "print(may_advance_into(s, uid, '4304', '4203'))\n"
             f"print(sorted(m for m in {_SEARCHES!r} if m in sys.modules))\n"
             f"print(sorted(m for m in {_COMPILING!r} if m in sys.modules))\n"
             "import engines.hexkit.graph as graph\n"
             "from engines.hexkit.movement import breadth_first, lightest_chain, region, "
             "spread, trace\n"
             "print(trace is graph.trace, spread is graph.spread, region is graph.region,\n"
             "      breadth_first is graph.breadth_first,\n"
             "      lightest_chain is graph.lightest_chain)\n"
             "from engines.hexkit.movement import StepCosts, reachable\n"
             "m = s.ter.map\n"
             "# 2 MPs: White Death's move classes cost in ticks (position.MP_TICKS)\n"
             "r = reachable(StepCosts(m, s.ter.move_class(s.utype(uid).mob)), '4304', 12)\n"
             "print('4203' in r.cost, 'engines.hexkit.zoc' in sys.modules)\n"
             "import engines.hexkit.movement as mv\n"
             "try:\n    mv.nothing_here\nexcept AttributeError as e:\n    print(e)\n")
    assert _run_all(probe, snapshot) == [
        "True", "[]", "[]", "True True True True True", "True True",
        "module 'engines.hexkit.movement' has no attribute 'nothing_here'"]


def test_backhand_blow_checks_a_move_without_overlays_or_graph_searches() -> None:
    """Backhand Blow's first move check of a command (15.0: the unit's destinations on the
    printed map, as a ``receive`` replays a move) compiles its costs without loading the
    kit's overlays or graph searches (issue 35)."""
    snapshot = _run(_NEW.format(package="engines.backhand", scenario="high-water-mark"))
    probe = ("import json, sys\nfrom engines.backhand import ENGINE\n"
             "from engines.backhand.movement import destinations\n"
             "s = ENGINE.restore(json.loads(sys.stdin.read()))\n"
             "u = sorted(u for u, x in s.pos.units.items() if x.at[:1].isdigit())[0]\n"
             "print(bool(destinations(s, (u,), s.pos.units[u].at)))\n"
             "print(sorted(m for m in ('engines.hexkit.overlay', 'engines.hexkit.graph',\n"
             "                         'engines.hexkit.movement') if m in sys.modules))\n")
    assert _run_all(probe, snapshot) == ["True", "['engines.hexkit.movement']"]
    # nor does a restored game's turn (a listing, an action, the listing after it)
    forbidden = ("engines.hexkit.overlay", "engines.hexkit.graph")
    turn = _TURN.format(package="engines.backhand", forbidden=forbidden)
    assert json.loads(_run(turn, snapshot)) == []


def test_backhand_blow_loads_the_kits_odds_with_its_crt(tmp_path: Path) -> None:
    """Backhand Blow's combat rules (16.0: an attack declared imports them) and its
    data, its tables checked by an earlier command (the data cache says so), leave the
    kit's odds arithmetic unloaded (issue 35: 0.9 M instructions of a receive, and the
    CRT made and dropped, 2.6 M, of every command); the CRT (16.1), made with the first
    attack resolved, loads it."""
    load = ("import sys\nfrom pathlib import Path\nfrom pbem import datacache\n"
            f"datacache.configure(Path({str(tmp_path)!r}))\n"
            "from engines.backhand import ENGINE\nENGINE.scenarios()\n")
    _run_all(load)  # the tables checked, and the data cache told so
    probe = (load + "import engines.backhand.combat, engines.backhand.steps.fight\n"
             "from engines.backhand.data import load\n"
             "print('engines.hexkit.odds' in sys.modules)\n"
             "crt = load().crt\n"
             "print('engines.hexkit.odds' in sys.modules, crt.column(3, 1).label)\n")
    assert _run_all(probe) == ["False", "True 3:1"]
