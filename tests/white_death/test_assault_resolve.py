"""The assault phase as the manual's Assault menu runs it (issue 13): "Continue until you
have completed assault plans on all the enemy hexes you selected ..., then go to RESOLVE.
RESOLVE: This executes the assault plans after you have completed them. The battle
commences against each hex and each unit targeted within it, one at a time. ... If any hex
has been vacated, you are given the opportunity to move in."  With sealed dice, the
resolve's fire rolls are batch ``assault`` (issue 21): the asker's file carries every plan,
and the opponent's next file resolves every fire from its one link."""

from __future__ import annotations

from pathlib import Path

from engines.white_death import WhiteDeath
from engines.white_death.state import WDState
from pbem import canonical
from pbem.audit import audit
from pbem.registry import get
from pbem.selfplay import selfplay

from .conftest import refused, settle
from .positions import position

#: two assaulted hexes, far apart: (defender, its hex, attacker, the attacker's hex)
FIRST = ("Sich/Now", "0514", "1192/357", "0614")
SECOND = ("Sich/Iso", "1510", "1188/357", "1610")


def two_assaults(engine: WhiteDeath) -> WDState:
    """Two one-point German units, each assaulted by one Soviet regiment; the German
    defensive fire at both hexes leaves the attackers unharmed (6s, then passed checks):
    the Soviet player is to plan his assault fire, at 0514 first."""
    s = position(engine, "[units]\n" + "".join(
        f'"{defender}" = {{hex = "{dhex}", strength = 1}}\n"{attacker}" = "{ahex}"\n'
        for defender, dhex, attacker, ahex in (FIRST, SECOND)))
    s.apply("impulse 3")  # Rule 5: the Soviet player needs 3 MPs to assault
    for _, dhex, attacker, _ in (FIRST, SECOND):
        s.apply(f"assault {dhex} with {attacker}")
    s.apply("end movement")
    for _ in range(2):  # the defender's fire is resolved hex by hex (Rule 5)
        assert s.phase == "defense"
        s.apply("done firing")
        while s.is_chance():
            s.apply_outcome((6,) if "fire" in s.chance_request().purpose else (1,))
    assert s.phase == "assault" and s.pos.combat is not None and s.pos.combat.hex == FIRST[1]
    return s


def test_no_result_is_known_before_every_hex_is_planned(engine: WhiteDeath) -> None:
    s = two_assaults(engine)
    events = s.apply(f"fire 2 at {FIRST[0]}")
    events += s.apply("done firing")
    # the plan for 0514 is made: nothing is rolled, nobody is hurt, the next plan is due
    assert not s.is_chance()
    assert not [e for e in events if e.kind in ("roll", "loss", "morale", "retreat")]
    assert s.pos.units[FIRST[0]].strength == 1 and s.on_map(FIRST[0])
    d = s.decision()
    assert d is not None and d.side == "soviet" and d.kind == "assault-fire"
    assert s.pos.combat is not None and s.pos.combat.hex == SECOND[1] and "now at 1510" in d.prompt
    # each plan keeps its own limits: a fire at a unit of the other hex is refused
    refused(s, f"fire 1 at {FIRST[0]}", "Rule 9.B")


def test_resolve_fires_the_plans_hex_by_hex_then_offers_the_advance(
        engine: WhiteDeath) -> None:
    s = two_assaults(engine)
    s.apply("done firing")
    s.apply("done firing")
    # RESOLVE: each hex in order, each planned fire (the Default Actions' share here)
    # with the morale check it causes; a 1 is MC3 on one strength point: eliminated
    assert s.is_chance() and s.phase == "assault"
    assert settle(s, 1) == [
        "conventional fire 2:1 against Sich/Now at 0514",
        "conventional fire 1:1 against Sich/Iso at 1510"]
    assert not s.on_map(FIRST[0]) and not s.on_map(SECOND[0])
    # both hexes were vacated: the advance is offered into either (Rule 9.D)
    d = s.decision()
    assert d is not None and d.kind == "advance" and d.side == "soviet"
    assert {"advance 1192/357 0514", "advance 1188/357 1510"} <= {
        a.notation() for a in s.legal_actions()}
    s.apply("advance 1188/357 1510")
    assert s.pos.units["1188/357"].loc == "1510"


def test_with_sealed_dice_the_resolve_rolls_wait_for_the_opponent(engine: WhiteDeath) -> None:
    s = two_assaults(engine)
    s.sealed_dice = True
    s.apply("done firing", side="soviet")
    events = s.apply("done firing", side="soviet")
    # the fire at the first hex is asked for in batch ``assault``; the first step that
    # reads its result (the hex's fright checks) makes the rolls the chance nodes
    assert [e.text for e in events if "waits" in e.text] == [
        "conventional fire 2:1 against Sich/Now at 0514: the roll waits for the german "
        "player's next file (sealed dice)"]
    assert s.is_chance() and not s.parked
    assert s.chance_request().purpose == "conventional fire 2:1 against Sich/Now at 0514"


def test_a_sealed_game_resolves_a_whole_assault_phase_from_one_link(tmp_path: Path) -> None:
    """Final relief, seed 2, sealed dice (rules 2, docs/protocol.md 6.2.1; seed 1 under
    rules 1 until then): the file that plans an assault phase of several hexes ends at
    RESOLVE, and the opponent's file after it resolves the fire at every hex, all from its
    one link (before 0.6 it took a file from each side per hex)."""
    out = selfplay("white-death", "final-relief", 2, tmp_path, max_actions=250,
                   dice_mode="sealed")
    assert not out.desyncs
    files = sorted((tmp_path / "files").glob("*.pbem"))
    report = audit([(p.name, p.read_bytes()) for p in files])
    assert report.clean, report.problems
    # replay the files' records: which file resolved each RESOLVE fire, at which hex
    engine = get("white-death")
    s = engine.new_state("final-relief", engine.resolve_options({}))
    assert isinstance(s, WDState)
    s.sealed_dice, s.sealed_rules = True, 2  # as a new sealed game's invite says
    resolved: dict[int, set[str]] = {}
    plans: dict[int, int] = {}
    for path in files[2:]:  # after the invite and the accept
        body = canonical.decode(canonical.decode(path.read_bytes())[5])
        n = body["seq"]
        for record in body["records"]:
            if record[0] == "r":
                if s.stack[-1].step == "assault-crt":
                    resolved.setdefault(n, set()).add(s.stack[-1].args.hex)
                s.apply_outcome(tuple(record[2]))
            else:
                plans[n] = plans.get(n, 0) + (record[1] == "done firing"
                                              and s.phase == "assault")
                s.apply(record[1], side=s.current_player() or "",
                        order=record[0] == "o")
    several = [n for n, hexes in sorted(resolved.items()) if len(hexes) >= 2]
    assert several, "no file resolved the assault fire at two hexes or more"
    n = several[0]
    # the asker planned every hex in its file, the opponent's file rolled every fire
    assert plans[n - 1] >= len(resolved[n])
    assert not resolved.get(n - 1) and not resolved.get(n + 1)
    assert len({r.seed for r in report.rolls if r.seq == n}) == 1  # one link
