"""The ``pbem`` command: thin click commands over the library, rich output.

Every failure is a :class:`~pbem.errors.PbemError` shown as one line that names the file
or game and the cause, with the error class's exit code (a duplicate file is not an
error: exit 0).  ``--json`` output is for scripts and is stable.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, TypeVar, cast

#: new container objects between two collections of the youngest generation (_settle)
GC_YOUNG = 20_000
gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])

import click  # noqa: E402

if TYPE_CHECKING:
    from rich.console import Console

from pbem import __version__  # noqa: E402
from pbem.errors import (  # noqa: E402
    DuplicateFile,
    FormatError,
    KeyStoreError,
    MismatchError,
    PbemError,
    SignatureError,
    UsageError,
)
from pbem.text import bound, safe  # noqa: E402

#: pbem.session.DEFAULT_CHAIN, kept here so that ``--help`` does not import the session
DEFAULT_CHAIN = 4096


class _LazyConsole:
    """A rich Console made on first use: most commands print plain text, and importing
    rich costs more than the rest of ``pbem status``."""

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def reset(self) -> None:
        """Forget the console: the next use measures the terminal again.  A process
        that runs several commands (the test runner, an embedding program) gets each
        command's own width and colour settings, not the first one's."""
        self._console = None

    def get(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr, highlight=False, soft_wrap=True)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)


console = cast("Console", _LazyConsole(stderr=False))
errors = cast("Console", _LazyConsole(stderr=True))


def rich_console(stderr: bool = False) -> Console:
    """The real Console, for rich objects that insist on one (progress bars, replays)."""
    proxy = cast(_LazyConsole, errors if stderr else console)
    return proxy.get()


def echo_err(text: str) -> None:
    from pbem.text import safe

    click.echo(safe(text, newlines=True), err=True)


@contextlib.contextmanager
def progress_bar(what: str) -> Iterator[Callable[[int, int], None]]:
    """A rich progress bar on stderr for long work; silent when stderr is not a terminal."""
    if not sys.stderr.isatty():
        yield lambda done, total: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress(f"[bold]{what}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=rich_console(stderr=True), transient=True) as bar:
        task = bar.add_task(what, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total or None)

        yield update


def echo(text: str = "") -> None:
    """Plain text to stdout: most commands print only this, and need no rich import.

    Much of it quotes files (names, places, actions, messages): no control or bidi
    character reaches the terminal as itself (issue 20 item 9)."""
    from pbem.text import safe

    click.echo(safe(text, newlines=True))


def echo_all(lines: list[str]) -> None:
    """Lines as :func:`echo` prints each, written at once (a 50-game status was 250 writes,
    each asking click about the terminal again)."""
    from pbem.text import safe

    if lines:
        click.echo("\n".join(safe(text, newlines=True) for text in lines))


#: ``pbem --help`` lists these; docs/guide.md repeats them (errors.py owns the numbers)
EXIT_CODES = """\
Exit status: 0 done (also: a file that was already imported); 1 any other failure;
2 a wrong command, option, name or number (an unknown game or roll); 3 a file that is
damaged or not a pbem file; 4 a signature that does not verify or a key that is not the
one pinned; 5 a file that does not fit the game (missing earlier file, fork, replay);
6 another engine, rules version or scenario data; 7 dice that do not re-derive; 8 a
replay that ends in another state than the one signed; 9 an action the rules refuse or
cannot read; 10 not your decision now; 11 no identity, or a wrong passphrase; 12 bad
scenario data; 13 another pbem command changed the game meanwhile; 14 an import
(receive, inbox, fetch) that took in what was good and refused the rest."""

# a pattern's text: re compiles it when a refusal first needs it (and keeps it), not at
# every command's import (issue 35: 0.47 M instructions of each, --help's included)
_FILE_NAME = r"([0-9a-f]{12})-(\d{4})-"


def verbose() -> bool:
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root() if ctx is not None else None
    return bool(root is not None and isinstance(root.obj, dict) and root.obj.get("verbose"))


def _ask_again(path: str | None) -> str:
    """The command the sender runs to send a file again, with its number when the file
    name gives it (pbem names files GAMEID-SEQ-SIDE.pbem)."""
    match = re.match(_FILE_NAME, Path(path).name) if path else None
    seq = str(int(match.group(2))) if match else "N"
    return f"ask for it again: the sender runs 'pbem send GAME --seq {seq}'"


#: causes of a refused file that already say what to do (pbem.readfile's, issue 20)
PLAIN_CAUSES = ("is not a regular file", "file of ")


def plain_refusal(source: str | None, code: int, cause: str) -> str | None:
    """A file refused as unreadable (exit 3) or changed since signed (4), in the words a
    player needs: what it means and what to do; the exact cause only with --verbose."""
    head = f"{source}: " if source else ""
    if cause.startswith(PLAIN_CAUSES):
        return None  # about the path, not the bytes: already what the player needs
    if code == FormatError.exit_code:
        text = f"{head}the file is damaged or not a pbem file; {_ask_again(source)}"
    elif code == SignatureError.exit_code and "does not verify" in cause:
        text = (f"{head}its signature does not verify: the file was changed after it was "
                f"signed (damaged on the way, or tampered with); {_ask_again(source)}")
    else:
        return None
    return f"{text} [cause: {safe(bound(cause, 2000))}]" if verbose() else text


def player_words(exc: PbemError) -> str:
    """An error as a player should read it (see :func:`plain_refusal`); the parser's exact
    words stay in --verbose and in every --json output."""
    if getattr(exc, "worded", False):
        return str(exc)  # already in a player's words, by the command that knows best
    path = getattr(exc, "path", None)
    cause = str(exc)
    if path and cause.startswith(f"{path}: "):
        cause = cause[len(path) + 2:]
    return plain_refusal(path, exc.exit_code, cause) or str(exc)


def _fail(exc: PbemError) -> NoReturn:
    if isinstance(exc, DuplicateFile):
        echo_err(f"pbem: note: {exc}")
        sys.exit(0)
    echo_err(f"pbem: error: {player_words(exc)}")
    sys.exit(exc.exit_code)


#: what Ctrl-C outside 'play' says instead of click's bare "Aborted!": what was kept
INTERRUPTED = ("pbem: interrupted: what finished before Ctrl-C is kept, whole (every save "
               "and file is written whole or not at all), and nothing after it; 'pbem "
               "status' shows where each game stands")


@contextlib.contextmanager
def handled() -> Iterator[None]:
    try:
        yield
    except PbemError as exc:
        _fail(exc)
    except (KeyboardInterrupt, click.exceptions.Abort):
        echo_err("")
        echo_err(INTERRUPTED)
        sys.exit(130)


#: why a command that only receives still needs the key, said before the first question
WHY_PASSPHRASE = ("your key is protected by a passphrase; pbem needs it to sign what it "
                  "writes: your turn files, and your copy of each game (a receive saves it)")
PASSPHRASE_TRIES = 3


def _passphrase_prompt(home_path: Callable[[], Path]) -> Callable[[], bytes | None]:
    """Asked at most once per command (the Home keeps the key); at a terminal a wrong
    passphrase may be typed again, up to three tries in all."""
    def ask() -> bytes | None:
        env = os.environ.get("PBEM_PASSPHRASE")
        if env is not None:
            return env.encode()
        if not sys.stdin.isatty():
            raise KeyStoreError(f"{WHY_PASSPHRASE}: set PBEM_PASSPHRASE or run in a terminal")
        from pbem.identity import KeyStore

        echo_err(WHY_PASSPHRASE)
        for attempt in range(1, PASSPHRASE_TRIES + 1):
            secret = str(click.prompt("Passphrase for your pbem key", hide_input=True,
                                      err=True)).encode()
            try:
                KeyStore(home_path()).load(secret)
            except KeyStoreError as exc:
                if "wrong passphrase" not in str(exc) or attempt == PASSPHRASE_TRIES:
                    raise
                echo_err(f"wrong passphrase; try again ({PASSPHRASE_TRIES - attempt} left)")
                continue
            return secret
        return None  # not reached: the last try raises
    return ask


def unlock(home: Any) -> None:
    """Ask for the passphrase now, before any other question, when the command will sign."""
    if home.keys.exists() and home.keys.is_encrypted():
        home.identity()


def console_width() -> int:
    """The width rich's Console measures for output (its ``size``), without importing
    rich: 77.7 M instructions, a sixth of a 'pbem legal' whose list is folded to the
    screen (issue 35).  COLUMNS when it is a number, else the first of stdin, stdout and
    stderr that is a terminal, else 80; where rich measures otherwise (Windows' consoles,
    a dumb terminal, a notebook) rich itself is asked."""
    import builtins

    if os.name == "nt" or hasattr(builtins, "get_ipython") \
            or os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
        return int(console.width)
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns)
    for stream, default in ((sys.__stdin__, 0), (sys.__stdout__, 1), (sys.__stderr__, 2)):
        try:
            fd = stream.fileno()  # type: ignore[union-attr]
        except Exception:  # as rich takes each stream's descriptor
            fd = default
        try:
            width = os.get_terminal_size(fd).columns
        except (AttributeError, ValueError, OSError):  # not a terminal
            continue
        return width or 80
    return 80


def terminal_columns(fallback: int = 80) -> int:
    """``shutil.get_terminal_size((fallback, 24)).columns`` in its own steps: COLUMNS, else
    the terminal of stdout, else the fallback (importing shutil, with its compression
    modules, was a twentieth of 'pbem list', issue 19)."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        stdout = sys.__stdout__
        try:
            columns = (os.get_terminal_size(stdout.fileno()).columns if stdout else 0) \
                or fallback
        except (AttributeError, ValueError, OSError):
            columns = fallback
    return columns


