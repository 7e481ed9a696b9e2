"""Von Manstein's Backhand Blow: the standing orders (protocol 6.1), each kind set up at
its decision with pbem.setup and answered by each of its policies."""

from __future__ import annotations

from pathlib import Path

from engines.backhand import ENGINE
from engines.backhand.state import BBState
from pbem import orders
from pbem.audit import body_summary
from pbem.engine import Decision
from pbem.selfplay import selfplay
from pbem.setup import setup

ADMIN = "backhand-blow"


def at(text: str, scenario: str = "high-water-mark") -> BBState:
    s = setup(ENGINE, scenario, text)
    assert isinstance(s, BBState)
    return s


def decision(s: BBState, kind: str, side: str) -> Decision:
    d = s.decision()
    assert d is not None and d.kind == kind and d.side == side
    return d


def answers(s: BBState, d: Decision) -> dict[str, str | None]:
    """Every policy of the order for ``d``'s kind, and the notation it answers with."""
    spec = next(o for o in ENGINE.standing_orders() if o.kind == d.kind)
    out = {}
    for policy in ("default", *(p for p, _ in spec.policies)):
        a = s.order_answer(d, policy)
        assert a is None or a in s.legal_actions()
        out[policy] = None if a is None else a.notation()
    return out


def test_standing_order_kinds_offered_are_decisions_of_the_engine() -> None:
    kinds = [o.kind for o in ENGINE.standing_orders()]
    # declared on their steps, listed in the step table's order (the book's, 4.2)
    assert kinds == ["rochade", "reinforce", "replace", "refit", "phase-order", "c3i",
                     "chit", "take-loss"]
    assert set(kinds) <= set(ENGINE.decision_kinds())
    # the Front Markers and the administrative movement open the Soviet's segment, and
    # its file besides: no standing orders
    assert not {"fronts", "admin"} & set(kinds)


def test_4_2_phase_order_ii_c_move_first_by_default_combat_first_on_request() -> None:
    s = at('phasing = "german"\nstack = [["game", 0, {}], ["turn", 13, {}], ["seg-run", 4, '
           '{ side = "german", kind = "sp", no = 1, stage = 4, first = "move" }], '
           '["order", 0, { side = "german", kind = "sp" }]]')
    d = decision(s, "phase-order", "german")
    assert answers(s, d) == {"default": "order move-first",
                             "combat-first": "order combat-first"}
    # protocol 6.1: answered only in the other side's file, and only when ordered
    theirs = {"german": {"phase-order": "default"}}
    assert orders.answer(s, "soviet", theirs) == "order move-first"
    assert orders.answer(s, "german", theirs) is None
    assert orders.answer(s, "soviet", {"german": {"c3i": "default"}}) is None
    assert orders.answer(s, "soviet", {}) is None


def test_4_2_c3i_order_ii_d_spends_two_by_default_four_on_request() -> None:
    s = at('step = "c3i"\nphasing = "soviet"')  # 18.0: the Soviet starts with 5
    d = decision(s, "c3i", "soviet")
    assert answers(s, d) == {"default": "spend 2", "max": "spend 4"}
    s1 = at('step = "c3i"\nphasing = "soviet"\nc3i = { soviet = 1, german = 2 }')
    assert answers(s1, decision(s1, "c3i", "soviet")) == {"default": "spend 1",
                                                         "max": "spend 1"}
    assert orders.answer(s, "german", {"soviet": {"c3i": "max"}}) == "spend 4"
    assert orders.answer(s, "german", {"soviet": {"phase-order": "default"}}) is None


def _records(directory: Path) -> list[tuple[str, list[list[str]]]]:
    """Each file's sender and its action and order records, in file order."""
    out = []
    for f in sorted((directory / "files").iterdir()):
        recs = body_summary(f.read_bytes()).get("records", [])
        out.append((f.stem.split("-")[1],
                    [[str(r[0]), str(r[1])] for r in recs if r[0] in ("a", "o")]))
    return out


def test_4_2_segment_opening_ii_c_d_at_a_handover_through_real_files(tmp_path: Path) -> None:
    """Turn 1 has no administrative movement (15.1), so a German segment opens at the end
    of the Soviet's file: with orders that file applies the German's phase order and C3I
    (``o`` records, checked by the German's verifier) and runs on; without, it stops."""
    run = selfplay(ENGINE.id, "high-water-mark", 3, tmp_path / "orders", max_turns=1,
                   standing_orders=True)
    assert run.desyncs == 0
    pairs = [(side, recs[i:i + 2]) for side, recs in _records(tmp_path / "orders")
             for i in range(len(recs) - 1) if recs[i][0] == "o" and
             recs[i][1].startswith("order ")]
    assert ("soviet", [["o", "order move-first"], ["o", "spend 2"]]) in pairs
    bare = selfplay(ENGINE.id, "high-water-mark", 3, tmp_path / "bare", max_turns=1)
    assert bare.desyncs == 0
    files = _records(tmp_path / "bare")
    assert not any(r[0] == "o" for _, recs in files for r in recs)
    # the Soviet's file stopped at each such opening: the German's next file starts there
    # (or, inside the Soviet's segment, with the German's answer to an attack's hits)
    starts = [recs[:2] for side, recs in files[3:] if side == "german"]
    opening = [r for r in starts if r[0][1].startswith("order ")]
    assert len(opening) >= 2 and all(r[0][1].startswith(("order ", "lose ", "retreat ",
                                                         "chit ", "no-chit", "done"))
                                     for r in starts)
    assert opening[0][1][0] == "a" and opening[0][1][1].startswith("spend ")


