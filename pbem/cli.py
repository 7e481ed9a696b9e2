"""The ``pbem`` command: thin click commands over the library, rich output.

Every failure is a :class:`~pbem.errors.PbemError` shown as one line that names the file
or game and the cause, with the error class's exit code (a duplicate file is not an
error: exit 0).  ``--json`` output is for scripts and is stable.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import json
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, cast

import click

if TYPE_CHECKING:
    from rich.console import Console

from pbem import __version__
from pbem.errors import (
    ChainError,
    DuplicateFile,
    FormatError,
    KeyStoreError,
    MismatchError,
    PbemError,
    SignatureError,
    UsageError,
)
from pbem.text import block, bound, safe

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
scenario data; 13 another pbem command changed the game meanwhile."""

_FILE_NAME = re.compile(r"([0-9a-f]{12})-(\d{4})-")


def verbose() -> bool:
    ctx = click.get_current_context(silent=True)
    root = ctx.find_root() if ctx is not None else None
    return bool(root is not None and isinstance(root.obj, dict) and root.obj.get("verbose"))


def _ask_again(path: str | None) -> str:
    """The command the sender runs to send a file again, with its number when the file
    name gives it (pbem names files GAMEID-SEQ-SIDE.pbem)."""
    match = _FILE_NAME.match(Path(path).name) if path else None
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


@contextlib.contextmanager
def handled() -> Iterator[None]:
    try:
        yield
    except PbemError as exc:
        _fail(exc)


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


def _terminal_columns(fallback: int = 80) -> int:
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


def _write_out(path: Path, data: bytes, armored: bool) -> None:
    from pbem.armor import armor
    from pbem.atomic import write_atomic

    payload = armor(data).encode() if armored else data
    write_atomic(path, payload, 0o644)


def _written(game: Any, seq: int, path: Path) -> None:
    """Remember that file ``seq`` left as a file (status says where, issue 23 item 3)."""
    from pbem.transport.state import record_sent

    record_sent(game.home.path, game.game_id, seq, "written to", str(path.resolve()))


def _print_events(events: list[Any], rolls: list[Any], side: str | None) -> None:
    for event in events:
        if event.visible(side):
            echo(f"  {event.text}")
    for roll in rolls:
        outcome = ", ".join(str(o) for o in roll.outcome)
        echo(f"  roll {roll.name}: {roll.purpose}: {roll.request} -> {outcome}")


def _sealed_note(game: Any, seq: int) -> None:
    from pbem.envelope import file_name

    echo(f"sealed file {seq} of {game.name}: {game.awaiting()}")
    name = file_name(game.game_id, seq, game.side)
    echo(f"  send it with: pbem send {game.name} -o {name}")


# --- shell completion (click's shell_complete; README: "Shell completion") ----------------------


def _completion_home(ctx: click.Context) -> Path:
    from pbem.identity import home_dir

    root = ctx.find_root()
    given = root.params.get("home_path") if root.params else None
    return Path(given) if given else Path(home_dir())


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """Game names in the home (from the save files' names: nothing is decrypted)."""
    from pbem.session import SAVE_SUFFIX

    folder = _completion_home(ctx) / "games"
    names = sorted(p.name[:-len(SAVE_SUFFIX)] for p in folder.glob(f"*{SAVE_SUFFIX}")) \
        if folder.is_dir() else []
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
    """Commands from heavier modules load only when used (keeps ``pbem status`` fast)."""

    lazy: ClassVar[dict[str, str]] = {
        "inbox": "pbem.transport.cli:inbox_cmd",
        "watch": "pbem.transport.cli:watch_cmd",
        "fetch": "pbem.transport.cli:fetch_cmd",
        "mail": "pbem.transport.cli:mail_group",
        "board": "pbem.web.cli:board_cmd",
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
    #: the web server cost more than the rest of the help); tests/cli/test_startup.py
    #: checks each against the command's own docstring
    lazy_help: ClassVar[dict[str, str]] = {
        "inbox": "Import every new file for your games from a shared folder (once).",
        "watch": "Import new files from a shared folder as they arrive, until interrupted.",
        "fetch": "Import turn files for your games from new mail (IMAP over TLS).",
        "mail": "Your mail account for 'pbem send --email' and 'pbem fetch'.",
        "board": "The game's board in your browser: watch what arrived, click to play.",
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
_FILE = click.Path(dir_okay=False, path_type=Path)
_EXISTING_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)
_EXISTING = click.Path(exists=True, path_type=Path)
_FOLDER = click.Path(file_okay=False, path_type=Path)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=EXIT_CODES)
@click.version_option(__version__, prog_name="pbem",
                      # click's own words, given: no translation lookup at start-up
                      message="%(prog)s, version %(version)s",
                      help="Show the version and exit.")