def home_of(ctx: click.Context) -> Any:
    from pbem.identity import home_dir
    from pbem.session import Home

    obj = ctx.ensure_object(dict)
    if "home" not in obj:
        from pbem import datacache

        path = obj.get("home_path") or home_dir()
        obj["home"] = Home(Path(path), passphrase=_passphrase_prompt(lambda: Path(path)))
        # the engines' parsed data, kept between commands (checked before use: data only)
        datacache.configure(Path(path) / "cache")
    return obj["home"]


def data_cache_of(ctx: click.Context) -> None:
    """Keep the engines' parsed data in the home's cache for a command that needs no home
    (``audit``): an existing home only, since a referee's machine may have none and an
    audit must not make one.  The cache holds public data derived from the scenario files,
    no secret, so no passphrase is asked (issue 35 item 2: an audit rebuilt the maps each
    time, 2.2 of 8.6 s for a 48th Panzer Korps game)."""
    from pbem import datacache
    from pbem.identity import home_dir

    home = Path(ctx.ensure_object(dict).get("home_path") or home_dir())
    if home.is_dir():
        datacache.configure(home / "cache")


def write_out(path: Path, data: bytes, armored: bool) -> None:
    from pbem.armor import armor
    from pbem.atomic import write_atomic

    payload = armor(data).encode() if armored else data
    write_atomic(path, payload, 0o644)