def test_11_1_reinforce_order_map_by_default_box_on_request() -> None:
    s = at('turn = 2\nstack = [["game", 0, {}], ["turn", 6, {}], '
           '["reinforce", 0, { unit = "soviet" }]]')
    d = decision(s, "reinforce", "soviet")
    assert answers(s, d) == {"default": "arrive map", "box": "arrive box"}
    s.apply("arrive box")
    assert s.pos.units["38G"].at == "box1" and s.pos.units["195"].at == "box1"


def test_12_0_replace_order_none_by_default_all_on_request() -> None:
    s = at('clear = true\nplace = { "12T" = "3917 2", "111" = "0115 1", "15T" = "3916 3" }\n'
           'replacements = { mot = 3, non = 1 }\n'
           'stack = [["game", 0, {}], ["turn", 9, {}], ["replace", 0, {}]]')
    d = decision(s, "replace", "soviet")
    assert answers(s, d) == {"default": "done", "all": "replace 12T"}
    # "all" answers again at each decision until no unit is eligible: 12T and 15T (111 is
    # out of range of both Front Markers, 12.0), each once a turn
    taken = []
    while True:
        a = s.order_answer(decision(s, "replace", "soviet"), "all")
        assert a is not None
        taken.append(a.notation())
        s.apply(a.notation())
        if a.notation() == "done":
            break
    assert taken == ["replace 12T", "replace 15T", "done"]
    assert s.pos.replacements == {"mot": 1, "non": 1}


def test_13_1_refit_order_none_by_default_first_formation_on_request() -> None:
    s = at('clear = true\nturn = 8\nplace = { "LAH-1" = "1820 2", "LAH-2" = "1820", '
           '"LAH-Pz" = "1820 1", "GD-Gre" = "1020", "GD-Füs" = "1020", "GD-Pz" = "1020" }\n'
           'stack = [["game", 0, {}], ["turn", 10, {}], ["refit", 0, {}]]', ADMIN)
    d = decision(s, "refit", "german")
    assert answers(s, d) == {"default": "done", "first": "refit GD 1020"}
    s.apply("refit GD 1020")
    d2 = decision(s, "refit", "german")
    assert s.order_answer(d2, "first") is not None
    assert s.order_answer(d2, "first").notation() == "refit LAH 1820"  # type: ignore[union-attr]
    s.apply("refit LAH 1820")
    assert s.order_answer(decision(s, "refit", "german"), "first").notation() == "done"  # type: ignore[union-attr]


def test_8_2_rochade_order_none_by_default_declare_on_request() -> None:
    text = ('turn = 7\nrochade_used = USED\n'
            'stack = [["game", 0, {}], ["turn", 2, {}], ["weather", 0, {}]]')
    s = at(text.replace("USED", "false"), ADMIN)
    s.apply_outcome((3, 4))  # the weather roll: Frozen, so the Rochade may be declared
    d = decision(s, "rochade", "german")
    assert answers(s, d) == {"default": "no-rochade", "declare": "rochade"}
    s.apply("rochade")
    assert s.pos.rochade_now and s.pos.rochade_used
    # 8.2: once a game: never asked again
    s2 = at(text.replace("USED", "true"), ADMIN)
    s2.apply_outcome((3, 4))
    d2 = s2.decision()
    assert d2 is None or d2.kind != "rochade"


def test_16_0_take_loss_order_retreats_by_default() -> None:
    s = at('clear = true\nplace = { "12T" = "3313", "LAH-1" = "3213" }\n'
           'stack = [["game", 0, {}], ["turn", 12, {}], ["hits", 0, { side = "german", '
           'attacker = "soviet", kind = "sp", target = "3213", hits = 1, retreat = false, '
           'retreated = 0, river = false, units = ["12T"], then = [0, "3213"], '
           'no_advance = false }]]')
    d = decision(s, "take-loss", "german")
    got = answers(s, d)
    assert got["default"] is not None and got["default"].startswith("retreat ")
    assert got["losses"] == "lose LAH-1" and got["stand"] == "lose LAH-1"


def test_16_73_chit_order_none_by_default_play_on_request() -> None:
    s = at('clear = true\nplace = { "12T" = "3313", "LAH-1" = "3213" }\n'
           'chits = { german = ["Flak", "Stuka"], soviet = [] }\n'
           'stack = [["game", 0, {}], ["turn", 12, {}], ["chit", 0, { side = "soviet", '
           'kind = "sp", target = "3213", units = ["12T"], chits = ["-"] }]]')
    d = decision(s, "chit", "german")
    assert answers(s, d) == {"default": "no-chit", "play": "chit Flak"}
