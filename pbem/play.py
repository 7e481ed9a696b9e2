"""Playing at the keyboard: the replay of what arrived, then a prompt until the file seals.

White Death's telephone mode is the model: when a file arrives, the opponent's actions play
out on the receiver's board as though the opponent were there (only what the receiver may
see); then the receiver plays their part at a prompt until the opponent must decide, and
the program writes the signed file and says how to send it.  Every action is saved as it is
taken, so Ctrl-C or a closed terminal loses nothing.
"""

from __future__ import annotations

import contextlib
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from pbem import orders
from pbem.atomic import write_atomic
from pbem.audit import body_summary
from pbem.choices import Grouped, columns, count_words, folded, group, unit_table
from pbem.engine import Decision, Engine, Event, State
from pbem.envelope import file_name
from pbem.errors import (
    ActionSyntaxError,
    DuplicateFile,
    IllegalAction,
    PbemError,
    UsageError,
)
from pbem.grammar import Act, complete, hexes_of, names
from pbem.naming import named, prompt_named
from pbem.render import board_screen, fit_window
from pbem.render.hexmap import focus_hex
from pbem.render.narrate import (
    DecisionPrompt,
    KeyPoller,
    frames_from_records,
    replay,
)
from pbem.session import Game, Home, ReceiveReport
from pbem.text import block, safe
from pbem.transcript import Verifier
from pbem.view import BoardView

HELP = """\
commands:
  <action>          an action in the game's notation (Tab completes; 'legal' lists them);
                    a line that is an action is always the action, never a command below
  <number>          the action of that number in the list shown
  (Enter)           an empty line takes the default the list shows
  legal [WORD]      what you may do now, or only the actions naming a unit or hex
  show [HEX]        the board (centered on HEX)
  where [UNIT]      the board with the hexes UNIT (or the unit picked) may go to or act
                    on highlighted
  setup [FILE]      your whole set-up from a text, 'UNIT HEX' a line (no FILE: the text
                    of where your units stand now, to edit)
  undo              take back your last action (never past a die roll)
  status            turn, phase and what is awaited
  say TEXT          a message to your opponent, sent with this file
  orders [all|none|KIND[=POLICY]...]
                    standing orders: the questions you answer in advance (the rulebook's
                    default, or a policy the game names; no argument: list them), sent
                    with this file
  draw              offer a draw with this file (or accept the opponent's offer)
  resign            resign the game
  quit / exit       leave; your actions are saved and you can go on later
"""

#: the prompt's own words: an engine's action must never begin with one (the prompt
#: would shadow it); tests/cli/test_play.py checks every installed engine against these
PROMPT_WORDS = frozenset({"help", "?", "legal", "show", "where", "status", "undo", "say",
                          "orders", "draw", "resign", "quit", "exit", "setup"})
#: how many actions a decision may have and still be listed whole, numbered; past it
#: the prompt shows one line per unit and 'legal UNIT' (or Tab) lists that unit's
MENU_MAX = 30
#: the most lines a long decision's units take at the prompt (more go in columns)
SCREEN_UNITS = 32


@dataclass
class Pacing:
    """How fast a replay tells the game (seconds a line), and how much of it."""

    pace: float = 0.6
    fast: bool = False
    step: bool = False
    #: at most this long for one file's replay: a long turn is told faster, though never
    #: faster than ``min_line`` a line (a line of fighting must stay long enough to read)
    max_seconds: float | None = None
    min_line: float = 0.0
    #: tell only what matters (combat, losses, rolls, phases) and count the rest
    condense: bool = False
    #: draw the board after each file's replay
    boards: bool = True
    #: how a pause waits: tests pass one that records the pauses and returns at once
    sleep: Callable[[float], None] = time.sleep


