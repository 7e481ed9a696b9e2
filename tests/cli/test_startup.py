"""What a command imports before it does anything (issue 19: start-up is what a player
waits for).  ``pbem --help`` imports no engine, dice, verifier, mail or cryptography;
``pbem status`` and ``pbem list`` read each save's signed summary with the signature
check (Ed25519) and no engine, dice, verifier, registry or key-file serialization."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest

import pbem
from pbem.cli import LazyGroup, main
from pbem.commands.turn import LIST_WHOLE
from pbem.selfplay import selfplay

#: modules that load with a game or a transport, never for help or a listing
HEAVY = ("pbem.engine", "pbem.dice", "pbem.transcript", "pbem.registry", "pbem.view",
         "pbem.transport.mail", "pbem.web", "pbem.audit",
         "pbem.render", "importlib.metadata", "email.message",
         "cryptography.hazmat.primitives.serialization")

_PROBE = """
import json, sys
from pbem.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    assert not exc.code, exc.code
print(json.dumps(sorted(sys.modules)))
"""


def imported(*argv: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True,
                         text=True, check=True)
    names: list[str] = json.loads(out.stdout.splitlines()[-1])
    return names


def heavy(names: list[str]) -> list[str]:
    return [n for n in names if any(n == h or n.startswith(h + ".") for h in HEAVY)]


def test_help_imports_no_engine_transport_or_cryptography() -> None:
    names = imported("--help")
    assert heavy(names) == []
    assert [n for n in names if n.startswith("cryptography")] == []
    assert "pbem.session" not in names and "pbem.identity" not in names


def test_help_builds_no_command(tmp_path: Path) -> None:
    """``pbem --help`` lists every command from LazyGroup's table: no command's module
    (its options, its imports) loads; ``pbem status --help`` loads status's alone."""
    assert [n for n in imported("--help") if n.startswith("pbem.commands.")] == []
    names = imported("status", "--help")
    assert [n for n in names if n.startswith("pbem.commands.")] == ["pbem.commands.listing"]


def test_status_and_list_read_summaries_without_the_engine(tmp_path: Path) -> None:
    result = selfplay("skirmish", "short", 1, tmp_path / "sp", max_actions=6)
    assert result.files >= 3
    home = str(tmp_path / "sp" / "home-a")
    for command in ("status", "list"):
        names = imported("--home", home, command)
        assert heavy(names) == [], command
        assert "pbem.session" in names  # it did read the home
        # the other commands' modules are not built (issue 19: the click tree was 11 M)
        assert [n for n in names if n.startswith("pbem.commands.")] == \
            ["pbem.commands.listing"], command
    # the game itself still loads its engine on demand, and only its own
    names = imported("--home", home, "legal", "selfplay-1")
    assert "pbem.engine" in names and "toy_engine" in names
    assert [n for n in names if n.startswith(("engines.white_death", "engines.motherland"))] \
        == []
    # an engine PBEM_ENGINES names is found without reading the installed packages
    assert "importlib.metadata" not in names
    # its data folder is found without importlib.resources (tempfile, zipfile, shutil)
    assert [n for n in names if n.startswith(("importlib.resources", "tempfile", "zipfile"))] \
        == []


@pytest.mark.parametrize("name", sorted(LazyGroup.lazy))
def test_lazy_commands_help_is_their_own(name: str) -> None:
    """``pbem --help`` shows the lazy commands' help from cli.py without loading them:
    that copy must say what the command's own docstring says."""
    command = main.get_command(click.Context(main), name)
    assert command is not None
    assert command.get_short_help_str(300) == LazyGroup.lazy_help[name]


def test_every_lazy_command_has_its_help() -> None:
    assert set(LazyGroup.lazy_help) == set(LazyGroup.lazy)


@pytest.mark.parametrize("module", ["session.py", "match.py", "gamefiles.py", "orders.py"])
def test_no_heavy_import_at_module_level(module: str) -> None:
    """session.py (with the match and the save's files it imports) and orders.py serve
    'pbem status' too: the engine, dice, verifier and registry are imported inside the
    functions that play a game (or for type checking)."""
    tree = ast.parse((Path(pbem.__file__).parent / module).read_text(encoding="utf-8"))
    found = []
    for node in tree.body:  # module level only; `if TYPE_CHECKING:` blocks are not run
        if isinstance(node, ast.ImportFrom) and node.module:
            targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        found += [t for t in targets if heavy([t])]
    assert found == []


