"""A hostile opponent signs malformed turn files with its real key.

Whatever the body holds (odd action texts, wrong record shapes, numbers out of range),
the receiver must answer with a named refusal (a PbemError) and keep its save byte for
byte: never a traceback, never a changed game.  Structure-aware fuzzing with hypothesis,
on every registered engine (the test engine included).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem import canonical
from pbem.envelope import seal
from pbem.errors import PbemError
from pbem.registry import engines, get
from pbem.session import Game, Home
from pbem.testing import Chooser, play_file

# every registered engine (tests/conftest.py adds the test engine), on its shortest
# scenario, as the contract suite (tests/test_contract.py) picks it
GAMES = [(eid, min(e.scenarios(), key=lambda s: s.turns[1] - s.turns[0]).id)
         for eid, e in engines().items()]


def _home(root: Path, name: str) -> Home:
    home = Home(root / name, clock=lambda: 1_700_000_000)
    home.keys.create(name, f"{name}@example.org", None,
                     secret=hashlib.sha256(f"hostile {name}".encode()).digest())
    return home


class Position:
    """A game a few files in; the sender's next file, not yet delivered, as the seed."""

    def __init__(self, root: Path, engine: str, scenario: str) -> None:
        self.a, self.b = _home(root, "a"), _home(root, "b")
        sides = get(engine).sides
        ga = self.a.new_game(engine, scenario, sides[0], name="g", nonce=bytes(32))
        gb = self.b.join(ga.files[0], "invite", name="g")
        report = self.a.receive(gb.files[1], "accept", loaded=ga)
        if report.sealed is not None:
            # the joiner's side acts first (48th Panzer Korps: the German sets up first):
            # the creator's first file reveals its link with no actions (protocol 5)
            self.b.receive(ga.file(report.sealed)[1], "first", loaded=gb)
        games: dict[Home, Game] = {self.a: ga, self.b: gb}
        chooser = Chooser(f"hostile {engine}")
        for n in range(5):
            mover = next(h for h, g in games.items() if g.my_decision() is not None)
            g = games[mover]
            sealed = play_file(g, chooser)
            data = g.file(sealed)[1]
            self.sender, self.receiver = mover, (self.b if mover is self.a else self.a)
            if n == 4:
                self.data = data
                break
            self.receiver.receive(data, "f", loaded=games[self.receiver])
        self.body = canonical.decode(canonical.decode(self.data)[5])
        self.save = self.receiver.game("g").path.read_bytes()
        self.actions = sorted({r[1] for r in self.body["records"] if r[0] == "a"})

    def deliver(self, body: dict[str, Any]) -> None:
        body = dict(body)
        kind = body.pop("kind")
        forged = seal(self.sender.identity(), kind, body)
        try:
            self.receiver.receive(forged, "hostile.pbem")
        except PbemError:
            assert self.receiver.game("g").path.read_bytes() == self.save
            return
        # accepted: then it was the genuine file (or one equivalent to it); the save is
        # put back on purpose, so the home's memory of its newer version goes too
        game = self.receiver.game("g")
        game.path.write_bytes(self.save)
        (game.record.dir / "version").unlink()


@pytest.fixture(scope="module", params=GAMES, ids=[g[0] for g in GAMES])
def position(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> Position:
    engine, scenario = request.param
    return Position(tmp_path_factory.mktemp(engine), engine, scenario)


WORDS = st.sampled_from(["move", "attack", "with", "to", "and", "air", "end", "take", "as",
                         "step", "retreat", "advance", "impulse", "fire", "at", "0101",
                         "9999", "-1", "", "A1", "D2", "1/1", "absorb", "pass", "keep",
                         "x" * 300, "é", "\x00", "0" * 40])
TEXT = st.one_of(st.text(max_size=40), st.lists(WORDS, max_size=8).map(" ".join))
LEAF = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1), TEXT,
                 st.binary(max_size=40))
VALUE = st.recursive(LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                   st.dictionaries(TEXT, inner, max_size=3)),
                     max_leaves=8)


@st.composite
def mutated(draw: st.DrawFn, position: Position) -> dict[str, Any]:
    body = canonical.decode(canonical.encode(position.body))
    records: list[Any] = body["records"]
    choice = draw(st.integers(0, 5))
    if choice == 0 and records:  # an action's text replaced
        i = draw(st.integers(0, len(records) - 1))
        records[i] = ["a", draw(TEXT)]
    elif choice == 1 and records:  # a genuine action from elsewhere in the file, misplaced
        i = draw(st.integers(0, len(records) - 1))
        records.insert(i, ["a", draw(st.sampled_from(position.actions or ["pass"]))])
    elif choice == 2:  # a record of any shape
        i = draw(st.integers(0, len(records)))
        records.insert(i, draw(st.lists(VALUE, max_size=4)))
    elif choice == 3 and records:  # a record dropped or duplicated
        i = draw(st.integers(0, len(records) - 1))
        if draw(st.booleans()):
            del records[i]
        else:
            records.insert(i, records[i])
    elif choice == 4:  # any field replaced by any value
        key = draw(st.sampled_from(sorted(body)))
        if key != "kind":
            body[key] = draw(VALUE)
    else:  # an order record or a standing-orders field of any shape
        if draw(st.booleans()):
            records.insert(draw(st.integers(0, len(records))), ["o", draw(TEXT)])
        else:
            body["orders"] = draw(st.one_of(VALUE, st.dictionaries(TEXT, TEXT, max_size=3)))
    return body


# more with PBEM_FUZZ_EXAMPLES=2000 (a long local run)
@settings(max_examples=int(os.environ.get("PBEM_FUZZ_EXAMPLES", "60")), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_a_hostile_body_is_refused_by_name_and_changes_nothing(position: Position,
                                                               data: st.DataObject) -> None:
    position.deliver(data.draw(mutated(position)))
