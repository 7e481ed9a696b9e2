"""pbem.engine.package_files: importlib.resources.files without importing it, for the
packages engines keep their data in (issue 19), and the same answer for any other."""

from __future__ import annotations

import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from pbem.engine import package_files


@pytest.mark.parametrize("package", ["scenarios", "toy_data", "engines.motherland",
                                     "engines.hexkit", "pbem"])
def test_same_folder_as_importlib_resources(package: str) -> None:
    found = package_files(package)
    assert found == files(package) and type(found) is type(files(package))
    assert (found / "__init__.py").is_file()


def test_a_namespace_package_is_asked_through_importlib_resources(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "loose_data").mkdir()
    (tmp_path / "loose_data" / "a.toml").write_text("x = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    found = package_files("loose_data")
    # a MultiplexedPath (which has no equality of its own): the same kind, the same folder
    assert type(found) is type(files("loose_data"))
    assert str(found) == str(files("loose_data"))
    assert (found / "a.toml").read_text() == "x = 1\n"


def test_finding_the_folder_imports_no_importlib_resources() -> None:
    probe = ("import sys; from pbem.engine import package_files; "
             "package_files('scenarios'); package_files('engines.hexkit'); "
             "package_files('pbem.render'); "
             "print(sorted(m for m in sys.modules if m.startswith('importlib.resources')))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
