"""What the lobby's live updates cost: the stamp the page asks every two seconds, against
reading the list it stands for.

    .venv/bin/python bench/bench_lobby.py [--games N] [--reps R]

``pbem board`` with no game polls ``/api/stamp`` (stats of the saves, the delivery record
and the routes) and reads ``/api/lobby`` (``Home.statuses`` with ``sent_line``, as
``pbem status``) only when the stamp changed.  Both are timed here in this process, on a
home with ``--games`` White Death games (each joined, file 2 imported), as CPU
milliseconds per call (the median of ``--reps`` runs of 20 calls), and the list a second
time with the summaries already kept (the lobby's steady state).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pbem.session import Home
from pbem.web.lobby import Lobby


def home_with(root: Path, games: int) -> Home:
    a = Home(root / "a", clock=lambda: 1_800_000_000)
    b = Home(root / "b", clock=lambda: 1_800_000_000)
    a.keys.create("Anna", "a@example.invalid", None)
    b.keys.create("Boris", "b@example.invalid", None)
    for k in range(games):
        name = f"g{k:03d}"
        game = a.new_game("white-death", "purkayev", "german", name=name)
        joined = b.join(game.file(0)[1], "invite", name=name)
        sealed = a.receive(joined.file(1)[1], "accept").sealed
        if sealed is not None:
            b.receive(a.game(name).file(sealed)[1], "file")
    return b


def cpu_ms(fn: Callable[[], object], calls: int, reps: int) -> float:
    runs = []
    for _ in range(reps):
        start = time.process_time()
        for _ in range(calls):
            fn()
        runs.append((time.process_time() - start) * 1000 / calls)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        home = home_with(Path(root), args.games)
        lobby = Lobby(home)
        first = cpu_ms(lobby.games, 1, 1)
        stamp = cpu_ms(lobby.stamp, 20, args.reps)
        listing = cpu_ms(lobby.games, 20, args.reps)
    print(f"home of {args.games} games (White Death, file 2 imported)")
    print(f"  stamp (polled every 2 s):         {stamp:8.3f} ms CPU per call")
    print(f"  the list, summaries kept:         {listing:8.3f} ms CPU per call "
          f"({listing / stamp:.0f}x the stamp)")
    print(f"  the list, first read of the home: {first:8.3f} ms CPU")


if __name__ == "__main__":
    main()
