"""Two random bots play a scenario by writing and reading real files.

Each bot has its own home and identity under DIR; every file goes to DIR/files and is read
back from disk by the other side, so selfplay exercises exactly what two players do:
sign, seal, write, read, verify, replay, compare digests.  A desync stops the game and is
counted (it must be 0).  Choices come from :class:`pbem.testing.Chooser` (SHA-256 of the
seed and a counter), and the bots' keys and the game's nonce (hence every die) come from
the seed, so a run is reproduced by its seed on any machine.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pbem import history, orders
from pbem.atomic import write_atomic
from pbem.errors import DesyncError
from pbem.registry import get as get_engine
from pbem.session import DEFAULT_CHAIN, Game, Home
from pbem.testing import Chooser


@dataclass
class SelfplayResult:
    """What one self-played game made: its files, actions, rolls, result and final
    digest."""

    engine: str
    scenario: str
    files: int = 0
    actions: int = 0
    rolls: int = 0
    result: str = ""
    desyncs: int = 0
    seconds: float = 0.0
    digest: str = ""
    #: the records of the mover's file a cap left unsealed (its actions and rolls)
    unsealed: list[list[object]] = field(default_factory=list)

    def line(self) -> str:
        return (f"selfplay: {self.engine} {self.scenario} files={self.files} "
                f"actions={self.actions} rolls={self.rolls} result={self.result} "
                f"desyncs={self.desyncs} digest={self.digest[:16]} seconds={self.seconds:.2f}")


def selfplay(engine_id: str, scenario: str, seed: int, directory: Path, *,
             max_turns: int | None = None, max_actions: int | None = None,
             options: dict[str, str] | None = None,
             on_file: Callable[[int], None] | None = None,
             standing_orders: bool = False, dice_mode: str = "open",
             chain_length: int = DEFAULT_CHAIN,
             clock: Callable[[], float] = time.perf_counter) -> SelfplayResult:
    start = clock()
    engine = get_engine(engine_id)
    directory.mkdir(parents=True, exist_ok=True)
    files_dir = directory / "files"
    files_dir.mkdir(exist_ok=True)
    homes = []
    for label, name in (("a", "Bot A"), ("b", "Bot B")):
        home = Home(directory / f"home-{label}", clock=lambda: 0)
        home.keys.throwaway = True  # bots: their keys may live anywhere, even on Windows
        if not home.keys.exists():
            # keys and game nonce from the seed: the dice follow from them, so the same
            # seed replays the same game on any machine (bots' keys guard nothing)
            home.keys.create(name, f"bot-{label}@selfplay.invalid", None,
                             secret=_derive(seed, f"key {label}"))
        homes.append(home)
    creator, joiner = homes
    out = SelfplayResult(engine.id, scenario)
    game = creator.new_game(engine.id, scenario, engine.sides[0], options=options,
                            name=f"selfplay-{seed}", nonce=_derive(seed, "nonce"),
                            dice_mode=dice_mode, chain_length=chain_length)

    def ship(game: Game, seq: int) -> Path:
        _, data = game.file(seq)
        path = files_dir / f"{seq:05d}-{game.side}.pbem"
        write_atomic(path, data, 0o644)
        out.files += 1
        if on_file:
            on_file(out.files)
        return path

    path = ship(game, 0)
    other = joiner.join(path.read_bytes(), str(path), name=f"selfplay-{seed}")
    path = ship(other, 1)
    report = creator.receive(path.read_bytes(), str(path), loaded=game)
    if report.sealed is not None:
        path = ship(game, report.sealed)
        joiner.receive(path.read_bytes(), str(path), loaded=other)
    if standing_orders:
        # both bots answer in advance every decision the engine allows (pbem.orders): the
        # game then needs fewer files
        for g in (game, other):
            g.set_orders(orders.edit(engine, {}, all_kinds=True))
    choosers = {side: Chooser(f"{seed}/{side}") for side in engine.sides}
    # Each bot keeps its game in memory, as one long-running pbem would; every file still
    # goes through the disk and the full import (signature, chain, replay, digest), and
    # every change is saved.  The saves are loaded back and compared at the end.
    current = {creator: game, joiner: other}
    # --max-turns counts turns played: a scenario may start on turn 5 of the game
    last_turn = None if max_turns is None else game.state.turn_number() + max_turns - 1
    while True:
        first = game
        if first.result is not None:
            out.result = first.result.text
            break
        if last_turn is not None and first.state.turn_number() > last_turn:
            out.result = f"capped after {max_turns} turns"
            break
        if max_actions is not None and out.actions >= max_actions:
            out.result = f"capped after {max_actions} actions"
            break
        mover = next((h for h, g in current.items() if g.my_decision() is not None), None)
        if mover is None:
            raise RuntimeError(f"nobody can act: {first.awaiting()}")
        g = current[mover]
        chooser = choosers[g.side]
        sealed = None
        while sealed is None:
            action = chooser.pick(g.state.legal_actions())
            _, _, sealed = g.act(action.notation(), save=False)
            out.actions += 1
            if last_turn is not None and sealed is None and g.state.turn_number() > last_turn:
                break
            # a cap by actions keeps CI's golden games short whatever a turn costs
            if max_actions is not None and sealed is None and out.actions >= max_actions:
                break
        if sealed is None:
            g.write()
            out.unsealed = [list(r) for r in g.pending]
            out.result = (f"capped after {max_actions} actions"
                          if max_actions is not None and out.actions >= max_actions
                          else f"capped after {max_turns} turns")
            break
        try:
            # an import may seal a file at once (sealed dice: the receiver finalizes the
            # rolls and hands the pen back): it travels the same way
            sender = mover
            next_seq: int | None = sealed
            while next_seq is not None:
                path = ship(current[sender], next_seq)
                receiver = joiner if sender is creator else creator
                report = receiver.receive(path.read_bytes(), str(path),
                                          loaded=current[receiver])
                sender, next_seq = receiver, report.sealed
        except DesyncError:
            out.desyncs += 1
            out.result = "desync"
            break
    # both saves, loaded afresh, must hold the same verified position as the games in
    # memory (pending actions of a capped game are not part of it)
    final = {home.game(name).verifier.state.digest() for home, name in
             ((creator, game.name), (joiner, other.name))}
    final |= {g.verifier.state.digest() for g in current.values()}
    if len(final) != 1 and out.result != "desync":
        out.desyncs += 1
    out.rolls = sum(len(r) for r in _rolls(game))
    out.digest = next(iter(final)).hex()
    out.seconds = clock() - start
    return out


def _derive(seed: int, what: str) -> bytes:
    return hashlib.sha256(f"pbem selfplay/{seed}/{what}".encode()).digest()


def _rolls(game: Game) -> list[list[object]]:
    from pbem.audit import body_summary

    out = []
    for data in game.files[2:]:
        out.append([r for r in body_summary(data)["records"]
                    if isinstance(history.read(r), history.Rolled)])
    return out