def private_imports(root: Path) -> list[str]:
    """Each name with a leading underscore that a module of the package ``root`` takes
    from another of its modules: ``from pbem.cli import _x``, or ``core._x`` after
    ``from pbem import cli as core``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pbem"):
                found += [f"{path.relative_to(root)}: {node.module}.{a.name}"
                          for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
                aliases |= {a.asname or a.name for a in node.names}
            elif isinstance(node, ast.Import):
                aliases |= {a.asname for a in node.names
                            if a.asname and a.name.startswith("pbem")}
        found += [f"{path.relative_to(root)}: {node.value.id}.{node.attr}"
                  for node in ast.walk(tree)
                  if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                  and node.value.id in aliases and node.attr.startswith("_")
                  and not node.attr.startswith("__")]
    return found


def test_no_module_takes_another_modules_private_name() -> None:
    """The command modules share the command line's helpers (the option types, the
    events and sealed-file lines, writing a file out) by public names (issue 34 item 5):
    a leading underscore stays its own module's to change."""
    assert private_imports(Path(pbem.__file__).parent) == []



class _Enough(Exception):
    pass


def before_file(tmp_path: Path, engine: str, scenario: str, count: int, *,
                side: str, home: str) -> tuple[Path, str]:
    """A self-played game stopped as its ``count``-th file is written: that file and the
    home that has yet to receive it (``home`` when the file is ``side``'s, else the other
    one), copied as they stood under tmp_path/before."""
    import shutil

    play = tmp_path / "play"

    def on_file(n: int) -> None:
        if n == count:
            shutil.copytree(play, tmp_path / "before")
            raise _Enough

    with pytest.raises(_Enough):
        selfplay(engine, scenario, 1, play, on_file=on_file)
    incoming = sorted((tmp_path / "before" / "files").iterdir())[-1]
    other = {"home-a": "home-b", "home-b": "home-a"}[home]
    return incoming, str(tmp_path / "before" / (home if incoming.name.endswith(f"-{side}.pbem")
                                                else other))


def legal_json(home: str) -> dict[str, Any]:
    """What 'pbem legal selfplay-1 --json' prints in ``home``."""
    legal = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()",
                            "--home", home, "legal", "selfplay-1", "--json"],
                           capture_output=True, text=True, check=True)
    listing: dict[str, Any] = json.loads(legal.stdout)
    return listing


def test_receive_and_act_import_no_mail_board_or_rich(tmp_path: Path) -> None:
    """A .pbem file is told from mail by its first bytes without the mail stack, and act
    loads the board renderer (for a suggestion) only when an action is refused."""
    incoming, home = before_file(tmp_path, "skirmish", "long", 6, side="red", home="home-b")
    # nor cryptography's key-file serialization: an unencrypted key.pem is read directly;
    # nor its public key classes, hashes and the rest (pbem.identity asks the binding)
    unwanted = ("pbem.transport.mail", "email", "pbem.play", "pbem.render", "rich",
                "pbem.audit", "cryptography.hazmat.primitives")

    def loaded(names: list[str]) -> list[str]:
        return [n for n in names if any(n == u or n.startswith(u + ".") for u in unwanted)]

    assert loaded(imported("--home", home, "receive", str(incoming))) == []
    action = legal_json(home)["actions"][0]
    acted = imported("--home", home, "act", "selfplay-1", action)
    assert loaded(acted) == []
    # nor the other turn commands' module, with their click commands (1.5 M instructions)
    assert "pbem.commands.act" in acted and "pbem.commands.turn" not in acted


