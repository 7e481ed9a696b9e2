"""Replay narration: what happened, told to one side, paced on the board.

The receiver of a turn file watches the sender's turn play out: the board redrawn as
events happen, with each event the receiver is entitled to see (``Event.visible``) told
in words.  Events an engine marked for the other side only (a hidden unit's move under
White Death's limited intelligence) are never narrated, not even as "something moved".

Pacing, skipping and stepping go through injectable functions (``sleep``, ``poll_key``,
``input_fn``) so that the same driver runs in a terminal and in a test with a fake clock.
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from pbem import history
from pbem.engine import ChanceRequest, Decision, Event, State, counter_text
from pbem.naming import agree, cites, named
from pbem.render.hexmap import fit_window, focus_hex
from pbem.view import BoardView

if TYPE_CHECKING:
    # rich loads where a terminal is drawn on, not for a replay page's frames (FrameCutter,
    # frames_from_records): its modules were about 150 M instructions of White Death's
    # 'audit --html' (issue 35)
    from rich.console import Console, ConsoleOptions, RenderResult

#: the event kinds the contract names, each with a style ``narrate.<kind>`` and a tag
KIND_TAGS: dict[str, str] = {
    "phase": "==",
    "move": "->",
    "attack": "!!",
    "barrage": "**",
    "roll": "d6",
    "loss": "xx",
    "retreat": "<-",
    "morale": "??",
    "info": "..",
}

#: kinds engines use beyond the contract's list, told in the style of the kind they mean
KIND_ALIASES: dict[str, str] = {
    "assault": "attack", "fire": "attack", "combat": "attack", "bombard": "barrage",
    "advance": "move", "rail": "move", "enter": "move", "setup": "move",
    "eliminated": "loss", "elimination": "loss", "step-loss": "loss",
    "rout": "morale", "rally": "morale", "dice": "roll", "draw": "roll",
    "turn": "phase", "impulse": "phase",
}

#: keys that skip a paced replay to its end, and that quit a stepped one
SKIP_KEYS = ("s", "\n", "\r", " ")
QUIT_KEYS = ("q",)


@dataclass(frozen=True)
class NarrationLine:
    """One event told to one side: a rich renderable with its kind's style."""

    kind: str
    text: str
    hexes: tuple[str, ...] = ()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.text import Text

        from pbem.render.theme import style as named_style

        kind = KIND_ALIASES.get(self.kind, self.kind)
        kind = kind if kind in KIND_TAGS else "info"
        line = Text()
        if kind == "phase":
            line.append(self.text, named_style(console, "narrate.phase"))
        else:
            line.append(f" {KIND_TAGS[kind]} ", named_style(console, f"narrate.{kind}"))
            line.append(self.text, named_style(console, f"narrate.{kind}"))
        if self.hexes:
            line.append(f"  ({', '.join(self.hexes)})", named_style(console, "narrate.prompt"))
        yield line


def narrate(events: Sequence[Event], side: str | None,
            view: BoardView | None = None) -> list[NarrationLine]:
    """The lines ``side`` may read for ``events``, in order; ``None`` is the referee.
    With ``view`` (the board after them, as ``side`` sees it) each unit an event names
    is named as its counter reads (:func:`counters_of`)."""
    counters = counters_of(view) if view is not None else {}
    return [NarrationLine(e.kind, named(e.text, counters, e.units), e.hexes)
            for e in events if e.visible(side)]


def counters_of(view: BoardView) -> dict[str, str]:
    """What each counter the view shows (and its side may identify) prints."""
    return {p.id: counter_text(p.id, p.name, p.label) for p in view.pieces if not p.hidden}


