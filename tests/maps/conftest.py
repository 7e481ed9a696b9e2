"""The two maps built from real geography, loaded with the kit's loader."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engines.hexkit.hexmap import HexMap
from engines.hexkit.scenario import parse_doc, parse_map

ROOT = Path(__file__).resolve().parents[2]
WD_MAP = ROOT / "scenarios" / "white-death" / "map.toml"
FTM_MAP = ROOT / "scenarios" / "for-the-motherland" / "map.toml"


def _load(path: Path) -> tuple[HexMap, dict[str, Any]]:
    raw = path.read_bytes()
    return parse_map(parse_doc(str(path), raw)), tomllib.loads(raw.decode())


@pytest.fixture(scope="session")
def wd() -> tuple[HexMap, dict[str, Any]]:
    """White Death: the kit's HexMap and the raw TOML (for the extra tables)."""
    return _load(WD_MAP)


@pytest.fixture(scope="session")
def ftm() -> tuple[HexMap, dict[str, Any]]:
    """For the Motherland!: the kit's HexMap and the raw TOML."""
    return _load(FTM_MAP)
