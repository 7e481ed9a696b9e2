"""pbem.finder: pbem's and its engines' modules are found as importlib's path finder finds
them (the same file, loader, search locations and bytecode path), and whatever it does
not answer for is left to that finder."""

from __future__ import annotations

import importlib
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, PathFinder, SourceFileLoader
from pathlib import Path

import pytest

import engines
import pbem
from pbem import finder
from pbem.finder import Finder


def _submodules() -> list[tuple[str, list[str]]]:
    """Every module and package of pbem and engines, with its parent's search path."""
    found = []
    for package in (pbem, engines):
        root = Path(package.__path__[0])
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if (Path(folder) / d / "__init__.py").is_file())
            parent = ".".join((package.__name__, *Path(folder).relative_to(root).parts))
            for name in sorted(files):
                if name.endswith(".py") and name != "__init__.py":
                    found.append((f"{parent}.{name[:-3]}", [folder]))
            found += [(f"{parent}.{d}", [folder]) for d in dirs]
    return found


def _same(name: str, path: list[str]) -> None:
    mine, theirs = Finder.find_spec(name, path), PathFinder.find_spec(name, path)
    assert mine is not None and theirs is not None
    assert (mine.name, mine.origin, mine.submodule_search_locations, mine.cached,
            mine.has_location, mine.parent) == (
        theirs.name, theirs.origin, theirs.submodule_search_locations, theirs.cached,
        theirs.has_location, theirs.parent)
    assert isinstance(mine.loader, SourceFileLoader)
    assert type(theirs.loader) is SourceFileLoader
    assert mine.loader.path == theirs.loader.path


def test_every_module_of_pbem_and_its_engines_is_found_where_python_finds_it() -> None:
    modules = _submodules()
    assert len(modules) > 100 and ("pbem.session", pbem.__path__) in modules
    for name, path in modules:
        _same(name, path)


def test_it_is_first_and_the_modules_imported_come_from_it() -> None:
    assert sys.meta_path[0] is Finder
    assert sys.modules["pbem.session"].__spec__.loader.__module__ == "pbem.finder"


def test_the_code_read_is_the_code_pythons_loader_reads() -> None:
    for name in ("pbem.session", "engines.backhand.steps.move"):
        parent = importlib.import_module(name.rpartition(".")[0])
        spec = Finder.find_spec(name, parent.__path__)
        assert spec is not None and spec.loader is not None and spec.origin is not None
        mine = spec.loader.get_code(name)  # type: ignore[attr-defined]
        theirs = SourceFileLoader(name, spec.origin).get_code(name)
        assert mine is not None and theirs is not None
        assert (mine.co_code, mine.co_consts, mine.co_filename, mine.co_linetable) == (
            theirs.co_code, theirs.co_consts, theirs.co_filename, theirs.co_linetable)


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A package ``finderprobe`` of the kept prefixes, its folder listed once."""
    folder = tmp_path / "finderprobe"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "plain.py").write_text("X = 1\n")
    monkeypatch.setattr(finder, "PREFIXES", ("finderprobe.",))
    monkeypatch.syspath_prepend(str(tmp_path))
    Finder.invalidate_caches()
    assert Finder.find_spec("finderprobe.plain", [str(folder)]) is not None
    yield folder
    for name in [m for m in sys.modules if m.split(".")[0] == "finderprobe"]:
        del sys.modules[name]
    Finder.invalidate_caches()


def test_a_module_written_after_the_folder_was_listed_is_imported(package: Path) -> None:
    (package / "later.py").write_text("X = 2\n")
    assert importlib.import_module("finderprobe.later").X == 2


def test_a_module_changed_since_its_bytecode_was_written_is_read_anew(
        package: Path) -> None:
    assert importlib.import_module("finderprobe.plain").X == 1
    del sys.modules["finderprobe.plain"]
    (package / "plain.py").write_text("X = 22\n")  # another size: the bytecode is stale
    assert importlib.import_module("finderprobe.plain").X == 22
    del sys.modules["finderprobe.plain"]
    # and the bytecode written for it then is the one read next
    assert importlib.import_module("finderprobe.plain").X == 22


def test_a_module_not_there_is_missing_as_before(package: Path) -> None:
    assert Finder.find_spec("finderprobe.nothing", [str(package)]) is None
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("finderprobe.nothing")


def test_an_extension_module_beside_the_source_is_left_to_the_path_finder(
        package: Path) -> None:
    (package / f"plain{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    Finder.invalidate_caches()
    assert Finder.find_spec("finderprobe.plain", [str(package)]) is None
    assert PathFinder.find_spec("finderprobe.plain", [str(package)]).origin.endswith(  # type: ignore[union-attr]
        EXTENSION_SUFFIXES[0])


def test_a_folder_without_init_is_left_to_the_path_finder(package: Path) -> None:
    (package / "loose").mkdir()
    (package / "loose" / "inner.py").write_text("X = 3\n")
    assert Finder.find_spec("finderprobe.loose", [str(package)]) is None
    assert importlib.import_module("finderprobe.loose.inner").X == 3