def test_start_up_objects_are_left_out_of_garbage_collection() -> None:
    """What importing the command line made lives until the process ends: the cyclic
    collector skips it (gc.freeze, issue 19), and still collects what comes after."""
    code = ("import gc, sys; from pbem.cli import main; frozen = gc.get_freeze_count(); "
            "import weakref\n"
            "class Cycle: pass\n"
            "a = Cycle(); a.me = a; gone = weakref.ref(a); del a; gc.collect()\n"
            "print(frozen > 1000, gone() is None)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["True", "True"]


def undocumented_dataclasses(*roots: Path) -> list[str]:
    """Each class under ``roots`` made by ``@dataclass`` without a docstring of its own."""
    found = []
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.ClassDef):
                    continue
                decorators = [d.func if isinstance(d, ast.Call) else d
                              for d in node.decorator_list]
                if any((d.id if isinstance(d, ast.Name) else getattr(d, "attr", ""))
                       == "dataclass" for d in decorators) and ast.get_docstring(node) is None:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name}")
    return found


def test_every_dataclass_has_its_own_docstring() -> None:
    """A dataclass without a docstring gets one made from ``inspect.signature`` of its
    ``__init__`` each time its module loads: 0.2-0.4 M instructions a class, and the turn
    commands make 60-100 (For the Motherland!'s step arguments alone 21: its 'legal'
    470.6 -> 466.0 M once they had theirs, issue 35)."""
    import engines

    assert undocumented_dataclasses(Path(pbem.__file__).parent,
                                    Path(engines.__file__).parent) == []


_COLLECTOR_PROBE = """
import gc, json, sys
from pbem.cli import main
import pbem.session as session
gc.set_threshold(100)  # a collection every hundred containers, were the collector on
seen = []
real = session.Game.load.__func__
def load(cls, *args, **kwargs):
    seen.append((gc.isenabled(), gc.get_freeze_count()))
    return real(cls, *args, **kwargs)
session.Game.load = classmethod(load)
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit as exc:
    assert not exc.code, exc.code
young = len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1))
print(json.dumps([seen, gc.isenabled(), gc.get_freeze_count(), young]))
"""


def test_turn_commands_run_without_the_garbage_collector(tmp_path: Path) -> None:
    """receive, legal and act load the game with the cyclic collector off (what they
    make lives until the process ends: 8-9 collections found at most 40 unreachable
    objects, 5-7 M instructions, issue 35), and give it back after, for a process that
    runs several commands: what they made is in the oldest generation, not frozen (it
    can still be collected) nor left in the young ones (the next collection would walk
    it all)."""
    incoming, home = before_file(tmp_path, "skirmish", "long", 6, side="red", home="home-b")

    def probe(*argv: str) -> None:
        out = subprocess.run([sys.executable, "-c", _COLLECTOR_PROBE, "--home", home,
                              *argv], capture_output=True, text=True, check=True)
        seen, enabled, frozen, young = json.loads(out.stdout.splitlines()[-1])
        assert [on for on, _ in seen] == [False], argv  # the game loaded, collector off
        assert enabled, argv  # and on again once the command returned
        assert frozen == 0 and young < 2_000, argv

    probe("receive", str(incoming))
    action = legal_json(home)["actions"][0]
    probe("legal", "selfplay-1")
    probe("act", "selfplay-1", action)


_IMPORT_PROBE = """
import gc, json, sys
before = gc.get_threshold()
loading = []  # for each collection: the modules whose import was under way
def seen(phase, info):
    frame = sys._getframe(1)
    if phase == "start":
        names = []
        while frame is not None:
            if frame.f_code.co_name == "<module>":
                names.append(frame.f_globals.get("__name__"))
            frame = frame.f_back
        loading.append(names)
gc.callbacks.append(seen)
import pbem
print(json.dumps([loading, gc.get_threshold() == before]))
"""


def test_importing_pbem_runs_no_collection_and_keeps_the_threshold() -> None:
    """Importing the package (dataclasses, inspect, typing: modules and classes kept until
    the process ends) passed eight collections that found nothing in every command
    (3.4 M instructions, issue 35); the process's own threshold is as it was after.  (A
    collection while Python compiles pbem/__init__.py, its bytecode not yet kept, is
    Python's own.)"""
    out = subprocess.run([sys.executable, "-c", _IMPORT_PROBE], capture_output=True,
                         text=True, check=True)
    loading, kept = json.loads(out.stdout)
    assert [names for names in loading
            if {"dataclasses", "inspect", "typing", "ast"} & set(names)] == []
    assert kept


