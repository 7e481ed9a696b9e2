from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engines.hexkit.geometry import HexGrid
from engines.motherland import MotherlandEngine
from engines.motherland.state import MotherlandState
from pbem.engine import Event
from pbem.setup import setup

DATA = Path(__file__).parent / "data"
SHIPPED = Path(__file__).resolve().parents[2] / "scenarios" / "for-the-motherland"


@pytest.fixture(scope="session")
def engine() -> MotherlandEngine:
    """The engine on the shipped data (the test map only if the real one is missing)."""
    if (SHIPPED / "map.toml").exists():
        return MotherlandEngine()
    return MotherlandEngine(map_file=DATA / "testmap.toml")


RULES_FEATURES = {
    "minor_river": ["1517/1617"],
    "major_river": ["1519/1619"],
    "strait": ["1113/1114"],
    "rail_bridge": ["1111/1112"],
    "sea": ["1010/1011"],
    "frozen_access": ["0405/0505", "0505/0506", "0506/0606"],
}


def rules_map_text() -> str:
    """An all-clear map (cols 1-28, rows 1-36) with a few features placed for rule tests."""
    grid = HexGrid("even", (1, 28), (1, 36))
    rows = []
    for r in range(1, 37):
        chars = ""
        for c in range(1, 29):
            h = grid.hex_id(c, r)
            chars += {"1415": "w", "1713": "m", "1813": "s", "0505": "~", "0506": "~"}.get(h, ".")
        rows.append(f"{r:02d} {chars}")
    ids = [grid.hex_id(c, r) for c, r in grid.coords()]
    land = [h for h in ids if h not in ("0505", "0506")]

    def q(xs: list[str]) -> str:
        return "[" + ", ".join(f'"{x}"' for x in xs) + "]"

    col = {h: grid.coords_of(h) for h in land}
    out = ['[map]', 'title = "rules test map"', 'offset = "even"', "cols = [1, 28]",
           "rows = [1, 36]", "", "[map.legend]",
           '"." = { name = "clear", color = "#e8e0b0" }', '"w" = { name = "woods" }',
           '"m" = { name = "mountain" }', '"s" = { name = "swamp" }',
           '"~" = { name = "sea", water = true }', "",
           "[map.terrain]", 'grid = """', *rows, '"""', "", "[map.hex_features]",
           'city = ["1612", "1610", "2113", "1705", "0926", "1530"]',
           'fortified = ["1610", "2113"]',
           'port = ["0926", "1705", "1530"]', 'port_black = ["0926", "1530"]',
           'port_baltic = ["1705"]', "",
           "[map.areas]",
           f"source_W = {q([h for h in land if col[h][0] == 1])}",
           f"source_E = {q([h for h in land if col[h][0] == 28])}",
           f"coast_baltic = {q([h for h in land if col[h][1] == 1])}",
           f"coast_black = {q([h for h in land if col[h][1] == 36])}",
           f"germany = {q([h for h in land if col[h][0] <= 3])}",
           f"finland = {q([h for h in land if col[h][1] <= 2 and 12 <= col[h][0] <= 18])}",
           "", "[map.hexsides]"]
    out += [f"{k} = {q(v)}" for k, v in RULES_FEATURES.items()]
    out += ["", "[map.networks]", 'railroad = ["' + " ".join(
        grid.hex_id(c, 20) for c in range(1, 29)) + '"]', ""]
    return "\n".join(out)


@pytest.fixture(scope="session")
def rules_engine(tmp_path_factory: pytest.TempPathFactory) -> MotherlandEngine:
    path = tmp_path_factory.mktemp("ftm") / "rulesmap.toml"
    path.write_text(rules_map_text(), encoding="utf-8")
    return MotherlandEngine(map_file=path)


def position(engine: MotherlandEngine, turn: int, phase: str, side: str,
             units: dict[str, str], scenario: str = "6-for-the-motherland",
             partisans: dict[str, str] | None = None, options: dict[str, str] | None = None,
             fields: dict[str, dict[str, Any]] | None = None) -> MotherlandState:
    """A position with only ``units`` on the map, at the start of ``phase`` of ``turn``,
    built by the setup API (``step = "phase"``) as a book position is stated."""
    start = engine.new_state(scenario, options)
    assert isinstance(start, MotherlandState)
    # the scenario starts with no control marker and no partisan (the setup merges
    # tables, so it could not take them away)
    assert not start.pos.control and not start.pos.partisans
    placed: dict[str, Any] = {}
    for uid, unit in start.setup_position()["units"].items():
        placed[uid] = {**unit, "hex": "", "box": "out", "chit": "", "supply": "",
                       "return_turn": 0}
    for uid, h in units.items():
        placed[uid].update(hex=h, box="", steps=start.c(uid).max_steps)
    for uid, extra in (fields or {}).items():
        placed[uid].update(extra)
    start.pos.turn = turn
    spec = {"turn": turn, "phase": start.phases().index((phase, side)), "units": placed,
            "partisans": partisans or {}, "step": "phase"}
    st = setup(engine, scenario, spec, options)
    assert isinstance(st, MotherlandState)
    return st


def instead_of_roll(st: MotherlandState, rule: Callable[[], None]) -> list[Event]:
    """Replace the pending die roll by what ``rule`` does (a test's chosen result, say
    ``combat_result(st, "1/1")``), then play on to the next decision: the events told,
    in order."""
    assert st.is_chance(), st.stack[-1:]
    st.stack.pop()
    with st.telling() as (told, queued):
        rule()
    # the first queued runs first, as the runtime stacks them
    st.stack += reversed(queued)
    return told + st._settle()
