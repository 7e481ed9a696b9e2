"""A White Death position's counters (how a prompt, a listing and a file's events name
its units) are worked out unit by unit as they are asked
(``engines.white_death.state.Counters``), and all of them only when they are gone through
(issue 35): printing all 108 counters for a prompt that names no unit was 1.8 M
instructions of 'pbem legal'.  Asked one by one they must be the whole table's, for
every side and the referee, for every unit (on the map, in a box, hidden in an enemy
stack, an intrinsic garrison) and for words that are no unit, along seeded games (Rule
4.C: what a side may identify)."""

from __future__ import annotations

import pytest

from engines.white_death import ENGINE
from engines.white_death import state as state_module
from engines.white_death.state import WDState
from pbem.naming import prompt_named
from pbem.testing import Chooser

from .conftest import decisions

SIDES = ("soviet", "german", None)
NOT_UNITS = ("", "the", "Soviet", "soviet", "3901", "(now", "NoSuch/1", "1188/357x")


def _whole(state: WDState, side: str | None) -> dict[str, str]:
    return state_module.counters(state.pos, side, state.phase, state._by_hex(), state.udef)


@pytest.mark.parametrize(("scenario", "seed", "steps"), [
    ("purkayev", 1, 400), ("woehler", 2, 300), ("campaign", 3, 250)])
def test_a_counter_asked_is_the_whole_tables(scenario: str, seed: int, steps: int) -> None:
    state = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    choose = Chooser(f"counters-asked/{scenario}/{seed}")
    compared = hidden = 0
    for n in decisions(state, choose, steps):
        if n % 7 == 0:
            for side in SIDES:
                whole = _whole(state, side)
                asked = state.counters(side)
                for word in (*sorted(state.pos.units), *NOT_UNITS):
                    assert asked.get(word) == whole.get(word), (side, word)
                    assert (word in asked) == (word in whole), (side, word)
                    if word in whole:
                        assert asked[word] == whole[word]
                    else:
                        with pytest.raises(KeyError):
                            asked[word]
                    compared += 1
                hidden += sum(1 for u in state.pos.units if u not in whole)
                # gone through: the same counters, in the same order
                gone = state.counters(side)
                assert list(gone.items()) == list(whole.items()) and len(gone) == len(whole)
        state.apply(choose.pick(state.legal_actions()))
    assert compared > 2000 and hidden > 100, (compared, hidden)


def test_a_prompt_naming_no_unit_prints_no_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    state = ENGINE.new_state("purkayev", ENGINE.resolve_options({}))
    assert isinstance(state, WDState)
    whole = _whole(state, "soviet")
    unit = next(iter(whole))
    printed: list[str | None] = []
    plain = state_module.counters

    def counted(*args: object) -> dict[str, str]:
        printed.append(args[1])  # type: ignore[arg-type]
        return plain(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(state_module, "counters", counted)
    sides = ENGINE.sides
    prompt = "the Soviet player must allocate assault fire against 1 assault (now at 3901)"
    assert prompt_named(prompt, state.counters("soviet"), sides) == prompt
    named = prompt_named(f"{unit} sets up", state.counters("soviet"), sides)
    assert named.startswith(whole[unit]) or named.startswith(f"{unit} {whole[unit]}")
    assert printed == []  # no whole table printed for either
    assert dict(state.counters("german")) == _whole(state, "german")
    assert printed == ["german", "german"]  # gone through: the whole table, once
