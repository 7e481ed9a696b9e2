"""A retreat move is checked by the rule alone (``RetreatChoice.check``: 8.6, 8.6.1),
without listing every group's hexes, and accepts and refuses exactly what the runtime's
check does (listed, or accepted as a part of a group; refused in why_not's words): along
seeded games, every listed move and many near misses (issue 35: an act listed a retreat
twice, for its own state and for its verifier's)."""

from __future__ import annotations

from itertools import combinations

import pytest

from engines.motherland import MotherlandEngine
from engines.motherland.notation import RETREAT, parse
from engines.motherland.state import MotherlandState
from engines.motherland.steps import attack as combat_steps
from pbem.engine import Action
from pbem.errors import IllegalAction
from pbem.steps import Choice
from pbem.testing import Chooser, decisions


def verdict(check: object, s: MotherlandState,
            action: Action) -> tuple[str, str | None] | None:
    frame = s.stack[-1]
    step = s.steps[frame.step]
    assert isinstance(step, Choice)
    try:
        if check is None:
            step.check(s, frame.args, action)
        else:
            Choice.check(step, s, frame.args, action)
    except IllegalAction as exc:
        return str(exc), exc.rule
    return None


def near_misses(s: MotherlandState, listed: list[Action]) -> list[Action]:
    """Moves of the units listed into every hex within two of them, of parts of each
    group, with a unit that has no retreat to make, and the other answers a player might
    send."""
    out: list[Action] = []
    frame = s.stack[-1]
    movers = sorted(frame.args.left)
    grid = s.data.hexmap.grid
    for a in listed:
        units = list(a.words("units"))  # type: ignore[attr-defined]
        around = sorted(grid.within(s.u(units[0]).hex, 2))
        for n in range(1, len(units) + 1):
            for part in combinations(units, n):
                out += [RETREAT(part, h) for h in around]
        others = sorted(uid for uid in s.units_at(s.u(units[0]).hex) if uid not in units)
        others += [uid for uid in s.on_map() if uid not in movers][:3]
        out += [RETREAT((*units, o), a.text("hex")) for o in others]  # type: ignore[attr-defined]
    hexes = {a.text("hex") for a in listed}  # type: ignore[attr-defined]
    out += [parse(t) for t in ("end combat", "end advance", f"lose {movers[0]}",
                               "take D1 as 0 step 1 retreat",
                               *(f"advance {movers[0]} {h}" for h in sorted(hexes)))]
    return out


def test_8_6_the_rule_alone_checks_a_retreat_as_the_listing_does(
        engine: MotherlandEngine) -> None:
    seen = compared = 0
    for seed in range(1, 5):
        s = engine.new_state("4-uranus")
        assert isinstance(s, MotherlandState)
        for at in decisions(s, Chooser(f"retreat-check/{seed}"), 500):
            assert isinstance(at, MotherlandState)
            decision = at.decision()
            if decision is None or decision.kind != "retreat-choice":
                continue
            seen += 1
            listed = at.legal_actions()
            for action in listed:
                assert verdict(None, at, action) is None
            for action in near_misses(at, listed):
                assert verdict(None, at, action) == verdict(Choice, at, action), action
                compared += 1
    assert seen >= 8 and compared >= 500


