"""The browser board's cost (issue 35.4): first state, a click's act, the page's size.

    python bench/bench_board.py [ENGINE SCENARIO] [--turns T] [--acts N] [--seed K]

Two selfplay bots play T turns (default 1) of the scenario (default White Death's
Purkayev) through files; the board is then opened on the home whose decision it is, as
``pbem board`` does, and measured in this process, in CPU time (``time.process_time``):

* first state: the page's first ``/api/state`` on a fresh board (the save read, what
  arrived replayed, the dice log);
* act: one click, as the page does it: ``/api/act`` with a legal action, then
  ``/api/state`` to redraw; the median of N clicks (default 10);
* apply: the engine's own apply of the same actions on a copy, the floor a click is
  compared with;
* answer: the page's redraw as sent, the ``/api/state`` answer's JSON made from the
  state (the median of 20, on the position the clicks left);
* save: one save of the game (``Game.write``: signed, written atomically), which with
  twice the apply is a click's target;
* page: the bytes of the page, and of the page without its map's data (the SVG and the
  hex centers), which the 200 KB target is about.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.selfplay import selfplay  # noqa: E402
from pbem.session import Home  # noqa: E402
from pbem.web.server import ROUTES, Board, Request  # noqa: E402

T = TypeVar("T")


def cpu_ms(fn: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    value = fn()
    return (time.process_time() - start) * 1000, value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", nargs="?", default="white-death")
    parser.add_argument("scenario", nargs="?", default="purkayev")
    parser.add_argument("--turns", type=int, default=1)
    parser.add_argument("--acts", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        result = selfplay(args.engine, args.scenario, args.seed, root, max_turns=args.turns)
        name = f"selfplay-{args.seed}"
        homes = [Home(root / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
        home = next(h for h in homes if h.game(name).my_decision() is not None)
        board = Board(home, name)
        first, state = cpu_ms(board.state)
        page_ms, page = cpu_ms(board.page)
        map_bytes = len(json.dumps(board.map(board.game())))
        acts: list[float] = []
        applies: list[float] = []
        for _ in range(args.acts):
            game = board.game()
            if game.my_decision() is None:
                break
            # the first listed action that does not end the file (a click, not a seal)
            legal = game.state.legal_actions()
            action = next((a for a in legal if a.notation().startswith("move")), legal[0])
            copy = game.state.clone()
            start = time.process_time()
            copy.apply(action)
            applies.append((time.process_time() - start) * 1000)
            start = time.process_time()
            board.command("act", action.notation())  # the click
            board.state()  # the page redrawn
            acts.append((time.process_time() - start) * 1000)
        redraw = ROUTES[("GET", "/api/state")]
        asked = Request("GET", "/api/state", {}, {})
        answers = [cpu_ms(lambda: redraw(board, asked))[0] for _ in range(20)]
        # one save of the game as it stands (signed, written atomically): with the
        # apply, what a click may cost (issue 35: within 2x the apply plus one save)
        saves = [cpu_ms(home.game(name).write)[0] for _ in range(5)]
        size = len(page.encode())
        print(f"board: {args.engine} {args.scenario} after {result.files} files "
              f"({args.turns} turns, seed {args.seed})")
        print(f"first state   {first:8.1f} ms CPU   (page {page_ms:.1f} ms CPU)")
        if acts:
            print(f"act + state   {statistics.median(acts):8.1f} ms CPU   median of "
                  f"{len(acts)} clicks (max {max(acts):.1f})")
            print(f"engine apply  {statistics.median(applies):8.2f} ms CPU   median, the "
                  "floor")
            save = statistics.median(saves)
            print(f"one save      {save:8.2f} ms CPU   median of {len(saves)}: a click's "
                  f"target is 2x the apply plus one save, "
                  f"{2 * statistics.median(applies) + save:.2f} ms")
        print(f"state answer  {statistics.median(answers):8.2f} ms CPU   median of "
              f"{len(answers)}: the redraw as sent, state and its JSON")
        print(f"page          {size / 1024:8.1f} KB   ({(size - map_bytes) / 1024:.1f} KB "
              f"without the map's data, {map_bytes / 1024:.1f} KB)")
        print(f"state JSON    {len(json.dumps(state)) / 1024:8.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
