"""The browser board's cost (issue 35.4): first state, a click's act, the page's size.

    python bench/bench_board.py [ENGINE SCENARIO] [--turns T] [--acts N] [--seed K]
                                [--rounds R] [--base TREE]

Two selfplay bots play T turns (default 1) of the scenario (default White Death's
Purkayev) through files; the board is then opened on the home whose decision it is, as
``pbem board`` does, and measured in this process, in CPU time (``time.process_time``):

* first state: the page's first ``/api/state`` on a fresh board (the save read, what
  arrived replayed, the dice log);
* act: one click, as the page does it: ``POST /api/act`` with a legal action, with the
  version of the state the page holds; when its answer carries the redraw (``"state"``)
  that is the click, else (a board before that) ``GET /api/state`` follows, as that
  page then asked.  Each route is called as the server calls it, its JSON made (the HTTP
  handling around it, the same for every request, is left out: one request less is not
  counted here).  Up to N clicks (default 10), until the file is sealed: their median,
  and their sum against the sum of the same clicks' apply and save below;
* over HTTP: the same game played again and the same clicks made through the board's
  own server on loopback, as the browser makes them (one connection kept open), and the
  CPU time of the server's thread answering each click summed (``time.thread_time``
  around each request it handles: reading the request, the checks, the route, the answer
  written), so the requests a click makes count, the HTTP handling of each included;
* apply: the engine's own apply of the same actions on a copy (concealed as ``act``
  conceals them, a committed plan's reveal included), the floor a click is compared with;
* next listing: the decision the click leaves, listed on that copy (its options and
  legal actions, as the click's redraw lists them), the engine's part of a click beyond
  its apply; with the apply and the save taken from the click, what the board itself
  adds (``board's own``);
* save: one save of the game (``Game.write``, as ``pbem act`` saves: signed, written
  atomically; the rollback mark where it moves, what ``pbem status`` reads kept in the
  data cache), after each click, on the game as the click left it; with twice the apply
  it is a click's target;
* save file: the same save's body signed and written atomically, and nothing beside it
  (no rollback mark, no cache entry): the one save the target allows, measured the same
  way in every checkout (``target (file)``);
* answer: the redraw as sent in full, the ``/api/state`` answer of a page that holds
  nothing yet (the median of 20, on the opening position), and the bytes a click's redraw
  sent;
* page: the bytes of the page, and of the page without its map's data (the SVG and the
  hex centers), which the 200 KB target is about.

The home's data cache is on, as ``pbem board`` has it (``--no-data-cache``: off, as this
script measured before): a save keeps there what ``pbem status`` reads of it, and the
dice chains keep links there.

``--valgrind``: the same clicks counted in instructions, which do not move with the
machine's load: the game is played once as above, then its board is opened three times in
a child process under valgrind's callgrind, which counts only what runs inside
``operator.call`` (``--toggle-collect``) and gives each such call its own count
(``--dump-after``): once with each click counted, once with the engine's apply of each
click's action on a copy, once with a save after each click (``Game.write`` of the game
loaded afresh, as above).  The medians give the click against 2x the apply plus one save,
the issue's target, on a busy machine (a save's system time, its fsyncs, is not
counted: the ratio reads above the CPU one).  Slow: a few minutes an engine and checkout.

``--rounds R`` plays the game R times (each time in this process, then over HTTP) and
pools the clicks: the same clicks again, for a steadier median on a busy machine.
``--base TREE`` measures another checkout (a ``git archive main`` of the base) in a fresh
process first, then this one: the same game (the bots' keys and dice follow from the
seed), one after the other in the same run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import operator
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
if "--tree" in sys.argv:  # the checkout measured (--base runs this script on the base)
    ROOT = Path(sys.argv[sys.argv.index("--tree") + 1]).resolve()
sys.path.insert(0, str(ROOT))

import pbem  # noqa: E402
from pbem import datacache  # noqa: E402
from pbem.atomic import write_atomic  # noqa: E402
from pbem.engine import Action, State  # noqa: E402
from pbem.envelope import seal  # noqa: E402
from pbem.selfplay import selfplay  # noqa: E402
from pbem.session import Game, Home, read_save  # noqa: E402
from pbem.web.server import ROUTES, Board, Handler, Request, serve  # noqa: E402

T = TypeVar("T")


def cpu_ms(fn: Callable[[], T]) -> tuple[float, T]:
    start = time.process_time()
    value = fn()
    return (time.process_time() - start) * 1000, value


def click(board: Board, text: str, have: Any) -> tuple[float, bytes, Any]:
    """One click as the page makes it: CPU ms, the bytes of the redraw it got, and the
    version of the state the page then holds."""
    act = ROUTES[("POST", "/api/act")]
    ms, answer = cpu_ms(lambda: act(board, Request("POST", "/api/act", {},
                                                   {"text": text, "have": have})))
    body = json.loads(answer.body)
    if not body.get("ok"):
        raise SystemExit(f"the board refused {text}: {body.get('error')}")
    if "state" in body:
        return ms, json.dumps(body["state"]).encode(), body["state"].get("version")
    redraw = ROUTES[("GET", "/api/state")]
    query = {} if have is None else {"have": [str(have)]}
    more, state = cpu_ms(lambda: redraw(board, Request("GET", "/api/state", query, {})))
    return ms + more, state.body, json.loads(state.body).get("version")


class Served:
    """The board served on loopback, the CPU time of each request its thread answered."""

    def __init__(self, board: Board) -> None:
        self.spent: list[float] = []
        real = Handler.handle_one_request
        spent = self.spent

        def timed(handler: Handler) -> None:
            start = time.thread_time()
            real(handler)
            if handler.command:  # not the empty read when the connection closes
                spent.append((time.thread_time() - start) * 1000)

        Handler.handle_one_request = timed  # type: ignore[method-assign]
        self.server = serve(board)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        port = self.server.server_address[1]
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {"Host": f"127.0.0.1:{port}",
                        "Cookie": f"{board.cookie_name}={board.token}"}

    def ask(self, method: str, path: str, body: Any = None) -> Any:
        headers = dict(self.headers)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        return json.loads(self.conn.getresponse().read())

    def click(self, text: str, have: Any) -> tuple[float, Any]:
        """A click as the page makes it: the server's CPU ms, the version it then holds."""
        self.spent.clear()
        answer = self.ask("POST", "/api/act", {"text": text, "have": have})
        if not answer.get("ok"):
            raise SystemExit(f"the board refused {text}: {answer.get('error')}")
        asked = 1
        if "state" in answer:
            have = answer["state"].get("version")
        else:
            query = "" if have is None else f"?have={have}"
            have = self.ask("GET", "/api/state" + query).get("version")
            asked = 2
        while len(self.spent) < asked:  # the server's thread ends its turn after answering
            time.sleep(0.001)
        return sum(self.spent), have

    def stop(self) -> None:
        self.conn.close()
        self.server.shutdown()
        self.server.server_close()


