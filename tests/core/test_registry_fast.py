"""registry.get finds an installed engine's entry point without importlib.metadata
(issue 19: importing it was ~30 ms of every command that loads a game), and agrees with
the full lookup."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbem import registry
from pbem.errors import MismatchError


def _dist(root: Path, folder: str, text: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "entry_points.txt").write_text(text)


def test_listed_reads_entry_points_txt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    _dist(first, "games-1.0.dist-info",
          "[console_scripts]\nwhite-death = not:this\n\n# a comment\n[pbem.engines]\n"
          "  white-death =  first.module:ENGINE \n; another comment\nother = x:Y\n")
    _dist(first, "more_games.egg-info", "[pbem.engines]\nwhite-death = egg.module:ENGINE\n")
    # the same distribution again further down the path: shadowed, as importlib.metadata does
    _dist(second, "Games-2.0.dist-info", "[pbem.engines]\nwhite-death = shadowed:ENGINE\n")
    (second / "not-a-dist.dist-info").mkdir()  # no entry_points.txt
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing"), str(first), str(second)])
    assert list(registry._listed("white-death")) == ["first.module:ENGINE", "egg.module:ENGINE"]
    assert list(registry._listed("other")) == ["x:Y"]
    assert list(registry._listed("nobody")) == []


def test_installed_engines_agree_with_importlib_metadata() -> None:
    from importlib.metadata import entry_points

    for ep in entry_points(group=registry.GROUP):
        assert list(registry._listed(ep.name))[:1] == [ep.value]
        assert type(registry.get(ep.name)) is type(registry._load(ep.value, "test"))


def test_loading_a_game_engine_skips_importlib_metadata() -> None:
    probe = ("import sys\nfrom pbem.registry import get\nengine = get('mortain')\n"
             "print(engine.id, 'importlib.metadata' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env={"PATH": ""})
    assert out.stdout.split() == ["mortain", "False"]


def test_an_unloadable_entry_is_refused_as_the_full_lookup_refuses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.errors import UsageError

    _dist(tmp_path, "broken-1.dist-info", "[pbem.engines]\nmortain = no_such_module:ENGINE\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    assert next(registry._listed("mortain")) == "no_such_module:ENGINE"
    with pytest.raises(UsageError) as quick:
        registry.get("mortain")
    monkeypatch.setattr(registry, "_listed", lambda engine_id: iter(()))
    with pytest.raises(UsageError) as full:
        registry.get("mortain")
    assert str(quick.value) == str(full.value)
    assert "cannot load engine 'no_such_module:ENGINE'" in str(full.value)


def test_the_lookup_stops_at_the_first_distribution_that_names_the_engine(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The distributions after the one whose engine loads are not opened (issue 35: every
    command that loads a game read all 36 of a development venv's), and an engine only a
    distribution further down the path names is still found."""
    import builtins

    first, last = tmp_path / "first", tmp_path / "last"
    _dist(first, "a_games-1.dist-info", "[pbem.engines]\nskirmish = toy_engine:ENGINE\n")
    _dist(first, "b_games-1.dist-info", "[pbem.engines]\nskirmish = shadowed:ENGINE\n")
    _dist(last, "late_games-1.dist-info", "[pbem.engines]\nskirmish = late:ENGINE\n")
    monkeypatch.setattr(sys, "path", [str(first), *sys.path, str(last)])
    monkeypatch.setenv("PBEM_ENGINES", "")
    opened: list[str] = []
    real_open = builtins.open

    def recording(file: str, *args: object, **kwargs: object) -> object:
        opened.append(str(file))
        return real_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(builtins, "open", recording)
    assert registry.get("skirmish").id == "skirmish"
    monkeypatch.setattr(builtins, "open", real_open)
    read = [name for name in opened if name.endswith("entry_points.txt")]
    assert read == [str(first / "a_games-1.dist-info" / "entry_points.txt")]
    # the late distribution is the only one that names it: still found, the same engine
    monkeypatch.setattr(sys, "path", [*sys.path[1:-1], str(last)])
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "late.py").write_text("from toy_engine import ENGINE\n")
    monkeypatch.syspath_prepend(str(tmp_path / "mods"))
    assert "late:ENGINE" in list(registry._listed("skirmish"))
    assert type(registry.get("skirmish")).__name__ == "SkirmishEngine"
    with pytest.raises(MismatchError, match="no engine 'nobody' is installed"):
        registry.get("nobody")


@pytest.mark.parametrize("name", ["pbem", "Foo.Bar-Baz", "x_-_y", "A--b..c_d", "__a", "z."])
def test_a_distribution_name_is_normalized_as_pep_503_says(name: str) -> None:
    """Each run of '-', '_' and '.' is one '_', in lower case: the rule
    importlib.metadata applies, written without a pattern compiled per command."""
    import re

    from pbem.registry import _normalized

    assert _normalized(name) == re.sub(r"[-_.]+", "_", name).lower()
