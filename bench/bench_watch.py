"""The one watcher's figures (issue 32 item 4): what one look costs, and whether memory
grows over a long run.

    python bench/bench_watch.py [--games 3] [--looks 2000]

Two homes play ``--games`` games of the test engine (skirmish, scenario long) to the end
through one shared folder, each home's :class:`pbem.transport.watcher.Watcher` doing the
carrying (no ``send``, no ``receive``).  Then Alice's watcher looks at the full folder
``--looks`` times more with nothing new (what a watch does for days between files), and
the script prints the time of a look (median, max) and the memory Python holds
(tracemalloc) after the first tenth of those looks and after all of them: a watch that
runs for days must not grow.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy"
sys.path.insert(0, str(TOY))
if "toy_engine:ENGINE" not in os.environ.get("PBEM_ENGINES", ""):
    os.environ["PBEM_ENGINES"] = ",".join(
        filter(None, [os.environ.get("PBEM_ENGINES", ""), "toy_engine:ENGINE"]))

from pbem.session import Home  # noqa: E402
from pbem.testing import Chooser  # noqa: E402
from pbem.transport.route import Route, set_route  # noqa: E402
from pbem.transport.watcher import Watcher  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--looks", type=int, default=2000,
                        help="idle looks after the games (a watch between files)")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-watch-"))
    folder = root / "shared"
    folder.mkdir()
    alice, bob = Home(root / "alice"), Home(root / "bob")
    alice.keys.create("Alice", "alice@pbem.test", None)
    bob.keys.create("Bob", "bob@pbem.test", None)
    chooser = Chooser("bench-watch")
    names = [f"g{i}" for i in range(args.games)]
    for name in names:
        game = alice.new_game("skirmish", "long", "red", name=name)
        set_route(alice.path, game.game_id, Route("folder", str(folder)))
        joined = bob.join(game.files[0], "invite", name=name)
        set_route(bob.path, joined.game_id, Route("folder", str(folder)))
        from pbem.transport.route import deliver_file

        deliver_file(joined, 1, joined.files[1], Route("folder", str(folder)))
    quiet: list[str] = []
    watchers = [Watcher(h, say=quiet.append, show=lambda o: None,
                        confirm=lambda info, card: True) for h in (alice, bob)]
    start = time.perf_counter()
    while any(alice.game(n).result is None for n in names):
        for home in (alice, bob):
            for name in names:
                game = home.game(name)
                while game.my_decision() is not None:
                    game.act(chooser.pick(game.state.legal_actions()).notation())
        for w in watchers:
            w.look()
    played = time.perf_counter() - start
    files = len(list(folder.glob("*.pbem")))
    assert all(alice.game(n).files == bob.game(n).files for n in names)
    print(f"{args.games} games to the end through the watchers: {files} files in the "
          f"folder, {played:.1f} s")
    watcher = watchers[0]
    tracemalloc.start()
    times = []
    first = args.looks // 10
    snap1 = None
    for i in range(args.looks):
        t = time.perf_counter()
        watcher.look()
        times.append(time.perf_counter() - t)
        if i + 1 == first:
            gc.collect()  # what is still held, not the cycles the collector has not met yet
            snap1 = tracemalloc.take_snapshot()
    gc.collect()
    snap2 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    assert snap1 is not None
    # tracemalloc's own records, and this script's list of times, are no part of the watch
    mine = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, __file__)]
    snap1, snap2 = snap1.filter_traces(mine), snap2.filter_traces(mine)
    held1 = sum(s.size for s in snap1.statistics("filename"))
    held2 = sum(s.size for s in snap2.statistics("filename"))
    print(f"idle look over {files} files ({args.games} routes): median "
          f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms")
    print(f"memory held after {first} looks: {held1 / 1024:.0f} KiB; after "
          f"{args.looks}: {held2 / 1024:.0f} KiB ({(held2 - held1) / 1024:+.1f} KiB)")

if __name__ == "__main__":
    main()