#: what no turn command of a real engine's game imports: the board renderer and rich's
#: tables (drawn by 'show', not by a listing), the browser board, mail, the audit,
#: setup and selfplay, test-only libraries, and the package-metadata and resources
#: machinery (issue 35 item 3: these commands within 1.5x 'pbem --help')
TURN_UNWANTED = ("pbem.render", "rich", "pbem.web", "pbem.transport", "email", "pbem.audit",
                 "pbem.play", "pbem.setup", "pbem.selfplay", "pbem.golden", "hypothesis",
                 "pytest", "importlib.metadata", "importlib.resources", "tempfile",
                 "zipfile", "tomllib", "rtoml", "http", "socket", "ssl", "asyncio",
                 "cryptography.hazmat.primitives.serialization",
                 # a text file's codec looked up (gamefiles: the version read as bytes)
                 "encodings.ascii")


def test_real_engine_turn_commands_import_nothing_they_do_not_use(tmp_path: Path) -> None:
    """White Death's receive, legal and act (its data cache warm, as a player's home is
    after the first command) load the engine and the kit, and nothing on the list above:
    a regression fails here by the module's name, not by a timing."""
    # the creator (home-a) plays the first side, the Soviet: it receives the German's file
    incoming, home = before_file(tmp_path, "white-death", "purkayev", 3, side="german",
                                 home="home-a")
    imported("--home", home, "legal", "selfplay-1")  # the data cache filled, as after a
    # first command

    def loaded(names: list[str]) -> list[str]:
        return [n for n in names
                if any(n == u or n.startswith(u + ".") for u in TURN_UNWANTED)]

    names = imported("--home", home, "receive", str(incoming))
    assert "engines.white_death" in names  # it did replay the file with the engine
    assert loaded(names) == []
    assert loaded(imported("--home", home, "legal", "selfplay-1")) == []
    listing = legal_json(home)
    assert listing["your_move"], listing["prompt"]
    action = listing["default"] or listing["actions"][0]
    assert loaded(imported("--home", home, "act", "selfplay-1", action)) == []


#: every engine's scenario that issue 35 item 3 measures (bench/bench_ir.py --engine)
TURN_GAMES = [("white-death", "purkayev"), ("for-the-motherland", "4-uranus"),
              ("48th-panzer-korps", "chir"), ("mortain", "counterattack"),
              ("backhand-blow", "high-water-mark")]
#: the modules whose regular expressions re compiles when first used: none of them is
#: compiled at import by a turn command, which never uses them (issue 35: 0.65 M
#: instructions a pattern)
LAZY_PATTERNS = ("pbem.cli", "pbem.dice", "pbem.portable", "pbem.session", "pbem.armor",
                 "engines.hexkit.hexid", "engines.hexkit.scenario", "engines.hexkit.tables")

_PATTERNS_PROBE = """
import re, sys
compiled = []
real = re.compile
def compile(pattern, flags=0):
    caller = sys._getframe(1)
    if caller.f_code.co_name == "<module>":
        compiled.append(caller.f_globals.get("__name__"))
    return real(pattern, flags)
re.compile = compile
from pbem.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    assert not exc.code, exc.code
names = sorted(sys.modules)  # before the probe's own json
import json
print(json.dumps([names, compiled]))
"""


def _installed_engines() -> dict[str, str]:
    """The environment with the installed engines alone, as a player's (the test suite's
    PBEM_ENGINES adds the toy engine, which the registry would load first)."""
    import os

    return {k: v for k, v in os.environ.items() if k != "PBEM_ENGINES"}


def _turn_probe(*argv: str) -> tuple[list[str], list[str]]:
    """The modules a command imported, and the modules that compiled a pattern at import."""
    out = subprocess.run([sys.executable, "-c", _PATTERNS_PROBE, *argv],
                         capture_output=True, text=True, check=True,
                         env=_installed_engines())
    names, compiled = json.loads(out.stdout.splitlines()[-1])
    return names, compiled


def test_help_and_version_compile_no_pattern_of_pbems() -> None:
    """``pbem --help`` and ``--version`` compile none of pbem's regular expressions at
    import: pbem.cli's (a refused file's name, read only when telling its sender to send
    it again) was 0.47 M instructions of every command (issue 35)."""
    for argv in (["--help"], ["--version"]):
        _, compiled = _turn_probe(*argv)
        assert [n for n in compiled if n == "pbem" or n.startswith("pbem.")] == [], argv


