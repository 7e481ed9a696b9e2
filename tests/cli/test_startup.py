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

import click
import pytest

import pbem
from pbem.cli import LazyGroup, main
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


def test_receive_and_act_import_no_mail_board_or_rich(tmp_path: Path) -> None:
    """A .pbem file is told from mail by its first bytes without the mail stack, and act
    loads the board renderer (for a suggestion) only when an action is refused."""
    import shutil

    play = tmp_path / "play"

    def on_file(count: int) -> None:
        if count == 6:
            shutil.copytree(play, tmp_path / "before")
            raise _Enough

    with pytest.raises(_Enough):
        selfplay("skirmish", "long", 1, play, on_file=on_file)
    incoming = sorted((tmp_path / "before" / "files").iterdir())[-1]
    home = str(tmp_path / "before" / ("home-b" if incoming.name.endswith("-red.pbem")
                                      else "home-a"))
    # nor cryptography's key-file serialization: an unencrypted key.pem is read directly
    unwanted = ("pbem.transport.mail", "email", "pbem.play", "pbem.render", "rich",
                "pbem.audit", "cryptography.hazmat.primitives.serialization")

    def loaded(names: list[str]) -> list[str]:
        return [n for n in names if any(n == u or n.startswith(u + ".") for u in unwanted)]

    assert loaded(imported("--home", home, "receive", str(incoming))) == []
    legal = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()",
                            "--home", home, "legal", "selfplay-1", "--json"],
                           capture_output=True, text=True, check=True)
    action = json.loads(legal.stdout)["actions"][0]
    assert loaded(imported("--home", home, "act", "selfplay-1", action)) == []


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


#: what no turn command of a real engine's game imports: the board renderer and rich's
#: tables (drawn by 'show', not by a listing), the browser board, mail, the audit,
#: setup and selfplay, test-only libraries, and the package-metadata and resources
#: machinery (issue 35 item 3: these commands within 1.5x 'pbem --help')
TURN_UNWANTED = ("pbem.render", "rich", "pbem.web", "pbem.transport", "email", "pbem.audit",
                 "pbem.play", "pbem.setup", "pbem.selfplay", "pbem.golden", "hypothesis",
                 "pytest", "importlib.metadata", "importlib.resources", "tempfile",
                 "zipfile", "tomllib", "http", "socket", "ssl", "asyncio",
                 "cryptography.hazmat.primitives.serialization")


def test_real_engine_turn_commands_import_nothing_they_do_not_use(tmp_path: Path) -> None:
    """White Death's receive, legal and act (its data cache warm, as a player's home is
    after the first command) load the engine and the kit, and nothing on the list above:
    a regression fails here by the module's name, not by a timing."""
    import shutil

    play = tmp_path / "play"

    def on_file(count: int) -> None:
        if count == 3:
            shutil.copytree(play, tmp_path / "before")
            raise _Enough

    with pytest.raises(_Enough):
        selfplay("white-death", "purkayev", 1, play, on_file=on_file)
    incoming = sorted((tmp_path / "before" / "files").iterdir())[-1]
    # the creator (home-a) plays the first side, the Soviet: it receives the German's file
    home = str(tmp_path / "before" / ("home-a" if incoming.name.endswith("-german.pbem")
                                      else "home-b"))
    imported("--home", home, "legal", "selfplay-1")  # the data cache filled, as after a
    # first command

    def loaded(names: list[str]) -> list[str]:
        return [n for n in names
                if any(n == u or n.startswith(u + ".") for u in TURN_UNWANTED)]

    names = imported("--home", home, "receive", str(incoming))
    assert "engines.white_death" in names  # it did replay the file with the engine
    assert loaded(names) == []
    assert loaded(imported("--home", home, "legal", "selfplay-1")) == []
    legal = subprocess.run([sys.executable, "-c", "from pbem.cli import main; main()",
                            "--home", home, "legal", "selfplay-1", "--json"],
                           capture_output=True, text=True, check=True)
    listing = json.loads(legal.stdout)
    assert listing["your_move"], listing["prompt"]
    action = listing["default"] or listing["actions"][0]
    assert loaded(imported("--home", home, "act", "selfplay-1", action)) == []