@click.option("--home", "home_path", type=_FOLDER,
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


# --- identities -----------------------------------------------------------------------------


@main.group("id")
def id_group() -> None:
    """Your identity (an Ed25519 key) and your correspondents' public cards."""


@id_group.command("new")
@click.argument("name")
@click.option("--email", default="", help="Shown on your card.")
@click.option("--passphrase/--no-passphrase", default=False,
              help="Protect the key with a passphrase (prompted, or PBEM_PASSPHRASE).")
@click.pass_context
def id_new(ctx: click.Context, name: str, email: str, passphrase: bool) -> None:
    """Create your identity."""
    with handled():
        home = home_of(ctx)
        secret = None
        if passphrase:
            env = os.environ.get("PBEM_PASSPHRASE")
            secret = env.encode() if env is not None else str(click.prompt(
                "New passphrase", hide_input=True, confirmation_prompt=True)).encode()
        identity = home.keys.create(name, email, secret)
        echo(f"identity {identity.card.name} created in {home.path}")
        echo(f"fingerprint: {identity.card.fingerprint}")


@id_group.command("show")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def id_show(ctx: click.Context, as_json: bool) -> None:
    """Your name, email and fingerprint (read it aloud to your opponent)."""
    with handled():
        home = home_of(ctx)
        card = home.card()
        if as_json:
            click.echo(json.dumps({"name": card.name, "email": card.email,
                                   "key": card.key.hex(), "fingerprint": card.fingerprint}))
            return
        # where the key and games are: the folder differs on each platform
        echo(f"{card.who}\nfingerprint: {card.fingerprint}\nhome: {home.path}")


@id_group.command("export")
@click.option("-o", "output", type=_FILE)
@click.pass_context
def id_export(ctx: click.Context, output: Path | None) -> None:
    """Your public card, signed, as armored text (stdout or -o FILE)."""
    from pbem.armor import armor
    from pbem.envelope import seal

    with handled():
        identity = home_of(ctx).identity()
        text = armor(seal(identity, "card", {"card": identity.card.to_data()}))
        if output:
            _write_out(output, text.encode(), armored=False)
            echo(f"card written to {output}")
        else:
            click.echo(text, nl=False)


@id_group.command("import")
@click.argument("card_file", type=_EXISTING_FILE)
@click.option("--yes", is_flag=True, help="Pin without asking (you compared the fingerprint).")
@click.pass_context
def id_import(ctx: click.Context, card_file: Path, yes: bool) -> None:
    """Pin a correspondent's card after comparing its fingerprint."""
    from pbem.armor import read_any
    from pbem.envelope import open_envelope
    from pbem.identity import Card

    with handled():
        try:
            env = open_envelope(read_any(read_incoming_file(card_file)), kinds=("card",))
            card = Card.from_data(env.decode()["card"])
        except FormatError as exc:
            # a card is not a turn file: it is asked for again another way, and its cause
            # (a text encoding a Windows tool chose, say) is what the player can act on
            worded = FormatError(f"not a readable pbem card ({exc}); ask for it again: "
                                 "they run 'pbem id export -o FILE'", path=str(card_file))
            worded.worded = True  # type: ignore[attr-defined]
            raise worded from None
        except PbemError as exc:
            raise type(exc)(str(exc), path=str(card_file)) from None
        except KeyError:
            raise UsageError(f"{card_file}: not a pbem card") from None
        if card.key != env.key:
            raise UsageError(f"{card_file}: the card is not signed by its own key")
        home = home_of(ctx)
        if home.keys.contact(card.fingerprint) is None:
            refuse_name_conflict(home, card, f"the card {card_file}")
        echo(f"{card.who}\nfingerprint: {card.fingerprint}")
        if not yes and not click.confirm("Does this fingerprint match what they told you?"):
            raise UsageError("not pinned")
        home_of(ctx).keys.pin_contact(card)
        echo(f"pinned {card.name}")


@id_group.command("contacts")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def id_contacts(ctx: click.Context, as_json: bool) -> None:
    """The correspondents whose keys you have pinned."""
    with handled():
        cards = home_of(ctx).keys.contacts()
        if as_json:
            click.echo(json.dumps([{"name": c.name, "email": c.email,
                                    "fingerprint": c.fingerprint} for c in cards], indent=2))
            return
        for card in cards:
            echo(f"{card.who}  {card.fingerprint}")
        if not cards:
            echo("no contacts pinned yet")


@id_group.command("forget")
@click.argument("who")
@click.pass_context
def id_forget(ctx: click.Context, who: str) -> None:
    """Unpin a correspondent (by name or fingerprint), e.g. after they changed keys."""
    with handled():
        keys = home_of(ctx).keys
        if keys.contact(who) is None:  # a wrong name, like an unknown game: status 2
            raise UsageError(f"no correspondent {who!r} is pinned ('pbem id contacts' lists "
                             "them)")
        card = keys.unpin_contact(who)
        echo(f"forgot {card.name} ({card.fingerprint})")


# --- engines and scenarios --------------------------------------------------------------------


@main.command("engines")
@click.option("--json", "as_json", is_flag=True)
def engines_cmd(as_json: bool) -> None:
    """Installed games and their scenarios."""
    from pbem.registry import engines

    with handled():
        found = engines()
        if as_json:
            click.echo(json.dumps([
                {"id": e.id, "title": e.title, "rules_version": e.rules_version,
                 "sides": list(e.sides),
                 "scenarios": [{"id": s.id, "title": s.title, "turns": list(s.turns)}
                               for s in e.scenarios()],
                 "options": [{"key": o.key, "choices": list(o.choices), "default": o.default,
                              "description": o.description} for o in e.options()]}
                for e in found.values()], indent=2))
            return
        # plain lines, not a table: an id is what you type, so it is never cut
        for e in found.values():
            echo(f"{e.id}: {e.title} ({' / '.join(e.sides)})")
            scenarios = e.scenarios()
            width = max((len(sc.id) for sc in scenarios), default=0)
            for sc in scenarios:
                echo(f"  {sc.id:<{width}}  {sc.title}")
        echo("start one: pbem new ENGINE SCENARIO --side SIDE")


@main.group("scenario")
def scenario_group() -> None:
    """Scenario data: check what is installed."""


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


@scenario_group.command("check")
@click.argument("engine_id", required=False, shell_complete=complete_engine)
@click.argument("scenario", required=False, shell_complete=complete_scenario)
def scenario_check(engine_id: str | None, scenario: str | None) -> None:
    """Load and validate every scenario, and every hex the rulebook names."""
    from pbem.registry import engines, get

    with handled():
        typed_names(engine_id, scenario)
        chosen = [get(engine_id)] if engine_id else list(engines().values())
        problems: list[str] = []
        for engine in chosen:
            found = [p for p in engine.check_scenarios()
                     if scenario is None or f"/{scenario}" in p or scenario in p]
            if scenario:
                engine.new_state(scenario)
            problems += found
            status = "ok" if not found else f"{len(found)} problems"
            echo(f"{engine.id}: {len(engine.scenarios())} scenarios, {status}")
        for p in problems:
            echo(f"  {p}")
        if problems:
            sys.exit(12)


# --- starting a game ---------------------------------------------------------------------------


def _parse_options(values: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--option {item!r}: write KEY=VALUE")
        out[key] = value
    return out


@main.command("new")
@click.argument("engine_id", shell_complete=complete_engine)
@click.argument("scenario", shell_complete=complete_scenario)
@click.option("--side", required=True, help="The side you play.")
@click.option("--option", "options", multiple=True, help="KEY=VALUE, repeatable.")
@click.option("--dice", "dice_mode", type=click.Choice(["open", "sealed"]), default="open")
@click.option("--chain-length", type=int, default=DEFAULT_CHAIN, show_default=True,
              help="Dice links per chain generation (2..100000); each side re-anchors "
                   "when its chain is used up.")
@click.option("--name", help="A name for the game (default: engine-scenario-id).")
@click.option("-o", "output", type=_FILE,
              help="Where to write the invite (default: in the current folder).")
@click.option("--armor", "armored", is_flag=True, help="Write the armored text form.")
@click.pass_context
def new_cmd(ctx: click.Context, engine_id: str, scenario: str, side: str,
            options: tuple[str, ...], dice_mode: str, chain_length: int, name: str | None,
            output: Path | None, armored: bool) -> None:
    """Create a game and write the invite to send to your opponent."""
    with handled():
        typed_names(engine_id, scenario, _parse_options(options))
        game = home_of(ctx).new_game(engine_id, scenario, side,
                                     options=_parse_options(options), dice_mode=dice_mode,
                                     name=name, chain_length=chain_length)
        from pbem.envelope import file_name

        path = output or Path(file_name(game.game_id, 0, side))
        _write_out(path, game.files[0], armored)
        _written(game, 0, path)
        echo(f"game {game.name} created: you play {side}")
        echo(f"invite written to {path}: send it to your opponent")


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


@main.command("join")
@click.argument("invite", type=_EXISTING_FILE)
@click.option("--name", help="A name for the game.")
@click.option("-o", "output", type=_FILE)
@click.option("--armor", "armored", is_flag=True)
@click.option("--yes", is_flag=True, help="You compared the creator's fingerprint already.")
@click.pass_context
def join_cmd(ctx: click.Context, invite: Path, name: str | None, output: Path | None,
             armored: bool, yes: bool) -> None:
    """Accept an invite; writes the reply file to send back."""
    from pbem.transcript import load_envelope, parse_invite

    with handled():
        home = home_of(ctx)
        unlock(home)
        data = read_incoming_file(invite)
        setup = parse_invite(load_envelope(data, str(invite)))
        confirm_first_contact(home, setup.creator, f"the invite {invite}", yes)
        game = home.join(data, str(invite), name=name)
        opp = game.opponent()
        setup = game.verifier.setup
        echo(f"joined {game.name}: {setup.engine_id} / {setup.scenario}, you play "
                      f"{game.side}")
        if opp:
            echo(f"opponent: {opp.who}, fingerprint {opp.fingerprint}")
        from pbem.envelope import file_name

        path = output or Path(file_name(game.game_id, 1, game.side))
        _write_out(path, game.files[1], armored)
        _written(game, 1, path)
        echo(f"reply written to {path}: send it back")


# --- the turn loop -----------------------------------------------------------------------------


def read_incoming_file(path: Path) -> bytes:
    """A pbem file someone sent (binary or armored), read with a bound (issue 20 item 6)."""
    from pbem.envelope import MAX_EXCHANGED
    from pbem.readfile import read_bounded

    # armored: base64 is 4/3 of the bytes, plus lines, headers and quoting
    return read_bounded(path, 2 * MAX_EXCHANGED)


def _plainly_pbem(path: Path) -> bool:
    """A regular file that starts as a pbem file does (binary, or the armor's first line)
    and is not named as mail: the test pbem.transport.mail makes first."""
    if path.suffix.lower() in (".eml", ".msg", ".mbox", ".mbx") or not path.is_file():
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return head[:1] == b"\x96" or head.lstrip().startswith(b"-----BEGIN PBEM FILE-----")


def _read_incoming(path: Path) -> list[tuple[str, bytes]]:
    """Files in PATH: a .pbem (binary or armored), or mail (.eml, mbox, Maildir) when the
    mail transport is installed."""
    from pbem.readfile import check_kind

    if _plainly_pbem(path):
        # what mail.files_from_path would say too (not mail), without importing the mail
        # stack, about a seventh of a receive (issue 19)
        check_kind(path)
        return [(str(path), read_incoming_file(path))]
    try:
        from pbem.transport import mail
    except ImportError:  # the transport package is optional at this layer
        mail = None  # type: ignore[assignment]
    if not (mail is not None and path.is_dir() and mail.is_maildir(path)):
        check_kind(path)  # a folder, a FIFO, a device: named, never opened
    if mail is not None and hasattr(mail, "files_from_path"):
        found = mail.files_from_path(path)
        if found is not None:
            return list(found)
    return [(str(path), read_incoming_file(path))]


def _screen(home: Any, path: Path, source: str, data: bytes, yes: bool) -> bool:
    """Before importing: an invite is for 'pbem join'; an accept is a first contact."""
    from pbem.armor import read_any
    from pbem.envelope import open_envelope
    from pbem.identity import Card

    try:
        env = open_envelope(read_any(data))
        body = env.decode()
    except PbemError:
        return True  # the import names the problem
    if env.kind == "invite":
        creator = body.get("creator")
        name = creator.get("name") if isinstance(creator, dict) else None
        # anyone can sign an invite: its name is only quoted, bounded and escaped
        echo_err(f"pbem: note: {source} is an invite from "
                 f"{safe(bound(name, 80)) if isinstance(name, str) else '?'}: join it with "
                 f"'pbem join {path}'")
        return False
    if env.kind == "accept" and isinstance(body.get("joiner"), dict):
        try:
            card = Card.from_data(body["joiner"])
        except PbemError:
            return True  # the import names the problem
        if home.game_by_id(body.get("game", b"")) is not None:
            confirm_first_contact(home, card, f"the reply {source}", yes)
    return True


@main.command("receive")
@click.argument("files", nargs=-1, required=True,
                type=_EXISTING)
@click.option("--yes", is_flag=True,
              help="Pin a new opponent's key without asking (you compared the fingerprint).")
@click.pass_context
def receive_cmd(ctx: click.Context, files: tuple[Path, ...], yes: bool) -> None:
    """Verify and replay files from your opponent (no acting)."""
    home = None
    status = 0
    with handled():
        home = home_of(ctx)
        unlock(home)
    assert home is not None
    incoming: list[tuple[Path, str, bytes]] = []
    for path in files:
        try:
            found = _read_incoming(path)
        except PbemError as exc:
            echo_err(f"pbem: error: {player_words(exc)}")
            status = status or exc.exit_code
            continue
        # every file is looked at: a stranger's file in an mbox must not keep the genuine
        # one out (issue 20 item 5)
        for source, data in found:
            try:
                if _screen(home, path, source, data, yes):
                    incoming.append((path, source, data))
            except PbemError as exc:
                echo_err(f"pbem: error: {player_words(exc)}")
                status = status or exc.exit_code
    # earliest file of each game first, whatever the order on the command line; a file
    # that waits for an earlier one is tried again once that one is in
    waiting = _by_sequence(incoming)
    while waiting:
        retry: list[tuple[Path, str, bytes]] = []
        failed: list[tuple[str, PbemError]] = []
        for path, source, data in waiting:
            try:
                report = home.receive(data, source)
            except DuplicateFile as exc:
                echo_err(f"pbem: note: {exc}")
                continue
            except ChainError as exc:
                if exc.reason == "missing":
                    retry.append((path, source, data))
                    failed.append((source, exc))
                    continue
                echo_err(f"pbem: error: {player_words(exc)}")
                status = status or exc.exit_code
                continue
            except PbemError as exc:
                echo_err(f"pbem: error: {player_words(exc)}")
                status = status or exc.exit_code
                continue
            echo(report.text)
            if report.message:
                echo(f"  message from your opponent: {block(report.message)}")
            game = report.game or home.game(report.game_name)
            _print_events(report.events, report.rolls, game.side)
            if report.sealed is not None:
                _sealed_note(game, report.sealed)
            else:
                echo(f"  {game.awaiting()}")
        if len(retry) == len(waiting):
            for _, missing in failed:
                echo_err(f"pbem: error: {player_words(missing)}")
                status = status or missing.exit_code
            break
        waiting = retry
    sys.exit(status)


def _by_sequence(items: list[tuple[Path, str, bytes]]) -> list[tuple[Path, str, bytes]]:
    """Files in game and sequence order; a file that cannot be read keeps its place last
    (its import names the problem)."""
    from pbem.armor import read_any
    from pbem.envelope import peek

    def key(item: tuple[Path, str, bytes]) -> tuple[int, bytes, int]:
        try:
            info = peek(read_any(item[2]))
        except PbemError:
            return 1, b"", 0
        return 0, info.game_id, info.seq

    return sorted(items, key=key)  # stable: unreadable files keep their order


def _dry_run_game() -> type:
    """A Game that seals and saves nothing: where the real one would seal (sign, record
    the file, write the save) it answers -1 and stops, so a trial of several actions
    leaves no trace on disk."""
    from pbem.session import Game

    class DryRun(Game):
        def _seal(self, end: str) -> int:
            return -1

        def write(self) -> None:
            return None

    return DryRun


@main.command("act")
@click.argument("game_ref", shell_complete=complete_game)
@click.argument("actions", nargs=-1, required=True, shell_complete=complete_action)
@click.pass_context
def act_cmd(ctx: click.Context, game_ref: str, actions: tuple[str, ...]) -> None:
    """Apply actions in the engine's notation, one argument each: all of them, or none."""
    from pbem.errors import ActionSyntaxError, IllegalAction, NotYourTurn

    def refused(exc: PbemError, before: Any, text: str, number: int) -> PbemError:
        # pbem.play brings the board renderer and rich: only for a refusal
        from pbem.play import suggest

        hint = suggest(before, text)
        return type(exc)(f"{exc}{'; ' + hint if hint else ''} (action {number} of "
                         f"{len(actions)}: none applied)")

    with handled():
        home = home_of(ctx)
        if len(actions) > 1:
            # a dry run on a copy that never writes: if any action is refused, or the file
            # would seal before the last one, nothing is applied and nothing saved
            trial = home.game(game_ref)
            trial.__class__ = _dry_run_game()
            for number, text in enumerate(actions, 1):
                state = trial.state.clone()
                try:
                    _, _, sealed = trial.act(text, save=False)
                except (IllegalAction, ActionSyntaxError) as exc:
                    raise refused(exc, state, text, number) from None
                if sealed is not None and number < len(actions):
                    raise NotYourTurn(f"{game_ref}: the file seals after '{text}' (the "
                                      "opponent decides next), so "
                                      f"{', '.join(map(repr, actions[number:]))} cannot "
                                      "follow in it: none applied")
        game = home.game(game_ref)
        # one action needs no dry run (issue 19: it loaded the game and replayed its dice
        # chain twice): a refused action raises before anything is sealed or written
        before = game.state.clone() if len(actions) == 1 else None
        for text in actions:
            try:
                events, rolls, sealed = game.act(text, save=False)
            except (IllegalAction, ActionSyntaxError) as exc:
                if before is None:
                    raise
                raise refused(exc, before, text, 1) from None
            echo(f"{text}")
            _print_events(events, rolls, game.side)
            if sealed is not None:
                _sealed_note(game, sealed)
                return
        game.write()
        echo(f"  {game.awaiting()}")


@main.command("legal")
@click.argument("game_ref", shell_complete=complete_game)
@click.argument("focus", required=False)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def legal_cmd(ctx: click.Context, game_ref: str, focus: str | None, as_json: bool) -> None:
    """What you may do now (optionally only actions naming UNIT or HEX)."""
    with handled():
        game = home_of(ctx).game(game_ref)
        decision = game.my_decision()
        actions = [a.notation() for a in game.state.legal_actions()] if decision else []
        if focus:
            actions = [a for a in actions if focus in a.split()]
        if as_json:
            click.echo(json.dumps({
                "game": game.name, "your_move": decision is not None,
                "decision": decision.kind if decision else None,
                "prompt": decision.prompt if decision else game.awaiting(),
                "default": decision.default.notation() if decision and decision.default else None,
                "actions": actions}, indent=2))
            return
        if decision is None:
            echo(game.awaiting())
            return
        echo(f"{decision.prompt}" + (f" ({decision.rule})" if decision.rule else ""))
        for text in actions:
            echo(f"  {text}")


@main.command("undo")
@click.argument("game_ref", shell_complete=complete_game)
@click.pass_context
def undo_cmd(ctx: click.Context, game_ref: str) -> None:
    """Take back your last action (never past a die roll or a sealed file)."""
    with handled():
        game = home_of(ctx).game(game_ref)
        echo(f"undone: {game.undo()}")


@main.command("say")
@click.argument("game_ref", shell_complete=complete_game)
@click.argument("text")
@click.pass_context
def say_cmd(ctx: click.Context, game_ref: str, text: str) -> None:
    """A message to your opponent, carried in your next file."""
    with handled():
        home_of(ctx).game(game_ref).say(text)
        echo("message kept for your next file")


@main.command("orders")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--set", "set_kinds", multiple=True, metavar="KIND[=default]",
              help="Answer this kind of decision with the rulebook's default (repeatable).")
@click.option("--clear", "clear_kinds", multiple=True, metavar="KIND",
              help="Stop answering this kind in advance (repeatable).")
@click.option("--all", "all_kinds", is_flag=True, help="Answer every kind the game allows.")
@click.option("--none", "none", is_flag=True, help="Withdraw every standing order.")
@click.pass_context
def orders_cmd(ctx: click.Context, game_ref: str, set_kinds: tuple[str, ...],
               clear_kinds: tuple[str, ...], all_kinds: bool, none: bool) -> None:
    """Standing orders: decisions you answer in advance, so your opponent plays on.

    With no option, lists the decisions the game allows orders for and the orders in
    force. A change travels in your next file and holds from its end on.
    """
    from pbem import orders

    with handled():
        game = home_of(ctx).game(game_ref)
        if set_kinds or clear_kinds or all_kinds or none:
            new = orders.edit(game.engine, game.orders_to_come(), set_kinds=set_kinds,
                              clear_kinds=clear_kinds, all_kinds=all_kinds, none=none)
            game.set_orders(new)
            echo(f"standing orders for your next file: {orders.text(new)}")
            return
        for line in orders.listing(game.engine, game.verifier.orders.get(game.side, {}),
                                   game.verifier.orders.get(game.opponent_side, {})):
            echo(line)
        if game.orders_pending is not None:
            echo(f"to be sent with your next file: {orders.text(game.orders_pending)}")


@main.command("send")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--seq", type=int, help="Send an earlier file again, byte for byte.")
@click.option("-o", "output", type=_FILE)
@click.option("--armor", "armored", is_flag=True, help="Write the armored text form.")
@click.option("--folder", type=_FOLDER,
              help="Deliver into a shared folder (Dropbox, Syncthing, a network drive).")
@click.option("--eml", type=_FILE,
              help="Write an email message for your own mail client.")
@click.option("--email", "by_email", is_flag=True, help="Send by SMTP (pbem mail setup).")
@click.option("--to", "to", help="The recipient's address (needed for an invite).")
@click.pass_context
def send_cmd(ctx: click.Context, game_ref: str, seq: int | None, output: Path | None,
             armored: bool, folder: Path | None, eml: Path | None, by_email: bool,
             to: str | None) -> None:
    """Deliver your sealed file (or file --seq N) to a file, folder or mail."""
    with handled():
        game = home_of(ctx).game(game_ref)
        number, data = game.file(seq)
        if seq is None and game.has_pen():
            # the next file is ours to write: the latest sealed one went out already
            echo_err(f"pbem: note: it is your move in {game.name} ({game.awaiting()}); this "
                     f"sends again your file {number}, already sealed (the one your opponent "
                     "answered); your next file is written by acting: pbem play "
                     f"{game.name}")
        if folder or eml or by_email:
            from pbem.transport import cli as transport_cli

            transport_cli.deliver(game, number, data, folder=folder, eml=eml,
                                  by_email=by_email, to=to, console=console)
            return
        from pbem.envelope import file_name

        path = output or Path(file_name(game.game_id, number, game.side))
        _write_out(path, data, armored)
        _written(game, number, path)
        echo(f"file {number} of {game.name} written to {path}")


@main.command("resign")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.pass_context
def resign_cmd(ctx: click.Context, game_ref: str, yes: bool) -> None:
    """Resign the game (signed; the file goes to your opponent)."""
    with handled():
        game = home_of(ctx).game(game_ref)
        if not yes and not click.confirm(f"Resign {game.name}?"):
            raise UsageError("not resigned")
        seq = game.resign()
        echo(f"you resigned {game.name}")
        _sealed_note(game, seq)


@main.command("draw")
@click.argument("game_ref", shell_complete=complete_game)
@click.pass_context
def draw_cmd(ctx: click.Context, game_ref: str) -> None:
    """Offer a draw with your next file, or accept the opponent's offer."""
    with handled():
        game = home_of(ctx).game(game_ref)
        what, seq = game.draw()
        if what == "accepted":
            echo(f"draw accepted: {game.name} is drawn")
            assert seq is not None
            _sealed_note(game, seq)
        else:
            echo("draw offered: it goes with your next file")


# --- looking at games ---------------------------------------------------------------------------


def _when(t: int | None) -> str:
    if t is None:
        return "-"
    import datetime as dt

    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%Y-%m-%d %H:%M")


@main.command("status")
@click.argument("game_ref", required=False, shell_complete=complete_game)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def status_cmd(ctx: click.Context, game_ref: str | None, as_json: bool) -> None:
    """Whose decision it is, the turn and phase, and what you should do next."""
    with handled():
        home = home_of(ctx)
        data = home.statuses(game_ref)
        from pbem.transport.state import sent_line, sent_records

        records = sent_records(home.path)
        for s in data:
            s["sent"] = sent_line(home.path, s, records)
        if game_ref and data:
            # what only your side knows (a committed plan): rebuilt from your key for this
            # screen, never in the save's summary (that is a file); one named game only,
            # so the list of all games still needs no engine
            data[0]["private"] = home.game(game_ref).private_notes()
        if as_json:
            click.echo(json.dumps(data if not game_ref else data[0], indent=2))
            return
        out: list[str] = []
        if not data:
            out.append(f"no games in {home.games_dir}")
        for s in data:
            out.append(f"{s['name']}: {s['engine']} / {s['scenario']}, you play {s['side']} "
                       f"against {s['opponent'] or '(not joined yet)'}")
            if s["position"]:
                out.append(f"  {s['position']}")
            for note in s.get("private", []):
                out.append(f"  {note}")
            out.append(f"  file {s['seq']}; last in {_when(s['last_in'])}, last out "
                       f"{_when(s['last_out'])}")
            out.append(f"  {s['awaiting']}")
            if s["sent"]:
                out.append(f"  {s['sent']}")
            from pbem import orders  # only here: status stays light to start

            for label, key in (("your standing orders", "orders"),
                               ("opponent's standing orders", "opponent_orders")):
                if s.get(key):
                    out.append(f"  {label}: {orders.text(s[key])}")
            if s.get("orders_pending") is not None:
                out.append("  orders to send with your next file: "
                           f"{orders.text(s['orders_pending'])}")
        echo_all(out)


@main.command("list")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def list_cmd(ctx: click.Context, as_json: bool) -> None:
    """Every game in your home, one line each."""
    with handled():
        home = home_of(ctx)
        data = home.statuses()
        from pbem.transport.state import sent_line, sent_records

        records = sent_records(home.path)
        for s in data:
            s["sent"] = sent_line(home.path, s, records)
        if as_json:
            click.echo(json.dumps(data, indent=2))
            return
        if not data:
            echo("no games yet: 'pbem new' starts one, 'pbem join INVITE' joins one")
            return
        # one line per game: the ids whole (you type them), then what is next, cut to the
        # terminal's width ('pbem status GAME' says it all)
        width = _terminal_columns()
        rows = [(s["name"], f"{s['engine']}/{s['scenario']}",
                 f"{s['side']} v {s['opponent'] or '(not joined)'}", f"file {s['seq']}",
                 (f"game over: {s['result']['text']}" if s.get("result") else
                  f"YOU: {s['decision']}" if s["your_move"] else
                  s["awaiting"].replace("waiting for ", "awaits "))) for s in data]
        sent = {s["name"]: s["sent"] for s in data if s["sent"] and (
            "not sent" in s["sent"] or "no longer there" in s["sent"])}
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        out: list[str] = []
        for row in rows:
            line = "  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths, strict=False))
            line = f"{line}  {row[4]}"
            out.append(line if len(line) <= width else line[:max(width - 1, 0)] + "…")
            # an unsent or vanished file is a silent deadlock: always shown, whole
            if sent.get(row[0]):
                out.append(f"  {sent[row[0]]}")
        echo_all(out)


@main.command("log")
@click.argument("game_ref", shell_complete=complete_game)
@click.pass_context
def log_cmd(ctx: click.Context, game_ref: str) -> None:
    """The game's history, file by file, as your side saw it.

    Each file is replayed and told from your side's view (White Death Rule 4.C: another
    side's hidden moves are told as 'a unit moves', never by the unit's name); the
    referee's full record of every action is 'pbem audit FILES'.
    """
    from pbem.audit import body_summary
    from pbem.envelope import open_envelope
    from pbem.render.narrate import frames_from_records
    from pbem.transcript import Verifier

    with handled():
        game = home_of(ctx).game(game_ref)
        verifier = Verifier(game.engine, open_envelope(game.files[0]))
        known = game.files
        for seq, data in enumerate(game.files):
            body = body_summary(data)
            if seq == 0:
                echo(f"file 0: invite by {body['creator']['name']} "
                              f"({body['creator_side']}): {body['engine']} / {body['scenario']}")
                continue
            before = verifier.state.clone()
            verifier.add(open_envelope(data), known)
            if seq == 1:
                echo(f"file 1: {body['joiner']['name']} joins as {body['side']}")
                continue
            echo(f"file {seq}: {body['side']}")
            if body.get("kind", "turn") == "turn" and body.get("records"):
                frames = frames_from_records(before, body["records"], game.side, seq=seq)
                for _, events in frames:
                    for event in events:
                        if event.visible(game.side):
                            echo(f"  {event.text}")
            if body.get("message"):
                echo(f"  message: {block(body['message'])}")
            if body.get("end"):
                echo(f"  end: {body['end']} ({body['result']['text']})")
        if game.pending:
            echo(f"unsealed: {len(game.pending)} records")


@main.command("show")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--svg", type=_FILE,
              help="Write the whole board as an SVG picture.")
