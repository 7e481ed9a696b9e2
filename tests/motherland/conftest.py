from __future__ import annotations

from pathlib import Path

import pytest

from engines.motherland import MotherlandEngine

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def engine() -> MotherlandEngine:
    """The engine on the shipped data, with the test map when the real one is missing."""
    shipped = Path(__file__).resolve().parents[2] / "scenarios" / "for-the-motherland"
    if (shipped / "map.toml").exists():
        return MotherlandEngine()
    return MotherlandEngine(map_file=DATA / "testmap.toml")