#: what a condensed replay tells event by event (narrate's kinds, aliases included)
SIGNIFICANT = frozenset({"attack", "assault", "fire", "combat", "barrage", "bombard", "loss",
                         "eliminated", "elimination", "step-loss", "retreat", "morale", "rout",
                         "rally", "roll", "dice", "draw", "phase", "turn", "impulse"})


#: what a condensed replay draws the board for: the fighting and its dice, not a phase's
#: announcement or the count of moves (those are told under the board last drawn)
ANIMATED = SIGNIFICANT - {"phase", "turn", "impulse"}


def animated(events: Sequence[Event], side: str | None) -> bool:
    return any(e.kind in ANIMATED and e.visible(side) for e in events)


def condense(frames: Sequence[Any], side: str | None) -> list[Any]:
    """The frames with a run of ordinary ones (moves, mostly) folded into one that says
    how many there were: a newcomer watches the fighting, not 150 moves one by one."""
    out: list[Any] = []
    run: list[Any] = []

    def flush() -> None:
        if not run:
            return
        if len(run) == 1:
            out.append(run[0])
        else:
            out.append((run[-1][0], [Event(f"... {len(run)} more actions: moves and the "
                                           "like", "info")]))
        run.clear()

    for frame in frames:
        if any(e.kind in SIGNIFICANT and e.visible(side) for e in frame[1]):
            flush()
            out.append(frame)
        else:
            run.append(frame)
    flush()
    return out


def outbox_path(game: Game, seq: int) -> Path:
    """Where a sealed file is written for the player to send (inside the home)."""
    return game.home.path / "outbox" / file_name(game.game_id, seq, game.side)


def write_outbox(game: Game, seq: int) -> Path:
    path = outbox_path(game, seq)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, game.file(seq)[1], 0o644)
    return path


def file_frames(before: State, data: bytes, seq: int, side: str) -> list[Any]:
    """The replay frames of one turn file, as ``side`` may see them."""
    body = body_summary(data)
    if body.get("kind") != "turn":
        return []
    return frames_from_records(before, body["records"], side, seq=seq)


def show_frames(console: Console, frames: Sequence[Any], pacing: Pacing, side: str,
                poll: Callable[[], str | None] | None = None,
                input_fn: Callable[[str], str] = input) -> None:
    if not frames:
        return
    if pacing.condense:
        frames = condense(frames, side)
    pace = pacing.pace
    if pacing.max_seconds is not None:
        lines = sum(1 for _, events in frames for e in events if e.visible(side))
        pace = min(pace, max(pacing.max_seconds / max(lines, 1), min(pace, pacing.min_line)))
    replay(console, frames, pace=pace, fast=pacing.fast, step=pacing.step, side=side,
           poll_key=poll, input_fn=input_fn, final=pacing.boards, sleep=pacing.sleep,
           draw_if=(lambda events: animated(events, side)) if pacing.condense else None)


def receive_and_replay(console: Console, home: Home, datas: Sequence[tuple[str, bytes]],
                       pacing: Pacing, poll: Callable[[], str | None] | None = None,
                       whose: str = "your") -> list[ReceiveReport]:
    """Import each file, then play out what it did on the receiver's board.  ``whose``
    names the receiver's sealed file ('your', or "Erich's" in the demo's story)."""
    reports = []
    for source, data in datas:
        from pbem.transcript import load_envelope

        env = load_envelope(data, source)
        body = env.decode()
        game = home.game_by_id(body.get("game", b"")) if env.kind != "invite" else None
        before = game.verifier.state.clone() if game else None
        try:
            # the game loaded above serves the import too (one load per file, not three);
            # after a refused file it is dropped with the exception, the save untouched
            report = home.receive(data, source, loaded=game)
        except DuplicateFile as exc:
            console.print(f"[dim]{escape(str(exc))}[/]")
            continue
        reports.append(report)
        if game is None or game.name != report.game_name:
            game = home.game(report.game_name)
        console.rule(f"file {report.seq} from the {report.side} player")
        if report.message:
            console.print(f"[bold]message from your opponent:[/] "
                          f"{escape(block(report.message))}")
        if before is not None and report.kind == "turn":
            show_frames(console, file_frames(before, env.raw, report.seq, game.side), pacing,
                        game.side, poll)
        console.print(report.text, markup=False)
        if report.sealed is not None:
            path = write_outbox(game, report.sealed)
            console.print(f"{whose} file {report.sealed} was sealed at once ({game.awaiting()}); "
                          f"it is in {path}", markup=False)
            said = home.deliveries.get((game.game_id, report.sealed))
            if said is not None:
                console.print(safe(said), markup=False)
    return reports


