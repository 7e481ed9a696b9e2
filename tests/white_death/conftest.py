"""White Death test fixtures: the shipped data with the small test map."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engines.white_death import WhiteDeath
from engines.white_death.state import U, WDState

HERE = Path(__file__).parent
DATA = HERE.parent.parent / "scenarios" / "white-death"


def make_data_dir(target: Path) -> Path:
    """The shipped data files with tests/white_death/test_map.toml as the map."""
    target.mkdir(parents=True, exist_ok=True)
    for f in sorted(DATA.glob("*.toml")):
        if f.name != "map.toml":
            shutil.copy(f, target / f.name)
    shutil.copy(HERE / "test_map.toml", target / "map.toml")
    return target


@pytest.fixture(scope="session")
def engine(tmp_path_factory: pytest.TempPathFactory) -> WhiteDeath:
    return WhiteDeath(make_data_dir(tmp_path_factory.mktemp("white-death")))


def roll(state: WDState, *faces: int) -> None:
    """Answer the next chance requests with these faces."""
    for f in faces:
        assert state.is_chance(), f"expected a die roll, {state.current_player()} is to act"
        state.apply_outcome((f,))


def settle(state: WDState, face: int = 3) -> None:
    while state.is_chance():
        state.apply_outcome((face,))


def clear_board(state: WDState) -> None:
    """Take every unit off the map (not counted as losses), for hand-built positions."""
    for u in state.units.values():
        u.loc = "pending"
    state.schedule = []
    state.bunkers = []
    state._moved()


def put(state: WDState, uid: str, hex_: str, strength: int | None = None) -> None:
    if uid not in state.units:
        state.units[uid] = U(uid, "pending", state.cat.units[uid].strength)
    state._put(uid, hex_)
    if strength is not None:
        state.units[uid].strength = strength