@click.option("--png", type=_FILE,
              help="Write the whole board as a PNG picture (needs the png extra).")
@click.option("--center", help="Center the window on this hex.")
@click.option("--zoom", type=click.IntRange(0, 2), default=1, show_default=True,
              help="0 overview, 1 normal, 2 two counters per hex.")
@click.option("--zoc", "show_zoc", help="Overlay a side's zones of control (or 'all').")
@click.option("--browse", is_flag=True, help="Pan and zoom with the keys (arrows, +/-, q).")
@click.option("--where", "where_token", metavar="UNIT",
              help="Highlight the hexes UNIT may move to or act on now.")
@click.pass_context
def show_cmd(ctx: click.Context, game_ref: str, svg: Path | None, png: Path | None,
             center: str | None, zoom: int, show_zoc: str | None, browse: bool,
             where_token: str | None) -> None:
    """The board as your side may see it (limited intelligence applies)."""
    import dataclasses

    with handled():
        game = home_of(ctx).game(game_ref)
        view = game.view()
        if where_token:
            from pbem.play import where

            hexes = where(game.state, game.side, where_token) if game.my_decision() else ()
            if not hexes:
                raise UsageError(f"no legal action takes {where_token} anywhere now")
            view = dataclasses.replace(view, highlights=hexes)
            center = center or hexes[0]
            echo(f"{where_token} may go to or act on: {' '.join(hexes)}")
        if svg or png:
            from pbem.render.svg import board_png, board_svg

            if svg:
                _write_out(svg, board_svg(view, show_zoc=show_zoc).encode(), armored=False)
                echo(f"board written to {svg}")
            if png:
                _write_out(png, board_png(view, show_zoc=show_zoc), armored=False)
                echo(f"board written to {png}")
            return
        from pbem.render import board_screen, fit_window

        if center and not any(c.hex == center for c in view.cells):
            raise UsageError(f"no hex {center!r} on the map of {view.title}")
        if center is None and view.cells:
            from pbem.render.board import focus_hex

            center = focus_hex(view, game.pending_actions())
        if browse and console.is_terminal:
            from pbem.play import key_poller
            from pbem.render import browse as browse_board

            with key_poller() as keys:
                browse_board(rich_console(), view, read_key=keys.read, zoom=zoom, show_zoc=show_zoc)
            return
        height = console.height - 8 if console.is_terminal else None
        window = fit_window(view, console.width, height, zoom=zoom, center=center)
        console.print(board_screen(view, window, zoom, show_zoc))