#: ``--hold`` on every command that may seal a file: the game's route does not take it
hold_option = click.option(
    "--hold", is_flag=True,
    help="Keep a file this command seals here (the game's route does not send it; "
         "'pbem send GAME' does, later).")


def note_written(game: Any, seq: int, path: Path) -> None:
    """Remember that file ``seq`` left as a file (status says where, issue 23 item 3)."""
    from pbem.transport.state import record_sent

    record_sent(game.home.path, game.game_id, seq, "written to", str(path.resolve()),
                now=game.home.clock())


def print_events(events: list[Any], rolls: list[Any], side: str | None,
                 counters: Mapping[str, str] | Callable[[], Mapping[str, str]] | None = None
                 ) -> None:
    """What an act or an import tells ``side`` (:func:`event_lines`), written at once:
    click.echo asks about the terminal at each call, 32 K instructions a line (29 lines
    of a Backhand Blow receive: 0.9 M, issue 35)."""
    echo_all(event_lines(events, rolls, side, counters))


def event_lines(events: list[Any], rolls: list[Any], side: str | None,
                counters: Mapping[str, str] | Callable[[], Mapping[str, str]] | None = None
                ) -> list[str]:
    """What an act or an import tells ``side``, a line each, its units named as
    ``counters`` read (or as the counters a callable makes, asked only when a line names
    a unit: an engine's counters read every unit on the map, and most of what an act
    tells, a phase ending, units entering, a roll, names none: issue 35, 1.5 M
    instructions)."""
    from pbem.naming import told

    if callable(counters):
        # pbem.naming.named looks up an event's ``units`` (every counter for None)
        counters = counters() if any(e.units is None or e.units for e in events
                                     if e.visible(side)) else {}
    # not ``counters or {}``: asking a mapping's truth asks its length, and an engine's
    # counters may be worked out unit by unit as they are asked (White Death's)
    return [f"  {line}" for _, line in told(events, rolls, side,
                                             {} if counters is None else counters)]


