"""Mortain Counterattack's combat declarations (S7, S7.1, S8.3, 14.2): a received file's
'attack', 'bombard' or 'end combat' is checked against its one hex (combat.declared)
instead of listing every enemy hex (issue 35).  A check that took what the listing does
not would replay an illegal attack as legal: over seeded playouts, every listed action is
taken and every near miss is refused exactly when the listing lacks it, in the same
words."""

from __future__ import annotations

import pytest

from engines.mortain import ENGINE, combat
from engines.mortain.attack import CombatPhase
from engines.mortain.notation import ATTACK, BOMBARD, END_COMBAT, MOVE, RESOLVE, WITH, parse
from engines.mortain.state import MortainState
from pbem.engine import Action
from pbem.errors import IllegalAction
from pbem.grammar import Act
from pbem.testing import Chooser, turns


def parse_act(action: Action) -> Act:
    return action if isinstance(action, Act) else parse(action.notation())


def near_misses(st: MortainState) -> list[Act]:
    """Declarations a file could hold here: an attack and a bombardment of every hex a
    unit of either side holds (its own side's, an enemy hex attacked already, one across
    the See, one with no friendly unit beside it), of the empty hexes around them and of
    hexes off the map, and a few actions of other steps."""
    hexes = sorted({h for h in st.occupant()} |
                   {n for h in st.occupant() for n in st.r.map.neighbors(h)})
    out: list[Act] = [END_COMBAT, RESOLVE, WITH("G01"), MOVE("G01", "3110")]
    for h in [*hexes[::3], *sorted(st.occupant()), *sorted(st.pos.targets), "0000", "9999"]:
        out += [ATTACK(h), BOMBARD(h)]
    return out


def outcome(st: MortainState, step: CombatPhase, action: Action) -> tuple[str, str] | None:
    """None when the step takes ``action``, else the refusal's rule and words."""
    try:
        step.check(st, st.stack[-1].args, action)
    except IllegalAction as exc:
        return exc.rule or "", str(exc)
    return None


def listing_outcome(st: MortainState, step: CombatPhase,
                    action: Action) -> tuple[str, str] | None:
    """What the runtime's default check (membership of the full listing) answers."""
    try:
        super(CombatPhase, step).check(st, st.stack[-1].args, action)
    except IllegalAction as exc:
        return exc.rule or "", str(exc)
    return None


@pytest.mark.parametrize("seed", ["mortcombat/1", "mortcombat/2"])
def test_s7_a_declaration_is_taken_exactly_when_the_listing_holds_it(seed: str) -> None:
    st = ENGINE.new_state("counterattack", ENGINE.resolve_options({}))
    assert isinstance(st, MortainState)
    choose = Chooser(seed)
    step = st.steps["combat"]
    assert isinstance(step, CombatPhase)
    seen = {"attack": 0, "bombard": 0, "refused attack": 0, "refused bombard": 0,
            "attacked already": 0}
    for _ in turns(st, choose, 3000):
        legal = st.legal_actions()
        if st.stack[-1].step == "combat":
            held = set(legal)
            for a in [*map(parse_act, legal), *near_misses(st)]:
                fast = combat.declared(st, a)
                assert fast == (a in held) or (not fast and a.kind not in (
                    "attack", "bombard", "end-combat")), (a, st.pos.turn, st.pos.phasing)
                # the step's check and the listing's agree, refusals word for word
                assert outcome(st, step, a) == listing_outcome(st, step, a), a
                if a in held and a.kind in seen:
                    seen[a.kind] += 1
                elif a.kind in ("attack", "bombard"):
                    seen[f"refused {a.kind}"] += 1
                    seen["attacked already"] += a.values[0] in st.pos.targets
        # attacks rather than 'end combat' where there are some, so that combat phases
        # hold several declarations and hexes already attacked
        attacks = [a for a in legal if parse_act(a).kind in ("attack", "bombard")]
        pick = attacks if attacks and st.stack[-1].step == "combat" and \
            choose.below(4) else legal
        st.apply(pick[choose.below(len(pick))])
    # the playouts met attacks, bombardments, hexes attacked already and refusals
    assert all(n > 5 for n in seen.values()), seen


def test_s7_a_received_declaration_lists_no_enemy_hex(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: an attack taken from a file is checked without listing the combat phase;
    one the listing lacks is refused in its words (S7.1) and changes nothing."""
    st = ENGINE.new_state("counterattack", ENGINE.resolve_options({}))
    assert isinstance(st, MortainState)
    choose = Chooser("mortcombat/received")
    while not (st.stack[-1].step == "combat" and any(
            parse_act(a).kind == "attack" for a in st.legal_actions())):
        if st.is_chance():
            st.apply_outcome(choose.outcome(st.chance_request()))
        else:
            legal = st.legal_actions()
            st.apply(legal[choose.below(len(legal))])
    attack = next(a for a in st.legal_actions() if parse_act(a).kind == "attack")
    target = parse_act(attack).text("target")
    taken = st.clone()
    st.forget_options()

    def listing(*args: object) -> object:
        raise AssertionError("the combat phase was listed to check one declaration")

    with monkeypatch.context() as m:
        m.setattr(CombatPhase, "options", listing)
        taken.apply(attack)
    assert taken.pos.combat is not None and taken.pos.combat.target == target
    assert target in taken.pos.targets
    friendly = next(h for h, u in sorted(st.occupant().items())
                    if st.side_of(u) == st.pos.phasing)
    before = (sorted(st.pos.targets), st.pos.combat)
    with pytest.raises(IllegalAction, match=r"S7\.1"):
        st.apply(ATTACK(friendly))
    assert (sorted(st.pos.targets), st.pos.combat) == before