# --- audit, rebuild, selfplay ---------------------------------------------------------------------


#: files and rolls ``pbem audit`` lists without --all (besides every file with a note)
AUDIT_SHOWN = 20


def _remarkable(row: Any) -> bool:
    """An audit row that says more than 'verified': a problem, a duplicate, a note."""
    return bool(row.note) or row.signature != "ok" or row.chain not in ("ok", "anchor") \
        or not row.replay.startswith("ok")


@main.command("audit")
@click.argument("paths", nargs=-1, required=True, type=_EXISTING)
@click.option("--roll", "roll", help="Explain one roll, SEQ.INDEX (e.g. 17.3).")
@click.option("--json", "as_json", is_flag=True)
@click.option("--html", type=_FILE,
              help="Also write the game as one self-contained replay page.")
@click.option("--side", help="With --html: replay from this side's view (default: the "
              "referee's, for a finished game).")
@click.option("--all", "show_all", is_flag=True,
              help=f"List every file and roll (default: any file with a problem or a note, "
                   f"and the last {AUDIT_SHOWN} files and rolls).")
def audit_cmd(paths: tuple[Path, ...], roll: str | None, as_json: bool, html: Path | None,
              side: str | None, show_all: bool) -> None:
    """Verify a transcript from the exchanged files alone (no save, no key needed)."""
    from pbem.audit import audit, collect, explain_roll

    with handled(), progress_bar("verifying") as progress:
        datas = collect(list(paths))
        report = audit(datas, progress)
    with handled():
        if html:
            from pbem.web.cli import audit_html

            echo(audit_html(datas, report, html, side))
        if as_json:
            click.echo(json.dumps(report.to_json(), indent=2))
            sys.exit(0 if report.clean else report.exit_code or 1)
        if roll:
            lines = explain_roll(report, roll)
            if lines[0].startswith("no roll "):
                raise UsageError(lines[0])
            for line in lines:
                echo(line)
            sys.exit(0 if report.clean else report.exit_code or 1)
        from rich.markup import escape
        from rich.table import Table

        from pbem.text import safe

        def cell(text: str) -> str:
            # text from the files: no markup, no terminal controls (issue 20 item 9)
            return escape(safe(text))

        table = Table("seq", "kind", "side", "signer", "sig", "chain", "dice", "replay", "note",
                      title=f"game {report.game_id.hex()[:16]} {report.engine} / "
                            f"{report.scenario}")
        # a long game's tables took seconds to draw: by default every file with a
        # problem or a note, and the last files and rolls (issue 19)
        last = len(report.files) - AUDIT_SHOWN
        files = [row for i, row in enumerate(report.files)
                 if show_all or i >= last or _remarkable(row)]
        for row in files:
            table.add_row("?" if row.seq is None else str(row.seq), cell(row.kind),
                          cell(row.side), row.signer[:11], row.signature, row.chain, row.dice,
                          cell(row.replay), cell(row.note))
        console.print(table)
        if len(files) < len(report.files):
            echo(f"({len(report.files) - len(files)} earlier files verified without a note "
                 "are not listed: 'pbem audit --all' lists every file and roll)")
        shown = report.rolls if show_all else report.rolls[-AUDIT_SHOWN:]
        rolls = Table("roll", "side", "purpose", "dice", "result", "after action",
                      title=f"{len(report.rolls)} rolls"
                            + ("" if len(shown) == len(report.rolls) else
                               f", the last {len(shown)}"))
        for r in shown:
            rolls.add_row(r.name, cell(r.side),
                          cell(r.purpose + (f" ({r.rule})" if r.rule else "")),
                          cell(r.request), cell(", ".join(str(o) for o in r.outcome)),
                          cell(r.after_action))
        console.print(rolls)
        for line in report.commitments:  # committed plans (docs/protocol.md 6.3)
            echo(f"plan {safe(line)}")
        if report.result:
            echo(f"result: {report.result}")
        echo(report.verdict())
        sys.exit(0 if report.clean else report.exit_code or 1)


