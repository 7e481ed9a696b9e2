"""Sealed dice against their floor: the files sealed dice take, and the round trips forced.

    python bench/bench_sealed.py [--quick] [--engine ID ...] [--seeds 3] [--budget N]
                                 [--sealed-rules 1|2 ...]

With sealed dice (docs/protocol.md 6.2) a roll its asker's file stops at is resolved by the
opponent's next file; when the decision is then back with the asker, that reply holds
only the rolls, and the asker writes again: two files for one roll.  They are *forced*
only if the asker must see the result before deciding again.  The floor counts a rolls-
only reply as not forced (its two files saved) when

- ``free``: the asker's next file held no choice of its own (only decisions with one
  legal option, and the opponent's standing orders) before it passed the turn or ended
  at another roll: it only went on from the reply, so the two are one round trip at most
  (the one the next roll forces, counted there); or
- ``same``: every outcome of every roll the asker's file stopped at (and of the rolls
  those outcomes lead to) is enumerated, each followed through the asker's one-option
  decisions, and every branch reaches the same decision of the asker (side, kind,
  prompt, the same legal options): the asker decides the same whatever the roll gave.

The other rolls-only replies are ``forced``: some outcome leads elsewhere (another
decision, other options, the turn passing).

Each game is played in memory by the protocol's rules for who writes which file
(pbem.session's ``advance``: a sealed file ends at a roll its actions asked for; the
resolver's file opens with the rolls, ends at once if the decision is back with the asker,
and applies the asker's standing orders where they answer), with the deterministic choices
of pbem.testing's Chooser for both sides and the dice; the same seed gives the same game
on any machine.  Turn files only (not the invite and the accept).  Seeds 1-3 of one
scenario per engine (the short ones; ``--quick``: seed 1, and Backhand Blow's High Water
Mark capped).  A branch search larger than ``--budget`` positions counts as forced (the
floor is then an upper bound; the ``big`` column says how often).

``--sealed-rules 2`` plays the games under the invite's ``sealed`` 2 (docs/protocol.md
6.2.1): a decision with one legal option reached by a roll's result is taken by the
program, which saves the ``free`` round trips, so rules 2 should reach ``floor1``.
Without standing orders the games under rules 1 and 2 are the same games (checked by their
final digests); with orders they part (a decision an order answered in the opponent's file
is its own side's pick once that side writes the file).  Prints one row per engine, mode
and rules: the files; the floor and files / floor; ``floor1``, the files with only the
``free`` round trips saved; the rolls-only replies, ``free``, ``same``, ``forced``; ``big``,
enumerations over the budget (counted as forced); seconds.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem import orders  # noqa: E402
from pbem.engine import CHANCE, ChanceRequest, Engine, Outcome, State  # noqa: E402
from pbem.registry import get  # noqa: E402
from pbem.testing import Chooser  # noqa: E402

#: one scenario per engine: the short ones (a game in a few seconds to a minute)
SCENARIOS = {
    "white-death": "final-relief",
    "48th-panzer-korps": "first-day",
    "for-the-motherland": "4-uranus",
    "mortain": "counterattack",
    "backhand-blow": "high-water-mark",
}
#: --quick: files per game at most (Backhand Blow's games are long)
QUICK_FILES = 150


class TooMany(Exception):
    """The branches of a roll exceed the budget: counted as forced."""


@dataclass
class Count:
    files: int = 0
    #: files that ended at a roll the asker's actions asked for
    stops: int = 0
    #: replies that held only rolls (the decision was back with the asker)
    rolls_only: int = 0
    #: of those, the ones after which the asker's next file held no choice of its own
    #: (only decisions with one option, and orders): that file only went on from the reply
    free: int = 0
    #: ... the others whose every outcome leads to the same decision of the asker
    same: int = 0
    #: ... whose branches exceeded the budget (counted as forced)
    unknown: int = 0
    rolls: int = 0
    actions: int = 0
    result: str = ""
    digest: str = ""

    @property
    def forced(self) -> int:
        return self.rolls_only - self.free - self.same

    @property
    def floor(self) -> int:
        """The files with every round trip that is not forced saved."""
        return self.files - 2 * (self.free + self.same)

    @property
    def floor_one(self) -> int:
        """The files with only the round trips for one-option decisions saved."""
        return self.files - 2 * self.free

    def add(self, other: Count) -> None:
        for name in ("files", "stops", "rolls_only", "free", "same", "unknown", "rolls",
                     "actions"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def outcomes(request: ChanceRequest) -> Iterator[Outcome]:
    """Every outcome of ``request``, in a fixed order (dice: faces in lexical order;
    a draw: each ordered pick of distinct items, sorted)."""
    if request.kind == "dice":
        yield from itertools.product(*(range(1, size + 1) for size in request.dice))
        return
    left = dict(collections.Counter(request.contents))
    items = sorted(left)

    def picks(k: int) -> Iterator[tuple[str, ...]]:
        # distinct ordered picks without building them all: a cup of 60 chits is large
        if k == 0:
            yield ()
            return
        for item in items:
            if left[item]:
                left[item] -= 1
                for rest in picks(k - 1):
                    yield (item, *rest)
                left[item] += 1

    yield from picks(request.count)


#: what a roll is to its asker: ``free``, every outcome passes the turn or ends the game
#: (after decisions with one option at most); ``same``, every outcome leads to the same
#: decision of the asker (side, kind, prompt, options); ``forced``, the asker must see it
FREE, SAME, FORCED = "free", "same", "forced"


def classify(state: State, asker: str, budget: int) -> str:
    """What the rolls due now are to ``asker``, every outcome enumerated (and those of the
    rolls they lead to), each followed through the asker's decisions with one option."""
    seen = [0]
    leaves: set[tuple[str, ...]] = set()

    def leaf(s: State) -> tuple[str, ...]:
        while True:
            seen[0] += 1
            if seen[0] > budget:
                raise TooMany
            if s.is_terminal() or s.current_player() not in (asker, CHANCE):
                return ("pass",)
            if s.is_chance():
                return ("roll",)
            legal = s.legal_actions()
            if len(legal) != 1:
                d = s.decision()
                assert d is not None
                return ("decide", d.kind, d.prompt, *(a.notation() for a in legal))
            s.apply(legal[0], side=asker)

    def explore(s: State) -> bool:
        """Add the leaves under ``s``; ``True`` as soon as they differ (forced)."""
        for outcome in outcomes(s.chance_request()):
            seen[0] += 1  # a clone costs what a few positions do
            twin = s.clone()
            twin.apply_outcome(outcome)
            got = leaf(twin)
            if got == ("roll",):
                if explore(twin):
                    return True
                continue
            leaves.add(got)
            if len(leaves) > 1:
                return True
        return False

    if explore(state):
        return FORCED
    return FREE if leaves == {("pass",)} else SAME