@pytest.mark.parametrize(("engine_id", "scenario"), TURN_GAMES)
def test_every_engines_turn_commands_skip_what_they_do_not_use(
        tmp_path: Path, engine_id: str, scenario: str) -> None:
    """Each engine's receive, legal and act (issue 35 item 3) import nothing on
    TURN_UNWANTED nor hashlib (OpenSSL: 11.6 M instructions; pbem.sha hashes with
    CPython's own SHA-256), and compile no pattern they never use; Mortain's act and
    receive, whose units' names need no board, do not load the board's picture."""
    import shutil

    play = tmp_path / "play"

    def on_file(count: int) -> None:
        if count == 3:
            shutil.copytree(play, tmp_path / "before")
            raise _Enough

    with pytest.raises(_Enough):
        selfplay(engine_id, scenario, 1, play, on_file=on_file)
    incoming = sorted((tmp_path / "before" / "files").iterdir())[-1]
    # the home that has not imported the latest file yet (tried in a scratch copy)
    for label in ("a", "b"):
        scratch = tmp_path / f"scratch-{label}"
        shutil.copytree(tmp_path / "before" / f"home-{label}", scratch)
        tried = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()",
                                "--home", str(scratch), "receive", str(incoming)],
                               capture_output=True, text=True, env=_installed_engines())
        if tried.returncode == 0 and " from the " in tried.stdout:
            home = str(tmp_path / "before" / f"home-{label}")
            break
    else:
        raise AssertionError(f"no home imports {incoming.name}")
    unwanted = (*TURN_UNWANTED, "hashlib")
    _turn_probe("--home", home, "legal", "selfplay-1")  # the data cache filled, as after
    # a first command

    def check(command: str, *argv: str) -> list[str]:
        names, compiled = _turn_probe("--home", home, command, *argv)
        assert [n for n in names
                if any(n == u or n.startswith(u + ".") for u in unwanted)] == [], command
        assert sorted(set(compiled) & set(LAZY_PATTERNS)) == [], command
        return names

    names = check("receive", str(incoming))
    assert any(n.startswith("engines.") and n != "engines.hexkit" for n in names)
    assert "base64" not in names  # a binary file: the armor's base64 is not needed
    if engine_id == "mortain":
        assert "pbem.view" not in names and "engines.hexkit.board" not in names
    # the card is kept in the data cache: no JSON read, no json module (5.3 M); textwrap
    # (4.1 M) only for a listing that folds a run of hexes (pbem.choices.folded)
    names = check("legal", "selfplay-1")
    assert "json" not in names and "textwrap" not in names
    listed = names
    legal = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()",
                            "--home", home, "legal", "selfplay-1", "--json"],
                           capture_output=True, text=True, check=True,
                           env=_installed_engines())
    listing = json.loads(legal.stdout)
    assert listing["your_move"], listing["prompt"]
    # a list short enough to print whole is printed as it is: the grouping by unit is
    # not loaded (issue 35: pbem.choices, 1.6 M instructions)
    assert ("pbem.choices" in listed) == (len(listing["actions"]) > LIST_WHOLE)
    names = check("act", "selfplay-1", listing["default"] or listing["actions"][0])
    assert "json" not in names
    if engine_id == "mortain":
        assert "pbem.view" not in names and "engines.hexkit.board" not in names


@pytest.mark.parametrize("columns", [None, "123", "0", "wide", " 90"])
@pytest.mark.parametrize("term", [None, "xterm-256color", "dumb"])
def test_console_width_is_riches_without_rich(monkeypatch: pytest.MonkeyPatch,
                                              columns: str | None, term: str | None) -> None:
    """'pbem legal' folds a long list to the width rich's Console would measure, measured
    without importing rich (issue 35: 77.7 M instructions): the same number whatever
    COLUMNS and TERM say."""
    from rich.console import Console

    from pbem.cli import console, console_width

    console.reset()  # type: ignore[attr-defined]  # the command line's own console, measured anew

    for name, value in (("COLUMNS", columns), ("TERM", term)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert console_width() == Console(highlight=False, soft_wrap=True).width