@main.command("rebuild")
@click.argument("paths", nargs=-1, required=True, type=_EXISTING)
@click.option("--name", help="Name for the rebuilt game.")
@click.pass_context
def rebuild_cmd(ctx: click.Context, paths: tuple[Path, ...], name: str | None) -> None:
    """Make a lost save anew from the exchanged files and your key."""
    from pbem.audit import collect
    from pbem.session import rebuild

    aside: list[str] = []
    with handled(), progress_bar("rebuilding") as progress:
        game = rebuild(home_of(ctx), collect(list(paths)), name=name, progress=progress,
                       set_aside=aside)
    with handled():
        for line in aside:
            # file names come from the folder: no terminal control reaches the screen
            echo("set aside: " + "".join(c if c.isprintable() else "?" for c in line))
        echo(f"rebuilt {game.name} from {len(game.files)} files: {game.awaiting()}")


@main.command("selfplay")
@click.argument("engine_id", shell_complete=complete_engine)
@click.argument("scenario", shell_complete=complete_scenario)
@click.option("--seed", type=int, required=True)
@click.option("--dir", "directory", type=_FOLDER,
              required=True)
@click.option("--max-turns", type=int, help="Stop after this many game turns.")
@click.option("--option", "options", multiple=True, help="KEY=VALUE, repeatable.")
@click.option("--standing-orders", is_flag=True,
              help="Both bots answer in advance every decision the engine allows.")