def test_8_6_checking_a_retreat_lists_no_retreat(engine: MotherlandEngine,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The move given is looked up by the rule, the options never listed: an act and its
    verifier's replay each check the move once."""
    s = engine.new_state("4-uranus")
    for at in decisions(s, Chooser("retreat-check/1"), 500):
        decision = at.decision()
        if decision is not None and decision.kind == "retreat-choice":
            break
    else:
        raise AssertionError("no retreat in 500 steps")
    assert isinstance(at, MotherlandState)
    listed = at.legal_actions()
    fresh = at.clone()
    assert isinstance(fresh, MotherlandState)

    def listing(*_: object) -> list[Action]:
        raise AssertionError("a retreat was listed to check one move")

    monkeypatch.setattr(combat_steps, "retreat_options", listing)
    for action in listed:
        assert verdict(None, fresh, action) is None
    fresh.apply(listed[0])


def kit_search(s: MotherlandState, units: list[str], center: str) -> list[str]:
    """The group's hexes by the kit's retreat search over the whole group at once: one
    hex farther from ``center``, the group's hexside and 8.6.1 class rules applied to the
    group as a whole (any unit out of supply, any Railroad Gun)."""
    from engines.hexkit.retreat import retreat_options
    from engines.motherland.const import BLOCKING_SIDES, other
    from engines.motherland.terrain import may_enter_country, terrain_cost

    side = s.c(units[0]).side
    oos = any(s.u(x).supply == "out" for x in units)
    gun = any(s.c(x).type == "railroad_gun" for x in units)

    def rank(_path: tuple[str, ...], n: str) -> int | None:
        if s.has_enemy(n, side):
            return None
        if any(terrain_cost(s, x, n) is None or not may_enter_country(s, x, n)
               for x in units):
            return None
        friend = s.has_friend(n, side)
        z = s.in_zoc(other(side), n)
        if oos and z and not friend:
            return None
        return 0 if not z and not friend else 1 if not z else 2 if friend else 3

    def may_cross(x: str, y: str) -> bool:
        if s.data.side_features(x, y) & (BLOCKING_SIDES | {"frozen_access"}):
            return False
        return not gun or y in s.data.rail.get(x, ())

    found = retreat_options(s.data.hexmap, s.u(units[0]).hex, 1, rank, away_from=center,
                            may_cross=may_cross)
    return list(found.hexes) if found.complete else []


def test_8_6_1_a_retreats_hexes_kept_for_a_clone_are_those_the_kits_search_finds(
        engine: MotherlandEngine) -> None:
    """A retreat's hexes are kept with the game's pure results, which a clone shares (an
    act's verifier finds its retreat again on the same position), and a group's are
    taken from its units' own: what is kept for one position is what the kit's search
    over the whole group finds afresh there, every unit and group of every retreat along
    seeded games, each asked after the position before it filled the keeping."""
    from engines.motherland.retreat import _groups, retreat_hexes

    compared = groups = 0
    for seed in range(1, 4):
        s = engine.new_state("4-uranus")
        for at in decisions(s, Chooser(f"retreat-check/{seed}"), 500):
            assert isinstance(at, MotherlandState)
            frame = at.stack[-1]
            if frame.step != "retreat":
                continue
            twin = at.clone()
            assert isinstance(twin, MotherlandState) and twin._pcache is at._pcache
            for units in _groups(at, frame.args).values():
                groups += len(units) > 1
                for group in (units, *([u] for u in units)):
                    kept = retreat_hexes(twin, group, frame.args.center)
                    assert retreat_hexes(at, group, frame.args.center) == kept
                    assert kept == kit_search(at, group, frame.args.center)
                    compared += 1
    assert compared >= 20 and groups >= 3


def test_8_6_1_a_stack_retreats_only_where_each_of_its_units_may_go(
        rules_engine: MotherlandEngine) -> None:
    """8.6.1 with 5.2.1: a German Corps and a Finnish army retreat together from 1403;
    Finland's 1402, the Finns' best hex (no enemy ZOC), is barred to the Germans, so
    the stack goes only into the hexes in the Soviets' ZOC, open to both, whichever unit
    is named first; the Finns alone go to 1402."""
    from engines.motherland.retreat import retreat_hexes

    from .conftest import position

    st = position(rules_engine, 3, "combat", "soviet",
                  {"9K": "1403", "FinKar": "1403", "16A": "1404", "19A": "1304",
                   "5A": "1603"})
    both = ["1303", "1503", "1504"]
    assert retreat_hexes(st, ["FinKar", "9K"], "1403") == both
    assert retreat_hexes(st, ["9K", "FinKar"], "1403") == both
    assert retreat_hexes(st, ["FinKar"], "1403") == ["1402"]
    assert retreat_hexes(st, ["9K"], "1403") == both
    for units in (["FinKar", "9K"], ["FinKar"], ["9K"]):
        assert retreat_hexes(st, units, "1403") == kit_search(st, units, "1403")
