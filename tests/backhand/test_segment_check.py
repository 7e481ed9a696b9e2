"""Backhand Blow's segment opening checks a received action against what it names: the
Front Markers (14.2), administrative movement onto the map (15.1 (1)), its placement and
off the map (15.1 (3)), and the Combat Phase's attacks (16.0) are asked of the one
marker, unit, formation or hex instead of listing the side's every option (issue 35:
each listing floods the whole map, the supply net or the clear region, to check a
'done', or asks every unit of the side what it could attack).  A check that took what
the listing does not would replay an illegal action as legal: over seeded playouts,
every listed action is taken and every near miss is refused exactly when the listing
lacks it, with the listing's own refusal."""

from __future__ import annotations

import pytest

from engines.backhand import ENGINE
from engines.backhand.fronts import marker_moves
from engines.backhand.notation import w
from engines.backhand.position import OFF
from engines.backhand.state import BBState
from engines.backhand.steps.declare import CombatPhase
from engines.backhand.steps.opening import AdminIn, AdminOut, AdminPlace, Fronts
from engines.backhand.supply import supply_net
from pbem.engine import Action
from pbem.errors import IllegalAction
from pbem.grammar import Act
from pbem.setup import setup
from pbem.steps import Choice
from pbem.testing import Chooser, decisions

CHECKED = ("fronts", "admin-in", "admin-out", "admin-place", "combat")


def near_misses(st: BBState, step: str) -> list[Act]:
    """Actions a file could hold at ``step``: each marker to its hex, the hexes around
    it and a far one; every unit of both sides and every formation in or out, a
    formation from each hex its units stand in (and from hexes they do not), and names
    nobody has."""
    pos, data = st.pos, st.data
    if step == "fronts":
        out = [w("done"), w("end")]
        for f, h in sorted(pos.fronts.items()):
            out += [w("front", f, n) for n in (h, *data.map.neighbors(h), "0101", "4125")]
        return out
    if step == "combat":
        # every hex in or next to a unit of either side (friends, swamps, empty hexes,
        # enemies no unit can reach), and far ones
        hexes = {x.at for x in pos.units.values() if x.at in data.map.index}
        hexes |= {n for h in sorted(hexes) for n in data.map.neighbors(h)}
        hexes |= {"0101", "4125", "2510"}
        return [w("end"), w("done"), *(w("attack", h) for h in sorted(hexes))]
    if step == "admin-place":
        # every hex in or next to a unit of either side or a marker, and far ones
        hexes = {x.at for x in pos.units.values() if x.at in data.map.index}
        hexes |= set(pos.fronts.values())
        hexes |= {n for h in sorted(hexes) for n in data.map.neighbors(h)}
        hexes |= {"0101", "4125", "2510"}
        return [w("done"), w("stay"), *(w("place", h) for h in sorted(hexes))]
    if step == "admin-in":
        names = [*sorted(pos.units), *data.formations, "ZZ9"]
        return [w("done"), w("end"), *(w("admin", n) for n in names)]
    out = [w("done"), w("end"), w("admin-out", "ZZ9")]
    out += [w("admin-out", u) for u in sorted(pos.units)]
    for fid, form in data.formations.items():
        hexes = {pos.units[m].at for m in form.members} - set(OFF)
        out += [w("admin-out", fid, h) for h in sorted(hexes | {"2510", "0101"})]
        out.append(w("admin-out", fid))
    return out


def refusal(st: BBState, step: Choice[BBState], action: Action, *,
            listing: bool) -> tuple[str, str | None] | None:
    """How ``step``'s check (or, with ``listing``, the runtime's check by the listing
    alone) refuses ``action``: its words and rule, or ``None`` when it takes it."""
    check = Choice.check if listing else type(step).check
    try:
        check(step, st, st.stack[-1].args, action)
    except IllegalAction as exc:
        return str(exc), exc.rule
    return None


