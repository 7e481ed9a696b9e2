"""48th Panzer Korps on the kit's board facts: who is where, the stacks and the ZOCs (5)
answer for the position as it is now, a clone's moves never reach its original, and a
snapshot holds none of it."""

from __future__ import annotations

import pytest

from engines.hexkit.facts import ALL_EXERT, BoardFacts, ZocRule
from engines.panzer48 import ENGINE
from engines.panzer48.state import P48State
from engines.panzer48.victory import update_control
from engines.panzer48.zoc import zoc
from pbem.setup import setup


def state(text: str) -> P48State:
    s = setup(ENGINE, "chir", "only = true\nphase = \"turns\"\n" + text)
    assert isinstance(s, P48State)
    return s


THREE = 'at = { "Adam" = "1021 -2", "Selle" = "1021 -2", "Flak" = "1021 -2" }'


def test_5_a_step_lost_in_place_ends_the_stacks_zoc() -> None:
    """5: three 1-step units exert a ZOC, two steps do not: a loss that moves no unit
    still changes the answer on the same state."""
    s = state('at = { "Adam" = "1021 -1", "Selle" = "1021 -2" }')
    assert "1022" in zoc(s, "german") and s.at("1021") == ["Adam", "Selle"]
    s.pos.units["Adam"].losses += 1
    assert "1022" not in zoc(s, "german") and s.at("1021") == ["Adam", "Selle"]


def test_5_a_unit_that_retreats_in_place_stops_exerting_a_zoc() -> None:
    """5: retreated units contribute nothing, even before they leave the hex."""
    s = state(THREE)
    assert "1022" in zoc(s, "german")
    s.pos.units["Adam"].retreated = True
    assert "1022" not in zoc(s, "german")
    assert zoc(s, "german").exerted_by("1020") == ()


def test_a_clone_moved_leaves_its_originals_board_as_it_was() -> None:
    s = state(THREE)
    before = (s.on_map(), s.at("1021"), s.owner_at("1021"), dict(s.stacks()),
              zoc(s, "german").hexes)
    c = s.clone()
    assert isinstance(c, P48State)
    c.pos.units["Adam"].hex = "1030"
    c.pos.units["Selle"].retreated = True
    assert c.at("1021") == ["Flak", "Selle"] and c.at("1030") == ["Adam"]
    assert "1022" not in zoc(c, "german")
    assert (s.on_map(), s.at("1021"), s.owner_at("1021"), dict(s.stacks()),
            zoc(s, "german").hexes) == before
    # and the original's moves do not reach the clone either
    s.pos.units["Flak"].hex = "1025"
    assert c.at("1021") == ["Flak", "Selle"] and s.at("1025") == ["Flak"]


def test_the_snapshot_holds_the_position_not_the_board_facts() -> None:
    s = state(THREE)
    fresh = s.snapshot()
    zoc(s, "german")
    s.at("1021")
    assert s.snapshot() == fresh
    assert "facts" not in repr(fresh) and "Placed" not in repr(fresh)
    back = ENGINE.restore(fresh)
    assert isinstance(back, P48State)
    assert back.at("1021") == s.at("1021") and zoc(back, "german") == zoc(s, "german")


def test_10_control_is_asked_of_the_towns_and_bridges_not_a_whole_zoc_map() -> None:
    """10: a town next to a Soviet stack of 4 steps (5: a ZOC) and in no German ZOC
    becomes Soviet; control is updated after every step of every move, so it asks the
    control hexes' neighbours alone and makes neither side's ZOC, as a map or as a set
    (issue 35)."""
    s = state('at = { "89T" = "3408" }')
    assert s.pos.control["3508"] == "german"
    asked: list[str] = []
    in_zoc = BoardFacts.in_zoc

    def one_hex(self: BoardFacts, side: str, h: str, rule: ZocRule = ALL_EXERT) -> bool:
        asked.append(h)
        return in_zoc(self, side, h, rule)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(BoardFacts, "in_zoc", one_hex)
        update_control(s)
    assert s.pos.control["3508"] == "soviet"
    assert not asked and not [k for k in s.facts()._found if k[0] in ("zoc", "zoc-set")]
    assert "3508" in zoc(s, "soviet")


@pytest.mark.parametrize("text", [
    'at = { "89T" = "3408" }',
    THREE,
    'at = { "Adam" = "1021 -2", "Selle" = "1021 -2", "89T" = "3408" }',
    'at = { "Adam" = "1021 -2", "Selle" = "1021 -2", "Flak" = "1021 -2", '
    '"89T" = "1023" }',
])
def test_5_the_sides_whose_zoc_reaches_a_hex_are_those_of_the_whole_zoc(text: str) -> None:
    """5: the sides whose ZOC covers a hex, found from that hex's neighbours alone (what
    10's control asks), are those whose whole ZOC holds it, for every hex of the map:
    stacks of 3 steps or more, none from a stack of 2, none from retreated units."""
    from engines.panzer48.data import SIDES
    from engines.panzer48.zoc import ZOC, zoc_sides_at

    s = state(text)
    facts = s.facts()
    whole = {side: facts.zoc_hexes(side, ZOC) for side in SIDES}
    assert any(whole.values())
    for h in s.d.map.ids:
        assert zoc_sides_at(facts, h) == {side for side in SIDES if h in whole[side]}, h