def where(state: State, side: str, token: str) -> tuple[str, ...]:
    """The hexes the legal actions naming ``token`` (a unit or a hex) lead to: "Where".

    Engine-agnostic: any hex of the map such an action names counts (its typed hexes where
    the engine has a grammar, else its words), except the unit's own hex, so a move, an
    assault or a rail destination all light up.
    """
    view = state.view(side)
    cells = {c.hex for c in view.cells}
    here = {p.location for p in view.pieces if p.id == token or p.name == token}
    found: set[str] = set()
    for action in state.legal_actions():
        # by the action's typed units and hexes where the engine has a grammar (a bridge
        # 0507/0606 leads to both), else by the words of its text
        if token in names(action):
            found.update(h for h in hexes_of(action, cells.__contains__)
                         if h in cells and h not in here and h != token)
    return tuple(sorted(found))


def suggest(state: State, text: str) -> str:
    """'did you mean ...?' for a refused action: for a word that names nothing (no word of
    a legal action, no hex, no unit in sight), the nearest such word; for text no legal
    action shares its words with, the nearest action.  A well-formed action the rules
    refuse gets none: the rule's words say why."""
    import difflib

    if state.current_player() is None:
        return ""
    try:
        state.parse_action(text)
    except ActionSyntaxError as exc:
        # 'move 7K 0101' lacks a word: the refusal names the form, and "did you mean
        # '0711'" for the word that is there misleads
        if exc.miscounted:
            return ""
    except PbemError:
        pass
    legal = [a.notation() for a in state.legal_actions()]
    words = {w for a in legal for w in a.split()}
    view = state.view(state.current_player())
    named = {c.hex for c in view.cells} | {p.id for p in view.pieces if not p.hidden}
    # the engine's own verbs ('move' while only 'end movement' is legal) are words the
    # rules refuse now, not misspellings of another action's word
    verbs = set(state.engine.action_words)
    for word in text.split():
        if word not in words and word not in named and word not in verbs:
            near = difflib.get_close_matches(word, sorted(words | {p.id for p in view.pieces
                                                                   if not p.hidden}),
                                             n=1, cutoff=0.6)
            if near:
                return f"did you mean '{near[0]}'?"
    if any(set(text.split()) <= set(a.split()) | named for a in legal):
        return ""
    near = difflib.get_close_matches(text.strip(), legal, n=1, cutoff=0.6)
    return f"did you mean '{near[0]}'?" if near else ""


def describe_words(engine: Engine, actions: Sequence[str]) -> list[tuple[str, str]]:
    """Each first word among ``actions`` the engine's glossary explains
    (:attr:`pbem.engine.Engine.action_words`), with what it does and its rule."""
    glossary = engine.action_words
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for text in actions:
        verb = text.split()[0] if text.split() else ""
        if not verb or verb in seen:
            continue
        seen.add(verb)
        said = glossary.get(verb)
        if said is not None:
            out.append((verb, said))
    return out


def situation(game: Game) -> str:
    status = game.view().status
    parts = [f"[bold]{game.name}[/]", status] if status else [f"[bold]{game.name}[/]"]
    pending = len(game.pending_actions())
    if pending:
        parts.append(f"{count_words(pending, 'action')} in this file")
    return " | ".join(parts)


