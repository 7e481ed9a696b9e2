"""White Death test fixtures: the shipped data with the small test map."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from engines.white_death import WhiteDeath
from engines.white_death.state import U, WDState
from pbem.errors import IllegalAction
from pbem.testing import Chooser

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


def decisions(state: WDState, choose: Chooser, steps: int) -> Iterator[int]:
    """The steps of a random game, among its first ``steps``, at which ``state`` waits for
    a decision (``choose`` rolls the dice between them): the caller looks, then plays one
    action. A step number counts the rolls too."""
    for n in range(steps):
        if state.is_terminal():
            return
        if state.is_chance():
            state.apply_outcome(choose.outcome(state.chance_request()))
            continue
        yield n


def settle(state: WDState, face: int = 3) -> list[str]:
    """Answer every pending die with ``face``; the purposes of the rolls, in order."""
    purposes = []
    while state.is_chance():
        purposes.append(state.chance_request().purpose)
        state.apply_outcome((face,))
    return purposes


def clear_board(state: WDState) -> None:
    """Take every unit off the map (not counted as losses), for hand-built positions."""
    for u in state.pos.units.values():
        u.loc = "pending"
    state.pos.schedule = []
    state.pos.bunkers = []
    state._moved()


def put(state: WDState, uid: str, hex_: str, strength: int | None = None) -> None:
    if uid not in state.pos.units:
        state.pos.units[uid] = U(uid, "pending", state.cat.units[uid].strength)
    state._put(uid, hex_)
    if strength is not None:
        state.pos.units[uid].strength = strength


def refused(s: WDState, text: str, rule: str) -> IllegalAction:
    """Apply ``text``, which must be refused under ``rule`` and leave the state as it was."""
    before = s.digest()
    with pytest.raises(IllegalAction) as exc:
        s.apply(text)
    assert exc.value.rule == rule, str(exc.value)
    assert s.digest() == before  # refused actions leave the state unchanged
    return exc.value


# Positions by hand. The rule tests state theirs through the setup API (positions.py);
# these poke a state instead, kept for the cache tests and for checking positions.py
# against the hand-built start (test_positions.py). A new rule test uses positions.py.
def started(engine: WhiteDeath, scenario: str = "woehler", weather: int = 1) -> WDState:
    """A new game past its opening dice (weather roll ``weather``, the others 3)."""
    s = engine.new_state(scenario)
    assert isinstance(s, WDState)
    roll(s, weather)
    settle(s)
    return s


def fresh(engine: WhiteDeath, scenario: str = "woehler", weather: int = 1) -> WDState:
    """A state at the first Soviet decision, board cleared (weather roll ``weather``)."""
    s = started(engine, scenario, weather)
    clear_board(s)
    s.pos.supply = {"soviet": 5, "german": 5, "vl": 5}
    return s


# Impulses.
def declare_assault(s: WDState, target: str, *attackers: str, mps: int = 3) -> None:
    """Open an impulse of ``mps`` (3: the Soviet minimum to assault, Rule 5), declare
    ``attackers`` against ``target`` and end the movement phase."""
    s.apply(f"impulse {mps}")
    for uid in attackers:
        s.apply(f"assault {target} with {uid}")
    s.apply("end movement")


def survive_defensive_fire(s: WDState) -> None:
    """The defender fires by default; each fire roll is a 6 (a bare MC) and each morale
    check a 1 (passed), so the assault goes on to the attacker's fire unharmed."""
    s.apply("done firing")
    while s.is_chance():
        s.apply_outcome((6,) if "fire" in s.chance_request().purpose else (1,))
