"""``pbem demo``: two made-up players, one real game, a few files exchanged and replayed
on screen as each receiver sees them, then a referee's audit of the transcript."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from pbem.atomic import write_atomic
from pbem.envelope import file_name
from pbem.errors import PbemError, UsageError
from pbem.play import Pacing, receive_and_replay
from pbem.render import board_screen, fit_window
from pbem.render.hexmap import focus_hex
from pbem.render.narrate import SKIP_KEYS
from pbem.session import Game, Home

#: how much more often the demo's players pick an action whose notation has these words;
#: random bots mostly shuffle units about and pass, which is dull to watch
DEMO_WEIGHTS = (
    (("assault", "attack", "fire", "barrage", "overrun", "declare", "advance"), 12),
    (("move", "retreat", "rail", "entrain"), 3),
)


def demo_pick(chooser: Any, actions: Sequence[Any]) -> Any:
    """A weighted pick: combat first, then movement, then ending a phase."""
    weights = []
    for action in actions:
        words = action.notation().split()
        weight = 1
        for keys, value in DEMO_WEIGHTS:
            if any(key in words or (words and words[0].startswith(key)) for key in keys):
                weight = value
                break
        weights.append(weight)
    ticket = chooser.below(sum(weights))
    for action, weight in zip(actions, weights, strict=True):
        if ticket < weight:
            return action
        ticket -= weight
    return actions[-1]

DEMO_ENGINES = (("white-death", None), ("for-the-motherland", None))
#: the demo's pace at a terminal: how long a line of the fighting stays before the next;
#: the reading pauses (the intro, a file sealed) and a file's cap scale with it
DEMO_PACE = 0.9
#: at most this long for one file's replay at the demo's pace
DEMO_FILE_SECONDS = 20.0
#: but a line of the fighting stays at least this long at the demo's pace: the cap made
#: a file of 42 lines go by at 0.48 s a line (the dice follow the demo's fresh keys)
DEMO_MIN_LINE = 0.5


def demo(console: Console, root: Path, *, engine_id: str | None = None,
         scenario: str | None = None, files: int = 6, pacing: Pacing | None = None,
         seed: int = 1942, poll: Callable[[], str | None] | None = None) -> int:
    """Two players, one game, a few exchanges replayed on screen, then a referee's audit.

    A story a newcomer can follow in about two minutes: the intro stays on screen long
    enough to read, each file is told once (as its receiver sees it replayed: the
    fighting, losses and rolls, the moves counted), and the end says what to type to
    start a real game.  Piped, it runs without pauses and draws one board at the end.
    ``poll`` (a terminal's key poller) lets Enter or space cut a pause short.
    """
    from pbem.audit import audit
    from pbem.registry import engines
    from pbem.testing import Chooser

    pacing = pacing or Pacing(pace=DEMO_PACE)
    reading = pacing.pace / DEMO_PACE
    pacing.max_seconds = pacing.max_seconds or DEMO_FILE_SECONDS * reading
    pacing.min_line = DEMO_MIN_LINE * reading
    pacing.condense = True
    if not console.is_terminal:
        # a log or a pipe: the story without the pauses and a board only at the end
        pacing.fast, pacing.boards = True, False

    def pause(seconds: float) -> None:
        """Time to read what was just said (none with --fast or without a terminal); a
        key from ``poll`` ends it: a quick reader need not wait."""
        if pacing.fast:
            return
        if poll is None:
            pacing.sleep(seconds)
            return
        waited = 0.0
        while waited < seconds:
            key = poll()
            if key is not None and key.lower() in SKIP_KEYS:
                return
            chunk = min(0.05, seconds - waited)
            pacing.sleep(chunk)
            waited += chunk
    installed = engines()
    if engine_id is None:
        engine_id = next((e for e, _ in DEMO_ENGINES if e in installed), None)
        if engine_id is None:
            engine_id = next(iter(installed), None)
    if engine_id is None:
        raise PbemError("no game engine is installed")
    if engine_id not in installed:
        raise UsageError(f"no engine {engine_id!r} is installed (engines: "
                         f"{', '.join(installed)})")
    engine = installed[engine_id]
    info = engine.scenarios()[0] if scenario is None else engine.scenario(scenario)
    console.rule("[bold]pbem demo")
    console.print(f"Two players, Erich and Ivan, play {engine.title} ({info.title}) by "
                  "passing signed files, as they would by email. Each has a home folder "
                  "of their own; everything below is real: keys, files, dice, replays.",
                  markup=False)
    if poll is not None:
        console.print("(Enter or space cuts a wait or a replay short; Ctrl-C stops the demo)",
                      markup=False)
    pause(6 * reading)
    homes = []
    for label, name in (("first", "Erich"), ("second", "Ivan")):
        home = Home(root / label)
        home.keys.throwaway = True  # made-up players: no privacy check on their keys
        home.keys.create(name, f"{name.lower()}@example.org", None)
        homes.append(home)
        console.print(f"{name}'s identity, fingerprint {home.card().fingerprint}",
                      markup=False)
    creator, joiner = homes
    side = engine.sides[1] if len(engine.sides) > 1 else engine.sides[0]
    game = creator.new_game(engine.id, info.id, side, name="demo")
    transcript = root / "transcript"
    transcript.mkdir()

    def keep(g: Game, seq: int) -> tuple[str, bytes]:
        data = g.file(seq)[1]
        path = transcript / file_name(g.game_id, seq, g.side)
        write_atomic(path, data, 0o644)
        return str(path), data

    console.print(f"\n{creator.card().name} invites {joiner.card().name} to {engine.title} "
                  f"({info.id}), playing {side}.", markup=False)
    source, data = keep(game, 0)
    joined = joiner.join(data, source, name="demo")
    console.print(f"{joiner.card().name} joins as {joined.side}: both copies pin the same "
                  "rules version and scenario data.", markup=False)
    console.print("From now on each turn file is signed by its sender, chained to the one "
                  "before, and replayed on the receiver's board; the dice come from both "
                  "players' hash chains, so neither can choose a roll.", markup=False)
    pause(9 * reading)
    source, data = keep(joined, 1)
    names = {creator: creator.card().name, joiner: joiner.card().name}

    def travel(sender: Home, seq: int) -> None:
        """File ``seq`` goes to the other player, who may seal a file of its own at once."""
        receiver = joiner if sender is creator else creator
        src, payload = keep(sender.game("demo"), seq)
        console.print(f"[dim]file {seq} travels to {names[receiver]} ({len(payload)} bytes, "
                      "signed)[/]")
        for report in receive_and_replay(console, receiver, [(src, payload)], pacing, poll,
                                         f"{names[receiver]}'s"):
            if report.sealed is not None:
                travel(receiver, report.sealed)

    for report in receive_and_replay(console, creator, [(source, data)], pacing, poll,
                                     f"{creator.card().name}'s"):
        if report.sealed is not None:
            travel(creator, report.sealed)
    chooser = Chooser(f"demo/{seed}")
    sent = 0
    while sent < files:
        current = {h: h.game("demo") for h in homes}
        if current[creator].result is not None:
            break
        mover = next((h for h, g in current.items() if g.my_decision() is not None), None)
        if mover is None:
            break
        g = current[mover]
        console.rule(f"{names[mover]} ({g.side}) acts")
        sealed = None
        count = dice = 0
        while sealed is None:
            decision = g.my_decision()
            assert decision is not None
            pick = demo_pick(chooser, g.state.legal_actions())
            _, rolls, sealed = g.act(pick.notation(), save=False)
            count += 1
            dice += len(rolls)
        # what happened is told once, below, as the receiver sees the file replayed
        console.print(f"{names[mover]} takes {count} actions ({dice} dice rolls) and the "
                      f"file seals: {g.awaiting()}", markup=False)
        pause(1.5 * reading)
        travel(mover, sealed)
        sent += 1
    console.rule("[bold]the referee's audit")
    audited = audit([(p.name, p.read_bytes()) for p in sorted(transcript.iterdir())])
    for row in audited.files:
        console.print(f"  file {row.seq}: {row.kind:6} {row.side:10} signature {row.signature}, "
                      f"chain {row.chain}, dice {row.dice}, replay {row.replay}", markup=False)
    console.print(f"  {len(audited.rolls)} rolls re-derived from the files alone", markup=False)
    console.print(f"[bold]{audited.verdict()}[/]")
    a, b = (h.game("demo").verifier.state.digest().hex()[:16] for h in homes)
    console.print(f"state digest: {names[creator]} {a}, {names[joiner]} {b}: "
                  f"{'identical' if a == b else 'DIFFERENT'}", markup=False)
    if not pacing.boards:
        last = homes[0].game("demo")
        view = last.state.view(last.side)
        console.rule(f"the board now, as {names[creator]} ({last.side}) sees it")
        console.print(board_screen(view, fit_window(view, console.width, 24,
                                                    center=focus_hex(view))))
    pbem = _pbem_command()
    console.rule("[bold]your turn")
    console.print(f"The transcript is in {transcript}; check it yourself: {pbem} audit "
                  f"{transcript} --roll {audited.rolls[0].name if audited.rolls else '2.0'}",
                  markup=False)
    console.print(f"Every action, the moves too, as {names[joiner]} saw them: {pbem} --home "
                  f"{joiner.path} replay demo", markup=False)
    # the route flow the guide teaches: the route is given once, at new and join, and the
    # watch carries every file after, so no file is named by hand again
    console.print("To play a real game (DIR: a folder your sync tool shares with your "
                  "opponent; or --email):", markup=False)
    console.print(f"  {pbem} id new YOUR-NAME --email you@example.org", markup=False)
    console.print(f"  {pbem} new {engine.id} {info.id} --side {side} --name mygame "
                  "--folder DIR", markup=False)
    console.print(f"  {pbem} join DIR/INVITE.pbem --folder DIR     (your opponent, with the "
                  "invite's file)", markup=False)
    console.print(f"  {pbem} watch     (each of you, left running: it brings and sends every "
                  "file)", markup=False)
    console.print(f"  {pbem} play mygame     (when the watch says it is your move)",
                  markup=False)
    if pbem != "pbem":
        console.print(f"(the pbem command is in {Path(pbem).parent}, which is not on your "
                      f"PATH: 'source {Path(pbem).parent}/activate' lets you type just "
                      "'pbem')", markup=False)
    return 0 if audited.clean and a == b else 1


def _pbem_command() -> str:
    """'pbem' when the shell finds it, else the full path of the one running now (a
    fresh venv's .venv/bin is not on PATH until activated)."""
    import os
    import shutil
    import sys

    here = Path(sys.executable).with_name("pbem")
    found = shutil.which("pbem")
    if found is not None and Path(found).resolve() == here.resolve():
        return "pbem"
    if not here.exists():
        return "pbem"
    try:
        near = os.path.relpath(here)
    except ValueError:  # another drive (Windows)
        return str(here)
    return near if not near.startswith("..") else str(here)