def sealed_note(game: Any, seq: int) -> None:
    """What a sealed file waits for, and what became of it: sent by the game's route,
    held back, or the command that sends it (issue 32 items 1 and 3)."""
    from pbem.session import sealed_lines

    echo_all([f"sealed file {seq} of {game.name}: {game.awaiting()}",
              *(f"  {line}" for line in sealed_lines(game, seq))])


# --- shell completion (click's shell_complete; README: "Shell completion") ----------------------


def _completion_home(ctx: click.Context) -> Path:
    from pbem.identity import home_dir

    root = ctx.find_root()
    given = root.params.get("home_path") if root.params else None
    return Path(given) if given else Path(home_dir())


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Game names in the home (from the save files' names: nothing is decrypted)."""
    from pbem.session import SAVE_SUFFIX, saves_in

    names = [p.name[:-len(SAVE_SUFFIX)] for p in saves_in(_completion_home(ctx) / "games")]
    return [n for n in names if n.startswith(incomplete)]


def complete_engine(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    from pbem.registry import engines

    return [e for e in sorted(engines()) if e.startswith(incomplete)]


def complete_scenario(ctx: click.Context, param: click.Parameter,
                      incomplete: str) -> list[str]:
    """The scenarios of the engine named before (or of every engine)."""
    from pbem.registry import engines

    found = engines()
    chosen = ctx.params.get("engine_id")
    pool = [found[chosen]] if chosen in found else list(found.values())
    return sorted({s.id for e in pool for s in e.scenarios() if s.id.startswith(incomplete)})


def complete_action(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The legal actions of the game named before, when it is your decision."""
    name = ctx.params.get("game_ref")
    if not name:
        return []
    try:
        from pbem.session import Home

        game = Home(_completion_home(ctx)).game(str(name))
        if game.my_decision() is None:
            return []
        return [a.notation() for a in game.state.legal_actions()
                if a.notation().startswith(incomplete)]
    except PbemError:
        return []


class LazyGroup(click.Group):
    """Every command loads only when used: its module (pbem/commands/*, the transports',
    the board's) is imported when that command runs, is asked for its own help, or is
    completed in a shell; ``pbem --help`` lists them all from :attr:`lazy_help`."""

    #: every command, by the module that makes it: a command's module (its options, its
    #: imports) loads only when that command runs or is asked for its help; ``pbem
    #: status`` built all forty commands' options at every start (issue 19)
    lazy: ClassVar[dict[str, str]] = {
        "act": "pbem.commands.act:act_cmd",
        "audit": "pbem.commands.archive:audit_cmd",
        "board": "pbem.web.cli:board_cmd",
        "demo": "pbem.commands.replaying:demo_cmd",
        "draw": "pbem.commands.send:draw_cmd",
        "engines": "pbem.commands.engines:engines_cmd",
        "fetch": "pbem.transport.cli:fetch_cmd",
        "id": "pbem.commands.ident:id_group",
        "inbox": "pbem.transport.cli:inbox_cmd",
        "join": "pbem.commands.start:join_cmd",
        "legal": "pbem.commands.turn:legal_cmd",
        "list": "pbem.commands.listing:list_cmd",
        "log": "pbem.commands.look:log_cmd",
        "mail": "pbem.transport.cli:mail_group",
        "new": "pbem.commands.start:new_cmd",
        "nudge": "pbem.commands.nudge:nudge_cmd",
        "orders": "pbem.commands.turn:orders_cmd",
        "play": "pbem.commands.replaying:play_cmd",
        "rebuild": "pbem.commands.archive:rebuild_cmd",
        "receive": "pbem.commands.receive:receive_cmd",
        "replay": "pbem.commands.replaying:replay_cmd",
        "resign": "pbem.commands.send:resign_cmd",
        "route": "pbem.commands.routing:route_cmd",
        "say": "pbem.commands.turn:say_cmd",
        "scenario": "pbem.commands.engines:scenario_group",
        "selfplay": "pbem.commands.archive:selfplay_cmd",
        "send": "pbem.commands.send:send_cmd",
        "setup": "pbem.commands.turn:setup_cmd",
        "show": "pbem.commands.look:show_cmd",
        "status": "pbem.commands.listing:status_cmd",
        "undo": "pbem.commands.turn:undo_cmd",
        "watch": "pbem.transport.cli:watch_cmd",
    }

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """``--home DIR`` and ``--verbose`` also after the command (``pbem status --home
        DIR``): they are moved before it, where click looks for the group's options."""
        front: list[str] = []
        rest: list[str] = []
        command_seen = False
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == "--":
                rest += args[i:]
                break
            if not command_seen:
                rest.append(arg)
                if arg == "--home" and i + 1 < len(args):
                    rest.append(args[i + 1])
                    i += 1
                elif not arg.startswith("-"):
                    command_seen = True
            elif arg == "--home" and i + 1 < len(args):
                front += [arg, args[i + 1]]
                i += 1
            elif arg.startswith("--home=") or arg in ("--verbose", "-v"):
                front.append(arg)
            else:
                rest.append(arg)
            i += 1
        return super().parse_args(ctx, front + rest)

    #: their one-line help, so that 'pbem --help' imports none of them (the mail stack and
    #: the web server cost more than the rest of the help, the other commands' options
    #: about 11 M instructions); tests/cli/test_startup.py checks each against the
    #: command's own docstring
    lazy_help: ClassVar[dict[str, str]] = {
        "act": "Apply actions in the engine's notation, one argument each: all of them, or none.",
        "audit": "Verify every game among the files, from the files alone (no save, no key).",
        "board": "The game's board in your browser, or with no GAME the lobby of every game.",
        "demo": "Two players, a real game, files exchanged and replayed, then an audit.",
        "draw": "Offer a draw with your next file, or accept the opponent's offer.",
        "engines": "Installed games and their scenarios.",
        "fetch": "Import turn files for your games from new mail (IMAP over TLS).",
        "id": "Your identity (an Ed25519 key) and your correspondents' public cards.",
        "inbox": "Import every new file for your games from a shared folder (once).",
        "join": "Accept an invite; the reply goes by the game's route, or is written to send.",
        "setup": "Your whole set-up from one text: 'UNIT HEX' a line ('-': standard input).",
        "legal": "What you may do now: by unit with counts, or one UNIT's options (or a HEX's).",
        "list": "Every game in your home, one line each.",
        "log": "The game's history, file by file, as your side saw it.",
        "mail": "Your mail account for 'pbem send --email' and 'pbem fetch'.",
        "new": "Create a game; the invite goes by the game's route, or is written to send.",
        "orders": "Standing orders: decisions you answer in advance, so your opponent plays on.",
        "play": "Receive FILES, watch them replayed, then act at a prompt until the file seals.",
        "rebuild": "Make a lost save anew from the exchanged files and your key.",
        "receive": "Verify and replay files from your opponent (no acting).",
        "replay": "The whole game, or from file --from on, replayed on your side's board.",
        "resign": "Resign the game (signed; the file goes to your opponent).",
        "nudge": "Remind your opponent, by the game's route, with your last file again.",
        "route": "How a game's files travel: show it, or change it.",
        "say": "A message to your opponent, carried in your next file.",
        "scenario": "Scenario data: check what is installed.",
        "selfplay": "Two random bots play a scenario through real files in DIR.",
        "send": "Deliver your sealed file (or --seq N) by its route, to a file, folder or mail.",
        "show": "The board as your side may see it (limited intelligence applies).",
        "status": "Whose decision it is, the turn and phase, and what you should do next.",
        "undo": "Take back your last action (never past a die roll or a sealed file).",
        "watch": "Follow every game's route (folders and mailboxes), import, send what is owed.",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's listing, with a stand-in carrying the help of each lazy command not
        loaded yet (click would load every one to ask for its help)."""
        commands: list[tuple[str, click.Command]] = []
        for name in self.list_commands(ctx):
            if name in self.lazy and name not in self.commands:
                commands.append((name, click.Command(name, help=self.lazy_help[name])))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                commands.append((name, command))
        if commands:
            limit = formatter.width - 6 - max(len(name) for name, _ in commands)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit))
                                    for name, command in commands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            import importlib

            module, _, attr = self.lazy[cmd_name].partition(":")
            try:
                command = getattr(importlib.import_module(module), attr)
            except (ImportError, AttributeError):
                return None
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


# the option types, made once: each click.Path looks up its translated name through
# gettext, which searches the locale folders on every call (19 of them, issue 19)
FILE = click.Path(dir_okay=False, path_type=Path)
EXISTING_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
EXISTING = click.Path(exists=True, path_type=Path)
FOLDER = click.Path(file_okay=False, path_type=Path)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=EXIT_CODES)
@click.version_option(__version__, prog_name="pbem",
                      # click's own words, given: no translation lookup at start-up
                      message="%(prog)s, version %(version)s",
                      help="Show the version and exit.")
@click.option("--home", "home_path", type=FOLDER,
              envvar="PBEM_HOME", help="Folder with your identity and games (env PBEM_HOME).")
@click.option("-v", "--verbose", is_flag=True,
              help="With an error, also the exact cause (the parser's own words).")
@click.pass_context
def main(ctx: click.Context, home_path: Path | None, verbose: bool) -> None:
    """Play hex-and-counter wargames by passing signed turn files.

    Start with 'pbem demo', or 'pbem id new NAME' then 'pbem new ENGINE SCENARIO --side SIDE'.
    """
    from pbem.portable import utf8_output

    utf8_output()
    cast(_LazyConsole, console).reset()
    cast(_LazyConsole, errors).reset()
    obj = ctx.ensure_object(dict)
    obj["home_path"] = home_path
    obj["verbose"] = verbose


def typed_names(engine_id: str | None, scenario: str | None = None,
                options: dict[str, str] | None = None) -> None:
    """An engine, scenario or option value typed on the command line that is not
    installed is a wrong name (status 2, like an unknown game, side or hex); 6 is for a
    file that names another engine, rules version or scenario data."""
    from pbem.registry import get

    if engine_id is None:
        return
    try:
        engine = get(engine_id)
        if scenario is not None:
            engine.scenario(scenario)
        if options:
            engine.resolve_options(options)
    except MismatchError as exc:
        raise UsageError(str(exc)) from None


def parse_options(values: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--option {item!r}: write KEY=VALUE")
        out[key] = value
    return out


def refuse_name_conflict(home: Any, card: Any, what: str) -> None:
    """A card under a name already pinned with another key is refused before any
    fingerprint question: no answer could make it acceptable (pin_contact refuses it)."""
    problem = home.keys.name_conflict(card, what)
    if problem is not None:
        raise problem


def confirm_first_contact(home: Any, card: Any, what: str, yes: bool) -> None:
    """Show a new correspondent's fingerprint and have the player confirm it.

    The key is pinned from then on (trust on first use), so this is the moment to compare
    the fingerprint with the one the correspondent reads out by phone or in person.
    """
    known = home.keys.contact(card.fingerprint)
    if known is not None and known.key == card.key:
        return
    refuse_name_conflict(home, card, what)
    echo(f"first contact: {what} is signed by {card.who}")
    echo(f"  fingerprint {card.fingerprint}")
    echo(f"  compare it with the one {card.name} tells you (phone, in person)")
    if yes:
        return
    if not sys.stdin.isatty():
        raise UsageError("confirm the fingerprint: run again with --yes once it matches")
    if not click.confirm("Does it match?"):
        raise UsageError("not confirmed: nothing was written")


def read_incoming_file(path: Path) -> bytes:
    """A pbem file someone sent (binary or armored), read with a bound (issue 20 item 6)."""
    from pbem.envelope import MAX_EXCHANGED
    from pbem.readfile import read_bounded

    # armored: base64 is 4/3 of the bytes, plus lines, headers and quoting
    return read_bounded(path, 2 * MAX_EXCHANGED)


F = TypeVar("F", bound=Callable[..., Any])


def collector_paused(command: F) -> F:
    """Run ``command`` with the cyclic garbage collector off, as it was after.

    For the turn commands ('legal', 'act', 'receive'), whose every object lives until the
    process ends: loading the game's engine and replaying its pending actions passed 8-9
    collections (one of the middle generation, which walks every class and function the
    engine made) that found at most 40 unreachable objects (none in three of the five
    engines): 5-7 M instructions of each command (issue 35, bench/bench_ir.py).
    Reference counting frees everything else as before; a process that runs many
    commands (a test runner) gets its collector back after each, with what the command
    made in the oldest generation, collected there when it becomes garbage."""

    @functools.wraps(command)
    def paused(*args: Any, **kwargs: Any) -> Any:
        from pbem.collector import collector_off  # a turn command's alone, not --help's

        with collector_off():
            return command(*args, **kwargs)

    return cast(F, paused)


#: files and rolls ``pbem audit`` lists without --all (besides every file with a note)
AUDIT_SHOWN = 20


def _settle() -> None:
    """Keep the cyclic garbage collector to what a short command needs.

    A command is a short-lived process, and what its start-up makes (modules, classes,
    functions, the game's engine) lives until it exits.  The collector re-examined all of
    it at every full collection and once more at exit: about 18 million instructions of
    ``pbem status`` (issue 19, 300 -> 282 M).  :func:`gc.freeze` moves every object
    tracked now to a permanent generation that collections skip (objects made later are
    collected as before), and freezing again at exit lets the last collection skip the
    command's own objects too: the process ends with them.  A process that imports this
    module to run many commands (a test runner) freezes once, here.

    The youngest generation is examined every :data:`GC_YOUNG` new container objects
    (set as this module starts to load), not Python's default 700: loading a game (its
    engine's modules and classes, all kept) passed 46 collections that found nothing,
    10 M instructions of ``pbem act``.  A long command (selfplay, a census, watch) is
    still collected, in larger steps: the garbage waiting between two passes is bounded
    by the same count."""
    gc.freeze()
    atexit.register(gc.freeze)
_settle()


if __name__ == "__main__":  # pragma: no cover
    main()