class DecisionPrompt:
    """What the side to act must decide, with its options and the rulebook default."""

    def __init__(self, decision: Decision) -> None:
        self.decision = decision

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.text import Text

        from pbem.render.theme import style as named_style

        d = self.decision
        head = Text()
        head.append(f"{d.side}: ", named_style(console, "narrate.header"))
        head.append(agree(d.prompt))
        if d.rule and not cites(d.prompt, d.rule):
            head.append(f"  ({d.rule})", named_style(console, "narrate.prompt"))
        yield head
        for i, option in enumerate(d.options, 1):
            line = Text(f"  {i:>2}. {option.notation()}")
            if d.default is not None and option == d.default:
                line.append("  (default)", named_style(console, "narrate.prompt"))
            yield line
        if d.default is not None and d.default not in d.options:
            yield Text(f"  default: {d.default.notation()}", named_style(console,
                                                                         "narrate.prompt"))


# --- frames from a file's records -----------------------------------------------------------


def roll_event(purpose: str, request: str, outcome: Sequence[object], *, name: str = "",
               rule: str = "") -> Event:
    """An event telling one roll: its name, the dice, the result, and what it was for.

    ``roll 17.3: 2d6 rolled 3+5 = 8 for CRT 3:1 against 2514 (Rule 14)``.  Dice are
    public in the files, so the event is visible to every side.
    """
    faces = [str(o) for o in outcome]
    ints = [o for o in outcome if isinstance(o, int) and not isinstance(o, bool)]
    if request.startswith("draw"):
        result = "drew " + ", ".join(faces)
    elif len(ints) == len(faces) > 1:
        result = f"rolled {'+'.join(faces)} = {sum(ints)}"
    else:
        result = "rolled " + ", ".join(faces)
    head = f"roll {name}: " if name else ""
    tail = f" ({rule})" if rule else ""
    return Event(f"{head}{request} {result} for {purpose}{tail}", "roll", rule=rule)


class FrameCutter:
    """Cuts a file's replay into frames as the records are applied: each action starts a
    frame, the rolls it leads to join it, and each frame carries ``side``'s view after
    its last record.  Told by :func:`frames_from_records`' replay on a copy, or by the
    verifier's own (:meth:`pbem.transcript.Verifier.add`'s ``watch``): a replay page made
    from the files needs the verifier's replay anyway, and a second one on a copy of the
    state was a third of the page's cost (issue 35 item 2).

    With ``tell_rolls`` every roll is told with its purpose (named ``seq.index`` when
    ``seq`` is given), before the events the engine reports for its result; when the
    engine tells a roll itself (an event of kind ``roll``), its words are kept and only
    the name is added."""

    def __init__(self, side: str | None, *, seq: int | None = None,
                 tell_rolls: bool = True) -> None:
        self.side, self.seq, self.tell_rolls = side, seq, tell_rolls
        self.frames: list[Frame] = []
        self._events: list[Event] = []
        self._started = False

    def action(self, state: State, text: str, ordered_by: str | None) -> None:
        if self._started:  # the frame before ends at the position before this action
            self.frames.append((state.view(self.side), self._events))
        self._events, self._started = [], True
        if ordered_by is not None:
            self._events.append(Event(f"by the {ordered_by} player's standing order: {text}",
                                      "info"))

    def acted(self, events: list[Event]) -> None:
        self._events += events

    def rolled(self, state: State, request: ChanceRequest, outcome: tuple[Any, ...],
               index: int, told: list[Event]) -> None:
        name = f"{self.seq}.{index}" if self.seq is not None else ""
        if self.tell_rolls and any(e.kind == "roll" for e in told):
            # the engine tells its own rolls: only give them their names
            told = [e.replace(text=f"roll {name}: {e.text}") if e.kind == "roll"
                    and name else e for e in told]
        elif self.tell_rolls:
            told = [roll_event(request.purpose, request.describe(), outcome, name=name,
                               rule=request.rule), *told]
        self._events += told
        self._started = True

    def finish(self, state: State) -> list[Frame]:
        """The frames, the last one ending at ``state`` (the position after the file)."""
        if self._started:
            self.frames.append((state.view(self.side), self._events))
            self._started = False
        return self.frames


