"""Issue 5: the defender's decisions inside the attacker's turn are opponent decision
points; `pbem status` (the signed summary, read without the engine) shows them to both
players, with the rule that asks for them."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pbem.session import Game, Home
from pbem.testing import Chooser, play_file


def _home(root: Path, name: str) -> Home:
    home = Home(root / name, clock=lambda: 1_700_000_000)
    home.keys.create(name, f"{name}@example.org", None,
                     secret=hashlib.sha256(f"status test {name}".encode()).digest())
    return home


def test_result_choice_is_shown_to_both_players(tmp_path: Path) -> None:
    axis, soviet = _home(tmp_path, "axis"), _home(tmp_path, "soviet")
    game = axis.new_game("for-the-motherland", "6-for-the-motherland", "axis", name="g",
                         nonce=bytes(32))
    other = soviet.join(game.file(0)[1], "invite", name="g")
    axis.receive(other.file(1)[1], "accept", loaded=game)
    games: dict[str, Game] = {"axis": game, "soviet": other}
    homes = {"axis": axis, "soviet": soviet}
    chooser = Chooser("status test")
    for _ in range(40):
        mover = next(side for side, g in games.items() if g.my_decision() is not None)
        g = games[mover]
        sealed = play_file(g, chooser)
        receiver = "soviet" if mover == "axis" else "axis"
        homes[receiver].receive(g.file(sealed)[1], f"file {sealed}", loaded=games[receiver])
        decision = games[receiver].decision()
        if decision is not None and decision.kind == "result-choice":
            break
    else:
        raise AssertionError("no combat result for the defender to choose in 40 files")
    defender = receiver
    attacker = mover
    mine = homes[defender].statuses("g")[0]
    theirs = homes[attacker].statuses("g")[0]
    assert mine["your_move"] and mine["to_act"] == defender
    assert mine["awaiting"].startswith("your decision: the soviet player takes ")
    assert "as step losses and hexes of retreat" in mine["decision"]
    assert not theirs["your_move"] and theirs["to_act"] == defender
    assert theirs["awaiting"] == (f"waiting for file {theirs['seq'] + 1} from the opponent "
                                  f"({mine['decision']})")
    assert decision.rule == "8.5" and decision.default is not None  # a policy can answer


def test_losses_policy_takes_the_most_step_losses() -> None:
    """8.5 by standing order: 'default' retreats where possible, 'losses' holds ground."""
    from engines.motherland import ENGINE
    from engines.motherland.notation import of_kind
    from pbem import dice, orders

    state = ENGINE.new_state("4-uranus")
    chooser = Chooser("losses policy")
    for step in range(3000):
        decision = state.decision()
        if decision is not None and decision.kind == "result-choice":
            takes = [t for a in state.legal_actions() if (t := of_kind(a, "take"))]
            if len({a.number("steps") for a in takes}) > 1:
                break
        if state.is_chance():
            seed = hashlib.sha256(f"losses {step}".encode()).digest()
            state.apply_outcome(dice.resolve(seed, 0, state.chance_request()).outcome)
        else:
            state.apply(chooser.pick(state.legal_actions()))
    else:
        raise AssertionError("no combat result with a choice in 3000 steps")
    attacker = "axis" if decision.side == "soviet" else "soviet"
    most = max(a.number("steps") for a in takes)
    held = orders.answer(state, attacker, {decision.side: {"result-choice": "losses"}})
    assert held is not None and f"as {most} step" in held
    default = orders.answer(state, attacker, {decision.side: {"result-choice": "default"}})
    assert default == decision.default.notation() != held


def test_summary_and_awaiting_list_no_options(tmp_path: Path, monkeypatch) -> None:
    """Issue 19: what `status` keeps and `act` prints last is the decision's side and
    prompt; listing the options (the whole legal set of a position) is `legal`'s work."""
    from engines.motherland.state import MotherlandState

    axis, soviet = _home(tmp_path, "axis"), _home(tmp_path, "soviet")
    game = axis.new_game("for-the-motherland", "4-uranus", "axis", name="g",
                         nonce=bytes(32))
    soviet.join(game.file(0)[1], "invite", name="g")
    expected = soviet.game("g").summary()
    assert expected["decision"] and expected["to_act"]

    def listed(self: object) -> None:
        raise AssertionError("the options were listed")

    monkeypatch.setattr(MotherlandState, "_decision", listed)
    fresh = soviet.game("g")
    assert fresh.summary() == expected
    assert fresh.awaiting() == expected["awaiting"]


def test_a_decision_lists_its_options_only_up_to_forty() -> None:
    """A movement phase (5.0) offers nearly a thousand moves: the decision shown lists none
    (they stay legal, and the default ends the phase), while a small task lists all."""
    from pbem import registry

    engine = registry.get("for-the-motherland")
    s = engine.new_state("1-barbarossa")
    expend = s.decision()
    assert expend is not None and expend.kind == "expend-base"
    assert expend.options == tuple(s.legal_actions()) and expend.options
    assert expend.default is not None and expend.default.notation() == "end expending"
    s.apply(expend.default)
    move = s.decision()
    assert move is not None and move.kind == "movement"
    assert move.options == () and len(s.legal_actions()) > 40
    assert move.default is not None and move.default.notation() == "end movement"
