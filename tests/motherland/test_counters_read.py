"""For the Motherland!'s counter texts (how each unit reads in a prompt or a listing:
``11K 3-7-2``, ``41Pz(KG) 2-3-6``) are written a unit in one pass, not through the
state's label(), printed() and pbem.engine.counter_text a unit: every legal and act names
the units by them (issue 35).  They must read exactly as the view's pieces print them
(pbem.engine.State.counters' default), Kampfgruppen, * armies and chit armies included."""

from __future__ import annotations

import pytest

from engines.motherland import MotherlandEngine
from engines.motherland.data import CHIT_TYPES, CORPS_TYPES
from engines.motherland.state import MotherlandState
from pbem.engine import view_counters
from pbem.testing import Chooser, decisions


def _refused(*_: object) -> str:
    raise AssertionError("a counter text read through label() or printed()")


@pytest.mark.parametrize(("scenario", "seed"), [("4-uranus", 3), ("3-fall-blau", 8)])
def test_8_5_2_counters_read_as_the_view_prints_them_in_one_pass(
        engine: MotherlandEngine, monkeypatch: pytest.MonkeyPatch, scenario: str,
        seed: int) -> None:
    st = engine.new_state(scenario, engine.resolve_options({}))
    assert isinstance(st, MotherlandState)
    seen: set[str] = set()
    for at in decisions(st, Chooser(seed), 700):
        assert isinstance(at, MotherlandState)
        st._cache.pop("counters", None)
        with monkeypatch.context() as m:
            m.setattr(MotherlandState, "label", _refused)
            m.setattr(MotherlandState, "printed", _refused)
            got = at.counters(None)
        want = view_counters(at.view(None))
        assert got == want, f"turn {at.turn}: {sorted(set(got.items()) ^ set(want.items()))}"
        for uid, u in at.pos.units.items():
            if uid in got and u.steps == 1:
                c = at.c(uid)
                if c.type in CORPS_TYPES or c.type == "allied_army":
                    seen.add("marked")
            if uid in got and at.c(uid).type in CHIT_TYPES:
                seen.add("chit")
    # the marked names (8.5.2) and chit armies (11.0) were read, not only full units
    assert seen == {"marked", "chit"}


@pytest.mark.parametrize(("scenario", "seed"), [("4-uranus", 5)])
def test_8_5_2_each_counter_asked_alone_reads_as_the_view_prints_it(
        engine: MotherlandEngine, scenario: str, seed: int) -> None:
    """An act names the few units its events name: each is worked out when asked, the
    same text as the view's (the partisans and Stalin too), and a unit not in play or no
    unit is not there; asking them builds no table of all 171 (issue 35: 1.1 M
    instructions of every act)."""
    st = engine.new_state(scenario, engine.resolve_options({}))
    for n, at in enumerate(decisions(st, Chooser(seed), 300)):
        if n % 25:
            continue
        assert isinstance(at, MotherlandState)
        at._cache.pop("counters", None)
        want = view_counters(at.view(None))
        counters = at.counters(None)
        asked = {key: counters.get(key) for key in [*at.pos.units, *want, "stalin",
                                                    "partisan:Nobody", "no-such-unit"]}
        assert "counters" not in at._cache
        assert {k: v for k, v in asked.items() if v is not None} == want
        assert all((k in counters) == (k in want) for k in asked)
        assert list(counters) == list(want)