def frames_from_records(state: State, records: Sequence[Sequence[Any]], side: str | None, *,
                        seq: int | None = None, tell_rolls: bool = True) -> list[Frame]:
    """Replay a file's records on a copy of ``state`` and cut them into replay frames
    (:class:`FrameCutter`).

    ``records`` are the session's ``["a", notation]`` (an action), ``["o", notation]``
    (the other side's standing order answering its decision) and ``["r", index,
    outcome]`` (a roll); ``state`` is the position before the first one and is left
    untouched.
    """
    work = state.clone()
    cut = FrameCutter(side, seq=seq, tell_rolls=tell_rolls)
    for record in history.read_all(records):
        if isinstance(record, history.Played):
            # the decider's side, taken before the action changes whose turn it is
            who = work.current_player() if isinstance(record, history.Ordered) else None
            cut.action(work, record.text, who)
            cut.acted(work.apply(record.text))
        else:
            request: ChanceRequest = work.chance_request()
            cut.rolled(work, request, record.outcome, record.index,
                       work.apply_outcome(record.outcome))
    return cut.finish(work)


# --- keys ------------------------------------------------------------------------------------


#: the second character Windows' console sends after ``\x00``/``\xe0`` for an arrow key
_WINDOWS_ARROWS = {"H": "up", "P": "down", "K": "left", "M": "right"}
_POSIX_ARROWS = {b"\x1b[A": "up", b"\x1b[B": "down", b"\x1b[C": "right", b"\x1b[D": "left"}


class KeyPoller:
    """Non-blocking single-key reads from a terminal, for "press a key to skip".

    Inside the ``with`` block :attr:`mode` says how keys are read:

    - ``"posix"``: a terminal on Linux or macOS, put in cbreak mode (``termios``) for the
      duration, so a key counts without Enter;
    - ``"windows"``: a Windows console, read with ``msvcrt.kbhit``/``getwch``, which need
      no mode change;
    - ``"line"``: neither (a pipe, a terminal emulator that is not a Windows console, a
      platform with no ``termios``): Enter-only.  :meth:`poll` answers ``None``, so a
      replay runs to its end (step mode still asks for Enter through ``input``), and
      :meth:`read` takes a line and answers its first character (Enter alone: ``"\n"``).

    :attr:`active` is true when single keys are read (the first two modes).
    """

    def __init__(self, fd: int | None = None, *,
                 line_input: Callable[[str], str] = input) -> None:
        self.fd = sys.stdin.fileno() if fd is None else fd
        self.line_input = line_input
        self._saved: list[Any] | None = None
        self.mode = "line"
        self.active = False
        self._entered = False

    def __enter__(self) -> KeyPoller:
        self._entered = True
        self.mode = "line"
        try:
            tty_fd = os.isatty(self.fd)
        except (OSError, ValueError):
            tty_fd = False
        if not tty_fd:
            pass  # a pipe, a file, no stdin: Enter-only
        elif sys.platform == "win32":
            # a console: msvcrt reads its keys as they come (mintty and the like are no
            # console to it, os.isatty says no there, and they stay Enter-only)
            with contextlib.suppress(ImportError):
                import msvcrt  # noqa: F401  (part of every CPython for Windows)

                self.mode = "windows"
        else:
            try:
                import termios
                import tty

                self._saved = termios.tcgetattr(self.fd)
                tty.setcbreak(self.fd)
                self.mode = "posix"
            except (ImportError, OSError, ValueError):
                self._saved = None
        self.active = self.mode != "line"
        return self

    def __exit__(self, *exc: object) -> None:
        if self._saved is not None and sys.platform != "win32":
            import termios

            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)
        self._saved = None
        self.active = False
        self._entered = False
        self.mode = "line"

    def read(self) -> str:
        """Wait for a key; arrow keys come back as ``"up"``, ``"down"``, ``"left"``,
        ``"right"`` and a lone Escape as ``"escape"``.  Outside the ``with`` block, or at
        the end of the input: ``"q"``."""
        if not self._entered:
            return "q"
        if self.mode == "windows":
            return self._read_windows()
        if self.mode == "posix":
            return self._read_posix()
        try:
            line = self.line_input("")
        except (EOFError, OSError, KeyboardInterrupt):
            return "q"
        return line.strip()[:1] or "\n"

    def poll(self) -> str | None:
        """The key pressed since the last poll, if any; never waits."""
        if self.mode == "windows" and sys.platform == "win32":
            import msvcrt

            return self._read_windows() if msvcrt.kbhit() else None
        if self.mode == "posix":
            with contextlib.suppress(OSError, ValueError):
                ready, _, _ = select.select([self.fd], [], [], 0)
                if ready:
                    data = os.read(self.fd, 1)
                    return data.decode("utf-8", "replace") if data else None
        return None

    def _read_posix(self) -> str:
        select.select([self.fd], [], [])
        data = os.read(self.fd, 1)
        if data == b"\x1b":
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            if not ready:
                return "escape"
            data += os.read(self.fd, 2)
            return _POSIX_ARROWS.get(data, "escape")
        return data.decode("utf-8", "replace")

    def _read_windows(self) -> str:
        if sys.platform != "win32":
            return "q"
        import msvcrt

        while True:
            key = msvcrt.getwch()
            if key in ("\x00", "\xe0"):
                # a function or arrow key: two characters; only arrows mean anything here
                name = _WINDOWS_ARROWS.get(msvcrt.getwch())
                if name:
                    return name
                continue
            if key == "\x1b":
                return "escape"
            # Enter is a carriage return in a Windows console, a line feed on POSIX
            return "\n" if key == "\r" else key