@click.option("--dice", "dice_mode", type=click.Choice(["open", "sealed"]), default="open",
              show_default=True)
@click.option("--chain-length", type=int, default=DEFAULT_CHAIN, show_default=True,
              help="Dice links per chain generation (2..100000): a short one makes the "
                   "bots re-anchor.")
def selfplay_cmd(engine_id: str, scenario: str, seed: int, directory: Path,
                 max_turns: int | None, options: tuple[str, ...],
                 standing_orders: bool, dice_mode: str, chain_length: int) -> None:
    """Two random bots play a scenario through real files in DIR."""
    from pbem.selfplay import selfplay

    with handled():
        typed_names(engine_id, scenario)
    with handled(), progress_bar(f"selfplay {engine_id} {scenario}") as progress:
        result = selfplay(engine_id, scenario, seed, directory, max_turns=max_turns,
                          options=_parse_options(options),
                          on_file=lambda n: progress(n, 0),
                          standing_orders=standing_orders, dice_mode=dice_mode,
                          chain_length=chain_length)
        click.echo(result.line())
        sys.exit(1 if result.desyncs else 0)


def _pacing(fast: bool, step: bool, pace: float) -> Any:
    from pbem.play import Pacing

    return Pacing(pace=0.0 if fast else pace, fast=fast, step=step)