@pytest.mark.parametrize(("scenario", "seed", "steps"), [
    ("high-water-mark", "bbcheck/1", 3000),
    ("backhand-blow", "bbcheck/2", 3000),
])
def test_15_1_and_14_2_an_action_is_taken_exactly_when_the_listing_holds_it(
        scenario: str, seed: str, steps: int) -> None:
    st = ENGINE.new_state(scenario, ENGINE.resolve_options({}))
    assert isinstance(st, BBState)
    seen = {"front": 0, "admin": 0, "admin-out": 0, "place": 0, "attack": 0,
            "formation": 0, "refused": 0, "marker out of the net": 0}
    for at in decisions(st, Chooser(seed), steps):
        assert isinstance(at, BBState)
        name = at.stack[-1].step
        if name not in CHECKED:
            continue
        step = at.steps[name]
        assert isinstance(step, Fronts | AdminIn | AdminOut | AdminPlace | CombatPhase)
        args = at.stack[-1].args
        held = set(at.legal_actions())
        if name == "fronts":
            # 14.2 by a trace from the marker: the hexes around it in the supply net
            net = supply_net(at, "soviet")
            for f, h in sorted(at.pos.fronts.items()):
                assert marker_moves(at, f) == [
                    n for n in sorted(at.data.map.neighbors(h))
                    if n in net and at.data.map.terrain_of(n) != "sea"], (f, h)
                seen["marker out of the net"] += h not in net
        for a in [*held, *near_misses(at, name)]:
            assert step.listed(at, args, a) == (a in held), (a, at.pos.turn, at.pos.segment)
            # the check refuses what the listing lacks, in the listing's words and rule
            assert refusal(at, step, a, listing=False) == refusal(at, step, a, listing=True)
            if a in held and isinstance(a, Act):
                seen[a.kind] = seen.get(a.kind, 0) + 1
                seen["formation"] += (a.kind == "admin-out" and a["hex"] is not None) or (
                    a.kind == "admin" and a.text("unit") in at.data.formations)
            seen["refused"] += a not in held
    # the playouts met markers moving, units and formations coming in and going out
    assert min(seen["front"], seen["admin"], seen["admin-out"], seen["place"],
               seen["attack"], seen["formation"]) > 5, seen
    assert seen["refused"] > 1000, seen