# --- the replay driver --------------------------------------------------------------------------

Frame = tuple[BoardView, Sequence[Event]]


@dataclass(frozen=True)
class ReplayResult:
    """How a replay went: frames shown with the board, whether skipped or quit."""

    frames: int
    boards: int
    lines: int
    skipped: bool
    quit: bool


def _event_hexes(view: BoardView, events: Sequence[Event], side: str | None) -> tuple[str, ...]:
    """Hexes to light up for a frame: the events' hexes and the hexes of their units."""
    on_map = {c.hex for c in view.cells}
    where = {p.id: p.location for p in view.pieces}
    found: list[str] = []
    for e in events:
        if not e.visible(side):
            continue
        for h in (*e.hexes, *(where.get(u, "") for u in e.units)):
            if h in on_map and h not in found:
                found.append(h)
    return tuple(found)


def replay(console: Console, frames: Sequence[Frame], *, pace: float = 0.8,
           fast: bool = False, step: bool = False,
           input_fn: Callable[[str], str] = input,
           sleep: Callable[[float], None] = time.sleep,
           poll_key: Callable[[], str | None] | None = None,
           side: str | None = None, zoom: int = 1, tick: float = 0.05,
           clear: bool | None = None, final: bool = True,
           draw_if: Callable[[Sequence[Event]], bool] | None = None) -> ReplayResult:
    """Play ``frames`` out on ``console``: each a board view and the events that led to it.

    Each frame draws the board with the events' hexes highlighted, then tells the events
    ``side`` may see (``side`` defaults to each view's own side), waiting ``pace`` seconds
    after each line.  ``fast`` tells everything at once and draws only the final board.
    A key from ``poll_key`` (any of Enter, space, ``s``) during a pause skips to the end:
    the remaining events are told without pauses or boards.  ``step`` waits for
    ``input_fn`` after every frame: Enter goes on, ``s`` skips to the end, ``q`` stops.
    ``final`` draws the last frame's board once more, without highlights, at the end.
    ``draw_if`` picks the frames whose board is drawn (default: all); the others are told,
    paced, under the board last drawn (the demo animates only the fighting).
    """
    from rich.rule import Rule
    from rich.text import Text

    from pbem.render.board import board_screen
    from pbem.render.theme import style as named_style

    if clear is None:
        clear = console.is_terminal and not fast
    skipped = quit_ = False
    boards = lines = 0

    def pause(seconds: float) -> bool:
        """Wait, watching for the skip key; True when the viewer asked to skip."""
        if poll_key is None:
            sleep(seconds)
            return False
        waited = 0.0
        while waited < seconds:
            key = poll_key()
            if key is not None and key.lower() in SKIP_KEYS:
                return True
            chunk = min(tick, seconds - waited)
            sleep(chunk)
            waited += chunk
        key = poll_key()
        return key is not None and key.lower() in SKIP_KEYS

    def draw(view: BoardView, highlights: tuple[str, ...], caption: str) -> None:
        nonlocal boards
        shown = replace(view, highlights=highlights)
        # a frame with no hex (a roll, a phase) stays where the action was, or opens on
        # the front: never on the map's empty first corner
        window = fit_window(view, console.width, _map_height(console), zoom=zoom,
                            center=highlights[0] if highlights else focus or focus_hex(view))
        if clear:
            console.clear()
        console.print(Rule(caption, style=named_style(console, "narrate.header")))
        console.print(board_screen(shown, window, zoom))
        boards += 1

    total = len(frames)
    # the caption counts the boards drawn, so a condensed replay reads 1/5, 2/5...
    boarded = total if draw_if is None else sum(1 for _, e in frames if draw_if(e))
    focus: str | None = None
    for index, (view, events) in enumerate(frames, 1):
        viewer = side if side is not None else view.side
        told = narrate(events, viewer, view)
        focus = next(iter(_event_hexes(view, events, viewer)), focus)
        live = not fast and not skipped
        if live and (draw_if is None or draw_if(events)):
            draw(view, _event_hexes(view, events, viewer), f"replay {boards + 1}/{boarded}")
        for line in told:
            console.print(line)
            lines += 1
            if live and not skipped and pause(pace):
                skipped = True
                console.print(Text("skipping to the end", named_style(console,
                                                                     "narrate.prompt")))
        if step and not fast and not skipped and index < total:
            answer = input_fn("Enter: next  s: skip to the end  q: stop ").strip().lower()
            if answer in QUIT_KEYS:
                quit_ = True
                break
            if answer == "s":
                skipped = True
    if final and frames and not quit_:
        view = frames[-1][0]
        if clear and (fast or skipped):
            console.clear()
        console.print(Rule("now", style=named_style(console, "narrate.header")))
        # the final board follows the action: the last hex an event named, else the
        # viewer's own forces, so a big map does not open on an empty corner
        cells = {c.hex for c in view.cells}
        if focus not in cells:
            focus = next((p.location for p in view.pieces
                          if p.side == (side or view.side) and p.location in cells), None)
        window = fit_window(view, console.width, _map_height(console), zoom=zoom,
                            center=focus)
        console.print(board_screen(view, window, zoom))
        boards += 1
    return ReplayResult(frames=total, boards=boards, lines=lines, skipped=skipped,
                        quit=quit_)


def _map_height(console: Console) -> int:
    """Lines the map may use: a terminal's height less title, status, key (two lines:
    every board has its key under it) and narration room; 40 lines when printing to a
    file (a log, a test), enough to follow the action without printing a 1,500-hex map
    whole at every step."""
    return max(12, console.height - 10) if console.is_terminal else 40


@contextlib.contextmanager
def terminal_keys(console: Console) -> Iterator[Callable[[], str | None] | None]:
    """A key poller for ``replay`` when the console is a terminal, else ``None``.

    ``with terminal_keys(console) as keys: replay(console, frames, poll_key=keys)``
    """
    if not console.is_terminal or not sys.stdin.isatty():
        yield None
        return
    with KeyPoller() as poller:
        yield poller.poll if poller.active else None


__all__ = [
    "KIND_TAGS",
    "DecisionPrompt",
    "Frame",
    "FrameCutter",
    "KeyPoller",
    "NarrationLine",
    "ReplayResult",
    "frames_from_records",
    "narrate",
    "replay",
    "roll_event",
    "terminal_keys",
]
