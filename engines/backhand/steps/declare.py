"""The Combat Phase's first decision (16.0): an attack declared on a hex, or the phase
ended.  Its own module, apart from the attack's steps (steps/fight.py): a turn whose
Combat Phase is ended without a battle (a received file's 'end') loads neither those
steps nor the combat and retreat rules (issue 35)."""

from __future__ import annotations

from engines.backhand.fronts import ap_left
from engines.backhand.notation import w
from engines.backhand.position import PhaseArgs
from engines.backhand.state import BBState
from engines.backhand.steps import SideChoice
from pbem.engine import Action, Event
from pbem.grammar import Act
from pbem.steps import Flow, Refusal


class CombatPhase(SideChoice):
    """The Combat Phase: pick a defending hex, then the attackers."""

    name = "combat"
    kind = "combat"
    rule = "16.0"
    Args = PhaseArgs

    def prompt(self, s: BBState, a: PhaseArgs) -> str:
        return f"{s.pos.segment}: combat ({ap_left(s, a.side)} activity points)"

    def options(self, s: BBState, a: PhaseArgs) -> list[Action]:
        from engines.backhand.combat import attack_targets

        return [*(w("attack", h) for h in attack_targets(s, a)), w("end")]

    default_action = w("end")

    def check(self, s: BBState, a: PhaseArgs, action: Action) -> None:
        if not self.listed(s, a, action):
            super().check(s, a, action)

    def listed(self, s: BBState, a: PhaseArgs, action: Action) -> bool:
        """Whether :meth:`options` lists ``action``, asked of the one hex named: a
        received file's every attack is checked, and the listing asks every unit of the
        side which hexes it could attack (issue 35)."""
        if not isinstance(action, Act) or action.kind not in ("end", "attack"):
            return False
        if action.kind == "end":
            return action == w("end")
        from engines.backhand.combat import is_attack_target

        h = action.text("hex")
        return is_attack_target(s, a, h) and action == w("attack", h)

    def why_not(self, s: BBState, a: PhaseArgs, action: Action) -> str | Refusal:
        if isinstance(action, Act) and action.kind == "attack":
            h = action.text("hex")
            if h in s.data.map and s.data.map.terrain_of(h) == "swamp":
                return Refusal("16.724", "no combat into or out of a swamp hex")
            if a.kind == "sp" and ap_left(s, a.side) <= 0:
                return Refusal("4.2 II.D", "no activity points left")
            return Refusal("16.0", f"no unit of yours can attack {h}")
        return super().why_not(s, a, action)

    def apply(self, s: BBState, a: PhaseArgs, action: Action, flow: Flow) -> list[Event]:
        assert isinstance(action, Act)
        if action.kind == "end":
            flow.end()
            return []
        from engines.backhand.combat import AttackArgs

        flow.call("attackers", AttackArgs(a.side, a.kind, action.text("hex")))
        return []


#: this module's step, which the step table (engines.backhand.sequence.STEPS) makes when
#: it is first asked for
STEPS = (CombatPhase(),)