@dataclass
class Clicks:
    """What the clicks of one or more plays of the same game cost."""

    acts: list[float] = field(default_factory=list)
    over_http: list[float] = field(default_factory=list)
    applies: list[float] = field(default_factory=list)
    saves: list[float] = field(default_factory=list)
    listings: list[float] = field(default_factory=list)
    files: list[float] = field(default_factory=list)
    sent: list[int] = field(default_factory=list)


def played(game: Game) -> Action:
    """What a measured click plays: the first listed move, else the first action listed."""
    legal = game.state.legal_actions()
    return next((a for a in legal if a.notation().startswith("move")), legal[0])


def as_act_applies(game: Game, action: Action) -> tuple[State, Action]:
    """A copy of the game's position and ``action`` as 'act' applies it to it (a
    committed plan's reveal carries its salt)."""
    copy = game.state.clone()
    return copy, copy.conceal(copy.parse_action(action.notation()), game._commit_salt)


def play(args: argparse.Namespace, clicks: Clicks, http: bool,
         first: Callable[[Board, int], None] | None = None) -> None:
    """The game played by the bots, then up to N clicks on its board, made in this process
    or (``http``) through its server; ``first(board, files)`` sees the fresh board."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        result = selfplay(args.engine, args.scenario, args.seed, root, max_turns=args.turns)
        name = f"selfplay-{args.seed}"
        homes = [Home(root / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
        home = next(h for h in homes if h.game(name).my_decision() is not None)
        # the home's data cache, as 'pbem board' has it (pbem.cli.home_of): what a save
        # keeps for 'pbem status', the dice chains' kept links
        datacache.configure(None if args.no_data_cache else home.path / "cache")
        board = Board(home, name)
        if first is not None:
            first(board, result.files)
        answer = ROUTES[("GET", "/api/state")](board, Request("GET", "/api/state", {}, {}))
        have = json.loads(answer.body).get("version")
        served = Served(board) if http else None
        for _ in range(args.acts):
            game = board.game()
            if game.my_decision() is None:
                break
            action = played(game)
            copy, concealed = as_act_applies(game, action)
            start = time.process_time()
            copy.apply(concealed, side=game.side)
            applies = (time.process_time() - start) * 1000
            # the decision the click leaves, listed as its redraw lists it (the options,
            # and a listing's moves for its buttons)
            start = time.process_time()
            copy.decision()
            copy.legal_actions()
            listing = (time.process_time() - start) * 1000
            if served is not None:
                ms, have = served.click(action.notation(), have)
                clicks.over_http.append(ms)
                continue
            clicks.applies.append(applies)
            clicks.listings.append(listing)
            ms, body, have = click(board, action.notation(), have)
            clicks.acts.append(ms)
            clicks.sent.append(len(body))
            # one save of the game as the click left it (signed, written atomically): with
            # the apply, what a click may cost (issue 35: within 2x the apply plus one save)
            if board.game().my_decision() is not None:
                saver = home.game(name)
                clicks.saves.append(cpu_ms(saver.write)[0])
                # the save file alone, the same in every checkout: its body signed and
                # written atomically (temp, fsync, rename, fsync of the folder), nothing
                # written beside it (a rollback mark, a cache entry)
                _, saved = read_save(home, saver.path)
                scratch = saver.path.with_name(".bench-save-file")
                clicks.files.append(cpu_ms(lambda: write_atomic(
                    scratch, seal(home.identity(), "save", saved)))[0])  # noqa: B023
        if served is not None:
            served.stop()
        datacache.configure(None)


def fixture(args: argparse.Namespace, root: Path) -> None:
    """The bots' game under ``root``, as :func:`play` plays it."""
    selfplay(args.engine, args.scenario, args.seed, root, max_turns=args.turns)


