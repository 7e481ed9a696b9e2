"""The kit parses scenario files with rtoml, and tomllib names what rtoml refuses
(issue 35: a referee's first audit, with no data cache, parses every data file)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engines.hexkit import scenario
from engines.hexkit.scenario import parse_doc
from pbem.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
#: every TOML file the project ships or tests with: the shipped scenarios, the kit's and
#: the engines' test data
SHIPPED = sorted(p for p in ROOT.glob("**/*.toml")
                 if not {".venv", "build", ".git"} & set(p.relative_to(ROOT).parts))


def _same(a: Any, b: Any, where: str) -> None:
    assert type(a) is type(b), where
    if type(a) is dict:
        assert list(a) == list(b), f"{where}: key order"  # engines iterate these
        for k in a:
            _same(a[k], b[k], f"{where}.{k}")
    elif type(a) is list:
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{where}[{i}]")
    else:
        assert a == b, where


def test_the_project_has_toml_files_to_compare() -> None:
    assert len([p for p in SHIPPED if p.parts[-3] == "scenarios"]) >= 36


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_parses_to_the_tables_tomllib_reads(path: Path) -> None:
    """The same tables, value types and key order as the standard library's parser."""
    text = path.read_text(encoding="utf-8")
    try:
        want = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        with pytest.raises(ScenarioError, match="TOML syntax"):
            scenario._parse_toml(path.name, text)
        return
    _same(scenario._parse_toml(path.name, text), want, path.name)


@pytest.mark.parametrize("text", [
    "a = 1\na = 2\n",  # a key twice
    "[t]\nb = 1\n[t]\n",  # a table twice
    "a = [1, 2\n",  # an array left open
    "a = 01\n",  # a leading zero
])
def test_a_syntax_error_keeps_tomllibs_message_and_line(text: str) -> None:
    with pytest.raises(tomllib.TOMLDecodeError) as std:
        tomllib.loads(text)
    with pytest.raises(ScenarioError) as got:
        parse_doc("data/x.toml", text.encode())
    assert str(std.value) in str(got.value)
    line = re.search(r"at line (\d+)", str(std.value))
    assert got.value.path == (f"data/x.toml:{line.group(1)}" if line else "data/x.toml")


def test_a_value_rtoml_refuses_is_read_as_tomllib_reads_it() -> None:
    # rtoml refuses a float beyond the double range, tomllib reads it as infinity; the
    # map's own check then refuses the float, as it did before
    assert scenario._parse_toml("x.toml", "a = 1e999\n") == {"a": float("inf")}


def test_a_load_with_no_data_cache_does_not_parse_with_tomllib(tmp_path: Path) -> None:
    """A referee with no pbem home (no data cache) parses White Death's files with
    rtoml alone: tomllib, pure Python, was 86 M instructions of that load."""
    probe = ("import sys\n"
             "from engines.hexkit.scenario import load_scenario_dir\n"
             "load_scenario_dir('white-death').map\n"
             "print('tomllib' in sys.modules, 'rtoml' in sys.modules)\n")
    env = {"PBEM_HOME": str(tmp_path / "none"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], env=env, cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