@main.command("play")
@click.argument("game_ref", required=False, shell_complete=complete_game)
@click.argument("files", nargs=-1, type=_EXISTING)
@click.option("--fast", is_flag=True, help="Tell the replay at once, no pauses.")
@click.option("--step", is_flag=True, help="Wait for Enter after each action of the replay.")
@click.option("--pace", type=float, default=0.8, show_default=True,
              help="Seconds between replayed events.")
@click.option("--yes", is_flag=True,
              help="Pin a new opponent's key without asking (you compared the fingerprint).")
@click.pass_context
def play_cmd(ctx: click.Context, game_ref: str | None, files: tuple[Path, ...], fast: bool,
             step: bool, pace: float, yes: bool) -> None:
    """Receive FILES, watch them replayed, then act at a prompt until the file seals.

    GAME may be omitted when the files name it; press Enter or 's' to skip a replay.
    """
    from pbem.play import Prompt, key_poller, receive_and_replay

    with handled():
        home = home_of(ctx)
        unlock(home)
        if game_ref and Path(game_ref).is_file() and not game_ref.endswith(".pbsave"):
            files = (Path(game_ref), *files)
            game_ref = None
        found = [(path, src, d) for path in files for src, d in _read_incoming(path)
                 if _screen(home, path, src, d, yes)]
        datas = [(src, d) for _, src, d in _by_sequence(found)]
        pacing = _pacing(fast, step, pace)
        with key_poller() as poller:
            reports = receive_and_replay(rich_console(), home, datas, pacing,
                                         poller.poll if poller.active else None)
        names = {r.game_name for r in reports}
        if game_ref is not None:
            chosen = home.game(game_ref).name
            for report in reports:
                if report.game_name != chosen:
                    echo_err(f"pbem: note: the file {report.seq} you gave is of game "
                             f"{report.game_name}, not {chosen}: it was imported into "
                             f"{report.game_name} (go on there: pbem play "
                             f"{report.game_name})")
        if game_ref is None:
            if len(names) == 1:
                game_ref = names.pop()
            else:
                mine = [g for g in home.games() if g.my_decision() is not None]
                if len(mine) != 1:
                    raise UsageError("name the game to play (pbem list shows them)")
                game_ref = mine[0].name
        game = home.game(game_ref)
        said = [(r.seq, r.message) for r in reports if r.message and r.game_name == game.name]
        Prompt(rich_console(), game, pacing=pacing, messages=said).run()


