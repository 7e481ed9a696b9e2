"""Shared test setup: make the test engine importable, in-process and in subprocesses."""

from __future__ import annotations

import os
import sys
from pathlib import Path

TOY = Path(__file__).parent / "toy"

if str(TOY) not in sys.path:
    sys.path.insert(0, str(TOY))
os.environ["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(TOY), os.environ.get("PYTHONPATH", "")) if p)
_engines = [e for e in os.environ.get("PBEM_ENGINES", "").split(",") if e]
if "toy_engine:ENGINE" not in _engines:
    os.environ["PBEM_ENGINES"] = ",".join([*_engines, "toy_engine:ENGINE"])