class Prompt:
    """The interactive loop for one game: act until the file seals or the player leaves."""

    def __init__(self, console: Console, game: Game, *,
                 input_fn: Callable[[str], str] = input, pacing: Pacing | None = None,
                 messages: Sequence[tuple[int, str]] = ()) -> None:
        self.console = console
        self.game = game
        #: the opponent's messages in the files just received, (file, text): the replay
        #: scrolls them away, so the prompt says them again
        self.messages = list(messages)
        self.input_fn = input_fn
        self.pacing = pacing or Pacing()
        #: the unit picked from a long decision's list (its actions are numbered next)
        self.focus: str | None = None
        #: the action words already explained this session
        self.explained: set[str] = set()
        #: the decisions (by prompt) an action was taken in this session
        self.acted_at: set[str] = set()

    def _complete(self, text: str, index: int) -> str | None:
        legal = self.game.state.legal_actions()
        # an engine with a grammar completes a word at a time (a unit, then its hexes);
        # one without, whole actions as before
        options = (complete(text, legal) if legal and isinstance(legal[0], Act)
                   else [a.notation() for a in legal])
        options += ["legal ", "show", "where ", "setup ", "undo", "status", "say ", "orders",
                    "draw", "resign", "quit", "help"]
        matches = [o for o in options if o.startswith(text)]
        return matches[index] if index < len(matches) else None

    def _install_completion(self) -> None:
        import sys

        if sys.platform == "win32":  # no readline there; the prompt works without completion
            return
        with contextlib.suppress(ImportError):
            import readline

            readline.set_completer(self._complete)
            readline.set_completer_delims("")
            readline.parse_and_bind("tab: complete")

    def show(self, focus: str | None = None) -> None:
        view: BoardView = self.game.view()
        if focus and not any(c.hex == focus for c in view.cells):
            self.console.print(f"no hex {focus} on this map", markup=False)
            return
        if focus is None and view.cells:
            focus = focus_hex(view, self.game.pending_actions())
        window = fit_window(view, self.console.width, 24, center=focus) if view.cells else None
        self.console.print(board_screen(view, window))

    def orders(self, words: list[str]) -> None:
        """List the standing orders the game allows, or change ours (pbem.orders)."""
        game = self.game
        if words:
            new = orders.edit(game.engine, game.orders_to_come(), all_kinds=words == ["all"],
                              none=words == ["none"],
                              set_kinds=() if words in (["all"], ["none"]) else tuple(words))
            game.set_orders(new)
            self.console.print(f"standing orders sent with this file: {orders.text(new)}",
                               markup=False)
            return
        for line in orders.listing(game.engine, game.orders_to_come(),
                                   game.verifier.orders.get(game.opponent_side, {})):
            self.console.print(f"  {line}", markup=False)

    def where(self, token: str) -> None:
        hexes = where(self.game.state, self.game.side, token)
        if not hexes:
            self.console.print(f"no legal action takes {token} anywhere now", markup=False)
            return
        view = replace(self.game.view(), highlights=hexes)
        window = fit_window(view, self.console.width, 24, center=hexes[0])
        self.console.print(board_screen(view, window))
        self.console.print(f"{token}: {' '.join(hexes)}", markup=False)

    def setup_board(self) -> None:
        """At a set-up decision, the board with the hexes the set-up may use lit: a
        set-up is made on the map, not from columns of hex numbers."""
        decision = self.game.my_decision()
        if decision is None or "setup" not in decision.kind:
            return
        view = self.game.view()
        cells = {c.hex for c in view.cells}
        hexes = tuple(sorted({h for a in self.game.state.legal_actions()
                              for h in hexes_of(a, cells.__contains__) if h in cells}))
        view = replace(view, highlights=hexes)
        window = fit_window(view, self.console.width, 24,
                            center=hexes[len(hexes) // 2] if hexes else focus_hex(view))
        self.console.print(board_screen(view, window))
        self.console.print(f"[dim]the lit hexes take a unit now; 'setup' gives the whole "
                           f"set-up as one text ({count_words(len(hexes), 'hex', 'hexes')} "
                           "lit)[/]")

    def setup(self, source: str) -> bool:
        """The whole set-up from the text in ``source`` (``pbem setup``); True when the
        file sealed.  Without ``source``, the text of where the units stand now."""
        from pbem.choices import describe_placements, plan_setup, read_placements

        game = self.game
        if not source:
            self.console.print(describe_placements(game.state, game.side), markup=False,
                               end="")
            self.console.print("(save it, edit it, and give it back: 'setup FILE')",
                               markup=False)
            return False
        path = Path(source).expanduser()
        try:
            text = path.read_bytes().decode("utf-8")
        except OSError as exc:
            raise UsageError(f"{source}: cannot read it ({exc.strerror})") from None
        except UnicodeDecodeError:
            raise UsageError(f"{source}: not UTF-8 text") from None
        texts = plan_setup(game.home.game(game.name).match, read_placements(text, source),
                           source)
        for action in texts:
            self.console.print(f"  {action}", markup=False)
            if self.act(action, quiet=True):
                return True
        self.console.print(f"{count_words(len(texts), 'unit')} placed", markup=False)
        self.setup_board()
        self.legal(None)
        return False

    def menu(self) -> list[str]:
        """The numbered list a bare number picks from: the whole legal list when short;
        when long, the units (a number picks the unit, then its actions are numbered)
        and the actions naming none; within a picked unit, its actions when few."""
        if self.game.my_decision() is None:
            return []
        actions = [a.notation() for a in self.game.state.legal_actions()]
        if len(actions) <= MENU_MAX:
            return actions
        grouped = self.grouped(actions)
        unit = grouped.find(self.focus) if self.focus else None
        if unit is not None:
            return list(unit.actions) if len(unit.actions) <= MENU_MAX else []
        return [u.unit for u in grouped.units] + list(grouped.others)

    def grouped(self, actions: Sequence[str]) -> Grouped:
        return group(self.game.state, self.game.side, actions)

    def default(self) -> str | None:
        """The decision's default, when the rules allow it now (Enter takes it)."""
        decision = self.game.my_decision()
        if decision is None or decision.default is None:
            return None
        text = decision.default.notation()
        legal = [a.notation() for a in self.game.state.legal_actions()]
        if text not in legal or self.throws_away(decision, text, legal):
            return None
        return text

    def throws_away(self, decision: Decision, text: str, legal: Sequence[str]) -> bool:
        """Enter would end a movement phase before any unit moved in it: no player
        means that by an empty line (the rulebook's default for a movement decision is
        to end it, and White Death's impulse would go by unspent)."""
        # the phase's end, not a step within one unit's move (48th Panzer Korps' 'stop')
        ends = decision.kind == "movement" or text.split()[0].startswith("end")
        if "move" not in decision.kind or not ends or decision.prompt in self.acted_at:
            return False
        grouped = self.grouped([text, *legal])
        return grouped.find(text) is None and not any(text in u.actions
                                                      for u in grouped.units) \
            and bool(grouped.units)

    def legal(self, word: str | None) -> None:
        decision = self.game.my_decision()
        if decision is None:
            self.console.print(self.game.awaiting(), markup=False)
            return
        actions = [a.notation() for a in self.game.state.legal_actions()]
        default = self.default()
        # the units the prompt names, as their counters read ("sets up 1/33 Armd 4-3-10")
        decision = decision.replace(prompt=prompt_named(
            decision.prompt, self.game.state.counters(self.game.side),
            self.game.state.engine.sides))
        grouped = self.grouped(actions) if len(actions) > MENU_MAX or word else None
        unit = grouped.find(word) if grouped is not None and word else None
        if word and unit is None:
            actions = [a for a in actions if word in a.split()]
            self.console.print(DecisionPrompt(decision.replace(options=())))
            if not actions:
                self.console.print(f"  no action names {word} now", markup=False)
            for line in folded(actions, self.console.width - 4, self.cells()):
                self.console.print(f"  {line}", markup=False)
            return
        if unit is not None:
            self.focus = unit.unit
        menu = self.menu()
        if len(actions) <= MENU_MAX and unit is None:
            self.console.print(DecisionPrompt(decision.replace(options=tuple(
                self.game.state.parse_action(t) for t in menu))))
            self.explain(actions)
            hint = "type a number to pick that action"
            if default is not None:
                hint += f"; Enter takes the default ({default})"
            self.console.print(f"  [dim]{escape(hint)}[/]")
            return
        assert grouped is not None
        focused = grouped.find(self.focus) if self.focus else None
        if focused is not None:
            self.console.print(f"{focused.title()}: "
                               f"{count_words(len(focused.actions), 'action')}", markup=False)
            if menu:
                for i, text in enumerate(menu, 1):
                    self.console.print(f"  {i:>2}. {text}", markup=False)
                hint = "type a number to pick that action"
            else:
                for line in folded(focused.actions, self.console.width - 4, self.cells()):
                    self.console.print(f"  {line}", markup=False)
                hint = "type the action (Tab completes it; 'where UNIT' shows the hexes)"
            self.explain(focused.actions)
            self.console.print(f"  [dim]{escape(hint)}; 'legal' lists the units again[/]")
            return
        self.console.print(DecisionPrompt(decision.replace(options=())))
        self.console.print(f"  {len(actions)} actions; by unit (a number or a unit picks "
                           "the unit, then its actions are listed):", markup=False)
        table = unit_table(grouped)
        numbered = [f"{i:>3}. {line}" for i, line in enumerate(table + list(grouped.others), 1)]
        for line in columns(numbered, self.console.width - 2, SCREEN_UNITS):
            self.console.print(f"  {line}", markup=False)
        self.explain(actions)
        hint = "or type an action (Tab completes it)"
        if default is not None:
            hint += f"; Enter takes the default ({default})"
        self.console.print(f"  [dim]{escape(hint)}[/]")

    def grouped_find(self, token: str) -> bool:
        """``token`` is a unit of ours some legal action names (and no action itself)."""
        actions = [a.notation() for a in self.game.state.legal_actions()]
        if token in actions or self.game.my_decision() is None:
            return False
        return self.grouped(actions).find(token) is not None

    def cells(self) -> frozenset[str]:
        return frozenset(c.hex for c in self.game.view().cells)

    def explain(self, actions: Sequence[str]) -> None:
        """The first time an action word is offered in this session, what it does and
        which rule (a newcomer reads 'fire 8/3 at ...' and must guess)."""
        words = [(v, t) for v, t in describe_words(self.game.engine, actions)
                 if v not in self.explained]
        for verb, text in words:
            self.explained.add(verb)
            self.console.print(f"  [dim]'{escape(verb)}': {escape(text)}[/]")

    def sealed(self, seq: int) -> None:
        path = write_outbox(self.game, seq)
        result = self.game.result
        if result is not None:
            self.console.print(f"[bold]game over:[/] {result.text}")
        else:
            self.console.print(f"[bold]{self.game.awaiting().capitalize()}.[/]")
        self.console.print(f"file {seq} is sealed and signed: {path}", markup=False)
        from pbem.transport.route import sealed_lines

        for line in sealed_lines(self.game, seq):
            self.console.print(line, markup=False)

    def waiting(self) -> None:
        """Not this side's decision: say whose it is, and, when this side's own file is
        sealed and has not left, say so and offer to send it (issue 32 item 3): both
        players would wait for each other otherwise."""
        from pbem.transport.route import deliver_file, turn_words, unsent

        game = self.game
        owed = unsent(game)
        if owed is None:
            self.console.print(turn_words(game), markup=False)
            return
        seq, route = owed
        self.console.print(f"your file {seq} of {game.name} is sealed but not sent: your "
                           f"opponent cannot answer it until it arrives", markup=False)
        if route is None:
            self.console.print(f"send it with: pbem send {game.name} --folder DIR (or "
                               f"--email, or -o FILE); 'pbem route {game.name} --folder DIR' "
                               f"has every later file sent by itself", markup=False)
            return
        try:
            answer = self.input_fn(safe(f"send it now by {route.words()}? [Y/n] ")).strip().lower()
        except (EOFError, KeyboardInterrupt):
            answer = "n"
        if answer not in ("", "y", "yes"):
            self.console.print(f"not sent: 'pbem send {game.name}' sends it", markup=False)
            return
        try:
            done = deliver_file(game, seq, game.file(seq)[1], route, once=True)
        except PbemError as exc:
            self.console.print(safe(f"not sent: {exc}"), markup=False)
            return
        self.console.print(safe(f"sent: {done.line}"), markup=False)

    def act(self, line: str, *, quiet: bool = False) -> bool:
        """Apply one action; True when it sealed the file.  ``quiet``: one of several
        (a set-up text), told without the listing that follows each."""
        game = self.game
        before = self.menu()
        asked = game.my_decision()
        events, rolls, seq = game.act(line)
        self.focus = None
        if asked is not None:
            self.acted_at.add(asked.prompt)
        counters = game.state.counters(game.side) if events else {}
        for event in events:
            if event.visible(game.side):
                self.console.print(f"  {named(event.text, counters, event.units)}",
                                   markup=False)
        for roll in rolls:
            outcome = ", ".join(str(o) for o in roll.outcome)
            self.console.print(f"  roll {roll.name}: {roll.purpose}: "
                               f"{roll.request} -> {outcome}", markup=False)
        if seq is not None:
            self.sealed(seq)
            return True
        if game.state.current_player() == game.side and not quiet:
            decision = game.my_decision()
            menu = self.menu()
            if decision is not None and "setup" in decision.kind and asked is not None \
                    and decision.prompt != asked.prompt:
                self.setup_board()  # the next unit to set up: on the map
                self.legal(None)
            elif menu and menu != before:
                self.legal(None)  # new numbers: show them before one is typed
            elif decision is not None and (asked is None or decision.kind != asked.kind):
                # a new decision (after 'impulse 4', the movement): its summary by unit
                # says what may be done; moves within it repeat only the prompt
                self.legal(None)
            elif decision is not None:
                self.console.print(f"[dim]{decision.prompt}[/]")
        return False

    def run(self) -> str:
        """Returns 'sealed', 'left' or 'waiting'."""
        game = self.game
        if game.my_decision() is None:
            self.waiting()
            return "waiting"
        self._install_completion()
        self.console.print(situation(game))
        for number, text in self.messages:
            self.console.print(f"message from your opponent (file {number}): {text}",
                               markup=False)
        self.setup_board()
        self.legal(None)
        while True:
            try:
                line = self.input_fn(f"{game.side}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print("\nleaving: your actions are saved; go on with "
                                   f"'pbem play {game.name}'", markup=False)
                return "left"
            if not line:
                default = self.default()
                if default is None:
                    decision = game.my_decision()
                    passing = decision.default.notation() if decision is not None and \
                        decision.default is not None else None
                    if passing is not None:
                        self.console.print(f"Enter does not {passing} before a unit has "
                                           f"moved: type '{passing}' to do so, or pick a "
                                           "unit", markup=False)
                        continue
                    self.console.print("no default here: type an action, a number, or "
                                       "'help'", markup=False)
                    continue
                self.console.print(f"default: {default}", markup=False)
                line = default
            elif line.isdigit():
                menu = self.menu()
                if not 1 <= int(line) <= len(menu):
                    self.console.print(f"refused: no action {line} in the list"
                                       + (f" (1-{len(menu)})" if menu else
                                          " ('legal UNIT' lists a unit's actions)"),
                                       markup=False)
                    continue
                line = menu[int(line) - 1]
                self.console.print(f"  {line}", markup=False)
            if " " not in line and self.grouped_find(line):
                self.legal(line)  # a unit, by number or by name: its actions next
                continue
            word, _, rest = line.partition(" ")
            rest = rest.strip()
            is_action = line in {a.notation() for a in game.state.legal_actions()}
            try:
                if is_action or word not in PROMPT_WORDS:
                    if self.act(line):
                        return "sealed"
                    continue
                if line in ("quit", "exit"):
                    self.console.print("your actions are saved; go on with "
                                       f"'pbem play {game.name}'", markup=False)
                    return "left"
                if word in ("help", "?"):
                    self.console.print(HELP, markup=False)
                elif word == "legal":
                    if not rest:
                        self.focus = None
                    self.legal(rest or None)
                elif word == "show":
                    self.show(rest or None)
                elif word == "where":
                    # a bare 'where' means the unit just picked from the list; with none
                    # picked, the command's form, not "no legal action takes  anywhere"
                    if rest or self.focus:
                        self.where(rest or self.focus or "")
                    else:
                        self.console.print("where UNIT: the board with the hexes UNIT may go "
                                           "to or act on lit ('legal' lists the units)",
                                           markup=False)
                elif word == "setup":
                    if self.setup(rest):
                        return "sealed"
                elif word == "status":
                    self.console.print(situation(game))
                    self.console.print(game.awaiting(), markup=False)
                elif word == "undo":
                    self.console.print(f"undone: {game.undo()}", markup=False)
                elif word == "say":
                    game.say(shlex.split(rest)[0] if rest.startswith(('"', "'")) else rest)
                    self.console.print("message kept for this file", markup=False)
                elif word == "orders":
                    self.orders(rest.split())
                elif word == "draw":
                    what, seq = game.draw()
                    self.console.print(f"draw {what}", markup=False)
                    if seq is not None:
                        self.sealed(seq)
                        return "sealed"
                elif word == "resign":
                    answer = self.input_fn("resign this game? [y/N] ").strip().lower()
                    if answer in ("y", "yes"):
                        self.sealed(game.resign())
                        return "sealed"
                else:
                    self.console.print(f"refused: {word} takes no arguments here (quit, "
                                       "exit: leave)", markup=False)
            except PbemError as exc:
                self.console.print(f"[red]refused:[/] {exc}")
                hint = suggest(game.state, line) if isinstance(
                    exc, IllegalAction | ActionSyntaxError) else ""
                if hint:
                    self.console.print(f"  {hint}", markup=False)
                if line in ("done", "q"):
                    self.console.print("  (to leave the prompt, type quit)", markup=False)


def replay_game(console: Console, game: Game, *, start: int = 2,
                pacing: Pacing | None = None, poll: Callable[[], str | None] | None = None,
                input_fn: Callable[[str], str] = input) -> int:
    """The whole game (or from file ``start`` on) replayed on this side's board."""
    from pbem.envelope import open_envelope

    pacing = pacing or Pacing()
    verifier = Verifier(game.engine, open_envelope(game.files[0]))
    shown = 0
    for seq, data in enumerate(game.files[1:], start=1):
        before = verifier.state.clone()
        verifier.add(open_envelope(data), game.files)
        if seq < start:
            continue
        frames = file_frames(before, data, seq, game.side)
        if frames:
            side = body_summary(data).get("side", "?")
            console.rule(f"file {seq}: the {side} player")
            show_frames(console, frames, pacing, game.side, poll, input_fn)
            shown += 1
    return shown


def key_poller() -> KeyPoller:
    """A skip-key poller on stdin, inert when stdin is not a real file (a pipe, a test)."""
    import sys

    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        fd = -1
    return KeyPoller(fd)