def play(engine: Engine, scenario: str, seed: int, *, standing: bool, rules: int,
         budget: int, max_files: int | None, search: bool = True) -> Count:
    """One sealed game: its files, and (``search``) what each roll-ended file's rolls were
    to their asker."""
    state = engine.new_state(scenario, engine.resolve_options({}))
    state.sealed_dice = True
    state.sealed_rules = rules
    picks = {side: Chooser(f"{seed}/{side}") for side in engine.sides}
    dice = Chooser(f"{seed}/dice")
    ordered = orders.edit(engine, {}, all_kinds=True) if standing else {}
    # a side's orders hold from the end of its first file on (docs/protocol.md 6.1)
    in_force: dict[str, orders.Orders] = {}
    count = Count()
    other = {engine.sides[0]: engine.sides[1], engine.sides[1]: engine.sides[0]}
    player = state.current_player()
    writer = player if player in other else engine.sides[0]
    acted = False
    #: the writer chose among two or more options in this file
    chose = False
    # the stop the writer's file answers: (the asker, what its rolls were to it)
    answering: tuple[str, str] | None = None
    # what the rolls a rolls-only reply resolved were to the asker, judged when the
    # asker's next file ends: a file with no choice in it only went on from the reply,
    # and the two are one in the floor (a round trip forced once, not once a roll)
    reply: str | None = None

    def seal(next_writer: str) -> None:
        nonlocal writer, acted, chose, reply
        count.files += 1
        if ordered:
            in_force[writer] = ordered
        if reply is not None:
            if not chose:
                count.free += 1
            else:
                count.same += reply == SAME
                count.unknown += reply == "unknown"
            reply = None
        writer, acted, chose = next_writer, False, False

    while max_files is None or count.files < max_files:
        if state.is_terminal():
            if acted or answering is not None:
                seal(writer)
            result = state.result()
            count.result = result.text if result else ""
            break
        if state.is_chance():
            if acted:
                # the file ends at the roll its actions asked for (6.2)
                count.stops += 1
                try:
                    kind = classify(state, writer, budget) if search else ""
                except TooMany:
                    kind = "unknown"
                asker = writer
                seal(other[writer])
                answering = (asker, kind)
                continue
            while state.is_chance():
                state.apply_outcome(dice.outcome(state.chance_request()))
                count.rolls += 1
            continue
        due = orders.answer(state, writer, in_force)
        if due is not None:
            state.apply(due, side=other[writer], order=True)
            acted = True
            continue
        player = state.current_player()
        assert player is not None
        if player != writer:
            rolls_only = not acted and answering is not None and answering[0] == player
            kind = answering[1] if answering is not None else ""
            answering = None
            seal(player)
            if rolls_only:
                count.rolls_only += 1
                reply = kind
            continue
        answering = None
        legal = state.legal_actions()
        # a lone option costs no pick: the games under sealed rules 1 and 2 (which takes
        # some such options itself) are then the same games
        state.apply(legal[0] if len(legal) == 1 else picks[writer].pick(legal), side=writer)
        chose = chose or len(legal) > 1
        count.actions += 1
        acted = True
    else:
        count.result = f"capped at {max_files} files"
    count.digest = state.digest().hex()
    return count


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--engine", action="append", choices=sorted(SCENARIOS))
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--quick", action="store_true", help="seed 1 only, long games capped")
    p.add_argument("--budget", type=int, default=4000,
                   help="positions searched per roll before it counts as forced")
    p.add_argument("--sealed-rules", type=int, action="append", choices=(1, 2),
                   help="the invite's sealed rules to play under (default: both)")
    p.add_argument("-v", "--verbose", action="store_true", help="one line per game")
    args = p.parse_args()
    seeds = [1] if args.quick else list(range(1, args.seeds + 1))
    rules_list = args.sealed_rules or [1, 2]
    print(f"seeds {seeds[0]}-{seeds[-1]}; turn files summed over the seeds")
    print(f"{'engine':<18} {'scenario':<15} {'mode':<13} {'rules':>5} {'files':>5} "
          f"{'floor':>5} {'ratio':>5} {'floor1':>6} {'ratio1':>6} {'rolls-only':>10} "
          f"{'free':>4} {'same':>4} {'forced':>6} {'big':>3} {'secs':>5}")
    for engine_id in args.engine or list(SCENARIOS):
        engine = get(engine_id)
        scenario = SCENARIOS[engine_id]
        cap = QUICK_FILES if args.quick else None
        for standing in (False, True):
            mode = "sealed+orders" if standing else "sealed"
            # without orders the games are the same under both rules (a lone option costs
            # no pick): the floor is searched once, in the rules 1 games, and rules 2 must
            # reach floor1.  With orders they differ (a decision an order answered while
            # the opponent wrote may now be its own side's pick): each is searched
            floors: Count | None = None
            digests: list[str] = []
            for rules in rules_list:
                total = Count()
                start = time.perf_counter()
                for n, seed in enumerate(seeds):
                    one = play(engine, scenario, seed, standing=standing, rules=rules,
                               budget=args.budget, max_files=cap,
                               search=floors is None or standing)
                    if floors is None:
                        digests.append(one.digest)
                    elif digests[n] != one.digest and cap is None and not standing:
                        raise SystemExit(f"{engine_id} seed {seed}: the game under sealed "
                                         f"rules {rules} is not the rules 1 game")
                    if args.verbose:
                        print(f"  {engine_id} seed {seed} rules {rules} orders {standing}: "
                              f"files={one.files} rolls-only={one.rolls_only} "
                              f"free={one.free} same={one.same} big={one.unknown} "
                              f"rolls={one.rolls} actions={one.actions} {one.result}",
                              flush=True)
                    total.add(one)
                if floors is None or standing:
                    floors = total
                floor, floor1 = floors.floor, floors.floor_one
                print(f"{engine_id:<18} {scenario:<15} {mode:<13} {rules:>5} "
                      f"{total.files:>5} {floor:>5} {_ratio(total.files, floor)} "
                      f"{floor1:>6} {_ratio(total.files, floor1):>6} "
                      f"{total.rolls_only:>10} {floors.free:>4} {floors.same:>4} "
                      f"{floors.forced:>6} {floors.unknown:>3} "
                      f"{time.perf_counter() - start:>5.0f}", flush=True)


def _ratio(files: int, floor: int) -> str:
    return f"{files / floor:>4.2f}x" if floor else "    -"


if __name__ == "__main__":
    main()