def test_15_1_and_14_2_a_received_done_is_checked_without_a_flood(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: checking 'done' at the Front Markers (14.2) and administrative
    movement (15.1) lists nothing and floods no supply net nor clear region; an
    'admin-out' of a unit in an EZOC is still refused (15.1 (3)) and changes nothing."""
    from engines.backhand import supply

    s = setup(ENGINE, "high-water-mark",
              'clear = true\nturn = 3\nplace = { "LAH-1" = "3616", "12T" = "3617", '
              '"LAH-2" = "2912" }\nphasing = "german"\n'
              'stack = [["game", 0, {}], ["turn", 13, {}], ["seg-run", 3, { side = "german", '
              'kind = "sp", no = 1, stage = 3, first = "move" }], ["admin-out", 0, '
              '{ side = "german", kind = "sp" }]]')
    assert isinstance(s, BBState)
    listed = [a.notation() for a in s.clone().legal_actions()]
    assert "admin-out LAH-2" in listed and "admin-out LAH-1" not in listed
    before = s.clone()
    with pytest.raises(IllegalAction, match="EZOCs"):
        s.apply("admin-out LAH-1")
    assert s.pos.units["LAH-1"].at == "3616" and s.stack == before.stack

    def flood(*args: object) -> object:
        raise AssertionError("a listing or a flood of the map to check one action")

    for step in (AdminIn, AdminOut, Fronts):
        monkeypatch.setattr(step, "options", flood)
    monkeypatch.setattr(supply, "floods", flood)
    fresh = s.clone()
    for name in ("fronts", "admin-in", "admin-out"):
        step = fresh.steps[name]
        assert isinstance(step, Fronts | AdminIn | AdminOut)
        args = fresh.stack[-1].args if name != "fronts" else step.Args()
        step.check(fresh, args, w("done"))


def test_15_1_a_received_placement_is_checked_without_a_flood(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: a received 'place HEX' (15.1 (1)) is checked against HEX alone, by a
    search from it to a German source, without listing the placements nor flooding the
    clear region of the whole map; a hex in an EZOC or away from the side's units is
    refused."""
    from engines.backhand import admin

    text = ('clear = true\nturn = 3\nplace = { "LAH-1" = "box2", "LAH-2" = "2912", '
            '"12T" = "3617", "3-3" = "3616" }\nphasing = "german"\n'
            'stack = [["game", 0, {}], ["turn", 13, {}], ["seg-run", 3, { side = "german", '
            'kind = "sp", no = 1, stage = 3, first = "move" }], ["admin-in", 0, '
            '{ side = "german", kind = "sp" }]]')
    s = setup(ENGINE, "high-water-mark", text)
    assert isinstance(s, BBState)
    s.apply("admin LAH-1")
    listed = [a.notation() for a in s.clone().legal_actions()]
    # next to 3-3, in 12T's ZOC (6.0): refused, as it is not listed
    ezoc = next(h for h in s.data.map.neighbors("3616") if h in s.zoc("soviet"))
    assert "place 2913" in listed and f"place {ezoc}" not in listed

    for hex_ in (ezoc, "0101"):  # a refusal falls through to the listing's words
        with pytest.raises(IllegalAction):
            s.clone().apply(f"place {hex_}")

    def flood(*args: object) -> object:
        raise AssertionError("a listing or a flood of the map to check one placement")

    monkeypatch.setattr(AdminPlace, "options", flood)
    monkeypatch.setattr(admin, "clear_region", flood)
    s.apply("place 2913")
    assert s.pos.units["LAH-1"].at == "2913"


def test_14_2_a_marker_out_of_the_supply_net_is_offered_the_nets_hexes() -> None:
    """14.2 (14.1): a marker the enemy stands on, or cut off from every Soviet source,
    is offered the hexes around it in the supply net (not joined through its own hex:
    the net is asked, not a trace from the marker)."""
    from pbem.setup import setup

    offered: list[str] = []
    # the enemy in the marker's hex, then only its ZOC there (3018 is next to 3019)
    for place in ('"LAH-1" = "3019"', '"LAH-1" = "3018"'):
        s = setup(ENGINE, "high-water-mark",
                  f'clear = true\nplace = {{ {place}, "12T" = "2819" }}\n'
                  'fronts = { southwest = "3019", voronezh = "3919" }')
        assert isinstance(s, BBState)
        net = supply_net(s, "soviet")
        for f, h in sorted(s.pos.fronts.items()):
            expected = [n for n in sorted(s.data.map.neighbors(h))
                        if n in net and s.data.map.terrain_of(n) != "sea"]
            assert marker_moves(s, f) == expected, (place, f)
        assert "3019" not in net
        offered += marker_moves(s, "southwest")
    assert offered  # the marker in the ZOC alone has free hexes of the net around it


def test_15_1_the_administrative_hexes_are_kept_for_the_placement(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: 15.1 (1)'s hexes read the placement and the Front Markers alone: a
    received 'admin' and the 'place' after it, two actions at one placement, find them
    once; a Front Marker moved or a unit placed asks again."""
    from engines.backhand import admin
    from engines.backhand.control import put
    from engines.backhand.position import PhaseArgs
    from pbem.setup import setup

    s = setup(ENGINE, "high-water-mark",
              'clear = true\nturn = 3\nplace = { "12T" = "3616", "LAH-1" = "2912" }')
    assert isinstance(s, BBState)
    soviet = PhaseArgs("soviet", "sp")
    first = admin.admin_hexes(s, soviet)
    assert first
    found = admin._admin_hexes

    def again(*args: object) -> object:
        raise AssertionError("15.1 (1)'s hexes made again for the same placement")

    monkeypatch.setattr(admin, "_admin_hexes", again)
    s.invalidate()  # as between two actions
    assert admin.admin_hexes(s, soviet) == first
    monkeypatch.setattr(admin, "_admin_hexes", found)
    put(s, ["12T"], "3617")
    assert admin.admin_hexes(s, soviet) != first