@main.command("replay")
@click.argument("game_ref", shell_complete=complete_game)
@click.option("--from", "start", type=int, default=2, show_default=True,
              help="First file to replay.")
@click.option("--fast", is_flag=True)
@click.option("--step", is_flag=True)
@click.option("--pace", type=float, default=0.8, show_default=True)
@click.option("--html", type=_FILE,
              help="Write the whole game as one self-contained replay page instead.")
@click.option("--referee", is_flag=True, help="With --html: everything (a finished game).")
@click.pass_context
def replay_cmd(ctx: click.Context, game_ref: str, start: int, fast: bool, step: bool,
               pace: float, html: Path | None, referee: bool) -> None:
    """The whole game, or from file --from on, replayed on your side's board."""
    from pbem.play import key_poller, replay_game

    with handled():
        game = home_of(ctx).game(game_ref)
        given = ctx.get_parameter_source("start") != click.core.ParameterSource.DEFAULT
        if given and not 0 <= start < len(game.files):  # a file not there: a wrong number
            raise UsageError(f"{game.name} has files 0..{len(game.files) - 1}, not {start}")
        if html:
            from pbem.web.cli import game_html

            echo(game_html(game, html, referee))
            return
        with key_poller() as poller:
            shown = replay_game(rich_console(), game, start=start, pacing=_pacing(fast, step, pace),
                                poll=poller.poll if poller.active else None)
        echo(f"replayed {shown} files of {game.name}")


@main.command("demo")
@click.option("--engine", "engine_id", shell_complete=complete_engine,
              help="Game to demonstrate (default: White Death).")
@click.option("--scenario", help="Scenario (default: the engine's first).")
@click.option("--files", type=int, default=6, show_default=True,
              help="How many turn files to exchange.")
@click.option("--fast", is_flag=True, help="No pauses.")
@click.option("--pace", type=float, default=0.9, show_default=True,
              help="Seconds a line of the fighting stays; the other pauses scale with it.")
@click.option("--dir", "directory", type=_FOLDER,
              help="Where the two homes and the transcript go (default: a new temp folder).")
def demo_cmd(engine_id: str | None, scenario: str | None, files: int, fast: bool,
             pace: float, directory: Path | None) -> None:
    """Two players, a real game, files exchanged and replayed, then an audit.

    At a terminal, a story of about two minutes (Enter or space cuts a wait short);
    piped, the same story in a couple of hundred lines without pauses."""
    import tempfile

    from pbem.play import demo, key_poller

    with handled():
        typed_names(engine_id, scenario)
        root = directory or Path(tempfile.mkdtemp(prefix="pbem-demo-"))
        root.mkdir(parents=True, exist_ok=True)
        with key_poller() as poller:
            code = demo(rich_console(), root, engine_id=engine_id, scenario=scenario,
                        files=files, pacing=_pacing(fast, False, pace),
                        poll=poller.poll if poller.active else None)
        sys.exit(code)


def _settle() -> None:
    """Take what start-up made out of the cyclic collector's way.

    A command is a short-lived process, and what its start-up made (modules, classes,
    functions, the click tree) lives until it exits.  The collector re-examined all of
    it at every full collection and once more at exit: about 18 million instructions of
    ``pbem status`` (issue 19, 300 -> 282 M).  :func:`gc.freeze` moves every object
    tracked now to a permanent generation that collections skip (objects made later are
    collected as before), and freezing again at exit lets the last collection skip the
    command's own objects too: the process ends with them.  A process that imports this
    module to run many commands (a test runner) freezes once, here."""
    gc.freeze()
    atexit.register(gc.freeze)


_settle()


if __name__ == "__main__":  # pragma: no cover
    main()