def counted_child(args: argparse.Namespace, mode: str, root: Path) -> int:
    """Under callgrind (:func:`counted`): the clicks of :func:`play` on the game under
    ``root``, with what ``mode`` names run inside ``operator.call``, the one call that
    valgrind counts: each click (``click``), the engine's apply of each click's action on
    a copy (``apply``), or a save of the game as each click left it (``save``)."""
    name = f"selfplay-{args.seed}"
    homes = [Home(root / f"home-{label}", clock=lambda: 0) for label in ("a", "b")]
    home = next(h for h in homes if h.game(name).my_decision() is not None)
    datacache.configure(None if args.no_data_cache else home.path / "cache")
    board = Board(home, name)
    redraw = ROUTES[("GET", "/api/state")]
    have = json.loads(redraw(board, Request("GET", "/api/state", {}, {})).body).get("version")
    act = ROUTES[("POST", "/api/act")]
    for _ in range(args.acts):
        game = board.game()
        if game.my_decision() is None:
            break
        action = played(game)
        if mode == "apply":
            copy, concealed = as_act_applies(game, action)
            operator.call(copy.apply, concealed, side=game.side)
        request = Request("POST", "/api/act", {}, {"text": action.notation(), "have": have})
        answer = operator.call(act, board, request) if mode == "click" else act(board, request)
        body = json.loads(answer.body)
        if not body.get("ok") or "state" not in body:
            raise SystemExit(f"the board's click on {action.notation()} gave no redraw: "
                             f"{body.get('error')}")
        have = body["state"].get("version")
        if mode == "save" and board.game().my_decision() is not None:
            operator.call(home.game(name).write)
    datacache.configure(None)
    return 0


