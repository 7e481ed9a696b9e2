"""The setup API on the test engine (rule tests state their position as data), and the
golden tools' own checks: a changed game is found and named."""

from __future__ import annotations

from pathlib import Path

import pytest
from toy_engine import ENGINE

from pbem import golden
from pbem.errors import IllegalAction, UsageError
from pbem.registry import get
from pbem.setup import describe, setup


def test_a_rule_test_states_its_position_in_a_few_lines() -> None:
    state = setup(ENGINE, "short", """
        round = 3
        phasing = "blue"
        weather = "storm"
        blue = "a 2"          # the toy's shorthand: column a, strength 2
        step = "orders"
    """)
    assert state.current_player() == "blue"
    assert [a.notation() for a in state.legal_actions()] == ["move b", "move c", "pass"]
    with pytest.raises(IllegalAction, match=r"^Skirmish 4: no attacks in a storm"):
        state.apply("attack 1")


def test_a_rally_at_the_end_of_the_round_restores_a_point() -> None:
    state = setup(ENGINE, "long", """
        phasing = "blue"
        weather = "rally"
        forces = {red = {strength = 4}}
        step = "orders"
    """)
    state.apply("pass")
    assert "round 2/12" in state.status_line(None)
    assert 'red = { column = "a", strength = 5 }' in describe(state)


def test_setup_at_a_decision_inside_the_opponents_turn() -> None:
    state = setup(ENGINE, "short", 'committed = 3\nstep = "defend"')
    decision = state.decision()
    assert decision is not None and (decision.side, decision.kind) == ("blue", "take-result")
    state.apply("absorb")
    assert state.chance_request().purpose == "loss for blue"


def test_describe_round_trips() -> None:
    state = setup(ENGINE, "short", 'round = 2\nred = "c 3"\nstep = "event"')
    assert setup(ENGINE, "short", describe(state)).digest() == state.digest()


@pytest.mark.parametrize(("text", "message"), [
    ("rnd = 3", r"the position has no field 'rnd'"),
    ('round = "x"', r"position\.round: expected int, got str"),
    ('step = "nope"', r"skirmish has no step 'nope'"),
    ('weather = "hail"', r"position\.weather: expected one of 'calm'"),
    ("round = [", r"not TOML"),
])
def test_bad_setup_is_named(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        setup(ENGINE, "short", text)


def test_check_finds_a_game_that_changed(tmp_path: Path) -> None:
    """A dumped record replays clean; the same record with one roll's event altered (as a
    rules change would alter it) is reported with its line."""
    golden.play("skirmish", "short", 1, tmp_path / "game", dump=tmp_path / "dump")
    assert golden.check_dumps(tmp_path / "dump") == []
    path = next((tmp_path / "dump").glob("*.txt"))
    lines = path.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if ": hit" in line or ": miss" in line)
    lines[n] = lines[n].replace("hit", "HIT").replace("miss", "MISS")
    path.write_text("\n".join(lines) + "\n")
    problems = golden.check_dumps(tmp_path / "dump")
    assert len(problems) == 1 and f"{path.name}:{n + 1}: was" in problems[0]


@pytest.mark.parametrize(("engine_id", "fields", "step"), [
    ("48th-panzer-korps", 'phase = "movement"\n', "movement"), ("backhand-blow", "", "move")])
def test_setup_builds_the_frames_of_the_side_given(engine_id: str, fields: str,
                                                   step: str) -> None:
    """Issue 31: the frames above ``step`` are those of the position set up (its phasing
    side), not of the scenario's start, whose phasing side is the Soviet player."""
    engine = get(engine_id)
    state = setup(engine, engine.scenarios()[0].id,
                  f'{fields}phasing = "german"\nstep = "{step}"')
    decision = state.decision()
    assert decision is not None and (decision.side, decision.kind) == ("german", step)
    # and the frames' own sides, by which the rest of the player turn runs
    sides = [f[2]["side"] for f in state.stack_data() if f[2].get("side")]
    assert sides and set(sides) == {"german"}


def test_setup_refuses_a_step_and_a_stack_that_disagree() -> None:
    with pytest.raises(UsageError, match=r"step 'defend' is not the top of the stack given "
                       r"\('orders'\)"):
        setup(ENGINE, "short", 'step = "defend"\nstack = [["orders", 0, {}]]')


@pytest.mark.parametrize(("engine_id", "text", "message"), [
    ("48th-panzer-korps", 'phase = "prepared"\nstep = "fire"', r"step 'fire' does not fit "
     r"the position: field 'combat': 'fire' is a step of an attack \(7\) and none is open"),
    ("mortain", 'step = "attackers"', r"step 'attackers' does not fit the position"),
    ("backhand-blow", 'step = "vr-draw"', r"step 'vr-draw' does not fit the position: it "
     r"cannot run on it \(ValueError: cannot draw 0"),
    ("48th-panzer-korps", 'phasing = "soviet"\nphase = "movement"\nmoving = ["89T"]\n'
     'step = "zoc-exit"', r"step 'zoc-exit' cannot "
     r"be set up from a step name: its frame needs arguments"),
])
def test_setup_refuses_a_step_with_nothing_to_work_on(engine_id: str, text: str,
                                                      message: str) -> None:
    """Issue 31: a combat step set up with no combat open gave a position whose first
    question crashed the engine (an assertion, a draw of nothing); setup refuses it."""
    engine = get(engine_id)
    with pytest.raises(UsageError, match=message):
        setup(engine, engine.scenarios()[0].id, text)


def test_setup_refuses_a_decision_that_takes_its_only_answer_whatever_its_name() -> None:
    """Issue 31: Mortain's attacker loss (ICRT: Ex depletes one attacker of the attacker's
    choice) with one attacker takes that answer at once; set up by its US name
    (``us:att-loss``) the position came back past it, its attacker already depleted."""
    from engines.mortain.data import rules

    engine = get("mortain")
    r = rules()
    us = [u for u in r.order if r.units[u].side == "us"]
    where = {u: f"{c:02d}{row:02d}" for u, (c, row) in zip(
        us, [(c, row) for row in (19, 21) for c in range(2, 30, 2)], strict=False)}
    where.update({"2/119": "2010", "G07": "2110"})
    text = ('turn = 2\nphasing = "us"\nphase = "combat"\nstep = "us:att-loss"\n'
            'combat = { target = "2110", bombard = false, attackers = ["2/119"], '
            'att_chits = [], def_chits = [], result = "Ex", retreating = [] }\n[units]\n'
            + "\n".join(f'"{u}" = "{h}"' for u, h in where.items()) + "\n")
    with pytest.raises(UsageError, match=r"step 'us:att-loss' does not fit the position: "
                       r"it has nothing to decide there \(ICRT\), and play went on"):
        setup(engine, "counterattack", text)