def test_a_step_remakes_the_placement_of_the_units_that_moved_alone() -> None:
    """4: after a stack's step the board facts are new (the placement changed), but the
    units that stayed where they were keep their placed records: a step of a move made
    every unit's again (issue 35: the facts are rebuilt after every step); the facts
    are those of a placement built from scratch."""
    from engines.hexkit.facts import BoardFacts

    s = state('phasing = "german"\nstep = "movement"\nreleased = true\n'
              'at = { "110PG/I" = "1021", "110PG/II" = "1021", "349R" = "1124" }')
    before = s.facts()
    s.apply("move 110PG/I")
    s.apply(next(a for a in s.legal_actions() if a.notation().startswith("to ")))
    after = s.facts()
    assert after is not before
    assert after.placed("110PG/II") is before.placed("110PG/II")
    assert after.placed("349R") is before.placed("349R")
    assert after.placed("110PG/I") != before.placed("110PG/I")
    fresh = BoardFacts(s.d.map, after.placement)
    assert fresh.stacks() == after.stacks() and fresh.placement == after.placement


def test_the_facts_after_a_move_are_the_facts_of_the_new_placement() -> None:
    """Issue 35: after a step of a move, a loss or a retreat the facts are the facts kept
    with the changed units changed, everyone's and each side's stacks carried over
    (BoardFacts.changed): along a seeded playout of the first day, at every decision,
    they are what facts made from every unit's place give, and so are the stacks."""
    from pbem.testing import Chooser, decisions, returns_of

    carried = 0
    with pytest.MonkeyPatch.context() as m:
        made: list[BoardFacts] = returns_of(m, BoardFacts, "changed")
        game = ENGINE.new_state("first-day")
        for s in decisions(game, Chooser("p48facts/1"), 600):
            assert isinstance(s, P48State)
            f = s.facts()
            fresh = BoardFacts(s.d.map, f.placement)
            placed = [(u, x.hex, s.d.units[u].side, (s.steps_of(u), x.retreated))
                      for u, x in s.pos.units.items() if x.where == "map" and x.hex]
            assert list(f.placement) == sorted(placed)
            carried += ("stacks", None) in f._found and any(f is c for c in made[-3:])
            for side in (None, "soviet", "german"):
                assert list(f.stacks(side).items()) == list(fresh.stacks(side).items())
    assert carried > 50 and len(made) > 100, (carried, len(made))


def test_the_facts_kept_while_no_unit_was_placed_anew_are_the_units_places() -> None:
    """Issue 35: the facts are kept, without reading every unit again, while the units
    are the same: only those whose place, losses or retreat (5) was written since (a
    log of those writes, position.PLACEMENT_LOG) are read again.  Along seeded
    playouts of both scenarios, each time the facts are kept or changed so, every
    unit's fields read again are those they were found from (check_kept_facts raises
    otherwise)."""
    from pbem.testing import Chooser, decisions

    kept = checked = 0
    check = P48State._check_kept_facts

    def counted(self: P48State, fields: list[tuple[str, str, int, bool]]) -> None:
        nonlocal checked
        checked += 1
        check(self, fields)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(P48State, "check_kept_facts", True)
        m.setattr(P48State, "_check_kept_facts", counted)
        for scenario, seed in (("first-day", 1), ("chir", 2)):
            game = ENGINE.new_state(scenario)
            for s in decisions(game, Chooser(f"p48kept/{seed}"), 400):
                assert isinstance(s, P48State)
                before = s._facts
                s.facts()
                kept += s._facts is before
    assert kept > 100 and checked > 1000, (kept, checked)


def test_a_unit_placed_past_the_log_of_writes_is_caught() -> None:
    """A unit moved without its write logged (past ``Unit.__setattr__``) leaves the
    kept facts standing for the placement before, which is why every write is logged:
    the check the playouts above run names it."""
    from engines.panzer48.position import Unit

    s = state(THREE)
    assert s.at("1021") == ["Adam", "Flak", "Selle"] and s.facts().at("1021")
    object.__setattr__(s.pos.units["Adam"], "hex", "1030")
    assert s.facts().at("1030") == ()  # stale: what the count is for
    with pytest.MonkeyPatch.context() as m:
        m.setattr(P48State, "check_kept_facts", True)
        with pytest.raises(AssertionError, match="Adam"):
            s.facts()
    Unit.__setattr__(s.pos.units["Adam"], "hex", "1030")
    assert s.facts().at("1030") == ("Adam",)


def test_a_unit_replaced_by_its_copy_is_placed_where_the_copy_moves() -> None:
    """The facts kept know the units by identity: a unit replaced in the position by a
    copy of itself, and the copy moved, is where the copy stands."""
    import dataclasses

    s = state(THREE)
    assert s.facts().at("1021") == ("Adam", "Flak", "Selle")
    copy = dataclasses.replace(s.pos.units["Adam"])
    s.pos.units["Adam"] = copy
    assert s.facts().at("1021") == ("Adam", "Flak", "Selle")
    copy.hex = "1030"
    assert s.facts().at("1030") == ("Adam",) and s.at("1030") == ["Adam"]
    assert s.facts().at("1021") == ("Flak", "Selle")


def test_a_unit_put_in_a_units_place_with_no_write_logged_is_placed_where_it_stands() -> None:
    """The facts kept stand while the position holds the very units they were found
    from: a unit put in another's place past the log of writes (a copy, its hex set
    past ``Unit.__setattr__``) is read where it stands, not where the one it replaced
    stood."""
    import copy

    s = state(THREE)
    assert s.facts().at("1021") == ("Adam", "Flak", "Selle")
    moved = copy.copy(s.pos.units["Adam"])
    object.__setattr__(moved, "hex", "1030")
    s.pos.units["Adam"] = moved
    assert s.facts().at("1030") == ("Adam",)
    assert s.facts().at("1021") == ("Flak", "Selle")