def child_env() -> dict[str, str]:
    """The children's environment: a player's Python keeps its bytecode (as bench_ir.py
    runs a command), and the same string hashes in every run."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def counted(args: argparse.Namespace, mode: str, game: Path, warm: bool = False) -> list[int]:
    """The instructions of each call :func:`counted_child` makes in ``mode``, on a copy of
    the game under ``game``, in a child process under callgrind.

    ``warm``: the same child run once without valgrind, nothing counted.  A module a click
    loads where it is first used is compiled in the first process that loads it (its
    bytecode and its dataclasses' records, kept beside it): on a tree just extracted that
    would be counted in a click, 1.1-1.3 M instructions more on Backhand Blow's median,
    once per tree, never on a player's machine after the first click."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "game"
        shutil.copytree(game, root)
        out = Path(tmp) / "callgrind.out"
        argv = [sys.executable, __file__, args.engine, args.scenario, "--acts", str(args.acts),
                "--seed", str(args.seed), "--tree", str(ROOT), "--count-child", mode,
                str(root)]
        if args.no_data_cache:
            argv.append("--no-data-cache")
        if warm:
            done = subprocess.run(argv, capture_output=True, text=True, env=child_env(),
                                  check=False)
            if done.returncode:
                raise SystemExit(f"the warm-up failed ({mode}): {done.stderr[-2000:]}")
            return []
        done = subprocess.run(["valgrind", "--tool=callgrind", "--toggle-collect=_operator_call",
                               "--dump-after=_operator_call", f"--callgrind-out-file={out}",
                               *argv], capture_output=True, text=True, env=child_env(),
                              check=False)
        if done.returncode:
            raise SystemExit(f"valgrind failed ({mode}): {done.stderr[-2000:]}")
        counts = []
        # one file per dump, numbered in order (the last, at exit, holds nothing counted)
        for path in sorted(Path(tmp).glob("callgrind.out.*"),
                           key=lambda p: int(p.name.rsplit(".", 1)[1])):
            for line in path.read_text().splitlines():
                if line.startswith("totals:"):
                    counts.append(int(line.split()[1]))
        return [c for c in counts if c]


def count_clicks(args: argparse.Namespace) -> None:
    """The ``--valgrind`` figures: the click, the apply and the save in instructions."""
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "game"
        fixture(args, game)
        for mode in ("click", "apply", "save"):
            counted(args, mode, game, warm=True)
        clicks, applies, saves = (counted(args, mode, game)
                                  for mode in ("click", "apply", "save"))
    click, apply, save = (statistics.median(c) / 1e6 for c in (clicks, applies, saves))
    print(f"instructions  click {click:.3f} M (median of {len(clicks)}), apply {apply:.3f} M, "
          f"save {save:.3f} M (callgrind): the click is {click / (2 * apply + save):.2f}x "
          "2x the apply plus one save", flush=True)


def measure(args: argparse.Namespace) -> int:
    clicks = Clicks()
    seen: dict[str, Any] = {}

    def opened(board: Board, files: int) -> None:
        redraw = ROUTES[("GET", "/api/state")]
        asked = Request("GET", "/api/state", {}, {})
        seen["first"] = cpu_ms(lambda: redraw(board, asked))[0]
        seen["page_ms"], page = cpu_ms(board.page)
        seen["size"] = len(page.encode())
        seen["map"] = len(json.dumps(board.map(board.game())))
        seen["files"] = files
        # the whole redraw on the opening position, once its history is made
        seen["answers"] = [cpu_ms(lambda: redraw(board, asked))[0] for _ in range(20)]
        seen["full"] = len(redraw(board, asked).body)

    for r in range(args.rounds):
        play(args, clicks, http=False, first=opened if r == 0 else None)
        play(args, clicks, http=True)
    tree = Path(pbem.__file__).resolve().parent.parent
    cache = "off" if args.no_data_cache else "on"
    print(f"board: {args.engine} {args.scenario} after {seen['files']} files "
          f"({args.turns} turns, seed {args.seed}), {args.rounds} rounds, data cache "
          f"{cache}, pbem of {tree}")
    print(f"first state   {seen['first']:8.1f} ms CPU   (page {seen['page_ms']:.1f} ms CPU)")
    acts, applies, saves = clicks.acts, clicks.applies, clicks.saves
    if acts and saves:
        apply, save = statistics.median(applies), statistics.median(saves)
        target = 2 * apply + save
        print(f"act + redraw  {statistics.median(acts):8.2f} ms CPU   median of "
              f"{len(acts)} clicks (max {max(acts):.1f}), as the page makes them")
        print(f"over HTTP     {statistics.median(clicks.over_http):8.2f} ms CPU   median of "
              f"{len(clicks.over_http)} clicks, the server's thread, HTTP included")
        print(f"engine apply  {apply:8.2f} ms CPU   median, the floor")
        listing = statistics.median(clicks.listings)
        print(f"next listing  {listing:8.2f} ms CPU   median: the decision the click leaves, "
              "listed on the applied copy")
        print(f"one save      {save:8.2f} ms CPU   median of {len(saves)} (Game.write, as "
              "'pbem act' saves)")
        file = statistics.median(clicks.files)
        print(f"save file     {file:8.2f} ms CPU   median: the save's body signed and written "
              "atomically, nothing beside it")
        print(f"board's own   {statistics.median(acts) - apply - listing - file:8.2f} ms CPU   "
              "the click's median less the apply, the listing and the save file: what the "
              "board adds (the redraw, the events' words, the save's check and what it "
              "writes beside the save)")
        print(f"target        {target:8.2f} ms CPU   2x the apply plus one save: the "
              f"click is {statistics.median(acts) / target:.2f}x it (summed over the "
              f"clicks: {sum(acts) / (2 * sum(applies) + save * len(acts)):.2f}x)")
        target = 2 * apply + file
        print(f"target (file) {target:8.2f} ms CPU   2x the apply plus the save file: the "
              f"click is {statistics.median(acts) / target:.2f}x it (summed over the "
              f"clicks: {sum(acts) / (2 * sum(applies) + file * len(acts)):.2f}x)")
        print(f"click answer  {statistics.median(clicks.sent) / 1024:8.1f} KB   median redraw "
              "sent per click")
    answers, size, map_bytes = seen["answers"], seen["size"], seen["map"]
    print(f"state answer  {statistics.median(answers):8.2f} ms CPU   median of "
          f"{len(answers)}: the whole redraw as a fresh page is sent it")
    print(f"page          {size / 1024:8.1f} KB   ({(size - map_bytes) / 1024:.1f} KB "
          f"without the map's data, {map_bytes / 1024:.1f} KB)")
    print(f"state JSON    {seen['full'] / 1024:8.1f} KB", flush=True)
    if args.valgrind:
        count_clicks(args)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engine", nargs="?", default="white-death")
    parser.add_argument("scenario", nargs="?", default="purkayev")
    parser.add_argument("--turns", type=int, default=1)
    parser.add_argument("--acts", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1,
                        help="play the game again R times and pool the clicks")
    parser.add_argument("--no-data-cache", action="store_true",
                        help="measure without the home's data cache ('pbem board' has it)")
    parser.add_argument("--base", type=Path,
                        help="another checkout, measured first in a fresh process")
    parser.add_argument("--valgrind", action="store_true",
                        help="count the clicks, applies and saves in instructions too")
    parser.add_argument("--count-only", action="store_true",
                        help="with --valgrind: the instruction counts alone, no CPU times")
    parser.add_argument("--tree", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--count-child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count_child is not None:
        return counted_child(args, args.count_child[0], Path(args.count_child[1]))
    if args.base is not None:
        argv = [a for a in sys.argv[1:] if a not in ("--base", str(args.base))]
        print("-- base", flush=True)
        rc = subprocess.call([sys.executable, __file__, *argv, "--tree", str(args.base)])
        if rc:
            return rc
        print("-- this checkout", flush=True)
    if args.count_only:
        count_clicks(args)
        return 0
    return measure(args)


if __name__ == "__main__":
    sys.exit(main())
