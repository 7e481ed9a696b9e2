"""The committed maps are exactly what the offline builders in tools/maps produce.

The builders use the standard library only, so the check runs anywhere; it keeps the
data and the geography tables it was computed from in step (ARCHITECTURE.md section 8).
"""

from __future__ import annotations

import importlib
import sys

import pytest

from .conftest import FTM_MAP, ROOT, WD_MAP

TOOLS = ROOT / "tools" / "maps"


@pytest.fixture(scope="module", autouse=True)
def tools_on_path() -> None:
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))


@pytest.mark.slow
@pytest.mark.parametrize("module,path", [("build_white_death", WD_MAP),
                                         ("build_motherland", FTM_MAP)])
def test_builder_reproduces_the_committed_map(module: str, path: object) -> None:
    builder = importlib.import_module(module)
    assert builder.write_toml(builder.build()) == path.read_text(encoding="utf-8")  # type: ignore[attr-defined]
